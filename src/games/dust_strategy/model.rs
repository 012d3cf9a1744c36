//! The state of a dust-strategy game: the map and deck it was made with, who holds what where,
//! the cards (hands hidden from the other players), the phase and the turn in progress.

use super::deck::Card;
use super::map::{Kind, Map};
use super::retreat::Defence;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The owner of the neutral units (001 "Unità neutrali").
pub const NEUTRAL: &str = "neutral";

/// The six army colours a side may take (001 "Eserciti": six armies of different colours; the
/// text names none, ruling R300).
pub const COLOURS: [&str; 6] = ["red", "blue", "green", "yellow", "black", "white"];

/// 001 "Componenti": 24 production centres in all.
pub const MAX_PCS: u32 = 24;
/// 001 "Fase di produzione" 3: each PC places at most 5 new military units a turn.
pub const PER_PC: u32 = 5;
/// 001 "Le carte": never more than 5 cards in hand.
pub const HAND_LIMIT: usize = 5;
/// 001 "Conclusione del gioco": the game ends when someone reaches 40 VP.
pub const VP_TO_WIN: u32 = 40;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Tank,
    Robot,
    Fighter,
    Bomber,
    Sub,
}

impl Unit {
    pub const ALL: [Unit; 5] = [
        Unit::Tank,
        Unit::Robot,
        Unit::Fighter,
        Unit::Bomber,
        Unit::Sub,
    ];

    /// 001 "Costi di produzione" (the labels were pictures; digest 001 §1.2 matches them).
    pub fn cost(self) -> u32 {
        match self {
            Unit::Tank => 2,
            Unit::Fighter => 3,
            Unit::Sub => 4,
            Unit::Robot => 5,
            Unit::Bomber => 6,
        }
    }

    /// 001 "Eserciti": the pieces of one colour, a hard limit.
    pub fn stock(self) -> u32 {
        match self {
            Unit::Tank => 60,
            Unit::Robot | Unit::Fighter => 20,
            Unit::Bomber | Unit::Sub => 15,
        }
    }

    pub fn word(self, n: u32) -> &'static str {
        match (self, n == 1) {
            (Unit::Tank, true) => "tank",
            (Unit::Tank, false) => "tanks",
            (Unit::Robot, true) => "robot",
            (Unit::Robot, false) => "robots",
            (Unit::Fighter, true) => "fighter",
            (Unit::Fighter, false) => "fighters",
            (Unit::Bomber, true) => "bomber",
            (Unit::Bomber, false) => "bombers",
            (Unit::Sub, true) => "sub",
            (Unit::Sub, false) => "subs",
        }
    }

    pub fn parse(word: &str) -> Option<Unit> {
        let w = word.trim().to_ascii_lowercase();
        let w = w.strip_suffix('s').unwrap_or(&w);
        Some(match w {
            "tank" | "carro" | "carri" => Unit::Tank,
            "robot" => Unit::Robot,
            "fighter" | "caccia" => Unit::Fighter,
            "bomber" | "bombardiere" | "bombardieri" => Unit::Bomber,
            "sub" | "submarine" | "sottomarino" | "sottomarini" => Unit::Sub,
            _ => return None,
        })
    }

    /// Tanks, robots, fighters and bombers: they stand on land (001 "Caccia", "Bombardieri").
    pub fn air_land(self) -> bool {
        self != Unit::Sub
    }

    /// Dice in each volley (001 "Pezzi di gioco").
    pub fn firepower(self) -> u32 {
        match self {
            Unit::Robot | Unit::Bomber => 2,
            Unit::Tank | Unit::Fighter | Unit::Sub => 1,
        }
    }

    /// 001 "Regole di base": robots, fighters and bombers add 1 to initiative, tanks nothing.
    pub fn initiative(self) -> u32 {
        match self {
            Unit::Robot | Unit::Fighter | Unit::Bomber => 1,
            Unit::Tank | Unit::Sub => 0,
        }
    }
}

pub type Units = BTreeMap<Unit, u32>;

/// "2 tanks, 1 robot", or "nothing".
pub fn units_text(u: &Units) -> String {
    let parts: Vec<String> = u
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(t, n)| format!("{n} {}", t.word(*n)))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

/// What stands in one area. `owner` is `None` exactly when no unit is there (control is
/// occupancy, ruling R307).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holding {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub units: Units,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pc: bool,
}

impl Holding {
    pub fn count(&self) -> u32 {
        self.units.values().sum()
    }
    pub fn add(&mut self, owner: &str, unit: Unit, n: u32) {
        if n == 0 {
            return;
        }
        *self.units.entry(unit).or_insert(0) += n;
        self.owner = Some(owner.to_string());
    }
    /// Takes `n` units of a type (the caller checked they are there); an area left without
    /// units is empty and belongs to nobody.
    pub fn remove(&mut self, unit: Unit, n: u32) {
        if let Some(have) = self.units.get_mut(&unit) {
            *have = have.saturating_sub(n);
            if *have == 0 {
                self.units.remove(&unit);
            }
        }
        if self.units.is_empty() {
            self.owner = None;
        }
    }
}

/// A side's ranked setup preferences (digest 001 §10.1: ranked lists instead of a dozen rounds
/// of picks). Lists left out are completed in map order (ruling R306).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prefs {
    #[serde(default)]
    pub capital: Vec<String>,
    #[serde(default)]
    pub deposits: Vec<String>,
    #[serde(default)]
    pub areas: Vec<String>,
    #[serde(default)]
    pub centres: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The setup card (sealed) and the ranked preferences (001 "Preparazione del gioco" 2–6).
    Setup,
    /// The starting reinforcements, 12 PP + the setup card's production (step 7).
    Reinforce,
    /// The sealed card choice that sets the round's turn order (001 "Sequenza di gioco").
    Cards,
    /// The turn of `order[index]` (001 "Il turno di gioco").
    Turn {
        index: usize,
    },
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Production,
    Movement,
    /// After the first attack: no more production or moves (001 "Fase di movimenti").
    Combat,
}

/// The turn in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnState {
    pub side: String,
    /// The PP of this turn (001 "Fase di produzione").
    pub budget: u32,
    pub spent: u32,
    /// Moves allowed (the card's MP) and made.
    pub moves: u32,
    pub moved: u32,
    pub stage: Stage,
    /// New units placed per PC area this turn (at most 5 each).
    #[serde(default)]
    pub placed: BTreeMap<String, u32>,
    /// PCs built this turn: they place nothing until the next turn.
    #[serde(default)]
    pub new_pcs: BTreeSet<String>,
    #[serde(default)]
    pub bought: bool,
    /// Attacks allowed (the card's CP) and made.
    #[serde(default)]
    pub attacks: u32,
    #[serde(default)]
    pub attacked: u32,
    /// (origin, target) of each attack made: the same attack is not made twice a turn.
    #[serde(default)]
    pub attacks_made: Vec<(String, String)>,
    /// For each attack made, whether no enemy was left in its target (`if attack N won`).
    #[serde(default)]
    pub won: Vec<bool>,
}

impl TurnState {
    pub fn left(&self) -> u32 {
        self.budget.saturating_sub(self.spent)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub map: Map,
    pub cards: Vec<Card>,
    /// The players' sides (army colours) in the order `new` listed them.
    pub sides: Vec<String>,
    pub round: u32,
    pub phase: Phase,
    /// Whether the six starting cards were dealt (at the first step: dealing needs the hidden
    /// stream, which a step provides).
    #[serde(default)]
    pub dealt: bool,
    /// The draw pile, sorted: a draw takes a hidden uniform index, so no order is ever stored.
    pub pile: Vec<String>,
    pub discard: Vec<String>,
    /// Hidden: each side sees only its own (`view`).
    pub hands: BTreeMap<String, Vec<String>>,
    /// Chosen, not yet revealed: hidden until every side has chosen.
    #[serde(default)]
    pub sealed: BTreeMap<String, String>,
    /// Revealed this round (or at setup); discarded at the round's end.
    #[serde(default)]
    pub played: BTreeMap<String, String>,
    /// The setup order, then each round's turn order.
    #[serde(default)]
    pub order: Vec<String>,
    pub areas: BTreeMap<String, Holding>,
    #[serde(default)]
    pub prefs: BTreeMap<String, Prefs>,
    /// Each side's own capital (its capital token).
    #[serde(default)]
    pub capital_of: BTreeMap<String, String>,
    /// Sides done with the starting reinforcements.
    #[serde(default)]
    pub done: BTreeSet<String>,
    /// The PP left for the starting reinforcements.
    #[serde(default)]
    pub reinforce_pp: BTreeMap<String, u32>,
    /// Units placed per PC during the starting reinforcements, per side.
    #[serde(default)]
    pub reinforce_placed: BTreeMap<String, BTreeMap<String, u32>>,
    #[serde(default)]
    pub turn: Option<TurnState>,
    pub vp: BTreeMap<String, u32>,
    /// Sector (`production`, `land`, `sea`) → holder.
    #[serde(default)]
    pub supremacy: BTreeMap<String, String>,
    /// Sides that used their card's power this round (once a round, 001 "Poteri Speciali").
    #[serde(default)]
    pub powers_used: BTreeSet<String>,
    /// Diplomatico's truces this round: no hostile action either way.
    #[serde(default)]
    pub truces: Vec<(String, String)>,
    /// VP scored in the last VP phase (the first tie-break at the end).
    #[serde(default)]
    pub last_scored: BTreeMap<String, u32>,
    /// Standing defensive orders: side → area (or `*`) → order (retreat.rs). Each side sees
    /// only its own.
    #[serde(default)]
    pub defence: BTreeMap<String, BTreeMap<String, Defence>>,
    /// Koshka written in advance this round: side → the player it cuts in before, or `first`
    /// (powers.rs). Each side sees only its own.
    #[serde(default)]
    pub koshka: BTreeMap<String, String>,
    /// A strategic campaign's game: its battles between players are fought elsewhere
    /// (elsewhere.rs). Absent in every other game, whose states serialise as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tactical: Option<super::elsewhere::Tactical>,
    /// A battle paused for its defender's answer (`ask`, ask.rs; rulings R351–R353).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask: Option<super::ask::Asked>,
    /// `tactical = "agreed"` only: the sides whose standing choice is `table battles: yes`
    /// (table.rs, ruling R337). Absent in every other game, whose states serialise as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_battles: Option<std::collections::BTreeSet<String>>,
}

impl State {
    pub fn card(&self, id: &str) -> Option<&Card> {
        self.cards.iter().find(|c| c.id == id)
    }

    pub fn holding(&self, area: &str) -> Holding {
        self.areas.get(area).cloned().unwrap_or_default()
    }

    pub fn owner(&self, area: &str) -> Option<&str> {
        self.areas.get(area).and_then(|h| h.owner.as_deref())
    }

    pub fn owns(&self, side: &str, area: &str) -> bool {
        self.owner(area) == Some(side)
    }

    /// Units of `side` on the board of one type (the stock limit counts them).
    pub fn on_board(&self, side: &str, unit: Unit) -> u32 {
        self.areas
            .values()
            .filter(|h| h.owner.as_deref() == Some(side))
            .map(|h| h.units.get(&unit).copied().unwrap_or(0))
            .sum()
    }

    pub fn pcs_total(&self) -> u32 {
        self.areas.values().filter(|h| h.pc).count() as u32
    }

    /// PCs a side controls: its air/land units stand in the area (001 "Centri di produzione").
    pub fn pcs_of(&self, side: &str) -> Vec<String> {
        self.areas
            .iter()
            .filter(|(_, h)| h.pc && h.owner.as_deref() == Some(side))
            .map(|(a, _)| a.clone())
            .collect()
    }

    /// VK deposits held, land and sea (digest 001 §11.9: sea deposits count; ruling R307).
    pub fn vk_of(&self, side: &str) -> u32 {
        self.map
            .areas
            .iter()
            .filter(|a| a.vk && self.owns(side, &a.id))
            .count() as u32
    }

    /// Player capitals (with a token) that `side` holds; neutral capitals count for nothing.
    pub fn capitals_held(&self, side: &str) -> u32 {
        self.capital_of
            .values()
            .filter(|a| self.owns(side, a))
            .count() as u32
    }

    pub fn land_of(&self, side: &str) -> u32 {
        self.map
            .areas
            .iter()
            .filter(|a| a.kind == Kind::Land && self.owns(side, &a.id))
            .count() as u32
    }

    pub fn sea_of(&self, side: &str) -> u32 {
        self.map
            .areas
            .iter()
            .filter(|a| a.kind == Kind::Sea && self.owns(side, &a.id))
            .count() as u32
    }

    /// The PP of a turn (001 "Fase di produzione"): 6 for holding one's own capital, 3 per PC up
    /// to the VK deposits held, the card's production, and never less than 6.
    pub fn budget(&self, side: &str, card_production: u32) -> u32 {
        let capital = match self.capital_of.get(side) {
            Some(c) if self.owns(side, c) => 6,
            _ => 0,
        };
        let pcs = self.pcs_of(side).len() as u32;
        let centres = 3 * pcs.min(self.vk_of(side));
        (capital + centres + card_production).max(6)
    }

    /// Whether a Diplomatico truce binds `a` and `b` this round.
    pub fn truce(&self, a: &str, b: &str) -> bool {
        self.truces
            .iter()
            .any(|(x, y)| (x == a && y == b) || (x == b && y == a))
    }

    /// The side whose turn it is, if any.
    pub fn current(&self) -> Option<&str> {
        match self.phase {
            Phase::Turn { index } => self.order.get(index).map(String::as_str),
            _ => None,
        }
    }
}

/// Why an order is refused: (reason, rule, what to send instead).
pub type No = (String, String, String);

/// A refusal of an order: its reason, the rule it breaks, what to send instead.
pub fn no(reason: impl Into<String>, rule: &str, instead: impl Into<String>) -> No {
    (reason.into(), rule.into(), instead.into())
}
