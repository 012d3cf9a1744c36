//! Issue 18: 002 "Grapple Weapons" and the claws of "Chainsaws and Claws" under battlefront-2013
//! (seed 002, lines ~492–506; rulings R809, R812–R814). Each test quotes 002 and plays the claw
//! through the engine with scripted dice (faces 1–2 army, 3–4 target, 5–6 shield).

use super::battlefront_bunkers2::vehicle;
use super::battlefront_misc10::{wire_faces, wire_game, CUT};
use super::battlefront_skills::accepted_all;
use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};

/// A Grapple line of range C, 1 die of 1 damage (the provisional Kampfzange claw).
fn claw(id: &str, name: &str) -> WeaponLine {
    WeaponLine {
        name: name.into(),
        traits: vec![WeaponTrait::Grapple],
        ..weapon(id, WeaponRange::Close, 1, 1)
    }
}

/// A battlefront-2013 game: the axis Luther (`luther`, a walker of 3 damage points with the
/// claw `kampfzange`) on E6 next to the allied Pounder (`pounder`, 3 damage points, a gun of
/// range 6) on E7; the allied `gun` (the same card) on H6; spares far off so the round goes on;
/// nobody reacts, the axis activate first.
fn game(luther_health: u8) -> State {
    let luther = card(
        "luther",
        UnitType::Vehicle,
        luther_health,
        2,
        vec![claw("kampfzange", "Kampfzange")],
    );
    let pounder = card(
        "pounder",
        UnitType::Vehicle,
        3,
        2,
        vec![weapon("gun", WeaponRange::Upto(6), 1, 1)],
    );
    let s = scenario(
        vec![
            unit("pounder", "pounder", Some("E7")),
            unit("gun", "pounder", Some("H6")),
            unit("spare-a", "sq", Some("A9")),
        ],
        vec![
            unit("luther", "luther", Some("E6")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![luther, pounder, squad("sq")])
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "axis");
    st
}

/// The Luther's activation `attack kampfzange at pounder` then `second`; the report.
fn grab(st: &mut State, second: &str, faces: &[u8]) -> String {
    let order = format!("activate luther\n  attack kampfzange at pounder\n  {second}");
    let out = play(st, "axis", &order, faces);
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    t
}

// issue 18, 002 "Grapple Weapons" example: "The Luther attacks a Pounder in Close Combat scoring
// a hit with its Kampfzange claw. As the claw is a Grapple weapon, it now has a grip on the
// Allied walker. When the Pounder activates, its first action must be a Nothing Action as it
// struggles to free itself." (R812, R813.) The claw's army: a hit and a Stunned token, the grip
// recorded; the Luther's own Nothing does not let go. The Pounder's `move` first is refused and
// changes nothing; its Nothing removes the token and ends the grip, then it moves.
#[test]
fn s002_grapple_weapons_luther_example_the_gripped_pounder_must_take_a_nothing_action_first() {
    let mut st = game(3);
    let t = grab(&mut st, "nothing", &[1]);
    assert!(
        t.contains(
            "luther's Grapple weapon Kampfzange has a grip on pounder: it receives a Stunned token"
        ),
        "{t}"
    );
    assert!(!t.contains("lets go"), "{t}");
    assert!(u(&st, "pounder").stunned, "{t}");
    assert_eq!(st.grips.get("pounder").map(String::as_str), Some("luther"));
    let out = play(
        &mut st,
        "allies",
        "activate pounder\n  move E8\n  nothing",
        &[],
    );
    assert!(!accepted_all(&out), "{}", texts(&out));
    assert_eq!(u(&st, "pounder").at, Some(sq("E7")));
    // Its damage point gave it an Under Fire token (R703): its removal roll, army and shield.
    let out = play(
        &mut st,
        "allies",
        "activate pounder\n  nothing\n  move E8",
        &[1, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(
        t.contains("pounder takes a Nothing action and removes its Stunned token"),
        "{t}"
    );
    let p = u(&st, "pounder");
    assert_eq!((p.at, p.stunned), (Some(sq("E8")), false), "{t}");
    assert!(st.grips.is_empty(), "{:?}", st.grips);
}

// issue 18, 002 "Grapple Weapons": "Remove the Stunned token if the Unit with the Grapple weapon
// takes an Action other than a Nothing Action." Example: "If the Luther moves or activates again
// before the Pounder, it would have to let it go and try to grab it again." (R813.) The claw
// grips, then the Luther moves away in the same activation: it lets go, the Pounder is free and
// activates with a move first. A claw that misses (shield) grips nothing.
#[test]
fn s002_grapple_weapons_the_grappler_moving_lets_go_and_a_miss_grips_nothing() {
    let mut st = game(3);
    let t = grab(&mut st, "move E4", &[2]);
    assert!(t.contains("has a grip on pounder"), "{t}");
    assert!(
        t.contains("luther lets go of pounder as it takes an action other than Nothing: pounder's Stunned token is removed"),
        "{t}"
    );
    assert_eq!(u(&st, "luther").at, Some(sq("E4")), "{t}");
    assert!(!u(&st, "pounder").stunned, "{t}");
    assert!(st.grips.is_empty(), "{:?}", st.grips);
    let out = play(
        &mut st,
        "allies",
        "activate pounder\n  move E8\n  nothing",
        &[1, 5],
    );
    assert!(accepted_all(&out), "{}", texts(&out));
    let mut st = game(3);
    let t = grab(&mut st, "nothing", &[5]);
    assert!(!t.contains("grip"), "{t}");
    assert!(!u(&st, "pounder").stunned && st.grips.is_empty(), "{t}");
}

// issue 18, 002 "Grapple Weapons": "Power claws and pincers grab targets, preventing them from
// moving or shooting while the target struggles to free themselves." (R814: an eliminated
// grappler holds nothing; its victim's Stunned token is removed with the grip.) The claw grips;
// the allied gun destroys the Luther (1 damage point) with an army: the Pounder is let go and may
// move at once.
#[test]
fn s002_grapple_weapons_an_eliminated_grappler_lets_go() {
    let mut st = game(1);
    let t = grab(&mut st, "nothing", &[1]);
    assert!(t.contains("has a grip on pounder"), "{t}");
    let out = play(
        &mut st,
        "allies",
        "activate gun\n  attack gun at luther\n  nothing",
        &[1],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(u(&st, "luther").destroyed, "{t}");
    assert!(
        t.contains(
            "luther lets go of pounder as it is eliminated: pounder's Stunned token is removed"
        ),
        "{t}"
    );
    assert!(!u(&st, "pounder").stunned && st.grips.is_empty(), "{t}");
}

// issue 18, 002 "Chainsaws and Claws": "An Engineer Vehicle equipped with Cuttings or Grappling
// weapons can attempt to cut a gap through an adjacent Barbed Wire Entanglement by taking an
// Engineering Special Action. If it does so, roll a die (Vehicles with Paired Chainsaws or Paired
// Claws roll two dice)" (R809: a pair is two Grapple lines of different names, as two saws.) One
// claw: one die, army cuts the wire on D9. Paired claws: two dice, a shield and an army cut it.
#[test]
fn s002_chainsaws_and_claws_an_engineer_vehicle_with_claws_cuts_wire_two_dice_with_a_pair() {
    let clawed = |claws: &[(&str, &str)]| {
        let mut c = vehicle(Some("engineer-vehicle"));
        c.weapons.extend(claws.iter().map(|(id, n)| claw(id, n)));
        c
    };
    let mut st = wire_game(clawed(&[("claw", "Claw")]));
    let out = play(&mut st, "allies", CUT, &[1]);
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("shooter cuts a gap (one die)"), "{t}");
    assert_eq!(wire_faces(&out), [1], "{t}");
    let paired = clawed(&[("claw-l", "Claw (left)"), ("claw-r", "Claw (right)")]);
    let mut st = wire_game(paired);
    let out = play(&mut st, "allies", CUT, &[5, 2]);
    let t = texts(&out);
    assert!(t.contains("cuts a gap (two dice"), "{t}");
    assert_eq!(wire_faces(&out), [5, 2], "{t}");
}
