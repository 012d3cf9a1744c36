//! Issue 10, the operations findings (4, 7, 15, 17): what an operator sees from the real binary
//! when runs overlap, when delivery is killed, when SMTP would send a password in the clear, and
//! when a player floods a block with bad lines.

use crate::support::dt;
use crate::support::smtp;

use std::path::Path;
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

// ---------------------------------------------------------------------------------------------
// Finding 17: the home lock.

/// Issue 10 finding 17: cron starting a run while the last one still works is normal: the
/// second run says so in one line naming the holder and exits 0; with --strict it exits 2; no
/// message ever advises deleting the lock file (an flock cannot go stale).
#[test]
fn a_run_that_finds_another_run_working_says_so_in_one_line_and_exits_0() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(d.path(), "file");
    let held = dustmail::referee::lock_home(&home).unwrap();
    let o = dt::dustmail(&home.root, &["run", "--once"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.contains(&format!("pid {}", std::process::id())),
        "{out}"
    );
    assert!(out.contains("this run did nothing"), "{out}");
    assert!(stderr(&o).is_empty(), "{}", dt::text(&o));

    let o = dt::dustmail(&home.root, &["run", "--once", "--strict"]);
    assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
    let err = stderr(&o);
    assert!(err.contains("another dustmail run holds"), "{err}");
    assert!(
        err.contains(&format!("(pid {})", std::process::id())),
        "{err}"
    );
    assert!(!err.contains("remove the stale lock"), "{err}");
    assert!(err.contains("never delete the lock file"), "{err}");

    // Once the holder is done, a run works and the file is still there (never deleted).
    drop(held);
    let o = dt::dustmail(&home.root, &["run", "--once"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(stdout(&o).contains("mails 0"), "{}", dt::text(&o));
    assert!(home.lock_path().exists());
}

/// Issue 10 finding 17: a run that holds the lock but has not yet written its pid (or a pid
/// left by a killed run) is named as such, never as "(pid )".
#[test]
fn a_holder_whose_pid_is_not_recorded_is_named_as_such() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(d.path(), "file");
    // The window between the holder's flock and its pid: the file is locked and empty.
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .open(home.lock_path())
        .unwrap();
    f.lock().unwrap();
    let o = dt::dustmail(&home.root, &["run", "--strict"]);
    assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
    let err = stderr(&o);
    assert!(!err.contains("(pid )"), "{err}");
    assert!(err.contains("a run whose pid is not yet recorded"), "{err}");
    drop(f);

    // A pid left in the file by a run that was killed (-9) names no live process.
    std::fs::write(home.lock_path(), "4000000000\n").unwrap();
    let f = std::fs::File::open(home.lock_path()).unwrap();
    f.lock().unwrap();
    let o = dt::dustmail(&home.root, &["run", "--strict"]);
    let err = stderr(&o);
    assert!(err.contains("a run whose pid is not yet recorded"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Finding 7: kill -9 during sendmail delivery.

/// A fake `sendmail` on PATH: records that it started, waits until the test says go (after it
/// has killed dustmail), then stores what it reads on stdin as `mail.PID`.
fn fake_sendmail(dir: &Path) {
    let script = dir.join("sendmail");
    let d = dir.display();
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntouch {d}/started.$$\nwhile [ ! -e {d}/go ]; do sleep 0.02; done\n\
             cat > {d}/part.$$\nmv {d}/part.$$ {d}/mail.$$\n"
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn files_starting(dir: &Path, prefix: &str) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

/// Polls for `cond` (never a timing assertion: the limit only stops a hung test).
fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
    let limit = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !cond() {
        assert!(std::time::Instant::now() < limit, "gave up waiting: {what}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Issue 10 finding 7: dustmail killed (-9) while sendmail reads a queued mail larger than a
/// pipe's buffer: sendmail still reads the whole message (on main it read 65,536 bytes and
/// would have sent them), and the next run delivers it whole again (at least once, never cut).
#[test]
fn kill_9_during_sendmail_delivery_never_hands_sendmail_a_truncated_message() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "sendmail");
    let bin = d.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    fake_sendmail(&bin);

    // A mail of about 300 KB, well beyond a pipe's 64 KiB buffer.
    let text: String = (0..6000)
        .map(|i| format!("line {i:05} of a long report, padded to fifty characters.\n"))
        .collect();
    let mail = dustmail::outbox::Mail {
        from: dt::REFEREE.to_string(),
        to: vec!["ann@players.example".to_string()],
        subject: "a long report".to_string(),
        in_reply_to: None,
        references: Vec::new(),
        text,
        html: None,
        attachments: Vec::new(),
        headers: Vec::new(),
    };
    let ob = dustmail::outbox::Outbox::open(&home.root).unwrap();
    ob.queue_at("big-1", &mail, dt::t(dt::NOW)).unwrap();
    let queued = std::fs::read(ob.queue_dir.join("big-1.eml")).unwrap();
    assert!(queued.len() > 200_000);

    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = || {
        std::process::Command::new(dt::bin())
            .env_remove("DUSTMAIL_HOME")
            .env("PATH", &path)
            .arg("--home")
            .arg(&home.root)
            .args(["run", "--once", "--now", dt::NOW])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut child = run();
    wait_for("sendmail to start", || {
        !files_starting(&bin, "started.").is_empty()
    });
    child.kill().unwrap(); // SIGKILL, while sendmail has not read a byte yet
    child.wait().unwrap();
    std::fs::write(bin.join("go"), b"").unwrap();
    wait_for("the killed run's sendmail to finish", || {
        !files_starting(&bin, "mail.").is_empty()
    });

    // The next run delivers it (it was never moved to sent/).
    let o = std::process::Command::new(dt::bin())
        .env_remove("DUSTMAIL_HOME")
        .env("PATH", &path)
        .arg("--home")
        .arg(&home.root)
        .args(["run", "--once", "--now", dt::NOW])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        stdout(&o).contains("delivered 1 failed 0"),
        "{}",
        dt::text(&o)
    );
    wait_for("both sendmails to finish", || {
        files_starting(&bin, "mail.").len() == files_starting(&bin, "started.").len()
    });
    let got = files_starting(&bin, "mail.");
    assert_eq!(got.len(), 2);
    for m in &got {
        let bytes = std::fs::read(m).unwrap();
        assert_eq!(
            bytes.len(),
            queued.len(),
            "sendmail received a truncated message"
        );
        assert_eq!(bytes, queued);
    }
    assert!(home.root.join("sent/big-1.eml").exists());
}

// ---------------------------------------------------------------------------------------------
// Finding 15: SMTP credentials never in the clear, config.toml 0600, password_command.

/// An SMTP server on loopback that offers AUTH without TLS (as a careless relay would) and logs
/// every AUTH it sees to `auth.log` before checking it.
const PLAIN_AUTH_SERVER: &str = r#"
import sys, time
from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult, LoginPassword
port, maildir, log, user, password = sys.argv[1:6]
def check(server, session, envelope, mechanism, data):
    with open(log, "a") as f:
        f.write("AUTH %s\n" % mechanism)
    ok = (isinstance(data, LoginPassword) and data.login == user.encode()
          and data.password == password.encode())
    return AuthResult(success=ok, handled=False)
c = Controller(Mailbox(maildir), hostname="127.0.0.1", port=int(port), authenticator=check,
               auth_required=False, auth_require_tls=False)
c.start()
print("ready", flush=True)
while True:
    time.sleep(3600)
"#;

struct PlainAuthServer {
    child: std::process::Child,
    port: u16,
    dir: tempfile::TempDir,
}

impl PlainAuthServer {
    fn start(user: &str, password: &str) -> PlainAuthServer {
        use std::io::BufRead;
        let dir = tempfile::tempdir().unwrap();
        let port = smtp::free_port();
        let mut child = std::process::Command::new("python3")
            .args(["-c", PLAIN_AUTH_SERVER])
            .arg(port.to_string())
            .arg(dir.path().join("mail"))
            .arg(dir.path().join("auth.log"))
            .args([user, password])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("python3 with aiosmtpd (bash scripts/test.sh installs it)");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready", "the test SMTP server did not start");
        PlainAuthServer { child, port, dir }
    }
    fn auth_log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("auth.log")).unwrap_or_default()
    }
    fn messages(&self) -> usize {
        std::fs::read_dir(self.dir.path().join("mail/new"))
            .map(|r| r.count())
            .unwrap_or(0)
    }
}

impl Drop for PlainAuthServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn queue_one(home: &dustmail::config::Home, id: &str) {
    let mail = dustmail::outbox::Mail {
        from: dt::REFEREE.to_string(),
        to: vec!["ann@players.example".to_string()],
        subject: "hello".to_string(),
        in_reply_to: None,
        references: Vec::new(),
        text: "a report\n".to_string(),
        html: None,
        attachments: Vec::new(),
        headers: Vec::new(),
    };
    let ob = dustmail::outbox::Outbox::open(&home.root).unwrap();
    ob.queue_at(id, &mail, dt::t(dt::NOW)).unwrap();
}

fn set_config(home: &dustmail::config::Home, edits: &[(&str, &str)]) {
    let mut text = std::fs::read_to_string(home.config_path()).unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "config.toml has no {from:?}");
        text = text.replace(from, to);
    }
    std::fs::write(home.config_path(), text).unwrap();
}

/// Issue 10 finding 15: `init` writes config.toml readable by its owner only (it may hold the
/// SMTP password).
#[test]
fn init_writes_config_toml_mode_0600() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(d.path(), "file");
    let mode = std::fs::metadata(home.config_path())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "config.toml is {:o}", mode & 0o777);
}

/// Issue 10 finding 15: a user and password with a plain smtp:// transport and no STARTTLS are
/// refused before any connection: the server never sees AUTH, the mail stays queued, and the
/// error names the settings to write. `insecure = true`, written in so many words, allows it.
#[test]
fn auth_without_tls_is_refused_before_any_credential_leaves() {
    let server = PlainAuthServer::start("referee", "s3cret");
    let d = tempfile::tempdir().unwrap();
    let transport = format!("smtp://127.0.0.1:{}", server.port);
    let home = dt::init_home(d.path(), &transport);
    set_config(
        &home,
        &[
            ("# user = \"referee\"", "user = \"referee\""),
            ("# password = \"secret\"", "password = \"s3cret\""),
        ],
    );
    queue_one(&home, "m1");
    let o = dt::dustmail(&home.root, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
    let err = stderr(&o);
    assert!(err.contains("starttls = true"), "{err}");
    assert!(err.contains("smtps://"), "{err}");
    assert!(err.contains("insecure = true"), "{err}");
    assert_eq!(server.auth_log(), "", "the server saw AUTH");
    assert_eq!(server.messages(), 0);
    assert!(home.root.join("outbox/m1.json").exists());

    // Written in so many words, the operator's choice holds: AUTH in the clear, delivered.
    set_config(&home, &[("# insecure = false", "insecure = true")]);
    let o = dt::dustmail(&home.root, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        stdout(&o).contains("delivered 1 failed 0"),
        "{}",
        dt::text(&o)
    );
    assert!(server.auth_log().contains("AUTH"), "{}", server.auth_log());
    assert_eq!(server.messages(), 1);
}

/// Issue 10 finding 15: `password_command` instead of a password: its first output line is the
/// password; a failing command is a clear error naming the setting, and the mail stays queued.
#[test]
fn password_command_gives_the_password_and_its_failure_is_named() {
    let server = PlainAuthServer::start("referee", "s3cret");
    let d = tempfile::tempdir().unwrap();
    let transport = format!("smtp://127.0.0.1:{}", server.port);
    let home = dt::init_home(d.path(), &transport);
    set_config(
        &home,
        &[
            ("# user = \"referee\"", "user = \"referee\""),
            (
                "# password_command = \"pass show mail/referee\"",
                "password_command = \"echo 'vault is locked' >&2; exit 3\"",
            ),
            ("# insecure = false", "insecure = true"),
        ],
    );
    queue_one(&home, "m1");
    let o = dt::dustmail(&home.root, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
    let err = stderr(&o);
    assert!(err.contains("password_command"), "{err}");
    assert!(err.contains("vault is locked"), "{err}");
    assert_eq!(server.auth_log(), "");
    assert!(home.root.join("outbox/m1.json").exists());

    set_config(
        &home,
        &[(
            "password_command = \"echo 'vault is locked' >&2; exit 3\"",
            "password_command = \"printf 's3cret\\\\nnot the password\\\\n'\"",
        )],
    );
    let o = dt::dustmail(&home.root, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        stdout(&o).contains("delivered 1 failed 0"),
        "{}",
        dt::text(&o)
    );
    assert_eq!(server.messages(), 1);
}

// ---------------------------------------------------------------------------------------------
// Finding 4: a flood of lines in one signed block.

fn sent_named(home: &dustmail::config::Home, part: &str) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(home.root.join("sent"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(part))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The text/plain part of a sent mail, decoded.
fn text_of(eml: &[u8]) -> String {
    let m = mail_parser::MessageParser::default().parse(eml).unwrap();
    m.body_text(0).unwrap().into_owned()
}

/// Issue 10 finding 4: a signed block of 2,000 unknown command lines (under the 64 KiB a block may
/// carry) is refused whole after 20 errors, the refusal says so and lists 20 of them, and it
/// stays small; nothing is applied.
#[test]
fn a_block_of_thousands_of_bad_lines_is_refused_after_20_errors() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(d.path(), "file");
    let ps = dt::players(0);
    dt::new_game(&home, "g-flood", &ps, 3);
    let commands: String = (0..2000).map(|i| format!("frobnicate {i}\n")).collect();
    let m = dt::mail(
        &ps[0].address,
        "flood@players.example",
        &ps[0].key,
        &dt::orders("g-flood", "allies", 1, &commands),
    );
    std::fs::write(home.maildir().join("new/flood.eml"), m).unwrap();
    let o = dt::dustmail(&home.root, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        stdout(&o).contains("accepted 0 refused 1"),
        "{}",
        dt::text(&o)
    );
    // No receipt, alone or heading a report (issue 17 item 3).
    assert!(sent_named(&home, "-receipt").is_empty());
    assert!(sent_named(&home, "-report-").is_empty());
    let refusals = sent_named(&home, "-refusal");
    assert_eq!(refusals.len(), 1, "{refusals:?}");
    let (_, eml) = &refusals[0];
    assert!(eml.len() < 64 * 1024, "a refusal of {} bytes", eml.len());
    let text = text_of(eml);
    assert!(text.contains("stopped after 20 errors"), "{text}");
    assert!(text.contains("fix these and send again"), "{text}");
    assert_eq!(text.matches("(send instead:").count(), 20, "{text}");
    // Recorded as refused, and the game replays (nothing of the block was applied).
    let subs = dt::submissions(&home, "g-flood");
    assert_eq!(subs.len(), 1);
    assert!(!subs[0].2, "the flood was accepted");
    let o = dt::dustmail(&home.root, &["replay", "g-flood"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

/// Issue 10 finding 4: an accepted block of 150 lines gets a receipt listing 100 of them and
/// saying how many more there are (the ledger has them all).
#[test]
fn a_receipt_lists_at_most_100_results_and_says_how_many_more() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(d.path(), "file");
    let ps = dt::players(0);
    dt::new_game(&home, "g-long", &ps, 4);
    let commands = "report\n".repeat(150);
    let m = dt::mail(
        &ps[0].address,
        "long@players.example",
        &ps[0].key,
        &dt::orders("g-long", "allies", 1, &commands),
    );
    std::fs::write(home.maildir().join("new/long.eml"), m).unwrap();
    let o = dt::dustmail(&home.root, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(stdout(&o).contains("accepted 1"), "{}", dt::text(&o));
    // The receipt heads the sender's report (issue 17 item 3).
    let receipts = sent_named(&home, "-report-allies");
    assert_eq!(receipts.len(), 1);
    let text = text_of(&receipts[0].1);
    assert_eq!(text.matches("understood: report").count(), 100, "{text}");
    assert!(
        text.contains("... and 50 more lines, not listed here"),
        "{text}"
    );
}

/// An aiosmtpd server speaking TLS from the first byte (SMTPS, as on port 465), requiring AUTH.
const SMTPS_SERVER: &str = r#"
import ssl, sys, time
from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult, LoginPassword
port, maildir, cert, key, user, password = sys.argv[1:7]
def check(server, session, envelope, mechanism, data):
    ok = (isinstance(data, LoginPassword) and data.login == user.encode()
          and data.password == password.encode())
    return AuthResult(success=ok, handled=False)
ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
ctx.load_cert_chain(cert, key)
# aiosmtpd counts only STARTTLS as TLS for AUTH; this connection is TLS from its first byte.
c = Controller(Mailbox(maildir), hostname="127.0.0.1", port=int(port), ssl_context=ctx,
               authenticator=check, auth_required=True, auth_require_tls=False)
c.start()
print("ready", flush=True)
while True:
    time.sleep(3600)
"#;

/// Issue 10 finding 15: `smtps://HOST:PORT` delivers over TLS from the first byte, with AUTH.
#[test]
fn smtps_delivers_over_implicit_tls_with_auth() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("cert.pem");
    let key = dir.path().join("key.pem");
    let out = std::process::Command::new("openssl")
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
        .expect("openssl (apt-get install openssl)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let port = smtp::free_port();
    let maildir = dir.path().join("mail");
    let mut child = std::process::Command::new("python3")
        .args(["-c", SMTPS_SERVER])
        .arg(port.to_string())
        .arg(&maildir)
        .arg(&cert)
        .arg(&key)
        .args(["referee", "s3cret"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("python3 with aiosmtpd");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "ready");

    let home = tempfile::tempdir().unwrap();
    let c = dustmail::config::Config {
        smtp: dustmail::config::SmtpSettings {
            user: Some("referee".into()),
            password: Some("s3cret".into()),
            ..Default::default()
        },
        ..dustmail::config::Config::new(dt::REFEREE, &format!("smtps://127.0.0.1:{port}")).unwrap()
    };
    // No starttls, no insecure: smtps:// is TLS already.
    c.validate().unwrap();
    let transport = c.outbox_transport().unwrap();
    let ob = dustmail::outbox::Outbox::open(home.path()).unwrap();
    let h = dustmail::config::Home::new(home.path());
    queue_one(&h, "s1");
    let opts = dustmail::outbox::DeliveryOptions {
        extra_root_certs_pem: vec![std::fs::read(&cert).unwrap()],
        ..Default::default()
    };
    let r = ob.deliver_with(&transport, &opts, dt::t(dt::NOW)).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!((r.delivered, r.failed), (1, 0), "{:?}", r.errors);
    assert_eq!(std::fs::read_dir(maildir.join("new")).unwrap().count(), 1);
}
