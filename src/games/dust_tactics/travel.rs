//! 004 "Fighting in the Metro" and "Fighting in the Sewers": travel between an aboveground board
//! and an underground one (R630–R632), or more boards ("in a scenario with 2 or more boards",
//! R636). The boards are one grid: the aboveground board's rows on top, then each underground
//! board, a row of impassable squares between each two; `links` pair a square of one board with
//! one of another (an entrance above with the space the scenario gives it below), numbered 1,
//! 2, … The `travel` action that uses them is planned and run in `flow::travel`.

use super::model::{Board, Square, Terrain};
use super::scenario::ScenarioError;
use super::underground::Underground;
use serde::{Deserialize, Serialize};

/// The most links a scenario may have: each is shown by its one-digit number on the text board.
const MAX_LINKS: usize = 9;

/// The most boards of `boards = [...]`: the seeds print no scenario of more than two, so the
/// bound is ours (provisional, R636), wide enough for a street over two levels of sewers and a
/// metro line.
const MAX_BOARDS: usize = 5;

/// The two boards of an underground scenario and the links between them (`[travel]`, R630).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Travel {
    /// Rows 1 to this are the aboveground board; the next row is the wall between the boards.
    pub aboveground_rows: u8,
    /// More than two boards (`boards = [...]`, R636): the rows of each underground board but the
    /// last, top to bottom, each followed by its wall row; the last takes the rows left. Empty
    /// (and left out of the state, so games made before replay byte for byte): one underground
    /// board.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub underground_rows: Vec<u8>,
    /// Each link: (entrance on the aboveground board, its space on the underground board).
    /// Link `i` is numbered `i + 1`.
    pub links: Vec<(Square, Square)>,
}

/// `[travel]` as a scenario file writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTravel {
    #[serde(default)]
    aboveground_rows: Option<u8>,
    /// The rows of each board, top to bottom, the aboveground board first (R636).
    #[serde(default)]
    boards: Vec<u8>,
    #[serde(default)]
    links: Vec<[String; 2]>,
}

/// Reads a scenario's `[travel]`: only in a metro or sewers fight, a whole impassable row
/// between the boards, each link's entrance above it and its space below, no square twice (R630).
pub fn read(
    name: &str,
    board: &Board,
    kind: Option<Underground>,
    raw: Option<&RawTravel>,
) -> Result<Option<Travel>, ScenarioError> {
    let Some(raw) = raw else {
        return Ok(None);
    };
    let err =
        |field: &str, msg: String| ScenarioError(format!("scenario {name}: `{field}`: {msg}"));
    if !matches!(kind, Some(Underground::Metro | Underground::Sewers)) {
        return Err(err(
            "travel",
            "travel between boards is 004 \"Fighting in the Metro\" and \"Fighting in the Sewers\" (R630): add underground = \"metro\" or \"sewers\", or remove [travel]".into(),
        ));
    }
    let (n, underground_rows) = match (raw.aboveground_rows, raw.boards.as_slice()) {
        (Some(n), []) => {
            if n == 0 || n as u32 + 2 > board.height() as u32 {
                return Err(err(
                    "travel.aboveground_rows",
                    format!(
                        "{n} rows cannot be the aboveground board of a board {} rows high: leave one impassable row after them and at least one row of the underground board below (R630)",
                        board.height()
                    ),
                ));
            }
            (n, vec![])
        }
        (None, [first, middle @ .., _]) => {
            boards_fit(board, &raw.boards).map_err(|why| err("travel.boards", why))?;
            (*first, middle.to_vec())
        }
        _ => {
            return Err(err(
                "travel",
                "give the boards once: `aboveground_rows = 4` for two boards, or `boards = [2, 2, 3]`, the rows of each board top to bottom, the aboveground board first (R630, R636)".into(),
            ))
        }
    };
    let t = Travel {
        aboveground_rows: n,
        underground_rows,
        links: vec![],
    };
    let field = match raw.aboveground_rows {
        Some(_) => "travel.aboveground_rows",
        None => "travel.boards",
    };
    for (i, wall_row) in t.wall_rows().into_iter().enumerate() {
        if let Some(open) = (0..board.width() as i32)
            .filter_map(|c| board.square(c, wall_row as i32))
            .find(|&sq| board.terrain(sq) != Terrain::Impassable)
        {
            let between = if t.underground_rows.is_empty() {
                "the two boards".to_string()
            } else {
                format!("boards {} and {}", i + 1, i + 2)
            };
            return Err(err(
                field,
                format!(
                    "row {} is the wall between {between} and must be impassable (`#`) throughout, but {open} is not (R630)",
                    wall_row + 1
                ),
            ));
        }
    }
    if raw.links.len() > MAX_LINKS {
        return Err(err(
            "travel.links",
            format!("at most {MAX_LINKS} links, numbered 1 to 9 on the board (R630)"),
        ));
    }
    let mut links: Vec<(Square, Square)> = vec![];
    for (i, [a, b]) in raw.links.iter().enumerate() {
        let field = format!("travel.links[{i}]");
        let square = |text: &str, above: bool| {
            let sq = board.parse_square(text).ok_or_else(|| {
                err(&field, format!("`{text}` is not a square on this board: write a column letter and a row number like C4"))
            })?;
            if board.terrain(sq) == Terrain::Impassable {
                return Err(err(
                    &field,
                    format!("{sq} is impassable: a unit stands on both squares of a link"),
                ));
            }
            if t.underground_rows.is_empty() && t.above(sq) != above {
                let (which, board_name) = if above {
                    ("entrance", "aboveground board (rows 1 to")
                } else {
                    ("underground space", "underground board (rows after")
                };
                return Err(err(
                    &field,
                    format!("{sq} is not on the {board_name} {}): write the {which} there, as [\"<entrance>\", \"<underground space>\"]", n + 1 - u8::from(above)),
                ));
            }
            if links.iter().any(|(x, y)| *x == sq || *y == sq) {
                return Err(err(
                    &field,
                    format!("{sq} is already in another link: a square is in one link"),
                ));
            }
            Ok(sq)
        };
        let entrance = square(a, true)?;
        let space = square(b, false)?;
        let (ba, bb) = (t.board_of(entrance), t.board_of(space));
        if ba >= bb {
            return Err(err(
                &field,
                format!(
                    "{entrance} is on board {} and {space} on board {}: a link joins two boards, the square of the upper board first (boards are numbered from the top, 1 the aboveground one; R636)",
                    ba + 1,
                    bb + 1
                ),
            ));
        }
        links.push((entrance, space));
    }
    Ok(Some(Travel { links, ..t }))
}

/// Whether the rows of `boards` (top to bottom, each but the last followed by a wall row) fill
/// the board exactly, at least two boards, each of at least one row (R636).
fn boards_fit(board: &Board, boards: &[u8]) -> Result<(), String> {
    let rows: u32 = boards.iter().map(|&r| r as u32).sum::<u32>() + boards.len() as u32 - 1;
    if boards.len() < 2 || boards.len() > MAX_BOARDS || boards.contains(&0) {
        return Err(format!(
            "write the rows of each board, 2 to {MAX_BOARDS} boards of at least one row each, top to bottom, the aboveground board first, like boards = [2, 2, 3] (R636)"
        ));
    }
    if rows != board.height() as u32 {
        return Err(format!(
            "{} boards of {} rows and a wall row between each two make {rows} rows, and the board has {}: the rows must add up (R636)",
            boards.len(),
            boards
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            board.height()
        ));
    }
    Ok(())
}

impl Travel {
    /// Whether `sq` is on the aboveground board.
    pub fn above(&self, sq: Square) -> bool {
        sq.row() < self.aboveground_rows
    }

    /// The board `sq` is on, 0 the aboveground one, 1, 2, … the underground ones from the top
    /// (R636); a wall row counts with a board beside it (no unit stands on it).
    pub fn board_of(&self, sq: Square) -> usize {
        let row = sq.row() as u32;
        let mut end = self.aboveground_rows as u32;
        if row < end {
            return 0;
        }
        for (i, &h) in self.underground_rows.iter().enumerate() {
            end += 1 + h as u32;
            if row <= end {
                return i + 1;
            }
        }
        self.underground_rows.len() + 1
    }

    /// The wall rows between the boards, 0-based, top to bottom.
    fn wall_rows(&self) -> Vec<u32> {
        let mut row = self.aboveground_rows as u32;
        let mut out = vec![row];
        for &h in &self.underground_rows {
            row += 1 + h as u32;
            out.push(row);
        }
        out
    }

    /// The name of the board `sq` is on, as reports write it: "aboveground", "underground" (two
    /// boards), "underground board 2" (more, R636).
    pub fn board_name(&self, sq: Square) -> String {
        match self.board_of(sq) {
            0 => "aboveground".into(),
            _ if self.underground_rows.is_empty() => "underground".into(),
            b => format!("underground board {}", b + 1),
        }
    }

    /// The square linked to `sq` and the link's number, if `sq` is an end of a link.
    pub fn linked(&self, sq: Square) -> Option<(Square, usize)> {
        self.links.iter().enumerate().find_map(|(i, &(a, b))| {
            (a == sq)
                .then_some((b, i + 1))
                .or_else(|| (b == sq).then_some((a, i + 1)))
        })
    }

    /// The number of the link `sq` is an end of, for the board's marks.
    pub fn number(&self, sq: Square) -> Option<usize> {
        self.linked(sq).map(|(_, n)| n)
    }

    /// The board text's lines about the two boards (at most 72 characters) and each link as
    /// `1 B2<->B6`.
    pub fn legend(&self, kind: Option<Underground>) -> (Vec<String>, Vec<String>) {
        let below = match kind {
            Some(Underground::Metro) => "metro",
            _ => "sewer",
        };
        let mut boards = vec![format!(
            "Boards: rows 1-{} aboveground, row {} wall, the rest the {below} board",
            self.aboveground_rows,
            self.aboveground_rows + 1
        )];
        if !self.underground_rows.is_empty() {
            // R636: a line a board, "Board 2: rows 4-5 sewer, row 6 wall".
            let walls = self.wall_rows();
            boards = vec![format!(
                "Board 1: rows 1-{} aboveground, row {} wall",
                self.aboveground_rows,
                walls[0] + 1
            )];
            for (i, pair) in walls.windows(2).enumerate() {
                boards.push(format!(
                    "Board {}: rows {}-{} {below}, row {} wall",
                    i + 2,
                    pair[0] + 2,
                    pair[1],
                    pair[1] + 1
                ));
            }
            let last = walls.last().copied().unwrap_or(0);
            boards.push(format!(
                "Board {}: row {} to the last, {below}",
                walls.len() + 1,
                last + 2
            ));
        }
        let links = self
            .links
            .iter()
            .enumerate()
            .map(|(i, (a, b))| format!("{} {a}<->{b}", i + 1))
            .collect();
        (boards, links)
    }
}

/// Whether `sq` is underground in this scenario: every square of an underground scenario on one
/// board, the underground board's of one with `[travel]` (R632).
pub fn underground_at(sc: &super::scenario::Scenario, sq: Square) -> Option<Underground> {
    match &sc.travel {
        Some(t) if t.above(sq) => None,
        _ => sc.underground,
    }
}

/// The distance from `a` to `b` for a unit that must travel between the boards to get there:
/// the plain distance on one board, else through the best link (its one action counted as one
/// step). The bots close in by it.
pub fn route_distance(sc: &super::scenario::Scenario, a: Square, b: Square) -> u32 {
    use super::geometry::distance;
    const FAR: u32 = u32::MAX / 4;
    let Some(t) = sc
        .travel
        .as_ref()
        .filter(|t| t.board_of(a) != t.board_of(b))
    else {
        return distance(a, b);
    };
    // Each link crossed either way: (the end stepped on, the end arrived at). The cheapest way
    // to arrive at each (Dijkstra over at most 18 ends), so a route may cross several boards
    // (R636); on two boards it is the best single link, as before.
    let ends: Vec<(Square, Square)> = t
        .links
        .iter()
        .flat_map(|&(x, y)| [(x, y), (y, x)])
        .collect();
    let mut cost: Vec<u32> = ends
        .iter()
        .map(|&(here, _)| {
            if t.board_of(here) == t.board_of(a) {
                distance(a, here) + 1
            } else {
                FAR
            }
        })
        .collect();
    let mut done = vec![false; ends.len()];
    let mut best = FAR;
    while let Some(i) = (0..ends.len())
        .filter(|&i| !done[i] && cost[i] < FAR)
        .min_by_key(|&i| (cost[i], i))
    {
        done[i] = true;
        let there = ends[i].1;
        if t.board_of(there) == t.board_of(b) {
            best = best.min(cost[i] + distance(there, b));
        }
        for j in 0..ends.len() {
            if !done[j] && t.board_of(ends[j].0) == t.board_of(there) {
                cost[j] = cost[j].min(cost[i] + distance(there, ends[j].0) + 1);
            }
        }
    }
    best
}
