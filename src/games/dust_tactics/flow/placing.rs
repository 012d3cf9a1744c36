//! 004 "SETUP": "Each player rolls 3 dice. The player who rolls the most ⊕ places the first
//! terrain square, and then he and his opponent take turns placing them until they are all on
//! the board." and the same for the cover elements (R700, R701). The rolls are dice of the game's
//! steps like any other: the first `place` mail (or the deadline) rolls for the terrain squares,
//! the mail that places the last one rolls for the cover; the mail that places the last piece
//! rolls round 1's initiative. Data and squares: `dust_tactics::placing`.

use super::*;
use crate::dust_tactics::battlefront::forts_placed::{self, Fort};
use crate::dust_tactics::battlefront::objectives_placed;
use crate::dust_tactics::placing::{self, Piece, Placement, Placing};

const RULE: RuleId = RuleId::SetupRolls;

/// At `new_state`: a scenario with `place_by_rolls` starts with its cover elements off the board
/// and the pieces to place listed; nothing is rolled yet (no dice exist before the first step).
/// Refused when the pieces cannot all find a square, and under battlefront-2013 (003 sets up its
/// own way).
pub(super) fn begin(state: &mut State) -> Result<(), SetupError> {
    let Some(p) = state.scenario.place_by_rolls else {
        return begin_objectives(state);
    };
    if state.rules().battlefront() {
        return Err(SetupError(
            "placing by the rolls is 004's and 000's setup (004 SETUP): battlefront-2013 sets up by 003's own rules; leave out --place-by-rolls".into(),
        ));
    }
    let board = &mut state.scenario.board;
    let cover: Vec<model::CoverKind> = board.cover.values().map(|c| c.kind).collect();
    board.cover.clear();
    let placing = Placing {
        terrain: p.terrain_squares,
        cover,
        next: None,
        objectives: vec![],
        forts: vec![],
    };
    let room = placing::legal_squares(&state.scenario, &unit_squares(state), Piece::TerrainSquare);
    let pieces = placing.terrain as usize + placing.cover.len();
    if room.len() < pieces {
        return Err(SetupError(format!(
            "scenario {}: {pieces} pieces to place by the rolls and only {} open squares outside the entry zones, structures and objectives to take them: place fewer terrain squares",
            state.scenario.name,
            room.len()
        )));
    }
    if !placing.done() {
        state.placing = Some(placing);
    }
    Ok(())
}

/// 002 "Deploying Fortifications": the sides place the fortifications they field (R589), then
/// 003 §12: the players place one objective each (R609); battlefront-2013 only.
fn begin_objectives(state: &mut State) -> Result<(), SetupError> {
    let forts = forts_placed::to_place(&state.scenario);
    if !state.scenario.place_objectives && forts.is_empty() {
        return Ok(());
    }
    if !state.rules().battlefront() {
        return Err(SetupError(if forts.is_empty() {
            "`place_objectives` is 003 §12's (battlefront-2013): play the scenario under that ruleset or leave the line out".into()
        } else {
            forts_placed::not_battlefront(&state.ruleset)
        }));
    }
    let objectives = match state.scenario.place_objectives {
        true => objectives_placed::placers(state).map_err(SetupError)?,
        false => vec![],
    };
    forts_placed::check_begin(state, &forts).map_err(SetupError)?;
    state.placing = Some(Placing {
        terrain: 0,
        cover: vec![],
        // The sides place their fortifications in the scenario's order, with no roll (R589).
        next: forts.first().map(|f| f.side.clone()),
        objectives,
        forts,
    });
    Ok(())
}

fn unit_squares(state: &State) -> Vec<Square> {
    state.units.iter().filter_map(|u| u.at).collect()
}

/// Rolls 3 dice a side for the pieces left; the most hits places first (ties re-rolled, as the
/// initiative's, R700).
fn roll(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    let Some(p) = &state.placing else { return };
    let what = if p.terrain > 0 {
        "terrain squares"
    } else if !p.cover.is_empty() {
        "cover elements"
    } else {
        "objectives"
    };
    let sides = if what == "objectives" {
        p.objectives.clone()
    } else {
        sides_list(state)
    };
    let (round, rules) = (state.round, state.rules());
    let (mut rolls, mut text) = (vec![], vec![]);
    let mut winner = sides.first().cloned().unwrap_or_default();
    // The bound only guards against a broken dice source.
    for _ in 0..1000 {
        let mut line = vec![];
        let mut best: Vec<(String, usize)> = vec![];
        for s in &sides {
            let faces: Vec<u8> = (0..3).map(|_| dice.d6(round)).collect();
            let hits = faces.iter().filter(|f| rules.is_hit(**f)).count();
            line.push(format!("{s} {hits} hit(s) on 3 dice"));
            rolls.push(Roll {
                purpose: format!("setup {what} {s}"),
                round,
                faces,
            });
            best.push((s.clone(), hits));
        }
        text.push(line.join(", "));
        let top = best.iter().map(|b| b.1).max().unwrap_or(0);
        let at_top: Vec<&(String, usize)> = best.iter().filter(|b| b.1 == top).collect();
        if at_top.len() == 1 {
            winner = at_top[0].0.clone();
            break;
        }
    }
    out.happenings.push(Happening {
        text: format!(
            "setting up, {what}: {}; {winner} places first",
            text.join("; tie, re-roll: ")
        ),
        rolls,
        ..Happening::default()
    });
    if let Some(p) = &mut state.placing {
        p.next = Some(winner);
    }
}

/// Whether the pieces left still wait for their roll.
pub(super) fn unrolled(state: &State) -> bool {
    state.placing.as_ref().is_some_and(|p| p.next.is_none())
}

/// `place <piece> at <square>`. `rolled_now`: this order made the roll, so a sender who lost it
/// is told so and the order is moot, not wrong (as `first` before the initiative, R50).
pub(super) fn cmd_place(
    state: &mut State,
    side: &str,
    order: &Placement,
    rolled_now: bool,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> Result<String, Refusal> {
    // 003 §12's objectives cite 003, the rest 004 "SETUP".
    let rule = match &state.placing {
        Some(p) if !p.forts.is_empty() => RuleId::FortificationsPlaced,
        Some(p) if !p.objectives.is_empty() => RuleId::ObjectivesPlaced,
        _ => RULE,
    };
    if state.placing.is_none() {
        return refuse(
            "the battlefield is set up: nothing is placed now",
            rule,
            "see the awaited decisions in the last report",
        );
    }
    if unrolled(state) {
        roll(state, dice, out);
    }
    let Some(p) = state.placing.clone() else {
        return refuse("nothing is placed now", rule, "see the last report");
    };
    let next = p.next.clone().unwrap_or_default();
    if next != side {
        if rolled_now {
            return Ok(format!(
                "{order}: not placed, {next} won the roll and places first; place on your turn"
            ));
        }
        return refuse(
            format!("it is {next}'s turn to place a piece ({})", p.left_text()),
            rule,
            "wait for their piece; the next report asks you",
        );
    }
    let now = p.pieces_now();
    if !now.contains(&order.piece) {
        let why = if p.terrain > 0 {
            format!("the terrain squares are placed first ({})", p.left_text())
        } else {
            format!(
                "no {} is left to place ({})",
                order.piece.name(),
                p.left_text()
            )
        };
        return refuse(why, rule, example(state, &p));
    }
    let units = unit_squares(state);
    let fort = Fort::of_piece(order.piece);
    let why = if let Some(fort) = fort {
        forts_placed::refusal(state, side, fort, order)
    } else if order.piece == Piece::Objective {
        objectives_placed::refusal(state, side, order.at)
    } else {
        placing::refusal(&state.scenario, &units, order.piece, order.at)
    };
    if let Some(why) = why {
        return refuse(
            match order.piece {
                Piece::Objective => format!("your objective cannot go on {}: {why}", order.at),
                _ if fort.is_some() => format!("your {}: {why}", order.piece.name()),
                piece => format!("a {} cannot go on {}: {why}", piece.name(), order.at),
            },
            rule,
            example(state, &p),
        );
    }
    let ex = example(state, &p);
    let mut left = p.clone();
    let board = &mut state.scenario.board;
    match order.piece.cover() {
        None if fort.is_some() => {
            forts_placed::place(&mut state.scenario, order);
            if let Some(i) = left
                .forts
                .iter()
                .position(|f| f.side == side && Some(f.fort) == fort)
            {
                left.forts.remove(i);
            }
        }
        None if order.piece == Piece::Objective => {
            objectives_placed::place(&mut state.scenario, side, order.at);
            left.objectives.retain(|s| s != side);
        }
        None => {
            board.set_terrain(order.at, model::Terrain::Impassable);
            left.terrain -= 1;
        }
        Some(kind) => {
            if let Err(e) = board.place_cover(order.at, kind) {
                return refuse(e.0, rule, ex);
            }
            if let Some(i) = left.cover.iter().position(|k| *k == kind) {
                left.cover.remove(i);
            }
        }
    }
    // A fortification its side's own placements left without room is not placed (R591).
    if fort.is_some() {
        let (kept, lost): (Vec<_>, Vec<_>) = left
            .forts
            .drain(..)
            .partition(|f| !forts_placed::legal(state, &f.side, f.fort).is_empty());
        left.forts = kept;
        for f in lost {
            say(
                out,
                format!(
                    "{}'s {} finds no room left in its Deployment Area and is not placed (R591)",
                    f.side,
                    f.fort.word()
                ),
            );
        }
    }
    let stage_over = (p.terrain > 0 && left.terrain == 0)
        || (!p.forts.is_empty() && left.forts.is_empty() && !left.objectives.is_empty());
    let on = match (order.to, order.facing) {
        (Some(to), Some(f)) => format!("{}+{to} facing {f}", order.at),
        (Some(to), None) => format!("{}+{to}", order.at),
        _ => order.at.to_string(),
    };
    say(
        out,
        format!(
            "{side} places {} {} on {on} ({})",
            if order.piece == Piece::Objective {
                "its"
            } else {
                "a"
            },
            order.piece.name(),
            left.left_text()
        ),
    );
    left.next = if let Some(f) = left.forts.first() {
        Some(f.side.clone())
    } else if left.objectives.is_empty() {
        next_after(state, side)
    } else {
        next_placer(state, side, &left.objectives)
    };
    if left.done() {
        state.placing = None;
        say(out, "the battlefield is set up");
        advance(state, dice, out);
    } else {
        if stage_over {
            left.next = None;
        }
        state.placing = Some(left);
        if stage_over {
            roll(state, dice, out);
        }
    }
    Ok(order.to_string())
}

/// "he and his opponent take turns": the next side in the scenario's order.
fn next_after(state: &State, side: &str) -> Option<String> {
    let sides = sides_list(state);
    let i = sides.iter().position(|s| s == side).unwrap_or(0);
    sides.get((i + 1) % sides.len().max(1)).cloned()
}

/// The next side in scenario order after `side` that still places an objective.
fn next_placer(state: &State, side: &str, left: &[String]) -> Option<String> {
    let sides = sides_list(state);
    let i = sides.iter().position(|s| s == side).unwrap_or(0);
    (1..=sides.len())
        .map(|k| &sides[(i + k) % sides.len()])
        .find(|s| left.contains(s))
        .cloned()
}

/// The placements of `piece` `side` may make now.
fn placements_for(state: &State, side: &str, piece: Piece) -> Vec<Placement> {
    let squares = match (Fort::of_piece(piece), piece) {
        (Some(fort), _) => return forts_placed::legal(state, side, fort),
        (None, Piece::Objective) => objectives_placed::legal_squares(state, side),
        _ => placing::legal_squares(&state.scenario, &unit_squares(state), piece),
    };
    squares
        .into_iter()
        .map(|at| Placement::on(piece, at))
        .collect()
}

/// The first legal placement of the pieces placeable now, as an order.
fn first_legal(state: &State, p: &Placing, side: &str) -> Option<Placement> {
    p.pieces_now()
        .into_iter()
        .find_map(|piece| placements_for(state, side, piece).into_iter().next())
}

fn example(state: &State, p: &Placing) -> String {
    let side = p
        .next
        .clone()
        .or_else(|| p.objectives.first().cloned())
        .unwrap_or_default();
    first_legal(state, p, &side)
        .map(|o| o.to_string())
        .unwrap_or_else(|| "place terrain at C4".into())
}

/// The awaited placements while the battlefield is set up: before the roll every side (its
/// `place` rolls, R700), after it the placer; `None` once set up.
pub(super) fn awaiting(state: &State) -> Option<Vec<crate::game::Awaiting>> {
    let p = state.placing.as_ref()?;
    let options = |side: &str| {
        let mut options = vec![];
        for piece in p.pieces_now() {
            for o in placements_for(state, side, piece).into_iter().take(3) {
                options.push(o.to_string());
            }
        }
        options
    };
    let sides = match &p.next {
        Some(s) => vec![s.clone()],
        None if !p.objectives.is_empty() => p.objectives.clone(),
        None => sides_list(state),
    };
    Some(
        sides
            .into_iter()
            .map(|side| crate::game::Awaiting {
                options: options(&side),
                side,
                decision: "place".into(),
            })
            .collect(),
    )
}

/// The deadline default of a placement (R701): the first legal square in board order, of the
/// first kind of piece placeable now; `side`'s objective stays where the scenario draws it
/// (R610).
pub(super) fn default_command(state: &State, side: &str) -> Option<Command> {
    let p = state.placing.as_ref()?;
    first_legal(state, p, side).map(Command::Place)
}
