//! Land and amphibious attacks (001 "Fase di combattimento": "Regole di base", "Attacchi
//! anfibi", "Primo turno", "Centri di Produzione", "Capitali", "Aree di terra libere",
//! "Guarnigioni", "Ripetizione degli attacchi", "Attacchi combinati", "Aree neutrali", "Cessate il
//! fuoco"; digest 001 §6.1–§6.9, §6.13): one origin, one CP an attack, initiative, alternate
//! volleys with the shielding rules, PC and capital dice, ceasefire after three blank rolls, the
//! survivors occupying the area. Naval attacks, bombardment, anti-sub strikes: naval.rs.
//! Retreats and the standing defensive orders: retreat.rs.

use super::model::*;
use super::retreat::{self, Policy};
use super::turn::{check_units, sea_route};
use crate::game::{DiceSource, Happening, Roll};

/// 001 "Diplomatico": no attack on a side bound to `side` by a truce this round.
pub(super) fn no_truce(s: &State, side: &str, enemy: &str) -> Result<(), No> {
    if s.truce(side, enemy) {
        return Err(no(
            format!("a Diplomatico truce binds you and {enemy} this round"),
            "001 'Diplomatico'",
            "attack another side",
        ));
    }
    Ok(())
}

/// A safety bound on volleys: a battle ends long before (three blank rolls in a row end it).
const MAX_VOLLEYS: u32 = 10_000;
/// 001 "Capitali": capitals may be attacked once a player has 20 VP.
pub const CAPITAL_VP: u32 = 20;

/// The firing side's casualty choice: the most expensive unit it may legally hit first (ruling
/// R314), unless the attacker gave its own order.
pub const DEFAULT_PRIORITY: [Unit; 4] = [Unit::Bomber, Unit::Robot, Unit::Fighter, Unit::Tank];

/// `hits: fighters, bombers, tanks, robots` → the attacker's own casualty order.
pub fn parse_priority(list: &str) -> Result<Vec<Unit>, No> {
    let mut out = Vec::new();
    for w in list.split([',', ' ']).filter(|w| !w.trim().is_empty()) {
        match Unit::parse(w) {
            Some(u) if u.air_land() => {
                if !out.contains(&u) {
                    out.push(u);
                }
            }
            _ => {
                return Err(no(
                    format!("`{}` is not a unit type of a land battle", w.trim()),
                    "docs/strategy.md",
                    "hits: fighters, bombers, tanks, robots",
                ))
            }
        }
    }
    for u in DEFAULT_PRIORITY {
        if !out.contains(&u) {
            out.push(u);
        }
    }
    Ok(out)
}

fn sum(u: &Units, f: fn(Unit) -> u32) -> u32 {
    u.iter().map(|(t, n)| f(*t) * n).sum()
}

/// Whether a unit of `t` may be chosen now: no robot while a tank stands, no bomber while a
/// fighter stands (001 "Regole di base").
fn hittable(u: &Units, t: Unit) -> bool {
    let has = |x: Unit| u.get(&x).copied().unwrap_or(0) > 0;
    has(t)
        && match t {
            Unit::Robot => !has(Unit::Tank),
            Unit::Bomber => !has(Unit::Fighter),
            _ => true,
        }
}

/// Applies `hits` one at a time, checking the shielding again after each; hits with no legal
/// target are lost. Returns the units killed.
pub(super) fn assign(target: &mut Units, hits: u32, priority: &[Unit]) -> Units {
    let mut killed = Units::new();
    for _ in 0..hits {
        let Some(t) = priority.iter().copied().find(|t| hittable(target, *t)) else {
            break;
        };
        if let Some(n) = target.get_mut(&t) {
            *n -= 1;
            if *n == 0 {
                target.remove(&t);
            }
        }
        *killed.entry(t).or_insert(0) += 1;
    }
    killed
}

/// An attack as ordered.
pub struct Order<'a> {
    pub units: Units,
    pub from: &'a str,
    pub to: &'a str,
    pub amphibious: bool,
    pub priority: Vec<Unit>,
    /// A battle power of the attacker's card: `asso-del-cielo`, `sigrid` or `raketen-truppen`.
    pub power: Option<String>,
    /// Sgancia Robot: robots from several areas (area, count); `from` is then only a label.
    pub drop: Vec<(String, u32)>,
    /// The attacker's retreat policy (`retreat at N`, ruling R321).
    pub retreat: Option<Policy>,
}

/// The battle powers an attack line may call (`with POWER`), and when each acts (rulings R319,
/// R324, R325).
pub const BATTLE_POWERS: [&str; 5] = [
    "asso-del-cielo",
    "sigrid",
    "raketen-truppen",
    "infermiera",
    "arma-segreta",
];

/// Firepower under L'Asso del cielo: fighters 2, bombers 3 (001 "L'Asso del cielo").
fn ace_firepower(t: Unit) -> u32 {
    match t {
        Unit::Fighter | Unit::Bomber => t.firepower() + 1,
        _ => t.firepower(),
    }
}

fn hits_of(faces: &[u8]) -> u32 {
    faces.iter().filter(|f| **f <= 2).count() as u32
}

/// Checks an attack (nothing changes when it is refused).
pub fn check(s: &State, side: &str, t: &TurnState, o: &Order) -> Result<(), No> {
    let rule = if o.amphibious {
        "001 'Attacchi anfibi'"
    } else {
        "001 'Regole di base'"
    };
    if t.attacked >= t.attacks {
        return Err(no(
            format!(
                "your card gives {} attack{} and you have made them",
                t.attacks,
                if t.attacks == 1 { "" } else { "s" }
            ),
            "001 'Regole di base': one CP an attack",
            "end",
        ));
    }
    check_units(s, side, o.from, &o.units, false)?;
    if !s.map.is_land(o.to) {
        return Err(no(
            format!("`{}` is no land area", o.to),
            rule,
            "attack a land area",
        ));
    }
    let Some(enemy) = s.owner(o.to) else {
        return Err(no(
            format!(
                "`{}` is empty: an empty area is taken by moving in, not by attack",
                o.to
            ),
            "001 'Aree di terra libere'",
            format!("move … from {} to {}", o.from, o.to),
        ));
    };
    if enemy == side {
        return Err(no(
            format!("`{}` is yours", o.to),
            rule,
            "attack an area another side holds",
        ));
    }
    no_truce(s, side, enemy)?;
    if o.amphibious {
        if !sea_route(s, side, o.from, o.to) {
            return Err(no(
                format!(
                    "no sea route from {} to {} where every sea holds your subs",
                    o.from, o.to
                ),
                rule,
                "put subs in every sea of the route first",
            ));
        }
    } else if !(s.map.adjacent(o.from, o.to) && s.map.is_land(o.from)) {
        return Err(no(
            format!("{} and {} are not linked land areas", o.from, o.to),
            rule,
            "attack a land area linked to the origin; across the sea: amphibious attack …",
        ));
    }
    if t.attacks_made.iter().any(|(a, b)| a == o.from && b == o.to) {
        return Err(no(
            format!("you have attacked {} from {} this turn", o.to, o.from),
            "001 'Ripetizione degli attacchi'",
            "attack it again from another area",
        ));
    }
    let h = s.holding(o.to);
    let area = s.map.area(o.to);
    if s.round == 1 && (h.pc || area.is_some_and(|a| a.vk)) {
        return Err(no(
            format!("`{}` holds a production centre or a VK deposit", o.to),
            "001 'Primo turno': no attack on them in the first turn (ruling R315)",
            "attack another area this round",
        ));
    }
    let player_capital = s.capital_of.values().any(|c| c == o.to) && enemy != NEUTRAL;
    // 001 "Ritirata": amphibious attackers and dropped robots never retreat, so neither
    // Infermiera nor a retreat policy can act for them.
    let no_way_back = o.amphibious || !o.drop.is_empty();
    if no_way_back && (o.retreat.is_some() || o.power.as_deref() == Some("infermiera")) {
        return Err(no(
            "amphibious attackers and dropped robots can never retreat",
            "001 'Ritirata', 'Infermiera'",
            "leave out `retreat at …` and `with infermiera`",
        ));
    }
    if o.power.as_deref() == Some("arma-segreta") {
        if player_capital {
            return Err(no(
                format!("`{}` is a player's capital", o.to),
                "001 'Arma Segreta': never against the defenders of a capital",
                "attack it without the power",
            ));
        }
        if retreat::refuge(s, enemy, o.to, None).is_none() {
            return Err(no(
                format!("{enemy}'s units at {} have nowhere to retreat", o.to),
                "001 'Arma Segreta': only if the enemy units have a way to retreat (ruling R325)",
                "attack it without the power",
            ));
        }
    }
    let top = s.vp.values().copied().max().unwrap_or(0);
    if player_capital && top < CAPITAL_VP {
        return Err(no(
            format!(
                "`{}` is a player's capital and nobody has {CAPITAL_VP} VP yet",
                o.to
            ),
            "001 'Capitali'",
            "attack it once a player has 20 VP",
        ));
    }
    Ok(())
}

/// Fights the battle and applies it: units lost, the area taken, or a ceasefire.
pub fn fight(s: &mut State, side: &str, o: &Order, dice: &mut dyn DiceSource) -> Vec<Happening> {
    let enemy = s.owner(o.to).unwrap_or(NEUTRAL).to_string();
    let mut att = o.units.clone();
    if o.drop.is_empty() {
        for (t, n) in &o.units {
            s.areas
                .entry(o.from.to_string())
                .or_default()
                .remove(*t, *n);
        }
    }
    for (area, n) in &o.drop {
        s.areas
            .entry(area.clone())
            .or_default()
            .remove(Unit::Robot, *n);
    }
    let mut def = s.holding(o.to).units;
    let def_before = def.clone();
    let h = s.holding(o.to);
    let player_capital = s.capital_of.values().any(|c| c == o.to) && enemy != NEUTRAL;
    // 001 "Capitali": +5 dice and the first volley; a PC there adds nothing more.
    let bonus = if player_capital {
        5
    } else if h.pc {
        3
    } else {
        0
    };
    let mut attacker_fires =
        !player_capital && sum(&att, Unit::initiative) > sum(&def, Unit::initiative);
    let mut rolls = Vec::new();
    let mut log = Vec::new();
    let mut blanks = 0;
    let mut ceasefire = false;
    // A battle power acts once (Sigrid, Raketen Truppen) or all battle long (the Ace).
    let power = o.power.as_deref();
    let ace = power == Some("asso-del-cielo");
    let mut reroll_left = matches!(power, Some("sigrid") | Some("raketen-truppen"));
    // The defender's standing order for this area; neutrals keep their fixed policy (R314).
    let dfn = if enemy == NEUTRAL {
        retreat::Defence::default()
    } else {
        // ask (R352): a battle answered in the moment is fought by the answer.
        super::ask::defence(s, &enemy, o.to)
    };
    let def_priority: Vec<Unit> = dfn
        .hits
        .iter()
        .chain(DEFAULT_PRIORITY.iter())
        .copied()
        .collect();
    let prefer = dfn.retreat.as_ref().and_then(|p| p.to.clone());
    let att_back = !o.amphibious && o.drop.is_empty();
    let mut nurse_att = power == Some("infermiera") && att_back;
    let mut nurse_def = dfn.nurse && super::powers::ready(s, &enemy, "infermiera").is_ok();
    // A defender's battle power from its standing order, spent on this battle (ruling R328).
    let ground = |u: &Units| u.keys().any(|t| matches!(t, Unit::Tank | Unit::Robot));
    let def_power: Option<String> = dfn.power.clone().filter(|p| {
        super::powers::ready(s, &enemy, p).is_ok() && (p != "raketen-truppen" || ground(&def))
    });
    if def_power.is_some() {
        s.powers_used.insert(enemy.clone());
    }
    let def_ace = def_power.as_deref() == Some("asso-del-cielo");
    let mut def_reroll_left = matches!(
        def_power.as_deref(),
        Some("sigrid") | Some("raketen-truppen")
    );
    if power == Some("arma-segreta") {
        // 001 "Arma Segreta": before any roll every defender withdraws; the area falls.
        if let Some(r) = retreat::refuge(s, &enemy, o.to, prefer.as_deref()) {
            withdraw_all(s, &enemy, &mut def, &r);
            log.push(format!("Arma Segreta: {enemy}'s units withdraw to {r}"));
        }
    } else if dfn.radar && super::powers::ready(s, &enemy, "radar-alieno").is_ok() {
        // 001 "Radar Alieno": the defender pulls out before any roll (ruling R326).
        if let Some(r) = retreat::refuge(s, &enemy, o.to, prefer.as_deref()) {
            s.powers_used.insert(enemy.clone());
            withdraw_all(s, &enemy, &mut def, &r);
            log.push(format!("Radar Alieno: {enemy}'s units withdraw to {r}"));
        }
    }
    for volley in 1..=MAX_VOLLEYS {
        if att.is_empty() || def.is_empty() {
            break;
        }
        // 001 "Ritirata": before each roll each side may withdraw one unit, the attacker
        // first (ruling R321).
        if let Some(p) = o.retreat.as_ref().filter(|_| att_back) {
            if count(&att) <= p.at {
                if let Some(u) = retreat::pick(&att, &p.first) {
                    take(&mut att, u);
                    s.areas
                        .entry(o.from.to_string())
                        .or_default()
                        .add(side, u, 1);
                    log.push(format!("{side} withdraws 1 {} to {}", u.word(1), o.from));
                }
            }
        }
        if att.is_empty() {
            break;
        }
        if let Some(p) = &dfn.retreat {
            if count(&def) <= p.at {
                let to = retreat::refuge(s, &enemy, o.to, p.to.as_deref());
                if let (Some(r), Some(u)) = (to, retreat::pick(&def, &p.first)) {
                    take(&mut def, u);
                    s.areas.entry(r.clone()).or_default().add(&enemy, u, 1);
                    log.push(format!("{enemy} withdraws 1 {} to {r}", u.word(1)));
                }
            }
        }
        if def.is_empty() {
            break;
        }
        let (who, n) = if attacker_fires {
            (
                side,
                sum(&att, if ace { ace_firepower } else { Unit::firepower }),
            )
        } else {
            (
                enemy.as_str(),
                sum(
                    &def,
                    if def_ace {
                        ace_firepower
                    } else {
                        Unit::firepower
                    },
                ) + bonus,
            )
        };
        let mut faces: Vec<u8> = (0..n).map(|_| dice.d6(s.round)).collect();
        // Two faces of six hit (001 "Dadi"): 1 and 2, as ruling R3.
        let mut hits = hits_of(&faces);
        let (firer_power, left) = if attacker_fires {
            (power, &mut reroll_left)
        } else {
            (def_power.as_deref(), &mut def_reroll_left)
        };
        if *left {
            let first = faces.clone();
            let again = match firer_power {
                // Sigrid: the misses of the first volley with a miss are rolled again.
                Some("sigrid") if hits < n => {
                    let kept = first.iter().filter(|f| **f <= 2).count();
                    let mut f: Vec<u8> = first.iter().copied().filter(|f| *f <= 2).collect();
                    f.extend((kept..first.len()).map(|_| dice.d6(s.round)));
                    Some((f, "Sigrid rolls the misses again"))
                }
                // Raketen Truppen: the first volley without a hit is rolled again, all of it.
                Some("raketen-truppen") if hits == 0 && n > 0 => Some((
                    (0..n).map(|_| dice.d6(s.round)).collect(),
                    "Raketen Truppen roll it all again",
                )),
                _ => None,
            };
            if let Some((f, what)) = again {
                rolls.push(Roll {
                    purpose: format!("{who} volley {volley} at {} (rolled again)", o.to),
                    round: s.round,
                    faces: std::mem::replace(&mut faces, f),
                });
                hits = hits_of(&faces);
                log.push(format!("{who}: {what}"));
                *left = false;
            }
        }
        let killed = if attacker_fires {
            assign(&mut def, hits, &o.priority)
        } else {
            assign(&mut att, hits, &def_priority)
        };
        log.push(format!(
            "{who} fires {n} dice, {hits} hit{}{}",
            if hits == 1 { "" } else { "s" },
            if killed.is_empty() {
                String::new()
            } else {
                format!(" ({} lost)", units_text(&killed))
            }
        ));
        rolls.push(Roll {
            purpose: format!("{who} volley {volley} at {}", o.to),
            round: s.round,
            faces,
        });
        // 001 "Infermiera": a die for each unit lost; on a blank it withdraws instead.
        let (nurse, loser) = if attacker_fires {
            (&mut nurse_def, enemy.as_str())
        } else {
            (&mut nurse_att, side)
        };
        if *nurse && !killed.is_empty() {
            let to = if attacker_fires {
                retreat::refuge(s, &enemy, o.to, prefer.as_deref())
            } else {
                Some(o.from.to_string())
            };
            if let Some(r) = to {
                if attacker_fires {
                    s.powers_used.insert(enemy.clone());
                }
                let (saved, faces) = nurse_rolls(&killed, s.round, dice);
                for (u, n) in &saved {
                    s.areas.entry(r.clone()).or_default().add(loser, *u, *n);
                }
                log.push(if saved.is_empty() {
                    format!("Infermiera: no unit of {loser}'s lost is saved")
                } else {
                    format!(
                        "Infermiera: {} of {loser}'s lost withdraw{} to {r}",
                        units_text(&saved),
                        if count(&saved) == 1 { "s" } else { "" }
                    )
                });
                rolls.push(Roll {
                    purpose: format!("{loser} Infermiera at {}", o.to),
                    round: s.round,
                    faces,
                });
            }
        }
        blanks = if hits == 0 { blanks + 1 } else { 0 };
        if blanks == 3 {
            ceasefire = true;
            break;
        }
        attacker_fires = !attacker_fires;
    }
    let end = if ceasefire || (!att.is_empty() && !def.is_empty()) {
        // 001 "Cessate il fuoco": the attackers go back where they came from; dropped robots
        // to their origins in the order listed (ruling R320).
        let mut left = att.get(&Unit::Robot).copied().unwrap_or(0);
        for (area, n) in &o.drop {
            let back = left.min(*n);
            s.areas
                .entry(area.clone())
                .or_default()
                .add(side, Unit::Robot, back);
            left -= back;
        }
        for (t, n) in att.iter().filter(|_| o.drop.is_empty()) {
            s.areas
                .entry(o.from.to_string())
                .or_default()
                .add(side, *t, *n);
        }
        s.areas.entry(o.to.to_string()).or_default().units = def.clone();
        format!(
            "three blank rolls in a row: ceasefire; {side}'s survivors ({}) return to {}",
            units_text(&att),
            o.from
        )
    } else if def.is_empty() && !att.is_empty() {
        let area = s.areas.entry(o.to.to_string()).or_default();
        area.units.clear();
        area.owner = None;
        for (t, n) in &att {
            area.add(side, *t, *n);
        }
        format!("{side} takes {} with {}", o.to, units_text(&att))
    } else {
        let area = s.areas.entry(o.to.to_string()).or_default();
        area.units = def.clone();
        if area.units.is_empty() {
            area.owner = None;
        }
        format!("{enemy} holds {} with {}", o.to, units_text(&def))
    };
    vec![Happening {
        text: format!(
            "{side} attacks {} ({enemy}, {}{}) from {} with {}{}: {}; {end}",
            o.to,
            units_text(&def_before),
            match bonus {
                5 => ", capital: +5 dice",
                3 => ", production centre: +3 dice",
                _ => "",
            },
            o.from,
            units_text(&o.units),
            if o.amphibious { " across the sea" } else { "" },
            log.join("; ")
        ),
        rolls,
        ..Happening::default()
    }]
}

fn count(u: &Units) -> u32 {
    u.values().sum()
}

fn take(u: &mut Units, t: Unit) {
    if let Some(n) = u.get_mut(&t) {
        *n -= 1;
        if *n == 0 {
            u.remove(&t);
        }
    }
}

/// Every unit of `def` to `to` at once (Arma Segreta, Radar Alieno).
fn withdraw_all(s: &mut State, owner: &str, def: &mut Units, to: &str) {
    for (u, n) in std::mem::take(def) {
        s.areas.entry(to.to_string()).or_default().add(owner, u, n);
    }
}

/// Infermiera's dice, one a unit lost (tanks, robots, fighters, bombers): blanks (3–6) save.
fn nurse_rolls(killed: &Units, round: u32, dice: &mut dyn DiceSource) -> (Units, Vec<u8>) {
    let mut saved = Units::new();
    let mut faces = Vec::new();
    for (u, n) in killed {
        for _ in 0..*n {
            let f = dice.d6(round);
            faces.push(f);
            if f > 2 {
                *saved.entry(*u).or_insert(0) += 1;
            }
        }
    }
    (saved, faces)
}
