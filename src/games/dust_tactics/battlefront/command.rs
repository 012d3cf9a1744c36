//! 002 "Command Squads" (pages 94–95) under battlefront-2013 (issue 18, R640–R649): the Special
//! Actions of a command squad's Officer, Medic and Mechanic, of a Hero that is an Officer (002
//! "Officer", R766) and of a vehicle equipped as a Mechanic (002 "Vehicle Equipment"). Each is
//! one action written `skill <order> at <unit>` (the planner is `flow/command002.rs`); here are
//! who may give it, its die and what it does.

use super::dice::Symbol;
use super::skills002::Skill002;
use crate::dust_tactics::model::{Armour, Card, UnitType};
use crate::dust_tactics::orders::{Action, TargetRef};
use crate::dust_tactics::skill::Skill;
use crate::dust_tactics::state::{State, UnitState};
use crate::game::{DiceSource, Happening, Outcome, Roll};
use serde::{Deserialize, Serialize};

/// 002's sentence on the specialists, cited when one is gone.
pub const LOST: &str = "002 \"Command Squads\": \"Each of these specialists can perform Special Actions. If any of these specialists are eliminated, the Command Squad loses their abilities\"";

/// 002 "Superhumans", cited when a Superhuman is the target.
pub const SUPERHUMAN: &str = "002 \"Superhumans\": \"An Officer, Medic, or Mechanic cannot target a Superhuman with their Command Squad Special Actions\"";

/// A Special Action of 002's command squads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order002 {
    /// Medic: "Get Up, It Ain't That Bad": a die; army or target: a soldier back to a squad, or
    /// a point of Damage off a hero (R641).
    GetUp,
    /// Medic: "Inject Stimulants", the token the player takes on army given with the order
    /// (R642).
    InjectStimulants(Stimulants),
    /// Mechanic: "Makeshift Repair": five dice, each army a point of Damage off (R643).
    MakeshiftRepair,
    /// Officer: "Ammo Drop": a die; army or target: the unit's Limited Ammo full again (R645).
    AmmoDrop,
    /// Officer: "Get Moving You Bunch of Monkeys": a die; army: the unit activates again (R646).
    GetMoving,
    /// Officer: "Reinforcements": a die; army: an eliminated squad comes back (R647).
    Reinforcements,
    /// Officer: "Replacement Vehicle": a die; army: an eliminated vehicle comes back (R647).
    ReplacementVehicle,
}

/// An Attack Stimulants or a Move Stimulants token on a unit's card (002 "Inject Stimulants").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stimulants {
    Attack,
    Move,
}

impl Stimulants {
    pub fn name(self) -> &'static str {
        match self {
            Stimulants::Attack => "Attack Stimulants",
            Stimulants::Move => "Move Stimulants",
        }
    }
}

/// The specialist whose order it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Specialist {
    Officer,
    Medic,
    Mechanic,
}

impl Specialist {
    /// The command squad model id (the card form of R211).
    pub fn model(self) -> &'static str {
        match self {
            Specialist::Officer => "officer",
            Specialist::Medic => "medic",
            Specialist::Mechanic => "mechanic",
        }
    }
}

impl Order002 {
    pub const ALL: [Order002; 8] = [
        Order002::GetUp,
        Order002::InjectStimulants(Stimulants::Attack),
        Order002::InjectStimulants(Stimulants::Move),
        Order002::MakeshiftRepair,
        Order002::AmmoDrop,
        Order002::GetMoving,
        Order002::Reinforcements,
        Order002::ReplacementVehicle,
    ];

    /// The name a `skill` line uses.
    pub fn id(self) -> &'static str {
        match self {
            Order002::GetUp => "get-up",
            Order002::InjectStimulants(Stimulants::Attack) => "inject-stimulants-attack",
            Order002::InjectStimulants(Stimulants::Move) => "inject-stimulants-move",
            Order002::MakeshiftRepair => "makeshift-repair",
            Order002::AmmoDrop => "ammo-drop",
            Order002::GetMoving => "get-moving",
            Order002::Reinforcements => "reinforcements",
            Order002::ReplacementVehicle => "replacement-vehicle",
        }
    }

    pub fn from_id(id: &str) -> Option<Order002> {
        Order002::ALL
            .into_iter()
            .find(|o| o.id().eq_ignore_ascii_case(id))
    }

    /// 002's title.
    pub fn title(self) -> &'static str {
        match self {
            Order002::GetUp => "Get Up, It Ain't That Bad",
            Order002::InjectStimulants(_) => "Inject Stimulants",
            Order002::MakeshiftRepair => "Makeshift Repair",
            Order002::AmmoDrop => "Ammo Drop",
            Order002::GetMoving => "Get Moving You Bunch of Monkeys",
            Order002::Reinforcements => "Reinforcements",
            Order002::ReplacementVehicle => "Replacement Vehicle",
        }
    }

    pub fn specialist(self) -> Specialist {
        match self {
            Order002::GetUp | Order002::InjectStimulants(_) => Specialist::Medic,
            Order002::MakeshiftRepair => Specialist::Mechanic,
            _ => Specialist::Officer,
        }
    }

    /// The order's sentence of 002, cited by its refusals.
    pub fn rule(self) -> &'static str {
        match self {
            Order002::GetUp => "002 \"Get Up, It Ain't That Bad\": \"the player selects any Infantry Unit that is within Line of Sight and Range 1 ... of the Medic. If the Unit is an Infantry Squad, they then return an eliminated miniature to the Unit. If the Unit is a Support Weapon or Hero, they remove one point of Damage\" (R641)",
            Order002::InjectStimulants(_) => "002 \"Inject Stimulants\": \"the player selects any Infantry Unit that is within Line of Sight and Range 1 ... of the Medic, and rolls a die\" (R642)",
            Order002::MakeshiftRepair => "002 \"Makeshift Repair\": \"the player selects any Vehicle that is within Line of Sight and Range 1 ... of the Mechanic, and rolls five dice\" (R643)",
            Order002::AmmoDrop => "002 \"Ammo Drop\": \"any Unit that is within Line of Sight and Range 2 ... of the Officer, and that has Limited Ammo weapons ... If the Officer has a Radio Operator, they can request an Ammo Drop for any Unit on the board\" (R645)",
            Order002::GetMoving => "002 \"Get Moving You Bunch of Monkeys\": \"any Unit that is within Line of Sight and Range 2 ... of the Officer, and that has already been Activated this turn ... A Unit may only be re-Activated once per turn. If the Officer has a Radio Operator, they can re-Activate any Unit on the board\" (R646)",
            Order002::Reinforcements => "002 \"Reinforcements\": \"the player selects an Infantry Squad or Support Weapon (but not a Hero) that has been eliminated ... Once an Officer has succeeded in calling up reinforcements, the player cannot use the Reinforcement Action again\" (R647)",
            Order002::ReplacementVehicle => "002 \"Replacement Vehicle\": \"the player selects a Vehicle that has been eliminated ... Once an Officer has succeeded in replacing a Vehicle, the player cannot use the Replacement Vehicle Action again\" (R647)",
        }
    }

    /// How far the order reaches without a radio: Range 1 or Range 2 (squares).
    pub fn range(self) -> u32 {
        match self.specialist() {
            Specialist::Officer => 2,
            _ => 1,
        }
    }

    /// The orders whose success ends the command squad's activation and lets the target
    /// activate next.
    pub fn hands_on(self) -> bool {
        matches!(
            self,
            Order002::GetMoving | Order002::Reinforcements | Order002::ReplacementVehicle
        )
    }

    /// The orders given to an eliminated unit, anywhere.
    pub fn brings_back(self) -> bool {
        matches!(
            self,
            Order002::Reinforcements | Order002::ReplacementVehicle
        )
    }
}

/// 000/004's command squad orders that 002 does not print (`flow::command`): refused under
/// battlefront-2013 naming 002's (R640).
const NOT_002: [&str; 5] = [
    "field-repair",
    "come-on-guys",
    "ammo-dump",
    "smoke-mortars",
    "stimulant-kit",
];

/// Whether a `skill` line names one of 002's orders, or one the planner refuses saying what to
/// write (Inject Stimulants without its token, 000/004's orders).
pub fn names_an_order(name: &str) -> bool {
    Order002::from_id(name).is_some()
        || name.eq_ignore_ascii_case("inject-stimulants")
        || NOT_002.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// Who in unit `id`'s group gives `order`, and whether he has a Radio Operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Performer {
    /// The unit whose specialist it is: the command squad, the Officer hero or the vehicle.
    pub unit: String,
    pub radio: bool,
}

fn card_of<'a>(state: &'a State, id: &str) -> Option<&'a Card> {
    state.unit(id).and_then(|u| state.cards.get(&u.card))
}

fn alive(u: &UnitState, model: &str) -> bool {
    u.models.iter().any(|m| m.eq_ignore_ascii_case(model))
}

/// 002: "Command Squads with Infantry Armour 3 or 4 combine the roles of Officer and Radio
/// Operator into one soldier" (R644): the officer is his own radio operator.
fn heavy(c: &Card) -> bool {
    matches!(c.armour, Armour::Soldier(3 | 4))
}

/// The members of `lead`'s group (itself, its joined heroes): whoever acts with it.
fn members(state: &State, lead: &str) -> Vec<String> {
    let mut v = vec![lead.to_string()];
    v.extend(state.joined_of(lead).iter().map(|h| h.id.clone()));
    v
}

/// 002 "Command Vehicle": "a Command Vehicle provides any Command Squad mounted in it with an
/// additional Radio Operator" (R811): whether `lead`'s group is a Command Squad mounted in a
/// living Command Vehicle, in a game made under rules revision 10 or later.
fn command_vehicle_radio(state: &State, lead: &str) -> bool {
    state.revised(super::command_vehicle::HERO_RADIO_REVISION)
        && members(state, lead).iter().any(|m| {
            card_of(state, m).is_some_and(|c| c.has(Skill::CommandSquad))
                && super::command_vehicle::mounted_in(state, m).is_some()
        })
}

/// The unit of `lead`'s group that gives `order`, or why none does (for the refusal).
pub fn performer(state: &State, lead: &str, order: Order002) -> Result<Performer, String> {
    let sp = order.specialist();
    let mut fallen = None;
    for m in members(state, lead) {
        let (Some(u), Some(c)) = (state.unit(&m), card_of(state, &m)) else {
            continue;
        };
        if c.has(Skill::CommandSquad) {
            if alive(u, sp.model()) {
                // A Command Vehicle's extra Radio Operator serves its mounted squad (R653).
                let radio = sp == Specialist::Officer
                    && (alive(u, "radioman")
                        || heavy(c)
                        || super::command_vehicle::mounted_in(state, &m).is_some());
                return Ok(Performer {
                    unit: m.clone(),
                    radio,
                });
            }
            fallen = Some(m.clone());
        }
        // 002 "Officer": "A Hero that is an Officer may perform Officer Special Actions": one
        // soldier, his own radio operator with Infantry Armour 3 or 4 (R766); joined to a
        // Command Squad mounted in a Command Vehicle, he is its Officer and has the vehicle's
        // additional Radio Operator (R811, from rules revision 10).
        if sp == Specialist::Officer
            && c.unit_type == UnitType::Hero
            && c.has_skill(Skill002::Officer.id())
        {
            return Ok(Performer {
                unit: m.clone(),
                radio: heavy(c) || command_vehicle_radio(state, lead),
            });
        }
        // 002 "Vehicle Equipment", "Mechanic" (R643).
        if sp == Specialist::Mechanic && c.has_skill(Skill002::Mechanic.id()) {
            return Ok(Performer {
                unit: m.clone(),
                radio: false,
            });
        }
    }
    let what = match sp {
        Specialist::Officer => {
            "Officer (a command squad's `officer`, or a Hero that is an Officer)"
        }
        Specialist::Medic => "Medic (a command squad's `medic`)",
        Specialist::Mechanic => {
            "Mechanic (a command squad's `mechanic`, or a vehicle equipped as a Mechanic)"
        }
    };
    Err(match fallen {
        Some(cs) => format!(
            "the {} of {cs} has been eliminated, and with him {}",
            sp.model(),
            order.title()
        ),
        None => format!("{lead} has no {what}: {} is theirs", order.title()),
    })
}

/// Whether the card is a Superhuman (002: never a target of these actions).
pub fn superhuman(state: &State, id: &str) -> bool {
    card_of(state, id).is_some_and(|c| c.superhuman)
}

/// Whether `id` has been re-activated this turn ("A Unit may only be re-Activated once per
/// turn").
pub fn reactivated_this_turn(state: &State, id: &str) -> bool {
    state
        .unit(id)
        .is_some_and(|u| u.reactivated_round == Some(state.round))
}

/// Whether `who` has spent `order` for the game (Reinforcements, Replacement Vehicle: by a
/// success only).
pub fn spent(state: &State, who: &str, order: Order002) -> bool {
    order.brings_back()
        && state
            .unit(who)
            .is_some_and(|u| u.skills_used.get(order.id()).copied().unwrap_or(0) > 0)
}

fn roll(out: &mut Outcome, purpose: String, round: u32, faces: Vec<u8>, text: String) {
    let mut h = Happening::text(text);
    h.rolls = vec![Roll {
        purpose,
        round,
        faces,
    }];
    out.happenings.push(h);
}

/// Reports the failed roll that a Command Vehicle lets `who` roll again (R654); the re-roll
/// itself is reported by the order as its roll.
fn reroll(
    out: &mut Outcome,
    purpose: &str,
    round: u32,
    who: &str,
    v: &str,
    failed: &[u8],
    again: &[u8],
) {
    let names = |f: &[u8]| {
        f.iter()
            .map(|x| sym(*x).name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    roll(
        out,
        format!("{purpose} (failed)"),
        round,
        failed.to_vec(),
        format!(
            "{who} fails with {}, and re-rolls it in the Command Vehicle {v}: {} ({})",
            names(failed),
            names(again),
            super::command_vehicle::RULE
        ),
    );
}

fn say(out: &mut Outcome, text: String) {
    out.happenings.push(Happening::text(text));
}

fn sym(face: u8) -> Symbol {
    Symbol::of_face(face)
}

/// Carries out a planned order of `lead`'s activation; `true` when the activation ends now (a
/// success of Get Moving, Reinforcements or Replacement Vehicle: "The Command Squad's
/// Activation immediately ends").
pub fn exec(
    state: &mut State,
    lead: &str,
    order: Order002,
    target: &str,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> bool {
    // A specialist who fell since the orders were read takes his ability with him.
    let who = match performer(state, lead, order) {
        Ok(p) => p.unit,
        Err(why) => {
            say(out, format!("{why}: no {} ({LOST})", order.title()));
            return false;
        }
    };
    let round = state.round;
    let Some(t) = state.unit(target).cloned() else {
        return false;
    };
    let Some(tc) = state.cards.get(&t.card).cloned() else {
        return false;
    };
    if t.destroyed != order.brings_back() {
        say(
            out,
            format!("{target} is no longer a target: no {}", order.title()),
        );
        return false;
    }
    let title = order.title();
    let purpose = format!("{} {target}", order.id());
    match order {
        Order002::MakeshiftRepair => {
            let five = |dice: &mut dyn DiceSource| (0..5).map(|_| dice.d6(round)).collect();
            let army = |f: &[u8]| f.iter().filter(|x| sym(**x) == Symbol::Army).count() as u8;
            let mut faces: Vec<u8> = five(dice);
            // A repair fails when no die shows army: a Command Vehicle rolls the five again (R654).
            if army(&faces) == 0 {
                if let Some(v) = super::command_vehicle::mounted_in(state, &who) {
                    let again: Vec<u8> = five(dice);
                    reroll(out, &purpose, round, &who, &v, &faces, &again);
                    faces = again;
                }
            }
            let good = army(&faces);
            let removed = good.min(tc.health.saturating_sub(t.health));
            if let Some(x) = state.unit_mut(target) {
                x.health += removed;
            }
            roll(
                out,
                purpose,
                round,
                faces,
                format!("{title}: {who}'s mechanic repairs {target}: 5 dice, {good} army, {removed} damage removed"),
            );
            false
        }
        Order002::InjectStimulants(chosen) => {
            let face = dice.d6(round);
            let token = match sym(face) {
                Symbol::Army => chosen,
                Symbol::Target => Stimulants::Attack,
                Symbol::Shield => Stimulants::Move,
            };
            let holder = t.joined.clone().unwrap_or_else(|| target.to_string());
            if let Some(x) = state.unit_mut(&holder) {
                x.stimulants = Some(token);
            }
            roll(
                out,
                purpose,
                round,
                vec![face],
                format!(
                    "{title}: {who}'s medic rolls {}: {holder} takes an {} token",
                    sym(face).name(),
                    token.name()
                ),
            );
            false
        }
        _ => {
            // R641, R645: two symbols, army or target; R646, R647: one, army (R766).
            let hits = |s: Symbol| match order {
                Order002::GetUp | Order002::AmmoDrop => s != Symbol::Shield,
                _ => s == Symbol::Army,
            };
            let mut face = dice.d6(round);
            // A failed die is rolled once more in a Command Vehicle (R654).
            if !hits(sym(face)) {
                if let Some(v) = super::command_vehicle::mounted_in(state, &who) {
                    let again = dice.d6(round);
                    reroll(out, &purpose, round, &who, &v, &[face], &[again]);
                    face = again;
                }
            }
            let s = sym(face);
            let hit = hits(s);
            let what = if hit {
                success(state, &who, order, &t, &tc)
            } else {
                "it fails".to_string()
            };
            roll(
                out,
                purpose,
                round,
                vec![face],
                format!("{title}: {who} rolls {}: {what}", s.name()),
            );
            hit && order.hands_on()
        }
    }
}

/// What a successful die does; the report's words.
fn success(state: &mut State, who: &str, order: Order002, t: &UnitState, tc: &Card) -> String {
    let round = state.round;
    match order {
        Order002::GetUp if tc.unit_type == UnitType::Squad => {
            // "Returning an eliminated miniature does not change the amount of ammunition".
            let all = crate::dust_tactics::flow::fresh(tc).0;
            let Some(back) = all
                .iter()
                .find(|m| !t.models.iter().any(|x| x.eq_ignore_ascii_case(m)))
                .cloned()
            else {
                return "nobody to bring back".into();
            };
            if let Some(x) = state.unit_mut(&t.id) {
                x.models = all
                    .iter()
                    .filter(|m| **m == back || x.models.iter().any(|y| y.eq_ignore_ascii_case(m)))
                    .cloned()
                    .collect();
                x.health = x.models.len().min(u8::MAX as usize) as u8;
            }
            format!("model {back} returns to {}", t.id)
        }
        Order002::GetUp => {
            if let Some(x) = state.unit_mut(&t.id) {
                x.health = (x.health + 1).min(tc.health);
            }
            format!("one point of Damage removed from {}", t.id)
        }
        Order002::AmmoDrop => {
            let mut names = vec![];
            for m in members(state, &t.id) {
                let Some(c) = card_of(state, &m).cloned() else {
                    continue;
                };
                let Some(x) = state.unit_mut(&m) else {
                    continue;
                };
                for w in &c.weapons {
                    if let Some(boxes) = w.ammo {
                        x.ammo.insert(w.id.clone(), boxes);
                        names.push(format!("{m} {} ({boxes})", w.id));
                    }
                }
            }
            format!("full ammunition again for {}", names.join(", "))
        }
        Order002::GetMoving => {
            if let Some(x) = state.unit_mut(&t.id) {
                x.reactivated_round = Some(round);
            }
            state.reactivated = Some(t.id.clone());
            format!("{who}'s activation ends, and {} activates again now", t.id)
        }
        Order002::Reinforcements | Order002::ReplacementVehicle => {
            if let Some(x) = state.unit_mut(who) {
                *x.skills_used.entry(order.id().to_string()).or_insert(0) += 1;
            }
            let (models, health, ammo) = crate::dust_tactics::flow::fresh(tc);
            if let Some(x) = state.unit_mut(&t.id) {
                x.destroyed = false;
                x.at = None;
                x.models = models;
                x.health = health;
                x.ammo = ammo;
                x.joined = None;
                x.facing = None;
                x.stunned = false;
                x.suppression = None;
                x.stimulants = None;
                x.unloaded.clear();
                x.activated = true;
            }
            // "removes the Vehicle as the wreck is recovered".
            state.wrecks.retain(|w| w.unit != t.id);
            state.reactivated = Some(t.id.clone());
            format!(
                "{}'s activation ends, and {} comes back fresh and activates now, moving on from the edge as reserves do",
                who, t.id
            )
        }
        _ => String::new(),
    }
}

/// As `lead`'s group activates: "If a Unit Activates while it has an Attack Stimulants token, it
/// removes the token" (and the same for Move Stimulants).
pub fn take_token(state: &mut State, lead: &str, out: &mut Outcome) {
    let Some(tok) = state.unit_mut(lead).and_then(|x| x.stimulants.take()) else {
        return;
    };
    say(
        out,
        format!(
            "{lead} removes its {} token: {} (002 \"Inject Stimulants\")",
            tok.name(),
            match tok {
                Stimulants::Attack => "an Attack Action is a Sustained Attack Action",
                Stimulants::Move => "a Move Action is a March Move Action",
            }
        ),
    );
}

/// The orders template's lines for `lead`'s group: each Special Action it may take now, at each
/// friendly unit it may be given to (`ok` plans it with a `nothing` after), commented out.
pub fn template_lines(state: &State, lead: &str, ok: &dyn Fn(Vec<Action>) -> bool) -> String {
    let Some(me) = state.unit(lead).filter(|_| state.rules().battlefront()) else {
        return String::new();
    };
    let mut s = String::new();
    for order in Order002::ALL {
        if performer(state, lead, order).is_err() {
            continue;
        }
        for t in state.units.iter().filter(|t| t.side == me.side) {
            let action = Action::Skill {
                name: order.id().to_string(),
                target: Some(TargetRef::Unit(t.id.clone())),
            };
            if ok(vec![action, Action::Nothing]) {
                s.push_str(&format!("#   skill {} at {}\n", order.id(), t.id));
            }
        }
    }
    s
}
