//! 004 "LARGE VEHICLES" (R566–R569): a vehicle inside 4 spaces; 003's Huge vehicle takes the
//! same 2×2 block under battlefront-2013 (R790). Its `at` is the top-left square of the footprint; [`occupancy`](super::occupancy) lists it on all 4, so other units, line of
//! sight and cover see it there, and the mover checks all 4 for every step (geometry).

use super::*;

/// Whether unit `id` stands on a 2×2 block: 004's large or 003's Huge vehicle (R566, R790).
pub(super) fn is_large(state: &State, id: &str) -> bool {
    state
        .unit(id)
        .and_then(|u| card(state, u))
        .is_some_and(|c| c.four_squares())
}

/// The squares unit `id` occupies when it stands on `at`: `at` alone, or a large vehicle's 4.
pub(super) fn squares_at(state: &State, id: &str, at: Square) -> Vec<Square> {
    // 003's two-square Large vehicle: its front and the square behind it (R768).
    if let Some(two) = super::super::battlefront::large2::squares(state, id, at) {
        return two;
    }
    geometry::footprint(&state.scenario.board, at, is_large(state, id)).unwrap_or(vec![at])
}

/// Whether unit `id` stands on more than one square: a 2×2 block or 003's Large vehicle (R768).
fn multi(state: &State, id: &str) -> bool {
    is_large(state, id) || super::super::battlefront::large2::is_id(state, id)
}

/// 004 "Moving": "Large vehicles must use a MOVE action to enter the battlefield as normal"
/// (R567): the named square is the top-left one; the 4 squares must all be on the board, one of
/// them at least in the entry zone, and the vehicle must be able to stand on all of them.
pub(super) fn entry_anchors(state: &State, u: &UnitState, zone: &[Square]) -> Vec<Square> {
    let occ = occupancy(state, std::slice::from_ref(&u.id));
    let mover = super::movement::mover_of(state, u);
    let board = &state.scenario.board;
    board
        .squares()
        .filter(|&a| {
            geometry::footprint(board, a, true).is_some_and(|f| f.iter().any(|s| zone.contains(s)))
                && geometry::may_stand(board, &occ, &mover, a).is_none()
        })
        .collect()
}

/// The pair of squares an attack between `shooter` on `from` and `target` on `to` is measured
/// and seen along (004 "Targeting", R568): with a large vehicle at either end, the first pair
/// (least distance first, then board order) that is in range of `range` and in line of sight;
/// failing that the nearest pair, so the refusal names the closest squares. One-square units:
/// `(from, to)`.
#[allow(clippy::too_many_arguments)]
pub(super) fn attack_pair(
    state: &State,
    occ: &Occupancy,
    shooter: &str,
    from: Square,
    target: Option<&str>,
    to: Square,
    range: WeaponRange,
    types: (UnitType, UnitType),
) -> (Square, Square) {
    let ours = squares_at(state, shooter, from);
    let theirs = target.map_or(vec![to], |t| squares_at(state, t, to));
    if ours.len() == 1 && theirs.len() == 1 {
        return (from, to);
    }
    // Neither end's own squares block its line ("Only the main body … counts" for the target).
    let ends = [Some(shooter), target];
    let mut occ = occ.clone();
    for v in occ.values_mut() {
        v.retain(|o| !ends.contains(&Some(o.unit.0.as_str())));
    }
    let occ = &occ;
    let mut pairs: Vec<(u32, Square, Square)> = ours
        .iter()
        .flat_map(|&a| {
            theirs
                .iter()
                .map(move |&b| (geometry::distance(a, b), a, b))
        })
        .collect();
    pairs.sort();
    let air = |id: Option<&str>| id.is_some_and(|i| super::aircraft::is_aircraft(state, i));
    let clear = |a: Square, b: Square| {
        // 003 "Line of Sight to Aircraft" with one end flying (R800, R773).
        if let Some(s) = super::aircraft::sight_003(state, air(Some(shooter)), air(target), a, b) {
            return s == Sight::Clear;
        }
        super::super::battlefront::sight::line_of_sight_under(
            state.rules(),
            &state.scenario.board,
            occ,
            &super::super::battlefront::strongpoints::all(state),
            Sighter {
                square: a,
                unit_type: types.0,
            },
            Sighter {
                square: b,
                unit_type: types.1,
            },
        ) == Sight::Clear
    };
    pairs
        .iter()
        .find(|(d, a, b)| geometry::in_range(range, *d) && clear(*a, *b))
        .or(pairs.first())
        .map_or((from, to), |&(_, a, b)| (a, b))
}

/// [`attack_pair`] when an attack is resolved: the board as it stands, types from the cards.
pub(super) fn fired_pair(
    state: &State,
    shooter: &str,
    from: Square,
    target: &str,
    to: Square,
    range: WeaponRange,
) -> (Square, Square) {
    if !multi(state, shooter) && !multi(state, target) {
        return (from, to);
    }
    let types = (unit_type(state, shooter), unit_type(state, target));
    let occ = occupancy(state, &[]);
    attack_pair(state, &occ, shooter, from, Some(target), to, range, types)
}

/// The unit an attack aims at, if it aims at one.
pub(super) fn target_id(t: &Target) -> Option<&str> {
    match t {
        Target::Unit { unit } | Target::Model { unit, .. } => Some(unit),
        Target::Square { .. } => None,
    }
}

/// Whether `a` on `a_at` and `b` on `b_at` touch: a square of one next to a square of the
/// other (004: "Large vehicles can be attacked in close combat by any enemy unit adjacent to
/// the large vehicle", R569).
pub(super) fn touching(state: &State, a: &str, a_at: Square, b: &str, b_at: Square) -> bool {
    let theirs = squares_at(state, b, b_at);
    squares_at(state, a, a_at)
        .iter()
        .any(|x| theirs.iter().any(|y| x.adjacent(*y)))
}

/// The reacting unit `unit` on `from` and the unit on `to` as reactive fire sees them: with a
/// large vehicle at either end, their nearest squares in line of sight (R568).
pub(super) fn reactive_pair(
    state: &State,
    occ: &Occupancy,
    unit: &str,
    from: Square,
    to: Square,
) -> (Square, Square) {
    let target = occ.get(&to).into_iter().flatten().find_map(|o| {
        let t = state.unit(&o.unit.0)?;
        (t.at == Some(to) && multi(state, &t.id)).then_some(t.id.as_str())
    });
    if target.is_none() && !multi(state, unit) {
        return (from, to);
    }
    let types = (
        unit_type(state, unit),
        target.map_or(UnitType::Squad, |t| unit_type(state, t)),
    );
    attack_pair(
        state,
        occ,
        unit,
        from,
        target,
        to,
        WeaponRange::Unlimited,
        types,
    )
}

/// A large vehicle plays only under ffg-revised (004 "LARGE VEHICLES"; 000 has none: R571), a
/// Huge vehicle and 003's two-square Large vehicle only under battlefront-2013 (003 "Moving Huge
/// Vehicles", "Unit Size": R790, R767); none on a board with 004's mined spaces (a mine under one
/// of its squares is not built; 002's minefields are, R686).
pub(super) fn check_setup(
    rules: &Rules,
    scenario: &Scenario,
    cards: &BTreeMap<String, Card>,
) -> Result<(), String> {
    let units = || scenario.sides.iter().flat_map(|s| &s.units);
    let card_of = |u: &super::super::scenario::UnitSpec| cards.get(&u.card);
    if let Some(u) = units().find(|u| card_of(u).is_some_and(|c| c.large)) {
        if rules.id() != "ffg-revised" {
            return Err(format!(
                "unit {} uses the large vehicle card `{}`: large vehicles (004 \"LARGE VEHICLES\", 4 spaces) are played only under --ruleset ffg-revised (R571); {} does not build them (003's two-square Large vehicle is `size = \"large\"`, R767)",
                u.id,
                u.card,
                rules.id()
            ));
        }
    }
    if let Some(u) = units().find(|u| card_of(u).is_some_and(|c| c.huge)) {
        if !rules.battlefront() {
            return Err(format!(
                "unit {} uses the Huge vehicle card `{}`: Huge vehicles (003 \"Moving Huge Vehicles\", four squares) are played only under --ruleset battlefront-2013 (R790); {} has none",
                u.id,
                u.card,
                rules.id()
            ));
        }
    }
    // 003 "Unit Size": the two-square Large vehicle (R767).
    let two = |c: &Card| c.size.is_some();
    if let Some(u) = units().find(|u| card_of(u).is_some_and(two)) {
        if !rules.battlefront() {
            return Err(format!(
                "unit {} uses the Large vehicle card `{}`: two-square Large vehicles (003 \"Unit Size\", `size = \"large\"`) are played only under --ruleset battlefront-2013 (R767); {} has none",
                u.id,
                u.card,
                rules.id()
            ));
        }
    }
    // R767: a placed Large vehicle's rear must be on the board and free.
    let placed: Vec<Square> = units().filter_map(|u| u.at).collect();
    for u in units().filter(|u| card_of(u).is_some_and(two)) {
        let board = &scenario.board;
        let flies = card_of(u).is_some_and(|c| matches!(c.armour, model::Armour::Aircraft(_)));
        let why = (u.at).and_then(|at| {
            super::super::battlefront::large2::placement_error(board, at, &placed, flies)
        });
        if let Some(why) = why {
            return Err(format!(
                "unit {} uses the Large vehicle card `{}`: {why} (003 \"Unit Size\": two squares, R767); place it elsewhere",
                u.id, u.card
            ));
        }
    }
    let many = |c: &Card| c.four_squares() || two(c);
    let Some(u) = units().find(|u| card_of(u).is_some_and(many)) else {
        return Ok(());
    };
    // 002's minefields count under every square of a Huge or Large vehicle (R686); 004's
    // mined spaces under a large vehicle are not built.
    if !scenario.board.mines.is_empty() {
        return Err(format!(
            "unit {} uses the large vehicle card `{}` and scenario {} has minefields: a mine under a large vehicle is not built (R571); remove one or the other",
            u.id, u.card, scenario.name
        ));
    }
    Ok(())
}

/// The squares a large or Huge vehicle `unit` off the board may enter on (the top-left, R567; a
/// Large vehicle's front, R771), for the bot;
/// `None` for any other unit.
pub fn large_entry(state: &State, unit: &str) -> Option<Vec<Square>> {
    // 003's two-square Large vehicle names its front (R771).
    let large2 = |u: &&UnitState| super::super::battlefront::large2::is_large2(state, u);
    let u = (state.unit(unit)).filter(|u| is_large(state, &u.id) || large2(u))?;
    Some(super::movement::entry_free(state, u))
}

/// The pair of squares of `a` on `a_at` and `b` on `b_at` an artillery gun's `range` is counted
/// along (R572): the first in range, least distance first then board order, else the nearest;
/// the gun needs no sight.
pub(super) fn in_range_pair(
    state: &State,
    (a, a_at): (&str, Square),
    (b, b_at): (&str, Square),
    range: WeaponRange,
) -> (Square, Square) {
    let theirs = squares_at(state, b, b_at);
    let mut pairs: Vec<(u32, Square, Square)> = squares_at(state, a, a_at)
        .into_iter()
        .flat_map(|x| {
            theirs
                .iter()
                .map(move |&y| (geometry::distance(x, y), x, y))
        })
        .collect();
    pairs.sort();
    pairs
        .iter()
        .find(|(d, _, _)| geometry::in_range(range, *d))
        .or(pairs.first())
        .map_or((a_at, b_at), |&(_, x, y)| (x, y))
}
