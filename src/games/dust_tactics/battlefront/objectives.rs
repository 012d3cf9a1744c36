//! 003 §12 "Objective holding rule" (scenarios 2–5) and Grab the Dust's victory (issue 18):
//! an objective is held by a side with a unit other than an Aircraft on it at the end of a turn,
//! on or after turn 3, with no enemy unit within two squares. A `grab` objective wins the game
//! for whichever side holds it (R284). 002 "Mindless Zombie": "Mindless Zombies cannot take
//! Objectives" (R602): such a unit holds nothing, though it still contests as an enemy.

use super::super::geometry::distance;
use super::super::model::{Armour, Square};
use super::super::scenario::Objective;
use super::super::state::State;

/// 003 §12: holding starts "on or after turn 3".
pub const FIRST_HOLDING_TURN: u32 = 3;
/// 003 §12: "no enemy units are within two squares".
pub const ENEMY_CLEAR: u32 = 2;

/// The side holding `at` under 003's rule at the end of the current turn, if one does. Every
/// unit counts as an enemy of another side's, aircraft included (R285: the literal text).
pub fn holder(state: &State, at: Square) -> Option<String> {
    if state.round < FIRST_HOLDING_TURN {
        return None;
    }
    let on = state.units.iter().find(|u| {
        !u.destroyed
            && u.at == Some(at)
            && !state.card_of(u).is_some_and(|c| {
                matches!(c.armour, Armour::Aircraft(_))
                    || c.has_skill(super::skills002::Skill002::MindlessZombie.id())
            })
    })?;
    let contested = state.units.iter().any(|u| {
        !u.destroyed && u.side != on.side && u.at.is_some_and(|s| distance(s, at) <= ENEMY_CLEAR)
    });
    (!contested).then(|| on.side.clone())
}

/// The first `grab` objective (in scenario order) held at the end of this turn, and its holder:
/// 003 Grab the Dust, "take any objective" wins at once.
pub fn grabbed(state: &State) -> Option<(String, Square)> {
    state.scenario.objectives.iter().find_map(|o| match o {
        Objective::Grab { at, side } => holder(state, *at)
            .filter(|h| side.as_ref().is_none_or(|s| s == h))
            .map(|h| (h, *at)),
        _ => None,
    })
}

/// How a `grab` objective is won, as the briefings say it (one sentence).
pub fn grab_text(at: Square, side: Option<&str>) -> String {
    let who = side.map_or("Either side".to_string(), str::to_string);
    format!(
        "{who} wins at once at the end of a round, from round {FIRST_HOLDING_TURN} on, \
         with a unit (not an aircraft) on {at} and no enemy unit within {ENEMY_CLEAR} squares of it \
         (003 §12)."
    )
}
