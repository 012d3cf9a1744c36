//! Issue 18 (battlefront-2013, seed 002): 002's aircraft skills beyond Air Pilot (R804). Ace Air
//! Pilot (R805) rolls the Ace Pilot's die (R608) for the aircraft its hero pilots. Each test is
//! named after the section, quotes its sentence, and drives the engine with scripted dice.

use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::orders::Action;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::ScriptedDice;

use super::aircraft_004::{aircraft, tank};

/// Under battlefront-2013: the allied `a1` of card `vehicle` on E1 piloted by the hero `h1`
/// whose card has `skills`; an axis squad far off on I9; nobody reacts; allies activate first.
fn piloted(vehicle: Card, skills: &[&str]) -> State {
    let mut hero = card(
        "ace",
        UnitType::Hero,
        3,
        1,
        vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
    );
    for s in skills {
        hero = with_skill(hero, s, None);
    }
    let pilot: dustmail::dust_tactics::scenario::UnitSpec =
        serde_json::from_value(serde_json::json!({ "id": "h1", "card": "ace", "joins": "a1" }))
            .expect("unit spec");
    let s = scenario(
        vec![unit("a1", &vehicle.id, Some("E1")), pilot],
        vec![unit("x1", "sq", Some("I9"))],
    );
    let cards = vec![vehicle, hero, squad("sq")];
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    never_react(&mut st);
    begin(&mut st, "allies");
    st
}

const THREE_MOVES: &str = "activate a1\n  move E2\n  move E3\n  move E4";

// R805, 002 "Ace Air Pilot": "Roll a die when the Aircraft that they are piloting Activates. On
// a [army] or [target] the Aircraft gains a third Action for this Activation." The hero `h1`
// (Ace Air Pilot) pilots the aircraft `a1`, which is ordered three moves: on a target (face 3)
// or an army (face 1) it makes all three and ends on E4, the report naming the skill; on a
// shield (face 5) the third is not made and it ends on E3.
#[test]
fn battlefront_aircraft2_002_ace_air_pilot_a_third_action_on_army_or_target() {
    for (face, symbol) in [(3u8, "target"), (1, "army")] {
        let mut st = piloted(aircraft("hawk", &[]), &["ace-air-pilot"]);
        let mut d = ScriptedDice::new([face]);
        let out = send(&mut st, "allies", THREE_MOVES, &mut d);
        accepted(&out);
        assert_eq!(d.remaining(), 0);
        assert!(
            texts(&out).contains(&format!(
                "Ace Air Pilot: h1 rolls {symbol}: a1 has three actions this activation (002 \"Ace Air Pilot\")"
            )),
            "{}",
            texts(&out)
        );
        assert_eq!(u(&st, "a1").at, Some(sq("E4")), "{}", texts(&out));
        assert_eq!(st.pilot_of("a1").map(|h| h.id.as_str()), Some("h1"));
    }
    let mut st = piloted(aircraft("hawk", &[]), &["ace-air-pilot"]);
    let mut d = ScriptedDice::new([5]);
    let out = send(&mut st, "allies", THREE_MOVES, &mut d);
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert!(
        texts(&out).contains("Ace Air Pilot: h1 rolls shield: no third action"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "a1").at, Some(sq("E3")), "{}", texts(&out));
}

// R805 with R804: the die is the Ace Air Pilot's alone. An Air Pilot hero's aircraft rolls no
// die and does not make a third action.
#[test]
fn battlefront_aircraft2_002_an_air_pilot_rolls_no_ace_die() {
    let mut st = piloted(aircraft("hawk", &[]), &["air-pilot"]);
    let mut d = ScriptedDice::new([3]);
    let out = send(&mut st, "allies", THREE_MOVES, &mut d);
    assert!(!texts(&out).contains("Ace"), "{}", texts(&out));
    assert_eq!(d.remaining(), 1, "no die was rolled");
    assert_ne!(u(&st, "a1").at, Some(sq("E4")));
}

// R805, 002 "Piloting Vehicles and Aircraft": "A Hero with the Air Pilot or Ace Air Pilot Skill
// (see page 96) can pilot an Aircraft." and "A Hero with the Ace Air Pilot Skill can pilot an
// Aircraft": Koshka given Ace Air Pilot instead of Pilot begins the game piloting Grand'ma made
// an aircraft (`new` accepts it); she may not pilot the ground Grand'ma (only "A Hero with the
// Pilot or Ace Pilot Skill ... can pilot a Vehicle"): `new` refuses and no game is made.
#[test]
fn battlefront_aircraft2_002_ace_air_pilot_pilots_an_aircraft_not_a_vehicle() {
    use super::battlefront_aircraft::koshka_in_grandma;
    let (code, out, made) = koshka_in_grandma("armour = { aircraft = 2 }", "ace-air-pilot");
    assert_eq!(code, Some(0), "{out}");
    assert!(made, "{out}");
    assert!(out.contains("): piloting grandma"), "{out}");
    let (code, out, made) = koshka_in_grandma("armour = { vehicle = 4 }", "ace-air-pilot");
    assert_ne!(code, Some(0), "{out}");
    assert!(out.contains("cannot pilot"), "{out}");
    assert!(!made, "{out}");
}

// R805: the die is for "the Aircraft that they are piloting", so a ground vehicle gets none: a
// hero with Ace Air Pilot and Pilot (which lets him into the tank) rolls no die for the tank.
#[test]
fn battlefront_aircraft2_002_ace_air_pilot_rolls_no_die_for_a_ground_vehicle() {
    let mut st = piloted(tank("tank", &[]), &["ace-air-pilot", "pilot"]);
    let mut d = ScriptedDice::new([3]);
    let out = send(&mut st, "allies", THREE_MOVES, &mut d);
    assert!(!texts(&out).contains("Ace"), "{}", texts(&out));
    assert_eq!(d.remaining(), 1, "no die was rolled");
    assert_ne!(u(&st, "a1").at, Some(sq("E4")));
}

/// The allied aircraft `a1` (card `hawk` with `skills`) on E1, an axis squad on E3 in its
/// rockets' range; nobody reacts; allies activate first; `a1` is ordered `actions`.
fn helicopter_fires(skills: &[&str], actions: Vec<Action>) -> (State, dustmail::game::Outcome) {
    let s = scenario(
        vec![unit("a1", "hawk", Some("E1"))],
        vec![unit("x1", "sq", Some("E3"))],
    );
    let mut st = DustTactics
        .start(
            "battlefront-2013",
            s,
            vec![aircraft("hawk", skills), squad("sq")],
        )
        .expect("setup");
    never_react(&mut st);
    begin(&mut st, "allies");
    let out = cmd(&mut st, "allies", activate("a1", actions), &mut plenty());
    (st, out)
}

// R806, 002 "Helicopter": "Unlike other Aircraft, a Helicopter does not have to take a Move
// Action as its first Action (see pages 20 and 43), allowing it to take Sustained Attack
// Actions." An aircraft with `helicopter` makes a Sustained Attack, and an Attack then a Move,
// without moving first; the same aircraft without it is refused both, citing 003 "Aircraft Must
// Move", and stays on E1.
#[test]
fn battlefront_aircraft2_002_a_helicopter_need_not_move_first() {
    let orders = || {
        [
            vec![sustained("rockets", "x1")],
            vec![attack("rockets", "x1"), mv("E2")],
        ]
    };
    for actions in orders() {
        let (_, out) = helicopter_fires(&["helicopter"], actions);
        accepted(&out);
        assert!(texts(&out).contains("rockets"), "{}", texts(&out));
    }
    for actions in orders() {
        let (st, out) = helicopter_fires(&[], actions);
        let (_, rule) = refused(&out);
        assert!(rule.contains("003 'Aircraft Must Move'"), "{rule}");
        assert_eq!(u(&st, "a1").at, Some(sq("E1")));
    }
}

// R806: 002 lists Helicopter under "Vehicle Equipment" and words it of "Aircraft": a card
// carrying `helicopter` without aircraft armour is refused when read, saying what to write; the
// same card made an aircraft is read.
#[test]
fn battlefront_aircraft2_002_helicopter_is_an_aircrafts_equipment() {
    use dustmail::dust_tactics::cards::parse_card;
    let (f, t) =
        super::battlefront_skills002::card_with("bf-pounder", "[[skills]]\nname = \"helicopter\"");
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.field.ends_with(".name"), "{e}");
    assert!(e.reason.contains("Helicopter to an aircraft"), "{e}");
    assert!(e.instead.contains("aircraft = N"), "{e}");
    let t = t.replace("armour = { vehicle = 4 }", "armour = { aircraft = 2 }");
    assert!(parse_card(&f, &t).is_ok());
}
