//! 004 "Volley Blast A/X - B/X - C/X ...": "Roll 'A' dice when spending 1 ammo (roll 'B' dice
//! when spending 2 ammo, roll 'C' dice when spending 3 ammo, etc.) and inflict 'X' damage to the
//! target for each [hit] result." (R460)
//!
//! A volley line is a limited-ammo line: the count of an order (`attack 2 rockets at …`, R414)
//! is the ammo spent, 1 when the order gives none; the line fires as one weapon, so it counts
//! once against "no more limited-ammo weapons per attack than models alive".

use super::*;

/// Whether any cell of `w` is a volley cell.
pub(super) fn is_volley(w: &WeaponLine) -> bool {
    let v = |c: &Fire| matches!(c, Fire::Volley { .. });
    w.soldier.iter().any(v) || w.vehicle.iter().any(v) || w.aircraft.iter().any(v)
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
    if is_volley(w) {
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
