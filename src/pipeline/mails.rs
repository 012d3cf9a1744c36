//! The mails of a step: receipts, reports and refusals, rendered from the templates for each
//! reader with what that reader may see.

use crate::ledger::{Entry, Event, Head, Player, Refusal, Submission};
use crate::mail::Incoming;
use crate::outbox::{Attachment, Mail};
use crate::pbem::citation::DocCitation;
use crate::pbem::{control::*, error::*, replay::*, store::*};
use crate::pipeline::outcomes::{answer_of, is_sender, nothing_applied_mail, Answer};
use crate::pipeline::receipt::{receipt_goes, receipt_part, ReceiptGoes};
use crate::pipeline::*;
use crate::report::{self, html_with_ledger_head, ledger_head_line, with_ledger_head};
use serde_json::json;

/// The parts of a mail: text and HTML rendered from one context, and any attachments.
pub(crate) struct Parts {
    pub(crate) text: String,
    pub(crate) html: Option<String>,
    pub(crate) attachments: Vec<Attachment>,
}

/// Renders the template pair `name` (`templates/<name>.txt` and `.html`) from one context.
pub(crate) fn render(
    ctx: &Ctx,
    name: &str,
    mut v: serde_json::Value,
) -> Result<Parts, RefereeError> {
    // The run's clock, from which the templates count the time left to a deadline (`when`).
    if let Some(m) = v.as_object_mut() {
        m.entry("now")
            .or_insert_with(|| json!(ctx.now.to_rfc3339()));
    }
    let err = |e: crate::report::TemplateError| RefereeError::Usage(e.to_string());
    Ok(Parts {
        text: ctx.templates.render(name, &v).map_err(err)?,
        html: Some(ctx.templates.render_html(name, &v).map_err(err)?),
        attachments: vec![],
    })
}

/// Renders a welcome or reminder mail with the current board for `side`: `board` (text) and
/// `board_img` (the picture, inline and attached) in the context.
pub(crate) fn render_with_board(
    ctx: &Ctx,
    name: &str,
    mut v: serde_json::Value,
    g: &Loaded,
    side: &str,
) -> Result<Parts, RefereeError> {
    let state = &g.derived.state;
    v["board"] = json!(g.game.board_text(state));
    let view = g.game.view(state, Some(side));
    let file = format!("{}-board-{}.png", g.id, g.ledger.head().seq);
    let pic = ctx
        .config
        .board_pictures
        .then(|| report::mail_picture(g.game, &view, Some(side), &[], &file))
        .flatten();
    let mut atts = vec![];
    if let Some((img, a)) = pic {
        v["board_img"] = img;
        atts = a;
    }
    let mut parts = render(ctx, name, v)?;
    parts.attachments = atts;
    Ok(parts)
}

pub(crate) fn queue(ctx: &Ctx, id: &str, mail: &Mail) -> Result<(), RefereeError> {
    // A mail the outbox would refuse to render is this mail's problem, not the machine's: the
    // caller drops it with a warning and the run goes on.
    let repaired = crate::intake::without_bad_threading(mail);
    let mail = repaired.as_ref().unwrap_or(mail);
    if let Some(why) = crate::intake::unsendable(mail) {
        return Err(RefereeError::Unsendable(format!(
            "mail {id} was not sent: {why}"
        )));
    }
    ctx.sink
        .queue(id, mail, ctx.now)
        .map_err(|e| RefereeError::Io(format!("cannot queue mail {id}: {e}")))
}

/// A mail about a game: subject with game id and round, ledger-head line and signature in both
/// parts.
pub(crate) fn game_mail(
    ctx: &Ctx,
    (id, round): (&str, u32),
    to: Vec<String>,
    what: &str,
    parts: Parts,
    reply_to: Option<&str>,
    head: &Head,
) -> Mail {
    let line = ledger_head_line(id, head.seq, &head.hash);
    let sig = (ctx.edges.sign_text)(ctx.key, &line);
    Mail {
        from: ctx.config.referee.clone(),
        to,
        subject: format!("[dustmail {id}] round {round}: {what}"),
        in_reply_to: reply_to.map(angle),
        references: reply_to.map(|m| vec![angle(m)]).unwrap_or_default(),
        text: with_ledger_head(&parts.text, &line, &sig),
        html: parts.html.map(|h| html_with_ledger_head(&h, &line, &sig)),
        attachments: parts.attachments,
        headers: vec![(
            "X-Dustmail-Ledger-Head".into(),
            format!("{id} {} {}; sig={sig}", head.seq, head.hash),
        )],
    }
}

/// A refusal for a mail that reached no game (no ledger line to cite).
pub(crate) fn plain_refusal(
    ctx: &Ctx,
    inc: &Incoming,
    game: Option<&str>,
    reason: &str,
    rule: impl Into<DocCitation>,
    instead: &str,
) -> Result<Option<Mail>, RefereeError> {
    let rule = rule.into().to_string();
    let (Some(to), None) = (&inc.reply_to, &inc.no_reply) else {
        return Ok(None);
    };
    // The sender has proved nothing (no block reached a game): the answer is short and
    // quotes their text only as a bounded, printable excerpt, and names the game only when
    // it is a well-formed game id (never a reflector for someone else's text).
    let game = game.filter(|g| crate::config::valid_game_id(g));
    let reason = bounded_reason(reason);
    let reason = reason.as_str();
    let parts = render(
        ctx,
        "refusal",
        json!({"game": game, "reason": reason, "rule": rule, "instead": instead}),
    )?;
    Ok(Some(Mail {
        from: ctx.config.referee.clone(),
        to: vec![to.clone()],
        subject: match game {
            Some(g) => format!("[dustmail {g}] refused"),
            None => "[dustmail] refused".into(),
        },
        in_reply_to: inc.message_id.as_deref().map(angle),
        references: inc.message_id.iter().map(|m| angle(m)).collect(),
        text: parts.text,
        html: parts.html,
        attachments: vec![],
        headers: vec![],
    }))
}

/// The mails about one step: the entries it appended (submission or deadline, then round ends
/// and the end of the game), each with its head. Used after appending and after a crash.
/// `parallel_pictures` draws the readers' pictures in threads of their own (not when steps are
/// already rendered in parallel). The pictures need no earlier state: the step's typed events
/// carry the squares of its paths and lines of fire.
pub(crate) fn step_mails(
    ctx: &Ctx,
    g: &GameAt,
    entries: &[(Entry, Head)],
    parallel_pictures: bool,
) -> Result<Vec<(String, Mail)>, RefereeError> {
    let mut out = Vec::new();
    let Some(((first, _), last_head)) = entries.first().zip(entries.last().map(|(_, h)| h)) else {
        return Ok(out);
    };
    let n = first.seq;
    let id = &g.id;
    let lines: Vec<Entry> = entries.iter().map(|(e, _)| e.clone()).collect();
    let revealed = report::revealed_of(&lines);
    let finished = entries.iter().find_map(|(e, _)| match &e.event {
        Event::Finished(f) => Some(f.clone()),
        _ => None,
    });
    let sub = match &first.event {
        Event::Submission(s) => Some(s),
        Event::Deadline(_) => None,
        Event::Control(c) if c.step.is_some() => None,
        _ => return Ok(out),
    };
    // The reply address of accepted orders: their receipt goes there (issue 17 item 3).
    let mut receipt_to: Option<String> = None;
    if let Some(s) = sub {
        let to = match (&s.reply_to, &s.no_reply) {
            (Some(t), None) => Some(t.clone()),
            _ => None,
        };
        if !s.accepted {
            if let Some(to) = to {
                let r = s.refusal.clone().unwrap_or(Refusal::new("", "", ""));
                let parts = render(
                    ctx,
                    "refusal",
                    json!({"game": id, "ledger_seq": n, "reason": r.reason, "rule": r.rule, "instead": r.instead}),
                )?;
                let m = game_mail(
                    ctx,
                    (&g.id, g.game.round(&g.derived.state)),
                    vec![to],
                    "refused",
                    parts,
                    s.message_id.as_deref(),
                    last_head,
                );
                out.push((format!("{id}-{n}-refusal"), m));
            }
            return Ok(out);
        }
        // Issue 16 item 4: nothing applied is a refusal to the sender alone.
        if answer_of(s) == Answer::NothingApplied {
            out.extend(
                to.map(|to| nothing_applied_mail(ctx, g, s, n, last_head, to))
                    .transpose()?,
            );
            return Ok(out);
        }
        receipt_to = to;
    }
    // Every report follows every accepted step, so the reader's last report is the previous
    // step's: this step is all that happened since.
    let steps: Vec<report::StepReport> = report::step_report(&lines).into_iter().collect();
    let event = steps.first().map(|s| s.what.clone()).unwrap_or_default();
    let happenings: Vec<crate::game::Happening> =
        steps.iter().flat_map(|s| s.happenings.clone()).collect();
    let state = &g.derived.state;
    let deadline = deadline_of(&g.created, &g.derived).map(|d| d.to_rfc3339());
    let round = g.game.round(state);
    // The log as far as this step (a batch run renders later, when refusals may follow it).
    let log = finished.as_ref().and_then(|_| {
        let data = std::fs::read(&g.ledger).ok()?;
        let upto = last_head.seq as usize;
        let end = data
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == b'\n')
            .nth(upto.checked_sub(1)?)
            .map_or(data.len(), |(i, _)| i + 1);
        Some(data.get(..end)?.to_vec())
    });
    let awaiting = g.game.awaiting(state);
    let players = g.derived.players(&g.created);
    // Observers get the report of a side-less reader: no template, no side's private view.
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
    // A mail that only asked for the report or the template is answered to its sender alone.
    let requester = sub.filter(|s| answer_of(s) == Answer::RequesterOnly);
    let readers: Vec<&Player> = players
        .iter()
        .chain(&observers)
        .filter(|p| requester.is_none_or(|s| is_sender(s, p)))
        .collect();
    // Issue 17 item 3: the receipt heads the sender's own report (one mail per reader), or is a
    // mail of its own when it goes to another address than that report.
    let mut carrier = None;
    if let Some((s, to)) = sub.zip(receipt_to) {
        match receipt_goes(s, &to, &readers) {
            ReceiptGoes::InReport(i) => carrier = Some((i, s)),
            ReceiptGoes::Alone => out.push(receipt_mail(ctx, g, s, n, to, last_head)?),
        }
    }
    let side_of = |p: &Player| (!p.side.is_empty()).then_some(p.side.clone());
    let views: Vec<serde_json::Value> = readers
        .iter()
        .map(|p| g.game.view(state, side_of(p).as_deref()))
        .collect();
    // The pictures are most of a report's cost and independent of each other: drawn in
    // parallel, one thread per reader. A picture that fails (or a thread that panics) leaves
    // that report with the text board, which every report carries anyway.
    let file = format!("{id}-board-{n}.png");
    let draw = ctx.config.board_pictures;
    let picture = |p: &Player, side: Option<String>, view: &serde_json::Value| {
        if !draw {
            return None;
        }
        // Each reader's picture draws only the happenings they may see.
        let seen = report::visible(&happenings, side.as_deref(), Some(&p.address));
        report::mail_picture(g.game, view, side.as_deref(), &seen, &file)
    };
    let pictures: Vec<Option<(serde_json::Value, Vec<Attachment>)>> = if !parallel_pictures {
        readers
            .iter()
            .zip(&views)
            .map(|(p, v)| picture(p, side_of(p), v))
            .collect()
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = readers
                .iter()
                .zip(&views)
                .map(|(p, v)| {
                    let (side, picture) = (side_of(p), &picture);
                    s.spawn(move || picture(p, side, v))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().ok().flatten())
                .collect()
        })
    };
    for (i, ((p, view), picture)) in readers.into_iter().zip(views).zip(pictures).enumerate() {
        let side = (!p.side.is_empty()).then_some(p.side.as_str());
        let mut v = report::report_context(&report::ReportInput {
            game: id,
            side,
            view: &view,
            board_text: g.game.board_text(state),
            round,
            ledger_seq: n,
            event: event.clone(),
            steps: report::steps_for(&steps, side, Some(&p.address)),
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
        // The board picture, inline and attached.
        let mut attachments = vec![];
        if let Some((img, atts)) = picture {
            v["board_img"] = img;
            attachments = atts;
        }
        // The sender's report answers their mail: headed by the receipt, in its thread.
        let receipt = carrier.filter(|(c, _)| *c == i).map(|(_, s)| s);
        if let Some(s) = receipt {
            v["receipt"] = receipt_part(s, n);
        }
        let mut parts = render(ctx, "report", v.clone())?;
        parts.attachments = attachments;
        let m = game_mail(
            ctx,
            (&g.id, g.game.round(&g.derived.state)),
            vec![p.address.clone()],
            if receipt.is_some() {
                "receipt and report"
            } else {
                "report"
            },
            parts,
            receipt.and_then(|s| s.message_id.as_deref()),
            last_head,
        );
        out.push((format!("{id}-{n}-report-{}", recipient_part(players, p)), m));
        if finished.is_some() {
            v["log_file"] = json!(crate::ledger::LOG_FILE);
            // Never more than a mail system accepts: small ledgers as they are, larger ones
            // compressed, and past the bound none (the mail says how to get it).
            let (attachment, how) = match &log {
                Some(log) => guard::end_attachment(id, log),
                None => (None, "none"),
            };
            v["log_attached"] = json!(how);
            v["hidden"] = json!(finished.as_ref().and_then(|f| f.hidden.clone()));
            let mut parts = render(ctx, "end", v)?;
            parts.attachments.extend(attachment);
            let m = game_mail(
                ctx,
                (&g.id, g.game.round(&g.derived.state)),
                vec![p.address.clone()],
                "end",
                parts,
                None,
                last_head,
            );
            out.push((format!("{id}-{n}-end-{}", recipient_part(players, p)), m));
        }
    }
    Ok(out)
}

/// The receipt as a mail of its own, for a reply address that is not the sender's registered
/// one (which gets the report): the lines and what the sender's side may see of what happened.
pub(crate) fn receipt_mail(
    ctx: &Ctx,
    g: &GameAt,
    s: &Submission,
    n: u64,
    to: String,
    last_head: &Head,
) -> Result<(String, Mail), RefereeError> {
    let id = &g.id;
    let parts = render(ctx, "receipt", {
        let view = g.game.view(&g.derived.state, Some(&s.side));
        // A receipt stays small whatever the block held (src/limits.rs).
        let (results, more_results) = crate::limits::listed(&s.step.results);
        // The sender's receipt shows what their side may see (issue 11 item 3).
        let mine = report::visible(&s.step.happenings, Some(&s.side), None);
        let (happenings, more_happenings) = crate::limits::listed(&mine);
        let mut v = json!({"game": id, "side": s.side, "seq": s.player_seq, "ledger_seq": n,
                   "results": results, "more_results": more_results,
                   "happenings": happenings, "more_happenings": more_happenings});
        report::mark_dice(&mut v, g.game, &view);
        v
    })?;
    let m = game_mail(
        ctx,
        (&g.id, g.game.round(&g.derived.state)),
        vec![to],
        "receipt",
        parts,
        s.message_id.as_deref(),
        last_head,
    );
    Ok((format!("{id}-{n}-receipt"), m))
}

/// A game result in words (kept here for callers of the referee).
pub use crate::report::result_text;

/// A Message-ID in angle brackets, as In-Reply-To and References need it (the parser may
/// return it bare).
pub(crate) fn angle(id: &str) -> String {
    format!(
        "<{}>",
        id.trim().trim_start_matches('<').trim_end_matches('>')
    )
}

/// The next seq a side should sign.
pub(crate) fn next_seq<S>(d: &Derived<S>, side: &str) -> u64 {
    // Saturating: an accepted seq never exceeds `ledger::MAX_SEQ`, but a v1 ledger may hold one.
    d.last_seq.get(side).copied().unwrap_or(0).saturating_add(1)
}

/// A mail id part naming a recipient: the side when it has one player, else side and address;
/// `observer-ADDRESS` for an observer (no side).
pub(crate) fn recipient_part(players: &[Player], p: &Player) -> String {
    if p.side.is_empty() {
        format!("observer-{}", id_part(&p.address))
    } else if players.iter().filter(|q| q.side == p.side).count() > 1 {
        format!("{}-{}", id_part(&p.side), id_part(&p.address))
    } else {
        id_part(&p.side)
    }
}

/// A side id made safe for an outbox mail id (letters, digits, `.`, `_`, `-`).
pub(crate) fn id_part(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Renders the mails of a batch's steps, spread over the machine's cores (steps are
/// independent: each carries the game as it left it), and queues them. The workers take steps
/// by index, and the outbox is keyed by mail id, so the result never depends on timing.
pub(crate) fn render_pending(
    ctx: &Ctx,
    pending: Vec<PendingMails>,
) -> Result<Vec<String>, RefereeError> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_RENDER_THREADS)
        .min(pending.len());
    let render = |p: &PendingMails, parallel| {
        let mut mails = step_mails(ctx, &p.game, &p.entries, parallel)?;
        if p.quiet {
            mails.retain(|(id, _)| !id.ends_with("-refusal"));
        }
        Ok(mails)
    };
    let rendered: Vec<Result<Vec<(String, Mail)>, RefereeError>> = if workers <= 1 {
        pending.iter().map(|p| render(p, true)).collect()
    } else {
        let per_worker: Vec<Vec<Result<_, RefereeError>>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..workers)
                .map(|w| {
                    let (pending, render) = (&pending, &render);
                    s.spawn(move || {
                        pending
                            .iter()
                            .skip(w)
                            .step_by(workers)
                            .map(|p| render(p, false))
                            .collect()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        vec![Err(RefereeError::Io(
                            "internal error: rendering a batch's mails failed (a bug: please report it with the run's log)".into(),
                        ))]
                    })
                })
                .collect()
        });
        per_worker.into_iter().flatten().collect()
    };
    let mut warnings = Vec::new();
    for mails in rendered {
        for (id, m) in mails? {
            match queue(ctx, &id, &m) {
                Err(RefereeError::Unsendable(w)) => warnings.push(w),
                r => r?,
            }
        }
    }
    Ok(warnings)
}

/// At most this many threads render a batch's mails.
pub(crate) const MAX_RENDER_THREADS: usize = 8;

/// What every reader's report carries beside its steps, for per-step reports and digests alike:
/// whether they sign with OpenSSH, the short briefing while the game runs (issue 16 item 2), their
/// time zone for the `when` filter, and each awaited decision with the players who make it and
/// its side's own deadline (absence and pause move one side's deadline only).
pub(crate) fn reader_extras(
    v: &mut serde_json::Value,
    g: &GameAt,
    players: &[Player],
    p: &Player,
    side: Option<&str>,
    running: bool,
    awaiting: &[crate::pbem::game::Awaiting],
) {
    v["ssh_key"] = json!(crate::pbem::keys::is_openssh_key(&p.public_key));
    if running {
        let brief = g.game.report_briefing(&g.derived.state, side);
        // The HTML part lists the items unwrapped: a phone lays them out itself.
        v["brief_items"] = json!(report::bullet_items(&brief));
        v["brief"] = json!(brief);
    }
    v["tz"] = json!(crate::pbem::lines::zone_of(&g.derived, players, p));
    if let Some(items) = v["awaiting"].as_array_mut() {
        for (item, a) in items.iter_mut().zip(awaiting) {
            item["options"] = json!(a.options);
            item["players"] = json!(deciders(&g.created, players, a)
                .iter()
                .map(|p| &p.address)
                .collect::<Vec<_>>());
            item["deadline"] =
                json!(side_deadline(&g.created, &g.derived, &a.side).map(|d| d.to_rfc3339()));
        }
    }
}
