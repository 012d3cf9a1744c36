//! SMTP: the credential checks, one connection per worker and one mail per transaction.

use super::deliver::Due;
use super::*;
use lettre::address::Address;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{Certificate, SmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail as MailCommand, Rcpt};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};

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
pub(super) struct SmtpPeer {
    host: String,
    port: u16,
    /// `Some` when STARTTLS (or, with `implicit_tls`, TLS from the start) is required.
    tls: Option<TlsParameters>,
    implicit_tls: bool,
    credentials: Option<Credentials>,
    hello: ClientId,
}

impl SmtpPeer {
    pub(super) fn new(transport: &Transport, opts: &DeliveryOptions) -> Result<SmtpPeer> {
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
    pub(super) fn connect(&self) -> Result<SmtpConnection, String> {
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
pub(super) enum SendError {
    /// Refused before anything was sent for it (bad envelope, a feature the server lacks): the
    /// connection is still good.
    Refused(String),
    /// Failed during the SMTP transaction: the connection is in an unknown state.
    Session(String),
}

/// One mail over `conn`: MAIL, RCPT per recipient, DATA, then the body and its terminator in
/// one write ([`DataBody`]). MAIL/RCPT/DATA each wait for their reply (no PIPELINING).
pub(super) fn smtp_send(conn: &mut SmtpConnection, d: &Due) -> Result<(), SendError> {
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
}
