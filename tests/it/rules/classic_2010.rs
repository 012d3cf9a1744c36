//! Issue 13: the ruleset `classic-2010`, Dust Tactics as the 2010 core rulebook (seed 000) plays
//! it, beside `ffg-revised` (004). Where the two differ, a pair of tests: one per ruleset, each
//! citing its rulebook's section.

use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::bot::{Bot, Style};
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
    let args = [
        "--ruleset",
        ruleset,
        "--scenario",
        scenario,
        "--id",
        "g-c",
        "--now",
        dt::T0,
    ];
    dt::new_with_players(root, &args, &dt::players(7))
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

// ---------------------------------------------------------------------------------------------
// Item 3: the other differences of §13.1, a pair of tests each
// ---------------------------------------------------------------------------------------------

/// A game of `allies` against `axis` under `ruleset`, allies activating first. Standing react
/// `never` under ffg-revised keeps its windows out of these tests.
fn game_under(
    ruleset: &str,
    allies: Vec<dustmail::dust_tactics::scenario::UnitSpec>,
    axis: Vec<dustmail::dust_tactics::scenario::UnitSpec>,
    cards: Vec<Card>,
) -> State {
    let mut st = DustTactics
        .start(ruleset, scenario(allies, axis), cards)
        .expect("setup");
    if st.rules().reactive_fire() {
        for side in st.sides() {
            dustmail::dust_tactics::flow::standing_react(
                &mut st,
                &side,
                None,
                dustmail::dust_tactics::state::Policy::Never,
            )
            .expect("standing react never");
        }
    }
    begin(&mut st, "allies");
    st
}

/// Allies `a1` (squad, knife range 1) at E5 next to axis `x1` (squad with Damage Resilient) at
/// E4.
fn resilient_duel(ruleset: &str) -> State {
    let knife = card(
        "kn",
        UnitType::Squad,
        4,
        1,
        vec![weapon("knife", WeaponRange::Upto(1), 1, 1)],
    );
    let tough = with_skill(squad("dr"), "damage-resilient", None);
    game_under(
        ruleset,
        vec![unit("a1", "kn", Some("E5"))],
        vec![unit("x1", "dr", Some("E4"))],
        vec![knife, tough],
    )
}

// issue 13 item 3, §13.1 "Damage Resilient": 000 "Damage Resilient": "Damage resilient does not
// work against Flame weapons, artillery weapons (range A), and any weapons with range 1": the
// knife's hit is not rolled against.
#[test]
fn damage_resilient_000_not_against_range_1() {
    let mut st = resilient_duel("classic-2010");
    // 4 knife dice: one hit; no resilient die.
    let mut d = ScriptedDice::new([1, 6, 6, 6]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("knife", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert!(!texts(&out).contains("Damage Resilient"), "{}", texts(&out));
    assert_eq!(u(&st, "x1").health, 3);
}

// issue 13 item 3, §13.1 "Damage Resilient": 004 "Damage Resilient" lists no exclusion: the
// knife's damage point is rolled against, and a hit ignores it.
#[test]
fn damage_resilient_004_against_every_weapon() {
    let mut st = resilient_duel("ffg-revised");
    let mut d = ScriptedDice::new([1, 6, 6, 6, /* resilient */ 2]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("knife", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert!(
        texts(&out).contains("1 ignored (Damage Resilient)"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "x1").health, 4);
}

/// A `1/(+)` line against a four-model squad.
fn ap_incendiary_at_a_squad(
    rules: Rules,
    faces: &[u8],
) -> dustmail::dust_tactics::combat::LineOutcome {
    use dustmail::dust_tactics::combat::{resolve_line_under, FireOptions, TargetProfile};
    let mut w = weapon("napalm", WeaponRange::Upto(2), 1, 1);
    w.soldier = [Fire::ApIncendiary { dice: 1 }; 4];
    let t = TargetProfile {
        armour: Armour::Soldier(2),
        unit_type: UnitType::Squad,
        models: 4,
        remaining: 4,
        cover: Cover::None,
        soft_save: Save::None,
        hard_save: Save::None,
        damage_resilient: false,
        bf: Default::default(),
    };
    let o = FireOptions {
        carriers: 1,
        ..FireOptions::default()
    };
    let mut d = ScriptedDice::new(faces.iter().copied());
    let out = resolve_line_under(rules, &w, &t, &o, 1, &mut d);
    assert_eq!(d.remaining(), 0);
    out
}

// issue 13 item 3, §13.1 "AP Incendiary": 000 "Special damage types" (`1/(+)`): "roll 1 die per
// miniature targeted ... Each hit means a target loses all its remaining health": two hits on
// four soldiers kill two.
#[test]
fn ap_incendiary_000_each_hit_kills_one_target() {
    let out = ap_incendiary_at_a_squad(Rules::classic_2010(), &[1, 2, 5, 6]);
    assert_eq!((out.hits, out.damage), (2, 2));
    assert!(!out.eliminate);
    // Four hits: every target, the whole squad.
    let out = ap_incendiary_at_a_squad(Rules::classic_2010(), &[1, 2, 1, 2]);
    assert_eq!((out.hits, out.damage), (4, 4));
    assert!(out.eliminate);
}

// issue 13 item 3, §13.1 "AP Incendiary": 004 "AP Incendiary Blast": "eliminate the entire unit
// on at least one HIT" (R34).
#[test]
fn ap_incendiary_004_one_hit_eliminates_the_unit() {
    let out = ap_incendiary_at_a_squad(Rules::ffg_revised(), &[1, 2, 5, 6]);
    assert_eq!(out.damage, 4);
    assert!(out.eliminate);
}

// issue 13 item 3: 000 "Special damage types" worked example under classic-2010: the Hot Dog's
// Napalm Thrower rolls 1 die at a JagdLuther (vehicle armour 5, 6 health); one hit and it is
// removed.
#[test]
fn ap_incendiary_000_example_napalm_thrower_destroys_a_jagdluther() {
    use dustmail::dust_tactics::combat::{resolve_line_under, FireOptions, TargetProfile};
    let napalm = dustmail::dust_tactics::cards::builtin_cards()
        .unwrap()
        .into_iter()
        .find(|c| c.id == "m2b-hot-dog")
        .unwrap()
        .weapon("napalm")
        .unwrap()
        .clone();
    let t = TargetProfile {
        armour: Armour::Vehicle(5),
        unit_type: UnitType::Vehicle,
        models: 1,
        remaining: 6,
        cover: Cover::None,
        soft_save: Save::None,
        hard_save: Save::None,
        damage_resilient: false,
        bf: Default::default(),
    };
    let o = FireOptions {
        carriers: 1,
        ..FireOptions::default()
    };
    let out = resolve_line_under(
        Rules::classic_2010(),
        &napalm,
        &t,
        &o,
        1,
        &mut ScriptedDice::new([2]),
    );
    assert!(out.eliminate);
    assert_eq!(out.damage, 6);
}

/// Allies hero `h` (pistol range 4, 1 die) with `skill` at E6, axis squad `x1` at E2.
fn hero_duel(ruleset: &str, skill: &str) -> State {
    let hero = with_skill(
        card(
            "hero",
            UnitType::Hero,
            3,
            1,
            vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
        ),
        skill,
        None,
    );
    game_under(
        ruleset,
        vec![unit("h", "hero", Some("E6"))],
        vec![unit("x1", "sq", Some("E2"))],
        vec![hero, squad("sq")],
    )
}

// issue 13 item 3, §13.1 "Fighting Spirit": 000 "Fighting Spirit": "The hero treats all misses
// as hits when attacking with all of his weapons, as long as he also moved once this round":
// every time, undeclared, and not counted as a use.
#[test]
fn fighting_spirit_000_every_time_the_hero_moved_before_attacking() {
    let mut st = hero_duel("classic-2010", "fighting-spirit");
    // As if used in an earlier round: 000 has no limit.
    st.unit_mut("h")
        .unwrap()
        .skills_used
        .insert("fighting-spirit".into(), 1);
    let mut d = ScriptedDice::new([6]);
    let out = cmd(
        &mut st,
        "allies",
        activate("h", vec![mv("E5"), attack("pistol", "x1")]),
        &mut d,
    );
    accepted(&out);
    let t = texts(&out);
    assert!(t.contains("reversed dice") && t.contains("1 hit"), "{t}");
    assert_eq!(u(&st, "x1").health, 3);
    // Declared, it is accepted again as well.
    let mut st = hero_duel("classic-2010", "fighting-spirit");
    st.unit_mut("h")
        .unwrap()
        .skills_used
        .insert("fighting-spirit".into(), 1);
    accepted(&cmd(
        &mut st,
        "allies",
        activate(
            "h",
            vec![skill("fighting-spirit"), mv("E5"), attack("pistol", "x1")],
        ),
        &mut ScriptedDice::new([6]),
    ));
    // Without a move first, the dice are not reversed: the 6 misses.
    let mut st = hero_duel("classic-2010", "fighting-spirit");
    let out = cmd(
        &mut st,
        "allies",
        activate("h", vec![attack("pistol", "x1"), mv("E7")]),
        &mut ScriptedDice::new([6]),
    );
    accepted(&out);
    assert!(!texts(&out).contains("reversed dice"), "{}", texts(&out));
    assert_eq!(u(&st, "x1").health, 4);
}

// issue 13 item 3, §13.1 "Fighting Spirit": 004 "Fighting Spirit": once per game, declared:
// undeclared the dice are not reversed, and a second use is refused.
#[test]
fn fighting_spirit_004_once_per_game() {
    let mut st = hero_duel("ffg-revised", "fighting-spirit");
    let out = cmd(
        &mut st,
        "allies",
        activate("h", vec![mv("E5"), attack("pistol", "x1")]),
        &mut ScriptedDice::new([6]),
    );
    accepted(&out);
    assert!(!texts(&out).contains("reversed dice"), "{}", texts(&out));
    let mut st = hero_duel("ffg-revised", "fighting-spirit");
    st.unit_mut("h")
        .unwrap()
        .skills_used
        .insert("fighting-spirit".into(), 1);
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "h",
            vec![skill("fighting-spirit"), mv("E5"), attack("pistol", "x1")],
        ),
        &mut ScriptedDice::new([]),
    );
    assert!(
        refused(&out).0.contains("already used fighting-spirit"),
        "{:?}",
        refused(&out)
    );
}

/// A squad (not a hero) with Berserk at E6, axis squad `x1` at E2.
fn berserk_squad(ruleset: &str) -> State {
    let c = with_skill(squad("bs"), "berserk", None);
    game_under(
        ruleset,
        vec![unit("a1", "bs", Some("E6"))],
        vec![unit("x1", "sq", Some("E2"))],
        vec![c, squad("sq")],
    )
}

// issue 13 item 3, §13.1 "Berserk": 000 "Berserk": "A hero with this ability ... Once per game,
// the hero may re-roll all of his failed attacks": a squad's own Berserk is refused; a hero's
// is used.
#[test]
fn berserk_000_heroes_only() {
    let mut st = berserk_squad("classic-2010");
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![skill("berserk"), attack("gun", "x1"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("a1 is not a hero"), "{reason}");
    assert!(rule.starts_with("000 'Berserk'"), "{rule}");
    assert_eq!(st, before);
    let mut st = hero_duel("classic-2010", "berserk");
    // 1 pistol die misses, Berserk re-rolls it: a hit.
    let mut d = ScriptedDice::new([6, 1]);
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "h",
            vec![skill("berserk"), attack("pistol", "x1"), nothing()],
        ),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "x1").health, 3);
}

// issue 13 item 3, §13.1 "Berserk": 004 "Berserk": any unit with it, once per game, per weapon
// line: the squad's Berserk re-rolls its misses.
#[test]
fn berserk_004_any_unit_with_it() {
    let mut st = berserk_squad("ffg-revised");
    // 4 gun dice miss, all 4 re-rolled: one hit.
    let mut d = ScriptedDice::new([6, 6, 6, 6, 1, 6, 6, 6]);
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![skill("berserk"), attack("gun", "x1"), nothing()]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "x1").health, 3);
}

/// A hero with Jump joining a squad without it, set up under `ruleset`.
fn jump_join(ruleset: &str) -> Result<State, dustmail::game::SetupError> {
    let hero = with_skill(card("jh", UnitType::Hero, 3, 1, vec![]), "jump", None);
    let mut s = scenario(
        vec![unit("a1", "sq", Some("E5")), unit("jh", "jh", None)],
        vec![unit("x1", "sq", Some("E2"))],
    );
    s.sides[0].units[1].joins = Some("a1".into());
    DustTactics.start(ruleset, s, vec![squad("sq"), hero])
}

// issue 13 item 3, §13.1 "Jump": 000 "Jump": "A hero with this ability does not share it with
// any squad he joins": he may join a squad without Jump (R203), and the squad does not jump.
#[test]
fn jump_000_a_hero_with_jump_joins_a_squad_without_it() {
    let mut st = jump_join("classic-2010").expect("000 lets the hero join");
    assert_eq!(u(&st, "jh").joined.as_deref(), Some("a1"));
    begin(&mut st, "allies");
    // A friendly unit in the way is walked through anyway; an enemy square is not jumped.
    st.unit_mut("x1").unwrap().at = Some(sq("E4"));
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "a1",
            vec![
                dustmail::dust_tactics::orders::Action::Move {
                    squares: vec![sq("E4"), sq("E3")],
                },
                nothing(),
            ],
        ),
        &mut ScriptedDice::new([]),
    );
    assert!(
        refused(&out).0.contains("occupied by enemy unit x1"),
        "{:?}",
        refused(&out)
    );
}

// issue 13 item 3, §13.1 "Jump": 004 "Jump": "Both the hero and the squad must have Jump to
// join": the same join is refused at setup.
#[test]
fn jump_004_hero_and_squad_both_need_jump_to_join() {
    let e = jump_join("ffg-revised").unwrap_err();
    assert!(e.0.contains("both hero and squad must have it"), "{}", e.0);
}

/// Allies `h1` (Black Ops hero) and squad `a1`, axis squad `x1`, under `ruleset`, with the hero
/// eliminated; the first initiative is still to roll.
fn black_ops_hero_dead(ruleset: &str) -> State {
    let hero = with_skill(card("bo", UnitType::Hero, 3, 1, vec![]), "black-ops", None);
    let mut st = DustTactics
        .start(
            ruleset,
            scenario(
                vec![unit("h1", "bo", Some("A5")), unit("a1", "sq", Some("B5"))],
                vec![unit("x1", "sq", Some("E2"))],
            ),
            vec![squad("sq"), hero],
        )
        .unwrap();
    st.unit_mut("h1").unwrap().destroyed = true;
    st.unit_mut("h1").unwrap().at = None;
    st
}

// issue 13 item 3, §13.1 "Black Ops": 000 "Black Ops": "should the hero be eliminated during the
// game, you lose this bonus": 3 initiative dice, not 4.
#[test]
fn black_ops_000_lost_when_the_hero_dies() {
    let mut st = black_ops_hero_dead("classic-2010");
    let mut d = ScriptedDice::new([5, 5, 1, 5, 5, 5]);
    let out = DustTactics.default_for(&mut st, "axis", &mut d);
    assert_eq!(out.happenings[0].rolls[0].faces.len(), 3);
    assert_eq!(d.remaining(), 0);
}

// issue 13 item 3, §13.1 "Black Ops": 004 "Black Ops" does not repeat the death clause; the
// ffg-revised ruleset takes it from 000 where 004 is silent, so the bonus is lost as well (the
// two rulesets agree here).
#[test]
fn black_ops_004_bonus_while_the_hero_lives() {
    let mut st = black_ops_hero_dead("ffg-revised");
    st.unit_mut("h1").unwrap().destroyed = false;
    st.unit_mut("h1").unwrap().at = Some(sq("A5"));
    let mut d = ScriptedDice::new([5, 5, 5, 1, 5, 5, 5]);
    let out = DustTactics.default_for(&mut st, "axis", &mut d);
    assert_eq!(out.happenings[0].rolls[0].faces.len(), 4);
    let mut st = black_ops_hero_dead("ffg-revised");
    let mut d = ScriptedDice::new([5, 5, 1, 5, 5, 5]);
    let out = DustTactics.default_for(&mut st, "axis", &mut d);
    assert_eq!(out.happenings[0].rolls[0].faces.len(), 3);
}

/// Allies squad `a1` (Movement 1, Fast) at E9, axis far away at A1, under `ruleset`.
fn fast_squad(ruleset: &str) -> State {
    let c = with_skill(squad("fs"), "fast", None);
    game_under(
        ruleset,
        vec![unit("a1", "fs", Some("E9"))],
        vec![unit("x1", "sq", Some("A1"))],
        vec![c, squad("sq")],
    )
}

// issue 13 item 3, §13.1 "Fast": 000 "Fast" example: Assault Rangers (Movement 1, Fast) "move
// three squares (Movement 1 multiplied by two + 1 for Fast)" when they move twice; not four.
#[test]
fn fast_000_plus_one_not_doubled_on_a_double_move() {
    let mut st = fast_squad("classic-2010");
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E8"), mv("E5")]),
        &mut ScriptedDice::new([]),
    );
    assert!(refused(&out).0.contains("a1 has 3"), "{:?}", refused(&out));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E8"), mv("E6")]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "a1").at, Some(sq("E6")));
    // MOVE + SHOOT: two squares.
    let mut st = fast_squad("classic-2010");
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E7"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
}

// issue 13 item 3, §13.1 "Fast": 004 "Fast": +1 space on one of the MOVEs: 2 + 1 squares over
// two MOVE actions, not 2 + 2.
#[test]
fn fast_004_plus_one_on_one_move() {
    let mut st = fast_squad("ffg-revised");
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E7"), mv("E5")]),
        &mut ScriptedDice::new([]),
    );
    assert!(refused(&out).0.contains("a1 has 1"), "{:?}", refused(&out));
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E7"), mv("E6")]),
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(u(&st, "a1").at, Some(sq("E6")));
}

/// Allies squad `a1` (Movement 1, Charge, a claw of range C) at E5, axis squad `x1` at `enemy`.
fn charger(ruleset: &str, enemy: &str) -> State {
    let mut c = with_skill(squad("ch"), "charge", None);
    c.weapons.push(weapon("claw", WeaponRange::Close, 1, 1));
    game_under(
        ruleset,
        vec![unit("a1", "ch", Some("E5"))],
        vec![unit("x1", "sq", Some(enemy))],
        vec![c, squad("sq")],
    )
}

// issue 13 item 3, §13.1 "Charge": 000 "Charge": "move one extra square at the end of its
// movement ... only ... into a square adjacent to an enemy unit. After this extra movement, the
// unit must attack with all of its weapons that have range 1 ... MOVE + MOVE + 1 free square +
// attack ... The second MOVE is not required".
#[test]
fn charge_000_moves_plus_one_free_square_then_attack() {
    // MOVE + MOVE + free square: E5 to E2 (3 squares for Movement 1), next to x1 on E1.
    let mut st = charger("classic-2010", "E1");
    let mut d = ScriptedDice::new([1, 6, 6, 6]);
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "a1",
            vec![skill("charge"), mv("E4"), mv("E2"), attack("claw", "x1")],
        ),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "a1").at, Some(sq("E2")));
    assert_eq!(u(&st, "x1").health, 3);
    // MOVE + free square: E5 to E3, next to x1 on E2.
    let mut st = charger("classic-2010", "E2");
    let mut d = ScriptedDice::new([6, 6, 6, 6]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![skill("charge"), mv("E3"), attack("claw", "x1")]),
        &mut d,
    ));
    assert_eq!(u(&st, "a1").at, Some(sq("E3")));
    // The free square only into a square next to an enemy: E5 to E3 with x1 on E1 is refused.
    let mut st = charger("classic-2010", "E1");
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![skill("charge"), mv("E3"), attack("claw", "x1")]),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("which is not next to an enemy unit"),
        "{reason}"
    );
    assert!(rule.starts_with("000 'Charge'"), "{rule}");
    assert_eq!(st, before);
}

// issue 13 item 3, §13.1 "Charge": 004 "Charge": "an ATTACK action with all of its range 1 or
// range C weapons after performing 2 MOVE actions": no free square, and both MOVEs are needed.
#[test]
fn charge_004_two_moves_then_attack_no_extra_square() {
    let mut st = charger("ffg-revised", "E1");
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "a1",
            vec![skill("charge"), mv("E4"), mv("E2"), attack("claw", "x1")],
        ),
        &mut ScriptedDice::new([]),
    );
    assert!(refused(&out).0.contains("a1 has 1"), "{:?}", refused(&out));
    let mut st = charger("ffg-revised", "E3");
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![skill("charge"), mv("E4"), attack("claw", "x1")]),
        &mut ScriptedDice::new([]),
    );
    assert!(
        refused(&out).0.contains("Charge is move, move, attack"),
        "{:?}",
        refused(&out)
    );
    let mut st = charger("ffg-revised", "E2");
    let mut d = ScriptedDice::new([6, 6, 6, 6]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate(
            "a1",
            vec![skill("charge"), mv("E4"), mv("E3"), attack("claw", "x1")],
        ),
        &mut d,
    ));
    assert_eq!(u(&st, "a1").at, Some(sq("E3")));
}

/// Allies squad `a1` (Movement 2, Jump) at E5, an axis vehicle `v1` at E4 in its way.
fn jumper_and_vehicle(ruleset: &str) -> State {
    let mut j = with_skill(squad("jp"), "jump", None);
    j.movement = 2;
    let v = card(
        "veh",
        UnitType::Vehicle,
        4,
        1,
        vec![weapon("mg", WeaponRange::Upto(4), 1, 1)],
    );
    game_under(
        ruleset,
        vec![unit("a1", "jp", Some("E5"))],
        vec![unit("v1", "veh", Some("E4"))],
        vec![j, v],
    )
}

// issue 13 item 3, §13.1 "Jump": 000 "Jump": "A unit with Jump can jump over an enemy unit, a
// vehicle, or obstacles": E5 over the vehicle on E4 to E3.
#[test]
fn jump_000_over_a_vehicle() {
    let mut st = jumper_and_vehicle("classic-2010");
    accepted(&cmd(
        &mut st,
        "allies",
        activate(
            "a1",
            vec![
                dustmail::dust_tactics::orders::Action::Move {
                    squares: vec![sq("E4"), sq("E3")],
                },
                nothing(),
            ],
        ),
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(u(&st, "a1").at, Some(sq("E3")));
}

// issue 13 item 3, §13.1 "Jump": 004 "Jump": a unit may not jump a vehicle's space.
#[test]
fn jump_004_not_over_a_vehicle() {
    let mut st = jumper_and_vehicle("ffg-revised");
    let out = cmd(
        &mut st,
        "allies",
        activate(
            "a1",
            vec![
                dustmail::dust_tactics::orders::Action::Move {
                    squares: vec![sq("E4"), sq("E3")],
                },
                nothing(),
            ],
        ),
        &mut ScriptedDice::new([]),
    );
    assert!(
        refused(&out).0.contains("Jump cannot pass over a vehicle"),
        "{:?}",
        refused(&out)
    );
}

/// The 000 "End of the game" example's losses: the Allies lost 14 AP (three 2 AP squads, two
/// 4 AP robots), the Axis 12 AP; the last round is then played out with `nothing`.
fn losses_example(ruleset: &str) -> State {
    use dustmail::dust_tactics::state::Destruction;
    let mut st = game_under(
        ruleset,
        vec![unit("a1", "sq", Some("E5"))],
        vec![unit("x1", "sq", Some("E2"))],
        vec![squad("sq")],
    );
    let lost = |side: &str, unit: &str, ap: u32| Destruction {
        unit: unit.into(),
        side: side.into(),
        by: if side == "allies" { "axis" } else { "allies" }.into(),
        ap,
        round: 1,
    };
    st.destroyed = vec![
        lost("allies", "s1", 2),
        lost("allies", "s2", 2),
        lost("allies", "s3", 2),
        lost("allies", "r1", 4),
        lost("allies", "r2", 4),
        lost("axis", "s4", 2),
        lost("axis", "s5", 2),
        lost("axis", "r3", 4),
        lost("axis", "r4", 4),
    ];
    st.round = st.scenario.rounds;
    for side in ["allies", "axis"] {
        let id = if side == "allies" { "a1" } else { "x1" };
        accepted(&cmd(
            &mut st,
            side,
            activate(id, vec![nothing(), nothing()]),
            &mut ScriptedDice::new([]),
        ));
    }
    st
}

// issue 13 item 3, §13.1 "VP": 000 "End of the game" example: "the player who lost less Army
// Points wins": the Allies lost 14, the Axis 12, so the Axis wins.
#[test]
fn victory_000_the_side_that_lost_the_most_ap_loses() {
    let st = losses_example("classic-2010");
    let r = st.result.as_ref().expect("the round limit ends the game");
    assert_eq!(r.winner.as_deref(), Some("axis"), "{r:?}");
}

// issue 13 item 3, §13.1 "VP": 004 "Victory": the winner destroyed the most enemy AP (the same
// outcome for two sides: the Axis destroyed 14, the Allies 12).
#[test]
fn victory_004_the_side_that_destroyed_the_most_ap_wins() {
    let st = losses_example("ffg-revised");
    let r = st.result.as_ref().expect("the round limit ends the game");
    assert_eq!(r.winner.as_deref(), Some("axis"), "{r:?}");
    assert_eq!(r.points.get("axis"), Some(&14));
    assert_eq!(r.points.get("allies"), Some(&12));
}

/// Allies squad `a1` with two UGLs (two boxes) fires them at axis squad `x1` (on an ammo crate,
/// soft cover with a HIT save); returns the state and the dice left unused.
fn ugl_volley(ruleset: &str) -> (State, usize) {
    let mut c = squad("ug");
    let mut ugl = weapon("ugl", WeaponRange::Upto(4), 1, 1);
    ugl.ammo = Some(2);
    ugl.carriers = Some(2);
    ugl.traits.push(WeaponTrait::GrenadeLauncher);
    c.weapons.push(ugl);
    let mut target = squad("sq");
    target.soft_save = Save::Hit;
    let mut st = game_under(
        ruleset,
        vec![unit("a1", "ug", Some("E5"))],
        vec![unit("x1", "sq", Some("E2"))],
        vec![c, target],
    );
    st.scenario.board.cover.insert(
        sq("E2"),
        CoverElement {
            kind: CoverKind::AmmoCrate,
            damage: 0,
        },
    );
    // 2 UGL dice, both hit; no cover save is rolled.
    let mut d = ScriptedDice::new([1, 1]);
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("ugl", "x1"), nothing()]),
        &mut d,
    ));
    (st, d.remaining())
}

/// After the volley the boxes are gone: another UGL attack is refused.
fn ugl_out_of_boxes(mut st: State) {
    assert_eq!(u(&st, "a1").ammo["ugl"], 0);
    assert_eq!(u(&st, "x1").health, 2, "both hits went through the crate");
    st.unit_mut("a1").unwrap().activated = false;
    st.next_side = Some("allies".into());
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("ugl", "x1"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert!(
        refused(&out).0.contains("out of ammo"),
        "{:?}",
        refused(&out)
    );
}

// issue 13 item 3, §13.1 "UGL": 000 "UGL": "These weapons can only be used once per game ... Each
// time you use this weapon, mark the box ... UGL grenades always ignore cover".
#[test]
fn ugl_000_once_per_game_per_box_ignores_cover() {
    let (st, left) = ugl_volley("classic-2010");
    assert_eq!(left, 0);
    ugl_out_of_boxes(st);
}

// issue 13 item 3, §13.1 "UGL": 004 "UGL": ignores cover; limited through its ammo boxes (the
// two rulesets agree).
#[test]
fn ugl_004_ignores_cover_limited_by_boxes() {
    let (st, left) = ugl_volley("ffg-revised");
    assert_eq!(left, 0);
    ugl_out_of_boxes(st);
}

// ---------------------------------------------------------------------------------------------
// 000 worked examples played under classic-2010
// ---------------------------------------------------------------------------------------------

// issue 13 item 3: 000 "Attack!" example: the Hot Dog (Movement 1) "spends [its Movement] to
// enter the gameboard, and decides to perform a double movement. So it moves another square and
// is deactivated (MOVE + MOVE)"; then the Ludwig enters and shoots at it (MOVE + SHOOT), and
// nobody reacts in between.
#[test]
fn attack_000_example_hot_dog_enters_and_moves_ludwig_enters_and_shoots() {
    let hd = card(
        "hd",
        UnitType::Vehicle,
        4,
        1,
        vec![weapon("napalm", WeaponRange::Upto(2), 1, 1)],
    );
    let ludwig = card(
        "lw",
        UnitType::Vehicle,
        4,
        1,
        vec![weapon("cannon", WeaponRange::Unlimited, 1, 1)],
    );
    let mut st = game_under(
        "classic-2010",
        vec![unit("hotdog", "hd", None)],
        vec![unit("ludwig", "lw", None)],
        vec![hd, ludwig],
    );
    let out = cmd(
        &mut st,
        "allies",
        activate("hotdog", vec![mv("E9"), mv("E8")]),
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "hotdog").at, Some(sq("E8")));
    // The Ludwig enters on E1 and fires its cannon at once (1 die, a hit); then round 2's
    // initiative is rolled.
    let mut d = ScriptedDice::new([1, 1, 5, 5, 5, 5, 5]);
    let out = cmd(
        &mut st,
        "axis",
        activate("ludwig", vec![mv("E1"), attack("cannon", "hotdog")]),
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "hotdog").health, 3);
    assert!(!texts(&out).contains("react"), "{}", texts(&out));
}

// issue 13 item 3: 000 "Berserk" example under classic-2010 (Sigrid, a hero, with her Laser
// Grenadiers): 8 laser dice, sustained and Berserk, 4 damage, as under ffg-revised.
#[test]
fn berserk_000_example_sigrid_under_classic_2010() {
    use dustmail::dust_tactics::combat::{resolve_line_under, FireOptions, TargetProfile};
    let cards = dustmail::dust_tactics::cards::builtin_cards().unwrap();
    let card_of = |id: &str| cards.iter().find(|c| c.id == id).unwrap().clone();
    let rangers = card_of("assault-rangers");
    let t = TargetProfile {
        armour: rangers.armour,
        unit_type: rangers.unit_type,
        models: 5,
        remaining: 8,
        cover: Cover::None,
        soft_save: rangers.soft_save,
        hard_save: rangers.hard_save,
        damage_resilient: false,
        bf: Default::default(),
    };
    let o = FireOptions {
        carriers: 8,
        sustained: true,
        berserk: true,
        ..FireOptions::default()
    };
    let faces = [
        1, 3, 4, 5, 6, 3, 4, 5, // first roll: 1 hit
        4, // its laser chain misses
        2, 3, 4, 5, 6, 3, 4, // sustained: 1 hit, 6 misses
        5, // its chain misses
        1, 2, 3, 4, 5, 6, // Berserk: 2 hits, 4 misses
        3, 4, // both chains miss
    ];
    let gewehr = card_of("laser-grenadiers")
        .weapon("laser-gewehr")
        .unwrap()
        .clone();
    let mut d = ScriptedDice::new(faces);
    let out = resolve_line_under(Rules::classic_2010(), &gewehr, &t, &o, 1, &mut d);
    assert_eq!(d.remaining(), 0);
    assert_eq!((out.hits, out.damage), (4, 4));
}

/// Hero `joe` (Movement 2) joined to squad `a1` (Movement 1) at E5, under `ruleset`.
fn joined_hero(ruleset: &str) -> State {
    let hero = card(
        "joe",
        UnitType::Hero,
        3,
        2,
        vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
    );
    let mut s = scenario(
        vec![unit("a1", "sq", Some("E5")), unit("joe", "joe", None)],
        vec![unit("x1", "sq", Some("A1"))],
    );
    s.sides[0].units[1].joins = Some("a1".into());
    let mut st = DustTactics
        .start(ruleset, s, vec![squad("sq"), hero])
        .unwrap();
    if st.rules().reactive_fire() {
        for side in st.sides() {
            dustmail::dust_tactics::flow::standing_react(
                &mut st,
                &side,
                None,
                dustmail::dust_tactics::state::Policy::Never,
            )
            .unwrap();
        }
    }
    begin(&mut st, "allies");
    st
}

// issue 13 item 3, §13.1 "Hero joined movement": 000 does not state it; a joined hero and squad
// are "always in the same square", so they move at the slower Movement (R207).
#[test]
fn heroes_000_joined_unit_moves_at_the_slower_movement() {
    let mut st = joined_hero("classic-2010");
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E7"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert!(refused(&out).0.contains("a1 has 1"), "{:?}", refused(&out));
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E6"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(u(&st, "joe").at, Some(sq("E6")));
}

// issue 13 item 3, §13.1 "Hero joined movement": 004 "Heroes": the faster of the two.
#[test]
fn heroes_004_joined_unit_moves_at_the_faster_movement() {
    let mut st = joined_hero("ffg-revised");
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E7"), nothing()]),
        &mut ScriptedDice::new([]),
    ));
    assert_eq!(u(&st, "joe").at, Some(sq("E7")));
}

// issue 13 item 2, through the real binary: a signed mail with a `react` line to a classic-2010
// game is answered by a refusal that says the 2010 rules have no reactive fire, and the game's
// state does not move.
#[test]
fn reactive_fire_000_a_mailed_react_line_is_refused_by_the_referee() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let o = new_game(root, "classic-2010", "skirmish");
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let axis = dt::players(7)
        .into_iter()
        .find(|p| p.side == "axis")
        .unwrap();
    let log = root.join("games/g-c/log.jsonl");
    let lines_before = std::fs::read_to_string(&log).unwrap().lines().count();
    let mail = dt::mail(
        &axis.address,
        "react-1@players.example",
        &axis.key,
        &dt::orders("g-c", "axis", 1, "react none"),
    );
    std::fs::write(root.join("maildir/new/react-1"), mail).unwrap();
    let o = dt::dustmail(root, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    // The answers to the axis player (its refusal or receipt), decoded.
    let answers: Vec<String> = std::fs::read_dir(root.join("sent"))
        .unwrap()
        .filter_map(|e| std::fs::read(e.unwrap().path()).ok())
        .filter_map(|raw| {
            let m = mail_parser::MessageParser::default().parse(&raw)?;
            let to_axis = m.to().is_some_and(|a| {
                a.iter()
                    .any(|x| x.address.as_deref() == Some(&axis.address))
            });
            let subject = m.subject().unwrap_or("").to_string();
            (to_axis && (subject.contains("refused") || subject.ends_with("receipt")))
                .then(|| m.body_text(0).unwrap_or_default().into_owned())
        })
        .collect();
    assert_eq!(
        answers.len(),
        1,
        "one answer to the axis player: {answers:#?}"
    );
    let flat = crate::support::flat(&answers[0]);
    assert!(flat.contains("have no reactive fire"), "{}", answers[0]);
    assert!(
        flat.contains("000 'What can a unit do when it is activated?'"),
        "{}",
        answers[0]
    );
    // The refused submission is recorded (one ledger line), and no state digest follows it.
    let text = std::fs::read_to_string(&log).unwrap();
    let new_lines: Vec<&str> = text.lines().skip(lines_before).collect();
    assert_eq!(new_lines.len(), 1, "{new_lines:#?}");
    assert!(
        new_lines[0].contains("have no reactive fire"),
        "{}",
        new_lines[0]
    );
    let o = dt::dustmail(root, &["replay", "g-c"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

// issue 13 ("never mixing 004 into it"): a refusal in a classic-2010 game cites the 2010
// rulebook's section for the rule, not 004's.
#[test]
fn citations_000_a_classic_game_cites_the_2010_rulebook() {
    let mut st = duel_under("classic-2010");
    st.unit_mut("x1").unwrap().at = Some(sq("A1"));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("gun", "x1"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("not in range"), "{reason}");
    assert_eq!(rule, "000 'How do you measure movement and ranges?'");
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert_eq!(refused(&out).1, "000 'Who plays first?'");
}

// issue 13: the same refusals in an ffg-revised game cite 004 as before.
#[test]
fn citations_004_an_ffg_revised_game_cites_004() {
    let mut st = duel_under("ffg-revised");
    st.unit_mut("x1").unwrap().at = Some(sq("A1"));
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![attack("gun", "x1"), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert_eq!(refused(&out).1, "004 'Range'");
    let out = cmd(
        &mut st,
        "axis",
        activate("x1", vec![nothing(), nothing()]),
        &mut ScriptedDice::new([]),
    );
    assert_eq!(refused(&out).1, "004 'Alternating activations'");
}

/// A built-in card by id.
fn real_card(id: &str) -> Card {
    dustmail::dust_tactics::cards::builtin_cards()
        .unwrap()
        .into_iter()
        .find(|c| c.id == id)
        .unwrap()
}

/// One weapon line resolved under classic-2010, every scripted die used.
fn classic_line(
    shooter: &str,
    weapon_id: &str,
    target: dustmail::dust_tactics::combat::TargetProfile,
    o: dustmail::dust_tactics::combat::FireOptions,
    faces: &[u8],
) -> dustmail::dust_tactics::combat::LineOutcome {
    let w = real_card(shooter).weapon(weapon_id).unwrap().clone();
    let mut d = ScriptedDice::new(faces.iter().copied());
    let out = dustmail::dust_tactics::combat::resolve_line_under(
        Rules::classic_2010(),
        &w,
        &target,
        &o,
        1,
        &mut d,
    );
    assert_eq!(d.remaining(), 0, "{out:?}");
    out
}

/// A squad of `card` as a target, with `models` models left, in `cover`.
fn squad_target(
    card: &str,
    models: u32,
    cover: Cover,
) -> dustmail::dust_tactics::combat::TargetProfile {
    let c = real_card(card);
    dustmail::dust_tactics::combat::TargetProfile {
        armour: c.armour,
        unit_type: c.unit_type,
        models,
        remaining: models,
        cover,
        soft_save: c.soft_save,
        hard_save: c.hard_save,
        damage_resilient: false,
        bf: Default::default(),
    }
}

// issue 13: 000 "Sustained attack (SHOOT + SHOOT)" example under classic-2010: "a unit rolls 5
// attack dice and gets 2 hits and 3 misses ... the 3 misses are re-rolled and produce 1 hit. The
// unit's final attack score is 3 hits" (five one-die weapons at a squad in the open).
#[test]
fn sustained_000_example_misses_rerolled_once() {
    let w = weapon("rifle", WeaponRange::Upto(4), 1, 1);
    let o = dustmail::dust_tactics::combat::FireOptions {
        carriers: 5,
        sustained: true,
        ..Default::default()
    };
    let mut d = ScriptedDice::new([1, 2, 3, 4, 5, /* the 3 misses again */ 2, 6, 6]);
    let out = dustmail::dust_tactics::combat::resolve_line_under(
        Rules::classic_2010(),
        &w,
        &squad_target("combat-rangers", 5, Cover::None),
        &o,
        1,
        &mut d,
    );
    assert_eq!(d.remaining(), 0);
    assert_eq!((out.hits, out.damage), (3, 3));
}

// issue 13: 000 "What are the effects of cover?" example under classic-2010: Combat Rangers in
// hard cover take 4 hits, roll 3 misses and 1 hit: with a MISS save 3 are blocked, 1 Ranger dies.
#[test]
fn cover_000_example_combat_rangers_miss_save_under_classic_2010() {
    let out = classic_line(
        "recon-grenadiers",
        "rifles",
        squad_target("combat-rangers", 5, Cover::Hard),
        dustmail::dust_tactics::combat::FireOptions {
            carriers: 4,
            ..Default::default()
        },
        &[1, 2, 1, 2, 3, 4, 5, 6, /* saves */ 3, 4, 5, 1],
    );
    assert_eq!((out.hits, out.saved, out.damage), (4, 3, 1));
}

// issue 12 item 1 (review of the 000 Hot Dog example, ruling R156): 000 "Jump" example: "The
// Hot Dog cannot get past this tank-trap normally ... There is only one solution...jump! It will
// need to perform a double movement (MOVE + MOVE) (it will be unable to attack), and can land on
// any of the colored squares." The shipped Hot Dog card carries Jump (cited from this example).
// Under classic-2010 the example itself is not playable yet: each `move` line of a double move
// is still checked as a stop, so the first cannot end on the trap (docs/rulings.md R156).
fn hot_dog_before_a_tank_trap(ruleset: &str) -> State {
    let mut s = scenario(
        vec![unit("hotdog", "m2b-hot-dog", Some("E6"))],
        vec![unit("x1", "sq", Some("A1"))],
    );
    s.board
        .place_cover(sq("E5"), CoverKind::TankTrap)
        .expect("a tank trap on E5");
    let mut cards = real_cards();
    cards.push(squad("sq"));
    let mut st = if ruleset == "classic-2010" {
        start_classic(s, cards)
    } else {
        start(s, cards)
    };
    begin(&mut st, "allies");
    st
}

#[test]
fn jump_004_a_movement_1_vehicle_cannot_stop_on_the_trap_between_two_moves() {
    // 004 "Jump": "the unit can ignore an obstacle ... but must land in an empty space"; 004
    // "Structures": a jump needs a move "far enough to reach the other side"; MOVE + MOVE are two
    // MOVE actions with a reactive-fire window between them (004 "Reactive fire"), so a
    // Movement-1 Hot Dog's first MOVE would end on the trap: refused (R14, R156).
    let mut st = hot_dog_before_a_tank_trap("ffg-revised");
    assert!(
        st.cards["m2b-hot-dog"]
            .skills
            .iter()
            .any(|s| s.name == "jump"),
        "the shipped Hot Dog card carries Jump (000 'Jump' example)"
    );
    let before = st.clone();
    let out = cmd(
        &mut st,
        "allies",
        activate("hotdog", vec![mv("E5"), mv("E4")]),
        &mut ScriptedDice::new([]),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("E5"), "{reason}");
    assert_eq!(st, before, "a refused activation changes nothing");
}
