//! 003 "Passing": "A player may pass instead of activating a unit if they have fewer units still
//! to activate than their opponent." The pass uses the player's turn; the opponent activates
//! next, and the player may pass again while they still have fewer (R237).

use crate::dust_tactics::citation::RuleId;
use crate::dust_tactics::flow::Refusal;
use crate::dust_tactics::state::{Phase, State};
use crate::game::{Happening, Outcome};

const RULE: &str = "003 \"Passing\"";

fn refuse(reason: String, rule: String, instead: &str) -> Result<String, Refusal> {
    Err(Refusal {
        reason,
        rule,
        instead: instead.to_string(),
    })
}

/// Units of `side` still to activate this turn (on the board or still to enter). 003
/// "Passing": "fewer units (including Heroes that have joined other units)" (R258); but "Count
/// the Hero and Vehicle as a single unit" (003 "Piloting Vehicles", R262): a pilot is not counted.
fn left_to_activate(state: &State, side: &str) -> usize {
    state
        .units
        .iter()
        .filter(|u| u.side == side && !u.destroyed && !u.activated && !state.is_pilot(u))
        .count()
}

/// Whether `side` may pass now (the checks of [`pass`], nothing changed).
pub fn may_pass(state: &State, side: &str) -> bool {
    pass(&mut state.clone(), side, &mut Outcome::default()).is_ok()
}

/// The refusal of `pass` under the rulesets without it.
pub fn not_this_ruleset() -> Refusal {
    Refusal {
        reason: "`pass` belongs to the battlefront-2013 rules, not this game: activate a unit with `nothing` instead".into(),
        rule: RuleId::Orders.to_string(),
        instead: "activate <unit>\n  nothing".into(),
    }
}

/// `pass` from `side`: accepted under battlefront-2013 when it is the side's turn and it has
/// fewer units left to activate than the side that would activate next, which then does.
pub fn pass(state: &mut State, side: &str, out: &mut Outcome) -> Result<String, Refusal> {
    if !state.rules().battlefront() {
        return Err(not_this_ruleset());
    }
    if !matches!(state.phase, Phase::Activations) || state.next_side.as_deref() != Some(side) {
        return refuse(
            format!(
                "{side} may pass only when it is its turn to activate a unit{}",
                match &state.next_side {
                    Some(s) if s != side => format!(" (it is {s}'s turn)"),
                    _ => String::new(),
                }
            ),
            RULE.into(),
            "wait for your turn",
        );
    }
    let sides = state.sides();
    let i = sides.iter().position(|s| s == side).unwrap_or(0);
    let next = (1..sides.len())
        .map(|k| sides[(i + k) % sides.len()].clone())
        .find(|s| left_to_activate(state, s) > 0);
    let mine = left_to_activate(state, side);
    let Some(next) = next else {
        return refuse(
            format!("no other side has a unit left to activate, so {side} cannot pass"),
            RULE.into(),
            "activate one of your units",
        );
    };
    let theirs = left_to_activate(state, &next);
    if mine >= theirs {
        return refuse(
            format!(
                "{side} has {mine} unit(s) still to activate and {next} {theirs}: a player may pass only with fewer units still to activate than the opponent"
            ),
            RULE.into(),
            "activate one of your units",
        );
    }
    out.happenings.push(Happening::text(format!(
        "{side} passes ({mine} unit(s) still to activate against {theirs} of {next}); {next} activates next"
    )));
    state.next_side = Some(next);
    Ok("pass".into())
}
