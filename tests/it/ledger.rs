//! The hash-chained ledger (DESIGN §5): chain, torn last line, altered bytes named by line.

use dustmail::game::Setup;
use dustmail::ledger::*;
use std::collections::BTreeMap;

fn created() -> Created {
    Created {
        engine_version: "test".into(),
        game: "toy".into(),
        game_id: "g-1".into(),
        ruleset: "toy".into(),
        setup: Setup {
            ruleset: "toy".into(),
            scenario_name: "s".into(),
            scenario: "text".into(),
            cards: BTreeMap::new(),
            sides: vec!["a".into(), "b".into()],
            rules_revision: 0,
        },
        players: vec![],
        referee_address: "r@example.org".into(),
        referee_public_key: "ed25519:x".into(),
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
    }
}

fn round_end(r: u32) -> Event {
    Event::RoundEnd(RoundEnd {
        round: r,
        key: format!("{r:064}"),
        state_digest: "d".into(),
    })
}

/// A ledger of `n` lines (created + n-1 round ends).
fn ledger(n: u32) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let mut l = Ledger::create(dir.path(), created()).unwrap();
    for r in 1..n {
        l.append(round_end(r)).unwrap();
    }
    let p = dir.path().join(LOG_FILE);
    (dir, p)
}

#[test]
fn lines_are_chained_by_the_hash_of_the_previous_line() {
    let (_d, p) = ledger(4);
    let data = std::fs::read_to_string(&p).unwrap();
    let lines: Vec<&str> = data.lines().collect();
    assert_eq!(lines.len(), 4);
    let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(first["seq"], 1);
    assert_eq!(first["prev"], ZERO_HASH);
    assert_eq!(first["kind"], "created");
    for i in 1..4 {
        let v: serde_json::Value = serde_json::from_str(lines[i]).unwrap();
        assert_eq!(v["seq"], (i + 1) as u64);
        assert_eq!(v["prev"], sha256_hex(lines[i - 1].as_bytes()));
        assert_eq!(v["kind"], "round_end");
    }
    assert_eq!(read_all(&p).unwrap().len(), 4);
}

#[test]
fn reopening_reads_the_head_from_the_last_line_and_appends_continue_the_chain() {
    let (_d, p) = ledger(3);
    let mut l = Ledger::open(&p).unwrap();
    let data = std::fs::read_to_string(&p).unwrap();
    assert_eq!(l.head().seq, 3);
    assert_eq!(
        l.head().hash,
        sha256_hex(data.lines().last().unwrap().as_bytes())
    );
    l.append(round_end(3)).unwrap();
    assert_eq!(read_all(&p).unwrap().len(), 4);
}

#[test]
fn the_last_line_is_found_in_a_log_longer_than_one_read_chunk() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = created();
    c.setup.scenario = "x".repeat(10_000);
    let mut l = Ledger::create(dir.path(), c).unwrap();
    l.append(round_end(1)).unwrap();
    let p = dir.path().join(LOG_FILE);
    let (n, bytes) = read_last_line(&p).unwrap();
    assert_eq!(n, 2);
    assert!(bytes.starts_with(b"{\"seq\":2"));
    // A log with only its (long) first line.
    let dir2 = tempfile::tempdir().unwrap();
    let mut c = created();
    c.setup.scenario = "y".repeat(10_000);
    Ledger::create(dir2.path(), c).unwrap();
    assert_eq!(
        Ledger::open(&dir2.path().join(LOG_FILE))
            .unwrap()
            .head()
            .seq,
        1
    );
}

#[test]
fn a_torn_last_line_is_reported_clearly() {
    let (_d, p) = ledger(3);
    let mut data = std::fs::read(&p).unwrap();
    data.truncate(data.len() - 10); // a crash in the middle of writing line 3
    std::fs::write(&p, &data).unwrap();
    let e = Ledger::open(&p).unwrap_err().to_string();
    assert!(e.starts_with("log.jsonl line 3 is torn"), "{e}");
    assert!(e.contains("remove that partial last line"), "{e}");
    let e = read_all(&p).unwrap_err().to_string();
    assert!(e.starts_with("log.jsonl line 3 is torn"), "{e}");
}

#[test]
fn a_flipped_byte_is_detected_naming_the_line() {
    let (_d, p) = ledger(20);
    let data = std::fs::read(&p).unwrap();
    // Flip one digit inside line 16's key: still valid JSON, so the next line's prev catches it.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(
            data.iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .collect();
    let line16 = &data[starts[15]..starts[16]];
    let off = starts[15] + line16.windows(7).position(|w| w == b"\"key\":\"").unwrap() + 8;
    let mut bad = data.clone();
    bad[off] = if bad[off] == b'0' { b'1' } else { b'0' };
    std::fs::write(&p, &bad).unwrap();
    let e = read_all(&p).unwrap_err().to_string();
    assert_eq!(e, "log.jsonl line 17: prev hash does not match line 16");
}

#[test]
fn a_damaged_line_that_is_not_json_is_named() {
    let (_d, p) = ledger(5);
    let mut data = std::fs::read(&p).unwrap();
    let second_nl = data
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(1)
        .unwrap()
        .0;
    data[second_nl + 1] = b'X'; // line 3 loses its opening brace
    std::fs::write(&p, &data).unwrap();
    let e = read_all(&p).unwrap_err().to_string();
    assert!(
        e.starts_with("log.jsonl line 3: not a valid ledger entry"),
        "{e}"
    );
}

#[test]
fn removed_lines_are_detected() {
    let (_d, p) = ledger(5);
    let data = std::fs::read_to_string(&p).unwrap();
    let kept: Vec<&str> = data
        .lines()
        .enumerate()
        .filter(|(i, _)| *i != 2)
        .map(|(_, l)| l)
        .collect();
    std::fs::write(&p, kept.join("\n") + "\n").unwrap();
    let e = read_all(&p).unwrap_err().to_string();
    assert!(
        e.starts_with("log.jsonl line 3: seq is 4 but this is line 3"),
        "{e}"
    );
}

#[test]
fn a_game_id_cannot_be_created_twice() {
    let (d, _p) = ledger(1);
    assert!(matches!(
        Ledger::create(d.path(), created()),
        Err(LedgerError::Exists(_))
    ));
}

#[test]
fn the_state_digest_is_the_sha256_of_canonical_json() {
    let mut m = BTreeMap::new();
    m.insert("b", 2);
    m.insert("a", 1);
    assert_eq!(state_digest(&m), sha256_hex(br#"{"a":1,"b":2}"#));
}
