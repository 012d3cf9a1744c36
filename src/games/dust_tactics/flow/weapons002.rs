//! 002 "Special Weapons" under battlefront-2013, checked when an attack is ordered: an
//! Under-Barrel weapon and its main weapon fire at the same target (R674); which units' Sniper
//! weapons an idle Spotter helps (R676).

use super::*;
use crate::dust_tactics::battlefront::weapons::{main_of, sniper, spotter_idle};

/// 002 "Under-Barrel Weapons": "A soldier carrying an Under-Barrel Weapon can fire both the main
/// weapon and the Under-Barrel Weapon at the same target in an Attack action" (R674): when one
/// attack fires both lines of a unit, they name the same target.
pub(super) fn check_under_barrel(state: &State, lines: &[LineOrder]) -> Result<(), Refusal> {
    if !state.rules().battlefront() {
        return Ok(());
    }
    for l in lines {
        let Some(u) = state.unit(&l.shooter) else {
            continue;
        };
        let Some(c) = card(state, u) else { continue };
        let Some(w) = c.weapon(&l.weapon) else {
            continue;
        };
        let Some(main) = main_of(c, w) else { continue };
        let other = lines
            .iter()
            .find(|m| m.shooter == l.shooter && m.weapon.eq_ignore_ascii_case(&main.id));
        if let Some(m) = other.filter(|m| target_text(&m.target) != target_text(&l.target)) {
            return Err(Refusal {
                reason: format!(
                    "{} is the under-barrel weapon of {}: both fire at the same target, not at {} and {}",
                    w.name,
                    main.name,
                    target_text(&m.target),
                    target_text(&l.target)
                ),
                rule: "002 \"Under-Barrel Weapons\": \"A soldier carrying an Under-Barrel Weapon can fire both the main weapon and the Under-Barrel Weapon at the same target in an Attack action\" (R674)".into(),
                instead: format!(
                    "attack {} at {t}, {} at {t}, or fire one of them elsewhere in another action",
                    main.id,
                    w.id,
                    t = target_text(&m.target)
                ),
            });
        }
    }
    Ok(())
}

/// 002 "Spotters" (R676): the shooters of a battlefront Sustained Attack's `lines` that fire a
/// Sniper weapon while a living spotter of theirs fires none of its lines.
pub(super) fn spotted(state: &State, lines: &[LineOrder], sustained: bool) -> Vec<String> {
    if !sustained || !state.rules().battlefront() {
        return vec![];
    }
    let mut out: Vec<String> = vec![];
    for l in lines {
        let Some(u) = state.unit(&l.shooter) else {
            continue;
        };
        let Some(c) = card(state, u) else { continue };
        if out.contains(&l.shooter) || !c.weapon(&l.weapon).is_some_and(sniper) {
            continue;
        }
        let fired: Vec<&str> = (lines.iter().filter(|m| m.shooter == l.shooter))
            .map(|m| m.weapon.as_str())
            .collect();
        if spotter_idle(c, &u.models, &fired) {
            out.push(l.shooter.clone());
        }
    }
    out
}
