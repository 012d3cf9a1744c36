//! The scenario on the board (issue 16 item 2): entry zones, walls and objectives. They never
//! change during a game, so they are drawn in the static layer (cached with the terrain).

use super::{side_colours, square_centre, Picture, MARGIN_PX, SQUARE_PX};
use crate::dust_tactics::model::Square;
use std::fmt::Write as _;

/// The walls' colour: dark, so it reads as solid under every colour-vision deficiency.
pub(super) const WALL: &str = "#2b2118";
/// The objectives' ring and centre: Okabe–Ito yellow edged in black.
pub(super) const OBJECTIVE: &str = "#f0e442";
/// How strongly an entry zone tints its squares with the side's colour.
const ENTRY_OPACITY: &str = "0.3";

/// Entry zones, drawn over the terrain and under the grid: each square tinted with its side's
/// colour and edged inside with a dashed line of it.
pub(super) fn entry_zones(out: &mut String, pic: &Picture) {
    if pic.entry.iter().all(|z| z.squares.is_empty()) {
        return;
    }
    let sides = pic.side_order();
    out.push_str("<g id=\"entry-zones\">\n");
    for zone in &pic.entry {
        let index = sides.iter().position(|s| *s == zone.side).unwrap_or(0);
        let fill = side_colours(index).fill;
        for sq in &zone.squares {
            let (x, y) = origin(*sq);
            let _ = writeln!(
                out,
                r##"<g class="entry-zone" data-side="{}" data-square="{sq}"><rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{fill}" fill-opacity="{ENTRY_OPACITY}"/><rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{fill}" stroke-width="2" stroke-dasharray="6 4"/></g>"##,
                super::legend::text_content(&zone.side, false),
                x + 4,
                y + 4,
                SQUARE_PX - 8,
                SQUARE_PX - 8,
                s = SQUARE_PX,
            );
        }
    }
    out.push_str("</g>\n");
}

/// Walls, over the grid: a thick dark bar on the edge between the two squares.
pub(super) fn walls(out: &mut String, pic: &Picture) {
    let walls: Vec<(Square, Square)> = pic.board.walls().collect();
    if walls.is_empty() {
        return;
    }
    out.push_str("<g id=\"walls\">\n");
    for (a, b) in walls {
        let (lo, hi) = if (a.row(), a.col()) <= (b.row(), b.col()) {
            (a, b)
        } else {
            (b, a)
        };
        let (x, y) = origin(hi);
        // Same row: the edge is the left side of the right square; else the top of the lower one.
        let d = if lo.row() == hi.row() {
            format!("M{x},{y} V{}", y + SQUARE_PX)
        } else {
            format!("M{x},{y} H{}", x + SQUARE_PX)
        };
        let _ = writeln!(
            out,
            r##"<g class="wall" data-edge="{lo}|{hi}"><path d="{d}" stroke="{WALL}" stroke-width="8" stroke-linecap="square"/><path d="{d}" stroke="#8c7b62" stroke-width="2" stroke-dasharray="5 5"/></g>"##
        );
    }
    out.push_str("</g>\n");
}

/// Objectives, over the walls: a yellow ring round the square (visible round a counter standing
/// on it) and a yellow centre.
pub(super) fn objectives(out: &mut String, pic: &Picture) {
    if pic.objectives.is_empty() {
        return;
    }
    out.push_str("<g id=\"objectives\">\n");
    for sq in &pic.objectives {
        let (cx, cy) = square_centre(*sq);
        let _ = write!(out, r##"<g class="objective" data-square="{sq}">"##);
        objective_icon(out, cx, cy, SQUARE_PX / 2 - 3);
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
}

/// The objective's ring of radius `r` and its centre.
pub(super) fn objective_icon(out: &mut String, cx: u32, cy: u32, r: u32) {
    let inner = (r / 3).max(3);
    let _ = write!(
        out,
        r##"<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="#1b1b1b" stroke-width="{w}"/><circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="{OBJECTIVE}" stroke-width="{n}"/><circle cx="{cx}" cy="{cy}" r="{inner}" fill="{OBJECTIVE}" stroke="#1b1b1b" stroke-width="2"/>"##,
        w = (r / 4).max(3),
        n = (r / 8).max(1),
    );
}

/// The legend's swatch of an entry zone, a 16 px square at (x, y).
pub(super) fn entry_swatch(out: &mut String, x: u32, y: u32, fill: &str) {
    let _ = write!(
        out,
        r##"<rect x="{x}" y="{y}" width="16" height="16" fill="#ece4cc"/><rect x="{x}" y="{y}" width="16" height="16" fill="{fill}" fill-opacity="{ENTRY_OPACITY}" stroke="{fill}" stroke-width="2" stroke-dasharray="3 2"/>"##
    );
}

/// The legend's swatch of a wall, a 16 px bar centred at (cx, cy).
pub(super) fn wall_swatch(out: &mut String, cx: u32, cy: u32) {
    let _ = write!(
        out,
        r##"<path d="M{},{cy} H{}" stroke="{WALL}" stroke-width="6"/>"##,
        cx - 8,
        cx + 8
    );
}

fn origin(sq: Square) -> (u32, u32) {
    (
        MARGIN_PX + sq.col() as u32 * SQUARE_PX,
        MARGIN_PX + sq.row() as u32 * SQUARE_PX,
    )
}
