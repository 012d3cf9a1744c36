//! Issue 18: what R722 left out of 002's strongpoints under battlefront-2013, and the boards of
//! all 002's fortifications (R727): sight blocked across a strongpoint, the Special Actions
//! restriction, and the text board and picture drawing strongpoints, barbed wire and
//! minefields. Each test names 002's section and quotes its sentence.

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::fortifications::Fortifications;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;

fn gun() -> WeaponLine {
    weapon("gun", WeaponRange::Upto(6), 1, 1)
}

/// Allies `shooter` (a one-soldier squad) on `from`, and `extra` units; axis `target` (one
/// soldier) on `target`; a strongpoint on E4+F4 when `fort`.
fn game(from: &str, target: &str, fort: bool, extra: Vec<UnitSpec>, cards: Vec<Card>) -> State {
    let mut allies = vec![unit("shooter", "gunner", Some(from))];
    allies.extend(extra);
    let mut s = scenario(allies, vec![unit("target", "gunner", Some(target))]);
    if fort {
        s.fortifications = Some(Fortifications {
            strongpoints: vec![[sq("E4"), sq("F4")]],
            ..Default::default()
        });
    }
    let mut all = vec![card("gunner", UnitType::Squad, 1, 1, vec![gun()])];
    all.extend(cards);
    let mut st = DustTactics
        .start("battlefront-2013", s, all)
        .expect("setup");
    for side in ["allies", "axis"] {
        dustmail::dust_tactics::flow::standing_react(&mut st, side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

const SHOOT: &str = "activate shooter\n  attack gun at target\n  nothing";

// 002 "Line of Sight To Bunkers and Strongpoints": "Bunkers and Strongpoints are Terrain and block
// Line of Sight." A line from E6 to E2 crosses the empty strongpoint on E4+F4: no line of sight,
// the attack is refused naming the strongpoint. Without the strongpoint the same attack is made.
#[test]
fn s002_line_of_sight_to_strongpoints_they_block_sight_across_them() {
    let mut st = game("E6", "E2", true, vec![], vec![]);
    let out = play(&mut st, "allies", SHOOT, &[]);
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("no line of sight") && e.contains("the strongpoint on E4"),
        "{e}"
    );
    let mut st = game("E6", "E2", false, vec![], vec![]);
    let out = play(&mut st, "allies", SHOOT, &[5]);
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    // A game made before rules revision 8 saw across it, and replays unchanged (R727).
    let mut st = game("E6", "E2", true, vec![], vec![]);
    st.rules_revision = 7;
    let out = play(&mut st, "allies", SHOOT, &[5]);
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
}

// 002 "Line of Sight To Bunkers and Strongpoints": "Units in Strongpoints can see and be seen
// from any direction." A unit inside (on E4) shoots out across its own strongpoint's other
// square (F4) at G4, and is shot at from outside.
#[test]
fn s002_line_of_sight_to_strongpoints_units_inside_see_and_are_seen_from_any_direction() {
    let mut st = game("E4", "H4", true, vec![], vec![]);
    let out = play(&mut st, "allies", SHOOT, &[5]);
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    let mut st = game("E6", "E4", true, vec![], vec![]);
    let out = play(&mut st, "allies", SHOOT, &[5]);
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
}

// 002 "Special Actions in Bunkers and Strongpoints": "A Unit inside a Bunker or Strongpoint
// cannot use Special Actions that require the target Unit to be within Range 1 if the target Unit
// is outside the Bunker or Strongpoint." Tank Head's Makeshift Repair (a vehicle within Range 1)
// from inside the strongpoint is refused; from outside, next to the same vehicle, it is made.
#[test]
fn s002_special_actions_in_strongpoints_none_at_range_1_to_a_unit_outside() {
    let head = with_skill(
        card("head", UnitType::Hero, 3, 1, vec![gun()]),
        "tank-head",
        None,
    );
    let walker = card("walker", UnitType::Vehicle, 4, 1, vec![gun()]);
    let order = "activate head\n  skill tank-head at walker\n  nothing";
    let units = |at: &str| {
        vec![
            unit("head", "head", Some(at)),
            unit("walker", "walker", Some("F5")),
        ]
    };
    let mut st = game(
        "A9",
        "A1",
        true,
        units("F4"),
        vec![head.clone(), walker.clone()],
    );
    let out = play(&mut st, "allies", order, &[]);
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("inside the strongpoint on F4")
            && e.contains("Special Actions in Bunkers and Strongpoints"),
        "{e}"
    );
    let mut st = game("A9", "A1", true, units("G5"), vec![head, walker]);
    st.unit_mut("walker").expect("walker").health = 3;
    let out = play(&mut st, "allies", order, &[1, 5, 5, 5, 5]);
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    assert_eq!(u(&st, "walker").health, 4);
}

/// The SVG board picture of the game as a spectator's report draws it.
fn svg(st: &State) -> String {
    let view = dustmail::dust_tactics::view::view(st, None);
    let pic = dustmail::dust_tactics::present::picture(&view, None, &[]).expect("a picture");
    dustmail::dust_tactics::picture::svg(&pic)
}

// 002 "Fortifications": "Fortifications are Terrain features placed by the players at the start
// of the game." (R727) The picture draws each strongpoint, barbed wire and minefield square and
// its legend names them; the text board marks free squares `^`, `&` and `!` and says so. Cut
// wire is no longer drawn.
#[test]
fn s002_fortifications_are_drawn_on_the_board_picture_and_the_text_board() {
    let mut s = scenario(
        vec![unit("ours", "sq", Some("E7"))],
        vec![unit("theirs", "sq", Some("E1"))],
    );
    s.fortifications = Some(Fortifications {
        strongpoints: vec![[sq("E4"), sq("F4")]],
        barbed_wire: vec![sq("C6")],
        minefields: vec![sq("G6")],
        ..Default::default()
    });
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![squad("sq")])
        .expect("setup");
    let pic = svg(&st);
    for (class, at) in [
        ("strongpoint", "E4"),
        ("barbed-wire", "C6"),
        ("minefield", "G6"),
    ] {
        assert!(
            pic.contains(&format!(r#"class="{class}" data-square="{at}""#)),
            "{class}: {pic}"
        );
    }
    for name in ["strongpoint", "barbed wire", "minefield"] {
        assert!(pic.contains(&format!(">{name}</text>")), "legend {name}");
    }
    let text = dustmail::dust_tactics::view::board_text(&st);
    for legend in ["^ strongpoint", "& barbed wire", "! minefield"] {
        assert!(text.contains(legend), "{text}");
    }
    let row = |n: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(&format!("{n} ")))
            .expect("row")
            .to_string()
    };
    assert!(row("4").contains(" ^  ^ "), "{}", row("4"));
    assert!(
        row("6").contains(" & ") && row("6").contains(" ! "),
        "{}",
        row("6")
    );
    st.scenario
        .fortifications
        .as_mut()
        .expect("fortifications")
        .barbed_wire
        .clear();
    assert!(!svg(&st).contains("barbed-wire"));
}
