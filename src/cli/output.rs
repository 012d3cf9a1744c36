//! What the commands print for scripts: text (the default), `--quiet` (only what a script needs)
//! or `--json` (one JSON document on stdout, also on failure). The exit status is the same in
//! every mode (DESIGN §3). Progress lines of long replays and audits go to stderr, and only when
//! stderr is a terminal, so a pipe or a log file never gets them.

use super::{Failure, OutputArgs};
use crate::edges::outbox::DeliveryReport;
use crate::pipeline::ReplaySummary;
use crate::pipeline::RunSummary;
use crate::registry::Registry;
use serde_json::{json, Value};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether a JSON document was printed already: a failure after it (a run with broken games)
/// must not print a second one.
static JSON_PRINTED: AtomicBool = AtomicBool::new(false);

fn print_json(v: &Value) {
    JSON_PRINTED.store(true, Ordering::SeqCst);
    outln!("{}", serde_json::to_string_pretty(v).unwrap_or_default());
}

/// `--json` and the command failed before printing its document.
pub(super) fn failure(f: &Failure) {
    if !JSON_PRINTED.load(Ordering::SeqCst) {
        print_json(&json!({ "error": f.msg, "exit": f.code }));
    }
}

/// `new`: text says where the welcome mails are and ends with the id; quiet prints the id only.
pub(super) fn created(id: &str, outbox: &Path, o: OutputArgs) {
    if o.json {
        print_json(&json!({ "game_id": id, "outbox": outbox.display().to_string() }));
        return;
    }
    if !o.quiet {
        outln!(
            "created game {id}; welcome mails queued in {}",
            outbox.display()
        );
    }
    outln!("{id}");
}

/// `run` found another run working (not `--strict`): that run does the work.
pub(super) fn busy(line: &str, o: OutputArgs) {
    if o.json {
        print_json(&json!({ "busy": line }));
    } else if !o.quiet {
        outln!("{line}");
    }
}

/// `run`, after the mails and deadlines (text: the first summary line).
pub(super) fn run_summary(sum: &RunSummary, o: OutputArgs) {
    if o.json || o.quiet {
        return;
    }
    outln!(
        "mails {} accepted {} refused {} rejected {} re-queued {} reminders {} defaults {}",
        sum.mails,
        sum.accepted,
        sum.refused,
        sum.rejected,
        sum.deduplicated,
        sum.reminders,
        sum.defaults
    );
}

/// `run`, after delivery: the second text line, or the whole run as one JSON document.
pub(super) fn delivered(sum: &RunSummary, rep: &DeliveryReport, o: OutputArgs) {
    if o.json {
        print_json(&json!({
            "mails": sum.mails,
            "accepted": sum.accepted,
            "refused": sum.refused,
            "rejected": sum.rejected,
            "requeued": sum.deduplicated,
            "reminders": sum.reminders,
            "defaults": sum.defaults,
            "warnings": sum.warnings,
            "broken": sum.broken,
            "delivered": rep.delivered,
            "failed": rep.failed,
            "waiting": rep.waiting,
            "delivery_errors": rep.errors,
        }));
    } else if !o.quiet {
        outln!(
            "delivered {} failed {} waiting {}",
            rep.delivered,
            rep.failed,
            rep.waiting
        );
    }
}

/// `games`: the catalog of every game (JSON: a list of catalogs, as `dustmail games` shows).
pub(super) fn games(games: &Registry, o: OutputArgs) {
    if o.json {
        let list: Vec<Value> = games
            .games()
            .map(|g| {
                let mut v = serde_json::to_value(g.catalog()).unwrap_or(Value::Null);
                v["rules_revision"] = json!(g.rules_revision());
                v
            })
            .collect();
        print_json(&json!({ "games": list }));
    } else if !o.quiet {
        super::games::list(games);
    }
}

/// `replay` and `audit` passed: what was checked.
pub(super) fn replayed(
    sum: &ReplaySummary,
    o: OutputArgs,
    head: Option<&str>,
    html: Option<&Path>,
) {
    if o.json {
        print_json(&json!({
            "ok": true,
            "lines": sum.lines,
            "submissions": sum.submissions,
            "signatures": sum.signatures,
            "deadline_defaults": sum.defaults,
            "dice": sum.dice_checked,
            "round_keys": sum.keys_revealed,
            "state_digests": sum.digests,
            "finished": sum.finished,
            "hidden_checked": sum.hidden_checked,
            "hidden_not_checked": sum.hidden_skipped,
            "head_verified": head,
            "html": html.map(|p| p.display().to_string()),
        }));
        return;
    }
    if o.quiet {
        return;
    }
    if let Some(h) = head {
        outln!("ledger head verified: {h}");
    }
    outln!(
        "ok: {} lines, hash chain intact; {} submissions, {} signatures, {} deadline defaults, {} dice, {} round keys, {} state digests checked{}{}",
        sum.lines,
        sum.submissions,
        sum.signatures,
        sum.defaults,
        sum.dice_checked,
        sum.keys_revealed,
        sum.digests,
        if sum.finished { "; game finished, secret checked" } else { "" },
        sum.hidden_note()
    );
    if let Some(file) = html {
        outln!("replay page written to {}", file.display());
    }
}

/// A progress line on stderr (`auditing: line 1200 of 5000`), redrawn in place; silent unless
/// stderr is a terminal and the output is text.
pub(super) struct Progress {
    label: &'static str,
    on: bool,
    shown: bool,
}

impl Progress {
    pub(super) fn start(o: OutputArgs, label: &'static str) -> Progress {
        Progress {
            label,
            on: !o.quiet && !o.json && std::io::stderr().is_terminal(),
            shown: false,
        }
    }

    /// `n` of `total` lines done; redrawn about a hundred times in all, whatever the length.
    pub(super) fn step(&mut self, n: usize, total: usize) {
        let every = (total / 100).max(1);
        if !self.on || (!n.is_multiple_of(every) && n != total) {
            return;
        }
        self.shown = true;
        let mut e = std::io::stderr().lock();
        let _ = write!(e, "\r{}: line {n} of {total}", self.label);
        let _ = e.flush();
    }

    /// Clears the line, so the result printed next stands alone.
    pub(super) fn done(self) {
        if self.shown {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r{:60}\r", "");
            let _ = e.flush();
        }
    }
}
