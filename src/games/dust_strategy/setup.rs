//! Setup (001 "Preparazione del gioco"; digest 001 §2): the six cards dealt from the hidden
//! stream, the sealed setup card and the setup order it gives, ranked preference lists for the
//! capital, the deposits, the areas and the production centres that the referee resolves in
//! setup order (digest 001 §10.1), the neutrals, and the starting reinforcements.

use super::deck::Card;
use super::model::*;
use super::{accepted, refused, Reply};
use crate::game::{Audience, DiceSource, Happening};
use std::collections::BTreeSet;

/// 001 "Preparazione del gioco" 2: six cards to each player.
pub const DEALT: usize = 6;
/// Step 7: 12 PP plus the setup card's production.
pub const REINFORCE_PP: u32 = 12;

/// Draws one card for `side` from the hidden stream; an empty pile takes the discards first
/// (001 "Le carte": "Se il mazzo … si esaurisce, … mischiatele e formatene uno nuovo").
pub fn draw(s: &mut State, side: &str, dice: &mut dyn DiceSource) -> Option<String> {
    if s.pile.is_empty() {
        s.pile = std::mem::take(&mut s.discard);
        s.pile.sort();
    }
    if s.pile.is_empty() {
        return None;
    }
    let n = u32::try_from(s.pile.len()).unwrap_or(u32::MAX);
    let i = dice.hidden(&Audience::Side(side.to_string()), n) as usize;
    let i = i.min(s.pile.len() - 1);
    Some(s.pile.remove(i))
}

pub fn hand_text(s: &State, ids: &[String]) -> String {
    ids.iter()
        .map(|id| s.card(id).map(Card::describe).unwrap_or_else(|| id.clone()))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Deals the six starting cards at the game's first step, each hand seen by its side alone.
pub fn ensure_dealt(s: &mut State, dice: &mut dyn DiceSource, out: &mut Vec<Happening>) {
    if s.dealt {
        return;
    }
    s.dealt = true;
    for side in s.sides.clone() {
        let mut hand = Vec::new();
        for _ in 0..DEALT {
            if let Some(c) = draw(s, &side, dice) {
                hand.push(c);
            }
        }
        hand.sort();
        out.push(Happening {
            text: format!("{side} is dealt: {}", hand_text(s, &hand)),
            audience: Audience::Side(side.clone()),
            ..Happening::default()
        });
        s.hands.insert(side, hand);
    }
    out.push(Happening::text(format!(
        "each player is dealt {DEALT} cards from the shuffled deck (001 'Preparazione del gioco' 2); each sees only their own"
    )));
}

/// The card `play WHAT` names in `side`'s hand: a card id, or `highest cp|mp|production|stars`
/// (ties by the turn-order key).
pub fn choose(s: &State, side: &str, what: &str) -> Result<String, String> {
    let hand = s.hands.get(side).cloned().unwrap_or_default();
    if hand.is_empty() {
        return Err("you hold no card".into());
    }
    let what = what.trim().to_ascii_lowercase();
    if let Some(field) = what.strip_prefix("highest ") {
        let value = |c: &Card| match field.trim() {
            "cp" | "combat" => Some(c.cp),
            "mp" | "movement" => Some(c.mp),
            "pp" | "production" => Some(c.production),
            "stars" => Some(c.stars),
            _ => None,
        };
        let mut best: Option<&Card> = None;
        for id in &hand {
            let Some(c) = s.card(id) else { continue };
            let v = value(c).ok_or_else(|| {
                format!("`highest {field}`: say highest cp, highest mp, highest production or highest stars")
            })?;
            let better = match best {
                None => true,
                Some(b) => {
                    let bv = value(b).unwrap_or(0);
                    v > bv || (v == bv && c.order_key() < b.order_key())
                }
            };
            if better {
                best = Some(c);
            }
        }
        return best
            .map(|c| c.id.clone())
            .ok_or_else(|| "you hold no card".into());
    }
    if hand.contains(&what) {
        Ok(what)
    } else {
        Err(format!(
            "`{what}` is not in your hand (you hold {})",
            hand.join(", ")
        ))
    }
}

/// Seals `side`'s card: recorded now, shown to the others only when every side has chosen
/// (DESIGN §5 "Sealed choices").
pub fn seal(s: &mut State, side: &str, card: &str, out: &mut Vec<Happening>) {
    if let Some(h) = s.hands.get_mut(side) {
        h.retain(|c| c != card);
    }
    s.sealed.insert(side.to_string(), card.to_string());
    out.push(Happening {
        text: format!(
            "{side} plays {} face down",
            s.card(card).map(Card::describe).unwrap_or_default()
        ),
        audience: Audience::Side(side.to_string()),
        ..Happening::default()
    });
    out.push(Happening::text(format!(
        "{side} has chosen a card (face down until every player has chosen)"
    )));
}

/// Reveals the sealed cards and sets the order: CP, then MP, then stars, highest first (001
/// "Sequenza di gioco"; ruling R305).
pub fn reveal(s: &mut State, out: &mut Vec<Happening>) {
    s.played = std::mem::take(&mut s.sealed);
    let mut order: Vec<String> = s.sides.clone();
    order.sort_by_key(|side| {
        s.played
            .get(side)
            .and_then(|c| s.card(c))
            .map(Card::order_key)
    });
    let shown: Vec<String> = order
        .iter()
        .map(|side| {
            format!(
                "{side} {}",
                s.played
                    .get(side)
                    .and_then(|c| s.card(c))
                    .map(Card::describe)
                    .unwrap_or_default()
            )
        })
        .collect();
    out.push(Happening::text(format!(
        "the cards are revealed: {}; the order is {}",
        shown.join("; "),
        order.join(", ")
    )));
    s.order = order;
}

/// Which areas a preference list may name.
type Fits<'a> = dyn Fn(&str) -> bool + 'a;

/// One `capital:`, `deposits:`, `areas:` or `centres:` line.
pub fn preference(s: &mut State, side: &str, line: usize, key: &str, list: &str) -> Reply {
    let names: Vec<String> = list
        .split([',', ' '])
        .map(|w| w.trim().to_ascii_lowercase())
        .filter(|w| !w.is_empty())
        .collect();
    let (what, rule, fits): (&str, &str, &Fits) = match key {
        "capital" | "capitals" => ("capital", "001 'Preparazione del gioco' 3", &|a: &str| {
            s.map.area(a).is_some_and(|x| x.capital.is_some())
        }),
        "deposits" | "deposit" | "vk" => {
            ("deposits", "001 'Preparazione del gioco' 4", &|a: &str| {
                s.map.area(a).is_some_and(|x| x.vk && s.map.is_land(a))
            })
        }
        "areas" | "area" => ("areas", "001 'Preparazione del gioco' 5", &|a: &str| {
            s.map
                .area(a)
                .is_some_and(|x| s.map.is_land(a) && !x.vk && x.capital.is_none())
        }),
        _ => ("centres", "001 'Preparazione del gioco' 6", &|a: &str| {
            s.map.area(a).is_some_and(|x| s.map.is_land(a) && !x.vk)
        }),
    };
    if let Some(bad) = names.iter().find(|n| !fits(n)) {
        let choices: Vec<&str> = s
            .map
            .areas
            .iter()
            .filter(|a| fits(&a.id))
            .map(|a| a.id.as_str())
            .collect();
        return refused(
            line,
            format!("`{bad}` cannot be a choice of {what}"),
            rule,
            format!("{what}: {}", choices.join(", ")),
        );
    }
    let p = s.prefs.entry(side.to_string()).or_default();
    let slot = match what {
        "capital" => &mut p.capital,
        "deposits" => &mut p.deposits,
        "areas" => &mut p.areas,
        _ => &mut p.centres,
    };
    *slot = names.clone();
    accepted(
        line,
        format!(
            "{what} preferred, best first: {}",
            if names.is_empty() {
                "none (map order)".to_string()
            } else {
                names.join(", ")
            }
        ),
    )
}

/// Places one tank of `side` (setup), or a neutral tank and robot.
fn occupy(s: &mut State, area: &str, side: &str) {
    let h = s.areas.entry(area.to_string()).or_default();
    h.add(side, Unit::Tank, 1);
    if side == NEUTRAL {
        h.add(side, Unit::Robot, 1);
    }
}

/// The first of `wanted`, then of every area in map order, that `ok` accepts.
fn pick(s: &State, wanted: &[String], ok: &dyn Fn(&State, &str) -> bool) -> Option<String> {
    wanted
        .iter()
        .map(String::as_str)
        .chain(s.map.areas.iter().map(|a| a.id.as_str()))
        .find(|a| ok(s, a))
        .map(str::to_string)
}

/// Resolves every side's preferences in setup order, pass by pass, as the table would (001
/// "Preparazione del gioco" 3–6; rulings R303 and R306), and fills the rest with neutrals.
pub fn resolve(s: &mut State, out: &mut Vec<Happening>) {
    let order = s.order.clone();
    let prefs = |s: &State, side: &str| s.prefs.get(side).cloned().unwrap_or_default();
    let mut log: Vec<String> = Vec::new();
    // Capitals: the first three may not take one adjacent to another player's.
    for (i, side) in order.iter().enumerate() {
        let taken: Vec<String> = s.capital_of.values().cloned().collect();
        let strict = |s: &State, a: &str| {
            s.map.area(a).is_some_and(|x| x.capital.is_some())
                && s.owner(a).is_none()
                && (i >= 3 || !taken.iter().any(|t| s.map.capitals_adjacent(a, t)))
        };
        let loose = |s: &State, a: &str| {
            s.map.area(a).is_some_and(|x| x.capital.is_some()) && s.owner(a).is_none()
        };
        let p = prefs(s, side).capital;
        if let Some(a) = pick(s, &p, &strict).or_else(|| pick(s, &p, &loose)) {
            occupy(s, &a, side);
            s.capital_of.insert(side.clone(), a.clone());
            log.push(format!("{side} takes the capital {a}"));
        }
    }
    fill_neutral(s, &|s, a| {
        s.map.area(a).is_some_and(|x| x.capital.is_some())
    });
    // Two passes of land deposits.
    for _ in 0..2 {
        for side in &order {
            let ok = |s: &State, a: &str| {
                s.map.area(a).is_some_and(|x| x.vk) && s.map.is_land(a) && s.owner(a).is_none()
            };
            if let Some(a) = pick(s, &prefs(s, side).deposits, &ok) {
                occupy(s, &a, side);
                log.push(format!("{side} takes the deposit {a}"));
            }
        }
    }
    fill_neutral(s, &|s, a| {
        s.map.area(a).is_some_and(|x| x.vk) && s.map.is_land(a)
    });
    // Five passes of other land areas.
    for _ in 0..5 {
        for side in &order {
            let ok = |s: &State, a: &str| s.map.is_land(a) && s.owner(a).is_none();
            if let Some(a) = pick(s, &prefs(s, side).areas, &ok) {
                occupy(s, &a, side);
                log.push(format!("{side} takes {a}"));
            }
        }
    }
    fill_neutral(s, &|s, a| s.map.is_land(a));
    // Three passes of production centres, on own land that is no deposit.
    for _ in 0..3 {
        for side in &order {
            let mut wanted = prefs(s, side).centres;
            if let Some(c) = s.capital_of.get(side) {
                wanted.push(c.clone());
            }
            let ok = |s: &State, a: &str| {
                s.owns(side, a)
                    && s.map.is_land(a)
                    && !s.map.area(a).is_some_and(|x| x.vk)
                    && !s.holding(a).pc
                    && s.pcs_total() < MAX_PCS
            };
            if let Some(a) = pick(s, &wanted, &ok) {
                s.areas.entry(a.clone()).or_default().pc = true;
                log.push(format!("{side} builds a production centre at {a}"));
            }
        }
    }
    out.push(Happening::text(format!(
        "setup in the order {}: {}; every other land area is neutral (1 tank, 1 robot)",
        order.join(", "),
        log.join("; ")
    )));
    for side in &order {
        let card = s
            .played
            .get(side)
            .and_then(|c| s.card(c))
            .map(|c| c.production)
            .unwrap_or(0);
        s.reinforce_pp.insert(side.clone(), REINFORCE_PP + card);
    }
    s.phase = Phase::Reinforce;
}

fn fill_neutral(s: &mut State, which: &dyn Fn(&State, &str) -> bool) {
    let free: Vec<String> = s
        .map
        .areas
        .iter()
        .filter(|a| which(s, &a.id) && s.owner(&a.id).is_none())
        .map(|a| a.id.clone())
        .collect();
    for a in free {
        occupy(s, &a, NEUTRAL);
    }
}

/// Ends the starting reinforcements when every side is done: the setup cards go to the
/// discards (ruling R308) and round 1's card choice begins.
pub fn finish_reinforce(s: &mut State, out: &mut Vec<Happening>) {
    let all: BTreeSet<String> = s.sides.iter().cloned().collect();
    if s.done != all {
        return;
    }
    for (_, c) in std::mem::take(&mut s.played) {
        s.discard.push(c);
    }
    s.discard.sort();
    s.reinforce_pp.clear();
    s.reinforce_placed.clear();
    s.phase = Phase::Cards;
    out.push(Happening::text(
        "setup is over; round 1 begins: every player chooses a card face down (001 'Sequenza di gioco')",
    ));
}
