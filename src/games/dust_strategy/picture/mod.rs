//! The map picture of dust-strategy (issue 14 item 5): every area in its cell of the map's
//! layout grid (land and sea told apart, capitals, production centres, VK deposits), each owner's
//! colour, units by type and count, the last step's moves (arrows) and battles (bursts), and a
//! legend with the players, their victory points, the turn order and the supremacies. SVG for
//! pages, PNG for mails.
//!
//! Drawn from the public view and the step's typed events only (never from text, never from a
//! hand): the same view and events always give the same bytes. Coordinates are whole pixels
//! computed with integers.

use super::map::Map;
use super::model::Unit;
use crate::game::{Happening, Png};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;

mod links;
mod raster;
mod svg;

/// A cell of the grid, in pixels.
pub const CELL_W: u32 = 80;
pub const CELL_H: u32 = 64;
/// Between two cells.
pub const GAP: u32 = 4;
/// Around the grid.
pub const MARGIN: u32 = 10;
/// The title line above the grid.
pub const TITLE_H: u32 = 26;
/// The legend below the grid: three lines.
pub const LEGEND_H: u32 = 70;

/// What a step did on the map, recorded as the happening's typed event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MapEvent {
    /// Units moved from each of `from` to `to`.
    Move {
        side: String,
        from: Vec<String>,
        to: String,
    },
    /// `side` attacked `to` from each of `from` (empty: from the air, missiles).
    Battle {
        side: String,
        from: Vec<String>,
        to: String,
    },
}

impl MapEvent {
    fn json(&self) -> Option<Value> {
        serde_json::to_value(self).ok()
    }
}

/// `h` with the event of a move order `rest` (`UNITS from A to B`, or `… from A, … from B to C`)
/// made by `side`; unchanged when `rest` names no route.
pub fn moved(mut h: Happening, side: &str, rest: &str) -> Happening {
    if let Some((from, to)) = route(rest) {
        h.event = MapEvent::Move {
            side: side.into(),
            from,
            to,
        }
        .json();
    }
    h
}

/// `hs` with the battle event of an attack by `side` on `to` from `from` set on the first
/// happening that has no event yet.
pub fn battle(mut hs: Vec<Happening>, side: &str, from: &[&str], to: &str) -> Vec<Happening> {
    if let Some(h) = hs.iter_mut().find(|h| h.event.is_none()) {
        h.event = MapEvent::Battle {
            side: side.into(),
            from: from.iter().map(|f| f.trim().to_ascii_lowercase()).collect(),
            to: to.trim().to_ascii_lowercase(),
        }
        .json();
    }
    hs
}

/// The origins and destination of a move order: the text after the last ` to `, and after
/// each ` from ` before it.
pub fn route(rest: &str) -> Option<(Vec<String>, String)> {
    let (froms, to) = rest.rsplit_once(" to ")?;
    let from: Vec<String> = froms
        .split(',')
        .filter_map(|p| p.rsplit_once(" from "))
        .map(|(_, f)| f.trim().to_ascii_lowercase())
        .collect();
    let to = to.trim().to_ascii_lowercase();
    (!from.is_empty() && !to.is_empty()).then_some((from, to))
}

/// The view's `layout`: the grid and each area's cell.
pub fn layout_json(map: &Map) -> Value {
    let (columns, rows, cells) = map.cells();
    let at: serde_json::Map<String, Value> = cells
        .into_iter()
        .map(|(a, c)| (a.id.clone(), json!(c)))
        .collect();
    // The links between areas, drawn on the picture (land, sea, dashed coast, the wrap).
    let links: Vec<Value> = map
        .links
        .iter()
        .map(|l| json!({"a": l.a, "b": l.b, "kind": l.kind, "wrap": l.wrap}))
        .collect();
    json!({"columns": columns, "rows": rows, "at": at, "authored": map.layout.is_some(), "links": links})
}

/// A link between two areas as the picture draws it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkMark {
    pub a: String,
    pub b: String,
    /// `land`, `coast` or `sea` (map.rs `LinkKind`).
    pub kind: String,
    /// Across the east–west edge.
    pub wrap: bool,
}

/// One area as the picture draws it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AreaMark {
    pub id: String,
    pub sea: bool,
    pub capital: bool,
    pub vk: bool,
    pub pc: bool,
    pub owner: Option<String>,
    /// Units by type, in [`Unit::ALL`] order, none at zero.
    pub units: Vec<(Unit, u32)>,
    pub cell: [u32; 2],
}

/// Everything the picture shows. Plain data, filled from a view by [`MapPicture::from_view`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapPicture {
    pub map: String,
    pub provisional: bool,
    pub round: u64,
    pub phase: String,
    pub columns: u32,
    pub rows: u32,
    pub areas: Vec<AreaMark>,
    /// The players in setup order, with their victory points.
    pub sides: Vec<(String, u64)>,
    /// The reader's side. Not drawn: every reader of a step shares one picture (raster.rs), and
    /// the mail around it says whose it is.
    pub ours: Option<String>,
    pub order: Vec<String>,
    /// Sector → holder.
    pub supremacy: Vec<(String, String)>,
    pub events: Vec<MapEvent>,
    /// The map's links, in the map's order.
    pub links: Vec<LinkMark>,
}

fn text_of(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

impl MapPicture {
    /// The picture of a dust-strategy view; `None` when the view is not one (no areas or no
    /// layout). `happenings` are those the reader may see; their move and battle events are drawn.
    pub fn from_view(view: &Value, ours: Option<&str>, happenings: &[Happening]) -> Option<Self> {
        let layout = view.get("layout")?;
        let columns = layout.get("columns")?.as_u64()?;
        let rows = layout.get("rows")?.as_u64()?;
        let max = u64::from(super::map::MAX_LAYOUT_CELLS);
        if columns == 0 || rows == 0 || columns > max || rows > max {
            return None;
        }
        let at = layout.get("at")?.as_object()?;
        let mut areas = Vec::new();
        for a in view.get("areas")?.as_array()? {
            let id = text_of(a, "id");
            let Some([c, r]) = at
                .get(&id)
                .and_then(|c| serde_json::from_value::<[u32; 2]>(c.clone()).ok())
            else {
                continue;
            };
            let units: BTreeMap<Unit, u32> = a
                .get("units")
                .and_then(|u| serde_json::from_value(u.clone()).ok())
                .unwrap_or_default();
            let flag = |k: &str| a.get(k).and_then(Value::as_bool).unwrap_or(false);
            areas.push(AreaMark {
                sea: text_of(a, "kind") == "sea",
                capital: flag("capital"),
                vk: flag("vk"),
                pc: flag("pc"),
                owner: a.get("owner").and_then(Value::as_str).map(String::from),
                units: Unit::ALL
                    .iter()
                    .filter_map(|u| units.get(u).filter(|n| **n > 0).map(|n| (*u, *n)))
                    .collect(),
                cell: [c.min(columns as u32 - 1), r.min(rows as u32 - 1)],
                id,
            });
        }
        let vp = view.get("vp");
        let sides = strings(view.get("sides"))
            .into_iter()
            .map(|s| {
                let p = vp.and_then(|v| v.get(&s)).and_then(Value::as_u64);
                (s, p.unwrap_or(0))
            })
            .collect();
        let supremacy = view
            .get("supremacy")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        let events = happenings
            .iter()
            .filter_map(|h| h.event.as_ref())
            .filter_map(|e| serde_json::from_value::<MapEvent>(e.clone()).ok())
            .collect();
        let links = layout
            .get("links")
            .and_then(Value::as_array)
            .map(|ls| {
                ls.iter()
                    .map(|l| LinkMark {
                        a: text_of(l, "a"),
                        b: text_of(l, "b"),
                        kind: text_of(l, "kind"),
                        wrap: l.get("wrap").and_then(Value::as_bool).unwrap_or(false),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(MapPicture {
            links,
            map: text_of(view, "map"),
            provisional: view
                .get("provisional")
                .and_then(Value::as_bool)
                .unwrap_or(true),
            round: view.get("round").and_then(Value::as_u64).unwrap_or(0),
            phase: text_of(view, "phase"),
            columns: columns as u32,
            rows: rows as u32,
            areas,
            sides,
            ours: ours.map(String::from),
            order: strings(view.get("order")),
            supremacy,
            events,
        })
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        (
            2 * MARGIN + self.columns * CELL_W + (self.columns - 1) * GAP,
            TITLE_H + self.rows * CELL_H + (self.rows - 1) * GAP + LEGEND_H + 2 * MARGIN,
        )
    }

    /// The top-left pixel of a cell.
    pub fn cell_origin(&self, [c, r]: [u32; 2]) -> (u32, u32) {
        (
            MARGIN + c * (CELL_W + GAP),
            MARGIN + TITLE_H + r * (CELL_H + GAP),
        )
    }

    /// The pixel a test samples to see an area's owner colour: inside the owner's fill, left of
    /// the name, below the units.
    pub fn owner_pixel(&self, id: &str) -> Option<(u32, u32)> {
        let a = self.areas.iter().find(|a| a.id == id)?;
        let (x, y) = self.cell_origin(a.cell);
        Some((x + 8, y + CELL_H - 7))
    }
}

/// Colours of one owner's fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwnerColours {
    /// `#rrggbb`.
    pub fill: &'static str,
    /// Text and unit shapes on the fill.
    pub ink: &'static str,
}

/// The fill of an owner. Sides are army colours (ruling R300), drawn in the Okabe–Ito palette
/// (safe for the common colour-vision deficiencies; the legend names every side): red as
/// vermillion, blue, green as bluish green, yellow; black and white as themselves; neutrals grey.
pub fn owner_colours(side: &str) -> OwnerColours {
    let (fill, ink) = match side {
        "red" => ("#d55e00", "#ffffff"),
        "blue" => ("#0072b2", "#ffffff"),
        "green" => ("#009e73", "#ffffff"),
        "yellow" => ("#f0e442", "#1b1b1b"),
        "black" => ("#000000", "#ffffff"),
        "white" => ("#ffffff", "#1b1b1b"),
        super::model::NEUTRAL => ("#9a9a9a", "#1b1b1b"),
        // Not reached with the shipped sides (R300): an unknown name still gets a colour.
        _ => ("#cc79a7", "#1b1b1b"),
    };
    OwnerColours { fill, ink }
}

/// The picture as an SVG document (no scripts, no external references).
pub fn svg(pic: &MapPicture) -> String {
    svg::render(pic)
}

/// The picture as PNG bytes.
pub fn png(pic: &MapPicture) -> Result<Png, String> {
    let (width, height) = pic.size();
    let bytes = raster::png(&svg(pic), width, height)?;
    Ok(Png {
        bytes,
        width,
        height,
    })
}
