//! Intake hardening (issue 10): what a mail may put into our replies and our memory.
//!
//! No content of any mail may make `run` fail: every address we write to is checked with the
//! parser that will send to it (lettre), every header we build from mail content is bounded
//! and free of control characters, a file in maildir/new is never followed through a symlink
//! nor read beyond the size limit, and strangers (senders with no valid block of a registered
//! key) are answered at most once per address and window ([`StrangerReplies`]).

use crate::outbox::Mail;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

/// The longest Message-ID we thread replies on (RFC 5322 lines stop at 998 characters; a real
/// Message-ID is well under 100).
pub const MAX_MESSAGE_ID: usize = 250;

/// The longest text of a stranger's mail a refusal may quote (a game id, a seq value…).
pub const MAX_EXCERPT: usize = 64;

/// The longest reason a refusal to an unproven sender carries.
pub const MAX_STRANGER_REASON: usize = 400;

/// True when we can send to `addr`: one bare `local@domain` that lettre (the outbox's parser)
/// accepts, with a dot-atom local part of at most 64 characters and a host name whose labels
/// do not start or end with `-` and which does not end with a dot.
pub fn sendable_address(addr: &str) -> bool {
    let Some((local, domain)) = addr.rsplit_once('@') else {
        return false;
    };
    // Letters may be non-ASCII (internationalised addresses); lettre has the last word.
    let atext = |c: char| c.is_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c);
    let local_ok = (1..=64).contains(&local.len())
        && local
            .split('.')
            .all(|w| !w.is_empty() && w.chars().all(atext));
    let label_ok = |l: &str| {
        (1..=63).contains(&l.len())
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    let domain_ok = domain.len() <= 253 && domain.split('.').all(label_ok);
    local_ok
        && domain_ok
        && addr.len() <= 254
        && addr.parse::<lettre::Address>().is_ok()
        && addr.parse::<lettre::message::Mailbox>().is_ok()
}

/// A Message-ID safe to thread on (In-Reply-To / References), or None: at most
/// [`MAX_MESSAGE_ID`] printable ASCII characters, none of them `<>()",;\` or space.
pub fn sane_message_id(id: &str) -> Option<String> {
    let ok = !id.is_empty()
        && id.len() <= MAX_MESSAGE_ID
        && id
            .chars()
            .all(|c| c.is_ascii_graphic() && !"<>()\",;\\".contains(c));
    ok.then(|| id.to_string())
}

/// A short, printable excerpt of text from a mail: control characters and invisible
/// separators become spaces, at most `max` characters, `…` when cut.
pub fn excerpt(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .map(|c| {
            if c.is_control() || c.is_whitespace() || c == '\u{2800}' {
                ' '
            } else {
                c
            }
        })
        .take(max)
        .collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// Why the outbox would refuse to render `mail`'s headers, checked before queueing so that
/// such a mail is dropped (with a warning) instead of failing the run. Mirrors the outbox's
/// own checks: lettre parses every address; no header carries a control character.
pub fn unsendable(mail: &Mail) -> Option<String> {
    let bad_addr = |a: &str| a.parse::<lettre::message::Mailbox>().is_err();
    if mail.to.is_empty() {
        return Some("it has no recipient".into());
    }
    if let Some(a) = mail.to.iter().find(|a| bad_addr(a)) {
        return Some(format!(
            "its recipient `{}` is not an address the outbox can send to",
            excerpt(a, MAX_EXCERPT)
        ));
    }
    let control = |s: &str| s.chars().any(|c| c.is_control() && c != '\t');
    let threading = mail.in_reply_to.iter().chain(mail.references.iter());
    if control(&mail.subject)
        || threading.clone().any(|s| control(s))
        || mail.headers.iter().any(|(_, v)| control(v))
    {
        return Some("a header holds a control character".into());
    }
    if threading.clone().any(|s| s.len() > MAX_MESSAGE_ID + 2) {
        return Some("its In-Reply-To or References is too long".into());
    }
    None
}

/// `mail` without threading headers the outbox would refuse or that make over-long lines (an
/// old ledger may hold such a Message-ID): the answer is sent, only not threaded.
pub fn without_bad_threading(mail: &Mail) -> Option<Mail> {
    let bad =
        |s: &String| s.len() > MAX_MESSAGE_ID + 2 || s.chars().any(|c| c.is_control() || c == ' ');
    if !mail.in_reply_to.iter().chain(&mail.references).any(bad) {
        return None;
    }
    let mut m = mail.clone();
    m.in_reply_to = None;
    m.references.clear();
    Some(m)
}

/// A file of maildir/new that is not read: a symlink, a special file, or one over the limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unread {
    /// Not a regular file (a symlink is never followed): moved to rejected/.
    NotAFile(String),
    /// Over `max_mail_bytes`: moved to rejected/ without being read.
    TooBig(u64),
    /// The file could not be read (it vanished, permissions): left where it is.
    Io(String),
}

/// Reads one mail of maildir/new: its size is checked from its own metadata first (never
/// following a symlink), and at most `max + 1` bytes are read even if it grows meanwhile.
pub fn read_mail_file(path: &Path, max: usize) -> Result<Vec<u8>, Unread> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| Unread::Io(e.to_string()))?;
    let ft = meta.file_type();
    if !ft.is_file() {
        return Err(Unread::NotAFile(
            if ft.is_symlink() {
                "a symbolic link (never followed in maildir/new)"
            } else {
                "not a regular file"
            }
            .into(),
        ));
    }
    if meta.len() > max as u64 {
        return Err(Unread::TooBig(meta.len()));
    }
    let f = open_no_follow(path).map_err(|e| Unread::Io(e.to_string()))?;
    let mut buf = Vec::with_capacity(meta.len() as usize);
    f.take(max as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Unread::Io(e.to_string()))?;
    if buf.len() > max {
        return Err(Unread::TooBig(buf.len() as u64));
    }
    Ok(buf)
}

/// The name a processed mail gets in maildir/cur: Maildir readers (mutt, dovecot, the
/// `maildir` crate) expect `NAME:2,FLAGS` there. A name that already carries `:2,…` keeps it
/// (its flags are the deliverer's); any other gets `:2,S` (seen: the referee has read it).
///
/// Why not the `maildir` crate for listing new/ and moving to cur/: its `list_new` returns
/// symlinks and directories alike and reads a mail whole through `File::open` (which follows
/// symlinks), so the size and symlink checks of [`read_mail_file`] would stay ours anyway; its
/// `move_new_to_cur_with_flags` renames `new/<id>` with the id cut before `:2,`, which fails
/// for a name that already carries an info suffix (a mail moved back from cur/ for a re-run),
/// and it reads names lossily as UTF-8; the move must also wait for the commit (one rename per
/// mail after the sync, `commit` in src/pipeline/mod.rs). What is left to do is this suffix.
pub fn cur_name(name: &std::ffi::OsStr) -> std::ffi::OsString {
    use std::os::unix::ffi::OsStrExt;
    let mut out = name.to_os_string();
    if !name.as_bytes().windows(3).any(|w| w == b":2,") {
        out.push(":2,S");
    }
    out
}

/// Opens without following a symlink swapped in after the metadata check.
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(path)
}

/// How often strangers (no valid block of a registered key) are answered: config
/// `stranger_replies`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum StrangerPolicy {
    /// At most one refusal per address per 24 hours (the default).
    #[default]
    OncePerDay,
    /// Never: strangers' mails are only logged (rejected/ and the run's warnings).
    Never,
}

/// The state file of [`StrangerReplies`] in the home.
pub const STRANGERS_FILE: &str = "strangers.json";

/// The addresses of strangers answered lately, with the time and the id of that answer: read
/// at the start of a run, written (atomically) before each of its commits, so the mails a commit
/// releases are never ahead of the file. The answer's id makes a run interrupted and run again
/// answer exactly as before: the same answer may be queued again (the outbox keeps one per
/// id), no other. Entries older than a day are dropped on write.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct StrangerReplies {
    #[serde(default)]
    answered: BTreeMap<String, Answered>,
    #[serde(skip)]
    changed: bool,
}

/// One stranger's last answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Answered {
    at: String,
    mail: String,
}

impl StrangerReplies {
    /// Reads `<home>/strangers.json`; a missing or unreadable file is an empty one (the worst
    /// case is one more answer).
    pub fn load(home: &Path) -> StrangerReplies {
        std::fs::read(home.join(STRANGERS_FILE))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// May a stranger at `addr` get the answer `mail_id` now? Yes when not answered in the
    /// last 24 hours (the answer is recorded), or when `mail_id` is that very answer.
    pub fn may_answer(
        &mut self,
        policy: StrangerPolicy,
        addr: &str,
        now: DateTime<Utc>,
        mail_id: &str,
    ) -> bool {
        if policy == StrangerPolicy::Never {
            return false;
        }
        let key = addr.to_ascii_lowercase();
        if let Some(a) = self.answered.get(&key).filter(|a| recent(&a.at, now)) {
            return a.mail == mail_id;
        }
        self.answered.insert(
            key,
            Answered {
                at: now.to_rfc3339(),
                mail: mail_id.to_string(),
            },
        );
        self.changed = true;
        true
    }

    /// Writes the file (temporary file, then rename) when something changed.
    pub fn save(&mut self, home: &Path, now: DateTime<Utc>) -> std::io::Result<()> {
        if !self.changed {
            return Ok(());
        }
        self.answered.retain(|_, a| recent(&a.at, now));
        let tmp = home.join(format!("{STRANGERS_FILE}.tmp"));
        let bytes = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(&tmp, bytes)?;
        std::fs::rename(&tmp, home.join(STRANGERS_FILE))?;
        self.changed = false;
        Ok(())
    }
}

/// True when `at` is less than 24 hours before `now`.
fn recent(at: &str, now: DateTime<Utc>) -> bool {
    DateTime::parse_from_rfc3339(at)
        .is_ok_and(|t| now.signed_duration_since(t) < Duration::hours(24))
}

/// The largest end-of-game attachment (the gzip-compressed ledger), in bytes: most mail
/// systems refuse mails over 10 MB, and base64 adds a third.
pub const MAX_LEDGER_ATTACHMENT: usize = 5 << 20;

/// The ledger gzip-compressed, when that fits under [`MAX_LEDGER_ATTACHMENT`].
pub fn compressed_ledger(log: &[u8]) -> Option<Vec<u8>> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(log).ok()?;
    let gz = enc.finish().ok()?;
    (gz.len() <= MAX_LEDGER_ATTACHMENT).then_some(gz)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_lettre_refuses_are_not_sendable() {
        let long = format!("{}@example.org", "a".repeat(65));
        for a in [
            long.as_str(),
            "a..b@example.org",
            ".a@example.org",
            "a@-x.org",
            "a@b@example.org",
            "referee@example.org.",
            "\"referee\"@example.org",
            "a b@example.org",
            "a@",
            "@x.org",
        ] {
            assert!(!sendable_address(a), "{a}");
        }
        for a in [
            "ann@example.org",
            "a.b+c@mail.example.org",
            "x@localhost",
            "jörg@bücher.example",
        ] {
            assert!(sendable_address(a), "{a}");
        }
    }

    #[test]
    fn cur_names_carry_one_info_suffix() {
        let n = |s: &str| cur_name(std::ffi::OsStr::new(s)).into_string().unwrap();
        assert_eq!(n("1700000000.M1P2.host"), "1700000000.M1P2.host:2,S");
        assert_eq!(n("1.mail:2,S"), "1.mail:2,S");
        assert_eq!(n("x:2,FR"), "x:2,FR");
    }

    #[test]
    fn message_ids_are_bounded() {
        assert_eq!(sane_message_id("m1@x").as_deref(), Some("m1@x"));
        assert_eq!(sane_message_id(&"a".repeat(10_000)), None);
        assert_eq!(sane_message_id("a b@x"), None);
        assert_eq!(sane_message_id("a\u{1}@x"), None);
    }

    #[test]
    fn a_stranger_gets_one_answer_a_day_and_the_same_one_again_after_a_crash() {
        let t = |h: u32| {
            DateTime::parse_from_rfc3339(&format!("2026-01-0{}T{:02}:00:00Z", 1 + h / 24, h % 24))
                .unwrap()
                .with_timezone(&Utc)
        };
        let mut s = StrangerReplies::default();
        let p = StrangerPolicy::OncePerDay;
        assert!(s.may_answer(p, "Eve@x.org", t(0), "a"));
        assert!(s.may_answer(p, "eve@x.org", t(1), "a"), "the same answer");
        assert!(!s.may_answer(p, "eve@x.org", t(2), "b"));
        assert!(s.may_answer(p, "eve@x.org", t(25), "b"), "a day later");
        assert!(!s.may_answer(StrangerPolicy::Never, "bob@x.org", t(0), "c"));
    }

    #[test]
    fn excerpts_are_short_and_printable() {
        assert_eq!(excerpt("g-\u{1}x", 10), "g- x");
        assert_eq!(excerpt(&"\u{2800}".repeat(100), 3), "   …");
    }
}
