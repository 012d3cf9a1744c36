//! The exclusive lock of a home (`<home>/lock`): one `run` (or `new`, `control`) at a time.
//!
//! It is an flock (`std::fs::File::try_lock`): the kernel drops it when the holder exits, even
//! after `kill -9`, so it cannot go stale, and the file must never be deleted (a run that
//! opened the old file and one that creates a new one would both "hold" the lock).
//!
//! The holder records its pid in the file with one fixed-width write at offset 0 (never a
//! truncate followed by a write, which let a second run read an empty pid), and empties the
//! file when it ends. A pid read back is named only while that process is alive; otherwise the
//! holder is "a run whose pid is not yet recorded".

use crate::pbem::home::Home;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// Held while a run works on a home; released on drop.
pub struct HomeLock {
    file: File,
    path: PathBuf,
}

impl HomeLock {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for HomeLock {
    fn drop(&mut self) {
        // The pid goes first, so nobody names a finished run; the file itself stays.
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

/// Another process holds the lock.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("another dustmail run holds {} ({}) and is still working: wait for it to finish; the lock is released when that process ends, even if it is killed, so never delete the lock file", path.display(), holder_text(*holder))]
pub struct HomeBusy {
    pub path: PathBuf,
    /// The holder's pid, when it is recorded and that process is alive.
    pub holder: Option<u32>,
}

impl HomeBusy {
    /// One line for `run --once` when cron starts a run while the last one is still working.
    pub fn quiet_line(&self) -> String {
        format!(
            "another dustmail run ({}) is working on this home; this run did nothing",
            holder_text(self.holder)
        )
    }
}

fn holder_text(holder: Option<u32>) -> String {
    match holder {
        Some(pid) => format!("pid {pid}"),
        None => "a run whose pid is not yet recorded".to_string(),
    }
}

/// Width of the recorded pid: every write covers the whole of any earlier one.
const PID_WIDTH: usize = 20;

/// Takes `<home>/lock` without waiting: `Ok(Err(busy))` when another run holds it.
pub fn try_lock_home(home: &Home) -> std::io::Result<Result<HomeLock, HomeBusy>> {
    let path = home.lock_path();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&path)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            let holder = text
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&pid| process_alive(pid));
            return Ok(Err(HomeBusy { path, holder }));
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(e),
    }
    // One write of a fixed width: a reader sees the old text or the new pid, never a mix of
    // an empty file and a pid to come.
    let record = format!("{:<width$}\n", std::process::id(), width = PID_WIDTH);
    file.write_all_at(record.as_bytes(), 0)?;
    Ok(Ok(HomeLock { file, path }))
}

/// True when `pid` names a running process (Linux: /proc; elsewhere assumed running).
fn process_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}
