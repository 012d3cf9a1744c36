//! Issue 12 item 2: 004's aircraft (play reference 2, "Aircraft") and the skills Hover and Air
//! Superiority (004 skills reference). Orders go through the real state machine; each test
//! quotes the sentence it checks. Rulings R440–R444.

use crate::support_flow::*;

use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::game::ScriptedDice;

/// A gun that can hit aircraft: `x` dice of `d` damage against every armour.
fn aa_gun(id: &str, range: WeaponRange, x: u8, d: u8) -> WeaponLine {
    let mut w = weapon(id, range, x, d);
    w.aircraft = [dice(x, d); 3];
    w
}

/// An aircraft card (armour aircraft 1, health 3, Movement 4, "rockets" 2 dice range 4).
pub(super) fn aircraft(id: &str, skills: &[&str]) -> Card {
    let mut c = card(
        id,
        UnitType::Vehicle,
        3,
        4,
        vec![aa_gun("rockets", WeaponRange::Upto(4), 2, 1)],
    );
    c.armour = Armour::Aircraft(1);
    for s in skills {
        c = with_skill(c, s, None);
    }
    c
}

/// A ground vehicle with the same numbers as [`aircraft`], for the controls.
pub(super) fn tank(id: &str, skills: &[&str]) -> Card {
    let mut c = aircraft(id, skills);
    c.armour = Armour::Vehicle(3);
    c
}

/// Both sides on the board, no reactive fire (so the scripted dice are the attack's only).
fn game(s: dustmail::dust_tactics::scenario::Scenario, cards: Vec<Card>) -> State {
    let mut st = start_defaults(s, cards);
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// Allied `a1` (card `mine`) on E5; an axis squad `x1` on E3 behind an impassable E4.
fn over_the_rocks(mine: Card) -> State {
    let id = mine.id.clone();
    let mut s = scenario(
        vec![unit("a1", &id, Some("E5"))],
        vec![unit("x1", "sq", Some("E3"))],
    );
    s.board.set_terrain(sq("E4"), Terrain::Impassable);
    game(s, vec![mine, squad("sq")])
}

// ---------------------------------------------------------------------------------------------
// 004 "Aircraft": movement
// ---------------------------------------------------------------------------------------------

#[test]
fn aircraft_004_ignore_terrain_and_fly_over_units() {
    // Issue 12 item 2. 004 "Aircraft": "Aircraft ignore terrain restrictions when moving, and
    // can fly over spaces without a dot in the center, or over friendly and enemy units." From
    // E5 over the impassable E4 and the enemy on E3 to E2: 3 squares of its Movement 4.
    let mut st = over_the_rocks(aircraft("hawk", &[]));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E2"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E2")), "{}", texts(&out));
    assert!(flow::illegal_positions(&st).is_empty());
}

#[test]
fn aircraft_004_a_ground_vehicle_may_not_make_the_same_move() {
    // Issue 12 item 2, the control: the same card with vehicle armour walks, and the impassable
    // square closes the way (004 "Terrain").
    let mut st = over_the_rocks(tank("panzer", &[]));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E2"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    refused(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E5")));
}

#[test]
fn aircraft_004_cannot_stop_on_the_same_space_as_another_unit() {
    // Issue 12 item 2. 004 "Aircraft": "They cannot stop their movement on the same space as
    // another unit, but they can freely cross any space occupied by a unit or hero."
    let mut st = over_the_rocks(aircraft("hawk", &[]));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E3"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("x1"), "{reason}");
    assert!(rule.contains("Aircraft"), "{rule}");
    assert_eq!(u(&st, "a1").at, Some(sq("E5")));
}

#[test]
fn aircraft_004_can_stop_anywhere_even_over_impassable_terrain() {
    // Issue 12 item 2. 004 "Aircraft": "Aircraft can stop their movement anywhere" (R442: every
    // square without another unit, whatever its terrain).
    let mut st = over_the_rocks(aircraft("hawk", &[]));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E4"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E4")));
    assert!(flow::illegal_positions(&st).is_empty());
}

#[test]
fn aircraft_004_a_flight_costs_movement_points_as_on_an_open_board() {
    // Issue 12 item 2 (R442): the flight is counted as a move on an open board, first diagonal
    // 1, each further one 2 (004 "Movement"). E5 to A1 is four diagonals: 1 + 2 + 2 + 2 = 7,
    // beyond Movement 4; E5 to E1 is 4.
    let mut st = over_the_rocks(aircraft("hawk", &[]));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("A1"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("costs 7"), "{reason}");
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E1"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E1")));
}

#[test]
fn aircraft_004_must_at_least_make_one_move_action_every_round() {
    // Issue 12 item 2. 004 "Aircraft": "Aircraft must at least make one MOVE action every round;
    // therefore they can never make a SUSTAINED ATTACK." (R443: an activation without a MOVE is
    // refused.)
    let mut st = over_the_rocks(aircraft("hawk", &[]));
    for actions in [
        vec![attack("rockets", "x1"), nothing()],
        vec![sustained("rockets", "x1")],
        vec![nothing(), nothing()],
    ] {
        let out = cmd(
            &mut st,
            "allies",
            activate("a1", actions),
            &mut ScriptedDice::new([5, 5, 5, 5]),
        );
        let (reason, rule) = refused(&out);
        assert!(reason.contains("aircraft"), "{reason}");
        assert!(rule.contains("Aircraft"), "{rule}");
    }
    assert_eq!(u(&st, "x1").models.len(), 4);
    // Moving first, it may attack.
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("D5"), attack("rockets", "x1")]),
        &mut ScriptedDice::new([1, 1]),
    );
    accepted(&out);
    assert_eq!(u(&st, "x1").models.len(), 2, "{}", texts(&out));
}

#[test]
fn hover_004_need_not_move_and_may_make_a_sustained_attack() {
    // Issue 12 item 2. 004 "Hover": "An aircraft with this skill can remain stationary while it
    // is in the air. It is not required to take at least one MOVE action during its turn, and
    // may therefore make a SUSTAINED ATTACK." Two misses re-rolled into hits.
    let mut st = over_the_rocks(aircraft("hawk", &["hover"]));
    let mut d = ScriptedDice::new([5, 6, 1, 1]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![sustained("rockets", "x1")]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "x1").models.len(), 2, "{}", texts(&out));
    assert_eq!(u(&st, "a1").at, Some(sq("E5")));
}

// ---------------------------------------------------------------------------------------------
// 004 "Aircraft": line of sight and range
// ---------------------------------------------------------------------------------------------

#[test]
fn aircraft_004_have_los_to_any_unit_on_the_battlefield() {
    // Issue 12 item 2. 004 "Aircraft": "They have LOS to any unit on the battlefield". The
    // impassable E4 between the aircraft on E5 and the squad on E3 blocks nobody's sight to it.
    let mut st = over_the_rocks(aircraft("hawk", &["hover"]));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("rockets", "x1"), nothing()]),
        &mut ScriptedDice::new([1, 1]),
    );
    accepted(&out);
    assert_eq!(u(&st, "x1").models.len(), 2, "{}", texts(&out));
}

#[test]
fn aircraft_004_a_ground_unit_behind_the_same_rocks_has_no_line_of_sight() {
    // Issue 12 item 2, the control: a ground vehicle on E5 cannot see past the impassable E4
    // (004 "Line of sight").
    let mut st = over_the_rocks(tank("panzer", &[]));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("rockets", "x1"), nothing()]),
        &mut ScriptedDice::new([1, 1]),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("line of sight"), "{reason}");
}

#[test]
fn aircraft_004_every_unit_has_line_of_sight_to_an_aircraft() {
    // Issue 12 item 2 (R441). 004 "Aircraft": they have LOS to any unit, so any unit has LOS to
    // them. The axis squad on E3 fires its anti-aircraft gun at the aircraft on E5 past E4.
    let mut flak = squad("flak");
    flak.weapons = vec![aa_gun("gun", WeaponRange::Upto(4), 1, 1)];
    let mut s = scenario(
        vec![unit("a1", "hawk", Some("E5"))],
        vec![unit("x1", "flak", Some("E3"))],
    );
    s.board.set_terrain(sq("E4"), Terrain::Impassable);
    let mut st = game(s, vec![aircraft("hawk", &[]), flak]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("F6"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    let mut d = ScriptedDice::new([1, 1, 1, 1]);
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("gun", "a1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert!(u(&st, "a1").health < 3, "{}", texts(&out));
}

/// Allied aircraft `a1` on E1; an axis unit `x1` (card `flak`, a U-range anti-aircraft gun) on
/// `at`, no terrain between.
fn flak_at(at: &str) -> State {
    let mut flak = card(
        "flak",
        UnitType::Vehicle,
        3,
        1,
        vec![aa_gun("gun", WeaponRange::Unlimited, 1, 1)],
    );
    flak.armour = Armour::Vehicle(3);
    let s = scenario(
        vec![unit("a1", "hawk", Some("E1"))],
        // x2 keeps the round open: no initiative roll eats the scripted dice.
        vec![unit("x1", "flak", Some(at)), unit("x2", "sq", Some("A9"))],
    );
    let mut st = game(s, vec![aircraft("hawk", &["hover"]), flak, squad("sq")]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    st
}

#[test]
fn aircraft_004_can_never_be_targeted_from_more_than_6_spaces_away() {
    // Issue 12 item 2. 004 "Aircraft": "Aircraft can never be targeted from more than 6 spaces
    // away. Weapons with a U range firing at aircraft treat Unlimited Range as Range 6." E8 is 7
    // squares from E1: refused; E7 is 6: the shot goes.
    let mut st = flak_at("E8");
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("gun", "a1"), nothing()]),
        &mut ScriptedDice::new([1]),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("6 squares"), "{reason}");
    assert!(rule.contains("Aircraft"), "{rule}");
    let mut st = flak_at("E7");
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("gun", "a1"), nothing()]),
        &mut ScriptedDice::new([1]),
    );
    accepted(&out);
    assert_eq!(u(&st, "a1").health, 2, "{}", texts(&out));
}

// ---------------------------------------------------------------------------------------------
// 004 "Air Superiority"
// ---------------------------------------------------------------------------------------------

/// Axis `x1` (a vehicle with an anti-aircraft gun, 2 dice, and `skills`) on E3; the allied
/// aircraft on E1 has hovered.
fn superiority(skills: &[&str]) -> State {
    let mut flak = card(
        "flak",
        UnitType::Vehicle,
        3,
        1,
        vec![aa_gun("gun", WeaponRange::Upto(4), 2, 1)],
    );
    flak.armour = Armour::Vehicle(3);
    for s in skills {
        flak = with_skill(flak, s, None);
    }
    let s = scenario(
        vec![unit("a1", "hawk", Some("E1"))],
        // x2 keeps the round open: no initiative roll eats the scripted dice.
        vec![unit("x1", "flak", Some("E3")), unit("x2", "sq", Some("A9"))],
    );
    let mut st = game(s, vec![aircraft("hawk", &["hover"]), flak, squad("sq")]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    st
}

#[test]
fn air_superiority_004_every_attack_at_an_aircraft_is_a_sustained_attack() {
    // Issue 12 item 2. 004 "Air Superiority": "When this vehicle uses its weapons against an
    // armor class [aircraft] unit it treats all ATTACK actions as SUSTAINED ATTACK actions."
    // An ATTACK's two misses are re-rolled into two hits.
    let mut st = superiority(&["air-superiority"]);
    let mut d = ScriptedDice::new([5, 6, 1, 1]);
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("gun", "a1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert!(texts(&out).contains("sustained"), "{}", texts(&out));
    assert_eq!(u(&st, "a1").health, 1, "{}", texts(&out));
}

#[test]
fn air_superiority_004_without_the_skill_an_attack_is_not_rerolled() {
    // Issue 12 item 2, the control: the same vehicle without the skill keeps its two misses.
    let mut st = superiority(&[]);
    let mut d = ScriptedDice::new([5, 6, 1, 1]);
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("gun", "a1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 2, "{}", texts(&out));
    assert_eq!(u(&st, "a1").health, 3, "{}", texts(&out));
}
