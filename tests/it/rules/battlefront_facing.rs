//! Issue 18, second slice: facing and fields of fire under `battlefront-2013`. Each test is named
//! after 003's section and quotes its sentence; rulings R250–R253 (docs/rulings.md) settle the
//! grid geometry 003 leaves open.

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::facing::Facing;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::Game;

/// The 003 starter card `id` (games/dust-tactics/cards-battlefront/).
fn bf_card(id: &str) -> Card {
    let file = format!("{id}.toml");
    let (_, text) = dustmail::dust_tactics::battlefront::cards::builtin()
        .into_iter()
        .find(|(f, _)| *f == file)
        .expect("battlefront card");
    dustmail::dust_tactics::cards::parse_card(&file, text).expect("card parses")
}

/// The Pounder (allies) on `pounder` and the Ludwig (axis) on `ludwig` (or off the board), on the
/// 9×9 open test board under `ruleset`; `first` activates first.
pub(super) fn walkers(
    ruleset: &str,
    pounder: Option<&str>,
    ludwig: Option<&str>,
    first: &str,
) -> State {
    let s = scenario(
        vec![unit("pounder", "bf-pounder", pounder)],
        vec![unit("ludwig", "bf-ludwig", ludwig)],
    );
    let mut st = DustTactics
        .start(
            ruleset,
            s,
            vec![bf_card("bf-pounder"), bf_card("bf-ludwig")],
        )
        .expect("setup");
    begin(&mut st, first);
    // These cases are about fields of fire: no reactive attack (003 "Reactive Attacks", R270)
    // interleaves with the activation under test.
    never_react(&mut st);
    st
}

// issue 18 item 2, 003 "Check Field of Fire": "Most Vehicle weapons can only attack targets up to
// 45 degrees on either side of the direction the Vehicle is facing." and the example: "the Ludwig
// ... can only attack targets in its front arc with its twin 8.8cm FpK Zwilling guns ... As the
// Pounder is out of its field of fire, it needs to take a Move action to bring it into its field
// of fire, before it can take an Attack action." The Ludwig on E3 faces south (placed in the
// top half, R251); the Pounder due west on A3 is outside its front arc: refused, nothing changes.
#[test]
fn s003_check_field_of_fire_front_guns_refused_outside_the_arc() {
    let mut st = walkers("battlefront-2013", Some("A3"), Some("E3"), "axis");
    assert_eq!(u(&st, "ludwig").facing, None, "placed, not moved yet");
    let before = serde_json::to_string(&st).unwrap();
    let out = cmd(
        &mut st,
        "axis",
        activate("ludwig", vec![attack("fpk", "pounder"), nothing()]),
        &mut plenty(),
    );
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("A3 is outside the field of fire of ludwig's Twin 8.8 cm FpK"),
        "{reason}"
    );
    assert!(reason.contains("faces S"), "{reason}");
    assert!(rule.contains("003 \"Field of Fire\""), "{rule}");
    let instead = match &out.results[0].outcome {
        dustmail::game::CommandOutcome::Refused { instead, .. } => instead.clone(),
        o => panic!("{o:?}"),
    };
    assert!(instead.contains("move first"), "{instead}");
    // The orders template suggests only what the engine accepts: no front-gun shot outside
    // the arc (the MG 44 cannot hurt the Pounder's armour either).
    let template = dustmail::dust_tactics::view::orders_template(&st, "axis");
    assert!(!template.contains("fpk at pounder"), "{template}");
    assert!(template.contains("no target now for: fpk"), "{template}");
    assert_eq!(
        serde_json::to_string(&st).unwrap(),
        before,
        "a refusal changes nothing"
    );
    // The same guns at a target in front (south, E7) fire.
    let mut st = walkers("battlefront-2013", Some("E7"), Some("E3"), "axis");
    let out = cmd(
        &mut st,
        "axis",
        activate("ludwig", vec![attack("fpk", "pounder"), nothing()]),
        &mut plenty(),
    );
    accepted(&out);
    assert!(texts(&out).contains("ludwig fires"), "{}", texts(&out));
}

// issue 18 item 2, 003 "Check Field of Fire": "urret-mounted, hatch-mounted, and pedestal-mounted
// weapons can attack targets in any direction" and the example: "The Pounder has a turret, so can
// shoot its 17 pdr gun in any direction. Despite facing in the wrong direction, it can make a
// Sustained Attack action against the Ludwig." The Pounder on A3 faces south; the Ludwig is due
// east.
#[test]
fn s003_check_field_of_fire_turret_fires_in_any_direction_pounder_example() {
    let mut st = walkers("battlefront-2013", Some("A3"), Some("E3"), "allies");
    let out = cmd(
        &mut st,
        "allies",
        activate("pounder", vec![sustained("17-pdr", "ludwig")]),
        &mut plenty(),
    );
    accepted(&out);
    assert!(texts(&out).contains("pounder fires"), "{}", texts(&out));
}

// issue 18 item 1, 003 "Check Field of Fire": "If they aren't pointing at the target when they
// want to shoot, they will need to take a Move action to change direction first." A Move then
// an Attack: the Ludwig steps west to D3, faces west (its last step, R252), and its front guns
// now reach the Pounder on A3; its facing is recorded in the state and shown in the roster.
#[test]
fn s003_check_field_of_fire_a_move_brings_the_target_into_the_arc() {
    let mut st = walkers("battlefront-2013", Some("A3"), Some("E3"), "axis");
    let out = cmd(
        &mut st,
        "axis",
        activate("ludwig", vec![mv("D3"), attack("fpk", "pounder")]),
        &mut plenty(),
    );
    accepted(&out);
    assert!(texts(&out).contains("ludwig fires"), "{}", texts(&out));
    assert_eq!(u(&st, "ludwig").facing, Some(Facing::W));
    let view = DustTactics.view(&st, None);
    let roster = DustTactics.roster(&view);
    let row = roster
        .iter()
        .find(|r| r["id"] == "ludwig")
        .expect("ludwig's row");
    assert_eq!(row["square"], "D3 W", "{row}");
    // The text board lists each unit's facing by its marker (pounder A, ludwig a).
    let board = DustTactics.board_text(&st);
    assert!(board.contains("\nFacing: A S, a W\n"), "{board}");
}

// issue 18 item 1, 003 "Entering the Battlefield" with "Move and March Move Actions": a unit's
// first action moves it onto the board from its edge, and "a Vehicle may move forwards,
// backwards, or sideways, and end their move facing in any direction". R251: a unit entering
// faces straight in from its edge (the Pounder entering on row 9 faces north, the Ludwig on row
// 1 south); R252: after a move it faces the way it last stepped.
#[test]
fn s003_facing_set_on_entry_and_changed_by_moves() {
    let mut st = walkers("battlefront-2013", None, None, "allies");
    let out = cmd(
        &mut st,
        "allies",
        activate("pounder", vec![mv("E9"), nothing()]),
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "pounder").facing, Some(Facing::N));
    let out = cmd(
        &mut st,
        "axis",
        activate("ludwig", vec![mv("E1"), nothing()]),
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "ludwig").facing, Some(Facing::S));
    let view = DustTactics.view(&st, None);
    let units = view["units"].as_array().unwrap();
    assert!(units
        .iter()
        .any(|x| x["id"] == "pounder" && x["facing"] == "N"));
}

// issue 18: facing is battlefront-2013's alone. Under ffg-revised the same cards play with no
// facing (004 has none): the Ludwig's guns fire at the Pounder due west, and nothing shows a
// facing.
#[test]
fn battlefront_facing_other_rulesets_have_none() {
    let mut st = walkers("ffg-revised", Some("A3"), Some("E3"), "axis");
    let out = cmd(
        &mut st,
        "axis",
        activate("ludwig", vec![attack("fpk", "pounder"), nothing()]),
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "ludwig").facing, None);
    let view = DustTactics.view(&st, None);
    assert!(view["units"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| x.get("facing").is_none()));
    assert!(!DustTactics.board_text(&st).contains("Facing:"));
    let saved = serde_json::to_value(&st).unwrap();
    assert!(saved["units"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| x.get("facing").is_none()));
}

/// Sends `text` as `side`'s orders mail body; the outcome of each command.
fn submit(st: &mut State, side: &str, text: &str) -> Vec<dustmail::game::CommandOutcome> {
    let lines: Vec<dustmail::game::Line> = text
        .lines()
        .enumerate()
        .map(|(i, t)| dustmail::game::Line {
            number: i + 1,
            text: t.into(),
        })
        .collect();
    let out = DustTactics.submit(
        st,
        dustmail::game::Sender::side(side),
        &lines,
        &mut plenty(),
    );
    out.results.into_iter().map(|r| r.outcome).collect()
}

// issue 18 item 1, 003 "Check Field of Fire": "If they aren't pointing at the target when they
// want to shoot, they will need to take a Move action to change direction first", and 003
// "Move and March Move Actions": units "end their move facing in any direction". R254: `turn W`
// is a Move action that only turns the unit; the Ludwig turns on E3 and its front guns reach
// the Pounder due west.
#[test]
fn s003_check_field_of_fire_a_move_action_may_only_turn_the_unit() {
    let mut st = walkers("battlefront-2013", Some("A3"), Some("E3"), "axis");
    let outs = submit(
        &mut st,
        "axis",
        "activate ludwig\n  turn W\n  attack fpk at pounder",
    );
    let dustmail::game::CommandOutcome::Accepted { .. } = &outs[0] else {
        panic!("{outs:?}");
    };
    assert_eq!(u(&st, "ludwig").facing, Some(Facing::W));
    assert_eq!(
        u(&st, "ludwig").at.map(|s| s.to_string()).as_deref(),
        Some("E3")
    );
}

// issue 18 item 1, R254 and 003 "Actions" ("two Move actions" are one March Move): a turn is a
// whole Move action, so `turn` with a `move` is refused; a unit off the board cannot turn; other
// rulesets have no `turn`; a direction that is not one of the eight is a parse error. Each
// refusal changes nothing.
#[test]
fn s003_turn_refusals_change_nothing() {
    for (ruleset, pounder, orders, says) in [
        (
            "battlefront-2013",
            Some("A3"),
            "activate ludwig\n  turn W\n  move D3",
            "a turn is a whole Move action",
        ),
        (
            "battlefront-2013",
            None,
            "activate pounder\n  turn N\n  nothing",
            "not on the battlefield yet",
        ),
        (
            "ffg-revised",
            Some("A3"),
            "activate ludwig\n  turn W\n  attack fpk at pounder",
            "`turn` is a battlefront-2013 order",
        ),
        (
            "battlefront-2013",
            Some("A3"),
            "activate ludwig\n  turn west\n  nothing",
            "`turn` needs one direction",
        ),
    ] {
        let side = if orders.contains("pounder\n") {
            "allies"
        } else {
            "axis"
        };
        let mut st = walkers(ruleset, pounder, Some("E3"), side);
        let before = serde_json::to_string(&st).unwrap();
        let text = format!("{:?}", submit(&mut st, side, orders));
        assert!(text.contains(says), "{orders}: {text}");
        assert_eq!(serde_json::to_string(&st).unwrap(), before, "{orders}");
    }
}
