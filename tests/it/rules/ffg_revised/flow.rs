//! Rules case table for the Dust Tactics state machine (ruleset ffg-revised: seed 004, with 000
//! where 004 is silent). One test per rule sentence, named after the section.

use crate::support_flow;

use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::orders::{Action, Command, FireOrder, TargetRef};
use dustmail::dust_tactics::scenario::Objective;
use dustmail::dust_tactics::state::Phase;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Game, ScriptedDice};
use support_flow::*;

/// Allies squad `a1` at E5, axis squad `x1` at E2 (3 squares away, in gun range 4).
fn duel() -> dustmail::dust_tactics::state::State {
    let s = scenario(
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "sq", Some("E2"))],
    );
    start(s, vec![squad("sq")])
}

// ---------------------------------------------------------------------------------------------
// 004 "Game round": initiative
// ---------------------------------------------------------------------------------------------

#[test]
fn initiative_004_most_hits_chooses_who_goes_first() {
    // 004 "Initiative": each side rolls 3 dice; the most hits chooses who plays first.
    let mut st = duel();
    assert_eq!(st.phase, Phase::Initiative);
    let mut d = ScriptedDice::new([5, 5, 6, 1, 2, 6]);
    let out = DustTactics.default_for(&mut st, "allies", &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!(
        out.happenings[0].rolls.len(),
        2,
        "one roll of 3 dice per side"
    );
    assert_eq!(out.happenings[0].rolls[0].faces.len(), 3);
    assert_eq!(awaited(&st), vec![("axis".into(), "first".into())]);
}

#[test]
fn initiative_004_ties_are_rerolled() {
    // 004 "Initiative": ties re-roll.
    let mut st = duel();
    let mut d = ScriptedDice::new([1, 5, 5, 2, 6, 6, /* re-roll */ 5, 5, 5, 1, 5, 5]);
    let out = DustTactics.default_for(&mut st, "allies", &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!(out.happenings[0].rolls.len(), 4, "two rounds of rolls");
    assert!(
        out.happenings[0].text.contains("tie, re-roll"),
        "{}",
        out.happenings[0].text
    );
    assert_eq!(awaited(&st), vec![("axis".into(), "first".into())]);
}

#[test]
fn black_ops_004_adds_one_initiative_die_not_stacking() {
    // 004 "Black Ops": "Roll one extra die during each initiative roll. This bonus does not
    // stack with multiple units."
    let hero = with_skill(card("bo", UnitType::Hero, 3, 1, vec![]), "black-ops", None);
    let s = scenario(
        vec![unit("h1", "bo", Some("A5")), unit("h2", "bo", Some("B5"))],
        vec![unit("x1", "sq", Some("E2"))],
    );
    let mut st = start(s, vec![squad("sq"), hero]);
    let mut d = ScriptedDice::new([5, 5, 5, 1, /* axis */ 5, 5, 5]);
    let out = DustTactics.default_for(&mut st, "axis", &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!(
        out.happenings[0].rolls[0].faces.len(),
        4,
        "allies roll 4 dice, not 5"
    );
    assert_eq!(out.happenings[0].rolls[1].faces.len(), 3);
    assert_eq!(st.initiative.as_deref(), Some("allies"));
}

#[test]
fn black_ops_000_lost_when_the_hero_is_eliminated() {
    // 000 "Black Ops": the bonus is lost once the hero is eliminated.
    let hero = with_skill(card("bo", UnitType::Hero, 3, 1, vec![]), "black-ops", None);
    let s = scenario(
        vec![unit("h1", "bo", Some("A5")), unit("a1", "sq", Some("B5"))],
        vec![unit("x1", "sq", Some("E2"))],
    );
    let mut st = start(s, vec![squad("sq"), hero]);
    st.unit_mut("h1").unwrap().destroyed = true;
    st.unit_mut("h1").unwrap().at = None;
    let mut d = ScriptedDice::new([5, 5, 1, 5, 5, 5]);
    let out = DustTactics.default_for(&mut st, "axis", &mut d);
    assert_eq!(out.happenings[0].rolls[0].faces.len(), 3);
    assert_eq!(d.remaining(), 0);
}

#[test]
fn initiative_004_only_the_winner_chooses_first() {
    // 004 "Initiative": the side with most hits chooses which side plays first.
    let mut st = duel();
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 5]);
    let out = cmd(
        &mut st,
        "axis",
        Command::First {
            side: "axis".into(),
        },
        &mut d,
    );
    // Stated before the roll (R50), axis's choice is moot once allies win: it chooses nothing.
    assert!(texts(&out).contains("allies wins"));
    assert_eq!(awaited(&st), vec![("allies".into(), "first".into())]);
    // After the roll, axis choosing is refused.
    let out = cmd(
        &mut st,
        "axis",
        Command::First {
            side: "axis".into(),
        },
        &mut d,
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("allies won the initiative"), "{reason}");
    assert!(rule.contains("Initiative"));
    let out = cmd(
        &mut st,
        "allies",
        Command::First {
            side: "axis".into(),
        },
        &mut d,
    );
    accepted(&out);
    assert_eq!(awaited(&st), vec![("axis".into(), "activate".into())]);
}

#[test]
fn initiative_default_the_winner_goes_first() {
    // Default for `first` (R59): the winner activates first.
    let mut st = duel();
    let mut d = ScriptedDice::new([5, 5, 5, 2, 5, 5]);
    DustTactics.default_for(&mut st, "allies", &mut d);
    // Axis's default covers everything awaited from it: `first axis`, then x1 does NOTHING.
    DustTactics.default_for(&mut st, "axis", &mut d);
    assert!(u(&st, "x1").activated);
    assert_eq!(awaited(&st), vec![("allies".into(), "activate".into())]);
}

// ---------------------------------------------------------------------------------------------
// 004 "Game round": alternating activations
// ---------------------------------------------------------------------------------------------

#[test]
fn activations_004_alternate_and_a_side_with_none_left_is_skipped() {
    // 004 "Game round": players alternate; a side whose units have all acted is skipped.
    let s = scenario(
        vec![unit("a1", "sq", Some("A5"))],
        vec![unit("x1", "sq", Some("E2")), unit("x2", "sq", Some("G2"))],
    );
    let mut st = start(s, vec![squad("sq")]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![nothing(), nothing()]),
        &mut d,
    ));
    assert_eq!(awaited(&st), vec![("axis".into(), "activate".into())]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![nothing(), nothing()]),
        &mut d,
    );
    assert!(refused(&out).0.contains("axis's turn"));
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut d,
    ));
    // Allies have nothing left: axis activates again.
    assert_eq!(awaited(&st), vec![("axis".into(), "activate".into())]);
    // The last activation ends round 1 and rolls round 2's initiative.
    let mut d = ScriptedDice::new([5, 5, 5, 1, 5, 5]);
    let out = cmd(
        &mut st,
        "axis",
        activate("x2", vec![nothing(), nothing()]),
        &mut d,
    );
    assert_eq!(out.rounds_ended, vec![1]);
    assert_eq!(st.round, 2);
    assert_eq!(awaited(&st), vec![("axis".into(), "first".into())]);
    assert!(
        !u(&st, "a1").activated,
        "cards are refreshed for the new round"
    );
}

#[test]
fn activation_004_a_unit_acts_once_per_round() {
    // 004 "Game round": an activated unit cannot act again this round.
    let s = scenario(
        vec![unit("a1", "sq", Some("A5")), unit("a2", "sq", Some("B5"))],
        vec![unit("x1", "sq", Some("E2")), unit("x2", "sq", Some("G2"))],
    );
    let mut st = start(s, vec![squad("sq")]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![nothing(), nothing()]),
        &mut d,
    ));
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut d,
    ));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![nothing(), nothing()]),
        &mut d,
    );
    assert!(refused(&out).0.contains("already activated"));
    let out = cmd(
        &mut st,
        "allies",
        activate("x2", vec![nothing(), nothing()]),
        &mut d,
    );
    assert!(refused(&out).0.contains("not your unit"));
}

// ---------------------------------------------------------------------------------------------
// 004 "During the first round": entering (ruling 2)
// ---------------------------------------------------------------------------------------------

#[test]
fn entering_004_first_action_is_a_move_onto_the_entry_zone_then_the_second_is_free() {
    // 004 "During the first round" + ruling 2: the entering move places the unit on its entry
    // zone and ends that action; the second action may be another MOVE (000 Hot Dog example).
    let s = scenario(
        vec![unit("a1", "sq", None)],
        vec![unit("x1", "sq", Some("E2"))],
    );
    let mut st = start(s, vec![squad("sq")]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E5"), nothing()]),
        &mut d,
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("not in allies's entry zone"), "{reason}");
    assert_eq!(u(&st, "a1").at, None);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E9"), mv("E8")]),
        &mut d,
    );
    accepted(&out);
    // The enemy is 6 squares away from E9/E8: no reactive window, so the moves complete.
    assert_eq!(u(&st, "a1").at, Some(sq("E8")));
}

#[test]
fn entering_004_no_sustained_attack_and_the_move_comes_first() {
    // 004 "During the first round": a unit entering cannot use options that need no move.
    let s = scenario(
        vec![unit("a1", "sq", None)],
        vec![unit("x1", "sq", Some("E6"))],
    );
    let mut st = start(s, vec![squad("sq")]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![sustained("gun", "x1")]),
        &mut d,
    );
    assert!(
        refused(&out).0.contains("not on the battlefield"),
        "{:?}",
        out
    );
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("gun", "x1"), mv("E9")]),
        &mut d,
    );
    assert!(refused(&out).0.contains("not on the battlefield"));
    // But it may attack a target in range with its second action (000 Ludwig example).
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E9"), attack("gun", "x1")]),
        &mut d,
    );
    accepted(&out);
    // Window after the entering move: axis may react with x1.
    assert_eq!(awaited(&st), vec![("axis".into(), "react".into())]);
}

// ---------------------------------------------------------------------------------------------
// 004 "Actions"
// ---------------------------------------------------------------------------------------------

#[test]
fn actions_004_two_actions_or_one_sustained_attack() {
    // 004 "Actions": each activation is two actions, or a SUSTAINED ATTACK that takes both.
    let mut st = duel();
    begin(&mut st, "allies");
    let before = serde_json::to_string(&st).unwrap();
    let mut d = ScriptedDice::new([]);
    for actions in [
        vec![nothing()],
        vec![nothing(), nothing(), nothing()],
        vec![sustained("gun", "x1"), nothing()],
    ] {
        let out = cmd(&mut st, "allies", activate("a1", actions), &mut d);
        let (reason, rule) = refused(&out);
        assert!(rule.contains("004 'Actions'"), "{reason} / {rule}");
    }
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("gun", "x1"), attack("gun", "x1")]),
        &mut d,
    );
    assert!(refused(&out).0.contains("SUSTAINED"));
    assert_eq!(serde_json::to_string(&st).unwrap(), before);
}

#[test]
fn actions_004_one_action_alone_is_refused_with_how_to_complete_it() {
    // 004 "Actions": an activation is two actions. A player who sends one action line alone
    // (e.g. the template's `move` line uncommented by itself) is told to add the second action
    // (issue 16 item 4: a suggestion that points at the right fix), not a generic example.
    let mut st = duel();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    let out = cmd(&mut st, "allies", activate("a1", vec![mv("E6")]), &mut d);
    match &out.results[0].outcome {
        CommandOutcome::Refused {
            reason, instead, ..
        } => {
            assert!(reason.starts_with("1 action is declared ("), "{reason}");
            assert_eq!(
                instead,
                "the line you sent and a second action line after it, e.g. `nothing`"
            );
        }
        o => panic!("expected a refusal, got {o:?}"),
    }
}

#[test]
fn move_004_once_a_unit_stops_moving_it_may_not_move_again() {
    // 004 "Move": once a unit stops moving it may not move again this round (MOVE+MOVE is
    // allowed, MOVE, then something else, then MOVE is not).
    let mut st = duel();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E6"), nothing(), mv("E7")]),
        &mut d,
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("stopped moving"), "{reason}");
    assert!(rule.contains("may not move again"));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E6"), mv("E7")]),
        &mut d,
    );
    accepted(&out);
}

#[test]
fn declaration_004_a_refused_line_rolls_nothing_and_changes_nothing() {
    // 004 "Actions": everything is declared before any die; a refused activation leaves the
    // state byte-identical (no dice scripted: rolling one would panic).
    let mut st = duel();
    begin(&mut st, "allies");
    let before = serde_json::to_string(&st).unwrap();
    let mut d = ScriptedDice::new([]);
    // Second line out of range (E5 to E9 is 4, but "x9" does not exist).
    let act = Command::Activate {
        unit: "a1".into(),
        actions: vec![
            Action::Attack {
                fire: vec![fire("gun", "x1"), fire("laser", "x1")],
            },
            nothing(),
        ],
    };
    let out = cmd(&mut st, "allies", act, &mut d);
    let (reason, _) = refused(&out);
    assert!(reason.contains("no weapon `laser`"), "{reason}");
    assert_eq!(serde_json::to_string(&st).unwrap(), before);
}

#[test]
fn range_004_a_target_out_of_range_is_refused_naming_the_distance() {
    // 004 "Range": gun range 4; E5 to E1 is 4 (in range), A1 is 4+4-1 = 7 (ruling 1).
    let s = scenario(
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "sq", Some("A1"))],
    );
    let mut st = start(s, vec![squad("sq")]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("gun", "x1"), nothing()]),
        &mut d,
    );
    let (reason, rule) = refused(&out);
    assert_eq!(
        reason,
        "not in range: a1 at E5 is 7 squares from A1, gun range 4"
    );
    assert_eq!(rule, "004 'Range'");
}

#[test]
fn attack_004_friendly_units_are_not_targets_and_ammo_runs_out() {
    // 004 "Attack" / "Limited ammo": a limited line with no box left is refused.
    let mut sq_card = squad("sq");
    let mut pf = weapon("pf", WeaponRange::Upto(3), 1, 1);
    pf.ammo = Some(1);
    pf.carriers = Some(1);
    sq_card.weapons.push(pf);
    let s = scenario(
        vec![unit("a1", "sq", Some("E5")), unit("a2", "sq", Some("F5"))],
        vec![unit("x1", "sq", Some("E3"))],
    );
    let mut st = start(s, vec![sq_card]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("gun", "a2"), nothing()]),
        &mut d,
    );
    assert!(refused(&out).0.contains("friendly"));
    st.unit_mut("a1").unwrap().ammo.insert("pf".into(), 0);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("pf", "x1"), nothing()]),
        &mut d,
    );
    assert!(refused(&out).0.contains("weapon out of ammo"));
}

#[test]
fn attack_004_limited_ammo_uses_one_box_per_carrier() {
    // 004 "Limited ammo" (R53): carriers capped by boxes left; each firing model uses a box.
    let mut sq_card = squad("sq");
    let mut pf = weapon("pf", WeaponRange::Upto(3), 1, 1);
    pf.ammo = Some(3);
    pf.carriers = Some(2);
    sq_card.weapons.push(pf);
    let mut st = start(
        scenario(
            vec![unit("a1", "sq", Some("E5"))],
            vec![unit("x1", "sq", Some("E3"))],
        ),
        vec![sq_card],
    );
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([5, 5]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![nothing(), attack("pf", "x1")]),
        &mut d,
    );
    accepted(&out);
    // nothing first: the window opens after it (R55) — axis declines.
    let out = cmd(&mut st, "axis", Command::React { unit: None }, &mut d);
    accepted(&out);
    assert_eq!(d.remaining(), 0, "2 carriers, 2 dice");
    assert_eq!(u(&st, "a1").ammo["pf"], 1);
}

// ---------------------------------------------------------------------------------------------
// 004 "Sustained attack" and damage
// ---------------------------------------------------------------------------------------------

#[test]
fn sustained_004_takes_both_actions_and_allows_no_reactive_fire() {
    // 004 "Reactive fire": if a unit performs a SUSTAINED ATTACK, no reactive fire can occur.
    let mut st = duel();
    begin(&mut st, "allies");
    // 4 carriers × 1 die, all hits (no misses to re-roll): 4 damage destroys the squad.
    let mut d = ScriptedDice::new([1, 1, 2, 2]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![sustained("gun", "x1")]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    let t = texts(&out);
    assert!(t.contains("4 carriers, sustained"), "{t}");
    assert!(!t.contains("reactive"), "{t}");
    assert!(u(&st, "x1").destroyed);
    assert!(u(&st, "a1").activated);
}

#[test]
fn damage_004_each_damage_point_removes_a_model_in_card_order() {
    // 004 "Attacking": each damage point removes one miniature (auto when all are alike).
    let mut st = duel();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([1, 2, 5, 6, /* re-rolled misses (sustained) */ 5, 5]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![sustained("gun", "x1")]),
        &mut d,
    ));
    // Under the real combat the two misses are re-rolled: give them if they are asked for.
    let x1 = u(&st, "x1");
    assert!(x1.models.len() <= 2, "{:?}", x1.models);
    assert_eq!(x1.models[0], "1", "the last listed model goes first");
}

// ---------------------------------------------------------------------------------------------
// 004 "Reactive fire"
// ---------------------------------------------------------------------------------------------

#[test]
fn reactive_004_move_attack_window_is_after_the_move() {
    // 004: MOVE + ATTACK: reactive fire immediately after the MOVE.
    let mut st = duel();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E6"), attack("gun", "x1")]),
        &mut d,
    ));
    assert_eq!(u(&st, "a1").at, Some(sq("E6")), "moved");
    assert_eq!(awaited(&st), vec![("axis".into(), "react".into())]);
    let mut d = ScriptedDice::new([
        5, /* allies' attack */ 5, 5, 5, 5, /* round 2 */ 1, 5, 5, 5, 5, 5,
    ]);
    let out = cmd(
        &mut st,
        "axis",
        Command::React {
            unit: Some("x1".into()),
        },
        &mut d,
    );
    accepted(&out);
    assert_eq!(
        d.remaining(),
        0,
        "1 reactive die (a miss), the 4 attack dice, round 2"
    );
    assert!(texts(&out).contains("x1 attempts reactive fire at a1: MISS"));
    // The attempt activated x1: axis had nothing left, so round 1 ended with a1's activation.
    assert_eq!(out.rounds_ended, vec![1]);
}

#[test]
fn reactive_004_attack_move_window_is_after_the_attack() {
    // 004: ATTACK + MOVE: reactive fire immediately after the ATTACK.
    let mut st = duel();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([5, 5, 5, 5]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("gun", "x1"), mv("E6")]),
        &mut d,
    ));
    assert_eq!(d.remaining(), 0, "the attack is resolved");
    assert_eq!(u(&st, "a1").at, Some(sq("E5")), "not moved yet");
    assert_eq!(awaited(&st), vec![("axis".into(), "react".into())]);
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(&mut st, "axis", Command::React { unit: None }, &mut d));
    assert_eq!(u(&st, "a1").at, Some(sq("E6")));
    assert_eq!(awaited(&st), vec![("axis".into(), "activate".into())]);
}

#[test]
fn reactive_004_move_move_window_is_after_the_first_move() {
    // 004: MOVE + MOVE: reactive fire immediately after the first MOVE.
    let mut st = duel();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E4"), mv("F4")]),
        &mut d,
    ));
    assert_eq!(u(&st, "a1").at, Some(sq("E4")));
    assert_eq!(awaited(&st), vec![("axis".into(), "react".into())]);
}

#[test]
fn reactive_004_hit_fires_one_attack_with_every_line_in_range() {
    // 004 "Reactive fire": on a HIT the unit performs one ATTACK with all weapon lines that
    // have the range to hit the activating unit; then the enemy carries on.
    let mut c = squad("sq");
    c.weapons.push(weapon("short", WeaponRange::Upto(1), 1, 1));
    let s = scenario(
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "sq", Some("E2"))],
    );
    let mut st = start(s, vec![c]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E4"), mv("E5")]),
        &mut d,
    ));
    // HIT, then the gun (4 dice; `short` is out of range at 2 squares): 2 damage.
    let mut d = ScriptedDice::new([
        2, 1, 1, 5, 5, /* round 2 initiative */ 1, 5, 5, 5, 5, 5,
    ]);
    let out = cmd(
        &mut st,
        "axis",
        Command::React {
            unit: Some("x1".into()),
        },
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "a1").models.len(), 2);
    assert_eq!(u(&st, "a1").at, Some(sq("E5")), "the activation carried on");
}

#[test]
fn reactive_004_only_units_with_reach_and_not_activated_may_react() {
    // 004: the reacting unit must be unactivated and have a weapon that can reach the target.
    let s = scenario(
        vec![unit("a1", "sq", Some("E9"))],
        vec![unit("x1", "sq", Some("E1")), unit("x2", "sq", Some("A1"))],
    );
    let mut st = start(s, vec![squad("sq")]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    // E9 to E8: 7 squares from E1, out of range 4: no window at all.
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E8"), nothing()]),
        &mut d,
    ));
    assert_eq!(awaited(&st), vec![("axis".into(), "activate".into())]);
}

#[test]
fn reactive_r55_skill_or_nothing_pairs_open_one_window_after_the_first_action() {
    // R55: NOTHING + ATTACK opens the window after the NOTHING; NOTHING + NOTHING opens none.
    let mut st = duel();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![nothing(), nothing()]),
        &mut d,
    ));
    assert_eq!(awaited(&st), vec![("axis".into(), "activate".into())]);
}

#[test]
fn reactive_r100_deadline_default_reacts_with_the_most_harmful_unit() {
    // R100 (replacing R59's `react none`): a window left unanswered at the deadline gets the
    // same answer as a side without standing orders: the eligible unit most likely to hurt.
    let mut st = duel();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E6"), nothing()]),
        &mut d,
    ));
    // Then axis is awaited to activate: its default is NOTHING, NOTHING for x1, which ends the
    // round and rolls round 2's initiative.
    // The reactive die misses (x1 is activated by the attempt), the round ends, round 2 rolls.
    let mut d = ScriptedDice::new([5, 1, 5, 5, 5, 5, 5]);
    let out = DustTactics.default_for(&mut st, "axis", &mut d);
    assert_eq!(d.remaining(), 0);
    assert!(texts(&out).contains("x1 attempts reactive fire at a1: MISS"));
    assert_eq!(out.rounds_ended, vec![1]);
}

// ---------------------------------------------------------------------------------------------
// Close combat
// ---------------------------------------------------------------------------------------------

#[test]
fn close_combat_000_example_rangers_vs_grenadiers() {
    // 000 "Close combat: squad vs. squad" example: 5 Rangers shoot 5 Grenadiers (3 damage,
    // removed at once), then 5 knife dice against the 2 survivors' 2 dice: 2 hits and 1 hit;
    // all Grenadiers and one Ranger are eliminated, simultaneously.
    let mut knife = weapon("knife", WeaponRange::Close, 1, 1);
    knife.traits.push(WeaponTrait::PerModel);
    let mut rangers = card(
        "rangers",
        UnitType::Squad,
        5,
        1,
        vec![weapon("rifle", WeaponRange::Upto(4), 1, 1), knife.clone()],
    );
    rangers.faction = "allies".into();
    let grenadiers = card(
        "grenadiers",
        UnitType::Squad,
        5,
        1,
        vec![weapon("rifle", WeaponRange::Upto(4), 1, 1), knife],
    );
    let s = scenario(
        vec![unit("r", "rangers", Some("E5"))],
        vec![unit("g", "grenadiers", Some("E4"))],
    );
    let mut st = start(s, vec![rangers, grenadiers]);
    begin(&mut st, "allies");
    let act = Command::Activate {
        unit: "r".into(),
        actions: vec![
            Action::Attack {
                fire: vec![fire("rifle", "g"), fire("knife", "g")],
            },
            nothing(),
        ],
    };
    let mut d = ScriptedDice::new([
        1, 1, 1, 5, 5, // rifles: 3 hits
        1, 2, 5, 5, 5, // 5 knives: 2 hits
        1, 6, // 2 surviving grenadiers retaliate: 1 hit
    ]);
    let out = cmd(&mut st, "allies", act, &mut d);
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert!(u(&st, "g").destroyed);
    assert_eq!(u(&st, "r").models.len(), 4);
    let t = texts(&out);
    assert!(t.contains("retaliates"), "{t}");
}

// ---------------------------------------------------------------------------------------------
// Heroes
// ---------------------------------------------------------------------------------------------

fn hero_game() -> dustmail::dust_tactics::state::State {
    let hero = card(
        "joe",
        UnitType::Hero,
        3,
        2,
        vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
    );
    let mut s = scenario(
        vec![unit("a1", "sq", Some("E5")), unit("joe", "joe", None)],
        vec![unit("x1", "sq", Some("E2"))],
    );
    s.sides[0].units[1].joins = Some("a1".into());
    start(s, vec![squad("sq"), hero])
}

#[test]
fn heroes_004_joined_hero_activates_with_the_squad_at_the_faster_movement() {
    // 004 "Heroes": a joined unit activates together and moves at the faster Movement.
    let mut st = hero_game();
    assert_eq!(
        u(&st, "joe").at,
        Some(sq("E5")),
        "the hero stands with his squad"
    );
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    let out = cmd(
        &mut st,
        "allies",
        activate("joe", vec![nothing(), nothing()]),
        &mut d,
    );
    assert!(refused(&out).0.contains("activates with it"));
    // The hero moves the squad at the faster Movement (2).
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E7"), nothing()]),
        &mut d,
    ));
    assert_eq!(u(&st, "joe").at, Some(sq("E7")));
    assert!(u(&st, "joe").activated);
}

#[test]
fn heroes_004_the_owner_chooses_squad_model_or_hero_health() {
    // 004 "Heroes": for each damage point the owner removes a miniature or marks a hero cross.
    let mut st = hero_game();
    begin(&mut st, "axis");
    let mut d = ScriptedDice::new([1, 1, 5, 5, /* re-rolled misses (sustained) */ 6, 6]);
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![sustained("gun", "a1")]),
        &mut d,
    ));
    assert_eq!(awaited(&st), vec![("allies".into(), "casualties".into())]);
    let out = cmd(
        &mut st,
        "allies",
        Command::Casualties {
            unit: "a1".into(),
            models: vec!["joe".into(), "2".into()],
        },
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "joe").health, 2);
    assert_eq!(u(&st, "a1").models, vec!["1", "3", "4"]);
}

#[test]
fn heroes_r58_default_casualties_take_squad_models_before_the_hero() {
    // R58: by default squad models go first (last listed first), the hero last.
    let mut st = hero_game();
    begin(&mut st, "axis");
    let mut d = ScriptedDice::new([1, 1, 5, 5]);
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("gun", "a1"), nothing()]),
        &mut d,
    ));
    assert_eq!(awaited(&st), vec![("allies".into(), "casualties".into())]);
    let out = cmd(
        &mut st,
        "allies",
        Command::Casualties {
            unit: "a1".into(),
            models: vec!["4".into(), "3".into()],
        },
        &mut d,
    );
    accepted(&out);
    // Then the window after the attack: allies decline.
    accepted(&cmd(
        &mut st,
        "allies",
        Command::React { unit: None },
        &mut d,
    ));
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "joe").health, 3);
    assert_eq!(u(&st, "a1").models, vec!["1", "2"]);
}

#[test]
fn heroes_004_may_split_off_for_good() {
    // 004 "Heroes": at any time the hero may split off; he acts alone from then on.
    let mut st = hero_game();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![skill("detach"), nothing(), nothing()]),
        &mut d,
    ));
    assert_eq!(u(&st, "joe").joined, None);
    // Joe is a unit of his own now, but was activated with the squad this round.
    assert!(u(&st, "joe").activated);
}

#[test]
fn heroes_004_join_needs_the_same_armour_class() {
    // 004 "Heroes": the hero's and the squad's armour class must match.
    let mut hero = card("joe", UnitType::Hero, 3, 2, vec![]);
    hero.armour = Armour::Vehicle(2);
    let mut s = scenario(
        vec![unit("a1", "sq", Some("E5")), unit("joe", "joe", None)],
        vec![unit("x1", "sq", Some("E2"))],
    );
    s.sides[0].units[1].joins = Some("a1".into());
    let err = DustTactics
        .start("ffg-revised", s, vec![squad("sq"), hero])
        .unwrap_err();
    assert!(err.0.contains("armour class must match"), "{err}");
}

#[test]
fn setup_checks_cards_ids_and_ap_limit() {
    // 004 "Setup": forces within the AP limit; every unit needs its card; ids are unique.
    let s = scenario(vec![unit("a1", "nope", Some("E5"))], vec![]);
    assert!(DustTactics
        .start("ffg-revised", s, vec![squad("sq")])
        .unwrap_err()
        .0
        .contains("card `nope`"));
    let s = scenario(
        vec![unit("a1", "sq", Some("E5")), unit("a1", "sq", Some("E6"))],
        vec![],
    );
    assert!(DustTactics
        .start("ffg-revised", s, vec![squad("sq")])
        .unwrap_err()
        .0
        .contains("used twice"));
    let mut s = scenario(
        vec![unit("a1", "sq", Some("E5")), unit("a2", "sq", Some("E6"))],
        vec![],
    );
    s.ap_limit = 15;
    assert!(DustTactics
        .start("ffg-revised", s, vec![squad("sq")])
        .unwrap_err()
        .0
        .contains("20 AP"));
}

// ---------------------------------------------------------------------------------------------
// Skills (004 skills reference)
// ---------------------------------------------------------------------------------------------

#[test]
fn skill_fast_004_one_extra_space_on_one_move() {
    // 004 "Fast": "When the unit performs a MOVE action, it may move 1 additional space. If the
    // unit performs 2 MOVE actions, this skill can only affect one of those move actions."
    let c = with_skill(squad("sq"), "fast", None);
    let mut st = start(
        scenario(
            vec![unit("a1", "sq", Some("E9"))],
            vec![unit("x1", "sq", Some("A1"))],
        ),
        vec![c],
    );
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E7"), mv("E5")]),
        &mut d,
    );
    refused(&out);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E7"), mv("E6")]),
        &mut d,
    ));
}

#[test]
fn skill_assault_004_doubles_movement_once_per_game() {
    // 004 "Assault": "Once per game the unit doubles its [Movement] value, even if it performs
    // 2 MOVE actions."
    let c = with_skill(squad("sq"), "assault", Some(1));
    let s = scenario(
        vec![unit("a1", "sq", Some("E9"))],
        vec![unit("x1", "sq", Some("A1"))],
    );
    let mut st = start(s, vec![c]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![skill("assault"), mv("E7"), mv("E5")]),
        &mut d,
    ));
    assert_eq!(u(&st, "a1").at, Some(sq("E5")));
    assert_eq!(u(&st, "a1").skills_used["assault"], 1);
    // Round 2: used up.
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 5]);
    DustTactics.default_for(&mut st, "axis", &mut d);
    accepted(&cmd(
        &mut st,
        "allies",
        Command::First {
            side: "allies".into(),
        },
        &mut d,
    ));
    assert_eq!(st.round, 2);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![skill("assault"), mv("E3"), nothing()]),
        &mut d,
    );
    assert!(refused(&out).0.contains("already used assault"));
}

#[test]
fn skill_berserk_and_all_in_one_004_are_declared_and_change_the_fire() {
    // 004 "Berserk": "Once per game the unit may reroll all [miss] results once for each weapon
    // line"; 004 "All In One": "Once per game this unit may roll twice the normal number of
    // attack dice for all its weapons for that round." Free skills declared in the activation.
    let c = with_skill(
        with_skill(squad("sq"), "berserk", Some(1)),
        "all-in-one",
        Some(1),
    );
    let mut st = start(
        scenario(
            vec![unit("a1", "sq", Some("E5"))],
            vec![unit("x1", "sq", Some("E2"))],
        ),
        vec![c],
    );
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([1; 8]);
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "a1",
            vec![
                skill("berserk"),
                skill("all-in-one"),
                sustained("gun", "x1"),
            ],
        ),
        &mut d,
    );
    accepted(&out);
    let t = texts(&out);
    assert!(t.contains("sustained, berserk, double dice"), "{t}");
    assert!(u(&st, "x1").destroyed);
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut d,
    );
    refused(&out);
}

#[test]
fn skill_fighting_spirit_004_needs_a_move_before_the_attack() {
    // 004 "Fighting Spirit": "Once per game the hero can treat [miss] as [hit] … as long he
    // performed at least one MOVE action this round. To trigger this bonus, he must move before
    // attacking."
    let hero = with_skill(
        card(
            "joe",
            UnitType::Hero,
            3,
            2,
            vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
        ),
        "fighting-spirit",
        Some(1),
    );
    let mut st = start(
        scenario(
            vec![unit("joe", "joe", Some("E5"))],
            vec![unit("x1", "sq", Some("E1"))],
        ),
        vec![squad("sq"), hero],
    );
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "joe",
            vec![skill("fighting-spirit"), attack("pistol", "x1"), nothing()],
        ),
        &mut d,
    );
    assert!(refused(&out).1.contains("Fighting Spirit"));
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate(
            "joe",
            vec![skill("fighting-spirit"), mv("E4"), attack("pistol", "x1")],
        ),
        &mut d,
    ));
    let out = cmd(
        &mut st,
        "axis",
        Command::React { unit: None },
        &mut ScriptedDice::new([3]),
    );
    assert!(texts(&out).contains("reversed dice"), "{}", texts(&out));
}

#[test]
fn skill_spotter_004_reverses_the_squad_dice() {
    // 004 "Spotter": "When a spotter's squad attacks, reverse the die results."
    let c = with_skill(squad("sq"), "spotter", None);
    let mut st = start(
        scenario(
            vec![unit("a1", "sq", Some("E5"))],
            vec![unit("x1", "sq", Some("E2"))],
        ),
        vec![c, squad("other")],
    );
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([3, 4, 5, 6]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("gun", "x1"), nothing()]),
        &mut d,
    );
    assert!(texts(&out).contains("reversed dice"));
}

#[test]
fn skill_sniper_004_names_a_model_and_hits_it() {
    // 004 "Sniper": "When declaring a target, specify which miniature the sniper is targeting
    // (instead of an entire unit). If he obtains a [hit], inflict 1 damage to that miniature."
    let c = with_skill(squad("sniper"), "sniper", None);
    let mut st = start(
        scenario(
            vec![unit("a1", "sniper", Some("E5"))],
            vec![unit("x1", "sq", Some("E2"))],
        ),
        vec![c, squad("sq")],
    );
    begin(&mut st, "allies");
    let act = Command::Activate {
        unit: "a1".into(),
        actions: vec![Action::Sustained {
            fire: vec![FireOrder {
                weapon: "gun".into(),
                target: TargetRef::Model {
                    unit: "x1".into(),
                    model: "2".into(),
                },
                through: vec![],
                count: None,
            }],
        }],
    };
    let mut d = ScriptedDice::new([1, 1, 1, 1]);
    accepted(&cmd(&mut st, "allies", act, &mut d));
    assert!(!u(&st, "x1").models.contains(&"2".to_string()));
    // And a non-sniper cannot name a model.
    let act = Command::Activate {
        unit: "x1".into(),
        actions: vec![Action::Sustained {
            fire: vec![FireOrder {
                weapon: "gun".into(),
                target: TargetRef::Model {
                    unit: "a1".into(),
                    model: "1".into(),
                },
                through: vec![],
                count: None,
            }],
        }],
    };
    assert!(refused(&cmd(&mut st, "axis", act, &mut d))
        .1
        .contains("Sniper"));
}

#[test]
fn skill_charge_004_move_move_then_close_attack_with_window_after_the_second_move() {
    // 004 "Charge": "The unit can perform an ATTACK action with all of its range 1 or range C
    // weapons after performing 2 MOVE actions"; 004 "Reactive fire situations": "reactive fire
    // must occur immediately after the second MOVE, but before the close combat ATTACK."
    let mut c = with_skill(squad("sq"), "charge", None);
    c.weapons.push(weapon("claw", WeaponRange::Close, 1, 1));
    let mut st = start(
        scenario(
            vec![unit("a1", "sq", Some("E5"))],
            vec![unit("x1", "sq", Some("E2"))],
        ),
        vec![c],
    );
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "a1",
            vec![skill("charge"), mv("E4"), mv("E3"), attack("gun", "x1")],
        ),
        &mut d,
    );
    assert!(refused(&out).0.contains("range 1 and range C"));
    accepted(&cmd(
        &mut st,
        "allies",
        activate(
            "a1",
            vec![skill("charge"), mv("E4"), mv("E3"), attack("claw", "x1")],
        ),
        &mut d,
    ));
    assert_eq!(
        u(&st, "a1").at,
        Some(sq("E3")),
        "both moves done before the window"
    );
    assert_eq!(awaited(&st), vec![("axis".into(), "react".into())]);
}

#[test]
fn skill_tank_head_004_heals_an_adjacent_friendly_vehicle_once_per_game() {
    // 004 "Tank Head (SKILL)": "Once per game the hero can perform 1 SKILL action to heal all
    // damage on an adjacent friendly vehicle. This happens on the hero's activation."
    let hero = with_skill(
        card("joe", UnitType::Hero, 3, 2, vec![]),
        "tank-head",
        Some(1),
    );
    let tank = card("tank", UnitType::Vehicle, 5, 1, vec![]);
    let mut st = start(
        scenario(
            vec![
                unit("joe", "joe", Some("E5")),
                unit("t", "tank", Some("E6")),
            ],
            vec![unit("x1", "sq", Some("A1"))],
        ),
        vec![squad("sq"), hero, tank],
    );
    st.unit_mut("t").unwrap().health = 2;
    begin(&mut st, "allies");
    let act = activate(
        "joe",
        vec![
            Action::Skill {
                name: "tank-head".into(),
                target: Some(TargetRef::Unit("t".into())),
            },
            nothing(),
        ],
    );
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(&mut st, "allies", act, &mut d));
    assert_eq!(u(&st, "t").health, 5);
    assert_eq!(u(&st, "joe").skills_used["tank-head"], 1);
}

#[test]
fn skill_self_repair_004_rolls_one_die_per_lost_health_at_end_of_round() {
    // 004 "Self Repair": "At the end of each round, roll a die for each [health] on the unit
    // card that is marked. For each [hit] rolled, the vehicle recovers one [health]."
    let tank = with_skill(
        card("tank", UnitType::Vehicle, 5, 1, vec![]),
        "self-repair",
        None,
    );
    let mut st = start(
        scenario(
            vec![unit("t", "tank", Some("E6"))],
            vec![unit("x1", "sq", Some("A1"))],
        ),
        vec![squad("sq"), tank],
    );
    st.unit_mut("t").unwrap().health = 2;
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("t", vec![nothing(), nothing()]),
        &mut d,
    ));
    // x1's activation ends the round: 3 repair dice, then round 2's initiative.
    let mut d = ScriptedDice::new([1, 5, 2, /* initiative */ 1, 5, 5, 5, 5, 5]);
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut d,
    );
    assert_eq!(d.remaining(), 0);
    assert!(texts(&out).contains("Self Repair: t restores 2 of 3"));
    assert_eq!(u(&st, "t").health, 4);
}

// ---------------------------------------------------------------------------------------------
// End of game and victory points
// ---------------------------------------------------------------------------------------------

#[test]
fn end_004_annihilation_ends_the_game_at_the_end_of_the_round() {
    // 004 "End of the game": all units of one player destroyed; VP = AP destroyed.
    let mut st = duel();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([1, 1, 1, 1]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![sustained("gun", "x1")]),
        &mut d,
    );
    // Axis has nothing left to activate: the round ends and the game with it.
    assert_eq!(out.rounds_ended, vec![1]);
    let res = out.finished.expect("finished");
    assert_eq!(res.winner.as_deref(), Some("allies"));
    assert_eq!(res.points["allies"], 10);
    assert!(res.reason.contains("all units of axis"));
    assert!(DustTactics.awaiting(&st).is_empty());
    let out = cmd(
        &mut st,
        "axis",
        Command::First {
            side: "axis".into(),
        },
        &mut d,
    );
    assert!(refused(&out).0.contains("game is over"));
}

#[test]
fn end_004_round_limit_and_equal_points_is_a_draw() {
    // 004 "End of the game": the round limit; ruling 4: equal VPs are a draw.
    let mut s = scenario(
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "sq", Some("A1"))],
    );
    s.rounds = 1;
    let mut st = start(s, vec![squad("sq")]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    DustTactics.default_for(&mut st, "allies", &mut d);
    let out = DustTactics.default_for(&mut st, "axis", &mut d);
    let res = out.finished.expect("finished");
    assert_eq!(res.winner, None);
    assert!(res.reason.contains("round limit"));
}

#[test]
fn end_004_objective_met_wins() {
    // 004 "End of the game": a player has met the scenario objective.
    let s = objectives(
        scenario(
            vec![unit("a1", "sq", Some("E5"))],
            vec![unit("x1", "sq", Some("A1"))],
        ),
        vec![Objective::Hold {
            side: "allies".into(),
            at: sq("E5"),
        }],
    );
    let mut st = start(s, vec![squad("sq")]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    DustTactics.default_for(&mut st, "allies", &mut d);
    let out = DustTactics.default_for(&mut st, "axis", &mut d);
    let res = out.finished.expect("finished");
    assert_eq!(res.winner.as_deref(), Some("allies"));
    assert!(res.reason.contains("objective E5"));
}

#[test]
fn vp_000_a_unit_destroyed_twice_counts_twice() {
    // 004/000 "Victory points": a unit brought back and destroyed again counts again.
    let mut st = duel();
    st.destroyed
        .push(dustmail::dust_tactics::state::Destruction {
            unit: "x1".into(),
            side: "axis".into(),
            by: "allies".into(),
            ap: 10,
            round: 1,
        });
    st.destroyed.push(st.destroyed[0].clone());
    assert_eq!(
        dustmail::dust_tactics::flow::points(&st, false)["allies"],
        20
    );
}

// ---------------------------------------------------------------------------------------------
// View, board, template
// ---------------------------------------------------------------------------------------------

#[test]
fn view_board_and_template_show_the_state() {
    let mut st = duel();
    begin(&mut st, "allies");
    let v = DustTactics.view(&st, None);
    assert_eq!(v["round"], 1);
    assert_eq!(v["units"][0]["square"], "E5");
    assert_eq!(v["awaiting"][0]["decision"], "activate");
    let b = DustTactics.board_text(&st);
    assert!(b.contains(" A  B  C"), "{b}");
    assert!(b.contains("  5  .  .  .  .  A "), "{b}");
    assert!(b.contains("  A   a1 (allies, sq): E5, 4 models"), "{b}");
    let t = DustTactics.orders_template(&st, "allies");
    assert!(t.contains("# activate a1"), "{t}");
    assert!(DustTactics
        .orders_template(&st, "axis")
        .contains("Nothing is awaited"));
}

// ---------------------------------------------------------------------------------------------
// Special weapons, cover elements, casualty choice, reactive-fire skills
// ---------------------------------------------------------------------------------------------

#[test]
fn flamethrower_004_spray_hits_every_unit_on_the_chosen_squares() {
    // R65: the spray attacks every unit standing on the squares named in `through`. Since R151
    // (issue 12 item 1) those squares lie between the shooter and the target: x2 on E4 is
    // between a1 (E5) and the vehicle x1 (E3), which a squad on E4 does not hide from soldiers.
    let mut flamer = weapon("flamer", WeaponRange::Upto(2), 1, 1);
    flamer.traits.push(WeaponTrait::Flamethrower);
    let c = card("fl", UnitType::Squad, 4, 1, vec![flamer]);
    let s = scenario(
        vec![unit("a1", "fl", Some("E5"))],
        vec![unit("x1", "veh", Some("E3")), unit("x2", "sq", Some("E4"))],
    );
    let veh = card("veh", UnitType::Vehicle, 4, 1, vec![]);
    let mut st = start(s, vec![c, squad("sq"), veh]);
    begin(&mut st, "allies");
    let act = Command::Activate {
        unit: "a1".into(),
        actions: vec![Action::Sustained {
            fire: vec![FireOrder {
                weapon: "flamer".into(),
                target: TargetRef::Unit("x1".into()),
                through: vec![sq("E4")],
                count: None,
            }],
        }],
    };
    let mut d = ScriptedDice::new([1, 1, 1, 1, /* x2 */ 2, 2, 2, 2]);
    let out = cmd(&mut st, "allies", act, &mut d);
    accepted(&out);
    assert!(u(&st, "x1").destroyed, "{}", texts(&out));
    assert!(u(&st, "x2").destroyed, "{}", texts(&out));
}

#[test]
fn attack_r57_cover_elements_are_attacked_last() {
    // R57: within one ATTACK, lines at units resolve before lines at cover elements.
    let mut c = squad("sq");
    c.weapons.push(weapon("mg", WeaponRange::Upto(4), 1, 1));
    let mut s = scenario(
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "sq", Some("E2"))],
    );
    s.board.cover.insert(
        sq("B5"),
        CoverElement {
            kind: CoverKind::AmmoCrate,
            damage: 0,
        },
    );
    let mut st = start(s, vec![c]);
    begin(&mut st, "allies");
    let act = Command::Activate {
        unit: "a1".into(),
        actions: vec![
            Action::Attack {
                fire: vec![
                    FireOrder {
                        weapon: "gun".into(),
                        target: TargetRef::Square(sq("B5")),
                        through: vec![],
                        count: None,
                    },
                    fire("mg", "x1"),
                ],
            },
            nothing(),
        ],
    };
    let mut d = ScriptedDice::new([5, 5, 5, 5, 1, 1, 5, 5]);
    let out = cmd(&mut st, "allies", act, &mut d);
    accepted(&out);
    let t = texts(&out);
    let unit_at = t.find("fires mg").expect("mg fired");
    let crate_at = t.find("cover element on B5").expect("crate attacked");
    assert!(unit_at < crate_at, "{t}");
    assert!(t.contains("the cover element on B5 is destroyed"), "{t}");
    assert!(st.scenario.board.cover_at(sq("B5")).is_none());
    assert_eq!(d.remaining(), 0);
}

#[test]
fn attack_004_a_weapon_line_fires_once_per_attack() {
    // 004 "Attack": an ATTACK uses each weapon line once (each may choose its own target).
    let mut st = duel();
    begin(&mut st, "allies");
    let act = Command::Activate {
        unit: "a1".into(),
        actions: vec![
            Action::Attack {
                fire: vec![fire("gun", "x1"), fire("gun", "x1")],
            },
            nothing(),
        ],
    };
    let out = cmd(&mut st, "allies", act, &mut ScriptedDice::new([]));
    assert!(refused(&out).0.contains("declared twice"));
}

#[test]
fn casualties_r58_owner_chooses_when_models_carry_different_weapons() {
    // R58: a squad whose models carry different lines is asked; the default keeps the special
    // weapon carrier for last.
    let mut c = squad("sq");
    let mut pf = weapon("pf", WeaponRange::Upto(3), 1, 1);
    pf.carriers = Some(1);
    c.weapons.push(pf);
    c.models = (1..=4)
        .map(|i| ModelSpec {
            id: format!("m{i}"),
            carries: if i == 4 {
                vec!["gun".into(), "pf".into()]
            } else {
                vec!["gun".into()]
            },
        })
        .collect();
    let s = scenario(
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "plain", Some("E2"))],
    );
    let mut st = start(s, vec![c, squad("plain")]);
    begin(&mut st, "axis");
    let mut d = ScriptedDice::new([1, 5, 5, 5]);
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("gun", "a1"), nothing()]),
        &mut d,
    ));
    let aw = DustTactics.awaiting(&st);
    assert_eq!(aw[0].decision, "casualties");
    // Every distinct choice is offered, the default first (R100): a plain model or the carrier.
    assert_eq!(
        aw[0].options,
        vec!["casualties a1: m3", "casualties a1: m4"]
    );
    let t = DustTactics.orders_template(&st, "allies");
    assert!(
        t.contains("# models of a1: m1 (gun), m2 (gun), m3 (gun), m4 (gun, pf)"),
        "{t}"
    );
    let out = cmd(
        &mut st,
        "allies",
        Command::Casualties {
            unit: "a1".into(),
            models: vec!["m9".into()],
        },
        &mut d,
    );
    assert!(refused(&out).0.contains("`m9` is not a model"));
    accepted(&cmd(
        &mut st,
        "allies",
        Command::Casualties {
            unit: "a1".into(),
            models: vec!["m4".into()],
        },
        &mut d,
    ));
    assert_eq!(u(&st, "a1").models, vec!["m1", "m2", "m3"]);
}

#[test]
fn skill_advanced_reactive_fire_004_rolls_two_dice() {
    // 004 "Advanced Reactive Fire": roll 2 dice instead of 1; attack on at least one HIT.
    let c = with_skill(squad("arf"), "advanced-reactive-fire", None);
    let s = scenario(
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "arf", Some("E2"))],
    );
    let mut st = start(s, vec![squad("sq"), c]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E6"), nothing()]),
        &mut d,
    ));
    let mut d = ScriptedDice::new([
        5, 2, /* gun */ 5, 5, 5, 5, /* round 2 */ 1, 5, 5, 5, 5, 5,
    ]);
    let out = cmd(
        &mut st,
        "axis",
        Command::React {
            unit: Some("x1".into()),
        },
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(
        out.happenings
            .iter()
            .find(|h| h.text.contains("attempts"))
            .unwrap()
            .rolls[0]
            .faces,
        vec![5, 2]
    );
}

#[test]
fn setup_reports_a_broken_card_file_by_name() {
    let setup = dustmail::game::Setup {
        ruleset: "ffg-revised".into(),
        scenario_name: "x".into(),
        scenario: String::new(),
        cards: [("luther.toml".to_string(), "id = 3".to_string())]
            .into_iter()
            .collect(),
        sides: vec!["allies".into(), "axis".into()],
        rules_revision: dustmail::dust_tactics::rules::RULES_REVISION,
    };
    let err = DustTactics.setup(&setup).unwrap_err();
    assert!(
        err.0.contains("card luther.toml") && err.0.contains("docs/cards.md"),
        "{err}"
    );
}

#[test]
fn heroes_004_jump_joins_only_a_jump_squad() {
    // 004 "Jump": a hero with Jump joins only a squad with Jump, and the reverse.
    let hero = with_skill(card("joe", UnitType::Hero, 3, 2, vec![]), "jump", None);
    let mut s = scenario(
        vec![unit("a1", "sq", Some("E5")), unit("joe", "joe", None)],
        vec![unit("x1", "sq", Some("E2"))],
    );
    s.sides[0].units[1].joins = Some("a1".into());
    let err = DustTactics
        .start("ffg-revised", s, vec![squad("sq"), hero])
        .unwrap_err();
    assert!(err.0.contains("Jump"), "{err}");
}

#[test]
fn sniper_000_may_pick_the_hero_out_of_a_squad() {
    // 000 "Sniper": the sniper may pick the hero out of a squad.
    let sniper = with_skill(squad("sniper"), "sniper", None);
    let hero = card("joe", UnitType::Hero, 3, 2, vec![]);
    let mut s = scenario(
        vec![unit("s1", "sniper", Some("E5"))],
        vec![unit("x1", "sq", Some("E2")), unit("joe", "joe", None)],
    );
    s.sides[1].units[1].joins = Some("x1".into());
    let mut st = start(s, vec![sniper, squad("sq"), hero]);
    begin(&mut st, "allies");
    let act = Command::Activate {
        unit: "s1".into(),
        actions: vec![Action::Sustained {
            fire: vec![FireOrder {
                weapon: "gun".into(),
                target: TargetRef::Model {
                    unit: "x1".into(),
                    model: "joe".into(),
                },
                through: vec![],
                count: None,
            }],
        }],
    };
    let mut d = ScriptedDice::new([1, 1, 2, 2]);
    let out = cmd(&mut st, "allies", act, &mut d);
    accepted(&out);
    assert!(u(&st, "joe").destroyed, "{}", texts(&out));
    assert_eq!(u(&st, "x1").models.len(), 4, "the squad is untouched");
}

#[test]
fn heroes_004_a_detached_hero_activates_alone_next_round() {
    // 004 "Heroes": after splitting off the hero acts alone.
    let mut st = hero_game();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![skill("detach"), nothing(), nothing()]),
        &mut d,
    ));
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 5]);
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut d,
    ));
    accepted(&cmd(
        &mut st,
        "allies",
        Command::First {
            side: "allies".into(),
        },
        &mut d,
    ));
    let aw = DustTactics.awaiting(&st);
    assert_eq!(aw[0].options, vec!["activate a1", "activate joe"]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("joe", vec![mv("F5"), nothing()]),
        &mut d,
    ));
    assert_eq!(u(&st, "joe").at, Some(sq("F5")));
    assert_eq!(u(&st, "a1").at, Some(sq("E5")));
}

// ---------------------------------------------------------------------------------------------
// Standing orders, concession, draws (R66, R67)
// ---------------------------------------------------------------------------------------------

use dustmail::dust_tactics::flow;
#[test]
fn concede_r67_ends_the_game_for_the_other_side() {
    let mut st = duel();
    let mut out = dustmail::game::Outcome::default();
    flow::concede(&mut st, "axis", &mut out).unwrap();
    let res = out.finished.expect("finished");
    assert_eq!(res.winner.as_deref(), Some("allies"));
    assert!(DustTactics.awaiting(&st).is_empty());
}

#[test]
fn draw_r67_offered_and_accepted_ends_drawn_and_lapses_with_the_round() {
    let mut st = duel();
    let mut out = dustmail::game::Outcome::default();
    assert!(flow::accept_draw(&mut st, "allies", &mut out).is_err());
    flow::offer_draw(&mut st, "axis", &mut out).unwrap();
    assert!(
        flow::accept_draw(&mut st, "axis", &mut out).is_err(),
        "not one's own offer"
    );
    flow::accept_draw(&mut st, "allies", &mut out).unwrap();
    assert_eq!(out.finished.clone().expect("finished").winner, None);
    // An offer not accepted lapses at the end of the round.
    let mut st = duel();
    flow::offer_draw(&mut st, "axis", &mut out).unwrap();
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 5]);
    DustTactics.default_for(&mut st, "allies", &mut d);
    DustTactics.default_for(&mut st, "axis", &mut d);
    assert_eq!(st.round, 2);
    assert!(flow::accept_draw(&mut st, "allies", &mut out).is_err());
}

#[test]
fn heroes_004_damage_beyond_the_squad_marks_the_hero() {
    // 004 "Heroes": each damage point removes a miniature or marks a hero cross, so 5 damage on
    // a 4-model squad with a 3-health hero leaves the hero alone with 2 health.
    let mut st = hero_game();
    begin(&mut st, "axis");
    let mut d = ScriptedDice::new([1, 1, 1, 1, 1, 5, 5, 5]);
    let mut c = st.cards["sq"].clone();
    c.weapons[0].soldier = [dice(2, 1); 4];
    st.cards.insert("sq".into(), c);
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("gun", "a1"), nothing()]),
        &mut d,
    ));
    let out = cmd(
        &mut st,
        "allies",
        Command::Casualties {
            unit: "a1".into(),
            models: vec!["4".into(), "3".into(), "2".into(), "1".into(), "joe".into()],
        },
        &mut d,
    );
    accepted(&out);
    assert!(u(&st, "a1").destroyed);
    assert_eq!(u(&st, "joe").health, 2);
    assert_eq!(u(&st, "joe").joined, None, "the hero fights on alone");
    assert_eq!(u(&st, "joe").at, Some(sq("E5")));
}

#[test]
fn skills_004_once_per_game_even_when_the_card_gives_no_count() {
    // 004 "Berserk": "Once per game" — a card without a use count still allows one use.
    let c = with_skill(squad("sq"), "berserk", None);
    let mut st = start(
        scenario(
            vec![unit("a1", "sq", Some("E5"))],
            vec![unit("x1", "sq", Some("A1"))],
        ),
        vec![c],
    );
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 5]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![skill("berserk"), nothing(), nothing()]),
        &mut d,
    ));
    DustTactics.default_for(&mut st, "axis", &mut d);
    accepted(&cmd(
        &mut st,
        "allies",
        Command::First {
            side: "allies".into(),
        },
        &mut d,
    ));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![skill("berserk"), nothing(), nothing()]),
        &mut d,
    );
    assert!(refused(&out).0.contains("already used berserk"));
}

#[test]
fn heroes_004_a_hero_may_enter_onto_a_friendly_unit_square() {
    // 004 "Heroes": heroes may share a space with any friendly unit.
    let hero = card("joe", UnitType::Hero, 3, 2, vec![]);
    let s = scenario(
        vec![
            unit("a1", "sq", Some("E9")),
            unit("joe", "joe", None),
            unit("a2", "sq", None),
        ],
        vec![unit("x1", "sq", Some("A1"))],
    );
    let mut st = start(s, vec![squad("sq"), hero]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("joe", vec![mv("E9"), nothing()]),
        &mut d,
    ));
    assert_eq!(u(&st, "joe").at, Some(sq("E9")));
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut d,
    ));
    let out = cmd(
        &mut st,
        "allies",
        activate("a2", vec![mv("E9"), nothing()]),
        &mut d,
    );
    assert!(refused(&out).0.contains("E9 is occupied"));
}

#[test]
fn heroes_004_hero_weapons_fire_with_the_squad_and_berserk_is_shared() {
    // 004 "Heroes": the hero's weapons fire with the squad's; 004 "Berserk": a hero with it
    // shares it with the squad he joins.
    let hero = with_skill(
        card(
            "joe",
            UnitType::Hero,
            3,
            2,
            vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
        ),
        "berserk",
        Some(1),
    );
    let mut s = scenario(
        vec![unit("a1", "sq", Some("E5")), unit("joe", "joe", None)],
        vec![unit("x1", "sq", Some("E2"))],
    );
    s.sides[0].units[1].joins = Some("a1".into());
    let mut st = start(s, vec![squad("sq"), hero]);
    begin(&mut st, "allies");
    let act = Command::Activate {
        unit: "a1".into(),
        actions: vec![
            skill("berserk"),
            Action::Attack {
                fire: vec![fire("gun", "x1"), fire("pistol", "x1")],
            },
            nothing(),
        ],
    };
    let mut d = ScriptedDice::new([1, 1, 1, 1, 2]);
    let out = cmd(&mut st, "allies", act, &mut d);
    accepted(&out);
    let t = texts(&out);
    assert!(t.contains("a1 fires gun (4 carriers, berserk)"), "{t}");
    assert!(t.contains("joe fires pistol (1 carrier, berserk)"), "{t}");
    assert_eq!(u(&st, "joe").skills_used["berserk"], 1);
    assert!(u(&st, "x1").destroyed);
}

#[test]
fn vp_004_scenario_points_for_an_objective_held_at_the_end() {
    // 004 "Victory points": VP are the AP destroyed plus scenario bonus VPs.
    let mut s = objectives(
        scenario(
            vec![unit("a1", "sq", Some("E5"))],
            vec![unit("x1", "sq", Some("A1"))],
        ),
        vec![Objective::Points {
            at: sq("E5"),
            points: 3,
        }],
    );
    s.rounds = 1;
    let mut st = start(s, vec![squad("sq")]);
    begin(&mut st, "allies");
    let mut d = ScriptedDice::new([]);
    DustTactics.default_for(&mut st, "allies", &mut d);
    let out = DustTactics.default_for(&mut st, "axis", &mut d);
    let res = out.finished.expect("finished");
    assert_eq!(res.points["allies"], 3);
    assert_eq!(res.points["axis"], 0);
    assert_eq!(res.winner.as_deref(), Some("allies"));
}

#[test]
fn reactive_004_an_activated_unit_cannot_react() {
    // 004 "Reactive fire": only units not yet activated this round.
    let s = scenario(
        vec![unit("a1", "sq", Some("E5")), unit("a2", "sq", Some("A9"))],
        vec![unit("x1", "sq", Some("E2")), unit("x2", "sq", Some("I1"))],
    );
    let mut st = start(s, vec![squad("sq")]);
    begin(&mut st, "axis");
    let mut d = ScriptedDice::new([]);
    accepted(&cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut d,
    ));
    // a1 moves within range of x1 (activated) and out of x2's range: no window.
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E4"), nothing()]),
        &mut d,
    ));
    assert_eq!(awaited(&st), vec![("axis".into(), "activate".into())]);
}

#[test]
fn limited_ammo_000_no_more_limited_weapons_per_attack_than_models() {
    // 000 "Limited ammo weapons": no more limited ammo weapons per round than miniatures.
    let mut c = card("sq2", UnitType::Squad, 2, 1, vec![]);
    for id in ["pf", "demo"] {
        let mut w = weapon(id, WeaponRange::Upto(3), 1, 1);
        w.ammo = Some(2);
        w.carriers = Some(2);
        c.weapons.push(w);
    }
    let mut st = start(
        scenario(
            vec![unit("a1", "sq2", Some("E5"))],
            vec![unit("x1", "sq", Some("E3"))],
        ),
        vec![c, squad("sq")],
    );
    begin(&mut st, "allies");
    let act = Command::Activate {
        unit: "a1".into(),
        actions: vec![
            Action::Attack {
                fire: vec![fire("pf", "x1"), fire("demo", "x1")],
            },
            nothing(),
        ],
    };
    let out = cmd(&mut st, "allies", act, &mut ScriptedDice::new([]));
    assert!(refused(&out)
        .0
        .contains("4 limited-ammo weapons but only 2"));
}

#[test]
fn skill_tank_head_000_a_joined_hero_uses_it_and_the_squad_spends_the_action() {
    // 000 "Tank Head": when the hero is joined, the whole squad spends the action.
    let hero = with_skill(
        card("joe", UnitType::Hero, 3, 2, vec![]),
        "tank-head",
        Some(1),
    );
    let tank = card("tank", UnitType::Vehicle, 5, 1, vec![]);
    let mut s = scenario(
        vec![
            unit("a1", "sq", Some("E5")),
            unit("joe", "joe", None),
            unit("t", "tank", Some("F5")),
        ],
        vec![unit("x1", "sq", Some("A1"))],
    );
    s.sides[0].units[1].joins = Some("a1".into());
    let mut st = start(s, vec![squad("sq"), hero, tank]);
    st.unit_mut("t").unwrap().health = 1;
    begin(&mut st, "allies");
    let act = activate(
        "a1",
        vec![
            Action::Skill {
                name: "tank-head".into(),
                target: Some(TargetRef::Unit("t".into())),
            },
            nothing(),
        ],
    );
    accepted(&cmd(&mut st, "allies", act, &mut ScriptedDice::new([])));
    assert_eq!(u(&st, "t").health, 5);
    assert!(u(&st, "a1").activated && u(&st, "joe").activated);
}
