//! `place <piece> at <square>`: a terrain square or a cover element placed while the battlefield
//! is set up by the rolls (004 "SETUP", R700).
//!
//! ```text
//!   place terrain at C4      a terrain square (the square loses its dot: impassable)
//!   place crate at D5        an ammo crate
//!   place trap at E5         a tank trap
//!   place bunker E4 F4 facing N    battlefront-2013: a bunker's two inside squares and its facing
//!   place strongpoint E4 F4        a strongpoint's two inside squares (002, R589)
//! ```

use super::{err, square, Command, OrderError};
use crate::dust_tactics::battlefront::facing::Facing;
use crate::dust_tactics::model::Board;
use crate::dust_tactics::placing::{Piece, Placement};

const EXAMPLE: &str = "place terrain at C4";

/// Parses a whole `place` line.
pub(super) fn parse(line: usize, text: &str, board: &Board) -> Result<Command, OrderError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if let Some(piece) = words
        .get(1)
        .and_then(|w| Piece::parse(w))
        .filter(|p| matches!(p, Piece::Bunker | Piece::Strongpoint))
    {
        return fortification(line, text, &words, piece, board);
    }
    let [_, piece, at, sq] = words.as_slice() else {
        return Err(err(
            line,
            format!("`{text}` is not understood: write `place <terrain|crate|trap|objective> at <square>` (or `place bunker E4 F4 facing N`, `place strongpoint E4 F4`)"),
            EXAMPLE,
        ));
    };
    let Some(piece) = Piece::parse(piece) else {
        return Err(err(
            line,
            format!("`{piece}` is not a piece to place: terrain, crate, trap, objective, bunker or strongpoint"),
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
    Ok(Command::Place(Placement::on(piece, at)))
}

/// `place bunker E4 F4 facing N`, `place strongpoint E4 F4`: the two inside squares and a
/// bunker's facing (002 "Deploying Fortifications", R589); the flow checks the rest.
fn fortification(
    line: usize,
    text: &str,
    words: &[&str],
    piece: Piece,
    board: &Board,
) -> Result<Command, OrderError> {
    let example = match piece {
        Piece::Bunker => "place bunker E4 F4 facing N",
        _ => "place strongpoint E4 F4",
    };
    let (a, b, facing) = match words {
        [_, _, a, b] => (a, b, None),
        [_, _, a, b, f, dir] if f.eq_ignore_ascii_case("facing") => (a, b, Some(dir)),
        _ => {
            return Err(err(
                line,
                format!("`{text}` is not understood: write `place bunker <square> <square> facing <N|E|S|W>` or `place strongpoint <square> <square>`, the two inside squares side by side"),
                example,
            ))
        }
    };
    let at = square(line, a, board, example)?;
    let to = square(line, b, board, example)?;
    let facing = match facing {
        None => None,
        Some(d) => Some(Facing::parse(d).ok_or_else(|| {
            err(
                line,
                format!("`{d}` is not a facing: write N, E, S or W"),
                example,
            )
        })?),
    };
    Ok(Command::Place(Placement {
        piece,
        at,
        to: Some(to),
        facing,
    }))
}
