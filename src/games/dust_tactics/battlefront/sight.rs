//! 003 "Check Line of Sight" and "Cover Saves" on the grid (issue 18; rulings R238–R240).
//!
//! 003: "trace an imaginary line from any point in the attacking unit's square to any point in
//! the target unit's square. If every imaginary line traced from the attacker's square to the
//! target's square passes through or touches blocking squares, then the Line of Sight is
//! blocked." Blocking are squares with a Vehicle unit (friendly or enemy), trees, structures
//! (the board's impassable squares), smoke, and walls; "a square containing an Infantry unit
//! does not block", nor do rubble, water, ammo crates or anti-tank traps. The two end squares
//! never block ("units in the terrain can be seen as normal").
//!
//! Exact integer geometry: a square is `SCALE` units wide; "any point" is read as the points of
//! a lattice inside the square (R238), and "touches" as meeting a closed blocking square or a
//! closed wall segment.

use super::bunkers::Shell;
use crate::dust_tactics::geometry::{self, Occupancy, Sight, Sighter};
use crate::dust_tactics::model::{Board, Cover, CoverKind, Square, Terrain, UnitType};
use crate::dust_tactics::rules::Rules;

/// Units per square side.
const SCALE: i64 = 16;
/// The lattice inside a square (R238): offsets 1/8, 3/8, 5/8, 7/8 of a side, and the centre.
const OFFSETS: [i64; 4] = [2, 6, 10, 14];
const CENTRE: i64 = 8;

type Pt = (i64, i64);

/// Something that blocks 003's line of sight.
enum Blocker {
    /// A closed square, with the words naming it.
    Square(Square, String),
    /// A closed wall segment between two squares.
    Wall(Pt, Pt, Square, Square),
}

impl Blocker {
    fn at(&self) -> Square {
        match self {
            Blocker::Square(sq, _) | Blocker::Wall(_, _, _, sq) => *sq,
        }
    }

    fn name(&self) -> String {
        match self {
            Blocker::Square(_, why) => why.clone(),
            Blocker::Wall(_, _, a, b) => format!("the wall between {a} and {b}"),
        }
    }

    /// Whether the segment `p`→`q` passes through or touches this blocker.
    fn meets(&self, p: Pt, q: Pt) -> bool {
        match self {
            Blocker::Square(sq, _) => {
                let (x0, y0) = corner(*sq);
                segment_meets_box(p, q, (x0, y0), (x0 + SCALE, y0 + SCALE))
            }
            Blocker::Wall(w1, w2, ..) => segments_meet(p, q, *w1, *w2),
        }
    }
}

fn corner(sq: Square) -> Pt {
    (sq.col() as i64 * SCALE, sq.row() as i64 * SCALE)
}

/// The lattice points of a square that stand for "any point in the square" (R238).
fn points(sq: Square) -> Vec<Pt> {
    let (x, y) = corner(sq);
    let mut v = vec![(x + CENTRE, y + CENTRE)];
    for dy in OFFSETS {
        for dx in OFFSETS {
            v.push((x + dx, y + dy));
        }
    }
    v
}

/// The four lattice points nearest the corners: "all points" of a target square for the cover
/// test (R239; 003's example draws its lines to the corners).
fn corners(sq: Square) -> [Pt; 4] {
    let (x, y) = corner(sq);
    let (lo, hi) = (OFFSETS[0], OFFSETS[3]);
    [
        (x + lo, y + lo),
        (x + hi, y + lo),
        (x + lo, y + hi),
        (x + hi, y + hi),
    ]
}

/// Cross product of `q - p` with `r - p`.
fn orient(p: Pt, q: Pt, r: Pt) -> i64 {
    (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
}

/// Whether segment `p`→`q` meets the closed box `lo`–`hi` (separating axes: x, y and the
/// segment's normal).
fn segment_meets_box(p: Pt, q: Pt, lo: Pt, hi: Pt) -> bool {
    if p.0.max(q.0) < lo.0 || p.0.min(q.0) > hi.0 || p.1.max(q.1) < lo.1 || p.1.min(q.1) > hi.1 {
        return false;
    }
    let s = [(lo.0, lo.1), (hi.0, lo.1), (lo.0, hi.1), (hi.0, hi.1)].map(|c| orient(p, q, c));
    !(s.iter().all(|&v| v > 0) || s.iter().all(|&v| v < 0))
}

/// Whether closed segments `p`–`q` and `a`–`b` meet.
fn segments_meet(p: Pt, q: Pt, a: Pt, b: Pt) -> bool {
    let (d1, d2) = (orient(p, q, a), orient(p, q, b));
    let (d3, d4) = (orient(a, b, p), orient(a, b, q));
    let within = |x: Pt, y: Pt, r: Pt| {
        (x.0.min(y.0)..=x.0.max(y.0)).contains(&r.0) && (x.1.min(y.1)..=x.1.max(y.1)).contains(&r.1)
    };
    if d1.signum() * d2.signum() < 0 && d3.signum() * d4.signum() < 0 {
        return true;
    }
    (d1 == 0 && within(p, q, a))
        || (d2 == 0 && within(p, q, b))
        || (d3 == 0 && within(a, b, p))
        || (d4 == 0 && within(a, b, q))
}

/// Why square `sq` blocks 003's line of sight, if it does.
fn blocking(board: &Board, occ: &Occupancy, sq: Square) -> Option<String> {
    match board.terrain(sq) {
        Terrain::Impassable => return Some(format!("the structure on {sq}")),
        Terrain::Trees => return Some(format!("the trees on {sq}")),
        Terrain::Smoke => return Some(format!("the smoke on {sq}")),
        _ => {}
    }
    occ.get(&sq)
        // An aircraft above the square does not block (R807).
        .and_then(|v| {
            v.iter()
                .find(|o| o.unit_type == UnitType::Vehicle && !o.above)
        })
        .map(|v| format!("vehicle {} on {sq}", v.unit))
}

/// The blockers that can meet a line between squares `a` and `b`: those in the box the two
/// squares span, ends excluded; and the squares of each strongpoint or bunker of `forts` neither
/// end is inside (002 "Line of Sight To Bunkers and Strongpoints": "Bunkers and Strongpoints are
/// Terrain and block Line of Sight ... Units in Strongpoints can see and be seen from any
/// direction", R727); a bunker's walls when one end is inside it and the other not ahead of its
/// front ("Units in Bunkers can only see and be seen from 90 degrees either side of the
/// direction the Bunker is facing", R781).
fn blockers(board: &Board, occ: &Occupancy, forts: &[Shell], a: Square, b: Square) -> Vec<Blocker> {
    let mut out = Vec::new();
    for row in a.row().min(b.row())..=a.row().max(b.row()) {
        for col in a.col().min(b.col())..=a.col().max(b.col()) {
            let Some(sq) = board.square(col as i32, row as i32) else {
                continue;
            };
            if sq == a || sq == b {
                continue;
            }
            if let Some(why) = blocking(board, occ, sq) {
                out.push(Blocker::Square(sq, why));
            }
        }
    }
    for f in forts {
        match (f.squares.contains(&a), f.squares.contains(&b)) {
            (false, false) => {
                for sq in f.squares {
                    out.push(Blocker::Square(sq, format!("the {} on {sq}", f.name())));
                }
            }
            (true, false) | (false, true) => {
                let (inside, outside) = if f.squares.contains(&a) {
                    (a, b)
                } else {
                    (b, a)
                };
                if let Some(why) = f.walls_block(outside) {
                    out.push(Blocker::Square(inside, why));
                }
            }
            (true, true) => {}
        }
    }
    for (wa, wb) in board.walls() {
        let (x, y) = corner(wb);
        let (w1, w2) = if wa.row() == wb.row() {
            ((x, y), (x, y + SCALE)) // wb right of wa: its left edge
        } else {
            ((x, y), (x + SCALE, y)) // wb below wa: its top edge
        };
        out.push(Blocker::Wall(w1, w2, wa, wb));
    }
    out
}

fn clear(blockers: &[Blocker], p: Pt, q: Pt) -> bool {
    !blockers.iter().any(|b| b.meets(p, q))
}

/// 003's line of sight from `from` to `to`: clear when some line from a point of one square to
/// a point of the other meets no blocker. Symmetric ("If I Can See You, You Can See Me").
pub fn line_of_sight(
    board: &Board,
    occ: &Occupancy,
    forts: &[Shell],
    from: Sighter,
    to: Sighter,
) -> Sight {
    let (a, b) = (from.square, to.square);
    if a == b {
        return Sight::Clear;
    }
    judge(blockers(board, occ, forts, a, b), a, b)
}

/// Clear when some line from a point of `a` to a point of `b` meets none of `bl`; else the
/// blockers the centre line meets, named.
fn judge(bl: Vec<Blocker>, a: Square, b: Square) -> Sight {
    if a == b || bl.is_empty() {
        return Sight::Clear;
    }
    let (pa, pb) = (points(a), points(b));
    if pa.iter().any(|&p| pb.iter().any(|&q| clear(&bl, p, q))) {
        return Sight::Clear;
    }
    // Name the blockers the centre line meets (or all of them), for the refusal.
    let (c, d) = (pa[0], pb[0]);
    let mut met: Vec<&Blocker> = bl.iter().filter(|x| x.meets(c, d)).collect();
    if met.is_empty() {
        met = bl.iter().collect();
    }
    let names: Vec<String> = met.iter().map(|x| x.name()).collect();
    Sight::Blocked {
        at: met[0].at(),
        why: format!(
            "every line from any point of {a} to any point of {b} passes through or touches a blocking square ({}) (003 \"Check Line of Sight\"; ruling R238, docs/rulings.md)",
            names.join(", ")
        ),
    }
}

/// 003 "Line of Sight to Aircraft" (R800): between the ground unit's square `ground` and an
/// aircraft's, only terrain and walls next to `ground` can block ("a unit immediately behind
/// terrain that would block", or "in a building" with no opening on the edge of its square);
/// units never do. A strongpoint or bunker of `forts` is such terrain: its square next to
/// `ground` blocks unless the ground unit is inside it, and a bunker's walls hide a unit inside
/// from behind its front (R808). `a` and `b` are the two squares, one of them `ground`.
pub fn sight_to_aircraft(
    board: &Board,
    forts: &[Shell],
    ground: Square,
    a: Square,
    b: Square,
) -> Sight {
    let near =
        |s: Square| s.col().abs_diff(ground.col()) <= 1 && s.row().abs_diff(ground.row()) <= 1;
    let bl = blockers(board, &Occupancy::new(), forts, a, b)
        .into_iter()
        .filter(|x| match x {
            Blocker::Square(s, _) => near(*s),
            Blocker::Wall(_, _, wa, wb) => *wa == ground || *wb == ground,
        })
        .collect();
    judge(bl, a, b)
}

/// Whether the attacker at `shooter` can draw lines from one point of its square to all points
/// of the target's square without passing through or touching blocking squares (003 "Cover
/// Saves"; R239): if it cannot, the target is in Cover.
pub fn seen_whole(
    board: &Board,
    occ: &Occupancy,
    forts: &[Shell],
    shooter: Sighter,
    target: Sighter,
) -> bool {
    let (a, b) = (shooter.square, target.square);
    let bl = blockers(board, occ, forts, a, b);
    if a == b || bl.is_empty() {
        return true;
    }
    let to = corners(b);
    points(a)
        .into_iter()
        .any(|p| to.iter().all(|&q| clear(&bl, p, q)))
}

/// The cover of a target under 003 (R239, replacing R235): in Cover when the attacker cannot
/// see all of its square; an Infantry unit (squad or hero) also when its square holds ammo
/// crates, anti-tank traps, trees, rubble, a structure or smoke. "Vehicles get no cover from the
/// square they stand in."
pub fn cover(
    board: &Board,
    occ: &Occupancy,
    forts: &[Shell],
    shooter: Sighter,
    target: Sighter,
) -> Cover {
    let t = target.square;
    let own_square = target.unit_type != UnitType::Vehicle
        && (matches!(
            board.cover_kind(t),
            Some(CoverKind::AmmoCrate | CoverKind::TankTrap)
        ) || matches!(
            board.terrain(t),
            Terrain::Trees | Terrain::Rubble | Terrain::Impassable | Terrain::Smoke
        ) || crate::dust_tactics::structures::structure_at(board, t).is_some());
    if own_square || !seen_whole(board, occ, forts, shooter, target) {
        Cover::Soft
    } else {
        Cover::None
    }
}

/// Line of sight under `rules`: 003's under battlefront-2013 (with 002's strongpoints, `forts`),
/// the engine's (004) otherwise.
pub fn line_of_sight_under(
    rules: Rules,
    board: &Board,
    occ: &Occupancy,
    forts: &[Shell],
    from: Sighter,
    to: Sighter,
) -> Sight {
    if rules.battlefront() {
        line_of_sight(board, occ, forts, from, to)
    } else {
        geometry::line_of_sight(board, occ, from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touching_a_corner_meets_the_box() {
        // The diagonal through the box's corner touches it.
        assert!(segment_meets_box((0, 0), (32, 32), (16, 16), (32, 32)));
        assert!(segment_meets_box((0, 0), (32, 32), (16, 0), (32, 16)));
        assert!(!segment_meets_box((0, 2), (30, 32), (16, 0), (32, 16)));
    }

    #[test]
    fn walls_touched_at_an_end_meet() {
        assert!(segments_meet((0, 0), (32, 32), (16, 16), (16, 32)));
        assert!(!segments_meet((0, 0), (32, 30), (16, 0), (16, 14)));
    }
}
