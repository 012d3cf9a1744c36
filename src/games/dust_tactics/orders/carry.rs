//! The MOVE orders of 004 "Carry Capacity" (R461): boarding and exiting a vehicle.
//!
//! ```text
//!   move [<square> …] board <vehicle>    move there (maybe nowhere), then spend 1 MP to board
//!   move exit <square> [<square> …]      1 MP to exit onto <square>, then move on normally
//!   move lift <square> [<square> …]      002: an Airlifter picks up the vehicle beneath it, then
//!                                        flies on (R748)
//! ```

use super::{err, id, square, Action, OrderError};
use crate::dust_tactics::model::{Board, Square};
use std::fmt;

/// A MOVE action that boards or exits a vehicle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// Move along `path` (may be empty: the unit already stands next to it), then board.
    Board { path: Vec<Square>, vehicle: String },
    /// Exit onto `path[0]`, adjacent to the vehicle, then move on through the rest.
    Exit { path: Vec<Square> },
    /// 002 "Airlifter" (R748): an Airlifter over a vehicle picks it up and moves along `path`.
    Lift { path: Vec<Square> },
}

/// Whether a `move` line's arguments are a boarding or an exit.
pub(super) fn is_transport(rest: &str) -> bool {
    rest.split_whitespace().any(|w| {
        ["board", "exit", "lift"]
            .iter()
            .any(|k| w.eq_ignore_ascii_case(k))
    })
}

/// Parses `move … board <vehicle>` or `move exit <square> …` (the words after `move`).
pub(super) fn parse(line: usize, rest: &str, board: &Board) -> Result<Action, OrderError> {
    let words: Vec<&str> = rest
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let squares = |ws: &[&str], instead: &str| {
        ws.iter()
            .map(|w| square(line, w, board, instead))
            .collect::<Result<Vec<_>, _>>()
    };
    if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("exit"))
    {
        let instead = "move exit C4";
        if words.len() < 2 {
            return Err(err(
                line,
                "`move exit` needs the square next to the vehicle the unit is placed on",
                instead,
            ));
        }
        let path = squares(&words[1..], instead)?;
        return Ok(Action::Transport(Transport::Exit { path }));
    }
    if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("lift"))
    {
        let instead = "move lift C4";
        if words.len() < 2 {
            return Err(err(
                line,
                "`move lift` needs the squares the Airlifter flies to with the vehicle",
                instead,
            ));
        }
        let path = squares(&words[1..], instead)?;
        return Ok(Action::Transport(Transport::Lift { path }));
    }
    let instead = "move C4 board apc";
    let Some(at) = words.iter().position(|w| w.eq_ignore_ascii_case("board")) else {
        return Err(err(
            line,
            "`exit` comes first: `move exit <square> …`",
            "move exit C4",
        ));
    };
    let vehicle = match &words[at + 1..] {
        [v] => id(v).ok_or_else(|| {
            err(
                line,
                format!("`{v}` is not a unit id (letters, digits and dashes)"),
                instead,
            )
        })?,
        _ => {
            return Err(err(
                line,
                "`board` is followed by the one vehicle to board",
                instead,
            ))
        }
    };
    let path = squares(&words[..at], instead)?;
    Ok(Action::Transport(Transport::Board { path, vehicle }))
}

impl fmt::Display for Transport {
    /// The canonical order line, which parses back to the same action.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("move")?;
        let (path, tail) = match self {
            Transport::Board { path, vehicle } => (path, Some(vehicle)),
            Transport::Exit { path } => {
                f.write_str(" exit")?;
                (path, None)
            }
            Transport::Lift { path } => {
                f.write_str(" lift")?;
                (path, None)
            }
        };
        for s in path {
            write!(f, " {s}")?;
        }
        if let Some(v) = tail {
            write!(f, " board {v}")?;
        }
        Ok(())
    }
}
