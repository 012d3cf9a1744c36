//! The interface between the PBEM core (referee, ledger, reports) and a game.
//!
//! The referee knows nothing about squares or dice faces: it hands a game the verified command
//! lines of one submission and a source of dice, and gets back what each line did, what happened
//! (for the ledger and the reports) and what the game now waits for. Everything here is
//! deterministic: the same state, lines and dice give the same outcome, byte for byte.

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::collections::BTreeMap;

/// A fair six-sided die stream, provided by the referee (seeded, recorded) or by tests (scripted).
///
/// `round` selects the round key the die belongs to (DESIGN §5): an initiative roll for round 3
/// made while closing round 2 must come from round 3's key.
pub trait DiceSource {
    /// One face, 1..=6.
    fn d6(&mut self, round: u32) -> u8;

    /// A value in `0..n` (n >= 1; n = 0 gives 0) from round `round`'s stream, for shuffles and
    /// draws. The referee's dice map stream bytes as `crate::seed` documents; this default, for
    /// sources that only roll dice (test doubles), builds the value from fair d6 faces by
    /// rejection in base 6, so it is uniform too.
    fn uniform(&mut self, round: u32, n: u32) -> u32 {
        crate::random::uniform_from_d6(n, || self.d6(round))
    }

    /// A hidden value in `0..n` (DESIGN §5 "Hidden randomness"): from the hidden stream, which no
    /// round key touches, shown only to `audience` until the game ends. This default (test
    /// doubles) draws it like [`DiceSource::uniform`] of round 0.
    fn hidden(&mut self, _audience: &Audience, n: u32) -> u32 {
        self.uniform(0, n)
    }
}

/// Who may see something: a hidden value, a sealed choice, an event.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    #[default]
    Everyone,
    /// Every player of this side.
    Side(String),
    /// One player, by address.
    Player(String),
    /// Nobody but the referee (e.g. the salt of a sealed choice) until the game ends.
    Referee,
}

impl Audience {
    /// Whether a reader sees what is addressed to this audience. `side` and `player` are the
    /// reader's side and address; a reader with neither is the referee, who sees everything.
    pub fn includes(&self, side: Option<&str>, player: Option<&str>) -> bool {
        if side.is_none() && player.is_none() {
            return true;
        }
        match self {
            Audience::Everyone => true,
            Audience::Side(s) => side == Some(s.as_str()),
            Audience::Player(p) => player.is_some_and(|a| a.eq_ignore_ascii_case(p)),
            Audience::Referee => false,
        }
    }

    fn is_everyone(&self) -> bool {
        *self == Audience::Everyone
    }
}

/// Dice given in advance, for tests and rulebook examples. Panics when it runs out, so a test
/// that rolls more dice than it scripted fails loudly. Uniform and hidden values have their own
/// scripts ([`ScriptedDice::with_uniform`], [`ScriptedDice::with_hidden`]).
#[derive(Debug, Clone, Default)]
pub struct ScriptedDice {
    faces: std::collections::VecDeque<u8>,
    uniform: std::collections::VecDeque<u32>,
    hidden: std::collections::VecDeque<u32>,
}

impl ScriptedDice {
    pub fn new(faces: impl IntoIterator<Item = u8>) -> Self {
        ScriptedDice {
            faces: faces.into_iter().collect(),
            ..Default::default()
        }
    }
    /// The values `uniform(n)` returns, in order (each must be below the n asked for).
    pub fn with_uniform(mut self, values: impl IntoIterator<Item = u32>) -> Self {
        self.uniform.extend(values);
        self
    }
    /// The values `hidden(audience, n)` returns, in order (each must be below the n asked for).
    pub fn with_hidden(mut self, values: impl IntoIterator<Item = u32>) -> Self {
        self.hidden.extend(values);
        self
    }
    /// Faces and values still unused: tests assert this is zero so nothing scripted is silently
    /// ignored.
    pub fn remaining(&self) -> usize {
        self.faces.len() + self.uniform.len() + self.hidden.len()
    }
}

fn scripted_value(q: &mut std::collections::VecDeque<u32>, what: &str, n: u32) -> u32 {
    let v = q
        .pop_front()
        .unwrap_or_else(|| panic!("scripted {what} values exhausted: the test scripted fewer"));
    assert!(v < n, "scripted {what} value {v} is not below {n}");
    v
}

impl DiceSource for ScriptedDice {
    fn d6(&mut self, _round: u32) -> u8 {
        let f = self
            .faces
            .pop_front()
            .expect("scripted dice exhausted: the test scripted fewer dice than the rules rolled");
        assert!((1..=6).contains(&f), "scripted face {f} is not 1..=6");
        f
    }
    fn uniform(&mut self, _round: u32, n: u32) -> u32 {
        scripted_value(&mut self.uniform, "uniform", n)
    }
    fn hidden(&mut self, _audience: &Audience, n: u32) -> u32 {
        scripted_value(&mut self.hidden, "hidden", n)
    }
}

/// One line of a submission, as the player wrote it, with its 1-based line number inside the
/// signed block (so refusals can say "line 7").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    pub number: usize,
    pub text: String,
}

/// What the game did with one command (one or more lines: an activation spans several).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandResult {
    /// First line of the command.
    pub line: usize,
    /// The command as the referee understood it (restated in receipts), or the refusal.
    pub outcome: CommandOutcome,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum CommandOutcome {
    Accepted {
        understood: String,
    },
    Refused {
        reason: String,
        rule: String,
        instead: String,
    },
}

/// Something that happened, for the ledger and the reports: text for people, plus any dice,
/// who may see it and, for pictures and tools, the game's own typed event.
///
/// Ledgers written before `audience` and `event` existed read as (everyone, no event); a
/// happening addressed to everyone without an event is written exactly as before.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Happening {
    pub text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Roll>,
    /// Who may read it in a report (the referee reads everything).
    #[serde(default, skip_serializing_if = "Audience::is_everyone")]
    pub audience: Audience,
    /// The game's typed event, serialised by the game (the core never looks inside). Reports and
    /// pictures draw from it, never from `text`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<serde_json::Value>,
}

impl Happening {
    /// A happening for everyone, without a typed event.
    pub fn text(text: impl Into<String>) -> Happening {
        Happening {
            text: text.into(),
            ..Happening::default()
        }
    }

    /// Whether `self`, as recorded in a ledger, agrees with `replayed`: text, rolls and audience
    /// equal, and the events equal unless the ledger recorded none (a ledger written before
    /// typed events: replaying it must still pass).
    pub fn recorded_matches(&self, replayed: &Happening) -> bool {
        self.text == replayed.text
            && self.rolls == replayed.rolls
            && self.audience == replayed.audience
            && (self.event.is_none() || self.event == replayed.event)
    }
}

/// A roll of several dice for one purpose, recorded so an auditor can recompute it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub purpose: String,
    pub round: u32,
    pub faces: Vec<u8>,
}

/// A decision the game waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Awaiting {
    pub side: String,
    /// Short machine name: `first`, `activate`, `react`, `casualties`, …
    pub decision: String,
    /// What the side may send, one example command per option.
    pub options: Vec<String>,
}

/// The result of one submission or one deadline default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub results: Vec<CommandResult>,
    pub happenings: Vec<Happening>,
    /// Rounds that ended during this step, in order (the referee reveals their keys).
    pub rounds_ended: Vec<u32>,
    /// Set once when the game ends.
    pub finished: Option<GameResult>,
}

impl Outcome {
    pub fn accepted_any(&self) -> bool {
        self.results
            .iter()
            .any(|r| matches!(r.outcome, CommandOutcome::Accepted { .. }))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// `None` is a draw (ruling 4).
    pub winner: Option<String>,
    pub reason: String,
    pub points: BTreeMap<String, u32>,
}

/// Everything needed to start a game, embedded verbatim in the ledger's `created` line so an
/// auditor needs nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub ruleset: String,
    pub scenario_name: String,
    /// The scenario file's content.
    pub scenario: String,
    /// Card file name → content, every card the game may use.
    pub cards: BTreeMap<String, String>,
    /// The sides in scenario order.
    pub sides: Vec<String>,
    /// The revision of the game's rules the game was made under ([`Game::rules_revision`]): a
    /// game keeps the rules it started with when dustmail mends a rule later. 0 (absent): made
    /// before revisions were recorded.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rules_revision: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A setup the game cannot start from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// Who sent a submission: the side they sign for and, in a team game, the units they command
/// (`None`: every unit of the side). 000: "four players can play two-on-two by dividing the
/// armies".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sender<'a> {
    pub side: &'a str,
    pub units: Option<&'a [String]>,
}

impl<'a> Sender<'a> {
    /// A player commanding the whole side.
    pub fn side(side: &'a str) -> Sender<'a> {
        Sender { side, units: None }
    }
}

/// The lines by which a side gives up or proposes to stop, the same in every game: `concede`,
/// `offer draw`, `accept draw`. The pipeline parses them ([`crate::pbem::lines`]); the game
/// applies them ([`Game::concession`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Concession {
    Concede,
    OfferDraw,
    AcceptDraw,
}

impl Concession {
    /// The line as players write it.
    pub fn text(self) -> &'static str {
        match self {
            Concession::Concede => "concede",
            Concession::OfferDraw => "offer draw",
            Concession::AcceptDraw => "accept draw",
        }
    }
}

/// What `dustmail games` shows of a game: its rulesets and its scenarios (or maps).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Catalog {
    /// The `game` of `created` lines and of `new --game` ("dust-tactics").
    pub name: String,
    pub title: String,
    /// The first is the default.
    pub rulesets: Vec<CatalogEntry>,
    /// Built-in scenarios or maps, with the rulesets each suits.
    pub scenarios: Vec<CatalogScenario>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CatalogEntry {
    pub name: String,
    pub title: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CatalogScenario {
    pub name: String,
    pub title: String,
    pub sides: Vec<String>,
    pub rulesets: Vec<String>,
}

/// What `dustmail new` asks of a game: the ruleset, a scenario (a built-in name, or a file the
/// referee brings) and the data files of `--cards DIR` (name → content).
#[derive(Debug, Clone, Default)]
pub struct NewRequest {
    /// `None`: the game's default ruleset.
    pub ruleset: Option<String>,
    /// A built-in scenario's name; `None`: the game's first scenario.
    pub scenario: Option<String>,
    /// A scenario file the referee brings instead: (name, content).
    pub scenario_file: Option<(String, String)>,
    pub data: BTreeMap<String, String>,
    /// `--place-by-rolls`: the players place the battlefield by the rulebook's rolls, with this
    /// many terrain squares besides the scenario's cover (a game without it refuses it).
    pub place_by_rolls: Option<u32>,
    /// The sides of the `--player` options, in order, each once: a game whose sides are the
    /// players' (dust-strategy, 2 to 6 army colours) takes them from here.
    pub sides: Vec<String>,
    /// `--force SIDE=FORCE`: a side fields a starter force instead of the scenario's units (a
    /// game or ruleset without starter forces refuses it).
    pub forces: BTreeMap<String, String>,
    /// `--fortify SIDE=LIST`: fortifications a side fields and places (a game or ruleset without
    /// them refuses it).
    pub fortify: BTreeMap<String, String>,
}

/// A game's answer to [`NewRequest`]: the setup to record, how many rounds its seed chain needs,
/// and, for team games, its units and the player each is given to by the scenario.
#[derive(Debug, Clone)]
pub struct NewPlan {
    pub setup: Setup,
    pub max_rounds: u32,
    pub units: Vec<TeamUnit>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamUnit {
    pub side: String,
    pub id: String,
    /// The scenario's `player` label for it (an address or SIDE-N), if any.
    pub player: Option<String>,
}

/// What a campaign's force choice needs of a card: its army points and whether it is a hero
/// (whose loss carries over only when the campaign's rules say `heroes = true`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForceCard {
    pub ap: u32,
    pub hero: bool,
}

/// One unit of a force a campaign fields: the id it has in the game and its card.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ForceUnit {
    pub id: String,
    pub card: String,
}

/// A battle a game waits for instead of fighting it (issue 15, the strategic campaign): a
/// campaign fights it as a game of another kind and hands back the result ([`Game::decide`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Elsewhere {
    /// The game's own number for the battle (1, 2, … in the order they were awaited).
    pub battle: u32,
    pub area: String,
    pub attacker: String,
    pub defender: String,
    /// Side → unit kind → how many of them fight.
    pub units: BTreeMap<String, BTreeMap<String, u32>>,
}

/// A picture a game draws of its board, for mails and pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Png {
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// A game behind the PBEM core. `Sync` with a `Send + Sync` state: a batch run renders the
/// mails of its steps on several threads. The pipeline drives it through
/// [`crate::registry::AnyGame`], so one run serves games of every kind.
pub trait Game: Sync {
    type State: Clone
        + Serialize
        + DeserializeOwned
        + PartialEq
        + std::fmt::Debug
        + Send
        + Sync
        + 'static;

    /// The `game` field of `created` lines ("dust-tactics").
    fn name(&self) -> &'static str;

    /// The revision of this game's rules that new games get. A rule mended to follow the
    /// rulebook better takes effect from the next revision; games recorded under an older one
    /// keep the older behaviour (`Setup::rules_revision`), and their replay compares what was
    /// applied, the dice and the states, not the wording of refusals and happenings.
    fn rules_revision(&self) -> u32 {
        0
    }

    /// Rulesets and scenarios, for `dustmail games` and `new`. The default lists none (a game
    /// made only by code, like the test games).
    fn catalog(&self) -> Catalog {
        Catalog {
            name: self.name().into(),
            ..Catalog::default()
        }
    }

    /// The setup of a new game from what `new` was given, or an error that says what to fix.
    fn plan_new(&self, _req: &NewRequest) -> Result<NewPlan, SetupError> {
        Err(SetupError(format!(
            "game {} cannot be created from the command line",
            self.name()
        )))
    }

    /// Builds the initial state. Validates the scenario and cards with errors that say what to fix.
    fn setup(&self, setup: &Setup) -> Result<Self::State, SetupError>;

    /// The army points and kind of `card` among the setup's cards, for a campaign's force
    /// choice; `None`: no such card, or a game without chosen forces (the default).
    fn force_card(&self, _setup: &Setup, _card: &str) -> Option<ForceCard> {
        None
    }

    /// The setup with each side's units replaced by `forces` (side → units, entering from the
    /// side's entry zone) and an army point limit of `ap`: a campaign game whose forces the
    /// players chose. The default refuses: the game has no chosen forces.
    fn field_forces(
        &self,
        _setup: &Setup,
        _forces: &BTreeMap<String, Vec<ForceUnit>>,
        _ap: u32,
    ) -> Result<Setup, SetupError> {
        Err(SetupError(format!(
            "game {} has no forces chosen by the players",
            self.name()
        )))
    }

    /// The units destroyed by now, per side, in unit id order (what a campaign carries over).
    fn lost_units(&self, _state: &Self::State) -> BTreeMap<String, Vec<String>> {
        BTreeMap::new()
    }

    /// The battle the game waits for, to be fought elsewhere (a strategic campaign's table);
    /// `None` (the default): the game fights its battles itself.
    fn elsewhere(&self, _state: &Self::State) -> Option<Elsewhere> {
        None
    }

    /// Decides the awaited battle from a result fought elsewhere (the referee's `decide`
    /// control): what it did, or why it cannot. No dice: the result decides it all.
    fn decide(&self, _state: &mut Self::State, _text: &str) -> Result<String, String> {
        Err(format!(
            "game {} waits for no battle fought elsewhere",
            self.name()
        ))
    }

    /// After a control's actions: the lines a player's mail held for the battle just decided
    /// run now, with the control's dice (keyed as DESIGN §5 says for a control). The default,
    /// and a game with nothing held: nothing happens.
    fn run_held(&self, _state: &mut Self::State, _dice: &mut dyn DiceSource) -> Outcome {
        Outcome::default()
    }

    /// Sides in play order as the scenario lists them.
    fn sides(&self, state: &Self::State) -> Vec<String>;

    /// Current round (1-based), used for dice keys and mail subjects.
    fn round(&self, state: &Self::State) -> u32;

    /// Applies one verified submission. Each command is applied or refused on its own; a
    /// refused command changes nothing. Commands for units the sender does not command are
    /// refused.
    fn submit(
        &self,
        state: &mut Self::State,
        from: Sender<'_>,
        lines: &[Line],
        dice: &mut dyn DiceSource,
    ) -> Outcome;

    /// Applies the documented default for every decision awaited from `side` (deadline passed).
    fn default_for(
        &self,
        state: &mut Self::State,
        side: &str,
        dice: &mut dyn DiceSource,
    ) -> Outcome;

    /// The decisions the game waits for, empty once finished.
    fn awaiting(&self, state: &Self::State) -> Vec<Awaiting>;

    /// The state as JSON for `show --format json` and the report templates. `as_side` hides what
    /// that side must not see (the other side's standing orders).
    fn view(&self, state: &Self::State, as_side: Option<&str>) -> serde_json::Value;

    /// The board as fixed-width text with a legend.
    fn board_text(&self, state: &Self::State) -> String;

    /// An orders template for `side`, commented, ready to fill in.
    fn orders_template(&self, state: &Self::State, side: &str) -> String;

    /// Applies `concede`, `offer draw` or `accept draw` from `side`, in its place among the
    /// submission's commands: one result (its line is set by the caller) and what happened. The
    /// default refuses: a game without concessions says so.
    fn concession(
        &self,
        _state: &mut Self::State,
        _side: &str,
        c: Concession,
        _dice: &mut dyn DiceSource,
    ) -> Outcome {
        Outcome {
            results: vec![CommandResult {
                line: 0,
                outcome: CommandOutcome::Refused {
                    reason: format!("game {} has no `{}`", self.name(), c.text()),
                    rule: "docs/orders.md".into(),
                    instead: "play on, or ask the referee".into(),
                },
            }],
            ..Outcome::default()
        }
    }

    /// The scenario as a player must know it before the first order (issue 16 item 2): what it
    /// is about, how to win, when it ends, where `side`'s units come in. Plain text, lines of at
    /// most 72 characters; empty: the mails say nothing of it.
    fn briefing(&self, _state: &Self::State, _side: &str) -> String {
        String::new()
    }

    /// The short briefing every report carries for `side` (`None`: an observer): how to win,
    /// which round of how many, what is still to enter. A few lines of at most 72 characters;
    /// empty: the reports say nothing of it.
    fn report_briefing(&self, _state: &Self::State, _side: Option<&str>) -> String {
        String::new()
    }

    /// The report's roster rows (the `roster` of the report templates) from a view.
    fn roster(&self, _view: &serde_json::Value) -> Vec<serde_json::Value> {
        Vec::new()
    }

    /// Standing orders and other lines only `side` sees, from a view.
    fn standing(&self, _view: &serde_json::Value, _side: Option<&str>) -> Vec<String> {
        Vec::new()
    }

    /// What each face of a recorded roll shows, one word per face (`hit`, `miss`…), for the
    /// reports; empty (the default): the reports show the bare faces.
    fn die_marks(&self, _view: &serde_json::Value, _roll: &Roll) -> Vec<String> {
        Vec::new()
    }

    /// The board picture of a view, drawing what `happenings` (their typed events) did; `None`:
    /// the mails carry the text board only.
    fn picture(
        &self,
        _view: &serde_json::Value,
        _ours: Option<&str>,
        _happenings: &[Happening],
    ) -> Option<Png> {
        None
    }

    /// The same picture as SVG, for pages (`replay --html`).
    fn picture_svg(
        &self,
        _view: &serde_json::Value,
        _ours: Option<&str>,
        _happenings: &[Happening],
    ) -> Option<String> {
        None
    }

    /// Orders a sample player would send now for `side` (`dustmail demo`); `None`: the first
    /// option of what the game awaits.
    fn sample_orders(&self, _state: &Self::State, _side: &str, _style: u32) -> Option<String> {
        None
    }
}
