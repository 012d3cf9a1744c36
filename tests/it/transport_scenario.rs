//! Issue 12, transport: the scenario games/dust-tactics/scenarios/transport.toml, with the
//! provisional cards of games/dust-tactics/cards-transport/, made by `dustmail new --cards` and
//! played to its end by two bot players through the pipeline (signed mails, `referee::run`).
//! Both sides begin with a squad inside a transport (004 "Carry Capacity": "Squads and heroes can
//! begin the game inside a vehicle", R465); the bots exit them next to their vehicles (R461).

use crate::support::dt::{self, InProc};
use dustmail::dust_tactics::bot::Style;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::referee;

const GAME: &str = "g-transport";

fn path(rel: &str) -> String {
    format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn carry_capacity_004_the_transport_scenario_is_played_to_its_end_through_the_pipeline() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = dt::players(21);
    let seed = hex::encode([5u8; 32]);
    let scenario = path("games/dust-tactics/scenarios/transport.toml");
    let cards = path("games/dust-tactics/cards-transport");
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
    let start = env.load(GAME);
    let st: &State = start.derived.state.typed();
    for (rider, vehicle) in [("rangers", "transport"), ("recon", "halftrack")] {
        assert_eq!(
            st.unit(rider).and_then(|u| u.aboard.as_deref()),
            Some(vehicle),
            "{rider} begins inside {vehicle}"
        );
    }
    let mut bots = dt::Bots::new(GAME, &ps, |_| Style::Aggressive);
    let mut exited: Vec<String> = vec![];
    for _ in 0..400 {
        let g = env.load(GAME);
        let st: &State = g.derived.state.typed();
        for rider in ["rangers", "recon"] {
            let out = st
                .unit(rider)
                .is_some_and(|u| !u.destroyed && u.aboard.is_none() && u.at.is_some());
            if out && !exited.iter().any(|e| e == rider) {
                exited.push(rider.to_string());
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
    assert!(
        !exited.is_empty(),
        "a squad left its transport during the game"
    );
    // The whole game replays and audits from the log.
    referee::replay_game(&DustTactics, &env.edges, &home, GAME).unwrap();
}
