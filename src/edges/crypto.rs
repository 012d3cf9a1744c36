//! Keys, signatures and the signed-orders block of DESIGN §4.
//!
//! Key files: a secret key is the text `dustmail-secret-key-v1 <base64 of 32 bytes>` (mode 0600);
//! a public key is written `ed25519:<base64 of 32 bytes>` everywhere (`new --player`, ledger).
//!
//! Canonical text (what is signed), part of the contract auditors re-implement:
//! 1. every leading U+FEFF (byte order mark) is removed;
//! 2. the text is split into lines at `\n` (so CRLF becomes LF once step 3 drops the `\r`);
//! 3. trailing whitespace (Unicode `White_Space`, including `\r`) is removed from each line;
//! 4. empty lines at the start and at the end are dropped (mail clients add and remove blank lines
//!    next to the markers; a blank line *inside* the text is kept);
//! 5. the lines are joined by `\n`, with no trailing newline.
//!
//! Applying it twice gives the same text, so `verify` canonicalises again for safety.

use anyhow::{bail, Context, Result};
use base64::Engine;
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use std::io::Write;
use std::path::Path;

pub const ORDERS_BEGIN: &str = "-----BEGIN DUSTMAIL ORDERS-----";
pub const ORDERS_END: &str = "-----END DUSTMAIL ORDERS-----";
pub const SIG_BEGIN: &str = "-----BEGIN DUSTMAIL SIGNATURE-----";
pub const SIG_END: &str = "-----END DUSTMAIL SIGNATURE-----";

/// First word of a secret key file.
pub const SECRET_KEY_TAG: &str = "dustmail-secret-key-v1";
use crate::pbem::keys::decode_32;
/// The text form of public keys is the core's (`ed25519:<base64>`, src/pbem/keys.rs).
pub use crate::pbem::keys::{parse_public_key, KeyError, PUBLIC_KEY_PREFIX};

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// A fresh key from the OS random source. Panics only if the OS has no random source at all
/// (see [`try_generate_key`] for the fallible form).
pub fn generate_key() -> SigningKey {
    try_generate_key().expect("the operating system's random source is unavailable")
}

/// A fresh key from the OS random source, or an error if the OS cannot provide randomness.
pub fn try_generate_key() -> Result<SigningKey> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| anyhow::anyhow!("cannot read the OS random source to make a key: {e}"))?;
    Ok(SigningKey::from_bytes(&bytes))
}

/// The text of a secret key file (one line, ending in a newline).
pub fn secret_key_text(key: &SigningKey) -> String {
    format!("{SECRET_KEY_TAG} {}\n", B64.encode(key.to_bytes()))
}

/// Writes a secret key file with mode 0600; refuses to overwrite an existing file.
pub fn write_secret_key(path: &Path, key: &SigningKey) -> Result<()> {
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut file = match opts.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => bail!(
            "{} already exists: refusing to overwrite a key file (a lost key cannot be \
             recovered); choose another path or move the old file away first",
            path.display()
        ),
        Err(e) => {
            return Err(e).with_context(|| format!("cannot create key file {}", path.display()))
        }
    };
    file.write_all(secret_key_text(key).as_bytes())
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write key file {}", path.display()))
}

/// Reads a secret key file written by [`write_secret_key`]. Refuses files that group or others
/// can read (the key signs orders in your name).
pub fn read_secret_key(path: &Path) -> Result<SigningKey> {
    let meta = std::fs::metadata(path).with_context(|| {
        format!(
            "cannot read key file {}: create one with `dustmail keygen --out {}`",
            path.display(),
            path.display()
        )
    })?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            bail!(
                "key file {} has mode {mode:03o}: others could read your secret key; \
                 run `chmod 600 {}` and try again",
                path.display(),
                path.display()
            );
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read key file {}", path.display()))?;
    parse_secret_key(&text).with_context(|| format!("key file {}", path.display()))
}

/// Parses the text of a secret key file.
pub fn parse_secret_key(text: &str) -> Result<SigningKey, KeyError> {
    let what = "a secret key file holds one line: `dustmail-secret-key-v1 ` followed by 44 \
                base64 characters (as written by `dustmail keygen`)";
    let text = text.trim_start_matches('\u{feff}').trim();
    let Some(b64) = text
        .strip_prefix(SECRET_KEY_TAG)
        .filter(|rest| rest.starts_with([' ', '\t']))
    else {
        return Err(KeyError(format!(
            "this is not a dustmail secret key: {what}"
        )));
    };
    let bytes = decode_32(b64.trim()).map_err(|e| KeyError(format!("{e}: {what}")))?;
    Ok(SigningKey::from_bytes(&bytes))
}

/// `ed25519:<base64>`.
pub fn public_key_text(key: &VerifyingKey) -> String {
    format!("{PUBLIC_KEY_PREFIX}{}", B64.encode(key.as_bytes()))
}

/// The signed bytes of §4: lines with CRLF → LF, a leading BOM and trailing whitespace on each
/// line removed, leading and trailing empty lines dropped, joined by `\n` (no trailing newline).
pub fn canonical_text(orders_text: &str) -> String {
    let lines: Vec<&str> = orders_text.split('\n').map(str::trim_end).collect();
    // The leading BOM is the one at the start of the first line with content: blank lines
    // ahead of it are dropped anyway, and if they hid it, canonicalising twice would remove it
    // only the second time (found by fuzzing, docs/fuzzing.md). BOM-only lines count as blank.
    let content = |l: &&str| !l.trim_start_matches('\u{feff}').trim_end().is_empty();
    let first = lines.iter().position(content);
    let last = lines.iter().rposition(|l| !l.is_empty());
    match (first, last) {
        (Some(a), Some(b)) => {
            let mut kept: Vec<&str> = lines.get(a..=b).unwrap_or_default().to_vec();
            if let Some(head) = kept.first_mut() {
                *head = head.trim_start_matches('\u{feff}');
            }
            kept.join("\n")
        }
        _ => String::new(),
    }
}

/// The whole signed block (ORDERS markers, canonical text, SIGNATURE markers, base64 signature),
/// ending in a newline.
pub fn sign_block(key: &SigningKey, orders_text: &str) -> String {
    let canonical = canonical_text(orders_text);
    let sig = sign_text(key, &canonical);
    let body = if canonical.is_empty() {
        String::new()
    } else {
        format!("{canonical}\n")
    };
    format!("{ORDERS_BEGIN}\n{body}{ORDERS_END}\n{SIG_BEGIN}\n{sig}\n{SIG_END}\n")
}

/// Strict ed25519 verification of `canonical` (canonicalised again, which changes nothing for a
/// text already canonical) against a base64 signature.
/// A signature that decodes to an SSHSIG blob (the armor of `ssh-keygen -Y sign`, docs/signing.md)
/// is verified as one (src/edges/sshsig.rs).
pub fn verify(key: &VerifyingKey, canonical: &str, signature_b64: &str) -> Result<(), VerifyError> {
    let compact: String = signature_b64
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    match B64.decode(&compact) {
        Ok(raw) if crate::edges::sshsig::is_sshsig(&raw) => {
            crate::edges::sshsig::verify(key, &canonical_text(canonical), &raw)
                .map_err(|e| VerifyError(e.0))
        }
        _ => verify_text(key, &canonical_text(canonical), signature_b64),
    }
}

/// Strict ed25519 verification of exactly these bytes (ledger-head lines signed by
/// [`sign_text`]).
pub fn verify_text(key: &VerifyingKey, text: &str, signature_b64: &str) -> Result<(), VerifyError> {
    let compact: String = signature_b64
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if compact.is_empty() {
        return Err(VerifyError(
            "the signature is missing: put the base64 signature between the SIGNATURE markers \
             (`dustmail sign` prints the whole block)"
                .into(),
        ));
    }
    let bytes = B64.decode(&compact).map_err(|e| {
        VerifyError(format!(
            "the signature is not valid base64 ({e}): paste the block `dustmail sign` printed \
             without changing it"
        ))
    })?;
    let sig = Signature::from_slice(&bytes).map_err(|_| {
        VerifyError(format!(
            "the signature has {} bytes instead of 64: paste the block `dustmail sign` printed \
             without changing it",
            bytes.len()
        ))
    })?;
    key.verify_strict(text.as_bytes(), &sig).map_err(|_| {
        VerifyError(
            "the signature does not match the orders and this side's key: the text was \
             changed after signing, or it was signed with another key; sign the orders again \
             with your own key (`dustmail sign --key KEYFILE`) and send the new block"
                .into(),
        )
    })
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct VerifyError(pub String);

/// Signs arbitrary text with the referee's key (ledger-head lines), base64 signature.
pub fn sign_text(key: &SigningKey, text: &str) -> String {
    B64.encode(key.sign(text.as_bytes()).to_bytes())
}
