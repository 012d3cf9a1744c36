//! 002's "Vehicle Equipment" under battlefront-2013 (issue 18): Air Alert (R663), Half-tracked,
//! Tracked and Wheeled (R664), Medevac (R665), Smoke Launchers (R666), Crew (R668, in close
//! combat R810). The planner's side is `flow/equipment.rs`.

use super::dice::Symbol;
use super::skills002::Skill002;
use crate::dust_tactics::flow::Refusal;
use crate::dust_tactics::model::{Armour, Card, SkillSpec, Terrain, UnitType, WeaponTrait};
use crate::dust_tactics::state::{LineOrder, SmokeToken, State, Target};
use crate::game::{DiceSource, Happening, Outcome, Roll};

/// The citation of 002 "Air Alert" for refusals and reports. The OCR lost its symbols (R663).
pub const AIR_ALERT_RULE: &str = "002 \"Air Alert\": \"A Vehicle with Air Alert equipment can take an Air Alert Special Action. If it does so, select an enemy Aircraft within Line of Sight and roll a die. On a [army] result, any friendly Vehicles performing an Attack or Sustained Attack against that Aircraft hit on rolls of [target] as well as [army] for the remainder of the turn\" (R663)";

/// 002's vehicle equipment built here: a card that is not a vehicle naming one is refused when
/// read (002 "Vehicle Equipment": "A Vehicle with ..."). The error is (field, reason, instead).
pub const VEHICLE_ONLY: &[Skill002] = &[
    Skill002::AirAlert,
    Skill002::Medevac,
    Skill002::SmokeLaunchers,
    Skill002::HalfTracked,
    Skill002::Tracked,
    Skill002::Wheeled,
    Skill002::Crew,
    Skill002::Naval,
    Skill002::Sealifter,
    Skill002::Airmobile,
    Skill002::AirAssault,
];

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

/// The citation of 002 "Medevac" for refusals and reports (R665).
pub const MEDEVAC_RULE: &str = "002 \"Medevac\": \"A Medevac Vehicle can perform a Medevac Special Action. If it does, select an Infantry Unit within Range 1 ... Roll a die for each Soldier eliminated from the Unit. Each [army] rolled returns one of the eliminated Soldiers to the Unit\" (R665)";

/// 002 "Medevac" (R665): the vehicle's dice for the soldiers `target` lost, one back on each
/// army symbol.
pub fn medevac(
    state: &mut State,
    vehicle: &str,
    target: &str,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let ret = super::skills002_d::return_soldiers;
    let Some((faces, back)) = ret(state, target, &[Symbol::Army], dice) else {
        return;
    };
    let models = match back.is_empty() {
        true => String::new(),
        false => format!(" (model {})", back.join(", ")),
    };
    out.happenings.push(Happening {
        rolls: vec![Roll {
            purpose: format!("medevac {target}"),
            round: state.round,
            faces: faces.clone(),
        }],
        ..Happening::text(format!(
            "Medevac (002): {vehicle} rolls {} dice for the eliminated soldiers of {target}: {} army, {} back{models}",
            faces.len(),
            back.len(),
            back.len()
        ))
    });
}

/// The citation of 002 "Smoke Launchers" for refusals and reports (R666).
pub const SMOKE_RULE: &str = "002 \"Smoke Launchers\": \"Once per game, a Vehicle with Smoke Launchers may take Launch Smoke Special Action to place a Smoke Screen on itself. In *Dust Tactics*, the Smoke Screen fills any one square occupied by the Vehicle\" (R666)";

/// 002 "Smoke Launchers" (R666): the vehicle's square is smoke until the end of the next turn
/// (the NCO's smoke tokens, lifted by `flow::nco`), and its once per game is spent.
pub fn launch_smoke(state: &mut State, vehicle: &str, out: &mut Outcome) {
    let round = state.round;
    let Some(at) = state.unit(vehicle).and_then(|u| u.at) else {
        return;
    };
    if let Some(v) = state.unit_mut(vehicle) {
        *v.skills_used
            .entry(Skill002::SmokeLaunchers.id().to_string())
            .or_insert(0) += 1;
    }
    let was = state.scenario.board.terrain(at);
    if was != Terrain::Smoke {
        state.scenario.board.set_terrain(at, Terrain::Smoke);
        state.smoke.push(SmokeToken {
            at,
            was,
            until: round + 1,
        });
    }
    out.happenings.push(Happening::text(format!(
        "Smoke Launchers (002): {vehicle} places a Smoke Screen on {at}; it blocks line of sight through that square until the end of turn {}",
        round + 1
    )));
}

/// The citation of 002 "Crew" for refusals (R668).
pub const CREW_RULE: &str = "002 \"Crew\": \"A Vehicle with Crew may either attack with the vehicle's weapons or with the crew's weapons. If it uses the crew's weapons, it may use one weapon for each point of Damage remaining on its Damage Track\" (R668)";

/// 002 "Crew" (R668) when a card is read: a weapon with the trait `crew` only on a card with the
/// equipment `crew`. The error is (field, reason, instead).
pub fn check_crew_card(card: &Card) -> Result<(), (String, String, String)> {
    let Some(i) = card
        .weapons
        .iter()
        .position(|w| w.traits.contains(&WeaponTrait::Crew))
    else {
        return Ok(());
    };
    if card.has_skill(Skill002::Crew.id()) {
        return Ok(());
    }
    Err((
        format!("weapons[{i}].traits"),
        "the trait `crew` marks a weapon of a vehicle's crew, and this card has not the equipment Crew (002 \"Crew\", R668)".into(),
        "add the skill `crew` to the vehicle's card, or remove the trait".into(),
    ))
}

/// 002 "Crew" (R668) when an attack is planned: a vehicle with Crew fires either its own
/// weapons or its crew's, and at most one crew weapon for each damage point it has left.
pub fn check_crew(state: &State, lines: &[LineOrder]) -> Result<(), Refusal> {
    if !state.rules().battlefront() {
        return Ok(());
    }
    let mut shooters: Vec<&str> = lines.iter().map(|l| l.shooter.as_str()).collect();
    shooters.dedup();
    for id in shooters {
        let Some((u, c)) = state.unit(id).and_then(|u| Some((u, state.card_of(u)?))) else {
            continue;
        };
        if !c.has_skill(Skill002::Crew.id()) {
            continue;
        }
        let crew = |l: &&&LineOrder| {
            c.weapon(&l.weapon)
                .is_some_and(|w| w.traits.contains(&WeaponTrait::Crew))
        };
        let own: Vec<&LineOrder> = lines.iter().filter(|l| l.shooter == id).collect();
        let n = own.iter().filter(crew).count();
        let err = |reason: String, instead: String| {
            Err(Refusal {
                reason,
                rule: CREW_RULE.into(),
                instead,
            })
        };
        if n > 0 && n < own.len() {
            return err(
                format!("{id} fires its own weapons and its crew's in one attack"),
                "fire the vehicle's weapons, or only the crew's".into(),
            );
        }
        if n > u.health as usize {
            return err(
                format!(
                    "{id} has {} damage point(s) left, so its crew fires at most {} weapon(s), not {n}",
                    u.health, u.health
                ),
                format!("fire at most {} of the crew's weapons", u.health),
            );
        }
    }
    Ok(())
}

/// The rules revision from which a vehicle with Crew retaliates with its own lines or its
/// crew's, never both (R810): games made before keep every range C line.
pub const CREW_CLOSE_COMBAT_REVISION: u32 = 10;

/// 002 "Crew" in close combat (R810): "If engaged in Close Combat, the crew may use Standard
/// Weapons ... instead of the Vehicle's normal attack." The Standard Weapons are 003's improvised
/// chart, lost (R275); what stands is the either-or of R668: a vehicle with Crew retaliates with
/// its own range C `lines` that can hurt the attacker, or, having none, with its crew's, at most
/// one for each damage point left. Lines of other shooters (a pilot) are kept.
pub fn crew_retaliation(state: &State, unit: &str, lines: Vec<LineOrder>) -> Vec<LineOrder> {
    if !state.rules().battlefront() || !state.revised(CREW_CLOSE_COMBAT_REVISION) {
        return lines;
    }
    let Some((u, c)) = state.unit(unit).and_then(|u| Some((u, state.card_of(u)?))) else {
        return lines;
    };
    if !c.has_skill(Skill002::Crew.id()) {
        return lines;
    }
    let is_crew = |l: &LineOrder| {
        c.weapon(&l.weapon)
            .is_some_and(|w| w.traits.contains(&WeaponTrait::Crew))
    };
    let (mine, others): (Vec<LineOrder>, Vec<LineOrder>) =
        lines.into_iter().partition(|l| l.shooter == unit);
    let (mut crew, own): (Vec<LineOrder>, Vec<LineOrder>) = mine.into_iter().partition(is_crew);
    let chosen = if own.is_empty() {
        crew.truncate(usize::from(u.health));
        crew
    } else {
        own
    };
    chosen.into_iter().chain(others).collect()
}
