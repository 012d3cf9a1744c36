//! Issue 12 (ffg-revised, seed 004): Volley (004 "Special combat values", "Volley Blast"), ruling
//! R460. The volley card is written as a player writes it for `new --cards` and read the way
//! `new` reads it; orders go through the real parser and state machine (`DustTactics::submit`).

use crate::support_flow::*;
use dustmail::dust_tactics::cards::parse_card_for_new;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Outcome, ScriptedDice};

/// A vehicle card with a rocket launcher whose cells are volleys: 1, 2 or 3 dice for 1, 2 or 3
/// ammo, 1 damage per hit, 3 ammo boxes (`ammo` is left out when `boxes` is `None`).
fn rocket_card(boxes: Option<u8>) -> String {
    let ammo = boxes.map(|b| format!("ammo = {b}\n")).unwrap_or_default();
    format!(
        r#"id = "rocket-walker"
name = "Rocket walker"
faction = "allies"
unit_type = "vehicle"
armour = {{ vehicle = 3 }}
movement = 1
health = 3
ap = 10

[[weapons]]
id = "rockets"
name = "Rocket launcher"
range = "8"
soldier = ["1/1-2/1-3/1", "1/1-2/1-3/1", "1/1-2/1-3/1", "1/1-2/1-3/1"]
vehicle = ["1/1-2/1-3/1", "-", "-", "-", "-", "-", "-"]
aircraft = ["-", "-", "-"]
{ammo}"#
    )
}

/// The rocket walker `rk` on E8 against the axis squad `foe` (4 models, no saves) on E1, in the
/// open; reactive fire off; allies activate first.
fn volley_game() -> State {
    let rk = parse_card_for_new("rocket-walker.toml", &rocket_card(Some(3)))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut st = DustTactics
        .start(
            "ffg-revised",
            scenario(
                vec![unit("rk", "rocket-walker", Some("E8"))],
                vec![unit("foe", "sq", Some("E1"))],
            ),
            vec![rk, squad("sq")],
        )
        .expect("setup");
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

fn fired(out: &Outcome) -> String {
    texts(out)
        .lines()
        .filter(|t| t.contains(" fires "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ammo_left(st: &State) -> Option<u8> {
    u(st, "rk").ammo.get("rockets").copied()
}

// issue 12 item 2 (Volley): 004 "Volley Blast A/X - B/X - C/X ...": "Roll 'A' dice when
// spending 1 ammo (roll 'B' dice when spending 2 ammo, roll 'C' dice when spending 3 ammo, etc.)
// and inflict 'X' damage to the target for each [hit] result." Spending 2 ammo rolls B = 2 dice;
// both hit, 2 damage: two models fall and 1 box is left (R460).
#[test]
fn volley_blast_004_spending_2_ammo_rolls_b_dice_x_damage_each_hit() {
    let mut st = volley_game();
    let mut d = ScriptedDice::new([1, 1]);
    let out = send(
        &mut st,
        "allies",
        "activate rk\nattack 2 rockets at foe\nnothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    let f = fired(&out);
    assert!(
        f.contains("volley of 2 ammo") && f.contains("2 dice"),
        "{f}"
    );
    assert_eq!(u(&st, "foe").models.len(), 2, "{}", texts(&out));
    assert_eq!(ammo_left(&st), Some(1));
}

// issue 12 item 2 (Volley): 004 "Volley Blast": "Roll 'A' dice when spending 1 ammo": an attack
// that names no count spends 1 box and rolls A = 1 die (R460: the least the cell offers, never
// every box at once).
#[test]
fn volley_blast_004_an_attack_without_a_count_spends_1_ammo_and_rolls_a_dice() {
    let mut st = volley_game();
    let mut d = ScriptedDice::new([1]);
    let out = send(
        &mut st,
        "allies",
        "activate rk\nattack rockets at foe\nnothing",
        &mut d,
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0, "{}", texts(&out));
    assert!(fired(&out).contains("volley of 1 ammo"), "{}", fired(&out));
    assert_eq!(u(&st, "foe").models.len(), 3);
    assert_eq!(ammo_left(&st), Some(2));
}

// issue 12 item 2 (Volley): 004 "Volley Blast": a volley may spend only as much ammo as its cell
// lists and its boxes hold: `attack 4 rockets` on a 3-count cell is refused naming the line, the
// rule and what to send, and changes nothing (R460).
#[test]
fn volley_blast_004_more_ammo_than_the_cell_lists_is_refused_and_changes_nothing() {
    let mut st = volley_game();
    let mut d = ScriptedDice::new([1, 1, 1, 1]);
    let out = send(
        &mut st,
        "allies",
        "activate rk\nattack 4 rockets at foe\nnothing",
        &mut d,
    );
    let CommandOutcome::Refused {
        reason,
        rule,
        instead,
    } = &out.results[0].outcome
    else {
        panic!("expected a refusal: {out:?}");
    };
    assert_eq!(out.results[0].line, 1);
    assert!(reason.contains("`4 rockets`"), "{reason}");
    assert!(
        rule.contains("Volley Blast") && rule.contains("R460"),
        "{rule}"
    );
    assert_eq!(instead, "attack 3 rockets at foe");
    assert_eq!(d.remaining(), 4);
    assert_eq!(ammo_left(&st), Some(3));
    assert_eq!(u(&st, "foe").models.len(), 4);
}

// issue 12 item 2 (Volley): 004 "Volley Blast" (limited ammo, "mark the boxes spent"): after a
// volley of 2, one box is left, and a second volley of 2 is refused with "attack 1 rockets"
// offered instead (R460).
#[test]
fn volley_blast_004_a_volley_spends_no_more_than_the_boxes_left() {
    let mut st = volley_game();
    let out = send(
        &mut st,
        "allies",
        "activate rk\nattack 2 rockets at foe\nnothing",
        &mut ScriptedDice::new([6, 6]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(ammo_left(&st), Some(1));
    next_round(&mut st);
    let out = send(
        &mut st,
        "allies",
        "activate rk\nattack 2 rockets at foe\nnothing",
        &mut ScriptedDice::new([1, 1]),
    );
    let CommandOutcome::Refused { instead, rule, .. } = &out.results[0].outcome else {
        panic!("expected a refusal: {out:?}");
    };
    assert!(rule.contains("Volley Blast"), "{rule}");
    assert_eq!(instead, "attack 1 rockets at foe");
    assert_eq!(ammo_left(&st), Some(1));
}

// issue 12 item 2 (Volley): 004 "Volley Blast" spends ammo, so a card whose volley line has no
// ammo boxes is refused when `new --cards` reads it, naming the file, the field and what to write
// (R460).
#[test]
fn volley_blast_004_a_card_with_a_volley_and_no_ammo_boxes_is_refused() {
    let e = parse_card_for_new("rocket-walker.toml", &rocket_card(None))
        .expect_err("a volley without boxes")
        .to_string();
    assert!(
        e.contains("rocket-walker.toml") && e.contains("weapons[0].ammo") && e.contains("volley"),
        "{e}"
    );
}
