//! 004 "Structures" in the state machine (issue 12, rulings R500–R509): the entrance spaces an
//! attack into or out of a structure needs, the structure's cover against artillery, and a
//! bunker destroyed with the units inside it (for 004 "Engineer Vehicle").

use super::*;
use crate::dust_tactics::structures::{self, EntranceKind, StructureKind};

/// 004 "Cover": "A unit inside a structure attacking an enemy unit outside must be on a space
/// that shows an entrance in the direction of the attack" and "A unit outside a structure
/// attacking an enemy unit inside must be on a space that shows an entrance"; 004 "Aircraft":
/// "Aircraft can only target units inside a structure if the unit is on a space that shows an
/// exit" (R505, R506). Only unit targets: a cover element is never inside (R500).
pub(super) fn check_fire(
    state: &State,
    shooter: &str,
    (from, height): crate::dust_tactics::floors::Spot,
    target: &Target,
    to: Square,
) -> Result<(), Refusal> {
    let (Target::Unit { unit } | Target::Model { unit, .. }) = target else {
        return Ok(());
    };
    // issue 18: 003's openings under battlefront-2013 (R615).
    if state.rules().battlefront() {
        return match building_block(state, &occupancy(state, &[]), shooter, from, unit, to) {
            Some(why) => Err(Refusal {
                reason: format!("{shooter} cannot attack {unit}: {why}"),
                rule: crate::dust_tactics::battlefront::buildings::CITE.to_string(),
                instead: "attack from or at the square an opening is on, or move first".into(),
            }),
            None => Ok(()),
        };
    }
    let th = super::floors_fire::height_of(state, unit);
    // 1 floor apart in one structure: through the floor or the ceiling, no entrance (R515).
    if super::floors_fire::through_ceiling(state, (from, height), (to, th)) {
        return Ok(());
    }
    // A unit on a roof is outside, above the structure, as an aircraft over it (R515, R503).
    let roof = Some(crate::dust_tactics::floors::Height::Roof);
    let air = |id: &str| super::aircraft::is_aircraft(state, id);
    let (s_out, t_out) = (air(shooter) || height == roof, air(unit) || th == roof);
    match structures::fire_block(&state.scenario.board, from, s_out, to, t_out) {
        Some((why, rule)) => refuse(
            format!("{shooter} cannot attack {unit}: {why}"),
            rule,
            "attack from or at a space that shows an entrance, in line with its opening, or move first",
        ),
        None => Ok(()),
    }
}

/// 003's building rule between the units `shooter` on `from` and `target` on `to` (R615).
pub(super) fn building_block(
    state: &State,
    occ: &Occupancy,
    shooter: &str,
    from: Square,
    target: &str,
    to: Square,
) -> Option<String> {
    let sighter = |id: &str, square: Square| Sighter {
        square,
        unit_type: state
            .unit(id)
            .and_then(|u| card(state, u))
            .map_or(UnitType::Squad, |c| c.unit_type),
    };
    crate::dust_tactics::battlefront::buildings::fire_block(
        &state.scenario.board,
        occ,
        sighter(shooter, from),
        sighter(target, to),
    )
}

/// 004 "Explosives Weapons": "When an explosives weapon is used to attack an anti-tank trap or
/// the back door of a bunker, the unit may reroll any (+) results once". No seed gives a back door
/// armour, health or an effect when broken (R511), so it is no target: a square by a bunker's back
/// door that holds no cover element is refused saying so, instead of "no cover element".
pub(super) fn back_door_target(state: &State, sq: Square) -> Result<(), Refusal> {
    let board = &state.scenario.board;
    if board.cover_at(sq).is_some() {
        return Ok(());
    }
    let door = board.structures.iter().find_map(|s| {
        s.entrances
            .iter()
            .find(|e| e.kind == EntranceKind::BackDoor && (e.at == sq || e.to == sq))
            .map(|e| (s, e))
    });
    let Some((s, e)) = door else {
        return Ok(());
    };
    refuse(
        format!(
            "the back door of the bunker {} ({}|{}) is not a target: no rulebook gives a bunker's back door armour, health or an effect when it is broken, so it cannot be attacked and the explosives re-roll against it never arises",
            s.id, e.at, e.to
        ),
        RuleId::Explosives,
        format!(
            "aim at a unit (one inside the bunker is attacked through its entrances), a cover element or trees; an engineer vehicle beside the bunker destroys it: `skill engineer-vehicle at {}`",
            s.id
        ),
    )
}

/// 004 "Artillery Weapons": "They ignore all types of cover, except when attacking a unit that
/// is inside a structure" (R508). The line a target inside a structure takes: the artillery
/// line with the cover save its structure gives restored (the combat rule skips cover saves for
/// range A only), so the cover the report names is saved against as for any other weapon.
/// A unit on a roof is outside its structure (004 "Cover"; R515): artillery ignores its cover.
pub fn artillery_line(
    state: &State,
    w: &WeaponLine,
    (target_at, height): crate::dust_tactics::floors::Spot,
) -> WeaponLine {
    let roof = height == Some(crate::dust_tactics::floors::Height::Roof);
    if w.range != WeaponRange::Artillery
        || roof
        || structures::inside(&state.scenario.board, target_at, false).is_none()
    {
        return w.clone();
    }
    WeaponLine {
        range: WeaponRange::Unlimited,
        ..w.clone()
    }
}

/// Destroys the bunker `id` and every unit inside it, as 004 "Engineer Vehicle" says: "A unit
/// with this skill that begins its activation in a space adjacent to a bunker may spend its full
/// activation to destroy it. This also destroys any units inside of the bunker." The bunker's
/// walls come down and its squares stay as their terrain is (R509). Returns the units destroyed;
/// `Err` names why nothing happened (no such bunker). The order `skill engineer-vehicle at
/// <bunker>` (R586) calls it, credited to `by`.
pub fn destroy_bunker(
    state: &mut State,
    id: &str,
    by: &str,
    out: &mut Outcome,
) -> Result<Vec<String>, String> {
    let Some(index) = state
        .scenario
        .board
        .structures
        .iter()
        .position(|s| s.id == id && s.kind == StructureKind::Bunker)
    else {
        return Err(format!("there is no bunker `{id}` on the board"));
    };
    let bunker = state.scenario.board.structures.remove(index);
    for (a, b) in structures::outline(&state.scenario.board, &bunker) {
        state.scenario.board.remove_wall(a, b);
    }
    let inside: Vec<String> = state
        .units
        .iter()
        .filter(|u| !u.destroyed && u.at.is_some_and(|at| bunker.contains(at)))
        .filter(|u| !super::aircraft::is_aircraft(state, &u.id))
        .map(|u| u.id.clone())
        .collect();
    say(
        out,
        format!("the bunker {id} ({}) is destroyed", bunker.extent()),
    );
    for u in &inside {
        destroy(state, u, by, out);
    }
    Ok(inside)
}

/// 004 "Moving": a vehicle placed at the start inside a hut or a structure without a large
/// entrance could never have come in; the game is not created (R501).
pub(super) fn check_setup(state: &State) -> Result<(), SetupError> {
    if state.scenario.board.structures.is_empty() {
        return Ok(());
    }
    for u in &state.units {
        let Some(at) = u.at else { continue };
        let aircraft = super::aircraft::is_aircraft(state, &u.id);
        let soldier = matches!(unit_type(state, &u.id), UnitType::Squad | UnitType::Hero);
        if let (Some(h), true) = (u.height, aircraft || !soldier) {
            return Err(SetupError(format!(
                "unit {} cannot start on {}: only soldiers and heroes go above the ground floor of a structure ({}; R514, R634); start it on the ground floor, at = \"{at}\"",
                u.id,
                crate::dust_tactics::floors::place(at, Some(h)),
                RuleId::Structures.with("Vehicles can enter structures through large entrances"),
            )));
        }
        if aircraft {
            continue;
        }
        let mover = Mover {
            unit: model::UnitId(u.id.clone()),
            side: u.side.clone(),
            unit_type: unit_type(state, &u.id),
            jump: false,
            agile: false,
            tracked: false,
            amphibious: false,
            dozer: false,
            large: super::large::is_large(state, &u.id),
        };
        if let Some(e) = structures::stand_block(&state.scenario.board, &mover, at) {
            return Err(SetupError(format!(
                "unit {} cannot start on {at}: {} ({}); place it outside",
                u.id, e.reason, e.rule
            )));
        }
    }
    Ok(())
}

impl Planner<'_> {
    /// `skill engineer-vehicle at <bunker>`: 004 "Engineer Vehicle": "A unit with this skill that
    /// begins its activation in a space adjacent to a bunker may spend its full activation to
    /// destroy it. This also destroys any units inside of the bunker." The line is the whole
    /// activation (both actions), and the vehicle must stand beside the bunker when it begins
    /// (R586).
    pub(super) fn destroy_bunker_order(&mut self, bunker: &str) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let rule = RuleId::EngineerVehicle.with(
            "begins its activation in a space adjacent to a bunker may spend its full activation to destroy it",
        );
        let bunkers: Vec<&structures::Structure> = state
            .scenario
            .board
            .structures
            .iter()
            .filter(|s| s.kind == StructureKind::Bunker)
            .collect();
        let Some(b) = bunkers.iter().find(|s| s.id.eq_ignore_ascii_case(bunker)) else {
            let names: Vec<&str> = bunkers.iter().map(|s| s.id.as_str()).collect();
            return refuse(
                format!("there is no bunker `{bunker}` on the board"),
                rule,
                if names.is_empty() {
                    "`skill engineer-vehicle` alone clears a minefield; no bunker stands"
                        .to_string()
                } else {
                    format!("skill engineer-vehicle at {}", names.join(" | "))
                },
            );
        };
        if !self.kinds.is_empty() {
            return refuse(
                "destroying a bunker takes the full activation: it is the activation's only line",
                rule,
                format!(
                    "activate {}, then only `skill engineer-vehicle at {}`",
                    u.id, b.id
                ),
            );
        }
        let beside = self
            .pos
            .is_some_and(|at| b.squares.iter().any(|sq| sq.adjacent(at) && *sq != at));
        if !beside {
            return refuse(
                format!(
                    "{} does not begin its activation in a space adjacent to the bunker {} ({})",
                    u.id,
                    b.id,
                    b.extent()
                ),
                rule,
                "move beside the bunker this round; destroy it in the next activation",
            );
        }
        self.steps.push(Step::DestroyBunker {
            bunker: b.id.clone(),
        });
        self.texts.push(format!(
            "skill engineer-vehicle at {}: destroy the bunker (the full activation)",
            b.id
        ));
        self.push_kind(Kind::Skill);
        self.push_kind(Kind::Skill);
        Ok(())
    }
}
