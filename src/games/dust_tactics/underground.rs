//! 004 "Underground Fighting" (issue 12): a scenario fought in the metro, the sewers or other
//! tunnels, on one board (R620). Dim light and low ceilings limit attacks by the spaces between
//! the units (R621); only soldier units go underground; Jump is not used there (R622); in the
//! sewers every corner blocks line of sight (R623). The rules that change an attack are applied
//! in `flow::underground`.

use super::model::{Cover, Square};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where a scenario's underground fight takes place (`underground = "..."` in its file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Underground {
    /// 004 "Fighting in the Metro": corner cover stacks with dim light.
    Metro,
    /// 004 "Fighting in the Sewers": all corners block LOS, never corner cover.
    Sewers,
    /// The standard underground rules alone (004 "Dim Light, Low Ceilings").
    Tunnels,
}

/// The spaces between two squares: the fewest squares a line of adjacent steps passes between
/// them, max(dx, dy) − 1 (R621). It agrees with every range equivalent 004 gives: one space is
/// range 2 straight or 3 fully diagonal, two are range 3 or 5, three are range 4 or 7.
pub fn spaces_between(a: Square, b: Square) -> u32 {
    let (dx, dy) = a.delta(b);
    (dx.max(dy) as u32).saturating_sub(1)
}

/// 004 "Dim Light, Low Ceilings": `None` when units cannot target each other (4 or more spaces
/// between), else the cover the dim light gives the target.
pub fn dim_light(a: Square, b: Square) -> Option<Cover> {
    match spaces_between(a, b) {
        0 | 1 => Some(Cover::None),
        2 => Some(Cover::Soft),
        3 => Some(Cover::Hard),
        _ => None,
    }
}

/// 004 "Dim Light, Low Ceilings": "Only soldier units (squads, heroes, superhumans) can enter
/// the metro and the sewers." A vehicle in an underground scenario is refused at `new`.
pub fn check_units(
    s: &super::scenario::Scenario,
    card_map: &BTreeMap<String, String>,
) -> Result<(), String> {
    if s.underground.is_none() {
        return Ok(());
    }
    for side in &s.sides {
        for u in &side.units {
            let file = format!("{}.toml", u.card);
            let Some(card) = card_map
                .get(&file)
                .and_then(|t| super::cards::parse_card(&file, t).ok())
            else {
                continue; // an unknown card is refused with its own message later
            };
            if !card.unit_type.is_soldier() {
                return Err(format!(
                    "scenario `{}` is fought underground, and unit {} (card {}) is a vehicle: \"Only soldier units (squads, heroes, superhumans) can enter the metro and the sewers\" (004 Underground Fighting, R620); give that side soldier units only",
                    s.name, u.id, u.card
                ));
            }
        }
    }
    Ok(())
}
