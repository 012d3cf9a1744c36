//! Dust Tactics, the grid wargame, as a [`crate::game::Game`].
//!
//! Rulesets: `ffg-revised` (004 with 000 where 004 is silent) first; see DESIGN §1.

pub mod battlefront;
pub mod board_marks;
pub mod bot;
mod bot_climb;
pub mod cards;
pub mod citation;
pub mod combat;
pub mod event;
pub mod floors;
pub mod flow;
pub mod forces;
pub mod geometry;
pub mod model;
pub mod new_game;
pub mod orders;
mod phaser;
pub mod picture;
pub mod placing;
pub mod present;
pub mod rules;
pub mod scenario;
pub mod scenario_mines;
pub mod scenario_units;
pub mod skill;
pub mod state;
pub mod structures;
pub mod travel;
pub mod underground;
pub mod view;
pub mod weapon_trait;

use crate::game::{
    Awaiting, CommandOutcome, CommandResult, DiceSource, Game, Line, Outcome, Sender, Setup,
    SetupError,
};
use model::Card;
use state::State;

/// Dust Tactics as a game behind the referee.
#[derive(Debug, Clone, Copy, Default)]
pub struct DustTactics;

impl DustTactics {
    /// Starts a game from an already validated scenario and cards (tests, tools).
    pub fn start(
        &self,
        ruleset: &str,
        scenario: scenario::Scenario,
        cards: Vec<Card>,
    ) -> Result<State, SetupError> {
        flow::new_state(ruleset, rules::RULES_REVISION, scenario, cards)
    }

    /// Applies one typed command (what `submit` does per parsed command).
    pub fn command(
        &self,
        state: &mut State,
        side: &str,
        cmd: &orders::Command,
        dice: &mut dyn DiceSource,
    ) -> Outcome {
        let mut out = Outcome::default();
        let outcome = flow::apply(state, side, cmd, dice, &mut out);
        out.results.push(CommandResult { line: 0, outcome });
        out
    }
}

impl Game for DustTactics {
    type State = State;

    fn name(&self) -> &'static str {
        new_game::NAME
    }

    fn rules_revision(&self) -> u32 {
        rules::RULES_REVISION
    }

    fn catalog(&self) -> crate::game::Catalog {
        new_game::catalog()
    }

    fn plan_new(&self, req: &crate::game::NewRequest) -> Result<crate::game::NewPlan, SetupError> {
        new_game::plan_new(req)
    }

    fn setup(&self, setup: &Setup) -> Result<State, SetupError> {
        let mut cards = vec![];
        for (file, text) in &setup.cards {
            cards.push(cards::parse_card(file, text).map_err(|e| SetupError(e.to_string()))?);
        }
        // `new --scenario random` (R550): five scenarios, one chosen at the first step.
        if let Some(c) = battlefront::scenario_roll::parse_file(&setup.scenario) {
            return battlefront::scenario_roll::start(setup, c, cards);
        }
        let scenario =
            scenario::parse(&setup.scenario_name, &setup.scenario).map_err(|e| SetupError(e.0))?;
        flow::new_state(&setup.ruleset, setup.rules_revision, scenario, cards)
    }

    fn force_card(&self, setup: &Setup, card: &str) -> Option<crate::game::ForceCard> {
        forces::force_card(setup, card)
    }

    fn field_forces(
        &self,
        setup: &Setup,
        chosen: &std::collections::BTreeMap<String, Vec<crate::game::ForceUnit>>,
        ap: u32,
    ) -> Result<Setup, SetupError> {
        forces::field_forces(setup, chosen, ap)
    }

    fn lost_units(&self, state: &State) -> std::collections::BTreeMap<String, Vec<String>> {
        forces::lost_units(state)
    }

    fn sides(&self, state: &State) -> Vec<String> {
        state.sides()
    }

    fn round(&self, state: &State) -> u32 {
        state.round
    }

    fn submit(
        &self,
        state: &mut State,
        from: Sender<'_>,
        lines: &[Line],
        dice: &mut dyn DiceSource,
    ) -> Outcome {
        let mut out = Outcome::default();
        // R550: the first step rolls the scenario before its orders are read on its board.
        out.happenings
            .extend(battlefront::scenario_roll::roll(state, dice));
        let example = example_unit(state, &from);
        for parsed in orders::parse_for(lines, &state.scenario.board, example) {
            match parsed {
                Ok(p) => {
                    let outcome = match not_commanded(&from, &p.command) {
                        Some(refusal) => refusal,
                        None => flow::apply(state, from.side, &p.command, dice, &mut out),
                    };
                    out.results.push(CommandResult {
                        line: p.first_line,
                        outcome,
                    });
                }
                Err(e) => out.results.push(CommandResult {
                    line: e.line,
                    outcome: crate::game::CommandOutcome::Refused {
                        reason: e.reason,
                        rule: citation::RuleId::Orders.to_string(),
                        instead: e.instead,
                    },
                }),
            }
        }
        out
    }

    fn default_for(&self, state: &mut State, side: &str, dice: &mut dyn DiceSource) -> Outcome {
        let rolled = battlefront::scenario_roll::roll(state, dice);
        rolled_first(rolled, flow::default_for(state, side, dice))
    }

    fn concession(
        &self,
        state: &mut State,
        side: &str,
        c: crate::game::Concession,
        dice: &mut dyn DiceSource,
    ) -> Outcome {
        use crate::game::Concession;
        let cmd = match c {
            Concession::Concede => orders::Command::Concede,
            Concession::OfferDraw => orders::Command::OfferDraw,
            Concession::AcceptDraw => orders::Command::AcceptDraw,
        };
        let rolled = battlefront::scenario_roll::roll(state, dice);
        rolled_first(rolled, self.command(state, side, &cmd, dice))
    }

    fn awaiting(&self, state: &State) -> Vec<Awaiting> {
        flow::awaiting(state)
    }

    fn view(&self, state: &State, as_side: Option<&str>) -> serde_json::Value {
        let mut v = view::view(state, as_side);
        // R550: before the roll there is no battlefield to draw, only the scenarios to roll for.
        if let Some(r) = &state.scenario_roll {
            let names: Vec<&str> = r.candidates.iter().map(|c| c.name.as_str()).collect();
            v["scenario_roll"] = serde_json::json!(names);
        }
        v
    }

    fn board_text(&self, state: &State) -> String {
        match &state.scenario_roll {
            Some(_) => battlefront::scenario_roll::board_text(),
            None => view::board_text(state),
        }
    }

    fn orders_template(&self, state: &State, side: &str) -> String {
        let t = view::orders_template(state, side);
        match &state.scenario_roll {
            Some(_) => battlefront::scenario_roll::template(state, &t),
            None => t,
        }
    }

    fn briefing(&self, state: &State, side: &str) -> String {
        match &state.scenario_roll {
            Some(r) => battlefront::scenario_roll::briefing(state, r, side),
            None => present::briefing(state, side),
        }
    }

    fn report_briefing(&self, state: &State, side: Option<&str>) -> String {
        match &state.scenario_roll {
            Some(_) => battlefront::scenario_roll::report_briefing(),
            None => battlefront::scenario_roll::with_rolled(
                state,
                view::brief::report_briefing(state, side),
            ),
        }
    }

    fn roster(&self, view: &serde_json::Value) -> Vec<serde_json::Value> {
        present::roster(view)
    }

    fn standing(&self, view: &serde_json::Value, side: Option<&str>) -> Vec<String> {
        present::standing_lines(view, side)
    }

    /// Every Dust die shows a hit or a miss; which faces hit is the view's ruleset's.
    fn die_marks(&self, view: &serde_json::Value, roll: &crate::game::Roll) -> Vec<String> {
        let ruleset = view.get("ruleset").and_then(|r| r.as_str()).unwrap_or("");
        let Ok(rules) = rules::Rules::for_id(ruleset) else {
            return Vec::new();
        };
        // battlefront-2013: each die shows its symbol (003 "Dust Dice").
        if rules.battlefront() {
            return battlefront::dice::marks(&roll.purpose, &roll.faces);
        }
        roll.faces
            .iter()
            .map(|f| if rules.is_hit(*f) { "hit" } else { "miss" }.to_string())
            .collect()
    }

    fn picture(
        &self,
        view: &serde_json::Value,
        ours: Option<&str>,
        happenings: &[crate::game::Happening],
    ) -> Option<crate::game::Png> {
        if view.get("scenario_roll").is_some() {
            return None;
        }
        present::png(view, ours, happenings)
    }

    fn picture_svg(
        &self,
        view: &serde_json::Value,
        ours: Option<&str>,
        happenings: &[crate::game::Happening],
    ) -> Option<String> {
        if view.get("scenario_roll").is_some() {
            return None;
        }
        present::picture(view, ours, happenings).map(|p| picture::svg(&p))
    }

    /// The aggressive bot (`bot::Style::Aggressive`: it shoots what it can hurt, else closes in);
    /// a non-zero `style` seeds the random bot of the soak tests.
    fn sample_orders(&self, state: &State, side: &str, style: u32) -> Option<String> {
        let style = match style {
            0 => bot::Style::Aggressive,
            n => bot::Style::Random(n.into()),
        };
        bot::Bot::new(side, style).orders(state)
    }
}

/// A step's outcome with the scenario roll it made first, if any (R550).
fn rolled_first(rolled: Option<crate::game::Happening>, mut out: Outcome) -> Outcome {
    if let Some(h) = rolled {
        out.happenings.insert(0, h);
    }
    out
}

/// The refusal for a command naming a unit that a team player does not command, if it does.
/// The unit a suggestion names: one the sender commands, preferably one that may still act.
fn example_unit<'a>(state: &'a State, from: &Sender<'_>) -> Option<&'a str> {
    let mine = |u: &&state::UnitState| {
        u.side == from.side && from.units.is_none_or(|us| us.contains(&u.id))
    };
    let ready = |u: &&state::UnitState| u.health > 0 && !u.activated;
    let units = || state.units.iter().filter(mine);
    units()
        .find(ready)
        .or_else(|| units().next())
        .map(|u| u.id.as_str())
}

fn not_commanded(from: &Sender<'_>, cmd: &orders::Command) -> Option<CommandOutcome> {
    use orders::{Command, StandingReaction};
    let units = from.units?;
    let unit = match cmd {
        Command::Activate { unit, .. }
        | Command::React { unit: Some(unit) }
        | Command::ReactChoosing { unit, .. }
        | Command::StandingReactChoosing {
            unit: Some(unit), ..
        }
        | Command::Casualties { unit, .. }
        | Command::StandingCasualties { unit, .. }
        | Command::StandingReact {
            answer: StandingReaction::With(unit),
            ..
        }
        | Command::StandingReact {
            trigger: Some(unit),
            ..
        }
        | Command::StandingRetaliate {
            unit: Some(unit), ..
        }
        | Command::StandingCasualtiesAsk { unit: Some(unit) }
        | Command::Retaliate {
            unit: Some(unit), ..
        } => unit,
        _ => return None,
    };
    if units.iter().any(|u| u.eq_ignore_ascii_case(unit)) {
        return None;
    }
    Some(CommandOutcome::Refused {
        reason: format!(
            "unit `{unit}` is commanded by another player of side {}",
            from.side
        ),
        rule: citation::RuleId::PlayingWithMorePlayers
            .with("each player commands the units given to them")
            .to_string(),
        instead: format!("give orders to your own units: {}", units.join(", ")),
    })
}
