//! A MOVE whose path names heights inside a structure (004 "Moving": "A unit can use a **MOVE**
//! action to move up or down 1 floor for each MP spent."; R512, R514).
//!
//! ```text
//!   move <square>[@<floor>|@roof] …    every step: a neighbouring space, 1 floor up or down, or both
//! ```

use super::{err, square, Action, OrderError};
use crate::dust_tactics::floors::{self, Spot};
use crate::dust_tactics::model::Board;
use std::fmt;

/// A MOVE along `path`, heights named (`move E5 E5@2 F5@2`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Climb {
    pub path: Vec<Spot>,
}

/// Whether a `move` line's arguments name a height (and spare no crate: no vehicle climbs).
pub(super) fn is_climb(rest: &str) -> bool {
    let words = || rest.split(|c: char| c.is_whitespace() || c == ',');
    words().any(|w| w.contains('@')) && !words().any(|w| w.eq_ignore_ascii_case("spare"))
}

/// Parses the words after `move` of a path naming heights.
pub(super) fn parse(line: usize, rest: &str, board: &Board) -> Result<Action, OrderError> {
    let instead = "move E5 E5@2";
    let mut path = vec![];
    for w in rest
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
    {
        path.push(match floors::split(w) {
            None => (square(line, w, board, instead)?, None),
            Some((sq, Ok(h))) => (square(line, sq, board, instead)?, h),
            Some((_, Err(why))) => return Err(err(line, why, instead)),
        });
    }
    Ok(Action::Climb(Climb { path }))
}

impl fmt::Display for Climb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {}", floors::path_text(&self.path))
    }
}
