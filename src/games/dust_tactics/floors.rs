//! Heights inside structures (004 "STRUCTURES", "Moving": "A unit can use a **MOVE** action to
//! move up or down 1 floor for each MP spent."; "Units inside can also move onto the
//! structure's roof by moving up from the structure's top floor.").
//!
//! The design is R512: a unit's height is the ground floor (no value: the default, left out of
//! the serialised state so games made before replay byte for byte), a floor above it, or the
//! roof. A `move` path names a height after the square (`E5@2`, `E5@roof`). Built: the model
//! and the syntax (R513), moving between floors (R514, here and `flow::floors`), range and line
//! of sight between heights (R515, `flow::floors_fire`) and cover there (R516, here), and a
//! scenario's `floors` (R517).

use super::citation::{Citation, RuleId};
use super::geometry::{self, CoverReport, CoverSource, MoveError, Mover, Occupancy, Sighter};
use super::model::{Board, Cover, Square, UnitType};
use super::structures::{structure_at, Structure, StructureKind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A height above the ground floor (R512). Floor 1 is the ground floor and is never stored:
/// a unit on it has no `Height` at all, so a `Floor` is always 2 or more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Height {
    /// Floor 2 or above, inside the structure.
    Floor(u8),
    /// On top of the structure, outside it (004 "Cover": "A squad on the roof of a structure is
    /// outside of that structure.").
    Roof,
}

impl fmt::Display for Height {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Height::Floor(n) => write!(f, "@{n}"),
            Height::Roof => f.write_str("@roof"),
        }
    }
}

/// A word written `<square>@<height>` (R512's path syntax): the square part and the height,
/// `None` for `@1` (the ground floor). `None` overall for a word without `@`; `Err` with the
/// reason for a height that is not one.
pub fn split(word: &str) -> Option<(&str, Result<Option<Height>, String>)> {
    let (square, height) = word.split_once('@')?;
    let parsed = if height.eq_ignore_ascii_case("roof") {
        Ok(Some(Height::Roof))
    } else {
        match height.parse::<u8>() {
            Ok(1) => Ok(None),
            Ok(n) if n >= 2 => Ok(Some(Height::Floor(n))),
            _ => Err(format!(
                "`{word}`: a height is a floor number from 1 (the ground floor) or `roof`, like {square}@2 or {square}@roof"
            )),
        }
    };
    Some((square, parsed))
}

/// The refusal of a square written with a height where no height is read: only a `move` path
/// names one (R513, R514); anywhere else a unit is named, or the plain square. `None` for a word
/// without `@`.
pub fn refusal(word: &str) -> Option<String> {
    let (square, height) = split(word)?;
    let square = square.to_ascii_uppercase();
    Some(match height {
        Err(reason) => reason,
        Ok(None) => format!(
            "`{word}` names the ground floor: write the square alone, {square} (R513)"
        ),
        Ok(Some(h)) => format!(
            "`{word}` names a height above the ground floor ({}): a height is named only in a plain `move` path, without `spare`, `board` or `exit` (004 \"Moving\": \"A unit can use a MOVE action to move up or down 1 floor for each MP spent.\"; R513, R514); here write {square}",
            h.describe()
        ),
    })
}

impl Height {
    /// "floor 2", "the roof".
    pub fn describe(self) -> String {
        match self {
            Height::Floor(n) => format!("floor {n}"),
            Height::Roof => "the roof".into(),
        }
    }
}

/// Where a unit stands as the board text writes it (R512): `E5` on the ground floor and
/// outside, `E5@2` on a floor above, `E5@roof` on the roof.
pub fn place(at: Square, height: Option<Height>) -> String {
    match height {
        Some(h) => format!("{at}{h}"),
        None => at.to_string(),
    }
}

/// A place in a `move` path: a square and the height on it (`None`: the ground floor, R512).
pub type Spot = (Square, Option<Height>);

/// A path written without heights: every square on the ground floor.
pub fn plain(squares: &[Square]) -> Vec<Spot> {
    squares.iter().map(|&s| (s, None)).collect()
}

/// A path as reports write it: `E6 E5 E5@2`.
pub fn path_text(path: &[Spot]) -> String {
    let words: Vec<String> = path.iter().map(|&(s, h)| place(s, h)).collect();
    words.join(" ")
}

/// The level of a height in a structure of `floors` floors: 1 the ground floor, `n` floor `n`,
/// `floors + 1` the roof (R512).
pub fn level(h: Option<Height>, floors: u8) -> u8 {
    match h {
        None => 1,
        Some(Height::Floor(n)) => n,
        Some(Height::Roof) => floors.saturating_add(1),
    }
}

/// A unit standing above the ground floor, as a step between heights needs to see it.
#[derive(Debug, Clone)]
pub struct Raised {
    pub unit: String,
    pub side: String,
    pub at: Square,
    pub height: Height,
}

const RULE_FLOORS: Citation = RuleId::Structures
    .with("A unit can use a MOVE action to move up or down 1 floor for each MP spent");

fn refusal_of(reason: String, rule: Citation) -> MoveError {
    MoveError {
        reason,
        rule: rule.to_string(),
    }
}

/// Why `mover` may not make the step `from` → `to` of a `move` path, of which at least one end is
/// above the ground floor (004 "Moving"; R512, R514); `None` when it may, for 1 MP: "A unit can
/// use a MOVE action to move up or down 1 floor for each MP spent."; "Units may move diagonally
/// both vertically and horizontally. Each space, in any direction, costs 1 MP."; "Units inside
/// can also move onto the structure's roof by moving up from the structure's top floor."
pub fn step_block(
    board: &Board,
    mover: &Mover,
    raised: &[Raised],
    from: Spot,
    to: Spot,
) -> Option<MoveError> {
    let (a, b) = (from.0, to.0);
    let (pa, pb) = (place(a, from.1), place(b, to.1));
    let who = &mover.unit;
    if !matches!(mover.unit_type, UnitType::Squad | UnitType::Hero) {
        return Some(refusal_of(
            format!("{who} is a vehicle: only soldiers and heroes go above the ground floor of a structure (R514); stay on the ground floor"),
            RULE_FLOORS,
        ));
    }
    let s = match (structure_at(board, a), structure_at(board, b)) {
        (Some(s), Some(t)) if s.id == t.id => s,
        _ => {
            return Some(refusal_of(
                format!("{who} cannot step from {pa} to {pb}: floors above the ground and the roof are inside one structure's squares, and a unit enters and leaves a structure only on the ground floor"),
                RuleId::Structures.with("Units can only enter a structure from the ground floor"),
            ))
        }
    };
    if let Some(why) = height_missing(s, from.1).or_else(|| height_missing(s, to.1)) {
        return Some(why);
    }
    let (la, lb) = (level(from.1, s.floors), level(to.1, s.floors));
    let (dx, dy) = a.delta(b);
    if dx > 1 || dy > 1 || la.abs_diff(lb) > 1 || (a == b && la == lb) {
        return Some(refusal_of(
            format!("{who} cannot step from {pa} to {pb}: each step of a move goes to a neighbouring space, up or down 1 floor, or both at once, for 1 MP; name every step, like {} {}", place(a, from.1), place(a, Some(Height::Floor(la.max(1) + 1)))),
            RuleId::Structures.with("Units may move diagonally both vertically and horizontally. Each space, in any direction, costs 1 MP"),
        ));
    }
    let roof = (from.1 == Some(Height::Roof), to.1 == Some(Height::Roof));
    if roof.0 != roof.1 && a != b {
        return Some(refusal_of(
            format!("{who} cannot step from {pa} to {pb}: a unit goes onto the roof straight up from the top floor and comes down straight into it, on the same space"),
            RuleId::Structures.with("Units inside can also move onto the structure's roof by moving up from the structure's top floor"),
        ));
    }
    if roof.1 && !roof.0 && la != s.floors {
        return Some(refusal_of(
            format!("{who} cannot go onto the roof from {pa}: only from the top floor of the {} {} (floor {})", s.kind.name(), s.id, s.floors),
            RuleId::Structures.with("Units inside can also move onto the structure's roof by moving up from the structure's top floor"),
        ));
    }
    if !(roof.0 && roof.1) {
        if let Some(why) = wall_block(board, s, a, b) {
            return Some(refusal_of(
                format!("{who} cannot step from {pa} to {pb}: {why}"),
                RuleId::Movement.with("walls"),
            ));
        }
    }
    if let (Some(h), Some(o)) = (
        to.1,
        raised.iter().find(|r| r.at == b && Some(r.height) == to.1),
    ) {
        if o.side != mover.side {
            return Some(refusal_of(
                format!("{pb} is occupied by enemy unit {} ({}): no unit moves through an enemy's space", o.unit, h.describe()),
                RuleId::Movement.with("one unit per square"),
            ));
        }
    }
    None
}

/// Why `h` is no height of `s` (R514): a floor above its `floors`, or the roof of a hut.
pub fn height_missing(s: &Structure, h: Option<Height>) -> Option<MoveError> {
    let name = format!("the {} {}", s.kind.name(), s.id);
    match h {
        Some(Height::Floor(n)) if n > s.floors => Some(refusal_of(
            format!(
                "{name} has {} floor{}: there is no floor {n}",
                s.floors,
                if s.floors == 1 { "" } else { "s" }
            ),
            RULE_FLOORS,
        )),
        Some(Height::Roof) if s.kind == StructureKind::Hut => Some(refusal_of(
            format!("{name} is a Quonset hut: its rounded roof is no place to stand (R514)"),
            RuleId::QuonsetHuts
                .with("Huts are never more than 1 story tall, can only be entered at ground level"),
        )),
        _ => None,
    }
}

/// A wall between `a` and `b` inside `s` above the ground (R514): interior walls stand on every
/// floor; a diagonal is closed when both its corners are (a wall, or the corner outside `s`).
fn wall_block(board: &Board, s: &Structure, a: Square, b: Square) -> Option<String> {
    let (dx, dy) = a.delta(b);
    if dx + dy == 1 {
        return board
            .wall_between(a, b)
            .then(|| format!("a wall stands between {a} and {b}"));
    }
    if dx + dy < 2 {
        return None;
    }
    let corners = [
        board.square(b.col() as i32, a.row() as i32),
        board.square(a.col() as i32, b.row() as i32),
    ];
    let open = corners
        .iter()
        .flatten()
        .any(|&c| s.contains(c) && !board.wall_between(a, c) && !board.wall_between(c, b));
    (!open).then(|| format!("walls close both corners between {a} and {b}"))
}

/// The level of a unit standing on `at` at `h` on `board` (R512): 1 the ground floor.
pub fn level_at(board: &Board, (at, h): Spot) -> u8 {
    level(h, structure_at(board, at).map_or(1, |s| s.floors))
}

/// Whether a unit at `a` is inside the structure a unit at `b` stands in (a roof is outside).
fn inside_same(board: &Board, a: Spot, b: Spot) -> bool {
    let inside = |(at, h): Spot| structure_at(board, at).filter(|_| h != Some(Height::Roof));
    matches!((inside(a), inside(b)), (Some(x), Some(y)) if x.id == y.id)
}

/// Two units at different heights, for an attack (004 "Firing"; R515): how many levels apart, and
/// the space added to the distance. `None` when both stand on the ground floor (or outside), or
/// an aircraft is one of them (it flies above every floor, R503). "When a unit outside a
/// structure attacks an enemy unit inside a structure and above the ground floor, add 1 space";
/// "Note that the unit on the lower level must add 1 to its range": the two name one case more
/// than once, so 1 space, never 2.
pub fn apart(board: &Board, shooter: Spot, target: Spot, air: bool) -> Option<(u8, u32)> {
    if air || (shooter.1.is_none() && target.1.is_none()) {
        return None;
    }
    let (ls, lt) = (level_at(board, shooter), level_at(board, target));
    let outside_in =
        matches!(target.1, Some(Height::Floor(_))) && !inside_same(board, shooter, target);
    let lower = lt == ls + 1;
    Some((ls.abs_diff(lt), (outside_in || lower) as u32))
}

/// The cover of a squad at `t` against a shot from `s` with their heights (004 "Cover", "Firing";
/// R516); exactly `geometry::cover_explained` when both stand on the ground floor. Above it: a
/// cover element and the terrain of a space are on its ground floor; a roof is outside its
/// structure, "automatically in soft cover when targeted by an enemy unit that is not also on the
/// roof of that structure" (and no corner cover there, nor a second soft source for being 1
/// floor apart); 1 floor apart, one more soft source ("both units are considered to be in soft
/// cover"); inside, the structure's own cover (R504), a
/// shooter on a roof or an aircraft counting as outside. Sources combine as usual.
pub fn cover_explained(
    board: &Board,
    occ: &Occupancy,
    (s, sh): (Sighter, Option<Height>),
    (t, th): (Sighter, Option<Height>),
    air: bool,
) -> CoverReport {
    let report = geometry::cover_explained(board, occ, s, t);
    if sh.is_none() && th.is_none() {
        return report;
    }
    let roof = Some(Height::Roof);
    let mut sources: Vec<CoverSource> = report
        .sources
        .into_iter()
        .filter(|c| match c {
            CoverSource::Element(_) | CoverSource::Terrain(_) => th.is_none(),
            CoverSource::Structure(..) => false,
            _ => th != roof,
        })
        .collect();
    let one = matches!((structure_at(board, s.square), structure_at(board, t.square)), (Some(x), Some(y)) if x.id == y.id);
    if th == roof {
        if !(sh == roof && one) {
            let name = structure_at(board, t.square).map_or(String::new(), |x| {
                format!(" of the {} {}", x.kind.name(), x.id)
            });
            sources.push(CoverSource::Structure(
                Cover::Soft,
                format!("on the roof{name}, attacked from off it"),
            ));
        }
    } else if let Some((level, why)) = super::structures::cover(board, s, air || sh == roof, t) {
        sources.push(CoverSource::Structure(level, why));
    }
    // The roof's soft cover is the same soft cover as 1 floor apart, not a second source.
    let apart1 = apart(board, (s.square, sh), (t.square, th), air).is_some_and(|(n, _)| n == 1);
    if apart1 && th != roof {
        sources.push(CoverSource::Structure(Cover::Soft, "1 floor apart".into()));
    }
    let cover = sources.iter().fold(Cover::None, |acc, c| match c.level() {
        Cover::Hard => Cover::Hard,
        _ => acc.add_soft(),
    });
    CoverReport { cover, sources }
}

/// The places above the ground floor one step of a `move` path takes a unit at `from` to,
/// inside its structure (R514): the orders template offers those it accepts (R517).
pub fn steps_up_from(board: &Board, from: Spot) -> Vec<Spot> {
    let Some(s) = structure_at(board, from.0) else {
        return vec![];
    };
    let top = if s.kind == StructureKind::Hut {
        s.floors
    } else {
        s.floors + 1
    };
    let here = level(from.1, s.floors);
    let mut out = vec![];
    for &sq in s
        .squares
        .iter()
        .filter(|q| **q == from.0 || q.adjacent(from.0))
    {
        for l in here.saturating_sub(1).max(2)..=(here + 1).min(top) {
            let h = if l > s.floors {
                Height::Roof
            } else {
                Height::Floor(l)
            };
            if (sq, Some(h)) != from {
                out.push((sq, Some(h)));
            }
        }
    }
    out
}
