//! Issue 18 under battlefront-2013: Ace Pilot (003 "Ace Pilot", 002 "Ace Pilot") and 003
//! "Reacting to Extra Actions" (ruling R608). Each test is named after the section, quotes its
//! sentence, and drives the engine with scripted dice.

use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::ScriptedDice;

/// Under battlefront-2013: the allied walker `walk` on E5 (Vehicle 3, Move 1, a cannon of one
/// die) piloted by the hero `ace` (Ace Pilot); axis squads `theirs` on E2 (four squares off)
/// and `spare-x` on I1; axis reacts as `axis_react` says; allies activate first.
fn game(axis_react: &str) -> State {
    let mut hero = unit("ace", "hero", None);
    hero.joins = Some("walk".into());
    let s = scenario(
        vec![unit("walk", "walker", Some("E5")), hero],
        vec![
            unit("theirs", "sq", Some("E2")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let cards = vec![
        with_skill(
            card(
                "hero",
                UnitType::Hero,
                3,
                2,
                vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
            ),
            "ace-pilot",
            None,
        ),
        card(
            "walker",
            UnitType::Vehicle,
            2,
            1,
            vec![weapon("cannon", WeaponRange::Upto(6), 1, 1)],
        ),
        squad("sq"),
    ];
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    for (side, o) in [
        ("allies", "standing react any never".to_string()),
        ("axis", format!("standing react any {axis_react}")),
    ] {
        accepted(&send(&mut st, side, &o, &mut ScriptedDice::new([])));
    }
    begin(&mut st, "allies");
    st
}

// issue 18 item 2: 003 "Ace Pilot": "A Hero with the Ace Pilot skill rolls one die when a Vehicle
// or Aircraft that they are piloting activates"; 002 "Ace Pilot": "On a [army] or [target] the
// Vehicle gains a third Action for this Activation." A target gives the walker its third
// action (the ordered `move`); a shield does not, and the third line is not made (R608).
#[test]
fn ace_pilot_a_third_action_on_army_or_target() {
    let order = "activate walk\n  nothing\n  nothing\n  move E6";
    let mut st = game("never");
    let mut d = ScriptedDice::new([3]);
    let out = send(&mut st, "allies", order, &mut d);
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert!(
        texts(&out).contains("Ace Pilot: ace rolls target: walk has three actions"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "walk").at, Some(sq("E6")));
    let mut st = game("never");
    let mut d = ScriptedDice::new([5]);
    let out = send(&mut st, "allies", order, &mut d);
    accepted(&out);
    assert!(
        texts(&out).contains("Ace Pilot: ace rolls shield: no third action"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "walk").at, Some(sq("E5")));
}

// issue 18 item 2: 003 "Reacting to Extra Actions": "Some special rules allow units to perform
// three actions when they activate. If a unit makes a Reactive Attack against such a unit, the
// Reactive Attack will occur immediately before the last action of the three." With its third
// action the walker does nothing, moves, and only then is the axis squad asked whether it
// reacts, before the attack; without it, the squad is asked after the first action, as usual
// (R608).
#[test]
fn reacting_to_extra_actions_the_reaction_comes_before_the_last_of_three() {
    let order = "activate walk\n  nothing\n  move E6\n  attack cannon at theirs";
    // The Ace Pilot's army: three actions.
    let mut st = game("ask");
    let mut d = ScriptedDice::new([1]);
    let out = send(&mut st, "allies", order, &mut d);
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(awaited(&st), vec![("axis".into(), "react".into())]);
    assert_eq!(u(&st, "walk").at, Some(sq("E6")), "asked before the attack");
    // The Ace Pilot's shield: two actions, the reaction after the first.
    let mut st = game("ask");
    let mut d = ScriptedDice::new([5]);
    let out = send(&mut st, "allies", order, &mut d);
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(awaited(&st), vec![("axis".into(), "react".into())]);
    assert_eq!(
        u(&st, "walk").at,
        Some(sq("E5")),
        "asked after the first action"
    );
}

// issue 18 item 2: 002 "Ace Pilot": "the Vehicle gains a third Action for this Activation": one
// action, so a `sustained` line (two actions) after a complete activation is refused, citing
// 002, and changes nothing (R608).
#[test]
fn ace_pilot_the_third_action_is_one_action() {
    let mut st = game("never");
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate walk\n  nothing\n  nothing\n  sustained cannon at theirs",
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("SUSTAINED ATTACK takes two"), "{reason}");
    assert!(rule.contains("002 \"Ace Pilot\""), "{rule}");
    assert!(st == before, "the refusal changed the game");
}
