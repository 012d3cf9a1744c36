//! Battles fought elsewhere (issue 15, the strategic campaign; rulings R330–R336): a game a
//! campaign opens with `tactical = "all"` does not roll a land battle between two players. The
//! attack line records the battle as awaited (in the attacker's signed submission, a line the
//! referee signs too) and the game waits for it alone; the campaign fights it as a Dust Tactics
//! game and hands back the result with the referee's `decide` control, from which this module
//! derives the strategic outcome. No die is rolled here: the recorded result decides it all.

use super::combat;
use super::model::*;
use crate::game::{Elsewhere, Happening};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The setup file a campaign adds to the game's data (beside the deck) to say which battles are
/// fought elsewhere; a game without it fights every battle itself, byte for byte as before.
pub use crate::pbem::campaign::strategic::SETUP_FILE;

/// The game's policy and the battle it waits for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tactical {
    /// Battles awaited so far (the next one is numbered `count + 1`).
    #[serde(default)]
    pub count: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub awaited: Option<Awaited>,
    /// The unit kinds that go on the table (the campaign's force mapping): a battle is fought
    /// there only when each side has one of them (ruling R332).
    #[serde(default)]
    pub kinds: Vec<Unit>,
    /// The policy's revision (`revision` in the setup file; 0 in games made before it): from 1,
    /// the attacker's lines after a table battle are held for its result (ruling R340) and a
    /// battle power or retreat on a table battle's line is refused (ruling R341).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub revision: u32,
    /// The held lines of the battle just decided, run by the control's own step (R340).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready: Option<super::held::Held>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A land battle between two players, waiting for its result (ruling R331).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Awaited {
    pub battle: u32,
    pub from: String,
    pub to: String,
    pub attacker: String,
    pub defender: String,
    /// The attacking units, taken out of `from` while the battle is fought.
    pub att: Units,
    /// The defenders, still in `to`.
    pub def: Units,
    /// The attacker's lines after the attack, held for the result (ruling R340).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held: Option<super::held::Held>,
    /// Awaited since the line being run; its mail's other lines are not held yet.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fresh: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupFile {
    tactical: String,
    #[serde(default)]
    kinds: Vec<String>,
    #[serde(default)]
    revision: u32,
}

/// Splits the setup's data into the deck and the policy file, checking the policy.
pub fn split_setup(
    files: &BTreeMap<String, String>,
) -> Result<(BTreeMap<String, String>, Option<Tactical>), String> {
    let mut deck = files.clone();
    let Some(text) = deck.remove(SETUP_FILE) else {
        return Ok((deck, None));
    };
    let f: SetupFile = toml::from_str(&text)
        .map_err(|e| format!("{SETUP_FILE}: {e}; write tactical = \"all\""))?;
    if f.tactical != "all" && f.tactical != "agreed" {
        return Err(format!(
            "{SETUP_FILE}: tactical = \"{}\" is not known; write tactical = \"all\" or \"agreed\" (docs/campaigns.md)",
            f.tactical
        ));
    }
    let mut kinds = Vec::new();
    for k in &f.kinds {
        kinds.push(Unit::parse(k).ok_or_else(|| {
            format!(
                "{SETUP_FILE}: `{k}` is no unit of the game: write kinds = [\"tank\", \"robot\"]"
            )
        })?);
    }
    Ok((
        deck,
        Some(Tactical {
            kinds,
            revision: f.revision,
            ..Tactical::default()
        }),
    ))
}

/// Whether the setup's policy is `tactical = "agreed"` (ruling R337): the players choose.
pub fn agreed_policy(files: &BTreeMap<String, String>) -> bool {
    files
        .get(SETUP_FILE)
        .and_then(|t| toml::from_str::<SetupFile>(t).ok())
        .is_some_and(|f| f.tactical == "agreed")
}

/// Whether the attack is a battle fought elsewhere (ruling R330): the game's policy says so, it
/// is a land attack from one area (not amphibious, not dropped robots), the target is held by
/// another player, never the neutrals, each side has a unit of a kind that goes on the table,
/// and, under `tactical = "agreed"`, both players chose the table (R337).
/// From policy revision 1, an attack with Arma Segreta is no battle: the defenders withdraw
/// before any die (001 "Arma Segreta"), so it is played here (ruling R341).
pub(super) fn fought_elsewhere(s: &State, side: &str, o: &combat::Order) -> bool {
    let enemy = s.owner(o.to).unwrap_or(NEUTRAL);
    let Some(t) = &s.tactical else {
        return false;
    };
    if t.revision >= 1 && o.power.as_deref() == Some("arma-segreta") {
        return false;
    }
    let on_table = |u: &Units| u.iter().any(|(k, n)| *n > 0 && t.kinds.contains(k));
    on_table(&o.units)
        && on_table(&s.holding(o.to).units)
        && !o.amphibious
        && o.drop.is_empty()
        && enemy != side
        && s.sides.iter().any(|x| x == enemy)
        && !s.holding(o.to).units.is_empty()
        && super::table::agreed(s, side, enemy)
}

/// Instead of `combat::fight`: records the battle as awaited and says so; `None` when the
/// battle is fought here.
pub fn intercept(s: &mut State, side: &str, o: &combat::Order) -> Option<Vec<Happening>> {
    if !fought_elsewhere(s, side, o) {
        return None;
    }
    let t = s.tactical.as_mut()?;
    t.count += 1;
    let battle = t.count;
    for (u, n) in &o.units {
        s.areas
            .entry(o.from.to_string())
            .or_default()
            .remove(*u, *n);
    }
    let enemy = s.owner(o.to).unwrap_or(NEUTRAL).to_string();
    let def = s.holding(o.to).units;
    let text = format!(
        "{side} attacks {} ({enemy}, {}) from {} with {}: battle {battle} is fought on the table as a Dust Tactics game; the game waits for its result",
        o.to,
        units_text(&def),
        o.from,
        units_text(&o.units)
    );
    let a = Awaited {
        battle,
        from: o.from.to_string(),
        to: o.to.to_string(),
        attacker: side.to_string(),
        defender: enemy,
        att: o.units.clone(),
        def,
        held: None,
        fresh: s.tactical.as_ref().is_some_and(|t| t.revision >= 1),
    };
    if let Some(t) = s.tactical.as_mut() {
        t.awaited = Some(a);
    }
    Some(vec![Happening::text(text)])
}

/// The battle awaited, for the campaign.
pub fn awaited(s: &State) -> Option<Elsewhere> {
    let a = s.tactical.as_ref()?.awaited.as_ref()?;
    let kinds = |u: &Units| -> BTreeMap<String, u32> {
        u.iter()
            .filter(|(_, n)| **n > 0)
            .map(|(k, n)| (k.word(1).to_string(), *n))
            .collect()
    };
    Some(Elsewhere {
        battle: a.battle,
        area: a.to.clone(),
        attacker: a.attacker.clone(),
        defender: a.defender.clone(),
        units: BTreeMap::from([
            (a.attacker.clone(), kinds(&a.att)),
            (a.defender.clone(), kinds(&a.def)),
        ]),
    })
}

/// Whether the game waits for a battle fought elsewhere.
pub fn waiting(s: &State) -> Option<&Awaited> {
    s.tactical.as_ref()?.awaited.as_ref()
}

/// `battle N: winner COLOUR|none; lost COLOUR ID …; lost COLOUR ID …`: the result of the
/// battle fought elsewhere, each lost unit by its table id (`red-tank-2`: the strategic kind
/// after the colour). Applies rulings R333–R335 and says what happened.
pub fn decide(s: &mut State, text: &str) -> Result<String, String> {
    let example = "decide battle 1: winner red; lost red red-tank-1; lost blue blue-robot-1";
    let a = waiting(s)
        .cloned()
        .ok_or_else(|| "the game waits for no battle fought elsewhere".to_string())?;
    let text = text.trim().to_ascii_lowercase();
    let mut parts = text.split(';').map(str::trim);
    let head = parts.next().unwrap_or_default();
    let (b, winner) = head
        .strip_prefix("battle ")
        .and_then(|r| r.split_once(": winner "))
        .ok_or_else(|| format!("`{text}` is not a battle's result: write e.g. {example}"))?;
    if b.trim().parse::<u32>().ok() != Some(a.battle) {
        return Err(format!(
            "battle {b} is not the battle the game waits for (battle {})",
            a.battle
        ));
    }
    let winner = match winner.trim() {
        "none" => None,
        w if w == a.attacker || w == a.defender => Some(w.to_string()),
        w => {
            return Err(format!(
                "`{w}` fought no part in battle {}: the winner is {} or {} or none",
                a.battle, a.attacker, a.defender
            ))
        }
    };
    let mut att = a.att.clone();
    let mut def = a.def.clone();
    for p in parts.filter(|p| !p.is_empty()) {
        let mut w = p.split_whitespace();
        let (Some("lost"), Some(side)) = (w.next(), w.next()) else {
            return Err(format!("`{p}`: write lost COLOUR ID …, e.g. {example}"));
        };
        let units = if side == a.attacker {
            &mut att
        } else if side == a.defender {
            &mut def
        } else {
            return Err(format!("`{p}`: {side} fought no part in the battle"));
        };
        for id in w {
            let kind = id.split('-').nth(1).and_then(Unit::parse);
            let Some(kind) = kind.filter(|k| units.get(k).copied().unwrap_or(0) > 0) else {
                return Err(format!(
                    "`{id}`: {side} had no such unit left in battle {}",
                    a.battle
                ));
            };
            if let Some(n) = units.get_mut(&kind) {
                *n -= 1;
                if *n == 0 {
                    units.remove(&kind);
                }
            }
        }
    }
    // R334: the loser's survivors fall back (the attacker home, the defender to a refuge of
    // its own, else they are lost); R333: a draw is the defender's.
    let attacker_won = winner.as_deref() == Some(a.attacker.as_str());
    let mut told = Vec::new();
    if attacker_won {
        let refuge = super::retreat::refuge(s, &a.defender, &a.to, None);
        match (&refuge, def.is_empty()) {
            (_, true) => {}
            (Some(r), false) => {
                for (u, n) in &def {
                    s.areas
                        .entry(r.clone())
                        .or_default()
                        .add(&a.defender, *u, *n);
                }
                told.push(format!(
                    "{}'s survivors ({}) withdraw to {r}",
                    a.defender,
                    units_text(&def)
                ));
            }
            (None, false) => told.push(format!(
                "{}'s survivors ({}) have nowhere to go and are lost",
                a.defender,
                units_text(&def)
            )),
        }
        let area = s.areas.entry(a.to.clone()).or_default();
        area.units.clear();
        area.owner = None;
        for (u, n) in &att {
            area.add(&a.attacker, *u, *n);
        }
        told.push(if att.is_empty() {
            format!("{} is left empty", a.to)
        } else {
            format!("{} takes {} with {}", a.attacker, a.to, units_text(&att))
        });
    } else {
        for (u, n) in &att {
            s.areas
                .entry(a.from.clone())
                .or_default()
                .add(&a.attacker, *u, *n);
        }
        let area = s.areas.entry(a.to.clone()).or_default();
        area.units = def.clone();
        if area.units.is_empty() {
            area.owner = None;
        }
        told.push(format!(
            "{}'s survivors ({}) return to {}; {} holds {} with {}",
            a.attacker,
            units_text(&att),
            a.from,
            a.defender,
            a.to,
            units_text(&def)
        ));
    }
    if let Some(t) = s.turn.as_mut() {
        t.won.push(attacker_won);
    }
    if let Some(t) = s.tactical.as_mut() {
        t.awaited = None;
        // R340: the attacker's held lines run in the control's own step, with its dice.
        t.ready = a.held.clone();
    }
    Ok(format!(
        "battle {} at {} decided on the table: {}; {}",
        a.battle,
        a.to,
        match &winner {
            Some(w) => format!("{w} won"),
            None => "a draw, which the defender holds".into(),
        },
        told.join("; ")
    ))
}
