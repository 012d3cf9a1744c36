//! Issue 10, the ledger nobody can bias: weak keys refused, seq bounds, dice v2, referee
//! signatures on every line it makes, what `audit` re-checks, and tampered ledgers.

use crate::support::dt;

use base64::Engine;
use dt::*;
use std::path::Path;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

fn key_text(bytes: &[u8; 32]) -> String {
    format!("ed25519:{}", B64.encode(bytes))
}

/// `dustmail new` with allies' key replaced by `allies_key`.
fn new_with_key(root: &Path, allies_key: &str) -> std::process::Output {
    let ps = players(0);
    dustmail(
        root,
        &[
            "new",
            "--scenario",
            "skirmish",
            "--id",
            "g-weak",
            "--player",
            &format!("allies=ann@players.example:{allies_key}"),
            "--player",
            &format!(
                "axis=bob@players.example:{}",
                dustmail::crypto::public_key_text(&ps[1].key.verifying_key())
            ),
        ],
    )
}

/// The encoding of y = p + small (p = 2^255 - 19), little-endian: a non-canonical spelling of
/// the point whose canonical y is `small`.
fn non_canonical(small: u8) -> [u8; 32] {
    let mut b = [0xffu8; 32];
    b[31] = 0x7f;
    b[0] = 0xed + small; // p's lowest byte is 0xed; small <= 18 never carries
    b
}

// issue 10 finding 10: identity, small-order and non-canonical keys are refused by `new`.
#[test]
fn new_refuses_weak_and_non_canonical_keys() {
    let dir = tempfile::tempdir().unwrap();
    let home = init_home(dir.path(), "file");
    let mut identity = [0u8; 32];
    identity[0] = 1;
    // A point of order 4: (sqrt(-1), 0).
    let order4 = [0u8; 32];
    // A non-canonical encoding of a point that is not of small order.
    let nc = (2..=18)
        .map(non_canonical)
        .find(|b| ed25519_dalek::VerifyingKey::from_bytes(b).is_ok_and(|k| !k.is_weak()))
        .expect("some y in p+2..p+18 is on the curve");
    for (bytes, words) in [(identity, "weak"), (order4, "weak"), (nc, "canonical")] {
        let o = new_with_key(&home.root, &key_text(&bytes));
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(words), "{err}");
        assert!(err.contains("dustmail keygen"), "{err}");
        assert!(!home.game_dir("g-weak").join("log.jsonl").exists());
    }
    // A real key still works.
    let ps = players(0);
    let o = new_with_key(
        &home.root,
        &dustmail::crypto::public_key_text(&ps[0].key.verifying_key()),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// A home with one Dust Tactics game `id` (skirmish, fixed seed), welcome mails delivered.
fn home_with_game(root: &Path, id: &str, seed: u8) -> dustmail::config::Home {
    let home = init_home(root, "file");
    new_game(&home, id, &players(0), seed);
    InProc::open(&home).run(NOW);
    home
}

fn drop_mail(home: &dustmail::config::Home, name: &str, m: &str) {
    std::fs::write(home.maildir().join("new").join(name), m).unwrap();
}

/// Drops a mail from `(from, message id, key)` carrying `orders`, signed with that key.
fn drop_orders(
    home: &dustmail::config::Home,
    name: &str,
    (from, msg_id, key): (&str, &str, &ed25519_dalek::SigningKey),
    orders: &str,
) {
    drop_mail(home, name, &mail(from, msg_id, key, orders));
}

fn entries(home: &dustmail::config::Home, id: &str) -> Vec<dustmail::ledger::Entry> {
    dustmail::ledger::read_all(&log_path(home, id)).unwrap()
}

fn last_submission(home: &dustmail::config::Home, id: &str) -> dustmail::ledger::Submission {
    entries(home, id)
        .into_iter()
        .rev()
        .find_map(|e| match e.event {
            dustmail::ledger::Event::Submission(s) => Some(*s),
            _ => None,
        })
        .unwrap()
}

// issue 10 finding 9: seq = u64::MAX is refused (it would lock the side out), with the bound and
// the seq to use instead; the side then plays on with seq 1.
#[test]
fn a_seq_above_the_bound_is_refused_and_locks_nobody_out() {
    let dir = tempfile::tempdir().unwrap();
    let home = home_with_game(&dir.path().join("h"), "g-seq", 1);
    let ps = players(0);
    let ann = &ps[0];
    drop_orders(
        &home,
        "1.eml",
        (&ann.address, "huge@players.example", &ann.key),
        &orders("g-seq", "allies", u64::MAX, "first allies"),
    );
    InProc::open(&home).run(NOW);
    let s = last_submission(&home, "g-seq");
    assert!(!s.accepted);
    let r = s.refusal.unwrap();
    assert!(r.reason.contains("1000000000000"), "{r:?}");
    assert!(r.instead.contains("seq: 1"), "{r:?}");
    let replay = dustmail(&home.root, &["replay", "g-seq"]);
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay));
    drop_orders(
        &home,
        "2.eml",
        (&ann.address, "one@players.example", &ann.key),
        &orders("g-seq", "allies", 1, "first allies"),
    );
    InProc::open(&home).run(NOW);
    assert!(last_submission(&home, "g-seq").accepted);
}

/// `dustmail audit LOGFILE` (no home), as a published log is checked.
fn audit(home: &dustmail::config::Home, id: &str) -> std::process::Output {
    let log = log_path(home, id);
    std::process::Command::new(bin())
        .env_remove("DUSTMAIL_HOME")
        .arg("audit")
        .arg(&log)
        .output()
        .unwrap()
}

fn stranger() -> ed25519_dalek::SigningKey {
    ed25519_dalek::SigningKey::from_bytes(&[77u8; 32])
}

// issue 10 finding 5: the same game with 0, 1, 2 or 3 refused padding lines before a step
// (blocks signed by a key nobody registered, sent before the player's mail) gives that step the
// same dice and the same outcome; every ledger audits.
#[test]
fn refused_padding_lines_do_not_move_the_dice() {
    let mut seen: Vec<(Vec<dustmail::ledger::Draw>, String)> = Vec::new();
    for pad in 0..4u64 {
        let dir = tempfile::tempdir().unwrap();
        let home = home_with_game(&dir.path().join("h"), "g-pad", 7);
        let ps = players(0);
        for i in 0..pad {
            drop_orders(
                &home,
                &format!("0-pad-{i}.eml"),
                (
                    "mallory@evil.example",
                    &format!("pad-{i}@evil.example"),
                    &stranger(),
                ),
                &orders("g-pad", "allies", 5 + i, "first axis"),
            );
        }
        drop_orders(
            &home,
            "9-ann.eml",
            (&ps[0].address, "ann-1@players.example", &ps[0].key),
            &orders("g-pad", "allies", 1, "first allies"),
        );
        InProc::open(&home).run(NOW);
        let es = entries(&home, "g-pad");
        let refused = es
            .iter()
            .filter(|e| matches!(&e.event, dustmail::ledger::Event::Submission(s) if !s.accepted))
            .count();
        assert_eq!(refused as u64, pad);
        let s = last_submission(&home, "g-pad");
        assert!(s.accepted, "{s:?}");
        assert!(!s.step.draws.is_empty(), "the step rolled the initiative");
        assert_eq!(
            s.n,
            Some(1),
            "the first step of the game, whatever the padding"
        );
        let outcome = serde_json::to_string(&s.step.happenings).unwrap();
        seen.push((s.step.draws.clone(), outcome));
        let a = audit(&home, "g-pad");
        assert_eq!(a.status.code(), Some(0), "{}", text(&a));
    }
    for (i, s) in seen.iter().enumerate().skip(1) {
        assert_eq!(s, &seen[0], "padding {i} changed the dice or the outcome");
    }
}

// issue 10 finding 5: golden vectors of dice v2 (key derivation and the first faces).
#[test]
fn dice_v2_golden_vectors() {
    use dustmail::game::DiceSource;
    use dustmail::seed::*;
    use sha2::Digest;
    let k1 = round_key(&[7u8; 32], 10, 1);
    let cause = signature_digest(&B64.encode([3u8; 64]));
    assert_eq!(cause, <[u8; 32]>::from(sha2::Sha256::digest([3u8; 64])));
    let key = dice_key_v2(&k1, 5, &cause);
    // Independently: SHA-256("dustmail/dice/v2" ‖ K_r ‖ n as u64 BE ‖ A).
    let mut h = sha2::Sha256::new();
    h.update(b"dustmail/dice/v2");
    h.update(k1);
    h.update(5u64.to_be_bytes());
    h.update(cause);
    assert_eq!(key, <[u8; 32]>::from(h.finalize()));
    assert_eq!(
        hex::encode(key),
        "99b03be6075e6ec32f65cd3c59b3f30b497633d612ee278ef23e537b66eb9084"
    );
    let keys = SecretKeys {
        secret: [7u8; 32],
        max_rounds: 10,
    };
    let mut dice = SeededDice::with_keying(&keys, Keying::V2 { n: 5, cause });
    let faces: Vec<u8> = (0..12).map(|_| dice.d6(1)).collect();
    assert_eq!(faces, vec![2, 5, 3, 1, 5, 5, 1, 5, 6, 2, 3, 2]);
    assert!(dice.missing_key().is_none());
}

/// A game where allies' `first allies` was accepted (the ledger's last line), audited clean.
fn played_game(root: &Path) -> dustmail::config::Home {
    let home = home_with_game(root, "g-f", 3);
    let ps = players(0);
    drop_orders(
        &home,
        "1.eml",
        (&ps[0].address, "ann-1@players.example", &ps[0].key),
        &orders("g-f", "allies", 1, "first allies"),
    );
    InProc::open(&home).run(NOW);
    assert!(last_submission(&home, "g-f").accepted);
    let a = audit(&home, "g-f");
    assert_eq!(a.status.code(), Some(0), "{}", text(&a));
    home
}

/// Appends `event` to the game's ledger with a correct hash chain, signed by the referee's key
/// when `signed` (a dishonest referee) or not at all (anyone with write access).
fn forge(home: &dustmail::config::Home, event: dustmail::ledger::Event, signed: bool) -> u64 {
    let mut l = dustmail::ledger::Ledger::open(&log_path(home, "g-f")).unwrap();
    if signed {
        let key = dustmail::crypto::read_secret_key(&home.key_path()).unwrap();
        l.sign_with(key, dustmail::crypto::sign_text);
    }
    l.append(event).unwrap().seq
}

/// `audit` fails (exit 1) naming line `n`, with `words` in its message.
fn audit_fails(home: &dustmail::config::Home, n: u64, words: &str) {
    let a = audit(home, "g-f");
    let out = text(&a);
    assert_eq!(a.status.code(), Some(1), "{out}");
    assert!(out.contains(&format!("line {n}:")), "{out}");
    assert!(out.contains(words), "{out}");
    let r = dustmail(&home.root, &["replay", "g-f"]);
    assert_eq!(r.status.code(), Some(1), "{}", text(&r));
}

fn deadline_one_second_after(
    home: &dustmail::config::Home,
    cause_signed: bool,
) -> dustmail::ledger::Event {
    let g = InProc::open(home).load("g-f");
    let at = chrono::DateTime::parse_from_rfc3339(&g.derived.last_step_at).unwrap()
        + chrono::Duration::seconds(1);
    let due = dustmail::referee::side_deadline(&g.created, &g.derived, "axis")
        .unwrap()
        .to_rfc3339();
    let n = g.derived.steps + 1;
    let round = 1;
    let key = dustmail::crypto::read_secret_key(&home.key_path()).unwrap();
    let cause = dustmail::ledger::deadline_cause("g-f", n, "axis", round, &due);
    dustmail::ledger::Event::Deadline(Box::new(dustmail::ledger::Deadline {
        side: "axis".into(),
        round,
        at: at.to_rfc3339(),
        n: Some(n),
        due: Some(due),
        cause_sig: cause_signed.then(|| dustmail::crypto::sign_text(&key, &cause)),
        step: Default::default(),
    }))
}

// issue 10 finding 6: a deadline default dated one second after the last step fails audit,
// unsigned (nobody signed the line) and signed by the referee (the deadline and grace that the
// recorded settings give have not passed).
#[test]
fn a_deadline_default_one_second_after_the_last_step_fails_audit() {
    let dir = tempfile::tempdir().unwrap();
    let home = played_game(&dir.path().join("h"));
    let clean = std::fs::read(log_path(&home, "g-f")).unwrap();
    let n = forge(&home, deadline_one_second_after(&home, true), false);
    audit_fails(&home, n, "no referee signature");
    std::fs::write(log_path(&home, "g-f"), &clean).unwrap();
    let n = forge(&home, deadline_one_second_after(&home, true), true);
    audit_fails(&home, n, "came too early");
}

// issue 10 finding 6: a "by server" control that replaces a player's key, appended by someone
// without the referee's key, fails audit.
#[test]
fn an_unsigned_server_control_replacing_a_key_fails_audit() {
    let dir = tempfile::tempdir().unwrap();
    let home = played_game(&dir.path().join("h"));
    let mallory = dustmail::crypto::public_key_text(&stranger().verifying_key());
    let n = forge(
        &home,
        dustmail::ledger::Event::Control(Box::new(dustmail::ledger::Control {
            by: "server".into(),
            at: "2026-03-01T11:00:00+00:00".into(),
            actions: vec![dustmail::ledger::ControlAction::ReplaceKey {
                player: dustmail::ledger::Player {
                    side: "axis".into(),
                    address: "bob@players.example".into(),
                    public_key: mallory.clone(),
                },
            }],
            results: vec![],
            command: Some(format!("replace-key axis=bob@players.example:{mallory}")),
            signed: None,
            n: Some(2),
            cause_sig: None,
            step: None,
            in_digest: false,
        })),
        false,
    );
    audit_fails(&home, n, "no referee signature");
}

fn refused_copy_of_last_submission(
) -> impl Fn(&dustmail::ledger::Submission) -> dustmail::ledger::Event {
    |s| {
        let mut r = s.clone();
        r.accepted = false;
        r.n = None;
        r.step = Default::default();
        r.refusal = Some(dustmail::ledger::Refusal::new(
            "the signature does not verify against the key registered for side allies",
            "docs/orders.md \"The signed block\": authority comes from the signature alone",
            "sign again",
        ));
        dustmail::ledger::Event::Submission(Box::new(r))
    }
}

// issue 10 finding 6: an unsigned refused submission appended to the ledger fails audit.
#[test]
fn an_unsigned_refused_submission_fails_audit() {
    let dir = tempfile::tempdir().unwrap();
    let home = played_game(&dir.path().join("h"));
    let mut s = last_submission(&home, "g-f");
    s.player_seq = 2;
    s.canonical = s.canonical.replace("seq: 1", "seq: 2");
    let n = forge(&home, refused_copy_of_last_submission()(&s), false);
    audit_fails(&home, n, "no referee signature");
}

// issue 10 finding 6: the accepted submission rewritten as refused (by the referee, who can
// sign the line) fails audit: its signature, side and seq check out.
#[test]
fn an_accepted_submission_rewritten_as_refused_fails_audit() {
    let dir = tempfile::tempdir().unwrap();
    let home = played_game(&dir.path().join("h"));
    let s = last_submission(&home, "g-f");
    let log = log_path(&home, "g-f");
    let data = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = data.lines().collect();
    let keep = lines[..lines.len() - 1].join("\n") + "\n";
    std::fs::write(&log, keep).unwrap();
    let n = forge(&home, refused_copy_of_last_submission()(&s), true);
    assert_eq!(n as usize, lines.len());
    audit_fails(&home, n, "should have been accepted");
}

// issue 10 finding 3 (part): a 200 KB block signed by a key nobody registered adds one short
// line (digest, size, reason), not the block; a registered player's block over 64 KiB is refused
// with a clear message and recorded the same way; a redelivered mail adds nothing (dedup); the
// ledger audits.
#[test]
fn unregistered_and_oversized_blocks_are_recorded_as_digests() {
    let dir = tempfile::tempdir().unwrap();
    let home = home_with_game(&dir.path().join("h"), "g-big", 4);
    let ps = players(0);
    let padding: String = (0..4000)
        .map(|i| format!("# filler line {i:08} of a forged block\n"))
        .collect();
    assert!(padding.len() > 150_000);
    let forged = mail(
        "mallory@evil.example",
        "big@evil.example",
        &stranger(),
        &orders("g-big", "allies", 1, &format!("first axis\n{padding}")),
    );
    let big_own = mail(
        &ps[0].address,
        "big-own@players.example",
        &ps[0].key,
        &orders(
            "g-big",
            "allies",
            1,
            &format!("first allies\n{}", &padding[..70_000]),
        ),
    );
    drop_mail(&home, "1.eml", &forged);
    drop_mail(&home, "2.eml", &big_own);
    let before = std::fs::metadata(log_path(&home, "g-big")).unwrap().len();
    InProc::open(&home).run(NOW);
    let log = std::fs::read_to_string(log_path(&home, "g-big")).unwrap();
    let added = log.len() as u64 - before;
    assert!(added < 8_000, "two refusals added {added} bytes");
    let es = entries(&home, "g-big");
    let subs: Vec<&dustmail::ledger::Submission> = es
        .iter()
        .filter_map(|e| match &e.event {
            dustmail::ledger::Event::Submission(s) => Some(&**s),
            _ => None,
        })
        .collect();
    assert_eq!(subs.len(), 2);
    for s in &subs {
        assert!(!s.accepted);
        assert!(s.canonical.is_empty() && s.signature.is_empty(), "{s:?}");
        assert_eq!(s.digest.as_ref().map(String::len), Some(64));
        assert!(s.size.unwrap() > 60_000);
    }
    let r = subs[1].refusal.as_ref().unwrap();
    assert!(r.reason.contains("at most 65536 bytes"), "{r:?}");
    // The receipt tells ann why.
    let sent: String = names(&home.root.join("sent"))
        .into_iter()
        .map(|n| std::fs::read_to_string(home.root.join("sent").join(n)).unwrap())
        .collect();
    assert!(sent.contains("65536 bytes"));
    // The same mails delivered again (a crash before they left maildir/new): nothing new.
    drop_mail(&home, "1.eml", &forged);
    drop_mail(&home, "2.eml", &big_own);
    let sum = InProc::open(&home).run(NOW);
    assert_eq!(sum.deduplicated, 2, "{sum:?}");
    assert_eq!(entries(&home, "g-big").len(), es.len());
    let a = {
        let log = log_path(&home, "g-big");
        std::process::Command::new(bin())
            .arg("audit")
            .arg(&log)
            .output()
            .unwrap()
    };
    assert_eq!(a.status.code(), Some(0), "{}", text(&a));
    // ann's next, normal-sized mail is accepted.
    drop_orders(
        &home,
        "3.eml",
        (&ps[0].address, "ann-1@players.example", &ps[0].key),
        &orders("g-big", "allies", 1, "first allies"),
    );
    InProc::open(&home).run(NOW);
    assert!(last_submission(&home, "g-big").accepted);
}

// issue 10 finding 18: a ledger edited by hand in its middle (the last line, and so the
// snapshot's head, untouched) stops that game only: `run` appends nothing to it, its mail stays
// in maildir/new, the operator is told the line; another game goes on.
#[test]
fn run_stops_a_game_whose_ledger_was_edited_in_the_middle() {
    let dir = tempfile::tempdir().unwrap();
    let home = init_home(&dir.path().join("h"), "file");
    new_game(&home, "g-t", &players(0), 5);
    new_game(&home, "g-o", &players(30), 6);
    let ps = players(0);
    let qs = players(30);
    drop_orders(
        &home,
        "1.eml",
        (&ps[0].address, "ann-1@players.example", &ps[0].key),
        &orders("g-t", "allies", 1, "first allies"),
    );
    drop_orders(
        &home,
        "2.eml",
        ("mallory@evil.example", "m-1@evil.example", &stranger()),
        &orders("g-t", "axis", 1, "first axis"),
    );
    InProc::open(&home).run(NOW);
    let log = log_path(&home, "g-t");
    let data = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = data.lines().map(String::from).collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[1].contains("ann-1@players.example"));
    lines[1] = lines[1].replace("ann-1@players.example", "ann-1x@players.example");
    let edited = lines.join("\n") + "\n";
    std::fs::write(&log, &edited).unwrap();
    drop_orders(
        &home,
        "3.eml",
        (&ps[1].address, "bob-1@players.example", &ps[1].key),
        &orders("g-t", "axis", 1, "first axis"),
    );
    drop_orders(
        &home,
        "4.eml",
        (&qs[0].address, "ann-o@players.example", &qs[0].key),
        &orders("g-o", "allies", 1, "first allies"),
    );
    let sum = InProc::open(&home).run(NOW);
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        edited,
        "nothing appended"
    );
    assert!(home.maildir().join("new").join("3.eml").exists());
    assert!(!home.maildir().join("new").join("4.eml").exists());
    let broken = sum.broken.join("\n");
    assert!(
        broken.contains("g-t") && broken.contains("line 3"),
        "{broken}"
    );
    assert!(broken.contains("changed by hand"), "{broken}");
    assert!(last_submission(&home, "g-o").accepted);
}

// issue 10 findings 5 and 6: real deadline defaults (both sides awaited, so two in one run)
// record their step, deadline and signed cause, and the ledger audits.
#[test]
fn real_deadline_defaults_record_their_cause_and_audit() {
    let dir = tempfile::tempdir().unwrap();
    let home = home_with_game(&dir.path().join("h"), "g-d", 8);
    // Created at T0 = 09:00; deadline 72 h, grace 12 h.
    InProc::open(&home).run("2026-03-04T21:00:01Z");
    let defaults: Vec<dustmail::ledger::Deadline> = entries(&home, "g-d")
        .into_iter()
        .filter_map(|e| match e.event {
            dustmail::ledger::Event::Deadline(d) => Some(*d),
            _ => None,
        })
        .collect();
    assert!(!defaults.is_empty());
    for (i, d) in defaults.iter().enumerate() {
        assert_eq!(d.n, Some(i as u64 + 1));
        assert_eq!(d.due.as_deref(), Some("2026-03-04T09:00:00+00:00"));
        assert!(d.cause_sig.is_some());
    }
    let a = audit(&home, "g-d");
    assert_eq!(a.status.code(), Some(0), "{}", text(&a));
    let r = dustmail(&home.root, &["replay", "g-d"]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r));
}
