//! Issue 17 item 3: the `digest` setting. A digest game sends each reader one report per run
//! instead of one per step; the run records the report's boundaries in the ledger (a `digest`
//! line) and makes the mails from that line, so a run interrupted at any point and run again
//! makes the same mails, none lost or doubled. Replay and audit check the line.

use crate::support;
use crate::support::dt;

use dustmail::ledger::{Entry, Event};
use support::*;

/// The mail ids of `game`, welcome mails left out, sorted.
fn ids_of(h: &Harness, game: &str) -> Vec<String> {
    let prefix = format!("{game}-");
    let mut v: Vec<String> = h
        .sink
        .ids()
        .into_iter()
        .filter(|id| id.starts_with(&prefix) && !id.contains("welcome"))
        .collect();
    v.sort();
    v
}

/// The digest lines of a ledger: (line, from, to).
fn digests(entries: &[Entry]) -> Vec<(u64, u64, u64)> {
    entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::Digest(d) => Some((e.seq, d.from, d.to)),
            _ => None,
        })
        .collect()
}

/// A toy home with digest game `g-dig` and ordinary game `g-toy`.
fn two_games() -> Harness {
    let mut h = Harness::new();
    h.config.digest = true;
    h.new_game_id("g-dig");
    h.config.digest = false;
    h.new_game_id("g-toy");
    h
}

fn mail(name: &str, h: &Harness, game: &str, who: (&str, &str, &str), seq: u64, cmd: &[&str]) {
    let (from, side, key) = who;
    let m = signed_mail(
        from,
        &format!("<{name}@x>"),
        key,
        &orders(game, side, seq, cmd),
        "",
    );
    h.drop_mail(name, &m);
}

const ANN: (&str, &str, &str) = ("ann@example.org", "allies", ALLIES_KEY);
const BOB: (&str, &str, &str) = ("bob@example.org", "axis", AXIS_KEY);

/// Issue 17 item 3: a run with several mails for a digest game sends exactly one mail per
/// reader. Each starts with the answers to that reader's own mails (receipts and refusals, in
/// ledger order), then carries every step of the run, the board once and the orders template
/// once. An ordinary game in the same run still gets one report per reader per step.
#[test]
fn a_run_sends_one_digest_per_reader_carrying_every_step_and_other_games_are_unchanged() {
    let h = two_games();
    mail("1", &h, "g-dig", ANN, 1, &["add 3"]);
    mail("2", &h, "g-dig", BOB, 1, &["add 2"]);
    // Every command refused: nothing applied, a refusal to ann only.
    mail("3", &h, "g-dig", ANN, 2, &["add 9"]);
    mail("4", &h, "g-dig", ANN, 3, &["add 1"]);
    // A stale seq: refused.
    mail("5", &h, "g-dig", BOB, 1, &["add 2"]);
    mail("z1", &h, "g-toy", ANN, 1, &["add 3"]);
    mail("z2", &h, "g-toy", BOB, 1, &["add 2"]);
    let sum = h.run(T0);
    assert_eq!(sum.mails, 7, "{sum:?}");

    let entries = h.entries("g-dig");
    let d = digests(&entries);
    assert_eq!(d.len(), 1, "one digest line: {d:?}");
    let (dseq, from, to) = d[0];
    assert_eq!((from, to), (2, dseq - 1), "every step of the run");
    assert_eq!(
        dseq,
        entries.len() as u64,
        "the digest line is the last line"
    );
    assert_eq!(
        ids_of(&h, "g-dig"),
        vec![
            format!("g-dig-{dseq}-digest-allies"),
            format!("g-dig-{dseq}-digest-axis")
        ],
        "one mail per reader"
    );
    let ann = h.sink.get(&format!("g-dig-{dseq}-digest-allies")).unwrap();
    assert_eq!(ann.to, vec!["ann@example.org".to_string()]);
    assert!(ann.subject.ends_with(": digest"), "{}", ann.subject);
    assert_eq!(ann.in_reply_to.as_deref(), Some("<1@x>"));
    let text = flat(&ann.text);
    assert!(
        text.starts_with(&format!(
            "Your report of this run, for ledger lines 2-{to}: first your own mails."
        )),
        "{text}"
    );
    // Lines: 2 ann, 3 bob, 4 the end of round 1, 5 ann (nothing applied), 6 ann, 7 bob (stale).
    let kinds: Vec<bool> = entries
        .iter()
        .map(|e| matches!(e.event, Event::RoundEnd(_)))
        .collect();
    assert!(kinds[3], "line 4 ends round 1");
    // Ann's own mails first, in ledger order: receipt, refusal, receipt.
    let r1 = text
        .find("seq 1 were received and applied (ledger line 2)")
        .expect(&text);
    let refused = text
        .find("Your mail recorded on ledger line 5 was refused")
        .expect(&text);
    let r3 = text
        .find("seq 3 were received and applied (ledger line 6)")
        .expect(&text);
    let board = text.find("Board:").expect(&text);
    assert!(r1 < refused && refused < r3 && r3 < board, "{text}");
    assert!(text.contains("Line 5: N must be 1 to 5"), "{text}");
    // Every step of the run, in order, once; the refused ones are no step.
    for (i, who) in [(2, ANN), (3, BOB), (6, ANN)] {
        assert_eq!(
            text.matches(&format!("Event {i} (orders of side {})", who.1))
                .count(),
            1,
            "step {i}: {text}"
        );
    }
    assert!(!text.contains("Event 5 (") && !text.contains("Event 7 ("));
    assert_eq!(text.matches("Board:").count(), 1, "the board once");
    assert_eq!(text.matches("Your next orders").count(), 1, "{text}");
    assert!(text.contains("seq: 4"), "ann's next seq: {text}");
    let html = ann.html.as_deref().unwrap();
    assert!(html.contains("Your mails (ledger lines 2-"), "{html}");

    let bob = flat(
        &h.sink
            .get(&format!("g-dig-{dseq}-digest-axis"))
            .unwrap()
            .text,
    );
    let r = bob
        .find("seq 1 were received and applied (ledger line 3)")
        .expect(&bob);
    let refused = bob
        .find("Your mail recorded on ledger line 7 was refused")
        .expect(&bob);
    assert!(r < refused, "{bob}");
    assert!(
        !bob.contains("ledger line 5 was refused"),
        "ann's own: {bob}"
    );
    for i in [2, 3, 6] {
        assert!(bob.contains(&format!("Event {i} (")), "step {i}: {bob}");
    }

    // The ordinary game: one report per reader per step, as before.
    assert_eq!(
        ids_of(&h, "g-toy"),
        vec![
            "g-toy-2-report-allies",
            "g-toy-2-report-axis",
            "g-toy-3-report-allies",
            "g-toy-3-report-axis"
        ]
    );
    assert!(digests(&h.entries("g-toy")).is_empty());
    let created = std::fs::read_to_string(h.log("g-toy")).unwrap();
    assert!(!created.lines().next().unwrap().contains("digest"));
}

/// Issue 17 item 3: `report` and `template` requests are still answered to the requester only,
/// and a run with nothing for a digest game adds no line and sends nothing.
#[test]
fn a_request_in_a_digest_game_is_answered_to_the_requester_only() {
    let h = two_games();
    mail("1", &h, "g-dig", ANN, 1, &["report"]);
    h.run(T0);
    let d = digests(&h.entries("g-dig"));
    assert_eq!(d.len(), 1, "{d:?}");
    let dseq = d[0].0;
    assert_eq!(
        ids_of(&h, "g-dig"),
        vec![format!("g-dig-{dseq}-digest-allies")],
        "to ann only"
    );
    let text = flat(
        &h.sink
            .get(&format!("g-dig-{dseq}-digest-allies"))
            .unwrap()
            .text,
    );
    assert!(text.contains("line 5: understood: report"), "{text}");
    assert!(text.contains("Board:") && text.contains("seq: 2"), "{text}");

    h.sink.clear();
    let lines = h.entries("g-dig").len();
    h.run(T0);
    assert_eq!(h.entries("g-dig").len(), lines, "nothing to tell");
    assert_eq!(ids_of(&h, "g-dig"), Vec::<String>::new());
}
