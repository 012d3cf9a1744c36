//! 004 "NCO Command Squads": a command squad of a field officer, a field mechanic and a field
//! medic, "each equipped with his own radio" (R522, R523). Its orders are a command squad's
//! (flow/command.rs: one attempt a round, a fallen figure's order lost, never on a unit with a
//! Command Squad skill); its Artillery Strike is flow/artillery.rs's, called while the field
//! officer lives.

use super::command::Order;
use super::*;

const FIELD_OFFICER: &str = "field-officer";
const FIELD_MECHANIC: &str = "field-mechanic";
const FIELD_MEDIC: &str = "field-medic";

/// The NCO command squad member whose speciality `order` is (`None`: not an NCO order).
pub(super) fn member(order: Order) -> Option<&'static str> {
    match order {
        Order::GetUp => Some(FIELD_MEDIC),
        Order::MakeshiftRepair | Order::AmmoDump => Some(FIELD_MECHANIC),
        Order::StimulantKit => Some(FIELD_MEDIC),
        Order::SmokeMortars => Some(FIELD_OFFICER),
        Order::GetMoving | Order::FieldRepair | Order::ComeOnGuys => None,
    }
}

/// The refusal of an order the squad's kind does not have.
pub(super) fn not_its_order<T>(u: &UnitState, title: &str, nco: bool) -> Result<T, Refusal> {
    let rule = RuleId::NcoCommandSquads;
    if nco {
        refuse(
            format!(
                "{} is an NCO command squad: {title} is not an order of its field officer, field mechanic or field medic",
                u.id
            ),
            rule.with("Field Officer: Artillery Strike, Smoke Mortars; Field Mechanic: Ammo Dump, Makeshift Repair; Field Medic: Stimulant Kit, Get Up, It Ain't That Bad"),
            "skill get-up|makeshift-repair|ammo-dump|stimulant-kit at <friendly unit>, or skill artillery-strike [<gun>] at <enemy unit>",
        )
    } else {
        refuse(
            format!(
                "{} is not an NCO command squad: {title} is an NCO field mechanic's order",
                u.id
            ),
            rule.with("Field Mechanic: Ammo Dump"),
            "give one of the command squad's own orders",
        )
    }
}

impl Planner<'_> {
    /// The NCO order aimed at a square, not a unit: Smoke Mortars (R525). `None` for any other
    /// skill line (Stimulant Kit is an order to a unit: flow/stimulant.rs, R477).
    pub(super) fn nco_skill(
        &mut self,
        name: &str,
        target: Option<&TargetRef>,
    ) -> Option<Result<(), Refusal>> {
        let n = name.to_ascii_lowercase();
        if n == Order::SmokeMortars.id() {
            return Some(self.smoke_mortars(target));
        }
        None
    }

    /// 004 "NCO Command Squads", Field Officer: "Smoke Mortars (SKILL). Once per game,
    /// immediately target 1 space in LOS (not into a structure) with this Artillery Strike.
    /// Place a Smoke token in the space" (R525).
    fn smoke_mortars(&mut self, target: Option<&TargetRef>) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let rule = RuleId::NcoCommandSquads;
        let order = Order::SmokeMortars;
        let nco = card(state, u).is_some_and(|c| c.has(Skill::NcoCommandSquad));
        if !nco {
            return not_its_order(u, order.title(), false);
        }
        if !u
            .models
            .iter()
            .any(|m| m.eq_ignore_ascii_case(FIELD_OFFICER))
        {
            return refuse(
                format!(
                    "the {FIELD_OFFICER} of {} has been eliminated, and with him Smoke Mortars",
                    u.id
                ),
                rule.with(
                    "when a figure is eliminated, the squad loses that figure's specialization",
                ),
                "give an order of a member still alive, or another action",
            );
        }
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
                RuleId::CommandSquads.with("you may only attempt to use 1 skill once per round"),
                "remove that skill line",
            );
        }
        if u.skills_used.get(order.id()).copied().unwrap_or(0) > 0 {
            return refuse(
                format!(
                    "{} has already fired its Smoke Mortars: once per game",
                    u.id
                ),
                rule.with("Smoke Mortars (SKILL). Once per game"),
                "give another order",
            );
        }
        let instead = "skill smoke-mortars at <square the squad sees>";
        let Some(TargetRef::Square(at)) = target else {
            return refuse(
                "Smoke Mortars targets a space: name the square",
                rule.with("immediately target 1 space in LOS"),
                instead,
            );
        };
        let Some(from) = self.pos else {
            return refuse(
                format!("{} is not on the battlefield yet", u.id),
                RuleId::FirstRound.with("the first action is a move onto the board"),
                "move <entry square> first",
            );
        };
        let terrain = state.scenario.board.terrain(*at);
        if terrain != model::Terrain::Open {
            return refuse(
                format!("{at} is {terrain:?} terrain: the engine lays smoke on open squares only"),
                rule.with("target 1 space in LOS (not into a structure)"),
                instead,
            );
        }
        if let Sight::Blocked { at: past, why } = geometry::line_of_sight(
            &state.scenario.board,
            &self.occ,
            Sighter {
                square: from,
                unit_type: unit_type(state, &u.id),
            },
            Sighter {
                square: *at,
                unit_type: UnitType::Squad,
            },
        ) {
            return refuse(
                format!(
                    "{} cannot see {at}: no line of sight past {past} from {from}: {why}",
                    u.id
                ),
                rule.with("immediately target 1 space in LOS"),
                instead,
            );
        }
        self.steps.push(Step::Command {
            ability: order.id().to_string(),
            target: at.to_string(),
        });
        self.texts.push(format!("skill {} at {at}", order.id()));
        self.push_kind(Kind::Skill);
        Ok(())
    }
}

/// Smoke Mortars given: the square is smoke ("diamond" terrain: it blocks all line of sight, and
/// a unit on it attacks and is attacked only from next to it) until the end of the next round.
pub(super) fn exec_smoke(state: &mut State, nco: &str, target: &str, out: &mut Outcome) {
    let Some(at) = state.scenario.board.parse_square(target) else {
        return;
    };
    let round = state.round;
    if let Some(cs) = state.unit_mut(nco) {
        *cs.skills_used
            .entry(Order::SmokeMortars.id().to_string())
            .or_insert(0) += 1;
    }
    let was = state.scenario.board.terrain(at);
    state.scenario.board.set_terrain(at, model::Terrain::Smoke);
    state.smoke.push(SmokeToken {
        at,
        was,
        until: round + 1,
    });
    say(
        out,
        format!(
            "Smoke Mortars: {nco}'s field officer lays smoke on {at}; it blocks all line of sight until the end of round {}",
            round + 1
        ),
    );
}

/// At the end of a round: "The smoke effect remains in the space until the end of the round
/// after it was launched": the tokens of this round are lifted.
pub(super) fn lift_smoke(state: &mut State, out: &mut Outcome) {
    let round = state.round;
    let (done, kept): (Vec<SmokeToken>, Vec<SmokeToken>) = std::mem::take(&mut state.smoke)
        .into_iter()
        .partition(|t| t.until <= round);
    state.smoke = kept;
    for t in done {
        state.scenario.board.set_terrain(t.at, t.was);
        say(out, format!("the smoke on {} lifts", t.at));
    }
}

/// The member who calls a command squad's Artillery Strike, with the rule that says so: the
/// radioman (004 "Radioman") or an NCO squad's field officer (004 "NCO Command Squads": "Field
/// Officer: Artillery Strike (SKILL). The unit is an observer"). `None`: not a command squad.
pub(super) fn strike_member(c: Option<&Card>) -> Option<(&'static str, Citation)> {
    let c = c?;
    if c.has(Skill::NcoCommandSquad) {
        Some((
            FIELD_OFFICER,
            RuleId::NcoCommandSquads
                .with("when a figure is eliminated, the squad loses that figure's specialization"),
        ))
    } else if c.has(Skill::CommandSquad) {
        Some((
            "radioman",
            RuleId::CommandSquads.with(
                "when the radioman is eliminated, the command squad cannot use the Artillery Strike skill",
            ),
        ))
    } else {
        None
    }
}

/// Whether `u` is an observer by its NCO command squad's field officer.
pub(super) fn nco_observer(state: &State, u: &UnitState) -> bool {
    card(state, u).is_some_and(|c| c.has(Skill::NcoCommandSquad))
}

/// The limited-ammo lines of `lead` and its joined hero that have spent boxes.
fn spent_lines(state: &State, lead: &str) -> Vec<(String, String, u8)> {
    let mut v = vec![];
    for m in group(state, lead) {
        let Some(x) = state.unit(&m) else { continue };
        let Some(c) = card(state, x) else { continue };
        for w in &c.weapons {
            let Some(boxes) = w.ammo else { continue };
            if x.ammo.get(&w.id).copied().unwrap_or(boxes) < boxes {
                v.push((m.clone(), w.id.clone(), boxes));
            }
        }
    }
    v
}

impl Planner<'_> {
    /// 004 "NCO Command Squads", Field Mechanic: "Ammo Dump (SKILL). Once per game, any unit
    /// within LOS instantly replenishes all of its limited ammo weapons" (R523).
    pub(super) fn ammo_dump_check(&self, t: &UnitState) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let rule = RuleId::NcoCommandSquads;
        if u.skills_used
            .get(Order::AmmoDump.id())
            .copied()
            .unwrap_or(0)
            > 0
        {
            return refuse(
                format!("{} has already used Ammo Dump: once per game", u.id),
                rule.with("Ammo Dump (SKILL). Once per game"),
                "give another order",
            );
        }
        let lead = leader_of(state, &t.id).unwrap_or_else(|| t.id.clone());
        let (Some(from), Some(to)) = (self.pos, target_square(state, &lead)) else {
            return refuse(
                format!("{} is not on the battlefield yet", u.id),
                RuleId::FirstRound.with("the first action is a move onto the board"),
                "move <entry square> first",
            );
        };
        if let Sight::Blocked { at, why } = geometry::line_of_sight(
            &state.scenario.board,
            &self.occ,
            Sighter {
                square: from,
                unit_type: unit_type(state, &u.id),
            },
            Sighter {
                square: to,
                unit_type: unit_type(state, &lead),
            },
        ) {
            return refuse(
                format!(
                    "{} cannot see {lead}: no line of sight past {at} from {from} to {to}: {why}",
                    u.id
                ),
                rule.with(
                    "any unit within LOS instantly replenishes all of its limited ammo weapons",
                ),
                "give it to a unit the squad sees, or move first",
            );
        }
        if spent_lines(state, &lead).is_empty() {
            return refuse(
                format!("{lead} has spent no limited ammo: there is nothing to replenish"),
                rule.with("replenishes all of its limited ammo weapons"),
                "give it to a unit that has fired limited ammo",
            );
        }
        Ok(())
    }
}

/// Ammo Dump given: every limited-ammo line of the unit (and its joined hero) is full again;
/// the once-per-game use is spent.
pub(super) fn exec_ammo_dump(
    state: &mut State,
    nco: &str,
    t: &UnitState,
    _tc: &Card,
    out: &mut Outcome,
) {
    let lead = leader_of(state, &t.id).unwrap_or_else(|| t.id.clone());
    if let Some(cs) = state.unit_mut(nco) {
        *cs.skills_used
            .entry(Order::AmmoDump.id().to_string())
            .or_insert(0) += 1;
    }
    let spent = spent_lines(state, &lead);
    let mut names = vec![];
    for (m, w, boxes) in &spent {
        if let Some(x) = state.unit_mut(m) {
            x.ammo.insert(w.clone(), *boxes);
        }
        names.push(format!("{m} {w} ({boxes})"));
    }
    say(
        out,
        format!(
            "Ammo Dump: {nco}'s field mechanic replenishes the limited ammo of {lead}: {}",
            if names.is_empty() {
                "nothing was spent".to_string()
            } else {
                names.join(", ")
            }
        ),
    );
}

/// 004 "NCO Command Squads": "You can field only one NCO command squad unit at a time": one per
/// side (R522).
pub(super) fn check_setup(
    units: &[UnitState],
    cards: &BTreeMap<String, Card>,
) -> Result<(), SetupError> {
    let mut seen: Vec<(&str, &str)> = vec![];
    for u in units {
        if !cards
            .get(&u.card)
            .is_some_and(|c| c.has(Skill::NcoCommandSquad))
        {
            continue;
        }
        if let Some((_, first)) = seen.iter().find(|(side, _)| *side == u.side) {
            return Err(SetupError(format!(
                "side {} fields two NCO command squads ({first} and {}): you can field only one NCO command squad unit at a time (004 'NCO Command Squads'); remove one",
                u.side, u.id
            )));
        }
        seen.push((&u.side, &u.id));
    }
    Ok(())
}
