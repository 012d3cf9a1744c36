//! Idle: the cost of a `run` with nothing to do, and of a run with one mail, in a home of 10,
//! 1,000 and 10,000 games (issue 11 item 6). Goal: flat within 2×, peak memory flat too: a run
//! reads the due-time index (`due.json`) and loads only the games due at its clock, not every
//! game of the home.
//!
//! The games are real skirmish games created in-process (what `dustmail new` does), without
//! board pictures while they are created (only their welcome mails would carry one); the runs
//! measured have the default settings. Every run uses the same clock, one hour after creation:
//! no game is due. Measured, median of several: a run in a fresh process of this bench (its
//! time and its peak memory, VmHWM: what one run costs, not what creating the home cost), and
//! the real binary (`dustmail run --once`, what cron starts; time only). The one-mail runs
//! carry a signed submission for the first game, refused line by line (`hold position`), so the
//! game is loaded and appended to without changing.
//!
//! Last, `due.json` is deleted and one run measured: it loads every game, as every run did before
//! the index (the "before" figure), and writes the index again.
//!
//! `DUSTMAIL_BENCH_IDLE_MAX` caps the largest home (e.g. 1000 for a quick run).

mod common;

use common::dt::{self, InProc};
use dustmail::config::Home;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::Game;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const SIZES: [usize; 3] = [10, 1_000, 10_000];
const CHILD: &str = "--idle-child";

/// Writes one signed submission for `id` into maildir/new.
fn one_mail(home: &Home, env: &InProc, id: &str, tag: &str) {
    let g = env.load(id);
    let side = DustTactics.awaiting(g.derived.state.typed())[0]
        .side
        .clone();
    let p = dt::players(0).into_iter().find(|p| p.side == side).unwrap();
    let seq = g.derived.last_seq.get(&side).copied().unwrap_or(0) + 1;
    let m = dt::mail(
        &p.address,
        &format!("{id}-{tag}@players.example"),
        &p.key,
        &dt::orders(id, &side, seq, "hold position"),
    );
    std::fs::write(home.maildir().join("new").join(format!("{tag}.eml")), m).unwrap();
}

/// In the child: one in-process run on the home, then "micros peak_kib mails loaded".
fn child(root: &Path) {
    let home = Home::new(root);
    let env = InProc::open(&home);
    let (sum, t) = common::time(|| env.run(dt::NOW));
    println!(
        "{} {} {} {}",
        t.as_micros(),
        (common::peak_mib() * 1024.0) as u64,
        sum.mails,
        sum.loaded
    );
}

/// One run in a fresh process of this bench: (time, peak MiB, mails, games loaded).
fn run_in_child(root: &Path) -> (Duration, f64, usize, usize) {
    let o = Command::new(std::env::current_exe().unwrap())
        .args(["--bench", CHILD])
        .arg(root)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let v: Vec<u64> = out.split_whitespace().map(|w| w.parse().unwrap()).collect();
    (
        Duration::from_micros(v[0]),
        v[1] as f64 / 1024.0,
        v[2] as usize,
        v[3] as usize,
    )
}

fn set_pictures(home: &Home, on: bool) {
    let p = home.config_path();
    let text = std::fs::read_to_string(&p).unwrap();
    let (from, to) = if on {
        ("board_pictures = false", "board_pictures = true")
    } else {
        ("board_pictures = true", "board_pictures = false")
    };
    std::fs::write(&p, text.replace(from, to)).unwrap();
}

struct Row {
    size: usize,
    create: Duration,
    first: Duration,
    idle: Duration,
    idle_mib: f64,
    idle_bin: Duration,
    mail: Duration,
    mail_mib: f64,
    mail_bin: Duration,
    scan: Duration,
    scan_mib: f64,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == CHILD) {
        child(Path::new(&args[i + 1]));
        return;
    }
    if !common::under_cargo_bench("idle") {
        return;
    }
    let reps = common::env_num("DUSTMAIL_BENCH_REPS", 7);
    let max = common::env_num("DUSTMAIL_BENCH_IDLE_MAX", usize::MAX);
    let d = common::tempdir();
    let ps = dt::players(0);
    let mut rows = Vec::new();
    for &size in SIZES.iter().filter(|&&s| s <= max) {
        let home = common::home(&d.path().join(format!("home-{size}")));
        set_pictures(&home, false);
        let env = InProc::open(&home);
        let ((), create) = common::time(|| {
            for i in 0..size {
                common::create(&env, &format!("g-{i:05}"), &ps, (i % 251) as u8, 4);
            }
        });
        set_pictures(&home, true);
        let env = InProc::open(&home);
        // The first run delivers the welcome mails and records a full scan.
        let (_, first) = common::time(|| env.run(dt::NOW));
        let (mut idle, mut idle_mib, mut idle_bin) = (Vec::new(), 0f64, Vec::new());
        let (mut mail, mut mail_mib, mut mail_bin) = (Vec::new(), 0f64, Vec::new());
        for r in 0..reps {
            let (t, mib, mails, loaded) = run_in_child(&home.root);
            assert_eq!((mails, loaded), (0, 0), "an idle run loads no game");
            idle.push(t);
            idle_mib = idle_mib.max(mib);
            let (o, t) =
                common::time(|| dt::dustmail(&home.root, &["run", "--once", "--now", dt::NOW]));
            assert!(o.status.success(), "{}", dt::text(&o));
            idle_bin.push(t);
            one_mail(&home, &env, "g-00000", &format!("m{r}"));
            let (t, mib, mails, loaded) = run_in_child(&home.root);
            assert_eq!(
                (mails, loaded),
                (1, 1),
                "a one-mail run loads its game only"
            );
            mail.push(t);
            mail_mib = mail_mib.max(mib);
            one_mail(&home, &env, "g-00000", &format!("b{r}"));
            let (o, t) =
                common::time(|| dt::dustmail(&home.root, &["run", "--once", "--now", dt::NOW]));
            assert!(o.status.success(), "{}", dt::text(&o));
            mail_bin.push(t);
        }
        // Without the index: the run loads every game (what every run did before it), then
        // writes the index again.
        std::fs::remove_file(home.root.join("due.json")).unwrap();
        let (scan, scan_mib, _, loaded) = run_in_child(&home.root);
        assert_eq!(loaded, size);
        rows.push(Row {
            size,
            create,
            first,
            idle: common::median(idle),
            idle_mib,
            idle_bin: common::median(idle_bin),
            mail: common::median(mail),
            mail_mib,
            mail_bin: common::median(mail_bin),
            scan,
            scan_mib,
        });
    }
    let ms = |t: Duration| t.as_secs_f64() * 1e3;
    let x = |t: Duration, b: Duration| t.as_secs_f64() / b.as_secs_f64();
    let b = &rows[0];
    for r in &rows {
        println!(
            "idle: {:>6} games: idle run {:.2} ms ({:.2}x), peak {:.1} MiB; `dustmail run --once` {:.2} ms ({:.2}x) | one mail {:.2} ms ({:.2}x), peak {:.1} MiB; `run --once` {:.2} ms ({:.2}x) | without the index (every game loaded) {:.1} ms, peak {:.1} MiB | setup: created in {:.1} s, first run {:.1} s",
            r.size,
            ms(r.idle),
            x(r.idle, b.idle),
            r.idle_mib,
            ms(r.idle_bin),
            x(r.idle_bin, b.idle_bin),
            ms(r.mail),
            x(r.mail, b.mail),
            r.mail_mib,
            ms(r.mail_bin),
            x(r.mail_bin, b.mail_bin),
            ms(r.scan),
            r.scan_mib,
            r.create.as_secs_f64(),
            r.first.as_secs_f64(),
        );
    }
    println!("idle: goal: flat within 2x of the 10-game home, peak memory flat too");
}
