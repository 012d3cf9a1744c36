//! 002 "Bunkers and Strongpoints" under battlefront-2013 (issue 18): bunkers (R780–R784). A
//! scenario lists each by its two inside squares and the direction its firing slit faces
//! (`[fortifications] bunkers = [{ squares = ["D4", "E4"], facing = "N" }]`); its rear doors are
//! on the opposite side. What 002 says of "Bunkers and Strongpoints" alike is played by
//! `battlefront::strongpoints` on both kinds ([`Shell`]); this module holds what only a bunker
//! has: impassable walls but for the rear doors, sight through the slit, the weapons that cannot
//! fire from within, and the harder saves (army or shield).

use super::super::flow::Refusal;
use super::super::geometry::Mover;
use super::super::model::{Armour, Board, Square, Terrain, UnitType, WeaponLine, WeaponRange};
use super::super::state::State;
use super::facing::Facing;
use super::skills002::Skill002;
use serde::{Deserialize, Serialize};

/// The section refusals and briefings cite.
pub const CITE: &str = "002 \"Bunkers and Strongpoints\"";

/// The purpose of a bunker's re-roll of a failed save (army or shield cancels, R782).
pub const REROLL: &str = "bunker re-roll";
/// The purpose (and report name) of the save against close-combat weapons (R782).
pub const CLOSE_SAVE: &str = "bunker save";

/// A bunker: its two inside squares (sorted) and the side its firing slit faces (R780).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bunker {
    pub squares: [Square; 2],
    pub facing: Facing,
}

/// `[[fortifications.bunkers]]` as a scenario file writes it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBunker {
    squares: Vec<String>,
    facing: String,
}

impl RawBunker {
    /// A bunker as a player's `place bunker` order gives it (R589), read as the file's.
    pub fn new(squares: Vec<String>, facing: String) -> RawBunker {
        RawBunker { squares, facing }
    }
}

/// A fortification with walls: a strongpoint (no facing) or a bunker (its facing). 002 says
/// much of "Bunkers and Strongpoints" alike; this is what those rules are played on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shell {
    pub squares: [Square; 2],
    pub facing: Option<Facing>,
}

impl Shell {
    /// "bunker" or "strongpoint", as reports name it.
    pub fn name(&self) -> &'static str {
        if self.facing.is_some() {
            "bunker"
        } else {
            "strongpoint"
        }
    }

    /// How far `sq` lies ahead of the bunker's front, in rows or columns towards its facing
    /// (negative behind it, 0 level with it); 0 for a strongpoint.
    fn ahead(&self, sq: Square) -> i32 {
        let Some(f) = self.facing else {
            return 0;
        };
        let (fx, fy) = vector(f);
        let s = self.squares[0];
        (sq.col() as i32 - s.col() as i32) * fx + (sq.row() as i32 - s.row() as i32) * fy
    }

    /// Whether `sq` is next to (orthogonally or diagonally) one of the inside squares.
    fn next_to(&self, sq: Square) -> bool {
        !self.squares.contains(&sq) && self.squares.iter().any(|s| s.adjacent(sq))
    }

    /// Whether a square next to the bunker stands at its rear doors (R781).
    fn at_doors(&self, sq: Square) -> bool {
        self.next_to(sq) && self.ahead(sq) == -1
    }

    /// 002 "Line of Sight To Bunkers and Strongpoints": "Units in Bunkers can only see and be
    /// seen from 90 degrees either side of the direction the Bunker is facing" (R781): why
    /// `outside` is not seen from inside this bunker, if it is not. A square ahead of the front
    /// is seen; one level with the bunker or behind it is not, but for the squares at its rear
    /// doors, from which close combat is fought (checked per weapon in [`check_line`]).
    pub fn walls_block(&self, outside: Square) -> Option<String> {
        let f = self.facing?;
        (self.ahead(outside) <= 0 && !self.at_doors(outside)).then(|| {
            format!(
                "the walls of the bunker on {}+{} facing {f}: it sees and is seen only ahead of its front (002 \"Line of Sight To Bunkers and Strongpoints\", R781)",
                self.squares[0], self.squares[1]
            )
        })
    }
}

/// The board step of a facing (north is towards row 1).
fn vector(f: Facing) -> (i32, i32) {
    match f {
        Facing::N => (0, -1),
        Facing::E => (1, 0),
        Facing::S => (0, 1),
        Facing::W => (-1, 0),
        Facing::NE => (1, -1),
        Facing::SE => (1, 1),
        Facing::SW => (-1, 1),
        Facing::NW => (-1, -1),
    }
}

/// Every strongpoint and bunker of the game's scenario.
pub fn shells(state: &State) -> Vec<Shell> {
    let Some(f) = state.scenario.fortifications.as_ref() else {
        return vec![];
    };
    let strong = f.strongpoints.iter().map(|p| Shell {
        squares: *p,
        facing: None,
    });
    let bunk = f.bunkers.iter().map(|b| Shell {
        squares: b.squares,
        facing: Some(b.facing),
    });
    strong.chain(bunk).collect()
}

/// The strongpoint or bunker `sq` is inside, if any.
pub fn shell_at(state: &State, sq: Square) -> Option<Shell> {
    shells(state).into_iter().find(|s| s.squares.contains(&sq))
}

/// Validates `bunkers` (R780): two squares side by side as a strongpoint's (the same placement
/// limits, two squares from every other bunker and strongpoint), facing one of N, E, S, W
/// across the pair (its long side holds the slit; the doors are on the other).
pub fn parse(
    raw: &[RawBunker],
    board: &Board,
    trenches: &[Square],
    strongpoints: &[[Square; 2]],
) -> Result<Vec<Bunker>, (String, String)> {
    let pairs: Vec<Vec<String>> = raw.iter().map(|b| b.squares.clone()).collect();
    let squares =
        super::strongpoints::parse_pairs(&pairs, "bunkers", board, trenches, strongpoints)?;
    let mut out = vec![];
    for (i, (b, [a, c])) in raw.iter().zip(squares).enumerate() {
        let across = if a.row() == c.row() {
            [Facing::N, Facing::S]
        } else {
            [Facing::E, Facing::W]
        };
        let Some(facing) = Facing::parse(&b.facing).filter(|f| across.contains(f)) else {
            return Err((
                format!("fortifications.bunkers[{i}].facing"),
                format!("`{}` is not a side of the bunker on {a}+{c}: write \"{}\" or \"{}\", the side its firing slit faces ({CITE}: \"the direction the Bunker is facing\"; the rear doors are on the other side)", b.facing, across[0], across[1]),
            ));
        };
        out.push(Bunker {
            squares: [a, c],
            facing,
        });
    }
    Ok(out)
}

/// Whether a unit of another side than `side` stands inside `shell`.
fn enemy_inside(state: &State, shell: &Shell, side: &str) -> bool {
    state.units.iter().any(|u| {
        !u.destroyed && u.side != side && u.at.is_some_and(|sq| shell.squares.contains(&sq))
    })
}

/// 002 "Movement Through Bunkers and Strongpoints": "Bunker walls are Impassable terrain.
/// Nothing can move through them, except through the armoured doors at the rear, and even
/// then, not if the Bunker is occupied by an enemy Unit." A move whose waypoint is inside a
/// bunker an enemy holds is refused (R781); vehicles are refused by `strongpoints::check_move`.
pub fn check_move(state: &State, mover: &Mover, path: &[Square]) -> Result<(), Refusal> {
    for sq in path {
        let Some(b) = shell_at(state, *sq).filter(|s| s.facing.is_some()) else {
            continue;
        };
        if enemy_inside(state, &b, &mover.side) {
            return Err(Refusal {
                reason: format!("{sq} is inside the bunker on {}+{}, which an enemy unit occupies", b.squares[0], b.squares[1]),
                rule: format!("{CITE}, \"Movement Through Bunkers and Strongpoints\": \"Nothing can move through them, except through the armoured doors at the rear, and even then, not if the Bunker is occupied by an enemy Unit\" (R781)"),
                instead: "attack the unit inside from next to the firing slit or the rear doors".to_string(),
            });
        }
    }
    Ok(())
}

/// The movement board's bunkers (R781): for infantry a wall on every side of the two inside
/// squares but the rear (the doors), or the whole bunker closed when an enemy unit is inside;
/// for vehicles `strongpoints::closed_board` closes both squares of every shell.
pub fn close(state: &State, board: &mut Board, mover: &Mover) {
    if mover.unit_type == UnitType::Vehicle {
        return;
    }
    for b in shells(state).iter().filter(|s| s.facing.is_some()) {
        if enemy_inside(state, b, &mover.side) {
            for sq in b.squares {
                board.set_terrain(sq, Terrain::Impassable);
            }
            continue;
        }
        for sq in b.squares {
            let around: Vec<Square> = board.neighbours(sq).collect();
            for n in around {
                let side = sq.delta(n).0 + sq.delta(n).1 == 1;
                if side && !b.squares.contains(&n) && b.ahead(n) != -1 {
                    let _ = board.add_wall(sq, n);
                }
            }
        }
    }
}

/// 002 "Weapons in Bunkers" and "Close-combat Against Bunkers and Strongpoints" for one line
/// of `shooter` on `from` at the square `to` (R782, R783): no fire at aircraft and no artillery
/// from within a bunker; only close combat through the rear doors (beside the bunker nothing is
/// seen); a Strongpoint unit's main weapon (its card's first line) fires within 45 degrees
/// either side of the bunker's facing.
pub fn check_line(
    state: &State,
    (shooter, from): (&str, Square),
    (target, to): (Option<&str>, Square),
    w: &WeaponLine,
) -> Result<(), Refusal> {
    let (mine, theirs) = (shell_at(state, from), shell_at(state, to));
    if mine == theirs {
        return Ok(());
    }
    let aircraft = target
        .and_then(|t| state.unit(t))
        .and_then(|u| state.cards.get(&u.card))
        .is_some_and(|c| matches!(c.armour, Armour::Aircraft(_)));
    let rule = |s: &str| format!("{CITE}, {s}");
    if let Some(b) = mine.filter(|s| s.facing.is_some()) {
        if aircraft {
            return Err(Refusal {
                reason: format!("{shooter} is inside the bunker on {from} and its target is an aircraft"),
                rule: rule("\"Weapons in Bunkers\": \"Weapons cannot fire at Aircraft from within a Bunker\" (R782)"),
                instead: "move out of the bunker first, or choose a ground target".into(),
            });
        }
        if w.range == WeaponRange::Artillery {
            return Err(Refusal {
                reason: format!("{shooter} is inside the bunker on {from} and {} is an artillery weapon", w.name),
                rule: rule("\"Weapons in Bunkers\": \"Artillery weapons cannot fire from within a Bunker\" (R782)"),
                instead: "fire another weapon, or move out of the bunker first".into(),
            });
        }
        let main = state
            .unit(shooter)
            .and_then(|u| state.cards.get(&u.card))
            .filter(|c| Skill002::Strongpoint.of(c))
            .and_then(|c| c.weapons.first())
            .is_some_and(|m| m.id == w.id);
        let facing = b.facing.unwrap_or(Facing::N);
        if main && !super::facing::in_front_arc(facing, from, to) {
            return Err(Refusal {
                reason: format!("{to} is outside the field of fire of {} in the bunker on {from}, facing {facing}", w.name),
                rule: rule("\"Weapons in Bunkers\": \"The main weapon of a Strongpoint Unit ... has a Field of Fire of up to 45 degrees either side of the direction the Bunker is facing\" (R782)"),
                instead: "choose a target within 45 degrees either side of the bunker's facing".into(),
            });
        }
    }
    // Close combat across a bunker's wall: only from its slit's or doors' side (R783).
    let (inside, outside) = match (mine, theirs) {
        (Some(b), _) if b.facing.is_some() => (b, to),
        (_, Some(b)) if b.facing.is_some() => (b, from),
        _ => return Ok(()),
    };
    // Beside the bunker (level with it) nothing is seen (`Shell::walls_block`), so no close
    // combat either; at the doors only close combat is fought.
    let close = w.range == WeaponRange::Close;
    if !close && inside.at_doors(outside) {
        let whom = target.unwrap_or("the target");
        return Err(Refusal {
            reason: format!("{outside} is at the rear doors of the bunker on {}+{}: {shooter} and {whom} fight there only with close-combat weapons", inside.squares[0], inside.squares[1]),
            rule: rule("\"Line of Sight To Bunkers and Strongpoints\": \"Units in Bunkers can only see and be seen from 90 degrees either side of the direction the Bunker is facing\" (R781)"),
            instead: "attack with a close-combat weapon, or from ahead of the firing slit".into(),
        });
    }
    Ok(())
}

/// 002 "Deploying Fortifications": "Objectives cannot be placed in, on, or under a Bunker or
/// Strongpoint." Why no objective may lie on `sq`: inside a bunker (R789), or, in a game made from
/// rules revision 10 (`strongpoints_too`), inside a strongpoint (R587); games made before could
/// hold an objective in a strongpoint and replay unchanged.
pub fn objective_refusal(
    sc: &super::super::scenario::Scenario,
    sq: Square,
    strongpoints_too: bool,
) -> Option<String> {
    let f = sc.fortifications.as_ref()?;
    let kind = if f.bunkers.iter().any(|b| b.squares.contains(&sq)) {
        ("bunker", "R789")
    } else if strongpoints_too && f.strongpoints.iter().any(|p| p.contains(&sq)) {
        ("strongpoint", "R587")
    } else {
        return None;
    };
    Some(format!("{sq} is inside a {}: 002 \"Deploying Fortifications\": \"Objectives cannot be placed in, on, or under a Bunker or Strongpoint\" ({})", kind.0, kind.1))
}

/// The briefing's sentence on the bunkers, if any.
pub fn briefing(state: &State) -> Option<String> {
    let f = state.scenario.fortifications.as_ref()?;
    if f.bunkers.is_empty() {
        return None;
    }
    let list: Vec<String> = f
        .bunkers
        .iter()
        .map(|b| format!("{}+{} facing {}", b.squares[0], b.squares[1], b.facing))
        .collect();
    Some(format!(
        "Bunkers ({CITE}): {}. Only infantry may enter them, through the rear doors, never while an enemy is inside; a unit inside sees and is seen only ahead of the firing slit, fires at no aircraft, re-rolls a failed infantry or cover save (army or shield cancels), and saves on army or shield against close-combat weapons from the slit or the doors.",
        list.join(", ")
    ))
}
