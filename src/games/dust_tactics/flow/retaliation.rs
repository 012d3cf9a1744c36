//! 004 "Close combat": retaliation.

use super::*;

/// The range C lines with which `unit` (alive, adjacent to `attacker`) can retaliate: lines that
/// can damage the attacker and still have ammo (004 "Close combat", R56).
pub(super) fn retaliation_lines(state: &State, unit: &str, attacker: &str) -> Vec<LineOrder> {
    // A Tank Riders rider fights from its vehicle's square (R473).
    let at = |id: &str| {
        state
            .unit(id)
            .filter(|x| !x.destroyed)
            .and_then(|_| super::riders::square_of(state, id))
    };
    let (d_at, a_at) = (at(unit), at(attacker));
    let (Some(d_at), Some(a_at)) = (d_at, a_at) else {
        return vec![];
    };
    // battlefront-2013: a Stunned unit does not fight back (002, R267).
    // A large vehicle fights and is fought from any of its 4 squares (R569).
    // Units at different heights are never adjacent (004 "Structures"; R517).
    let apart = super::floors_fire::height_of(state, unit)
        != super::floors_fire::height_of(state, attacker);
    if apart
        || !super::large::touching(state, unit, d_at, attacker, a_at)
        || super::super::battlefront::stunned::cannot_fight(state, unit)
        // An exhausted unit "cannot fight back if attacked in close combat" (R477).
        || super::stimulant::exhausted(state, unit)
    {
        return vec![];
    }
    let Some(armour) = armour_of(state, attacker) else {
        return vec![];
    };
    let lines = weapons_of_group(state, unit)
        .into_iter()
        .filter(|(shooter, w)| {
            w.range == WeaponRange::Close
                && (alive_on_board(state, shooter)
                    || super::riders::riding_square(state, shooter).is_some())
                && w.against(armour) != Fire::No
                && (w.ammo.is_none()
                    || state
                        .unit(shooter)
                        .and_then(|s| s.ammo.get(&w.id))
                        .copied()
                        .unwrap_or(0)
                        > 0)
        })
        .map(|(shooter, w)| LineOrder {
            shooter,
            weapon: w.id,
            target: Target::Unit {
                unit: attacker.to_string(),
            },
            through: vec![],
            count: None,
            soldiers: None,
        })
        .collect();
    // battlefront-2013, 002 "Crew": the vehicle's lines or its crew's, never both (R810).
    super::super::battlefront::equipment::crew_retaliation(state, unit, lines)
}

pub(super) fn cmd_retaliate(
    state: &mut State,
    side: &str,
    named: Option<&str>,
    yes: bool,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> Result<String, Refusal> {
    let rule = RuleId::CloseCombat.with("the defender may attack back with its range C weapons");
    let waiting = match &state.phase {
        Phase::Activation(a) => match &a.wait {
            Some(Wait::Retaliate { side: ws, unit, .. }) => Some((ws.clone(), unit.clone())),
            _ => None,
        },
        _ => None,
    };
    let Some((ws, unit)) = waiting else {
        return refuse(
            "no close-combat retaliation is awaited",
            rule,
            "see the awaited decisions in the last report",
        );
    };
    if ws != side {
        return refuse(
            format!("{ws} decides whether {unit} retaliates, not {side}"),
            rule,
            "wait for the next report",
        );
    }
    if let Some(n) = named.filter(|n| !n.eq_ignore_ascii_case(&unit)) {
        return refuse(
            format!("the retaliation awaited is {unit}'s, not {n}'s"),
            rule,
            format!("retaliate {unit} yes"),
        );
    }
    let Some(mut act) = take_activation(state) else {
        return refuse("no close-combat retaliation is awaited", rule, "wait");
    };
    answer_retaliate(state, &mut act, yes, dice, out);
    state.phase = Phase::Activation(act);
    Ok(format!(
        "retaliate {unit} {}",
        if yes { "yes" } else { "no" }
    ))
}

/// Closes a retaliation decision: the defender's range C lines fire at the attacker, damage
/// pending until the Remove step that follows the close combat (simultaneous removal).
pub(super) fn answer_retaliate(
    state: &mut State,
    act: &mut Activation,
    yes: bool,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let Some(Wait::Retaliate { unit, attacker, .. }) = act.wait.take() else {
        return;
    };
    if !yes {
        say(out, format!("{unit} does not retaliate"));
        return;
    }
    for l in retaliation_lines(state, &unit, &attacker) {
        let name = find_weapon(state, &l.shooter, &l.weapon)
            .map(|(_, w)| w.name)
            .unwrap_or_else(|| l.weapon.clone());
        say(
            out,
            format!("{unit} retaliates in close combat with {name}"),
        );
        fire_line(state, act, &l, false, false, dice, out);
    }
}
