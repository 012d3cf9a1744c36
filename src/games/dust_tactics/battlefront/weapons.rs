//! 002 "Special Weapons" under battlefront-2013 (issue 18): the weapon traits only this ruleset
//! plays, and what each changes. Grenade weapons are the shared `grenade_launcher` trait, whose
//! meaning here is already 002's (no Cover Save, Infantry Save kept: `attack::save_kind`, R670).

use super::super::cards::CardError;
use super::super::model::{Card, WeaponLine, WeaponTrait};

/// The purpose (and report name) of a Cutting weapon's chained dice (002 "Cutting Weapons").
pub const CUTTING_CHAIN: &str = "cutting chain";

/// The traits 002 defines that only battlefront-2013 plays, with 002's title.
const BATTLEFRONT_ONLY: &[(WeaponTrait, &str)] = &[
    (WeaponTrait::Phaser, "Phaser Weapons"),
    (WeaponTrait::Cutting, "Cutting Weapons"),
];

/// 002 "Grenade Weapons" and "Phaser Weapons": "do not get a Cover Save against those weapons,
/// but do retain their Infantry Save" (R670).
pub fn ignores_cover(w: &WeaponLine) -> bool {
    w.traits.contains(&WeaponTrait::GrenadeLauncher) || w.traits.contains(&WeaponTrait::Phaser)
}

/// 002 "Cutting Weapons": "When a Cutting weapon scores a Hit, roll another die scoring a further
/// Hit on a roll of [army]. Continue ... until it rolls a miss": a laser's chain (R671).
pub fn cuts(w: &WeaponLine) -> bool {
    w.traits.contains(&WeaponTrait::Cutting)
}

/// Under any ruleset but battlefront-2013, a card giving a weapon one of 002's own traits is
/// refused when read: that ruleset would carry a rule it ignores (R670).
pub fn refuse_elsewhere(file: &str, card: &Card) -> Result<(), CardError> {
    for (i, w) in card.weapons.iter().enumerate() {
        if let Some((t, title)) = BATTLEFRONT_ONLY.iter().find(|(t, _)| w.traits.contains(t)) {
            let word = serde_json::to_string(t).unwrap_or_default();
            return Err(CardError {
                file: file.to_string(),
                field: format!("weapons[{i}].traits"),
                reason: format!(
                    "the trait `{}` of the weapon `{}` is 002's \"{title}\", played only under `--ruleset battlefront-2013` (R670)",
                    word.trim_matches('"'),
                    w.id
                ),
                instead: "remove the trait, or play the game with `--ruleset battlefront-2013`"
                    .into(),
            });
        }
    }
    Ok(())
}
