//! 000 and 004 "Command Squads": a squad with the Command Squad skill whose models are its
//! Officer, Radioman, Mechanic, Medic and weapon specialist; its orders are SKILL actions
//! written `skill <order> at <unit>` (R211).

use super::*;

/// A command squad's order, by the member who gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    /// Officer: "Get Moving You Bunch of Monkeys!" (a die; reactivates a unit).
    GetMoving,
    /// Medic: "Get Up, It Ain't That Bad" (no die; a miniature back, or 1 health to a hero).
    GetUp,
    /// Mechanic: "Makeshift Repair" (no die; 1 health to a vehicle).
    MakeshiftRepair,
    /// Mechanic: "Field Repair" (a die; a destroyed vehicle re-enters).
    FieldRepair,
    /// Medic: "Come On Guys; We're Going Back Out There" (a die; an eliminated squad re-enters).
    ComeOnGuys,
    /// NCO command squads, Field Mechanic: "Ammo Dump" (once per game, no die; a unit within
    /// line of sight replenishes its limited ammo; R523).
    AmmoDump,
    /// NCO command squads, Field Officer: "Smoke Mortars" (once per game, no die; a Smoke token
    /// on a square in line of sight; R525).
    SmokeMortars,
    /// NCO command squads, Field Medic: "Stimulant Kit" (once per game, no die; an adjacent
    /// soldier unit's next activation is 4 actions, then it is exhausted; R477).
    StimulantKit,
}

impl Order {
    const ALL: [Order; 8] = [
        Order::GetMoving,
        Order::GetUp,
        Order::MakeshiftRepair,
        Order::FieldRepair,
        Order::ComeOnGuys,
        Order::AmmoDump,
        Order::SmokeMortars,
        Order::StimulantKit,
    ];

    /// The name an order line uses (`skill get-up at <unit>`).
    pub(super) fn id(self) -> &'static str {
        match self {
            Order::GetMoving => "get-moving",
            Order::GetUp => "get-up",
            Order::MakeshiftRepair => "makeshift-repair",
            Order::FieldRepair => "field-repair",
            Order::ComeOnGuys => "come-on-guys",
            Order::AmmoDump => "ammo-dump",
            Order::SmokeMortars => "smoke-mortars",
            Order::StimulantKit => "stimulant-kit",
        }
    }

    pub(super) fn from_id(id: &str) -> Option<Order> {
        Order::ALL
            .into_iter()
            .find(|o| o.id().eq_ignore_ascii_case(id))
    }

    pub(super) fn title(self) -> &'static str {
        match self {
            Order::GetMoving => "Get Moving You Bunch of Monkeys!",
            Order::GetUp => "Get Up, It Ain't That Bad",
            Order::MakeshiftRepair => "Makeshift Repair",
            Order::FieldRepair => "Field Repair",
            Order::ComeOnGuys => "Come On Guys; We're Going Back Out There",
            Order::AmmoDump => "Ammo Dump",
            Order::SmokeMortars => "Smoke Mortars",
            Order::StimulantKit => "Stimulant Kit",
        }
    }

    /// The model (its id on the card) whose speciality the order is, in a command squad or
    /// (`nco`) an NCO command squad; `None` when that kind of squad has no such order.
    fn member(self, nco: bool) -> Option<&'static str> {
        if nco {
            return super::nco::member(self);
        }
        Some(match self {
            Order::GetMoving => OFFICER,
            Order::GetUp | Order::ComeOnGuys => MEDIC,
            Order::MakeshiftRepair | Order::FieldRepair => MECHANIC,
            Order::AmmoDump | Order::SmokeMortars | Order::StimulantKit => return None,
        })
    }
}

const OFFICER: &str = "officer";
const RADIOMAN: &str = "radioman";
const MECHANIC: &str = "mechanic";
const MEDIC: &str = "medic";

/// The order names, for refusals that list what a `skill` line may say.
pub(super) fn order_names() -> String {
    Order::ALL.map(|o| o.id()).join(", ")
}

fn is_command_squad(state: &State, id: &str) -> bool {
    state
        .unit(id)
        .and_then(|u| card(state, u))
        .is_some_and(|c| c.has(Skill::CommandSquad) || c.has(Skill::NcoCommandSquad))
}

/// Whether `id` is an NCO command squad (004 "NCO Command Squads").
pub(super) fn is_nco(state: &State, id: &str) -> bool {
    state
        .unit(id)
        .and_then(|u| card(state, u))
        .is_some_and(|c| c.has(Skill::NcoCommandSquad))
}

fn member_alive(u: &UnitState, member: &str) -> bool {
    u.models.iter().any(|m| m.eq_ignore_ascii_case(member))
}

/// How many models the squad's card has.
fn full_models(c: &Card) -> u8 {
    if c.models.is_empty() {
        c.health
    } else {
        c.models.len().min(u8::MAX as usize) as u8
    }
}

impl Planner<'_> {
    /// A command squad's order as a SKILL action: checked in full now, applied by
    /// [`exec_command`].
    pub(super) fn command_order(
        &mut self,
        order: Order,
        target: Option<&TargetRef>,
    ) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let rule = RuleId::CommandSquads;
        let name = order.id();
        let nco = is_nco(state, &u.id);
        if !nco && !card(state, u).is_some_and(|c| c.has(Skill::CommandSquad)) {
            return refuse(
                format!(
                    "{} is not a command squad: `{name}` is a command squad's order",
                    u.id
                ),
                rule.with("the Command Squad ability will appear on the unit card"),
                "remove that skill line",
            );
        }
        let Some(member) = order.member(nco) else {
            return super::nco::not_its_order(u, order.title(), nco);
        };
        if !member_alive(u, member) {
            return refuse(
                format!(
                    "the {member} of {} has been eliminated, and with him {}",
                    u.id,
                    order.title()
                ),
                rule.with(
                    "when a figure is eliminated, the squad loses that figure's specialization",
                ),
                "give an order of a member still alive, or another action",
            );
        }
        // An Artillery Strike (the radioman's) is an attempt too (R416).
        let attempted = self
            .steps
            .iter()
            .any(|s| matches!(s, Step::Command { .. } | Step::Strike { .. }));
        if attempted || u.command_round == Some(state.round) {
            return refuse(
                format!(
                    "{} has already attempted a command squad ability this round",
                    u.id
                ),
                rule.with("you may only attempt to use 1 skill once per round"),
                "remove that skill line",
            );
        }
        let back = matches!(order, Order::FieldRepair | Order::ComeOnGuys);
        if back && !member_alive(u, RADIOMAN) {
            return refuse(
                format!(
                    "the radioman of {} has been eliminated: {} does not work without him",
                    u.id,
                    order.title()
                ),
                rule.with("if the radioman is eliminated, the skill does not work"),
                "give another order",
            );
        }
        if back && u.skills_used.get(name).copied().unwrap_or(0) > 0 {
            return refuse(
                format!(
                    "{} has already brought a unit back with {}: once per game",
                    u.id,
                    order.title()
                ),
                rule.with("you may only bring a single one back for the whole game"),
                "give another order",
            );
        }
        let instead = format!("skill {name} at <friendly unit>");
        let Some(TargetRef::Unit(tid)) = target else {
            return refuse(
                format!("`skill {name}` needs the unit the order is given to"),
                rule,
                instead,
            );
        };
        let Some(t) = state.unit(tid) else {
            return refuse(format!("there is no unit `{tid}`"), rule, instead);
        };
        if t.side != u.side {
            return refuse(
                format!("{} is not a friendly unit", t.id),
                rule.with("orders are given to your own units"),
                instead,
            );
        }
        if back {
            return self.bring_back(order, t);
        }
        if order == Order::AmmoDump {
            self.ammo_dump_check(t)?;
        }
        if t.destroyed || t.at.is_none() {
            return refuse(
                format!("{} is not on the battlefield", t.id),
                rule.with("this skill cannot be used on an eliminated squad or hero"),
                instead,
            );
        }
        if group(state, &u.id).contains(&t.id) {
            return refuse(
                format!("{} cannot give its own orders to itself", u.id),
                rule.with("the command squad's orders do not work on the command squad itself"),
                instead,
            );
        }
        let lead = leader_of(state, &t.id).unwrap_or_else(|| t.id.clone());
        if !self.rules.command_orders_reach_command_squads()
            && (is_command_squad(state, &t.id) || is_command_squad(state, &lead))
        {
            return refuse(
                format!("{} has a Command Squad skill too", lead),
                rule.with("cannot use its skills on any unit that also has a Command Squad skill"),
                "give the order to a unit without a Command Squad skill",
            );
        }
        // Relay: the Radioman sends the Officer's order anywhere, never a repair or a cure.
        let relay = order == Order::GetMoving && member_alive(u, RADIOMAN);
        // Next to any of a large vehicle's 4 squares (R573).
        // At different heights never adjacent (004 "Structures"; R517): the planned height.
        let adjacent = matches!((self.pos, t.at), (Some(a), Some(b)) if super::large::touching(self.state, &u.id, a, &t.id, b))
            && self.height == t.height;
        if !relay && !adjacent && order != Order::AmmoDump {
            return refuse(
                format!(
                    "{} is not adjacent to {}{}",
                    t.id,
                    u.id,
                    if order == Order::GetMoving {
                        ", and its radioman has been eliminated"
                    } else {
                        " (the radioman's relay does not work for this order)"
                    }
                ),
                rule.with("the unit must be in an adjacent square"),
                "move next to it first",
            );
        }
        let tc = card(state, t);
        let ty = unit_type(state, &t.id);
        match order {
            Order::GetUp => {
                let lost = match ty {
                    UnitType::Squad => tc.is_some_and(|c| t.health < full_models(c)),
                    UnitType::Hero => tc.is_some_and(|c| t.health < c.health),
                    UnitType::Vehicle => {
                        return refuse(
                            format!("{} is a vehicle: the Medic tends squads and heroes", t.id),
                            rule.with("revive 1 miniature in an adjacent squad, or restore 1 health to an adjacent hero"),
                            format!("skill {} at {}", Order::MakeshiftRepair.id(), t.id),
                        )
                    }
                };
                if !lost {
                    return refuse(
                        format!("{} has lost nothing to bring back", t.id),
                        rule.with("revive 1 miniature in an adjacent squad, or restore 1 health to an adjacent hero"),
                        "give the order to a squad that lost a miniature or a wounded hero",
                    );
                }
            }
            Order::MakeshiftRepair => {
                if ty != UnitType::Vehicle {
                    return refuse(
                        format!("{} is not a vehicle", t.id),
                        rule.with("restore 1 health to an adjacent non-destroyed vehicle"),
                        format!("skill {} at {}", Order::GetUp.id(), t.id),
                    );
                }
                if tc.is_some_and(|c| t.health >= c.health) {
                    return refuse(
                        format!("{} has lost no health", t.id),
                        rule.with("restore 1 health to an adjacent non-destroyed vehicle"),
                        "give the order to a damaged vehicle",
                    );
                }
            }
            Order::GetMoving => {
                if t.joined.is_some() {
                    return refuse(
                        format!("{} is joined to {lead} and activates with it", t.id),
                        RuleId::Heroes,
                        format!("skill {name} at {lead}"),
                    );
                }
                // An exhausted unit "cannot be reactivated by any command squad" (R477).
                if t.exhausted {
                    return refuse(
                        format!("{} is exhausted: no command squad reactivates it", t.id),
                        RuleId::NcoCommandSquads.with(
                            "while exhausted, the unit cannot be reactivated by any command squad",
                        ),
                        "give the order to another unit",
                    );
                }
                // "that unit is reactivated for this round ... It can move again" (R211).
                if !t.activated {
                    return refuse(
                        format!(
                            "{} has not activated this round: there is nothing to reactivate",
                            t.id
                        ),
                        rule.with("that unit is reactivated for this round"),
                        "give the order to a unit that has already activated this round",
                    );
                }
            }
            Order::StimulantKit => self.stimulant_check(t)?,
            Order::FieldRepair | Order::ComeOnGuys | Order::AmmoDump | Order::SmokeMortars => {}
        }
        self.steps.push(Step::Command {
            ability: name.to_string(),
            target: t.id.clone(),
        });
        self.texts.push(format!("skill {name} at {}", t.id));
        self.push_kind(Kind::Skill);
        Ok(())
    }
}

impl Planner<'_> {
    /// Field Repair (a destroyed vehicle) and Come On Guys (an eliminated squad, never a hero):
    /// the unit re-enters from its side's entry zone and activates right after the command
    /// squad (000/004 "Command Squads", R213).
    fn bring_back(&mut self, order: Order, t: &UnitState) -> Result<(), Refusal> {
        let state = self.state;
        let rule = RuleId::CommandSquads;
        let name = order.id();
        let want = if order == Order::FieldRepair {
            UnitType::Vehicle
        } else {
            UnitType::Squad
        };
        if unit_type(state, &t.id) != want {
            return refuse(
                format!(
                    "{} is not a {}: {} brings back {}",
                    t.id,
                    if want == UnitType::Vehicle {
                        "vehicle"
                    } else {
                        "squad"
                    },
                    order.title(),
                    if want == UnitType::Vehicle {
                        "a destroyed vehicle"
                    } else {
                        "an eliminated squad, never a hero"
                    }
                ),
                rule.with(if want == UnitType::Vehicle {
                    "the Mechanic brings a vehicle that was destroyed back into the game"
                } else {
                    "a hero who was eliminated cannot be brought back into the game"
                }),
                "give the order to a destroyed unit of that kind",
            );
        }
        if !t.destroyed {
            return refuse(
                format!("{} is not destroyed", t.id),
                rule.with("brings a unit that was destroyed back into the game"),
                "give the order to a destroyed unit",
            );
        }
        if card(state, t).is_some_and(|c| c.has(Skill::RareUnit)) {
            return refuse(
                format!("{} is a Rare Unit", t.id),
                RuleId::Skills.with("Rare Unit: cannot be brought back into play for any reason (including by a Command Squad)"),
                "give the order to another destroyed unit",
            );
        }
        if !self.rules.command_orders_reach_command_squads() && is_command_squad(state, &t.id) {
            return refuse(
                format!("{} has a Command Squad skill too", t.id),
                rule.with("cannot use its skills on any unit that also has a Command Squad skill"),
                "give the order to a unit without a Command Squad skill",
            );
        }
        self.steps.push(Step::Command {
            ability: name.to_string(),
            target: t.id.clone(),
        });
        self.texts.push(format!("skill {name} at {}", t.id));
        self.push_kind(Kind::Skill);
        Ok(())
    }
}

/// Gives a planned order: the attempt counts for the round whatever happens; an order whose
/// member fell since it was declared does nothing.
pub(super) fn exec_command(
    state: &mut State,
    lead: &str,
    ability: &str,
    target: &str,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let Some(order) = Order::from_id(ability) else {
        return;
    };
    let round = state.round;
    let nco = is_nco(state, lead);
    let Some(cs) = state.unit_mut(lead) else {
        return;
    };
    cs.command_round = Some(round);
    let Some(member) = order.member(nco) else {
        return;
    };
    if !member_alive(cs, member) {
        say(
            out,
            format!(
                "{lead}'s {member} has been eliminated: no {}",
                order.title()
            ),
        );
        return;
    }
    if order == Order::SmokeMortars {
        return super::nco::exec_smoke(state, lead, target, out);
    }
    let Some(t) = state.unit(target).cloned() else {
        return;
    };
    let Some(tc) = card(state, &t).cloned() else {
        return;
    };
    if matches!(order, Order::FieldRepair | Order::ComeOnGuys) {
        return bring_back(state, lead, order, &t, &tc, dice, out);
    }
    if t.destroyed {
        say(out, format!("{target} is eliminated: no {}", order.title()));
        return;
    }
    match order {
        Order::GetUp if tc.unit_type == UnitType::Squad => revive(state, &t, &tc, lead, out),
        Order::AmmoDump => super::nco::exec_ammo_dump(state, lead, &t, &tc, out),
        Order::StimulantKit => super::stimulant::exec_stimulant(state, lead, target, out),
        Order::GetUp | Order::MakeshiftRepair => {
            if let Some(x) = state.unit_mut(target) {
                x.health = (x.health + 1).min(tc.health);
            }
            say(
                out,
                format!("{}: {lead} restores 1 health to {target}", order.title()),
            );
        }
        Order::GetMoving => {
            let face = dice.d6(round);
            let face = super::carry::command_reroll(state, lead, face, dice, out);
            let hit = state.rules().is_hit(face);
            if hit {
                state.reactivated = Some(target.to_string());
            }
            out.happenings.push(Happening {
                rolls: vec![Roll {
                    purpose: format!("get moving {lead}"),
                    round,
                    faces: vec![face],
                }],
                ..Happening::text(format!(
                    "{}: {lead}'s officer rolls {face}: {}",
                    order.title(),
                    if hit {
                        format!("a hit, {target} is reactivated right after {lead}")
                    } else {
                        "a miss, the order fails".to_string()
                    }
                ))
            });
        }
        Order::FieldRepair | Order::ComeOnGuys | Order::SmokeMortars => {}
    }
}

/// The die of Field Repair or Come On Guys; on a hit the unit is whole again, off the board, and
/// activates next, entering from its side's entry zone ("as it did at the beginning of the
/// game"); a destruction again counts again for victory points (each destruction is recorded).
/// Only a success spends the order for the game ("as many tries as you need").
fn bring_back(
    state: &mut State,
    lead: &str,
    order: Order,
    t: &UnitState,
    tc: &Card,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let round = state.round;
    if !state
        .unit(lead)
        .is_some_and(|cs| member_alive(cs, RADIOMAN))
    {
        say(
            out,
            format!(
                "{lead}'s radioman has been eliminated: no {}",
                order.title()
            ),
        );
        return;
    }
    let face = dice.d6(round);
    let face = super::carry::command_reroll(state, lead, face, dice, out);
    let hit = state.rules().is_hit(face) && t.destroyed;
    if hit {
        if let Some(cs) = state.unit_mut(lead) {
            *cs.skills_used.entry(order.id().to_string()).or_insert(0) += 1;
        }
        let models: Vec<String> = if tc.unit_type != UnitType::Squad {
            vec![]
        } else if tc.models.is_empty() {
            (1..=tc.health).map(|i| i.to_string()).collect()
        } else {
            tc.models.iter().map(|m| m.id.clone()).collect()
        };
        if let Some(x) = state.unit_mut(&t.id) {
            x.destroyed = false;
            x.at = None;
            x.health = if models.is_empty() {
                tc.health
            } else {
                models.len().min(u8::MAX as usize) as u8
            };
            x.models = models;
            x.ammo = tc
                .weapons
                .iter()
                .filter_map(|w| w.ammo.map(|a| (w.id.clone(), a)))
                .collect();
            x.activated = true;
        }
        state.reactivated = Some(t.id.clone());
        // 004 "Recovery Vehicle": a vehicle back in play leaves no wreck to salvage (R484).
        state.wrecks.retain(|w| w.unit != t.id);
    }
    out.happenings.push(Happening {
        rolls: vec![Roll {
            purpose: format!("{} {lead}", order.id()),
            round,
            faces: vec![face],
        }],
        ..Happening::text(format!(
            "{}: {lead} rolls {face}: {}",
            order.title(),
            if hit {
                format!(
                    "a hit, {} comes back and enters the battlefield right after {lead}",
                    t.id
                )
            } else {
                "a miss, it stays out of the battle".to_string()
            }
        ))
    });
    if hit {
        super::joining::commissar_returns(state, &t.id, out);
    }
}

/// Get Up on a squad: its first eliminated miniature (card order) returns "with its special
/// weapons and ammo for limited ammo weapons" (000; 004: "full ammo for any limited weapons"):
/// each limited-ammo line it carries gets back its share of the card's boxes (R212).
fn revive(state: &mut State, t: &UnitState, tc: &Card, lead: &str, out: &mut Outcome) {
    let all: Vec<String> = if tc.models.is_empty() {
        (1..=tc.health).map(|i| i.to_string()).collect()
    } else {
        tc.models.iter().map(|m| m.id.clone()).collect()
    };
    let Some(back) = all
        .iter()
        .find(|m| !t.models.iter().any(|x| x.eq_ignore_ascii_case(m)))
        .cloned()
    else {
        return;
    };
    let spec = tc.models.iter().find(|m| m.id == back);
    let mut refilled = vec![];
    let Some(x) = state.unit_mut(&t.id) else {
        return;
    };
    for w in &tc.weapons {
        let Some(boxes) = w.ammo else { continue };
        let listed = tc
            .models
            .iter()
            .filter(|m| m.carries.contains(&w.id))
            .count();
        let carries = listed == 0 || spec.is_some_and(|m| m.carries.contains(&w.id));
        if !carries {
            continue;
        }
        let carriers = if listed == 0 { all.len() } else { listed }.max(1);
        let share = (boxes as usize).div_ceil(carriers).min(u8::MAX as usize) as u8;
        let left = x.ammo.get(&w.id).copied().unwrap_or(boxes);
        let now = left.saturating_add(share).min(boxes);
        if now != left {
            x.ammo.insert(w.id.clone(), now);
            refilled.push(w.name.clone());
        }
    }
    x.models = all
        .iter()
        .filter(|m| *m == &back || x.models.iter().any(|y| y.eq_ignore_ascii_case(m)))
        .cloned()
        .collect();
    x.health = x.models.len().min(u8::MAX as usize) as u8;
    say(
        out,
        format!(
            "{}: {lead}'s medic brings model {back} of {} back{}",
            Order::GetUp.title(),
            t.id,
            if refilled.is_empty() {
                String::new()
            } else {
                format!(", with ammo for {}", refilled.join(", "))
            }
        ),
    );
}

/// After the command squad's activation: the unit its Officer reactivated, or the one its
/// Mechanic or Medic brought back, activates next ("This new activation takes place right after
/// that of the command squad"). `false` when there is none (or it fell meanwhile).
pub(super) fn reactivate(state: &mut State, out: &mut Outcome) -> bool {
    let Some(t) = state.reactivated.clone() else {
        return false;
    };
    let Some(side) = state
        .unit(&t)
        .filter(|u| !u.destroyed)
        .map(|u| u.side.clone())
    else {
        state.reactivated = None;
        return false;
    };
    for m in group(state, &t) {
        if let Some(x) = state.unit_mut(&m) {
            x.activated = false;
            x.stopped = false;
            x.moved = false;
        }
    }
    say(
        out,
        format!("{t} is reactivated: {side} activates it now, before anyone else"),
    );
    state.next_side = Some(side);
    true
}

/// Setup: "your army may have a 2 Command Squad and a 3 Command Squad, but not two 2's" (000;
/// 004: "each unit must have a different armor class").
pub(super) fn check_setup(
    units: &[UnitState],
    cards: &BTreeMap<String, Card>,
) -> Result<(), SetupError> {
    let mut seen: Vec<(&str, model::Armour, &str)> = vec![];
    for u in units {
        let Some(c) = cards.get(&u.card) else {
            continue;
        };
        if !c.has(Skill::CommandSquad) {
            continue;
        }
        if let Some((_, _, other)) = seen
            .iter()
            .find(|(side, a, _)| *side == u.side && *a == c.armour)
        {
            return Err(SetupError(format!(
                "side {} fields two command squads of armour {:?} ({other} and {}): each must have a different armour class ('Command Squads')",
                u.side, c.armour, u.id
            )));
        }
        seen.push((&u.side, c.armour, &u.id));
    }
    Ok(())
}
