//! 002 "Trenches" on the picture (battlefront-2013, R295, R717): each trench square drawn as a
//! dug-out band across the square, under the counters, named in the legend.

use super::{Picture, MARGIN_PX, SQUARE_PX};
use std::fmt::Write as _;
use std::ops::Range;

/// Every trench square, each drawn (and cached) as one item.
pub(super) fn draw(out: &mut String, pic: &Picture, items: &mut Vec<Range<usize>>) {
    if pic.trenches.is_empty() {
        return;
    }
    out.push_str("<g id=\"trenches\">\n");
    for sq in &pic.trenches {
        let start = out.len();
        let x = MARGIN_PX + sq.col() as u32 * SQUARE_PX;
        let y = MARGIN_PX + sq.row() as u32 * SQUARE_PX;
        let _ = write!(
            out,
            r##"<g class="trench" data-square="{sq}"><title>trench {sq}</title>"##
        );
        icon(out, x + SQUARE_PX / 2, y + SQUARE_PX / 2, SQUARE_PX / 2 - 4);
        out.push_str("</g>\n");
        items.push(start..out.len());
    }
    out.push_str("</g>\n");
}

/// A trench of half-width `r` centred at (cx, cy): a dark earth band with sandbag edges.
pub(super) fn icon(out: &mut String, cx: u32, cy: u32, r: u32) {
    let h = (r / 2).max(3);
    let _ = write!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" rx="2" fill="#5a4632" stroke="#c8b48c" stroke-width="2" stroke-dasharray="4 2"/>"##,
        cx - r,
        cy - h / 2,
        2 * r,
        h
    );
}
