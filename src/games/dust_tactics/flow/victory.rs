//! 004 "Victory" and "End of the game": points, objectives, the result.

use super::*;

/// Victory points so far: AP of destroyed enemy units (each destruction counts), plus objective
/// points for a side holding an objective.
pub fn points(state: &State, with_objectives: bool) -> BTreeMap<String, u32> {
    let mut p: BTreeMap<String, u32> = sides_list(state).into_iter().map(|s| (s, 0)).collect();
    for (i, d) in state.destroyed.iter().enumerate() {
        // 004 "Recovery Vehicle": a salvaged vehicle counts half (R485).
        let ap = super::mines::worth(state, i, d);
        for (s, v) in p.iter_mut() {
            if *s != d.side {
                *v += ap;
            }
        }
    }
    if with_objectives {
        for o in &state.scenario.objectives {
            if let Objective::Points { at, points } = o {
                if let Some(s) = holder(state, *at) {
                    *p.entry(s).or_insert(0) += points;
                }
            }
        }
    }
    p
}

/// The side with a unit on `at` when no other side has one.
pub(super) fn holder(state: &State, at: Square) -> Option<String> {
    let mut sides: Vec<String> = state
        .units
        .iter()
        .filter(|u| !u.destroyed && u.at == Some(at))
        .map(|u| u.side.clone())
        .collect();
    sides.dedup();
    if sides.len() == 1 {
        sides.pop()
    } else {
        None
    }
}

/// Whether some unit of `side` left in the game could ever stand on `at` (R104): the square is
/// not closed to it by terrain or a cover element (units are ignored: they move).
pub(super) fn can_hold(state: &State, side: &str, at: Square) -> bool {
    state
        .units
        .iter()
        .filter(|u| u.side == side && !u.destroyed)
        .any(|u| {
            let mover = Mover {
                unit: model::UnitId(u.id.clone()),
                side: u.side.clone(),
                unit_type: unit_type(state, &u.id),
                jump: has_skill(state, &u.id, Skill::Jump),
                agile: has_skill(state, &u.id, Skill::Agile),
                tracked: has_skill(state, &u.id, Skill::TrackedVehicle),
                amphibious: has_skill(state, &u.id, Skill::Amphibious),
                dozer: has_skill(state, &u.id, Skill::DozerBlade) && !state.rules().battlefront(), // R785
                // A large vehicle holds a square under any of its 4: the square alone counts.
                large: false,
            };
            geometry::may_stand(&state.scenario.board, &Occupancy::new(), &mover, at).is_none()
        })
}

pub(super) fn game_over(state: &State) -> Option<GameResult> {
    let sides = sides_list(state);
    // issue 18: 003 §12 Grab the Dust, "take any objective" wins at the end of that turn.
    if let Some((side, at)) = crate::games::dust_tactics::battlefront::objectives::grabbed(state) {
        return Some(GameResult {
            winner: Some(side.clone()),
            reason: format!(
                "{side} holds the objective {at} at the end of round {}, no enemy unit within two squares (003 §12)",
                state.round
            ),
            points: points(state, true),
        });
    }
    // Objective met (004 "End of the game").
    for o in &state.scenario.objectives {
        if let Objective::Hold { side, at } = o {
            if holder(state, *at).as_deref() == Some(side.as_str()) {
                return Some(GameResult {
                    winner: Some(side.clone()),
                    reason: format!(
                        "{side} holds the objective {at} at the end of round {}",
                        state.round
                    ),
                    points: points(state, true),
                });
            }
        }
    }
    let wiped: Vec<&String> = sides
        .iter()
        .filter(|s| !state.units.iter().any(|u| &u.side == *s && !u.destroyed))
        .collect();
    // issue 18 hook: 003 §12 Supply Drop, All-Out Attack (battlefront/vp.rs).
    if let Some(res) =
        crate::games::dust_tactics::battlefront::vp::game_over(state, !wiped.is_empty())
    {
        return Some(res);
    }
    let holds: Vec<(&String, Square)> = state
        .scenario
        .objectives
        .iter()
        .filter_map(|o| match o {
            Objective::Hold { side, at } => Some((side, *at)),
            _ => None,
        })
        .collect();
    let objectives_gone =
        !holds.is_empty() && holds.iter().all(|(side, at)| !can_hold(state, side, *at));
    let reason = if !wiped.is_empty() {
        format!(
            "all units of {} are destroyed",
            wiped
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" and ")
        )
    } else if objectives_gone {
        "no side can fulfil its objective any more (004 'End of the game')".to_string()
    } else if state.round >= state.scenario.rounds {
        format!("the round limit ({}) is reached", state.scenario.rounds)
    } else {
        return None;
    };
    let pts = points(state, true);
    let top = pts.values().copied().max().unwrap_or(0);
    let leaders: Vec<&String> = pts
        .iter()
        .filter(|(_, v)| **v == top)
        .map(|(k, _)| k)
        .collect();
    // R60: victory points decide, also after annihilation; equal VPs are a draw (ruling 4).
    let winner = if leaders.len() == 1 {
        Some(leaders[0].clone())
    } else {
        None
    };
    Some(GameResult {
        winner,
        reason,
        points: pts,
    })
}

/// Every unit standing where no rule lets it stand, explained (empty when all is well): a
/// destroyed unit still placed, a joined hero away from his squad, or a square closed to the unit
/// (terrain, cover element, another unit; a lone hero may share with one friendly unit).
pub fn illegal_positions(state: &State) -> Vec<String> {
    let mut bad = vec![];
    for u in &state.units {
        let Some(at) = u.at else { continue };
        if u.destroyed {
            bad.push(format!("{} is destroyed but still stands on {at}", u.id));
            continue;
        }
        if let Some(sq) = &u.joined {
            if state.unit(sq).and_then(|s| s.at) != Some(at) {
                bad.push(format!(
                    "{} is joined to {sq} but stands apart on {at}",
                    u.id
                ));
            }
            continue;
        }
        let ty = unit_type(state, &u.id);
        // The unit itself, its joined hero, and a friendly lone hero sharing its square.
        let mut except = group(state, &u.id);
        for h in &state.units {
            if h.side == u.side
                && h.joined.is_none()
                && h.id != u.id
                && h.at == Some(at)
                && unit_type(state, &h.id) == UnitType::Hero
                && ty != UnitType::Hero
            {
                except.push(h.id.clone());
            }
        }
        // 002: an Airlifter hovers over the vehicle it will pick up (R748).
        let lifter = |a: &&UnitState| super::airlifter::may_hover_over(state, &a.id, &u.id);
        except.extend(state.units.iter().filter(lifter).map(|a| a.id.clone()));
        let occ = occupancy(state, &except);
        // Issue 12: an aircraft flies over terrain; only other units bar its square (R442, R801).
        if super::aircraft::is_aircraft(state, &u.id) {
            if let Some(why) = super::aircraft::may_stop_over(state, &u.id, &u.side, &occ, at) {
                bad.push(format!("{} on {at}: {why}", u.id));
            }
            continue;
        }
        let mover = Mover {
            unit: model::UnitId(u.id.clone()),
            side: u.side.clone(),
            unit_type: ty,
            jump: has_skill(state, &u.id, Skill::Jump),
            agile: has_skill(state, &u.id, Skill::Agile),
            tracked: has_skill(state, &u.id, Skill::TrackedVehicle),
            amphibious: has_skill(state, &u.id, Skill::Amphibious),
            dozer: has_skill(state, &u.id, Skill::DozerBlade) && !state.rules().battlefront(), // R785
            large: super::large::is_large(state, &u.id),
        };
        let occ = super::aircraft::ground_occupancy(state, &u.side, &occ);
        // 003's Large vehicle stands on its rear too (R767).
        let two = super::super::battlefront::large2::squares(state, &u.id, at);
        for sq in two.unwrap_or(vec![at]) {
            if let Some(e) = geometry::may_stand(&state.scenario.board, &occ, &mover, sq) {
                bad.push(format!("{} on {sq}: {}", u.id, e.reason));
            }
        }
    }
    bad
}
