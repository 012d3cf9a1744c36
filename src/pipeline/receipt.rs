//! The receipt of accepted orders (issue 17 item 3): what was received and applied, line by
//! line. It heads the sender's own report, so a step makes one mail per reader; it is a mail of
//! its own only when the receipt's address (the mail's reply address) is not the address the
//! sender's report goes to, so that address still hears about its mail.

use crate::ledger::{Player, Submission};
use crate::pipeline::outcomes::is_sender;
use serde_json::json;

/// Where a receipt goes: heading the report of one reader (its index among the readers), or
/// in a mail of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReceiptGoes {
    InReport(usize),
    Alone,
}

/// The reader whose report carries the receipt for `s` sent to `to`: the sender (by
/// [`is_sender`]) whose registered address is `to`. Decided from the ledger line and the game's
/// players alone, so a step re-rendered after a crash makes the same mails.
pub(crate) fn receipt_goes(s: &Submission, to: &str, readers: &[&Player]) -> ReceiptGoes {
    readers
        .iter()
        .position(|p| is_sender(s, p) && same_address(&p.address, to))
        .map_or(ReceiptGoes::Alone, ReceiptGoes::InReport)
}

/// Addresses compare without case: mail systems treat them so in practice, and a receipt must
/// not become a mail of its own over `Ann@` and `ann@`.
fn same_address(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// The receipt's lines: each signed line as understood, or refused with its rule and what to
/// send instead. A receipt stays small whatever the block held (src/limits.rs).
pub(crate) fn receipt_part(s: &Submission, ledger_seq: u64) -> serde_json::Value {
    let (results, more_results) = crate::limits::listed(&s.step.results);
    json!({"side": s.side, "seq": s.player_seq, "ledger_seq": ledger_seq,
           "results": results, "more_results": more_results})
}
