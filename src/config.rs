//! `<home>/config.toml` and the home layout of DESIGN §3.

use crate::outbox::Transport;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The settings of a home.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The referee's own address (From: of every mail; never answered).
    pub referee: String,
    /// `file`, `sendmail` or `smtp://HOST:PORT`.
    #[serde(default = "default_transport")]
    pub transport: String,
    #[serde(default)]
    pub smtp: SmtpSettings,
    #[serde(default = "default_max_mail")]
    pub max_mail_bytes: usize,
    #[serde(default = "default_deadline")]
    pub deadline_hours: u32,
    #[serde(default = "default_reminder")]
    pub reminder_hours: u32,
    #[serde(default = "default_grace")]
    pub grace_hours: u32,
    /// The longest absence (`absent until …`) a player may declare, in days.
    #[serde(default = "default_absence")]
    pub max_absence_days: u32,
    /// A PNG of the board in every report, welcome and reminder (inline and attached). Off:
    /// the text board only, for mails about 40 KB smaller.
    #[serde(default = "default_true")]
    pub board_pictures: bool,
    /// Overrides for the built-in mail templates (same file names as `templates/`).
    #[serde(default)]
    pub template_dir: Option<PathBuf>,
    /// How often a stranger (a mail with no valid block of a registered key) is answered:
    /// `once-per-day` (per address) or `never`. Bounds backscatter to forged senders.
    #[serde(default)]
    pub stranger_replies: crate::intake::StrangerPolicy,
    /// The mailbox `run --imap` reads (docs/imap.md); checked when `--imap` is used.
    #[serde(default)]
    pub imap: Option<crate::edges::imap::ImapSettings>,
    /// New games send each reader one report per run instead of one per step (`new --digest`
    /// sets it for one game; docs/reports.md).
    #[serde(default)]
    pub digest: bool,
}

fn default_true() -> bool {
    true
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SmtpSettings {
    #[serde(default)]
    pub starttls: bool,
    #[serde(default)]
    pub user: Option<String>,
    #[serde(default)]
    pub password: Option<String>,
    /// A command run with `sh -c` at delivery time; its first line on stdout is the password
    /// (keeps the password out of this file).
    #[serde(default)]
    pub password_command: Option<String>,
    /// Allows AUTH over a connection without TLS (the password then crosses the network in
    /// the clear). Off: a user needs `starttls = true` or an `smtps://` transport.
    #[serde(default)]
    pub insecure: bool,
    /// SMTP connections used in parallel (1–16; default 4). One connection already keeps up
    /// with Python's smtplib; a few more help a server slow to answer, too many only compete
    /// for the cores (bench/README.md).
    #[serde(default)]
    pub connections: Option<usize>,
}

/// The most SMTP connections the outbox opens at once.
pub const MAX_SMTP_CONNECTIONS: usize = 16;
/// SMTP connections when `[smtp] connections` is not set: the fastest on the bench machine.
pub const DEFAULT_SMTP_CONNECTIONS: usize = 4;

fn default_transport() -> String {
    "file".into()
}
fn default_max_mail() -> usize {
    1 << 20
}
fn default_deadline() -> u32 {
    72
}
fn default_reminder() -> u32 {
    24
}
fn default_grace() -> u32 {
    12
}
fn default_absence() -> u32 {
    14
}

/// A configuration that cannot be used (exit 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

impl Config {
    pub fn new(referee: &str, transport: &str) -> Result<Config, ConfigError> {
        let c = Config {
            referee: referee.to_string(),
            transport: transport.to_string(),
            smtp: SmtpSettings::default(),
            max_mail_bytes: default_max_mail(),
            deadline_hours: default_deadline(),
            reminder_hours: default_reminder(),
            grace_hours: default_grace(),
            max_absence_days: default_absence(),
            board_pictures: true,
            template_dir: None,
            stranger_replies: Default::default(),
            imap: None,
            digest: false,
        };
        c.validate()?;
        Ok(c)
    }

    /// How the outbox delivers: the parallel SMTP connections of `[smtp] connections`.
    pub fn delivery_options(&self) -> crate::outbox::DeliveryOptions {
        crate::outbox::DeliveryOptions {
            connections: self.smtp.connections.unwrap_or(DEFAULT_SMTP_CONNECTIONS),
            ..Default::default()
        }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if !self.referee.contains('@') || self.referee.trim() != self.referee {
            return Err(ConfigError(format!(
                "referee address `{}` is not a mail address: give one like referee@example.org",
                self.referee
            )));
        }
        self.outbox_transport()?;
        // Ten years: beyond that a setting is a typo (and dates would overflow).
        for (name, v) in [
            ("deadline_hours", self.deadline_hours),
            ("reminder_hours", self.reminder_hours),
            ("grace_hours", self.grace_hours),
        ] {
            if v > 87_600 {
                return Err(ConfigError(format!(
                    "{name} = {v} is more than ten years: give a number of hours such as 72"
                )));
            }
        }
        if let Some(n) = self.smtp.connections {
            if !(1..=MAX_SMTP_CONNECTIONS).contains(&n) {
                return Err(ConfigError(format!(
                    "[smtp] connections = {n}: give a number from 1 to {MAX_SMTP_CONNECTIONS}"
                )));
            }
        }
        if self.max_absence_days > 3_650 {
            return Err(ConfigError(format!(
                "max_absence_days = {} is more than ten years: give a number of days such as 14",
                self.max_absence_days
            )));
        }
        if self.reminder_hours >= self.deadline_hours && self.deadline_hours > 0 {
            return Err(ConfigError(format!(
                "reminder_hours ({}) must be smaller than deadline_hours ({})",
                self.reminder_hours, self.deadline_hours
            )));
        }
        Ok(())
    }

    /// The outbox transport this config names.
    pub fn outbox_transport(&self) -> Result<Transport, ConfigError> {
        let t = self.transport.trim();
        if t == "file" {
            return Ok(Transport::File);
        }
        if t == "sendmail" {
            return Ok(Transport::Sendmail { command: None });
        }
        let (rest, implicit_tls) = match (t.strip_prefix("smtp://"), t.strip_prefix("smtps://")) {
            (Some(rest), _) => (Some(rest), false),
            (None, Some(rest)) => (Some(rest), true),
            (None, None) => (None, false),
        };
        if let Some(rest) = rest {
            let (host, port) = rest.rsplit_once(':').ok_or_else(|| {
                ConfigError(format!(
                    "transport `{t}` has no port: write smtp://HOST:PORT, e.g. smtp://127.0.0.1:25"
                ))
            })?;
            let port: u16 = port.parse().map_err(|_| {
                ConfigError(format!(
                    "transport `{t}`: `{port}` is not a port number (1-65535)"
                ))
            })?;
            if host.is_empty() {
                return Err(ConfigError(format!(
                    "transport `{t}` has no host: write smtp://HOST:PORT"
                )));
            }
            let transport = Transport::Smtp {
                host: host.to_string(),
                port,
                starttls: self.smtp.starttls,
                user: self.smtp.user.clone(),
                password: self.smtp.password.clone(),
                implicit_tls,
                insecure: self.smtp.insecure,
                password_command: self.smtp.password_command.clone(),
            };
            crate::outbox::check_smtp_auth(&transport).map_err(ConfigError)?;
            return Ok(transport);
        }
        Err(ConfigError(format!(
            "unknown transport `{t}`: use file, sendmail or smtp://HOST:PORT (smtps://HOST:PORT for TLS from the start)"
        )))
    }

    /// The config.toml text, with every optional setting shown commented.
    pub fn to_toml_text(&self) -> String {
        let q = |s: &str| toml::Value::String(s.to_string()).to_string();
        format!(
            "# dustmail home configuration\n\
             # The referee's own address: From: of every mail it sends.\n\
             referee = {referee}\n\
             # How mail leaves: \"file\" (into sent/), \"sendmail\", \"smtp://HOST:PORT\" (STARTTLS\n\
             # below), or \"smtps://HOST:465\" (TLS from the first byte).\n\
             transport = {transport}\n\
             # Largest incoming mail accepted, in bytes.\n\
             max_mail_bytes = {max}\n\
             # Hours a side has for each awaited decision, the reminder before it, and the grace\n\
             # after it before the default is applied.\n\
             deadline_hours = {dl}\n\
             reminder_hours = {rem}\n\
             grace_hours = {grace}\n\
             # The longest absence (`absent until DATE`) a player may declare, in days.\n\
             max_absence_days = {absence}\n\
             # A PNG of the board in every report (inline and attached); false: text board only.\n\
             board_pictures = {pictures}\n\
             # New games send each reader one report per run instead of one per step\n\
             # (`dustmail new --digest` for one game).\n\
             # digest = false\n\
             # Directory with templates overriding the built-in ones, each by file name: welcome,\n\
             # receipt, refusal, report, reminder, end (.txt and .html) and replay.html.\n\
             # template_dir = \"templates\"\n\
             # Refusals to strangers (mails without a valid block of a registered key): at most\n\
             # one per address per day (\"once-per-day\"), or none (\"never\").\n\
             # stranger_replies = \"once-per-day\"\n\
             \n\
             [smtp]\n\
             # STARTTLS before anything else is sent (smtp:// only; smtps:// is always TLS).\n\
             # starttls = true\n\
             # AUTH needs TLS (starttls = true or smtps://) unless insecure = true is written here.\n\
             # user = \"referee\"\n\
             # The password, or better a command whose first output line is the password (this\n\
             # file is written mode 0600 either way).\n\
             # password = \"secret\"\n\
             # password_command = \"pass show mail/referee\"\n\
             # Send the password over a connection without TLS (only for a relay on this machine).\n\
             # insecure = false\n\
             # SMTP connections used in parallel, 1 to 16 (default 4).\n\
             # connections = 4\n\
             \n\
             # `run --imap` reads new mail from this mailbox (docs/imap.md):\n\
             # [imap]\n\
             # host = \"imap.example.org\"\n\
             # tls = \"tls\"\n\
             # user = \"referee@example.org\"\n\
             # and password_command (or password), as under [smtp]\n",
            referee = q(&self.referee),
            transport = q(&self.transport),
            max = self.max_mail_bytes,
            dl = self.deadline_hours,
            rem = self.reminder_hours,
            grace = self.grace_hours,
            absence = self.max_absence_days,
            pictures = self.board_pictures,
        )
    }

    /// Writes a new config.toml, readable by its owner only (0600): it may hold the SMTP
    /// password. Refuses to overwrite one that exists.
    pub fn write_new(&self, home: &Home) -> std::io::Result<()> {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(home.config_path())?;
        f.write_all(self.to_toml_text().as_bytes())?;
        f.sync_all()
    }

    pub fn load(home: &Home) -> Result<Config, ConfigError> {
        let path = home.config_path();
        let text = std::fs::read_to_string(&path).map_err(|e| {
            ConfigError(format!(
                "cannot read {} ({e}): create the home with `dustmail init --referee ADDRESS` or pass --home",
                path.display()
            ))
        })?;
        let c: Config =
            toml::from_str(&text).map_err(|e| ConfigError(format!("{}: {e}", path.display())))?;
        c.validate()
            .map_err(|e| ConfigError(format!("{}: {e}", path.display())))?;
        Ok(c)
    }
}

pub use crate::pbem::home::{valid_game_id, Home};

pub fn home_exists(root: &Path) -> bool {
    root.join("config.toml").exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_config_loads_back_and_smtp_settings_reach_the_transport() {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::new(dir.path());
        let c = Config::new("ref@example.org", "smtp://127.0.0.1:2525").unwrap();
        let text = c
            .to_toml_text()
            .replace("# starttls = true", "starttls = true")
            .replace("# user = \"referee\"", "user = \"me\"")
            .replace("# password_command = ", "password_command = ");
        std::fs::write(home.config_path(), text).unwrap();
        let loaded = Config::load(&home).unwrap();
        assert_eq!(
            loaded.outbox_transport().unwrap(),
            Transport::Smtp {
                host: "127.0.0.1".into(),
                port: 2525,
                starttls: true,
                user: Some("me".into()),
                password: None,
                implicit_tls: false,
                insecure: false,
                password_command: Some("pass show mail/referee".into()),
            }
        );
        assert_eq!(loaded.deadline_hours, 72);
        // Without a setting the outbox uses 4 parallel connections; a setting is honoured.
        assert_eq!(loaded.delivery_options().connections, 4);
        let text = c
            .to_toml_text()
            .replace("# connections = 4", "connections = 2");
        std::fs::write(home.config_path(), text).unwrap();
        assert_eq!(
            Config::load(&home).unwrap().delivery_options().connections,
            2
        );
    }

    /// Issue 10 finding 15: `smtps://` is TLS from the start; a user without TLS is refused at
    /// load unless `insecure = true` is written, and the error names the settings to write.
    #[test]
    fn smtps_is_accepted_and_auth_without_tls_needs_insecure_in_so_many_words() {
        let mut c = Config::new("ref@example.org", "smtps://mail.example.org:465").unwrap();
        match c.outbox_transport().unwrap() {
            Transport::Smtp {
                implicit_tls, port, ..
            } => assert!(implicit_tls && port == 465),
            t => panic!("{t:?}"),
        }
        c.transport = "smtp://mail.example.org:587".into();
        c.smtp.user = Some("me".into());
        c.smtp.password = Some("pw".into());
        let e = c.validate().unwrap_err().to_string();
        assert!(e.contains("write starttls = true under [smtp]"), "{e}");
        assert!(e.contains("smtps://HOST:465"), "{e}");
        assert!(e.contains("insecure = true"), "{e}");
        c.smtp.insecure = true;
        assert!(c.validate().is_ok());
        c.smtp.insecure = false;
        c.smtp.starttls = true;
        assert!(c.validate().is_ok());
        c.smtp.password_command = Some("echo pw".into());
        let e = c.validate().unwrap_err().to_string();
        assert!(e.contains("both password and password_command"), "{e}");
    }

    #[test]
    fn absurd_settings_are_refused_with_what_to_write() {
        let mut c = Config::new("ref@example.org", "file").unwrap();
        c.smtp.connections = Some(0);
        let e = c.validate().unwrap_err();
        assert!(
            e.0.contains("connections = 0: give a number from 1 to 16"),
            "{e}"
        );
        c.smtp.connections = None;
        c.grace_hours = 4_000_000_000;
        let e = c.validate().unwrap_err().to_string();
        assert!(
            e.contains("grace_hours = 4000000000 is more than ten years"),
            "{e}"
        );
        c.grace_hours = 12;
        c.reminder_hours = 80;
        assert!(c
            .validate()
            .unwrap_err()
            .to_string()
            .contains("must be smaller than deadline_hours"));
        let e = Config::new("ref@example.org", "smtp://host:http")
            .unwrap_err()
            .to_string();
        assert!(e.contains("is not a port number"), "{e}");
    }
}
