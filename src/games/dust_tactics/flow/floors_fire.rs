//! 004 "STRUCTURES", "Firing" and "Cover" between heights (R515, R516): the range, the line of
//! sight and the cover of an attack between units at different heights, and the roof as the
//! outside of its structure. Nothing here changes an attack between two units on the ground floor.

use super::*;
use crate::dust_tactics::floors::{self, Height, Spot};
use crate::dust_tactics::model::Board;
use crate::dust_tactics::structures::structure_at;

/// Two units at different heights, for an attack (R515): [`floors::apart`] on the game's board.
pub(super) fn apart(state: &State, shooter: Spot, target: Spot, air: bool) -> Option<(u8, u32)> {
    floors::apart(&state.scenario.board, shooter, target, air)
}

fn level_at(board: &Board, spot: Spot) -> u8 {
    floors::level_at(board, spot)
}

/// The distance an attack counts for range (R515), or why no attack is possible: "A unit cannot
/// attack an enemy unit that is more than 1 floor away."; "Weapons with range C cannot attack
/// any target that is above or below the attacking unit, regardless of range."
pub(super) fn attack_distance(
    state: &State,
    shooter: Spot,
    target: Spot,
    range: WeaponRange,
    dist: u32,
    air: bool,
) -> Result<u32, Refusal> {
    let Some((levels, plus)) = apart(state, shooter, target, air) else {
        return Ok(dist);
    };
    let (s, t) = (
        floors::place(shooter.0, shooter.1),
        floors::place(target.0, target.1),
    );
    if levels > 1 {
        return refuse(
            format!("{t} is {levels} floors away from {s}: no unit attacks an enemy more than 1 floor away"),
            RuleId::Structures.with("A unit cannot attack an enemy unit that is more than 1 floor away"),
            "move within 1 floor of the target first",
        );
    }
    if range == WeaponRange::Close && levels == 1 {
        return refuse(
            format!("{t} is above or below {s}: range C cannot attack a target on another floor, and units at different heights are not adjacent"),
            RuleId::Structures.with("Weapons with range C cannot attack any target that is above or below the attacking unit"),
            "use a ranged weapon line, or move to the target's floor",
        );
    }
    Ok(dist + plus)
}

/// The line of sight between units at different heights (R515), from the 2D line `flat`: "If LOS
/// would be clear without thinking about height, then LOS is clear in 3D." If not, it is blocked
/// only when the lower unit is directly behind the obstacle: the obstacle stands on the edge of
/// its space or on the space next to it, towards the other unit. Same level: `flat` as it is.
pub(super) fn sight(state: &State, occ: &Occupancy, a: Spot, b: Spot, flat: Sight) -> Sight {
    let board = &state.scenario.board;
    let (la, lb) = (level_at(board, a), level_at(board, b));
    if la == lb || flat == Sight::Clear {
        return flat;
    }
    let (lower, upper) = if la < lb { (a.0, b.0) } else { (b.0, a.0) };
    if directly_behind(board, occ, lower, upper) {
        if let Sight::Blocked { at, why } = flat {
            return Sight::Blocked {
                at,
                why: format!("{why}, and the unit on the lower level, on {lower}, is directly behind it (004 Structures: Firing)"),
            };
        }
    }
    Sight::Clear
}

/// Whether the 2D line from `lower` towards `upper` meets an obstacle at once: a wall on the
/// edge of `lower`'s space, or a blocking space beside it on the line (R515).
fn directly_behind(board: &Board, occ: &Occupancy, lower: Square, upper: Square) -> bool {
    let (dc, dr) = (
        upper.col() as i32 - lower.col() as i32,
        upper.row() as i32 - lower.row() as i32,
    );
    let m = dc.abs().max(dr.abs());
    if m == 0 {
        return false;
    }
    // The neighbour the line leaves `lower` towards: each offset rounded to -1, 0 or 1.
    let step = |d: i32| (2 * d + d.signum() * m) / (2 * m);
    let Some(n) = board.square(lower.col() as i32 + step(dc), lower.row() as i32 + step(dr)) else {
        return false;
    };
    let ends = |sq| Sighter {
        square: sq,
        unit_type: UnitType::Squad,
    };
    n == upper
        || geometry::line_of_sight(board, occ, ends(lower), ends(n)) != Sight::Clear
        || geometry::blocks(board, occ, n, false).is_some()
}

/// Whether the unit at `s` attacks the unit at `t` through the floor or the ceiling of one
/// structure, 1 floor apart (the roof over its top floor too): "When units are only 1 floor
/// apart, floors and ceilings do not block LOS" — no entrance is needed (R515).
pub(super) fn through_ceiling(state: &State, s: Spot, t: Spot) -> bool {
    let board = &state.scenario.board;
    let same = matches!((structure_at(board, s.0), structure_at(board, t.0)), (Some(x), Some(y)) if x.id == y.id);
    same && s.1 != t.1 && level_at(board, s).abs_diff(level_at(board, t)) == 1
}

/// The cover of a squad at `t` against a shot from `s` (R516): [`floors::cover_explained`], the
/// same as `geometry::cover_for` when both stand on the ground floor.
pub(super) fn cover_for(
    state: &State,
    occ: &Occupancy,
    s: (Sighter, Option<Height>),
    t: (Sighter, Option<Height>),
    air: bool,
) -> Cover {
    floors::cover_explained(&state.scenario.board, occ, s, t, air).cover
}

/// The height a unit stands at now (`None`: the ground floor or off the board).
pub(super) fn height_of(state: &State, id: &str) -> Option<Height> {
    state.unit(id).and_then(|u| u.height)
}
