//! 002 "Vehicle Equipment", "Naval Unit" under battlefront-2013 (issue 18, R755–R758): "A Naval
//! Unit treats Deep Water as Open Space, but cannot enter any other type of terrain. A Naval
//! Unit may take a free Attack Action immediately after it performs a March Move Action. An
//! eliminated Naval Unit becomes Deep Water terrain."
//! The movement search is given a board where deep water is open and every other square
//! impassable (R755); the free Attack is the planner's free action (`flow::activation`, R756);
//! the wreck is turned to deep water as the unit is destroyed (R757); a naval unit begins the
//! game placed on deep water, the only squares it may stand on (R758).

use super::skills002::Skill002;
use crate::dust_tactics::flow::Refusal;
use crate::dust_tactics::model::{Board, Card, Square, Terrain, UnitType};
use crate::dust_tactics::skill::Skill;
use crate::dust_tactics::state::State;
use crate::game::{Happening, Outcome};
use std::borrow::Cow;

/// The citation of 002 "Naval Unit" for refusals and reports.
pub const RULE: &str = "002 \"Naval Unit\"";

const ENTER: &str =
    "A Naval Unit treats Deep Water as Open Space, but cannot enter any other type of terrain";

/// Whether `card` is a Naval Unit's: 002 "Sealifters are Naval Units" (R776).
pub fn naval_card(card: &Card) -> bool {
    card.has_skill(Skill002::Naval.id()) || sealifter_card(card)
}

/// Whether `card` is a Sealifter's.
pub fn sealifter_card(card: &Card) -> bool {
    card.has_skill(Skill002::Sealifter.id())
}

/// Whether unit `id` is a Sealifter in a battlefront-2013 game (destroyed or not).
pub fn is_sealifter(state: &State, id: &str) -> bool {
    state.rules().battlefront()
        && state
            .unit(id)
            .and_then(|u| state.cards.get(&u.card))
            .is_some_and(sealifter_card)
}

/// The citation of 002 "Sealifter" for refusals and reports.
pub const SEALIFTER: &str = "002 \"Sealifter\"";

/// 002 "A Sealifter has twelve spaces for soldiers with Infantry Armour 1 or 2" (R776).
pub const SEALIFTER_SPACES: u32 = 12;

/// The spaces vehicle card `c` takes in a Sealifter: "Most Vehicles occupy 6 spaces, while Large
/// Vehicles occupy all twelve spaces. A Sealifter cannot carry Huge Vehicles" (R776): `None` for
/// a Huge vehicle or an aircraft, which it never carries.
pub fn vehicle_spaces(c: &Card) -> Option<u32> {
    use crate::dust_tactics::model::{Armour, VehicleSize};
    if c.huge || matches!(c.armour, Armour::Aircraft(_)) {
        return None;
    }
    match c.size == Some(VehicleSize::Large) {
        true => Some(SEALIFTER_SPACES),
        false => Some(6),
    }
}

/// R779: the square in front of a Sealifter standing on `at` with `facing`: its bow door.
pub fn bow_door(board: &Board, at: Square, facing: super::facing::Facing) -> Option<Square> {
    board
        .squares()
        .find(|sq| super::facing::Facing::of_step(at, *sq) == Some(facing) && sq.adjacent(at))
}

/// R779: whether the bow door of Sealifter `v`, whose wreck is on `at`, is "in contact with dry
/// land": the square before its facing is on the board and neither deep water nor impassable.
pub fn door_on_land(state: &State, v: &str, at: Square) -> Option<Square> {
    let u = state.unit(v)?;
    let board = &state.scenario.board;
    let f = u.facing.unwrap_or_else(|| super::facing::placed(board, at));
    bow_door(board, at, f).filter(|d| !water(state, *d) && board.terrain(*d) != Terrain::Impassable)
}

/// Whether unit `id` is a Naval Unit in a battlefront-2013 game.
pub fn is_naval(state: &State, id: &str) -> bool {
    state.rules().battlefront()
        && state
            .unit(id)
            .and_then(|u| state.cards.get(&u.card))
            .is_some_and(naval_card)
}

/// Whether `sq` is deep water, under a smoke screen too (Smoke Launchers keep the terrain
/// they cover in their token, R666).
pub fn water(state: &State, sq: Square) -> bool {
    match state.scenario.board.terrain(sq) {
        Terrain::DeepWater => true,
        Terrain::Smoke => state
            .smoke
            .iter()
            .any(|t| t.at == sq && t.was == Terrain::DeepWater),
        _ => false,
    }
}

/// R755: a `move` of a Naval Unit naming a square that is not deep water is refused, naming it.
pub fn check_move(state: &State, id: &str, path: &[Square]) -> Result<(), Refusal> {
    if !is_naval(state, id) {
        return Ok(());
    }
    let Some(sq) = path.iter().find(|sq| !water(state, **sq)) else {
        return Ok(());
    };
    Err(Refusal {
        reason: format!(
            "{id} is a Naval Unit and {sq} is {}, not deep water: it cannot enter it",
            state.scenario.board.terrain(*sq).name()
        ),
        rule: format!("{RULE}: \"{ENTER}\" (R755)"),
        instead: "move over deep water squares only (`~` on the board); the movement search finds the way when you name only the square you end on".into(),
    })
}

/// R755: the board the movement search uses for Naval Unit `id`: deep water open, every other
/// square impassable; `board` unchanged for any other unit.
pub fn naval_board<'a>(state: &State, id: &str, board: Cow<'a, Board>) -> Cow<'a, Board> {
    if !is_naval(state, id) {
        return board;
    }
    let mut b = board.into_owned();
    let squares: Vec<Square> = b.squares().collect();
    for sq in squares {
        let t = match water(state, sq) {
            true => Terrain::Open,
            false => Terrain::Impassable,
        };
        b.set_terrain(sq, t);
    }
    Cow::Owned(b)
}

/// R756: whether an `attack` after the activation's March Move (`march_so_far`: its actions so
/// far are two Moves) may be Naval Unit `id`'s free Attack.
pub fn free_attack(state: &State, id: &str, march_so_far: bool) -> bool {
    march_so_far && is_naval(state, id)
}

/// R756: the orders template's note under a Naval Unit's moves (no order of its own: the free
/// Attack is the `attack` line after two `move` lines).
pub fn template_note(state: &State, id: &str) -> &'static str {
    match is_naval(state, id) {
        true => "#   after two move lines (a March Move) a third line attack ... is its free Attack (002 Naval Unit)\n",
        false => "",
    }
}

/// R758: at `new`, a Naval Unit must begin on deep water (entry zones hold none, R82), and no
/// other unit may begin there but an Amphibious vehicle (R667). The error names the unit.
pub fn misplaced(state: &State) -> Option<String> {
    if !state.rules().battlefront() {
        return None;
    }
    for u in &state.units {
        let Some(c) = state.cards.get(&u.card) else {
            continue;
        };
        let naval = naval_card(c);
        match u.at {
            None if naval && u.aboard.is_none() => {
                return Some(format!(
                    "unit {} is a Naval Unit and has no starting square: 002 \"{ENTER}\", and an entry zone holds no deep water, so give it `at = <a deep water square>` (R758)",
                    u.id
                ))
            }
            Some(at) if naval && !water(state, at) => {
                return Some(format!(
                    "unit {} is a Naval Unit and starts on {at}, which is not deep water: 002 \"{ENTER}\"; place it on a `~` square (R758)",
                    u.id
                ))
            }
            Some(at)
                if !naval
                    && water(state, at)
                    && !(c.unit_type == UnitType::Vehicle && c.has(Skill::Amphibious)) =>
            {
                return Some(format!(
                    "unit {} starts on {at}, deep water, where only a Naval Unit or an Amphibious vehicle may stand (003 \"Water Squares\", R611; R758): place it on another square",
                    u.id
                ))
            }
            _ => {}
        }
    }
    None
}

/// R757: "An eliminated Naval Unit becomes Deep Water terrain": the squares Naval Unit `id`
/// stood on (`at`, its front for a Large vehicle) are deep water from now on, whatever they
/// were, and the report says so. Called as its destruction is recorded.
pub fn sink(state: &mut State, id: &str, at: Option<Square>, out: &mut Outcome) {
    let Some(at) = at.filter(|_| is_naval(state, id)) else {
        return;
    };
    let squares = super::large2::squares(state, id, at).unwrap_or_else(|| vec![at]);
    for sq in &squares {
        // Under a smoke screen the deep water comes back when the smoke lifts.
        match state.smoke.iter_mut().find(|t| t.at == *sq) {
            Some(t) => t.was = Terrain::DeepWater,
            None => state.scenario.board.set_terrain(*sq, Terrain::DeepWater),
        }
    }
    let names: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
    out.happenings.push(Happening::text(format!(
        "{id} sinks: {} deep water, and nothing of it stays on the board ({RULE}: \"An eliminated Naval Unit becomes Deep Water terrain\", R757)",
        match names.len() {
            1 => format!("{} is", names[0]),
            _ => format!("{} are", names.join(", ")),
        }
    )));
}
