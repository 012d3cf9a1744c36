//! An attack line no living model carries (R585): the card's carriers of a special weapon have
//! all fallen (000 "Sniper": a carrier shot "destroys both the carrier and the weapon. (Your
//! squad cannot pick up the Bazooka for instance)"). Rules revision 6 refuses such a line when the
//! order is read, so nobody (a player, the orders template, a bot) fires at nobody; games made
//! before keep accepting it and reporting "nobody left carries".

use super::*;

/// Refuses line `w` of `shooter` when no living model carries it (revision 6 and later).
pub(super) fn check_carried(state: &State, shooter: &str, w: &WeaponLine) -> Result<(), Refusal> {
    if !state.revised(6) {
        return Ok(());
    }
    let Some(su) = state.unit(shooter) else {
        return Ok(());
    };
    if carriers(state, su, w) > 0 {
        return Ok(());
    }
    refuse(
        format!(
            "nobody left in {shooter} carries {} (`{}`): its carriers have fallen",
            w.name, w.id
        ),
        RuleId::WeaponLines.with("a special weapon is lost with the miniature that carries it"),
        "fire another weapon line",
    )
}
