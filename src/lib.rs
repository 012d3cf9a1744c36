//! dustmail: a referee for the Dust games played by email.
//!
//! The layers of DESIGN §2, one folder each:
//! - `pbem`, the core: the game interface and its registry (`game`, `registry`), random streams
//!   and seed chains (`random`, `seed`, `hidden`), the ledger, replay and audit (`ledger`,
//!   `replay`, `verify`, `audit`), games on disk and snapshots (`store`, `dedup`), deadlines and
//!   the due-time index (`control`, `due`), teams and referee control (`control`, `lines`);
//! - `games`: `dust_tactics` (model, rulesets as policies, engine by rule section, and its own
//!   presentation: board text, picture, roster, orders template);
//! - `edges`: `mail`, `intake`, `crypto`, `outbox`, `lock`, `report`;
//! - `pipeline`: the batch run (route → verify → submit → commit → deadlines);
//! - `cli` and `config` on top; the binary fills the registry (`cli::registry`).
//!
//! The core imports no edge and no game; an edge imports no game; a game imports only the core.
//! tests/it/layers.rs reads the sources and checks it. The modules are also reachable by their
//! first names at the crate root (`dustmail::ledger`, `dustmail::referee`…), for tools and tests.

pub mod cli;
pub mod config;
pub mod edges;
pub mod games;
pub mod pbem;
pub mod pipeline;

pub use edges::{crypto, intake, lock, mail, outbox, report};
pub use games::dust_tactics;
pub use pbem::{audit, dedup, due, game, hidden, ledger, limits, random, registry, seed};
/// The pipeline under its first name.
pub use pipeline as referee;
