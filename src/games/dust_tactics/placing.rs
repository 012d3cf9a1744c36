//! The battlefield placed by the rulebook's rolls (004 "SETUP", 000 "Setting up the
//! battlefield"; rulings R700, R701): `dustmail new --place-by-rolls` writes
//! `place_by_rolls = { terrain_squares = N }` at the head of the scenario it records, the
//! scenario's cover elements come off its board, and the players place them and N terrain squares
//! by mail, the winner of each roll first. This module is the data and the squares a piece may
//! take; `flow::placing` plays the rolls and the `place` orders.

use super::model::{CoverKind, Square, Terrain};
use super::scenario::{Objective, Scenario};
use serde::{Deserialize, Serialize};
use std::fmt;

/// `place_by_rolls = { terrain_squares = 2 }` in a scenario (what `new --place-by-rolls` writes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceByRolls {
    /// Terrain squares the players place (000: they "hide the center dot, making these squares
    /// impassable"); the scenario's own cover elements are placed besides.
    #[serde(default)]
    pub terrain_squares: u32,
}

/// A piece the players place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Piece {
    TerrainSquare,
    AmmoCrate,
    TankTrap,
    /// battlefront-2013: a side's objective, placed in its own half (003 §12, R609).
    Objective,
    /// battlefront-2013: a side's bunker or strongpoint, placed before the objectives (002
    /// "Deploying Fortifications", R589).
    Bunker,
    Strongpoint,
}

impl Piece {
    /// The word of the `place` order.
    pub fn word(self) -> &'static str {
        match self {
            Piece::TerrainSquare => "terrain",
            Piece::AmmoCrate => "crate",
            Piece::TankTrap => "trap",
            Piece::Objective => "objective",
            Piece::Bunker => "bunker",
            Piece::Strongpoint => "strongpoint",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Piece::TerrainSquare => "terrain square",
            Piece::AmmoCrate => "ammo crate",
            Piece::TankTrap => "tank trap",
            Piece::Objective => "objective",
            Piece::Bunker => "bunker",
            Piece::Strongpoint => "strongpoint",
        }
    }

    /// `terrain`, `crate`, `trap` and their long forms.
    pub fn parse(word: &str) -> Option<Piece> {
        match word.to_ascii_lowercase().as_str() {
            "terrain" | "terrain-square" => Some(Piece::TerrainSquare),
            "crate" | "ammo-crate" => Some(Piece::AmmoCrate),
            "trap" | "tank-trap" | "anti-tank-trap" => Some(Piece::TankTrap),
            "objective" => Some(Piece::Objective),
            "bunker" => Some(Piece::Bunker),
            "strongpoint" => Some(Piece::Strongpoint),
            _ => None,
        }
    }

    pub fn cover(self) -> Option<CoverKind> {
        match self {
            Piece::TerrainSquare | Piece::Objective | Piece::Bunker | Piece::Strongpoint => None,
            Piece::AmmoCrate => Some(CoverKind::AmmoCrate),
            Piece::TankTrap => Some(CoverKind::TankTrap),
        }
    }

    fn of_cover(kind: CoverKind) -> Piece {
        match kind {
            CoverKind::AmmoCrate => Piece::AmmoCrate,
            CoverKind::TankTrap => Piece::TankTrap,
        }
    }
}

/// `place <piece> at <square>`, or a fortification's `place bunker E4 F4 facing N` /
/// `place strongpoint E4 F4` (R589).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub piece: Piece,
    pub at: Square,
    /// A fortification's second inside square.
    pub to: Option<Square>,
    /// A bunker's facing.
    pub facing: Option<super::battlefront::facing::Facing>,
}

impl Placement {
    /// A one-square piece on `at`.
    pub fn on(piece: Piece, at: Square) -> Placement {
        Placement {
            piece,
            at,
            to: None,
            facing: None,
        }
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(to) = self.to else {
            return write!(f, "place {} at {}", self.piece.word(), self.at);
        };
        write!(f, "place {} {} {to}", self.piece.word(), self.at)?;
        match self.facing {
            Some(facing) => write!(f, " facing {facing}"),
            None => Ok(()),
        }
    }
}

/// What is left to place, and who places next (`None`: the roll for the pieces left is still to
/// make). Terrain squares come first, then cover (004 "SETUP").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placing {
    pub terrain: u32,
    /// The cover elements left, in board order of the scenario; the placer chooses which.
    pub cover: Vec<CoverKind>,
    #[serde(default)]
    pub next: Option<String>,
    /// battlefront-2013: the sides still to place their objective, in scenario order (R609).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<String>,
    /// battlefront-2013: the fortifications still to place, before the objectives (R589).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forts: Vec<super::battlefront::forts_placed::ToPlace>,
}

impl Placing {
    /// The pieces that may be placed now: terrain squares while any is left, then each kind of
    /// cover element left.
    pub fn pieces_now(&self) -> Vec<Piece> {
        if self.terrain > 0 {
            return vec![Piece::TerrainSquare];
        }
        // One side places all its fortifications, then the next side (R589).
        if let Some(first) = self.forts.first() {
            let mut v: Vec<Piece> = self
                .forts
                .iter()
                .filter(|f| f.side == first.side)
                .map(|f| f.fort.piece())
                .collect();
            v.sort();
            v.dedup();
            return v;
        }
        if self.cover.is_empty() && !self.objectives.is_empty() {
            return vec![Piece::Objective];
        }
        let mut v: Vec<Piece> = self.cover.iter().map(|k| Piece::of_cover(*k)).collect();
        v.sort();
        v.dedup();
        v
    }

    pub fn done(&self) -> bool {
        self.terrain == 0
            && self.cover.is_empty()
            && self.objectives.is_empty()
            && self.forts.is_empty()
    }

    /// "2 terrain squares, 3 ammo crates and 1 tank trap left".
    pub fn left_text(&self) -> String {
        let count = |k: CoverKind| self.cover.iter().filter(|c| **c == k).count() as u32;
        let forts = |p: Piece| self.forts.iter().filter(|f| f.fort.piece() == p).count() as u32;
        let parts: Vec<String> = [
            (self.terrain, Piece::TerrainSquare),
            (count(CoverKind::AmmoCrate), Piece::AmmoCrate),
            (count(CoverKind::TankTrap), Piece::TankTrap),
            (forts(Piece::Bunker), Piece::Bunker),
            (forts(Piece::Strongpoint), Piece::Strongpoint),
            (self.objectives.len() as u32, Piece::Objective),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, p)| format!("{n} {}{}", p.name(), if n == 1 { "" } else { "s" }))
        .collect();
        match parts.as_slice() {
            [] => "nothing left to place".into(),
            [one] => format!("{one} left"),
            [init @ .., last] => format!("{} and {last} left", init.join(", ")),
        }
    }
}

pub(crate) fn objective_square(o: &Objective) -> Square {
    match o {
        Objective::Hold { at, .. }
        | Objective::Points { at, .. }
        | Objective::Grab { at, .. }
        | Objective::Vp { at, .. } => *at,
    }
}

/// Why `piece` may not be placed on `sq` (R701); `None` when it may. `units` are the squares
/// units stand on at the start.
pub fn refusal(sc: &Scenario, units: &[Square], piece: Piece, sq: Square) -> Option<String> {
    let board = &sc.board;
    let terrain = board.terrain(sq);
    let open = match piece {
        // A terrain square hides a dot: it goes on an open square.
        Piece::TerrainSquare => terrain == Terrain::Open,
        // 004 "Terrain": cover elements stand only on open (circle) and smoke squares.
        _ => matches!(terrain, Terrain::Open | Terrain::Smoke),
    };
    if !open {
        return Some(format!(
            "{sq} is {}: a {} goes on an open square{}",
            terrain.name(),
            piece.name(),
            if piece == Piece::TerrainSquare {
                ""
            } else {
                " (or smoke)"
            }
        ));
    }
    if board.cover_at(sq).is_some() {
        return Some(format!("{sq} already holds a cover element"));
    }
    if units.contains(&sq) {
        return Some(format!("a unit stands on {sq}"));
    }
    if let Some(side) = sc.sides.iter().find(|s| s.entry.contains(&sq)) {
        return Some(format!(
            "{sq} is in the entry zone of {}, where units enter the battlefield: pieces go outside every entry zone",
            side.id
        ));
    }
    if let Some(s) = super::structures::structure_at(board, sq) {
        return Some(format!(
            "{sq} is inside the {} {}, which the scenario built as it stands",
            s.kind.name(),
            s.id
        ));
    }
    if sc.objectives.iter().any(|o| objective_square(o) == sq) {
        return Some(format!(
            "{sq} is an objective of the scenario: it stays as the scenario drew it"
        ));
    }
    None
}

/// Every square `piece` may take now, in board order.
pub fn legal_squares(sc: &Scenario, units: &[Square], piece: Piece) -> Vec<Square> {
    sc.board
        .squares()
        .filter(|sq| refusal(sc, units, piece, *sq).is_none())
        .collect()
}

/// The welcome mail's paragraph on a battlefield placed by the rolls.
pub fn briefing(p: &Placing) -> String {
    if !p.forts.is_empty() {
        let mut s = super::battlefront::forts_placed::briefing(p);
        if !p.objectives.is_empty() {
            s.push(' ');
            s.push_str(&super::battlefront::objectives_placed::briefing());
        }
        return s;
    }
    if !p.objectives.is_empty() {
        return super::battlefront::objectives_placed::briefing();
    }
    format!(
        "Setting up the battlefield (004 SETUP): before round 1 the players place {} by the rulebook's rolls. The first `place` order rolls 3 dice a side; the most hits places first, then the sides take turns (terrain squares first, then a new roll for the cover). Write `place terrain at C4`, `place crate at D5` or `place trap at E5`; pieces go outside the entry zones.",
        p.left_text().trim_end_matches(" left")
    )
}

/// The orders template's lines for an awaited placement (`options` are `place` orders).
pub fn template(options: &[String]) -> String {
    let objective = options.iter().any(|o| o.starts_with("place objective"));
    let fort = options
        .iter()
        .any(|o| o.starts_with("place bunker") || o.starts_with("place strongpoint"));
    let mut s = String::from(if fort {
        super::battlefront::forts_placed::TEMPLATE
    } else if objective {
        super::battlefront::objectives_placed::TEMPLATE
    } else {
        "# Setting up the battlefield (004 SETUP): place one piece, terrain\n\
         # squares first, then cover, outside the entry zones. Send one line,\n\
         # for example (delete its `#`):\n"
    });
    for o in options {
        s.push_str(&format!("# {o}\n"));
    }
    s
}
