//! The bot's steps between heights (004 "STRUCTURES", "Moving": "A unit can use a **MOVE**
//! action to move up or down 1 floor for each MP spent."; R514, R635): a soldier unit inside a
//! structure climbs, or walks an upper floor, to a place from which it can attack an enemy, using only
//! the steps the orders template offers (`floors::steps_up_from`) and only orders the engine
//! accepts on a copy of the state.

use super::floors::{self, Spot};
use super::model::Square;
use super::state::State;
use std::collections::BTreeMap;

/// The places above the ground floor the unit at `from` reaches in at most `mp` steps of
/// `floors::steps_up_from`, each with the shortest path there (steps in order), in board order.
fn reachable(state: &State, from: Spot, mp: u32) -> BTreeMap<Spot, Vec<Spot>> {
    let board = &state.scenario.board;
    let mut seen: BTreeMap<Spot, Vec<Spot>> = BTreeMap::new();
    let mut frontier: Vec<(Spot, Vec<Spot>)> = vec![(from, vec![])];
    for _ in 0..mp {
        let mut next = vec![];
        for (at, path) in &frontier {
            for spot in floors::steps_up_from(board, *at) {
                if spot == from || seen.contains_key(&spot) {
                    continue;
                }
                let mut p = path.clone();
                p.push(spot);
                seen.insert(spot, p.clone());
                next.push((spot, p));
            }
        }
        frontier = next;
    }
    seen
}

/// A MOVE to another height followed by an attack, as the two action lines of an activation of
/// `unit` (`move E4@2 E5@2\nattack gun at x`), or `None` when no accepted climb gives it a target.
/// Places nearest the nearest enemy come first, the higher first among equals, then board order,
/// so the choice is deterministic. ffg-revised only: the other rulesets' buildings have no
/// floors (R614).
pub(super) fn climb_and_attack(
    state: &State,
    unit: &str,
    enemies: &[(&str, Square)],
    accepted: impl Fn(&str) -> bool,
) -> Option<String> {
    let me = state.unit(unit)?;
    let card = state.card_of(me)?;
    if state.ruleset != "ffg-revised" || enemies.is_empty() {
        return None;
    }
    let from: Spot = (me.at?, me.height);
    let board = &state.scenario.board;
    let distance = |a: Square, b: Square| super::travel::route_distance(&state.scenario, a, b);
    let nearest = |sq: Square| enemies.iter().map(|(_, e)| distance(sq, *e)).min();
    let mut places: Vec<(Spot, Vec<Spot>)> = reachable(state, from, card.movement as u32)
        .into_iter()
        .collect();
    places.sort_by_key(|((sq, h), _)| {
        let level = floors::level_at(board, (*sq, *h));
        (nearest(*sq), std::cmp::Reverse(level), *sq)
    });
    for ((sq, _), path) in places {
        let mv = format!("move {}", floors::path_text(&path));
        if !accepted(&format!("activate {unit}\n{mv}\nnothing")) {
            continue;
        }
        let mut targets = enemies.to_vec();
        targets.sort_by_key(|(id, at)| (distance(sq, *at), *id));
        for (t, _) in targets.iter().take(2) {
            for w in &card.weapons {
                let pair = format!("{mv}\nattack {} at {t}", w.id);
                if accepted(&format!("activate {unit}\n{pair}")) {
                    return Some(pair);
                }
            }
        }
    }
    None
}
