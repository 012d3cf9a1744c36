//! Dust Tactics, the grid wargame, as a [`crate::game::Game`].
//!
//! Rulesets: `ffg-revised` (004 with 000 where 004 is silent) first; see DESIGN §1.

pub mod cards;
pub mod combat;
pub mod geometry;
pub mod model;
pub mod orders;
pub mod scenario;

use crate::game::{Awaiting, DiceSource, Game, Line, Outcome, Setup, SetupError};

/// Dust Tactics as a game behind the referee.
// PLACEHOLDER (replaced by the state-machine work): a game that cannot be set up yet.
#[derive(Debug, Clone, Copy, Default)]
pub struct DustTactics;

impl Game for DustTactics {
    type State = serde_json::Value;
    fn setup(&self, _setup: &Setup) -> Result<Self::State, SetupError> {
        Err(SetupError(
            "the Dust Tactics engine is not written yet".into(),
        ))
    }
    fn sides(&self, _state: &Self::State) -> Vec<String> {
        vec![]
    }
    fn round(&self, _state: &Self::State) -> u32 {
        1
    }
    fn submit(
        &self,
        _s: &mut Self::State,
        _side: &str,
        _l: &[Line],
        _d: &mut dyn DiceSource,
    ) -> Outcome {
        Outcome::default()
    }
    fn default_for(&self, _s: &mut Self::State, _side: &str, _d: &mut dyn DiceSource) -> Outcome {
        Outcome::default()
    }
    fn awaiting(&self, _s: &Self::State) -> Vec<Awaiting> {
        vec![]
    }
    fn view(&self, s: &Self::State, _as_side: Option<&str>) -> serde_json::Value {
        s.clone()
    }
    fn board_text(&self, _s: &Self::State) -> String {
        String::new()
    }
    fn orders_template(&self, _s: &Self::State, _side: &str) -> String {
        String::new()
    }
}
