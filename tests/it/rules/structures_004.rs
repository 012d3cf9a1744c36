//! Issue 12 (ffg-revised, seed 004): 004 "STRUCTURES" (Moving, Cover, Firing) and "QUONSET HUTS",
//! rulings R500–R509. The structures are scenario data read by the real scenario parser; orders
//! go through the real parser and state machine (`DustTactics::submit`). One test per sentence,
//! quoting it; floors and roofs are structures_floors_004.rs and structures_floors2_004.rs (R512–R517).

use crate::support_flow::*;
use dustmail::dust_tactics::geometry::{self, Occupancy, Sight, Sighter};
use dustmail::dust_tactics::model::{Card, Cover, UnitType, WeaponRange};
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, Outcome};

/// A 9×9 open board with a building `house` D4–F5 (door E5|E6 large, windows D4|C4 and F4|G4
/// small, an ammo crate on F4) and a Quonset hut `hut` H7–H8 (door H8|H9, windows H7|G7,
/// H7|I7, H8|G8). `units` is the TOML of the units, `extra` more TOML for the structures.
pub(super) fn board_toml(allies: &str, axis: &str, extra: &str) -> String {
    let or = |units: &str, id: &str, at: &str| {
        if units.is_empty() {
            unit_toml(id, "sq", at)
        } else {
            units.to_string()
        }
    };
    let (allies, axis) = (or(allies, "a", "A9"), or(axis, "x", "A1"));
    format!(
        r#"title = "Structures"
rulesets = ["ffg-revised"]
rounds = 3
ap_limit = 100
[board]
rows = [".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "........."]
cover = [{{ kind = "ammo_crate", at = "F4" }}]

[[structures]]
id = "house"
kind = "building"
squares = ["D4:F5"]
entrances = [
  {{ at = "E5", to = "E6", kind = "door", size = "large" }},
  {{ at = "D4", to = "C4", kind = "window", size = "small" }},
  {{ at = "F4", to = "G4", kind = "window", size = "small" }},
]

[[structures]]
id = "hut"
kind = "hut"
squares = ["H7:H8"]
entrances = [
  {{ at = "H8", to = "H9", kind = "door", size = "small" }},
  {{ at = "H7", to = "G7", kind = "window", size = "small" }},
  {{ at = "H7", to = "I7", kind = "window", size = "small" }},
  {{ at = "H8", to = "G8", kind = "window", size = "small" }},
]
{extra}
[[sides]]
id = "allies"
entry = {{ rows = [9] }}
{allies}
[[sides]]
id = "axis"
entry = {{ rows = [1] }}
{axis}
"#
    )
}

pub(super) fn unit_toml(id: &str, card: &str, at: &str) -> String {
    format!("[[sides.units]]\nid = \"{id}\"\ncard = \"{card}\"\nat = \"{at}\"\n")
}

/// The test cards: `sq` a squad of 4 (movement 2, gun 1/1 range 4), `jumper` a squad with Jump
/// and movement 4, `tank` a vehicle (movement 2), `jumptank` a vehicle with Jump (movement 4).
fn cards() -> Vec<Card> {
    let gun = || weapon("gun", WeaponRange::Upto(4), 1, 1);
    vec![
        card("sq", UnitType::Squad, 4, 2, vec![gun()]),
        with_skill(
            card("jumper", UnitType::Squad, 4, 4, vec![gun()]),
            "jump",
            None,
        ),
        card("tank", UnitType::Vehicle, 3, 2, vec![gun()]),
        with_skill(
            card("jumptank", UnitType::Vehicle, 3, 4, vec![gun()]),
            "jump",
            None,
        ),
    ]
}

/// The game of `allies` and `axis` units (id, card, square), allies activating first, reactive
/// fire off.
fn game(allies: &[(&str, &str, &str)], axis: &[(&str, &str, &str)]) -> State {
    let units = |v: &[(&str, &str, &str)]| -> String {
        v.iter().map(|(i, c, a)| unit_toml(i, c, a)).collect()
    };
    let sc = scenario::parse("structures", &board_toml(&units(allies), &units(axis), ""))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut st = DustTactics
        .start("ffg-revised", sc, cards())
        .expect("setup");
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

fn go(st: &mut State, text: &str) -> Outcome {
    send(st, "allies", text, &mut Cycle(0))
}

fn refusal(out: &Outcome) -> String {
    first_result(out).expect_err("the order is refused")
}

fn at(st: &State, id: &str) -> String {
    u(st, id).at.map(|s| s.to_string()).unwrap_or_default()
}

fn sighter(s: &str, t: UnitType) -> Sighter {
    Sighter {
        square: sq(s),
        unit_type: t,
    }
}

fn house_board() -> dustmail::dust_tactics::model::Board {
    scenario::parse("structures", &board_toml("", "", ""))
        .unwrap_or_else(|e| panic!("{e}"))
        .board
}

// 004 STRUCTURES: "All interior and exterior structure walls block LOS, provide corner cover,
// and cannot be destroyed."
#[test]
fn structures_004_walls_block_los_and_provide_corner_cover() {
    let b = house_board();
    let occ = Occupancy::new();
    let sight = geometry::line_of_sight(
        &b,
        &occ,
        sighter("E2", UnitType::Squad),
        sighter("E4", UnitType::Squad),
    );
    match sight {
        Sight::Blocked { why, .. } => assert!(why.contains("wall"), "{why}"),
        Sight::Clear => panic!("the house's north wall must block E2–E4"),
    }
    // G5 stands against the house's east wall; a 45° shot from E7 skims that wall's end.
    let r = geometry::cover_explained(
        &b,
        &occ,
        sighter("E7", UnitType::Squad),
        sighter("G5", UnitType::Squad),
    );
    assert_eq!(r.cover, Cover::Soft, "{r:?}");
    let why: Vec<String> = r.sources.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        why,
        vec!["corner of the wall between F5 and G5 (soft cover)"]
    );
}

// 004 STRUCTURES, Moving: "To enter (or exit) a structure, a unit must go through an entrance: a
// door or a window."
#[test]
fn structures_004_moving_enter_and_exit_only_through_an_entrance() {
    let mut st = game(
        &[("a", "sq", "G6"), ("b", "sq", "E7")],
        &[("x", "sq", "A1")],
    );
    let out = go(&mut st, "activate a\nmove G5 F5");
    let why = refusal(&out);
    assert!(why.contains("a wall stands between G5 and F5"), "{why}");
    assert_eq!(at(&st, "a"), "G6", "a refused move changes nothing");
    let out = go(&mut st, "activate b\nmove E5\nnothing");
    accepted(&out);
    assert_eq!(at(&st, "b"), "E5", "in through the door E5|E6");
}

// 004 STRUCTURES, Moving: "Units can only enter a structure from the ground floor, and cannot
// enter a structure diagonally, as the corners of the entrances block diagonal movement."
#[test]
fn structures_004_moving_no_unit_enters_a_structure_diagonally() {
    let mut st = game(&[("a", "sq", "D7")], &[("x", "sq", "A1")]);
    let out = go(&mut st, "activate a\nmove D6 E5");
    let why = refusal(&out);
    assert!(
        why.contains("cannot step diagonally from D6 to E5"),
        "{why}"
    );
    assert!(why.contains("[004 'Structures'"), "{why}");
    assert_eq!(at(&st, "a"), "D7");
}

// 004 STRUCTURES, Moving: "A unit with the Jump skill cannot enter a structure by jumping." and
// "Units cannot land on top of structures." (R510)
#[test]
fn structures_004_moving_jump_does_not_carry_a_unit_into_a_structure() {
    let mut st = game(&[("j", "jumper", "E2")], &[("x", "sq", "A1")]);
    let out = go(&mut st, "activate j\nmove E3 E4");
    let why = refusal(&out);
    assert!(
        why.contains("j would come down on E4, on top of a structure"),
        "{why}"
    );
    assert!(
        why.contains("Units cannot land on top of structures"),
        "{why}"
    );
    assert_eq!(at(&st, "j"), "E2");
}

// 004 STRUCTURES, Moving: "Soldiers and heroes with the Jump skill can jump over any structure (if
// it can move far enough to reach the other side)." (R510)
#[test]
fn structures_004_moving_soldiers_with_jump_jump_over_a_structure() {
    let mut st = game(&[("j", "jumper", "E3")], &[("x", "sq", "A1")]);
    // Far enough to reach the other side: 4 MP take j over E4 and E5 to E6, not on to E8.
    let out = go(&mut st, "activate j\nmove E4 E5 E6 E7 E8");
    let why = refusal(&out);
    assert!(why.contains("E8 is 5 movement points away"), "{why}");
    let out = go(&mut st, "activate j\nmove E4 E5 E6\nnothing");
    accepted(&out);
    assert_eq!(
        at(&st, "j"),
        "E6",
        "over the house's two rows, down beyond it"
    );
}

// 004 STRUCTURES, Moving: "Vehicles with the Jump ability cannot jump over any structure." (R510)
#[test]
fn structures_004_moving_vehicles_with_jump_do_not_jump_over_a_structure() {
    let mut st = game(&[("v", "jumptank", "E3")], &[("x", "sq", "A1")]);
    let out = go(&mut st, "activate v\nmove E4 E5 E6");
    let why = refusal(&out);
    assert!(why.contains("a wall stands between E3 and E4"), "{why}");
    assert_eq!(at(&st, "v"), "E3");
}

// 004 STRUCTURES, Moving: "There are two types of entrances to structures: large (one space
// wide) and small (less than one space wide). Soldiers and heroes can enter structures through
// any entrance."
#[test]
fn structures_004_moving_soldiers_enter_through_a_small_window() {
    let mut st = game(&[("a", "sq", "B4")], &[("x", "sq", "A1")]);
    let out = go(&mut st, "activate a\nmove C4 D4\nnothing");
    accepted(&out);
    assert_eq!(at(&st, "a"), "D4", "in through the window D4|C4");
}

// 004 STRUCTURES, Moving: "Vehicles can enter structures through large entrances (wide enough for
// the vehicle's base to pass through), but not through small entrances."
#[test]
fn structures_004_moving_vehicles_only_through_large_entrances() {
    let mut st = game(
        &[("t", "tank", "B4"), ("v", "tank", "E7")],
        &[("x", "sq", "A1")],
    );
    let out = go(&mut st, "activate t\nmove C4 D4");
    let why = refusal(&out);
    assert!(why.contains("small entrance"), "{why}");
    assert!(
        why.contains("Vehicles can enter structures through large entrances"),
        "{why}"
    );
    assert_eq!(at(&st, "t"), "B4");
    let out = go(&mut st, "activate v\nmove E5\nnothing");
    accepted(&out);
    assert_eq!(at(&st, "v"), "E5", "in through the large door");
}

// 004 QUONSET HUTS: "Only soldier units may enter huts, and only through the door."
#[test]
fn quonset_huts_004_only_soldiers_and_only_through_the_door() {
    let mut st = game(
        &[("a", "sq", "F7"), ("b", "sq", "G9"), ("t", "tank", "I9")],
        &[("x", "sq", "A1")],
    );
    let out = go(&mut st, "activate a\nmove G7 H7");
    let why = refusal(&out);
    assert!(why.contains("only through its door"), "{why}");
    assert!(why.contains("Quonset huts"), "{why}");
    let out = go(&mut st, "activate t\nmove H9 H8");
    let why = refusal(&out);
    assert!(
        why.contains("t is a vehicle") && why.contains("Quonset hut"),
        "{why}"
    );
    let out = go(&mut st, "activate b\nmove H9 H8\nnothing");
    accepted(&out);
    assert_eq!(at(&st, "b"), "H8", "in through the door H8|H9");
}

// 004 STRUCTURES, Cover: "A squad is in hard cover when it is inside a structure and it is
// targeted by an enemy unit outside the same structure."
#[test]
fn structures_004_cover_hard_inside_against_a_unit_outside() {
    let b = house_board();
    let r = geometry::cover_explained(
        &b,
        &Occupancy::new(),
        sighter("E8", UnitType::Squad),
        sighter("E5", UnitType::Squad),
    );
    assert_eq!(r.cover, Cover::Hard, "{r:?}");
    let why: Vec<String> = r.sources.iter().map(|s| s.to_string()).collect();
    assert!(
        why.iter().any(|w| w.contains("inside the building house")),
        "{why:?}"
    );
}

// 004 STRUCTURES, Cover: "A squad is in soft cover when they are inside a structure and it is
// targeted by an enemy unit also inside the same structure."
#[test]
fn structures_004_cover_soft_inside_against_a_unit_inside_the_same_structure() {
    let b = house_board();
    let r = geometry::cover_explained(
        &b,
        &Occupancy::new(),
        sighter("D5", UnitType::Squad),
        sighter("E5", UnitType::Squad),
    );
    assert_eq!(r.cover, Cover::Soft, "{r:?}");
}

// 004 STRUCTURES, Cover: "Inside a structure, cover combines in the normal way."
#[test]
fn structures_004_cover_combines_in_the_normal_way_inside() {
    let b = house_board();
    // F4 holds an ammo crate (soft) and the shooter is inside too (soft): soft + soft = hard.
    let r = geometry::cover_explained(
        &b,
        &Occupancy::new(),
        sighter("D4", UnitType::Squad),
        sighter("F4", UnitType::Squad),
    );
    assert_eq!(r.sources.len(), 2, "{r:?}");
    assert_eq!(r.cover, Cover::Hard, "{r:?}");
}

// 004 QUONSET HUTS: "Only soldier units may enter huts"; 004 STRUCTURES: "Vehicles can enter
// structures through large entrances". A vehicle placed inside a hut at the start is refused
// when the game is made (R501).
#[test]
fn quonset_huts_004_no_vehicle_starts_inside_a_hut() {
    let text = board_toml(&unit_toml("t", "tank", "H8"), "", "");
    let sc = scenario::parse("structures", &text).unwrap_or_else(|e| panic!("{e}"));
    let e = DustTactics
        .start("ffg-revised", sc, cards())
        .expect_err("refused at setup");
    assert!(e.0.contains("unit t cannot start on H8"), "{e}");
    assert!(e.0.contains("Quonset hut hut"), "{e}");
}

// 004 QUONSET HUTS: "Huts only grant soft cover to units inside them when those units are being
// attacked from outside. No cover is granted to a unit attacked by another unit within the same
// hut."
#[test]
fn quonset_huts_004_soft_cover_from_outside_none_from_inside() {
    let b = house_board();
    let occ = Occupancy::new();
    let out = geometry::cover_explained(
        &b,
        &occ,
        sighter("H9", UnitType::Squad),
        sighter("H8", UnitType::Squad),
    );
    // Straight through the door: only the hut's cover.
    assert_eq!(out.cover, Cover::Soft, "{out:?}");
    let inside = geometry::cover_explained(
        &b,
        &occ,
        sighter("H7", UnitType::Squad),
        sighter("H8", UnitType::Squad),
    );
    assert_eq!(inside.cover, Cover::None, "{inside:?}");
}

// 004 STRUCTURES, Cover: "A unit inside a structure attacking an enemy unit outside must be on a
// space that shows an entrance in the direction of the attack."
#[test]
fn structures_004_cover_an_attack_out_leaves_from_an_entrance_space_towards_the_target() {
    // E4 sees E8 straight through the door, but shows no entrance itself.
    let mut st = game(
        &[("a", "sq", "E4"), ("b", "sq", "F4")],
        &[("x", "sq", "E8"), ("y", "sq", "I4")],
    );
    let out = go(&mut st, "activate a\nattack gun at x");
    let why = refusal(&out);
    assert!(
        why.contains("E4 is inside the building house and shows no entrance"),
        "{why}"
    );
    // From the window square F4, straight out through F4|G4: accepted.
    let out = go(&mut st, "activate b\nattack gun at y\nnothing");
    accepted(&out);
}

// 004 STRUCTURES, Cover: "A unit outside a structure attacking an enemy unit inside must be on a
// space that shows an entrance." Reactive fire is an attack too: no window opens on a unit that
// moved inside away from the entrances (R505).
#[test]
fn structures_004_cover_reactive_fire_only_at_a_unit_on_an_entrance_space() {
    // a moves from `from` along `path`; x on E8 may react (ask) if it may attack a where it ends.
    let window = |from: &str, path: &str| {
        let text = board_toml(&unit_toml("a", "sq", from), &unit_toml("x", "sq", "E8"), "");
        let sc = scenario::parse("structures", &text).unwrap_or_else(|e| panic!("{e}"));
        let mut st = start(sc, cards());
        begin(&mut st, "allies");
        let out = go(&mut st, &format!("activate a\nmove {path}\nnothing"));
        accepted(&out);
        awaited(&st)
    };
    let reacts = |waits: &[(String, String)]| {
        waits
            .iter()
            .any(|(s, d)| s == "axis" && d.to_lowercase().contains("react"))
    };
    let waits = window("E7", "E6 E5");
    assert!(reacts(&waits), "a on the door square E5: {waits:?}");
    let waits = window("E5", "E4");
    assert!(!reacts(&waits), "a on E4, no entrance: {waits:?}");
}

// 004 STRUCTURES, Firing: "Remember that the entrance to a structure does not allow LOS to run
// through diagonally (even when the units are at different heights)."
#[test]
fn structures_004_firing_no_line_runs_diagonally_through_an_entrance() {
    // E5 to G7 runs exactly through the door's corner: the line is clear of walls, the rule
    // refuses it.
    let mut st = game(&[("a", "sq", "E5")], &[("x", "sq", "G7")]);
    let out = go(&mut st, "activate a\nattack gun at x");
    let why = refusal(&out);
    assert!(
        why.contains("not in the direction of an entrance of E5"),
        "{why}"
    );
    assert!(why.contains("not diagonally"), "{why}");
}

// 004 STRUCTURES, Cover: "A unit outside a structure attacking an enemy unit inside must be on a
// space that shows an entrance."
#[test]
fn structures_004_cover_an_attack_in_needs_the_target_on_an_entrance_space() {
    let mut st = game(
        &[("a", "sq", "E8"), ("b", "sq", "I4")],
        &[("x", "sq", "E4"), ("y", "sq", "F4")],
    );
    let out = go(&mut st, "activate a\nattack gun at x");
    let why = refusal(&out);
    assert!(
        why.contains("E4 is inside the building house and shows no entrance"),
        "{why}"
    );
    assert!(
        why.contains("door E5|E6 (large)"),
        "names the entrances: {why}"
    );
    let out = go(&mut st, "activate b\nattack gun at y\nnothing");
    accepted(&out);
    let text = texts(&out);
    assert!(text.contains("b fires gun"), "{text}");
}

// 004 STRUCTURES, Cover: "The walls of small entrances do not provide corner cover, but block LOS."
#[test]
fn structures_004_cover_small_entrances_give_no_corner_cover() {
    // A kiosk of one square, B2, with a small window on every side: no wall at all.
    let kiosk = "[[structures]]\nid = \"kiosk\"\nkind = \"building\"\nsquares = [\"B2\"]\nentrances = [{ at = \"B2\", to = \"A2\", kind = \"window\", size = \"small\" }, { at = \"B2\", to = \"C2\", kind = \"window\", size = \"small\" }, { at = \"B2\", to = \"B1\", kind = \"window\", size = \"small\" }, { at = \"B2\", to = \"B3\", kind = \"window\", size = \"small\" }]\n";
    let b = scenario::parse("structures", &board_toml("", "", kiosk))
        .unwrap_or_else(|e| panic!("{e}"))
        .board;
    let occ = Occupancy::new();
    // A2 beside the kiosk, shot at 45° from C4: the line passes the kiosk's corner, where only
    // the windows' walls stand.
    let r = geometry::cover_explained(
        &b,
        &occ,
        sighter("C4", UnitType::Squad),
        sighter("A2", UnitType::Squad),
    );
    assert_eq!(r.cover, Cover::None, "{r:?}");
    // The same shot past the house's walled corner (C5 beside D5, from E7) gets corner cover.
    let r = geometry::cover_explained(
        &b,
        &occ,
        sighter("E7", UnitType::Squad),
        sighter("C5", UnitType::Squad),
    );
    assert_eq!(r.cover, Cover::Soft, "{r:?}");
}

// 004 STRUCTURES, Cover: "Anti-tank traps can only be placed inside structures that have at least
// one large entrance."
#[test]
fn structures_004_cover_anti_tank_traps_only_in_structures_with_a_large_entrance() {
    let text = board_toml(
        "",
        "",
        "[[structures]]\nid = \"shed\"\nkind = \"building\"\nsquares = [\"A1:B1\"]\nentrances = [{ at = \"A1\", to = \"A2\", kind = \"door\", size = \"small\" }]\n",
    )
    .replace(
        r#"cover = [{ kind = "ammo_crate", at = "F4" }]"#,
        r#"cover = [{ kind = "tank_trap", at = "B1" }]"#,
    );
    let e = scenario::parse("structures", &text).expect_err("refused");
    assert!(e.0.contains("structures[2].squares"), "{e}");
    assert!(e.0.contains("at least one large entrance"), "{e}");
}

// 004 STRUCTURES are rules of 004 alone: a scenario with structures suits only ffg-revised (R500).
#[test]
fn structures_004_a_scenario_with_structures_suits_only_ffg_revised() {
    let text = board_toml("", "", "").replace(
        r#"rulesets = ["ffg-revised"]"#,
        r#"rulesets = ["ffg-revised", "classic-2010"]"#,
    );
    let e = scenario::parse("structures", &text).expect_err("refused");
    assert!(e.0.contains("`structures`"), "{e}");
    assert!(e.0.contains(r#"add rulesets = ["ffg-revised"]"#), "{e}");
}

// 004 STRUCTURES, Moving: "A unit can use a MOVE action to move up or down 1 floor for each MP
// spent." and QUONSET HUTS: "Huts are never more than 1 story tall" (R517: a scenario gives a
// structure its floors, 1 to 9; a hut has one.)
#[test]
fn structures_004_moving_floors_are_read_from_the_scenario() {
    let tower = |kind: &str, floors: u32| {
        board_toml(
            "",
            "",
            &format!("[[structures]]\nid = \"tower\"\nkind = \"{kind}\"\nfloors = {floors}\nsquares = [\"A1\"]\nentrances = [{{ at = \"A1\", to = \"A2\", kind = \"door\", size = \"large\" }}]\n"),
        )
    };
    let sc = scenario::parse("structures", &tower("building", 2)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(sc.board.structures[2].floors, 2);
    let e = scenario::parse("structures", &tower("hut", 2)).expect_err("refused");
    assert!(e.0.contains("structures[2].floors"), "{e}");
    assert!(e.0.contains("huts are never more than 1 story tall"), "{e}");
    let e = scenario::parse("structures", &tower("building", 0)).expect_err("refused");
    assert!(e.0.contains("1 to 9 floors"), "{e}");
}

// 004 QUONSET HUTS: "Each hut has one door and 3 windows." and "creating a hut with a single
// entrance, or an entrance at each end".
#[test]
fn quonset_huts_004_one_door_or_one_at_each_end() {
    let three = "[[structures]]\nid = \"long\"\nkind = \"hut\"\nsquares = [\"A1:A3\"]\nentrances = [{ at = \"A1\", to = \"B1\", kind = \"door\", size = \"small\" }, { at = \"A2\", to = \"B2\", kind = \"door\", size = \"small\" }, { at = \"A3\", to = \"B3\", kind = \"door\", size = \"small\" }]\n";
    let e = scenario::parse("structures", &board_toml("", "", three)).expect_err("refused");
    assert!(e.0.contains("one door, or one at each end"), "{e}");
    let back = "[[structures]]\nid = \"shed\"\nkind = \"building\"\nsquares = [\"A1\"]\nentrances = [{ at = \"A1\", to = \"A2\", kind = \"back_door\", size = \"small\" }]\n";
    let e = scenario::parse("structures", &board_toml("", "", back)).expect_err("refused");
    assert!(e.0.contains("only a bunker has a back door"), "{e}");
}

// 004 Aircraft: "Aircraft can only target units inside a structure if the unit is on a space
// that shows an exit (or on the roof)." (R503, R506: above the structure, an aircraft needs no
// line through the opening.)
#[test]
fn aircraft_004_target_units_inside_only_on_a_space_that_shows_an_exit() {
    let mut plane = card(
        "plane",
        UnitType::Vehicle,
        3,
        3,
        vec![weapon("gun", WeaponRange::Upto(6), 1, 1)],
    );
    plane.armour = dustmail::dust_tactics::model::Armour::Aircraft(1);
    let text = board_toml(
        &unit_toml("p", "plane", "F7"),
        &format!(
            "{}{}",
            unit_toml("x", "sq", "E4"),
            unit_toml("y", "sq", "E5")
        ),
        "",
    );
    let sc = scenario::parse("structures", &text).unwrap_or_else(|e| panic!("{e}"));
    let mut all = cards();
    all.push(plane);
    let mut st = DustTactics.start("ffg-revised", sc, all).expect("setup");
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    let out = go(&mut st, "activate p\nmove G7\nattack gun at x");
    let why = refusal(&out);
    assert!(
        why.contains("E4 is inside the building house and shows no entrance"),
        "{why}"
    );
    // E5 shows the door: from G7, at 45° to it, the aircraft may fire (a ground unit may not).
    let out = go(&mut st, "activate p\nmove G7\nattack gun at y");
    accepted(&out);
}

// 004 Artillery Weapons: "They ignore all types of cover, except when attacking a unit that is
// inside a structure." (R508)
#[test]
fn artillery_004_keeps_the_cover_of_a_structure() {
    use dustmail::dust_tactics::combat::{cover_save_applies, TargetProfile};
    use dustmail::dust_tactics::model::{Armour, Save};
    let st = game(
        &[("a", "sq", "E9")],
        &[("x", "sq", "E5"), ("y", "sq", "A1")],
    );
    let gun = weapon("howitzer", WeaponRange::Artillery, 1, 1);
    let profile = TargetProfile {
        armour: Armour::Soldier(2),
        unit_type: UnitType::Squad,
        models: 4,
        remaining: 4,
        cover: Cover::Hard,
        soft_save: Save::None,
        hard_save: Save::Hit,
        damage_resilient: false,
        bf: Default::default(),
    };
    assert!(
        !cover_save_applies(&gun, &profile),
        "in the open, range A ignores cover"
    );
    let inside =
        dustmail::dust_tactics::flow::structures::artillery_line(&st, &gun, (sq("E5"), None));
    assert!(
        cover_save_applies(&inside, &profile),
        "inside the house, it does not"
    );
    let outside =
        dustmail::dust_tactics::flow::structures::artillery_line(&st, &gun, (sq("A1"), None));
    assert!(!cover_save_applies(&outside, &profile));
    // A squad on the roof is outside of that structure (004 "Cover"; R515).
    let roof = Some(dustmail::dust_tactics::floors::Height::Roof);
    let on_roof =
        dustmail::dust_tactics::flow::structures::artillery_line(&st, &gun, (sq("E5"), roof));
    assert!(
        !cover_save_applies(&on_roof, &profile),
        "on the roof, it ignores cover"
    );
}

// 004 Engineer Vehicle: "A unit with this skill that begins its activation in a space adjacent
// to a bunker may spend its full activation to destroy it. This also destroys any units inside
// of the bunker." The skill's order is not built; the hook it will call is (R509).
#[test]
fn engineer_vehicle_004_destroying_a_bunker_destroys_the_units_inside() {
    let bunker = "[[structures]]\nid = \"pillbox\"\nkind = \"bunker\"\nsquares = [\"A1:B1\"]\nentrances = [{ at = \"A1\", to = \"A2\", kind = \"back_door\", size = \"small\" }]\n";
    let text = board_toml(
        &unit_toml("a", "sq", "E9"),
        &format!(
            "{}{}",
            unit_toml("x", "sq", "B1"),
            unit_toml("y", "sq", "I1")
        ),
        bunker,
    );
    let sc = scenario::parse("structures", &text).unwrap_or_else(|e| panic!("{e}"));
    let mut st = DustTactics
        .start("ffg-revised", sc, cards())
        .expect("setup");
    let walls_before = st.scenario.board.walls().count();
    let mut out = Outcome::default();
    let gone =
        dustmail::dust_tactics::flow::structures::destroy_bunker(&mut st, "pillbox", "a", &mut out)
            .expect("a bunker");
    assert_eq!(gone, vec!["x".to_string()]);
    assert!(u(&st, "x").destroyed && !u(&st, "y").destroyed);
    assert!(st
        .scenario
        .board
        .structures
        .iter()
        .all(|s| s.id != "pillbox"));
    assert!(
        st.scenario.board.walls().count() < walls_before,
        "its walls came down"
    );
    let e =
        dustmail::dust_tactics::flow::structures::destroy_bunker(&mut st, "house", "a", &mut out)
            .expect_err("a building is no bunker");
    assert!(e.contains("no bunker `house`"), "{e}");
}

// The board text and the picture show the structures, and their legends name them (R500).
#[test]
fn structures_004_the_board_text_and_picture_show_structures() {
    let st = game(&[("a", "sq", "E9")], &[("x", "sq", "A1")]);
    let board = dustmail::dust_tactics::view::board_text(&st);
    assert!(board.contains("_ inside a structure"), "{board}");
    assert!(
        board.contains("Structure: building house D4-F5: door E5|E6 (large),"),
        "{board}"
    );
    assert!(board.contains("Quonset hut hut H7-H8"), "{board}");
    for l in board.lines() {
        assert!(l.chars().count() <= 72, "{l}");
    }
    let v = dustmail::dust_tactics::view::view(&st, Some("allies"));
    let pic = dustmail::dust_tactics::present::picture(&v, Some("allies"), &[]).expect("picture");
    let svg = dustmail::dust_tactics::picture::svg(&pic);
    assert!(
        svg.contains(r#"class="structure" data-id="house""#),
        "structure drawn"
    );
    assert!(
        svg.contains(r#"data-edge="E5|E6" data-kind="door""#),
        "door drawn"
    );
    assert!(
        svg.contains(">window</text>") && svg.contains(">door</text>"),
        "legend"
    );
}

// Every sentence above on one scenario: `outpost` (a bunker, a building and a hut), played to its
// end by two players' signed mails through the pipeline; replay and audit pass.
#[test]
fn structures_004_outpost_is_played_to_its_end_by_mail() {
    use crate::support::dt;
    use dustmail::dust_tactics::bot::Style;
    let dir = tempfile::tempdir().unwrap();
    let (home, ps, env) = dt::new_in_home(dir.path(), &["--scenario", "outpost"], ("g-out", 31, 7));
    let mut bots = dt::Bots::new("g-out", &ps, |i| Style::Random(40 + i as u64));
    env.run(dt::NOW);
    bots.play_to_end(&home, &env);
    let g = env.load("g-out");
    assert!(g.derived.finished.is_some(), "the game ended");
    let st: &State = g.derived.state.typed::<State>();
    assert_eq!(st.scenario.board.structures.len(), 3);
    let mut mails = String::new();
    for e in std::fs::read_dir(home.root.join("sent")).unwrap() {
        mails.push_str(&std::fs::read_to_string(e.unwrap().path()).unwrap());
    }
    let mails = crate::support::flat(&mails);
    assert!(
        mails.contains("Structure: bunker bunker D2-F2"),
        "reports show the bunker"
    );
    dt::replay_and_audit(&home, "g-out");
}

/// A game on the structures board with the bunker `pillbox` (A1–B1, a back door to A2) holding
/// the axis squad `x`, another axis squad `y` far off, and the allied engineer vehicle `eng` on
/// `eng_at`; allies activate first.
fn engineer_beside_a_bunker(eng_at: &str) -> State {
    let bunker = "[[structures]]\nid = \"pillbox\"\nkind = \"bunker\"\nsquares = [\"A1:B1\"]\nentrances = [{ at = \"A1\", to = \"A2\", kind = \"back_door\", size = \"small\" }]\n";
    let text = board_toml(
        &unit_toml("eng", "eng", eng_at),
        &format!(
            "{}{}",
            unit_toml("x", "sq", "B1"),
            unit_toml("y", "sq", "I1")
        ),
        bunker,
    );
    let sc = scenario::parse("structures", &text).unwrap_or_else(|e| panic!("{e}"));
    let mut all = cards();
    let gun = weapon("gun", WeaponRange::Upto(4), 1, 1);
    all.push(with_skill(
        card("eng", UnitType::Vehicle, 3, 2, vec![gun]),
        "engineer-vehicle",
        None,
    ));
    let mut st = DustTactics.start("ffg-revised", sc, all).expect("setup");
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

// issue 12, 004 "Engineer Vehicle": "A unit with this skill that begins its activation in a space
// adjacent to a bunker may spend its full activation to destroy it. This also destroys any units
// inside of the bunker." (R586) `skill engineer-vehicle at pillbox` is the whole activation; a
// second action line is refused, and so is the order from a space not beside the bunker.
#[test]
fn engineer_vehicle_004_its_full_activation_destroys_an_adjacent_bunker() {
    let mut st = engineer_beside_a_bunker("C2");
    let t = DustTactics.orders_template(&st, "allies");
    assert!(t.contains("skill engineer-vehicle at pillbox"), "{t}");
    let before = st.clone();
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate eng\nskill engineer-vehicle at pillbox\nnothing",
        &mut Cycle(1),
    ))
    .unwrap_err();
    assert!(e.contains("3 actions are declared"), "{e}");
    assert_eq!(st, before, "a refused activation changes nothing");
    let out = send(
        &mut st,
        "allies",
        "activate eng\nskill engineer-vehicle at pillbox",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(
        texts(&out).contains("the bunker pillbox"),
        "{}",
        texts(&out)
    );
    assert!(
        u(&st, "x").destroyed,
        "the squad inside is destroyed with it"
    );
    assert!(!u(&st, "y").destroyed);
    assert!(st
        .scenario
        .board
        .structures
        .iter()
        .all(|s| s.id != "pillbox"));
    // Not beside the bunker: refused, nothing changes.
    let mut st = engineer_beside_a_bunker("E5");
    let t = DustTactics.orders_template(&st, "allies");
    assert!(!t.contains("skill engineer-vehicle at"), "{t}");
    let before = st.clone();
    let e = first_result(&send(
        &mut st,
        "allies",
        "activate eng\nskill engineer-vehicle at pillbox",
        &mut Cycle(1),
    ))
    .unwrap_err();
    assert!(e.contains("adjacent to the bunker pillbox"), "{e}");
    assert_eq!(st, before);
}
