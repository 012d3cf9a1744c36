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
//! SMTP goes over lettre's [`SmtpConnection`] (one per worker thread,
//! [`DeliveryOptions::connections`]): MAIL, RCPT, DATA as commands, then the dot-stuffed message
//! and its terminator in a single write, so no mail waits on Nagle's algorithm and the server's
//! delayed ACK (lettre's own `message` writes the terminator separately, ~40 ms per mail).

use anyhow::Result;
use chrono::{DateTime, Duration, Utc};
use lettre::address::Address;
use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{
    Attachment as MimeAttachment, Body, Mailbox, Message, MultiPart, SinglePart,
};
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{Certificate, SmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail as MailCommand, Rcpt};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};
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

fn parse_mailbox(field: &str, value: &str) -> Result<Mailbox, OutboxError> {
    no_injection(field, value)?;
    value
        .parse::<Mailbox>()
        .map_err(|e| OutboxError::BadAddress {
            field: field.to_string(),
            value: value.to_string(),
            reason: e.to_string(),
        })
}

fn no_injection(field: &str, value: &str) -> Result<(), OutboxError> {
    if value.chars().any(|c| c.is_control() && c != '\t') {
        return Err(OutboxError::HeaderInjection {
            field: field.to_string(),
        });
    }
    Ok(())
}

/// Headers the outbox writes itself; an extra header may not duplicate them.
const RESERVED_HEADERS: &[&str] = &[
    "from",
    "to",
    "cc",
    "bcc",
    "sender",
    "reply-to",
    "subject",
    "date",
    "message-id",
    "in-reply-to",
    "references",
    "mime-version",
    "content-type",
    "content-transfer-encoding",
    "content-disposition",
    "content-id",
];

fn header_name(name: &str) -> Result<HeaderName, OutboxError> {
    let printable = name.bytes().all(|b| (33..=126).contains(&b) && b != b':');
    if !printable || name.is_empty() || name.len() > 76 {
        return Err(OutboxError::BadHeaderName(name.to_string()));
    }
    if RESERVED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
        return Err(OutboxError::ReservedHeader(name.to_string()));
    }
    HeaderName::new_from_ascii(name.to_string())
        .map_err(|_| OutboxError::BadHeaderName(name.to_string()))
}

/// Renders `mail` to RFC 5322 bytes with Message-ID `<id@domain-of-from>` and the given Date.
/// Returns the bytes and the envelope (attempts 0, due at once).
pub fn render(
    id: &str,
    mail: &Mail,
    date: DateTime<Utc>,
) -> Result<(Vec<u8>, Envelope), OutboxError> {
    validate_id(id)?;
    let from = parse_mailbox("from", &mail.from)?;
    if mail.to.is_empty() {
        return Err(OutboxError::NoRecipient);
    }
    let to = mail
        .to
        .iter()
        .map(|t| parse_mailbox("to", t))
        .collect::<Result<Vec<_>, _>>()?;
    no_injection("subject", &mail.subject)?;
    let message_id = format!("<{id}@{}>", from.email.domain());

    let mut b = Message::builder()
        .from(from.clone())
        .subject(mail.subject.clone())
        .date(date.into())
        .message_id(Some(message_id.clone()));
    for t in &to {
        b = b.to(t.clone());
    }
    if let Some(irt) = &mail.in_reply_to {
        no_injection("in_reply_to", irt)?;
        b = b.in_reply_to(irt.clone());
    }
    for r in &mail.references {
        no_injection("references", r)?;
    }
    if !mail.references.is_empty() {
        // lettre keeps only the last `references()` call: one header, ids separated by spaces.
        b = b.references(mail.references.join(" "));
    }
    // RFC 3834: every mail the referee writes is automatic, so another robot (another referee, a
    // vacation responder) must not answer it — two referees would otherwise write to each other
    // forever. A caller's own Auto-Submitted header wins.
    if !mail
        .headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("Auto-Submitted"))
    {
        let value = if mail.in_reply_to.is_some() {
            "auto-replied"
        } else {
            "auto-generated"
        };
        b = b.raw_header(HeaderValue::new(
            header_name("Auto-Submitted")?,
            value.to_string(),
        ));
    }
    for (name, value) in &mail.headers {
        let hn = header_name(name)?;
        no_injection(&format!("header {name}"), value)?;
        b = b.raw_header(HeaderValue::new(hn, value.clone()));
    }

    let (inline, files): (Vec<&Attachment>, Vec<&Attachment>) = mail
        .attachments
        .iter()
        .partition(|a| a.inline_cid.is_some() && mail.html.is_some());

    // MIME boundaries come from the mail id, not from a random source: the same mail always
    // renders to the same bytes (a re-queue after a crash, a replayed run).
    let boundary = |kind: &str| {
        format!(
            "dustmail-{}",
            &crate::ledger::sha256_hex(format!("{id}/{kind}").as_bytes())[..32]
        )
    };
    let message = match &mail.html {
        None if files.is_empty() => b.singlepart(text_part(ContentType::TEXT_PLAIN, &mail.text)),
        None => b.multipart(mixed(
            MultiPart::mixed()
                .boundary(boundary("mixed"))
                .singlepart(text_part(ContentType::TEXT_PLAIN, &mail.text)),
            &files,
        )?),
        Some(html) => {
            let html_part = text_part(ContentType::TEXT_HTML, html);
            let alt = MultiPart::alternative()
                .boundary(boundary("alternative"))
                .singlepart(text_part(ContentType::TEXT_PLAIN, &mail.text));
            let alt = if inline.is_empty() {
                alt.singlepart(html_part)
            } else {
                let mut rel = MultiPart::related()
                    .boundary(boundary("related"))
                    .singlepart(html_part);
                for a in &inline {
                    let cid = a.inline_cid.clone().unwrap_or_default();
                    no_injection("inline_cid", &cid)?;
                    rel = rel.singlepart(
                        MimeAttachment::new_inline(cid).body(a.bytes.clone(), content_type(a)?),
                    );
                }
                alt.multipart(rel)
            };
            if files.is_empty() {
                b.multipart(alt)
            } else {
                b.multipart(mixed(
                    MultiPart::mixed()
                        .boundary(boundary("mixed"))
                        .multipart(alt),
                    &files,
                )?)
            }
        }
    }
    .map_err(|e| OutboxError::Build(e.to_string()))?;

    let envelope = Envelope {
        id: id.to_string(),
        from: from.email.to_string(),
        to: to.iter().map(|t| t.email.to_string()).collect(),
        message_id,
        queued_at: date,
        attempts: 0,
        next_attempt: None,
        last_error: None,
    };
    Ok((message.formatted(), envelope))
}

/// A text part built without lettre's `Body::new`, which turns LF into CRLF with one
/// `String::insert` per line: quadratic in the body (a 22 MB receipt took 100 s, issue 10
/// finding 4). The encoding is chosen from the same text by the same chooser lettre uses and the
/// line ends are converted in one pass, so the bytes are exactly the ones lettre would make.
fn text_part(content_type: ContentType, text: &str) -> SinglePart {
    SinglePart::builder()
        .header(content_type)
        .body(text_body(text))
}

fn text_body(text: &str) -> Body {
    use email_encoding::body::Encoding;
    // lettre's `Body::new` chooses as for a server without SMTPUTF8 (`supports_utf8 = false`).
    let encoding = Encoding::choose(text, false);
    let text = crlf(text);
    let cte = match encoding {
        // Already valid as it stands (lines short enough, ASCII): no re-encoding.
        Encoding::SevenBit => {
            return Body::dangerous_pre_encoded(
                text.into_bytes(),
                ContentTransferEncoding::SevenBit,
            )
        }
        Encoding::EightBit => {
            return Body::dangerous_pre_encoded(
                text.into_bytes(),
                ContentTransferEncoding::EightBit,
            )
        }
        Encoding::QuotedPrintable => ContentTransferEncoding::QuotedPrintable,
        Encoding::Base64 => ContentTransferEncoding::Base64,
    };
    // Quoted-printable and base64 accept any text; lettre's own CRLF pass finds nothing to do.
    Body::new_with_encoding(text, cte).unwrap_or_else(Body::new)
}

/// `text` with a CR before every LF that has none (what lettre's CRLF conversion makes), in one
/// linear pass.
fn crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 32 + 2);
    let mut prev = '\0';
    for c in text.chars() {
        if c == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(c);
        prev = c;
    }
    out
}

fn content_type(a: &Attachment) -> Result<ContentType, OutboxError> {
    no_injection("attachment content type", &a.content_type)?;
    ContentType::parse(&a.content_type).map_err(|_| OutboxError::BadContentType {
        filename: a.filename.clone(),
        content_type: a.content_type.clone(),
    })
}

fn mixed(mut m: MultiPart, files: &[&Attachment]) -> Result<MultiPart, OutboxError> {
    for a in files {
        no_injection("attachment filename", &a.filename)?;
        m = m.singlepart(
            MimeAttachment::new(a.filename.clone()).body(a.bytes.clone(), content_type(a)?),
        );
    }
    Ok(m)
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

/// One due mail handed to a delivery worker.
struct Due {
    env: Envelope,
    /// Read when its turn comes: a backlog of thousands of mails with pictures must not be
    /// held in memory at once.
    eml_path: PathBuf,
}

impl Due {
    fn eml(&self) -> Result<Vec<u8>, String> {
        fs::read(&self.eml_path).map_err(|e| {
            format!(
                "cannot read {} ({e}); queue the mail again",
                self.eml_path.display()
            )
        })
    }
}

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

    /// Delivers every queued mail whose retry time has come.
    pub fn deliver(
        &self,
        transport: &Transport,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<DeliveryReport> {
        self.deliver_with(transport, &DeliveryOptions::default(), now)
    }

    /// [`Outbox::deliver`] with tuning (parallel connections, extra trust anchors).
    pub fn deliver_with(
        &self,
        transport: &Transport,
        opts: &DeliveryOptions,
        now: DateTime<Utc>,
    ) -> Result<DeliveryReport> {
        // One delivery pass at a time: two concurrent passes could send the same mail twice.
        let lock = File::create(self.queue_dir.join(".lock"))?;
        lock_with_patience(&lock, &self.queue_dir)?;

        let mut report = DeliveryReport::default();
        let mut due = Vec::new();
        for id in self.queued_ids()? {
            let env = match self.read_envelope(&id) {
                Ok(env) => env,
                Err(e) => {
                    report.failed += 1;
                    report.errors.push(format!("mail {id}: {e}"));
                    continue;
                }
            };
            let eml_path = self.queue_dir.join(format!("{id}.eml"));
            if !eml_path.exists() {
                if self.is_sent(&id) {
                    // A crash between moving the .eml to sent/ and removing the .json: finish it.
                    fs::remove_file(self.queue_dir.join(format!("{id}.json")))?;
                    sync_dir(&self.queue_dir)?;
                } else {
                    report.failed += 1;
                    report.errors.push(format!(
                        "mail {id}: {} is missing; queue the mail again",
                        eml_path.display()
                    ));
                }
                continue;
            }
            if env.next_attempt.is_some_and(|t| t > now) {
                report.waiting += 1;
                continue;
            }
            due.push(Due { env, eml_path });
        }
        if due.is_empty() {
            return Ok(report);
        }

        let results: Vec<(Envelope, Result<(), String>)> = match transport {
            Transport::File => due
                .into_iter()
                .map(|d| {
                    let r = self.move_to_sent(&d.env.id).map_err(|e| e.to_string());
                    (d.env, r)
                })
                .collect(),
            Transport::Sendmail { command } => {
                let command = command.as_deref().unwrap_or("sendmail");
                due.into_iter()
                    .map(|d| {
                        let r = self.sendmail_one(command, &d);
                        (d.env, r)
                    })
                    .collect()
            }
            Transport::Smtp { .. } => self.deliver_smtp(transport, opts, due)?,
        };

        let mut delivered = Vec::new();
        for (mut env, r) in results {
            match r {
                Ok(()) => {
                    report.delivered += 1;
                    delivered.push(env.id);
                }
                Err(e) => {
                    env.attempts = env.attempts.saturating_add(1);
                    let next = now + backoff(env.attempts);
                    env.next_attempt = Some(next);
                    env.last_error = Some(e.clone());
                    report.failed += 1;
                    report.errors.push(format!(
                        "mail {} to {} via {}: attempt {} failed: {e}; next attempt at {}",
                        env.id,
                        env.to.join(", "),
                        transport.describe(),
                        env.attempts,
                        next.to_rfc3339()
                    ));
                    write_atomic(
                        &self.queue_dir,
                        &format!("{}.json", env.id),
                        &serde_json::to_vec_pretty(&env)?,
                    )?;
                }
            }
        }
        report.errors.extend(self.settle(&delivered));
        Ok(report)
    }

    fn deliver_smtp(
        &self,
        transport: &Transport,
        opts: &DeliveryOptions,
        due: Vec<Due>,
    ) -> Result<Vec<(Envelope, Result<(), String>)>> {
        let peer = SmtpPeer::new(transport, opts)?;
        let workers = opts.connections.clamp(1, 16).min(due.len());
        // Deterministic partition: the i-th due mail (sorted by id) goes to worker i % workers.
        let mut parts: Vec<Vec<Due>> = (0..workers).map(|_| Vec::new()).collect();
        for (i, d) in due.into_iter().enumerate() {
            if let Some(p) = parts.get_mut(i % workers) {
                p.push(d);
            }
        }
        let mut results = Vec::new();
        std::thread::scope(|s| {
            let peer = &peer;
            let handles: Vec<_> = parts
                .into_iter()
                .map(|part| s.spawn(move || self.smtp_worker(peer, part)))
                .collect();
            for h in handles {
                // A worker panic is a bug; its unfinished mails stay queued and are retried.
                if let Ok(mut r) = h.join() {
                    results.append(&mut r);
                }
            }
        });
        results.sort_by(|a, b| a.0.id.cmp(&b.0.id));
        Ok(results)
    }

    /// Sends `part` over one SMTP connection, in order. After a failed mail the connection is
    /// dropped and a new one is made for the next mail; when no connection can be made, every
    /// mail left in `part` fails with that error (they stay queued and are retried with backoff).
    fn smtp_worker(&self, peer: &SmtpPeer, part: Vec<Due>) -> Vec<(Envelope, Result<(), String>)> {
        let mut out = Vec::with_capacity(part.len());
        let mut conn: Option<SmtpConnection> = None;
        let mut mails = part.into_iter();
        while let Some(d) = mails.next() {
            let c = match conn.as_mut() {
                Some(c) => c,
                None => match peer.connect() {
                    Ok(c) => conn.insert(c),
                    Err(e) => {
                        out.push((d.env, Err(e.clone())));
                        out.extend(mails.map(|d| (d.env, Err(e.clone()))));
                        return out;
                    }
                },
            };
            let r = match smtp_send(c, &d) {
                Ok(()) => self.move_to_sent(&d.env.id).map_err(|e| {
                    format!("sent, but moving it to sent/ failed ({e}); it may be sent again")
                }),
                Err(SendError::Refused(e)) => Err(e),
                Err(SendError::Session(e)) => {
                    c.abort();
                    conn = None;
                    Err(e)
                }
            };
            out.push((d.env, r));
        }
        if let Some(mut c) = conn {
            // Every mail is already accepted or failed: a failed QUIT changes nothing.
            let _ = c.quit();
        }
        out
    }

    /// Hands one queued mail to `command -i -f FROM -- TO...` (what lettre's sendmail transport
    /// runs). Its stdin is the queued `.eml` file itself, not a pipe we write into: killing
    /// dustmail (even `kill -9`) mid-delivery cannot truncate what sendmail reads, so sendmail
    /// gets the whole message or is never started (issue 10 finding 7).
    fn sendmail_one(&self, command: &str, d: &Due) -> Result<(), String> {
        let from: Address = d
            .env
            .from
            .parse()
            .map_err(|e| format!("envelope sender {:?}: {e}", d.env.from))?;
        let to = d
            .env
            .to
            .iter()
            .map(|a| {
                a.parse::<Address>()
                    .map_err(|e| format!("envelope recipient {a:?}: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if to.is_empty() {
            return Err("the envelope has no recipient: queue the mail again".to_string());
        }
        let eml = File::open(&d.eml_path).map_err(|e| {
            format!(
                "cannot read {} ({e}); queue the mail again",
                d.eml_path.display()
            )
        })?;
        let out = std::process::Command::new(command)
            .arg("-i")
            .arg("-f")
            .arg(&from)
            .arg("--")
            .args(to.iter().map(|a| a.to_string()))
            .stdin(std::process::Stdio::from(eml))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .output()
            .map_err(|e| format!("cannot run {command} ({e}): check the sendmail command"))?;
        if !out.status.success() {
            return Err(format!(
                "{command} exited with {}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        self.move_to_sent(&d.env.id)
            .map_err(|e| format!("sent, but moving it to sent/ failed ({e}); it may be sent again"))
    }

    /// Moves a delivered mail's `.eml` into sent/ (not yet durable: see [`Outbox::settle`]).
    fn move_to_sent(&self, id: &str) -> std::io::Result<()> {
        fs::rename(
            self.queue_dir.join(format!("{id}.eml")),
            self.sent_dir.join(format!("{id}.eml")),
        )
    }

    /// Makes a delivery pass durable, once for all its mails: fsync sent/ and outbox/ (the
    /// renames of [`Outbox::move_to_sent`]), then delete the delivered mails' `.json` and fsync
    /// outbox/ again. Deleting a `.json` only after its rename is on disk keeps the order of the
    /// two on every file system (they touch two directories); a `.json` left behind by a crash
    /// here is finished by the next pass. Returns the error lines for the report.
    fn settle(&self, delivered: &[String]) -> Vec<String> {
        if delivered.is_empty() {
            return Vec::new();
        }
        for dir in [&self.sent_dir, &self.queue_dir] {
            if let Err(e) = sync_dir(dir) {
                return vec![format!(
                    "{} mail(s) were delivered and moved to sent/, but syncing {} failed ({e}): \
                     a power loss now could send them again; check the disk, the next run \
                     finishes their queue entries",
                    delivered.len(),
                    dir.display()
                )];
            }
        }
        let mut errors = Vec::new();
        for id in delivered {
            let json = self.queue_dir.join(format!("{id}.json"));
            if let Err(e) = fs::remove_file(&json) {
                errors.push(format!(
                    "mail {id} was delivered (it is in sent/), but removing {} failed ({e}); \
                     the next run removes it",
                    json.display()
                ));
            }
        }
        if let Err(e) = sync_dir(&self.queue_dir) {
            errors.push(format!(
                "syncing {} after removing delivered queue entries failed ({e}); the next run \
                 removes any that come back",
                self.queue_dir.display()
            ));
        }
        errors
    }
}

/// Waits up to a minute for the delivery lock. A flock is also held for an instant by any child
/// process forked (before its exec) while the lock file was open, so a busy lock is not yet proof
/// of a concurrent delivery; a whole minute is.
fn lock_with_patience(lock: &File, queue_dir: &Path) -> Result<()> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if lock.try_lock().is_ok() {
            return Ok(());
        }
        if std::time::Instant::now() > deadline {
            anyhow::bail!(
                "another dustmail process has been delivering from {} for a minute; run again when it has finished",
                queue_dir.display()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Issue 10 finding 15: AUTH only over TLS (STARTTLS or `smtps://`) unless `insecure = true`
/// says otherwise in so many words, and one source of password. Checked when the config is
/// loaded and again before any connection is made, so no credential leaves in the clear.
pub fn check_smtp_auth(transport: &Transport) -> Result<(), String> {
    let Transport::Smtp {
        starttls,
        user,
        password,
        implicit_tls,
        insecure,
        password_command,
        ..
    } = transport
    else {
        return Ok(());
    };
    match (user, password, password_command) {
        (_, Some(_), Some(_)) => {
            return Err(
                "[smtp] has both password and password_command: keep only one of them".to_string(),
            )
        }
        (Some(_), None, None) => {
            return Err(
                "[smtp] user is set without a password: add password_command = \"...\" (or password = \"...\")"
                    .to_string(),
            )
        }
        (None, Some(_), _) | (None, _, Some(_)) => {
            return Err("[smtp] has a password but no user: add user = \"...\"".to_string())
        }
        _ => {}
    }
    if user.is_some() && !starttls && !implicit_tls && !insecure {
        return Err(format!(
            "{}: [smtp] user is set but the connection is not encrypted, so the password would              cross the network in the clear: write starttls = true under [smtp], or use              transport = \"smtps://HOST:465\"; only for a relay you trust, write insecure = true              under [smtp]",
            transport.describe()
        ));
    }
    Ok(())
}

/// Runs `[smtp] password_command` with `sh -c`; its first stdout line is the password.
fn run_password_command(command: &str) -> Result<String> {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output()
        .map_err(|e| anyhow::anyhow!("[smtp] password_command could not be run ({e})"))?;
    if !out.status.success() {
        anyhow::bail!(
            "[smtp] password_command `{command}` failed ({}): {}; fix the command or the store it              reads, the mails stay queued",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = String::from_utf8(out.stdout).map_err(|_| {
        anyhow::anyhow!("[smtp] password_command `{command}` printed a password that is not UTF-8")
    })?;
    let line = text.lines().next().unwrap_or("").trim_end_matches('\r');
    if line.is_empty() {
        anyhow::bail!(
            "[smtp] password_command `{command}` printed no password: its first line must be the password"
        );
    }
    Ok(line.to_string())
}

/// How long one SMTP read or write may take before the connection counts as broken.
const SMTP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Where and how to reach the SMTP server: built once per delivery pass, shared by the workers.
struct SmtpPeer {
    host: String,
    port: u16,
    /// `Some` when STARTTLS (or, with `implicit_tls`, TLS from the start) is required.
    tls: Option<TlsParameters>,
    implicit_tls: bool,
    credentials: Option<Credentials>,
    hello: ClientId,
}

impl SmtpPeer {
    fn new(transport: &Transport, opts: &DeliveryOptions) -> Result<SmtpPeer> {
        let Transport::Smtp {
            host,
            port,
            starttls,
            user,
            password,
            implicit_tls,
            password_command,
            ..
        } = transport
        else {
            anyhow::bail!("not an SMTP transport: {}", transport.describe());
        };
        check_smtp_auth(transport).map_err(anyhow::Error::msg)?;
        let tls = if *starttls || *implicit_tls {
            let mut tls = TlsParameters::builder(host.clone());
            for pem in &opts.extra_root_certs_pem {
                let cert = Certificate::from_pem(pem)
                    .map_err(|e| anyhow::anyhow!("extra root certificate is not valid PEM: {e}"))?;
                tls = tls.add_root_certificate(cert);
            }
            Some(tls.build().map_err(|e| {
                anyhow::anyhow!("cannot set up TLS for {}: {e}", transport.describe())
            })?)
        } else {
            None
        };
        let credentials = match (user, password, password_command) {
            (Some(u), Some(p), None) => Some(Credentials::new(u.clone(), p.clone())),
            (Some(u), None, Some(c)) => Some(Credentials::new(u.clone(), run_password_command(c)?)),
            (None, None, None) => None,
            _ => anyhow::bail!(
                "{}: give both user and password for SMTP AUTH, or neither",
                transport.describe()
            ),
        };
        Ok(SmtpPeer {
            host: host.clone(),
            port: *port,
            tls,
            implicit_tls: *implicit_tls,
            credentials,
            hello: ClientId::default(),
        })
    }

    /// Connects, says EHLO, then STARTTLS and AUTH when configured.
    fn connect(&self) -> Result<SmtpConnection, String> {
        let mut conn = SmtpConnection::connect(
            (self.host.as_str(), self.port),
            Some(SMTP_TIMEOUT),
            &self.hello,
            self.tls.as_ref().filter(|_| self.implicit_tls),
            None,
        )
        .map_err(|e| format!("cannot connect: {e}"))?;
        if let Some(tls) = self.tls.as_ref().filter(|_| !self.implicit_tls) {
            if let Err(e) = conn.starttls(tls, &self.hello) {
                conn.abort();
                return Err(format!("STARTTLS failed: {e}"));
            }
        }
        if let Some(credentials) = &self.credentials {
            if let Err(e) = conn.auth(&[Mechanism::Plain, Mechanism::Login], credentials) {
                conn.abort();
                return Err(format!("AUTH failed: {e} (check user and password, and that the server offers AUTH PLAIN or LOGIN)"));
            }
        }
        Ok(conn)
    }
}

/// Why one mail was not sent over SMTP.
enum SendError {
    /// Refused before anything was sent for it (bad envelope, a feature the server lacks): the
    /// connection is still good.
    Refused(String),
    /// Failed during the SMTP transaction: the connection is in an unknown state.
    Session(String),
}

/// One mail over `conn`: MAIL, RCPT per recipient, DATA, then the body and its terminator in
/// one write ([`DataBody`]). MAIL/RCPT/DATA each wait for their reply (no PIPELINING).
fn smtp_send(conn: &mut SmtpConnection, d: &Due) -> Result<(), SendError> {
    let eml = d.eml().map_err(SendError::Refused)?;
    let from: Address = d
        .env
        .from
        .parse()
        .map_err(|e| SendError::Refused(format!("envelope sender {:?}: {e}", d.env.from)))?;
    let to = d
        .env
        .to
        .iter()
        .map(|a| {
            a.parse::<Address>()
                .map_err(|e| SendError::Refused(format!("envelope recipient {a:?}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if to.is_empty() {
        return Err(SendError::Refused(
            "the envelope has no recipient: queue the mail again".to_string(),
        ));
    }
    // lettre's SmtpConnection::send: SMTPUTF8 for non-ASCII addresses, 8BITMIME for a non-ASCII
    // body, each only when the server offers it.
    let mut params = Vec::new();
    let non_ascii_address = !d.env.from.is_ascii() || d.env.to.iter().any(|a| !a.is_ascii());
    if non_ascii_address {
        if !conn.server_info().supports_feature(Extension::SmtpUtfEight) {
            return Err(SendError::Refused(
                "an envelope address is not ASCII and the server does not offer SMTPUTF8: \
                 use an ASCII address or a server with SMTPUTF8"
                    .to_string(),
            ));
        }
        params.push(MailParameter::SmtpUtfEight);
    }
    if !eml.is_ascii() {
        if !conn.server_info().supports_feature(Extension::EightBitMime) {
            return Err(SendError::Refused(
                "the message is not ASCII and the server does not offer 8BITMIME: use a \
                 server with 8BITMIME"
                    .to_string(),
            ));
        }
        params.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    let session =
        |what: &str, e: lettre::transport::smtp::Error| SendError::Session(format!("{what}: {e}"));
    conn.command(MailCommand::new(Some(from), params))
        .map_err(|e| session("MAIL FROM refused", e))?;
    for rcpt in to {
        conn.command(Rcpt::new(rcpt, Vec::new()))
            .map_err(|e| session("RCPT TO refused", e))?;
    }
    conn.command(Data).map_err(|e| session("DATA refused", e))?;
    match std::str::from_utf8(&eml) {
        Ok(text) => conn.command(DataBody(text)),
        // Never rendered by the outbox (its .eml files are UTF-8); lettre's own path still sends
        // such bytes correctly, only with the terminator in a write of its own.
        Err(_) => conn.message(&eml),
    }
    .map_err(|e| session("message refused", e))?;
    Ok(())
}

/// The DATA payload of one mail, written by `Display` so that [`SmtpConnection::command`] sends
/// it in one write: every line ends in CRLF (a bare LF counts as a line end), a line starting
/// with '.' gets one more '.' (RFC 5321 section 4.5.2), and the terminating ".\r\n" follows.
struct DataBody<'a>(&'a str);

impl std::fmt::Display for DataBody<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut lines = self.0.split('\n').peekable();
        while let Some(line) = lines.next() {
            if line.is_empty() && lines.peek().is_none() {
                // Nothing after the last line end.
                break;
            }
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.starts_with('.') {
                f.write_str(".")?;
            }
            f.write_str(line)?;
            f.write_str("\r\n")?;
        }
        f.write_str(".\r\n")
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

    fn data(body: &str) -> String {
        DataBody(body).to_string()
    }

    #[test]
    fn data_body_dot_stuffs_lines_and_ends_with_one_terminator() {
        assert_eq!(data("a\r\n.\r\nb\r\n"), "a\r\n..\r\nb\r\n.\r\n");
        assert_eq!(data("..x\r\n.y\r\n"), "...x\r\n..y\r\n.\r\n");
        assert_eq!(data("."), "..\r\n.\r\n");
        // A dot that does not start a line is left alone.
        assert_eq!(data("a.b\r\n x.\r\n"), "a.b\r\n x.\r\n.\r\n");
    }

    #[test]
    fn data_body_without_final_crlf_gets_one_before_the_terminator() {
        assert_eq!(data("last line"), "last line\r\n.\r\n");
        assert_eq!(data("a\r\n.end"), "a\r\n..end\r\n.\r\n");
        assert_eq!(data(""), ".\r\n");
        assert_eq!(data("\r\n"), "\r\n.\r\n");
    }

    #[test]
    fn data_body_turns_bare_line_feeds_into_crlf() {
        // A lenient server would take "\n.\n" for the end of data: the dot is stuffed there too.
        assert_eq!(data("a\n.\nb\n"), "a\r\n..\r\nb\r\n.\r\n");
        assert_eq!(data("a\r\n\r\nb"), "a\r\n\r\nb\r\n.\r\n");
    }

    /// Issue 10 finding 4: the linear text parts give the very bytes lettre's own (quadratic)
    /// encoding gives, for every kind of text: short and long lines, bare LF, CRLF, lone CR,
    /// non-ASCII, a leading LF, lines of 74-76 characters (where adding the CR matters).
    #[test]
    fn linear_text_parts_are_byte_identical_to_lettres() {
        let samples = [
            String::new(),
            "\n".to_string(),
            "a\nb\r\nc\rd\n\n".to_string(),
            "x".repeat(74) + "\n" + &"y".repeat(75) + "\n" + &"z".repeat(76),
            "Grüße\nfrom the referee\n".to_string(),
            "é".repeat(500),
            "line\n".repeat(1000),
            "\r\n.\r\n..\n".to_string(),
            "\u{2800}".repeat(80) + "\n",
        ];
        for s in &samples {
            for ct in [ContentType::TEXT_PLAIN, ContentType::TEXT_HTML] {
                let ours = text_part(ct.clone(), s).formatted();
                let lettres = SinglePart::builder().header(ct).body(s.clone()).formatted();
                assert_eq!(
                    String::from_utf8_lossy(&ours),
                    String::from_utf8_lossy(&lettres),
                    "{s:?}"
                );
            }
        }
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
