//! 003 §12 "Reserves" (issue 18, R288–R290): "Each time a unit is eliminated, the owning player
//! may elect to place it in reserve until they have placed the allowed number of units in
//! reserve. The same unit may be placed in reserve multiple times if it keeps getting destroyed.
//! Units placed in reserves are fresh units with no damage and all ammunition replenished.
//! Heroes can never be placed in reserve. A player may elect to move a unit onto the board from
//! reserve by activating it during any turn after the one it was eliminated in. Unless otherwise
//! noted, reserves move on from the same squares that the original force could move on from."
//!
//! A scenario says how many with `[reserves]`; the engine calls [`queue`] from the removal of a
//! destroyed unit, [`place_pending`] at the end of each activation and turn, and [`entry_zone`]
//! wherever a unit enters.

use super::super::model::{Board, Square, UnitType};
use super::super::state::{State, UnitState};
use crate::game::{Happening, Outcome};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The section the reports cite.
pub const CITE: &str = "003 §12 \"Reserves\"";

/// How many eliminated units a side may place in reserve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Allowance {
    /// Up to this many placements per side (Grab the Dust, Bait and Flank, Supply Drop: 2).
    Units(u32),
    /// All-Out Attack: "Players place all eliminated units in reserve (including Heroes)".
    All,
}

/// A scenario's reserves rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reserves {
    pub allowance: Allowance,
    /// Side id → the squares its reserves move on from, when the scenario says otherwise than
    /// its entry zone (Bait and Flank: "the short edges of their opponent's board").
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub entry: BTreeMap<String, Vec<Square>>,
}

/// `[reserves]` as a scenario file writes it: `units = 2` or `units = "all"`, and optionally
/// `entry.<side> = ["A7", …]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawReserves {
    units: RawUnits,
    #[serde(default)]
    entry: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawUnits {
    Count(u32),
    Word(String),
}

/// Validates `[reserves]`: (field, message) on error, for the scenario's error builder.
pub fn parse(
    raw: &RawReserves,
    rulesets: &[String],
    board: &Board,
    side_ids: &BTreeSet<String>,
) -> Result<Reserves, (String, String)> {
    if rulesets != ["battlefront-2013"] {
        return Err((
            "reserves".into(),
            "reserves are 003's rule: add rulesets = [\"battlefront-2013\"]".into(),
        ));
    }
    let allowance = match &raw.units {
        RawUnits::Count(n) if *n > 0 => Allowance::Units(*n),
        RawUnits::Word(w) if w == "all" => Allowance::All,
        _ => {
            return Err((
                "reserves.units".into(),
                "write the number of units each side may place in reserve, like units = 2, or units = \"all\"".into(),
            ))
        }
    };
    let mut entry = BTreeMap::new();
    for (side, squares) in &raw.entry {
        let field = format!("reserves.entry.{side}");
        if !side_ids.contains(side) {
            let known: Vec<&str> = side_ids.iter().map(String::as_str).collect();
            return Err((
                field,
                format!(
                    "`{side}` is not a side of this scenario: use one of {}",
                    known.join(", ")
                ),
            ));
        }
        let mut zone = vec![];
        for t in squares {
            let Some(sq) = board.parse_square(t) else {
                return Err((
                    field,
                    format!("`{t}` is not a square on this board: write one like C4"),
                ));
            };
            zone.push(sq);
        }
        zone.sort();
        zone.dedup();
        if zone.is_empty() {
            return Err((
                field,
                "list at least one square, or leave the side out".into(),
            ));
        }
        entry.insert(side.clone(), zone);
    }
    Ok(Reserves { allowance, entry })
}

/// The squares `u` may enter on: a unit in reserve uses its side's reserve entry when the
/// scenario gives one, every other its side's entry zone.
pub fn entry_zone(state: &State, u: &UnitState) -> Vec<Square> {
    if u.reserve_round.is_some() {
        if let Some(z) = state
            .scenario
            .reserves
            .as_ref()
            .and_then(|r| r.entry.get(&u.side))
        {
            return z.clone();
        }
    }
    state
        .scenario
        .sides
        .iter()
        .find(|s| s.id == u.side)
        .map(|s| s.entry.clone())
        .unwrap_or_default()
}

/// What the squares of [`entry_zone`] are called in a refusal.
pub fn zone_name(state: &State, u: &UnitState) -> String {
    let own = u.reserve_round.is_some()
        && state
            .scenario
            .reserves
            .as_ref()
            .is_some_and(|r| r.entry.contains_key(&u.side));
    if own {
        format!(
            "the squares {}'s reserves move on from ({CITE}, as the scenario notes)",
            u.side
        )
    } else {
        format!("{}'s entry zone", u.side)
    }
}

/// How many placements in reserve `side` has made so far.
pub fn placed(state: &State, side: &str) -> u32 {
    state
        .units
        .iter()
        .filter(|u| u.side == side)
        .map(|u| u.reserved)
        .sum()
}

/// Called when unit `id` has just been eliminated: under a scenario with reserves it waits,
/// eliminated, until the Action is over ([`place_pending`]), so the rest of the Action's hits
/// cannot fall on the fresh unit.
pub fn queue(state: &mut State, id: &str) {
    if state.scenario.reserves.is_some() {
        state.reserve_pending.push(id.to_string());
    }
}

/// Called at the end of every activation and turn: each unit eliminated since goes into
/// reserve while its side's allowance lasts (R288: the owner always elects it, as placing costs
/// nothing and a unit in reserve need not move on). It comes back fresh, off the board, and may
/// activate from the next turn (marked activated for the rest of this one).
pub fn place_pending(state: &mut State, out: &mut Outcome) {
    for id in std::mem::take(&mut state.reserve_pending) {
        place(state, &id, out);
    }
}

fn place(state: &mut State, id: &str, out: &mut Outcome) {
    let Some(r) = state.scenario.reserves.clone() else {
        return;
    };
    let Some(u) = state.unit(id).filter(|u| u.destroyed).cloned() else {
        return;
    };
    let Some(card) = state.cards.get(&u.card).cloned() else {
        return;
    };
    let round = state.round;
    let used = placed(state, &u.side);
    // 002 "Fortifications": Strongpoint Units "must be placed at the start of the game and
    // cannot be held in Reserve" (R728).
    if super::skills002::Skill002::Strongpoint.of(&card) {
        say(
            out,
            format!("{id} is a Strongpoint unit and never goes into reserve (002 \"Fortifications\", R728)"),
        );
        return;
    }
    let count = match r.allowance {
        // "Heroes can never be placed in reserve."
        Allowance::Units(_) if card.unit_type == UnitType::Hero => {
            say(
                out,
                format!("{id} is a hero and never goes into reserve ({CITE})"),
            );
            return;
        }
        Allowance::Units(n) if used >= n => {
            say(
                out,
                format!(
                    "{id} stays eliminated: {} has placed its {n} units in reserve ({CITE})",
                    u.side
                ),
            );
            return;
        }
        Allowance::Units(n) => format!(", {} of {n} placed", used + 1),
        Allowance::All => String::new(),
    };
    let (models, health, ammo) = crate::dust_tactics::flow::fresh(&card);
    let Some(x) = state.unit_mut(id) else {
        return;
    };
    x.destroyed = false;
    x.at = None;
    x.models = models;
    x.health = health;
    x.ammo = ammo;
    x.joined = None;
    x.facing = None;
    x.stunned = false;
    x.suppression = None;
    x.unloaded.clear();
    x.activated = true;
    x.reserve_round = Some(round);
    x.reserved += 1;
    let x = x.clone();
    let squares: Vec<String> = entry_zone(state, &x)
        .iter()
        .map(|q| q.to_string())
        .collect();
    say(
        out,
        format!(
            "{id} goes into reserve, fresh{count}: it may move on from turn {} on {} ({CITE})",
            round + 1,
            squares.join(" ")
        ),
    );
}

fn say(out: &mut Outcome, text: String) {
    out.happenings.push(Happening {
        text,
        ..Happening::default()
    });
}

/// Called when `id` enters the board: it is no longer in reserve.
pub fn entered(state: &mut State, id: &str) {
    if let Some(x) = state.unit_mut(id) {
        x.reserve_round = None;
    }
}

/// The report's line on `side`'s units in reserve, if any: each, the turn it may move on from,
/// and the squares.
pub fn brief(state: &State, side: &str) -> Option<String> {
    let list: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.side == side && !u.destroyed && u.at.is_none())
        .filter_map(|u| {
            let r = u.reserve_round?;
            let zone: Vec<String> = entry_zone(state, u).iter().map(|q| q.to_string()).collect();
            Some(format!(
                "{} (from turn {}, onto one of: {})",
                u.id,
                r + 1,
                zone.join(" ")
            ))
        })
        .collect();
    (!list.is_empty()).then(|| {
        format!(
            "In reserve ({CITE}; an `activate` whose first action is a move onto one of the squares moves it on, `nothing` twice keeps it off): {}.",
            list.join("; ")
        )
    })
}

/// The welcome mail's sentence on the scenario's reserves, if it has any.
pub fn briefing(state: &State) -> Option<String> {
    let r = state.scenario.reserves.as_ref()?;
    let how = match r.allowance {
        Allowance::Units(n) => {
            format!("each side places up to {n} eliminated units in reserve (heroes never)")
        }
        Allowance::All => "every eliminated unit goes into reserve, heroes included".to_string(),
    };
    let whence = if r.entry.is_empty() {
        "through its side's entry squares".to_string()
    } else {
        let zones: Vec<String> = r
            .entry
            .iter()
            .map(|(s, z)| {
                let first = z.first().map(|q| q.to_string()).unwrap_or_default();
                let last = z.last().map(|q| q.to_string()).unwrap_or_default();
                format!("{s} {} squares {first} to {last}", z.len())
            })
            .collect();
        format!("through {}", zones.join(", "))
    };
    Some(format!(
        "Reserves ({CITE}): {how}. A unit in reserve is fresh (no damage, full ammunition) and may move on in any turn after the one it was eliminated in, {whence}; until then it counts as a unit still to activate."
    ))
}
