//! Issue 18: the scenarios of 003 §12 beyond Encounter under battlefront-2013, and 003's
//! "Objective holding rule". Each test names 003's section and quotes its sentence.

use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::bot::Style;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::{self, Objective};
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Game, Line, ScriptedDice, Sender};

/// Allies `holder` on E5, a `grab` objective on E5 (for `side`, or either side), and axis
/// `enemy` on `enemy_at`; allies first; three rounds.
fn grab_game(enemy_at: &str, side: Option<&str>) -> State {
    let s = objectives(
        scenario(
            vec![unit("holder", "sq", Some("E5"))],
            vec![unit("enemy", "sq", Some(enemy_at))],
        ),
        vec![Objective::Grab {
            at: sq("E5"),
            side: side.map(str::to_string),
        }],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![squad("sq")])
        .expect("setup");
    begin(&mut st, "allies");
    st
}

/// Every unit does nothing, round after round, until the game ends; the round each ended is
/// given back with the state.
pub(super) fn idle_to_the_end(st: &mut State) -> Vec<u32> {
    let mut rounds = vec![];
    // Initiative of later rounds: allies roll 1 army, axis none; enough for every round.
    let mut dice = ScriptedDice::new([1, 5, 5, 5, 5, 5].repeat(10));
    for _ in 0..50 {
        if st.result.is_some() {
            break;
        }
        let awaited = DustTactics.awaiting(st);
        let a = awaited.first().expect("someone is awaited").clone();
        let text = match st
            .units
            .iter()
            .find(|u| u.side == a.side && !u.destroyed && !u.activated)
        {
            Some(u) if st.next_side.as_deref() == Some(a.side.as_str()) => {
                format!("activate {}\n  nothing\n  nothing", u.id)
            }
            _ => format!("first {}", a.side),
        };
        let lines: Vec<Line> = text
            .lines()
            .enumerate()
            .map(|(i, t)| Line {
                number: i + 1,
                text: t.into(),
            })
            .collect();
        let before = st.round;
        let out = DustTactics.submit(st, Sender::side(&a.side), &lines, &mut dice);
        for r in &out.results {
            assert!(
                matches!(r.outcome, CommandOutcome::Accepted { .. }),
                "{text}: {:?}",
                r.outcome
            );
        }
        if st.round != before || st.result.is_some() {
            rounds.push(before);
        }
    }
    rounds
}

// issue 18 item 1, 003 §12 "Objective holding rule": a unit "stands on the objective square at
// the end of a turn, on or after turn 3, and no enemy units are within two squares"; Grab the
// Dust: "take any objective" wins at once. The enemy three squares away does not contest: the
// allies win at the end of turn 3, not before.
#[test]
fn s003_12_objective_holding_rule_held_from_turn_3_wins_grab_the_dust() {
    let mut st = grab_game("E2", None);
    let ended = idle_to_the_end(&mut st);
    assert_eq!(ended, [1, 2, 3], "the game went on through turns 1 and 2");
    let res = st.result.as_ref().expect("the game ended");
    assert_eq!(res.winner.as_deref(), Some("allies"), "{res:?}");
    assert!(
        res.reason
            .contains("allies holds the objective E5 at the end of round 3")
            && res.reason.contains("003 §12"),
        "{}",
        res.reason
    );
}

// issue 18 item 1, 003 §12 "Objective holding rule": "... and no enemy units are within two
// squares". An enemy two squares away keeps the objective from being held: no objective win; the
// game ends at its turn limit on army points (none destroyed: a draw).
#[test]
fn s003_12_objective_holding_rule_an_enemy_within_two_squares_contests() {
    let mut st = grab_game("E3", None);
    idle_to_the_end(&mut st);
    let res = st.result.as_ref().expect("the game ended");
    assert_eq!(res.winner, None, "{res:?}");
    assert!(res.reason.contains("round limit (3)"), "{}", res.reason);
}

// issue 18 item 1: a `grab` objective is 003's rule, so a scenario of another ruleset cannot
// use it; the error names the field and what to write instead.
#[test]
fn s003_12_grab_objective_needs_the_battlefront_ruleset() {
    let text = scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "grab-the-dust")
        .expect("grab-the-dust is shipped")
        .1
        .replace(
            "rulesets = [\"battlefront-2013\"]",
            "rulesets = [\"ffg-revised\"]",
        );
    let e = scenario::parse("grab-ffg", &text).unwrap_err().to_string();
    assert!(
        e.contains("objectives[0].kind") && e.contains("add rulesets = [\"battlefront-2013\"]"),
        "{e}"
    );
}

/// `new` of shipped `scenario` between players of `sides` (first side first), then the bundled
/// bots play it to its end by signed mails run through the real pipeline; replay and audit
/// pass. Gives back every mail sent (flattened) and the final state.
pub(crate) fn play_by_mail(scenario: &str, sides: [&str; 2], seed: u64) -> (String, State) {
    play_by_mail_with(scenario, &[], sides, seed)
}

/// [`play_by_mail`] with more arguments of `new` (`--cards DIR`).
pub(crate) fn play_by_mail_with(
    scenario: &str,
    more: &[&str],
    sides: [&str; 2],
    seed: u64,
) -> (String, State) {
    let dir = tempfile::tempdir().unwrap();
    let home = dt::init_home(dir.path(), "file");
    let mut ps = dt::players(21);
    ps[0].side = sides[0].into();
    ps[1].side = sides[1].into();
    let seed_hex = hex::encode([seed as u8; 32]);
    let mut args = vec![
        "--ruleset",
        "battlefront-2013",
        "--scenario",
        scenario,
        "--seed",
        &seed_hex,
        "--id",
        "g-sc",
        "--now",
        dt::T0,
    ];
    args.extend(more);
    let o = dt::new_with_players(&home.root, &args, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = dt::InProc::open(&home);
    let mut bots = dt::Bots::new("g-sc", &ps, |i| Style::Random(seed + i as u64));
    env.run(dt::NOW);
    bots.play_to_end(&home, &env);
    let g = env.load("g-sc");
    assert!(
        g.derived.finished.is_some(),
        "{scenario}: the game did not end"
    );
    assert!(bots.sent > 8, "only {} mails", bots.sent);
    let st: State = g.derived.state.typed::<State>().clone();
    assert!(st.round <= 8, "{}", st.round);
    let mut mails = String::new();
    for e in std::fs::read_dir(home.root.join("sent")).unwrap() {
        mails.push_str(&std::fs::read_to_string(e.unwrap().path()).unwrap());
    }
    dt::replay_and_audit(&home, "g-sc");
    (crate::support::flat(&mails), st)
}

// issue 18 item 1, 003 §12 Grab the Dust: "An objective on each of the centre squares of the
// board"; 8 turns; the units enter along their own long edge. Two players (Kampfgruppe Stefan and
// Battlegroup Koshka) play it to its end through signed mails run by the real pipeline; the
// welcome mails tell the holding rule; replay and audit pass.
#[test]
fn s003_12_grab_the_dust_played_to_its_end_by_signed_mail() {
    let (flat, _) = play_by_mail("grab-the-dust", ["axis", "ssu"], 40);
    assert!(
        flat.contains("Either side wins at once at the end of a round, from round 3 on, with a unit (not an aircraft) on E2 and no enemy unit within 2 squares"),
        "the briefing does not tell the holding rule"
    );
}

// issue 18 item 1, 003 §12 Bait and Flank: "Take the objective in the opponent's half" wins. A
// side holding the objective of its own half does not win: the game runs to its turn limit.
#[test]
fn s003_12_bait_and_flank_only_the_objective_in_the_opponents_half_wins() {
    // E5 is the axis's objective to take; the allies stand on it, the enemy far away.
    let mut st = grab_game("E1", Some("axis"));
    idle_to_the_end(&mut st);
    let res = st.result.as_ref().expect("the game ended");
    assert_eq!(res.winner, None, "{res:?}");
    assert!(res.reason.contains("round limit (3)"), "{}", res.reason);
    // The same square as the allies' objective to take: they win at the end of turn 3.
    let mut st = grab_game("E1", Some("allies"));
    idle_to_the_end(&mut st);
    let res = st.result.as_ref().expect("the game ended");
    assert_eq!(res.winner.as_deref(), Some("allies"), "{res:?}");
    assert!(res.reason.contains("end of round 3"), "{}", res.reason);
}

// issue 18 item 1, 003 §12 Bait and Flank: units enter "along their own short table edge", the
// two players at opposite ends; "take the objective in the opponent's half" wins. Taskforce Joe
// and Kampfgruppe Stefan play it to its end by signed mails; the briefing tells each side its
// objective.
#[test]
fn s003_12_bait_and_flank_played_to_its_end_by_signed_mail() {
    let (flat, st) = play_by_mail("bait-and-flank", ["allies", "axis"], 60);
    assert!(
        flat.contains("allies wins at once at the end of a round, from round 3 on, with a unit (not an aircraft) on G4")
            && flat.contains("axis wins at once at the end of a round, from round 3 on, with a unit (not an aircraft) on F9"),
        "the briefing does not tell each side its objective"
    );
    assert!(
        flat.contains("Axis A1-A6, Allies L7-L12"),
        "no entry edges told"
    );
    assert!(st.result.is_some());
}

/// Allies `holder` on E5 and `second` on C7, axis `enemy` on E1 (four squares from E5), `vp`
/// objectives E5 in the axis half and C7 in the allies' half, each worth `enemy` to the other
/// side and `own` to its half's; `[victory_points]` with `target`, `per_unit`, `at_end`;
/// `rounds` turns.
fn vp_game(rounds: u32, own: u32, vp: serde_json::Value) -> State {
    let mut s = objectives(
        scenario(
            vec![
                unit("holder", "sq", Some("E5")),
                unit("second", "sq", Some("C7")),
            ],
            vec![unit("enemy", "sq", Some("E1"))],
        ),
        vec![
            Objective::Vp {
                at: sq("E5"),
                half: "axis".into(),
                own,
                enemy: 2,
            },
            Objective::Vp {
                at: sq("C7"),
                half: "allies".into(),
                own,
                enemy: 2,
            },
        ],
    );
    s.rounds = rounds;
    s.victory_points = Some(serde_json::from_value(vp).expect("victory points"));
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![squad("sq")])
        .expect("setup");
    begin(&mut st, "allies");
    st
}

// issue 18 item 2, 003 §12 Supply Drop: "If a player holds an objective ... at the end of a turn
// on or after turn three, providing there are no enemy units within two squares, they gain
// victory points for each turn they hold it. A player gains two victory point for holding the
// objective on their opponent's half of the table, or one victory point for the one in their own
// table half. A player wins by gaining a total of five victory points." The allies hold both:
// 3 VP at the end of turn 3, 6 at the end of turn 4, and win then.
#[test]
fn s003_12_supply_drop_two_vp_in_the_enemy_half_one_in_your_own_five_win() {
    let mut st = vp_game(
        8,
        1,
        serde_json::json!({"target": 5, "at_end": "army_points"}),
    );
    let ended = idle_to_the_end(&mut st);
    assert_eq!(
        ended,
        [1, 2, 3, 4],
        "no VP before turn 3, 3 then, 6 in turn 4"
    );
    let res = st.result.as_ref().expect("the game ended");
    assert_eq!(res.winner.as_deref(), Some("allies"), "{res:?}");
    assert!(
        res.reason
            .contains("allies has 6 victory points at the end of round 4, the 5 that win"),
        "{}",
        res.reason
    );
    assert_eq!(res.points.get("allies"), Some(&6));
    assert_eq!(res.points.get("axis"), Some(&0));
}

// issue 18 item 2, R292: Supply Drop says nothing of a game that ends without five VP; 003
// "Ending the Game" decides: "both sides total the army points of the units they eliminated".
// Three turns, 3 VP for the allies: no winner on victory points, none destroyed, a draw.
#[test]
fn s003_12_supply_drop_without_five_vp_the_army_points_decide() {
    let mut st = vp_game(
        3,
        1,
        serde_json::json!({"target": 5, "at_end": "army_points"}),
    );
    idle_to_the_end(&mut st);
    let res = st.result.as_ref().expect("the game ended");
    assert_eq!(res.winner, None, "{res:?}");
    assert!(res.reason.contains("round limit (3)"), "{}", res.reason);
}

// issue 18 item 2, 003 §12 All-Out Attack: "If a player holds an objective in the opponent's
// table half ... they gain two victory points for each turn they hold it" — the one in their
// own half gives nothing; "A player wins by gaining a total of seven victory points, or by having
// the most victory points at the end of the game." Three turns: the allies score 2 VP (E5, axis
// half), none for C7, and win on the most victory points.
#[test]
fn s003_12_all_out_attack_only_the_enemy_half_scores_and_the_most_vp_win() {
    let mut st = vp_game(
        3,
        0,
        serde_json::json!({"target": 7, "per_unit": 1, "at_end": "victory_points"}),
    );
    idle_to_the_end(&mut st);
    let res = st.result.as_ref().expect("the game ended");
    assert_eq!(res.winner.as_deref(), Some("allies"), "{res:?}");
    assert!(
        res.reason.contains("the most victory points win (003 §12)"),
        "{}",
        res.reason
    );
    assert_eq!(res.points.get("allies"), Some(&2), "{res:?}");
}

// issue 18 item 2, 003 §12 All-Out Attack: "A player also gains a victory point for each unit
// they eliminate. Heroes count as a victory point in their own right"; "Players place all
// eliminated units in reserve (including Heroes)". The allies eliminate the axis hero: 1 VP,
// and the hero goes into reserve; the report's score says so.
#[test]
fn s003_12_all_out_attack_a_vp_for_each_unit_eliminated_heroes_too() {
    let mut s = scenario(
        vec![unit("shooter", "gunner", Some("E5"))],
        vec![unit("chief", "hero", Some("E1"))],
    );
    s.rounds = 8;
    s.victory_points = Some(
        serde_json::from_value(
            serde_json::json!({"target": 7, "per_unit": 1, "at_end": "victory_points"}),
        )
        .unwrap(),
    );
    s.reserves = Some(serde_json::from_value(serde_json::json!({"allowance": "all"})).unwrap());
    let one = |id: &str, ty| {
        card(
            id,
            ty,
            1,
            1,
            vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
        )
    };
    let mut st = DustTactics
        .start(
            "battlefront-2013",
            s,
            vec![one("gunner", UnitType::Squad), one("hero", UnitType::Hero)],
        )
        .expect("setup");
    begin(&mut st, "allies");
    // One army symbol hits; the Infantry Save's target symbol fails; then turn 2's initiative.
    let mut d = ScriptedDice::new([1, 3, 1, 5, 5, 5, 5, 5]);
    let out = send(
        &mut st,
        "allies",
        "activate shooter\n  attack gun at chief\n  nothing",
        &mut d,
    );
    let t = texts(&out);
    assert!(t.contains("chief goes into reserve"), "{t}");
    assert_eq!(
        dustmail::dust_tactics::battlefront::vp::totals(&st).get("allies"),
        Some(&1)
    );
    let shown = crate::support::flat(&DustTactics.report_briefing(&st, Some("allies")));
    assert!(shown.contains("Score: allies 1, axis 0."), "{shown}");
}

// issue 18 item 2: a `vp` objective is 003's rule and names the half it lies in; the errors say
// which field and what to write.
#[test]
fn s003_12_vp_objective_needs_the_battlefront_ruleset_and_its_half() {
    let text = scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "supply-drop")
        .expect("supply-drop is shipped")
        .1;
    let e = scenario::parse(
        "sd",
        &text.replacen("side = \"ssu\"\nat = \"F4\"", "at = \"F4\"", 1),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("objectives[0].side") && e.contains("the side whose table half it lies in"),
        "{e}"
    );
    let e = scenario::parse(
        "sd",
        &text.replace(
            "rulesets = [\"battlefront-2013\"]",
            "rulesets = [\"ffg-revised\"]",
        ),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("add rulesets = [\"battlefront-2013\"]"), "{e}");
}

// issue 18 item 2, 003 §12 Supply Drop: Battlegroup Koshka and Taskforce Joe enter along their
// long edges, victory points per turn held, five win; played to its end by signed mails through
// the pipeline; the briefing tells the points.
#[test]
fn s003_12_supply_drop_played_to_its_end_by_signed_mail() {
    let (flat, st) = play_by_mail("supply-drop", ["ssu", "allies"], 70);
    assert!(
        flat.contains("holding F4 (in ssu's half; a unit, not an aircraft, on it and no enemy unit within 2 squares) at the end of a round gives allies 2 VP and ssu 1 VP"),
        "the briefing does not tell the victory points"
    );
    assert!(
        flat.contains("5 VP win at the end of a round"),
        "no target told"
    );
    assert!(st.result.is_some());
}

// issue 18 item 2, 003 §12 All-Out Attack: Kampfgruppe Stefan and Battlegroup Koshka, every
// eliminated unit back from reserve, a VP per unit eliminated, seven win; played to its end by
// signed mails through the pipeline.
#[test]
fn s003_12_all_out_attack_played_to_its_end_by_signed_mail() {
    let (flat, st) = play_by_mail("all-out-attack", ["axis", "ssu"], 80);
    assert!(
        flat.contains("Each enemy unit eliminated gives 1 VP")
            && flat.contains("7 VP win at the end of a round"),
        "the briefing does not tell the victory points"
    );
    let res = st.result.as_ref().expect("ended");
    assert!(res.reason.contains("victory points"), "{}", res.reason);
}

// issue 18 item 3, 003 §12: "If you want to let the dice choose the scenario for you, roll two
// dice and consult the following table: Result or / Scenario 1: Encounter 2: Grab the Dust 3:
// Bait and Flank 4: Supply Drop 5: All-Out Attack". The symbols are lost (digest §14 item 3);
// R294: six unordered results, one row covering two. Every result chooses a shipped scenario of
// battlefront-2013, each of the five is chosen by some result, the order of the dice does not
// matter, and the double row is Encounter's.
#[test]
fn s003_12_random_scenario_table_two_dice_choose_one_of_the_five() {
    use dustmail::dust_tactics::battlefront::dice::Symbol::{self, Army, Shield, Target};
    use dustmail::dust_tactics::battlefront::random_scenario::{choose, SCENARIOS};
    let all = [Army, Target, Shield];
    let mut seen = std::collections::BTreeMap::<&str, Vec<(Symbol, Symbol)>>::new();
    for a in all {
        for b in all {
            assert_eq!(choose(a, b), choose(b, a), "{a:?} {b:?}");
            if a <= b {
                seen.entry(choose(a, b)).or_default().push((a, b));
            }
        }
    }
    assert_eq!(seen.len(), 5, "{seen:?}");
    for name in SCENARIOS {
        let s = scenario::builtin_scenario(name)
            .expect("shipped")
            .expect("valid");
        assert_eq!(s.rulesets, ["battlefront-2013"], "{name}");
    }
    assert_eq!(seen["encounter"], [(Army, Army), (Shield, Shield)]);
    assert_eq!(choose(Army, Target), "grab-the-dust");
    assert_eq!(choose(Shield, Army), "bait-and-flank");
    assert_eq!(choose(Shield, Target), "supply-drop");
    assert_eq!(choose(Target, Target), "all-out-attack");
}
