//! 002's barbed wire, minefields and strongpoints on the picture (battlefront-2013, R727): a
//! strongpoint as a sandbagged ring around its two inside squares, wire as a crossed coil, a
//! minefield as 004's mine icon in the square's corner; a bunker (R784) as a concrete block over
//! its two inside squares with its firing slit on the side it faces; each named in the legend.
//! Wire, minefields and bunkers go when cut, cleared or buried, so they are read from each view.

use super::legend::LegendItem;
use super::{Picture, MARGIN_PX, SQUARE_PX};
use crate::dust_tactics::model::Square;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt::Write as _;
use std::ops::Range;

/// What the picture draws of the scenario's fortifications beyond its trenches.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marks {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub barbed_wire: Vec<Square>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub minefields: Vec<Square>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strongpoints: Vec<[Square; 2]>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bunkers: Vec<BunkerMark>,
}

/// A bunker as the view carries it: its two inside squares and the side its slit faces
/// (`N`, `E`, `S` or `W`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BunkerMark {
    pub squares: [Square; 2],
    pub facing: String,
}

impl Marks {
    pub fn is_empty(&self) -> bool {
        self.barbed_wire.is_empty()
            && self.minefields.is_empty()
            && self.strongpoints.is_empty()
            && self.bunkers.is_empty()
    }

    /// The marks a view carries under `fortifications` (none when it has none;
    /// `battlefront::fortifications::view` writes them).
    pub fn of_view(view: &Value) -> Marks {
        view.get("fortifications")
            .and_then(|f| serde_json::from_value(f.clone()).ok())
            .unwrap_or_default()
    }
}

/// The legend's items for what is drawn.
pub(super) fn legend_items(pic: &Picture) -> Vec<LegendItem> {
    let m = &pic.fortifications;
    let mut v = vec![];
    if !m.strongpoints.is_empty() {
        v.push(LegendItem::Strongpoint);
    }
    if !m.bunkers.is_empty() {
        v.push(LegendItem::Bunker);
    }
    if !m.barbed_wire.is_empty() {
        v.push(LegendItem::BarbedWire);
    }
    if !m.minefields.is_empty() && pic.board.mines.is_empty() {
        v.push(LegendItem::Mined);
    }
    v
}

fn origin(sq: Square) -> (u32, u32) {
    (
        MARGIN_PX + sq.col() as u32 * SQUARE_PX,
        MARGIN_PX + sq.row() as u32 * SQUARE_PX,
    )
}

/// Every strongpoint, wire and minefield square, each drawn (and cached) as one item.
pub(super) fn draw(out: &mut String, pic: &Picture, items: &mut Vec<Range<usize>>) {
    let m = &pic.fortifications;
    if m.is_empty() {
        return;
    }
    out.push_str("<g id=\"fortifications\">\n");
    for [a, b] in &m.strongpoints {
        let start = out.len();
        let (ax, ay) = origin(*a);
        let (bx, by) = origin(*b);
        let (x, y) = (ax.min(bx) + 3, ay.min(by) + 3);
        let w = ax.max(bx) + SQUARE_PX - 3 - x;
        let h = ay.max(by) + SQUARE_PX - 3 - y;
        let _ = write!(
            out,
            r##"<g class="strongpoint" data-square="{a}"><title>strongpoint {a}+{b}</title><rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="none" stroke="#8c7a55" stroke-width="5" stroke-dasharray="8 3"/></g>"##
        );
        out.push('\n');
        items.push(start..out.len());
    }
    for b in &m.bunkers {
        let start = out.len();
        bunker(out, b);
        items.push(start..out.len());
    }
    for sq in &m.barbed_wire {
        let start = out.len();
        let (x, y) = origin(*sq);
        let _ = write!(
            out,
            r##"<g class="barbed-wire" data-square="{sq}"><title>barbed wire {sq}</title>"##
        );
        wire_icon(out, x + SQUARE_PX / 2, y + SQUARE_PX / 2, SQUARE_PX / 2 - 6);
        out.push_str("</g>\n");
        items.push(start..out.len());
    }
    for sq in &m.minefields {
        let start = out.len();
        let (x, y) = origin(*sq);
        let _ = write!(
            out,
            r##"<g class="minefield" data-square="{sq}"><title>minefield {sq}</title>"##
        );
        super::mines::icon(out, x + SQUARE_PX - 12, y + 12, 8);
        out.push_str("</g>\n");
        items.push(start..out.len());
    }
    out.push_str("</g>\n");
}

/// Barbed wire of half-width `r` centred at (cx, cy): two posts and a zigzag coil between.
pub(super) fn wire_icon(out: &mut String, cx: u32, cy: u32, r: u32) {
    let q = r / 2;
    let _ = write!(
        out,
        r##"<path d="M{},{} L{},{} L{},{} L{},{} L{},{}" fill="none" stroke="#4d4d4d" stroke-width="2"/><path d="M{},{} V{} M{},{} V{}" stroke="#6b4a2b" stroke-width="3"/>"##,
        cx - r,
        cy,
        cx - q,
        cy - q,
        cx,
        cy + q,
        cx + q,
        cy - q,
        cx + r,
        cy,
        cx - r,
        cy - q,
        cy + q,
        cx + r,
        cy - q,
        cy + q
    );
}

/// A strongpoint's swatch for the legend: a small sandbagged ring.
pub(super) fn strongpoint_swatch(out: &mut String, cx: u32, cy: u32, r: u32) {
    let _ = write!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" rx="3" fill="none" stroke="#8c7a55" stroke-width="3" stroke-dasharray="4 2"/>"##,
        cx - r,
        cy - r / 2 - 1,
        2 * r,
        r + 2
    );
}

/// A bunker: a grey concrete block over its two inside squares (under the counters, which stay
/// readable through its open middle) and a dark slit along the side it faces.
fn bunker(out: &mut String, b: &BunkerMark) {
    let [a, c] = b.squares;
    let (ax, ay) = origin(a);
    let (cx, cy) = origin(c);
    let (x, y) = (ax.min(cx) + 2, ay.min(cy) + 2);
    let w = ax.max(cx) + SQUARE_PX - 2 - x;
    let h = ay.max(cy) + SQUARE_PX - 2 - y;
    // The slit: a bar on the facing side, inset from the block's ends.
    let (sx, sy, sw, sh) = match b.facing.as_str() {
        "N" => (x + 8, y, w - 16, 5),
        "S" => (x + 8, y + h - 5, w - 16, 5),
        "E" => (x + w - 5, y + 8, 5, h - 16),
        _ => (x, y + 8, 5, h - 16),
    };
    let _ = write!(
        out,
        r##"<g class="bunker" data-square="{a}"><title>bunker {a}+{c} facing {f}</title><rect x="{x}" y="{y}" width="{w}" height="{h}" rx="2" fill="none" stroke="#7a7a7a" stroke-width="7"/><rect x="{sx}" y="{sy}" width="{sw}" height="{sh}" fill="#1e1e1e"/></g>"##,
        f = b.facing
    );
    out.push('\n');
}

/// A bunker's swatch for the legend: a small concrete block with its slit on top.
pub(super) fn bunker_swatch(out: &mut String, cx: u32, cy: u32, r: u32) {
    let _ = write!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#7a7a7a" stroke-width="3"/><rect x="{}" y="{}" width="{}" height="2" fill="#1e1e1e"/>"##,
        cx - r,
        cy - r / 2 - 1,
        2 * r,
        r + 2,
        cx - r / 2,
        cy - r / 2 - 2,
        r
    );
}
