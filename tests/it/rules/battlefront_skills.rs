//! Issue 18 item 1: the rest of 002's skills under battlefront-2013 (Charge), each test quoting
//! 002 and played through the engine with scripted dice (every scripted die used, none more).

use crate::support_flow::*;
use dustmail::dust_tactics::model::{Card, UnitType, WeaponRange};
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};
use dustmail::game::{CommandOutcome, Game, Line, Outcome, ScriptedDice, Sender};

/// A squad of four with a knife (range C, one die) and a gun (range 4), Movement 1.
fn chargers(skill: Option<&str>) -> Card {
    let c = card(
        "chargers",
        UnitType::Squad,
        4,
        1,
        vec![
            weapon("knife", WeaponRange::Close, 1, 1),
            weapon("gun", WeaponRange::Upto(4), 1, 1),
        ],
    );
    match skill {
        Some(s) => with_skill(c, s, None),
        None => c,
    }
}

/// A battlefront-2013 game: `ours` (allies, E7) against the squad `theirs` (axis, E4), a spare a
/// side far off; nobody reacts, allies activate first.
fn game(ours: Card) -> State {
    let s = scenario(
        vec![
            unit("ours", &ours.id, Some("E7")),
            unit("spare-a", "sq", Some("A9")),
        ],
        vec![
            unit("theirs", "sq", Some("E4")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![ours, squad("sq")])
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// Sends `text` from `side` with `faces` scripted; every scripted die must be used.
fn play(st: &mut State, side: &str, text: &str, faces: &[u8]) -> Outcome {
    let lines: Vec<Line> = text
        .lines()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.into(),
        })
        .collect();
    let mut d = ScriptedDice::new(faces.to_vec());
    let out = DustTactics.submit(st, Sender::side(side), &lines, &mut d);
    assert_eq!(
        d.remaining(),
        0,
        "{text}: the rules rolled fewer dice than scripted: {}",
        texts(&out)
    );
    out
}

fn refusal(out: &Outcome) -> String {
    match &out.results[0].outcome {
        CommandOutcome::Refused {
            reason,
            rule,
            instead,
        } => format!("{reason} | {rule} | {instead}"),
        o => panic!("expected a refusal, got {o:?}"),
    }
}

// issue 18 item 1, 002 "Charge": "A Unit with the Charge Skill ... may perform a free Attack
// Action using Close-Combat Weapons immediately after performing a March Move Action." The squad
// marches E7 → E5 (double its Move of 1) and strikes with its knives at the squad on E4: four
// dice, army, army, target, shield: two hits, no save against close combat (003), two soldiers
// lost (R263).
#[test]
fn s002_charge_march_move_then_a_free_close_combat_attack() {
    let mut st = game(chargers(Some("charge")));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  skill charge\n  move E6\n  move E5\n  attack knife at theirs",
        &[1, 2, 3, 5],
    );
    let t = texts(&out);
    assert!(
        out.results
            .iter()
            .all(|r| matches!(r.outcome, CommandOutcome::Accepted { .. })),
        "{t}"
    );
    assert_eq!(u(&st, "ours").at, Some(sq("E5")), "{t}");
    assert_eq!(u(&st, "theirs").models.len(), 2, "{t}");
}

// issue 18 item 1, 002 "Charge": the free Attack uses "Close-Combat Weapons" only (004's Charge
// also allowed range 1 weapons): a ranged line is refused, naming 002, and nothing moves (R263).
#[test]
fn s002_charge_attack_uses_close_combat_weapons_only() {
    let mut st = game(chargers(Some("charge")));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  skill charge\n  move E6\n  move E5\n  attack gun at theirs",
        &[],
    );
    let r = refusal(&out);
    assert!(r.contains("only close-combat (range C) weapons"), "{r}");
    assert!(r.contains("002 \"Charge\""), "{r}");
    assert_eq!(u(&st, "ours").at, Some(sq("E7")), "{r}");
    assert_eq!(u(&st, "theirs").models.len(), 4, "{r}");
}

// issue 18 item 1, 002 "Charge": "A Unit with the Charge Skill": a unit without it gets no free
// Attack after its March Move; refused, and nothing changes.
#[test]
fn s002_charge_needs_the_skill() {
    let mut st = game(chargers(None));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  skill charge\n  move E6\n  move E5\n  attack knife at theirs",
        &[],
    );
    let r = refusal(&out);
    assert!(r.contains("does not have the skill"), "{r}");
    assert_eq!(u(&st, "ours").at, Some(sq("E7")), "{r}");
}
