//! Issue 12: 004 "NCO Command Squads", Field Medic: "Stimulant Kit (SKILL)" (R477). The NCO
//! command squad is games/dust-tactics/cards-joining/nco-command-squad.toml; orders go through
//! the real parser and state machine, and each test quotes the sentence it checks.

use super::joining_004::card_in;
use crate::support_flow::*;

use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::ScriptedDice;

/// A four-model squad with a gun (range 4) and a knife (range C).
fn knives(id: &str) -> Card {
    let mut c = squad(id);
    c.weapons.push(weapon("knife", WeaponRange::Close, 1, 1));
    c
}

fn hero() -> Card {
    let mut h = card("h", UnitType::Hero, 3, 1, vec![]);
    h.armour = Armour::Soldier(2);
    h
}

fn joiner(id: &str, card: &str, joins: &str) -> UnitSpec {
    serde_json::from_value(serde_json::json!({ "id": id, "card": card, "joins": joins }))
        .expect("unit spec")
}

/// Allies: the NCO squad `nco` on E5, squad `gren` on D5 beside it (hero `h` joined), squad
/// `far` on A9; axis: `foe` on E2, knife squad `stab` on C5 beside `gren`. No reactive fire;
/// allies activate first.
fn game() -> State {
    let allies = vec![
        unit("nco", "nco-command-squad", Some("E5")),
        unit("gren", "kn", Some("D5")),
        joiner("h", "h", "gren"),
        unit("far", "kn", Some("A9")),
    ];
    let axis = vec![
        unit("foe", "kn", Some("E2")),
        unit("stab", "kn", Some("C5")),
    ];
    let cards = vec![
        card_in("cards-joining", "nco-command-squad"),
        knives("kn"),
        hero(),
    ];
    let mut st = DustTactics
        .start("ffg-revised", scenario(allies, axis), cards)
        .map_err(|e| e.0)
        .unwrap_or_else(|e| panic!("{e}"));
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

fn none() -> ScriptedDice {
    ScriptedDice::new([])
}

/// `gren` injected by the NCO squad, then axis's `foe` passes.
fn injected() -> State {
    let mut st = game();
    let out = send(
        &mut st,
        "allies",
        "activate nco\nskill stimulant kit at gren\nnothing",
        &mut none(),
    );
    accepted(&out);
    assert!(texts(&out).contains("injects gren"), "{}", texts(&out));
    accepted(&send(
        &mut st,
        "axis",
        "activate foe\nnothing\nnothing",
        &mut none(),
    ));
    st
}

#[test]
fn stimulant_kit_004_once_per_game_an_adjacent_soldier_unit_and_its_hero_are_injected() {
    // 004 "NCO Command Squads": "Stimulant Kit (SKILL). Once per game, inject a soldier unit in
    // an adjacent space with combat drugs."; "A hero joined with a unit that is injected is also
    // injected." (R477). `far` on A9 is not adjacent; the hero is injected with his squad; the
    // next round a second injection is refused.
    let mut st = game();
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate nco\nskill stimulant-kit at far\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("far is not adjacent to nco"), "{e}");
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate nco\nskill stimulant-kit at h\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("h is joined to gren"), "{e}");
    accepted(&send(
        &mut st,
        "allies",
        "activate nco\nskill stimulant-kit at gren\nnothing",
        &mut none(),
    ));
    assert!(u(&st, "gren").stimulated && u(&st, "h").stimulated);
    next_round(&mut st);
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate nco\nskill stimulant-kit at gren\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(
        e.contains("already used Stimulant Kit: once per game"),
        "{e}"
    );
}

#[test]
fn stimulant_kit_004_the_injected_squad_performs_4_actions_no_two_attacks_in_a_row() {
    // 004: "The next time that squad is activated, it can perform 4 actions that round (in any
    // combination). If the squad performs 2 consecutive ATTACK actions against the same
    // target, it is a SUSTAINED ATTACK. The squad can perform 2 ATTACK actions against the same
    // target as long as the ATTACK actions are not consecutive." (R477). Two `attack` lines in
    // a row are refused, and so are 3 actions; attack, move, attack, nothing is played: four
    // dice a line (the hero has no weapon), all misses.
    let mut st = injected();
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate gren\nattack gun at foe\nattack gun at foe\nmove D4\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(
        e.contains("two ATTACK actions in a row are a SUSTAINED ATTACK"),
        "{e}"
    );
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate gren\nattack gun at foe\nmove D4\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("its activation is 4 actions"), "{e}");
    let mut d = ScriptedDice::new([5, 5, 5, 5, 5, 5, 5, 5]);
    let out = send(
        &mut st,
        "allies",
        "activate gren\nattack gun at foe\nmove D4\nattack gun at foe\nnothing",
        &mut d,
    );
    accepted(&out);
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "{t}");
    assert_eq!(u(&st, "gren").at, Some(sq("D4")), "{t}");
    assert!(u(&st, "gren").exhausted && u(&st, "h").exhausted, "{t}");
    assert!(!u(&st, "gren").stimulated, "{t}");
}

#[test]
fn stimulant_kit_004_exhausted_it_cannot_fight_back_and_stands_upright_with_both_actions() {
    // 004: "At the end of its activation the squad is exhausted … While exhausted, the unit
    // cannot be reactivated by any command squad, cannot perform any action, and cannot fight
    // back if attacked in close combat. The next time it is activated, it costs the unit both
    // its actions to stand upright." (R477). Exhausted `gren` on D5 (two actions of its
    // stimulated activation were enough) is knifed by `stab` on C5 (four misses) and does not
    // strike back; next round it may not react to `foe`, and only `nothing` + `nothing` stands
    // it up.
    let mut st = injected();
    accepted(&send(
        &mut st,
        "allies",
        "activate gren\nnothing\nnothing",
        &mut none(),
    ));
    assert!(u(&st, "gren").exhausted);
    let board = dustmail::dust_tactics::view::board_text(&st);
    assert!(board.contains("activated, exhausted"), "{board}");
    let mut d = ScriptedDice::new([5, 5, 5, 5]);
    let out = send(
        &mut st,
        "axis",
        "activate stab\nattack knife at gren\nnothing",
        &mut d,
    );
    accepted(&out);
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "no die for a strike back: {t}");
    assert!(!t.contains("gren retaliates"), "{t}");
    next_round(&mut st);
    flow::standing_react(&mut st, "allies", Some("gren"), Policy::Yes).expect("react yes");
    accepted(&send(
        &mut st,
        "allies",
        "activate nco\nnothing\nnothing",
        &mut none(),
    ));
    let mut d = ScriptedDice::new([5, 5, 5, 5]);
    let out = send(
        &mut st,
        "axis",
        "activate foe\nattack gun at gren\nnothing",
        &mut d,
    );
    accepted(&out);
    let t = texts(&out);
    assert_eq!(d.remaining(), 0, "{t}");
    assert!(!t.contains("gren attempts reactive fire"), "{t}");
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate gren\nmove D4\nnothing",
        &mut none(),
    ))
    .unwrap_err();
    assert!(e.contains("gren is exhausted"), "{e}");
    accepted(&send(
        &mut st,
        "allies",
        "activate gren\nnothing\nnothing",
        &mut none(),
    ));
    assert!(!u(&st, "gren").exhausted && !u(&st, "h").exhausted);
}
