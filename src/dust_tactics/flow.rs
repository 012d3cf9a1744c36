//! The Dust Tactics state machine (ruleset `ffg-revised`: 004, with 000 where 004 is silent):
//! initiative, alternating activations, attacks applied, reactive fire, close combat, heroes and
//! skills. Every command is validated in full before any die is rolled, so a refused command
//! leaves the state untouched. Rulings R50–R79 are in docs/rulings.md, R100–R129 (decisions,
//! standing orders and their defaults) in docs/rulings.md.

use super::combat::{self, FireOptions, TargetProfile};
use super::geometry::{self, Mover, Occupancy, Occupant, Sight, Sighter};
use super::model::{
    Card, Cover, Fire, Save, Square, UnitType, WeaponLine, WeaponRange, WeaponTrait,
};
use super::orders::{Action, Command, FireOrder, StandingReaction, TargetRef};
use super::scenario::{Objective, Scenario};
use super::state::*;
use crate::game::{CommandOutcome, DiceSource, GameResult, Happening, Outcome, Roll, SetupError};
use std::collections::BTreeMap;

/// A refusal: what was wrong, which rule, what to send instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub reason: String,
    pub rule: String,
    pub instead: String,
}

fn refuse<T>(
    reason: impl Into<String>,
    rule: &str,
    instead: impl Into<String>,
) -> Result<T, Refusal> {
    Err(Refusal {
        reason: reason.into(),
        rule: rule.into(),
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
    out.happenings.push(Happening {
        text: text.into(),
        rolls: vec![],
    });
}

// ---------------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------------

/// Builds the initial state from a validated scenario and the cards (004 "Heroes" joining rules,
/// AP limit, unique ids). The first initiative is rolled on the first submission or default,
/// when dice are available (R50).
pub fn new_state(ruleset: &str, scenario: Scenario, cards: Vec<Card>) -> Result<State, SetupError> {
    if ruleset != "ffg-revised" {
        return Err(SetupError(format!(
            "ruleset `{ruleset}` is not available yet: use `ffg-revised`"
        )));
    }
    let mut by_id = BTreeMap::new();
    for c in cards {
        by_id.insert(c.id.clone(), c);
    }
    let mut units: Vec<UnitState> = Vec::new();
    if scenario.sides.len() < 2 {
        return Err(SetupError(format!(
            "scenario {} has {} side(s): a game needs at least two",
            scenario.name,
            scenario.sides.len()
        )));
    }
    for side in &scenario.sides {
        let mut ap = 0u32;
        for spec in &side.units {
            let card = by_id.get(&spec.card).ok_or_else(|| {
                SetupError(format!(
                    "unit {} of side {} uses card `{}`, which is not among the cards given: add games/dust-tactics/cards/{}.toml or fix the card id",
                    spec.id, side.id, spec.card, spec.card
                ))
            })?;
            if units
                .iter()
                .any(|u: &UnitState| u.id.eq_ignore_ascii_case(&spec.id))
            {
                return Err(SetupError(format!(
                    "unit id `{}` is used twice: give every unit its own id",
                    spec.id
                )));
            }
            ap += card.ap;
            let models: Vec<String> = if card.unit_type == UnitType::Squad {
                if card.models.is_empty() {
                    (1..=card.health).map(|i| i.to_string()).collect()
                } else {
                    card.models.iter().map(|m| m.id.clone()).collect()
                }
            } else {
                vec![]
            };
            let health = if card.unit_type == UnitType::Squad {
                models.len().min(u8::MAX as usize) as u8
            } else {
                card.health
            };
            let ammo = card
                .weapons
                .iter()
                .filter_map(|w| w.ammo.map(|a| (w.id.clone(), a)))
                .collect();
            if let Some(sq) = spec.at {
                if units.iter().any(|u| u.at == Some(sq)) && spec.joins.is_none() {
                    return Err(SetupError(format!(
                        "unit {} starts on {sq}, where another unit already stands: one unit per square",
                        spec.id
                    )));
                }
            }
            units.push(UnitState {
                id: spec.id.clone(),
                side: side.id.clone(),
                card: card.id.clone(),
                at: spec.at,
                models,
                health,
                joined: None,
                activated: false,
                stopped: false,
                moved: false,
                ammo,
                skills_used: BTreeMap::new(),
                all_in_one_round: None,
                destroyed: false,
            });
        }
        if ap > scenario.ap_limit {
            return Err(SetupError(format!(
                "side {} fields {ap} AP, more than the scenario's limit of {}: remove units",
                side.id, scenario.ap_limit
            )));
        }
    }
    // Joins: `joins` on the hero names the squad; on a squad naming a hero is accepted too.
    for side in &scenario.sides {
        for spec in &side.units {
            let Some(other) = &spec.joins else { continue };
            let (hero_id, squad_id) = match by_id.get(&spec.card).map(|c| c.unit_type) {
                Some(UnitType::Hero) => (spec.id.clone(), other.clone()),
                _ => (other.clone(), spec.id.clone()),
            };
            join(&mut units, &by_id, &hero_id, &squad_id)?;
        }
    }
    let mut state = State {
        ruleset: ruleset.into(),
        scenario,
        cards: by_id,
        units,
        round: 1,
        phase: Phase::Initiative,
        initiative: None,
        next_side: None,
        destroyed: vec![],
        result: None,
        standing: BTreeMap::new(),
        draw_offer: None,
    };
    // Keep only the cards in use, so the state (and its digest) does not carry spare cards.
    let used: Vec<String> = state.units.iter().map(|u| u.card.clone()).collect();
    state.cards.retain(|k, _| used.contains(k));
    Ok(state)
}

fn join(
    units: &mut [UnitState],
    cards: &BTreeMap<String, Card>,
    hero_id: &str,
    squad_id: &str,
) -> Result<(), SetupError> {
    let rule = "(004 'Heroes': joining)";
    let find = |id: &str| units.iter().position(|u| u.id.eq_ignore_ascii_case(id));
    let (Some(h), Some(s)) = (find(hero_id), find(squad_id)) else {
        return Err(SetupError(format!(
            "`joins` links {hero_id} and {squad_id}, but one of them is not a unit of the scenario {rule}"
        )));
    };
    let (Some(hc), Some(sc)) = (cards.get(&units[h].card), cards.get(&units[s].card)) else {
        return Err(SetupError(format!(
            "`joins` links {hero_id} and {squad_id}, but a card is missing {rule}"
        )));
    };
    if hc.unit_type != UnitType::Hero || sc.unit_type != UnitType::Squad {
        return Err(SetupError(format!(
            "only a hero joins a squad: {hero_id} is a {:?} and {squad_id} a {:?} {rule}",
            hc.unit_type, sc.unit_type
        )));
    }
    if units[h].side != units[s].side {
        return Err(SetupError(format!(
            "hero {hero_id} cannot join {squad_id}: they are on different sides {rule}"
        )));
    }
    let class = |a: super::model::Armour| std::mem::discriminant(&a);
    if class(hc.armour) != class(sc.armour) {
        return Err(SetupError(format!(
            "hero {hero_id} ({:?}) cannot join squad {squad_id} ({:?}): the armour class must match {rule}",
            hc.armour, sc.armour
        )));
    }
    if hc.has_skill("jump") != sc.has_skill("jump") {
        return Err(SetupError(format!(
            "hero {hero_id} cannot join squad {squad_id}: with Jump, both hero and squad must have it (004 'Jump')"
        )));
    }
    if units
        .iter()
        .any(|u| u.joined.as_deref() == Some(&units[s].id))
    {
        return Err(SetupError(format!(
            "squad {squad_id} already has a hero: at most one hero per squad {rule}"
        )));
    }
    if units[h].joined.is_some() {
        return Err(SetupError(format!(
            "hero {hero_id} joins two squads: a hero joins at most one {rule}"
        )));
    }
    let squad_id = units[s].id.clone();
    let squad_at = units[s].at;
    units[h].joined = Some(squad_id);
    // A joined hero always stands with his squad (000 "Heroes").
    units[h].at = squad_at;
    Ok(())
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

/// The unit itself and its joined hero (a squad and hero are one unit while joined).
fn group(state: &State, id: &str) -> Vec<String> {
    let mut v = vec![];
    if let Some(u) = state.unit(id) {
        v.push(u.id.clone());
        if let Some(h) = state.hero_of(&u.id) {
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

fn alive_on_board(state: &State, id: &str) -> bool {
    state
        .unit(id)
        .map(|u| !u.destroyed && u.at.is_some())
        .unwrap_or(false)
}

/// Whether a skill works for the unit `id` (its own card, or a shared skill of its joined hero;
/// digest §8 "share").
fn has_skill(state: &State, id: &str, skill: &str) -> bool {
    let Some(u) = state.unit(id) else {
        return false;
    };
    if card(state, u).map(|c| c.has_skill(skill)).unwrap_or(false) {
        return true;
    }
    // A squad's skills always apply to a joined hero.
    if let Some(sq) = &u.joined {
        if let Some(s) = state.unit(sq) {
            if card(state, s).map(|c| c.has_skill(skill)).unwrap_or(false) {
                return true;
            }
        }
    }
    const SHARED: &[&str] = &[
        "agile",
        "assault",
        "berserk",
        "charge",
        "fighting-spirit",
        "advanced-reactive-fire",
        "superior-reactive-fire",
    ];
    if SHARED.contains(&skill) {
        if let Some(h) = state.hero_of(&u.id) {
            return card(state, h).map(|c| c.has_skill(skill)).unwrap_or(false);
        }
    }
    false
}

/// The member of the group whose card carries `skill` (where its use counter lives).
fn skill_owner(state: &State, id: &str, skill: &str) -> Option<String> {
    group(state, id).into_iter().find(|m| {
        state
            .unit(m)
            .and_then(|u| card(state, u))
            .map(|c| c.has_skill(skill))
            .unwrap_or(false)
    })
}

/// Skills 004 limits to once per game.
const ONCE_PER_GAME: &[&str] = &[
    "berserk",
    "all-in-one",
    "assault",
    "fighting-spirit",
    "tank-head",
];

fn uses_left(state: &State, owner: &str, skill: &str) -> u8 {
    let Some(u) = state.unit(owner) else { return 0 };
    let Some(c) = card(state, u) else { return 0 };
    let allowed = c
        .skills
        .iter()
        .find(|s| s.name == skill)
        .map(|s| {
            // 004 words these "once per game" whatever the card file says.
            let once = ONCE_PER_GAME.contains(&skill);
            s.uses
                .map(|n| if once { n.min(1) } else { n })
                .unwrap_or(if once { 1 } else { u8::MAX })
        })
        .unwrap_or(0);
    allowed.saturating_sub(u.skills_used.get(skill).copied().unwrap_or(0))
}

fn occupancy(state: &State, except: &[String]) -> Occupancy {
    let mut occ = Occupancy::new();
    for u in &state.units {
        if u.destroyed || except.contains(&u.id) {
            continue;
        }
        if let (Some(sq), Some(c)) = (u.at, card(state, u)) {
            occ.entry(sq).or_default().push(Occupant {
                unit: super::model::UnitId(u.id.clone()),
                side: u.side.clone(),
                unit_type: c.unit_type,
            });
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

fn range_text(r: WeaponRange) -> String {
    match r {
        WeaponRange::Close => "C".into(),
        WeaponRange::Upto(n) => n.to_string(),
        WeaponRange::Between(a, b) => format!("{a}-{b}"),
        WeaponRange::Unlimited => "U".into(),
        WeaponRange::Artillery => "A".into(),
    }
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
    if listed {
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
    for m in group(state, leader) {
        let u = state.unit(&m)?;
        if let Some(w) = card(state, u).and_then(|c| c.weapon(id)) {
            return Some((m, w.clone()));
        }
    }
    None
}

fn weapons_of_group(state: &State, leader: &str) -> Vec<(String, WeaponLine)> {
    let mut v = vec![];
    for m in group(state, leader) {
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
    // 004 "Heroes": a joined unit moves at the faster Movement of the two.
    group(state, leader)
        .iter()
        .filter_map(|m| state.unit(m).and_then(|u| card(state, u)))
        .map(|c| c.movement as u32)
        .max()
        .unwrap_or(0)
}

fn sides_list(state: &State) -> Vec<String> {
    state.sides()
}

fn can_activate(state: &State, side: &str) -> bool {
    state
        .units
        .iter()
        .any(|u| u.side == side && leads(u) && !u.activated)
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
    if state.result.is_some() || matches!(state.phase, Phase::Finished) {
        return Refusal {
            reason: "the game is over".into(),
            rule: "004 'End of the game'".into(),
            instead: "send nothing more to this game".into(),
        }
        .into();
    }
    if !sides_list(state).iter().any(|s| s == side) {
        return Refusal {
            reason: format!("`{side}` is not a side of this game"),
            rule: "DESIGN §4".into(),
            instead: format!("sign as one of: {}", sides_list(state).join(", ")),
        }
        .into();
    }
    // Round 1: a `first` sent before the initiative is rolled answers that roll if its sender
    // wins it (R50); the standing order or default (R100) applies only after it.
    let pre_first =
        matches!(cmd, Command::First { .. }) && matches!(state.phase, Phase::Initiative);
    if pre_first {
        roll_dice_for_initiative(state, dice, out);
    }
    // Standing orders and game-end offers need no dice: sent before round 1's roll they are in
    // force for it (R100).
    let no_roll = matches!(
        cmd,
        Command::StandingReact { .. }
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
        Command::React { unit } => cmd_react(state, side, unit.as_deref(), dice, out),
        Command::Casualties { unit, models } => cmd_casualties(state, side, unit, models, out),
        Command::Concede => concede(state, side, out),
        Command::OfferDraw => offer_draw(state, side, out),
        Command::AcceptDraw => accept_draw(state, side, out),
        Command::StandingReact { trigger, answer } => {
            standing_react_order(state, side, trigger.as_deref(), answer)
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
        // Report, template and absence are answered by the referee, which knows the mail and
        // the clock; the rules engine has nothing to change for them.
        Command::Report | Command::Template | Command::AbsentUntil { .. } => refuse(
            "this command is answered by the referee, not the rules",
            "docs/orders.md",
            "send it on its own line; the referee handles it before the rules",
        ),
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

/// Runs automatic steps: a pending initiative roll, a running activation.
pub fn advance(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    if matches!(state.phase, Phase::Initiative) {
        roll_initiative(state, dice, out);
    }
    run(state, dice, out);
}

fn cmd_first(
    state: &mut State,
    side: &str,
    chosen: &str,
    out: &mut Outcome,
) -> Result<String, Refusal> {
    let Phase::First { winner } = &state.phase else {
        return refuse(
            "nobody is choosing who goes first now",
            "004 'Initiative'",
            "see the awaited decisions in the last report",
        );
    };
    if winner != side {
        return refuse(
            format!("{winner} won the initiative, so {winner} chooses who activates first"),
            "004 'Initiative'",
            "wait for their choice",
        );
    }
    let Some(chosen) = sides_list(state)
        .into_iter()
        .find(|s| s.eq_ignore_ascii_case(chosen))
    else {
        return refuse(
            format!("`{chosen}` is not a side of this game"),
            "004 'Initiative'",
            format!("first {}", side),
        );
    };
    say(
        out,
        format!(
            "{side} chooses {chosen} to activate first in round {}",
            state.round
        ),
    );
    start_activations(state, &chosen, out);
    Ok(format!("first {chosen}"))
}

fn start_activations(state: &mut State, first: &str, out: &mut Outcome) {
    state.phase = Phase::Activations;
    if can_activate(state, first) {
        state.next_side = Some(first.to_string());
    } else {
        // A side with no unit left to activate is skipped (004 "Activation").
        let next = next_side_after(state, first);
        if next.is_none() {
            say(out, format!("{first} has no unit to activate"));
        }
        state.next_side = next;
    }
}

/// The next side after `current` (cyclic, scenario order) that still has a unit to activate.
fn next_side_after(state: &State, current: &str) -> Option<String> {
    let sides = sides_list(state);
    let i = sides.iter().position(|s| s == current).unwrap_or(0);
    (1..=sides.len())
        .map(|k| sides[(i + k) % sides.len()].clone())
        .find(|s| can_activate(state, s))
}

// ---------------------------------------------------------------------------------------------
// Activation: validation (everything before any die)
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Move,
    Attack,
    Skill,
    Nothing,
    Sustained,
}

const FREE_SKILLS: &[&str] = &[
    "berserk",
    "all-in-one",
    "assault",
    "fighting-spirit",
    "charge",
    "detach",
];

/// Skills that work by themselves (R61): declaring one is accepted and changes nothing.
const PASSIVE_SKILLS: &[&str] = &[
    "agile",
    "fast",
    "jump",
    "sniper",
    "spotter",
    "damage-resilient",
    "self-repair",
    "black-ops",
    "tracked-vehicle",
    "advanced-reactive-fire",
    "superior-reactive-fire",
];

fn cmd_activate(
    state: &mut State,
    side: &str,
    unit_id: &str,
    actions: &[Action],
    out: &mut Outcome,
) -> Result<String, Refusal> {
    let rule_act = "004 'Activation'";
    match &state.phase {
        Phase::Activations => {}
        Phase::First { winner } => {
            return refuse(
                format!("{winner} must first choose who activates first"),
                "004 'Initiative'",
                format!("{winner}: first <side>"),
            )
        }
        Phase::Activation(a) => {
            return refuse(
                format!("the activation of {} is still being resolved", a.unit),
                rule_act,
                "answer the awaited decision (react or casualties) first",
            )
        }
        _ => {
            return refuse(
                "no activation is possible now",
                rule_act,
                "wait for the next report",
            )
        }
    }
    if state.next_side.as_deref() != Some(side) {
        return refuse(
            format!(
                "it is {}'s turn to activate a unit",
                state.next_side.clone().unwrap_or_default()
            ),
            "004 'Alternating activations'",
            "wait for your turn",
        );
    }
    let Some(u) = state.unit(unit_id).cloned() else {
        return refuse(
            format!("there is no unit `{unit_id}`"),
            rule_act,
            format!("activate one of: {}", activatable(state, side).join(", ")),
        );
    };
    if u.side != side {
        return refuse(
            format!("{} is not your unit", u.id),
            rule_act,
            "activate one of your own units",
        );
    }
    if u.destroyed {
        return refuse(
            format!("{} is destroyed", u.id),
            rule_act,
            format!("activate one of: {}", activatable(state, side).join(", ")),
        );
    }
    if let Some(sq) = &u.joined {
        return refuse(
            format!("{} is joined to {sq} and activates with it", u.id),
            "004 'Heroes'",
            format!("activate {sq}"),
        );
    }
    if u.activated {
        return refuse(
            format!("{} has already activated this round", u.id),
            rule_act,
            format!("activate one of: {}", activatable(state, side).join(", ")),
        );
    }
    let plan = plan_activation(state, &u, actions)?;
    // Commit: turn the cards, count skill uses, start the steps.
    let members = group(state, &u.id);
    for m in &members {
        if let Some(x) = state.unit_mut(m) {
            x.activated = true;
        }
    }
    let round = state.round;
    for (owner, skill) in &plan.uses {
        if let Some(x) = state.unit_mut(owner) {
            *x.skills_used.entry(skill.clone()).or_insert(0) += 1;
            if skill == "all-in-one" {
                x.all_in_one_round = Some(round);
            }
        }
    }
    say(out, format!("{} activates {}: {}", side, u.id, plan.text));
    state.phase = Phase::Activation(Box::new(Activation {
        unit: u.id.clone(),
        side: side.to_string(),
        steps: plan.steps,
        wait: None,
        flags: plan.flags,
        damage: BTreeMap::new(),
        reacted: vec![],
    }));
    Ok(format!("activate {}: {}", u.id, plan.text))
}

fn activatable(state: &State, side: &str) -> Vec<String> {
    state
        .units
        .iter()
        .filter(|u| u.side == side && leads(u) && !u.activated)
        .map(|u| u.id.clone())
        .collect()
}

struct Plan {
    steps: Vec<Step>,
    flags: ActFlags,
    uses: Vec<(String, String)>,
    text: String,
}

fn plan_activation(state: &State, u: &UnitState, actions: &[Action]) -> Result<Plan, Refusal> {
    let rule_actions = "004 'Actions'";
    let mut flags = ActFlags::default();
    let mut uses: Vec<(String, String)> = vec![];
    let mut kinds: Vec<Kind> = vec![];
    let mut texts: Vec<String> = vec![];
    // Free skills first: they shape the rest (Assault doubles movement, Charge allows 3 actions).
    for a in actions {
        if let Action::Skill { name, .. } = a {
            let n = name.to_ascii_lowercase();
            if !FREE_SKILLS.contains(&n.as_str()) {
                continue;
            }
            if n == "detach" {
                continue;
            }
            if skill_owner(state, &u.id, &n).is_none() {
                return refuse(
                    format!("{} does not have the skill {n}", u.id),
                    "004 'Skills'",
                    "remove that skill line",
                );
            }
            let owner = skill_owner(state, &u.id, &n).unwrap_or_else(|| u.id.clone());
            if uses_left(state, &owner, &n) == 0 {
                return refuse(
                    format!("{owner} has already used {n} as often as its card allows"),
                    "004 'Skills'",
                    "remove that skill line",
                );
            }
            match n.as_str() {
                "berserk" => flags.berserk = true,
                "assault" => flags.assault = true,
                "charge" => flags.charge = true,
                "fighting-spirit" => {
                    flags.fighting_spirit = true;
                }
                _ => {}
            }
            if n != "charge" {
                uses.push((owner, n.clone()));
            }
            texts.push(format!("skill {n}"));
        }
    }
    let members = group(state, &u.id);
    let occ = occupancy(state, &members);
    let mut pos = u.at;
    let mut moved_before = u.moved;
    let mut last_kind: Option<Kind> = None;
    let mut steps: Vec<Step> = vec![];
    let mut fast_used = false;
    for a in actions {
        match a {
            Action::Move { squares } => {
                if u.stopped
                    || (moved_before && last_kind.is_some() && last_kind != Some(Kind::Move))
                {
                    return refuse(
                        format!(
                            "{} has stopped moving this round and may not move again",
                            u.id
                        ),
                        "004 'Move': once a unit stops moving it may not move again this round",
                        "replace this move with another action",
                    );
                }
                match pos {
                    None => {
                        // Entering (ruling 2): one square of the entry zone, ends this action.
                        let Some(to) = squares.last().copied().filter(|_| squares.len() == 1)
                        else {
                            return refuse(
                                format!("{} enters the battlefield: its move is one square of the entry zone", u.id),
                                "004 'During the first round' (ruling 2)",
                                format!("move <one of {}>", entry_free(state, &u.side).iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ")),
                            );
                        };
                        let side_spec = state.scenario.sides.iter().find(|s| s.id == u.side);
                        let zone = side_spec.map(|s| s.entry.clone()).unwrap_or_default();
                        if !zone.contains(&to) {
                            return refuse(
                                format!("{to} is not in {}'s entry zone", u.side),
                                "004 'During the first round' (ruling 2)",
                                format!(
                                    "move <one of {}>",
                                    entry_free(state, &u.side)
                                        .iter()
                                        .map(|s| s.to_string())
                                        .collect::<Vec<_>>()
                                        .join(" ")
                                ),
                            );
                        }
                        // A hero may share a square with friendly units (004 "Heroes").
                        let lone_hero = unit_type(state, &u.id) == UnitType::Hero;
                        let shareable = occ.get(&to).map(|v| {
                            lone_hero
                                && v.iter()
                                    .all(|o| o.side == u.side && o.unit_type != UnitType::Hero)
                        });
                        if shareable == Some(false) {
                            return refuse(
                                format!("{to} is occupied"),
                                "004 'Movement': one unit per square",
                                format!(
                                    "move <one of {}>",
                                    entry_free(state, &u.side)
                                        .iter()
                                        .map(|s| s.to_string())
                                        .collect::<Vec<_>>()
                                        .join(" ")
                                ),
                            );
                        }
                        steps.push(Step::Enter { to });
                        texts.push(format!("enter at {to}"));
                        pos = Some(to);
                    }
                    Some(from) => {
                        let c = card(state, u);
                        let mover = Mover {
                            unit: super::model::UnitId(u.id.clone()),
                            side: u.side.clone(),
                            unit_type: c.map(|c| c.unit_type).unwrap_or(UnitType::Squad),
                            jump: has_skill(state, &u.id, "jump"),
                            agile: has_skill(state, &u.id, "agile"),
                            tracked: has_skill(state, &u.id, "tracked-vehicle"),
                        };
                        let mut mp = movement_of(state, &u.id);
                        if flags.assault {
                            mp *= 2;
                        }
                        // Fast: +1 on one MOVE of the activation (004 "Fast").
                        let fast = has_skill(state, &u.id, "fast") && !fast_used;
                        let plan = geometry::plan_move(
                            &state.scenario.board,
                            &occ,
                            &mover,
                            from,
                            squares,
                            mp + fast as u32,
                        )
                        .map_err(|e| Refusal {
                            reason: format!("{} cannot move: {}", u.id, e.reason),
                            rule: e.rule.clone(),
                            instead: format!("a move of at most {mp} movement points"),
                        })?;
                        if fast && plan.cost > mp {
                            fast_used = true;
                        }
                        let to = plan.path.last().copied().unwrap_or(from);
                        texts.push(format!("move to {to}"));
                        steps.push(Step::Move {
                            path: plan.path,
                            crushed: plan.crushed,
                        });
                        pos = Some(to);
                    }
                }
                moved_before = true;
                kinds.push(Kind::Move);
                last_kind = Some(Kind::Move);
            }
            Action::Attack { fire } | Action::Sustained { fire } => {
                let sustained = matches!(a, Action::Sustained { .. });
                let Some(from) = pos else {
                    return refuse(
                        format!("{} is not on the battlefield yet", u.id),
                        "004 'During the first round': the first action is a move onto the board",
                        "move <entry square> first".to_string(),
                    );
                };
                let lines = plan_fire(state, u, from, fire, &occ, flags.charge)?;
                texts.push(format!(
                    "{} {}",
                    if sustained { "sustained" } else { "attack" },
                    lines
                        .iter()
                        .map(|l| format!("{} at {}", l.weapon, target_text(&l.target)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                if flags.fighting_spirit && !moved_before {
                    return refuse(
                        "Fighting Spirit needs at least one MOVE before attacking this round",
                        "004 'Fighting Spirit'",
                        "move first, or drop `skill fighting-spirit`",
                    );
                }
                steps.push(Step::Attack { lines, sustained });
                let k = if sustained {
                    Kind::Sustained
                } else {
                    Kind::Attack
                };
                kinds.push(k);
                last_kind = Some(k);
            }
            Action::Skill { name, target } => {
                let n = name.to_ascii_lowercase();
                if n == "detach" {
                    let Some(h) = state.hero_of(&u.id) else {
                        return refuse(
                            format!("{} has no joined hero to detach", u.id),
                            "004 'Heroes': separation",
                            "remove `skill detach`",
                        );
                    };
                    steps.push(Step::Detach { hero: h.id.clone() });
                    texts.push(format!("{} detaches", h.id));
                    continue;
                }
                if FREE_SKILLS.contains(&n.as_str()) {
                    continue;
                }
                if PASSIVE_SKILLS.contains(&n.as_str()) {
                    if skill_owner(state, &u.id, &n).is_none() {
                        return refuse(
                            format!("{} does not have the skill {n}", u.id),
                            "004 'Skills'",
                            "remove that skill line",
                        );
                    }
                    texts.push(format!("skill {n} (works by itself)"));
                    continue;
                }
                if n != "tank-head" {
                    return refuse(
                        format!("`skill {n}` is not a skill the engine can use as an action"),
                        "004 'Skills'",
                        "free skills: berserk, all-in-one, assault, fighting-spirit, charge, detach; SKILL actions: tank-head; the others work by themselves",
                    );
                }
                if skill_owner(state, &u.id, "tank-head").is_none() {
                    return refuse(
                        format!("{} does not have Tank Head", u.id),
                        "004 'Tank Head'",
                        "remove that skill line",
                    );
                }
                let owner = skill_owner(state, &u.id, "tank-head").unwrap_or_else(|| u.id.clone());
                if uses_left(state, &owner, "tank-head") == 0 {
                    return refuse(
                        format!("{owner} has already used Tank Head"),
                        "004 'Tank Head': once per game",
                        "remove that skill line",
                    );
                }
                let tid = match target {
                    Some(TargetRef::Unit(t)) => t.clone(),
                    _ => {
                        return refuse(
                            "Tank Head needs a target vehicle",
                            "004 'Tank Head'",
                            "skill tank-head at <adjacent friendly vehicle>",
                        )
                    }
                };
                let Some(t) = state.unit(&tid) else {
                    return refuse(
                        format!("there is no unit `{tid}`"),
                        "004 'Tank Head'",
                        "skill tank-head at <adjacent friendly vehicle>",
                    );
                };
                let ok = t.side == u.side
                    && !t.destroyed
                    && unit_type(state, &t.id) == UnitType::Vehicle
                    && matches!((pos, t.at), (Some(a), Some(b)) if a.adjacent(b));
                if !ok {
                    return refuse(
                        format!("{} is not a friendly vehicle adjacent to {}", t.id, u.id),
                        "004 'Tank Head': heal an adjacent friendly vehicle",
                        "skill tank-head at <adjacent friendly vehicle>",
                    );
                }
                uses.push((owner, "tank-head".into()));
                steps.push(Step::TankHead {
                    target: t.id.clone(),
                });
                texts.push(format!("skill tank-head at {}", t.id));
                kinds.push(Kind::Skill);
                last_kind = Some(Kind::Skill);
            }
            Action::Nothing => {
                steps.push(Step::Nothing);
                texts.push("nothing".into());
                kinds.push(Kind::Nothing);
                last_kind = Some(Kind::Nothing);
            }
            #[allow(unreachable_patterns)]
            _ => {
                return refuse(
                    "this action is not part of the ffg-revised engine yet",
                    rule_actions,
                    "use move, attack, sustained, skill or nothing",
                )
            }
        }
    }
    // Legal sequences (004 "Actions").
    let legal = if flags.charge {
        kinds == [Kind::Move, Kind::Move, Kind::Attack]
    } else {
        match kinds.as_slice() {
            [Kind::Sustained] => true,
            [Kind::Attack, Kind::Attack] => {
                return refuse(
                    "two ATTACK actions in one activation are a SUSTAINED ATTACK",
                    rule_actions,
                    "sustained <weapon> at <target>",
                )
            }
            [a, b] => *a != Kind::Sustained && *b != Kind::Sustained,
            _ => false,
        }
    };
    if !legal {
        return refuse(
            format!(
                "{} actions are declared ({}); an activation is two actions, or one SUSTAINED ATTACK{}",
                kinds.len(),
                texts.join(", "),
                if flags.charge { "; Charge is move, move, attack" } else { "" }
            ),
            rule_actions,
            "e.g. `move C4` + `attack <weapon> at <target>`, or `nothing` + `nothing`",
        );
    }
    if kinds.contains(&Kind::Sustained) && u.at.is_none() {
        return refuse(
            format!(
                "{} is entering the battlefield and cannot make a sustained attack",
                u.id
            ),
            "004 'During the first round' (ruling 2)",
            "move <entry square> + attack",
        );
    }
    if u.at.is_none()
        && kinds.first() != Some(&Kind::Move)
        && kinds.iter().any(|k| *k != Kind::Nothing)
    {
        return refuse(
            format!(
                "{} is off the board: its first action must be the entering move",
                u.id
            ),
            "004 'During the first round' (ruling 2)",
            "move <entry square> first",
        );
    }
    // Reactive-fire windows (004 "Reactive fire situations"; R55 for SKILL/NOTHING pairs).
    let mut with_windows = vec![];
    let action_idx: Vec<usize> = steps
        .iter()
        .enumerate()
        .filter(|(_, s)| !matches!(s, Step::Detach { .. }))
        .map(|(i, _)| i)
        .collect();
    let window_after = if kinds.contains(&Kind::Sustained) {
        None
    } else if flags.charge {
        action_idx.get(1).copied()
    } else if kinds.iter().any(|k| matches!(k, Kind::Move | Kind::Attack)) {
        action_idx.first().copied()
    } else {
        None
    };
    for (i, s) in steps.into_iter().enumerate() {
        with_windows.push(s);
        if Some(i) == window_after {
            with_windows.push(Step::Window);
        }
    }
    flags.fast_used = fast_used;
    Ok(Plan {
        steps: with_windows,
        flags,
        uses,
        text: texts.join(", "),
    })
}

fn entry_free(state: &State, side: &str) -> Vec<Square> {
    let occ = occupancy(state, &[]);
    state
        .scenario
        .sides
        .iter()
        .find(|s| s.id == side)
        .map(|s| {
            s.entry
                .iter()
                .copied()
                .filter(|q| !occ.contains_key(q))
                .collect()
        })
        .unwrap_or_default()
}

fn target_text(t: &Target) -> String {
    match t {
        Target::Unit { unit } => unit.clone(),
        Target::Model { unit, model } => format!("{unit}/{model}"),
        Target::Square { at } => at.to_string(),
    }
}

/// Validates the declared weapon lines of one ATTACK from `from`.
fn plan_fire(
    state: &State,
    u: &UnitState,
    from: Square,
    fire: &[FireOrder],
    occ: &Occupancy,
    charge: bool,
) -> Result<Vec<LineOrder>, Refusal> {
    if fire.is_empty() {
        return refuse(
            "an attack needs at least one weapon line",
            "004 'Attack'",
            "attack <weapon> at <target>",
        );
    }
    let mut lines = vec![];
    let mut used: BTreeMap<String, u32> = BTreeMap::new();
    let my_type = card(state, u)
        .map(|c| c.unit_type)
        .unwrap_or(UnitType::Squad);
    for f in fire {
        let Some((shooter, w)) = find_weapon(state, &u.id, &f.weapon) else {
            let names: Vec<String> = weapons_of_group(state, &u.id)
                .iter()
                .map(|(_, w)| w.id.clone())
                .collect();
            return refuse(
                format!("{} has no weapon `{}`", u.id, f.weapon),
                "004 'Attack'",
                format!("use one of: {}", names.join(", ")),
            );
        };
        if let Some(boxes) = w.ammo {
            let left = state
                .unit(&shooter)
                .and_then(|s| s.ammo.get(&w.id).copied())
                .unwrap_or(boxes);
            let n = used.entry(w.id.clone()).or_insert(0);
            *n += 1;
            if left == 0 || *n > left as u32 {
                return refuse(
                    format!(
                        "weapon out of ammo: {} has no ammo box left for {}",
                        shooter, w.name
                    ),
                    "004 'Limited ammo'",
                    "fire another weapon line",
                );
            }
        }
        if charge && !matches!(w.range, WeaponRange::Close | WeaponRange::Upto(1)) {
            return refuse(
                format!(
                    "a Charge attack uses only range 1 and range C weapons; {} has range {}",
                    w.name,
                    range_text(w.range)
                ),
                "004 'Charge'",
                "drop that weapon line",
            );
        }
        let (target, to, tsighter_type) = match &f.target {
            TargetRef::Unit(t) | TargetRef::Model { unit: t, .. } => {
                let Some(tu) = state.unit(t) else {
                    return refuse(
                        format!("there is no unit `{t}`"),
                        "004 'Attack'",
                        "aim at an enemy unit on the board",
                    );
                };
                if tu.side == u.side {
                    return refuse(
                        format!("{} is a friendly unit", tu.id),
                        "004 'Attack': attacks target enemy units",
                        "aim at an enemy unit",
                    );
                }
                let (Some(at), false) = (tu.at, tu.destroyed) else {
                    return refuse(
                        format!("{} is not on the board", tu.id),
                        "004 'Attack'",
                        "aim at an enemy unit on the board",
                    );
                };
                let lead = leader_of(state, &tu.id).unwrap_or_else(|| tu.id.clone());
                let armour = armour_of(state, &lead);
                if let Some(a) = armour {
                    if w.against(a) == Fire::No {
                        return refuse(
                            format!("{} cannot damage {} (armour {:?})", w.name, lead, a),
                            "004 'Weapon lines': `-` cannot damage",
                            "choose a weapon line with dice against that armour",
                        );
                    }
                }
                let target = match &f.target {
                    TargetRef::Model { model, .. } => {
                        if !has_skill(state, &shooter, "sniper") {
                            return refuse(
                                format!("{shooter} is not a sniper: only a Sniper names a model"),
                                "004 'Sniper'",
                                format!("attack {} at {lead}", w.id),
                            );
                        }
                        let models: Vec<String> = group(state, &lead)
                            .iter()
                            .filter_map(|m| state.unit(m))
                            .flat_map(|x| {
                                if x.models.is_empty() {
                                    vec![x.id.clone()]
                                } else {
                                    x.models.clone()
                                }
                            })
                            .collect();
                        if !models.iter().any(|m| m.eq_ignore_ascii_case(model)) {
                            return refuse(
                                format!("{lead} has no model `{model}` alive"),
                                "004 'Sniper'",
                                format!("name one of: {}", models.join(", ")),
                            );
                        }
                        Target::Model {
                            unit: lead.clone(),
                            model: model.clone(),
                        }
                    }
                    _ => Target::Unit { unit: lead.clone() },
                };
                (target, at, unit_type(state, &lead))
            }
            TargetRef::Square(sq) => {
                if state.scenario.board.cover_at(*sq).is_none() {
                    return refuse(
                        format!("there is no cover element on {sq}"),
                        "000 'Cover elements'",
                        "aim at a unit, or a square with an ammo crate or tank trap",
                    );
                }
                if w.traits.contains(&WeaponTrait::Flamethrower)
                    && state.scenario.board.cover_at(*sq).map(|c| c.kind)
                        == Some(super::model::CoverKind::TankTrap)
                {
                    return refuse(
                        "flamethrowers cannot damage anti-tank traps",
                        "004 'Flamethrower'",
                        "choose another weapon",
                    );
                }
                (Target::Square { at: *sq }, *sq, UnitType::Vehicle)
            }
        };
        let dist = geometry::distance(from, to);
        if !geometry::in_range(w.range, dist) {
            return refuse(
                format!(
                    "not in range: {} at {from} is {dist} squares from {to}, {} range {}",
                    u.id,
                    w.name,
                    range_text(w.range)
                ),
                "004 'Range'",
                "move closer first, or choose a target in range",
            );
        }
        if let Sight::Blocked { at, why } = geometry::line_of_sight(
            &state.scenario.board,
            occ,
            Sighter {
                square: from,
                unit_type: my_type,
            },
            Sighter {
                square: to,
                unit_type: tsighter_type,
            },
        ) {
            return refuse(
                format!("no line of sight past {at} from {from} to {to}: {why}"),
                "004 'Line of sight'",
                "choose a target in sight, or move first",
            );
        }
        check_spray(state, u, from, &w, &f.through, to, occ)?;
        if lines
            .iter()
            .any(|l: &LineOrder| l.shooter == shooter && l.weapon == w.id)
        {
            return refuse(
                format!("{} is declared twice in one attack", w.name),
                "004 'Attack': each weapon line attacks once per ATTACK",
                "declare each weapon line once",
            );
        }
        lines.push(LineOrder {
            shooter,
            weapon: w.id.clone(),
            target,
            through: f.through.clone(),
        });
    }
    // 000 "Limited ammo weapons": no more limited-ammo weapons per attack than models alive
    // (combat R38).
    let mut limited = 0u32;
    for l in &lines {
        let (Some(su), Some((_, w))) = (
            state.unit(&l.shooter),
            find_weapon(state, &l.shooter, &l.weapon),
        ) else {
            continue;
        };
        if w.ammo.is_some() {
            let left = su.ammo.get(&w.id).copied().unwrap_or(0) as u32;
            limited += carriers(state, su, &w).min(left);
        }
    }
    let alive: u32 = group(state, &u.id)
        .iter()
        .filter_map(|m| state.unit(m))
        .map(|m| model_count(state, m))
        .sum();
    if limited > alive {
        return refuse(
            format!("the attack fires {limited} limited-ammo weapons but only {alive} model(s) are alive"),
            "000 'Limited ammo weapons': no more per attack than miniatures in the squad",
            "drop a limited-ammo weapon line",
        );
    }
    Ok(lines)
}

/// The squares a flamethrower's flames spread to besides its target (000 "Flamethrowers", R103):
/// only a flamethrower reaching beyond 1 square sprays; the squares, target included, are at
/// most its range in number, distinct, each in range and each visible from the shooter on its
/// own ("you still need to be able to target each square independently"), so the flame never
/// goes past a square blocking line of sight.
fn check_spray(
    state: &State,
    u: &UnitState,
    from: Square,
    w: &WeaponLine,
    through: &[Square],
    target: Square,
    occ: &Occupancy,
) -> Result<(), Refusal> {
    if through.is_empty() {
        return Ok(());
    }
    let rule = "000 'Flamethrowers': you choose the squares where the flames spread, each must be targetable on its own";
    let reach = match w.range {
        WeaponRange::Upto(n) => n as usize,
        WeaponRange::Between(_, n) => n as usize,
        _ => 1,
    };
    if !w.traits.contains(&WeaponTrait::Flamethrower) || reach < 2 {
        return refuse(
            format!(
                "{} does not spray: only a flamethrower with a range beyond 1 square chooses squares with `through`",
                w.name
            ),
            rule,
            format!("attack {} at <target>", w.id),
        );
    }
    if through.len() + 1 > reach {
        return refuse(
            format!(
                "{} has range {reach}: the flames reach at most {reach} squares, the target's included, and {} are named",
                w.name,
                through.len() + 1
            ),
            rule,
            format!("name at most {} square(s) after `through`", reach - 1),
        );
    }
    let my_type = card(state, u)
        .map(|c| c.unit_type)
        .unwrap_or(UnitType::Squad);
    let mut seen = vec![target];
    for sq in through {
        if seen.contains(sq) || *sq == from {
            return refuse(
                format!("{sq} is named twice or is the shooter's own square"),
                rule,
                "name each other square once",
            );
        }
        seen.push(*sq);
        let dist = geometry::distance(from, *sq);
        if !geometry::in_range(w.range, dist) {
            return refuse(
                format!(
                    "{sq} is {dist} squares from {from}, beyond {}'s range",
                    w.name
                ),
                rule,
                "choose squares within range",
            );
        }
        let there = occ
            .get(sq)
            .and_then(|v| v.first())
            .map(|o| o.unit_type)
            .unwrap_or(UnitType::Squad);
        if let Sight::Blocked { at, why } = geometry::line_of_sight(
            &state.scenario.board,
            occ,
            Sighter {
                square: from,
                unit_type: my_type,
            },
            Sighter {
                square: *sq,
                unit_type: there,
            },
        ) {
            return refuse(
                format!("the flames cannot reach {sq}: line of sight is blocked at {at} ({why})"),
                rule,
                "choose squares the shooter can see",
            );
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Running an activation
// ---------------------------------------------------------------------------------------------

fn take_activation(state: &mut State) -> Option<Box<Activation>> {
    match std::mem::replace(&mut state.phase, Phase::Activations) {
        Phase::Activation(a) => Some(a),
        other => {
            state.phase = other;
            None
        }
    }
}

/// Runs the current activation until it waits for a decision or ends.
pub fn run(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    // A bound on steps: every step is consumed or waits, so this only guards against bugs.
    for _ in 0..10_000 {
        if matches!(state.phase, Phase::Activations) && state.next_side.is_none() {
            // Nobody can activate: the round is over.
            end_round(state, dice, out);
            return;
        }
        let Some(mut act) = take_activation(state) else {
            return;
        };
        if act.wait.is_some() && !auto_answer(state, &mut act, dice, out) {
            state.phase = Phase::Activation(act);
            return;
        }
        if act.steps.is_empty() {
            finish_activation(state, &act, dice, out);
            return;
        }
        let step = act.steps.remove(0);
        exec_step(state, &mut act, step, dice, out);
        state.phase = Phase::Activation(act);
    }
}

fn active_alive(state: &State, act: &Activation) -> bool {
    group(state, &act.unit)
        .iter()
        .any(|m| alive_on_board(state, m))
        || state
            .unit(&act.unit)
            .map(|u| !u.destroyed && u.at.is_none())
            .unwrap_or(false)
}

fn exec_step(
    state: &mut State,
    act: &mut Activation,
    step: Step,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let alive = active_alive(state, act);
    let lead = act.unit.clone();
    match step {
        Step::Enter { to } => {
            if !alive {
                return;
            }
            for m in group(state, &lead) {
                if let Some(x) = state.unit_mut(&m) {
                    x.at = Some(to);
                    x.moved = true;
                }
            }
            say(out, format!("{lead} enters the battlefield at {to}"));
        }
        Step::Move { path, crushed } => {
            if !alive || !alive_on_board(state, &lead) {
                return;
            }
            let Some(to) = path.last().copied() else {
                return;
            };
            for m in group(state, &lead) {
                if let Some(x) = state.unit_mut(&m) {
                    x.at = Some(to);
                    x.moved = true;
                }
            }
            for sq in crushed {
                state.scenario.board.cover.remove(&sq);
                say(out, format!("{lead} crushes the ammo crate on {sq}"));
            }
            say(
                out,
                format!(
                    "{lead} moves to {to} ({})",
                    path.iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            );
            // It stops unless the next action is another MOVE (004 "Move").
            let next_is_move = act
                .steps
                .iter()
                .find(|s| !matches!(s, Step::Window))
                .map(|s| matches!(s, Step::Move { .. }))
                .unwrap_or(false);
            if !next_is_move {
                for m in group(state, &lead) {
                    if let Some(x) = state.unit_mut(&m) {
                        x.stopped = true;
                    }
                }
            }
        }
        Step::Attack { lines, sustained } => {
            let shooter_alive = lines.iter().any(|l| alive_on_board(state, &l.shooter));
            if !shooter_alive {
                return;
            }
            let mut ranged = vec![];
            let mut close = vec![];
            let mut cover = vec![];
            for l in lines {
                let w = find_weapon(state, &l.shooter, &l.weapon).map(|(_, w)| w);
                if matches!(l.target, Target::Square { .. }) {
                    cover.push(l);
                } else if w.map(|w| w.range == WeaponRange::Close).unwrap_or(false) {
                    close.push(l);
                } else {
                    ranged.push(l);
                }
            }
            // 004 "Close combat": other weapons first and their casualties removed, then range C
            // on both sides at once; attacks on cover elements last (R57).
            let mut pre = vec![];
            if !ranged.is_empty() {
                pre.push(Step::Fire {
                    lines: ranged,
                    sustained,
                });
                pre.push(Step::Remove);
            }
            if !close.is_empty() {
                pre.push(Step::Close {
                    lines: close,
                    sustained,
                });
                pre.push(Step::Remove);
            }
            if !cover.is_empty() {
                pre.push(Step::Fire {
                    lines: cover,
                    sustained,
                });
            }
            pre.append(&mut act.steps);
            act.steps = pre;
        }
        Step::Fire { lines, sustained } => {
            for l in &lines {
                fire_line(state, act, l, sustained, true, dice, out);
            }
        }
        Step::Close { lines, sustained } => {
            let mut defenders: Vec<String> = vec![];
            let attacker = lines.first().and_then(|l| leader_of(state, &l.shooter));
            for l in &lines {
                fire_line(state, act, l, sustained, false, dice, out);
                if let Target::Unit { unit } | Target::Model { unit, .. } = &l.target {
                    if !defenders.contains(unit) {
                        defenders.push(unit.clone());
                    }
                }
            }
            // Retaliation (R56): each adjacent defender may answer with its range C lines; its
            // owner decides (R101), and the damage is removed with the attack's (simultaneous).
            let Some(attacker) = attacker else { return };
            let mut checks: Vec<Step> = defenders
                .into_iter()
                .map(|unit| Step::Retaliate {
                    unit,
                    attacker: attacker.clone(),
                })
                .collect();
            checks.append(&mut act.steps);
            act.steps = checks;
        }
        Step::Retaliate { unit, attacker } => {
            if !retaliation_lines(state, &unit, &attacker).is_empty() {
                let side = state
                    .unit(&unit)
                    .map(|u| u.side.clone())
                    .unwrap_or_default();
                say(
                    out,
                    format!("{side} may have {unit} retaliate in close combat against {attacker}"),
                );
                act.wait = Some(Wait::Retaliate {
                    side,
                    unit,
                    attacker,
                });
            }
        }
        Step::Remove => {
            remove_casualties(state, act, out);
        }
        Step::Window => {
            if !alive || !alive_on_board(state, &lead) {
                return;
            }
            if let Some((side, candidates)) = react_candidates(state, act) {
                say(
                    out,
                    format!("reactive-fire window: {side} may react against {lead}"),
                );
                act.wait = Some(Wait::React { side, candidates });
            }
        }
        Step::TankHead { target } => {
            if !alive {
                return;
            }
            let full = state
                .unit(&target)
                .and_then(|t| card(state, t))
                .map(|c| c.health);
            if let (Some(full), Some(t)) = (full, state.unit_mut(&target)) {
                if !t.destroyed {
                    let healed = full.saturating_sub(t.health);
                    t.health = full;
                    say(
                        out,
                        format!("Tank Head: {lead} repairs {target}, {healed} health restored"),
                    );
                }
            }
        }
        Step::Detach { hero } => {
            if let Some(h) = state.unit_mut(&hero) {
                h.joined = None;
            }
            say(
                out,
                format!("{hero} leaves {lead} for good (004 'Heroes': separation)"),
            );
        }
        Step::Nothing => {}
    }
}

/// Resolves one line; damage to units is kept pending, cover elements take it at once.
fn fire_line(
    state: &mut State,
    act: &mut Activation,
    l: &LineOrder,
    sustained: bool,
    cover_counts: bool,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let Some(su) = state.unit(&l.shooter).cloned() else {
        return;
    };
    if su.destroyed {
        return;
    }
    let Some(from) = su.at else { return };
    let Some((_, w)) = find_weapon(state, &l.shooter, &l.weapon) else {
        return;
    };
    let mut n = carriers(state, &su, &w);
    if w.ammo.is_some() {
        let left = su.ammo.get(&w.id).copied().unwrap_or(0) as u32;
        n = n.min(left);
        if n == 0 {
            say(out, format!("{}: {} has no ammo left", l.shooter, w.name));
            return;
        }
        if let Some(x) = state.unit_mut(&l.shooter) {
            if let Some(a) = x.ammo.get_mut(&w.id) {
                *a = a.saturating_sub(n as u8);
            }
        }
    }
    if n == 0 {
        say(
            out,
            format!("{}: nobody left carries {}", l.shooter, w.name),
        );
        return;
    }
    let lead = leader_of(state, &l.shooter).unwrap_or_else(|| l.shooter.clone());
    let is_active = lead == act.unit;
    let hero_weapon = unit_type(state, &l.shooter) == UnitType::Hero;
    let opts = FireOptions {
        carriers: n,
        sustained,
        berserk: is_active && act.flags.berserk,
        reversed: has_skill(state, &lead, "spotter") && spotter_alive(state, &lead)
            || (is_active
                && act.flags.fighting_spirit
                && (hero_weapon || shared_spirit(state, &lead))),
        doubled: su.all_in_one_round == Some(state.round),
    };
    let by = su.side.clone();
    let round = state.round;
    // How the line is fired, restated for the reports: "4 carriers, sustained, berserk".
    let mut how = vec![format!("{n} carrier{}", if n == 1 { "" } else { "s" })];
    for (on, name) in [
        (opts.sustained, "sustained"),
        (opts.berserk, "berserk"),
        (opts.reversed, "reversed dice"),
        (opts.doubled, "double dice"),
    ] {
        if on {
            how.push(name.to_string());
        }
    }
    let how = how.join(", ");
    // Targets: the aimed unit, plus (flamethrower spray) every unit on the chosen squares.
    let mut targets: Vec<Target> = vec![l.target.clone()];
    if w.traits.contains(&WeaponTrait::Flamethrower) {
        for sq in &l.through {
            for u in &state.units {
                if !u.destroyed
                    && u.joined.is_none()
                    && u.at == Some(*sq)
                    && !group(state, &l.shooter).contains(&u.id)
                {
                    let t = Target::Unit { unit: u.id.clone() };
                    if !targets.iter().any(|x| target_text(x) == target_text(&t)) {
                        targets.push(t);
                    }
                }
            }
        }
    }
    for t in targets {
        match &t {
            Target::Square { at } => {
                let Some(ce) = state.scenario.board.cover_at(*at) else {
                    say(
                        out,
                        format!("{}: the cover element on {at} is already gone", w.name),
                    );
                    continue;
                };
                let (_, health) = ce.kind.armour_health();
                // No save; explosives re-roll misses against a tank trap (004, combat R37).
                let o = combat::resolve_cover_attack(&w, ce.kind, ce.damage, &opts, round, dice);
                out.happenings.push(Happening {
                    text: format!(
                        "{} fires {} ({how}) at the cover element on {at}: {}",
                        l.shooter, w.name, o.summary
                    ),
                    rolls: o.rolls,
                });
                let dmg = ce.damage as u32 + o.damage;
                if dmg >= health as u32 || o.eliminate {
                    state.scenario.board.cover.remove(at);
                    say(out, format!("the cover element on {at} is destroyed"));
                } else if let Some(c) = state.scenario.board.cover.get_mut(at) {
                    c.damage = dmg as u8;
                }
            }
            Target::Unit { unit } | Target::Model { unit, .. } => {
                let Some(tu) = state.unit(unit).cloned() else {
                    continue;
                };
                if tu.destroyed || tu.at.is_none() {
                    say(
                        out,
                        format!("{} at {}: {} is already destroyed", w.name, unit, unit),
                    );
                    continue;
                }
                let Some(tc) = card(state, &tu).cloned() else {
                    continue;
                };
                let hero = state.hero_of(&tu.id).cloned();
                let models = model_count(state, &tu) + hero.is_some() as u32;
                let remaining = if tc.unit_type == UnitType::Squad {
                    tu.models.len() as u32 + hero.as_ref().map(|h| h.health as u32).unwrap_or(0)
                } else {
                    tu.health as u32
                };
                let close = w.range == WeaponRange::Close;
                let cover = if cover_counts && !close && tc.unit_type == UnitType::Squad {
                    let occ = occupancy(state, &[]);
                    geometry::cover_for(
                        &state.scenario.board,
                        &occ,
                        Sighter {
                            square: from,
                            unit_type: unit_type(state, &l.shooter),
                        },
                        Sighter {
                            square: tu.at.unwrap_or(from),
                            unit_type: tc.unit_type,
                        },
                    )
                } else {
                    Cover::None
                };
                // A lone hero has no cover saves (004 "Heroes").
                let lone_hero = tc.unit_type == UnitType::Hero;
                let profile = TargetProfile {
                    armour: tc.armour,
                    unit_type: tc.unit_type,
                    models,
                    remaining,
                    cover,
                    soft_save: if lone_hero { Save::None } else { tc.soft_save },
                    hard_save: if lone_hero { Save::None } else { tc.hard_save },
                    damage_resilient: tc.has_skill("damage-resilient"),
                };
                let o = combat::resolve_line(&w, &profile, &opts, round, dice);
                out.happenings.push(Happening {
                    text: format!(
                        "{} fires {} ({how}) at {}: {}",
                        l.shooter,
                        w.name,
                        target_text(&t),
                        o.summary
                    ),
                    rolls: o.rolls,
                });
                let p = act.damage.entry(tu.id.clone()).or_insert_with(|| Pending {
                    by: by.clone(),
                    ..Default::default()
                });
                if o.eliminate {
                    p.eliminate = true;
                }
                match &t {
                    Target::Model { model, .. } if t == l.target => {
                        for _ in 0..o.damage {
                            p.sniped.push(model.clone());
                        }
                    }
                    _ => p.points += o.damage,
                }
            }
        }
    }
}

/// Fighting Spirit is shared with the squad its hero joins (004 "Fighting Spirit").
fn shared_spirit(state: &State, lead: &str) -> bool {
    state
        .hero_of(lead)
        .and_then(|h| card(state, h))
        .map(|c| c.has_skill("fighting-spirit"))
        .unwrap_or(false)
}

/// The Spotter ability lasts while the spotter model lives (000 "Spotter"): the model whose id
/// or carried lines name "spotter"; a card naming none keeps it while the squad lives.
fn spotter_alive(state: &State, id: &str) -> bool {
    let Some(u) = state.unit(id) else {
        return false;
    };
    let Some(c) = card(state, u) else {
        return false;
    };
    let spotters: Vec<&str> = c
        .models
        .iter()
        .filter(|m| m.id.contains("spotter") || m.carries.iter().any(|x| x.contains("spotter")))
        .map(|m| m.id.as_str())
        .collect();
    spotters.is_empty() || spotters.iter().any(|s| u.models.iter().any(|m| m == s))
}

// ---------------------------------------------------------------------------------------------
// Casualties
// ---------------------------------------------------------------------------------------------

/// The models a squad loses by default: plain models first, last listed first; special-weapon
/// carriers last; a joined hero's health after all squad models (R58).
pub fn default_casualties(state: &State, unit: &str, points: u32) -> Vec<String> {
    let Some(u) = state.unit(unit) else {
        return vec![];
    };
    let mut order: Vec<String> = vec![];
    if let Some(c) = card(state, u) {
        let special = |m: &str| {
            c.models
                .iter()
                .find(|x| x.id == m)
                .map(|x| {
                    x.carries
                        .iter()
                        .any(|w| c.weapon(w).map(|w| w.carriers.is_some()).unwrap_or(false))
                })
                .unwrap_or(false)
        };
        let plain: Vec<String> = u
            .models
            .iter()
            .rev()
            .filter(|m| !special(m))
            .cloned()
            .collect();
        let spec: Vec<String> = u
            .models
            .iter()
            .rev()
            .filter(|m| special(m))
            .cloned()
            .collect();
        order.extend(plain);
        order.extend(spec);
        if c.unit_type != UnitType::Squad {
            for _ in 0..u.health {
                order.push(u.id.clone());
            }
        }
    }
    if let Some(h) = state.hero_of(unit) {
        for _ in 0..h.health {
            order.push(h.id.clone());
        }
    }
    order.truncate(points as usize);
    order
}

/// Whether the owner's choice of casualties could change anything (R58).
fn choice_matters(state: &State, unit: &str, points: u32) -> bool {
    let Some(u) = state.unit(unit) else {
        return false;
    };
    let Some(c) = card(state, u) else {
        return false;
    };
    let hero = state.hero_of(unit);
    let total = u.models.len() as u32 + hero.map(|h| h.health as u32).unwrap_or(0);
    if c.unit_type != UnitType::Squad || points == 0 || points >= total {
        return false;
    }
    if hero.is_some() && !u.models.is_empty() {
        return true;
    }
    let kit = |m: &String| {
        let mut k = c
            .models
            .iter()
            .find(|x| &x.id == m)
            .map(|x| x.carries.clone())
            .unwrap_or_default();
        k.sort();
        k
    };
    let first = u.models.first().map(kit);
    u.models.iter().any(|m| Some(kit(m)) != first)
}

fn remove_casualties(state: &mut State, act: &mut Activation, out: &mut Outcome) {
    while let Some((unit, mut p)) = act
        .damage
        .iter()
        .next()
        .map(|(k, v)| (k.clone(), v.clone()))
    {
        // Sniper hits land on the named models; a whole-unit elimination needs no choice.
        let side = state
            .unit(&unit)
            .map(|u| u.side.clone())
            .unwrap_or_default();
        let ask = asks_casualties(state, &side, &unit);
        if ask && p.points > 0 && !p.eliminate && choice_matters(state, &unit, p.points) {
            // Snipes first so the owner chooses among the models that are left.
            apply_named(state, &unit, &p.sniped, &p.by, out);
            p.sniped.clear();
            if let Some(e) = act.damage.get_mut(&unit) {
                e.sniped.clear();
            }
            if choice_matters(state, &unit, p.points) {
                act.steps.insert(0, Step::Remove);
                say(
                    out,
                    format!(
                        "{side} chooses which models of {unit} take {} damage",
                        p.points
                    ),
                );
                act.wait = Some(Wait::Casualties {
                    side,
                    unit,
                    points: p.points,
                });
                return;
            }
        }
        act.damage.remove(&unit);
        if p.eliminate {
            for m in group(state, &unit) {
                destroy(state, &m, &p.by, out);
            }
            continue;
        }
        apply_named(state, &unit, &p.sniped, &p.by, out);
        let pref = casualty_pref(state, &side, &unit);
        let list = preferred_casualties(state, &unit, p.points, &pref);
        apply_named(state, &unit, &list, &p.by, out);
    }
}

/// Removes the named models (a hero or vehicle id marks one health point each).
fn apply_named(state: &mut State, unit: &str, names: &[String], by: &str, out: &mut Outcome) {
    // The hero is looked up once: points named for him still land after his squad is wiped out.
    let hero = state.hero_of(unit).map(|h| h.id.clone());
    for n in names {
        let is_hero = hero
            .as_deref()
            .map(|h| h.eq_ignore_ascii_case(n))
            .unwrap_or(false);
        let Some(u) = state.unit(unit).cloned() else {
            return;
        };
        let health_id = if is_hero {
            hero.clone()
        } else if u.models.is_empty() && u.id.eq_ignore_ascii_case(n) {
            Some(u.id.clone())
        } else {
            None
        };
        match health_id {
            Some(id) => {
                let dead = match state.unit_mut(&id) {
                    Some(x) if !x.destroyed => {
                        x.health = x.health.saturating_sub(1);
                        x.health == 0
                    }
                    _ => continue,
                };
                if dead {
                    destroy(state, &id, by, out);
                } else {
                    say(out, format!("{id} loses 1 health"));
                }
            }
            None => {
                let Some(x) = state.unit_mut(unit).filter(|x| !x.destroyed) else {
                    continue;
                };
                if let Some(i) = x.models.iter().position(|m| m.eq_ignore_ascii_case(n)) {
                    let m = x.models.remove(i);
                    x.health = x.models.len() as u8;
                    let empty = x.models.is_empty();
                    say(out, format!("{unit} loses model {m}"));
                    if empty {
                        destroy(state, unit, by, out);
                    }
                }
            }
        }
    }
}

fn destroy(state: &mut State, id: &str, by: &str, out: &mut Outcome) {
    let round = state.round;
    let Some(u) = state.unit(id).cloned() else {
        return;
    };
    if u.destroyed {
        return;
    }
    let ap = card(state, &u).map(|c| c.ap).unwrap_or(0);
    if let Some(x) = state.unit_mut(id) {
        x.destroyed = true;
        x.at = None;
        x.models.clear();
        x.health = 0;
        x.joined = None;
    }
    // A hero whose squad is wiped out fights on alone (004 "Heroes").
    for h in state.units.iter_mut() {
        if h.joined.as_deref() == Some(&u.id) {
            h.joined = None;
        }
    }
    state.destroyed.push(Destruction {
        unit: u.id.clone(),
        side: u.side.clone(),
        by: by.to_string(),
        ap,
        round,
    });
    say(out, format!("{} is destroyed ({ap} AP)", u.id));
}

fn cmd_casualties(
    state: &mut State,
    side: &str,
    unit: &str,
    models: &[String],
    out: &mut Outcome,
) -> Result<String, Refusal> {
    let rule = "004 'Attacking': the owner removes casualties";
    let Phase::Activation(act) = &state.phase else {
        return refuse(
            "no casualties are awaited",
            rule,
            "see the awaited decisions in the last report",
        );
    };
    let Some(Wait::Casualties {
        side: ws,
        unit: wu,
        points,
    }) = &act.wait
    else {
        return refuse(
            "no casualties are awaited",
            rule,
            "see the awaited decisions in the last report",
        );
    };
    if ws != side {
        return refuse(
            format!("{ws} chooses these casualties, not {side}"),
            rule,
            "wait for the next report",
        );
    }
    if !wu.eq_ignore_ascii_case(unit) {
        return refuse(
            format!("casualties are awaited for {wu}, not {unit}"),
            rule,
            format!("casualties {wu}: …"),
        );
    }
    let (wu, points) = (wu.clone(), *points);
    let options = default_casualties(state, &wu, u32::MAX);
    if models.len() as u32 != points {
        return refuse(
            format!("{wu} takes {points} damage: name exactly {points} model(s) (a hero's id once per health point)"),
            rule,
            format!("casualties {wu}: {}", default_casualties(state, &wu, points).join(" ")),
        );
    }
    // Each name must be available as many times as it is named.
    let mut pool = options.clone();
    for m in models {
        match pool.iter().position(|x| x.eq_ignore_ascii_case(m)) {
            Some(i) => {
                pool.remove(i);
            }
            None => {
                return refuse(
                    format!("`{m}` is not a model of {wu} that can still be removed"),
                    rule,
                    format!(
                        "casualties {wu}: {}",
                        default_casualties(state, &wu, points).join(" ")
                    ),
                )
            }
        }
    }
    let mut act = match take_activation(state) {
        Some(a) => a,
        None => return refuse("no casualties are awaited", rule, "wait"),
    };
    answer_casualties(state, &mut act, &wu, models, out);
    state.phase = Phase::Activation(act);
    Ok(format!("casualties {wu}: {}", models.join(" ")))
}

/// Removes the chosen models; the pending Remove step then resumes with the other units.
fn answer_casualties(
    state: &mut State,
    act: &mut Activation,
    unit: &str,
    models: &[String],
    out: &mut Outcome,
) {
    act.wait = None;
    let by = act.damage.remove(unit).map(|p| p.by).unwrap_or_default();
    apply_named(state, unit, models, &by, out);
}

// ---------------------------------------------------------------------------------------------
// Reactive fire
// ---------------------------------------------------------------------------------------------

/// The side that may react and its eligible units (004 "Reactive fire": not yet activated, with
/// a weapon that can reach and damage the activating unit, in LOS). R54: one attempt per window.
fn react_candidates(state: &State, act: &Activation) -> Option<(String, Vec<String>)> {
    let target = state.unit(&act.unit)?;
    let to = target.at?;
    let armour = armour_of(state, &act.unit)?;
    let occ = occupancy(state, &[]);
    for side in sides_list(state) {
        if side == act.side {
            continue;
        }
        let mut c = vec![];
        for u in &state.units {
            if u.side != side || !leads(u) || u.activated || act.reacted.contains(&u.id) {
                continue;
            }
            let Some(from) = u.at else { continue };
            if !reactive_lines(state, &u.id, from, to, armour, &occ).is_empty() {
                c.push(u.id.clone());
            }
        }
        if !c.is_empty() {
            return Some((side, c));
        }
    }
    None
}

fn reactive_lines(
    state: &State,
    unit: &str,
    from: Square,
    to: Square,
    armour: super::model::Armour,
    occ: &Occupancy,
) -> Vec<(String, WeaponLine)> {
    let dist = geometry::distance(from, to);
    let my_type = unit_type(state, unit);
    let target_type = match armour {
        super::model::Armour::Soldier(_) => UnitType::Squad,
        _ => UnitType::Vehicle,
    };
    let sight = geometry::line_of_sight(
        &state.scenario.board,
        occ,
        Sighter {
            square: from,
            unit_type: my_type,
        },
        Sighter {
            square: to,
            unit_type: target_type,
        },
    );
    if sight != Sight::Clear {
        return vec![];
    }
    weapons_of_group(state, unit)
        .into_iter()
        .filter(|(s, w)| {
            geometry::in_range(w.range, dist)
                && w.against(armour) != Fire::No
                && (w.ammo.is_none()
                    || state
                        .unit(s)
                        .and_then(|x| x.ammo.get(&w.id))
                        .copied()
                        .unwrap_or(0)
                        > 0)
        })
        .collect()
}

fn cmd_react(
    state: &mut State,
    side: &str,
    unit: Option<&str>,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> Result<String, Refusal> {
    let rule = "004 'Reactive fire'";
    let Phase::Activation(act) = &state.phase else {
        return refuse(
            "no reactive-fire window is open",
            rule,
            "wait for a window in a report",
        );
    };
    let Some(Wait::React {
        side: ws,
        candidates,
    }) = &act.wait
    else {
        return refuse(
            "no reactive-fire window is open",
            rule,
            "wait for a window in a report",
        );
    };
    if ws != side {
        return refuse(
            format!("the window is {ws}'s, not {side}'s"),
            rule,
            "wait for the next report",
        );
    }
    let chosen = match unit {
        None => None,
        Some(u) => match candidates.iter().find(|c| c.eq_ignore_ascii_case(u)) {
            Some(c) => Some(c.clone()),
            None => {
                return refuse(
                    format!("{u} cannot react: it must be unactivated with a weapon in range and sight that can damage {}", act.unit),
                    rule,
                    format!("react <one of {}> or react none", candidates.join(", ")),
                )
            }
        },
    };
    let Some(mut act) = take_activation(state) else {
        return refuse("no reactive-fire window is open", rule, "wait");
    };
    let text = answer_react(state, &mut act, side, chosen, dice, out);
    state.phase = Phase::Activation(act);
    Ok(text)
}

/// Closes the window: declines, or makes the reactive-fire attempt with `chosen`.
fn answer_react(
    state: &mut State,
    act: &mut Activation,
    side: &str,
    chosen: Option<String>,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> String {
    act.wait = None;
    let Some(r) = chosen else {
        say(out, format!("{side} does not react"));
        return "react none".into();
    };
    act.reacted.push(r.clone());
    // The attempt activates the unit, hit or miss.
    for m in group(state, &r) {
        if let Some(x) = state.unit_mut(&m) {
            x.activated = true;
        }
    }
    let n = if has_skill(state, &r, "superior-reactive-fire") {
        3
    } else if has_skill(state, &r, "advanced-reactive-fire") {
        2
    } else {
        1
    };
    let round = state.round;
    let faces: Vec<u8> = (0..n).map(|_| dice.d6(round)).collect();
    let hit = faces.iter().any(|f| combat::is_hit(*f));
    out.happenings.push(Happening {
        text: format!(
            "{r} attempts reactive fire at {}: {}",
            act.unit,
            if hit {
                "HIT, it fires"
            } else {
                "MISS, no fire"
            }
        ),
        rolls: vec![Roll {
            purpose: format!("reactive fire {r}"),
            round,
            faces,
        }],
    });
    if hit {
        let from = state.unit(&r).and_then(|u| u.at);
        let to = state.unit(&act.unit).and_then(|u| u.at);
        let armour = armour_of(state, &act.unit);
        if let (Some(from), Some(to), Some(armour)) = (from, to, armour) {
            let occ = occupancy(state, &[]);
            let lines: Vec<LineOrder> = reactive_lines(state, &r, from, to, armour, &occ)
                .into_iter()
                .map(|(s, w)| LineOrder {
                    shooter: s,
                    weapon: w.id,
                    target: Target::Unit {
                        unit: act.unit.clone(),
                    },
                    through: vec![],
                })
                .collect();
            if !lines.is_empty() {
                act.steps.insert(
                    0,
                    Step::Attack {
                        lines,
                        sustained: false,
                    },
                );
            }
        }
    }
    format!("react {r}")
}

// ---------------------------------------------------------------------------------------------
// Close-combat retaliation
// ---------------------------------------------------------------------------------------------

/// The range C lines with which `unit` (alive, adjacent to `attacker`) can retaliate: lines that
/// can damage the attacker and still have ammo (004 "Close combat", R56).
fn retaliation_lines(state: &State, unit: &str, attacker: &str) -> Vec<LineOrder> {
    let d_at = state.unit(unit).filter(|x| !x.destroyed).and_then(|x| x.at);
    let a_at = state
        .unit(attacker)
        .filter(|x| !x.destroyed)
        .and_then(|x| x.at);
    let (Some(d_at), Some(a_at)) = (d_at, a_at) else {
        return vec![];
    };
    if !d_at.adjacent(a_at) {
        return vec![];
    }
    let Some(armour) = armour_of(state, attacker) else {
        return vec![];
    };
    weapons_of_group(state, unit)
        .into_iter()
        .filter(|(shooter, w)| {
            w.range == WeaponRange::Close
                && alive_on_board(state, shooter)
                && w.against(armour) != Fire::No
                && (w.ammo.is_none()
                    || state
                        .unit(shooter)
                        .and_then(|s| s.ammo.get(&w.id))
                        .copied()
                        .unwrap_or(0)
                        > 0)
        })
        .map(|(shooter, w)| LineOrder {
            shooter,
            weapon: w.id,
            target: Target::Unit {
                unit: attacker.to_string(),
            },
            through: vec![],
        })
        .collect()
}

fn cmd_retaliate(
    state: &mut State,
    side: &str,
    named: Option<&str>,
    yes: bool,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> Result<String, Refusal> {
    let rule = "004 'Close combat': the defender may attack back with its range C weapons";
    let waiting = match &state.phase {
        Phase::Activation(a) => match &a.wait {
            Some(Wait::Retaliate { side: ws, unit, .. }) => Some((ws.clone(), unit.clone())),
            _ => None,
        },
        _ => None,
    };
    let Some((ws, unit)) = waiting else {
        return refuse(
            "no close-combat retaliation is awaited",
            rule,
            "see the awaited decisions in the last report",
        );
    };
    if ws != side {
        return refuse(
            format!("{ws} decides whether {unit} retaliates, not {side}"),
            rule,
            "wait for the next report",
        );
    }
    if let Some(n) = named.filter(|n| !n.eq_ignore_ascii_case(&unit)) {
        return refuse(
            format!("the retaliation awaited is {unit}'s, not {n}'s"),
            rule,
            format!("retaliate {unit} yes"),
        );
    }
    let Some(mut act) = take_activation(state) else {
        return refuse("no close-combat retaliation is awaited", rule, "wait");
    };
    answer_retaliate(state, &mut act, yes, dice, out);
    state.phase = Phase::Activation(act);
    Ok(format!(
        "retaliate {unit} {}",
        if yes { "yes" } else { "no" }
    ))
}

/// Closes a retaliation decision: the defender's range C lines fire at the attacker, damage
/// pending until the Remove step that follows the close combat (simultaneous removal).
fn answer_retaliate(
    state: &mut State,
    act: &mut Activation,
    yes: bool,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let Some(Wait::Retaliate { unit, attacker, .. }) = act.wait.take() else {
        return;
    };
    if !yes {
        say(out, format!("{unit} does not retaliate"));
        return;
    }
    for l in retaliation_lines(state, &unit, &attacker) {
        let name = find_weapon(state, &l.shooter, &l.weapon)
            .map(|(_, w)| w.name)
            .unwrap_or_else(|| l.weapon.clone());
        say(
            out,
            format!("{unit} retaliates in close combat with {name}"),
        );
        fire_line(state, act, &l, false, false, dice, out);
    }
}

// ---------------------------------------------------------------------------------------------
// Standing orders, concession and draws
// ---------------------------------------------------------------------------------------------

/// A unit's standing policy: its own, else the side's `any`, else `None` (the R100 default).
fn policy_of(map: &BTreeMap<String, Policy>, unit: &str) -> Option<Policy> {
    map.get(unit).or_else(|| map.get("any")).copied()
}

/// Whether `side` asked to choose `unit`'s casualties by mail (R100: by default it is not asked).
fn asks_casualties(state: &State, side: &str, unit: &str) -> bool {
    state
        .standing
        .get(side)
        .map(|s| s.casualties_ask.iter().any(|u| u == unit || u == "any"))
        .unwrap_or(false)
}

/// The standing casualty order of `unit`, if its side set one.
fn casualty_pref(state: &State, side: &str, unit: &str) -> Vec<String> {
    state
        .standing
        .get(side)
        .and_then(|s| s.casualties.get(unit))
        .cloned()
        .unwrap_or_default()
}

/// How much harm `unit`'s reactive attack could do to the mover: dice × damage × carriers over
/// its eligible lines (an anti-tank incendiary counts as a kill). Integer, for R100's choice.
fn harm_score(state: &State, unit: &str, act: &Activation) -> u32 {
    let (Some(from), Some(to), Some(armour)) = (
        state.unit(unit).and_then(|u| u.at),
        state.unit(&act.unit).and_then(|u| u.at),
        armour_of(state, &act.unit),
    ) else {
        return 0;
    };
    let occ = occupancy(state, &[]);
    reactive_lines(state, unit, from, to, armour, &occ)
        .iter()
        .map(|(s, w)| {
            let n = state.unit(s).map(|u| carriers(state, u, w)).unwrap_or(1);
            let per = match w.against(armour) {
                Fire::No => 0,
                Fire::Dice { dice, damage } => dice as u32 * damage as u32,
                Fire::Incendiary { dice } => dice as u32,
                Fire::ApIncendiary { dice } => dice as u32 * 10,
            };
            per * n
        })
        .sum()
}

/// Answers a wait from the waiting side's standing orders or the R100 defaults; only `ask`
/// leaves it waiting. Returns true when the wait was answered.
fn auto_answer(
    state: &mut State,
    act: &mut Activation,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> bool {
    match act.wait.clone() {
        Some(Wait::React { side, candidates }) => {
            let st = state.standing.get(&side).cloned().unwrap_or_default();
            let pol = |c: &str| policy_of(&st.react, c);
            if candidates.iter().any(|c| pol(c) == Some(Policy::Ask)) {
                return false;
            }
            // The eligible unit most likely to hurt the mover; ties go to scenario order.
            let mut best: Option<(String, u32)> = None;
            for c in candidates
                .iter()
                .filter(|c| pol(c).unwrap_or(Policy::Yes) == Policy::Yes)
            {
                let score = harm_score(state, c, act);
                if best.as_ref().map(|b| score > b.1).unwrap_or(true) {
                    best = Some((c.clone(), score));
                }
            }
            match best {
                Some((c, _)) => {
                    if pol(&c).is_some() {
                        say(out, format!("standing order of {side}: react with {c}"));
                    } else {
                        say(
                            out,
                            format!(
                                "{side} reacts with {c}, the eligible unit most likely to hurt {} (default, R100)",
                                act.unit
                            ),
                        );
                    }
                    answer_react(state, act, &side, Some(c), dice, out);
                }
                None => {
                    say(out, format!("standing order of {side}: no reactive fire"));
                    answer_react(state, act, &side, None, dice, out);
                }
            }
            true
        }
        Some(Wait::Casualties { side, unit, points }) => {
            if asks_casualties(state, &side, &unit) {
                return false;
            }
            let pref = casualty_pref(state, &side, &unit);
            let list = preferred_casualties(state, &unit, points, &pref);
            say(
                out,
                format!("standing order of {side}: {unit} loses {}", list.join(" ")),
            );
            answer_casualties(state, act, &unit, &list, out);
            true
        }
        Some(Wait::Retaliate { side, unit, .. }) => {
            let pol = state
                .standing
                .get(&side)
                .and_then(|s| policy_of(&s.retaliate, &unit));
            let yes = match pol {
                Some(Policy::Ask) => return false,
                Some(Policy::Never) => {
                    say(
                        out,
                        format!("standing order of {side}: {unit} never retaliates"),
                    );
                    false
                }
                Some(Policy::Yes) => {
                    say(out, format!("standing order of {side}: {unit} retaliates"));
                    true
                }
                None => {
                    say(out, format!("{unit} retaliates (default, R100)"));
                    true
                }
            };
            answer_retaliate(state, act, yes, dice, out);
            true
        }
        None => false,
    }
}

/// The standing preference first (models still alive, in order), then the default order.
fn preferred_casualties(state: &State, unit: &str, points: u32, pref: &[String]) -> Vec<String> {
    let mut pool = default_casualties(state, unit, u32::MAX);
    let mut list = vec![];
    for p in pref {
        if let Some(i) = pool.iter().position(|m| m.eq_ignore_ascii_case(p)) {
            list.push(pool.remove(i));
        }
    }
    list.extend(pool);
    list.truncate(points as usize);
    list
}

/// The own unit a standing order names (`None` = `any`), or the refusal.
fn own_unit_key(
    state: &State,
    side: &str,
    unit: Option<&str>,
    rule: &str,
    ex: &str,
) -> Result<String, Refusal> {
    match unit {
        None => Ok("any".to_string()),
        Some(u) if u.eq_ignore_ascii_case("any") => Ok("any".to_string()),
        Some(u) => match state.unit(u) {
            Some(x) if x.side == side => Ok(x.id.clone()),
            Some(x) => refuse(
                format!(
                    "{} is not one of your units: a standing order names your own unit (or `any`)",
                    x.id
                ),
                rule,
                ex,
            ),
            None => refuse(format!("there is no unit `{u}`"), rule, ex),
        },
    }
}

/// `standing react <your unit|any> auto|never|ask` (R102): what that unit of yours does when a
/// reactive-fire window opens and it is eligible.
pub fn standing_react(
    state: &mut State,
    side: &str,
    unit: Option<&str>,
    policy: Policy,
) -> Result<String, Refusal> {
    let rule = "004 'Reactive fire' (standing orders, R102)";
    let key = own_unit_key(
        state,
        side,
        unit,
        rule,
        "standing react <your unit|any> auto|never|ask",
    )?;
    state
        .standing
        .entry(side.to_string())
        .or_default()
        .react
        .insert(key.clone(), policy);
    Ok(format!("standing react {key} {}", policy.react_word()))
}

/// The parsed `standing react` forms: the R102 form, and the older `<enemy|any> with <unit>`,
/// read as `<unit> auto`.
fn standing_react_order(
    state: &mut State,
    side: &str,
    trigger: Option<&str>,
    answer: &StandingReaction,
) -> Result<String, Refusal> {
    let rule = "004 'Reactive fire' (standing orders, R102)";
    let policy = match answer {
        StandingReaction::With(u) => return standing_react(state, side, Some(u), Policy::Yes),
        StandingReaction::Auto => Policy::Yes,
        StandingReaction::Never => Policy::Never,
        StandingReaction::Ask => Policy::Ask,
    };
    if let Some(t) = trigger {
        if let Some(x) = state.unit(t).filter(|x| x.side != side) {
            return refuse(
                format!(
                    "{} is an enemy unit: a standing react order now names your own unit, the one that reacts",
                    x.id
                ),
                rule,
                format!("standing react <your unit|any> {}", policy.react_word()),
            );
        }
    }
    standing_react(state, side, trigger, policy)
}

/// `standing retaliate <your unit|any> yes|no|ask` (R101).
pub fn standing_retaliate(
    state: &mut State,
    side: &str,
    unit: Option<&str>,
    policy: Policy,
) -> Result<String, Refusal> {
    let rule = "004 'Close combat' (standing orders, R101)";
    let key = own_unit_key(
        state,
        side,
        unit,
        rule,
        "standing retaliate <your unit|any> yes|no|ask",
    )?;
    state
        .standing
        .entry(side.to_string())
        .or_default()
        .retaliate
        .insert(key.clone(), policy);
    Ok(format!(
        "standing retaliate {key} {}",
        policy.retaliate_word()
    ))
}

/// `standing casualties <your unit|any> ask` (R100): this side chooses those casualties by mail
/// whenever the choice matters.
pub fn standing_casualties_ask(
    state: &mut State,
    side: &str,
    unit: Option<&str>,
) -> Result<String, Refusal> {
    let rule = "004 'Attacking' (standing orders, R100)";
    let key = own_unit_key(
        state,
        side,
        unit,
        rule,
        "standing casualties <your unit|any> ask",
    )?;
    let entry = state.standing.entry(side.to_string()).or_default();
    if !entry.casualties_ask.contains(&key) {
        entry.casualties_ask.push(key.clone());
    }
    Ok(format!("standing casualties {key} ask"))
}

/// `standing casualties <unit>: <model> …`: these models go first when `unit` loses models.
pub fn standing_casualties(
    state: &mut State,
    side: &str,
    unit: &str,
    models: &[String],
) -> Result<String, Refusal> {
    let rule = "004 'Attacking' (standing orders, R100)";
    let Some(u) = state.unit(unit).filter(|u| u.side == side) else {
        return refuse(
            format!("`{unit}` is not one of your units"),
            rule,
            "standing casualties <your unit>: <model> …",
        );
    };
    let id = u.id.clone();
    let known: Vec<String> = default_casualties(state, &id, u32::MAX);
    if let Some(m) = models
        .iter()
        .find(|m| !known.iter().any(|k| k.eq_ignore_ascii_case(m)))
    {
        return refuse(
            format!("`{m}` is not a model of {id}"),
            rule,
            format!("standing casualties {id}: {}", known.join(" ")),
        );
    }
    let entry = state.standing.entry(side.to_string()).or_default();
    // A casualty order is followed without asking (R100).
    entry.casualties_ask.retain(|u| u != &id);
    entry.casualties.insert(id.clone(), models.to_vec());
    Ok(format!("standing casualties {id}: {}", models.join(" ")))
}

/// `standing first <side>|ask`: who goes first when this side wins the initiative.
pub fn standing_first(
    state: &mut State,
    side: &str,
    first: Option<&str>,
    out: &mut Outcome,
) -> Result<String, Refusal> {
    let chosen = match first {
        None => None,
        Some(f) => match sides_list(state)
            .into_iter()
            .find(|s| s.eq_ignore_ascii_case(f))
        {
            Some(s) => Some(s),
            None => {
                return refuse(
                    format!("`{f}` is not a side of this game"),
                    "004 'Initiative' (standing orders, R66)",
                    format!("standing first {side}"),
                )
            }
        },
    };
    let text = match &chosen {
        Some(c) => format!("standing first {c}"),
        None => "standing first ask".to_string(),
    };
    let entry = state.standing.entry(side.to_string()).or_default();
    entry.first = chosen.clone();
    entry.first_ask = chosen.is_none();
    // A choice already awaited from this side is answered at once.
    if let (Phase::First { winner }, Some(c)) = (&state.phase, &chosen) {
        if winner == side {
            say(
                out,
                format!("standing order of {side}: {c} activates first"),
            );
            start_activations(state, c, out);
        }
    }
    Ok(text)
}

/// `concede`: the side gives up; the game ends at once (R67).
pub fn concede(state: &mut State, side: &str, out: &mut Outcome) -> Result<String, Refusal> {
    if state.result.is_some() {
        return refuse(
            "the game is over",
            "004 'End of the game'",
            "send nothing more to this game",
        );
    }
    let pts = points(state, false);
    let others: Vec<String> = sides_list(state)
        .into_iter()
        .filter(|s| s != side)
        .collect();
    let winner = if others.len() == 1 {
        others.first().cloned()
    } else {
        let top = others
            .iter()
            .map(|s| pts.get(s).copied().unwrap_or(0))
            .max();
        let best: Vec<&String> = others
            .iter()
            .filter(|s| Some(pts.get(*s).copied().unwrap_or(0)) == top)
            .collect();
        if best.len() == 1 {
            Some(best[0].clone())
        } else {
            None
        }
    };
    finish(state, winner, format!("{side} concedes"), pts, out);
    Ok("concede".into())
}

/// `offer draw`: stands until another side accepts it or the round ends.
pub fn offer_draw(state: &mut State, side: &str, out: &mut Outcome) -> Result<String, Refusal> {
    state.draw_offer = Some(side.to_string());
    say(out, format!("{side} offers a draw"));
    Ok("offer draw".into())
}

/// `accept draw`: ends the game drawn when another side has offered one.
pub fn accept_draw(state: &mut State, side: &str, out: &mut Outcome) -> Result<String, Refusal> {
    match state.draw_offer.clone() {
        Some(by) if by != side => {
            let pts = points(state, false);
            finish(
                state,
                None,
                format!("{by} offered a draw and {side} accepted"),
                pts,
                out,
            );
            Ok("accept draw".into())
        }
        _ => refuse(
            "no draw has been offered to you",
            "DESIGN §4 (draw offers)",
            "offer draw",
        ),
    }
}

fn finish(
    state: &mut State,
    winner: Option<String>,
    reason: String,
    points: BTreeMap<String, u32>,
    out: &mut Outcome,
) {
    let res = GameResult {
        winner,
        reason,
        points,
    };
    say(out, format!("the game ends: {}", res.reason));
    out.finished = Some(res.clone());
    state.result = Some(res);
    state.phase = Phase::Finished;
    state.next_side = None;
}

// ---------------------------------------------------------------------------------------------
// Round and game end
// ---------------------------------------------------------------------------------------------

fn finish_activation(
    state: &mut State,
    act: &Activation,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    state.phase = Phase::Activations;
    let next = next_side_after(state, &act.side);
    match next {
        Some(s) => state.next_side = Some(s),
        None => end_round(state, dice, out),
    }
}

fn roll_initiative(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    roll_dice_for_initiative(state, dice, out);
    settle_first(state, out);
}

/// Rolls the initiative and leaves the winner's choice awaited.
fn roll_dice_for_initiative(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    let round = state.round;
    let sides = sides_list(state);
    let mut rolls = vec![];
    let mut text = vec![];
    let mut winner = sides.first().cloned().unwrap_or_default();
    // Ties are re-rolled (004 "Initiative"); the bound only guards against a broken dice source.
    for _ in 0..1000 {
        let mut best: Vec<(String, usize)> = vec![];
        let mut line = vec![];
        for s in &sides {
            // Black Ops: +1 die while a unit with it lives, not stacking.
            let black_ops = state.units.iter().any(|u| {
                &u.side == s
                    && !u.destroyed
                    && card(state, u)
                        .map(|c| c.has_skill("black-ops"))
                        .unwrap_or(false)
            });
            let n = 3 + black_ops as usize;
            let faces: Vec<u8> = (0..n).map(|_| dice.d6(round)).collect();
            let hits = faces.iter().filter(|f| combat::is_hit(**f)).count();
            line.push(format!("{s} {hits} hit(s) on {n} dice"));
            rolls.push(Roll {
                purpose: format!("initiative {s}"),
                round,
                faces,
            });
            best.push((s.clone(), hits));
        }
        let top = best.iter().map(|b| b.1).max().unwrap_or(0);
        let at_top: Vec<&(String, usize)> = best.iter().filter(|b| b.1 == top).collect();
        text.push(line.join(", "));
        if at_top.len() == 1 {
            winner = at_top[0].0.clone();
            break;
        }
    }
    out.happenings.push(Happening {
        text: format!(
            "round {round} initiative: {}; {winner} wins and chooses who activates first",
            text.join("; tie, re-roll: ")
        ),
        rolls,
    });
    state.initiative = Some(winner.clone());
    state.phase = Phase::First { winner };
}

/// Answers an awaited choice of who goes first from the winner's standing order or the R100
/// default; only `standing first ask` leaves it awaited.
fn settle_first(state: &mut State, out: &mut Outcome) {
    let Phase::First { winner } = &state.phase else {
        return;
    };
    let winner = winner.clone();
    let standing = state.standing.get(&winner).cloned().unwrap_or_default();
    // Only `standing first ask` waits for a mail; the default is the winner itself (R100).
    if !standing.first_ask {
        let first = match standing.first {
            Some(f) => {
                say(
                    out,
                    format!("standing order of {winner}: {f} activates first"),
                );
                f
            }
            None => {
                say(out, format!("{winner} activates first (default, R100)"));
                winner.clone()
            }
        };
        start_activations(state, &first, out);
    }
}

fn end_round(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    let round = state.round;
    // Self Repair (004): 1 die per lost health, each HIT restores 1.
    let ids: Vec<String> = state.units.iter().map(|u| u.id.clone()).collect();
    for id in ids {
        let Some(u) = state.unit(&id).cloned() else {
            continue;
        };
        let Some(c) = card(state, &u).cloned() else {
            continue;
        };
        if u.destroyed
            || u.at.is_none()
            || !c.has_skill("self-repair")
            || u.health >= c.health
            || c.unit_type == UnitType::Squad
        {
            continue;
        }
        let lost = c.health - u.health;
        let faces: Vec<u8> = (0..lost).map(|_| dice.d6(round)).collect();
        let hits = faces.iter().filter(|f| combat::is_hit(**f)).count() as u8;
        if let Some(x) = state.unit_mut(&id) {
            x.health = (x.health + hits).min(c.health);
        }
        out.happenings.push(Happening {
            text: format!("Self Repair: {id} restores {hits} of {lost} lost health"),
            rolls: vec![Roll {
                purpose: format!("self repair {id}"),
                round,
                faces,
            }],
        });
    }
    say(out, format!("round {round} ends"));
    if let Some(by) = state.draw_offer.take() {
        say(out, format!("{by}'s draw offer lapses with the round"));
    }
    out.rounds_ended.push(round);
    if let Some(res) = game_over(state) {
        say(out, format!("the game ends: {}", res.reason));
        out.finished = Some(res.clone());
        state.result = Some(res);
        state.phase = Phase::Finished;
        state.next_side = None;
        return;
    }
    state.round += 1;
    for u in state.units.iter_mut() {
        u.activated = false;
        u.stopped = false;
        u.moved = false;
    }
    roll_initiative(state, dice, out);
}

/// Victory points so far: AP of destroyed enemy units (each destruction counts), plus objective
/// points for a side holding an objective.
pub fn points(state: &State, with_objectives: bool) -> BTreeMap<String, u32> {
    let mut p: BTreeMap<String, u32> = sides_list(state).into_iter().map(|s| (s, 0)).collect();
    for d in &state.destroyed {
        for (s, v) in p.iter_mut() {
            if *s != d.side {
                *v += d.ap;
            }
        }
    }
    if with_objectives {
        for o in &state.scenario.objectives {
            if let Objective::Points { at, points } = o {
                if let Some(s) = holder(state, *at) {
                    *p.entry(s).or_insert(0) += points;
                }
            }
        }
    }
    p
}

/// The side with a unit on `at` when no other side has one.
fn holder(state: &State, at: Square) -> Option<String> {
    let mut sides: Vec<String> = state
        .units
        .iter()
        .filter(|u| !u.destroyed && u.at == Some(at))
        .map(|u| u.side.clone())
        .collect();
    sides.dedup();
    if sides.len() == 1 {
        sides.pop()
    } else {
        None
    }
}

/// Whether some unit of `side` left in the game could ever stand on `at` (R104): the square is
/// not closed to it by terrain or a cover element (units are ignored: they move).
fn can_hold(state: &State, side: &str, at: Square) -> bool {
    state
        .units
        .iter()
        .filter(|u| u.side == side && !u.destroyed)
        .any(|u| {
            let mover = Mover {
                unit: super::model::UnitId(u.id.clone()),
                side: u.side.clone(),
                unit_type: unit_type(state, &u.id),
                jump: has_skill(state, &u.id, "jump"),
                agile: has_skill(state, &u.id, "agile"),
                tracked: has_skill(state, &u.id, "tracked-vehicle"),
            };
            geometry::may_stand(&state.scenario.board, &Occupancy::new(), &mover, at).is_none()
        })
}

fn game_over(state: &State) -> Option<GameResult> {
    let sides = sides_list(state);
    // Objective met (004 "End of the game").
    for o in &state.scenario.objectives {
        if let Objective::Hold { side, at } = o {
            if holder(state, *at).as_deref() == Some(side.as_str()) {
                return Some(GameResult {
                    winner: Some(side.clone()),
                    reason: format!(
                        "{side} holds the objective {at} at the end of round {}",
                        state.round
                    ),
                    points: points(state, true),
                });
            }
        }
    }
    let wiped: Vec<&String> = sides
        .iter()
        .filter(|s| !state.units.iter().any(|u| &u.side == *s && !u.destroyed))
        .collect();
    let holds: Vec<(&String, Square)> = state
        .scenario
        .objectives
        .iter()
        .filter_map(|o| match o {
            Objective::Hold { side, at } => Some((side, *at)),
            _ => None,
        })
        .collect();
    let objectives_gone =
        !holds.is_empty() && holds.iter().all(|(side, at)| !can_hold(state, side, *at));
    let reason = if !wiped.is_empty() {
        format!(
            "all units of {} are destroyed",
            wiped
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" and ")
        )
    } else if objectives_gone {
        "no side can fulfil its objective any more (004 'End of the game')".to_string()
    } else if state.round >= state.scenario.rounds {
        format!("the round limit ({}) is reached", state.scenario.rounds)
    } else {
        return None;
    };
    let pts = points(state, true);
    let top = pts.values().copied().max().unwrap_or(0);
    let leaders: Vec<&String> = pts
        .iter()
        .filter(|(_, v)| **v == top)
        .map(|(k, _)| k)
        .collect();
    // R60: victory points decide, also after annihilation; equal VPs are a draw (ruling 4).
    let winner = if leaders.len() == 1 {
        Some(leaders[0].clone())
    } else {
        None
    };
    Some(GameResult {
        winner,
        reason,
        points: pts,
    })
}

/// Every unit standing where no rule lets it stand, explained (empty when all is well): a
/// destroyed unit still placed, a joined hero away from his squad, or a square closed to the unit
/// (terrain, cover element, another unit; a lone hero may share with one friendly unit).
pub fn illegal_positions(state: &State) -> Vec<String> {
    let mut bad = vec![];
    for u in &state.units {
        let Some(at) = u.at else { continue };
        if u.destroyed {
            bad.push(format!("{} is destroyed but still stands on {at}", u.id));
            continue;
        }
        if let Some(sq) = &u.joined {
            if state.unit(sq).and_then(|s| s.at) != Some(at) {
                bad.push(format!(
                    "{} is joined to {sq} but stands apart on {at}",
                    u.id
                ));
            }
            continue;
        }
        let ty = unit_type(state, &u.id);
        // The unit itself, its joined hero, and a friendly lone hero sharing its square.
        let mut except = group(state, &u.id);
        for h in &state.units {
            if h.side == u.side
                && h.joined.is_none()
                && h.id != u.id
                && h.at == Some(at)
                && unit_type(state, &h.id) == UnitType::Hero
                && ty != UnitType::Hero
            {
                except.push(h.id.clone());
            }
        }
        let occ = occupancy(state, &except);
        let mover = Mover {
            unit: super::model::UnitId(u.id.clone()),
            side: u.side.clone(),
            unit_type: ty,
            jump: has_skill(state, &u.id, "jump"),
            agile: has_skill(state, &u.id, "agile"),
            tracked: has_skill(state, &u.id, "tracked-vehicle"),
        };
        if let Some(e) = geometry::may_stand(&state.scenario.board, &occ, &mover, at) {
            bad.push(format!("{} on {at}: {}", u.id, e.reason));
        }
    }
    bad
}

// ---------------------------------------------------------------------------------------------
// Decisions awaited and defaults
// ---------------------------------------------------------------------------------------------

/// Every distinct choice of casualties for `points` damage on `unit`, as full commands, the
/// default first. Models with the same weapons are interchangeable, so one of each count is
/// listed; a joined hero's health points are their own class (which of hero or squad takes each
/// point). At most 32 options.
pub fn casualty_options(state: &State, unit: &str, points: u32) -> Vec<String> {
    let pool = default_casualties(state, unit, u32::MAX);
    let squad_card = state.unit(unit).and_then(|u| card(state, u));
    let class = |m: &str| -> String {
        let kit = squad_card
            .and_then(|c| c.models.iter().find(|x| x.id == m))
            .map(|x| {
                let mut k = x.carries.clone();
                k.sort();
                k.join(",")
            });
        match kit {
            Some(k) if state.unit(m).is_none() => format!("kit:{k}"),
            _ if state.unit(m).is_some() => format!("unit:{m}"),
            _ => "kit:".to_string(),
        }
    };
    let mut classes: Vec<(String, Vec<String>)> = vec![];
    for m in pool {
        let k = class(&m);
        match classes.iter_mut().find(|c| c.0 == k) {
            Some(c) => c.1.push(m),
            None => classes.push((k, vec![m])),
        }
    }
    fn walk(
        classes: &[(String, Vec<String>)],
        left: usize,
        chosen: &mut Vec<String>,
        found: &mut Vec<Vec<String>>,
    ) {
        if found.len() >= 32 {
            return;
        }
        let Some(((_, members), rest)) = classes.split_first() else {
            if left == 0 {
                found.push(chosen.clone());
            }
            return;
        };
        for k in (0..=members.len().min(left)).rev() {
            let before = chosen.len();
            chosen.extend(members.iter().take(k).cloned());
            walk(rest, left - k, chosen, found);
            chosen.truncate(before);
        }
    }
    let mut found = vec![];
    walk(&classes, points as usize, &mut vec![], &mut found);
    let default = default_casualties(state, unit, points);
    let mut options = vec![format!("casualties {unit}: {}", default.join(" "))];
    for f in found {
        let o = format!("casualties {unit}: {}", f.join(" "));
        if !options.contains(&o) {
            options.push(o);
        }
    }
    options
}

/// What the game waits for, with one example command per option.
pub fn awaiting(state: &State) -> Vec<crate::game::Awaiting> {
    use crate::game::Awaiting;
    match &state.phase {
        Phase::Finished => vec![],
        Phase::Initiative => {
            // Round 1's initiative rolls on the first submission: each side may pre-state its choice.
            sides_list(state)
                .into_iter()
                .map(|s| Awaiting {
                    side: s.clone(),
                    decision: "first".into(),
                    options: sides_list(state)
                        .iter()
                        .map(|x| format!("first {x}"))
                        .collect(),
                })
                .collect()
        }
        Phase::First { winner } => vec![Awaiting {
            side: winner.clone(),
            decision: "first".into(),
            options: sides_list(state)
                .iter()
                .map(|x| format!("first {x}"))
                .collect(),
        }],
        Phase::Activations => match &state.next_side {
            Some(s) => vec![Awaiting {
                side: s.clone(),
                decision: "activate".into(),
                options: activatable(state, s)
                    .iter()
                    .map(|u| format!("activate {u}"))
                    .collect(),
            }],
            None => vec![],
        },
        Phase::Activation(a) => match &a.wait {
            Some(Wait::React { side, candidates }) => {
                let mut options: Vec<String> =
                    candidates.iter().map(|c| format!("react {c}")).collect();
                options.push("react none".into());
                vec![Awaiting {
                    side: side.clone(),
                    decision: "react".into(),
                    options,
                }]
            }
            Some(Wait::Casualties { side, unit, points }) => vec![Awaiting {
                side: side.clone(),
                decision: "casualties".into(),
                options: casualty_options(state, unit, *points),
            }],
            Some(Wait::Retaliate { side, unit, .. }) => vec![Awaiting {
                side: side.clone(),
                decision: "retaliate".into(),
                options: vec![
                    format!("retaliate {unit} yes"),
                    format!("retaliate {unit} no"),
                ],
            }],
            None => vec![],
        },
    }
}

/// The documented default for every decision awaited from `side` (R59).
pub fn default_for(state: &mut State, side: &str, dice: &mut dyn DiceSource) -> Outcome {
    let mut out = Outcome::default();
    advance(state, dice, &mut out);
    // Each default may lead to another decision of the same side; bounded by the units in play.
    for _ in 0..(state.units.len() * 4 + 8) {
        let Some(w) = awaiting(state).into_iter().find(|a| a.side == side) else {
            break;
        };
        let cmd = match w.decision.as_str() {
            "first" => Command::First {
                side: side.to_string(),
            },
            "activate" => {
                let Some(u) = activatable(state, side).into_iter().next() else {
                    break;
                };
                Command::Activate {
                    unit: u,
                    actions: vec![Action::Nothing, Action::Nothing],
                }
            }
            // The defaults of R100, as if no standing order said `ask`.
            "react" => {
                let Phase::Activation(a) = &state.phase else {
                    break;
                };
                let Some(Wait::React { candidates, .. }) = &a.wait else {
                    break;
                };
                let mut best: Option<(String, u32)> = None;
                for c in candidates {
                    let score = harm_score(state, c, a);
                    if best.as_ref().map(|b| score > b.1).unwrap_or(true) {
                        best = Some((c.clone(), score));
                    }
                }
                Command::React {
                    unit: best.map(|b| b.0),
                }
            }
            "retaliate" => Command::Retaliate {
                unit: None,
                yes: true,
            },
            "casualties" => {
                let Phase::Activation(a) = &state.phase else {
                    break;
                };
                let Some(Wait::Casualties { unit, points, .. }) = &a.wait else {
                    break;
                };
                let pref = casualty_pref(state, side, unit);
                Command::Casualties {
                    unit: unit.clone(),
                    models: preferred_casualties(state, unit, *points, &pref),
                }
            }
            _ => break,
        };
        let line = out.results.len() + 1;
        let outcome = apply(state, side, &cmd, dice, &mut out);
        let refused = matches!(outcome, CommandOutcome::Refused { .. });
        out.results
            .push(crate::game::CommandResult { line, outcome });
        if refused {
            break;
        }
    }
    out
}
