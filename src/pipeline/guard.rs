//! The pipeline's side of intake hardening (issue 10): which senders have proved they are
//! players, redelivered blocks, and the end mail's ledger attachment. A child module of
//! `referee` (it reads the games as `referee` holds them).

use super::{player_key, Derived, RefereeError, REFEREE_SIDE};
use crate::ledger::{self, Created, Event};
use crate::mail::{BlockBody, RawBlock};
use crate::outbox::Attachment;
use std::path::Path;

/// Whose key a block verifies against: a registered player's (with their seq key) or the
/// referee's; None for a stranger's block (a forgery, an unknown side, an edited text).
pub(super) fn signer_key<S>(
    d: &Derived<S>,
    created: &Created,
    body: &BlockBody,
    block: &RawBlock,
    edges: &super::Edges,
) -> Option<String> {
    let verifies = |key: &str| (edges.verify)(key, &block.canonical, &block.signature_b64).is_ok();
    if body.side == REFEREE_SIDE {
        return verifies(&created.referee_public_key).then(|| REFEREE_SIDE.to_string());
    }
    let players = d.players(created);
    players
        .iter()
        .filter(|p| p.side == body.side)
        .find(|p| verifies(&p.public_key))
        .map(|p| player_key(players, p))
}

/// True when a block signed by a registered key (seq key `key`) was already re-sent once and
/// refused as a replay: the ledger holds a refused line with this very signature. The first
/// copy in another mail is refused (and answered) once; later copies add nothing. Only a
/// block whose seq is not above the last accepted one can be such a copy, so the ledger is
/// read only then.
pub(super) fn is_recorded_copy<S>(
    d: &Derived<S>,
    log: &Path,
    key: &str,
    body: &BlockBody,
    block: &RawBlock,
) -> Result<bool, RefereeError> {
    if body.seq > d.last_seq.get(key).copied().unwrap_or(0) {
        return Ok(false);
    }
    Ok(ledger::read_all(log)?.iter().any(|e| match &e.event {
        // A refused block over 64 KiB is recorded in digest form.
        Event::Submission(s) => {
            !s.accepted
                && ((s.signature == block.signature_b64 && s.canonical == block.canonical)
                    || s.digest.as_deref().is_some_and(|d| {
                        d == ledger::block_digest(&block.canonical, &block.signature_b64)
                    }))
        }
        _ => false,
    }))
}

/// The end mail's ledger attachment and how the template should describe it: the ledger as
/// it is when small, gzip-compressed when that fits under the bound, otherwise nothing.
pub(super) fn end_attachment(id: &str, log: &[u8]) -> (Option<Attachment>, &'static str) {
    let name = format!("{id}-{}", ledger::LOG_FILE);
    if log.len() <= PLAIN_LEDGER_ATTACHMENT {
        return (
            Some(Attachment {
                filename: name,
                content_type: "application/x-ndjson".into(),
                bytes: log.to_vec(),
                inline_cid: None,
            }),
            "plain",
        );
    }
    match crate::intake::compressed_ledger(log) {
        Some(gz) => (
            Some(Attachment {
                filename: format!("{name}.gz"),
                content_type: "application/gzip".into(),
                bytes: gz,
                inline_cid: None,
            }),
            "gzip",
        ),
        None => (None, "none"),
    }
}

/// A ledger up to this size is attached as it is (readable by `dustmail audit` directly).
pub const PLAIN_LEDGER_ATTACHMENT: usize = 1 << 20;
