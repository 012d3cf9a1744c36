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
        // 004 "Carry Capacity": the riders of a vehicle just destroyed roll first (R464).
        super::carry::wrecks(state, dice, out);
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
    // battlefront-2013, 002 "Camouflage": an action but Move or Nothing ends it (R762).
    crate::dust_tactics::battlefront::skills002_d::uncamouflage(state, &lead, &step);
    // 002 "Grapple Weapons": an action other than Nothing lets go (R813).
    crate::dust_tactics::battlefront::grapple::on_step(state, &lead, &step, out);
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
            super::aircraft::entered(state, &lead, to);
            tell(
                out,
                format!("{lead} enters the battlefield at {to}"),
                DtEvent::Entered {
                    unit: lead.clone(),
                    to,
                },
                vec![],
            );
            // 004 "Minefields": entering onto a mined space moves into it (R481).
            super::mines::minefields(state, &lead, &[to], dice, out);
            // 002's wire and mines (R724, R725): entering onto one moves into it.
            super::fortify::wire(state, act, &[to], dice, out);
            super::fortify::mines(state, &lead, &[], &[to], dice, out);
        }
        Step::Move { path, crushed } => {
            if !alive || !alive_on_board(state, &lead) {
                return;
            }
            let start = state.unit(&lead).and_then(|u| u.at);
            // Every square it stands on before the move, named one first (002 mines, R686).
            let start_body: Vec<Square> = (start.iter())
                .flat_map(|sq| super::large::squares_at(state, &lead, *sq))
                .collect();
            // 002 "Barbed Wire Entanglements" (R724): tangled, the unit stops.
            let path = super::fortify::wire(state, act, &path, dice, out);
            let Some(to) = path.last().copied() else {
                return;
            };
            let from = start.unwrap_or(to);
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
            // 004 "Minefields": each mined space entered (R481).
            super::mines::minefields(state, &lead, &path, dice, out);
            // 002 "Minefields" (R725): one attack a move into, through or out of one.
            super::fortify::mines(state, &lead, &start_body, &path, dice, out);
            stop_unless_moving_on(state, act, &lead);
        }
        Step::Travel { to } => {
            if alive && alive_on_board(state, &lead) {
                super::travel::exec(state, &lead, to, dice, out);
            }
        }
        Step::Climb { path } => {
            if alive && alive_on_board(state, &lead) {
                super::floors::exec_climb(state, &lead, &path, dice, out);
                stop_unless_moving_on(state, act, &lead);
            }
        }
        Step::Board { path, vehicle } => {
            if alive {
                super::carry::exec_board(state, &lead, &path, &vehicle, dice, out);
            }
        }
        Step::Lift { vehicle } => {
            if alive {
                super::airlifter::exec_lift(state, &lead, &vehicle, out);
            }
        }
        Step::Exit { to, path } => {
            if alive {
                super::carry::exec_exit(state, act, to, &path, out);
                // 004 "Minefields" (R629, rules revision 7): the exit square and the rest.
                if state.revised(7) {
                    let all: Vec<Square> = std::iter::once(to).chain(path).collect();
                    super::mines::minefields(state, &lead, &all, dice, out);
                }
            }
        }
        Step::Attack { lines, sustained } => {
            // A Tank Riders rider fires from its vehicle's square (R470).
            let shooter_alive = lines.iter().any(|l| {
                alive_on_board(state, &l.shooter)
                    || super::riders::firing_square(state, &l.shooter).is_some()
            });
            if !shooter_alive {
                return;
            }
            // 002 "Wire-Guided Weapons": "one Wire-guided weapon and no other weapons" (R673).
            // Set only for such a line, so games without one keep their state's bytes.
            act.flags.lone_wire_guided = !sustained
                && lines.len() == 1
                && lines.iter().all(|l| {
                    find_weapon(state, &l.shooter, &l.weapon)
                        .is_some_and(|(_, w)| w.traits.contains(&WeaponTrait::WireGuided))
                });
            act.flags.spotted = super::weapons002::spotted(state, &lines, sustained);
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
            // battlefront-2013, 002 "First Strike": defenders with it strike first (R731).
            if let Some(mut first) =
                super::first_strike::defenders_first(state, &lines, sustained, out)
            {
                first.append(&mut act.steps);
                act.steps = first;
                return;
            }
            close_combat(state, act, &lines, sustained, &[], dice, out);
        }
        Step::CloseAfter {
            lines,
            sustained,
            struck,
        } => close_combat(state, act, &lines, sustained, &struck, dice, out),
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
        Step::Remove => loop {
            // battlefront-2013: 002's Cheat Death, not 004's (battlefront/stunned.rs, R266).
            if state.rules().battlefront() {
                super::super::battlefront::stunned::cheat_death(state, act, dice, out);
                // issue 18 hook: the damaged gain Under Fire or Suppressed (R703).
                super::super::battlefront::suppression::gain(state, act, out);
            } else {
                cheat_death(state, act, dice, out);
            }
            remove_casualties(state, act, dice, out);
            // A destroyed vehicle's pilot rolls to escape (R542, R261).
            super::piloting::escape_rolls(state, dice, out);
            // 004 "Tesla weapons": a destroyed carrier's explosion, then its casualties (R562).
            if act.wait.is_some() || !super::tesla::explode_next(state, act, dice, out) {
                break;
            }
        },
        Step::Window => {
            if !alive || !alive_on_board(state, &lead) {
                return;
            }
            // issue 18: with three actions the reaction waits for the last one (R608).
            if super::super::battlefront::ace::deferred(act) {
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
            // issue 18: 002's orders; a success of three of them ends the activation (R646).
            if alive && state.rules().battlefront() {
                if super::command002::exec(state, &lead, &ability, &target, dice, out) {
                    act.steps.clear();
                }
            } else if alive {
                command::exec_command(state, &lead, &ability, &target, dice, out);
            }
        }
        Step::Strike { gun, lines } => {
            if alive {
                super::artillery::exec_strike(state, act, &gun, lines, out);
            }
        }
        s @ Step::Observed { .. } => {
            if alive {
                super::artillery002::exec_observed(state, act, s, out);
            }
        }
        Step::SmokeScreen {
            shooter,
            weapon,
            at,
        } => {
            if alive {
                super::artillery002::exec_smoke_screen(state, &shooter, &weapon, at, dice, out);
            }
        }
        Step::GunReload { gun, weapons } => {
            super::artillery002::reload_gun(state, &gun, &weapons, out)
        }
        Step::Reload { weapons } => {
            if alive {
                super::artillery::exec_reload(state, act, &weapons, out);
            }
        }
        Step::DestroyBunker { bunker } => {
            if alive {
                let by = state
                    .unit(&lead)
                    .map(|u| u.side.clone())
                    .unwrap_or_default();
                // The planner found the bunker; nothing else removes one within an activation.
                let _ = super::structures::destroy_bunker(state, &bunker, &by, out);
            }
        }
        Step::Engineering { at } => {
            if alive {
                super::fortify::exec_engineering(state, &lead, at, dice, out);
            }
        }
        Step::Dozer => {
            if alive {
                super::engineering_vehicle::exec_dozer(state, &lead, out);
            }
        }
        Step::Bury { at } => {
            if alive {
                super::engineering_vehicle::exec_bury(state, &lead, at, dice, out);
            }
        }
        Step::ClearMines { at } => {
            if alive {
                super::mines::exec_clear(state, &lead, at, out);
            }
        }
        Step::Salvage { unit, at } => {
            if alive {
                super::mines::exec_salvage(state, &lead, &unit, at, out);
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
        Step::AcePilot { pilot } => super::piloting::ace_die(state, act, &pilot, dice, out),
        Step::AceExtra => super::piloting::ace_extra(act, out),
        Step::Resurrection { hero, target } => {
            if alive {
                let raise = crate::dust_tactics::battlefront::skills002_d::resurrection;
                raise(state, &hero, &target, dice, out);
            }
        }
        Step::Camouflage => {
            if alive {
                crate::dust_tactics::battlefront::skills002_d::camouflage(state, &lead, out);
            }
        }
        // issue 18 hooks: 002's removal roll and the orders of a unit left Suppressed (R704).
        Step::SuppressionRoll => {
            super::super::battlefront::suppression::roll(state, act, dice, out)
        }
        Step::SuppressionCut => super::super::battlefront::suppression::cut(act),
        // 002 "Spy" (R765, R660): the roll cuts the steps itself.
        Step::Spy { at } => super::spy::roll(state, act, at, dice, out),
        Step::SpyCut => {}
        Step::AirAlert { target } => {
            if alive_on_board(state, &lead) {
                let alert = crate::dust_tactics::battlefront::equipment::air_alert;
                alert(state, &lead, &target, dice, out);
            }
        }
        Step::Medevac { target } => {
            if alive_on_board(state, &lead) {
                let medevac = crate::dust_tactics::battlefront::equipment::medevac;
                medevac(state, &lead, &target, dice, out);
            }
        }
        Step::SmokeLaunchers => {
            if alive_on_board(state, &lead) {
                crate::dust_tactics::battlefront::equipment::launch_smoke(state, &lead, out);
            }
        }
        Step::Turn { facing } => {
            if alive_on_board(state, &lead) {
                super::super::battlefront::facing::record_turn(state, &lead, facing);
                say(out, format!("{lead} turns to face {facing}"));
            }
        }
    }
}

/// A unit that moved stops unless the next action is another MOVE (004 "Move").
pub(super) fn stop_unless_moving_on(state: &mut State, act: &Activation, lead: &str) {
    let next_is_move = act
        .steps
        .iter()
        .find(|s| !matches!(s, Step::Window))
        .map(|s| matches!(s, Step::Move { .. } | Step::Climb { .. }))
        .unwrap_or(false);
    if !next_is_move {
        for m in group(state, lead) {
            if let Some(x) = state.unit_mut(&m) {
                x.stopped = true;
            }
        }
    }
}

/// Close combat: the lines, then every adjacent defender's retaliation but those in `struck`
/// (they struck first, 002 "First Strike", R731).
fn close_combat(
    state: &mut State,
    act: &mut Activation,
    lines: &[LineOrder],
    sustained: bool,
    struck: &[String],
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let mut defenders: Vec<String> = vec![];
    let attacker = lines.first().and_then(|l| leader_of(state, &l.shooter));
    for l in lines {
        fire_line(state, act, l, sustained, false, dice, out);
        if let Target::Unit { unit } | Target::Model { unit, .. } = &l.target {
            if !defenders.contains(unit) && !struck.contains(unit) {
                defenders.push(unit.clone());
            }
        }
    }
    // Retaliation (R56): each adjacent defender may answer with its range C lines; its owner
    // decides (R101), and the damage is removed with the attack's (simultaneous), unless the
    // attacker strikes first (R731): its results are applied before.
    let Some(attacker) = attacker else { return };
    let mut checks: Vec<Step> = vec![];
    if super::first_strike::attacker_first(state, &attacker, &defenders, out) {
        checks.push(Step::Remove);
    }
    checks.extend(defenders.into_iter().map(|unit| Step::Retaliate {
        unit,
        attacker: attacker.clone(),
    }));
    checks.append(&mut act.steps);
    act.steps = checks;
}
