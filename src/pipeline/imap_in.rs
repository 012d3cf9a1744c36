//! `run --imap` (DESIGN §3, docs/imap.md): the folder's messages are downloaded into
//! `maildir/new` under names made of UIDVALIDITY and UID, the ordinary Maildir run processes
//! them (same routing, verification, rejected/, dedup), and only once that run has committed
//! and its moves out of new/ are on disk are the processed messages moved out of the folder.
//! A kill at any point leaves each message either on the server or durably processed, and a
//! message already downloaded is recognised by its name, so nothing is lost and nothing is
//! applied twice.

use super::{run, sync_filesystems, Ctx, RefereeError, RunSummary};
use crate::edges::imap::{file_name, ImapError, ImapSettings, Mailbox};
use std::path::Path;

/// What the IMAP side of a run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImapSummary {
    /// Messages in the folder when the run began.
    pub listed: usize,
    /// Downloaded into maildir/new by this run.
    pub fetched: usize,
    /// Moved to the processed (routed) and rejected folders.
    pub moved: usize,
    /// Left in the folder (their mail waits in maildir/new: a game could not be read).
    pub left: usize,
}

impl std::fmt::Display for ImapSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "imap listed {} fetched {} moved {} left {}",
            self.listed, self.fetched, self.moved, self.left
        )
    }
}

/// Where a downloaded message is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    New,
    Cur,
    Rejected,
}

fn imap_err(e: ImapError) -> RefereeError {
    match e {
        ImapError::Settings(m) => RefereeError::Usage(m),
        ImapError::Server(m) => RefereeError::Usage(format!(
            "{m}; no mail was moved or marked on the server: it stays there until a run gets through"
        )),
        ImapError::Local(m) => RefereeError::Io(m),
    }
}

/// Fetches, runs, then moves what the run committed (see the module's comment).
pub fn run_imap(ctx: &Ctx, maildir: &Path) -> Result<(RunSummary, ImapSummary), RefereeError> {
    let target = ImapSettings::check(ctx.config.imap.as_ref()).map_err(imap_err)?;
    let mut mb = Mailbox::open(&target).map_err(imap_err)?;
    let rejected = ctx.home.rejected();
    let (new, cur) = (maildir.join("new"), maildir.join("cur"));
    // Never follows a symlink: a name is held if anything is there.
    let here = |p: &Path| std::fs::symlink_metadata(p).is_ok();
    let place = |name: &str| {
        if here(&new.join(name)) {
            Some(Place::New)
        } else if here(&cur.join(crate::intake::cur_name(name.as_ref()))) {
            Some(Place::Cur)
        } else if here(&rejected.join(name)) {
            Some(Place::Rejected)
        } else {
            None
        }
    };
    let mut isum = ImapSummary {
        listed: mb.uids.len(),
        ..Default::default()
    };
    isum.fetched = mb
        .download(maildir, ctx.config.max_mail_bytes, |n| place(n).is_some())
        .map_err(imap_err)?;
    let mut sum = run(ctx, maildir)?;
    // The run's renames out of new/ reach the disk before the server forgets the messages: a
    // power cut cannot bring back a mail the server no longer has… nor lose one it dropped.
    std::fs::create_dir_all(&rejected).ok();
    sync_filesystems(&[maildir.to_path_buf(), rejected.clone()])?;
    let (mut routed, mut refused) = (Vec::new(), Vec::new());
    for &uid in &mb.uids {
        match place(&file_name(&target, mb.uid_validity, uid)) {
            Some(Place::Cur) => routed.push(uid),
            Some(Place::Rejected) => refused.push(uid),
            Some(Place::New) | None => isum.left += 1,
        }
    }
    // The run has committed: a failure here only delays the move to the next run, which
    // recognises these messages by name and does not process them again.
    for (uids, folder) in [(&routed, &target.processed), (&refused, &target.rejected)] {
        match mb.move_to(uids, folder) {
            Ok(()) => isum.moved += uids.len(),
            Err(e) => sum.warnings.push(format!(
                "{e}; the {} mail(s) stay in `{}` and are moved by the next run (they are not processed again)",
                uids.len(),
                target.folder
            )),
        }
    }
    mb.logout();
    Ok((sum, isum))
}
