//! The planner's side of 002's skills of the fourth batch (battlefront-2013, issue 18; the
//! rules are in `battlefront/skills002_d.rs`): Lucky declared (R760).

use super::*;
use crate::dust_tactics::battlefront::skills002::Skill002;
use crate::dust_tactics::battlefront::skills002_d as s2d;

impl Planner<'_> {
    /// A `skill <name>` line declaring one of 002's skills under battlefront-2013 (no action):
    /// `None` when `name` is not one, so the other rulesets' planning goes on.
    pub(super) fn declare002(&mut self, name: &str) -> Option<Result<(), Refusal>> {
        if !self.rules.battlefront() {
            return None;
        }
        let skill = s2d::declares(name)?;
        Some(match skill {
            Skill002::Lucky => self.lucky(),
            _ => Ok(()),
        })
    }

    /// 002 "Lucky" (R760): the hero of the activating group with the skill on his own card,
    /// once per game; his lines of the activation re-roll their misses.
    fn lucky(&mut self) -> Result<(), Refusal> {
        let rule = "002 \"Lucky\": \"Once per game, a Hero with the Lucky Skill may re-roll any dice that failed to Hit with any of their weapons when making an Attack or Sustained Attack action\" (R760)";
        let Some(hero) = s2d::hero_of_group(self.state, &self.u.id, Skill002::Lucky) else {
            return Err(Refusal {
                reason: format!(
                    "{} has no hero with the Lucky skill on his own card (a hero does not share it with the unit he joins)",
                    self.u.id
                ),
                rule: rule.into(),
                instead: "remove `skill lucky`".into(),
            });
        };
        if s2d::lucky_spent(self.state, &hero) {
            return Err(Refusal {
                reason: format!("{hero} has already used Lucky (once per game)"),
                rule: rule.into(),
                instead: "remove `skill lucky`".into(),
            });
        }
        self.flags.lucky = true;
        self.texts.push(format!("skill {}", Skill002::Lucky.id()));
        Ok(())
    }
}
