//! Issue 12 (ffg-revised, seed 004): the bots use the steps between heights the orders template
//! offers (004 "STRUCTURES", "Moving"; R635). A bot game on games/dust-tactics/scenarios/tower.toml
//! is played to its end by signed mail; a bot's own order takes a unit above the ground floor.

use crate::support::dt;
use dustmail::dust_tactics::bot::Style;

// 004 STRUCTURES, Moving: "A unit can use a MOVE action to move up or down 1 floor for each MP
// spent." (R635: a soldier unit of a bot inside a structure climbs to where it has a target, and
// the report tells the move to a floor above the ground; no order of this test names a height.)
#[test]
fn bot_climb_004_moving_the_bots_climb_in_the_tower() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let scen = root.join("games/dust-tactics/scenarios/tower.toml");
    let dir = tempfile::tempdir().unwrap();
    let (home, ps, env) = dt::new_in_home(
        dir.path(),
        &["--scenario", scen.to_str().unwrap()],
        ("g-climb", 31, 7),
    );
    let mut bots = dt::Bots::new("g-climb", &ps, |_| Style::Aggressive);
    env.run(dt::NOW);
    bots.play_to_end(&home, &env);
    let g = env.load("g-climb");
    assert!(g.derived.finished.is_some(), "the game ended");
    let mails = crate::support::flat(&dt::sent_text(&home));
    // "<unit> moves to E5@2 (E4 E5@2)": a MOVE naming heights ended above the ground floor.
    let climbed = mails.split(" moves to ").skip(1).find(|rest| {
        let place = rest.split([' ', ',']).next().unwrap_or("");
        place.contains('@')
    });
    assert!(
        climbed.is_some(),
        "no bot move ended above the ground floor"
    );
    dt::replay_and_audit(&home, "g-climb");
}
