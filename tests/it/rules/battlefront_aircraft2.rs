//! Issue 18 (battlefront-2013, seed 002): 002's aircraft skills beyond Air Pilot (R804). Ace Air
//! Pilot (R805) rolls the Ace Pilot's die (R608) for the aircraft its hero pilots. Each test is
//! named after the section, quotes its sentence, and drives the engine with scripted dice.

use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
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
    for side in ["allies", "axis"] {
        let out = send(
            &mut st,
            side,
            "standing react any never",
            &mut ScriptedDice::new([]),
        );
        accepted(&out);
    }
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
