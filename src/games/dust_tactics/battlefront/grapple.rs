//! 002 "Grapple Weapons" under battlefront-2013 (issue 18, R812–R814): "When a Grapple weapon
//! scores a Hit, place a Stunned token on the target Unit. Remove the Stunned token if the Unit
//! with the Grapple weapon takes an Action other than a Nothing Action." The grip is
//! `State::grips` (gripped unit → grappler); the engine calls these from small marked hooks: a
//! line's fire (flow/attack.rs), every step of an activation (flow/steps.rs), a unit's
//! destruction (flow/casualties.rs) and the Stunned token's removal (stunned.rs).

use super::super::model::{WeaponLine, WeaponTrait};
use super::super::state::{State, Step};
use crate::game::{Happening, Outcome};

/// The sentence the reports cite.
pub const CITE: &str = "002 \"Grapple Weapons\"";

/// A hit by a Grapple line puts a Stunned token on the target and records the grip (R812): a
/// hit, saved or not, as a Tesla weapon's (R750). A new grip replaces an older one.
pub fn hit(
    state: &mut State,
    w: &WeaponLine,
    target: &str,
    grappler: &str,
    hits: u32,
    out: &mut Outcome,
) {
    if hits == 0 || !state.rules().battlefront() || !w.traits.contains(&WeaponTrait::Grapple) {
        return;
    }
    let Some(u) = state.unit_mut(target).filter(|u| !u.destroyed) else {
        return;
    };
    u.stunned = true;
    state.grips.insert(target.to_string(), grappler.to_string());
    out.happenings.push(Happening::text(format!(
        "{grappler}'s Grapple weapon {} has a grip on {target}: it receives a Stunned token, cannot fight, and its next activation begins with a Nothing action; the token goes if {grappler} takes an action other than Nothing ({CITE})",
        w.name
    )));
}

/// The gripped unit cleared its Stunned token (its Nothing action, a reactive roll): the grip
/// ends with it (R813).
pub fn freed(state: &mut State, unit: &str) {
    state.grips.remove(unit);
}

/// `grappler` lets go of every unit it grips; `why` ends the report sentence.
fn let_go(state: &mut State, grappler: &str, why: &str, out: &mut Outcome) {
    let held: Vec<String> = state
        .grips
        .iter()
        .filter(|(_, g)| g.as_str() == grappler)
        .map(|(t, _)| t.clone())
        .collect();
    for t in held {
        state.grips.remove(&t);
        if let Some(u) = state.unit_mut(&t).filter(|u| u.stunned && !u.destroyed) {
            u.stunned = false;
            out.happenings.push(Happening::text(format!(
                "{grappler} lets go of {t}{why}: {t}'s Stunned token is removed ({CITE})"
            )));
        }
    }
}

/// Every step of an activation: a step that begins an action other than Nothing makes the
/// active unit (and the units joined to it) let go (R813). The stages an Attack expands into,
/// the removal of casualties, retaliation and the windows are no new action.
pub fn on_step(state: &mut State, lead: &str, step: &Step, out: &mut Outcome) {
    if state.grips.is_empty() {
        return;
    }
    let units: Vec<String> = match step {
        Step::Nothing
        | Step::Fire { .. }
        | Step::Close { .. }
        | Step::CloseAfter { .. }
        | Step::Remove
        | Step::Retaliate { .. }
        | Step::Window
        | Step::Serum { .. }
        | Step::Detach { .. }
        | Step::AcePilot { .. }
        | Step::AceExtra
        | Step::SuppressionRoll
        | Step::SuppressionCut
        | Step::SpyCut => return,
        Step::Attack { lines, .. } => lines.iter().map(|l| l.shooter.clone()).collect(),
        _ => {
            let mut g = vec![lead.to_string()];
            g.extend(state.joined_of(lead).iter().map(|u| u.id.clone()));
            g
        }
    };
    for id in units {
        let_go(state, &id, " as it takes an action other than Nothing", out);
    }
}

/// A destroyed unit grips nothing and is gripped by nothing (R814): an eliminated grappler lets
/// go, its victim's Stunned token removed.
pub fn destroyed(state: &mut State, id: &str, out: &mut Outcome) {
    if state.grips.is_empty() {
        return;
    }
    state.grips.remove(id);
    let_go(state, id, " as it is eliminated", out);
}
