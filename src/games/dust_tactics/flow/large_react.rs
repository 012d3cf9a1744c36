//! 003 "Reactive Attacks" for a two-square Large vehicle (issue 18, R819): on two army symbols
//! the unit may make "a Move action followed by an Attack action. The Move action can only be
//! used to rotate the model, and a Large Vehicle may not end the move further away from the
//! attacking unit than it started." A body of two squares rotates by moving one of them: it
//! reverses on its own squares, or turns a quarter pivoting on its front or on its rear
//! (`geometry/domino.rs`'s `rotations`), and the half that swings needs room where it ends.
//! Before rules revision 10 a Large vehicle always took the Sustained Attack (R770).

use super::super::battlefront::facing::{self, Facing};
use super::super::battlefront::large2;
use super::super::geometry::domino::{self, Body};
use super::*;

/// The rules revision that brought R819 (`rules::RULES_REVISION`): a game made before keeps
/// R770's Sustained Attack for a reacting Large vehicle.
pub const REVISION: u32 = 10;

/// The sentence every refusal and report of this module cites.
pub const RULE: &str = "003 \"Reactive Attacks\": \"The Move action can only be used to rotate the model, and a Large Vehicle may not end the move further away from the attacking unit than it started\" (ruling R819)";

/// Whether unit `r` reacts as R819's Large vehicle: a two-square Large vehicle in a
/// battlefront-2013 game made under revision 10 or later.
pub(super) fn rotates(state: &State, r: &str) -> bool {
    large2::is_id(state, r) && state.revised(REVISION)
}

/// Where a rotation leaves a Large vehicle: its front square and the way it faces.
pub(super) type Rotation = (Square, Facing);

/// R819: the rotation that turns the Large vehicle `r` to face `target` (the activating unit):
/// the first way it may lie (N, E, S or W) with `target` in its front arc (R250, seen from its
/// front square, R768), trying first the body that moves nothing, then the reversed one, then
/// the quarter turns (pivoting on the front before the rear). Each needs both squares open to it
/// (on the board, terrain it may enter, no other unit, R769's stand), no wall between them, and
/// its least distance to `target` no greater than before. `Err` says why none may be made.
pub(super) fn rotation(state: &State, r: &str, target: &str) -> Result<Rotation, String> {
    let u = state
        .unit(r)
        .ok_or_else(|| format!("{r} is not in the game"))?;
    let front =
        u.at.ok_or_else(|| format!("{r} is not on the battlefield"))?;
    let t_at = super::riders::square_of(state, target)
        .ok_or_else(|| format!("{target} is not on the battlefield"))?;
    let board = &state.scenario.board;
    let now = facing::of_unit(state, u).unwrap_or_else(|| facing::placed(board, front));
    let d0 = large2::dir_of(now).unwrap_or(0);
    let theirs = super::large::squares_at(state, target, t_at);
    let gap = |ours: &[Square]| {
        (ours.iter())
            .flat_map(|a| theirs.iter().map(move |b| geometry::distance(*a, *b)))
            .min()
            .unwrap_or(0)
    };
    let before = gap(&super::large::squares_at(state, r, front));
    let occ = occupancy(state, &[r.to_string()]);
    let mover = super::movement::mover_of(state, u);
    // A Large Aircraft rotates over the board it flies over (R773).
    let flight = super::aircraft::flight_of(state, u, &occ, mover.clone());
    let (board, occ, mover) = match &flight {
        Some((b, o, m)) => (b, o, m),
        None => (board, &occ, &mover),
    };
    let start = Body { front, dir: d0 };
    let mut why: Vec<String> = Vec::new();
    for dir in [d0, d0 + 2, d0 + 1, d0 + 3].map(|d| d % 4) {
        let f = large2::facing_of(dir);
        for b in domino::rotations(board, start, dir) {
            if !facing::in_arc_of(state, (r, b.front), (Some(target), t_at), f) {
                continue;
            }
            if let Some(e) = domino::stand_error(board, occ, mover, b) {
                why.push(format!(
                    "facing {f} with its front on {}: {}",
                    b.front, e.reason
                ));
                continue;
            }
            let Some(rear) = b.rear(board) else { continue };
            if board.wall_between(b.front, rear) {
                why.push(format!(
                    "facing {f} on {} and {rear}: a wall stands between them",
                    b.front
                ));
                continue;
            }
            let after = gap(&[b.front, rear]);
            if after > before {
                why.push(format!(
                    "facing {f} on {} and {rear} it would end {after} squares from {target}, further than the {before} it started",
                    b.front
                ));
                continue;
            }
            return Ok((b.front, f));
        }
    }
    Err(format!(
        "{r} is a Large vehicle on two squares and cannot rotate to face {target}: {}",
        why.join("; ")
    ))
}

/// R819: why `react <r> turn` is refused before its dice are rolled: `r` is a Large vehicle
/// that cannot rotate towards the activating unit `target`. `None` when it may, or for any other
/// unit (and in games made before revision 10, where it takes the Sustained Attack, R770).
pub(super) fn turn_refusal(state: &State, r: &str, target: &str) -> Option<Refusal> {
    if !rotates(state, r) {
        return None;
    }
    let reason = rotation(state, r, target).err()?;
    Some(Refusal {
        reason,
        rule: RULE.to_string(),
        instead: format!(
            "`react {r} sustained` (two army symbols: a Sustained Attack), or `react {r}`"
        ),
    })
}

/// The orders template's example of `react <unit> turn|sustained` on an awaited window:
/// the first unit of `options` (`react <unit>` lines) whose `turn` is accepted, else the first
/// with `sustained` (R819: a Large vehicle that cannot rotate is refused `turn`).
pub fn react_example(state: &State, options: &[String]) -> (String, &'static str) {
    let ids: Vec<&str> = options
        .iter()
        .map(|o| o.trim_start_matches("react "))
        .filter(|id| *id != "none")
        .collect();
    let target = match &state.phase {
        Phase::Activation(act) => act.unit.as_str(),
        _ => "",
    };
    ids.iter()
        .find(|id| turn_refusal(state, id, target).is_none())
        .map(|id| (id.to_string(), "turn"))
        .or_else(|| ids.first().map(|id| (id.to_string(), "sustained")))
        .unwrap_or_else(|| ("<unit>".to_string(), "turn"))
}

/// The orders template's note on an awaited window where a Large vehicle may react (R819),
/// else nothing.
pub fn react_note(state: &State, options: &[String]) -> &'static str {
    let large = (options.iter()).any(|o| rotates(state, o.trim_start_matches("react ")));
    if large {
        "# A Large vehicle's Move rotates it on its two squares, never ending\n\
         # further from the activating unit (003 \"Reactive Attacks\", R819).\n"
    } else {
        ""
    }
}

/// `state` with the Large vehicle `r` rotated as `rot` (for the referee's choice, R255: the
/// weapon lines it would bring to bear from there).
pub(super) fn rotated(state: &State, r: &str, rot: Rotation) -> State {
    let mut planned = state.clone();
    place(&mut planned, r, rot);
    planned
}

/// Puts `r` (and any unit moving with it) on its rotated squares.
fn place(state: &mut State, r: &str, (front, f): Rotation) {
    for m in group(state, r) {
        if let Some(x) = state.unit_mut(&m) {
            x.at = Some(front);
        }
    }
    facing::record_turn(state, r, f);
}

/// R819: makes the rotation `rot` of the reacting Large vehicle `r` towards `target`; ammunition
/// crates under a square it swings onto are crushed, as under any square it enters (R769).
pub(super) fn rotate(state: &mut State, r: &str, rot: Rotation, target: &str, out: &mut Outcome) {
    let Some(from) = state.unit(r).and_then(|u| u.at) else {
        return;
    };
    let before = super::large::squares_at(state, r, from);
    place(state, r, rot);
    let after = super::large::squares_at(state, r, rot.0);
    let text = format!(
        "{r} uses its two army symbols for a Move that only rotates it to face {} towards {target}, its squares now {}, then an Attack",
        rot.1,
        after
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" and ")
    );
    if rot.0 == from {
        say(out, text);
    } else {
        tell(
            out,
            text,
            DtEvent::Moved {
                unit: r.to_string(),
                from,
                path: vec![rot.0],
            },
            vec![],
        );
    }
    for sq in after.into_iter().filter(|s| !before.contains(s)) {
        if state.scenario.board.cover_kind(sq) == Some(model::CoverKind::AmmoCrate) {
            state.scenario.board.cover.remove(&sq);
            say(out, format!("{r} crushes the ammo crate on {sq}"));
        }
    }
}

/// R822: a reacting unit whose two army symbols turned it (R255) or rotated it (R819) has made
/// 003's Move action before its Attack, so its Set-Up weapons roll half their dice; it is marked
/// as moved this round (from rules revision 10, so older games replay unchanged).
pub(super) fn mark_turned(state: &mut State, r: &str) {
    if !(state.rules().battlefront() && state.revised(REVISION)) {
        return;
    }
    for m in group(state, r) {
        if let Some(x) = state.unit_mut(&m) {
            x.moved = true;
        }
    }
}

/// Whether `lead`, reacting (not the activating unit), turned before its Attack (R822): a unit
/// that has not activated this round has moved only so.
pub(super) fn turned_reactor(state: &State, lead: &str) -> bool {
    state.rules().battlefront()
        && state.revised(REVISION)
        && state.unit(lead).is_some_and(|u| u.moved)
}
