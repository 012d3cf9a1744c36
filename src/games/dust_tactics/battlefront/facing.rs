//! 003 "Facing" and "Field of Fire" (issue 18, second slice): every unit faces one of eight
//! directions, and a front-mounted weapon fires only at targets within 45° either side of it.
//! Geometry (R250–R253, docs/rulings.md):
//! - a unit entering the board faces straight in from its edge; a unit placed by the scenario
//!   faces the far half of the board (R251);
//! - a move leaves the unit facing the direction of its last step (R252: turning in place with a
//!   Move that only rotates is `turn <direction>`, R254);
//! - a target is in a front arc when any point of its square is within ±45° of the facing, seen
//!   from the centre of the shooter's square; exactly 45° is in (R250);
//! - weapons fire in any direction unless their card marks them `front_arc` (R253).

use super::super::flow::Refusal;
use super::super::model::{Board, Square, WeaponLine, WeaponTrait};
use super::super::state::{LineOrder, State, Step, Target, UnitState};
use serde::{Deserialize, Serialize};

/// One of the eight directions a unit may face; north is towards row 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Facing {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

const ALL: [Facing; 8] = [
    Facing::N,
    Facing::NE,
    Facing::E,
    Facing::SE,
    Facing::S,
    Facing::SW,
    Facing::W,
    Facing::NW,
];

impl Facing {
    fn index(self) -> usize {
        ALL.iter().position(|f| *f == self).unwrap_or(0)
    }

    /// The direction of a step of (`dc`, `dr`) columns and rows (each -1, 0 or 1).
    pub fn of_delta(dc: i32, dr: i32) -> Option<Facing> {
        let f = match (dc.signum(), dr.signum()) {
            (0, -1) => Facing::N,
            (1, -1) => Facing::NE,
            (1, 0) => Facing::E,
            (1, 1) => Facing::SE,
            (0, 1) => Facing::S,
            (-1, 1) => Facing::SW,
            (-1, 0) => Facing::W,
            (-1, -1) => Facing::NW,
            _ => return None,
        };
        Some(f)
    }

    /// Reads a direction as orders write it (`W`, `ne`), nothing else on the line.
    pub fn parse(text: &str) -> Option<Facing> {
        let t = text.trim();
        ALL.into_iter()
            .find(|f| f.to_string().eq_ignore_ascii_case(t))
    }

    /// The facing after a step from `from` to `to`.
    pub fn of_step(from: Square, to: Square) -> Option<Facing> {
        Facing::of_delta(
            to.col() as i32 - from.col() as i32,
            to.row() as i32 - from.row() as i32,
        )
    }
}

impl std::fmt::Display for Facing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][self.index()];
        f.write_str(s)
    }
}

/// R251: a unit entering on `to` faces straight in from the edge it crossed (a long edge first
/// on a corner square).
pub fn entering(board: &Board, to: Square) -> Facing {
    if to.row() + 1 == board.height() {
        Facing::N
    } else if to.row() == 0 {
        Facing::S
    } else if to.col() == 0 {
        Facing::E
    } else if to.col() + 1 == board.width() {
        Facing::W
    } else {
        placed(board, to)
    }
}

/// R251: a unit the scenario places on `at` faces the far half of the board.
pub fn placed(board: &Board, at: Square) -> Facing {
    if (at.row() as u32) * 2 < board.height() as u32 {
        Facing::S
    } else {
        Facing::N
    }
}

/// The facing of `u` now under battlefront-2013 (`None` off the board, or under another ruleset,
/// where nothing faces).
pub fn of_unit(state: &State, u: &UnitState) -> Option<Facing> {
    if !state.rules().battlefront() {
        return None;
    }
    let at = u.at?;
    Some(
        u.facing
            .unwrap_or_else(|| placed(&state.scenario.board, at)),
    )
}

/// The facing `u` will have after the planned `steps` (an entry, then moves).
pub fn after_steps(state: &State, u: &UnitState, steps: &[Step]) -> Option<Facing> {
    let mut facing = of_unit(state, u);
    let mut at = u.at;
    for s in steps {
        match s {
            Step::Enter { to } => {
                facing = Some(entry_of(state, &u.id, *to));
                at = Some(*to);
            }
            Step::Turn { facing: f } => facing = Some(*f),
            // A Huge vehicle keeps its facing as it moves (R792).
            Step::Move { .. } if super::huge::keeps_facing(state, &u.id) => {}
            Step::Move { path, .. } => {
                for sq in path {
                    if let Some(f) = at.and_then(|a| Facing::of_step(a, *sq)) {
                        facing = Some(f);
                    }
                    at = Some(*sq);
                }
            }
            _ => {}
        }
    }
    facing
}

/// The facing of `unit` entering on `to`: R251's, or a Large vehicle's from the nearest edge (R771).
fn entry_of(state: &State, unit: &str, to: Square) -> Facing {
    match super::large2::is_id(state, unit) {
        true => super::large2::entry_facing(&state.scenario.board, to),
        false => entering(&state.scenario.board, to),
    }
}

/// Records the facing of `unit` after it entered on `to` (battlefront-2013 only).
pub fn record_entry(state: &mut State, unit: &str, to: Square) {
    if state.rules().battlefront() {
        let f = entry_of(state, unit, to);
        if let Some(u) = state.unit_mut(unit) {
            u.facing = Some(f);
        }
    }
}

/// Records the facing of `unit` after it moved from `from` along `path` (battlefront-2013 only):
/// the direction of its last step (R252).
pub fn record_move(state: &mut State, unit: &str, from: Square, path: &[Square]) {
    if !state.rules().battlefront() || super::huge::keeps_facing(state, unit) {
        return;
    }
    let mut prev = from;
    let mut facing = None;
    for sq in path {
        facing = Facing::of_step(prev, *sq).or(facing);
        prev = *sq;
    }
    if let (Some(f), Some(u)) = (facing, state.unit_mut(unit)) {
        u.facing = Some(f);
    }
}

/// R254: `turn` plans one Move action that only turns the unit; it needs the unit on the board
/// and no other Move in the activation (two Moves are one March Move, 003 "Actions").
pub fn plan_turn(
    state: &State,
    u: &UnitState,
    on_board: bool,
    moves: usize,
) -> Result<(), Refusal> {
    let refusal = |reason: String, instead: &str| Refusal {
        reason,
        rule: "003 \"Check Field of Fire\": a Move action may only turn the unit (ruling R254)"
            .to_string(),
        instead: instead.to_string(),
    };
    if !state.rules().battlefront() {
        return Err(Refusal {
            reason: format!(
                "`turn` is a battlefront-2013 order: under {} units have no facing and every weapon fires in any direction",
                state.rules().id()
            ),
            rule: "docs/orders.md".to_string(),
            instead: "leave out the `turn` line; `move`, `attack` or `nothing`".to_string(),
        });
    }
    super::large2::check_turn(state, u)?;
    if !on_board {
        return Err(refusal(
            format!(
                "{} is not on the battlefield yet: it enters facing in from its edge",
                u.id
            ),
            "move <entry square> first",
        ));
    }
    if moves > 0 {
        return Err(refusal(
            format!(
                "{} turns and moves in one activation: a turn is a whole Move action, and two Moves are one March Move",
                u.id
            ),
            "`turn <direction>` then `attack` or `nothing`; or move so that the last step points the way to face",
        ));
    }
    Ok(())
}

/// R617: `move … facing <direction>` ends the Move facing that way (003 "Move and March Move
/// Actions": units "end their move facing in any direction"). Under battlefront-2013 only, and
/// on the activation's last `move` line (a March Move's facing is where it ends).
pub fn plan_facing(state: &State, u: &UnitState, next_is_move: bool) -> Result<(), Refusal> {
    let rule = "003 \"Move and March Move Actions\": a Vehicle may \"end their move facing in any direction\" (ruling R617)";
    if !state.rules().battlefront() {
        return Err(Refusal {
            reason: format!(
                "`facing` is a battlefront-2013 order: under {} units have no facing",
                state.rules().id()
            ),
            rule: "docs/orders.md".to_string(),
            instead: "leave out `facing <direction>`".to_string(),
        });
    }
    if next_is_move {
        return Err(Refusal {
            reason: format!(
                "{} names a facing on a move another `move` line follows: the facing is where the move ends",
                u.id
            ),
            rule: rule.to_string(),
            instead: "write `facing <direction>` on the last `move` line".to_string(),
        });
    }
    Ok(())
}

/// Records the facing of `unit` after a `turn` (battlefront-2013 only).
pub fn record_turn(state: &mut State, unit: &str, facing: Facing) {
    if let Some(u) = state.unit_mut(unit) {
        u.facing = Some(facing);
    }
}

/// R250: whether any point of `to` lies within 45° either side of `facing` from the centre of
/// `from` (exactly 45° is in). Integer geometry on doubled coordinates, no floats.
pub fn in_front_arc(facing: Facing, from: Square, to: Square) -> bool {
    in_arc_from(facing, centre2(from, false), to)
}

/// The point a unit on `at` sees its arc from, in doubled board coordinates: the centre of its
/// square, or of its 2×2 block when it stands on four squares (R792).
fn centre2(at: Square, four: bool) -> (i32, i32) {
    let k = if four { 2 } else { 1 };
    (2 * at.col() as i32 + k, 2 * at.row() as i32 + k)
}

/// Whether any point of `to` is within 45° either side of `facing` from the doubled point `o`.
fn in_arc_from(facing: Facing, o: (i32, i32), to: Square) -> bool {
    // The target square's extent around the origin, doubled so corners are integers.
    let (x0, y0) = (2 * to.col() as i32 - o.0, 2 * to.row() as i32 - o.1);
    let (mut x0, mut x1, mut y0, mut y1) = (x0, x0 + 2, y0, y0 + 2);
    if x0 < 0 && x1 > 0 && y0 < 0 && y1 > 0 {
        return true; // the origin is inside the square: the unit's own
    }
    // Quarter turns (clockwise facing → anticlockwise board) until the facing is N or NE.
    for _ in 0..facing.index() / 2 {
        // Rotating the board a quarter anticlockwise: (x, y) → (y, -x).
        (x0, x1, y0, y1) = (y0, y1, -x1, -x0);
    }
    if facing.index() % 2 == 1 {
        // NE: the quadrant x ≥ 0, y ≤ 0.
        x1 >= 0 && y0 <= 0
    } else {
        // N: the cone -y ≥ |x|; the best point has the least y and the least |x|.
        let least_abs_x = if x0 <= 0 && x1 >= 0 {
            0
        } else {
            x0.abs().min(x1.abs())
        };
        -y0 >= least_abs_x
    }
}

/// Whether unit `id` stands on a 2×2 block (003's Huge vehicle, 004's large one).
fn four_squares(state: &State, id: Option<&str>) -> bool {
    id.and_then(|i| state.unit(i))
        .and_then(|u| state.cards.get(&u.card))
        .is_some_and(|c| c.four_squares())
}

/// R792: whether `target` (or the square `to` when no unit) is in the front arc of `shooter`
/// facing `facing` on `from`: any point of any of the target's squares within 45° either side,
/// seen from the centre of the shooter's square or of a Huge vehicle's 2×2 block.
pub fn in_arc_of(
    state: &State,
    (shooter, from): (&str, Square),
    (target, to): (Option<&str>, Square),
    facing: Facing,
) -> bool {
    let o = centre2(from, four_squares(state, Some(shooter)));
    let board = &state.scenario.board;
    // A Large vehicle's two squares (R768).
    let two = target.and_then(|t| super::large2::squares(state, t, to));
    two.or_else(|| super::super::geometry::footprint(board, to, four_squares(state, target)))
        .unwrap_or(vec![to])
        .into_iter()
        .any(|t| in_arc_from(facing, o, t))
}

/// Whether the weapon is front-mounted (its card marks it `front_arc`).
pub fn front_mounted(w: &WeaponLine) -> bool {
    w.traits.contains(&WeaponTrait::FrontArc)
}

/// 003 "Field of Fire": a front-mounted weapon of a unit facing `facing` from `from` may fire
/// at `target` on `to` only within its arc (R250, R792); the refusal says what to send instead.
fn check(
    state: &State,
    (shooter, from): (&str, Square),
    (target, to): (Option<&str>, Square),
    w: &WeaponLine,
    facing: Option<Facing>,
) -> Result<(), Refusal> {
    let Some(f) = facing.filter(|_| front_mounted(w)) else {
        return Ok(());
    };
    if in_arc_of(state, (shooter, from), (target, to), f) {
        return Ok(());
    }
    Err(Refusal {
        reason: format!(
            "{to} is outside the field of fire of {shooter}'s {}: it is front-mounted and {shooter} at {from} faces {f}, so it fires only 45 degrees either side of {f}",
            w.name
        ),
        rule: "003 \"Field of Fire\": vehicle weapons fire 45 degrees either side of the facing; a target outside needs a Move first (rulings R250, R252)".to_string(),
        instead: format!(
            "move first so that the last step points towards {to} (a unit faces the way it last stepped), then attack; or fire a turret or hatch weapon"
        ),
    })
}

/// Checks every declared line of an attack from `from` after the planned `steps` against its
/// weapon's field of fire (battlefront-2013 only).
pub fn check_lines(
    state: &State,
    u: &UnitState,
    steps: &[Step],
    from: Square,
    lines: &[LineOrder],
) -> Result<(), Refusal> {
    if !state.rules().battlefront() {
        return Ok(());
    }
    let facing = after_steps(state, u, steps);
    for l in lines {
        let (target, to) = match &l.target {
            Target::Unit { unit } | Target::Model { unit, .. } => {
                (Some(unit.as_str()), state.unit(unit).and_then(|t| t.at))
            }
            Target::Square { at } => (None, Some(*at)),
        };
        let w = state
            .unit(&l.shooter)
            .and_then(|s| state.cards.get(&s.card))
            .and_then(|c| c.weapon(&l.weapon));
        if let (Some(to), Some(w)) = (to, w) {
            check(state, (&l.shooter, from), (target, to), w, facing)?;
            // 002 "Weapons in Bunkers", "Close-combat Against Bunkers and Strongpoints" (R782).
            super::bunkers::check_line(state, (&l.shooter, from), (target, to), w)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(b: &Board, s: &str) -> Square {
        b.parse_square(s).unwrap()
    }

    #[test]
    fn front_arc_geometry() {
        let b = Board::open(9, 9).unwrap();
        let from = sq(&b, "E5");
        // Facing N: straight ahead, the 45° diagonal, the side square touching at 45° are in;
        // two squares to the side and everything behind are out.
        for (t, inside) in [
            ("E1", true),
            ("F4", true),
            ("I1", true),
            ("F5", true),
            ("G5", false),
            ("E6", false),
            ("I2", true),
            ("I3", false),
        ] {
            assert_eq!(in_front_arc(Facing::N, from, sq(&b, t)), inside, "N {t}");
        }
        for (f, t, inside) in [
            (Facing::S, "E9", true),
            (Facing::S, "E1", false),
            (Facing::E, "I5", true),
            (Facing::E, "A5", false),
            (Facing::W, "A5", true),
            (Facing::NE, "I1", true),
            (Facing::NE, "E1", true),
            (Facing::NE, "I5", true),
            (Facing::NE, "D6", false),
            (Facing::SW, "A9", true),
            (Facing::SW, "I1", false),
        ] {
            assert_eq!(in_front_arc(f, from, sq(&b, t)), inside, "{f} {t}");
        }
    }
}
