//! The outbox: every mail is queued on disk first (fsync), then delivered by the configured
//! transport; a failed delivery stays queued and is retried with backoff on the next run.
//!
//! Queueing is idempotent by mail id: the referee derives ids from ledger events, so after a crash
//! it can queue the same mails again and nothing is sent twice.
//!
//! On disk, a queued mail is `<outbox>/<id>.eml` (the exact RFC 5322 bytes that will be sent) plus
//! `<outbox>/<id>.json` (its [`Envelope`]: recipients, attempts, next attempt time, last error).
//! The `.json` is written last, so it marks a complete queue entry; a delivered mail is
//! `<sent>/<id>.eml`. A mail is in exactly one of the two places:
//!
//! * delivery = send, then rename `.eml` into `sent/`; once per delivery pass, after every mail
//!   of the pass is sent or failed: fsync `sent/` and `outbox/`, then delete the delivered mails'
//!   `.json`, then fsync `outbox/` (three directory fsyncs per pass, not per mail);
//! * a crash after the rename leaves a `.json` whose `.eml` is already in `sent/`: the next pass
//!   only deletes that `.json`, it does not send again;
//! * a `kill -9` cannot undo a rename (the kernel has it), so a killed process re-sends only a
//!   mail the server accepted before its rename was made (one `rename` after the server's reply);
//! * a power loss before the pass's fsyncs can undo renames of that pass: those mails are sent
//!   again by the next pass. Delivery is at least once, never lost: a `.json` is deleted only
//!   after its rename is on disk.
//!
//! SMTP goes over lettre's [`SmtpConnection`](lettre::transport::smtp::client::SmtpConnection)
//! (one per worker thread, [`DeliveryOptions::connections`]): MAIL, RCPT, DATA as commands, then the dot-stuffed message
//! and its terminator in a single write, so no mail waits on Nagle's algorithm and the server's
//! delayed ACK (lettre's own `message` writes the terminator separately, ~40 ms per mail).
//!
//! Here: the mail and queue types and the queue itself (staging, batches); `render` builds the
//! bytes, `deliver` runs a delivery pass, `smtp` speaks to the server.

mod deliver;
mod render;
mod smtp;

pub use render::render;
pub use smtp::check_smtp_auth;

use anyhow::Result;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// A mail to send.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mail {
    pub from: String,
    pub to: Vec<String>,
    pub subject: String,
    /// Message-ID of the mail this answers (threading).
    #[serde(default)]
    pub in_reply_to: Option<String>,
    #[serde(default)]
    pub references: Vec<String>,
    pub text: String,
    #[serde(default)]
    pub html: Option<String>,
    #[serde(default)]
    pub attachments: Vec<Attachment>,
    /// Extra headers, e.g. ("X-Dustmail-Ledger-Head", "...").
    #[serde(default)]
    pub headers: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    pub filename: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
    /// Content-ID when the HTML part shows it inline (multipart/related).
    #[serde(default)]
    pub inline_cid: Option<String>,
}

/// How mail leaves the machine (config.toml `transport`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Transport {
    /// Delivered mail lands in `<home>/sent/`.
    File,
    Smtp {
        host: String,
        port: u16,
        #[serde(default)]
        starttls: bool,
        #[serde(default)]
        user: Option<String>,
        #[serde(default)]
        password: Option<String>,
        /// `smtps://`: TLS from the first byte (port 465), no STARTTLS.
        #[serde(default)]
        implicit_tls: bool,
        /// AUTH allowed without TLS (`[smtp] insecure = true`).
        #[serde(default)]
        insecure: bool,
        /// Run with `sh -c` at delivery; its first stdout line is the password.
        #[serde(default)]
        password_command: Option<String>,
    },
    Sendmail {
        #[serde(default)]
        command: Option<String>,
    },
}

impl Transport {
    /// Names the server for error lines ("smtp 127.0.0.1:25", "sendmail /usr/sbin/sendmail").
    pub fn describe(&self) -> String {
        match self {
            Transport::File => "file transport (sent/)".to_string(),
            Transport::Smtp {
                host,
                port,
                starttls,
                implicit_tls,
                ..
            } => {
                if *implicit_tls {
                    return format!("smtps {host}:{port}");
                }
                let tls = if *starttls { " (STARTTLS)" } else { "" };
                format!("smtp {host}:{port}{tls}")
            }
            Transport::Sendmail { command } => {
                format!("sendmail {}", command.as_deref().unwrap_or("sendmail"))
            }
        }
    }
}

/// What one delivery pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliveryReport {
    pub delivered: usize,
    pub failed: usize,
    /// Still queued, waiting for their next retry time (not attempted in this pass).
    pub waiting: usize,
    /// One line per failure, for the operator.
    pub errors: Vec<String>,
}

/// Tuning for [`Outbox::deliver_with`]; [`Outbox::deliver`] uses the default.
#[derive(Debug, Clone)]
pub struct DeliveryOptions {
    /// SMTP connections used in parallel (each on its own thread, 1-16). One connection already
    /// keeps up with Python's smtplib; more help when the server is slow to answer.
    pub connections: usize,
    /// Extra PEM trust anchors for STARTTLS (a private relay's self-signed certificate).
    pub extra_root_certs_pem: Vec<Vec<u8>>,
}

impl Default for DeliveryOptions {
    fn default() -> Self {
        DeliveryOptions {
            connections: 4,
            extra_root_certs_pem: Vec::new(),
        }
    }
}

/// Why a mail was refused at queue time.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OutboxError {
    #[error("outbox id {0:?} is not file-name safe: use 1-128 characters of A-Z a-z 0-9 . _ - starting with a letter or digit, no \"..\" and no trailing dot")]
    BadId(String),
    #[error("bad {field} address {value:?}: {reason} (RFC 5322 addresses look like name@example.org or \"Name <name@example.org>\")")]
    BadAddress {
        field: String,
        value: String,
        reason: String,
    },
    #[error("mail has no recipient: add at least one address to `to`")]
    NoRecipient,
    #[error("bad header name {0:?}: a header name is 1-76 printable ASCII characters without ':' or spaces (RFC 5322 section 2.2)")]
    BadHeaderName(String),
    #[error("header {0:?} is set by the outbox itself and cannot be given as an extra header: use the Mail field instead")]
    ReservedHeader(String),
    #[error("refused {field}: it contains a line break or control character (header injection); remove CR/LF from it")]
    HeaderInjection { field: String },
    #[error("attachment {filename:?} has a bad content type {content_type:?}: use a MIME type like image/png")]
    BadContentType {
        filename: String,
        content_type: String,
    },
    #[error("could not build the mail: {0}")]
    Build(String),
}

/// The queue entry's envelope and retry state: `<outbox>/<id>.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    pub id: String,
    /// Bare envelope sender (MAIL FROM).
    pub from: String,
    /// Bare recipients (RCPT TO).
    pub to: Vec<String>,
    pub message_id: String,
    pub queued_at: DateTime<Utc>,
    #[serde(default)]
    pub attempts: u32,
    /// `None`: due at the next delivery pass.
    #[serde(default)]
    pub next_attempt: Option<DateTime<Utc>>,
    #[serde(default)]
    pub last_error: Option<String>,
}

/// Wait before the next attempt after `attempts` failed ones: 1 min, 2, 4, … capped at 6 h.
pub fn backoff(attempts: u32) -> Duration {
    const CAP_MINUTES: i64 = 6 * 60;
    let exp = attempts.saturating_sub(1).min(16);
    Duration::minutes((1i64 << exp).min(CAP_MINUTES))
}

/// `Ok` when `id` can name queue files and a Message-ID.
pub fn validate_id(id: &str) -> Result<(), OutboxError> {
    let ok = !id.is_empty()
        && id.len() <= 128
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        && id.as_bytes()[0].is_ascii_alphanumeric()
        && !id.ends_with('.')
        && !id.contains("..");
    if ok {
        Ok(())
    } else {
        Err(OutboxError::BadId(id.to_string()))
    }
}

/// Writes `bytes` to `path` atomically and durably: tmp file, fsync, rename, fsync the directory.
fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = dir.join(format!(".{name}.tmp"));
    {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, dir.join(name))?;
    sync_dir(dir)
}

fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

/// `<home>/outbox` and `<home>/sent`.
pub struct Outbox {
    pub queue_dir: PathBuf,
    pub sent_dir: PathBuf,
    /// In a batch ([`Outbox::begin_batch`]) mails are staged, not queued.
    batch: AtomicBool,
}

/// Staged mails of an open batch, inside the outbox directory (never read by delivery).
const STAGED_DIR: &str = ".staged";
/// Present while a batch is open: found by the next batch, it says the last one never finished.
const OPEN_MARKER: &str = "OPEN";

impl Outbox {
    pub fn open(home: &Path) -> Result<Outbox> {
        let o = Outbox {
            queue_dir: home.join("outbox"),
            sent_dir: home.join("sent"),
            batch: AtomicBool::new(false),
        };
        std::fs::create_dir_all(&o.queue_dir)?;
        std::fs::create_dir_all(&o.sent_dir)?;
        Ok(o)
    }

    /// Queues `mail` under `id` (file-name safe). Idempotent: an id already queued or sent is
    /// not queued again. Durable (fsync) when it returns. The Date header is the wall clock.
    pub fn queue(&self, id: &str, mail: &Mail) -> Result<()> {
        self.queue_at(id, mail, Utc::now())
    }

    /// [`Outbox::queue`] with the Date header given (tests, `run --now`).
    pub fn queue_at(&self, id: &str, mail: &Mail, date: DateTime<Utc>) -> Result<()> {
        validate_id(id)?;
        // Validate even when already queued: a bad mail is always the caller's error.
        let (eml, env) = render(id, mail, date)?;
        if self.is_queued(id) || self.is_sent(id) {
            return Ok(());
        }
        let json = serde_json::to_vec_pretty(&env)?;
        if self.batch.load(Ordering::Relaxed) {
            // Plain writes: the batch's commit makes them durable all at once.
            let staged = self.staged_dir();
            fs::write(staged.join(format!("{id}.eml")), &eml)?;
            fs::write(staged.join(format!("{id}.json")), &json)?;
            return Ok(());
        }
        // .eml first, .json last: the .json marks a complete entry (an orphan .eml from a crash
        // here is simply overwritten by the re-queue).
        write_atomic(&self.queue_dir, &format!("{id}.eml"), &eml)?;
        write_atomic(&self.queue_dir, &format!("{id}.json"), &json)?;
        Ok(())
    }

    fn staged_dir(&self) -> PathBuf {
        self.queue_dir.join(STAGED_DIR)
    }

    /// Opens a batch (one `run`): from now on [`Outbox::queue_at`] stages mails without any
    /// fsync, and nothing staged can be delivered until [`Outbox::commit_batch`] moves it into
    /// the queue; the caller makes the staged files (and the ledger lines they are about)
    /// durable first, with one `syncfs` for the whole batch instead of four fsyncs per mail.
    ///
    /// Whatever an earlier batch staged and never committed is dropped: that batch's mails are
    /// still in the Maildir and its steps in the ledger, so they are staged again. Returns true
    /// when such an unfinished batch was found (the caller then re-queues what no Maildir mail
    /// will bring back: deadline defaults).
    pub fn begin_batch(&self) -> Result<bool> {
        let staged = self.staged_dir();
        let unfinished = staged.join(OPEN_MARKER).exists();
        if staged.exists() {
            fs::remove_dir_all(&staged)?;
        }
        fs::create_dir_all(&staged)?;
        // The marker must survive a power loss, or an unfinished batch would go unnoticed.
        File::create(staged.join(OPEN_MARKER))?.sync_all()?;
        sync_dir(&staged)?;
        sync_dir(&self.queue_dir)?;
        self.batch.store(true, Ordering::Relaxed);
        Ok(unfinished)
    }

    /// Moves every staged mail into the queue (`.eml` before `.json`, as [`Outbox::queue_at`]
    /// does) and fsyncs the queue directory. The staged files must already be durable. With
    /// `last`, the batch ends: the marker goes and mails are queued durably again.
    pub fn commit_batch(&self, last: bool) -> Result<()> {
        let staged = self.staged_dir();
        let mut names: Vec<String> = fs::read_dir(&staged)?
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter_map(|n| n.strip_suffix(".json").map(str::to_string))
            .collect();
        names.sort();
        for id in &names {
            fs::rename(
                staged.join(format!("{id}.eml")),
                self.queue_dir.join(format!("{id}.eml")),
            )?;
            fs::rename(
                staged.join(format!("{id}.json")),
                self.queue_dir.join(format!("{id}.json")),
            )?;
        }
        sync_dir(&self.queue_dir)?;
        if last {
            // Gone with the marker: the outbox holds only queued mails between runs.
            fs::remove_dir_all(&staged)?;
            sync_dir(&self.queue_dir)?;
            self.batch.store(false, Ordering::Relaxed);
        }
        Ok(())
    }

    /// True when `id` waits in the outbox (or in the open batch).
    pub fn is_queued(&self, id: &str) -> bool {
        validate_id(id).is_ok()
            && (self.queue_dir.join(format!("{id}.json")).exists()
                || (self.batch.load(Ordering::Relaxed)
                    && self.staged_dir().join(format!("{id}.json")).exists()))
    }

    /// True when `id` was delivered (its `.eml` is in `sent/`).
    pub fn is_sent(&self, id: &str) -> bool {
        validate_id(id).is_ok() && self.sent_dir.join(format!("{id}.eml")).exists()
    }

    /// The queued envelopes, sorted by id.
    pub fn queued(&self) -> Result<Vec<Envelope>> {
        let mut out = Vec::new();
        for id in self.queued_ids()? {
            out.push(self.read_envelope(&id)?);
        }
        Ok(out)
    }

    fn queued_ids(&self) -> Result<Vec<String>> {
        let mut ids = Vec::new();
        for entry in fs::read_dir(&self.queue_dir)? {
            let name = entry?.file_name();
            let Some(name) = name.to_str() else { continue };
            if let Some(id) = name.strip_suffix(".json") {
                if validate_id(id).is_ok() {
                    ids.push(id.to_string());
                }
            }
        }
        ids.sort();
        Ok(ids)
    }

    fn read_envelope(&self, id: &str) -> Result<Envelope> {
        let path = self.queue_dir.join(format!("{id}.json"));
        let bytes = fs::read(&path)?;
        serde_json::from_slice(&bytes).map_err(|e| {
            anyhow::anyhow!(
                "outbox entry {} is unreadable: {e}; fix or remove it",
                path.display()
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_one_minute_and_caps_at_six_hours() {
        let mins: Vec<i64> = (1..=12).map(|a| backoff(a).num_minutes()).collect();
        assert_eq!(mins, [1, 2, 4, 8, 16, 32, 64, 128, 256, 360, 360, 360]);
        assert_eq!(backoff(u32::MAX).num_minutes(), 360);
    }

    #[test]
    fn ids_must_be_file_name_safe() {
        for ok in ["a", "welcome.g1.north", "R2-seq_3"] {
            assert!(validate_id(ok).is_ok(), "{ok}");
        }
        for bad in ["", ".hidden", "../x", "a/b", "a..b", "a.", "a b", "é"] {
            assert!(validate_id(bad).is_err(), "{bad}");
        }
    }
}
