//! Dust Tactics homes for the proof tests (crash, faults, bad input, soak): a home made by the real
//! binary (`init` + `new`), players with fixed keys, bots that write real signed mails, and an
//! in-process `run` for building reference games fast.
//! Use with `use crate::support::dt;`.
#![allow(dead_code)]

use chrono::{DateTime, Utc};
use dustmail::config::{Config, Home};
use dustmail::dust_tactics::bot::{Bot, Style};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::Game;
use dustmail::outbox::Outbox;
use dustmail::referee::{self, Ctx, Edges, RunSummary};
use dustmail::report::Templates;
use ed25519_dalek::SigningKey;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const REFEREE: &str = "referee@dust.example";
pub const T0: &str = "2026-03-01T09:00:00Z";
/// The fixed clock of every run in these tests (one hour after creation: no deadline is due).
pub const NOW: &str = "2026-03-01T10:00:00Z";

pub fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_dustmail")
}

/// Runs the real binary on `home`.
pub fn dustmail(home: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .env_remove("DUSTMAIL_HOME")
        .arg("--home")
        .arg(home)
        .args(args)
        .output()
        .unwrap()
}

pub fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A player of a test game.
#[derive(Clone)]
pub struct Player {
    pub side: String,
    pub address: String,
    pub key: SigningKey,
}

/// allies (ann) and axis (bob) with fixed keys; `salt` varies them between games.
pub fn players(salt: u8) -> Vec<Player> {
    vec![
        Player {
            side: "allies".into(),
            address: "ann@players.example".into(),
            key: SigningKey::from_bytes(&[salt.wrapping_add(1); 32]),
        },
        Player {
            side: "axis".into(),
            address: "bob@players.example".into(),
            key: SigningKey::from_bytes(&[salt.wrapping_add(101); 32]),
        },
    ]
}

/// `dustmail init` (file transport unless given).
pub fn init_home(root: &Path, transport: &str) -> Home {
    let o = dustmail(
        root,
        &["init", "--referee", REFEREE, "--transport", transport],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    Home::new(root)
}

/// `dustmail new ARGS… --player SIDE=ADDRESS:KEY …` in the home at `root`, one `--player` for
/// each of `ps`.
pub fn new_with_players(root: &Path, args: &[&str], ps: &[Player]) -> Output {
    let mut all: Vec<String> = std::iter::once("new")
        .chain(args.iter().copied())
        .map(String::from)
        .collect();
    for p in ps {
        all.push("--player".into());
        all.push(format!(
            "{}={}:{}",
            p.side,
            p.address,
            dustmail::crypto::public_key_text(&p.key.verifying_key())
        ));
    }
    let a: Vec<&str> = all.iter().map(String::as_str).collect();
    dustmail(root, &a)
}

/// `dustmail new` of a skirmish game `id` between `ps`, with a fixed seed.
pub fn new_game(home: &Home, id: &str, ps: &[Player], seed_byte: u8) {
    let seed = hex::encode([seed_byte; 32]);
    let args = [
        "--scenario",
        "skirmish",
        "--seed",
        &seed,
        "--id",
        id,
        "--now",
        T0,
    ];
    let o = new_with_players(&home.root, &args, ps);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// A real RFC 5322 mail (CRLF) from `from` whose body carries the signed block of `orders`.
pub fn mail(from: &str, msg_id: &str, key: &SigningKey, orders: &str) -> String {
    let block = dustmail::crypto::sign_block(key, orders);
    format!(
        "From: {from}\r\nTo: {REFEREE}\r\nSubject: orders\r\nMessage-ID: <{msg_id}>\r\nDate: Sun, 1 Mar 2026 09:30:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMy orders:\r\n\r\n{}",
        block.replace('\n', "\r\n")
    )
}

/// The orders text of a block.
pub fn orders(game: &str, side: &str, seq: u64, commands: &str) -> String {
    format!("game: {game}\nside: {side}\nseq: {seq}\n\n{commands}\n")
}

/// The referee's own environment for running in-process (same pieces as `dustmail run`).
pub struct InProc {
    pub home: Home,
    pub config: Config,
    pub templates: Templates,
    pub key: SigningKey,
    pub outbox: Outbox,
    pub edges: Edges,
}

impl InProc {
    pub fn open(home: &Home) -> InProc {
        InProc {
            home: home.clone(),
            config: Config::load(home).unwrap(),
            templates: Templates::new(None).unwrap(),
            key: dustmail::crypto::read_secret_key(&home.key_path()).unwrap(),
            outbox: Outbox::open(&home.root).unwrap(),
            edges: Edges::real(),
        }
    }

    pub fn ctx(&self, now: &str) -> Ctx<'_> {
        Ctx {
            games: dustmail::cli::registry(),
            home: &self.home,
            config: &self.config,
            templates: &self.templates,
            edges: &self.edges,
            sink: &self.outbox,
            key: &self.key,
            now: t(now),
        }
    }

    /// `run` then a file delivery, like `dustmail run --once --now NOW`.
    pub fn run(&self, now: &str) -> RunSummary {
        let sum = referee::run(&self.ctx(now), &self.home.maildir()).unwrap();
        let tr = self.config.outbox_transport().unwrap();
        self.outbox.deliver(&tr, t(now)).unwrap();
        sum
    }

    pub fn load(&self, id: &str) -> referee::Loaded {
        referee::load_game(&DustTactics, &self.edges, &self.home, id).unwrap()
    }
}

/// Bots for every side of a game, writing the mail of the next awaited decision.
pub struct Bots {
    pub game: String,
    pub players: Vec<Player>,
    bots: BTreeMap<String, Bot>,
    pub sent: usize,
}

impl Bots {
    pub fn new(game: &str, ps: &[Player], style: impl Fn(usize) -> Style) -> Bots {
        Bots {
            game: game.into(),
            players: ps.to_vec(),
            bots: ps
                .iter()
                .enumerate()
                .map(|(i, p)| (p.side.clone(), Bot::new(&p.side, style(i))))
                .collect(),
            sent: 0,
        }
    }

    /// Every side answers every decision by mail (reaction windows, casualties, retaliation,
    /// who goes first): more mails per game, and games that pause mid-activation.
    pub fn ask_everything(mut self) -> Bots {
        for bot in self.bots.values_mut() {
            bot.set_standing(dustmail::dust_tactics::bot::ASK_EVERYTHING);
        }
        self
    }

    /// The next mail (file name, bytes) the awaited side sends, or None when the game awaits
    /// nothing (it ended).
    pub fn next_mail(&mut self, g: &referee::Loaded) -> Option<(String, String)> {
        if g.derived.finished.is_some() {
            return None;
        }
        let a = DustTactics
            .awaiting(g.derived.state.typed())
            .into_iter()
            .next()?;
        let p = self.players.iter().find(|p| p.side == a.side)?.clone();
        let seq = g.derived.last_seq.get(&a.side).copied().unwrap_or(0) + 1;
        let bot = self.bots.get_mut(&a.side)?;
        let commands = bot
            .orders(g.derived.state.typed())
            .unwrap_or_else(|| a.options.first().cloned().unwrap_or_default());
        let n = self.sent;
        self.sent += 1;
        let name = format!("{}-{n:05}.eml", self.game);
        let m = mail(
            &p.address,
            &format!("{}-{n}@players.example", self.game),
            &p.key,
            &orders(&self.game, &a.side, seq, &commands),
        );
        Some((name, m))
    }

    /// Every awaited side mails its next decision until the game awaits nothing, each mail run
    /// through the pipeline at once; no run may break.
    pub fn play_to_end(&mut self, home: &Home, env: &InProc) {
        for _ in 0..400 {
            let g = env.load(&self.game);
            let Some((name, m)) = self.next_mail(&g) else {
                break;
            };
            std::fs::write(home.maildir().join("new").join(name), m).unwrap();
            let sum = env.run(NOW);
            assert!(sum.broken.is_empty(), "{sum:?}");
        }
    }
}

/// `dustmail replay` and `dustmail audit` of game `id` both pass.
pub fn replay_and_audit(home: &Home, id: &str) {
    let o = dustmail(&home.root, &["replay", id]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let log = log_path(home, id);
    let o = dustmail(&home.root, &["audit", log.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// Files in `dir` (names, sorted).
pub fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Every mail in the home's `sent/`, in name order, as one text.
pub fn sent_text(home: &Home) -> String {
    let dir = home.root.join("sent");
    names(&dir)
        .into_iter()
        .map(|n| std::fs::read_to_string(dir.join(n)).unwrap_or_default())
        .collect()
}

/// The last `n` characters of `s`, for an assertion message that shows how a game ended.
pub fn tail(s: &str, n: usize) -> String {
    let skip = s.chars().count().saturating_sub(n);
    s.chars().skip(skip).collect()
}

/// Copies a directory tree (homes are small).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

pub fn log_path(home: &Home, id: &str) -> PathBuf {
    home.game_dir(id).join("log.jsonl")
}

/// Submissions in a ledger as (mail sha256, block) pairs, in order.
pub fn submissions(home: &Home, id: &str) -> Vec<(String, usize, bool)> {
    dustmail::ledger::read_all(&log_path(home, id))
        .unwrap()
        .into_iter()
        .filter_map(|e| match e.event {
            dustmail::ledger::Event::Submission(s) => Some((s.mail_sha256, s.block, s.accepted)),
            _ => None,
        })
        .collect()
}

/// `dustmail new ARGS… --seed --id --now` in a fresh home at `root` (file transport): `args` name
/// the scenario and what it needs (ruleset, cards, options), the game is `id`, its seed 32 bytes
/// `seed` and its players the [`players`] of `salt`; it must be made. The home, the players and
/// the game's environment.
pub fn new_in_home(
    root: &Path,
    args: &[&str],
    (id, salt, seed): (&str, u8, u8),
) -> (Home, Vec<Player>, InProc) {
    let home = init_home(root, "file");
    let ps = players(salt);
    let seed = hex::encode([seed; 32]);
    let mut all = args.to_vec();
    all.extend(["--seed", &seed, "--id", id, "--now", T0]);
    let o = new_with_players(&home.root, &all, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let env = InProc::open(&home);
    (home, ps, env)
}

/// A game of the provisional cards in `games/dust-tactics/<folder>/` and their scenario
/// `<folder>/scenarios/<scenario>.toml`, made by `dustmail new` in a home at `root` (`ruleset`,
/// game id `id`, the seed and [`players`] of `salt`) and played to its end through the pipeline
/// by the bundled bots, each side in `style`: the home and the game's environment.
pub fn play_cards_to_end(
    root: &Path,
    ruleset: &str,
    (folder, scenario): (&str, &str),
    (id, salt): (&str, u8),
    style: impl Fn(usize) -> Style,
) -> (Home, InProc) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/dust-tactics")
        .join(folder);
    let cards = dir.display().to_string();
    let scen = dir
        .join(format!("scenarios/{scenario}.toml"))
        .display()
        .to_string();
    let args = ["--ruleset", ruleset, "--cards", &cards, "--scenario", &scen];
    let (home, ps, env) = new_in_home(root, &args, (id, salt, salt));
    Bots::new(id, &ps, style).play_to_end(&home, &env);
    (home, env)
}
