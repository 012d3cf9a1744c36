//! 002 "Engineering Vehicles", "Dozer Blades" and the equipment "Dozer Blade" and "Engineer
//! Vehicle" under battlefront-2013 (issue 18, R785–R788): a vehicle card with `dozer-blade`
//! takes the Dozer Special Action (`skill dozer`: in Cover until it moves) and the engineering
//! tasks of a dozer blade (`skill engineering at <square>`: clear a minefield, fill a trench, and
//! with two actions one after the other bury a bunker). "Chainsaws and Claws" need 002's Cutting
//! and Grapple weapons, which no card carries: an engineer vehicle's line at barbed wire is
//! refused naming them. Planned and run by `flow::engineering_vehicle`.

use super::super::model::{Cover, Square, UnitType};
use super::super::skill::Skill;
use super::super::state::State;

/// The Dozer Special Action's name on a `skill` line.
pub const DOZER: &str = "dozer";
/// The section refusals and reports cite.
pub const CITE: &str = "002 \"Engineering Vehicles\"";
/// The sentence of the equipment "Dozer Blade".
pub const DOZER_CITE: &str = "002 \"Dozer Blade\": \"A Vehicle equipped with a Dozer Blade can perform a Dozer Special Action to gain Cover until it performs a Move or March Move Action\"";

/// Whether the card of `id` carries `skill`.
fn has(state: &State, id: &str, skill: Skill) -> bool {
    state
        .unit(id)
        .and_then(|u| state.cards.get(&u.card))
        .is_some_and(|c| c.unit_type == UnitType::Vehicle && c.has(skill))
}

/// A vehicle with a Dozer Blade (002: "can also perform engineering tasks", R785).
pub fn dozer(state: &State, id: &str) -> bool {
    has(state, id, Skill::DozerBlade)
}

/// A vehicle that performs engineering tasks: an Engineer Vehicle, or one with a Dozer Blade.
pub fn engineer(state: &State, id: &str) -> bool {
    dozer(state, id) || has(state, id, Skill::EngineerVehicle)
}

/// "until it performs a Move or March Move Action": a move ends the Dozer's Cover (R786).
/// Returns whether it had it.
pub fn moved(state: &mut State, id: &str) -> bool {
    state
        .unit_mut(id)
        .map(|u| std::mem::take(&mut u.dozed))
        .unwrap_or(false)
}

/// A vehicle on `at` that took the Dozer Special Action is in Cover (R786).
pub fn cover(state: &State, at: Square, target: UnitType, cover: Cover) -> Cover {
    let dozed = state
        .units
        .iter()
        .any(|u| u.dozed && !u.destroyed && u.at == Some(at));
    if target == UnitType::Vehicle && dozed && cover == Cover::None {
        Cover::Soft
    } else {
        cover
    }
}
