//! 002's skills built in session 8 (issue 18, fourth batch), under battlefront-2013 only (R581):
//! Lucky (R760), Infantry Ace (R761). The planner's side is `flow/skills002_d.rs`.

use super::skills002::Skill002;
use crate::dust_tactics::model::UnitType;
use crate::dust_tactics::state::{ActFlags, State};

/// The purpose of the dice Lucky re-rolls (`dice::RollKind::of_purpose` reads it as a to-hit
/// roll).
pub const LUCKY_REROLL: &str = "lucky re-roll";

/// The 002 skills a `skill <name>` line declares (003 "Skills": "Declare a skill before rolling
/// any dice it affects"), without taking an action.
pub const DECLARED: &[Skill002] = &[Skill002::Lucky];

/// The 002 skill a `skill` line names, if it is one a line declares.
pub fn declares(name: &str) -> Option<Skill002> {
    DECLARED
        .iter()
        .copied()
        .find(|s| s.id().eq_ignore_ascii_case(name))
}

/// Whether unit `id` is a hero whose own card carries `skill`.
fn hero_with(state: &State, id: &str, skill: Skill002) -> bool {
    state
        .unit(id)
        .and_then(|u| state.card_of(u))
        .is_some_and(|c| c.unit_type == UnitType::Hero && c.has_skill(skill.id()))
}

/// The hero of the activating group of `id` (the unit itself, or the hero that joined it) whose
/// own card carries `skill` (002: "A Hero with the ... Skill").
pub fn hero_of_group(state: &State, id: &str, skill: Skill002) -> Option<String> {
    if hero_with(state, id, skill) {
        return Some(id.to_string());
    }
    state
        .hero_of(id)
        .map(|h| h.id.clone())
        .filter(|h| hero_with(state, h, skill))
}

/// Whether the hero `hero` has used Lucky already ("Once per game").
pub fn lucky_spent(state: &State, hero: &str) -> bool {
    state.unit(hero).is_some_and(|u| {
        u.skills_used
            .get(Skill002::Lucky.id())
            .copied()
            .unwrap_or(0)
            > 0
    })
}

/// 002 "Lucky" (R760): whether `shooter`'s line re-rolls its misses: Lucky declared in the
/// activation (`flags`), and the line the hero's own ("A Hero with the Lucky Skill does not
/// share it with any Unit they Join").
pub fn lucky_line(state: &State, flags: &ActFlags, is_active: bool, shooter: &str) -> bool {
    is_active && flags.lucky && hero_with(state, shooter, Skill002::Lucky)
}

/// Counts the declared uses of the activation of `id` as it is committed (once per game).
pub fn commit(state: &mut State, id: &str, flags: &ActFlags) {
    if !flags.lucky {
        return;
    }
    if let Some(h) = hero_of_group(state, id, Skill002::Lucky) {
        if let Some(x) = state.unit_mut(&h) {
            *x.skills_used
                .entry(Skill002::Lucky.id().to_string())
                .or_insert(0) += 1;
        }
    }
}

/// 002 "Infantry Ace" (R761): the hero of the activating group of `id` with the skill, who
/// rolls the die for a third action as the group activates (the Ace Pilot's die, `ace.rs`).
pub fn infantry_ace(state: &State, id: &str) -> Option<String> {
    if !state.rules().battlefront() {
        return None;
    }
    hero_of_group(state, id, Skill002::InfantryAce)
}

/// The skill whose die `act_unit` rolls as it activates: "Ace Pilot" for a piloted vehicle,
/// "Infantry Ace" otherwise (R608, R761).
pub fn ace_title(state: &State, act_unit: &str) -> &'static str {
    if state.pilot_of(act_unit).is_some() {
        "Ace Pilot"
    } else {
        Skill002::InfantryAce.title()
    }
}
