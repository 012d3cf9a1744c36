//! Issue 18, third slice: close combat, spray and blast, under battlefront-2013 (003 p.28–31,
//! 35). Each test is named after 003's section, quotes its sentence and plays the real
//! battlefront starter cards through the engine with scripted dice: the dice a step consumes
//! (every scripted die used, none more) show which rolls the rule made.

use crate::support_flow::*;
use dustmail::dust_tactics::model::Card;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};
use dustmail::game::{CommandOutcome, Game, Line, Outcome, ScriptedDice, Sender};

/// The battlefront starter cards (games/dust-tactics/cards-battlefront/).
fn bf_cards() -> Vec<Card> {
    dustmail::dust_tactics::battlefront::cards::builtin()
        .into_iter()
        .map(|(f, t)| dustmail::dust_tactics::cards::parse_card(f, t).expect("battlefront card"))
        .collect()
}

/// A battlefront-2013 game on the 9×9 open board with the real cards: `allies` and `axis` as
/// (id, card file stem, square); `first` activates first. Nobody reacts (`standing react any
/// never`), so each test sees only the rule under test.
fn game(allies: &[(&str, &str, &str)], axis: &[(&str, &str, &str)], first: &str) -> State {
    let specs = |v: &[(&str, &str, &str)]| -> Vec<UnitSpec> {
        v.iter().map(|(id, c, at)| unit(id, c, Some(at))).collect()
    };
    let s = scenario(specs(allies), specs(axis));
    let mut st = DustTactics
        .start("battlefront-2013", s, bf_cards())
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, first);
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

fn models(st: &State, id: &str) -> usize {
    u(st, id).models.len()
}

fn alive(st: &State, id: &str) -> bool {
    !u(st, id).destroyed
}

/// The purposes of the rolls made, in order.
fn purposes(out: &Outcome) -> Vec<String> {
    out.happenings
        .iter()
        .flat_map(|h| h.rolls.iter().map(|r| r.purpose.clone()))
        .collect()
}

/// Recon Grenadiers (axis, E5) next to the Grim Reapers (allies, E6); a spare a side far off.
fn grenadiers_and_reapers() -> State {
    game(
        &[
            ("reapers", "bf-grim-reapers", "E6"),
            ("joe", "bf-bazooka-joe", "A9"),
        ],
        &[
            ("grenadiers", "bf-recon-grenadiers", "E5"),
            ("stefan", "bf-stefan", "I1"),
        ],
        "axis",
    )
}

// issue 18 item 1, 003 "Close-Combat Weapons" worked example (p.31): "The Recon Grenadiers use
// their StG 47 assault rifles and MG 48 machine-gun against The Gunners scoring three hits ...
// cancelling two hits and only lose one soldier"; "The Recon Grenadiers roll one die for each
// soldier. Their five dice score two hits. The Gunners that survived ... roll their four dice at
// the same time, scoring two hits"; "The Axis player removes two Recon Grenadiers and the Allied
// player removes another two miniatures". Here against the three Grim Reapers in the open.
#[test]
fn s003_close_combat_weapons_worked_example_ranged_first_then_both_sides_at_once() {
    let mut st = grenadiers_and_reapers();
    let faces: Vec<u8> = [
        // StG 47: 4 dice, 1 hit; Infantry Save 1 die: army, cancelled.
        &[1u8, 3, 4, 5][..],
        &[2],
        // MG 48: 4 dice, 2 hits; Infantry Saves: one army, one target.
        &[1, 2, 3, 5],
        &[4, 1],
        // Knives and grenades: one die for each of the five soldiers, 2 hits, no save.
        &[1, 2, 3, 4, 5],
        // The two Grim Reapers left retaliate: two dice, two hits, no save.
        &[1, 2],
    ]
    .concat();
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\n  attack stg47 at reapers, mg48 at reapers, knives at reapers\n  nothing",
        &faces,
    );
    let t = texts(&out);
    assert!(
        out.results
            .iter()
            .all(|r| matches!(r.outcome, CommandOutcome::Accepted { .. })),
        "{t}"
    );
    // The ranged casualty is removed before close combat: the Reapers retaliate with 2 dice.
    let p = purposes(&out);
    let knives = p.iter().position(|x| x == "attack knives").expect("knives");
    assert!(
        p[..knives].iter().any(|x| x == "attack mg48"),
        "ranged first: {p:?}"
    );
    assert!(
        t.contains("reapers retaliates in close combat with Combat knives"),
        "{t}"
    );
    // Both sides' close-combat casualties removed together: the last Reapers still struck back.
    assert!(!alive(&st, "reapers"), "{t}");
    assert_eq!(models(&st, "grenadiers"), 3, "{t}");
    // No save of any kind against a range C hit.
    assert!(
        !p[knives..].iter().any(|x| x.contains("save")),
        "no save after the knives: {p:?}"
    );
}

// issue 18 item 1, 003 "No Saves Against Close-Combat Weapons": "Units hit by Close-Combat
// Weapons do not get any Cover or Infantry Saves." The Grim Reapers charge the Recon Grenadiers
// with their knives alone: 3 dice, 3 hits, 3 Grenadiers lost without a save die; all five
// retaliate before the casualties are removed (5 dice, all miss).
#[test]
fn s003_no_saves_against_close_combat_weapons() {
    let mut st = grenadiers_and_reapers();
    // Axis activates first: the Grenadiers do nothing; then the Reapers attack.
    play(
        &mut st,
        "axis",
        "activate grenadiers\n  nothing\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "allies",
        "activate reapers\n  attack knives at grenadiers\n  nothing",
        &[1, 2, 1, 3, 4, 5, 6, 3],
    );
    let t = texts(&out);
    assert_eq!(models(&st, "grenadiers"), 2, "{t}");
    assert!(t.contains("no save"), "{t}");
    assert_eq!(
        purposes(&out),
        vec!["attack knives", "attack knives"],
        "{t}"
    );
}

// issue 18 item 1, 003 "Close Range (C)": "Close-Combat (or hand-to-hand) weapons can only be
// used against targets in an adjacent square, and are identified as Range C."
#[test]
fn s003_close_range_c_only_against_an_adjacent_square() {
    let mut st = game(
        &[
            ("reapers", "bf-grim-reapers", "E7"),
            ("joe", "bf-bazooka-joe", "A9"),
        ],
        &[
            ("grenadiers", "bf-recon-grenadiers", "E5"),
            ("stefan", "bf-stefan", "I1"),
        ],
        "axis",
    );
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\n  attack knives at reapers\n  nothing",
        &[],
    );
    let r = refusal(&out);
    assert!(r.contains("not in range") && r.contains("range C"), "{r}");
    assert_eq!(models(&st, "reapers"), 3);
}

// issue 18 item 1, 003 "Sustained Attack and Close-Combat Weapons": "A unit performing a
// Sustained Attack action must choose between using Ranged Weapons or Close-Combat Weapons."
// Mixing both in one Sustained Attack is refused and changes nothing (R274).
#[test]
fn s003_sustained_attack_and_close_combat_weapons_choose_one_kind() {
    let mut st = grenadiers_and_reapers();
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\n  sustained stg47 at reapers, knives at reapers",
        &[],
    );
    let r = refusal(&out);
    assert!(
        r.contains("a Sustained Attack uses ranged weapons or close-combat weapons, not both")
            && r.contains("003 \"Sustained Attack and Close-Combat Weapons\"")
            && r.contains("R274"),
        "{r}"
    );
    assert_eq!(models(&st, "reapers"), 3);
    assert!(!u(&st, "grenadiers").activated);
}

// issue 18 item 1, 003 "Sustained Attack and Close-Combat Weapons": "If it uses Close-Combat
// Weapons in a Sustained Attack, the defending unit retaliates with its Close-Combat Weapons as
// normal, but only performs a standard Attack action." The Grenadiers re-roll their misses; the
// Reapers' retaliation is not re-rolled.
#[test]
fn s003_sustained_close_combat_the_defender_retaliates_with_a_standard_attack() {
    let mut st = grenadiers_and_reapers();
    let faces: Vec<u8> = [
        // Knives: 5 dice, 1 hit; the 4 misses re-rolled once: 1 more hit.
        &[1u8, 3, 4, 5, 6][..],
        &[2, 3, 4, 5],
        // The three Reapers retaliate once: 3 dice, 1 hit, and no re-roll of the 2 misses.
        &[1, 4, 6],
    ]
    .concat();
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\n  sustained knives at reapers",
        &faces,
    );
    let t = texts(&out);
    assert_eq!(models(&st, "reapers"), 1, "{t}");
    assert_eq!(models(&st, "grenadiers"), 4, "{t}");
}
