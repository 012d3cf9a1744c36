//! Issue 6 item 3: the bad input table. One test per hostile or broken input, each stating what
//! the referee does: a clear reply naming what was wrong (or silence where replying would be
//! abuse), and nothing changed in any game — a refused submission is recorded verbatim in its
//! game's ledger (DESIGN: every submission is recorded) but moves no state, and no other ledger
//! gains a single byte.
//!
//! Every case runs on a fresh copy of one home holding two Dust Tactics games, `g-a` and `g-b`,
//! with different players' keys; runs go through the real pipeline (real MIME parsing, real
//! ed25519 keys, the real outbox delivering into sent/).

use crate::support::dt;

use dt::InProc;
use dustmail::config::Home;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::Game;
use dustmail::ledger::{Entry, Event};
use dustmail::referee::RunSummary;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const A: &str = "g-a";
const B: &str = "g-b";

/// The base home (made once per test binary): two games, welcome mails delivered.
fn base() -> &'static Path {
    static BASE: OnceLock<PathBuf> = OnceLock::new();
    BASE.get_or_init(|| {
        let d = tempfile::tempdir().unwrap().keep();
        let root = d.join("base");
        let h = dt::init_home(&root, "file");
        dt::new_game(&h, A, &dt::players(0), 1);
        dt::new_game(&h, B, &dt::players(50), 2);
        InProc::open(&h).run(dt::NOW);
        root
    })
}

/// What one case did.
struct Case {
    _dir: tempfile::TempDir,
    home: Home,
    sum: RunSummary,
    /// The mails the referee sent for this case (raw .eml text).
    replies: Vec<String>,
    /// New ledger entries per game.
    new_a: Vec<Entry>,
    new_b: Vec<Entry>,
    digest_before: [String; 2],
}

fn entries(home: &Home, id: &str) -> Vec<Entry> {
    dustmail::ledger::read_all(&dt::log_path(home, id)).unwrap()
}

fn digest(home: &Home, id: &str) -> String {
    let g = InProc::open(home).load(id);
    dustmail::ledger::state_digest(&g.derived.state)
}

/// Runs `prepare` on a fresh copy of the base home (it may process mails of its own first),
/// then drops `mails` into maildir/new and runs once.
fn case_with(prepare: impl FnOnce(&Home), mails: &[Vec<u8>]) -> Case {
    let dir = tempfile::tempdir().unwrap();
    let home = Home::new(dir.path().join("home"));
    dt::copy_tree(base(), &home.root);
    prepare(&home);
    let before_a = entries(&home, A).len();
    let before_b = entries(&home, B).len();
    let sent_before = dt::names(&home.root.join("sent"));
    let digest_before = [digest(&home, A), digest(&home, B)];
    for (i, m) in mails.iter().enumerate() {
        std::fs::write(
            home.maildir().join("new").join(format!("bad-{i:03}.eml")),
            m,
        )
        .unwrap();
    }
    let sum = InProc::open(&home).run(dt::NOW);
    let replies = dt::names(&home.root.join("sent"))
        .into_iter()
        .filter(|n| !sent_before.contains(n))
        .map(|n| std::fs::read_to_string(home.root.join("sent").join(n)).unwrap())
        .collect();
    Case {
        new_a: entries(&home, A).split_off(before_a),
        new_b: entries(&home, B).split_off(before_b),
        _dir: dir,
        home,
        sum,
        replies,
        digest_before,
    }
}

fn case(mails: &[Vec<u8>]) -> Case {
    case_with(|_| {}, mails)
}

impl Case {
    /// No game changed: no new ledger line anywhere, the states as before.
    fn no_ledger_changed(&self) {
        assert!(self.new_a.is_empty(), "g-a changed: {:?}", self.new_a);
        assert!(self.new_b.is_empty(), "g-b changed: {:?}", self.new_b);
        self.states_unchanged();
    }

    fn states_unchanged(&self) {
        assert_eq!(
            digest(&self.home, A),
            self.digest_before[0],
            "g-a state moved"
        );
        assert_eq!(
            digest(&self.home, B),
            self.digest_before[1],
            "g-b state moved"
        );
    }

    /// Exactly one refused submission recorded in `game`, nothing anywhere else, no state moved.
    fn refused_in(&self, game: &str) -> &dustmail::ledger::Submission {
        let (mine, other) = if game == A {
            (&self.new_a, &self.new_b)
        } else {
            (&self.new_b, &self.new_a)
        };
        assert!(other.is_empty(), "the other game changed: {other:?}");
        assert_eq!(mine.len(), 1, "{game}: {mine:?}");
        self.states_unchanged();
        match &mine[0].event {
            Event::Submission(s) => {
                assert!(!s.accepted, "accepted: {s:?}");
                s
            }
            e => panic!("not a submission: {e:?}"),
        }
    }

    /// The answers to the mail (receipts, the sender's report that starts with its receipt since
    /// issue 17 item 3, and refusals; not the other reports) sent to `to`, as decoded bodies; every mail sent goes to one recipient, with no Cc/Bcc.
    fn replies_to(&self, to: &str) -> Vec<String> {
        let mut out = Vec::new();
        for r in &self.replies {
            let m = mail_parser::MessageParser::default()
                .parse(r.as_bytes())
                .unwrap();
            let rcpt: Vec<String> = m
                .to()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.address.as_deref().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            assert!(m.cc().is_none() && m.bcc().is_none(), "{r}");
            assert_eq!(rcpt.len(), 1, "{r}");
            let subject = m.subject().unwrap_or("");
            if rcpt[0] == to && (subject.contains("receipt") || subject.contains("refused")) {
                out.push(m.body_text(0).unwrap_or_default().into_owned());
            }
        }
        out
    }

    /// The one answer to `to`, containing every `part`.
    fn one_reply(&self, to: &str, parts: &[&str]) -> String {
        let rs = self.replies_to(to);
        assert_eq!(rs.len(), 1, "answers to {to}: {rs:#?}");
        for p in parts {
            let flat = crate::support::flat;
            assert!(
                flat(&rs[0]).contains(&flat(p)),
                "the answer lacks `{p}`:\n{}",
                rs[0]
            );
        }
        rs[0].clone()
    }

    fn silent(&self) {
        assert!(self.replies.is_empty(), "replies: {:#?}", self.replies);
    }

    fn rejected(&self) -> Vec<String> {
        dt::names(&self.home.rejected())
    }
}

/// (side, a legal order text) awaited first in `game` of the base home.
fn legal(game: &str) -> (String, String) {
    let h = Home::new(base());
    let g = InProc::open(&h).load(game);
    let a = DustTactics.awaiting(g.derived.state.typed()).remove(0);
    let mut bot = dustmail::dust_tactics::bot::Bot::new(
        &a.side,
        dustmail::dust_tactics::bot::Style::Aggressive,
    );
    (a.side.clone(), bot.orders(g.derived.state.typed()).unwrap())
}

fn player(game: &str, side: &str) -> dt::Player {
    let salt = if game == A { 0 } else { 50 };
    dt::players(salt)
        .into_iter()
        .find(|p| p.side == side)
        .unwrap()
}

fn signed(game: &str, side: &str, seq: u64, commands: &str) -> Vec<u8> {
    let p = player(game, side);
    dt::mail(
        &p.address,
        &format!("{game}-{side}-{seq}@players.example"),
        &p.key,
        &dt::orders(game, side, seq, commands),
    )
    .into_bytes()
}

const ANN: &str = "ann@players.example";

fn mail_with(headers: &str, body: &str) -> Vec<u8> {
    format!("{headers}\r\n\r\n{body}").into_bytes()
}

// ---------------------------------------------------------------------------------------------
// Signatures, keys, games, seqs.

#[test]
fn forged_signature_is_refused_recorded_and_moves_nothing() {
    let (side, text) = legal(A);
    let m = String::from_utf8(signed(A, &side, 1, &text)).unwrap();
    // Edited after signing: the signed text no longer matches its signature.
    let forged = m.replacen(
        &format!("seq: 1\r\n\r\n{}", text.lines().next().unwrap()),
        "seq: 1\r\n\r\nfirst axis",
        1,
    );
    assert_ne!(forged, m);
    let c = case(&[forged.into_bytes()]);
    let s = c.refused_in(A);
    assert!(s
        .refusal
        .as_ref()
        .unwrap()
        .reason
        .contains("signature does not verify"));
    c.one_reply(
        ANN,
        &[
            "signature does not verify",
            "sign the text with the secret key you registered",
        ],
    );
}

#[test]
fn a_block_signed_with_the_wrong_key_is_refused() {
    let (side, text) = legal(A);
    // g-b's allies key, claiming g-a's allies side.
    let wrong = player(B, &side);
    let m = dt::mail(
        ANN,
        "wrong@players.example",
        &wrong.key,
        &dt::orders(A, &side, 1, &text),
    );
    let c = case(&[m.into_bytes()]);
    c.refused_in(A);
    c.one_reply(
        ANN,
        &["does not verify against the key registered for side allies"],
    );
}

#[test]
fn orders_naming_another_game_are_refused_in_that_game_only() {
    // g-a's allies player signs orders for g-b, where their key is not registered.
    let (side, text) = legal(B);
    let p = player(A, &side);
    let m = dt::mail(
        &p.address,
        "other@players.example",
        &p.key,
        &dt::orders(B, &side, 1, &text),
    );
    let c = case(&[m.into_bytes()]);
    c.refused_in(B);
    c.one_reply(ANN, &["refused for game g-b", "does not verify"]);
}

#[test]
fn a_game_that_does_not_exist_is_refused_and_the_mail_rejected() {
    let p = player(A, "allies");
    let m = dt::mail(
        &p.address,
        "nogame@players.example",
        &p.key,
        &dt::orders("g-nope", "allies", 1, "first allies"),
    );
    let c = case(&[m.into_bytes()]);
    c.no_ledger_changed();
    assert_eq!(c.rejected().len(), 1);
    c.one_reply(ANN, &["there is no game `g-nope`", "copy the game id"]);
}

/// Processes one legal mail (seq 1 of g-a's first awaited side) before the case; returns it.
fn after_first_mail(home: &Home) -> Vec<u8> {
    let (side, text) = legal(A);
    let m = signed(A, &side, 1, &text);
    std::fs::write(home.maildir().join("new").join("first.eml"), &m).unwrap();
    let sum = InProc::open(home).run(dt::NOW);
    assert_eq!(sum.accepted, 1, "{sum:?}");
    m
}

#[test]
fn a_replayed_seq_in_a_new_mail_is_refused_as_stale() {
    let (side, text) = legal(A);
    let again = String::from_utf8(signed(A, &side, 1, &text))
        .unwrap()
        .replace("Message-ID: <", "Message-ID: <again-");
    let c = case_with(
        |h| {
            after_first_mail(h);
        },
        &[again.into_bytes()],
    );
    let s = c.refused_in(A);
    assert!(s
        .refusal
        .as_ref()
        .unwrap()
        .reason
        .contains("replay or stale"));
    c.one_reply(
        ANN,
        &["seq 1 is not greater than 1", "sign them again with seq: 2"],
    );
}

#[test]
fn the_same_mail_delivered_twice_is_applied_once_and_answered_once() {
    let first = std::cell::RefCell::new(Vec::new());
    let c = case_with(|h| *first.borrow_mut() = after_first_mail(h), &[]);
    drop(c);
    let m = first.into_inner();
    let c = case_with(
        |h| {
            let again = after_first_mail(h);
            assert_eq!(again, m);
        },
        std::slice::from_ref(&m),
    );
    c.no_ledger_changed();
    assert_eq!(c.sum.deduplicated, 1, "{:?}", c.sum);
    c.silent();
}

#[test]
fn a_seq_gap_is_allowed_seq_only_has_to_grow() {
    // DESIGN §4 / README: seq goes up by at least one; a gap is not an attack (lost mails).
    let (side, text) = legal(A);
    let c = case(&[signed(A, &side, 7, &text)]);
    assert_eq!(c.new_a.len(), 1);
    assert!(matches!(&c.new_a[0].event, Event::Submission(s) if s.accepted && s.player_seq == 7));
    assert!(c.new_b.is_empty());
    c.one_reply(ANN, &["seq 7 were received and applied"]);
    // …and the next one must beat 7.
    let c2 = case_with(
        |h| {
            std::fs::write(
                h.maildir().join("new").join("gap.eml"),
                signed(A, &side, 7, &text),
            )
            .unwrap();
            InProc::open(h).run(dt::NOW);
        },
        &[signed(A, &side, 6, "first axis")],
    );
    c2.refused_in(A);
    c2.one_reply(ANN, &["seq 6 is not greater than 7"]);
}

// ---------------------------------------------------------------------------------------------
// Shapes of mail.

#[test]
fn a_mail_with_100_blocks_is_rejected_whole_with_a_warning_to_the_operator() {
    let (side, text) = legal(A);
    let p = player(A, &side);
    let mut body = String::new();
    for seq in 1..=100 {
        body.push_str(
            &dustmail::crypto::sign_block(&p.key, &dt::orders(A, &side, seq, &text))
                .replace('\n', "\r\n"),
        );
        body.push_str("\r\n");
    }
    let m = mail_with(
        &format!(
            "From: {ANN}\r\nTo: {}\r\nSubject: many\r\nMessage-ID: <many@players.example>",
            dt::REFEREE
        ),
        &body,
    );
    let c = case(&[m]);
    c.no_ledger_changed();
    assert_eq!(c.rejected().len(), 1);
    assert!(
        c.sum
            .warnings
            .iter()
            .any(|w| w.contains("more than 20 signed blocks")),
        "{:?}",
        c.sum.warnings
    );
    // The limit stops the mail before its sender is read: no reply (mail.rs returns an error).
    c.silent();
}

#[test]
fn a_50_mb_mail_is_rejected_unread_with_a_warning_to_the_operator() {
    let (side, text) = legal(A);
    let mut m = signed(A, &side, 1, &text);
    m.extend(std::iter::repeat_n(b'x', 50 << 20));
    let c = case(&[m]);
    c.no_ledger_changed();
    assert_eq!(c.rejected().len(), 1);
    assert!(
        c.sum
            .warnings
            .iter()
            .any(|w| w.contains("over the limit of 1048576 bytes")),
        "{:?}",
        c.sum.warnings
    );
    c.silent();
}

#[test]
fn an_html_only_mail_is_read_through_its_text() {
    let (side, text) = legal(A);
    let p = player(A, &side);
    let block = dustmail::crypto::sign_block(&p.key, &dt::orders(A, &side, 1, &text));
    let html: String = block
        .lines()
        .map(|l| {
            if l.is_empty() {
                "<div><br></div>".to_string()
            } else {
                format!("<div>{l}</div>")
            }
        })
        .collect();
    let m = mail_with(
        &format!("From: {ANN}\r\nTo: {}\r\nSubject: html\r\nMessage-ID: <html@players.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8", dt::REFEREE),
        &format!("<html><body><p>My orders:</p>{html}</body></html>"),
    );
    let c = case(&[m]);
    assert!(
        matches!(&c.new_a[..], [e] if matches!(&e.event, Event::Submission(s) if s.accepted)),
        "{:?}",
        c.new_a
    );
    c.one_reply(ANN, &["were received and applied"]);
}

#[test]
fn a_utf16_body_is_decoded_and_read() {
    use base64::Engine as _;
    let (side, text) = legal(A);
    let p = player(A, &side);
    let block =
        dustmail::crypto::sign_block(&p.key, &dt::orders(A, &side, 1, &text)).replace('\n', "\r\n");
    let mut bytes = vec![0xff, 0xfe];
    for u in format!("My orders:\r\n\r\n{block}").encode_utf16() {
        bytes.extend(u.to_le_bytes());
    }
    let b64 = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let m = mail_with(
        &format!("From: {ANN}\r\nTo: {}\r\nSubject: utf16\r\nMessage-ID: <u16@players.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-16\r\nContent-Transfer-Encoding: base64", dt::REFEREE),
        &b64,
    );
    let c = case(&[m]);
    assert!(
        matches!(&c.new_a[..], [e] if matches!(&e.event, Event::Submission(s) if s.accepted)),
        "{:?}",
        c.new_a
    );
    c.one_reply(ANN, &["were received and applied"]);
}

#[test]
fn broken_mime_gets_a_refusal_naming_the_problem_and_changes_nothing() {
    let m = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/mails/broken-mime.eml"
    ))
    .unwrap();
    let text = String::from_utf8_lossy(&m).replace("referee@dust.example", dt::REFEREE);
    let c = case(&[text.into_bytes()]);
    c.no_ledger_changed();
    assert_eq!(c.rejected().len(), 1);
    let r = c.one_reply("red@example.org", &["refused"]);
    assert!(
        r.contains("END ORDERS") || r.contains("no signed DUSTMAIL ORDERS block"),
        "{r}"
    );
}

#[test]
fn garbage_that_is_not_a_mail_is_rejected_silently() {
    let c = case(&[vec![0u8, 159, 146, 150, 0, 0, 13, 10]]);
    c.no_ledger_changed();
    assert_eq!(c.rejected().len(), 1);
    c.silent();
}

#[test]
fn header_injection_in_the_sender_address_gets_no_mail_to_the_injected_address() {
    let (side, text) = legal(A);
    let p = player(A, &side);
    let block =
        dustmail::crypto::sign_block(&p.key, &dt::orders(A, &side, 1, &text)).replace('\n', "\r\n");
    let send = |headers: &str| {
        let m = mail_with(
            &format!(
                "{headers}\r\nTo: {}\r\nSubject: inj\r\nMessage-ID: <inj@players.example>",
                dt::REFEREE
            ),
            &block,
        );
        let c = case(&[m]);
        for r in &c.replies {
            let head = r.split("\r\n\r\n").next().unwrap_or(r).to_ascii_lowercase();
            assert!(
                !head.contains("\nbcc:") && !head.contains("\ncc:"),
                "{head}"
            );
        }
        // replies_to also checks every mail has one recipient and no Cc/Bcc.
        assert!(c.new_b.is_empty(), "g-b untouched");
        c
    };
    // Display names that decode to CR LF + Bcc: the address is unusable, nobody gets an answer
    // (the orders themselves are signed and still count; the reports go to the registered
    // addresses).
    for headers in [
        format!("From: =?utf-8?q?Ann=0D=0ABcc:_evil@evil.example?= <{ANN}>"),
        format!("From: {ANN}\r\nReply-To: =?utf-8?q?x=0D=0ABcc:_evil@evil.example?= <{ANN}>"),
    ] {
        let c = send(&headers);
        assert!(c.replies_to("evil@evil.example").is_empty(), "{headers}");
        assert!(c.replies_to(ANN).is_empty(), "{headers}");
        for r in &c.replies {
            assert!(!r.to_ascii_lowercase().contains("evil@evil.example"), "{r}");
        }
    }
    // A folded line is part of the header above it (RFC 5322 folding): `Reply-To: ann… Bcc:
    // evil@…` is a group holding evil@…, so the answer goes there, in one clean To: header; no
    // Bcc header comes out of it.
    let c = send(&format!(
        "From: {ANN}\r\nReply-To: {ANN}\r\n Bcc: evil@evil.example"
    ));
    assert_eq!(c.replies_to("evil@evil.example").len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Orders the rules refuse: recorded (the seq is used), answered line by line, nothing moves.

/// Plays g-a with bots until a side is asked to activate; returns that side and its next seq.
fn to_activation(home: &Home) -> (String, u64) {
    let env = InProc::open(home);
    let mut bots = dt::Bots::new(A, &dt::players(0), |_| {
        dustmail::dust_tactics::bot::Style::Aggressive
    });
    for _ in 0..10 {
        let g = env.load(A);
        let a = DustTactics.awaiting(g.derived.state.typed()).remove(0);
        if a.decision == "activate" {
            let seq = g.derived.last_seq.get(&a.side).copied().unwrap_or(0) + 1;
            return (a.side, seq);
        }
        let (name, m) = bots.next_mail(&g).unwrap();
        std::fs::write(home.maildir().join("new").join(name), m).unwrap();
        env.run(dt::NOW);
    }
    panic!("no activation in 10 mails");
}

/// A case at the first activation of g-a: `commands(side)` signed by the activating side.
fn at_activation(commands: impl Fn(&str) -> String) -> (Case, String) {
    let d = tempfile::tempdir().unwrap();
    let probe = Home::new(d.path().join("probe"));
    dt::copy_tree(base(), &probe.root);
    let (side, seq) = to_activation(&probe);
    let cmds = commands(&side);
    let m = signed(A, &side, seq, &cmds);
    let c = case_with(
        |h| {
            to_activation(h);
        },
        &[m],
    );
    (c, side)
}

fn address_of(side: &str) -> String {
    player(A, side).address
}

fn line_refused(c: &Case, side: &str, parts: &[&str]) {
    assert_eq!(c.new_a.len(), 1, "{:?}", c.new_a);
    assert!(c.new_b.is_empty());
    c.states_unchanged();
    let Event::Submission(s) = &c.new_a[0].event else {
        panic!()
    };
    assert!(s.step.happenings.is_empty(), "{:?}", s.step.happenings);
    // Nothing applied: a refusal to the sender, not a receipt (issue 16 item 4).
    let r = c.one_reply(&address_of(side), &["nothing in your mail was applied"]);
    let flat = crate::support::flat;
    for p in parts {
        assert!(flat(&r).contains(&flat(p)), "the refusal lacks `{p}`:\n{r}");
    }
}

fn enemy_unit(side: &str) -> &'static str {
    if side == "allies" {
        "grenadiers"
    } else {
        "rangers"
    }
}

#[test]
fn orders_for_the_opponents_units_are_refused() {
    let (c, side) = at_activation(|s| format!("activate {}\nnothing\nnothing", enemy_unit(s)));
    line_refused(&c, &side, &[enemy_unit(&side)]);
}

#[test]
fn a_unit_id_that_does_not_exist_is_refused() {
    let (c, side) = at_activation(|_| "activate tigers\nnothing\nnothing".into());
    line_refused(&c, &side, &["tigers"]);
}

#[test]
fn a_square_off_the_board_is_refused() {
    let (c, side) = at_activation(|s| {
        let own = if s == "allies" {
            "rangers"
        } else {
            "grenadiers"
        };
        format!("activate {own}\nmove Z99\nnothing")
    });
    line_refused(&c, &side, &["Z99", "not on the board"]);
}

#[test]
fn a_unicode_look_alike_unit_id_is_refused_not_matched() {
    // Cyrillic а (U+0430) and е (U+0435) in place of Latin a and e.
    let (c, side) = at_activation(|s| {
        let own = if s == "allies" {
            "r\u{0430}ngers"
        } else {
            "gr\u{0435}nadiers"
        };
        format!("activate {own}\nnothing\nnothing")
    });
    line_refused(&c, &side, &["is not a unit id"]);
}

// ---------------------------------------------------------------------------------------------
// Mail loops.

#[test]
fn automatic_mail_bounces_and_our_own_mail_get_no_answer() {
    for headers in [
        "From: robot@other.example\r\nAuto-Submitted: auto-replied".to_string(),
        "From: MAILER-DAEMON@players.example\r\nReturn-Path: <>".to_string(),
        format!("From: {}", dt::REFEREE),
        "From: list@players.example\r\nPrecedence: bulk".to_string(),
    ] {
        let m = mail_with(
            &format!("{headers}\r\nTo: {}\r\nSubject: Re: [dustmail g-a] refused\r\nMessage-ID: <loop@x.example>", dt::REFEREE),
            "No orders here.\r\n",
        );
        let c = case(&[m]);
        c.no_ledger_changed();
        c.silent();
        assert_eq!(c.rejected().len(), 1, "{headers}");
    }
}

#[test]
fn two_referees_do_not_answer_each_other_forever() {
    // Referee 2 writes to referee 1 (say, a refusal of its own); referee 1 refuses it (no block)
    // and its refusal goes to referee 2; referee 2 must not answer that.
    let c = case(&[mail_with(
        &format!("From: referee2@other.example\r\nTo: {}\r\nSubject: [dustmail] refused\r\nMessage-ID: <r2-1@other.example>", dt::REFEREE),
        "no signed DUSTMAIL ORDERS block was found in your mail\r\n",
    )]);
    let answers: Vec<&String> = c
        .replies
        .iter()
        .filter(|r| r.contains("To: referee2@other.example"))
        .collect();
    let Some(answer) = answers.first() else {
        // Referee 1 stayed silent: no loop can start.
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let other = dt::init_home(&d.path().join("r2"), "file");
    let o = dt::dustmail(&other.root, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(0));
    // Referee 2's address differs from referee 1's; reconfigure it.
    let cfg = std::fs::read_to_string(other.config_path())
        .unwrap()
        .replace(dt::REFEREE, "referee2@other.example");
    std::fs::write(other.config_path(), cfg).unwrap();
    std::fs::write(
        other.maildir().join("new").join("from-r1.eml"),
        answer.as_bytes(),
    )
    .unwrap();
    let o = dt::dustmail(&other.root, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert_eq!(
        dt::names(&other.root.join("sent")),
        Vec::<String>::new(),
        "referee 2 answered referee 1's automatic refusal: the two would answer each other forever"
    );
}
