//! The attacks with and against submarines (001 "Attacchi navali", "Attacchi via mare", "Lotta ai
//! Sottomarini"; digest 001 §6.4, §6.10, §6.11): sub against sub with simultaneous rolls, shore
//! bombardment (one die a sub, no return fire) and the bombers' anti-sub strike (two dice a
//! bomber, no defence). Each costs 1 CP and obeys the rules every attack obeys (combat.rs).

use super::combat::{self, no_truce};
use super::model::*;
use crate::game::{DiceSource, Happening, Roll};

const MAX_EXCHANGES: u32 = 10_000;

/// How many units strike, from where, at what.
pub struct Strike<'a> {
    pub n: u32,
    pub from: &'a str,
    pub to: &'a str,
}

fn roll(dice: &mut dyn DiceSource, round: u32, n: u32) -> (Vec<u8>, u32) {
    let faces: Vec<u8> = (0..n).map(|_| dice.d6(round)).collect();
    let hits = faces.iter().filter(|f| **f <= 2).count() as u32;
    (faces, hits)
}

/// What every kind of attack checks: CP left, no repeat, round 1 and the capitals (R316).
pub fn check_common(
    s: &State,
    side: &str,
    t: &TurnState,
    from: &str,
    to: &str,
) -> Result<String, No> {
    if t.attacked >= t.attacks {
        return Err(no(
            format!(
                "your card gives {} attacks and you have made them",
                t.attacks
            ),
            "001 'Regole di base': one CP an attack",
            "end",
        ));
    }
    if t.attacks_made.iter().any(|(a, b)| a == from && b == to) {
        return Err(no(
            format!("you have attacked {to} from {from} this turn"),
            "001 'Ripetizione degli attacchi' (ruling R316)",
            "attack it again from another area",
        ));
    }
    let Some(enemy) = s.owner(to).filter(|o| *o != side) else {
        return Err(no(
            format!("`{to}` holds no enemy unit"),
            "001 'Fase di combattimento'",
            "attack an area another side holds",
        ));
    };
    no_truce(s, side, enemy)?;
    let h = s.holding(to);
    if s.round == 1 && (h.pc || s.map.area(to).is_some_and(|a| a.vk)) {
        return Err(no(
            format!("`{to}` holds a production centre or a VK deposit"),
            "001 'Primo turno': no attack on them in the first turn (ruling R315)",
            "attack another area this round",
        ));
    }
    let capital = s.capital_of.values().any(|c| c == to) && enemy != NEUTRAL;
    if capital && s.vp.values().copied().max().unwrap_or(0) < combat::CAPITAL_VP {
        return Err(no(
            format!("`{to}` is a player's capital and nobody has 20 VP yet"),
            "001 'Capitali' (ruling R316: every kind of attack)",
            "attack it once a player has 20 VP",
        ));
    }
    Ok(enemy.to_string())
}

fn subs_at(s: &State, side: &str, area: &str, n: u32) -> Result<(), No> {
    let have = if s.owns(side, area) {
        s.holding(area).units.get(&Unit::Sub).copied().unwrap_or(0)
    } else {
        0
    };
    if n == 0 || n > have {
        return Err(no(
            format!("`{area}` holds {have} of your subs, not {n}"),
            "001 'Sottomarini'",
            format!("use at most {have}"),
        ));
    }
    Ok(())
}

/// `naval N subs from S1 to S2`: the subs sail through free or own seas to an enemy-held sea;
/// both sides roll together; three exchanges without a hit: ceasefire, the attackers go back.
pub fn naval(
    s: &mut State,
    side: &str,
    t: &TurnState,
    k: &Strike,
    dice: &mut dyn DiceSource,
) -> Result<Vec<Happening>, No> {
    let (n, from, to) = (k.n, k.from, k.to);
    let rule = "001 'Attacchi navali'";
    subs_at(s, side, from, n)?;
    if !s.map.is_sea(to) {
        return Err(no(
            format!("`{to}` is no sea"),
            rule,
            "naval N subs from S1 to S2",
        ));
    }
    let enemy = check_common(s, side, t, from, to)?;
    let sea = |a: &str, b: &str| s.map.is_sea(a) && s.map.is_sea(b);
    let open = |a: &str| s.map.is_sea(a) && s.owner(a).is_none_or(|o| o == side);
    if !super::turn::reachable(s, from, to, &sea, &open) {
        return Err(no(
            format!("no sea route from {from} to {to} through free seas or seas with your subs"),
            rule,
            "another target",
        ));
    }
    s.areas
        .entry(from.to_string())
        .or_default()
        .remove(Unit::Sub, n);
    let mut att = n;
    let mut def = s.holding(to).units.get(&Unit::Sub).copied().unwrap_or(0);
    let (mut rolls, mut log, mut blanks) = (Vec::new(), Vec::new(), 0);
    for x in 1..=MAX_EXCHANGES {
        if att == 0 || def == 0 {
            break;
        }
        let (fa, ha) = roll(dice, s.round, att);
        let (fd, hd) = roll(dice, s.round, def);
        rolls.push(Roll {
            purpose: format!("{side} exchange {x} at {to}"),
            round: s.round,
            faces: fa,
        });
        rolls.push(Roll {
            purpose: format!("{enemy} exchange {x} at {to}"),
            round: s.round,
            faces: fd,
        });
        log.push(format!(
            "{side} {ha} hit{}, {enemy} {hd}",
            if ha == 1 { "" } else { "s" }
        ));
        def = def.saturating_sub(ha);
        att = att.saturating_sub(hd);
        blanks = if ha + hd == 0 { blanks + 1 } else { 0 };
        if blanks == 3 {
            break;
        }
    }
    let area = s.areas.entry(to.to_string()).or_default();
    area.units.clear();
    area.owner = None;
    let end = if def > 0 {
        area.add(&enemy, Unit::Sub, def);
        if att > 0 {
            s.areas
                .entry(from.to_string())
                .or_default()
                .add(side, Unit::Sub, att);
            format!(
                "ceasefire: {side}'s {att} sub{} return to {from}",
                if att == 1 { "" } else { "s" }
            )
        } else {
            format!("{enemy} holds {to}")
        }
    } else if att > 0 {
        area.add(side, Unit::Sub, att);
        format!(
            "{side} takes {to} with {att} sub{}",
            if att == 1 { "" } else { "s" }
        )
    } else {
        format!("both fleets are sunk; {to} is empty")
    };
    Ok(vec![Happening {
        text: format!(
            "{side} attacks {enemy}'s subs at {to} from {from} with {n}: {}; {end}",
            log.join("; ")
        ),
        rolls,
        ..Happening::default()
    }])
}

/// `bombard N subs from S to L [hits: …]`: one die a sub at an adjacent land area, one roll, no
/// return fire; the subs never land.
pub fn bombard(
    s: &mut State,
    side: &str,
    t: &TurnState,
    k: &Strike,
    priority: &[Unit],
    dice: &mut dyn DiceSource,
) -> Result<Vec<Happening>, No> {
    let (n, from, to) = (k.n, k.from, k.to);
    let rule = "001 'Attacchi via mare'";
    subs_at(s, side, from, n)?;
    if !s.map.is_land(to) || !s.map.adjacent(from, to) {
        return Err(no(
            format!("`{to}` is no land area next to {from}"),
            rule,
            "bombard N subs from SEA to COAST",
        ));
    }
    let enemy = check_common(s, side, t, from, to)?;
    let (faces, hits) = roll(dice, s.round, n);
    let mut def = s.holding(to).units;
    let killed = combat::assign(&mut def, hits, priority);
    let area = s.areas.entry(to.to_string()).or_default();
    area.units = def.clone();
    if def.is_empty() {
        area.owner = None;
    }
    Ok(vec![Happening {
        text: format!(
            "{side} bombards {to} ({enemy}) from {from} with {n} sub{}: {hits} hit{}{}{}",
            if n == 1 { "" } else { "s" },
            if hits == 1 { "" } else { "s" },
            if killed.is_empty() {
                String::new()
            } else {
                format!(", {} lost", units_text(&killed))
            },
            if def.is_empty() {
                format!("; {to} is empty")
            } else {
                String::new()
            }
        ),
        rolls: vec![Roll {
            purpose: format!("{side} bombards {to}"),
            round: s.round,
            faces,
        }],
        ..Happening::default()
    }])
}

/// `antisub N bombers from L to S`: two dice a bomber at the subs of an adjacent sea; one roll,
/// no defence; each hit sinks a sub.
pub fn antisub(
    s: &mut State,
    side: &str,
    t: &TurnState,
    k: &Strike,
    dice: &mut dyn DiceSource,
) -> Result<Vec<Happening>, No> {
    let (n, from, to) = (k.n, k.from, k.to);
    let rule = "001 'Lotta ai Sottomarini'";
    let have = if s.owns(side, from) {
        s.holding(from)
            .units
            .get(&Unit::Bomber)
            .copied()
            .unwrap_or(0)
    } else {
        0
    };
    if n == 0 || n > have {
        return Err(no(
            format!("`{from}` holds {have} of your bombers, not {n}"),
            rule,
            format!("use at most {have}"),
        ));
    }
    if !s.map.is_sea(to) || !s.map.adjacent(from, to) {
        return Err(no(
            format!("`{to}` is no sea next to {from}"),
            rule,
            "antisub N bombers from COAST to SEA",
        ));
    }
    let enemy = check_common(s, side, t, from, to)?;
    let (faces, hits) = roll(dice, s.round, n.saturating_mul(2));
    let area = s.areas.entry(to.to_string()).or_default();
    let subs = area.units.get(&Unit::Sub).copied().unwrap_or(0);
    let sunk = hits.min(subs);
    area.remove(Unit::Sub, sunk);
    Ok(vec![Happening {
        text: format!(
            "{side} strikes {enemy}'s subs at {to} with {n} bomber{} from {from}: {hits} hit{}, {sunk} sunk{}",
            if n == 1 { "" } else { "s" },
            if hits == 1 { "" } else { "s" },
            if sunk == subs { format!("; {to} is empty") } else { String::new() }
        ),
        rolls: vec![Roll { purpose: format!("{side} strikes {to}"), round: s.round, faces }],
        ..Happening::default()
    }])
}
