//! 004 "Initiative", "Alternating activations" and the end of a round.

use super::*;

pub(super) fn cmd_first(
    state: &mut State,
    side: &str,
    chosen: &str,
    out: &mut Outcome,
) -> Result<String, Refusal> {
    let Phase::First { winner } = &state.phase else {
        return refuse(
            "nobody is choosing who goes first now",
            RuleId::Initiative,
            "see the awaited decisions in the last report",
        );
    };
    if winner != side {
        return refuse(
            format!("{winner} won the initiative, so {winner} chooses who activates first"),
            RuleId::Initiative,
            "wait for their choice",
        );
    }
    let Some(chosen) = sides_list(state)
        .into_iter()
        .find(|s| s.eq_ignore_ascii_case(chosen))
    else {
        return refuse(
            format!("`{chosen}` is not a side of this game"),
            RuleId::Initiative,
            format!("first {}", side),
        );
    };
    say(
        out,
        format!(
            "{side} chooses {chosen} to activate first in round {}",
            state.round
        ),
    );
    start_activations(state, &chosen, out);
    Ok(format!("first {chosen}"))
}

pub(super) fn start_activations(state: &mut State, first: &str, out: &mut Outcome) {
    state.phase = Phase::Activations;
    if can_activate(state, first) {
        state.next_side = Some(first.to_string());
    } else {
        // A side with no unit left to activate is skipped (004 "Activation").
        let next = next_side_after(state, first);
        if next.is_none() {
            say(out, format!("{first} has no unit to activate"));
        }
        state.next_side = next;
    }
}

/// The next side after `current` (cyclic, scenario order) that still has a unit to activate.
pub(super) fn next_side_after(state: &State, current: &str) -> Option<String> {
    let sides = sides_list(state);
    let i = sides.iter().position(|s| s == current).unwrap_or(0);
    (1..=sides.len())
        .map(|k| sides[(i + k) % sides.len()].clone())
        .find(|s| can_activate(state, s))
}

pub(super) fn finish_activation(
    state: &mut State,
    act: &Activation,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    state.phase = Phase::Activations;
    // issue 18 hook: 003 joins by sharing a square, per activation (R604).
    super::super::battlefront::joining::settle(state, act, out);
    super::super::battlefront::reserves::place_pending(state, out);
    if command::reactivate(state, out) {
        return;
    }
    let next = next_side_after(state, &act.side);
    match next {
        Some(s) => state.next_side = Some(s),
        None => end_round(state, dice, out),
    }
}

pub(super) fn roll_initiative(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    roll_dice_for_initiative(state, dice, out);
    settle_first(state, out);
}

/// Rolls the initiative and leaves the winner's choice awaited.
pub(super) fn roll_dice_for_initiative(
    state: &mut State,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let round = state.round;
    let sides = sides_list(state);
    let rules = state.rules();
    let mut rolls = vec![];
    let mut text = vec![];
    let mut winner = sides.first().cloned().unwrap_or_default();
    // Ties are re-rolled (004 "Initiative"); the bound only guards against a broken dice source.
    for _ in 0..1000 {
        let mut best: Vec<(String, (usize, usize))> = vec![];
        let mut line = vec![];
        for s in &sides {
            // Black Ops: +1 die while a unit with it lives, not stacking.
            let black_ops = state.units.iter().any(|u| {
                &u.side == s
                    && !u.destroyed
                    && card(state, u)
                        .map(|c| c.has(Skill::BlackOps))
                        .unwrap_or(false)
            });
            let n = 3 + black_ops as usize;
            let faces: Vec<u8> = (0..n).map(|_| dice.d6(round)).collect();
            // 004 "Legendary Tactician": hits and misses swap places (R411).
            let reversed = legendary_tactician(state, s);
            let hits = faces
                .iter()
                .filter(|f| rules.is_hit(**f) != reversed)
                .count();
            // battlefront-2013: a tie on army symbols goes to the most target symbols (R232).
            let tie_break = super::super::battlefront::dice::initiative_tie_break(rules, &faces);
            line.push(match tie_break {
                Some(t) => format!("{s} {hits} army and {t} target symbol(s) on {n} dice"),
                None => format!("{s} {hits} hit(s) on {n} dice"),
            });
            rolls.push(Roll {
                purpose: format!("initiative {s}"),
                round,
                faces,
            });
            best.push((s.clone(), (hits, tie_break.unwrap_or(0))));
        }
        let top = best.iter().map(|b| b.1).max().unwrap_or((0, 0));
        let at_top: Vec<&(String, (usize, usize))> = best.iter().filter(|b| b.1 == top).collect();
        text.push(line.join(", "));
        if at_top.len() == 1 {
            winner = at_top[0].0.clone();
            break;
        }
    }
    out.happenings.push(Happening {
        text: format!(
            "round {round} initiative: {}; {winner} wins and chooses who activates first",
            text.join("; tie, re-roll: ")
        ),
        rolls,
        ..Happening::default()
    });
    state.initiative = Some(winner.clone());
    state.phase = Phase::First { winner };
}

/// Answers an awaited choice of who goes first from the winner's standing order or the R100
/// default; only `standing first ask` leaves it awaited.
pub(super) fn settle_first(state: &mut State, out: &mut Outcome) {
    let Phase::First { winner } = &state.phase else {
        return;
    };
    let winner = winner.clone();
    let standing = state.standing.get(&winner).cloned().unwrap_or_default();
    // Only `standing first ask` waits for a mail; the default is the winner itself (R100).
    if !standing.first_ask {
        let first = match standing.first {
            Some(f) => {
                say(
                    out,
                    format!("standing order of {winner}: {f} activates first"),
                );
                f
            }
            None => {
                say(out, format!("{winner} activates first (default, R100)"));
                winner.clone()
            }
        };
        start_activations(state, &first, out);
    }
}

pub(super) fn end_round(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    let round = state.round;
    let rules = state.rules();
    // Self Repair (004): 1 die per lost health, each HIT restores 1.
    let ids: Vec<String> = state.units.iter().map(|u| u.id.clone()).collect();
    for id in ids {
        let Some(u) = state.unit(&id).cloned() else {
            continue;
        };
        let Some(c) = card(state, &u).cloned() else {
            continue;
        };
        if u.destroyed
            || u.at.is_none()
            // 004 "Recovery Vehicle": "Recovery vehicles have the Self Repair skill".
            || !(c.has(Skill::SelfRepair) || c.has(Skill::RecoveryVehicle))
            || u.health >= c.health
            || c.unit_type == UnitType::Squad
        {
            continue;
        }
        let lost = c.health - u.health;
        let faces: Vec<u8> = (0..lost).map(|_| dice.d6(round)).collect();
        let hits = faces.iter().filter(|f| rules.is_hit(**f)).count() as u8;
        if let Some(x) = state.unit_mut(&id) {
            x.health = (x.health + hits).min(c.health);
        }
        out.happenings.push(Happening {
            text: format!("Self Repair: {id} restores {hits} of {lost} lost health"),
            rolls: vec![Roll {
                purpose: format!("self repair {id}"),
                round,
                faces,
            }],
            ..Happening::default()
        });
    }
    badass_refill(state, out);
    super::nco::lift_smoke(state, out);
    super::super::battlefront::reserves::place_pending(state, out);
    // issue 18 hook: 003 §12 victory points for objectives held (battlefront/vp.rs).
    super::super::battlefront::vp::score_turn(state, out);
    super::underground::deployment(state, out); // 004 "Deployment" underground (R625)
    say(out, format!("round {round} ends"));
    if let Some(by) = state.draw_offer.take() {
        say(out, format!("{by}'s draw offer lapses with the round"));
    }
    out.rounds_ended.push(round);
    if let Some(res) = game_over(state) {
        say(out, format!("the game ends: {}", res.reason));
        out.finished = Some(res.clone());
        state.result = Some(res);
        state.phase = Phase::Finished;
        state.next_side = None;
        return;
    }
    state.round += 1;
    for u in state.units.iter_mut() {
        u.activated = false;
        u.stopped = false;
        u.moved = false;
    }
    roll_initiative(state, dice, out);
}
