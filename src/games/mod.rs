//! The games behind the core (DESIGN §2). Each owns its model, rules and presentation and imports
//! only the core; adding one adds its folder here and one line in `cli::registry`.

pub mod dust_strategy;
pub mod dust_tactics;
