//! Intake: a raw mail → sender, threading headers and the signed blocks it carries.

use crate::game::Line;

/// A mail as the referee needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    pub message_id: Option<String>,
    /// Where replies go (Reply-To, else From).
    pub reply_to: Option<String>,
    pub subject: String,
    /// Why the referee must not answer this mail at all (bounce, Auto-Submitted, own address).
    pub no_reply: Option<String>,
    /// Signed blocks found in text/plain, HTML-only bodies and text attachments; quoted (`>`)
    /// blocks are ignored.
    pub blocks: Vec<RawBlock>,
    /// Hex SHA-256 of the raw bytes (deduplication after a crash).
    pub sha256: String,
}

/// A block as found: the canonical signed text and the signature, not yet verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawBlock {
    pub canonical: String,
    pub signature_b64: String,
}

/// The `game:`/`side:`/`seq:` header and the command lines of a signed text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockBody {
    pub game: String,
    pub side: String,
    pub seq: u64,
    /// Command lines, numbered as lines of the signed text (1-based).
    pub lines: Vec<Line>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MailError(pub String);

/// Parses a raw mail. `own_address` is the referee's (never answered); mails over `max_bytes`
/// are refused.
pub fn parse_mail(raw: &[u8], own_address: &str, max_bytes: usize) -> Result<Incoming, MailError> {
    let _ = (raw, own_address, max_bytes);
    Err(MailError("not written yet".into()))
}

/// Splits a canonical signed text into its header and command lines, with errors naming the line.
pub fn parse_body(canonical: &str) -> Result<BlockBody, MailError> {
    let _ = canonical;
    Err(MailError("not written yet".into()))
}
