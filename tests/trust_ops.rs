//! Issue 10, the operations findings (4, 7, 15, 17): what an operator sees from the real binary
//! when runs overlap, when delivery is killed, when SMTP would send a password in the clear, and
//! when a player floods a block with bad lines.

#[path = "support/dt.rs"]
mod dt;
#[path = "support/smtp.rs"]
mod smtp;

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
