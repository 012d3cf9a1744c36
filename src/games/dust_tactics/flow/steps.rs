//! Running an activation step by step, with its reactive-fire window (004 "Actions").

use super::*;

pub(super) fn take_activation(state: &mut State) -> Option<Box<Activation>> {
    match std::mem::replace(&mut state.phase, Phase::Activations) {
        Phase::Activation(a) => Some(a),
        other => {
            state.phase = other;
            None
        }
    }
}

/// Runs the current activation until it waits for a decision or ends.
pub fn run(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    // A bound on steps: every step is consumed or waits, so this only guards against bugs.
    for _ in 0..10_000 {
        if matches!(state.phase, Phase::Activations) && state.next_side.is_none() {
            // Nobody can activate: the round is over.
            end_round(state, dice, out);
            return;
        }
        let Some(mut act) = take_activation(state) else {
            return;
        };
        if act.wait.is_some() && !auto_answer(state, &mut act, dice, out) {
            state.phase = Phase::Activation(act);
            return;
        }
        if act.steps.is_empty() {
            finish_activation(state, &act, dice, out);
            return;
        }
        let step = act.steps.remove(0);
        exec_step(state, &mut act, step, dice, out);
        state.phase = Phase::Activation(act);
    }
}

pub(super) fn active_alive(state: &State, act: &Activation) -> bool {
    group(state, &act.unit)
        .iter()
        .any(|m| alive_on_board(state, m))
        || state
            .unit(&act.unit)
            .map(|u| !u.destroyed && u.at.is_none())
            .unwrap_or(false)
}

pub(super) fn exec_step(
    state: &mut State,
    act: &mut Activation,
    step: Step,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let alive = active_alive(state, act);
    let lead = act.unit.clone();
    match step {
        Step::Enter { to } => {
            if !alive {
                return;
            }
            for m in group(state, &lead) {
                if let Some(x) = state.unit_mut(&m) {
                    x.at = Some(to);
                    x.moved = true;
                }
            }
            // battlefront-2013: it faces straight in from its edge (003 "Facing", R251).
            super::super::battlefront::facing::record_entry(state, &lead, to);
            super::super::battlefront::reserves::entered(state, &lead);
            tell(
                out,
                format!("{lead} enters the battlefield at {to}"),
                DtEvent::Entered {
                    unit: lead.clone(),
                    to,
                },
                vec![],
            );
        }
        Step::Move { path, crushed } => {
            if !alive || !alive_on_board(state, &lead) {
                return;
            }
            let Some(to) = path.last().copied() else {
                return;
            };
            let from = state.unit(&lead).and_then(|u| u.at).unwrap_or(to);
            for m in group(state, &lead) {
                if let Some(x) = state.unit_mut(&m) {
                    x.at = Some(to);
                    x.moved = true;
                }
            }
            for sq in crushed {
                state.scenario.board.cover.remove(&sq);
                say(out, format!("{lead} crushes the ammo crate on {sq}"));
            }
            dozer_blade(state, &lead, &path, out);
            // battlefront-2013: it faces the way it last stepped (003 "Facing", R252).
            super::super::battlefront::facing::record_move(state, &lead, from, &path);
            tell(
                out,
                format!(
                    "{lead} moves to {to} ({})",
                    path.iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                DtEvent::Moved {
                    unit: lead.clone(),
                    from,
                    path: path.clone(),
                },
                vec![],
            );
            // It stops unless the next action is another MOVE (004 "Move").
            let next_is_move = act
                .steps
                .iter()
                .find(|s| !matches!(s, Step::Window))
                .map(|s| matches!(s, Step::Move { .. }))
                .unwrap_or(false);
            if !next_is_move {
                for m in group(state, &lead) {
                    if let Some(x) = state.unit_mut(&m) {
                        x.stopped = true;
                    }
                }
            }
        }
        Step::Attack { lines, sustained } => {
            let shooter_alive = lines.iter().any(|l| alive_on_board(state, &l.shooter));
            if !shooter_alive {
                return;
            }
            let mut ranged = vec![];
            let mut close = vec![];
            let mut cover = vec![];
            for l in lines {
                let w = find_weapon(state, &l.shooter, &l.weapon).map(|(_, w)| w);
                if matches!(l.target, Target::Square { .. }) {
                    cover.push(l);
                } else if w.map(|w| w.range == WeaponRange::Close).unwrap_or(false) {
                    close.push(l);
                } else {
                    ranged.push(l);
                }
            }
            // 004 "Close combat": other weapons first and their casualties removed, then range C
            // on both sides at once; attacks on cover elements last (R57).
            let mut pre = vec![];
            if !ranged.is_empty() {
                pre.push(Step::Fire {
                    lines: ranged,
                    sustained,
                });
                pre.push(Step::Remove);
            }
            if !close.is_empty() {
                pre.push(Step::Close {
                    lines: close,
                    sustained,
                });
                pre.push(Step::Remove);
            }
            if !cover.is_empty() {
                pre.push(Step::Fire {
                    lines: cover,
                    sustained,
                });
            }
            pre.extend(serum_steps(state, &lines_of(&pre)));
            pre.append(&mut act.steps);
            act.steps = pre;
        }
        Step::Fire { lines, sustained } => {
            for l in &lines {
                fire_line(state, act, l, sustained, true, dice, out);
            }
        }
        Step::Close { lines, sustained } => {
            let mut defenders: Vec<String> = vec![];
            let attacker = lines.first().and_then(|l| leader_of(state, &l.shooter));
            for l in &lines {
                fire_line(state, act, l, sustained, false, dice, out);
                if let Target::Unit { unit } | Target::Model { unit, .. } = &l.target {
                    if !defenders.contains(unit) {
                        defenders.push(unit.clone());
                    }
                }
            }
            // Retaliation (R56): each adjacent defender may answer with its range C lines; its
            // owner decides (R101), and the damage is removed with the attack's (simultaneous).
            let Some(attacker) = attacker else { return };
            let mut checks: Vec<Step> = defenders
                .into_iter()
                .map(|unit| Step::Retaliate {
                    unit,
                    attacker: attacker.clone(),
                })
                .collect();
            checks.append(&mut act.steps);
            act.steps = checks;
        }
        Step::Retaliate { unit, attacker } => {
            if !retaliation_lines(state, &unit, &attacker).is_empty() {
                let side = state
                    .unit(&unit)
                    .map(|u| u.side.clone())
                    .unwrap_or_default();
                say(
                    out,
                    format!("{side} may have {unit} retaliate in close combat against {attacker}"),
                );
                act.wait = Some(Wait::Retaliate {
                    side,
                    unit,
                    attacker,
                });
            }
        }
        Step::Remove => {
            // battlefront-2013: 002's Cheat Death, not 004's (battlefront/stunned.rs, R266).
            if state.rules().battlefront() {
                super::super::battlefront::stunned::cheat_death(state, act, dice, out);
            } else {
                cheat_death(state, act, dice, out);
            }
            remove_casualties(state, act, out);
        }
        Step::Window => {
            if !alive || !alive_on_board(state, &lead) {
                return;
            }
            if let Some((side, candidates)) = react_candidates(state, act) {
                say(
                    out,
                    format!("reactive-fire window: {side} may react against {lead}"),
                );
                act.wait = Some(Wait::React { side, candidates });
            }
        }
        Step::Serum { hero, hits } => serum(state, &hero, hits, out),
        Step::TankHead { target } => {
            if !alive {
                return;
            }
            // battlefront-2013: 002's Makeshift Repair, five dice (battlefront/skills.rs).
            if state.rules().battlefront() {
                let repair = super::super::battlefront::skills::makeshift_repair;
                repair(state, &lead, &target, dice, out);
                return;
            }
            let full = state
                .unit(&target)
                .and_then(|t| card(state, t))
                .map(|c| c.health);
            if let (Some(full), Some(t)) = (full, state.unit_mut(&target)) {
                if !t.destroyed {
                    let healed = full.saturating_sub(t.health);
                    t.health = full;
                    say(
                        out,
                        format!("Tank Head: {lead} repairs {target}, {healed} health restored"),
                    );
                }
            }
        }
        Step::Command { ability, target } => {
            if alive {
                command::exec_command(state, &lead, &ability, &target, dice, out);
            }
        }
        Step::Strike { gun, lines } => {
            if alive {
                super::artillery::exec_strike(state, act, &gun, lines, out);
            }
        }
        Step::Reload { weapons } => {
            if alive {
                super::artillery::exec_reload(state, act, &weapons, out);
            }
        }
        Step::Detach { hero } => {
            if let Some(h) = state.unit_mut(&hero) {
                h.joined = None;
            }
            say(
                out,
                format!("{hero} leaves {lead} for good (004 'Heroes': separation)"),
            );
        }
        Step::Nothing => super::super::battlefront::stunned::recover(state, &lead, out),
        Step::Turn { facing } => {
            if alive_on_board(state, &lead) {
                super::super::battlefront::facing::record_turn(state, &lead, facing);
                say(out, format!("{lead} turns to face {facing}"));
            }
        }
    }
}
