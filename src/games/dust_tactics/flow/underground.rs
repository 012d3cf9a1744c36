//! 004 "Underground Fighting" in an attack: dim light limits the reach and gives cover by the
//! spaces between the units (R621); in the sewers all corners block line of sight (R623); in the
//! metro corner cover stacks with dim light up to hard cover (R621). Scenario side:
//! `dust_tactics::underground`.

use super::*;
use crate::dust_tactics::travel::underground_at;
use crate::dust_tactics::underground::{dim_light, spaces_between, Underground};

/// Refuses a line aimed from `from` at `to` that the underground rules forbid: 4 or more spaces
/// between the units, or, in the sewers, a line skimming a corner.
pub(super) fn check_attack(
    state: &State,
    occ: &Occupancy,
    from: Sighter,
    to: Sighter,
) -> Result<(), Refusal> {
    let (a, b) = (from.square, to.square);
    check_boards(state, a, b)?;
    let Some(kind) = underground_at(&state.scenario, a) else {
        return Ok(());
    };
    if dim_light(a, b).is_none() {
        return refuse(
            format!(
                "{a} and {b} have {} spaces between them: \"Units cannot target each other when there are 4 or more spaces between them\"",
                spaces_between(a, b)
            ),
            RuleId::DimLight,
            "move within 3 spaces between of the target first, or choose a closer target",
        );
    }
    if kind == Underground::Sewers {
        let sight = geometry::line_of_sight_sewers(&state.scenario.board, occ, from, to);
        if let Sight::Blocked { at, why } = sight {
            return refuse(
                format!("no line of sight past {at} from {a} to {b}: {why}"),
                RuleId::SewerCorners,
                "choose a target in sight, or move first",
            );
        }
    }
    Ok(())
}

/// The cover of a target on `to` attacked from `from`, given the cover the engine found
/// (`found`) when cover saves apply to this line and target (`applies`; `squad`: the target is a
/// squad). Outside the metro the better of the two counts; in the metro they stack up to hard
/// cover (R621), and its rails and train cars give theirs (R627).
pub(super) fn cover(
    state: &State,
    from: Square,
    to: Square,
    found: Cover,
    (applies, squad): (bool, bool),
) -> Cover {
    // R632: dim light and the rest only on the underground board (both ends there).
    let (Some(kind), Some(_)) = (
        underground_at(&state.scenario, to),
        underground_at(&state.scenario, from),
    ) else {
        return found;
    };
    let dim = dim_light(from, to).unwrap_or(Cover::Hard);
    if !applies {
        return found;
    }
    let c = dim_cover(kind, dim, found);
    match &state.scenario.metro {
        Some(m) if kind == Underground::Metro => m.cover(from, to, c, squad),
        _ => c,
    }
}

fn dim_cover(kind: Underground, dim: Cover, found: Cover) -> Cover {
    match (kind, dim) {
        (_, Cover::None) => found,
        (Underground::Metro, Cover::Soft) => found.add_soft(),
        (_, Cover::Hard) | (_, Cover::Soft) if found == Cover::Hard => Cover::Hard,
        _ => dim,
    }
}

/// 004 "Fighting in the Sewers": "In the sewers, no unit can pass through any other unit." A
/// move whose path crosses a square held by another unit (friendly too) is refused; it may still
/// end beside it, or, for a lone hero, share its last square as 004 "Heroes" allows (R624).
pub(super) fn check_path(
    state: &State,
    occ: &Occupancy,
    mover: &str,
    path: &[Square],
) -> Result<(), Refusal> {
    if state.scenario.underground != Some(Underground::Sewers) {
        return Ok(());
    }
    let crossed = path.len().saturating_sub(1);
    // R632: only in the sewers, not on a two-board scenario's aboveground board.
    let sewers = |sq: &&Square| underground_at(&state.scenario, **sq).is_some();
    for sq in path[..crossed].iter().filter(sewers) {
        let here = occ.get(sq).map(Vec::as_slice).unwrap_or_default();
        // The mover's own square (its joined hero stands there with it) is not passed through.
        if here.iter().any(|o| o.unit.0 == mover) {
            continue;
        }
        let other = here.first();
        if let Some(o) = other {
            return refuse(
                format!(
                    "{mover} would pass through {sq}, held by unit {}: in the sewers no unit can pass through any other unit",
                    o.unit.0
                ),
                RuleId::SewerPassing,
                "go round it, or stop before it",
            );
        }
    }
    Ok(())
}

/// 004 "Deployment": "Any unit in an underground scenario that has not been deployed by the end
/// of the second round is considered eliminated. Its AP value goes to the opposing player when
/// calculating VPs at the end of the game." At the end of round 2, every unit not destroyed and
/// not on the board (nor with a squad on it) is destroyed, its AP to the other side (R625).
pub(super) fn deployment(state: &mut State, out: &mut Outcome) {
    if state.scenario.underground.is_none() || state.round != 2 {
        return;
    }
    let late: Vec<String> = state
        .units
        .iter()
        .filter(|u| !u.destroyed && u.aboard.is_none() && target_square(state, &u.id).is_none())
        .map(|u| u.id.clone())
        .collect();
    for id in late {
        say(
            out,
            format!("{id} was not deployed by the end of the second round: it is eliminated (004 Underground Fighting, Deployment)"),
        );
        super::casualties::destroy(state, &id, "", out);
    }
}

/// 004 "Fighting in the Sewers": "A single unit is not limited to one Reactive Fire attempt per
/// game round. If the unit has already been activated during the round, or has already made a
/// Reactive Fire attempt, it may make an additional Reactive Fire attempt"; "A unit may still
/// only make one Reactive Fire attempt per unit activation" (the window's own list) (R626).
pub(super) fn reacts_when_activated(state: &State, u: &UnitState) -> bool {
    // R632: a unit on a two-board scenario's aboveground board reacts by the normal rules.
    let at = u.at.map(|sq| underground_at(&state.scenario, sq));
    state.scenario.underground == Some(Underground::Sewers)
        && at.unwrap_or(Some(Underground::Sewers)).is_some()
}

/// Whether a reactive attack from `from` at `to` is allowed underground (dim light's reach, the
/// sewers' corners), as [`check_attack`] for an ordered attack.
pub(super) fn reaction_allowed(state: &State, occ: &Occupancy, from: Sighter, to: Sighter) -> bool {
    check_attack(state, occ, from, to).is_ok()
}

/// 004 "Dim Light, Low Ceilings": "Units cannot use the Jump skill while fighting
/// underground" (R622): not in an underground scenario, save on a two-board scenario's
/// aboveground board for a unit that starts its activation there (R632).
pub(super) fn jump_allowed(state: &State, u: &UnitState) -> bool {
    match u.at {
        Some(sq) => underground_at(&state.scenario, sq).is_none(),
        None => state.scenario.underground.is_none(),
    }
}

/// On two boards (R632): no attack from one board at the other. Checked before range and
/// sight, so the refusal names the boards rather than the wall row between them.
pub(super) fn check_boards(state: &State, a: Square, b: Square) -> Result<(), Refusal> {
    match &state.scenario.travel {
        Some(t) if t.board_of(a) != t.board_of(b) => refuse(
            format!("{a} and {b} are on different boards: a unit on one board cannot target a unit on the other"),
            RuleId::TwoBoards,
            "travel to the target's board first (`travel` on a link), or choose a target on this board",
        ),
        _ => Ok(()),
    }
}
