//! Issue 18: the scenarios of 003 §12 beyond Encounter under battlefront-2013, and 003's
//! "Objective holding rule". Each test names 003's section and quotes its sentence.

use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::bot::Style;
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
fn idle_to_the_end(st: &mut State) -> Vec<u32> {
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
    let dir = tempfile::tempdir().unwrap();
    let home = dt::init_home(dir.path(), "file");
    let mut ps = dt::players(21);
    ps[0].side = sides[0].into();
    ps[1].side = sides[1].into();
    let mut args: Vec<String> = [
        "new",
        "--ruleset",
        "battlefront-2013",
        "--scenario",
        scenario,
        "--seed",
        &hex::encode([seed as u8; 32]),
        "--id",
        "g-sc",
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
    let o = dt::dustmail(&home.root, &a);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = dt::InProc::open(&home);
    let mut bots = dt::Bots::new("g-sc", &ps, |i| Style::Random(seed + i as u64));
    env.run(dt::NOW);
    for _ in 0..400 {
        let g = env.load("g-sc");
        let Some((name, m)) = bots.next_mail(&g) else {
            break;
        };
        std::fs::write(home.maildir().join("new").join(name), m).unwrap();
        let sum = env.run(dt::NOW);
        assert!(sum.broken.is_empty(), "{sum:?}");
    }
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
    let o = dt::dustmail(&home.root, &["replay", "g-sc"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let log = dt::log_path(&home, "g-sc");
    let o = dt::dustmail(&home.root, &["audit", log.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
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
