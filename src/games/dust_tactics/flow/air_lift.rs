//! 004 "Carry Capacity: Vehicle" (R546): "Aircraft (armor class 4+) can only carry vehicles that
//! have the Air Lift skill." An aircraft with Carry Capacity: Vehicle carries a vehicle by its
//! listings as any carrier does (flow/carry_vehicle.rs, R476), and only one whose card lists
//! Air Lift. Air Lift itself does nothing else: a ground carrier takes such a vehicle as any.

use super::*;

/// The sentence refusals cite.
pub(super) const SENTENCE: &str =
    "Aircraft (armor class 4+) can only carry vehicles that have the Air Lift skill";

/// Why vehicle card `vc` (unit `id`) may not ride in `carrier` (card `cc`) for want of Air
/// Lift, or `None` when the carrier is no aircraft or the vehicle has the skill.
pub(super) fn why_not(id: &str, vc: &Card, carrier: &str, cc: &Card) -> Option<String> {
    let aircraft = matches!(cc.armour, model::Armour::Aircraft(_));
    (aircraft && !vc.has(Skill::AirLift)).then(|| {
        format!(
            "{carrier} is an aircraft: it can only carry vehicles that have the Air Lift skill, and {id} has not"
        )
    })
}
