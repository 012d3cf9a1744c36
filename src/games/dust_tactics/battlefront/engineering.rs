//! 002 "Engineering Vehicles", "Dozer Blades" and the equipment "Dozer Blade" and "Engineer
//! Vehicle" under battlefront-2013 (issue 18, R785–R788): a vehicle card with `dozer-blade`
//! takes the Dozer Special Action (`skill dozer`: in Cover until it moves) and the engineering
//! tasks of a dozer blade (`skill engineering at <square>`: clear a minefield, fill a trench, and
//! with two actions one after the other bury a bunker). "Chainsaws and Claws": an engineer vehicle
//! with a Cutting or Grapple weapon cuts barbed wire, with two dice when it has a pair (R809).
//! Planned and run by
//! `flow::engineering_vehicle`.

use std::collections::BTreeSet;

use super::super::model::{Cover, Square, UnitType, WeaponTrait};
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

/// The sentence of 002 "Chainsaws and Claws" that refusals and reports cite.
pub const CHAINSAWS_CITE: &str = "002 \"Chainsaws and Claws\": \"An Engineer Vehicle equipped with Cuttings or Grappling weapons can attempt to cut a gap through an adjacent Barbed Wire Entanglement by taking an Engineering Special Action. If it does so, roll a die (Vehicles with Paired Chainsaws or Paired Claws roll two dice)\"";

/// 002 "Chainsaws and Claws" (R809): how many dice an engineer vehicle rolls to cut wire: none
/// without a Cutting or Grapple weapon, one with one, two with a pair ("Paired Chainsaws" or
/// "Paired Claws": two such weapons on the card; lines sharing a name are one weapon, as dual-ammo lines are, R420).
pub fn wire_dice(state: &State, id: &str) -> usize {
    if !engineer(state, id) {
        return 0;
    }
    let Some(card) = state.unit(id).and_then(|u| state.cards.get(&u.card)) else {
        return 0;
    };
    let saws: BTreeSet<&str> = card
        .weapons
        .iter()
        .filter(|w| {
            w.traits.contains(&WeaponTrait::Cutting) || w.traits.contains(&WeaponTrait::Grapple)
        })
        .map(|w| w.name.as_str())
        .collect();
    saws.len().min(2)
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
