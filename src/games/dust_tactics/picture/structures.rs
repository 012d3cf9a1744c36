//! Structures on the picture (004 "Structures"; R500): each square of a structure hatched as a
//! floor, and its entrances drawn on the wall line, doors brown and windows blue, a small entrance
//! as a shorter bar (less than one space wide). Part of the static layer.

use super::{Picture, MARGIN_PX, SQUARE_PX};
use crate::dust_tactics::model::Square;
use crate::dust_tactics::structures::{EntranceKind, EntranceSize};
use std::fmt::Write as _;

/// The floor's hatching colour, and the doors' and windows' (Okabe–Ito vermilion and blue, told
/// apart by shade under every colour-vision deficiency).
const FLOOR: &str = "#6b5a45";
const DOOR: &str = "#d55e00";
const WINDOW: &str = "#56b4e9";

fn origin(sq: Square) -> (u32, u32) {
    (
        MARGIN_PX + sq.col() as u32 * SQUARE_PX,
        MARGIN_PX + sq.row() as u32 * SQUARE_PX,
    )
}

/// The hatch pattern (in `<defs>` of the structures' group) and the floors, under the walls.
pub(super) fn floors(out: &mut String, pic: &Picture) {
    if pic.board.structures.is_empty() {
        return;
    }
    out.push_str("<g id=\"structures\">\n");
    let _ = writeln!(
        out,
        r##"<defs><pattern id="floor-hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><path d="M0,0 V8" stroke="{FLOOR}" stroke-width="2" stroke-opacity="0.45"/></pattern></defs>"##
    );
    for s in &pic.board.structures {
        let _ = write!(
            out,
            r##"<g class="structure" data-id="{}" data-kind="{}">"##,
            super::legend::text_content(&s.id, false),
            s.kind.name()
        );
        for sq in &s.squares {
            let (x, y) = origin(*sq);
            let _ = write!(
                out,
                r##"<rect x="{x}" y="{y}" width="{SQUARE_PX}" height="{SQUARE_PX}" fill="url(#floor-hatch)"/>"##
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
}

/// The entrances, over the walls.
pub(super) fn entrances(out: &mut String, pic: &Picture) {
    if pic.board.structures.is_empty() {
        return;
    }
    out.push_str("<g id=\"entrances\">\n");
    for s in &pic.board.structures {
        for e in &s.entrances {
            let (lo, hi) = (e.at.min(e.to), e.at.max(e.to));
            let (x, y) = origin(hi);
            // A small entrance is drawn half as wide, centred on the edge.
            let (inset, len) = match e.size {
                EntranceSize::Large => (4, SQUARE_PX - 8),
                EntranceSize::Small => (SQUARE_PX / 4, SQUARE_PX / 2),
            };
            let d = if lo.row() == hi.row() {
                format!("M{x},{} V{}", y + inset, y + inset + len)
            } else {
                format!("M{},{y} H{}", x + inset, x + inset + len)
            };
            let colour = match e.kind {
                EntranceKind::Window => WINDOW,
                EntranceKind::Door | EntranceKind::BackDoor => DOOR,
            };
            let _ = writeln!(
                out,
                r##"<path class="entrance" data-edge="{lo}|{hi}" data-kind="{}" d="{d}" stroke="{colour}" stroke-width="6"/>"##,
                e.kind.name()
            );
        }
    }
    out.push_str("</g>\n");
}

/// The legend's swatches: a hatched floor square at (x, y), an entrance bar centred at (cx, cy).
pub(super) fn floor_swatch(out: &mut String, x: u32, y: u32) {
    let _ = write!(
        out,
        r##"<rect x="{x}" y="{y}" width="16" height="16" fill="#ece4cc" stroke="#777" stroke-width="1"/><path d="M{},{} L{},{} M{},{} L{},{}" stroke="{FLOOR}" stroke-width="2" stroke-opacity="0.6"/>"##,
        x,
        y + 8,
        x + 8,
        y,
        x + 8,
        y + 16,
        x + 16,
        y + 8
    );
}

pub(super) fn entrance_swatch(out: &mut String, cx: u32, cy: u32, window: bool) {
    let colour = if window { WINDOW } else { DOOR };
    let _ = write!(
        out,
        r##"<path d="M{},{cy} H{}" stroke="{colour}" stroke-width="6"/>"##,
        cx - 8,
        cx + 8
    );
}
