//! dustmail: a referee for Dust Tactics played by email.
//!
//! The core (`game`, `dust_tactics`, `ledger`, `orders`) never imports the edges (`mail`,
//! `crypto`, `outbox`, `report`, `cli`).

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
pub mod picture;
pub mod random;
pub mod referee;
pub mod report;
pub mod seed;
