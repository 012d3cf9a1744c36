//! The Dust Tactics state machine (ruleset `ffg-revised`: 004, with 000 where 004 is silent):
//! initiative, alternating activations, attacks applied, reactive fire, close combat, heroes and
//! skills. Every command is validated in full before any die is rolled, so a refused command
//! leaves the state untouched. Rulings R50–R79 are in docs/rulings.md, R100–R129 (decisions,
//! standing orders and their defaults) in docs/rulings.md.
//!
//! One file per rulebook section: `setup` (the initial state), `round` (initiative, alternating
//! activations, end of round), `activation` (a declared activation planned), `movement`,
//! `skills`, `attack` (weapon lines planned and resolved), `steps` (an activation run step by
//! step), `casualties`, `reactive_fire`, `retaliation` (close combat), `standing` (standing
//! orders, concession, draws), `victory` (points and the end of the game) and `awaiting`
//! (decisions awaited and defaults). This file holds the command dispatch and shared helpers.

use super::citation::{Citation, RuleId};
use super::combat::{self, FireOptions, TargetProfile};
use super::event::DtEvent;
use super::geometry::{self, Mover, Occupancy, Occupant, Sight, Sighter};
use super::model;
use super::model::{
    Card, Cover, Fire, Save, Square, UnitType, WeaponLine, WeaponRange, WeaponTrait,
};
use super::orders::{Action, Command, FireOrder, StandingReaction, TargetRef};
use super::rules::Rules;
use super::scenario::{Objective, Scenario};
use super::skill::Skill;
use super::state::*;
use crate::game::{CommandOutcome, DiceSource, GameResult, Happening, Outcome, Roll, SetupError};
use std::collections::BTreeMap;

mod activation;
mod air_lift;
mod aircraft;
mod airlifter;
mod artillery;
mod artillery002;
mod attack;
mod attack_skills;
mod awaiting;
mod carried;
mod carry;
mod carry_vehicle;
mod casualties;
mod charge_2010;
mod command;
// issue 18: 002's engineering vehicles (bffort, R785–R788).
mod engineering_vehicle;
// issue 18: 002's command squads (bfcmd, R640–R649).
mod command002;
mod equipment;
mod first_strike;
mod floors;
mod floors_fire;
mod fortify;
mod joining;
mod large;
mod large_react;
mod mines;
mod movement;
mod named;
mod nco;
mod passengers;
mod piloting;
mod placing;
mod reactive_fire;
mod retaliation;
mod riders;
mod round;
mod sealifter;
mod setup;
mod skills;
mod skills002_d;
pub(crate) mod soldier_weapons;
mod special_weapons;
pub mod spy;
mod standing;
mod steps;
mod stimulant;
mod strike_weapons;
pub mod structures;
mod tesla;
mod travel;
mod trees;
mod underground;
mod victory;
mod volley;
// issue 18: 002 "Special Weapons" checked at the order (bfweapa, R674, R676).
mod weapons002;

use activation::*;
use attack::*;
use casualties::*;
use reactive_fire::*;
use retaliation::*;
use round::*;
// 003 §12 reserves come back fresh from their card (battlefront/reserves.rs).
pub(crate) use setup::fresh;
use skills::*;
use standing::*;
use steps::*;
use victory::*;

pub use activation::check_activation;
pub use airlifter::carrier as airlifter_of;
pub use awaiting::awaiting;
pub use awaiting::casualty_options;
pub use awaiting::default_for;
pub use carry::carrying;
pub use casualties::default_casualties;
pub use large::large_entry;
pub use large_react::{react_example, react_note};
pub use riders::riding_square;
pub use setup::new_state;
// issue 18: battlefront/mounting.rs checks a mount as the scenario's pilots are checked.
pub(crate) use piloting::may_pilot;
pub use standing::accept_draw;
pub use standing::concede;
pub use standing::offer_draw;
pub use standing::standing_casualties;
pub use standing::standing_casualties_ask;
pub use standing::standing_first;
pub use standing::standing_react;
pub use standing::standing_retaliate;
pub use steps::run;
pub use victory::illegal_positions;
pub use victory::points;

/// A refusal: what was wrong, which rule (rendered from a [`RuleId`]), what to send instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub reason: String,
    pub rule: String,
    pub instead: String,
}

fn refuse<T>(
    reason: impl Into<String>,
    rule: impl Into<Citation>,
    instead: impl Into<String>,
) -> Result<T, Refusal> {
    Err(Refusal {
        reason: reason.into(),
        rule: rule.into().to_string(),
        instead: instead.into(),
    })
}

impl From<Refusal> for CommandOutcome {
    fn from(r: Refusal) -> Self {
        CommandOutcome::Refused {
            reason: r.reason,
            rule: r.rule,
            instead: r.instead,
        }
    }
}

fn say(out: &mut Outcome, text: impl Into<String>) {
    out.happenings.push(Happening::text(text));
}

/// A happening with its typed event, for the picture and tools (never parsed from the text).
fn tell(out: &mut Outcome, text: impl Into<String>, event: DtEvent, rolls: Vec<Roll>) {
    out.happenings.push(event.happening(text, rolls));
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn card<'a>(state: &'a State, u: &UnitState) -> Option<&'a Card> {
    state.cards.get(&u.card)
}

/// A unit that can still act on its own: alive and not a joined hero.
fn leads(u: &UnitState) -> bool {
    !u.destroyed && u.joined.is_none()
}

/// The unit itself and every unit joined to it: its hero and its Commissar, or its pilot (a
/// squad and those joined to it are one unit while joined, R478).
fn group(state: &State, id: &str) -> Vec<String> {
    let mut v = vec![];
    if let Some(u) = state.unit(id) {
        v.push(u.id.clone());
        let joined = state.joined_of(&u.id);
        v.extend(joined.iter().map(|h| h.id.clone()));
        if let Some(h) = state.pilot_of(&u.id) {
            v.push(h.id.clone());
        }
    }
    v
}

/// The leading unit for a target id: a joined hero is hit through his squad.
fn leader_of(state: &State, id: &str) -> Option<String> {
    let u = state.unit(id)?;
    Some(u.joined.clone().unwrap_or_else(|| u.id.clone()))
}

/// Where a unit stands, a joined hero on its squad's square.
fn target_square(state: &State, id: &str) -> Option<model::Square> {
    let u = state.unit(id)?;
    let lead = match &u.joined {
        Some(squad) if squad != id => squad.as_str(),
        _ => id,
    };
    // A Tank Riders rider stands on its vehicle's square (R471, R474).
    state
        .unit(lead)
        .and_then(|s| s.at)
        .or(u.at)
        .or_else(|| riders::riding_square(state, lead))
}

fn alive_on_board(state: &State, id: &str) -> bool {
    state
        .unit(id)
        .map(|u| !u.destroyed && u.at.is_some())
        .unwrap_or(false)
}

fn occupancy(state: &State, except: &[String]) -> Occupancy {
    let mut occ = Occupancy::new();
    for u in &state.units {
        if u.destroyed || except.contains(&u.id) {
            continue;
        }
        if let (Some(at), Some(c)) = (u.at, card(state, u)) {
            // A large vehicle stands on all 4 of its squares (004 "LARGE VEHICLES", R566).
            for sq in large::squares_at(state, &u.id, at) {
                occ.entry(sq).or_default().push(Occupant {
                    unit: super::model::UnitId(u.id.clone()),
                    side: u.side.clone(),
                    unit_type: c.unit_type,
                    above: aircraft::above(state, &u.id),
                });
            }
        }
    }
    occ
}

fn unit_type(state: &State, id: &str) -> UnitType {
    state
        .unit(id)
        .and_then(|u| card(state, u))
        .map(|c| c.unit_type)
        .unwrap_or(UnitType::Squad)
}

/// Models alive (squads) or 1.
fn model_count(state: &State, u: &UnitState) -> u32 {
    match card(state, u).map(|c| c.unit_type) {
        Some(UnitType::Squad) => u.models.len() as u32,
        _ => 1,
    }
}

/// Models of `u` carrying `w` (ModelSpec.carries), before the ammo cap.
fn carriers(state: &State, u: &UnitState, w: &WeaponLine) -> u32 {
    let Some(c) = card(state, u) else { return 0 };
    if c.unit_type != UnitType::Squad {
        return w.carriers.unwrap_or(1) as u32;
    }
    let listed = c
        .models
        .iter()
        .any(|m| m.carries.iter().any(|x| x == &w.id));
    // Rules revision 1; revision 0 counted only the living listed carriers.
    if listed && w.ammo.is_some() && state.revised(1) {
        // 000 "Limited ammo weapons belong to the whole unit … his comrades pick up the weapon";
        // 004 "Any soldier in the squad may use them" (R153): the card's count, while men live.
        (c.models
            .iter()
            .filter(|m| m.carries.iter().any(|x| x == &w.id))
            .count() as u32)
            .min(u.models.len() as u32)
    } else if listed {
        c.models
            .iter()
            .filter(|m| m.carries.iter().any(|x| x == &w.id) && u.models.contains(&m.id))
            .count() as u32
    } else if w.traits.contains(&WeaponTrait::PerModel) {
        u.models.len() as u32
    } else {
        match w.carriers {
            None => u.models.len() as u32,
            Some(n) => (n as u32).min(u.models.len() as u32),
        }
    }
}

/// Finds weapon `id` on the group's cards: the squad's first, then its hero's.
fn find_weapon(state: &State, leader: &str, id: &str) -> Option<(String, WeaponLine)> {
    for m in piloting::fighting(state, leader) {
        let u = state.unit(&m)?;
        if let Some(w) = card(state, u).and_then(|c| c.weapon(id)) {
            return Some((m, w.clone()));
        }
    }
    None
}

fn weapons_of_group(state: &State, leader: &str) -> Vec<(String, WeaponLine)> {
    let mut v = vec![];
    for m in piloting::fighting(state, leader) {
        if let Some(c) = state.unit(&m).and_then(|u| card(state, u)) {
            for w in &c.weapons {
                v.push((m.clone(), w.clone()));
            }
        }
    }
    v
}

/// The armour a unit presents (a joined squad: the squad's).
fn armour_of(state: &State, id: &str) -> Option<super::model::Armour> {
    state
        .unit(id)
        .and_then(|u| card(state, u))
        .map(|c| c.armour)
}

fn movement_of(state: &State, leader: &str) -> u32 {
    // 004 "Heroes": a joined unit moves at the faster Movement of the two (000: R207).
    state.rules().joined_movement(
        piloting::fighting(state, leader)
            .iter()
            .filter_map(|m| state.unit(m).and_then(|u| card(state, u)))
            .map(|c| c.movement as u32),
    )
}

fn sides_list(state: &State) -> Vec<String> {
    state.sides()
}

fn can_activate(state: &State, side: &str) -> bool {
    state.units.iter().any(|u| {
        u.side == side && (leads(u) && !u.activated || super::battlefront::joining::apart(state, u))
    })
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

/// Applies one command from `side`, then runs the automatic steps it unlocks. A refusal changes
/// nothing.
pub fn apply(
    state: &mut State,
    side: &str,
    cmd: &Command,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> CommandOutcome {
    let outcome = apply_command(state, side, cmd, dice, out);
    match outcome {
        // A 2010 game's players have the 2010 rulebook: cite its section for the same rule.
        CommandOutcome::Refused {
            reason,
            rule,
            instead,
        } if state.rules().cites_2010_only() => CommandOutcome::Refused {
            reason,
            rule: super::citation::restate_2010(&rule),
            instead,
        },
        // issue 18 hook: a battlefront-2013 game's players have 003: cite its section.
        CommandOutcome::Refused {
            reason,
            rule,
            instead,
        } if state.rules().battlefront() => CommandOutcome::Refused {
            reason,
            rule: super::battlefront::citation::restate_003(&rule),
            instead,
        },
        other => other,
    }
}

fn apply_command(
    state: &mut State,
    side: &str,
    cmd: &Command,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> CommandOutcome {
    if state.result.is_some() || matches!(state.phase, Phase::Finished) {
        return Refusal {
            reason: "the game is over".into(),
            rule: RuleId::EndOfGame.to_string(),
            instead: "send nothing more to this game".into(),
        }
        .into();
    }
    if !sides_list(state).iter().any(|s| s == side) {
        return Refusal {
            reason: format!("`{side}` is not a side of this game"),
            rule: RuleId::Orders.to_string(),
            instead: format!("sign as one of: {}", sides_list(state).join(", ")),
        }
        .into();
    }
    // battlefront-2013: a rule not built yet is refused, never played by 004's (issue 18).
    if let Some(r) = super::battlefront::refuse_command(state, cmd) {
        return r.into();
    }
    if let Some(r) = no_reactive_fire(state, cmd) {
        return r.into();
    }
    // Round 1: a `first` sent before the initiative is rolled answers that roll if its sender
    // wins it (R50); the standing order or default (R100) applies only after it.
    let pre_first = matches!(cmd, Command::First { .. })
        && matches!(state.phase, Phase::Initiative)
        && state.placing.is_none();
    // 004 "SETUP": the first `place` rolls who places first (R700).
    let rolled_now = matches!(cmd, Command::Place(_)) && placing::unrolled(state);
    if pre_first {
        roll_dice_for_initiative(state, dice, out);
    }
    // Standing orders and game-end offers need no dice: sent before round 1's roll they are in
    // force for it (R100).
    let no_roll = matches!(
        cmd,
        Command::StandingReact { .. }
            | Command::StandingReactChoosing { .. }
            | Command::StandingCasualties { .. }
            | Command::StandingCasualtiesAsk { .. }
            | Command::StandingRetaliate { .. }
            | Command::StandingFirst { .. }
            | Command::Concede
            | Command::OfferDraw
            | Command::AcceptDraw
    );
    if !no_roll {
        advance(state, dice, out);
    }
    let r = match cmd {
        // A choice stated before the roll by the side that then lost it is moot, not wrong.
        Command::First { side: chosen }
            if pre_first && matches!(&state.phase, Phase::First { winner } if winner != side) =>
        {
            Ok(format!(
                "first {chosen}: not needed, {} won the initiative",
                state.initiative.clone().unwrap_or_default()
            ))
        }
        Command::First { side: chosen } => cmd_first(state, side, chosen, out),
        Command::Activate { unit, actions } => cmd_activate(state, side, unit, actions, out),
        Command::React { unit } => cmd_react(state, side, unit.as_deref(), dice, out)
            // issue 18 hook: a battlefront-2013 refusal cites 003, not 004.
            .map_err(|e| super::battlefront::reactive::cite(state.rules(), e)),
        // issue 18 hook: 003's choice on two army symbols (battlefront/react_choice.rs).
        Command::ReactChoosing { unit, choice } => {
            cmd_react_choosing(state, side, unit, *choice, dice, out)
                .map_err(|e| super::battlefront::reactive::cite(state.rules(), e))
        }
        Command::Casualties { unit, models } => {
            cmd_casualties(state, side, unit, models, dice, out)
        }
        Command::Concede => concede(state, side, out),
        Command::OfferDraw => offer_draw(state, side, out),
        Command::AcceptDraw => accept_draw(state, side, out),
        Command::StandingReact { trigger, answer } => {
            standing_react_order(state, side, trigger.as_deref(), answer)
        }
        // issue 18 hook: 003's choice on two army symbols, as a standing order.
        Command::StandingReactChoosing { unit, choice } => {
            standing_react_choosing(state, side, unit.as_deref(), *choice)
        }
        Command::StandingCasualties { unit, models } => {
            standing_casualties(state, side, unit, models)
        }
        Command::StandingCasualtiesAsk { unit } => {
            standing_casualties_ask(state, side, unit.as_deref())
        }
        Command::StandingRetaliate { unit, policy } => {
            let policy = match policy {
                Some(true) => Policy::Yes,
                Some(false) => Policy::Never,
                None => Policy::Ask,
            };
            standing_retaliate(state, side, unit.as_deref(), policy)
        }
        Command::Retaliate { unit, yes } => {
            cmd_retaliate(state, side, unit.as_deref(), *yes, dice, out)
        }
        Command::StandingFirst { side: first } => {
            standing_first(state, side, first.as_deref(), out)
        }
        // 003 "Passing" (battlefront-2013; refused by the other rulesets).
        Command::Pass => super::battlefront::passing::pass(state, side, out),
        Command::Place(p) => placing::cmd_place(state, side, p, rolled_now, dice, out),
    };
    if pre_first {
        settle_first(state, out);
    }
    match r {
        Ok(understood) => {
            run(state, dice, out);
            CommandOutcome::Accepted { understood }
        }
        Err(e) => e.into(),
    }
}

/// A `react` or `standing react` line under a ruleset without reactive fire (000): refused
/// before anything else, so it changes nothing.
fn no_reactive_fire(state: &State, cmd: &Command) -> Option<Refusal> {
    let react = matches!(
        cmd,
        Command::React { .. }
            | Command::ReactChoosing { .. }
            | Command::StandingReact { .. }
            | Command::StandingReactChoosing { .. }
    );
    (react && !state.rules().reactive_fire()).then(|| Refusal {
        reason: format!(
            "the 2010 rules (ruleset {}) have no reactive fire: no unit fires out of its own activation",
            state.ruleset
        ),
        rule: RuleId::NoReactiveFire2010
            .with("a unit may move then shoot, shoot then move, move twice, or perform a sustained attack")
            .to_string(),
        instead: "leave out the react line; send `activate` orders for your units".into(),
    })
}

/// Runs automatic steps: a pending initiative roll, a running activation.
pub fn advance(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    // While the battlefield is placed (R700) round 1's initiative waits.
    if matches!(state.phase, Phase::Initiative) && state.placing.is_none() {
        roll_initiative(state, dice, out);
    }
    run(state, dice, out);
}
