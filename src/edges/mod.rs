//! The edges (DESIGN §2): mail in (Maildir, MIME → signed blocks), crypto (ed25519, signatures),
//! the outbox (file, SMTP, sendmail), the home lock, and the reports people read. An edge
//! imports the core, never a game: a report asks the game (through the core's interface) for
//! its own views and pictures.

pub mod crypto;
pub mod imap;
pub mod intake;
pub mod lock;
pub mod mail;
pub mod outbox;
pub mod report;
pub mod sshsig;
pub mod when;
