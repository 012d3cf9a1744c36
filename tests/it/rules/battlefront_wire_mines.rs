//! Issue 18: 002 "Barbed Wire Entanglements", "Minefields" and the Engineering Special Action
//! under battlefront-2013 (R724–R727). Each test names 002's section and quotes its sentence.
//! Dust dice from the scripted d6: 1–2 army, 3–4 target, 5–6 shield (R230).

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::fortifications::Fortifications;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;

fn gun() -> WeaponLine {
    weapon("gun", WeaponRange::Upto(4), 1, 1)
}

/// Allies `sappers` (`ours`) on `from`; axis `target` (one soldier) far away on E1; barbed wire
/// on `wire`, minefields on `mines`.
fn setup(ours: Card, from: &str, wire: &[&str], mines: &[&str]) -> State {
    let mut s = scenario(
        vec![unit("sappers", &ours.id, Some(from))],
        vec![unit("target", "t", Some("E1"))],
    );
    s.fortifications = Some(Fortifications {
        barbed_wire: wire.iter().map(|t| sq(t)).collect(),
        minefields: mines.iter().map(|t| sq(t)).collect(),
        ..Default::default()
    });
    let t = card("t", UnitType::Squad, 1, 1, vec![gun()]);
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![ours, t])
        .expect("setup");
    for side in ["allies", "axis"] {
        dustmail::dust_tactics::flow::standing_react(&mut st, side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// Two soldiers, Movement 2.
fn sappers() -> Card {
    card("sapper-squad", UnitType::Squad, 2, 2, vec![gun()])
}

fn game(from: &str, wire: &[&str], mines: &[&str]) -> State {
    setup(sappers(), from, wire, mines)
}

fn fort(st: &State) -> Fortifications {
    st.scenario.fortifications.clone().expect("fortifications")
}

const THROUGH: &str = "activate sappers\n  move E6 E5\n  nothing";

// 002 "Barbed Wire Entanglements": "An Infantry Unit rolls a die when attempting to move into,
// through, or out of a Barbed Wire Entanglement. On a score of [army], the Unit is free to
// complete its movement." (R724: the one symbol that frees is the army symbol.)
#[test]
fn s002_barbed_wire_on_army_the_unit_is_free_to_complete_its_movement() {
    let mut st = game("E7", &["E6"], &[]);
    let out = play(&mut st, "allies", THROUGH, &[1]);
    let t = texts(&out);
    assert!(
        t.contains("sappers crosses the barbed wire on E6: army"),
        "{t}"
    );
    assert_eq!(purposes(&out), vec!["barbed wire on E6: sappers"]);
    assert_eq!(u(&st, "sappers").at, Some(sq("E5")));
}

// 002 "Barbed Wire Entanglements": "On a score of [target] or [shield], the Unit is tangled up
// and ceases moving until the end of its Activation." It stops on the wire it moved into, and
// the rest of its March Move is not made.
#[test]
fn s002_barbed_wire_on_target_or_shield_the_unit_is_tangled_up_and_ceases_moving() {
    for face in [3, 5] {
        let mut st = game("E7", &["E6"], &[]);
        let out = play(
            &mut st,
            "allies",
            "activate sappers\n  move E6 E5\n  move E4 E3",
            &[face],
        );
        let t = texts(&out);
        assert!(
            t.contains("sappers is tangled up in the barbed wire on E6"),
            "{t}"
        );
        assert_eq!(u(&st, "sappers").at, Some(sq("E6")), "{t}");
    }
}

// 002 "Barbed Wire Entanglements": "... when attempting to move into, through, or out of a
// Barbed Wire Entanglement": a unit standing in the wire rolls to leave it, and tangled stays.
#[test]
fn s002_barbed_wire_moving_out_of_it_rolls_too() {
    let mut st = game("E6", &["E6"], &[]);
    let out = play(
        &mut st,
        "allies",
        "activate sappers\n  move E5 E4\n  nothing",
        &[4],
    );
    assert!(texts(&out).contains("tangled up in the barbed wire on E6"));
    assert_eq!(u(&st, "sappers").at, Some(sq("E6")));
    let mut st = game("E6", &["E6"], &[]);
    play(
        &mut st,
        "allies",
        "activate sappers\n  move E5 E4\n  nothing",
        &[2],
    );
    assert_eq!(u(&st, "sappers").at, Some(sq("E4")));
}

// 002 "Barbed Wire Entanglements": "An Infantry Unit rolls a die": a vehicle crosses the wire
// without a roll (R724).
#[test]
fn s002_barbed_wire_a_vehicle_crosses_it_without_a_roll() {
    let walker = card("walker", UnitType::Vehicle, 2, 2, vec![gun()]);
    let mut st = setup(walker, "E7", &["E6"], &[]);
    let out = play(&mut st, "allies", THROUGH, &[]);
    assert!(purposes(&out).is_empty(), "{}", texts(&out));
    assert_eq!(u(&st, "sappers").at, Some(sq("E5")));
}

// 002 "Barbed Wire Entanglements": "An Infantry Unit can attempt to cut a gap through an
// adjacent Barbed Wire Entanglement by taking an Engineering Special Action. If they do so,
// roll a die. On a score of [army], the Unit clears a gap and the Barbed Wire Entanglement is
// removed." (R726)
#[test]
fn s002_barbed_wire_an_engineering_special_action_cuts_it_on_army() {
    let order = "activate sappers\n  skill engineering at E6\n  nothing";
    let mut st = game("E7", &["E6"], &[]);
    let out = play(&mut st, "allies", order, &[2]);
    assert!(
        texts(&out).contains("sappers cuts a gap: the barbed wire on E6 is removed"),
        "{}",
        texts(&out)
    );
    assert_eq!(
        purposes(&out),
        vec!["engineering on the barbed wire on E6: sappers"]
    );
    assert!(fort(&st).barbed_wire.is_empty());
    let mut st = game("E7", &["E6"], &[]);
    let out = play(&mut st, "allies", order, &[3]);
    assert!(texts(&out).contains("sappers fails to cut the barbed wire on E6"));
    assert_eq!(fort(&st).barbed_wire, vec![sq("E6")]);
}

// 002 "Barbed Wire Entanglements": the Engineering Special Action is an Infantry Unit's, on an
// adjacent wire. A square too far, a square without wire or minefield, and a vehicle are
// refused, each naming the rule; nothing changes.
#[test]
fn s002_engineering_needs_an_adjacent_wire_or_minefield_and_infantry() {
    let mut st = game("E7", &["E4"], &[]);
    let out = play(
        &mut st,
        "allies",
        "activate sappers\n  skill engineering at E4\n  nothing",
        &[],
    );
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("E4 is not next to sappers") && e.contains("Engineering Special Action"),
        "{e}"
    );
    let out = play(
        &mut st,
        "allies",
        "activate sappers\n  skill engineering at D7\n  nothing",
        &[],
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("D7 is no barbed wire or minefield"), "{e}");
    assert_eq!(fort(&st).barbed_wire, vec![sq("E4")]);
    // A move next to it first, then the action: accepted.
    let out = play(
        &mut st,
        "allies",
        "activate sappers\n  move E5\n  skill engineering at E4",
        &[1],
    );
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    assert!(fort(&st).barbed_wire.is_empty());
    let walker = card("walker", UnitType::Vehicle, 2, 2, vec![gun()]);
    let mut st = setup(walker, "E7", &["E6"], &[]);
    let out = play(
        &mut st,
        "allies",
        "activate sappers\n  skill engineering at E6\n  nothing",
        &[],
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("sappers is a vehicle"), "{e}");
}

// 002 "Minefields": "When a Unit moves into, through, or out of a Minefield, the opposing player
// attacks it with a rating of [one die per model]/2." (R725) Two soldiers: two dice; the army
// hits, the target misses; the hit soldier fails his Infantry Save (shield) and is lost.
#[test]
fn s002_minefields_moving_through_one_the_unit_is_attacked() {
    let mut st = game("E7", &[], &["E6"]);
    let out = play(&mut st, "allies", THROUGH, &[1, 3, 5]);
    let t = texts(&out);
    assert!(
        t.contains("the minefield on E6 attacks sappers") && t.contains("2 damage to model"),
        "{t}"
    );
    assert_eq!(
        purposes(&out),
        vec![
            "attack by the minefield on E6: sappers",
            "infantry save vs minefield: model 1"
        ]
    );
    assert_eq!(u(&st, "sappers").at, Some(sq("E5")));
    assert_eq!(u(&st, "sappers").models.len(), 1, "{t}");
    // The same hit saved (army): nobody is lost.
    let mut st = game("E7", &[], &["E6"]);
    play(&mut st, "allies", THROUGH, &[1, 3, 2]);
    assert_eq!(u(&st, "sappers").models.len(), 2);
    // No minefield on the way: no attack, no die.
    let mut st = game("D7", &[], &["E6"]);
    play(
        &mut st,
        "allies",
        "activate sappers\n  move D6 D5\n  nothing",
        &[],
    );
    assert_eq!(u(&st, "sappers").at, Some(sq("D5")));
}

// 002 "Minefields": "... with a rating of [one die per model]/2": each hit does 2 damage. A hero
// of 3 damage points hit once, his save failed, has 1 left.
#[test]
fn s002_minefields_each_hit_does_two_damage() {
    let hero = card("sapper-hero", UnitType::Hero, 3, 2, vec![gun()]);
    let mut st = setup(hero, "E7", &[], &["E6"]);
    let out = play(&mut st, "allies", THROUGH, &[2, 6]);
    assert_eq!(u(&st, "sappers").health, 1, "{}", texts(&out));
}

// 002 "Minefields": "An Infantry Unit can attempt to clear a gap through an adjacent Minefield
// by taking an Engineering Special Action. If they do so, roll a die. On a score of [army], the
// Unit clears a gap and the Minefield is removed. On any other roll, the Unit is attacked as if
// they had moved through the Minefield and receives a Suppression token." (R726: the token is
// not played, R264.)
#[test]
fn s002_minefields_engineering_clears_on_army_else_the_unit_is_attacked() {
    let order = "activate sappers\n  skill engineering at E6\n  nothing";
    let mut st = game("E7", &[], &["E6"]);
    let out = play(&mut st, "allies", order, &[1]);
    assert!(texts(&out).contains("sappers clears a gap: the minefield on E6 is removed"));
    assert!(fort(&st).minefields.is_empty());
    let mut st = game("E7", &[], &["E6"]);
    let out = play(&mut st, "allies", order, &[4, 2, 2, 5, 5]);
    let t = texts(&out);
    assert!(
        t.contains("sappers fails to clear the minefield on E6: it is attacked")
            && t.contains("the minefield on E6 attacks sappers"),
        "{t}"
    );
    assert_eq!(u(&st, "sappers").models.len(), 0, "{t}");
    assert!(u(&st, "sappers").destroyed);
    assert_eq!(fort(&st).minefields, vec![sq("E6")]);
}

// 002 "Minefields": "On any other roll, the Unit is attacked as if they had moved through the
// Minefield and receives a Suppression token." The sappers fail (target), the minefield's four
// dice all miss (shield), and the unit, unharmed, is Suppressed (R726, R702).
#[test]
fn s002_minefields_a_failed_clearing_leaves_the_unit_suppressed() {
    use dustmail::dust_tactics::battlefront::suppression::Token;
    let order = "activate sappers\n  skill engineering at E6\n  nothing";
    let mut st = game("E7", &[], &["E6"]);
    let models = u(&st, "sappers").models.len();
    let dice: Vec<u8> = std::iter::once(4)
        .chain(std::iter::repeat_n(5, models))
        .collect();
    let out = play(&mut st, "allies", order, &dice);
    let t = texts(&out);
    assert!(
        t.contains("sappers receives a Suppressed token for its failed clearing"),
        "{t}"
    );
    assert_eq!(u(&st, "sappers").models.len(), models, "{t}");
    assert_eq!(
        u(&st, "sappers").suppression,
        Some(Token::Suppressed),
        "{t}"
    );
}

// 002 "Barbed Wire Entanglements", "Minefields" are Terrain placed on the board; a scenario
// lists their squares (`barbed_wire`, `minefields`) on open ground, one fortification a square;
// bunkers stay refused by name (R723).
#[test]
fn s002_barbed_wire_and_minefields_in_the_scenario_file() {
    let text = scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "supply-drop")
        .expect("shipped")
        .1;
    let with = |f: &str| {
        text.replace(
            "[reserves]",
            &format!("[fortifications]\n{f}\n\n[reserves]"),
        )
    };
    let s = scenario::parse(
        "sd",
        &with("barbed_wire = [\"D4\", \"C4\"]\nminefields = [\"F4\"]"),
    )
    .expect("accepted");
    let f = s.fortifications.expect("fortifications");
    assert_eq!(f.barbed_wire, vec![sq("C4"), sq("D4")]);
    assert_eq!(f.minefields, vec![sq("F4")]);
    let e = scenario::parse("sd", &with("barbed_wire = [\"D4\"]\nminefields = [\"D4\"]"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("fortifications.minefields") && e.contains("already another fortification"),
        "{e}"
    );
    let e = scenario::parse("sd", &with("minefields = [\"Z9\"]"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("`Z9` is not a square"), "{e}");
}

// 002 "Fortifications": "some scenarios give players Fortifications for free." The shipped
// scenario `wire-and-mines` (003's Encounter across barbed wire and minefields, with a
// strongpoint) is played to its end by two players' signed mails through the real pipeline; the
// welcome mails list the wire and the minefields, the reports show the wire's die and the
// minefields' attacks as the bots' units cross them; replay and audit pass.
#[test]
fn s002_fortifications_wire_and_mines_is_played_to_its_end_by_signed_mail() {
    let (flat, st) =
        crate::rules::battlefront_scenarios::play_by_mail("wire-and-mines", ["allies", "axis"], 71);
    assert!(
        flat.contains("Barbed wire (002 \"Barbed Wire Entanglements\"): C4 D4 F4 G4."),
        "the briefing does not list the wire"
    );
    assert!(
        flat.contains("Minefields (002 \"Minefields\"): C3 G3."),
        "the briefing does not list the minefields"
    );
    assert!(
        flat.contains("the barbed wire on") || flat.contains("the minefield on"),
        "no unit crossed a fortification"
    );
    let f = st.scenario.fortifications.as_ref().expect("fortifications");
    assert_eq!(f.strongpoints, [[sq("D2"), sq("E2")]]);
}

// 002 "Barbed Wire Entanglements": "An Infantry Unit can attempt to cut a gap through an
// adjacent Barbed Wire Entanglement by taking an Engineering Special Action." The orders
// template offers `skill engineering at <square>` for the wire and minefields next to the unit
// only (R726), and the line it offers is accepted.
#[test]
fn s002_engineering_the_orders_template_offers_it_next_to_wire_or_mines_only() {
    let st = game("E7", &["E6"], &["D6", "E3"]);
    let t = dustmail::dust_tactics::view::orders_template(&st, "allies");
    assert!(t.contains("skill engineering at E6"), "{t}");
    assert!(t.contains("skill engineering at D6"), "{t}");
    assert!(!t.contains("skill engineering at E3"), "{t}");
    let mut st = st;
    let out = play(
        &mut st,
        "allies",
        "activate sappers\n  skill engineering at D6\n  nothing",
        &[1],
    );
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    assert!(fort(&st).minefields == vec![sq("E3")]);
}
