//! DATC-style rules tests for board geometry: distance and range, movement, line of sight and
//! cover. Each test names its source: 000 = Dust Tactics core rules 2010, 004 = FFG revised
//! rules (the default ruleset), R<n> = docs/rulings.md.

use dustmail::dust_tactics::geometry::{
    cover_explained, cover_for, distance, in_range, line_of_sight, plan_move, CoverSource, Mover,
    Occupancy, Occupant, Sight, Sighter,
};
use dustmail::dust_tactics::model::{
    Board, Cover, CoverKind, Square, Terrain, UnitId, UnitType, WeaponRange,
};

// ---------------------------------------------------------------- helpers

#[derive(Debug)]
struct Table {
    board: Board,
    occ: Occupancy,
}

impl Table {
    fn open(w: u8, h: u8) -> Table {
        Table {
            board: Board::open(w, h).unwrap(),
            occ: Occupancy::new(),
        }
    }
    fn rows(rows: &[&str]) -> Table {
        Table {
            board: Board::from_rows(rows).unwrap(),
            occ: Occupancy::new(),
        }
    }
    fn sq(&self, name: &str) -> Square {
        self.board
            .parse_square(name)
            .unwrap_or_else(|| panic!("{name} is not on the test board"))
    }
    fn terrain(&mut self, names: &[&str], t: Terrain) {
        for n in names {
            let s = self.sq(n);
            self.board.set_terrain(s, t);
        }
    }
    fn wall(&mut self, a: &str, b: &str) {
        let (a, b) = (self.sq(a), self.sq(b));
        self.board.add_wall(a, b).unwrap();
    }
    fn put(&mut self, at: &str, kind: CoverKind) {
        let s = self.sq(at);
        self.board.place_cover(s, kind).unwrap();
    }
    fn unit(&mut self, id: &str, side: &str, unit_type: UnitType, at: &str) {
        let s = self.sq(at);
        self.occ.entry(s).or_default().push(Occupant {
            unit: UnitId(id.into()),
            side: side.into(),
            unit_type,
            above: false,
        });
    }
    fn plan(
        &self,
        m: &Mover,
        from: &str,
        to: &[&str],
        mp: u32,
    ) -> Result<(Vec<String>, u32), String> {
        let wps: Vec<Square> = to.iter().map(|n| self.sq(n)).collect();
        plan_move(&self.board, &self.occ, m, self.sq(from), &wps, mp)
            .map(|p| (p.path.iter().map(|s| s.to_string()).collect(), p.cost))
            .map_err(|e| e.reason)
    }
    fn sees(&self, a: &str, at: UnitType, b: &str, bt: UnitType) -> bool {
        let from = Sighter {
            square: self.sq(a),
            unit_type: at,
        };
        let to = Sighter {
            square: self.sq(b),
            unit_type: bt,
        };
        let one = line_of_sight(&self.board, &self.occ, from, to) == Sight::Clear;
        let back = line_of_sight(&self.board, &self.occ, to, from) == Sight::Clear;
        assert_eq!(
            one, back,
            "LOS {a}↔{b} must be reciprocal (004 LOS reciprocity)"
        );
        one
    }
    fn squad_sees(&self, a: &str, b: &str) -> bool {
        self.sees(a, UnitType::Squad, b, UnitType::Squad)
    }
    fn cover(&self, shooter: &str, st: UnitType, target: &str) -> Cover {
        cover_for(
            &self.board,
            &self.occ,
            Sighter {
                square: self.sq(shooter),
                unit_type: st,
            },
            Sighter {
                square: self.sq(target),
                unit_type: UnitType::Squad,
            },
        )
    }
}

const S: UnitType = UnitType::Squad;
const V: UnitType = UnitType::Vehicle;

fn mover(id: &str, side: &str, unit_type: UnitType) -> Mover {
    Mover {
        unit: UnitId(id.into()),
        side: side.into(),
        unit_type,
        jump: false,
        agile: false,
        tracked: false,
        amphibious: false,
        dozer: false,
        large: false,
    }
}
fn squad() -> Mover {
    mover("rangers", "allies", UnitType::Squad)
}
fn hero() -> Mover {
    mover("joe", "allies", UnitType::Hero)
}
fn vehicle() -> Mover {
    mover("pounder", "allies", UnitType::Vehicle)
}
fn jumper() -> Mover {
    Mover {
        jump: true,
        ..mover("recon", "allies", UnitType::Squad)
    }
}

fn path(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------- board

#[test]
fn board_walls_only_between_squares_sharing_a_side() {
    // R10: walls are edges between orthogonal neighbours.
    let t = Table::open(6, 6);
    let mut b = t.board.clone();
    assert!(b.add_wall(t.sq("B2"), t.sq("C2")).is_ok());
    assert!(
        b.wall_between(t.sq("C2"), t.sq("B2")),
        "a wall works both ways"
    );
    let e = b.add_wall(t.sq("B2"), t.sq("C3")).unwrap_err();
    assert!(e.0.contains("B2") && e.0.contains("C3"), "{e}");
}

#[test]
fn board_walls_from_scenario_text() {
    // R10: scenario files write a wall as the two squares it separates.
    let mut t = Table::open(6, 6);
    t.board.add_wall_text("c3|D3").unwrap();
    t.board.add_wall_text("A1-A2").unwrap();
    assert!(t.board.wall_between(t.sq("C3"), t.sq("D3")));
    assert!(t.board.wall_between(t.sq("A2"), t.sq("A1")));
    let e = t.board.add_wall_text("C3 D3").unwrap_err();
    assert!(e.0.contains("C3|D3"), "{e}");
    let e = t.board.add_wall_text("C3|Z3").unwrap_err();
    assert!(e.0.contains("Z3 is not a square"), "{e}");
}

#[test]
fn board_004_terrain_cover_elements_only_on_open_or_smoke() {
    // 004 "Terrain": cover elements cannot be placed on water, rubble, trees or impassable.
    let mut t = Table::rows(&[".*~", "+T#", "..."]);
    for ok in ["A1", "B1"] {
        let s = t.sq(ok);
        assert!(t.board.place_cover(s, CoverKind::AmmoCrate).is_ok(), "{ok}");
    }
    for bad in ["C1", "A2", "B2", "C2"] {
        let s = t.sq(bad);
        let e = t.board.place_cover(s, CoverKind::TankTrap).unwrap_err();
        assert!(e.0.contains(bad), "{e}");
    }
}

#[test]
fn board_with_walls_round_trips_through_json() {
    let mut t = Table::open(3, 3);
    t.wall("A1", "B1");
    let json = serde_json::to_string(&t.board).unwrap();
    let back: Board = serde_json::from_str(&json).unwrap();
    assert_eq!(back, t.board);
    // Boards saved before walls existed still load.
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v.as_object_mut().unwrap().remove("walls");
    let old: Board = serde_json::from_value(v).unwrap();
    assert!(!old.wall_between(t.sq("A1"), t.sq("B1")));
}

// ---------------------------------------------------------------- distance and range

#[test]
fn distance_000_first_diagonal_one_each_further_two() {
    // 000 "How do you measure movement and ranges?"; DESIGN ruling 1.
    let t = Table::open(9, 9);
    assert_eq!(distance(t.sq("A1"), t.sq("A4")), 3);
    assert_eq!(distance(t.sq("A1"), t.sq("B2")), 1);
    assert_eq!(distance(t.sq("A1"), t.sq("C3")), 3);
    assert_eq!(distance(t.sq("A1"), t.sq("D4")), 5);
    assert_eq!(distance(t.sq("A1"), t.sq("E5")), 7);
    assert_eq!(distance(t.sq("A1"), t.sq("D2")), 3);
}

#[test]
fn range_004_formats() {
    // 004 "Range": N within N (minimum 1), X-Y arc, U unlimited, C adjacent, A minimum 4.
    assert!(in_range(WeaponRange::Close, 1) && !in_range(WeaponRange::Close, 2));
    assert!(in_range(WeaponRange::Upto(3), 3) && !in_range(WeaponRange::Upto(3), 4));
    assert!(!in_range(WeaponRange::Upto(3), 0));
    assert!(!in_range(WeaponRange::Between(2, 6), 1) && in_range(WeaponRange::Between(2, 6), 6));
    assert!(in_range(WeaponRange::Unlimited, 120));
    assert!(!in_range(WeaponRange::Artillery, 3) && in_range(WeaponRange::Artillery, 40));
}

// ---------------------------------------------------------------- movement: costs

#[test]
fn move_000_pounder_area_is_exactly_the_squares_within_its_movement() {
    // 000 "How do you measure movement" (Pounder diagram): the area a unit reaches in one MOVE of
    // 1 and in a MOVE of 2 is every square at distance ≤ MP (first diagonal 1, then 2).
    let t = Table::open(9, 9);
    let from = t.sq("E5");
    for mp in [1u32, 2, 3] {
        for to in t.board.squares().filter(|&s| s != from) {
            let r = plan_move(&t.board, &t.occ, &vehicle(), from, &[to], mp);
            assert_eq!(r.is_ok(), distance(from, to) <= mp, "{to} with {mp} MP");
            if let Ok(p) = r {
                assert_eq!(p.cost, distance(from, to), "{to}");
            }
        }
    }
}

#[test]
fn move_004_second_diagonal_costs_two() {
    // 004 "Movement": enter the first diagonal normally, each further diagonal costs 2 MP.
    let t = Table::open(9, 9);
    assert_eq!(t.plan(&squad(), "C3", &["D4", "E5"], 3).unwrap().1, 3);
    let e = t.plan(&squad(), "C3", &["D4", "E5"], 2).unwrap_err();
    assert_eq!(
        e,
        "E5 is 3 movement points away along the ordered path, rangers has 2"
    );
    // Cheapest path to E5 costs 3 as well (one diagonal and two straight steps).
    let e = t.plan(&squad(), "C3", &["E5"], 2).unwrap_err();
    assert_eq!(e, "E5 is 3 movement points away, rangers has 2");
}

#[test]
fn move_004_agile_every_diagonal_costs_one() {
    // 004 "Agile": all diagonals cost 1.
    let t = Table::open(9, 9);
    let agile = Mover {
        agile: true,
        ..squad()
    };
    assert_eq!(
        t.plan(&agile, "C3", &["E5"], 2).unwrap(),
        (path(&["D4", "E5"]), 2)
    );
}

#[test]
fn move_004_tracked_vehicles_never_move_diagonally() {
    // 004 "Tracked Vehicle": cannot move diagonally.
    let t = Table::open(9, 9);
    let tracked = Mover {
        tracked: true,
        ..vehicle()
    };
    let (p, cost) = t.plan(&tracked, "C3", &["D4"], 2).unwrap();
    assert_eq!(cost, 2);
    assert_eq!(p.len(), 2, "two straight steps: {p:?}");
    let e = t.plan(&tracked, "C3", &["D4", "E5"], 9).unwrap_err();
    assert!(
        e.contains("tracked") && e.contains("C3") && e.contains("D4"),
        "{e}"
    );
}

#[test]
fn move_r13_ties_prefer_fewer_steps_then_straight_first() {
    // R13: among equally cheap paths, fewest steps; then orthogonal before diagonal, N E S W.
    let t = Table::open(9, 9);
    // C3→E4: cost 2 either way; the two-step path starting straight (east) wins.
    assert_eq!(
        t.plan(&squad(), "C3", &["E4"], 9).unwrap(),
        (path(&["D3", "E4"]), 2)
    );
}

#[test]
fn move_000_not_enough_points_for_the_full_diagonal_cost() {
    // 000: "Should you lack the points to pay the full cost of the diagonal movement, you
    // cannot move any further in that direction."
    let t = Table::open(9, 9);
    assert!(t.plan(&squad(), "A1", &["B2", "C3"], 2).is_err());
    assert!(t.plan(&squad(), "A1", &["B2", "C2"], 2).is_ok());
}

// ---------------------------------------------------------------- movement: corners and walls

/// The base of the 000 corner diagrams: the no-dot square D4 is the end of the base wall.
fn base_corner() -> Table {
    let mut t = Table::open(9, 9);
    t.terrain(&["D4"], Terrain::Impassable);
    t
}

#[test]
fn move_000_luther_cannot_cut_the_base_corner() {
    // 000 "How does a unit move around a corner?" Luther example: A=D5, B=C4, the wall at D4.
    // "To reach point B, the Luther needs to spend 2: one move to the left, and one up."
    let t = base_corner();
    let luther = mover("luther", "axis", UnitType::Vehicle);
    assert_eq!(
        t.plan(&luther, "D5", &["C4"], 2).unwrap(),
        (path(&["C5", "C4"]), 2)
    );
    assert!(t.plan(&luther, "D5", &["C4"], 1).is_err());
    let e = t.plan(&luther, "D5", &["C4", "B4"], 9).unwrap_err();
    assert!(
        e.starts_with("vehicle cannot pass between D5 and C4"),
        "{e}"
    );
}

#[test]
fn move_000_combat_rangers_cut_the_corner_for_one() {
    // 000 same diagram: "They can move diagonally (costing them 1)".
    let t = base_corner();
    assert_eq!(
        t.plan(&squad(), "D5", &["C4"], 1).unwrap(),
        (path(&["C4"]), 1)
    );
}

#[test]
fn move_000_no_unit_between_two_blocked_corners() {
    // 000 "Important: No unit can ever move diagonally when both corners are blocked".
    let mut t = base_corner();
    t.terrain(&["C5"], Terrain::Impassable);
    let e = t.plan(&squad(), "D5", &["C4", "B4"], 9).unwrap_err();
    assert!(e.starts_with("no unit can pass between D5 and C4"), "{e}");
    // With one waypoint the path goes the long way round instead.
    let (p, _) = t.plan(&squad(), "D5", &["C4"], 20).unwrap();
    assert!(!p.contains(&"C5".to_string()) && !p.contains(&"D4".to_string()));
    assert!(p.len() > 1);
}

#[test]
fn move_000_vehicle_corner_blocked_by_any_unit_or_tank_trap() {
    // 000: blocked for a vehicle = no dot, a square occupied by a unit (any side), a tank trap.
    let luther = mover("luther", "axis", UnitType::Vehicle);
    for setup in 0..3 {
        let mut t = Table::open(9, 9);
        match setup {
            0 => t.unit("grenadiers", "axis", S, "D4"),
            1 => t.unit("rangers", "allies", S, "D4"),
            _ => t.put("D4", CoverKind::TankTrap),
        }
        let e = t.plan(&luther, "D5", &["C4", "B4"], 9).unwrap_err();
        assert!(
            e.starts_with("vehicle cannot pass between D5 and C4"),
            "setup {setup}: {e}"
        );
    }
}

#[test]
fn move_004_squad_corner_with_friend_is_open_with_enemy_blocked_once() {
    // 004: squads may move diagonally unless both corners are blocked (spaces they cannot
    // enter); a friendly unit's square is not blocked for them, an enemy's is.
    let mut t = Table::open(9, 9);
    t.unit("ludwig", "axis", V, "D4");
    assert!(t.plan(&squad(), "D5", &["C4"], 1).is_ok());
    t.unit("luther", "axis", V, "C5");
    assert!(t.plan(&squad(), "D5", &["C4", "B4"], 9).is_err());
}

#[test]
fn move_r11_walls_block_straight_steps_and_close_corners() {
    // R11: a wall between two squares blocks the step across it; a diagonal whose route past a
    // corner square crosses a wall treats that corner as blocked.
    let mut t = Table::open(9, 9);
    t.wall("D5", "D4"); // wall along the top of D5
    let e = t.plan(&squad(), "D5", &["D4", "D3"], 9).unwrap_err();
    assert_eq!(e, "a wall stands between D5 and D4");
    // One waypoint: around the wall end, through the open corner.
    assert_eq!(
        t.plan(&squad(), "D5", &["D4"], 9).unwrap(),
        (path(&["C4", "D4"]), 2)
    );
    // A squad may cut past the wall's end (one corner closed) …
    assert_eq!(
        t.plan(&squad(), "D5", &["C4"], 9).unwrap(),
        (path(&["C4"]), 1)
    );
    // … a vehicle may not.
    let e = t.plan(&vehicle(), "D5", &["C4", "B4"], 9).unwrap_err();
    assert!(
        e.starts_with("vehicle cannot pass between D5 and C4"),
        "{e}"
    );
    // A straight wall through the corner point closes the diagonal for everyone.
    t.wall("C5", "C4");
    let e = t.plan(&squad(), "D5", &["C4", "B4"], 9).unwrap_err();
    assert!(e.starts_with("no unit can pass between D5 and C4"), "{e}");
}

// ---------------------------------------------------------------- movement: units

#[test]
fn move_000_never_into_an_enemy_square() {
    // 000 "You can never enter a square occupied by an enemy."
    let mut t = Table::open(9, 9);
    t.unit("ludwig", "axis", V, "E5");
    let e = t.plan(&squad(), "E7", &["E6", "E5", "E4"], 9).unwrap_err();
    assert_eq!(e, "E5 is occupied by enemy unit ludwig");
    let e = t.plan(&squad(), "E7", &["E5"], 9).unwrap_err();
    assert!(e.starts_with("E5 is occupied by enemy unit ludwig"), "{e}");
}

#[test]
fn move_000_squads_pass_through_friends_but_do_not_stop_there() {
    // 000 "a squad or a hero may pass through a friendly unit … cannot end its move in the same
    // square as another unit".
    let mut t = Table::open(3, 9);
    t.terrain(&["A5", "C5"], Terrain::Impassable);
    t.unit("pounder", "allies", V, "B5");
    assert_eq!(
        t.plan(&squad(), "B6", &["B4"], 2).unwrap().0,
        path(&["B5", "B4"])
    );
    let e = t.plan(&squad(), "B6", &["B5"], 2).unwrap_err();
    assert!(
        e.starts_with("B5 is occupied by friendly unit pounder"),
        "{e}"
    );
}

#[test]
fn move_000_vehicles_never_pass_through_friends() {
    // 000 "A vehicle can never pass through a friendly soldier or vehicle unit".
    let mut t = Table::open(3, 9);
    t.terrain(&["A5", "C5"], Terrain::Impassable);
    t.unit("rangers", "allies", S, "B5");
    let e = t.plan(&vehicle(), "B6", &["B5", "B4"], 9).unwrap_err();
    assert!(e.contains("B5 is occupied by friendly unit rangers"), "{e}");
    assert!(t.plan(&vehicle(), "B6", &["B4"], 9).is_err());
}

#[test]
fn move_004_hero_may_end_with_a_friendly_unit() {
    // 004 "Heroes": a hero may share a space with a friendly unit, even a vehicle.
    let mut t = Table::open(9, 9);
    t.unit("pounder", "allies", V, "C3");
    t.unit("ludwig", "axis", V, "E3");
    assert_eq!(t.plan(&hero(), "C4", &["C3"], 1).unwrap().0, path(&["C3"]));
    assert!(t.plan(&hero(), "E4", &["E3"], 1).is_err());
    assert!(t.plan(&squad(), "C4", &["C3"], 1).is_err());
}

#[test]
fn move_a_unit_ignores_its_own_square() {
    // The mover's own entry in the occupancy does not block it.
    let mut t = Table::open(9, 9);
    t.unit("rangers", "allies", S, "C3");
    assert!(t.plan(&squad(), "C3", &["C5"], 2).is_ok());
    assert!(t.plan(&squad(), "C3", &["C3"], 2).is_err());
}

// ---------------------------------------------------------------- movement: terrain

#[test]
fn move_004_terrain_closed_to_vehicles() {
    // 004 "Terrain": rubble closed to vehicles, trees closed to all ground vehicles even with
    // Jump, deep water only for Jump, no dot for nobody.
    let t = Table::rows(&["+T~#..", "......", "......"]);
    let jv = Mover {
        jump: true,
        ..vehicle()
    };
    for (sq, v_ok, jv_ok, s_ok, j_ok) in [
        ("A1", false, true, true, true),
        ("B1", false, false, true, true),
        ("C1", false, true, false, true),
        ("D1", false, false, false, false),
    ] {
        let from = sq.replace('1', "2");
        assert_eq!(
            t.plan(&vehicle(), &from, &[sq], 9).is_ok(),
            v_ok,
            "vehicle {sq}"
        );
        assert_eq!(
            t.plan(&jv, &from, &[sq], 9).is_ok(),
            jv_ok,
            "jump vehicle {sq}"
        );
        assert_eq!(
            t.plan(&squad(), &from, &[sq], 9).is_ok(),
            s_ok,
            "squad {sq}"
        );
        assert_eq!(
            t.plan(&jumper(), &from, &[sq], 9).is_ok(),
            j_ok,
            "jump squad {sq}"
        );
    }
    let e = t.plan(&squad(), "C2", &["C1"], 9).unwrap_err();
    assert_eq!(
        e,
        "C1 is deep water: only units with Jump or Amphibious Unit may enter it"
    );
}

#[test]
fn move_004_cover_elements() {
    // 004: ammo crates open to all (a vehicle may crush it); anti-tank traps closed to vehicles.
    let mut t = Table::open(9, 9);
    t.put("C3", CoverKind::AmmoCrate);
    t.put("E3", CoverKind::TankTrap);
    let v = vehicle();
    let p = plan_move(&t.board, &t.occ, &v, t.sq("C5"), &[t.sq("C3")], 2).unwrap();
    assert_eq!(p.crushed, vec![t.sq("C3")]);
    let p = plan_move(&t.board, &t.occ, &squad(), t.sq("C5"), &[t.sq("C3")], 2).unwrap();
    assert!(p.crushed.is_empty(), "only vehicles crush crates");
    let e = t.plan(&v, "E5", &["E4", "E3"], 9).unwrap_err();
    assert!(e.starts_with("E3 holds an anti-tank trap"), "{e}");
    assert!(t.plan(&squad(), "E5", &["E3"], 2).is_ok());
}

// ---------------------------------------------------------------- movement: Jump

#[test]
fn move_004_jump_over_units_and_cover_but_land_empty() {
    // 004 "Jump": ignore an obstacle (a cover element or another unit), land in an empty space.
    let mut t = Table::open(3, 9);
    t.terrain(&["A5", "C5", "A4", "C4"], Terrain::Impassable);
    t.unit("grenadiers", "axis", S, "B5");
    t.put("B4", CoverKind::TankTrap);
    assert_eq!(
        t.plan(&jumper(), "B6", &["B3"], 3).unwrap().0,
        path(&["B5", "B4", "B3"])
    );
    assert!(t.plan(&squad(), "B6", &["B3"], 9).is_err());
    let e = t.plan(&jumper(), "B6", &["B5"], 9).unwrap_err();
    assert!(
        e.starts_with("B5 is occupied by enemy unit grenadiers"),
        "{e}"
    );
}

#[test]
fn move_004_jump_not_over_no_dot_or_vehicles() {
    // 004 "Jump": cannot jump over a space without a dot (a terrain square or a vehicle).
    let mut t = Table::open(3, 9);
    t.terrain(&["A5", "C5"], Terrain::Impassable);
    t.unit("luther", "axis", V, "B5");
    let e = t.plan(&jumper(), "B6", &["B5", "B4"], 9).unwrap_err();
    assert_eq!(
        e,
        "B5 is occupied by enemy unit luther (Jump cannot pass over a vehicle)"
    );
    t.occ.clear();
    t.terrain(&["B5"], Terrain::Impassable);
    assert!(t.plan(&jumper(), "B6", &["B4"], 9).is_err());
}

#[test]
fn move_000_hot_dog_jumps_the_tank_trap() {
    // 000 "Jump" example: the Hot Dog (a vehicle with Jump, 1 MP; a double move gives 2 in 000)
    // cannot get past the tank-trap normally; jumping, it lands beyond it, never on a square
    // occupied by another unit "no matter which side it is on". Here the trap fills the gap in
    // a wall of no-dot squares (R14).
    let mut t = Table::rows(&["......", "......", "##.###", "......", "......", "......"]);
    t.put("C3", CoverKind::TankTrap);
    let hot_dog = Mover {
        jump: true,
        ..mover("hot-dog", "allies", UnitType::Vehicle)
    };
    let e = t.plan(&vehicle(), "C4", &["C2"], 2).unwrap_err();
    assert!(e.starts_with("no legal path"), "{e}");
    assert_eq!(
        t.plan(&hot_dog, "C4", &["C2"], 2).unwrap(),
        (path(&["C3", "C2"]), 2)
    );
    assert!(t.plan(&hot_dog, "C4", &["C2"], 1).is_err());
    let e = t.plan(&hot_dog, "C4", &["C3"], 2).unwrap_err();
    assert!(e.contains("C3") && e.contains("not stop"), "{e}");
    // The vehicle corner rule still applies while jumping: no diagonal past the wall squares.
    assert!(t.plan(&hot_dog, "C4", &["C3", "B2"], 9).is_err());
    for side in ["allies", "axis"] {
        let mut t2 = Table::rows(&["......", "......", "##.###", "......", "......", "......"]);
        t2.put("C3", CoverKind::TankTrap);
        t2.unit("someone", side, S, "C2");
        let e = t2.plan(&hot_dog, "C4", &["C2"], 2).unwrap_err();
        assert!(e.starts_with("C2 is occupied by"), "{side}: {e}");
    }
}

#[test]
fn move_errors_name_the_rule() {
    // Errors that reach a player say which rule: every MoveError carries its rulebook passage.
    let mut t = base_corner();
    t.unit("ludwig", "axis", V, "E5");
    let cases: [(&Mover, &str, &[&str], u32); 4] = [
        (&vehicle(), "D5", &["C4", "B4"], 9),
        (&squad(), "E6", &["E5"], 9),
        (&squad(), "A1", &["A9"], 2),
        (&squad(), "C4", &["D4"], 9),
    ];
    for (m, from, to, mp) in cases {
        let wps: Vec<Square> = to.iter().map(|n| t.sq(n)).collect();
        let e = plan_move(&t.board, &t.occ, m, t.sq(from), &wps, mp).unwrap_err();
        assert!(
            e.rule.starts_with("00"),
            "{from}→{to:?}: {} / {}",
            e.reason,
            e.rule
        );
    }
}

#[test]
fn move_004_jump_crosses_and_lands_in_deep_water() {
    // 004 "Terrain": deep water blocks movement except for units with Jump.
    let t = Table::rows(&["...", "~~~", "..."]);
    assert_eq!(
        t.plan(&jumper(), "B3", &["B1"], 2).unwrap().0,
        path(&["B2", "B1"])
    );
    assert!(t.plan(&jumper(), "B3", &["B2"], 2).is_ok());
    assert!(t.plan(&squad(), "B3", &["B1"], 9).is_err());
}

#[test]
fn move_waypoints_are_passed_in_order() {
    // Several waypoints: the cheapest path through them in order.
    let t = Table::open(9, 9);
    let (p, cost) = t.plan(&squad(), "A1", &["A3", "C3"], 9).unwrap();
    assert_eq!(p, path(&["A2", "A3", "B3", "C3"]));
    assert_eq!(cost, 4);
    let e = t.plan(&squad(), "A1", &["A3", "C3"], 3).unwrap_err();
    assert_eq!(
        e,
        "C3 is 4 movement points away along the ordered path, rangers has 3"
    );
}

#[test]
fn move_unreachable_destination_says_so() {
    let t = Table::rows(&["...", "###", "..."]);
    let e = t.plan(&squad(), "B3", &["B1"], 9).unwrap_err();
    assert!(
        e.starts_with("no legal path takes rangers from B3 to B1"),
        "{e}"
    );
}

// ---------------------------------------------------------------- line of sight

#[test]
fn los_000_no_dot_squares_block() {
    // 000 "What blocks line of sight?": all squares without a dot block LOS.
    let mut t = Table::open(9, 9);
    t.terrain(&["E5"], Terrain::Impassable);
    assert!(!t.sees("C5", V, "G5", V));
    assert!(!t.sees("C3", V, "G7", S));
    assert!(t.sees("C4", V, "G4", V));
}

#[test]
fn los_blocked_says_where_and_why() {
    // Reports must say why a shot is impossible: the square and the rule.
    let mut t = Table::open(9, 9);
    t.unit("pounder", "allies", V, "E5");
    let sight = |a: &str, b: &str| {
        line_of_sight(
            &t.board,
            &t.occ,
            Sighter {
                square: t.sq(a),
                unit_type: S,
            },
            Sighter {
                square: t.sq(b),
                unit_type: S,
            },
        )
    };
    match sight("C5", "G5") {
        Sight::Blocked { at, why } => {
            assert_eq!(at, t.sq("E5"));
            assert_eq!(why, "vehicle pounder on E5 blocks line of sight");
        }
        Sight::Clear => panic!("the Pounder is in the way"),
    }
    let mut t = Table::open(9, 9);
    t.terrain(&["D4"], Terrain::Impassable);
    t.terrain(&["C5"], Terrain::Trees);
    let Sight::Blocked { why, .. } = line_of_sight(
        &t.board,
        &t.occ,
        Sighter {
            square: t.sq("C4"),
            unit_type: V,
        },
        Sighter {
            square: t.sq("D5"),
            unit_type: V,
        },
    ) else {
        panic!("C4 and D5 sit between two blocking corners");
    };
    assert!(
        why.contains("opposite corners") && why.contains("D4") && why.contains("C5"),
        "{why}"
    );
}

#[test]
fn los_000_tank_trap_blocks_only_soldier_to_soldier() {
    // 000 "the Pounder may shoot at the Grenadiers … behind a tank-trap … The Grenadiers may
    // shoot at the Pounder as well … they cannot shoot the Rangers".
    let mut t = Table::open(9, 9);
    t.put("E5", CoverKind::TankTrap);
    assert!(t.sees("C5", V, "F5", S), "Pounder → Grenadiers");
    assert!(t.sees("F5", S, "C5", V), "Grenadiers → Pounder");
    assert!(!t.sees("F5", S, "C5", S), "Grenadiers ↛ Rangers");
}

#[test]
fn los_000_squads_block_only_squad_to_squad() {
    // 000: Combat Rangers (A1) cannot shoot the Laser Grenadiers (A3) past the Assault Rangers
    // (A2), but may shoot the Luther (A4) behind them; the Luther may shoot both Ranger squads.
    let mut t = Table::open(3, 6);
    t.unit("assault", "allies", S, "A2");
    t.unit("laser", "axis", S, "A3");
    t.unit("luther", "axis", V, "A4");
    assert!(!t.sees("A1", S, "A3", S));
    assert!(t.sees("A1", S, "A4", V));
    assert!(t.sees("A4", V, "A2", S));
    assert!(t.sees("A4", V, "A1", S));
}

#[test]
fn los_000_vehicles_block_everything_beyond_them() {
    // 000 "The Combat Rangers cannot shoot through the square occupied by the Pounder."
    let mut t = Table::open(9, 9);
    t.unit("pounder", "allies", V, "C5");
    for target in ["D5", "I5", "E6", "E4"] {
        assert!(!t.sees("A5", S, target, S), "{target}");
        assert!(!t.sees("A5", V, target, V), "{target}");
    }
    assert!(t.sees("A5", S, "E7", S), "the line to E7 passes below C5");
}

#[test]
fn los_000_ammo_crates_never_block() {
    let mut t = Table::open(9, 9);
    t.put("E5", CoverKind::AmmoCrate);
    assert!(t.squad_sees("C5", "G5"));
}

#[test]
fn los_004_smoke_blocks_and_limits_units_on_it_to_adjacent() {
    // 004 "Terrain": diamond spaces block all LOS; a unit on one attacks and is attacked only
    // from an adjacent space.
    let mut t = Table::open(9, 9);
    t.terrain(&["E5"], Terrain::Smoke);
    assert!(!t.sees("C5", V, "G5", V));
    assert!(t.sees("E5", S, "F6", S));
    assert!(t.sees("D5", S, "E5", S));
    assert!(!t.sees("E5", S, "G5", S));
    assert!(!t.sees("E3", S, "E5", V));
}

#[test]
fn los_004_trees_block_except_for_a_soldier_inside() {
    // 004 "Terrain": trees block LOS, but a soldier unit in a tree sees and is seen normally.
    let mut t = Table::open(9, 9);
    t.terrain(&["E5", "F5"], Terrain::Trees);
    assert!(!t.squad_sees("C5", "G5"));
    assert!(t.squad_sees("C5", "E5"), "soldier in the first tree square");
    assert!(
        !t.squad_sees("C5", "F5"),
        "the other tree square is in the way"
    );
}

#[test]
fn los_004_water_and_rubble_do_not_block() {
    let t = Table::rows(&["...", "~+.", "..."]);
    assert!(t.sees("A1", S, "A3", V));
    assert!(t.sees("B1", V, "B3", S));
}

#[test]
fn los_r12_walls_block_and_their_ends_can_be_skimmed() {
    // R12: a wall blocks a line that crosses it; a line through a wall's end point skims it.
    let mut t = Table::open(9, 9);
    t.wall("D5", "E5");
    t.wall("D4", "E4");
    assert!(!t.squad_sees("C5", "G5"));
    assert!(!t.squad_sees("D5", "E5"), "adjacent across a wall");
    assert!(t.squad_sees("C6", "G6"));
    // D6→E5 passes through the lower end of the D5|E5 wall: a skim, allowed.
    assert!(t.squad_sees("D6", "E5"));
    // C7→F4 (45°) passes through the lower end of the D5|E5 wall: one side only, allowed.
    assert!(t.sees("C7", V, "F4", V));
}

#[test]
fn los_000_opposite_corners_block_same_side_corners_do_not() {
    // 004 "LOS Around Corners": units adjacent to impassable terrain can target each other when
    // both get corner cover from the same side, not from different sides. A5↔E1 is a 45° line.
    let mut t = Table::open(9, 9);
    t.terrain(&["B5", "E2"], Terrain::Impassable); // both below the line
    assert!(t.squad_sees("A5", "E1"));
    assert_eq!(t.cover("A5", S, "E1"), Cover::Soft);
    assert_eq!(t.cover("E1", S, "A5"), Cover::Soft);
    let mut t = Table::open(9, 9);
    t.terrain(&["A4", "E2"], Terrain::Impassable); // A4 above the line, E2 below
    assert!(!t.squad_sees("A5", "E1"));
    assert!(!t.sees("A5", V, "E1", V));
}

#[test]
fn los_000_diagonal_neighbours_between_two_blocked_corners() {
    // 000: the opposite-corner rule applies to anything that blocks: wall squares or vehicles.
    let mut t = Table::open(9, 9);
    t.terrain(&["D4"], Terrain::Impassable);
    t.unit("pounder", "allies", V, "C5");
    assert!(!t.squad_sees("C4", "D5"));
    t.occ.clear();
    assert!(t.squad_sees("C4", "D5"), "one blocked corner is a skim");
}

#[test]
fn los_000_a1_to_a4_b1_to_b4_example() {
    // 000 "Shooting rules" example (picture lost; layout reconstructed in R16): building squares
    // A1–C3; A1..A4 stand on A4, B4, C4, D4 along its bottom wall, B1..B4 on E4, E3, E2, E1.
    // "Shooting from A1 to B1 is possible. Shooting from A1 to all other B squares is impossible.
    // A2 to B1 and B2 … A3 to B1, B2, and B3 … A3 to B4 is impossible. A4 to all B squares."
    let t = Table::rows(&[
        "###......",
        "###......",
        "###......",
        ".........",
        ".........",
        ".........",
    ]);
    let a = ["A4", "B4", "C4", "D4"];
    let b = ["E4", "E3", "E2", "E1"];
    for (i, ai) in a.iter().enumerate() {
        for (j, bj) in b.iter().enumerate() {
            let possible = i == 3 || j <= i;
            assert_eq!(
                t.squad_sees(ai, bj),
                possible,
                "A{} ({ai}) → B{} ({bj})",
                i + 1,
                j + 1
            );
        }
    }
}

// ---------------------------------------------------------------- cover

#[test]
fn cover_004_cover_elements_and_terrain_on_the_target_square() {
    // 004 "Cover": ammo crate soft, anti-tank trap hard; rubble and trees soft to squads.
    let mut t = Table::rows(&[".........", "..+T.....", "........."]);
    t.put("A2", CoverKind::AmmoCrate);
    t.put("B2", CoverKind::TankTrap);
    assert_eq!(t.cover("A3", V, "A2"), Cover::Soft);
    assert_eq!(t.cover("B3", V, "B2"), Cover::Hard);
    assert_eq!(t.cover("C3", V, "C2"), Cover::Soft);
    assert_eq!(t.cover("D3", S, "D2"), Cover::Soft);
    assert_eq!(t.cover("E3", S, "E2"), Cover::None);
}

/// 000 corner-cover diagram, reconstructed (R17): the no-dot square C3 is the base wall; the
/// Combat Rangers stand on D3 next to it.
fn corner_table() -> Table {
    let mut t = Table::open(9, 9);
    t.terrain(&["C3"], Terrain::Impassable);
    t
}

#[test]
fn cover_000_corner_cover_on_a_45_degree_shot() {
    // 000/004: "When the Battle Grenadiers shoot, the Combat Rangers are behind SOFT COVER":
    // Battle Grenadiers on B1, the line to D3 skims the corner of C3.
    let t = corner_table();
    assert!(t.squad_sees("B1", "D3"));
    assert_eq!(t.cover("B1", S, "D3"), Cover::Soft);
    let r = cover_explained(
        &t.board,
        &t.occ,
        Sighter {
            square: t.sq("B1"),
            unit_type: S,
        },
        Sighter {
            square: t.sq("D3"),
            unit_type: S,
        },
    );
    assert_eq!(r.sources, vec![CoverSource::Corner(t.sq("C3"))]);
    assert_eq!(r.sources[0].to_string(), "corner of C3 (soft cover)");
}

#[test]
fn cover_004_no_corner_cover_unless_the_shot_is_at_45_degrees() {
    // 004 "Corner cover only applies if the attack is at a 45 degree angle" (the Laser
    // Grenadiers of 000 get no cover): the line C1→D4 skims the corner of C3 at a steeper angle.
    let mut t = Table::open(9, 9);
    t.terrain(&["C4"], Terrain::Impassable);
    assert!(t.squad_sees("C2", "D5"));
    assert_eq!(t.cover("C2", S, "D5"), Cover::None);
}

#[test]
fn cover_000_no_corner_cover_when_the_line_does_not_skim() {
    // 000 "When the Recon Grenadiers shoot … the line of sight does not skim past the corner."
    let t = corner_table();
    assert_eq!(t.cover("F1", S, "D3"), Cover::None);
    assert_eq!(t.cover("G3", S, "D3"), Cover::None);
}

#[test]
fn cover_000_no_corner_cover_when_not_adjacent_to_the_corner() {
    // 000 "Since the Battle Grenadiers are not right next to the wall, they are not behind cover
    // when the Combat Rangers shoot at them."
    let t = corner_table();
    assert_eq!(t.cover("D3", S, "B1"), Cover::None);
}

#[test]
fn cover_000_corner_made_by_a_vehicle_counts_by_a_squad_does_not() {
    // 000 "If X is a squad … would not benefit from cover … If X is a vehicle … SOFT COVER".
    let mut t = Table::open(9, 9);
    t.unit("x", "allies", S, "C3");
    // "The Grenadiers could shoot either of the two units": the line only skims X's corner.
    assert!(t.squad_sees("B1", "D3"));
    assert_eq!(t.cover("B1", S, "D3"), Cover::None);
    let mut t = Table::open(9, 9);
    t.unit("x", "allies", V, "C3");
    assert!(t.squad_sees("B1", "D3"));
    assert_eq!(t.cover("B1", S, "D3"), Cover::Soft);
}

#[test]
fn cover_000_crate_and_corner_make_hard_cover() {
    // 000 "A squad behind SOFT COVER from both an ammo crate and a corner … is behind HARD COVER."
    let mut t = corner_table();
    t.put("D3", CoverKind::AmmoCrate);
    assert_eq!(t.cover("B1", S, "D3"), Cover::Hard);
}

#[test]
fn cover_r18_wall_end_gives_corner_cover() {
    // R18: the end of a base wall beside the target is a corner too (004: structure walls
    // provide corner cover).
    let mut t = Table::open(9, 9);
    t.wall("C3", "D3");
    assert!(t.squad_sees("B1", "D3"));
    assert_eq!(t.cover("B1", S, "D3"), Cover::Soft);
}

// ---------------------------------------------------------------- properties

mod props {
    use super::*;
    use proptest::prelude::*;

    fn arb_table() -> impl Strategy<Value = (Table, Vec<(u8, u8, bool)>)> {
        (
            proptest::collection::vec(0u8..10, 81),
            proptest::collection::vec((0u8..9, 0u8..9, any::<bool>()), 0..6),
            proptest::collection::vec((0u8..9, 0u8..9, any::<bool>()), 0..8),
        )
            .prop_map(|(cells, walls, units)| {
                let mut t = Table::open(9, 9);
                for (i, c) in cells.iter().enumerate() {
                    let sq = t.board.square((i % 9) as i32, (i / 9) as i32).unwrap();
                    let terrain = match c {
                        0 => Terrain::Impassable,
                        1 => Terrain::DeepWater,
                        2 => Terrain::Rubble,
                        3 => Terrain::Smoke,
                        4 => Terrain::Trees,
                        _ => Terrain::Open,
                    };
                    t.board.set_terrain(sq, terrain);
                    if *c == 5 {
                        let _ = t.board.place_cover(sq, CoverKind::AmmoCrate);
                    } else if *c == 6 {
                        let _ = t.board.place_cover(sq, CoverKind::TankTrap);
                    }
                }
                for (c, r, down) in walls {
                    let a = t.board.square(c as i32, r as i32).unwrap();
                    let b = if down {
                        t.board.square(c as i32, r as i32 + 1)
                    } else {
                        t.board.square(c as i32 + 1, r as i32)
                    };
                    if let Some(b) = b {
                        t.board.add_wall(a, b).unwrap();
                    }
                }
                let mut placed = Vec::new();
                for (i, (c, r, enemy)) in units.iter().enumerate() {
                    let sq = t.board.square(*c as i32, *r as i32).unwrap();
                    if t.occ.contains_key(&sq) {
                        continue;
                    }
                    let ty = if i % 3 == 0 { V } else { S };
                    t.unit(
                        &format!("u{i}"),
                        if *enemy { "axis" } else { "allies" },
                        ty,
                        &sq.to_string(),
                    );
                    placed.push((*c, *r, *enemy));
                }
                (t, placed)
            })
    }

    fn ty(i: u8) -> UnitType {
        match i % 3 {
            0 => UnitType::Squad,
            1 => UnitType::Hero,
            _ => UnitType::Vehicle,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn los_is_symmetric((t, _) in arb_table(), a in (0u8..9, 0u8..9, 0u8..3), b in (0u8..9, 0u8..9, 0u8..3)) {
            // 004 LOS reciprocity.
            let from = Sighter { square: t.board.square(a.0 as i32, a.1 as i32).unwrap(), unit_type: ty(a.2) };
            let to = Sighter { square: t.board.square(b.0 as i32, b.1 as i32).unwrap(), unit_type: ty(b.2) };
            let ab = line_of_sight(&t.board, &t.occ, from, to) == Sight::Clear;
            let ba = line_of_sight(&t.board, &t.occ, to, from) == Sight::Clear;
            prop_assert_eq!(ab, ba);
        }

        #[test]
        fn distance_is_symmetric_and_the_ruling_formula(a in (0u8..26, 0u8..99), b in (0u8..26, 0u8..99)) {
            // DESIGN ruling 1.
            let board = Board::open(24, 99).unwrap();
            let (Some(sa), Some(sb)) = (board.square(a.0 as i32 % 24, a.1 as i32), board.square(b.0 as i32 % 24, b.1 as i32)) else {
                return Ok(());
            };
            let (dx, dy) = sa.delta(sb);
            let (dx, dy) = (dx as u32, dy as u32);
            let expect = if dx > 0 && dy > 0 { dx + dy - 1 } else { dx.max(dy) };
            prop_assert_eq!(distance(sa, sb), expect);
            prop_assert_eq!(distance(sb, sa), expect);
        }

        #[test]
        fn plan_move_only_legal_paths((t, _) in arb_table(), from in (0u8..9, 0u8..9), to in (0u8..9, 0u8..9),
                                     kind in 0u8..3, jump in any::<bool>(), agile in any::<bool>(), mp in 0u32..8) {
            let mover = Mover { jump, agile, tracked: false, ..mover("me", "allies", ty(kind)) };
            let from = t.board.square(from.0 as i32, from.1 as i32).unwrap();
            let to = t.board.square(to.0 as i32, to.1 as i32).unwrap();
            if let Ok(plan) = plan_move(&t.board, &t.occ, &mover, from, &[to], mp) {
                prop_assert!(plan.cost <= mp);
                prop_assert_eq!(plan.path.last().copied(), Some(to));
                let mut at = from;
                let mut cost = 0;
                let mut diag = false;
                for &sq in &plan.path {
                    prop_assert!(at.adjacent(sq), "{} then {}", at, sq);
                    prop_assert!(t.board.terrain(sq) != Terrain::Impassable);
                    for o in t.occ.get(&sq).into_iter().flatten() {
                        // Jumpers may pass over enemy soldiers, never vehicles.
                        let ok = o.side == "allies" || (jump && o.unit_type != V);
                        prop_assert!(ok, "entered {} held by enemy {}", sq, o.unit);
                    }
                    if (at.col() != sq.col()) && (at.row() != sq.row()) {
                        // Corner rules (004): walls or no-dot squares at a corner close it.
                        let corners = [
                            t.board.square(sq.col() as i32, at.row() as i32).unwrap(),
                            t.board.square(at.col() as i32, sq.row() as i32).unwrap(),
                        ];
                        let closed: Vec<bool> = corners.iter().map(|&c| {
                            t.board.terrain(c) == Terrain::Impassable
                                || t.board.wall_between(at, c)
                                || t.board.wall_between(c, sq)
                        }).collect();
                        if mover.unit_type == V {
                            prop_assert!(!closed[0] && !closed[1], "vehicle cut a corner {} {}", at, sq);
                        } else {
                            prop_assert!(!(closed[0] && closed[1]), "passed between corners {} {}", at, sq);
                        }
                        cost += if diag && !agile { 2 } else { 1 };
                        diag = true;
                    } else {
                        prop_assert!(!t.board.wall_between(at, sq));
                        cost += 1;
                    }
                    at = sq;
                }
                prop_assert_eq!(cost, plan.cost);
                let end = t.occ.get(&to).map(|v| v.len()).unwrap_or(0);
                let hero_share = mover.unit_type == UnitType::Hero && end == 1
                    && t.occ[&to][0].side == "allies";
                prop_assert!(end == 0 || hero_share, "ended on occupied {}", to);
                if mover.unit_type == V {
                    prop_assert!(!matches!(t.board.terrain(to), Terrain::Trees));
                    prop_assert!(t.board.cover_kind(to) != Some(CoverKind::TankTrap));
                }
            }
        }

        #[test]
        fn plan_move_on_open_ground_costs_the_distance(from in (0u8..9, 0u8..9), to in (0u8..9, 0u8..9)) {
            // DESIGN ruling 1: the cheapest path on open ground costs exactly `distance`.
            let t = Table::open(9, 9);
            let from = t.board.square(from.0 as i32, from.1 as i32).unwrap();
            let to = t.board.square(to.0 as i32, to.1 as i32).unwrap();
            prop_assume!(from != to);
            let plan = plan_move(&t.board, &t.occ, &squad(), from, &[to], 99).unwrap();
            prop_assert_eq!(plan.cost, distance(from, to));
        }
    }
}
