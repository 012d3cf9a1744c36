//! 004 "Minefields", and the skills that work on them and on wrecks: "Engineer Vehicle" (the
//! minefield part, R483) and "Recovery Vehicle" (markers and salvage, R484, R485).

use super::*;

/// 004 "Minefields": "When a soldier or vehicle unit moves into such a space, for each token,
/// roll 1 die separately for each miniature in the unit. If a [hit] is rolled, the miniature
/// suffers 1 point of damage. Aircraft units are not affected by minefields." Every mined space
/// of `path` is rolled for in order, as the unit enters it; the unit moves on (R481). A
/// miniature's hits are its damage; it is no attack (R482). 004 "Engineer Vehicle": "Engineer
/// vehicles take no damage from minefields."
pub(super) fn minefields(
    state: &mut State,
    lead: &str,
    path: &[Square],
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let mined: Vec<(Square, u8)> = path
        .iter()
        .filter_map(|sq| state.scenario.board.mines.get(sq).map(|n| (*sq, *n)))
        .collect();
    if mined.is_empty() || super::aircraft::is_aircraft(state, lead) {
        return;
    }
    if has_skill(state, lead, Skill::EngineerVehicle) {
        for (sq, _) in &mined {
            say(
                out,
                format!("{lead} enters the minefield on {sq}: an engineer vehicle takes no damage from minefields"),
            );
        }
        return;
    }
    let to = path.last().copied();
    // Taken before any die: a hero whose squad the mines wipe out still ends the move (004
    // "Heroes": he fights on alone).
    let members = group(state, lead);
    let round = state.round;
    let rules = state.rules();
    for (sq, tokens) in mined {
        let minis = miniatures(state, lead);
        if minis.is_empty() {
            break;
        }
        // The unit is on the mined space while its dice are rolled: a miniature it loses there
        // is destroyed there (a Recovery Vehicle's marker, the picture's wreck).
        for m in group(state, lead) {
            if let Some(x) = state.unit_mut(&m).filter(|x| !x.destroyed) {
                x.at = Some(sq);
            }
        }
        let mut faces = vec![];
        let mut names = vec![];
        let mut hit_minis = vec![];
        for (name, label) in &minis {
            let own: Vec<u8> = (0..tokens).map(|_| dice.d6(round)).collect();
            let hits = own.iter().filter(|f| rules.is_hit(**f)).count();
            if hits > 0 {
                hit_minis.push(format!("{label} {hits}"));
            }
            names.extend(std::iter::repeat_n(name.clone(), hits));
            faces.extend(own);
        }
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        out.happenings.push(Happening {
            text: format!(
                "{lead} moves into the minefield on {sq} ({}): {} for each of {}, {}{}",
                plural(tokens as usize, "token"),
                if tokens == 1 {
                    "1 die".to_string()
                } else {
                    format!("{tokens} dice")
                },
                plural(minis.len(), "miniature"),
                plural(names.len(), "hit"),
                if hit_minis.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", hit_minis.join(", "))
                }
            ),
            rolls: vec![Roll {
                purpose: format!("minefield on {sq}: {lead}"),
                round,
                faces,
            }],
            ..Happening::default()
        });
        apply_named(state, lead, &names, MINEFIELD, out);
    }
    for m in &members {
        if let Some(x) = state.unit_mut(m).filter(|x| !x.destroyed) {
            x.at = to;
        }
    }
}

/// Who a minefield's destruction is recorded against (victory points go to the other sides, as
/// for every destruction).
const MINEFIELD: &str = "minefield";

/// The miniatures of the group led by `lead`: (the name damage is applied by, how the report
/// names it). A squad's models, its joined hero, or the lone hero or vehicle itself.
pub(super) fn miniatures(state: &State, lead: &str) -> Vec<(String, String)> {
    let Some(u) = state.unit(lead).filter(|u| !u.destroyed) else {
        return vec![];
    };
    let mut v: Vec<(String, String)> = if unit_type(state, lead) == UnitType::Squad {
        u.models
            .iter()
            .map(|m| (m.clone(), format!("model {m}")))
            .collect()
    } else {
        vec![(u.id.clone(), u.id.clone())]
    };
    // Its hero and its Commissar (R478).
    for h in state.joined_of(lead) {
        v.push((h.id.clone(), h.id.clone()));
    }
    v
}

impl Planner<'_> {
    /// `skill engineer-vehicle` and `skill recovery-vehicle`: the SKILL actions of those skills
    /// (`None`: the line names another skill).
    pub(super) fn engineering_skill(
        &mut self,
        name: &str,
        target: Option<&TargetRef>,
    ) -> Option<Result<(), Refusal>> {
        match Skill::from_id(&name.to_ascii_lowercase())? {
            Skill::EngineerVehicle => Some(self.clear_mines(target)),
            Skill::RecoveryVehicle => Some(self.salvage(target)),
            _ => None,
        }
    }

    /// 004 "Engineer Vehicle": "When in a space with a minefield, a unit with this skill may
    /// perform one skill action to remove all minefield tokens from that space." (R483)
    fn clear_mines(&mut self, target: Option<&TargetRef>) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let rule = RuleId::EngineerVehicle
            .with("when in a space with a minefield, ... one skill action to remove all minefield tokens from that space");
        if skill_owner(state, &u.id, Skill::EngineerVehicle).is_none() {
            return refuse(
                format!("{} does not have the skill engineer-vehicle", u.id),
                rule,
                "remove that skill line",
            );
        }
        // `at <bunker>`: the bunker sentence of the same skill (R586, flow/structures.rs).
        if let Some(TargetRef::Unit(bunker)) = target {
            return self.destroy_bunker_order(bunker);
        }
        if target.is_some() {
            return refuse(
                "`skill engineer-vehicle` takes no square: it clears the space the vehicle is in, or `at <bunker>` destroys an adjacent bunker",
                rule,
                "skill engineer-vehicle",
            );
        }
        let here = self.pos;
        let tokens = here.and_then(|sq| state.scenario.board.mines.get(&sq).copied());
        let (Some(at), Some(tokens)) = (here, tokens) else {
            return refuse(
                format!(
                    "{} is not in a space with a minefield{}",
                    u.id,
                    here.map(|s| format!(" ({s} has no tokens)"))
                        .unwrap_or_default()
                ),
                rule,
                mined_squares(state),
            );
        };
        if self.steps.contains(&Step::ClearMines { at }) {
            return refuse(
                format!("the minefield on {at} is already cleared by this activation"),
                rule,
                "another action, e.g. `nothing`",
            );
        }
        self.steps.push(Step::ClearMines { at });
        self.texts.push(format!(
            "skill engineer-vehicle: clear the minefield on {at} ({tokens} token{})",
            if tokens == 1 { "" } else { "s" }
        ));
        self.push_kind(Kind::Skill);
        Ok(())
    }

    /// 004 "Recovery Vehicle": "Your recovery vehicle may perform 1 SKILL action in this space to
    /// salvage the destroyed vehicle." `at <unit>` names the wreck when several lie there (R485).
    fn salvage(&mut self, target: Option<&TargetRef>) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let rule = RuleId::RecoveryVehicle
            .with("may perform 1 SKILL action in this space to salvage the destroyed vehicle");
        if skill_owner(state, &u.id, Skill::RecoveryVehicle).is_none() {
            return refuse(
                format!("{} does not have the skill recovery-vehicle", u.id),
                rule,
                "remove that skill line",
            );
        }
        let planned: Vec<&str> = self
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Salvage { unit, .. } => Some(unit.as_str()),
                _ => None,
            })
            .collect();
        let ours: Vec<&Wreck> = state
            .wrecks
            .iter()
            .filter(|w| w.side == u.side && !planned.contains(&w.unit.as_str()))
            .collect();
        let here: Vec<&Wreck> = ours
            .iter()
            .copied()
            .filter(|w| Some(w.at) == self.pos)
            .collect();
        let elsewhere = || {
            if ours.is_empty() {
                "another action: no wreck of your side waits for salvage".to_string()
            } else {
                let list: Vec<String> = ours
                    .iter()
                    .map(|w| format!("{} on {}", w.unit, w.at))
                    .collect();
                format!(
                    "move onto a marker first, then skill recovery-vehicle ({})",
                    list.join(", ")
                )
            }
        };
        let wreck = match target {
            None => match here.as_slice() {
                [] => {
                    return refuse(
                        format!(
                            "there is no marker of a destroyed friendly vehicle in {}'s space",
                            u.id
                        ),
                        rule,
                        elsewhere(),
                    )
                }
                [w] => *w,
                more => {
                    let ids: Vec<&str> = more.iter().map(|w| w.unit.as_str()).collect();
                    return refuse(
                        format!("{} wrecks lie here: say which to salvage", ids.len()),
                        rule,
                        format!("skill recovery-vehicle at {}", ids.join(" | ")),
                    );
                }
            },
            Some(TargetRef::Unit(id)) => {
                match here.iter().find(|w| w.unit.eq_ignore_ascii_case(id)) {
                    Some(w) => *w,
                    None => {
                        return refuse(
                            format!("no marker of {id}'s wreck is in {}'s space", u.id),
                            rule,
                            elsewhere(),
                        )
                    }
                }
            }
            Some(_) => {
                return refuse(
                    "`skill recovery-vehicle` names the wreck by its unit id",
                    rule,
                    "skill recovery-vehicle [at <destroyed vehicle>]",
                )
            }
        };
        self.steps.push(Step::Salvage {
            unit: wreck.unit.clone(),
            at: wreck.at,
        });
        self.texts.push(format!(
            "skill recovery-vehicle: salvage {} on {}",
            wreck.unit, wreck.at
        ));
        self.push_kind(Kind::Skill);
        Ok(())
    }
}

/// The `instead` of a clearing refused for want of tokens: where minefields are.
fn mined_squares(state: &State) -> String {
    let b = &state.scenario.board.mines;
    if b.is_empty() {
        return "another action: no minefield is left on the board".into();
    }
    let list: Vec<String> = b.keys().map(|s| s.to_string()).collect();
    format!(
        "move into a minefield first ({}), then skill engineer-vehicle",
        list.join(" ")
    )
}

/// Runs a planned clearing: all tokens of `at` go if the vehicle still stands there.
pub(super) fn exec_clear(state: &mut State, lead: &str, at: Square, out: &mut Outcome) {
    if state.unit(lead).and_then(|u| u.at) != Some(at) {
        return;
    }
    if let Some(n) = state.scenario.board.mines.remove(&at) {
        say(
            out,
            format!(
                "{lead} clears the minefield on {at}: {n} token{} removed (004 'Engineer Vehicle')",
                if n == 1 { "" } else { "s" }
            ),
        );
    }
}

/// Runs a planned salvage: the marker goes, the destruction counts half its AP (R485).
pub(super) fn exec_salvage(
    state: &mut State,
    lead: &str,
    unit: &str,
    at: Square,
    out: &mut Outcome,
) {
    if state.unit(lead).and_then(|u| u.at) != Some(at) {
        return;
    }
    let Some(i) = state
        .wrecks
        .iter()
        .position(|w| w.unit == unit && w.at == at)
    else {
        return;
    };
    let w = state.wrecks.remove(i);
    state.salvaged.push(w.destruction);
    let ap = state
        .destroyed
        .get(w.destruction)
        .map(|d| d.ap)
        .unwrap_or(0);
    say(
        out,
        format!(
            "{lead} salvages the wreck of {unit} on {at}: it is worth {} AP instead of {ap} at the count of victory points (004 'Recovery Vehicle')",
            ap / 2
        ),
    );
}

/// 004 "Recovery Vehicle": "When fielding a recovery vehicle, place a marker in the space where
/// any friendly ground vehicle is destroyed." Called as the destruction of `id` is recorded,
/// `at` where it was (R484).
pub(super) fn mark_wreck(state: &mut State, id: &str, at: Option<Square>, out: &mut Outcome) {
    let (Some(at), Some(u)) = (at, state.unit(id)) else {
        return;
    };
    if unit_type(state, id) != UnitType::Vehicle || super::aircraft::is_aircraft(state, id) {
        return;
    }
    let side = u.side.clone();
    let fielded = state.units.iter().any(|r| {
        r.side == side
            && !r.destroyed
            && card(state, r).is_some_and(|c| c.has(Skill::RecoveryVehicle))
    });
    if !fielded {
        return;
    }
    state.wrecks.push(Wreck {
        unit: id.to_string(),
        side: side.clone(),
        at,
        destruction: state.destroyed.len().saturating_sub(1),
    });
    say(
        out,
        format!("a recovery marker is placed on {at}: {side} may salvage the wreck of {id}"),
    );
}

/// The victory points a recorded destruction is worth: half, rounded down, once salvaged
/// (004 "Recovery Vehicle": "Salvaged vehicles are worth half their cost in APs (rounded
/// down)").
pub(super) fn worth(state: &State, index: usize, d: &Destruction) -> u32 {
    if state.salvaged.contains(&index) {
        d.ap / 2
    } else {
        d.ap
    }
}
