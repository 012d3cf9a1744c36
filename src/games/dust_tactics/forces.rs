//! Forces chosen for a campaign game (issue 15 item 2): a card's army points and kind, the
//! scenario with each side's units replaced by the chosen ones (entering from the side's entry
//! zone, so no square is fixed in advance), and the units lost by the end of a game.

use super::cards;
use super::model::UnitType;
use super::state::State;
use crate::game::{ForceCard, ForceUnit, Setup, SetupError};
use std::collections::BTreeMap;

pub fn force_card(setup: &Setup, card: &str) -> Option<ForceCard> {
    let file = format!("{card}.toml");
    let c = cards::parse_card(&file, setup.cards.get(&file)?).ok()?;
    Some(ForceCard {
        ap: c.ap,
        hero: c.unit_type == UnitType::Hero,
    })
}

/// The scenario file's `sides[].units` replaced by `forces`, and its `ap_limit` set to `ap`.
pub fn field_forces(
    setup: &Setup,
    forces: &BTreeMap<String, Vec<ForceUnit>>,
    ap: u32,
) -> Result<Setup, SetupError> {
    let bad = |m: String| SetupError(format!("scenario `{}`: {m}", setup.scenario_name));
    let mut doc: toml::Table = toml::from_str(&setup.scenario).map_err(|e| bad(e.to_string()))?;
    doc.insert("ap_limit".into(), toml::Value::Integer(i64::from(ap)));
    let sides = doc
        .get_mut("sides")
        .and_then(|v| v.as_array_mut())
        .ok_or_else(|| bad("no [[sides]]".into()))?;
    for side in sides.iter_mut() {
        let t = side
            .as_table_mut()
            .ok_or_else(|| bad("a side is not a table".into()))?;
        let id = t.get("id").and_then(|v| v.as_str()).unwrap_or_default();
        let Some(units) = forces.get(id) else {
            return Err(bad(format!("no force is given for side {id}")));
        };
        let units: Vec<toml::Value> = units
            .iter()
            .map(|u| {
                let mut m = toml::Table::new();
                m.insert("id".into(), toml::Value::String(u.id.clone()));
                m.insert("card".into(), toml::Value::String(u.card.clone()));
                toml::Value::Table(m)
            })
            .collect();
        t.insert("units".into(), toml::Value::Array(units));
    }
    let text = toml::to_string(&doc).map_err(|e| bad(e.to_string()))?;
    // The new scenario must be a valid one, with an error that names what is wrong.
    super::scenario::parse(&setup.scenario_name, &text).map_err(|e| bad(e.0))?;
    Ok(Setup {
        scenario: text,
        ..setup.clone()
    })
}

/// Units destroyed (and not back in play), per side, in id order.
pub fn lost_units(state: &State) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for u in state.units.iter().filter(|u| u.destroyed) {
        out.entry(u.side.clone()).or_default().push(u.id.clone());
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}
