//! 002's Under Fire and Suppressed tokens under battlefront-2013, rules revision 8 (R702–R706,
//! amending R264). Page 58 of *Dust Tactics Battlefield*, which states the rule, is in no seed:
//! what the seeds say is played as they say it, and the values lost with page 58 are the
//! provisional choices of R703 (what gives the tokens, what Under Fire does) and R704 (the
//! removal roll); Brave and Commissar are R705, the immune R706. The engine calls these from
//! small marked hooks: the removal of casualties (flow/steps.rs), the planning of an activation
//! (flow/activation.rs) and its steps.

use super::super::model::UnitType;
use super::super::orders::Action;
use super::super::skill::Skill;
use super::super::state::{Activation, State, Step};
use super::dice::{self, Symbol};
use super::skills002::Skill002;
use crate::game::{DiceSource, Happening, Outcome, Roll};
use serde::{Deserialize, Serialize};

/// The rules revision that brought suppression (`rules::RULES_REVISION`): a battlefront-2013
/// game made before has no tokens and replays so.
pub const REVISION: u32 = 8;

/// The purpose of the removal roll in the ledger and reports.
pub const PURPOSE: &str = "suppression removal";

/// A unit's suppression token (002): "Under Fire" first, "Suppressed" when hit again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Token {
    UnderFire,
    Suppressed,
}

impl Token {
    /// 002's name, as reports show it.
    pub fn name(self) -> &'static str {
        match self {
            Token::UnderFire => "Under Fire",
            Token::Suppressed => "Suppressed",
        }
    }
}

/// Whether suppression is played: battlefront-2013, made under rules revision 8 or later.
pub fn applies(state: &State) -> bool {
    state.rules().battlefront() && state.revised(REVISION)
}

/// 002: heroes "can never be Suppressed, so do not receive Under Fire and Suppressed tokens"; "A
/// Superhuman cannot be Suppressed"; "A Zombie Unit can never be Suppressed" (R706).
pub fn immune(state: &State, id: &str) -> bool {
    let card = state.unit(id).and_then(|u| state.cards.get(&u.card));
    card.is_none_or(|c| c.unit_type == UnitType::Hero || c.superhuman || Skill002::Zombie.of(c))
}

/// R703: a unit an attack damaged gains Under Fire; one that already had a token is Suppressed
/// (002: "As the Death Masks already had an Under Fire token, they replace that with a
/// Suppression token for being hit again"). Called as the pending damage is removed; each
/// pending entry counts once, however often its removal resumes (a casualty choice).
pub fn gain(state: &mut State, act: &mut Activation, out: &mut Outcome) {
    if !applies(state) {
        return;
    }
    for (id, p) in act.damage.iter_mut() {
        if std::mem::replace(&mut p.suppressing, true) {
            continue;
        }
        let hit = p.points > 0 || p.eliminate || !p.sniped.is_empty();
        if !hit || immune(state, id) {
            continue;
        }
        give(state, id, out);
    }
}

/// 002 "Minefields": a unit that fails to clear a minefield "receives a Suppression token": it is
/// Suppressed, whatever token it had (R726), unless immune (R706); so are the passengers of an
/// eliminated vehicle (002 "Damage to Passengers", R736). `why` ends the report's line.
pub fn suppress(state: &mut State, id: &str, why: &str, out: &mut Outcome) {
    if !applies(state) || immune(state, id) {
        return;
    }
    let Some(u) = state.unit_mut(id).filter(|u| !u.destroyed) else {
        return;
    };
    u.suppression = Some(Token::Suppressed);
    out.happenings.push(Happening::text(format!(
        "{id} receives a Suppressed token {why}"
    )));
}

/// Gives `id` its next token: Under Fire, or Suppressed if it had one.
fn give(state: &mut State, id: &str, out: &mut Outcome) {
    let Some(u) = state.unit_mut(id).filter(|u| !u.destroyed) else {
        return;
    };
    let before = u.suppression;
    let next = if before.is_some() {
        Token::Suppressed
    } else {
        Token::UnderFire
    };
    u.suppression = Some(next);
    let text = match before {
        Some(Token::UnderFire) => format!(
            "{id} is hit again: its Under Fire token is replaced by a Suppressed token (002)"
        ),
        Some(Token::Suppressed) => format!("{id} is hit again and stays Suppressed (002)"),
        None => format!("{id} is hit and gains an {} token (002)", next.name()),
    };
    out.happenings.push(Happening::text(text));
}

/// R704: the dice a unit rolls to remove its token: "two" (002 "Brave"), "three dice instead of
/// two" for a Brave unit, a unit with a Commissar, or one a hero activates with.
pub fn removal_dice(state: &State, id: &str) -> usize {
    let card = |uid: &str| state.unit(uid).and_then(|u| state.cards.get(&u.card));
    let brave = card(id).is_some_and(|c| c.has_skill(Skill002::Brave.id()));
    // R705: the Commissar is a miniature of the squad whose card names him.
    let commissar = card(id).is_some_and(|c| c.has(Skill::Commissar));
    let hero = state.joined_of(id).iter().any(|j| {
        state
            .cards
            .get(&j.card)
            .is_some_and(|c| c.unit_type == UnitType::Hero)
    });
    if brave || commissar || hero {
        3
    } else {
        2
    }
}

/// 002 "Commissar": "A Commissar must be attached to an Infantry Unit at the start of the game,
/// becoming part of the Unit for the rest of the game" (R705): under battlefront-2013 the
/// skill names the squad's card (the Commissar is one of its miniatures); another card naming
/// it is refused at `new`.
pub fn check_commissar(file: &str, c: &super::super::model::Card) -> Result<(), String> {
    if c.unit_type == UnitType::Squad {
        return Ok(());
    }
    Err(format!(
        "card {file} names the skill `commissar` on a card that is not a squad: under battlefront-2013 \"A Commissar must be attached to an Infantry Unit at the start of the game, becoming part of the Unit for the rest of the game\" (002 \"Commissar\", R705): name `commissar` on the infantry squad's card, or play the ffg-revised ruleset"
    ))
}

/// Planning hook (R704): a unit with a token activates with its removal roll first; if its
/// first ordered action is not `nothing` and counts as one action, a cut after it drops the
/// rest when the unit stays Suppressed (its Nothing comes first, its first ordered action is
/// its second). `first`: the actions the first order counts as, and the steps it planned;
/// `steps`: the planned steps, with their reactive windows.
pub fn plan(
    state: &State,
    unit: &str,
    actions: &[Action],
    first: (usize, usize),
    steps: &mut Vec<Step>,
) {
    if !applies(state) || state.unit(unit).and_then(|u| u.suppression).is_none() {
        return;
    }
    if !matches!(actions.first(), Some(Action::Nothing)) {
        let at = after_first(actions, first, steps);
        steps.insert(at, Step::SuppressionCut);
    }
    steps.insert(0, Step::SuppressionRoll);
}

/// Where the steps of the first ordered action end, with the reactive windows among or right
/// after them: 0 when that action counts as two (003 "Actions": a Sustained Attack "uses two
/// actions", one line for both) or is none. Also where 002's Spy on one army symbol stops (R660).
pub fn after_first(actions: &[Action], first: (usize, usize), steps: &[Step]) -> usize {
    let (kinds, mut left) = first;
    let sustained = matches!(actions.first(), Some(Action::Sustained { .. }));
    let mut at = 0;
    if kinds == 1 && !sustained {
        for (i, s) in steps.iter().enumerate() {
            match s {
                Step::Detach { .. } | Step::AcePilot { .. } | Step::Window => {}
                _ if left == 0 => break,
                _ => left -= 1,
            }
            at = i + 1;
        }
    }
    at
}

/// The removal roll at activation (R704): on at least one [army] the token is removed; a unit
/// that stays Suppressed must take a Nothing Action first (002 "Heroes and Suppression").
pub fn roll(
    state: &mut State,
    act: &mut Activation,
    dice_src: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let id = act.unit.clone();
    let Some(token) = state.unit(&id).and_then(|u| u.suppression) else {
        return;
    };
    let n = removal_dice(state, &id);
    let round = state.round;
    let faces: Vec<u8> = (0..n).map(|_| dice_src.d6(round)).collect();
    let removed = dice::count(&faces, Symbol::Army) > 0;
    let shown = faces
        .iter()
        .map(|f| Symbol::of_face(*f).name())
        .collect::<Vec<_>>()
        .join(", ");
    let cut = act.steps.iter().any(|s| matches!(s, Step::SuppressionCut));
    // A first ordered action that counts as two (a March Move) is cut with the rest.
    let then = if matches!(act.steps.first(), Some(Step::SuppressionCut)) {
        "its first ordered action counts as two actions (003: a Sustained Attack \"uses two actions\"), so none of its orders is played"
    } else {
        "its first ordered action is its second and the rest of its orders is not played"
    };
    let text = match (removed, token) {
        (true, _) => format!("{id} rolls {n} dice to remove its {} token ({shown}): an army symbol, the token is removed (002)", token.name()),
        (false, Token::UnderFire) => format!("{id} rolls {n} dice to remove its Under Fire token ({shown}): no army symbol, it stays Under Fire (002)"),
        (false, Token::Suppressed) if cut => format!("{id} rolls {n} dice to recover from being Suppressed ({shown}): no army symbol, it remains Suppressed, so takes a Nothing action as its first action; {then} (002, R704)"),
        (false, Token::Suppressed) => format!("{id} rolls {n} dice to recover from being Suppressed ({shown}): no army symbol, it remains Suppressed; its ordered `nothing` is the Nothing action it must take first (002)"),
    };
    out.happenings.push(Happening {
        rolls: vec![Roll {
            purpose: format!("{PURPOSE} for {id}"),
            round,
            faces,
        }],
        ..Happening::text(text)
    });
    if removed {
        if let Some(u) = state.unit_mut(&id) {
            u.suppression = None;
        }
    } else if token == Token::Suppressed && cut {
        act.flags.pinned = true;
    }
}

/// The cut after the first ordered action of a unit that stayed Suppressed: the Nothing action
/// was its first, so only that one more action is played (R704).
pub fn cut(act: &mut Activation) {
    if std::mem::take(&mut act.flags.pinned) {
        act.steps.retain(|s| matches!(s, Step::Detach { .. }));
    }
}

/// The text board's lines naming each token by the unit's marker (`marks`: unit id, marker),
/// four a line to keep 72 columns: `Tokens: c Under Fire, d Suppressed`. Empty without tokens.
pub fn board_lines(state: &State, marks: &[(String, String)]) -> String {
    let tokens: Vec<String> = marks
        .iter()
        .filter_map(|(id, m)| {
            let u = state.unit(id).filter(|u| !u.destroyed)?;
            Some(format!("{m} {}", u.suppression?.name()))
        })
        .collect();
    tokens
        .chunks(4)
        .map(|c| format!("Tokens: {}\n", c.join(", ")))
        .collect()
}
