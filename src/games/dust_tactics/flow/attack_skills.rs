//! Skills that change how an attack rolls: who shares them and while which model lives
//! (004 "Fighting Spirit", 000 "Spotter"; the Sniper's lines are in `named.rs`).

use super::*;

/// Fighting Spirit is shared with the squad its hero joins (004 "Fighting Spirit").
pub(super) fn shared_spirit(state: &State, lead: &str) -> bool {
    state
        .hero_of(lead)
        .and_then(|h| card(state, h))
        .map(|c| c.has(Skill::FightingSpirit))
        .unwrap_or(false)
}

/// The Spotter ability lasts while the spotter model lives (000 "Spotter"): the model whose id
/// or carried lines name "spotter"; a card naming none keeps it while the squad lives.
pub(super) fn spotter_alive(state: &State, id: &str) -> bool {
    let Some(u) = state.unit(id) else {
        return false;
    };
    let Some(c) = card(state, u) else {
        return false;
    };
    let spotters: Vec<&str> = c
        .models
        .iter()
        .filter(|m| m.id.contains("spotter") || m.carries.iter().any(|x| x.contains("spotter")))
        .map(|m| m.id.as_str())
        .collect();
    spotters.is_empty() || spotters.iter().any(|s| u.models.iter().any(|m| m == s))
}
