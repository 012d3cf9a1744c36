//! The world map of dust-strategy: areas (land or sea), links (land, coast, sea; some wrap east to
//! west), six capitals in three pairs, sixteen VK deposits. Loaded from
//! `games/dust-strategy/maps/*.toml` (or the referee's `--map FILE`) and checked as it loads, with
//! errors naming the file and the field (001 "Piano di gioco"; digest 001 §1.1 and §9.1).

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The built-in map: (name, content).
pub fn builtin() -> Vec<(&'static str, &'static str)> {
    vec![(
        "world",
        include_str!("../../../games/dust-strategy/maps/world.toml"),
    )]
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Land,
    Sea,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    /// Between two land areas.
    Land,
    /// Between a land and a sea area: dashed on the board.
    Coast,
    /// Between two sea areas.
    Sea,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    #[serde(default)]
    pub region: String,
    /// The pair this capital belongs to (any label shared by exactly two capitals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capital: Option<String>,
    #[serde(default)]
    pub vk: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    pub a: String,
    pub b: String,
    pub kind: LinkKind,
    /// The link leaves one edge of the board and comes back on the other (east–west).
    #[serde(default)]
    pub wrap: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Map {
    pub name: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub sources: Vec<String>,
    /// What the project (or the referee) chose rather than read in 001.
    #[serde(default)]
    pub provisional: Vec<String>,
    #[serde(rename = "area")]
    pub areas: Vec<Area>,
    #[serde(rename = "link")]
    pub links: Vec<Link>,
    /// Where the map picture draws each area; a map without it gets a generated grid
    /// ([`Map::cells`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Layout>,
}

/// The map picture's grid: a cell `[column, row]` per area, column 0 at the west edge (the
/// east–west wrap joins the last column to the first), row 0 at the north. Authored, PROVISIONAL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    pub columns: u32,
    pub rows: u32,
    pub at: BTreeMap<String, [u32; 2]>,
}

/// The largest grid a layout may ask for (the picture stays a few megapixels at most).
pub const MAX_LAYOUT_CELLS: u32 = 40;

/// The land areas six players fill at setup: 1 capital + 2 deposits + 5 areas each (001
/// "Preparazione del gioco" 3–5; ruling R301).
pub const MIN_LAND_AREAS: usize = 48;

impl Map {
    pub fn area(&self, id: &str) -> Option<&Area> {
        self.areas.iter().find(|a| a.id == id)
    }

    pub fn is_land(&self, id: &str) -> bool {
        self.area(id).is_some_and(|a| a.kind == Kind::Land)
    }

    pub fn is_sea(&self, id: &str) -> bool {
        self.area(id).is_some_and(|a| a.kind == Kind::Sea)
    }

    /// The areas linked to `id`, in map order of the links.
    pub fn neighbours(&self, id: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for l in &self.links {
            let other = if l.a == id {
                &l.b
            } else if l.b == id {
                &l.a
            } else {
                continue;
            };
            if !out.contains(&other.as_str()) {
                out.push(other);
            }
        }
        out
    }

    pub fn adjacent(&self, a: &str, b: &str) -> bool {
        self.links
            .iter()
            .any(|l| (l.a == a && l.b == b) || (l.a == b && l.b == a))
    }

    /// The picture's grid and each area's cell, in map order: the authored layout, or (a map
    /// without one) the areas row by row in map order, 12 to a row.
    pub fn cells(&self) -> (u32, u32, Vec<(&Area, [u32; 2])>) {
        if let Some(l) = &self.layout {
            let cells = self
                .areas
                .iter()
                .filter_map(|a| l.at.get(&a.id).map(|c| (a, *c)))
                .collect();
            return (l.columns, l.rows, cells);
        }
        const PER_ROW: usize = 12;
        let cells: Vec<(&Area, [u32; 2])> = self
            .areas
            .iter()
            .enumerate()
            .map(|(i, a)| (a, [(i % PER_ROW) as u32, (i / PER_ROW) as u32]))
            .collect();
        let rows = self.areas.len().div_ceil(PER_ROW) as u32;
        (PER_ROW.min(self.areas.len()) as u32, rows, cells)
    }

    /// The capitals in map order.
    pub fn capitals(&self) -> Vec<&Area> {
        self.areas.iter().filter(|a| a.capital.is_some()).collect()
    }

    /// Whether two capitals are "adjacent" for the first three players' rule: the same pair or a
    /// direct link (ruling R303).
    pub fn capitals_adjacent(&self, a: &str, b: &str) -> bool {
        let pair = |id: &str| self.area(id).and_then(|x| x.capital.clone());
        (pair(a).is_some() && pair(a) == pair(b)) || self.adjacent(a, b)
    }
}

/// Parses and checks a map file. `file` names it in every error.
pub fn parse(file: &str, text: &str) -> Result<Map, String> {
    let map: Map = toml::from_str(text).map_err(|e| {
        format!(
            "map {file}: {}",
            e.to_string().lines().collect::<Vec<_>>().join(" ")
        )
    })?;
    check(&map).map_err(|e| format!("map {file}: {e}"))?;
    Ok(map)
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Every constraint 001 states of the board, and what the engine needs (digest 001 §9.1).
pub fn check(map: &Map) -> Result<(), String> {
    let mut ids = BTreeSet::new();
    for a in &map.areas {
        if !valid_id(&a.id) {
            return Err(format!(
                "area `{}`: field id must be lower-case letters, digits and -",
                a.id
            ));
        }
        if !ids.insert(a.id.as_str()) {
            return Err(format!("area `{}` is listed twice (field id)", a.id));
        }
        if a.capital.is_some() && a.kind == Kind::Sea {
            return Err(format!(
                "area `{}`: field capital is set on a sea area; 001 'Piano di gioco': capitals are land areas",
                a.id
            ));
        }
        if a.capital.is_some() && a.vk {
            return Err(format!(
                "area `{}`: a capital cannot also be a VK deposit (fields capital and vk; ruling R302)",
                a.id
            ));
        }
    }
    let land = map.areas.iter().filter(|a| a.kind == Kind::Land).count();
    if land < MIN_LAND_AREAS {
        return Err(format!(
            "{land} land areas (field kind): six players take 8 each at setup, so the map needs at least {MIN_LAND_AREAS} (ruling R301)"
        ));
    }
    if !map.areas.iter().any(|a| a.kind == Kind::Sea) {
        return Err("no sea area (field kind): 001 'Piano di gioco' has land and sea areas".into());
    }
    let mut pairs: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for a in &map.areas {
        if let Some(p) = &a.capital {
            pairs.entry(p.as_str()).or_default().push(a.id.as_str());
        }
    }
    let capitals: usize = pairs.values().map(Vec::len).sum();
    if capitals != 6 || pairs.len() != 3 || pairs.values().any(|v| v.len() != 2) {
        let listed: Vec<String> = pairs
            .iter()
            .map(|(p, v)| format!("{p}: {}", v.join(", ")))
            .collect();
        return Err(format!(
            "001 'Piano di gioco' has six capitals in three pairs: field capital names each pair on exactly two land areas (found {})",
            if listed.is_empty() { "none".to_string() } else { listed.join("; ") }
        ));
    }
    let vk_land = map
        .areas
        .iter()
        .filter(|a| a.vk && a.kind == Kind::Land)
        .count();
    let vk_sea = map
        .areas
        .iter()
        .filter(|a| a.vk && a.kind == Kind::Sea)
        .count();
    if vk_land != 12 || vk_sea != 4 {
        return Err(format!(
            "field vk: 001 'Piano di gioco' has sixteen VK deposits, twelve on land and four at sea (found {vk_land} on land and {vk_sea} at sea)"
        ));
    }
    let kind_of = |id: &str| map.area(id).map(|a| a.kind);
    let mut seen = BTreeSet::new();
    for (i, l) in map.links.iter().enumerate() {
        let n = i + 1;
        let (Some(ka), Some(kb)) = (kind_of(&l.a), kind_of(&l.b)) else {
            let missing = if kind_of(&l.a).is_none() { &l.a } else { &l.b };
            return Err(format!(
                "link {n} ({} – {}): field a/b names `{missing}`, which is no area of the map",
                l.a, l.b
            ));
        };
        if l.a == l.b {
            return Err(format!("link {n}: links `{}` to itself (fields a, b)", l.a));
        }
        let key = if l.a < l.b {
            (l.a.as_str(), l.b.as_str())
        } else {
            (l.b.as_str(), l.a.as_str())
        };
        if !seen.insert(key) {
            return Err(format!("link {n} ({} – {}) is listed twice", l.a, l.b));
        }
        let want = match (ka, kb) {
            (Kind::Land, Kind::Land) => LinkKind::Land,
            (Kind::Sea, Kind::Sea) => LinkKind::Sea,
            _ => LinkKind::Coast,
        };
        if l.kind != want {
            return Err(format!(
                "link {n} ({} – {}): field kind is {:?} but it joins a {:?} and a {:?} area, so it must be {:?} (001 'Piano di gioco': sea–land lines are the dashed ones)",
                l.a, l.b, l.kind, ka, kb, want
            )
            .to_lowercase());
        }
    }
    if !map.links.iter().any(|l| l.wrap) {
        return Err(
            "no link has wrap = true: 001 'Piano di gioco': links leaving the east edge continue on the west edge"
                .into(),
        );
    }
    // Connected: every area reachable from the first.
    let mut reached = BTreeSet::new();
    let mut todo = vec![map.areas[0].id.as_str()];
    while let Some(a) = todo.pop() {
        if reached.insert(a) {
            todo.extend(map.neighbours(a));
        }
    }
    if let Some(cut) = map.areas.iter().find(|a| !reached.contains(a.id.as_str())) {
        return Err(format!(
            "area `{}` cannot be reached from `{}`: the map must be one connected graph (field link)",
            cut.id, map.areas[0].id
        ));
    }
    // Last: the picture's layout, once the rules of 001 hold.
    if let Some(l) = &map.layout {
        check_layout(map, l)?;
    }
    Ok(())
}

/// The layout places every area once, inside its grid, one area a cell.
fn check_layout(map: &Map, l: &Layout) -> Result<(), String> {
    if l.columns == 0 || l.rows == 0 || l.columns > MAX_LAYOUT_CELLS || l.rows > MAX_LAYOUT_CELLS {
        return Err(format!(
            "layout: fields columns and rows must be 1 to {MAX_LAYOUT_CELLS} (found {} × {})",
            l.columns, l.rows
        ));
    }
    if let Some(id) = l.at.keys().find(|id| map.area(id).is_none()) {
        return Err(format!(
            "layout.at: `{id}` is no area of the map (field at names areas by their id)"
        ));
    }
    let mut taken: BTreeMap<[u32; 2], &str> = BTreeMap::new();
    for a in &map.areas {
        let Some(&[c, r]) = l.at.get(&a.id) else {
            return Err(format!(
                "layout.at: area `{}` has no cell; add `{} = [COLUMN, ROW]` (or leave out the whole [layout] table for a generated grid)",
                a.id, a.id
            ));
        };
        if c >= l.columns || r >= l.rows {
            return Err(format!(
                "layout.at: area `{}` is at [{c}, {r}], outside the grid of {} columns and {} rows (both count from 0)",
                a.id, l.columns, l.rows
            ));
        }
        if let Some(other) = taken.insert([c, r], a.id.as_str()) {
            return Err(format!(
                "layout.at: areas `{other}` and `{}` are both at [{c}, {r}]; one area a cell",
                a.id
            ));
        }
    }
    Ok(())
}
