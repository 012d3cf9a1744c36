//! The batch pipeline of DESIGN §2: Maildir → parse → route → verify → `Game::submit` → ledger
//! → snapshot → replies and reports queued, then deadlines; and game creation. One run serves
//! every game of its [`Registry`]: each game is driven through the core's `AnyGame`, picked by
//! the `game` of its `created` line.
//!
//! The mail/crypto edges come in through [`Edges`] (function pointers) and the outbox through
//! [`MailSink`], so the pipeline can be driven by tests with toy games and fake edges. Replay,
//! snapshots, verification and control are the core's (src/pbem), re-exported here under the
//! names tools already use (`dustmail::referee::load_game`…).

use crate::config::{valid_game_id, Config, Home};
use crate::ledger::{self, sha256_hex, Entry, Event, Head, Ledger};
use crate::outbox::{Mail, Outbox};
use crate::pbem::{error::*, store::*};
use crate::pipeline::{deadlines::*, mails::*, steps::*};
use crate::registry::{AnyGame, Registry};
use crate::report::Templates;
use chrono::{DateTime, Utc};
use ed25519_dalek::SigningKey;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub mod campaign;
mod campaign_absence;
mod campaign_forces;
pub mod campaign_players;
mod campaign_strategic;
mod create;
mod deadlines;
mod digest;
mod guard;
mod imap_in;
mod mail_in;
mod mails;
mod outcomes;
mod receipt;
mod steps;
pub use crate::pbem::{
    control::{deadline_of, deciders, parse_control, parse_player, side_deadline, CONTROL_FORMS},
    edges::Edges,
    error::RefereeError,
    lines,
    lines::units_of,
    replay::{
        chain_key, player_key, replay, replay_bytes, Derived, DiceMode, ReplaySummary, REFEREE_SIDE,
    },
    store::{
        game_of, load_any, load_game, read_created, read_secret, replay_game, write_snapshot,
        Loaded, ENGINE_VERSION, SECRET_FILE, SNAPSHOT_FILE,
    },
    verify::check_head,
};
pub use create::{create_game, create_team_game, NewGame};
pub use imap_in::{run_imap, ImapSummary};
use mail_in::{bounded_reason, process_mail};
pub use mails::result_text;
pub use steps::control_game;

/// Where outgoing mail goes. Implemented by [`Outbox`]; tests record.
pub trait MailSink: Sync {
    /// Queues a mail under an idempotent id (an id queued before is not queued again).
    /// `date` is the run's clock (`run --now`), for the Date header.
    fn queue(&self, id: &str, mail: &Mail, date: DateTime<Utc>) -> Result<(), String>;
    /// A run begins: mails may be held back until [`MailSink::commit_batch`]. True when an
    /// earlier run's batch was never committed (that run was interrupted).
    fn begin_batch(&self) -> Result<bool, String> {
        Ok(false)
    }
    /// The ledger lines and files of the batch so far are durable: release its mails; `last`
    /// ends the batch.
    fn commit_batch(&self, _last: bool) -> Result<(), String> {
        Ok(())
    }
}

impl MailSink for Outbox {
    fn queue(&self, id: &str, mail: &Mail, date: DateTime<Utc>) -> Result<(), String> {
        // The run's clock (`--now`) dates the mail, so re-queueing after a crash gives the
        // same bytes.
        Outbox::queue_at(self, id, mail, date).map_err(|e| format!("{e:#}"))
    }
    fn begin_batch(&self) -> Result<bool, String> {
        Outbox::begin_batch(self).map_err(|e| format!("{e:#}"))
    }
    fn commit_batch(&self, last: bool) -> Result<(), String> {
        Outbox::commit_batch(self, last).map_err(|e| format!("{e:#}"))
    }
}

impl Edges {
    pub fn real() -> Edges {
        Edges {
            parse_mail: crate::mail::parse_mail,
            parse_body: crate::mail::parse_body,
            verify: |key, canonical, sig| {
                let vk = crate::crypto::parse_public_key(key).map_err(|e| e.to_string())?;
                crate::crypto::verify(&vk, canonical, sig).map_err(|e| e.to_string())
            },
            verify_text: |key, text, sig| {
                let vk = crate::crypto::parse_public_key(key).map_err(|e| e.to_string())?;
                crate::crypto::verify_text(&vk, text, sig).map_err(|e| e.to_string())
            },
            sign_text: crate::crypto::sign_text,
            public_key_text: |k| crate::crypto::public_key_text(&k.verifying_key()),
        }
    }
}

/// Everything a pipeline run needs.
pub struct Ctx<'a> {
    /// The games this run serves, by the `game` of their `created` lines.
    pub games: Registry<'a>,
    pub home: &'a Home,
    pub config: &'a Config,
    pub templates: &'a Templates,
    pub edges: &'a Edges,
    pub sink: &'a dyn MailSink,
    pub key: &'a SigningKey,
    pub now: DateTime<Utc>,
}

// ---------------------------------------------------------------------------------------------
// Seed chain (DESIGN §5): K_N = SHA-256(S), K_{r-1} = SHA-256(K_r).

pub use crate::lock::{try_lock_home, HomeBusy, HomeLock};

/// Takes `<home>/lock`; a second run gets a clear error naming the holder (src/lock.rs).
pub fn lock_home(home: &Home) -> Result<HomeLock, RefereeError> {
    let path = home.lock_path();
    match try_lock_home(home).map_err(io_err(&path.display().to_string()))? {
        Ok(lock) => Ok(lock),
        Err(busy) => Err(RefereeError::Usage(busy.to_string())),
    }
}

// ---------------------------------------------------------------------------------------------
// Creating a game.

/// What one run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunSummary {
    pub mails: usize,
    pub accepted: usize,
    pub refused: usize,
    /// Mails moved to rejected/ (no game could be found for them).
    pub rejected: usize,
    /// Blocks already in a ledger (crash recovery): only their replies were re-queued.
    pub deduplicated: usize,
    pub reminders: usize,
    pub defaults: usize,
    /// Problems the operator should see (unreadable mails…).
    pub warnings: Vec<String>,
    /// Games whose ledger or snapshot cannot be read or verified (their mails stay in new/).
    pub broken: Vec<String>,
    /// Games read from disk by this run (for mails or because they were due: see
    /// [`crate::due`]); an idle run with an up-to-date index reads none.
    pub loaded: usize,
}

/// Processes every mail in `<maildir>/new` (sorted by name), then deadlines.
pub fn run(ctx: &Ctx, maildir: &Path) -> Result<RunSummary, RefereeError> {
    let mut sum = RunSummary::default();
    let new_dir = maildir.join("new");
    let cur_dir = maildir.join("cur");
    std::fs::create_dir_all(&cur_dir).map_err(io_err(&cur_dir.display().to_string()))?;
    std::fs::create_dir_all(ctx.home.rejected()).map_err(io_err("rejected/"))?;
    let mut names: Vec<PathBuf> = std::fs::read_dir(&new_dir)
        .map_err(|e| {
            RefereeError::Usage(format!(
                "cannot read {} ({e}): is this a dustmail home? (`dustmail init`)",
                new_dir.display()
            ))
        })?
        .filter_map(|e| e.ok())
        // Files and symlinks (which are never followed: process_mail rejects them); not
        // directories.
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink()))
        .map(|e| e.path())
        .collect();
    names.sort();
    let mut strangers = crate::intake::StrangerReplies::load(&ctx.home.root);
    let mut games: BTreeMap<String, Loaded> = BTreeMap::new();
    let unfinished = ctx.sink.begin_batch().map_err(RefereeError::Io)?;
    if unfinished {
        recover_deadline_mails(ctx, &mut games, &mut sum)?;
        // Released before this run can append a digest line of its own: recovery re-makes
        // only the mails of each game's last digest line.
        if games.values().any(|g| g.created.digest) {
            let w = commit(ctx, &mut games, &mut Vec::new(), false)?;
            sum.warnings.extend(w);
        }
    }
    let mut moves: Vec<(PathBuf, PathBuf)> = Vec::new();
    // Commit timing is the machine's business, never the game's: it decides only when work
    // becomes durable, not what the work is.
    let mut last_commit = std::time::Instant::now();
    // The batch's mails are rendered at its commit: the commit comes when the time spent plus
    // the expected rendering reaches the bound, so a commit never waits long (a run killed
    // again and again still makes progress). The cost of a step is learnt from the last commit.
    let mut per_step = std::time::Duration::from_millis(50);
    let mut steps_at_commit = 0;
    for path in names {
        sum.mails += 1;
        let requeued = sum.deduplicated;
        // No content of a mail can stop the run: what only this mail's content can cause is
        // contained to it (warned about, the mail moved to rejected/); the machine's failures
        // (disk, ledger) still stop the run.
        let processed = match process_mail(ctx, &path, &mut games, &mut sum, &mut strangers) {
            Err(RefereeError::Unsendable(w)) => {
                sum.warnings
                    .push(format!("{}: {w}; moved to rejected/", path.display()));
                Disposition::Rejected
            }
            other => other?,
        };
        let name = path.file_name().unwrap_or_default();
        let to = match processed {
            // Maildir readers expect the `:2,` info suffix in cur/ (`:2,S`: seen).
            Disposition::Routed => cur_dir.join(crate::intake::cur_name(name)),
            Disposition::Rejected => {
                sum.rejected += 1;
                ctx.home.rejected().join(name)
            }
            // Its game cannot be read: the mail waits in new/ until the operator repairs it.
            Disposition::Keep => continue,
        };
        moves.push((path, to));
        let steps = (sum.accepted + sum.refused - steps_at_commit) as u32;
        // After a crash, a re-queued mail (its step replayed, its mails rendered again) is
        // committed at once: recovery keeps what it did even if it is interrupted again.
        if moves.len() >= COMMIT_EVERY_MAILS
            || last_commit.elapsed() + per_step * steps >= COMMIT_EVERY
            || sum.deduplicated > requeued
        {
            let t = std::time::Instant::now();
            save_strangers(ctx, &mut strangers, &mut sum);
            let w = commit(ctx, &mut games, &mut moves, false)?;
            sum.warnings.extend(w);
            if steps > 0 {
                per_step = t.elapsed() / steps;
            }
            steps_at_commit = sum.accepted + sum.refused;
            last_commit = std::time::Instant::now();
        }
    }
    deadlines(ctx, &mut games, &mut sum)?;
    // Games that ended in this run are recorded in their campaigns, which open what is due.
    campaign::after_steps(ctx, &games, &mut sum, unfinished);
    save_strangers(ctx, &mut strangers, &mut sum);
    let w = commit(ctx, &mut games, &mut moves, true)?;
    sum.warnings.extend(w);
    Ok(sum)
}

/// Writes the strangers' file before a commit (whose sync makes it durable with the batch):
/// the answers a commit releases are recorded first.
pub(crate) fn save_strangers(
    ctx: &Ctx,
    strangers: &mut crate::intake::StrangerReplies,
    sum: &mut RunSummary,
) {
    if let Err(e) = strangers.save(&ctx.home.root, ctx.now) {
        sum.warnings.push(format!(
            "cannot write {} ({e}): strangers may be answered again",
            crate::intake::STRANGERS_FILE
        ));
    }
}

/// A run commits after this many mails or this much time (counting the rendering the commit
/// will do), whichever comes first: one sync for many mails, while a run killed again and again
/// (tests/it/crash.rs) still keeps what it did before each kill instead of redoing it.
pub(crate) const COMMIT_EVERY_MAILS: usize = 512;

pub(crate) const COMMIT_EVERY: std::time::Duration = std::time::Duration::from_millis(200);

/// The run's group commit, in the order that keeps every promise: the pending steps' mails
/// rendered and staged; at the run's end the stale snapshots written; the ledgers, snapshots and
/// staged mails made durable (one `syncfs` per filesystem); the staged mails released to the
/// outbox; only then the processed mails leave `maildir/new`. A crash before the end leaves
/// those mails in new/, where the next run finds them already in the ledger and re-queues their
/// replies.
pub(crate) fn commit(
    ctx: &Ctx,
    games: &mut BTreeMap<String, Loaded>,
    moves: &mut Vec<(PathBuf, PathBuf)>,
    last: bool,
) -> Result<Vec<String>, RefereeError> {
    // A digest game's steps are told once, at the run's last commit (src/pipeline/digest.rs).
    let pending: Vec<PendingMails> = games
        .values_mut()
        .filter(|g| !g.created.digest)
        .flat_map(|g| std::mem::take(&mut g.pending))
        .collect();
    let mut warnings = render_pending(ctx, pending)?;
    if last {
        warnings.extend(digest::commit_digests(ctx, games)?);
    }
    let mut dirty: Vec<PathBuf> = vec![ctx.home.root.clone()];
    // A stale snapshot marks a game appended to in this run: only those are touched. Snapshots
    // are written once, at the run's end: a snapshot is a cache that must match the ledger's
    // head to be used (else the game is replayed), so one written mid-run would be rewritten
    // at every commit for nothing.
    for g in games.values_mut().filter(|g| g.snapshot_stale) {
        if last {
            write_snapshot(&ctx.home.game_dir(&g.id), &g.derived)?;
            g.snapshot_stale = false;
        }
        dirty.push(g.ledger.path().to_path_buf());
    }
    sync_filesystems(&dirty)?;
    ctx.sink.commit_batch(last).map_err(RefereeError::Io)?;
    for (from, to) in moves.drain(..) {
        std::fs::rename(&from, &to).map_err(io_err(&format!("moving {}", from.display())))?;
    }
    Ok(warnings)
}

/// Makes everything written under `paths` durable: one `syncfs` per filesystem they are on
/// (a game directory may be a mount of its own), instead of an fsync per file.
pub(crate) fn sync_filesystems(paths: &[PathBuf]) -> Result<(), RefereeError> {
    use std::os::unix::fs::MetadataExt;
    let mut devices: Vec<u64> = Vec::new();
    for p in paths {
        let dev = std::fs::metadata(p)
            .map_err(io_err(&p.display().to_string()))?
            .dev();
        if devices.contains(&dev) {
            continue;
        }
        devices.push(dev);
        let f = std::fs::File::open(p).map_err(io_err(&p.display().to_string()))?;
        rustix::fs::syncfs(&f)
            .map_err(|e| RefereeError::Io(format!("syncing the disk of {}: {e}", p.display())))?;
    }
    Ok(())
}

/// After an interrupted run: the mails of deadline defaults (which no Maildir mail brings back)
/// that run may have staged and lost are queued again. Every game is loaded (so the deadline
/// pass re-indexes them all: the due-time index may be older than that run's ledger lines).
pub(crate) fn recover_deadline_mails(
    ctx: &Ctx,
    games: &mut BTreeMap<String, Loaded>,
    sum: &mut RunSummary,
) -> Result<(), RefereeError> {
    let Ok(rd) = std::fs::read_dir(ctx.home.games()) else {
        return Ok(());
    };
    let mut ids: Vec<String> = rd
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    ids.sort();
    let mut requeued = 0;
    for id in ids {
        if !games.contains_key(&id) {
            match try_load(ctx, &id, sum) {
                Ok(Some(g)) => {
                    games.insert(id.clone(), g);
                }
                // Broken games are reported by the deadline pass.
                _ => continue,
            }
        }
        let Some(g) = games.get(&id) else { continue };
        if g.created.digest {
            digest::requeue_digest(ctx, g, None)?;
            continue;
        }
        // The deadline steps at the tail of the ledger: a run appends them last.
        let entries = ledger::read_all(g.ledger.path())?;
        let mut seqs = Vec::new();
        for e in entries.iter().rev() {
            match &e.event {
                Event::RoundEnd(_) | Event::Finished(_) => {}
                Event::Deadline(_) => seqs.push(e.seq),
                _ => break,
            }
        }
        for seq in seqs.into_iter().rev() {
            requeue(ctx, g, seq)?;
            requeued += 1;
        }
    }
    sum.warnings.push(format!(
        "the previous run was interrupted before it finished: its mails are queued again ({requeued} deadline step(s) re-queued; the others come back with their orders from maildir/new)"
    ));
    Ok(())
}

/// Where a processed mail goes.
pub(crate) enum Disposition {
    /// A block reached a game: maildir/cur.
    Routed,
    /// No block reached a game: rejected/.
    Rejected,
    /// A block's game cannot be read: stays in maildir/new.
    Keep,
}

/// Every mail block the ledger records: (mail sha256, block, line).
pub(crate) fn recorded_mails(log: &Path) -> Result<Vec<(String, usize, u64)>, RefereeError> {
    Ok(ledger::read_all(log)?
        .into_iter()
        .filter_map(|e| match e.event {
            Event::Submission(s) => Some((s.mail_sha256, s.block, e.seq)),
            Event::Control(c) => c.signed.map(|sc| (sc.mail_sha256, sc.block, e.seq)),
            _ => None,
        })
        .collect())
}

pub(crate) fn try_load(
    ctx: &Ctx,
    id: &str,
    sum: &mut RunSummary,
) -> Result<Option<Loaded>, RefereeError> {
    let log = ctx.home.game_dir(id).join(ledger::LOG_FILE);
    if !valid_game_id(id) || !log.exists() {
        return Ok(None);
    }
    // Only a run (under the lock) repairs: a torn tail is an append a crash interrupted, about
    // which no mail was queued; its mail is still in new/ and is processed again.
    if let Some(n) = ledger::truncate_torn_tail(&log)? {
        sum.warnings.push(format!(
            "game {id}: removed a torn last line ({n} bytes) left by an interrupted run"
        ));
    }
    let mut g = load_any(&ctx.games, ctx.edges, ctx.home, id)?;
    // Only `run` loads games here: its batch commit makes the appends durable.
    g.ledger.defer_sync();
    g.ledger.sign_with(ctx.key.clone(), ctx.edges.sign_text);
    if complete_interrupted_step(&mut g)? {
        g.snapshot_stale = true;
        sum.warnings.push(format!(
            "game {id}: completed the round-end / end-of-game lines of a step an interrupted run had begun"
        ));
    }
    sum.loaded += 1;
    Ok(Some(g))
}

/// Re-queues the mails of the step starting at ledger line `seq` (after a crash).
pub(crate) fn requeue(ctx: &Ctx, g: &Loaded, seq: u64) -> Result<(), RefereeError> {
    if g.created.digest && digest::requeue_digest(ctx, g, Some(seq))? {
        return Ok(());
    }
    let data = std::fs::read(g.ledger.path()).map_err(io_err("reading the ledger"))?;
    let entries = ledger::parse_log(ledger::LOG_FILE, &data)?;
    let lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    let mut step = Vec::new();
    for e in entries.iter().skip(seq.saturating_sub(1) as usize).cloned() {
        let is_first = step.is_empty();
        if !is_first && !matches!(e.event, Event::RoundEnd(_) | Event::Finished(_)) {
            break;
        }
        let hash = lines
            .get((e.seq as usize).saturating_sub(1))
            .map(|l| sha256_hex(l))
            .unwrap_or_default();
        let head = Head { seq: e.seq, hash };
        step.push((e, head));
    }
    // The mails tell the game as it stood right after the step: a batch run interrupted after
    // several steps re-queues older ones too, so the state is replayed up to the step's end.
    let end = step.last().map_or(seq, |(e, _)| e.seq);
    let at_step;
    let g = if end >= g.ledger.head().seq {
        g
    } else {
        let prefix: Vec<Entry> = entries.into_iter().take(end as usize).collect();
        let (_, derived, _) = replay(
            g.game,
            ctx.edges,
            ledger::LOG_FILE,
            &prefix,
            DiceMode::Secret(&g.secret, g.hidden),
        )?;
        at_step = Loaded {
            game: g.game,
            id: g.id.clone(),
            created: g.created.clone(),
            ledger: Ledger::open(g.ledger.path())?,
            derived,
            secret: g.secret,
            hidden: g.hidden,
            snapshot_stale: false,
            pending: Vec::new(),
        };
        &at_step
    };
    if let Some((
        Entry {
            seq,
            event: Event::Control(c),
            ..
        },
        head,
    )) = step.first()
    {
        for (id, m) in control_notices(ctx, g, *seq, c, head)? {
            queue(ctx, &id, &m)?;
        }
        return Ok(());
    }
    for (id, m) in step_mails(ctx, &g.at(), &step, true)? {
        queue(ctx, &id, &m)?;
    }
    Ok(())
}

/// `show --format json`: the game's view plus `round` and `awaiting`.
pub fn show_json(game: &dyn AnyGame, g: &Loaded, as_side: Option<&str>) -> serde_json::Value {
    let mut v = game.view(&g.derived.state, as_side);
    let awaiting = game.awaiting(&g.derived.state);
    let players = g.derived.players(&g.created);
    // Who must decide what: the players answering each awaited decision, and its deadline.
    let who: Vec<serde_json::Value> = awaiting
        .iter()
        .map(|a| {
            json!({"side": a.side, "decision": a.decision, "options": a.options,
                   "players": deciders(&g.created, players, a).iter().map(|p| &p.address).collect::<Vec<_>>(),
                   "deadline": side_deadline(&g.created, &g.derived, &a.side).map(|d| d.to_rfc3339())})
        })
        .collect();
    let extra = json!({
        "game": g.id,
        "round": game.round(&g.derived.state),
        "awaiting": awaiting,
        "awaiting_players": who,
        "paused": g.derived.paused,
        "observers": g.derived.observers,
        "absent": g.derived.absent,
        "finished": g.derived.finished,
        "ledger_head": g.derived.head});
    match (&mut v, extra) {
        (serde_json::Value::Object(m), serde_json::Value::Object(e)) => {
            for (k, val) in e {
                m.insert(k, val);
            }
            v
        }
        (_, e) => {
            json!({"view": v, "game": e["game"], "round": e["round"], "awaiting": e["awaiting"],
                          "finished": e["finished"], "ledger_head": e["ledger_head"]})
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Teams, referee requests (`report`, `template`, `absent`) and referee control. Every function
// here is used both by the live pipeline and by replay/audit, so both derive the same thing.
