//! The links between areas on the map picture (issue 14 item 5): land links solid brown, sea
//! links solid blue, coast links dashed (001's board draws them dashed), each from the edge of
//! one cell to the edge of the other, over the gap between them; a link across the east–west
//! edge (the wrap) leaves the picture on one side and comes back on the other, in two pieces.
//! One `<g data-link="A B">` a link, in the map's order.

use super::{LinkMark, MapPicture, CELL_H, CELL_W, GAP, MARGIN};
use std::fmt::Write as _;

const LAND_LINK: &str = "#7a5a2e";
const SEA_LINK: &str = "#1f5fa8";

/// The centre of an area's cell.
fn centre(pic: &MapPicture, id: &str) -> Option<(i64, i64)> {
    let a = pic.areas.iter().find(|a| a.id == id)?;
    let (x, y) = pic.cell_origin(a.cell);
    Some((i64::from(x + CELL_W / 2), i64::from(y + CELL_H / 2)))
}

/// How far from a cell's centre, along a line of `dx`, `dy` (length `len`), its edge is.
fn edge(dx: i64, dy: i64, len: i64) -> i64 {
    let w = i64::from(CELL_W / 2) * len / dx.abs().max(1);
    let h = i64::from(CELL_H / 2) * len / dy.abs().max(1);
    w.min(h)
}

/// A piece of a link from `a` to `b`, cut at a cell's edge at the ends marked `cut_a`, `cut_b`
/// (one pixel inside, so no hairline shows between the line and the cell).
fn piece(out: &mut String, a: (i64, i64), b: (i64, i64), cut: (bool, bool), style: &str) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = ((dx * dx + dy * dy) as u64).isqrt() as i64;
    if len == 0 {
        return;
    }
    let e = edge(dx, dy, len) - 1;
    let (from, to) = (if cut.0 { e } else { 0 }, if cut.1 { len - e } else { len });
    if to <= from {
        return;
    }
    let at = |d: i64| (a.0 + dx * d / len, a.1 + dy * d / len);
    let (s, t) = (at(from), at(to));
    let _ = write!(
        out,
        r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {style}/>"#,
        s.0, s.1, t.0, t.1
    );
}

/// A link's stroke: land brown, sea blue, coast dashed blue.
fn style(kind: &str) -> String {
    match kind {
        "land" => format!(r#"stroke="{LAND_LINK}" stroke-width="3""#),
        "coast" => format!(r#"stroke="{SEA_LINK}" stroke-width="3" stroke-dasharray="4 3""#),
        _ => format!(r#"stroke="{SEA_LINK}" stroke-width="3""#),
    }
}

fn link(out: &mut String, pic: &MapPicture, l: &LinkMark) {
    let (Some(a), Some(b)) = (centre(pic, &l.a), centre(pic, &l.b)) else {
        return;
    };
    let style = style(&l.kind);
    let _ = write!(
        out,
        r#"<g class="link link-{}" data-link="{} {}"{}>"#,
        l.kind,
        l.a,
        l.b,
        if l.wrap { r#" data-wrap="true""# } else { "" }
    );
    let span = i64::from(pic.columns * (CELL_W + GAP));
    if l.wrap && a.0 != b.0 {
        // To the copy of `b` beyond the edge, and from the copy of `a` beyond the other edge.
        let left = i64::from(MARGIN) - 2;
        let right = left + span;
        let (b2, a2, out_at, in_at) = if b.0 > a.0 {
            ((b.0 - span, b.1), (a.0 + span, a.1), left, right)
        } else {
            ((b.0 + span, b.1), (a.0 - span, a.1), right, left)
        };
        let y = |p: (i64, i64), q: (i64, i64), x: i64| p.1 + (q.1 - p.1) * (x - p.0) / (q.0 - p.0);
        piece(out, a, (out_at, y(a, b2, out_at)), (true, false), &style);
        piece(out, (in_at, y(a2, b, in_at)), b, (false, true), &style);
    } else {
        piece(out, a, b, (true, true), &style);
    }
    out.push_str("</g>\n");
}

/// Every link of the map, over the cells and under the moves and battles.
pub(super) fn draw(out: &mut String, pic: &MapPicture) {
    for l in &pic.links {
        link(out, pic, l);
    }
}

/// The links' legend: a short line of each kind and its label, from `x` on the text line `y`.
pub(super) fn legend(out: &mut String, x: u32, y: u32) {
    let mid = i64::from(y) - 4;
    let mut x = i64::from(x);
    for (kind, label) in [
        ("land", "land link"),
        ("sea", "sea link"),
        ("coast", "coast link"),
    ] {
        let style = style(kind);
        let _ = write!(
            out,
            r#"<line x1="{x}" y1="{mid}" x2="{}" y2="{mid}" {style}/>"#,
            x + 22
        );
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{y}" font-size="11" fill="#1b1b1b">{label}</text>"##,
            x + 28
        );
        x += 28 + 7 * label.len() as i64 + 16;
    }
    let _ = writeln!(
        out,
        r##"<text x="{x}" y="{y}" font-size="11" fill="#1b1b1b">off an edge: wraps east–west</text>"##
    );
}
