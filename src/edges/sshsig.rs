//! Orders signed with OpenSSH (`ssh-keygen -Y sign -n dustmail-orders`), verified natively and
//! strictly against OpenSSH's PROTOCOL.sshsig (docs/signing.md).
//!
//! The armored signature is the base64 of this blob (SSH wire types: `string` is a u32 length
//! then the bytes):
//! ```text
//! byte[6] "SSHSIG"; uint32 1; string publickey; string namespace; string reserved;
//! string hash_algorithm; string signature
//! ```
//! and `signature` is ed25519 over `"SSHSIG" ‖ string namespace ‖ string reserved ‖
//! string hash_algorithm ‖ string H(message)`.
//!
//! Strict means: the magic and version 1; the public key exactly the registered ed25519 key's
//! wire blob; the namespace exactly `dustmail-orders`; reserved empty (as OpenSSH writes it);
//! hash `sha512` or `sha256`; the signature exactly `string "ssh-ed25519" ‖ string(64 bytes)`;
//! no byte after it; ed25519 `verify_strict`. So a valid blob is fixed by its signed content and
//! its 64 signature bytes: nobody but the signer can make another one for the same orders.
//!
//! The message is the §4 canonical text followed by one `\n` (a file an editor saved), or the
//! canonical text alone (a file written without a final newline): both name the same orders.

use crate::pbem::keys::{ssh_ed25519_blob, OPENSSH_ED25519};
use ed25519_dalek::{Signature, VerifyingKey};
use sha2::{Digest, Sha256, Sha512};

pub const SSH_SIG_BEGIN: &str = "-----BEGIN SSH SIGNATURE-----";
pub const SSH_SIG_END: &str = "-----END SSH SIGNATURE-----";
/// The namespace (`-n`) of dustmail orders: a signature made for anything else (git commits,
/// files) cannot be replayed as orders.
pub const NAMESPACE: &str = "dustmail-orders";
const MAGIC: &[u8] = b"SSHSIG";

/// Why an OpenSSH signature was refused: a sentence for the player (src/edges/crypto.rs makes
/// it a `VerifyError`; this module does not import crypto, which imports it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct VerifyError(pub String);

/// Whether decoded signature bytes are an SSHSIG blob (rather than a raw 64-byte signature).
pub fn is_sshsig(raw: &[u8]) -> bool {
    raw.len() != 64 && raw.starts_with(MAGIC)
}

/// Reads SSH wire types from a blob; every read says which field was cut short.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, field: &str) -> Result<&'a [u8], VerifyError> {
        if self.0.len() < n {
            return Err(bad(format!("it ends inside the {field}")));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    fn u32(&mut self, field: &str) -> Result<u32, VerifyError> {
        let b = self.take(4, field)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn string(&mut self, field: &str) -> Result<&'a [u8], VerifyError> {
        let n = self.u32(field)? as usize;
        self.take(n, field)
    }
}

fn bad(what: String) -> VerifyError {
    // Short: a refusal nobody's key signed keeps 200 characters of its reason.
    VerifyError(format!(
        "not a valid OpenSSH signature ({what}): paste the .sig file unchanged"
    ))
}

fn put_string(out: &mut Vec<u8>, s: &[u8]) {
    out.extend_from_slice(&(s.len() as u32).to_be_bytes());
    out.extend_from_slice(s);
}

/// OpenSSH's fingerprint of a key blob (`SHA256:…`, as `ssh-keygen -l` prints it).
fn fingerprint(blob: &[u8]) -> String {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD_NO_PAD.encode(Sha256::digest(blob));
    format!("SHA256:{b64}")
}

/// How a registered OpenSSH key is shown in mails, within 72 characters: `ssh-ed25519
/// SHA256:…`, the fingerprint `ssh-keygen -lf KEY.pub` prints. None for other key texts.
pub fn key_shown(key_text: &str) -> Option<String> {
    if !crate::pbem::keys::is_openssh_key(key_text) {
        return None;
    }
    let key = crate::pbem::keys::parse_public_key(key_text).ok()?;
    Some(format!(
        "{OPENSSH_ED25519} {}",
        fingerprint(&ssh_ed25519_blob(&key))
    ))
}

/// Verifies an SSHSIG blob over the canonical text of some orders by the registered key.
pub fn verify(key: &VerifyingKey, canonical: &str, blob: &[u8]) -> Result<(), VerifyError> {
    let mut r = Reader(blob);
    if r.take(MAGIC.len(), "magic")? != MAGIC {
        return Err(bad("it does not start with SSHSIG".into()));
    }
    let version = r.u32("version")?;
    if version != 1 {
        return Err(bad(format!("version {version}, only version 1 exists")));
    }
    let public_key = r.string("public key")?;
    let namespace = r.string("namespace")?;
    let reserved = r.string("reserved field")?;
    let hash_alg = r.string("hash algorithm")?;
    let signature = r.string("signature")?;
    if !r.0.is_empty() {
        return Err(bad(format!("{} bytes after the signature", r.0.len())));
    }
    let mut k = Reader(public_key);
    let kind = k.string("public key type")?;
    if kind != OPENSSH_ED25519.as_bytes() {
        return Err(VerifyError(format!(
            "signed with an OpenSSH `{}` key: dustmail takes ed25519 keys only \
             (`ssh-keygen -t ed25519`)",
            String::from_utf8_lossy(kind)
                .chars()
                .take(40)
                .collect::<String>()
        )));
    }
    let registered = ssh_ed25519_blob(key);
    if public_key != registered.as_slice() {
        return Err(VerifyError(format!(
            "signed with the OpenSSH key {}, not the key registered for this side \
             (`ssh-keygen -lf KEY.pub` shows a key's)",
            fingerprint(public_key)
        )));
    }
    if namespace != NAMESPACE.as_bytes() {
        return Err(VerifyError(format!(
            "signed for the namespace `{}`, not `{NAMESPACE}`: sign with `-n {NAMESPACE}`",
            String::from_utf8_lossy(namespace)
                .chars()
                .take(40)
                .collect::<String>()
        )));
    }
    if !reserved.is_empty() {
        return Err(bad("its reserved field is not empty".into()));
    }
    let digest: fn(&[u8]) -> Vec<u8> = match hash_alg {
        b"sha512" => |m| Sha512::digest(m).to_vec(),
        b"sha256" => |m| Sha256::digest(m).to_vec(),
        other => {
            return Err(bad(format!(
                "hash algorithm `{}`; sha512 or sha256 is taken",
                String::from_utf8_lossy(other)
                    .chars()
                    .take(20)
                    .collect::<String>()
            )))
        }
    };
    let mut s = Reader(signature);
    let sig_kind = s.string("signature type")?;
    let sig_bytes = s.string("signature bytes")?;
    if sig_kind != OPENSSH_ED25519.as_bytes() || !s.0.is_empty() {
        return Err(bad("its signature is not one ssh-ed25519 signature".into()));
    }
    let sig = Signature::from_slice(sig_bytes)
        .map_err(|_| bad(format!("an ed25519 signature of {} bytes", sig_bytes.len())))?;
    let signed = |message: &[u8]| {
        let mut data = MAGIC.to_vec();
        put_string(&mut data, namespace);
        put_string(&mut data, reserved);
        put_string(&mut data, hash_alg);
        put_string(&mut data, &digest(message));
        data
    };
    let with_newline = format!("{canonical}\n");
    [with_newline.as_bytes(), canonical.as_bytes()]
        .iter()
        .find(|m| key.verify_strict(&signed(m), &sig).is_ok())
        .map(|_| ())
        .ok_or_else(|| {
            VerifyError(
                "the text does not match the signed file (edited after signing, or the file \
                 has trailing spaces, blank end lines or CRLF)"
                    .into(),
            )
        })
}
