//! The legend under the board, and the text escaping every label goes through.

use super::svg::{cover_icon, star, terrain_fill, terrain_symbol, wreck, Layout};
use super::svg::{LEGEND_ITEM_W, LEGEND_PAD, LEGEND_ROW_H};
use super::{side_colours, Picture, SideColours, FONT_EXTRA};
use crate::dust_tactics::model::{CoverKind, SideId, Terrain, UnitType};
use std::fmt::Write as _;

/// One entry of the legend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum LegendItem {
    Side(usize),
    Vehicle,
    JoinedHero,
    Activated,
    Movement,
    Hit,
    Miss,
    Destroyed,
    Terrain(Terrain),
    Cover(CoverKind),
}

/// Only what the picture shows, in a fixed order.
pub(super) fn legend_items(pic: &Picture) -> Vec<LegendItem> {
    let mut items: Vec<LegendItem> = (0..pic.side_order().len()).map(LegendItem::Side).collect();
    if pic.units.iter().any(|u| u.unit_type == UnitType::Vehicle) {
        items.push(LegendItem::Vehicle);
    }
    if pic.units.iter().any(|u| u.joined_hero) {
        items.push(LegendItem::JoinedHero);
    }
    if pic.units.iter().any(|u| u.activated) {
        items.push(LegendItem::Activated);
    }
    if pic.path.windows(2).any(|w| w[0] != w[1]) {
        items.push(LegendItem::Movement);
    }
    let real_fire = || pic.fire.iter().filter(|f| f.from != f.to);
    if real_fire().any(|f| f.hit) {
        items.push(LegendItem::Hit);
    }
    if real_fire().any(|f| !f.hit) {
        items.push(LegendItem::Miss);
    }
    if !pic.destroyed.is_empty() {
        items.push(LegendItem::Destroyed);
    }
    for t in [
        Terrain::Open,
        Terrain::Impassable,
        Terrain::DeepWater,
        Terrain::Rubble,
        Terrain::Smoke,
        Terrain::Trees,
    ] {
        if pic.board.squares().any(|sq| pic.board.terrain(sq) == t) {
            items.push(LegendItem::Terrain(t));
        }
    }
    for kind in [CoverKind::AmmoCrate, CoverKind::TankTrap] {
        if pic.board.cover.values().any(|c| c.kind == kind) {
            items.push(LegendItem::Cover(kind));
        }
    }
    items
}

pub(super) fn legend(
    out: &mut String,
    pic: &Picture,
    layout: &Layout,
    sides: &[SideId],
    text: &dyn Fn(&str) -> String,
) {
    out.push_str(r##"<g id="legend" font-size="11" fill="#2a2a2a">"##);
    out.push('\n');
    for (i, item) in layout.items.iter().enumerate() {
        let i = i as u32;
        let x = LEGEND_PAD + (i % layout.legend_cols) * LEGEND_ITEM_W;
        let y = layout.legend_y + (i / layout.legend_cols) * LEGEND_ROW_H;
        // Icon in a 16×16 box at (x, y+1); text after it.
        let (cx, cy) = (x + 8, y + 9);
        let label: String = match item {
            LegendItem::Side(index) => {
                let SideColours { fill, rim } = side_colours(*index);
                let _ = write!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="7" fill="{fill}" stroke="{rim}" stroke-width="2"/>"##
                );
                let name = sides.get(*index).map(String::as_str).unwrap_or("?");
                let ours = pic.ours.as_deref() == Some(name);
                // About 14 characters fit before the next legend column.
                let room = if ours { 8 } else { 14 };
                let name: String = if name.chars().count() > room {
                    name.chars().take(room - 1).chain(['…']).collect()
                } else {
                    name.to_string()
                };
                if ours {
                    format!("{name} (you)")
                } else {
                    name
                }
            }
            LegendItem::Vehicle => {
                let _ = write!(
                    out,
                    r##"<rect x="{}" y="{}" width="14" height="14" rx="3" fill="#888" stroke="#444" stroke-width="2"/>"##,
                    cx - 7,
                    cy - 7
                );
                "vehicle".to_string()
            }
            LegendItem::JoinedHero => {
                star(out, cx, cy, 7);
                "hero joined".to_string()
            }
            LegendItem::Activated => {
                let _ = write!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="7" fill="#888" stroke="#444" stroke-width="2" opacity="0.45"/>"##
                );
                "activated".to_string()
            }
            LegendItem::Movement => {
                let _ = write!(
                    out,
                    r##"<path d="M{},{cy} H{}" stroke="#1d1d1d" stroke-width="2" stroke-dasharray="3 2" marker-end="url(#arrow-move)"/>"##,
                    x - 2,
                    x + 14
                );
                "moved".to_string()
            }
            LegendItem::Hit | LegendItem::Miss => {
                let dash = if *item == LegendItem::Miss {
                    r##" stroke-dasharray="3 2""##
                } else {
                    ""
                };
                let _ = write!(
                    out,
                    r##"<path d="M{},{cy} H{}" stroke="#e01b1b" stroke-width="2"{dash} marker-end="url(#arrow-fire)"/>"##,
                    x - 2,
                    x + 14
                );
                if *item == LegendItem::Hit {
                    "fire: hit"
                } else {
                    "fire: missed"
                }
                .to_string()
            }
            LegendItem::Destroyed => {
                wreck(out, cx, cy, 7);
                "destroyed".to_string()
            }
            LegendItem::Terrain(t) => {
                let _ = write!(
                    out,
                    r##"<rect x="{x}" y="{}" width="16" height="16" fill="{}" stroke="#777" stroke-width="1"/>"##,
                    y + 1,
                    terrain_fill(*t)
                );
                terrain_symbol(out, cx, cy, *t, 3);
                match t {
                    Terrain::Open => "open",
                    Terrain::Impassable => "impassable",
                    Terrain::DeepWater => "deep water",
                    Terrain::Rubble => "rubble",
                    Terrain::Smoke => "smoke",
                    Terrain::Trees => "trees",
                }
                .to_string()
            }
            LegendItem::Cover(kind) => {
                cover_icon(out, x + 1, y + 2, *kind);
                cover_name(*kind).to_string()
            }
        };
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}">{}</text>"##,
            x + 22,
            y + 13,
            text(&label)
        );
    }
    out.push_str("</g>\n");
}

pub(super) fn cover_name(kind: CoverKind) -> &'static str {
    match kind {
        CoverKind::AmmoCrate => "ammo crate",
        CoverKind::TankTrap => "tank trap",
    }
}

/// Escapes text for XML, drops characters XML cannot hold, and (for the PNG) replaces those the
/// embedded fonts lack with `?`.
pub(super) fn text_content(s: &str, font_safe: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() || matches!(c, '\u{FFFE}' | '\u{FFFF}') => out.push(' '),
            c if font_safe && !(c.is_ascii() || FONT_EXTRA.contains(&c)) => out.push('?'),
            c => out.push(c),
        }
    }
    out
}
