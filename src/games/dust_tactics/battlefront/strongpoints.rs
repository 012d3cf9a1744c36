//! 002 "Bunkers and Strongpoints" under battlefront-2013 (issue 18): strongpoints (R718–R722).
//! A scenario lists each by its two inside squares (`[fortifications] strongpoints =
//! [["D4", "E4"]]`, 002: "treated as having two squares inside them"). What is built: only
//! infantry may enter them (movement), the re-roll of a failed Infantry or Cover Save, the save
//! against close-combat weapons from outside, and the placement limits. What 002 says of
//! "Bunkers and Strongpoints" alike is played here on both kinds (`bunkers::Shell`); what only a
//! bunker has is in `battlefront::bunkers` (R780–R784).

use super::super::flow::Refusal;
use super::super::geometry::{distance, Mover};
use super::super::model::{Board, Square, Terrain, UnitType};
use super::super::state::State;
use super::bunkers::{shell_at, shells, Shell};
use super::fortifications::Fortifications;
use super::skills002::Skill002;
use std::borrow::Cow;

/// The section refusals and briefings cite.
pub const CITE: &str = "002 \"Bunkers and Strongpoints\"";

/// The purpose of a strongpoint's dice (`dice::RollKind::of_purpose` reads it back).
pub const REROLL: &str = "strongpoint re-roll";
/// The purpose (and report name) of the save against close-combat weapons.
pub const CLOSE_SAVE: &str = "strongpoint save";

/// What a target's saves gain under battlefront-2013 beyond 003's table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BfSaves {
    /// 002 "Steel Guard", "Zombie" (R600).
    pub hardened: bool,
    /// The target is in a strongpoint and the attacker outside it (R719, R720).
    pub strongpoint: bool,
    /// The target is in a bunker and the attacker outside it (R782).
    pub bunker: bool,
}

impl BfSaves {
    /// The roll that cancels a hit on the target's fortification re-roll or save against
    /// close-combat weapons: army in a strongpoint (R718), army or shield in a bunker (R782).
    pub fn fort(&self) -> Option<super::dice::RollKind> {
        use super::dice::RollKind;
        if self.bunker {
            Some(RollKind::BunkerSave)
        } else {
            self.strongpoint.then_some(RollKind::StrongpointSave)
        }
    }
}

/// The saves of `target` attacked by `shooter` (R719): a strongpoint protects against an
/// attacker outside it.
pub fn saves(state: &State, shooter: &str, target: &str) -> BfSaves {
    let at = |id: &str| state.unit(id).and_then(|u| u.at);
    let fort = |id: &str| at(id).and_then(|sq| shell_at(state, sq));
    let target_in = fort(target);
    let protected =
        state.rules().battlefront() && target_in.is_some() && fort(shooter) != target_in;
    let bunker = target_in.is_some_and(|s| s.facing.is_some());
    BfSaves {
        hardened: super::skills002::hardened(state, target),
        strongpoint: protected && !bunker,
        bunker: protected && bunker,
    }
}

/// The scenario's strongpoints and bunkers that block 003's line of sight (R727, R781): none in
/// a game made before rules revision 8, which saw across strongpoints and replays unchanged.
pub fn all(state: &State) -> Vec<Shell> {
    if state.revised(8) {
        shells(state)
    } else {
        vec![]
    }
}

/// The strongpoint or bunker `sq` is inside.
fn index(state: &State, sq: Square) -> Option<Shell> {
    shell_at(state, sq)
}

/// 002 "Movement Through Bunkers and Strongpoints": "Only Infantry Units may be placed in,
/// enter or exit a Bunker or Strongpoint." A vehicle's move through a strongpoint square is
/// refused (R721).
pub fn check_move(state: &State, mover: &Mover, path: &[Square]) -> Result<(), Refusal> {
    super::bunkers::check_move(state, mover, path)?;
    let held = held(state, &mover.unit.0);
    if let Some(sq) = path.iter().find(|sq| held.contains(sq)) {
        return Err(Refusal {
            reason: format!("{sq} is inside a strongpoint a Strongpoint unit holds"),
            rule: format!("{CITE}: \"A Strongpoint Unit (such as the M47 Field Phaser) occupies both squares\" (R728)"),
            instead: "move around the strongpoint's squares".to_string(),
        });
    }
    if mover.unit_type != UnitType::Vehicle {
        return Ok(());
    }
    let Some((sq, shell)) = path
        .iter()
        .find_map(|sq| index(state, *sq).map(|s| (sq, s)))
    else {
        return Ok(());
    };
    Err(Refusal {
        reason: format!(
            "{sq} is inside a {} and {} is a vehicle",
            shell.name(),
            mover.unit.0
        ),
        rule: format!("{CITE}, \"Movement Through Bunkers and Strongpoints\": \"Only Infantry Units may be placed in, enter or exit a Bunker or Strongpoint\" (R721)"),
        instead: format!("move the vehicle around the {}'s squares", shell.name()),
    })
}

/// 002 "Special Actions in Bunkers and Strongpoints": "A Unit inside a Bunker or Strongpoint
/// cannot use Special Actions that require the target Unit to be within Range 1 if the target
/// Unit is outside the Bunker or Strongpoint." `action` (Tank Head's Makeshift Repair, the one
/// such action built under battlefront-2013) from `from` at a unit on `target` (R727).
pub fn check_reach(
    state: &State,
    action: &str,
    from: Option<Square>,
    target: Option<Square>,
) -> Result<(), Refusal> {
    // Games made before rules revision 8 did not restrict it, and replay unchanged.
    let Some(inside) = from
        .and_then(|sq| index(state, sq))
        .filter(|_| state.revised(8))
    else {
        return Ok(());
    };
    if target.and_then(|sq| index(state, sq)) == Some(inside) {
        return Ok(());
    }
    Err(Refusal {
        reason: format!(
            "the unit is inside the {} on {} and its target is outside it",
            inside.name(),
            from.map(|s| s.to_string()).unwrap_or_default()
        ),
        rule: format!("{CITE}, \"Special Actions in Bunkers and Strongpoints\": \"A Unit inside a Bunker or Strongpoint cannot use Special Actions that require the target Unit to be within Range 1 if the target Unit is outside the Bunker or Strongpoint\" (R727)"),
        instead: format!("move out of the {} first, then {action}", inside.name()),
    })
}

/// The movement board for `mover`: a strongpoint's or bunker's squares are impassable to a
/// vehicle, so its path goes around them (R721); a bunker's walls close all but its rear doors
/// to infantry (R781).
pub fn closed_board<'a>(state: &State, board: Cow<'a, Board>, mover: &Mover) -> Cow<'a, Board> {
    let all = shells(state);
    let held = held(state, &mover.unit.0);
    let vehicle = mover.unit_type == UnitType::Vehicle;
    let bunkers = all.iter().any(|s| s.facing.is_some());
    if (!vehicle || all.is_empty()) && held.is_empty() && !bunkers {
        return board;
    }
    let mut b = board.into_owned();
    let closed: Vec<Square> = if vehicle {
        all.iter().flat_map(|s| s.squares).collect()
    } else {
        held
    };
    for sq in closed {
        b.set_terrain(sq, Terrain::Impassable);
    }
    super::bunkers::close(state, &mut b, mover);
    Cow::Owned(b)
}

/// The squares of every strongpoint or bunker a Strongpoint unit other than `mover` stands in:
/// 002 "A Strongpoint Unit ... occupies both squares", so no other unit enters them (R728).
fn held(state: &State, mover: &str) -> Vec<Square> {
    state
        .units
        .iter()
        .filter(|u| !u.destroyed && !u.id.eq_ignore_ascii_case(mover))
        .filter(|u| {
            state
                .cards
                .get(&u.card)
                .is_some_and(|c| Skill002::Strongpoint.of(c))
        })
        .filter_map(|u| u.at.and_then(|sq| index(state, sq)))
        .flat_map(|s| s.squares)
        .collect()
}

/// A vehicle deployed inside a strongpoint (R721), or a Strongpoint unit that is not placed in
/// one at the start (R728), or a scenario's objective inside a bunker (R789) or, from rules
/// revision 10, a strongpoint (R587), for the refusal at `new`.
pub fn misplaced(state: &State) -> Option<String> {
    let sc = &state.scenario;
    if let Some(e) = sc.objectives.iter().find_map(|o| {
        let sq = crate::dust_tactics::placing::objective_square(o);
        super::bunkers::objective_refusal(sc, sq, state.revised(10))
    }) {
        return Some(format!("the scenario's objective on {e}"));
    }
    if let Some(e) = state.units.iter().find_map(|u| {
        let card = state.cards.get(&u.card)?;
        if !Skill002::Strongpoint.of(card) {
            return None;
        }
        let why = if card.unit_type == UnitType::Vehicle {
            "002 \"Fortifications\": \"Strongpoint Units ... are Infantry Units\"; a vehicle may not carry the skill"
        } else if u.at.and_then(|sq| index(state, sq)).is_some() {
            return None;
        } else {
            "002 \"Strongpoint\": \"A Strongpoint Unit must be deployed in a Strongpoint or Bunker\"; \"These Units must be placed at the start of the game\": give it `at` on a strongpoint's or bunker's inside square"
        };
        Some(format!("{} (card {}) has the skill Strongpoint: {why} (R728)", u.id, card.id))
    }) {
        return Some(e);
    }
    state.units.iter().find_map(|u| {
        let sq = u.at?;
        let shell = index(state, sq)?;
        let card = state.cards.get(&u.card)?;
        (card.unit_type == UnitType::Vehicle).then(|| {
            format!("{} is a vehicle deployed on {sq}, inside a {}: {CITE}: \"Only Infantry Units may be placed in, enter or exit a Bunker or Strongpoint\" (R721); deploy it elsewhere", u.id, shell.name())
        })
    })
}

/// Validates `strongpoints` (R718, R722): two orthogonally adjacent open squares each, at least
/// one square from every board edge and impassable square, and two squares from any other
/// strongpoint (002 "Deploying Fortifications").
pub fn parse(
    raw: &[Vec<String>],
    board: &Board,
    trenches: &[Square],
) -> Result<Vec<[Square; 2]>, (String, String)> {
    parse_pairs(raw, "strongpoints", board, trenches, &[])
}

/// The two inside squares of each strongpoint or bunker of the list `name` (R718, R722, R780),
/// two squares from each other and from the `others` already read.
pub fn parse_pairs(
    raw: &[Vec<String>],
    name: &str,
    board: &Board,
    trenches: &[Square],
    others: &[[Square; 2]],
) -> Result<Vec<[Square; 2]>, (String, String)> {
    let mut out: Vec<[Square; 2]> = vec![];
    for (i, pair) in raw.iter().enumerate() {
        let field = format!("fortifications.{name}[{i}]");
        let err = |m: String| Err((field.clone(), m));
        let squares: Vec<Square> = pair.iter().filter_map(|t| board.parse_square(t)).collect();
        let [a, b] = squares[..] else {
            return err(format!("write the strongpoint's two inside squares, like [\"D4\", \"E4\"] ({CITE}: \"treated as having two squares inside them\")"));
        };
        if pair.len() != 2 || a.delta(b).0 + a.delta(b).1 != 1 {
            return err(format!("{a} and {b} are not two squares side by side: write the strongpoint's two inside squares, like [\"D4\", \"E4\"]"));
        }
        for sq in [a, b] {
            let edge = sq.col() == 0
                || sq.row() == 0
                || sq.col() as usize + 1 >= board.width() as usize
                || sq.row() as usize + 1 >= board.height() as usize;
            let near_wall = board
                .neighbours(sq)
                .any(|n| board.terrain(n) == Terrain::Impassable);
            if board.terrain(sq) != Terrain::Open
                || board.cover_kind(sq).is_some()
                || trenches.contains(&sq)
            {
                return err(format!("{sq} is not open ground: place the strongpoint on open squares without a cover element or trench"));
            }
            if edge || near_wall {
                return err(format!("{sq} is next to a board edge or impassable terrain: 002 \"Deploying Fortifications\": \"it must be at least one square ... from all table edges and Impassable terrain\""));
            }
            if out
                .iter()
                .chain(others)
                .flatten()
                .any(|o| distance(*o, sq) < 3)
            {
                return err(format!("{sq} is within two squares of another strongpoint: 002 \"Deploying Fortifications\": \"two squares ... from other Bunkers and Strongpoints\""));
            }
        }
        let mut p = [a, b];
        p.sort();
        out.push(p);
    }
    Ok(out)
}

/// The briefing's sentence on the strongpoints, if any.
pub fn briefing(f: &Fortifications) -> Option<String> {
    if f.strongpoints.is_empty() {
        return None;
    }
    let list: Vec<String> = f
        .strongpoints
        .iter()
        .map(|[a, b]| format!("{a}+{b}"))
        .collect();
    Some(format!(
        "Strongpoints ({CITE}): {}. Only infantry may enter them; a unit inside re-rolls a failed infantry or cover save, cancelling the hit on army, and saves on army against close-combat weapons from outside.",
        list.join(" ")
    ))
}
