//! Absences across a campaign (issue 15 item 5), on the pipeline's side: the intake of a signed
//! `absent until DATE` block addressed to a campaign (`game: <campaign id>`, `side: <player
//! name>`), its `player_absent` line, its receipt or refusal, and the `absent SIDE until DATE`
//! control that tells each of the player's open games, and each game the campaign opens while
//! the absence runs. The checks are the core's (`crate::pbem::campaign::absence`).

use super::campaign::campaign_dir;
use super::campaign_forces::{address, mail, wrap};
use crate::ledger::Control;
use crate::mail::{BlockBody, Incoming, RawBlock};
use crate::pbem::campaign::absence::{game_absence, parse_absence, PlayerAbsent, Refusal, RULE};
use crate::pbem::campaign::state::Campaign;
use crate::pbem::campaign::{self as core, Event, Log};
use crate::pbem::control::{command_lines, control_lines};
use crate::pbem::error::{io_err, RefereeError};
use crate::pbem::store::Loaded;
use crate::pipeline::{mails::queue, try_load, Ctx, RunSummary};
use std::collections::BTreeMap;

/// Routes a block addressed to a campaign (its `game:` is the campaign's id). Returns false when
/// there is no such campaign or the block is not signed by the campaign's player its `side:`
/// names (the caller then answers as for an unknown game).
pub(crate) fn route(
    ctx: &Ctx,
    (inc, bi): (&Incoming, usize),
    block: &RawBlock,
    body: &BlockBody,
    games: &mut BTreeMap<String, Loaded>,
    sum: &mut RunSummary,
) -> Result<bool, RefereeError> {
    if !core::valid_id(&body.game) {
        return Ok(false);
    }
    let dir = campaign_dir(ctx, &body.game);
    if !core::log_path(&dir).exists() {
        return Ok(false);
    }
    let Ok(c) = super::campaign::load(&dir) else {
        return Ok(false);
    };
    let Some(player) = c.created.players.iter().find(|p| p.name == body.side) else {
        return Ok(false);
    };
    if (ctx.edges.verify)(&player.public_key, &block.canonical, &block.signature_b64).is_err() {
        return Ok(false);
    }
    let name = player.name.clone();
    // The same block again (a crash before its mail left maildir/new, or a resend): recorded
    // once; the games are told where they were not yet, and the receipt is queued again under
    // the same id.
    if let Some(a) = recorded(&dir, &name, block)? {
        sum.deduplicated += 1;
        let told = tell_open_games(ctx, &c, &a, games, sum)?;
        return receipt(ctx, &c, &a, &told).map(|_| true);
    }
    let refused = |r: Refusal, sum: &mut RunSummary| -> Result<bool, RefereeError> {
        sum.refused += 1;
        refuse(ctx, &c, &name, (inc, bi), r).map(|_| true)
    };
    let last = c.absence_seq(&name);
    if body.seq <= last {
        return refused(
            Refusal {
                line: 0,
                reason: format!(
                    "seq {} is not above the seq of your last campaign absence ({last}): an old block cannot be sent again",
                    body.seq
                ),
                instead: format!("the same block with `seq: {}`, signed again", last + 1),
            },
            sum,
        );
    }
    if c.finished {
        return refused(
            Refusal {
                line: 0,
                reason: format!("campaign {} is finished", c.created.campaign_id),
                instead: "nothing: no game of the campaign is left to wait for you".into(),
            },
            sum,
        );
    }
    let (line, until) = match parse_absence(&body.lines) {
        Ok(x) => x,
        Err(r) => return refused(r, sum),
    };
    // The bound of a game's `absent until` (docs/deadlines.md), from the home's settings.
    let limit = ctx
        .now
        .checked_add_signed(chrono::Duration::days(ctx.config.max_absence_days.into()))
        .unwrap_or(ctx.now);
    if until > limit {
        return refused(
            Refusal {
                line,
                reason: format!(
                    "absent until {} is more than {} days from now: an absence is bounded",
                    until.to_rfc3339(),
                    ctx.config.max_absence_days
                ),
                instead: format!(
                    "absent until {} (or ask the referee to pause the games)",
                    limit.format("%Y-%m-%dT%H:%M:%SZ")
                ),
            },
            sum,
        );
    }
    let a = PlayerAbsent {
        player: name.clone(),
        until: (until > ctx.now).then(|| until.to_rfc3339()),
        block_seq: body.seq,
        canonical: block.canonical.clone(),
        signature: block.signature_b64.clone(),
        game: None,
        at: ctx.now.to_rfc3339(),
    };
    let (mut log, _) = Log::open(&dir, ctx.key.clone(), ctx.edges.sign_text)?;
    log.append(Event::PlayerAbsent(a.clone()))?;
    sum.accepted += 1;
    let c = super::campaign::load(&dir)?;
    let told = tell_open_games(ctx, &c, &a, games, sum)?;
    receipt(ctx, &c, &a, &told).map(|_| true)
}

/// An absence a player of a campaign declared in one of its games (ruling R338): once that game
/// has accepted the block's `absent until` line, the campaign records the block
/// (`player_absent` with `game`) and it reaches the player's other open games, the games the
/// campaign opens while it runs and the force deadline, as an absence mailed to the campaign.
/// The player gets the campaign's receipt naming the games told. Run again on the same block
/// (a crash, a resend) it records nothing twice.
pub(crate) fn from_game(
    ctx: &Ctx,
    gid: &str,
    block: &RawBlock,
    body: &BlockBody,
    games: &mut BTreeMap<String, Loaded>,
    sum: &mut RunSummary,
) -> Result<(), RefereeError> {
    let Some(g) = games.get(gid) else {
        return Ok(());
    };
    let (Some(cref), Some(until)) = (&g.created.campaign, game_absence(&body.lines)) else {
        return Ok(());
    };
    // Accepted by the game: the signer's seq is this block's and its absence is the line's.
    let want = (until > ctx.now).then(|| until.to_rfc3339());
    let players = g.derived.players(&g.created).to_vec();
    let signer = players.iter().find(|p| {
        p.side == body.side
            && (ctx.edges.verify)(&p.public_key, &block.canonical, &block.signature_b64).is_ok()
    });
    let Some(p) = signer else {
        return Ok(());
    };
    let key = crate::pbem::replay::player_key(&players, p);
    if g.derived.last_seq.get(&key) != Some(&body.seq)
        || g.derived.absent.get(&key) != want.as_ref()
    {
        return Ok(());
    }
    let dir = campaign_dir(ctx, &cref.id);
    let c = super::campaign::load(&dir)?;
    let Some(name) = c
        .games
        .iter()
        .find(|r| r.opened.game_id == gid)
        .and_then(|r| r.opened.sides.get(&body.side))
        .cloned()
    else {
        return Ok(());
    };
    // Only a block the campaign's own player signed speaks for the campaign (a key replaced in
    // this game alone does not).
    let theirs = c.created.players.iter().any(|q| {
        q.name == name
            && (ctx.edges.verify)(&q.public_key, &block.canonical, &block.signature_b64).is_ok()
    });
    if !theirs || c.finished {
        return Ok(());
    }
    let a = match recorded(&dir, &name, block)? {
        Some(a) => a,
        None => {
            let a = PlayerAbsent {
                player: name,
                until: want,
                block_seq: body.seq,
                canonical: block.canonical.clone(),
                signature: block.signature_b64.clone(),
                game: Some(gid.to_string()),
                at: ctx.now.to_rfc3339(),
            };
            let (mut log, _) = Log::open(&dir, ctx.key.clone(), ctx.edges.sign_text)?;
            log.append(Event::PlayerAbsent(a.clone()))?;
            a
        }
    };
    let c = super::campaign::load(&dir)?;
    let told = tell_open_games(ctx, &c, &a, games, sum)?;
    receipt(ctx, &c, &a, &told)
}

/// The `player_absent` line recorded for this very block, if any.
fn recorded(
    dir: &std::path::Path,
    player: &str,
    block: &RawBlock,
) -> Result<Option<PlayerAbsent>, RefereeError> {
    let file = core::log_path(dir).display().to_string();
    let data = std::fs::read(core::log_path(dir)).map_err(io_err(&file))?;
    Ok(core::parse_log(&file, &data)?
        .into_iter()
        .find_map(|(e, _)| match e.event {
            Event::PlayerAbsent(a)
                if a.player == player
                    && a.signature == block.signature_b64
                    && a.canonical == block.canonical =>
            {
                Some(a)
            }
            _ => None,
        }))
}

/// The control line telling a game that its `side`'s player is away until `until` (a time
/// already past ends the absence).
fn command(side: &str, until: &str) -> String {
    format!("absent {side} until {until}")
}

/// Tells every open game of the campaign in which the player plays (loaded into the run's
/// games, so later mails of the run see it): each gets an `absent` control, unless it already
/// has this absence. Returns the games told.
fn tell_open_games(
    ctx: &Ctx,
    c: &Campaign,
    a: &PlayerAbsent,
    games: &mut BTreeMap<String, Loaded>,
    sum: &mut RunSummary,
) -> Result<Vec<String>, RefereeError> {
    let until = a.until.clone().unwrap_or_else(|| a.at.clone());
    let mut told = Vec::new();
    for rec in c.games.iter().filter(|g| g.ended.is_none()) {
        let gid = &rec.opened.game_id;
        let Some((side, _)) = rec.opened.sides.iter().find(|(_, n)| **n == a.player) else {
            continue;
        };
        if !games.contains_key(gid) {
            match try_load(ctx, gid, sum)? {
                Some(g) => {
                    games.insert(gid.clone(), g);
                }
                None => continue,
            }
        }
        let Some(g) = games.get_mut(gid) else {
            continue;
        };
        if g.derived.finished.is_some() || g.derived.absent.get(side) == a.until.as_ref() {
            continue;
        }
        if control_loaded(ctx, g, &command(side, &until))? {
            told.push(gid.clone());
        }
    }
    Ok(told)
}

/// Applies a control command to a game of the run (as `dustmail control` does on the disk):
/// false when the game refuses it.
fn control_loaded(ctx: &Ctx, g: &mut Loaded, cmd: &str) -> Result<bool, RefereeError> {
    let mut d = g.derived.clone();
    let game = g.game;
    let (actions, results) = control_lines(
        &g.created,
        &mut d,
        &command_lines(cmd),
        ctx.now,
        &|st, t| game.decide(st, t),
    );
    if actions.is_empty() {
        return Ok(false);
    }
    let n = crate::audit::control_step(&g.created, &mut d, &actions);
    g.derived = d;
    let c = Control {
        by: "campaign".into(),
        at: ctx.now.to_rfc3339(),
        actions,
        results,
        command: Some(cmd.to_string()),
        signed: None,
        n,
        cause_sig: None,
        step: None,
        in_digest: false,
    };
    // As `control_game`: the entry goes first, so a crash cannot hide the game from a run.
    let root = &ctx.home.root;
    crate::due::set_entry(root, &g.id, None).map_err(io_err(crate::due::DUE_FILE))?;
    super::steps::append_control(ctx, g, c)?;
    let due = crate::due::next_due(g.game, &g.created, &g.derived);
    crate::due::set_entry(root, &g.id, Some(crate::due::entry(due)))
        .map_err(io_err(crate::due::DUE_FILE))?;
    Ok(true)
}

/// A game the campaign has just opened: each of its players away for the campaign is away in
/// it too (an `absent` control, on the disk: the game is not one of the run's).
pub(crate) fn tell_new_game(
    ctx: &Ctx,
    c: &Campaign,
    gid: &str,
    sides: &BTreeMap<String, String>,
) -> Result<(), RefereeError> {
    for (side, until) in c.absences_for(sides, ctx.now) {
        let g = crate::pipeline::load_any(&ctx.games, ctx.edges, ctx.home, gid)?;
        if g.derived.absent.get(&side) == Some(&until) {
            continue;
        }
        super::steps::control_game_by(ctx, gid, &command(&side, &until), "campaign")?;
    }
    Ok(())
}

fn receipt(ctx: &Ctx, c: &Campaign, a: &PlayerAbsent, told: &[String]) -> Result<(), RefereeError> {
    let cid = &c.created.campaign_id;
    let sent = match &a.game {
        Some(g) => format!(" (you sent it to {g})"),
        None => String::new(),
    };
    let mut text = match &a.until {
        Some(t) => wrap(&format!(
            "Your absence until {t} is recorded for campaign {cid}{sent}: the deadlines of your side in every game of the campaign you play, and in the games it opens before then, wait for you until then; so does the deadline of a force you are asked to choose."
        )),
        None => wrap(&format!(
            "The time you gave has passed: your absence in campaign {cid} ends now{sent}, and its deadlines run as usual."
        )),
    };
    if !told.is_empty() {
        text.push_str("\n\n");
        text.push_str(&wrap(&format!("Games told now: {}.", told.join(", "))));
    }
    text.push('\n');
    let m = mail(
        ctx,
        address(c, &a.player),
        format!("[dustmail campaign {cid}] your absence is recorded"),
        text,
    );
    let id = match &a.game {
        Some(g) => format!("{cid}-absence-{}-{g}-{}", a.player, a.block_seq),
        None => format!("{cid}-absence-{}-{}", a.player, a.block_seq),
    };
    queue(ctx, &id, &m)
}

fn refuse(
    ctx: &Ctx,
    c: &Campaign,
    player: &str,
    (inc, bi): (&Incoming, usize),
    r: Refusal,
) -> Result<(), RefereeError> {
    let cid = &c.created.campaign_id;
    let at = if r.line == 0 {
        "Your absence".to_string()
    } else {
        format!("Line {} of your absence", r.line)
    };
    let text = format!(
        "{}\n\nRule: {}\n\nSend instead: {}\n\nNothing was recorded.\n",
        wrap(&format!(
            "{at} for campaign {cid} is refused: {}.",
            r.reason
        )),
        wrap(RULE),
        wrap(&r.instead),
    );
    let m = mail(
        ctx,
        address(c, player),
        format!("[dustmail campaign {cid}] absence refused"),
        text,
    );
    let sha = inc.sha256.get(..16).unwrap_or(&inc.sha256);
    queue(
        ctx,
        &format!("{cid}-absence-{player}-refused-{sha}-{bi}"),
        &m,
    )
}
