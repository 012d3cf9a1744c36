//! 003 §12 Bait and Flank, Supply Drop, All-Out Attack: "After placing the terrain, the players
//! place one objective each in the same order as they placed terrain. These must be in the
//! player's own half of the table, but not within two squares of a table edge, nor in impassable
//! terrain." A scenario with `place_objectives = true` starts with each side to place the
//! objective its file draws in its half (R609); `flow::placing` plays the roll and the
//! `place objective at <square>` orders with the machinery of 004's setup (R700), and the
//! deadline keeps the drawn square (R610).

use crate::dust_tactics::model::{Square, Terrain};
use crate::dust_tactics::placing::objective_square;
use crate::dust_tactics::scenario::{Objective, Scenario};
use crate::dust_tactics::state::State;

/// "not within two squares of a table edge": R287's reading, three squares or more from every
/// edge (a square on the edge is within one).
const EDGE: u8 = 3;

/// The rows (0-based, inclusive) of `side`'s half: the half of the board's rows holding its entry
/// squares (R609: every scenario of 003 §12 that places objectives splits the table by rows).
pub(crate) fn half_rows(sc: &Scenario, side: &str) -> Option<(u8, u8)> {
    let h = sc.board.height();
    let entry = &sc.sides.iter().find(|s| s.id == side)?.entry;
    let mid = h / 2;
    if !entry.is_empty() && entry.iter().all(|sq| sq.row() < mid) {
        Some((0, mid - 1))
    } else if !entry.is_empty() && entry.iter().all(|sq| sq.row() >= mid) {
        Some((mid, h - 1))
    } else {
        None
    }
}

/// Row `r` (0-based) printed as on the board.
fn row_name(r: u8) -> u8 {
    r + 1
}

fn index_in_half(sc: &Scenario, side: &str) -> Option<usize> {
    let (lo, hi) = half_rows(sc, side)?;
    sc.objectives.iter().position(|o| {
        let r = objective_square(o).row();
        placed_kind(o) && (lo..=hi).contains(&r)
    })
}

/// The kinds 003's three scenarios place: a side's objective (`grab` with a side, `vp`).
pub(crate) fn placed_kind(o: &Objective) -> bool {
    matches!(
        o,
        Objective::Grab { side: Some(_), .. } | Objective::Vp { .. }
    )
}

/// At `new`: the sides that place an objective, in scenario order; refused unless each side's
/// half holds exactly one objective to place, on a square it may take.
pub fn placers(state: &State) -> Result<Vec<String>, String> {
    let sc = &state.scenario;
    let mut out = vec![];
    for s in &sc.sides {
        let Some((lo, hi)) = half_rows(sc, &s.id) else {
            return Err(format!(
                "scenario {}: `place_objectives` needs each side's entry squares in one half of the rows (003 §12: \"in the player's own half of the table\"); {} enters on both",
                sc.name, s.id
            ));
        };
        let n = sc
            .objectives
            .iter()
            .filter(|o| placed_kind(o) && (lo..=hi).contains(&objective_square(o).row()))
            .count();
        if n != 1 {
            return Err(format!(
                "scenario {}: `place_objectives` needs one `grab` (with a side) or `vp` objective in the half of {} (rows {} to {}), found {n} (003 §12: \"the players place one objective each\")",
                sc.name,
                s.id,
                row_name(lo),
                row_name(hi)
            ));
        }
        let at = index_in_half(sc, &s.id).map(|i| objective_square(&sc.objectives[i]));
        if let Some(why) = at.and_then(|at| refusal(state, &s.id, at)) {
            return Err(format!(
                "scenario {}: the objective drawn for {} must be a square it may place on: {why}",
                sc.name, s.id
            ));
        }
        out.push(s.id.clone());
    }
    Ok(out)
}

/// Why `side` may not place its objective on `sq` (003 §12; 002 "Deploying Fortifications",
/// R789, R587); `None` when it may.
pub fn refusal(state: &State, side: &str, sq: Square) -> Option<String> {
    let sc = &state.scenario;
    let Some((lo, hi)) = half_rows(sc, side) else {
        return Some(format!("{side} has no half of the table"));
    };
    let (w, h) = (sc.board.width(), sc.board.height());
    if !(lo..=hi).contains(&sq.row()) {
        return Some(format!(
            "{sq} is not in {side}'s own half of the table (rows {} to {}): 003 §12 \"These must be in the player's own half of the table\"",
            row_name(lo),
            row_name(hi)
        ));
    }
    let near_edge =
        sq.col() < EDGE || sq.row() < EDGE || sq.col() + EDGE >= w || sq.row() + EDGE >= h;
    if near_edge {
        return Some(format!(
            "{sq} is within two squares of a table edge: 003 §12 \"but not within two squares of a table edge\" (R609: three squares or more from every edge)"
        ));
    }
    let t = sc.board.terrain(sq);
    if t == Terrain::Impassable
        || crate::dust_tactics::structures::structure_at(&sc.board, sq).is_some()
    {
        return Some(format!(
            "{sq} is {}: 003 §12 \"nor in impassable terrain\"",
            t.name()
        ));
    }
    super::bunkers::objective_refusal(sc, sq, state.revised(10))
}

/// The squares `side` may place its objective on: the one its scenario draws first (the
/// deadline's, R610), then the others in board order.
pub fn legal_squares(state: &State, side: &str) -> Vec<Square> {
    let sc = &state.scenario;
    // A fortification placed on the drawn square moves it (002 "Deploying Fortifications").
    let drawn = index_in_half(sc, side)
        .map(|i| objective_square(&sc.objectives[i]))
        .filter(|sq| refusal(state, side, *sq).is_none());
    let mut v: Vec<Square> = drawn.into_iter().collect();
    v.extend(
        sc.board
            .squares()
            .filter(|sq| Some(*sq) != drawn && refusal(state, side, *sq).is_none()),
    );
    v
}

/// Moves `side`'s objective to `sq` (checked by `refusal`).
pub fn place(sc: &mut Scenario, side: &str, sq: Square) {
    let Some(i) = index_in_half(sc, side) else {
        return;
    };
    match &mut sc.objectives[i] {
        Objective::Hold { at, .. }
        | Objective::Points { at, .. }
        | Objective::Grab { at, .. }
        | Objective::Vp { at, .. } => *at = sq,
    }
}

/// The welcome mail's paragraph.
pub fn briefing() -> String {
    "Placing the objectives (003 §12): \"After placing the terrain, the players place one objective each in the same order as they placed terrain. These must be in the player's own half of the table, but not within two squares of a table edge, nor in impassable terrain.\" The first `place` order rolls 3 dice a side; the most hits places first, then the other side. Write `place objective at F5`; the squares told above are where the scenario draws them, kept if you send nothing by the deadline.".into()
}

/// The orders template's head for an awaited objective.
pub const TEMPLATE: &str =
    "# Placing the objectives (003 §12): place your side's objective in your\n\
     # own half, three squares or more from every table edge, not in\n\
     # impassable terrain. Send one line, for example (delete its `#`):\n";
