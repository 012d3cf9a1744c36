//! Forces chosen by signed mail for a campaign's next game (issue 15 item 2), on the pipeline's
//! side: the mail asking each player for a force, the intake of a signed choice addressed to
//! the game not yet open (`game: <campaign>-<n>`), its receipt or refusal, and the line that
//! records it in the campaign ledger. The checks are the core's
//! (`crate::pbem::campaign::forces`); the game opens in `campaign::advance` once both are in.

use super::campaign::campaign_dir;
use crate::mail::{BlockBody, Incoming, RawBlock};
use crate::outbox::Mail;
use crate::pbem::campaign::forces::{parse_choice, Refusal, RULE};
use crate::pbem::campaign::state::{Campaign, Planned};
use crate::pbem::campaign::{self as core, Event, ForceChosen, Log};
use crate::pbem::error::RefereeError;
use crate::pipeline::{mails::queue, Ctx, RunSummary};

/// Routes a block whose game does not exist yet to the campaign awaiting forces for it. Returns
/// false when no campaign awaits forces for that game or the block is not signed by the
/// campaign's player of its side (the caller then answers as for an unknown game).
pub(crate) fn route(
    ctx: &Ctx,
    inc: &Incoming,
    bi: usize,
    block: &RawBlock,
    body: &BlockBody,
    sum: &mut RunSummary,
) -> Result<bool, RefereeError> {
    let Some((cid, c, p)) = awaiting(ctx, &body.game) else {
        return Ok(false);
    };
    let Some(name) = p.sides.get(&body.side) else {
        return Ok(false);
    };
    let Some(player) = c.created.players.iter().find(|q| &q.name == name) else {
        return Ok(false);
    };
    if (ctx.edges.verify)(&player.public_key, &block.canonical, &block.signature_b64).is_err() {
        return Ok(false);
    }
    let gid = &body.game;
    let chosen = c.chosen(p.number);
    if let Some(done) = chosen.get(&body.side) {
        if done.signature == block.signature_b64 && done.canonical == block.canonical {
            // The same choice again (a crash before the mail left maildir/new, or a resend):
            // recorded once; its receipt is queued under the same id, so it is sent once.
            sum.deduplicated += 1;
            return receipt(ctx, &c, done).map(|_| true);
        }
        refuse(
            ctx,
            &c,
            (gid, &body.side),
            (inc, bi),
            Refusal {
                line: 0,
                reason: format!(
                    "your force for game {gid} is already recorded, sealed until the game opens"
                ),
                instead: "nothing: a recorded force cannot be changed".into(),
            },
        )?;
        sum.refused += 1;
        return Ok(true);
    }
    let checked = parse_choice(&body.lines).and_then(|ids| c.check_force(&body.side, &ids));
    let (units, ap) = match checked {
        Ok(x) => x,
        Err(r) => {
            refuse(ctx, &c, (gid, &body.side), (inc, bi), r)?;
            sum.refused += 1;
            return Ok(true);
        }
    };
    let dir = campaign_dir(ctx, &cid);
    let (mut log, _) = Log::open(&dir, ctx.key.clone(), ctx.edges.sign_text)?;
    let f = ForceChosen {
        game_id: gid.clone(),
        number: p.number,
        player: name.clone(),
        side: body.side.clone(),
        units,
        ap,
        canonical: block.canonical.clone(),
        signature: block.signature_b64.clone(),
        default: false,
        at: ctx.now.to_rfc3339(),
    };
    log.append(Event::ForceChosen(f.clone()))?;
    sum.accepted += 1;
    receipt(ctx, &c, &f).map(|_| true)
}

/// The campaign (id, state, game) awaiting forces for game `gid`, if any.
fn awaiting(ctx: &Ctx, gid: &str) -> Option<(String, Campaign, Planned)> {
    let root = ctx.home.root.join(core::CAMPAIGNS_DIR);
    let rd = std::fs::read_dir(&root).ok()?;
    let mut ids: Vec<String> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|id| {
            gid.strip_prefix(id.as_str())
                .is_some_and(|r| r.starts_with('-'))
        })
        .collect();
    ids.sort();
    for id in ids {
        let dir = campaign_dir(ctx, &id);
        if !core::log_path(&dir).exists() {
            continue;
        }
        // A campaign that cannot be read is the operator's to repair (each run warns about
        // it): a mail does not stop the run over it.
        let Ok(c) = super::campaign::load(&dir) else {
            continue;
        };
        let found = c
            .awaiting_all()
            .into_iter()
            .find(|p| core::game_id(&id, p.number) == gid);
        if let Some(p) = found {
            return Some((id, c, p));
        }
    }
    None
}

pub(super) fn address(c: &Campaign, player: &str) -> String {
    c.created
        .players
        .iter()
        .find(|q| q.name == player)
        .map(|q| q.address.clone())
        .unwrap_or_default()
}

pub(super) fn mail(ctx: &Ctx, to: String, subject: String, text: String) -> Mail {
    Mail {
        from: ctx.config.referee.clone(),
        to: vec![to],
        subject,
        in_reply_to: None,
        references: Vec::new(),
        text,
        html: None,
        attachments: Vec::new(),
        headers: Vec::new(),
    }
}

pub(super) fn wrap(text: &str) -> String {
    crate::report::wrap_text(text, 0, 72)
}

fn receipt(ctx: &Ctx, c: &Campaign, f: &ForceChosen) -> Result<(), RefereeError> {
    let allowance = c.created.rules.forces.as_ref().map_or(0, |x| x.ap);
    let mut text = if f.default {
        wrap(&format!(
            "The deadline for your force for game {} passed without a choice: the referee recorded the default force, your available units in order while they fit ({} of {allowance} AP):",
            f.game_id, f.ap
        ))
    } else {
        wrap(&format!(
            "Your force for game {} is recorded ({} of {allowance} AP):",
            f.game_id, f.ap
        ))
    };
    text.push('\n');
    for u in &f.units {
        text.push_str(&format!(
            "  {} ({}, {} AP)\n",
            u.id,
            u.card,
            c.unit_ap(&u.card)
        ));
    }
    text.push('\n');
    text.push_str(&wrap(
        "It is sealed: the other player sees it only when the game opens, which it does as soon as both forces are in.",
    ));
    text.push('\n');
    let m = mail(
        ctx,
        address(c, &f.player),
        format!("[dustmail {}] your force is recorded", f.game_id),
        text,
    );
    queue(ctx, &format!("{}-force-{}", f.game_id, f.side), &m)
}

fn refuse(
    ctx: &Ctx,
    c: &Campaign,
    (gid, side): (&str, &str),
    (inc, bi): (&Incoming, usize),
    r: Refusal,
) -> Result<(), RefereeError> {
    let player = core::game_number(&c.created.campaign_id, gid)
        .and_then(|n| c.awaiting_game(n))
        .and_then(|p| p.sides.get(side).cloned())
        .unwrap_or_default();
    let at = if r.line == 0 {
        "Your force choice".to_string()
    } else {
        format!("Line {} of your force choice", r.line)
    };
    let text = format!(
        "{}\n\nRule: {}\n\nSend instead: {}\n\nNothing was recorded: send a new signed choice.\n",
        wrap(&format!("{at} for game {gid} is refused: {}.", r.reason)),
        wrap(RULE),
        wrap(&r.instead),
    );
    let m = mail(
        ctx,
        address(c, &player),
        format!("[dustmail {gid}] force refused"),
        text,
    );
    let sha = inc.sha256.get(..16).unwrap_or(&inc.sha256);
    queue(ctx, &format!("{gid}-force-{side}-refused-{sha}-{bi}"), &m)
}

/// Asks each player whose force for a game awaiting forces is not in yet for one, with a
/// template of the signed text (queued under a fixed id: sent once however often called).
pub(crate) fn request_mails(ctx: &Ctx, c: &Campaign) -> Result<(), RefereeError> {
    for p in c.awaiting_all() {
        request_mails_for(ctx, c, &p)?;
    }
    Ok(())
}

fn request_mails_for(ctx: &Ctx, c: &Campaign, p: &Planned) -> Result<(), RefereeError> {
    let gid = core::game_id(&c.created.campaign_id, p.number);
    let allowance = c.created.rules.forces.as_ref().map_or(0, |x| x.ap);
    let chosen = c.chosen(p.number);
    for (side, player) in &p.sides {
        if chosen.contains_key(side) {
            continue;
        }
        let mut text = wrap(&format!(
            "Game {gid} of campaign {} ({}) opens when both players have chosen their forces. Choose yours: units of your roster, at most {allowance} AP in all. Sign the text below with one `field UNIT` line per unit you field (keep those you want, delete the others); your units enter from your side's entry zone.",
            c.created.campaign_id, p.scenario
        ));
        if let Some(dl) = c.side_force_deadline(p.number, side) {
            text.push_str("\n\n");
            text.push_str(&wrap(&format!(
                "Deadline: {}. Without a choice by then the referee records the default force: your available units in the order below, each while the total fits.",
                dl.to_rfc3339()
            )));
        }
        let lost = c.lost_for_good(side);
        if !lost.is_empty() {
            text.push_str("\n\n");
            let list: Vec<String> = lost.iter().map(|(u, g)| format!("{u} (in {g})")).collect();
            text.push_str(&wrap(&format!(
                "Lost for good in earlier games: {}.",
                list.join(", ")
            )));
        }
        text.push_str(&format!("\n\ngame: {gid}\nside: {side}\nseq: 1\n\n"));
        for (id, card) in c.available(side) {
            text.push_str(&format!("field {id}   # {card}, {} AP\n", c.unit_ap(&card)));
        }
        let m = mail(
            ctx,
            address(c, player),
            format!("[dustmail {gid}] choose your force"),
            text,
        );
        // The id names the player's key: a player replaced while the choice is awaited gets
        // a request of their own.
        let key = c
            .created
            .players
            .iter()
            .find(|q| &q.name == player)
            .map(|q| crate::ledger::sha256_hex(q.public_key.as_bytes()))
            .unwrap_or_default();
        let key = key.get(..12).unwrap_or_default();
        queue(ctx, &format!("{gid}-force-request-{side}-{key}"), &m)?;
    }
    Ok(())
}

/// Records the default force of every side whose player let the deadline of a game awaiting
/// forces pass, and tells them. Returns whether it recorded any.
pub(crate) fn record_defaults(
    ctx: &Ctx,
    log: &mut Log,
    c: &Campaign,
) -> Result<bool, RefereeError> {
    let mut any = false;
    for p in c.awaiting_all() {
        any |= record_defaults_for(ctx, log, c, &p)?;
    }
    Ok(any)
}

fn record_defaults_for(
    ctx: &Ctx,
    log: &mut Log,
    c: &Campaign,
    p: &Planned,
) -> Result<bool, RefereeError> {
    let gid = core::game_id(&c.created.campaign_id, p.number);
    let chosen = c.chosen(p.number);
    let mut any = false;
    for (side, player) in &p.sides {
        // Each side's own deadline: an absent player's comes no earlier than their return.
        if chosen.contains_key(side)
            || c.side_force_deadline(p.number, side)
                .is_none_or(|dl| ctx.now < dl)
        {
            continue;
        }
        let (units, ap) = c.default_force(side);
        if units.is_empty() {
            return Err(RefereeError::Usage(format!(
                "game {gid}: side {side} ({player}) has no unit left that fits the allowance, so no default force can be recorded: replace the player or end the campaign"
            )));
        }
        let f = ForceChosen {
            game_id: gid.clone(),
            number: p.number,
            player: player.clone(),
            side: side.clone(),
            units,
            ap,
            canonical: String::new(),
            signature: String::new(),
            default: true,
            at: ctx.now.to_rfc3339(),
        };
        log.append(Event::ForceChosen(f.clone()))?;
        receipt(ctx, c, &f)?;
        any = true;
    }
    Ok(any)
}

/// A block for a campaign game that is already open but that is the force choice recorded for
/// it before it opened (a run that recorded the choice, opened the game and died before its
/// commit leaves the mail in maildir/new): its receipt is queued again and it does not reach
/// the game as orders. Only a block of `field` lines, for a game a campaign opened, is looked
/// up.
pub(crate) fn already_chosen(
    ctx: &Ctx,
    created: &crate::ledger::Created,
    body: &BlockBody,
    block: &RawBlock,
    sum: &mut RunSummary,
) -> Result<bool, RefereeError> {
    let Some(cref) = &created.campaign else {
        return Ok(false);
    };
    if !parse_choice(&body.lines).is_ok_and(|ids| !ids.is_empty()) {
        return Ok(false);
    }
    let dir = campaign_dir(ctx, &cref.id);
    if !core::log_path(&dir).exists() {
        return Ok(false);
    }
    let Ok(c) = super::campaign::load(&dir) else {
        return Ok(false);
    };
    let Some(f) = c.chosen.iter().find(|f| {
        f.game_id == body.game
            && f.signature == block.signature_b64
            && f.canonical == block.canonical
    }) else {
        return Ok(false);
    };
    sum.deduplicated += 1;
    receipt(ctx, &c, f)?;
    Ok(true)
}
