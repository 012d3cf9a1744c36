//! The planner's side of 002's "Vehicle Equipment" under battlefront-2013 (issue 18; the rules
//! are in `battlefront/equipment.rs`): Air Alert (R663), Medevac (R665), Smoke Launchers (R666).

use super::*;
use crate::dust_tactics::battlefront::equipment as eq;
use crate::dust_tactics::battlefront::skills002::Skill002;

impl Planner<'_> {
    /// 002 "Air Alert" (R663): `skill air-alert at <aircraft>`, one action of a vehicle whose
    /// card has it, at an enemy aircraft in its line of sight (003 "Line of Sight to Aircraft").
    pub(super) fn air_alert(&mut self, target: Option<&TargetRef>) -> Result<(), Refusal> {
        let err = |reason: String| {
            Err(Refusal {
                reason,
                rule: eq::AIR_ALERT_RULE.into(),
                instead: "skill air-alert at <an enemy aircraft in sight>".into(),
            })
        };
        let (state, id) = (self.state, self.u.id.as_str());
        let has = card(state, self.u).is_some_and(|c| c.has_skill(Skill002::AirAlert.id()));
        if !has || !eq::ground_vehicle(state, id) {
            return err(format!("{id} is not a vehicle with Air Alert equipment"));
        }
        let Some(TargetRef::Unit(t)) = target else {
            return err("Air Alert needs the enemy aircraft it selects".into());
        };
        let Some(tu) = state.unit(t).filter(|x| !x.destroyed && x.at.is_some()) else {
            return err(format!("there is no unit `{t}` on the battlefield"));
        };
        if tu.side == self.u.side || !super::aircraft::is_aircraft(state, &tu.id) {
            return err(format!("{} is not an enemy aircraft", tu.id));
        }
        let (Some(from), Some(to)) = (self.pos, tu.at) else {
            return err(format!("{id} is not on the battlefield"));
        };
        let aim = Target::Unit {
            unit: tu.id.clone(),
        };
        super::aircraft::check_sight_003(state, id, &aim, from, to)?;
        self.steps.push(Step::AirAlert {
            target: tu.id.clone(),
        });
        self.texts.push(format!("skill air-alert at {}", tu.id));
        self.push_kind(Kind::Skill);
        Ok(())
    }
}

impl Planner<'_> {
    /// Whether the activating unit is a ground vehicle whose own card carries `k`.
    fn equipped(&self, k: Skill002) -> bool {
        card(self.state, self.u).is_some_and(|c| c.has_skill(k.id()))
            && eq::ground_vehicle(self.state, &self.u.id)
    }

    /// 002 "Medevac" (R665): `skill medevac at <squad>`, one action of a vehicle whose card has
    /// it, at a friendly infantry squad within one square of where it stands then.
    pub(super) fn medevac(&mut self, target: Option<&TargetRef>) -> Result<(), Refusal> {
        let err = |reason: String| {
            Err(Refusal {
                reason,
                rule: eq::MEDEVAC_RULE.into(),
                instead: "skill medevac at <a friendly squad within 1 square>".into(),
            })
        };
        let (state, id) = (self.state, self.u.id.as_str());
        if !self.equipped(Skill002::Medevac) {
            return err(format!("{id} is not a Medevac vehicle"));
        }
        let Some(TargetRef::Unit(t)) = target else {
            return err("Medevac needs the infantry unit it selects".into());
        };
        let Some(tu) = state.unit(t).filter(|x| !x.destroyed) else {
            return err(format!("there is no unit `{t}` on the battlefield"));
        };
        if tu.side != self.u.side || unit_type(state, &tu.id) != UnitType::Squad {
            return err(format!("{} is not a friendly infantry squad", tu.id));
        }
        let near = matches!((self.pos, tu.at), (Some(a), Some(b)) if geometry::distance(a, b) <= 1);
        if !near {
            return err(format!("{} is not within 1 square of {id}", tu.id));
        }
        self.steps.push(Step::Medevac {
            target: tu.id.clone(),
        });
        self.texts.push(format!("skill medevac at {}", tu.id));
        self.push_kind(Kind::Skill);
        Ok(())
    }

    /// 002 "Smoke Launchers" (R666): `skill smoke-launchers`, one action of a vehicle whose
    /// card has them, once per game, on the square it stands on then.
    pub(super) fn smoke_launchers(&mut self) -> Result<(), Refusal> {
        let err = |reason: String| {
            Err(Refusal {
                reason,
                rule: eq::SMOKE_RULE.into(),
                instead: "remove `skill smoke-launchers`".into(),
            })
        };
        let id = self.u.id.as_str();
        if !self.equipped(Skill002::SmokeLaunchers) {
            return err(format!("{id} is not a vehicle with Smoke Launchers"));
        }
        let used = self.u.skills_used.get(Skill002::SmokeLaunchers.id());
        if used.copied().unwrap_or(0) > 0 {
            return err(format!(
                "{id} has already launched its smoke (once per game)"
            ));
        }
        if self.pos.is_none() {
            return err(format!("{id} is not on the battlefield"));
        }
        self.steps.push(Step::SmokeLaunchers);
        self.texts.push("skill smoke-launchers".into());
        self.push_kind(Kind::Skill);
        Ok(())
    }
}
