//! The batch pipeline of DESIGN §2: Maildir → parse → route → verify → `Game::submit` → ledger
//! (fsync) → snapshot → replies and reports queued. Also game creation, deadlines, replay and
//! audit, all generic over [`Game`].
//!
//! The mail/crypto edges come in through [`Edges`] (function pointers) and the outbox through
//! [`MailSink`], so the pipeline can be driven by tests with a toy game and fake edges.

use crate::config::{valid_game_id, Config, Home};
use crate::game::{
    Audience, CommandOutcome, CommandResult, DiceSource, GameResult, Line, Outcome, Sender,
};
use crate::ledger::{
    self, sha256_hex, state_digest, Control, ControlAction, Created, Deadline, Draw, DrawKind,
    Entry, Event, Finished, Head, Ledger, LedgerError, Player, Refusal, RoundEnd, SignedControl,
    Step, Submission,
};
use crate::mail::{BlockBody, Incoming, MailError};
use crate::outbox::{Attachment, Mail, Outbox};
use crate::registry::{AnyGame, AnyState, Registry};
use crate::report::{self, html_with_ledger_head, ledger_head_line, with_ledger_head, Templates};
use crate::seed::{Key, Keying, SecretKeys, SeededDice};
use chrono::{DateTime, Utc};
use ed25519_dalek::SigningKey;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[path = "referee_guard.rs"]
mod guard;
#[path = "referee_lines.rs"]
pub mod lines;
#[path = "referee_mail.rs"]
mod per_mail;
use per_mail::{bounded_reason, process_mail};

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
    /// A mail about one incoming mail cannot be sent (its address or headers came from that
    /// mail): contained to that mail by `run`, which warns and goes on.
    #[error("{0}")]
    Unsendable(String),
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
        self.draws.push(Draw::d6(round, face));
        face
    }
    fn uniform(&mut self, round: u32, n: u32) -> u32 {
        let value = self.inner.uniform(round, n);
        self.draws.push(Draw::uniform(round, n, value));
        value
    }
    fn hidden(&mut self, audience: &Audience, n: u32) -> u32 {
        let value = self.inner.hidden(audience, n);
        self.draws.push(Draw::hidden(audience.clone(), n, value));
        value
    }
}

/// Replays recorded draws (an auditor without the secret); notes the first disagreement.
struct Replayed<'a> {
    draws: &'a [Draw],
    pos: usize,
    mismatch: Option<String>,
}

impl Replayed<'_> {
    /// The next recorded value if it is `want` (kind, round, bound, audience) and in range.
    fn next(&mut self, want: &Draw) -> Option<u32> {
        let d = self.draws.get(self.pos).cloned();
        self.pos += 1;
        let Some(d) = d else {
            self.mismatch.get_or_insert(format!(
                "the game drew more values than the {} recorded",
                self.draws.len()
            ));
            return None;
        };
        let same = d.kind == want.kind
            && d.round == want.round
            && d.bound == want.bound
            && d.audience == want.audience;
        match d.value {
            Some(v) if same && want.bound.is_some_and(|n| v < n) => Some(v),
            _ => {
                self.mismatch.get_or_insert(format!(
                    "draw {} was recorded as {:?} below {:?} (round {}) but the game drew {:?} below {:?} (round {})",
                    self.pos, d.kind, d.bound, d.round, want.kind, want.bound, want.round
                ));
                None
            }
        }
    }
}

impl DiceSource for Replayed<'_> {
    fn uniform(&mut self, round: u32, n: u32) -> u32 {
        self.next(&Draw::uniform(round, n, 0)).unwrap_or(0)
    }
    fn hidden(&mut self, audience: &Audience, n: u32) -> u32 {
        self.next(&Draw::hidden(audience.clone(), n, 0))
            .unwrap_or(0)
    }
    fn d6(&mut self, round: u32) -> u8 {
        let d = self.draws.get(self.pos).cloned();
        self.pos += 1;
        match d {
            Some(d) if d.kind == DrawKind::D6 && d.round == round && (1..=6).contains(&d.face) => {
                d.face
            }
            Some(d) if d.kind != DrawKind::D6 => {
                self.mismatch.get_or_insert(format!(
                    "draw {} was recorded as {:?} below {:?} but the game rolled a die",
                    self.pos, d.kind, d.bound
                ));
                1
            }
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
    /// Mail sha256 → (block, ledger seq) of its recorded submissions (a constant-size filter in
    /// the snapshot: see [`crate::dedup`]).
    pub mails: crate::dedup::MailIndex,
    /// Time of the last step (deadlines count from it).
    pub last_step_at: String,
    pub revealed: BTreeMap<u32, String>,
    pub finished: Option<GameResult>,
    /// The players now (a `replace-key` control changes a key); empty: those of `created`.
    #[serde(default)]
    pub players: Vec<Player>,
    /// A referee `pause`: no deadline runs.
    #[serde(default)]
    pub paused: bool,
    /// Addresses that receive every report and can send nothing.
    #[serde(default)]
    pub observers: Vec<String>,
    /// Player key (see [`player_key`]) → end of their declared absence (RFC 3339).
    #[serde(default)]
    pub absent: BTreeMap<String, String>,
    /// v2 games: the game steps so far (the n of dice v2; 0 in v1 games).
    #[serde(default)]
    pub steps: u64,
}

impl<S> Derived<S> {
    /// What the `created` line alone derives: the game's first state, nothing played yet.
    pub fn start(head: Head, state: S, created: &Created) -> Derived<S> {
        Derived {
            head,
            state,
            last_seq: BTreeMap::new(),
            mails: Default::default(),
            last_step_at: created.created_at.clone(),
            revealed: BTreeMap::new(),
            finished: None,
            players: created.players.clone(),
            paused: false,
            observers: Vec::new(),
            absent: BTreeMap::new(),
            steps: 0,
        }
    }

    /// A copy without the dedup index `mails`, which no mail about a step reads (every other
    /// field is copied: a new field must be listed here).
    fn without_mails(&self) -> Derived<S>
    where
        S: Clone,
    {
        Derived {
            head: self.head.clone(),
            state: self.state.clone(),
            last_seq: self.last_seq.clone(),
            mails: Default::default(),
            last_step_at: self.last_step_at.clone(),
            revealed: self.revealed.clone(),
            finished: self.finished.clone(),
            players: self.players.clone(),
            paused: self.paused,
            observers: self.observers.clone(),
            absent: self.absent.clone(),
            steps: self.steps,
        }
    }

    /// The same with another state (a snapshot's JSON state decoded by its game).
    pub fn with_state<T>(self, state: T) -> Derived<T> {
        Derived {
            head: self.head,
            state,
            last_seq: self.last_seq,
            mails: self.mails,
            last_step_at: self.last_step_at,
            revealed: self.revealed,
            finished: self.finished,
            players: self.players,
            paused: self.paused,
            observers: self.observers,
            absent: self.absent,
            steps: self.steps,
        }
    }

    /// The players now: `created`'s, with any replaced keys.
    pub fn players<'a>(&'a self, created: &'a Created) -> &'a [Player] {
        if self.players.is_empty() {
            &created.players
        } else {
            &self.players
        }
    }
}

/// The name a player's seq and absence are kept under: the side when it has one player, else
/// `side/address` (teams: each player counts their own seq).
pub fn player_key(players: &[Player], p: &Player) -> String {
    if players.iter().filter(|q| q.side == p.side).count() > 1 {
        format!("{}/{}", p.side, p.address)
    } else {
        p.side.clone()
    }
}

/// The side name of the referee's own signed mails.
pub const REFEREE_SIDE: &str = "referee";

/// How replay gets its dice.
pub enum DiceMode<'a> {
    /// The referee: dice from the secret S (and hidden values from H, when the game has one),
    /// compared with the recorded ones.
    Secret(&'a Key, Option<Key>),
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
    // A ledger from before typed events records none: its happenings match on text, rolls and
    // audience (`Happening::recorded_matches`), so old ledgers replay as they always did.
    let happenings_match = recorded.happenings.len() == got.happenings.len()
        && recorded
            .happenings
            .iter()
            .zip(&got.happenings)
            .all(|(r, g)| r.recorded_matches(g));
    let rest_match = recorded.results == got.results
        && recorded.rounds_ended == got.rounds_ended
        && recorded.finished == got.finished
        && recorded.rolls == got.rolls;
    if !(happenings_match && rest_match) {
        let what = if recorded.results != got.results {
            "command results"
        } else if !happenings_match {
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

fn faces(d: &[Draw]) -> Vec<u32> {
    d.iter().map(Draw::shown).collect()
}

/// Runs one step of the game with dice, as the referee (recording) or the auditor (replaying).
fn run_step(
    game: &dyn AnyGame,
    state: &mut AnyState,
    created: &Created,
    keying: Keying,
    mode: &DiceMode,
    recorded: &[Draw],
    f: impl FnOnce(&dyn AnyGame, &mut AnyState, &mut dyn DiceSource) -> Outcome,
) -> Result<Step, String> {
    match mode {
        DiceMode::Secret(secret, hidden) => {
            let keys = SecretKeys {
                secret: **secret,
                max_rounds: created.max_rounds,
            };
            let mut seeded = SeededDice::with_keying(&keys, keying).with_hidden(*hidden);
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
            if seeded.missing_hidden() {
                return Err("the game drew a hidden value but this game has no hidden secret H (it was made before hidden values existed)".into());
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
    /// Hidden values recomputed from the revealed H (auditor).
    pub hidden_checked: usize,
    /// Hidden values not recomputed: H is revealed only when the game ends.
    pub hidden_skipped: usize,
}

impl ReplaySummary {
    /// What the summary line says about hidden values (empty when there were none).
    pub fn hidden_note(&self) -> String {
        let mut note = String::new();
        if self.hidden_checked > 0 {
            note += &format!("; {} hidden values checked with H", self.hidden_checked);
        }
        if self.hidden_skipped > 0 {
            note += &format!(
                "; {} hidden values NOT checked: their secret H is revealed when the game ends",
                self.hidden_skipped
            );
        }
        note
    }
}

/// Replays a whole log, checking signatures, seqs, every recorded step and roll, every revealed
/// key against the commitment, and every state digest. Errors name the line.
pub fn replay(
    game: &dyn AnyGame,
    edges: &Edges,
    file: &str,
    entries: &[Entry],
    mode: DiceMode,
) -> Result<(Created, Derived<AnyState>, ReplaySummary), RefereeError> {
    let first = entries
        .first()
        .ok_or_else(|| RefereeError::Verify(format!("{file} is empty")))?;
    let created = match &first.event {
        Event::Created(c) => (**c).clone(),
        _ => return Err(mismatch(file, 1, "the first line is not `created`")),
    };
    let commitment = parse_key(&created.commitment)
        .ok_or_else(|| mismatch(file, 1, "the commitment is not 64 hex digits"))?;
    if let DiceMode::Secret(s, hidden) = &mode {
        if chain_key(s, created.max_rounds, 0) != commitment {
            return Err(mismatch(
                file,
                1,
                "the seed secret of this game does not match the commitment K_0",
            ));
        }
        if let Some(h) = hidden {
            crate::hidden::check(&created, &hex::encode(h)).map_err(|m| mismatch(file, 1, m))?;
        }
    }
    if created.game != game.name() {
        return Err(mismatch(
            file,
            1,
            format!(
                "this is a `{}` game, replayed here as `{}`",
                created.game,
                game.name()
            ),
        ));
    }
    let state = game
        .setup(&created.setup)
        .map_err(|e| mismatch(file, 1, format!("the setup does not start a game: {e}")))?;
    let mut d = Derived::start(
        Head {
            seq: 1,
            hash: String::new(),
        },
        state,
        &created,
    );
    let mut sum = ReplaySummary::default();
    let mut last_key = commitment;
    let mut last_revealed_round = 0u32;
    // Draws of every step, kept to recompute once their round key is revealed (auditor).
    let mut pending: Vec<(u64, Keying, Vec<Draw>)> = Vec::new();
    let v2 = created.dice_version >= 2;
    // Deadline defaults of one run share the dues taken before the first of them.
    let mut dues_from: Option<(String, String)> = None;
    // Keys known from the revealed secret at the end (not listed as revealed rounds).
    let mut all_keys: BTreeMap<u32, Key> = BTreeMap::new();
    // H, once the `finished` line reveals it.
    let mut hidden_key: Option<Key> = None;
    for e in &entries[1..] {
        let n = e.seq;
        match &e.event {
            Event::Created(_) => return Err(mismatch(file, n, "a second `created` line")),
            Event::Submission(s) => {
                d.mails.record(&s.mail_sha256, s.block, n);
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
                    if v2 {
                        crate::audit::check_refusal(edges, &created, &d, s)
                            .map_err(|m| mismatch(file, n, m))?;
                    }
                    continue;
                }
                dues_from = None;
                sum.submissions += 1;
                let players = d.players(&created).to_vec();
                // The signer: the named player of a team side, else the side's one player.
                let candidates: Vec<&Player> = players
                    .iter()
                    .filter(|p| p.side == s.side)
                    .filter(|p| s.player.as_ref().is_none_or(|a| *a == p.address))
                    .collect();
                if candidates.is_empty() {
                    return Err(mismatch(
                        file,
                        n,
                        format!("side `{}` has no such player in this game", s.side),
                    ));
                }
                let mut signer = None;
                let mut last_err = String::new();
                for p in candidates {
                    match (edges.verify)(&p.public_key, &s.canonical, &s.signature) {
                        Ok(()) => {
                            signer = Some(p.clone());
                            break;
                        }
                        Err(e) => last_err = e,
                    }
                }
                let signer = signer.ok_or_else(|| {
                    mismatch(
                        file,
                        n,
                        format!(
                            "the signature does not verify against side {}'s key: {last_err}",
                            s.side
                        ),
                    )
                })?;
                sum.signatures += 1;
                let pkey = player_key(&players, &signer);
                let last = d.last_seq.get(&pkey).copied().unwrap_or(0);
                if s.player_seq <= last || s.player_seq > ledger::MAX_SEQ {
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
                let at = parse_time(&s.at).ok_or_else(|| {
                    mismatch(file, n, format!("`at` {} is not an RFC 3339 time", s.at))
                })?;
                let units = units_of(&created, &players, &signer);
                let sp = split_lines(&created, &s.side, &body.lines, at);
                let before = d.state.clone();
                let keying = crate::audit::step_keying(&created, &mut d, n, s.n, &s.signature)
                    .map_err(|m| mismatch(file, n, m))?;
                let got = run_step(
                    game,
                    &mut d.state,
                    &created,
                    keying,
                    &mode,
                    &s.step.draws,
                    |g, st, dice| {
                        let from = Sender {
                            side: &s.side,
                            units: units.as_deref(),
                        };
                        submit_split(g, st, from, &sp, dice)
                    },
                )
                .map_err(|m| mismatch(file, n, m))?;
                compare_step(file, n, &s.step, &got)?;
                sum.dice_checked += got.draws.len();
                pending.push((n, keying, got.draws));
                d.last_seq.insert(pkey.clone(), s.player_seq);
                note_absence(&mut d, pkey, &sp.absent);
                if d.state != before {
                    d.last_step_at = s.at.clone();
                }
                if let Some(r) = &got.finished {
                    d.finished = Some(r.clone());
                }
            }
            Event::Control(c) => {
                let at = parse_time(&c.at).ok_or_else(|| {
                    mismatch(file, n, format!("`at` {} is not an RFC 3339 time", c.at))
                })?;
                let lines = match (&c.signed, &c.command) {
                    (Some(sc), _) => {
                        d.mails.record(&sc.mail_sha256, sc.block, n);
                        (edges.verify)(&created.referee_public_key, &sc.canonical, &sc.signature)
                            .map_err(|e| {
                            mismatch(
                                file,
                                n,
                                format!("the referee's signature does not verify: {e}"),
                            )
                        })?;
                        sum.signatures += 1;
                        let last = d.last_seq.get(REFEREE_SIDE).copied().unwrap_or(0);
                        if sc.seq <= last {
                            return Err(mismatch(
                                file,
                                n,
                                format!("referee seq {} accepted after seq {last}", sc.seq),
                            ));
                        }
                        let body = (edges.parse_body)(&sc.canonical).map_err(|e| {
                            mismatch(file, n, format!("the signed text does not parse: {e}"))
                        })?;
                        if body.side != REFEREE_SIDE
                            || body.seq != sc.seq
                            || body.game != created.game_id
                        {
                            return Err(mismatch(
                                file,
                                n,
                                "game/side/seq differ from the signed text",
                            ));
                        }
                        d.last_seq.insert(REFEREE_SIDE.into(), sc.seq);
                        body.lines
                    }
                    (None, Some(cmd)) => command_lines(cmd),
                    (None, None) => {
                        return Err(mismatch(file, n, "a control line names no command"))
                    }
                };
                let (actions, results) = control_lines(&created, &mut d, &lines, at);
                if actions != c.actions || results != c.results {
                    return Err(mismatch(
                        file,
                        n,
                        "the recorded control actions differ from what replaying them gives",
                    ));
                }
                dues_from = None;
                if v2 && !actions.is_empty() {
                    d.steps += 1;
                }
                let want = (v2 && !actions.is_empty()).then_some(d.steps);
                if c.n != want {
                    return Err(mismatch(
                        file,
                        n,
                        format!("the control records game step {:?}, not {want:?}", c.n),
                    ));
                }
            }
            Event::Deadline(dl) => {
                if d.finished.is_some() {
                    return Err(mismatch(file, n, "a deadline default after the game ended"));
                }
                let keying = if v2 {
                    crate::audit::check_deadline(game, edges, &created, &mut d, dl, &mut dues_from)
                        .map_err(|m| mismatch(file, n, m))?
                } else {
                    Keying::V1 { event: n }
                };
                let got = run_step(
                    game,
                    &mut d.state,
                    &created,
                    keying,
                    &mode,
                    &dl.step.draws,
                    |g, st, dice| g.default_for(st, &dl.side, dice),
                )
                .map_err(|m| mismatch(file, n, m))?;
                compare_step(file, n, &dl.step, &got)?;
                sum.defaults += 1;
                sum.dice_checked += got.draws.len();
                pending.push((n, keying, got.draws));
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
                hidden_key = match (&f.hidden, &created.hidden_commitment) {
                    (Some(h), _) => {
                        Some(crate::hidden::check(&created, h).map_err(|m| mismatch(file, n, m))?)
                    }
                    (None, Some(_)) => {
                        return Err(mismatch(
                            file,
                            n,
                            "the game ended without revealing its hidden secret H",
                        ))
                    }
                    (None, None) => None,
                };
                check_digest(file, n, &f.state_digest, &d.state)?;
                sum.digests += 1;
                sum.finished = true;
                // Every round's key is now known: recompute every die.
                for (r, k) in (0..)
                    .zip(crate::seed::chain(&s, created.max_rounds))
                    .skip(1)
                {
                    all_keys.insert(r, k);
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
        for (n, keying, draws) in &pending {
            let r = crate::hidden::recheck(&keys, hidden_key, *keying, draws)
                .map_err(|m| mismatch(file, *n, m))?;
            sum.hidden_checked += r.hidden_checked;
            sum.hidden_skipped += r.hidden_skipped;
        }
    }
    if created.hidden_commitment.is_none() {
        if let Some((n, _, _)) = pending
            .iter()
            .find(|(_, _, ds)| ds.iter().any(|d| d.kind == DrawKind::Hidden))
        {
            return Err(mismatch(
                file,
                *n,
                "a hidden value is recorded but the game committed to no hidden secret",
            ));
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
pub fn replay_bytes(
    game: &dyn AnyGame,
    edges: &Edges,
    file: &str,
    data: &[u8],
    mode: DiceMode,
) -> Result<(Created, Derived<AnyState>, ReplaySummary), RefereeError> {
    let entries = ledger::parse_log(file, data)?;
    crate::audit::check_line_signatures(edges, file, data, &entries)?;
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
    pending: Vec<PendingMails>,
}

impl Loaded {
    /// The game as it stands now, as the mails about its last step read it.
    fn at(&self) -> GameAt {
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
struct GameAt {
    game: &'static dyn AnyGame,
    id: String,
    created: Created,
    derived: Derived<AnyState>,
    ledger: PathBuf,
}

/// A step whose mails are still to be rendered: the entries it appended (with their heads).
struct PendingMails {
    game: GameAt,
    entries: Vec<(Entry, Head)>,
    /// Its refusal is not sent: the sender is a stranger answered lately (`stranger_replies`).
    /// Kept out of the ledger, whose lines must not depend on the strangers' file.
    quiet: bool,
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
    let created = read_created(home, id)?;
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
    load_game(game_of(games, home, id)?, edges, home, id)
}

/// Loads a game: from its snapshot when the snapshot's head matches the log's last line, else by
/// a full replay (which rewrites the snapshot).
pub fn load_game(
    game: &'static dyn AnyGame,
    edges: &Edges,
    home: &Home,
    id: &str,
) -> Result<Loaded, RefereeError> {
    let dir = home.game_dir(id);
    let log = dir.join(ledger::LOG_FILE);
    let ledger = Ledger::open(&log)?;
    let secret = read_secret(&dir)?;
    let hidden = crate::hidden::read_hidden(&dir).map_err(RefereeError::Usage)?;
    let created = read_created(home, id)?;
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
    let dir = home.game_dir(id);
    let log = dir.join(ledger::LOG_FILE);
    let data = std::fs::read(&log).map_err(io_err(&log.display().to_string()))?;
    let secret = read_secret(&dir)?;
    let hidden = crate::hidden::read_hidden(&dir).map_err(RefereeError::Usage)?;
    let (created, d, sum) = replay_bytes(
        game,
        edges,
        ledger::LOG_FILE,
        &data,
        DiceMode::Secret(&secret, hidden),
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
fn decode_snapshot(game: &dyn AnyGame, bytes: &[u8]) -> Result<Derived<AnyState>, String> {
    let d: Derived<serde_json::Value> = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    let state = game.decode(d.state.clone())?;
    Ok(d.with_state(state))
}

/// Writes the snapshot now, or in a batch run marks it for the batch's commit.
fn save_snapshot(home: &Home, g: &mut Loaded) -> Result<(), RefereeError> {
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

/// What `new` needs beyond the context.
pub struct NewGame {
    /// The game's name in the registry ("dust-tactics").
    pub game: String,
    pub setup: crate::game::Setup,
    pub players: Vec<Player>,
    pub seed: Key,
    pub id: Option<String>,
    pub max_rounds: u32,
}

/// Creates a game: ledger `created` line, seed.secret (0600), snapshot, welcome mails. Returns the id.
pub fn create_game(ctx: &Ctx, new: NewGame) -> Result<String, RefereeError> {
    create_team_game(ctx, new, BTreeMap::new())
}

/// Creates a game where a side may have several players: `assignments` maps every unit of such
/// a side to the address of the player commanding it (000: "four players can play two-on-two by
/// dividing the armies").
pub fn create_team_game(
    ctx: &Ctx,
    new: NewGame,
    assignments: BTreeMap<String, String>,
) -> Result<String, RefereeError> {
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
    let game = ctx.games.find(&new.game).map_err(RefereeError::Usage)?;
    let state = game
        .setup(&new.setup)
        .map_err(|e| RefereeError::Usage(format!("cannot start the game: {e}")))?;
    let sides = game.sides(&state);
    if sides.iter().any(|s| s == REFEREE_SIDE) {
        return Err(RefereeError::Usage(format!(
            "the scenario has a side named `{REFEREE_SIDE}`: that name is reserved for the referee's own signed mails; rename the side"
        )));
    }
    let mut given: Vec<&str> = new.players.iter().map(|p| p.side.as_str()).collect();
    given.sort();
    given.dedup();
    let mut wanted: Vec<&str> = sides.iter().map(|s| s.as_str()).collect();
    wanted.sort();
    if given != wanted {
        return Err(RefereeError::Usage(format!(
            "the scenario's sides are {}: give at least one --player SIDE=ADDRESS:PUBKEY for each, and no other side (got {})",
            sides.join(", "),
            given.join(", ")
        )));
    }
    for (i, p) in new.players.iter().enumerate() {
        if new.players[..i]
            .iter()
            .any(|q| q.address == p.address || q.public_key == p.public_key)
        {
            return Err(RefereeError::Usage(format!(
                "--player {}={}: every player needs an address and a key of their own",
                p.side, p.address
            )));
        }
    }
    for (unit, addr) in &assignments {
        if !new.players.iter().any(|p| &p.address == addr) {
            return Err(RefereeError::Usage(format!(
                "unit {unit} is assigned to {addr}, who is not a --player of this game"
            )));
        }
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
    let hidden = crate::seed::hidden_secret_for(&new.seed);
    crate::hidden::write_hidden(&dir, &hidden).map_err(io_err(crate::hidden::HIDDEN_FILE))?;
    let created = Created {
        engine_version: ENGINE_VERSION.into(),
        game: game.name().into(),
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
        assignments,
        max_absence_days: ctx.config.max_absence_days,
        dice_version: ledger::DICE_VERSION,
        hidden_commitment: Some(crate::hidden::commitment_hex(&hidden)),
    };
    let ledger =
        Ledger::create_signed(&dir, created.clone(), ctx.key.clone(), ctx.edges.sign_text)?;
    let derived = Derived::start(ledger.head().clone(), state, &created);
    write_snapshot(&dir, &derived)?;
    let loaded = Loaded {
        game,
        id: id.clone(),
        created,
        ledger,
        derived,
        secret: new.seed,
        hidden: Some(hidden),
        snapshot_stale: false,
        pending: Vec::new(),
    };
    let due = crate::due::next_due(game, &loaded.created, &loaded.derived);
    crate::due::set_entry(&ctx.home.root, &id, Some(crate::due::entry(due)))
        .map_err(io_err(crate::due::DUE_FILE))?;
    for p in &loaded.created.players {
        let text = render_with_board(
            ctx,
            "welcome",
            json!({
                "game": id, "game_name": game.name(), "ruleset": loaded.created.ruleset,
                "scenario": loaded.created.setup.scenario_name, "side": p.side,
                "players": loaded.created.players, "commitment": loaded.created.commitment,
                "hidden_commitment": loaded.created.hidden_commitment,
                "max_rounds": loaded.created.max_rounds,
                "deadline_hours": loaded.created.deadline_hours,
                "reminder_hours": loaded.created.reminder_hours,
                "grace_hours": loaded.created.grace_hours,
                "template": game.orders_template(&loaded.derived.state, &p.side),
                "next_seq": 1,
            }),
            &loaded,
            &p.side,
        )?;
        let mail = game_mail(
            ctx,
            (&loaded.id, game.round(&loaded.derived.state)),
            vec![p.address.clone()],
            "welcome",
            text,
            None,
            loaded.ledger.head(),
        );
        queue(
            ctx,
            &format!(
                "{id}-1-welcome-{}",
                recipient_part(&loaded.created.players, p)
            ),
            &mail,
        )?;
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

/// The parts of a mail: text and HTML rendered from one context, and any attachments.
struct Parts {
    text: String,
    html: Option<String>,
    attachments: Vec<Attachment>,
}

/// Renders the template pair `name` (`templates/<name>.txt` and `.html`) from one context.
fn render(ctx: &Ctx, name: &str, v: serde_json::Value) -> Result<Parts, RefereeError> {
    let err = |e: crate::report::TemplateError| RefereeError::Usage(e.to_string());
    Ok(Parts {
        text: ctx.templates.render(name, &v).map_err(err)?,
        html: Some(ctx.templates.render_html(name, &v).map_err(err)?),
        attachments: vec![],
    })
}

/// Renders a welcome or reminder mail with the current board for `side`: `board` (text) and
/// `board_img` (the picture, inline and attached) in the context.
fn render_with_board(
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

fn queue(ctx: &Ctx, id: &str, mail: &Mail) -> Result<(), RefereeError> {
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
fn game_mail(
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
fn plain_refusal(
    ctx: &Ctx,
    inc: &Incoming,
    game: Option<&str>,
    reason: &str,
    rule: &str,
    instead: &str,
) -> Result<Option<Mail>, RefereeError> {
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
fn step_mails(
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
        if let Some(to) = to {
            let parts = render(ctx, "receipt", {
                // A receipt stays small whatever the block held (src/limits.rs).
                let (results, more_results) = crate::limits::listed(&s.step.results);
                // The sender's receipt shows what their side may see (issue 11 item 3).
                let mine = report::visible(&s.step.happenings, Some(&s.side), None);
                let (happenings, more_happenings) = crate::limits::listed(&mine);
                json!({"game": id, "side": s.side, "seq": s.player_seq, "ledger_seq": n,
                           "results": results, "more_results": more_results,
                           "happenings": happenings, "more_happenings": more_happenings})
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
            out.push((format!("{id}-{n}-receipt"), m));
        }
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
    let readers: Vec<&Player> = players.iter().chain(&observers).collect();
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
    for ((p, view), picture) in readers.into_iter().zip(views).zip(pictures) {
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
        // Each decision with the players who make it and its side's own deadline (absence and
        // pause move one side's deadline only).
        if let Some(items) = v["awaiting"].as_array_mut() {
            for (item, a) in items.iter_mut().zip(&awaiting) {
                item["options"] = json!(a.options);
                item["players"] = json!(deciders(&g.created, players, a)
                    .iter()
                    .map(|p| &p.address)
                    .collect::<Vec<_>>());
                item["deadline"] =
                    json!(side_deadline(&g.created, &g.derived, &a.side).map(|d| d.to_rfc3339()));
            }
        }
        // The board picture, inline and attached.
        let mut attachments = vec![];
        if let Some((img, atts)) = picture {
            v["board_img"] = img;
            attachments = atts;
        }
        let mut parts = render(ctx, "report", v.clone())?;
        parts.attachments = attachments;
        let m = game_mail(
            ctx,
            (&g.id, g.game.round(&g.derived.state)),
            vec![p.address.clone()],
            "report",
            parts,
            None,
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

/// A game result in words (kept here for callers of the referee).
pub use crate::report::result_text;

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
    // Saturating: an accepted seq never exceeds `ledger::MAX_SEQ`, but a v1 ledger may hold one.
    d.last_seq.get(side).copied().unwrap_or(0).saturating_add(1)
}

/// A mail id part naming a recipient: the side when it has one player, else side and address;
/// `observer-ADDRESS` for an observer (no side).
fn recipient_part(players: &[Player], p: &Player) -> String {
    if p.side.is_empty() {
        format!("observer-{}", id_part(&p.address))
    } else if players.iter().filter(|q| q.side == p.side).count() > 1 {
        format!("{}-{}", id_part(&p.side), id_part(&p.address))
    } else {
        id_part(&p.side)
    }
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
    if created.deadline_hours == 0 || d.finished.is_some() || d.paused {
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
    save_strangers(ctx, &mut strangers, &mut sum);
    let w = commit(ctx, &mut games, &mut moves, true)?;
    sum.warnings.extend(w);
    Ok(sum)
}

/// Writes the strangers' file before a commit (whose sync makes it durable with the batch):
/// the answers a commit releases are recorded first.
fn save_strangers(ctx: &Ctx, strangers: &mut crate::intake::StrangerReplies, sum: &mut RunSummary) {
    if let Err(e) = strangers.save(&ctx.home.root, ctx.now) {
        sum.warnings.push(format!(
            "cannot write {} ({e}): strangers may be answered again",
            crate::intake::STRANGERS_FILE
        ));
    }
}

/// A run commits after this many mails or this much time (counting the rendering the commit
/// will do), whichever comes first: one sync for many mails, while a run killed again and again
/// (tests/crash.rs) still keeps what it did before each kill instead of redoing it.
const COMMIT_EVERY_MAILS: usize = 512;
const COMMIT_EVERY: std::time::Duration = std::time::Duration::from_millis(200);

/// The run's group commit, in the order that keeps every promise: the pending steps' mails
/// rendered and staged; at the run's end the stale snapshots written; the ledgers, snapshots and
/// staged mails made durable (one `syncfs` per filesystem); the staged mails released to the
/// outbox; only then the processed mails leave `maildir/new`. A crash before the end leaves
/// those mails in new/, where the next run finds them already in the ledger and re-queues their
/// replies.
fn commit(
    ctx: &Ctx,
    games: &mut BTreeMap<String, Loaded>,
    moves: &mut Vec<(PathBuf, PathBuf)>,
    last: bool,
) -> Result<Vec<String>, RefereeError> {
    let pending: Vec<PendingMails> = games
        .values_mut()
        .flat_map(|g| std::mem::take(&mut g.pending))
        .collect();
    let warnings = render_pending(ctx, pending)?;
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
fn sync_filesystems(paths: &[PathBuf]) -> Result<(), RefereeError> {
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
fn recover_deadline_mails(
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
enum Disposition {
    /// A block reached a game: maildir/cur.
    Routed,
    /// No block reached a game: rejected/.
    Rejected,
    /// A block's game cannot be read: stays in maildir/new.
    Keep,
}

/// Every mail block the ledger records: (mail sha256, block, line).
fn recorded_mails(log: &Path) -> Result<Vec<(String, usize, u64)>, RefereeError> {
    Ok(ledger::read_all(log)?
        .into_iter()
        .filter_map(|e| match e.event {
            Event::Submission(s) => Some((s.mail_sha256, s.block, e.seq)),
            Event::Control(c) => c.signed.map(|sc| (sc.mail_sha256, sc.block, e.seq)),
            _ => None,
        })
        .collect())
}

fn try_load(ctx: &Ctx, id: &str, sum: &mut RunSummary) -> Result<Option<Loaded>, RefereeError> {
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
fn requeue(ctx: &Ctx, g: &Loaded, seq: u64) -> Result<(), RefereeError> {
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

/// Who signed a block that may reach the game (`None`: the referee), or why it cannot.
pub(crate) fn check_block<S>(
    g: &Derived<S>,
    created: &Created,
    body: &BlockBody,
    block_sig: &str,
    canonical: &str,
    edges: &Edges,
) -> Result<Option<Player>, Refusal> {
    if g.finished.is_some() {
        return Err(Refusal::new(
            "this game is over: no more orders are taken",
            "the game ended (see the end mail)",
            "nothing; start a new game with the referee",
        ));
    }
    let players = g.players(created);
    let (signer, seq_key) = if body.side == REFEREE_SIDE {
        if let Err(e) = (edges.verify)(&created.referee_public_key, canonical, block_sig) {
            return Err(Refusal::new(
                format!("the signature does not verify against the referee's key ({e})"),
                "docs/orders.md \"Referee commands\": `side: referee` blocks are signed with the referee's key",
                "players write their own side in the side: line; the referee signs with the home's referee.key",
            ));
        }
        (None, REFEREE_SIDE.to_string())
    } else {
        let of_side: Vec<&Player> = players.iter().filter(|p| p.side == body.side).collect();
        if of_side.is_empty() {
            let mut sides: Vec<&str> = players.iter().map(|p| p.side.as_str()).collect();
            sides.dedup();
            return Err(Refusal::new(
                format!(
                    "side `{}` does not play in game {}",
                    body.side, created.game_id
                ),
                "docs/orders.md \"The signed block\": the side: line names your side",
                format!("write one of: side: {}", sides.join(" | ")),
            ));
        }
        // A team side: whichever player's key the signature verifies against.
        let mut last_err = String::new();
        let Some(p) = of_side.into_iter().find(|p| {
            (edges.verify)(&p.public_key, canonical, block_sig)
                .map_err(|e| last_err = e)
                .is_ok()
        }) else {
            return Err(Refusal::new(
                format!(
                    "the signature does not verify against the key registered for side {} ({last_err})",
                    body.side
                ),
                "docs/orders.md \"The signed block\": authority comes from the signature alone",
                "sign the text with the secret key you registered (`dustmail sign --key YOURKEY FILE`) and do not edit it after signing",
            ));
        };
        (Some(p.clone()), player_key(players, p))
    };
    let last = g.last_seq.get(&seq_key).copied().unwrap_or(0);
    if body.seq > ledger::MAX_SEQ {
        return Err(Refusal::new(
            format!(
                "seq {} is above {}, the largest seq this referee accepts",
                body.seq,
                ledger::MAX_SEQ
            ),
            "docs/orders.md \"The signed block\": seq counts up from 1 and stays below 10^12",
            format!(
                "sign your orders again with seq: {}",
                last.saturating_add(1)
            ),
        ));
    }
    if body.seq <= last {
        let whose = match &signer {
            Some(p) if seq_key != p.side => format!("player {} of side {}", p.address, p.side),
            _ => format!("side {}", body.side),
        };
        return Err(Refusal::new(
            format!(
                "seq {} is not greater than {last}, the last seq accepted from {whose}: this mail is a replay or stale",
                body.seq
            ),
            "docs/orders.md \"The signed block\": seq is per player, strictly increasing",
            format!(
                "if these are new orders, sign them again with seq: {}",
                last.saturating_add(1)
            ),
        ));
    }
    Ok(signer)
}

fn submit_block(
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
            signed = Some((player_key(&players, signer), sp.absent.clone()));
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
        sum.accepted += 1;
        // Only a step that changed the game restarts the deadline clock: a `report` or a
        // refused command cannot be used to stall.
        if new_state != g.derived.state {
            g.derived.last_step_at = sub.at.clone();
        }
        g.derived.state = new_state;
        if let Some((key, a)) = signed {
            g.derived.last_seq.insert(key.clone(), body.seq);
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
fn control_mail(
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
    let (actions, results) = control_lines(&g.created, &mut d, &body.lines, ctx.now);
    d.last_seq.insert(REFEREE_SIDE.into(), body.seq);
    d.mails.record(&inc.sha256, bi, n);
    let step_no = crate::audit::control_step(&g.created, &mut d, &actions);
    g.derived = d;
    sum.accepted += 1;
    let c = Control {
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
    };
    append_control(ctx, g, c)
}

/// `dustmail control GAME COMMAND` on the server: applies one control command, records it, tells
/// every player and observer. A command that cannot apply changes nothing and is an error.
pub fn control_game(ctx: &Ctx, id: &str, command: &str) -> Result<String, RefereeError> {
    let mut g = load_any(&ctx.games, ctx.edges, ctx.home, id)?;
    g.ledger.sign_with(ctx.key.clone(), ctx.edges.sign_text);
    let mut d = g.derived.clone();
    let (actions, results) = control_lines(&g.created, &mut d, &command_lines(command), ctx.now);
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
    g.derived = d;
    let c = Control {
        by: "server".into(),
        at: ctx.now.to_rfc3339(),
        actions,
        results,
        command: Some(command.trim().to_string()),
        signed: None,
        n,
    };
    // The game's due time changes: its entry goes first (no entry: due), so a crash between
    // the ledger line and the new entry cannot hide the game from the next run.
    let root = &ctx.home.root;
    crate::due::set_entry(root, id, None).map_err(io_err(crate::due::DUE_FILE))?;
    append_control(ctx, &mut g, c)?;
    let due = crate::due::next_due(g.game, &g.created, &g.derived);
    crate::due::set_entry(root, id, Some(crate::due::entry(due)))
        .map_err(io_err(crate::due::DUE_FILE))?;
    Ok(understood)
}

/// Appends a control line, writes the snapshot, and tells every player and observer (and the
/// sender of a referee mail) what the referee did.
fn append_control(ctx: &Ctx, g: &mut Loaded, c: Control) -> Result<(), RefereeError> {
    let seq = g.ledger.next_seq();
    let head = g.ledger.append(Event::Control(Box::new(c.clone())))?;
    g.derived.head = head.clone();
    save_snapshot(ctx.home, g)?;
    for (id, m) in control_notices(ctx, g, seq, &c, &head)? {
        queue(ctx, &id, &m)?;
    }
    Ok(())
}

/// The mails telling every player and observer (and a referee mail's sender) what a control
/// line did.
fn control_notices(
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
        "by": if c.by == "server" { "on the server" } else { "by signed mail" },
        "results": results,
        "deadline": deadline_of(&g.created, &g.derived).map(|t| t.to_rfc3339()),
        "paused": g.derived.paused,
    });
    let parts = render(ctx, "control", v)?;
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
        let m = game_mail(
            ctx,
            (&g.id, g.game.round(&g.derived.state)),
            vec![addr.clone()],
            "referee",
            Parts {
                text: parts.text.clone(),
                html: parts.html.clone(),
                attachments: vec![],
            },
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
fn append_step(ctx: &Ctx, g: &mut Loaded, event: Event) -> Result<(), RefereeError> {
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

/// Renders the mails of a batch's steps, spread over the machine's cores (steps are
/// independent: each carries the game as it left it), and queues them. The workers take steps
/// by index, and the outbox is keyed by mail id, so the result never depends on timing.
fn render_pending(ctx: &Ctx, pending: Vec<PendingMails>) -> Result<Vec<String>, RefereeError> {
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
const MAX_RENDER_THREADS: usize = 8;

/// Appends the lines that follow a step: its round ends (revealing each round key) and the end of
/// the game.
fn append_follow_ups(
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
fn complete_interrupted_step(g: &mut Loaded) -> Result<bool, RefereeError> {
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

/// Reminders before a deadline and defaults after deadline + grace, for every game of the home
/// that is already loaded or due by the due-time index ([`crate::due`]), which is then updated.
fn deadlines(
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
                let cause = crate::audit::deadline_keying(ctx, g, n, &side, round, due);
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
fn check_due_entry(plan: &crate::due::Plan, g: &Loaded, sum: &mut RunSummary) {
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
fn update_due_index(
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

// ---------------------------------------------------------------------------------------------
// Teams, referee requests (`report`, `template`, `absent`) and referee control. Every function
// here is used both by the live pipeline and by replay/audit, so both derive the same thing.

/// The units a player commands: `None` when their side has one player (the whole side).
pub fn units_of(created: &Created, players: &[Player], p: &Player) -> Option<Vec<String>> {
    if players.iter().filter(|q| q.side == p.side).count() < 2 {
        return None;
    }
    Some(
        created
            .assignments
            .iter()
            .filter(|(_, a)| **a == p.address)
            .map(|(u, _)| u.clone())
            .collect(),
    )
}

/// A submission's lines parted into the game's and the referee's, with the referee's answers.
struct Split {
    game_lines: Vec<Line>,
    referee: Vec<CommandResult>,
    /// The absence the mail declares (`None`: unchanged; `Some(None)`: ended).
    absent: Option<Option<String>>,
}

fn split_lines(created: &Created, side: &str, lines: &[Line], at: DateTime<Utc>) -> Split {
    let mut sp = Split {
        game_lines: Vec::new(),
        referee: Vec::new(),
        absent: None,
    };
    for l in lines {
        let req = match lines::parse(&l.text) {
            None => {
                sp.game_lines.push(l.clone());
                continue;
            }
            Some(Err(bad)) => {
                sp.referee.push(CommandResult {
                    line: l.number,
                    outcome: CommandOutcome::Refused {
                        reason: bad.reason,
                        rule: lines::RULE.into(),
                        instead: bad.instead,
                    },
                });
                continue;
            }
            Some(Ok(req)) => req,
        };
        let outcome = match req {
            lines::RefereeRequest::Report => CommandOutcome::Accepted {
                understood: "report: the current report is mailed to you".into(),
            },
            lines::RefereeRequest::Template => CommandOutcome::Accepted {
                understood: "template: the orders template you may send now is mailed to you"
                    .into(),
            },
            lines::RefereeRequest::Absent { until } => {
                let limit = at
                    .checked_add_signed(chrono::Duration::days(created.max_absence_days.into()))
                    .unwrap_or(at);
                if until <= at {
                    sp.absent = Some(None);
                    CommandOutcome::Accepted {
                        understood: format!(
                            "absent until {}: that time has passed, so your absence ends now and deadlines run as usual",
                            until.to_rfc3339()
                        ),
                    }
                } else if until > limit {
                    CommandOutcome::Refused {
                        reason: format!(
                            "absent until {} is more than {} days from now: an absence is bounded",
                            until.to_rfc3339(),
                            created.max_absence_days
                        ),
                        rule: "docs/deadlines.md \"Absence\"".into(),
                        instead: format!(
                            "absent until {} (or ask the referee to pause the game)",
                            limit.format("%Y-%m-%dT%H:%M:%SZ")
                        ),
                    }
                } else {
                    sp.absent = Some(Some(until.to_rfc3339()));
                    CommandOutcome::Accepted {
                        understood: format!(
                            "absent until {}: side {side}'s deadlines wait for you until then",
                            until.to_rfc3339()
                        ),
                    }
                }
            }
        };
        sp.referee.push(CommandResult {
            line: l.number,
            outcome,
        });
    }
    sp
}

/// Runs the game's share of a split submission and merges the referee's answers, in line order.
fn submit_split(
    game: &dyn AnyGame,
    state: &mut AnyState,
    from: Sender<'_>,
    sp: &Split,
    dice: &mut dyn DiceSource,
) -> Outcome {
    let mut o = if sp.game_lines.is_empty() {
        Outcome::default()
    } else {
        game.submit(state, from, &sp.game_lines, dice)
    };
    o.results.extend(sp.referee.iter().cloned());
    o.results.sort_by_key(|r| r.line);
    o
}

/// Records an absence a submission declared.
fn note_absence<S>(d: &mut Derived<S>, key: String, absent: &Option<Option<String>>) {
    match absent {
        Some(Some(until)) => {
            d.absent.insert(key, until.clone());
        }
        Some(None) => {
            d.absent.remove(&key);
        }
        None => {}
    }
}

/// `SIDE=ADDRESS:PUBKEY`.
pub fn parse_player(arg: &str) -> Result<Player, String> {
    let (side, rest) = arg.split_once('=').ok_or_else(|| {
        format!("`{arg}`: write SIDE=ADDRESS:PUBKEY, e.g. allies=ann@example.org:ed25519:AbC…")
    })?;
    let (address, key) = rest.split_once(':').ok_or_else(|| {
        format!("`{arg}`: no public key after the address: write SIDE=ADDRESS:PUBKEY")
    })?;
    if side.is_empty() || !address.contains('@') {
        return Err(format!(
            "`{arg}`: `{side}` / `{address}` is not a side and a mail address"
        ));
    }
    crate::crypto::parse_public_key(key).map_err(|e| {
        format!("`{arg}`: the public key is not usable ({e}); copy the last line `dustmail keygen` printed")
    })?;
    Ok(Player {
        side: side.to_string(),
        address: address.to_string(),
        public_key: key.to_string(),
    })
}

/// The control commands, as written after `dustmail control GAME` or in a referee mail.
pub const CONTROL_FORMS: &str =
    "pause | resume | extend HOURS | replace-key SIDE=ADDRESS:PUBKEY | observe ADDRESS | unobserve ADDRESS";

/// Reads one control command.
pub fn parse_control(text: &str) -> Result<ControlAction, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let first = lower.first().map(String::as_str).unwrap_or("");
    match (first, &words[..]) {
        ("pause", [_]) => Ok(ControlAction::Pause),
        ("resume", [_]) => Ok(ControlAction::Resume),
        ("extend", [_, h]) => match h.parse::<u32>() {
            Ok(hours) if (1..=8760).contains(&hours) => Ok(ControlAction::Extend { hours }),
            _ => Err(format!(
                "`extend {h}`: give a whole number of hours from 1 to 8760, like `extend 24`"
            )),
        },
        ("replace-key", [_, p]) => {
            parse_player(p).map(|player| ControlAction::ReplaceKey { player })
        }
        ("observe", [_, a]) if a.contains('@') => Ok(ControlAction::Observe {
            address: a.to_string(),
        }),
        ("unobserve", [_, a]) if a.contains('@') => Ok(ControlAction::Unobserve {
            address: a.to_string(),
        }),
        _ => Err(format!(
            "`{}` is not a referee command: write one of {CONTROL_FORMS}",
            text.trim()
        )),
    }
}

fn control_refusal(reason: impl Into<String>, instead: impl Into<String>) -> CommandOutcome {
    CommandOutcome::Refused {
        reason: reason.into(),
        rule: "docs/orders.md \"Referee commands\"".into(),
        instead: instead.into(),
    }
}

fn hours_after(t: &str, h: u32) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t)
        .ok()?
        .with_timezone(&Utc)
        .checked_add_signed(chrono::Duration::hours(h.into()))
}

/// Applies one control action to the derived game; the answer restates it or says why not.
fn apply_control<S>(
    created: &Created,
    d: &mut Derived<S>,
    action: &ControlAction,
    at: DateTime<Utc>,
) -> CommandOutcome {
    let ok = |u: String| CommandOutcome::Accepted { understood: u };
    if d.finished.is_some() {
        return control_refusal("the game is over", "nothing: a finished game cannot change");
    }
    match action {
        ControlAction::Pause => {
            if d.paused {
                return control_refusal("the game is already paused", "resume");
            }
            d.paused = true;
            ok("pause: no deadline runs, no reminder or default is sent until `resume`; orders are still taken".into())
        }
        ControlAction::Resume => {
            if !d.paused {
                return control_refusal("the game is not paused", "pause");
            }
            d.paused = false;
            d.last_step_at = at.to_rfc3339();
            let due = if created.deadline_hours == 0 {
                "no deadlines in this game".to_string()
            } else {
                format!(
                    "the deadline counts afresh from now: {}",
                    hours_after(&d.last_step_at, created.deadline_hours)
                        .map(|t| t.to_rfc3339())
                        .unwrap_or_default()
                )
            };
            ok(format!("resume: {due}"))
        }
        ControlAction::Extend { hours } => {
            if d.paused {
                return control_refusal(
                    "the game is paused: no deadline runs to extend",
                    "resume (it gives every side a full deadline), then extend if needed",
                );
            }
            let Some(moved) = hours_after(&d.last_step_at, *hours) else {
                return control_refusal("the deadline cannot move that far", "extend 24");
            };
            d.last_step_at = moved.to_rfc3339();
            match deadline_of(created, d) {
                Some(t) => ok(format!(
                    "extend {hours}: the deadline is now {}",
                    t.to_rfc3339()
                )),
                None => ok(format!("extend {hours}: this game has no deadlines")),
            }
        }
        ControlAction::ReplaceKey { player } => {
            if d.players.is_empty() {
                d.players = created.players.clone();
            }
            let same_side: Vec<usize> = d
                .players
                .iter()
                .enumerate()
                .filter(|(_, p)| p.side == player.side)
                .map(|(i, _)| i)
                .collect();
            let target = match same_side.as_slice() {
                [] => {
                    let sides: Vec<&str> = created.setup.sides.iter().map(String::as_str).collect();
                    return control_refusal(
                        format!("side `{}` does not play in this game", player.side),
                        format!(
                            "replace-key SIDE=ADDRESS:PUBKEY with SIDE one of {}",
                            sides.join(", ")
                        ),
                    );
                }
                [one] => *one,
                many => match many
                    .iter()
                    .find(|i| d.players[**i].address == player.address)
                {
                    Some(i) => *i,
                    None => {
                        let addrs: Vec<&str> = many
                            .iter()
                            .map(|i| d.players[*i].address.as_str())
                            .collect();
                        return control_refusal(
                            format!(
                                "side {} has several players: the address names whose key is replaced, and `{}` is not one of them",
                                player.side, player.address
                            ),
                            format!("replace-key {}=ADDRESS:PUBKEY with ADDRESS one of {}", player.side, addrs.join(", ")),
                        );
                    }
                },
            };
            if d.players.iter().enumerate().any(|(i, p)| {
                i != target && (p.public_key == player.public_key || p.address == player.address)
            }) {
                return control_refusal(
                    "another player of this game already has that key or address",
                    "replace-key with the new key and address of this player alone",
                );
            }
            let old = d.players[target].clone();
            // The seq and absence stay with the player (a solo side keeps its side key).
            d.players[target] = player.clone();
            ok(format!(
                "replace-key: side {}'s player {} now signs with {} and gets mail at {}{}",
                player.side,
                old.address,
                player.public_key,
                player.address,
                if old.address != player.address {
                    ""
                } else {
                    " (same address)"
                }
            ))
        }
        ControlAction::Observe { address } => {
            if d.observers.contains(address) {
                return control_refusal(
                    format!("{address} already observes this game"),
                    format!("unobserve {address}"),
                );
            }
            d.observers.push(address.clone());
            d.observers.sort();
            ok(format!(
                "observe {address}: they get every report and can send nothing"
            ))
        }
        ControlAction::Unobserve { address } => {
            if !d.observers.contains(address) {
                return control_refusal(
                    format!("{address} does not observe this game"),
                    format!("observe {address}"),
                );
            }
            d.observers.retain(|a| a != address);
            ok(format!("unobserve {address}: they get no more reports"))
        }
    }
}

/// Parses and applies control lines: the actions applied and a result per line. A refused line
/// changes nothing; the lines before it stand.
fn control_lines<S>(
    created: &Created,
    d: &mut Derived<S>,
    lines: &[Line],
    at: DateTime<Utc>,
) -> (Vec<ControlAction>, Vec<CommandResult>) {
    let mut actions = Vec::new();
    let mut results = Vec::new();
    for l in lines {
        let outcome = match parse_control(&l.text) {
            Ok(a) => {
                let o = apply_control(created, d, &a, at);
                if matches!(o, CommandOutcome::Accepted { .. }) {
                    actions.push(a);
                }
                o
            }
            Err(reason) => control_refusal(reason, CONTROL_FORMS),
        };
        results.push(CommandResult {
            line: l.number,
            outcome,
        });
    }
    (actions, results)
}

/// The lines of a server control command.
fn command_lines(command: &str) -> Vec<Line> {
    vec![Line {
        number: 1,
        text: command.to_string(),
    }]
}

/// The players who answer an awaited decision: in a team, those commanding a unit its options
/// name (`activate rangers`, `react hotdog`); every player of the side when the options name
/// none of the side's assigned units (`first allies`, `react none`).
pub fn deciders<'a>(
    created: &Created,
    players: &'a [Player],
    a: &crate::game::Awaiting,
) -> Vec<&'a Player> {
    let of_side: Vec<&Player> = players.iter().filter(|p| p.side == a.side).collect();
    if of_side.len() < 2 {
        return of_side;
    }
    let named: Vec<&String> = a
        .options
        .iter()
        .filter_map(|o| o.split_whitespace().nth(1))
        .filter_map(|u| created.assignments.get(u.trim_end_matches(':')))
        .collect();
    let some: Vec<&Player> = of_side
        .iter()
        .copied()
        .filter(|p| named.contains(&&p.address))
        .collect();
    if some.is_empty() {
        of_side
    } else {
        some
    }
}

/// When `side`'s current decision falls due: the game's deadline, but not before the end of an
/// absence of one of the side's players. `None` when paused, finished or without deadlines.
pub fn side_deadline<S>(created: &Created, d: &Derived<S>, side: &str) -> Option<DateTime<Utc>> {
    let due = deadline_of(created, d)?;
    let players = d.players(created);
    let away = players
        .iter()
        .filter(|p| p.side == side)
        .filter_map(|p| d.absent.get(&player_key(players, p)))
        .filter_map(|t| DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.with_timezone(&Utc))
        .max();
    Some(away.map_or(due, |a| a.max(due)))
}

fn parse_time(t: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}
