//! The shipped cards and card validation (docs/cards.md).

use dustmail::dust_tactics::cards::{self, builtin, builtin_cards, parse_card, CardError};
use dustmail::dust_tactics::model::{Card, Fire, WeaponRange};

#[test]
fn every_shipped_card_parses_and_validates() {
    let list = builtin();
    assert_eq!(list.len(), 12, "the 12 units of the core box");
    for (file, text) in list {
        let card = parse_card(file, text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(format!("{}.toml", card.id), file);
        assert!(!card.sources.is_empty(), "{file} cites no source");
        // Other engineers read cards with plain serde: it must keep working.
        let plain: Card = toml::from_str(text).unwrap();
        assert_eq!(plain, card);
    }
}

#[test]
fn box_forces_are_16_ap_a_side() {
    // 000 "Cost of units": "Each of the two forces in the box is worth 16AP." (ruling R30)
    let cards = builtin_cards().unwrap();
    for faction in ["allies", "axis"] {
        let units: Vec<&Card> = cards.iter().filter(|c| c.faction == faction).collect();
        assert_eq!(
            units.len(),
            6,
            "{faction}: three squads, two vehicles, a hero"
        );
        assert_eq!(units.iter().map(|c| c.ap).sum::<u32>(), 16, "{faction}");
        // 000 "Box contents": 15 soldiers a company.
        let soldiers: u32 = units
            .iter()
            .filter(|c| c.unit_type == dustmail::dust_tactics::model::UnitType::Squad)
            .map(|c| c.health as u32)
            .sum();
        assert_eq!(soldiers, 15, "{faction}");
    }
}

#[test]
fn pounder_card_matches_000_weapon_line_example() {
    // 000 "Open fire!": 17 Pdr range U, 4 dice vs soldier 1-2, 2 vs 3-4, 7/7/6/6/5/5/4 vs vehicles.
    let cards = builtin_cards().unwrap();
    let pounder = cards.iter().find(|c| c.id == "m2c-pounder").unwrap();
    let gun = pounder.weapon("17pdr").unwrap();
    assert_eq!(gun.range, WeaponRange::Unlimited);
    let dice: Vec<u8> = gun
        .soldier
        .iter()
        .chain(gun.vehicle.iter())
        .map(|f| match f {
            Fire::Dice { dice, damage: 1 } => *dice,
            other => panic!("unexpected cell {other}"),
        })
        .collect();
    assert_eq!(dice, [4, 4, 2, 2, 7, 7, 6, 6, 5, 5, 4]);
    assert_eq!(pounder.weapon("50cal").unwrap().range, WeaponRange::Upto(6));
    assert_eq!(pounder.weapon("30cal").unwrap().range, WeaponRange::Upto(4));
    assert_eq!(pounder.ap, 4, "000 'Command squads': a Pounder (4 AP)");
}

#[test]
fn carriers_alive_follow_the_models_that_carry_the_weapon() {
    // 000 "Open fire!": dice are multiplied by the soldiers carrying the weapon still in the game.
    let cards = builtin_cards().unwrap();
    let ar = cards.iter().find(|c| c.id == "assault-rangers").unwrap();
    assert_eq!(
        cards::carriers_alive(ar, "shotguns", &["1", "2", "3", "4", "5"]),
        4
    );
    assert_eq!(cards::carriers_alive(ar, "shotguns", &["3", "4", "5"]), 2);
    assert_eq!(cards::carriers_alive(ar, "flamethrower", &["1", "2"]), 0);
    assert_eq!(cards::carriers_alive(ar, "knife-grenade", &["1", "5"]), 2);
    assert_eq!(cards::carriers_alive(ar, "nope", &["1"]), 0);
}

const GOOD: &str = r#"
id = "test-squad"
name = "Test Squad"
faction = "allies"
unit_type = "squad"
armour = { soldier = 2 }
movement = 1
health = 2
ap = 2
soft_save = "hit"

[[weapons]]
id = "rifles"
name = "Rifles"
range = "4"
soldier = ["2/1", "2/1", "1/1", "-"]
vehicle = ["1/1", "-", "-", "-", "-", "-", "-"]

[[weapons]]
id = "mg"
name = "MG"
carriers = 1
range = "6"
soldier = ["3/1", "3/1", "2/1", "1/1"]
vehicle = ["-", "-", "-", "-", "-", "-", "-"]

[[skills]]
name = "fast"

[[models]]
id = "1"
carries = ["rifles"]

[[models]]
id = "2"
carries = ["mg"]
"#;

fn bad(edit: impl Fn(&str) -> String) -> CardError {
    parse_card("test-squad.toml", &edit(GOOD)).expect_err("the card must be refused")
}

#[test]
fn the_test_card_itself_is_valid() {
    let card = parse_card("test-squad.toml", GOOD).unwrap();
    assert_eq!(card.weapon("mg").unwrap().carriers, Some(1));
}

#[test]
fn armour_out_of_its_class_range_is_refused() {
    let e = bad(|t| t.replace("armour = { soldier = 2 }", "armour = { soldier = 5 }"));
    assert_eq!(e.field, "armour");
    assert_eq!(
        e.to_string(),
        "card test-squad.toml: armour: soldier armour 5 is outside soldier armour 1-4; write armour = { soldier = N } with N from 1 to 4 (000 \"Weapon lines\")"
    );
}

#[test]
fn squad_with_vehicle_armour_is_refused() {
    let e = bad(|t| t.replace("armour = { soldier = 2 }", "armour = { vehicle = 2 }"));
    assert_eq!(e.field, "armour");
    assert!(e.reason.contains("soldier armour"), "{e}");
}

#[test]
fn duplicated_weapon_id_is_refused() {
    let e = bad(|t| t.replace("id = \"mg\"", "id = \"rifles\""));
    assert_eq!(e.field, "weapons[1].id");
    assert_eq!(
        e.to_string(),
        "card test-squad.toml: weapons[1].id: weapon id `rifles` is used twice; give each weapon line its own id"
    );
}

#[test]
fn squad_models_not_matching_health_are_refused() {
    let e = bad(|t| t.replace("health = 2", "health = 3"));
    assert_eq!(e.field, "models");
    assert_eq!(
        e.to_string(),
        "card test-squad.toml: models: 2 model(s) listed but health is 3; list one [[models]] per miniature (3 of them), or change health"
    );
}

#[test]
fn more_carriers_than_models_are_refused() {
    let e = bad(|t| t.replace("carriers = 1", "carriers = 3"));
    assert_eq!(e.field, "weapons[1].carriers");
    assert_eq!(
        e.to_string(),
        "card test-squad.toml: weapons[1].carriers: 3 carriers, but the unit has 2 model(s); write carriers from 1 to 2 or leave it out (every model carries it)"
    );
}

#[test]
fn carriers_not_matching_the_picture_are_refused() {
    let e = bad(|t| t.replace("carries = [\"rifles\"]", "carries = [\"rifles\", \"mg\"]"));
    assert_eq!(e.field, "weapons[1].carriers");
    assert!(e.reason.contains("2 model(s) carry `mg`"), "{e}");
}

#[test]
fn unknown_skill_is_refused_with_the_known_names() {
    let e = bad(|t| t.replace("name = \"fast\"", "name = \"Fast\""));
    assert_eq!(e.field, "skills[0].name");
    assert!(e.reason.contains("`Fast` is not a skill"), "{e}");
    assert!(e.instead.contains("fast, fighting-spirit"), "{e}");
}

#[test]
fn bad_weapon_cell_is_refused_with_the_format() {
    let e = bad(|t| t.replace("\"3/1\", \"3/1\"", "\"3-1\", \"3/1\""));
    assert_eq!(e.field, "toml");
    assert!(e.reason.contains("`3-1` is not a weapon cell"), "{e}");
    assert!(e.instead.contains("line"), "{e}");
}

#[test]
fn bad_range_is_refused_with_the_format() {
    let e = bad(|t| t.replace("range = \"6\"", "range = \"far\""));
    assert!(e.reason.contains("`far` is not a range"), "{e}");
}

#[test]
fn id_must_match_the_file_name() {
    let e = parse_card("other.toml", GOOD).unwrap_err();
    assert_eq!(e.field, "id");
    assert!(e.instead.contains("id = \"other\""), "{e}");
}

#[test]
fn unknown_weapon_in_model_carries_is_refused() {
    let e = bad(|t| t.replace("carries = [\"rifles\"]", "carries = [\"bazooka\"]"));
    assert_eq!(e.field, "models[0].carries");
    assert!(e.instead.contains("rifles, mg"), "{e}");
}

#[test]
fn hero_with_cover_saves_is_refused() {
    // 004 "Check Cover Saves": cover saves only apply to squads.
    let text = GOOD
        .replace("unit_type = \"squad\"", "unit_type = \"hero\"")
        .replace("carriers = 1\n", "");
    let e = parse_card("test-squad.toml", &text).unwrap_err();
    assert_eq!(e.field, "soft_save");
}

#[test]
fn faction_and_empty_cells_are_checked() {
    let e = bad(|t| t.replace("faction = \"allies\"", "faction = \"soviets\""));
    assert_eq!(e.field, "faction");
    let e = bad(|t| t.replace("\"1/1\", \"-\"]", "\"0/1\", \"-\"]"));
    assert_eq!(e.field, "weapons[0].soldier");
}

#[test]
fn tagged_serde_forms_are_still_read() {
    // The derived serde forms of the skeleton keep working for hand-written files.
    let text = GOOD.replace(
        "range = \"4\"\nsoldier = [\"2/1\", \"2/1\", \"1/1\", \"-\"]",
        "range = { upto = 4 }\nsoldier = [{ dice = { dice = 2, damage = 1 } }, \"2/1\", { incendiary = { dice = 1 } }, \"no\"]",
    );
    let card = parse_card("test-squad.toml", &text).unwrap();
    let w = card.weapon("rifles").unwrap();
    assert_eq!(w.range, WeaponRange::Upto(4));
    assert_eq!(w.soldier[0], Fire::Dice { dice: 2, damage: 1 });
    assert_eq!(w.soldier[2], Fire::Incendiary { dice: 1 });
    assert_eq!(w.soldier[3], Fire::No);
}
