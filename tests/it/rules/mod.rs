//! Rules tests of Dust Tactics: one folder per ruleset (its rulebook's cases), and the rulesets
//! as policies beside them.

mod aircraft_004;
mod ammo_artillery;
mod artillery_004;
mod battlefront;
mod battlefront_combat;
mod battlefront_facing;
mod battlefront_fortifications;
mod battlefront_heroes;
mod battlefront_los;
mod battlefront_pilot;
mod battlefront_react;
mod battlefront_reserves;
mod battlefront_scenarios;
mod battlefront_skills;
mod classic_2010;
mod command_squads;
mod ffg_revised;
mod policy;
mod skills_004;
mod transport_004;
