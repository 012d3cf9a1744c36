//! Scenarios: board, terrain, cover, walls, entry zones, round limit, objectives, AP limit, forces
//! and units placed at the start (docs/scenarios.md). Parsed from TOML and validated with errors
//! that say which field is wrong and what to write instead.

use super::model::{Board, CoverElement, CoverKind, Square, Terrain};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A validated scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    /// Short name used by `new --scenario`.
    pub name: String,
    pub title: String,
    pub description: String,
    /// Terrain and cover elements.
    pub board: Board,
    /// Game ends at the end of this round at the latest.
    pub rounds: u32,
    /// Army point limit per side.
    pub ap_limit: u32,
    pub sides: Vec<SideSpec>,
    #[serde(default)]
    pub objectives: Vec<Objective>,
    /// The rulesets the scenario suits (`rulesets = [...]` in its file; none listed: every
    /// ruleset its board allows). Only `new` asks: a game's state keeps none (setup clears it),
    /// so states are as they were before the field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rulesets: Vec<String>,
    /// battlefront-2013: 003 §12 "Reserves" (`battlefront::reserves`); none: a destroyed unit
    /// stays destroyed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserves: Option<super::battlefront::reserves::Reserves>,
    /// battlefront-2013: 003 §12 victory points (`battlefront::vp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory_points: Option<super::battlefront::vp::VictoryPoints>,
    /// battlefront-2013: 002's trenches (`battlefront::fortifications`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fortifications: Option<super::battlefront::fortifications::Fortifications>,
    /// 004 "Underground Fighting" (`underground`), ffg-revised only, one board (R620).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub underground: Option<super::underground::Underground>,
    /// 004 "SETUP": the players place the terrain squares and cover by the rolls (R700).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place_by_rolls: Option<super::placing::PlaceByRolls>,
    /// battlefront-2013, 003 §12: the players place their objectives before round 1 (R609).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub place_objectives: bool,
    /// battlefront-2013, 002 "Fielding Fortifications": the bunkers and strongpoints each side
    /// fields and places before the objectives (`fortify = { axis = ["bunker"] }`, R588).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub fortify: std::collections::BTreeMap<String, Vec<super::battlefront::forts_placed::Fort>>,
    /// 004 "Fighting in the Metro": rails and train cars (`[metro]`, R627).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metro: Option<super::underground::Metro>,
    /// 004 "Fighting in the Metro"/"Sewers": two boards and their links (`[travel]`, R630).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub travel: Option<super::travel::Travel>,
}

/// One side of a scenario.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideSpec {
    /// "allies", "axis".
    pub id: String,
    pub name: String,
    /// Squares where this side's units enter in round 1 (ruling 2), sorted.
    pub entry: Vec<Square>,
    pub units: Vec<UnitSpec>,
}

/// One unit of a side's force.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitSpec {
    /// The id printed in reports and used in orders.
    pub id: String,
    /// Card id (file stem in games/dust-tactics/cards/).
    pub card: String,
    /// Placed here at the start; `None` enters from the entry zone in round 1.
    #[serde(default)]
    pub at: Option<Square>,
    /// Above the ground floor of the structure on `at` at the start (`at = "E5@2"`, R634); none:
    /// the ground floor, left out of the state so games made before replay byte for byte.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<super::floors::Height>,
    /// A hero joined to this squad before the game (004 "Heroes").
    #[serde(default)]
    pub joins: Option<String>,
    /// The player of the side who commands this unit, when several players share a side;
    /// `None`: any player of the side.
    #[serde(default)]
    pub player: Option<String>,
    /// A squad or hero beginning the game inside this vehicle (004 "Carry Capacity").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<String>,
}

/// A scenario objective (checked at the end of each round).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Objective {
    /// `side` wins at the end of a round in which one of its units stands on `at` and no enemy
    /// unit does.
    Hold { side: String, at: Square },
    /// Extra victory points for the side holding `at` at the end of the game.
    Points { at: Square, points: u32 },
    /// battlefront-2013 (003 §12 Grab the Dust, Bait and Flank): the side holding `at` under
    /// 003's objective holding rule wins at once (battlefront/objectives.rs); any side when
    /// `side` is none, else only `side` (the objective in its opponent's half).
    Grab {
        at: Square,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<String>,
    },
    /// battlefront-2013 (003 §12 Supply Drop, All-Out Attack): held under 003's rule at the end
    /// of a turn, it gives its holder `own` victory points if the holder is `half` (whose table
    /// half it lies in), `enemy` otherwise (battlefront/vp.rs).
    Vp {
        at: Square,
        half: String,
        #[serde(default)]
        own: u32,
        enemy: u32,
    },
}

/// A scenario file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ScenarioError(pub String);

/// The most rounds a scenario may last. The seed chain is as long as the game's rounds (DESIGN
/// §5) and the referee hashes down it for each step's dice, so a bound keeps that cost small
/// (under a millisecond) while leaving room for campaign-length games.
pub const MAX_ROUNDS: u32 = 999;

/// Words orders give a meaning of their own (`react none`, `standing react any`, `standing
/// first ask`), so they cannot name a unit or side (R84).
pub const RESERVED_IDS: [&str; 3] = ["none", "any", "ask"];

/// The scenarios shipped with dustmail: (name, TOML content).
pub fn builtin() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "skirmish",
            include_str!("../../../games/dust-tactics/scenarios/skirmish.toml"),
        ),
        (
            "reconnaissance",
            include_str!("../../../games/dust-tactics/scenarios/reconnaissance.toml"),
        ),
        (
            "crossroads",
            include_str!("../../../games/dust-tactics/scenarios/crossroads.toml"),
        ),
        (
            "full-box",
            include_str!("../../../games/dust-tactics/scenarios/full-box.toml"),
        ),
        (
            "two-on-two",
            include_str!("../../../games/dust-tactics/scenarios/two-on-two.toml"),
        ),
        // battlefront-2013 (issue 18): 003 §12 scenario 1.
        (
            "encounter",
            include_str!("../../../games/dust-tactics/scenarios/encounter.toml"),
        ),
        (
            "encounter-koshka",
            include_str!("../../../games/dust-tactics/scenarios/encounter-koshka.toml"),
        ),
        (
            "strongpoint",
            include_str!("../../../games/dust-tactics/scenarios/strongpoint.toml"),
        ),
        (
            "wire-and-mines",
            include_str!("../../../games/dust-tactics/scenarios/wire-and-mines.toml"),
        ),
        // issue 18: 003 §12 scenario 2 (bfscen).
        (
            "grab-the-dust",
            include_str!("../../../games/dust-tactics/scenarios/grab-the-dust.toml"),
        ),
        (
            "bait-and-flank",
            include_str!("../../../games/dust-tactics/scenarios/bait-and-flank.toml"),
        ),
        // issue 12: 004 "Structures" and "QUONSET HUTS" (R500).
        (
            "outpost",
            include_str!("../../../games/dust-tactics/scenarios/outpost.toml"),
        ),
        (
            "supply-drop",
            include_str!("../../../games/dust-tactics/scenarios/supply-drop.toml"),
        ),
        (
            "all-out-attack",
            include_str!("../../../games/dust-tactics/scenarios/all-out-attack.toml"),
        ),
        // issue 18: 003's buildings and swamp (R612, R614).
        (
            "village",
            include_str!("../../../games/dust-tactics/scenarios/village.toml"),
        ),
    ]
}

/// Parses a shipped scenario by name; `None` when no shipped scenario has that name.
pub fn builtin_scenario(name: &str) -> Option<Result<Scenario, ScenarioError>> {
    builtin()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(n, text)| parse(n, text))
}

// The file as written; validated into `Scenario`. Unknown fields are errors so typos surface.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    title: String,
    #[serde(default)]
    description: String,
    rounds: u32,
    ap_limit: u32,
    board: RawBoard,
    #[serde(default)]
    sides: Vec<super::scenario_units::RawSide>,
    #[serde(default)]
    objectives: Vec<RawObjective>,
    #[serde(default)]
    rulesets: Vec<String>,
    #[serde(default)]
    structures: Vec<super::structures::RawStructure>,
    reserves: Option<super::battlefront::reserves::RawReserves>,
    #[serde(default)]
    victory_points: Option<super::battlefront::vp::RawVictoryPoints>,
    #[serde(default)]
    fortifications: Option<super::battlefront::fortifications::RawFortifications>,
    #[serde(default)]
    underground: Option<super::underground::Underground>,
    #[serde(default)]
    place_by_rolls: Option<super::placing::PlaceByRolls>,
    #[serde(default)]
    place_objectives: bool,
    #[serde(default)]
    fortify: std::collections::BTreeMap<String, Vec<String>>,
    metro: Option<super::underground::RawMetro>,
    travel: Option<super::travel::RawTravel>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    rows: Vec<String>,
    #[serde(default)]
    cover: Vec<RawCover>,
    #[serde(default)]
    walls: Vec<[String; 2]>,
    /// 004 "Minefields": `{ at = "C4", tokens = 2 }` (scenario_mines.rs).
    #[serde(default)]
    mines: Vec<super::scenario_mines::RawMines>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCover {
    kind: CoverKind,
    at: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawObjective {
    kind: String,
    #[serde(default)]
    side: Option<String>,
    at: String,
    #[serde(default)]
    points: Option<u32>,
    /// `vp` objectives: the points to the side whose half it lies in.
    #[serde(default)]
    own_points: Option<u32>,
}

/// Builds errors that start with the scenario name and the field.
pub(super) struct Ctx<'a> {
    pub(super) name: &'a str,
}

impl Ctx<'_> {
    pub(super) fn err(&self, field: &str, msg: impl std::fmt::Display) -> ScenarioError {
        ScenarioError(format!("scenario {}: `{field}`: {msg}", self.name))
    }
}

/// An id usable in orders: lower-case letters, digits, `-`, `_`; not shaped like a square (so a
/// target word is never both), not reserved.
pub(super) fn check_id(
    ctx: &Ctx,
    field: &str,
    id: &str,
    example: &str,
) -> Result<(), ScenarioError> {
    let charset = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !charset {
        return Err(ctx.err(
            field,
            format!(
                "`{id}` is not an id: use lower-case letters, digits, - and _, like `{example}`"
            ),
        ));
    }
    let mut chars = id.chars();
    let square_shaped = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && (1..=2).contains(&chars.as_str().len())
        && chars.all(|c| c.is_ascii_digit());
    if square_shaped {
        return Err(ctx.err(
            field,
            format!(
                "`{id}` looks like a square, so orders could not tell them apart: use a \
                name like `{example}`"
            ),
        ));
    }
    if RESERVED_IDS.contains(&id) {
        return Err(ctx.err(
            field,
            format!(
                "`{id}` is a word of the orders (react none, standing react any, \
                standing first ask): use a name like `{example}`"
            ),
        ));
    }
    Ok(())
}

fn board_extent(board: &Board) -> String {
    format!(
        "the board runs from A1 to {}{}",
        (b'A' + board.width().saturating_sub(1)) as char,
        board.height()
    )
}

pub(super) fn square_on(
    ctx: &Ctx,
    field: &str,
    board: &Board,
    text: &str,
) -> Result<Square, ScenarioError> {
    board.parse_square(text).ok_or_else(|| {
        ctx.err(
            field,
            format!(
                "`{text}` is not a square on this board: {}; write a column letter and a \
                    row number like C4",
                board_extent(board)
            ),
        )
    })
}

/// Terrain nobody but flyers and jumpers can stand on at the start.
pub(super) fn blocked(t: Terrain) -> bool {
    matches!(t, Terrain::Impassable | Terrain::DeepWater)
}

/// Parses and validates a scenario file.
pub fn parse(name: &str, text: &str) -> Result<Scenario, ScenarioError> {
    let ctx = Ctx { name };
    let raw: RawScenario = toml::from_str(text).map_err(|e| {
        ScenarioError(format!(
            "scenario {name}: {} (see docs/scenarios.md for the format)",
            e.to_string().trim_end()
        ))
    })?;

    if raw.rounds == 0 || raw.rounds > MAX_ROUNDS {
        return Err(ctx.err(
            "rounds",
            format!(
                "{} rounds is not allowed: write a number from 1 to {MAX_ROUNDS}, like rounds = 6",
                raw.rounds
            ),
        ));
    }
    for r in &raw.rulesets {
        if let Err(e) = super::rules::Rules::for_id(r) {
            return Err(ctx.err("rulesets", e));
        }
    }
    if raw.ap_limit == 0 {
        return Err(ctx.err(
            "ap_limit",
            "an army point limit of 0 fields nothing: write e.g. ap_limit = 16",
        ));
    }

    // Board and terrain.
    let rows: Vec<&str> = raw.board.rows.iter().map(String::as_str).collect();
    let mut board = Board::from_rows(&rows).map_err(|e| ctx.err("board.rows", e))?;
    super::battlefront::terrain::check_board(&board, &raw.rulesets)
        .map_err(|e| ctx.err("board.rows", e))?;

    // Cover elements: 004 "Terrain types" allows them on circle (open) and diamond (smoke)
    // spaces only (R86).
    for (i, c) in raw.board.cover.iter().enumerate() {
        let field = format!("board.cover[{i}].at");
        let sq = square_on(&ctx, &field, &board, &c.at)?;
        if !matches!(board.terrain(sq), Terrain::Open | Terrain::Smoke) {
            return Err(ctx.err(
                &field,
                format!(
                    "{sq} is {:?} terrain, and cover elements stand only on open (`.`) \
                    or smoke (`*`) squares (004 \"Terrain types\"): move it to such a \
                        square",
                    board.terrain(sq)
                ),
            ));
        }
        if board.cover.contains_key(&sq) {
            return Err(ctx.err(
                &field,
                format!("{sq} already has a cover element: one per square"),
            ));
        }
        board.cover.insert(
            sq,
            CoverElement {
                kind: c.kind,
                damage: 0,
            },
        );
    }

    super::scenario_mines::place(name, &mut board, &raw.board.mines)?;

    // Walls: edges between two orthogonal neighbours.
    let mut walls = BTreeSet::new();
    for (i, [a, b]) in raw.board.walls.iter().enumerate() {
        let field = format!("board.walls[{i}]");
        let a = square_on(&ctx, &field, &board, a)?;
        let b = square_on(&ctx, &field, &board, b)?;
        let (dx, dy) = a.delta(b);
        if dx + dy != 1 {
            return Err(ctx.err(
                &field,
                format!(
                    "a wall runs along the edge between two squares side by side, and \
                    {a} and {b} are not: write e.g. [\"C4\", \"C5\"]"
                ),
            ));
        }
        if !walls.insert((a.min(b), a.max(b))) {
            return Err(ctx.err(
                &field,
                format!("the wall between {a} and {b} is listed twice"),
            ));
        }
    }
    for (a, b) in &walls {
        board
            .add_wall(*a, *b)
            .map_err(|e| ctx.err("board.walls", e.0))?;
    }
    // Structures (004 "Structures"): their outlines become walls, save the entrances.
    if raw.underground.is_some() && raw.rulesets != ["ffg-revised"] {
        let why = "underground fighting follows 004's rules (R620), which only ffg-revised plays";
        return Err(ctx.err(
            "underground",
            format!("{why}: add rulesets = [\"ffg-revised\"]"),
        ));
    }
    // 004's structures (R500), or 003's buildings under battlefront-2013 (R614).
    let bf = raw.rulesets == ["battlefront-2013"];
    if !raw.structures.is_empty() && raw.rulesets != ["ffg-revised"] && !bf {
        return Err(ctx.err(
            "structures",
            "structures follow 004's rules (R500), which only ffg-revised plays, or 003's buildings (R614): add rulesets = [\"ffg-revised\"] or [\"battlefront-2013\"]",
        ));
    }
    for (i, raw_s) in raw.structures.iter().enumerate() {
        check_id(&ctx, &format!("structures[{i}].id"), &raw_s.id, "bunker")?;
        if board.structures.iter().any(|s| s.id == raw_s.id) {
            return Err(ctx.err(
                &format!("structures[{i}].id"),
                format!("`{}` names two structures", raw_s.id),
            ));
        }
        let s = super::structures::parse_structure(&board, i, raw_s)
            .map_err(|(field, msg)| ctx.err(&field, msg))?;
        for (a, b) in super::structures::outline(&board, &s) {
            board
                .add_wall(a, b)
                .map_err(|e| ctx.err("structures", e.0))?;
        }
        super::battlefront::buildings::check_kind(bf, &s)
            .map_err(|e| ctx.err(&format!("structures[{i}].kind"), e))?;
        board.structures.push(s);
    }

    let (out_sides, side_ids) =
        super::scenario_units::read_sides(&ctx, &board, &raw.sides, &raw.rulesets)?;

    // Objectives.
    let mut objectives = Vec::new();
    let mut objective_squares = BTreeSet::new();
    for (i, o) in raw.objectives.iter().enumerate() {
        let of = format!("objectives[{i}]");
        let at = square_on(&ctx, &format!("{of}.at"), &board, &o.at)?;
        let obj = match o.kind.as_str() {
            "hold" => {
                let Some(side) = &o.side else {
                    return Err(ctx.err(
                        &format!("{of}.side"),
                        "a hold objective names the side that must hold it: add side = \"allies\"",
                    ));
                };
                if !side_ids.contains(side) {
                    let known: Vec<&str> = side_ids.iter().map(String::as_str).collect();
                    return Err(ctx.err(
                        &format!("{of}.side"),
                        format!(
                            "`{side}` is not a side of this scenario: use one of {}",
                            known.join(", ")
                        ),
                    ));
                }
                if o.points.is_some() {
                    return Err(ctx.err(
                        &format!("{of}.points"),
                        "a hold objective wins the \
                        game and gives no points: remove `points`, or use kind = \"points\"",
                    ));
                }
                Objective::Hold {
                    side: side.clone(),
                    at,
                }
            }
            "points" => {
                let points = o.points.unwrap_or(0);
                if points == 0 {
                    return Err(ctx.err(
                        &format!("{of}.points"),
                        "a points objective needs points above 0: add e.g. points = 2",
                    ));
                }
                if o.side.is_some() {
                    return Err(ctx.err(
                        &format!("{of}.side"),
                        "a points objective counts for whichever side holds it: remove `side`",
                    ));
                }
                Objective::Points { at, points }
            }
            "grab" => grab_objective(&ctx, &of, o, &raw.rulesets, &side_ids, at)?,
            "vp" => vp_objective(&ctx, &of, o, &raw.rulesets, &side_ids, at)?,
            other => {
                return Err(ctx.err(
                    &format!("{of}.kind"),
                    format!(
                        "`{other}` is not an \
                    objective kind: write kind = \"hold\", \"points\", \"grab\" or \"vp\""
                    ),
                ));
            }
        };
        if blocked(board.terrain(at)) {
            return Err(ctx.err(
                &format!("{of}.at"),
                format!(
                    "{at} is {:?} terrain that no \
                unit can stand on, so nobody could hold it: choose another square",
                    board.terrain(at)
                ),
            ));
        }
        if !objective_squares.insert(at) {
            return Err(ctx.err(
                &format!("{of}.at"),
                format!("{at} already has an objective: give each objective its own square"),
            ));
        }
        objectives.push(obj);
    }

    let reserves = match &raw.reserves {
        Some(r) => Some(
            super::battlefront::reserves::parse(r, &raw.rulesets, &board, &side_ids)
                .map_err(|(field, msg)| ctx.err(&field, msg))?,
        ),
        None => None,
    };

    let victory_points = match &raw.victory_points {
        Some(v) => Some(
            super::battlefront::vp::parse(v, &raw.rulesets)
                .map_err(|(field, msg)| ctx.err(&field, msg))?,
        ),
        None => None,
    };

    let fortifications = match &raw.fortifications {
        Some(f) => Some(
            super::battlefront::fortifications::parse(f, &raw.rulesets, &board)
                .map_err(|(field, msg)| ctx.err(&field, msg))?,
        ),
        None => None,
    };

    let fortify = super::battlefront::forts_placed::read(&raw.fortify, &side_ids)
        .map_err(|(field, msg)| ctx.err(&field, msg))?;
    let metro = super::underground::read_metro(name, &board, raw.underground, raw.metro.as_ref())?;
    let travel = super::travel::read(name, &board, raw.underground, raw.travel.as_ref())?;
    Ok(Scenario {
        name: name.to_string(),
        title: raw.title,
        description: raw.description.trim().to_string(),
        board,
        rounds: raw.rounds,
        ap_limit: raw.ap_limit,
        sides: out_sides,
        objectives,
        rulesets: raw.rulesets,
        reserves,
        victory_points,
        fortifications,
        metro,
        travel,
        underground: raw.underground,
        place_by_rolls: raw.place_by_rolls,
        place_objectives: raw.place_objectives,
        fortify,
    })
}

/// A `grab` objective (003 §12): its holding rule is battlefront-2013's, so the scenario must
/// suit that ruleset only; no points; `side`, when given, is the only side it wins for.
fn grab_objective(
    ctx: &Ctx,
    of: &str,
    o: &RawObjective,
    rulesets: &[String],
    side_ids: &BTreeSet<String>,
    at: Square,
) -> Result<Objective, ScenarioError> {
    if rulesets != ["battlefront-2013"] {
        return Err(ctx.err(
            &format!("{of}.kind"),
            "a grab objective follows 003's holding rule: add rulesets = [\"battlefront-2013\"]",
        ));
    }
    if o.points.is_some() {
        return Err(ctx.err(
            &format!("{of}.points"),
            "a grab objective wins the game and gives no points: remove `points`",
        ));
    }
    if let Some(side) = &o.side {
        if !side_ids.contains(side) {
            let known: Vec<&str> = side_ids.iter().map(String::as_str).collect();
            return Err(ctx.err(
                &format!("{of}.side"),
                format!(
                    "`{side}` is not a side of this scenario: use one of {}",
                    known.join(", ")
                ),
            ));
        }
    }
    Ok(Objective::Grab {
        at,
        side: o.side.clone(),
    })
}

/// A `vp` objective (003 §12 Supply Drop, All-Out Attack): battlefront-2013 only; `side` is the
/// side whose table half it lies in, `points` what another side scores holding it,
/// `own_points` (default 0) what `side` scores.
fn vp_objective(
    ctx: &Ctx,
    of: &str,
    o: &RawObjective,
    rulesets: &[String],
    side_ids: &BTreeSet<String>,
    at: Square,
) -> Result<Objective, ScenarioError> {
    if rulesets != ["battlefront-2013"] {
        return Err(ctx.err(
            &format!("{of}.kind"),
            "a vp objective follows 003's holding rule: add rulesets = [\"battlefront-2013\"]",
        ));
    }
    let Some(half) = o.side.clone().filter(|s| side_ids.contains(s)) else {
        let known: Vec<&str> = side_ids.iter().map(String::as_str).collect();
        return Err(ctx.err(
            &format!("{of}.side"),
            format!(
                "a vp objective names the side whose table half it lies in: side = one of {}",
                known.join(", ")
            ),
        ));
    };
    let Some(enemy) = o.points.filter(|p| *p > 0) else {
        return Err(ctx.err(
            &format!("{of}.points"),
            "a vp objective gives points to the other side holding it: add e.g. points = 2",
        ));
    };
    Ok(Objective::Vp {
        at,
        half,
        own: o.own_points.unwrap_or(0),
        enemy,
    })
}
