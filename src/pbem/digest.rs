//! The `digest` line (issue 17 item 3): in a game made with `digest`, a run sends each reader
//! one report for all the steps it appended, and records the boundaries of that report in the
//! ledger first. Batching depends on timing; the recorded line does not, so the mails re-made
//! after a crash are made from the same steps. Replay and audit check every line here.

use crate::ledger::{DigestLine, Event};
use crate::pbem::error::RefereeError;
use crate::pbem::replay::mismatch;

/// What replay keeps to check the digest lines: the first step line (submission, deadline, or
/// a control whose step is in the digest) that no digest covers yet.
#[derive(Debug, Default)]
pub(crate) struct DigestCheck {
    uncovered: Option<u64>,
}

impl DigestCheck {
    /// Called for every line after `created`, in order.
    pub(crate) fn line(
        &mut self,
        file: &str,
        seq: u64,
        event: &Event,
        digest_game: bool,
    ) -> Result<(), RefereeError> {
        match event {
            Event::Submission(_) | Event::Deadline(_) => {
                self.uncovered.get_or_insert(seq);
                Ok(())
            }
            // Ruling R342: only a digest game's control whose step ran says its step is in a
            // digest; older control lines never do, so their digests keep their ranges.
            Event::Control(c) if c.in_digest => {
                if !digest_game || c.step.is_none() {
                    return Err(mismatch(
                        file,
                        seq,
                        "a control line says its step is in a digest, but it ran no step or the \
                         game was not made with `digest`",
                    ));
                }
                self.uncovered.get_or_insert(seq);
                Ok(())
            }
            Event::Digest(d) => {
                let want = check(self.uncovered, seq, d, digest_game);
                want.map_err(|m| mismatch(file, seq, m))?;
                self.uncovered = None;
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// A digest line must belong to a digest game, start at the first step line since the last
/// digest and end at the line before itself.
fn check(
    uncovered: Option<u64>,
    seq: u64,
    d: &DigestLine,
    digest_game: bool,
) -> Result<(), String> {
    if !digest_game {
        return Err("a `digest` line in a game not made with `digest`".into());
    }
    let Some(from) = uncovered else {
        return Err(
            "a `digest` line that covers no step (no submission, deadline or control step since the last digest)"
                .into(),
        );
    };
    if d.from != from || d.to.checked_add(1) != Some(seq) {
        return Err(format!(
            "the digest covers lines {}-{}, but the steps since the last digest are lines {from}-{}",
            d.from,
            d.to,
            seq - 1
        ));
    }
    Ok(())
}

/// The range a new digest line records: from the first step line not yet covered to the
/// ledger's last line. None when every step is covered.
pub fn uncovered_range(entries: &[crate::ledger::Entry]) -> Option<(u64, u64)> {
    let last = entries.last()?.seq;
    let from = entries
        .iter()
        .rev()
        .take_while(|e| !matches!(e.event, Event::Digest(_)))
        .filter(|e| is_step(&e.event))
        .map(|e| e.seq)
        .last()?;
    Some((from, last))
}

/// A line a digest covers: a submission, a deadline default, or a control whose step is told
/// in the digest (ruling R342).
pub fn is_step(event: &Event) -> bool {
    match event {
        Event::Submission(_) | Event::Deadline(_) => true,
        Event::Control(c) => c.in_digest,
        _ => false,
    }
}
