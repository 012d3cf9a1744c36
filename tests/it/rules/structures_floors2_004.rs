//! Issue 12 (ffg-revised, seed 004): moving between the floors of a structure and onto its roof
//! (004 "STRUCTURES", "Moving"; R512, R514). Scenarios with `floors` above 1 are still refused
//! when read (R500), so each test reads the structures board and gives its building more floors
//! in the state, as a scenario with floors will; orders go through the real parser and state
//! machine.

use super::structures_004::{board_toml, unit_toml};
use crate::support_flow::*;
use dustmail::dust_tactics::floors::Height;
use dustmail::dust_tactics::model::{UnitType, WeaponRange};
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;

/// The structures board (building `house` D4–F5, door E5|E6 large, windows D4|C4, F4|G4) with
/// the house given `floors` floors; `allies` and `axis` are (id, card, square); cards `sq` (a
/// squad, movement 2), `tank` (a vehicle, movement 2). Allies activate, reactive fire off.
fn game(floors: u8, allies: &[(&str, &str, &str)], axis: &[(&str, &str, &str)]) -> State {
    let units = |v: &[(&str, &str, &str)]| -> String {
        v.iter().map(|(i, c, a)| unit_toml(i, c, a)).collect()
    };
    let text = board_toml(&units(allies), &units(axis), "");
    let sc = scenario::parse("structures", &text).unwrap_or_else(|e| panic!("{e}"));
    let gun = || weapon("gun", WeaponRange::Upto(4), 1, 1);
    let cards = vec![
        card("sq", UnitType::Squad, 4, 2, vec![gun()]),
        card("tank", UnitType::Vehicle, 3, 2, vec![gun()]),
    ];
    let mut st = DustTactics.start("ffg-revised", sc, cards).expect("setup");
    st.scenario.board.structures[0].floors = floors;
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// Where the unit stands, as the board text writes it (`E5@2`).
fn place(st: &State, id: &str) -> String {
    let x = u(st, id);
    dustmail::dust_tactics::floors::place(x.at.expect("on the board"), x.height)
}

fn accepted(st: &mut State, text: &str) -> String {
    let out = send(st, "allies", text, &mut Cycle(0));
    first_result(&out).unwrap_or_else(|e| panic!("refused: {e}"))
}

fn refused(st: &mut State, text: &str) -> String {
    let before = serde_json::to_string(&*st).expect("state serialises");
    let out = send(st, "allies", text, &mut Cycle(0));
    let why = first_result(&out).expect_err("the order is refused");
    let after = serde_json::to_string(&*st).expect("state serialises");
    assert_eq!(before, after, "a refused order changes nothing");
    why
}

// 004 STRUCTURES, Moving: "A unit can use a MOVE action to move up or down 1 floor for each MP
// spent." (R514: a path names the height, `E5@2`; each floor up or down costs 1 MP.)
#[test]
fn structures_floors2_004_moving_up_and_down_1_floor_for_each_mp() {
    let mut st = game(3, &[("b", "sq", "E5")], &[]);
    // Movement 2: up one floor and along it, then up again in the second MOVE.
    accepted(&mut st, "activate b\nmove E5@2 F5@2\nmove F5@3");
    assert_eq!(place(&st, "b"), "F5@3");
    assert_eq!(u(&st, "b").height, Some(Height::Floor(3)));
    // Two floors and a space are 3 MP: too far for movement 2.
    let mut st = game(3, &[("b", "sq", "E5")], &[]);
    let why = refused(&mut st, "activate b\nmove E5@2 E5@3 F5@3");
    assert!(why.contains("3 movement points away"), "{why}");
    assert!(why.contains("1 MP a floor up or down"), "{why}");
    // Down again: a path of plain squares from floor 2 comes down and walks out of the door.
    let mut st = game(2, &[("b", "sq", "E5")], &[]);
    st.unit_mut("b").expect("b").height = Some(Height::Floor(2));
    accepted(&mut st, "activate b\nmove E5 E6\nnothing");
    assert_eq!(place(&st, "b"), "E6");
    assert_eq!(u(&st, "b").height, None);
}

// 004 STRUCTURES, Moving: "Units may move diagonally both vertically and horizontally. Each
// space, in any direction, costs 1 MP." (R514: a space and a floor at once is one step.)
#[test]
fn structures_floors2_004_moving_diagonally_both_vertically_and_horizontally() {
    let mut st = game(2, &[("b", "sq", "E5")], &[]);
    // One step up and diagonally across (1 MP), one more diagonal on floor 2 (1 MP).
    accepted(&mut st, "activate b\nmove F4@2 E5@2\nnothing");
    assert_eq!(place(&st, "b"), "E5@2");
    // Two floors in one step is not a step.
    let mut st = game(3, &[("b", "sq", "E5")], &[]);
    let why = refused(&mut st, "activate b\nmove E5@3");
    assert!(why.contains("up or down 1 floor"), "{why}");
    // A floor the building does not have.
    let why = refused(&mut st, "activate b\nmove E5@2 E5@3 E5@4");
    assert!(why.contains("has 3 floors: there is no floor 4"), "{why}");
}

// 004 STRUCTURES, Moving: "Units can only enter a structure from the ground floor" (R514: the
// floors above are walked only on the structure's own squares).
#[test]
fn structures_floors2_004_moving_enter_only_from_the_ground_floor() {
    let mut st = game(2, &[("b", "sq", "E6")], &[]);
    let why = refused(&mut st, "activate b\nmove E5@2");
    assert!(
        why.contains("enters and leaves a structure only on the ground floor"),
        "{why}"
    );
    // In through the door on the ground floor, then up: 2 MP.
    accepted(&mut st, "activate b\nmove E5 E5@2\nnothing");
    assert_eq!(place(&st, "b"), "E5@2");
}

// 004 STRUCTURES, Moving: "Units inside can also move onto the structure's roof by moving up from
// the structure's top floor." (R514: straight up from the top floor, down the same way.)
#[test]
fn structures_floors2_004_moving_onto_the_roof_from_the_top_floor() {
    let mut st = game(2, &[("b", "sq", "E5")], &[]);
    accepted(&mut st, "activate b\nmove E5@2 E5@roof\nnothing");
    assert_eq!(place(&st, "b"), "E5@roof");
    assert_eq!(u(&st, "b").height, Some(Height::Roof));
    // Not from the ground floor of a building of 2 floors, and not sideways onto it.
    let mut st = game(2, &[("b", "sq", "E5")], &[]);
    let why = refused(&mut st, "activate b\nmove E5@roof");
    assert!(why.contains("up or down 1 floor"), "{why}");
    let why = refused(&mut st, "activate b\nmove E5@2 F5@roof");
    assert!(why.contains("straight up from the top floor"), "{why}");
    // The roof of a one-floor building is not played yet (R513, R514).
    let mut st = game(1, &[("b", "sq", "E5")], &[]);
    let why = refused(&mut st, "activate b\nmove E5@roof");
    assert!(why.contains("not played yet"), "{why}");
}

// 004 STRUCTURES, Moving: "Vehicles can enter structures through large entrances" and
// "Soldiers and heroes can enter structures through any entrance." (R512, R514: only soldiers and
// heroes go above the ground floor.)
#[test]
fn structures_floors2_004_moving_vehicles_stay_on_the_ground_floor() {
    let mut st = game(2, &[("t", "tank", "E5")], &[]);
    let why = refused(&mut st, "activate t\nmove E5@2");
    assert!(
        why.contains("only soldiers and heroes go above the ground floor"),
        "{why}"
    );
}

// 004 STRUCTURES, Cover: "Units on separate floors and directly above or below each other are
// not considered to be adjacent." (R512, R514: one unit per space and height, so a unit may stand
// above another; an enemy on a floor's space blocks it there.)
#[test]
fn structures_floors2_004_moving_units_stand_directly_above_each_other() {
    let mut st = game(2, &[("b", "sq", "D5")], &[("x", "sq", "E5")]);
    accepted(&mut st, "activate b\nmove D5@2 E5@2\nnothing");
    assert_eq!(place(&st, "b"), "E5@2");
    assert_eq!(place(&st, "x"), "E5");
    // An enemy on floor 2 of a space stops a move through it there.
    let mut st = game(2, &[("b", "sq", "D5")], &[("x", "sq", "E5")]);
    st.unit_mut("x").expect("x").height = Some(Height::Floor(2));
    let why = refused(&mut st, "activate b\nmove D5@2 E5@2");
    assert!(why.contains("occupied by enemy unit x"), "{why}");
    // On the ground floor of that space the way is free.
    accepted(&mut st, "activate b\nmove E5 E6\nnothing");
    assert_eq!(place(&st, "b"), "E6");
}
