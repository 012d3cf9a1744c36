//! 004 "Artillery Weapons (Range A)", indirect shot: "The unit may also use its other weapons
//! (targeting the same or a different unit)." (R547). The observer's strike line names them
//! after a comma, `skill artillery-strike [<gun>] at <target>, <weapon> at <target>[, …]`: the
//! gun fires them beside its indirect shot, in the same attack, as its own ATTACK would from its
//! square (its range, its line of sight, its ammunition), within the activation the strike uses.

use super::*;

impl Planner<'_> {
    /// `skill artillery-strike … at <target>, <weapon> at <target>[, …]`: the strike, then the
    /// gun's other weapon lines added to its shot (R547).
    pub(super) fn strike_with(
        &mut self,
        name: &str,
        target: &TargetRef,
        also: &[FireOrder],
    ) -> Result<(), Refusal> {
        let rule = RuleId::Artillery.with(
            "the unit may also use its other weapons (targeting the same or a different unit)",
        );
        let instead = "skill artillery-strike [<gun>] at <target> (without the weapons after it)";
        // 000 and 003 have no such sentence: classic-2010 and battlefront-2013 keep the strike
        // alone.
        if self.rules.id() != Rules::ffg_revised().id() {
            return refuse(
                format!(
                    "the gun's other weapons beside an indirect shot are 004's rule, not this game's ({})",
                    self.rules.id()
                ),
                rule,
                instead,
            );
        }
        let before = self.steps.len();
        self.skill_action(name, Some(target))?;
        let (state, observer) = (self.state, self.u);
        let gun = match self.steps.get(before..) {
            Some([Step::Strike { gun, .. }]) => gun.clone(),
            _ => {
                return refuse(
                    format!("`skill {name}` is no artillery strike: it names no gun's weapons"),
                    rule,
                    instead,
                )
            }
        };
        let Some((g, at)) = state.unit(&gun).and_then(|g| Some((g, g.at?))) else {
            return refuse(format!("{gun} is not on the battlefield"), rule, instead);
        };
        // The gun sees from its square: the board without it, the observer where it now is.
        let gun_group = group(state, &gun);
        let mut occ = self.occ.clone();
        for o in occ.values_mut() {
            o.retain(|x| !gun_group.contains(&x.unit.0));
        }
        if let Some(pos) = self.pos {
            occ.entry(pos).or_default().push(geometry::Occupant {
                unit: model::UnitId(observer.id.clone()),
                side: observer.side.clone(),
                unit_type: unit_type(state, &observer.id),
                above: super::aircraft::above(state, &observer.id),
            });
        }
        let lines = super::attack::plan_fire(state, g, (at, g.height), also, &occ, false, false)?;
        for l in &lines {
            let Some((_, w)) = find_weapon(state, &l.shooter, &l.weapon) else {
                continue;
            };
            if w.range == WeaponRange::Artillery {
                return refuse(
                    format!(
                        "{} is the gun's artillery: the indirect shot fires it once, the other weapons are the gun's others",
                        w.name
                    ),
                    rule,
                    format!("skill artillery-strike {gun} at {target}, <another weapon of {gun}> at <target>"),
                );
            }
            if w.range == WeaponRange::Close {
                return refuse(
                    format!(
                        "{} is a close-combat weapon: the engine fires only the gun's ranged weapons beside an indirect shot",
                        w.name
                    ),
                    rule,
                    format!("skill artillery-strike {gun} at {target}, <a ranged weapon of {gun}> at <target>"),
                );
            }
        }
        super::artillery::check_lines_loaded(state, &[], &lines)?;
        super::special_weapons::check_dual_ammo(state, &lines)?;
        let said = lines
            .iter()
            .map(|l| format!("{} at {}", l.weapon, target_text(&l.target)))
            .collect::<Vec<_>>()
            .join(", ");
        if let Some(Step::Strike { lines: shot, .. }) = self.steps.last_mut() {
            shot.extend(lines);
        }
        if let Some(t) = self.texts.last_mut() {
            t.push_str(&format!(", {said}"));
        }
        Ok(())
    }
}
