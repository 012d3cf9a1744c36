//! 002 "Command Vehicle" (page 103) under battlefront-2013 (issue 18, R653–R654): "a Command
//! Vehicle provides any Command Squad mounted in it with an additional Radio Operator. In
//! addition, Officers, Mechanics, and Medics mounted in Command Vehicle can re-roll failed
//! Command Squad Special Actions". The Special Actions are `command.rs`'s; a mounted command squad
//! takes them from the vehicle's square as any passenger acts from it (R653).

use crate::dust_tactics::skill::Skill;
use crate::dust_tactics::state::State;

/// 002's sentence, cited by the report of a re-roll.
pub const RULE: &str = "002 \"Command Vehicle\": \"Officers, Mechanics, and Medics mounted in Command Vehicle can re-roll failed Command Squad Special Actions\" (R654)";

/// The rules revision from which a Hero Officer joined to a Command Squad mounted in a Command
/// Vehicle has its additional Radio Operator (R811).
pub const HERO_RADIO_REVISION: u32 = 10;

/// The living Command Vehicle unit `id` is mounted in, under battlefront-2013.
pub fn mounted_in(state: &State, id: &str) -> Option<String> {
    if !state.rules().battlefront() {
        return None;
    }
    let v = state.unit(state.unit(id)?.aboard.as_deref()?)?;
    let cv = state
        .cards
        .get(&v.card)
        .is_some_and(|c| c.has(Skill::CommandVehicle));
    (cv && !v.destroyed).then(|| v.id.clone())
}
