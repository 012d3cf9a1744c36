//! The planner's side of 002's command squads under battlefront-2013 (issue 18, R640–R649; the
//! rules are in `battlefront/command.rs`): `skill <order> at <unit>`, one Special Action, checked
//! in full before any die is rolled.

use super::activation::Kind;
use super::*;
use crate::dust_tactics::battlefront::command::{self as bc, Order002, Stimulants};

/// 002's order names, for refusals.
fn names() -> String {
    Order002::ALL.map(|o| o.id()).join(", ")
}

impl Planner<'_> {
    /// A `skill` line naming a command squad order under battlefront-2013: 002's (planned here)
    /// or 000/004's that 002 does not have (refused). `None` otherwise, or under the other
    /// rulesets.
    pub(super) fn command002(
        &mut self,
        name: &str,
        target: Option<&TargetRef>,
    ) -> Option<Result<(), Refusal>> {
        if !self.rules.battlefront() {
            return None;
        }
        let rule = "002 \"Command Squads\" (pages 94–95): the Special Actions of Officers, Medics and Mechanics (R640)";
        let Some(order) = Order002::from_id(name) else {
            if name.eq_ignore_ascii_case("inject-stimulants") {
                return Some(Err(Refusal {
                    reason: "Inject Stimulants needs the token you take if the die shows army (\"the player chooses either token\")".into(),
                    rule: Order002::InjectStimulants(Stimulants::Attack).rule().into(),
                    instead: "skill inject-stimulants-attack at <unit>, or skill inject-stimulants-move at <unit>".into(),
                }));
            }
            return super::command::Order::from_id(name).map(|_| {
                Err(Refusal {
                    reason: format!("`{name}` is not an order of 002's command squads"),
                    rule: rule.into(),
                    instead: format!("one of: {}", names()),
                })
            });
        };
        Some(self.plan002(order, target))
    }

    fn plan002(&mut self, order: Order002, target: Option<&TargetRef>) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let rule = order.rule();
        let name = order.id();
        let err = |reason: String, rule: &str, instead: String| {
            Err(Refusal {
                reason,
                rule: rule.into(),
                instead,
            })
        };
        let who = match bc::performer(state, &u.id, order) {
            Ok(p) => p,
            Err(why) => return err(why, bc::LOST, "another action".into()),
        };
        if bc::spent(state, &who.unit, order) {
            return err(
                format!("{} has already succeeded with {}", who.unit, order.title()),
                rule,
                "another action".into(),
            );
        }
        let instead = format!("skill {name} at <friendly unit>");
        let Some(TargetRef::Unit(tid)) = target else {
            return err(
                format!("`skill {name}` needs the unit it is given to"),
                rule,
                instead,
            );
        };
        let Some(t) = state.unit(tid) else {
            return err(format!("there is no unit `{tid}`"), rule, instead);
        };
        if t.side != u.side {
            return err(format!("{} is not a friendly unit", t.id), rule, instead);
        }
        if bc::superhuman(state, &t.id) {
            return err(
                format!("{} is a Superhuman", t.id),
                bc::SUPERHUMAN,
                "give the order to another unit".into(),
            );
        }
        let ty = unit_type(state, &t.id);
        if order.brings_back() {
            let want = if order == Order002::Reinforcements {
                ty == UnitType::Squad
            } else {
                ty == UnitType::Vehicle
            };
            if !want || !t.destroyed {
                return err(
                    format!(
                        "{} is not an eliminated {}",
                        t.id,
                        if order == Order002::Reinforcements {
                            "Infantry Squad or Support Weapon (never a Hero)"
                        } else {
                            "Vehicle"
                        }
                    ),
                    rule,
                    "give the order to an eliminated unit of that kind".into(),
                );
            }
            self.push002(order, &t.id);
            return Ok(());
        }
        if t.destroyed || t.at.is_none() {
            return err(format!("{} is not on the battlefield", t.id), rule, instead);
        }
        let Some(from) = self.pos else {
            return err(
                format!("{} is not on the battlefield yet", u.id),
                RuleId::FirstRound
                    .with("the first action is a move onto the board")
                    .to_string()
                    .as_str(),
                "move <entry square> first".into(),
            );
        };
        let lead = leader_of(state, &t.id).unwrap_or_else(|| t.id.clone());
        let to = target_square(state, &lead).unwrap_or(from);
        // The reach: Range 1 or 2, in line of sight; a Radio Operator sends an Officer's order
        // to "any Unit on the board" (R644).
        if !who.radio {
            let dist = geometry::distance(from, to);
            if dist > order.range() {
                return err(
                    format!(
                        "{} on {to} is {dist} squares from {} on {from}: Range {}{}",
                        t.id,
                        u.id,
                        order.range(),
                        if order.range() == 2 {
                            ", and the Officer has no Radio Operator"
                        } else {
                            ""
                        }
                    ),
                    rule,
                    "move closer first".into(),
                );
            }
            if from != to {
                let sight = crate::dust_tactics::battlefront::sight::line_of_sight_under(
                    self.rules,
                    &state.scenario.board,
                    &self.occ,
                    &crate::dust_tactics::battlefront::strongpoints::all(state),
                    Sighter {
                        square: from,
                        unit_type: unit_type(state, &u.id),
                    },
                    Sighter {
                        square: to,
                        unit_type: ty,
                    },
                );
                if let Sight::Blocked { at, why } = sight {
                    return err(
                        format!(
                            "{} cannot see {}: no line of sight past {at}: {why}",
                            u.id, t.id
                        ),
                        rule,
                        "move first, or give the order to a unit in sight".into(),
                    );
                }
            }
            if order.range() == 1 {
                crate::dust_tactics::battlefront::strongpoints::check_reach(
                    state,
                    &format!("skill {name}"),
                    Some(from),
                    Some(to),
                )?;
            }
        }
        let tc = card(state, t);
        match order {
            Order002::GetUp | Order002::InjectStimulants(_) if ty == UnitType::Vehicle => {
                return err(
                    format!("{} is a vehicle: the Medic tends Infantry Units", t.id),
                    rule,
                    "give the order to an Infantry Unit".into(),
                );
            }
            Order002::GetUp => {
                let lost = match ty {
                    UnitType::Squad => tc.is_some_and(|c| t.models.len() < bc_full(c)),
                    _ => tc.is_some_and(|c| t.health < c.health),
                };
                if !lost {
                    return err(
                        format!("{} has lost nothing to bring back", t.id),
                        rule,
                        "give the order to a squad that lost a soldier or a wounded hero".into(),
                    );
                }
            }
            Order002::MakeshiftRepair
                if ty != UnitType::Vehicle || tc.is_some_and(|c| t.health >= c.health) =>
            {
                return err(
                    format!("{} is not a damaged vehicle", t.id),
                    rule,
                    "give the order to a damaged vehicle".into(),
                );
            }
            Order002::AmmoDrop => {
                let limited = group(state, &lead).iter().any(|m| {
                    state
                        .unit(m)
                        .and_then(|x| card(state, x))
                        .is_some_and(|c| c.weapons.iter().any(|w| w.ammo.is_some()))
                });
                if !limited {
                    return err(
                        format!("{lead} has no Limited Ammo weapons"),
                        rule,
                        "give the order to a unit with Limited Ammo weapons".into(),
                    );
                }
            }
            Order002::GetMoving => {
                if t.joined.is_some() {
                    return err(
                        format!("{} is joined to {lead} and activates with it", t.id),
                        rule,
                        format!("skill {name} at {lead}"),
                    );
                }
                if group(state, &u.id).contains(&t.id) {
                    return err(
                        format!(
                            "{} cannot re-activate itself: its own activation is the one that ends",
                            u.id
                        ),
                        rule,
                        "give the order to another unit that has activated".into(),
                    );
                }
                if !t.activated {
                    return err(
                        format!("{} has not been Activated this turn", t.id),
                        rule,
                        "give the order to a unit that has already activated this turn".into(),
                    );
                }
                if bc::reactivated_this_turn(state, &t.id) {
                    return err(
                        format!("{} has already been re-Activated this turn", t.id),
                        rule,
                        "give the order to another unit".into(),
                    );
                }
            }
            _ => {}
        }
        let id = t.id.clone();
        self.push002(order, &id);
        Ok(())
    }

    fn push002(&mut self, order: Order002, target: &str) {
        self.steps.push(Step::Command {
            ability: order.id().to_string(),
            target: target.to_string(),
        });
        self.texts.push(format!("skill {} at {target}", order.id()));
        self.push_kind(Kind::Skill);
    }

    /// 002 "Inject Stimulants" (R642): with an Attack Stimulants token the unit "treats an Attack
    /// Action as a Sustained Attack Action": its first attack line, unless it wrote `sustained`.
    pub(super) fn stimulated_attack(&self) -> bool {
        self.rules.battlefront()
            && self.u.stimulants == Some(Stimulants::Attack)
            && !self.kinds.contains(&Kind::Sustained)
    }

    /// 002 "Inject Stimulants" (R642): with a token, the three actions its activation may take:
    /// `Some(Ok)` for such a sequence (an Attack token: one `sustained` line and another
    /// action; a Move token: a March Move, two `move` lines in a row, and another action),
    /// `None` to let the usual sequences decide.
    pub(super) fn stimulants_sequence(&self) -> Option<Result<(), Refusal>> {
        let tok = self.u.stimulants.filter(|_| self.rules.battlefront())?;
        self.u.at?;
        let k = self.kinds.as_slice();
        let legal = match tok {
            Stimulants::Attack => {
                k.len() == 2 && k.iter().filter(|x| **x == Kind::Sustained).count() == 1
            }
            Stimulants::Move => {
                k.len() == 3
                    && !k.contains(&Kind::Sustained)
                    && k.windows(2).any(|w| w == [Kind::Move, Kind::Move])
            }
        };
        legal.then_some(Ok(()))
    }
}

/// How many soldiers the squad's card has.
fn bc_full(c: &Card) -> usize {
    crate::dust_tactics::flow::fresh(c).0.len()
}

/// Carries out a `skill <order>` step of 002's command squads; `true` when the activation ends
/// now.
pub(super) fn exec(
    state: &mut State,
    lead: &str,
    ability: &str,
    target: &str,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> bool {
    match Order002::from_id(ability) {
        Some(order) => bc::exec(state, lead, order, target, dice, out),
        None => false,
    }
}
