//! Issue 17 item 3: the `digest` setting. A digest game sends each reader one report per run
//! instead of one per step; the run records the report's boundaries in the ledger (a `digest`
//! line) and makes the mails from that line, so a run interrupted at any point and run again
//! makes the same mails, none lost or doubled. Replay and audit check the line.

use crate::support;
use crate::support::dt;

use dustmail::ledger::{Entry, Event};
use support::*;

/// The mail ids of `game`, welcome mails left out, sorted.
fn ids_of(h: &Harness, game: &str) -> Vec<String> {
    let prefix = format!("{game}-");
    let mut v: Vec<String> = h
        .sink
        .ids()
        .into_iter()
        .filter(|id| id.starts_with(&prefix) && !id.contains("welcome"))
        .collect();
    v.sort();
    v
}

/// The digest lines of a ledger: (line, from, to).
fn digests(entries: &[Entry]) -> Vec<(u64, u64, u64)> {
    entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::Digest(d) => Some((e.seq, d.from, d.to)),
            _ => None,
        })
        .collect()
}

/// A toy home with digest game `g-dig` and ordinary game `g-toy`.
fn two_games() -> Harness {
    let mut h = Harness::new();
    h.config.digest = true;
    h.new_game_id("g-dig");
    h.config.digest = false;
    h.new_game_id("g-toy");
    h
}

fn mail(name: &str, h: &Harness, game: &str, who: (&str, &str, &str), seq: u64, cmd: &[&str]) {
    let (from, side, key) = who;
    let m = signed_mail(
        from,
        &format!("<{name}@x>"),
        key,
        &orders(game, side, seq, cmd),
        "",
    );
    h.drop_mail(name, &m);
}

const ANN: (&str, &str, &str) = ("ann@example.org", "allies", ALLIES_KEY);
const BOB: (&str, &str, &str) = ("bob@example.org", "axis", AXIS_KEY);

/// Issue 17 item 3: a run with several mails for a digest game sends exactly one mail per
/// reader. Each starts with the answers to that reader's own mails (receipts and refusals, in
/// ledger order), then carries every step of the run, the board once and the orders template
/// once. An ordinary game in the same run still gets one report per reader per step.
#[test]
fn a_run_sends_one_digest_per_reader_carrying_every_step_and_other_games_are_unchanged() {
    let h = two_games();
    mail("1", &h, "g-dig", ANN, 1, &["add 3"]);
    mail("2", &h, "g-dig", BOB, 1, &["add 2"]);
    // Every command refused: nothing applied, a refusal to ann only.
    mail("3", &h, "g-dig", ANN, 2, &["add 9"]);
    mail("4", &h, "g-dig", ANN, 3, &["add 1"]);
    // A stale seq: refused.
    mail("5", &h, "g-dig", BOB, 1, &["add 2"]);
    mail("z1", &h, "g-toy", ANN, 1, &["add 3"]);
    mail("z2", &h, "g-toy", BOB, 1, &["add 2"]);
    let sum = h.run(T0);
    assert_eq!(sum.mails, 7, "{sum:?}");

    let entries = h.entries("g-dig");
    let d = digests(&entries);
    assert_eq!(d.len(), 1, "one digest line: {d:?}");
    let (dseq, from, to) = d[0];
    assert_eq!((from, to), (2, dseq - 1), "every step of the run");
    assert_eq!(
        dseq,
        entries.len() as u64,
        "the digest line is the last line"
    );
    assert_eq!(
        ids_of(&h, "g-dig"),
        vec![
            format!("g-dig-{dseq}-digest-allies"),
            format!("g-dig-{dseq}-digest-axis")
        ],
        "one mail per reader"
    );
    let ann = h.sink.get(&format!("g-dig-{dseq}-digest-allies")).unwrap();
    assert_eq!(ann.to, vec!["ann@example.org".to_string()]);
    assert!(ann.subject.ends_with(": digest"), "{}", ann.subject);
    assert_eq!(ann.in_reply_to.as_deref(), Some("<1@x>"));
    let text = flat(&ann.text);
    assert!(
        text.starts_with(&format!(
            "Your report of this run, for ledger lines 2-{to}: first your own mails."
        )),
        "{text}"
    );
    // Lines: 2 ann, 3 bob, 4 the end of round 1, 5 ann (nothing applied), 6 ann, 7 bob (stale).
    let kinds: Vec<bool> = entries
        .iter()
        .map(|e| matches!(e.event, Event::RoundEnd(_)))
        .collect();
    assert!(kinds[3], "line 4 ends round 1");
    // Ann's own mails first, in ledger order: receipt, refusal, receipt.
    let r1 = text
        .find("seq 1 were received and applied (ledger line 2)")
        .expect(&text);
    let refused = text
        .find("Your mail recorded on ledger line 5 was refused")
        .expect(&text);
    let r3 = text
        .find("seq 3 were received and applied (ledger line 6)")
        .expect(&text);
    let board = text.find("Board:").expect(&text);
    assert!(r1 < refused && refused < r3 && r3 < board, "{text}");
    assert!(text.contains("Line 5: N must be 1 to 5"), "{text}");
    // Every step of the run, in order, once; the refused ones are no step.
    for (i, who) in [(2, ANN), (3, BOB), (6, ANN)] {
        assert_eq!(
            text.matches(&format!("Event {i} (orders of side {})", who.1))
                .count(),
            1,
            "step {i}: {text}"
        );
    }
    assert!(!text.contains("Event 5 (") && !text.contains("Event 7 ("));
    assert_eq!(text.matches("Board:").count(), 1, "the board once");
    assert_eq!(text.matches("Your next orders").count(), 1, "{text}");
    assert!(text.contains("seq: 4"), "ann's next seq: {text}");
    let html = ann.html.as_deref().unwrap();
    assert!(html.contains("Your mails (ledger lines 2-"), "{html}");
    // Issue 16 item 1 holds for digests: no text line over 72 characters above the ledger head.
    for (id, m) in h.sink.matching("-digest-") {
        let body = m.text.split("Ledger-Head").next().unwrap();
        for l in body.lines() {
            assert!(l.chars().count() <= 72, "{id}: {l}");
        }
    }

    let bob = flat(
        &h.sink
            .get(&format!("g-dig-{dseq}-digest-axis"))
            .unwrap()
            .text,
    );
    let r = bob
        .find("seq 1 were received and applied (ledger line 3)")
        .expect(&bob);
    let refused = bob
        .find("Your mail recorded on ledger line 7 was refused")
        .expect(&bob);
    assert!(r < refused, "{bob}");
    assert!(
        !bob.contains("ledger line 5 was refused"),
        "ann's own: {bob}"
    );
    for i in [2, 3, 6] {
        assert!(bob.contains(&format!("Event {i} (")), "step {i}: {bob}");
    }

    // The ordinary game: one report per reader per step, as before.
    assert_eq!(
        ids_of(&h, "g-toy"),
        vec![
            "g-toy-2-report-allies",
            "g-toy-2-report-axis",
            "g-toy-3-report-allies",
            "g-toy-3-report-axis"
        ]
    );
    assert!(digests(&h.entries("g-toy")).is_empty());
    let created = std::fs::read_to_string(h.log("g-toy")).unwrap();
    assert!(!created.lines().next().unwrap().contains("digest"));
}

/// Issue 17 item 3: `report` and `template` requests are still answered to the requester only,
/// and a run with nothing for a digest game adds no line and sends nothing.
#[test]
fn a_request_in_a_digest_game_is_answered_to_the_requester_only() {
    let h = two_games();
    mail("1", &h, "g-dig", ANN, 1, &["report"]);
    h.run(T0);
    let d = digests(&h.entries("g-dig"));
    assert_eq!(d.len(), 1, "{d:?}");
    let dseq = d[0].0;
    assert_eq!(
        ids_of(&h, "g-dig"),
        vec![format!("g-dig-{dseq}-digest-allies")],
        "to ann only"
    );
    let text = flat(
        &h.sink
            .get(&format!("g-dig-{dseq}-digest-allies"))
            .unwrap()
            .text,
    );
    assert!(text.contains("line 5: understood: report"), "{text}");
    assert!(text.contains("Board:") && text.contains("seq: 2"), "{text}");

    h.sink.clear();
    let lines = h.entries("g-dig").len();
    h.run(T0);
    assert_eq!(h.entries("g-dig").len(), lines, "nothing to tell");
    assert_eq!(ids_of(&h, "g-dig"), Vec::<String>::new());
}

/// Issue 17 item 3: deadlines keep working in a digest game: the defaults of a run are steps
/// like any other, told in the run's digest; reminders stay mails of their own.
#[test]
fn deadline_defaults_are_told_in_the_runs_digest() {
    let h = two_games();
    // Past allies' deadline (72 h) and grace (12 h).
    h.run("2026-01-05T12:00:00Z");
    let entries = h.entries("g-dig");
    let defaults: Vec<u64> = entries
        .iter()
        .filter(|e| matches!(e.event, Event::Deadline(_)))
        .map(|e| e.seq)
        .collect();
    assert!(!defaults.is_empty(), "a default was applied");
    let d = digests(&entries);
    assert_eq!(d.len(), 1, "{d:?}");
    let dseq = d[0].0;
    let ids = ids_of(&h, "g-dig");
    assert!(ids.iter().all(|i| !i.contains("-report-")), "{ids:?}");
    for side in ["allies", "axis"] {
        let id = format!("g-dig-{dseq}-digest-{side}");
        let text = flat(&h.sink.get(&id).expect(&id).text);
        for n in &defaults {
            assert!(
                text.contains(&format!(
                    "Event {n} (deadline passed: defaults applied for side"
                )),
                "{text}"
            );
        }
    }
    // The ordinary game: a report per default, as before.
    assert!(ids_of(&h, "g-toy").iter().any(|i| i.contains("-report-")));
}

/// Issue 17 item 3: in a digest game a referee's control mail is still told at once to every
/// player and observer, and an observer it adds gets the run's digest; after a crash that lost
/// the run's mails (its mails back in maildir/new) the same mails are made again, the control
/// notices included.
#[test]
fn control_mails_and_observers_in_a_digest_game_survive_a_crash() {
    let h = two_games();
    mail("1", &h, "g-dig", ANN, 1, &["add 3"]);
    // Signed with the referee's own key.
    let ctl = orders("g-dig", "referee", 1, &["observe carol@example.org"]);
    let block = format!(
        "{}\n{ctl}\n{}\n{}\n{}\n{}\n",
        dustmail::crypto::ORDERS_BEGIN,
        dustmail::crypto::ORDERS_END,
        dustmail::crypto::SIG_BEGIN,
        dustmail::crypto::sign_text(&h.key, &ctl),
        dustmail::crypto::SIG_END
    );
    let m = format!("From: boss@example.org\nMessage-ID: <c1@x>\nSubject: control\n\n\n{block}");
    h.drop_mail("2", &m);
    mail("3", &h, "g-dig", BOB, 1, &["add 2"]);
    h.run(T0);
    let before: Vec<(String, Option<dustmail::outbox::Mail>)> = ids_of(&h, "g-dig")
        .into_iter()
        .map(|id| (id.clone(), h.sink.get(&id)))
        .collect();
    let ids: Vec<&String> = before.iter().map(|(i, _)| i).collect();
    let dseq = digests(&h.entries("g-dig"))[0].0;
    for want in [
        "g-dig-3-control-ann_example_org".to_string(),
        "g-dig-3-control-carol_example_org".to_string(),
        format!("g-dig-{dseq}-digest-allies"),
        format!("g-dig-{dseq}-digest-axis"),
        format!("g-dig-{dseq}-digest-observer-carol_example_org"),
    ] {
        assert!(ids.contains(&&want), "{want} in {ids:?}");
    }
    // The crash: every mail of the run lost, the orders mails back in new/.
    h.sink.clear();
    let cur = h.maildir().join("cur");
    for n in in_dir(&cur) {
        std::fs::rename(
            cur.join(&n),
            h.maildir().join("new").join(n.trim_end_matches(":2,S")),
        )
        .unwrap();
    }
    let lines = h.entries("g-dig").len();
    let sum = h.run(T0);
    assert!(sum.deduplicated >= 3, "{sum:?}");
    assert_eq!(h.entries("g-dig").len(), lines, "no new line");
    let after: Vec<(String, Option<dustmail::outbox::Mail>)> = ids_of(&h, "g-dig")
        .into_iter()
        .map(|id| (id.clone(), h.sink.get(&id)))
        .collect();
    assert_eq!(after, before, "the same mails, same ids");
}

// ---------------------------------------------------------------------------------------------
// Dust Tactics homes and the real binary.

const GAME: &str = "g-dig";

/// `n` bot mails of a skirmish `g-dig`, made by playing them one per run in a scratch home.
/// The game's course does not depend on how mails are grouped into runs, so the same mails
/// replay in any digest home made with the same seed and players.
fn script(root: &std::path::Path, n: usize) -> Vec<(String, String)> {
    let h = dt::init_home(root, "file");
    no_pictures(&h);
    dt::new_game(&h, GAME, &dt::players(0), 3);
    let env = dt::InProc::open(&h);
    let mut bots = dt::Bots::new(GAME, &dt::players(0), |i| {
        dustmail::dust_tactics::bot::Style::Random(5 + i as u64)
    });
    let mut out = Vec::new();
    for _ in 0..n {
        let g = env.load(GAME);
        let Some((name, m)) = bots.next_mail(&g) else {
            break;
        };
        std::fs::write(h.maildir().join("new").join(&name), &m).unwrap();
        let sum = env.run(dt::NOW);
        assert!(sum.broken.is_empty(), "{sum:?}");
        out.push((name, m));
    }
    out
}

/// Smaller, faster mails: the counts and the ledger are the same with pictures.
fn no_pictures(h: &dustmail::config::Home) {
    let cfg = std::fs::read_to_string(h.config_path()).unwrap();
    let cfg = cfg.replace("board_pictures = true", "board_pictures = false");
    std::fs::write(h.config_path(), cfg).unwrap();
}

/// A home whose config.toml turns `digest` on, with `g-dig` created under it.
fn digest_home(root: &std::path::Path) -> dustmail::config::Home {
    let h = digest_config(root);
    dt::new_game(&h, GAME, &dt::players(0), 3);
    h
}

/// A home whose config.toml turns `digest` on.
pub(crate) fn digest_config(root: &std::path::Path) -> dustmail::config::Home {
    let h = dt::init_home(root, "file");
    no_pictures(&h);
    let cfg = std::fs::read_to_string(h.config_path()).unwrap();
    assert!(cfg.contains("# digest = false"), "{cfg}");
    std::fs::write(
        h.config_path(),
        cfg.replace("# digest = false", "digest = true"),
    )
    .unwrap();
    h
}

fn drop_all(h: &dustmail::config::Home, mails: &[(String, String)]) {
    for (name, m) in mails {
        std::fs::write(h.maildir().join("new").join(name), m).unwrap();
    }
}

fn run(h: &dustmail::config::Home) -> std::process::Output {
    let o = dt::dustmail(&h.root, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    o
}

fn sent(h: &dustmail::config::Home) -> Vec<String> {
    dt::names(&h.root.join("sent"))
}

/// Issue 17 item 3: the real binary, a config.toml with `digest = true`: six orders mails in
/// one run make one digest per player; `replay` and `audit` pass, and `audit` fails when the
/// digest line is altered.
#[test]
fn a_digest_game_replays_and_audits_and_an_altered_digest_line_fails_the_audit() {
    let d = tempfile::tempdir().unwrap();
    let mails = script(&d.path().join("script"), 6);
    assert_eq!(mails.len(), 6);
    let h = digest_home(&d.path().join("home"));
    run(&h); // the welcomes go out
    let before = sent(&h);
    drop_all(&h, &mails);
    run(&h);
    let made: Vec<String> = sent(&h)
        .into_iter()
        .filter(|n| !before.contains(n))
        .collect();
    let entries = dustmail::ledger::read_all(&dt::log_path(&h, GAME)).unwrap();
    let d_lines = digests(&entries);
    assert_eq!(d_lines.len(), 1, "{d_lines:?}");
    let (dseq, from, to) = d_lines[0];
    assert_eq!((from, to), (2, dseq - 1));
    assert_eq!(
        made,
        vec![
            format!("{GAME}-{dseq}-digest-allies.eml"),
            format!("{GAME}-{dseq}-digest-axis.eml")
        ],
        "one mail per player for six orders mails"
    );
    let log = std::fs::read_to_string(dt::log_path(&h, GAME)).unwrap();
    assert!(log.lines().next().unwrap().contains(r#""digest":true"#));
    // Every accepted step is in both digests.
    for n in &made {
        let eml = std::fs::read_to_string(h.root.join("sent").join(n)).unwrap();
        let eml = eml.replace("=\r\n", "").replace("=\n", "");
        for e in &entries {
            if matches!(&e.event, Event::Submission(s) if s.accepted) {
                assert!(
                    eml.contains(&format!("Event {} (", e.seq)),
                    "{n}: step {}",
                    e.seq
                );
            }
        }
    }

    let page = d.path().join("replay.html");
    let o = dt::dustmail(&h.root, &["replay", GAME, "--html", page.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let o = dt::dustmail(&h.root, &["show", GAME, "--as", "allies"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let path = dt::log_path(&h, GAME);
    let o = dt::dustmail(&h.root, &["audit", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));

    // The digest line altered: it covers one step less.
    let line = format!(r#""kind":"digest","from":2,"to":{to}"#);
    assert!(log.contains(&line), "{log}");
    let altered = d.path().join("altered.jsonl");
    let bad = log.replace(&line, &format!(r#""kind":"digest","from":3,"to":{to}"#));
    std::fs::write(&altered, bad).unwrap();
    let o = dt::dustmail(&h.root, &["audit", altered.to_str().unwrap()]);
    assert_ne!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        dt::text(&o).contains(&format!("line {dseq}")),
        "{}",
        dt::text(&o)
    );

    // Even signed by the referee's own key, a digest must cover every step since the last one.
    let key = dustmail::crypto::read_secret_key(&h.key_path()).unwrap();
    let last = log.lines().last().unwrap();
    let (unsigned, _) = dustmail::ledger::split_referee_sig(last).unwrap();
    let unsigned = unsigned.replace(&line, &format!(r#""kind":"digest","from":3,"to":{to}"#));
    let sig = dustmail::crypto::sign_text(&key, &dustmail::ledger::line_sig_text(&unsigned));
    let resigned = format!(
        "{},\"referee_sig\":\"{sig}\"}}",
        unsigned.strip_suffix('}').unwrap()
    );
    let bad = log.replace(last, &resigned);
    std::fs::write(&altered, bad).unwrap();
    let o = dt::dustmail(&h.root, &["audit", altered.to_str().unwrap()]);
    assert_ne!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        dt::text(&o).contains(&format!(
            "line {dseq}: the digest covers lines 3-{to}, but the steps since the last digest are lines 2-{to}"
        )),
        "{}",
        dt::text(&o)
    );
}

/// What a run killed at one point of its commit leaves behind (simulated on a copy of a home
/// that finished the same run, so no test depends on timing).
#[derive(Debug, Clone, Copy)]
enum Fault {
    /// The steps appended, nothing committed: the digest line never written, the mails in new/.
    BeforeAnyCommit,
    /// After a commit in the middle of the run: the mails moved to cur/, no digest line yet.
    AfterAMidRunCommit,
    /// Some mails moved by a mid-run commit, the rest still in new/, no digest line.
    HalfWay,
    /// The digest line appended and its mails staged, never released.
    AfterTheDigestLine,
    /// The same after mid-run commits moved every mail to cur/: no mail brings the run back.
    AfterTheDigestLineAllMailsMoved,
    /// The mails released, the processed mails not yet moved out of new/.
    AfterTheRelease,
}

/// Issue 17 item 3: a run of a digest game interrupted at each fault point and run again makes
/// exactly the mails and the ledger of the run that was not interrupted: none lost, none
/// doubled, byte for byte; replay passes.
#[test]
fn a_digest_run_interrupted_at_any_point_and_run_again_makes_the_same_mails() {
    let d = tempfile::tempdir().unwrap();
    let mails = script(&d.path().join("script"), 6);
    let start = digest_home(&d.path().join("start"));
    run(&start);
    drop_all(&start, &mails);
    let reference = dustmail::config::Home::new(d.path().join("reference"));
    dt::copy_tree(&start.root, &reference.root);
    let before = sent(&reference);
    run(&reference);
    let ref_log = std::fs::read(dt::log_path(&reference, GAME)).unwrap();
    let ref_sent = sent(&reference);
    assert!(
        ref_sent.iter().any(|n| n.contains("-digest-")),
        "{ref_sent:?}"
    );
    for fault in [
        Fault::BeforeAnyCommit,
        Fault::AfterAMidRunCommit,
        Fault::HalfWay,
        Fault::AfterTheDigestLine,
        Fault::AfterTheDigestLineAllMailsMoved,
        Fault::AfterTheRelease,
    ] {
        let f = dustmail::config::Home::new(d.path().join(format!("{fault:?}")));
        dt::copy_tree(&start.root, &f.root);
        run(&f);
        // What the kill would have left.
        let log = dt::log_path(&f, GAME);
        let cur = f.maildir().join("cur");
        let back: Vec<String> = match fault {
            Fault::AfterAMidRunCommit | Fault::AfterTheDigestLineAllMailsMoved => vec![],
            Fault::HalfWay => dt::names(&cur).into_iter().step_by(2).collect(),
            _ => dt::names(&cur),
        };
        for n in back {
            let name = n.trim_end_matches(":2,S");
            std::fs::rename(cur.join(&n), f.maildir().join("new").join(name)).unwrap();
        }
        let digest_kept = matches!(
            fault,
            Fault::AfterTheDigestLine
                | Fault::AfterTheDigestLineAllMailsMoved
                | Fault::AfterTheRelease
        );
        if !digest_kept {
            let text = std::fs::read_to_string(&log).unwrap();
            let keep = text.trim_end_matches('\n').rfind('\n').unwrap() + 1;
            assert!(text[keep..].contains(r#""kind":"digest""#));
            std::fs::write(&log, &text[..keep]).unwrap();
        }
        if !matches!(fault, Fault::AfterTheRelease) {
            for n in sent(&f).into_iter().filter(|n| !before.contains(n)) {
                std::fs::remove_file(f.root.join("sent").join(n)).unwrap();
            }
            let staged = f.root.join("outbox").join(".staged");
            std::fs::create_dir_all(&staged).unwrap();
            std::fs::write(staged.join("OPEN"), "").unwrap();
        }

        run(&f);
        let got = std::fs::read(&log).unwrap();
        assert!(got == ref_log, "{fault:?}: the ledgers differ");
        assert_eq!(
            sent(&f),
            ref_sent,
            "{fault:?}: the same mails, none doubled"
        );
        for n in &ref_sent {
            assert_eq!(
                std::fs::read(f.root.join("sent").join(n)).unwrap(),
                std::fs::read(reference.root.join("sent").join(n)).unwrap(),
                "{fault:?}: sent/{n} differs from the uninterrupted run's"
            );
        }
        assert_eq!(dt::names(&f.maildir().join("new")), Vec::<String>::new());
        assert_eq!(dt::names(&f.root.join("outbox")), Vec::<String>::new());
        let o = dt::dustmail(&f.root, &["replay", GAME]);
        assert_eq!(o.status.code(), Some(0), "{fault:?}: {}", dt::text(&o));
    }
}

/// Issue 17 item 3: `new --digest` records the setting in the `created` line; without it (and
/// without `digest = true` in config.toml) the line has no `digest` member, as before.
#[test]
fn new_with_digest_records_the_setting_and_games_without_it_are_unchanged() {
    let d = tempfile::tempdir().unwrap();
    let h = dt::init_home(&d.path().join("home"), "file");
    let ps = dt::players(0);
    let key = |p: &dt::Player| dustmail::crypto::public_key_text(&p.key.verifying_key());
    for (id, extra) in [("g-yes", Some("--digest")), ("g-no", None)] {
        let mut args = vec![
            "new".to_string(),
            "--scenario".into(),
            "skirmish".into(),
            "--id".into(),
            id.into(),
            "--now".into(),
            dt::T0.into(),
        ];
        for p in &ps {
            args.push("--player".into());
            args.push(format!("{}={}:{}", p.side, p.address, key(p)));
        }
        args.extend(extra.map(String::from));
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = dt::dustmail(&h.root, &a);
        assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    }
    let first = |id: &str| {
        std::fs::read_to_string(dt::log_path(&h, id))
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert!(first("g-yes").contains(r#""digest":true"#));
    assert!(!first("g-no").contains("digest"), "{}", first("g-no"));
    let help = dt::dustmail(&h.root, &["new", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("--digest"));
}

/// Issue 17 item 3: the referee's mails for one skirmish played to the end by bots, one report
/// per step and with `digest` when the runs take 1, 2, 4 or all of the players' mails at once
/// (`cargo test --test it digest::mails_per_game -- --nocapture` prints them; docs/reports.md).
#[test]
fn mails_per_game_with_and_without_digest() {
    let d = tempfile::tempdir().unwrap();
    let played = d.path().join("script");
    let mails = script(&played, 400);
    let per_step = dt::names(&played.join("sent")).len();
    let mut figures = vec![format!("one report per step: {per_step}")];
    for per_run in [1, 2, 4, mails.len()] {
        let h = digest_home(&d.path().join(format!("digest-{per_run}")));
        for chunk in mails.chunks(per_run) {
            drop_all(&h, chunk);
            run(&h);
        }
        let n = sent(&h).len();
        figures.push(format!("digest, {per_run} mails per run: {n}"));
        if per_run == 1 {
            assert_eq!(n, per_step, "one mail per run: a digest per step");
        } else {
            assert!(n < per_step, "{figures:?}");
        }
        let o = dt::dustmail(&h.root, &["replay", GAME]);
        assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    }
    println!(
        "skirmish to the end, {} players' mails; the referee's mails (welcomes and end mails included): {}",
        mails.len(),
        figures.join("; ")
    );
}

/// Issue 17 item 3: a campaign game made under `digest = true` ends with its digest line, not
/// its `finished` line; a run that must find the end from the ledger (here: the campaign's
/// line about it lost) still finds it and records it.
#[test]
fn a_campaign_finds_the_end_of_a_digest_game_whose_last_line_is_its_digest() {
    let d = tempfile::tempdir().unwrap();
    let h = digest_config(&d.path().join("home"));
    let ps = dt::players(0);
    let rules = h.root.join("rules.toml");
    std::fs::write(&rules, "kind = \"chain\"\nscenarios = [\"skirmish\"]\n").unwrap();
    let mut args: Vec<String> = ["campaign", "new", "--id", "cr", "--rules"]
        .map(String::from)
        .to_vec();
    args.push(rules.display().to_string());
    args.extend(["--seed".into(), hex::encode([7u8; 32])]);
    args.extend(["--now".into(), dt::T0.into()]);
    for (p, name) in ps.iter().zip(["ann", "bob"]) {
        let key = dustmail::crypto::public_key_text(&p.key.verifying_key());
        args.push("--player".into());
        args.push(format!("{name}={}:{key}", p.address));
    }
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = dt::dustmail(&h.root, &a);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert_eq!(dt::names(&h.games()), vec!["cr-1".to_string()]);
    let gid = "cr-1";
    let env = dt::InProc::open(&h);
    let created = std::fs::read_to_string(dt::log_path(&h, gid)).unwrap();
    assert!(created.lines().next().unwrap().contains(r#""digest":true"#));
    // The sides as the campaign dealt them.
    let g = env.load(gid);
    let players: Vec<dt::Player> = g
        .created
        .players
        .iter()
        .map(|p| dt::Player {
            side: p.side.clone(),
            address: p.address.clone(),
            key: ps
                .iter()
                .find(|q| q.address == p.address)
                .unwrap()
                .key
                .clone(),
        })
        .collect();
    let mut bots = dt::Bots::new(gid, &players, |i| {
        dustmail::dust_tactics::bot::Style::Random(5 + i as u64)
    });
    for _ in 0..400 {
        let g = env.load(gid);
        let Some((name, m)) = bots.next_mail(&g) else {
            break;
        };
        std::fs::write(h.maildir().join("new").join(name), m).unwrap();
        let sum = env.run(dt::NOW);
        assert!(sum.warnings.is_empty(), "{sum:?}");
    }
    let last = std::fs::read_to_string(dt::log_path(&h, gid)).unwrap();
    assert!(last.contains(r#""kind":"finished""#), "the game ended");
    assert!(last.lines().last().unwrap().contains(r#""kind":"digest""#));
    let clog = h.root.join("campaigns/cr/log.jsonl");
    let whole = std::fs::read_to_string(&clog).unwrap();
    let ended = whole
        .lines()
        .position(|l| l.contains(r#""kind":"game_ended""#))
        .expect(&whole);
    // The campaign's lines from the end on are lost.
    let kept: String = whole
        .lines()
        .take(ended)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&clog, kept).unwrap();
    run(&h);
    let again = std::fs::read_to_string(&clog).unwrap();
    assert!(again.contains(r#""kind":"game_ended""#), "{again}");
}

/// Issue 17 item 3: hidden information stays hidden in a digest: ann's standing orders (seen by
/// her side only) and her receipt are in her digest, never in bob's, though bob gets a digest
/// of the same run.
#[test]
fn a_digest_holds_only_what_its_reader_may_see() {
    let d = tempfile::tempdir().unwrap();
    let h = digest_home(&d.path().join("home"));
    let ps = dt::players(0);
    let lines = "standing react rangers never\nstanding retaliate any no";
    let m = dt::mail(
        &ps[0].address,
        "s1@players.example",
        &ps[0].key,
        &dt::orders(GAME, "allies", 1, lines),
    );
    std::fs::write(h.maildir().join("new").join("1.eml"), m).unwrap();
    run(&h);
    let entries = dustmail::ledger::read_all(&dt::log_path(&h, GAME)).unwrap();
    let dseq = digests(&entries)[0].0;
    let read = |side: &str| {
        let p = h
            .root
            .join("sent")
            .join(format!("{GAME}-{dseq}-digest-{side}.eml"));
        let eml = std::fs::read_to_string(&p).expect(side);
        flat(&eml.replace("=\r\n", "").replace("=\n", ""))
    };
    let (ann, bob) = (read("allies"), read("axis"));
    assert!(ann.contains("standing react rangers never"), "{ann}");
    assert!(ann.contains("Your standing orders"), "{ann}");
    assert!(!bob.contains("standing react rangers"), "{bob}");
    assert!(!bob.contains("Your standing orders"), "{bob}");
    assert!(
        !bob.contains("were received and applied (ledger line 2)"),
        "{bob}"
    );
}
