//! Issue 12: 004's aircraft entering the battlefield, "Entering the Battlefield" (play reference
//! 2, "Aircraft"): regular and advanced deployment, and the units an aircraft carries (ruling
//! R545). Orders go through the real parser and state machine; each test quotes its sentence.

use super::aircraft_004::{aircraft, tank};
use crate::support_flow::*;
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::Card;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::game::ScriptedDice;

/// Allied `a1` (card `mine`) off the board (entry row 9), with squad `r` inside it when `riders`;
/// axis squads `x1` on E2 and `x2` on I1 (axis entry row 1); no reactive fire; allies first.
pub(super) fn off_board(mine: Card, riders: bool) -> State {
    let id = mine.id.clone();
    let mut allies = vec![unit("a1", &id, None)];
    if riders {
        let mut r = unit("r", "sq", None);
        r.aboard = Some("a1".into());
        allies.push(r);
    }
    let s = scenario(
        allies,
        vec![unit("x1", "sq", Some("E2")), unit("x2", "sq", Some("I1"))],
    );
    let mut st = start_defaults(s, vec![mine, squad("sq")]);
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// An aircraft with Carry Capacity 4.
fn transport_aircraft() -> Card {
    let mut c = with_skill(aircraft("lifter", &[]), "carry-capacity", None);
    if let Some(s) = c.skills.last_mut() {
        s.value = Some(4);
    }
    c
}

fn run(st: &mut State, side: &str, orders: &str) -> Result<String, String> {
    let before = st.clone();
    let r = first_result(&send(st, side, orders, &mut ScriptedDice::new([])));
    if r.is_err() {
        assert!(*st == before, "the refusal changed the game: {r:?}");
    }
    r
}

// 004 "Aircraft", "Entering the Battlefield": "Advanced deployment: The aircraft can enter the
// board on any space not in an opponent's deployment zone. The aircraft must make a MOVE + MOVE
// action." The aircraft enters on E5, mid-board, and flies on to E4.
#[test]
fn aircraft_004_advanced_deployment_enters_on_any_space_then_moves_again() {
    let mut st = off_board(aircraft("hawk", &[]), false);
    let understood = run(&mut st, "allies", "activate a1\n  move E5\n  move E4").unwrap();
    assert!(understood.contains("enter at E5"), "{understood}");
    assert_eq!(u(&st, "a1").at, Some(sq("E4")));
}

// 004 "Aircraft": "... on any space not in an opponent's deployment zone." E1 is in the axis
// entry row: refused, naming the rule, and nothing changes.
#[test]
fn aircraft_004_advanced_deployment_never_in_an_opponents_deployment_zone() {
    let mut st = off_board(aircraft("hawk", &[]), false);
    let r = run(&mut st, "allies", "activate a1\n  move E1\n  move D2").unwrap_err();
    assert!(
        r.contains("E1 is in an opponent's deployment zone") && r.contains("004 'Aircraft'"),
        "{r}"
    );
}

// 004 "Aircraft": "The aircraft must make a MOVE + MOVE action." Entering on E5 and then doing
// nothing is refused; entering from its own zone (regular deployment: "the second action can be
// anything else (as usual)") is not.
#[test]
fn aircraft_004_advanced_deployment_must_make_move_plus_move() {
    let mut st = off_board(aircraft("hawk", &[]), false);
    let r = run(&mut st, "allies", "activate a1\n  move E5\n  nothing").unwrap_err();
    assert!(r.contains("MOVE + MOVE"), "{r}");
    run(&mut st, "allies", "activate a1\n  move E9\n  nothing").unwrap();
    assert_eq!(u(&st, "a1").at, Some(sq("E9")));
}

// 004 "Aircraft" is about aircraft: the same card with vehicle armour enters only from its own
// zone ("During the first round, units must enter the battlefield").
#[test]
fn aircraft_004_advanced_deployment_is_for_aircraft_only() {
    let mut st = off_board(tank("panzer", &[]), false);
    let r = run(&mut st, "allies", "activate a1\n  move E5\n  move E4").unwrap_err();
    assert!(r.contains("E5 is not in"), "{r}");
}

// 004 "Aircraft": "If it has the Carry Capacity skill, any unit it carries may not exit on the
// same turn in which the aircraft enters the battlefield." After an advanced deployment, the
// squad inside may not exit this round; after a regular entry it may.
#[test]
fn aircraft_004_units_carried_may_not_exit_the_turn_of_an_advanced_deployment() {
    let mut st = off_board(transport_aircraft(), true);
    run(&mut st, "allies", "activate a1\n  move E5\n  move E4").unwrap();
    run(&mut st, "axis", "activate x1\n  nothing\n  nothing").unwrap();
    let r = run(&mut st, "allies", "activate r\n  move exit E5\n  nothing").unwrap_err();
    assert!(
        r.contains("a1 entered the battlefield by advanced deployment this round")
            && r.contains("may not exit on the same turn"),
        "{r}"
    );
    // The control: a regular entry, then the squad exits in the same round.
    let mut st = off_board(transport_aircraft(), true);
    run(&mut st, "allies", "activate a1\n  move E9\n  move E8").unwrap();
    run(&mut st, "axis", "activate x1\n  nothing\n  nothing").unwrap();
    run(&mut st, "allies", "activate r\n  move exit E7\n  nothing").unwrap();
    assert_eq!(u(&st, "r").at, Some(sq("E7")));
}

// Rules revision 7 (R545): a game made before refused every entry outside the zone, and replays
// so.
#[test]
fn aircraft_004_a_game_made_before_revision_7_has_no_advanced_deployment() {
    let mut st = off_board(aircraft("hawk", &[]), false);
    st.rules_revision = 6;
    let r = run(&mut st, "allies", "activate a1\n  move E5\n  move E4").unwrap_err();
    assert!(r.contains("E5 is not in"), "{r}");
}
