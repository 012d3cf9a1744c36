//! Attack resolution for one weapon line against one target (004 "Attacking").
//!
//! Pure functions: the dice come in, a description of hits, saves and damage comes out. The state
//! machine applies the damage (and asks the owner for casualties).

use super::model::{Armour, Cover, Save, UnitType, WeaponLine};
use crate::game::{DiceSource, Roll};

/// A die shows a hit on two of its six faces (DESIGN ruling 3): faces 1 and 2.
pub fn is_hit(face: u8) -> bool {
    face <= 2
}

/// What the target brings to an attack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetProfile {
    pub armour: Armour,
    pub unit_type: UnitType,
    /// Models in the target (squads); 1 for heroes and vehicles.
    pub models: u32,
    /// Damage points that would destroy it now (models for squads, health left otherwise):
    /// laser chains stop once it is reached.
    pub remaining: u32,
    pub cover: Cover,
    pub soft_save: Save,
    pub hard_save: Save,
    pub damage_resilient: bool,
}

/// How the attacker fires this line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FireOptions {
    /// Models firing the line (already capped for limited ammo); 1 for heroes and vehicles.
    pub carriers: u32,
    pub sustained: bool,
    /// Berserk used this activation: re-roll misses once more, per line.
    pub berserk: bool,
    /// Dice reversed (Spotter, Fighting Spirit): misses count as hits.
    pub reversed: bool,
    /// All In One: double dice.
    pub doubled: bool,
}

/// The resolution of one line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineOutcome {
    pub rolls: Vec<Roll>,
    pub hits: u32,
    pub saved: u32,
    /// Damage points to apply after saves and Damage Resilient.
    pub damage: u32,
    /// The whole unit is eliminated (anti-tank incendiary).
    pub eliminate: bool,
    /// One line for people: "Laser gun: 6 dice, 2 hits, 1 saved, 1 damage".
    pub summary: String,
}

/// Resolves one weapon line against one target.
pub fn resolve_line(
    weapon: &WeaponLine,
    target: &TargetProfile,
    opts: &FireOptions,
    round: u32,
    dice: &mut dyn DiceSource,
) -> LineOutcome {
    // PLACEHOLDER (replaced by the combat work): plain X/N dice, no saves or specials.
    use super::model::Fire;
    let (n, dmg) = match weapon.against(target.armour) {
        Fire::Dice { dice, damage } => (dice as u32 * opts.carriers.max(1), damage as u32),
        _ => (0, 0),
    };
    let faces: Vec<u8> = (0..n).map(|_| dice.d6(round)).collect();
    let hits = faces.iter().filter(|f| is_hit(**f)).count() as u32;
    LineOutcome {
        rolls: vec![Roll {
            purpose: format!("attack {}", weapon.id),
            round,
            faces,
        }],
        hits,
        saved: 0,
        damage: hits * dmg,
        eliminate: false,
        summary: format!("{}: {n} dice, {hits} hits", weapon.name),
    }
}
