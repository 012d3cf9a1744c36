//! 002 "Special Weapons" under battlefront-2013 (issue 18): the weapon traits only this ruleset
//! plays, and what each changes. Grenade weapons are the shared `grenade_launcher` trait, whose
//! meaning here is already 002's (no Cover Save, Infantry Save kept: `attack::save_kind`, R670).

use super::super::cards::CardError;
use super::super::combat::FireOptions;
use super::super::model::{Card, WeaponLine, WeaponRange, WeaponTrait};
use super::super::rules::Rules;

/// The purpose (and report name) of a Cutting weapon's chained dice (002 "Cutting Weapons").
pub const CUTTING_CHAIN: &str = "cutting chain";

/// The traits 002 defines that only battlefront-2013 plays, with 002's title.
const BATTLEFRONT_ONLY: &[(WeaponTrait, &str)] = &[
    (WeaponTrait::Phaser, "Phaser Weapons"),
    (WeaponTrait::Cutting, "Cutting Weapons"),
    (WeaponTrait::Grapple, "Grapple Weapons"),
    (WeaponTrait::PowerScopes, "Power Scopes"),
    (WeaponTrait::WireGuided, "Wire-Guided Weapons"),
    (WeaponTrait::UnderBarrel, "Under-Barrel Weapons"),
    (WeaponTrait::Sniper, "Sniper Weapons"),
    (WeaponTrait::Volley, "Volley Weapons"),
];

/// The purpose (and report name) of a Wire-Guided weapon's re-roll (002, R673).
pub const WIRE_GUIDED_REROLL: &str = "wire-guided re-roll";

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
        // 003 "Minimum Range (#–#)": `2-U` has no maximum; 000 and 004 print no such range (R687).
        if let WeaponRange::Between(a, WeaponRange::NO_MAX) = w.range {
            return Err(CardError {
                file: file.to_string(),
                field: format!("weapons[{i}].range"),
                reason: format!(
                    "the range `{a}-U` of the weapon `{}` is 003's \"Minimum Range (#–#)\" with no maximum, played only under `--ruleset battlefront-2013` (R687)",
                    w.id
                ),
                instead: "write a maximum (`2-8`), `U`, or play the game with `--ruleset battlefront-2013`".into(),
            });
        }
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

/// 002 "Power Scopes": "A weapon with Power Scopes hits on rolls of [target] as well as [army]
/// when making a Sustained Attack Action" (R672, the lost symbols read as 002's other "2-face"
/// rules): the first roll and the re-roll of a Sustained Attack, not the Wire-Guided re-roll of an
/// Attack.
pub fn scoped(rules: Rules, w: &WeaponLine, opts: &FireOptions) -> bool {
    rules.battlefront() && opts.sustained && w.traits.contains(&WeaponTrait::PowerScopes)
}

/// 002 "Wire-Guided Weapons": "If a Unit attacks with one Wire-guided weapon and no other weapons
/// when making an Attack Action, it re-rolls misses for that weapon as if making a Sustained
/// Attack." `alone`: the Attack (not a Sustained Attack) has this one line, firing `fired`
/// weapons; one weapon only (R673).
pub fn wire_guided(w: &WeaponLine, alone: bool, fired: u32) -> bool {
    alone && fired == 1 && w.traits.contains(&WeaponTrait::WireGuided)
}

/// The main weapon of the under-barrel line `w` on `card`: the line just above it (R674).
pub fn main_of<'a>(card: &'a Card, w: &WeaponLine) -> Option<&'a WeaponLine> {
    if !w.traits.contains(&WeaponTrait::UnderBarrel) {
        return None;
    }
    let i = card.weapons.iter().position(|x| x.id == w.id)?;
    i.checked_sub(1).map(|j| &card.weapons[j])
}

/// 002 "Volley Weapons": "A Volley weapon is a Limited-Ammo weapon that can fire any or all of
/// its remaining bombs or rockets at the same time" (R751).
pub fn volley(w: &WeaponLine) -> bool {
    w.traits.contains(&WeaponTrait::Volley)
}

/// A battlefront card's under-barrel lines each sit below a main weapon that is not one (R674);
/// its volley lines have ammo boxes (R751).
pub fn check_card(file: &str, card: &Card) -> Result<(), String> {
    if let Some(w) = card.weapons.iter().find(|w| volley(w) && w.ammo.is_none()) {
        return Err(format!(
            "card {file}: the volley weapon `{}` has no ammo boxes (002 \"Volley Weapons\": \"A Volley weapon is a Limited-Ammo weapon\", R751); give the line `ammo = N`, its boxes",
            w.id
        ));
    }
    for (i, w) in card.weapons.iter().enumerate() {
        if !w.traits.contains(&WeaponTrait::UnderBarrel) {
            continue;
        }
        let above = i.checked_sub(1).map(|j| &card.weapons[j]);
        if above.is_none_or(|m| m.traits.contains(&WeaponTrait::UnderBarrel)) {
            return Err(format!(
                "card {file}: the under-barrel weapon `{}` must come right below its main weapon, a line without `under_barrel` (002 \"Under-Barrel Weapons\": \"fire both the main weapon and the Under-Barrel Weapon\", R674); move the line below the weapon it is fitted to",
                w.id
            ));
        }
    }
    Ok(())
}

/// 002 "Sniper Weapons": "When declaring the target of this weapon's attack, the player may
/// specify a miniature in the Unit" (R675).
pub fn sniper(w: &WeaponLine) -> bool {
    w.traits.contains(&WeaponTrait::Sniper)
}

/// 002 "Spotters": "If a Spotter does not use a weapon, each Sniper weapon in the Unit that makes
/// a Sustained Attack hits on rolls of [target] as well as [army]" (R676): a living model of the
/// unit whose id names "spotter" (R64's convention), none of whose carried lines is `fired`.
pub fn spotter_idle(card: &Card, alive: &[String], fired: &[&str]) -> bool {
    card.models.iter().any(|m| {
        m.id.contains("spotter")
            && alive.contains(&m.id)
            && !m
                .carries
                .iter()
                .any(|c| fired.iter().any(|f| f.eq_ignore_ascii_case(c)))
    })
}
