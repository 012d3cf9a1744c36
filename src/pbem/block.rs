//! What a mail brings into the core (DESIGN §4): the signed blocks an edge found in it, and the
//! `game:`/`side:`/`seq:` header and command lines of a signed text. The edges parse mails
//! (src/mail.rs); the core only reads these.

use crate::game::Line;

/// A mail as the referee needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    pub message_id: Option<String>,
    /// Where replies go (Reply-To, else From). None when there is no usable address (missing,
    /// malformed, or carrying CR/LF: a header injection attempt).
    pub reply_to: Option<String>,
    /// Subject with control characters replaced by spaces (safe to reuse in a reply header).
    pub subject: String,
    /// Why the referee must not answer this mail at all (bounce, Auto-Submitted, own address).
    pub no_reply: Option<String>,
    /// Signed blocks found in text/plain, HTML-only bodies and text attachments; quoted (`>`)
    /// blocks are ignored. Identical blocks found twice (body and attachment) are kept once.
    pub blocks: Vec<RawBlock>,
    /// Hex SHA-256 of the raw bytes (deduplication after a crash).
    pub sha256: String,
    /// Broken blocks (ORDERS without END, orders without a signature, …), each a sentence a
    /// player can act on. Not errors of the mail as a whole: other blocks may be fine.
    pub problems: Vec<String>,
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
    /// Command lines, numbered as lines of the signed text (1-based). Blank lines and lines
    /// holding only a `#` comment are left out.
    pub lines: Vec<Line>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MailError(pub String);
