//! Issue 2 item 8 / issue 6 item 4: `kill -9` at many points of `dustmail run`, then run again:
//! every submission is applied exactly once and every mail it caused is delivered exactly once.
//!
//! The proof is a comparison with a reference: the same batch of mails is processed once without
//! interruption (one mail per run, in-process) and once by the real binary killed again and again
//! at deterministic delays until a run finishes by itself. Both homes start as copies of the same
//! freshly created game, every run uses the same fixed clock, so the two ledgers must be
//! byte-identical and the two sent/ folders must hold the same mails.

use crate::support::dt;
use crate::support::smtp;

use dt::{Bots, InProc};
use dustmail::config::Home;
use dustmail::dust_tactics::bot::Style;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GAMES: [&str; 3] = ["g-crash-a", "g-crash-b", "g-crash-c"];

/// The batch: bot orders for several games, interleaved, plus a forged block, a mail without a
/// block and a stale replay, so the batch has accepted, refused and rejected mails. Processed
/// into `reference` one mail per run.
fn reference_batch(reference: &Home, n: usize) -> Vec<(String, String)> {
    let ps = dt::players(0);
    let env = InProc::open(reference);
    let mut bots: Vec<Bots> = GAMES
        .iter()
        .enumerate()
        .map(|(gi, g)| {
            Bots::new(g, &ps, |i| Style::Random(7 + 10 * gi as u64 + i as u64)).ask_everything()
        })
        .collect();
    let mut batch = Vec::new();
    let mut first: Option<String> = None;
    for k in 0..n {
        for (gi, game) in GAMES.iter().enumerate() {
            let g = env.load(game);
            let (name, m) = match (gi, k) {
                // Signed with the opponent's key: refused, recorded, nothing applied.
                (0, 3) => {
                    let a = &ps[0];
                    let seq = g.derived.last_seq.get("allies").copied().unwrap_or(0) + 1;
                    let m = dt::mail(
                        &a.address,
                        "forged@players.example",
                        &ps[1].key,
                        &dt::orders(game, "allies", seq, "activate x"),
                    );
                    ("forged.eml".to_string(), m)
                }
                // No block at all: a refusal, the mail goes to rejected/.
                (0, 5) => (
                    "noblock.eml".to_string(),
                    format!(
                        "From: ann@players.example\r\nTo: {}\r\nSubject: hi\r\nMessage-ID: <hi@players.example>\r\n\r\nJust saying hello.\r\n",
                        dt::REFEREE
                    ),
                ),
                // The first mail again under a new Message-ID: a stale seq, refused.
                (0, 7) => (
                    "replay.eml".to_string(),
                    first
                        .clone()
                        .unwrap()
                        .replace("Message-ID: <", "Message-ID: <again-"),
                ),
                _ => match bots[gi].next_mail(&g) {
                    Some(x) => x,
                    None => continue,
                },
            };
            if first.is_none() {
                first = Some(m.clone());
            }
            let name = format!("{k:05}-{gi}-{name}");
            std::fs::write(reference.maildir().join("new").join(&name), &m).unwrap();
            let sum = env.run(dt::NOW);
            assert!(sum.broken.is_empty(), "{sum:?}");
            batch.push((name, m));
        }
    }
    batch
}

/// Prints how many kills there were and at how many different ledger lengths they landed. Both
/// depend on how fast the machine is at the moment, so they are reported, never asserted: a busy
/// CI machine must not fail a test whose outcomes (nothing lost, nothing doubled) all hold.
fn report_spread(what: &str, kills: u64, progress: &BTreeMap<usize, u32>) {
    eprintln!(
        "{what}: {kills} kills landed at {} different ledger lengths{}",
        progress.len(),
        if kills < 30 || progress.len() < 5 {
            " (few: the machine was busy or fast; the outcomes were still checked)"
        } else {
            ""
        }
    );
}

/// A deterministic sequence of delays: short ones (startup, first mails) mixed with longer ones,
/// growing slowly so every phase of a run (intake, appends, snapshot, queue, delivery) is hit.
fn delay(i: u64) -> Duration {
    let jitter = (i.wrapping_mul(2_654_435_761) >> 7) % 48;
    Duration::from_millis(3 + jitter + i * 3 / 2)
}

/// Starts `dustmail run` on `crashed` and kills it (SIGKILL) after each delay in turn, until a
/// run finishes by itself or `budget` is spent (then one run without a kill); then checks that
/// one more run finds nothing to do. Returns the number of kills and, for each total ledger length
/// seen after a kill, how often.
fn kill_until_done(crashed: &Home, budget: Duration) -> (u64, BTreeMap<usize, u32>) {
    // Kill, again and again, until one run finishes by itself.
    let start = Instant::now();
    let mut kills = 0u64;
    let mut progress = BTreeMap::new(); // ledger length after each kill -> how often
    let mut finished = false;
    for i in 0..300u64 {
        let mut child = Command::new(dt::bin())
            .args(["--home"])
            .arg(&crashed.root)
            .args(["run", "--once", "--now", dt::NOW])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(delay(i));
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            assert!(
                status.success(),
                "a run after {kills} kills failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            finished = true;
            break;
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        kills += 1;
        let lines: usize = GAMES
            .iter()
            .map(|g| {
                std::fs::read(dt::log_path(crashed, g))
                    .map(|b| b.split(|&c| c == b'\n').count())
                    .unwrap_or(0)
            })
            .sum();
        *progress.entry(lines).or_insert(0u32) += 1;
        if start.elapsed() > budget {
            break;
        }
    }
    if !finished {
        let o = dt::dustmail(&crashed.root, &["run", "--once", "--now", dt::NOW]);
        assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    }
    // One more run finds nothing left to do.
    let o = dt::dustmail(&crashed.root, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(out.contains("mails 0 accepted 0 refused 0"), "{out}");
    assert!(out.contains("delivered 0 failed 0 waiting 0"), "{out}");
    eprintln!(
        "{kills} kills in {:?}; ledger lines seen after a kill: {progress:?}",
        start.elapsed()
    );
    (kills, progress)
}

/// Two copies of a home with GAMES created: the reference has processed the batch (one mail per
/// run), the other has the whole batch waiting in maildir/new.
fn setup(d: &Path) -> (Home, Home, Vec<(String, String)>) {
    let base = dt::init_home(&d.join("base"), "file");
    for (i, g) in GAMES.iter().enumerate() {
        dt::new_game(&base, g, &dt::players(0), 5 + i as u8);
    }
    let reference = Home::new(d.join("reference"));
    let crashed = Home::new(d.join("crashed"));
    dt::copy_tree(&base.root, &reference.root);
    dt::copy_tree(&base.root, &crashed.root);
    let batch = reference_batch(&reference, 40);
    // Enough mails for many kill points (57 since rules revision 2 changed these bot games).
    assert!(
        batch.len() >= 50,
        "the bots stopped early: {} mails",
        batch.len()
    );
    for (name, m) in &batch {
        std::fs::write(crashed.maildir().join("new").join(name), m).unwrap();
    }
    (reference, crashed, batch)
}

/// The ledgers are byte-identical, each routed block is recorded once, every replay verifies.
fn assert_same_ledgers(reference: &Home, crashed: &Home, batch_len: usize) {
    let mut subs_total = 0;
    let mut refused = 0;
    for game in GAMES {
        let ref_log = std::fs::read_to_string(dt::log_path(reference, game)).unwrap();
        let crash_log = std::fs::read_to_string(dt::log_path(crashed, game)).unwrap();
        if ref_log != crash_log {
            let a: Vec<&str> = ref_log.lines().collect();
            let b: Vec<&str> = crash_log.lines().collect();
            let first_diff = a.iter().zip(&b).position(|(x, y)| x != y);
            panic!(
                "{game}: ledgers differ: reference {} lines, crashed {} lines, first different line {:?}",
                a.len(),
                b.len(),
                first_diff.map(|p| p + 1)
            );
        }
        let subs = dt::submissions(crashed, game);
        let mut seen = std::collections::BTreeSet::new();
        for (sha, block, _) in &subs {
            assert!(
                seen.insert((sha.clone(), *block)),
                "{game}: mail {sha} applied twice"
            );
        }
        subs_total += subs.len();
        refused += subs.iter().filter(|s| !s.2).count();
        let o = dt::dustmail(&crashed.root, &["replay", game]);
        assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    }
    assert_eq!(
        subs_total,
        batch_len - 1,
        "every mail but the blockless one is recorded"
    );
    assert_eq!(refused, 2, "forged + replay refused");
}

#[test]
fn kill_9_during_smtp_delivery_delivers_every_mail_at_least_once() {
    let d = tempfile::tempdir().unwrap();
    let (reference, crashed, batch) = setup(d.path());
    let server = smtp::SmtpServer::start();
    let cfg = std::fs::read_to_string(crashed.config_path()).unwrap();
    let smtp_cfg = cfg.replace(
        "transport = \"file\"",
        &format!("transport = \"smtp://127.0.0.1:{}\"", server.port()),
    );
    assert_ne!(cfg, smtp_cfg);
    std::fs::write(crashed.config_path(), smtp_cfg).unwrap();

    let (kills, progress) = kill_until_done(&crashed, Duration::from_secs(30));
    // Issue 10 finding 19: where the kills land depends on the machine's load, so the spread is
    // a reported figure, never asserted; the outcomes below are what must hold.
    report_spread("smtp delivery", kills, &progress);
    assert_same_ledgers(&reference, &crashed, batch.len());

    // sent/ records each mail once; the server got each at least once. A kill between the
    // server's 250 and the rename into sent/ re-sends that mail (the documented window).
    let sent = dt::names(&crashed.root.join("sent"));
    assert_eq!(sent, dt::names(&reference.root.join("sent")));
    let got = server.messages();
    let mut per_id: BTreeMap<String, usize> = BTreeMap::new();
    for m in &got {
        let text = String::from_utf8_lossy(m);
        let id = text
            .lines()
            .find_map(|l| l.strip_prefix("Message-ID: <"))
            .and_then(|l| l.split('@').next())
            .unwrap_or_default()
            .to_string();
        *per_id.entry(id).or_default() += 1;
    }
    for n in &sent {
        let id = n.trim_end_matches(".eml");
        assert!(per_id.contains_key(id), "{id} never reached the server");
    }
    assert_eq!(
        per_id.len(),
        sent.len(),
        "the server got mails nobody queued"
    );
    let dups: usize = per_id.values().map(|c| c - 1).sum();
    eprintln!(
        "{kills} kills; {} mails delivered, {dups} sent twice by a kill inside the re-send window",
        sent.len()
    );
}

#[test]
fn kill_9_at_many_points_of_run_loses_nothing_and_applies_nothing_twice() {
    let d = tempfile::tempdir().unwrap();
    let (reference, crashed, batch) = setup(d.path());
    let (kills, progress) = kill_until_done(&crashed, Duration::from_secs(45));
    // Issue 10 finding 19: a figure to read, not a condition (it depends on the machine's load).
    report_spread("run", kills, &progress);

    // Nothing lost, nothing twice: the ledgers are identical, byte for byte.
    assert_same_ledgers(&reference, &crashed, batch.len());

    // Every mail delivered exactly once: the same files in sent/, with the same bytes.
    assert_eq!(
        dt::names(&crashed.root.join("outbox")),
        Vec::<String>::new()
    );
    let sent_ref = dt::names(&reference.root.join("sent"));
    let sent = dt::names(&crashed.root.join("sent"));
    assert_eq!(sent, sent_ref);
    for n in &sent {
        assert_eq!(
            std::fs::read(crashed.root.join("sent").join(n)).unwrap(),
            std::fs::read(reference.root.join("sent").join(n)).unwrap(),
            "sent/{n} differs"
        );
    }
    assert_eq!(
        dt::names(&crashed.maildir().join("cur")),
        dt::names(&reference.maildir().join("cur"))
    );
    assert_eq!(
        dt::names(&crashed.rejected()),
        dt::names(&reference.rejected())
    );
    assert_eq!(
        dt::names(&crashed.maildir().join("new")),
        Vec::<String>::new()
    );
}
