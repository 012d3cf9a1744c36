//! Distance, range, movement and line of sight on the board (004 "Movement", "Line of sight").
//!
//! Pure functions over a [`Board`] and an [`Occupancy`]: no dice, no state changes.

use super::model::{Board, Cover, Square, UnitId, UnitType, WeaponRange};
use std::collections::BTreeMap;

/// A unit standing on a square, as geometry needs to know it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occupant {
    pub unit: UnitId,
    pub side: String,
    pub unit_type: UnitType,
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
}

/// A legal move: the squares entered in order (not the start), its cost, crates crushed.
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
    /// The rulebook passage, e.g. "004 Movement: diagonal movement".
    pub rule: String,
}

/// Plans one MOVE of at most `mp` movement points from `from` through `waypoints` (the last is
/// the destination; one waypoint means "cheapest legal path").
pub fn plan_move(
    board: &Board,
    occ: &Occupancy,
    mover: &Mover,
    from: Square,
    waypoints: &[Square],
    mp: u32,
) -> Result<MovePlan, MoveError> {
    // PLACEHOLDER (replaced by the geometry work): straight-line cost only.
    let _ = (board, occ, mover);
    let to = *waypoints.last().ok_or_else(|| MoveError {
        reason: "a move needs a destination".into(),
        rule: "004 Movement".into(),
    })?;
    let cost = distance(from, to);
    if cost > mp {
        return Err(MoveError {
            reason: format!("{to} is {cost} movement points away, more than {mp}"),
            rule: "004 Movement".into(),
        });
    }
    Ok(MovePlan {
        path: vec![to],
        cost,
        crushed: vec![],
    })
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

/// Line of sight from `from` to `to`, dot to dot (004 "Line of sight").
pub fn line_of_sight(board: &Board, occ: &Occupancy, from: Sighter, to: Sighter) -> Sight {
    // PLACEHOLDER (replaced by the geometry work).
    let _ = (board, occ, from, to);
    Sight::Clear
}

/// The cover a squad at `target` has against a shot from `shooter`: its square's terrain and
/// cover element, plus corner cover (004 "Cover"). Only meaningful for squad targets.
pub fn cover_for(board: &Board, occ: &Occupancy, shooter: Sighter, target: Sighter) -> Cover {
    // PLACEHOLDER (replaced by the geometry work).
    let _ = (board, occ, shooter, target);
    Cover::None
}
