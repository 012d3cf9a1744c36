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
mod battlefront_skills002;
mod battlefront_skills002_moves;
mod battlefront_skills002_saves;
mod cards_000;
mod carried;
mod carry_004;
mod classic_2010;
mod command_squads;
mod ffg_revised;
mod joining_004;
mod large_004;
mod large_vehicles_004;
mod minefields_004;
mod piloting_004;
mod policy;
mod skills_004;
mod structures_004;
mod tank_riders_004;
mod transport_004;
mod underground_004;
