//! Team play at the engine boundary: a player of a side commands only the units given to them
//! (000 "Playing with more players": "four players can play two-on-two by dividing the armies").

use dustmail::dust_tactics::{cards, scenario, DustTactics};
use dustmail::game::{CommandOutcome, Game, Line, ScriptedDice, Sender, Setup};

fn skirmish() -> <DustTactics as Game>::State {
    let (name, text) = scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "skirmish")
        .unwrap();
    let setup = Setup {
        ruleset: "ffg-revised".into(),
        scenario_name: name.into(),
        scenario: text.into(),
        cards: cards::builtin()
            .into_iter()
            .map(|(f, t)| (f.to_string(), t.to_string()))
            .collect(),
        sides: vec!["allies".into(), "axis".into()],
        rules_revision: dustmail::dust_tactics::rules::RULES_REVISION,
    };
    DustTactics.setup(&setup).unwrap()
}

fn lines(text: &str) -> Vec<Line> {
    text.lines()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.into(),
        })
        .collect()
}

#[test]
fn a_team_player_cannot_order_a_teammates_unit_and_nothing_changes() {
    let mut state = skirmish();
    let before = state.clone();
    let mine = vec!["rangers".to_string()];
    let from = Sender {
        side: "allies",
        units: Some(&mine),
    };
    let out = DustTactics.submit(
        &mut state,
        from,
        &lines("activate pounder\nnothing\nnothing"),
        &mut ScriptedDice::new([]),
    );
    match &out.results[0].outcome {
        CommandOutcome::Refused {
            reason, instead, ..
        } => {
            assert!(
                reason.contains("`pounder` is commanded by another player"),
                "{reason}"
            );
            assert!(instead.contains("rangers"), "{instead}");
        }
        other => panic!("accepted: {other:?}"),
    }
    assert_eq!(state, before, "a refused command changes nothing");
}

#[test]
fn a_player_of_the_whole_side_may_order_any_of_its_units() {
    let mut state = skirmish();
    // Round 1 initiative: 3 dice a side (allies 1 1 1 = 3 hits, axis 6 6 6 = none).
    let out = DustTactics.submit(
        &mut state,
        Sender::side("allies"),
        &lines("first allies"),
        &mut ScriptedDice::new([1, 1, 1, 6, 6, 6]),
    );
    assert!(
        matches!(out.results[0].outcome, CommandOutcome::Accepted { .. }),
        "{out:?}"
    );
}
