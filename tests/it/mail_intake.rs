//! DESIGN §4 intake: finding signed blocks in real-world mail shapes (tests/mails/*.eml, see
//! tests/mails/README.md), the no-reply rules, limits, and the `game:`/`side:`/`seq:` header.

use dustmail::crypto::{sign_block, verify};
use dustmail::mail::{parse_body, parse_mail, Incoming, MAX_BLOCKS};
use ed25519_dalek::SigningKey;
use proptest::prelude::*;

const OWN: &str = "referee@dust.example";
const LIMIT: usize = 1 << 20;

fn key(side: &str) -> SigningKey {
    match side {
        "red" => SigningKey::from_bytes(&[1u8; 32]),
        "blue" => SigningKey::from_bytes(&[2u8; 32]),
        other => panic!("no test key for side {other}"),
    }
}

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/mails/{name}.eml", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn parse(name: &str) -> Incoming {
    parse_mail(&fixture(name), OWN, LIMIT).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every block verifies with the key of the side it names; returns (side, seq) per block.
fn verified(m: &Incoming) -> Vec<(String, u64)> {
    m.blocks
        .iter()
        .map(|b| {
            let body = parse_body(&b.canonical).unwrap();
            assert_eq!(body.game, "g-test");
            verify(
                &key(&body.side).verifying_key(),
                &b.canonical,
                &b.signature_b64,
            )
            .unwrap_or_else(|e| panic!("block of {}: {e}\n{}", body.side, b.canonical));
            (body.side, body.seq)
        })
        .collect()
}

fn one_red_block(name: &str) -> Incoming {
    let m = parse(name);
    assert_eq!(verified(&m), vec![("red".to_string(), 1)], "{name}");
    assert!(m.problems.is_empty(), "{name}: {:?}", m.problems);
    m
}

#[test]
fn plain_text_block_is_found_and_verifies() {
    let m = one_red_block("plain");
    assert_eq!(m.reply_to.as_deref(), Some("red@example.org"));
    assert_eq!(m.subject, "orders (plain)");
    assert_eq!(m.message_id.as_deref(), Some("plain@example.org"));
    assert_eq!(m.no_reply, None);
    let body = parse_body(&m.blocks[0].canonical).unwrap();
    assert_eq!(body.lines.len(), 2);
    assert_eq!(
        (body.lines[0].number, body.lines[0].text.as_str()),
        (5, "activate R1")
    );
    assert_eq!(
        (body.lines[1].number, body.lines[1].text.as_str()),
        (6, "  move C3")
    );
}

#[test]
fn byte_order_marks_in_body_and_txt_attachment_are_ignored() {
    let m = parse("bom");
    assert_eq!(
        verified(&m),
        vec![("red".to_string(), 1), ("blue".to_string(), 1)]
    );
}

#[test]
fn crlf_mail_verifies() {
    one_red_block("crlf");
}

#[test]
fn quoted_printable_with_soft_breaks_verifies() {
    let m = one_red_block("qp");
    assert!(m.blocks[0].canonical.contains("x=1, y=2"));
}

#[test]
fn base64_body_verifies() {
    one_red_block("base64");
}

#[test]
fn latin1_body_with_accents_verifies() {
    let m = one_red_block("latin1");
    assert!(m.blocks[0].canonical.contains("à gauche, très"));
}

#[test]
fn utf16_text_attachment_verifies() {
    one_red_block("utf16-attachment");
}

#[test]
fn html_only_body_with_divs_and_nbsp_verifies() {
    one_red_block("html-only");
}

#[test]
fn html_pre_block_verifies_and_blockquoted_block_is_ignored() {
    one_red_block("html-pre");
}

#[test]
fn multipart_alternative_gives_the_block_once() {
    one_red_block("alternative");
}

#[test]
fn octet_stream_asc_attachment_verifies_and_images_are_skipped() {
    one_red_block("attachment");
}

#[test]
fn quoted_reply_keeps_only_the_fresh_block() {
    let m = parse("quoted-reply");
    assert_eq!(verified(&m), vec![("red".to_string(), 2)]);
}

#[test]
fn two_blocks_in_order() {
    let m = parse("two-blocks");
    assert_eq!(
        verified(&m),
        vec![("red".to_string(), 1), ("blue".to_string(), 1)]
    );
}

#[test]
fn bounce_is_never_answered() {
    let m = parse("bounce");
    let why = m.no_reply.expect("a bounce must not be answered");
    assert!(why.contains("bounce"), "{why}");
}

#[test]
fn auto_submitted_is_never_answered() {
    let m = parse("auto-submitted");
    assert!(m.no_reply.unwrap().contains("auto-replied"));
    assert!(m.blocks.is_empty());
}

#[test]
fn broken_mime_does_not_panic_and_yields_no_verified_block() {
    match parse_mail(&fixture("broken-mime"), OWN, LIMIT) {
        Ok(m) => assert!(m.blocks.is_empty(), "{:?}", m.blocks),
        Err(e) => assert!(!e.0.is_empty()),
    }
}

fn mail(headers: &str, body: &str) -> Vec<u8> {
    let subject = if headers.contains("Subject:") {
        ""
    } else {
        "Subject: t\n"
    };
    format!("{headers}{subject}Content-Type: text/plain\n\n{body}").into_bytes()
}

fn red_block(seq: u64) -> String {
    sign_block(
        &key("red"),
        &format!("game: g-test\nside: red\nseq: {seq}\n\nnothing"),
    )
}

#[test]
fn oversized_mail_is_refused_naming_the_limit() {
    let mut raw = mail("From: red@example.org\n", &red_block(1));
    raw.extend(std::iter::repeat_n(b'x', 50 * 1024 * 1024));
    let e = parse_mail(&raw, OWN, 10 * 1024 * 1024).unwrap_err();
    assert!(e.0.contains("limit of 10485760 bytes"), "{e}");
}

#[test]
fn more_than_twenty_blocks_are_refused_naming_the_limit() {
    let body: String = (1..=21).map(red_block).collect::<Vec<_>>().join("\n");
    let e = parse_mail(&mail("From: red@example.org\n", &body), OWN, LIMIT).unwrap_err();
    assert!(e.0.contains(&format!("limit of {MAX_BLOCKS}")), "{e}");
    // Thousands of blocks are refused the same way.
    let body: String = (1..=2000).map(red_block).collect::<Vec<_>>().join("\n");
    let e = parse_mail(&mail("From: red@example.org\n", &body), OWN, 10 * LIMIT).unwrap_err();
    assert!(e.0.contains(&format!("more than {MAX_BLOCKS}")), "{e}");
    let body: String = (1..=20).map(red_block).collect::<Vec<_>>().join("\n");
    let m = parse_mail(&mail("From: red@example.org\n", &body), OWN, LIMIT).unwrap();
    assert_eq!(m.blocks.len(), 20);
}

#[test]
fn reply_to_wins_over_from() {
    let raw = mail(
        "From: red@example.org\nReply-To: Red <games@red.example>\n",
        "hi",
    );
    let m = parse_mail(&raw, OWN, LIMIT).unwrap();
    assert_eq!(m.reply_to.as_deref(), Some("games@red.example"));
}

#[test]
fn header_injection_gives_no_reply_address() {
    // Encoded words hiding CR LF and a Bcc header, in Reply-To and in From's display name.
    for headers in [
        "From: red@example.org\nReply-To: =?utf-8?q?a@b.example=0D=0ABcc:_victim@x.example?=\n",
        "From: red@example.org\nReply-To: =?utf-8?q?Red=0D=0ABcc:_v@x.example?= <red@example.org>\n",
        "From: =?utf-8?q?Red=0D=0ABcc:_victim@x.example?= <red@example.org>\n",
        "From: red@example.org\nReply-To: <>\n",
    ] {
        let m = parse_mail(&mail(headers, "hi"), OWN, LIMIT).unwrap();
        assert_eq!(m.reply_to, None, "{headers}");
    }
    let raw = mail(
        "From: red@example.org\nSubject: =?utf-8?q?hi=0D=0ABcc:_v@x.example?=\n",
        "hi",
    );
    let m = parse_mail(&raw, OWN, LIMIT).unwrap();
    assert_eq!(m.subject, "hi  Bcc: v@x.example");
    assert_eq!(m.reply_to.as_deref(), Some("red@example.org"));
}

#[test]
fn mail_from_own_address_is_not_answered_case_insensitively() {
    let raw = mail("From: Referee@DUST.example\n", "hi");
    let m = parse_mail(&raw, OWN, LIMIT).unwrap();
    assert!(m.no_reply.unwrap().contains("own address"));
}

#[test]
fn precedence_bulk_and_postmaster_are_not_answered() {
    for h in [
        "From: red@example.org\nPrecedence: bulk\n",
        "From: red@example.org\nPrecedence: list\n",
        "From: postmaster@example.org\n",
        "From: red@example.org\nReturn-Path: <>\n",
    ] {
        let m = parse_mail(&mail(h, "hi"), OWN, LIMIT).unwrap();
        assert!(m.no_reply.is_some(), "{h}");
    }
    let m = parse_mail(
        &mail(
            "From: red@example.org\nAuto-Submitted: no\nPrecedence: first-class\n",
            "hi",
        ),
        OWN,
        LIMIT,
    )
    .unwrap();
    assert_eq!(m.no_reply, None);
}

#[test]
fn sha256_is_of_the_raw_bytes() {
    let raw = fixture("plain");
    let m = parse_mail(&raw, OWN, LIMIT).unwrap();
    use sha2::Digest;
    assert_eq!(m.sha256, hex::encode(sha2::Sha256::digest(&raw)));
}

#[test]
fn unsigned_and_truncated_blocks_are_reported_as_problems() {
    let unsigned = "-----BEGIN DUSTMAIL ORDERS-----\ngame: g\nside: red\nseq: 1\n\
                    -----END DUSTMAIL ORDERS-----\n\nthanks\n";
    let m = parse_mail(&mail("From: red@example.org\n", unsigned), OWN, LIMIT).unwrap();
    assert!(m.blocks.is_empty());
    assert!(m.problems[0].contains("dustmail sign"), "{:?}", m.problems);

    let truncated = red_block(1);
    let truncated = &truncated[..truncated.find("-----END DUSTMAIL SIG").unwrap()];
    let m = parse_mail(&mail("From: red@example.org\n", truncated), OWN, LIMIT).unwrap();
    assert!(m.blocks.is_empty());
    assert_eq!(m.problems.len(), 1, "{:?}", m.problems);
}

#[test]
fn indented_markers_and_a_wrapped_signature_still_verify() {
    // Mail clients indent or pad marker lines and wrap the long base64 line; the signed lines
    // themselves are left alone.
    let b = red_block(3);
    let mut out = Vec::new();
    let mut in_orders = false;
    for l in b.lines() {
        if l.starts_with("-----BEGIN DUSTMAIL ORDERS") {
            in_orders = true;
        } else if l.starts_with("-----END DUSTMAIL ORDERS") {
            in_orders = false;
        }
        if in_orders && !l.starts_with("-----") {
            out.push(l.to_string());
        } else if l.len() == 88 {
            out.push(format!(" {}", &l[..50]));
            out.push(format!("{}  ", &l[50..]));
        } else {
            out.push(format!("   {l}  "));
        }
    }
    out.insert(out.len() - 3, String::new()); // a blank line between the two blocks
    let m = parse_mail(
        &mail("From: red@example.org\n", &out.join("\r\n")),
        OWN,
        LIMIT,
    )
    .unwrap();
    assert_eq!(m.blocks.len(), 1, "{}", out.join("\n"));
    verify(
        &key("red").verifying_key(),
        &m.blocks[0].canonical,
        &m.blocks[0].signature_b64,
    )
    .unwrap();
}

// ---- parse_body ----

#[test]
fn body_header_any_order_case_insensitive_blank_line_optional() {
    let b = parse_body("SEQ: 7\nSide: blue\ngame: g-1\nactivate B1\n  nothing").unwrap();
    assert_eq!(
        (b.game.as_str(), b.side.as_str(), b.seq),
        ("g-1", "blue", 7)
    );
    assert_eq!(b.lines.len(), 2);
    assert_eq!(b.lines[0].number, 4);
}

#[test]
fn body_command_lines_are_numbered_as_signed_lines() {
    let b = parse_body("game: g\nside: red\nseq: 1\n\n# plan\nfirst red\n\nactivate R1\n  nothing")
        .unwrap();
    let nums: Vec<usize> = b.lines.iter().map(|l| l.number).collect();
    assert_eq!(nums, vec![6, 8, 9]);
}

#[test]
fn body_errors_name_the_line_and_what_to_write() {
    let e = parse_body("game: g\nside: red\nseq: 0\nnothing").unwrap_err();
    assert!(e.0.contains("line 3") && e.0.contains("seq: 4"), "{e}");
    let e = parse_body("game: g\nside: red\nseq: two\nnothing").unwrap_err();
    assert!(
        e.0.contains("line 3") && e.0.contains("positive whole number"),
        "{e}"
    );
    let e = parse_body("game: g\nside: red\ngame: h\nseq: 1").unwrap_err();
    assert!(
        e.0.contains("line 3") && e.0.contains("first on line 1"),
        "{e}"
    );
    let e = parse_body("game: g\nside: red\n\nactivate R1").unwrap_err();
    assert!(e.0.contains("`seq:`") && e.0.contains("line 4"), "{e}");
    let e = parse_body("game:\nside: red\nseq: 1").unwrap_err();
    assert!(e.0.contains("line 1") && e.0.contains("game: g-"), "{e}");
    let e = parse_body("").unwrap_err();
    assert!(e.0.contains("`game:`, `side:`, `seq:`"), "{e}");
}

/// Pieces of MIME structure, encodings, HTML and our markers, for mail-shaped fuzz input.
const TOKENS: &[&str] = &[
    "From: red@example.org\n",
    "Reply-To: =?utf-8?q?a=0D=0Ab?= <x@y>\n",
    "Return-Path: <>\n",
    "Auto-Submitted: auto-generated\n",
    "Content-Type: multipart/mixed; boundary=b\n",
    "Content-Type: multipart/alternative; boundary=\"b\"\n",
    "Content-Type: text/html; charset=utf-16\n",
    "Content-Type: text/plain; charset=iso-8859-1\n",
    "Content-Type: message/rfc822\n",
    "Content-Disposition: attachment; filename=\"o.asc\"\n",
    "Content-Transfer-Encoding: base64\n",
    "Content-Transfer-Encoding: quoted-printable\n",
    "\n",
    "\r\n",
    "--b\n",
    "--b--\n",
    "-----BEGIN DUSTMAIL ORDERS-----\n",
    "-----END DUSTMAIL ORDERS-----\n",
    "-----BEGIN DUSTMAIL SIGNATURE-----\n",
    "-----END DUSTMAIL SIGNATURE-----\n",
    "game: g\nside: red\nseq: 1\n",
    "> ",
    "=\n",
    "=C3=A9",
    "=?utf-8?b?",
    "?=",
    "/w==",
    "<div>",
    "</div>",
    "<pre>",
    "<blockquote>",
    "</blockquote>",
    "<!--",
    "&#x1F600;",
    "&#99999999999;",
    "&nbsp;",
    "\u{feff}",
    "é",
    "x",
];

// A token soup proptest found (mail-parser 0.11.9 subtracted below zero in its quoted-printable
// decoder at a boundary after a bare `-`): the mail is parsed or refused, never a panic.
#[test]
fn a_quoted_printable_part_ending_at_a_boundary_after_a_dash_is_no_panic() {
    let raw: String = [0, 0, 4, 12, 14, 23, 0, 11, 12, 22, 14]
        .iter()
        .map(|&t| TOKENS[t])
        .collect();
    let _ = parse_mail(raw.as_bytes(), OWN, LIMIT);
}

proptest! {
    // 256 cases by default; `PROPTEST_CASES=50000` for a longer run.
    #[test]
    fn arbitrary_bytes_never_panic(raw in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = parse_mail(&raw, OWN, LIMIT);
    }

    #[test]
    fn mutated_fixtures_never_panic(idx in 0usize..4, cuts in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8)) {
        let names = ["plain", "html-only", "utf16-attachment", "alternative"];
        let mut raw = fixture(names[idx]);
        for (pos, byte) in cuts {
            if !raw.is_empty() {
                let p = pos % raw.len();
                raw[p] = byte;
            }
        }
        let _ = parse_mail(&raw, OWN, LIMIT);
    }

    #[test]
    fn mail_shaped_token_soup_never_panics(tokens in proptest::collection::vec(0usize..TOKENS.len(), 0..80)) {
        let raw: String = tokens.iter().map(|&t| TOKENS[t]).collect();
        let _ = parse_mail(raw.as_bytes(), OWN, LIMIT);
    }

    #[test]
    fn arbitrary_text_into_parse_body_never_panics(s in "\\PC{0,300}") {
        let _ = parse_body(&s);
    }
}
