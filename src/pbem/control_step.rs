//! A control's own game step (issue 15, ruling R340): after a `decide` control, the lines a
//! player's mail held for the battle fought elsewhere run with dice. DESIGN §5 keys them as any
//! step's: dice v2 with `n` the game step the control is and `A` the SHA-256 of the referee's
//! signature over [`ledger::control_cause`] (the game and `n` alone: one signature to give, no
//! grinding); a v1 game keys them by the ledger line, as its deadline defaults. What the step
//! did is recorded on the control line (`cause_sig`, `step`) only when it did something, so
//! every older control line stays byte for byte as it was, and replay re-runs the step and
//! compares it exactly as a submission's.

use crate::ledger::{self, Control, Created, Draw};
use crate::pbem::edges::Edges;
use crate::pbem::error::RefereeError;
use crate::pbem::replay::{compare_step, mismatch, run_step, Compare, Derived, DiceMode};
use crate::registry::{AnyGame, AnyState};
use crate::seed::{signature_digest, Keying};

/// The keying of a control's step: v2 (`n` given) from the referee's signature over the cause,
/// which is returned to be recorded; v1 from the ledger line.
fn keying(
    game_id: &str,
    n: Option<u64>,
    line: u64,
    sig: impl Fn(&str) -> String,
) -> (Keying, Option<String>) {
    match n {
        Some(n) => {
            let s = sig(&ledger::control_cause(game_id, n));
            (
                Keying::V2 {
                    n,
                    cause: signature_digest(&s),
                },
                Some(s),
            )
        }
        None => (Keying::V1 { event: line }, None),
    }
}

/// The referee runs the step of a control whose actions applied (ledger line `line`, game
/// step `n` in v2) and fills in the control's `cause_sig` and `step` when it did something.
#[allow(clippy::too_many_arguments)]
pub(crate) fn record(
    game: &dyn AnyGame,
    created: &Created,
    d: &mut Derived<AnyState>,
    secret: &crate::seed::Key,
    hidden: Option<crate::seed::Key>,
    line: u64,
    sign: impl Fn(&str) -> String,
    c: &mut Control,
) -> Result<(), RefereeError> {
    if c.actions.is_empty() {
        return Ok(());
    }
    let (k, sig) = keying(&created.game_id, c.n, line, sign);
    let step = run_step(
        game,
        &mut d.state,
        created,
        k,
        &DiceMode::Secret(secret, hidden),
        &[],
        |g, st, dice| g.run_held(st, dice),
    )
    .map_err(RefereeError::Io)?;
    if step.is_empty() {
        return Ok(());
    }
    if let Some(r) = &step.finished {
        d.finished = Some(r.clone());
    }
    c.cause_sig = sig;
    c.step = Some(step);
    Ok(())
}

/// Replay of a control line whose actions applied: the recorded `cause_sig` is the referee's
/// signature over the cause, the step re-run gives exactly the recorded one (nothing, when none
/// is recorded). Returns the keying and draws, for the auditor's dice check.
pub(crate) fn replay(
    game: &dyn AnyGame,
    edges: &Edges,
    (created, file, line): (&Created, &str, u64),
    d: &mut Derived<AnyState>,
    c: &Control,
    mode: &DiceMode,
    compare: Compare,
) -> Result<Option<(Keying, Vec<Draw>)>, RefereeError> {
    if c.actions.is_empty() {
        if c.step.is_some() || c.cause_sig.is_some() {
            return Err(mismatch(
                file,
                line,
                "a control that applied nothing records a step",
            ));
        }
        return Ok(None);
    }
    let bad = |m: String| mismatch(file, line, m);
    if let (Some(n), Some(sig)) = (c.n, &c.cause_sig) {
        let cause = ledger::control_cause(&created.game_id, n);
        (edges.verify_text)(&created.referee_public_key, &cause, sig).map_err(|e| {
            bad(format!(
                "the referee's signature over the control's cause does not verify: {e}"
            ))
        })?;
    }
    if c.cause_sig.is_some() != (c.n.is_some() && c.step.is_some()) {
        return Err(bad(
            "a control records a step without the referee's signature over its cause, or the reverse"
                .into(),
        ));
    }
    // Without a recorded cause the step must do nothing, so any key replays it.
    let sig = c.cause_sig.clone().unwrap_or_default();
    let (k, _) = keying(&created.game_id, c.n, line, |_| sig.clone());
    let recorded = c.step.clone().unwrap_or_default();
    let got = run_step(
        game,
        &mut d.state,
        created,
        k,
        mode,
        &recorded.draws,
        |g, st, dice| g.run_held(st, dice),
    )
    .map_err(bad)?;
    compare_step(file, line, &recorded, &got, compare)?;
    if let Some(r) = &got.finished {
        d.finished = Some(r.clone());
    }
    Ok(Some((k, got.draws)))
}
