//! 002's skills built in session 8 (issue 18, fourth batch), under battlefront-2013 only (R581):
//! Lucky (R760), Infantry Ace (R761), Camouflage (R762), Blutkreuz (R763), Resurrection (R764). The planner's side is `flow/skills002_d.rs`.

use super::skills002::Skill002;
use crate::dust_tactics::geometry::{self, Occupancy, Sighter};
use crate::dust_tactics::model::{Cover, Square, UnitType};
use crate::dust_tactics::state::{ActFlags, State, Step};
use crate::game::{DiceSource, Happening, Outcome, Roll};

/// The purpose of the dice Lucky re-rolls (`dice::RollKind::of_purpose` reads it as a to-hit
/// roll).
pub const LUCKY_REROLL: &str = "lucky re-roll";

/// The 002 skills a `skill <name>` line declares (003 "Skills": "Declare a skill before rolling
/// any dice it affects"), without taking an action.
pub const DECLARED: &[Skill002] = &[Skill002::Lucky];

/// The 002 skill a `skill` line names, if it is one a line declares.
pub fn declares(name: &str) -> Option<Skill002> {
    DECLARED
        .iter()
        .copied()
        .find(|s| s.id().eq_ignore_ascii_case(name))
}

/// The 002 skills a `skill <name>` line takes as a Special Action (one action).
/// `skill spy at <square>` is an unplaced Spy's placing roll, not an action (R765; `flow::spy`).
pub const ACTIONS: &[Skill002] = &[
    Skill002::Camouflage,
    Skill002::Resurrection,
    Skill002::Spy,
    Skill002::AirAlert,
    Skill002::Medevac,
    Skill002::SmokeLaunchers,
];

/// The 002 skill a `skill` line names under battlefront-2013, declared or an action.
pub fn of_line(name: &str) -> Option<Skill002> {
    declares(name).or_else(|| {
        ACTIONS
            .iter()
            .copied()
            .find(|s| s.id().eq_ignore_ascii_case(name))
    })
}

/// Whether unit `id` is a hero whose own card carries `skill`.
fn hero_with(state: &State, id: &str, skill: Skill002) -> bool {
    state
        .unit(id)
        .and_then(|u| state.card_of(u))
        .is_some_and(|c| c.unit_type == UnitType::Hero && c.has_skill(skill.id()))
}

/// The hero of the activating group of `id` (the unit itself, or the hero that joined it) whose
/// own card carries `skill` (002: "A Hero with the ... Skill").
pub fn hero_of_group(state: &State, id: &str, skill: Skill002) -> Option<String> {
    if hero_with(state, id, skill) {
        return Some(id.to_string());
    }
    state
        .hero_of(id)
        .map(|h| h.id.clone())
        .filter(|h| hero_with(state, h, skill))
}

/// Whether the hero `hero` has used Lucky already ("Once per game").
pub fn lucky_spent(state: &State, hero: &str) -> bool {
    state.unit(hero).is_some_and(|u| {
        u.skills_used
            .get(Skill002::Lucky.id())
            .copied()
            .unwrap_or(0)
            > 0
    })
}

/// 002 "Lucky" (R760): whether `shooter`'s line re-rolls its misses: Lucky declared in the
/// activation (`flags`), and the line the hero's own ("A Hero with the Lucky Skill does not
/// share it with any Unit they Join").
pub fn lucky_line(state: &State, flags: &ActFlags, is_active: bool, shooter: &str) -> bool {
    is_active && flags.lucky && hero_with(state, shooter, Skill002::Lucky)
}

/// Counts the declared uses of the activation of `id` as it is committed (once per game).
pub fn commit(state: &mut State, id: &str, flags: &ActFlags) {
    if !flags.lucky {
        return;
    }
    if let Some(h) = hero_of_group(state, id, Skill002::Lucky) {
        if let Some(x) = state.unit_mut(&h) {
            *x.skills_used
                .entry(Skill002::Lucky.id().to_string())
                .or_insert(0) += 1;
        }
    }
}

/// 002 "Infantry Ace" (R761): the hero of the activating group of `id` with the skill, who
/// rolls the die for a third action as the group activates (the Ace Pilot's die, `ace.rs`).
pub fn infantry_ace(state: &State, id: &str) -> Option<String> {
    if !state.rules().battlefront() {
        return None;
    }
    hero_of_group(state, id, Skill002::InfantryAce)
}

/// The skill whose die `act_unit` rolls as it activates: "Ace Air Pilot" for an aircraft whose
/// pilot has it, "Ace Pilot" for another piloted vehicle, "Infantry Ace" otherwise (R608, R761,
/// R805).
pub fn ace_title(state: &State, act_unit: &str) -> &'static str {
    let pilot = state.pilot_of(act_unit);
    let card = |id: &str| state.unit(id).and_then(|u| state.card_of(u));
    let aircraft = card(act_unit)
        .is_some_and(|c| matches!(c.armour, crate::dust_tactics::model::Armour::Aircraft(_)));
    let ace_air = |c: &crate::dust_tactics::model::Card| {
        Skill002::AceAirPilot.of(c) && !c.has(crate::dust_tactics::skill::Skill::AcePilot)
    };
    if aircraft && pilot.and_then(|h| state.card_of(h)).is_some_and(ace_air) {
        Skill002::AceAirPilot.title()
    } else if pilot.is_some() {
        "Ace Pilot"
    } else {
        Skill002::InfantryAce.title()
    }
}

/// The citation of 002 "Camouflage" for refusals and reports.
pub const CAMOUFLAGE_RULE: &str = "002 \"Camouflage\": \"no enemy Unit has Line of Sight to it if it is in Cover ... from them and at Range 3 ... or more\" (R762)";

/// Whether unit `id`'s own card carries 002's Camouflage (battlefront-2013).
fn has_camouflage(state: &State, id: &str) -> bool {
    state.rules().battlefront()
        && state
            .unit(id)
            .and_then(|u| state.card_of(u))
            .is_some_and(|c| c.has_skill(Skill002::Camouflage.id()))
}

/// 002 "Camouflage" (R762): whether the unit `id` (a target: the squad with the heroes joined
/// to it) is Camouflaged: every member has the skill on its own card ("does not share it with
/// any Unit they Join nor with Heroes that Join this Unit": a member without it is seen, and
/// the unit with it) and none has taken an action but Move or Nothing since its last
/// Camouflage (it "starts the game Camouflaged").
pub fn camouflaged(state: &State, id: &str) -> bool {
    let on =
        |uid: &str| has_camouflage(state, uid) && state.unit(uid).is_some_and(|u| !u.uncamouflaged);
    on(id) && state.joined_of(id).iter().all(|h| on(&h.id))
}

/// 002 "Camouflage" (R762): whether the camouflaged unit `target` on `to` is hidden from the
/// enemy on `from` seeing as `shooter`: in Cover from it (003 "Cover Saves", `sight::cover`)
/// and at Range 3 or more.
pub fn hidden(
    state: &State,
    occ: &Occupancy,
    shooter: Sighter,
    target: Sighter,
    target_id: &str,
) -> bool {
    camouflaged(state, target_id)
        && geometry::distance(shooter.square, target.square) >= 3
        && super::sight::cover(
            &state.scenario.board,
            occ,
            &super::strongpoints::all(state),
            shooter,
            target,
        ) != Cover::None
}

/// The sighter of unit `id` standing on `at`.
pub fn sighter(state: &State, id: &str, at: Square) -> Sighter {
    let unit_type = state
        .unit(id)
        .and_then(|u| state.card_of(u))
        .map(|c| c.unit_type)
        .unwrap_or(UnitType::Squad);
    Sighter {
        square: at,
        unit_type,
    }
}

/// Ends the Camouflage of the units that take `step` in the activation of `lead`: any action
/// but a Move or Nothing (R762). An attack is the shooters' (a reaction is inserted into the
/// mover's activation); the other actions are the activating group's.
pub fn uncamouflage(state: &mut State, lead: &str, step: &Step) {
    if !state.rules().battlefront() {
        return;
    }
    let units: Vec<String> = match step {
        Step::Attack { lines, .. } => lines.iter().map(|l| l.shooter.clone()).collect(),
        Step::TankHead { .. }
        | Step::Command { .. }
        | Step::Strike { .. }
        | Step::Observed { .. }
        | Step::SmokeScreen { .. }
        | Step::Reload { .. }
        | Step::DestroyBunker { .. }
        | Step::ClearMines { .. }
        | Step::Salvage { .. }
        | Step::Resurrection { .. } => {
            let mut g = vec![lead.to_string()];
            g.extend(state.joined_of(lead).iter().map(|u| u.id.clone()));
            g
        }
        _ => return,
    };
    for id in units {
        if has_camouflage(state, &id) {
            if let Some(x) = state.unit_mut(&id) {
                x.uncamouflaged = true;
            }
        }
    }
}

/// 002 "Camouflage": the Special Action Camouflages the members of `lead`'s group that have
/// the skill (R762).
pub fn camouflage(state: &mut State, lead: &str, out: &mut Outcome) {
    let mut g = vec![lead.to_string()];
    g.extend(state.joined_of(lead).iter().map(|u| u.id.clone()));
    for id in &g {
        if has_camouflage(state, id) {
            if let Some(x) = state.unit_mut(id) {
                x.uncamouflaged = false;
            }
        }
    }
    let note = if camouflaged(state, lead) {
        "enemies at range 3 or more that see it in cover have no line of sight to it"
    } else {
        "but a member without the skill is not, so the unit is seen as usual"
    };
    out.happenings.push(Happening::text(format!(
        "{lead} is Camouflaged (002 \"Camouflage\"): {note}"
    )));
}

/// 002 "Blutkreuz" (R763): the friendly hero carrying the Blutkreuz on his own card within
/// Range 1 of the Mindless Zombie unit `id` as it activates, if any. A Mindless Zombie unit with
/// a hero joined to it keeps its own ratings (only Zombie heroes join it, R601).
pub fn blutkreuz_leader(state: &State, id: &str) -> Option<String> {
    if !state.rules().battlefront() || !state.joined_of(id).is_empty() {
        return None;
    }
    let u = state.unit(id)?;
    let at = u.at?;
    if !state.card_of(u)?.has_skill(Skill002::MindlessZombie.id()) {
        return None;
    }
    state
        .units
        .iter()
        .find(|h| {
            h.side == u.side
                && !h.destroyed
                && h.id != u.id
                && h.at.is_some_and(|a| geometry::distance(a, at) <= 1)
                && hero_with(state, &h.id, Skill002::Blutkreuz)
        })
        .map(|h| h.id.clone())
}

/// 002 "Blutkreuz" (R763): the Move (3) and March Move (4) of a unit it leads (the engine's
/// March Move is two `move` lines, the second continuing the first up to twice the Movement
/// from the start, R200).
pub const BLUTKREUZ_MOVE: u32 = 3;
pub const BLUTKREUZ_MARCH: u32 = 4;

/// 002 "Resurrection" (R764): "Roll a die for each Zombie Soldier eliminated from the Unit.
/// Each [army] or [target] rolled returns one of the eliminated Zombie Soldiers to the Unit":
/// the first missing soldiers in the card's order come back.
pub fn resurrection(
    state: &mut State,
    hero: &str,
    target: &str,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let two = [super::dice::Symbol::Army, super::dice::Symbol::Target];
    let Some((faces, back)) = return_soldiers(state, target, &two, dice) else {
        return;
    };
    let raised = back.len();
    let mut h = Happening::text(format!(
        "Resurrection (002): {hero} rolls {} dice for the eliminated soldiers of {target}: {raised} army or target, {} back{}",
        faces.len(),
        back.len(),
        if back.is_empty() { String::new() } else { format!(" (model {})", back.join(", ")) }
    ));
    h.rolls = vec![Roll {
        purpose: format!("resurrection {target}"),
        round: state.round,
        faces,
    }];
    out.happenings.push(h);
}

/// A die for each soldier eliminated from the squad `target`; each showing one of `success`
/// returns one, the first missing in the card's order (002 "Resurrection", "Medevac"). The dice
/// and the models back; `None` when `target` is gone.
pub fn return_soldiers(
    state: &mut State,
    target: &str,
    success: &[super::dice::Symbol],
    dice: &mut dyn DiceSource,
) -> Option<(Vec<u8>, Vec<String>)> {
    let round = state.round;
    let t = state.unit(target).filter(|t| !t.destroyed)?;
    let c = state.card_of(t)?;
    let all: Vec<String> = if c.models.is_empty() {
        (1..=c.health).map(|i| i.to_string()).collect()
    } else {
        c.models.iter().map(|m| m.id.clone()).collect()
    };
    let gone: Vec<String> = all
        .iter()
        .filter(|m| !t.models.iter().any(|x| x.eq_ignore_ascii_case(m)))
        .cloned()
        .collect();
    let faces: Vec<u8> = (0..gone.len()).map(|_| dice.d6(round)).collect();
    let raised = faces
        .iter()
        .filter(|f| success.contains(&super::dice::Symbol::of_face(**f)))
        .count();
    let back: Vec<String> = gone.into_iter().take(raised).collect();
    if let Some(x) = state.unit_mut(target) {
        x.models = all
            .iter()
            .filter(|m| back.contains(m) || x.models.iter().any(|y| y.eq_ignore_ascii_case(m)))
            .cloned()
            .collect();
        x.health = x.models.len().min(u8::MAX as usize) as u8;
    }
    Some((faces, back))
}
