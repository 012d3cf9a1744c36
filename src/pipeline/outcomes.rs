//! Who hears about an accepted submission (issue 16 item 4): a mail with nothing applied is
//! answered as a refusal to its sender alone, and a mail that only asks for the report or the
//! template is answered to the requester alone. The ledger line is the same in every case (its
//! seq is used up, docs/orders.md); only the mails and the run's counts follow from this.

use crate::game::CommandOutcome;
use crate::ledger::{Head, Player, Submission};
use crate::outbox::Mail;
use crate::pbem::{error::*, lines, store::*};
use crate::pipeline::*;
use serde_json::json;

/// Which mails an accepted submission earns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answer {
    /// Something was applied: the receipt, and a report to every reader.
    Everyone,
    /// Only `report`/`template` (and refused lines): the receipt and the report to the sender.
    RequesterOnly,
    /// Every command was refused and nothing happened: a refusal to the sender, nothing else.
    NothingApplied,
}

/// Classifies an accepted submission from its ledger line alone, so a mail re-rendered after a
/// crash gets the same answer.
pub(crate) fn answer_of(s: &Submission) -> Answer {
    let st = &s.step;
    let happened = !st.happenings.is_empty()
        || !st.rounds_ended.is_empty()
        || st.finished.is_some()
        || !st.draws.is_empty();
    if !s.accepted || happened {
        return Answer::Everyone;
    }
    // A block of comments only (the orders template sent back without choosing a line).
    if st.results.is_empty() {
        return Answer::NothingApplied;
    }
    // The signed lines by number, to tell a `report`/`template` request from a game command.
    let body = crate::mail::parse_body(&s.canonical).ok();
    let is_request = |line: usize| {
        body.as_ref()
            .and_then(|b| b.lines.iter().find(|l| l.number == line))
            .and_then(|l| lines::parse(&l.text))
            .is_some_and(|r| {
                matches!(
                    r,
                    Ok(lines::RefereeRequest::Report
                        | lines::RefereeRequest::Template
                        | lines::RefereeRequest::TimeZone { .. })
                )
            })
    };
    let mut requests = 0;
    for r in &st.results {
        match &r.outcome {
            CommandOutcome::Refused { .. } => {}
            CommandOutcome::Accepted { .. } if is_request(r.line) => requests += 1,
            CommandOutcome::Accepted { .. } => return Answer::Everyone,
        }
    }
    if requests == 0 {
        Answer::NothingApplied
    } else {
        Answer::RequesterOnly
    }
}

/// True when `p` is the player who signed `s` (a team's player by address, else the side's).
pub(crate) fn is_sender(s: &Submission, p: &Player) -> bool {
    p.side == s.side && s.player.as_ref().is_none_or(|a| *a == p.address)
}

/// The refusal for an accepted submission whose every command was refused: each refused line
/// with its reason, rule and what to send instead, and the next seq (this one is used up).
pub(crate) fn nothing_applied_mail(
    ctx: &Ctx,
    g: &GameAt,
    s: &Submission,
    ledger_seq: u64,
    head: &Head,
    to: String,
) -> Result<(String, Mail), RefereeError> {
    let refused: Vec<serde_json::Value> = s
        .step
        .results
        .iter()
        .filter_map(|r| match &r.outcome {
            CommandOutcome::Refused {
                reason,
                rule,
                instead,
            } => Some(json!({"line": r.line, "reason": reason, "rule": rule,
                             "instead": instead})),
            CommandOutcome::Accepted { .. } => None,
        })
        .collect();
    let (lines, more_lines) = crate::limits::listed(&refused);
    let next = s.player_seq.saturating_add(1);
    let first = s.step.results.iter().find_map(|r| match &r.outcome {
        CommandOutcome::Refused { rule, .. } => Some(rule.clone()),
        CommandOutcome::Accepted { .. } => None,
    });
    let parts = if refused.is_empty() {
        // A block of comments only: most often the orders template sent back unchanged.
        render(
            ctx,
            "refusal",
            json!({"game": g.id, "ledger_seq": ledger_seq,
               "reason": "your signed block holds no command, only comments and blank \
                          lines: the orders template's suggestions start with `#`",
               "rule": crate::pbem::citation::DocRule::Orders.to_string(),
               "instead": format!("remove the `#` before the line you choose (or write a \
                                   command) and send it with seq: {next} (seq {} is used \
                                   up)", s.player_seq)}),
        )?
    } else {
        render(
            ctx,
            "refusal",
            json!({"game": g.id, "ledger_seq": ledger_seq,
               "reason": "nothing in your mail was applied: every command was refused, \
                          so nothing changed and the other side was told nothing",
               "rule": first.unwrap_or_default(),
               "instead": format!("correct the lines above and send them again \
                                   with seq: {next} (seq {} is used up)", s.player_seq),
               "lines": lines, "more_lines": more_lines}),
        )?
    };
    let m = game_mail(
        ctx,
        (&g.id, g.game.round(&g.derived.state)),
        vec![to],
        "refused",
        parts,
        s.message_id.as_deref(),
        head,
    );
    Ok((format!("{}-{ledger_seq}-refusal", g.id), m))
}
