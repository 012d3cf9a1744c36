//! Shared test helpers: a toy game implementing `Game`, fake mail/crypto edges (the real ones are
//! placeholders until crypto.rs and mail.rs land), and a recording outbox.
#![allow(dead_code)]

pub mod dovecot;
pub mod dt;
pub mod own_process;
pub mod smtp;
pub mod webdriver;

use base64::Engine as _;
use chrono::{DateTime, Utc};
use dustmail::config::{Config, Home};
use dustmail::game::{
    Awaiting, CommandOutcome, CommandResult, DiceSource, Game, GameResult, Happening, Line,
    Outcome, Roll, Sender, Setup, SetupError,
};
use dustmail::ledger::Player;
use dustmail::mail::{BlockBody, Incoming, MailError, RawBlock};
use dustmail::outbox::Mail;
use dustmail::referee::{self, Ctx, Edges, MailSink, NewGame};
use dustmail::registry::{AnyGame, Registry};
use dustmail::report::Templates;

/// The games of the test homes: the toy game beside Dust Tactics, as one run serves both.
pub static GAMES: [&dyn AnyGame; 2] = [&Toy, &dustmail::dust_tactics::DustTactics];
use ed25519_dalek::{Signer, SigningKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

// ---------------------------------------------------------------------------------------------
// The toy game: sides take turns sending `add N` (1..=5); each add rolls a die and a hit (1 or 2)
// adds one more; a round ends when both sides have played; first to 10 wins.

pub struct Toy;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToyState {
    pub sides: Vec<String>,
    pub totals: BTreeMap<String, u32>,
    pub turn: usize,
    pub round: u32,
    pub winner: Option<String>,
}

impl Toy {
    fn add(&self, s: &mut ToyState, side: &str, n: u32, dice: &mut dyn DiceSource) -> Outcome {
        let mut o = Outcome::default();
        let face = dice.d6(s.round);
        let bonus = u32::from(face <= 2);
        let total = s.totals.entry(side.to_string()).or_insert(0);
        *total += n + bonus;
        let now = *total;
        o.happenings.push(Happening {
            text: format!(
                "{side} adds {n}{} and has {now}",
                if bonus > 0 { " +1 (hit)" } else { "" }
            ),
            rolls: vec![Roll {
                purpose: "bonus".into(),
                round: s.round,
                faces: vec![face],
            }],
            ..Happening::default()
        });
        if now >= 10 {
            let points = s.totals.clone();
            s.winner = Some(side.to_string());
            o.finished = Some(GameResult {
                winner: Some(side.to_string()),
                reason: "reached 10".into(),
                points,
            });
        }
        s.turn += 1;
        if s.turn.is_multiple_of(s.sides.len().max(1)) {
            o.rounds_ended.push(s.round);
            s.round += 1;
        }
        o
    }
}

impl Game for Toy {
    type State = ToyState;
    fn name(&self) -> &'static str {
        "toy"
    }
    fn setup(&self, setup: &Setup) -> Result<ToyState, SetupError> {
        if setup.sides.len() != 2 {
            return Err(SetupError("the toy game needs two sides".into()));
        }
        Ok(ToyState {
            sides: setup.sides.clone(),
            totals: setup.sides.iter().map(|s| (s.clone(), 0)).collect(),
            turn: 0,
            round: 1,
            winner: None,
        })
    }
    fn sides(&self, s: &ToyState) -> Vec<String> {
        s.sides.clone()
    }
    fn round(&self, s: &ToyState) -> u32 {
        s.round
    }
    fn submit(
        &self,
        s: &mut ToyState,
        from: Sender<'_>,
        lines: &[Line],
        dice: &mut dyn DiceSource,
    ) -> Outcome {
        let side = from.side;
        let mut out = Outcome::default();
        for l in lines {
            let refuse = |reason: &str, instead: &str| CommandResult {
                line: l.number,
                outcome: CommandOutcome::Refused {
                    reason: reason.into(),
                    rule: "toy rules".into(),
                    instead: instead.into(),
                },
            };
            let words: Vec<&str> = l.text.split_whitespace().collect();
            let n = match words.as_slice() {
                ["add", n] => n.parse::<u32>().ok().filter(|n| (1..=5).contains(n)),
                _ => {
                    out.results
                        .push(refuse(&format!("`{}` is not a command", l.text), "add N"));
                    continue;
                }
            };
            let Some(n) = n else {
                out.results.push(refuse("N must be 1 to 5", "add 5"));
                continue;
            };
            if s.winner.is_some() || s.sides.get(s.turn % 2).map(String::as_str) != Some(side) {
                out.results
                    .push(refuse("it is not your turn", "wait for your turn"));
                continue;
            }
            out.results.push(CommandResult {
                line: l.number,
                outcome: CommandOutcome::Accepted {
                    understood: format!("add {n}"),
                },
            });
            let o = self.add(s, side, n, dice);
            out.happenings.extend(o.happenings);
            out.rounds_ended.extend(o.rounds_ended);
            if o.finished.is_some() {
                out.finished = o.finished;
            }
        }
        out
    }
    fn default_for(&self, s: &mut ToyState, side: &str, dice: &mut dyn DiceSource) -> Outcome {
        if s.winner.is_some() || s.sides.get(s.turn % 2).map(String::as_str) != Some(side) {
            return Outcome::default();
        }
        self.add(s, side, 1, dice)
    }
    fn awaiting(&self, s: &ToyState) -> Vec<Awaiting> {
        if s.winner.is_some() {
            return vec![];
        }
        let side = s.sides[s.turn % 2].clone();
        vec![Awaiting {
            side,
            decision: "add".into(),
            options: vec!["add 3".into()],
        }]
    }
    fn view(&self, s: &ToyState, _as_side: Option<&str>) -> serde_json::Value {
        serde_json::to_value(s).unwrap()
    }
    fn board_text(&self, s: &ToyState) -> String {
        s.totals
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join("\n")
    }
    fn orders_template(&self, _s: &ToyState, side: &str) -> String {
        format!("# side {side}\nadd 3")
    }
}

// ---------------------------------------------------------------------------------------------
// Fake edges: mails are `Header: value` lines, a blank line and a body; a signature is
// `sig:<public key>:<sha256 of the canonical text>`.

pub fn fake_sign(public_key: &str, canonical: &str) -> String {
    format!(
        "sig:{public_key}:{}",
        hex::encode(Sha256::digest(canonical.as_bytes()))
    )
}

fn fake_verify(key: &str, canonical: &str, sig: &str) -> Result<(), String> {
    if sig == fake_sign(key, canonical) {
        Ok(())
    } else {
        Err("bad signature".into())
    }
}

fn fake_parse_mail(raw: &[u8], own: &str, max: usize) -> Result<Incoming, MailError> {
    if raw.len() > max {
        return Err(MailError("too big".into()));
    }
    let text = std::str::from_utf8(raw).map_err(|_| MailError("not utf-8".into()))?;
    let (head, body) = text.split_once("\n\n").unwrap_or((text, ""));
    let mut h = BTreeMap::new();
    for l in head.lines() {
        if let Some((k, v)) = l.split_once(':') {
            h.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    let from = h.get("reply-to").or(h.get("from")).cloned();
    let no_reply = if h.get("auto-submitted").is_some_and(|v| v != "no") {
        Some("Auto-Submitted".into())
    } else if from.as_deref() == Some(own) {
        Some("own address".into())
    } else {
        None
    };
    let mut blocks = Vec::new();
    let lines: Vec<&str> = body.lines().filter(|l| !l.starts_with('>')).collect();
    let mut i = 0;
    while i < lines.len() {
        if lines[i] == dustmail::crypto::ORDERS_BEGIN {
            let end = lines[i..]
                .iter()
                .position(|l| *l == dustmail::crypto::ORDERS_END)
                .map(|p| p + i);
            if let Some(end) = end {
                let canonical = lines[i + 1..end].join("\n");
                let sig = lines
                    .get(end + 2)
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                blocks.push(RawBlock {
                    canonical,
                    signature_b64: sig,
                });
                i = end + 4;
                continue;
            }
        }
        i += 1;
    }
    Ok(Incoming {
        message_id: h.get("message-id").cloned(),
        reply_to: from,
        subject: h.get("subject").cloned().unwrap_or_default(),
        no_reply,
        blocks,
        sha256: hex::encode(Sha256::digest(raw)),
        problems: if text.contains("BROKEN") {
            vec!["an ORDERS block has no END ORDERS line".into()]
        } else {
            vec![]
        },
    })
}

fn fake_parse_body(canonical: &str) -> Result<BlockBody, MailError> {
    let mut game = None;
    let mut side = None;
    let mut seq = None;
    let mut lines = Vec::new();
    for (i, l) in canonical.lines().enumerate() {
        if let Some(v) = l.strip_prefix("game:") {
            game = Some(v.trim().to_string());
        } else if let Some(v) = l.strip_prefix("side:") {
            side = Some(v.trim().to_string());
        } else if let Some(v) = l.strip_prefix("seq:") {
            seq = Some(
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| MailError(format!("line {}: seq is not a number", i + 1)))?,
            );
        } else if !l.trim().is_empty() {
            lines.push(Line {
                number: i + 1,
                text: l.trim().to_string(),
            });
        }
    }
    match (game, side, seq) {
        (Some(game), Some(side), Some(seq)) => Ok(BlockBody {
            game,
            side,
            seq,
            lines,
        }),
        _ => Err(MailError(
            "line 1: the signed text must start with game:, side: and seq: lines".into(),
        )),
    }
}

fn real_sign_text(k: &SigningKey, text: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(k.sign(text.as_bytes()).to_bytes())
}

fn fake_public_key_text(k: &SigningKey) -> String {
    format!(
        "ed25519:{}",
        base64::engine::general_purpose::STANDARD.encode(k.verifying_key().to_bytes())
    )
}

/// Edges for tests: fake mail parsing and signatures, real ed25519 ledger-head signatures.
pub fn fake_edges() -> Edges {
    Edges {
        parse_mail: fake_parse_mail,
        parse_body: fake_parse_body,
        verify: |key, canonical, sig| {
            if key.starts_with("toy:") {
                fake_verify(key, canonical, sig)
            } else {
                verify_ed25519(key, canonical, sig)
            }
        },
        verify_text: verify_ed25519,
        sign_text: real_sign_text,
        public_key_text: fake_public_key_text,
    }
}

fn verify_ed25519(key: &str, text: &str, sig: &str) -> Result<(), String> {
    let b64 = base64::engine::general_purpose::STANDARD;
    let kb: [u8; 32] = key
        .strip_prefix("ed25519:")
        .and_then(|k| b64.decode(k).ok())
        .and_then(|v| v.try_into().ok())
        .ok_or("bad key")?;
    let sb: [u8; 64] = b64
        .decode(sig)
        .ok()
        .and_then(|v| v.try_into().ok())
        .ok_or("bad signature encoding")?;
    let vk = ed25519_dalek::VerifyingKey::from_bytes(&kb).map_err(|e| e.to_string())?;
    vk.verify_strict(text.as_bytes(), &ed25519_dalek::Signature::from_bytes(&sb))
        .map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------------------------
// A recording outbox, idempotent by id like the real one.

#[derive(Default)]
pub struct Sink {
    pub mails: Mutex<BTreeMap<String, Mail>>,
}

impl MailSink for Sink {
    fn queue(&self, id: &str, mail: &Mail, _date: DateTime<Utc>) -> Result<(), String> {
        self.mails
            .lock()
            .unwrap()
            .entry(id.to_string())
            .or_insert_with(|| mail.clone());
        Ok(())
    }
}

impl Sink {
    pub fn ids(&self) -> Vec<String> {
        self.mails.lock().unwrap().keys().cloned().collect()
    }
    pub fn get(&self, id: &str) -> Option<Mail> {
        self.mails.lock().unwrap().get(id).cloned()
    }
    pub fn clear(&self) {
        self.mails.lock().unwrap().clear();
    }
    /// Mails whose id contains `part`.
    pub fn matching(&self, part: &str) -> Vec<(String, Mail)> {
        self.mails
            .lock()
            .unwrap()
            .iter()
            .filter(|(k, _)| k.contains(part))
            .map(|(k, m)| (k.clone(), m.clone()))
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// A home with a toy game.

pub const T0: &str = "2026-01-01T12:00:00Z";
pub const ALLIES_KEY: &str = "toy:allies";
pub const AXIS_KEY: &str = "toy:axis";

pub fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

pub struct Harness {
    pub dir: tempfile::TempDir,
    pub home: Home,
    pub config: Config,
    pub templates: Templates,
    pub edges: Edges,
    pub sink: Sink,
    pub key: SigningKey,
}

impl Harness {
    pub fn new() -> Harness {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::new(dir.path().join("home"));
        home.create_dirs().unwrap();
        let config = Config::new("referee@example.org", "file").unwrap();
        Harness {
            dir,
            home,
            config,
            templates: Templates::new(None).unwrap(),
            edges: fake_edges(),
            sink: Sink::default(),
            key: SigningKey::from_bytes(&[9u8; 32]),
        }
    }

    pub fn ctx(&self, now: &str) -> Ctx<'_> {
        Ctx {
            games: Registry::new(&GAMES),
            home: &self.home,
            config: &self.config,
            templates: &self.templates,
            edges: &self.edges,
            sink: &self.sink,
            key: &self.key,
            now: t(now),
        }
    }

    /// Creates game `g-toy` with allies/axis.
    pub fn new_game(&self) -> String {
        self.new_game_id("g-toy")
    }

    /// Creates a toy game with allies/axis under `id`.
    pub fn new_game_id(&self, id: &str) -> String {
        referee::create_game(
            &self.ctx(T0),
            NewGame {
                game: "toy".into(),
                setup: Setup {
                    ruleset: "toy".into(),
                    scenario_name: "race".into(),
                    scenario: "first to 10".into(),
                    cards: BTreeMap::new(),
                    sides: vec!["allies".into(), "axis".into()],
                    rules_revision: 0,
                },
                players: vec![
                    Player {
                        side: "allies".into(),
                        address: "ann@example.org".into(),
                        public_key: ALLIES_KEY.into(),
                    },
                    Player {
                        side: "axis".into(),
                        address: "bob@example.org".into(),
                        public_key: AXIS_KEY.into(),
                    },
                ],
                seed: [42u8; 32],
                id: Some(id.into()),
                max_rounds: 10,
            },
        )
        .unwrap()
    }

    pub fn maildir(&self) -> PathBuf {
        self.home.maildir()
    }

    /// Drops a mail into maildir/new.
    pub fn drop_mail(&self, name: &str, text: &str) -> PathBuf {
        let p = self.maildir().join("new").join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    pub fn run(&self, now: &str) -> referee::RunSummary {
        referee::run(&self.ctx(now), &self.maildir()).unwrap()
    }

    pub fn log(&self, game: &str) -> PathBuf {
        self.home.game_dir(game).join("log.jsonl")
    }

    pub fn entries(&self, game: &str) -> Vec<dustmail::ledger::Entry> {
        dustmail::ledger::read_all(&self.log(game)).unwrap()
    }
}

/// The canonical text of orders.
pub fn orders(game: &str, side: &str, seq: u64, commands: &[&str]) -> String {
    format!(
        "game: {game}\nside: {side}\nseq: {seq}\n\n{}",
        commands.join("\n")
    )
}

/// A mail carrying one block signed with `key`.
pub fn signed_mail(
    from: &str,
    msg_id: &str,
    key: &str,
    canonical: &str,
    extra_headers: &str,
) -> String {
    format!(
        "From: {from}\nMessage-ID: {msg_id}\nSubject: orders\n{extra_headers}\nHello referee,\n\n{}\n{canonical}\n{}\n{}\n{}\n{}\n",
        dustmail::crypto::ORDERS_BEGIN,
        dustmail::crypto::ORDERS_END,
        dustmail::crypto::SIG_BEGIN,
        fake_sign(key, canonical),
        dustmail::crypto::SIG_END
    )
}

pub fn in_dir(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------------
// Real edges: real keys, real signed blocks, real MIME parsing.

/// Two real player keys (fixed bytes so runs are reproducible).
pub fn real_player_keys() -> (SigningKey, SigningKey) {
    (
        SigningKey::from_bytes(&[1u8; 32]),
        SigningKey::from_bytes(&[2u8; 32]),
    )
}

impl Harness {
    pub fn with_real_edges() -> Harness {
        let mut h = Harness::new();
        h.edges = Edges::real();
        h
    }

    /// Creates `g-toy` with the players' real public keys.
    pub fn new_game_with_keys(&self, allies: &SigningKey, axis: &SigningKey) -> String {
        let pk = |k: &SigningKey| dustmail::crypto::public_key_text(&k.verifying_key());
        referee::create_game(
            &self.ctx(T0),
            NewGame {
                game: "toy".into(),
                setup: Setup {
                    ruleset: "toy".into(),
                    scenario_name: "race".into(),
                    scenario: "first to 10".into(),
                    cards: BTreeMap::new(),
                    sides: vec!["allies".into(), "axis".into()],
                    rules_revision: 0,
                },
                players: vec![
                    Player {
                        side: "allies".into(),
                        address: "ann@example.org".into(),
                        public_key: pk(allies),
                    },
                    Player {
                        side: "axis".into(),
                        address: "bob@example.org".into(),
                        public_key: pk(axis),
                    },
                ],
                seed: [42u8; 32],
                id: Some("g-toy".into()),
                max_rounds: 10,
            },
        )
        .unwrap()
    }
}

/// A real RFC 5322 mail (CRLF) whose body carries `dustmail sign` output.
pub fn real_mail(from: &str, msg_id: &str, key: &SigningKey, orders_text: &str) -> String {
    let block = dustmail::crypto::sign_block(key, orders_text);
    let body = format!("Hello referee,\n\n{block}\nCheers\n");
    format!(
        "From: {from}\r\nTo: referee@example.org\r\nSubject: my orders\r\nMessage-ID: {msg_id}\r\nDate: Thu, 1 Jan 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
}

/// Text with every run of whitespace made one space, so sentences the mails wrap at 72
/// characters (issue 16 item 1) compare as written.
pub fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
