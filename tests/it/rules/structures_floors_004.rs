//! Issue 12 (ffg-revised, seed 004): floors above the ground and roofs of structures, R512's
//! design, R513's first piece: a unit's height in the state and the path syntax naming it, and
//! how a height a structure lacks, or one outside a plain `move` path, is refused.

use super::structures_004::{board_toml, unit_toml};
use crate::support_flow::*;
use dustmail::dust_tactics::floors::Height;
use dustmail::dust_tactics::model::{UnitType, WeaponRange};
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::{Policy, State, UnitState};
use dustmail::dust_tactics::DustTactics;

/// The structures board (building `house` D4–F5, door E5|E6) with squad `b` of the allies on
/// E7 and `x` of the axis on A1, allies to activate, reactive fire off.
fn game() -> State {
    let text = board_toml(&unit_toml("b", "sq", "E7"), &unit_toml("x", "sq", "A1"), "");
    let sc = scenario::parse("structures", &text).unwrap_or_else(|e| panic!("{e}"));
    let gun = weapon("gun", WeaponRange::Upto(4), 1, 1);
    let cards = vec![card("sq", UnitType::Squad, 4, 2, vec![gun])];
    let mut st = DustTactics.start("ffg-revised", sc, cards).expect("setup");
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
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
// spent." and "Units inside can also move onto the structure's roof by moving up from the
// structure's top floor." (R512: a path names a height, `E5@2`, `E5@roof`; R513, R514: a floor a
// structure does not have is refused naming the rule; a height outside a plain `move` path is
// refused offering the plain square.)
#[test]
fn structures_floors_004_moving_a_path_naming_a_floor_the_structure_lacks_is_refused() {
    let mut st = game();
    let why = refused(&mut st, "activate b\nmove E6 E5 E5@2");
    assert!(
        why.contains("the building house has 1 floor: there is no floor 2"),
        "{why}"
    );
    assert!(why.contains("move up or down 1 floor"), "{why}");
    // The roof of the one-floor house is straight up from its ground floor (R517): 3 MP here.
    let why = refused(&mut st, "activate b\nmove E6 E5 e5@roof");
    assert!(why.contains("E5@roof is 3 movement points away"), "{why}");
    let why = refused(&mut st, "activate b\nmove E6 E5@2 spare");
    assert!(
        why.contains("`E5@2` names a height above the ground floor (floor 2)"),
        "{why}"
    );
    assert!(why.contains("write E5"), "{why}");
    let why = refused(&mut st, "activate b\nmove E6 E5@0");
    assert!(why.contains("a height is a floor number"), "{why}");
    assert!(why.contains("E5@2 or E5@roof"), "{why}");
    // `@1` is the ground floor: the same as the plain square, and played.
    let out = send(
        &mut st,
        "allies",
        "activate b\nmove E6 E5@1\nnothing",
        &mut Cycle(0),
    );
    first_result(&out).expect("the ground floor named is accepted");
    assert_eq!(u(&st, "b").at.map(|s| s.to_string()).as_deref(), Some("E5"));
    assert_eq!(u(&st, "b").height, None);
}

// 004 STRUCTURES, Moving: "A unit can use a MOVE action to move up or down 1 floor for each MP
// spent." (R512: a unit has a height, the ground floor by default and left out of the state so
// games made before replay byte for byte; R513.)
#[test]
fn structures_floors_004_a_units_height_is_left_out_of_the_state_on_the_ground_floor() {
    let st = game();
    let b = u(&st, "b").clone();
    assert_eq!(b.height, None, "every unit starts on the ground floor");
    let json = serde_json::to_value(&b).expect("unit serialises");
    assert!(json.get("height").is_none(), "{json}");
    for (height, text) in [
        (Height::Floor(2), serde_json::json!({ "floor": 2 })),
        (Height::Roof, serde_json::json!("roof")),
    ] {
        let mut up = json.clone();
        up["height"] = text.clone();
        let unit: UnitState = serde_json::from_value(up.clone()).expect("a height reads back");
        assert_eq!(unit.height, Some(height));
        assert_eq!(serde_json::to_value(&unit).expect("serialises"), up);
    }
}

// 004 STRUCTURES, Moving: "Units inside can also move onto the structure's roof by moving up
// from the structure's top floor." (R512: the text board writes a unit above the ground floor
// with its height, and the picture numbers it on the unit's marker.) The test sets the height in the state (a one-floor house has no floor 2).
#[test]
fn structures_floors_004_the_board_text_and_picture_show_a_units_height() {
    let mut st = game();
    let out = send(
        &mut st,
        "allies",
        "activate b\nmove E6 E5\nnothing",
        &mut Cycle(0),
    );
    first_result(&out).expect("b walks in through the door");
    let line = |st: &State| {
        let text = dustmail::dust_tactics::view::board_text(st);
        text.lines()
            .find(|l| l.contains(" b (allies"))
            .unwrap_or_else(|| panic!("no line for b in\n{text}"))
            .to_string()
    };
    let ground = line(&st);
    assert!(ground.contains(": E5, 4 models"), "{ground}");
    for (height, written) in [(Height::Floor(2), "E5@2, "), (Height::Roof, "E5@roof, ")] {
        st.unit_mut("b").expect("b").height = Some(height);
        let l = line(&st);
        assert!(l.contains(&format!(": {written}4 models")), "{l}");
        // The picture numbers the height on the unit's marker (R512).
        let v = dustmail::dust_tactics::view::view(&st, Some("allies"));
        let pic =
            dustmail::dust_tactics::present::picture(&v, Some("allies"), &[]).expect("picture");
        let label = format!("b{height}");
        assert!(
            pic.units.iter().any(|m| m.label == label),
            "{:?}",
            pic.units
        );
        let svg = dustmail::dust_tactics::picture::svg(&pic);
        assert!(
            svg.contains(&format!(">{label}</text>")),
            "marker labelled {label}"
        );
    }
}
