//! The text form of a player's public key (DESIGN §4: `ed25519:<base64>`), checked wherever a
//! key is registered: by `new --player`, and by a `replace-key` control replayed from a ledger.

use base64::Engine;
use ed25519_dalek::VerifyingKey;

/// Prefix of a public key's text form.
pub const PUBLIC_KEY_PREFIX: &str = "ed25519:";

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// Parses `ed25519:<base64>`, with an error that says what a key looks like.
pub fn parse_public_key(text: &str) -> Result<VerifyingKey, KeyError> {
    let what = "a public key looks like `ed25519:` followed by 44 base64 characters, e.g. \
                `ed25519:iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=` (the last line \
                `dustmail keygen` prints)";
    let shown: String = text.chars().take(60).collect();
    let t = text.trim();
    let Some(b64) = t.strip_prefix(PUBLIC_KEY_PREFIX) else {
        return Err(KeyError(format!(
            "`{shown}` is not a public key (it must start with `ed25519:`): {what}"
        )));
    };
    let bytes = decode_32(b64)
        .map_err(|e| KeyError(format!("`{shown}` is not a public key: {e}; {what}")))?;
    let key = VerifyingKey::from_bytes(&bytes).map_err(|_| {
        KeyError(format!(
            "`{shown}` is not a valid ed25519 public key (the 32 bytes are not a curve point); \
             {what}"
        ))
    })?;
    // A small-order key (the identity among them) verifies signatures anybody can forge, and a
    // non-canonical encoding lets two texts name one key: neither may be registered.
    if key.is_weak() {
        return Err(KeyError(format!(
            "`{shown}` is a weak ed25519 public key (a point of small order, such as the \
             identity): signatures under it can be forged by anyone; make a real key with \
             `dustmail keygen --out KEYFILE`; {what}"
        )));
    }
    if key.to_edwards().compress().to_bytes() != bytes {
        return Err(KeyError(format!(
            "`{shown}` is not the canonical encoding of its ed25519 point (the same key has \
             another, canonical spelling); give the key exactly as `dustmail keygen` prints \
             it; {what}"
        )));
    }
    Ok(key)
}

pub(crate) fn decode_32(b64: &str) -> Result<[u8; 32], String> {
    let bytes = B64
        .decode(b64)
        .map_err(|e| format!("the base64 part is malformed ({e})"))?;
    <[u8; 32]>::try_from(bytes.as_slice())
        .map_err(|_| format!("the key has {} bytes instead of 32", bytes.len()))
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(pub String);
