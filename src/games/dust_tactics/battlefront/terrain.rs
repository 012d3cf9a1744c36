//! 003's terrain table for movement where it differs from 004's (issue 18; ruling R240):
//! - "Tree Squares ... Units can move freely onto and through tree squares" (004: no vehicle);
//! - "Rubble Squares ... Wheeled and tracked Vehicle units cannot enter a rubble square. Other
//!   units (including Infantry and Walker Vehicle units) can move freely onto and through a
//!   rubble square" (004: no vehicle without Jump). A vehicle is a walker unless it has the
//!   Tracked Vehicle skill (every vehicle on the 003 cards is a walker).
//!
//! The engine's movement search is shared: it is given the board as 003 lets this mover cross
//! it. Line of sight and cover still read the real board.

use crate::dust_tactics::geometry::Mover;
use crate::dust_tactics::model::{Board, Terrain, UnitType};
use crate::dust_tactics::rules::Rules;
use std::borrow::Cow;

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
