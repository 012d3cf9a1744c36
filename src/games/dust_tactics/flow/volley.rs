//! 004 "Volley Blast A/X - B/X - C/X ...": "Roll 'A' dice when spending 1 ammo (roll 'B' dice
//! when spending 2 ammo, roll 'C' dice when spending 3 ammo, etc.) and inflict 'X' damage to the
//! target for each [hit] result." (R460)
//!
//! A volley line is a limited-ammo line: the count of an order (`attack 2 rockets at …`, R414)
//! is the ammo spent, 1 when the order gives none; the line fires as one weapon, so it counts
//! once against "no more limited-ammo weapons per attack than models alive".
//!
//! battlefront-2013, 002 "Volley Weapons" (R751): a line with the trait `volley` and a plain
//! cell: the order's count is the boxes marked, any up to those left, and the cell's dice are
//! multiplied by it (the engine's carriers, as 000's limited-ammo weapons each roll the cell).

use super::*;
use crate::dust_tactics::battlefront::weapons::volley as volley002;

/// Whether any cell of `w` is a volley cell, or `w` is 002's volley weapon (R751).
pub(super) fn is_volley(w: &WeaponLine) -> bool {
    let v = |c: &Fire| matches!(c, Fire::Volley { .. });
    w.soldier.iter().any(v) || w.vehicle.iter().any(v) || w.aircraft.iter().any(v) || volley002(w)
}

/// The most ammo one volley of `w` may spend: the longest list of dice counts on its cells.
fn most_steps(w: &WeaponLine) -> u32 {
    w.soldier
        .iter()
        .chain(&w.vehicle)
        .chain(&w.aircraft)
        .map(|c| match c {
            Fire::Volley { steps, .. } => *steps as u32,
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

/// How many of a limited-ammo line fire, which is the boxes it spends (R414); a volley spends
/// the order's count, or 1, never more than the boxes left.
pub(super) fn fired(w: &WeaponLine, carriers: u32, left: u32, count: Option<u32>) -> u32 {
    if volley002(w) {
        // R751: one box unless the order names more, fired by any carrier still alive.
        count
            .unwrap_or(1)
            .min(left)
            .min(if carriers == 0 { 0 } else { u32::MAX })
    } else if is_volley(w) {
        count.unwrap_or(1).min(most_steps(w)).min(left)
    } else {
        carriers.min(left).min(count.unwrap_or(u32::MAX))
    }
}

/// How many limited-ammo weapons a line fires, for the cap of models alive: a volley is one.
pub(super) fn weapons(w: &WeaponLine, carriers: u32, left: u32, count: Option<u32>) -> u32 {
    let n = fired(w, carriers, left, count);
    if is_volley(w) {
        n.min(1)
    } else {
        n
    }
}

/// How the line fires, for the reports: "2 carriers", or "volley of 2 ammo".
pub(super) fn label(w: &WeaponLine, n: u32) -> String {
    if is_volley(w) {
        format!("volley of {n} ammo")
    } else {
        format!("{n} carrier{}", if n == 1 { "" } else { "s" })
    }
}

/// Checks a volley's declared count against its cell and the boxes left (any other line's
/// count is `attack::check_count`'s).
pub(super) fn check_count(
    state: &State,
    shooter: &str,
    w: &WeaponLine,
    f: &FireOrder,
) -> Result<(), Refusal> {
    let Some(n) = f.count.filter(|_| is_volley(w)) else {
        return Ok(());
    };
    if volley002(w) {
        return check_count002(state, shooter, w, f, n);
    }
    let steps = most_steps(w);
    let boxes = w.ammo.unwrap_or(0) as u32;
    let left = state
        .unit(shooter)
        .map(|su| su.ammo.get(&w.id).copied().map_or(boxes, u32::from))
        .unwrap_or(boxes);
    let most = steps.min(left);
    if n == 0 || n > most {
        return refuse(
            format!(
                "`{n} {}`: a volley of {} spends 1 to {steps} ammo and {shooter} has {left} box(es) left",
                w.id, w.name
            ),
            RuleId::VolleyBlast.with("roll 'A' dice when spending 1 ammo, 'B' when spending 2…"),
            format!("attack {} {} at {}", most.max(1), w.id, f.target),
        );
    }
    Ok(())
}

/// 002 "Volley Weapons": "The player selects how many bombs or rockets to use in an attack, and
/// marks that number of ammo boxes" (R751): 1 to the boxes left.
fn check_count002(
    state: &State,
    shooter: &str,
    w: &WeaponLine,
    f: &FireOrder,
    n: u32,
) -> Result<(), Refusal> {
    let boxes = w.ammo.unwrap_or(0) as u32;
    let left = state
        .unit(shooter)
        .map(|su| su.ammo.get(&w.id).copied().map_or(boxes, u32::from))
        .unwrap_or(boxes);
    if n >= 1 && n <= left {
        return Ok(());
    }
    Err(Refusal {
        reason: format!(
            "`{n} {}`: a volley of {} marks 1 to {left} ammo box(es), the boxes {shooter} has left",
            w.id, w.name
        ),
        rule: "002 \"Volley Weapons\": \"A Volley weapon is a Limited-Ammo weapon that can fire any or all of its remaining bombs or rockets at the same time. The player selects how many bombs or rockets to use in an attack, and marks that number of ammo boxes.\" (R751)".into(),
        instead: if left == 0 {
            format!("fire another weapon: {} has no ammo box left", w.name)
        } else {
            format!("attack {left} {} at {}", w.id, f.target)
        },
    })
}
