//! Distance, range, movement and line of sight on the board (004 "Movement", "Line of sight").
//!
//! Pure functions over a [`Board`] and an [`Occupancy`]: no dice, no state changes.
//! Movement lives in `geometry/movement.rs`, line of sight and cover in `geometry/los.rs`;
//! both are re-exported here so callers only name `geometry::…`.

use super::model::{Board, Square, UnitId, UnitType, WeaponRange};
use std::collections::BTreeMap;

pub mod domino;
mod los;
mod movement;

pub use los::{
    blocks, cover_explained, cover_for, line_of_sight, line_of_sight_sewers, squares_between,
    CoverReport, CoverSource,
};
pub use movement::{may_stand, plan_move};

/// A unit standing on a square, as geometry needs to know it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occupant {
    pub unit: UnitId,
    pub side: String,
    pub unit_type: UnitType,
    /// An aircraft placed above the battlefield under battlefront-2013 (003 "Aircraft Move Over
    /// Terrain"): its square blocks no ground unit's line of sight (R807).
    pub above: bool,
}

/// Who stands where. A square holds at most one unit, except a hero sharing with a friend.
pub type Occupancy = BTreeMap<Square, Vec<Occupant>>;

/// Distance for movement and range (DESIGN ruling 1): the first diagonal step costs 1, each
/// further one 2; so dx + dy − 1 when both are non-zero, else max(dx, dy).
pub fn distance(a: Square, b: Square) -> u32 {
    let (dx, dy) = a.delta(b);
    let (dx, dy) = (dx as u32, dy as u32);
    if dx > 0 && dy > 0 {
        dx + dy - 1
    } else {
        dx.max(dy)
    }
}

/// Whether a weapon of `range` reaches a target `dist` squares away (004 "Range").
pub fn in_range(range: WeaponRange, dist: u32) -> bool {
    match range {
        WeaponRange::Close => dist == 1,
        WeaponRange::Upto(n) => (1..=n as u32).contains(&dist),
        WeaponRange::Between(lo, hi) => (lo as u32..=hi as u32).contains(&dist),
        WeaponRange::Unlimited => dist >= 1,
        WeaponRange::Artillery => dist >= 4,
    }
}

/// The unit that moves, with the skills that change movement.
#[derive(Debug, Clone)]
pub struct Mover {
    pub unit: UnitId,
    pub side: String,
    pub unit_type: UnitType,
    pub jump: bool,
    pub agile: bool,
    pub tracked: bool,
    /// 004 "Amphibious Unit": may enter water.
    pub amphibious: bool,
    /// 004 "Dozer Blade": a vehicle that may enter an anti-tank trap's square (destroying it).
    pub dozer: bool,
    /// 004 "LARGE VEHICLES": it occupies 4 spaces for all movement purposes; its square is the
    /// footprint's top-left one (R566).
    pub large: bool,
}

/// The squares a unit standing on `anchor` occupies: the anchor alone, or for a large vehicle
/// (004 "LARGE VEHICLES", R566) the anchor and its right, lower and lower-right neighbours.
/// `None` when part of the footprint would be off the board.
pub fn footprint(board: &Board, anchor: Square, large: bool) -> Option<Vec<Square>> {
    if !large {
        return Some(vec![anchor]);
    }
    [(0, 0), (1, 0), (0, 1), (1, 1)]
        .into_iter()
        .map(|(dx, dy)| board.square(anchor.col() as i32 + dx, anchor.row() as i32 + dy))
        .collect()
}

/// The least distance between two sets of squares (range to or from a large vehicle, R567).
pub fn least_distance(from: &[Square], to: &[Square]) -> u32 {
    from.iter()
        .flat_map(|&a| to.iter().map(move |&b| distance(a, b)))
        .min()
        .unwrap_or(u32::MAX)
}

/// A legal move: the squares entered in order (not the start), its cost, and the ammo-crate
/// squares a vehicle enters, which it may choose to crush (004; ruling R20).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovePlan {
    pub path: Vec<Square>,
    pub cost: u32,
    pub crushed: Vec<Square>,
}

/// Why a move is illegal, naming the squares involved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct MoveError {
    pub reason: String,
    /// The rulebook passage, rendered from a [`crate::dust_tactics::citation::RuleId`], e.g.
    /// "004 'Movement': diagonal movement (…) (ruling R11, docs/rulings.md)".
    pub rule: String,
}

/// One end of a line of sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sighter {
    pub square: Square,
    pub unit_type: UnitType,
}

/// The answer to "can A see B".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sight {
    Clear,
    Blocked { at: Square, why: String },
}
