//! Issue 18: 003's terrain under `battlefront-2013` where it differs from 004's: swamp squares,
//! water squares, ammo crates (rulings R611–R613). Each test is named after 003's section and
//! quotes its sentence; most play the same position under battlefront-2013 and ffg-revised.

use super::battlefront_los::{fire_stg, game, grenadiers_at_reapers, ludwig_onto, terrain};
use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario;

// 003 "Swamp Squares": "Swamp squares represent shallow water, like swamps or mangroves. Vehicle
// units cannot enter a swamp square." The Ludwig, a walker, may not step onto swamp (R612).
#[test]
fn s003_swamp_squares_vehicle_units_cannot_enter() {
    let (st, out) = ludwig_onto("battlefront-2013", Terrain::Swamp);
    let (reason, rule) = refused(&out);
    assert!(reason.contains("E4 is swamp"), "{reason}");
    assert!(rule.contains("003 \"Moving Through Terrain\""), "{rule}");
    assert_eq!(u(&st, "ludwig").at, Some(sq("E3")));
}

// 003 "Swamp Squares": "Other units can move freely onto and through a swamp square". The Recon
// Grenadiers cross a whole row of swamp in a March Move, stopping on it first (R612).
#[test]
fn s003_swamp_squares_other_units_move_onto_and_through() {
    let mut st = game(
        "battlefront-2013",
        &[("pounder", "bf-pounder", "A9")],
        &[("grenadiers", "bf-recon-grenadiers", "E3")],
    );
    for c in 'A'..='I' {
        terrain(&mut st, &format!("{c}4"), Terrain::Swamp);
    }
    let out = cmd(
        &mut st,
        "axis",
        activate("grenadiers", vec![mv("E4"), mv("E5")]),
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "grenadiers").at, Some(sq("E5")));
}

// 003 "Swamp Squares" is 003's alone: a scenario drawing swamp (`,`) must suit battlefront-2013
// only, since 004's rulesets have no swamp to play (R612).
#[test]
fn s003_swamp_squares_only_on_battlefront_boards() {
    let text = include_str!("../../../games/dust-tactics/scenarios/encounter.toml").replacen(
        "\"..#...#..\",",
        "\"..#.,.#..\",",
        1,
    );
    let s = scenario::parse("swampy", &text).expect("battlefront scenario with swamp");
    assert_eq!(s.board.terrain(sq("E2")), Terrain::Swamp);

    let other = text.replace(
        "rulesets = [\"battlefront-2013\"]",
        "rulesets = [\"ffg-revised\"]",
    );
    let e = scenario::parse("swampy", &other).expect_err("swamp refused under ffg-revised");
    assert!(e.to_string().contains("E2 is a swamp square"), "{e}");
}

// 003 "Water Squares": "Water squares represent deep water. Units cannot enter a water square."
// No exception for infantry: the Recon Grenadiers given Jump and Amphibious Unit still may not
// (R611; 002's Amphibious is a vehicle's equipment, R667); under 004 they may.
#[test]
fn s003_water_squares_units_cannot_enter_even_with_jump_or_amphibious() {
    let onto_water = |ruleset: &str| {
        let mut st = game(
            ruleset,
            &[("pounder", "bf-pounder", "A9")],
            &[("grenadiers", "bf-recon-grenadiers", "E3")],
        );
        let card = st.cards["bf-recon-grenadiers"].clone();
        let card = with_skill(with_skill(card, "jump", None), "amphibious", None);
        st.cards.insert("bf-recon-grenadiers".into(), card);
        terrain(&mut st, "E4", Terrain::DeepWater);
        let out = cmd(
            &mut st,
            "axis",
            activate("grenadiers", vec![mv("E4"), nothing()]),
            &mut plenty(),
        );
        (st, out)
    };
    let (st, out) = onto_water("battlefront-2013");
    let (reason, rule) = refused(&out);
    assert!(reason.contains("E4 is a water square"), "{reason}");
    assert!(rule.contains("003 \"Water Squares\""), "{rule}");
    assert_eq!(u(&st, "grenadiers").at, Some(sq("E3")));

    let (st, out) = onto_water("ffg-revised");
    accepted(&out);
    assert_eq!(u(&st, "grenadiers").at, Some(sq("E4")));
}

/// The Ludwig (axis, E3) and the Recon Grenadiers (axis, G3), an ammo crate on E4 and G4.
fn crates() -> dustmail::dust_tactics::state::State {
    let mut st = game(
        "battlefront-2013",
        &[("pounder", "bf-pounder", "A9")],
        &[
            ("ludwig", "bf-ludwig", "E3"),
            ("grenadiers", "bf-recon-grenadiers", "G3"),
        ],
    );
    for at in ["E4", "G4"] {
        st.scenario.board.cover.insert(
            sq(at),
            CoverElement {
                kind: CoverKind::AmmoCrate,
                damage: 0,
            },
        );
    }
    st
}

// 003 "Ammo Crates": "Any unit can enter a square with an ammo crate. Upon entering the square,
// Vehicles can choose to crush the crate, removing it from the game." A plain `move` crushes it
// (R613, as R20), and the report says so.
#[test]
fn s003_ammo_crates_vehicles_can_choose_to_crush_the_crate() {
    let mut st = crates();
    let out = send(
        &mut st,
        "axis",
        "activate ludwig\n  move E4\n  nothing",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "ludwig").at, Some(sq("E4")));
    assert_eq!(st.scenario.board.cover_kind(sq("E4")), None);
    assert!(
        texts(&out).contains("crushes the ammo crate on E4"),
        "{}",
        texts(&out)
    );
}

// 003 "Ammo Crates": "Vehicles can choose to crush the crate": `move E4 spare` leaves it (R613,
// as R150); and "Any unit can enter": the Recon Grenadiers step onto one and it stays.
#[test]
fn s003_ammo_crates_any_unit_can_enter_and_vehicles_may_spare_them() {
    let mut st = crates();
    let out = send(
        &mut st,
        "axis",
        "activate ludwig\n  move E4 spare\n  nothing",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "ludwig").at, Some(sq("E4")));
    assert_eq!(
        st.scenario.board.cover_kind(sq("E4")),
        Some(CoverKind::AmmoCrate)
    );

    let mut st = crates();
    let out = send(
        &mut st,
        "axis",
        "activate grenadiers\n  move G4\n  nothing",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "grenadiers").at, Some(sq("G4")));
    assert_eq!(
        st.scenario.board.cover_kind(sq("G4")),
        Some(CoverKind::AmmoCrate)
    );
}

/// A battlefront-2013 scenario on a 9×9 open board with the building `house` D4–F5: a large
/// opening E5|E6 (a door), small ones D4|C4 and F4|G4 (windows); `extra` more TOML.
fn house_toml(extra: &str) -> String {
    format!(
        r#"title = "Buildings"
rulesets = ["battlefront-2013"]
rounds = 3
ap_limit = 100
[board]
rows = [".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "........."]

[[structures]]
id = "house"
kind = "building"
squares = ["D4:F5"]
entrances = [
  {{ at = "E5", to = "E6", kind = "door", size = "large" }},
  {{ at = "D4", to = "C4", kind = "window", size = "small" }},
  {{ at = "F4", to = "G4", kind = "window", size = "small" }},
]
{extra}
[[sides]]
id = "allies"
entry = {{ rows = [9] }}
[[sides.units]]
id = "a"
card = "bf-grim-reapers"
[[sides]]
id = "axis"
entry = {{ rows = [1] }}
[[sides.units]]
id = "x"
card = "bf-recon-grenadiers"
"#
    )
}

/// `st` with the house of [`house_toml`] on its board.
fn with_house(
    mut st: dustmail::dust_tactics::state::State,
) -> dustmail::dust_tactics::state::State {
    let sc = scenario::parse("house", &house_toml("")).unwrap_or_else(|e| panic!("{e}"));
    st.scenario.board = sc.board;
    st
}

// 003 "Walls and Buildings": "Units cannot cross a wall, whether part of a building or separate,
// but may move through appropriate openings. ... Infantry units may move through openings of any
// size. Vehicle units require large openings." (R614)
#[test]
fn s003_walls_and_buildings_infantry_through_any_opening_vehicles_through_large_ones() {
    let setup = || {
        with_house(game(
            "battlefront-2013",
            &[("pounder", "bf-pounder", "A9")],
            &[
                ("grenadiers", "bf-recon-grenadiers", "C4"),
                ("ludwig", "bf-ludwig", "G4"),
            ],
        ))
    };
    // The Recon Grenadiers climb in through the small window D4|C4.
    let mut st = setup();
    let out = send(
        &mut st,
        "axis",
        "activate grenadiers\n  move D4\n  nothing",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "grenadiers").at, Some(sq("D4")));
    // The Ludwig may not squeeze through the small window F4|G4 ...
    let mut st = setup();
    let out = send(
        &mut st,
        "axis",
        "activate ludwig\n  move F4\n  nothing",
        &mut plenty(),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("F4"), "{reason}");
    assert_eq!(u(&st, "ludwig").at, Some(sq("G4")));
    // ... nor cross the wall D5|C5 where there is no opening.
    let mut st = setup();
    let out = send(
        &mut st,
        "axis",
        "activate grenadiers\n  move C5\n  move D5",
        &mut plenty(),
    );
    refused(&out);
    assert_eq!(u(&st, "grenadiers").at, Some(sq("C4")));
}

// 003 "Vehicles Moving Through Buildings": "As a vehicle, the Ludwig requires a large opening to
// move through a wall." The Ludwig walks in through the large opening E5|E6 (R614).
#[test]
fn s003_vehicles_moving_through_buildings_a_large_opening() {
    let mut st = with_house(game(
        "battlefront-2013",
        &[("pounder", "bf-pounder", "A9")],
        &[("ludwig", "bf-ludwig", "E6")],
    ));
    let out = send(
        &mut st,
        "axis",
        "activate ludwig\n  move E5\n  nothing",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "ludwig").at, Some(sq("E5")));
}

// 003 "Check Line of Sight": "A unit outside a building can only attack a unit inside the
// building if the target unit is adjacent to the opening the unit is attacking through."; "Line
// of Sight Through Openings: The Heavy Laser Grenadiers can attack the Bot Hunters who are
// adjacent to the opening, but cannot attack the Grim Reapers who are further inside." (R615)
#[test]
fn s003_line_of_sight_through_openings_the_target_adjacent_to_the_opening() {
    // The Grim Reapers on D4, at the window D4|C4: the grenadiers on A4 fire through it.
    let mut st = with_house(grenadiers_at_reapers("battlefront-2013", "A4", "D4"));
    accepted(&fire_stg(&mut st));
    // Further inside, on E4, they are out of reach.
    let mut st = with_house(grenadiers_at_reapers("battlefront-2013", "B4", "E4"));
    let (reason, rule) = refused(&fire_stg(&mut st));
    assert!(reason.contains("next to none of its openings"), "{reason}");
    assert!(rule.contains("003 \"Check Line of Sight\""), "{rule}");
    // On E5, at the opening E5|E6 facing south, from B4 no line runs through that opening.
    let mut st = with_house(grenadiers_at_reapers("battlefront-2013", "B4", "E5"));
    let (reason, _) = refused(&fire_stg(&mut st));
    assert!(reason.contains("runs through an opening"), "{reason}");
    // From below, E8, the line runs through E5|E6.
    let mut st = with_house(grenadiers_at_reapers("battlefront-2013", "E8", "E5"));
    accepted(&fire_stg(&mut st));
}

// 003 "Check Line of Sight": "A unit inside a building can only attack a unit outside the
// building if the attacking unit is adjacent to the opening that it is attacking through." (R615)
#[test]
fn s003_line_of_sight_from_inside_the_attacker_adjacent_to_the_opening() {
    let mut st = with_house(grenadiers_at_reapers("battlefront-2013", "F4", "I4"));
    accepted(&fire_stg(&mut st));
    let mut st = with_house(grenadiers_at_reapers("battlefront-2013", "E4", "I4"));
    let (reason, _) = refused(&fire_stg(&mut st));
    assert!(
        reason.contains("E4 is inside the building house"),
        "{reason}"
    );
}

// 003 "Cover Saves": "An Infantry unit is also in Cover if it occupies a square with ammo crates,
// anti-tank traps, trees, rubble, buildings, or smoke."; "As The Gunners get cover from the
// opening, The Gunners roll their cover saves" (R616).
#[test]
fn s003_cover_saves_infantry_in_a_building_is_in_cover() {
    use dustmail::dust_tactics::battlefront::sight;
    use dustmail::dust_tactics::geometry::{Occupancy, Sighter};
    let board = scenario::parse("house", &house_toml(""))
        .unwrap_or_else(|e| panic!("{e}"))
        .board;
    let at = |s: &str, unit_type| Sighter {
        square: sq(s),
        unit_type,
    };
    let occ = Occupancy::new();
    let inside = sight::cover(
        &board,
        &occ,
        &[],
        at("A4", UnitType::Squad),
        at("D4", UnitType::Squad),
    );
    assert_eq!(inside, Cover::Soft);
    let outside = sight::cover(
        &board,
        &occ,
        &[],
        at("A4", UnitType::Squad),
        at("C4", UnitType::Squad),
    );
    assert_eq!(outside, Cover::None);
}

// 003 "Walls and Buildings" are buildings: 004's Quonset huts and bunkers are not 003's, so a
// battlefront-2013 scenario naming one is refused when read (R614).
#[test]
fn s003_walls_and_buildings_a_battlefront_structure_is_a_building() {
    let hut = r#"
[[structures]]
id = "hut"
kind = "hut"
squares = ["H7:H8"]
entrances = [{ at = "H8", to = "H9", kind = "door", size = "small" }]
"#;
    let e = scenario::parse("house", &house_toml(hut)).expect_err("a hut is refused");
    assert!(e.to_string().contains("003's buildings"), "{e}");
    assert!(scenario::parse("house", &house_toml("")).is_ok());
}

// 003 "Walls and Buildings" gives a building no upper floors; 004's floors and roofs (R514–R517)
// are not 003's rules, so a battlefront-2013 building with `floors = 2` is refused when read,
// naming the building and what to write (R236); with one floor it is read.
#[test]
fn s003_walls_and_buildings_a_battlefront_building_has_one_floor() {
    let tower = r#"
[[structures]]
id = "tower"
kind = "building"
squares = ["H7:H8"]
floors = 2
entrances = [{ at = "H8", to = "H9", kind = "door", size = "small" }]
"#;
    let e = scenario::parse("house", &house_toml(tower)).expect_err("two floors are refused");
    let e = e.to_string();
    assert!(
        e.contains("`tower` has 2 floors") && e.contains("write floors = 1"),
        "{e}"
    );
    let one = tower.replace("floors = 2", "floors = 1");
    assert!(scenario::parse("house", &house_toml(&one)).is_ok());
}

// 003 "Walls and Buildings", "Swamp Squares" in play: the shipped scenario `village` (003's
// Encounter with the farmhouse B3–C4 and swamp on G3, H3, G4) played to its end by the bundled
// bots through signed mails and the real pipeline; replay and audit pass; the mails show the
// farmhouse, and no vehicle ever ended on the swamp (R612, R614).
#[test]
fn s003_village_with_a_building_and_swamp_played_to_its_end_by_mail() {
    let (flat, st) = super::battlefront_scenarios::play_by_mail("village", ["allies", "axis"], 91);
    assert!(
        flat.contains("farmhouse"),
        "the mails never show the farmhouse"
    );
    assert_eq!(st.scenario.board.terrain(sq("G3")), Terrain::Swamp);
    for u in &st.units {
        let vehicle = st.cards[&u.card].unit_type == UnitType::Vehicle;
        let on_swamp =
            u.at.is_some_and(|at| st.scenario.board.terrain(at) == Terrain::Swamp);
        assert!(!(vehicle && on_swamp), "{} stands on swamp", u.id);
    }
}

// 003 "Move and March Move Actions": "The direction that a unit faces does not matter, so a
// Vehicle may move forwards, backwards, or sideways, and end their move facing in any
// direction." (R617) The Ludwig steps south from E3 to E4 and ends facing west: its front-mounted
// FpK guns reach the Bot Hunters due west on B4 in the same activation. Without `facing` it faces
// south, the way it stepped (R252), and the attack is refused.
#[test]
fn s003_move_and_march_move_a_vehicle_ends_its_move_facing_in_any_direction() {
    use dustmail::dust_tactics::battlefront::facing::Facing;
    let setup =
        || super::battlefront_facing::walkers("battlefront-2013", Some("B4"), Some("E3"), "axis");
    let mut st = setup();
    let out = send(
        &mut st,
        "axis",
        "activate ludwig\n  move E4 facing W\n  attack fpk at pounder",
        &mut plenty(),
    );
    accepted(&out);
    assert!(
        texts(&out).contains("ludwig turns to face W"),
        "{}",
        texts(&out)
    );
    assert!(texts(&out).contains("ludwig fires"), "{}", texts(&out));
    assert_eq!(u(&st, "ludwig").at, Some(sq("E4")));
    assert_eq!(u(&st, "ludwig").facing, Some(Facing::W));

    let mut st = setup();
    let out = send(
        &mut st,
        "axis",
        "activate ludwig\n  move E4\n  attack fpk at pounder",
        &mut plenty(),
    );
    refused(&out);
    assert_eq!(u(&st, "ludwig").at, Some(sq("E3")));
}

// 003 "Move and March Move Actions" (R617): a March Move ends facing the way its last `move`
// line names; `facing` on its first line is refused (the facing is where the move ends), as is
// `facing` under ffg-revised (004 has no facing) and a direction that is not one of the eight.
// Each refusal changes nothing.
#[test]
fn s003_move_and_march_move_the_facing_is_where_the_move_ends() {
    use dustmail::dust_tactics::battlefront::facing::Facing;
    let walkers = super::battlefront_facing::walkers;
    let mut st = walkers("battlefront-2013", Some("A9"), Some("E3"), "axis");
    let out = send(
        &mut st,
        "axis",
        "activate ludwig\n  move E4\n  move E5 facing NE",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "ludwig").at, Some(sq("E5")));
    assert_eq!(u(&st, "ludwig").facing, Some(Facing::NE));

    for (ruleset, orders, says) in [
        (
            "battlefront-2013",
            "activate ludwig\n  move E4 facing W\n  move E5",
            "the facing is where the move ends",
        ),
        (
            "ffg-revised",
            "activate ludwig\n  move E4 facing W\n  nothing",
            "`facing` is a battlefront-2013 order",
        ),
        (
            "battlefront-2013",
            "activate ludwig\n  move E4 facing Q\n  nothing",
            "`facing` needs one direction",
        ),
    ] {
        let mut st = walkers(ruleset, Some("A9"), Some("E3"), "axis");
        let out = send(&mut st, "axis", orders, &mut plenty());
        let text = match first_result(&out) {
            Err(e) => e,
            Ok(u) => panic!("{orders}: accepted as {u}"),
        };
        assert!(text.contains(says), "{orders}: {text}");
        assert_eq!(u(&st, "ludwig").at, Some(sq("E3")), "{orders}");
    }
}

// 003 "Move and March Move Actions" with "Reactive Attacks" ("Once the opposing player has
// completed their first action"): the facing is part of the Move (R617), so the Grim Reapers'
// Reactive Attack comes after the Recon Grenadiers have turned, not between the step and the turn.
#[test]
fn s003_move_and_march_move_the_reaction_comes_after_the_facing() {
    let mut st = game(
        "battlefront-2013",
        &[("reapers", "bf-grim-reapers", "E7")],
        &[("grenadiers", "bf-recon-grenadiers", "E3")],
    );
    accepted(&send(
        &mut st,
        "allies",
        "standing react any auto",
        &mut plenty(),
    ));
    let out = send(
        &mut st,
        "axis",
        "activate grenadiers\n  move E4 facing W\n  attack stg47 at reapers",
        &mut plenty(),
    );
    accepted(&out);
    let all = texts(&out);
    let turned = all.find("grenadiers turns to face W").expect(&all);
    let reacted = all.find("reapers attempts a reactive attack").expect(&all);
    assert!(turned < reacted, "{all}");
}

// 003 "Walls and Buildings" describes walls and openings only: a 003 building has no upper floor
// and no roof (R637, rules revision 9). A unit inside the house may not climb onto its roof, the
// orders template offers no height, and a game made before revision 9 keeps the climb it had.
#[test]
fn s003_walls_and_buildings_no_unit_climbs_to_a_roof() {
    let setup = || {
        with_house(game(
            "battlefront-2013",
            &[("pounder", "bf-pounder", "A9")],
            &[("grenadiers", "bf-recon-grenadiers", "D4")],
        ))
    };
    let mut st = setup();
    let out = send(
        &mut st,
        "axis",
        "activate grenadiers\n  move D4@roof\n  nothing",
        &mut plenty(),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("no roof"), "{reason}");
    assert!(rule.contains("R637"), "{rule}");
    assert_eq!(u(&st, "grenadiers").height, None);
    let all = crate::legal_template::every_suggestion_accepted(&st, "axis", "house");
    assert!(!all.iter().any(|o| o.contains('@')), "{all:?}");
    // A game made under revision 8 replays the climb it accepted then.
    let mut old = setup();
    old.rules_revision = 8;
    let out = send(
        &mut old,
        "axis",
        "activate grenadiers\n  move D4@roof\n  nothing",
        &mut plenty(),
    );
    accepted(&out);
    assert!(u(&old, "grenadiers").height.is_some());
}
