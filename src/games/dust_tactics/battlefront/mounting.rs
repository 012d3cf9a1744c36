//! 003 "Piloting Vehicles" during the game (issue 18, R607–R608): "The Hero can begin the game
//! mounted in a Vehicle, or mount a Vehicle during the game. To mount a Vehicle, a unit must move
//! into the Vehicle's square. [...] The Hero can dismount before the Vehicle activates by
//! performing a Move or March Move action to move out of the Vehicle's square then continue
//! their activation as normal. A Hero cannot mount and dismount a Vehicle in the same
//! activation. If the Hero dismounts the Vehicle, the Vehicle cannot take any actions until they
//! mount it again unless it is a Large or Huge Vehicle." (002 "Mounting and Dismounting
//! Vehicles" says the same.) Played in battlefront-2013 games made under rules revision 7
//! ([`super::joining::played`]); the pilot is the engine's (`flow::piloting`).

use super::super::flow::{may_pilot, Refusal};
use super::super::model::UnitType;
use super::super::orders::Action;
use super::super::state::{Activation, State, UnitState};
use super::joining::played;

/// The section every refusal and report line cites.
pub const RULE: &str = "003 \"Piloting Vehicles\"";

/// Whether `u` is a vehicle card.
fn is_vehicle(state: &State, u: &UnitState) -> bool {
    state
        .cards
        .get(&u.card)
        .is_some_and(|c| c.unit_type == UnitType::Vehicle)
}

/// `activate <pilot>`: the dismount, whose first action must be a Move or March Move out of
/// the vehicle's square ("by performing a Move or March Move action to move out of the
/// Vehicle's square"); `activate <vehicle>` left by its pilot: `nothing` only ("the Vehicle
/// cannot take any actions until they mount it again"; a Huge one is never left so, R796). Refused
/// before anything changes; `Ok` for every other activation.
pub fn check(state: &State, u: &UnitState, actions: &[Action]) -> Result<(), Refusal> {
    if !played(state) {
        return Ok(());
    }
    if let Some(v) = u.joined.as_deref().filter(|_| state.is_pilot(u)) {
        let leaves = match actions.first() {
            Some(Action::Move { squares } | Action::MoveFacing { squares, .. }) => {
                squares.last() != u.at.as_ref()
            }
            _ => false,
        };
        if !leaves {
            return Err(Refusal {
                reason: format!(
                    "{} pilots {v}: activating apart from it is dismounting, whose first action is a move out of {v}'s square",
                    u.id
                ),
                rule: format!("{RULE}: \"The Hero can dismount before the Vehicle activates by performing a Move or March Move action to move out of the Vehicle's square\""),
                instead: format!("`move <square>` as {}'s first line, or activate {v} (its pilot activates with it)", u.id),
            });
        }
    }
    if u.unpiloted && actions.iter().any(|a| !matches!(a, Action::Nothing)) {
        return Err(Refusal {
            reason: format!(
                "{}'s pilot dismounted: it cannot take any actions until a pilot mounts it again",
                u.id
            ),
            rule: format!("{RULE}: \"If the Hero dismounts the Vehicle, the Vehicle cannot take any actions until they mount it again\""),
            instead: format!("activate {}\n  nothing\n  nothing", u.id),
        });
    }
    Ok(())
}

/// The dismount commits: vehicle `v` is left without its pilot and cannot act until he (or
/// another pilot) mounts it, "unless it is a Large or Huge Vehicle" (R796, R774). Gives whether it is
/// left unable to act.
pub fn dismount(state: &mut State, v: &str) -> bool {
    if state
        .unit(v)
        .is_some_and(|x| super::huge::is_huge(state, x) || super::large2::is_large2(state, x))
    {
        return false;
    }
    if let Some(x) = state.unit_mut(v) {
        x.unpiloted = true;
    }
    true
}

/// Whether activation `act` was a dismount (its unit was a pilot when it began).
pub fn dismounted_in(act: &Activation, hero: &str) -> bool {
    act.flags.dismounted && act.unit == hero
}

/// At the end of activation `act`: the vehicle a hero able to pilot it (the Pilot skill, R260)
/// stands on, friendly and without a pilot, is mounted ("To mount a Vehicle, a unit must move
/// into the Vehicle's square"), unless he dismounted in this activation. Gives the report's
/// lines.
pub fn mount(state: &mut State, act: &Activation) -> Vec<String> {
    if !played(state) {
        return vec![];
    }
    let rules = state.rules();
    let mut mounts: Vec<(String, String)> = vec![];
    for h in &state.units {
        if h.destroyed || h.joined.is_some() || h.at.is_none() || dismounted_in(act, &h.id) {
            continue;
        }
        let Some(hc) = state.cards.get(&h.card) else {
            continue;
        };
        if hc.unit_type != UnitType::Hero {
            continue;
        }
        let vehicle = state.units.iter().find(|v| {
            !v.destroyed
                && v.side == h.side
                && v.at == h.at
                && is_vehicle(state, v)
                && state.pilot_of(&v.id).is_none()
                && !mounts.iter().any(|(_, m)| *m == v.id)
                && state
                    .cards
                    .get(&v.card)
                    .is_some_and(|vc| may_pilot(hc, vc, rules).is_ok())
        });
        if let Some(v) = vehicle {
            mounts.push((h.id.clone(), v.id.clone()));
        }
    }
    let mut lines = vec![];
    for (h, v) in mounts {
        if let Some(x) = state.unit_mut(&h) {
            x.joined = Some(v.clone());
        }
        if let Some(x) = state.unit_mut(&v) {
            x.unpiloted = false;
        }
        lines.push(format!(
            "{h} mounts {v} and pilots it: he cannot be targeted and activates with it ({RULE})"
        ));
    }
    lines
}
