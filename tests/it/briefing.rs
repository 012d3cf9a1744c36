//! Issue 16 item 2 (in part): the welcome mail's briefing tells a player who never saw the game
//! what the scenario is, how to win, when it ends and where their units come in.

use crate::support::flat;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, NewRequest};

fn briefing(scenario: &str, side: &str) -> String {
    let plan = DustTactics
        .plan_new(&NewRequest {
            scenario: Some(scenario.into()),
            ..NewRequest::default()
        })
        .unwrap();
    let state = DustTactics.setup(&plan.setup).unwrap();
    DustTactics.briefing(&state, side)
}

#[test]
fn the_briefing_tells_the_objective_the_round_limit_and_the_entry_zone() {
    // full-box: allies win by holding E2 (a `hold` objective of the scenario file).
    let raw = briefing("full-box", "allies");
    for l in raw.lines() {
        assert!(l.chars().count() <= 72, "{} chars: {l}", l.chars().count());
    }
    let b = flat(&raw);
    assert!(b.starts_with("Storm the Bunker"), "{b}");
    assert!(b.contains("How to win:"), "{b}");
    assert!(
        b.contains("allies wins at once at the end of a round in which one of its units"),
        "{b}"
    );
    assert!(b.contains("stands on E2"), "{b}");
    assert!(b.contains("ends after round"), "{b}");
    assert!(b.contains("equal points are a draw"), "{b}");
    assert!(b.contains("enters by a move onto one of: B9 C9"), "{b}");
}

#[test]
fn objective_points_are_in_the_briefing() {
    // crossroads: E5 is worth 3 points to the side holding it at the end.
    let b = flat(&briefing("crossroads", "axis"));
    assert!(
        b.contains("3 points for the side holding E5 at the end"),
        "{b}"
    );
}
