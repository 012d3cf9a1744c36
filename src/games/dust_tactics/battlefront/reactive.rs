//! 003 "Reactive Attacks" for battlefront-2013 (issue 18, second slice). The window, the
//! standing orders and the `react` answer are the engine's (flow/reactive_fire.rs); this module
//! holds what 003 does differently, called from small marked hooks there:
//! - "at a Range of four squares or less from the activating unit" ([`RANGE`]; 002's Advanced
//!   Reactive Fire: 6, counting target symbols as army, R715);
//! - "roll two dice": both army a Sustained Attack, one army an Attack, none a Nothing
//!   ([`grade`]; the Move-to-rotate choice of two army needs facing, R271);
//! - "Units making a Reactive Attack cannot use Close-Combat Weapons" ([`allows`]).
//!
//! The planner opens no window after a Sustained Attack or before a second action of Nothing;
//! a March Move is reacted to after its first `move` (R256, superseding R272).

use super::dice::{self, Symbol};
use crate::dust_tactics::flow::Refusal;
use crate::dust_tactics::geometry;
use crate::dust_tactics::model::{Square, WeaponLine, WeaponRange};
use crate::dust_tactics::rules::Rules;

/// 003 "Reactive Attacks": "at a Range of four squares or less from the activating unit".
pub const RANGE: u32 = 4;

/// The roll's purpose in the ledger and reports (`dice::RollKind::of_purpose` reads it back).
pub const PURPOSE: &str = "reactive attack";

/// 002 "Advanced Reactive Fire": "can attempt a Reactive Attack at up to Range 6" (R715).
pub const ADVANCED_RANGE: u32 = 6;

/// Whether a unit at `from` is close enough to react against the activating unit at `to`
/// (`advanced`: it has 002's Advanced Reactive Fire, R715).
pub fn within_range(from: Square, to: Square, advanced: bool) -> bool {
    geometry::distance(from, to) <= if advanced { ADVANCED_RANGE } else { RANGE }
}

/// Whether a weapon line may fire in a reactive attack: 003 "No Close-Combat Reactive Attacks":
/// "Units making a Reactive Attack cannot use Close-Combat Weapons (those with Range C)".
pub fn allows(w: &WeaponLine) -> bool {
    w.range != WeaponRange::Close
}

/// What a reactive attack's two dice let the reacting unit do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grade {
    /// Both dice army: "a Sustained Attack action, or a Move action followed by an Attack".
    Sustained,
    /// "On a single [army], the unit succeeds and will activate for an Attack action."
    Attack,
    /// "If both dice roll [target] or [shield] the unit activates for a Nothing action."
    Nothing,
}

/// The grade of a reactive attack's two dice (counting army symbols, R230's faces; with 002's
/// Advanced Reactive Fire, `advanced`, target symbols count as army symbols too, R715).
pub fn grade(faces: &[u8], advanced: bool) -> Grade {
    let targets = if advanced {
        dice::count(faces, Symbol::Target)
    } else {
        0
    };
    match dice::count(faces, Symbol::Army) + targets {
        0 => Grade::Nothing,
        1 => Grade::Attack,
        _ => Grade::Sustained,
    }
}

/// The report's words for a grade.
pub fn grade_text(g: Grade) -> &'static str {
    match g {
        Grade::Sustained => "two army symbols, it makes a Sustained Attack",
        Grade::Attack => "one army symbol, it makes an Attack",
        Grade::Nothing => "no army symbol, it does Nothing and is activated",
    }
}

/// A refused `react` of a battlefront-2013 game cites 003's section (the engine's window and
/// its refusals are shared with 004, whose section they cite otherwise); a refusal citing a
/// section of 003 already (R819's) keeps it.
pub fn cite(rules: Rules, mut refusal: Refusal) -> Refusal {
    if rules.reactive_graded() && !refusal.rule.starts_with("003 ") {
        refusal.rule = format!(
            "003 \"Reactive Attacks\": a unit within {RANGE} squares that has not activated may react after the first action (ruling R270, docs/rulings.md)"
        );
        refusal.reason = refusal.reason.replace("reactive-fire", "reactive-attack");
    }
    refusal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_dice_graded_by_army_symbols() {
        assert_eq!(grade(&[1, 2], false), Grade::Sustained);
        assert_eq!(grade(&[2, 5], false), Grade::Attack);
        assert_eq!(grade(&[3, 6], false), Grade::Nothing);
        // R715: Advanced Reactive Fire counts the target symbol as army.
        assert_eq!(grade(&[3, 6], true), Grade::Attack);
        assert_eq!(grade(&[3, 1], true), Grade::Sustained);
        assert_eq!(grade(&[5, 6], true), Grade::Nothing);
    }
}
