//! 003 "Reactive Attacks", the two gaps of the second slice (issue 18 item 3):
//! - two army symbols let the reacting unit make "either a Sustained Attack action, or a Move
//!   action followed by an Attack action. The Move action can only be used to rotate the model"
//!   ([`TwoArmy`]; the owner's choice by `react <unit> turn|sustained`, the referee's default
//!   [`default_choice`], R255); either way the reaction fires only what its field of fire
//!   allows ([`in_arc`]);
//! - "Reacting to a March Move": "the unit makes a normal Move action before you attempt the
//!   Reactive Attack, then completes its March Move afterwards" ([`split_march`], R256).

use super::facing::{self, Facing};
use crate::dust_tactics::model::{Square, WeaponLine};
use crate::dust_tactics::state::State;
use crate::dust_tactics::state::Step;

/// The rules revision that brought R255–R256 (`rules::RULES_REVISION`): a battlefront-2013 game
/// made before keeps R271 and R272 (docs/ledger.md "Rules revisions").
pub const REVISION: u32 = 4;

/// Whether `state` plays R255–R256.
pub fn applies(state: &State) -> bool {
    state.rules().battlefront() && state.revised(REVISION)
}

/// What a reacting unit that rolled two army symbols does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TwoArmy {
    /// A Sustained Attack from where it faces.
    Sustained,
    /// A Move that only turns it to face the activating unit, then an Attack.
    Turn,
}

impl TwoArmy {
    /// The word of the `react <unit> <word>` order.
    pub fn word(self) -> &'static str {
        match self {
            TwoArmy::Sustained => "sustained",
            TwoArmy::Turn => "turn",
        }
    }

    /// Reads the word of `react <unit> turn|sustained`.
    pub fn parse(word: &str) -> Option<TwoArmy> {
        match word.to_ascii_lowercase().as_str() {
            "sustained" => Some(TwoArmy::Sustained),
            "turn" => Some(TwoArmy::Turn),
            _ => None,
        }
    }
}

/// The facing that turns a unit on `from` towards `to`: the direction of a step towards it,
/// which always has `to` in its front arc (R255).
pub fn towards(from: Square, to: Square) -> Option<Facing> {
    Facing::of_delta(
        to.col() as i32 - from.col() as i32,
        to.row() as i32 - from.row() as i32,
    )
}

/// Whether weapon `w` of reacting unit `r` facing `facing` on `from` may fire at unit `t` on
/// `to`: 003's normal attack rules apply to a reaction ("With 1 [army] it can fire only
/// turret/hatch weapons", the Ludwig against Pounder example); a Huge vehicle's arc is R792's.
pub fn in_arc(
    state: &State,
    (r, from): (&str, Square),
    (t, to): (&str, Square),
    w: &WeaponLine,
    facing: Option<Facing>,
) -> bool {
    match facing {
        Some(f) if facing::front_mounted(w) => {
            facing::in_arc_of(state, (r, from), (Some(t), to), f)
        }
        _ => true,
    }
}

/// R255: the referee's choice when the owner stated none: turning then attacking when that
/// brings more weapon lines to bear than a Sustained Attack from the present facing (a
/// front-mounted gun pointing away), else the Sustained Attack (its re-roll is worth more).
pub fn default_choice(lines_now: usize, lines_turned: usize) -> TwoArmy {
    if lines_turned > lines_now {
        TwoArmy::Turn
    } else {
        TwoArmy::Sustained
    }
}

/// The orders template's lines on an awaited reactive-attack window (72 columns), with the
/// choice `word` (`turn` or `sustained`) shown for `example`, one of the units that may react.
pub fn template(example: &str, word: &str) -> String {
    format!(
        "# Reactive attack (003): one unactivated unit within 4 squares rolls 2\n\
         # dice (it is then activated): two army symbols, a Sustained Attack, or\n\
         # a Move that only turns it towards the activating unit, then an\n\
         # Attack; one, an Attack; none, Nothing. Add `turn` or `sustained`\n\
         # after the unit to choose (by default it turns when that brings more\n\
         # weapons to bear):\n\
         #   react {example} {word}\n"
    )
}

/// The report's words for a reaction that turns before its Attack.
pub fn turn_text(unit: &str, facing: Facing, target: &str) -> String {
    format!(
        "{unit} uses its two army symbols for a Move that only turns it, to face {facing} towards {target}, then an Attack"
    )
}

/// R256: a March Move on the board is one move of the engine; under battlefront-2013 its path
/// is cut where the first `move` line ended (a normal Move), so the reaction window opens
/// between the two parts. `first_len` is the number of squares of the first part; the crates
/// crushed go with the part that enters them. `None` when there is nothing to cut.
pub fn split_march(step: &Step, first_len: usize) -> Option<(Step, Step)> {
    let Step::Move { path, crushed } = step else {
        return None;
    };
    if first_len == 0 || first_len >= path.len() {
        return None;
    }
    let (a, b) = path.split_at(first_len);
    let part = |p: &[Square]| Step::Move {
        path: p.to_vec(),
        crushed: crushed.iter().copied().filter(|c| p.contains(c)).collect(),
    };
    Some((part(a), part(b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dust_tactics::model::Board;

    #[test]
    fn turning_towards_puts_the_target_in_the_arc() {
        let b = Board::open(9, 9).unwrap();
        let from = b.parse_square("E5").unwrap();
        for t in ["A1", "B4", "E1", "I3", "I5", "H9", "E9", "A6", "D7"] {
            let to = b.parse_square(t).unwrap();
            let f = towards(from, to).unwrap();
            assert!(facing::in_front_arc(f, from, to), "{t} {f}");
        }
        assert_eq!(towards(from, from), None);
    }

    #[test]
    fn march_split_at_the_first_part() {
        let b = Board::open(9, 9).unwrap();
        let sq = |s: &str| b.parse_square(s).unwrap();
        let step = Step::Move {
            path: vec![sq("E4"), sq("E3"), sq("E2")],
            crushed: vec![sq("E2")],
        };
        let (a, c) = split_march(&step, 1).unwrap();
        assert_eq!(
            a,
            Step::Move {
                path: vec![sq("E4")],
                crushed: vec![]
            }
        );
        assert_eq!(
            c,
            Step::Move {
                path: vec![sq("E3"), sq("E2")],
                crushed: vec![sq("E2")]
            }
        );
        assert!(split_march(&step, 3).is_none());
        assert!(split_march(&step, 0).is_none());
    }
}
