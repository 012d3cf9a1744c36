//! The mail and crypto functions the core is handed (DESIGN §2: the core imports no edge): the
//! real ones are `Edges::real()` (src/pipeline), tests hand fakes.

use crate::pbem::block::{BlockBody, Incoming, MailError};
use ed25519_dalek::SigningKey;

/// The mail and crypto functions the pipeline uses (the real ones from [`Edges::real`]).
#[derive(Clone, Copy)]
pub struct Edges {
    pub parse_mail: fn(&[u8], &str, usize) -> Result<Incoming, MailError>,
    pub parse_body: fn(&str) -> Result<BlockBody, MailError>,
    /// Verifies a base64 signature of `canonical` by the key written `ed25519:<base64>`.
    pub verify: fn(&str, &str, &str) -> Result<(), String>,
    /// Verifies a base64 signature of exactly these bytes (ledger-head lines).
    pub verify_text: fn(&str, &str, &str) -> Result<(), String>,
    /// Signs a text with the referee key (ledger-head lines), base64.
    pub sign_text: fn(&SigningKey, &str) -> String,
    /// `ed25519:<base64>` of a key.
    pub public_key_text: fn(&SigningKey) -> String,
}
