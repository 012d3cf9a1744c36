//! DESIGN §4: keys, canonical text, signed blocks and strict verification.

use dustmail::crypto::*;
use ed25519_dalek::SigningKey;

fn red() -> SigningKey {
    SigningKey::from_bytes(&[1u8; 32])
}
fn blue() -> SigningKey {
    SigningKey::from_bytes(&[2u8; 32])
}

const ORDERS: &str = "game: g-1\nside: red\nseq: 1\n\nactivate R1\n  move C3\n  attack mg at B4";

/// The base64 signature line of a block printed by `sign_block`.
fn sig_of(block: &str) -> String {
    let lines: Vec<&str> = block.lines().collect();
    let i = lines.iter().position(|l| *l == SIG_BEGIN).unwrap();
    lines[i + 1].to_string()
}

#[test]
fn sign_block_has_the_layout_of_design_4() {
    let block = sign_block(&red(), ORDERS);
    let lines: Vec<&str> = block.lines().collect();
    assert_eq!(lines[0], ORDERS_BEGIN);
    assert_eq!(lines[1..8].join("\n"), ORDERS);
    assert_eq!(lines[8], ORDERS_END);
    assert_eq!(lines[9], SIG_BEGIN);
    assert_eq!(lines[10].len(), 88, "64 bytes in base64");
    assert_eq!(lines[11], SIG_END);
    assert_eq!(lines.len(), 12);
    assert!(block.ends_with('\n'));
}

#[test]
fn round_trip_verifies() {
    let block = sign_block(&red(), ORDERS);
    verify(&red().verifying_key(), ORDERS, &sig_of(&block)).unwrap();
}

#[test]
fn signing_is_deterministic() {
    assert_eq!(sign_block(&red(), ORDERS), sign_block(&red(), ORDERS));
}

#[test]
fn a_changed_byte_fails() {
    let sig = sig_of(&sign_block(&red(), ORDERS));
    let changed = ORDERS.replace("C3", "C4");
    let err = verify(&red().verifying_key(), &changed, &sig).unwrap_err();
    assert!(err.0.contains("does not match"), "{err}");
}

#[test]
fn a_flipped_signature_byte_fails() {
    let block = sign_block(&red(), ORDERS);
    let sig = sig_of(&block);
    let mut raw = base64::Engine::decode(&base64::engine::general_purpose::STANDARD, &sig).unwrap();
    raw[10] ^= 0x01;
    let flipped = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, raw);
    assert!(verify(&red().verifying_key(), ORDERS, &flipped).is_err());
}

#[test]
fn another_players_key_fails() {
    let sig = sig_of(&sign_block(&red(), ORDERS));
    assert!(verify(&blue().verifying_key(), ORDERS, &sig).is_err());
}

#[test]
fn crlf_trailing_spaces_and_bom_variants_verify() {
    let sig = sig_of(&sign_block(&red(), ORDERS));
    let vk = red().verifying_key();
    let crlf = ORDERS.replace('\n', "\r\n");
    let spaces = ORDERS.replace('\n', "  \t\n");
    let bom = format!("\u{feff}{ORDERS}");
    let padded = format!("\n\n{ORDERS}\n\n");
    for variant in [&crlf, &spaces, &bom, &padded] {
        assert_eq!(canonical_text(variant), ORDERS);
        verify(&vk, variant, &sig).unwrap();
    }
    // The signature itself may arrive wrapped or padded by a mail client.
    let wrapped = format!("  {}\r\n{}  ", &sig[..40], &sig[40..]);
    verify(&vk, ORDERS, &wrapped).unwrap();
}

#[test]
fn canonical_text_keeps_inner_blank_lines_and_leading_indentation() {
    assert_eq!(canonical_text("a\n\n  b  \r\n"), "a\n\n  b");
    assert_eq!(canonical_text("\u{feff}\r\n \r\n"), "");
    // Idempotent, so verifying an already canonical text changes nothing.
    let c = canonical_text("\u{feff}\u{feff}x \r\ny\t\n");
    assert_eq!(canonical_text(&c), c);
}

#[test]
fn sign_text_is_exact_bytes() {
    let sig = sign_text(&red(), "head 7 abc\n");
    verify_text(&red().verifying_key(), "head 7 abc\n", &sig).unwrap();
    assert!(verify_text(&red().verifying_key(), "head 7 abc", &sig).is_err());
}

#[test]
fn malformed_signatures_say_what_to_do() {
    let vk = red().verifying_key();
    let e = verify(&vk, ORDERS, "").unwrap_err();
    assert!(e.0.contains("missing"), "{e}");
    let e = verify(&vk, ORDERS, "not*base64").unwrap_err();
    assert!(e.0.contains("not valid base64"), "{e}");
    let e = verify(&vk, ORDERS, "AAAA").unwrap_err();
    assert!(e.0.contains("3 bytes instead of 64"), "{e}");
}

#[test]
fn public_key_text_round_trip() {
    let vk = red().verifying_key();
    let text = public_key_text(&vk);
    assert!(text.starts_with("ed25519:"));
    assert_eq!(text.len(), 8 + 44);
    assert_eq!(parse_public_key(&text).unwrap(), vk);
    assert_eq!(parse_public_key(&format!("  {text}\n")).unwrap(), vk);
}

#[test]
fn malformed_public_keys_say_what_a_key_looks_like() {
    let good = public_key_text(&red().verifying_key());
    let b64 = good.strip_prefix("ed25519:").unwrap();
    for bad in [
        b64.to_string(),            // no prefix
        "ed25519:@@@".to_string(),  // not base64
        "ed25519:AAAA".to_string(), // too short
        format!("rsa:{b64}"),       // wrong algorithm
        String::new(),
    ] {
        let e = parse_public_key(&bad).unwrap_err();
        assert!(
            e.0.contains("ed25519:` followed by 44 base64"),
            "{bad}: {e}"
        );
    }
    assert!(parse_public_key("ed25519:AAAA")
        .unwrap_err()
        .0
        .contains("3 bytes"));
}

#[test]
fn the_example_key_in_the_error_message_is_a_real_key() {
    let e = parse_public_key("x").unwrap_err();
    let example =
        e.0.split("e.g. `")
            .nth(1)
            .unwrap()
            .split('`')
            .next()
            .unwrap();
    parse_public_key(example).unwrap();
}

#[test]
fn generated_keys_differ() {
    assert_ne!(generate_key().to_bytes(), generate_key().to_bytes());
}

#[test]
fn secret_key_file_round_trip_mode_0600_and_no_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("red.key");
    write_secret_key(&path, &red()).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("dustmail-secret-key-v1 "));
    assert_eq!(read_secret_key(&path).unwrap().to_bytes(), red().to_bytes());

    let e = write_secret_key(&path, &blue()).unwrap_err();
    assert!(format!("{e:#}").contains("refusing to overwrite"), "{e:#}");
    // The original key is untouched.
    assert_eq!(read_secret_key(&path).unwrap().to_bytes(), red().to_bytes());
}

#[test]
fn missing_key_file_says_how_to_make_one() {
    let dir = tempfile::tempdir().unwrap();
    let e = read_secret_key(&dir.path().join("nope.key")).unwrap_err();
    assert!(format!("{e:#}").contains("dustmail keygen"), "{e:#}");
}

#[cfg(unix)]
#[test]
fn group_readable_key_file_is_refused_with_chmod_advice() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("red.key");
    write_secret_key(&path, &red()).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let e = read_secret_key(&path).unwrap_err();
    assert!(format!("{e:#}").contains("chmod 600"), "{e:#}");
}

#[test]
fn wrong_key_file_format_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pub.key");
    {
        use std::io::Write;
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
        let mut f = o.open(&path).unwrap();
        // Someone saved the public key where the secret key should be.
        writeln!(f, "{}", public_key_text(&red().verifying_key())).unwrap();
    }
    let e = read_secret_key(&path).unwrap_err();
    assert!(
        format!("{e:#}").contains("not a dustmail secret key"),
        "{e:#}"
    );
    let e = parse_secret_key("dustmail-secret-key-v1 AAAA").unwrap_err();
    assert!(e.0.contains("3 bytes instead of 32"), "{e}");
}
