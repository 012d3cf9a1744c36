//! Issue 10, the operations findings (4, 7, 15, 17): what an operator sees from the real binary
//! when runs overlap, when delivery is killed, when SMTP would send a password in the clear, and
//! when a player floods a block with bad lines.

#[path = "support/dt.rs"]
mod dt;
#[path = "support/smtp.rs"]
mod smtp;

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
