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

// Crash found by `canonical` (fuzz/artifacts/canonical/crash-17486b72…): a BOM after a leading
// blank line survived the first canonicalisation and was removed by the second, so the text a
// player signed and the text the verifier re-canonicalised could differ.
#[test]
fn canonical_bom_after_leading_blank_line_is_removed_once() {
    let input = b"\n\xef\xbb\xbfs\nseseq\nreq\nreport\n";
    targets::canonical(input);
    let text = std::str::from_utf8(input).expect("utf-8");
    assert_eq!(
        dustmail::crypto::canonical_text(text),
        "s\nseseq\nreq\nreport"
    );
}
