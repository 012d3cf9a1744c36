//! Skills that change how an attack rolls: who shares them and while which model lives
//! (004 "Fighting Spirit", 000 "Spotter", 004 "Sniper").

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

/// Whether `w`, fired by `shooter`, is a sniper's line (004 "Sniper": "A sniper does not share
/// this skill with the rest of his squad"; 000: "the squad's other attacks are resolved
/// normally"). The skill must be on the shooter's own card, so a hero joined to a sniper squad
/// does not get it; where the card names its sniper models (a model whose id or carried lines
/// name "sniper"), only a line that living snipers alone carry picks a model (ruling R148).
pub(super) fn sniper_line(state: &State, shooter: &str, w: &WeaponLine) -> bool {
    let Some(u) = state.unit(shooter) else {
        return false;
    };
    let Some(c) = card(state, u) else {
        return false;
    };
    if !c.has(Skill::Sniper) {
        return false;
    }
    let snipers: Vec<&model::ModelSpec> = c
        .models
        .iter()
        .filter(|m| m.id.contains("sniper") || m.carries.iter().any(|x| x.contains("sniper")))
        .collect();
    if snipers.is_empty() {
        return true;
    }
    // The living models firing the line: all of them must be snipers.
    let firing: Vec<&model::ModelSpec> = c
        .models
        .iter()
        .filter(|m| {
            u.models.iter().any(|x| x == &m.id)
                && m.carries.iter().any(|x| x.eq_ignore_ascii_case(&w.id))
        })
        .collect();
    !firing.is_empty() && firing.iter().all(|m| snipers.iter().any(|s| s.id == m.id))
}
