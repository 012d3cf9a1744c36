//! Typed citations of the core's and the pipeline's refusals (issue 11 item 5): every cited
//! section exists in the player documents, the refusals cite them, and the texts that ledgers
//! already carry (and replay compares) are unchanged. The Dust Tactics rule ids and their
//! rulings are checked in tests/it/rules/policy.rs.

use crate::support;

use dustmail::game::CommandOutcome;
use dustmail::ledger::{Event, Submission};
use dustmail::pbem::citation::DocRule;
use dustmail::referee;
use support::*;

fn read_doc(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn submissions(h: &Harness, g: &str) -> Vec<Submission> {
    h.entries(g)
        .into_iter()
        .filter_map(|e| match e.event {
            Event::Submission(s) => Some(*s),
            _ => None,
        })
        .collect()
}

fn refused_rules(s: &Submission) -> Vec<String> {
    s.step
        .results
        .iter()
        .filter_map(|r| match &r.outcome {
            CommandOutcome::Refused { rule, .. } => Some(rule.clone()),
            CommandOutcome::Accepted { .. } => None,
        })
        .collect()
}

fn send(h: &Harness, name: &str, g: &str, side: &str, seq: u64, lines: &[&str]) {
    let key = if side == "allies" {
        ALLIES_KEY
    } else {
        AXIS_KEY
    };
    h.drop_mail(
        name,
        &signed_mail(
            "p@example.org",
            &format!("<{name}@x>"),
            key,
            &orders(g, side, seq, lines),
            "",
        ),
    );
}

// issue 11 item 5: every section a core or pipeline refusal cites is a `#`-heading of a
// document that exists (a citation without a section names the whole document).
#[test]
fn every_cited_section_is_a_heading_of_an_existing_document() {
    for r in DocRule::ALL {
        let doc = read_doc(r.document());
        if let Some(section) = r.section() {
            assert!(
                doc.lines().any(|l| {
                    let t = l.trim_start_matches('#');
                    l.starts_with('#') && t.starts_with(' ') && t.trim() == section
                }),
                "{r:?}: {} has no heading \"{section}\"",
                r.document()
            );
        }
    }
}

// issue 11 item 5: the refusal of orders sent after the end cites a document (before: "the game
// ended (see the end mail)", no document), and the ledger still replays: audit knows the new
// text as one of the mechanical checks it redoes.
#[test]
fn orders_after_the_end_cite_the_end_mail_section() {
    let h = Harness::new();
    let g = h.new_game();
    for (i, (side, seq)) in [("allies", 1), ("axis", 1), ("allies", 2), ("axis", 2)]
        .into_iter()
        .enumerate()
    {
        send(&h, &format!("{i}"), &g, side, seq, &["add 5"]);
    }
    h.run(T0);
    send(&h, "late", &g, "allies", 3, &["add 5"]);
    h.run(T0);
    let subs = submissions(&h, &g);
    let r = subs.last().unwrap().refusal.clone().expect("refused");
    assert!(r.reason.contains("this game is over"), "{r:?}");
    assert_eq!(
        r.rule,
        "docs/reports.md \"What a report says\": the game ended (see the end mail)"
    );
    let (_, mail) = h.sink.matching("refusal").pop().expect("a refusal mail");
    assert!(
        mail.text
            .contains("Rule: docs/reports.md \"What a report says\""),
        "{}",
        mail.text
    );
    assert!(referee::replay_game(&Toy, &h.edges, &h.home, &g).is_ok());
}

// issue 11 item 5: a block refused whole for its errors cites the section that says so,
// docs/orders.md "Errors" (before: the whole of docs/orders.md).
#[test]
fn a_block_refused_for_its_errors_cites_the_errors_section() {
    let h = Harness::new();
    let g = h.new_game();
    let bad: Vec<String> = (0..21).map(|i| format!("frobnicate {i}")).collect();
    let bad: Vec<&str> = bad.iter().map(String::as_str).collect();
    send(&h, "flood", &g, "allies", 1, &bad);
    h.run(T0);
    let r = submissions(&h, &g)[0]
        .refusal
        .clone()
        .expect("refused whole");
    assert!(r.reason.starts_with("stopped after 20 errors"), "{r:?}");
    assert_eq!(r.rule, "docs/orders.md \"Errors\"");
    assert!(referee::replay_game(&Toy, &h.edges, &h.home, &g).is_ok());
}

// issue 11 item 5: the refusals replay compares byte for byte (the referee's own lines in a
// step, control results) keep the texts ledgers already carry, and the game replays.
#[test]
fn refusals_that_replay_compares_keep_their_recorded_texts() {
    let h = Harness::new();
    let g = h.new_game();
    send(
        &h,
        "a",
        &g,
        "allies",
        1,
        &["absent", "absent until 2099-01-01T00:00:00Z", "add 1"],
    );
    h.run(T0);
    let subs = submissions(&h, &g);
    assert!(subs[0].accepted, "{:?}", subs[0].refusal);
    assert_eq!(
        refused_rules(&subs[0]),
        ["docs/orders.md", "docs/deadlines.md \"Absence\""]
    );
    let err = referee::control_game(&h.ctx(T0), &g, "resume").unwrap_err();
    assert!(err.to_string().contains("not paused"), "{err}");
    // A signed referee mail records its refused command in a control line.
    let canonical = orders(&g, "referee", 1, &["resume"]);
    h.drop_mail(
        "ref",
        &format!(
            "From: referee@example.org\nMessage-ID: <ref@x>\nSubject: control\n\n{}\n{canonical}\n{}\n{}\n{}\n{}\n",
            dustmail::crypto::ORDERS_BEGIN,
            dustmail::crypto::ORDERS_END,
            dustmail::crypto::SIG_BEGIN,
            dustmail::crypto::sign_text(&h.key, &canonical),
            dustmail::crypto::SIG_END
        ),
    );
    h.run(T0);
    let controls: Vec<_> = h
        .entries(&g)
        .into_iter()
        .filter_map(|e| match e.event {
            Event::Control(c) => Some(c),
            _ => None,
        })
        .collect();
    let rules: Vec<String> = controls
        .iter()
        .flat_map(|c| c.results.iter())
        .filter_map(|r| match &r.outcome {
            CommandOutcome::Refused { rule, .. } => Some(rule.clone()),
            CommandOutcome::Accepted { .. } => None,
        })
        .collect();
    assert_eq!(rules, ["docs/orders.md \"Referee commands\""]);
    assert!(referee::replay_game(&Toy, &h.edges, &h.home, &g).is_ok());
}
