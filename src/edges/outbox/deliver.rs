//! Delivery passes: due mails to the configured transport (SMTP, sendmail, file), then into
//! `sent/`.

use super::smtp::{smtp_send, SendError, SmtpPeer};
use super::*;
use lettre::address::Address;
use lettre::transport::smtp::client::SmtpConnection;

/// One due mail handed to a delivery worker.
pub(super) struct Due {
    pub(super) env: Envelope,
    /// Read when its turn comes: a backlog of thousands of mails with pictures must not be
    /// held in memory at once.
    pub(super) eml_path: PathBuf,
}

impl Due {
    pub(super) fn eml(&self) -> Result<Vec<u8>, String> {
        fs::read(&self.eml_path).map_err(|e| {
            format!(
                "cannot read {} ({e}); queue the mail again",
                self.eml_path.display()
            )
        })
    }
}

impl Outbox {
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
