//! Honest outcomes (issue 16 item 4): which mails each player gets when a mail applied nothing,
//! only asked for the report or the template, or held several errors; and suggestions that name
//! the game's own units. Through the real pipeline (toy game and Dust Tactics).

use crate::support;

use dustmail::ledger::Event;
use support::*;

/// The mail ids of the sink after the game's welcome mails.
fn after_welcome(h: &Harness) -> Vec<String> {
    h.sink
        .ids()
        .into_iter()
        .filter(|id| !id.contains("welcome"))
        .collect()
}

/// Issue 16 item 4: a signed mail whose every command was refused is a refusal to its sender
/// only (each line with its reason and what to send instead), counted as refused; the opponent
/// hears nothing. The ledger line is recorded as before: accepted, its seq used up.
#[test]
fn a_mail_with_every_command_refused_is_a_refusal_to_the_sender_only() {
    let h = Harness::new();
    let g = h.new_game();
    let canon = orders(&g, "allies", 1, &["add 9", "jump"]);
    h.drop_mail(
        "1.mail",
        &signed_mail("ann@example.org", "<m1@x>", ALLIES_KEY, &canon, ""),
    );
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.refused), (0, 1), "{sum:?}");
    assert_eq!(after_welcome(&h), vec!["g-toy-2-refusal".to_string()]);
    let m = h.sink.get("g-toy-2-refusal").unwrap();
    assert_eq!(m.to, vec!["ann@example.org".to_string()]);
    assert_eq!(m.subject, "[dustmail g-toy] round 1: refused");
    assert!(!m.text.contains("received and applied"), "{}", m.text);
    for part in [
        "nothing in your mail was applied",
        "Line 5: N must be 1 to 5",
        "Send instead: add 5",
        "Line 6: `jump` is not a command",
        "Send instead: add N",
        "send them again with seq: 2",
    ] {
        let flat = crate::support::flat;
        assert!(
            flat(&m.text).contains(&flat(part)),
            "{part:?} in {}",
            m.text
        );
    }
    let html = m.html.as_deref().unwrap();
    for part in [
        "nothing in your mail was applied",
        "Line 5: N must be 1 to 5",
        "Line 6:",
    ] {
        assert!(html.contains(part), "{part:?} in {html}");
    }
    // The ledger line is as before: recorded as accepted, with the refused results.
    let entries = h.entries(&g);
    match &entries[1].event {
        Event::Submission(s) => {
            assert!(s.accepted);
            assert_eq!(s.step.results.len(), 2);
        }
        other => panic!("{other:?}"),
    }
}

/// Issue 16 item 4: a mail that only asks for `report` or `template` is answered to the
/// requester only: their report headed by the receipt (one mail since issue 17 item 3); the
/// opponent gets nothing.
#[test]
fn report_and_template_requests_are_answered_to_the_requester_only() {
    let h = Harness::new();
    let g = h.new_game();
    let canon = orders(&g, "axis", 1, &["report", "template"]);
    h.drop_mail(
        "1.mail",
        &signed_mail("bob@example.org", "<m1@x>", AXIS_KEY, &canon, ""),
    );
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.refused), (1, 0), "{sum:?}");
    let mut ids = after_welcome(&h);
    ids.sort();
    assert_eq!(ids, vec!["g-toy-2-report-axis"]);
    let receipt = h.sink.get("g-toy-2-report-axis").unwrap();
    assert_eq!(receipt.to, vec!["bob@example.org".to_string()]);
    assert!(
        receipt.text.contains("received and applied"),
        "{}",
        receipt.text
    );
    assert!(
        receipt
            .text
            .contains("report: the current report is mailed to you"),
        "{}",
        receipt.text
    );
}

/// Issue 16 item 4: a request beside a refused command is still the requester's alone.
#[test]
fn a_request_beside_refused_commands_is_answered_to_the_requester_only() {
    let h = Harness::new();
    let g = h.new_game();
    // Not axis's turn: the `add` is refused, the `report` answered.
    let canon = orders(&g, "axis", 1, &["add 3", "report"]);
    h.drop_mail(
        "1.mail",
        &signed_mail("bob@example.org", "<m1@x>", AXIS_KEY, &canon, ""),
    );
    h.run(T0);
    let mut ids = after_welcome(&h);
    ids.sort();
    assert_eq!(ids, vec!["g-toy-2-report-axis"]);
    let receipt = h.sink.get("g-toy-2-report-axis").unwrap();
    assert!(
        receipt.text.contains("REFUSED: it is not your turn"),
        "{}",
        receipt.text
    );
}

/// Issue 16 item 4: a mail that applied something still reports to everyone (unchanged).
#[test]
fn an_applied_command_is_still_reported_to_everyone() {
    let h = Harness::new();
    let g = h.new_game();
    let canon = orders(&g, "allies", 1, &["add 3", "report"]);
    h.drop_mail(
        "1.mail",
        &signed_mail("ann@example.org", "<m1@x>", ALLIES_KEY, &canon, ""),
    );
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.refused), (1, 0), "{sum:?}");
    let mut ids = after_welcome(&h);
    ids.sort();
    assert_eq!(
        ids,
        vec!["g-toy-2-report-allies", "g-toy-2-report-axis"],
        "the receipt heads allies' report (issue 17 item 3)"
    );
}

/// A Dust Tactics skirmish `g-dt` in the harness's home: allies cy, axis di (real keys).
fn new_dust_tactics(h: &Harness) -> [(String, String, ed25519_dalek::SigningKey); 2] {
    use dustmail::game::{Game, NewRequest};
    use dustmail::ledger::Player;
    let plan = dustmail::dust_tactics::DustTactics
        .plan_new(&NewRequest {
            scenario: Some("skirmish".into()),
            ..NewRequest::default()
        })
        .unwrap();
    let players = [
        ("allies", "cy@example.org", 3u8),
        ("axis", "di@example.org", 4u8),
    ]
    .map(|(side, address, k)| {
        (
            side.to_string(),
            address.to_string(),
            ed25519_dalek::SigningKey::from_bytes(&[k; 32]),
        )
    });
    dustmail::referee::create_game(
        &h.ctx(T0),
        dustmail::referee::NewGame {
            game: "dust-tactics".into(),
            setup: plan.setup,
            players: players
                .iter()
                .map(|(side, address, key)| Player {
                    side: side.clone(),
                    address: address.clone(),
                    public_key: dustmail::crypto::public_key_text(&key.verifying_key()),
                })
                .collect(),
            seed: [7u8; 32],
            id: Some("g-dt".into()),
            max_rounds: plan.max_rounds,
        },
    )
    .unwrap();
    players
}

/// Sends `commands` from the side the game awaits; returns its (side, address) and the other
/// player's address.
fn dt_send(h: &Harness, commands: &str) -> (String, String, String) {
    use dustmail::game::Game;
    let players = new_dust_tactics(h);
    let dt = dustmail::referee::load_game(
        &dustmail::dust_tactics::DustTactics,
        &h.edges,
        &h.home,
        "g-dt",
    )
    .unwrap();
    let side = dustmail::dust_tactics::DustTactics
        .awaiting(dt.derived.state.typed())
        .remove(0)
        .side;
    let (me, other): (Vec<_>, Vec<_>) = players.iter().partition(|p| p.0 == side);
    let text = format!("game: g-dt\nside: {side}\nseq: 1\n\n{commands}\n");
    h.drop_mail(
        "1-dt.eml",
        &real_mail(&me[0].1, "<dt-1@example.org>", &me[0].2, &text),
    );
    h.sink.clear();
    let sum = h.run("2026-01-01T13:00:00Z");
    assert_eq!((sum.accepted, sum.refused), (0, 1), "{sum:?}");
    (side, me[0].1.clone(), other[0].1.clone())
}

/// Issue 16 item 4: every bad line of one activation is reported in the one refusal (not the
/// first only, the next on the next mail); the opponent hears nothing.
#[test]
fn every_bad_line_of_an_activation_is_reported_in_one_refusal() {
    let h = Harness::with_real_edges();
    // Lines 5 to 8 of the signed text: the activation, a good move, two bad lines.
    let (_, me, other) = dt_send(&h, "activate rangers\n  move C4\n  fly home\n  charge!");
    assert_eq!(h.sink.ids(), vec!["g-dt-2-refusal".to_string()]);
    let m = h.sink.get("g-dt-2-refusal").unwrap();
    assert_eq!(m.to, vec![me]);
    assert!(!m.to.contains(&other));
    for part in [
        "Line 7: in the activation of rangers (line 5): `fly` is not an action",
        "Line 8: in the activation of rangers (line 5): `charge!` is not an action",
    ] {
        let flat = crate::support::flat;
        assert!(
            flat(&m.text).contains(&flat(part)),
            "{part:?} in {}",
            m.text
        );
    }
}

/// Issue 16 item 4: an unknown command's suggestion names one of the sender's own units, not
/// a unit of another game (`hotdog`).
#[test]
fn a_suggestion_names_one_of_the_senders_units() {
    let h = Harness::with_real_edges();
    let (side, _, _) = dt_send(&h, "fire everything");
    let m = h.sink.get("g-dt-2-refusal").unwrap();
    assert!(!m.text.contains("hotdog"), "{}", m.text);
    let dt = dustmail::referee::load_game(
        &dustmail::dust_tactics::DustTactics,
        &h.edges,
        &h.home,
        "g-dt",
    )
    .unwrap();
    let state: &dustmail::dust_tactics::state::State = dt.derived.state.typed();
    let mine: Vec<&str> = state
        .units
        .iter()
        .filter(|u| u.side == side)
        .map(|u| u.id.as_str())
        .collect();
    assert!(
        mine.iter().any(|u| m
            .text
            .contains(&format!("Send instead: activate {u}\n  move C4"))),
        "a suggestion naming one of {mine:?} in {}",
        m.text
    );
}

/// Issue 16 item 4: a signed block of comments only (the orders template sent back without
/// choosing a line) applies nothing: a refusal to its sender that says why, nothing to the
/// other side. Its seq is used up, as for any recorded block.
#[test]
fn a_block_of_comments_only_is_a_refusal_that_says_to_uncomment_a_line() {
    let h = Harness::new();
    let g = h.new_game();
    // The toy game reads every line as a command; a block with none stands for the template.
    let canon = orders(&g, "allies", 1, &[]);
    h.drop_mail(
        "1.mail",
        &signed_mail("ann@example.org", "<m1@x>", ALLIES_KEY, &canon, ""),
    );
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.refused), (0, 1), "{sum:?}");
    assert_eq!(after_welcome(&h), vec!["g-toy-2-refusal".to_string()]);
    let m = h.sink.get("g-toy-2-refusal").unwrap();
    assert_eq!(m.to, vec!["ann@example.org".to_string()]);
    for part in [
        "holds no command, only comments",
        "remove the `#` before the line you choose",
        "seq: 2 (seq 1 is used up)",
    ] {
        let flat = crate::support::flat;
        assert!(
            flat(&m.text).contains(&flat(part)),
            "{part:?} in {}",
            m.text
        );
    }
}
