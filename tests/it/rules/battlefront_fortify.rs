//! Issue 18 (seed 002 "Fortifications": "Fielding Fortifications", "Deploying Fortifications"):
//! objectives never in a strongpoint or bunker (R587), and fortifications bought with points and
//! placed by the players before the objectives (R588–R591). Scenarios are read by the real
//! parser, orders go through the real parser and state machine, dice are scripted.

use crate::support_flow::*;
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::{flow, DustTactics};
use dustmail::game::Game;

/// A 12×12 battlefront-2013 board: allies enter on row 12, axis on row 1; `fortifications` is
/// the `[fortifications]` table's body and `head` top-level lines; the objectives are those of
/// 003 §12's placing scenarios (allies' drawn on G4 in the axis half, axis's on G9).
fn text(head: &str, fortifications: &str) -> String {
    let rows = vec!["............"; 12];
    format!(
        r#"{head}
title = "Fortified"
rulesets = ["battlefront-2013"]
rounds = 3
ap_limit = 100
[board]
rows = {rows:?}

[fortifications]
{fortifications}

[[sides]]
id = "allies"
entry = {{ rows = [12] }}
[[sides.units]]
id = "a"
card = "sq"
[[sides]]
id = "axis"
entry = {{ rows = [1] }}
[[sides.units]]
id = "x"
card = "sq"

[[objectives]]
kind = "grab"
side = "allies"
at = "G4"

[[objectives]]
kind = "grab"
side = "axis"
at = "G9"
"#
    )
}

fn start_at(revision: u32, head: &str, fortifications: &str) -> Result<State, String> {
    let sc = scenario::parse("fortified", &text(head, fortifications)).map_err(|e| e.0)?;
    flow::new_state("battlefront-2013", revision, sc, vec![squad("sq")]).map_err(|e| e.0)
}

fn start(head: &str, fortifications: &str) -> Result<State, String> {
    start_at(DustTactics.rules_revision(), head, fortifications)
}

// 002 "Deploying Fortifications": "Objectives cannot be placed in, on, or under a Bunker or
// Strongpoint." (R587) A scenario whose fixed objective lies inside a strongpoint is refused at
// `new`, naming the square and the sentence; a game made before rules revision 10 (which played
// it) is still set up, so it replays unchanged.
#[test]
fn s002_deploying_fortifications_no_fixed_objective_inside_a_strongpoint() {
    let e = start("", r#"strongpoints = [["F4", "G4"]]"#).unwrap_err();
    assert!(
        e.contains("objective on G4 is inside a strongpoint")
            && e.contains("Objectives cannot be placed in, on, or under a Bunker or Strongpoint")
            && e.contains("R587"),
        "{e}"
    );
    assert!(start_at(9, "", r#"strongpoints = [["F4", "G4"]]"#).is_ok());
    assert!(start("", r#"strongpoints = [["E4", "E5"]]"#).is_ok());
}

// 002 "Deploying Fortifications": "Objectives cannot be placed in, on, or under a Bunker or
// Strongpoint." (R587) Placed by a player (003 §12, R609), an objective on a strongpoint's square
// is refused naming the line's square and the sentence and changes nothing; the orders template
// never offers such a square.
#[test]
fn s002_deploying_fortifications_no_objective_placed_inside_a_strongpoint() {
    let mut st = start(
        "place_objectives = true",
        r#"strongpoints = [["E5", "F5"]]"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // Allies win the roll (three hits to none) and place theirs first.
    let mut d = dustmail::game::ScriptedDice::new([1, 1, 1, 5, 5, 5]);
    assert!(first_result(&send(&mut st, "allies", "place objective at G9", &mut d)).is_ok());
    let before = st.clone();
    let out = send(&mut st, "axis", "place objective at E5", &mut Cycle(1));
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("your objective cannot go on E5: E5 is inside a strongpoint")
            && e.contains("Objectives cannot be placed in, on, or under a Bunker or Strongpoint")
            && e.contains("R587"),
        "{e}"
    );
    assert_eq!(st, before, "a refused placement changes nothing");
    let t = DustTactics.orders_template(&st, "axis");
    assert!(t.contains("# place objective at G4"), "{t}");
    assert!(
        !t.contains("place objective at E5") && !t.contains("place objective at F5"),
        "{t}"
    );
    let out = send(&mut st, "axis", "place objective at D5", &mut Cycle(1));
    assert!(first_result(&out).is_ok(), "{out:?}");
}

const FORTIFY: &str = r#"fortify = { axis = ["bunker", "strongpoint"] }"#;

/// The fortifications placed so far: bunkers as `D4+E4 facing N`, strongpoints as `D4+E4`.
fn placed(st: &State) -> Vec<String> {
    let Some(f) = &st.scenario.fortifications else {
        return vec![];
    };
    let b = f
        .bunkers
        .iter()
        .map(|b| format!("{}+{} facing {}", b.squares[0], b.squares[1], b.facing));
    let s = f.strongpoints.iter().map(|p| format!("{}+{}", p[0], p[1]));
    b.chain(s).collect()
}

// 002 "Fielding Fortifications": "Players can take Fortifications as part of their force, paying
// the appropriate points cost ... A player may include Bunkers in their force for 15 points each,
// and Strongpoints for 10 points each." (R588, R590) The points count against the scenario's army
// point limit: a force one point over it is refused naming the fortifications; the welcome mail
// tells each side's fortifications and their cost.
#[test]
fn s002_fielding_fortifications_bunkers_15_points_strongpoints_10_from_the_force() {
    let ap = squad("sq").ap;
    let with_limit = |limit: u32| {
        let t = text(FORTIFY, "").replace("ap_limit = 100", &format!("ap_limit = {limit}"));
        let sc = scenario::parse("fortified", &t).map_err(|e| e.0)?;
        DustTactics
            .start("battlefront-2013", sc, vec![squad("sq")])
            .map_err(|e| e.0)
    };
    let e = with_limit(ap + 24).unwrap_err();
    assert!(
        e.contains(&format!("side axis fields {} AP", ap + 25))
            && e.contains("or fortifications (they cost 25"),
        "{e}"
    );
    let st = with_limit(ap + 25).unwrap_or_else(|e| panic!("{e}"));
    let brief = crate::support::flat(&DustTactics.briefing(&st, "allies"));
    assert!(
        brief.contains("axis fields 1 bunker (15 points each) and 1 strongpoint (10 points each), 25 points of its force"),
        "{brief}"
    );
    // A word that is no fortification, or a side that is none, is refused when read.
    let bad = text(r#"fortify = { axis = ["tower"] }"#, "");
    let e = scenario::parse("fortified", &bad).unwrap_err().0;
    assert!(
        e.contains("`fortify.axis`") && e.contains("\"bunker\" or \"strongpoint\""),
        "{e}"
    );
    let bad = text(r#"fortify = { ssu = ["bunker"] }"#, "");
    let e = scenario::parse("fortified", &bad).unwrap_err().0;
    assert!(e.contains("ssu is not a side of the scenario"), "{e}");
}

// 002 "Fielding Fortifications": "Fortifications are Terrain features placed by the players at
// the start of the game." (R588) `new --fortify SIDE=LIST` records the list at the head of the
// scenario (so replay reads it); only battlefront-2013 has them.
#[test]
fn s002_fielding_fortifications_the_new_option_fortify() {
    use dustmail::game::NewRequest;
    let req = |ruleset: &str, list: &str| NewRequest {
        ruleset: Some(ruleset.into()),
        scenario: Some("bait-and-flank".into()),
        fortify: [("axis".to_string(), list.to_string())].into(),
        ..NewRequest::default()
    };
    let plan = DustTactics
        .plan_new(&req("battlefront-2013", "bunker, strongpoint"))
        .unwrap_or_else(|e| panic!("{}", e.0));
    assert!(
        plan.setup
            .scenario
            .starts_with("fortify = { \"axis\" = [\"bunker\", \"strongpoint\"] }\n"),
        "{}",
        plan.setup.scenario
    );
    let e = DustTactics
        .plan_new(&req("ffg-revised", "bunker"))
        .unwrap_err()
        .0;
    assert!(
        e.contains("--fortify") && e.contains("battlefront-2013"),
        "{e}"
    );
    let e = DustTactics
        .plan_new(&req("battlefront-2013", "bunker,tower"))
        .unwrap_err()
        .0;
    assert!(e.contains("`tower` is not a fortification"), "{e}");
}

// 002 "Deploying Fortifications": "Fortifications are placed in the player's Deployment Area
// (see pages 34 and 63) at the start of the game before any Objectives are placed." (R589) The
// side that fields them places each with a `place` line, no roll; once placed they are the
// scenario's (drawn on the board); then the objectives are placed (003 §12's roll), and an
// objective never goes inside one.
#[test]
fn s002_deploying_fortifications_placed_by_the_side_before_the_objectives() {
    let mut st =
        start(&format!("{FORTIFY}\nplace_objectives = true"), "").unwrap_or_else(|e| panic!("{e}"));
    let aw = DustTactics.awaiting(&st);
    assert_eq!(aw.len(), 1, "{aw:?}");
    assert_eq!(
        (aw[0].side.as_str(), aw[0].decision.as_str()),
        ("axis", "place")
    );
    let t = DustTactics.orders_template(&st, "axis");
    assert!(t.contains("Deploying fortifications (002)"), "{t}");
    assert!(t.contains("# place bunker B2 C2 facing N"), "{t}");
    let out = send(
        &mut st,
        "axis",
        "place bunker E4 F4 facing N",
        &mut Cycle(1),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(
        texts(&out).contains(
            "axis places a bunker on E4+F4 facing N (1 strongpoint and 2 objectives left)"
        ),
        "{}",
        texts(&out)
    );
    assert_eq!(placed(&st), vec!["E4+F4 facing N"]);
    // The last fortification: the objectives' roll is made at once (allies three hits).
    let mut d = dustmail::game::ScriptedDice::new([1, 1, 1, 5, 5, 5]);
    let out = send(&mut st, "axis", "place strongpoint I4 J4", &mut d);
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0);
    assert!(
        texts(&out).contains("allies places first"),
        "{}",
        texts(&out)
    );
    assert_eq!(placed(&st), vec!["E4+F4 facing N", "I4+J4"]);
    let board = dustmail::dust_tactics::view::board_text(&st);
    assert!(
        board.contains("[ bunker E4+F4 facing N") && board.contains('^'),
        "{board}"
    );
    assert!(first_result(&send(
        &mut st,
        "allies",
        "place objective at G9",
        &mut Cycle(1)
    ))
    .is_ok());
    let e = first_result(&send(
        &mut st,
        "axis",
        "place objective at E4",
        &mut Cycle(1),
    ))
    .unwrap_err();
    assert!(
        e.contains("E4 is inside a bunker") && e.contains("R789"),
        "{e}"
    );
    let e = first_result(&send(
        &mut st,
        "axis",
        "place objective at I4",
        &mut Cycle(1),
    ))
    .unwrap_err();
    assert!(
        e.contains("I4 is inside a strongpoint") && e.contains("R587"),
        "{e}"
    );
    assert!(first_result(&send(
        &mut st,
        "axis",
        "place objective at G4",
        &mut Cycle(1)
    ))
    .is_ok());
    assert!(st.placing.is_none(), "the battlefield is set up");
}

// 002 "Deploying Fortifications": "Infantry must be able to enter a Bunker or Strongpoint, so it
// must be at least one square in Dust Tactics ... from all table edges and Impassable terrain,
// and two squares in Dust Tactics ... from other Bunkers and Strongpoints." and "placed in the
// player's Deployment Area" (R589: its own half). Each refusal names the square and the sentence,
// cites 002 and R589, says what to send and changes nothing; every line the template offers is
// accepted; the other side may not place now.
#[test]
fn s002_deploying_fortifications_one_square_from_edges_two_from_other_fortifications() {
    let mut st = start(FORTIFY, "").unwrap_or_else(|e| panic!("{e}"));
    assert!(first_result(&send(
        &mut st,
        "axis",
        "place bunker E4 F4 facing N",
        &mut Cycle(1)
    ))
    .is_ok());
    let before = st.clone();
    for (order, why) in [
        (
            "place strongpoint E8 F8",
            "E8 is not in axis's Deployment Area, its own half of the table (rows 1 to 6)",
        ),
        (
            "place strongpoint A3 A4",
            "A3 is next to a board edge or impassable terrain",
        ),
        (
            "place strongpoint H4 H5",
            "H4 is within two squares of another strongpoint",
        ),
        (
            "place strongpoint E6 G6",
            "are not two squares side by side",
        ),
        (
            "place strongpoint I4 J4 facing N",
            "a strongpoint has no facing",
        ),
        ("place bunker I4 J4", "no bunker is left to place"),
    ] {
        let out = send(&mut st, "axis", order, &mut Cycle(1));
        let e = first_result(&out).unwrap_err();
        assert!(e.contains(why), "{order}: {e}");
        assert!(
            e.contains("Deploying Fortifications") && e.contains("R589"),
            "{order}: {e}"
        );
        let dustmail::game::CommandOutcome::Refused { instead, .. } = &out.results[0].outcome
        else {
            panic!("{out:?}")
        };
        assert!(instead.starts_with("place strongpoint "), "{instead}");
        assert_eq!(st, before, "{order} changed the game");
    }
    let e = first_result(&send(
        &mut st,
        "allies",
        "place strongpoint E8 F8",
        &mut Cycle(1),
    ))
    .unwrap_err();
    assert!(e.contains("it is axis's turn to place"), "{e}");
    let t = DustTactics.orders_template(&st, "axis");
    let offered: Vec<&str> = t
        .lines()
        .filter_map(|l| l.strip_prefix("# place "))
        .collect();
    assert!(!offered.is_empty(), "{t}");
    for o in offered {
        let mut c = st.clone();
        let out = send(&mut c, "axis", &format!("place {o}"), &mut Cycle(1));
        assert!(first_result(&out).is_ok(), "place {o}: {out:?}");
        assert!(c.placing.is_none());
    }
}

// 002 "Fortifications": "Fortifications are Terrain features placed by the players at the start
// of the game." The deadline places a side's fortification at its first legal place (R591), so
// the game never waits forever.
#[test]
fn s002_deploying_fortifications_the_deadline_places_at_the_first_legal_place() {
    let mut st = start(FORTIFY, "").unwrap_or_else(|e| panic!("{e}"));
    // One deadline places every fortification the side still has to place.
    let out = DustTactics.default_for(&mut st, "axis", &mut Cycle(1));
    assert!(out.accepted_any(), "{out:?}");
    assert_eq!(placed(&st), vec!["B2+C2 facing N", "F2+G2"]);
    assert!(st.placing.is_none());
}

// 002 "Fortifications": fortifications bought with points and placed by the players, played to
// the end by signed mail: 003 §12's Bait and Flank with a bunker for the axis and a strongpoint
// for the allies (`new --fortify`), the bots answer the template; the briefing tells the
// fortifications, both are placed before the objectives, replay and audit pass.
#[test]
fn s002_deploying_fortifications_bait_and_flank_fortified_played_to_its_end_by_signed_mail() {
    let (flat, st) = crate::rules::battlefront_scenarios::play_by_mail_with(
        "bait-and-flank",
        &[
            "--fortify",
            "axis=bunker",
            "--fortify",
            "allies=strongpoint",
        ],
        ["allies", "axis"],
        29,
    );
    assert!(
        flat.contains("Deploying fortifications (002"),
        "no briefing"
    );
    assert!(
        flat.contains("allies fields 1 strongpoint (10 points each)"),
        "no points"
    );
    assert!(flat.contains("axis places a bunker on"), "no bunker placed");
    let f = st.scenario.fortifications.as_ref().expect("placed");
    assert_eq!((f.bunkers.len(), f.strongpoints.len()), (1, 1));
}

// R591: "a fortification that its side's earlier placements left without any legal place is not
// placed". On a 6×12 board the axis half has room for two strongpoints placed at the first legal
// places (B2+C2, B5+C5), but one placed on C4+D4 leaves none for the second: the report says so
// and the battlefield is set up.
#[test]
fn s002_deploying_fortifications_one_left_without_room_is_not_placed() {
    let rows = vec!["......"; 12];
    let t = format!(
        r#"fortify = {{ axis = ["strongpoint", "strongpoint"] }}
title = "Narrow"
rulesets = ["battlefront-2013"]
rounds = 3
ap_limit = 100
[board]
rows = {rows:?}

[[sides]]
id = "allies"
entry = {{ rows = [12] }}
[[sides.units]]
id = "a"
card = "sq"
[[sides]]
id = "axis"
entry = {{ rows = [1] }}
[[sides.units]]
id = "x"
card = "sq"
"#
    );
    let sc = scenario::parse("narrow", &t).unwrap_or_else(|e| panic!("{}", e.0));
    let mut st = DustTactics
        .start("battlefront-2013", sc, vec![squad("sq")])
        .unwrap_or_else(|e| panic!("{}", e.0));
    let out = send(&mut st, "axis", "place strongpoint C4 D4", &mut Cycle(1));
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(
        texts(&out).contains(
            "axis's strongpoint finds no room left in its Deployment Area and is not placed (R591)"
        ),
        "{}",
        texts(&out)
    );
    assert_eq!(placed(&st), vec!["C4+D4"]);
    assert!(st.placing.is_none(), "the battlefield is set up");
}

// R588: `dustmail new --help` teaches `--fortify`; through the real binary a malformed option, a
// word that is no fortification and another ruleset are refused saying what to write, and nothing
// is sent.
#[test]
fn s002_fielding_fortifications_new_teaches_and_checks_the_option() {
    use crate::support::dt;
    let dir = tempfile::tempdir().unwrap();
    let home = dt::init_home(dir.path(), "file");
    let t = dt::text(&dt::dustmail(&home.root, &["new", "--help"]));
    assert!(
        t.contains("--fortify") && t.contains("SIDE=bunker,strongpoint"),
        "{t}"
    );
    let ps = dt::players(41);
    for (ruleset, scenario, option, want) in [
        (
            "battlefront-2013",
            "bait-and-flank",
            "axis",
            "write SIDE=LIST",
        ),
        (
            "battlefront-2013",
            "bait-and-flank",
            "axis=bunker,tower",
            "`tower` is not a fortification",
        ),
        (
            "ffg-revised",
            "skirmish",
            "axis=bunker",
            "add --ruleset battlefront-2013",
        ),
    ] {
        let args = [
            "--ruleset",
            ruleset,
            "--scenario",
            scenario,
            "--id",
            "g-fort",
            "--now",
            dt::T0,
            "--fortify",
            option,
        ];
        let o = dt::new_with_players(&home.root, &args, &ps);
        assert_ne!(o.status.code(), Some(0), "{}", dt::text(&o));
        assert!(dt::text(&o).contains(want), "{want}: {}", dt::text(&o));
    }
    assert_eq!(dt::names(&home.root.join("outbox")), Vec::<String>::new());
}
