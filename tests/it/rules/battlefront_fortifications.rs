//! Issue 18: 002 "Fortifications", "Trenches" as scenario terrain under battlefront-2013
//! (R295). Each test names 002's section and quotes its sentence.

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::fortifications::Fortifications;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::ScriptedDice;

fn one(id: &str, ty: UnitType) -> Card {
    card(
        id,
        ty,
        1,
        1,
        vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
    )
}

/// Allies `shooter` (one soldier) on E5; axis `target` (`ty`) on E2; trenches on `trenches`.
fn game(ty: UnitType, trenches: &[&str]) -> State {
    let mut s = scenario(
        vec![unit("shooter", "gunner", Some("E5"))],
        vec![unit("target", "t", Some("E2"))],
    );
    s.fortifications = Some(Fortifications {
        trenches: trenches.iter().map(|t| sq(t)).collect(),
        ..Default::default()
    });
    let mut st = DustTactics
        .start(
            "battlefront-2013",
            s,
            vec![one("gunner", UnitType::Squad), one("t", ty)],
        )
        .expect("setup");
    for side in ["allies", "axis"] {
        dustmail::dust_tactics::flow::standing_react(&mut st, side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// The shooter fires once at the target: `dice` scripted exactly.
fn shoot(st: &mut State, dice: Vec<u8>) -> String {
    let mut d = ScriptedDice::new(dice);
    let out = send(
        st,
        "allies",
        "activate shooter\n  attack gun at target\n  nothing",
        &mut d,
    );
    assert_eq!(first_result(&out).map(|_| ()), Ok(()), "{}", texts(&out));
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    texts(&out)
}

// 002 "Trenches": "Trenches are Terrain that provides infantry with cover in otherwise open
// areas. Being below ground, Trenches have no effect on Line of Sight. Infantry Units in
// Trenches are in Cover and gain Cover Saves." One hit (army symbol) on a soldier seen whole:
// in a trench the Cover Save cancels it on a shield; in the open only the Infantry Save (army)
// is left, and the same shield fails. The trenches on E3 and E4 in between block nothing.
#[test]
fn s002_trenches_infantry_in_a_trench_are_in_cover_and_sight_passes_over_them() {
    let mut st = game(UnitType::Squad, &["E2", "E3", "E4"]);
    let t = shoot(&mut st, vec![1, 5]);
    assert!(t.contains("1 cancelled by infantry cover save"), "{t}");
    assert!(!u(&st, "target").destroyed, "{t}");
    let mut st = game(UnitType::Squad, &["E3", "E4"]);
    let t = shoot(&mut st, vec![1, 5]);
    assert!(t.contains("target is destroyed"), "{t}");
}

// 002 "Trenches": "Infantry Units in Trenches are in Cover" — infantry only: a vehicle in a
// trench in the open has no save (003 "Roll Saves"), so its hit is marked without a save die.
#[test]
fn s002_trenches_give_a_vehicle_no_cover() {
    let mut st = game(UnitType::Vehicle, &["E2"]);
    let t = shoot(&mut st, vec![1]);
    assert!(!t.contains("cancelled"), "{t}");
    assert!(u(&st, "target").destroyed, "{t}");
}

// 002 "Trenches" lie "in otherwise open areas"; they are 002's rule, so only a battlefront-2013
// scenario may list them. The errors name the field and what to write.
#[test]
fn s002_trenches_in_the_scenario_file() {
    let text = scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "supply-drop")
        .expect("shipped")
        .1;
    let with = |t: &str| {
        text.replace(
            "[reserves]",
            &format!("[fortifications]\ntrenches = [{t}]\n\n[reserves]"),
        )
    };
    let s = scenario::parse("sd", &with("\"D4\", \"H9\"")).expect("trenches");
    let at = |q: &str| s.board.parse_square(q).unwrap();
    assert_eq!(
        s.fortifications.as_ref().unwrap().trenches,
        [at("D4"), at("H9")]
    );
    // C2 is a structure.
    let e = scenario::parse("sd", &with("\"C2\""))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("fortifications.trenches") && e.contains("in otherwise open areas"),
        "{e}"
    );
    let e = scenario::parse(
        "sd",
        &with("\"D4\"").replace(
            "rulesets = [\"battlefront-2013\"]",
            "rulesets = [\"ffg-revised\"]",
        ),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("add rulesets = [\"battlefront-2013\"]"), "{e}");
}
