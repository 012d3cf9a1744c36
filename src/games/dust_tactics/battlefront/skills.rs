//! Skills as 002 redefines them, under battlefront-2013 (issue 18, third slice). Built: Fast and
//! Damage Resilient (003), Fighting Spirit and Take Aim (002, R279, R280). A battlefront card
//! naming any other skill is refused at `new` with the skill and the file, never played by
//! 004's wording (R281). Under battlefront-2013 a "2-face" hit (002: "hits on rolls of [target]
//! as well as [army]") is the engine's `reversed` option, read as army or target
//! (`combat::AttackRoll::success`).

use super::super::cards;
use super::super::skill::Skill;
use std::collections::BTreeMap;

/// The skills battlefront-2013 plays as 003/002 word them.
pub const BUILT: &[Skill] = &[
    Skill::Fast,
    Skill::DamageResilient,
    Skill::FightingSpirit,
    Skill::TakeAim,
];

/// The skills a `skill` line may declare under battlefront-2013 (003 "Skills": "Declare a skill
/// before rolling any dice it affects"): Fighting Spirit, once per game.
pub const DECLARED: &[Skill] = &[Skill::FightingSpirit];

/// Checks every card of a battlefront-2013 game (file name → text): a skill not in [`BUILT`] is
/// refused, naming it and the file.
pub fn check_cards(card_files: &BTreeMap<String, String>) -> Result<(), String> {
    for (file, text) in card_files {
        let Ok(c) = cards::parse_card(file, text) else {
            continue;
        };
        for s in &c.skills {
            if !BUILT.iter().any(|b| b.id() == s.name) {
                return Err(format!(
                    "card {file} names the skill `{}`, which is {} (skills as 002 defines them are built one by one: {}); remove it from the card or use the shipped card",
                    s.name,
                    super::NOT_YET,
                    BUILT.iter().map(|b| b.id()).collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    Ok(())
}
