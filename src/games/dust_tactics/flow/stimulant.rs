//! 004 "NCO Command Squads", Field Medic: "Stimulant Kit (SKILL). Once per game, inject a soldier
//! unit in an adjacent space with combat drugs. The next time that squad is activated, it can
//! perform 4 actions that round (in any combination). If the squad performs 2 consecutive ATTACK
//! actions against the same target, it is a SUSTAINED ATTACK. The squad can perform 2 ATTACK
//! actions against the same target as long as the ATTACK actions are not consecutive. At the end
//! of its activation the squad is exhausted … While exhausted, the unit cannot be reactivated by
//! any command squad, cannot perform any action, and cannot fight back if attacked in close
//! combat. The next time it is activated, it costs the unit both its actions to stand upright.
//! A hero joined with a unit that is injected is also injected. A lone hero can be injected
//! instead of a squad." (R477).

use super::activation::Kind;
use super::command::Order;
use super::*;

const RULE: RuleId = RuleId::NcoCommandSquads;

/// Whether `id` (or the unit it is joined to) is exhausted: it does nothing until it stands.
pub(super) fn exhausted(state: &State, id: &str) -> bool {
    state.unit(id).is_some_and(|u| u.exhausted)
}

impl Planner<'_> {
    /// The target checks of `skill stimulant-kit at <unit>` besides a command squad's (the
    /// field medic alive, one attempt a round, a friendly unit on the board, adjacent, no
    /// command squad): once per game, a soldier unit, given to the squad a hero is joined to.
    pub(super) fn stimulant_check(&self, t: &UnitState) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let name = Order::StimulantKit.id();
        if u.skills_used.get(name).copied().unwrap_or(0) > 0 {
            return refuse(
                format!("{} has already used Stimulant Kit: once per game", u.id),
                RULE.with("Stimulant Kit (SKILL). Once per game"),
                "give another order",
            );
        }
        if unit_type(state, &t.id) == UnitType::Vehicle {
            return refuse(
                format!("{} is a vehicle: Stimulant Kit injects soldiers", t.id),
                RULE.with("inject a soldier unit in an adjacent space with combat drugs"),
                "give the order to an adjacent squad or hero",
            );
        }
        if let Some(lead) = t.joined.as_ref().filter(|l| *l != &t.id) {
            return refuse(
                format!(
                    "{} is joined to {lead}: the squad is injected, and he with it",
                    t.id
                ),
                RULE.with("a hero joined with a unit that is injected is also injected"),
                format!("skill {name} at {lead}"),
            );
        }
        Ok(())
    }

    /// The actions of an injected or exhausted unit's activation (R477): `Some` when they
    /// differ from 004 "Actions"' pairs. Injected: four actions (a SUSTAINED ATTACK is two), no
    /// two ATTACK actions in a row; two actions remain a legal activation too. Exhausted: only
    /// `nothing` + `nothing`, which stands it upright.
    pub(super) fn stimulant_sequence(&self) -> Option<Result<(), Refusal>> {
        let (u, kinds) = (self.u, &self.kinds);
        if u.exhausted {
            if kinds.as_slice() == [Kind::Nothing, Kind::Nothing] {
                return None;
            }
            return Some(refuse(
                format!(
                    "{} is exhausted: this activation costs both its actions to stand upright",
                    u.id
                ),
                RULE.with("the next time it is activated, it costs the unit both its actions to stand upright"),
                "nothing + nothing",
            ));
        }
        if !u.stimulated {
            return None;
        }
        let count: usize = kinds
            .iter()
            .map(|k| if *k == Kind::Sustained { 2 } else { 1 })
            .sum();
        if count <= 2 {
            return None;
        }
        let attacks = |k: &Kind| matches!(k, Kind::Attack | Kind::Sustained);
        if kinds.windows(2).any(|w| attacks(&w[0]) && attacks(&w[1])) {
            return Some(refuse(
                format!("{}: two ATTACK actions in a row are a SUSTAINED ATTACK", u.id),
                RULE.with("if the squad performs 2 consecutive ATTACK actions against the same target, it is a SUSTAINED ATTACK"),
                "one `sustained` line for two attacks in a row, or another action between two `attack` lines",
            ));
        }
        if count != 4 || u.at.is_none() {
            return Some(refuse(
                format!(
                    "{} is injected: its activation is 4 actions (a SUSTAINED ATTACK counts 2), or 2 as usual; {count} declared ({})",
                    u.id,
                    self.texts.join(", ")
                ),
                RULE.with("the next time that squad is activated, it can perform 4 actions that round (in any combination)"),
                "four action lines, e.g. move, attack, move, attack",
            ));
        }
        Some(Ok(()))
    }
}

/// Injects the unit `target` and its joined hero; the order is spent for the game.
pub(super) fn exec_stimulant(state: &mut State, lead: &str, target: &str, out: &mut Outcome) {
    if let Some(x) = state.unit_mut(lead) {
        *x.skills_used
            .entry(Order::StimulantKit.id().to_string())
            .or_insert(0) += 1;
    }
    for m in group(state, target) {
        if let Some(x) = state.unit_mut(&m) {
            x.stimulated = true;
        }
    }
    say(
        out,
        format!("Stimulant Kit: {lead}'s field medic injects {target}: its next activation may be 4 actions, and leaves it exhausted"),
    );
}

/// As an activation of `lead`'s group is committed: an exhausted unit stands upright, an
/// injected one will be exhausted when it ends (nothing can act on it in between).
pub(super) fn commit(state: &mut State, lead: &str, out: &mut Outcome) {
    let members = group(state, lead);
    let (was_exhausted, was_stimulated) = state
        .unit(lead)
        .map(|u| (u.exhausted, u.stimulated))
        .unwrap_or_default();
    for m in &members {
        if let Some(x) = state.unit_mut(m) {
            if was_exhausted {
                x.exhausted = false;
            } else if was_stimulated {
                x.stimulated = false;
                x.exhausted = true;
            }
        }
    }
    if was_exhausted {
        say(out, format!("{lead} stands upright: no longer exhausted"));
    } else if was_stimulated {
        say(
            out,
            format!("{lead} uses its stimulants: exhausted at the end of this activation"),
        );
    }
}
