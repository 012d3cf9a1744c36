//! The scenario on the text board (issue 16 item 2): `@` on an objective, `=` on the first
//! side's entry zone and `:` on the other sides' (on open squares nothing stands on), `|`
//! between two squares side by side with a wall between them and `---` under a square walled
//! below, and the legend lines that name them and list the objectives.

use super::model::{Square, Terrain};
use super::scenario::Objective;
use super::state::State;

/// The most characters of a line the referee sends (issue 16 item 1).
const LINE: usize = 72;

/// The scenario's mark of an empty square, if any: objectives first, then entry zones (only on
/// open squares, so the terrain stays readable).
pub fn cell_mark(state: &State, sq: Square) -> Option<char> {
    let sc = &state.scenario;
    if sc.objectives.iter().any(|o| objective_square(o) == sq) {
        return Some('@');
    }
    // 004 "Fighting in the Metro"/"Sewers": the number of a link between the boards (R630).
    if let Some(n) = sc.travel.as_ref().and_then(|t| t.number(sq)) {
        return char::from_digit(n as u32, 10);
    }
    if state.scenario.board.terrain(sq) != Terrain::Open {
        return None;
    }
    // 002 "Trenches" (R717); barbed wire, minefields and strongpoints (R727).
    if let Some(f) = sc.fortifications.as_ref() {
        if f.trenches.contains(&sq) {
            return Some('%');
        }
        if f.barbed_wire.contains(&sq) {
            return Some('&');
        }
        if f.minefields.contains(&sq) {
            return Some('!');
        }
        if f.strongpoints.iter().flatten().any(|s| *s == sq) {
            return Some('^');
        }
        // 002 "Bunkers and Strongpoints" (R784).
        if f.bunkers.iter().any(|b| b.squares.contains(&sq)) {
            return Some('[');
        }
    }
    // 004 "Structures": the floor of a structure (R500).
    if super::structures::structure_at(&sc.board, sq).is_some() {
        return Some('_');
    }
    let side = sc.sides.iter().position(|s| s.entry.contains(&sq))?;
    Some(if side == 0 { '=' } else { ':' })
}

/// True when a wall runs between `sq` and the square on its left.
pub fn wall_left(state: &State, sq: Square) -> bool {
    let b = &state.scenario.board;
    b.square(sq.col() as i32 - 1, sq.row() as i32)
        .is_some_and(|left| b.wall_between(left, sq))
}

/// The line drawn under row `row` (0-based) when walls run under some of its squares: `---`
/// under each walled square, in the board's columns.
pub fn wall_line(state: &State, row: u8) -> Option<String> {
    let b = &state.scenario.board;
    let mut line = String::from("    ");
    let mut any = false;
    for c in 0..b.width() {
        let walled = match (
            b.square(c as i32, row as i32),
            b.square(c as i32, row as i32 + 1),
        ) {
            (Some(a), Some(below)) => b.wall_between(a, below),
            _ => false,
        };
        any |= walled;
        line.push_str(if walled { "---" } else { "   " });
    }
    any.then(|| line.trim_end().to_string())
}

/// The legend lines of what the board shows of the scenario, at most 72 characters each.
pub fn legend(state: &State) -> Vec<String> {
    let sc = &state.scenario;
    let mut parts: Vec<String> = Vec::new();
    if !sc.objectives.is_empty() {
        parts.push("@ objective".into());
    }
    if sc.board.walls().next().is_some() {
        parts.push("| --- wall".into());
    }
    if sc.travel.as_ref().is_some_and(|t| !t.links.is_empty()) {
        parts.push("1-9 travel link".into());
    }
    let f = sc.fortifications.clone().unwrap_or_default();
    if !sc.board.mines.is_empty() || !f.minefields.is_empty() {
        parts.push("! minefield".into());
    }
    if !sc.board.structures.is_empty() {
        parts.push("_ inside a structure".into());
    }
    if !f.trenches.is_empty() {
        parts.push("% trench".into());
    }
    // 002's barbed wire and strongpoints (R727).
    if !f.barbed_wire.is_empty() {
        parts.push("& barbed wire".into());
    }
    if !f.strongpoints.is_empty() {
        parts.push("^ strongpoint".into());
    }
    for b in &f.bunkers {
        let [a, c] = b.squares;
        parts.push(format!("[ bunker {a}+{c} facing {}", b.facing));
    }
    for (i, side) in sc.sides.iter().enumerate() {
        if !side.entry.is_empty() {
            let mark = if i == 0 { '=' } else { ':' };
            parts.push(format!("{mark} {} entry zone", side.id));
        }
    }
    let mut out = wrap("Scenario:", &parts, "  ");
    let objectives: Vec<String> = sc
        .objectives
        .iter()
        .map(|o| match o {
            Objective::Hold { side, at } => format!("{at} ({side} win by holding it)"),
            Objective::Points { at, points } => format!(
                "{at} ({points} point{} to its holder)",
                if *points == 1 { "" } else { "s" }
            ),
            Objective::Grab { at, side } => format!(
                "{at} ({} by holding it)",
                side.as_deref()
                    .map_or("either side wins".into(), |s| format!("{s} win"))
            ),
            Objective::Vp { at, half, .. } => format!("{at} (victory points, {half}'s half)"),
        })
        .collect();
    // 004 "Structures": each structure, its squares and its entrances (R500).
    for st in &sc.board.structures {
        // Its floors when more than one, so `E5@2` can be read (R517).
        let floors = if st.floors > 1 {
            format!(" ({} floors and a roof)", st.floors)
        } else {
            String::new()
        };
        let text = format!(
            "{} {} {}{floors}: {}",
            st.kind.name(),
            st.id,
            st.extent(),
            super::structures::entrances_text(st)
        );
        let parts: Vec<String> = text.split(' ').map(str::to_string).collect();
        out.extend(wrap("Structure:", &parts, " "));
    }
    if !objectives.is_empty() {
        out.extend(wrap("Objectives:", &commas(objectives), " "));
    }
    // 004 "Minefields" and "Recovery Vehicle": tokens per square, markers of wrecks.
    let mines: Vec<String> = sc
        .board
        .mines
        .iter()
        .map(|(sq, n)| format!("{sq} ({n} token{})", if *n == 1 { "" } else { "s" }))
        .collect();
    if !mines.is_empty() {
        out.extend(wrap("Minefields:", &commas(mines), " "));
    }
    // 004 "Fighting in the Metro": rails and train cars (R627).
    if let Some(m) = &sc.metro {
        let rails: Vec<String> = m.rails.iter().map(|s| s.to_string()).collect();
        if !rails.is_empty() {
            out.extend(wrap("Metro rails (soft cover for squads):", &rails, " "));
        }
        let cars: Vec<String> = m
            .cars
            .iter()
            .map(|c| {
                c.iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        if !cars.is_empty() {
            out.extend(wrap("Train cars (hard cover inside):", &commas(cars), " "));
        }
    }
    // 004 "Fighting in the Metro"/"Sewers": the two boards and their links (R630).
    if let Some(t) = &sc.travel {
        let (boards, links) = t.legend(sc.underground);
        out.extend(boards);
        out.extend(wrap("Travel (`travel`, 1 action):", &commas(links), " "));
    }
    let wrecks: Vec<String> = state
        .wrecks
        .iter()
        .map(|w| format!("{} on {} ({} may salvage it)", w.unit, w.at, w.side))
        .collect();
    if !wrecks.is_empty() {
        out.extend(wrap("Recovery markers:", &commas(wrecks), " "));
    }
    out
}

/// Items of a list with a comma after each but the last.
fn commas(mut items: Vec<String>) -> Vec<String> {
    let last = items.len().saturating_sub(1);
    for item in items.iter_mut().take(last) {
        item.push(',');
    }
    items
}

fn objective_square(o: &Objective) -> Square {
    match o {
        Objective::Hold { at, .. }
        | Objective::Points { at, .. }
        | Objective::Grab { at, .. }
        | Objective::Vp { at, .. } => *at,
    }
}

/// `head` then the parts separated by `sep`, continued on lines indented under the first part.
fn wrap(head: &str, parts: &[String], sep: &str) -> Vec<String> {
    if parts.is_empty() {
        return Vec::new();
    }
    let indent = " ".repeat(head.chars().count() + 1);
    let mut out = Vec::new();
    let mut line = format!("{head} ");
    let mut fresh = true;
    for p in parts {
        if !fresh && line.chars().count() + sep.len() + p.chars().count() > LINE {
            out.push(line.trim_end().to_string());
            line = indent.clone();
            fresh = true;
        }
        if !fresh {
            line.push_str(sep);
        }
        line.push_str(p);
        fresh = false;
    }
    out.push(line.trim_end().to_string());
    out
}
