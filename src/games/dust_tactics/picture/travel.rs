//! 004 "Fighting in the Metro"/"Sewers" on the picture (R630): each end of a link between the
//! two boards drawn as a numbered manhole in the square's top-left corner, the same number on
//! the entrance above and its space below.

use super::{Picture, MARGIN_PX, SQUARE_PX};
use std::fmt::Write as _;
use std::ops::Range;

/// Every link end, each drawn (and cached) as one item.
pub(super) fn draw(out: &mut String, pic: &Picture, items: &mut Vec<Range<usize>>) {
    if pic.travel_links.is_empty() {
        return;
    }
    out.push_str("<g id=\"travel\">\n");
    for (sq, n) in &pic.travel_links {
        let start = out.len();
        let cx = MARGIN_PX + sq.col() as u32 * SQUARE_PX + 11;
        let cy = MARGIN_PX + sq.row() as u32 * SQUARE_PX + 11;
        let _ = write!(
            out,
            r##"<g class="travel-link" data-square="{sq}"><title>travel link {n} on {sq}</title>"##
        );
        icon(out, cx, cy, 8, &n.to_string());
        out.push_str("</g>\n");
        items.push(start..out.len());
    }
    out.push_str("</g>\n");
}

/// A manhole of radius `r` centred at (cx, cy): a sky-blue disc edged in black, with `label`.
pub(super) fn icon(out: &mut String, cx: u32, cy: u32, r: u32, label: &str) {
    let _ = write!(
        out,
        r##"<circle cx="{cx}" cy="{cy}" r="{r}" fill="#56b4e9" stroke="#1b1b1b" stroke-width="2"/><text x="{cx}" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="#1b1b1b">{label}</text>"##,
        cy + r / 2,
        r + 2
    );
}
