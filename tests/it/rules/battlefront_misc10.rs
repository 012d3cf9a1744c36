//! Issue 18, session 10: three pieces of 002 under battlefront-2013. "Chainsaws and Claws": an
//! engineer vehicle with a Cutting weapon cuts barbed wire, two dice with a pair (R809); "Crew"
//! in close combat: the vehicle's lines or its crew's, never both (R810); "Command Vehicle": a
//! Hero Officer joined to a Command Squad mounted in one has its additional Radio Operator
//! (R811). Each test quotes its sentence. Dust dice from the scripted d6: 1–2 army, 3–4 target,
//! 5–6 shield (R230).

use super::battlefront_bunkers2::{fort, vehicle, works};
use super::battlefront_passengers::{aboard, carrier};
use super::command_squads::{command_squad_card, game_under, grenadier_squad};
use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::game::ScriptedDice;

/// A Cutting weapon line named `name` (002 "Cutting Weapons", R671).
fn saw(id: &str, name: &str) -> WeaponLine {
    let mut w = weapon(id, WeaponRange::Close, 1, 1);
    w.name = name.into();
    w.traits.push(WeaponTrait::Cutting);
    w
}

/// The test vehicle with the equipment `skill` (or none) and the Cutting lines `saws` (id, name).
fn cutter(skill: Option<&str>, saws: &[(&str, &str)]) -> Card {
    let mut c = vehicle(skill);
    c.weapons
        .extend(saws.iter().map(|(id, name)| saw(id, name)));
    c
}

/// The allied vehicle on E8 with barbed wire on D9 (next to it) and B8 (not), the axis soldier
/// far off on A1.
pub(super) fn wire_game(card: Card) -> State {
    works(card, "E8", "A1", (&[], &[], &["D9", "B8"]))
}

pub(super) const CUT: &str = "activate shooter\n  skill engineering at D9\n  nothing";

/// The faces of the engineering roll at D9.
pub(super) fn wire_faces(out: &dustmail::game::Outcome) -> Vec<u8> {
    out.happenings
        .iter()
        .flat_map(|h| h.rolls.iter())
        .filter(|r| r.purpose == "engineering on the barbed wire on D9: shooter")
        .flat_map(|r| r.faces.clone())
        .collect()
}

// 002 "Chainsaws and Claws": "An Engineer Vehicle equipped with Cuttings or Grappling weapons can
// attempt to cut a gap through an adjacent Barbed Wire Entanglement by taking an Engineering
// Special Action. If it does so, roll a die ... On a score of [lost], the Vehicle cuts a gap and
// the Barbed Wire Entanglement is removed." (R809: the lost symbol is army, as R724, R726.) An
// engineer vehicle with one power saw on E8: army cuts the wire on D9; a target or a shield
// leaves it; one die each time.
#[test]
fn s002_chainsaws_and_claws_an_engineer_vehicle_with_a_cutting_weapon_cuts_the_wire_on_army() {
    let card = || cutter(Some("engineer-vehicle"), &[("saw", "Power saw")]);
    let mut st = wire_game(card());
    let out = play(&mut st, "allies", CUT, &[1]);
    let t = texts(&out);
    assert!(first_result(&out).is_ok(), "{t}");
    assert!(t.contains("shooter cuts a gap (one die)"), "{t}");
    assert_eq!(fort(&st).barbed_wire, [sq("B8")], "{t}");
    assert_eq!(wire_faces(&out), [1], "{t}");
    for miss in [3, 5] {
        let mut st = wire_game(card());
        let out = play(&mut st, "allies", CUT, &[miss]);
        let t = texts(&out);
        assert!(
            t.contains("shooter fails to cut the barbed wire on D9"),
            "{t}"
        );
        assert_eq!(fort(&st).barbed_wire, [sq("D9"), sq("B8")], "{t}");
        assert_eq!(purposes(&out).len(), 1, "{t}");
    }
}

// 002 "Chainsaws and Claws": "(Vehicles with Paired Chainsaws or Paired Claws roll two dice)".
// (R809: a pair is two Cutting weapons on the card; two lines of one name are one weapon.) Two
// saws roll two dice: a shield and an army cut the wire, a target and a shield do not; two lines
// both named "Chainsaw" are one weapon and roll one die.
#[test]
fn s002_chainsaws_and_claws_paired_chainsaws_roll_two_dice() {
    let paired = || {
        cutter(
            Some("engineer-vehicle"),
            &[("saw-l", "Chainsaw (left)"), ("saw-r", "Chainsaw (right)")],
        )
    };
    let mut st = wire_game(paired());
    let out = play(&mut st, "allies", CUT, &[5, 1]);
    let t = texts(&out);
    assert!(t.contains("cuts a gap (two dice"), "{t}");
    assert_eq!(wire_faces(&out), [5, 1], "{t}");
    assert_eq!(fort(&st).barbed_wire, [sq("B8")], "{t}");
    let mut st = wire_game(paired());
    let out = play(&mut st, "allies", CUT, &[3, 6]);
    assert_eq!(
        fort(&st).barbed_wire,
        [sq("D9"), sq("B8")],
        "{}",
        texts(&out)
    );
    let one = cutter(
        Some("engineer-vehicle"),
        &[("saw-a", "Chainsaw"), ("saw-b", "Chainsaw")],
    );
    let mut st = wire_game(one);
    let out = play(&mut st, "allies", CUT, &[3]);
    assert_eq!(wire_faces(&out), [3], "{}", texts(&out));
}

// 002 "Chainsaws and Claws": "An Engineer Vehicle equipped with Cuttings or Grappling weapons can
// attempt to cut a gap through an adjacent Barbed Wire Entanglement" (R809, R785, R788). A saw on
// a vehicle without engineer equipment cuts nothing; an engineer vehicle without a Cutting or
// Grapple weapon neither; wire not next to the vehicle is refused;
// a vehicle with a dozer blade is an engineer vehicle and cuts with its saw. Nothing changes on a
// refusal.
#[test]
fn s002_chainsaws_and_claws_only_an_engineer_vehicle_with_a_cutting_weapon_next_to_the_wire() {
    let refused_with = |card: Card, order: &str| {
        let mut st = wire_game(card);
        let out = play(&mut st, "allies", order, &[]);
        assert_eq!(fort(&st).barbed_wire, [sq("D9"), sq("B8")]);
        assert!(!u(&st, "shooter").activated);
        first_result(&out).unwrap_err()
    };
    let e = refused_with(cutter(None, &[("saw", "Power saw")]), CUT);
    assert!(
        e.contains("without a dozer blade or engineer vehicle"),
        "{e}"
    );
    let e = refused_with(cutter(Some("engineer-vehicle"), &[]), CUT);
    assert!(
        e.contains("shooter cannot cut the barbed wire on D9: it has no Cutting or Grapple weapon"),
        "{e}"
    );
    assert!(e.contains("002 \"Chainsaws and Claws\""), "{e}");
    let far = "activate shooter\n  skill engineering at B8\n  nothing";
    let e = refused_with(
        cutter(Some("engineer-vehicle"), &[("saw", "Power saw")]),
        far,
    );
    assert!(e.contains("B8 is not next to shooter"), "{e}");
    let mut st = wire_game(cutter(Some("dozer-blade"), &[("saw", "Power saw")]));
    let out = play(&mut st, "allies", CUT, &[2]);
    assert_eq!(fort(&st).barbed_wire, [sq("B8")], "{}", texts(&out));
}

// 002 "Chainsaws and Claws" (R809): the orders template offers an engineer vehicle with a Cutting
// weapon `skill engineering at D9`, the wire next to it, and not B8; a vehicle without a Cutting
// weapon is offered neither. The provisional card games/dust-tactics/cards-battlefront-engineering/
// bf-saw-walker.toml (paired chainsaws) is read, and cuts with two dice.
#[test]
fn s002_chainsaws_and_claws_the_template_offers_it_and_the_saw_walker_card_cuts_with_two_dice() {
    let st = wire_game(cutter(Some("engineer-vehicle"), &[("saw", "Power saw")]));
    let t = dustmail::dust_tactics::view::orders_template(&st, "allies");
    assert!(t.contains("skill engineering at D9"), "{t}");
    assert!(!t.contains("skill engineering at B8"), "{t}");
    let st = wire_game(cutter(Some("engineer-vehicle"), &[]));
    let t = dustmail::dust_tactics::view::orders_template(&st, "allies");
    assert!(!t.contains("skill engineering at D9"), "{t}");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let f = "bf-saw-walker.toml";
    let text = std::fs::read_to_string(
        root.join("games/dust-tactics/cards-battlefront-engineering")
            .join(f),
    )
    .expect("card file");
    let card = dustmail::dust_tactics::cards::parse_card(f, &text).expect("the card is read");
    let mut st = wire_game(card);
    let out = play(&mut st, "allies", CUT, &[6, 2]);
    assert_eq!(wire_faces(&out), [6, 2], "{}", texts(&out));
    assert_eq!(fort(&st).barbed_wire, [sq("B8")], "{}", texts(&out));
}

/// A vehicle with Crew (`crew`) on E5 with `health` damage points left: its own range C `ram`
/// when `ram`, and three crew lines of range C `pistol1`..`pistol3`; the axis squad `foe` (a range
/// C `claw`) on E4 next to it; an allied spare squad keeps the turn from ending.
fn crew_game(ram: bool, health: u8) -> State {
    let mut c = with_skill(
        card("crewed", UnitType::Vehicle, 3, 1, vec![]),
        "crew",
        None,
    );
    if ram {
        c.weapons.push(weapon("ram", WeaponRange::Close, 1, 1));
    }
    for id in ["pistol1", "pistol2", "pistol3"] {
        let mut w = weapon(id, WeaponRange::Close, 1, 1);
        w.traits.push(WeaponTrait::Crew);
        c.weapons.push(w);
    }
    let mut claws = squad("sq");
    claws.weapons.push(weapon("claw", WeaponRange::Close, 1, 1));
    let mut st = game_under(
        "battlefront-2013",
        vec![
            unit("sp", "crewed", Some("E5")),
            unit("spare", "sq", Some("A9")),
        ],
        vec![unit("foe", "sq", Some("E4"))],
        vec![c, claws],
    );
    st.unit_mut("sp").expect("sp").health = health;
    st
}

/// The weapons `sp` retaliates with when `foe` attacks it in close combat (every die a shield:
/// nothing is hit).
fn retaliation(mut st: State) -> Vec<String> {
    let mut d = ScriptedDice::new(vec![5; 60]);
    let out = send(
        &mut st,
        "allies",
        "activate sp\n  nothing\n  nothing",
        &mut d,
    );
    accepted(&out);
    let out = send(
        &mut st,
        "axis",
        "activate foe\n  attack claw at sp\n  nothing",
        &mut d,
    );
    accepted(&out);
    let t = texts(&out);
    ["ram", "pistol1", "pistol2", "pistol3"]
        .into_iter()
        .filter(|w| {
            let said = format!("sp retaliates in close combat with {w}");
            t.lines().any(|l| l.trim_end().ends_with(&said))
        })
        .map(String::from)
        .collect()
}

// 002 "Crew": "A Vehicle with Crew may either attack with the vehicle's weapons or with the
// crew's weapons. If it uses the crew's weapons, it may use one weapon for each point of Damage
// remaining on its Damage Track. If engaged in Close Combat, the crew may use Standard Weapons
// (see pages 31 and 59) instead of the Vehicle's normal attack." (R810: the Standard Weapons are
// 003's improvised chart, lost, R275; the either-or stands.) Attacked in close combat, the
// vehicle retaliates with its own `ram` and not its crew's pistols; without a range C line of its
// own, its crew's pistols, one for each of its two damage points left; a game made before rules
// revision 10 keeps every range C line.
#[test]
fn s002_vehicle_equipment_crew_in_close_combat_the_vehicles_lines_or_the_crews_never_both() {
    assert_eq!(retaliation(crew_game(true, 3)), ["ram"]);
    assert_eq!(retaliation(crew_game(false, 2)), ["pistol1", "pistol2"]);
    let mut old = crew_game(true, 2);
    old.rules_revision = 9;
    assert_eq!(retaliation(old), ["ram", "pistol1", "pistol2", "pistol3"]);
}

/// The Command Vehicle game of R653's tests with a Hero Officer `boss` (armour 2) joined to the
/// command squad `cs`, mounted in `cv` on E6 (with `command-vehicle` when `command`); the squad's
/// officer and radioman are gone; `gren` (its grenade spent) five squares off on E1.
fn hero_officer_game(command: bool) -> State {
    let mut cv = carrier("cv", "carry-capacity", 6, 4);
    if command {
        cv = with_skill(cv, "command-vehicle", None);
    }
    let boss = with_skill(card("boss", UnitType::Hero, 3, 1, vec![]), "officer", None);
    let mut joined = unit("boss", "boss", None);
    joined.joins = Some("cs".into());
    let mut st = game_under(
        "battlefront-2013",
        vec![
            unit("cv", "cv", Some("E6")),
            aboard(unit("cs", "cs", None), "cv"),
            joined,
            unit("gren", "gr", Some("E1")),
        ],
        vec![unit("foe", "sq", Some("I1"))],
        vec![
            cv,
            command_squad_card("cs", 2),
            boss,
            grenadier_squad(),
            squad("sq"),
        ],
    );
    st.unit_mut("gren")
        .expect("gren")
        .ammo
        .insert("grenade".into(), 0);
    st.unit_mut("cs")
        .expect("cs")
        .models
        .retain(|m| m != "radioman" && m != "officer");
    st
}

const AMMO: &str = "activate cs\n  skill ammo-drop at gren\n  nothing";

// 002 "Command Vehicle": "a Command Vehicle provides any Command Squad mounted in it with an
// additional Radio Operator." 002 "Ammo Drop": "If the Officer has a Radio Operator, they can
// request an Ammo Drop for any Unit on the board." (R811: a Hero Officer joined to the Command
// Squad is its Officer.) The squad's own officer and radioman are gone; the hero `boss`, joined
// and mounted with it, refills `gren` five squares off in the Command Vehicle; in a plain carrier,
// or in a game made before rules revision 10, he has no radio and is refused (Range 2).
#[test]
fn s002_command_vehicle_a_hero_officer_joined_to_the_command_squad_has_its_radio_operator() {
    let mut st = hero_officer_game(true);
    assert_eq!(u(&st, "boss").aboard.as_deref(), Some("cv"));
    let out = play(&mut st, "allies", AMMO, &[1]);
    let t = texts(&out);
    assert!(t.contains("full ammunition again"), "{t}");
    assert_eq!(u(&st, "gren").ammo.get("grenade"), Some(&1), "{t}");
    let mut plain = hero_officer_game(false);
    let mut old = hero_officer_game(true);
    old.rules_revision = 9;
    for st in [&mut plain, &mut old] {
        let (reason, rule) = refused(&play(st, "allies", AMMO, &[]));
        assert!(reason.contains("no Radio Operator"), "{reason}");
        assert!(rule.contains("002 \"Ammo Drop\""), "{rule}");
        assert_eq!(u(st, "gren").ammo.get("grenade"), Some(&0));
    }
}
