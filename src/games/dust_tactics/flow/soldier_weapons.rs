//! battlefront-2013 from rules revision 10: 003 "Soldiers with Several Weapons" (each soldier of
//! an Infantry Squad fires one Ranged and one Close-Combat weapon an Attack, R677) and 003
//! "Limited-Ammo Weapons" (a box marked each Attack action that uses the weapon, R678).
//! Games made before revision 10 fire every line with all its carriers and mark a box a
//! weapon fired (R234).

use super::*;
use crate::dust_tactics::weapon_trait::WeaponTrait;

/// Whether the game plays 003 as written here: battlefront-2013, revision 10 on.
pub(crate) fn book(state: &State) -> bool {
    state.rules().battlefront() && state.revised(10)
}

/// How many of a limited-ammo line fire: under the book, any carrier while a box is left (the
/// box is the Attack's, not the weapon's, R678); otherwise one box a weapon (R414).
pub(super) fn fired(
    state: &State,
    w: &WeaponLine,
    carriers: u32,
    left: u32,
    count: Option<u32>,
) -> u32 {
    if book(state) && !super::volley::is_volley(w) {
        if left == 0 {
            0
        } else {
            carriers.min(count.unwrap_or(u32::MAX))
        }
    } else {
        super::volley::fired(w, carriers, left, count)
    }
}

/// The boxes a line of `n` fired weapons marks: one for the Attack under the book (R678).
pub(super) fn boxes(state: &State, w: &WeaponLine, n: u32) -> u8 {
    if book(state) && !super::volley::is_volley(w) {
        n.min(1) as u8
    } else {
        n.min(u8::MAX as u32) as u8
    }
}

/// The most a declared count may name: the carriers, and the boxes left unless the book marks
/// one box an Attack (R678).
pub(super) fn most(state: &State, w: &WeaponLine, carriers: u32, left: u32) -> u32 {
    if book(state) && !super::volley::is_volley(w) {
        carriers
    } else {
        carriers.min(left)
    }
}

/// The carriers a line fires with once its soldiers were given (R677).
pub(super) fn cap(l: &LineOrder, n: u32) -> u32 {
    l.soldiers.map_or(n, |s| n.min(s))
}

/// 003 "Soldiers with Several Weapons" (R677): gives each squad line of one Attack its soldiers,
/// one Ranged and one Close-Combat weapon each. The lines with a count or a limited-ammo weapon
/// choose first (a soldier who elects to fire his Panzerfaust does not fire his StG 47), then
/// the others in the order written; each takes the living soldiers who carry its weapon (a
/// limited-ammo weapon is picked up by any soldier, R153, those carrying no weapon of a line
/// still to serve first). A line left without a soldier, or with fewer than its count, is
/// refused. Heroes and vehicles fire all their weapons (003), and an Under-Barrel weapon fires
/// with its main weapon's soldier (R674), so neither takes a soldier.
pub(super) fn assign(state: &State, lines: &mut [LineOrder]) -> Result<(), Refusal> {
    if !book(state) {
        return Ok(());
    }
    let mut shooters: Vec<String> = lines.iter().map(|l| l.shooter.clone()).collect();
    shooters.dedup();
    for s in shooters {
        let Some(su) = state.unit(&s) else { continue };
        let Some(c) = card(state, su) else { continue };
        if c.unit_type != UnitType::Squad {
            continue;
        }
        for close in [false, true] {
            assign_pool(state, su, c, lines, close)?;
        }
    }
    Ok(())
}

fn assign_pool(
    state: &State,
    su: &UnitState,
    c: &Card,
    lines: &mut [LineOrder],
    close: bool,
) -> Result<(), Refusal> {
    // The pool's lines, the explicit choices (a count, limited ammo) first.
    let mut pool: Vec<(usize, WeaponLine)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.shooter == su.id)
        .filter_map(|(i, l)| c.weapon(&l.weapon).map(|w| (i, w.clone())))
        .filter(|(_, w)| (w.range == WeaponRange::Close) == close)
        .filter(|(_, w)| !w.traits.contains(&WeaponTrait::UnderBarrel))
        .collect();
    pool.sort_by_key(|(i, w)| (lines[*i].count.is_none() && w.ammo.is_none(), *i));
    let listed = |w: &WeaponLine| c.models.iter().any(|m| m.carries.contains(&w.id));
    let carries = |m: &str, w: &WeaponLine| {
        !listed(w)
            || c.models
                .iter()
                .any(|x| x.id == m && x.carries.contains(&w.id))
    };
    // The living soldiers in the card's order (a card listing none: the unit's models).
    let mut free: Vec<String> = if c.models.is_empty() {
        su.models.clone()
    } else {
        c.models
            .iter()
            .filter(|m| su.models.contains(&m.id))
            .map(|m| m.id.clone())
            .collect()
    };
    let alive = free.len();
    for (k, (i, w)) in pool.iter().enumerate() {
        let volley = super::volley::is_volley(w);
        let wanted = if volley {
            1
        } else if w.ammo.is_some() {
            let left = su.ammo.get(&w.id).copied().unwrap_or(0) as u32;
            fired(state, w, carriers(state, su, w), left, lines[*i].count)
        } else {
            carriers(state, su, w)
        };
        let later: Vec<&WeaponLine> = pool[k + 1..].iter().map(|(_, x)| x).collect();
        let mut order: Vec<String> = free.iter().filter(|m| carries(m, w)).cloned().collect();
        if w.ammo.is_some() && listed(w) {
            // R153: the squad's limited-ammo weapons are picked up by any soldier.
            let spare = |m: &&String| !order.contains(m);
            let idle = |m: &&String| !later.iter().any(|x| listed(x) && carries(m, x));
            let (a, b): (Vec<&String>, Vec<&String>) = free.iter().filter(spare).partition(idle);
            order.extend(a.into_iter().chain(b).cloned().collect::<Vec<_>>());
        }
        let took: Vec<String> = order.into_iter().take(wanted as usize).collect();
        free.retain(|m| !took.contains(m));
        let n = took.len() as u32;
        let short = lines[*i].count.is_some_and(|want| !volley && n < want);
        if n == 0 || short {
            return Err(too_many(su, w, &lines[*i], alive, close, n));
        }
        if !volley {
            lines[*i].soldiers = Some(n);
        }
    }
    Ok(())
}

fn too_many(
    su: &UnitState,
    w: &WeaponLine,
    l: &LineOrder,
    alive: usize,
    close: bool,
    n: u32,
) -> Refusal {
    let kind = if close { "Close-Combat" } else { "Ranged" };
    let at = target_text(&l.target);
    let count = l.count.map(|c| format!("{c} ")).unwrap_or_default();
    Refusal {
        reason: format!(
            "`{count}{} at {at}`: {} has {alive} soldier(s) alive, each firing one {kind} weapon an Attack, and the lines chosen before it leave {n} who can fire {}",
            w.id, su.id, w.name
        ),
        rule: "003 \"Soldiers with Several Weapons\": \"Each surviving soldier in an Infantry Squad can only use one Ranged Weapon and one Close-Combat Weapon ... in each Attack action\" (R677)".into(),
        instead: format!(
            "drop the `{} at {at}` line, or fire fewer of a limited-ammo line with a count (`attack 1 <weapon> at <target>`)",
            w.id
        ),
    }
}
