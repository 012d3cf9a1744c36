//! 004 "SETUP": "Each player rolls 3 dice. The player who rolls the most ⊕ places the first
//! terrain square, and then he and his opponent take turns placing them until they are all on
//! the board." and the same for the cover elements (R700, R701). The rolls are dice of the game's
//! steps like any other: the first `place` mail (or the deadline) rolls for the terrain squares,
//! the mail that places the last one rolls for the cover; the mail that places the last piece
//! rolls round 1's initiative. Data and squares: `dust_tactics::placing`.

use super::*;
use crate::dust_tactics::placing::{self, Piece, Placement, Placing};

const RULE: RuleId = RuleId::SetupRolls;

/// At `new_state`: a scenario with `place_by_rolls` starts with its cover elements off the board
/// and the pieces to place listed; nothing is rolled yet (no dice exist before the first step).
/// Refused when the pieces cannot all find a square, and under battlefront-2013 (003 sets up its
/// own way).
pub(super) fn begin(state: &mut State) -> Result<(), SetupError> {
    let Some(p) = state.scenario.place_by_rolls else {
        return Ok(());
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

fn unit_squares(state: &State) -> Vec<Square> {
    state.units.iter().filter_map(|u| u.at).collect()
}

/// Rolls 3 dice a side for the pieces left; the most hits places first (ties re-rolled, as the
/// initiative's, R700).
fn roll(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    let Some(p) = &state.placing else { return };
    let what = if p.terrain > 0 {
        "terrain squares"
    } else {
        "cover elements"
    };
    let (round, rules, sides) = (state.round, state.rules(), sides_list(state));
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
    if state.placing.is_none() {
        return refuse(
            "the battlefield is set up: nothing is placed now",
            RULE,
            "see the awaited decisions in the last report",
        );
    }
    if unrolled(state) {
        roll(state, dice, out);
    }
    let Some(p) = state.placing.clone() else {
        return refuse("nothing is placed now", RULE, "see the last report");
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
            RULE,
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
        return refuse(why, RULE, example(state, &p));
    }
    let units = unit_squares(state);
    if let Some(why) = placing::refusal(&state.scenario, &units, order.piece, order.at) {
        return refuse(
            format!("a {} cannot go on {}: {why}", order.piece.name(), order.at),
            RULE,
            example(state, &p),
        );
    }
    let ex = example(state, &p);
    let board = &mut state.scenario.board;
    let mut left = p.clone();
    match order.piece.cover() {
        None => {
            board.set_terrain(order.at, model::Terrain::Impassable);
            left.terrain -= 1;
        }
        Some(kind) => {
            if let Err(e) = board.place_cover(order.at, kind) {
                return refuse(e.0, RULE, ex);
            }
            if let Some(i) = left.cover.iter().position(|k| *k == kind) {
                left.cover.remove(i);
            }
        }
    }
    let stage_over = p.terrain > 0 && left.terrain == 0;
    say(
        out,
        format!(
            "{side} places a {} on {} ({})",
            order.piece.name(),
            order.at,
            left.left_text()
        ),
    );
    left.next = next_after(state, side);
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

/// The first legal placement of the pieces placeable now, as an order.
fn first_legal(state: &State, p: &Placing) -> Option<Placement> {
    let units = unit_squares(state);
    p.pieces_now().into_iter().find_map(|piece| {
        placing::legal_squares(&state.scenario, &units, piece)
            .first()
            .map(|at| Placement { piece, at: *at })
    })
}

fn example(state: &State, p: &Placing) -> String {
    first_legal(state, p)
        .map(|o| o.to_string())
        .unwrap_or_else(|| "place terrain at C4".into())
}

/// The awaited placements while the battlefield is set up: before the roll every side (its
/// `place` rolls, R700), after it the placer; `None` once set up.
pub(super) fn awaiting(state: &State) -> Option<Vec<crate::game::Awaiting>> {
    let p = state.placing.as_ref()?;
    let units = unit_squares(state);
    let mut options = vec![];
    for piece in p.pieces_now() {
        for at in placing::legal_squares(&state.scenario, &units, piece)
            .into_iter()
            .take(3)
        {
            options.push(Placement { piece, at }.to_string());
        }
    }
    let sides = match &p.next {
        Some(s) => vec![s.clone()],
        None => sides_list(state),
    };
    Some(
        sides
            .into_iter()
            .map(|side| crate::game::Awaiting {
                side,
                decision: "place".into(),
                options: options.clone(),
            })
            .collect(),
    )
}

/// The deadline default of a placement (R701): the first legal square in board order, of the
/// first kind of piece placeable now.
pub(super) fn default_command(state: &State) -> Option<Command> {
    let p = state.placing.as_ref()?;
    first_legal(state, p).map(Command::Place)
}
