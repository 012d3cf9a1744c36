//! The map picture's SVG document: title, cells, arrows and bursts, legend.

use super::raster::FONT;
use super::{owner_colours, AreaMark, MapEvent, MapPicture};
use super::{CELL_H, CELL_W, GAP, LEGEND_H, MARGIN};
use crate::games::dust_strategy::model::Unit;
use std::fmt::Write as _;

const BACKGROUND: &str = "#f7f3ea";
const LAND: &str = "#e6d9ba";
const SEA: &str = "#a9cbe4";
const EDGE: &str = "#7d735e";
const INK: &str = "#1b1b1b";
/// Longest name line drawn beside the marks, in characters of the 9 px font.
const NAME_LINE: usize = 10;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

pub(super) fn render(pic: &MapPicture) -> String {
    let (w, h) = pic.size();
    let mut out = String::with_capacity(64 * 1024);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}">"#
    );
    let _ = writeln!(
        out,
        r#"<rect x="0" y="0" width="{w}" height="{h}" fill="{BACKGROUND}"/>"#
    );
    let mut title = format!("dust-strategy · map {}", pic.map);
    if pic.provisional {
        title.push_str(" (PROVISIONAL, authored)");
    }
    let _ = write!(title, " · round {} · {}", pic.round, pic.phase);
    let _ = writeln!(
        out,
        r#"<text x="{MARGIN}" y="{}" font-size="14" font-weight="bold" fill="{INK}">{}</text>"#,
        MARGIN + 15,
        esc(&title)
    );
    for a in &pic.areas {
        ground(&mut out, pic, a);
    }
    // The links run over the cells' fills and under their names and units.
    super::links::draw(&mut out, pic);
    for a in &pic.areas {
        cell(&mut out, pic, a);
    }
    for e in &pic.events {
        event(&mut out, pic, e);
    }
    legend(&mut out, pic);
    out.push_str("</svg>\n");
    out
}

/// The id on one or two lines, split at the hyphen that makes the longer line shortest.
fn name_lines(id: &str) -> Vec<String> {
    if id.len() <= NAME_LINE {
        return vec![id.to_string()];
    }
    let best = id
        .match_indices('-')
        .map(|(i, _)| i + 1)
        .min_by_key(|&i| i.max(id.len() - i));
    match best {
        Some(i) => vec![id[..i].to_string(), id[i..].to_string()],
        None => vec![id.to_string()],
    }
}

/// A cell's fills: its kind, and its owner's colour inside.
fn ground(out: &mut String, pic: &MapPicture, a: &AreaMark) {
    let (x, y) = pic.cell_origin(a.cell);
    // Land cells are square-cornered, seas rounded; the outer band keeps the area's kind
    // visible when an owner's colour fills the inside.
    let (kind_fill, rx): (&str, u32) = if a.sea { (SEA, 14) } else { (LAND, 2) };
    let _ = writeln!(
        out,
        r#"<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" rx="{rx}" fill="{kind_fill}" stroke="{EDGE}" stroke-width="1"/>"#
    );
    if let Some(o) = &a.owner {
        let c = owner_colours(o);
        let _ = writeln!(
            out,
            r##"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{}" stroke="#4a4a4a" stroke-width="1"/>"##,
            x + 5,
            y + 5,
            CELL_W - 10,
            CELL_H - 10,
            rx.saturating_sub(4),
            c.fill
        );
    }
}

/// A cell's name, marks and units, over its fills.
fn cell(out: &mut String, pic: &MapPicture, a: &AreaMark) {
    let (x, y) = pic.cell_origin(a.cell);
    let ink = a.owner.as_deref().map_or(INK, |o| owner_colours(o).ink);
    for (i, line) in name_lines(&a.id).iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="9" fill="{ink}">{}</text>"#,
            x + 8,
            y + 15 + 10 * i as u32,
            esc(line)
        );
    }
    // Marks down the right edge: a capital's star or a VK deposit's badge, then a PC's.
    let mut my = y + 6;
    if a.capital {
        star(out, x + CELL_W - 14, my + 7);
        my += 16;
    }
    if a.vk {
        badge(out, x + CELL_W - 22, my, "VK");
        my += 14;
    }
    if a.pc {
        badge(out, x + CELL_W - 22, my, "PC");
    }
    for (i, (unit, n)) in a.units.iter().enumerate() {
        let i = i as u32;
        let ux = x + 7 + (i % 3) * 23;
        let cy = y + 36 + (i / 3) * 15;
        shape(out, *unit, ux, cy, ink);
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="10" font-weight="bold" fill="{ink}">{n}</text>"#,
            ux + 12,
            cy + 4
        );
    }
}

/// A unit type's shape, 10 px wide, its left edge at `x`, centred on `cy`.
fn shape(out: &mut String, unit: Unit, x: u32, cy: u32, fill: &str) {
    let _ = match unit {
        Unit::Tank => writeln!(
            out,
            r#"<rect x="{x}" y="{}" width="10" height="8" fill="{fill}"/>"#,
            cy - 4
        ),
        Unit::Robot => writeln!(
            out,
            r#"<circle cx="{}" cy="{cy}" r="5" fill="{fill}"/>"#,
            x + 5
        ),
        Unit::Fighter => writeln!(
            out,
            r#"<polygon points="{},{} {},{} {x},{}" fill="{fill}"/>"#,
            x + 5,
            cy - 5,
            x + 10,
            cy + 4,
            cy + 4
        ),
        Unit::Bomber => writeln!(
            out,
            r#"<polygon points="{},{} {},{cy} {},{} {x},{cy}" fill="{fill}"/>"#,
            x + 5,
            cy - 6,
            x + 10,
            x + 5,
            cy + 6
        ),
        Unit::Sub => writeln!(
            out,
            r#"<ellipse cx="{}" cy="{cy}" rx="6" ry="3" fill="{fill}"/>"#,
            x + 5
        ),
    };
}

fn points(cx: u32, cy: u32, offsets: &[(i32, i32)]) -> String {
    offsets
        .iter()
        .map(|(dx, dy)| format!("{},{}", cx as i32 + dx, cy as i32 + dy))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A capital: a five-pointed star, white edged in black (it shows on every owner's colour).
fn star(out: &mut String, cx: u32, cy: u32) {
    const STAR: [(i32, i32); 10] = [
        (0, -7),
        (2, -2),
        (7, -2),
        (3, 1),
        (4, 6),
        (0, 3),
        (-4, 6),
        (-3, 1),
        (-7, -2),
        (-2, -2),
    ];
    let _ = writeln!(
        out,
        r##"<polygon points="{}" fill="#ffffff" stroke="#000000" stroke-width="1"/>"##,
        points(cx, cy, &STAR)
    );
}

/// A VK deposit or a production centre: two letters on a white badge.
fn badge(out: &mut String, x: u32, y: u32, text: &str) {
    let _ = writeln!(
        out,
        r##"<rect x="{x}" y="{y}" width="16" height="11" rx="2" fill="#ffffff" stroke="#000000" stroke-width="1"/><text x="{}" y="{}" font-size="7" font-weight="bold" fill="#000000">{text}</text>"##,
        x + 2,
        y + 8
    );
}

/// A battle: an eight-pointed burst, white edged in black.
fn burst(out: &mut String, cx: u32, cy: u32) {
    const BURST: [(i32, i32); 16] = [
        (0, -11),
        (3, -4),
        (8, -8),
        (4, -2),
        (11, 0),
        (4, 2),
        (8, 8),
        (3, 4),
        (0, 11),
        (-3, 4),
        (-8, 8),
        (-4, 2),
        (-11, 0),
        (-4, -2),
        (-8, -8),
        (-3, -4),
    ];
    let _ = writeln!(
        out,
        r##"<polygon points="{}" fill="#ffffff" stroke="#000000" stroke-width="1.5"/>"##,
        points(cx, cy, &BURST)
    );
}

/// Where arrows start and end in a cell: its middle, between the name and the units.
fn anchor(pic: &MapPicture, id: &str) -> Option<(i64, i64)> {
    let a = pic.areas.iter().find(|a| a.id == id)?;
    let (x, y) = pic.cell_origin(a.cell);
    Some((i64::from(x + CELL_W / 2), i64::from(y + ANCHOR_Y)))
}

/// The anchor's height in its cell.
const ANCHOR_Y: u32 = 28;

/// How far along a line of `dx`, `dy` (length `len`) from the anchor the cell's edge is.
fn to_edge(dx: i64, dy: i64, len: i64) -> i64 {
    let w = i64::from(CELL_W / 2) * len / dx.abs().max(1);
    let h = i64::from(CELL_H - ANCHOR_Y) * len / dy.abs().max(1);
    w.min(h)
}

fn event(out: &mut String, pic: &MapPicture, e: &MapEvent) {
    let (from, to, dashed) = match e {
        MapEvent::Move { from, to, .. } => (from, to, false),
        MapEvent::Battle { from, to, .. } => (from, to, true),
    };
    let Some(b) = anchor(pic, to) else {
        return;
    };
    for f in from {
        if let Some(a) = anchor(pic, f) {
            arrow(out, pic, a, b, dashed);
        }
    }
    if dashed {
        // The burst sits on the target's lower right corner, clear of its name and most units.
        let (x, y) = (b.0 as u32 + CELL_W / 2, b.1 as u32 + CELL_H - ANCHOR_Y);
        burst(out, x - 5, y - 5);
    }
}

/// Arrows leave the origin's anchor this far out and stop this far inside the target's edge:
/// over the target's name line, not its units.
const START: i64 = 18;
const END: i64 = -10;

/// An arrow from the anchor `a` of a cell to the anchor `b` of another; one more than half the map away goes the
/// short way, across the east–west edge (the wrap), in two pieces.
fn arrow(out: &mut String, pic: &MapPicture, a: (i64, i64), b: (i64, i64), dashed: bool) {
    let span = i64::from(pic.columns * (CELL_W + GAP));
    let left = i64::from(MARGIN) - 2;
    let right = left + span;
    if (b.0 - a.0).abs() * 2 > span {
        // Where the line to the copy of `b` beyond the edge crosses it.
        let (b2, edge, back) = if b.0 > a.0 {
            ((b.0 - span, b.1), left, right)
        } else {
            ((b.0 + span, b.1), right, left)
        };
        let run = b2.0 - a.0;
        if run == 0 {
            return;
        }
        let y = a.1 + (b2.1 - a.1) * (edge - a.0) / run;
        let y = y.clamp(a.1.min(b.1), a.1.max(b.1));
        line(out, a, (edge, y), START, 0, dashed, false);
        line(out, (back, y), b, 0, END, dashed, true);
    } else {
        line(out, a, b, START, END, dashed, true);
    }
}

/// A line from `a` to `b`, shortened by `cut_a` and `cut_b` pixels, with an arrowhead at `b`'s
/// end when `head`; a white halo under it keeps it visible on every fill.
fn line(
    out: &mut String,
    a: (i64, i64),
    b: (i64, i64),
    cut_a: i64,
    cut_b: i64,
    dashed: bool,
    head: bool,
) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = ((dx * dx + dy * dy) as u64).isqrt() as i64;
    // A negative cut counts from the target cell's edge: stop that far inside it.
    let cut_b = if cut_b < 0 {
        (to_edge(dx, dy, len) + cut_b).max(12)
    } else {
        cut_b
    };
    if len <= cut_a + cut_b + 4 {
        return;
    }
    let at = |d: i64| (a.0 + dx * d / len, a.1 + dy * d / len);
    let (s, e) = (at(cut_a), at(len - cut_b));
    let dash = if dashed {
        r#" stroke-dasharray="6 4""#
    } else {
        ""
    };
    let _ = writeln!(
        out,
        r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#ffffff" stroke-width="6" stroke-linecap="round"/><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#000000" stroke-width="2.5"{dash}/>"##,
        s.0, s.1, e.0, e.1, s.0, s.1, e.0, e.1
    );
    if head {
        let base = at(len - cut_b - 10);
        let (px, py) = (-dy * 6 / len, dx * 6 / len);
        let _ = writeln!(
            out,
            r##"<polygon points="{},{} {},{} {},{}" fill="#000000" stroke="#ffffff" stroke-width="1"/>"##,
            e.0,
            e.1,
            base.0 + px,
            base.1 + py,
            base.0 - px,
            base.1 - py
        );
    }
}

fn legend(out: &mut String, pic: &MapPicture) {
    let (_, h) = pic.size();
    let top = h - MARGIN - LEGEND_H;
    // Line 1: the players, their colour and VP; then the turn order.
    let mut x = MARGIN;
    let y = top + 16;
    for (side, vp) in &pic.sides {
        let c = owner_colours(side);
        let _ = writeln!(
            out,
            r##"<rect x="{x}" y="{}" width="14" height="12" fill="{}" stroke="#4a4a4a" stroke-width="1"/>"##,
            y - 10,
            c.fill
        );
        let text = format!("{side} {vp} VP");
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{y}" font-size="11" fill="{INK}">{}</text>"#,
            x + 18,
            esc(&text)
        );
        x += 18 + 7 * text.len() as u32 + 14;
    }
    let order = if pic.order.is_empty() {
        "not drawn yet".to_string()
    } else {
        pic.order.join(", ")
    };
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{y}" font-size="11" fill="{INK}">turn order: {}</text>"#,
        x + 6,
        esc(&order)
    );
    // Line 2: the supremacies.
    let sup = ["production", "land", "sea"]
        .iter()
        .map(|k| {
            let held = pic
                .supremacy
                .iter()
                .find(|(s, _)| s == k)
                .map(|(_, h)| h.as_str())
                .unwrap_or("nobody");
            format!("{k} {held}")
        })
        .collect::<Vec<_>>()
        .join(" · ");
    let _ = writeln!(
        out,
        r#"<text x="{MARGIN}" y="{}" font-size="11" fill="{INK}">supremacy: {}</text>"#,
        y + 20,
        esc(&sup)
    );
    // Line 2, on the right: what the links look like.
    super::links::legend(out, 420, y + 20);
    // Line 3: what the shapes and marks mean.
    let y = y + 42;
    let mut x = MARGIN;
    for (unit, label) in [
        (Unit::Tank, "tank"),
        (Unit::Robot, "robot"),
        (Unit::Fighter, "fighter"),
        (Unit::Bomber, "bomber"),
        (Unit::Sub, "sub"),
    ] {
        shape(out, unit, x + 2, y, INK);
        item(out, &mut x, y, 30 + 7 * label.len() as u32, label);
    }
    star(out, x + 7, y);
    item(out, &mut x, y, 80, "capital");
    badge(out, x, y - 6, "VK");
    item(out, &mut x, y, 90, "VK deposit");
    badge(out, x, y - 6, "PC");
    item(out, &mut x, y, 130, "production centre");
    let _ = writeln!(
        out,
        r##"<rect x="{x}" y="{}" width="14" height="12" fill="{LAND}" stroke="{EDGE}"/>"##,
        y - 6
    );
    item(out, &mut x, y, 50, "land");
    let _ = writeln!(
        out,
        r##"<rect x="{x}" y="{}" width="14" height="12" rx="5" fill="{SEA}" stroke="{EDGE}"/>"##,
        y - 6
    );
    item(out, &mut x, y, 44, "sea");
    // The arrows' own legend: the label after a 20 px arrow.
    let arrow_item = |out: &mut String, x: u32, dashed: bool, label: &str| {
        line(
            out,
            (i64::from(x), i64::from(y)),
            (i64::from(x + 22), i64::from(y)),
            0,
            0,
            dashed,
            true,
        );
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="11" fill="{INK}">{label}</text>"#,
            x + 28,
            y + 4
        );
    };
    arrow_item(out, x + 4, false, "move");
    arrow_item(out, x + 74, true, "attack");
    burst(out, x + 170, y);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="11" fill="{INK}">battle</text>"#,
        x + 186,
        y + 4
    );
}

/// One legend entry: its icon is already drawn at `x`; the label follows it.
fn item(out: &mut String, x: &mut u32, y: u32, width: u32, label: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="11" fill="{INK}">{label}</text>"#,
        *x + 18,
        y + 4
    );
    *x += width;
}
