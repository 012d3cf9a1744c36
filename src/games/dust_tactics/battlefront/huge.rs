//! 003's Huge vehicles under battlefront-2013 (issue 18, R790–R794): "Huge Vehicles occupy four
//! squares. When a Huge Vehicle moves, pick one corner of the Vehicle and move that corner one
//! square as usual. The Vehicle can rotate within the four squares it occupies either before or
//! after moving." (003 "Moving Huge Vehicles"). The 2×2 block, its movement, line of sight and
//! close combat are the engine's (flow/large.rs, R566–R569); this module holds what 003 adds:
//! moving without turning and rotating in place before or after the move (R792), and entering
//! wholly by moving two squares (R793).

use super::super::flow::Refusal;
use super::super::orders::Action;
use super::super::state::{State, UnitState};

/// The section every refusal cites.
pub const RULE: &str = "003 \"Moving On To the Table\": \"Large and Huge Vehicles must move entirely onto the board by moving two squares (usually by taking a March Move action) in their first activation before they do anything else\" (ruling R793)";

/// Whether `u` is a Huge vehicle (its card says `huge = true`) in a battlefront-2013 game.
pub fn is_huge(state: &State, u: &UnitState) -> bool {
    state.rules().battlefront() && state.cards.get(&u.card).is_some_and(|c| c.huge)
}

/// R793: a Huge vehicle off the board enters wholly on its entering move, which counts as the
/// two squares 003 asks; with Movement 1 that is a March Move, its whole activation, so the
/// action after the entering move may only be `nothing`. Refused before anything changes.
pub fn check(state: &State, u: &UnitState, actions: &[Action]) -> Result<(), Refusal> {
    // 003 says it of Large Vehicles, not of Large Aircraft (R773).
    let large2 = super::large2::is_large2(state, u) && !super::large2::flies(state, u);
    if !(is_huge(state, u) || large2) || u.at.is_some() || u.destroyed {
        return Ok(());
    }
    let movement = state.cards.get(&u.card).map_or(0, |c| c.movement);
    let rest = |a: &Action| matches!(a, Action::Nothing | Action::Turn { .. });
    if movement >= 2 || actions.iter().skip(1).all(rest) {
        return Ok(());
    }
    // A first line that is no move is refused by the entry itself (ruling 2).
    let Some(Action::Move { squares }) = actions.first() else {
        return Ok(());
    };
    let entry = squares
        .last()
        .map_or("move <square>".to_string(), |s| format!("move {s}"));
    Err(Refusal {
        reason: format!(
            "{} is a {} with Movement {movement}: getting its {} squares onto the board is a move of two squares, a March Move, and takes its whole first activation",
            u.id,
            if large2 { "Large vehicle" } else { "Huge vehicle" },
            if large2 { "two" } else { "four" },
        ),
        rule: RULE.to_string(),
        instead: format!("activate {}\n  {entry}\n  nothing", u.id),
    })
}

/// R792: whether the `turn` at `actions[i]` is a Huge vehicle's rotation within its four squares
/// right before or after a move ("The Vehicle can rotate within the four squares it occupies
/// either before or after moving"): part of that Move action, not an action of its own.
pub fn rotates_in_move(state: &State, u: &UnitState, actions: &[Action], i: usize) -> bool {
    let is_move = |j: Option<usize>| {
        j.and_then(|j| actions.get(j))
            .is_some_and(|a| matches!(a, Action::Move { .. } | Action::MoveSparing { .. }))
    };
    // Before the move only on the board: off it there are no four squares to rotate in.
    is_huge(state, u) && (is_move(i.checked_sub(1)) || u.at.is_some() && is_move(Some(i + 1)))
}

/// R792: a Huge vehicle's move leaves its facing as it was ("pick one corner of the Vehicle and
/// move that corner one square"): it turns only by rotating.
pub fn keeps_facing(state: &State, unit: &str) -> bool {
    state
        .unit(unit)
        .is_some_and(|u| is_huge(state, u) || super::large2::is_large2(state, u))
}
