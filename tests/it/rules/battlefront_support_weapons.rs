//! Issue 18 (bflargerx): what the seeds say of 003's Support Weapons and Set-Up weapons and of
//! 002's "Grenadier X", and what a card naming them gets (rulings R820–R822). Set-Up weapons are
//! played (004's `setup`, R822); a Support Weapon unit and Grenadier X are not built: a card
//! naming one is refused when read (so at `new`), by name, with its section and ruling.

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::facing::Facing;
use dustmail::dust_tactics::cards::parse_card;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Outcome, ScriptedDice};
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
// (rounded up) during the Attack action." R822: it is 004's Setup weapon (R419), the trait
// `setup`, now played under battlefront-2013 too; a card writing it `set_up` or `set-up` is
// told to write `setup`, and a `support_weapon` trait is refused (a Support Weapon is a unit,
// R821).
#[test]
fn s003_set_up_weapons_a_set_up_or_support_trait_is_refused_by_name() {
    for (t, ruling, what) in [
        ("set_up", "R822", "which a card writes as the trait `setup`"),
        ("set-up", "R822", "which a card writes as the trait `setup`"),
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
    // `setup` reads, and a battlefront-2013 game accepts it (R236 no longer refuses it).
    let (f, text) = edited(
        "bf-recon-grenadiers",
        "id = \"mg48\"",
        "id = \"mg48\"\ntraits = [\"setup\"]",
    );
    assert!(parse_card(&f, &text).is_ok());
    let files = std::collections::BTreeMap::from([(f, text)]);
    assert_eq!(
        dustmail::dust_tactics::battlefront::skills::check_cards(&files),
        Ok(())
    );
}

/// A battlefront-2013 game: two allied vehicles with a `setup` gun of 3 dice (range 6) on C8
/// and E8, the axis squad `foe` on E4 and a spare on A1; nobody reacts; the allies go first.
fn setup_game() -> State {
    let mut line = weapon("hg", WeaponRange::Upto(6), 3, 1);
    line.traits = vec![WeaponTrait::Setup];
    let gun = card("setter", UnitType::Vehicle, 3, 1, vec![line]);
    let s = scenario(
        vec![
            unit("su1", "setter", Some("C8")),
            unit("su2", "setter", Some("E8")),
        ],
        vec![
            unit("foe", "sq", Some("E4")),
            unit("foe2", "sq", Some("A1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![gun, squad("sq")])
        .expect("setup");
    begin(&mut st, "allies");
    for side in ["allies", "axis"] {
        accepted(&send(
            &mut st,
            side,
            "standing react any never",
            &mut ScriptedDice::new([]),
        ));
    }
    st
}

/// The dice counts of the rolls whose purpose starts with `purpose`.
fn rolls(out: &Outcome, purpose: &str) -> Vec<usize> {
    (out.happenings.iter())
        .flat_map(|h| h.rolls.iter())
        .filter(|r| r.purpose.starts_with(purpose))
        .map(|r| r.faces.len())
        .collect()
}

// 003 "Set-Up Weapons" (as above), R822: under battlefront-2013 a Move then an Attack rolls 2 of
// the gun's 3 dice (half, rounded up); an Attack with no Move rolls all 3.
#[test]
fn s003_set_up_weapons_half_the_dice_rounded_up_with_a_move() {
    let mut st = setup_game();
    let misses = || ScriptedDice::new(vec![6u8; 40]);
    let out = send(
        &mut st,
        "allies",
        "activate su1\n  move C7\n  attack hg at foe",
        &mut misses(),
    );
    accepted(&out);
    assert_eq!(rolls(&out, "attack hg"), vec![2], "{}", texts(&out));
    assert!(texts(&out).contains("setup: half dice"), "{}", texts(&out));
    accepted(&send(
        &mut st,
        "axis",
        "activate foe2\n  nothing\n  nothing",
        &mut misses(),
    ));
    let out = send(
        &mut st,
        "allies",
        "activate su2\n  attack hg at foe\n  nothing",
        &mut misses(),
    );
    accepted(&out);
    assert_eq!(rolls(&out, "attack hg"), vec![3], "{}", texts(&out));
}

/// The axis vehicle `su` on E5 facing `f`, its `setup` gun (3 dice, range 6) front-mounted;
/// the allies' squad `ours` on A5; the axis answer reactive attacks by mail; allies first.
fn setup_reactor(f: Facing) -> State {
    let mut line = weapon("hg", WeaponRange::Upto(6), 3, 1);
    line.traits = vec![WeaponTrait::Setup, WeaponTrait::FrontArc];
    let gun = card("setter", UnitType::Vehicle, 3, 1, vec![line]);
    let s = scenario(
        vec![
            unit("ours", "sq", Some("A5")),
            unit("spare-a", "sq", Some("I9")),
        ],
        vec![
            unit("su", "setter", Some("E5")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![gun, squad("sq")])
        .expect("setup");
    st.unit_mut("su").expect("su").facing = Some(f);
    begin(&mut st, "allies");
    for (side, react) in [("allies", "never"), ("axis", "ask")] {
        accepted(&send(
            &mut st,
            side,
            &format!("standing react any {react}"),
            &mut ScriptedDice::new([]),
        ));
    }
    accepted(&send(
        &mut st,
        "allies",
        "activate ours\n  move B5\n  attack gun at su",
        &mut ScriptedDice::new(vec![6u8; 40]),
    ));
    st
}

// 003 "Set-Up Weapons" (as above) and 003 "Reactive Attacks": two army symbols let the unit make
// "a Move action followed by an Attack action. The Move action can only be used to rotate the
// model". R822: a reaction that turns first is a Move then an Attack, so its set-up gun rolls 2
// of its 3 dice; one army symbol, an Attack with no Move, rolls all 3.
#[test]
fn s003_set_up_weapons_a_reaction_that_turns_first_rolls_half_the_dice() {
    let mut st = setup_reactor(Facing::N);
    let mut dice = ScriptedDice::new([1u8, 2].into_iter().chain([6u8; 40]).collect::<Vec<u8>>());
    let out = send(&mut st, "axis", "react su turn", &mut dice);
    accepted(&out);
    assert!(
        texts(&out).contains("only turns it, to face W"),
        "{}",
        texts(&out)
    );
    assert_eq!(rolls(&out, "attack hg"), vec![2], "{}", texts(&out));
    let mut st = setup_reactor(Facing::W);
    let mut dice = ScriptedDice::new([1u8, 3].into_iter().chain([6u8; 40]).collect::<Vec<u8>>());
    let out = send(&mut st, "axis", "react su", &mut dice);
    accepted(&out);
    assert_eq!(rolls(&out, "attack hg"), vec![3], "{}", texts(&out));
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
