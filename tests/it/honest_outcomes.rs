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
        assert!(m.text.contains(part), "{part:?} in {}", m.text);
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
/// requester only: their receipt and their report; the opponent gets nothing.
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
    assert_eq!(ids, vec!["g-toy-2-receipt", "g-toy-2-report-axis"]);
    let r = h.sink.get("g-toy-2-report-axis").unwrap();
    assert_eq!(r.to, vec!["bob@example.org".to_string()]);
    let receipt = h.sink.get("g-toy-2-receipt").unwrap();
    assert_eq!(receipt.to, vec!["bob@example.org".to_string()]);
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
    assert_eq!(ids, vec!["g-toy-2-receipt", "g-toy-2-report-axis"]);
    let receipt = h.sink.get("g-toy-2-receipt").unwrap();
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
        vec![
            "g-toy-2-receipt",
            "g-toy-2-report-allies",
            "g-toy-2-report-axis"
        ]
    );
}

