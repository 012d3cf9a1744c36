//! The text form of a player's public key (DESIGN §4: `ed25519:<base64>`, or an OpenSSH
//! `ssh-ed25519 AAAA…` line), checked wherever a key is registered: by `new --player`, and by a
//! `replace-key` control replayed from a ledger.

use base64::Engine;
use ed25519_dalek::VerifyingKey;

/// Prefix of a public key's text form.
pub const PUBLIC_KEY_PREFIX: &str = "ed25519:";

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// Key type of an OpenSSH ed25519 public key line (`ssh-ed25519 AAAA… [comment]`).
pub const OPENSSH_ED25519: &str = "ssh-ed25519";

/// Whether a registered key text is an OpenSSH key (its player signs with `ssh-keygen -Y sign`).
pub fn is_openssh_key(text: &str) -> bool {
    text.trim_start().starts_with(OPENSSH_ED25519)
}

/// The form a key is stored in the ledger: an OpenSSH line loses its comment (often
/// `user@host`, and two comments must not make two keys of one); `ed25519:` keys stay as given,
/// so ledgers written before OpenSSH keys replay byte for byte.
pub fn registered_form(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        [OPENSSH_ED25519, b64, ..] => format!("{OPENSSH_ED25519} {b64}"),
        _ => text.to_string(),
    }
}

/// Whether two registered key texts name one key (an `ed25519:` and an `ssh-ed25519` text may).
pub fn same_key(a: &str, b: &str) -> bool {
    a == b || matches!((parse_public_key(a), parse_public_key(b)), (Ok(x), Ok(y)) if x == y)
}

/// The SSH wire encoding of an ed25519 public key: string "ssh-ed25519", string(32 bytes), as
/// in `.pub` files and in SSH signatures.
pub fn ssh_ed25519_blob(key: &VerifyingKey) -> Vec<u8> {
    let mut out = Vec::with_capacity(51);
    for part in [OPENSSH_ED25519.as_bytes(), key.as_bytes().as_slice()] {
        out.extend_from_slice(&(part.len() as u32).to_be_bytes());
        out.extend_from_slice(part);
    }
    out
}

/// Parses `ed25519:<base64>` or `ssh-ed25519 AAAA… [comment]`, with an error that says what a
/// key looks like.
pub fn parse_public_key(text: &str) -> Result<VerifyingKey, KeyError> {
    let what = "a public key looks like `ed25519:` followed by 44 base64 characters, e.g. \
                `ed25519:iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=` (the last line \
                `dustmail keygen` prints), or is the line of an OpenSSH ed25519 public key \
                file (`ssh-ed25519 AAAA…`, ~/.ssh/id_ed25519.pub)";
    let shown: String = text.chars().take(60).collect();
    let t = text.trim();
    let first = t.split_whitespace().next().unwrap_or("");
    let bytes = if first == OPENSSH_ED25519 {
        openssh_key_bytes(t)
            .map_err(|e| KeyError(format!("`{shown}` is not a public key: {e}; {what}")))?
    } else if let Some(kind) = other_openssh_type(first) {
        return Err(KeyError(format!(
            "`{shown}` is an OpenSSH {kind} key: dustmail takes ed25519 keys only; make one \
             with `ssh-keygen -t ed25519` and register the line of ~/.ssh/id_ed25519.pub \
             (it starts with `ssh-ed25519 AAAA`)"
        )));
    } else {
        let Some(b64) = t.strip_prefix(PUBLIC_KEY_PREFIX) else {
            return Err(KeyError(format!(
                "`{shown}` is not a public key (it must start with `ed25519:` or \
                 `ssh-ed25519 `): {what}"
            )));
        };
        decode_32(b64)
            .map_err(|e| KeyError(format!("`{shown}` is not a public key: {e}; {what}")))?
    };
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

/// The key types of OpenSSH public keys other than plain ed25519, named for the refusal.
fn other_openssh_type(first: &str) -> Option<&'static str> {
    let kinds = [
        ("ssh-ed25519-cert", "ed25519 certificate"),
        ("ssh-rsa", "RSA"),
        ("rsa-sha2", "RSA"),
        ("ssh-dss", "DSA"),
        ("ecdsa-sha2-", "ECDSA"),
        ("sk-", "security-key (FIDO)"),
        ("ssh-", "non-ed25519"),
    ];
    kinds
        .iter()
        .find(|(prefix, _)| first.starts_with(prefix))
        .map(|(_, kind)| *kind)
}

/// The 32 key bytes of `ssh-ed25519 <base64 of the wire blob> [comment]`.
fn openssh_key_bytes(line: &str) -> Result<[u8; 32], String> {
    let b64 = line
        .split_whitespace()
        .nth(1)
        .ok_or("the base64 part after `ssh-ed25519` is missing")?;
    let blob = B64
        .decode(b64)
        .map_err(|e| format!("the base64 part is malformed ({e})"))?;
    let key = blob
        .get(19..)
        .filter(|k| k.len() == 32 && blob.get(..19) == ssh_blob_head().get(..19))
        .ok_or("the base64 part is not an ssh-ed25519 key blob (copy the whole .pub line)")?;
    <[u8; 32]>::try_from(key).map_err(|_| "the key has not 32 bytes".to_string())
}

/// The first 19 bytes of every ssh-ed25519 key blob: string "ssh-ed25519", then the length 32.
fn ssh_blob_head() -> Vec<u8> {
    let mut head = Vec::with_capacity(19);
    head.extend_from_slice(&11u32.to_be_bytes());
    head.extend_from_slice(OPENSSH_ED25519.as_bytes());
    head.extend_from_slice(&32u32.to_be_bytes());
    head
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
