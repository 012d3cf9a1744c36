//! Issue 12: the orders template offers an aircraft's advanced deployment (004 "Aircraft",
//! "Entering the Battlefield", R545, R548): two `move` lines sent together, which the engine
//! accepts, checked as tests/it/legal_template.rs checks every suggestion.

use super::aircraft_004::{aircraft, tank};
use super::aircraft_deploy_004::off_board;
use crate::legal_template::every_suggestion_accepted;
use crate::support_flow::*;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, ScriptedDice};

const HEAD: &str = "advanced deployment (004 \"Aircraft\"): MOVE + MOVE";

#[test]
fn aircraft_004_the_template_offers_an_advanced_deployment_that_is_accepted() {
    // 004 "Aircraft": "Advanced deployment: The aircraft can enter the board on any space not in
    // an opponent's deployment zone. The aircraft must make a MOVE + MOVE action." (R545, R548).
    // The aircraft off the board gets the two lines under their heading, and every suggestion
    // of the template, the pair sent as one activation, is accepted.
    let st = off_board(aircraft("hawk", &[]), false);
    let template = DustTactics.orders_template(&st, "allies");
    assert!(template.contains(HEAD), "{template}");
    let sent = every_suggestion_accepted(&st, "allies", "advanced deployment");
    let pair = sent
        .iter()
        .find(|o| o.lines().filter(|l| l.trim().starts_with("move ")).count() == 2)
        .unwrap_or_else(|| panic!("no MOVE + MOVE suggestion in {sent:?}"));
    // Sent for real, the aircraft enters outside its zone (row 9) and flies on.
    let mut st = st.clone();
    let out = send(&mut st, "allies", pair, &mut ScriptedDice::new([]));
    accepted(&out);
    let entry = pair
        .lines()
        .nth(1)
        .unwrap()
        .trim()
        .trim_start_matches("move ");
    assert!(!entry.ends_with('9'), "an entry outside the zone: {pair}");
    assert!(u(&st, "a1").at.is_some());
    assert!(
        texts(&out).contains(&format!("enter at {entry}")),
        "{}",
        texts(&out)
    );
}

#[test]
fn aircraft_004_no_advanced_deployment_line_for_a_ground_vehicle_nor_before_revision_7() {
    // "When deploying an AIRCRAFT, you may choose one of these options" (R545): a ground vehicle
    // off the board is offered only its entry zone; a game made before rules revision 7 has no
    // advanced deployment, and its template offers none.
    let st = off_board(tank("panzer", &[]), false);
    let template = DustTactics.orders_template(&st, "allies");
    assert!(!template.contains(HEAD), "{template}");
    every_suggestion_accepted(&st, "allies", "ground vehicle");
    let mut st = off_board(aircraft("hawk", &[]), false);
    st.rules_revision = 6;
    let template = DustTactics.orders_template(&st, "allies");
    assert!(!template.contains(HEAD), "{template}");
    every_suggestion_accepted(&st, "allies", "revision 6");
}
