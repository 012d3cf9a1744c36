//! Issue 18: 002's skill Strongpoint under battlefront-2013 (R728). Each test names 002's
//! section and quotes its sentence.

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::fortifications::Fortifications;
use dustmail::dust_tactics::battlefront::reserves::{Allowance, Reserves};
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use std::collections::BTreeMap;

fn gun() -> WeaponLine {
    weapon("gun", WeaponRange::Upto(6), 1, 1)
}

/// A one-soldier infantry squad (or `ty`) with the skill Strongpoint.
fn phaser(ty: UnitType) -> Card {
    with_skill(card("phaser", ty, 1, 1, vec![gun()]), "strongpoint", None)
}

/// Allies `phaser` (`card`) on `at`, `mover` (a squad) on F5; axis `target` on E1; a
/// strongpoint on E4+F4; reserves of two units a side when `reserves`.
fn setup(card: Card, at: Option<&str>, reserves: bool) -> Result<State, String> {
    let mut s = scenario(
        vec![
            unit("phaser", "phaser", at),
            unit("mover", "sq", Some("F5")),
        ],
        vec![unit("target", "sq", Some("E1"))],
    );
    s.fortifications = Some(Fortifications {
        strongpoints: vec![[sq("E4"), sq("F4")]],
        ..Default::default()
    });
    if reserves {
        s.reserves = Some(Reserves {
            allowance: Allowance::Units(2),
            entry: BTreeMap::new(),
        });
    }
    let sq_card = super::super::support_flow::card("sq", UnitType::Squad, 1, 1, vec![gun()]);
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![card, sq_card])
        .map_err(|e| e.0)?;
    for side in ["allies", "axis"] {
        dustmail::dust_tactics::flow::standing_react(&mut st, side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    Ok(st)
}

// 002 "Strongpoint": "A Strongpoint Unit must be deployed in a Strongpoint or Bunker."; 002
// "Fortifications": "Strongpoint Units ... are Infantry Units that must be deployed in a Bunker
// or Strongpoint. These Units must be placed at the start of the game". A card with the skill is
// read; a unit of it placed in the strongpoint starts; placed outside, entering later, or a
// vehicle, the game is refused at `new` naming the unit and the sentence.
#[test]
fn s002_strongpoint_a_strongpoint_unit_must_be_deployed_in_a_strongpoint() {
    assert!(setup(phaser(UnitType::Squad), Some("E4"), false).is_ok());
    for at in [Some("E6"), None] {
        let e = setup(phaser(UnitType::Squad), at, false).unwrap_err();
        assert!(
            e.contains("phaser (card phaser) has the skill Strongpoint")
                && e.contains("must be deployed in a Strongpoint or Bunker"),
            "{e}"
        );
    }
    let e = setup(phaser(UnitType::Vehicle), Some("E4"), false).unwrap_err();
    assert!(e.contains("are Infantry Units"), "{e}");
}

// 002 "Bunkers and Strongpoints": "A Strongpoint Unit (such as the M47 Field Phaser) occupies
// both squares." Another unit's move into the strongpoint's other square is refused, naming the
// sentence; the Strongpoint unit itself moves within it.
#[test]
fn s002_strongpoint_a_strongpoint_unit_occupies_both_squares() {
    let mut st = setup(phaser(UnitType::Squad), Some("E4"), false).expect("setup");
    let out = play(
        &mut st,
        "allies",
        "activate mover\n  move F4\n  nothing",
        &[],
    );
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("F4 is inside a strongpoint a Strongpoint unit holds")
            && e.contains("occupies both squares"),
        "{e}"
    );
    assert_eq!(u(&st, "mover").at, Some(sq("F5")));
    let out = play(
        &mut st,
        "allies",
        "activate phaser\n  move F4\n  nothing",
        &[],
    );
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    assert_eq!(u(&st, "phaser").at, Some(sq("F4")));
}

// 002 "Fortifications": Strongpoint Units "must be placed at the start of the game and cannot be
// held in Reserve." Under a scenario with reserves (003 §12), an eliminated Strongpoint unit
// stays eliminated; the report says why.
#[test]
fn s002_strongpoint_a_strongpoint_unit_cannot_be_held_in_reserve() {
    let mut st = setup(phaser(UnitType::Squad), Some("E4"), true).expect("setup");
    play(
        &mut st,
        "allies",
        "activate phaser\n  nothing\n  nothing",
        &[],
    );
    st.unit_mut("target").expect("target").at = Some(sq("E6"));
    let out = play(
        &mut st,
        "axis",
        "activate target\n  attack gun at phaser\n  nothing",
        // A hit; the Cover Save (R685) and the strongpoint re-roll fail on targets.
        &[1, 3, 3],
    );
    let t = texts(&out);
    assert!(
        t.contains("phaser is a Strongpoint unit and never goes into reserve"),
        "{t}"
    );
    assert!(u(&st, "phaser").destroyed);
}
