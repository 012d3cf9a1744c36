//! 002 "Sealifter" under battlefront-2013 (issue 18, R776–R779): "Sealifters are Naval Units
//! that are equipped to carry Vehicles in an amphibious assault." Twelve spaces; infantry and
//! vehicles mount by moving into it (002's Passengers machinery, `passengers.rs` and
//! `carry.rs`, carries them: a carried unit activates on its own and dismounts with a first
//! Move out of it before the Sealifter activates); what differs is here: a vehicle's spaces, no
//! weapons while carried, and the fate of the carried when it is eliminated.

use super::*;
use crate::dust_tactics::battlefront::naval::{self, SEALIFTER};

/// Whether the Sealifter is played: battlefront-2013 (a card naming it was refused before).
pub(super) fn played(state: &State) -> bool {
    state.rules().battlefront()
}

/// Whether unit `id` is a Sealifter.
pub(super) fn is_sealifter(state: &State, id: &str) -> bool {
    naval::is_sealifter(state, id)
}

/// `move … ` of vehicle `id` into `sealifter`: "A Sealifter cannot carry Huge Vehicles" (an
/// aircraft neither: it is carried by an Airlifter only), and a vehicle carrying units does not
/// ride in another (R776, R476). The spaces are counted by the boarding.
pub(super) fn check_board(state: &State, id: &str, sealifter: &str) -> Result<(), Refusal> {
    let c = state.unit(id).and_then(|u| card(state, u));
    if c.is_some_and(|c| naval::vehicle_spaces(c).is_none()) {
        return Err(Refusal {
            reason: format!("{id} is a Huge vehicle or an aircraft: {sealifter} cannot carry it"),
            rule: format!(
                "{SEALIFTER}: \"Most Vehicles occupy 6 spaces, while Large Vehicles occupy all twelve spaces. A Sealifter cannot carry Huge Vehicles\" (R776)"
            ),
            instead: "move <square> …: it stays ashore".into(),
        });
    }
    if !super::carry::carrying(state, id).is_empty() {
        return refuse(
            format!("{id} carries units: it cannot mount {sealifter} with them"),
            RuleId::CarryCapacityVehicle,
            format!("let the units inside {id} dismount first"),
        );
    }
    Ok(())
}

/// "A Unit carried by a Sealifter cannot be targeted by an attack, and cannot use its weapons"
/// (R778): an attack planned while unit `id` is carried in Sealifter `v` (or after mounting it).
pub(super) fn check_fire(id: &str, state: &State, v: &str) -> Result<(), Refusal> {
    if !is_sealifter(state, v) {
        return Ok(());
    }
    Err(Refusal {
        reason: format!("{id} is carried in the Sealifter {v}: it cannot use its weapons"),
        rule: format!("{SEALIFTER}: \"A Unit carried by a Sealifter cannot be targeted by an attack, and cannot use its weapons\" (R778)"),
        instead: format!("dismount first (a `move` out of {v} as the first line, before {v} activates), or `nothing`"),
    })
}

/// The units a scenario begins aboard a Sealifter: twelve spaces (soldiers as Passengers, a
/// vehicle 6, a Large one 12), never a Huge vehicle nor an aircraft (R776).
pub(super) fn check_setup(
    units: &[UnitState],
    cards: &BTreeMap<String, Card>,
) -> Result<(), SetupError> {
    for v in units {
        if !cards.get(&v.card).is_some_and(naval::sealifter_card) {
            continue;
        }
        let mut load = 0;
        for u in units.iter().filter(|u| u.aboard.as_deref() == Some(&v.id)) {
            let Some(c) = cards.get(&u.card) else {
                continue;
            };
            if c.unit_type == UnitType::Vehicle && naval::vehicle_spaces(c).is_none() {
                return Err(SetupError(format!(
                    "unit {} cannot begin aboard {}: a Sealifter carries no Huge vehicle or aircraft ({SEALIFTER}, R776)",
                    u.id, v.id
                )));
            }
            load += super::carry::unit_places(u, c);
        }
        if load > naval::SEALIFTER_SPACES {
            return Err(SetupError(format!(
                "{} carries {load} spaces at the start, more than a Sealifter's {}: soldiers of Infantry Armour 3 or 4 take two, a vehicle 6, a Large vehicle 12 ({SEALIFTER}, R776)",
                v.id,
                naval::SEALIFTER_SPACES
            )));
        }
    }
    Ok(())
}

/// 002 "If a Sealifter is eliminated in Deep Water, all Passengers and Vehicles carried by it
/// are eliminated. If it is eliminated with the bow door in contact with dry land, the
/// Passengers and Vehicles it is carrying are unharmed and may dismount as normal." (R779) For
/// `rider` (a carried unit's leader, on the wreck's square since `carry::mark_wreck`): `false`
/// when its vehicle was no Sealifter; else it is placed unharmed on the bow door's square (or
/// the nearest it may stand on), or eliminated with its joined hero.
pub(super) fn survive(state: &mut State, rider: &str, out: &mut Outcome) -> bool {
    let Some(u) = state.unit(rider).cloned() else {
        return false;
    };
    let Some(v) = u.aboard.clone().filter(|v| is_sealifter(state, v)) else {
        return false;
    };
    let by = super::carry::destroyed_by(state, &v);
    let members = group(state, rider);
    let door = u.at.and_then(|wreck| naval::door_on_land(state, &v, wreck));
    let at = door.and_then(|d| super::carry::free_square(state, rider, d));
    let Some((door, at)) = door.zip(at) else {
        say(
            out,
            format!("{v} is eliminated in deep water with {rider} carried: {rider} is eliminated with it ({SEALIFTER}: \"If a Sealifter is eliminated in Deep Water, all Passengers and Vehicles carried by it are eliminated\", R779)"),
        );
        for m in &members {
            destroy(state, m, &by, out);
        }
        return true;
    };
    for m in &members {
        if let Some(x) = state.unit_mut(m) {
            x.aboard = None;
            x.at = Some(at);
        }
    }
    let text = format!(
        "{v} is eliminated with its bow door on dry land ({door}): {rider} is unharmed and dismounts onto {at} ({SEALIFTER}, R779)"
    );
    tell(
        out,
        text,
        DtEvent::Entered {
            unit: rider.to_string(),
            to: at,
        },
        vec![],
    );
    true
}
