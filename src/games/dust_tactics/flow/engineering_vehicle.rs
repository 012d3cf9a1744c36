//! 002 "Engineering Vehicles", "Dozer Blades" and the equipment "Dozer Blade" under
//! battlefront-2013 (issue 18, R785–R788): a vehicle's `skill dozer` and `skill engineering at
//! <square>`, planned and run; 002 "Chainsaws and Claws": a Cutting or Grapple weapon's wire
//! (R809, R812). The lost symbol of every roll is read as army (R724, R726).

use super::super::battlefront::bunkers::shell_at;
use super::super::battlefront::dice::Symbol;
use super::super::battlefront::engineering::{
    self as eng, CHAINSAWS_CITE, CITE, DOZER, DOZER_CITE,
};
use super::super::battlefront::fortifications::{is_minefield, is_trench, is_wire, ENGINEERING};
use super::*;

const DOZER_BLADES: &str = "002 \"Dozer Blades\"";

/// The bunker `at` is inside, by its two squares, if any.
fn bunker_at(state: &State, at: Square) -> Option<[Square; 2]> {
    shell_at(state, at)
        .filter(|s| s.facing.is_some())
        .map(|s| s.squares)
}

/// Whether `from` is on or next to `at`, or next to the bunker `at` is inside.
fn next_to(state: &State, from: Square, at: Square) -> bool {
    match bunker_at(state, at) {
        Some(b) => b.iter().any(|s| s.adjacent(from)),
        None => from == at || from.adjacent(at),
    }
}

impl Planner<'_> {
    /// `skill dozer` (`None`: the line names another skill). 002 "Dozer Blade": "A Vehicle
    /// equipped with a Dozer Blade can perform a Dozer Special Action to gain Cover until it
    /// performs a Move or March Move Action" (R786).
    pub(super) fn dozer_action(&mut self, name: &str) -> Option<Result<(), Refusal>> {
        if !name.eq_ignore_ascii_case(DOZER) || !self.rules.battlefront() {
            return None;
        }
        if !eng::dozer(self.state, &self.u.id) {
            return Some(Err(Refusal {
                reason: format!("{} is not a vehicle with a dozer blade", self.u.id),
                rule: format!("{DOZER_CITE} (R786)"),
                instead: "remove `skill dozer`".into(),
            }));
        }
        self.steps.push(Step::Dozer);
        self.texts.push(format!("skill {DOZER}"));
        self.push_kind(Kind::Skill);
        Some(Ok(()))
    }

    /// A vehicle's `skill engineering at <square>` (R787, R788): a vehicle with a dozer blade
    /// clears a minefield, fills a trench, or with two lines one after the other buries a bunker,
    /// next to it; one with a Cutting or Grapple weapon cuts barbed wire next to it (R809).
    pub(super) fn vehicle_engineering(
        &mut self,
        target: Option<&TargetRef>,
    ) -> Result<(), Refusal> {
        let (state, id) = (self.state, self.u.id.clone());
        let refuse = |reason: String, rule: &str, instead: &str| {
            Err(Refusal {
                reason,
                rule: format!("{rule} (R787)"),
                instead: instead.to_string(),
            })
        };
        if !eng::engineer(state, &id) {
            return refuse(
                format!("{id} is a vehicle without a dozer blade or engineer vehicle equipment"),
                &format!("{CITE}: \"Some vehicle are specifically equipped to remove or destroy fortifications\"; 002 \"Engineer Vehicle\", \"Dozer Blade\""),
                "another action",
            );
        }
        let saws = eng::wire_dice(state, &id);
        let usage = if saws > 0 {
            "skill engineering at <a barbed wire, minefield, trench or bunker square next to the vehicle>"
        } else {
            "skill engineering at <a minefield, trench or bunker square next to the vehicle>"
        };
        let Some(TargetRef::Square(at)) = target else {
            return refuse(
                "`skill engineering` names the square of the fortification".into(),
                DOZER_BLADES,
                usage,
            );
        };
        let at = *at;
        let wire = is_wire(state, at);
        if wire && saws == 0 {
            return Err(Refusal {
                reason: format!("{id} cannot cut the barbed wire on {at}: it has no Cutting or Grapple weapon (002's chainsaws and claws cut wire)"),
                rule: format!("{CHAINSAWS_CITE} (R788, R809)"),
                instead: "another action".into(),
            });
        }
        let bunker = bunker_at(state, at);
        if !wire && bunker.is_none() && !is_minefield(state, at) && !is_trench(state, at) {
            return refuse(
                format!("{at} is no minefield, trench or bunker"),
                DOZER_BLADES,
                usage,
            );
        }
        if !wire && !eng::dozer(state, &id) {
            return refuse(
                format!("{id} has no dozer blade: an engineer vehicle fills trenches, clears minefields and buries bunkers with one"),
                &format!("{DOZER_BLADES}: \"An Engineer Vehicle equipped with a Dozer Blade can attempt to ...\""),
                "another action",
            );
        }
        if !self.pos.is_some_and(|p| next_to(state, p, at)) {
            return refuse(
                format!("{at} is not next to {id}"),
                DOZER_BLADES,
                &format!("move next to {at} first, then skill engineering at {at}"),
            );
        }
        let step = match (bunker, self.steps.last()) {
            // The second of two actions one after the other at the same bunker rolls.
            (Some(b), Some(Step::Engineering { at: first })) if b.contains(first) => {
                Step::Bury { at }
            }
            (Some(_), _) => Step::Engineering { at },
            (None, _) if self.steps.contains(&Step::Engineering { at }) => {
                return refuse(
                    format!("{at} is already worked on by this activation"),
                    DOZER_BLADES,
                    "another action, e.g. `nothing`",
                );
            }
            (None, _) => Step::Engineering { at },
        };
        self.steps.push(step);
        self.texts.push(format!("skill {ENGINEERING} at {at}"));
        self.push_kind(Kind::Skill);
        Ok(())
    }
}

/// Runs the Dozer Special Action (R786): the vehicle is in Cover until it moves.
pub(super) fn exec_dozer(state: &mut State, lead: &str, out: &mut Outcome) {
    if let Some(u) = state.unit_mut(lead) {
        u.dozed = true;
    }
    say(
        out,
        format!("{lead} digs in with its dozer blade: in Cover until it moves ({DOZER_CITE})"),
    );
}

/// `n` dice for `lead`'s engineering at `at` (`what` names the fortification): army succeeds.
fn roll_n(
    state: &State,
    lead: &str,
    at: Square,
    what: &str,
    n: usize,
    dice: &mut dyn DiceSource,
) -> Roll {
    let round = state.round;
    Roll {
        purpose: format!("{ENGINEERING} on the {what} on {at}: {lead}"),
        round,
        faces: (0..n).map(|_| dice.d6(round)).collect(),
    }
}

/// One die for `lead`'s engineering at `at`.
fn roll(state: &State, lead: &str, at: Square, what: &str, dice: &mut dyn DiceSource) -> Roll {
    roll_n(state, lead, at, what, 1, dice)
}

/// 002 "Chainsaws and Claws" (R809): one die, two with a pair of Cutting or Grapple weapons; an
/// army on any of them cuts a gap and the wire is removed.
fn cut_wire(
    state: &mut State,
    lead: &str,
    at: Square,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let n = eng::wire_dice(state, lead).max(1);
    let r = roll_n(state, lead, at, "barbed wire", n, dice);
    let cut = r.faces.iter().any(|f| Symbol::of_face(*f) == Symbol::Army);
    let dice_said = if n == 2 {
        "two dice, a pair of Cutting or Grapple weapons"
    } else {
        "one die"
    };
    out.happenings.push(Happening {
        text: if cut {
            format!("{lead} cuts a gap ({dice_said}): the barbed wire on {at} is removed (002 \"Chainsaws and Claws\")")
        } else {
            format!("{lead} fails to cut the barbed wire on {at} ({dice_said}, no army)")
        },
        rolls: vec![r],
        ..Happening::default()
    });
    if let Some(f) = state.scenario.fortifications.as_mut().filter(|_| cut) {
        f.barbed_wire.retain(|s| *s != at);
    }
}

/// Runs a vehicle's planned Engineering Special Action on `at` (R787, R809): on barbed wire a
/// Cutting weapon's die or two cut it on army; on a minefield army clears it, on a trench army
/// fills it (its units stay, without its Cover); at a bunker it is the first of the two actions,
/// and nothing is rolled yet.
pub(super) fn exec(
    state: &mut State,
    lead: &str,
    at: Square,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let Some(here) = state.unit(lead).and_then(|u| u.at) else {
        return;
    };
    if !next_to(state, here, at) {
        say(
            out,
            format!("{lead} is no longer next to {at}: its engineering action is not made"),
        );
        return;
    }
    if let Some([a, b]) = bunker_at(state, at) {
        say(out, format!("{lead} starts to bury the bunker on {a}+{b}: a second Engineering Special Action at once rolls ({DOZER_BLADES})"));
        return;
    }
    if is_wire(state, at) {
        return cut_wire(state, lead, at, dice, out);
    }
    let mines = is_minefield(state, at);
    if !mines && !is_trench(state, at) {
        say(
            out,
            format!("{lead}'s engineering at {at}: nothing is left there"),
        );
        return;
    }
    let what = if mines { "minefield" } else { "trench" };
    let r = roll(state, lead, at, what, dice);
    let done = Symbol::of_face(r.faces[0]) == Symbol::Army;
    let text = match (done, mines) {
        (true, true) => format!("{lead} clears a gap: the minefield on {at} is removed ({DOZER_BLADES})"),
        (true, false) => format!("{lead} fills the trench on {at}: it is removed, and any unit on it escapes unharmed but is now without its Cover ({DOZER_BLADES})"),
        (false, _) => format!("{lead} fails to clear the {what} on {at}"),
    };
    out.happenings.push(Happening {
        text,
        rolls: vec![r],
        ..Happening::default()
    });
    if let Some(f) = state.scenario.fortifications.as_mut().filter(|_| done) {
        f.minefields.retain(|s| *s != at);
        f.trenches.retain(|s| *s != at);
    }
}

/// Runs the second of two Engineering Special Actions at the bunker on `at` (R787): one die;
/// army buries the bunker (it is removed) and every unit inside is eliminated.
pub(super) fn exec_bury(
    state: &mut State,
    lead: &str,
    at: Square,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let Some(here) = state.unit(lead).and_then(|u| u.at) else {
        return;
    };
    let Some(squares) = bunker_at(state, at).filter(|b| b.iter().any(|s| s.adjacent(here))) else {
        say(
            out,
            format!("{lead} is no longer next to a bunker on {at}: nothing is buried"),
        );
        return;
    };
    let r = roll(state, lead, at, "bunker", dice);
    let buried = Symbol::of_face(r.faces[0]) == Symbol::Army;
    let [a, b] = squares;
    out.happenings.push(Happening {
        text: if buried {
            format!("{lead} buries the bunker on {a}+{b}: any unit inside is eliminated ({DOZER_BLADES})")
        } else {
            format!("{lead} fails to bury the bunker on {a}+{b}")
        },
        rolls: vec![r],
        ..Happening::default()
    });
    if !buried {
        return;
    }
    if let Some(f) = state.scenario.fortifications.as_mut() {
        f.bunkers.retain(|x| x.squares != squares);
    }
    let by = state.unit(lead).map(|u| u.side.clone()).unwrap_or_default();
    let inside: Vec<String> = state
        .units
        .iter()
        .filter(|u| !u.destroyed && u.at.is_some_and(|s| squares.contains(&s)))
        .map(|u| u.id.clone())
        .collect();
    for id in inside {
        super::casualties::destroy(state, &id, &by, out);
    }
}
