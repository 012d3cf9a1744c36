//! 004 "Reactive fire" (and 003's "Reactive Attacks" through the marked issue 18 hooks).

use super::*;
use crate::dust_tactics::battlefront::react_choice::{self as bf_choice, TwoArmy};
use crate::dust_tactics::battlefront::reactive as bf_reactive;

/// The side that may react and its eligible units (004 "Reactive fire": not yet activated, with
/// a weapon that can reach and damage the activating unit, in LOS). R54: one attempt per window.
pub(super) fn react_candidates(state: &State, act: &Activation) -> Option<(String, Vec<String>)> {
    // A hero who boarded his vehicle pilots it and "cannot be targeted" (004 "Pilot: Name"):
    // nothing can fire at him, so no window opens after his boarding (R541; games made before
    // revision 8 opened one, and replay so).
    if state.revised(8) && super::piloting::is_pilot(state, &act.unit) {
        return None;
    }
    let to = super::riders::square_of(state, &act.unit)?;
    let armour = armour_of(state, &act.unit)?;
    let occ = occupancy(state, &[]);
    for side in sides_list(state) {
        if side == act.side {
            continue;
        }
        let mut c = vec![];
        for u in &state.units {
            let spent = u.activated && !super::underground::reacts_when_activated(state, u);
            // An exhausted unit "cannot perform any action" (R477).
            let spent = spent || u.exhausted;
            if u.side != side || !leads(u) || spent || act.reacted.contains(&u.id) {
                continue;
            }
            // A Tank Riders rider reacts from its vehicle's square (R472).
            let Some(from) = super::riders::square_of(state, &u.id) else {
                continue;
            };
            // issue 18 hook: 003's reactor must be within four squares (battlefront/reactive.rs).
            let advanced = has_skill(state, &u.id, Skill::AdvancedReactiveFire); // 002, R715
            if state.rules().reactive_graded() && !bf_reactive::within_range(from, to, advanced) {
                continue;
            }
            // issue 18 hook: 002 "Camouflage" hides the activating unit (R762).
            let hidden = super::skills002_d::hidden_from(state, &occ, &u.id, from, &act.unit, to);
            if !hidden
                && !reactive_lines(state, &u.id, from, (&act.unit, to), armour, &occ).is_empty()
            {
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
    (target, to): (&str, Square),
    armour: model::Armour,
    occ: &Occupancy,
) -> Vec<(String, WeaponLine)> {
    let (from, to) = super::large::reactive_pair(state, occ, unit, from, to);
    let dist = geometry::distance(from, to);
    // Issue 12: 004 "Firing" between heights (R515).
    let (fh, th) = (
        super::floors_fire::height_of(state, unit),
        super::floors_fire::height_of(state, target),
    );
    let air =
        super::aircraft::is_aircraft(state, unit) || super::aircraft::is_aircraft(state, target);
    let apart = super::floors_fire::apart(state, (from, fh), (to, th), air);
    if apart.is_some_and(|(n, _)| n > 1) {
        return vec![];
    }
    let dist = dist + apart.map_or(0, |(_, plus)| plus);
    let my_type = unit_type(state, unit);
    let target_type = match armour {
        model::Armour::Soldier(_) => UnitType::Squad,
        _ => UnitType::Vehicle,
    };
    let target_air = matches!(armour, model::Armour::Aircraft(_)) && state.revised(5);
    let shooter_air = super::aircraft::is_aircraft(state, unit);
    // issue 18 hook: 003's line of sight under battlefront-2013 (to and from aircraft: R800).
    let sight = super::aircraft::sight_003(state, shooter_air, target_air, from, to);
    let sight = sight.unwrap_or_else(|| {
        super::super::battlefront::sight::line_of_sight_under(
            state.rules(),
            &state.scenario.board,
            occ,
            &super::super::battlefront::strongpoints::all(state),
            Sighter {
                square: from,
                unit_type: my_type,
            },
            Sighter {
                square: to,
                unit_type: target_type,
            },
        )
    });
    let (fs, ts) = (
        Sighter {
            square: from,
            unit_type: my_type,
        },
        Sighter {
            square: to,
            unit_type: target_type,
        },
    );
    let sight = super::floors_fire::sight(state, occ, (from, fh), (to, th), sight);
    if sight != Sight::Clear || !super::underground::reaction_allowed(state, occ, fs, ts) {
        return vec![];
    }
    // Issue 12: 004 "Structures": into and out of a structure only through an entrance (R505);
    // a roof is outside, and 1 floor apart in one structure needs none (R515).
    let roof = Some(crate::dust_tactics::floors::Height::Roof);
    let ceiling = super::floors_fire::through_ceiling(state, (from, fh), (to, th));
    // issue 18: 003's openings under battlefront-2013 (R615).
    if state.rules().battlefront() {
        let board = &state.scenario.board;
        if crate::dust_tactics::battlefront::buildings::fire_block(board, occ, fs, ts).is_some() {
            return vec![];
        }
    } else if !ceiling
        && crate::dust_tactics::structures::fire_block(
            &state.scenario.board,
            from,
            shooter_air || fh == roof,
            to,
            target_air || th == roof,
        )
        .is_some()
    {
        return vec![];
    }
    let graded = state.rules().reactive_graded();
    let lines = weapons_of_group(state, unit)
        .into_iter()
        .filter(|(s, w)| {
            // issue 18 hook: no close-combat weapon in a 003 reactive attack.
            (!graded || bf_reactive::allows(w))
                && super::passengers::may_fire(state, s, w) // 002 (R734, R741)
                && super::artillery002::in_range(state, w, dist)
                && (w.range != WeaponRange::Close || apart.is_none_or(|(n, _)| n == 0))
                && w.against(armour) != Fire::No
                && super::artillery::loaded(state, s, w)
                && (w.ammo.is_none()
                    || state
                        .unit(s)
                        .and_then(|x| x.ammo.get(&w.id))
                        .copied()
                        .unwrap_or(0)
                        > 0)
        })
        .collect();
    super::special_weapons::one_ammo_each(lines)
}

pub(super) fn cmd_react(
    state: &mut State,
    side: &str,
    unit: Option<&str>,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> Result<String, Refusal> {
    react_with(state, side, unit, None, dice, out)
}

/// issue 18: `react <unit> turn|sustained`, 003's choice on two army symbols (R255); the other
/// rulesets roll no graded dice and refuse it.
pub(super) fn cmd_react_choosing(
    state: &mut State,
    side: &str,
    unit: &str,
    choice: TwoArmy,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> Result<String, Refusal> {
    if !state.rules().reactive_graded() {
        return refuse(
            format!(
                "`react {unit} {}` chooses what two army symbols of 003's reactive attack do; ruleset {} has no such roll",
                choice.word(),
                state.ruleset
            ),
            RuleId::ReactiveFire,
            format!("react {unit}"),
        );
    }
    react_with(state, side, Some(unit), Some(choice), dice, out)
}

fn react_with(
    state: &mut State,
    side: &str,
    unit: Option<&str>,
    choice: Option<TwoArmy>,
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
    // R819: a Large vehicle with no room to rotate is refused `turn` before its dice.
    if let (Some(r), Some(TwoArmy::Turn)) = (&chosen, choice) {
        if let Some(e) = super::large_react::turn_refusal(state, r, &act.unit) {
            return Err(e);
        }
    }
    let Some(mut act) = take_activation(state) else {
        return refuse("no reactive-fire window is open", rule, "wait");
    };
    let text = answer_react_with(state, &mut act, side, chosen, choice, dice, out);
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
    answer_react_with(state, act, side, chosen, None, dice, out)
}

/// [`answer_react`] with the owner's choice on two army symbols (battlefront-2013, R255).
fn answer_react_with(
    state: &mut State,
    act: &mut Activation,
    side: &str,
    chosen: Option<String>,
    choice: Option<TwoArmy>,
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
    // issue 18 hook: 003's two dice with graded results (battlefront/reactive.rs).
    if state.rules().reactive_graded() {
        return answer_react_graded(state, act, r, choice, dice, out);
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
        queue_reactive_attack(state, act, &r, false);
    }
    format!("react {r}")
}

/// Puts the reacting unit's attack on the activating unit before the activation's next step:
/// every line that can reach and hurt it, at it only.
fn queue_reactive_attack(state: &State, act: &mut Activation, r: &str, sustained: bool) {
    let from = super::riders::square_of(state, r);
    let to = super::riders::square_of(state, &act.unit);
    let armour = armour_of(state, &act.unit);
    if let (Some(from), Some(to), Some(armour)) = (from, to, armour) {
        let occ = occupancy(state, &[]);
        // issue 18 hook: 003's reaction fires only what its field of fire allows (R255).
        let facing = state
            .unit(r)
            .filter(|_| bf_choice::applies(state))
            .and_then(|x| crate::dust_tactics::battlefront::facing::of_unit(state, x));
        let lines: Vec<LineOrder> = reactive_lines(state, r, from, (&act.unit, to), armour, &occ)
            .into_iter()
            .filter(|(_, w)| bf_choice::in_arc(state, (r, from), (&act.unit, to), w, facing))
            .map(|(s, w)| LineOrder {
                shooter: s,
                weapon: w.id,
                target: Target::Unit {
                    unit: act.unit.clone(),
                },
                through: vec![],
                count: None,
                soldiers: None,
            })
            .collect();
        if !lines.is_empty() {
            act.steps.insert(0, Step::Attack { lines, sustained });
        }
    }
}

/// 003 "Reactive Attacks": "roll two dice": two army symbols, a Sustained Attack (R271); one,
/// an Attack; none, a Nothing action. The unit is activated already, whatever the roll.
fn answer_react_graded(
    state: &mut State,
    act: &mut Activation,
    r: String,
    choice: Option<TwoArmy>,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> String {
    let round = state.round;
    // 002: a Stunned unit rolls one die and loses the token (R267).
    let n = crate::dust_tactics::battlefront::stunned::reactive_dice(state, &r);
    let faces: Vec<u8> = (0..n).map(|_| dice.d6(round)).collect();
    // 002 "Advanced Reactive Fire": target symbols count as army symbols (R715).
    let advanced = has_skill(state, &r, Skill::AdvancedReactiveFire);
    let g = bf_reactive::grade(&faces, advanced);
    out.happenings.push(Happening {
        text: format!(
            "{r} attempts a reactive attack at {}: {}{}",
            act.unit,
            if advanced {
                "(Advanced Reactive Fire, target symbols count as army symbols) "
            } else {
                ""
            },
            bf_reactive::grade_text(g)
        ),
        rolls: vec![Roll {
            purpose: format!("{} {r}", bf_reactive::PURPOSE),
            round,
            faces,
        }],
        ..Happening::default()
    });
    match g {
        bf_reactive::Grade::Sustained => match two_army_turn(state, act, &r, choice, out) {
            // R819: a Large vehicle's Move rotates it on its two squares.
            Some(rot) if super::large_react::rotates(state, &r) => {
                super::large_react::rotate(state, &r, rot, &act.unit, out);
                super::large_react::mark_turned(state, &r);
                queue_reactive_attack(state, act, &r, false);
            }
            // R255: a Move that only turns the unit towards the activating one, then an Attack.
            Some((_, f)) => {
                crate::dust_tactics::battlefront::facing::record_turn(state, &r, f);
                say(out, bf_choice::turn_text(&r, f, &act.unit));
                super::large_react::mark_turned(state, &r);
                queue_reactive_attack(state, act, &r, false);
            }
            None => queue_reactive_attack(state, act, &r, true),
        },
        bf_reactive::Grade::Attack => queue_reactive_attack(state, act, &r, false),
        bf_reactive::Grade::Nothing => {}
    }
    format!("react {r}")
}

/// R255: the facing a reactor with two army symbols turns to before its Attack (and, for a
/// Large vehicle, the square its front ends on, R819), or `None` for the Sustained Attack: the
/// owner's `react <unit> turn|sustained`, else the referee's default (turning when it brings
/// more weapon lines to bear).
fn two_army_turn(
    state: &State,
    act: &Activation,
    r: &str,
    choice: Option<TwoArmy>,
    out: &mut Outcome,
) -> Option<(Square, crate::dust_tactics::battlefront::facing::Facing)> {
    let from = state.unit(r)?.at?;
    let to = state.unit(&act.unit)?.at?;
    // The answer's choice, else the standing order for this unit, else for `any` (R255).
    let side = state.unit(r)?.side.clone();
    let standing = state.standing.get(&side).and_then(|st| {
        st.react_two_army
            .get(r)
            .or_else(|| st.react_two_army.get("any"))
            .and_then(|w| TwoArmy::parse(w))
    });
    let choice = choice.or(standing);
    let large = super::large_react::rotates(state, r);
    // A Large vehicle made before rules revision 10 does not turn: the Sustained Attack (R770).
    if crate::dust_tactics::battlefront::large2::is_id(state, r) && !large {
        return None;
    }
    let turned = if large {
        match super::large_react::rotation(state, r, &act.unit) {
            Ok(rot) => rot,
            Err(why) => {
                if choice == Some(TwoArmy::Turn) {
                    say(
                        out,
                        format!(
                            "{why}: it makes the Sustained Attack ({})",
                            super::large_react::RULE
                        ),
                    );
                }
                return None;
            }
        }
    } else {
        (from, bf_choice::towards(from, to)?)
    };
    let choice = match choice {
        Some(c) => c,
        // A game made before R255 keeps R271: always the Sustained Attack.
        None if !bf_choice::applies(state) => TwoArmy::Sustained,
        None => {
            let armour = armour_of(state, &act.unit)?;
            // The lines it brings to bear as it stands and as turned (a Large vehicle's from
            // its rotated squares).
            let count = |st: &State, at: Square, f| {
                let occ = occupancy(st, &[]);
                reactive_lines(st, r, at, (&act.unit, to), armour, &occ)
                    .iter()
                    .filter(|(_, w)| bf_choice::in_arc(st, (r, at), (&act.unit, to), w, f))
                    .count()
            };
            let now = crate::dust_tactics::battlefront::facing::of_unit(state, state.unit(r)?);
            let planned = large.then(|| super::large_react::rotated(state, r, turned));
            let after = count(planned.as_ref().unwrap_or(state), turned.0, Some(turned.1));
            bf_choice::default_choice(count(state, from, now), after)
        }
    };
    (choice == TwoArmy::Turn).then_some(turned)
}

/// `standing react <your unit|any> turn|sustained` (battlefront-2013, R255): what two army
/// symbols of that unit's reactive attacks do when its owner is not asked.
pub fn standing_react_choosing(
    state: &mut State,
    side: &str,
    unit: Option<&str>,
    choice: TwoArmy,
) -> Result<String, Refusal> {
    let rule = RuleId::StandingReact.with("standing orders");
    if !state.rules().reactive_graded() {
        return refuse(
            format!(
                "`{}` chooses what two army symbols of 003's reactive attack do; ruleset {} has no such roll",
                choice.word(),
                state.ruleset
            ),
            rule,
            "standing react <your unit|any> auto|never|ask",
        );
    }
    let ex = format!("standing react <your unit|any> {}", choice.word());
    let key = own_unit_key(state, side, unit, rule, &ex)?;
    state
        .standing
        .entry(side.to_string())
        .or_default()
        .react_two_army
        .insert(key.clone(), choice.word().to_string());
    Ok(format!("standing react {key} {}", choice.word()))
}
