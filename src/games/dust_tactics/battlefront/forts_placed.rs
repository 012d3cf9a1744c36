//! 002 "Fortifications": "Fielding Fortifications" and "Deploying Fortifications" under
//! battlefront-2013 (issue 18, R588–R591). A side takes bunkers and strongpoints as part of its
//! force (`new --fortify axis=bunker,strongpoint` writes `fortify = { axis = ["bunker",
//! "strongpoint"] }` at the head of the scenario it records; a scenario may list them itself,
//! "some scenarios give players Fortifications for free"); before the objectives are placed each
//! such side places its own with `place bunker E4 F4 facing N` / `place strongpoint E4 F4` in its
//! Deployment Area. `flow::placing` plays the orders with the objectives' machinery; this module
//! is the data, the points and the legal placements. Once placed a fortification is the
//! scenario's like any other (`fortifications.bunkers`, `.strongpoints`).

use super::super::model::{Square, Terrain};
use super::super::placing::{Piece, Placement, Placing};
use super::super::scenario::Scenario;
use super::super::state::State;
use super::bunkers::RawBunker;
use super::facing::Facing;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The sentence refusals cite.
pub const DEPLOYING: &str = "002 \"Fortifications\", \"Deploying Fortifications\"";

/// A fortification a side fields (002 "Fielding Fortifications").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fort {
    Bunker,
    Strongpoint,
}

impl Fort {
    pub fn parse(word: &str) -> Option<Fort> {
        match word.to_ascii_lowercase().as_str() {
            "bunker" => Some(Fort::Bunker),
            "strongpoint" => Some(Fort::Strongpoint),
            _ => None,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Fort::Bunker => "bunker",
            Fort::Strongpoint => "strongpoint",
        }
    }

    /// 002 "Fielding Fortifications": "A player may include Bunkers in their force for 15
    /// points each, and Strongpoints for 10 points each".
    pub fn points(self) -> u32 {
        match self {
            Fort::Bunker => 15,
            Fort::Strongpoint => 10,
        }
    }

    pub fn piece(self) -> Piece {
        match self {
            Fort::Bunker => Piece::Bunker,
            Fort::Strongpoint => Piece::Strongpoint,
        }
    }

    pub fn of_piece(p: Piece) -> Option<Fort> {
        match p {
            Piece::Bunker => Some(Fort::Bunker),
            Piece::Strongpoint => Some(Fort::Strongpoint),
            _ => None,
        }
    }
}

/// A fortification still to place, and the side that places it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToPlace {
    pub side: String,
    pub fort: Fort,
}

/// Reads the scenario's `fortify = { axis = ["bunker"] }` (R588): known sides, known words.
pub fn read(
    raw: &BTreeMap<String, Vec<String>>,
    sides: &BTreeSet<String>,
) -> Result<BTreeMap<String, Vec<Fort>>, (String, String)> {
    let mut out = BTreeMap::new();
    for (side, words) in raw {
        let field = format!("fortify.{side}");
        if !sides.contains(side) {
            let known: Vec<&str> = sides.iter().map(String::as_str).collect();
            return Err((
                field,
                format!(
                    "{side} is not a side of the scenario: use one of {}",
                    known.join(", ")
                ),
            ));
        }
        let mut forts = vec![];
        for w in words {
            let Some(f) = Fort::parse(w) else {
                return Err((field, format!("`{w}` is not a fortification a side fields: write \"bunker\" or \"strongpoint\" (002 \"Fielding Fortifications\")")));
            };
            forts.push(f);
        }
        if !forts.is_empty() {
            out.insert(side.clone(), forts);
        }
    }
    Ok(out)
}

/// `new --fortify SIDE=bunker,strongpoint` (side → its list as given): the scenario text with
/// `fortify = { ... }` at its head, so the game, its replay and `audit` read it from the
/// scenario as any other field (R588).
pub fn with_fortify(
    name: &str,
    text: String,
    given: &BTreeMap<String, String>,
) -> Result<String, String> {
    if given.is_empty() {
        return Ok(text);
    }
    if text.lines().any(|l| l.trim_start().starts_with("fortify")) {
        return Err(format!("scenario `{name}` already lists the fortifications the sides place (`fortify`): leave out --fortify"));
    }
    let mut parts = vec![];
    for (side, list) in given {
        let mut words = vec![];
        for w in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            let Some(f) = Fort::parse(w) else {
                return Err(format!("--fortify {side}={list}: `{w}` is not a fortification: write bunker or strongpoint, e.g. --fortify {side}=bunker,strongpoint (002 \"Fielding Fortifications\", R588)"));
            };
            words.push(format!("{:?}", f.word()));
        }
        if words.is_empty() {
            return Err(format!("--fortify {side}=: name the fortifications, e.g. --fortify {side}=bunker,strongpoint (R588)"));
        }
        parts.push(format!("{side:?} = [{}]", words.join(", ")));
    }
    Ok(format!("fortify = {{ {} }}\n{text}", parts.join(", ")))
}

/// The refusal of `--fortify` under another ruleset.
pub fn not_battlefront(ruleset: &str) -> String {
    format!("--fortify fields 002's bunkers and strongpoints (002 \"Fielding Fortifications\"), a battlefront-2013 rule; ruleset {ruleset} has none: add --ruleset battlefront-2013 or drop --fortify (R588)")
}

/// The fortifications to place, in the scenario's side order, each side's in its listed order.
pub fn to_place(sc: &Scenario) -> Vec<ToPlace> {
    sc.sides
        .iter()
        .flat_map(|s| {
            sc.fortify
                .get(&s.id)
                .into_iter()
                .flatten()
                .map(|f| ToPlace {
                    side: s.id.clone(),
                    fort: *f,
                })
        })
        .collect()
}

/// The points `side` pays for its fortifications (R590: counted against the army point limit).
pub fn points(sc: &Scenario, side: &str) -> u32 {
    sc.fortify
        .get(side)
        .map(|v| v.iter().map(|f| f.points()).sum())
        .unwrap_or(0)
}

/// At `new`: each side that places fortifications has a Deployment Area (R589), and every
/// fortification finds room there, placed one after another at its first legal place (what the
/// deadline does, R591).
pub fn check_begin(state: &State, forts: &[ToPlace]) -> Result<(), String> {
    let mut trial = state.clone();
    for f in forts {
        if super::objectives_placed::half_rows(&state.scenario, &f.side).is_none() {
            return Err(format!("scenario {}: {} places fortifications in its Deployment Area, its own half of the table (R589), but its entry squares lie in both halves: give it entry squares in one half or drop its fortifications", state.scenario.name, f.side));
        }
        let Some(p) = legal(&trial, &f.side, f.fort).into_iter().next() else {
            return Err(format!("scenario {}: no room for {}'s {} in its Deployment Area ({DEPLOYING}: one square from the table edges and impassable terrain, two from other bunkers and strongpoints): field fewer fortifications", state.scenario.name, f.side, f.fort.word()));
        };
        place(&mut trial.scenario, &p);
    }
    Ok(())
}

/// Why `side` may not place `fort` as `p` says (R589); `None` when it may.
pub fn refusal(state: &State, side: &str, fort: Fort, p: &Placement) -> Option<String> {
    let sc = &state.scenario;
    let Some(to) = p.to else {
        return Some(format!(
            "name the {}'s two inside squares side by side, like `{}`",
            fort.word(),
            example(fort)
        ));
    };
    match (fort, p.facing) {
        (Fort::Bunker, None) => return Some(format!("a bunker needs the side its firing slit faces: write `place bunker {} {to} facing N` (or E, S, W)", p.at)),
        (Fort::Strongpoint, Some(_)) => return Some(format!("a strongpoint has no facing (\"Units in Strongpoints can see and be seen from any direction\"): write `place strongpoint {} {to}`", p.at)),
        _ => {}
    }
    let Some((lo, hi)) = super::objectives_placed::half_rows(sc, side) else {
        return Some(format!(
            "{side} has no Deployment Area, no half of the table of its own (R589)"
        ));
    };
    if let Some(sq) = [p.at, to]
        .into_iter()
        .find(|s| !(lo..=hi).contains(&s.row()))
    {
        return Some(format!("{sq} is not in {side}'s Deployment Area, its own half of the table (rows {} to {}): {DEPLOYING}: \"Fortifications are placed in the player's Deployment Area\" (R589)", lo + 1, hi + 1));
    }
    if let Some(u) = state
        .units
        .iter()
        .find(|u| !u.destroyed && u.at.is_some_and(|s| s == p.at || s == to))
    {
        return Some(format!(
            "{} stands on {}: a fortification goes on squares no unit stands on (R589)",
            u.id,
            u.at.map(|s| s.to_string()).unwrap_or_default()
        ));
    }
    // 003's buildings keep open squares inside their walls: no fortification goes there.
    if let Some((sq, st)) = [p.at, to]
        .into_iter()
        .find_map(|sq| super::super::structures::structure_at(&sc.board, sq).map(|st| (sq, st)))
    {
        return Some(format!(
            "{sq} is inside the {} {}: a fortification goes on open ground (R589)",
            st.kind.name(),
            st.id
        ));
    }
    // A fixed objective was there first: "Objectives cannot be placed in, on, or under a Bunker
    // or Strongpoint" (one a player places later goes elsewhere).
    let fixed = |o: &super::super::scenario::Objective| {
        !(sc.place_objectives && super::objectives_placed::placed_kind(o))
    };
    if let Some(o) = sc
        .objectives
        .iter()
        .filter(|o| fixed(o))
        .map(super::super::placing::objective_square)
        .find(|s| *s == p.at || *s == to)
    {
        return Some(format!("{o} is an objective of the scenario: {DEPLOYING}: \"Objectives cannot be placed in, on, or under a Bunker or Strongpoint\" (R589)"));
    }
    let f = sc.fortifications.clone().unwrap_or_default();
    let mut taken: Vec<Square> = f.trenches.clone();
    taken.extend(&f.barbed_wire);
    taken.extend(&f.minefields);
    let others: Vec<[Square; 2]> = super::bunkers::shells(state)
        .iter()
        .map(|s| s.squares)
        .collect();
    let pair = vec![vec![p.at.to_string(), to.to_string()]];
    let checked = match (fort, p.facing) {
        (Fort::Bunker, Some(facing)) => {
            let raw = [RawBunker::new(pair.concat(), facing.to_string())];
            super::bunkers::parse(&raw, &sc.board, &taken, &others).map(|_| ())
        }
        _ => super::strongpoints::parse_pairs(&pair, "strongpoints", &sc.board, &taken, &others)
            .map(|_| ()),
    };
    checked
        .err()
        .map(|(_, m)| m.replace("strongpoint's", &format!("{}'s", fort.word())))
}

fn example(fort: Fort) -> &'static str {
    match fort {
        Fort::Bunker => "place bunker E4 F4 facing N",
        Fort::Strongpoint => "place strongpoint E4 F4",
    }
}

/// Every placement of `fort` `side` may make now, in board order (each square with the one to
/// its right, then the one below; a bunker's facings N before S, E before W).
pub fn legal(state: &State, side: &str, fort: Fort) -> Vec<Placement> {
    let board = &state.scenario.board;
    let mut out = vec![];
    for at in board.squares() {
        if board.terrain(at) != Terrain::Open {
            continue;
        }
        let beside = [
            (
                board.square(at.col() as i32 + 1, at.row() as i32),
                [Facing::N, Facing::S],
            ),
            (
                board.square(at.col() as i32, at.row() as i32 + 1),
                [Facing::E, Facing::W],
            ),
        ];
        for (to, facings) in beside {
            let Some(to) = to else { continue };
            let options: Vec<Option<Facing>> = match fort {
                Fort::Bunker => facings.into_iter().map(Some).collect(),
                Fort::Strongpoint => vec![None],
            };
            for facing in options {
                let p = Placement {
                    piece: fort.piece(),
                    at,
                    to: Some(to),
                    facing,
                };
                if refusal(state, side, fort, &p).is_none() {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// Adds the placed fortification to the scenario's (checked by `refusal`).
pub fn place(sc: &mut Scenario, p: &Placement) {
    let (Some(fort), Some(to)) = (Fort::of_piece(p.piece), p.to) else {
        return;
    };
    let mut squares = [p.at, to];
    squares.sort();
    let f = sc.fortifications.get_or_insert_with(Default::default);
    match (fort, p.facing) {
        (Fort::Bunker, Some(facing)) => f.bunkers.push(super::bunkers::Bunker { squares, facing }),
        _ => f.strongpoints.push(squares),
    }
}

/// The welcome mail's paragraph while fortifications are to place.
pub fn briefing(p: &Placing) -> String {
    let mut by_side: BTreeMap<&str, Vec<Fort>> = BTreeMap::new();
    let mut order: Vec<&str> = vec![];
    for f in &p.forts {
        if !order.contains(&f.side.as_str()) {
            order.push(&f.side);
        }
        by_side.entry(&f.side).or_default().push(f.fort);
    }
    let sides: Vec<String> = order
        .iter()
        .map(|s| {
            let forts = &by_side[s];
            let count = |k: Fort| forts.iter().filter(|f| **f == k).count();
            let mut parts = vec![];
            for k in [Fort::Bunker, Fort::Strongpoint] {
                let n = count(k);
                if n > 0 {
                    parts.push(format!(
                        "{n} {}{} ({} points each)",
                        k.word(),
                        if n == 1 { "" } else { "s" },
                        k.points()
                    ));
                }
            }
            let total: u32 = forts.iter().map(|f| f.points()).sum();
            format!(
                "{s} fields {}, {total} points of its force",
                parts.join(" and ")
            )
        })
        .collect();
    format!(
        "Deploying fortifications ({DEPLOYING}): \"Fortifications are placed in the player's Deployment Area at the start of the game before any Objectives are placed.\" {}. In the scenario's order each side places its own in its Deployment Area, its own half of the table, each inside square one square or more from every table edge and impassable square and two from other bunkers and strongpoints, on no unit and no objective. Write `place bunker E4 F4 facing N` (its two inside squares side by side, and the side its firing slit faces) or `place strongpoint E4 F4`, one line a fortification. A fortification is terrain: its points are paid from the army point limit and never scored as destroyed.",
        sides.join("; ")
    )
}

/// The orders template's head for an awaited fortification.
pub const TEMPLATE: &str = "# Deploying fortifications (002): place each of your bunkers and\n\
     # strongpoints in your own half, its two inside squares side by side,\n\
     # one square from the edges and impassable terrain, two from other\n\
     # fortifications. Send one line each, for example (delete its `#`):\n";
