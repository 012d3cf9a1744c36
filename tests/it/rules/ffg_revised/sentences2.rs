//! Issue 12 item 1, second batch: rulebook sentences the engine contradicted, one test per
//! sentence, quoting it with its seed and section (000 = core rules 2010, 004 = FFG revised rules
//! summary). Orders go through the real parser and state machine (`DustTactics::submit`).

use crate::support_flow;

use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, Outcome, ScriptedDice};
use support_flow::*;

/// The "fires" happenings of an outcome.
fn fired(out: &Outcome) -> Vec<String> {
    out.happenings
        .iter()
        .map(|h| h.text.clone())
        .filter(|t| t.contains("fires"))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// 004 "Flamethrowers": all units in spaces between the attacker and the target (ruling R151)
// ---------------------------------------------------------------------------------------------

/// The Hot Dog (Napalm Thrower, range 2) on E5; `allies` and `axis` units as (id, card, square).
fn hot_dog(allies: &[(&str, &str, &str)], axis: &[(&str, &str, &str)]) -> State {
    let mut a = vec![unit("hotdog", "m2b-hot-dog", Some("E5"))];
    a.extend(allies.iter().map(|(i, c, s)| unit(i, c, Some(s))));
    let x = axis.iter().map(|(i, c, s)| unit(i, c, Some(s))).collect();
    let mut st = start_defaults(scenario(a, x), real_cards());
    begin(&mut st, "allies");
    st
}

#[test]
fn flamethrower_004_damages_all_units_between_without_naming_them() {
    // Issue 12 item 1. 004 "Flamethrowers": "Flamethrowers that fire farther than 1 space
    // inflict damage on all units in spaces between the attacking unit and the target unit".
    // The Laser Grenadiers on E4 stand between the Hot Dog (E5) and the Luther (E3): they burn
    // although the order names no `through` square (ruling R151).
    let mut st = hot_dog(
        &[],
        &[
            ("luther", "luther", "E3"),
            ("lasers", "laser-grenadiers", "E4"),
        ],
    );
    let out = send(
        &mut st,
        "allies",
        "activate hotdog\nattack napalm at luther\nnothing",
        &mut Cycle(0),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let f = fired(&out);
    assert!(f.iter().any(|t| t.contains("at luther")), "{f:?}");
    assert!(f.iter().any(|t| t.contains("at lasers")), "{f:?}");
}

#[test]
fn flamethrower_004_even_spaces_occupied_by_friendly_units() {
    // Issue 12 item 1. 004 "Flamethrowers": "… between the attacking unit and the target
    // unit—even spaces occupied by friendly units." (ruling R151)
    let mut st = hot_dog(
        &[("rangers", "recon-rangers", "E4")],
        &[("luther", "luther", "E3")],
    );
    let out = send(
        &mut st,
        "allies",
        "activate hotdog\nattack napalm at luther\nnothing",
        &mut Cycle(0),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let f = fired(&out);
    assert!(f.iter().any(|t| t.contains("at luther")), "{f:?}");
    assert!(f.iter().any(|t| t.contains("at rangers")), "{f:?}");
}

#[test]
fn flamethrower_004_the_spray_is_confined_to_the_spaces_between() {
    // Issue 12 item 1. 004 "Flamethrowers": the damage falls on "spaces between the attacking
    // unit and the target unit"; "choose the spaces where the flames spread" chooses among
    // them (ruling R151). D5 is beside the Hot Dog, not between it and the Luther on E3.
    let mut st = hot_dog(
        &[],
        &[
            ("luther", "luther", "E3"),
            ("lasers", "laser-grenadiers", "D5"),
        ],
    );
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate hotdog\nattack napalm at luther through D5\nnothing",
        &mut ScriptedDice::new([]),
    );
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("D5 is not between E5 and the target on E3"),
        "{e}"
    );
    assert!(e.contains("004 'Flamethrower"), "{e}");
    assert_eq!(st, before, "a refused activation changes nothing");
    // The unit aimed at alone: nothing between, nobody else burns.
    let out = send(
        &mut st,
        "allies",
        "activate hotdog\nattack napalm at luther\nnothing",
        &mut Cycle(0),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let f = fired(&out);
    assert!(!f.iter().any(|t| t.contains("at lasers")), "{f:?}");
}

// ---------------------------------------------------------------------------------------------
// 004 "During the first round, units must enter the battlefield" (ruling R152, reviewing R52)
// ---------------------------------------------------------------------------------------------

/// Round 1, allies to act: a1 off the board, `placed` allied squads on the given squares.
fn entering(placed: &[&str]) -> State {
    let mut allies = vec![unit("a1", "sq", None)];
    for (i, s) in placed.iter().enumerate() {
        allies.push(unit(&format!("p{i}"), "sq", Some(s)));
    }
    let s = scenario(allies, vec![unit("x1", "sq", Some("E1"))]);
    let mut st = start_defaults(s, vec![squad("sq")]);
    begin(&mut st, "allies");
    st
}

#[test]
fn first_round_004_units_must_enter_the_battlefield() {
    // Issue 12 item 1. 004: "During the first round, units must enter the battlefield: their
    // first action on the battlefield is always a one space move." (000: "During the first
    // round, the units must enter the gameboard.") Staying off is refused (ruling R152).
    let mut st = entering(&[]);
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate a1\nnothing\nnothing",
        &mut ScriptedDice::new([]),
    );
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("a1 must enter the battlefield during the first round"),
        "{e}"
    );
    assert!(e.contains("004 'During the first round'"), "{e}");
    assert_eq!(st, before, "a refused activation changes nothing");
    let out = send(
        &mut st,
        "allies",
        "activate a1\nmove C9\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "a1").at, Some(sq("C9")));
}

#[test]
fn first_round_004_the_default_activation_enters_the_battlefield() {
    // Issue 12 item 1. 004: "During the first round, units must enter the battlefield": when
    // the deadline passes, the default activation of a unit off the board enters it on the
    // first free square of its entry zone, then does nothing (ruling R152). A9 is taken.
    let mut st = entering(&["A9"]);
    let out = DustTactics.default_for(&mut st, "allies", &mut Cycle(0));
    let acts: Vec<&str> = out
        .happenings
        .iter()
        .map(|h| h.text.as_str())
        .filter(|t| t.contains("activates"))
        .collect();
    assert!(
        acts.iter().any(|t| t.contains("activates a1: enter at B9")),
        "{acts:?}"
    );
    assert_eq!(u(&st, "a1").at, Some(sq("B9")));
}

#[test]
fn first_round_004_a_unit_with_no_free_entry_square_waits_r52() {
    // Issue 12 item 1, ruling R152 reviewing R52: a unit "must enter" only when it can; with
    // every square of its entry zone taken it may wait off the board (R52 lets it enter later).
    let row: Vec<String> = "ABCDEFGHI".chars().map(|c| format!("{c}9")).collect();
    let row: Vec<&str> = row.iter().map(String::as_str).collect();
    let mut st = entering(&row);
    let out = send(
        &mut st,
        "allies",
        "activate a1\nnothing\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "a1").at, None);
}

// ---------------------------------------------------------------------------------------------
// 000/004 "Limited ammo weapons": comrades pick up the weapon (ruling R153)
// ---------------------------------------------------------------------------------------------

#[test]
fn limited_ammo_000_comrades_pick_up_the_weapon_when_its_carrier_falls() {
    // Issue 12 item 1. 000 "Limited ammo weapons": "Limited ammo weapons belong to the whole
    // unit. Whenever a squad member equipped with such a weapon is eliminated, his comrades pick
    // up the weapon automatically." 004 "Limited Ammo Weapons": "Any soldier in the squad may
    // use them even if he is the only surviving member and the miniature is not carrying the
    // limited-ammo weapon." (ruling R153)
    let mut pf = weapon("pf", WeaponRange::Upto(3), 1, 1);
    pf.ammo = Some(2);
    let mut c = card(
        "team",
        UnitType::Squad,
        3,
        1,
        vec![weapon("rifle", WeaponRange::Upto(4), 1, 1), pf],
    );
    c.models = ["m1", "m2", "m3"]
        .iter()
        .map(|m| ModelSpec {
            id: m.to_string(),
            carries: if *m == "m1" {
                vec!["pf".into()]
            } else {
                vec!["rifle".into()]
            },
        })
        .collect();
    let s = scenario(
        vec![unit("a1", "team", Some("E5"))],
        vec![unit("foe", "sq", Some("E3"))],
    );
    let mut st = start_defaults(s, vec![c, squad("sq")]);
    begin(&mut st, "allies");
    // The panzerfaust's only carrier has fallen.
    st.unit_mut("a1").unwrap().models.retain(|m| m != "m1");
    let out = send(
        &mut st,
        "allies",
        "activate a1\nattack pf at foe\nnothing",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let f = fired(&out);
    assert!(
        f.iter().any(|t| t.contains("pf") && t.contains("at foe")),
        "{f:?}"
    );
    assert_eq!(u(&st, "a1").ammo.get("pf"), Some(&1), "one box is used");
}

// ---------------------------------------------------------------------------------------------
// Rules revisions: a game made before a ruling keeps the rules it started with
// ---------------------------------------------------------------------------------------------

#[test]
fn a_game_made_under_rules_revision_0_keeps_r52_in_the_first_round() {
    // R152 came with rules revision 1 (src/games/dust_tactics/rules.rs RULES_REVISION). A game
    // whose `created` line records no revision (made before) keeps R52: its units may stay off
    // the board in round 1 and the default does nothing, so its ledger replays as recorded.
    let mut st = entering(&["A9"]);
    st.rules_revision = 0;
    let mut stay = st.clone();
    let out = send(
        &mut stay,
        "allies",
        "activate a1\nnothing\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&stay, "a1").at, None);
    DustTactics.default_for(&mut st, "allies", &mut Cycle(0));
    assert_eq!(
        u(&st, "a1").at,
        None,
        "revision 0's default is NOTHING, NOTHING"
    );
    // The same game under revision 1 must enter.
    let mut st = entering(&["A9"]);
    assert!(st.rules_revision >= 1);
    let out = send(
        &mut st,
        "allies",
        "activate a1\nnothing\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_err(), "{out:?}");
}

// ---------------------------------------------------------------------------------------------
// R58 reviewed (issue 12 item 1): the default casualties keep the special weapon (ruling R154)
// ---------------------------------------------------------------------------------------------

/// Recon Rangers (E7) fire their HMG at Battle Grenadiers (E3); `Cycle(0)` rolls 1, 2, 3: two
/// hits, two damage, casualties by default. The grenadiers' model 5 carries the Panzerschreck.
fn grenadiers_after_two_hits(revision: u32) -> Vec<String> {
    let mut st = start_defaults(
        scenario(
            vec![unit("rangers", "recon-rangers", Some("E7"))],
            vec![unit("grenadiers", "battle-grenadiers", Some("E3"))],
        ),
        real_cards(),
    );
    st.rules_revision = revision;
    begin(&mut st, "allies");
    let out = send(
        &mut st,
        "allies",
        "activate rangers\nattack hmg at grenadiers\nnothing",
        &mut Cycle(0),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    u(&st, "grenadiers").models.clone()
}

#[test]
fn casualties_r154_the_default_keeps_the_special_weapon_carrier() {
    // Issue 12 item 1: "R58's default casualty order removes the special-weapon carrier first on
    // every core-box squad (each rifle line lists all four models as carriers), against R58's own
    // aim" ("the default keeps the unit's firepower"). R154 (rules revision 2): a special weapon
    // is a line fewer models carry than the unit's most carried line, so the four rifle carriers
    // fall first, last listed first, and model 5 keeps the Panzerschreck.
    assert_eq!(grenadiers_after_two_hits(2), vec!["1", "2", "5"]);
    // A game made before revision 2 keeps R58 as it was applied: model 5 falls first.
    assert_eq!(grenadiers_after_two_hits(1), vec!["1", "2", "3"]);
}
