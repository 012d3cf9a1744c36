//! The lines held for a battle fought on the table (issue 15; rulings R340, R341). In a game of
//! a strategic campaign (policy revision 1 and later) a land attack that goes to the table
//! holds the attacker's later lines of the same mail, as `ask` holds them for a defender's
//! answer: each is answered `held`, and they run, in order and with their conditions, in the
//! step of the referee's `decide` control that brings the result, with that control's dice.
//! Their receipts go to the attacker alone. A battle power or a retreat order on a line whose
//! battle goes to the table is refused: both act on 001's battle dice, which the table replaces.

use super::combat;
use super::*;
use crate::game::Audience;
use serde::{Deserialize, Serialize};

const POWER_RULE: &str =
    "001 'Poteri Speciali' and 'Ritirata'; docs/campaigns.md 'A strategic campaign' (ruling R341)";

/// An attacker's lines waiting for the result of a battle fought on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    pub attacker: String,
    pub battle: u32,
    pub area: String,
    /// (line number in the attacker's mail, text).
    pub lines: Vec<(usize, String)>,
    /// The first refused line of the mail before the attack (`end` then stays refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earlier: Option<usize>,
}

/// After a line: a battle it just sent to the table takes the rest of the mail, each line
/// answered `held`. `None` when the line sent no battle to the table.
pub(super) fn hold(
    s: &mut State,
    earlier: Option<usize>,
    rest: Vec<(usize, String)>,
) -> Option<Vec<Reply>> {
    let a = s.tactical.as_mut()?.awaited.as_mut().filter(|a| a.fresh)?;
    a.fresh = false;
    let replies = rest
        .iter()
        .map(|(n, _)| {
            accepted(
                *n,
                format!(
                    "held: runs when the result of battle {} at {} (fought on the table) is in",
                    a.battle, a.to
                ),
            )
        })
        .collect();
    if !rest.is_empty() {
        a.held = Some(Held {
            attacker: a.attacker.clone(),
            battle: a.battle,
            area: a.to.clone(),
            lines: rest,
            earlier,
        });
    }
    Some(replies)
}

/// The control's step after a `decide`: the decided battle's held lines run as the attacker's,
/// in order, with their conditions (`if attack N won` reads the table's result); a later
/// attack may pause again (for the table or for a defender's `ask`), holding the rest.
pub(super) fn run(s: &mut State, dice: &mut dyn DiceSource) -> Outcome {
    let Some(h) = s.tactical.as_mut().and_then(|t| t.ready.take()) else {
        return Outcome::default();
    };
    let mut said = Vec::new();
    let mut earlier = h.earlier;
    let mut step = Step {
        s,
        side: &h.attacker,
        dice,
        out: Outcome::default(),
    };
    for (i, (n, text)) in h.lines.iter().enumerate() {
        let r = step.command(*n, text, earlier);
        if earlier.is_none() && matches!(r.outcome, CommandOutcome::Refused { .. }) {
            earlier = Some(*n);
        }
        said.push(ask::receipt(&r));
        step.out.results.push(r);
        let rest = h.lines[i + 1..].to_vec();
        let more = hold(step.s, earlier, rest.clone())
            .or_else(|| ask::hold(step.s, *n, text, earlier, rest));
        if let Some(more) = more {
            said.extend(more.iter().map(ask::receipt));
            step.out.results.extend(more);
            break;
        }
    }
    let mut out = step.out;
    out.happenings.push(Happening {
        text: format!(
            "{}: your lines held for battle {} at {}: {}",
            h.attacker,
            h.battle,
            h.area,
            said.join("; ")
        ),
        audience: Audience::Side(h.attacker.clone()),
        ..Happening::default()
    });
    out
}

/// Ruling R341: on a line whose battle goes to the table, a battle power or a retreat order is
/// refused (the line changes nothing): both act on 001's battle dice, which are not rolled.
pub(super) fn power_on_table(
    s: &State,
    side: &str,
    line: usize,
    o: &combat::Order,
) -> Option<Reply> {
    let t = s.tactical.as_ref().filter(|t| t.revision >= 1)?;
    if o.power.is_none() && o.retreat.is_none() || !elsewhere::fought_elsewhere(s, side, o) {
        return None;
    }
    let what = match (&o.power, &o.retreat) {
        (Some(p), Some(_)) => format!("the battle power {p} and a retreat order"),
        (Some(p), None) => format!("the battle power {p}"),
        _ => "a retreat order".to_string(),
    };
    Some(refused(
        line,
        format!(
            "this attack on {} is fought on the table as a Dust Tactics game (battle {}): {what} act on this game's battle dice (rerolls, firepower, the retreat before each roll), which a battle on the table does not roll; nothing was done",
            o.to,
            t.count + 1
        ),
        POWER_RULE,
        format!(
            "attack {} from {} to {} (the table decides the battle; the power stays unused), or with arma-segreta, which makes the defenders withdraw before any battle",
            units_text(&o.units),
            o.from,
            o.to
        ),
    ))
}
