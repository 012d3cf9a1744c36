//! 002 "Carrying Vehicles" under battlefront-2013 (issue 18, R744–R747): an aircraft with the
//! equipment Airlifter carries one vehicle with Airmobile or Air Assault. The carrying is 004's
//! Carry Capacity: Vehicle machinery (`carry_vehicle.rs`, `carry.rs`: `aboard`, the exit, the
//! wreck's hook); what 002 words differently is here: who may be carried, the carried vehicle's
//! separate activation (it only dismounts, before the Airlifter activates or, with Air Assault,
//! after it), and the damage roll when the Airlifter is eliminated.

use super::*;
use crate::dust_tactics::battlefront::skills002::Skill002;
use crate::dust_tactics::battlefront::{dice::Symbol, suppression};
use crate::dust_tactics::orders::carry::Transport;

/// The section refusals and reports cite.
const RULE: &str = "002 \"Carrying Vehicles\"";

/// 002 "Airlifter".
pub(super) const CARRIES: &str = "An Airlifter can only carry Airmobile or Air Assault Vehicles";

/// 002 "Activating While Carried".
const DISMOUNT: &str = "Vehicles can dismount from an Airlifter by Activating before the Airlifter (or after if Air Assault Vehicles) and performing a Move or March Move Action to move away from the Airlifter. Other than this, they cannot perform Move, March Move, Attack, or Sustained Attack Actions while being carried by an Airlifter";

/// Whether card `c` is an Airlifter: an aircraft with the equipment (R745).
pub(super) fn is_airlifter(c: &Card) -> bool {
    matches!(c.armour, model::Armour::Aircraft(_)) && Skill002::Airlifter.of(c)
}

/// Why vehicle card `vc` (unit `id`) may not ride in the Airlifter `carrier` (card `cc`), or
/// `None` when `cc` is no Airlifter or `vc` has Airmobile or Air Assault (R745).
pub(super) fn why_not(id: &str, vc: &Card, carrier: &str, cc: &Card) -> Option<String> {
    let fits = Skill002::Airmobile.of(vc) || Skill002::AirAssault.of(vc);
    (is_airlifter(cc) && !fits).then(|| {
        format!("{carrier} is an Airlifter: it only carries Airmobile or Air Assault vehicles, and {id} is neither")
    })
}

/// The living Airlifter carrying vehicle `id`, under battlefront-2013.
pub fn carrier(state: &State, id: &str) -> Option<String> {
    if !state.rules().battlefront() || !super::carry_vehicle::is_vehicle(state, id) {
        return None;
    }
    let v = state.unit(state.unit(id)?.aboard.as_deref()?)?;
    let lifts = card(state, v).is_some_and(is_airlifter);
    (lifts && !v.destroyed).then(|| v.id.clone())
}

/// Whether unit `id`'s card has Air Assault.
fn air_assault(state: &State, id: &str) -> bool {
    state
        .unit(id)
        .and_then(|u| card(state, u))
        .is_some_and(|c| Skill002::AirAssault.of(c))
}

/// A vehicle boarding an Airlifter by a `board` order is refused: "To pick up a Vehicle, the
/// Airlifter must start a Move or March Move Action directly over the Vehicle" (R745).
pub(super) fn check_board(state: &State, id: &str, carrier: &str) -> Result<(), Refusal> {
    let lifts = state
        .unit(carrier)
        .and_then(|v| card(state, v))
        .is_some_and(is_airlifter);
    if !lifts {
        return Ok(());
    }
    Err(Refusal {
        reason: format!("{id} cannot board the Airlifter {carrier}: the Airlifter picks it up"),
        rule: format!("{RULE}, \"Airlifter\": \"{PICK_UP}\""),
        instead: format!(
            "move {id} elsewhere, or begin the game carried (`aboard = \"{carrier}\"`)"
        ),
    })
}

fn refusal(reason: String, instead: &str) -> Refusal {
    Refusal {
        reason,
        rule: format!("{RULE}, \"Activating While Carried\": \"{DISMOUNT}\""),
        instead: instead.into(),
    }
}

impl Planner<'_> {
    /// 002 "Activating While Carried" (R746): "Vehicles carried by an Airlifter Activate
    /// separately from the Airlifter." A carried vehicle dismounts with a Move (or `move exit`)
    /// as its first action, before its Airlifter has activated this turn or, with Air Assault,
    /// after it too; otherwise it makes no Move, Attack or Sustained Attack while carried.
    /// Returns `false` when the unit is no vehicle carried by an Airlifter.
    pub(super) fn airlifted_sequence(&mut self, actions: &[Action]) -> Result<bool, Refusal> {
        let (state, u) = (self.state, self.u);
        let Some(v) = carrier(state, &u.id) else {
            return Ok(false);
        };
        let dismounts = matches!(
            actions.first(),
            Some(Action::Move { .. } | Action::Transport(Transport::Exit { .. }))
        );
        let lifter_done = state.unit(&v).is_some_and(|x| x.activated);
        if dismounts && lifter_done && !air_assault(state, &u.id) {
            return Err(refusal(
                format!("{v} has already activated this turn: {} can no longer dismount from it (only an Air Assault vehicle dismounts after its Airlifter)", u.id),
                "stay carried this turn: `nothing` + `nothing`",
            ));
        }
        for (i, a) in actions.iter().enumerate() {
            let acts = matches!(
                a,
                Action::Move { .. }
                    | Action::MoveSparing { .. }
                    | Action::MoveFacing { .. }
                    | Action::Turn { .. }
                    | Action::Climb(_)
                    | Action::Travel
                    | Action::Transport(_)
                    | Action::Attack { .. }
                    | Action::Sustained { .. }
                    | Action::StrikeWith { .. }
            );
            if acts && !(dismounts && i == 0) {
                return Err(refusal(
                    format!("line {} is a Move or an attack of {}, which is carried by {v}: a carried vehicle only dismounts, with its first action", i + 1, u.id),
                    "a `move <square next to the Airlifter> …` as the first line, or `nothing` + `nothing`",
                ));
            }
            if dismounts {
                break; // after the dismount it acts as any vehicle
            }
        }
        if !dismounts {
            // Off the board with its Airlifter (R746).
            self.pos = state.unit(&v).and_then(|x| x.at);
        }
        Ok(true)
    }
}

/// 002 "Airlifter" (R745, R748).
const PICK_UP: &str =
    "To pick up a Vehicle, the Airlifter must start a Move or March Move Action directly over the Vehicle";

/// The friendly ground vehicle standing on `at` that Airlifter `lifter` (of side `side`) may pick
/// up, with why not when there is one it may not (R748).
fn beneath(state: &State, lifter: &str, side: &str, at: Square) -> Option<Result<String, String>> {
    let v = state.units.iter().find(|v| {
        !v.destroyed
            && v.side == side
            && v.id != lifter
            && v.at == Some(at)
            && super::carry_vehicle::is_vehicle(state, &v.id)
            && !super::aircraft::is_aircraft(state, &v.id)
    })?;
    Some(
        match super::carry_vehicle::why_not_lift(state, &v.id, lifter) {
            Some(why) => Err(why),
            None => Ok(v.id.clone()),
        },
    )
}

/// Whether Airlifter `lifter` may stop over the friendly unit `other` on its square: to pick it
/// up, it ends a Move over a vehicle it may carry (R748; 003 bars any other friendly square).
pub(super) fn may_hover_over(state: &State, lifter: &str, other: &str) -> bool {
    let Some(u) = state.unit(lifter) else {
        return false;
    };
    let lifts = state.rules().battlefront() && card(state, u).is_some_and(is_airlifter);
    let Some(at) = state.unit(other).and_then(|o| o.at) else {
        return false;
    };
    lifts && beneath(state, lifter, &u.side, at).is_some_and(|r| r.is_ok_and(|v| v == other))
}

impl Planner<'_> {
    /// `move lift <square> …` (R748): an Airlifter whose Move or March Move starts over a
    /// friendly vehicle it may carry picks it up, then flies as its `move` would.
    pub(super) fn lift(&mut self, path: &[Square]) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let rule = format!("{RULE}, \"Airlifter\": \"{PICK_UP}\"");
        let fail = |reason: String, instead: &str| Refusal {
            reason,
            rule: rule.clone(),
            instead: instead.into(),
        };
        if !(state.rules().battlefront() && card(state, u).is_some_and(is_airlifter)) {
            return Err(fail(
                format!("{} is no Airlifter: only an aircraft with the equipment Airlifter picks up a vehicle", u.id),
                "move <square> …",
            ));
        }
        let Some(from) = self.pos else {
            return Err(fail(
                format!("{} is not on the board", u.id),
                "move <entry square>",
            ));
        };
        if self.last_kind == Some(Kind::Move) {
            return Err(fail(
                format!("the lift is the second Move of a March Move that started elsewhere: {} starts it over the vehicle", u.id),
                "`move lift <square> …` as the first line, or after an action that is no Move",
            ));
        }
        let v = match beneath(state, &u.id, &u.side, from) {
            Some(Ok(v)) => v,
            Some(Err(why)) => return Err(fail(why, "move <square> …")),
            None => {
                return Err(fail(
                    format!("there is no friendly vehicle beneath {} on {from}", u.id),
                    "first end a `move` over the Airlifter's vehicle, then `move lift <square> …` in a later activation",
                ))
            }
        };
        let at = self.steps.len();
        self.movement(path)?;
        self.steps.insert(at, Step::Lift { vehicle: v.clone() });
        if let Some(t) = self.texts.last_mut() {
            *t = format!("pick up {v} and {t}");
        }
        Ok(())
    }
}

/// Runs a pick-up (R748): the vehicle beneath Airlifter `lifter` is carried by it, off the board.
pub(super) fn exec_lift(state: &mut State, lifter: &str, vehicle: &str, out: &mut Outcome) {
    let here = state.unit(lifter).and_then(|l| l.at);
    let beneath = state
        .unit(vehicle)
        .is_some_and(|v| !v.destroyed && v.at.is_some() && v.at == here);
    if !beneath {
        return;
    }
    // Its pilot rides with it (as `aboard` at the start, `carry::setup_aboard`).
    for m in group(state, vehicle) {
        if let Some(x) = state.unit_mut(&m) {
            x.at = None;
            x.aboard = Some(lifter.to_string());
        }
    }
    say(
        out,
        format!("{lifter} picks up {vehicle} ({RULE}, \"Airlifter\")"),
    );
}

/// Whether `shooter` may fire in a reaction: not while carried by an Airlifter (R746).
pub(super) fn may_fire(state: &State, shooter: &str) -> bool {
    carrier(state, shooter).is_none()
}

/// 002 "Damage to Carried Vehicles" (R747): "If an Airlifter is eliminated while carrying a
/// Vehicle, the Airlifter's player rolls one die for each point of Damage remaining on the
/// Vehicle's Damage Track. The Vehicle takes one point of Damage for each [army] or [target]
/// result (only on a [army] if the Vehicle has Air Assault equipment ...). If the Vehicle
/// survives, place it directly beneath the Airlifter before removing the Airlifter from the
/// game. The Vehicle gains a Suppressed token and counts as having Activated for this turn."
/// Returns `false` when `rider` is no vehicle carried by an Airlifter.
pub(super) fn survive(
    state: &mut State,
    rider: &str,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> bool {
    let Some(u) = state.unit(rider).cloned() else {
        return false;
    };
    let Some(lifter) = u.aboard.clone() else {
        return false;
    };
    let lifts = state
        .unit(&lifter)
        .and_then(|v| card(state, v))
        .is_some_and(is_airlifter);
    if !lifts || !super::carry_vehicle::is_vehicle(state, rider) {
        return false;
    }
    let by = super::carry::destroyed_by(state, &lifter);
    let round = state.round;
    let assault = air_assault(state, rider);
    let faces: Vec<u8> = (0..u.health).map(|_| dice.d6(round)).collect();
    let damages = |f: &u8| match Symbol::of_face(*f) {
        Symbol::Army => true,
        Symbol::Target => !assault,
        Symbol::Shield => false,
    };
    let hits = faces.iter().filter(|f| damages(f)).count();
    let shown: Vec<String> = faces
        .iter()
        .map(|f| format!("{f} {}", Symbol::of_face(*f).name()))
        .collect();
    let on = if assault {
        "army (Air Assault)"
    } else {
        "army or target"
    };
    out.happenings.push(Happening {
        rolls: vec![Roll {
            purpose: format!("{rider} carried by {lifter}"),
            round,
            faces: faces.clone(),
        }],
        ..Happening::text(format!(
            "{lifter} is eliminated carrying {rider}: {} dice, one a damage point left ({}); {hits} damage on {on} ({RULE}, \"Damage to Carried Vehicles\")",
            faces.len(),
            shown.join(", ")
        ))
    });
    apply_named(state, rider, &vec![rider.to_string(); hits], &by, out);
    if state.unit(rider).is_none_or(|x| x.destroyed) {
        return true;
    }
    // Directly beneath the Airlifter, or the nearest square it may stand on (R747).
    let Some(at) =
        u.at.and_then(|w| super::carry::free_square(state, rider, w))
    else {
        destroy(state, rider, &by, out);
        return true;
    };
    for m in group(state, rider) {
        if let Some(x) = state.unit_mut(&m).filter(|x| !x.destroyed) {
            x.aboard = None;
            x.at = Some(at);
            x.activated = true;
        }
    }
    tell(
        out,
        format!("{rider} is placed on {at}, beneath the wreck of {lifter}, and counts as having activated this turn"),
        DtEvent::Entered {
            unit: rider.to_string(),
            to: at,
        },
        vec![],
    );
    suppression::suppress(
        state,
        rider,
        &format!("as the vehicle carried by {lifter} ({RULE}, \"Damage to Carried Vehicles\")"),
        out,
    );
    true
}
