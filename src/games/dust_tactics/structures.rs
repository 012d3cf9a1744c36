//! Structures, bunkers and Quonset huts (004 "Structures", "QUONSET HUTS"; issue 12), as scenario
//! data on the [`Board`]: which squares a structure covers, its entrances (doors and windows, large
//! or small) and its kind. Their outer walls are ordinary board walls, so walls keep blocking
//! movement and line of sight as before; this module adds what only structures do: entering only
//! through an entrance and never diagonally, who may use which entrance, the cover a structure
//! gives, and the entrance spaces attacks in and out must use (rulings R500–R510).
//!
//! Floors above the ground and roofs (004 "Moving", "Firing" at different heights) are
//! `floors.rs`, `flow/floors.rs` and `flow/floors_fire.rs` (R512–R517).

use super::citation::{Citation, RuleId};
use super::geometry::{MoveError, Mover, Sighter};
use super::model::{Board, Cover, Square, UnitType};
use serde::{Deserialize, Serialize};

/// What kind of structure stands on the squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StructureKind {
    /// A building: the normal structure rules (004 "Structures").
    Building,
    /// A bunker: a structure with a back door (004 "explosives", "Engineer Vehicle").
    Bunker,
    /// A Quonset hut: soldiers only, through its door, soft cover only (004 "QUONSET HUTS").
    Hut,
}

impl StructureKind {
    pub fn name(self) -> &'static str {
        match self {
            StructureKind::Building => "building",
            StructureKind::Bunker => "bunker",
            StructureKind::Hut => "Quonset hut",
        }
    }
}

/// A door or a window (004 "Moving": "an entrance: a door or a window").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntranceKind {
    Door,
    Window,
    /// A bunker's back door (004 "explosives"): a door.
    BackDoor,
}

impl EntranceKind {
    pub fn name(self) -> &'static str {
        match self {
            EntranceKind::Door => "door",
            EntranceKind::Window => "window",
            EntranceKind::BackDoor => "back door",
        }
    }
}

/// 004 "Moving": "**large** (one space wide) and **small** (less than one space wide)".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntranceSize {
    Large,
    Small,
}

/// An entrance: the edge between `at` (a square of the structure) and `to` (the orthogonal
/// neighbour outside it) has no wall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrance {
    pub at: Square,
    pub to: Square,
    pub kind: EntranceKind,
    pub size: EntranceSize,
}

/// A structure on the board (R500; its floors R517).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Structure {
    /// The name reports print ("bunker", "hut-1").
    pub id: String,
    pub kind: StructureKind,
    /// Its squares, in board order.
    pub squares: Vec<Square>,
    pub entrances: Vec<Entrance>,
    /// Its floors, the ground floor counted (R512): 1 unless the scenario says more, and left out
    /// of the serialised board then, so games made before replay byte for byte.
    #[serde(default = "one_floor", skip_serializing_if = "is_one_floor")]
    pub floors: u8,
}

fn one_floor() -> u8 {
    1
}

fn is_one_floor(n: &u8) -> bool {
    *n == 1
}

/// The most floors a structure may have (R517: the seeds print no building tiles; a board's
/// buildings are low, and a floor number is one digit in a path, `E5@9`).
pub const MAX_FLOORS: u32 = 9;

const RULE_MOVING: Citation = RuleId::Structures.with("Moving");

impl Structure {
    pub fn contains(&self, sq: Square) -> bool {
        self.squares.binary_search(&sq).is_ok()
    }

    /// The entrance on the edge between `a` and `b`, either way round.
    pub fn entrance(&self, a: Square, b: Square) -> Option<&Entrance> {
        self.entrances
            .iter()
            .find(|e| (e.at, e.to) == (a, b) || (e.at, e.to) == (b, a))
    }

    /// 004 "Cover": "a space that shows an entrance".
    pub fn shows_entrance(&self, sq: Square) -> bool {
        self.entrances.iter().any(|e| e.at == sq)
    }

    /// The squares as a short text: "D2–F3" for a rectangle, else the list.
    pub fn extent(&self) -> String {
        let (Some(first), Some(last)) = (self.squares.first(), self.squares.last()) else {
            return String::new();
        };
        let (c0, c1) = self.squares.iter().fold((u8::MAX, 0), |(lo, hi), s| {
            (lo.min(s.col()), hi.max(s.col()))
        });
        let rect = (last.row() - first.row() + 1) as usize * (c1 - c0 + 1) as usize;
        if rect == self.squares.len() && first.col() == c0 && last.col() == c1 {
            format!("{first}-{last}")
        } else {
            let names: Vec<String> = self.squares.iter().map(|s| s.to_string()).collect();
            names.join(" ")
        }
    }
}

/// The structure whose squares hold `sq`.
pub fn structure_at(board: &Board, sq: Square) -> Option<&Structure> {
    board.structures.iter().find(|s| s.contains(sq))
}

/// The structure a unit of `unit_type` on `sq` is inside. An aircraft is never inside: "Aircraft
/// cannot enter any structure" and "can stop ... even on top of a structure" (004; R503).
pub fn inside(board: &Board, sq: Square, aircraft: bool) -> Option<&Structure> {
    if aircraft {
        return None;
    }
    structure_at(board, sq)
}

fn move_err(reason: String, rule: impl Into<Citation>) -> MoveError {
    MoveError {
        reason,
        rule: rule.into().to_string(),
    }
}

/// Why the step `a`→`b` (adjacent squares) may not go into or out of a structure; `None` when it
/// does not cross a structure's outline or may (004 "Moving", "QUONSET HUTS"; R501, R502). A
/// crossing with no entrance is left to the wall standing there.
pub fn step_block(board: &Board, mover: &Mover, a: Square, b: Square) -> Option<MoveError> {
    if board.structures.is_empty() {
        return None;
    }
    let (sa, sb) = (structure_at(board, a), structure_at(board, b));
    if sa.map(|s| &s.id) == sb.map(|s| &s.id) {
        return None;
    }
    let s = sa.or(sb)?;
    let (dx, dy) = a.delta(b);
    if dx == 1 && dy == 1 {
        return Some(move_err(
            format!(
                "{} cannot step diagonally from {a} to {b} into or out of the {} {}: the corners of its entrances block diagonal movement; go through an entrance in a straight step",
                mover.unit, s.kind.name(), s.id
            ),
            RULE_MOVING,
        ));
    }
    // Both squares may be in two structures side by side: each one's entrance must allow it.
    for s in [sa, sb].into_iter().flatten() {
        let e = s.entrance(a, b)?;
        if let Some(why) = entrance_refusal(s, e, mover) {
            return Some(why);
        }
    }
    None
}

/// A step `a`→`b` in the air over a structure (004 "Moving": "Soldiers and heroes with the
/// *Jump* skill can jump over any structure (if it can move far enough to reach the other side)";
/// "A unit with the *Jump* skill cannot enter a structure by jumping"; "Units cannot land on top
/// of structures"; R510): `Some(over)` when a soldier or hero with Jump may make it, with `over`
/// true while it is above the structure's squares. It takes off only from outside every
/// structure, ignores the walls while above, and must come down outside; `None` otherwise
/// (vehicles with Jump never jump over a structure).
pub fn jump_over(board: &Board, mover: &Mover, over: bool, a: Square, b: Square) -> Option<bool> {
    if !mover.jump || mover.unit_type == UnitType::Vehicle || board.structures.is_empty() {
        return None;
    }
    let above_b = structure_at(board, b).is_some();
    if over {
        return Some(above_b);
    }
    (structure_at(board, a).is_none() && above_b).then_some(true)
}

/// The refusal of a jump that would end above a structure (R510).
pub fn no_landing(mover: &Mover, at: Square) -> MoveError {
    move_err(
        format!(
            "{} would come down on {at}, on top of a structure: a unit with Jump jumps over a structure and lands beyond it, and enters one only through an entrance",
            mover.unit
        ),
        RuleId::Structures.with("Units cannot land on top of structures"),
    )
}

/// Why `mover` may not stand inside the structure on `sq`: a vehicle never stands in a hut or in
/// a structure without a large entrance, since it could not have come in (004 "Moving"; R501).
pub fn stand_block(board: &Board, mover: &Mover, sq: Square) -> Option<MoveError> {
    let s = structure_at(board, sq)?;
    let large = s.entrances.iter().any(|e| e.size == EntranceSize::Large);
    if mover.unit_type != UnitType::Vehicle || (large && s.kind != StructureKind::Hut) {
        return None;
    }
    Some(move_err(
        format!(
            "{} is a vehicle and {sq} is inside the {} {}, which no vehicle can enter (vehicles only through large entrances, never into huts)",
            mover.unit,
            s.kind.name(),
            s.id
        ),
        RULE_MOVING,
    ))
}

/// Why `mover` may not pass the entrance `e` of `s`.
fn entrance_refusal(s: &Structure, e: &Entrance, mover: &Mover) -> Option<MoveError> {
    let vehicle = mover.unit_type == UnitType::Vehicle;
    let at = format!(
        "the {} of the {} {} ({}|{})",
        e.kind.name(),
        s.kind.name(),
        s.id,
        e.at,
        e.to
    );
    if s.kind == StructureKind::Hut {
        if vehicle {
            return Some(move_err(
                format!(
                    "{} is a vehicle: only soldier units may enter a Quonset hut ({at})",
                    mover.unit
                ),
                RuleId::QuonsetHuts
                    .with("Only soldier units may enter huts, and only through the door"),
            ));
        }
        if e.kind == EntranceKind::Window {
            return Some(move_err(
                format!(
                    "{} cannot pass {at}: a hut is entered only through its door",
                    mover.unit
                ),
                RuleId::QuonsetHuts
                    .with("Only soldier units may enter huts, and only through the door"),
            ));
        }
        return None;
    }
    if vehicle && e.size == EntranceSize::Small {
        return Some(move_err(
            format!(
                "{} is a vehicle: {at} is a small entrance, and vehicles enter structures through large entrances only",
                mover.unit
            ),
            RuleId::Structures.with("Vehicles can enter structures through large entrances"),
        ));
    }
    None
}

/// The cover a structure gives a squad on `target` against a shot from `shooter` (004 "Cover",
/// "QUONSET HUTS"; R504): inside, against a shooter inside the same structure, soft (none in a
/// hut); against a shooter outside it, hard (soft from a hut). `None`: the target is not inside.
pub fn cover(
    board: &Board,
    shooter: Sighter,
    shooter_aircraft: bool,
    target: Sighter,
) -> Option<(Cover, String)> {
    let s = inside(board, target.square, false)?;
    let same = inside(board, shooter.square, shooter_aircraft).is_some_and(|o| o.id == s.id);
    let (level, why) = match (s.kind, same) {
        (StructureKind::Hut, true) => return None,
        (StructureKind::Hut, false) => (Cover::Soft, "attacked from outside the hut"),
        (_, true) => (Cover::Soft, "attacked from inside the same structure"),
        (_, false) => (Cover::Hard, "attacked from outside the structure"),
    };
    Some((
        level,
        format!("inside the {} {} ({why})", s.kind.name(), s.id),
    ))
}

/// Whether `sq` lies beyond the entrance `e` within the straight cone of its opening: further out
/// than sideways, so the line between the dots crosses the open edge itself, never its corner
/// (004 "Firing": "the entrance to a structure does not allow LOS to run through diagonally";
/// "in the direction of the attack"; R505).
fn through_entrance(e: &Entrance, sq: Square) -> bool {
    let out = (
        e.to.col() as i32 - e.at.col() as i32,
        e.to.row() as i32 - e.at.row() as i32,
    );
    let d = (
        sq.col() as i32 - e.at.col() as i32,
        sq.row() as i32 - e.at.row() as i32,
    );
    let forward = d.0 * out.0 + d.1 * out.1;
    let sideways = (d.0 * out.1 - d.1 * out.0).abs();
    forward > 0 && sideways < forward
}

/// Why a unit on `shooter` may not attack a unit on `target` because of a structure (004 "Cover",
/// "Aircraft"; R505, R506); `None` when it may. Lines inside one structure follow the normal
/// rules. Out of a structure the shooter stands on a space showing an entrance that opens towards
/// the target; into one the target stands on such a space opening towards the shooter. An aircraft
/// only needs the space to show an exit (it flies above).
pub fn fire_block(
    board: &Board,
    shooter: Square,
    shooter_aircraft: bool,
    target: Square,
    target_aircraft: bool,
) -> Option<(String, Citation)> {
    if board.structures.is_empty() {
        return None;
    }
    let si = inside(board, shooter, shooter_aircraft);
    let ti = inside(board, target, target_aircraft);
    if let (Some(a), Some(b)) = (si, ti) {
        if a.id == b.id {
            return None;
        }
    }
    let air = shooter_aircraft || target_aircraft;
    let rule = RuleId::Structures.with("Cover: a space that shows an entrance");
    if let Some(s) = si {
        if !s.shows_entrance(shooter) {
            return Some((
                format!(
                    "{shooter} is inside the {} {} and shows no entrance: a unit inside attacks a unit outside only from a space that shows an entrance ({})",
                    s.kind.name(),
                    s.id,
                    entrances_text(s)
                ),
                rule,
            ));
        }
        if !air
            && !s
                .entrances
                .iter()
                .any(|e| e.at == shooter && through_entrance(e, target))
        {
            return Some((
                format!(
                    "{target} is not in the direction of an entrance of {shooter}: the line must leave the {} {} straight through the opening, not diagonally past its corner",
                    s.kind.name(),
                    s.id
                ),
                rule,
            ));
        }
    }
    if let Some(s) = ti {
        if !s.shows_entrance(target) {
            return Some((
                format!(
                    "{target} is inside the {} {} and shows no entrance: a unit outside attacks a unit inside only on a space that shows an entrance ({})",
                    s.kind.name(),
                    s.id,
                    entrances_text(s)
                ),
                rule,
            ));
        }
        if !air
            && !s
                .entrances
                .iter()
                .any(|e| e.at == target && through_entrance(e, shooter))
        {
            return Some((
                format!(
                    "{shooter} is not in the direction of an entrance of {target}: the line must enter the {} {} straight through the opening, not diagonally past its corner",
                    s.kind.name(),
                    s.id
                ),
                rule,
            ));
        }
    }
    None
}

/// "door E3|E4 (large), window D3|C3 (small)".
pub fn entrances_text(s: &Structure) -> String {
    let parts: Vec<String> = s
        .entrances
        .iter()
        .map(|e| {
            let size = match e.size {
                EntranceSize::Large => "large",
                EntranceSize::Small => "small",
            };
            format!("{} {}|{} ({size})", e.kind.name(), e.at, e.to)
        })
        .collect();
    if parts.is_empty() {
        "no entrance".into()
    } else {
        parts.join(", ")
    }
}

/// The board edges a structure's outline walls: every side of its squares towards a square of the
/// board outside it, except its entrances (R500).
pub fn outline(board: &Board, s: &Structure) -> Vec<(Square, Square)> {
    let mut out = Vec::new();
    for &sq in &s.squares {
        for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
            let Some(n) = board.square(sq.col() as i32 + dx, sq.row() as i32 + dy) else {
                continue;
            };
            if !s.contains(n) && s.entrance(sq, n).is_none() {
                out.push((sq.min(n), sq.max(n)));
            }
        }
    }
    out
}

/// A structure as a scenario file writes it (docs/scenarios.md).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStructure {
    pub id: String,
    pub kind: StructureKind,
    /// Squares ("D2") or rectangles ("D2:F3").
    pub squares: Vec<String>,
    /// Floors, the ground floor counted: 1 to [`MAX_FLOORS`] (R517).
    #[serde(default)]
    pub floors: Option<u32>,
    #[serde(default)]
    pub entrances: Vec<RawEntrance>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEntrance {
    pub at: String,
    pub to: String,
    pub kind: EntranceKind,
    pub size: EntranceSize,
}

/// Validates one structure of a scenario file against `board` (its squares, terrain, cover and
/// the structures already read) and returns it; errors are (field, message) for the scenario's
/// own error format. The caller adds its outline walls.
pub fn parse_structure(
    board: &Board,
    index: usize,
    raw: &RawStructure,
) -> Result<Structure, (String, String)> {
    let field = format!("structures[{index}]");
    let fail = |f: &str, msg: String| Err((format!("{field}.{f}"), msg));
    let on = |f: &str, text: &str| {
        board.parse_square(text).ok_or_else(|| {
            (
                format!("{field}.{f}"),
                format!("`{text}` is not a square on this board: write a column letter and a row number like C4"),
            )
        })
    };
    // 004 "Moving": "move up or down 1 floor for each MP spent" (R512, R517); "QUONSET HUTS":
    // "Huts are never more than 1 story tall".
    let floors = raw.floors.unwrap_or(1);
    if !(1..=MAX_FLOORS).contains(&floors) {
        return fail(
            "floors",
            format!("a structure has 1 to {MAX_FLOORS} floors, the ground floor counted; write floors = 2 for a building of two storeys"),
        );
    }
    if raw.kind == StructureKind::Hut && floors != 1 {
        return fail(
            "floors",
            "huts are never more than 1 story tall (004 QUONSET HUTS): write floors = 1".into(),
        );
    }
    let mut squares = Vec::new();
    for text in &raw.squares {
        let (a, b) = match text.split_once(':') {
            Some((a, b)) => (on("squares", a)?, on("squares", b)?),
            None => {
                let a = on("squares", text)?;
                (a, a)
            }
        };
        for row in a.row().min(b.row())..=a.row().max(b.row()) {
            for col in a.col().min(b.col())..=a.col().max(b.col()) {
                let Some(sq) = board.square(col as i32, row as i32) else {
                    continue;
                };
                if board.terrain(sq) == super::model::Terrain::Impassable {
                    return fail("squares", format!("{sq} is impassable (no dot): a structure's squares are ones units can stand on"));
                }
                if let Some(other) = structure_at(board, sq) {
                    return fail(
                        "squares",
                        format!(
                            "{sq} is already in the structure {}: structures do not overlap",
                            other.id
                        ),
                    );
                }
                squares.push(sq);
            }
        }
    }
    squares.sort();
    squares.dedup();
    if squares.is_empty() {
        return fail(
            "squares",
            "a structure needs at least one square, like [\"D2:F3\"]".into(),
        );
    }
    let mut s = Structure {
        id: raw.id.clone(),
        kind: raw.kind,
        squares,
        entrances: Vec::new(),
        floors: floors as u8,
    };
    for (i, e) in raw.entrances.iter().enumerate() {
        let f = format!("entrances[{i}]");
        let (at, to) = (on(&f, &e.at)?, on(&f, &e.to)?);
        let (dx, dy) = at.delta(to);
        if !s.contains(at) || s.contains(to) || dx + dy != 1 {
            return fail(&f, format!("an entrance is the edge between a square of the structure (`at`) and the square beside it outside (`to`), sharing a side; {at} and {to} are not"));
        }
        if s.entrance(at, to).is_some() {
            return fail(&f, format!("the entrance {at}|{to} is listed twice"));
        }
        if board.wall_between(at, to) {
            return fail(
                &f,
                format!(
                    "board.walls puts a wall on the entrance {at}|{to}: leave it out of the walls"
                ),
            );
        }
        if e.kind == EntranceKind::BackDoor && s.kind != StructureKind::Bunker {
            return fail(
                &f,
                "only a bunker has a back door: write kind = \"door\"".into(),
            );
        }
        s.entrances.push(Entrance {
            at,
            to,
            kind: e.kind,
            size: e.size,
        });
    }
    if s.entrances.is_empty() {
        return fail("entrances", "units enter and leave a structure only through an entrance (004 Structures): give it at least one door or window".into());
    }
    let doors = s
        .entrances
        .iter()
        .filter(|e| e.kind != EntranceKind::Window)
        .count();
    if s.kind == StructureKind::Hut && !(1..=2).contains(&doors) {
        return fail("entrances", format!("a Quonset hut has one door, or one at each end of a longer hut (004 QUONSET HUTS), and this one has {doors}"));
    }
    // 004 "Cover": "Anti-tank traps can only be placed inside structures that have at least one
    // large entrance."
    let large = s.entrances.iter().any(|e| e.size == EntranceSize::Large);
    if let Some(sq) = s
        .squares
        .iter()
        .find(|q| board.cover_kind(**q) == Some(super::model::CoverKind::TankTrap))
    {
        if !large || s.kind == StructureKind::Hut {
            return fail("squares", format!("{sq} holds an anti-tank trap, and anti-tank traps can only be placed inside structures that have at least one large entrance (004 Structures: Cover)"));
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(b: &Board, s: &str) -> Square {
        b.parse_square(s).unwrap()
    }

    #[test]
    fn the_cone_of_an_entrance_excludes_its_diagonals() {
        let b = Board::open(9, 9).unwrap();
        let e = Entrance {
            at: sq(&b, "E3"),
            to: sq(&b, "E4"),
            kind: EntranceKind::Door,
            size: EntranceSize::Large,
        };
        assert!(through_entrance(&e, sq(&b, "E9")));
        assert!(through_entrance(&e, sq(&b, "F6")));
        assert!(!through_entrance(&e, sq(&b, "F4")), "45° past the corner");
        assert!(!through_entrance(&e, sq(&b, "E2")), "behind the door");
    }
}
