//! Ruleset `ffg-revised` (the FFG revised rules summary, the 2010 core rules where it is silent):
//! the rulebook's cases by rule section, and whole games under it.

mod combat;
mod decisions;
mod engine;
mod flow;
mod flow_random;
mod games;
mod geometry;
mod sentences;
mod sentences2;
