//! 002's Stunned token under battlefront-2013 and what gives it: Cheat Death (R266, R267) and
//! Tesla weapons (R750). The engine calls these from small marked hooks: the removal of
//! casualties (flow/steps.rs), a line's fire (flow/attack.rs), a Nothing action, close-combat
//! retaliation and the reactive-attack roll.

use super::super::model::{UnitType, WeaponLine, WeaponTrait};
use super::super::orders::Action;
use super::super::skill::Skill;
use super::super::state::{Activation, State};
use super::dice::Symbol;
use crate::dust_tactics::flow::Refusal;
use crate::game::{DiceSource, Happening, Outcome, Roll};

/// The section the refusals and reports cite.
pub const CITE: &str = "002 \"Cheat Death\": \"A Unit with a Stunned token ... must perform a Nothing Action as its first Action, then removes any Stunned tokens\" (R267)";

fn has_cheat_death(state: &State, id: &str) -> bool {
    state
        .unit(id)
        .and_then(|u| state.cards.get(&u.card))
        .is_some_and(|c| {
            c.unit_type == UnitType::Hero
                && c.skills.iter().any(|s| s.name == Skill::CheatDeath.id())
        })
}

/// 002 "Cheat Death": "If a Hero with Cheat Death is eliminated, roll a die at the end of the
/// Action. On a roll of [army] or [target], the Hero removes one point of Damage and survives, but
/// gains a Stunned token" (R266). Called before the pending damage is removed: a hero it would
/// eliminate rolls; on army or target the damage stops one short (the excess was overkill).
pub fn cheat_death(
    state: &mut State,
    act: &mut Activation,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let ids: Vec<String> = act.damage.keys().cloned().collect();
    for id in ids {
        if !has_cheat_death(state, &id) {
            continue;
        }
        let Some(health) = state.unit(&id).filter(|u| !u.destroyed).map(|u| u.health) else {
            continue;
        };
        let Some(p) = act.damage.get_mut(&id) else {
            continue;
        };
        let hero_points = p.points + p.sniped.len() as u32;
        if !p.eliminate && hero_points < u32::from(health) {
            continue;
        }
        let round = state.round;
        let face = dice.d6(round);
        let saved = matches!(Symbol::of_face(face), Symbol::Army | Symbol::Target);
        if saved {
            p.eliminate = false;
            p.sniped.clear();
            p.points = u32::from(health.saturating_sub(1));
        }
        let h = Happening {
            rolls: vec![Roll {
                purpose: format!("cheat death for {id}"),
                round,
                faces: vec![face],
            }],
            ..Happening::text(if saved {
                format!("Cheat Death (002): {id} would be eliminated; army or target rolled: {id} survives with 1 damage point left and is Stunned")
            } else {
                format!(
                    "Cheat Death (002): {id} would be eliminated; shield rolled: the damage stands"
                )
            })
        };
        out.happenings.push(h);
        if saved {
            if let Some(u) = state.unit_mut(&id) {
                u.stunned = true;
            }
        }
    }
}

/// A stunned unit's activation must begin with a Nothing action (002 "Stunned").
pub fn check_activation(state: &State, unit: &str, actions: &[Action]) -> Option<Refusal> {
    let stunned = state.unit(unit).is_some_and(|u| u.stunned);
    (stunned && !matches!(actions.first(), Some(Action::Nothing))).then(|| Refusal {
        reason: format!("{unit} is Stunned: its first action must be `nothing`, which removes the Stunned token"),
        rule: CITE.to_string(),
        instead: format!("activate {unit}\n  nothing\n  <one more action>"),
    })
}

/// The Nothing action of a stunned unit removes its Stunned token.
pub fn recover(state: &mut State, unit: &str, out: &mut Outcome) {
    if let Some(u) = state.unit_mut(unit).filter(|u| u.stunned) {
        u.stunned = false;
        super::grapple::freed(state, unit);
        out.happenings.push(Happening::text(format!(
            "{unit} takes a Nothing action and removes its Stunned token (002)"
        )));
    }
}

/// 002: "A Unit with a Stunned token cannot fight, including fighting back if attacked in Close
/// Combat."
pub fn cannot_fight(state: &State, unit: &str) -> bool {
    state.rules().battlefront() && state.unit(unit).is_some_and(|u| u.stunned)
}

/// 002: "If a Unit with a Stunned token attempts a Reactive Attack, it rolls a single die rather
/// than two ... but removes the Stunned token whether or not it succeeds": the dice to roll, and
/// the token removed.
pub fn reactive_dice(state: &mut State, unit: &str) -> usize {
    match state.unit_mut(unit).filter(|u| u.stunned) {
        Some(u) => {
            u.stunned = false;
            super::grapple::freed(state, unit);
            1
        }
        None => 2,
    }
}

/// 002 "Tesla Weapons": "When a Unit is Hit by a Tesla weapon, place a Stunned token with the
/// Unit or on the Unit Card." (R750): a Tesla line that scores at least one hit on `unit`, saved
/// or not, stuns it; 004's chain, cover and explosion are not played.
pub fn tesla_hit(state: &mut State, w: &WeaponLine, unit: &str, hits: u32, out: &mut Outcome) {
    if hits == 0 || !state.rules().battlefront() || !w.traits.contains(&WeaponTrait::Tesla) {
        return;
    }
    let Some(u) = state.unit_mut(unit).filter(|u| !u.destroyed) else {
        return;
    };
    let again = if std::mem::replace(&mut u.stunned, true) {
        " (it already had one: a unit has at most one)"
    } else {
        ""
    };
    out.happenings.push(Happening::text(format!(
        "{unit} is hit by the Tesla weapon {} and receives a Stunned token{again}: it cannot fight, and its next activation begins with a Nothing action (002 \"Tesla Weapons\")",
        w.name
    )));
}
