//! Issue 18 (bflargerx): 003's reactive Move that rotates a two-square Large vehicle under
//! `battlefront-2013` (003 "Reactive Attacks"; ruling R819). Orders go through the real state
//! machine by mail with scripted dice; each test quotes the sentence it checks.

use super::battlefront_large2::large;
use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::facing::Facing;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Outcome, ScriptedDice};

/// A Large vehicle whose only gun (range 6) is front-mounted: it fires only within 45° either
/// side of its facing (003 "Check Field of Fire", R250), so its reaction needs the rotation.
fn tank() -> Card {
    let mut c = large("tank", 1);
    let mut guns = weapon("guns", WeaponRange::Upto(6), 1, 1);
    guns.traits = vec![WeaponTrait::FrontArc];
    c.weapons = vec![guns];
    c
}

/// The axis Large vehicle `tk` on E5 facing N (its rear E6) and a spare out of reach; the allies'
/// squad `ours` on `ours_at` with `blockers` (allied squads) on the squares given; the allies
/// activate first; the axis answer their reactive attacks by mail (`standing react any
/// <axis_react>`).
fn game(ours_at: &str, blockers: &[&str], axis_react: &str) -> State {
    let mut allies: Vec<UnitSpec> = vec![
        unit("ours", "sq", Some(ours_at)),
        unit("spare-a", "sq", Some("I9")),
    ];
    for (i, b) in blockers.iter().enumerate() {
        allies.push(unit(&format!("block{i}"), "sq", Some(b)));
    }
    let axis = vec![
        unit("tk", "tank", Some("E5")),
        unit("spare-x", "sq", Some("I1")),
    ];
    let mut st = DustTactics
        .start(
            "battlefront-2013",
            scenario(allies, axis),
            vec![tank(), squad("sq")],
        )
        .expect("setup");
    st.unit_mut("tk").expect("tk").facing = Some(Facing::N);
    begin(&mut st, "allies");
    for (side, react) in [("allies", "never"), ("axis", axis_react)] {
        accepted(&send(
            &mut st,
            side,
            &format!("standing react any {react}"),
            &mut ScriptedDice::new([]),
        ));
    }
    st
}

/// `ours` steps from `from` to `to` and attacks `tk`: the window opens after the step.
fn ours_moves(st: &mut State, to: &str) -> Outcome {
    let out = send(
        st,
        "allies",
        &format!("activate ours\n  move {to}\n  attack gun at tk"),
        &mut misses(&[]),
    );
    accepted(&out);
    out
}

/// Dice: `first`, then misses (target and shield symbols only).
fn misses(first: &[u8]) -> ScriptedDice {
    let rest = (0..200).map(|i| [3u8, 4, 5, 6][i % 4]);
    ScriptedDice::new(first.iter().copied().chain(rest).collect::<Vec<u8>>())
}

/// The square the view draws `tk`'s rear on (R772).
fn rear(st: &State) -> Option<String> {
    let v = dustmail::dust_tactics::view::view(st, Some("axis"));
    let units = v["units"].as_array().cloned().unwrap_or_default();
    let tk = units.iter().find(|u| u["id"] == "tk")?;
    tk["rear"].as_str().map(str::to_string)
}

/// The dice counts of the rolls whose purpose starts with `purpose`.
fn rolls(out: &Outcome, purpose: &str) -> Vec<usize> {
    (out.happenings.iter())
        .flat_map(|h| h.rolls.iter())
        .filter(|r| r.purpose.starts_with(purpose))
        .map(|r| r.faces.len())
        .collect()
}

// 003 "Reactive Attacks": "On a roll of [army][army], the unit succeeds and will activate for
// either a Sustained Attack action, or a Move action followed by an Attack action. The Move
// action can only be used to rotate the model, and a Large Vehicle may not end the move further
// away from the attacking unit than it started." R819: the IS-48-like `tk` on E5 facing N (rear
// E6) has its gun pointing away from the squad that stepped to B5, due west. `react tk turn` on
// two army symbols rotates it a quarter on its front: it faces W on E5, its rear swung to F5,
// no further from B5 (3 squares), and makes one Attack with the front gun.
#[test]
fn s003_reactive_attacks_a_large_vehicle_rotates_on_its_front_then_attacks_by_mail() {
    let mut st = game("A5", &[], "ask");
    ours_moves(&mut st, "B5");
    // The orders template offers the choice on the Large vehicle, and says how it rotates.
    let template = dustmail::dust_tactics::view::orders_template(&st, "axis");
    assert!(
        template.contains("#   react tk turn\n")
            && template.contains("rotates it on its two squares"),
        "{template}"
    );
    let out = send(&mut st, "axis", "react tk turn", &mut misses(&[1, 2]));
    accepted(&out);
    let t = texts(&out);
    assert!(
        t.contains("tk uses its two army symbols for a Move that only rotates it to face W towards ours, its squares now E5 and F5, then an Attack"),
        "{t}"
    );
    assert_eq!(u(&st, "tk").at, Some(sq("E5")));
    assert_eq!(u(&st, "tk").facing, Some(Facing::W));
    assert_eq!(rear(&st).as_deref(), Some("F5"));
    // One Attack with the front gun, no Sustained Attack's re-roll.
    assert_eq!(rolls(&out, "attack guns"), vec![1], "{t}");
    assert!(rolls(&out, "sustained").is_empty(), "{t}");
    assert!(u(&st, "tk").activated);
}

// 003 "Reactive Attacks" (as above), R819: a quarter turn pivots on the front, else on the rear.
// With an allied squad on F5 the rear cannot swing there; the front swings instead, from E5 to
// D6, the rear staying on E6: facing W it is 2 squares from B5, nearer than the 3 it started.
#[test]
fn s003_reactive_attacks_a_large_vehicle_rotates_on_its_rear_when_its_front_has_no_room() {
    let mut st = game("A5", &["F5"], "ask");
    ours_moves(&mut st, "B5");
    let out = send(&mut st, "axis", "react tk turn", &mut misses(&[1, 2]));
    accepted(&out);
    let t = texts(&out);
    assert!(t.contains("its squares now D6 and E6"), "{t}");
    assert_eq!(u(&st, "tk").at, Some(sq("D6")));
    assert_eq!(u(&st, "tk").facing, Some(Facing::W));
    assert_eq!(rear(&st).as_deref(), Some("E6"));
    assert_eq!(rolls(&out, "attack guns"), vec![1], "{t}");
}

// 003 "Reactive Attacks": "a Large Vehicle may not end the move further away from the attacking
// unit than it started." R819: the squad steps to B7; `tk` (E5 facing N, rear E6) is 3 squares
// from it by its rear. Facing W it would pivot on its front (rear to F5: 4 squares away, further)
// or on its rear (front to D6, where an allied squad stands). No rotation can be made:
// `react tk turn` is refused before any die is rolled, naming both reasons and the rule, and
// nothing changes; the template then shows `sustained` for it, which is accepted.
#[test]
fn s003_reactive_attacks_a_large_vehicle_with_no_room_to_rotate_is_refused_turn() {
    let mut st = game("A7", &["D6"], "ask");
    ours_moves(&mut st, "B7");
    let template = dustmail::dust_tactics::view::orders_template(&st, "axis");
    assert!(
        template.contains("#   react tk sustained\n") && !template.contains("react tk turn"),
        "{template}"
    );
    let mut dice = misses(&[1, 2]);
    let out = send(&mut st, "axis", "react tk turn", &mut dice);
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("tk is a Large vehicle on two squares and cannot rotate to face ours")
            && reason.contains("D6 is occupied by enemy unit block0")
            && reason.contains("facing W on E5 and F5 it would end 4 squares from ours, further than the 3 it started"),
        "{reason}"
    );
    assert!(
        rule.contains("003 \"Reactive Attacks\"") && rule.contains("R819"),
        "{rule}"
    );
    assert!(!u(&st, "tk").activated);
    assert_eq!(u(&st, "tk").facing, Some(Facing::N));
    assert!(
        awaited(&st)
            .iter()
            .any(|(s, d)| s == "axis" && d == "react"),
        "{:?}",
        awaited(&st)
    );
    let out = send(&mut st, "axis", "react tk sustained", &mut dice);
    accepted(&out);
    let t = texts(&out);
    assert!(
        t.contains("two army symbols, it makes a Sustained Attack"),
        "{t}"
    );
    assert_eq!(u(&st, "tk").at, Some(sq("E5")));
    assert_eq!(u(&st, "tk").facing, Some(Facing::N));
}

// 003 "Reactive Attacks" (as above), R819 with R255's referee: a plain `react tk` leaves the
// choice to the referee, who rotates the Large vehicle when that brings more weapon lines to
// bear (its front gun points away from B5); a standing `turn` with no room to rotate falls back
// on the Sustained Attack and the report says why.
#[test]
fn s003_reactive_attacks_a_large_vehicle_the_referee_rotates_it_or_says_why_not() {
    let mut st = game("A5", &[], "ask");
    ours_moves(&mut st, "B5");
    let out = send(&mut st, "axis", "react tk", &mut misses(&[1, 2]));
    accepted(&out);
    let t = texts(&out);
    assert!(t.contains("only rotates it to face W towards ours"), "{t}");
    assert_eq!(rolls(&out, "attack guns"), vec![1], "{t}");

    let mut st = game("A7", &["D6"], "auto");
    accepted(&send(
        &mut st,
        "axis",
        "standing react tk turn",
        &mut ScriptedDice::new([]),
    ));
    let out = send(
        &mut st,
        "allies",
        "activate ours\n  move B7\n  attack gun at tk",
        &mut misses(&[1, 2]),
    );
    accepted(&out);
    let t = texts(&out);
    assert!(
        t.contains("tk is a Large vehicle on two squares and cannot rotate to face ours")
            && t.contains("it makes the Sustained Attack"),
        "{t}"
    );
    assert_eq!(u(&st, "tk").facing, Some(Facing::N));
    assert_eq!(u(&st, "tk").at, Some(sq("E5")));
}

// R819 is rules revision 10: a battlefront-2013 game made before keeps R770, where a reacting
// Large vehicle with two army symbols always takes the Sustained Attack, and replays unchanged.
#[test]
fn s003_reactive_attacks_a_large_vehicle_of_a_game_made_before_revision_10_does_not_rotate() {
    let mut st = game("A5", &[], "ask");
    st.rules_revision = 9;
    ours_moves(&mut st, "B5");
    let out = send(&mut st, "axis", "react tk turn", &mut misses(&[1, 2]));
    accepted(&out);
    let t = texts(&out);
    assert!(!t.contains("rotates"), "{t}");
    assert_eq!(u(&st, "tk").facing, Some(Facing::N));
    assert_eq!(u(&st, "tk").at, Some(sq("E5")));
}
