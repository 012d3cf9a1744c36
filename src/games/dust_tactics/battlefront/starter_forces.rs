//! `dustmail new --force SIDE=BATTLEGROUP` (issue 18, R816–R818): 003 §12's scenarios give entry
//! edges, objectives, reserves and turns, not forces ("For a first game, use the starter
//! battlegroups"), so a side of a battlefront-2013 scenario may field any of the three starter
//! forces of 003 §11 instead of the one its file names. The side keeps its id, entry zone,
//! objectives and reserve squares; its units and shown name become the force's.

use std::collections::{BTreeMap, BTreeSet};

/// The three starter forces of 003 §11, as data: (name of `--force`, file).
pub const FORCES: [(&str, &str); 3] = [
    (
        "taskforce-joe",
        include_str!("../../../../games/dust-tactics/forces-battlefront/taskforce-joe.toml"),
    ),
    (
        "kampfgruppe-stefan",
        include_str!("../../../../games/dust-tactics/forces-battlefront/kampfgruppe-stefan.toml"),
    ),
    (
        "battlegroup-koshka",
        include_str!("../../../../games/dust-tactics/forces-battlefront/battlegroup-koshka.toml"),
    ),
];

fn names() -> String {
    FORCES.map(|(n, _)| n).join(", ")
}

/// Scenario `text` (named `scenario`) with each side of `chosen` (side id → force name) fielding
/// that starter force. The error names what to send instead.
pub fn field(
    scenario: &str,
    text: &str,
    chosen: &BTreeMap<String, String>,
) -> Result<String, String> {
    let mut doc: toml::Table =
        toml::from_str(text).map_err(|e| format!("scenario `{scenario}`: {e}"))?;
    let sides = doc
        .get_mut("sides")
        .and_then(|v| v.as_array_mut())
        .ok_or_else(|| format!("scenario `{scenario}` has no [[sides]]"))?;
    let ids: Vec<String> = sides
        .iter()
        .filter_map(|s| s.get("id").and_then(|v| v.as_str()).map(String::from))
        .collect();
    for (side, force) in chosen {
        if !ids.contains(side) {
            return Err(format!(
                "--force {side}={force}: scenario `{scenario}` has no side `{side}`: its sides are {} (R816)",
                ids.join(", ")
            ));
        }
        if !FORCES.iter().any(|(n, _)| n == force) {
            return Err(format!(
                "--force {side}={force}: there is no starter force `{force}`: 003 §11 has three, send one of {} (R816)",
                names()
            ));
        }
    }
    // Unit ids of the sides that keep theirs or that come first: a mirror match renames the
    // later side's ids (R817), so every order names one unit.
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut told: Vec<String> = vec![];
    for s in sides.iter() {
        let id = s.get("id").and_then(|v| v.as_str()).unwrap_or_default();
        if !chosen.contains_key(id) {
            taken.extend(unit_ids(s));
        }
    }
    for s in sides.iter_mut() {
        let t = s
            .as_table_mut()
            .ok_or_else(|| format!("scenario `{scenario}`: a side is not a table"))?;
        let id = t
            .get("id")
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string();
        let Some(force) = chosen.get(&id) else {
            continue;
        };
        // 003 §12: the units enter along their own edge; a side placed on squares has none.
        if t.get("entry").is_none() {
            return Err(format!(
                "--force {id}={force}: scenario `{scenario}` places side {id}'s units on squares, it has no entry edge for them (003 §12: units enter along their own table edge): choose a scenario whose sides enter from an edge, or drop --force (R816)"
            ));
        }
        let file = FORCES
            .iter()
            .find(|(n, _)| n == force)
            .map(|(_, f)| *f)
            .unwrap_or_default();
        let data: toml::Table =
            toml::from_str(file).map_err(|e| format!("starter force `{force}`: {e}"))?;
        let mut units = data
            .get("units")
            .and_then(|v| v.as_array())
            .cloned()
            .unwrap_or_default();
        let renamed: BTreeMap<String, String> = units
            .iter()
            .filter_map(|u| u.get("id").and_then(|v| v.as_str()))
            .map(|u| {
                let new = match taken.contains(u) {
                    true => format!("{u}-{id}"),
                    false => u.to_string(),
                };
                (u.to_string(), new)
            })
            .collect();
        for u in units.iter_mut().filter_map(|u| u.as_table_mut()) {
            for key in ["id", "joins"] {
                if let Some(new) = u
                    .get(key)
                    .and_then(|v| v.as_str())
                    .and_then(|old| renamed.get(old))
                {
                    u.insert(key.into(), toml::Value::String(new.clone()));
                }
            }
        }
        let ids: Vec<&str> = units
            .iter()
            .filter_map(|u| u.get("id").and_then(|v| v.as_str()))
            .collect();
        let name = data.get("name").and_then(|v| v.as_str()).unwrap_or(force);
        told.push(format!("{id} fields {name} ({})", ids.join(", ")));
        t.insert("name".into(), toml::Value::String(name.into()));
        taken.extend(renamed.into_values());
        t.insert("units".into(), toml::Value::Array(units));
    }
    // The briefing tells the forces of this game, not only those the file names (R818).
    let before = doc
        .get("description")
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .trim_end()
        .to_string();
    let note = format!(
        "{before}\nIn this game (003 §11 starter forces, `--force`): {}, instead of the units named above.\n",
        told.join("; ")
    );
    doc.insert("description".into(), toml::Value::String(note));
    toml::to_string(&doc).map_err(|e| format!("scenario `{scenario}`: {e}"))
}

fn unit_ids(side: &toml::Value) -> Vec<String> {
    side.get("units")
        .and_then(|v| v.as_array())
        .map(|us| {
            us.iter()
                .filter_map(|u| u.get("id").and_then(|v| v.as_str()).map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// `--force` under another ruleset: the refusal.
pub fn not_battlefront(ruleset: &str) -> String {
    format!(
        "--force fields one of the starter forces of the 2013 Battlefront rulebook (003 §11: {}), ruleset `{ruleset}` has none: add --ruleset battlefront-2013, or drop --force and play the scenario's own units (R816)",
        names()
    )
}
