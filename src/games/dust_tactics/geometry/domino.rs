//! 003 "Moving Large Vehicles and Aircraft" (R769, R770): a body of two squares, its front and
//! its rear, moves one square at a time led by either half. "If a large model moves sideways,
//! the other half of the model moves into the adjacent square previously occupied by the model.
//! If it moves diagonally, the other half of the model moves forward (or backward as
//! appropriate) into one of the intervening squares."
//!
//! One step: the leading half (front or rear) steps to a neighbouring square that is not the
//! other half's; the other half follows it into the square it left (a straight step), or into
//! one of the two squares between the leading half's old and new squares (a diagonal step).
//! The front stays the front, so a sideways step turns the body a quarter ("ending with the rear
//! of the vehicle in the square where the front started") and a diagonal step either keeps the
//! facing or turns it ("It can either end its move facing the same way, or it can turn as it
//! reverses"). A small Dijkstra over (waypoint reached, body, diagonal already taken) finds the
//! cheapest move, as `movement.rs` does for one square.

use super::movement::{end_block, pass_block, step_block, step_cost, STEPS};
use super::{MoveError, MovePlan, Mover, Occupancy};
use crate::dust_tactics::model::{Board, CoverKind, Square};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The section every refusal of this module cites.
pub const RULE: &str = "003 \"Moving Large Vehicles and Aircraft\": \"Large Vehicles and Large Aircraft occupy two squares. If a large model moves sideways, the other half of the model moves into the adjacent square previously occupied by the model. If it moves diagonally, the other half of the model moves forward (or backward as appropriate) into one of the intervening squares.\" (ruling R769)";

/// The four ways a body lies, from its rear to its front: N, E, S, W (north is row 1).
pub const DIRS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// A two-square body: its front square and the way it lies (an index of [`DIRS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Body {
    pub front: Square,
    pub dir: usize,
}

fn shift(board: &Board, sq: Square, (dx, dy): (i32, i32)) -> Option<Square> {
    board.square(sq.col() as i32 + dx, sq.row() as i32 + dy)
}

impl Body {
    /// The square behind the front; `None` off the board.
    pub fn rear(self, board: &Board) -> Option<Square> {
        let (dx, dy) = DIRS[self.dir % 4];
        shift(board, self.front, (-dx, -dy))
    }
}

/// The way a body with its rear on `rear` and its front on `front` lies.
fn dir_of(rear: Square, front: Square) -> Option<usize> {
    let d = (
        front.col() as i32 - rear.col() as i32,
        front.row() as i32 - rear.row() as i32,
    );
    DIRS.iter().position(|x| *x == d)
}

/// One step of a body: the leading half goes `lead.0` → `lead.1`, the other half `other.0` →
/// `other.1` through the square the leading half left.
#[derive(Debug, Clone, Copy)]
struct Move1 {
    to: Body,
    lead: (Square, Square),
    other: (Square, Square),
    diagonal: bool,
}

/// The steps a body on the board may take, before terrain and units are looked at: the front
/// leading first, orthogonal steps before diagonal ones, the intervening square in the same
/// column as the leading half's old square first (the documented tie-break, R769).
fn moves(board: &Board, b: Body) -> Vec<Move1> {
    let Some(rear) = b.rear(board) else {
        return vec![];
    };
    let mut out = Vec::new();
    for (l, o, front_leads) in [(b.front, rear, true), (rear, b.front, false)] {
        for (dx, dy) in STEPS {
            let Some(n) = shift(board, l, (dx, dy)) else {
                continue;
            };
            if n == o {
                continue;
            }
            let diagonal = dx != 0 && dy != 0;
            let follow: Vec<Square> = if diagonal {
                [(0, dy), (dx, 0)]
                    .into_iter()
                    .filter_map(|d| shift(board, l, d))
                    .collect()
            } else {
                vec![l]
            };
            for m in follow {
                let (front, back) = if front_leads { (n, m) } else { (m, n) };
                if let Some(dir) = dir_of(back, front) {
                    out.push(Move1 {
                        to: Body { front, dir },
                        lead: (l, n),
                        other: (o, m),
                        diagonal,
                    });
                }
            }
        }
    }
    out
}

/// Why the step `m` is closed to `mover`: the leading half's step as any unit's (walls, corners,
/// terrain, units), the other half's squares entered and the walls on its way through the
/// square the leading half left.
fn step_error(board: &Board, occ: &Occupancy, mover: &Mover, m: &Move1) -> Option<MoveError> {
    if let Some(e) = step_block(board, occ, mover, m.lead.0, m.lead.1) {
        return Some(e);
    }
    if let Some(e) = pass_block(board, occ, mover, m.lead.1) {
        return Some(e);
    }
    let (o, to) = m.other;
    if o == to {
        return None;
    }
    let l = m.lead.0;
    let legs = [(o, l), (l, to)];
    for (a, b) in legs.into_iter().filter(|(a, b)| a != b) {
        if board.wall_between(a, b) {
            return Some(MoveError {
                reason: format!(
                    "a wall stands between {a} and {b}, on the way of {}'s other half",
                    mover.unit
                ),
                rule: RULE.to_string(),
            });
        }
    }
    pass_block(board, occ, mover, to)
}

/// Why `mover` may not stand with body `b`; `None` when it may.
pub fn stand_error(board: &Board, occ: &Occupancy, mover: &Mover, b: Body) -> Option<MoveError> {
    let Some(rear) = b.rear(board) else {
        return Some(MoveError {
            reason: format!(
                "{} is a Large vehicle: with its front on {} its rear would be off the board",
                mover.unit, b.front
            ),
            rule: RULE.to_string(),
        });
    };
    end_block(board, occ, mover, b.front).or_else(|| end_block(board, occ, mover, rear))
}

/// R819: the bodies a two-square body `b` may take when a Move only rotates it to lie `dir`:
/// itself when it lies so already; reversed, its two squares swapped; a quarter turn pivoting
/// on its front (the rear swings to the square behind it), then on its rear (the front swings to
/// the square ahead of it). Whether it may stand so is the caller's ([`stand_error`]).
pub fn rotations(board: &Board, b: Body, dir: usize) -> Vec<Body> {
    let Some(rear) = b.rear(board) else {
        return vec![];
    };
    let dir = dir % 4;
    if dir == b.dir % 4 {
        return vec![b];
    }
    if dir == (b.dir + 2) % 4 {
        return vec![Body { front: rear, dir }];
    }
    let mut out = vec![Body {
        front: b.front,
        dir,
    }];
    out.extend(shift(board, rear, DIRS[dir]).map(|front| Body { front, dir }));
    out
}

/// Plans one move of a two-square body from `start` through `waypoints` (squares its front
/// enters, in order; the last is where the front ends) in at most `mp` movement points, ending
/// lying `want` when given. Without `want` the body ends lying as it started when it can within
/// `mp`, else the cheapest way (then N, E, S, W). The plan's path is the front's squares; its
/// crates are those either half enters. Returns the plan and the way the body ends lying.
pub fn plan(
    board: &Board,
    occ: &Occupancy,
    mover: &Mover,
    start: Body,
    waypoints: &[Square],
    want: Option<usize>,
    mp: u32,
) -> Result<(MovePlan, usize), MoveError> {
    let fail = |reason: String| MoveError {
        reason,
        rule: RULE.to_string(),
    };
    let to = *waypoints
        .last()
        .ok_or_else(|| fail("a move needs a destination square".into()))?;
    if let Some(e) = end_block(board, occ, mover, to) {
        return Err(e);
    }
    if to == start.front && want.is_none_or(|d| d == start.dir) {
        return Err(fail(format!(
            "{} already stands with its front on {to}: a move must leave its squares",
            mover.unit
        )));
    }
    if let Some(d) = want {
        if let Some(e) = stand_error(board, occ, mover, Body { front: to, dir: d }) {
            return Err(e);
        }
    }
    let w = board.width() as usize;
    let cells = w * board.height() as usize;
    let cell = |sq: Square| sq.row() as usize * w + sq.col() as usize;
    let index = |stage: usize, b: Body, diag: bool| {
        ((stage * cells + cell(b.front)) * 4 + b.dir) * 2 + diag as usize
    };
    let advance = |mut stage: usize, sq: Square| {
        while stage < waypoints.len() && waypoints[stage] == sq {
            stage += 1;
        }
        stage
    };
    let total = (waypoints.len() + 1) * cells * 8;
    let mut best: Vec<(u32, u32)> = vec![(u32::MAX, u32::MAX); total];
    let mut parent: Vec<Option<(usize, Move1)>> = vec![None; total];
    let mut node: Vec<Option<(usize, Body)>> = vec![None; total];
    let start_i = index(0, start, false);
    best[start_i] = (0, 0);
    node[start_i] = Some((0, start));
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((0u32, 0u32, start_i)));
    while let Some(Reverse((cost, steps, i))) = heap.pop() {
        if best[i] != (cost, steps) {
            continue;
        }
        let Some((stage, body)) = node[i] else {
            continue;
        };
        let diag_used = i % 2 == 1;
        for m in moves(board, body) {
            if step_error(board, occ, mover, &m).is_some() {
                continue;
            }
            let key = (cost + step_cost(mover, m.diagonal, diag_used), steps + 1);
            let st = advance(stage, m.to.front);
            let j = index(st, m.to, diag_used || m.diagonal);
            if key < best[j] {
                best[j] = key;
                parent[j] = Some((i, m));
                node[j] = Some((st, m.to));
                heap.push(Reverse((key.0, key.1, j)));
            }
        }
    }
    // The ends: the front on `to` with every waypoint passed, standing legally, one step at least.
    let last = waypoints.len();
    let ends: Vec<(u32, u32, usize, usize)> = (0..4)
        .flat_map(|dir| [false, true].map(|d| (dir, d)))
        .map(|(dir, d)| (dir, index(last, Body { front: to, dir }, d)))
        .filter(|&(dir, j)| {
            j != start_i
                && best[j].0 != u32::MAX
                && stand_error(board, occ, mover, Body { front: to, dir }).is_none()
        })
        .map(|(dir, j)| (best[j].0, best[j].1, dir, j))
        .collect();
    let cheapest = |dir: Option<usize>| {
        ends.iter()
            .filter(|e| dir.is_none_or(|d| e.2 == d))
            .min_by_key(|e| (e.0, e.1, e.2))
            .copied()
    };
    let chosen = match want {
        Some(d) => cheapest(Some(d)),
        None => cheapest(Some(start.dir))
            .filter(|e| e.0 <= mp)
            .or_else(|| cheapest(None)),
    };
    let Some((cost, _, dir, goal)) = chosen else {
        return Err(fail(format!(
            "no legal move takes {}'s two squares from {} to {to}{}: walls, impassable squares, terrain closed to it or other units are in the way of its front or its rear",
            mover.unit,
            start.front,
            if want.is_some() { " lying that way" } else { "" }
        )));
    };
    if cost > mp {
        return Err(fail(format!(
            "{to} is {cost} movement points away for {}'s two squares, it has {mp}",
            mover.unit
        )));
    }
    let mut trail = Vec::new();
    let mut i = goal;
    while let Some((p, m)) = parent[i] {
        trail.push(m);
        i = p;
    }
    trail.reverse();
    let mut path: Vec<Square> = Vec::new();
    let mut crushed: Vec<Square> = Vec::new();
    for m in &trail {
        if path.last() != Some(&m.to.front) && !(path.is_empty() && m.to.front == start.front) {
            path.push(m.to.front);
        }
        for sq in [m.lead.1, m.other.1] {
            let crate_here = board.cover_kind(sq) == Some(CoverKind::AmmoCrate);
            if mover.unit_type == crate::dust_tactics::model::UnitType::Vehicle
                && crate_here
                && !crushed.contains(&sq)
            {
                crushed.push(sq);
            }
        }
    }
    if path.is_empty() {
        path.push(to);
    }
    Ok((
        MovePlan {
            path,
            cost,
            crushed,
        },
        dir,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dust_tactics::model::UnitType;

    fn mover() -> Mover {
        Mover {
            unit: crate::dust_tactics::model::UnitId("is48".into()),
            side: "ssu".into(),
            unit_type: UnitType::Vehicle,
            jump: false,
            agile: false,
            tracked: false,
            amphibious: false,
            dozer: false,
            large: false,
        }
    }

    #[test]
    fn rotations_keep_reverse_or_pivot_on_either_half() {
        let b = Board::open(6, 6).unwrap();
        let sq = |s: &str| b.parse_square(s).unwrap();
        // Lying N on C3 (rear C4).
        let start = Body {
            front: sq("C3"),
            dir: 0,
        };
        assert_eq!(rotations(&b, start, 0), vec![start]);
        assert_eq!(
            rotations(&b, start, 2),
            vec![Body {
                front: sq("C4"),
                dir: 2
            }]
        );
        // East: pivoting on the front (rear B3), then on the rear (front D4).
        let east = rotations(&b, start, 1);
        assert_eq!(
            east,
            vec![
                Body {
                    front: sq("C3"),
                    dir: 1
                },
                Body {
                    front: sq("D4"),
                    dir: 1
                }
            ]
        );
        assert_eq!(east[0].rear(&b), Some(sq("B3")));
        assert_eq!(east[1].rear(&b), Some(sq("C4")));
    }

    #[test]
    fn a_sideways_step_turns_the_body_a_quarter() {
        let b = Board::open(6, 6).unwrap();
        let sq = |s: &str| b.parse_square(s).unwrap();
        // Facing N on C3 (rear C4); front steps east to D3: rear on C3, lying E.
        let start = Body {
            front: sq("C3"),
            dir: 0,
        };
        let (p, dir) = plan(&b, &Occupancy::new(), &mover(), start, &[sq("D3")], None, 1).unwrap();
        assert_eq!(p.path, vec![sq("D3")]);
        assert_eq!(dir, 1);
        assert_eq!(
            Body {
                front: sq("D3"),
                dir
            }
            .rear(&b),
            Some(sq("C3"))
        );
    }
}
