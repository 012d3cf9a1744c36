//! Issue 13: the ruleset `classic-2010`, Dust Tactics as the 2010 core rulebook (seed 000) plays
//! it, beside `ffg-revised` (004). Where the two differ, a pair of tests: one per ruleset, each
//! citing its rulebook's section.

use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::orders::Command;
use dustmail::dust_tactics::rules::Rules;
use dustmail::dust_tactics::scenario::Scenario;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, ScriptedDice};
use std::path::Path;

/// A game of `s` under classic-2010, no standing orders (there is nothing to react to).
fn start_classic(s: Scenario, cards: Vec<Card>) -> State {
    DustTactics.start("classic-2010", s, cards).expect("setup")
}

/// `dustmail new` of `scenario` (a name or a file) under `ruleset` in a fresh home.
fn new_game(root: &Path, ruleset: &str, scenario: &str) -> std::process::Output {
    dt::init_home(root, "file");
    let ps = dt::players(7);
    let mut args: Vec<String> = [
        "new",
        "--ruleset",
        ruleset,
        "--scenario",
        scenario,
        "--id",
        "g-c",
        "--now",
        dt::T0,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for p in &ps {
        args.push("--player".into());
        args.push(format!(
            "{}={}:{}",
            p.side,
            p.address,
            dustmail::crypto::public_key_text(&p.key.verifying_key())
        ));
    }
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    dt::dustmail(root, &a)
}

// ---------------------------------------------------------------------------------------------
// Item 1: the ruleset offered, recorded, replayed; scenarios say which rulesets they suit
// ---------------------------------------------------------------------------------------------

// issue 13 item 1: `dustmail games` lists classic-2010, and which scenarios suit it.
#[test]
fn classic_2010_games_lists_the_ruleset_and_the_scenarios_it_suits() {
    let dir = tempfile::tempdir().unwrap();
    let o = dt::dustmail(dir.path(), &["games"]);
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("classic-2010           the 2010 core rulebook (000)"), "{out}");
    let line = |name: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("{name} missing:\n{out}"))
            .to_string()
    };
    assert!(line("skirmish").contains("rulesets ffg-revised, classic-2010"), "{out}");
    assert!(line("full-box").ends_with("rulesets ffg-revised)"), "{out}");
}

// issue 13 item 1: `new --ruleset classic-2010` records the ruleset in the created line, and
// replay and audit of the game pass.
#[test]
fn classic_2010_new_records_the_ruleset_and_replay_and_audit_pass() {
    let dir = tempfile::tempdir().unwrap();
    let o = new_game(dir.path(), "classic-2010", "skirmish");
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let log = dir.path().join("games/g-c/log.jsonl");
    let first = std::fs::read_to_string(&log).unwrap();
    let created: serde_json::Value =
        serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert_eq!(created["kind"], "created");
    assert_eq!(created["ruleset"], "classic-2010");
    assert_eq!(created["setup"]["ruleset"], "classic-2010");
    let o = dt::dustmail(dir.path(), &["replay", "g-c"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let o = dt::dustmail(dir.path(), &["audit", log.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

// issue 13 item 1: a scenario written for the other ruleset is refused at `new` with what to do,
// and no game is made.
#[test]
fn classic_2010_new_refuses_a_scenario_that_does_not_suit_it() {
    let dir = tempfile::tempdir().unwrap();
    let o = new_game(dir.path(), "classic-2010", "full-box");
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains("scenario `full-box` does not suit ruleset classic-2010")
            && out.contains("--ruleset ffg-revised"),
        "{out}"
    );
    assert!(!dir.path().join("games/g-c").exists(), "{out}");
    // The same scenario under ffg-revised is made as before.
    let dir = tempfile::tempdir().unwrap();
    let o = new_game(dir.path(), "ffg-revised", "full-box");
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

/// A scenario file of skirmish with a deep-water square and no `rulesets` line.
fn water_scenario(dir: &Path) -> String {
    let (_, text) = dustmail::dust_tactics::scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "skirmish")
        .unwrap();
    let text = text
        .lines()
        .filter(|l| !l.starts_with("rulesets"))
        .collect::<Vec<_>>()
        .join("\n");
    let text = text.replacen("  \"......\",", "  \"..~...\",", 1);
    assert!(text.contains("..~..."), "the skirmish board has an open row to flood");
    let path = dir.join("water.toml");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

// issue 13 item 1, §13.1 "Terrain types" (000 "Movement rules": a square has a dot or not):
// a board with deep water is refused under classic-2010, naming the square.
#[test]
fn terrain_000_only_dot_or_no_dot_squares() {
    let files = tempfile::tempdir().unwrap();
    let file = water_scenario(files.path());
    let dir = tempfile::tempdir().unwrap();
    let o = new_game(dir.path(), "classic-2010", &file);
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("DeepWater terrain") && out.contains("dot"), "{out}");
    assert!(!dir.path().join("games/g-c").exists());
}

// issue 13 item 1, §13.1 "Terrain types" (004 "Terrain": deep water, rubble, smoke, trees):
// the same board is a game under ffg-revised.
#[test]
fn terrain_004_water_rubble_smoke_and_trees() {
    let files = tempfile::tempdir().unwrap();
    let file = water_scenario(files.path());
    let dir = tempfile::tempdir().unwrap();
    let o = new_game(dir.path(), "ffg-revised", &file);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

// issue 13 item 1: a scenario naming a ruleset that does not exist is refused with the known ones.
#[test]
fn classic_2010_a_scenario_naming_an_unknown_ruleset_is_refused() {
    let (_, text) = dustmail::dust_tactics::scenario::builtin()[0];
    let bad = text.replace("\"classic-2010\"", "\"classic-2011\"");
    let e = dustmail::dust_tactics::scenario::parse("x", &bad).unwrap_err();
    assert!(
        e.0.contains("`rulesets`") && e.0.contains("ffg-revised, classic-2010"),
        "{}",
        e.0
    );
}

// issue 13 item 4: `demo --ruleset classic-2010` plays a whole game through the pipeline, and
// the game replays.
#[test]
fn classic_2010_demo_plays_a_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("demo");
    let o = dt::dustmail(&home, &["demo", "--ruleset", "classic-2010"]);
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("ruleset classic-2010"), "{out}");
    assert!(out.contains("the demo game ended"), "{out}");
    let o = dt::dustmail(&home, &["replay", "g-demo"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}
