//! The Dust Tactics order commands (DESIGN §4), parsed from the lines of a signed block into
//! typed commands. Parsing checks syntax and that squares are on the board; whether a command is
//! legal now is the state machine's business.
//!
//! ```text
//! first <side>
//! activate <unit>
//!   move <square> [<square> …]
//!   attack <weapon> at <target>[, <weapon> at <target> …]
//!   sustained <weapon> at <target>[, …]
//!   skill <name> [at <target>]
//!   nothing
//! react <unit> | react none
//! casualties <unit>: <model> …
//! ```

use super::model::{Board, Square};
use crate::game::Line;

/// One command of a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// The initiative winner picks who activates first.
    First { side: String },
    /// Activate a unit with its actions, in order.
    Activate { unit: String, actions: Vec<Action> },
    /// Answer to a reactive-fire window: `None` declines.
    React { unit: Option<String> },
    /// Which models of `unit` are removed, in order.
    Casualties { unit: String, models: Vec<String> },
}

/// One action of an activation (004 "Actions").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Destination, or an explicit path (every square entered, in order).
    Move {
        squares: Vec<Square>,
    },
    Attack {
        fire: Vec<FireOrder>,
    },
    /// Takes both actions.
    Sustained {
        fire: Vec<FireOrder>,
    },
    Skill {
        name: String,
        target: Option<TargetRef>,
    },
    Nothing,
}

/// One weapon line fired at one target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FireOrder {
    pub weapon: String,
    pub target: TargetRef,
    /// Squares a flamethrower's spray passes through (`through C3 D3`), if chosen.
    pub through: Vec<Square>,
}

/// What a weapon or skill is aimed at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetRef {
    Unit(String),
    /// One named model of a squad (Sniper): `recon-rangers/2`.
    Model {
        unit: String,
        model: String,
    },
    /// A square: a cover element or trees.
    Square(Square),
}

/// A parsed command with the lines it spans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    pub first_line: usize,
    pub last_line: usize,
    pub command: Command,
}

/// A line that is not a command, with what to send instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct OrderError {
    pub line: usize,
    pub reason: String,
    pub instead: String,
}

/// Parses every command. Comments (`#`) and blank lines are skipped; a bad command is an error
/// in place, and the commands around it still parse.
pub fn parse(lines: &[Line], board: &Board) -> Vec<Result<Parsed, OrderError>> {
    // PLACEHOLDER (replaced by the orders work).
    let _ = board;
    lines
        .iter()
        .filter(|l| !l.text.trim().is_empty())
        .map(|l| {
            Err(OrderError {
                line: l.number,
                reason: format!("`{}` is not understood yet", l.text.trim()),
                instead: "see docs/orders.md".into(),
            })
        })
        .collect()
}
