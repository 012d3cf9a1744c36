//! 000 "Charge" under classic-2010: the charge's attack is made with every range 1 weapon.

use super::*;

/// 000 "Charge": "After this extra movement, the unit must attack with all of its weapons that
/// have range 1, and nothing else." Every range 1 (or C) weapon line of the group must be among
/// the charge's `lines`, except a line with no ammo box left and a line that cannot damage any
/// unit the charge attacks (`-` against its armour): those cannot attack at all (R209).
pub(super) fn check_all_range_1(
    state: &State,
    u: &UnitState,
    lines: &[LineOrder],
) -> Result<(), Refusal> {
    let targets: Vec<&str> = lines
        .iter()
        .filter_map(|l| match &l.target {
            Target::Unit { unit } | Target::Model { unit, .. } => Some(unit.as_str()),
            Target::Square { .. } => None,
        })
        .collect();
    let mut missing: Vec<String> = vec![];
    for (shooter, w) in weapons_of_group(state, &u.id) {
        if !matches!(w.range, WeaponRange::Close | WeaponRange::Upto(1)) {
            continue;
        }
        if lines
            .iter()
            .any(|l| l.shooter == shooter && l.weapon == w.id)
        {
            continue;
        }
        let boxes_left = match w.ammo {
            Some(boxes) => state
                .unit(&shooter)
                .and_then(|s| s.ammo.get(&w.id).copied())
                .unwrap_or(boxes),
            None => 1,
        };
        let can_damage = targets
            .iter()
            .any(|t| armour_of(state, t).is_none_or(|a| w.against(a) != Fire::No));
        if boxes_left > 0 && can_damage && !missing.contains(&w.id) {
            missing.push(w.id.clone());
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    let target = targets.first().copied().unwrap_or("<target>");
    refuse(
        format!(
            "a Charge attacks with all of the unit's range 1 weapons; {} also has {}",
            u.id,
            missing.join(", ")
        ),
        RuleId::Charge2010.with("the unit must attack with all of its weapons that have range 1"),
        format!(
            "add {}",
            missing
                .iter()
                .map(|w| format!("`, {w} at {target}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
    )
}
