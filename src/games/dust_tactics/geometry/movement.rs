//! Movement legality and path finding for one MOVE (004 "Movement", 000 "Movement rules").
//!
//! A small Dijkstra over (waypoint reached, square, diagonal already taken) states: the diagonal
//! flag is what makes "first diagonal 1, each further one 2" (ruling R1 in docs/rulings.md, per MOVE) exact.

use super::{MoveError, MovePlan, Mover, Occupancy, Occupant};
use crate::dust_tactics::citation::{Citation, RuleId};
use crate::dust_tactics::model::{Board, CoverKind, Square, Terrain, UnitType};
use crate::dust_tactics::structures;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const RULE_TERRAIN: RuleId = RuleId::Terrain;
const RULE_OCCUPIED: Citation =
    RuleId::Movement.with("occupied spaces (000 'Effects of other units')");
const RULE_DIAGONAL: Citation = RuleId::DiagonalMovement
    .with("diagonal movement (000 'How does a unit move around a corner?')");
const RULE_COST: Citation = RuleId::MovementPoints.with("movement points");
const RULE_WALL: Citation = RuleId::Walls.with("walls of bases");

/// Orthogonal steps first, then diagonals: this order is the documented tie-break (ruling R13).
pub(super) const STEPS: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

pub(super) fn err(reason: String, rule: impl Into<Citation>) -> MoveError {
    MoveError {
        reason,
        rule: rule.into().to_string(),
    }
}

/// The units on `sq` other than the mover itself.
fn others<'a>(
    occ: &'a Occupancy,
    mover: &'a Mover,
    sq: Square,
) -> impl Iterator<Item = &'a Occupant> {
    occ.get(&sq)
        .into_iter()
        .flatten()
        .filter(move |o| o.unit != mover.unit)
}

fn is_vehicle(mover: &Mover) -> bool {
    mover.unit_type == UnitType::Vehicle
}

/// A large vehicle (004 "LARGE VEHICLES": "A large vehicle only occupies 4 spaces for all
/// movement purposes", R566) checked square by square: `one` is the check for a one-square
/// unit, run for every square of the footprint anchored on `sq` (shifted by the same offset
/// for both squares of a step). `None` for a unit of one square: check it directly.
fn per_square(
    board: &Board,
    mover: &Mover,
    a: Square,
    b: Square,
    one: impl Fn(&Mover, Square, Square) -> Option<MoveError>,
) -> Option<Option<MoveError>> {
    if !mover.large {
        return None;
    }
    let single = Mover {
        large: false,
        ..mover.clone()
    };
    let (Some(fa), Some(fb)) = (
        super::footprint(board, a, true),
        super::footprint(board, b, true),
    ) else {
        let off = if super::footprint(board, a, true).is_none() {
            a
        } else {
            b
        };
        return Some(Some(err(
            format!(
                "{} is a large vehicle: on {off} (its top-left square) part of its 4 spaces would be off the board",
                mover.unit
            ),
            RuleId::LargeVehicles.with("large vehicles must sit inside 4 spaces"),
        )));
    };
    Some(fa.into_iter().zip(fb).find_map(|(x, y)| one(&single, x, y)))
}

/// Why `mover` may not move into (or through) `sq`; `None` when it may.
pub(super) fn pass_block(
    board: &Board,
    occ: &Occupancy,
    mover: &Mover,
    sq: Square,
) -> Option<MoveError> {
    if let Some(e) = per_square(board, mover, sq, sq, |m, x, _| pass_block(board, occ, m, x)) {
        return e;
    }
    let vehicle = is_vehicle(mover);
    match board.terrain(sq) {
        Terrain::Impassable => {
            return Some(err(
                format!("{sq} is impassable (no dot): no unit may enter it"),
                RULE_TERRAIN,
            ))
        }
        Terrain::DeepWater if !mover.jump && !mover.amphibious => {
            return Some(err(
                format!("{sq} is deep water: only units with Jump or Amphibious Unit may enter it"),
                RuleId::Terrain.with("deep water (triangle)"),
            ))
        }
        Terrain::Rubble if vehicle && !mover.jump => {
            return Some(err(
                format!("{sq} is rubble: vehicles without Jump may not enter it"),
                RuleId::Terrain.with("rubble (cross)"),
            ))
        }
        Terrain::Swamp if vehicle => {
            return Some(err(
                format!("{sq} is swamp: vehicles may not enter it"),
                RuleId::Terrain.with("swamp squares"),
            ))
        }
        Terrain::Trees if vehicle => {
            return Some(err(
                format!("{sq} is trees: vehicles may not enter it, even with Jump"),
                RuleId::Terrain.with("trees (square)"),
            ))
        }
        _ => {}
    }
    if vehicle && !mover.jump && !mover.dozer && board.cover_kind(sq) == Some(CoverKind::TankTrap) {
        return Some(err(
            format!("{sq} holds an anti-tank trap: vehicles may not enter it"),
            RuleId::Movement.with("cover elements"),
        ));
    }
    for o in others(occ, mover, sq) {
        let friendly = o.side == mover.side;
        let passable = if o.unit_type == UnitType::Vehicle {
            // Nobody jumps over a vehicle (004 Jump); soldiers walk through friendly ones.
            friendly && !vehicle
        } else {
            mover.jump || (friendly && !vehicle)
        };
        if !passable {
            let reason = if !friendly {
                let jump = if mover.jump && o.unit_type == UnitType::Vehicle {
                    " (Jump cannot pass over a vehicle)"
                } else {
                    ""
                };
                format!("{sq} is occupied by enemy unit {}{jump}", o.unit)
            } else {
                format!(
                    "{sq} is occupied by friendly unit {}: a vehicle never passes through another unit",
                    o.unit
                )
            };
            return Some(err(reason, RULE_OCCUPIED));
        }
    }
    None
}

/// Why `mover` may not end its move on `sq`; `None` when it may.
pub(super) fn end_block(
    board: &Board,
    occ: &Occupancy,
    mover: &Mover,
    sq: Square,
) -> Option<MoveError> {
    if let Some(e) = per_square(board, mover, sq, sq, |m, x, _| end_block(board, occ, m, x)) {
        return e;
    }
    if let Some(e) = pass_block(board, occ, mover, sq) {
        return Some(e);
    }
    if is_vehicle(mover) && !mover.dozer && board.cover_kind(sq) == Some(CoverKind::TankTrap) {
        return Some(err(
            format!("{sq} holds an anti-tank trap: a vehicle may jump over it but not stop on it"),
            RuleId::Jump.with("cover elements"),
        ));
    }
    if let Some(e) = structures::stand_block(board, mover, sq) {
        return Some(e);
    }
    let here: Vec<&Occupant> = others(occ, mover, sq).collect();
    if let Some(first) = here.first() {
        let friendly = first.side == mover.side;
        let hero_shares = mover.unit_type == UnitType::Hero && here.len() == 1 && friendly;
        if !hero_shares {
            let whose = if friendly { "friendly" } else { "enemy" };
            return Some(err(
                format!(
                    "{sq} is occupied by {whose} unit {}: a unit may not end its move on another unit's square (only a hero may share one with a friendly unit)",
                    first.unit
                ),
                RULE_OCCUPIED,
            ));
        }
    }
    None
}

/// Why `mover` may not stand on `sq` (terrain, walls of the square, cover elements, other units);
/// `None` when it may. The invariant "no unit ever on an illegal square" is this, for every unit.
pub fn may_stand(board: &Board, occ: &Occupancy, mover: &Mover, sq: Square) -> Option<MoveError> {
    end_block(board, occ, mover, sq)
}

/// Whether the step `a`→`b` (adjacent) is allowed by walls and corners, ignoring `b` itself.
pub(super) fn step_block(
    board: &Board,
    occ: &Occupancy,
    mover: &Mover,
    a: Square,
    b: Square,
) -> Option<MoveError> {
    // A large vehicle: each of its 4 squares steps alike, so a diagonal needs both corner
    // footprints clear ("The entire large vehicle must be able to move around obstacles").
    if let Some(e) = per_square(board, mover, a, b, |m, x, y| {
        step_block(board, occ, m, x, y)
    }) {
        return e;
    }
    // 004 "Structures": in and out only through an entrance, never diagonally (R501).
    if let Some(e) = structures::step_block(board, mover, a, b) {
        return Some(e);
    }
    let (dx, dy) = a.delta(b);
    if dx + dy == 1 {
        if board.wall_between(a, b) {
            return Some(err(format!("a wall stands between {a} and {b}"), RULE_WALL));
        }
        return None;
    }
    if mover.tracked {
        return Some(err(
            format!(
                "{} is tracked and cannot move diagonally from {a} to {b}",
                mover.unit
            ),
            RuleId::TrackedVehicle,
        ));
    }
    // The two corner squares; a corner is blocked when the mover cannot enter it or a wall closes
    // either side of the route through it (ruling R11).
    let (Some(c0), Some(c1)) = (
        board.square(b.col() as i32, a.row() as i32),
        board.square(a.col() as i32, b.row() as i32),
    ) else {
        return None; // not reachable: corners of two board squares are on the board
    };
    let blocked = [c0, c1].map(|c| {
        if board.wall_between(a, c) || board.wall_between(c, b) {
            Some(format!("a wall closes the corner at {c}"))
        } else {
            pass_block(board, occ, mover, c).map(|e| e.reason)
        }
    });
    match &blocked {
        [Some(r0), Some(r1)] => Some(err(
            format!("no unit can pass between {a} and {b}: both corners are blocked ({r0}; {r1}); go another way"),
            RULE_DIAGONAL,
        )),
        [Some(r), None] | [None, Some(r)] if is_vehicle(mover) => Some(err(
            format!("vehicle cannot pass between {a} and {b}: a corner is blocked ({r}); go round with straight steps"),
            RULE_DIAGONAL,
        )),
        _ => None,
    }
}

pub(super) fn step_cost(mover: &Mover, diagonal: bool, diag_used: bool) -> u32 {
    if diagonal && diag_used && !mover.agile {
        2
    } else {
        1
    }
}

fn crushed(board: &Board, mover: &Mover, path: &[Square]) -> Vec<Square> {
    if !is_vehicle(mover) {
        return vec![];
    }
    let mut out: Vec<Square> = Vec::new();
    // A large vehicle crushes under any of its 4 squares (R566).
    let under = path
        .iter()
        .flat_map(|&sq| super::footprint(board, sq, mover.large).unwrap_or_default());
    for sq in under {
        if board.cover_kind(sq) == Some(CoverKind::AmmoCrate) && !out.contains(&sq) {
            out.push(sq);
        }
    }
    out
}

/// Plans one MOVE of at most `mp` movement points from `from` through `waypoints` (the last is
/// the destination). One waypoint: the cheapest legal path. Several: the cheapest path through
/// them in order, except that a chain of adjacent squares is followed exactly.
pub fn plan_move(
    board: &Board,
    occ: &Occupancy,
    mover: &Mover,
    from: Square,
    waypoints: &[Square],
    mp: u32,
) -> Result<MovePlan, MoveError> {
    let to = *waypoints
        .last()
        .ok_or_else(|| err("a move needs a destination square".into(), RuleId::Movement))?;
    for &sq in &waypoints[..waypoints.len() - 1] {
        if let Some(e) = pass_block(board, occ, mover, sq) {
            return Err(e);
        }
    }
    if waypoints.iter().all(|&w| w == from) {
        return Err(err(
            format!(
                "{} is already on {to}: a move must leave its square",
                mover.unit
            ),
            RuleId::Movement,
        ));
    }
    if let Some(e) = end_block(board, occ, mover, to) {
        return Err(e);
    }
    let explicit = waypoints.len() >= 2
        && std::iter::once(from)
            .chain(waypoints.iter().copied())
            .zip(waypoints.iter().copied())
            .all(|(a, b)| a.adjacent(b));
    let (path, cost) = if explicit {
        follow(board, occ, mover, from, waypoints)?
    } else {
        cheapest(board, occ, mover, from, waypoints)?
    };
    if cost > mp {
        let via = if waypoints.len() > 1 {
            " along the ordered path"
        } else {
            ""
        };
        return Err(err(
            format!(
                "{to} is {cost} movement points away{via}, {} has {mp}",
                mover.unit
            ),
            RULE_COST,
        ));
    }
    let crushed = crushed(board, mover, &path);
    Ok(MovePlan {
        path,
        cost,
        crushed,
    })
}

/// Follows an explicit chain of adjacent squares, checking every step.
fn follow(
    board: &Board,
    occ: &Occupancy,
    mover: &Mover,
    from: Square,
    steps: &[Square],
) -> Result<(Vec<Square>, u32), MoveError> {
    let mut cost = 0;
    let mut diag_used = false;
    let mut at = from;
    let mut over = false;
    for &next in steps {
        let walk = if over {
            None
        } else {
            step_block(board, occ, mover, at, next)
        };
        if over || walk.is_some() {
            // 004: a soldier with Jump jumps over a structure, never into it (R510).
            match structures::jump_over(board, mover, over, at, next) {
                Some(up) => over = up,
                None => return Err(walk.unwrap_or_else(|| structures::no_landing(mover, at))),
            }
        }
        if let Some(e) = pass_block(board, occ, mover, next) {
            return Err(e);
        }
        let (dx, dy) = at.delta(next);
        let diagonal = dx == 1 && dy == 1;
        cost += step_cost(mover, diagonal, diag_used);
        diag_used |= diagonal;
        at = next;
    }
    if over {
        return Err(structures::no_landing(mover, at));
    }
    Ok((steps.to_vec(), cost))
}

/// Dijkstra over (stage, square, diagonal used); key (cost, steps), then state index.
fn cheapest(
    board: &Board,
    occ: &Occupancy,
    mover: &Mover,
    from: Square,
    waypoints: &[Square],
) -> Result<(Vec<Square>, u32), MoveError> {
    let w = board.width() as usize;
    let cells = w * board.height() as usize;
    let stages = waypoints.len() + 1;
    // `over`: a soldier with Jump in the air over a structure (004 "Structures", R510).
    let index = |stage: usize, sq: Square, diag: bool, over: bool| -> usize {
        ((stage * cells) + sq.row() as usize * w + sq.col() as usize) * 4
            + diag as usize
            + 2 * over as usize
    };
    let unindex = |i: usize| -> (usize, Square, bool, bool) {
        let diag = i % 2 == 1;
        let over = i % 4 >= 2;
        let rest = i / 4;
        let stage = rest / cells;
        let cell = rest % cells;
        let sq = board
            .square((cell % w) as i32, (cell / w) as i32)
            .expect("state index comes from a board square");
        (stage, sq, diag, over)
    };
    let advance = |mut stage: usize, sq: Square| {
        while stage < waypoints.len() && waypoints[stage] == sq {
            stage += 1;
        }
        stage
    };
    let total = stages * cells * 4;
    let mut best: Vec<(u32, u32)> = vec![(u32::MAX, u32::MAX); total];
    let mut parent: Vec<usize> = vec![usize::MAX; total];
    // Whether each square may be entered (or passed) is the same for every state: once.
    let pass: Vec<bool> = board
        .squares()
        .map(|sq| pass_block(board, occ, mover, sq).is_none())
        .collect();
    let cell = |sq: Square| sq.row() as usize * w + sq.col() as usize;
    let corner_blocked = |a: Square, c: Square, b: Square| {
        !pass[cell(c)] || board.wall_between(a, c) || board.wall_between(c, b)
    };
    let mut heap = BinaryHeap::new();
    let start = index(advance(0, from), from, false, false);
    best[start] = (0, 0);
    heap.push(Reverse((0u32, 0u32, start)));
    let mut goal = None;
    while let Some(Reverse((cost, steps, i))) = heap.pop() {
        if best[i] != (cost, steps) {
            continue;
        }
        let (stage, at, diag_used, over) = unindex(i);
        if stage == waypoints.len() && !over {
            goal = Some(i);
            break;
        }
        for (dx, dy) in STEPS {
            let Some(next) = board.square(at.col() as i32 + dx, at.row() as i32 + dy) else {
                continue;
            };
            if !pass[cell(next)] {
                continue;
            }
            // Same rules as `step_block`, without building messages in the hot loop.
            let step_ok = if mover.large {
                step_block(board, occ, mover, at, next).is_none()
            } else if dx == 0 || dy == 0 {
                !board.wall_between(at, next)
            } else if mover.tracked {
                false
            } else {
                let c0 = board.square(next.col() as i32, at.row() as i32);
                let c1 = board.square(at.col() as i32, next.row() as i32);
                let (Some(c0), Some(c1)) = (c0, c1) else {
                    continue;
                };
                let (b0, b1) = (corner_blocked(at, c0, next), corner_blocked(at, c1, next));
                if is_vehicle(mover) {
                    !b0 && !b1
                } else {
                    !(b0 && b1)
                }
            };
            let walks = step_ok
                && !over
                && (board.structures.is_empty()
                    || structures::step_block(board, mover, at, next).is_none());
            // 004: a soldier with Jump jumps over a structure, never into it (R510).
            let flies = structures::jump_over(board, mover, over, at, next);
            let diagonal = dx != 0 && dy != 0;
            let key = (cost + step_cost(mover, diagonal, diag_used), steps + 1);
            for (ok, up) in [(walks, false), (flies.is_some(), flies.unwrap_or(false))] {
                if !ok {
                    continue;
                }
                let j = index(advance(stage, next), next, diag_used || diagonal, up);
                if key < best[j] {
                    best[j] = key;
                    parent[j] = i;
                    heap.push(Reverse((key.0, key.1, j)));
                }
            }
        }
    }
    let Some(goal) = goal else {
        let via = if waypoints.len() > 1 {
            " through the given squares in order"
        } else {
            ""
        };
        return Err(err(
            format!(
                "no legal path takes {} from {from} to {}{via}: walls, impassable squares, terrain closed to it or other units are in the way",
                mover.unit,
                waypoints.last().copied().unwrap_or(from)
            ),
            RuleId::Movement,
        ));
    };
    let mut path = Vec::new();
    let mut i = goal;
    while i != start {
        path.push(unindex(i).1);
        i = parent[i];
    }
    path.reverse();
    Ok((path, best[goal].0))
}
