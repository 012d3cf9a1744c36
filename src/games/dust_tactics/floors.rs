//! Heights inside structures (004 "STRUCTURES", "Moving": "A unit can use a **MOVE** action to
//! move up or down 1 floor for each MP spent."; "Units inside can also move onto the
//! structure's roof by moving up from the structure's top floor.").
//!
//! The design is R512: a unit's height is the ground floor (no value: the default, left out of
//! the serialised state so games made before replay byte for byte), a floor above it, or the
//! roof. A `move` path names a height after the square (`E5@2`, `E5@roof`). Built: the model
//! and the syntax (R513) and moving between floors (R514, here and `flow::floors`); scenarios
//! with `floors` above 1 are still refused when read (R500) until ranges, sight and cover
//! between heights are built too, and the roof of a one-floor structure is not reached yet.

use super::citation::{Citation, RuleId};
use super::geometry::{MoveError, Mover};
use super::model::{Board, Square, UnitType};
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

/// Why `h` is no height of `s` (R514): a floor above its `floors`, or the roof of a hut or of a
/// structure of one floor, whose roof is not reached yet (R513).
fn height_missing(s: &Structure, h: Option<Height>) -> Option<MoveError> {
    let name = format!("the {} {}", s.kind.name(), s.id);
    match h {
        Some(Height::Floor(n)) if n > s.floors => Some(refusal_of(
            format!("{name} has {} floor{}: there is no floor {n}", s.floors, if s.floors == 1 { "" } else { "s" }),
            RULE_FLOORS,
        )),
        Some(Height::Roof) if s.kind == StructureKind::Hut => Some(refusal_of(
            format!("{name} is a Quonset hut: its rounded roof is no place to stand (R514)"),
            RuleId::QuonsetHuts.with("Huts are never more than 1 story tall, can only be entered at ground level"),
        )),
        Some(Height::Roof) if s.floors < 2 => Some(refusal_of(
            format!("{name} has one floor, and the roof of a structure of one floor is not played yet: sight, range and cover from it are still to build (R513, R514)"),
            RuleId::Structures.with("Units inside can also move onto the structure's roof by moving up from the structure's top floor"),
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
