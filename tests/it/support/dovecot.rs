//! A real IMAP server for tests: Debian's dovecot, started per test as a normal process on a
//! free loopback port, with its config, a passwd-file user and its mail in a temp dir. Plaintext
//! LOGIN is allowed (loopback only). Works as root (mail owned by the `dovecot` user the package
//! creates) and as a normal user (everything runs as that user; no chroot, which needs root).
//! Use with `use crate::support::dovecot;`.
//!
//! dovecot-imapd is installed by `bash scripts/test.sh`; without it the helper panics (tests
//! never skip).
#![allow(dead_code)]

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const USER: &str = "referee";
pub const PASSWORD: &str = "imap-secret";

pub struct Dovecot {
    port: u16,
    /// With [`Dovecot::start_tls`]: the port of TLS from the first byte (the plain port then
    /// offers STARTTLS).
    imaps_port: Option<u16>,
    dir: tempfile::TempDir,
    child: Child,
}

fn dovecot_binary() -> PathBuf {
    for p in ["/usr/sbin/dovecot", "/usr/local/sbin/dovecot"] {
        if Path::new(p).exists() {
            return PathBuf::from(p);
        }
    }
    panic!(
        "dovecot is not installed, and the IMAP tests need it: run `bash scripts/test.sh` (it \
         installs Debian's dovecot-imapd) or `apt-get install dovecot-imapd`"
    );
}

fn id(args: &[&str]) -> String {
    let o = Command::new("id").args(args).output().expect("run id");
    assert!(o.status.success(), "id {args:?} failed");
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

impl Dovecot {
    /// Starts dovecot on a free loopback port and waits until it answers.
    pub fn start() -> Dovecot {
        Dovecot::start_with(false)
    }

    /// Also TLS: STARTTLS on [`Dovecot::port`], TLS from the first byte on
    /// [`Dovecot::imaps_port`], with a self-signed certificate for 127.0.0.1
    /// ([`Dovecot::cert_path`], made with `openssl`).
    pub fn start_tls() -> Dovecot {
        Dovecot::start_with(true)
    }

    fn start_with(tls: bool) -> Dovecot {
        let bin = dovecot_binary();
        // A port picked by the OS may be taken again before dovecot binds it: try a few.
        let mut last = String::new();
        for _ in 0..5 {
            match Dovecot::try_start(&bin, tls) {
                Ok(d) => return d,
                Err(e) => last = e,
            }
        }
        panic!("dovecot did not start: {last}");
    }

    fn try_start(bin: &Path, tls: bool) -> Result<Dovecot, String> {
        let dir = tempfile::tempdir().expect("temp dir for dovecot");
        let root = dir.path();
        let port = crate::support::smtp::free_port();
        let imaps_port = tls.then(crate::support::smtp::free_port);
        let ssl = match imaps_port {
            None => "ssl = no\n".to_string(),
            Some(_) => {
                make_cert(root);
                format!(
                    "ssl = yes\nssl_cert = <{r}/cert.pem\nssl_key = <{r}/key.pem\n",
                    r = root.display()
                )
            }
        };
        let uid = id(&["-u"]);
        let (internal, login, mail_user) = if uid == "0" {
            // Dovecot serves no mail as root: the package's users hold the mail.
            (
                "dovecot".to_string(),
                "dovenull".to_string(),
                "dovecot".to_string(),
            )
        } else {
            let me = id(&["-un"]);
            (me.clone(), me, uid.clone())
        };
        for d in ["run", "state", "mail"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        if uid == "0" {
            use std::os::unix::fs::PermissionsExt;
            // The mail user must reach its mail through the temp dir.
            std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o711)).unwrap();
            let o = Command::new("chown")
                .arg(format!("{mail_user}:"))
                .arg(root.join("mail"))
                .output()
                .expect("run chown");
            assert!(o.status.success(), "chown: {o:?}");
        }
        std::fs::write(
            root.join("passwd"),
            format!("{USER}:{{PLAIN}}{PASSWORD}::::::\n"),
        )
        .unwrap();
        let r = root.display();
        let conf = format!(
            "base_dir = {r}/run\n\
             state_dir = {r}/state\n\
             log_path = {r}/dovecot.log\n\
             listen = 127.0.0.1\n\
             protocols = imap\n\
             {ssl}\
             disable_plaintext_auth = no\n\
             auth_mechanisms = plain login\n\
             mail_location = maildir:{r}/mail/%u\n\
             default_internal_user = {internal}\n\
             default_internal_group = {internal_group}\n\
             default_login_user = {login}\n\
             first_valid_uid = 0\n\
             passdb {{\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u {r}/passwd\n}}\n\
             userdb {{\n  driver = static\n  args = uid={mail_user} gid={mail_group} home={r}/mail/%u\n}}\n\
             namespace inbox {{\n  inbox = yes\n  separator = /\n}}\n\
             service anvil {{\n  chroot =\n}}\n\
             service imap-login {{\n  chroot =\n  inet_listener imap {{\n    address = 127.0.0.1\n    port = {port}\n  }}\n  inet_listener imaps {{\n    address = 127.0.0.1\n    port = {imaps}\n  }}\n}}\n",
            imaps = imaps_port.unwrap_or(0),
            internal_group = if uid == "0" { "dovecot".to_string() } else { id(&["-gn"]) },
            mail_group = if uid == "0" { "dovecot".to_string() } else { id(&["-g"]) },
        );
        std::fs::write(root.join("dovecot.conf"), conf).unwrap();
        let child = Command::new(bin)
            .arg("-F")
            .arg("-c")
            .arg(root.join("dovecot.conf"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(root.join("stderr.txt")).unwrap())
            .spawn()
            .expect("start dovecot");
        let mut d = Dovecot {
            port,
            imaps_port,
            dir,
            child,
        };
        // Polls the port a bounded number of times (no sleep stands for readiness).
        for _ in 0..1200 {
            if let Some(status) = d.child.try_wait().unwrap() {
                let err =
                    std::fs::read_to_string(d.dir.path().join("stderr.txt")).unwrap_or_default();
                let log =
                    std::fs::read_to_string(d.dir.path().join("dovecot.log")).unwrap_or_default();
                return Err(format!("dovecot exited ({status}): {err}\n{log}"));
            }
            if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
                use std::io::Read;
                // The greeting proves dovecot (not some other process) holds the port.
                s.set_read_timeout(Some(Duration::from_secs(10))).ok();
                let mut buf = [0u8; 64];
                let n = s.read(&mut buf).unwrap_or(0);
                if buf[..n].starts_with(b"* OK") {
                    return Ok(d);
                }
                return Err(format!(
                    "port {port} answered {:?}, not dovecot",
                    String::from_utf8_lossy(&buf[..n])
                ));
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        Err(format!("dovecot never answered on port {port}"))
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn imaps_port(&self) -> u16 {
        self.imaps_port.expect("started with start_tls")
    }

    /// The server's self-signed certificate (PEM), to trust through `SSL_CERT_FILE`.
    pub fn cert_path(&self) -> PathBuf {
        self.dir.path().join("cert.pem")
    }

    /// The `[imap]` table for a home's config.toml.
    pub fn config_table(&self) -> String {
        format!(
            "\n[imap]\nhost = \"127.0.0.1\"\nport = {}\ntls = \"none\"\nuser = \"{USER}\"\npassword_command = \"echo {PASSWORD}\"\n",
            self.port
        )
    }

    pub fn session(&self) -> imap::Session<imap::Connection> {
        let c = imap::ClientBuilder::new("127.0.0.1", self.port)
            .mode(imap::ConnectionMode::Plaintext)
            .connect()
            .expect("connect to dovecot");
        c.login(USER, PASSWORD).map_err(|(e, _)| e).expect("login")
    }

    /// Puts a message into `folder` with IMAP APPEND, as a mail server's delivery would.
    pub fn append(&self, folder: &str, raw: &str) {
        let mut s = self.session();
        s.append(folder, raw.as_bytes()).finish().expect("APPEND");
        let _ = s.logout();
    }

    /// The messages of `folder` (empty if it does not exist), in UID order.
    pub fn messages(&self, folder: &str) -> Vec<Vec<u8>> {
        let mut s = self.session();
        let out = match s.select(folder) {
            Err(_) => Vec::new(),
            Ok(mb) if mb.exists == 0 => Vec::new(),
            Ok(_) => {
                let f = s.fetch("1:*", "(UID BODY.PEEK[])").expect("FETCH");
                let mut v: Vec<(u32, Vec<u8>)> = f
                    .iter()
                    .map(|m| (m.uid.unwrap_or(0), m.body().unwrap_or_default().to_vec()))
                    .collect();
                v.sort();
                v.into_iter().map(|(_, b)| b).collect()
            }
        };
        let _ = s.logout();
        out
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("dovecot.log")).unwrap_or_default()
    }
}

/// A self-signed certificate for 127.0.0.1 (SAN, CA:FALSE) in `dir`: cert.pem and key.pem.
fn make_cert(dir: &Path) {
    let out = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
        .args(["ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"])
        .args(["-subj", "/CN=127.0.0.1"])
        .args(["-addext", "subjectAltName=IP:127.0.0.1"])
        .args(["-addext", "basicConstraints=critical,CA:FALSE"])
        .arg("-keyout")
        .arg(dir.join("key.pem"))
        .arg("-out")
        .arg(dir.join("cert.pem"))
        .output()
        .expect("run openssl (install it: apt-get install openssl)");
    assert!(
        out.status.success(),
        "openssl could not make a test certificate: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        // SIGTERM: the master stops its children (a SIGKILL would orphan them).
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status();
        let _ = self.child.wait();
    }
}
