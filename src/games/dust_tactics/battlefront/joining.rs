//! 003 "Joining Infantry Squads" during the game (issue 18, R604–R606): under 003 a hero is
//! joined to a squad by standing in its square, activation by activation. "A Hero in the same
//! square as a unit that they can join may be activated at the same time as the unit, taking
//! the same actions as the unit and remaining in the same square as the unit [...]
//! Alternatively, the Hero may activate separately. If a Hero is in the same square as a unit
//! that they can join, they are treated as one unit if either of them are targeted by an
//! attack." The engine's join (`UnitState::joined`) is kept equal to "in the same square as a
//! squad he can join": [`loosen`] takes the hero out of the group for an activation made
//! apart, and [`settle`], at the end of every activation, joins a hero who stands in such a
//! square and unjoins one who no longer does. Games made before rules revision 7 keep the
//! join of R257 (for the game, no activation apart).

use super::super::flow::Refusal;
use super::super::model::UnitType;
use super::super::orders::Action;
use super::super::state::{Activation, State, UnitState};
use super::heroes::RULE;
use crate::game::{Happening, Outcome};

/// The rules revision that brought joining per activation.
pub const REVISION: u32 = 7;

/// The `skill` word of the first action line that leaves the hero out of his squad's
/// activation.
pub const DETACH: &str = "detach";

/// Whether joining per activation is played: battlefront-2013, made under revision 7 or later.
pub fn played(state: &State) -> bool {
    state.rules().battlefront() && state.revised(REVISION)
}

/// Whether hero `h` can join squad `s` as 003 words it: both on one side, `s` an Infantry
/// Squad or Support Weapon "that has the same Armour rating" (kind and value, R257), 002's
/// Loner, Gorilla, Steel Guard and Zombie allow it (R583, R601), and no superhuman ("a
/// Superhuman can never Join a Unit", 002).
pub fn can_join(state: &State, h: &UnitState, s: &UnitState) -> bool {
    let (Some(hc), Some(sc)) = (state.cards.get(&h.card), state.cards.get(&s.card)) else {
        return false;
    };
    h.side == s.side
        && h.id != s.id
        && hc.unit_type == UnitType::Hero
        && sc.unit_type == UnitType::Squad
        && hc.armour == sc.armour
        && !hc.superhuman
        && super::skills002::refuse_join(hc, sc).is_none()
}

/// Whether `u` is a hero joined to a squad (not piloting a vehicle) who may activate apart
/// from it now: "Alternatively, the Hero may activate separately".
/// A pilot may too: activating apart is his dismount (`mounting::check`, R607). Off the board
/// they enter together (003: a Hero and an Infantry unit not on the board "both then activate
/// together, entering the game at the same time"; a pilot "activates with the Vehicle").
pub fn apart(state: &State, u: &UnitState) -> bool {
    played(state) && !u.destroyed && !u.activated && u.joined.is_some() && u.at.is_some()
}

/// Whether skill `name` is the `skill detach` line of a game that plays joining per activation
/// (checked by [`refuse_detach`], not refused as an undeclared skill).
pub fn is_detach(state: &State, name: &str) -> bool {
    played(state) && name.eq_ignore_ascii_case(DETACH)
}

/// Whether the first action line is `skill detach`.
fn detaches(actions: &[Action]) -> bool {
    matches!(actions.first(), Some(Action::Skill { name, target: None }) if name.eq_ignore_ascii_case(DETACH))
}

/// The actions the activation plans: without the leading `skill detach`, which is no action.
pub fn own_actions<'a>(state: &State, actions: &'a [Action]) -> &'a [Action] {
    if played(state) && detaches(actions) {
        &actions[1..]
    } else {
        actions
    }
}

/// A hero taken out of his squad for one activation: (hero, squad), for [`restore`].
pub type Loosened = Option<(String, String)>;

/// Before activation `unit` is planned: the hero activating apart from his squad, or the hero
/// left out of his squad's activation (he has already activated this turn, or the first line
/// is `skill detach`), leaves the group for this activation. [`settle`] joins him again at the
/// end if he still stands in the squad's square.
pub fn loosen(state: &mut State, unit: &str, actions: &[Action]) -> Loosened {
    if !played(state) {
        return None;
    }
    let u = state.unit(unit)?;
    let pair = if u.joined.is_some() {
        (u.id.clone(), u.joined.clone()?)
    } else {
        let h = state.hero_of(unit)?;
        if !(h.activated || detaches(actions)) {
            return None;
        }
        (h.id.clone(), unit.to_string())
    };
    state.unit_mut(&pair.0)?.joined = None;
    Some(pair)
}

/// Undoes [`loosen`] when the activation is refused: a refusal changes nothing.
pub fn restore(state: &mut State, loosened: Loosened) {
    if let Some((h, s)) = loosened {
        if let Some(x) = state.unit_mut(&h) {
            x.joined = Some(s);
        }
    }
}

/// The activation commits with the hero [`loosen`] took out of his squad's group (or out of
/// his vehicle: the dismount, R607): the report says so. Gives whether it is a dismount.
pub fn commit(state: &mut State, loosened: &Loosened, unit: &str, out: &mut Outcome) -> bool {
    let Some((h, s)) = loosened else {
        return false;
    };
    let vehicle = state
        .unit(s)
        .and_then(|v| state.cards.get(&v.card))
        .is_some_and(|c| c.unit_type == UnitType::Vehicle);
    // 003's two-square Large vehicle acts without its pilot too (R774).
    let kind = match state
        .unit(s)
        .is_some_and(|v| super::large2::is_large2(state, v))
    {
        true => "a Large vehicle",
        false => "a Huge vehicle",
    };
    let text = if vehicle {
        match super::mounting::dismount(state, s) {
            true => format!("{h} dismounts from {s}, which cannot take any actions until a pilot mounts it again ({})", super::mounting::RULE),
            // 003: "... unless it is a Large or Huge Vehicle" (R796).
            false => format!("{h} dismounts from {s}, {kind}, which acts without a pilot ({}: \"unless it is a Large or Huge Vehicle\")", super::mounting::RULE),
        }
    } else if h == unit {
        format!("{h} activates apart from {s} (003 \"Joining Infantry Squads\": \"Alternatively, the Hero may activate separately\")")
    } else {
        format!("{s} activates without {h}, who keeps to his own activation ({RULE})")
    };
    out.happenings.push(Happening {
        text,
        ..Happening::default()
    });
    vehicle
}

/// A `skill detach` line refused under battlefront-2013 (`None` when it is the first line of
/// a squad with a joined hero, in a game that plays joining per activation).
pub fn refuse_detach(state: &State, unit: &str, actions: &[Action]) -> Option<Refusal> {
    if !played(state) {
        return None; // the generic refusal of an undeclared skill (R281)
    }
    let at = actions.iter().position(
        |a| matches!(a, Action::Skill { name, .. } if name.eq_ignore_ascii_case(DETACH)),
    )?;
    let hero = state.hero_of(unit);
    let reason = match hero {
        None => format!("{unit} has no joined hero to leave behind"),
        Some(h) if at != 0 => format!(
            "`skill detach` is line {} of the activation: a hero either activates with {unit} \"taking the same actions as the unit\" or not at all ({} stays behind only when it is the first line)",
            at + 1,
            h.id
        ),
        Some(_) => return None,
    };
    Some(Refusal {
        reason,
        rule: format!("{RULE}: \"A Hero in the same square as a unit that they can join may be activated at the same time as the unit\""),
        instead: "`skill detach` as the first line (the squad activates without its hero), or leave it out".into(),
    })
}

/// At the end of every activation: a hero joined to a squad but no longer in its square
/// leaves it; a hero in the square of a friendly squad he can join, which has no hero, joins
/// it (003: "by being in the same square as that unit"; "Only one Hero can join an Infantry
/// unit at a time").
pub fn settle(state: &mut State, act: &Activation, out: &mut Outcome) {
    if !played(state) {
        return;
    }
    let mut changes: Vec<(String, Option<String>, String)> = vec![];
    // A pilot first: a hero on a vehicle's square mounts it rather than join anything (R607).
    let mounted = super::mounting::mount(state, act);
    for h in &state.units {
        let Some(s) = h.joined.as_deref() else {
            continue;
        };
        if state.is_pilot(h) {
            continue;
        }
        // Both off the board (joined before entering, 003 "Entering the Board") stay joined.
        let gone = state.unit(s).is_none_or(|s| s.destroyed || s.at != h.at);
        if gone && !h.destroyed {
            changes.push((
                h.id.clone(),
                None,
                format!(
                    "{} no longer stands in {s}'s square and leaves it ({RULE})",
                    h.id
                ),
            ));
        }
    }
    for (h, j, _) in &changes {
        if let Some(x) = state.unit_mut(h) {
            x.joined = j.clone();
        }
    }
    let mut joins: Vec<(String, String)> = vec![];
    for h in &state.units {
        if h.destroyed || h.joined.is_some() || h.at.is_none() {
            continue;
        }
        let squad = state.units.iter().find(|s| {
            !s.destroyed
                && s.at == h.at
                && can_join(state, h, s)
                && state.hero_of(&s.id).is_none()
                && !joins.iter().any(|(_, t)| *t == s.id)
        });
        if let Some(s) = squad {
            joins.push((h.id.clone(), s.id.clone()));
        }
    }
    for (h, s) in &joins {
        if let Some(x) = state.unit_mut(h) {
            x.joined = Some(s.clone());
        }
        changes.push((
            h.clone(),
            Some(s.clone()),
            format!("{h} stands in {s}'s square and joins it: they are one unit when either is attacked ({RULE})"),
        ));
    }
    let lines = mounted
        .into_iter()
        .chain(changes.into_iter().map(|(_, _, t)| t));
    for text in lines {
        out.happenings.push(Happening {
            text,
            ..Happening::default()
        });
    }
}

/// The template's line for a squad whose hero may stay behind: `skill detach` first.
pub fn template_line(state: &State, u: &UnitState) -> Option<String> {
    let h = state
        .hero_of(&u.id)
        .filter(|h| played(state) && !h.activated)?;
    Some(format!(
        "#   skill {DETACH}   # first, then two actions: {} without {}\n",
        u.id, h.id
    ))
}
