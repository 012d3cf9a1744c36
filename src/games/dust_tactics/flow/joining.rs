//! Who may join whom before the game beyond 004 "Heroes" (flow/setup.rs): superhumans and their
//! sidekicks (004 "Superhumans", R520, R521) and the joining skills Blutkreuz Ape and Blutkreuz
//! Zombie (004 skills reference), and the Commissar who joins beside a hero (004 skills
//! reference "Commissar", R478, R479).

use super::*;

/// Whether hero card `hc` may form the special all-hero squad of 004 "Superhumans" with `sc`:
/// `sc` is a superhuman and `hc` a sidekick naming it ("with the indicated superhuman").
pub(super) fn sidekick_pair(hc: &Card, sc: &Card) -> bool {
    hc.unit_type == UnitType::Hero
        && sc.unit_type == UnitType::Hero
        && sc.superhuman
        && !hc.superhuman
        && hc.sidekick.as_deref() == Some(sc.id.as_str())
}

/// The joining rules of superhumans and of the Blutkreuz skills, for `hero_id` (card `hc`)
/// joining `squad_id` (card `sc`) before the game.
pub(super) fn check_join(
    hero_id: &str,
    squad_id: &str,
    hc: &Card,
    sc: &Card,
) -> Result<(), SetupError> {
    if hc.superhuman {
        return Err(SetupError(format!(
            "{hero_id} is a superhuman and can never join a squad (004 'Superhumans': \"A superhuman can never join a squad\"): remove its `joins`, or let a sidekick join it"
        )));
    }
    if sc.superhuman && !sidekick_pair(hc, sc) {
        return Err(SetupError(format!(
            "{hero_id} cannot join superhuman {squad_id}: only a sidekick of `{}` (card field sidekick = \"{}\") forms a special squad with it (004 'Superhumans')",
            sc.id, sc.id
        )));
    }
    for skill in [Skill::BlutkreuzApe, Skill::BlutkreuzZombie] {
        if hc.has(skill) != sc.has(skill) {
            let (with, without) = if hc.has(skill) {
                (format!("hero {hero_id}"), format!("squad {squad_id}"))
            } else {
                (format!("squad {squad_id}"), format!("hero {hero_id}"))
            };
            return Err(SetupError(format!(
                "hero {hero_id} cannot join squad {squad_id}: {with} has {} and {without} has not (004 '{}': \"A hero with this skill can only join a squad that also has this skill. A squad with this skill can only be joined by a hero that also has this skill.\")",
                skill.id(),
                skill.title()
            )));
        }
    }
    Ok(())
}

/// 004 "Commissar": "The unit can join other units in the same way a hero joins a unit ... A
/// Commissar cannot join an individual hero who has not joined a squad." He joins a squad only:
/// naming a hero who joined a squad, the scenario names that squad instead (R479).
pub(super) fn check_commissar(
    who: &str,
    target: &str,
    hc: &Card,
    sc: &Card,
) -> Result<(), SetupError> {
    if !commissar_card(hc) || sc.unit_type == UnitType::Squad {
        return Ok(());
    }
    let what = if sc.unit_type == UnitType::Hero {
        "an individual hero"
    } else {
        "a vehicle"
    };
    Err(SetupError(format!(
        "Commissar {who} cannot join {target}, {what}: a Commissar joins a squad in the same way a hero joins a unit, and \"cannot join an individual hero who has not joined a squad\" (004 'Commissar'); give him `joins` = the squad (its hero may join it too)"
    )))
}

/// 004 "Commissar": "If the unit is brought back into play, he returns to play with the unit": a
/// Commissar of squad `id` who fell returns fresh with it, joined again, off the board until it
/// enters (R487). One still fighting alone is in play already and stays where he is.
pub(super) fn commissar_returns(state: &mut State, id: &str, out: &mut Outcome) {
    let back: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.destroyed && u.commissar_for.as_deref() == Some(id))
        .map(|u| u.id.clone())
        .collect();
    for c in back {
        let Some(card) = state
            .unit(&c)
            .and_then(|u| state.cards.get(&u.card))
            .cloned()
        else {
            continue;
        };
        let (models, health, ammo) = super::setup::fresh(&card);
        if let Some(x) = state.unit_mut(&c) {
            x.destroyed = false;
            x.at = None;
            x.models = models;
            x.health = health;
            x.ammo = ammo;
            x.joined = Some(id.to_string());
            x.activated = true;
        }
        say(
            out,
            format!("{c}, its Commissar, returns to play with {id} (004 'Commissar')"),
        );
    }
}

/// 004 "Superhumans": "2 identical superhumans can never fight on the same side. However, a
/// second identical superhuman can appear in an opponent's army": one of each superhuman card
/// per side (R520).
pub(super) fn check_setup(
    units: &[UnitState],
    cards: &BTreeMap<String, Card>,
) -> Result<(), SetupError> {
    let mut seen: Vec<(&str, &str, &str)> = vec![];
    for u in units {
        if !cards.get(&u.card).is_some_and(|c| c.superhuman) {
            continue;
        }
        if let Some((_, _, first)) = seen
            .iter()
            .find(|(side, card, _)| *side == u.side && *card == u.card)
        {
            return Err(SetupError(format!(
                "side {} fields the superhuman `{}` twice ({first} and {}): 2 identical superhumans can never fight on the same side (004 'Superhumans'); remove one (the opponent may field one)",
                u.side, u.card, u.id
            )));
        }
        seen.push((&u.side, &u.card, &u.id));
    }
    Ok(())
}
