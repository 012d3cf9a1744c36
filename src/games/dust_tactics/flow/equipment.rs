//! The planner's side of 002's "Vehicle Equipment" under battlefront-2013 (issue 18; the rules
//! are in `battlefront/equipment.rs`): Air Alert (R663).

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
