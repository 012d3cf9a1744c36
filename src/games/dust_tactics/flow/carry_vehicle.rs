//! 004 "Carry Capacity: Vehicle" (R476): "This skill is exactly like the Carry Capacity skill,
//! except that the vehicle with it can carry other vehicles of the noted armor value or lower. A
//! vehicle with this skill listed several times can carry 1 vehicle for each skill listed.
//! Aircraft (armor class 4+) can only carry vehicles that have the Air Lift skill." (that
//! sentence: flow/air_lift.rs, R546)
//!
//! A carried vehicle boards, rides, exits and survives a wreck by Carry Capacity's machinery
//! (flow/carry.rs); here are who may board whom and the room a carrier has.

use super::*;

const RULE: RuleId = RuleId::CarryCapacityVehicle;

/// The armour values of a card's Carry Capacity: Vehicle listings, smallest first: one carried
/// vehicle each, of that armour or lower.
pub(super) fn slots(c: &Card) -> Vec<u8> {
    let mut v: Vec<u8> = c
        .skills
        .iter()
        .filter(|s| s.name == Skill::CarryCapacityVehicle.id())
        .map(|s| s.value.unwrap_or(0))
        .collect();
    // 002's Airlifter carries one vehicle, of any armour (R745).
    if super::airlifter::is_airlifter(c) {
        v.push(u8::MAX);
    }
    v.sort_unstable();
    v
}

/// A vehicle card's armour value when it is a ground vehicle (aircraft are not carried).
fn ground_armour(c: &Card) -> Option<u8> {
    match (c.unit_type, c.armour) {
        (UnitType::Vehicle, model::Armour::Vehicle(a)) => Some(a),
        _ => None,
    }
}

/// Whether vehicles of armour `armours` fit the listings `slots` (both any order): each takes a
/// listing of its armour or more, the lightest vehicle the smallest listing it fits.
fn fits(slots: &[u8], armours: &[u8]) -> bool {
    let mut free: Vec<u8> = slots.to_vec();
    free.sort_unstable();
    let mut need: Vec<u8> = armours.to_vec();
    need.sort_unstable();
    need.into_iter()
        .all(|a| match free.iter().position(|s| *s >= a) {
            Some(i) => {
                free.remove(i);
                true
            }
            None => false,
        })
}

/// The words of the skill a refusal cites, but for Air Lift's (R546).
const LISTINGS: &str =
    "the vehicle with it can carry other vehicles of the noted armor value or lower";

/// Why vehicle card `vc` (unit `id`) may not ride in `carrier` (card `cc`) with vehicles of
/// armour `aboard` already inside, with the sentence it breaks, or `None` when it may.
fn why_not(
    id: &str,
    vc: &Card,
    carrier: &str,
    cc: &Card,
    aboard: &[u8],
) -> Option<(String, &'static str)> {
    let s = slots(cc);
    if s.is_empty() {
        return Some((format!(
            "{id} is a vehicle and {carrier} has no Carry Capacity: Vehicle: a vehicle can only carry soldiers and heroes"
        ), LISTINGS));
    }
    let Some(a) = ground_armour(vc) else {
        return Some((
            format!("{id} is an aircraft: only vehicles are carried"),
            LISTINGS,
        ));
    };
    // 002: an Airlifter carries only Airmobile or Air Assault vehicles (R745); 004: another
    // aircraft only vehicles with Air Lift (R546).
    if super::airlifter::is_airlifter(cc) {
        if let Some(why) = super::airlifter::why_not(id, vc, carrier, cc) {
            return Some((why, super::airlifter::CARRIES));
        }
    } else if let Some(why) = super::air_lift::why_not(id, vc, carrier, cc) {
        return Some((why, super::air_lift::SENTENCE));
    }
    let mut all = aboard.to_vec();
    all.push(a);
    (!fits(&s, &all)).then(|| {
        if super::airlifter::is_airlifter(cc) {
            let why = format!("{carrier} is an Airlifter and already carries a vehicle: it carries one");
            return (why, super::airlifter::CARRIES);
        }
        let why = format!(
            "{id} (armour {a}) does not fit in {carrier}: it carries {} vehicle(s), one for each listing, of armour {} or lower",
            s.len(),
            s.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
        );
        (why, LISTINGS)
    })
}

/// The armour values of the vehicles inside `carrier` now.
fn aboard(state: &State, carrier: &str) -> Vec<u8> {
    super::carry::carrying(state, carrier)
        .iter()
        .filter_map(|id| state.unit(id).and_then(|u| card(state, u)))
        .filter_map(ground_armour)
        .collect()
}

/// Why Airlifter `carrier` may not pick up vehicle `id` (R745, R748), or `None` when it may.
pub(super) fn why_not_lift(state: &State, id: &str, carrier: &str) -> Option<String> {
    let (u, v) = (state.unit(id)?, state.unit(carrier)?);
    let (vc, cc) = (card(state, u)?, card(state, v)?);
    why_not(id, vc, carrier, cc, &aboard(state, carrier)).map(|(why, _)| why)
}

/// Whether unit `id` is a vehicle (which Carry Capacity's soldier places do not count).
pub(super) fn is_vehicle(state: &State, id: &str) -> bool {
    unit_type(state, id) == UnitType::Vehicle
}

/// Checks vehicle `id` boarding `carrier` (R476); a vehicle carrying units does not board.
pub(super) fn check_board(state: &State, id: &str, carrier: &str) -> Result<(), Refusal> {
    let instead = "move <square> …, or board a vehicle with Carry Capacity: Vehicle";
    let (Some(u), Some(v)) = (state.unit(id), state.unit(carrier)) else {
        return Ok(()); // the boarding's own checks name a missing vehicle
    };
    let (Some(vc), Some(cc)) = (card(state, u), card(state, v)) else {
        return Ok(());
    };
    // 002: the Airlifter picks a vehicle up; it does not board (R745).
    super::airlifter::check_board(state, id, carrier)?;
    if let Some((why, quote)) = why_not(id, vc, carrier, cc, &aboard(state, carrier)) {
        return refuse(why, RULE.with(quote), instead);
    }
    if !super::carry::carrying(state, id).is_empty() {
        return refuse(
            format!("{id} carries units: it cannot board {carrier} with them"),
            RULE,
            format!("let the units inside {id} exit first"),
        );
    }
    Ok(())
}

/// Checks the vehicles a scenario puts inside vehicles at the start (R476): `aboard` names a
/// carrier whose listings hold them all.
pub(super) fn check_setup(
    units: &[UnitState],
    cards: &BTreeMap<String, Card>,
) -> Result<(), SetupError> {
    super::sealifter::check_setup(units, cards)?; // 002 "Sealifter" (R776)
    for v in units {
        let Some(cc) = cards.get(&v.card) else {
            continue;
        };
        if crate::dust_tactics::battlefront::naval::sealifter_card(cc) {
            continue;
        }
        let mut inside: Vec<u8> = vec![];
        for u in units.iter().filter(|u| u.aboard.as_deref() == Some(&v.id)) {
            let Some(vc) = cards
                .get(&u.card)
                .filter(|c| c.unit_type == UnitType::Vehicle)
            else {
                continue;
            };
            if let Some((why, _)) = why_not(&u.id, vc, &v.id, cc, &inside) {
                let source = match super::airlifter::is_airlifter(cc) {
                    true => "002 'Carrying Vehicles', 'Airlifter'", // R745
                    false => "004 'Carry Capacity: Vehicle'",
                };
                return Err(SetupError(format!(
                    "unit {} cannot begin aboard {}: {why} ({source})",
                    u.id, v.id
                )));
            }
            inside.extend(ground_armour(vc));
        }
    }
    // A vehicle carrying units does not ride in another (R476).
    let is_vehicle = |u: &UnitState| {
        cards
            .get(&u.card)
            .is_some_and(|k| k.unit_type == UnitType::Vehicle)
    };
    for u in units.iter().filter(|u| u.aboard.is_some() && is_vehicle(u)) {
        if units.iter().any(|x| x.aboard.as_deref() == Some(&u.id)) {
            return Err(SetupError(format!(
                "{} begins aboard {} carrying units itself: a vehicle carrying units does not ride in another (004 'Carry Capacity: Vehicle')",
                u.id,
                u.aboard.as_deref().unwrap_or_default()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::fits;

    #[test]
    fn each_vehicle_takes_one_listing_of_its_armour_or_more() {
        assert!(fits(&[3], &[3]));
        assert!(fits(&[3], &[1]));
        assert!(!fits(&[2], &[3]));
        assert!(!fits(&[3], &[1, 1]));
        assert!(fits(&[2, 4], &[4, 2]));
        assert!(fits(&[4, 2], &[1, 3]));
        assert!(!fits(&[2, 2], &[1, 3]));
    }
}
