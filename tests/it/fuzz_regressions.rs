//! Replays the fuzz corpora (fuzz/corpus/<target>/) and every crashing input the fuzzers found
//! through the same checks the fuzz targets run (fuzz/src/lib.rs), so `cargo test` keeps them
//! exercised without cargo-fuzz. See docs/fuzzing.md.

#[path = "../../fuzz/src/lib.rs"]
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

#[test]
fn corpus_ledger_replays_without_panic() {
    replay("ledger", targets::ledger);
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

// Found while fuzzing `mail` (reading the entity decoder the target drives, then reproduced with
// the fuzz binary): when byte 12 after a `&` fell inside a character, the decoder searched the
// whole rest of the body for `;`, so `&` followed by accented text was quadratic (0.9 MB of
// HTML took 2.8 s in a release build; this 3.9 MB body took minutes). Now linear.
#[test]
fn html_ampersands_before_accented_text_stay_linear() {
    let html = format!("<p>{}</p>", "&éééééé".repeat(300_000));
    let start = std::time::Instant::now();
    let text = dustmail::mail::html_to_text(&html);
    let took = start.elapsed();
    assert!(took < std::time::Duration::from_secs(20), "took {took:?}");
    assert_eq!(text.matches('&').count(), 300_000);
    // Entities within reach still decode.
    assert_eq!(
        dustmail::mail::html_to_text("&amp;é&lt;&#233;&#xe9;"),
        "&é<éé"
    );
}
