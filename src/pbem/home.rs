//! The referee's home directory (DESIGN §3 "Home layout"): where games, mails and keys live.

use std::path::PathBuf;

/// The directories and files of a home.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Home {
    pub root: PathBuf,
}

impl Home {
    pub fn new(root: impl Into<PathBuf>) -> Home {
        Home { root: root.into() }
    }
    pub fn config_path(&self) -> PathBuf {
        self.root.join("config.toml")
    }
    pub fn key_path(&self) -> PathBuf {
        self.root.join("referee.key")
    }
    pub fn maildir(&self) -> PathBuf {
        self.root.join("maildir")
    }
    pub fn rejected(&self) -> PathBuf {
        self.root.join("rejected")
    }
    pub fn games(&self) -> PathBuf {
        self.root.join("games")
    }
    pub fn game_dir(&self, id: &str) -> PathBuf {
        self.games().join(id)
    }
    pub fn lock_path(&self) -> PathBuf {
        self.root.join("lock")
    }
    /// Creates every directory of the layout.
    pub fn create_dirs(&self) -> std::io::Result<()> {
        for d in [
            self.maildir().join("new"),
            self.maildir().join("cur"),
            self.maildir().join("tmp"),
            self.root.join("outbox"),
            self.root.join("sent"),
            self.rejected(),
            self.games(),
        ] {
            std::fs::create_dir_all(d)?;
        }
        Ok(())
    }
}

/// True for ids safe as a directory name: letters, digits, `-`, `_`, 1 to 64 chars.
pub fn valid_game_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}
