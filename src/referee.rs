//! The batch pipeline of DESIGN §2: Maildir → parse → route → verify → `Game::submit` → ledger
//! (fsync) → snapshot → replies and reports queued. Also game creation, deadlines, replay and
//! audit, all generic over [`Game`].
//!
//! The mail/crypto edges come in through [`Edges`] (function pointers) and the outbox through
//! [`MailSink`], so the pipeline can be driven by tests with a toy game and fake edges.

use crate::config::{valid_game_id, Config, Home};
use crate::game::{DiceSource, Game, GameResult, Line, Outcome, Sender};
use crate::ledger::{
    self, sha256_hex, state_digest, Created, Deadline, Draw, Entry, Event, Finished, Head, Ledger,
    LedgerError, Player, Refusal, RoundEnd, Step, Submission,
};
use crate::mail::{BlockBody, Incoming, MailError};
use crate::outbox::{Mail, Outbox};
use crate::report::{ledger_head_line, with_ledger_head, Templates};
use crate::seed::{Key, RoundKeys, SecretKeys, SeededDice};
use chrono::{DateTime, Utc};
use ed25519_dalek::SigningKey;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const ENGINE_VERSION: &str = concat!("dustmail ", env!("CARGO_PKG_VERSION"));
pub const SNAPSHOT_FILE: &str = "snapshot.json";
pub const SECRET_FILE: &str = "seed.secret";

/// Errors of the referee. [`RefereeError::exit_code`] maps them to the CLI's exit status.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// Bad arguments or configuration: exit 2.
    #[error("{0}")]
    Usage(String),
    /// A verification failed or an input was rejected: exit 1.
    #[error("{0}")]
    Verify(String),
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// The machine failed (disk, outbox): exit 2.
    #[error("{0}")]
    Io(String),
}

impl RefereeError {
    pub fn exit_code(&self) -> i32 {
        match self {
            RefereeError::Verify(_) => 1,
            RefereeError::Ledger(LedgerError::Torn { .. } | LedgerError::Corrupt { .. }) => 1,
            _ => 2,
        }
    }
}

fn io_err(what: &str) -> impl FnOnce(std::io::Error) -> RefereeError + '_ {
    move |e| RefereeError::Io(format!("{what}: {e}"))
}

/// Where outgoing mail goes. Implemented by [`Outbox`]; tests record.
pub trait MailSink {
    /// Queues a mail under an idempotent id (an id queued before is not queued again).
    /// `date` is the run's clock (`run --now`), for the Date header.
    fn queue(&self, id: &str, mail: &Mail, date: DateTime<Utc>) -> Result<(), String>;
}

impl MailSink for Outbox {
    fn queue(&self, id: &str, mail: &Mail, date: DateTime<Utc>) -> Result<(), String> {
        // The run's clock (`--now`) dates the mail, so re-queueing after a crash gives the
        // same bytes.
        Outbox::queue_at(self, id, mail, date).map_err(|e| format!("{e:#}"))
    }
}

/// The mail and crypto functions the pipeline uses (the real ones from [`Edges::real`]).
#[derive(Clone, Copy)]
pub struct Edges {
    pub parse_mail: fn(&[u8], &str, usize) -> Result<Incoming, MailError>,
    pub parse_body: fn(&str) -> Result<BlockBody, MailError>,
    /// Verifies a base64 signature of `canonical` by the key written `ed25519:<base64>`.
    pub verify: fn(&str, &str, &str) -> Result<(), String>,
    /// Verifies a base64 signature of exactly these bytes (ledger-head lines).
    pub verify_text: fn(&str, &str, &str) -> Result<(), String>,
    /// Signs a text with the referee key (ledger-head lines), base64.
    pub sign_text: fn(&SigningKey, &str) -> String,
    /// `ed25519:<base64>` of a key.
    pub public_key_text: fn(&SigningKey) -> String,
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
pub struct Ctx<'a, G: Game> {
    pub game: &'a G,
    /// The `game` field of `created` lines this run handles ("dust-tactics").
    pub game_name: &'a str,
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

/// K_r of the chain (r = 0 is the commitment); see `crate::seed`.
pub fn chain_key(secret: &Key, max_rounds: u32, r: u32) -> Key {
    crate::seed::round_key(secret, max_rounds, r)
}

fn parse_key(hex_text: &str) -> Option<Key> {
    let v = hex::decode(hex_text.trim()).ok()?;
    v.try_into().ok()
}

/// Records every die a game draws.
struct Recording<'a> {
    inner: &'a mut dyn DiceSource,
    draws: Vec<Draw>,
}

impl DiceSource for Recording<'_> {
    fn d6(&mut self, round: u32) -> u8 {
        let face = self.inner.d6(round);
        self.draws.push(Draw { round, face });
        face
    }
}

/// Replays recorded draws (an auditor without the secret); notes the first disagreement.
struct Replayed<'a> {
    draws: &'a [Draw],
    pos: usize,
    mismatch: Option<String>,
}

impl DiceSource for Replayed<'_> {
    fn d6(&mut self, round: u32) -> u8 {
        let d = self.draws.get(self.pos).copied();
        self.pos += 1;
        match d {
            Some(d) if d.round == round && (1..=6).contains(&d.face) => d.face,
            Some(d) => {
                self.mismatch.get_or_insert(format!(
                    "die {} was recorded for round {} but the game rolled it for round {round}",
                    self.pos, d.round
                ));
                1
            }
            None => {
                self.mismatch.get_or_insert(format!(
                    "the game rolled more dice than the {} recorded",
                    self.draws.len()
                ));
                1
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Derived state and snapshots.

/// The state derived from a ledger, with what the pipeline needs to route and deduplicate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "S: Serialize", deserialize = "S: DeserializeOwned"))]
pub struct Derived<S> {
    pub head: Head,
    pub state: S,
    /// Side → last accepted seq.
    pub last_seq: BTreeMap<String, u64>,
    /// Mail sha256 → (block, ledger seq) of its recorded submissions.
    pub mails: BTreeMap<String, Vec<(usize, u64)>>,
    /// Time of the last step (deadlines count from it).
    pub last_step_at: String,
    pub revealed: BTreeMap<u32, String>,
    pub finished: Option<GameResult>,
}

/// How replay gets its dice.
pub enum DiceMode<'a> {
    /// The referee: dice from the secret, compared with the recorded ones.
    Secret(&'a Key),
    /// An auditor: the recorded dice are replayed; revealed rounds are recomputed and compared.
    Recorded,
}

fn mismatch(file: &str, line: u64, msg: impl std::fmt::Display) -> RefereeError {
    RefereeError::Verify(format!("{file} line {line}: {msg}"))
}

fn compare_step(file: &str, line: u64, recorded: &Step, got: &Step) -> Result<(), RefereeError> {
    if recorded.draws != got.draws {
        return Err(mismatch(
            file,
            line,
            format!(
                "recorded dice {:?} differ from the dice the seed gives {:?}",
                faces(&recorded.draws),
                faces(&got.draws)
            ),
        ));
    }
    if recorded != got {
        let what = if recorded.results != got.results {
            "command results"
        } else if recorded.happenings != got.happenings {
            "happenings (or their rolls)"
        } else if recorded.rounds_ended != got.rounds_ended {
            "rounds ended"
        } else {
            "game result"
        };
        return Err(mismatch(
            file,
            line,
            format!("recorded {what} differ from what replaying the game gives"),
        ));
    }
    Ok(())
}

fn faces(d: &[Draw]) -> Vec<u8> {
    d.iter().map(|d| d.face).collect()
}

/// Runs one step of the game with dice, as the referee (recording) or the auditor (replaying).
fn run_step<G: Game>(
    game: &G,
    state: &mut G::State,
    created: &Created,
    event_id: u64,
    mode: &DiceMode,
    recorded: &[Draw],
    f: impl FnOnce(&G, &mut G::State, &mut dyn DiceSource) -> Outcome,
) -> Result<Step, String> {
    match mode {
        DiceMode::Secret(secret) => {
            let keys = SecretKeys {
                secret: **secret,
                max_rounds: created.max_rounds,
            };
            let mut seeded = SeededDice::new(&keys, event_id);
            let mut rec = Recording {
                inner: &mut seeded,
                draws: Vec::new(),
            };
            let o = f(game, state, &mut rec);
            let draws = rec.draws;
            if let Some(r) = seeded.missing_key() {
                return Err(format!(
                    "the game rolled a die for round {r}, beyond the {} rounds of this game's seed chain",
                    created.max_rounds
                ));
            }
            Ok(Step::from_outcome(o, draws))
        }
        DiceMode::Recorded => {
            let mut rep = Replayed {
                draws: recorded,
                pos: 0,
                mismatch: None,
            };
            let o = f(game, state, &mut rep);
            if let Some(m) = rep.mismatch {
                return Err(m);
            }
            if rep.pos != recorded.len() {
                return Err(format!(
                    "{} dice are recorded but replaying the game rolls {}",
                    recorded.len(),
                    rep.pos
                ));
            }
            Ok(Step::from_outcome(o, recorded.to_vec()))
        }
    }
}

/// What a replay checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplaySummary {
    pub lines: u64,
    pub submissions: usize,
    pub signatures: usize,
    pub dice_checked: usize,
    pub keys_revealed: usize,
    pub digests: usize,
    pub defaults: usize,
    pub finished: bool,
}

/// Replays a whole log, checking signatures, seqs, every recorded step and roll, every revealed
/// key against the commitment, and every state digest. Errors name the line.
pub fn replay<G: Game>(
    game: &G,
    edges: &Edges,
    file: &str,
    entries: &[Entry],
    mode: DiceMode,
) -> Result<(Created, Derived<G::State>, ReplaySummary), RefereeError> {
    let first = entries
        .first()
        .ok_or_else(|| RefereeError::Verify(format!("{file} is empty")))?;
    let created = match &first.event {
        Event::Created(c) => (**c).clone(),
        _ => return Err(mismatch(file, 1, "the first line is not `created`")),
    };
    let commitment = parse_key(&created.commitment)
        .ok_or_else(|| mismatch(file, 1, "the commitment is not 64 hex digits"))?;
    if let DiceMode::Secret(s) = &mode {
        if chain_key(s, created.max_rounds, 0) != commitment {
            return Err(mismatch(
                file,
                1,
                "the seed secret of this game does not match the commitment K_0",
            ));
        }
    }
    let state = game
        .setup(&created.setup)
        .map_err(|e| mismatch(file, 1, format!("the setup does not start a game: {e}")))?;
    let keys: BTreeMap<&str, &str> = created
        .players
        .iter()
        .map(|p| (p.side.as_str(), p.public_key.as_str()))
        .collect();
    let mut d = Derived {
        head: Head {
            seq: 1,
            hash: String::new(),
        },
        state,
        last_seq: BTreeMap::new(),
        mails: BTreeMap::new(),
        last_step_at: created.created_at.clone(),
        revealed: BTreeMap::new(),
        finished: None,
    };
    let mut sum = ReplaySummary::default();
    let mut last_key = commitment;
    let mut last_revealed_round = 0u32;
    // Draws of every step, kept to recompute once their round key is revealed (auditor).
    let mut pending: Vec<(u64, Vec<Draw>)> = Vec::new();
    // Keys known from the revealed secret at the end (not listed as revealed rounds).
    let mut all_keys: BTreeMap<u32, Key> = BTreeMap::new();
    for e in &entries[1..] {
        let n = e.seq;
        match &e.event {
            Event::Created(_) => return Err(mismatch(file, n, "a second `created` line")),
            Event::Submission(s) => {
                d.mails
                    .entry(s.mail_sha256.clone())
                    .or_default()
                    .push((s.block, n));
                if d.finished.is_some() && s.accepted {
                    return Err(mismatch(
                        file,
                        n,
                        "a submission accepted after the game ended",
                    ));
                }
                if !s.accepted {
                    if !s.step.results.is_empty() || !s.step.draws.is_empty() {
                        return Err(mismatch(file, n, "a refused submission records results"));
                    }
                    continue;
                }
                sum.submissions += 1;
                let key = keys.get(s.side.as_str()).ok_or_else(|| {
                    mismatch(
                        file,
                        n,
                        format!("side `{}` is not a side of this game", s.side),
                    )
                })?;
                (edges.verify)(key, &s.canonical, &s.signature).map_err(|e| {
                    mismatch(
                        file,
                        n,
                        format!(
                            "the signature does not verify against side {}'s key: {e}",
                            s.side
                        ),
                    )
                })?;
                sum.signatures += 1;
                let last = d.last_seq.get(&s.side).copied().unwrap_or(0);
                if s.player_seq <= last {
                    return Err(mismatch(
                        file,
                        n,
                        format!(
                            "seq {} accepted after seq {last} of side {}",
                            s.player_seq, s.side
                        ),
                    ));
                }
                let body = (edges.parse_body)(&s.canonical).map_err(|e| {
                    mismatch(file, n, format!("the signed text does not parse: {e}"))
                })?;
                if body.side != s.side || body.seq != s.player_seq || body.game != created.game_id {
                    return Err(mismatch(
                        file,
                        n,
                        "game/side/seq differ from the signed text",
                    ));
                }
                let got = run_step(
                    game,
                    &mut d.state,
                    &created,
                    n,
                    &mode,
                    &s.step.draws,
                    |g, st, dice| g.submit(st, Sender::side(&s.side), &body.lines, dice),
                )
                .map_err(|m| mismatch(file, n, m))?;
                compare_step(file, n, &s.step, &got)?;
                sum.dice_checked += got.draws.len();
                pending.push((n, got.draws));
                d.last_seq.insert(s.side.clone(), s.player_seq);
                d.last_step_at = s.at.clone();
                if let Some(r) = &got.finished {
                    d.finished = Some(r.clone());
                }
            }
            Event::Deadline(dl) => {
                if d.finished.is_some() {
                    return Err(mismatch(file, n, "a deadline default after the game ended"));
                }
                let got = run_step(
                    game,
                    &mut d.state,
                    &created,
                    n,
                    &mode,
                    &dl.step.draws,
                    |g, st, dice| g.default_for(st, &dl.side, dice),
                )
                .map_err(|m| mismatch(file, n, m))?;
                compare_step(file, n, &dl.step, &got)?;
                sum.defaults += 1;
                sum.dice_checked += got.draws.len();
                pending.push((n, got.draws));
                d.last_step_at = dl.at.clone();
                if let Some(r) = &got.finished {
                    d.finished = Some(r.clone());
                }
            }
            Event::RoundEnd(re) => {
                let k = parse_key(&re.key)
                    .ok_or_else(|| mismatch(file, n, "the revealed key is not 64 hex digits"))?;
                if re.round != last_revealed_round + 1 {
                    return Err(mismatch(
                        file,
                        n,
                        format!(
                            "round {} revealed after round {last_revealed_round}",
                            re.round
                        ),
                    ));
                }
                if !crate::seed::check_reveal(&k, &last_key) {
                    return Err(mismatch(
                        file,
                        n,
                        format!(
                            "revealed key K_{} does not hash to K_{}",
                            re.round,
                            re.round - 1
                        ),
                    ));
                }
                last_key = k;
                last_revealed_round = re.round;
                d.revealed.insert(re.round, re.key.clone());
                sum.keys_revealed += 1;
                check_digest(file, n, &re.state_digest, &d.state)?;
                sum.digests += 1;
            }
            Event::Finished(f) => {
                let s = parse_key(&f.secret)
                    .ok_or_else(|| mismatch(file, n, "the revealed secret is not 64 hex digits"))?;
                if chain_key(&s, created.max_rounds, 0) != commitment {
                    return Err(mismatch(
                        file,
                        n,
                        "the revealed secret S does not hash down to the commitment K_0",
                    ));
                }
                if d.finished.as_ref() != Some(&f.result) {
                    return Err(mismatch(
                        file,
                        n,
                        "the recorded result differs from the game's",
                    ));
                }
                check_digest(file, n, &f.state_digest, &d.state)?;
                sum.digests += 1;
                sum.finished = true;
                // Every round's key is now known: recompute every die.
                for r in 1..=created.max_rounds {
                    all_keys.insert(r, chain_key(&s, created.max_rounds, r));
                }
            }
        }
    }
    // Recompute recorded dice of revealed rounds from the keys (the auditor's dice check).
    if matches!(mode, DiceMode::Recorded) {
        for (r, k) in &d.revealed {
            if let Some(k) = parse_key(k) {
                all_keys.insert(*r, k);
            }
        }
        let keys = all_keys;
        for (n, draws) in &pending {
            let mut dice = SeededDice::new(&keys, *n);
            for (i, dr) in draws.iter().enumerate() {
                if keys.key(dr.round).is_none() {
                    continue;
                }
                let f = dice.d6(dr.round);
                if f != dr.face {
                    return Err(mismatch(
                        file,
                        *n,
                        format!(
                            "die {} (round {}) is recorded as {} but the revealed key gives {f}",
                            i + 1,
                            dr.round,
                            dr.face
                        ),
                    ));
                }
            }
        }
    }
    sum.lines = entries.len() as u64;
    d.head = Head {
        seq: entries.last().map(|e| e.seq).unwrap_or(1),
        hash: String::new(),
    };
    Ok((created, d, sum))
}

fn check_digest<S: Serialize>(
    file: &str,
    n: u64,
    recorded: &str,
    state: &S,
) -> Result<(), RefereeError> {
    let got = state_digest(state);
    if got != recorded {
        return Err(mismatch(
            file,
            n,
            format!("state digest {recorded} differs from the replayed state's {got}"),
        ));
    }
    Ok(())
}

/// Replays a log file's bytes in full (hash chain first), for `replay` and `audit`. Sets the
/// head hash from the raw last line.
pub fn replay_bytes<G: Game>(
    game: &G,
    edges: &Edges,
    file: &str,
    data: &[u8],
    mode: DiceMode,
) -> Result<(Created, Derived<G::State>, ReplaySummary), RefereeError> {
    let entries = ledger::parse_log(file, data)?;
    let (c, mut d, s) = replay(game, edges, file, &entries, mode)?;
    let body = data.strip_suffix(b"\n").unwrap_or(data);
    let last = body
        .iter()
        .rposition(|&b| b == b'\n')
        .map(|i| &body[i + 1..])
        .unwrap_or(body);
    d.head.hash = sha256_hex(last);
    Ok((c, d, s))
}

/// Checks a `Ledger-Head: <game> <seq> <hash>` line and its signature against a log.
pub fn check_head(
    edges: &Edges,
    created: &Created,
    data: &[u8],
    head_line: &str,
    sig: &str,
) -> Result<(), RefereeError> {
    let parts: Vec<&str> = head_line.split_whitespace().collect();
    let (game, seq, hash) = match parts.as_slice() {
        ["Ledger-Head:", g, s, h] => (*g, *s, *h),
        _ => {
            return Err(RefereeError::Usage(format!(
                "`{head_line}` is not a ledger-head line: give it as \"Ledger-Head: GAME SEQ HASH\""
            )))
        }
    };
    let line = format!("Ledger-Head: {game} {seq} {hash}");
    (edges.verify_text)(&created.referee_public_key, &line, sig).map_err(|e| {
        RefereeError::Verify(format!(
            "the ledger-head signature does not verify against the referee key in the log: {e}"
        ))
    })?;
    if game != created.game_id {
        return Err(RefereeError::Verify(format!(
            "the ledger-head names game {game} but the log is game {}",
            created.game_id
        )));
    }
    let seq: usize = seq
        .parse()
        .map_err(|_| RefereeError::Verify(format!("ledger-head seq `{seq}` is not a number")))?;
    let line_bytes = data
        .split(|&b| b == b'\n')
        .nth(seq.saturating_sub(1))
        .filter(|l| seq >= 1 && !l.is_empty())
        .ok_or_else(|| {
            RefereeError::Verify(format!(
                "the referee signed ledger line {seq} but the log does not have it: the log was cut"
            ))
        })?;
    if sha256_hex(line_bytes) != hash {
        return Err(RefereeError::Verify(format!(
            "log.jsonl line {seq} does not hash to the signed ledger head {hash}: the log was altered"
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Loading games.

/// A game loaded for the pipeline.
pub struct Loaded<S> {
    pub id: String,
    pub created: Created,
    pub ledger: Ledger,
    pub derived: Derived<S>,
    pub secret: Key,
}

fn read_first_line(path: &Path) -> Result<Vec<u8>, RefereeError> {
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

/// Loads a game: from its snapshot when the snapshot's head matches the log's last line, else by
/// a full replay (which rewrites the snapshot).
pub fn load_game<G: Game>(
    game: &G,
    edges: &Edges,
    home: &Home,
    id: &str,
) -> Result<Loaded<G::State>, RefereeError> {
    let dir = home.game_dir(id);
    let log = dir.join(ledger::LOG_FILE);
    let ledger = Ledger::open(&log)?;
    let secret = read_secret(&dir)?;
    let snap_path = dir.join(SNAPSHOT_FILE);
    let snap: Option<Derived<G::State>> = std::fs::read(&snap_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let first = read_first_line(&log)?;
    let created = match serde_json::from_slice::<Entry>(&first).map(|e| e.event) {
        Ok(Event::Created(c)) => *c,
        _ => {
            return Err(LedgerError::Corrupt {
                file: ledger::LOG_FILE.into(),
                line: 1,
                msg: "the first line is not a `created` entry".into(),
            }
            .into())
        }
    };
    let derived = match snap {
        Some(s) if &s.head == ledger.head() => s,
        _ => {
            let data = std::fs::read(&log).map_err(io_err(&log.display().to_string()))?;
            let (_, d, _) = replay_bytes(
                game,
                edges,
                ledger::LOG_FILE,
                &data,
                DiceMode::Secret(&secret),
            )?;
            write_snapshot(&dir, &d)?;
            d
        }
    };
    Ok(Loaded {
        id: id.to_string(),
        created,
        ledger,
        derived,
        secret,
    })
}

/// `replay GAME`: a full replay with the secret (every signature, die, key and digest), then a
/// comparison with the snapshot when it claims the same head.
pub fn replay_game<G: Game>(
    game: &G,
    edges: &Edges,
    home: &Home,
    id: &str,
) -> Result<ReplaySummary, RefereeError> {
    let dir = home.game_dir(id);
    let log = dir.join(ledger::LOG_FILE);
    let data = std::fs::read(&log).map_err(io_err(&log.display().to_string()))?;
    let secret = read_secret(&dir)?;
    let (_, d, sum) = replay_bytes(
        game,
        edges,
        ledger::LOG_FILE,
        &data,
        DiceMode::Secret(&secret),
    )?;
    let snap_path = dir.join(SNAPSHOT_FILE);
    if let Ok(bytes) = std::fs::read(&snap_path) {
        match serde_json::from_slice::<Derived<G::State>>(&bytes) {
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
    Ok(sum)
}

/// Writes the snapshot atomically (temp file + rename).
pub fn write_snapshot<S: Serialize>(dir: &Path, d: &Derived<S>) -> Result<(), RefereeError> {
    // Per-process temp name: a `show` may rebuild the snapshot while a `run` writes it.
    let tmp = dir.join(format!("snapshot.json.tmp.{}", std::process::id()));
    let bytes = serde_json::to_vec(d).map_err(|e| RefereeError::Io(format!("snapshot: {e}")))?;
    std::fs::write(&tmp, bytes).map_err(io_err("writing snapshot"))?;
    std::fs::rename(&tmp, dir.join(SNAPSHOT_FILE)).map_err(io_err("writing snapshot"))?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The exclusive run lock.

/// Held while a `run` works on a home; released on drop.
pub struct HomeLock {
    _file: std::fs::File,
    path: PathBuf,
}

impl Drop for HomeLock {
    fn drop(&mut self) {
        // The file stays: removing it would let a run that opened it just before lock an
        // unlinked file while a third run locks a new one.
        let _ = fs2::FileExt::unlock(&self._file);
    }
}

impl HomeLock {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Takes `<home>/lock`; a second run gets a clear error naming the holder's pid.
pub fn lock_home(home: &Home) -> Result<HomeLock, RefereeError> {
    use std::io::{Read, Seek, Write};
    let path = home.lock_path();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&path)
        .map_err(io_err(&path.display().to_string()))?;
    if fs2::FileExt::try_lock_exclusive(&f).is_err() {
        let mut pid = String::new();
        let _ = f.read_to_string(&mut pid);
        return Err(RefereeError::Usage(format!(
            "another dustmail run holds {} (pid {}): wait for it or remove the stale lock",
            path.display(),
            pid.trim()
        )));
    }
    let _ = f.set_len(0);
    let _ = f.seek(std::io::SeekFrom::Start(0));
    let _ = write!(f, "{}", std::process::id());
    let _ = f.sync_all();
    Ok(HomeLock { _file: f, path })
}

// ---------------------------------------------------------------------------------------------
// Creating a game.

/// What `new` needs beyond the context.
pub struct NewGame {
    pub setup: crate::game::Setup,
    pub players: Vec<Player>,
    pub seed: Key,
    pub id: Option<String>,
    pub max_rounds: u32,
}

/// Creates a game: ledger `created` line, seed.secret (0600), snapshot, welcome mails. Returns the id.
pub fn create_game<G: Game>(ctx: &Ctx<G>, new: NewGame) -> Result<String, RefereeError> {
    let commitment = chain_key(&new.seed, new.max_rounds, 0);
    let id = new
        .id
        .clone()
        .unwrap_or_else(|| format!("g-{}", &hex::encode(commitment)[..8]));
    if !valid_game_id(&id) {
        return Err(RefereeError::Usage(format!(
            "game id `{id}` is not usable: use 1 to 64 letters, digits, `-` or `_`"
        )));
    }
    let state = ctx
        .game
        .setup(&new.setup)
        .map_err(|e| RefereeError::Usage(format!("cannot start the game: {e}")))?;
    let sides = ctx.game.sides(&state);
    let mut given: Vec<&str> = new.players.iter().map(|p| p.side.as_str()).collect();
    given.sort();
    let mut wanted: Vec<&str> = sides.iter().map(|s| s.as_str()).collect();
    wanted.sort();
    if given != wanted {
        return Err(RefereeError::Usage(format!(
            "the scenario's sides are {}: give exactly one --player SIDE=ADDRESS:PUBKEY for each (got {})",
            sides.join(", "),
            given.join(", ")
        )));
    }
    let dir = ctx.home.game_dir(&id);
    if dir.join(ledger::LOG_FILE).exists() {
        return Err(RefereeError::Usage(format!(
            "game {id} already exists in {}: choose another --id",
            dir.display()
        )));
    }
    std::fs::create_dir_all(&dir).map_err(io_err(&dir.display().to_string()))?;
    write_secret(&dir, &new.seed)?;
    let created = Created {
        engine_version: ENGINE_VERSION.into(),
        game: ctx.game_name.into(),
        game_id: id.clone(),
        ruleset: new.setup.ruleset.clone(),
        setup: new.setup,
        players: new.players,
        referee_address: ctx.config.referee.clone(),
        referee_public_key: (ctx.edges.public_key_text)(ctx.key),
        commitment: hex::encode(commitment),
        max_rounds: new.max_rounds,
        deadline_hours: ctx.config.deadline_hours,
        reminder_hours: ctx.config.reminder_hours,
        grace_hours: ctx.config.grace_hours,
        created_at: ctx.now.to_rfc3339(),
    };
    let ledger = Ledger::create(&dir, created.clone())?;
    let derived = Derived {
        head: ledger.head().clone(),
        state,
        last_seq: BTreeMap::new(),
        mails: BTreeMap::new(),
        last_step_at: created.created_at.clone(),
        revealed: BTreeMap::new(),
        finished: None,
    };
    write_snapshot(&dir, &derived)?;
    let loaded = Loaded {
        id: id.clone(),
        created,
        ledger,
        derived,
        secret: new.seed,
    };
    for p in &loaded.created.players {
        let text = render(
            ctx,
            "welcome",
            json!({
                "game": id, "game_name": ctx.game_name, "ruleset": loaded.created.ruleset,
                "scenario": loaded.created.setup.scenario_name, "side": p.side,
                "players": loaded.created.players, "commitment": loaded.created.commitment,
                "max_rounds": loaded.created.max_rounds,
                "deadline_hours": loaded.created.deadline_hours,
                "reminder_hours": loaded.created.reminder_hours,
                "grace_hours": loaded.created.grace_hours,
                "template": ctx.game.orders_template(&loaded.derived.state, &p.side),
                "next_seq": 1,
            }),
        )?;
        let mail = game_mail(
            ctx,
            &loaded,
            vec![p.address.clone()],
            "welcome",
            text,
            None,
            loaded.ledger.head(),
        );
        queue(ctx, &format!("{id}-1-welcome-{}", id_part(&p.side)), &mail)?;
    }
    Ok(id)
}

fn write_secret(dir: &Path, seed: &Key) -> Result<(), RefereeError> {
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

fn render<G: Game>(ctx: &Ctx<G>, name: &str, v: serde_json::Value) -> Result<String, RefereeError> {
    ctx.templates
        .render(name, &v)
        .map_err(|e| RefereeError::Usage(e.to_string()))
}

fn queue<G: Game>(ctx: &Ctx<G>, id: &str, mail: &Mail) -> Result<(), RefereeError> {
    ctx.sink
        .queue(id, mail, ctx.now)
        .map_err(|e| RefereeError::Io(format!("cannot queue mail {id}: {e}")))
}

/// A mail about a game: subject with game id and round, ledger-head line and signature.
fn game_mail<G: Game>(
    ctx: &Ctx<G>,
    g: &Loaded<G::State>,
    to: Vec<String>,
    what: &str,
    text: String,
    reply_to: Option<&str>,
    head: &Head,
) -> Mail {
    let round = ctx.game.round(&g.derived.state);
    let line = ledger_head_line(&g.id, head.seq, &head.hash);
    let sig = (ctx.edges.sign_text)(ctx.key, &line);
    Mail {
        from: ctx.config.referee.clone(),
        to,
        subject: format!("[dustmail {}] round {round}: {what}", g.id),
        in_reply_to: reply_to.map(angle),
        references: reply_to.map(|m| vec![angle(m)]).unwrap_or_default(),
        text: with_ledger_head(&text, &line, &sig),
        html: None,
        attachments: vec![],
        headers: vec![(
            "X-Dustmail-Ledger-Head".into(),
            format!("{} {} {}; sig={sig}", g.id, head.seq, head.hash),
        )],
    }
}

/// A refusal for a mail that reached no game (no ledger line to cite).
fn plain_refusal<G: Game>(
    ctx: &Ctx<G>,
    inc: &Incoming,
    game: Option<&str>,
    reason: &str,
    rule: &str,
    instead: &str,
) -> Result<Option<Mail>, RefereeError> {
    let (Some(to), None) = (&inc.reply_to, &inc.no_reply) else {
        return Ok(None);
    };
    let text = render(
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
        text,
        html: None,
        attachments: vec![],
        headers: vec![],
    }))
}

/// The mails about one step: the entries it appended (submission or deadline, then round ends
/// and the end of the game), each with its head. Used after appending and after a crash.
fn step_mails<G: Game>(
    ctx: &Ctx<G>,
    g: &Loaded<G::State>,
    entries: &[(Entry, Head)],
) -> Result<Vec<(String, Mail)>, RefereeError> {
    let mut out = Vec::new();
    let Some(((first, _), last_head)) = entries.first().zip(entries.last().map(|(_, h)| h)) else {
        return Ok(out);
    };
    let n = first.seq;
    let id = &g.id;
    let revealed: Vec<serde_json::Value> = entries
        .iter()
        .filter_map(|(e, _)| match &e.event {
            Event::RoundEnd(r) => Some(json!({"round": r.round, "key": r.key})),
            _ => None,
        })
        .collect();
    let finished = entries.iter().find_map(|(e, _)| match &e.event {
        Event::Finished(f) => Some(f.clone()),
        _ => None,
    });
    let (step, event, sub) = match &first.event {
        Event::Submission(s) => (&s.step, format!("orders of side {}", s.side), Some(s)),
        Event::Deadline(d) => (
            &d.step,
            format!("deadline passed: defaults applied for side {}", d.side),
            None,
        ),
        _ => return Ok(out),
    };
    if let Some(s) = sub {
        let to = match (&s.reply_to, &s.no_reply) {
            (Some(t), None) => Some(t.clone()),
            _ => None,
        };
        if !s.accepted {
            if let Some(to) = to {
                let r = s.refusal.clone().unwrap_or(Refusal::new("", "", ""));
                let text = render(
                    ctx,
                    "refusal",
                    json!({"game": id, "ledger_seq": n, "reason": r.reason, "rule": r.rule, "instead": r.instead}),
                )?;
                let m = game_mail(
                    ctx,
                    g,
                    vec![to],
                    "refused",
                    text,
                    s.message_id.as_deref(),
                    last_head,
                );
                out.push((format!("{id}-{n}-refusal"), m));
            }
            return Ok(out);
        }
        if let Some(to) = to {
            let text = render(
                ctx,
                "receipt",
                json!({"game": id, "side": s.side, "seq": s.player_seq, "ledger_seq": n,
                       "results": s.step.results, "happenings": s.step.happenings}),
            )?;
            let m = game_mail(
                ctx,
                g,
                vec![to],
                "receipt",
                text,
                s.message_id.as_deref(),
                last_head,
            );
            out.push((format!("{id}-{n}-receipt"), m));
        }
    }
    let awaiting: Vec<serde_json::Value> = ctx
        .game
        .awaiting(&g.derived.state)
        .iter()
        .map(|a| {
            json!({"side": a.side, "decision": a.decision,
                        "deadline": deadline_of(&g.created, &g.derived).map(|d| d.to_rfc3339())})
        })
        .collect();
    let result_text = finished.as_ref().map(|f| result_text(&f.result));
    for p in &g.created.players {
        let text = render(
            ctx,
            "report",
            json!({"game": id, "round": ctx.game.round(&g.derived.state), "ledger_seq": n,
                   "event": event, "board": ctx.game.board_text(&g.derived.state),
                   "happenings": step.happenings, "revealed": revealed,
                   "finished": result_text, "awaiting": awaiting,
                   "side": p.side, "next_seq": next_seq(&g.derived, &p.side),
                   "template": if finished.is_some() { String::new() } else { ctx.game.orders_template(&g.derived.state, &p.side) }}),
        )?;
        let m = game_mail(
            ctx,
            g,
            vec![p.address.clone()],
            "report",
            text,
            None,
            last_head,
        );
        out.push((format!("{id}-{n}-report-{}", id_part(&p.side)), m));
        if let Some(f) = &finished {
            let text = render(
                ctx,
                "end",
                json!({"game": id, "result": result_text, "secret": f.secret}),
            )?;
            let m = game_mail(
                ctx,
                g,
                vec![p.address.clone()],
                "end",
                text,
                None,
                last_head,
            );
            out.push((format!("{id}-{n}-end-{}", id_part(&p.side)), m));
        }
    }
    Ok(out)
}

/// A game result in words: who won (or a draw), why, and the points.
pub fn result_text(r: &GameResult) -> String {
    let pts: Vec<String> = r.points.iter().map(|(s, p)| format!("{s} {p}")).collect();
    match &r.winner {
        Some(w) => format!("{w} wins ({}); points: {}", r.reason, pts.join(", ")),
        None => format!("a draw ({}); points: {}", r.reason, pts.join(", ")),
    }
}

/// A Message-ID in angle brackets, as In-Reply-To and References need it (the parser may
/// return it bare).
fn angle(id: &str) -> String {
    format!(
        "<{}>",
        id.trim().trim_start_matches('<').trim_end_matches('>')
    )
}

/// The next seq a side should sign.
fn next_seq<S>(d: &Derived<S>, side: &str) -> u64 {
    d.last_seq.get(side).copied().unwrap_or(0) + 1
}

/// A side id made safe for an outbox mail id (letters, digits, `.`, `_`, `-`).
fn id_part(s: &str) -> String {
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

/// The deadline of the current decisions: last step + deadline hours.
pub fn deadline_of<S>(created: &Created, d: &Derived<S>) -> Option<DateTime<Utc>> {
    if created.deadline_hours == 0 || d.finished.is_some() {
        return None;
    }
    let base = DateTime::parse_from_rfc3339(&d.last_step_at).ok()?;
    base.with_timezone(&Utc)
        .checked_add_signed(chrono::Duration::hours(created.deadline_hours.into()))
}

// ---------------------------------------------------------------------------------------------
// The pipeline.

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
}

/// Processes every mail in `<maildir>/new` (sorted by name), then deadlines.
pub fn run<G: Game>(ctx: &Ctx<G>, maildir: &Path) -> Result<RunSummary, RefereeError> {
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
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    names.sort();
    let mut games: BTreeMap<String, Loaded<G::State>> = BTreeMap::new();
    for path in names {
        sum.mails += 1;
        let dest = match process_mail(ctx, &path, &mut games, &mut sum)? {
            Disposition::Routed => cur_dir.clone(),
            Disposition::Rejected => {
                sum.rejected += 1;
                ctx.home.rejected()
            }
            // Its game cannot be read: the mail waits in new/ until the operator repairs it.
            Disposition::Keep => continue,
        };
        let name = path.file_name().unwrap_or_default();
        std::fs::rename(&path, dest.join(name))
            .map_err(io_err(&format!("moving {}", path.display())))?;
    }
    deadlines(ctx, &mut games, &mut sum)?;
    Ok(sum)
}

/// Where a processed mail goes.
enum Disposition {
    /// A block reached a game: maildir/cur.
    Routed,
    /// No block reached a game: rejected/.
    Rejected,
    /// A block's game cannot be read: stays in maildir/new.
    Keep,
}

/// Handles one mail and says where it goes.
fn process_mail<G: Game>(
    ctx: &Ctx<G>,
    path: &Path,
    games: &mut BTreeMap<String, Loaded<G::State>>,
    sum: &mut RunSummary,
) -> Result<Disposition, RefereeError> {
    let raw = std::fs::read(path).map_err(io_err(&path.display().to_string()))?;
    let inc = match (ctx.edges.parse_mail)(&raw, &ctx.config.referee, ctx.config.max_mail_bytes) {
        Ok(i) => i,
        Err(e) => {
            sum.warnings.push(format!(
                "{}: unreadable mail, moved to rejected/: {e}",
                path.display()
            ));
            return Ok(Disposition::Rejected);
        }
    };
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
            &inc,
            None,
            &inc.problems.join("\n"),
            "DESIGN §4 signed orders",
            "paste the whole output of `dustmail sign` (ORDERS and SIGNATURE blocks) unchanged, outside any quoted text",
        )? {
            queue(ctx, &reject_id(999), &m)?;
        }
        if inc.blocks.is_empty() {
            return Ok(Disposition::Rejected);
        }
    }
    if inc.blocks.is_empty() {
        if let Some(m) = plain_refusal(
            ctx,
            &inc,
            None,
            "no signed DUSTMAIL ORDERS block was found in your mail",
            "DESIGN §4 signed orders",
            "sign your orders with `dustmail sign --key YOURKEY FILE` and paste the whole output (both blocks) into the mail body, not quoted",
        )? {
            queue(ctx, &reject_id(0), &m)?;
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
                    &inc,
                    None,
                    &e.to_string(),
                    "DESIGN §4 signed orders: game:, side: and seq: lines, then commands",
                    "start the signed text with `game: ID`, `side: SIDE`, `seq: N`, a blank line, then your commands, and sign it again",
                )? {
                    queue(ctx, &reject_id(bi), &m)?;
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
                    if let Some(m) = plain_refusal(
                        ctx,
                        &inc,
                        Some(&body.game),
                        &format!("there is no game `{}` on this referee", body.game),
                        "DESIGN §4: the game: line names the game id given in your welcome mail",
                        "copy the game id from the subject of your welcome or report mail (like g-1a2b3c4d) and sign again",
                    )? {
                        queue(ctx, &reject_id(bi), &m)?;
                    }
                    continue;
                }
            }
        }
        let Some(g) = games.get_mut(&body.game) else {
            continue;
        };
        routed = true;
        // Crash recovery: this block is already in the ledger; only re-queue its replies.
        if let Some(&(_, seq)) = g
            .derived
            .mails
            .get(&inc.sha256)
            .and_then(|v| v.iter().find(|(b, _)| *b == bi))
        {
            sum.deduplicated += 1;
            requeue(ctx, g, seq)?;
            continue;
        }
        submit_block(ctx, g, &inc, bi, block, &body, sum)?;
    }
    Ok(if keep {
        Disposition::Keep
    } else if routed {
        Disposition::Routed
    } else {
        Disposition::Rejected
    })
}

fn try_load<G: Game>(
    ctx: &Ctx<G>,
    id: &str,
    sum: &mut RunSummary,
) -> Result<Option<Loaded<G::State>>, RefereeError> {
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
    let mut g = load_game(ctx.game, ctx.edges, ctx.home, id)?;
    if g.created.game != ctx.game_name {
        return Ok(None);
    }
    if complete_interrupted_step(&mut g)? {
        write_snapshot(&ctx.home.game_dir(id), &g.derived)?;
        sum.warnings.push(format!(
            "game {id}: completed the round-end / end-of-game lines of a step an interrupted run had begun"
        ));
    }
    Ok(Some(g))
}

/// Re-queues the mails of the step starting at ledger line `seq` (after a crash).
fn requeue<G: Game>(ctx: &Ctx<G>, g: &Loaded<G::State>, seq: u64) -> Result<(), RefereeError> {
    let data = std::fs::read(g.ledger.path()).map_err(io_err("reading the ledger"))?;
    let entries = ledger::parse_log(ledger::LOG_FILE, &data)?;
    let lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    let mut step = Vec::new();
    for e in entries.into_iter().skip(seq.saturating_sub(1) as usize) {
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
    for (id, m) in step_mails(ctx, g, &step)? {
        queue(ctx, &id, &m)?;
    }
    Ok(())
}

/// Why a verified-looking block cannot reach the game, if it cannot.
fn refuse_reason(
    g: &Derived<impl Sized>,
    created: &Created,
    body: &BlockBody,
    block_sig: &str,
    canonical: &str,
    edges: &Edges,
) -> Option<Refusal> {
    if g.finished.is_some() {
        return Some(Refusal::new(
            "this game is over: no more orders are taken",
            "the game ended (see the end mail)",
            "nothing; start a new game with the referee",
        ));
    }
    let Some(p) = created.players.iter().find(|p| p.side == body.side) else {
        let sides: Vec<&str> = created.players.iter().map(|p| p.side.as_str()).collect();
        return Some(Refusal::new(
            format!(
                "side `{}` does not play in game {}",
                body.side, created.game_id
            ),
            "DESIGN §4: the side: line names your side",
            format!("write one of: side: {}", sides.join(" | ")),
        ));
    };
    if let Err(e) = (edges.verify)(&p.public_key, canonical, block_sig) {
        return Some(Refusal::new(
            format!(
                "the signature does not verify against the key registered for side {} ({e})",
                p.side
            ),
            "DESIGN §4: authority comes from the signature alone",
            "sign the text with the secret key you registered (`dustmail sign --key YOURKEY FILE`) and do not edit it after signing",
        ));
    }
    let last = g.last_seq.get(&body.side).copied().unwrap_or(0);
    if body.seq <= last {
        return Some(Refusal::new(
            format!(
                "seq {} is not greater than {last}, the last seq accepted from side {}: this mail is a replay or stale",
                body.seq, body.side
            ),
            "DESIGN §4: seq is per side, strictly increasing",
            format!("if these are new orders, sign them again with seq: {}", last + 1),
        ));
    }
    None
}

fn submit_block<G: Game>(
    ctx: &Ctx<G>,
    g: &mut Loaded<G::State>,
    inc: &Incoming,
    bi: usize,
    block: &crate::mail::RawBlock,
    body: &BlockBody,
    sum: &mut RunSummary,
) -> Result<(), RefereeError> {
    let n = g.ledger.next_seq();
    let round = ctx.game.round(&g.derived.state);
    let refusal = refuse_reason(
        &g.derived,
        &g.created,
        body,
        &block.signature_b64,
        &block.canonical,
        ctx.edges,
    );
    let mut new_state = g.derived.state.clone();
    let step = if refusal.is_none() {
        let lines: &[Line] = &body.lines;
        run_step(
            ctx.game,
            &mut new_state,
            &g.created,
            n,
            &DiceMode::Secret(&g.secret),
            &[],
            |gm, st, dice| gm.submit(st, Sender::side(&body.side), lines, dice),
        )
        .map_err(RefereeError::Io)?
    } else {
        Step::default()
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
        step,
    };
    if refusal.is_some() {
        sum.refused += 1;
    } else {
        sum.accepted += 1;
        g.derived.state = new_state;
        g.derived.last_seq.insert(body.side.clone(), body.seq);
        g.derived.last_step_at = sub.at.clone();
    }
    g.derived
        .mails
        .entry(inc.sha256.clone())
        .or_default()
        .push((bi, n));
    append_step(ctx, g, Event::Submission(Box::new(sub)))
}

/// Appends a step's line plus its round ends and end of game, writes the snapshot, then queues
/// the mails (the ledger is durable before any mail about it exists).
fn append_step<G: Game>(
    ctx: &Ctx<G>,
    g: &mut Loaded<G::State>,
    event: Event,
) -> Result<(), RefereeError> {
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
        },
        h,
    ));
    if let Some(step) = step {
        append_follow_ups(g, &step.rounds_ended, step.finished.as_ref(), &mut appended)?;
    }
    g.derived.head = g.ledger.head().clone();
    write_snapshot(&ctx.home.game_dir(&g.id), &g.derived)?;
    for (id, m) in step_mails(ctx, g, &appended)? {
        queue(ctx, &id, &m)?;
    }
    Ok(())
}

/// Appends the lines that follow a step: its round ends (revealing each round key) and the end of
/// the game.
fn append_follow_ups<S: Serialize>(
    g: &mut Loaded<S>,
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
            },
            h,
        ));
    }
    if let Some(result) = finished {
        let ev = Event::Finished(Finished {
            result: result.clone(),
            secret: hex::encode(g.secret),
            state_digest: state_digest(&g.derived.state),
        });
        let seq = g.ledger.next_seq();
        let h = g.ledger.append(ev.clone())?;
        g.derived.finished = Some(result.clone());
        appended.push((
            Entry {
                seq,
                prev: String::new(),
                event: ev,
            },
            h,
        ));
    }
    Ok(())
}

/// A run killed between a step's line and its round-end / end-of-game lines leaves a ledger whose
/// last step announces rounds not yet revealed: append what is missing (the step's mail is still
/// in new/ and re-queues the step's replies, now including these lines).
fn complete_interrupted_step<S: Serialize>(g: &mut Loaded<S>) -> Result<bool, RefereeError> {
    // The cheap common case first: the last line alone tells whether anything can be missing.
    let (_, last) = ledger::read_last_line(g.ledger.path())?;
    let last_event = serde_json::from_slice::<Entry>(&last).ok().map(|e| e.event);
    let may_be_open = match &last_event {
        Some(Event::Submission(s)) => {
            s.accepted && (!s.step.rounds_ended.is_empty() || s.step.finished.is_some())
        }
        Some(Event::Deadline(d)) => !d.step.rounds_ended.is_empty() || d.step.finished.is_some(),
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
    }) else {
        return Ok(false);
    };
    let step = match &entries[i].event {
        Event::Submission(s) => &s.step,
        Event::Deadline(d) => &d.step,
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

/// Reminders before a deadline and defaults after deadline + grace, for every game of the home.
fn deadlines<G: Game>(
    ctx: &Ctx<G>,
    games: &mut BTreeMap<String, Loaded<G::State>>,
    sum: &mut RunSummary,
) -> Result<(), RefereeError> {
    let mut ids: Vec<String> = match std::fs::read_dir(ctx.home.games()) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect(),
        Err(_) => return Ok(()),
    };
    ids.sort();
    for id in ids {
        if !games.contains_key(&id) {
            match try_load(ctx, &id, sum) {
                Ok(Some(g)) => {
                    games.insert(id.clone(), g);
                }
                Ok(None) => continue,
                Err(e) => {
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
        let Some(due) = deadline_of(&g.created, &g.derived) else {
            continue;
        };
        let hours = |h: u32| chrono::Duration::hours(h.into());
        // Out-of-range times (absurd settings) mean "never", not a panic.
        let past_grace = due
            .checked_add_signed(hours(g.created.grace_hours))
            .is_some_and(|t| ctx.now >= t);
        let remind_at = due
            .checked_sub_signed(hours(g.created.reminder_hours))
            .unwrap_or(due);
        let awaiting = ctx.game.awaiting(&g.derived.state);
        if past_grace {
            let mut sides: Vec<String> = Vec::new();
            for a in &awaiting {
                if !sides.contains(&a.side) {
                    sides.push(a.side.clone());
                }
            }
            for side in sides {
                if g.derived.finished.is_some()
                    || !ctx
                        .game
                        .awaiting(&g.derived.state)
                        .iter()
                        .any(|a| a.side == side)
                {
                    continue;
                }
                let n = g.ledger.next_seq();
                let round = ctx.game.round(&g.derived.state);
                let mut st = g.derived.state.clone();
                let step = run_step(
                    ctx.game,
                    &mut st,
                    &g.created,
                    n,
                    &DiceMode::Secret(&g.secret),
                    &[],
                    |gm, s, dice| gm.default_for(s, &side, dice),
                )
                .map_err(RefereeError::Io)?;
                g.derived.state = st;
                g.derived.last_step_at = ctx.now.to_rfc3339();
                sum.defaults += 1;
                append_step(
                    ctx,
                    g,
                    Event::Deadline(Box::new(Deadline {
                        side,
                        round,
                        at: ctx.now.to_rfc3339(),
                        step,
                    })),
                )?;
            }
        } else if ctx.now >= remind_at && ctx.now < due {
            let head = g.ledger.head().clone();
            for a in &awaiting {
                let Some(p) = g.created.players.iter().find(|p| p.side == a.side) else {
                    continue;
                };
                let text = render(
                    ctx,
                    "reminder",
                    json!({"game": g.id, "round": ctx.game.round(&g.derived.state), "side": a.side,
                           "decision": a.decision, "deadline": due.to_rfc3339(),
                           "grace_hours": g.created.grace_hours,
                           "next_seq": next_seq(&g.derived, &a.side),
                           "template": ctx.game.orders_template(&g.derived.state, &a.side)}),
                )?;
                let m = game_mail(
                    ctx,
                    g,
                    vec![p.address.clone()],
                    "reminder",
                    text,
                    None,
                    &head,
                );
                queue(
                    ctx,
                    &format!("{}-{}-reminder-{}", g.id, head.seq, id_part(&a.side)),
                    &m,
                )?;
                sum.reminders += 1;
            }
        }
    }
    Ok(())
}

/// `show --format json`: the game's view plus `round` and `awaiting`.
pub fn show_json<G: Game>(
    game: &G,
    g: &Loaded<G::State>,
    as_side: Option<&str>,
) -> serde_json::Value {
    let mut v = game.view(&g.derived.state, as_side);
    let extra = json!({
        "game": g.id,
        "round": game.round(&g.derived.state),
        "awaiting": game.awaiting(&g.derived.state),
        "finished": g.derived.finished,
        "ledger_head": g.derived.head,
    });
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
