//! Issue 18: 003 §12 "Reserves" under battlefront-2013 (R288–R290). Each test names 003's
//! section and quotes its sentence.

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::reserves::{Allowance, Reserves};
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Game, ScriptedDice};
use std::collections::BTreeMap;

/// A one-soldier squad, Move 1, "gun" 1 die 1 damage range 4.
fn single(id: &str, ty: UnitType) -> Card {
    card(
        id,
        ty,
        1,
        1,
        vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
    )
}

/// Allies `shooter` (one soldier) on E5; axis `target` (card `card_id`) on E1 (axis enters on row 1); eight
/// turns; `reserves`; nobody reacts; the allies activate first in turn 1.
fn game(target_card: Card, reserves: Reserves) -> State {
    let mut s = scenario(
        vec![unit("shooter", "gunner", Some("E5"))],
        vec![unit("target", &target_card.id, Some("E1"))],
    );
    s.rounds = 8;
    s.reserves = Some(reserves);
    let mut st = DustTactics
        .start(
            "battlefront-2013",
            s,
            vec![single("gunner", UnitType::Squad), target_card],
        )
        .expect("setup");
    for side in ["allies", "axis"] {
        flow::standing_react(&mut st, side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

fn two() -> Reserves {
    Reserves {
        allowance: Allowance::Units(2),
        entry: BTreeMap::new(),
    }
}

/// The shooter hits the target once (army symbol) and its Infantry Save fails (target symbol):
/// the one-soldier target is eliminated. The turn then ends; the next initiative goes to the
/// axis (no army symbol for the allies, one for the axis), who activate first.
fn kill(st: &mut State) -> String {
    let mut d = ScriptedDice::new([1, 3, 5, 5, 5, 1, 5, 5]);
    let out = send(
        st,
        "allies",
        "activate shooter\n  attack gun at target\n  nothing",
        &mut d,
    );
    assert_eq!(first_result(&out).map(|_| ()), Ok(()), "{}", texts(&out));
    texts(&out)
}

// 003 §12 "Reserves": "Each time a unit is eliminated, the owning player may elect to place it
// in reserve ... Units placed in reserves are fresh units with no damage and all ammunition
// replenished. ... A player may elect to move a unit onto the board from reserve by activating
// it during any turn after the one it was eliminated in." The eliminated squad comes back
// fresh, off the board; it cannot activate in the turn it was eliminated in, and enters in the
// next by a move onto its side's entry squares.
#[test]
fn s003_12_reserves_an_eliminated_unit_returns_fresh_in_a_later_turn() {
    let mut st = game(single("one", UnitType::Squad), two());
    let t = kill(&mut st);
    assert!(t.contains("target is destroyed"), "{t}");
    assert!(
        t.contains("target goes into reserve, fresh, 1 of 2 placed: it may move on from turn 2")
            && t.contains("003 §12 \"Reserves\""),
        "{t}"
    );
    // The turn ended with the axis having nothing to activate: the unit waited in reserve.
    assert!(t.contains("round 1 ends"), "{t}");
    let x = u(&st, "target");
    assert!(!x.destroyed && x.at.is_none(), "{x:?}");
    assert_eq!(x.models.len(), 1, "fresh: every soldier back");
    assert_eq!(x.reserve_round, Some(1));
    // The roster and the report's briefing say where it is and where it may move on.
    let board = DustTactics.board_text(&st);
    assert!(board.contains("in reserve"), "{board}");
    let brief = crate::support::flat(&DustTactics.report_briefing(&st, Some("axis")));
    assert!(
        brief.contains("In reserve (003 §12 \"Reserves\"")
            && brief.contains("target (from turn 2, onto one of: A1 B1"),
        "{brief}"
    );
    // Turn 2: the unit moves on through its side's entry squares (row 1).
    let mut d = ScriptedDice::new([]);
    let out = send(
        &mut st,
        "axis",
        "activate target\n  move C1\n  nothing",
        &mut d,
    );
    assert_eq!(first_result(&out).map(|_| ()), Ok(()), "{}", texts(&out));
    let x = u(&st, "target");
    assert_eq!(x.at, Some(sq("C1")));
    assert_eq!(
        x.reserve_round, None,
        "no longer in reserve once on the board"
    );
}

// 003 §12 "Reserves": "The same unit may be placed in reserve multiple times if it keeps getting
// destroyed" — "until they have placed the allowed number of units in reserve" (two in Grab the
// Dust). 003 "Ending the Game": the destroyed army points count "reserves eliminated again as
// additional units eliminated". The target goes into reserve twice; the third time it stays
// eliminated, the axis have no unit left, and the allies score its 10 AP three times.
#[test]
fn s003_12_reserves_the_same_unit_again_up_to_the_allowance() {
    let mut st = game(single("one", UnitType::Squad), two());
    kill(&mut st);
    assert!(
        st.result.is_none(),
        "a unit in reserve keeps its side in the game (R289)"
    );
    let mut d = ScriptedDice::new([]);
    send(
        &mut st,
        "axis",
        "activate target\n  move E1\n  nothing",
        &mut d,
    );
    let t = kill(&mut st);
    assert!(t.contains("2 of 2 placed"), "{t}");
    send(
        &mut st,
        "axis",
        "activate target\n  move E1\n  nothing",
        &mut d,
    );
    let t = kill(&mut st);
    assert!(
        t.contains("target stays eliminated: axis has placed its 2 units in reserve"),
        "{t}"
    );
    assert!(u(&st, "target").destroyed);
    let res = st.result.as_ref().expect("the axis have no unit left");
    assert!(res.reason.contains("all units of axis"), "{}", res.reason);
    assert_eq!(res.points.get("allies"), Some(&30), "{res:?}");
}

// 003 §12 "Reserves": "Heroes can never be placed in reserve." All-Out Attack: "Players place
// all eliminated units in reserve (including Heroes)."
#[test]
fn s003_12_reserves_heroes_never_except_in_all_out_attack() {
    let mut st = game(single("chief", UnitType::Hero), two());
    let t = kill(&mut st);
    assert!(
        t.contains("target is a hero and never goes into reserve"),
        "{t}"
    );
    assert!(u(&st, "target").destroyed);
    assert!(st.result.is_some(), "the axis have no unit left");
    let all = Reserves {
        allowance: Allowance::All,
        entry: BTreeMap::new(),
    };
    let mut st = game(single("chief", UnitType::Hero), all);
    let t = kill(&mut st);
    assert!(t.contains("target goes into reserve, fresh: "), "{t}");
    assert_eq!(u(&st, "target").health, 1);
    assert!(st.result.is_none());
}

// 003 §12 "Reserves": "Unless otherwise noted, reserves move on from the same squares that the
// original force could move on from." Bait and Flank notes otherwise: "These units move on to
// the squares along the short edges of their opponent's board." A unit in reserve with its own
// squares is refused its side's entry zone, with the squares it may use.
#[test]
fn s003_12_reserves_move_on_where_the_scenario_says() {
    let mut entry = BTreeMap::new();
    entry.insert("axis".to_string(), vec![sq("A9"), sq("I9")]);
    let mut st = game(
        single("one", UnitType::Squad),
        Reserves {
            allowance: Allowance::Units(2),
            entry,
        },
    );
    let t = kill(&mut st);
    assert!(t.contains("it may move on from turn 2 on A9 I9"), "{t}");
    let before = st.clone();
    let mut d = ScriptedDice::new([]);
    let out = send(
        &mut st,
        "axis",
        "activate target\n  move E1\n  nothing",
        &mut d,
    );
    match &out.results[0].outcome {
        CommandOutcome::Refused {
            reason, instead, ..
        } => {
            assert!(
                reason.contains("E1 is not in the squares axis's reserves move on from")
                    && reason.contains("003 §12 \"Reserves\""),
                "{reason}"
            );
            assert!(instead.contains("A9 I9"), "{instead}");
        }
        o => panic!("expected a refusal, got {o:?}"),
    }
    assert_eq!(st, before, "a refusal changes nothing");
    let out = send(
        &mut st,
        "axis",
        "activate target\n  move I9\n  nothing",
        &mut d,
    );
    assert_eq!(first_result(&out).map(|_| ()), Ok(()), "{}", texts(&out));
    assert_eq!(u(&st, "target").at, Some(sq("I9")));
}

// 003 §12: reserves are a rule of 003's scenarios; a scenario of another ruleset cannot use
// them, and the error names the field and what to write instead. The shipped Grab the Dust
// and Bait and Flank give two units each ("Each player may place two eliminated units in
// reserve"), Bait and Flank's along the opponent's short edges.
#[test]
fn s003_12_reserves_in_the_scenario_files() {
    let text = |name: &str| {
        scenario::builtin()
            .into_iter()
            .find(|(n, _)| *n == name)
            .expect("shipped")
            .1
    };
    let bad = text("grab-the-dust").replace(
        "rulesets = [\"battlefront-2013\"]",
        "rulesets = [\"ffg-revised\"]",
    );
    let bad = bad.replace("kind = \"grab\"", "kind = \"points\"\npoints = 1");
    let e = scenario::parse("grab-ffg", &bad).unwrap_err().to_string();
    assert!(
        e.contains("`reserves`") && e.contains("add rulesets = [\"battlefront-2013\"]"),
        "{e}"
    );
    let g = scenario::parse("grab-the-dust", text("grab-the-dust")).unwrap();
    assert_eq!(g.reserves.map(|r| r.allowance), Some(Allowance::Units(2)));
    let b = scenario::parse("bait-and-flank", text("bait-and-flank")).unwrap();
    let at = |t: &str| b.board.parse_square(t).expect("square");
    let r = b.reserves.clone().expect("reserves");
    assert_eq!(r.allowance, Allowance::Units(2));
    assert!(r.entry["axis"].contains(&at("A7")) && r.entry["axis"].contains(&at("L12")));
    assert!(r.entry["allies"].contains(&at("A1")) && r.entry["allies"].contains(&at("L6")));
}
