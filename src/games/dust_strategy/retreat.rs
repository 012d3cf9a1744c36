//! Retreats (001 "Ritirata"; digest 001 §6.14) and the standing defensive orders (digest 001
//! §10.2): a battle is fought at once, so each side's retreats are written in advance, the
//! attacker's on its attack line (`retreat at N`), a defender's per area (`defend AREA: …`).
//! Where units may go: attackers back to the area they came from (never from an amphibious
//! attack or a robot drop); defenders to a linked land area of their own colour, or else by
//! their own subs along the shortest route (rulings R321–R323).

use super::model::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Which unit withdraws first when the written order names none: the dearest (ruling R321).
pub const DEFAULT_FIRST: [Unit; 4] = [Unit::Bomber, Unit::Robot, Unit::Fighter, Unit::Tank];

/// A retreat policy: before each roll, while the side has `at` units or fewer left in the
/// battle, one of them withdraws, the first of `first` it still has (ruling R321).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    pub at: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first: Vec<Unit>,
    /// A defender's chosen refuge, used when it is a legal one (ruling R322).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

/// A side's standing defensive order for one area, or for all (`*`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Defence {
    /// The casualty order of the defender's hits; empty: the default of ruling R314.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hits: Vec<Unit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat: Option<Policy>,
    /// Radar Alieno: every unit withdraws before the first roll (001 "Radar Alieno").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub radar: bool,
    /// Infermiera: each unit lost may withdraw instead on a blank (001 "Infermiera").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nurse: bool,
    /// A battle power for the defence: `sigrid`, `raketen-truppen` or `asso-del-cielo`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
    /// `ask`: an attack here pauses for this side's answer (ask.rs; ruling R351).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ask: bool,
}

/// The battle powers a defender may set in a standing order (ruling R328).
pub const DEFENCE_POWERS: [&str; 3] = ["sigrid", "raketen-truppen", "asso-del-cielo"];

/// The key of the standing order that covers every area without one of its own.
pub const ALL_AREAS: &str = "*";

/// The standing order `side` gave for `area`, else its order for all areas, else none.
pub fn defence_of(s: &State, side: &str, area: &str) -> Defence {
    let Some(d) = s.defence.get(side) else {
        return Defence::default();
    };
    d.get(area)
        .or_else(|| d.get(ALL_AREAS))
        .cloned()
        .unwrap_or_default()
}

fn unit_list(text: &str) -> Result<Vec<Unit>, No> {
    let mut out = Vec::new();
    for w in text.split([',', ' ']).filter(|w| !w.trim().is_empty()) {
        match Unit::parse(w) {
            Some(u) if u.air_land() => {
                if !out.contains(&u) {
                    out.push(u);
                }
            }
            _ => {
                return Err(no(
                    format!("`{}` is not a unit type of a land battle", w.trim()),
                    "001 'Ritirata': only air/land units retreat",
                    "tanks, robots, fighters, bombers",
                ))
            }
        }
    }
    Ok(out)
}

/// `at N [TYPES] [to AREA]` (after the word `retreat`).
pub fn parse_policy(text: &str) -> Result<Policy, No> {
    let example = "retreat at 2 robots, tanks to hudson";
    let rest = text.trim();
    let (rest, to) = match rest.rsplit_once(" to ") {
        Some((r, t)) => (r.trim(), Some(t.trim().to_string())),
        None => (rest, None),
    };
    let rest = rest.strip_prefix("at").map(str::trim_start);
    let mut words = rest.unwrap_or("").splitn(2, [' ', ',']);
    let n = words.next().and_then(|w| w.parse::<u32>().ok());
    let Some(at) = n else {
        return Err(no(
            format!("`retreat {text}` says not when: write `retreat at N`, N units or fewer left"),
            "001 'Ritirata' (ruling R321)",
            example,
        ));
    };
    let first = unit_list(words.next().unwrap_or(""))?;
    Ok(Policy { at, first, to })
}

/// `defend AREA: hits: T, T; retreat at N [T…] [to AREA]; radar-alieno; infermiera; sigrid`
/// (or `defend all: …`, or `defend AREA: nothing`): the whole standing order of that area.
pub fn parse_defend(s: &State, rest: &str) -> Result<(String, Defence), No> {
    let rule = "digest 001 §10.2 standing defensive orders (ruling R323)";
    let example = "defend appalachia: hits: robots, tanks; retreat at 1 to hudson";
    let Some((area, clauses)) = rest.split_once(':') else {
        return Err(no(
            "a standing order names its area, then `:`",
            rule,
            example,
        ));
    };
    let area = area.trim();
    let key = if area == "all" {
        ALL_AREAS.to_string()
    } else if s.map.is_land(area) {
        area.to_string()
    } else {
        return Err(no(
            format!("`{area}` is no land area (subs never retreat)"),
            rule,
            example,
        ));
    };
    let mut d = Defence::default();
    for c in clauses.split(';').map(str::trim).filter(|c| !c.is_empty()) {
        if let Some(h) = c.strip_prefix("hits") {
            d.hits = unit_list(h.trim_start_matches([':', ' ']))?;
        } else if let Some(r) = c.strip_prefix("retreat") {
            let p = parse_policy(r)?;
            if let Some(to) = &p.to {
                if !s.map.is_land(to) {
                    return Err(no(format!("`{to}` is no land area"), rule, example));
                }
            }
            d.retreat = Some(p);
        } else if c == "radar-alieno" || c == "radar" {
            d.radar = true;
        } else if c == "infermiera" {
            d.nurse = true;
        } else if DEFENCE_POWERS.contains(&c) {
            d.power = Some(c.to_string());
        } else if c == "ask" {
            d.ask = true;
        } else if c == "nothing" || c == "none" {
            d = Defence::default();
        } else {
            return Err(no(
                format!("`{c}` is no part of a standing defensive order"),
                rule,
                example,
            ));
        }
    }
    Ok((key, d))
}

/// Words for the report and the receipt.
pub fn describe(area: &str, d: &Defence) -> String {
    let mut parts = Vec::new();
    if !d.hits.is_empty() {
        let w: Vec<&str> = d.hits.iter().map(|u| u.word(2)).collect();
        parts.push(format!("hits: {}", w.join(", ")));
    }
    if let Some(p) = &d.retreat {
        let mut t = format!("retreat at {}", p.at);
        if !p.first.is_empty() {
            let w: Vec<&str> = p.first.iter().map(|u| u.word(2)).collect();
            t.push_str(&format!(" {}", w.join(", ")));
        }
        if let Some(to) = &p.to {
            t.push_str(&format!(" to {to}"));
        }
        parts.push(t);
    }
    if d.radar {
        parts.push("radar-alieno".into());
    }
    if d.nurse {
        parts.push("infermiera".into());
    }
    if let Some(p) = &d.power {
        parts.push(p.clone());
    }
    if d.ask {
        parts.push("ask".into());
    }
    if parts.is_empty() {
        parts.push("nothing".into());
    }
    let at = if area == ALL_AREAS { "all" } else { area };
    format!("defend {at}: {}", parts.join("; "))
}

/// The unit that withdraws: the first of `first` present, then the default order.
pub fn pick(units: &Units, first: &[Unit]) -> Option<Unit> {
    first
        .iter()
        .chain(DEFAULT_FIRST.iter())
        .copied()
        .find(|u| units.get(u).copied().unwrap_or(0) > 0)
}

fn map_index(s: &State, id: &str) -> usize {
    s.map
        .areas
        .iter()
        .position(|a| a.id == id)
        .unwrap_or(usize::MAX)
}

/// Where `owner`'s defenders of `from` may retreat (001 "Ritirata"; ruling R322): `prefer` if it
/// is legal; else a linked land area of their own colour, first in map order; else, for a
/// player, the own land area nearest by the side's subs (fewest seas, then map order).
/// Neutrals have no subs: only linked neutral areas.
pub fn refuge(s: &State, owner: &str, from: &str, prefer: Option<&str>) -> Option<String> {
    let mut linked: Vec<String> = s
        .map
        .neighbours(from)
        .into_iter()
        .filter(|n| *n != from && s.map.is_land(n) && s.owns(owner, n))
        .map(str::to_string)
        .collect();
    linked.sort_by_key(|a| map_index(s, a));
    let by_sea = if owner == NEUTRAL {
        Vec::new()
    } else {
        nearest_by_sea(s, owner, from)
    };
    if let Some(p) = prefer {
        if linked.iter().chain(by_sea.iter()).any(|a| a == p) {
            return Some(p.to_string());
        }
    }
    linked
        .into_iter()
        .next()
        .or_else(|| by_sea.into_iter().next())
}

/// Own land areas reached from the coastal `from` across seas that each hold the side's subs,
/// the nearest first (001 "Ritirata": "il percorso più breve possibile").
fn nearest_by_sea(s: &State, side: &str, from: &str) -> Vec<String> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    seen.insert(from.to_string());
    let mut frontier: Vec<String> = s
        .map
        .neighbours(from)
        .into_iter()
        .filter(|n| s.map.is_sea(n) && s.owns(side, n))
        .map(str::to_string)
        .collect();
    while !frontier.is_empty() {
        for sea in &frontier {
            seen.insert(sea.clone());
        }
        let mut found: Vec<String> = Vec::new();
        let mut next: Vec<String> = Vec::new();
        for sea in &frontier {
            for n in s.map.neighbours(sea) {
                if seen.contains(n) {
                    continue;
                }
                if s.map.is_land(n) && s.owns(side, n) {
                    if !found.iter().any(|f| f == n) {
                        found.push(n.to_string());
                    }
                } else if s.map.is_sea(n) && s.owns(side, n) && !next.iter().any(|x| x == n) {
                    next.push(n.to_string());
                }
            }
        }
        if !found.is_empty() {
            found.sort_by_key(|a| map_index(s, a));
            return found;
        }
        frontier = next;
    }
    Vec::new()
}
