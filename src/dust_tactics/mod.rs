//! Dust Tactics, the grid wargame, as a [`crate::game::Game`].
//!
//! Rulesets: `ffg-revised` (004 with 000 where 004 is silent) first; see DESIGN §1.

pub mod bot;
pub mod cards;
pub mod combat;
pub mod flow;
pub mod geometry;
pub mod model;
pub mod orders;
pub mod scenario;
pub mod state;
pub mod view;

use crate::game::{Awaiting, CommandResult, DiceSource, Game, Line, Outcome, Setup, SetupError};
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
        flow::new_state(ruleset, scenario, cards)
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

    fn setup(&self, setup: &Setup) -> Result<State, SetupError> {
        let mut cards = vec![];
        for (file, text) in &setup.cards {
            cards.push(cards::parse_card(file, text).map_err(|e| SetupError(e.to_string()))?);
        }
        let scenario =
            scenario::parse(&setup.scenario_name, &setup.scenario).map_err(|e| SetupError(e.0))?;
        flow::new_state(&setup.ruleset, scenario, cards)
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
        side: &str,
        lines: &[Line],
        dice: &mut dyn DiceSource,
    ) -> Outcome {
        let mut out = Outcome::default();
        for parsed in orders::parse(lines, &state.scenario.board) {
            match parsed {
                Ok(p) => {
                    let outcome = flow::apply(state, side, &p.command, dice, &mut out);
                    out.results.push(CommandResult {
                        line: p.first_line,
                        outcome,
                    });
                }
                Err(e) => out.results.push(CommandResult {
                    line: e.line,
                    outcome: crate::game::CommandOutcome::Refused {
                        reason: e.reason,
                        rule: "docs/orders.md".into(),
                        instead: e.instead,
                    },
                }),
            }
        }
        out
    }

    fn default_for(&self, state: &mut State, side: &str, dice: &mut dyn DiceSource) -> Outcome {
        flow::default_for(state, side, dice)
    }

    fn awaiting(&self, state: &State) -> Vec<Awaiting> {
        flow::awaiting(state)
    }

    fn view(&self, state: &State, as_side: Option<&str>) -> serde_json::Value {
        view::view(state, as_side)
    }

    fn board_text(&self, state: &State) -> String {
        view::board_text(state)
    }

    fn orders_template(&self, state: &State, side: &str) -> String {
        view::orders_template(state, side)
    }
}
