//! Which weapon each line of fire is (issue 16 items 5 and 7): a small numbered badge on the
//! line, and the same number in the legend under the board with the unit, weapon and target.
//! A number keeps the board clear where a weapon's name would cover counters.

use super::{FireLine, Picture};
use std::fmt::Write as _;

/// The number shown on each line of `pic.fire` (1, 2, … in firing order), `None` for a line
/// that is not drawn (from its own square) or has no label (a picture made without names).
pub(super) fn fire_numbers(pic: &Picture) -> Vec<Option<usize>> {
    let mut n = 0;
    pic.fire
        .iter()
        .map(|f| {
            (keyed(f)).then(|| {
                n += 1;
                n
            })
        })
        .collect()
}

fn keyed(f: &FireLine) -> bool {
    f.from != f.to && !f.label.is_empty()
}

/// The numbered badge of radius `r` centred at (cx, cy): white, edged in the fire colour, the
/// number in bold black, readable when the 60 px squares are shown at 390 px.
pub(super) fn badge(out: &mut String, cx: i64, cy: i64, r: i64, n: usize) {
    let size = if n < 10 { r + 3 } else { r + 1 };
    let _ = write!(
        out,
        r##"<g class="weapon-key"><circle cx="{cx}" cy="{cy}" r="{r}" fill="#fff" stroke="#e01b1b" stroke-width="2.5"/><text x="{cx}" y="{}" font-size="{size}" font-weight="bold" fill="#1b1b1b" text-anchor="middle">{n}</text></g>"##,
        cy + size * 7 / 20,
    );
}
