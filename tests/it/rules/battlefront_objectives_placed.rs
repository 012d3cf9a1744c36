//! Issue 18 (seed 003 §12, scenarios 3–5, Bait and Flank, Supply Drop, All-Out Attack): "After
//! placing the terrain, the players place one objective each in the same order as they placed
//! terrain. These must be in the player's own half of the table, but not within two squares of a
//! table edge, nor in impassable terrain." (rulings R609, R610). The scenario is read by the real
//! parser, orders go through the real parser and state machine, dice are scripted; the mail test
//! plays a shipped scenario to its end through the pipeline, then replays and audits it.

use crate::support_flow::*;
use dustmail::dust_tactics::model::Square;
use dustmail::dust_tactics::scenario::{self, Objective};
use dustmail::dust_tactics::state::{Phase, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Game, ScriptedDice};

/// A 12×12 battlefront-2013 board placing objectives: allies enter on row 12, axis on row 1;
/// E5 is impassable; the file draws allies' objective G4 in the axis half and axis's G9 in the
/// allies half (R287's kind: a `grab` names the side it wins for).
fn game() -> State {
    let mut rows = vec!["............"; 12];
    rows[4] = "....#.......";
    let text = format!(
        r#"title = "Placed"
rulesets = ["battlefront-2013"]
place_objectives = true
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

[[objectives]]
kind = "grab"
side = "allies"
at = "G4"

[[objectives]]
kind = "grab"
side = "axis"
at = "G9"
"#
    );
    let sc = scenario::parse("placed", &text).unwrap_or_else(|e| panic!("{e}"));
    DustTactics
        .start("battlefront-2013", sc, vec![squad("sq")])
        .expect("setup")
}

fn at(st: &State, s: &str) -> Square {
    st.scenario.board.parse_square(s).unwrap()
}

fn objective_squares(st: &State) -> Vec<Square> {
    st.scenario
        .objectives
        .iter()
        .map(|o| match o {
            Objective::Grab { at, .. } => *at,
            other => panic!("{other:?}"),
        })
        .collect()
}

// 003 §12 Bait and Flank: "After placing the terrain, the players place one objective each in
// the same order as they placed terrain." 003 "Setting the Terrain": "Starting with the player
// with the initiative, the players take turns placing a terrain item on the board." (R609) The
// first `place` rolls; the winner places first, the other side next; the objective moves where
// it was placed; the last placement rolls turn 1's initiative.
#[test]
fn s003_12_the_players_place_one_objective_each_in_the_order_they_placed_terrain() {
    let mut st = game();
    assert!(matches!(st.phase, Phase::Initiative));
    let aw = DustTactics.awaiting(&st);
    assert_eq!(aw.len(), 2, "before the roll each side may send `place`");
    assert!(aw.iter().all(|a| a.decision == "place"), "{aw:?}");
    let t = DustTactics.orders_template(&st, "axis");
    assert!(t.contains("# place objective at G4"), "{t}");
    // Allies roll no hit (5 5 5), axis two (1 2 6): axis places first, its order stands.
    let mut d = ScriptedDice::new([5, 5, 5, 1, 2, 6]);
    let out = send(&mut st, "axis", "place objective at F5", &mut d);
    assert_eq!(d.remaining(), 0);
    assert!(first_result(&out).is_ok(), "{out:?}");
    let said = texts(&out);
    assert!(
        said.contains(
            "objectives: allies 0 hit(s) on 3 dice, axis 2 hit(s) on 3 dice; axis places first"
        ),
        "{said}"
    );
    assert!(said.contains("axis places its objective on F5"), "{said}");
    assert_eq!(objective_squares(&st), vec![at(&st, "F5"), at(&st, "G9")]);
    // Axis has placed its one objective: its turn is over.
    let before = st.clone();
    let e = first_result(&send(
        &mut st,
        "axis",
        "place objective at F6",
        &mut Cycle(1),
    ))
    .unwrap_err();
    assert!(e.contains("it is allies's turn to place"), "{e}");
    assert!(e.contains("003") && e.contains("R609"), "{e}");
    assert_eq!(st, before, "a refused placement changes nothing");
    let aw = DustTactics.awaiting(&st);
    assert_eq!(aw.len(), 1);
    assert_eq!(aw[0].side, "allies", "then the other side places");
    let out = send(&mut st, "allies", "place objective at H8", &mut Cycle(1));
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(objective_squares(&st), vec![at(&st, "F5"), at(&st, "H8")]);
    assert!(st.placing.is_none());
    assert!(
        texts(&out).contains("round 1 initiative"),
        "{}",
        texts(&out)
    );
    assert!(!matches!(st.phase, Phase::Initiative));
}

// 003 §12: "These must be in the player's own half of the table, but not within two squares of
// a table edge, nor in impassable terrain." (R609: three squares or more from every edge, as
// R287 read it.) Each refusal says why, cites 003 and changes nothing; every line the template
// offers is accepted when sent back unchanged.
#[test]
fn s003_12_an_objective_goes_in_its_own_half_not_within_two_squares_of_an_edge_nor_impassable() {
    let mut st = game();
    let mut d = ScriptedDice::new([1, 1, 1, 5, 5, 5]);
    assert!(first_result(&send(&mut st, "allies", "place objective at G9", &mut d)).is_ok());
    let before = st.clone();
    for (order, why) in [
        (
            "place objective at F8",
            "not in axis's own half of the table",
        ),
        (
            "place objective at C5",
            "within two squares of a table edge",
        ),
        (
            "place objective at F2",
            "within two squares of a table edge",
        ),
        ("place objective at E5", "nor in impassable terrain"),
        ("place terrain at F5", "no terrain square is left to place"),
    ] {
        let out = send(&mut st, "axis", order, &mut Cycle(1));
        let e = first_result(&out).unwrap_err();
        assert!(e.contains(why), "{order}: {e}");
        assert!(e.contains("003 'Objectives'") && e.contains("R609"), "{e}");
        let CommandOutcome::Refused { instead, .. } = &out.results[0].outcome else {
            panic!("{out:?}")
        };
        assert_eq!(
            instead, "place objective at G4",
            "the example is the drawn square"
        );
        assert_eq!(st, before, "{order} changed the game");
    }
    let t = DustTactics.orders_template(&st, "axis");
    assert!(t.contains("Placing the objectives (003"), "{t}");
    let offered: Vec<&str> = t
        .lines()
        .filter_map(|l| l.strip_prefix("# place "))
        .collect();
    assert!(offered.len() >= 2, "{t}");
    for o in offered {
        let mut c = st.clone();
        let out = send(&mut c, "axis", &format!("place {o}"), &mut Cycle(1));
        assert!(first_result(&out).is_ok(), "place {o}: {out:?}");
    }
}

// R610: a side that sends nothing by the deadline keeps the objective where its scenario draws
// it; the game never waits forever.
#[test]
fn s003_12_the_deadline_keeps_the_objective_the_scenario_draws() {
    let mut st = game();
    let mut d = ScriptedDice::new([1, 1, 1, 5, 5, 5]);
    let out = DustTactics.default_for(&mut st, "allies", &mut d);
    assert!(out.accepted_any(), "{out:?}");
    assert!(
        texts(&out).contains("allies places its objective on G9"),
        "{}",
        texts(&out)
    );
    assert_eq!(DustTactics.awaiting(&st)[0].side, "axis");
    let out = DustTactics.default_for(&mut st, "axis", &mut Cycle(1));
    assert!(out.accepted_any(), "{out:?}");
    assert_eq!(objective_squares(&st), vec![at(&st, "G4"), at(&st, "G9")]);
    assert!(st.placing.is_none());
}

// 003 §12 places objectives in a battlefront-2013 game only, one per side's half: `new`
// refuses the line under another ruleset, and a file drawing no objective in a side's half.
#[test]
fn s003_12_place_objectives_needs_the_battlefront_ruleset_and_one_objective_a_half() {
    let sc = game().scenario;
    let mut one = sc.clone();
    one.objectives.truncate(1);
    let e = DustTactics
        .start("battlefront-2013", one, vec![squad("sq")])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("one `grab` (with a side) or `vp` objective in the half of allies"),
        "{e}"
    );
    let e = DustTactics
        .start("ffg-revised", sc, vec![squad("sq")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("battlefront-2013"), "{e}");
}

// 003 §12 Bait and Flank, Supply Drop, All-Out Attack ship with `place_objectives`: two players
// play Supply Drop to its end through signed mails, placing the objectives first; the sent mails
// show the placements; replay and audit pass (inside `play_by_mail`).
#[test]
fn s003_12_supply_drop_objectives_placed_by_signed_mail_replayed_and_audited() {
    for name in ["bait-and-flank", "supply-drop", "all-out-attack"] {
        let text = scenario::builtin()
            .into_iter()
            .find(|(n, _)| *n == name)
            .expect("shipped")
            .1;
        assert!(
            scenario::parse(name, text).unwrap().place_objectives,
            "{name}"
        );
    }
    let (flat, st) =
        super::battlefront_scenarios::play_by_mail("supply-drop", ["ssu", "allies"], 71);
    assert!(flat.contains("Placing the objectives (003"), "no briefing");
    assert!(
        flat.contains("ssu places its objective on"),
        "no ssu placement"
    );
    assert!(
        flat.contains("allies places its objective on"),
        "no allies placement"
    );
    assert!(st.result.is_some());
}
