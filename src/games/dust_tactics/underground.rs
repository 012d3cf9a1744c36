//! 004 "Underground Fighting" (issue 12): a scenario fought in the metro, the sewers or other
//! tunnels, on one board (R620), or below an aboveground board linked to it (`travel`, R630;
//! a vehicle may fight on that aboveground board, R633).
//! Dim light and low ceilings limit attacks by the spaces between the units (R621); only soldier
//! units go underground; Jump is not used there (R622); in the sewers every corner blocks line
//! of sight (R623); in the metro, rails and train cars give cover (R627). The rules that change
//! an attack are applied in `flow::underground`.

use super::model::{Board, Cover, Square, Terrain};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where a scenario's underground fight takes place (`underground = "..."` in its file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Underground {
    /// 004 "Fighting in the Metro": corner cover stacks with dim light.
    Metro,
    /// 004 "Fighting in the Sewers": all corners block LOS, never corner cover.
    Sewers,
    /// The standard underground rules alone (004 "Dim Light, Low Ceilings").
    Tunnels,
}

/// The spaces between two squares: the fewest squares a line of adjacent steps passes between
/// them, max(dx, dy) − 1 (R621). It agrees with every range equivalent 004 gives: one space is
/// range 2 straight or 3 fully diagonal, two are range 3 or 5, three are range 4 or 7.
pub fn spaces_between(a: Square, b: Square) -> u32 {
    let (dx, dy) = a.delta(b);
    (dx.max(dy) as u32).saturating_sub(1)
}

/// 004 "Dim Light, Low Ceilings": `None` when units cannot target each other (4 or more spaces
/// between), else the cover the dim light gives the target.
pub fn dim_light(a: Square, b: Square) -> Option<Cover> {
    match spaces_between(a, b) {
        0 | 1 => Some(Cover::None),
        2 => Some(Cover::Soft),
        3 => Some(Cover::Hard),
        _ => None,
    }
}

/// 004 "Dim Light, Low Ceilings": "Only soldier units (squads, heroes, superhumans) can enter
/// the metro and the sewers." A vehicle in an underground scenario is refused at `new` (R620),
/// unless the scenario has an aboveground board (`[travel]`) and the vehicle starts on it: its
/// `at`, or else its side's whole entry zone, on the aboveground rows (R633). The wall row stops
/// its moves and `travel` refuses it, so it never goes below.
pub fn check_units(
    s: &super::scenario::Scenario,
    card_map: &BTreeMap<String, String>,
) -> Result<(), String> {
    if s.underground.is_none() {
        return Ok(());
    }
    for side in &s.sides {
        for u in &side.units {
            let file = format!("{}.toml", u.card);
            let Some(card) = card_map
                .get(&file)
                .and_then(|t| super::cards::parse_card(&file, t).ok())
            else {
                continue; // an unknown card is refused with its own message later
            };
            if card.unit_type.is_soldier() {
                continue;
            }
            let quote = "\"Only soldier units (squads, heroes, superhumans) can enter the metro and the sewers\" (004 Underground Fighting";
            let Some(t) = &s.travel else {
                return Err(format!(
                    "scenario `{}` is fought underground, and unit {} (card {}) is a vehicle: {quote}, R620); give that side soldier units only",
                    s.name, u.id, u.card
                ));
            };
            // Where it starts: its square, else every square it may enter on (R633).
            let starts: Vec<Square> = u.at.map_or_else(|| side.entry.clone(), |sq| vec![sq]);
            if let Some(below) = starts.iter().find(|sq| !t.above(**sq)) {
                let whence = match u.at {
                    Some(_) => "is placed on".to_string(),
                    None => format!("would enter from {}'s entry zone, which has", side.id),
                };
                return Err(format!(
                    "scenario `{}`: unit {} (card {}) is a vehicle and {whence} {below}, on the underground board (rows after {}): {quote}, R633); place it with `at` on the aboveground board (rows 1 to {}), or give it soldier units only",
                    s.name,
                    u.id,
                    u.card,
                    t.aboveground_rows + 1,
                    t.aboveground_rows
                ));
            }
        }
    }
    Ok(())
}

/// 004 "Fighting in the Metro": the metro rails and the train cars of a scenario (`[metro]`,
/// R627). Left out of the state when the scenario has none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metro {
    /// Spaces with a star in the center (metro rails).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rails: Vec<Square>,
    /// Each metro train car tile: the squares inside it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cars: Vec<Vec<Square>>,
}

/// `[metro]` as a scenario file writes it: `rails = ["C3", …]`, `cars = [["D2", "E2"], …]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMetro {
    #[serde(default)]
    rails: Vec<String>,
    #[serde(default)]
    cars: Vec<Vec<String>>,
    /// Metro entrances to another board: refused, naming `[travel]` (R628, R630).
    #[serde(default)]
    entrances: Vec<String>,
}

/// Reads a scenario's `[metro]`: only in a metro fight, every square on the board and one a unit
/// may stand on, no square in two cars (R627).
pub fn read_metro(
    name: &str,
    board: &Board,
    kind: Option<Underground>,
    raw: Option<&RawMetro>,
) -> Result<Option<Metro>, super::scenario::ScenarioError> {
    let Some(raw) = raw else {
        return Ok(None);
    };
    let err = |field: &str, msg: String| {
        super::scenario::ScenarioError(format!("scenario {name}: `{field}`: {msg}"))
    };
    if kind != Some(Underground::Metro) {
        return Err(err(
            "metro",
            "metro rails and trains are 004 \"Fighting in the Metro\" (R627): add underground = \"metro\", or remove [metro]".into(),
        ));
    }
    if !raw.entrances.is_empty() {
        return Err(err(
            "metro.entrances",
            "travel between boards (004: \"To enter the metro in a scenario with 2 or more boards, a soldier unit must be on a metro entrance and perform one action\") is written under [travel], not [metro]: links = [[\"<entrance>\", \"<metro space>\"], …] (R628, R630)".into(),
        ));
    }
    let square = |field: &str, t: &str| {
        let sq = board.parse_square(t).ok_or_else(|| {
            err(field, format!("`{t}` is not a square on this board: write a column letter and a row number like C4"))
        })?;
        if board.terrain(sq) == Terrain::Impassable {
            return Err(err(
                field,
                format!("{sq} is impassable: rails and cars are spaces units stand on"),
            ));
        }
        Ok(sq)
    };
    let rails = raw
        .rails
        .iter()
        .map(|t| square("metro.rails", t))
        .collect::<Result<Vec<_>, _>>()?;
    let mut cars: Vec<Vec<Square>> = vec![];
    for (i, car) in raw.cars.iter().enumerate() {
        let field = format!("metro.cars[{i}]");
        let squares = car
            .iter()
            .map(|t| square(&field, t))
            .collect::<Result<Vec<_>, _>>()?;
        if squares.is_empty() {
            return Err(err(
                &field,
                "a car lists the squares inside it, like [\"D2\", \"E2\"]".into(),
            ));
        }
        if let Some(sq) = squares
            .iter()
            .find(|s| cars.iter().flatten().any(|c| c == *s))
        {
            return Err(err(
                &field,
                format!("{sq} is already in another car: a square is inside one car tile"),
            ));
        }
        cars.push(squares);
    }
    Ok(Some(Metro { rails, cars }))
}

impl Metro {
    fn car(&self, sq: Square) -> Option<usize> {
        self.cars.iter().position(|c| c.contains(&sq))
    }

    /// The cover of a target on `to` attacked from `from`, `found` being the cover the other
    /// rules gave it (R627). 004: "Metro trains provide hard cover for any units inside. If a
    /// unit inside a metro train is attacked by another unit within the same car tile, both
    /// units only receive soft cover."; "Any squad in a space with a star in the center (metro
    /// rails) is considered in soft cover. This cover can stack with other forms of cover to a
    /// maximum of hard cover."
    pub fn cover(&self, from: Square, to: Square, found: Cover, squad: bool) -> Cover {
        match (self.car(to), self.car(from)) {
            (Some(a), Some(b)) if a == b => Cover::Soft,
            (Some(_), _) => Cover::Hard,
            _ if squad && self.rails.contains(&to) => found.add_soft(),
            _ => found,
        }
    }
}
