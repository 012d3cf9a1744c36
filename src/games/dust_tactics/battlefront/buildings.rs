//! 003 "Walls and Buildings" and "Line of Sight Through Openings" under battlefront-2013
//! (issue 18; rulings R614–R616). A building is the scenario's `[[structures]]` entry of kind
//! `building` (the ffg structures' data form, R500): its outline is board walls but for its
//! openings (`entrances`, `large` or `small`), so movement through openings is the shared
//! engine's (infantry through any, vehicles through large ones, R501) and 003's line of sight
//! (`sight.rs`) already passes only through openings. What 003 adds is here: "A unit outside a
//! building can only attack a unit inside the building if the target unit is adjacent to the
//! opening the unit is attacking through. A unit inside a building can only attack a unit
//! outside the building if the attacking unit is adjacent to the opening that it is attacking
//! through."

use super::sight;
use crate::dust_tactics::geometry::{Occupancy, Sight, Sighter};
use crate::dust_tactics::model::{Board, Square};
use crate::dust_tactics::structures::{self, Structure, StructureKind};

/// The citation of the rule this module plays.
pub const CITE: &str = "003 \"Check Line of Sight\": \"A unit outside a building can only attack a unit inside the building if the target unit is adjacent to the opening the unit is attacking through\" (R615)";

/// Why a unit on `shooter` may not attack one on `target` because of a building (R615); `None`
/// when it may. Between two squares of one building the normal rules hold. Otherwise each end
/// inside a building must be the square an opening of it is on, and a 003 line of sight must run
/// through that opening: every other opening of the building is walled for the check.
pub fn fire_block(
    board: &Board,
    occ: &Occupancy,
    shooter: Sighter,
    target: Sighter,
) -> Option<String> {
    if board.structures.is_empty() {
        return None;
    }
    let si = structures::structure_at(board, shooter.square);
    let ti = structures::structure_at(board, target.square);
    if let (Some(a), Some(b)) = (si, ti) {
        if a.id == b.id {
            return None;
        }
    }
    let mut b = board.clone();
    for (s, at) in [(si, shooter.square), (ti, target.square)] {
        let Some(s) = s else { continue };
        if !s.entrances.iter().any(|e| e.at == at) {
            let whose = if at == shooter.square {
                "the attacking unit"
            } else {
                "the target"
            };
            return Some(format!(
                "{at} is inside the building {} and next to none of its openings ({}): {whose} must be on a square an opening is on",
                s.id,
                structures::entrances_text(s)
            ));
        }
        wall_other_openings(&mut b, s, at);
    }
    // Only the building's openings are asked here; strongpoints block in the main sight check.
    match sight::line_of_sight(&b, occ, &[], shooter, target) {
        Sight::Clear => None,
        Sight::Blocked { .. } => Some(format!(
            "no line from {} to {} runs through an opening on the edge of the square inside the building",
            shooter.square, target.square
        )),
    }
}

/// Walls every opening of `s` but those on square `at`, so a line must use `at`'s own.
fn wall_other_openings(board: &mut Board, s: &Structure, at: Square) {
    for e in s.entrances.iter().filter(|e| e.at != at) {
        let _ = board.add_wall(e.at, e.to);
    }
}

/// Under battlefront-2013 (`bf`) a structure is one of 003's buildings (R614): 004's bunkers and
/// Quonset huts are other rules (002's bunkers are scenario fortifications, R780).
pub fn check_kind(bf: bool, s: &Structure) -> Result<(), String> {
    // 003 gives its buildings no upper floors: 004's floors and roofs (R514–R517) are not its
    // rules, so they are never played here (R236).
    if bf && s.floors > 1 {
        return Err(format!(
            "`{}` has {} floors: 003's buildings have one, and 004's floors and roofs are {} (R236); write floors = 1 or play the ffg-revised ruleset",
            s.id,
            s.floors,
            super::NOT_YET
        ));
    }
    if !bf || s.kind == StructureKind::Building {
        return Ok(());
    }
    Err(format!(
        "`{}` is a {}: under battlefront-2013 a structure is one of 003's buildings (\"Walls and Buildings\"; R614): write kind = \"building\"",
        s.id,
        s.kind.name()
    ))
}
