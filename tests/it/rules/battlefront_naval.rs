//! Issue 18: 002 "Vehicle Equipment", "Naval Unit" under battlefront-2013 (R755–R758). The open
//! 9×9 board with deep water on columns A to C; the vehicles are the test tanks of
//! `aircraft_004` (Movement 4, `rockets` 2 dice range 4), `boat` with the equipment `naval`.
//! Scripted dice (1, 2 army; 3, 4 target; 5, 6 shield).

use super::aircraft_004::tank;
use crate::support_flow::*;
use dustmail::dust_tactics::cards::parse_card;
use dustmail::dust_tactics::model::{Card, Terrain};
use dustmail::dust_tactics::scenario::Scenario;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, view, DustTactics};
use dustmail::game::{Game, Outcome, ScriptedDice};

/// The test board with columns A to C deep water; allies and axis as (id, card, square).
fn naval_scenario(allies: &[(&str, &str, &str)], axis: &[(&str, &str, &str)]) -> Scenario {
    let specs = |v: &[(&str, &str, &str)]| {
        v.iter()
            .map(|(id, c, at)| unit(id, c, Some(at)))
            .collect::<Vec<_>>()
    };
    let mut s = scenario(specs(allies), specs(axis));
    for col in ["A", "B", "C"] {
        for row in 1..=9 {
            s.board
                .set_terrain(sq(&format!("{col}{row}")), Terrain::DeepWater);
        }
    }
    s
}

fn cards() -> Vec<Card> {
    vec![tank("gunboat", &["naval"]), tank("plain", &[]), squad("sq")]
}

/// Allied `boat` (naval) on B5 and `tank1` (a land tank) on G8; the axis squad `grens` on E2 and
/// tank `gun` on E5. Nobody reacts; `first` activates first.
fn game(first: &str) -> State {
    let s = naval_scenario(
        &[("boat", "gunboat", "B5"), ("tank1", "plain", "G8")],
        &[("grens", "sq", "E2"), ("gun", "plain", "E5")],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, cards())
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, first);
    st
}

fn orders(st: &mut State, side: &str, text: &str, first: &[u8]) -> Outcome {
    let mut v = first.to_vec();
    v.extend((0..300).map(|i| (i % 6 + 1) as u8));
    send(st, side, text, &mut ScriptedDice::new(v))
}

/// The lines of `unit`'s block in `side`'s orders template.
fn block(st: &State, side: &str, unit: &str) -> String {
    let t = DustTactics.orders_template(st, side);
    let at = t
        .find(&format!("# activate {unit} "))
        .unwrap_or_else(|| panic!("no block for {unit}:\n{t}"));
    t[at..]
        .lines()
        .enumerate()
        .take_while(|(i, l)| *i == 0 || !l.starts_with("# activate"))
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\n")
}

// issue 18, 002 "Naval Unit": "A Naval Unit treats Deep Water as Open Space" (R755): the boat
// moves four squares up the water, where no other vehicle may go.
#[test]
fn s002_naval_unit_treats_deep_water_as_open_space() {
    let mut st = game("allies");
    let out = orders(
        &mut st,
        "allies",
        "activate boat\n  move B1\n  nothing",
        &[],
    );
    accepted(&out);
    assert_eq!(u(&st, "boat").at, Some(sq("B1")), "{}", texts(&out));
    // The land tank may not (003 "Water Squares", R611).
    let out = orders(&mut st, "axis", "activate gun\n  move C5\n  nothing", &[]);
    assert!(refused(&out).0.contains("water"), "{:?}", refused(&out));
    assert_eq!(u(&st, "gun").at, Some(sq("E5")));
}

// 002 "Naval Unit": "... but cannot enter any other type of terrain" (R755): a move onto open
// ground is refused, naming the square, the rule and what to send; nothing moves. The template
// offers the boat only deep water squares.
#[test]
fn s002_naval_unit_cannot_enter_any_other_type_of_terrain() {
    let mut st = game("allies");
    for to in ["D5", "C5 D4"] {
        let out = orders(
            &mut st,
            "allies",
            &format!("activate boat\n  move {to}\n  nothing"),
            &[],
        );
        let (reason, rule) = refused(&out);
        assert!(
            reason.contains("D") && reason.contains("not deep water"),
            "{reason}"
        );
        assert!(
            rule.contains("Naval Unit") && rule.contains("R755"),
            "{rule}"
        );
        assert_eq!(u(&st, "boat").at, Some(sq("B5")));
    }
    let b = block(&st, "allies", "boat");
    assert!(b.contains("move ") && b.contains("C9"), "{b}");
    for land in ["D5", "E9", "D1"] {
        assert!(!b.contains(land), "{land} offered:\n{b}");
    }
}

// 002 "Naval Unit": "A Naval Unit may take a free Attack Action immediately after it performs a
// March Move Action." (R756) Two `move` lines and then an `attack` line: the report names the
// free Attack and the rockets are fired (two shields: no hit).
#[test]
fn s002_naval_unit_a_free_attack_after_a_march_move() {
    let mut st = game("allies");
    let out = orders(
        &mut st,
        "allies",
        "activate boat\n  move B4\n  move C3\n  attack rockets at grens",
        &[5, 6],
    );
    let t = texts(&out);
    accepted(&out);
    assert!(t.contains("free Attack of a Naval Unit"), "{t}");
    assert!(t.contains("rockets"), "{t}");
    assert_eq!(u(&st, "boat").at, Some(sq("C3")), "{t}");
    assert!(u(&st, "boat").activated);
    // The template says so under the boat's moves, not under the land tank's.
    let st = game("allies");
    assert!(block(&st, "allies", "boat").contains("free Attack"));
    assert!(!block(&st, "allies", "tank1").contains("free Attack"));
}

// R756: the free action is an Attack (not a Sustained Attack), only right after a March Move,
// and only a Naval Unit's; each of these is refused and nothing moves.
#[test]
fn s002_naval_unit_the_free_attack_only_after_a_march_move_never_sustained() {
    let cases = [
        (
            "boat",
            "activate boat\n  move B4\n  move C3\n  sustained rockets at grens",
        ),
        (
            "boat",
            "activate boat\n  move B4\n  attack rockets at grens\n  attack rockets at grens",
        ),
        (
            "boat",
            "activate boat\n  attack rockets at grens\n  move B4\n  move C3",
        ),
        (
            "tank1",
            "activate tank1\n  move G7\n  move G6\n  attack rockets at grens",
        ),
    ];
    for (unit, text) in cases {
        let mut st = game("allies");
        let before = u(&st, unit).at;
        let out = orders(&mut st, "allies", text, &[]);
        let (reason, _) = refused(&out);
        assert!(!reason.is_empty(), "{text}");
        assert_eq!(u(&st, unit).at, before, "{text}: {reason}");
        assert!(!u(&st, unit).activated, "{text}");
    }
}

// 002 "Naval Unit": "An eliminated Naval Unit becomes Deep Water terrain." (R757) The axis tank
// destroys the boat (one damage point left): the report says it sinks, its square is deep water
// on the text board, and no marker of it stays.
#[test]
fn s002_naval_unit_an_eliminated_naval_unit_becomes_deep_water() {
    let mut st = game("axis");
    st.unit_mut("boat").expect("boat").health = 1;
    let out = orders(
        &mut st,
        "axis",
        "activate gun\n  attack rockets at boat\n  nothing",
        &[1, 3, 1, 3, 1, 3],
    );
    let t = texts(&out);
    assert!(u(&st, "boat").destroyed, "{t}");
    assert!(t.contains("boat sinks: B5 is deep water"), "{t}");
    assert_eq!(st.scenario.board.terrain(sq("B5")), Terrain::DeepWater);
    let board = view::board_text(&st);
    let row5 = board
        .lines()
        .find(|l| l.trim_start().starts_with("5 "))
        .expect("row 5");
    assert!(row5.contains('~'), "{board}");
    // Deep water again: the land tank still may not enter it (R611).
    let out = orders(
        &mut st,
        "allies",
        "activate tank1\n  move C8\n  nothing",
        &[],
    );
    assert!(refused(&out).0.contains("water"), "{:?}", refused(&out));
}

// R758: a Naval Unit begins the game on deep water, and no other unit does (entry zones hold no
// deep water, R82): `new` refuses either, naming the unit and the square.
#[test]
fn s002_naval_unit_begins_on_deep_water_and_nobody_else_does() {
    let cases = [
        ("boat", "gunboat", "E8", "not deep water"),
        ("tank1", "plain", "B8", "only a Naval Unit"),
    ];
    for (id, card, at, says) in cases {
        let s = naval_scenario(&[(id, card, at)], &[("grens", "sq", "E2")]);
        let e = DustTactics
            .start("battlefront-2013", s, cards())
            .expect_err("refused at new");
        assert!(
            e.0.contains(id) && e.0.contains(at) && e.0.contains(says),
            "{}",
            e.0
        );
    }
}

// 002 lists Naval Unit under "Vehicle Equipment": a ground vehicle's card carries it; a soldier's
// card naming it is refused when read (R755, R663).
#[test]
fn s002_naval_unit_is_a_vehicle_s_equipment() {
    let (f, t) =
        super::battlefront_skills002::card_with("bf-pounder", "[[skills]]\nname = \"naval\"");
    assert!(parse_card(&f, &t).is_ok());
    let (f, t) =
        super::battlefront_skills002::card_with("bf-bazooka-joe", "[[skills]]\nname = \"naval\"");
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("Naval Unit"), "{e}");
}
