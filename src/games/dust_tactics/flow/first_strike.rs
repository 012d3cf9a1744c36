//! 002 "First Strike" under battlefront-2013 (R731): "A Unit with the First Strike Skill resolves
//! all their Close-Combat Attacks and applies the results (including removing eliminated
//! miniatures) before the enemy Units make their Close-Combat Attacks." An attacker with it has
//! its casualties removed before the defenders retaliate; a defender with it retaliates, and its
//! casualties are removed, before the attacker's range C lines are rolled. Both with it: the
//! usual simultaneous exchange.

use super::*;
use crate::dust_tactics::battlefront::skills002::Skill002;

/// Whether unit `id` strikes first: battlefront-2013 and the skill on the card of every unit of
/// its group ("does not share it with any Unit they Join nor with Heroes that Join this Unit").
pub(super) fn strikes(state: &State, id: &str) -> bool {
    let has = |m: &String| {
        state
            .unit(m)
            .and_then(|u| state.cards.get(&u.card))
            .is_some_and(|c| c.has_skill(Skill002::FirstStrike.id()))
    };
    let g = group(state, id);
    state.rules().battlefront() && !g.is_empty() && g.iter().all(has)
}

/// Whether `attacker`'s close-combat results are applied before `defenders` retaliate: it strikes
/// first and none of them does. Says so in the report.
pub(super) fn attacker_first(
    state: &State,
    attacker: &str,
    defenders: &[String],
    out: &mut Outcome,
) -> bool {
    let first = strikes(state, attacker) && !defenders.iter().any(|d| strikes(state, d));
    if first {
        say(
            out,
            format!("{attacker} strikes first (002 \"First Strike\"): its results are applied before the retaliation"),
        );
    }
    first
}

/// When defenders of the close-combat `lines` strike first and the attacker does not: their
/// retaliations, the removal of casualties, then the attacker's lines (`Step::CloseAfter`).
pub(super) fn defenders_first(
    state: &State,
    lines: &[LineOrder],
    sustained: bool,
    out: &mut Outcome,
) -> Option<Vec<Step>> {
    let attacker = lines.first().and_then(|l| leader_of(state, &l.shooter))?;
    if !state.rules().battlefront() || strikes(state, &attacker) {
        return None;
    }
    let mut first: Vec<String> = vec![];
    for l in lines {
        if let Target::Unit { unit } | Target::Model { unit, .. } = &l.target {
            if strikes(state, unit) && !first.contains(unit) {
                first.push(unit.clone());
            }
        }
    }
    if first.is_empty() {
        return None;
    }
    for d in &first {
        say(
            out,
            format!("{d} strikes first (002 \"First Strike\"): it fights back before {attacker}'s close-combat attack"),
        );
    }
    let mut steps: Vec<Step> = first
        .iter()
        .map(|unit| Step::Retaliate {
            unit: unit.clone(),
            attacker: attacker.clone(),
        })
        .collect();
    steps.push(Step::Remove);
    steps.push(Step::CloseAfter {
        lines: lines.to_vec(),
        sustained,
        struck: first,
    });
    Some(steps)
}
