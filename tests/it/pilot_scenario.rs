//! Issue 12, piloting: the scenario games/dust-tactics/scenarios/pilot.toml, with the provisional
//! card of games/dust-tactics/cards-pilot/, made by `dustmail new --cards` and played to its end
//! by two players through the pipeline (signed mails, `referee::run`). The Allied player writes
//! the pilot's orders by hand: he boards the Pounder in round 1 and leaves it in round 2 before
//! it activates (004 "Pilot: Name": "He may board or exit the noted vehicle, obeying the usual
//! embarking and disembarking rules", R544), and always activates first when he wins the
//! initiative; bots write every other mail.

use crate::support::dt::{self, InProc};
use dustmail::dust_tactics::bot::Style;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::{view, DustTactics};
use dustmail::game::Game;
use dustmail::referee;

const GAME: &str = "g-pilot";

fn path(rel: &str) -> String {
    format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// The pilot's own orders when the Allies are to activate a unit: board the Pounder while he
/// stands beside it in round 1, exit it (onto the first square the orders template offers)
/// at the first Allied activation of round 2. (A ruin hides him from the Axis until he boards;
/// the Allied player, winning the initiative, always activates first.)
fn pilot_orders(st: &State) -> Option<String> {
    let p = st.unit("pilot").filter(|p| !p.destroyed)?;
    let piloting = p.joined.as_deref() == Some("pounder");
    if st.round == 1 && !piloting && !p.activated {
        return Some("activate pilot\n  move board pounder\n  nothing".into());
    }
    if st.round == 2 && piloting {
        let t = view::orders_template(st, "allies");
        let exit = t
            .lines()
            .find_map(|l| l.trim_start_matches('#').trim().strip_prefix("move exit "))
            .map(|rest| {
                rest.split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })?;
        return Some(format!("activate pilot\n  move exit {exit}\n  nothing"));
    }
    None
}

#[test]
fn pilot_name_004_the_pilot_scenario_is_played_to_its_end_through_the_pipeline() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = dt::players(23);
    let seed = hex::encode([7u8; 32]);
    let scenario = path("games/dust-tactics/scenarios/pilot.toml");
    let cards = path("games/dust-tactics/cards-pilot");
    let args = [
        "--scenario",
        &scenario,
        "--cards",
        &cards,
        "--seed",
        &seed,
        "--id",
        GAME,
        "--now",
        dt::T0,
    ];
    let o = dt::new_with_players(&home.root, &args, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = InProc::open(&home);
    let mut bots = dt::Bots::new(GAME, &ps, |_| Style::Aggressive);
    let allies = ps.iter().find(|p| p.side == "allies").unwrap().clone();
    let (mut boarded, mut exited, mut hand) = (false, false, 0);
    for _ in 0..400 {
        let g = env.load(GAME);
        let st: &State = g.derived.state.typed();
        let pilot = st.unit("pilot").unwrap();
        boarded |= pilot.joined.as_deref() == Some("pounder");
        let pounder_stands = !st.unit("pounder").unwrap().destroyed;
        exited |= boarded && pounder_stands && pilot.joined.is_none() && !pilot.destroyed;
        let awaited = DustTactics.awaiting(st).into_iter().next();
        let ours = match awaited.as_ref() {
            Some(a) if a.side == "allies" && a.decision == "first" => Some("first allies".into()),
            Some(a) if a.side == "allies" && a.decision == "activate" => pilot_orders(st),
            _ => None,
        };
        let (name, mail) = match ours {
            Some(commands) => {
                hand += 1;
                let seq = g.derived.last_seq.get("allies").copied().unwrap_or(0) + 1;
                let orders = dt::orders(GAME, "allies", seq, &commands);
                let id = format!("{GAME}-hand-{hand}@players.example");
                let m = dt::mail(&allies.address, &id, &allies.key, &orders);
                (format!("{GAME}-hand-{hand:03}.eml"), m)
            }
            None => match bots.next_mail(&g) {
                Some(x) => x,
                None => break,
            },
        };
        std::fs::write(home.maildir().join("new").join(name), mail).unwrap();
        env.run("2026-03-01T11:00:00Z");
    }
    let g = env.load(GAME);
    assert!(g.derived.finished.is_some(), "the game ends");
    assert!(boarded, "the pilot boarded the Pounder during the game");
    assert!(exited, "the pilot left the Pounder during the game");
    // The whole game replays and audits from the log.
    referee::replay_game(&DustTactics, &env.edges, &home, GAME).unwrap();
}
