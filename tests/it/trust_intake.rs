//! Issue 10, intake hardening: no mail can stop a run, flood the referee's answers or make it
//! a reflector. Runs go through the real pipeline with real MIME parsing and real ed25519 keys
//! (the toy game), and the real outbox (lettre renders every queued mail), unless noted.

use crate::support;

use dustmail::ledger::Event;
use dustmail::outbox::Outbox;
use dustmail::referee::{self, Ctx, RunSummary};
use ed25519_dalek::SigningKey;
use proptest::prelude::*;
use support::*;

/// A toy home with real edges whose mails go through the real outbox.
struct Real {
    h: Harness,
    outbox: Outbox,
    allies: SigningKey,
}

impl Real {
    fn new() -> Real {
        let h = Harness::with_real_edges();
        let (allies, axis) = real_player_keys();
        h.new_game_with_keys(&allies, &axis);
        let outbox = Outbox::open(&h.home.root).unwrap();
        Real { h, outbox, allies }
    }

    fn ctx(&self) -> Ctx<'_> {
        let mut c = self.h.ctx(T0);
        c.sink = &self.outbox;
        c
    }

    fn run(&self) -> Result<RunSummary, referee::RefereeError> {
        referee::run(&self.ctx(), &self.h.maildir())
    }

    fn drop(&self, name: &str, raw: &str) {
        self.h.drop_mail(name, raw);
    }

    /// Every queued mail but the welcomes: (recipients, raw .eml text); receipts (alone, or
    /// heading the sender's report since issue 17 item 3) are marked by a first line `RECEIPT`.
    fn queued(&self) -> Vec<(Vec<String>, String)> {
        self.outbox
            .queued()
            .unwrap()
            .into_iter()
            .filter(|e| e.id.starts_with("g-toy-") || e.id.starts_with("rejected-"))
            .filter(|e| !e.id.contains("welcome"))
            .map(|e| {
                let eml = std::fs::read_to_string(
                    self.h
                        .home
                        .root
                        .join("outbox")
                        .join(format!("{}.eml", e.id)),
                )
                .unwrap();
                let mark = if e.id.ends_with("-receipt") || eml.contains(": receipt and report") {
                    "RECEIPT\n"
                } else {
                    ""
                };
                (e.to, format!("{mark}{eml}"))
            })
            .collect()
    }

    fn accepted(&self) -> usize {
        self.h
            .entries("g-toy")
            .iter()
            .filter(|e| matches!(&e.event, Event::Submission(s) if s.accepted))
            .count()
    }

    fn submissions(&self) -> usize {
        self.h
            .entries("g-toy")
            .iter()
            .filter(|e| matches!(&e.event, Event::Submission(_)))
            .count()
    }
}

/// `real_mail` with extra headers after From.
fn mail_with(headers: &str, msg_id: &str, key: &SigningKey, orders_text: &str) -> String {
    real_mail("ann@example.org", msg_id, key, orders_text).replacen(
        "To: referee@example.org\r\n",
        &format!("To: referee@example.org\r\n{headers}"),
        1,
    )
}

const BAD_ADDRESSES: &[&str] = &[
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa@example.org",
    "a..b@example.org",
    ".a@example.org",
    "a@-x.org",
    "a@b@example.org",
    "referee@example.org.",
    "\"referee\"@example.org",
];

// issue 10 finding 1: a Reply-To lettre refuses, with a valid signed block: the run succeeds,
// the orders are applied, nothing is sent to that address, the operator is warned, and a good
// mail behind it is processed and answered.
#[test]
fn an_address_lettre_refuses_does_not_stop_the_run() {
    for bad in BAD_ADDRESSES {
        let r = Real::new();
        let k = r.allies.clone();
        r.drop(
            "1-bad",
            &mail_with(
                &format!("Reply-To: {bad}\r\n"),
                "<m1@example.org>",
                &k,
                &orders("g-toy", "allies", 1, &["add 1"]),
            ),
        );
        let sum = r.run().unwrap_or_else(|e| panic!("{bad}: run failed: {e}"));
        assert_eq!(r.accepted(), 1, "{bad}: the orders are applied");
        assert!(
            sum.warnings
                .iter()
                .any(|w| w.contains("no usable reply address")),
            "{bad}: {:?}",
            sum.warnings
        );
        let queued = r.queued();
        assert!(
            queued
                .iter()
                .all(|(to, _)| !to.iter().any(|t| t.contains("@example.org.")
                    || t.contains("..")
                    || t.starts_with('.')
                    || t.contains("-x.org"))),
            "{bad}: {queued:?}"
        );
        assert!(
            !queued.iter().any(|(_, eml)| eml.starts_with("RECEIPT")),
            "{bad}: no receipt to anyone"
        );
        // The mail left maildir/new: the next run is not stuck on it.
        assert!(in_dir(&r.h.maildir().join("new")).is_empty(), "{bad}");
        // A good mail now goes through.
        let axis = real_player_keys().1;
        r.drop(
            "2-good",
            &real_mail(
                "bob@example.org",
                "<m2@example.org>",
                &axis,
                &orders("g-toy", "axis", 1, &["add 1"]),
            ),
        );
        r.run().unwrap();
        assert_eq!(r.accepted(), 2, "{bad}");
        assert!(r
            .queued()
            .iter()
            .any(|(to, eml)| to == &vec!["bob@example.org".to_string()]
                && eml.starts_with("RECEIPT")));
    }
}

// issue 10 finding 1, through the binary: a From lettre refuses does not make `dustmail run`
// exit non-zero.
#[test]
fn the_binary_run_exits_zero_on_a_bad_from_address() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("home");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .args(["--home"])
        .arg(&home)
        .args(["init", "--referee", "referee@example.org"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let raw = "From: a..b@example.org\r\nTo: referee@example.org\r\nSubject: hi\r\nMessage-ID: <x@y>\r\n\r\nno block here\r\n";
    std::fs::write(home.join("maildir/new/1.eml"), raw).unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .arg("--home")
        .arg(&home)
        .args(["run", "--once"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(in_dir(&home.join("rejected")), vec!["1.eml".to_string()]);
}

// issue 10 finding 2: control characters in the `game:` value: the run succeeds and the
// refusal sent has a clean Subject (no game named) and no control character.
#[test]
fn a_control_character_in_the_game_value_gives_a_clean_refusal() {
    for c in ['\u{1}', '\u{7f}', '\u{9b}'] {
        let r = Real::new();
        let stranger = SigningKey::from_bytes(&[77u8; 32]);
        r.drop(
            "1",
            &real_mail(
                "eve@example.org",
                "<e1@example.org>",
                &stranger,
                &format!("game: g-{c}toy\nside: allies\nseq: 1\n\nadd 1\n"),
            ),
        );
        r.run()
            .unwrap_or_else(|e| panic!("{:?}: run failed: {e}", c));
        let q = r.queued();
        assert_eq!(q.len(), 1, "{q:?}");
        assert!(q[0].1.contains("Subject: [dustmail] refused"), "{}", q[0].1);
    }
}

// issue 10 finding 8: a Reply-To victim and a 100k-character game value: the refusal is short
// and does not carry the attacker's text.
#[test]
fn a_stranger_refusal_does_not_reflect_the_senders_text() {
    let r = Real::new();
    let stranger = SigningKey::from_bytes(&[77u8; 32]);
    let payload = "\u{2800}BUY".repeat(25_000);
    let m = real_mail(
        "eve@example.org",
        "<e1@example.org>",
        &stranger,
        &format!("game: {payload}\nside: allies\nseq: 1\n\nadd 1\n"),
    )
    .replacen(
        "To: referee@example.org\r\n",
        "To: referee@example.org\r\nReply-To: victim@example.org\r\n",
        1,
    );
    r.h.drop_mail("1", &m);
    let mut c = r.h.config.clone();
    c.max_mail_bytes = 4 << 20;
    let mut ctx = r.ctx();
    ctx.config = &c;
    referee::run(&ctx, &r.h.maildir()).unwrap();
    let q = r.queued();
    assert_eq!(q.len(), 1, "{q:?}");
    assert_eq!(q[0].0, vec!["victim@example.org".to_string()]);
    assert!(q[0].1.len() < 20_000, "{} bytes", q[0].1.len());
    assert!(!q[0].1.contains("BUY\u{2800}BUY"), "no echo");
}

// issue 10 finding 11: robots and lists are never answered; signed orders in them still count.
#[test]
fn lists_robots_and_reports_are_not_answered() {
    let cases = [
        "Return-Path: < >\r\n",
        "Precedence: list\r\n",
        "X-Autoreply: yes\r\n",
        "List-Id: <players.lists.example.org>\r\n",
    ];
    for h in cases {
        let r = Real::new();
        let k = r.allies.clone();
        r.drop(
            "1",
            &mail_with(
                h,
                "<m1@example.org>",
                &k,
                &orders("g-toy", "allies", 1, &["add 1"]),
            ),
        );
        r.run().unwrap();
        assert_eq!(r.accepted(), 1, "{h}");
        assert!(
            !r.queued().iter().any(|(_, eml)| eml.starts_with("RECEIPT")),
            "{h}: answered"
        );
    }
    // A multipart/report bounce from an ordinary address.
    let r = Real::new();
    let raw = "From: someone@example.org\r\nTo: referee@example.org\r\nSubject: Undelivered\r\nMessage-ID: <b1@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nYour mail could not be delivered.\r\n--XX\r\nContent-Type: message/delivery-status\r\n\r\nAction: failed\r\n--XX--\r\n";
    r.drop("1", raw);
    r.run().unwrap();
    assert!(r.queued().is_empty(), "{:?}", r.queued());
}

// issue 10 finding 12: a symlink in maildir/new is never followed (moved to rejected/ as it
// is, its target unread), and an oversized file is rejected from its size alone.
#[test]
fn symlinks_in_maildir_new_are_not_followed() {
    let r = Real::new();
    let k = r.allies.clone();
    let outside = r.h.dir.path().join("outside.eml");
    std::fs::write(
        &outside,
        real_mail(
            "ann@example.org",
            "<m1@example.org>",
            &k,
            &orders("g-toy", "allies", 1, &["add 1"]),
        ),
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, r.h.maildir().join("new").join("link")).unwrap();
    // A sparse file far over the limit: rejected without reading 64 MB.
    let big = std::fs::File::create(r.h.maildir().join("new").join("big")).unwrap();
    big.set_len(64 << 20).unwrap();
    let sum = r.run().unwrap();
    assert_eq!(r.submissions(), 0, "the link's target was not read");
    let rejected = r.h.home.rejected();
    assert!(std::fs::symlink_metadata(rejected.join("link"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(outside.exists());
    assert!(
        sum.warnings.iter().any(|w| w.contains("symbolic link")),
        "{:?}",
        sum.warnings
    );
    assert!(
        sum.warnings
            .iter()
            .any(|w| w.contains("over the limit") && w.contains("unread")),
        "{:?}",
        sum.warnings
    );
    assert!(rejected.join("big").exists());
}

// issue 10 finding 13: a 10,000-character Message-ID: the receipt has no In-Reply-To and no
// line over 998 characters.
#[test]
fn a_huge_message_id_is_not_threaded_on() {
    let r = Real::new();
    let k = r.allies.clone();
    let id = format!("<{}@example.org>", "x".repeat(10_000));
    r.drop(
        "1",
        &real_mail(
            "ann@example.org",
            &id,
            &k,
            &orders("g-toy", "allies", 1, &["add 1"]),
        ),
    );
    r.run().unwrap();
    let q = r.queued();
    let receipt = q
        .iter()
        .find(|(_, eml)| eml.starts_with("RECEIPT"))
        .expect("a receipt");
    assert!(!receipt.1.contains("In-Reply-To"), "{}", receipt.1);
    for (_, eml) in &q {
        assert!(eml.split("\r\n").all(|l| l.len() <= 998));
    }
}

fn alternative(plain: &str, html: &str) -> String {
    format!(
        "From: ann@example.org\r\nTo: referee@example.org\r\nSubject: orders\r\nMessage-ID: <alt@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"BB\"\r\n\r\n--BB\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n--BB\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{}\r\n--BB--\r\n",
        plain.replace('\n', "\r\n"),
        html.replace('\n', "\r\n")
    )
}

// issue 10 finding 14: a block only in the HTML half of multipart/alternative is found; a block
// in both halves counts once.
#[test]
fn a_block_in_the_html_half_is_found_once() {
    let (allies, _) = real_player_keys();
    let block = dustmail::crypto::sign_block(&allies, &orders("g-toy", "allies", 1, &["add 1"]));
    let html = format!("<html><body><pre>{block}</pre></body></html>");
    let r = Real::new();
    r.drop("1", &alternative("Orders in the HTML part.", &html));
    r.run().unwrap();
    assert_eq!(r.accepted(), 1);
    assert_eq!(r.submissions(), 1);

    let r = Real::new();
    r.drop("1", &alternative(&block, &html));
    r.run().unwrap();
    assert_eq!(r.submissions(), 1, "one block, not two");
}

// issue 10 finding 16: a stranger's unsigned mails get one refusal per address per day, none
// with `stranger_replies = "never"`.
#[test]
fn strangers_are_answered_once_per_day() {
    let r = Real::new();
    for i in 0..3 {
        r.drop(
            &format!("{i}"),
            &format!("From: eve@example.org\r\nTo: referee@example.org\r\nSubject: hi {i}\r\nMessage-ID: <s{i}@example.org>\r\n\r\nplease play with me {i}\r\n"),
        );
    }
    r.run().unwrap();
    assert_eq!(r.queued().len(), 1, "one refusal, not three");
    assert!(r.h.home.root.join("strangers.json").exists());
    // The same address again the same day: nothing.
    r.drop("9", "From: eve@example.org\r\nTo: referee@example.org\r\nSubject: again\r\nMessage-ID: <s9@example.org>\r\n\r\nhello?\r\n");
    r.run().unwrap();
    assert_eq!(r.queued().len(), 1);

    let r = Real::new();
    let mut c = r.h.config.clone();
    c.stranger_replies = dustmail::intake::StrangerPolicy::Never;
    r.drop("1", "From: eve@example.org\r\nTo: referee@example.org\r\nSubject: hi\r\nMessage-ID: <s1@example.org>\r\n\r\nhello\r\n");
    let mut ctx = r.ctx();
    ctx.config = &c;
    referee::run(&ctx, &r.h.maildir()).unwrap();
    assert!(r.queued().is_empty());
}

// issue 10 finding 16: blocks signed by a key not registered in the game (forgeries naming a
// real game) are recorded, but their sender gets one refusal a day, not one per mail.
#[test]
fn forged_blocks_from_a_stranger_are_answered_once_per_day() {
    let r = Real::new();
    let eve = SigningKey::from_bytes(&[77u8; 32]);
    for i in 0..3u64 {
        r.drop(
            &format!("{i}"),
            &real_mail(
                "eve@example.org",
                &format!("<f{i}@example.org>"),
                &eve,
                &orders("g-toy", "allies", i + 1, &["add 1"]),
            ),
        );
    }
    r.run().unwrap();
    assert_eq!(r.submissions(), 3, "every block is recorded");
    let to_eve = r
        .queued()
        .iter()
        .filter(|(to, _)| to == &vec!["eve@example.org".to_string()])
        .count();
    assert_eq!(to_eve, 1, "one refusal, not three");
}

// issue 10 finding 16: 30 byte-identical copies of a signed mail make one ledger line and one
// receipt; the same signed block in 10 other mails makes one refused line at most.
#[test]
fn copies_of_a_signed_mail_or_block_are_recorded_once() {
    let r = Real::new();
    let k = r.allies.clone();
    let text = orders("g-toy", "allies", 1, &["add 1"]);
    let m = real_mail("ann@example.org", "<m1@example.org>", &k, &text);
    for i in 0..30 {
        r.drop(&format!("copy-{i:02}"), &m);
    }
    r.run().unwrap();
    assert_eq!(r.submissions(), 1);
    assert_eq!(
        r.queued()
            .iter()
            .filter(|(_, e)| e.starts_with("RECEIPT"))
            .count(),
        1
    );
    for i in 0..10 {
        r.drop(
            &format!("resent-{i:02}"),
            &real_mail("ann@example.org", &format!("<r{i}@example.org>"), &k, &text),
        );
    }
    r.run().unwrap();
    assert!(r.submissions() <= 2, "{} lines", r.submissions());
}

// issue 10 finding 3 (attachment size): a ledger over 1 MB is attached gzip-compressed, and
// the compressed log stops at the game's last line.
#[test]
fn a_big_ledger_is_attached_compressed() {
    let h = Harness::new();
    let g = h.new_game();
    // Padding: refused blocks of a registered key (seq 0 is never above the last accepted seq),
    // each under the 64 KiB a block may carry and so recorded verbatim, then the game played to
    // its end by small accepted mails.
    let pad: Vec<String> = (0..560)
        .map(|i| {
            format!(
                "# padding line {i} of a long-winded player {}",
                "x".repeat(60)
            )
        })
        .collect();
    for p in 0..24 {
        let mut cmds: Vec<&str> = pad.iter().map(String::as_str).collect();
        let tag = format!("# pad {p}");
        cmds.push(&tag);
        h.drop_mail(
            &format!("0-pad-{p:02}"),
            &signed_mail(
                "p@example.org",
                &format!("<pad{p}@x>"),
                ALLIES_KEY,
                &orders(&g, "allies", 0, &cmds),
                "",
            ),
        );
    }
    let mails = [
        ("allies", 1, ALLIES_KEY),
        ("axis", 1, AXIS_KEY),
        ("allies", 2, ALLIES_KEY),
        ("axis", 2, AXIS_KEY),
        ("allies", 3, ALLIES_KEY),
    ];
    for (i, (side, seq, key)) in mails.iter().enumerate() {
        h.drop_mail(
            &format!("1-{i}"),
            &signed_mail(
                "p@example.org",
                &format!("<{i}@x>"),
                key,
                &orders(&g, side, *seq, &["add 5"]),
                "",
            ),
        );
    }
    let mut c = h.config.clone();
    c.max_mail_bytes = 4 << 20;
    let mut ctx = h.ctx(T0);
    ctx.config = &c;
    referee::run(&ctx, &h.maildir()).unwrap();
    let log = std::fs::read(h.log(&g)).unwrap();
    assert!(log.len() > 1 << 20, "{} bytes", log.len());
    let (_, end) = h
        .sink
        .matching("-end-")
        .into_iter()
        .next()
        .expect("end mail");
    assert!(end.attachments.iter().all(|a| a.bytes.len() <= 5 << 20));
    let gz = end
        .attachments
        .iter()
        .find(|a| a.filename.ends_with(".gz"))
        .expect("compressed ledger");
    let mut plain = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz.bytes[..]), &mut plain)
        .unwrap();
    // The game's log up to its last line (`finished`), not the refusals after it.
    assert!(log.starts_with(&plain), "a prefix of the ledger");
    let last = plain
        .trim_ascii_end()
        .rsplit(|&b| b == b'\n')
        .next()
        .unwrap();
    assert!(String::from_utf8_lossy(last).contains("\"kind\":\"finished\""));
    assert!(end.text.contains("gunzip"), "{}", end.text);
}

// issue 10 findings 1, 2, 8, 12, 13 (the general requirement): whole runs with hostile mails
// mixed among good signed ones; `run` always succeeds and every good mail is processed and
// answered.
#[derive(Debug, Clone)]
enum Hostile {
    Bytes(Vec<u8>),
    Address(usize, bool),
    GameChars(String),
    HugeMessageId(usize),
    Headers(String),
}

fn hostile() -> impl Strategy<Value = Hostile> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..600).prop_map(Hostile::Bytes),
        (0..BAD_ADDRESSES.len(), any::<bool>()).prop_map(|(i, b)| Hostile::Address(i, b)),
        "[\u{0}-\u{1f}\u{7f}-\u{9f}\u{2800}a-z]{1,80}".prop_map(Hostile::GameChars),
        (999usize..5000).prop_map(Hostile::HugeMessageId),
        "[ -~\u{0}\r\n\u{9b}]{0,60}".prop_map(Hostile::Headers),
    ]
}

fn hostile_mail(h: &Hostile, n: usize) -> Vec<u8> {
    let eve = SigningKey::from_bytes(&[77u8; 32]);
    let (allies, _) = real_player_keys();
    let ok = |id: &str| orders("g-toy", "allies", 9_000 + n as u64, &[id]);
    match h {
        Hostile::Bytes(b) => b.clone(),
        Hostile::Address(i, reply_to) => {
            let a = BAD_ADDRESSES[*i];
            // A valid signed block of a registered key, below the good mails' seq.
            let m = real_mail("ann@example.org", &format!("<h{n}@x>"), &allies, &ok("add 1"));
            if *reply_to {
                m.replacen("Subject:", &format!("Reply-To: {a}\r\nSubject:"), 1)
            } else {
                m.replacen("From: ann@example.org", &format!("From: {a}"), 1)
            }
            .into_bytes()
        }
        Hostile::GameChars(s) => real_mail(
            "eve@example.org",
            &format!("<h{n}@x>"),
            &eve,
            &format!("game: {s}\nside: allies\nseq: 1\n\nadd 1\n"),
        )
        .into_bytes(),
        Hostile::HugeMessageId(len) => real_mail(
            "eve@example.org",
            &format!("<{}@x>", "m".repeat(*len)),
            &eve,
            "game: g-toy\nside: allies\nseq: 1\n\nadd 1\n",
        )
        .into_bytes(),
        Hostile::Headers(s) => format!(
            "From: eve{n}@example.org\r\nSubject: {s}\r\nMessage-ID: <{s}>\r\nReply-To: {s}\r\n\r\nhi\r\n"
        )
        .into_bytes(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn hostile_mails_never_stop_a_run(bad in proptest::collection::vec(hostile(), 1..6)) {
        let r = Real::new();
        let (allies, axis) = real_player_keys();
        // Good mails: one turn each, interleaved by name with the hostile ones.
        let good = [
            ("allies", 20_000u64, &allies, "ann@example.org"),
            ("axis", 20_000, &axis, "bob@example.org"),
        ];
        for (i, (side, seq, key, from)) in good.iter().enumerate() {
            r.drop(
                &format!("{i}-good"),
                &real_mail(from, &format!("<good{i}@example.org>"), key,
                           &orders("g-toy", side, *seq, &["add 1"])),
            );
        }
        for (n, b) in bad.iter().enumerate() {
            let name = format!("{}-bad-{n}", n % 3);
            std::fs::write(r.h.maildir().join("new").join(name), hostile_mail(b, n)).unwrap();
        }
        let sum = r.run();
        prop_assert!(sum.is_ok(), "run failed: {:?}", sum.err());
        prop_assert!(in_dir(&r.h.maildir().join("new")).is_empty());
        let q = r.queued();
        // Each good mail is answered: a receipt, or a refusal when a hostile mail carrying
        // the same player's valid block played first and nothing of it applied (issue 16 item 4).
        for to in ["ann@example.org", "bob@example.org"] {
            prop_assert!(
                q.iter().any(|(t, eml)| t == &vec![to.to_string()]
                    && (eml.starts_with("RECEIPT") || eml.contains("nothing in your mail was applied"))),
                "{} got no receipt", to
            );
        }
        // Both good mails were applied (their receipts exist), so the game moved.
        prop_assert!(r.accepted() >= 2);
    }
}
