//! Issue 12 item 1, limited ammo: 000 "Limited ammo weapons": "You are never forced to use all of
//! these limited ammo weapons at once!" A count before the weapon (`attack 2 demo at luther`)
//! fires fewer and marks only their boxes (ruling R414). Orders go through the real parser and
//! state machine (`DustTactics::submit`) with the shipped Assault Rangers (5 Demo Charges, one
//! each: 000 "Limited ammo weapons" example) against the shipped Luther.
//! (Comrades picking up the weapon, 000/004, is R153:
//! `rules::ffg_revised::sentences2::limited_ammo_000_comrades_pick_up_the_weapon_when_its_carrier_falls`.)

use crate::support_flow;

use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Game, Outcome};
use support_flow::*;

/// The Assault Rangers (E5, 5 Demo Charges) beside an axis Luther (E4), allies to activate.
fn rangers_beside_luther(ruleset: &str) -> State {
    let s = scenario(
        vec![unit("ar", "assault-rangers", Some("E5"))],
        vec![unit("lu", "luther", Some("E4"))],
    );
    let mut st = DustTactics.start(ruleset, s, real_cards()).expect("setup");
    begin(&mut st, "allies");
    st
}

/// The "fires" happenings of an outcome.
fn fired(out: &Outcome) -> Vec<String> {
    out.happenings
        .iter()
        .map(|h| h.text.clone())
        .filter(|t| t.contains("fires"))
        .collect()
}

/// Sends `attack` as the rangers' first action; returns the outcome.
fn rangers_attack(st: &mut State, attack: &str) -> Outcome {
    send(
        st,
        "allies",
        &format!("activate ar\n{attack}\nnothing"),
        &mut Cycle(1),
    )
}

fn demo_left(st: &State) -> Option<u8> {
    u(st, "ar").ammo.get("demo").copied()
}

#[test]
fn limited_ammo_000_never_forced_to_use_all_at_once_ffg_revised() {
    // Issue 12 item 1. 000 "Limited ammo weapons": "You are never forced to use all of these
    // limited ammo weapons at once!"; 004 "Limited Ammo Weapons": "mark one box for each ammo
    // spent". Two of five Demo Charges fire: two boxes marked, three left (R414).
    let mut st = rangers_beside_luther("ffg-revised");
    assert_eq!(demo_left(&st), Some(5));
    let out = rangers_attack(&mut st, "attack 2 demo at lu");
    assert!(first_result(&out).is_ok(), "{out:?}");
    let f = fired(&out);
    assert!(f.iter().any(|t| t.contains("Demo Charges")), "{f:?}");
    assert_eq!(demo_left(&st), Some(3), "{}", texts(&out));
}

#[test]
fn limited_ammo_000_never_forced_to_use_all_at_once_classic_2010() {
    // Issue 12 item 1. The same 000 sentence under classic-2010: "You are never forced to use all
    // of these limited ammo weapons at once!" One Demo Charge fires, four boxes are left (R414).
    let mut st = rangers_beside_luther("classic-2010");
    let out = rangers_attack(&mut st, "attack 1 demo at lu");
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(demo_left(&st), Some(4), "{}", texts(&out));
}

#[test]
fn limited_ammo_000_without_a_count_every_weapon_still_fires() {
    // Issue 12 item 1. Without a count the line fires as before: every Demo Charge the squad can
    // use, one box each (004 "mark one box for each ammo spent"; R53, R414).
    let mut st = rangers_beside_luther("ffg-revised");
    let out = rangers_attack(&mut st, "attack demo at lu");
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(demo_left(&st), Some(0), "{}", texts(&out));
}

#[test]
fn limited_ammo_000_a_count_above_the_boxes_left_is_refused() {
    // Issue 12 item 1. 000 "Limited ammo weapons": "Each box is a marker for each use of this
    // specific weapon": with 2 boxes left, `3 demo` is refused, says what to send, and changes
    // nothing (R414).
    let mut st = rangers_beside_luther("ffg-revised");
    st.unit_mut("ar").unwrap().ammo.insert("demo".into(), 2);
    let before = st.clone();
    let out = rangers_attack(&mut st, "attack 3 demo at lu");
    let (reason, _rule) = refused(&out);
    assert!(reason.contains("at most 2"), "{reason}");
    match &out.results[0].outcome {
        CommandOutcome::Refused { instead, .. } => {
            assert_eq!(instead, "attack 2 demo at lu")
        }
        o => panic!("{o:?}"),
    }
    assert_eq!(demo_left(&st), Some(2));
    assert_eq!(u(&st, "ar").at, u(&before, "ar").at);
}

#[test]
fn limited_ammo_000_a_count_on_a_weapon_without_ammo_boxes_is_refused() {
    // Issue 12 item 1. 000 "Limited ammo weapons": the count is for weapons "followed by little
    // boxes"; the Shotguns have none, so `2 shotguns` is refused (R414).
    let mut st = rangers_beside_luther("ffg-revised");
    let out = rangers_attack(&mut st, "attack 2 shotguns at lu");
    let (reason, _rule) = refused(&out);
    assert!(reason.contains("no ammo boxes"), "{reason}");
    assert_eq!(demo_left(&st), Some(5));
}

#[test]
fn limited_ammo_000_the_orders_template_suggests_firing_fewer() {
    // Issue 12 item 1. 000 "Limited ammo weapons": "You are never forced to use all of these
    // limited ammo weapons at once!": the template offers a count, and the offer is accepted.
    let st = rangers_beside_luther("ffg-revised");
    let t = DustTactics.orders_template(&st, "allies");
    assert!(t.contains("#   attack 1 demo at lu"), "{t}");
    let mut st2 = st.clone();
    let out = rangers_attack(&mut st2, "attack 1 demo at lu");
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(demo_left(&st2), Some(4));
}

#[test]
fn limited_ammo_000_the_count_reads_back_as_written() {
    // Issue 12 item 1 (R414): the understood order repeats the count, so the receipt says what
    // fires.
    let mut st = rangers_beside_luther("ffg-revised");
    let out = rangers_attack(&mut st, "attack 2 demo at lu");
    let understood = first_result(&out).expect("accepted");
    assert!(understood.contains("attack 2 demo at lu"), "{understood}");
}
