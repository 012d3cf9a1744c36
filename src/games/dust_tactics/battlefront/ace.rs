//! 003/002 "Ace Pilot" under battlefront-2013 (issue 18, R608): "A Hero with the Ace Pilot skill
//! rolls one die when a Vehicle or Aircraft that they are piloting activates. If the result is
//! [lost], the Vehicle or Aircraft has three actions for this activation" (003); "On a [army] or
//! [target] the Vehicle gains a third Action for this Activation" (002). 003 "Reacting to Extra
//! Actions": "Some special rules allow units to perform three actions when they activate. If a
//! unit makes a Reactive Attack against such a unit, the Reactive Attack will occur immediately
//! before the last action of the three." The extra action is planned as the engine's (R543,
//! `flow::piloting`); this module holds the die and where the reaction goes.

use super::dice::Symbol;
use crate::dust_tactics::rules::Rules;
use crate::dust_tactics::state::{Activation, Step};
use crate::game::{Happening, Outcome, Roll};

/// The section the report cites.
pub const RULE: &str = "002 \"Ace Pilot\"";

/// Whether the plan opens a reaction window right before the extra action `extra` (its steps):
/// under 003's graded reactions, unless the extra action is Nothing (as no reaction is declared
/// against a unit whose last action is Nothing, 003 "Reactive Attacks").
pub fn before_extra(rules: Rules, extra: &[Step]) -> bool {
    rules.reactive_graded() && !matches!(extra, [Step::Nothing])
}

/// Whether a reaction window is passed over: the unit gained its third action and a later
/// window (the one before that action) is still to come.
pub fn deferred(act: &Activation) -> bool {
    act.flags.ace_extra && act.steps.iter().any(|s| matches!(s, Step::Window))
}

/// The Ace Pilot's die as `act`'s vehicle activates (or, `title` "Infantry Ace", 002's Infantry
/// Ace's as the hero's group activates, R761): army or target gives the third action.
pub fn ace_die(
    act: &mut Activation,
    pilot: &str,
    title: &str,
    face: u8,
    round: u32,
    out: &mut Outcome,
) {
    let rule = format!("002 \"{title}\"");
    let s = Symbol::of_face(face);
    act.flags.ace_extra = matches!(s, Symbol::Army | Symbol::Target);
    let ordered = act.steps.iter().any(|s| matches!(s, Step::AceExtra));
    let text = match (act.flags.ace_extra, ordered) {
        (true, true) => format!(
            "{title}: {pilot} rolls {}: {} has three actions this activation ({rule})",
            s.name(),
            act.unit
        ),
        (true, false) => format!(
            "{title}: {pilot} rolls {}: {} may take three actions (none more was ordered) ({rule})",
            s.name(),
            act.unit
        ),
        (false, true) => format!(
            "{title}: {pilot} rolls {}: no third action, so the third one ordered is not made ({rule})",
            s.name()
        ),
        (false, false) => format!(
            "{title}: {pilot} rolls {}: no third action ({rule})",
            s.name()
        ),
    };
    out.happenings.push(Happening {
        rolls: vec![Roll {
            purpose: format!("{} for {}", title.to_ascii_lowercase(), act.unit),
            round,
            faces: vec![face],
        }],
        ..Happening::text(text)
    });
}
