//! Issue 6 item 4: faults around `dustmail run` — a torn last ledger line, a write limit that
//! tears the ledger mid-append, a full disk under the outbox, the SMTP server down and back.
//! Each time: nothing accepted is lost, nothing is applied twice, the operator is told.
//! Each test compares with a reference home that processed the same mails without a fault.

use crate::support::dt;
use crate::support::smtp;

use dt::{Bots, InProc};
use dustmail::config::Home;
use dustmail::dust_tactics::bot::Style;
use std::path::Path;
use std::process::Command;

const GAME: &str = "g-fault";

/// A home with game g-fault whose welcome mails are delivered.
fn game_home(root: &Path, transport: &str) -> Home {
    let h = dt::init_home(root, transport);
    dt::new_game(&h, GAME, &dt::players(0), 3);
    h
}

/// The next `n` bot mails for `home` (each processed in-process into `home` as it is made, so
/// `home` becomes the reference that saw them without a fault).
fn play(home: &Home, bots: &mut Bots, n: usize) -> Vec<(String, String)> {
    let env = InProc::open(home);
    let mut out = Vec::new();
    for _ in 0..n {
        let g = env.load(GAME);
        let Some((name, m)) = bots.next_mail(&g) else {
            break;
        };
        std::fs::write(home.maildir().join("new").join(&name), &m).unwrap();
        let sum = env.run(dt::NOW);
        assert!(sum.broken.is_empty(), "{sum:?}");
        out.push((name, m));
    }
    out
}

fn bots() -> Bots {
    Bots::new(GAME, &dt::players(0), |i| Style::Random(11 + i as u64))
}

fn run(home: &Home) -> std::process::Output {
    dt::dustmail(&home.root, &["run", "--once", "--now", dt::NOW])
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The faulty home ended exactly where the reference did.
fn assert_same(reference: &Home, faulty: &Home) {
    let a = std::fs::read_to_string(dt::log_path(reference, GAME)).unwrap();
    let b = std::fs::read_to_string(dt::log_path(faulty, GAME)).unwrap();
    assert_eq!(
        a.lines().count(),
        b.lines().count(),
        "ledger lengths differ"
    );
    assert!(a == b, "the ledgers differ");
    assert_eq!(
        dt::names(&faulty.root.join("sent")),
        dt::names(&reference.root.join("sent"))
    );
    assert_eq!(dt::names(&faulty.root.join("outbox")), Vec::<String>::new());
    assert_eq!(
        dt::names(&faulty.maildir().join("new")),
        Vec::<String>::new()
    );
    let o = dt::dustmail(&faulty.root, &["replay", GAME]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

#[test]
fn a_torn_last_ledger_line_is_reported_removed_and_its_mail_applied_once() {
    let d = tempfile::tempdir().unwrap();
    let reference = game_home(&d.path().join("reference"), "file");
    let mut b = bots();
    play(&reference, &mut b, 3);
    let before = std::fs::read(dt::log_path(&reference, GAME)).unwrap();
    let faulty = Home::new(d.path().join("faulty"));
    dt::copy_tree(&reference.root, &faulty.root);
    let last = play(&reference, &mut b, 1);
    assert_eq!(last.len(), 1);
    let after = std::fs::read(dt::log_path(&reference, GAME)).unwrap();

    // The crash: half of the mail's ledger line reached the disk, its mail is still in new/.
    let new_part = &after[before.len()..];
    let mut torn = before.clone();
    torn.extend_from_slice(&new_part[..new_part.len() / 2]);
    std::fs::write(dt::log_path(&faulty, GAME), &torn).unwrap();
    let (name, m) = &last[0];
    std::fs::write(faulty.maildir().join("new").join(name), m).unwrap();

    // A reader does not repair: it names the torn line and exits 1.
    let o = dt::dustmail(&faulty.root, &["replay", GAME]);
    assert_eq!(o.status.code(), Some(1), "{}", dt::text(&o));
    let n = before.iter().filter(|&&c| c == b'\n').count() + 1;
    assert!(
        stderr(&o).contains(&format!("line {n}")),
        "{}",
        dt::text(&o)
    );

    // The run (the only writer) removes the torn tail, says so, and applies the mail once.
    let o = run(&faulty);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        stderr(&o).contains("removed a torn last line"),
        "{}",
        dt::text(&o)
    );
    assert_same(&reference, &faulty);
}

/// `dustmail run` under `ulimit -f` (SIGXFSZ ignored, so writes past the limit fail with EFBIG).
fn run_with_file_limit(home: &Home, bytes: u64) -> std::process::Output {
    let blocks = bytes / 512;
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f {blocks} && exec \"$0\" --home \"$1\" run --once --now {}",
            dt::NOW
        ))
        .arg(dt::bin())
        .arg(&home.root)
        .env_remove("DUSTMAIL_HOME")
        .output()
        .unwrap()
}

#[test]
fn a_write_limit_that_tears_a_ledger_append_loses_nothing_and_applies_nothing_twice() {
    let d = tempfile::tempdir().unwrap();
    let reference = game_home(&d.path().join("reference"), "file");
    let mut b = bots();
    play(&reference, &mut b, 2);
    let faulty = Home::new(d.path().join("faulty"));
    dt::copy_tree(&reference.root, &faulty.root);
    let batch = play(&reference, &mut b, 3);
    for (name, m) in &batch {
        std::fs::write(faulty.maildir().join("new").join(name), m).unwrap();
    }
    // Just past the ledger's present size: the next append is cut short by the limit.
    let size = std::fs::metadata(dt::log_path(&faulty, GAME))
        .unwrap()
        .len();
    let limit = (size / 512 + 1) * 512;
    assert!(limit > size);
    let o = run_with_file_limit(&faulty, limit);
    assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
    assert!(stderr(&o).contains("File too large"), "{}", dt::text(&o));
    // Nothing about the failed append left the machine, and its mail waits in new/.
    assert_eq!(dt::names(&faulty.maildir().join("new")).len(), batch.len());

    let o = run(&faulty);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    if std::fs::metadata(dt::log_path(&reference, GAME))
        .unwrap()
        .len()
        > limit
    {
        assert!(
            stderr(&o).contains("removed a torn last line"),
            "{}",
            dt::text(&o)
        );
    }
    assert_same(&reference, &faulty);
}

/// A tmpfs mounted on a directory for the length of a test.
struct Mount(std::path::PathBuf);

impl Mount {
    fn tmpfs(dir: &Path, size: &str) -> Result<Mount, String> {
        let o = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output()
            .map_err(|e| e.to_string())?;
        if o.status.success() {
            Ok(Mount(dir.to_path_buf()))
        } else {
            Err(String::from_utf8_lossy(&o.stderr).into_owned())
        }
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_under_the_outbox_fails_the_run_and_the_next_run_sends_everything_once() {
    let d = tempfile::tempdir().unwrap();
    let reference = game_home(&d.path().join("reference"), "file");
    let o = run(&reference);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let faulty = Home::new(d.path().join("faulty"));
    dt::copy_tree(&reference.root, &faulty.root);
    let mut b = bots();
    let batch = play(&reference, &mut b, 3);
    for (name, m) in &batch {
        std::fs::write(faulty.maildir().join("new").join(name), m).unwrap();
    }

    // outbox/ and sent/ on a small filesystem of their own (one filesystem, as in a real home,
    // so delivery can rename from one to the other); the ledger stays on the big one.
    let spool = d.path().join("spool");
    std::fs::create_dir(&spool).unwrap();
    let mount = match Mount::tmpfs(&spool, "1m") {
        Ok(m) => m,
        Err(e) => {
            eprintln!("SKIPPED: cannot mount a small tmpfs here (needs root): {e}");
            return;
        }
    };
    for dir in ["outbox", "sent"] {
        dt::copy_tree(&faulty.root.join(dir), &spool.join(dir));
        std::fs::remove_dir_all(faulty.root.join(dir)).unwrap();
        std::os::unix::fs::symlink(spool.join(dir), faulty.root.join(dir)).unwrap();
    }
    let outbox = spool.join("outbox");
    assert_eq!(dt::names(&outbox), Vec::<String>::new());
    // Fill it: not one more byte fits.
    let filler = spool.join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    let chunk = vec![0u8; 4096];
    while std::io::Write::write_all(&mut f, &chunk).is_ok() {}
    drop(f);

    let o = run(&faulty);
    assert_ne!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        stderr(&o).contains("No space left on device"),
        "the operator is told why: {}",
        dt::text(&o)
    );
    // The mails applied before the commit failed are in the ledger (lines are appended before
    // their replies are staged); every mail still waits in new/, none was moved.
    assert_eq!(dt::names(&faulty.maildir().join("new")).len(), batch.len());
    let applied = dt::submissions(&faulty, GAME).len();
    assert!(
        (1..=batch.len()).contains(&applied),
        "{applied} of {}",
        batch.len()
    );

    // Space again: the next run re-queues the replies of exactly those mails and goes on.
    std::fs::remove_file(&filler).unwrap();
    let o = run(&faulty);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(&format!("re-queued {applied}")),
        "{}",
        dt::text(&o)
    );
    // Compare before the tmpfs goes away (the sent mails left it already).
    assert_same(&reference, &faulty);
    drop(mount);
}

#[test]
fn smtp_down_then_back_delivers_every_mail_exactly_once() {
    let d = tempfile::tempdir().unwrap();
    let port = smtp::free_port();
    let home = game_home(&d.path().join("home"), &format!("smtp://127.0.0.1:{port}"));
    let env = InProc::open(&home);
    let mut b = bots();
    let g = env.load(GAME);
    let (name, m) = b.next_mail(&g).unwrap();
    std::fs::write(home.maildir().join("new").join(&name), &m).unwrap();

    // Down: the run applies the mail, keeps its replies and the welcome mails, says why.
    let o = run(&home);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(out.contains("accepted 1"), "{}", dt::text(&o));
    assert!(out.contains("delivered 0"), "{}", dt::text(&o));
    assert!(stderr(&o).contains("delivery:"), "{}", dt::text(&o));
    let queued: Vec<String> = dt::names(&home.root.join("outbox"))
        .into_iter()
        .filter_map(|n| n.strip_suffix(".json").map(str::to_string))
        .collect();
    assert!(queued.len() >= 3, "welcomes + replies wait: {queued:?}");

    // Back: a later run (past the 1-minute backoff) delivers each once; the next one nothing.
    let mut server = smtp::SmtpServer::start_on(port);
    let later = "2026-03-01T10:05:00Z";
    let o = dt::dustmail(&home.root, &["run", "--once", "--now", later]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(&format!("delivered {}", queued.len())),
        "{}",
        dt::text(&o)
    );
    let o = dt::dustmail(&home.root, &["run", "--once", "--now", later]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("delivered 0 failed 0 waiting 0"),
        "{}",
        dt::text(&o)
    );
    let got = server.messages();
    assert_eq!(got.len(), queued.len());
    for id in &queued {
        let n = got
            .iter()
            .filter(|m| String::from_utf8_lossy(m).contains(&format!("<{id}@")))
            .count();
        assert_eq!(n, 1, "mail {id} arrived {n} times");
    }
    assert_eq!(dt::submissions(&home, GAME).len(), 1, "applied once");
    server.stop();
}

#[test]
fn a_run_killed_between_a_step_and_its_round_end_completes_the_round_on_the_next_run() {
    // The deterministic twin of the kill -9 test for its nastiest point: the step's line is on
    // disk, its round-end line (the revealed key) is not, its mail is still in new/.
    let d = tempfile::tempdir().unwrap();
    let reference = game_home(&d.path().join("reference"), "file");
    let mut b = bots();
    let entries = loop {
        assert!(
            !play(&reference, &mut b, 1).is_empty(),
            "the game ended first"
        );
        let e = dustmail::ledger::read_all(&dt::log_path(&reference, GAME)).unwrap();
        if e.iter()
            .any(|e| matches!(e.event, dustmail::ledger::Event::RoundEnd(_)))
        {
            break e;
        }
    };
    let round_end = entries
        .iter()
        .find(|e| matches!(e.event, dustmail::ledger::Event::RoundEnd(_)))
        .unwrap()
        .seq;
    let faulty = Home::new(d.path().join("faulty"));
    dt::copy_tree(&reference.root, &faulty.root);
    // Cut the ledger after the step, drop the snapshot, put the step's mail back in new/.
    let log = std::fs::read_to_string(dt::log_path(&faulty, GAME)).unwrap();
    let kept: String = log
        .split_inclusive('\n')
        .take(round_end as usize - 1)
        .collect();
    std::fs::write(dt::log_path(&faulty, GAME), kept).unwrap();
    std::fs::remove_file(faulty.game_dir(GAME).join("snapshot.json")).unwrap();
    let step_sha = match &entries[round_end as usize - 2].event {
        dustmail::ledger::Event::Submission(s) => s.mail_sha256.clone(),
        e => panic!("the line before the round end is not a submission: {e:?}"),
    };
    let cur = faulty.maildir().join("cur");
    for n in dt::names(&cur) {
        let bytes = std::fs::read(cur.join(&n)).unwrap();
        if dustmail::ledger::sha256_hex(&bytes) == step_sha {
            std::fs::rename(cur.join(&n), faulty.maildir().join("new").join(&n)).unwrap();
        }
    }
    assert_eq!(dt::names(&faulty.maildir().join("new")).len(), 1);

    let o = run(&faulty);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        stderr(&o).contains("completed the round-end / end-of-game lines"),
        "the operator is told: {}",
        dt::text(&o)
    );
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("re-queued 1"),
        "{}",
        dt::text(&o)
    );
    assert_same(&reference, &faulty);
}

#[test]
fn a_run_interrupted_after_a_deadline_default_queues_its_mails_on_the_next_run() {
    // A run stages its mails and releases them only at its commit. Killed after appending a
    // deadline default but before that commit, it leaves the default in the ledger, the batch
    // marker in outbox/.staged, and no mail about it anywhere; no Maildir mail brings the step
    // back, so the next run must find it and queue its mails.
    let d = tempfile::tempdir().unwrap();
    let reference = game_home(&d.path().join("reference"), "file");
    let faulty = Home::new(d.path().join("faulty"));
    dt::copy_tree(&reference.root, &faulty.root);
    let late = "2026-03-20T10:00:00Z"; // far past deadline and grace
    let o = dt::dustmail(&reference.root, &["run", "--once", "--now", late]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    // Mails that existed before the late run (the welcomes, still queued) are not its own.
    let mut before = dt::names(&faulty.root.join("sent"));
    before.extend(dt::names(&faulty.root.join("outbox")));
    let o = dt::dustmail(&faulty.root, &["run", "--once", "--now", late]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let entries = dustmail::ledger::read_all(&dt::log_path(&faulty, GAME)).unwrap();
    let defaults = entries
        .iter()
        .filter(|e| matches!(e.event, dustmail::ledger::Event::Deadline(_)))
        .count();
    assert!(defaults > 0, "the late run applied a default");
    // What the kill leaves: the default's mails were staged, never released.
    let made: Vec<String> = dt::names(&faulty.root.join("sent"))
        .into_iter()
        .filter(|n| !before.contains(n))
        .collect();
    assert!(made.iter().any(|n| n.contains("-report-")), "{made:?}");
    for n in &made {
        std::fs::remove_file(faulty.root.join("sent").join(n)).unwrap();
    }
    let staged = faulty.root.join("outbox").join(".staged");
    std::fs::create_dir_all(&staged).unwrap();
    std::fs::write(staged.join("OPEN"), "").unwrap();

    let o = dt::dustmail(&faulty.root, &["run", "--once", "--now", late]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let said = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(
        said.contains("previous run was interrupted")
            && said.contains(&format!("{defaults} deadline step(s) re-queued")),
        "{said}"
    );
    assert_same(&reference, &faulty);
    for n in &made {
        assert_eq!(
            std::fs::read(faulty.root.join("sent").join(n)).unwrap(),
            std::fs::read(reference.root.join("sent").join(n)).unwrap(),
            "sent/{n} differs from the uninterrupted run's"
        );
    }
    assert!(!staged.exists(), "the batch is closed");
}

#[test]
fn board_pictures_off_sends_reports_with_the_text_board_and_no_png() {
    // config.toml `board_pictures = false`: smaller mails and faster runs; the text board is in
    // every report anyway.
    let d = tempfile::tempdir().unwrap();
    let h = dt::init_home(&d.path().join("home"), "file");
    let cfg = std::fs::read_to_string(h.config_path()).unwrap();
    assert!(cfg.contains("board_pictures = true"), "{cfg}");
    std::fs::write(
        h.config_path(),
        cfg.replace("board_pictures = true", "board_pictures = false"),
    )
    .unwrap();
    dt::new_game(&h, GAME, &dt::players(0), 3);
    let mut b = bots();
    play(&h, &mut b, 2);
    let o = run(&h);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let sent = dt::names(&h.root.join("sent"));
    let reports: Vec<&String> = sent.iter().filter(|n| n.contains("-report-")).collect();
    assert!(!reports.is_empty(), "{sent:?}");
    for n in sent
        .iter()
        .filter(|n| n.contains("-report-") || n.contains("-welcome-"))
    {
        let eml = std::fs::read_to_string(h.root.join("sent").join(n)).unwrap();
        assert!(!eml.contains("image/png"), "{n} carries a picture");
        assert!(!eml.contains("cid:board"), "{n} points at a picture");
        assert!(eml.contains("text/html"), "{n} still has its HTML part");
    }
    // The text board: the squares' column letters along its top edge.
    let report = std::fs::read_to_string(h.root.join("sent").join(reports[0])).unwrap();
    let parsed = mail_parser::MessageParser::default()
        .parse(report.as_bytes())
        .unwrap();
    let text = parsed.body_text(0).unwrap_or_default().into_owned();
    assert!(text.contains("A  B  C"), "{text}");
}
