//! A scenario's sides and their units (`[[sides]]`, `[[sides.units]]`): ids, entry zones, units
//! placed at the start and heroes joined before the game (docs/scenarios.md).

use super::citation::RuleId;
use super::floors::{self, Height, Spot};
use super::model::{Board, Square, Terrain};
use super::scenario::{blocked, check_id, square_on, Ctx, ScenarioError, SideSpec, UnitSpec};
use super::structures::{structure_at, StructureKind};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSide {
    id: String,
    #[serde(default)]
    name: Option<String>,
    entry: RawEntry,
    #[serde(default)]
    units: Vec<RawUnit>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawEntry {
    #[serde(default)]
    squares: Vec<String>,
    /// Row numbers as printed (1 at the top).
    #[serde(default)]
    rows: Vec<u32>,
    /// Column letters as printed.
    #[serde(default)]
    columns: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawUnit {
    id: String,
    card: String,
    #[serde(default)]
    at: Option<String>,
    #[serde(default)]
    joins: Option<String>,
    #[serde(default)]
    player: Option<String>,
    #[serde(default)]
    aboard: Option<String>,
}

/// Reads the sides: at least two, each with its entry zone and units, unit ids unique across
/// sides, placed units on squares they can stand on, one a square. Returns the sides and their ids.
pub(super) fn read_sides(
    ctx: &Ctx,
    board: &Board,
    raw_sides: &[RawSide],
    rulesets: &[String],
) -> Result<(Vec<SideSpec>, BTreeSet<String>), ScenarioError> {
    // Sides.
    if raw_sides.len() < 2 {
        return Err(ctx.err(
            "sides",
            format!(
                "{} side(s) given: a scenario needs at least two [[sides]] tables",
                raw_sides.len()
            ),
        ));
    }
    let mut side_ids = BTreeSet::new();
    let mut unit_ids = BTreeSet::new();
    let mut occupied: BTreeMap<Spot, String> = BTreeMap::new();
    let mut entry_owner: BTreeMap<Square, String> = BTreeMap::new();
    let mut sides = Vec::new();
    for (si, s) in raw_sides.iter().enumerate() {
        let sf = format!("sides[{si}]");
        check_id(ctx, &format!("{sf}.id"), &s.id, "allies")?;
        if !side_ids.insert(s.id.clone()) {
            return Err(ctx.err(
                &format!("{sf}.id"),
                format!("side `{}` is given twice: give each side its own id", s.id),
            ));
        }
        let sf = format!("sides[{}]", s.id);
        let entry = entry_zone(ctx, &sf, board, &s.entry)?;
        for sq in &entry {
            if let Some(other) = entry_owner.insert(*sq, s.id.clone()) {
                return Err(ctx.err(
                    &format!("{sf}.entry"),
                    format!(
                        "{sq} is in the entry zones of both {other} and {}: give each \
                        side its own squares",
                        s.id
                    ),
                ));
            }
        }
        if s.units.is_empty() {
            return Err(ctx.err(
                &format!("{sf}.units"),
                "the side has no units: add [[sides.units]] tables with id and card",
            ));
        }
        let mut units = Vec::new();
        for (ui, u) in s.units.iter().enumerate() {
            let uf = format!("{sf}.units[{ui}]");
            check_id(ctx, &format!("{uf}.id"), &u.id, "rangers")?;
            let uf = format!("{sf}.units[{}]", u.id);
            if !unit_ids.insert(u.id.clone()) {
                return Err(ctx.err(
                    &format!("{uf}.id"),
                    format!(
                        "unit id `{}` is used twice: every unit needs its own id, e.g. `{}2`",
                        u.id, u.id
                    ),
                ));
            }
            let card_ok = !u.card.is_empty()
                && u.card
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
            if !card_ok {
                return Err(ctx.err(
                    &format!("{uf}.card"),
                    format!(
                        "`{}` is not a card id: use the card file's name, like `recon-rangers`",
                        u.card
                    ),
                ));
            }
            if let Some(p) = &u.player {
                check_id(ctx, &format!("{uf}.player"), p, "allies-1")?;
            }
            units.push(UnitSpec {
                id: u.id.clone(),
                card: u.card.clone(),
                at: None,
                height: None,
                joins: u.joins.clone(),
                player: u.player.clone(),
                aboard: u.aboard.clone(),
            });
        }
        sides.push((s, sf, entry, units));
    }

    // Placement and joins, once every unit id is known.
    let mut out_sides = Vec::new();
    for (s, sf, entry, mut units) in sides {
        // A squad takes a hero and a Commissar (004 "Commissar", R478); which is which needs the
        // cards, so setup checks it (flow/setup.rs).
        let mut joined_by: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (u, spec) in s.units.iter().zip(units.iter_mut()) {
            let uf = format!("{sf}.units[{}]", u.id);
            if let Some(target) = &u.joins {
                let field = format!("{uf}.joins");
                let Some(squad) = s.units.iter().find(|o| &o.id == target) else {
                    return Err(ctx.err(
                        &field,
                        format!(
                            "`{target}` is not a unit of side {}: name a squad of the same side",
                            s.id
                        ),
                    ));
                };
                if squad.id == u.id {
                    return Err(ctx.err(
                        &field,
                        "a unit cannot join itself: name the squad the hero joins",
                    ));
                }
                if squad.joins.is_some() {
                    return Err(ctx.err(
                        &field,
                        format!(
                            "`{target}` itself joins another \
                        unit: a hero joins a squad, not another joined unit"
                        ),
                    ));
                }
                let by = joined_by.entry(target.clone()).or_default();
                if by.len() >= 2 {
                    return Err(ctx.err(
                        &field,
                        format!(
                            "{} already join {target}: a squad takes one hero (004 \"Heroes\") \
                            and one Commissar (004 \"Commissar\")",
                            by.join(" and ")
                        ),
                    ));
                }
                by.push(u.id.clone());
                if u.at.is_some() {
                    return Err(ctx.err(
                        &format!("{uf}.at"),
                        format!(
                            "a joined hero stands with its squad: remove `at` here and \
                            give it on {target}"
                        ),
                    ));
                }
                continue;
            }
            if let Some(at) = &u.at {
                let field = format!("{uf}.at");
                let (sq, height) = place_at(ctx, &field, board, at, rulesets)?;
                // 002 "Naval Unit" begins on deep water; `new` checks who stands there (R758).
                let naval =
                    rulesets == ["battlefront-2013"] && board.terrain(sq) == Terrain::DeepWater;
                if blocked(board.terrain(sq)) && !naval {
                    let t = board.terrain(sq);
                    return Err(ctx.err(
                        &field,
                        format!(
                            "{sq} is {t:?} terrain where no unit can stand: place it on another \
                             square, or remove `at` to enter from the entry zone"
                        ),
                    ));
                }
                if let Some(other) = occupied.insert((sq, height), u.id.clone()) {
                    let at = floors::place(sq, height);
                    return Err(ctx.err(
                        &field,
                        format!(
                            "{at} already holds {other}: one unit per square and height \
                            (a hero joined to a squad uses `joins`)"
                        ),
                    ));
                }
                spec.at = Some(sq);
                spec.height = height;
            }
        }
        out_sides.push(SideSpec {
            id: s.id.clone(),
            name: s.name.clone().unwrap_or_else(|| title_case(&s.id)),
            entry,
            units,
        });
    }
    Ok((out_sides, side_ids))
}

/// A unit's `at`: a square, or a square and a height as a `move` path writes it (`E5@2`,
/// `E5@roof`; `E5@1` the ground floor), a height only inside a structure that has it, under
/// ffg-revised (004 "STRUCTURES", "Moving"; R634). Soldiers and heroes only: the cards are
/// checked at setup (`flow::structures::check_setup`).
fn place_at(
    ctx: &Ctx,
    field: &str,
    board: &Board,
    text: &str,
    rulesets: &[String],
) -> Result<Spot, ScenarioError> {
    let Some((word, height)) = floors::split(text) else {
        return Ok((square_on(ctx, field, board, text)?, None));
    };
    let sq = square_on(ctx, field, board, word)?;
    let height = height.map_err(|why| ctx.err(field, why))?;
    let Some(h) = height else {
        return Ok((sq, None));
    };
    let named = floors::place(sq, height);
    if rulesets != ["ffg-revised"] {
        return Err(ctx.err(
            field,
            format!("`{named}` starts a unit above the ground floor, and floors and roofs are 004's (R512), which only ffg-revised plays: write {sq}, or add rulesets = [\"ffg-revised\"]"),
        ));
    }
    let rule = RuleId::Structures.with(
        "Units inside can also move onto the structure's roof by moving up from the structure's top floor",
    );
    let Some(s) = structure_at(board, sq) else {
        return Err(ctx.err(
            field,
            format!("`{named}`: {sq} is in no structure, and floors above the ground and roofs are a structure's ({rule}; R634): write {sq}, or a square of a structure"),
        ));
    };
    if let Some(e) = floors::height_missing(s, Some(h)) {
        let roof = if s.kind == StructureKind::Hut {
            ""
        } else {
            " or its roof"
        };
        let like = match (s.floors, s.kind) {
            (_, StructureKind::Hut) => sq.to_string(),
            (1, _) => floors::place(sq, Some(Height::Roof)),
            (n, _) => floors::place(sq, Some(Height::Floor(n))),
        };
        return Err(ctx.err(
            field,
            format!(
                "`{named}`: {} ({}; R634): write a floor from 1 to {} of it{roof}, like {like}",
                e.reason, e.rule, s.floors,
            ),
        ));
    }
    Ok((sq, Some(h)))
}

fn title_case(id: &str) -> String {
    let mut c = id.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The entry zone: listed squares must be enterable; whole rows and columns leave out their
/// impassable and deep-water squares (R82).
fn entry_zone(
    ctx: &Ctx,
    sf: &str,
    board: &Board,
    e: &RawEntry,
) -> Result<Vec<Square>, ScenarioError> {
    let field = format!("{sf}.entry");
    let mut zone = BTreeSet::new();
    for (i, text) in e.squares.iter().enumerate() {
        let f = format!("{field}.squares[{i}]");
        let sq = square_on(ctx, &f, board, text)?;
        if blocked(board.terrain(sq)) {
            return Err(ctx.err(
                &f,
                format!(
                    "{sq} is {:?} terrain: units cannot enter there, \
                list only squares they can stand on",
                    board.terrain(sq)
                ),
            ));
        }
        zone.insert(sq);
    }
    for r in &e.rows {
        let row = board
            .square(0, (*r as i32).saturating_sub(1))
            .filter(|_| *r >= 1)
            .ok_or_else(|| {
                ctx.err(
                    &format!("{field}.rows"),
                    format!(
                        "row {r} is not on the board: rows are numbered 1 to {}",
                        board.height()
                    ),
                )
            })?;
        zone.extend(
            board
                .squares()
                .filter(|s| s.row() == row.row() && !blocked(board.terrain(*s))),
        );
    }
    for c in &e.columns {
        let letter = c.trim().to_ascii_uppercase();
        let col = match letter.as_bytes() {
            [l] if l.is_ascii_uppercase() => board.square((l - b'A') as i32, 0),
            _ => None,
        }
        .ok_or_else(|| {
            ctx.err(
                &format!("{field}.columns"),
                format!(
                    "`{c}` is not a column of the board: columns are letters A to {}",
                    (b'A' + board.width().saturating_sub(1)) as char
                ),
            )
        })?;
        zone.extend(
            board
                .squares()
                .filter(|s| s.col() == col.col() && !blocked(board.terrain(*s))),
        );
    }
    if zone.is_empty() {
        return Err(ctx.err(
            &field,
            "the entry zone is empty: write e.g. entry = { rows = \
            [9] } or entry = { squares = [\"A9\", \"B9\"] }",
        ));
    }
    Ok(zone.into_iter().collect())
}
