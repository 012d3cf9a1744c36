//! Appending steps: a verified block submitted to its game, referee control by mail or by
//! command, and the round-end and end-of-game lines that follow a step.

use crate::game::{CommandOutcome, GameResult, Sender};
use crate::ledger::{
    self, state_digest, Control, ControlAction, Entry, Event, Finished, Head, RoundEnd,
    SignedControl, Step, Submission,
};
use crate::mail::{BlockBody, Incoming};
use crate::outbox::Mail;
use crate::pbem::{control::*, error::*, lines::*, replay::*, store::*, verify::*};
use crate::pipeline::*;
use serde_json::json;

pub(crate) fn submit_block(
    ctx: &Ctx,
    g: &mut Loaded,
    inc: &Incoming,
    bi: usize,
    block: &crate::mail::RawBlock,
    body: &BlockBody,
    sum: &mut RunSummary,
) -> Result<(), RefereeError> {
    let n = g.ledger.next_seq();
    let round = g.game.round(&g.derived.state);
    let checked = crate::audit::size_check(&block.canonical).and_then(|()| {
        check_block(
            &g.derived,
            &g.created,
            body,
            &block.signature_b64,
            &block.canonical,
            ctx.edges,
        )
    });
    if let Ok(None) = checked {
        return control_mail(ctx, g, inc, bi, block, body, sum);
    }
    let players = g.derived.players(&g.created).to_vec();
    let team = match &checked {
        Ok(Some(p)) if players.iter().filter(|q| q.side == p.side).count() > 1 => {
            Some(p.address.clone())
        }
        _ => None,
    };
    let mut new_state = g.derived.state.clone();
    // The signer's seq key and the absence their mail declares, applied once accepted.
    let mut signed = None;
    let step = match &checked {
        Ok(Some(signer)) => {
            let units = units_of(&g.created, &players, signer);
            let sp = split_lines(&g.created, &body.side, &body.lines, ctx.now);
            signed = Some((
                player_key(&players, signer),
                sp.absent.clone(),
                sp.zone.clone(),
            ));
            let keying = crate::audit::next_keying(&g.created, &g.derived, n, &block.signature_b64);
            run_step(
                g.game,
                &mut new_state,
                &g.created,
                keying,
                &DiceMode::Secret(&g.secret, g.hidden),
                &[],
                |gm, st, dice| {
                    let from = Sender {
                        side: &body.side,
                        units: units.as_deref(),
                    };
                    submit_split(gm, st, from, &sp, dice)
                },
            )
            .map_err(RefereeError::Io)?
        }
        _ => Step::default(),
    };
    // A flood of bad lines is refused whole, listing the first errors (src/limits.rs).
    let (step, refusal) = match crate::limits::too_many_errors(&step.results, body.lines.len()) {
        Some(r) if checked.is_ok() => (Step::default(), Some(r)),
        _ => (step, checked.err()),
    };
    let sub = Submission {
        side: body.side.clone(),
        player_seq: body.seq,
        canonical: block.canonical.clone(),
        signature: block.signature_b64.clone(),
        mail_sha256: inc.sha256.clone(),
        block: bi,
        message_id: inc.message_id.clone(),
        reply_to: inc.reply_to.clone(),
        no_reply: inc.no_reply.clone(),
        accepted: refusal.is_none(),
        refusal: refusal.clone(),
        round,
        at: ctx.now.to_rfc3339(),
        player: team,
        n: None,
        digest: None,
        size: None,
        step,
    };
    let mut sub = sub;
    if refusal.is_some() {
        crate::audit::digest_if_unregistered(ctx.edges, &g.created, &g.derived, &mut sub);
    }
    if refusal.is_some() {
        sum.refused += 1;
    } else {
        // A submission with nothing applied is recorded as accepted (its seq is used up) but
        // answered and counted as a refusal (issue 16 item 4).
        match crate::pipeline::outcomes::answer_of(&sub) {
            crate::pipeline::outcomes::Answer::NothingApplied => sum.refused += 1,
            _ => sum.accepted += 1,
        }
        // Only a step that changed the game restarts the deadline clock: a `report` or a
        // refused command cannot be used to stall.
        if new_state != g.derived.state {
            g.derived.last_step_at = sub.at.clone();
        }
        g.derived.state = new_state;
        if let Some((key, a, zone)) = signed {
            g.derived.last_seq.insert(key.clone(), body.seq);
            crate::pbem::lines::note_zone(&mut g.derived, key.clone(), &zone);
            note_absence(&mut g.derived, key, &a);
        }
        if g.created.dice_version >= 2 {
            g.derived.steps += 1;
            sub.n = Some(g.derived.steps);
        }
    }
    g.derived.mails.record(&inc.sha256, bi, n);
    append_step(ctx, g, Event::Submission(Box::new(sub)))
}

/// A block signed by the referee's key: control commands, one per line.
pub(crate) fn control_mail(
    ctx: &Ctx,
    g: &mut Loaded,
    inc: &Incoming,
    bi: usize,
    block: &crate::mail::RawBlock,
    body: &BlockBody,
    sum: &mut RunSummary,
) -> Result<(), RefereeError> {
    let n = g.ledger.next_seq();
    let mut d = g.derived.clone();
    let game = g.game;
    let (actions, results) = control_lines(&g.created, &mut d, &body.lines, ctx.now, &|st, t| {
        game.decide(st, t)
    });
    d.last_seq.insert(REFEREE_SIDE.into(), body.seq);
    d.mails.record(&inc.sha256, bi, n);
    let step_no = crate::audit::control_step(&g.created, &mut d, &actions);
    sum.accepted += 1;
    let mut c = Control {
        by: "mail".into(),
        at: ctx.now.to_rfc3339(),
        actions,
        results,
        command: None,
        signed: Some(SignedControl {
            seq: body.seq,
            canonical: block.canonical.clone(),
            signature: block.signature_b64.clone(),
            mail_sha256: inc.sha256.clone(),
            block: bi,
            message_id: inc.message_id.clone(),
            reply_to: inc.reply_to.clone(),
            no_reply: inc.no_reply.clone(),
        }),
        n: step_no,
        cause_sig: None,
        step: None,
        in_digest: false,
    };
    held_step(ctx, g, &mut d, n, &mut c)?;
    g.derived = d;
    append_control(ctx, g, c)
}

/// The control's own step (ruling R340): lines held for a battle just decided run now.
fn held_step(
    ctx: &Ctx,
    g: &Loaded,
    d: &mut Derived<crate::registry::AnyState>,
    line: u64,
    c: &mut Control,
) -> Result<(), RefereeError> {
    let sign = |t: &str| (ctx.edges.sign_text)(ctx.key, t);
    crate::pbem::control_step::record(g.game, &g.created, d, &g.secret, g.hidden, line, sign, c)
}

/// `dustmail control GAME COMMAND` on the server: applies one control command, records it, tells
/// every player and observer. A command that cannot apply changes nothing and is an error.
pub fn control_game(ctx: &Ctx, id: &str, command: &str) -> Result<String, RefereeError> {
    control_game_by(ctx, id, command, "server")
}

/// [`control_game`] on behalf of `by`: `"campaign"` for what a campaign tells its games (an
/// absence, a replacement, a battle's result), which `campaign audit` matches to the campaign
/// ledger's lines.
pub(crate) fn control_game_by(
    ctx: &Ctx,
    id: &str,
    command: &str,
    by: &str,
) -> Result<String, RefereeError> {
    let mut g = load_any(&ctx.games, ctx.edges, ctx.home, id)?;
    g.ledger.sign_with(ctx.key.clone(), ctx.edges.sign_text);
    let mut d = g.derived.clone();
    let game = g.game;
    let (actions, results) = control_lines(
        &g.created,
        &mut d,
        &command_lines(command),
        ctx.now,
        &|st, t| game.decide(st, t),
    );
    let understood = match results.first().map(|r| &r.outcome) {
        Some(CommandOutcome::Accepted { understood }) => understood.clone(),
        Some(CommandOutcome::Refused {
            reason, instead, ..
        }) => {
            return Err(RefereeError::Verify(format!(
                "{reason}; nothing was changed. Instead: {instead}"
            )))
        }
        None => {
            return Err(RefereeError::Usage(format!(
                "give a command: {CONTROL_FORMS}"
            )))
        }
    };
    let n = crate::audit::control_step(&g.created, &mut d, &actions);
    let mut c = Control {
        by: by.into(),
        at: ctx.now.to_rfc3339(),
        actions,
        results,
        command: Some(command.trim().to_string()),
        signed: None,
        n,
        cause_sig: None,
        step: None,
        in_digest: false,
    };
    held_step(ctx, &g, &mut d, g.ledger.next_seq(), &mut c)?;
    g.derived = d;
    // The game's due time changes: its entry goes first (no entry: due), so a crash between
    // the ledger line and the new entry cannot hide the game from the next run.
    let root = &ctx.home.root;
    crate::due::set_entry(root, id, None).map_err(io_err(crate::due::DUE_FILE))?;
    let told = g.created.digest && c.step.is_some();
    append_control(ctx, &mut g, c)?;
    // Ruling R342: outside a run, the control's step is told at once in a digest of its own (a
    // crash before it leaves the game due, and the next run's digest covers the step).
    let unsent = match told {
        true => crate::pipeline::digest::commit_digest(ctx, &mut g)?,
        false => Vec::new(),
    };
    if told {
        save_snapshot(ctx.home, &mut g)?;
    }
    let due = crate::due::next_due(g.game, &g.created, &g.derived);
    crate::due::set_entry(root, id, Some(crate::due::entry(due)))
        .map_err(io_err(crate::due::DUE_FILE))?;
    match unsent.into_iter().next() {
        Some(w) => Err(RefereeError::Unsendable(w)),
        None => Ok(understood),
    }
}

/// Appends a control line, writes the snapshot, and tells every player and observer (and the
/// sender of a referee mail) what the referee did.
pub(crate) fn append_control(
    ctx: &Ctx,
    g: &mut Loaded,
    mut c: Control,
) -> Result<(), RefereeError> {
    // Ruling R342: a digest game tells the step in its next digest, not in mails of its own.
    c.in_digest = g.created.digest && c.step.is_some();
    let seq = g.ledger.next_seq();
    let event = Event::Control(Box::new(c.clone()));
    let head = g.ledger.append(event.clone())?;
    // A control whose step ran held lines (R340) is followed by its round ends and end, and
    // reported as any step.
    let mut appended = vec![(
        Entry {
            seq,
            prev: String::new(),
            event,
            referee_sig: None,
        },
        head.clone(),
    )];
    if let Some(step) = &c.step {
        append_follow_ups(g, &step.rounds_ended, step.finished.as_ref(), &mut appended)?;
    }
    g.derived.head = g.ledger.head().clone();
    save_snapshot(ctx.home, g)?;
    for (id, m) in control_notices(ctx, g, seq, &c, &head)? {
        queue(ctx, &id, &m)?;
    }
    if c.step.is_some() && !c.in_digest {
        for (id, m) in step_mails(ctx, &g.at(), &appended, true)? {
            queue(ctx, &id, &m)?;
        }
    }
    Ok(())
}

/// The mails telling every player and observer (and a referee mail's sender) what a control
/// line did.
pub(crate) fn control_notices(
    ctx: &Ctx,
    g: &Loaded,
    seq: u64,
    c: &Control,
    head: &Head,
) -> Result<Vec<(String, Mail)>, RefereeError> {
    // One context for the text and HTML templates (templates/control.*).
    let results: Vec<serde_json::Value> = c
        .results
        .iter()
        .map(|r| match &r.outcome {
            CommandOutcome::Accepted { understood } => json!({"understood": understood}),
            CommandOutcome::Refused {
                reason, instead, ..
            } => json!({"line": r.line, "reason": reason, "instead": instead}),
        })
        .collect();
    let v = json!({
        "game": g.id,
        "ledger_seq": seq,
        "by": match c.by.as_str() {
            "server" => "on the server",
            "campaign" => "for the campaign",
            _ => "by signed mail",
        },
        "results": results,
        "deadline": deadline_of(&g.created, &g.derived).map(|t| t.to_rfc3339()),
        "paused": g.derived.paused});
    let players = g.derived.players(&g.created);
    let mut to: Vec<String> = g
        .derived
        .players(&g.created)
        .iter()
        .map(|p| p.address.clone())
        .collect();
    to.extend(g.derived.observers.iter().cloned());
    // An observer just removed hears it too.
    for a in &c.actions {
        if let ControlAction::Unobserve { address } = a {
            to.push(address.clone());
        }
    }
    if let Some(sc) = &c.signed {
        if let (Some(r), None) = (&sc.reply_to, &sc.no_reply) {
            to.push(r.clone());
        }
    }
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for addr in to {
        if seen.contains(&addr) {
            continue;
        }
        // Each reader's times in their own zone (a player's, when they set one).
        let mut v = v.clone();
        if let Some(p) = players.iter().find(|p| p.address == addr) {
            v["tz"] = json!(crate::pbem::lines::zone_of(&g.derived, players, p));
        }
        let parts = render(ctx, "control", v)?;
        let m = game_mail(
            ctx,
            (&g.id, g.game.round(&g.derived.state)),
            vec![addr.clone()],
            "referee",
            parts,
            None,
            head,
        );
        out.push((format!("{}-{seq}-control-{}", g.id, id_part(&addr)), m));
        seen.push(addr);
    }
    Ok(out)
}

/// Appends a step's line plus its round ends and end of game, writes the snapshot, then queues
/// the mails (the ledger is durable before any mail about it exists).
pub(crate) fn append_step(ctx: &Ctx, g: &mut Loaded, event: Event) -> Result<(), RefereeError> {
    let step = match &event {
        Event::Submission(s) if s.accepted => Some(s.step.clone()),
        Event::Deadline(d) => Some(d.step.clone()),
        _ => None,
    };
    let mut appended = Vec::new();
    let seq = g.ledger.next_seq();
    let h = g.ledger.append(event.clone())?;
    appended.push((
        Entry {
            seq,
            prev: String::new(),
            event,
            referee_sig: None,
        },
        h,
    ));
    if let Some(step) = step {
        append_follow_ups(g, &step.rounds_ended, step.finished.as_ref(), &mut appended)?;
    }
    g.derived.head = g.ledger.head().clone();
    save_snapshot(ctx.home, g)?;
    let pending = PendingMails {
        game: g.at(),
        entries: appended,
        quiet: false,
    };
    // A batch run renders the mails at its commit, before anything is made durable.
    if g.ledger.syncs_each() {
        for (id, m) in step_mails(ctx, &pending.game, &pending.entries, true)? {
            queue(ctx, &id, &m)?;
        }
    } else {
        g.pending.push(pending);
    }
    Ok(())
}

/// Appends the lines that follow a step: its round ends (revealing each round key) and the end of
/// the game.
pub(crate) fn append_follow_ups(
    g: &mut Loaded,
    rounds_ended: &[u32],
    finished: Option<&GameResult>,
    appended: &mut Vec<(Entry, Head)>,
) -> Result<(), RefereeError> {
    for r in rounds_ended {
        let key = hex::encode(chain_key(&g.secret, g.created.max_rounds, *r));
        let ev = Event::RoundEnd(RoundEnd {
            round: *r,
            key: key.clone(),
            state_digest: state_digest(&g.derived.state),
        });
        let seq = g.ledger.next_seq();
        let h = g.ledger.append(ev.clone())?;
        g.derived.revealed.insert(*r, key);
        appended.push((
            Entry {
                seq,
                prev: String::new(),
                event: ev,
                referee_sig: None,
            },
            h,
        ));
    }
    if let Some(result) = finished {
        let ev = Event::Finished(Finished {
            result: result.clone(),
            secret: hex::encode(g.secret),
            state_digest: state_digest(&g.derived.state),
            hidden: g.hidden.map(hex::encode),
        });
        let seq = g.ledger.next_seq();
        let h = g.ledger.append(ev.clone())?;
        g.derived.finished = Some(result.clone());
        appended.push((
            Entry {
                seq,
                prev: String::new(),
                event: ev,
                referee_sig: None,
            },
            h,
        ));
    }
    Ok(())
}

/// A run killed between a step's line and its round-end / end-of-game lines leaves a ledger whose
/// last step announces rounds not yet revealed: append what is missing (the step's mail is still
/// in new/ and re-queues the step's replies, now including these lines).
pub(crate) fn complete_interrupted_step(g: &mut Loaded) -> Result<bool, RefereeError> {
    // The cheap common case first: the last line alone tells whether anything can be missing.
    let (_, last) = ledger::read_last_line(g.ledger.path())?;
    let last_event = serde_json::from_slice::<Entry>(&last).ok().map(|e| e.event);
    let may_be_open = match &last_event {
        Some(Event::Submission(s)) => {
            s.accepted && (!s.step.rounds_ended.is_empty() || s.step.finished.is_some())
        }
        Some(Event::Deadline(d)) => !d.step.rounds_ended.is_empty() || d.step.finished.is_some(),
        // A control whose step ran held lines (R340).
        Some(Event::Control(c)) => c
            .step
            .as_ref()
            .is_some_and(|s| !s.rounds_ended.is_empty() || s.finished.is_some()),
        // A step may end several rounds and the game: only a round end can be followed by more.
        Some(Event::RoundEnd(_)) => true,
        _ => false,
    };
    if !may_be_open {
        return Ok(false);
    }
    let entries = ledger::read_all(g.ledger.path())?;
    let Some(i) = entries.iter().rposition(|e| {
        matches!(&e.event, Event::Submission(s) if s.accepted)
            || matches!(e.event, Event::Deadline(_))
            || matches!(&e.event, Event::Control(c) if c.step.is_some())
    }) else {
        return Ok(false);
    };
    let step = match &entries[i].event {
        Event::Submission(s) => &s.step,
        Event::Deadline(d) => &d.step,
        Event::Control(c) => match &c.step {
            Some(s) => s,
            None => return Ok(false),
        },
        _ => return Ok(false),
    };
    let after = &entries[i + 1..];
    let revealed: Vec<u32> = after
        .iter()
        .filter_map(|e| match &e.event {
            Event::RoundEnd(r) => Some(r.round),
            _ => None,
        })
        .collect();
    let missing: Vec<u32> = step
        .rounds_ended
        .iter()
        .copied()
        .filter(|r| !revealed.contains(r))
        .collect();
    let has_finished = after.iter().any(|e| matches!(e.event, Event::Finished(_)));
    let finished = step.finished.as_ref().filter(|_| !has_finished);
    if missing.is_empty() && finished.is_none() {
        return Ok(false);
    }
    let mut appended = Vec::new();
    append_follow_ups(g, &missing, finished, &mut appended)?;
    g.derived.head = g.ledger.head().clone();
    Ok(true)
}
