//! 004 "Fighting in the Metro" and "Fighting in the Sewers": travel between an aboveground board
//! and an underground one (R630–R632). The two boards are one grid: the aboveground board's
//! rows on top, a row of impassable squares between, the underground board below; `links` pair
//! an entrance above with the space the scenario gives it below, numbered 1, 2, … The `travel`
//! action that uses them is planned and run in `flow::travel`.

use super::model::{Board, Square, Terrain};
use super::scenario::ScenarioError;
use super::underground::Underground;
use serde::{Deserialize, Serialize};

/// The most links a scenario may have: each is shown by its one-digit number on the text board.
const MAX_LINKS: usize = 9;

/// The two boards of an underground scenario and the links between them (`[travel]`, R630).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Travel {
    /// Rows 1 to this are the aboveground board; the next row is the wall between the boards.
    pub aboveground_rows: u8,
    /// Each link: (entrance on the aboveground board, its space on the underground board).
    /// Link `i` is numbered `i + 1`.
    pub links: Vec<(Square, Square)>,
}

/// `[travel]` as a scenario file writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTravel {
    aboveground_rows: u8,
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
    let n = raw.aboveground_rows;
    if n == 0 || n as u32 + 2 > board.height() as u32 {
        return Err(err(
            "travel.aboveground_rows",
            format!(
                "{n} rows cannot be the aboveground board of a board {} rows high: leave one impassable row after them and at least one row of the underground board below (R630)",
                board.height()
            ),
        ));
    }
    let wall_row = n as i32; // 0-based: the row right after the aboveground board
    if let Some(open) = (0..board.width() as i32)
        .filter_map(|c| board.square(c, wall_row))
        .find(|&sq| board.terrain(sq) != Terrain::Impassable)
    {
        return Err(err(
            "travel.aboveground_rows",
            format!(
                "row {} is the wall between the two boards and must be impassable (`#`) throughout, but {open} is not (R630)",
                n + 1
            ),
        ));
    }
    if raw.links.len() > MAX_LINKS {
        return Err(err(
            "travel.links",
            format!("at most {MAX_LINKS} links, numbered 1 to 9 on the board (R630)"),
        ));
    }
    let t = Travel {
        aboveground_rows: n,
        links: vec![],
    };
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
            if t.above(sq) != above {
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
        links.push((entrance, space));
    }
    Ok(Some(Travel { links, ..t }))
}

impl Travel {
    /// Whether `sq` is on the aboveground board.
    pub fn above(&self, sq: Square) -> bool {
        sq.row() < self.aboveground_rows
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
    pub fn legend(&self, kind: Option<Underground>) -> (String, Vec<String>) {
        let below = match kind {
            Some(Underground::Metro) => "metro",
            _ => "sewer",
        };
        let boards = format!(
            "Boards: rows 1-{} aboveground, row {} wall, the rest the {below} board",
            self.aboveground_rows,
            self.aboveground_rows + 1
        );
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
    match &sc.travel {
        Some(t) if t.above(a) != t.above(b) => t
            .links
            .iter()
            .map(|&(x, y)| if t.above(a) { (x, y) } else { (y, x) })
            .map(|(here, there)| distance(a, here) + 1 + distance(there, b))
            .min()
            .unwrap_or(u32::MAX / 4),
        _ => distance(a, b),
    }
}
