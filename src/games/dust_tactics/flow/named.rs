//! Naming the model a line's hits go to (`attack <weapon> at unit/model`): 004's Sniper (R148)
//! and, under battlefront-2013, 002's Assassin (R730) and Sniper weapons (R675). Moved out of
//! `attack.rs` (size limit).

use super::*;

/// Whether `shooter`'s line `w` may name a model of `lead`; the refusal says why not. Under
/// battlefront-2013 only 002's Assassin and Sniper weapons do (004's Sniper is not a battlefront
/// skill, R281).
pub(super) fn check(
    state: &State,
    shooter: &str,
    w: &WeaponLine,
    lead: &str,
) -> Result<(), Refusal> {
    if state.rules().battlefront() {
        // 002 "Sniper Weapons" (R675): any unit's line with the trait `sniper`.
        if super::super::battlefront::skills002::assassin(state, shooter, w)
            || super::super::battlefront::weapons::sniper(w)
        {
            return Ok(());
        }
        return Err(Refusal {
            reason: format!(
                "{} of {shooter} cannot name a model: under battlefront-2013 only a Sniper weapon (a line with the trait `sniper`) or a hero with 002's Assassin, with a close-combat (range C) weapon, names the enemy soldier its hits go to",
                w.name
            ),
            rule: "002 \"Assassin\": \"A Hero with the Assassin Skill chooses which enemy Soldiers are assigned its Hits when using Close-combat Weapons\" (R730); 002 \"Sniper Weapons\": \"the player may specify a miniature in the Unit\" (R675)".into(),
            instead: format!("attack {} at {lead}", w.id),
        });
    }
    // R148 (rules revision 1); revision 0 shared the skill with the squad.
    let sniper = if state.revised(1) {
        sniper_line(state, shooter, w)
    } else {
        has_skill(state, shooter, Skill::Sniper)
    };
    if !sniper {
        return refuse(
            format!(
                "{} of {shooter} is not a sniper's weapon: only a Sniper names a model, and he does not share it with the rest of his squad",
                w.name
            ),
            RuleId::Sniper,
            format!("attack {} at {lead}", w.id),
        );
    }
    Ok(())
}

/// Whether `w`, fired by `shooter`, is a sniper's line (004 "Sniper": "A sniper does not share
/// this skill with the rest of his squad"; 000: "the squad's other attacks are resolved
/// normally"). The skill must be on the shooter's own card, so a hero joined to a sniper squad
/// does not get it; where the card names its sniper models (a model whose id or carried lines
/// name "sniper"), only a line that living snipers alone carry picks a model (ruling R148).
fn sniper_line(state: &State, shooter: &str, w: &WeaponLine) -> bool {
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
