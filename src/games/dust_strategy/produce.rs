//! Production (001 "Fase di produzione", "Costi di produzione"; digest 001 §4): units placed at
//! the player's production centres (five a PC a turn, submarines in an adjacent free sea), new
//! PCs, stock limits, and cards bought once a turn after any discards.

use super::model::*;
use super::setup::{draw, hand_text};
use crate::game::{Audience, DiceSource, Happening};
use std::collections::{BTreeMap, BTreeSet};

/// `N TYPE at AREA` → (unit, n, area); `pc at AREA` → (None, 1, area).
pub fn parse_build(rest: &str) -> Result<(Option<Unit>, u32, String), No> {
    let usage = || {
        no(
            format!("`build {rest}` is not a build order"),
            "docs/strategy.md",
            "build 3 tanks at appalachia, build 1 sub at north-atlantic or build pc at hudson",
        )
    };
    let (what, area) = rest.rsplit_once(" at ").ok_or_else(usage)?;
    let area = area.trim().to_ascii_lowercase();
    let words: Vec<&str> = what.split_whitespace().collect();
    match words.as_slice() {
        ["pc"] | ["1", "pc"] | ["a", "pc"] | ["centre"] | ["center"] => Ok((None, 1, area)),
        [n, unit] => {
            let n: u32 = n.parse().map_err(|_| usage())?;
            let unit = Unit::parse(unit).ok_or_else(usage)?;
            if n == 0 {
                return Err(usage());
            }
            Ok((Some(unit), n, area))
        }
        [unit] => Ok((Some(Unit::parse(unit).ok_or_else(usage)?), 1, area)),
        _ => Err(usage()),
    }
}

/// What a build may use this turn.
pub struct Budget<'a> {
    pub left: u32,
    /// Units placed per PC area so far this turn.
    pub placed: &'a mut BTreeMap<String, u32>,
    /// PCs built this turn (they place nothing yet).
    pub new_pcs: &'a mut BTreeSet<String>,
    /// The starting reinforcements: no submarines, no PCs (001 step 7; ruling R308).
    pub setup: bool,
}

/// Places `n` units of `unit` (or a PC) for `side` at `area`; returns the PP spent.
pub fn build(
    s: &mut State,
    side: &str,
    what: (Option<Unit>, u32, String),
    b: &mut Budget,
) -> Result<u32, No> {
    let (unit, n, area) = what;
    if s.map.area(&area).is_none() {
        return Err(no(
            format!("there is no area `{area}` on the map"),
            "docs/strategy.md",
            "an area id as the board lists it",
        ));
    }
    let Some(unit) = unit else {
        return build_pc(s, side, &area, b);
    };
    // Counts come from mail: saturate rather than overflow.
    let cost = unit.cost().saturating_mul(n);
    if cost > b.left {
        return Err(no(
            format!(
                "{n} {} cost {cost} PP and {} PP are left",
                unit.word(n),
                b.left
            ),
            "001 'Fase di produzione', 'Costi di produzione'",
            format!("build fewer: {} PP left", b.left),
        ));
    }
    let on = s.on_board(side, unit);
    if on.saturating_add(n) > unit.stock() {
        return Err(no(
            format!(
                "you have {on} {} on the board and the box holds {}",
                unit.word(on),
                unit.stock()
            ),
            "001 'Eserciti': the pieces are a hard limit",
            format!("build at most {}", unit.stock().saturating_sub(on)),
        ));
    }
    // The PC that places them: the area itself, or for a sub a PC next to the sea.
    let pc_area = if unit.air_land() {
        if !s.map.is_land(&area) {
            return Err(no(
                format!("{} stand on land, and `{area}` is a sea", unit.word(2)),
                "001 'Fase di produzione' 1",
                "build them at one of your production centres",
            ));
        }
        area.clone()
    } else {
        if b.setup {
            return Err(no(
                "no submarines in the starting reinforcements",
                "001 'Preparazione del gioco' 7",
                "build tanks, robots, fighters or bombers at your production centres",
            ));
        }
        if !s.map.is_sea(&area) {
            return Err(no(
                format!("subs go to sea, and `{area}` is land"),
                "001 'Fase di produzione' 2",
                "build 1 sub at a sea next to one of your production centres",
            ));
        }
        match s.owner(&area) {
            Some(o) if o != side => {
                return Err(no(
                    format!("`{area}` holds {o}'s subs"),
                    "001 'Fase di produzione' 2: the sea must be free or hold your own subs",
                    "a free sea, or one with your subs, next to your production centre",
                ))
            }
            _ => {}
        }
        let pcs = usable_pcs(s, side, b);
        let next: Vec<String> = pcs
            .into_iter()
            .filter(|p| s.map.adjacent(p, &area))
            .collect();
        // The PC next to the sea with the most room left places them.
        match next.iter().max_by_key(|p| {
            (
                PER_PC - b.placed.get(*p).copied().unwrap_or(0).min(PER_PC),
                std::cmp::Reverse((*p).clone()),
            )
        }) {
            Some(p) => p.clone(),
            None => return Err(no(
                format!("none of your production centres is next to `{area}`"),
                "001 'Fase di produzione' 2",
                "build subs in a sea next to a production centre you held at the start of the turn",
            )),
        }
    };
    if unit.air_land() && !usable_pcs(s, side, b).contains(&pc_area) {
        let why = if b.new_pcs.contains(&pc_area) {
            format!("the production centre at {pc_area} was built this turn and places nothing until your next turn")
        } else {
            format!("you have no production centre at {pc_area}")
        };
        let list = usable_pcs(s, side, b);
        return Err(no(
            why,
            "001 'Fase di produzione' 1",
            if list.is_empty() {
                "build pc at AREA (it places units from your next turn)".to_string()
            } else {
                format!("build at {}", list.join(", "))
            },
        ));
    }
    let used = b.placed.get(&pc_area).copied().unwrap_or(0);
    if used.saturating_add(n) > PER_PC {
        return Err(no(
            format!(
                "the production centre at {pc_area} has placed {used} unit{} this turn; it places at most {PER_PC}",
                if used == 1 { "" } else { "s" }
            ),
            "001 'Fase di produzione' 3",
            format!("build at most {} there", PER_PC.saturating_sub(used)),
        ));
    }
    *b.placed.entry(pc_area).or_insert(0) += n;
    s.areas.entry(area).or_default().add(side, unit, n);
    b.left -= cost;
    Ok(cost)
}

/// PCs that place units this turn: held, and not built this turn.
fn usable_pcs(s: &State, side: &str, b: &Budget) -> Vec<String> {
    s.pcs_of(side)
        .into_iter()
        .filter(|p| !b.new_pcs.contains(p))
        .collect()
}

fn build_pc(s: &mut State, side: &str, area: &str, b: &mut Budget) -> Result<u32, No> {
    let rule = "001 'Fase di produzione' 4";
    if b.setup {
        return Err(no(
            "the starting reinforcements buy units only",
            "001 'Preparazione del gioco' 7; ruling R308",
            "build tanks, robots, fighters or bombers at your production centres",
        ));
    }
    if !s.map.is_land(area) || !s.owns(side, area) {
        return Err(no(
            format!("you do not hold the land area `{area}`"),
            rule,
            "build pc at a land area your units hold",
        ));
    }
    if s.map.area(area).is_some_and(|a| a.vk) {
        return Err(no(
            format!("`{area}` is a VK deposit"),
            rule,
            "build pc at a land area of yours that is no deposit",
        ));
    }
    if s.holding(area).pc {
        return Err(no(
            format!("`{area}` already has a production centre"),
            rule,
            "build pc at an area without one",
        ));
    }
    if s.pcs_total() >= MAX_PCS {
        return Err(no(
            format!("all {MAX_PCS} production centres are on the board"),
            "001 'Componenti': never more than 24",
            "build units instead",
        ));
    }
    if 6 > b.left {
        return Err(no(
            format!("a production centre costs 6 PP and {} are left", b.left),
            "001 'Costi di produzione'",
            "build fewer units first",
        ));
    }
    s.areas.entry(area.to_string()).or_default().pc = true;
    b.new_pcs.insert(area.to_string());
    b.left -= 6;
    Ok(6)
}

/// `discard c03, c07`: before buying (001 "Fase di produzione").
pub fn discard(s: &mut State, side: &str, bought: bool, list: &str) -> Result<String, No> {
    let rule = "001 'Fase di produzione': discard before buying";
    if bought {
        return Err(no(
            "you have bought cards this turn; discards come before the purchase",
            rule,
            "send discards before `buy` next turn",
        ));
    }
    let ids: Vec<String> = list
        .split([',', ' '])
        .map(|w| w.trim().to_ascii_lowercase())
        .filter(|w| !w.is_empty())
        .collect();
    let hand = s.hands.get(side).cloned().unwrap_or_default();
    if ids.is_empty() {
        return Err(no(
            "name the cards to discard",
            rule,
            format!(
                "discard CARD, e.g. discard {}",
                hand.first().map(String::as_str).unwrap_or("c01")
            ),
        ));
    }
    if let Some(bad) = ids.iter().find(|i| !hand.contains(i)) {
        return Err(no(
            format!("`{bad}` is not in your hand (you hold {})", hand.join(", ")),
            rule,
            "discard a card you hold",
        ));
    }
    if let Some(h) = s.hands.get_mut(side) {
        h.retain(|c| !ids.contains(c));
    }
    s.discard.extend(ids.iter().cloned());
    s.discard.sort();
    Ok(format!("discard {}", ids.join(", ")))
}

/// `buy N`: N cards for N PP, once a turn, the hand never above five; drawn from the hidden
/// stream, seen by the buyer alone.
pub fn buy(
    s: &mut State,
    side: &str,
    n: u32,
    left: u32,
    dice: &mut dyn DiceSource,
    out: &mut Vec<Happening>,
) -> Result<u32, No> {
    let rule = "001 'Le carte', 'Fase di produzione'";
    let held = s.hands.get(side).map(Vec::len).unwrap_or(0);
    let room = HAND_LIMIT.saturating_sub(held) as u32;
    if n == 0 || n > room {
        return Err(no(
            format!("you hold {held} cards and the hand holds at most {HAND_LIMIT}"),
            rule,
            format!("buy at most {room}, or discard first"),
        ));
    }
    if n > left {
        return Err(no(
            format!("{n} cards cost {n} PP and {left} PP are left"),
            rule,
            format!("buy {left}"),
        ));
    }
    let mut got = Vec::new();
    for _ in 0..n {
        if let Some(c) = draw(s, side, dice) {
            got.push(c);
        }
    }
    let spent = got.len() as u32;
    let hand = s.hands.entry(side.to_string()).or_default();
    hand.extend(got.iter().cloned());
    hand.sort();
    out.push(Happening {
        text: format!("{side} draws {}", hand_text(s, &got)),
        audience: Audience::Side(side.to_string()),
        ..Happening::default()
    });
    out.push(Happening::text(format!(
        "{side} buys {spent} card{}",
        if spent == 1 { "" } else { "s" }
    )));
    Ok(spent)
}
