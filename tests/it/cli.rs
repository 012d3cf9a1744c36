//! The real `dustmail` binary: commands, usage errors and exit codes (DESIGN §3).

use std::path::Path;
use std::process::{Command, Output};

fn dustmail(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .env_remove("DUSTMAIL_HOME")
        .arg("--home")
        .arg(home)
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn help_lists_every_command_and_exits_0() {
    let d = tempfile::tempdir().unwrap();
    let o = dustmail(d.path(), &["--help"]);
    assert_eq!(o.status.code(), Some(0));
    for c in [
        "init", "keygen", "new", "sign", "run", "show", "replay", "audit", "demo",
    ] {
        assert!(
            stdout(&o).contains(&format!("  {c} ")),
            "help lacks {c}: {}",
            stdout(&o)
        );
    }
    assert!(stdout(&o).contains("--home"));
}

#[test]
fn usage_errors_exit_2() {
    let d = tempfile::tempdir().unwrap();
    assert_eq!(dustmail(d.path(), &[]).status.code(), Some(2));
    assert_eq!(dustmail(d.path(), &["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        dustmail(d.path(), &["init"]).status.code(),
        Some(2),
        "--referee is required"
    );
    let o = dustmail(d.path(), &["run", "--once", "--watch"]);
    assert_eq!(o.status.code(), Some(2));
    let o = dustmail(d.path(), &["run", "--now", "yesterday"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not an RFC 3339 time"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn init_refuses_a_bad_referee_address_or_transport_with_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("h");
    let o = dustmail(&home, &["init", "--referee", "nobody"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`nobody` is not a mail address: give one like referee@example.org"),
        "{}",
        stderr(&o)
    );
    let o = dustmail(
        &home,
        &[
            "init",
            "--referee",
            "r@example.org",
            "--transport",
            "pigeon",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown transport `pigeon`: use file, sendmail or smtp://HOST:PORT")
    );
    let o = dustmail(
        &home,
        &[
            "init",
            "--referee",
            "r@example.org",
            "--transport",
            "smtp://mail.example.org",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("has no port"));
    assert!(
        !home.join("config.toml").exists(),
        "nothing written on a refused init"
    );
}

#[test]
fn init_creates_the_home_layout_and_refuses_to_run_twice() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("h");
    let o = dustmail(
        &home,
        &[
            "init",
            "--referee",
            "r@example.org",
            "--transport",
            "smtp://127.0.0.1:2525",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for p in [
        "config.toml",
        "referee.key",
        "maildir/new",
        "maildir/cur",
        "maildir/tmp",
        "outbox",
        "sent",
        "rejected",
        "games",
    ] {
        assert!(home.join(p).exists(), "{p} missing");
    }
    let cfg = std::fs::read_to_string(home.join("config.toml")).unwrap();
    assert!(cfg.contains("transport = \"smtp://127.0.0.1:2525\""));
    for s in [
        "# starttls",
        "# user",
        "# password",
        "max_mail_bytes",
        "deadline_hours",
        "reminder_hours",
        "grace_hours",
        "# template_dir",
    ] {
        assert!(cfg.contains(s), "config lacks {s}");
    }
    let o = dustmail(&home, &["init", "--referee", "r@example.org"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("already exists"));
    // A run on the fresh home processes nothing and succeeds.
    let o = dustmail(&home, &["run", "--now", "2026-01-01T00:00:00Z"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn keygen_then_sign_prints_a_signed_block() {
    let d = tempfile::tempdir().unwrap();
    let key = d.path().join("ann.key");
    let o = dustmail(d.path(), &["keygen", "--out", key.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.lines().last().unwrap().starts_with("ed25519:"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&key).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let orders = d.path().join("orders.txt");
    std::fs::write(&orders, "game: g-1\nside: allies\nseq: 1\n\nfirst allies\n").unwrap();
    let o = dustmail(
        d.path(),
        &[
            "sign",
            "--key",
            key.to_str().unwrap(),
            orders.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("-----BEGIN DUSTMAIL ORDERS-----\ngame: g-1\n"));
    assert!(s.contains("-----BEGIN DUSTMAIL SIGNATURE-----"));
    // keygen never overwrites a key.
    let o = dustmail(d.path(), &["keygen", "--out", key.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn sign_without_a_readable_key_says_how_to_make_one() {
    let d = tempfile::tempdir().unwrap();
    let o = dustmail(
        d.path(),
        &[
            "sign",
            "--key",
            d.path().join("missing.key").to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("create one with `dustmail keygen --out FILE`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn commands_on_a_missing_home_say_to_init_it() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("nowhere");
    let o = dustmail(&home, &["run", "--once"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("dustmail init --referee ADDRESS"),
        "{}",
        stderr(&o)
    );
    let o = dustmail(&home, &["show", "g-1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no game `g-1`"), "{}", stderr(&o));
    let o = dustmail(&home, &["replay", "../etc"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_home_comes_from_dustmail_home() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("from-env");
    let o = Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .env("DUSTMAIL_HOME", &home)
        .args(["run"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&home.join("config.toml").display().to_string()),
        "{}",
        stderr(&o)
    );
}

#[test]
fn show_html_of_a_missing_game_names_the_id() {
    let d = tempfile::tempdir().unwrap();
    let o = dustmail(d.path(), &["show", "g-1", "--format", "html"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no game `g-1`"), "{}", stderr(&o));
}

fn dust_log(dir: &Path) -> std::path::PathBuf {
    use dustmail::ledger::*;
    let created = Created {
        engine_version: "test".into(),
        game: "dust-tactics".into(),
        game_id: "g-1".into(),
        ruleset: "ffg-revised".into(),
        setup: dustmail::game::Setup {
            ruleset: "ffg-revised".into(),
            scenario_name: "skirmish".into(),
            scenario: String::new(),
            cards: Default::default(),
            sides: vec![],
            rules_revision: dustmail::dust_tactics::rules::RULES_REVISION,
        },
        players: vec![],
        referee_address: "r@example.org".into(),
        referee_public_key: String::new(),
        commitment: ZERO_HASH.into(),
        max_rounds: 3,
        deadline_hours: 72,
        reminder_hours: 24,
        grace_hours: 12,
        created_at: "2026-01-01T00:00:00Z".into(),
        assignments: Default::default(),
        max_absence_days: 14,
        dice_version: 1,
        hidden_commitment: None,
        campaign: None,
        digest: false,
    };
    let mut l = Ledger::create(dir, created).unwrap();
    for r in 1..=3 {
        l.append(Event::RoundEnd(RoundEnd {
            round: r,
            key: ZERO_HASH.into(),
            state_digest: String::new(),
        }))
        .unwrap();
    }
    dir.join(LOG_FILE)
}

#[test]
fn audit_exits_1_naming_the_line_of_an_altered_log() {
    let d = tempfile::tempdir().unwrap();
    let log = dust_log(d.path());
    let text = std::fs::read_to_string(&log).unwrap();
    let altered = text.replacen("\"round\":2", "\"round\":7", 1);
    std::fs::write(&log, altered).unwrap();
    let o = dustmail(d.path(), &["audit", log.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("log.jsonl line 4: prev hash does not match line 3"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn audit_of_a_missing_file_or_a_foreign_game_exits_2() {
    let d = tempfile::tempdir().unwrap();
    let o = dustmail(
        d.path(),
        &["audit", d.path().join("nope.jsonl").to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("give the path of a published log.jsonl"));
    let log = dust_log(d.path());
    let text = std::fs::read_to_string(&log).unwrap().replacen(
        "\"game\":\"dust-tactics\"",
        "\"game\":\"chess\"",
        1,
    );
    // A one-line log, so the changed first line breaks no chain.
    let first = text.lines().next().unwrap().to_string() + "\n";
    std::fs::write(&log, first).unwrap();
    let o = dustmail(d.path(), &["audit", log.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is a log of game `chess`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn demo_refuses_a_home_that_is_not_empty() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("something"), "x").unwrap();
    let o = dustmail(d.path(), &["demo"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("was not made by `dustmail demo`: pass --home NEWDIR"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn demo_plays_a_whole_game_that_audits_clean() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("demo");
    let o = dustmail(&home, &["demo"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("the demo game ended after"),
        "{}",
        stdout(&o)
    );
    let log = home.join("games/g-demo/log.jsonl");
    let o = dustmail(&home, &["audit", log.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("game finished, secret checked"));
    assert!(std::fs::read_dir(home.join("sent")).unwrap().count() > 10);
    assert_eq!(
        std::fs::read_dir(home.join("maildir/new")).unwrap().count(),
        0
    );
    // The quick start may be run twice: the demo replaces the home it made itself.
    let o = dustmail(&home, &["demo"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = dustmail(&home, &["replay", "g-demo"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

fn init_home(d: &Path) -> std::path::PathBuf {
    let home = d.join("h");
    let o = dustmail(&home, &["init", "--referee", "referee@example.org"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    home
}

#[test]
fn new_refuses_bad_players_and_unknown_scenarios_with_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let home = init_home(d.path());
    let o = dustmail(
        &home,
        &[
            "new",
            "--scenario",
            "skirmish",
            "--player",
            "allies-ann@example.org",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("write SIDE=ADDRESS:PUBKEY"),
        "{}",
        stderr(&o)
    );
    let o = dustmail(
        &home,
        &[
            "new",
            "--scenario",
            "skirmish",
            "--player",
            "allies=ann@example.org:ed25519:nonsense",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("copy the last line `dustmail keygen` printed"),
        "{}",
        stderr(&o)
    );
    let key = d.path().join("k");
    let pk = stdout(&dustmail(
        d.path(),
        &["keygen", "--out", key.to_str().unwrap()],
    ))
    .lines()
    .last()
    .unwrap()
    .to_string();
    let o = dustmail(
        &home,
        &[
            "new",
            "--scenario",
            "no-such-scenario",
            "--player",
            &format!("allies=ann@example.org:{pk}"),
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("there is no scenario `no-such-scenario`: use one of skirmish"),
        "{}",
        stderr(&o)
    );
    let o = dustmail(
        &home,
        &[
            "new",
            "--scenario",
            "x",
            "--seed",
            "abc",
            "--player",
            &format!("allies=ann@example.org:{pk}"),
        ],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn run_moves_a_mail_for_an_unknown_game_to_rejected() {
    let d = tempfile::tempdir().unwrap();
    let home = init_home(d.path());
    let key = d.path().join("k");
    assert_eq!(
        dustmail(d.path(), &["keygen", "--out", key.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
    let orders = d.path().join("o.txt");
    std::fs::write(
        &orders,
        "game: g-00000000\nside: allies\nseq: 1\n\nfirst allies\n",
    )
    .unwrap();
    let block = stdout(&dustmail(
        d.path(),
        &[
            "sign",
            "--key",
            key.to_str().unwrap(),
            orders.to_str().unwrap(),
        ],
    ));
    let mail = format!(
        "From: ann@example.org\r\nMessage-ID: <1@x>\r\nSubject: orders\r\n\r\n{}",
        block.replace('\n', "\r\n")
    );
    std::fs::write(home.join("maildir/new/1.eml"), mail).unwrap();
    let o = dustmail(&home, &["run", "--once", "--now", "2026-01-01T00:00:00Z"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("mails 1 accepted 0 refused 0 rejected 1"),
        "{}",
        stdout(&o)
    );
    assert!(home.join("rejected/1.eml").exists());
    assert!(!home.join("maildir/new/1.eml").exists());
}

#[test]
fn a_second_strict_run_while_one_holds_the_lock_exits_2() {
    let d = tempfile::tempdir().unwrap();
    let home = init_home(d.path());
    let _held = dustmail::referee::lock_home(&dustmail::config::Home::new(&home)).unwrap();
    // With --strict a busy home is an error (exit 2); issue 10 finding 17: without it the run
    // says so in one line and exits 0 (tests/it/trust_ops.rs), and no message advises deleting it.
    let o = dustmail(&home, &["run", "--strict"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("another dustmail run holds"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("wait for it to finish"));
    assert!(!stderr(&o).contains("remove the stale lock"));
}
