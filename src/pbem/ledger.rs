//! The append-only, hash-chained game ledger of DESIGN §5: `games/<id>/log.jsonl`.
//!
//! One JSON object per line: `seq` (1-based, equal to the line number), `prev` (hex SHA-256 of the
//! previous line's bytes without its newline; 64 zeros on line 1) and `kind`. Appends are written
//! and fsync'ed before the caller queues any mail about them.

use crate::game::{Audience, CommandResult, GameResult, Happening, Outcome, Roll, Setup};
use ed25519_dalek::SigningKey;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

pub const ZERO_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";
pub const LOG_FILE: &str = "log.jsonl";
/// The largest `seq:` a signed block may carry (10^12: a mail a second for 30,000 years). A
/// larger one is refused, so nobody can push a side's seq to u64::MAX and lock it out, and seq
/// arithmetic cannot overflow.
pub const MAX_SEQ: u64 = 1_000_000_000_000;

/// Hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Hex SHA-256 of the canonical JSON of a state (serde_json with sorted maps, no spaces).
pub fn state_digest<S: Serialize>(state: &S) -> String {
    // serde_json::Value keeps maps sorted (no preserve_order feature), so this is canonical.
    let v = serde_json::to_value(state).unwrap_or(serde_json::Value::Null);
    sha256_hex(v.to_string().as_bytes())
}

/// One line of the ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub seq: u64,
    pub prev: String,
    #[serde(flatten)]
    pub event: Event,
    /// v2 ledgers: the referee's signature over the line without this member (always the
    /// line's last member; see [`split_referee_sig`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub referee_sig: Option<String>,
}

/// The dice version of new games (DESIGN §5 dice v2; `created` lines without it are v1).
pub const DICE_VERSION: u32 = 2;

/// Domain tag of the referee's signature over a ledger line (v2): it signs this tag, a newline,
/// then the line's bytes without its `referee_sig` member.
pub const LINE_SIG_TAG: &str = "dustmail/ledger-line/v2";

/// The text the referee signs for a line whose bytes (without `referee_sig`) are `unsigned`.
pub fn line_sig_text(unsigned: &str) -> String {
    format!("{LINE_SIG_TAG}\n{unsigned}")
}

pub(crate) const SIG_MEMBER: &str = ",\"referee_sig\":\"";

/// Splits a signed line into (the line without its `referee_sig` member, the signature), or
/// None when the line does not end with that member. Inside JSON strings a quote is escaped, so
/// the member's text cannot be faked by a value.
pub fn split_referee_sig(line: &str) -> Option<(String, &str)> {
    let body = line.strip_suffix("\"}")?;
    let i = body.rfind(SIG_MEMBER)?;
    let sig = &body[i + SIG_MEMBER.len()..];
    if sig.is_empty() || sig.contains(['"', '\\']) {
        return None;
    }
    Some((format!("{}}}", &body[..i]), sig))
}

fn dice_v1() -> u32 {
    1
}

fn is_dice_v1(v: &u32) -> bool {
    *v == 1
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    Created(Box<Created>),
    Submission(Box<Submission>),
    Deadline(Box<Deadline>),
    RoundEnd(RoundEnd),
    Finished(Finished),
    Control(Box<Control>),
    /// A digest game's run boundary (issue 17 item 3; `crate::pbem::digest`).
    Digest(DigestLine),
}

/// A player's side as registered at creation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub side: String,
    pub address: String,
    /// `ed25519:<base64>`.
    pub public_key: String,
}

/// Everything a replay needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Created {
    pub engine_version: String,
    pub game: String,
    pub game_id: String,
    pub ruleset: String,
    pub setup: Setup,
    pub players: Vec<Player>,
    pub referee_address: String,
    pub referee_public_key: String,
    /// Hex K_0.
    pub commitment: String,
    pub max_rounds: u32,
    pub deadline_hours: u32,
    pub reminder_hours: u32,
    pub grace_hours: u32,
    /// RFC 3339.
    pub created_at: String,
    /// Team games: unit id → address of the player commanding it (every unit of a side with
    /// several players). Empty when each side has one player.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub assignments: BTreeMap<String, String>,
    /// The longest `absent until` a player may declare, in days from the mail.
    #[serde(default = "default_absence_days")]
    pub max_absence_days: u32,
    /// 1 (absent): dice keyed by the line's seq, no referee line signatures. 2: dice v2 and
    /// every line signed by the referee (`src/seed.rs`, docs/ledger.md).
    #[serde(default = "dice_v1", skip_serializing_if = "is_dice_v1")]
    pub dice_version: u32,
    /// Hex C_H, the commitment to the hidden secret H (`src/seed.rs`); absent in games made
    /// before hidden values existed, which cannot draw any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_commitment: Option<String>,
    /// A game opened by a campaign (DESIGN §6): the campaign's id and its ledger head when the
    /// game was opened. Absent outside campaigns, so older ledgers replay byte for byte.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<CampaignRef>,
    /// One report per reader per run (`new --digest`, issue 17 item 3): the run records a
    /// `digest` line and mails from it. Absent (false) in every other game.
    #[serde(default, skip_serializing_if = "is_false")]
    pub digest: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The campaign a game belongs to, as its `created` line records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignRef {
    pub id: String,
    /// The campaign ledger's head (seq and hex hash of that line) when the game was opened.
    pub seq: u64,
    pub head: String,
}

fn default_absence_days() -> u32 {
    14
}

/// One random value as drawn, in order. A d6 is `{"round":r,"face":f}` (as ever, byte for
/// byte); a `uniform` value adds `kind`, `bound` (n) and `value` (in 0..n) and has no face; a
/// `hidden` value also has its `audience` and round 0 (no round key keys it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    pub round: u32,
    #[serde(default, skip_serializing_if = "is_no_face")]
    pub face: u8,
    #[serde(default, skip_serializing_if = "DrawKind::is_d6")]
    pub kind: DrawKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Audience>,
}

fn is_no_face(f: &u8) -> bool {
    *f == 0
}

/// Which stream and mapping a draw came from (`crate::seed`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawKind {
    #[default]
    D6,
    Uniform,
    Hidden,
}

impl DrawKind {
    fn is_d6(&self) -> bool {
        *self == DrawKind::D6
    }
}

impl Draw {
    pub fn d6(round: u32, face: u8) -> Draw {
        Draw {
            round,
            face,
            kind: DrawKind::D6,
            bound: None,
            value: None,
            audience: None,
        }
    }
    pub fn uniform(round: u32, bound: u32, value: u32) -> Draw {
        Draw {
            round,
            face: 0,
            kind: DrawKind::Uniform,
            bound: Some(bound),
            value: Some(value),
            audience: None,
        }
    }
    pub fn hidden(audience: Audience, bound: u32, value: u32) -> Draw {
        Draw {
            round: 0,
            face: 0,
            kind: DrawKind::Hidden,
            bound: Some(bound),
            value: Some(value),
            audience: Some(audience),
        }
    }
    /// What an auditor reads: the face of a d6, else the value.
    pub fn shown(&self) -> u32 {
        match self.kind {
            DrawKind::D6 => u32::from(self.face),
            _ => self.value.unwrap_or(0),
        }
    }
}

/// What a step (submission or deadline default) did to the game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    #[serde(default)]
    pub results: Vec<CommandResult>,
    #[serde(default)]
    pub happenings: Vec<Happening>,
    #[serde(default)]
    pub rounds_ended: Vec<u32>,
    #[serde(default)]
    pub finished: Option<GameResult>,
    /// Every roll of the happenings, flattened, for auditors.
    #[serde(default)]
    pub rolls: Vec<Roll>,
    /// Every die drawn, in order (the event id is the line's seq).
    #[serde(default)]
    pub draws: Vec<Draw>,
}

impl Step {
    /// A step that did nothing: no result, happening, die, round end or end.
    pub fn is_empty(&self) -> bool {
        *self == Step::default()
    }

    pub fn from_outcome(o: Outcome, draws: Vec<Draw>) -> Step {
        let rolls = o.happenings.iter().flat_map(|h| h.rolls.clone()).collect();
        Step {
            results: o.results,
            happenings: o.happenings,
            rounds_ended: o.rounds_ended,
            finished: o.finished,
            rolls,
            draws,
        }
    }
}

/// A signed submission, accepted or refused, recorded verbatim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submission {
    pub side: String,
    /// The player's seq (from the signed text); 0 when it could not be read.
    pub player_seq: u64,
    pub canonical: String,
    pub signature: String,
    pub mail_sha256: String,
    /// Index of the block inside the mail.
    pub block: usize,
    #[serde(default)]
    pub message_id: Option<String>,
    #[serde(default)]
    pub reply_to: Option<String>,
    #[serde(default)]
    pub no_reply: Option<String>,
    pub accepted: bool,
    /// Why the whole submission was refused (signature, seq, finished game…).
    #[serde(default)]
    pub refusal: Option<Refusal>,
    pub round: u32,
    pub at: String,
    /// In a team side: the address of the player whose key signed (their units, their seq).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// v2, accepted: the game step this submission is (the n of the dice v2 key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
    /// A block not signed by a key registered for the game, or larger than
    /// [`MAX_SUBMISSION_BYTES`], is not recorded verbatim: `canonical` and `signature` are empty
    /// and this is the hex SHA-256 of the block ([`block_digest`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// With `digest`: the block's size in bytes (canonical text and signature).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    #[serde(flatten)]
    pub step: Step,
}

/// The most canonical text one signed submission may carry (64 KiB); a larger one is refused
/// and recorded as a digest, so no player can grow a ledger by much in one mail.
pub const MAX_SUBMISSION_BYTES: usize = 64 * 1024;

/// Hex SHA-256 of a block as recorded in digest form: the canonical text, a newline, the
/// signature as it came (base64, whitespace removed).
pub fn block_digest(canonical: &str, signature: &str) -> String {
    sha256_hex(format!("{canonical}\n{signature}").as_bytes())
}

/// Why a submission was refused as a whole: what was wrong, the rule, what to send instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    pub reason: String,
    pub rule: String,
    pub instead: String,
}

impl Refusal {
    pub fn new(
        reason: impl Into<String>,
        rule: impl Into<String>,
        instead: impl Into<String>,
    ) -> Refusal {
        Refusal {
            reason: reason.into(),
            rule: rule.into(),
            instead: instead.into(),
        }
    }
}

/// Defaults applied when a side let its deadline pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deadline {
    pub side: String,
    pub round: u32,
    pub at: String,
    /// v2: the game step (n of the dice v2 key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
    /// v2: the side's deadline (RFC 3339) that the recorded settings and times give; `at` is
    /// no earlier than it plus the grace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due: Option<String>,
    /// v2: the referee's signature over the step's cause ([`deadline_cause`]); its SHA-256 is
    /// the A of the dice v2 key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause_sig: Option<String>,
    #[serde(flatten)]
    pub step: Step,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundEnd {
    pub round: u32,
    /// Hex K_r.
    pub key: String,
    pub state_digest: String,
}

/// The steps one digest mail per reader tells (a game made with `digest`): lines `from` (the
/// first step line since the last digest) to `to` (the line before this one). Recorded when the
/// run commits, so the mails re-made after a crash are made from the same boundaries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DigestLine {
    pub from: u64,
    pub to: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finished {
    pub result: GameResult,
    /// Hex S, revealed at the end.
    pub secret: String,
    pub state_digest: String,
    /// Hex H, revealed at the end of a game whose `created` line has `hidden_commitment`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<String>,
}

/// A referee action on a game: from the `dustmail control` command on the server, or from a
/// mail signed with the referee's key (`side: referee`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Control {
    /// `server` or `mail`.
    pub by: String,
    pub at: String,
    /// The actions, in order; a refused line of a mail has none here (see `results`).
    pub actions: Vec<ControlAction>,
    /// Per line of a mail (or the one server command): what was understood or refused.
    #[serde(default)]
    pub results: Vec<CommandResult>,
    /// The command as typed on the server, when `by` is `server`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The signed mail, when `by` is `mail`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signed: Option<SignedControl>,
    /// v2, when an action applied: the game step this control is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
    /// v2, when the control's step did something (lines held for a battle fought elsewhere ran):
    /// the referee's signature over [`control_cause`]; its SHA-256 is the A of the dice v2 key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause_sig: Option<String>,
    /// What the control's step did beyond its actions (the held lines' results, happenings and
    /// dice, rounds ended, the end); absent when it did nothing, as in every older control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<Step>,
    /// A digest game's control whose step ran (ruling R342): its step is told in the next
    /// digest, which covers this line. Absent (false) on every older control line.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_digest: bool,
}

/// The text whose referee signature keys a control's dice (v2): the game and the step alone,
/// so the referee has exactly one signature to give and cannot grind (as [`deadline_cause`]).
pub fn control_cause(game_id: &str, n: u64) -> String {
    format!("dustmail/cause/v2\ngame: {game_id}\nn: {n}\nkind: control")
}

/// The text whose referee signature keys a deadline default's dice (v2): only what the recorded
/// settings fix, never the wall clock of the run or the outcome, so the referee (whose ed25519
/// signatures are deterministic) has exactly one signature to give and cannot grind.
pub fn deadline_cause(game_id: &str, n: u64, side: &str, round: u32, due: &str) -> String {
    format!(
        "dustmail/cause/v2\ngame: {game_id}\nn: {n}\nkind: deadline\nside: {side}\nround: {round}\ndue: {due}"
    )
}

/// The referee's signed block, recorded verbatim so an auditor can check it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedControl {
    pub seq: u64,
    pub canonical: String,
    pub signature: String,
    pub mail_sha256: String,
    pub block: usize,
    #[serde(default)]
    pub message_id: Option<String>,
    #[serde(default)]
    pub reply_to: Option<String>,
    #[serde(default)]
    pub no_reply: Option<String>,
}

/// What the referee may do to a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ControlAction {
    /// Deadlines, reminders and defaults stop; orders are still taken.
    Pause,
    /// Deadlines run again, counted afresh from the resume.
    Resume,
    /// The current deadline moves later by this many hours.
    Extend {
        hours: u32,
    },
    /// A player's key (and address) is replaced: the player of `side` with this address, or
    /// the only player of the side.
    ReplaceKey {
        player: Player,
    },
    /// This address receives every report and can send nothing.
    Observe {
        address: String,
    },
    Unobserve {
        address: String,
    },
    /// The player of `side` is away until `until` (RFC 3339): the absence a campaign's player
    /// declared once for all its games (docs/campaigns.md "Absences"), as a signed
    /// `absent until` line does in one game. A time already past ends the absence.
    Absent {
        side: String,
        until: String,
    },
    /// The result of a battle the game waits for, fought elsewhere (issue 15: a strategic
    /// campaign's table), handed to the game ([`crate::game::Game::decide`]).
    Decide {
        text: String,
    },
}

/// The last line's seq and hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    pub seq: u64,
    pub hash: String,
}

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{file} line {line} is torn (it has no newline at its end): a run was interrupted while writing it and no mail was sent about it; the next `dustmail run` removes it (or remove that partial last line yourself)")]
    Torn { file: String, line: u64 },
    #[error("{file} line {line}: {msg}")]
    Corrupt {
        file: String,
        line: u64,
        msg: String,
    },
    #[error("{0} already exists: choose another game id")]
    Exists(String),
    #[error("{0} is empty: it has no `created` line, so the game cannot be read")]
    Empty(String),
    #[error("{0}: this game's lines are signed by the referee and no signing key was given: nothing was appended")]
    Unsigned(String),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LedgerError + '_ {
    move |source| LedgerError::Io {
        path: path.display().to_string(),
        source,
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Signs a text with the referee's key, base64 (the pipeline's `Edges::sign_text`).
pub type LineSigner = fn(&SigningKey, &str) -> String;

/// An open ledger, ready to append.
#[derive(Debug)]
pub struct Ledger {
    path: PathBuf,
    head: Head,
    /// False in a batch ([`Ledger::defer_sync`]): the batch makes the appends durable.
    sync_each: bool,
    /// v2: every appended line carries `referee_sig`.
    signer: Option<(SigningKey, LineSigner)>,
    /// v2: appending without a signer is an error, never an unsigned line.
    signed: bool,
}

impl Ledger {
    /// Creates `dir/log.jsonl` with its `created` line; fsyncs the file and the directory.
    pub fn create(dir: &Path, created: Created) -> Result<Ledger, LedgerError> {
        Self::create_with(dir, created, None)
    }

    /// [`Ledger::create`] for a v2 game: every line, `created` first, is signed with `key`.
    pub fn create_signed(
        dir: &Path,
        created: Created,
        key: SigningKey,
        sign: LineSigner,
    ) -> Result<Ledger, LedgerError> {
        Self::create_with(dir, created, Some((key, sign)))
    }

    fn create_with(
        dir: &Path,
        created: Created,
        signer: Option<(SigningKey, LineSigner)>,
    ) -> Result<Ledger, LedgerError> {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let path = dir.join(LOG_FILE);
        if path.exists() {
            return Err(LedgerError::Exists(path.display().to_string()));
        }
        let mut l = Ledger {
            path,
            head: Head {
                seq: 0,
                hash: ZERO_HASH.into(),
            },
            sync_each: true,
            signed: signer.is_some(),
            signer,
        };
        l.append(Event::Created(Box::new(created)))?;
        // The new file's directory entry, and the directory's own entry in games/.
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(io(dir))?;
        if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
            File::open(parent)
                .and_then(|d| d.sync_all())
                .map_err(io(parent))?;
        }
        Ok(l)
    }

    /// Opens an existing ledger, reading only its last line.
    pub fn open(path: &Path) -> Result<Ledger, LedgerError> {
        let (line_no, bytes) = read_last_line(path)?;
        let entry: Entry = serde_json::from_slice(&bytes).map_err(|e| LedgerError::Corrupt {
            file: file_name(path),
            line: line_no,
            msg: format!("not a ledger entry ({e})"),
        })?;
        Ok(Ledger {
            path: path.to_path_buf(),
            head: Head {
                seq: entry.seq,
                hash: sha256_hex(&bytes),
            },
            sync_each: true,
            signer: None,
            signed: false,
        })
    }

    /// A v2 game: from now on an append without [`Ledger::sign_with`] is refused.
    pub fn require_signatures(&mut self) {
        self.signed = true;
    }

    /// Every line appended from now on carries the referee's `referee_sig`.
    pub fn sign_with(&mut self, key: SigningKey, sign: LineSigner) {
        self.signer = Some((key, sign));
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn head(&self) -> &Head {
        &self.head
    }

    /// The seq the next appended line will get (dice event ids are taken from it).
    pub fn next_seq(&self) -> u64 {
        self.head.seq + 1
    }

    /// Appends stop fsyncing: the caller (a batch `run`) makes them durable together, before
    /// anything about them is mailed and before their source mails leave the Maildir. A kill
    /// cannot lose a written line; a power loss before that sync can only lose a tail, whose
    /// mails are still in the Maildir (a torn last line is repaired by [`truncate_torn_tail`]).
    pub fn defer_sync(&mut self) {
        self.sync_each = false;
    }

    /// True unless [`Ledger::defer_sync`] was called.
    pub fn syncs_each(&self) -> bool {
        self.sync_each
    }

    /// Appends one line and fsyncs it (unless deferred); returns the new head.
    pub fn append(&mut self, event: Event) -> Result<Head, LedgerError> {
        let entry = Entry {
            seq: self.next_seq(),
            prev: self.head.hash.clone(),
            event,
            referee_sig: None,
        };
        let mut line = serde_json::to_string(&entry).map_err(|e| LedgerError::Corrupt {
            file: file_name(&self.path),
            line: entry.seq,
            msg: format!("cannot serialise the entry: {e}"),
        })?;
        match &self.signer {
            Some((key, sign)) => {
                // The signature is over the line as written without it; it goes last, so an
                // auditor removes exactly that member to get the signed bytes back.
                let sig = sign(key, &line_sig_text(&line));
                line.pop();
                line.push_str(&format!("{SIG_MEMBER}{sig}\"}}"));
            }
            None if self.signed => {
                return Err(LedgerError::Unsigned(self.path.display().to_string()))
            }
            None => {}
        }
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(io(&self.path))?;
        let mut buf = line.clone().into_bytes();
        buf.push(b'\n');
        f.write_all(&buf).map_err(io(&self.path))?;
        if self.sync_each {
            f.sync_all().map_err(io(&self.path))?;
        }
        self.head = Head {
            seq: entry.seq,
            hash: sha256_hex(line.as_bytes()),
        };
        Ok(self.head.clone())
    }
}

/// Reads the last line (line number, bytes without newline) by seeking from the end.
pub fn read_last_line(path: &Path) -> Result<(u64, Vec<u8>), LedgerError> {
    let mut f = File::open(path).map_err(io(path))?;
    let len = f.seek(SeekFrom::End(0)).map_err(io(path))?;
    if len == 0 {
        return Err(LedgerError::Empty(path.display().to_string()));
    }
    // Read backwards in chunks until the newline that ends the previous line.
    let mut tail: Vec<u8> = Vec::new();
    let mut pos = len;
    let start_of_last = loop {
        let chunk = 4096.min(pos);
        pos -= chunk;
        f.seek(SeekFrom::Start(pos)).map_err(io(path))?;
        let mut buf = vec![0u8; chunk as usize];
        f.read_exact(&mut buf).map_err(io(path))?;
        buf.extend_from_slice(&tail);
        tail = buf;
        // Skip the final byte (the last line's own newline) when searching.
        let search = &tail[..tail.len().saturating_sub(1)];
        if let Some(i) = search.iter().rposition(|&b| b == b'\n') {
            break i + 1;
        }
        if pos == 0 {
            break 0;
        }
    };
    let last = &tail[start_of_last..];
    // The line number: the seq inside it, cross-checked by a parse; torn lines are counted.
    let seq_hint =
        serde_json::from_slice::<serde_json::Value>(last.strip_suffix(b"\n").unwrap_or(last))
            .ok()
            .and_then(|v| v.get("seq").and_then(|s| s.as_u64()));
    if last.last() != Some(&b'\n') {
        // Torn: count lines to name it exactly.
        let n = count_lines(path)?;
        return Err(LedgerError::Torn {
            file: file_name(path),
            line: n,
        });
    }
    let bytes = last[..last.len() - 1].to_vec();
    let line = match seq_hint {
        Some(s) => s,
        None => count_lines(path)?,
    };
    Ok((line, bytes))
}

/// Removes a torn last line (bytes after the last newline), fsyncs, and says how many bytes went.
/// For the writer only, under the run lock: readers report a torn line instead.
pub fn truncate_torn_tail(path: &Path) -> Result<Option<u64>, LedgerError> {
    let mut f = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(io(path))?;
    let len = f.seek(SeekFrom::End(0)).map_err(io(path))?;
    if len == 0 {
        return Ok(None);
    }
    // Find the last newline, reading backwards in chunks.
    let mut pos = len;
    let mut keep = 0u64;
    while pos > 0 {
        let chunk = 4096.min(pos);
        pos -= chunk;
        f.seek(SeekFrom::Start(pos)).map_err(io(path))?;
        let mut buf = vec![0u8; chunk as usize];
        f.read_exact(&mut buf).map_err(io(path))?;
        if let Some(i) = buf.iter().rposition(|&b| b == b'\n') {
            keep = pos + i as u64 + 1;
            break;
        }
    }
    if keep == len {
        return Ok(None);
    }
    f.set_len(keep).map_err(io(path))?;
    f.sync_all().map_err(io(path))?;
    Ok(Some(len - keep))
}

fn count_lines(path: &Path) -> Result<u64, LedgerError> {
    let data = std::fs::read(path).map_err(io(path))?;
    let nl = data.iter().filter(|&&b| b == b'\n').count() as u64;
    Ok(if data.last() == Some(&b'\n') {
        nl
    } else {
        nl + 1
    })
}

/// Reads and checks the whole log: every line parses, seq equals the line number, `prev` is the
/// hash of the previous line, line 1 is `created`. Errors name the line.
pub fn read_all(path: &Path) -> Result<Vec<Entry>, LedgerError> {
    let data = std::fs::read(path).map_err(io(path))?;
    parse_log(&file_name(path), &data)
}

/// [`read_all`] on bytes already in memory; `file` names the log in errors.
pub fn parse_log(file: &str, data: &[u8]) -> Result<Vec<Entry>, LedgerError> {
    if data.is_empty() {
        return Err(LedgerError::Empty(file.to_string()));
    }
    let corrupt = |line: u64, msg: String| LedgerError::Corrupt {
        file: file.to_string(),
        line,
        msg,
    };
    let mut entries = Vec::new();
    let mut prev_hash = ZERO_HASH.to_string();
    let mut rest = data;
    let mut n = 0u64;
    while !rest.is_empty() {
        n += 1;
        let (line, next) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => {
                return Err(LedgerError::Torn {
                    file: file.to_string(),
                    line: n,
                })
            }
        };
        rest = next;
        let entry: Entry = serde_json::from_slice(line).map_err(|e| {
            corrupt(
                n,
                format!("not a valid ledger entry ({e}): the line was altered or damaged"),
            )
        })?;
        if entry.seq != n {
            return Err(corrupt(
                n,
                format!(
                    "seq is {} but this is line {n}: lines were removed, added or reordered",
                    entry.seq
                ),
            ));
        }
        if entry.prev != prev_hash {
            return Err(corrupt(
                n,
                if n == 1 {
                    "prev hash of the first line is not 64 zeros".to_string()
                } else {
                    format!("prev hash does not match line {}", n - 1)
                },
            ));
        }
        match (&entry.event, n) {
            (Event::Created(_), 1) => {}
            (Event::Created(_), _) => return Err(corrupt(n, "a second `created` line".into())),
            (_, 1) => return Err(corrupt(n, "the first line is not `created`".into())),
            _ => {}
        }
        prev_hash = sha256_hex(line);
        entries.push(entry);
    }
    Ok(entries)
}

/// The file beside the ledger that records its size, modification time and inode when a run
/// last left it verified (written with the snapshot).
pub const STAMP_FILE: &str = "ledger.stamp";

/// `size mtime_ns inode` of a file, or None when it cannot be read.
fn file_stamp(path: &Path) -> Option<String> {
    let m = std::fs::metadata(path).ok()?;
    let mtime = m
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    #[cfg(unix)]
    let ino = std::os::unix::fs::MetadataExt::ino(&m);
    #[cfg(not(unix))]
    let ino = 0u64;
    Some(format!("{} {mtime} {ino}", m.len()))
}

/// Records the ledger of `dir` as it is now as verified (our own appends on a verified chain).
pub fn write_stamp(dir: &Path) -> Result<(), LedgerError> {
    let log = dir.join(LOG_FILE);
    let Some(stamp) = file_stamp(&log) else {
        return Ok(());
    };
    let p = dir.join(STAMP_FILE);
    std::fs::write(&p, stamp).map_err(io(&p))
}

/// True when the ledger of `dir` is exactly as [`write_stamp`] last saw it (same size,
/// modification time and inode): nothing but our own runs touched it since.
pub fn stamp_matches(dir: &Path) -> bool {
    let recorded = std::fs::read_to_string(dir.join(STAMP_FILE)).ok();
    recorded.is_some() && recorded == file_stamp(&dir.join(LOG_FILE))
}

/// Streams the ledger and checks every `seq` and `prev` (no JSON parse: each line starts
/// `{"seq":N,"prev":"<hex>"`), in one pass and constant memory. Errors name the line.
pub fn verify_chain(path: &Path) -> Result<(), LedgerError> {
    use std::io::BufRead;
    let f = File::open(path).map_err(io(path))?;
    let mut r = std::io::BufReader::with_capacity(1 << 16, f);
    let file = file_name(path);
    let mut prev = ZERO_HASH.to_string();
    let mut line = Vec::new();
    let mut n = 0u64;
    loop {
        line.clear();
        if r.read_until(b'\n', &mut line).map_err(io(path))? == 0 {
            return Ok(());
        }
        n += 1;
        if line.pop() != Some(b'\n') {
            return Err(LedgerError::Torn { file, line: n });
        }
        let want = format!("{{\"seq\":{n},\"prev\":\"{prev}\"");
        if !line.starts_with(want.as_bytes()) {
            return Err(LedgerError::Corrupt {
                file,
                line: n,
                msg: if n == 1 {
                    "the first line does not start the chain".into()
                } else {
                    format!(
                        "its seq or prev hash does not match line {}: the ledger was changed by hand since the last run",
                        n - 1
                    )
                },
            });
        }
        prev = sha256_hex(&line);
    }
}
