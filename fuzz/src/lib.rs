//! The checks each fuzz target runs on one input. Kept free of libfuzzer so that
//! tests/it/fuzz_regressions.rs can include this file (`#[path]`) and replay the committed corpus
//! and every crash found through the same code under `cargo test`.
//!
//! Each function must return normally for every input: a panic, hang or abort is a bug in the
//! parser it drives.

use dustmail::crypto::canonical_text;
use dustmail::dust_tactics::model::Board;
use dustmail::dust_tactics::{cards, orders, scenario};
use dustmail::game::Line;
use dustmail::mail;

/// The address the fuzzed mails are delivered to (only used for the no-reply check).
const REFEREE: &str = "referee@example.org";
/// parse_mail's size limit; larger than any -max_len we fuzz with, so the parser is reached.
const MAX_MAIL_BYTES: usize = 1 << 20;

/// The board orders are parsed against: the 9×9 box board.
fn board() -> Board {
    match Board::open(9, 9) {
        Ok(b) => b,
        Err(e) => panic!("a 9×9 board must be valid: {e}"),
    }
}

/// Raw mail bytes → parse_mail → parse_body of each block → orders::parse.
pub fn mail(data: &[u8]) {
    let Ok(incoming) = mail::parse_mail(data, REFEREE, MAX_MAIL_BYTES) else {
        return;
    };
    // Promises parse_mail makes to the rest of the referee (doc comments on `Incoming`).
    assert!(
        incoming.blocks.len() <= mail::MAX_BLOCKS,
        "too many blocks kept"
    );
    if let Some(to) = &incoming.reply_to {
        assert!(
            !to.contains(['\r', '\n']),
            "reply address carries CR/LF: {to:?}"
        );
    }
    assert!(
        !incoming.subject.chars().any(char::is_control),
        "subject keeps control characters: {:?}",
        incoming.subject
    );
    let board = board();
    for block in &incoming.blocks {
        // The signed text handed on must already be canonical, or signatures would not match.
        assert_eq!(
            canonical_text(&block.canonical),
            block.canonical,
            "block text is not canonical"
        );
        if let Ok(body) = mail::parse_body(&block.canonical) {
            let _ = orders::parse(&body.lines, &board);
        }
    }
}

/// UTF-8 text → numbered lines → orders::parse on a 9×9 board.
pub fn orders(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines: Vec<Line> = text
        .split('\n')
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.to_string(),
        })
        .collect();
    let _ = orders::parse(&lines, &board());
}

/// Text → cards::parse_card, under a fixed file name and under the name its `id` asks for (the
/// id check comes first, so only the second reaches the rest of the validation).
pub fn card(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = cards::parse_card("fuzz.toml", text);
    let id = text
        .parse::<toml::Table>()
        .ok()
        .and_then(|t| t.get("id").and_then(|v| v.as_str().map(str::to_string)));
    if let Some(id) = id {
        let _ = cards::parse_card(&format!("{id}.toml"), text);
    }
}

/// Text → scenario::parse.
pub fn scenario(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = scenario::parse("fuzz", text);
}

/// Text → canonical_text, which must be idempotent: a canonical text signs to the same bytes
/// when it is canonicalised again (by the verifier, or after being pasted back into a mail).
pub fn canonical(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let once = canonical_text(text);
    let twice = canonical_text(&once);
    assert_eq!(twice, once, "canonical_text is not idempotent on {text:?}");
}

/// A published ledger's bytes → the whole audit (`dustmail audit`): hash chain, signatures,
/// revealed keys, every recorded die and state digest. Any answer is fine; a panic is not.
pub fn ledger(data: &[u8]) {
    use dustmail::dust_tactics::DustTactics;
    use dustmail::referee::{replay_bytes, DiceMode, Edges};
    let _ = replay_bytes(
        &DustTactics,
        &Edges::real(),
        "log.jsonl",
        data,
        DiceMode::Recorded,
    );
}
