//! Issue 18 (battlefront-2013, seed 003): the two sight gaps R800–R801 left. An aircraft's
//! square does not block a ground unit's line of sight (R807: 003 "Aircraft Move Over Terrain",
//! "placed above them"), and a strongpoint or bunker next to a ground unit hides it from an
//! aircraft as trees do (R808: 003 "Line of Sight to Aircraft" with 002's "Bunkers and
//! Strongpoints are Terrain and block Line of Sight"). Both since rules revision 9.

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::fortifications::Fortifications;
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Outcome, ScriptedDice};

use super::aircraft_004::{aircraft, tank};

/// A battlefront-2013 game with `allies` and `axis`, the cards `gunner` (a one-soldier squad
/// with a gun of range 6), `hawk` (an aircraft) and `panzer` (the same card as a vehicle), a
/// strongpoint on each of `forts`; no reactive fire; the allies to act.
fn game(allies: Vec<UnitSpec>, axis: Vec<UnitSpec>, forts: &[[&str; 2]]) -> State {
    let mut s = scenario(allies, axis);
    if !forts.is_empty() {
        s.fortifications = Some(Fortifications {
            strongpoints: forts.iter().map(|[a, b]| [sq(a), sq(b)]).collect(),
            ..Default::default()
        });
    }
    let gun = weapon("gun", WeaponRange::Upto(6), 1, 1);
    let cards = vec![
        card("gunner", UnitType::Squad, 1, 1, vec![gun]),
        aircraft("hawk", &[]),
        tank("panzer", &[]),
    ];
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    for side in ["allies", "axis"] {
        flow::standing_react(&mut st, side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

const SHOOT: &str = "activate shooter\n  attack gun at target\n  nothing";

/// The allied squad `shooter` on E6 and the axis squad `target` on E2, with `between` (card
/// `hawk` or `panzer`) standing on E4, on every line between them.
fn across(between: &str) -> State {
    game(
        vec![
            unit("shooter", "gunner", Some("E6")),
            unit("over", between, Some("E4")),
        ],
        vec![unit("target", "gunner", Some("E2"))],
        &[],
    )
}

// 003 "Aircraft Move Over Terrain": "Aircraft fly over the battlefield, so can move across any
// terrain. Aircraft can never enter terrain or buildings and are placed above them rather than
// in them."; 003 "Line of Sight Through Units": "a square containing a Vehicle unit (whether
// friendly or enemy) does block Line of Sight" (R807). The squad on E6 shoots at E2 under the
// aircraft on E4: the attack is made. A ground vehicle on E4 blocks the same line; in a game
// made before rules revision 9 the aircraft blocked as a vehicle, and still does on replay.
#[test]
fn s003_line_of_sight_an_aircraft_above_the_battlefield_blocks_no_ground_line() {
    let mut st = across("hawk");
    let out = play(&mut st, "allies", SHOOT, &[5]);
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    assert!(texts(&out).contains("shooter fires gun"), "{}", texts(&out));

    let mut st = across("panzer");
    let out = play(&mut st, "allies", SHOOT, &[]);
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("no line of sight") && e.contains("vehicle over on E4"),
        "{e}"
    );
    assert!(
        !texts(&out).contains("shooter fires gun"),
        "{}",
        texts(&out)
    );

    let mut st = across("hawk");
    st.rules_revision = 8;
    let out = play(&mut st, "allies", SHOOT, &[]);
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("no line of sight") && e.contains("vehicle over on E4"),
        "{e}"
    );
}

/// The allied aircraft `a1` on E1 flies to E2 and fires its rockets at the axis squad `x1` on
/// `at`, with a strongpoint on each of `forts`.
fn rockets(at: &str, forts: &[[&str; 2]], revision: u32) -> (State, Outcome) {
    let mut st = game(
        vec![unit("a1", "hawk", Some("E1"))],
        vec![unit("x1", "gunner", Some(at))],
        forts,
    );
    st.rules_revision = revision;
    let dice = (0..300).map(|i| (i % 6 + 1) as u8).collect::<Vec<u8>>();
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E2"), attack("rockets", "x1")]),
        &mut ScriptedDice::new(dice),
    );
    (st, out)
}

// 003 "Line of Sight to Aircraft": "an Aircraft cannot see or be seen from a unit immediately
// behind terrain that would block Line of Sight to a Vehicle unit"; 002 "Line of Sight To
// Bunkers and Strongpoints": "Bunkers and Strongpoints are Terrain and block Line of Sight.
// ... Units in Strongpoints can see and be seen from any direction." (R808) A strongpoint on
// E5+F5, right in front of the squad on E6, hides it from the aircraft on E2; one on E3+F3, two
// squares from it, does not; a squad inside the strongpoint (on E5) is seen. In a game made
// before rules revision 9 the strongpoint hid nothing from an aircraft, and replays unchanged.
#[test]
fn s003_line_of_sight_to_aircraft_a_strongpoint_next_to_the_ground_unit_blocks() {
    let (st, out) = rockets("E6", &[["E5", "F5"]], 9);
    let (reason, rule) = refused(&out);
    assert!(reason.contains("the strongpoint on E5"), "{reason}");
    assert!(rule.contains("003 'Line of Sight to Aircraft'"), "{rule}");
    assert_eq!(u(&st, "a1").at, Some(sq("E1")));

    let (st, out) = rockets("E6", &[["E3", "F3"]], 9);
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E2")), "{}", texts(&out));

    let (st, out) = rockets("E5", &[["E5", "F5"]], 9);
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E2")), "{}", texts(&out));

    let (st, out) = rockets("E6", &[["E5", "F5"]], 8);
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E2")), "{}", texts(&out));
}
