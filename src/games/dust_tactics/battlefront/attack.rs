//! 003 "Roll Saves" and "Suffer Damage" for one weapon line (the attack roll itself is the
//! engine's: hits on the army symbol, Sustained re-rolls and laser chains as 003 says). Called
//! by `combat::resolve_line_under` when the ruleset is battlefront-2013.

use super::dice::RollKind;
use crate::dust_tactics::combat::{roll, LineOutcome, TargetProfile};
use crate::dust_tactics::geometry::{self, CoverSource, Occupancy, Sighter};
use crate::dust_tactics::model::Board;
use crate::dust_tactics::model::{Cover, UnitType, WeaponLine, WeaponRange, WeaponTrait};
use crate::game::{DiceSource, Roll};

/// The cover of a vehicle target (003 "Cover Saves"): "A unit is in Cover if the attacking unit
/// cannot draw a line from any point in its square to all points in the target unit's square
/// without passing through or touching blocking squares. An Infantry unit is also in Cover if it
/// occupies a square with ammo crates, anti-tank traps, trees, rubble, buildings, or smoke." So
/// a vehicle gets nothing from its own square: only the engine's line cover (a blocking corner
/// or wall end skimmed) counts for it (R235). Infantry keep the engine's whole cover test.
pub fn vehicle_cover(board: &Board, occ: &Occupancy, shooter: Sighter, target: Sighter) -> Cover {
    let report = geometry::cover_explained(board, occ, shooter, target);
    let line = report
        .sources
        .iter()
        .any(|s| matches!(s, CoverSource::Corner(_) | CoverSource::WallCorner(..)));
    if line {
        Cover::Soft
    } else {
        Cover::None
    }
}

/// The save a target of this line rolls, if any (003 "Roll Saves"):
/// - "If the target unit was a Vehicle unit in Cover ... Each [army] cancels one of the hits";
/// - "If the target unit was an Infantry unit in Cover ... Each [army] or [shield] cancels";
/// - "If the target unit was an Infantry unit that does not get a Cover Save, it still gets an
///   Infantry Save ... Each [army] cancels one of the hits";
/// - "Units hit by Close-Combat Weapons do not get any Cover or Infantry Saves";
/// - Spray weapons (the engine's flamethrowers): "do not get an Infantry Save or a Cover Save";
/// - Grenade and Phaser weapons (002): "do not get a Cover Save ..., but do retain their
///   Infantry Save" (R670).
///
/// Heroes are infantry ("Heroes are Infantry units of one miniature"). A Steel Guard or Zombie
/// target "never has Cover Saves, but always passes its Infantry Saves on a roll of [target] as
/// well as [army]" (002, R600).
///
/// A unit in a strongpoint or bunker gets a save against close-combat weapons from outside
/// (002, R720, R782).
pub fn save_kind(weapon: &WeaponLine, target: &TargetProfile) -> Option<RollKind> {
    if let Some(fort) = target
        .bf
        .fort()
        .filter(|_| weapon.range == WeaponRange::Close)
    {
        return Some(fort);
    }
    if weapon.range == WeaponRange::Close || weapon.traits.contains(&WeaponTrait::Flamethrower) {
        return None;
    }
    if target.bf.hardened {
        return (target.unit_type != UnitType::Vehicle).then_some(RollKind::HardenedInfantrySave);
    }
    // 002 "Grenade Weapons", "Phaser Weapons": no Cover Save, the Infantry Save kept (R670).
    let in_cover = target.cover != Cover::None && !super::weapons::ignores_cover(weapon);
    match (target.unit_type, in_cover) {
        (UnitType::Vehicle, true) => Some(RollKind::VehicleCoverSave),
        (UnitType::Vehicle, false) => None,
        (UnitType::Squad | UnitType::Hero, true) => Some(RollKind::InfantryCoverSave),
        (UnitType::Squad | UnitType::Hero, false) => Some(RollKind::InfantrySave),
    }
}

/// The damage one unsaved hit does: 003 "Suffer Damage": "Each hit on an Infantry Squad
/// eliminates one miniature" whatever the number after the slash; heroes and vehicles take the
/// cell's damage.
pub fn hit_damage(target: &TargetProfile, cell_damage: u32) -> u32 {
    match target.unit_type {
        UnitType::Squad => 1,
        UnitType::Hero | UnitType::Vehicle => cell_damage,
    }
}

/// Saves, damage and Damage Resilient for the `hits` a line scored (003 steps 6 and 7).
#[allow(clippy::too_many_arguments)]
pub fn finish(
    weapon: &WeaponLine,
    target: &TargetProfile,
    cell_damage: u32,
    first_dice: u32,
    hits: u32,
    notes: Vec<String>,
    mut rolls: Vec<Roll>,
    round: u32,
    dice: &mut dyn DiceSource,
) -> LineOutcome {
    let id = &weapon.id;
    let save = save_kind(weapon, target);
    let mut saved = 0;
    if let (Some(kind), true) = (save, hits > 0) {
        let faces = roll(
            hits,
            format!("{} vs {id}", save_name(kind)),
            round,
            dice,
            &mut rolls,
        );
        saved = faces.iter().filter(|f| kind.face_succeeds(**f)).count() as u32;
    }
    // 002 "Cover From Bunkers and Strongpoints" (R719): "Units in Strongpoints that fail an
    // Infantry or Cover Save also re-roll the Save, but only cancel the Hit if the re-roll scores
    // [army]": one die per failed save die. In a bunker army or shield cancels (R782).
    let fort = target.bf.fort().filter(|f| save.is_some_and(|k| k != *f));
    let mut rerolled = 0;
    if let (Some(fort), true) = (fort, hits > saved) {
        let faces = roll(
            hits - saved,
            format!("{} vs {id}", reroll_name(fort)),
            round,
            dice,
            &mut rolls,
        );
        rerolled = faces.iter().filter(|f| fort.face_succeeds(**f)).count() as u32;
    }
    let saved = saved + rerolled;
    let through = hits - saved;
    let per_hit = hit_damage(target, cell_damage);
    // 003 "Suffer Damage": "Assign each hit ... one at a time. Resolve each hit before going on
    // to the next"; damage beyond the last cross is overkill and lost, and 003 "Damage
    // Resilient" rolls "one die for each point of damage marked off" (one per hit for a squad).
    let mut damage: u32 = 0;
    let mut resilient: u32 = 0;
    for _ in 0..through {
        let left = target.remaining.saturating_sub(damage);
        let marked = per_hit.min(left);
        if marked == 0 {
            break;
        }
        let mut cancelled = 0;
        if target.damage_resilient {
            let faces = roll(
                marked,
                format!("damage resilient vs {id}"),
                round,
                dice,
                &mut rolls,
            );
            cancelled = faces
                .iter()
                .filter(|f| RollKind::DamageResilient.face_succeeds(**f))
                .count() as u32;
        }
        resilient += cancelled;
        damage += marked - cancelled;
    }
    let mut summary = format!("{} vs {}: {first_dice} dice", weapon.name, armour(target));
    for n in &notes {
        summary.push_str(", ");
        summary.push_str(n);
    }
    summary.push_str(&format!(", {hits} hit{}", if hits == 1 { "" } else { "s" }));
    match save {
        Some(kind) => summary.push_str(&format!(
            ", {} cancelled by {}",
            saved - rerolled,
            save_name(kind)
        )),
        None if hits > 0 => summary.push_str(", no save"),
        None => {}
    }
    if let Some(fort) = fort {
        summary.push_str(&format!(
            ", {rerolled} cancelled by the {}",
            reroll_name(fort)
        ));
    }
    if resilient > 0 {
        summary.push_str(&format!(", {resilient} cancelled (Damage Resilient)"));
    }
    if target.unit_type == UnitType::Squad {
        summary.push_str(&format!(
            ", {damage} model{} lost (one per hit)",
            if damage == 1 { "" } else { "s" }
        ));
    } else {
        summary.push_str(&format!(", {damage} damage"));
    }
    LineOutcome {
        rolls,
        hits,
        saved,
        damage,
        eliminate: false,
        summary,
    }
}

/// The save's name in reports and roll purposes (`dice::RollKind::of_purpose` reads it back).
pub fn save_name(kind: RollKind) -> &'static str {
    match kind {
        RollKind::InfantryCoverSave => "infantry cover save",
        RollKind::VehicleCoverSave => "vehicle cover save",
        RollKind::HardenedInfantrySave => super::dice::HARDENED_SAVE,
        RollKind::StrongpointSave => super::strongpoints::CLOSE_SAVE,
        RollKind::BunkerSave => super::bunkers::CLOSE_SAVE,
        _ => "infantry save",
    }
}

/// The name of a fortification's re-roll of failed saves (R719, R782).
fn reroll_name(fort: RollKind) -> &'static str {
    if fort == RollKind::BunkerSave {
        super::bunkers::REROLL
    } else {
        super::strongpoints::REROLL
    }
}

fn armour(target: &TargetProfile) -> String {
    use crate::dust_tactics::model::Armour;
    match target.armour {
        Armour::Soldier(v) => format!("infantry armour {v}"),
        Armour::Vehicle(v) => format!("vehicle armour {v}"),
        Armour::Aircraft(v) => format!("aircraft armour {v}"),
    }
}
