//! Skills as 002 redefines them, under battlefront-2013 (issue 18). Built: the skills of 004's
//! names in [`BUILT`] (first Fast and Damage Resilient (003), Fighting Spirit, Take Aim, Berserk,
//! Tank Head, Charge and Cheat Death (002, R279, R280, R282, R283, R263, R266; Cheat Death and
//! Stunned in `stunned.rs`), then Black Ops, Advanced Reactive Fire, Ace Pilot and the others its
//! comments name) and 002's own skills of `skills002::Skill002::ALL`. A battlefront card
//! naming any other skill is refused at `new` with the skill and the file, never played by
//! 004's wording (R281). Under battlefront-2013 a "2-face" hit (002: "hits on rolls of [target]
//! as well as [army]") is the engine's `reversed` option, read as army or target
//! (`combat::AttackRoll::success`).

use super::super::cards;
use super::super::flow::Refusal;
use super::super::model::{WeaponLine, WeaponRange};
use super::super::skill::Skill;
use super::super::state::State;
use super::dice::Symbol;
use crate::game::{DiceSource, Happening, Outcome, Roll};
use std::collections::BTreeMap;

/// The skills battlefront-2013 plays as 003/002 word them.
pub const BUILT: &[Skill] = &[
    Skill::Fast,
    Skill::DamageResilient,
    Skill::FightingSpirit,
    Skill::TakeAim,
    Skill::Berserk,
    Skill::TankHead,
    Skill::Charge,
    Skill::CheatDeath,
    // 003 "Piloting Vehicles", "Pilot: Hero" (flow/piloting.rs, R260).
    Skill::Pilot,
    // 002 "Black Ops": four dice for initiative (flow/round.rs, R712).
    Skill::BlackOps,
    // 002 "Advanced Reactive Fire": reactions at range 6, target counts as army (R715).
    Skill::AdvancedReactiveFire,
    // 003/002 "Ace Pilot" with 003 "Reacting to Extra Actions" (flow/piloting.rs, R608).
    Skill::AcePilot,
    // 002 "Commissar": on an infantry squad's card, three suppression dice (suppression.rs, R705).
    Skill::Commissar,
    // 002 "Dozer Blade", "Engineer Vehicle": engineering tasks (engineering.rs, R785–R788).
    Skill::DozerBlade,
    Skill::EngineerVehicle,
    // 002 "Command Squads": its specialists' Special Actions (command.rs, R640–R647).
    Skill::CommandSquad,
    // 002 "Vehicle Equipment", "Amphibious": a ground vehicle's, deep water as open (R667).
    Skill::Amphibious,
    // 002 "Passengers (#)", "Carrying Passengers" (flow/passengers.rs, R732–R737).
    Skill::CarryCapacity,
    // 002 "Tank Riders (#)": as Passengers, riders hurt with the vehicle (R740–R742).
    Skill::TankRiders,
    // 002 "Command Vehicle": a radio and re-rolls for its mounted command squad (R653, R654).
    Skill::CommandVehicle,
];

/// The purpose of the dice a Berserk hero's close-combat hits chain (002 "Berserk": "roll
/// another die scoring a further Hit on a roll of [army]. Continue ... until it rolls a miss").
pub const BERSERK_CHAIN: &str = "berserk chain";

/// The skills a `skill` line may declare under battlefront-2013 (003 "Skills": "Declare a skill
/// before rolling any dice it affects"): Fighting Spirit, once per game.
/// Tank Head's Makeshift Repair is a special action (`skill tank-head at <vehicle>`). Charge is
/// declared with `skill charge`: the March Move then the free close-combat Attack (R263).
pub const DECLARED: &[Skill] = &[Skill::FightingSpirit, Skill::TankHead, Skill::Charge];

/// 002 "Charge": "may perform a free Attack Action using Close-Combat Weapons immediately after
/// performing a March Move Action": under battlefront-2013 only range C lines, where 004 also
/// allowed range 1 (R263).
pub fn check_charge_line(state: &State, charge: bool, w: &WeaponLine) -> Result<(), Refusal> {
    if !charge || !state.rules().battlefront() || w.range == WeaponRange::Close {
        return Ok(());
    }
    Err(Refusal {
        reason: format!(
            "a Charge attack uses only close-combat (range C) weapons; {} has range {}",
            w.name, w.range
        ),
        rule: "002 \"Charge\": \"a free Attack Action using Close-Combat Weapons immediately after performing a March Move Action\"".into(),
        instead: "drop that weapon line".into(),
    })
}

/// 002 "Tank Head": "A Hero with the Tank Head Skill may take a Makeshift Repair Action. If they
/// do so, the player selects any Vehicle that is within Line of Sight and Range 1 ... and rolls
/// five dice. Each score of [army] or [target] removes one point of Damage to that Vehicle"
/// (R283). The planner checked the vehicle (friendly, adjacent); not limited per game.
pub fn makeshift_repair(
    state: &mut State,
    hero: &str,
    target: &str,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let full = state
        .unit(target)
        .and_then(|t| state.cards.get(&t.card))
        .map(|c| c.health);
    let round = state.round;
    let (Some(full), Some(t)) = (full, state.unit_mut(target)) else {
        return;
    };
    if t.destroyed {
        return;
    }
    let faces: Vec<u8> = (0..5).map(|_| dice.d6(round)).collect();
    let good = faces
        .iter()
        .filter(|f| matches!(Symbol::of_face(**f), Symbol::Army | Symbol::Target))
        .count() as u8;
    let removed = good.min(full.saturating_sub(t.health));
    t.health += removed;
    let mut h = Happening::text(format!(
        "Tank Head (002 Makeshift Repair): {hero} repairs {target}: 5 dice, {good} army or target, {removed} damage removed"
    ));
    h.rolls = vec![Roll {
        purpose: format!("makeshift repair {target}"),
        round,
        faces,
    }];
    out.happenings.push(h);
}

/// Checks every card of a battlefront-2013 game (file name → text): a skill not in [`BUILT`] is
/// refused, naming it and the file.
pub fn check_cards(card_files: &BTreeMap<String, String>) -> Result<(), String> {
    for (file, text) in card_files {
        let Ok(c) = cards::parse_card(file, text) else {
            continue;
        };
        super::weapons::check_card(file, &c)?;
        // 003's one-square aircraft are built (R800-R802), its two-square Large Aircraft too
        // (`size = "large"`, R773).
        // 004's special weapons (burst, dual ammo, explosives, phaser and volley cells) are not
        // 003's and are not built here (R236); 004's Setup is 003's Set-Up (R822). 002's Artillery weapons (range `A`, 003
        // "Artillery Range (A)") and Reload weapons (`reloadable`) are (R690, R691).
        if let Some((w, what)) = c.weapons.iter().find_map(|w| ffg_only(w).map(|x| (w, x))) {
            return Err(format!(
                "card {file} gives the weapon `{}` {what}, 004's rule: it is {} (R236); remove it from the card or play the ffg-revised ruleset",
                w.id,
                super::NOT_YET
            ));
        }
        // 002 "Tesla Weapons" are built: a hit stuns (stunned.rs, R750).
        for s in &c.skills {
            // 002 "Commissar": part of an infantry unit, for its suppression dice (R705).
            if s.name == Skill::Commissar.id() {
                super::suppression::check_commissar(file, &c)?;
                continue;
            }
            // 002 "Amphibious" is vehicle equipment (R667).
            let ground = c.unit_type == super::super::model::UnitType::Vehicle
                && !matches!(c.armour, super::super::model::Armour::Aircraft(_));
            if s.name == Skill::Amphibious.id() && !ground {
                return Err(format!(
                    "card {file} names the skill `amphibious`, which battlefront-2013 plays as 002's vehicle equipment (\"An Amphibious Vehicle can move through Deep Water as if it were Open Space\", R667), and this card is not a ground vehicle; remove it from the card"
                ));
            }
            if !BUILT.iter().any(|b| b.id() == s.name)
                && super::skills002::Skill002::from_id(&s.name).is_none()
            {
                return Err(format!(
                    "card {file} names the skill `{}`, which is {} (skills as 002 defines them are built one by one: {}; {}); remove it from the card or use the shipped card",
                    s.name,
                    super::NOT_YET,
                    BUILT.iter().map(|b| b.id()).collect::<Vec<_>>().join(", "),
                    super::skills002::unbuilt_note()
                ));
            }
        }
    }
    Ok(())
}

/// What of 004's special weapons weapon line `w` carries, which battlefront-2013 does not build.
fn ffg_only(w: &super::super::model::WeaponLine) -> Option<String> {
    use super::super::model::{Fire, WeaponTrait as T};
    // 003's Set-Up weapons are 004's Setup weapons, built here too (R822).
    let traits = [T::Burst, T::DualAmmo, T::Explosives];
    if let Some(t) = w.traits.iter().find(|t| traits.contains(t)) {
        // The card file's word for it (serde's snake_case name).
        let word = serde_json::to_string(t).unwrap_or_default();
        return Some(format!("the trait `{}`", word.trim_matches('"')));
    }
    let cells = w.soldier.iter().chain(&w.vehicle).chain(&w.aircraft);
    cells.into_iter().find_map(|f| match f {
        Fire::Phaser { .. } => Some("a phaser cell (`XxY`)".into()),
        Fire::Volley { .. } => Some("a volley cell (`A/X-B/X`)".into()),
        _ => None,
    })
}
