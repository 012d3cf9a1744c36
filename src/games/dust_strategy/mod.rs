//! dust-strategy, the world-map strategy game of seed 001 ("Dust – il gioco di strategia"), for
//! 2 to 6 players by mail (issue 14). Built so far: the map and deck as validated data, setup by
//! ranked preferences, the sealed card choice and turn order, production and the four moves,
//! every kind of attack, retreats and standing defensive orders, the eleven powers, the VP phase
//! (docs/strategy.md).

mod ask;
mod attack_orders;
pub mod bot;
pub mod combat;
pub mod deck;
pub mod elsewhere;
mod held;
pub mod map;
pub mod model;
pub mod naval;
pub mod picture;
pub mod powers;
pub mod present;
pub mod produce;
pub mod retreat;
pub mod setup;
pub mod table;
pub mod turn;

use crate::game::{
    Awaiting, Catalog, CatalogEntry, CatalogScenario, CommandOutcome, CommandResult, DiceSource,
    Game, Happening, Line, NewPlan, NewRequest, Outcome, Sender, Setup, SetupError,
};
use model::*;
use std::collections::BTreeMap;

/// The game's name in `created` lines and `new --game`.
pub const NAME: &str = "dust-strategy";
/// The one ruleset (DESIGN §1).
pub const RULESET: &str = "standard";
/// Enough rounds for any game that reaches 40 VP at 2 a round, with room for one-more-round ties.
pub const MAX_ROUNDS: u32 = 60;

pub struct DustStrategy;

pub(crate) type Reply = CommandResult;

pub(crate) fn accepted(line: usize, understood: impl Into<String>) -> Reply {
    CommandResult {
        line,
        outcome: CommandOutcome::Accepted {
            understood: understood.into(),
        },
    }
}

pub(crate) fn refused(
    line: usize,
    reason: impl Into<String>,
    rule: impl Into<String>,
    instead: impl Into<String>,
) -> Reply {
    CommandResult {
        line,
        outcome: CommandOutcome::Refused {
            reason: reason.into(),
            rule: rule.into(),
            instead: instead.into(),
        },
    }
}

fn no(line: usize, n: (String, String, String)) -> Reply {
    refused(line, n.0, n.1, n.2)
}

/// Retreats and the battle powers are written where they act, never alone on a line (digest
/// 001 §10.2): an attack's retreat policy or power on its line, a defender's in `defend`.
const WHERE_WRITTEN: [&str; 8] = [
    "retreat",
    "raketen-truppen",
    "infermiera",
    "arma-segreta",
    "radar-alieno",
    "asso-del-cielo",
    "sigrid",
    "radar",
];

fn written_elsewhere(line: usize, word: &str) -> Reply {
    refused(
        line,
        format!(
            "`{word}` is not an order alone: a battle is fought at once, so an attacker writes it on its attack line and a defender in a standing `defend` order"
        ),
        "001 'Ritirata', 'Poteri Speciali'; digest 001 §10.2 (rulings R321, R323)",
        "attack 3 tanks from mexico to caribe with infermiera retreat at 1 hits: tanks; defend mexico: retreat at 1; radar-alieno; infermiera",
    )
}

pub fn catalog() -> Catalog {
    Catalog {
        name: NAME.into(),
        title: "Dust, the world-map strategy game (seed 001), 2 to 6 players; provisional map and cards".into(),
        rulesets: vec![CatalogEntry {
            name: RULESET.into(),
            title: "001's rules (digest 001; rulings R300–R399)".into(),
        }],
        scenarios: map::builtin()
            .into_iter()
            .filter_map(|(n, t)| map::parse(n, t).ok())
            .map(|m| CatalogScenario {
                name: m.name.clone(),
                title: m.title.clone(),
                sides: COLOURS.iter().map(|c| c.to_string()).collect(),
                rulesets: vec![RULESET.into()],
            })
            .collect(),
    }
}

/// The sides of a new game: 2 to 6 distinct army colours (ruling R300).
fn check_sides(sides: &[String]) -> Result<(), SetupError> {
    let mut seen = Vec::new();
    for s in sides {
        if !COLOURS.contains(&s.as_str()) {
            return Err(SetupError(format!(
                "side `{s}`: dust-strategy's sides are army colours: {} (ruling R300)",
                COLOURS.join(", ")
            )));
        }
        if !seen.contains(s) {
            seen.push(s.clone());
        }
    }
    if !(2..=6).contains(&seen.len()) {
        return Err(SetupError(format!(
            "dust-strategy is for 2 to 6 players (001 'Preparazione del gioco'): give 2 to 6 --player COLOUR=ADDRESS:PUBKEY with colours from {} (got {})",
            COLOURS.join(", "),
            seen.len()
        )));
    }
    Ok(())
}

pub fn plan_new(req: &NewRequest) -> Result<NewPlan, SetupError> {
    let ruleset = req.ruleset.clone().unwrap_or_else(|| RULESET.into());
    if req.place_by_rolls.is_some() {
        return Err(SetupError(
            "--place-by-rolls is a Dust Tactics option: dust-strategy's map is set up by its rules"
                .into(),
        ));
    }
    if ruleset != RULESET {
        return Err(SetupError(format!(
            "dust-strategy has one ruleset, `{RULESET}` (not `{ruleset}`)"
        )));
    }
    let (name, text) = match (&req.scenario_file, &req.scenario) {
        (Some((n, t)), _) => (n.clone(), t.clone()),
        (None, wanted) => {
            let maps = map::builtin();
            let wanted = wanted.as_deref().unwrap_or(maps[0].0);
            match maps.iter().find(|(n, _)| *n == wanted) {
                Some((n, t)) => (n.to_string(), t.to_string()),
                None => {
                    return Err(SetupError(format!(
                        "dust-strategy has no map `{wanted}`: use {} or --map FILE (docs/strategy.md 'Maps')",
                        maps.iter().map(|m| m.0).collect::<Vec<_>>().join(", ")
                    )))
                }
            }
        }
    };
    let parsed = map::parse(&format!("{name}.toml"), &text).map_err(SetupError)?;
    let cards: BTreeMap<String, String> = if req.data.is_empty() {
        deck::builtin()
            .into_iter()
            .map(|(n, t)| (n, t.to_string()))
            .collect()
    } else {
        req.data.clone()
    };
    deck::parse_deck(&cards).map_err(SetupError)?;
    let mut sides: Vec<String> = Vec::new();
    for s in &req.sides {
        if !sides.contains(s) {
            sides.push(s.clone());
        }
    }
    check_sides(&sides)?;
    Ok(NewPlan {
        setup: Setup {
            ruleset,
            scenario_name: parsed.name,
            scenario: text,
            cards,
            sides,
            rules_revision: 0,
        },
        max_rounds: MAX_ROUNDS,
        units: Vec::new(),
    })
}

fn initial(setup: &Setup) -> Result<State, SetupError> {
    let m = map::parse(&format!("{}.toml", setup.scenario_name), &setup.scenario)
        .map_err(SetupError)?;
    // Issue 15 hook: a strategic campaign's policy file rides beside the deck.
    let (deck_files, tactical) = elsewhere::split_setup(&setup.cards).map_err(SetupError)?;
    let cards = deck::parse_deck(&deck_files).map_err(SetupError)?;
    check_sides(&setup.sides)?;
    let mut pile: Vec<String> = cards.iter().map(|c| c.id.clone()).collect();
    pile.sort();
    let areas = m
        .areas
        .iter()
        .map(|a| (a.id.clone(), Holding::default()))
        .collect();
    Ok(State {
        map: m,
        cards,
        sides: setup.sides.clone(),
        round: 1,
        phase: Phase::Setup,
        dealt: false,
        pile,
        discard: Vec::new(),
        hands: BTreeMap::new(),
        sealed: BTreeMap::new(),
        played: BTreeMap::new(),
        order: Vec::new(),
        areas,
        prefs: BTreeMap::new(),
        capital_of: BTreeMap::new(),
        done: Default::default(),
        reinforce_pp: BTreeMap::new(),
        reinforce_placed: BTreeMap::new(),
        turn: None,
        vp: setup.sides.iter().map(|s| (s.clone(), 0)).collect(),
        supremacy: BTreeMap::new(),
        powers_used: Default::default(),
        truces: Vec::new(),
        last_scored: BTreeMap::new(),
        defence: BTreeMap::new(),
        koshka: BTreeMap::new(),
        table_battles: elsewhere::agreed_policy(&setup.cards).then(Default::default),
        tactical,
        ask: None,
    })
}

/// What one command did; `earlier_refused` is the first refused line of the same mail.
struct Step<'a> {
    s: &'a mut State,
    side: &'a str,
    dice: &'a mut dyn DiceSource,
    out: Outcome,
}

impl Step<'_> {
    fn happen(&mut self, h: Vec<Happening>) {
        self.out.happenings.extend(h);
    }

    /// After a seal: when every side has chosen, reveal and go on.
    fn after_seal(&mut self) {
        let all = self.s.sides.iter().all(|x| self.s.sealed.contains_key(x));
        let mut h = Vec::new();
        match self.s.phase {
            Phase::Setup if all => {
                setup::reveal(self.s, &mut h);
                setup::resolve(self.s, &mut h);
            }
            Phase::Cards if all => {
                setup::reveal(self.s, &mut h);
                turn::start_turn(self.s, 0, &mut h);
            }
            _ => {}
        }
        self.happen(h);
    }

    fn play(&mut self, line: usize, what: &str) -> Reply {
        let rule = "001 'Sequenza di gioco'";
        if let Some(c) = self.s.sealed.get(self.side) {
            return refused(
                line,
                format!("you have already chosen {c} face down; it is revealed when every player has chosen"),
                rule,
                "wait for the reveal",
            );
        }
        match setup::choose(self.s, self.side, what) {
            Ok(card) => {
                let mut h = Vec::new();
                setup::seal(self.s, self.side, &card, &mut h);
                self.happen(h);
                let said = format!(
                    "you play {} face down",
                    self.s
                        .card(&card)
                        .map(deck::Card::describe)
                        .unwrap_or_default()
                );
                self.after_seal();
                accepted(line, said)
            }
            Err(e) => refused(
                line,
                e,
                rule,
                "play CARD from your hand, or play highest cp",
            ),
        }
    }

    fn command(&mut self, line: usize, text: &str, earlier_refused: Option<usize>) -> Reply {
        let (word, rest) = text.split_once([' ', ':']).unwrap_or((text, ""));
        let rest = rest.trim();
        let phase = self.s.phase;
        if word == "koshka" && phase != Phase::Over {
            return match powers::koshka_intent(self.s, self.side, rest) {
                Ok(said) => accepted(line, said),
                Err(n) => no(line, n),
            };
        }
        if WHERE_WRITTEN.contains(&word) {
            return written_elsewhere(line, word);
        }
        if word == "defend" && phase != Phase::Over {
            return self.defend(line, rest);
        }
        if word == "table" && phase != Phase::Over {
            return table::choose(self.s, self.side, line, rest);
        }
        // ask (R352): `battle at AREA: …` answers a paused battle.
        if word == "battle" && phase != Phase::Over {
            return self.answer(line, rest);
        }
        match (phase, word) {
            (Phase::Over, _) => refused(
                line,
                "the game is over",
                "001 'Conclusione del gioco'",
                "nothing",
            ),
            (
                Phase::Setup,
                "capital" | "capitals" | "deposits" | "deposit" | "areas" | "area" | "centres"
                | "centers" | "centre",
            ) => {
                let key = if word.starts_with("cent") {
                    "centres"
                } else {
                    word
                };
                setup::preference(self.s, self.side, line, key, rest)
            }
            (Phase::Setup | Phase::Cards | Phase::Reinforce, "play") => {
                if phase == Phase::Reinforce && !self.s.hands.contains_key(self.side) {
                    return refused(line, "you hold no card", "001 'Sequenza di gioco'", "done");
                }
                self.play(line, rest)
            }
            (Phase::Reinforce, "build") => self.reinforce_build(line, rest),
            (Phase::Reinforce, "done" | "end") => {
                if let Some(n) = earlier_refused {
                    return refused(
                        line,
                        format!("line {n} of this mail was refused"),
                        "docs/strategy.md",
                        "fix it and send `done` again",
                    );
                }
                self.s.done.insert(self.side.to_string());
                let mut h = Vec::new();
                h.push(Happening::text(format!(
                    "{} has placed the starting reinforcements",
                    self.side
                )));
                let all = self.s.sides.iter().all(|x| self.s.done.contains(x));
                if all {
                    setup::finish_reinforce(self.s, &mut h);
                    turn::start_cards(self.s, self.dice, &mut h);
                }
                self.happen(h);
                accepted(line, "done with the starting reinforcements")
            }
            (Phase::Turn { .. }, _) => self.turn_command(line, word, rest, earlier_refused),
            (_, w) if ["capital", "deposits", "areas", "centres"].contains(&w) => refused(
                line,
                "setup is resolved: preferences are over",
                "001 'Preparazione del gioco'",
                "follow the phase the report names",
            ),
            (p, _) => refused(
                line,
                format!(
                    "`{word}` is no order of the {} phase",
                    match p {
                        Phase::Setup => "setup (capital:, deposits:, areas:, centres:, play)",
                        Phase::Reinforce => "reinforcements (build …, play, done)",
                        Phase::Cards => "card choice (play CARD)",
                        _ => "current",
                    }
                ),
                "docs/strategy.md",
                "the orders template of your last report",
            ),
        }
    }

    /// `defend AREA: …`: a standing defensive order, accepted at any time (ruling R323).
    fn defend(&mut self, line: usize, rest: &str) -> Reply {
        match retreat::parse_defend(self.s, rest) {
            Ok((area, d)) => {
                let said = retreat::describe(&area, &d);
                let mine = self.s.defence.entry(self.side.to_string()).or_default();
                if d == retreat::Defence::default() {
                    mine.remove(&area);
                } else {
                    mine.insert(area, d);
                }
                accepted(line, format!("standing order: {said}"))
            }
            Err(n) => no(line, n),
        }
    }

    fn reinforce_build(&mut self, line: usize, rest: &str) -> Reply {
        if self.s.done.contains(self.side) {
            return refused(
                line,
                "you are done with the starting reinforcements",
                "001 'Preparazione del gioco' 7",
                "wait for round 1",
            );
        }
        let what = match produce::parse_build(rest) {
            Ok(w) => w,
            Err(n) => return no(line, n),
        };
        let left = self.s.reinforce_pp.get(self.side).copied().unwrap_or(0);
        let mut placed = self
            .s
            .reinforce_placed
            .get(self.side)
            .cloned()
            .unwrap_or_default();
        let mut new_pcs = Default::default();
        let mut b = produce::Budget {
            left,
            placed: &mut placed,
            new_pcs: &mut new_pcs,
            setup: true,
        };
        match produce::build(self.s, self.side, what.clone(), &mut b) {
            Ok(cost) => {
                let left = b.left;
                self.s.reinforce_pp.insert(self.side.to_string(), left);
                self.s
                    .reinforce_placed
                    .insert(self.side.to_string(), placed);
                let said = describe_build(&what);
                self.happen(vec![Happening::text(format!(
                    "{} builds {said}",
                    self.side
                ))]);
                accepted(line, format!("build {said} for {cost} PP ({left} PP left)"))
            }
            Err(n) => no(line, n),
        }
    }

    fn turn_command(
        &mut self,
        line: usize,
        word: &str,
        rest: &str,
        earlier_refused: Option<usize>,
    ) -> Reply {
        // Issue 15 hook: while a battle is fought elsewhere the turn waits for its result.
        if let Some(a) = elsewhere::waiting(self.s) {
            return refused(
                line,
                format!(
                    "battle {} at {} is being fought on the table as a Dust Tactics game; this turn goes on when its result is in",
                    a.battle, a.to
                ),
                "docs/campaigns.md 'A strategic campaign' (ruling R331)",
                "send this line again after the battle's result is in",
            );
        }
        let current = self.s.current().unwrap_or("").to_string();
        if current != self.side {
            return refused(
                line,
                format!("it is {current}'s turn"),
                "001 'Il turno di gioco': turns follow the order of the cards",
                "wait for your turn; the next card is chosen after the last turn",
            );
        }
        // ask (R353): the attacker's turn waits for the defender's answer.
        if let Some(r) = ask::held(self.s, self.side, line) {
            return r;
        }
        let Some(mut t) = self.s.turn.clone() else {
            return refused(line, "no turn is open", "docs/strategy.md", "end");
        };
        let production_over = || {
            refused(
                line,
                "production comes first, and you have moved or attacked",
                "001 'Il turno di gioco': production, movement, combat in this order",
                "production lines first in your mail",
            )
        };
        // `… if COND` on the other attack kinds too (ruling R350): checked first, as on `attack`.
        let ungated;
        let rest = if attack_orders::GATED.contains(&word) {
            match attack_orders::gate(self.s, &t, line, rest) {
                Ok(r) => {
                    ungated = r;
                    ungated.as_str()
                }
                Err(reply) => return reply,
            }
        } else {
            rest
        };
        let reply = match word {
            "build" => {
                if t.stage != Stage::Production {
                    return production_over();
                }
                let what = match produce::parse_build(rest) {
                    Ok(w) => w,
                    Err(n) => return no(line, n),
                };
                let mut b = produce::Budget {
                    left: t.left(),
                    placed: &mut t.placed,
                    new_pcs: &mut t.new_pcs,
                    setup: false,
                };
                match produce::build(self.s, self.side, what.clone(), &mut b) {
                    Ok(cost) => {
                        t.spent += cost;
                        let said = describe_build(&what);
                        self.happen(vec![Happening::text(format!(
                            "{} builds {said}",
                            self.side
                        ))]);
                        accepted(
                            line,
                            format!("build {said} for {cost} PP ({} PP left)", t.left()),
                        )
                    }
                    Err(n) => no(line, n),
                }
            }
            "discard" => {
                if t.stage != Stage::Production {
                    return production_over();
                }
                match produce::discard(self.s, self.side, t.bought, rest) {
                    Ok(said) => {
                        self.happen(vec![Happening::text(format!(
                            "{} discards a card or more",
                            self.side
                        ))]);
                        accepted(line, said)
                    }
                    Err(n) => no(line, n),
                }
            }
            "buy" => {
                if t.stage != Stage::Production {
                    return production_over();
                }
                if t.bought {
                    return refused(
                        line,
                        "you have bought cards this turn",
                        "001 'Le carte': buying once a turn",
                        "buy again next turn",
                    );
                }
                let n: Option<u32> = rest.split_whitespace().next().and_then(|w| w.parse().ok());
                let Some(n) = n else {
                    return refused(line, "say how many cards", "docs/strategy.md", "buy 2");
                };
                let mut h = Vec::new();
                match produce::buy(self.s, self.side, n, t.left(), self.dice, &mut h) {
                    Ok(spent) => {
                        t.spent += spent;
                        t.bought = true;
                        self.happen(h);
                        accepted(
                            line,
                            format!(
                                "buy {spent} card{} ({} PP left)",
                                if spent == 1 { "" } else { "s" },
                                t.left()
                            ),
                        )
                    }
                    Err(n) => no(line, n),
                }
            }
            "attack" => return self.attack(line, rest, false, t),
            "costruttore-di-robot" | "robot-builder" | "diplomatico" | "diplomat" => {
                if t.stage != Stage::Production {
                    return production_over();
                }
                let area = rest.trim_start_matches("at ").trim();
                let r = if word.starts_with("diplomat") {
                    powers::diplomat(self.s, self.side, rest)
                } else {
                    powers::robot_builder(self.s, self.side, &t, area)
                };
                match r {
                    Ok(said) => {
                        self.happen(vec![Happening::text(format!("{}: {said}", self.side))]);
                        accepted(line, said)
                    }
                    Err(n) => no(line, n),
                }
            }
            "missili-balistici" | "missiles" => {
                let (target, hits) = match rest.split_once("hits") {
                    Some((o, h)) => (o.trim(), h.trim_start_matches([':', ' '])),
                    None => (rest, ""),
                };
                let priority = match combat::parse_priority(hits) {
                    Ok(p) => p,
                    Err(n) => return no(line, n),
                };
                let target = target.trim_start_matches("at ").trim().to_string();
                match powers::missiles(self.s, self.side, &t, &target, &priority, self.dice) {
                    Ok(h) => {
                        t.stage = Stage::Combat;
                        t.attacked += 1;
                        attack_orders::made(
                            self.s,
                            self.side,
                            &mut t,
                            "missili-balistici",
                            &target,
                        );
                        let said = format!(
                            "missili-balistici at {target} ({} of {} attacks)",
                            t.attacked, t.attacks
                        );
                        self.s.turn = Some(t);
                        self.happen(picture::battle(h, self.side, &[], &target));
                        return accepted(line, said);
                    }
                    Err(n) => no(line, n),
                }
            }
            "naval" | "bombard" | "antisub" => return self.strike(line, word, rest, t),
            "sgancia-robot" | "drop" => return self.robot_drop(line, rest, t),
            "amphibious" if rest.starts_with("attack ") => {
                return self.attack(line, rest.trim_start_matches("attack "), true, t)
            }
            "move" | "sea" | "amphibious" | "strategic" if t.stage == Stage::Combat => refused(
                line,
                "you have attacked: movement is over",
                "001 'Fase di movimenti': after a combat no return to movement",
                "moves before the first attack",
            ),
            "move" | "sea" | "amphibious" | "strategic" => {
                if t.moved >= t.moves {
                    return refused(
                        line,
                        format!(
                            "your card gives {} move{} and you have made them",
                            t.moves,
                            if t.moves == 1 { "" } else { "s" }
                        ),
                        "001 'Fase di movimenti': one MP a move",
                        "end",
                    );
                }
                let r = if word == "strategic" {
                    turn::strategic(self.s, self.side, rest)
                } else {
                    match split_move(rest) {
                        Some((spec, from, to)) => {
                            turn::parse_units(&spec, self.s, &from, word == "sea").and_then(|u| {
                                match word {
                                    "move" => turn::land_move(self.s, self.side, &u, &from, &to),
                                    "sea" => turn::sea_move(self.s, self.side, &u, &from, &to),
                                    _ => turn::amphibious(self.s, self.side, &u, &from, &to),
                                }
                            })
                        }
                        None => Err((
                            "a move names its units, its origin and its destination".into(),
                            "docs/strategy.md".into(),
                            format!("{word} 2 tanks from A to B"),
                        )),
                    }
                };
                match r {
                    Ok(said) => {
                        t.stage = Stage::Movement;
                        t.moved += 1;
                        let h = Happening::text(format!("{}: {said}", self.side));
                        self.happen(vec![picture::moved(h, self.side, rest)]);
                        accepted(line, format!("{said} ({} of {} moves)", t.moved, t.moves))
                    }
                    Err(n) => no(line, n),
                }
            }
            "end" | "done" => {
                if let Some(n) = earlier_refused {
                    return refused(
                        line,
                        format!("line {n} of this mail was refused, so the turn stays open"),
                        "docs/strategy.md",
                        "fix that line and send `end` again",
                    );
                }
                let mut h = Vec::new();
                h.push(Happening::text(format!("{} ends the turn", self.side)));
                self.s.turn = Some(t);
                let mut ended = Vec::new();
                let fin = turn::end_turn(self.s, self.dice, &mut h, &mut ended);
                self.happen(h);
                self.out.rounds_ended.extend(ended);
                if fin.is_some() {
                    self.out.finished = fin;
                }
                return accepted(line, "end of the turn");
            }
            "play" => refused(
                line,
                "cards are chosen at the start of a round",
                "001 'Sequenza di gioco'",
                "choose after the last turn of the round",
            ),
            w => refused(
                line,
                format!("`{w}` is no order of a turn"),
                "docs/strategy.md",
                "discard, buy, build, move, sea, amphibious, strategic, end",
            ),
        };
        if matches!(reply.outcome, CommandOutcome::Accepted { .. }) {
            self.s.turn = Some(t);
        }
        reply
    }
}

fn describe_build(w: &(Option<Unit>, u32, String)) -> String {
    match w.0 {
        Some(u) => format!("{} {} at {}", w.1, u.word(w.1), w.2),
        None => format!("a production centre at {}", w.2),
    }
}

/// `UNITS from A to B` → (units, A, B).
fn split_move(rest: &str) -> Option<(String, String, String)> {
    let (spec, route) = rest.rsplit_once(" from ")?;
    let (from, to) = route.split_once(" to ")?;
    Some((spec.trim().into(), from.trim().into(), to.trim().into()))
}

impl Game for DustStrategy {
    type State = State;

    fn name(&self) -> &'static str {
        NAME
    }

    fn catalog(&self) -> Catalog {
        catalog()
    }

    fn plan_new(&self, req: &NewRequest) -> Result<NewPlan, SetupError> {
        plan_new(req)
    }

    fn setup(&self, setup: &Setup) -> Result<State, SetupError> {
        initial(setup)
    }

    fn sides(&self, s: &State) -> Vec<String> {
        s.sides.clone()
    }

    fn round(&self, s: &State) -> u32 {
        s.round
    }

    fn submit(
        &self,
        s: &mut State,
        from: Sender<'_>,
        lines: &[Line],
        dice: &mut dyn DiceSource,
    ) -> Outcome {
        let mut step = Step {
            s,
            side: from.side,
            dice,
            out: Outcome::default(),
        };
        if step.s.phase == Phase::Setup {
            let mut h = Vec::new();
            setup::ensure_dealt(step.s, step.dice, &mut h);
            step.happen(h);
        }
        let mut earlier = None;
        for (i, l) in lines.iter().enumerate() {
            let text = l.text.trim().to_ascii_lowercase();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            let r = step.command(l.number, &text, earlier);
            if earlier.is_none() && matches!(r.outcome, CommandOutcome::Refused { .. }) {
                earlier = Some(l.number);
            }
            step.out.results.push(r);
            // ask (R351): a paused attack holds this line and the rest for the answer.
            if step.hold_rest(l.number, &text, earlier, &lines[i + 1..]) {
                break;
            }
        }
        step.out
    }

    /// Deadline defaults (ruling R311): the first card of the hand; preferences left out are
    /// filled in map order; no reinforcements; the turn ends.
    fn default_for(&self, s: &mut State, side: &str, dice: &mut dyn DiceSource) -> Outcome {
        let mut step = Step {
            s,
            side,
            dice,
            out: Outcome::default(),
        };
        let mut h = Vec::new();
        if step.s.phase == Phase::Setup {
            setup::ensure_dealt(step.s, step.dice, &mut h);
        }
        step.happen(h);
        // ask (R352): an unanswered battle is fought by the standing order without `ask`.
        if step.ask_deadline() {
            return step.out;
        }
        match step.s.phase {
            Phase::Setup | Phase::Cards if !step.s.sealed.contains_key(side) => {
                let first = step.s.hands.get(side).and_then(|h| h.first().cloned());
                if let Some(c) = first {
                    let r = step.play(0, &c);
                    step.out.results.push(r);
                }
            }
            Phase::Reinforce if !step.s.done.contains(side) => {
                let r = step.command(0, "done", None);
                step.out.results.push(r);
            }
            // Issue 15 hook: no default while a battle is fought elsewhere.
            Phase::Turn { .. } if elsewhere::waiting(step.s).is_some() => {}
            Phase::Turn { .. } if step.s.current() == Some(side) => {
                let r = step.command(0, "end", None);
                step.out.results.push(r);
            }
            _ => {}
        }
        step.out
    }

    fn awaiting(&self, s: &State) -> Vec<Awaiting> {
        // ask (R351): a paused battle awaits its defender alone.
        if let Some(a) = ask::awaiting(s) {
            return a;
        }
        let each = |decision: &str, option: &str, waiting: &dyn Fn(&str) -> bool| {
            s.sides
                .iter()
                .filter(|x| waiting(x))
                .map(|x| Awaiting {
                    side: x.clone(),
                    decision: decision.into(),
                    options: vec![option.into()],
                })
                .collect()
        };
        match s.phase {
            Phase::Setup => each("setup", "play highest cp", &|x| !s.sealed.contains_key(x)),
            Phase::Reinforce => each("reinforce", "done", &|x| !s.done.contains(x)),
            Phase::Cards => each("card", "play highest cp", &|x| !s.sealed.contains_key(x)),
            // Issue 15 hook: the game waits for the battle fought elsewhere, from nobody.
            Phase::Turn { .. } if elsewhere::waiting(s).is_some() => Vec::new(),
            Phase::Turn { .. } => each("turn", "end", &|x| s.current() == Some(x)),
            Phase::Over => Vec::new(),
        }
    }

    fn elsewhere(&self, s: &State) -> Option<crate::game::Elsewhere> {
        elsewhere::awaited(s)
    }

    fn decide(&self, s: &mut State, text: &str) -> Result<String, String> {
        elsewhere::decide(s, text)
    }

    fn run_held(&self, s: &mut State, dice: &mut dyn DiceSource) -> Outcome {
        held::run(s, dice)
    }

    fn view(&self, s: &State, as_side: Option<&str>) -> serde_json::Value {
        present::view(s, as_side)
    }

    fn board_text(&self, s: &State) -> String {
        present::board_text(s)
    }

    fn orders_template(&self, s: &State, side: &str) -> String {
        present::orders_template(s, side)
    }

    fn briefing(&self, s: &State, side: &str) -> String {
        present::briefing(s, side)
    }

    /// The demo's sample player (bot.rs).
    fn sample_orders(&self, s: &State, side: &str, _style: u32) -> Option<String> {
        bot::orders(s, side)
    }

    /// The map picture (picture/): drawn from the public view and the step's typed events.
    fn picture(
        &self,
        view: &serde_json::Value,
        ours: Option<&str>,
        happenings: &[Happening],
    ) -> Option<crate::game::Png> {
        let pic = picture::MapPicture::from_view(view, ours, happenings)?;
        picture::png(&pic).ok()
    }

    fn picture_svg(
        &self,
        view: &serde_json::Value,
        ours: Option<&str>,
        happenings: &[Happening],
    ) -> Option<String> {
        picture::MapPicture::from_view(view, ours, happenings).map(|p| picture::svg(&p))
    }

    /// The reader's own hand (a view made for one side holds that side's hand only).
    fn standing(&self, view: &serde_json::Value, side: Option<&str>) -> Vec<String> {
        present::standing(view, side)
    }
}
