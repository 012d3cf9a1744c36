//! Issue 12: the sentences of 004's and 000's "Command Squads" the first command squad tests
//! (tests/it/rules/command_squads.rs) left without a test of their own: the Medic's Get Up on a
//! hero, never on an eliminated unit nor by relay, and a unit brought back that is eliminated a
//! second time (R211, R213, R549).

use super::command_squads::{
    command_game, command_squad_card, game_under, grenadier_squad, order, v1_destroyed,
};
use crate::support_flow::*;
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::game::ScriptedDice;

/// Allies: command squad `cs` on E5, hero `joe` (health 3) on E4 next to it and hero `ann`
/// (health 3) on A9 far away, both down to 1 health; axis squad `x1` on I1.
fn medic_and_heroes() -> State {
    let hero = card(
        "hero",
        UnitType::Hero,
        3,
        1,
        vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
    );
    let mut st = game_under(
        "ffg-revised",
        vec![
            unit("cs", "cs", Some("E5")),
            unit("joe", "hero", Some("E4")),
            unit("ann", "hero", Some("A9")),
        ],
        vec![unit("x1", "sq", Some("I1"))],
        vec![
            command_squad_card("cs", 2),
            grenadier_squad(),
            hero,
            squad("sq"),
        ],
    );
    for id in ["joe", "ann"] {
        st.unit_mut(id).unwrap().health = 1;
    }
    st
}

#[test]
fn get_up_004_restores_1_health_to_an_adjacent_hero_never_by_relay() {
    // 004 "Command Squads", Medic: "Get Up, It Ain't That Bad (SKILL). Perform 1 SKILL action to
    // either revive 1 miniature in an adjacent squad, or restore 1 [health] to an adjacent
    // hero."; 000 "Command Squads", Medic: "The squad or the hero must be in an adjacent square
    // ... (the Radioman's ability does not work to heal from a distance)." (R211). `ann`, far
    // away, is refused though the radioman lives; `joe`, adjacent, gets 1 health back, no die.
    let mut st = medic_and_heroes();
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("get-up", "ann"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("the radioman's relay does not work for this order"),
        "{reason}"
    );
    assert!(rule.contains("adjacent"), "{rule}");
    assert_eq!(st, before, "a refusal changes nothing");
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("get-up", "joe"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "joe").health, 2, "{}", texts(&out));
    assert_eq!(u(&st, "ann").health, 1);
}

#[test]
fn get_up_004_cannot_be_used_on_an_eliminated_squad_or_hero() {
    // 004 "Command Squads", Medic: "This skill cannot be used on an eliminated squad or hero."
    // (R211). The adjacent squad `gren` has been eliminated: the order is refused, citing the
    // sentence, and nothing changes (Come On Guys is the order that brings a squad back).
    let mut st = command_game("ffg-revised");
    let g = st.unit_mut("gren").unwrap();
    g.destroyed = true;
    g.at = None;
    g.health = 0;
    g.models.clear();
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("get-up", "gren"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("gren is not on the battlefield"),
        "{reason}"
    );
    assert!(
        rule.contains("this skill cannot be used on an eliminated squad or hero"),
        "{rule}"
    );
    assert_eq!(st, before);
}

#[test]
fn command_squads_004_a_repaired_unit_eliminated_a_second_time_counts_again() {
    // 004 "Command Squads": "If a revived/repared unit is eliminated a second time, it counts as
    // another unit being destroyed when calculating VPs." (R213). `v1`, destroyed once (10 AP to
    // the axis), comes back by Field Repair (a 1: a hit), enters on E9, and is destroyed again by
    // `x1` on E7 (a 1: a hit on its last health): the axis count it twice.
    let mut st = v1_destroyed("ffg-revised");
    st.unit_mut("x1").unwrap().at = Some(sq("E7"));
    let ap = st.cards.get("veh").map(|c| c.ap).unwrap_or_default();
    accepted(&cmd(
        &mut st,
        "allies",
        activate("cs", vec![order("field-repair", "v1"), nothing()]),
        &mut ScriptedDice::new([1]),
    ));
    accepted(&cmd(
        &mut st,
        "allies",
        activate("v1", vec![mv("E9"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(
        flow::points(&st, false)["axis"],
        10,
        "the first destruction stays"
    );
    st.unit_mut("v1").unwrap().health = 1;
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![attack("gun", "v1"), nothing()]),
        &mut ScriptedDice::new([1; 8]),
    );
    accepted(&out);
    assert!(u(&st, "v1").destroyed, "{}", texts(&out));
    let twice = st.destroyed.iter().filter(|d| d.unit == "v1").count();
    assert_eq!(twice, 2, "two destructions recorded");
    assert_eq!(flow::points(&st, false)["axis"], 10 + ap);
}
