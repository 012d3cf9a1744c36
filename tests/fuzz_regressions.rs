//! Replays the fuzz corpora (fuzz/corpus/<target>/) and every crashing input the fuzzers found
//! through the same checks the fuzz targets run (fuzz/src/lib.rs), so `cargo test` keeps them
//! exercised without cargo-fuzz. See docs/fuzzing.md.

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod targets;

use std::path::Path;

/// Runs `check` on every file of fuzz/corpus/<target>; fails if the corpus is missing or empty
/// (a renamed directory must not silently turn the replay into a no-op).
fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    assert!(!entries.is_empty(), "{} holds no inputs", dir.display());
    for path in entries {
        let data = std::fs::read(&path).expect("read corpus file");
        check(&data);
    }
}

#[test]
fn corpus_mail_replays_without_panic() {
    replay("mail", targets::mail);
}

#[test]
fn corpus_orders_replays_without_panic() {
    replay("orders", targets::orders);
}

#[test]
fn corpus_card_replays_without_panic() {
    replay("card", targets::card);
}

#[test]
fn corpus_scenario_replays_without_panic() {
    replay("scenario", targets::scenario);
}

#[test]
fn corpus_canonical_replays_without_panic() {
    replay("canonical", targets::canonical);
}
