//! 002 "Fortifications", "Trenches" under battlefront-2013 (issue 18, R295): "Trenches are
//! Terrain that provides infantry with cover in otherwise open areas. Being below ground,
//! Trenches have no effect on Line of Sight. Infantry Units in Trenches are in Cover and gain
//! Cover Saves." A scenario lists them with `[fortifications] trenches = [...]`; the attack calls
//! [`cover`] after 003's cover test. Strongpoints (`strongpoints = [["D4", "E4"]]`, their two
//! inside squares) are played by `battlefront::strongpoints` (R718–R722). Barbed wire,
//! minefields and bunkers are refused by name (R723).

use super::super::model::{Board, Cover, Square, Terrain, UnitType};
use super::super::state::State;
use serde::{Deserialize, Serialize};

/// The section the briefings cite.
pub const CITE: &str = "002 \"Fortifications\", \"Trenches\"";

/// A scenario's fortifications.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fortifications {
    /// Trench squares, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trenches: Vec<Square>,
    /// Strongpoints: the two inside squares of each (002 "Bunkers and Strongpoints", R718).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strongpoints: Vec<[Square; 2]>,
}

/// `[fortifications]` as a scenario file writes it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFortifications {
    #[serde(default)]
    trenches: Vec<String>,
    #[serde(default)]
    strongpoints: Vec<Vec<String>>,
    // 002's fortifications not built: named so the refusal says so (R723).
    bunkers: Option<serde::de::IgnoredAny>,
    barbed_wire: Option<serde::de::IgnoredAny>,
    minefields: Option<serde::de::IgnoredAny>,
}

/// Validates `[fortifications]`: (field, message) on error. A trench lies "in otherwise open
/// areas": only on an open square without a cover element.
pub fn parse(
    raw: &RawFortifications,
    rulesets: &[String],
    board: &Board,
) -> Result<Fortifications, (String, String)> {
    if rulesets != ["battlefront-2013"] {
        return Err((
            "fortifications".into(),
            "fortifications are 002's rule: add rulesets = [\"battlefront-2013\"]".into(),
        ));
    }
    let unbuilt = [
        ("bunkers", raw.bunkers.is_some(), "\"Bunkers and Strongpoints\": a bunker's facing, impassable walls and rear doors are not built (R722); a strongpoint (`strongpoints`) is"),
        ("barbed_wire", raw.barbed_wire.is_some(), "\"Barbed Wire Entanglements\": the die symbols that free or tangle a unit are lost in the OCR (R723)"),
        ("minefields", raw.minefields.is_some(), "\"Minefields\": their attack rating and the clearing roll are lost in the OCR (R723)"),
    ];
    if let Some((field, _, why)) = unbuilt.iter().find(|(_, set, _)| *set) {
        return Err((
            format!("fortifications.{field}"),
            format!("002 {why}: not built under battlefront-2013; leave `{field}` out"),
        ));
    }
    let mut trenches = vec![];
    for t in &raw.trenches {
        let field = "fortifications.trenches".to_string();
        let Some(sq) = board.parse_square(t) else {
            return Err((
                field,
                format!("`{t}` is not a square on this board: write one like C4"),
            ));
        };
        if board.terrain(sq) != Terrain::Open || board.cover_kind(sq).is_some() {
            return Err((
                field,
                format!("{sq} is not open ground: 002 digs trenches \"in otherwise open areas\"; choose an open square without a cover element"),
            ));
        }
        trenches.push(sq);
    }
    trenches.sort();
    trenches.dedup();
    let strongpoints = super::strongpoints::parse(&raw.strongpoints, board, &trenches)?;
    Ok(Fortifications {
        trenches,
        strongpoints,
    })
}

/// Whether `at` is a trench of the game's scenario.
pub fn is_trench(state: &State, at: Square) -> bool {
    state
        .scenario
        .fortifications
        .as_ref()
        .is_some_and(|f| f.trenches.contains(&at))
}

/// "Infantry Units in Trenches are in Cover": an infantry target (squad or hero) on a trench is
/// in Cover whatever the line of sight; a vehicle gains nothing. Trenches never block sight, so
/// nothing else changes.
pub fn cover(state: &State, at: Square, target: UnitType, cover: Cover) -> Cover {
    if target != UnitType::Vehicle && is_trench(state, at) && cover == Cover::None {
        Cover::Soft
    } else {
        cover
    }
}

/// The briefing's sentences on the trenches and strongpoints, if any.
pub fn briefing(state: &State) -> Option<String> {
    let f = state.scenario.fortifications.as_ref()?;
    let trenches = (!f.trenches.is_empty()).then(|| {
        let list: Vec<String> = f.trenches.iter().map(|q| q.to_string()).collect();
        format!(
            "Trenches ({CITE}): {}. Infantry in a trench are in cover (cover saves); trenches do not block line of sight and every unit may cross them.",
            list.join(" ")
        )
    });
    let parts: Vec<String> = trenches
        .into_iter()
        .chain(super::strongpoints::briefing(f))
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}
