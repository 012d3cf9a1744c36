//! Issue 13: the ruleset `classic-2010`, Dust Tactics as the 2010 core rulebook (seed 000) plays
//! it, beside `ffg-revised` (004). Where the two differ, a pair of tests: one per ruleset, each
//! citing its rulebook's section.

use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::bot::{Bot, Style};
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::orders::Command;
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
    assert!(
        out.contains("classic-2010           the 2010 core rulebook (000)"),
        "{out}"
    );
    let line = |name: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("{name} missing:\n{out}"))
            .to_string()
    };
    assert!(
        line("skirmish").contains("rulesets ffg-revised, classic-2010"),
        "{out}"
    );
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
    let created: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
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
    assert!(
        text.contains("..~..."),
        "the skirmish board has an open row to flood"
    );
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
    assert!(
        out.contains("DeepWater terrain") && out.contains("dot"),
        "{out}"
    );
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

// ---------------------------------------------------------------------------------------------
// Item 2: the action economy. 000 "What can a unit do when it is activated?"
// ---------------------------------------------------------------------------------------------

/// Allies squad `a1` at E5, axis squad `x1` at E2 (in gun range 4), under `ruleset`; allies
/// activate first.
fn duel_under(ruleset: &str) -> State {
    let s = scenario(
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "sq", Some("E2"))],
    );
    let mut st = if ruleset == "classic-2010" {
        start_classic(s, vec![squad("sq")])
    } else {
        start(s, vec![squad("sq")])
    };
    begin(&mut st, "allies");
    st
}

// issue 13 item 2, §13.1 "Double move": 000 "Move twice (MOVE + MOVE)": "double your unit's
// Movement ... (however any diagonal move beyond the first still costs 2)": one move, so the
// second diagonal of the two MOVEs costs 2 and a Movement-1 squad cannot make it.
#[test]
fn move_twice_000_is_one_move_of_double_movement() {
    let mut st = duel_under("classic-2010");
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("D6"), mv("C7")]),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("C7 is 3 movement points away") && reason.contains("a1 has 2"),
        "{reason}"
    );
    assert!(rule.starts_with("000 'Move twice (MOVE + MOVE)'"), "{rule}");
    assert_eq!(st, before, "a refused activation changes nothing");
    // Straight on, the two MOVEs are one move of 2 squares: one step, no stop between.
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E6"), mv("E7")]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert!(
        texts(&out).contains("a1 moves to E7 (E6 E7)"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "a1").at, Some(sq("E7")));
}

// issue 13 item 2, §13.1 "Double move": 004 "Actions": MOVE + MOVE are two MOVE actions of up to
// the unit's Movement each; the first diagonal of each costs 1.
#[test]
fn move_twice_004_is_two_move_actions() {
    let mut st = duel_under("ffg-revised");
    // Out of x1's reach the window stays shut; each MOVE's diagonal is its first.
    st.unit_mut("x1").unwrap().at = Some(sq("A1"));
    st.unit_mut("a1").unwrap().at = Some(sq("I5"));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("H6"), mv("G7")]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    let t = texts(&out);
    assert!(
        t.contains("a1 moves to H6") && t.contains("a1 moves to G7"),
        "{t}"
    );
    assert_eq!(u(&st, "a1").at, Some(sq("G7")));
}

// issue 13 item 2, §13.1 "Reactive fire": 000 has none: MOVE + ATTACK and MOVE + MOVE with an
// enemy in reach run to their end, and nothing is awaited from the enemy.
#[test]
fn reactive_fire_000_absent_no_window_opens() {
    let mut st = duel_under("classic-2010");
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E4"), mv("F4")]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("F4")));
    assert_eq!(awaited(&st), vec![("axis".into(), "activate".into())]);
    assert!(!texts(&out).contains("react"), "{}", texts(&out));
    // MOVE + ATTACK: the attack is rolled at once (4 misses), no reactive die before it; then
    // the round ends and round 2's initiative is rolled (allies 1 hit, axis none).
    let mut d = ScriptedDice::new([6, 6, 6, 6, 1, 5, 5, 5, 5, 5]);
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![mv("E3"), attack("gun", "a1")]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    let first_roll = out.happenings.iter().find_map(|h| h.rolls.first()).unwrap();
    assert_eq!(
        first_roll.faces,
        vec![6, 6, 6, 6],
        "the attack is the first roll"
    );
    assert!(!texts(&out).contains("react"), "{}", texts(&out));
}

// issue 13 item 2, §13.1 "Reactive fire": 004 "Reactive fire situations": after the first MOVE
// of MOVE + MOVE the enemy may react.
#[test]
fn reactive_fire_004_window_after_the_first_move() {
    let mut st = duel_under("ffg-revised");
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E4"), mv("F4")]),
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(u(&st, "a1").at, Some(sq("E4")));
    assert_eq!(awaited(&st), vec![("axis".into(), "react".into())]);
}

// issue 13 item 2: a `react` or `standing react` line under classic-2010 is refused saying the
// 2010 rules have no reactive fire, and changes nothing.
#[test]
fn reactive_fire_000_a_react_line_is_refused() {
    let mut st = duel_under("classic-2010");
    let before = st.clone();
    for c in [
        Command::React {
            unit: Some("x1".into()),
        },
        Command::React { unit: None },
        Command::StandingReact {
            trigger: None,
            answer: dustmail::dust_tactics::orders::StandingReaction::Ask,
        },
    ] {
        let out = cmd(&mut st, "axis", c, &mut ScriptedDice::new([]));
        let (reason, rule) = refused(&out);
        assert!(
            reason.contains("the 2010 rules (ruleset classic-2010) have no reactive fire"),
            "{reason}"
        );
        assert!(
            rule.starts_with("000 'What can a unit do when it is activated?'"),
            "{rule}"
        );
        assert_eq!(st, before);
    }
}

// issue 13 item 2: the orders template of a classic-2010 game offers no `react`, and says what
// MOVE + MOVE is; ffg-revised's still offers `standing react`.
#[test]
fn reactive_fire_000_the_orders_template_offers_no_react() {
    let st = duel_under("classic-2010");
    let t = DustTactics.orders_template(&st, "allies");
    assert!(!t.contains("react"), "{t}");
    assert!(t.contains("one move of double Movement"), "{t}");
    let st = duel_under("ffg-revised");
    let t = DustTactics.orders_template(&st, "allies");
    assert!(t.contains("standing react"), "{t}");
    assert!(!t.contains("double Movement"), "{t}");
}

// ---------------------------------------------------------------------------------------------
// Item 4: whole games under classic-2010
// ---------------------------------------------------------------------------------------------

/// SplitMix64 dice, so the games are the same on every machine.
struct Rng(u64);

impl dustmail::game::DiceSource for Rng {
    fn d6(&mut self, _round: u32) -> u8 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % 6) as u8 + 1
    }
}

/// Plays shipped scenario `name` under classic-2010 to its end with two bots sending the text a
/// player would sign; every command must be accepted and nobody may ever be asked to react.
fn play_classic(name: &str, text: &str, style: impl Fn(usize) -> Style, seed: u64) {
    use dustmail::game::{CommandOutcome, Line, Sender, Setup};
    let setup = Setup {
        ruleset: "classic-2010".into(),
        scenario_name: name.into(),
        scenario: text.into(),
        cards: dustmail::dust_tactics::cards::builtin()
            .into_iter()
            .map(|(f, t)| (f.to_string(), t.to_string()))
            .collect(),
        sides: vec![],
        rules_revision: dustmail::dust_tactics::rules::RULES_REVISION,
    };
    let mut st = DustTactics
        .setup(&setup)
        .expect("a classic scenario sets up");
    let mut bots: Vec<Bot> = st
        .sides()
        .iter()
        .enumerate()
        .map(|(i, s)| Bot::new(s, style(i)))
        .collect();
    // Every standing order but `react`, which this ruleset does not have.
    for b in bots.iter_mut() {
        b.set_standing(
            "standing first ask\nstanding casualties any ask\nstanding retaliate any ask",
        );
    }
    let mut dice = Rng(seed);
    for _ in 0..3000 {
        if st.result.is_some() {
            break;
        }
        let awaited = DustTactics.awaiting(&st);
        assert!(
            awaited.iter().all(|a| a.decision != "react"),
            "{name}: {awaited:?}"
        );
        let b = bots
            .iter_mut()
            .find(|b| awaited.iter().any(|a| a.side == b.side))
            .unwrap_or_else(|| panic!("{name}: nobody can answer {awaited:?}"));
        let orders = b.orders(&st).expect("the bot answers");
        let lines: Vec<Line> = orders
            .lines()
            .enumerate()
            .map(|(i, t)| Line {
                number: i + 1,
                text: t.into(),
            })
            .collect();
        let out = DustTactics.submit(&mut st, Sender::side(&b.side), &lines, &mut dice);
        for r in &out.results {
            assert!(
                matches!(r.outcome, CommandOutcome::Accepted { .. }),
                "{name} seed {seed}: {orders}\n{:?}",
                r.outcome
            );
        }
        assert!(!texts(&out).contains("reactive"), "{}", texts(&out));
    }
    assert!(st.result.is_some(), "{name} seed {seed} did not end");
    assert!(st.round <= st.scenario.rounds);
}

// issue 13 item 4 ("done means: two players can play every shipped scenario under classic-2010
// ... to its end"): every shipped scenario that suits classic-2010, played by the bundled bots.
#[test]
fn classic_2010_every_suiting_scenario_plays_to_its_end() {
    let mut played = 0;
    for (name, text) in dustmail::dust_tactics::scenario::builtin() {
        let s = dustmail::dust_tactics::scenario::parse(name, text).unwrap();
        if !s.rulesets.iter().any(|r| r == "classic-2010") {
            continue;
        }
        play_classic(name, text, |_| Style::Aggressive, 11);
        for seed in 1..=2u64 {
            play_classic(name, text, |i| Style::Random(seed * 31 + i as u64), seed);
        }
        played += 1;
    }
    assert_eq!(
        played, 4,
        "skirmish, reconnaissance, crossroads, two-on-two"
    );
}
