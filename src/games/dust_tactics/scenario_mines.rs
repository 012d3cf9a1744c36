//! 004 "Minefields" in a scenario file: `[board] mines = [{ at = "C4", tokens = 2 }]`, checked
//! against the terrain (tokens only where soldier units can pass).

use super::model::{Board, Terrain};
use super::scenario::ScenarioError;
use serde::Deserialize;

/// The most tokens one square may carry: one digit on the text board, and more dice per
/// miniature than any rulebook example shows (provisional bound, R480).
pub const MAX_TOKENS: u8 = 9;

/// One entry of `[board] mines` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMines {
    at: String,
    /// Minefield tokens on the square (1 when left out).
    #[serde(default = "one")]
    tokens: u8,
}

fn one() -> u8 {
    1
}

/// Whether soldier units can pass through a square of this terrain (004 "Terrain types": only
/// impassable terrain and deep water stop them).
pub fn soldiers_pass(t: Terrain) -> bool {
    !matches!(t, Terrain::Impassable | Terrain::DeepWater)
}

/// Puts the scenario's minefield tokens on the board. 004 "Minefields": "Minefield tokens can
/// only be placed in spaces that soldier units can pass through."
pub fn place(name: &str, board: &mut Board, raw: &[RawMines]) -> Result<(), ScenarioError> {
    for (i, m) in raw.iter().enumerate() {
        let field = format!("board.mines[{i}]");
        let err = |msg: String| ScenarioError(format!("scenario {name}: `{field}`: {msg}"));
        let Some(sq) = board.parse_square(&m.at) else {
            return Err(err(format!(
                "`{}` is not a square on this board: write a column letter and a row number like C4",
                m.at
            )));
        };
        if !soldiers_pass(board.terrain(sq)) {
            return Err(err(format!(
                "{sq} is {} terrain, and minefield tokens can only be placed in spaces that \
                soldier units can pass through (004 \"Minefields\"): move them to another square",
                board.terrain(sq).name()
            )));
        }
        if m.tokens == 0 || m.tokens > MAX_TOKENS {
            return Err(err(format!(
                "{} tokens on {sq}: write a number from 1 to {MAX_TOKENS}, like tokens = 1",
                m.tokens
            )));
        }
        if board.mines.insert(sq, m.tokens).is_some() {
            return Err(err(format!(
                "{sq} is listed twice: give its tokens in one entry, like {{ at = \"{sq}\", tokens = 2 }}"
            )));
        }
    }
    Ok(())
}
