//! 003's terrain table for movement where it differs from 004's (issue 18; ruling R240):
//! - "Tree Squares ... Units can move freely onto and through tree squares" (004: no vehicle);
//! - "Rubble Squares ... Wheeled and tracked Vehicle units cannot enter a rubble square. Other
//!   units (including Infantry and Walker Vehicle units) can move freely onto and through a
//!   rubble square" (004: no vehicle without Jump). A vehicle is a walker unless it has the
//!   Tracked Vehicle skill (every vehicle on the 003 cards is a walker).
//! - "Swamp Squares ... Vehicle units cannot enter a swamp square. Other units can move freely
//!   onto and through a swamp square" (R612): `Terrain::Swamp`, a terrain of battlefront-2013
//!   boards only (004 and 000 have none, so another ruleset's scenario may not draw it);
//! - "Water Squares ... Units cannot enter a water square" (R611): no exception, so under
//!   battlefront-2013 the mover has neither Jump nor Amphibious (both refused on its cards at
//!   `new`; 002's Flying, R714, still passes over water and never stops on it).
//!
//! The engine's movement search is shared: it is given the board as 003 lets this mover cross
//! it. Line of sight and cover still read the real board.

use crate::dust_tactics::flow::Refusal;
use crate::dust_tactics::geometry::Mover;
use crate::dust_tactics::model::{Board, Square, Terrain, UnitType};
use crate::dust_tactics::rules::Rules;
use crate::dust_tactics::state::State;
use std::borrow::Cow;

/// The mover as 003 lets it cross water (R611): under battlefront-2013 without Jump, and
/// Amphibious only for a vehicle (002 "Amphibious", vehicle equipment, R667); unchanged
/// otherwise.
pub fn as_003(rules: Rules, mover: Mover) -> Mover {
    if !rules.battlefront() {
        return mover;
    }
    let amphibious = mover.amphibious && mover.unit_type == UnitType::Vehicle;
    Mover {
        jump: false,
        amphibious,
        ..mover
    }
}

/// Refuses, in 003's words, a `move` naming a water square (R611): every square a unit passes
/// must be one it can enter, save for a Flying unit (R714), which only stops on the last.
pub fn check_move(state: &State, mover: &Mover, path: &[Square]) -> Result<(), Refusal> {
    // 002 "Amphibious": "An Amphibious Vehicle can move through Deep Water as if it were Open
    // Space" (R667; `as_003` leaves the flag to vehicles only).
    if !state.rules().battlefront() || mover.amphibious {
        return Ok(());
    }
    let flies = super::skills002::flies(state, &mover.unit.0);
    let water = |sq: &&Square| state.scenario.board.terrain(**sq) == Terrain::DeepWater;
    let named = match flies {
        true => path.last().filter(water),
        false => path.iter().find(water),
    };
    let Some(sq) = named else {
        return Ok(());
    };
    Err(Refusal {
        reason: format!(
            "{} cannot move onto {sq}: {sq} is a water square, which no unit may enter, whatever its skills",
            mover.unit.0
        ),
        rule: "003 \"Water Squares\": \"Units cannot enter a water square\" (R611)".to_string(),
        instead: "move around the water; the movement search finds the way when you name only the square you end on".to_string(),
    })
}

/// Refuses a swamp square (R612) on the board of a scenario that does not suit battlefront-2013
/// alone: only 003 has swamp squares, so 004's and 000's rulesets could not play it.
pub fn check_board(board: &Board, rulesets: &[String]) -> Result<(), String> {
    if rulesets == ["battlefront-2013"] {
        return Ok(());
    }
    match board.squares().find(|sq| board.terrain(*sq) == Terrain::Swamp) {
        Some(sq) => Err(format!(
            "{sq} is a swamp square (`,`), a terrain only 003 (battlefront-2013) has: add rulesets = [\"battlefront-2013\"] or draw another terrain there"
        )),
        None => Ok(()),
    }
}

/// The terrain of `t` as the movement search should treat it for `mover` under 003.
fn for_movement(t: Terrain, mover: &Mover) -> Terrain {
    let walker = mover.unit_type == UnitType::Vehicle && !mover.tracked;
    match t {
        Terrain::Trees => Terrain::Open,
        Terrain::Rubble if walker => Terrain::Open,
        other => other,
    }
}

/// The board the movement search uses for `mover` under `rules`: under battlefront-2013, trees
/// open to every unit and rubble to walkers; the real board otherwise (and when nothing
/// differs, without a copy).
pub fn movement_board<'a>(rules: Rules, board: &'a Board, mover: &Mover) -> Cow<'a, Board> {
    if !rules.battlefront() {
        return Cow::Borrowed(board);
    }
    let changed: Vec<_> = (0..board.height() as i32)
        .flat_map(|r| (0..board.width() as i32).filter_map(move |c| board.square(c, r)))
        .filter(|sq| for_movement(board.terrain(*sq), mover) != board.terrain(*sq))
        .collect();
    if changed.is_empty() {
        return Cow::Borrowed(board);
    }
    let mut b = board.clone();
    for sq in changed {
        b.set_terrain(sq, for_movement(board.terrain(sq), mover));
    }
    Cow::Owned(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dust_tactics::model::UnitId;

    fn mover(unit_type: UnitType, tracked: bool) -> Mover {
        Mover {
            unit: UnitId("x".into()),
            side: "a".into(),
            unit_type,
            jump: false,
            agile: false,
            tracked,
            amphibious: false,
            dozer: false,
            large: false,
        }
    }

    #[test]
    fn rubble_stays_closed_to_tracked_vehicles_trees_open_to_all() {
        let tracked = mover(UnitType::Vehicle, true);
        assert_eq!(for_movement(Terrain::Rubble, &tracked), Terrain::Rubble);
        assert_eq!(for_movement(Terrain::Trees, &tracked), Terrain::Open);
        let walker = mover(UnitType::Vehicle, false);
        assert_eq!(for_movement(Terrain::Rubble, &walker), Terrain::Open);
        assert_eq!(
            for_movement(Terrain::DeepWater, &walker),
            Terrain::DeepWater
        );
    }
}
