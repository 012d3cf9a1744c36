//! A player's turn (001 "Il turno di gioco"): production, then movement (001 "Fase di
//! movimenti": air/land, sea, amphibious and strategic moves, 1 MP each), then `end`; the
//! round's card choice and turn order; the Victory Point phase (001 "Fase di calcolo dei Punti
//! Vittoria", "La Supremazia", "Conclusione del gioco"). Attacks: combat.rs.

use super::model::*;
use super::setup::{draw, reveal};
use crate::game::{GameResult, Happening};
use std::collections::{BTreeMap, BTreeSet};

/// Starts the turn of `order[index]`.
pub fn start_turn(s: &mut State, index: usize, out: &mut Vec<Happening>) {
    super::powers::koshka_cut(s, index, out);
    s.phase = Phase::Turn { index };
    let Some(side) = s.order.get(index).cloned() else {
        return;
    };
    let card = s.played.get(&side).and_then(|c| s.card(c)).cloned();
    let (production, mp, cp) = card
        .map(|c| (c.production, c.mp, c.cp))
        .unwrap_or((0, 0, 0));
    let budget = s.budget(&side, production);
    s.turn = Some(TurnState {
        side: side.clone(),
        budget,
        spent: 0,
        moves: mp,
        moved: 0,
        stage: Stage::Production,
        placed: BTreeMap::new(),
        new_pcs: BTreeSet::new(),
        bought: false,
        attacks: cp,
        attacked: 0,
        attacks_made: Vec::new(),
        won: Vec::new(),
    });
    out.push(Happening::text(format!(
        "round {}: {side}'s turn: {budget} PP, {mp} move{}, {cp} attack{}",
        s.round,
        if mp == 1 { "" } else { "s" },
        if cp == 1 { "" } else { "s" }
    )));
}

/// Starts a round's card choice; a side without cards plays the deck's top card blind (001
/// "Sequenza di gioco").
pub fn start_cards(
    s: &mut State,
    dice: &mut dyn crate::game::DiceSource,
    out: &mut Vec<Happening>,
) {
    s.phase = Phase::Cards;
    for side in s.sides.clone() {
        if s.hands.get(&side).is_none_or(Vec::is_empty) && !s.sealed.contains_key(&side) {
            if let Some(c) = draw(s, &side, dice) {
                s.sealed.insert(side.clone(), c);
                out.push(Happening::text(format!(
                    "{side} holds no card and plays the top card of the deck blind"
                )));
            }
        }
    }
    if s.sides.iter().all(|x| s.sealed.contains_key(x)) {
        reveal(s, out);
        start_turn(s, 0, out);
    }
}

/// Ends the current turn; after the last, the VP phase and the next round.
pub fn end_turn(
    s: &mut State,
    dice: &mut dyn crate::game::DiceSource,
    out: &mut Vec<Happening>,
    rounds_ended: &mut Vec<u32>,
) -> Option<GameResult> {
    let Phase::Turn { index } = s.phase else {
        return None;
    };
    s.turn = None;
    if index + 1 < s.order.len() {
        start_turn(s, index + 1, out);
        return None;
    }
    let result = victory_phase(s, out);
    rounds_ended.push(s.round);
    if result.is_some() {
        s.phase = Phase::Over;
        return result;
    }
    for (_, c) in std::mem::take(&mut s.played) {
        s.discard.push(c);
    }
    s.discard.sort();
    s.round += 1;
    // 001 "Poteri Speciali": every power's effect ends with the round.
    s.powers_used.clear();
    s.truces.clear();
    s.koshka.clear();
    out.push(Happening::text(format!(
        "round {} begins: every player chooses a card face down",
        s.round
    )));
    start_cards(s, dice, out);
    None
}

/// Supremacy in one sector: a strict leader takes it; a holder tied for the lead keeps it; a
/// tie among others leaves it to nobody; holding nothing is no supremacy (ruling R309).
fn supremacy(holder: Option<&str>, counts: &BTreeMap<String, u32>) -> Option<String> {
    let top = counts.values().copied().max().unwrap_or(0);
    if top == 0 {
        return None;
    }
    let leaders: Vec<&String> = counts
        .iter()
        .filter(|(_, n)| **n == top)
        .map(|(s, _)| s)
        .collect();
    if let Some(h) = holder {
        if leaders.iter().any(|l| l.as_str() == h) {
            return Some(h.to_string());
        }
    }
    (leaders.len() == 1).then(|| leaders[0].clone())
}

/// How many of a sector a side holds.
type Count = fn(&State, &str) -> u32;

/// The VP phase; the game's result when someone reached 40 and the tie-breaks decide.
pub fn victory_phase(s: &mut State, out: &mut Vec<Happening>) -> Option<GameResult> {
    let sides = s.sides.clone();
    let sectors: [(&str, Count); 3] = [
        ("production", |s, x| s.pcs_of(x).len() as u32),
        ("land", State::land_of),
        ("sea", State::sea_of),
    ];
    let mut lines = Vec::new();
    for (sector, count) in sectors {
        let counts: BTreeMap<String, u32> =
            sides.iter().map(|x| (x.clone(), count(s, x))).collect();
        let before = s.supremacy.get(sector).cloned();
        match supremacy(before.as_deref(), &counts) {
            Some(h) => {
                lines.push(format!("{sector} supremacy: {h}"));
                s.supremacy.insert(sector.to_string(), h);
            }
            None => {
                lines.push(format!("{sector} supremacy: nobody"));
                s.supremacy.remove(sector);
            }
        }
    }
    let mut scored = BTreeMap::new();
    for side in &sides {
        let tokens = s.supremacy.values().filter(|h| *h == side).count() as u32;
        let gain = 2 * s.capitals_held(side) + 2 * tokens + s.vk_of(side) / 3;
        *s.vp.entry(side.clone()).or_insert(0) += gain;
        scored.insert(side.clone(), gain);
        lines.push(format!(
            "{side} scores {gain} (total {})",
            s.vp.get(side).copied().unwrap_or(0)
        ));
    }
    s.last_scored = scored;
    out.push(Happening::text(format!(
        "round {} victory points: {}",
        s.round,
        lines.join("; ")
    )));
    let top = s.vp.values().copied().max().unwrap_or(0);
    if top < VP_TO_WIN {
        return None;
    }
    // 001 "Conclusione del gioco": the highest total; ties by VP this round, supremacy tokens,
    // land areas, deposits, capitals; still equal: one more round.
    let key = |x: &String| {
        (
            s.vp.get(x).copied().unwrap_or(0),
            s.last_scored.get(x).copied().unwrap_or(0),
            s.supremacy.values().filter(|h| *h == x).count() as u32,
            s.land_of(x),
            s.vk_of(x),
            s.capitals_held(x),
        )
    };
    let best = sides.iter().map(key).max()?;
    let winners: Vec<&String> = sides.iter().filter(|x| key(x) == best).collect();
    if winners.len() != 1 {
        out.push(Happening::text(
            "the leaders are equal on every tie-break: one more round (001 'Conclusione del gioco')",
        ));
        return None;
    }
    Some(GameResult {
        winner: Some(winners[0].clone()),
        reason: format!("{} reached {} victory points", winners[0], best.0),
        points: s.vp.clone(),
    })
}

/// `2 tanks, 1 robot` or `all` (every air/land unit in `from`).
pub fn parse_units(spec: &str, s: &State, from: &str, subs: bool) -> Result<Units, No> {
    let spec = spec.trim();
    let h = s.holding(from);
    if spec.eq_ignore_ascii_case("all") {
        let u: Units = h
            .units
            .iter()
            .filter(|(t, _)| t.air_land() != subs)
            .map(|(t, n)| (*t, *n))
            .collect();
        return Ok(u);
    }
    let mut u = Units::new();
    for part in spec.split(',') {
        let w: Vec<&str> = part.split_whitespace().collect();
        let (n, t) = match w.as_slice() {
            [n, t] => (n.parse::<u32>().ok(), Unit::parse(t)),
            [t] => (Some(1), Unit::parse(t)),
            _ => (None, None),
        };
        let (Some(n), Some(t)) = (n, t) else {
            return Err(no(
                format!("`{}` is not a count and a unit type", part.trim()),
                "docs/strategy.md",
                "e.g. move 2 tanks, 1 robot from hudson to prairies",
            ));
        };
        let c = u.entry(t).or_insert(0);
        *c = c.saturating_add(n);
    }
    Ok(u)
}

pub(super) fn check_units(
    s: &State,
    side: &str,
    from: &str,
    u: &Units,
    subs: bool,
) -> Result<(), No> {
    if !s.owns(side, from) {
        return Err(no(
            format!("you have no units in `{from}`"),
            "001 'Fase di movimenti'",
            "move units from an area you hold",
        ));
    }
    let h = s.holding(from);
    if u.values().all(|n| *n == 0) {
        return Err(no(
            "no unit named",
            "docs/strategy.md",
            "name the units to move",
        ));
    }
    for (t, n) in u {
        if t.air_land() == subs {
            return Err(no(
                if subs {
                    format!("a sea move carries subs only, not {}", t.word(2))
                } else {
                    "subs move by `sea`".to_string()
                },
                "001 'Movimento marino', 'Movimento aereo/terrestre'",
                if subs {
                    "sea 2 subs from S1 to S2"
                } else {
                    "move 2 tanks from A to B"
                },
            ));
        }
        let have = h.units.get(t).copied().unwrap_or(0);
        if *n > have {
            return Err(no(
                format!("`{from}` holds {have} {}, not {n}", t.word(have)),
                "001 'Fase di movimenti'",
                format!("move at most {have} {}", t.word(have)),
            ));
        }
    }
    Ok(())
}

/// Areas reachable from `from` through transit areas `pass` accepts, ending in one `end`
/// accepts (transit areas are never the start).
pub(super) fn reachable(
    s: &State,
    from: &str,
    to: &str,
    link_ok: &dyn Fn(&str, &str) -> bool,
    pass: &dyn Fn(&str) -> bool,
) -> bool {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from.to_string()];
    while let Some(a) = todo.pop() {
        if !seen.insert(a.clone()) {
            continue;
        }
        for n in s.map.neighbours(&a) {
            if !link_ok(&a, n) {
                continue;
            }
            if n == to {
                return true;
            }
            if pass(n) {
                todo.push(n.to_string());
            }
        }
    }
    false
}

fn shift(s: &mut State, side: &str, from: &str, to: &str, u: &Units) {
    for (t, n) in u {
        s.areas.entry(from.to_string()).or_default().remove(*t, *n);
        s.areas.entry(to.to_string()).or_default().add(side, *t, *n);
    }
}

fn dest_free(s: &State, side: &str, to: &str, rule: &str) -> Result<(), No> {
    match s.owner(to) {
        Some(o) if o != side => Err(no(
            format!("`{to}` is held by {o}"),
            rule,
            "move to an area you hold or an empty one; taking it is an attack (not built yet)",
        )),
        _ => Ok(()),
    }
}

/// `move UNITS from A to B`: air/land units along land links through areas the mover holds
/// (001 "Movimento aereo/terrestre"; empty areas are destinations only, ruling R310).
pub fn land_move(s: &mut State, side: &str, u: &Units, from: &str, to: &str) -> Result<String, No> {
    let rule = "001 'Movimento aereo/terrestre'";
    check_units(s, side, from, u, false)?;
    if !s.map.is_land(to) || from == to {
        return Err(no(
            format!("`{to}` is no other land area"),
            rule,
            "move to another land area; across the sea: amphibious …",
        ));
    }
    dest_free(s, side, to, rule)?;
    let land = |a: &str, b: &str| s.map.is_land(a) && s.map.is_land(b);
    let own = |a: &str| s.map.is_land(a) && s.owns(side, a);
    if !reachable(s, from, to, &land, &own) {
        return Err(no(
            format!("no land route from {from} to {to} passes only through land areas you hold"),
            rule,
            "a destination reached through your own land areas",
        ));
    }
    shift(s, side, from, to, u);
    Ok(format!("move {} from {from} to {to}", units_text(u)))
}

/// `sea N subs from S1 to S2` (001 "Movimento marino").
pub fn sea_move(s: &mut State, side: &str, u: &Units, from: &str, to: &str) -> Result<String, No> {
    let rule = "001 'Movimento marino'";
    check_units(s, side, from, u, true)?;
    if !s.map.is_sea(to) || from == to {
        return Err(no(
            format!("`{to}` is no other sea area"),
            rule,
            "sea N subs from S1 to S2",
        ));
    }
    match s.owner(to) {
        Some(o) if o != side => {
            return Err(no(
                format!("`{to}` holds {o}'s subs"),
                rule,
                "a sea that is free or holds your subs; attacking subs is a naval attack (not built yet)",
            ))
        }
        _ => {}
    }
    let sea = |a: &str, b: &str| s.map.is_sea(a) && s.map.is_sea(b);
    let open = |a: &str| s.map.is_sea(a) && s.owner(a).is_none_or(|o| o == side);
    if !reachable(s, from, to, &sea, &open) {
        return Err(no(
            format!("no sea route from {from} to {to} through free seas or seas with your subs"),
            rule,
            "another destination",
        ));
    }
    shift(s, side, from, to, u);
    Ok(format!("sea {} from {from} to {to}", units_text(u)))
}

/// `amphibious UNITS from A to B`: from a coastal land area through seas that each hold the
/// mover's subs to a land area held or empty (001 "Movimento anfibio").
pub fn amphibious(
    s: &mut State,
    side: &str,
    u: &Units,
    from: &str,
    to: &str,
) -> Result<String, No> {
    let rule = "001 'Movimento anfibio'";
    check_units(s, side, from, u, false)?;
    if !s.map.is_land(to) || from == to {
        return Err(no(
            format!("`{to}` is no other land area"),
            rule,
            "amphibious UNITS from A to B",
        ));
    }
    dest_free(s, side, to, rule)?;
    if !sea_route(s, side, from, to) {
        return Err(no(
            format!("no sea route from {from} to {to} where every sea holds your subs"),
            rule,
            "put subs in every sea of the route first (sea …)",
        ));
    }
    shift(s, side, from, to, u);
    Ok(format!("amphibious {} from {from} to {to}", units_text(u)))
}

/// Land → sea → … → sea → land, every sea holding `side`'s subs (001 "Movimento anfibio" 3–4).
pub(super) fn sea_route(s: &State, side: &str, from: &str, to: &str) -> bool {
    let link = |a: &str, b: &str| s.map.is_sea(a) || s.map.is_sea(b);
    let carried = |a: &str| s.map.is_sea(a) && s.owns(side, a);
    reachable(s, from, to, &link, &carried)
}

/// `strategic 2 bombers from A, 1 bomber from B to C`: bombers from anywhere to one land area
/// held or empty, no route needed (001 "Movimento strategico").
pub fn strategic(s: &mut State, side: &str, rest: &str) -> Result<String, No> {
    let rule = "001 'Movimento strategico'";
    let usage = "strategic 2 bombers from alaska, 1 bomber from yukon to hudson";
    let (froms, to) = rest
        .rsplit_once(" to ")
        .ok_or_else(|| no("a strategic move names its destination", rule, usage))?;
    let to = to.trim().to_ascii_lowercase();
    let mut groups: Vec<(String, u32)> = Vec::new();
    for part in froms.split(',') {
        let (spec, from) = part
            .rsplit_once(" from ")
            .ok_or_else(|| no(format!("`{}` names no origin", part.trim()), rule, usage))?;
        let u = parse_units(spec, s, from.trim(), false)?;
        if u.keys().any(|t| *t != Unit::Bomber) {
            return Err(no("only bombers move strategically", rule, usage));
        }
        let n = u.values().sum();
        let from = from.trim().to_ascii_lowercase();
        check_units(s, side, &from, &u, false)?;
        groups.push((from, n));
    }
    if !s.map.is_land(&to) {
        return Err(no(format!("`{to}` is no land area"), rule, usage));
    }
    dest_free(s, side, &to, rule)?;
    for (from, n) in &groups {
        let u: Units = [(Unit::Bomber, *n)].into_iter().collect();
        shift(s, side, from, &to, &u);
    }
    let said: Vec<String> = groups
        .iter()
        .map(|(f, n)| format!("{n} {} from {f}", Unit::Bomber.word(*n)))
        .collect();
    Ok(format!("strategic {} to {to}", said.join(", ")))
}
