//! Issue 18: 002 "Fortifications", "Bunkers and Strongpoints" under battlefront-2013: the
//! strongpoint (R718–R722; bunkers: battlefront_bunkers2.rs). Each test names 002's section and quotes its
//! sentence. A strongpoint is listed by its two inside squares.

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::fortifications::Fortifications;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;

fn one(id: &str, ty: UnitType, w: WeaponLine) -> Card {
    card(id, ty, 1, 2, vec![w])
}

fn gun() -> WeaponLine {
    weapon("gun", WeaponRange::Upto(4), 1, 1)
}

/// Allies `shooter` (`ours`) on `from`; axis `target` (`ty`, one soldier or one point) on E2;
/// a strongpoint on E2+F2 when `fort`.
fn setup(ours: Card, from: &str, ty: UnitType, fort: bool) -> Result<State, String> {
    let mut s = scenario(
        vec![unit("shooter", &ours.id, Some(from))],
        vec![unit("target", "t", Some("E2"))],
    );
    if fort {
        s.fortifications = Some(Fortifications {
            strongpoints: vec![[sq("E2"), sq("F2")]],
            ..Default::default()
        });
    }
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![ours, one("t", ty, gun())])
        .map_err(|e| e.0)?;
    for side in ["allies", "axis"] {
        dustmail::dust_tactics::flow::standing_react(&mut st, side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    Ok(st)
}

fn game(fort: bool) -> State {
    setup(
        one("gunner", UnitType::Squad, gun()),
        "E5",
        UnitType::Squad,
        fort,
    )
    .expect("setup")
}

const SHOOT: &str = "activate shooter\n  attack gun at target\n  nothing";

// 002 "Cover From Bunkers and Strongpoints": "Units in Strongpoints that fail an Infantry or
// Cover Save also re-roll the Save, but only cancel the Hit if the re-roll scores [army]." One
// hit (army) on a soldier: in the strongpoint it is in Cover (R685) and its Cover Save fails
// (target); the re-roll shows army and cancels the hit. In the open the Infantry Save (shield)
// fails and the soldier dies.
#[test]
fn s002_cover_from_strongpoints_a_failed_save_is_rerolled_and_cancels_on_army() {
    let mut st = game(true);
    let out = play(&mut st, "allies", SHOOT, &[1, 3, 2]);
    let t = texts(&out);
    assert_eq!(
        purposes(&out),
        [
            "attack gun",
            "infantry cover save vs gun",
            "strongpoint re-roll vs gun"
        ],
        "{t}"
    );
    assert!(t.contains("1 cancelled by the strongpoint re-roll"), "{t}");
    assert!(!u(&st, "target").destroyed, "{t}");
    let mut st = game(false);
    let out = play(&mut st, "allies", SHOOT, &[1, 5]);
    assert!(u(&st, "target").destroyed, "{}", texts(&out));
}

// 002 "Cover From Bunkers and Strongpoints": "... but only cancel the Hit if the re-roll scores
// [army]" (the bunker's "[army] or [shield]" is not the strongpoint's): a re-roll showing a
// target or a shield leaves the hit, and the soldier dies.
#[test]
fn s002_cover_from_strongpoints_the_reroll_cancels_only_on_army() {
    for reroll in [3, 5] {
        let mut st = game(true);
        // The Cover Save (R685) fails on a target.
        let out = play(&mut st, "allies", SHOOT, &[1, 3, reroll]);
        let t = texts(&out);
        assert!(t.contains("0 cancelled by the strongpoint re-roll"), "{t}");
        assert!(u(&st, "target").destroyed, "{t}");
    }
    // A passed save needs no re-roll: army saves, no third die is rolled.
    let mut st = game(true);
    let out = play(&mut st, "allies", SHOOT, &[1, 1]);
    assert!(!purposes(&out).iter().any(|r| r.starts_with("strongpoint")));
    assert!(!u(&st, "target").destroyed, "{}", texts(&out));
}

// 002 "Close-combat Against Bunkers and Strongpoints": "Units in a Bunker or Strongpoint get a
// Save against Close-Combat weapons attacking from outside the fortification. ... Units in
// Strongpoints cancel Hits from Close-Combat weapons on a roll of [army]." (003 gives no save
// against a close-combat hit.) A claw from E3: one hit (army), the save's army cancels it; in
// the open the same hit kills.
#[test]
fn s002_close_combat_against_strongpoints_units_inside_save_on_army() {
    let claw = || {
        one(
            "clawer",
            UnitType::Squad,
            weapon("claw", WeaponRange::Close, 1, 1),
        )
    };
    let order = "activate shooter\n  attack claw at target\n  nothing";
    let mut st = setup(claw(), "E3", UnitType::Squad, true).expect("setup");
    let out = play(&mut st, "allies", order, &[1, 2]);
    let t = texts(&out);
    assert!(
        purposes(&out).contains(&"strongpoint save vs claw".to_string()),
        "{t}"
    );
    assert!(t.contains("1 cancelled by strongpoint save"), "{t}");
    assert!(!u(&st, "target").destroyed, "{t}");
    let mut st = setup(claw(), "E3", UnitType::Squad, false).expect("setup");
    let out = play(&mut st, "allies", order, &[1]);
    assert!(u(&st, "target").destroyed, "{}", texts(&out));
}

// 002 "Movement Through Bunkers and Strongpoints": "Strongpoint walls are normal Terrain and can
// be crossed to enter or exit the Strongpoint. Only Infantry Units may be placed in, enter or
// exit a Bunker or Strongpoint." A squad steps into the strongpoint's free square F2; a vehicle
// is refused, the refusal naming the sentence, and stays where it was.
#[test]
fn s002_only_infantry_may_enter_a_strongpoint() {
    let order = "activate shooter\n  move F2\n  nothing";
    let mut st = game(true);
    st.unit_mut("shooter").unwrap().at = Some(sq("F3"));
    let out = play(&mut st, "allies", order, &[]);
    assert_eq!(first_result(&out).map(|_| ()), Ok(()), "{}", texts(&out));
    assert_eq!(u(&st, "shooter").at, Some(sq("F2")));
    let walker = one("walker", UnitType::Vehicle, gun());
    let mut st = setup(walker, "F3", UnitType::Squad, true).expect("setup");
    let out = play(&mut st, "allies", order, &[]);
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("inside a strongpoint") && e.contains("Only Infantry Units may be placed in"),
        "{e}"
    );
    assert_eq!(u(&st, "shooter").at, Some(sq("F3")));
}

// 002 "Movement Through Bunkers and Strongpoints": "Only Infantry Units may be placed in ... a
// Bunker or Strongpoint": a vehicle deployed on a strongpoint's square is refused at `new`.
#[test]
fn s002_only_infantry_may_be_placed_in_a_strongpoint() {
    let e = setup(
        one("gunner", UnitType::Squad, gun()),
        "E5",
        UnitType::Vehicle,
        true,
    )
    .unwrap_err();
    assert!(
        e.contains("target is a vehicle deployed on E2, inside a strongpoint"),
        "{e}"
    );
}

// 002 "Deploying Fortifications": "Infantry must be able to enter a Bunker or Strongpoint, so it
// must be at least one square in Dust Tactics ... from all table edges and Impassable terrain,
// and two squares in Dust Tactics ... from other Bunkers and Strongpoints." and "Bunkers and
// Strongpoints": "treated as having two squares inside them". A battlefront-2013 scenario lists
// each strongpoint's two inside squares; the errors name the field and what to write.
#[test]
fn s002_strongpoints_in_the_scenario_file() {
    let text = scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "supply-drop")
        .expect("shipped")
        .1;
    let with = |t: &str| {
        text.replace(
            "[reserves]",
            &format!("[fortifications]\nstrongpoints = [{t}]\n\n[reserves]"),
        )
    };
    let s = scenario::parse("sd", &with("[\"H3\", \"G3\"]")).expect("strongpoint");
    let at = |q: &str| s.board.parse_square(q).unwrap();
    assert_eq!(
        s.fortifications.as_ref().unwrap().strongpoints,
        [[at("G3"), at("H3")]]
    );
    let err = |t: &str| scenario::parse("sd", &with(t)).unwrap_err().to_string();
    let e = err("[\"G3\", \"H4\"]");
    assert!(
        e.contains("fortifications.strongpoints[0]") && e.contains("side by side"),
        "{e}"
    );
    let e = err("[\"A5\", \"B5\"]");
    assert!(e.contains("at least one square"), "{e}");
    let e = err("[\"G3\", \"H3\"], [\"I5\", \"J5\"]");
    assert!(
        e.contains("fortifications.strongpoints[1]")
            && e.contains("other Bunkers and Strongpoints"),
        "{e}"
    );
    let e = scenario::parse(
        "sd",
        &with("[\"G3\", \"H3\"]").replace(
            "rulesets = [\"battlefront-2013\"]",
            "rulesets = [\"ffg-revised\"]",
        ),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("add rulesets = [\"battlefront-2013\"]"), "{e}");
}

// 002 "Fortifications": "some scenarios give players Fortifications for free". The shipped
// `strongpoint` scenario (003's Encounter with a strongpoint on D2+E2) is played to its end by
// signed mail; its welcome mail lists the strongpoint; replay and audit pass.
#[test]
fn s002_fortifications_the_strongpoint_scenario_is_played_to_its_end_by_signed_mail() {
    let (flat, st) =
        crate::rules::battlefront_scenarios::play_by_mail("strongpoint", ["allies", "axis"], 70);
    assert!(
        flat.contains("Strongpoints (002 \"Bunkers and Strongpoints\"): D2+E2."),
        "the briefing does not list the strongpoint"
    );
    assert_eq!(
        st.scenario.fortifications.as_ref().unwrap().strongpoints,
        [[sq("D2"), sq("E2")]]
    );
}
