//! The legend under the board, and the text escaping every label goes through.

use super::labels::counter_labels;
use super::marks::{entry_swatch, objective_icon, wall_swatch};
use super::svg::{cover_icon, star, terrain_fill, terrain_symbol, unit_shape, wreck, Layout};
use super::svg::{LEGEND_CHAR_W, LEGEND_PAD, LEGEND_TEXT_X};
use super::{side_colours, Picture, SideColours, FONT_EXTRA};
use crate::dust_tactics::model::{CoverKind, Terrain, UnitType};
use crate::dust_tactics::structures::EntranceKind;
use std::fmt::Write as _;

/// One entry of the legend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum LegendItem {
    Side(usize),
    /// A unit type's counter shape.
    Shape(UnitType),
    /// "abbreviation = id" for a counter whose id is too long to write on it.
    Abbreviation(String, String),
    JoinedHero,
    Activated,
    Movement,
    Hit,
    Miss,
    /// A line of fire's number and what fired (issue 16 item 5).
    FireKey(usize, String),
    Destroyed,
    Terrain(Terrain),
    Cover(CoverKind),
    /// A side's entry zone, by the side's index.
    Entry(usize),
    Wall,
    /// 004 "Structures": a structure's floor, its doors, its windows.
    Structure,
    Door,
    Window,
    Objective,
    /// 004 "Minefields" (R480).
    Minefield,
    /// 002 "Trenches" (R717).
    Trench,
    /// 004 underground: an end of a link between two boards (R630).
    TravelLink,
    /// 002 "Barbed Wire Entanglements", "Minefields", "Bunkers and Strongpoints" (R727).
    BarbedWire,
    Mined,
    Strongpoint,
    /// 002 "Bunkers and Strongpoints" (R784).
    Bunker,
}

/// Only what the picture shows, in a fixed order.
pub(super) fn legend_items(pic: &Picture) -> Vec<LegendItem> {
    let sides = pic.side_order();
    let mut items: Vec<LegendItem> = (0..sides.len()).map(LegendItem::Side).collect();
    for t in [UnitType::Squad, UnitType::Hero, UnitType::Vehicle] {
        if pic.units.iter().any(|u| u.unit_type == t) {
            items.push(LegendItem::Shape(t));
        }
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
    for (f, n) in pic.fire.iter().zip(super::fire_keys::fire_numbers(pic)) {
        if let Some(n) = n {
            items.push(LegendItem::FireKey(n, f.label.clone()));
        }
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
        Terrain::Swamp,
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
    for (index, side) in sides.iter().enumerate() {
        if pic
            .entry
            .iter()
            .any(|z| z.side == *side && !z.squares.is_empty())
        {
            items.push(LegendItem::Entry(index));
        }
    }
    if pic.board.walls().next().is_some() {
        items.push(LegendItem::Wall);
    }
    let entrances = || pic.board.structures.iter().flat_map(|s| &s.entrances);
    if !pic.board.structures.is_empty() {
        items.push(LegendItem::Structure);
    }
    if entrances().any(|e| e.kind != EntranceKind::Window) {
        items.push(LegendItem::Door);
    }
    if entrances().any(|e| e.kind == EntranceKind::Window) {
        items.push(LegendItem::Window);
    }
    if !pic.objectives.is_empty() {
        items.push(LegendItem::Objective);
    }
    if !pic.board.mines.is_empty() {
        items.push(LegendItem::Minefield);
    }
    if !pic.trenches.is_empty() {
        items.push(LegendItem::Trench);
    }
    if !pic.travel_links.is_empty() {
        items.push(LegendItem::TravelLink);
    }
    items.extend(super::fortifications::legend_items(pic));
    let mut seen: Vec<&str> = Vec::new();
    for (u, (short, abbreviated)) in pic.units.iter().zip(counter_labels(pic)) {
        if abbreviated && !seen.contains(&u.label.as_str()) {
            seen.push(&u.label);
            items.push(LegendItem::Abbreviation(short, u.label.clone()));
        }
    }
    items
}

/// The text of each legend item, whole: the layout gives a long one more room instead of
/// cutting it (issue 16 item 5). Only a side name wider than the whole picture is shortened.
pub(super) fn legend_labels(pic: &Picture, items: &[LegendItem]) -> Vec<String> {
    let sides = pic.side_order();
    let width = 2 * super::MARGIN_PX + pic.board.width() as u32 * super::SQUARE_PX;
    let room = ((width.saturating_sub(2 * LEGEND_PAD + LEGEND_TEXT_X)) / LEGEND_CHAR_W).max(8);
    let room = room as usize;
    let side_name = |index: usize| -> String {
        let name = sides.get(index).map(String::as_str).unwrap_or("?");
        if name.chars().count() > room {
            name.chars().take(room - 1).chain(['…']).collect()
        } else {
            name.to_string()
        }
    };
    items
        .iter()
        .map(|item| match item {
            LegendItem::Side(index) => {
                let ours = pic.ours.as_deref() == sides.get(*index).map(String::as_str);
                let name = side_name(*index);
                if ours {
                    format!("{name} (you)")
                } else {
                    name
                }
            }
            LegendItem::Shape(t) => match t {
                UnitType::Squad => "squad",
                UnitType::Hero => "hero",
                UnitType::Vehicle => "vehicle",
            }
            .to_string(),
            LegendItem::Abbreviation(short, full) => format!("{short} = {full}"),
            LegendItem::JoinedHero => "hero joined".to_string(),
            LegendItem::Activated => "activated".to_string(),
            LegendItem::Movement => "moved".to_string(),
            LegendItem::Hit => "fire: hit".to_string(),
            LegendItem::Miss => "fire: missed".to_string(),
            LegendItem::FireKey(_, label) => label.clone(),
            LegendItem::Destroyed => "destroyed".to_string(),
            LegendItem::Terrain(t) => match t {
                Terrain::Open => "open",
                Terrain::Impassable => "impassable",
                Terrain::DeepWater => "deep water",
                Terrain::Rubble => "rubble",
                Terrain::Smoke => "smoke",
                Terrain::Trees => "trees",
                Terrain::Swamp => "swamp",
            }
            .to_string(),
            LegendItem::Cover(kind) => cover_name(*kind).to_string(),
            LegendItem::Entry(index) => format!("{} entry", side_name(*index)),
            LegendItem::Wall => "wall".to_string(),
            LegendItem::Structure => "structure".to_string(),
            LegendItem::Door => "door".to_string(),
            LegendItem::Window => "window".to_string(),
            LegendItem::Objective => "objective".to_string(),
            LegendItem::Minefield => "minefield (tokens)".to_string(),
            LegendItem::Trench => "trench".to_string(),
            LegendItem::TravelLink => "travel link (1 action to its number)".to_string(),
            LegendItem::BarbedWire => "barbed wire".to_string(),
            LegendItem::Mined => "minefield".to_string(),
            LegendItem::Strongpoint => "strongpoint".to_string(),
            LegendItem::Bunker => "bunker (slit on its facing side)".to_string(),
        })
        .collect()
}

pub(super) fn legend(
    out: &mut String,
    pic: &Picture,
    layout: &Layout,
    text: &dyn Fn(&str) -> String,
) {
    let labels = legend_labels(pic, &layout.items);
    out.push_str(r##"<g id="legend" font-size="11" fill="#2a2a2a">"##);
    out.push('\n');
    for ((item, &(x, y)), label) in layout.items.iter().zip(&layout.slots).zip(&labels) {
        // Icon in a 16×16 box at (x, y+1); text after it.
        let (cx, cy) = (x + 8, y + 9);
        match item {
            LegendItem::Side(index) => {
                let SideColours { fill, rim, .. } = side_colours(*index);
                let _ = write!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="7" fill="{fill}" stroke="{rim}" stroke-width="2"/>"##
                );
            }
            LegendItem::Shape(t) => unit_shape(out, *t, cx, cy, 7, "#888", "#444", 2),
            LegendItem::Abbreviation(..) => {
                let _ = write!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="7" fill="#fff" stroke="#444" stroke-width="2"/>"##
                );
            }
            LegendItem::JoinedHero => star(out, cx, cy, 7),
            LegendItem::Activated => {
                let _ = write!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="7" fill="#888" stroke="#444" stroke-width="2" opacity="0.45"/>"##
                );
            }
            LegendItem::Movement => {
                let _ = write!(
                    out,
                    r##"<path d="M{},{cy} H{}" stroke="#1d1d1d" stroke-width="2" stroke-dasharray="3 2" marker-end="url(#arrow-move)"/>"##,
                    x - 2,
                    x + 14
                );
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
            }
            LegendItem::FireKey(n, _) => super::fire_keys::badge(out, cx as i64, cy as i64, 8, *n),
            LegendItem::Destroyed => wreck(out, cx, cy, 7),
            LegendItem::Terrain(t) => {
                let _ = write!(
                    out,
                    r##"<rect x="{x}" y="{}" width="16" height="16" fill="{}" stroke="#777" stroke-width="1"/>"##,
                    y + 1,
                    terrain_fill(*t)
                );
                terrain_symbol(out, cx, cy, *t, 3);
            }
            LegendItem::Cover(kind) => cover_icon(out, x + 1, y + 2, *kind),
            LegendItem::Entry(index) => entry_swatch(out, x, y + 1, side_colours(*index).fill),
            LegendItem::Wall => wall_swatch(out, cx, cy),
            LegendItem::Structure => super::structures::floor_swatch(out, x, y + 1),
            LegendItem::Door => super::structures::entrance_swatch(out, cx, cy, false),
            LegendItem::Window => super::structures::entrance_swatch(out, cx, cy, true),
            LegendItem::Objective => objective_icon(out, cx, cy, 7),
            LegendItem::Minefield => super::mines::icon(out, cx, cy, 5),
            LegendItem::Trench => super::trenches::icon(out, cx, cy, 7),
            LegendItem::TravelLink => super::travel::icon(out, cx, cy, 7, "1"),
            LegendItem::BarbedWire => super::fortifications::wire_icon(out, cx, cy, 7),
            LegendItem::Mined => super::mines::icon(out, cx, cy, 5),
            LegendItem::Strongpoint => super::fortifications::strongpoint_swatch(out, cx, cy, 7),
            LegendItem::Bunker => super::fortifications::bunker_swatch(out, cx, cy, 7),
        }
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}">{}</text>"##,
            x + LEGEND_TEXT_X,
            y + 13,
            text(label)
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
