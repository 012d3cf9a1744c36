//! The outbox: every mail is queued on disk first (fsync), then delivered by the configured
//! transport; a failed delivery stays queued and is retried with backoff on the next run.
//!
//! Queueing is idempotent by mail id: the referee derives ids from ledger events, so after a crash
//! it can queue the same mails again and nothing is sent twice.

use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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
    },
    Sendmail {
        #[serde(default)]
        command: Option<String>,
    },
}

/// What one delivery pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliveryReport {
    pub delivered: usize,
    pub failed: usize,
    /// Still queued, waiting for their next retry time.
    pub waiting: usize,
    /// One line per failure, for the operator.
    pub errors: Vec<String>,
}

/// `<home>/outbox` and `<home>/sent`.
pub struct Outbox {
    pub queue_dir: PathBuf,
    pub sent_dir: PathBuf,
}

impl Outbox {
    pub fn open(home: &Path) -> Result<Outbox> {
        let o = Outbox {
            queue_dir: home.join("outbox"),
            sent_dir: home.join("sent"),
        };
        std::fs::create_dir_all(&o.queue_dir)?;
        std::fs::create_dir_all(&o.sent_dir)?;
        Ok(o)
    }

    /// Queues `mail` under `id` (file-name safe). Idempotent: an id already queued or sent is
    /// not queued again. Durable (fsync) when it returns.
    pub fn queue(&self, id: &str, mail: &Mail) -> Result<()> {
        // PLACEHOLDER (replaced by the outbox work).
        let _ = (id, mail);
        Ok(())
    }

    /// Delivers every queued mail whose retry time has come.
    pub fn deliver(
        &self,
        transport: &Transport,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<DeliveryReport> {
        // PLACEHOLDER (replaced by the outbox work).
        let _ = (transport, now);
        Ok(DeliveryReport::default())
    }
}
