//! Dust Tactics, the grid wargame, as a [`crate::game::Game`].
//!
//! Rulesets: `ffg-revised` (004 with 000 where 004 is silent) first; see DESIGN §1.

pub mod combat;
pub mod geometry;
pub mod model;
pub mod orders;
pub mod scenario;
