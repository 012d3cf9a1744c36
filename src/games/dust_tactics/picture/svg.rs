//! The picture's SVG document: layout, board, counters, movement and fire.

use super::facing::LARGE2_GROWTH;
use super::labels::{counter_labels, label_size};
use super::legend::{cover_name, legend, legend_items, legend_labels, text_content, LegendItem};
use super::marks;
use super::{side_colours, square_centre, FireLine, Picture, SideColours, UnitMarker, FONT};
use super::{MARGIN_PX, SQUARE_PX};
use crate::dust_tactics::model::{CoverKind, Square, Terrain, UnitType};
use std::fmt::Write as _;
use std::ops::Range;

/// Where things go, in pixels.
pub(super) struct Layout {
    cols: u32,
    rows: u32,
    pub(super) width: u32,
    pub(super) height: u32,
    /// Top of the legend.
    pub(super) legend_y: u32,
    pub(super) items: Vec<LegendItem>,
    /// Top-left corner of each legend item; a long one takes several columns.
    pub(super) slots: Vec<(u32, u32)>,
}

pub(super) const LEGEND_ITEM_W: u32 = 130;
pub(super) const LEGEND_ROW_H: u32 = 22;
pub(super) const LEGEND_PAD: u32 = 10;
/// Where an item's text starts, after its 16 px icon.
pub(super) const LEGEND_TEXT_X: u32 = 22;
/// A generous width of one character of the legend's 11 px text, to lay items out.
pub(super) const LEGEND_CHAR_W: u32 = 7;

impl Layout {
    pub(super) fn new(pic: &Picture) -> Layout {
        let cols = pic.board.width() as u32;
        let rows = pic.board.height() as u32;
        let width = 2 * MARGIN_PX + cols * SQUARE_PX;
        let legend_y = 2 * MARGIN_PX + rows * SQUARE_PX;
        let items = legend_items(pic);
        let legend_cols = ((width - 2 * LEGEND_PAD) / LEGEND_ITEM_W).max(1);
        let labels = legend_labels(pic, &items);
        // Items fill the rows left to right; one whose text is wider than a column takes as
        // many columns as it needs (so no name is cut short) and starts a new row if they are
        // not left on this one.
        let (mut col, mut row) = (0u32, 0u32);
        let mut slots = Vec::with_capacity(items.len());
        for label in &labels {
            let need = LEGEND_TEXT_X + label.chars().count() as u32 * LEGEND_CHAR_W;
            let span = need.div_ceil(LEGEND_ITEM_W).clamp(1, legend_cols);
            if col > 0 && col + span > legend_cols {
                col = 0;
                row += 1;
            }
            slots.push((
                LEGEND_PAD + col * LEGEND_ITEM_W,
                legend_y + row * LEGEND_ROW_H,
            ));
            col += span;
            if col >= legend_cols {
                col = 0;
                row += 1;
            }
        }
        let legend_rows = row + u32::from(col > 0);
        let height = legend_y + legend_rows * LEGEND_ROW_H + LEGEND_PAD;
        Layout {
            cols,
            rows,
            width,
            height,
            legend_y,
            items,
            slots,
        }
    }
}

/// Renders the document; `font_safe` replaces characters the embedded fonts lack.
pub(super) fn render_svg(pic: &Picture, font_safe: bool) -> String {
    let layout = Layout::new(pic);
    let mut out = String::with_capacity(16 * 1024);
    svg_open(&mut out, &layout);
    static_layer(&mut out, pic, &layout);
    dynamic_layer(&mut out, pic, font_safe, &mut Vec::new());
    legend_layer(&mut out, pic, &layout, font_safe);
    out.push_str("</svg>\n");
    out
}

/// The `<svg>` element and the arrowhead markers: every document (whole or layer) starts so, with
/// the same size, viewBox and font, so the layers draw exactly where the whole picture would.
pub(super) fn svg_open(out: &mut String, layout: &Layout) {
    let (w, h) = (layout.width, layout.height);
    // `write!` into a String cannot fail; the results are ignored on purpose in this module.
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}, Verdana, Arial, sans-serif">"##
    );
    out.push_str(DEFS);
}

/// What depends on the board and the scenario alone: background, terrain, entry zones, grid,
/// walls, objectives, coordinates. Drawn first; the PNG keeps it rendered in the static layer
/// cache (`cache.rs`, keyed by this text).
pub(super) fn static_layer(out: &mut String, pic: &Picture, layout: &Layout) {
    background(out, layout);

    // Terrain, square by square.
    out.push_str("<g id=\"terrain\">\n");
    for sq in pic.board.squares() {
        terrain_square(out, sq, pic.board.terrain(sq));
    }
    out.push_str("</g>\n");

    marks::entry_zones(out, pic);
    super::structures::floors(out, pic);
    grid(out, layout);
    marks::walls(out, pic);
    super::structures::entrances(out, pic);
    marks::objectives(out, pic);
    coordinates(out, layout);
}

pub(super) fn background(out: &mut String, layout: &Layout) {
    let (w, h) = (layout.width, layout.height);
    let _ = writeln!(out, r##"<rect width="{w}" height="{h}" fill="#fbf8ef"/>"##);
}

/// What changes from step to step: cover, movement, units, wrecks, fire. Drawn over the static
/// layer, in this order, and only inside the board and its margins (never on the legend's rows).
///
/// `items` receives the byte range in `out` of each thing drawn (a cover element, the movement,
/// a counter, a wreck, a line of fire), which [`super::pixels`] draws and caches one by one.
pub(super) fn dynamic_layer(
    out: &mut String,
    pic: &Picture,
    font_safe: bool,
    items: &mut Vec<Range<usize>>,
) {
    let sides = pic.side_order();
    let text = |s: &str| text_content(s, font_safe);
    out.push_str("<g id=\"cover\">\n");
    for (sq, element) in &pic.board.cover {
        let start = out.len();
        // Top-left corner: a counter standing on the element leaves it visible.
        let (x, y) = square_origin(*sq);
        let (_, max) = element.kind.armour_health();
        let left = max.saturating_sub(element.damage);
        let _ = write!(
            out,
            "<g><title>{} {sq}: {left}/{max}</title>",
            cover_name(element.kind)
        );
        cover_icon(out, x + 3, y + 3, element.kind);
        if element.damage > 0 {
            // Damaged cover shows what is left, like a unit's health.
            let _ = write!(
                out,
                r##"<text x="{}" y="{}" font-size="9" font-weight="bold" fill="#7a1010">{left}/{max}</text>"##,
                x + 3,
                y + SQUARE_PX - 4
            );
        }
        out.push_str("</g>\n");
        items.push(start..out.len());
    }
    out.push_str("</g>\n");
    // 004 "Minefields": the tokens, over the terrain and cover, under the counters (R480).
    super::mines::draw(out, pic, items);
    // issue 18 hook: 002's trenches under battlefront-2013 (R717).
    super::trenches::draw(out, pic, items);
    // 004 underground: the links between the two boards (R630).
    super::travel::draw(out, pic, items);
    // 002's barbed wire, minefields and strongpoints (R727).
    super::fortifications::draw(out, pic, items);

    let start = out.len();
    movement(out, &pic.path);
    items.push(start..out.len());

    // issue 18 hook: battlefront-2013's fields of fire, under the counters.
    super::facing::fields(out, pic, items);

    out.push_str("<g id=\"units\">\n");
    let labels = counter_labels(pic);
    for (unit, (label, _)) in pic.units.iter().zip(&labels) {
        let index = sides.iter().position(|s| *s == unit.side).unwrap_or(0);
        // A large vehicle's counter is centred where its 4 squares meet (R570).
        let (cx, cy) = if unit.large {
            let (x, y) = square_origin(unit.square);
            (x + SQUARE_PX, y + SQUARE_PX)
        } else if let Some(rear) = unit.rear {
            // 003's Large vehicle: centred where its two squares meet (R772).
            let ((x0, y0), (x1, y1)) = (square_centre(unit.square), square_centre(rear));
            ((x0 + x1) / 2, (y0 + y1) / 2)
        } else {
            square_centre(unit.square)
        };
        // A unit above the ground floor (labelled `b@2`, `b@roof`) is drawn up and to the right,
        // so a unit directly below it on the same square still shows (R517).
        let (cx, cy) = if unit.label.contains('@') {
            (cx + SQUARE_PX / 4, cy - SQUARE_PX / 4)
        } else {
            (cx, cy)
        };
        let start = out.len();
        counter(out, unit, label, (cx, cy), side_colours(index), &text);
        items.push(start..out.len());
    }
    out.push_str("</g>\n");
    // issue 18 hook: battlefront-2013's facing marks, over the counters.
    super::facing::marks(out, pic, items);
    super::tokens::marks(out, pic, items);

    out.push_str("<g id=\"destroyed\">\n");
    for sq in &pic.destroyed {
        let (cx, cy) = square_centre(*sq);
        let start = out.len();
        wreck(out, cx, cy, 16);
        items.push(start..out.len());
    }
    out.push_str("</g>\n");

    // Fire goes over the counters so a line is never hidden under a unit it passes.
    out.push_str("<g id=\"fire\">\n");
    let numbers = super::fire_keys::fire_numbers(pic);
    for (i, (line, number)) in pic.fire.iter().zip(numbers).enumerate() {
        let start = out.len();
        let (nth, of) = parallel_rank(&pic.fire, i);
        fire_line(out, line, (nth, of), number);
        items.push(start..out.len());
    }
    out.push_str("</g>\n");
}

/// The legend, below the board's bottom margin: it names "(you)" and only what the picture shows,
/// so it changes with the recipient and the step, but it is drawn on the bare background only.
pub(super) fn legend_layer(out: &mut String, pic: &Picture, layout: &Layout, font_safe: bool) {
    let text = |s: &str| text_content(s, font_safe);
    legend(out, pic, layout, &text);
}

/// A destroyed unit's square: a dark red cross on a pale disc.
pub(super) fn wreck(out: &mut String, cx: u32, cy: u32, r: u32) {
    let _ = writeln!(
        out,
        r##"<g><circle cx="{cx}" cy="{cy}" r="{r}" fill="#fff" fill-opacity="0.7" stroke="#7a1010" stroke-width="2"/><path d="M{},{} L{},{} M{},{} L{},{}" stroke="#7a1010" stroke-width="3" stroke-linecap="round"/></g>"##,
        cx - r / 2,
        cy - r / 2,
        cx + r / 2,
        cy + r / 2,
        cx + r / 2,
        cy - r / 2,
        cx - r / 2,
        cy + r / 2
    );
}

/// Markers for arrowheads. `orient="auto"` turns them along the line, so no angles are computed.
const DEFS: &str = r##"<defs>
<marker id="arrow-move" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto" markerUnits="strokeWidth"><path d="M0,0 L10,5 L0,10 z" fill="#1d1d1d"/></marker>
<marker id="arrow-fire" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto" markerUnits="strokeWidth"><path d="M0,0 L10,5 L0,10 z" fill="#e01b1b"/></marker>
</defs>
"##;

fn square_origin(sq: Square) -> (u32, u32) {
    (
        MARGIN_PX + sq.col() as u32 * SQUARE_PX,
        MARGIN_PX + sq.row() as u32 * SQUARE_PX,
    )
}

pub(super) fn terrain_fill(t: Terrain) -> &'static str {
    match t {
        Terrain::Open => "#ece4cc",
        Terrain::Impassable => "#2e2e2e",
        // Okabe–Ito sky blue: lighter than the first side's blue counters.
        Terrain::DeepWater => "#56b4e9",
        Terrain::Rubble => "#b08a5e",
        Terrain::Smoke => "#bdbdbd",
        Terrain::Trees => "#5e9c48",
        // Okabe–Ito bluish green, muted: shallow water with reeds.
        Terrain::Swamp => "#8fb8a0",
    }
}

fn terrain_square(out: &mut String, sq: Square, t: Terrain) {
    let (x, y) = square_origin(sq);
    let s = SQUARE_PX;
    let _ = write!(
        out,
        r##"<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{}"/>"##,
        terrain_fill(t)
    );
    terrain_symbol(out, x + s / 2, y + s / 2, t, 1);
    out.push('\n');
}

/// The symbol printed at a square's centre: `shrink` 1 on the board, 3 (a third) in the legend.
pub(super) fn terrain_symbol(out: &mut String, cx: u32, cy: u32, t: Terrain, shrink: u32) {
    let k = |n: u32| n / shrink;
    match t {
        Terrain::Open => {
            let _ = write!(
                out,
                r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="#7d735a"/>"##,
                k(4).max(2)
            );
        }
        Terrain::Impassable => {
            // Hatching says "solid" even where a counter hides the centre.
            let (x0, y0) = (cx - k(24), cy - k(24));
            let s = k(48);
            let _ = write!(
                out,
                r##"<path d="M{x0},{y1} L{x1},{y0} M{x0},{y2} L{x2},{y0} M{x3},{y4} L{x4},{y3}" stroke="#4a4a4a" stroke-width="{sw}"/>"##,
                y1 = y0 + s / 2,
                x1 = x0 + s / 2,
                y2 = y0 + s,
                x2 = x0 + s,
                x3 = x0 + s / 2,
                y4 = y0 + s,
                x4 = x0 + s,
                y3 = y0 + s / 2,
                sw = k(2).max(1),
            );
        }
        Terrain::DeepWater => {
            // ▼ with a wave above and below it.
            let _ = write!(
                out,
                r##"<path d="M{a},{b} L{c},{b} L{cx},{d} z" fill="#dcecfa"/>"##,
                a = cx - k(8),
                c = cx + k(8),
                b = cy - k(5),
                d = cy + k(7),
            );
            for y in [cy - k(14), cy + k(14)] {
                let _ = write!(
                    out,
                    r##"<path d="M{x0},{y} q{q},-{a} {h},0 t{h},0 t{h},0 t{h},0" fill="none" stroke="#b9d8f2" stroke-width="{sw}"/>"##,
                    x0 = cx - k(16),
                    q = k(4),
                    a = k(4),
                    h = k(8),
                    sw = k(2).max(1),
                );
            }
        }
        Terrain::Rubble => {
            let (a, b) = (k(9), k(3));
            let _ = write!(
                out,
                r##"<path d="M{x0},{y0}h{w}v{a}h{a}v{w}h-{a}v{a}h-{w}v-{a}h-{a}v-{w}h{a}z" fill="#5c3f22"/>"##,
                x0 = cx - b,
                y0 = cy - a,
                w = 2 * b,
                a = a - b,
            );
        }
        Terrain::Smoke => {
            let a = k(10);
            let _ = write!(
                out,
                r##"<path d="M{cx},{t} L{r},{cy} L{cx},{bm} L{l},{cy} z" fill="#6f6f6f"/>"##,
                t = cy - a,
                r = cx + a,
                bm = cy + a,
                l = cx - a,
            );
        }
        Terrain::Trees => {
            let a = k(8);
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#24561a"/>"##,
                cx - a,
                cy - a,
                2 * a,
                2 * a
            );
        }
        Terrain::Swamp => {
            // Three reeds over a flat waterline.
            for x in [cx - k(8), cx, cx + k(8)] {
                let _ = write!(
                    out,
                    r##"<path d="M{x},{y0} L{x},{y1}" stroke="#2f5d46" stroke-width="{sw}"/>"##,
                    y0 = cy - k(8),
                    y1 = cy + k(6),
                    sw = k(2).max(1),
                );
            }
            let _ = write!(
                out,
                r##"<path d="M{x0},{y} L{x1},{y}" stroke="#dcecfa" stroke-width="{sw}"/>"##,
                x0 = cx - k(14),
                x1 = cx + k(14),
                y = cy + k(6),
                sw = k(2).max(1),
            );
        }
    }
}

/// Ammo crate and tank trap icons, 14 px, with their top-left corner at (x, y).
pub(super) fn cover_icon(out: &mut String, x: u32, y: u32, kind: CoverKind) {
    match kind {
        CoverKind::AmmoCrate => {
            let _ = write!(
                out,
                r##"<g><rect x="{x}" y="{y1}" width="14" height="10" rx="1" fill="#c8872e" stroke="#4f3410" stroke-width="1.5"/><path d="M{x1},{y1}v10 M{x2},{y1}v10" stroke="#4f3410" stroke-width="1.5"/></g>"##,
                y1 = y + 2,
                x1 = x + 5,
                x2 = x + 9,
            );
        }
        CoverKind::TankTrap => {
            // A Czech hedgehog: two crossed girders and a cross bar.
            let _ = write!(
                out,
                r##"<path d="M{x},{y} L{x2},{y2} M{x2},{y} L{x},{y2} M{x},{ym} H{x2}" stroke="#1b1b1b" stroke-width="3" stroke-linecap="round"/>"##,
                x2 = x + 14,
                y2 = y + 14,
                ym = y + 7,
            );
        }
    }
    out.push('\n');
}

fn grid(out: &mut String, layout: &Layout) {
    let (x0, y0) = (MARGIN_PX, MARGIN_PX);
    let (x1, y1) = (
        MARGIN_PX + layout.cols * SQUARE_PX,
        MARGIN_PX + layout.rows * SQUARE_PX,
    );
    let mut light = String::new();
    let mut heavy = String::new();
    for c in 1..layout.cols {
        let x = x0 + c * SQUARE_PX;
        let target = if c % 3 == 0 { &mut heavy } else { &mut light };
        let _ = write!(target, "M{x},{y0}V{y1}");
    }
    for r in 1..layout.rows {
        let y = y0 + r * SQUARE_PX;
        let target = if r % 3 == 0 { &mut heavy } else { &mut light };
        let _ = write!(target, "M{x0},{y}H{x1}");
    }
    let _ = writeln!(
        out,
        r##"<g id="grid" fill="none"><path d="{light}" stroke="#000" stroke-opacity="0.22" stroke-width="1"/><path d="{heavy}" stroke="#222" stroke-width="2.5"/><rect x="{x0}" y="{y0}" width="{w}" height="{h}" stroke="#222" stroke-width="3"/></g>"##,
        w = x1 - x0,
        h = y1 - y0,
    );
}

/// Column letters above and below, row numbers left and right (DESIGN §4).
fn coordinates(out: &mut String, layout: &Layout) {
    out.push_str(
        r##"<g id="coordinates" font-size="14" font-weight="bold" fill="#3a3a3a" text-anchor="middle">"##,
    );
    let bottom = 2 * MARGIN_PX + layout.rows * SQUARE_PX;
    for c in 0..layout.cols {
        let x = MARGIN_PX + c * SQUARE_PX + SQUARE_PX / 2;
        let letter = (b'A' + c as u8) as char;
        let _ = write!(
            out,
            r##"<text x="{x}" y="{}">{letter}</text><text x="{x}" y="{}">{letter}</text>"##,
            MARGIN_PX - 8,
            bottom - 8
        );
    }
    let right = 2 * MARGIN_PX + layout.cols * SQUARE_PX;
    for r in 0..layout.rows {
        let y = MARGIN_PX + r * SQUARE_PX + SQUARE_PX / 2 + 5;
        let n = r + 1;
        let _ = write!(
            out,
            r##"<text x="{}" y="{y}">{n}</text><text x="{}" y="{y}">{n}</text>"##,
            MARGIN_PX / 2,
            right - MARGIN_PX / 2
        );
    }
    out.push_str("</g>\n");
}

/// The last activation's path as a dashed polyline with an arrowhead at the end. The end is pulled
/// back to the edge of the counter standing there.
fn movement(out: &mut String, path: &[Square]) {
    let mut points: Vec<(i64, i64)> = Vec::new();
    for sq in path {
        let (x, y) = square_centre(*sq);
        let p = (x as i64, y as i64);
        if points.last() != Some(&p) {
            points.push(p);
        }
    }
    let (Some(&start), Some(&end), true) = (points.first(), points.last(), points.len() >= 2)
    else {
        return;
    };
    let before = points[points.len() - 2];
    let tip = pull_back(before, end, 27);
    let n = points.len();
    let mut d = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        let (x, y) = if i + 1 == n { tip } else { (*x, *y) };
        let _ = write!(d, "{}{x},{y}", if i == 0 { "M" } else { " L" });
    }
    let _ = writeln!(
        out,
        r##"<g id="movement"><circle cx="{}" cy="{}" r="5" fill="none" stroke="#1d1d1d" stroke-width="2.5"/><path d="{d}" fill="none" stroke="#fff" stroke-opacity="0.7" stroke-width="6" stroke-linejoin="round"/><path d="{d}" fill="none" stroke="#1d1d1d" stroke-width="3" stroke-dasharray="7 5" stroke-linejoin="round" marker-end="url(#arrow-move)"/></g>"##,
        start.0, start.1
    );
}

/// Which of the lines of fire between the same two squares (either way) line `i` is, and how
/// many there are: two weapon lines at one target are two lines side by side, never one
/// (issue 16 item 5).
fn parallel_rank(fire: &[FireLine], i: usize) -> (usize, usize) {
    let key = |f: &FireLine| (f.from.min(f.to), f.from.max(f.to));
    let k = key(&fire[i]);
    let nth = fire[..i].iter().filter(|f| key(f) == k).count();
    let of = fire.iter().filter(|f| key(f) == k).count();
    (nth, of)
}

/// Pixels between two lines of fire drawn side by side.
const FIRE_GAP: i64 = 9;

/// A line of fire from the attacker's counter edge to the target's; the `nth` of `of` lines
/// between the same squares is shifted sideways so each shows. A `number` is drawn as a badge on
/// the line, the `nth` of `of` at its own point along it so parallel lines' badges stand apart.
fn fire_line(out: &mut String, line: &FireLine, (nth, of): (usize, usize), number: Option<usize>) {
    let (fx, fy) = square_centre(line.from);
    let (tx, ty) = square_centre(line.to);
    let (from, to) = ((fx as i64, fy as i64), (tx as i64, ty as i64));
    if from == to {
        return;
    }
    // Perpendicular shift, in whole pixels, centred on the straight line.
    let shift = (2 * nth as i64 - (of as i64 - 1)) * FIRE_GAP / 2;
    let (from, to) = if shift == 0 {
        (from, to)
    } else {
        // The normal of the segment taken in the same direction for both ends of a pair, so
        // lines fired back the other way are shifted consistently.
        let (lo, hi) = if from <= to { (from, to) } else { (to, from) };
        let (dx, dy) = (hi.0 - lo.0, hi.1 - lo.1);
        let len = (dx * dx + dy * dy).unsigned_abs().isqrt().max(1) as i64;
        let (nx, ny) = (-dy * shift / len, dx * shift / len);
        ((from.0 + nx, from.1 + ny), (to.0 + nx, to.1 + ny))
    };
    let a = pull_back(to, from, 24);
    let b = pull_back(from, to, 25);
    let dash = if line.hit {
        ""
    } else {
        r##" stroke-dasharray="8 5""##
    };
    let _ = writeln!(
        out,
        r##"<g class="{}"><path d="M{},{} L{},{}" stroke="#fff" stroke-opacity="0.6" stroke-width="6"/><path d="M{},{} L{},{}" stroke="#e01b1b" stroke-width="3"{dash} marker-end="url(#arrow-fire)"/></g>"##,
        if line.hit { "fire-hit" } else { "fire-miss" },
        a.0,
        a.1,
        b.0,
        b.1,
        a.0,
        a.1,
        b.0,
        b.1,
    );
    if let Some(n) = number {
        let (k, parts) = (nth as i64 + 1, of as i64 + 1);
        let (cx, cy) = (a.0 + (b.0 - a.0) * k / parts, a.1 + (b.1 - a.1) * k / parts);
        super::fire_keys::badge(out, cx, cy, 9, n);
        out.push('\n');
    }
}

/// The point `by` pixels before `to` on the segment from `from`, in whole pixels (integer square
/// root: no floating point, same result on every machine). Short segments keep at least a third.
fn pull_back(from: (i64, i64), to: (i64, i64), by: i64) -> (i64, i64) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).unsigned_abs().isqrt() as i64;
    if len == 0 {
        return to;
    }
    let by = by.min(len * 2 / 3);
    (to.0 - dx * by / len, to.1 - dy * by / len)
}

/// Radius of a counter: 48 px across on a 60 px square.
const COUNTER_R: u32 = 24;

/// A unit counter whose shape tells the unit type (issue 16 item 7): a disc for a squad, a
/// pointed hexagon for a hero, a rounded square for a vehicle; `label` (the id, or its
/// abbreviation from the legend) and "left/max" written on it.
fn counter(
    out: &mut String,
    unit: &UnitMarker,
    label: &str,
    (cx, cy): (u32, u32),
    colours: SideColours,
    text: &dyn Fn(&str) -> String,
) {
    let SideColours {
        fill,
        rim,
        text: ink,
    } = colours;
    let dim = if unit.activated {
        r#" opacity="0.45""#
    } else {
        ""
    };
    let kind = match unit.unit_type {
        UnitType::Squad => "squad",
        UnitType::Hero => "hero",
        UnitType::Vehicle => "vehicle",
    };
    let _ = write!(
        out,
        r##"<g class="unit {kind}"{dim}><title>{}</title>"##,
        text(&format!(
            "{} ({}) {}/{}",
            unit.label, unit.side, unit.left, unit.max
        ))
    );
    let r = if unit.large {
        SQUARE_PX - COUNTER_R / 4
    } else if unit.rear.is_some() {
        // 003's Large vehicle: one counter a little larger, over its two squares (R772).
        COUNTER_R + LARGE2_GROWTH
    } else {
        COUNTER_R
    };
    unit_shape(out, unit.unit_type, cx, cy, r, fill, rim, 3);
    let size = label_size(label.chars().count());
    let _ = write!(
        out,
        r##"<text x="{cx}" y="{}" font-size="{size}" font-weight="bold" fill="{ink}" text-anchor="middle">{}</text>"##,
        cy - 1,
        text(label)
    );
    let _ = write!(
        out,
        r##"<text x="{cx}" y="{}" font-size="11" fill="{ink}" text-anchor="middle">{}/{}</text>"##,
        cy + 13,
        unit.left,
        unit.max
    );
    if unit.joined_hero {
        star(out, cx + r - 5, cy - r + 5, 8);
    }
    out.push_str("</g>\n");
}

/// The shape of a unit type, of radius `r`, centred at (cx, cy): also the legend's swatches.
#[allow(clippy::too_many_arguments)]
pub(super) fn unit_shape(
    out: &mut String,
    t: UnitType,
    cx: u32,
    cy: u32,
    r: u32,
    fill: &str,
    rim: &str,
    stroke: u32,
) {
    match t {
        UnitType::Vehicle => {
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{fill}" stroke="{rim}" stroke-width="{stroke}"/>"##,
                cx - r,
                cy - r,
                2 * r,
                2 * r,
                r / 3
            );
        }
        UnitType::Hero => {
            // Pointed top and bottom, flat sides: as wide as a disc where the label goes.
            let h = r / 2;
            let _ = write!(
                out,
                r##"<path d="M{cx},{} L{},{} L{},{} L{cx},{} L{},{} L{},{} z" fill="{fill}" stroke="{rim}" stroke-width="{stroke}" stroke-linejoin="round"/>"##,
                cy - r - 1,
                cx + r,
                cy - h,
                cx + r,
                cy + h + 2,
                cy + r + 1,
                cx - r,
                cy + h + 2,
                cx - r,
                cy - h,
            );
        }
        UnitType::Squad => {
            let _ = write!(
                out,
                r##"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="{rim}" stroke-width="{stroke}"/>"##
            );
        }
    }
}

/// A five-pointed gold star of outer radius `r` (points precomputed: no trigonometry).
pub(super) fn star(out: &mut String, cx: u32, cy: u32, r: u32) {
    // Unit star coordinates ×1000: outer points at 0°,72°.. from the top, inner at radius 0.4.
    const PTS: [(i64, i64); 10] = [
        (0, -1000),
        (235, -324),
        (951, -309),
        (380, 124),
        (588, 809),
        (0, 400),
        (-588, 809),
        (-380, 124),
        (-951, -309),
        (-235, -324),
    ];
    let mut d = String::new();
    for (i, (px, py)) in PTS.iter().enumerate() {
        let x = cx as i64 * 10 + px * r as i64 / 100;
        let y = cy as i64 * 10 + py * r as i64 / 100;
        let _ = write!(
            d,
            "{}{}.{},{}.{}",
            if i == 0 { "M" } else { " L" },
            tenths_int(x),
            x.rem_euclid(10),
            tenths_int(y),
            y.rem_euclid(10)
        );
    }
    let _ = write!(
        out,
        r##"<path d="{d} z" fill="#f2c230" stroke="#5a4300" stroke-width="1"/>"##
    );
}

/// Whole part of a value given in tenths, rounding towards minus infinity (pairs with rem_euclid).
fn tenths_int(v: i64) -> i64 {
    v.div_euclid(10)
}
