//! Issue 10, the ledger nobody can bias: weak keys refused, seq bounds, dice v2, referee
//! signatures on every line it makes, what `audit` re-checks, and tampered ledgers.

#[path = "support/dt.rs"]
mod dt;

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
    drop_mail(
        &home,
        "1.eml",
        &mail(
            &ann.address,
            "huge@players.example",
            &ann.key,
            &orders("g-seq", "allies", u64::MAX, "first allies"),
        ),
    );
    InProc::open(&home).run(NOW);
    let s = last_submission(&home, "g-seq");
    assert!(!s.accepted);
    let r = s.refusal.unwrap();
    assert!(r.reason.contains("1000000000000"), "{r:?}");
    assert!(r.instead.contains("seq: 1"), "{r:?}");
    let replay = dustmail(&home.root, &["replay", "g-seq"]);
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay));
    drop_mail(
        &home,
        "2.eml",
        &mail(
            &ann.address,
            "one@players.example",
            &ann.key,
            &orders("g-seq", "allies", 1, "first allies"),
        ),
    );
    InProc::open(&home).run(NOW);
    assert!(last_submission(&home, "g-seq").accepted);
}
