//! The `move` line: a destination or path, then `spare …` (R150) or `facing <direction>` (R617).

use super::{err, square, Action, OrderError};
use crate::dust_tactics::battlefront::facing::Facing;
use crate::dust_tactics::model::Board;

/// Parses the words after `move` (not a transport move, `carry.rs`).
pub(super) fn parse(line: usize, rest: &str, board: &Board) -> Result<Action, OrderError> {
    // battlefront-2013, 003 "Move and March Move Actions": "end their move facing in any
    // direction" (R617): `move D3 facing W`.
    let at = rest.to_ascii_lowercase().rfind(" facing ");
    if let Some((path, dir)) = at.map(|i| (&rest[..i], &rest[i + 8..])) {
        let facing = Facing::parse(dir.trim()).ok_or_else(|| {
            err(
                line,
                "`facing` needs one direction: N, NE, E, SE, S, SW, W or NW",
                "move D3 facing W",
            )
        })?;
        let Action::Move { squares } = parse(line, path, board)? else {
            return Err(err(
                line,
                "`facing` and `spare` in one move line",
                "move D3 facing W (a vehicle crushes the crates it enters), or move D3 spare",
            ));
        };
        return Ok(Action::MoveFacing { squares, facing });
    }
    let words: Vec<&str> = rest
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let spare_at = words.iter().position(|w| w.eq_ignore_ascii_case("spare"));
    let (path, spared) = match spare_at {
        Some(p) => (&words[..p], Some(&words[p + 1..])),
        None => (&words[..], None),
    };
    if path.is_empty() {
        return Err(err(line, "`move` needs a destination square", "move C4"));
    }
    let squares = path
        .iter()
        .map(|w| square(line, w, board, "move C4"))
        .collect::<Result<Vec<_>, _>>()?;
    match spared {
        None => Ok(Action::Move { squares }),
        Some(spared) => {
            let spare = spared
                .iter()
                .map(|w| square(line, w, board, "move C4 spare C4"))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Action::MoveSparing { squares, spare })
        }
    }
}
