//! issue 14 item 6: a soak of bot games. The demo's bot (`demo --game dust-strategy`) plays one
//! game for each player count, 2 to 6, each on its own seed, through the real mail pipeline:
//! signed MIME mails into the maildir, `referee::run`, the outbox. Every game must end, replay
//! (with the secret and from the log alone) and pass `dustmail audit` with H. The rounds and
//! the mails per player are printed as figures
//! (`cargo test --test it strategy::soak -- --nocapture`); nothing here measures time.

use crate::support::{real_mail, t, Sink};
use dustmail::config::{Config, Home};
use dustmail::game::{Game, NewRequest};
use dustmail::games::dust_strategy::model::State;
use dustmail::games::dust_strategy::DustStrategy;
use dustmail::ledger::Player;
use dustmail::referee::{self, Ctx, Edges, NewGame};
use dustmail::report::Templates;
use ed25519_dalek::SigningKey;
use std::collections::BTreeMap;

/// Batches of mail a game may take before the test calls it stuck (a 6-player game of the
/// scripted suite takes well under 200).
const MAX_STEPS: usize = 2000;

const SIDES: [&str; 6] = ["red", "blue", "green", "yellow", "black", "white"];

struct Soak {
    _dir: tempfile::TempDir,
    home: Home,
    config: Config,
    templates: Templates,
    edges: Edges,
    sink: Sink,
    key: SigningKey,
    sides: Vec<String>,
    id: String,
}

impl Soak {
    fn ctx(&self, now: chrono::DateTime<chrono::Utc>) -> Ctx<'_> {
        Ctx {
            games: dustmail::cli::registry(),
            home: &self.home,
            config: &self.config,
            templates: &self.templates,
            edges: &self.edges,
            sink: &self.sink,
            key: &self.key,
            now,
        }
    }

    /// A fresh home with one game of the first `n` sides, on `seed`.
    fn new(n: usize, seed: [u8; 32]) -> Soak {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::new(dir.path().join("home"));
        home.create_dirs().unwrap();
        let sides: Vec<String> = SIDES[..n].iter().map(|s| s.to_string()).collect();
        let mut soak = Soak {
            _dir: dir,
            home,
            config: Config::new("referee@example.org", "file").unwrap(),
            templates: Templates::new(None).unwrap(),
            edges: Edges::real(),
            sink: Sink::default(),
            key: SigningKey::from_bytes(&[7u8; 32]),
            sides,
            id: String::new(),
        };
        let plan = DustStrategy
            .plan_new(&NewRequest {
                sides: soak.sides.clone(),
                ..NewRequest::default()
            })
            .unwrap();
        let players = soak
            .sides
            .iter()
            .enumerate()
            .map(|(i, s)| Player {
                side: s.clone(),
                address: address(s),
                public_key: dustmail::crypto::public_key_text(&seat_key(i).verifying_key()),
            })
            .collect();
        soak.id = referee::create_game(
            &soak.ctx(t("2026-04-01T09:00:00Z")),
            NewGame {
                game: "dust-strategy".into(),
                setup: plan.setup,
                players,
                seed,
                id: Some(format!("g-soak-{n}")),
                max_rounds: plan.max_rounds,
            },
        )
        .unwrap();
        soak
    }
}

fn address(side: &str) -> String {
    format!("{side}@soak.example")
}

fn seat_key(i: usize) -> SigningKey {
    SigningKey::from_bytes(&[i as u8 + 41; 32])
}

/// What one game measured.
struct Figures {
    rounds: u32,
    runs: usize,
    sent: BTreeMap<String, usize>,
    winner: String,
    reason: String,
}

/// Each batch: every awaited side mails the bot's orders, then one `run` takes them all (as
/// the cron job would). Every mail must be accepted whole; the game must end.
fn play(soak: &Soak) -> Figures {
    let mut now = t("2026-04-01T10:00:00Z");
    let mut seq: BTreeMap<String, u64> = BTreeMap::new();
    let mut sent: BTreeMap<String, usize> = BTreeMap::new();
    let mut n = 0;
    for runs in 0..MAX_STEPS {
        let g = referee::load_game(&DustStrategy, &soak.edges, &soak.home, &soak.id).unwrap();
        let s: &State = g.derived.state.typed();
        if let Some(r) = &g.derived.finished {
            return Figures {
                rounds: s.round,
                runs,
                sent,
                winner: r.winner.clone().unwrap_or_else(|| "none".into()),
                reason: r.reason.clone(),
            };
        }
        let awaiting = DustStrategy.awaiting(s);
        assert!(
            !awaiting.is_empty(),
            "{}: run {runs}: awaits nobody",
            soak.id
        );
        let mut mails = 0;
        for a in &awaiting {
            let i = soak.sides.iter().position(|x| *x == a.side).unwrap();
            let orders = DustStrategy
                .sample_orders(s, &a.side, 0)
                .unwrap_or_else(|| panic!("{}: the bot has nothing for {}", soak.id, a.side));
            let k = seq.entry(a.side.clone()).or_insert(0);
            *k += 1;
            let body = format!(
                "game: {}\nside: {}\nseq: {k}\n\n{orders}\n",
                soak.id, a.side
            );
            let mail = real_mail(
                &address(&a.side),
                &format!("<s{n}@soak.example>"),
                &seat_key(i),
                &body,
            );
            let file = soak.home.maildir().join("new").join(format!("{n:05}.eml"));
            std::fs::write(file, mail).unwrap();
            n += 1;
            mails += 1;
            *sent.entry(a.side.clone()).or_insert(0) += 1;
        }
        now += chrono::Duration::hours(1);
        let sum = referee::run(&soak.ctx(now), &soak.home.maildir()).unwrap();
        assert!(sum.broken.is_empty(), "{}: {:?}", soak.id, sum.broken);
        assert_eq!(
            (sum.accepted, sum.refused, sum.rejected),
            (mails, 0, 0),
            "{}: run {runs}: every bot mail is accepted whole: {sum:?}",
            soak.id
        );
    }
    panic!("{}: the game did not end in {MAX_STEPS} runs", soak.id);
}

/// Replay with the secret, an auditor's replay of the log alone, and `dustmail audit` (hidden
/// values checked with H) all pass; nothing is left in the maildir or the outbox.
fn verify(soak: &Soak) {
    let r = referee::replay_game(&DustStrategy, &soak.edges, &soak.home, &soak.id)
        .unwrap_or_else(|e| panic!("{}: replay failed: {e}", soak.id));
    assert!(
        r.finished && r.signatures == r.submissions,
        "{}: {r:?}",
        soak.id
    );
    let log = soak.home.game_dir(&soak.id).join("log.jsonl");
    let data = std::fs::read(&log).unwrap();
    referee::replay_bytes(
        &DustStrategy,
        &soak.edges,
        "log.jsonl",
        &data,
        referee::DiceMode::Recorded,
    )
    .unwrap_or_else(|e| panic!("{}: the log alone does not replay: {e}", soak.id));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .arg("audit")
        .arg(&log)
        .output()
        .unwrap();
    let out = super::text(&o);
    assert_eq!(o.status.code(), Some(0), "{}: {out}", soak.id);
    assert!(out.contains("hidden values checked with H"), "{out}");
    let left: Vec<_> = std::fs::read_dir(soak.home.maildir().join("new"))
        .unwrap()
        .collect();
    assert!(left.is_empty(), "{}: mails left in new/", soak.id);
}

/// One bot game of `n` players on its own seed (unlike the scripted games' `[n; 32]`): it ends
/// (001 "Conclusione del gioco"; digest 001 §7 step 3), replays and audits with H (DESIGN §5);
/// its rounds, runs and mails per player are printed.
fn soak(n: usize) {
    let mut seed = [0x5a; 32];
    seed[0] = n as u8;
    let soak = Soak::new(n, seed);
    let f = play(&soak);
    verify(&soak);
    assert!(
        soak.sides.contains(&f.winner) || f.winner == "none",
        "{}: winner {}",
        soak.id,
        f.winner
    );
    let per: Vec<String> = f.sent.iter().map(|(s, m)| format!("{s} {m}")).collect();
    println!(
        "soak {n} players: {} rounds, {} runs, winner {} ({}); mails per player: {}",
        f.rounds,
        f.runs,
        f.winner,
        f.reason,
        per.join(", ")
    );
    for m in f.sent.values() {
        // Two setup mails, then at most a card mail and a turn mail a round.
        assert!(
            *m <= 2 + 2 * f.rounds as usize,
            "{}: {m} mails in {} rounds",
            soak.id,
            f.rounds
        );
    }
}

// issue 14 item 6: a soak of bot games, 2 to 6 players, each its own test so the harness can
// run them side by side.

/// issue 14 item 6: the soak's 2-player bot game.
#[test]
fn soak_two_bots_play_to_the_end_by_mail_and_the_replay_verifies() {
    soak(2);
}

/// issue 14 item 6: the soak's 3-player bot game.
#[test]
fn soak_three_bots_play_to_the_end_by_mail_and_the_replay_verifies() {
    soak(3);
}

/// issue 14 item 6: the soak's 4-player bot game.
#[test]
fn soak_four_bots_play_to_the_end_by_mail_and_the_replay_verifies() {
    soak(4);
}

/// issue 14 item 6: the soak's 5-player bot game.
#[test]
fn soak_five_bots_play_to_the_end_by_mail_and_the_replay_verifies() {
    soak(5);
}

/// issue 14 item 6: the soak's 6-player bot game (the slowest: about 120 runs of 6 mails).
#[test]
fn soak_six_bots_play_to_the_end_by_mail_and_the_replay_verifies() {
    soak(6);
}
