//! 002's "Vehicle Equipment" under battlefront-2013 (issue 18): Air Alert (R663). The planner's
//! side is `flow/equipment.rs`.

use super::dice::Symbol;
use super::skills002::Skill002;
use crate::dust_tactics::model::{Armour, Card, SkillSpec, UnitType};
use crate::dust_tactics::state::{State, Target};
use crate::game::{DiceSource, Happening, Outcome, Roll};

/// The citation of 002 "Air Alert" for refusals and reports. The OCR lost its symbols (R663).
pub const AIR_ALERT_RULE: &str = "002 \"Air Alert\": \"A Vehicle with Air Alert equipment can take an Air Alert Special Action. If it does so, select an enemy Aircraft within Line of Sight and roll a die. On a [army] result, any friendly Vehicles performing an Attack or Sustained Attack against that Aircraft hit on rolls of [target] as well as [army] for the remainder of the turn\" (R663)";

/// 002's vehicle equipment built here: a card that is not a vehicle naming one is refused when
/// read (002 "Vehicle Equipment": "A Vehicle with ..."). The error is (field, reason, instead).
pub const VEHICLE_ONLY: &[Skill002] = &[Skill002::AirAlert];

/// A card's skill `s` against [`VEHICLE_ONLY`]: only a ground vehicle's card carries it.
pub fn check_card(card: &Card, s: &SkillSpec) -> Result<(), (&'static str, String, String)> {
    let Some(k) = VEHICLE_ONLY.iter().find(|k| k.id() == s.name) else {
        return Ok(());
    };
    let ground_vehicle =
        card.unit_type == UnitType::Vehicle && !matches!(card.armour, Armour::Aircraft(_));
    if ground_vehicle {
        return Ok(());
    }
    let t = k.title();
    Err((
        "name",
        format!("002 lists {t} under \"Vehicle Equipment\" (\"A Vehicle with {t} ...\"); this card is not a ground vehicle"),
        "remove the skill, or give it to a vehicle's card".into(),
    ))
}

/// Whether unit `id` is a ground vehicle (a vehicle card without aircraft armour).
pub fn ground_vehicle(state: &State, id: &str) -> bool {
    state
        .unit(id)
        .and_then(|u| state.card_of(u))
        .is_some_and(|c| {
            c.unit_type == UnitType::Vehicle && !matches!(c.armour, Armour::Aircraft(_))
        })
}

/// 002 "Air Alert" (R663): the vehicle `vehicle`'s die against the enemy aircraft `target`; on
/// army the aircraft is alerted for `vehicle`'s side until the end of the turn.
pub fn air_alert(
    state: &mut State,
    vehicle: &str,
    target: &str,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let round = state.round;
    let Some(side) = state.unit(vehicle).map(|u| u.side.clone()) else {
        return;
    };
    let face = dice.d6(round);
    let symbol = Symbol::of_face(face);
    let on = symbol == Symbol::Army;
    if on {
        if let Some(t) = state.unit_mut(target) {
            t.air_alert = Some((side.clone(), round));
        }
    }
    let then = if on {
        format!("army: {side}'s vehicles hit {target} on army or target for the rest of the turn")
    } else {
        "no army symbol: no effect".to_string()
    };
    out.happenings.push(Happening {
        rolls: vec![Roll {
            purpose: format!("air alert {target}"),
            round,
            faces: vec![face],
        }],
        ..Happening::text(format!(
            "Air Alert (002): {vehicle} rolls {} against the aircraft {target}: {then}",
            symbol.name()
        ))
    });
}

/// 002 "Air Alert" (R663): whether the line of `shooter` at `target` hits on army or target: a
/// ground vehicle of the side that alerted the target aircraft this turn.
pub fn alerted(state: &State, shooter: &str, target: &Target) -> bool {
    let (Target::Unit { unit } | Target::Model { unit, .. }) = target else {
        return false;
    };
    let Some(side) = state.unit(shooter).map(|u| u.side.as_str()) else {
        return false;
    };
    state.rules().battlefront()
        && ground_vehicle(state, shooter)
        && state
            .unit(unit)
            .and_then(|t| t.air_alert.as_ref())
            .is_some_and(|(s, r)| s == side && *r == state.round)
}
