//! Growth: the cost of processing one more mail for a game whose ledger holds 10, 1,000 and
//! 10,000 events. Goal: flat within 2× (a run must not replay a game's whole log per mail).
//!
//! The long ledgers are filled with real signed submissions that the rules refuse line by line
//! (`hold position` is not a command): each is a ledger event with a signature, a seq and a
//! receipt, and leaves the game where it was, so a batch of them can be written without waiting
//! for the state. Measured: one mail (the same kind) per `run`, in-process and through the real
//! binary (`dustmail run --once`, what cron starts), median of several.

mod common;

use common::dt::{self, InProc};
use dustmail::config::Home;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::Game;
use std::time::Duration;

const SIZES: [usize; 3] = [10, 1_000, 10_000];

/// Writes `count` padding mails for `id` (awaited side, seq from `seq`), returns the next seq.
fn pad(home: &Home, env: &InProc, id: &str, count: usize, tag: &str) -> u64 {
    let g = env.load(id);
    let side = DustTactics.awaiting(g.derived.state.typed())[0]
        .side
        .clone();
    let p = dt::players(0).into_iter().find(|p| p.side == side).unwrap();
    let mut seq = g.derived.last_seq.get(&side).copied().unwrap_or(0) + 1;
    for i in 0..count {
        let m = dt::mail(
            &p.address,
            &format!("{id}-{tag}-{i}@players.example"),
            &p.key,
            &dt::orders(id, &side, seq, "hold position"),
        );
        std::fs::write(
            home.maildir()
                .join("new")
                .join(format!("{id}-{tag}-{i:06}.eml")),
            m,
        )
        .unwrap();
        seq += 1;
    }
    seq
}

fn events(home: &Home, id: &str) -> usize {
    std::fs::read(dt::log_path(home, id))
        .unwrap()
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

fn main() {
    if !common::under_cargo_bench("growth") {
        return;
    }
    let reps = common::env_num("DUSTMAIL_BENCH_REPS", 15);
    let d = common::tempdir();
    let ps = dt::players(0);
    let mut results = Vec::new();
    // One home per size: a run also visits every game of its home for deadlines.
    for (i, &size) in SIZES.iter().enumerate() {
        let home = common::home(&d.path().join(format!("home-{size}")));
        let env = InProc::open(&home);
        let id = format!("g-{size}");
        common::create(&env, &id, &ps, i as u8, 4);
        env.run(dt::NOW);
        // Fill the ledger to its size, 500 mails per run.
        let mut round = 0;
        while events(&home, &id) < size {
            let want = (size - events(&home, &id)).min(500);
            pad(&home, &env, &id, want, &format!("fill{round}"));
            env.run(dt::NOW);
            round += 1;
        }
        let have = events(&home, &id);
        let mut inproc = Vec::new();
        let mut binary = Vec::new();
        for r in 0..reps {
            pad(&home, &env, &id, 1, &format!("m{r}"));
            let (sum, t) = common::time(|| env.run(dt::NOW));
            assert_eq!(sum.mails, 1);
            inproc.push(t);
            pad(&home, &env, &id, 1, &format!("b{r}"));
            let (o, t) =
                common::time(|| dt::dustmail(&home.root, &["run", "--once", "--now", dt::NOW]));
            assert!(o.status.success(), "{}", dt::text(&o));
            binary.push(t);
        }
        let snap = std::fs::metadata(home.game_dir(&id).join("snapshot.json"))
            .map(|m| m.len())
            .unwrap_or(0);
        results.push((
            size,
            have,
            common::median(inproc),
            common::median(binary),
            snap,
        ));
    }
    let ms = |t: Duration| t.as_secs_f64() * 1e3;
    let base = results[0].2;
    let base_bin = results[0].3;
    for (size, have, t, tb, snap) in &results {
        println!(
            "growth: ledger of {size:>6} events ({have} lines): one more mail in-process {:.2} ms ({:.2}x), via `dustmail run --once` {:.2} ms ({:.2}x); snapshot {} KiB",
            ms(*t),
            t.as_secs_f64() / base.as_secs_f64(),
            ms(*tb),
            tb.as_secs_f64() / base_bin.as_secs_f64(),
            snap / 1024
        );
    }
    println!("growth: goal: flat within 2x of the 10-event game");
    println!("growth: peak memory {:.1} MiB (VmHWM)", common::peak_mib());
}
