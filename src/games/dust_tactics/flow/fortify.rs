//! 002 "Barbed Wire Entanglements", "Minefields" and the infantry's Engineering Special Action
//! under battlefront-2013 (issue 18, R724–R727). The squares are the scenario's
//! (`battlefront::fortifications`); a move rolls for the wire before it is made and is attacked
//! by the mines after; `skill engineering at <square>` cuts or clears one next to the unit.

use super::super::battlefront::dice::Symbol;
use super::super::battlefront::fortifications::{is_minefield, is_wire, ENGINEERING, WIRE};
use super::*;

/// Who a minefield's destruction is recorded against (victory points go to the other sides, as
/// for every destruction).
const MINEFIELD: &str = "minefield";
const WIRE_CITE: &str = "002 \"Barbed Wire Entanglements\"";
const MINES_CITE: &str = "002 \"Minefields\"";

/// Whether `lead` is infantry (a squad or a hero): 002's wire and Engineering are theirs.
fn infantry(state: &State, lead: &str) -> bool {
    unit_type(state, lead) != UnitType::Vehicle
}

/// 002 "Barbed Wire Entanglements": "An Infantry Unit rolls a die when attempting to move into,
/// through, or out of a Barbed Wire Entanglement. On a score of [army], the Unit is free to
/// complete its movement. On a score of [target] or [shield], the Unit is tangled up and ceases
/// moving until the end of its Activation." One die a move that starts on or enters a wire
/// square; tangled, the unit stays on its wire square, or stops on the first one it enters, and
/// its later moves of the activation are not made (R724). Returns the squares it does enter.
pub(super) fn wire(
    state: &mut State,
    act: &mut Activation,
    path: &[Square],
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> Vec<Square> {
    let lead = act.unit.clone();
    let from = state.unit(&lead).and_then(|u| u.at);
    let first = path.iter().position(|sq| is_wire(state, *sq));
    let leaving = from.is_some_and(|sq| is_wire(state, sq));
    if !infantry(state, &lead) || (first.is_none() && !leaving) {
        return path.to_vec();
    }
    let round = state.round;
    let face = dice.d6(round);
    let at = if leaving {
        from
    } else {
        first.map(|i| path[i])
    };
    let at = at.map(|s| s.to_string()).unwrap_or_default();
    let free = Symbol::of_face(face) == Symbol::Army;
    let text = if free {
        format!(
            "{lead} crosses the barbed wire on {at}: army, free to complete its move ({WIRE_CITE})"
        )
    } else {
        format!("{lead} is tangled up in the barbed wire on {at}: it ceases moving until the end of its activation ({WIRE_CITE})")
    };
    out.happenings.push(Happening {
        text,
        rolls: vec![Roll {
            purpose: format!("{WIRE} on {at}: {lead}"),
            round,
            faces: vec![face],
        }],
        ..Happening::default()
    });
    if free {
        return path.to_vec();
    }
    act.steps.retain(|s| !matches!(s, Step::Move { .. }));
    match (leaving, first) {
        (false, Some(i)) => path[..=i].to_vec(),
        _ => vec![],
    }
}

/// 002 "Minefields": "When a Unit moves into, through, or out of a Minefield, the opposing
/// player attacks it with a rating of [one die per model]/2." One attack a move that starts on
/// or enters a minefield square (R725), after the move. `from` is every square the unit stood
/// on before it (a Huge or two-square Large vehicle's all): since rules revision 10 each square
/// its body takes on the way counts too, not only the named one (R686).
pub(super) fn mines(
    state: &mut State,
    lead: &str,
    from: &[Square],
    path: &[Square],
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let body = |sq: Square| match state.revised(10) {
        true => super::large::squares_at(state, lead, sq),
        false => vec![sq],
    };
    let from = match state.revised(10) {
        true => from,
        false => &from[..from.len().min(1)],
    };
    let crossed = (from.iter().copied())
        .chain(path.iter().flat_map(|sq| body(*sq)))
        .find(|sq| is_minefield(state, *sq));
    if let Some(sq) = crossed {
        mine_attack(state, lead, sq, dice, out);
    }
}

/// The minefield's attack on `lead` (R725): 003's "[one die per model] / N" rating read for the
/// lost glyph, so one die for each miniature of the unit (its soldiers, its joined hero); each
/// army is a hit on that miniature; an infantry miniature makes its Infantry Save (army, or army
/// or target for Steel Guard and Zombies), a vehicle has none in the open; each hit not saved
/// does 2 damage.
fn mine_attack(
    state: &mut State,
    lead: &str,
    sq: Square,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    use super::super::battlefront::dice::{RollKind, HARDENED_SAVE};
    let minis = super::mines::miniatures(state, lead);
    if minis.is_empty() {
        return;
    }
    let round = state.round;
    let to_hit: Vec<u8> = minis.iter().map(|_| dice.d6(round)).collect();
    let hit: Vec<&(String, String)> = minis
        .iter()
        .zip(&to_hit)
        .filter(|(_, f)| RollKind::ToHit.face_succeeds(**f))
        .map(|(m, _)| m)
        .collect();
    let mut rolls = vec![Roll {
        purpose: format!("attack by the minefield on {sq}: {lead}"),
        round,
        faces: to_hit,
    }];
    let mut names = vec![];
    let mut lost = vec![];
    for (name, label) in hit {
        let id = if state.unit(name).is_some() {
            name.as_str()
        } else {
            lead
        };
        let saved = if unit_type(state, id) == UnitType::Vehicle {
            false
        } else {
            let hardened = super::super::battlefront::skills002::hardened(state, id);
            let (kind, purpose) = if hardened {
                (RollKind::HardenedInfantrySave, HARDENED_SAVE)
            } else {
                (RollKind::InfantrySave, "infantry save")
            };
            let f = dice.d6(round);
            rolls.push(Roll {
                purpose: format!("{purpose} vs minefield: {label}"),
                round,
                faces: vec![f],
            });
            kind.face_succeeds(f)
        };
        if !saved {
            lost.push(label.clone());
            names.extend([name.clone(), name.clone()]);
        }
    }
    out.happenings.push(Happening {
        text: format!(
            "the minefield on {sq} attacks {lead} ({MINES_CITE}): a die for each of {} miniature{}, 2 damage a hit; {}",
            minis.len(),
            if minis.len() == 1 { "" } else { "s" },
            if lost.is_empty() {
                "no damage".to_string()
            } else {
                format!("2 damage to {}", lost.join(", "))
            }
        ),
        rolls,
        ..Happening::default()
    });
    apply_named(state, lead, &names, MINEFIELD, out);
}

impl Planner<'_> {
    /// `skill engineering at <square>` (`None`: the line names another skill). 002: "An
    /// Infantry Unit can attempt to cut a gap through an adjacent Barbed Wire Entanglement [or
    /// clear a gap through an adjacent Minefield] by taking an Engineering Special Action" (R726).
    pub(super) fn engineering(
        &mut self,
        name: &str,
        target: Option<&TargetRef>,
    ) -> Option<Result<(), Refusal>> {
        if !name.eq_ignore_ascii_case(ENGINEERING) || !self.rules.battlefront() {
            return None;
        }
        let (state, u) = (self.state, self.u);
        let refuse = |reason: String, instead: String| {
            Err(Refusal {
                reason,
                rule: format!("{WIRE_CITE}, {MINES_CITE}: \"An Infantry Unit can attempt to cut a gap through an adjacent Barbed Wire Entanglement by taking an Engineering Special Action\" (R726)"),
                instead,
            })
        };
        let fortified: Vec<String> = state
            .scenario
            .fortifications
            .iter()
            .flat_map(|f| f.barbed_wire.iter().chain(&f.minefields))
            .map(|s| s.to_string())
            .collect();
        let usage = if fortified.is_empty() {
            "another action: no barbed wire or minefield is left on the board".to_string()
        } else {
            format!(
                "skill engineering at <a barbed-wire or minefield square next to the unit> ({})",
                fortified.join(" ")
            )
        };
        if !infantry(state, &u.id) {
            // 002 "Engineering Vehicles" (R787).
            return Some(self.vehicle_engineering(target));
        }
        let Some(TargetRef::Square(at)) = target else {
            return Some(refuse(
                "`skill engineering` names the square of the wire or minefield".into(),
                usage,
            ));
        };
        let at = *at;
        if !is_wire(state, at) && !is_minefield(state, at) {
            return Some(refuse(
                format!("{at} is no barbed wire or minefield"),
                usage,
            ));
        }
        if !self.pos.is_some_and(|p| p == at || p.adjacent(at)) {
            return Some(refuse(
                format!("{at} is not next to {}", u.id),
                format!("move next to {at} first, then skill engineering at {at}"),
            ));
        }
        if self.steps.contains(&Step::Engineering { at }) {
            return Some(refuse(
                format!("{at} is already worked on by this activation"),
                "another action, e.g. `nothing`".into(),
            ));
        }
        self.steps.push(Step::Engineering { at });
        self.texts.push(format!("skill engineering at {at}"));
        self.push_kind(Kind::Skill);
        Some(Ok(()))
    }
}

/// Runs a planned Engineering Special Action on `at` (R726): one die; army cuts the wire or
/// clears the minefield (the square is removed); on a minefield any other roll means "the Unit
/// is attacked as if they had moved through the Minefield and receives a Suppression token" (the
/// token from rules revision 8, R702). Nothing if the unit no longer stands next to it (the wire stopped it).
pub(super) fn exec_engineering(
    state: &mut State,
    lead: &str,
    at: Square,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    if !infantry(state, lead) {
        return super::engineering_vehicle::exec(state, lead, at, dice, out); // R787
    }
    let Some(here) = state.unit(lead).and_then(|u| u.at) else {
        return;
    };
    let wire = is_wire(state, at);
    if !wire && !is_minefield(state, at) {
        say(
            out,
            format!("{lead}'s engineering at {at}: nothing is left there"),
        );
        return;
    }
    if here != at && !here.adjacent(at) {
        say(
            out,
            format!("{lead} is no longer next to {at}: its engineering action is not made"),
        );
        return;
    }
    let round = state.round;
    let face = dice.d6(round);
    let cleared = Symbol::of_face(face) == Symbol::Army;
    let what = if wire { "barbed wire" } else { "minefield" };
    let text = match (cleared, wire) {
        (true, true) => format!("{lead} cuts a gap: the barbed wire on {at} is removed ({WIRE_CITE})"),
        (true, false) => format!("{lead} clears a gap: the minefield on {at} is removed ({MINES_CITE})"),
        (false, true) => format!("{lead} fails to cut the barbed wire on {at}"),
        (false, false) => format!("{lead} fails to clear the minefield on {at}: it is attacked as if it had moved through it ({MINES_CITE})"),
    };
    out.happenings.push(Happening {
        text,
        rolls: vec![Roll {
            purpose: format!("{ENGINEERING} on the {what} on {at}: {lead}"),
            round,
            faces: vec![face],
        }],
        ..Happening::default()
    });
    if cleared {
        if let Some(f) = state.scenario.fortifications.as_mut() {
            f.barbed_wire.retain(|s| *s != at);
            f.minefields.retain(|s| *s != at);
        }
    } else if !wire {
        mine_attack(state, lead, at, dice, out);
        crate::dust_tactics::battlefront::suppression::suppress(
            state,
            lead,
            "for its failed clearing (002 \"Minefields\")",
            out,
        );
    }
}
