//! 003's two-square Large vehicles under battlefront-2013 (issue 18, R767–R772): "Large
//! Vehicles and Large Aircraft occupy two squares" (003 "Unit Size"). A card says
//! `size = "large"`; the unit's square (what orders name) is its front, the other the square
//! behind it along its facing, so the vehicle faces N, E, S or W. Occupancy, sight, range and
//! close combat take both squares through `flow/large.rs`'s `squares_at`; the move is the
//! two-square search of `geometry/domino.rs`. A card with aircraft armour and `size = "large"`
//! is 003's Large Aircraft, flown by the same steps over any terrain (R773, `flow/aircraft.rs`).

use super::super::flow::Refusal;
use super::super::geometry::domino::{self, Body};
use super::super::geometry::{MoveError, MovePlan, Mover, Occupancy};
use super::super::model::{Board, Square, VehicleSize};
use super::super::state::{State, Step, UnitState};
use super::facing::{self, Facing};

/// The card form's section (R767).
pub const RULE: &str =
    "003 \"Unit Size\": \"Large Vehicles and Large Aircraft occupy two squares\" (ruling R767)";

/// Whether `u` is a two-square Large vehicle (its card says `size = "large"`) in a
/// battlefront-2013 game.
pub fn is_large2(state: &State, u: &UnitState) -> bool {
    state.rules().battlefront()
        && state
            .cards
            .get(&u.card)
            .is_some_and(|c| c.size == Some(VehicleSize::Large))
}

/// Whether `u` is an aircraft (a card with aircraft armour): a Large Aircraft when
/// [`is_large2`] (R773).
pub fn flies(state: &State, u: &UnitState) -> bool {
    (state.cards.get(&u.card))
        .is_some_and(|c| matches!(c.armour, super::super::model::Armour::Aircraft(_)))
}

/// [`is_large2`] by unit id.
pub fn is_id(state: &State, id: &str) -> bool {
    state.unit(id).is_some_and(|u| is_large2(state, u))
}

/// The way a body faces as an index of [`DIRS`]; `None` for a diagonal facing.
pub fn dir_of(f: Facing) -> Option<usize> {
    match f {
        Facing::N => Some(0),
        Facing::E => Some(1),
        Facing::S => Some(2),
        Facing::W => Some(3),
        _ => None,
    }
}

/// The facing of a body lying `dir`.
pub fn facing_of(dir: usize) -> Facing {
    [Facing::N, Facing::E, Facing::S, Facing::W][dir % 4]
}

/// R771: a Large vehicle entering with its front on `to` faces straight in from the board edge
/// nearest `to` (the bottom, top, left, then right edge on a tie), its rear behind it.
pub fn entry_facing(board: &Board, to: Square) -> Facing {
    let (c, r) = (to.col() as u32, to.row() as u32);
    let (w, h) = (board.width() as u32, board.height() as u32);
    let edges = [
        (h - 1 - r, Facing::N),
        (r, Facing::S),
        (c, Facing::E),
        (w - 1 - c, Facing::W),
    ];
    edges
        .into_iter()
        .min_by_key(|e| e.0)
        .map_or(Facing::N, |e| e.1)
}

/// The body of a Large vehicle with its front on `at` facing `f` (a diagonal facing, which it
/// never has, is read as the nearest orthogonal one clockwise).
fn body(at: Square, f: Facing) -> Body {
    let dir = match f {
        Facing::N | Facing::NW => 0,
        Facing::E | Facing::NE => 1,
        Facing::S | Facing::SE => 2,
        Facing::W | Facing::SW => 3,
    };
    Body { front: at, dir }
}

/// The squares unit `id` stands on with its front on `at` when it is a Large vehicle (front
/// first, then rear); `None` for any other unit.
pub fn squares(state: &State, id: &str, at: Square) -> Option<Vec<Square>> {
    let u = state.unit(id).filter(|u| is_large2(state, u))?;
    let board = &state.scenario.board;
    let f = u.facing.unwrap_or_else(|| facing::placed(board, at));
    let rear = body(at, f).rear(board);
    Some(std::iter::once(at).chain(rear).collect())
}

/// R771: whether a Large vehicle off the board may enter with its front on `to`: both squares on
/// the board and open to it, one of them in the entry `zone`.
pub fn entry_ok(
    board: &Board,
    occ: &Occupancy,
    mover: &Mover,
    zone: &[Square],
    to: Square,
) -> bool {
    let b = body(to, entry_facing(board, to));
    b.rear(board)
        .is_some_and(|r| zone.contains(&to) || zone.contains(&r))
        && domino::stand_error(board, occ, mover, b).is_none()
}

/// R769, R770: plans the move of a Large vehicle `u` (the steps planned before it give its body
/// at `from`), ending facing `want` when the order names one. `None` for any other unit. The
/// plan's path is its front's squares; the facing is the one it ends with.
#[allow(clippy::too_many_arguments)]
pub fn plan(
    state: &State,
    u: &UnitState,
    steps: &[Step],
    want: Option<Facing>,
    board: &Board,
    occ: &Occupancy,
    mover: &Mover,
    (from, squares): (Square, &[Square]),
    mp: u32,
) -> Option<Result<(MovePlan, Facing), MoveError>> {
    if !is_large2(state, u) {
        return None;
    }
    let now = facing::after_steps(state, u, steps).unwrap_or(facing::placed(board, from));
    let want = match want {
        Some(f) => match dir_of(f) {
            Some(d) => Some(d),
            None => {
                return Some(Err(MoveError {
                    reason: format!(
                    "{} is a Large vehicle on two squares in a row: it faces N, E, S or W, not {f}",
                    u.id
                ),
                    rule: RULE.to_string(),
                }))
            }
        },
        None => None,
    };
    Some(
        domino::plan(board, occ, mover, body(from, now), squares, want, mp)
            .map(|(p, d)| (p, facing_of(d))),
    )
}

/// R770: a Large vehicle turns only by moving (a sideways or diagonal step, or `move … facing`):
/// its two squares do not rotate in place, so a `turn` line is refused.
pub fn check_turn(state: &State, u: &UnitState) -> Result<(), Refusal> {
    if !is_large2(state, u) {
        return Ok(());
    }
    Err(Refusal {
        reason: format!(
            "{} is a Large vehicle on two squares: it turns as it moves (a sideways step puts its rear where its front was), not in place",
            u.id
        ),
        rule: "003 \"Moving Large Vehicles and Aircraft\" (ruling R770)".to_string(),
        instead: "`move <square> facing <N, E, S or W>`, or `attack` / `nothing`".to_string(),
    })
}

/// R768: the game as an attack planned after `steps` sees a Large vehicle `u`: its facing (so
/// its rear) as those steps leave it; `None` when nothing changes (any other unit, no turn).
pub fn as_planned(state: &State, u: &UnitState, steps: &[Step]) -> Option<State> {
    if !is_large2(state, u) {
        return None;
    }
    let f = facing::after_steps(state, u, steps)?;
    if facing::of_unit(state, u) == Some(f) {
        return None;
    }
    let mut planned = state.clone();
    if let Some(x) = planned.unit_mut(&u.id) {
        x.facing = Some(f);
    }
    Some(planned)
}

/// R767: why a Large vehicle the scenario places with its front on `at` cannot stand there: it
/// faces the far half of the board (R251), so its rear is the square behind; that square must be
/// on the board, no other placed unit's (`placed`) and, unless it `flies` (R773), not impassable.
/// `None` when it may.
pub fn placement_error(
    board: &Board,
    at: Square,
    placed: &[Square],
    flies: bool,
) -> Option<String> {
    let Some(rear) = body(at, facing::placed(board, at)).rear(board) else {
        return Some(format!(
            "placed on {at} facing {}, its rear would be off the board",
            facing::placed(board, at)
        ));
    };
    if placed.contains(&rear) {
        return Some(format!("its rear square {rear} holds another unit"));
    }
    (!flies && board.terrain(rear) == super::super::model::Terrain::Impassable)
        .then(|| format!("its rear square {rear} is impassable"))
}
