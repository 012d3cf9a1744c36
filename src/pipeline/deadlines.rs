//! The deadline pass of a run: reminders, defaults past the grace, and the due-time index.

use crate::ledger::{self, Deadline, Event};
use crate::pbem::{control::*, error::*, replay::*, store::*};
use crate::pipeline::*;
use chrono::{DateTime, Utc};
use serde_json::json;
use std::collections::BTreeMap;

/// Reminders before a deadline and defaults after deadline + grace, for every game of the home
/// that is already loaded or due by the due-time index ([`crate::due`]), which is then updated.
pub(crate) fn deadlines(
    ctx: &Ctx,
    games: &mut BTreeMap<String, Loaded>,
    sum: &mut RunSummary,
) -> Result<(), RefereeError> {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = std::fs::metadata(ctx.home.games()) else {
        return Ok(());
    };
    // A directory's link count is 2 + its subdirectories (ext4, xfs, tmpfs); 1 where not kept.
    let subdirs = meta.nlink().checked_sub(2);
    let plan = crate::due::plan(
        &ctx.home.root,
        ctx.now,
        &mut sum.warnings,
        subdirs != Some(0),
    );
    // With as many entries as game directories, the loaded and the due games are all there is
    // to visit; otherwise the directory is listed and a game without an entry is due.
    let listed = plan.full || subdirs != Some(plan.count as u64);
    let mut ids: Vec<String> = if listed {
        match std::fs::read_dir(ctx.home.games()) {
            Ok(rd) => rd
                .filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .collect(),
            Err(_) => return Ok(()),
        }
    } else {
        games
            .keys()
            .cloned()
            .chain(plan.due_now.iter().cloned())
            .collect()
    };
    ids.sort();
    ids.dedup();
    let mut broken_ids: Vec<String> = Vec::new();
    for id in &ids {
        let id = id.clone();
        if !games.contains_key(&id) {
            if !plan.is_due(&id, ctx.now) {
                continue;
            }
            match try_load(ctx, &id, sum) {
                Ok(Some(g)) => {
                    check_due_entry(&plan, &g, sum);
                    games.insert(id.clone(), g);
                }
                Ok(None) => {
                    // A game directory removed by hand: its entry goes too.
                    if !ctx.home.game_dir(&id).join(ledger::LOG_FILE).exists() {
                        broken_ids.push(id.clone());
                    }
                    continue;
                }
                Err(e) => {
                    broken_ids.push(id.clone());
                    let msg = format!("game {id}: {e}");
                    if !sum.broken.contains(&msg) {
                        sum.broken.push(msg);
                    }
                    continue;
                }
            }
        }
        let Some(g) = games.get_mut(&id) else {
            continue;
        };
        if deadline_of(&g.created, &g.derived).is_none() {
            continue;
        }
        let hours = |h: u32| chrono::Duration::hours(h.into());
        let awaiting = g.game.awaiting(&g.derived.state);
        let mut sides: Vec<String> = Vec::new();
        for a in &awaiting {
            if !sides.contains(&a.side) {
                sides.push(a.side.clone());
            }
        }
        // Every side's due time is taken before any default moves the clock: sides awaited
        // together are treated alike.
        let dues: Vec<(String, DateTime<Utc>)> = sides
            .iter()
            .filter_map(|s| side_deadline(&g.created, &g.derived, s).map(|d| (s.clone(), d)))
            .collect();
        let head = g.ledger.head().clone();
        for (side, due) in dues {
            // Out-of-range times (absurd settings) mean "never", not a panic.
            let past_grace = due
                .checked_add_signed(hours(g.created.grace_hours))
                .is_some_and(|t| ctx.now >= t);
            let remind_at = due
                .checked_sub_signed(hours(g.created.reminder_hours))
                .unwrap_or(due);
            if past_grace {
                if g.derived.finished.is_some()
                    || !g
                        .game
                        .awaiting(&g.derived.state)
                        .iter()
                        .any(|a| a.side == side)
                {
                    continue;
                }
                let n = g.ledger.next_seq();
                let round = g.game.round(&g.derived.state);
                let mut st = g.derived.state.clone();
                let cause = crate::audit::deadline_keying(
                    |c| (ctx.edges.sign_text)(ctx.key, c),
                    g,
                    n,
                    &side,
                    round,
                    due,
                );
                let step = run_step(
                    g.game,
                    &mut st,
                    &g.created,
                    cause.keying,
                    &DiceMode::Secret(&g.secret, g.hidden),
                    &[],
                    |gm, s, dice| gm.default_for(s, &side, dice),
                )
                .map_err(RefereeError::Io)?;
                g.derived.state = st;
                g.derived.last_step_at = ctx.now.to_rfc3339();
                g.derived.steps = cause.steps;
                sum.defaults += 1;
                append_step(
                    ctx,
                    g,
                    Event::Deadline(Box::new(Deadline {
                        side,
                        round,
                        at: ctx.now.to_rfc3339(),
                        n: cause.n,
                        due: cause.due,
                        cause_sig: cause.sig,
                        step,
                    })),
                )?;
            } else if ctx.now >= remind_at && ctx.now < due {
                let Some(a) = awaiting.iter().find(|a| a.side == side) else {
                    continue;
                };
                let players = g.derived.players(&g.created).to_vec();
                // In a team, the players whose units the decision is about.
                for p in deciders(&g.created, &players, a) {
                    let text = render_with_board(
                        ctx,
                        "reminder",
                        json!({"game": g.id, "round": g.game.round(&g.derived.state), "side": a.side,
                               "decision": a.decision, "deadline": due.to_rfc3339(),
                               "grace_hours": g.created.grace_hours,
                               "next_seq": next_seq(&g.derived, &player_key(&players, p)),
                               "ssh_key": crate::pbem::keys::is_openssh_key(&p.public_key),
                               "tz": crate::pbem::lines::zone_of(&g.derived, &players, p),
                               "template": g.game.orders_template(&g.derived.state, &a.side)}),
                        g,
                        &a.side,
                    )?;
                    let m = game_mail(
                        ctx,
                        (&g.id, g.game.round(&g.derived.state)),
                        vec![p.address.clone()],
                        "reminder",
                        text,
                        None,
                        &head,
                    );
                    let id = format!(
                        "{}-{}-reminder-{}",
                        g.id,
                        head.seq,
                        recipient_part(&players, p)
                    );
                    match queue(ctx, &id, &m) {
                        Err(RefereeError::Unsendable(w)) => sum.warnings.push(w),
                        r => r?,
                    }
                    sum.reminders += 1;
                }
            }
        }
    }
    update_due_index(ctx, games, plan, &ids, &broken_ids, sum);
    Ok(())
}

/// A game the deadline pass loaded has not changed in this run: an entry that differs from
/// what its ledger gives is wrong (hand-edited, or written by a bug) and is corrected.
pub(crate) fn check_due_entry(plan: &crate::due::Plan, g: &Loaded, sum: &mut RunSummary) {
    let Some(have) = plan.index().due.get(&g.id) else {
        return;
    };
    let want = crate::due::entry(crate::due::next_due(g.game, &g.created, &g.derived));
    if !g.snapshot_stale && *have != want {
        sum.warnings.push(format!(
            "{}: the entry of game {} was {}, its ledger gives {}: corrected",
            crate::due::DUE_FILE,
            g.id,
            have.as_deref().unwrap_or("null"),
            want.as_deref().unwrap_or("null")
        ));
    }
}

/// Records the due time of every game this run loaded (and so may have changed), forgets broken
/// and removed games (after a full scan: every game not listed), and writes the index if anything changed. Written
/// before the run's last commit, whose sync makes it durable with the snapshots; a run
/// interrupted before that commit makes the next one load every game (`recover_deadline_mails`).
pub(crate) fn update_due_index(
    ctx: &Ctx,
    games: &BTreeMap<String, Loaded>,
    plan: crate::due::Plan,
    ids: &[String],
    broken: &[String],
    sum: &mut RunSummary,
) {
    let (full, mut changed) = (plan.full, plan.rewrite);
    if !changed && !full && games.is_empty() && broken.is_empty() {
        // Idle: nothing to update, and the index need not be read in full.
        return;
    }
    let mut ix = plan.into_index();
    for g in games.values() {
        let e = crate::due::entry(crate::due::next_due(g.game, &g.created, &g.derived));
        if ix.due.get(&g.id) != Some(&e) {
            ix.due.insert(g.id.clone(), e);
            changed = true;
        }
    }
    for id in broken {
        // No entry: due, so a broken game is reported by every run, as before the index (and
        // a game directory removed by hand is forgotten).
        changed |= ix.due.remove(id).is_some();
    }
    if full {
        ix.due
            .retain(|id| ids.binary_search_by(|k| k.as_str().cmp(id)).is_ok());
        ix.rescanned = Some(ctx.now.to_rfc3339());
        changed = true;
    }
    if changed {
        if let Err(e) = crate::due::save(&ctx.home.root, &ix) {
            // A stale index could hide a due game: without one, the next run loads them all.
            let _ = std::fs::remove_file(ctx.home.root.join(crate::due::DUE_FILE));
            sum.warnings.push(format!(
                "cannot write {} ({e}): the next run loads every game",
                crate::due::DUE_FILE
            ));
        }
    }
}
