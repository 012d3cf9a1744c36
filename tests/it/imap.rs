//! Issue 17 item 2: `dustmail run --imap` against a real IMAP server (dovecot on loopback, see
//! tests/it/support/dovecot.rs): a game played from the mailbox through the real binary, kill -9
//! during runs compared with an uninterrupted reference, and the settings errors.

use crate::support::dovecot::Dovecot;
use crate::support::dt;
use dt::{Bots, InProc};
use dustmail::config::Home;
use dustmail::dust_tactics::bot::Style;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PROCESSED: &str = "dustmail/processed";
const REJECTED: &str = "dustmail/rejected";

fn add_imap(home: &Home, server: &Dovecot) {
    let mut cfg = std::fs::read_to_string(home.config_path()).unwrap();
    cfg.push_str(&server.config_table());
    std::fs::write(home.config_path(), cfg).unwrap();
}

fn run_imap(home: &Home) -> std::process::Output {
    dt::dustmail(&home.root, &["run", "--once", "--imap", "--now", dt::NOW])
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A mail without any signed block: no game can be found for it (rejected/).
fn blockless(n: usize) -> String {
    format!(
        "From: carl@players.example\r\nTo: {}\r\nSubject: hello\r\nMessage-ID: <hello-{n}@players.example>\r\n\r\nJust saying hello.\r\n",
        dt::REFEREE
    )
}

/// Issue 17 item 2: a game played from an IMAP mailbox through the real binary, several runs
/// with accepted, refused and unroutable mails. Each run fetches the folder's mail, processes it
/// as Maildir mail (replies delivered by the file transport into sent/), and only then moves each
/// message out of INBOX: routed ones to dustmail/processed, unroutable ones to dustmail/rejected.
#[test]
fn a_game_is_played_from_an_imap_mailbox_and_processed_mail_leaves_the_inbox() {
    let server = Dovecot::start();
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = dt::players(0);
    dt::new_game(&home, "g-imap", &ps, 9);
    add_imap(&home, &server);
    let env = InProc::open(&home);
    let mut bots = Bots::new("g-imap", &ps, |i| Style::Random(3 + i as u64));

    let mut routed: Vec<String> = Vec::new();
    let mut unroutable: Vec<String> = Vec::new();
    let mut accepted_total = 0;
    for run in 0..6 {
        let g = env.load("g-imap");
        let mut appended = Vec::new();
        if let Some((_, m)) = bots.next_mail(&g) {
            appended.push(m.clone());
            routed.push(m);
        }
        if run == 2 {
            // Signed with the opponent's key: recorded and refused.
            let seq = g.derived.last_seq.get("allies").copied().unwrap_or(0) + 1;
            let m = dt::mail(
                &ps[0].address,
                "forged@players.example",
                &ps[1].key,
                &dt::orders("g-imap", "allies", seq, "activate x"),
            );
            appended.push(m.clone());
            routed.push(m);
        }
        if run == 3 {
            let m = blockless(run);
            appended.push(m.clone());
            unroutable.push(m);
        }
        for m in &appended {
            server.append("INBOX", m);
        }
        let sent_before = dt::names(&home.root.join("sent")).len();
        let o = run_imap(&home);
        assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
        let out = stdout(&o);
        assert!(
            out.contains(&format!(
                "imap listed {n} fetched {n} moved {n} left 0",
                n = appended.len()
            )),
            "{out}"
        );
        accepted_total += out
            .lines()
            .find_map(|l| l.strip_prefix("mails "))
            .and_then(|l| l.split(' ').nth(2))
            .map(|n| n.parse::<usize>().unwrap())
            .unwrap();
        // Nothing left in the inbox; each mail moved once, bytes unchanged.
        assert!(server.messages("INBOX").is_empty());
        let bytes = |v: &[String]| v.iter().map(|m| m.as_bytes().to_vec()).collect::<Vec<_>>();
        assert_eq!(server.messages(PROCESSED), bytes(&routed), "run {run}");
        assert_eq!(server.messages(REJECTED), bytes(&unroutable), "run {run}");
        // The replies went out through the ordinary transport.
        assert!(
            dt::names(&home.root.join("sent")).len() > sent_before,
            "run {run}: no reply"
        );
        assert!(dt::names(&home.maildir().join("new")).is_empty());
    }
    assert_eq!(dt::names(&home.maildir().join("cur")).len(), routed.len());
    assert_eq!(dt::names(&home.rejected()).len(), unroutable.len());
    let subs = dt::submissions(&home, "g-imap");
    assert_eq!(subs.len(), routed.len(), "every routed mail recorded once");
    assert_eq!(subs.iter().filter(|s| s.2).count(), accepted_total);
    assert_eq!(subs.iter().filter(|s| !s.2).count(), 1, "the forged block");
    assert!(accepted_total >= 5, "{accepted_total}");
    // The stranger's blockless mail was answered (a refusal in sent/ to carl).
    let to_carl = dt::names(&home.root.join("sent"))
        .into_iter()
        .filter(|n| n.ends_with(".eml"))
        .filter(|n| {
            std::fs::read_to_string(home.root.join("sent").join(n))
                .unwrap()
                .contains("To: carl@players.example")
        })
        .count();
    assert_eq!(to_carl, 1);
    // A run with nothing new changes nothing.
    let o = run_imap(&home);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        stdout(&o).contains("imap listed 0 fetched 0 moved 0 left 0"),
        "{}",
        dt::text(&o)
    );
    let o = dt::dustmail(&home.root, &["replay", "g-imap"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

const GAMES: [&str; 2] = ["g-imapk-a", "g-imapk-b"];

/// The reference: the batch processed from maildir/new without interruption, one mail per run
/// (as tests/it/crash.rs does), with a forged block, a blockless mail and a stale replay.
fn reference_batch(reference: &Home, n: usize) -> Vec<String> {
    let ps = dt::players(0);
    let env = InProc::open(reference);
    let mut bots: Vec<Bots> = GAMES
        .iter()
        .enumerate()
        .map(|(gi, g)| {
            Bots::new(g, &ps, |i| Style::Random(11 + 10 * gi as u64 + i as u64)).ask_everything()
        })
        .collect();
    let mut batch = Vec::new();
    let mut first: Option<String> = None;
    for k in 0..n {
        for (gi, game) in GAMES.iter().enumerate() {
            let g = env.load(game);
            let m = match (gi, k) {
                (0, 2) => {
                    let seq = g.derived.last_seq.get("allies").copied().unwrap_or(0) + 1;
                    dt::mail(
                        &ps[0].address,
                        "forged-k@players.example",
                        &ps[1].key,
                        &dt::orders(game, "allies", seq, "activate x"),
                    )
                }
                (0, 4) => blockless(k),
                (1, 6) => first
                    .clone()
                    .unwrap()
                    .replace("Message-ID: <", "Message-ID: <again-"),
                _ => match bots[gi].next_mail(&g) {
                    Some((_, m)) => m,
                    None => continue,
                },
            };
            if first.is_none() {
                first = Some(m.clone());
            }
            let name = format!("{:05}.eml", batch.len());
            std::fs::write(reference.maildir().join("new").join(&name), &m).unwrap();
            let sum = env.run(dt::NOW);
            assert!(sum.broken.is_empty(), "{sum:?}");
            batch.push(m);
        }
    }
    batch
}

/// Delays growing slowly with a deterministic jitter, so kills land in every phase of a run
/// (connect, download, processing, commit, the moves on the server, delivery).
fn delay(i: u64) -> Duration {
    let jitter = (i.wrapping_mul(2_654_435_761) >> 7) % 40;
    Duration::from_millis(5 + jitter + i * 4)
}

/// Issue 17 item 2: kill -9 of the real binary at many points of `run --imap`, then clean runs:
/// compared with a reference that processed the same mails from its Maildir without
/// interruption, every submission is applied exactly once (byte-identical ledgers), every reply
/// delivered once (the same sent/), and every message ends moved exactly once (INBOX empty,
/// nothing lost, no copy twice).
#[test]
fn kill_9_during_imap_runs_loses_nothing_and_applies_nothing_twice() {
    let server = Dovecot::start();
    let d = tempfile::tempdir().unwrap();
    let base = dt::init_home(&d.path().join("base"), "file");
    for (i, g) in GAMES.iter().enumerate() {
        dt::new_game(&base, g, &dt::players(0), 21 + i as u8);
    }
    let reference = Home::new(d.path().join("reference"));
    let crashed = Home::new(d.path().join("crashed"));
    dt::copy_tree(&base.root, &reference.root);
    dt::copy_tree(&base.root, &crashed.root);
    let batch = reference_batch(&reference, 14);
    assert!(batch.len() >= 20, "the bots stopped early: {}", batch.len());
    add_imap(&crashed, &server);
    for m in &batch {
        server.append("INBOX", m);
    }

    let start = Instant::now();
    let mut kills = 0u64;
    let mut spread = BTreeMap::new();
    let mut finished = false;
    for i in 0..200u64 {
        let mut child = Command::new(dt::bin())
            .arg("--home")
            .arg(&crashed.root)
            .args(["run", "--once", "--imap", "--now", dt::NOW])
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
        // Where the kill landed: (ledger lines, messages still in INBOX). Reported, never
        // asserted: it depends on the machine's load.
        let lines: usize = GAMES
            .iter()
            .map(|g| std::fs::read(dt::log_path(&crashed, g)).map_or(0, |b| b.len()))
            .sum();
        *spread
            .entry((lines, server.messages("INBOX").len()))
            .or_insert(0u32) += 1;
        if start.elapsed() > Duration::from_secs(40) {
            break;
        }
    }
    if !finished {
        let o = run_imap(&crashed);
        assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    }
    // One more run finds nothing to do, on the server or locally.
    let o = run_imap(&crashed);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let out = stdout(&o);
    assert!(
        out.contains("imap listed 0 fetched 0 moved 0 left 0"),
        "{out}"
    );
    assert!(out.contains("mails 0 accepted 0 refused 0"), "{out}");
    assert!(out.contains("delivered 0 failed 0 waiting 0"), "{out}");
    eprintln!(
        "imap: {kills} kills in {:?} (finished by itself: {finished}); (ledger bytes, inbox) after each kill: {spread:?}",
        start.elapsed()
    );

    // Every submission exactly once: the ledgers are byte-identical to the reference's.
    for game in GAMES {
        let a = std::fs::read_to_string(dt::log_path(&reference, game)).unwrap();
        let b = std::fs::read_to_string(dt::log_path(&crashed, game)).unwrap();
        assert!(a == b, "{game}: the ledgers differ after {kills} kills");
        let o = dt::dustmail(&crashed.root, &["replay", game]);
        assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    }
    // Every reply delivered once, the same bytes as the reference's.
    let sent = dt::names(&crashed.root.join("sent"));
    assert_eq!(sent, dt::names(&reference.root.join("sent")));
    for n in &sent {
        assert_eq!(
            std::fs::read(crashed.root.join("sent").join(n)).unwrap(),
            std::fs::read(reference.root.join("sent").join(n)).unwrap(),
            "sent/{n} differs"
        );
    }
    // No mail lost or left unmoved, none moved twice: the folders hold the batch exactly.
    assert!(server.messages("INBOX").is_empty());
    let mut got: BTreeMap<Vec<u8>, usize> = BTreeMap::new();
    for m in server
        .messages(PROCESSED)
        .into_iter()
        .chain(server.messages(REJECTED))
    {
        *got.entry(m).or_default() += 1;
    }
    let mut want: BTreeMap<Vec<u8>, usize> = BTreeMap::new();
    for m in &batch {
        *want.entry(m.as_bytes().to_vec()).or_default() += 1;
    }
    assert!(
        got == want,
        "the server's folders do not hold the batch once each"
    );
    assert_eq!(server.messages(REJECTED), vec![blockless(4).into_bytes()]);
    assert_eq!(
        dt::names(&crashed.maildir().join("cur")).len(),
        dt::names(&reference.maildir().join("cur")).len()
    );
    assert_eq!(
        dt::names(&crashed.rejected()).len(),
        dt::names(&reference.rejected()).len()
    );
    assert!(dt::names(&crashed.maildir().join("new")).is_empty());
}

fn expect_settings_error(home: &Path, table: &str, wants: &[&str]) {
    let h = Home::new(home);
    let cfg = std::fs::read_to_string(h.config_path()).unwrap();
    let base = cfg.split("\n[imap]\n").next().unwrap().to_string();
    std::fs::write(h.config_path(), format!("{base}{table}")).unwrap();
    let o = run_imap(&h);
    assert_eq!(o.status.code(), Some(2), "{table}\n{}", dt::text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    for w in wants {
        assert!(err.contains(w), "{table}: wanted {w:?} in\n{err}");
    }
}

/// Issue 17 item 2: missing or unusable [imap] settings end `run --imap` with exit 2 and a
/// message naming the problem and showing the lines to add; a refused login too, and the mail
/// stays in the inbox, untouched.
#[test]
fn bad_imap_settings_exit_2_with_the_lines_to_write_and_touch_nothing() {
    let server = Dovecot::start();
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let example = "host = \"imap.example.org\"";
    expect_settings_error(&home.root, "", &["has no [imap] table", example]);
    expect_settings_error(
        &home.root,
        "\n[imap]\nuser = \"me\"\npassword = \"x\"\n",
        &["[imap] has no host", example],
    );
    expect_settings_error(
        &home.root,
        "\n[imap]\nhost = \"mail.example.org\"\ntls = \"none\"\nuser = \"me\"\npassword = \"x\"\n",
        &[
            "tls = \"none\" is allowed only for a server on this machine",
            "mail.example.org",
            example,
        ],
    );
    expect_settings_error(
        &home.root,
        "\n[imap]\nhost = \"127.0.0.1\"\ntls = \"none\"\nuser = \"me\"\n",
        &["neither password nor password_command", example],
    );
    expect_settings_error(
        &home.root,
        "\n[imap]\nhost = \"127.0.0.1\"\ntls = \"plain\"\nuser = \"me\"\npassword = \"x\"\n",
        &[
            "[imap] tls = \"plain\"",
            "write \"tls\", \"starttls\" or \"none\"",
            example,
        ],
    );
    expect_settings_error(
        &home.root,
        "\n[imap]\nhots = \"127.0.0.1\"\n",
        &["unknown field `hots`"],
    );
    server.append("INBOX", &blockless(1));
    let wrong = format!(
        "\n[imap]\nhost = \"127.0.0.1\"\nport = {}\ntls = \"none\"\nuser = \"referee\"\npassword = \"wrong\"\n",
        server.port()
    );
    expect_settings_error(
        &home.root,
        &wrong,
        &[
            "login refused (check user and password in [imap])",
            "no mail was moved or marked on the server",
        ],
    );
    assert_eq!(server.messages("INBOX"), vec![blockless(1).into_bytes()]);
    assert!(dt::names(&home.maildir().join("new")).is_empty());
    assert!(dt::names(&home.rejected()).is_empty());
}

/// Issue 17 item 2: `tls = "starttls"` and `tls = "tls"` reach a real TLS server (the
/// certificate trusted through SSL_CERT_FILE, as a system store would), and a certificate the
/// referee's machine does not trust is refused: exit 2, nothing fetched, the mail stays.
#[test]
fn starttls_and_tls_connect_and_an_untrusted_certificate_is_refused() {
    let server = Dovecot::start_tls();
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let base = std::fs::read_to_string(home.config_path()).unwrap();
    let cert = server.cert_path();
    let run = |tls: &str, port: u16, trust: Option<&Path>| {
        std::fs::write(
            home.config_path(),
            format!(
                "{base}\n[imap]\nhost = \"127.0.0.1\"\nport = {port}\ntls = \"{tls}\"\nuser = \"{}\"\npassword = \"{}\"\n",
                crate::support::dovecot::USER,
                crate::support::dovecot::PASSWORD
            ),
        )
        .unwrap();
        let mut c = Command::new(dt::bin());
        c.env_remove("DUSTMAIL_HOME").env_remove("SSL_CERT_DIR");
        match trust {
            Some(p) => c.env("SSL_CERT_FILE", p),
            // An empty store: this test's certificate is in no system store anyway.
            None => c.env("SSL_CERT_FILE", d.path().join("none.pem")),
        };
        c.arg("--home")
            .arg(&home.root)
            .args(["run", "--once", "--imap", "--now", dt::NOW])
            .output()
            .unwrap()
    };
    std::fs::write(d.path().join("none.pem"), "").unwrap();
    server.append("INBOX", &blockless(1));
    let o = run("starttls", server.port(), None);
    assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("TLS handshake failed"),
        "{}",
        dt::text(&o)
    );
    let o = run("tls", server.imaps_port(), None);
    assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
    assert_eq!(server.messages("INBOX").len(), 1, "nothing moved");
    assert!(dt::names(&home.maildir().join("new")).is_empty());

    let o = run("starttls", server.port(), Some(&cert));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        stdout(&o).contains("imap listed 1 fetched 1 moved 1"),
        "{}",
        dt::text(&o)
    );
    server.append("INBOX", &blockless(2));
    let o = run("tls", server.imaps_port(), Some(&cert));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        stdout(&o).contains("imap listed 1 fetched 1 moved 1"),
        "{}",
        dt::text(&o)
    );
    assert!(server.messages("INBOX").is_empty());
    assert_eq!(server.messages(REJECTED).len(), 2);
}

/// Issue 17 item 2: a message is moved out of the inbox only once its mail was processed: while
/// its game's ledger cannot be verified, the mail waits in maildir/new and the message stays in
/// INBOX (exit 1, "left 1"), is not downloaded twice, and goes once the ledger is repaired.
#[test]
fn a_mail_whose_game_cannot_be_read_stays_in_the_inbox_until_it_is_processed() {
    let server = Dovecot::start();
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = dt::players(0);
    dt::new_game(&home, "g-imapb", &ps, 4);
    add_imap(&home, &server);
    let env = InProc::open(&home);
    let mut bots = Bots::new("g-imapb", &ps, |i| Style::Random(5 + i as u64));
    let (_, m) = bots.next_mail(&env.load("g-imapb")).unwrap();
    server.append("INBOX", &m);
    let log = dt::log_path(&home, "g-imapb");
    let good = std::fs::read_to_string(&log).unwrap();
    let tampered = good.replacen("skirmish", "skirmisx", 1);
    assert_ne!(good, tampered);
    std::fs::write(&log, &tampered).unwrap();
    for _ in 0..2 {
        let o = run_imap(&home);
        assert_eq!(o.status.code(), Some(1), "{}", dt::text(&o));
        assert!(stdout(&o).contains("moved 0 left 1"), "{}", dt::text(&o));
        assert_eq!(server.messages("INBOX"), vec![m.clone().into_bytes()]);
        assert_eq!(dt::names(&home.maildir().join("new")).len(), 1);
    }
    std::fs::write(&log, &good).unwrap();
    let o = run_imap(&home);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    // Already held in maildir/new: not fetched again, processed, then moved.
    assert!(
        stdout(&o).contains("imap listed 1 fetched 0 moved 1 left 0"),
        "{}",
        dt::text(&o)
    );
    assert!(server.messages("INBOX").is_empty());
    assert_eq!(server.messages(PROCESSED), vec![m.into_bytes()]);
    assert_eq!(dt::submissions(&home, "g-imapb").len(), 1);
}
