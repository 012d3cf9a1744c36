//! Issue 18, second slice: 003 "Reactive Attacks" under battlefront-2013. Each test is named
//! after 003's section, quotes its sentence, and plays the engine with scripted dice: the dice
//! a step consumes show which attack (if any) the reaction made.

use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Outcome};

/// A squad of 4 with a gun of range `range` (1 die a model, 1 damage) and, with `knife`, a
/// close-combat weapon as well.
fn squad_card(id: &str, range: u8, knife: bool) -> Card {
    let mut w = vec![weapon("gun", WeaponRange::Upto(range), 1, 1)];
    if knife {
        w.push(weapon("knife", WeaponRange::Close, 1, 1));
    }
    card(id, UnitType::Squad, 4, 1, w)
}

/// Allies squad `ours` at `ours_at`, axis squad `theirs` at `theirs_at` (cards `a` and `x`),
/// under `ruleset`; allies activate first. A spare unit a side, out of reach at I9 and A1,
/// keeps the turn going (no initiative roll for the next).
fn game(ruleset: &str, ours_at: &str, theirs_at: &str, a: Card, x: Card) -> State {
    let s = scenario(
        vec![
            unit("ours", &a.id, Some(ours_at)),
            unit("spare-a", &a.id, Some("I9")),
        ],
        vec![
            unit("theirs", &x.id, Some(theirs_at)),
            unit("spare-x", &x.id, Some("A1")),
        ],
    );
    let cards = if a.id == x.id { vec![a] } else { vec![a, x] };
    let mut st = DustTactics.start(ruleset, s, cards).expect("setup");
    begin(&mut st, "allies");
    st
}

fn bf(ours_at: &str, theirs_at: &str) -> State {
    let c = squad_card("sq", 8, false);
    game("battlefront-2013", ours_at, theirs_at, c.clone(), c)
}

fn texts(out: &Outcome) -> Vec<String> {
    out.happenings.iter().map(|h| h.text.clone()).collect()
}

fn said(out: &Outcome, what: &str) -> bool {
    texts(out).iter().any(|t| t.contains(what))
}

const MOVE_ATTACK: &str = "activate ours\n  move E4\n  attack gun at theirs";
const MISS4: [u8; 4] = [3, 4, 5, 6];

// issue 18 item 1, 003 "Reactive Attacks": "roll two dice ... On a roll of [army][army], the unit
// succeeds and will activate for either a Sustained Attack action ..." (the Grim Reapers
// example: "They roll [army] and [army], so they will perform a Sustained Attack action").
#[test]
fn s003_reactive_attacks_two_army_symbols_a_sustained_attack() {
    let mut st = bf("E5", "E1");
    // Reaction dice [1, 2]; the Sustained Attack: 4 dice, all missed, re-rolled once; then
    // ours' own attack: 4 dice.
    let faces: Vec<u8> = [&[1u8, 2][..], &MISS4, &MISS4, &MISS4].concat();
    let out = play(&mut st, "allies", MOVE_ATTACK, &faces);
    assert!(
        said(
            &out,
            "theirs attempts a reactive attack at ours: two army symbols, it makes a Sustained Attack"
        ),
        "{:?}",
        texts(&out)
    );
    assert!(u(&st, "theirs").activated, "the reactor is activated");
    let purposes: Vec<String> = out
        .happenings
        .iter()
        .flat_map(|h| h.rolls.iter().map(|r| r.purpose.clone()))
        .collect();
    assert!(
        purposes.iter().any(|p| p == "reactive attack theirs"),
        "{purposes:?}"
    );
}

// issue 18 item 1, 003 "Reactive Attacks": "On a single [army], the unit succeeds and will
// activate for an Attack action" (the Matrioshka example: "They roll two dice and score a
// [army] and a [target], so the Matrioshka will perform an Attack action").
#[test]
fn s003_reactive_attacks_one_army_symbol_an_attack() {
    let mut st = bf("E5", "E1");
    // Reaction dice [1, 3]; one Attack of 4 dice (no re-roll); then ours' attack.
    let faces: Vec<u8> = [&[1u8, 3][..], &MISS4, &MISS4].concat();
    let out = play(&mut st, "allies", MOVE_ATTACK, &faces);
    assert!(
        said(&out, "one army symbol, it makes an Attack"),
        "{:?}",
        texts(&out)
    );
    assert!(u(&st, "theirs").activated);
}

// issue 18 item 1, 003 "Reactive Attacks": "If both dice roll [target] or [shield] the unit
// activates for a Nothing action"; "Whether you succeed or not, attempting a Reactive Attack
// activates your unit, so it cannot take any further actions this turn."
#[test]
fn s003_reactive_attacks_no_army_symbol_nothing_and_the_unit_is_activated() {
    let mut st = bf("E5", "E1");
    let faces: Vec<u8> = [&[3u8, 5][..], &MISS4].concat();
    let out = play(&mut st, "allies", MOVE_ATTACK, &faces);
    assert!(
        said(&out, "no army symbol, it does Nothing and is activated"),
        "{:?}",
        texts(&out)
    );
    assert!(u(&st, "theirs").activated);
    // It cannot take any further actions this turn.
    let o = play(
        &mut st,
        "axis",
        "activate theirs\n  nothing\n  nothing",
        &[],
    );
    assert!(
        matches!(o.results[0].outcome, CommandOutcome::Refused { .. }),
        "{:?}",
        o.results[0].outcome
    );
}

// issue 18 item 1, 003 "Reactive Attacks": "one of your units that has not yet activated, and
// that is at a Range of four squares or less from the activating unit". The gun reaches 8.
#[test]
fn s003_reactive_attacks_range_of_four_squares_or_less() {
    // After `move E4`, theirs at E8 is 4 squares away: it reacts (here, Nothing).
    let mut st = bf("E5", "E8");
    let faces: Vec<u8> = [&[3u8, 5][..], &MISS4].concat();
    let out = play(&mut st, "allies", MOVE_ATTACK, &faces);
    assert!(
        said(&out, "attempts a reactive attack"),
        "{:?}",
        texts(&out)
    );
    // At E9, 5 squares away, it may not: no reaction die is rolled, it stays unactivated.
    let mut st = bf("E5", "E9");
    let out = play(&mut st, "allies", MOVE_ATTACK, &MISS4);
    assert!(!said(&out, "reactive"), "{:?}", texts(&out));
    assert!(!u(&st, "theirs").activated);
}

// issue 18 item 1, 003 "Reactive Attacks": "You cannot declare a Reactive Attack against a unit
// that is taking a Sustained Attack action" and "... against a unit that is taking a Nothing
// action as its second action". A Move then an Attack does open the window (the control).
#[test]
fn s003_reactive_attacks_none_against_sustained_attack_or_a_second_nothing() {
    let mut st = bf("E5", "E1");
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  move E4\n  nothing",
        &[],
    );
    assert!(!said(&out, "reactive"), "{:?}", texts(&out));
    assert!(!u(&st, "theirs").activated);
    let mut st = bf("E5", "E1");
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  sustained gun at theirs",
        &[&MISS4[..], &MISS4].concat(),
    );
    assert!(!said(&out, "reactive"), "{:?}", texts(&out));
    assert!(!u(&st, "theirs").activated);
    // Attack then Nothing: the window after the first action is closed too.
    let mut st = bf("E5", "E1");
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack gun at theirs\n  nothing",
        &MISS4,
    );
    assert!(!said(&out, "reactive"), "{:?}", texts(&out));
    // Nothing then Move: the window opens after the first action.
    let mut st = bf("E5", "E1");
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  nothing\n  move E4",
        &[3, 5],
    );
    assert!(
        said(&out, "attempts a reactive attack"),
        "{:?}",
        texts(&out)
    );
}

// issue 18 item 1, 003 "No Close-Combat Reactive Attacks": "Units making a Reactive Attack
// cannot use Close-Combat Weapons (those with Range C) as part of this action." The reactor is
// adjacent, with a gun and a knife: its reactive Attack rolls the gun's 4 dice only.
#[test]
fn s003_reactive_attacks_no_close_combat_weapons() {
    let a = squad_card("sq", 8, false);
    let x = squad_card("kn", 8, true);
    let mut st = game("battlefront-2013", "E5", "E3", a, x);
    let faces: Vec<u8> = [&[1u8, 3][..], &MISS4, &MISS4].concat();
    let out = play(&mut st, "allies", MOVE_ATTACK, &faces);
    assert!(
        said(&out, "one army symbol, it makes an Attack"),
        "{:?}",
        texts(&out)
    );
    let knife = out
        .happenings
        .iter()
        .any(|h| h.text.contains("theirs") && h.text.contains("knife"));
    assert!(!knife, "{:?}", texts(&out));
}

// issue 18 item 1, 003 "Reactive Attacks": "you can declare that one of your units ... will take
// a Reactive Attack action in response": `standing react any ask` makes the engine wait for the
// owner's `react` line, which it accepts under battlefront-2013; `standing react any never`
// declines every window.
#[test]
fn s003_reactive_attacks_declared_by_react_and_standing_orders() {
    let mut st = bf("E5", "E1");
    let o = play(&mut st, "axis", "standing react any ask", &[]);
    assert!(
        matches!(o.results[0].outcome, CommandOutcome::Accepted { .. }),
        "{:?}",
        o.results[0].outcome
    );
    let out = play(&mut st, "allies", MOVE_ATTACK, &[]);
    assert!(said(&out, "may react against ours"), "{:?}", texts(&out));
    let faces: Vec<u8> = [&[2u8, 6][..], &MISS4, &MISS4].concat();
    let out = play(&mut st, "axis", "react theirs", &faces);
    assert!(
        matches!(out.results[0].outcome, CommandOutcome::Accepted { .. }),
        "{:?}",
        out.results[0].outcome
    );
    assert!(said(&out, "one army symbol, it makes an Attack"));
    let mut st = bf("E5", "E1");
    let o = play(&mut st, "axis", "standing react any never", &[]);
    assert!(matches!(
        o.results[0].outcome,
        CommandOutcome::Accepted { .. }
    ));
    let out = play(&mut st, "allies", MOVE_ATTACK, &MISS4);
    assert!(
        !said(&out, "attempts a reactive attack"),
        "{:?}",
        texts(&out)
    );
    assert!(!u(&st, "theirs").activated);
}

// issue 18 item 1, 003 "Reactive Attacks": "Once the opposing player has completed their first
// action, you can declare ...": a `react` line with no window open is refused, citing 003 (not
// 004's reactive fire), saying what to do, and changing nothing.
#[test]
fn s003_reactive_attacks_react_without_a_window_is_refused_citing_003() {
    let mut st = bf("E5", "E1");
    let before = serde_json::to_string(&st).unwrap();
    let o = play(&mut st, "axis", "react theirs", &[]);
    let CommandOutcome::Refused {
        reason,
        rule,
        instead,
    } = &o.results[0].outcome
    else {
        panic!("{:?}", o.results[0].outcome);
    };
    assert!(
        reason.contains("no reactive-attack window is open"),
        "{reason}"
    );
    assert!(!reason.contains("not implemented yet"), "{reason}");
    assert!(
        rule.starts_with("003 \"Reactive Attacks\"") && rule.contains("R270"),
        "{rule}"
    );
    assert!(!instead.is_empty());
    assert_eq!(serde_json::to_string(&st).unwrap(), before);
}
