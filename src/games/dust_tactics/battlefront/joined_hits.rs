//! battlefront-2013, rules revision 10 (R574, amending R259): hits on a squad with a joined
//! hero. 003 "Joining Infantry Squads": "The owning player assigns hits between them using the
//! normal rules"; 002 "Damage Resilient": a squad that is Damage Resilient rolls one die for each
//! unsaved hit assigned to it, a Hero "mark[s] off the resulting Damage ... Then roll[s] one die
//! for each point of Damage marked off", and "A Unit that is Damage Resilient does not share it
//! with any Unit they Join nor with Heroes that Join this Unit".
//!
//! The line is resolved as before with the squad's Damage Resilient held back: its unsaved hits
//! become the squad's pending points (one a hit) and each is recorded here with what it does to
//! whom. When the owner (or the standing order, R58) has named who takes each hit, a hit on a
//! soldier rolls the squad's own Damage Resilient die, a hit on the hero marks the weapon's
//! damage against his cell and rolls his own Damage Resilient, one die a point marked.

use super::skills002;
use crate::dust_tactics::combat::{self, roll, LineOutcome};
use crate::dust_tactics::model::{Cover, UnitType, WeaponLine};
use crate::dust_tactics::rules::Rules;
use crate::dust_tactics::skill::Skill;
use crate::dust_tactics::state::{Pending, State};
use crate::game::{DiceSource, Happening, Outcome};
use serde::{Deserialize, Serialize};

/// The rules revision that brought R574.
pub const REVISION: u32 = 10;

/// One unsaved hit on a squad with joined units, waiting to be assigned.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinedHit {
    /// The weapon line's id (the purpose of the Damage Resilient roll).
    pub weapon: String,
    /// Whether a soldier of the squad given this hit rolls the squad's Damage Resilient.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub squad_dr: bool,
    /// What the hit does to each joined unit, if given it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joined: Vec<JoinedDamage>,
}

/// What one hit does to one joined unit: the weapon's damage against its cell, and whether its
/// own Damage Resilient rolls.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinedDamage {
    pub unit: String,
    pub damage: u32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dr: bool,
}

/// Whether hits on squad `id` are assigned hit by hit (battlefront-2013, revision 10, a squad
/// with a joined unit): then the squad's Damage Resilient is not rolled on the line.
pub fn defers(state: &State, id: &str) -> bool {
    state.rules().battlefront()
        && state.revised(REVISION)
        && state
            .unit(id)
            .and_then(|u| state.cards.get(&u.card))
            .is_some_and(|c| c.unit_type == UnitType::Squad)
        && !state.joined_of(id).is_empty()
}

/// Whether unit `id` is Damage Resilient against `weapon` (its own card, or 002's Defensive
/// Tactics in cover).
fn resilient(state: &State, rules: Rules, id: &str, weapon: &WeaponLine, cover: Cover) -> bool {
    let own = state
        .unit(id)
        .and_then(|u| state.cards.get(&u.card))
        .is_some_and(|c| c.has(Skill::DamageResilient));
    (own || skills002::defensive(state, id, cover)) && rules.damage_resilient_against(weapon)
}

/// The damage one hit of `weapon` marks on unit `id` (its own cell; 003's automatic kill).
fn cell_damage(state: &State, id: &str, weapon: &WeaponLine) -> u32 {
    state
        .unit(id)
        .and_then(|u| state.cards.get(&u.card))
        .and_then(|c| combat::cell_damage(weapon, c.armour))
        .unwrap_or(0)
}

/// Adds a line's `hits` unsaved hits to squad `id`'s pending points, recording each when
/// [`defers`].
pub fn add(state: &State, p: &mut Pending, id: &str, w: &WeaponLine, cover: Cover, hits: u32) {
    p.points += hits;
    if defers(state, id) {
        record(state, p, id, w, cover, hits);
    }
}

/// The line's report when [`defers`]: its unsaved hits are yet to be assigned, not models lost.
pub fn reword(state: &State, id: &str, mut o: LineOutcome) -> LineOutcome {
    if defers(state, id) {
        if let Some(i) = o
            .summary
            .rfind(", ")
            .filter(|_| o.summary.ends_with("(one per hit)"))
        {
            o.summary.truncate(i);
            let s = if o.damage == 1 { "" } else { "s" };
            o.summary.push_str(&format!(
                ", {} hit{s} for the owner to assign between {id} and its hero",
                o.damage
            ));
        }
    }
    o
}

/// Records the `hits` unsaved hits a line of `weapon` put on squad `id` (called when
/// [`defers`]).
fn record(state: &State, p: &mut Pending, id: &str, weapon: &WeaponLine, cover: Cover, hits: u32) {
    let rules = state.rules();
    let hit = JoinedHit {
        weapon: weapon.id.clone(),
        squad_dr: resilient(state, rules, id, weapon, cover),
        joined: state
            .joined_of(id)
            .iter()
            .map(|h| JoinedDamage {
                unit: h.id.clone(),
                damage: cell_damage(state, &h.id, weapon),
                dr: resilient(state, rules, &h.id, weapon, cover),
            })
            .collect(),
    };
    p.joined_hits.extend((0..hits).map(|_| hit.clone()));
}

/// Resolves the named casualties of squad `unit`, one recorded hit each in order (`names`
/// beyond the recorded hits are plain points, `apply_named`'s way).
pub fn assign(
    state: &mut State,
    unit: &str,
    names: &[String],
    p: &Pending,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
    apply_named: &mut dyn FnMut(&mut State, &[String], &mut Outcome),
) {
    let round = state.round;
    for (i, n) in names.iter().enumerate() {
        let Some(hit) = p.joined_hits.get(i) else {
            apply_named(state, &names[i..], out);
            return;
        };
        let on_joined = hit.joined.iter().find(|j| j.unit.eq_ignore_ascii_case(n));
        let mut rolls = vec![];
        let purpose = format!("damage resilient vs {}", hit.weapon);
        match on_joined {
            Some(j) => {
                let Some(health) = state
                    .unit(&j.unit)
                    .filter(|u| !u.destroyed)
                    .map(|u| u.health)
                else {
                    continue;
                };
                // 002: "mark off the resulting Damage ... Then roll one die for each point of
                // Damage marked off"; damage beyond the last point is lost (003).
                let marked = j.damage.min(u32::from(health));
                let cancelled = if j.dr && marked > 0 {
                    let faces = roll(marked, purpose, round, dice, &mut rolls);
                    count_cancels(&faces)
                } else {
                    0
                };
                let lost = marked - cancelled;
                let dr = if j.dr && marked > 0 {
                    format!(", Damage Resilient cancels {cancelled}")
                } else {
                    String::new()
                };
                push(
                    out,
                    format!(
                        "hit {} of {} on {}: {marked} damage marked{dr}, {lost} lost",
                        i + 1,
                        hit.weapon,
                        j.unit
                    ),
                    rolls,
                );
                // The points lost are marked one at a time, the engine's way (a hero at 0 is
                // destroyed).
                apply_named(state, &vec![j.unit.clone(); lost as usize], out);
            }
            None => {
                // 002: "Each time an Infantry Squad that is Damage Resilient is assigned a Hit
                // that is not cancelled by a Save ..., roll a die. On a result of [army],
                // cancel the Hit."
                if hit.squad_dr && state.unit(unit).is_some_and(|u| !u.destroyed) {
                    let faces = roll(1, purpose, round, dice, &mut rolls);
                    if count_cancels(&faces) > 0 {
                        push(
                            out,
                            format!(
                                "hit {} of {} on {n} of {unit}: cancelled (Damage Resilient)",
                                i + 1,
                                hit.weapon
                            ),
                            rolls,
                        );
                        continue;
                    }
                }
                if !rolls.is_empty() {
                    push(
                        out,
                        format!(
                            "hit {} of {} on {n} of {unit}: Damage Resilient fails",
                            i + 1,
                            hit.weapon
                        ),
                        rolls,
                    );
                }
                apply_named(state, std::slice::from_ref(n), out);
            }
        }
    }
}

fn count_cancels(faces: &[u8]) -> u32 {
    faces
        .iter()
        .filter(|f| super::dice::RollKind::DamageResilient.face_succeeds(**f))
        .count() as u32
}

fn push(out: &mut Outcome, text: String, rolls: Vec<crate::game::Roll>) {
    out.happenings.push(Happening {
        rolls,
        ..Happening::text(text)
    });
}
