//! R585 (rules revision 6): an attack naming a weapon line no living model carries is refused
//! when the order is read, and the orders template no longer offers it. 000 "Sniper": a carrier
//! shot "destroys both the carrier and the weapon. (Your squad cannot pick up the Bazooka for
//! instance)". The shipped Battle Grenadiers carry their Panzerschreck on model 5 alone.

use crate::support_flow::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, ScriptedDice};

/// The Battle Grenadiers (allies here, E5) without their model 5, a Recon Rangers squad `rr`
/// (E3) in range of the Panzerschreck; allies to activate.
fn grenadiers_without_the_carrier() -> State {
    let s = scenario(
        vec![unit("bg", "battle-grenadiers", Some("E5"))],
        vec![unit("rr", "recon-rangers", Some("E3"))],
    );
    let mut st = DustTactics
        .start("ffg-revised", s, real_cards())
        .expect("setup");
    begin(&mut st, "allies");
    let bg = st.unit_mut("bg").unwrap();
    bg.models.retain(|m| m != "5");
    bg.health = 4;
    st
}

#[test]
fn weapon_lines_000_a_weapon_whose_carriers_fell_is_refused_not_fired_at_nobody() {
    let mut st = grenadiers_without_the_carrier();
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate bg\nattack panzerschreck at rr\nnothing",
        &mut ScriptedDice::new([]),
    );
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("nobody left in bg carries Panzerschreck") && e.contains("carrier"),
        "{e}"
    );
    assert_eq!(st, before, "a refused activation changes nothing");
    // The rifles still fire.
    let out = send(
        &mut st,
        "allies",
        "activate bg\nattack rifles at rr\nnothing",
        &mut Cycle(2),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
}

#[test]
fn weapon_lines_000_the_orders_template_no_longer_offers_a_weapon_nobody_carries() {
    let st = grenadiers_without_the_carrier();
    let t = DustTactics.orders_template(&st, "allies");
    assert!(!t.contains("attack panzerschreck"), "{t}");
    assert!(t.contains("attack rifles at rr"), "{t}");
    // With the carrier alive, it is offered.
    let mut st = grenadiers_without_the_carrier();
    st.unit_mut("bg").unwrap().models.push("5".into());
    st.unit_mut("bg").unwrap().health = 5;
    let t = DustTactics.orders_template(&st, "allies");
    assert!(t.contains("attack panzerschreck at rr"), "{t}");
}

// A game made under rules revision 5 replays as recorded: the line is accepted and fires nobody.
#[test]
fn weapon_lines_a_game_made_under_rules_revision_5_still_accepts_the_line() {
    let mut st = grenadiers_without_the_carrier();
    st.rules_revision = 5;
    let out = send(
        &mut st,
        "allies",
        "activate bg\nattack panzerschreck at rr\nnothing",
        &mut Cycle(2),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(
        texts(&out).contains("nobody left carries Panzerschreck"),
        "{out:?}"
    );
}
