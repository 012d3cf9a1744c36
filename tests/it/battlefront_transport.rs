//! Issue 18 (battlefront-2013, 002 "Carrying Passengers", "Tank Riders (#)"; R732–R743): the
//! scenario games/dust-tactics/cards-battlefront-transport/scenarios/convoy.toml with the
//! provisional transports of that folder, made by `dustmail new --cards` and played to its end
//! by two bot players through the pipeline (signed mails, `referee::run`), then replayed. Both
//! sides begin with infantry mounted (002 "Mounting Vehicles": "Infantry Units can begin the game
//! mounted in the Vehicle"); the bots dismount them or fight on (R733).

use crate::support::dt::{self, InProc};
use dustmail::dust_tactics::bot::Style;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::referee;

const GAME: &str = "g-convoy";

fn path(rel: &str) -> String {
    format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn s002_passengers_the_convoy_scenario_is_played_to_its_end_by_signed_mail() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = dt::players(21);
    let seed = hex::encode([7u8; 32]);
    let cards = path("games/dust-tactics/cards-battlefront-transport");
    let scenario = format!("{cards}/scenarios/convoy.toml");
    let args = [
        "--ruleset",
        "battlefront-2013",
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
    let start = env.load(GAME);
    let st: &State = start.derived.state.typed();
    let riders = [
        ("bot-hunters", "transport"),
        ("grenadiers", "halftrack"),
        ("lasers", "tank"),
    ];
    for (rider, vehicle) in riders {
        assert_eq!(
            st.unit(rider).and_then(|u| u.aboard.as_deref()),
            Some(vehicle),
            "{rider} begins mounted in {vehicle}"
        );
    }
    let mut bots = dt::Bots::new(GAME, &ps, |_| Style::Aggressive);
    let mut left: Vec<String> = vec![];
    for _ in 0..400 {
        let g = env.load(GAME);
        let st: &State = g.derived.state.typed();
        for (rider, _) in riders {
            let out = st
                .unit(rider)
                .is_some_and(|u| u.aboard.is_none() && u.at.is_some());
            if out && !left.iter().any(|e| e == rider) {
                left.push(rider.to_string());
            }
        }
        let Some((name, mail)) = bots.next_mail(&g) else {
            break;
        };
        std::fs::write(home.maildir().join("new").join(name), mail).unwrap();
        env.run("2026-03-01T11:00:00Z");
    }
    let g = env.load(GAME);
    assert!(g.derived.finished.is_some(), "the game ends");
    assert!(!left.is_empty(), "a unit left its vehicle during the game");
    // The whole game replays and audits from the log.
    referee::replay_game(&DustTactics, &env.edges, &home, GAME).unwrap();
}
