//! 004 "Reactive fire".

use super::*;

/// The side that may react and its eligible units (004 "Reactive fire": not yet activated, with
/// a weapon that can reach and damage the activating unit, in LOS). R54: one attempt per window.
pub(super) fn react_candidates(state: &State, act: &Activation) -> Option<(String, Vec<String>)> {
    let target = state.unit(&act.unit)?;
    let to = target.at?;
    let armour = armour_of(state, &act.unit)?;
    let occ = occupancy(state, &[]);
    for side in sides_list(state) {
        if side == act.side {
            continue;
        }
        let mut c = vec![];
        for u in &state.units {
            if u.side != side || !leads(u) || u.activated || act.reacted.contains(&u.id) {
                continue;
            }
            let Some(from) = u.at else { continue };
            if !reactive_lines(state, &u.id, from, to, armour, &occ).is_empty() {
                c.push(u.id.clone());
            }
        }
        if !c.is_empty() {
            return Some((side, c));
        }
    }
    None
}

pub(super) fn reactive_lines(
    state: &State,
    unit: &str,
    from: Square,
    to: Square,
    armour: model::Armour,
    occ: &Occupancy,
) -> Vec<(String, WeaponLine)> {
    let dist = geometry::distance(from, to);
    let my_type = unit_type(state, unit);
    let target_type = match armour {
        model::Armour::Soldier(_) => UnitType::Squad,
        _ => UnitType::Vehicle,
    };
    let sight = geometry::line_of_sight(
        &state.scenario.board,
        occ,
        Sighter {
            square: from,
            unit_type: my_type,
        },
        Sighter {
            square: to,
            unit_type: target_type,
        },
    );
    if sight != Sight::Clear {
        return vec![];
    }
    weapons_of_group(state, unit)
        .into_iter()
        .filter(|(s, w)| {
            geometry::in_range(w.range, dist)
                && w.against(armour) != Fire::No
                && (w.ammo.is_none()
                    || state
                        .unit(s)
                        .and_then(|x| x.ammo.get(&w.id))
                        .copied()
                        .unwrap_or(0)
                        > 0)
        })
        .collect()
}

pub(super) fn cmd_react(
    state: &mut State,
    side: &str,
    unit: Option<&str>,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> Result<String, Refusal> {
    let rule = RuleId::ReactiveFire;
    let Phase::Activation(act) = &state.phase else {
        return refuse(
            "no reactive-fire window is open",
            rule,
            "wait for a window in a report",
        );
    };
    let Some(Wait::React {
        side: ws,
        candidates,
    }) = &act.wait
    else {
        return refuse(
            "no reactive-fire window is open",
            rule,
            "wait for a window in a report",
        );
    };
    if ws != side {
        return refuse(
            format!("the window is {ws}'s, not {side}'s"),
            rule,
            "wait for the next report",
        );
    }
    let chosen = match unit {
        None => None,
        Some(u) => match candidates.iter().find(|c| c.eq_ignore_ascii_case(u)) {
            Some(c) => Some(c.clone()),
            None => {
                return refuse(
                    format!("{u} cannot react: it must be unactivated with a weapon in range and sight that can damage {}", act.unit),
                    rule,
                    format!("react <one of {}> or react none", candidates.join(", ")),
                )
            }
        },
    };
    let Some(mut act) = take_activation(state) else {
        return refuse("no reactive-fire window is open", rule, "wait");
    };
    let text = answer_react(state, &mut act, side, chosen, dice, out);
    state.phase = Phase::Activation(act);
    Ok(text)
}

/// Closes the window: declines, or makes the reactive-fire attempt with `chosen`.
pub(super) fn answer_react(
    state: &mut State,
    act: &mut Activation,
    side: &str,
    chosen: Option<String>,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> String {
    act.wait = None;
    let Some(r) = chosen else {
        say(out, format!("{side} does not react"));
        return "react none".into();
    };
    act.reacted.push(r.clone());
    // The attempt activates the unit, hit or miss.
    for m in group(state, &r) {
        if let Some(x) = state.unit_mut(&m) {
            x.activated = true;
        }
    }
    let n = if has_skill(state, &r, Skill::SuperiorReactiveFire) {
        3
    } else if has_skill(state, &r, Skill::AdvancedReactiveFire) {
        2
    } else {
        1
    };
    let round = state.round;
    let faces: Vec<u8> = (0..n).map(|_| dice.d6(round)).collect();
    let hit = faces.iter().any(|f| state.rules().is_hit(*f));
    out.happenings.push(Happening {
        text: format!(
            "{r} attempts reactive fire at {}: {}",
            act.unit,
            if hit {
                "HIT, it fires"
            } else {
                "MISS, no fire"
            }
        ),
        rolls: vec![Roll {
            purpose: format!("reactive fire {r}"),
            round,
            faces,
        }],
        ..Happening::default()
    });
    if hit {
        let from = state.unit(&r).and_then(|u| u.at);
        let to = state.unit(&act.unit).and_then(|u| u.at);
        let armour = armour_of(state, &act.unit);
        if let (Some(from), Some(to), Some(armour)) = (from, to, armour) {
            let occ = occupancy(state, &[]);
            let lines: Vec<LineOrder> = reactive_lines(state, &r, from, to, armour, &occ)
                .into_iter()
                .map(|(s, w)| LineOrder {
                    shooter: s,
                    weapon: w.id,
                    target: Target::Unit {
                        unit: act.unit.clone(),
                    },
                    through: vec![],
                    count: None,
                })
                .collect();
            if !lines.is_empty() {
                act.steps.insert(
                    0,
                    Step::Attack {
                        lines,
                        sustained: false,
                    },
                );
            }
        }
    }
    format!("react {r}")
}
