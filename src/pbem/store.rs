//! A game on disk: its ledger, secrets and snapshot, loaded from the snapshot when it matches the
//! ledger's head, else by a full replay.

use crate::ledger::{self, Created, Entry, Event, Head, Ledger, LedgerError};
use crate::pbem::home::Home;
use crate::pbem::{edges::*, error::*, replay::*};
use crate::registry::{AnyGame, AnyState, Registry};
use crate::seed::Key;
use serde::Serialize;
use std::path::{Path, PathBuf};

pub const ENGINE_VERSION: &str = concat!("dustmail ", env!("CARGO_PKG_VERSION"));

pub const SNAPSHOT_FILE: &str = "snapshot.json";

pub const SECRET_FILE: &str = "seed.secret";

/// A game loaded for the pipeline.
pub struct Loaded {
    /// The game the `created` line names.
    pub game: &'static dyn AnyGame,
    pub id: String,
    pub created: Created,
    pub ledger: Ledger,
    pub derived: Derived<AnyState>,
    pub secret: Key,
    /// H, the hidden secret (None: a game made before hidden values).
    pub hidden: Option<Key>,
    /// In a batch run the snapshot is written once at the batch's commit, not per step.
    pub snapshot_stale: bool,
    /// In a batch run, the steps whose mails are rendered at the next commit.
    pub(crate) pending: Vec<PendingMails>,
}

impl Loaded {
    /// The game as it stands now, as the mails about its last step read it.
    pub(crate) fn at(&self) -> GameAt {
        GameAt {
            game: self.game,
            id: self.id.clone(),
            created: self.created.clone(),
            derived: self.derived.without_mails(),
            ledger: self.ledger.path().to_path_buf(),
        }
    }
}

/// The game as a step left it, as the mails about that step read it. Owned, so that a batch
/// run renders a step's mails at its commit (in parallel) after the game has moved on.
pub(crate) struct GameAt {
    pub(crate) game: &'static dyn AnyGame,
    pub(crate) id: String,
    pub(crate) created: Created,
    pub(crate) derived: Derived<AnyState>,
    pub(crate) ledger: PathBuf,
}

/// A step whose mails are still to be rendered: the entries it appended (with their heads).
pub(crate) struct PendingMails {
    pub(crate) game: GameAt,
    pub(crate) entries: Vec<(Entry, Head)>,
    /// Its refusal is not sent: the sender is a stranger answered lately (`stranger_replies`).
    /// Kept out of the ledger, whose lines must not depend on the strangers' file.
    pub(crate) quiet: bool,
}

pub(crate) fn read_first_line(path: &Path) -> Result<Vec<u8>, RefereeError> {
    use std::io::BufRead;
    let f = std::fs::File::open(path).map_err(io_err(&path.display().to_string()))?;
    let mut r = std::io::BufReader::new(f);
    let mut buf = Vec::new();
    r.read_until(b'\n', &mut buf)
        .map_err(io_err(&path.display().to_string()))?;
    if buf.pop() != Some(b'\n') {
        return Err(LedgerError::Torn {
            file: ledger::LOG_FILE.into(),
            line: 1,
        }
        .into());
    }
    Ok(buf)
}

pub fn read_secret(dir: &Path) -> Result<Key, RefereeError> {
    let p = dir.join(SECRET_FILE);
    let t = std::fs::read_to_string(&p).map_err(|e| {
        RefereeError::Usage(format!(
            "cannot read {} ({e}): the referee needs the game's seed secret",
            p.display()
        ))
    })?;
    parse_key(&t)
        .ok_or_else(|| RefereeError::Usage(format!("{} is not 64 hex digits", p.display())))
}

/// The `created` line of a game's log (its first line).
pub fn read_created(home: &Home, id: &str) -> Result<Created, RefereeError> {
    let first = read_first_line(&home.game_dir(id).join(ledger::LOG_FILE))?;
    match serde_json::from_slice::<Entry>(&first).map(|e| e.event) {
        Ok(Event::Created(c)) => Ok(*c),
        _ => Err(LedgerError::Corrupt {
            file: ledger::LOG_FILE.into(),
            line: 1,
            msg: "the first line is not a `created` entry".into(),
        }
        .into()),
    }
}

/// The game of `games` that game `id` is (its `created` line names it).
pub fn game_of(
    games: &Registry,
    home: &Home,
    id: &str,
) -> Result<&'static dyn AnyGame, RefereeError> {
    game_named(games, &read_created(home, id)?, id)
}

fn game_named(
    games: &Registry,
    created: &Created,
    id: &str,
) -> Result<&'static dyn AnyGame, RefereeError> {
    games.get(&created.game).ok_or_else(|| {
        RefereeError::Usage(format!(
            "game {id} is a `{}` game, which this dustmail does not know (it knows {}): run it with a dustmail that has that game",
            created.game,
            games.names().join(", ")
        ))
    })
}

/// Loads a game of any kind `games` knows ([`load_game`]).
pub fn load_any(
    games: &Registry,
    edges: &Edges,
    home: &Home,
    id: &str,
) -> Result<Loaded, RefereeError> {
    let created = read_created(home, id)?;
    load_created(game_named(games, &created, id)?, edges, home, id, created)
}

/// Loads a game: from its snapshot when the snapshot's head matches the log's last line, else by
/// a full replay (which rewrites the snapshot).
pub fn load_game(
    game: &'static dyn AnyGame,
    edges: &Edges,
    home: &Home,
    id: &str,
) -> Result<Loaded, RefereeError> {
    load_created(game, edges, home, id, read_created(home, id)?)
}

/// [`load_game`] once the `created` line is read.
fn load_created(
    game: &'static dyn AnyGame,
    edges: &Edges,
    home: &Home,
    id: &str,
    created: Created,
) -> Result<Loaded, RefereeError> {
    let dir = home.game_dir(id);
    let log = dir.join(ledger::LOG_FILE);
    let ledger = Ledger::open(&log)?;
    let secret = read_secret(&dir)?;
    let hidden = crate::hidden::read_hidden(&dir).map_err(RefereeError::Usage)?;
    if created.game != game.name() {
        return Err(RefereeError::Usage(format!(
            "game {id} is a `{}` game, not `{}`",
            created.game,
            game.name()
        )));
    }
    let snap_path = dir.join(SNAPSHOT_FILE);
    let snap = std::fs::read(&snap_path)
        .ok()
        .and_then(|b| decode_snapshot(game, &b).ok());
    if created.hidden_commitment.is_some() && hidden.is_none() {
        return Err(RefereeError::Usage(format!(
            "cannot read {}: the game committed to a hidden secret H, which the referee needs",
            dir.join(crate::hidden::HIDDEN_FILE).display()
        )));
    }
    let derived = match snap {
        Some(s) if &s.head == ledger.head() => {
            // The snapshot matches the last line; a hand edit in the middle would not show
            // there. Unless the file is exactly as the last run left it, stream the chain.
            if !ledger::stamp_matches(&dir) {
                crate::audit::check_untouched(&log, id)?;
                ledger::write_stamp(&dir)?;
            }
            s
        }
        _ => {
            let data = std::fs::read(&log).map_err(io_err(&log.display().to_string()))?;
            let (_, d, _) = replay_bytes(
                game,
                edges,
                ledger::LOG_FILE,
                &data,
                DiceMode::Secret(&secret, hidden),
            )?;
            write_snapshot(&dir, &d)?;
            d
        }
    };
    let mut ledger = ledger;
    if created.dice_version >= 2 {
        ledger.require_signatures();
    }
    Ok(Loaded {
        game,
        id: id.to_string(),
        created,
        ledger,
        derived,
        secret,
        hidden,
        snapshot_stale: false,
        pending: Vec::new(),
    })
}

/// `replay GAME`: a full replay with the secret (every signature, die, key and digest), then a
/// comparison with the snapshot when it claims the same head.
pub fn replay_game(
    game: &dyn AnyGame,
    edges: &Edges,
    home: &Home,
    id: &str,
) -> Result<ReplaySummary, RefereeError> {
    replay_game_observed(game, edges, home, id, &mut |_, _| {})
}

/// [`replay_game`], telling `progress(n, total)` after each ledger line.
pub fn replay_game_observed(
    game: &dyn AnyGame,
    edges: &Edges,
    home: &Home,
    id: &str,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<ReplaySummary, RefereeError> {
    let dir = home.game_dir(id);
    let log = dir.join(ledger::LOG_FILE);
    let data = std::fs::read(&log).map_err(io_err(&log.display().to_string()))?;
    let secret = read_secret(&dir)?;
    let hidden = crate::hidden::read_hidden(&dir).map_err(RefereeError::Usage)?;
    let (created, d, sum) = crate::pbem::replay::replay_bytes_observed(
        game,
        edges,
        ledger::LOG_FILE,
        &data,
        DiceMode::Secret(&secret, hidden),
        progress,
    )?;
    let snap_path = dir.join(SNAPSHOT_FILE);
    if let Ok(bytes) = std::fs::read(&snap_path) {
        match decode_snapshot(game, &bytes) {
            Ok(snap) if snap.head == d.head && snap != d => {
                return Err(RefereeError::Verify(format!(
                    "{}: the snapshot differs from the state replayed from the log at line {}; delete snapshot.json (the next run rebuilds it from the log)",
                    snap_path.display(),
                    d.head.seq
                )))
            }
            Ok(_) => {}
            Err(e) => {
                return Err(RefereeError::Verify(format!(
                    "{} is not a valid snapshot ({e}); delete it (the next run rebuilds it from the log)",
                    snap_path.display()
                )))
            }
        }
    }
    let want = crate::due::entry(crate::due::next_due(game, &created, &d));
    crate::due::check(&home.root, id, &want).map_err(RefereeError::Verify)?;
    Ok(sum)
}

/// A snapshot's derived state: the game decodes its own state.
pub(crate) fn decode_snapshot(
    game: &dyn AnyGame,
    bytes: &[u8],
) -> Result<Derived<AnyState>, String> {
    let d: Derived<serde_json::Value> = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    let state = game.decode(d.state.clone())?;
    Ok(d.with_state(state))
}

/// Writes the snapshot now, or in a batch run marks it for the batch's commit.
pub(crate) fn save_snapshot(home: &Home, g: &mut Loaded) -> Result<(), RefereeError> {
    if g.ledger.syncs_each() {
        write_snapshot(&home.game_dir(&g.id), &g.derived)
    } else {
        g.snapshot_stale = true;
        Ok(())
    }
}

/// Writes the snapshot atomically (temp file + rename).
pub fn write_snapshot<S: Serialize>(dir: &Path, d: &Derived<S>) -> Result<(), RefereeError> {
    // Per-process temp name: a `show` may rebuild the snapshot while a `run` writes it.
    let tmp = dir.join(format!("snapshot.json.tmp.{}", std::process::id()));
    let bytes = serde_json::to_vec(d).map_err(|e| RefereeError::Io(format!("snapshot: {e}")))?;
    std::fs::write(&tmp, bytes).map_err(io_err("writing snapshot"))?;
    std::fs::rename(&tmp, dir.join(SNAPSHOT_FILE)).map_err(io_err("writing snapshot"))?;
    // The ledger as it stands now is verified (a replay, or our own appends on a loaded game).
    ledger::write_stamp(dir)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The exclusive run lock.

pub(crate) fn write_secret(dir: &Path, seed: &Key) -> Result<(), RefereeError> {
    use std::io::Write;
    let p = dir.join(SECRET_FILE);
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    let mut f = o.open(&p).map_err(io_err(&p.display().to_string()))?;
    f.write_all(hex::encode(seed).as_bytes())
        .and_then(|_| f.sync_all())
        .map_err(io_err(&p.display().to_string()))
}

// ---------------------------------------------------------------------------------------------
// Mails.
