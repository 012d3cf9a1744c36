//! 004 "Tesla weapons" (R561–R563): the chained hits and the cover they ignore are the combat
//! module's (`combat::cover_save_applies`, the laser chain); here are the units between the
//! shooter and the target, and the explosion of a destroyed carrier. Under battlefront-2013 a
//! Tesla line neither reaches the units between nor explodes: 002's Tesla stuns (R750,
//! `battlefront::stunned::tesla_hit`).

use super::*;

/// 004 "Tesla weapons": "They inflict damage on all units in spaces between the attacking unit
/// and the target unit—even spaces occupied by friendly units." The squares between are R151's,
/// as for a flamethrower; a Tesla line has no `through` to choose (R561).
pub(super) fn between(state: &State, w: &WeaponLine, from: Square, target: &Target) -> Vec<Square> {
    if !w.traits.contains(&WeaponTrait::Tesla) || state.rules().battlefront() {
        return Vec::new();
    }
    let to = match target {
        Target::Unit { unit } | Target::Model { unit, .. } => target_square(state, unit),
        Target::Square { .. } => None,
    };
    to.map(|to| geometry::squares_between(&state.scenario.board, from, to))
        .unwrap_or_default()
}

/// The Tesla line of a card, the first one listed (R562).
fn tesla_line(c: &Card) -> Option<&WeaponLine> {
    c.weapons
        .iter()
        .find(|w| w.traits.contains(&WeaponTrait::Tesla))
}

/// Called as a unit is destroyed on `at`: a Tesla carrier's explosion waits for the Remove step
/// (R562).
pub(super) fn arm(state: &mut State, u: &UnitState, at: Option<Square>) {
    let Some(at) = at.filter(|_| !state.rules().battlefront()) else {
        return;
    };
    if card(state, u).and_then(tesla_line).is_none() {
        return;
    }
    state.blasts.push(Blast {
        unit: u.id.clone(),
        side: u.side.clone(),
        at,
    });
}

/// Resolves the oldest explosion still waiting, if any, its damage pending in `act` for the
/// Remove step; returns whether there was one.
///
/// 004 "Tesla weapons": "If a vehicle equipped with a Tesla weapon is destroyed, all units in
/// adjacent spaces suffer an attack roll as if they had been attacked by the destroyed vehicle's
/// Tesla weapon. If a non-vehicle unit equipped with a Tesla weapon is destroyed, roll a die. On
/// a [hit], the weapon explodes…" (R562).
pub(super) fn explode_next(
    state: &mut State,
    act: &mut Activation,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> bool {
    if state.blasts.is_empty() {
        return false;
    }
    let b = state.blasts.remove(0);
    let Some(c) = state.cards.get(
        &state
            .unit(&b.unit)
            .map(|u| u.card.clone())
            .unwrap_or_default(),
    ) else {
        return true;
    };
    let Some(w) = tesla_line(c).cloned() else {
        return true;
    };
    let (round, rules, vehicle) = (state.round, state.rules(), c.unit_type == UnitType::Vehicle);
    if !vehicle {
        let mut rolls = Vec::new();
        let face = combat::roll(
            1,
            format!("tesla explosion {}", b.unit),
            round,
            dice,
            &mut rolls,
        );
        let hit = face.first().is_some_and(|f| rules.is_hit(*f));
        out.happenings.push(Happening {
            rolls,
            ..Happening::text(format!(
                "{}'s {} rolls for an explosion: {}",
                b.unit,
                w.name,
                if hit {
                    "a hit, the weapon explodes"
                } else {
                    "a miss, no explosion"
                }
            ))
        });
        if !hit {
            return true;
        }
    }
    // "All units in adjacent spaces": a Tank Riders vehicle's riders are attacked separately,
    // and its hits roll no extra dice for them (002 "Tank Riders", R474).
    let near: Vec<UnitState> = state
        .units
        .iter()
        .filter(|u| !u.destroyed && u.joined.is_none())
        .filter(|u| target_square(state, &u.id).is_some_and(|a| a.adjacent(b.at)))
        // Units at different heights are not adjacent (004 "Structures"; R517).
        .filter(|u| u.height == state.unit(&b.unit).and_then(|x| x.height))
        .cloned()
        .collect();
    if near.is_empty() {
        say(
            out,
            format!(
                "{}'s {} explodes on {}: no unit is adjacent",
                b.unit, w.name, b.at
            ),
        );
    }
    for tu in near {
        let Some(tc) = card(state, &tu).cloned() else {
            continue;
        };
        // Its hero and its Commissar are miniatures of it (R478).
        let joined: Vec<u32> = state
            .joined_of(&tu.id)
            .iter()
            .map(|h| h.health as u32)
            .collect();
        let remaining = if tc.unit_type == UnitType::Squad {
            tu.models.len() as u32 + joined.iter().sum::<u32>()
        } else {
            tu.health as u32
        };
        // "Tesla weapons ignore cover": no cover, so no save to state.
        let profile = TargetProfile {
            armour: tc.armour,
            unit_type: tc.unit_type,
            models: model_count(state, &tu) + joined.len() as u32,
            remaining,
            cover: model::Cover::None,
            soft_save: tc.soft_save,
            hard_save: tc.hard_save,
            damage_resilient: tc.has(Skill::DamageResilient) && rules.damage_resilient_against(&w),
            bf: super::super::battlefront::strongpoints::saves(state, &b.unit, &tu.id),
        };
        let opts = FireOptions {
            carriers: 1,
            ..FireOptions::default()
        };
        let o = combat::resolve_line_under(rules, &w, &profile, &opts, round, dice);
        let to = target_square(state, &tu.id).unwrap_or(b.at);
        tell(
            out,
            format!(
                "{}'s {} explodes on {} at {}: {}",
                b.unit, w.name, b.at, tu.id, o.summary
            ),
            DtEvent::Fired {
                unit: b.unit.clone(),
                weapon: w.name.clone(),
                target: tu.id.clone(),
                from: b.at,
                to,
                hits: o.hits,
            },
            o.rolls,
        );
        if heroic(state, &tu.id, round) {
            say(
                out,
                format!("Heroic Attack: the explosion causes {} no damage", tu.id),
            );
            continue;
        }
        let p = act.damage.entry(tu.id.clone()).or_insert_with(|| Pending {
            by: b.side.clone(),
            ..Default::default()
        });
        p.eliminate |= o.eliminate;
        p.points += o.damage;
    }
    true
}
