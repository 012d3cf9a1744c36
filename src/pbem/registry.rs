//! The games a home can hold (DESIGN §2): a [`Registry`] the binary fills, and the type-erased
//! game the pipeline drives, whatever the game.
//!
//! A game implements [`Game`] with its own typed state. The pipeline holds games of several
//! kinds at once, so it sees each through [`AnyGame`] (implemented for every [`Game`]), whose
//! state is an [`AnyState`]: the game's state in a box, cloned, compared, serialised and
//! downcast by the game that made it. A state never meets another game's code: every
//! [`AnyGame`] call on a state is made through the game the `created` line names.

use crate::game::{
    Awaiting, Catalog, Concession, DiceSource, ForceCard, ForceUnit, Game, Happening, Line,
    NewPlan, NewRequest, Outcome, Png, Roll, Sender, Setup, SetupError,
};
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;

/// A game's state, whatever the game.
pub struct AnyState(Box<dyn ErasedState>);

trait ErasedState: Any + Send + Sync {
    fn clone_box(&self) -> Box<dyn ErasedState>;
    fn eq_box(&self, other: &dyn ErasedState) -> bool;
    fn to_value(&self) -> Value;
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<S> ErasedState for S
where
    S: Clone + Serialize + PartialEq + fmt::Debug + Send + Sync + 'static,
{
    fn clone_box(&self) -> Box<dyn ErasedState> {
        Box::new(self.clone())
    }
    fn eq_box(&self, other: &dyn ErasedState) -> bool {
        other.as_any().downcast_ref::<S>() == Some(self)
    }
    fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl AnyState {
    pub fn new<S>(state: S) -> AnyState
    where
        S: Clone + Serialize + PartialEq + fmt::Debug + Send + Sync + 'static,
    {
        AnyState(Box::new(state))
    }

    /// The game's own state, when it is of type `S`.
    pub fn downcast_ref<S: 'static>(&self) -> Option<&S> {
        self.0.as_any().downcast_ref()
    }

    /// The game's own state, for tools and tests that know the game. Panics when the state is
    /// another game's (a bug of the caller, never of a mail).
    pub fn typed<S: 'static>(&self) -> &S {
        self.downcast_ref().unwrap_or_else(|| {
            panic!(
                "the state is not a {}: it is another game's",
                std::any::type_name::<S>()
            )
        })
    }

    pub fn downcast_mut<S: 'static>(&mut self) -> Option<&mut S> {
        self.0.as_any_mut().downcast_mut()
    }

    /// The state as JSON (maps sorted: the form `ledger::state_digest` hashes).
    pub fn to_value(&self) -> Value {
        self.0.to_value()
    }
}

impl Clone for AnyState {
    fn clone(&self) -> Self {
        AnyState(self.0.clone_box())
    }
}

impl PartialEq for AnyState {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_box(other.0.as_ref())
    }
}

impl fmt::Debug for AnyState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.debug(f)
    }
}

impl Serialize for AnyState {
    fn serialize<Ser: Serializer>(&self, s: Ser) -> Result<Ser::Ok, Ser::Error> {
        self.0.to_value().serialize(s)
    }
}

/// A [`Game`] as the pipeline drives it: the same calls on an [`AnyState`]. Implemented for every
/// [`Game`]; a game never implements it itself.
pub trait AnyGame: Sync {
    fn name(&self) -> &'static str;
    fn rules_revision(&self) -> u32;
    fn catalog(&self) -> Catalog;
    fn plan_new(&self, req: &NewRequest) -> Result<NewPlan, SetupError>;
    fn setup(&self, setup: &Setup) -> Result<AnyState, SetupError>;
    fn force_card(&self, setup: &Setup, card: &str) -> Option<ForceCard>;
    fn field_forces(
        &self,
        setup: &Setup,
        forces: &BTreeMap<String, Vec<ForceUnit>>,
        ap: u32,
    ) -> Result<Setup, SetupError>;
    fn lost_units(&self, state: &AnyState) -> BTreeMap<String, Vec<String>>;
    fn elsewhere(&self, state: &AnyState) -> Option<crate::game::Elsewhere>;
    fn decide(&self, state: &mut AnyState, text: &str) -> Result<String, String>;
    fn run_held(&self, state: &mut AnyState, dice: &mut dyn DiceSource) -> Outcome;
    /// A state from its JSON (a snapshot).
    fn decode(&self, v: Value) -> Result<AnyState, String>;
    fn sides(&self, state: &AnyState) -> Vec<String>;
    fn round(&self, state: &AnyState) -> u32;
    fn submit(
        &self,
        state: &mut AnyState,
        from: Sender<'_>,
        lines: &[Line],
        dice: &mut dyn DiceSource,
    ) -> Outcome;
    fn default_for(&self, state: &mut AnyState, side: &str, dice: &mut dyn DiceSource) -> Outcome;
    fn concession(
        &self,
        state: &mut AnyState,
        side: &str,
        c: Concession,
        dice: &mut dyn DiceSource,
    ) -> Outcome;
    fn awaiting(&self, state: &AnyState) -> Vec<Awaiting>;
    fn view(&self, state: &AnyState, as_side: Option<&str>) -> Value;
    fn board_text(&self, state: &AnyState) -> String;
    fn orders_template(&self, state: &AnyState, side: &str) -> String;
    fn briefing(&self, state: &AnyState, side: &str) -> String;
    fn report_briefing(&self, state: &AnyState, side: Option<&str>) -> String;
    fn roster(&self, view: &Value) -> Vec<Value>;
    fn standing(&self, view: &Value, side: Option<&str>) -> Vec<String>;
    fn die_marks(&self, view: &Value, roll: &Roll) -> Vec<String>;
    fn picture(&self, view: &Value, ours: Option<&str>, happenings: &[Happening]) -> Option<Png>;
    fn picture_svg(
        &self,
        view: &Value,
        ours: Option<&str>,
        happenings: &[Happening],
    ) -> Option<String>;
    fn sample_orders(&self, state: &AnyState, side: &str, style: u32) -> Option<String>;
}

/// A state handed to the game that did not make it: a bug of the pipeline, never of a mail.
fn mismatched(game: &str) -> ! {
    panic!("the pipeline handed game {game} a state another game made")
}

fn typed<'a, G: Game>(g: &G, s: &'a AnyState) -> &'a G::State {
    s.downcast_ref().unwrap_or_else(|| mismatched(g.name()))
}

fn typed_mut<'a, G: Game>(g: &G, s: &'a mut AnyState) -> &'a mut G::State {
    let name = g.name();
    s.downcast_mut().unwrap_or_else(|| mismatched(name))
}

impl<G: Game> AnyGame for G
where
    G::State: 'static,
{
    fn name(&self) -> &'static str {
        Game::name(self)
    }
    fn rules_revision(&self) -> u32 {
        Game::rules_revision(self)
    }
    fn catalog(&self) -> Catalog {
        Game::catalog(self)
    }
    fn plan_new(&self, req: &NewRequest) -> Result<NewPlan, SetupError> {
        Game::plan_new(self, req)
    }
    fn setup(&self, setup: &Setup) -> Result<AnyState, SetupError> {
        Game::setup(self, setup).map(AnyState::new)
    }
    fn force_card(&self, setup: &Setup, card: &str) -> Option<ForceCard> {
        Game::force_card(self, setup, card)
    }
    fn field_forces(
        &self,
        setup: &Setup,
        forces: &BTreeMap<String, Vec<ForceUnit>>,
        ap: u32,
    ) -> Result<Setup, SetupError> {
        Game::field_forces(self, setup, forces, ap)
    }
    fn lost_units(&self, state: &AnyState) -> BTreeMap<String, Vec<String>> {
        Game::lost_units(self, typed(self, state))
    }
    fn elsewhere(&self, state: &AnyState) -> Option<crate::game::Elsewhere> {
        Game::elsewhere(self, typed(self, state))
    }
    fn decide(&self, state: &mut AnyState, text: &str) -> Result<String, String> {
        Game::decide(self, typed_mut(self, state), text)
    }
    fn run_held(&self, state: &mut AnyState, dice: &mut dyn DiceSource) -> Outcome {
        Game::run_held(self, typed_mut(self, state), dice)
    }
    fn decode(&self, v: Value) -> Result<AnyState, String> {
        serde_json::from_value::<G::State>(v)
            .map(AnyState::new)
            .map_err(|e| e.to_string())
    }
    fn sides(&self, state: &AnyState) -> Vec<String> {
        Game::sides(self, typed(self, state))
    }
    fn round(&self, state: &AnyState) -> u32 {
        Game::round(self, typed(self, state))
    }
    fn submit(
        &self,
        state: &mut AnyState,
        from: Sender<'_>,
        lines: &[Line],
        dice: &mut dyn DiceSource,
    ) -> Outcome {
        Game::submit(self, typed_mut(self, state), from, lines, dice)
    }
    fn default_for(&self, state: &mut AnyState, side: &str, dice: &mut dyn DiceSource) -> Outcome {
        Game::default_for(self, typed_mut(self, state), side, dice)
    }
    fn concession(
        &self,
        state: &mut AnyState,
        side: &str,
        c: Concession,
        dice: &mut dyn DiceSource,
    ) -> Outcome {
        Game::concession(self, typed_mut(self, state), side, c, dice)
    }
    fn awaiting(&self, state: &AnyState) -> Vec<Awaiting> {
        Game::awaiting(self, typed(self, state))
    }
    fn view(&self, state: &AnyState, as_side: Option<&str>) -> Value {
        Game::view(self, typed(self, state), as_side)
    }
    fn board_text(&self, state: &AnyState) -> String {
        Game::board_text(self, typed(self, state))
    }
    fn orders_template(&self, state: &AnyState, side: &str) -> String {
        Game::orders_template(self, typed(self, state), side)
    }
    fn briefing(&self, state: &AnyState, side: &str) -> String {
        Game::briefing(self, typed(self, state), side)
    }
    fn report_briefing(&self, state: &AnyState, side: Option<&str>) -> String {
        Game::report_briefing(self, typed(self, state), side)
    }
    fn roster(&self, view: &Value) -> Vec<Value> {
        Game::roster(self, view)
    }
    fn standing(&self, view: &Value, side: Option<&str>) -> Vec<String> {
        Game::standing(self, view, side)
    }
    fn die_marks(&self, view: &Value, roll: &Roll) -> Vec<String> {
        Game::die_marks(self, view, roll)
    }
    fn picture(&self, view: &Value, ours: Option<&str>, happenings: &[Happening]) -> Option<Png> {
        Game::picture(self, view, ours, happenings)
    }
    fn picture_svg(
        &self,
        view: &Value,
        ours: Option<&str>,
        happenings: &[Happening],
    ) -> Option<String> {
        Game::picture_svg(self, view, ours, happenings)
    }
    fn sample_orders(&self, state: &AnyState, side: &str, style: u32) -> Option<String> {
        Game::sample_orders(self, typed(self, state), side, style)
    }
}

/// The games a home can hold, by the name their `created` lines give. The core defines it, the
/// binary fills it (`cli::registry`), the pipeline and the reports receive it.
#[derive(Clone, Copy)]
pub struct Registry<'a> {
    games: &'a [&'static dyn AnyGame],
}

impl<'a> Registry<'a> {
    pub const fn new(games: &'a [&'static dyn AnyGame]) -> Registry<'a> {
        Registry { games }
    }

    /// The game named `name` (`created.game`, `new --game`).
    pub fn get(&self, name: &str) -> Option<&'static dyn AnyGame> {
        self.games.iter().copied().find(|g| g.name() == name)
    }

    /// The game named `name`, or an error that lists the games there are.
    pub fn find(&self, name: &str) -> Result<&'static dyn AnyGame, String> {
        self.get(name).ok_or_else(|| {
            format!(
                "there is no game `{name}` in this dustmail: the games are {} (`dustmail games` lists them)",
                self.names().join(", ")
            )
        })
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.games.iter().map(|g| g.name()).collect()
    }

    pub fn games(&self) -> impl Iterator<Item = &'static dyn AnyGame> + 'a {
        self.games.iter().copied()
    }
}
