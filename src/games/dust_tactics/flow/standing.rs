//! Standing orders (R100–R129), concession and draws.

use super::*;

/// A unit's standing policy: its own, else the side's `any`, else `None` (the R100 default).
pub(super) fn policy_of(map: &BTreeMap<String, Policy>, unit: &str) -> Option<Policy> {
    map.get(unit).or_else(|| map.get("any")).copied()
}

/// Whether `side` asked to choose `unit`'s casualties by mail (R100: by default it is not asked).
pub(super) fn asks_casualties(state: &State, side: &str, unit: &str) -> bool {
    state
        .standing
        .get(side)
        .map(|s| s.casualties_ask.iter().any(|u| u == unit || u == "any"))
        .unwrap_or(false)
}

/// The standing casualty order of `unit`, if its side set one.
pub(super) fn casualty_pref(state: &State, side: &str, unit: &str) -> Vec<String> {
    state
        .standing
        .get(side)
        .and_then(|s| s.casualties.get(unit))
        .cloned()
        .unwrap_or_default()
}

/// How much harm `unit`'s reactive attack could do to the mover: dice × damage × carriers over
/// its eligible lines (an anti-tank incendiary counts as a kill). Integer, for R100's choice.
pub(super) fn harm_score(state: &State, unit: &str, act: &Activation) -> u32 {
    let (Some(from), Some(to), Some(armour)) = (
        state.unit(unit).and_then(|u| u.at),
        state.unit(&act.unit).and_then(|u| u.at),
        armour_of(state, &act.unit),
    ) else {
        return 0;
    };
    let occ = occupancy(state, &[]);
    reactive_lines(state, unit, from, (&act.unit, to), armour, &occ)
        .iter()
        .map(|(s, w)| {
            let n = state.unit(s).map(|u| carriers(state, u, w)).unwrap_or(1);
            let per = match w.against(armour) {
                Fire::No => 0,
                Fire::Dice { dice, damage } => dice as u32 * damage as u32,
                Fire::Incendiary { dice } => dice as u32,
                Fire::ApIncendiary { dice } => dice as u32 * 10,
                Fire::Phaser { dice } => dice as u32,
                Fire::Volley { dice, damage, .. } => dice[0] as u32 * damage as u32,
            };
            per * n
        })
        .sum()
}

/// Answers a wait from the waiting side's standing orders or the R100 defaults; only `ask`
/// leaves it waiting. Returns true when the wait was answered.
pub(super) fn auto_answer(
    state: &mut State,
    act: &mut Activation,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> bool {
    match act.wait.clone() {
        Some(Wait::React { side, candidates }) => {
            let st = state.standing.get(&side).cloned().unwrap_or_default();
            let pol = |c: &str| policy_of(&st.react, c);
            if candidates.iter().any(|c| pol(c) == Some(Policy::Ask)) {
                return false;
            }
            // The eligible unit most likely to hurt the mover; ties go to scenario order.
            let mut best: Option<(String, u32)> = None;
            for c in candidates
                .iter()
                .filter(|c| pol(c).unwrap_or(Policy::Yes) == Policy::Yes)
            {
                let score = harm_score(state, c, act);
                if best.as_ref().map(|b| score > b.1).unwrap_or(true) {
                    best = Some((c.clone(), score));
                }
            }
            match best {
                Some((c, _)) => {
                    if pol(&c).is_some() {
                        say(out, format!("standing order of {side}: react with {c}"));
                    } else {
                        say(
                            out,
                            format!(
                                "{side} reacts with {c}, the eligible unit most likely to hurt {} (default, R100)",
                                act.unit
                            ),
                        );
                    }
                    answer_react(state, act, &side, Some(c), dice, out);
                }
                None => {
                    say(out, format!("standing order of {side}: no reactive fire"));
                    answer_react(state, act, &side, None, dice, out);
                }
            }
            true
        }
        Some(Wait::Casualties { side, unit, points }) => {
            if asks_casualties(state, &side, &unit) {
                return false;
            }
            let pref = casualty_pref(state, &side, &unit);
            let list = preferred_casualties(state, &unit, points, &pref);
            say(
                out,
                format!("standing order of {side}: {unit} loses {}", list.join(" ")),
            );
            answer_casualties(state, act, &unit, &list, dice, out);
            true
        }
        Some(Wait::Retaliate { side, unit, .. }) => {
            let pol = state
                .standing
                .get(&side)
                .and_then(|s| policy_of(&s.retaliate, &unit));
            let yes = match pol {
                Some(Policy::Ask) => return false,
                Some(Policy::Never) => {
                    say(
                        out,
                        format!("standing order of {side}: {unit} never retaliates"),
                    );
                    false
                }
                Some(Policy::Yes) => {
                    say(out, format!("standing order of {side}: {unit} retaliates"));
                    true
                }
                None => {
                    say(out, format!("{unit} retaliates (default, R100)"));
                    true
                }
            };
            answer_retaliate(state, act, yes, dice, out);
            true
        }
        None => false,
    }
}

/// The standing preference first (models still alive, in order), then the default order.
pub(super) fn preferred_casualties(
    state: &State,
    unit: &str,
    points: u32,
    pref: &[String],
) -> Vec<String> {
    let mut pool = default_casualties(state, unit, u32::MAX);
    let mut list = vec![];
    for p in pref {
        if let Some(i) = pool.iter().position(|m| m.eq_ignore_ascii_case(p)) {
            list.push(pool.remove(i));
        }
    }
    list.extend(pool);
    list.truncate(points as usize);
    list
}

/// The own unit a standing order names (`None` = `any`), or the refusal.
pub(super) fn own_unit_key(
    state: &State,
    side: &str,
    unit: Option<&str>,
    rule: Citation,
    ex: &str,
) -> Result<String, Refusal> {
    match unit {
        None => Ok("any".to_string()),
        Some(u) if u.eq_ignore_ascii_case("any") => Ok("any".to_string()),
        Some(u) => match state.unit(u) {
            Some(x) if x.side == side => Ok(x.id.clone()),
            Some(x) => refuse(
                format!(
                    "{} is not one of your units: a standing order names your own unit (or `any`)",
                    x.id
                ),
                rule,
                ex,
            ),
            None => refuse(format!("there is no unit `{u}`"), rule, ex),
        },
    }
}

/// `standing react <your unit|any> auto|never|ask` (R102): what that unit of yours does when a
/// reactive-fire window opens and it is eligible.
pub fn standing_react(
    state: &mut State,
    side: &str,
    unit: Option<&str>,
    policy: Policy,
) -> Result<String, Refusal> {
    let rule = RuleId::StandingReact.with("standing orders");
    let key = own_unit_key(
        state,
        side,
        unit,
        rule,
        "standing react <your unit|any> auto|never|ask",
    )?;
    state
        .standing
        .entry(side.to_string())
        .or_default()
        .react
        .insert(key.clone(), policy);
    Ok(format!("standing react {key} {}", policy.react_word()))
}

/// The parsed `standing react` forms: the R102 form, and the older `<enemy|any> with <unit>`,
/// read as `<unit> auto`.
pub(super) fn standing_react_order(
    state: &mut State,
    side: &str,
    trigger: Option<&str>,
    answer: &StandingReaction,
) -> Result<String, Refusal> {
    let rule = RuleId::StandingReact.with("standing orders");
    let policy = match answer {
        StandingReaction::With(u) => return standing_react(state, side, Some(u), Policy::Yes),
        StandingReaction::Auto => Policy::Yes,
        StandingReaction::Never => Policy::Never,
        StandingReaction::Ask => Policy::Ask,
    };
    if let Some(t) = trigger {
        if let Some(x) = state.unit(t).filter(|x| x.side != side) {
            return refuse(
                format!(
                    "{} is an enemy unit: a standing react order now names your own unit, the one that reacts",
                    x.id
                ),
                rule,
                format!("standing react <your unit|any> {}", policy.react_word()),
            );
        }
    }
    standing_react(state, side, trigger, policy)
}

/// `standing retaliate <your unit|any> yes|no|ask` (R101).
pub fn standing_retaliate(
    state: &mut State,
    side: &str,
    unit: Option<&str>,
    policy: Policy,
) -> Result<String, Refusal> {
    let rule = RuleId::StandingRetaliate.with("standing orders");
    let key = own_unit_key(
        state,
        side,
        unit,
        rule,
        "standing retaliate <your unit|any> yes|no|ask",
    )?;
    state
        .standing
        .entry(side.to_string())
        .or_default()
        .retaliate
        .insert(key.clone(), policy);
    Ok(format!(
        "standing retaliate {key} {}",
        policy.retaliate_word()
    ))
}

/// `standing casualties <your unit|any> ask` (R100): this side chooses those casualties by mail
/// whenever the choice matters.
pub fn standing_casualties_ask(
    state: &mut State,
    side: &str,
    unit: Option<&str>,
) -> Result<String, Refusal> {
    let rule = RuleId::StandingCasualties.with("standing orders");
    let key = own_unit_key(
        state,
        side,
        unit,
        rule,
        "standing casualties <your unit|any> ask",
    )?;
    let entry = state.standing.entry(side.to_string()).or_default();
    if !entry.casualties_ask.contains(&key) {
        entry.casualties_ask.push(key.clone());
    }
    Ok(format!("standing casualties {key} ask"))
}

/// `standing casualties <unit>: <model> …`: these models go first when `unit` loses models.
pub fn standing_casualties(
    state: &mut State,
    side: &str,
    unit: &str,
    models: &[String],
) -> Result<String, Refusal> {
    let rule = RuleId::StandingCasualties.with("standing orders");
    let Some(u) = state.unit(unit).filter(|u| u.side == side) else {
        return refuse(
            format!("`{unit}` is not one of your units"),
            rule,
            "standing casualties <your unit>: <model> …",
        );
    };
    let id = u.id.clone();
    let known: Vec<String> = default_casualties(state, &id, u32::MAX);
    if let Some(m) = models
        .iter()
        .find(|m| !known.iter().any(|k| k.eq_ignore_ascii_case(m)))
    {
        return refuse(
            format!("`{m}` is not a model of {id}"),
            rule,
            format!("standing casualties {id}: {}", known.join(" ")),
        );
    }
    let entry = state.standing.entry(side.to_string()).or_default();
    // A casualty order is followed without asking (R100).
    entry.casualties_ask.retain(|u| u != &id);
    entry.casualties.insert(id.clone(), models.to_vec());
    Ok(format!("standing casualties {id}: {}", models.join(" ")))
}

/// `standing first <side>|ask`: who goes first when this side wins the initiative.
pub fn standing_first(
    state: &mut State,
    side: &str,
    first: Option<&str>,
    out: &mut Outcome,
) -> Result<String, Refusal> {
    let chosen = match first {
        None => None,
        Some(f) => match sides_list(state)
            .into_iter()
            .find(|s| s.eq_ignore_ascii_case(f))
        {
            Some(s) => Some(s),
            None => {
                return refuse(
                    format!("`{f}` is not a side of this game"),
                    RuleId::StandingFirst.with("standing orders"),
                    format!("standing first {side}"),
                )
            }
        },
    };
    let text = match &chosen {
        Some(c) => format!("standing first {c}"),
        None => "standing first ask".to_string(),
    };
    let entry = state.standing.entry(side.to_string()).or_default();
    entry.first = chosen.clone();
    entry.first_ask = chosen.is_none();
    // A choice already awaited from this side is answered at once.
    if let (Phase::First { winner }, Some(c)) = (&state.phase, &chosen) {
        if winner == side {
            say(
                out,
                format!("standing order of {side}: {c} activates first"),
            );
            start_activations(state, c, out);
        }
    }
    Ok(text)
}

/// `concede`: the side gives up; the game ends at once (R67).
pub fn concede(state: &mut State, side: &str, out: &mut Outcome) -> Result<String, Refusal> {
    if state.result.is_some() {
        return refuse(
            "the game is over",
            RuleId::EndOfGame,
            "send nothing more to this game",
        );
    }
    let pts = points(state, false);
    let others: Vec<String> = sides_list(state)
        .into_iter()
        .filter(|s| s != side)
        .collect();
    let winner = if others.len() == 1 {
        others.first().cloned()
    } else {
        let top = others
            .iter()
            .map(|s| pts.get(s).copied().unwrap_or(0))
            .max();
        let best: Vec<&String> = others
            .iter()
            .filter(|s| Some(pts.get(*s).copied().unwrap_or(0)) == top)
            .collect();
        if best.len() == 1 {
            Some(best[0].clone())
        } else {
            None
        }
    };
    finish(state, winner, format!("{side} concedes"), pts, out);
    Ok("concede".into())
}

/// `offer draw`: stands until another side accepts it or the round ends.
pub fn offer_draw(state: &mut State, side: &str, out: &mut Outcome) -> Result<String, Refusal> {
    state.draw_offer = Some(side.to_string());
    say(out, format!("{side} offers a draw"));
    Ok("offer draw".into())
}

/// `accept draw`: ends the game drawn when another side has offered one.
pub fn accept_draw(state: &mut State, side: &str, out: &mut Outcome) -> Result<String, Refusal> {
    match state.draw_offer.clone() {
        Some(by) if by != side => {
            let pts = points(state, false);
            finish(
                state,
                None,
                format!("{by} offered a draw and {side} accepted"),
                pts,
                out,
            );
            Ok("accept draw".into())
        }
        _ => refuse(
            "no draw has been offered to you",
            RuleId::Draws,
            "offer draw",
        ),
    }
}

pub(super) fn finish(
    state: &mut State,
    winner: Option<String>,
    reason: String,
    points: BTreeMap<String, u32>,
    out: &mut Outcome,
) {
    let res = GameResult {
        winner,
        reason,
        points,
    };
    say(out, format!("the game ends: {}", res.reason));
    out.finished = Some(res.clone());
    state.result = Some(res);
    state.phase = Phase::Finished;
    state.next_side = None;
}
