//! Issue 18: 002's Spy under battlefront-2013, built to R765's design (R660–R662). The Spy is
//! the pistol hero of `battlefront_combat` given `spy`, not placed at the start; the axis squad
//! `theirs` stands on E3 and a spare on I1. Scripted dice (1, 2 army; 3, 4 target; 5, 6 shield).

use super::battlefront_combat::pistol_hero;
use crate::support_flow::*;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};
use dustmail::game::{Game, ScriptedDice};

/// The Spy `spy` (allies, off the board) and a spare on A9; axis `theirs` on E3, a spare on I1;
/// nobody reacts; allies activate first.
fn spy_game() -> State {
    let s = scenario(
        vec![
            unit("spy", "shooter", None),
            unit("spare-a", "sq", Some("A9")),
        ],
        vec![
            unit("theirs", "sq", Some("E3")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let mut st = DustTactics
        .start(
            "battlefront-2013",
            s,
            vec![pistol_hero(&["spy"]), squad("sq")],
        )
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

const PLACE_AND_MARCH: &str = "activate spy\n  skill spy at E4\n  move D4\n  move C4";

// issue 18, 002 "Spy": "each time a Spy is Activated, the player may elect to roll two dice. If
// any [army] is rolled, the Spy is immediately placed within Range 1 (1 square in *Dust
// Tactics*) of an enemy Unit. It may then take one Action for each [army] rolled." (R765, R660)
// Placed on E4 (next to `theirs` on E3) with one army symbol (army, shield): it makes its first
// ordered action (the Move to D4) and not the second.
#[test]
fn s002_spy_one_army_symbol_places_it_next_to_an_enemy_with_one_action() {
    let mut st = spy_game();
    assert_eq!(u(&st, "spy").at, None);
    let out = play(&mut st, "allies", PLACE_AND_MARCH, &[1, 5]);
    let t = texts(&out);
    assert_eq!(purposes(&out), vec!["spy spy".to_string()], "{t}");
    assert!(t.contains("is placed on E4"), "{t}");
    assert!(t.contains("one army symbol: one action"), "{t}");
    assert_eq!(u(&st, "spy").at, Some(sq("D4")), "{t}");
    assert!(u(&st, "spy").activated);
}

// R765, R660: two army symbols (army, army): two actions, so the March Move's second `move` is
// made too and the Spy ends on C4.
#[test]
fn s002_spy_two_army_symbols_give_two_actions() {
    let mut st = spy_game();
    let out = play(&mut st, "allies", PLACE_AND_MARCH, &[1, 2]);
    let t = texts(&out);
    assert!(t.contains("two army symbols: two actions"), "{t}");
    assert_eq!(u(&st, "spy").at, Some(sq("C4")), "{t}");
}

// 002 "Spy": "If the Spy is not placed, it may only perform Nothing Actions." (R765) No army
// symbol (target, shield): the Spy stays off the board, its orders are not made, its activation
// is spent, and the report shows the dice.
#[test]
fn s002_spy_no_army_symbol_leaves_it_off_the_board_doing_nothing() {
    let mut st = spy_game();
    let out = play(&mut st, "allies", PLACE_AND_MARCH, &[3, 5]);
    let t = texts(&out);
    assert!(t.contains("(target, shield): no army symbol"), "{t}");
    assert_eq!(u(&st, "spy").at, None, "{t}");
    assert!(u(&st, "spy").activated);
    assert!(!u(&st, "spy").destroyed);
}

// 002 "Spy": "A Hero with the Spy Skill is not placed at the start of the game ... If the Spy is
// not placed, it may only perform Nothing Actions." (R765) In round 1 the unplaced Spy does not
// enter (R152 does not hold for it): `nothing` twice is accepted without a die; an entering
// `move` or an attack is refused, naming 002 and the squares it may be placed on, and changes
// nothing.
#[test]
fn s002_spy_unplaced_it_may_only_be_placed_or_do_nothing() {
    for orders in [
        "activate spy\n  move E9\n  nothing",
        "activate spy\n  attack pistol at theirs\n  nothing",
    ] {
        let mut st = spy_game();
        let out = play(&mut st, "allies", orders, &[]);
        let (reason, rule) = refused(&out);
        assert!(reason.contains("Spy not placed yet"), "{reason}");
        assert!(rule.contains("002 \"Spy\""), "{rule}");
        assert!(!u(&st, "spy").activated);
    }
    let mut st = spy_game();
    let out = play(&mut st, "allies", "activate spy\n  nothing\n  nothing", &[]);
    accepted(&out);
    assert_eq!(u(&st, "spy").at, None);
    assert!(u(&st, "spy").activated);
}

// R765, R660: the square named must be free, one infantry may stand on, and within one square of
// an enemy unit: A1 (no enemy near) and E3 (taken by `theirs`) are refused with the reason and the
// valid squares, no die rolled; a Spy already placed may not `skill spy` again.
#[test]
fn s002_spy_the_square_must_be_free_and_next_to_an_enemy() {
    let mut st = spy_game();
    let out = play(
        &mut st,
        "allies",
        "activate spy\n  skill spy at A1\n  nothing",
        &[],
    );
    let (reason, _) = refused(&out);
    assert!(
        reason.contains("no enemy unit stands within one square of A1"),
        "{reason}"
    );
    let out = play(
        &mut st,
        "allies",
        "activate spy\n  skill spy at E3\n  nothing",
        &[],
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("E3 is taken by theirs"), "{reason}");
    assert!(!u(&st, "spy").activated);
    play(&mut st, "allies", PLACE_AND_MARCH, &[1, 2]);
    next_round(&mut st);
    let t = DustTactics.orders_template(&st, "allies");
    assert!(!t.contains("skill spy at"), "{t}");
    let out = play(
        &mut st,
        "allies",
        "activate spy\n  skill spy at D4\n  nothing",
        &[],
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("spy is not one"), "{reason}");
    assert!(rule.contains("002 \"Spy\""), "{rule}");
}

// R765, R661: the orders template offers an unplaced Spy `skill spy at <square>` on exactly the
// squares it may be placed on now (next to `theirs` on E3 or the spare on I1, in board order) and
// `nothing`, no entering move; the line it offers is accepted.
#[test]
fn s002_spy_the_template_offers_the_valid_squares_and_nothing() {
    let mut st = spy_game();
    let t = DustTactics.orders_template(&st, "allies");
    let block: Vec<&str> = t
        .lines()
        .skip_while(|l| !l.starts_with("# activate spy"))
        .skip(1)
        .take_while(|l| !l.starts_with("# activate"))
        .collect();
    let mut offered: Vec<String> = vec![];
    for l in &block {
        let body = l.trim_start_matches('#').trim();
        let body = body.split('#').next().unwrap_or("").trim();
        if let Some(s) = body.strip_prefix("skill spy at ") {
            offered.push(s.to_string());
        } else if let Some(rest) = body.strip_prefix("or at:") {
            offered.extend(rest.split_whitespace().map(String::from));
        }
    }
    let want = [
        "H1", "D2", "E2", "F2", "H2", "I2", "D3", "F3", "D4", "E4", "F4",
    ];
    assert_eq!(offered, want, "{t}");
    assert!(block.iter().any(|l| l.trim() == "#   nothing"), "{t}");
    assert!(!block.iter().any(|l| l.contains("move ")), "{t}");
    let out = play(
        &mut st,
        "allies",
        "activate spy\n  skill spy at H1\n  nothing",
        &[6, 6],
    );
    accepted(&out);
}

// R765: "its default activation when no orders come is a Nothing without dice": the deadline's
// default for the unplaced Spy in round 1 is no entering move and no roll.
#[test]
fn s002_spy_the_deadline_default_is_nothing_without_dice() {
    let mut st = spy_game();
    let mut d = ScriptedDice::new([]);
    let out = flow::default_for(&mut st, "allies", &mut d);
    assert_eq!(d.remaining(), 0);
    assert!(u(&st, "spy").activated, "{}", texts(&out));
    assert_eq!(u(&st, "spy").at, None, "{}", texts(&out));
    assert!(purposes(&out).is_empty(), "{}", texts(&out));
}

// 002 "Spy": "not placed at the start of the game"; "A Spy may not Join a Unit until the Spy has
// been placed." (R765, R662) A scenario giving the Spy a square, or joining it to a squad, is
// refused at setup, saying what to leave out.
#[test]
fn s002_spy_a_scenario_may_not_place_or_join_it_at_the_start() {
    let cards = || vec![pistol_hero(&["spy"]), squad("sq")];
    let axis = || vec![unit("theirs", "sq", Some("E3"))];
    let placed = scenario(vec![unit("spy", "shooter", Some("E5"))], axis());
    let e = DustTactics
        .start("battlefront-2013", placed, cards())
        .expect_err("placed spy");
    assert!(
        e.0.contains("Spy") && e.0.contains("places it on E5"),
        "{}",
        e.0
    );
    let mut hero = unit("spy", "shooter", None);
    hero.joins = Some("mine".into());
    let joined = scenario(vec![hero, unit("mine", "sq", Some("E5"))], axis());
    let e = DustTactics
        .start("battlefront-2013", joined, cards())
        .expect_err("joined spy");
    assert!(e.0.contains("joins it to mine"), "{}", e.0);
}

// R765: 002 gives the skill to a hero ("A Hero with the Spy Skill"): a squad's card naming it is
// refused when read; a hero's is read.
#[test]
fn s002_spy_is_a_heros_skill() {
    use dustmail::dust_tactics::cards::parse_card;
    let extra = "[[skills]]\nname = \"spy\"";
    let (f, t) = super::battlefront_skills002::card_with("bf-bazooka-joe", extra);
    assert!(parse_card(&f, &t).is_ok());
    let (f, t) = super::battlefront_skills002::card_with("bf-recon-grenadiers", extra);
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("Spy") && e.reason.contains("hero"), "{e}");
}

// Every sentence above in one game: the provisional Spy (cards-spy/bf-spy.toml) in "Behind the
// Lines", played to its end by two players' signed mails; the reports show its rolls and its
// placing; the game replays and audits.
#[test]
fn s002_spy_behind_the_lines_is_played_to_its_end_by_mail() {
    use crate::support::dt;
    use dustmail::dust_tactics::bot::Style;
    let dir = tempfile::tempdir().unwrap();
    let (home, env) = dt::play_cards_to_end(
        dir.path(),
        "battlefront-2013",
        ("cards-spy", "behind-the-lines"),
        ("g-spy", 21),
        |_| Style::Aggressive,
    );
    let g = env.load("g-spy");
    let sent = dt::sent_text(&home);
    let tail = dt::tail(&sent, 6000);
    assert!(g.derived.finished.is_some(), "the game did not end: {tail}");
    assert!(
        sent.contains("spy (Spy) rolls two dice"),
        "the Spy never rolled: {tail}"
    );
    assert!(
        sent.contains("and is placed on"),
        "the Spy was never placed: {tail}"
    );
    dt::replay_and_audit(&home, "g-spy");
}
