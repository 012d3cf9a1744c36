//! The shared vocabulary of the Dust Tactics engine: squares, terrain, cover elements, cards and
//! weapon lines. Everything else in `dust_tactics` is built on these types.
//!
//! A `Square` is always on its board (only `Board` makes them), a `UnitId` is the name the
//! scenario gave a unit and lasts the whole game, and cards (`Card`) are kept apart from the
//! runtime state of the units that use them.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The most columns a board may have: column names are single letters A..Z.
pub const MAX_COLS: u8 = 26;
/// The most rows a board may have.
pub const MAX_ROWS: u8 = 99;

/// A square that is on the board. Column 0 is `A` at the left, row 0 is `1` at the top
/// (DESIGN §4). Only [`Board::square`] and [`Board::parse_square`] make one.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    col: u8,
    row: u8,
}

impl Square {
    pub fn col(self) -> u8 {
        self.col
    }
    pub fn row(self) -> u8 {
        self.row
    }
    /// Column and row differences to `other`, as absolute values.
    pub fn delta(self, other: Square) -> (u8, u8) {
        (self.col.abs_diff(other.col), self.row.abs_diff(other.row))
    }
    /// True when the two squares touch, orthogonally or diagonally.
    pub fn adjacent(self, other: Square) -> bool {
        let (dx, dy) = self.delta(other);
        dx.max(dy) == 1
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.col) as char, self.row as u32 + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

// Squares serialise as "C4" so the ledger and JSON views read like the board.
impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        parse_square_unchecked(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("`{text}` is not a square like C4")))
    }
}

/// Parses "C4" / "c4" without a board (only for deserialising our own state).
fn parse_square_unchecked(text: &str) -> Option<Square> {
    let text = text.trim();
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let row: u8 = digits.parse().ok()?;
    if row == 0 || row > MAX_ROWS {
        return None;
    }
    Some(Square {
        col: letter as u8 - b'A',
        row: row - 1,
    })
}

/// What is printed at a square's centre (004 "Terrain").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// ● a dot: anyone may enter, LOS clear.
    Open,
    /// No dot (or the dot hidden by a terrain piece): nobody enters but flyers, blocks LOS.
    Impassable,
    /// ▼ deep water: only flyers and Jump units enter; LOS clear.
    DeepWater,
    /// ✚ rubble: soldiers, flyers and Jump units; not vehicles; soft cover to squads.
    Rubble,
    /// ◆ smoke / visual obstruction: blocks all LOS; a unit on it fights only adjacent squares.
    Smoke,
    /// ■ trees: soldiers only; blocks LOS except for a soldier standing in it; soft cover.
    Trees,
    /// `,` swamp (003 "Swamp Squares", battlefront-2013 only): closed to vehicles; LOS clear.
    Swamp,
}

impl Terrain {
    /// One character for the text board and scenario files.
    pub fn symbol(self) -> char {
        match self {
            Terrain::Open => '.',
            Terrain::Impassable => '#',
            Terrain::DeepWater => '~',
            Terrain::Rubble => '+',
            Terrain::Smoke => '*',
            Terrain::Trees => 'T',
            Terrain::Swamp => ',',
        }
    }

    /// How reports name the terrain.
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Open => "open ground",
            Terrain::Impassable => "impassable (no dot)",
            Terrain::DeepWater => "deep water",
            Terrain::Rubble => "rubble",
            Terrain::Smoke => "smoke",
            Terrain::Trees => "trees",
            Terrain::Swamp => "swamp",
        }
    }

    pub fn from_symbol(c: char) -> Option<Terrain> {
        Some(match c {
            '.' => Terrain::Open,
            '#' => Terrain::Impassable,
            '~' => Terrain::DeepWater,
            '+' => Terrain::Rubble,
            '*' => Terrain::Smoke,
            'T' => Terrain::Trees,
            ',' => Terrain::Swamp,
            _ => return None,
        })
    }
}

/// Cover elements (000 "Cover elements", 004 play reference).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CoverKind {
    /// Soft cover, enterable, crushable by vehicles; armour 3, 2 health.
    AmmoCrate,
    /// Hard cover, closed to vehicles, blocks soldier-on-soldier LOS; armour 5, 4 health.
    TankTrap,
}

impl CoverKind {
    /// How reports name the element.
    pub fn name(self) -> &'static str {
        match self {
            CoverKind::AmmoCrate => "an ammo crate",
            CoverKind::TankTrap => "an anti-tank trap",
        }
    }

    /// (armour, health) from 000 "Cover elements" (ruling: vehicle armour scale).
    pub fn armour_health(self) -> (u8, u8) {
        match self {
            CoverKind::AmmoCrate => (3, 2),
            CoverKind::TankTrap => (5, 4),
        }
    }
}

/// A cover element standing on a square, with the damage it has taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoverElement {
    pub kind: CoverKind,
    pub damage: u8,
}

/// Level of cover a target squad has against one attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    None,
    Soft,
    Hard,
}

impl Cover {
    /// Adds one source of soft cover: two soft sources make hard, never above hard (004).
    pub fn add_soft(self) -> Cover {
        match self {
            Cover::None => Cover::Soft,
            _ => Cover::Hard,
        }
    }
}

/// A rectangular board of squares (tiles of 3×3 combined into any rectangle).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    width: u8,
    height: u8,
    /// Row-major terrain, `width * height` entries.
    terrain: Vec<Terrain>,
    /// Cover elements still standing.
    pub cover: BTreeMap<Square, CoverElement>,
    /// Walls of bases (000 "Movement rules", 004 "Structures"): blocked edges between two
    /// orthogonally adjacent squares, stored with the smaller square first.
    #[serde(default)]
    walls: BTreeSet<(Square, Square)>,
    /// Minefield tokens per square (004 "Minefields"); left out when none, so older states
    /// serialise as before.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub mines: BTreeMap<Square, u8>,
    /// Structures, bunkers and huts (004 "Structures"); their outlines are among `walls`. Left
    /// out of the state when empty, so boards made before structures serialise as they did.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub structures: Vec<super::structures::Structure>,
}

/// A board description that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BoardError(pub String);

impl Board {
    /// A board of open squares; width and height must be multiples of 3 (tiles are 3×3).
    pub fn open(width: u8, height: u8) -> Result<Board, BoardError> {
        if width == 0 || height == 0 || !width.is_multiple_of(3) || !height.is_multiple_of(3) {
            return Err(BoardError(format!(
                "a board of {width}×{height} squares is not made of 3×3 tiles: use multiples of 3"
            )));
        }
        if width > MAX_COLS || height > MAX_ROWS {
            return Err(BoardError(format!(
                "a board of {width}×{height} squares is too large: at most {MAX_COLS} columns and {MAX_ROWS} rows"
            )));
        }
        Ok(Board {
            width,
            height,
            terrain: vec![Terrain::Open; width as usize * height as usize],
            cover: BTreeMap::new(),
            walls: BTreeSet::new(),
            mines: BTreeMap::new(),
            structures: Vec::new(),
        })
    }

    /// Parses rows of terrain symbols (see [`Terrain::symbol`]), one string per row, top first.
    pub fn from_rows(rows: &[&str]) -> Result<Board, BoardError> {
        let height = rows.len();
        let width = rows.first().map(|r| r.chars().count()).unwrap_or(0);
        if height > MAX_ROWS as usize || width > MAX_COLS as usize {
            return Err(BoardError(format!(
                "the board has {width} columns and {height} rows: at most {MAX_COLS} columns and {MAX_ROWS} rows"
            )));
        }
        let mut board = Board::open(width as u8, height as u8)?;
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != width {
                return Err(BoardError(format!(
                    "board row {} has {} squares but row 1 has {width}: every row must be as wide",
                    r + 1,
                    row.chars().count()
                )));
            }
            for (c, ch) in row.chars().enumerate() {
                let t = Terrain::from_symbol(ch).ok_or_else(|| {
                    BoardError(format!(
                        "board row {} column {}: `{ch}` is not a terrain symbol (use . # ~ + * T)",
                        r + 1,
                        (b'A' + c as u8) as char
                    ))
                })?;
                board.terrain[r * width + c] = t;
            }
        }
        Ok(board)
    }

    pub fn width(&self) -> u8 {
        self.width
    }
    pub fn height(&self) -> u8 {
        self.height
    }

    /// The square at column `col`, row `row` (0-based), if it is on the board.
    pub fn square(&self, col: i32, row: i32) -> Option<Square> {
        if col >= 0 && row >= 0 && col < self.width as i32 && row < self.height as i32 {
            Some(Square {
                col: col as u8,
                row: row as u8,
            })
        } else {
            None
        }
    }

    /// Parses a square as printed on the board ("C4", case-insensitive), if it is on this board.
    pub fn parse_square(&self, text: &str) -> Option<Square> {
        let sq = parse_square_unchecked(text)?;
        self.square(sq.col as i32, sq.row as i32)
    }

    /// Every square, row by row from the top.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.height).flat_map(move |row| (0..self.width).map(move |col| Square { col, row }))
    }

    /// The (up to 8) squares touching `sq`, in a fixed order.
    pub fn neighbours(&self, sq: Square) -> impl Iterator<Item = Square> + '_ {
        const STEPS: [(i32, i32); 8] = [
            (0, -1),
            (1, 0),
            (0, 1),
            (-1, 0),
            (1, -1),
            (1, 1),
            (-1, 1),
            (-1, -1),
        ];
        STEPS
            .iter()
            .filter_map(move |(dx, dy)| self.square(sq.col as i32 + dx, sq.row as i32 + dy))
    }

    pub fn terrain(&self, sq: Square) -> Terrain {
        self.terrain[sq.row as usize * self.width as usize + sq.col as usize]
    }

    pub fn set_terrain(&mut self, sq: Square, t: Terrain) {
        let w = self.width as usize;
        self.terrain[sq.row as usize * w + sq.col as usize] = t;
    }

    pub fn cover_at(&self, sq: Square) -> Option<CoverElement> {
        self.cover.get(&sq).copied()
    }

    /// The cover element kind standing on `sq`, if any.
    pub fn cover_kind(&self, sq: Square) -> Option<CoverKind> {
        self.cover.get(&sq).map(|c| c.kind)
    }

    /// Puts an undamaged cover element on `sq`. 004 "Terrain": cover elements stand only on
    /// open (circle) and smoke (diamond) squares.
    pub fn place_cover(&mut self, sq: Square, kind: CoverKind) -> Result<(), BoardError> {
        match self.terrain(sq) {
            Terrain::Open | Terrain::Smoke => {
                self.cover.insert(sq, CoverElement { kind, damage: 0 });
                Ok(())
            }
            t => Err(BoardError(format!(
                "{sq} is {}: cover elements may only stand on open or smoke squares (004 Terrain)",
                t.name()
            ))),
        }
    }

    /// Adds a wall on the edge between two orthogonally adjacent squares: it blocks movement
    /// across that edge and line of sight through it.
    pub fn add_wall(&mut self, a: Square, b: Square) -> Result<(), BoardError> {
        let (dx, dy) = a.delta(b);
        if dx + dy != 1 {
            return Err(BoardError(format!(
                "a wall runs between two squares that share a side; {a} and {b} do not"
            )));
        }
        self.walls.insert((a.min(b), a.max(b)));
        Ok(())
    }

    /// Parses a wall as scenario files write it, "C3|D3" (or "C3-D3"), and adds it.
    pub fn add_wall_text(&mut self, text: &str) -> Result<(), BoardError> {
        let bad = || {
            BoardError(format!(
                "`{text}` is not a wall: write the two squares it separates, like C3|D3"
            ))
        };
        let (a, b) = text.split_once(['|', '-']).ok_or_else(bad)?;
        let off = |t: &str| {
            BoardError(format!(
                "wall `{text}`: {} is not a square on this {}×{} board",
                t.trim(),
                self.width,
                self.height
            ))
        };
        let a = self.parse_square(a).ok_or_else(|| off(a))?;
        let b = self.parse_square(b).ok_or_else(|| off(b))?;
        self.add_wall(a, b)
    }

    /// Takes down the wall between `a` and `b`, if one stands there (a destroyed bunker).
    pub fn remove_wall(&mut self, a: Square, b: Square) {
        self.walls.remove(&(a.min(b), a.max(b)));
    }

    /// True when a wall stands between `a` and `b` (orthogonal neighbours).
    pub fn wall_between(&self, a: Square, b: Square) -> bool {
        !self.walls.is_empty() && self.walls.contains(&(a.min(b), a.max(b)))
    }

    /// Every wall as a pair of squares (smaller first), in a fixed order.
    pub fn walls(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        self.walls.iter().copied()
    }
}

/// A side of the game, as the scenario names it ("allies", "axis").
pub type SideId = String;

/// A unit's id as the scenario names it and reports print it; it lasts the whole game.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitId(pub String);

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What kind of unit a card describes; it decides movement, LOS and cover rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitType {
    Squad,
    Hero,
    Vehicle,
}

impl UnitType {
    /// Squads and heroes are "soldiers" for LOS and terrain.
    pub fn is_soldier(self) -> bool {
        matches!(self, UnitType::Squad | UnitType::Hero)
    }
}

/// Armour class and value: soldiers 1–4, vehicles 1–7, aircraft 1–3 (000 "Weapon lines").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Armour {
    Soldier(u8),
    Vehicle(u8),
    Aircraft(u8),
}

/// A weapon line's range (004 "Range"). In card files it is written as printed on the card:
/// `"C"`, `"6"`, `"3-6"`, `"U"`, `"A"` (the tagged form `{ upto = 6 }` is also read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeaponRange {
    /// `C`: close combat, adjacent only.
    Close,
    /// `N`: within N squares, minimum 1.
    Upto(u8),
    /// `X-Y`: arc weapon; `X-U` (003 "Minimum Range", R687) is `Between(X, NO_MAX)`.
    Between(u8, u8),
    /// `U`: unlimited with LOS.
    Unlimited,
    /// `A`: artillery, minimum 4, no maximum.
    Artillery,
}

/// One cell of a weapon line against one armour value. In card files it is written as printed:
/// `"4/1"`, `"-"`, `"1/+"` (incendiary), `"1/(+)"` (AP incendiary); the tagged form
/// `{ dice = { dice = 4, damage = 1 } }` is also read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fire {
    /// `-`: cannot damage this armour.
    No,
    /// `X/N`: X dice (per carrier), N damage per hit.
    Dice { dice: u8, damage: u8 },
    /// `X/⊕` incendiary blast: X dice per targeted model, each hit 1 damage.
    Incendiary { dice: u8 },
    /// `X/(+)` anti-tank incendiary: X dice per targeted model, one hit eliminates the unit (004).
    ApIncendiary { dice: u8 },
    /// `XxY` phaser (004 "Phaser Weapons X×Y"): X dice, whose hits are the Y dice rolled for
    /// damage, 1 per hit; no cover (R421).
    Phaser { dice: u8 },
    /// `A/X-B/X-C/X…` volley blast (004 "Volley Blast"): spending n ammo rolls the n-th dice
    /// count of `dice`, X damage per hit; `steps` counts are set, the rest are 0 (R460).
    Volley {
        dice: [u8; VOLLEY_STEPS],
        steps: u8,
        damage: u8,
    },
}

/// The most ammo counts a volley cell may list.
pub const VOLLEY_STEPS: usize = 6;

pub use super::weapon_trait::WeaponTrait;

/// One weapon line of a card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeaponLine {
    /// Id used in orders (`attack mg at ...`), unique on the card.
    pub id: String,
    pub name: String,
    /// Models carrying it; `None` means every model of the unit (or the one hero/vehicle).
    #[serde(default)]
    pub carriers: Option<u8>,
    pub range: WeaponRange,
    /// Against soldier armour 1..=4.
    pub soldier: [Fire; 4],
    /// Against vehicle armour 1..=7.
    pub vehicle: [Fire; 7],
    /// Against aircraft armour 1..=3.
    #[serde(default = "no_fire3")]
    pub aircraft: [Fire; 3],
    #[serde(default)]
    pub traits: Vec<WeaponTrait>,
    /// Ammo boxes for a limited-ammo weapon; `None` is unlimited.
    #[serde(default)]
    pub ammo: Option<u8>,
}

fn no_fire3() -> [Fire; 3] {
    [Fire::No; 3]
}

impl fmt::Display for Fire {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fire::No => f.write_str("-"),
            Fire::Dice { dice, damage } => write!(f, "{dice}/{damage}"),
            Fire::Incendiary { dice } => write!(f, "{dice}/+"),
            Fire::ApIncendiary { dice } => write!(f, "{dice}/(+)"),
            Fire::Phaser { dice } => write!(f, "{dice}xY"),
            Fire::Volley {
                dice,
                steps,
                damage,
            } => {
                let parts: Vec<String> = dice
                    .iter()
                    .take(*steps as usize)
                    .map(|d| format!("{d}/{damage}"))
                    .collect();
                f.write_str(&parts.join("-"))
            }
        }
    }
}

impl Fire {
    /// Parses a cell as printed on a card: `4/1`, `-`, `1/+`, `1/(+)`.
    pub fn parse(text: &str) -> Option<Fire> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if t == "-" || t.eq_ignore_ascii_case("no") {
            return Some(Fire::No);
        }
        // 004 "Phaser Weapons X×Y": `3xY` (or `3×Y`).
        if let Some(x) = t
            .strip_suffix("xY")
            .or_else(|| t.strip_suffix("×Y"))
            .or_else(|| t.strip_suffix("xy"))
        {
            return Some(Fire::Phaser {
                dice: x.parse().ok()?,
            });
        }
        // 004 "Volley Blast A/X - B/X - C/X ...": `1/2-2/2-3/2`, one damage value for all.
        if t.contains('-') {
            return Self::parse_volley(&t);
        }
        let (dice, rest) = t.split_once('/')?;
        let dice: u8 = dice.parse().ok()?;
        match rest {
            "+" => Some(Fire::Incendiary { dice }),
            "(+)" => Some(Fire::ApIncendiary { dice }),
            n => Some(Fire::Dice {
                dice,
                damage: n.parse().ok()?,
            }),
        }
    }
}

impl Fire {
    fn parse_volley(t: &str) -> Option<Fire> {
        let mut dice = [0u8; VOLLEY_STEPS];
        let mut damage = None;
        let mut steps = 0usize;
        for part in t.split('-') {
            let (d, x) = part.split_once('/')?;
            let x: u8 = x.parse().ok()?;
            if damage.is_some_and(|y| y != x) || steps == VOLLEY_STEPS {
                return None;
            }
            damage = Some(x);
            dice[steps] = d.parse().ok()?;
            steps += 1;
        }
        (steps >= 2).then_some(Fire::Volley {
            dice,
            steps: steps as u8,
            damage: damage?,
        })
    }

    /// A volley's dice when `spent` ammo is spent (1-based), if the cell lists that many.
    pub fn volley_dice(&self, spent: u32) -> Option<u8> {
        match self {
            Fire::Volley { dice, steps, .. } if spent >= 1 && spent <= *steps as u32 => {
                dice.get(spent as usize - 1).copied()
            }
            _ => None,
        }
    }
}

/// The tagged (derived) forms, still accepted in card files.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum FireTagged {
    No,
    Dice { dice: u8, damage: u8 },
    Incendiary { dice: u8 },
    ApIncendiary { dice: u8 },
    Phaser { dice: u8 },
}

impl Serialize for Fire {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Fire {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Fire;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a weapon cell like \"4/1\", \"-\", \"1/+\" or \"1/(+)\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Fire, E> {
                Fire::parse(v).ok_or_else(|| {
                    E::custom(format!(
                        "`{v}` is not a weapon cell: write \"X/N\" (X dice, N damage per hit), \"X/+\" (incendiary), \"X/(+)\" (AP incendiary), \"XxY\" (phaser), \"A/X-B/X\" (volley) or \"-\" (cannot damage)"
                    ))
                })
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Fire, A::Error> {
                let t = FireTagged::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(match t {
                    FireTagged::No => Fire::No,
                    FireTagged::Dice { dice, damage } => Fire::Dice { dice, damage },
                    FireTagged::Incendiary { dice } => Fire::Incendiary { dice },
                    FireTagged::ApIncendiary { dice } => Fire::ApIncendiary { dice },
                    FireTagged::Phaser { dice } => Fire::Phaser { dice },
                })
            }
        }
        d.deserialize_any(V)
    }
}

impl fmt::Display for WeaponRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeaponRange::Close => f.write_str("C"),
            WeaponRange::Upto(n) => write!(f, "{n}"),
            WeaponRange::Between(a, WeaponRange::NO_MAX) => write!(f, "{a}-U"),
            WeaponRange::Between(a, b) => write!(f, "{a}-{b}"),
            WeaponRange::Unlimited => f.write_str("U"),
            WeaponRange::Artillery => f.write_str("A"),
        }
    }
}

impl WeaponRange {
    /// The maximum of 003's `X-U`: no board is this wide, so it reaches the whole battlefield.
    pub const NO_MAX: u8 = u8::MAX;

    /// Parses a range as printed on a card: `C`, `6`, `3-6`, `2-U`, `U`, `A`.
    pub fn parse(text: &str) -> Option<WeaponRange> {
        let t = text.trim();
        match t.to_ascii_uppercase().as_str() {
            "C" | "CLOSE" => return Some(WeaponRange::Close),
            "U" | "UNLIMITED" => return Some(WeaponRange::Unlimited),
            "A" | "ARTILLERY" => return Some(WeaponRange::Artillery),
            _ => {}
        }
        if let Some((a, b)) = t.split_once('-') {
            let b = match b.trim() {
                "U" | "u" => WeaponRange::NO_MAX,
                b => b.parse().ok()?,
            };
            return Some(WeaponRange::Between(a.trim().parse().ok()?, b));
        }
        t.parse().ok().map(WeaponRange::Upto)
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum RangeTagged {
    Close,
    Upto(u8),
    Between(u8, u8),
    Unlimited,
    Artillery,
}

impl Serialize for WeaponRange {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for WeaponRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = WeaponRange;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a range like \"C\", \"6\", \"3-6\", \"U\" or \"A\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<WeaponRange, E> {
                WeaponRange::parse(v).ok_or_else(|| {
                    E::custom(format!(
                        "`{v}` is not a range: write \"C\" (close combat), \"N\" (up to N squares), \"X-Y\", \"U\" (unlimited) or \"A\" (artillery)"
                    ))
                })
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<WeaponRange, E> {
                u8::try_from(v)
                    .map(WeaponRange::Upto)
                    .map_err(|_| E::custom(format!("range {v} is out of 0..=255")))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<WeaponRange, E> {
                self.visit_i64(v.min(i64::MAX as u64) as i64)
            }
            fn visit_enum<A: serde::de::EnumAccess<'de>>(
                self,
                data: A,
            ) -> Result<WeaponRange, A::Error> {
                let t =
                    RangeTagged::deserialize(serde::de::value::EnumAccessDeserializer::new(data))?;
                Ok(tagged_range(t))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<WeaponRange, A::Error> {
                let t =
                    RangeTagged::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(tagged_range(t))
            }
        }
        d.deserialize_any(V)
    }
}

fn tagged_range(t: RangeTagged) -> WeaponRange {
    match t {
        RangeTagged::Close => WeaponRange::Close,
        RangeTagged::Upto(n) => WeaponRange::Upto(n),
        RangeTagged::Between(a, b) => WeaponRange::Between(a, b),
        RangeTagged::Unlimited => WeaponRange::Unlimited,
        RangeTagged::Artillery => WeaponRange::Artillery,
    }
}

impl WeaponLine {
    /// The cell of this line against `armour`.
    pub fn against(&self, armour: Armour) -> Fire {
        let pick = |cells: &[Fire], v: u8| {
            cells
                .get((v as usize).wrapping_sub(1))
                .copied()
                .unwrap_or(Fire::No)
        };
        match armour {
            Armour::Soldier(v) => pick(&self.soldier, v),
            Armour::Vehicle(v) => pick(&self.vehicle, v),
            Armour::Aircraft(v) => pick(&self.aircraft, v),
        }
    }
}

/// A cover save printed on a squad card for one cover level (004 "Cover saves").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Save {
    /// No icon: no save.
    #[default]
    None,
    /// Each HIT on a die per hit cancels a hit.
    Hit,
    /// Each MISS on a die per hit cancels a hit.
    Miss,
}

/// A skill a card carries, with the uses allowed (for once/twice per game skills).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillSpec {
    /// Canonical lower-case name with dashes: "black-ops", "self-repair", "fast"…
    pub name: String,
    /// Uses per game, when limited.
    #[serde(default)]
    pub uses: Option<u8>,
    /// The number the skill's title notes: Carry Capacity's soldiers (004 "Carry Capacity").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<u8>,
    /// `pilot` only (004 "Pilot: Name"): on a hero, the card id of the vehicle he pilots; on a
    /// vehicle, the card id of the only hero who may pilot it. Absent on a hero: any vehicle
    /// (003 "Vehicle Pilot", R540). Skipped when absent, so older cards serialise unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// `expert` only (002 "Expert - Weapon", R716): the id of the card's weapon it names.
    /// Skipped when absent, so older cards serialise unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
}

/// A unit card: data only, loaded from `games/dust-tactics/cards/*.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    /// File stem, e.g. `m2c-pounder`.
    pub id: String,
    pub name: String,
    /// "allies" or "axis".
    pub faction: String,
    pub unit_type: UnitType,
    pub armour: Armour,
    pub movement: u8,
    /// Squads: models; heroes and vehicles: health.
    pub health: u8,
    pub ap: u32,
    #[serde(default)]
    pub soft_save: Save,
    #[serde(default)]
    pub hard_save: Save,
    pub weapons: Vec<WeaponLine>,
    #[serde(default)]
    pub skills: Vec<SkillSpec>,
    /// Names of the models of a squad, in card order (casualty choice refers to them).
    #[serde(default)]
    pub models: Vec<ModelSpec>,
    /// Where each stated value comes from (seed file and section).
    #[serde(default)]
    pub sources: Vec<String>,
    /// Values the project had to choose; reports mark cards that have any.
    #[serde(default)]
    pub provisional: Vec<String>,
    /// A superhuman hero (004 "Superhumans"): never joins a squad (R520).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub superhuman: bool,
    /// A hero with the Sidekick skill: the card id of the superhuman he may form a special
    /// squad with (004 "Superhumans", R520).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sidekick: Option<String>,
    /// A large vehicle (004 "LARGE VEHICLES"): inside 4 spaces, its `at` the top-left (R566).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub large: bool,
    /// A Huge vehicle (003 "Moving Huge Vehicles"): four squares, 2×2 as `large` (R790).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub huge: bool,
    /// 003 "Unit Size": `size = "large"`, a Large vehicle on two squares (R767).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<VehicleSize>,
}

/// 003 "Unit Size": the two-square size a card may declare (the 2×2 one is `huge`, R790).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VehicleSize {
    Large,
}

/// One model of a squad: its id and the weapon lines it carries (by weapon id).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelSpec {
    pub id: String,
    #[serde(default)]
    pub carries: Vec<String>,
}

impl Card {
    /// Whether the card stands on a 2×2 block: 004's large or 003's Huge vehicle (R790).
    pub fn four_squares(&self) -> bool {
        self.large || self.huge
    }
    /// Whether the card carries the skill named `name` (its card name, "black-ops").
    pub fn has_skill(&self, name: &str) -> bool {
        self.skills.iter().any(|s| s.name == name)
    }
    /// Whether the card carries `skill` (card files are checked against [`Skill`] at load).
    pub fn has(&self, skill: super::skill::Skill) -> bool {
        self.has_skill(skill.id())
    }
    pub fn weapon(&self, id: &str) -> Option<&WeaponLine> {
        self.weapons.iter().find(|w| w.id.eq_ignore_ascii_case(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_print_and_parse_as_on_the_board() {
        // DESIGN §4: column letters from A at the left, row numbers from 1 at the top.
        let board = Board::open(9, 12).unwrap();
        let c4 = board.parse_square("c4").unwrap();
        assert_eq!((c4.col(), c4.row()), (2, 3));
        assert_eq!(c4.to_string(), "C4");
        assert_eq!(
            board.parse_square("J1"),
            None,
            "column J is off a 9-wide board"
        );
        assert_eq!(
            board.parse_square("A13"),
            None,
            "row 13 is off a 12-high board"
        );
        assert_eq!(board.parse_square("A0"), None);
        assert_eq!(board.parse_square("4C"), None);
    }

    #[test]
    fn boards_are_made_of_three_by_three_tiles() {
        assert!(Board::open(9, 9).is_ok());
        let err = Board::open(10, 9).unwrap_err();
        assert!(err.0.contains("3×3"), "{err}");
    }

    #[test]
    fn two_soft_covers_make_hard_and_never_more() {
        // 004 "Cover": two sources of soft cover are hard cover.
        assert_eq!(Cover::None.add_soft(), Cover::Soft);
        assert_eq!(Cover::Soft.add_soft(), Cover::Hard);
        assert_eq!(Cover::Hard.add_soft(), Cover::Hard);
    }
}
