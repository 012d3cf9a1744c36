//! 004 "Minefields" on the picture (R480): a mine icon in the top-right corner of each mined
//! square with its token count, in the dynamic layer (an Engineer Vehicle clears them, R483).

use super::{Picture, MARGIN_PX, SQUARE_PX};
use std::fmt::Write as _;
use std::ops::Range;

/// The tokens of every mined square, each drawn (and cached) as one item.
pub(super) fn draw(out: &mut String, pic: &Picture, items: &mut Vec<Range<usize>>) {
    if pic.board.mines.is_empty() {
        return;
    }
    out.push_str("<g id=\"mines\">\n");
    for (sq, n) in &pic.board.mines {
        let start = out.len();
        let x = MARGIN_PX + sq.col() as u32 * SQUARE_PX + SQUARE_PX - 12;
        let y = MARGIN_PX + sq.row() as u32 * SQUARE_PX + 12;
        let _ = write!(
            out,
            r##"<g class="minefield" data-square="{sq}"><title>minefield {sq}: {n} token{}</title>"##,
            if *n == 1 { "" } else { "s" }
        );
        icon(out, x, y, 8);
        let _ = write!(
            out,
            r##"<text x="{x}" y="{}" font-size="10" font-weight="bold" text-anchor="middle" fill="#ffffff">{n}</text></g>"##,
            y + 4
        );
        out.push('\n');
        items.push(start..out.len());
    }
    out.push_str("</g>\n");
}

/// A mine of radius `r` centred at (cx, cy): a dark disc with four prongs, edged in red.
pub(super) fn icon(out: &mut String, cx: u32, cy: u32, r: u32) {
    let p = r + r / 2;
    let _ = write!(
        out,
        r##"<path d="M{},{cy} H{} M{cx},{} V{}" stroke="#1b1b1b" stroke-width="2"/><circle cx="{cx}" cy="{cy}" r="{r}" fill="#3a2a1a" stroke="#d55e00" stroke-width="2"/>"##,
        cx - p,
        cx + p,
        cy - p,
        cy + p
    );
}
