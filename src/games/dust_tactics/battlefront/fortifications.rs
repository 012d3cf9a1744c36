//! 002 "Fortifications", "Trenches" under battlefront-2013 (issue 18, R295): "Trenches are
//! Terrain that provides infantry with cover in otherwise open areas. Being below ground,
//! Trenches have no effect on Line of Sight. Infantry Units in Trenches are in Cover and gain
//! Cover Saves." A scenario lists them with `[fortifications] trenches = [...]`; the attack calls
//! [`cover`] after 003's cover test. Strongpoints (`strongpoints = [["D4", "E4"]]`, their two
//! inside squares) are played by `battlefront::strongpoints` (R718–R722). Barbed wire and
//! minefields (`barbed_wire = ["C3"]`, `minefields = ["F4"]`, one square each) are played by
//! `flow::fortify` (R724–R727). Bunkers (`bunkers = [{ squares = ["D4", "E4"], facing = "N" }]`)
//! by `battlefront::bunkers` (R780–R784).

use super::super::model::{Board, Cover, Square, Terrain, UnitType};
use super::super::state::State;
use serde::{Deserialize, Serialize};

/// The section the briefings cite.
pub const CITE: &str = "002 \"Fortifications\", \"Trenches\"";

/// The purpose of the wire's die (`battlefront::dice` reads it: army frees, R724).
pub const WIRE: &str = "barbed wire";
/// The purpose of the Engineering Special Action's die (army clears, R726).
pub const ENGINEERING: &str = "engineering";

/// A scenario's fortifications.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fortifications {
    /// Trench squares, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trenches: Vec<Square>,
    /// Strongpoints: the two inside squares of each (002 "Bunkers and Strongpoints", R718).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strongpoints: Vec<[Square; 2]>,
    /// Barbed Wire Entanglement squares, sorted; one is removed when cut (R724, R726).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub barbed_wire: Vec<Square>,
    /// Minefield squares, sorted; one is removed when cleared (R725, R726).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub minefields: Vec<Square>,
    /// Bunkers: their two inside squares and facing (R780); one is removed when buried (R786).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bunkers: Vec<super::bunkers::Bunker>,
}

/// `[fortifications]` as a scenario file writes it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFortifications {
    #[serde(default)]
    trenches: Vec<String>,
    #[serde(default)]
    strongpoints: Vec<Vec<String>>,
    #[serde(default)]
    barbed_wire: Vec<String>,
    #[serde(default)]
    minefields: Vec<String>,
    #[serde(default)]
    bunkers: Vec<super::bunkers::RawBunker>,
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
    let trenches = open_squares(&raw.trenches, "trenches", board, &[])?;
    let strongpoints = super::strongpoints::parse(&raw.strongpoints, board, &trenches)?;
    let bunkers = super::bunkers::parse(&raw.bunkers, board, &trenches, &strongpoints)?;
    let mut taken: Vec<Square> = trenches.clone();
    taken.extend(strongpoints.iter().flatten());
    taken.extend(bunkers.iter().flat_map(|b| b.squares));
    let barbed_wire = open_squares(&raw.barbed_wire, "barbed_wire", board, &taken)?;
    taken.extend(&barbed_wire);
    let minefields = open_squares(&raw.minefields, "minefields", board, &taken)?;
    Ok(Fortifications {
        trenches,
        strongpoints,
        barbed_wire,
        minefields,
        bunkers,
    })
}

/// The squares of a one-square fortification list, sorted: each open ground without a cover
/// element ("in otherwise open areas", 002 "Trenches"; wire and mines likewise, R724) and not
/// already another fortification's (`taken`).
fn open_squares(
    raw: &[String],
    name: &str,
    board: &Board,
    taken: &[Square],
) -> Result<Vec<Square>, (String, String)> {
    let field = format!("fortifications.{name}");
    let mut out = vec![];
    for t in raw {
        let Some(sq) = board.parse_square(t) else {
            return Err((
                field,
                format!("`{t}` is not a square on this board: write one like C4"),
            ));
        };
        if board.terrain(sq) != Terrain::Open || board.cover_kind(sq).is_some() {
            return Err((
                field,
                format!("{sq} is not open ground: 002 places trenches, barbed wire and minefields \"in otherwise open areas\"; choose an open square without a cover element"),
            ));
        }
        if taken.contains(&sq) {
            return Err((
                field,
                format!(
                    "{sq} is already another fortification's square: one fortification a square"
                ),
            ));
        }
        out.push(sq);
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Whether `at` is a barbed-wire square of the game (R724).
pub fn is_wire(state: &State, at: Square) -> bool {
    state
        .scenario
        .fortifications
        .as_ref()
        .is_some_and(|f| f.barbed_wire.contains(&at))
}

/// Whether `at` is a minefield square of the game (R725).
pub fn is_minefield(state: &State, at: Square) -> bool {
    state
        .scenario
        .fortifications
        .as_ref()
        .is_some_and(|f| f.minefields.contains(&at))
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
/// nothing else changes. Since rules revision 10 an infantry target inside a strongpoint or
/// bunker is in Cover against an attacker on `from` outside it (002 "Attacking Strongpoints":
/// "The SSU player rolls two Cover Saves for the MG hits", R685).
pub fn cover(state: &State, from: Square, at: Square, target: UnitType, cover: Cover) -> Cover {
    // 002 "Dozer Blade": a vehicle dug in by its Dozer Special Action (R786).
    let cover = super::engineering::cover(state, at, target, cover);
    let walled = state.revised(10)
        && super::bunkers::shell_at(state, at).is_some_and(|s| !s.squares.contains(&from));
    if target != UnitType::Vehicle && (is_trench(state, at) || walled) && cover == Cover::None {
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
    let list = |v: &[Square]| {
        v.iter()
            .map(|q| q.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let wire = (!f.barbed_wire.is_empty()).then(|| {
        format!(
            "Barbed wire (002 \"Barbed Wire Entanglements\"): {}. Infantry moving into, through or out of it rolls a die: army, it moves on; target or shield, it stops there, tangled, for the rest of its activation. `skill engineering at <square>` next to it cuts it on army.",
            list(&f.barbed_wire)
        )
    });
    let mines = (!f.minefields.is_empty()).then(|| {
        format!(
            "Minefields (002 \"Minefields\"): {}. A unit moving into, through or out of one is attacked: a die for each miniature, each army a hit of 2 damage (infantry save on army). `skill engineering at <square>` next to one clears it on army; any other roll, the mines attack the unit.",
            list(&f.minefields)
        )
    });
    let parts: Vec<String> = trenches
        .into_iter()
        .chain(super::strongpoints::briefing(f))
        .chain(super::bunkers::briefing(state))
        .chain(wire)
        .chain(mines)
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Adds 002's barbed wire, minefields and strongpoints to the game's view under
/// `fortifications`, for the picture (R727), when there are any.
pub fn view(state: &State, v: &mut serde_json::Value) {
    let Some(f) = state.scenario.fortifications.as_ref() else {
        return;
    };
    if f.barbed_wire.is_empty()
        && f.minefields.is_empty()
        && f.strongpoints.is_empty()
        && f.bunkers.is_empty()
    {
        return;
    }
    v["fortifications"] = serde_json::json!({
        "barbed_wire": f.barbed_wire,
        "minefields": f.minefields,
        "strongpoints": f.strongpoints,
    });
    // Only when there are some, so the views of games without bunkers are unchanged (R784).
    if !f.bunkers.is_empty() {
        v["fortifications"]["bunkers"] = serde_json::json!(f.bunkers);
    }
}
