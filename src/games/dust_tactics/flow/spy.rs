//! 002 "Spy" under battlefront-2013 (issue 18; R765's design, R660–R662): "A Hero with the Spy
//! Skill is not placed at the start of the game. Instead, each time a Spy is Activated, the
//! player may elect to roll two dice. If any [army] is rolled, the Spy is immediately placed
//! within Range 1 ... of an enemy Unit. It may then take one Action for each [army] rolled. If
//! the Spy is not placed, it may only perform Nothing Actions. A Spy may not Join a Unit until
//! the Spy has been placed."
//!
//! By mail the square is named before the roll: `skill spy at <square>` is the first line of an
//! unplaced Spy's activation; the lines after it are its actions once placed, cut after the
//! first on one army symbol, all dropped on none.

use super::activation::{plan_activation, Plan};
use super::*;
use crate::dust_tactics::battlefront::dice::{self as bdice, Symbol};
use crate::dust_tactics::battlefront::facing::Facing;
use crate::dust_tactics::battlefront::skills002::Skill002;

/// The citation of 002 "Spy" for refusals and reports.
pub const RULE: &str = "002 \"Spy\": \"each time a Spy is Activated, the player may elect to roll two dice. If any [army] is rolled, the Spy is immediately placed within Range 1 ... of an enemy Unit. It may then take one Action for each [army] rolled. If the Spy is not placed, it may only perform Nothing Actions\" (R765, R660)";

/// Whether `u` is a Spy not placed yet: battlefront-2013, the skill on its own card, off the
/// board, not inside a vehicle, not a unit in reserve (R765).
pub fn unplaced(state: &State, u: &UnitState) -> bool {
    state.rules().battlefront()
        && !u.destroyed
        && u.at.is_none()
        && u.aboard.is_none()
        && u.reserve_round.is_none()
        && card(state, u).is_some_and(|c| c.has_skill(Skill002::Spy.id()))
}

/// Why the Spy `u` may not be placed on `sq` now, if it may not (R765): the square must be free,
/// one infantry may stand on, and within one square of an enemy unit on the battlefield.
fn why_not(state: &State, u: &UnitState, sq: Square) -> Option<String> {
    let occ = occupancy(state, std::slice::from_ref(&u.id));
    if let Some(o) = occ.get(&sq).and_then(|v| v.first()) {
        return Some(format!("{sq} is taken by {}", o.unit.0));
    }
    let mover = super::movement::mover_of(state, u);
    if let Some(e) = geometry::may_stand(&state.scenario.board, &occ, &mover, sq) {
        return Some(format!("{} may not stand on {sq}: {}", u.id, e.reason));
    }
    if enemy_next_to(&occ, &u.side, sq).is_none() {
        return Some(format!("no enemy unit stands within one square of {sq}"));
    }
    None
}

/// The first enemy square (board order) within one square of `sq`, if any.
fn enemy_next_to(occ: &Occupancy, side: &str, sq: Square) -> Option<Square> {
    occ.iter()
        .filter(|(_, v)| v.iter().any(|o| o.side != side))
        .map(|(s, _)| *s)
        .find(|s| geometry::distance(*s, sq) <= 1 && *s != sq)
}

/// The squares the unplaced Spy `unit` may be placed on now, in board order (`None`: `unit` is
/// not an unplaced Spy). For the orders template and the bot.
pub fn squares(state: &State, unit: &str) -> Option<Vec<Square>> {
    let u = state.unit(unit).filter(|u| unplaced(state, u))?;
    Some(
        state
            .scenario
            .board
            .squares()
            .filter(|sq| why_not(state, u, *sq).is_none())
            .collect(),
    )
}

fn refusal(reason: String, instead: String) -> Refusal {
    Refusal {
        reason,
        rule: RULE.into(),
        instead,
    }
}

/// The valid squares as a refusal's `instead`.
fn instead(state: &State, u: &UnitState) -> String {
    let list: Vec<String> = squares(state, &u.id)
        .unwrap_or_default()
        .iter()
        .map(|s| s.to_string())
        .collect();
    if list.is_empty() {
        "`nothing` twice: no square within one square of an enemy is free now".into()
    } else {
        format!(
            "`skill spy at <square>` on one of: {}, or `nothing` twice",
            list.join(" ")
        )
    }
}

/// Planning hook (R765, R660): the activation of an unplaced Spy. `None` when `u` is not one or
/// its orders are only `nothing` (planned as usual, R152 does not apply to it).
pub(super) fn plan(
    state: &State,
    u: &UnitState,
    actions: &[Action],
) -> Option<Result<Plan, Refusal>> {
    if !unplaced(state, u) || actions.iter().all(|a| matches!(a, Action::Nothing)) {
        return None;
    }
    let Some(Action::Skill { name, target }) = actions.first() else {
        return Some(Err(refusal(
            format!(
                "{} is a Spy not placed yet: it may only be placed or do nothing",
                u.id
            ),
            instead(state, u),
        )));
    };
    if !name.eq_ignore_ascii_case(Skill002::Spy.id()) {
        return Some(Err(refusal(
            format!("{} is a Spy not placed yet: its first line places it", u.id),
            instead(state, u),
        )));
    }
    let Some(TargetRef::Square(sq)) = target else {
        return Some(Err(refusal(
            "`skill spy` names the square the Spy is placed on".into(),
            instead(state, u),
        )));
    };
    if let Some(why) = why_not(state, u, *sq) {
        return Some(Err(refusal(why, instead(state, u))));
    }
    Some(plan_placed(state, u, *sq, &actions[1..]))
}

/// The Spy's actions once placed on `sq`, planned on a copy of the game where it stands there;
/// fewer than two action lines are completed with Nothing (R660).
fn plan_placed(state: &State, u: &UnitState, sq: Square, rest: &[Action]) -> Result<Plan, Refusal> {
    let mut placed = state.clone();
    let enemy = enemy_next_to(&occupancy(state, std::slice::from_ref(&u.id)), &u.side, sq);
    if let Some(x) = placed.unit_mut(&u.id) {
        x.at = Some(sq);
        x.facing = facing_to(state, sq, enemy);
    }
    let pu = placed.unit(&u.id).cloned().unwrap_or_else(|| u.clone());
    let mut tries = vec![rest.to_vec()];
    for _ in 0..2 {
        let mut longer = tries.last().cloned().unwrap_or_default();
        longer.push(Action::Nothing);
        tries.push(longer);
    }
    let mut first_err = None;
    for actions in &tries {
        match plan_activation(&placed, &pu, actions) {
            Ok(mut plan) => {
                let at = crate::dust_tactics::battlefront::suppression::after_first(
                    actions,
                    plan.first,
                    &plan.steps,
                );
                plan.steps.insert(at, Step::SpyCut);
                plan.steps.insert(0, Step::Spy { at: sq });
                plan.text = format!("skill spy at {sq}, {}", plan.text);
                return Ok(plan);
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.unwrap_or_else(|| refusal("no plan".into(), instead(state, u))))
}

/// A placed Spy faces the enemy it is placed next to (R661); under battlefront-2013 only.
fn facing_to(state: &State, sq: Square, enemy: Option<Square>) -> Option<Facing> {
    if !state.rules().battlefront() {
        return None;
    }
    let (dc, dr) = enemy.map(|e| {
        (
            e.col() as i32 - sq.col() as i32,
            e.row() as i32 - sq.row() as i32,
        )
    })?;
    Facing::of_delta(dc, dr)
}

/// Step hook (R765, R660): the Spy's two dice. No army symbol, or the square no longer valid:
/// not placed, the activation is a Nothing. Otherwise placed, with one action per army symbol.
pub(super) fn roll(
    state: &mut State,
    act: &mut Activation,
    sq: Square,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let round = state.round;
    let id = act.unit.clone();
    let faces: Vec<u8> = (0..2).map(|_| dice.d6(round)).collect();
    let army = bdice::count(&faces, Symbol::Army);
    let shown = faces
        .iter()
        .map(|f| Symbol::of_face(*f).name())
        .collect::<Vec<_>>()
        .join(", ");
    let rolls = vec![Roll {
        purpose: format!("spy {id}"),
        round,
        faces,
    }];
    let why = state.unit(&id).and_then(|u| why_not(state, u, sq));
    if army == 0 || why.is_some() {
        act.steps.clear();
        let because = match why {
            Some(w) if army > 0 => format!("{w}, so it is not placed"),
            _ => "no army symbol, so it is not placed".to_string(),
        };
        out.happenings.push(Happening {
            rolls,
            ..Happening::text(format!(
                "{id} (Spy) rolls two dice ({shown}): {because} and only does nothing (002 \"Spy\")"
            ))
        });
        return;
    }
    let enemy = enemy_next_to(&occupancy(state, std::slice::from_ref(&id)), &act.side, sq);
    let facing = facing_to(state, sq, enemy);
    if let Some(x) = state.unit_mut(&id) {
        x.at = Some(sq);
        x.facing = facing;
    }
    let made = if army == 1 {
        if let Some(i) = act.steps.iter().position(|s| matches!(s, Step::SpyCut)) {
            act.steps.truncate(i);
        }
        "one army symbol: one action, the first ordered (the rest is not made)"
    } else {
        act.steps.retain(|s| !matches!(s, Step::SpyCut));
        "two army symbols: two actions"
    };
    tell(
        out,
        format!("{id} (Spy) rolls two dice ({shown}) and is placed on {sq}, within one square of an enemy unit; {made} (002 \"Spy\")"),
        DtEvent::Entered { unit: id.clone(), to: sq },
        rolls,
    );
}

/// Setup hook (R765, R662): a Spy is "not placed at the start of the game" and "may not Join a
/// Unit until the Spy has been placed": a scenario giving it a square, a vehicle to ride in or a
/// unit to join is refused at `new`.
pub(super) fn check_setup(state: &State) -> Result<(), SetupError> {
    for u in &state.units {
        if !state.rules().battlefront()
            || !card(state, u).is_some_and(|c| c.has_skill(Skill002::Spy.id()))
        {
            continue;
        }
        let how = if let Some(s) = &u.joined {
            format!("the scenario joins it to {s}")
        } else if let Some(v) = &u.aboard {
            format!("the scenario puts it in {v}")
        } else if let Some(at) = u.at {
            format!("the scenario places it on {at}")
        } else {
            continue;
        };
        return Err(SetupError(format!(
            "{} has the skill Spy, which 002 says \"is not placed at the start of the game\" and \"may not Join a Unit until the Spy has been placed\", but {how} (R765): leave out its `at`, `aboard` and `joins`",
            u.id
        )));
    }
    Ok(())
}
