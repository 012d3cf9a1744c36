//! 004 "Terrain": trees as an attack's target (ruling R149); kept apart from attack.rs.

use super::*;

/// Whether `sq` is a trees square (004 "Terrain": no cover element stands on trees).
pub(super) fn is_trees(state: &State, sq: Square) -> bool {
    state.scenario.board.terrain(sq) == model::Terrain::Trees
}

/// 004 "Terrain": "A unit with a flamethrower or artillery weapon can destroy a tree tile by
/// using an ATTACK action with the tree as its target. It cannot simultaneously target both the
/// tree and a unit sharing the same space." A flamethrower line or a range `A` (artillery) line
/// may; the line sprays nothing further (ruling R149).
pub(super) fn check_tree_attack(
    state: &State,
    w: &WeaponLine,
    sq: Square,
    fire: &[FireOrder],
) -> Result<(), Refusal> {
    let rule = RuleId::TreeTiles.with("a flamethrower or artillery weapon can destroy a tree tile");
    if !w.traits.contains(&WeaponTrait::Flamethrower) && w.range != WeaponRange::Artillery {
        return refuse(
            format!(
                "{} cannot destroy the trees on {sq}: it is neither a flamethrower nor an artillery weapon",
                w.name
            ),
            rule,
            "attack trees with a flamethrower or an artillery weapon",
        );
    }
    let standing: Vec<&str> = state
        .units
        .iter()
        .filter(|x| !x.destroyed && x.at == Some(sq))
        .map(|x| x.id.as_str())
        .collect();
    let both = fire.iter().any(|f| match &f.target {
        TargetRef::Unit(t) | TargetRef::Model { unit: t, .. } => {
            standing.iter().any(|s| s.eq_ignore_ascii_case(t))
        }
        TargetRef::Square(_) => false,
    });
    if both {
        return refuse(
            format!("one attack cannot target both the trees on {sq} and a unit standing there"),
            RuleId::TreeTiles.with("cannot simultaneously target both the tree and a unit"),
            "attack the trees or the unit, not both",
        );
    }
    if fire
        .iter()
        .any(|f| f.target == TargetRef::Square(sq) && !f.through.is_empty())
    {
        return refuse(
            format!("an attack on the trees on {sq} sprays no other square"),
            rule,
            format!("attack {} at {sq}", w.id),
        );
    }
    Ok(())
}

/// Rolls the 3 dice against trees: "on at least 1 [hit] remove the tree from the board" (004
/// "Terrain"); the square becomes open ground.
#[allow(clippy::too_many_arguments)]
pub(super) fn fire_at_trees(
    state: &mut State,
    shooter: &str,
    w: &WeaponLine,
    at: Square,
    from: Square,
    how: &str,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let round = state.round;
    let faces: Vec<u8> = (0..3).map(|_| dice.d6(round)).collect();
    let rules = state.rules();
    let hits = faces.iter().filter(|f| rules.is_hit(**f)).count() as u32;
    let fell = hits > 0;
    tell(
        out,
        format!(
            "{shooter} fires {} ({how}) at the trees on {at}: 3 dice, {hits} hit{}{}",
            w.name,
            if hits == 1 { "" } else { "s" },
            if fell {
                ", the trees are destroyed"
            } else {
                ", the trees stand"
            }
        ),
        DtEvent::Fired {
            unit: shooter.to_string(),
            weapon: w.name.clone(),
            target: at.to_string(),
            from,
            to: at,
            hits,
        },
        vec![Roll {
            purpose: format!("attack {} at the trees on {at}", w.id),
            round,
            faces,
        }],
    );
    if fell {
        state.scenario.board.set_terrain(at, model::Terrain::Open);
    }
}
