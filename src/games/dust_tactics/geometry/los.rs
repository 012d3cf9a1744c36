//! Line of sight and cover (004 "Line of sight", "Cover"; 000 "Shooting rules").
//!
//! Exact integer geometry in doubled coordinates: square (c, r) covers [2c, 2c+2] × [2r, 2r+2]
//! and its dot is at (2c+1, 2r+1). Dots are odd, square edges even, so a line between dots never
//! runs along an edge: against any square it either crosses the interior, touches one corner
//! point (a "skim"), or misses. Skims are allowed unless blockers are skimmed on both sides of
//! the line (000 opposite corners; ruling R15).

use super::{Occupancy, Sight, Sighter};
use crate::dust_tactics::model::{Board, Cover, CoverKind, Square, Terrain, UnitType};
use crate::dust_tactics::structures;
use std::fmt;

type Pt = (i64, i64);

fn dot(sq: Square) -> Pt {
    (2 * sq.col() as i64 + 1, 2 * sq.row() as i64 + 1)
}

/// Cross product of `d` with `p - o`: which side of the line through `o` along `d` `p` is on.
fn side(o: Pt, d: Pt, p: Pt) -> i64 {
    d.0 * (p.1 - o.1) - d.1 * (p.0 - o.0)
}

/// How a blocking square or wall meets the line.
enum Meet {
    Miss,
    Cross,
    /// Touches one point; the blocker lies on this side (+1 / −1) of the line.
    Skim(i64),
}

/// The line from `p` along `d` against the square `sq` (neither end square; see module doc).
fn meet_square(p: Pt, d: Pt, sq: Square) -> Meet {
    let (x, y) = (2 * sq.col() as i64, 2 * sq.row() as i64);
    let s = [(x, y), (x + 2, y), (x, y + 2), (x + 2, y + 2)].map(|c| side(p, d, c).signum());
    let pos = s.iter().filter(|&&v| v > 0).count();
    let neg = s.iter().filter(|&&v| v < 0).count();
    match (pos, neg) {
        (0, 0) => Meet::Miss, // impossible: the line never runs along an edge
        (_, 0) | (0, _) if s.contains(&0) => Meet::Skim(if pos > 0 { 1 } else { -1 }),
        (_, 0) | (0, _) => Meet::Miss,
        _ => Meet::Cross,
    }
}

/// The segment `p`→`q` against a wall segment `w1`–`w2`.
fn meet_wall(p: Pt, q: Pt, w1: Pt, w2: Pt) -> Meet {
    let d = (q.0 - p.0, q.1 - p.1);
    let (s1, s2) = (side(p, d, w1).signum(), side(p, d, w2).signum());
    let within = |w: Pt| {
        (p.0.min(q.0)..=p.0.max(q.0)).contains(&w.0) && (p.1.min(q.1)..=p.1.max(q.1)).contains(&w.1)
    };
    if s1 == 0 {
        return if within(w1) {
            Meet::Skim(s2)
        } else {
            Meet::Miss
        };
    }
    if s2 == 0 {
        return if within(w2) {
            Meet::Skim(s1)
        } else {
            Meet::Miss
        };
    }
    if s1 == s2 {
        return Meet::Miss;
    }
    // The wall's line separates the dots strictly (dots are odd, walls even).
    let e = (w2.0 - w1.0, w2.1 - w1.1);
    if side(w1, e, p).signum() != side(w1, e, q).signum() {
        Meet::Cross
    } else {
        Meet::Miss
    }
}

/// The two end points of the wall between orthogonal neighbours `a` < `b`.
fn wall_points(a: Square, b: Square) -> (Pt, Pt) {
    let (x, y) = (2 * b.col() as i64, 2 * b.row() as i64);
    if a.row() == b.row() {
        ((x, y), (x, y + 2)) // b is right of a: the wall is b's left edge
    } else {
        ((x, y), (x + 2, y)) // b is below a: the wall is b's top edge
    }
}

/// Why square `sq` (not an end of the line) blocks LOS between this pair; `None` if it does not.
/// Why `sq` blocks a line of sight between two units (a soldier pair or not); `None` when not.
pub fn blocks(board: &Board, occ: &Occupancy, sq: Square, soldier_pair: bool) -> Option<String> {
    match board.terrain(sq) {
        Terrain::Impassable => return Some(format!("{sq} is impassable (no dot)")),
        Terrain::Smoke => return Some(format!("{sq} is smoke, which blocks all line of sight")),
        Terrain::Trees => return Some(format!("{sq} is trees, which block line of sight")),
        _ => {}
    }
    let units = occ.get(&sq).map(Vec::as_slice).unwrap_or(&[]);
    if let Some(v) = units.iter().find(|o| o.unit_type == UnitType::Vehicle) {
        return Some(format!("vehicle {} on {sq} blocks line of sight", v.unit));
    }
    if soldier_pair {
        if let Some(s) = units.first() {
            return Some(format!(
                "unit {} on {sq} blocks line of sight between soldiers",
                s.unit
            ));
        }
        if board.cover_kind(sq) == Some(CoverKind::TankTrap) {
            return Some(format!(
                "the anti-tank trap on {sq} blocks line of sight between soldiers"
            ));
        }
    }
    None
}

/// Whether a square blocking this pair also makes corner cover: terrain and vehicles do, squads,
/// heroes and tank traps do not (000 "What are the effects of cover?"; ruling R18).
fn makes_corner(board: &Board, occ: &Occupancy, sq: Square) -> bool {
    matches!(
        board.terrain(sq),
        Terrain::Impassable | Terrain::Smoke | Terrain::Trees
    ) || occ
        .get(&sq)
        .is_some_and(|v| v.iter().any(|o| o.unit_type == UnitType::Vehicle))
}

/// Line of sight from `from` to `to`, dot to dot (004 "Line of sight"). Symmetric.
pub fn line_of_sight(board: &Board, occ: &Occupancy, from: Sighter, to: Sighter) -> Sight {
    sight_with(board, occ, from, to, false)
}

/// 004 "Fighting in the Sewers": "In the sewers, all corners block LOS": a line skimming the
/// corner of any blocking square or wall end is blocked, not only one between two (R623).
pub fn line_of_sight_sewers(board: &Board, occ: &Occupancy, from: Sighter, to: Sighter) -> Sight {
    sight_with(board, occ, from, to, true)
}

fn sight_with(
    board: &Board,
    occ: &Occupancy,
    from: Sighter,
    to: Sighter,
    corners_block: bool,
) -> Sight {
    let (a, b) = (from.square, to.square);
    if a == b {
        return Sight::Clear;
    }
    for end in [a, b] {
        if board.terrain(end) == Terrain::Smoke && !a.adjacent(b) {
            return Sight::Blocked {
                at: end,
                why: format!(
                    "{end} is smoke: a unit on smoke can only attack and be attacked from an adjacent square (004 Terrain: smoke)"
                ),
            };
        }
    }
    let soldier_pair = from.unit_type.is_soldier() && to.unit_type.is_soldier();
    let (p, q) = (dot(a), dot(b));
    let d = (q.0 - p.0, q.1 - p.1);
    // Skimmed blockers on each side of the line: (square, why) of the first found.
    let mut left: Option<(Square, String)> = None;
    let mut right: Option<(Square, String)> = None;
    let mut skim = |s: i64, at: Square, why: String| {
        let slot = if s > 0 { &mut left } else { &mut right };
        if slot.is_none() {
            *slot = Some((at, why));
        }
    };
    // Only squares inside the box spanned by the two end squares can meet the segment.
    for row in a.row().min(b.row())..=a.row().max(b.row()) {
        for col in a.col().min(b.col())..=a.col().max(b.col()) {
            let Some(sq) = board.square(col as i32, row as i32) else {
                continue;
            };
            if sq == a || sq == b {
                continue;
            }
            // Geometry first: it is cheap, and most squares of the box miss the line.
            let meet = meet_square(p, d, sq);
            if matches!(meet, Meet::Miss) {
                continue;
            }
            let Some(why) = blocks(board, occ, sq, soldier_pair) else {
                continue;
            };
            match meet {
                Meet::Cross => return Sight::Blocked { at: sq, why },
                Meet::Skim(s) => skim(s, sq, why),
                Meet::Miss => {}
            }
        }
    }
    for (wa, wb) in board.walls() {
        let (w1, w2) = wall_points(wa, wb);
        let why = || format!("a wall stands between {wa} and {wb}");
        match meet_wall(p, q, w1, w2) {
            Meet::Cross => return Sight::Blocked { at: wb, why: why() },
            Meet::Skim(s) => skim(s, wb, why()),
            Meet::Miss => {}
        }
    }
    match (left, right) {
        (Some((at, w1)), Some((_, w2))) => Sight::Blocked {
            at,
            why: format!(
                "the line passes between two blocking corners ({w1}; {w2}) (000 Shooting rules: opposite corners)"
            ),
        },
        (Some((at, why)), None) | (None, Some((at, why))) if corners_block => Sight::Blocked {
            at,
            why: format!("the line skims a corner ({why}), and in the sewers all corners block line of sight (004 Fighting in the Sewers)"),
        },
        _ => Sight::Clear,
    }
}

/// The squares "between" two squares (004 "Flamethrowers", ruling R151): those whose interior the
/// dot-to-dot line crosses, ends excluded, in board order. A square the line only skims at a
/// corner is not between.
pub fn squares_between(board: &Board, a: Square, b: Square) -> Vec<Square> {
    let (p, q) = (dot(a), dot(b));
    let d = (q.0 - p.0, q.1 - p.1);
    let mut out = Vec::new();
    for row in a.row().min(b.row())..=a.row().max(b.row()) {
        for col in a.col().min(b.col())..=a.col().max(b.col()) {
            let Some(sq) = board.square(col as i32, row as i32) else {
                continue;
            };
            if sq != a && sq != b && matches!(meet_square(p, d, sq), Meet::Cross) {
                out.push(sq);
            }
        }
    }
    out
}

/// One reason a squad has cover against a shot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoverSource {
    /// A cover element on the target's square.
    Element(CoverKind),
    /// Rubble or trees on the target's square.
    Terrain(Terrain),
    /// The line skims the corner of this blocking square next to the target (45° shots only).
    Corner(Square),
    /// The line skims the end of the wall between these squares at the target's corner.
    WallCorner(Square, Square),
    /// Inside a structure (004 "Structures": "Cover"; R504): its level and why.
    Structure(Cover, String),
}

impl CoverSource {
    pub fn level(&self) -> Cover {
        match self {
            CoverSource::Element(CoverKind::TankTrap) => Cover::Hard,
            CoverSource::Structure(level, _) => *level,
            _ => Cover::Soft,
        }
    }
}

impl fmt::Display for CoverSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoverSource::Element(k) => write!(
                f,
                "{} on its square ({} cover)",
                k.name(),
                if *k == CoverKind::TankTrap {
                    "hard"
                } else {
                    "soft"
                }
            ),
            CoverSource::Terrain(t) => write!(f, "{} on its square (soft cover)", t.name()),
            CoverSource::Corner(sq) => write!(f, "corner of {sq} (soft cover)"),
            CoverSource::WallCorner(a, b) => {
                write!(f, "corner of the wall between {a} and {b} (soft cover)")
            }
            CoverSource::Structure(level, why) => {
                let level = if *level == Cover::Hard {
                    "hard"
                } else {
                    "soft"
                };
                write!(f, "{why} ({level} cover)")
            }
        }
    }
}

/// A target's cover against one shot and the reasons for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoverReport {
    pub cover: Cover,
    pub sources: Vec<CoverSource>,
}

/// The cover a squad at `target` has against a shot from `shooter`: its square's terrain and
/// cover element, plus corner cover (004 "Cover"). Only meaningful for squad targets.
pub fn cover_for(board: &Board, occ: &Occupancy, shooter: Sighter, target: Sighter) -> Cover {
    cover_explained(board, occ, shooter, target).cover
}

/// [`cover_for`] with its sources, so reports can say why.
pub fn cover_explained(
    board: &Board,
    occ: &Occupancy,
    shooter: Sighter,
    target: Sighter,
) -> CoverReport {
    let t = target.square;
    let mut sources = Vec::new();
    if let Some(kind) = board.cover_kind(t) {
        sources.push(CoverSource::Element(kind));
    }
    if matches!(board.terrain(t), Terrain::Rubble | Terrain::Trees) {
        sources.push(CoverSource::Terrain(board.terrain(t)));
    }
    if let Some(corner) = corner_source(board, occ, shooter, target) {
        sources.push(corner);
    }
    if let Some((level, why)) = structures::cover(board, shooter, false, target) {
        sources.push(CoverSource::Structure(level, why));
    }
    let cover = sources.iter().fold(Cover::None, |acc, s| match s.level() {
        Cover::Hard => Cover::Hard,
        _ => acc.add_soft(),
    });
    CoverReport { cover, sources }
}

/// Corner cover: a 45° shot skimming, at the target's own corner, a square that blocks this
/// pair's LOS and makes corners, or a wall end (004 "Cover"; ruling R18).
fn corner_source(
    board: &Board,
    occ: &Occupancy,
    shooter: Sighter,
    target: Sighter,
) -> Option<CoverSource> {
    let (s, t) = (shooter.square, target.square);
    let (dx, dy) = t.delta(s);
    if dx != dy || dx == 0 {
        return None;
    }
    let sx = if s.col() > t.col() { 1 } else { -1 };
    let sy = if s.row() > t.row() { 1 } else { -1 };
    let (tc, tr) = (t.col() as i32, t.row() as i32);
    // The two squares sharing the target's corner on the shooter's side, beside the line.
    let beside = [board.square(tc + sx, tr), board.square(tc, tr + sy)];
    // Every corner-making square blocks all pairs, so no pair check is needed here.
    for sq in beside.into_iter().flatten() {
        if makes_corner(board, occ, sq) {
            return Some(CoverSource::Corner(sq));
        }
    }
    // Walls meeting at that corner: the target's two sides there and the diagonal square's two.
    let diag = board.square(tc + sx, tr + sy);
    let mut edges = Vec::new();
    for sq in beside.into_iter().flatten() {
        edges.push((t, sq));
        if let Some(d) = diag {
            edges.push((d, sq));
        }
    }
    edges
        .into_iter()
        .find(|&(a, b)| board.wall_between(a, b))
        .map(|(a, b)| CoverSource::WallCorner(a.min(b), a.max(b)))
}
