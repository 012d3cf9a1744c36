//! One mail of maildir/new through the pipeline (DESIGN §2): read (bounded, never through a
//! symlink), parsed, its blocks routed to their games, and the refusals of blocks that reached no
//! game queued last, once we know whether the sender proved to hold a registered key (issue 10:
//! strangers are answered at most once per address and window, and never with their own text).
//! A child module of `referee`.

use super::{
    guard, plain_refusal, queue, recorded_mails, requeue, submit_block, try_load, Ctx, Disposition,
    Loaded, RefereeError, RunSummary,
};
use crate::mail::Incoming;
use crate::outbox::Mail;
use crate::pbem::citation::DocRule;
use std::collections::BTreeMap;
use std::path::Path;

/// Handles one mail and says where it goes.
pub(super) fn process_mail(
    ctx: &Ctx,
    path: &Path,
    games: &mut BTreeMap<String, Loaded>,
    sum: &mut RunSummary,
    strangers: &mut crate::intake::StrangerReplies,
) -> Result<Disposition, RefereeError> {
    use crate::intake::Unread;
    let max = ctx.config.max_mail_bytes;
    let raw = match crate::intake::read_mail_file(path, max) {
        Ok(raw) => raw,
        Err(Unread::NotAFile(what)) => {
            sum.warnings.push(format!(
                "{}: {what}, moved to rejected/ unread",
                path.display()
            ));
            return Ok(Disposition::Rejected);
        }
        Err(Unread::TooBig(n)) => {
            sum.warnings.push(format!(
                "{}: the mail is {n} bytes, over the limit of {max} bytes (max_mail_bytes): moved to rejected/ unread",
                path.display()
            ));
            return Ok(Disposition::Rejected);
        }
        Err(Unread::Io(e)) => {
            sum.warnings.push(format!(
                "{}: cannot read it ({e}): left in maildir/new",
                path.display()
            ));
            return Ok(Disposition::Keep);
        }
    };
    let inc = match (ctx.edges.parse_mail)(&raw, &ctx.config.referee, max) {
        Ok(i) => i,
        Err(e) => {
            sum.warnings.push(format!(
                "{}: unreadable mail, moved to rejected/: {e}",
                path.display()
            ));
            return Ok(Disposition::Rejected);
        }
    };
    if inc.reply_to.is_none() && inc.no_reply.is_none() {
        sum.warnings.push(format!(
            "{}: no usable reply address (From/Reply-To missing or not an address the outbox can send to): processed, not answered",
            path.display()
        ));
    }
    let mut intake = MailIntake {
        inc: &inc,
        refusals: Vec::new(),
        proven: false,
        stranger_answer: None,
    };
    let disposition = route_blocks(ctx, &mut intake, games, sum, strangers)?;
    // Refusals that reach no game are queued last, once we know whether the sender proved to
    // hold a registered key: a stranger gets at most one, and only once per window.
    let MailIntake {
        refusals,
        proven,
        mut stranger_answer,
        ..
    } = intake;
    let allowed = match refusals.first() {
        _ if proven => refusals.len(),
        Some((id, _)) => usize::from(take_stranger_answer(
            ctx,
            &inc,
            &mut stranger_answer,
            strangers,
            id,
        )),
        None => 0,
    };
    for (id, m) in refusals.into_iter().take(allowed) {
        match queue(ctx, &id, &m) {
            Err(RefereeError::Unsendable(w)) => {
                sum.warnings.push(format!("{}: {w}", path.display()))
            }
            r => r?,
        }
    }
    Ok(disposition)
}

/// One mail on its way through [`process_mail`].
struct MailIntake<'a> {
    inc: &'a Incoming,
    /// Refusals of blocks that reached no game, queued at the end.
    refusals: Vec<(String, Mail)>,
    /// A block verified against a registered key (player or referee).
    proven: bool,
    /// Whether this mail's sender, a stranger, may still get its one answer (decided once
    /// per mail, then used up).
    stranger_answer: Option<bool>,
}

/// Takes the one answer a stranger's mail may get (config `stranger_replies`), the mail
/// `mail_id`: decided at the first call, which records it in the strangers' file; false once
/// used.
fn take_stranger_answer(
    ctx: &Ctx,
    inc: &Incoming,
    decided: &mut Option<bool>,
    strangers: &mut crate::intake::StrangerReplies,
    mail_id: &str,
) -> bool {
    let left = decided.get_or_insert_with(|| match (&inc.reply_to, &inc.no_reply) {
        (Some(to), None) => strangers.may_answer(ctx.config.stranger_replies, to, ctx.now, mail_id),
        _ => false,
    });
    std::mem::replace(left, false)
}

/// Routes every block of a mail to its game.
fn route_blocks(
    ctx: &Ctx,
    mi: &mut MailIntake<'_>,
    games: &mut BTreeMap<String, Loaded>,
    sum: &mut RunSummary,
    strangers: &mut crate::intake::StrangerReplies,
) -> Result<Disposition, RefereeError> {
    let inc = mi.inc;
    let reject_id = |b: usize| {
        format!(
            "rejected-{}-{b}",
            &inc.sha256.get(..16).unwrap_or(&inc.sha256)
        )
    };
    // Broken blocks (no END marker, no signature…): one refusal listing them all.
    if !inc.problems.is_empty() {
        if let Some(m) = plain_refusal(
            ctx,
            inc,
            None,
            &inc.problems.join("\n"),
            DocRule::SignedBlock,
            "paste the whole output of `dustmail sign` (ORDERS and SIGNATURE blocks) unchanged, outside any quoted text",
        )? {
            mi.refusals.push((reject_id(999), m));
        }
        if inc.blocks.is_empty() {
            return Ok(Disposition::Rejected);
        }
    }
    if inc.blocks.is_empty() {
        if let Some(m) = plain_refusal(
            ctx,
            inc,
            None,
            "no signed DUSTMAIL ORDERS block was found in your mail",
            DocRule::SignedBlock,
            "sign your orders with `dustmail sign --key YOURKEY FILE` and paste the whole output (both blocks) into the mail body, not quoted",
        )? {
            mi.refusals.push((reject_id(0), m));
        }
        return Ok(Disposition::Rejected);
    }
    let mut routed = false;
    let mut keep = false;
    for (bi, block) in inc.blocks.iter().enumerate() {
        let body = match (ctx.edges.parse_body)(&block.canonical) {
            Ok(b) => b,
            Err(e) => {
                if let Some(m) = plain_refusal(
                    ctx,
                    inc,
                    None,
                    &e.to_string(),
                    DocRule::SignedBlock.with("game:, side: and seq: lines, then commands"),
                    "start the signed text with `game: ID`, `side: SIDE`, `seq: N`, a blank line, then your commands, and sign it again",
                )? {
                    mi.refusals.push((reject_id(bi), m));
                }
                continue;
            }
        };
        if !games.contains_key(&body.game) {
            let loaded = match try_load(ctx, &body.game, sum) {
                Ok(l) => l,
                Err(e) => {
                    let msg = format!("game {}: {e}", body.game);
                    if !sum.broken.contains(&msg) {
                        sum.broken.push(msg);
                    }
                    keep = true;
                    continue;
                }
            };
            match loaded {
                Some(g) => {
                    games.insert(body.game.clone(), g);
                }
                None => {
                    // A force choice for a campaign game not open yet (issue 15 item 2).
                    if super::campaign_forces::route(ctx, inc, bi, block, &body, sum)? {
                        mi.proven = true;
                        routed = true;
                        continue;
                    }
                    // An absence for the whole campaign (issue 15 item 5).
                    if super::campaign_absence::route(ctx, (inc, bi), block, &body, games, sum)? {
                        mi.proven = true;
                        routed = true;
                        continue;
                    }
                    if let Some(m) = plain_refusal(
                        ctx,
                        inc,
                        Some(&body.game),
                        &format!(
                            "there is no game `{}` on this referee",
                            crate::intake::excerpt(&body.game, crate::intake::MAX_EXCERPT)
                        ),
                        DocRule::SignedBlock
                            .with("the game: line names the game id given in your welcome mail"),
                        "copy the game id from the subject of your welcome or report mail (like g-1a2b3c4d) and sign again",
                    )? {
                        mi.refusals.push((reject_id(bi), m));
                    }
                    continue;
                }
            }
        }
        let Some(g) = games.get_mut(&body.game) else {
            continue;
        };
        routed = true;
        // A campaign force choice recorded before this game opened, processed again after a
        // crash: not orders for the game (issue 15 item 2).
        if super::campaign_forces::already_chosen(ctx, &g.created, &body, block, sum)? {
            mi.proven = true;
            continue;
        }
        // Crash recovery: this block is already in the ledger; only re-queue its replies.
        let log = g.ledger.path().to_path_buf();
        if let Some(&(_, seq)) = g
            .derived
            .mails
            .lookup(&inc.sha256, || recorded_mails(&log))?
            .and_then(|v| v.iter().find(|(b, _)| *b == bi))
        {
            sum.deduplicated += 1;
            // A stranger's refusal is re-sent only if it was the answer they were given.
            let stranger =
                guard::signer_key(&g.derived, &g.created, &body, block, ctx.edges).is_none();
            let refusal = format!("{}-{seq}-refusal", g.id);
            if !stranger
                || take_stranger_answer(ctx, inc, &mut mi.stranger_answer, strangers, &refusal)
            {
                requeue(ctx, g, seq)?;
            }
            // An absence sent to a campaign's game reaches the campaign (R338), once.
            super::campaign_absence::from_game(ctx, &body.game, block, &body, games, sum)?;
            continue;
        }
        // A block of a registered key proves its sender a player (their other refusals are
        // not throttled). The ledger's lines never depend on the strangers' file, so a run
        // interrupted and run again records exactly the same lines: a stranger's block is
        // recorded as always, only its refusal may be held back.
        let signer = guard::signer_key(&g.derived, &g.created, &body, block, ctx.edges);
        if let Some(key) = &signer {
            mi.proven = true;
            // The same signed block re-sent in yet another mail: already refused once as a
            // replay, nothing new to record or answer.
            if guard::is_recorded_copy(&g.derived, &log, key, &body, block)? {
                sum.deduplicated += 1;
                continue;
            }
        }
        let refusal = format!("{}-{}-refusal", g.id, g.ledger.next_seq());
        submit_block(ctx, g, inc, bi, block, &body, sum)?;
        if signer.is_none()
            && !take_stranger_answer(ctx, inc, &mut mi.stranger_answer, strangers, &refusal)
        {
            if let Some(p) = g.pending.last_mut() {
                p.quiet = true;
            }
        }
        // An absence sent to a campaign's game reaches the campaign (R338).
        super::campaign_absence::from_game(ctx, &body.game, block, &body, games, sum)?;
    }
    Ok(if keep {
        Disposition::Keep
    } else if routed {
        Disposition::Routed
    } else {
        Disposition::Rejected
    })
}

/// A refusal's reason for an unproven sender: each line a bounded excerpt, at most
/// [`crate::intake::MAX_STRANGER_REASON`] characters in all.
pub(super) fn bounded_reason(reason: &str) -> String {
    use crate::intake::{excerpt, MAX_STRANGER_REASON};
    let mut out = String::new();
    for l in reason.split('\n').take(crate::mail::MAX_BLOCKS) {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&excerpt(l, 200));
        if out.chars().count() > MAX_STRANGER_REASON {
            out = out.chars().take(MAX_STRANGER_REASON).collect();
            out.push('…');
            break;
        }
    }
    out
}
