//! dustmail: a referee for Dust Tactics played by email.
//!
//! The core (`game`, `dust_tactics`, `ledger`, `orders`) never imports the edges (`mail`,
//! `crypto`, `outbox`, `report`, `cli`).

pub mod crypto;
pub mod dust_tactics;
pub mod game;
pub mod mail;
pub mod outbox;
pub mod seed;
pub mod cli;
pub mod config;
pub mod ledger;
pub mod referee;
pub mod report;
