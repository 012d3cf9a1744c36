//! dustmail: a referee for the Dust games played by email.
//!
//! Layers today (DESIGN §2; the folder split into core / edges / games is still to come):
//! - core: `game` (the game interface, `Audience`, dice sources), `seed` and `random` (dice v1/v2,
//!   `uniform`, shuffles, sealed choices), `hidden` (the hidden stream H), `ledger`, `audit`
//!   (line signatures and re-checks), `due` (the due-time index), `limits`;
//! - the game: `dust_tactics` (model, rules policy, engine by rule section, typed events, and its
//!   presentation: `dust_tactics::picture`, the board picture);
//! - edges: `mail`, `intake`, `crypto`, `outbox`, `lock`, `report`, `referee` (the
//!   batch pipeline), `dedup`, `cli`, `config`.
//!
//! The game imports only the core. Still to mend (issue 11 item 1): `audit` and `due` use the
//! replay types that live in `referee`, `report` reads the Dust Tactics view, and
//! `referee` and `report` import each other.

pub mod audit;
pub mod cli;
pub mod config;
pub mod crypto;
pub mod dedup;
pub mod due;
pub mod dust_tactics;
pub mod game;
pub mod hidden;
pub mod intake;
pub mod ledger;
pub mod limits;
pub mod lock;
pub mod mail;
pub mod outbox;
pub mod random;
pub mod referee;
pub mod report;
pub mod seed;
