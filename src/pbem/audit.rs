//! What v2 ledgers add to `replay` and `audit` (DESIGN §5, issue 10): the game's own step
//! counter and the causes that key dice v2, the referee's signature on every line, and the
//! re-checks of what the referee claims (mechanical refusals, deadline defaults).
//!
//! The pipeline (src/pipeline/) calls the `*_keying` / `*_step` functions when it makes a line;
//! replay calls the `check_*` functions on every line it reads, so both sides agree by
//! construction.

use crate::ledger::{
    self, line_sig_text, split_referee_sig, ControlAction, Created, Deadline, Entry, Event,
    Refusal, Submission, MAX_SUBMISSION_BYTES,
};
use crate::pbem::{
    citation::{self, DocRule},
    control::side_deadline,
    edges::Edges,
    error::RefereeError,
    replay::Derived,
    store::Loaded,
    verify::check_block,
};
use crate::registry::{AnyGame, AnyState};
use crate::seed::{signature_digest, Keying};
use chrono::{DateTime, Utc};

fn v2(created: &Created) -> bool {
    created.dice_version >= 2
}

fn parse_time(t: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// The dice keying of the next step caused by the signed block `signature` (ledger line `line`
/// in v1).
pub(crate) fn next_keying<S>(
    created: &Created,
    d: &Derived<S>,
    line: u64,
    signature: &str,
) -> Keying {
    if v2(created) {
        Keying::V2 {
            n: d.steps + 1,
            cause: signature_digest(signature),
        }
    } else {
        Keying::V1 { event: line }
    }
}

/// Replay of an accepted submission: counts the step and checks the recorded `n`.
pub(crate) fn step_keying<S>(
    created: &Created,
    d: &mut Derived<S>,
    line: u64,
    recorded_n: Option<u64>,
    signature: &str,
) -> Result<Keying, String> {
    let keying = next_keying(created, d, line, signature);
    let want = if v2(created) {
        d.steps += 1;
        Some(d.steps)
    } else {
        None
    };
    if recorded_n != want {
        return Err(format!(
            "the submission records game step {recorded_n:?}, but it is step {want:?}"
        ));
    }
    Ok(keying)
}

/// A control that applied an action is a game step in v2: counts it and gives its `n`.
pub(crate) fn control_step<S>(
    created: &Created,
    d: &mut Derived<S>,
    actions: &[ControlAction],
) -> Option<u64> {
    if !v2(created) || actions.is_empty() {
        return None;
    }
    d.steps += 1;
    Some(d.steps)
}

/// What a deadline default records about its cause, and the dice keying it gives.
pub(crate) struct DeadlineCause {
    pub keying: Keying,
    pub n: Option<u64>,
    pub due: Option<String>,
    pub sig: Option<String>,
    /// The game's step count after this default.
    pub steps: u64,
}

/// The referee signs the default's cause (game, n, side, round, due: nothing it can vary), and
/// the dice are keyed by that signature.
pub(crate) fn deadline_keying(
    sign: impl Fn(&str) -> String,
    g: &Loaded,
    line: u64,
    side: &str,
    round: u32,
    due: DateTime<Utc>,
) -> DeadlineCause {
    if !v2(&g.created) {
        return DeadlineCause {
            keying: Keying::V1 { event: line },
            n: None,
            due: None,
            sig: None,
            steps: g.derived.steps,
        };
    }
    let n = g.derived.steps + 1;
    let due = due.to_rfc3339();
    let cause = ledger::deadline_cause(&g.created.game_id, n, side, round, &due);
    let sig = sign(&cause);
    DeadlineCause {
        keying: Keying::V2 {
            n,
            cause: signature_digest(&sig),
        },
        n: Some(n),
        due: Some(due),
        sig: Some(sig),
        steps: n,
    }
}

/// Replay of a v2 deadline default: the side was awaited, its deadline is the one the recorded
/// settings and times give, the default came no earlier than that deadline plus the grace, and
/// the referee signed the cause. `dues_from` carries, between the defaults of one run (same
/// `at`), the clock their deadlines were taken from. Counts the step.
pub(crate) fn check_deadline(
    game: &dyn AnyGame,
    edges: &Edges,
    created: &Created,
    d: &mut Derived<AnyState>,
    dl: &Deadline,
    dues_from: &mut Option<(String, String)>,
) -> Result<Keying, String> {
    let n = d.steps + 1;
    if dl.n != Some(n) {
        return Err(format!(
            "the deadline default records game step {:?}, but it is step {n}",
            dl.n
        ));
    }
    if !game.awaiting(&d.state).iter().any(|a| a.side == dl.side) {
        return Err(format!(
            "a deadline default for side {}, which nothing was waiting for",
            dl.side
        ));
    }
    let round = game.round(&d.state);
    if dl.round != round {
        return Err(format!(
            "the deadline default records round {} but the game is in round {round}",
            dl.round
        ));
    }
    let (Some(due_text), Some(sig)) = (&dl.due, &dl.cause_sig) else {
        return Err("the deadline default records no `due` and `cause_sig`".into());
    };
    let base = match dues_from.as_ref() {
        Some((at, base)) if *at == dl.at => base.clone(),
        _ => d.last_step_at.clone(),
    };
    let now_clock = std::mem::replace(&mut d.last_step_at, base.clone());
    let want = side_deadline(created, d, &dl.side);
    d.last_step_at = now_clock;
    let want = want.ok_or_else(|| {
        "a deadline default while no deadline runs (paused, finished, or a game without deadlines)"
            .to_string()
    })?;
    if parse_time(due_text) != Some(want) {
        return Err(format!(
            "the deadline default records the deadline {due_text}, but the recorded settings and times give {}",
            want.to_rfc3339()
        ));
    }
    let at = parse_time(&dl.at).ok_or_else(|| format!("`at` {} is not an RFC 3339 time", dl.at))?;
    let earliest = want
        .checked_add_signed(chrono::Duration::hours(created.grace_hours.into()))
        .ok_or("the deadline plus grace is out of range")?;
    if at < earliest {
        return Err(format!(
            "the deadline default for side {} is dated {} but the deadline {} plus {} hours of grace is {}: it came too early",
            dl.side,
            dl.at,
            want.to_rfc3339(),
            created.grace_hours,
            earliest.to_rfc3339()
        ));
    }
    let cause = ledger::deadline_cause(&created.game_id, n, &dl.side, dl.round, due_text);
    (edges.verify_text)(&created.referee_public_key, &cause, sig).map_err(|e| {
        format!("the referee's signature over the default's cause does not verify: {e}")
    })?;
    *dues_from = Some((dl.at.clone(), base));
    d.steps = n;
    Ok(Keying::V2 {
        n,
        cause: signature_digest(sig),
    })
}

/// Replay of a v2 refused submission whose reason is mechanical: the block must really fail the
/// check (an accepted submission rewritten as refused does not).
pub(crate) fn check_refusal(
    edges: &Edges,
    created: &Created,
    d: &Derived<AnyState>,
    s: &Submission,
) -> Result<(), String> {
    let Some(r) = &s.refusal else {
        return Err("a refused submission records no refusal".into());
    };
    // The rules of the refusals [`check_block`] makes: mechanical checks an auditor can redo.
    if !citation::is_mechanical(&r.rule) {
        return Ok(());
    }
    let Ok(body) = (edges.parse_body)(&s.canonical) else {
        return Ok(());
    };
    if body.game != created.game_id || body.side != s.side || body.seq != s.player_seq {
        return Err("game/side/seq differ from the signed text".into());
    }
    match check_block(d, created, &body, &s.signature, &s.canonical, edges) {
        Err(_) => Ok(()),
        Ok(_) => Err(format!(
            "recorded as refused (\"{}\"), but its signature, side and seq all check out: it should have been accepted",
            r.reason
        )),
    }
}

/// v2: every line carries the referee's signature over its bytes without `referee_sig`, made
/// with `referee_public_key` of the `created` line. Returns how many were checked.
pub fn check_line_signatures(
    edges: &Edges,
    file: &str,
    data: &[u8],
    entries: &[Entry],
) -> Result<usize, RefereeError> {
    let Some(Event::Created(created)) = entries.first().map(|e| &e.event) else {
        return Ok(0);
    };
    if !v2(created) {
        return Ok(0);
    }
    let bad = |n: usize, msg: &str| RefereeError::Verify(format!("{file} line {n}: {msg}"));
    let mut checked = 0;
    for (i, line) in data.split(|&b| b == b'\n').take(entries.len()).enumerate() {
        let n = i + 1;
        let text = std::str::from_utf8(line).map_err(|_| bad(n, "the line is not UTF-8"))?;
        let Some((unsigned, sig)) = split_referee_sig(text) else {
            return Err(bad(
                n,
                "the line carries no referee signature (`referee_sig`, the line's last member): every line of this game is signed by the referee, so this one was made or changed by someone else",
            ));
        };
        (edges.verify_text)(&created.referee_public_key, &line_sig_text(&unsigned), sig).map_err(
            |e| {
                bad(
                    n,
                    &format!("the referee's signature over the line does not verify ({e}): the line was made or changed by someone without the referee's key"),
                )
            },
        )?;
        checked += 1;
    }
    Ok(checked)
}

/// A signed text over [`MAX_SUBMISSION_BYTES`] is refused before anything else.
pub(crate) fn size_check(canonical: &str) -> Result<(), Refusal> {
    if canonical.len() <= MAX_SUBMISSION_BYTES {
        return Ok(());
    }
    Err(Refusal::new(
        format!(
            "your signed text has {} bytes; one submission may carry at most {MAX_SUBMISSION_BYTES} bytes (64 KiB)",
            canonical.len()
        ),
        DocRule::SignedBlock.with("one submission carries at most 64 KiB"),
        "send the orders of this turn only, split over several mails if you must, each signed with the next seq",
    ))
}

/// At most this many characters of a digest record's side and refusal text are kept.
const KEPT_CHARS: usize = 200;

fn bounded(s: &str) -> String {
    if s.chars().count() <= KEPT_CHARS {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(KEPT_CHARS).collect();
        t.push('…');
        t
    }
}

/// A refused block not signed by any key registered for the game (a player's now, or the
/// referee's), or too large, is recorded as a digest and a size, never verbatim: nobody without
/// a key can grow the ledger by more than one short line per block.
pub(crate) fn digest_if_unregistered<S>(
    edges: &Edges,
    created: &Created,
    d: &Derived<S>,
    sub: &mut Submission,
) {
    let too_big = sub.canonical.len() > MAX_SUBMISSION_BYTES;
    let registered = !too_big
        && d.players(created)
            .iter()
            .map(|p| p.public_key.as_str())
            .chain([created.referee_public_key.as_str()])
            .any(|k| (edges.verify)(k, &sub.canonical, &sub.signature).is_ok());
    if registered {
        return;
    }
    sub.digest = Some(ledger::block_digest(&sub.canonical, &sub.signature));
    sub.size = Some((sub.canonical.len() + sub.signature.len()) as u64);
    sub.canonical.clear();
    sub.signature.clear();
    sub.side = bounded(&sub.side);
    if let Some(r) = sub.refusal.as_mut() {
        r.reason = bounded(&r.reason);
        r.instead = bounded(&r.instead);
    }
}

/// The ledger changed since the last run other than by our appends: verify its chain before
/// anything is appended. A broken chain stops this game only, with what to do.
pub(crate) fn check_untouched(log: &std::path::Path, id: &str) -> Result<(), RefereeError> {
    ledger::verify_chain(log).map_err(|e| {
        RefereeError::Verify(format!(
            "{e}. Game {id} is stopped: nothing is appended and its mails stay in maildir/new \
             until the ledger is restored (from a backup, or by undoing the edit; \
             `dustmail replay {id}` names the first damaged line); the other games go on"
        ))
    })
}
