//! A real SMTP server for tests: `python3 -m aiosmtpd` on a loopback port, storing every mail it
//! accepts in a Maildir. Use with `use crate::support::smtp;`.
//!
//! aiosmtpd is installed by `bash scripts/test.sh`; without it the helper panics (tests never skip).
#![allow(dead_code)]

use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// STARTTLS + AUTH settings of a server started with [`SmtpServer::start_tls_auth`].
struct TlsAuth {
    cert: PathBuf,
    key: PathBuf,
    user: String,
    password: String,
}

pub struct SmtpServer {
    port: u16,
    dir: tempfile::TempDir,
    child: Option<Child>,
    tls: Option<TlsAuth>,
}

// aiosmtpd's CLI cannot set an authenticator, so the STARTTLS + AUTH server is this script.
const TLS_AUTH_SERVER: &str = r#"
import ssl, sys, time
from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult, LoginPassword
host, port, maildir, cert, key, user, password = sys.argv[1:8]
def check(server, session, envelope, mechanism, data):
    ok = (isinstance(data, LoginPassword) and data.login == user.encode()
          and data.password == password.encode())
    # handled=False: the server sends the 535 reply itself (True would leave the client hanging).
    return AuthResult(success=ok, handled=False)
ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
ctx.load_cert_chain(cert, key)
c = Controller(Mailbox(maildir), hostname=host, port=int(port), tls_context=ctx,
               require_starttls=True, authenticator=check, auth_required=True,
               auth_require_tls=True)
c.start()
print("ready", flush=True)
while True:
    time.sleep(3600)
"#;

fn require_aiosmtpd() {
    let ok = Command::new("python3")
        .args(["-c", "import aiosmtpd"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        ok,
        "python3 cannot import aiosmtpd, which the SMTP tests need: run `bash scripts/test.sh` \
         (it installs aiosmtpd) or `python3 -m pip install aiosmtpd`"
    );
}

/// A port that was free a moment ago.
pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    l.local_addr().expect("local addr").port()
}

impl SmtpServer {
    /// Plain SMTP on a free loopback port.
    pub fn start() -> SmtpServer {
        SmtpServer::start_on(free_port())
    }

    /// Plain SMTP on `port`.
    pub fn start_on(port: u16) -> SmtpServer {
        require_aiosmtpd();
        let mut s = SmtpServer {
            port,
            dir: tempfile::tempdir().expect("temp dir for the SMTP mailbox"),
            child: None,
            tls: None,
        };
        s.restart();
        s
    }

    /// STARTTLS required, AUTH (PLAIN/LOGIN) required with `user`/`password`, on a free port.
    /// The self-signed certificate (SAN 127.0.0.1, CA:FALSE) is made with `openssl`; its PEM is
    /// [`SmtpServer::cert_pem`].
    pub fn start_tls_auth(user: &str, password: &str) -> SmtpServer {
        require_aiosmtpd();
        let dir = tempfile::tempdir().expect("temp dir for the SMTP mailbox");
        let cert = dir.path().join("cert.pem");
        let key = dir.path().join("key.pem");
        let out = Command::new("openssl")
            .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
            .args(["ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"])
            .args(["-subj", "/CN=127.0.0.1"])
            .args(["-addext", "subjectAltName=IP:127.0.0.1"])
            .args(["-addext", "basicConstraints=critical,CA:FALSE"])
            .arg("-keyout")
            .arg(&key)
            .arg("-out")
            .arg(&cert)
            .output()
            .expect("run openssl (install it: apt-get install openssl)");
        assert!(
            out.status.success(),
            "openssl could not make a test certificate: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut s = SmtpServer {
            port: free_port(),
            dir,
            child: None,
            tls: Some(TlsAuth {
                cert,
                key,
                user: user.to_string(),
                password: password.to_string(),
            }),
        };
        s.restart();
        s
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// PEM of the server certificate (STARTTLS servers only).
    pub fn cert_pem(&self) -> Vec<u8> {
        let t = self.tls.as_ref().expect("cert_pem: not a STARTTLS server");
        std::fs::read(&t.cert).expect("read the test certificate")
    }

    fn maildir(&self) -> PathBuf {
        self.dir.path().join("mail")
    }

    /// Every mail the server accepted so far (raw, as stored, with aiosmtpd's X-MailFrom and
    /// X-RcptTo headers), sorted by content so the order is stable. Survives stop/restart.
    pub fn messages(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            let Ok(rd) = std::fs::read_dir(self.maildir().join(sub)) else {
                continue;
            };
            for e in rd.flatten() {
                if let Ok(bytes) = std::fs::read(e.path()) {
                    out.push(bytes);
                }
            }
        }
        out.sort();
        out
    }

    /// Takes the server down (kill + wait); the stored mails stay.
    pub fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        // Wait until the port refuses connections, so a test sees a down server at once.
        let deadline = Instant::now() + Duration::from_secs(5);
        while TcpStream::connect(("127.0.0.1", self.port)).is_ok() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Brings the server (back) up on the same port with the same mailbox.
    pub fn restart(&mut self) {
        self.stop();
        let maildir = self.maildir();
        let mut cmd = Command::new("python3");
        match &self.tls {
            None => {
                cmd.args(["-m", "aiosmtpd", "-n", "-l"])
                    .arg(format!("127.0.0.1:{}", self.port))
                    .args(["-c", "aiosmtpd.handlers.Mailbox"])
                    .arg(&maildir);
            }
            Some(t) => {
                cmd.args(["-c", TLS_AUTH_SERVER, "127.0.0.1"])
                    .arg(self.port.to_string())
                    .arg(&maildir)
                    .arg(&t.cert)
                    .arg(&t.key)
                    .arg(&t.user)
                    .arg(&t.password);
            }
        }
        // stderr goes to a file: a pipe nobody drains could block a chatty server.
        let log_path = self.dir.path().join("server.log");
        let log = std::fs::File::create(&log_path).expect("create the SMTP server log");
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("spawn python3 for the SMTP test server");
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                let err = std::fs::read_to_string(&log_path).unwrap_or_default();
                panic!(
                    "the SMTP test server on port {} exited ({status}): {err}",
                    self.port
                );
            }
            if greets(self.port) {
                break;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "the SMTP test server did not answer on port {} within 20 s",
                    self.port
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        self.child = Some(child);
    }

    pub fn maildir_path(&self) -> &Path {
        self.dir.path()
    }
}

/// True when something on `port` sends an SMTP greeting (aiosmtpd binds before it is ready).
fn greets(port: u16) -> bool {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let mut buf = [0u8; 3];
    s.read_exact(&mut buf).is_ok() && &buf == b"220"
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}
