//! 003 "Joining Infantry Squads" under battlefront-2013 (issue 18): a hero joined to a squad
//! before the game, entering with it. 003: "A Hero can join an Infantry Squad or Support Weapon
//! that has the same Armour rating by being in the same square as that unit"; "Only one Hero
//! can join an Infantry unit at a time"; "the combined unit has the lower movement rate of the
//! two" (`Rules::joined_movement`). The join itself is the engine's (`flow::setup`);
//! this module checks a scenario's `joins` against 003 before `new` accepts it (R257).

use super::cards;
use crate::dust_tactics::cards::parse_card;
use crate::dust_tactics::flow::Refusal;
use crate::dust_tactics::model::{Card, UnitType};
use crate::dust_tactics::scenario::Scenario;
use crate::dust_tactics::state::State;

/// The section every refusal of a join cites.
pub const RULE: &str = "003 \"Joining Infantry Squads\"";

/// The shipped battlefront card `id` (`check_joins` of a scenario before any `--cards`).
pub fn builtin_card(id: &str) -> Option<Card> {
    cards::builtin()
        .into_iter()
        .find(|(f, _)| f.strip_suffix(".toml") == Some(id))
        .and_then(|(f, t)| parse_card(f, t).ok())
}

/// Checks every `joins` of scenario `s` as 003 words it: a hero joins a squad of its own side
/// with the same Armour rating (kind and value), at most one hero per squad (R257), and 002's
/// Loner and Gorilla allow it (R583). `card_of` gives a card by id.
pub fn check_joins(s: &Scenario, card_of: &dyn Fn(&str) -> Option<Card>) -> Result<(), String> {
    for side in &s.sides {
        let mut taken: Vec<(String, String)> = vec![];
        for spec in &side.units {
            let Some(other) = &spec.joins else { continue };
            let Some(partner) = side.units.iter().find(|u| u.id.eq_ignore_ascii_case(other)) else {
                return Err(format!(
                    "scenario `{}`: unit `{}` joins `{other}`, which is not a unit of side {} ({RULE}: a Hero joins a unit of its own force)",
                    s.name, spec.id, side.id
                ));
            };
            let (Some(a), Some(b)) = (card_of(&spec.card), card_of(&partner.card)) else {
                continue; // an unknown card is refused by the caller, naming the card
            };
            if let Some(why) = superhuman_join(&a, &b) {
                return Err(format!(
                    "scenario `{}`: `{}` joins `{}`: {why}",
                    s.name, spec.id, partner.id
                ));
            }
            let ((hero, hc), (squad, sc)) = match (a.unit_type, b.unit_type) {
                (UnitType::Hero, UnitType::Squad) => ((spec, a), (partner, b)),
                (UnitType::Squad, UnitType::Hero) => ((partner, b), (spec, a)),
                // A hero joined to a vehicle pilots it: the engine's join checks it (003
                // "Piloting Vehicles", `flow::piloting`, R260).
                (UnitType::Hero, UnitType::Vehicle) | (UnitType::Vehicle, UnitType::Hero) => {
                    continue
                }
                _ => {
                    return Err(format!(
                        "scenario `{}`: `{}` joins `{}`, but only a Hero joins an Infantry Squad ({RULE}); place the two in their own squares",
                        s.name, spec.id, partner.id
                    ))
                }
            };
            if hc.armour != sc.armour {
                return Err(format!(
                    "scenario `{}`: hero `{}` ({:?}) cannot join squad `{}` ({:?}): \"A Hero can join an Infantry Squad or Support Weapon that has the same Armour rating\" ({RULE}); join a squad of the hero's Armour or place the hero in its own square",
                    s.name, hero.id, hc.armour, squad.id, sc.armour
                ));
            }
            if let Some(why) = super::skills002::refuse_join(&hc, &sc) {
                return Err(format!(
                    "scenario `{}`: hero `{}` cannot join squad `{}`: {why}; place the hero in its own square",
                    s.name, hero.id, squad.id
                ));
            }
            if let Some((h, _)) = taken
                .iter()
                .find(|(_, q)| q.eq_ignore_ascii_case(&squad.id))
            {
                if !h.eq_ignore_ascii_case(&hero.id) {
                    return Err(format!(
                        "scenario `{}`: squad `{}` is joined by `{h}` and `{}`: at most one Hero joins a unit ({RULE})",
                        s.name, squad.id, hero.id
                    ));
                }
            }
            taken.push((hero.id.clone(), squad.id.clone()));
        }
    }
    Ok(())
}

/// `activate <hero>` of a hero joined to a squad, refused before it changes anything in a game
/// made before rules revision 7: there 003's "Alternatively, the Hero may activate separately"
/// is not played (R257; games made since play it, R604), so the hero activates with its squad;
/// `None` for every other unit.
pub fn refuse_apart(state: &State, unit: &str) -> Option<Refusal> {
    let h = state.unit(unit)?;
    let squad = h.joined.as_ref()?;
    if state.is_pilot(h) && !super::joining::played(state) {
        return Some(Refusal {
            reason: format!(
                "{} pilots {squad} and activates with it; dismounting (\"The Hero can dismount before the Vehicle activates by performing a Move or March Move action\") is {} (docs/battlefront.md)",
                h.id,
                super::NOT_YET
            ),
            rule: "003 \"Piloting Vehicles\"".to_string(),
            instead: format!("activate {squad} (its pilot activates with it)"),
        });
    }
    if super::joining::played(state) {
        return None; // R604: a joined hero may activate apart (joining.rs)
    }
    Some(Refusal {
        reason: format!(
            "{} is joined to {squad}; a joined hero activating apart from its squad (\"Alternatively, the Hero may activate separately\") is {} (docs/battlefront.md)",
            h.id,
            super::NOT_YET
        ),
        rule: RULE.to_string(),
        instead: format!("activate {squad} (the hero activates with it)"),
    })
}

/// 003 "Heroes": "Heroes are unique individuals, so an army can never have two of the same
/// Hero" (002: "one of each Hero can be in your force"). A side fielding two units of one hero
/// card, or of two hero cards of one name, is refused at `new`, naming the hero, the side and
/// both units (R684). 000 and 004 say nothing of it, so only battlefront-2013 checks it.
pub fn check_unique(s: &Scenario, card_of: &dyn Fn(&str) -> Option<Card>) -> Result<(), String> {
    for side in &s.sides {
        let mut seen: Vec<(String, &str)> = vec![];
        for u in &side.units {
            let Some(c) = card_of(&u.card).filter(|c| c.unit_type == UnitType::Hero) else {
                continue;
            };
            let name = c.name.to_lowercase();
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name) {
                return Err(format!(
                    "scenario `{}`: side {} fields the hero {} twice ({first} and {}); 003 \"Heroes\": \"Heroes are unique individuals, so an army can never have two of the same Hero\": field another hero or another unit instead of {}",
                    s.name, side.id, c.name, u.id, u.id
                ));
            }
            seen.push((name, &u.id));
        }
    }
    Ok(())
}

/// 002 "Superhumans": "a Superhuman can never Join a Unit"; "Sidekicks [...] can Join the named
/// Superhuman forming a combined Unit". Why a `joins` between cards `a` and `b` (either way
/// round) is refused when one is a Superhuman: never with a unit; with its own Sidekick, the
/// combined unit is not built under battlefront-2013 yet (R688). A pilot's `joins` to its
/// vehicle mounts it, no join (003 "Piloting Vehicles").
fn superhuman_join(a: &Card, b: &Card) -> Option<String> {
    if a.unit_type == UnitType::Vehicle || b.unit_type == UnitType::Vehicle {
        return None;
    }
    let (sup, other) = match (a.superhuman, b.superhuman) {
        (true, _) => (a, b),
        (false, true) => (b, a),
        (false, false) => return None,
    };
    let sidekick = !other.superhuman
        && other.unit_type == UnitType::Hero
        && other.sidekick.as_deref() == Some(sup.id.as_str());
    Some(if sidekick {
        format!(
            "the Sidekick {} joining its Superhuman {} (002 \"Superhumans\": \"they can Join the named Superhuman forming a combined Unit\") is {} (R688); place the two in their own squares",
            other.name,
            sup.name,
            super::NOT_YET
        )
    } else {
        format!(
            "{} is a Superhuman: 002 \"Superhumans\": \"a Superhuman can never Join a Unit\" (only its Sidekick joins it); remove the `joins` and place each in its own square",
            sup.name
        )
    })
}
