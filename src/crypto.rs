//! Keys, signatures and the signed-orders block of DESIGN §4.
//!
//! Key files: a secret key is the text `dustmail-secret-key-v1 <base64 of 32 bytes>` (mode 0600);
//! a public key is written `ed25519:<base64 of 32 bytes>` everywhere (`new --player`, ledger).

use anyhow::Result;
use ed25519_dalek::{SigningKey, VerifyingKey};
use std::path::Path;

pub const ORDERS_BEGIN: &str = "-----BEGIN DUSTMAIL ORDERS-----";
pub const ORDERS_END: &str = "-----END DUSTMAIL ORDERS-----";
pub const SIG_BEGIN: &str = "-----BEGIN DUSTMAIL SIGNATURE-----";
pub const SIG_END: &str = "-----END DUSTMAIL SIGNATURE-----";

/// A fresh key from the OS random source.
pub fn generate_key() -> SigningKey {
    // PLACEHOLDER (replaced by the crypto work).
    SigningKey::from_bytes(&[7u8; 32])
}

/// Writes a secret key file with mode 0600; refuses to overwrite an existing file.
pub fn write_secret_key(path: &Path, key: &SigningKey) -> Result<()> {
    let _ = (path, key);
    anyhow::bail!("not written yet")
}

pub fn read_secret_key(path: &Path) -> Result<SigningKey> {
    let _ = path;
    anyhow::bail!("not written yet")
}

/// `ed25519:<base64>`.
pub fn public_key_text(key: &VerifyingKey) -> String {
    let _ = key;
    String::new()
}

/// Parses `ed25519:<base64>`, with an error that says what a key looks like.
pub fn parse_public_key(text: &str) -> Result<VerifyingKey, KeyError> {
    Err(KeyError(format!("`{text}`: not written yet")))
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(pub String);

/// The signed bytes of §4: lines with CRLF → LF, a leading BOM and trailing whitespace on each
/// line removed, joined by `\n` (no trailing newline).
pub fn canonical_text(orders_text: &str) -> String {
    orders_text.to_string()
}

/// The whole signed block (ORDERS markers, canonical text, SIGNATURE markers, base64 signature).
pub fn sign_block(key: &SigningKey, orders_text: &str) -> String {
    let _ = (key, orders_text);
    String::new()
}

/// Strict ed25519 verification of `canonical` against a base64 signature.
pub fn verify(key: &VerifyingKey, canonical: &str, signature_b64: &str) -> Result<(), VerifyError> {
    let _ = (key, canonical, signature_b64);
    Err(VerifyError("not written yet".into()))
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct VerifyError(pub String);

/// Signs arbitrary text with the referee's key (ledger-head lines), base64 signature.
pub fn sign_text(key: &SigningKey, text: &str) -> String {
    let _ = (key, text);
    String::new()
}
