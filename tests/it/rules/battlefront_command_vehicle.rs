//! Issue 18: 002 "Command Vehicle" (page 103) under battlefront-2013 (R653, R654), with 002's
//! command squads (R640–R647) mounted as passengers (R732–R737). Allies: the carrier `cv` (six
//! spaces; with `command-vehicle` or without) on E6, the command squad `cs` (five soldiers of
//! armour 2) mounted in it, the damaged vehicle `tank` on D6 beside it, the squad `gren` on E1
//! (five squares off; its model 4's grenade spent); axis squad `foe` on I1. Scripted dice (1, 2
//! army; 3, 4 target; 5, 6 shield); every scripted die must be used.

use super::battlefront_passengers::{aboard, carrier};
use super::command_squads::{command_squad_card, game_under, grenadier_squad};
use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;

/// The game; `command` gives the carrier its `command-vehicle`; `radioman` keeps the squad's
/// own Radio Operator.
fn game(command: bool, radioman: bool) -> State {
    let mut cv = carrier("cv", "carry-capacity", 6, 4);
    if command {
        cv = with_skill(cv, "command-vehicle", None);
    }
    let mut st = game_under(
        "battlefront-2013",
        vec![
            unit("cv", "cv", Some("E6")),
            aboard(unit("cs", "cs", None), "cv"),
            unit("tank", "veh", Some("D6")),
            unit("gren", "gr", Some("E1")),
        ],
        vec![unit("foe", "sq", Some("I1"))],
        vec![
            cv,
            command_squad_card("cs", 2),
            grenadier_squad(),
            card("veh", UnitType::Vehicle, 4, 1, vec![]),
            squad("sq"),
        ],
    );
    st.unit_mut("tank").unwrap().health = 1;
    st.unit_mut("gren")
        .unwrap()
        .ammo
        .insert("grenade".into(), 0);
    if !radioman {
        st.unit_mut("cs")
            .unwrap()
            .models
            .retain(|m| m != "radioman");
    }
    st
}

const REPAIR: &str = "activate cs\n  skill makeshift-repair at tank\n  nothing";
const AMMO: &str = "activate cs\n  skill ammo-drop at gren\n  nothing";

// 002 "Activating While Mounted": "Passengers mounted in a Vehicle Activate separately from the
// Vehicle ... Other than this, they cannot perform Move or March Move Actions while being
// carried as Passengers." and 002 "Command Vehicle": "Officers, Mechanics, and Medics mounted in
// Command Vehicle can re-roll failed Command Squad Special Actions" (R653: a mounted command
// squad takes its Special Actions, from the vehicle's square, in any vehicle). In a plain
// carrier the mechanic repairs the tank beside it: two army, two points; five shields repair
// nothing and are not rolled again.
#[test]
fn s002_command_vehicle_a_mounted_command_squad_takes_special_actions_from_the_vehicle() {
    let mut st = game(false, true);
    let out = play(&mut st, "allies", REPAIR, &[1, 3, 2, 5, 4]);
    let t = texts(&out);
    assert!(t.contains("5 dice, 2 army, 2 damage removed"), "{t}");
    assert_eq!(u(&st, "tank").health, 3, "{t}");
    assert_eq!(u(&st, "cs").aboard.as_deref(), Some("cv"), "{t}");

    let mut st = game(false, true);
    let out = play(&mut st, "allies", REPAIR, &[5, 5, 6, 6, 3]);
    let t = texts(&out);
    assert!(t.contains("0 army, 0 damage removed"), "{t}");
    assert!(!t.contains("re-rolls"), "{t}");
    assert_eq!(u(&st, "tank").health, 1, "{t}");
}

// 002 "Command Vehicle": "a Command Vehicle provides any Command Squad mounted in it with an
// additional Radio Operator." and 002 "Ammo Drop": "If the Officer has a Radio Operator, they
// can request an Ammo Drop for any Unit on the board." (R653) Without its radioman the squad
// in the Command Vehicle refills `gren` five squares off; in a plain carrier it is refused
// (Range 2) and nothing changes.
#[test]
fn s002_command_vehicle_an_additional_radio_operator_reaches_any_unit_on_the_board() {
    let mut st = game(true, false);
    let out = play(&mut st, "allies", AMMO, &[1]);
    let t = texts(&out);
    assert!(t.contains("full ammunition again"), "{t}");
    assert_eq!(u(&st, "gren").ammo.get("grenade"), Some(&1), "{t}");

    let mut st = game(false, false);
    let (reason, rule) = refused(&play(&mut st, "allies", AMMO, &[]));
    assert!(reason.contains("no Radio Operator"), "{reason}");
    assert!(rule.contains("002 \"Ammo Drop\""), "{rule}");
    assert_eq!(u(&st, "gren").ammo.get("grenade"), Some(&0));
}

// 002 "Command Vehicle": "Officers, Mechanics, and Medics mounted in Command Vehicle can re-roll
// failed Command Squad Special Actions" (R654: a failed die rolled once more, both rolls
// reported). A shield then a target: the ammunition comes; a shield then a shield: it fails,
// two dice and no more; in a plain carrier a shield is the end of it.
#[test]
fn s002_command_vehicle_a_failed_special_action_is_re_rolled_once_with_both_rolls_reported() {
    let mut st = game(true, true);
    let out = play(&mut st, "allies", AMMO, &[5, 3]);
    let t = texts(&out);
    assert!(
        t.contains("fails with shield, and re-rolls it in the Command Vehicle cv: target"),
        "{t}"
    );
    assert!(t.contains("002 \"Command Vehicle\""), "{t}");
    assert_eq!(u(&st, "gren").ammo.get("grenade"), Some(&1), "{t}");

    let mut st = game(true, true);
    let out = play(&mut st, "allies", AMMO, &[6, 5]);
    let t = texts(&out);
    assert!(t.contains("re-rolls it"), "{t}");
    assert!(t.contains("it fails"), "{t}");
    assert_eq!(u(&st, "gren").ammo.get("grenade"), Some(&0), "{t}");

    let mut st = game(false, true);
    let out = play(&mut st, "allies", AMMO, &[6]);
    assert!(!texts(&out).contains("re-rolls"), "{}", texts(&out));
    assert_eq!(u(&st, "gren").ammo.get("grenade"), Some(&0));
}

// 002 "Command Vehicle" with 002 "Makeshift Repair" ("rolls five dice ... removes one point of
// Damage for each [army]", R643, R654): a repair fails when no die shows army; in the Command
// Vehicle the five are rolled again: the second roll's two army remove two points.
#[test]
fn s002_command_vehicle_a_failed_makeshift_repair_rolls_its_five_dice_again() {
    let mut st = game(true, true);
    let out = play(&mut st, "allies", REPAIR, &[5, 5, 6, 6, 3, 1, 1, 4, 5, 6]);
    let t = texts(&out);
    assert!(t.contains("re-rolls it in the Command Vehicle cv"), "{t}");
    assert!(t.contains("5 dice, 2 army, 2 damage removed"), "{t}");
    assert_eq!(u(&st, "tank").health, 3, "{t}");
}

// 002 "Command Vehicle" is built: a battlefront card naming it is accepted at `new` (R281 no
// longer refuses it), and the provisional card of games/dust-tactics/cards-battlefront-transport
// reads and passes the check.
#[test]
fn s002_command_vehicle_cards_with_it_are_accepted() {
    use dustmail::dust_tactics::battlefront::skills::check_cards;
    use dustmail::dust_tactics::cards::parse_card;
    let f = "bf-axis-command-transport.toml";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/dust-tactics/cards-battlefront-transport")
        .join(f);
    let text = std::fs::read_to_string(path).unwrap();
    let c = parse_card(f, &text).unwrap();
    assert!(c.has_skill("command-vehicle"));
    let cards = std::collections::BTreeMap::from([(f.to_string(), text)]);
    assert_eq!(check_cards(&cards), Ok(()));
}
