//! Issue 12: 004 "Fighting in the Metro": the metro rails and the metro trains (ruling R627), on
//! the machinery of `underground_004` (its target squad saves on a hit in soft cover and on a
//! miss in hard cover, so the save die shows which cover counted). Orders go through the real
//! parser and state machine; each test quotes the sentence it checks.

use super::underground_004::{game_of, saves, FIRE};
use crate::support_flow::*;
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::underground::{Metro, Underground};
use dustmail::dust_tactics::view;
use dustmail::game::ScriptedDice;

/// The shooter `a` (allies) on `from`, the target squad `x` (axis) on `to`, in the metro with
/// `rails` and train `cars`.
fn metro(from: &str, to: &str, rails: &[&str], cars: &[&[&str]]) -> State {
    let mut s = scenario(
        vec![unit("a", "one", Some(from))],
        vec![unit("x", "tgt", Some(to))],
    );
    s.metro = Some(Metro {
        rails: rails.iter().map(|r| sq(r)).collect(),
        cars: cars
            .iter()
            .map(|c| c.iter().map(|r| sq(r)).collect())
            .collect(),
    });
    game_of(s, Some(Underground::Metro), &[])
}

/// One attack die (`hit`), then the save dice; what the target keeps.
fn fire(st: &mut State, dice: &[u8]) -> (Vec<u8>, usize) {
    let out = send(st, "allies", FIRE, &mut ScriptedDice::new(dice.to_vec()));
    assert!(first_result(&out).is_ok(), "{out:?}");
    (saves(&out), u(st, "x").models.len())
}

// 004 "Fighting in the Metro": "Any squad in a space with a star in the center (metro rails) is
// considered in soft cover." Next to the shooter (no dim light), the squad on the rails saves in
// soft cover (a hit saves); off the rails it has no save at all.
#[test]
fn underground_004_metro_a_squad_on_the_rails_is_in_soft_cover() {
    let mut st = metro("E7", "E6", &["E6"], &[]);
    assert_eq!(
        fire(&mut st, &[1, 1]),
        (vec![1], 4),
        "soft cover saves on a hit"
    );
    let mut st = metro("E7", "E6", &["D6"], &[]);
    assert_eq!(fire(&mut st, &[1]), (vec![], 3), "no cover off the rails");
}

// 004 "Fighting in the Metro": "This cover can stack with other forms of cover to a maximum of
// hard cover." Two spaces between (dim light's soft cover) and the rails: hard cover, which
// saves on a miss.
#[test]
fn underground_004_metro_rails_cover_stacks_up_to_hard_cover() {
    let mut st = metro("E8", "E5", &["E5"], &[]);
    assert_eq!(
        fire(&mut st, &[1, 6]),
        (vec![6], 4),
        "hard cover saves on a miss"
    );
    let mut st = metro("E8", "E5", &[], &[]);
    assert_eq!(
        fire(&mut st, &[1, 6]),
        (vec![6], 3),
        "dim light alone: soft"
    );
}

// 004 "Fighting in the Metro": "Metro trains provide hard cover for any units inside. If a unit
// inside a metro train is attacked by another unit within the same car tile, both units only
// receive soft cover." The squad inside car E5–E6, attacked from outside on E7, saves on a miss;
// attacked from E4 of the same car it has soft cover only, and a miss does not save.
#[test]
fn underground_004_metro_trains_give_hard_cover_inside_and_soft_within_the_same_car() {
    let mut st = metro("E7", "E6", &[], &[&["E4", "E5", "E6"]]);
    assert_eq!(
        fire(&mut st, &[1, 6]),
        (vec![6], 4),
        "hard cover inside the train"
    );
    let mut st = metro("E4", "E6", &[], &[&["E4", "E5", "E6"]]);
    assert_eq!(
        fire(&mut st, &[1, 6]),
        (vec![6], 3),
        "the same car: soft cover only"
    );
    let mut st = metro("E4", "E6", &[], &[&["E4"], &["E5", "E6"]]);
    assert_eq!(
        fire(&mut st, &[1, 6]),
        (vec![6], 4),
        "another car: hard cover"
    );
}

/// The shipped skirmish scenario fought in the metro, with `[metro]` appended.
fn skirmish_metro(kind: &str, metro: &str) -> String {
    let text = scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "skirmish")
        .expect("skirmish")
        .1;
    let text = text.replace(
        "rulesets = [\"ffg-revised\", \"classic-2010\"]",
        &format!("rulesets = [\"ffg-revised\"]\nunderground = \"{kind}\""),
    );
    format!("{text}\n[metro]\n{metro}\n")
}

// 004 "Fighting in the Metro" (R627): a scenario writes the rails and the cars in `[metro]`; the
// board text lists them. Rails and cars outside a metro fight, off the board or on impassable
// squares, or a square in two cars, are refused naming the field; so are entrances to another
// board ("To enter the metro in a scenario with 2 or more boards ...", not built, R628).
#[test]
fn underground_004_metro_rails_and_cars_are_scenario_data_shown_under_the_board() {
    let ok = r#"rails = ["A3", "B3"]
cars = [["D3", "E3"], ["D4"]]"#;
    let s = scenario::parse("m", &skirmish_metro("metro", ok)).expect("metro scenario");
    assert_eq!(s.metro.as_ref().map(|m| m.cars.len()), Some(2));
    let st = metro("E7", "E6", &["A3", "B3"], &[&["D3", "E3"], &["D4"]]);
    let board = view::board_text(&st);
    assert!(
        board.contains("Metro rails (soft cover for squads): A3 B3")
            && board.contains("Train cars (hard cover inside): D3 E3, D4"),
        "{board}"
    );
    for (kind, metro, says) in [
        ("sewers", ok, "add underground = \"metro\""),
        ("metro", "rails = [\"Z9\"]", "`Z9` is not a square"),
        ("metro", "rails = [\"C2\"]", "C2 is impassable"),
        (
            "metro",
            "cars = [[\"D3\"], [\"D3\", \"E3\"]]",
            "D3 is already in another car",
        ),
        ("metro", "entrances = [\"A1\"]", "travel between boards"),
    ] {
        let e = scenario::parse("m", &skirmish_metro(kind, metro)).expect_err(metro);
        assert!(e.0.contains("`metro") && e.0.contains(says), "{e}");
    }
}
