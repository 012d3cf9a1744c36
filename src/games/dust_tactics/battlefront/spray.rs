//! 003 "Blast Weapons", "Automatic Kill Weapons" and "Spray Weapons" (p.28, 30, 35) under
//! battlefront-2013 (issue 18, third slice). A blast cell is read from the card as 003's
//! "older cards" print it, `X/+` (X dice for each model of the target, 1 damage); `X/(+)` is
//! blast with an automatic kill, 003's `/N` (R276). A spray weapon (trait `flamethrower`) is a
//! blast weapon that also attacks every unit on one shortest path to its target (R277).

use super::super::flow::Refusal;
use super::super::geometry::{self, Occupancy, Sight, Sighter};
use super::super::model::{Square, UnitType, WeaponLine, WeaponTrait};
use super::super::state::{State, Target};

/// The damage of one automatic-kill hit: more than any damage track, so the hit marks every
/// cross left (the damage loop caps it at what is left).
pub const AUTO_KILL: u32 = u32::MAX;

/// The damage one hit of a cell does under 003: an `X/(+)` cell is an automatic kill (003
/// "Automatic Kill Weapons": "the miniature that was hit marks off all of the crosses on its
/// damage track (if it has one) and is eliminated").
pub fn cell_damage(damage: u32, auto_kill: bool) -> u32 {
    if auto_kill {
        AUTO_KILL
    } else {
        damage
    }
}

/// Every shortest path from `from` to `to` as its squares between (ends excluded): steps to
/// adjacent squares whose cost, counted as 003 "Range" counts (the first diagonal 1, each
/// further one 2), is the range from `from` to `to`.
fn shortest_paths(state: &State, from: Square, to: Square) -> Vec<Vec<Square>> {
    let board = &state.scenario.board;
    let goal = geometry::distance(from, to);
    let mut out = Vec::new();
    let mut stack: Vec<(Square, u32, bool, Vec<Square>)> = vec![(from, 0, false, vec![])];
    // A bound on the search: a long spray (a card's range U) has very many shortest paths, and
    // a few dozen leave the shooter enough to choose from.
    let mut budget = 10_000u32;
    while let Some((at, cost, diag, path)) = stack.pop() {
        budget = budget.saturating_sub(1);
        if budget == 0 || out.len() >= 64 {
            break;
        }
        if at == to {
            if cost == goal {
                out.push(path[..path.len().saturating_sub(1)].to_vec());
            }
            continue;
        }
        for next in board.neighbours(at) {
            let diagonal = next.col() != at.col() && next.row() != at.row();
            let step = if diagonal && diag { 2 } else { 1 };
            let c = cost + step;
            if c + geometry::distance(next, to) > goal || next == from || path.contains(&next) {
                continue;
            }
            let mut p = path.clone();
            p.push(next);
            stack.push((next, c, diag || diagonal, p));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether the shooter at `from` sees `sq` (003: the spray "may only pass through squares
/// through which the attacking unit has Line of Sight").
fn seen(state: &State, occ: &Occupancy, shooter: UnitType, from: Square, sq: Square) -> bool {
    let there = occ
        .get(&sq)
        .and_then(|v| v.first())
        .map(|o| o.unit_type)
        .unwrap_or(UnitType::Squad);
    matches!(
        geometry::line_of_sight(
            &state.scenario.board,
            occ,
            Sighter {
                square: from,
                unit_type: shooter,
            },
            Sighter {
                square: sq,
                unit_type: there,
            },
        ),
        Sight::Clear
    )
}

/// The units other than the shooter's own standing on `squares`.
fn units_on(state: &State, shooter: &str, squares: &[Square]) -> Vec<(String, String)> {
    state
        .units
        .iter()
        .filter(|u| {
            !u.destroyed
                && u.joined.is_none()
                && u.id != shooter
                && u.at.is_some_and(|a| squares.contains(&a))
        })
        .map(|u| (u.id.clone(), u.side.clone()))
        .collect()
}

fn show(p: &[Square]) -> String {
    if p.is_empty() {
        return "(no square between)".into();
    }
    p.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The squares the spray of `shooter` (at `from`, its unit of `shooter_type`) crosses on its way
/// to `to`: the path `through` names (its squares in any order), or, when it names none, the
/// shortest path the shooting player would choose: the fewest friendly units hit, then the
/// most enemy units, then board order (R277).
pub fn path(
    state: &State,
    occ: &Occupancy,
    shooter: &str,
    shooter_type: UnitType,
    from: Square,
    to: Square,
    through: &[Square],
) -> Result<Vec<Square>, Refusal> {
    let paths: Vec<Vec<Square>> = shortest_paths(state, from, to)
        .into_iter()
        .filter(|p| p.iter().all(|sq| seen(state, occ, shooter_type, from, *sq)))
        .collect();
    let rule = "003 \"Spray Weapons\": \"The spray follows the shortest possible path to the target, and may only pass through squares through which the attacking unit has Line of Sight to the target unit. The shooting player may choose between alternative shortest paths\" (R277)";
    if paths.is_empty() {
        return Err(Refusal {
            reason: format!("no shortest path from {from} to {to} runs through squares in sight"),
            rule: rule.into(),
            instead: "choose a target the spray can reach, or move first".into(),
        });
    }
    if !through.is_empty() {
        let mut want = through.to_vec();
        want.sort();
        want.dedup();
        return paths
            .iter()
            .find(|p| {
                let mut q = (*p).clone();
                q.sort();
                q == want
            })
            .cloned()
            .ok_or_else(|| Refusal {
                reason: format!(
                    "`through {}` is not a shortest path in sight from {from} to {to}",
                    show(through)
                ),
                rule: rule.into(),
                instead: format!(
                    "name every square of one of these paths after `through`: {}",
                    paths
                        .iter()
                        .map(|p| show(p))
                        .collect::<Vec<_>>()
                        .join(" / ")
                ),
            });
    }
    let side = state
        .unit(shooter)
        .map(|u| u.side.clone())
        .unwrap_or_default();
    let score = |p: &Vec<Square>| {
        let hit = units_on(state, shooter, p);
        let friends = hit.iter().filter(|(_, s)| *s == side).count();
        let enemies = hit.len() - friends;
        (friends, std::cmp::Reverse(enemies))
    };
    Ok(paths
        .iter()
        .min_by_key(|p| score(p))
        .cloned()
        .unwrap_or_default())
}

/// Whether `w` sprays under battlefront-2013 (a flamethrower line: 003 "Spray Weapons" names
/// "flame-throwers, napalm throwers, and sulphur jets").
pub fn sprays(state: &State, w: &WeaponLine) -> bool {
    state.rules().battlefront() && w.traits.contains(&WeaponTrait::Flamethrower)
}

/// Every square of the spray's path at the moment it fires (the path `through` named if it is
/// still one, else the default of [`path`]); empty when the weapon does not spray.
pub fn burnt(
    state: &State,
    occ: &Occupancy,
    shooter: &str,
    w: &WeaponLine,
    from: Square,
    target: &Target,
    through: &[Square],
) -> Vec<Square> {
    let to = match target {
        Target::Unit { unit } | Target::Model { unit, .. } => state.unit(unit).and_then(|u| u.at),
        Target::Square { .. } => None,
    };
    let Some(to) = to.filter(|_| sprays(state, w)) else {
        return vec![];
    };
    let shooter_type = state
        .unit(shooter)
        .and_then(|u| state.cards.get(&u.card))
        .map(|c| c.unit_type)
        .unwrap_or(UnitType::Squad);
    path(state, occ, shooter, shooter_type, from, to, through)
        .or_else(|_| path(state, occ, shooter, shooter_type, from, to, &[]))
        .unwrap_or_default()
}
