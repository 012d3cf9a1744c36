//! Issue 12 (ffg-revised, seed 004): a scenario unit starting above the ground floor (004
//! "STRUCTURES", "Moving", "Cover"; R634). A unit's `at` takes a height as a `move` path does
//! (`at = "E4@2"`, `"E4@roof"`), checked when the scenario is read and at setup exactly as a
//! move's height is; the unit begins the game there and plays as one that climbed.

use super::structures_004::{board_toml, unit_toml};
use crate::support_flow::*;
use dustmail::dust_tactics::floors::Height;
use dustmail::dust_tactics::model::{UnitType, WeaponRange};
use dustmail::dust_tactics::scenario::{self, Scenario};
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;

/// The structures board (building `house` D4–F5 of `floors` floors, door E5|E6 large, windows
/// D4|C4, F4|G4; hut H7–H8) with `allies` and `axis` units given as TOML.
fn text(floors: u8, allies: &str, axis: &str) -> String {
    board_toml(allies, axis, "").replace(
        "id = \"house\"\nkind = \"building\"\n",
        &format!("id = \"house\"\nkind = \"building\"\nfloors = {floors}\n"),
    )
}

fn units(v: &[(&str, &str, &str)]) -> String {
    v.iter().map(|(i, c, a)| unit_toml(i, c, a)).collect()
}

fn parse(floors: u8, allies: &[(&str, &str, &str)]) -> Result<Scenario, String> {
    scenario::parse("structures", &text(floors, &units(allies), "")).map_err(|e| e.0)
}

/// Cards: `sq` a squad (movement 2, gun range 4), `tank` a vehicle, `joe` a hero of the squad's
/// armour.
fn start(sc: Scenario) -> Result<State, String> {
    let gun = || weapon("gun", WeaponRange::Upto(4), 1, 1);
    let cards = vec![
        card("sq", UnitType::Squad, 4, 2, vec![gun()]),
        card("tank", UnitType::Vehicle, 3, 2, vec![gun()]),
        card("joe", UnitType::Hero, 3, 2, vec![gun()]),
    ];
    DustTactics.start("ffg-revised", sc, cards).map_err(|e| e.0)
}

/// The game, allies activating first, reactive fire off.
fn game(floors: u8, allies: &[(&str, &str, &str)]) -> State {
    let sc = parse(floors, allies).unwrap_or_else(|e| panic!("{e}"));
    let mut st = start(sc).unwrap_or_else(|e| panic!("{e}"));
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

fn place(st: &State, id: &str) -> String {
    let x = u(st, id);
    dustmail::dust_tactics::floors::place(x.at.expect("on the board"), x.height)
}

// 004 STRUCTURES, Moving: "A unit can use a MOVE action to move up or down 1 floor for each MP
// spent." (R634: a scenario unit may begin on a floor the structure has, and plays from there as
// one that climbed: the board text, the picture and the template show it there.)
#[test]
fn floors_start_004_moving_a_unit_starts_on_a_floor_above_the_ground() {
    let mut st = game(2, &[("b", "sq", "E4@2")]);
    assert_eq!(u(&st, "b").height, Some(Height::Floor(2)));
    assert_eq!(place(&st, "b"), "E4@2");
    let text = dustmail::dust_tactics::view::board_text(&st);
    let line = text
        .lines()
        .find(|l| l.contains(" b (allies"))
        .unwrap_or_else(|| panic!("no line for b in\n{text}"));
    assert!(line.contains(": E4@2, 4 models"), "{line}");
    let v = dustmail::dust_tactics::view::view(&st, Some("allies"));
    let pic = dustmail::dust_tactics::present::picture(&v, Some("allies"), &[]).expect("picture");
    assert!(
        pic.units.iter().any(|m| m.label == "b@2"),
        "{:?}",
        pic.units
    );
    // From the top floor the roof is one step up, and the template offers it.
    let all = crate::legal_template::every_suggestion_accepted(&st, "allies", "floors start");
    assert!(all.iter().any(|o| o.contains("move E4@roof\n")), "{all:?}");
    let out = send(
        &mut st,
        "allies",
        "activate b\nmove E4@roof\nnothing",
        &mut Cycle(0),
    );
    first_result(&out).unwrap_or_else(|e| panic!("refused: {e}"));
    assert_eq!(place(&st, "b"), "E4@roof");
    // `@1` is the ground floor, as in a move path.
    let st = game(2, &[("b", "sq", "E4@1")]);
    assert_eq!(place(&st, "b"), "E4");
}

// 004 STRUCTURES, Moving: "A unit can use a MOVE action to move up or down 1 floor for each MP
// spent." (R634: a floor the structure does not have is refused when the scenario is read,
// naming the field and the floors, as a move's is.)
#[test]
fn floors_start_004_moving_a_floor_the_structure_lacks_is_refused() {
    let e = parse(2, &[("b", "sq", "E4@3")]).expect_err("no floor 3");
    assert!(e.contains("`sides[allies].units[b].at`"), "{e}");
    assert!(e.contains("has 2 floors: there is no floor 3"), "{e}");
    assert!(e.contains("like E4@2"), "{e}");
    let e = parse(2, &[("b", "sq", "E4@up")]).expect_err("not a height");
    assert!(e.contains("`sides[allies].units[b].at`"), "{e}");
    assert!(e.contains("a height is a floor number"), "{e}");
    // Outside every structure there is no floor above the ground.
    let e = parse(2, &[("b", "sq", "B2@2")]).expect_err("no structure");
    assert!(e.contains("B2 is in no structure"), "{e}");
    assert!(e.contains("write B2"), "{e}");
}

// 004 STRUCTURES, Moving: "Units inside can also move onto the structure's roof by moving up from
// the structure's top floor." (R634: a unit may begin on the roof of a building or bunker, a
// one-floor one too (R517); not on a hut's, nor where no structure stands; floors and roofs are
// 004's, so only an ffg-revised scenario places a unit on them.)
#[test]
fn floors_start_004_moving_a_unit_starts_on_the_roof() {
    for floors in [1, 2] {
        let st = game(floors, &[("b", "sq", "E4@roof")]);
        assert_eq!(u(&st, "b").height, Some(Height::Roof));
        assert_eq!(place(&st, "b"), "E4@roof");
    }
    let e = parse(2, &[("b", "sq", "H7@roof")]).expect_err("a hut's roof");
    assert!(e.contains("`sides[allies].units[b].at`"), "{e}");
    assert!(e.contains("Quonset hut"), "{e}");
    let e = parse(2, &[("b", "sq", "A2@roof")]).expect_err("no structure");
    assert!(e.contains("A2 is in no structure"), "{e}");
    let plain = r#"title = "Open"
rounds = 3
ap_limit = 100
[board]
rows = [".........", ".........", "........."]
[[sides]]
id = "allies"
entry = { rows = [3] }
[[sides.units]]
id = "b"
card = "sq"
at = "B2@roof"
[[sides]]
id = "axis"
entry = { rows = [1] }
[[sides.units]]
id = "x"
card = "sq"
"#;
    let e = scenario::parse("open", plain).expect_err("not ffg-revised");
    assert!(e.0.contains("only ffg-revised plays"), "{e}");
    assert!(e.0.contains("write B2"), "{e}");
}

// 004 STRUCTURES, Moving: "Vehicles can enter structures through large entrances" (R514, R634:
// only soldiers and heroes go above the ground floor, so a vehicle starting there is refused at
// setup, where the cards are known, naming the unit and its ground-floor square.)
#[test]
fn floors_start_004_moving_vehicles_start_on_the_ground_floor() {
    let sc = parse(2, &[("t", "tank", "E5@2")]).expect("the file is well formed");
    let e = start(sc).expect_err("a vehicle upstairs");
    assert!(e.contains("unit t cannot start on E5@2"), "{e}");
    assert!(e.contains("only soldiers and heroes"), "{e}");
    assert!(e.contains("at = \"E5\""), "{e}");
    let st = game(2, &[("t", "tank", "E5")]);
    assert_eq!(place(&st, "t"), "E5");
}

// 004 STRUCTURES, Cover: "Units on separate floors and directly above or below each other are
// not considered to be adjacent." (R634: one unit per square and height, so two units may begin
// one above the other, never two at one height.)
#[test]
fn floors_start_004_cover_units_start_directly_above_each_other() {
    let st = game(2, &[("b", "sq", "E4"), ("c", "sq", "E4@2")]);
    assert_eq!(place(&st, "b"), "E4");
    assert_eq!(place(&st, "c"), "E4@2");
    let e = parse(2, &[("b", "sq", "E4@2"), ("c", "sq", "E4@2")]).expect_err("one a height");
    assert!(e.contains("`sides[allies].units[c].at`"), "{e}");
    assert!(e.contains("E4@2 already holds b"), "{e}");
    assert!(e.contains("one unit per square and height"), "{e}");
}

// 004 STRUCTURES, Moving: "A unit can use a MOVE action to move up or down 1 floor for each MP
// spent." (R634: a hero joined before the game stands with its squad, at its height too.)
#[test]
fn floors_start_004_moving_a_joined_hero_starts_with_its_squad_upstairs() {
    let allies = format!(
        "{}[[sides.units]]\nid = \"joe\"\ncard = \"joe\"\njoins = \"b\"\n",
        unit_toml("b", "sq", "F5@2")
    );
    let sc = scenario::parse("structures", &text(2, &allies, "")).expect("parses");
    let st = start(sc).expect("setup");
    assert_eq!(place(&st, "joe"), "F5@2");
    assert_eq!(u(&st, "joe").joined.as_deref(), Some("b"));
}

// 004 STRUCTURES, Moving: "A unit can use a MOVE action to move up or down 1 floor for each MP
// spent." (R634: games/dust-tactics/scenarios/tower.toml starts the Axis `lasers` on floor 2 of
// its tower; structures_floors2_004_tower_is_played_to_its_end_by_mail plays it to its end.)
#[test]
fn floors_start_004_tower_starts_a_unit_upstairs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("games/dust-tactics/scenarios/tower.toml"))
        .expect("tower.toml");
    let sc = scenario::parse("tower", &text).unwrap_or_else(|e| panic!("{e}"));
    let axis = sc.sides.iter().find(|s| s.id == "axis").expect("axis");
    let lasers = axis
        .units
        .iter()
        .find(|x| x.id == "lasers")
        .expect("lasers");
    let at = lasers.at.map(|s| s.to_string());
    assert_eq!(
        (at.as_deref(), lasers.height),
        (Some("D5"), Some(Height::Floor(2)))
    );
}
