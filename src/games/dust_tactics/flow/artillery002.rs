//! 002 "Artillery Weapons" and "Reload Weapons" under battlefront-2013 (issue 18; rulings
//! R690–R692). The Loaded token and `skill reload` are 004's (`artillery.rs`); what 002 words
//! differently is here: a range `A` line reaches 2-U (003 "Artillery Range (A)"), vehicles do not
//! block its line of sight, and it does not fire from inside area terrain (buildings, woods).
//! Every function is a no-op outside battlefront-2013.

use super::*;
use std::borrow::Cow;

/// 002 "Reload Weapons", the citation of a refusal about the Loaded token (R690).
pub(super) const RELOAD_002: &str = "002 \"Reload Weapons\": \"The Unit cannot attack with any Reload weapons unless it has its Loaded token ... To reload, the Unit performs a Reload Special Action and places the Loaded token back on the Unit Card\" (R690)";

/// 002 "Artillery Weapons", the citation of a refusal about where artillery fires from (R692).
const FROM_002: &str = "002 \"Artillery Weapons\": \"Artillery weapons cannot be fired from inside Area Terrain like buildings or woods\" (R692)";

/// Whether `w` is 002's artillery weapon in this game: a range `A` line under battlefront-2013
/// (003 "Artillery Range (A)": "These have a Range of 2-U and the Artillery special rule", R691).
pub(super) fn bf_artillery(state: &State, w: &WeaponLine) -> bool {
    state.rules().battlefront() && w.range == WeaponRange::Artillery
}

/// Whether `w` reaches `dist` squares: a battlefront artillery line 2 to unlimited (R691), any
/// other line as the engine reads its range.
pub(super) fn in_range(state: &State, w: &WeaponLine, dist: u32) -> bool {
    if bf_artillery(state, w) {
        return dist >= 2;
    }
    geometry::in_range(w.range, dist)
}

/// The occupancy a battlefront artillery line's sight is drawn through: without vehicles (002:
/// "An Artillery weapon can shoot over Vehicles, so Vehicles do not block Line of Sight", R691);
/// `occ` itself for every other line.
pub(super) fn sight_occ<'a>(
    state: &State,
    w: &WeaponLine,
    occ: &'a Occupancy,
) -> Cow<'a, Occupancy> {
    if !bf_artillery(state, w) {
        return Cow::Borrowed(occ);
    }
    let mut o = occ.clone();
    for v in o.values_mut() {
        v.retain(|x| x.unit_type != UnitType::Vehicle);
    }
    Cow::Owned(o)
}

/// Refuses a battlefront artillery line fired from a square of area terrain: trees (woods) or a
/// building (R692). A unit on one square has its weapon where it stands; a Huge vehicle fires
/// from the square of its block the engine draws the attack from (`large::attack_pair`).
pub(super) fn check_fire_from(state: &State, w: &WeaponLine, from: Square) -> Result<(), Refusal> {
    if !bf_artillery(state, w) {
        return Ok(());
    }
    let board = &state.scenario.board;
    let inside = if board.terrain(from) == model::Terrain::Trees {
        format!("the woods (trees) on {from}")
    } else if super::super::structures::inside(board, from, false).is_some() {
        format!("the building on {from}")
    } else {
        return Ok(());
    };
    Err(Refusal {
        reason: format!(
            "{} is an artillery weapon and fires from inside {inside}",
            w.name
        ),
        rule: FROM_002.to_string(),
        instead: "move out of the woods or the building first, then attack".to_string(),
    })
}
