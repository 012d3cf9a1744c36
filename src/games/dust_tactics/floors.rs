//! Heights inside structures (004 "STRUCTURES", "Moving": "A unit can use a **MOVE** action to
//! move up or down 1 floor for each MP spent."; "Units inside can also move onto the
//! structure's roof by moving up from the structure's top floor.").
//!
//! The design is R512: a unit's height is the ground floor (no value: the default, left out of
//! the serialised state so games made before replay byte for byte), a floor above it, or the
//! roof. A path names a height after the square (`E5@2`, `E5@roof`). Only the model and the
//! syntax are built (R513): scenarios with `floors` above 1 are still refused when read (R500),
//! so no unit is ever above the ground floor, and a square written with a height is refused
//! naming the rule, instead of "not a square".

use super::model::Square;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A height above the ground floor (R512). Floor 1 is the ground floor and is never stored:
/// a unit on it has no `Height` at all, so a `Floor` is always 2 or more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Height {
    /// Floor 2 or above, inside the structure.
    Floor(u8),
    /// On top of the structure, outside it (004 "Cover": "A squad on the roof of a structure is
    /// outside of that structure.").
    Roof,
}

impl fmt::Display for Height {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Height::Floor(n) => write!(f, "@{n}"),
            Height::Roof => f.write_str("@roof"),
        }
    }
}

/// A word written `<square>@<height>` (R512's path syntax): the square part and the height,
/// `None` for `@1` (the ground floor). `None` overall for a word without `@`; `Err` with the
/// reason for a height that is not one.
pub fn split(word: &str) -> Option<(&str, Result<Option<Height>, String>)> {
    let (square, height) = word.split_once('@')?;
    let parsed = if height.eq_ignore_ascii_case("roof") {
        Ok(Some(Height::Roof))
    } else {
        match height.parse::<u8>() {
            Ok(1) => Ok(None),
            Ok(n) if n >= 2 => Ok(Some(Height::Floor(n))),
            _ => Err(format!(
                "`{word}`: a height is a floor number from 1 (the ground floor) or `roof`, like {square}@2 or {square}@roof"
            )),
        }
    };
    Some((square, parsed))
}

/// The refusal of a square written with a height, while floors are not built (R513): every
/// structure has one floor (R500), so the only height there is is the ground floor, written as
/// the plain square. `None` for a word without `@`.
pub fn refusal(word: &str) -> Option<String> {
    let (square, height) = split(word)?;
    let square = square.to_ascii_uppercase();
    Some(match height {
        Err(reason) => reason,
        Ok(None) => format!(
            "`{word}` names the ground floor: write the square alone, {square} (R513)"
        ),
        Ok(Some(h)) => format!(
            "`{word}` names a height above the ground floor ({}), and every structure here has one floor: floors and roofs are not built yet (004 \"Moving\": \"A unit can use a MOVE action to move up or down 1 floor for each MP spent.\"; R512, R513); write {square}",
            h.describe()
        ),
    })
}

impl Height {
    /// "floor 2", "the roof".
    pub fn describe(self) -> String {
        match self {
            Height::Floor(n) => format!("floor {n}"),
            Height::Roof => "the roof".into(),
        }
    }
}

/// Where a unit stands as the board text writes it (R512): `E5` on the ground floor and
/// outside, `E5@2` on a floor above, `E5@roof` on the roof.
pub fn place(at: Square, height: Option<Height>) -> String {
    match height {
        Some(h) => format!("{at}{h}"),
        None => at.to_string(),
    }
}
