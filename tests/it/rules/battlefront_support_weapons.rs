//! Issue 18 (bflargerx): what the seeds say of 003's Support Weapons and Set-Up weapons and of
//! 002's "Grenadier X", and what a card naming them gets (rulings R820–R822). None is built: a
//! card naming one is refused when read (so at `new`), by name, with its section and ruling.

use dustmail::dust_tactics::cards::parse_card;
use std::path::Path;

/// The shipped 003 starter card `id`'s text with `from` replaced by `to` (`from` must be there).
fn edited(id: &str, from: &str, to: &str) -> (String, String) {
    let file = format!("{id}.toml");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/dust-tactics/cards-battlefront")
        .join(&file);
    let text = std::fs::read_to_string(path).expect("battlefront card");
    assert!(text.contains(from), "{from} not in {file}");
    (file, text.replacen(from, to, 1))
}

// 003 "Declare Targets": "Support weapon units (ones that mount multiple miniatures on the same
// base) use a two-man team to fire the support weapon."; 003 "Type Symbol": "Infantry units
// (squads, support weapons, and heroes)". R821: a Support Weapon is a kind of unit the engine
// does not build; a card whose `unit_type` says so is refused by name, not by a generic error,
// and the shipped card it was made from still reads.
#[test]
fn s003_declare_targets_a_support_weapon_unit_card_is_refused_by_name() {
    for t in ["support_weapon", "support-weapon"] {
        let (f, text) = edited(
            "bf-recon-grenadiers",
            "unit_type = \"squad\"",
            &format!("unit_type = \"{t}\""),
        );
        let e = parse_card(&f, &text).unwrap_err();
        assert_eq!(e.field, "unit_type", "{e}");
        assert!(
            e.reason.contains(&format!("`{t}` is 003's Support Weapon"))
                && e.reason.contains("R821")
                && e.reason.contains("003 \"Declare Targets\""),
            "{e}"
        );
    }
    let (f, text) = edited(
        "bf-recon-grenadiers",
        "unit_type = \"squad\"",
        "unit_type = \"squad\"",
    );
    assert!(parse_card(&f, &text).is_ok());
}

// 003 "Set-Up Weapons": "If a set-up weapon performs a Move and then an Attack Action or an
// Attack Action followed by a Move Action, it only rolls half of that weapon's combat dice
// (rounded up) during the Attack action." R822: no card marks one and the trait is not built:
// a line with the trait `set_up` (or a `support_weapon` trait, R821) is refused by name.
#[test]
fn s003_set_up_weapons_a_set_up_or_support_trait_is_refused_by_name() {
    for (t, ruling, what) in [
        ("set_up", "R822", "Set-Up weapon"),
        ("set-up", "R822", "Set-Up weapon"),
        ("support_weapon", "R821", "Support Weapon"),
    ] {
        let (f, text) = edited(
            "bf-recon-grenadiers",
            "id = \"mg48\"",
            &format!("id = \"mg48\"\ntraits = [\"{t}\"]"),
        );
        let e = parse_card(&f, &text).unwrap_err();
        assert_eq!(e.field, "weapons.mg48.traits", "{e}");
        assert!(
            e.reason.contains(&format!("the trait `{t}`"))
                && e.reason.contains(what)
                && e.reason.contains(ruling),
            "{e}"
        );
    }
}

// 002 "Vehicle Equipment": the heading "Grenadier X" stands between "Wheeled" and "Carrying
// Passengers" with no sentence after it, and no other seed names it. R820: its text is lost; a
// card naming it (`grenadier`, or `grenadier-x`) is refused when read, by its 002 name.
#[test]
fn s002_vehicle_equipment_grenadier_x_is_lost_and_refused_by_name() {
    for id in ["grenadier", "grenadier-x"] {
        let (f, t) = super::battlefront_skills002::card_with(
            "bf-pounder",
            &format!("[[skills]]\nname = \"{id}\""),
        );
        let e = parse_card(&f, &t).unwrap_err();
        assert!(
            e.reason.contains(&format!("`{id}`"))
                && e.reason.contains("\"Grenadier X\"")
                && e.reason.contains("text is lost")
                && e.reason.contains("R820"),
            "{e}"
        );
    }
}
