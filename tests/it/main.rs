//! The integration tests, in one binary: each module was once a test binary of its own, each
//! linking the whole crate (slow to build and link, and gigabytes of target/). Run one module
//! with `cargo test --test it <module>::`, e.g. `cargo test --test it pipeline::`.
//!
//! The tests of all modules run on threads of one process: a test must not change the process's
//! environment, current directory, umask or other global state (pass environment variables to
//! the child processes it spawns instead), and shared data (`tests/mails/`, `games/`) is read only.

// Shared helpers.
mod dust_home;
mod support;
mod support_flow;

// Rules cases, one folder per ruleset.
mod rules;

mod bad_input;
mod battlefront_transport;
mod board_picture;
mod briefing;
mod browser;
mod campaign;
mod campaign_absence;
mod campaign_agreed;
mod campaign_digest_held;
mod campaign_forces;
mod campaign_held;
mod campaign_strategic;
mod campaign_told;
mod cards;
mod citations;
mod cli;
mod cli_eco;
mod control;
mod crash;
mod crypto;
mod digest;
mod due_index;
mod faults;
mod fewer_mails;
mod fuzz_regressions;
mod games_registry;
mod golden_mails;
mod honest_outcomes;
mod imap;
mod layers;
mod layout;
mod ledger;
mod legal_template;
mod mail_clients;
mod mail_crates;
mod mail_intake;
mod mail_width;
mod openssh;
mod orders;
mod outbox;
mod outbox_smtp;
mod picture;
mod pilot_scenario;
mod pipeline;
mod player16;
mod random_streams;
mod readable;
mod readable_defaults;
mod replay_page;
mod reports;
mod rules_coverage;
mod scenarios;
mod scripted_games;
mod seed;
mod soak;
mod strategy;
mod team_command;
mod teams;
mod transport_scenario;
mod trust_intake;
mod trust_ledger;
mod trust_ops;
mod typed_events;
