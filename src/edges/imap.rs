//! IMAP intake for `run --imap` (DESIGN §3, docs/imap.md): the `[imap]` settings of config.toml,
//! the download of a folder's messages into `maildir/new` under names made of UIDVALIDITY and
//! UID (so a message fetched before a crash is recognised), and the move of processed messages
//! out of the folder, which the pipeline asks for only after its run committed.
//!
//! Client: the `imap` crate (blocking, rustls as lettre), so no async runtime and no OpenSSL.

use serde::{Deserialize, Serialize};
use std::io::Write;
use std::net::{TcpStream, ToSocketAddrs};
use std::path::Path;
use std::time::Duration;

/// How the connection is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImapTls {
    /// TLS from the first byte (port 993).
    Tls,
    /// Plain, then STARTTLS before the login (port 143).
    Starttls,
    /// No TLS at all: only for a server on this machine (the password would cross the network
    /// in the clear).
    None,
}

/// The `[imap]` table of config.toml. Every field is optional for serde, so a missing one is
/// answered by [`ImapSettings::check`] with the lines to write, not by a bare parser error.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImapSettings {
    pub host: Option<String>,
    /// Default: 993 with `tls`, 143 otherwise.
    pub port: Option<u16>,
    /// `tls` (default), `starttls` or `none`: checked by [`ImapSettings::check`], so a wrong
    /// word is answered with the lines to write.
    pub tls: Option<String>,
    pub user: Option<String>,
    pub password: Option<String>,
    /// A command run with `sh -c`; its first stdout line is the password.
    pub password_command: Option<String>,
    /// The folder new mail arrives in (default INBOX).
    pub folder: Option<String>,
    /// Where routed mails go after the run committed (default `dustmail/processed`; `/`
    /// separates levels whatever the server's own separator), created if missing.
    pub processed: Option<String>,
    /// Where mails that reached no game go (default `dustmail/rejected`).
    pub rejected: Option<String>,
}

/// The `[imap]` lines a referee adds to config.toml (shown by every settings error).
pub const IMAP_EXAMPLE: &str = "[imap]\n\
host = \"imap.example.org\"\n\
port = 993\n\
# \"tls\" (port 993), \"starttls\" (port 143), or \"none\" (only for a server on this machine)\n\
tls = \"tls\"\n\
user = \"referee@example.org\"\n\
# a command whose first output line is the password (or password = \"...\")\n\
password_command = \"pass show mail/referee\"\n\
# folder = \"INBOX\"\n\
# processed = \"dustmail/processed\"\n\
# rejected = \"dustmail/rejected\"\n";

pub const DEFAULT_FOLDER: &str = "INBOX";
pub const DEFAULT_PROCESSED: &str = "dustmail/processed";
pub const DEFAULT_REJECTED: &str = "dustmail/rejected";

/// Why IMAP intake could not start or finish.
#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    /// The settings are missing or unusable (exit 2, with the lines to write).
    #[error("{0}")]
    Settings(String),
    /// The server or the network failed.
    #[error("{0}")]
    Server(String),
    /// The local Maildir could not be written.
    #[error("{0}")]
    Local(String),
}

fn settings_error(what: &str) -> ImapError {
    ImapError::Settings(format!(
        "{what}: `run --imap` reads its mailbox from the [imap] table of config.toml; add (or fix) lines like these:\n\n{IMAP_EXAMPLE}"
    ))
}

/// True for a host name that can only be this machine.
pub fn is_loopback(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    h.eq_ignore_ascii_case("localhost")
        || h.parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Settings checked, with defaults filled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImapTarget {
    pub host: String,
    pub port: u16,
    pub tls: ImapTls,
    pub user: String,
    pub password: Option<String>,
    pub password_command: Option<String>,
    pub folder: String,
    pub processed: String,
    pub rejected: String,
}

impl ImapSettings {
    /// The settings of `[imap]` (None: no such table), checked.
    pub fn check(s: Option<&ImapSettings>) -> Result<ImapTarget, ImapError> {
        let Some(s) = s else {
            return Err(settings_error("config.toml has no [imap] table"));
        };
        let host = match s.host.as_deref().map(str::trim) {
            Some(h) if !h.is_empty() => h.to_string(),
            _ => return Err(settings_error("[imap] has no host")),
        };
        let tls = match s.tls.as_deref().map(str::trim) {
            None | Some("tls") => ImapTls::Tls,
            Some("starttls") => ImapTls::Starttls,
            Some("none") => ImapTls::None,
            Some(other) => {
                return Err(settings_error(&format!(
                    "[imap] tls = {other:?}: write \"tls\", \"starttls\" or \"none\""
                )))
            }
        };
        if tls == ImapTls::None && !is_loopback(&host) {
            return Err(settings_error(&format!(
                "[imap] tls = \"none\" is allowed only for a server on this machine (localhost, 127.0.0.1, ::1), not `{host}`: the password would cross the network in the clear; use tls = \"tls\" or \"starttls\""
            )));
        }
        let user = match s.user.as_deref() {
            Some(u) if !u.is_empty() => u.to_string(),
            _ => return Err(settings_error("[imap] has no user")),
        };
        match (&s.password, &s.password_command) {
            (Some(_), Some(_)) => {
                return Err(settings_error(
                    "[imap] has both password and password_command: keep only one of them",
                ))
            }
            (None, None) => {
                return Err(settings_error(
                    "[imap] has neither password nor password_command",
                ))
            }
            _ => {}
        }
        if s.port == Some(0) {
            return Err(settings_error("[imap] port = 0 is not a port"));
        }
        let name = |v: &Option<String>, default: &str, key: &str| match v.as_deref() {
            None => Ok(default.to_string()),
            Some(f) if f.trim().is_empty() || f.trim() != f => Err(settings_error(&format!(
                "[imap] {key} = {f:?} is not a folder name"
            ))),
            Some(f) => Ok(f.to_string()),
        };
        let folder = name(&s.folder, DEFAULT_FOLDER, "folder")?;
        let processed = name(&s.processed, DEFAULT_PROCESSED, "processed")?;
        let rejected = name(&s.rejected, DEFAULT_REJECTED, "rejected")?;
        if processed == folder || rejected == folder {
            return Err(settings_error(&format!(
                "[imap] processed and rejected must differ from folder ({folder}): processed mail would be fetched again"
            )));
        }
        Ok(ImapTarget {
            port: s.port.unwrap_or(match tls {
                ImapTls::Tls => 993,
                _ => 143,
            }),
            host,
            tls,
            user,
            password: s.password.clone(),
            password_command: s.password_command.clone(),
            folder,
            processed,
            rejected,
        })
    }
}

/// Runs `password_command` with `sh -c`; its first stdout line is the password.
fn password_of(t: &ImapTarget) -> Result<String, ImapError> {
    if let Some(p) = &t.password {
        return Ok(p.clone());
    }
    let command = t.password_command.as_deref().unwrap_or_default();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| {
            ImapError::Settings(format!("[imap] password_command could not be run ({e})"))
        })?;
    if !out.status.success() {
        return Err(ImapError::Settings(format!(
            "[imap] password_command `{command}` failed ({}): {}; fix the command or the store it reads",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let text = String::from_utf8(out.stdout).map_err(|_| {
        ImapError::Settings(format!(
            "[imap] password_command `{command}` printed a password that is not UTF-8"
        ))
    })?;
    Ok(text.lines().next().unwrap_or_default().to_string())
}

/// The Maildir file name of a message: the mailbox (a digest of host, user and folder, so
/// another account never matches), UIDVALIDITY and UID, the UID zero-padded so names sort in
/// arrival order (the pipeline processes new/ sorted by name).
pub fn file_name(t: &ImapTarget, uid_validity: u32, uid: u32) -> String {
    let tag = crate::pbem::ledger::sha256_hex(
        format!("{}\n{}\n{}\n{}", t.host, t.port, t.user, t.folder).as_bytes(),
    );
    format!("imap.{}.{uid_validity}.{uid:010}", &tag[..8])
}

/// Read, write and connect timeout of the IMAP socket: a server that stops answering ends the
/// run with an error instead of holding the home's lock for ever.
const NET_TIMEOUT: Duration = Duration::from_secs(60);

/// The connection, greeting read (and STARTTLS done), with the socket's timeouts set before
/// any TLS is layered on it.
fn connect(t: &ImapTarget) -> Result<imap::Client<imap::Connection>, ImapError> {
    let at = format!("{}:{}", t.host, t.port);
    let fail = |what: &str, e: &dyn std::fmt::Display| {
        ImapError::Server(format!(
            "IMAP server {at}: {what}: {e} (check host, port and tls in [imap])"
        ))
    };
    let host = t.host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<_> = (host, t.port)
        .to_socket_addrs()
        .map_err(|e| fail("cannot resolve the host", &e))?
        .collect();
    let mut last: Option<std::io::Error> = None;
    let tcp = addrs
        .iter()
        .find_map(|a| match TcpStream::connect_timeout(a, NET_TIMEOUT) {
            Ok(s) => Some(s),
            Err(e) => {
                last = Some(e);
                None
            }
        })
        .ok_or_else(|| match &last {
            Some(e) => fail("cannot connect", e),
            None => fail("cannot connect", &"the host has no address"),
        })?;
    for r in [
        tcp.set_read_timeout(Some(NET_TIMEOUT)),
        tcp.set_write_timeout(Some(NET_TIMEOUT)),
    ] {
        r.map_err(|e| fail("cannot set the socket's timeouts", &e))?;
    }
    let tls = |tcp: TcpStream| -> Result<imap::Connection, ImapError> {
        let connector = rustls_connector::RustlsConnector::new_with_native_certs()
            .map_err(|e| fail("cannot read the system's certificates", &e))?;
        let s = connector
            .connect(host, tcp)
            .map_err(|e| fail("TLS handshake failed", &e))?;
        Ok(Box::new(s))
    };
    let greet = |c: &mut imap::Client<imap::Connection>| {
        c.read_greeting()
            .map(drop)
            .map_err(|e| fail("no IMAP greeting", &e))
    };
    match t.tls {
        ImapTls::None => {
            let mut c = imap::Client::new(Box::new(tcp) as imap::Connection);
            greet(&mut c)?;
            Ok(c)
        }
        ImapTls::Tls => {
            let mut c = imap::Client::new(tls(tcp)?);
            greet(&mut c)?;
            Ok(c)
        }
        ImapTls::Starttls => {
            let mut tcp = tcp;
            starttls(&mut tcp).map_err(|e| match e {
                Plain::NoStarttls => ImapError::Settings(format!(
                    "IMAP server {at} offers no STARTTLS: use tls = \"tls\" (port 993) in [imap]"
                )),
                Plain::Failed(e) => fail("STARTTLS failed", &e),
            })?;
            let mut c = imap::Client::new(tls(tcp)?);
            // After STARTTLS the server sends no second greeting.
            c.greeting_read = true;
            Ok(c)
        }
    }
}

enum Plain {
    NoStarttls,
    Failed(String),
}

/// Greeting, CAPABILITY and STARTTLS on the plain socket (the `imap` crate keeps its STARTTLS to
/// its own connector, which sets no timeouts). Only short lines are read.
fn starttls(tcp: &mut TcpStream) -> Result<(), Plain> {
    use std::io::Read;
    let io = |e: std::io::Error| Plain::Failed(e.to_string());
    // One byte at a time: nothing after the STARTTLS reply may be buffered away from the TLS
    // handshake.
    let line = |tcp: &mut TcpStream| -> Result<String, Plain> {
        let mut l = Vec::new();
        let mut b = [0u8; 1];
        while !l.ends_with(b"\n") {
            if l.len() > 8192 || tcp.read(&mut b).map_err(io)? == 0 {
                return Err(Plain::Failed("the server's reply line was cut".into()));
            }
            l.push(b[0]);
        }
        Ok(String::from_utf8_lossy(&l).into_owned())
    };
    let tagged = |tcp: &mut TcpStream, tag: &str, cmd: &str| -> Result<Vec<String>, Plain> {
        tcp.write_all(format!("{tag} {cmd}\r\n").as_bytes())
            .map_err(io)?;
        let mut lines = Vec::new();
        loop {
            let l = line(tcp)?;
            if let Some(rest) = l.strip_prefix(&format!("{tag} ")) {
                if !rest.starts_with("OK") {
                    return Err(Plain::Failed(format!("{cmd}: {}", rest.trim())));
                }
                return Ok(lines);
            }
            lines.push(l);
        }
    };
    let greeting = line(tcp)?;
    if !greeting.starts_with("* OK") {
        return Err(Plain::Failed(format!("greeting {:?}", greeting.trim())));
    }
    let caps = tagged(tcp, "d1", "CAPABILITY")?;
    if !caps.iter().any(|l| {
        l.split_whitespace()
            .any(|w| w.eq_ignore_ascii_case("STARTTLS"))
    }) {
        return Err(Plain::NoStarttls);
    }
    tagged(tcp, "d2", "STARTTLS")?;
    Ok(())
}

/// A logged-in session with the folder selected.
pub struct Mailbox {
    session: imap::Session<imap::Connection>,
    target: ImapTarget,
    pub uid_validity: u32,
    /// The folder's messages at selection, ascending.
    pub uids: Vec<u32>,
}

fn server(t: &ImapTarget, what: &str) -> impl FnOnce(imap::Error) -> ImapError {
    let at = format!("{}:{}", t.host, t.port);
    let what = what.to_string();
    move |e| ImapError::Server(format!("IMAP server {at}: {what}: {e}"))
}

impl Mailbox {
    /// Connects, logs in and selects the folder.
    pub fn open(t: &ImapTarget) -> Result<Mailbox, ImapError> {
        let client = connect(t)?;
        let password = password_of(t)?;
        let mut session = client
            .login(&t.user, &password)
            .map_err(|(e, _)| server(t, "login refused (check user and password in [imap])")(e))?;
        let mb = session
            .select(&t.folder)
            .map_err(server(t, &format!("cannot open folder `{}`", t.folder)))?;
        // RFC 3501 requires UIDVALIDITY; without it a UID names nothing durable.
        let uid_validity = mb.uid_validity.ok_or_else(|| {
            ImapError::Server(format!(
                "IMAP server {}:{}: folder `{}` has no UIDVALIDITY",
                t.host, t.port, t.folder
            ))
        })?;
        let mut uids: Vec<u32> = if mb.exists == 0 {
            Vec::new()
        } else {
            session
                .uid_search("UNDELETED")
                .map_err(server(t, "cannot list the folder"))?
                .into_iter()
                .collect()
        };
        uids.sort_unstable();
        Ok(Mailbox {
            session,
            target: t.clone(),
            uid_validity,
            uids,
        })
    }

    /// Downloads each message of the folder for which `held(name)` is false into
    /// `maildir/new` (written in tmp/, then renamed: new/ never holds half a message). At most
    /// `max_bytes + 1` bytes of a message are fetched: a longer one is refused by the pipeline
    /// as too big all the same. Returns how many were downloaded.
    pub fn download(
        &mut self,
        maildir: &Path,
        max_bytes: usize,
        held: impl Fn(&str) -> bool,
    ) -> Result<usize, ImapError> {
        let tmp = maildir.join("tmp");
        let new = maildir.join("new");
        for d in [&tmp, &new] {
            std::fs::create_dir_all(d)
                .map_err(|e| ImapError::Local(format!("{}: {e}", d.display())))?;
        }
        let wanted: Vec<u32> = self
            .uids
            .iter()
            .copied()
            .filter(|&u| !held(&file_name(&self.target, self.uid_validity, u)))
            .collect();
        let query = format!("(UID BODY.PEEK[]<0.{}>)", max_bytes.saturating_add(1));
        let mut n = 0;
        // Small chunks: each message may be up to max_mail_bytes in memory.
        for chunk in wanted.chunks(16) {
            let set = uid_set(chunk);
            let fetches = self
                .session
                .uid_fetch(&set, &query)
                .map_err(server(&self.target, "cannot fetch messages"))?;
            for f in fetches.iter() {
                let (Some(uid), Some(body)) = (f.uid, f.body()) else {
                    continue;
                };
                if !chunk.contains(&uid) {
                    continue;
                }
                let name = file_name(&self.target, self.uid_validity, uid);
                let part = tmp.join(&name);
                let local =
                    |e: std::io::Error| ImapError::Local(format!("{}: {e}", part.display()));
                let mut file = std::fs::File::create(&part).map_err(local)?;
                file.write_all(body).map_err(local)?;
                drop(file);
                std::fs::rename(&part, new.join(&name)).map_err(local)?;
                n += 1;
            }
        }
        Ok(n)
    }

    /// Moves `uids` to `folder` (`/`-separated; created if missing). UID MOVE where the server
    /// has it (atomic); else COPY, flag \Deleted, expunge those UIDs.
    pub fn move_to(&mut self, uids: &[u32], folder: &str) -> Result<(), ImapError> {
        if uids.is_empty() {
            return Ok(());
        }
        let name = self.server_name(folder)?;
        let listed = self
            .session
            .list(None, Some(&quote(&name)))
            .map_err(server(&self.target, "cannot list folders"))?;
        if listed.is_empty() {
            self.session.create(&name).map_err(server(
                &self.target,
                &format!("cannot create folder `{name}`"),
            ))?;
            // So that mail clients show it; a server without subscriptions changes nothing.
            let _ = self.session.subscribe(&name);
        }
        let caps = self
            .session
            .capabilities()
            .map_err(server(&self.target, "cannot read capabilities"))?;
        let has_move = caps.has_str("MOVE");
        let has_uidplus = caps.has_str("UIDPLUS");
        drop(caps);
        for chunk in uids.chunks(200) {
            let set = uid_set(chunk);
            let what = format!("cannot move processed mail to `{name}`");
            if has_move {
                self.session
                    .uid_mv(&set, &name)
                    .map_err(server(&self.target, &what))?;
                continue;
            }
            self.session
                .uid_copy(&set, &name)
                .map_err(server(&self.target, &what))?;
            self.session
                .uid_store(&set, "+FLAGS.SILENT (\\Deleted)")
                .map_err(server(&self.target, &what))?;
            if has_uidplus {
                self.session
                    .uid_expunge(&set)
                    .map_err(server(&self.target, &what))?;
            }
            // Without UIDPLUS the \Deleted messages are left for the owner's client to expunge
            // (an EXPUNGE here could remove other clients' deleted mail); UNDELETED skips them.
        }
        Ok(())
    }

    /// A `/`-separated folder name in the server's own hierarchy separator.
    fn server_name(&mut self, folder: &str) -> Result<String, ImapError> {
        let names = self
            .session
            .list(Some(""), Some("\"\""))
            .map_err(server(&self.target, "cannot read the folder separator"))?;
        let sep = names.iter().find_map(|n| n.delimiter().map(str::to_string));
        Ok(match sep {
            Some(s) if s != "/" => folder.replace('/', &s),
            _ => folder.to_string(),
        })
    }

    pub fn logout(mut self) {
        // The work is done; a failing LOGOUT changes nothing.
        let _ = self.session.logout();
    }
}

/// `1,2,5` (the UIDs given, in order).
fn uid_set(uids: &[u32]) -> String {
    uids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// An IMAP quoted string (the LIST pattern is sent as given).
fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sort_in_uid_order_and_loopback_is_recognised() {
        let t = ImapSettings::check(Some(&ImapSettings {
            host: Some("127.0.0.1".into()),
            tls: Some("none".into()),
            user: Some("me".into()),
            password: Some("pw".into()),
            ..Default::default()
        }))
        .unwrap();
        assert!(file_name(&t, 7, 9) < file_name(&t, 7, 10));
        assert!(file_name(&t, 7, 12).ends_with(".7.0000000012"));
        for h in ["localhost", "127.0.0.1", "::1", "[::1]", "127.1.2.3"] {
            assert!(is_loopback(h), "{h}");
        }
        for h in ["imap.example.org", "10.0.0.1", "localhost.example.org"] {
            assert!(!is_loopback(h), "{h}");
        }
    }

    #[test]
    fn settings_errors_show_the_lines_to_write() {
        let e = ImapSettings::check(None).unwrap_err().to_string();
        assert!(e.contains("no [imap] table") && e.contains("host = \"imap.example.org\""));
        let s = ImapSettings {
            host: Some("imap.example.org".into()),
            tls: Some("none".into()),
            user: Some("me".into()),
            password: Some("pw".into()),
            ..Default::default()
        };
        let e = ImapSettings::check(Some(&s)).unwrap_err().to_string();
        assert!(
            e.contains("allowed only for a server on this machine"),
            "{e}"
        );
        let s = ImapSettings {
            host: Some("127.0.0.1".into()),
            ..s
        };
        let t = ImapSettings::check(Some(&s)).unwrap();
        assert_eq!((t.port, t.folder.as_str()), (143, "INBOX"));
        assert_eq!(t.processed, DEFAULT_PROCESSED);
    }
}
