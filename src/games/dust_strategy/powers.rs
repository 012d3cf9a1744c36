//! The special powers built so far (001 "Poteri Speciali"; digest 001 §8.2): the power of the
//! card a side played, once a round, its effect ending with the round. Built: Costruttore di
//! Robot, Diplomatico, Missili Balistici here; L'Asso del cielo, Sigrid and Raketen Truppen on
//! an attack line (combat.rs); Sgancia Robot (attack_orders.rs); Infermiera, Arma Segreta and
//! Radar Alieno with the retreats (combat.rs, retreat.rs); Koshka here.

use super::model::*;
use super::naval::check_common;
use crate::game::{DiceSource, Happening, Roll};

/// Checks that `side` played a card with `power` this round and has not used it yet.
pub(super) fn ready(s: &State, side: &str, power: &str) -> Result<(), No> {
    let played = s.played.get(side).and_then(|c| s.card(c));
    if played.map(|c| c.power.as_str()) != Some(power) {
        return Err(no(
            format!(
                "the card you played this round ({}) does not carry {power}",
                played
                    .map(|c| c.describe())
                    .unwrap_or_else(|| "none".into())
            ),
            "001 'Poteri Speciali': the power of the card played",
            "use the power of your own card",
        ));
    }
    if s.powers_used.contains(side) {
        return Err(no(
            format!("you have used {power} this round"),
            "001 'Poteri Speciali': once a round",
            "use it again next round, with a card that carries it",
        ));
    }
    Ok(())
}

/// `costruttore-di-robot at AREA`: one robot more in this turn's production, free, at a PC of
/// the side, beyond that PC's five (001 "Costruttore di Robot"; ruling R317).
pub fn robot_builder(s: &mut State, side: &str, t: &TurnState, area: &str) -> Result<String, No> {
    let rule = "001 'Costruttore di Robot'";
    ready(s, side, "costruttore-di-robot")?;
    if !s.pcs_of(side).iter().any(|p| p == area) || t.new_pcs.contains(area) {
        return Err(no(
            format!("you have no production centre at `{area}` that places units this turn"),
            rule,
            format!("costruttore-di-robot at {}", s.pcs_of(side).join(" or ")),
        ));
    }
    if s.on_board(side, Unit::Robot) >= Unit::Robot.stock() {
        return Err(no(
            "all 20 of your robots are on the board",
            "001 'Eserciti': the pieces are a hard limit",
            "leave it out",
        ));
    }
    s.areas
        .entry(area.to_string())
        .or_default()
        .add(side, Unit::Robot, 1);
    s.powers_used.insert(side.to_string());
    Ok(format!("Costruttore di Robot: a free robot at {area}"))
}

/// `diplomatico COLOUR`: a truce with that side for the rest of the round, both ways (001
/// "Diplomatico"; ruling R318).
pub fn diplomat(s: &mut State, side: &str, other: &str) -> Result<String, No> {
    ready(s, side, "diplomatico")?;
    let other = other.trim().trim_start_matches("with ").trim();
    if other == side || !s.sides.iter().any(|x| x == other) {
        return Err(no(
            format!("`{other}` is no other player"),
            "001 'Diplomatico'",
            format!(
                "diplomatico {}",
                s.sides
                    .iter()
                    .find(|x| *x != side)
                    .map(String::as_str)
                    .unwrap_or("blue")
            ),
        ));
    }
    s.truces.push((side.to_string(), other.to_string()));
    s.powers_used.insert(side.to_string());
    Ok(format!(
        "Diplomatico: a truce with {other} for the rest of the round"
    ))
}

/// `missili-balistici at AREA`: 1 CP; one die per PC the side holds at any enemy land area
/// but a capital; hits ignore the protection rules; no return fire, no occupation (001
/// "Missili Balistici").
pub fn missiles(
    s: &mut State,
    side: &str,
    t: &TurnState,
    to: &str,
    priority: &[Unit],
    dice: &mut dyn DiceSource,
) -> Result<Vec<Happening>, No> {
    let rule = "001 'Missili Balistici'";
    ready(s, side, "missili-balistici")?;
    if !s.map.is_land(to) {
        return Err(no(
            format!("`{to}` is no land area"),
            rule,
            "missili-balistici at LAND",
        ));
    }
    if s.map.area(to).is_some_and(|a| a.capital.is_some()) {
        return Err(no(
            format!("`{to}` is a capital"),
            rule,
            "aim at an area that is no capital",
        ));
    }
    let enemy = check_common(s, side, t, "missili-balistici", to)?;
    let n = s.pcs_of(side).len() as u32;
    let faces: Vec<u8> = (0..n).map(|_| dice.d6(s.round)).collect();
    let hits = faces.iter().filter(|f| **f <= 2).count() as u32;
    let area = s.areas.entry(to.to_string()).or_default();
    let mut killed = Units::new();
    for _ in 0..hits {
        let Some(u) = priority
            .iter()
            .copied()
            .find(|u| area.units.get(u).copied().unwrap_or(0) > 0)
        else {
            break;
        };
        area.remove(u, 1);
        *killed.entry(u).or_insert(0) += 1;
    }
    s.powers_used.insert(side.to_string());
    Ok(vec![Happening {
        text: format!(
            "{side} fires ballistic missiles at {to} ({enemy}): {n} dice, {hits} hit{}{}",
            if hits == 1 { "" } else { "s" },
            if killed.is_empty() {
                String::new()
            } else {
                format!(", {} lost", units_text(&killed))
            }
        ),
        rolls: vec![Roll {
            purpose: format!("{side} missiles at {to}"),
            round: s.round,
            faces,
        }],
        ..Happening::default()
    }])
}

/// `koshka before COLOUR` (or `koshka first`): written in advance, in the card mail or any mail
/// before that player's turn starts; it acts if the card played this round carries Koshka
/// (001 "Koshka"; ruling R327). `koshka nothing` withdraws it.
pub fn koshka_intent(s: &mut State, side: &str, rest: &str) -> Result<String, No> {
    let rule = "001 'Koshka' (ruling R327)";
    let target = rest.trim().trim_start_matches("before ").trim();
    if target == "nothing" || target == "none" {
        s.koshka.remove(side);
        return Ok("no Koshka this round".into());
    }
    if target != "first" && (target == side || !s.sides.iter().any(|x| x == target)) {
        return Err(no(
            format!("`{target}` is no other player"),
            rule,
            "koshka before COLOUR, or koshka first",
        ));
    }
    if s.powers_used.contains(side) {
        return Err(no(
            "you have used your card's power this round",
            "001 'Poteri Speciali': once a round",
            "koshka next round",
        ));
    }
    s.koshka.insert(side.to_string(), target.to_string());
    Ok(format!(
        "Koshka before {target}, if the card you play this round carries it"
    ))
}

/// At the start of `order[index]`'s turn: a side still to play this round whose card carries
/// Koshka and who wrote `koshka before` that player (or `first`, at the first turn) takes the
/// turn in its place; that player comes straight after. Several: more stars first, then the
/// earlier in the order (001 "Koshka").
pub fn koshka_cut(s: &mut State, index: usize, out: &mut Vec<Happening>) {
    let Some(target) = s.order.get(index).cloned() else {
        return;
    };
    let mut best: Option<(u32, usize)> = None;
    for (pos, k) in s.order.iter().enumerate().skip(index + 1) {
        let aimed = s
            .koshka
            .get(k)
            .is_some_and(|t| *t == target || (t == "first" && index == 0));
        let card = s.played.get(k).and_then(|c| s.card(c));
        let Some(card) = card.filter(|c| aimed && c.power == "koshka") else {
            continue;
        };
        if s.powers_used.contains(k) {
            continue;
        }
        if best.is_none_or(|(stars, _)| card.stars > stars) {
            best = Some((card.stars, pos));
        }
    }
    let Some((_, pos)) = best else {
        return;
    };
    let k = s.order.remove(pos);
    s.order.insert(index, k.clone());
    s.powers_used.insert(k.clone());
    s.koshka.remove(&k);
    out.push(Happening::text(format!(
        "{k} plays Koshka: {k} takes the turn before {target}, who plays straight after"
    )));
}
