//! 003 "Close-Combat Weapons" (p.31) under battlefront-2013 (issue 18, third slice). The
//! exchange itself is the shared engine's (flow/steps.rs: ranged lines first and their
//! casualties removed, then range C lines, the defender's retaliation with a standard attack,
//! and both sides' casualties removed together), and 003 gives no save against a range C hit
//! (`attack::save_kind`). What differs and lives here: a Sustained Attack picks ranged or close
//! combat, never both (R274).

use super::super::flow::Refusal;
use super::super::model::WeaponRange;
use super::super::state::{LineOrder, State};

/// 003 "Sustained Attack and Close-Combat Weapons": "A unit performing a Sustained Attack
/// action must choose between using Ranged Weapons or Close-Combat Weapons." A sustained
/// declaration mixing range C and ranged lines is refused (battlefront-2013 only).
pub fn check_sustained(state: &State, sustained: bool, lines: &[LineOrder]) -> Result<(), Refusal> {
    if !state.rules().battlefront() || !sustained {
        return Ok(());
    }
    let range_of = |l: &LineOrder| {
        state
            .unit(&l.shooter)
            .and_then(|s| state.cards.get(&s.card))
            .and_then(|c| c.weapon(&l.weapon))
            .map(|w| w.range)
    };
    let (close, ranged): (Vec<&LineOrder>, Vec<&LineOrder>) = lines
        .iter()
        .partition(|l| range_of(l) == Some(WeaponRange::Close));
    let (Some(c), Some(r)) = (close.first(), ranged.first()) else {
        return Ok(());
    };
    Err(Refusal {
        reason: format!(
            "a Sustained Attack uses ranged weapons or close-combat weapons, not both: `{}` is range C and `{}` is not",
            c.weapon, r.weapon
        ),
        rule: "003 \"Sustained Attack and Close-Combat Weapons\": \"A unit performing a Sustained Attack action must choose between using Ranged Weapons or Close-Combat Weapons\" (R274)".to_string(),
        instead: format!(
            "declare only the range C lines (`sustained {} at …`) or only the ranged ones; `attack` (one action) may fire both, ranged first",
            c.weapon
        ),
    })
}
