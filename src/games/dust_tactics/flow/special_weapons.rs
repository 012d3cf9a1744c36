//! 004 "Special Weapons": Burst and Setup weapons, which change the dice a line rolls (R418,
//! R419), and Dual Ammo weapons, one line per ammunition (R420). Reloadable weapons share
//! artillery's Loaded token (`artillery`, R415).

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
        Fire::Phaser { dice } => Fire::Phaser {
            dice: f(dice).max(1),
        },
        Fire::Volley {
            dice,
            steps,
            damage,
        } => Fire::Volley {
            dice: dice.map(|d| if d == 0 { 0 } else { f(d).max(1) }),
            steps,
            damage,
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
    // 003: a reaction whose two army symbols turned the unit made a Move, then this Attack (R822).
    if lead != act.unit && super::large_react::turned_reactor(state, &lead) {
        return true;
    }
    lead == act.unit
        && (state.unit(&lead).is_some_and(|u| u.moved)
            || act.steps.iter().any(|s| {
                matches!(
                    s,
                    Step::Move { .. } | Step::Climb { .. } | Step::Enter { .. }
                )
            }))
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

fn dual(w: &WeaponLine) -> bool {
    w.traits.contains(&WeaponTrait::DualAmmo)
}

/// Whether `a` and `b` (each with its shooter) are two ammunitions of one dual-ammo weapon.
fn same_dual_weapon(a: (&str, &WeaponLine), b: (&str, &WeaponLine)) -> bool {
    dual(a.1) && dual(b.1) && a.0 == b.0 && a.1.name.eq_ignore_ascii_case(&b.1.name)
}

/// 004 "Dual Ammo Weapons": "Each time a unit fires a dual ammo weapon, the controlling player
/// must announce which type of ammunition is being used": one line of the weapon per attack.
pub(super) fn check_dual_ammo(state: &State, lines: &[LineOrder]) -> Result<(), Refusal> {
    let fired: Vec<(String, WeaponLine)> = lines
        .iter()
        .filter_map(|l| find_weapon(state, &l.shooter, &l.weapon))
        .collect();
    for (i, (s, w)) in fired.iter().enumerate() {
        if let Some((_, other)) = fired[..i]
            .iter()
            .find(|(s2, w2)| same_dual_weapon((s, w), (s2, w2)))
        {
            return refuse(
                format!(
                    "{} and {} are two ammunitions of one weapon, {}: it fires one of them",
                    other.id, w.id, w.name
                ),
                RuleId::DualAmmoWeapons.with(
                    "the controlling player must announce which type of ammunition is being used",
                ),
                format!("keep `{}` or `{}`, not both", other.id, w.id),
            );
        }
    }
    Ok(())
}

/// Reactive fire fires every line it can; of a dual-ammo weapon, only its first ammunition in
/// card order (R420).
pub(super) fn one_ammo_each(lines: Vec<(String, WeaponLine)>) -> Vec<(String, WeaponLine)> {
    let mut kept: Vec<(String, WeaponLine)> = vec![];
    for (s, w) in lines {
        if !kept
            .iter()
            .any(|(ks, kw)| same_dual_weapon((ks, kw), (&s, &w)))
        {
            kept.push((s, w));
        }
    }
    kept
}
