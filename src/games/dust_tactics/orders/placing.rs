//! `place <piece> at <square>`: a terrain square or a cover element placed while the battlefield
//! is set up by the rolls (004 "SETUP", R700).
//!
//! ```text
//!   place terrain at C4      a terrain square (the square loses its dot: impassable)
//!   place crate at D5        an ammo crate
//!   place trap at E5         a tank trap
//! ```

use super::{err, square, Command, OrderError};
use crate::dust_tactics::model::Board;
use crate::dust_tactics::placing::{Piece, Placement};

const EXAMPLE: &str = "place terrain at C4";

/// Parses a whole `place` line.
pub(super) fn parse(line: usize, text: &str, board: &Board) -> Result<Command, OrderError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [_, piece, at, sq] = words.as_slice() else {
        return Err(err(
            line,
            format!("`{text}` is not understood: write `place <terrain|crate|trap|objective> at <square>`"),
            EXAMPLE,
        ));
    };
    let Some(piece) = Piece::parse(piece) else {
        return Err(err(
            line,
            format!("`{piece}` is not a piece to place: terrain, crate, trap or objective"),
            EXAMPLE,
        ));
    };
    if !at.eq_ignore_ascii_case("at") {
        return Err(err(
            line,
            format!("`place {}` is followed by `at <square>`", piece.word()),
            format!("place {} at C4", piece.word()),
        ));
    }
    let at = square(line, sq, board, EXAMPLE)?;
    Ok(Command::Place(Placement { piece, at }))
}
