//! The core's typed errors; [`RefereeError::exit_code`] maps them to the CLI's exit status.

use crate::ledger::LedgerError;

/// Errors of the referee. [`RefereeError::exit_code`] maps them to the CLI's exit status.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// Bad arguments or configuration: exit 2.
    #[error("{0}")]
    Usage(String),
    /// A verification failed or an input was rejected: exit 1.
    #[error("{0}")]
    Verify(String),
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// The machine failed (disk, outbox): exit 2.
    #[error("{0}")]
    Io(String),
    /// A mail about one incoming mail cannot be sent (its address or headers came from that
    /// mail): contained to that mail by `run`, which warns and goes on.
    #[error("{0}")]
    Unsendable(String),
}

impl RefereeError {
    pub fn exit_code(&self) -> i32 {
        match self {
            RefereeError::Verify(_) => 1,
            RefereeError::Ledger(LedgerError::Torn { .. } | LedgerError::Corrupt { .. }) => 1,
            _ => 2,
        }
    }
}

pub(crate) fn io_err(what: &str) -> impl FnOnce(std::io::Error) -> RefereeError + '_ {
    move |e| RefereeError::Io(format!("{what}: {e}"))
}
