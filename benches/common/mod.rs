//! Shared pieces of the benchmarks (`cargo bench`, release, harness = false): homes with many
//! Dust Tactics games created in-process, passive players, timing and the OS's peak memory.
#![allow(dead_code)]

#[path = "../../tests/it/support/dt.rs"]
pub mod dt;

use dustmail::config::Home;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, Setup};
use dustmail::ledger::Player;
use dustmail::referee::{self, NewGame};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// A temporary directory under `DUSTMAIL_BENCH_DIR` (e.g. /dev/shm, a tmpfs where fsync costs
/// nothing) or the system's temp dir.
pub fn tempdir() -> tempfile::TempDir {
    match std::env::var_os("DUSTMAIL_BENCH_DIR") {
        Some(d) => tempfile::tempdir_in(d).unwrap(),
        None => tempfile::tempdir().unwrap(),
    }
}

/// A home made by the real `dustmail init` (file transport).
pub fn home(root: &Path) -> Home {
    dt::init_home(root, "file")
}

/// Creates a skirmish game in-process (what `dustmail new` does), with `rounds` rounds.
pub fn create(env: &dt::InProc, id: &str, ps: &[dt::Player], seed: u8, rounds: u32) {
    let builtin = dustmail::dust_tactics::scenario::builtin();
    let (_, text) = builtin
        .iter()
        .find(|(n, _)| *n == "skirmish")
        .expect("skirmish");
    let text = text.replace("rounds = 4", &format!("rounds = {rounds}"));
    let parsed = dustmail::dust_tactics::scenario::parse("skirmish", &text).unwrap();
    let cards: BTreeMap<String, String> = dustmail::dust_tactics::cards::builtin()
        .into_iter()
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect();
    referee::create_game(
        &env.ctx(dt::T0),
        NewGame {
            game: "dust-tactics".into(),
            setup: Setup {
                ruleset: "ffg-revised".into(),
                scenario_name: "skirmish".into(),
                scenario: text.clone(),
                cards,
                sides: parsed.sides.iter().map(|s| s.id.clone()).collect(),
                rules_revision: dustmail::dust_tactics::rules::RULES_REVISION,
            },
            players: ps
                .iter()
                .map(|p| Player {
                    side: p.side.clone(),
                    address: p.address.clone(),
                    public_key: dustmail::crypto::public_key_text(&p.key.verifying_key()),
                })
                .collect(),
            seed: [seed; 32],
            id: Some(id.into()),
            max_rounds: parsed.rounds + 1,
        },
    )
    .unwrap();
}

/// The orders of a patient player: the first option of whatever is awaited; an activation does
/// nothing. (No combat, so a game lasts all its rounds.)
pub fn passive(state: &dustmail::dust_tactics::state::State) -> Option<(String, String)> {
    let a = DustTactics.awaiting(state).into_iter().next()?;
    let first = a.options.first()?.clone();
    let text = if a.decision == "activate" {
        format!("{first}\nnothing\nnothing")
    } else {
        first
    };
    Some((a.side, text))
}

/// Peak resident memory of this process (VmHWM from /proc/self/status), in MiB.
pub fn peak_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map(|kb| kb / 1024.0)
        .unwrap_or(f64::NAN)
}

pub fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed())
}

pub fn rate(n: usize, d: Duration) -> f64 {
    n as f64 / d.as_secs_f64()
}

pub fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

/// An environment variable as a number, else `default` (for quick runs: `DUSTMAIL_BENCH_…`).
pub fn env_num(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Benchmarks run only under `cargo bench` (which passes `--bench`): `cargo test --all-targets`
/// would otherwise run them unoptimised, for minutes, as if they were tests. Returns false (after
/// saying so) when the program was started any other way.
pub fn under_cargo_bench(name: &str) -> bool {
    if std::env::args().any(|a| a == "--bench") {
        return true;
    }
    println!("{name}: a benchmark, not a test: run it with `cargo bench --bench {name}`");
    false
}
