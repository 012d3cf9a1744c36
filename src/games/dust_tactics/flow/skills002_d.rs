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

impl Planner<'_> {
    /// A `skill <name>` line of the action sequence naming one of 002's skills under
    /// battlefront-2013: a declared one was planned with the free skills (`declare002`); a
    /// Special Action is planned here. `None` when `name` is not one.
    pub(super) fn skill_action002(
        &mut self,
        name: &str,
        target: Option<&TargetRef>,
    ) -> Option<Result<(), Refusal>> {
        if !self.rules.battlefront() {
            return None;
        }
        Some(match s2d::of_line(name)? {
            Skill002::Camouflage => self.camouflage(),
            Skill002::Resurrection => self.resurrection(target),
            Skill002::AirAlert => self.air_alert(target), // R663, `flow/equipment.rs`
            Skill002::Medevac => self.medevac(target),     // R665
            Skill002::SmokeLaunchers => self.smoke_launchers(), // R666
            // An unplaced Spy's first line is planned by `flow::spy`; here it is out of place.
            Skill002::Spy => Err(Refusal {
                reason: format!(
                    "`skill spy` places a Spy not placed yet, as the first line of its activation; {} is not one",
                    self.u.id
                ),
                rule: super::spy::RULE.into(),
                instead: "remove `skill spy`".into(),
            }),
            _ => Ok(()),
        })
    }

    /// 002 "Camouflage": "A Unit with the Camouflage Skill may take a Camouflage Special
    /// Action" (R762): one action, by a group with a member whose card has it.
    fn camouflage(&mut self) -> Result<(), Refusal> {
        let (state, id) = (self.state, self.u.id.as_str());
        let has = |uid: &str| {
            state
                .unit(uid)
                .and_then(|u| state.card_of(u))
                .is_some_and(|c| c.has_skill(Skill002::Camouflage.id()))
        };
        if !has(id) && !state.joined_of(id).iter().any(|h| has(&h.id)) {
            return Err(Refusal {
                reason: format!("{id} does not have the Camouflage skill"),
                rule: "002 \"Camouflage\": \"A Unit with the Camouflage Skill may take a Camouflage Special Action\" (R762)".into(),
                instead: "remove `skill camouflage`".into(),
            });
        }
        self.steps.push(Step::Camouflage);
        self.texts
            .push(format!("skill {}", Skill002::Camouflage.id()));
        self.push_kind(Kind::Skill);
        Ok(())
    }
}

/// 002 "Camouflage" (R762): an attack on a Camouflaged unit in Cover from the shooter and at
/// Range 3 or more is refused: the shooter has no line of sight to it.
pub(super) fn check_camouflage(
    state: &State,
    occ: &Occupancy,
    shooter: Sighter,
    target_at: Sighter,
    target: &Target,
) -> Result<(), Refusal> {
    let (Target::Unit { unit } | Target::Model { unit, .. }) = target else {
        return Ok(());
    };
    if !s2d::hidden(state, occ, shooter, target_at, unit) {
        return Ok(());
    }
    Err(Refusal {
        reason: format!(
            "{unit} on {} is Camouflaged, in cover from {} and {} squares away: no line of sight to it",
            target_at.square,
            shooter.square,
            geometry::distance(shooter.square, target_at.square)
        ),
        rule: s2d::CAMOUFLAGE_RULE.into(),
        instead: "move within 2 squares of it or to where it is not in cover, or choose another target".into(),
    })
}

/// 002 "Camouflage" (R762): whether the activating unit `mover` on `to` is hidden from the
/// reactor `reactor` on `from`.
pub(super) fn hidden_from(
    state: &State,
    occ: &Occupancy,
    reactor: &str,
    from: Square,
    mover: &str,
    to: Square,
) -> bool {
    let (r, m) = (
        s2d::sighter(state, reactor, from),
        s2d::sighter(state, mover, to),
    );
    s2d::hidden(state, occ, r, m, mover)
}

impl Planner<'_> {
    /// 002 "Blutkreuz" (R763): the Movement of this `move` of a Mindless Zombie unit the
    /// Blutkreuz leads: 3; for the second `move` of a March Move, which continues the first with
    /// twice the Movement in all (R200), half of 4; `None` when not led.
    pub(super) fn blutkreuz_mp(&self) -> Option<u32> {
        s2d::blutkreuz_leader(self.state, &self.u.id)?;
        let moves = self.kinds.iter().filter(|k| **k == Kind::Move).count();
        let march = moves == 1 && self.last_kind == Some(Kind::Move);
        Some(if march {
            s2d::BLUTKREUZ_MARCH / 2
        } else {
            s2d::BLUTKREUZ_MOVE
        })
    }

    /// 002 "Blutkreuz" (R763): the unit "gain[s] the Charge Skill" when led: the owner of the
    /// declared Charge is then the unit itself.
    pub(super) fn blutkreuz_charge(&self) -> Option<String> {
        s2d::blutkreuz_leader(self.state, &self.u.id).map(|_| self.u.id.clone())
    }
}

impl Planner<'_> {
    /// 002 "Resurrection" (R764): `skill resurrection at <unit>`, one action of the hero with
    /// the skill (his own card) on a friendly Mindless Zombie unit within Range 1 of where he
    /// stands then.
    fn resurrection(&mut self, target: Option<&TargetRef>) -> Result<(), Refusal> {
        let rule = "002 \"Resurrection\": \"A Hero equipped with a Blutkreuz ... may take a Resurrection Special Action. If they do so, select a Mindless Zombie Unit within Range 1\" (R764)";
        let err = |reason: String| {
            Err(Refusal {
                reason,
                rule: rule.into(),
                instead: "skill resurrection at <a friendly Mindless Zombie unit within 1 square>"
                    .into(),
            })
        };
        let (state, id) = (self.state, self.u.id.as_str());
        let Some(hero) = s2d::hero_of_group(state, id, Skill002::Resurrection) else {
            return err(format!(
                "{id} has no hero with Resurrection on his own card"
            ));
        };
        let Some(TargetRef::Unit(t)) = target else {
            return err("Resurrection needs the Mindless Zombie unit it raises".into());
        };
        let Some(tu) = state.unit(t).filter(|x| !x.destroyed) else {
            return err(format!("there is no unit `{t}` on the battlefield"));
        };
        let zombie = state
            .card_of(tu)
            .is_some_and(|c| c.has_skill(Skill002::MindlessZombie.id()));
        if tu.side != self.u.side || !zombie {
            return err(format!("{} is not a friendly Mindless Zombie unit", tu.id));
        }
        let near = matches!((self.pos, tu.at), (Some(a), Some(b)) if geometry::distance(a, b) <= 1);
        if !near {
            return err(format!("{} is not within 1 square of {hero}", tu.id));
        }
        self.steps.push(Step::Resurrection {
            hero,
            target: tu.id.clone(),
        });
        self.texts.push(format!("skill resurrection at {}", tu.id));
        self.push_kind(Kind::Skill);
        Ok(())
    }
}
