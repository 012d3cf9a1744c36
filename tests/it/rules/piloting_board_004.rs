//! Issue 12 (ffg-revised, seed 004): a pilot boarding and leaving his vehicle during the game
//! (004 "Pilot: Name", ruling R544). The cards are those of `piloting_004`, read as `new` reads
//! them; orders go through the real parser and state machine (`DustTactics::submit`). Each test
//! names 004's section and quotes its sentence.

use super::piloting_004::{hero_card, walker_card, PILOT_WALKER};
use crate::support_flow::*;
use dustmail::dust_tactics::model::Card;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, view};
use dustmail::game::ScriptedDice;

/// The allied walker `walk` (card `walker`) on E8 with hero `ace` on `ace_at`, or piloting it
/// from the start when `ace_at` is None; the allied squad `mate` on `mate_at`; the axis squads
/// `foe` on E2 and `spare` on I1; no reactive fire; the allies activate first.
fn field(hero: Card, walker: Card, ace_at: Option<&str>, mate_at: &str) -> State {
    let mut ace = unit("ace", &hero.id, ace_at);
    if ace_at.is_none() {
        ace.joins = Some("walk".into());
    }
    let s = scenario(
        vec![
            unit("walk", "walker", Some("E8")),
            ace,
            unit("mate", "sq", Some(mate_at)),
        ],
        vec![
            unit("foe", "sq", Some("E2")),
            unit("spare", "sq", Some("I1")),
        ],
    );
    let mut st = start_defaults(s, vec![hero, walker, squad("sq")]);
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

fn piloted() -> State {
    field(hero_card("ace", PILOT_WALKER), walker_card(""), None, "I9")
}

fn ok(st: &mut State, side: &str, orders: &str) -> String {
    let out = send(st, side, orders, &mut ScriptedDice::new([]));
    first_result(&out).unwrap_or_else(|e| panic!("{orders}: {e}"))
}

fn refused_text(st: &mut State, side: &str, orders: &str) -> String {
    let before = st.clone();
    let out = send(st, side, orders, &mut ScriptedDice::new([]));
    let r = first_result(&out).expect_err("refused");
    assert!(*st == before, "the refusal changed the game: {r}");
    r
}

// 004 "Pilot: Name": "He may board or exit the noted vehicle, obeying the usual embarking and
// disembarking rules." 004 "Carry Capacity": "To board, it must be adjacent to the vehicle and
// spend 1 MP during a MOVE action. If the squad has more than 1 MP available to it during the
// MOVE action, it may first move so that it is adjacent to the vehicle, then spend 1 MP to
// board." Hero ace (Movement 2, Pilot: Walker) moves next to the walker and boards it: he pilots
// it, on its square; the walker, not yet activated, activates later in the round with him.
#[test]
fn pilot_name_004_a_hero_boards_the_noted_vehicle_during_the_game_and_pilots_it() {
    let mut st = field(
        hero_card("ace", PILOT_WALKER),
        walker_card(""),
        Some("C8"),
        "I9",
    );
    let understood = ok(
        &mut st,
        "allies",
        "activate ace\n  move D8 board walk\n  nothing",
    );
    assert!(
        understood.contains("board walk and pilot it"),
        "{understood}"
    );
    let ace = u(&st, "ace");
    assert_eq!(
        (ace.joined.as_deref(), ace.aboard.as_deref(), ace.at),
        (Some("walk"), None, Some(sq("E8")))
    );
    let board = view::board_text(&st);
    assert!(
        board.contains("ace (allies, Hero ace): piloting walk"),
        "{board}"
    );
    ok(&mut st, "axis", "activate foe\n  nothing\n  nothing");
    ok(&mut st, "allies", "activate walk\n  move E7\n  nothing");
    assert_eq!(u(&st, "ace").at, Some(sq("E7")), "the pilot rides with it");
}

// 004 "Pilot: Name": "A hero with this skill is able to pilot the noted vehicle type." A hero
// without Pilot: Walker cannot board the walker, which has no Carry Capacity either: the
// boarding is refused and nothing changes.
#[test]
fn pilot_name_004_a_hero_who_may_not_pilot_the_vehicle_cannot_board_it() {
    let mut st = field(hero_card("ace", ""), walker_card(""), Some("D8"), "I9");
    let r = refused_text(
        &mut st,
        "allies",
        "activate ace\n  move board walk\n  nothing",
    );
    assert!(r.contains("walk has no Carry Capacity"), "{r}");
}

// 004 "Pilot: Name": "Both units activate at the same time, unless the hero intends to
// disembark the vehicle, in which case he must do so before the vehicle activates during the
// turn." 004 "Carry Capacity": "Exiting a vehicle requires a MOVE action and 1 MP to exit. The
// unit is placed in any space adjacent to the vehicle, may spend any additional movement points
// normally, and can then perform a second action for the round". Ace (Movement 2) exits onto
// D8, moves on to C8 with his second MP, and moves again as his second action; the walker,
// not activated, then activates alone.
#[test]
fn pilot_name_004_the_pilot_exits_before_the_vehicle_activates_then_acts_again() {
    let mut st = piloted();
    let understood = ok(
        &mut st,
        "allies",
        "activate ace\n  move exit D8 C8\n  move B8",
    );
    assert!(understood.contains("exit walk onto D8"), "{understood}");
    let ace = u(&st, "ace");
    assert_eq!(
        (ace.joined.as_deref(), ace.at, ace.activated),
        (None, Some(sq("B8")), true)
    );
    assert!(!u(&st, "walk").activated, "the walker has not activated");
    ok(&mut st, "axis", "activate foe\n  nothing\n  nothing");
    ok(&mut st, "allies", "activate walk\n  move E7\n  nothing");
    assert_eq!(u(&st, "walk").at, Some(sq("E7")));
    assert_eq!(u(&st, "ace").at, Some(sq("B8")), "ace stays where he went");
}

// 004 "Pilot: Name": "... in which case he must do so before the vehicle activates during the
// turn." Once the walker has activated this round, its pilot's exit is refused, citing the
// sentence, and nothing changes.
#[test]
fn pilot_name_004_the_pilot_cannot_exit_once_the_vehicle_has_activated() {
    let mut st = piloted();
    ok(&mut st, "allies", "activate walk\n  move E7\n  nothing");
    ok(&mut st, "axis", "activate foe\n  nothing\n  nothing");
    let r = refused_text(&mut st, "allies", "activate ace\n  move exit D7\n  nothing");
    assert!(
        r.contains("walk has already activated this round")
            && r.contains("before the vehicle activates during the turn"),
        "{r}"
    );
}

// 004 "Pilot: Name": "Both units activate at the same time, unless the hero intends to
// disembark the vehicle". Activated alone, the pilot may only begin by exiting: a plain move is
// refused, saying to exit first or to activate the walker.
#[test]
fn pilot_name_004_a_pilot_activated_alone_must_begin_by_exiting() {
    let mut st = piloted();
    let r = refused_text(&mut st, "allies", "activate ace\n  move D8\n  nothing");
    assert!(
        r.contains("ace is joined to walk and activates with it")
            && r.contains("unless he exits it first")
            && r.contains("004 \"Pilot: Name\""),
        "{r}"
    );
}

// 004 "Pilot: Name" (R544): the orders template offers `activate ace` with `move exit` while the
// walker has not activated, and no longer once it has.
#[test]
fn pilot_name_004_the_orders_template_offers_the_exit_only_before_the_vehicle_activates() {
    let mut st = piloted();
    let t = view::orders_template(&st, "allies");
    assert!(
        t.contains("activate ace") && t.contains("move exit E7"),
        "{t}"
    );
    ok(&mut st, "allies", "activate walk\n  move E7\n  nothing");
    ok(&mut st, "axis", "activate foe\n  nothing\n  nothing");
    let t = view::orders_template(&st, "allies");
    assert!(t.contains("activate mate"), "{t}");
    assert!(!t.contains("activate ace"), "{t}");
}

// 004 "Pilot: Name": "If a hero is piloting a vehicle with the Carry Capacity skill, he does not
// count towards the vehicle's carry capacity." 004 "Carry Capacity": "Multiple units can board
// the same vehicle as long as its carry capacity is not exceeded." A carrier of capacity 4 takes
// its pilot and then the 4-model squad; a hero who may not pilot it rides as a passenger and
// takes a place, so the squad no longer fits.
#[test]
fn pilot_name_004_a_pilot_takes_no_place_of_the_carry_capacity() {
    let carrier = "[[skills]]\nname = \"carry-capacity\"\nvalue = 4\n";
    for (skills, fits) in [(PILOT_WALKER, true), ("", false)] {
        let mut st = field(
            hero_card("ace", skills),
            walker_card(carrier),
            Some("D8"),
            "F8",
        );
        ok(
            &mut st,
            "allies",
            "activate ace\n  move board walk\n  nothing",
        );
        let ace = u(&st, "ace");
        let pilots = ace.joined.as_deref() == Some("walk");
        assert_eq!(pilots, fits, "ace pilots (not aboard): {ace:?}");
        assert_eq!(ace.aboard.is_some(), !fits);
        ok(&mut st, "axis", "activate foe\n  nothing\n  nothing");
        let out = send(
            &mut st,
            "allies",
            "activate mate\n  move board walk\n  nothing",
            &mut ScriptedDice::new([]),
        );
        match first_result(&out) {
            Ok(_) => {
                assert!(fits);
                assert_eq!(u(&st, "mate").aboard.as_deref(), Some("walk"));
            }
            Err(r) => {
                assert!(!fits, "{r}");
                assert!(
                    r.contains("mate needs 4 place(s) in walk, which carries 1 of its 4"),
                    "{r}"
                );
            }
        }
    }
}

// Rules revision 7 (R544): a game made before refused every `activate <pilot>` and boarded a hero
// into no vehicle without Carry Capacity; it replays so. Under revision 6 the exit and the
// boarding are refused as they were.
#[test]
fn pilot_name_004_a_game_made_before_revision_7_refuses_boarding_and_exit_as_it_did() {
    let mut st = piloted();
    st.rules_revision = 6;
    let r = refused_text(&mut st, "allies", "activate ace\n  move exit D8\n  nothing");
    assert!(
        r.contains("ace is joined to walk and activates with it"),
        "{r}"
    );
    assert!(!r.contains("unless he exits it first"), "{r}");
    let mut st = field(
        hero_card("ace", PILOT_WALKER),
        walker_card(""),
        Some("D8"),
        "I9",
    );
    st.rules_revision = 6;
    let r = refused_text(
        &mut st,
        "allies",
        "activate ace\n  move board walk\n  nothing",
    );
    assert!(r.contains("walk has no Carry Capacity"), "{r}");
}

// 004 "Pilot: Name": "He may board or exit the noted vehicle, obeying the usual embarking and
// disembarking rules"; once aboard he is inside it and no target (R541). Axis `foe`, on E5 in
// range of the walker's square and set to react, does not fire at ace when his MOVE boards the
// walker: nothing may fire at a pilot, so no reactive-fire window opens.
#[test]
fn pilot_name_004_no_reactive_fire_answers_a_pilot_boarding() {
    let mut st = field(
        hero_card("ace", PILOT_WALKER),
        walker_card(""),
        Some("C8"),
        "I9",
    );
    st.units.iter_mut().find(|u| u.id == "foe").expect("foe").at = Some(sq("E5"));
    flow::standing_react(&mut st, "axis", None, Policy::Yes).expect("standing react");
    let orders = "activate ace\n  move D8 board walk\n  nothing";
    // A game made before rules revision 8 opened the window, and replays so.
    let mut old = st.clone();
    old.rules_revision = 7;
    let out = send(&mut old, "allies", orders, &mut ScriptedDice::new([6]));
    assert!(
        texts(&out).contains("reactive-fire window"),
        "{}",
        texts(&out)
    );
    let out = send(&mut st, "allies", orders, &mut ScriptedDice::new([]));
    first_result(&out).expect("boarding accepted");
    assert!(!texts(&out).contains("reactive"), "{}", texts(&out));
    assert!(!u(&st, "foe").activated, "foe kept its activation");
    assert_eq!(u(&st, "ace").joined.as_deref(), Some("walk"));
}
