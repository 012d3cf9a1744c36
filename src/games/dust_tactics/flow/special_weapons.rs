//! 004 "Special Weapons": Burst and Setup weapons, which change the dice a line rolls (R418,
//! R419). Reloadable weapons share artillery's Loaded token (`artillery`, R415).

use super::*;

/// Every cell of `w` with its dice changed by `f` (at least 1 die where there was one).
fn with_dice(w: &WeaponLine, f: impl Fn(u8) -> u8) -> WeaponLine {
    let cell = |c: Fire| match c {
        Fire::No => Fire::No,
        Fire::Dice { dice, damage } => Fire::Dice {
            dice: f(dice).max(1),
            damage,
        },
        Fire::Incendiary { dice } => Fire::Incendiary {
            dice: f(dice).max(1),
        },
        Fire::ApIncendiary { dice } => Fire::ApIncendiary {
            dice: f(dice).max(1),
        },
    };
    WeaponLine {
        soldier: w.soldier.map(cell),
        vehicle: w.vehicle.map(cell),
        aircraft: w.aircraft.map(cell),
        ..w.clone()
    }
}

/// Whether the active unit's activation is MOVE + ATTACK or ATTACK + MOVE: it moved before this
/// attack, or a MOVE is still to come (004 "Setup Weapons").
fn moves_this_activation(state: &State, act: &Activation, shooter: &str) -> bool {
    let lead = leader_of(state, shooter).unwrap_or_else(|| shooter.to_string());
    lead == act.unit
        && (state.unit(&lead).is_some_and(|u| u.moved)
            || act
                .steps
                .iter()
                .any(|s| matches!(s, Step::Move { .. } | Step::Enter { .. })))
}

/// The line as `shooter` fires it at a unit that has (`target_moved`) or has not moved this
/// round, with what changed for the report ("burst: double dice").
pub(super) fn as_fired(
    state: &State,
    act: &Activation,
    shooter: &str,
    w: &WeaponLine,
    target_moved: Option<bool>,
) -> (WeaponLine, Vec<&'static str>) {
    let mut line = w.clone();
    let mut notes = vec![];
    // 004 "Burst Weapons": "When firing a burst weapon at a target that has not performed a MOVE
    // action this round, double the number of dice rolled" (R418).
    if w.traits.contains(&WeaponTrait::Burst) && target_moved == Some(false) {
        line = with_dice(&line, |d| d.saturating_mul(2));
        notes.push("burst: double dice, the target has not moved this round");
    }
    // 004 "Setup Weapons": "If a unit performs a MOVE + ATTACK or ATTACK + MOVE activation and
    // fires a setup weapon, it only rolls half of that weapon's combat dice (rounded up)" (R419).
    if w.traits.contains(&WeaponTrait::Setup) && moves_this_activation(state, act, shooter) {
        line = with_dice(&line, |d| d.div_ceil(2));
        notes.push("setup: half dice, the unit moves this activation");
    }
    (line, notes)
}
