//! Digest games (issue 17 item 3, `new --digest`): each reader gets one report per run instead
//! of one per step. A run's batches follow the clock, so the boundaries of a digest are not
//! left to them: at the run's last commit the run appends a `digest` line (lines `from`-`to`,
//! every step since the last digest, signed like every referee line) and makes the mails from
//! that line and the ledger before it alone. After a crash the same line gives the same mails
//! with the same ids; steps no digest covers yet are covered by the next run's line, and no
//! mail about them was released before (docs/reports.md, docs/ledger.md).

use crate::game::CommandOutcome;
use crate::ledger::{self, DigestLine, Entry, Event, Head, Ledger, Player, Refusal, Submission};
use crate::outbox::Mail;
use crate::pbem::{control::*, error::*, replay::*, store::*};
use crate::pipeline::mails::{game_mail, reader_extras, recipient_part, render, Parts};
use crate::pipeline::outcomes::{answer_of, is_sender, Answer};
use crate::pipeline::receipt::{receipt_goes, receipt_part, ReceiptGoes};
use crate::pipeline::*;
use crate::report::{self, StepReport};
use serde_json::json;

/// At the run's last commit: for every loaded digest game with steps no digest covers, appends
/// the `digest` line and queues its mails. `quiet` holds the ledger lines whose refusal is not
/// sent (a stranger answered lately, as for other games). Returns the warnings of mails that
/// could not be sent.
pub(crate) fn commit_digests(
    ctx: &Ctx,
    games: &mut BTreeMap<String, Loaded>,
) -> Result<Vec<String>, RefereeError> {
    let mut warnings = Vec::new();
    for g in games.values_mut().filter(|g| g.created.digest) {
        warnings.extend(commit_digest(ctx, g)?);
    }
    Ok(warnings)
}

/// One digest game's [`commit_digests`]; also called by a control on the server whose step ran
/// (ruling R342), so its step is told at once in a digest of its own.
pub(crate) fn commit_digest(ctx: &Ctx, g: &mut Loaded) -> Result<Vec<String>, RefereeError> {
    let mut warnings = Vec::new();
    let quiet: Vec<u64> = std::mem::take(&mut g.pending)
        .iter()
        .filter(|p| p.quiet)
        .filter_map(|p| p.entries.first().map(|(e, _)| e.seq))
        .collect();
    // The common case is cheap: a ledger ending with a digest (or only created) is covered.
    let (_, last) = ledger::read_last_line(g.ledger.path())?;
    let last = serde_json::from_slice::<Entry>(&last).map(|e| e.event);
    if let Ok(Event::Digest(_) | Event::Created(_)) = last {
        return Ok(warnings);
    }
    let entries = ledger::read_all(g.ledger.path())?;
    let Some((from, to)) = crate::pbem::digest::uncovered_range(&entries) else {
        return Ok(warnings);
    };
    let seq = g.ledger.next_seq();
    let head = g.ledger.append(Event::Digest(DigestLine { from, to }))?;
    g.derived.head = head.clone();
    g.snapshot_stale = true;
    let lines = entries
        .get((from as usize).saturating_sub(1)..)
        .unwrap_or_default();
    for (id, m) in digest_mails(ctx, &g.at(), lines, seq, &head)? {
        if quiet.iter().any(|n| id == format!("{}-{n}-refusal", g.id)) {
            continue;
        }
        match queue(ctx, &id, &m) {
            Err(RefereeError::Unsendable(w)) => warnings.push(w),
            r => r?,
        }
    }
    Ok(warnings)
}

/// After a crash: the mails of the digest line covering ledger line `seq` (a step whose mail
/// came back in maildir/new), or of the game's last digest line (`seq` None: the last run was
/// interrupted, its staged mails are gone). A step no digest covers yet is covered at this
/// run's end. The mails are made as the game stood at the digest line. False when `seq` is
/// no step (a referee's control mail: its notices are mails of their own, as in every game).
pub(crate) fn requeue_digest(
    ctx: &Ctx,
    g: &Loaded,
    seq: Option<u64>,
) -> Result<bool, RefereeError> {
    let data = std::fs::read(g.ledger.path()).map_err(io_err("reading the ledger"))?;
    let entries = ledger::parse_log(ledger::LOG_FILE, &data)?;
    let at_seq = seq.and_then(|s| entries.get((s as usize).checked_sub(1)?));
    if at_seq.is_some_and(|e| matches!(e.event, Event::Control(_))) {
        return Ok(false);
    }
    let found = entries.iter().rev().find_map(|e| match &e.event {
        Event::Digest(d) if seq.is_none_or(|s| d.from <= s && s <= d.to) => Some((e.seq, d)),
        _ => None,
    });
    let Some((dseq, d)) = found else {
        return Ok(true);
    };
    let line = data
        .split(|&b| b == b'\n')
        .nth((dseq as usize).saturating_sub(1))
        .unwrap_or_default();
    let head = Head {
        seq: dseq,
        hash: ledger::sha256_hex(line),
    };
    // Replay checked the range when the game was loaded; a bad one tells nothing, never panics.
    let range = (d.from as usize).saturating_sub(1)..(dseq as usize).saturating_sub(1);
    let lines = entries.get(range).unwrap_or_default();
    let at = if dseq >= g.ledger.head().seq {
        g.at()
    } else {
        let prefix: Vec<Entry> = entries.iter().take(dseq as usize).cloned().collect();
        let (_, derived, _) = replay(
            g.game,
            ctx.edges,
            ledger::LOG_FILE,
            &prefix,
            DiceMode::Secret(&g.secret, g.hidden),
        )?;
        Loaded {
            game: g.game,
            id: g.id.clone(),
            created: g.created.clone(),
            ledger: Ledger::open(g.ledger.path())?,
            derived,
            secret: g.secret,
            hidden: g.hidden,
            snapshot_stale: false,
            pending: Vec::new(),
        }
        .at()
    };
    for (id, m) in digest_mails(ctx, &at, lines, dseq, &head)? {
        queue(ctx, &id, &m)?;
    }
    Ok(true)
}

/// The mails of one digest line (`dseq`, `dhead`) about `lines` (its `from` to `to`), the game
/// as it stood at that line. Each reader with something to hear gets one report: the answers to
/// their own mails first (receipts, refusals), then every step any reader may see (each reader
/// only what they may see), the board and the orders template once. Answers to an address that
/// reads no report (another reply address, a stranger) go alone, as for other games.
pub(crate) fn digest_mails(
    ctx: &Ctx,
    g: &GameAt,
    lines: &[Entry],
    dseq: u64,
    dhead: &Head,
) -> Result<Vec<(String, Mail)>, RefereeError> {
    let id = &g.id;
    let state = &g.derived.state;
    let round = g.game.round(state);
    let players = g.derived.players(&g.created);
    let observers: Vec<Player> = g
        .derived
        .observers
        .iter()
        .map(|a| Player {
            side: String::new(),
            address: a.clone(),
            public_key: String::new(),
        })
        .collect();
    let readers: Vec<&Player> = players.iter().chain(&observers).collect();
    let mut out = Vec::new();
    let mut answers: Vec<Vec<serde_json::Value>> = vec![Vec::new(); readers.len()];
    // Readers who get the digest although no step is for everyone (a `report` request).
    let mut asked = vec![false; readers.len()];
    // The message answered: the reader's first mail of the run, for threading.
    let mut thread: Vec<Option<String>> = vec![None; readers.len()];
    let by_address = |to: &str| {
        readers
            .iter()
            .position(|p| p.address.trim().eq_ignore_ascii_case(to.trim()))
    };
    for e in lines {
        let Event::Submission(s) = &e.event else {
            continue;
        };
        let n = e.seq;
        let to = match (&s.reply_to, &s.no_reply) {
            (Some(t), None) => Some(t.clone()),
            _ => None,
        };
        let answer = s.accepted.then(|| answer_of(s));
        if answer == Some(Answer::RequesterOnly) {
            for (i, p) in readers.iter().enumerate() {
                asked[i] |= is_sender(s, p);
            }
        }
        let Some(to) = to else { continue };
        let (reader, item) = match answer {
            None => (by_address(&to), refusal_item(s, n)),
            Some(Answer::NothingApplied) => (by_address(&to), nothing_applied_item(s, n)),
            Some(_) => match receipt_goes(s, &to, &readers) {
                ReceiptGoes::InReport(i) => {
                    let mut r = receipt_part(s, n);
                    r["kind"] = json!("receipt");
                    (Some(i), r)
                }
                ReceiptGoes::Alone => {
                    out.push(crate::pipeline::mails::receipt_mail(
                        ctx, g, s, n, to, dhead,
                    )?);
                    continue;
                }
            },
        };
        match reader {
            Some(i) => {
                thread[i] = thread[i].take().or_else(|| s.message_id.clone());
                answers[i].push(item);
            }
            None => out.push(alone_refusal(ctx, g, s, n, to, &item, dhead)?),
        }
    }
    // Every step any reader may hear about, in ledger order.
    let steps: Vec<StepReport> = report::step_ranges(lines)
        .into_iter()
        .filter_map(|r| lines.get(r))
        .filter(|group| match group.first().map(|e| &e.event) {
            Some(Event::Submission(s)) => answer_of(s) == Answer::Everyone,
            Some(Event::Deadline(_)) => true,
            // A control whose step ran held lines (ruling R342); its notice went alone.
            Some(Event::Control(c)) => c.in_digest,
            _ => false,
        })
        .filter_map(report::step_report)
        .collect();
    let finished = lines.iter().find_map(|e| match &e.event {
        Event::Finished(f) => Some(f.clone()),
        _ => None,
    });
    let revealed = report::revealed_of(lines);
    let awaiting = g.game.awaiting(state);
    let deadline = deadline_of(&g.created, &g.derived).map(|d| d.to_rfc3339());
    let (from, to) = (
        lines.first().map_or(dseq, |e| e.seq),
        dseq.saturating_sub(1),
    );
    let event = format!("the steps of ledger lines {from}-{to}");
    let file = format!("{id}-board-{dseq}.png");
    let log = finished.as_ref().and_then(|_| ledger_upto(&g.ledger, dseq));
    for (i, p) in readers.iter().enumerate() {
        let mine = std::mem::take(&mut answers[i]);
        if steps.is_empty() && mine.is_empty() && !asked[i] {
            continue;
        }
        let side = (!p.side.is_empty()).then_some(p.side.as_str());
        let view = g.game.view(state, side);
        let seen = report::steps_for(&steps, side, Some(&p.address));
        let mut v = report::report_context(&report::ReportInput {
            game: id,
            side,
            view: &view,
            board_text: g.game.board_text(state),
            round,
            ledger_seq: dseq,
            event: event.clone(),
            steps: seen.clone(),
            revealed: revealed.clone(),
            awaiting: awaiting.clone(),
            deadline: deadline.clone(),
            finished: finished.as_ref().map(|f| f.result.clone()),
            secret: finished.as_ref().map(|f| f.secret.clone()),
            template: match side {
                Some(side) if finished.is_none() => g.game.orders_template(state, side),
                _ => String::new(),
            },
            next_seq: next_seq(&g.derived, &player_key(players, p)),
            roster: g.game.roster(&view),
            standing: g.game.standing(&view, side),
        });
        report::mark_dice(&mut v, g.game, &view);
        reader_extras(&mut v, g, players, p, side, finished.is_none(), &awaiting);
        let (listed, more) = crate::limits::listed(&mine);
        v["answers"] = json!(listed);
        v["more_answers"] = json!(more);
        v["digest"] = json!({"from": from, "to": to});
        // The board once, as the run left it, with the last step's paths and fire.
        let last_step: Vec<_> = seen
            .last()
            .map(|s| s.happenings.clone())
            .unwrap_or_default();
        let picture = ctx
            .config
            .board_pictures
            .then(|| report::mail_picture(g.game, &view, side, &last_step, &file))
            .flatten();
        let mut attachments = vec![];
        if let Some((img, atts)) = picture {
            v["board_img"] = img;
            attachments = atts;
        }
        let mut parts = render(ctx, "report", v.clone())?;
        parts.attachments = attachments;
        let m = game_mail(
            ctx,
            (id, round),
            vec![p.address.clone()],
            "digest",
            parts,
            thread[i].as_deref(),
            dhead,
        );
        let who = recipient_part(players, p);
        out.push((format!("{id}-{dseq}-digest-{who}"), m));
        if let Some(f) = &finished {
            v["log_file"] = json!(ledger::LOG_FILE);
            let (attachment, how) = match &log {
                Some(log) => guard::end_attachment(id, log),
                None => (None, "none"),
            };
            v["log_attached"] = json!(how);
            v["hidden"] = json!(f.hidden);
            let mut parts = render(ctx, "end", v)?;
            parts.attachments.extend(attachment);
            let m = game_mail(
                ctx,
                (id, round),
                vec![p.address.clone()],
                "end",
                parts,
                None,
                dhead,
            );
            out.push((format!("{id}-{dseq}-end-{who}"), m));
        }
    }
    Ok(out)
}

/// The ledger's bytes up to line `seq` (the end mail attaches the log its head signs).
fn ledger_upto(path: &std::path::Path, seq: u64) -> Option<Vec<u8>> {
    let data = std::fs::read(path).ok()?;
    let end = data
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth((seq as usize).checked_sub(1)?)
        .map_or(data.len(), |(i, _)| i + 1);
    Some(data.get(..end)?.to_vec())
}

/// A refused submission, as its sender's digest lists it.
fn refusal_item(s: &Submission, n: u64) -> serde_json::Value {
    let r = s.refusal.clone().unwrap_or(Refusal::new("", "", ""));
    json!({"kind": "refusal", "ledger_seq": n, "reason": r.reason, "rule": r.rule,
           "instead": r.instead})
}

/// Accepted orders of which nothing applied (issue 16 item 4), as a refusal with each refused
/// line; the seq is used up.
fn nothing_applied_item(s: &Submission, n: u64) -> serde_json::Value {
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
    let rule = refused
        .first()
        .map(|r| r["rule"].clone())
        .unwrap_or_else(|| json!(crate::pbem::citation::DocRule::Orders.to_string()));
    let reason = if refused.is_empty() {
        "your signed block holds no command, only comments and blank lines: the orders \
         template's suggestions start with `#`"
    } else {
        "nothing in your mail was applied: every command was refused, so nothing changed"
    };
    json!({"kind": "refusal", "ledger_seq": n, "reason": reason, "rule": rule,
           "instead": format!("correct your orders and send them again with seq: {next} \
                               (seq {} is used up)", s.player_seq),
           "lines": lines, "more_lines": more_lines})
}

/// A refusal to an address that reads no report of this game: a mail of its own, as for
/// other games (same id, so a stranger answered lately is left out the same way).
fn alone_refusal(
    ctx: &Ctx,
    g: &GameAt,
    s: &Submission,
    n: u64,
    to: String,
    item: &serde_json::Value,
    head: &Head,
) -> Result<(String, Mail), RefereeError> {
    let mut v = item.clone();
    v["game"] = json!(g.id);
    let parts: Parts = render(ctx, "refusal", v)?;
    let m = game_mail(
        ctx,
        (&g.id, g.game.round(&g.derived.state)),
        vec![to],
        "refused",
        parts,
        s.message_id.as_deref(),
        head,
    );
    Ok((format!("{}-{n}-refusal", g.id), m))
}
