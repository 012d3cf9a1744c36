//! A player that needs no human: it answers whatever the game awaits from its side with legal,
//! sensible orders. The demo, the soak tests and the scripted-player tests use it.
//!
//! It does not second-guess the rules: it lists candidate commands in order of preference and
//! keeps the first one the engine accepts on a copy of the state. The engine checks every
//! declaration before rolling any die, so the dice given to the copy cannot change the answer.

use super::flow;
use super::model::Square;
use super::orders::Command;
use super::state::State;
use super::DustTactics;
use crate::game::{CommandOutcome, DiceSource, Game, Sender};

/// How the bot chooses among legal orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Shoot the nearest enemy it can hurt, else close in: a game that ends in bloodshed.
    Aggressive,
    /// A random legal choice at every step, from a seeded generator (soak tests).
    Random(u64),
}

/// A deterministic player for one side.
#[derive(Debug, Clone)]
pub struct Bot {
    pub side: String,
    rng: SplitMix,
    style: Style,
    /// Standing orders it was told to set, sent with its next mail.
    standing: Vec<String>,
}

/// Standing orders that make a side answer every decision by mail (R100: `ask` is the only
/// thing that pauses a game).
pub const ASK_EVERYTHING: &str = "standing first ask\nstanding react any ask\nstanding casualties any ask\nstanding retaliate any ask";

impl Bot {
    pub fn new(side: &str, style: Style) -> Bot {
        let seed = match style {
            Style::Aggressive => 0,
            Style::Random(s) => s,
        };
        Bot {
            side: side.to_string(),
            rng: SplitMix(seed),
            style,
            standing: vec![],
        }
    }

    /// Tells the bot to set these standing orders (one command a line, e.g. [`ASK_EVERYTHING`]
    /// or `standing react rangers never`): they go out with its next mail.
    pub fn set_standing(&mut self, text: &str) {
        self.standing.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from),
        );
    }

    /// The commands (text, one per line, as a player would sign them) answering what the game
    /// awaits from this side, or `None` when it awaits nothing from it.
    pub fn orders(&mut self, state: &State) -> Option<String> {
        let standing = std::mem::take(&mut self.standing);
        let choice = self.answer(state);
        if standing.is_empty() {
            return choice;
        }
        let mut lines = standing;
        lines.extend(choice);
        Some(lines.join("\n"))
    }

    /// The answer to the decision awaited from this side, if any.
    fn answer(&mut self, state: &State) -> Option<String> {
        let awaited = DustTactics.awaiting(state);
        let a = awaited.iter().find(|a| a.side == self.side)?;
        let choice = match a.decision.as_str() {
            "activate" => {
                let mut units = a.options.clone();
                if let Style::Random(_) = self.style {
                    self.shuffle(&mut units);
                }
                units
                    .iter()
                    .filter_map(|o| o.strip_prefix("activate "))
                    .find_map(|u| self.activation(state, u))
                    .or_else(|| a.options.first().map(|o| format!("{o}\nnothing\nnothing")))?
            }
            "first" => match self.style {
                Style::Aggressive => format!("first {}", self.side),
                Style::Random(_) => self.pick(&a.options)?,
            },
            // React, retaliate and take the default casualties (the aggressive bot: the first
            // option); the random one picks any option it is offered.
            "react" | "retaliate" | "casualties" => match self.style {
                Style::Aggressive => a.options.first()?.clone(),
                Style::Random(_) => self.pick(&a.options)?,
            },
            _ => a.options.first()?.clone(),
        };
        Some(choice)
    }

    /// The best accepted activation of `unit`, or `None` if no candidate is legal.
    fn activation(&mut self, state: &State, unit: &str) -> Option<String> {
        let mut candidates = self.candidates(state, unit);
        if let Style::Random(_) = self.style {
            self.shuffle(&mut candidates);
        }
        candidates
            .into_iter()
            .find(|c| accepted(state, &self.side, &format!("activate {unit}\n{c}")))
            .map(|c| format!("activate {unit}\n{c}"))
    }

    /// Action pairs for `unit`, most wanted first.
    fn candidates(&self, state: &State, unit: &str) -> Vec<String> {
        let Some(me) = state.unit(unit) else {
            return vec![];
        };
        let Some(card) = state.card_of(me) else {
            return vec![];
        };
        // On two boards the way to an enemy may go through a link (004 underground, R631).
        let distance = |a: Square, b: Square| super::travel::route_distance(&state.scenario, a, b);
        let enemies: Vec<(&str, Square)> = state
            .units
            .iter()
            .filter(|u| u.side != self.side && !u.destroyed)
            .filter_map(|u| {
                let at = u.at.or_else(|| flow::riding_square(state, &u.id))?;
                Some((u.id.as_str(), at))
            })
            .collect();
        let mut out = Vec::new();
        // 002 "Spy" (R765): an unplaced Spy rolls to be placed next to an enemy and fires.
        if let Some(spots) = flow::spy::squares(state, unit) {
            for sq in spots.iter().take(4) {
                let near = enemies.iter().filter(|(_, at)| distance(*sq, *at) <= 4);
                for ((t, _), w) in near.flat_map(|e| card.weapons.iter().map(move |w| (e, w))) {
                    out.push(format!("skill spy at {sq}\nattack {} at {t}", w.id));
                }
                out.push(format!("skill spy at {sq}\nnothing"));
            }
            out.push("nothing\nnothing".into());
            return out;
        }
        // A Tank Riders rider fires from its vehicle's square (R470).
        let from = me.at.or_else(|| flow::riding_square(state, unit));
        // Targets nearest first, then by id, so the choice is deterministic.
        let mut targets = enemies.clone();
        if let Some(f) = from {
            targets.sort_by_key(|(id, at)| (distance(f, *at), *id));
        }
        // battlefront-2013: an observer calls the artillery on the nearest target it may (002
        // "Artillery Observer", R693); an emptied Reload weapon is reloaded first (R690).
        if state.rules().battlefront() && from.is_some() {
            if card.has_skill("artillery-observer") {
                let calls = targets.iter();
                out.extend(calls.map(|(t, _)| format!("skill artillery-observer at {t}\nnothing")));
            }
            if !me.unloaded.is_empty() {
                out.push("skill reload\nnothing".into());
            }
        }
        // Weapons that the engine accepts alone against each target, combined into one line.
        let fire_at = |target: &str| -> Option<String> {
            let ok: Vec<String> = card
                .weapons
                .iter()
                .map(|w| format!("{} at {target}", w.id))
                .filter(|f| {
                    accepted(
                        state,
                        &self.side,
                        &format!("activate {unit}\nattack {f}\nnothing"),
                    )
                })
                .collect();
            (!ok.is_empty()).then(|| ok.join(", "))
        };
        if from.is_some() {
            for (t, _) in &targets {
                if let Some(fire) = fire_at(t) {
                    out.push(format!("sustained {fire}"));
                    out.push(format!("attack {fire}\nnothing"));
                    break;
                }
            }
        }
        // 004 "STRUCTURES" (R635): inside a structure, up to where it has a target.
        let ok = |text: &str| accepted(state, &self.side, text);
        out.extend(super::bot_climb::climb_and_attack(
            state, unit, &enemies, ok,
        ));
        // 004 underground (R631): on a link, with every enemy on the other board, travel.
        let elsewhere = |at: Square| {
            let t = state.scenario.travel.as_ref();
            t.is_some_and(|t| {
                enemies
                    .iter()
                    .all(|(_, e)| t.board_of(*e) != t.board_of(at))
            })
        };
        if from.is_some_and(|f| !enemies.is_empty() && elsewhere(f)) {
            out.push("travel\nnothing".into());
        }
        // Close in: squares nearest the nearest enemy first.
        let board = &state.scenario.board;
        let mut squares: Vec<Square> = board.squares().collect();
        let nearest = |sq: Square| {
            enemies
                .iter()
                .map(|(_, at)| distance(sq, *at))
                .min()
                .unwrap_or(0)
        };
        squares.sort_by_key(|sq| (nearest(*sq), *sq));
        // 004 "Carry Capacity": a unit inside a vehicle exits next to it, nearest the enemy.
        let vehicle_at = me.aboard.as_deref().and_then(|v| state.unit(v)?.at);
        for sq in squares
            .iter()
            .filter(|s| vehicle_at.is_some_and(|v| v.adjacent(**s)))
        {
            let exit = format!("move exit {sq}");
            if !accepted(
                state,
                &self.side,
                &format!("activate {unit}\n{exit}\nnothing"),
            ) {
                continue;
            }
            for (t, _) in enemies.iter().take(2) {
                for w in &card.weapons {
                    out.push(format!("{exit}\nattack {} at {t}", w.id));
                }
            }
            out.push(format!("{exit}\nnothing"));
            break;
        }
        let reach = card.movement as u32 + 2;
        let large2 = super::battlefront::large2::is_large2(state, me);
        // A unit back from reserve may enter elsewhere (003 §12, battlefront/reserves.rs).
        // A large vehicle names the top-left of its 4 squares (004 "LARGE VEHICLES", R567).
        let entry: Vec<Square> = super::flow::large_entry(state, unit)
            .or_else(|| {
                let u = state.unit(unit)?;
                Some(super::battlefront::reserves::entry_zone(state, u))
            })
            .unwrap_or_default();
        let steps: Vec<Square> = squares
            .into_iter()
            // Off the board: the entry zone (004 "During the first round", R152).
            .filter(|sq| match from {
                Some(f) => distance(f, *sq) <= reach && f != *sq,
                None => entry.contains(sq),
            })
            .filter(|sq| enemies.is_empty() || nearest(*sq) >= 1)
            // 003's two-square Large vehicle reaches few fronts (R769): the 12 nearest the
            // enemy may all be out of its Movement, so it tries every one in reach.
            .take(if large2 { usize::MAX } else { 12 })
            .collect();
        for sq in steps {
            let mv = format!("move {sq}");
            if !accepted(
                state,
                &self.side,
                &format!("activate {unit}\n{mv}\nnothing"),
            ) {
                continue;
            }
            // After the move, fire at whatever is then nearest (the engine judges range).
            let mut by_distance = enemies.clone();
            by_distance.sort_by_key(|(id, at)| (distance(sq, *at), *id));
            for (t, _) in by_distance.iter().take(2) {
                for w in &card.weapons {
                    out.push(format!("{mv}\nattack {} at {t}", w.id));
                }
            }
            out.push(format!("{mv}\nnothing"));
            break;
        }
        out.push("nothing\nnothing".into());
        out
    }

    fn pick(&mut self, options: &[String]) -> Option<String> {
        if options.is_empty() {
            return None;
        }
        let i = (self.rng.next() % options.len() as u64) as usize;
        options.get(i).cloned()
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.rng.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

/// True when the engine accepts every command of `text` from `side` on a copy of `state`.
fn accepted(state: &State, side: &str, text: &str) -> bool {
    let lines = numbered(text);
    let mut copy = state.clone();
    let out = DustTactics.submit(&mut copy, Sender::side(side), &lines, &mut Cycling(0));
    !out.results.is_empty()
        && out
            .results
            .iter()
            .all(|r| matches!(r.outcome, CommandOutcome::Accepted { .. }))
}

/// Dice for trial runs: faces cycle 1..=6, so initiative ties cannot repeat for ever.
struct Cycling(u8);

impl DiceSource for Cycling {
    fn d6(&mut self, _round: u32) -> u8 {
        self.0 = self.0 % 6 + 1;
        self.0
    }
}

/// SplitMix64: a tiny, fixed generator so bot games replay the same on every machine.
#[derive(Debug, Clone)]
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Parses a bot's text back into commands (tests use it to check the bot speaks the grammar).
pub fn parse_text(state: &State, text: &str) -> Vec<Command> {
    let lines = numbered(text);
    super::orders::parse(&lines, &state.scenario.board)
        .into_iter()
        .filter_map(Result::ok)
        .map(|p| p.command)
        .collect()
}

/// The lines of `text`, numbered from 1 as in a signed block.
fn numbered(text: &str) -> Vec<crate::game::Line> {
    text.lines()
        .enumerate()
        .map(|(i, t)| crate::game::Line {
            number: i + 1,
            text: t.to_string(),
        })
        .collect()
}
