//! Fewer, better mails (issue 17 item 3): the receipt of accepted orders heads the sender's own
//! report, so a step makes one mail per reader; refusals stay mails of their own to the sender;
//! a crash between commit and queueing makes the same mails again. The demo's mails per game are
//! printed (`cargo test --test it fewer_mails:: -- --nocapture`).

use crate::support;

use support::*;

/// The mails after the game's welcome mails, by id.
fn after_welcome(h: &Harness) -> Vec<String> {
    let mut ids: Vec<String> = h
        .sink
        .ids()
        .into_iter()
        .filter(|id| !id.contains("welcome"))
        .collect();
    ids.sort();
    ids
}

/// Issue 17 item 3: one mail per reader per step. The sender's report starts with the receipt
/// (every line as understood) and answers the sender's mail in its thread; the other side's
/// report has no receipt part.
#[test]
fn a_step_makes_one_mail_per_reader_and_the_senders_report_starts_with_the_receipt() {
    let h = Harness::new();
    let g = h.new_game();
    h.drop_mail(
        "1.mail",
        &signed_mail(
            "ann@example.org",
            "<m1@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 1, &["add 3"]),
            "",
        ),
    );
    let sum = h.run(T0);
    assert_eq!(sum.accepted, 1, "{sum:?}");
    assert_eq!(
        after_welcome(&h),
        vec!["g-toy-2-report-allies", "g-toy-2-report-axis"],
        "no receipt of its own"
    );
    let mine = h.sink.get("g-toy-2-report-allies").unwrap();
    assert_eq!(mine.to, vec!["ann@example.org".to_string()]);
    assert_eq!(mine.subject, "[dustmail g-toy] round 1: receipt and report");
    assert_eq!(mine.in_reply_to.as_deref(), Some("<m1@x>"));
    assert_eq!(mine.references, vec!["<m1@x>".to_string()]);
    assert!(
        crate::support::flat(&mine.text).starts_with(
            "Your orders for game g-toy, side allies, seq 1 were received and applied (ledger line 2)."
        ),
        "{}",
        mine.text
    );
    let (receipt, report) = mine.text.split_once("Game g-toy").expect("the report part");
    assert!(receipt.contains("line 5: understood: add 3"), "{receipt}");
    // The report part is the whole report: what happened and the next orders.
    assert!(
        report.contains("What happened since your last report"),
        "{report}"
    );
    assert!(report.contains("seq: 2"), "{report}");
    let html = mine.html.as_deref().unwrap();
    assert!(html.contains("Orders received"), "{html}");
    assert!(html.contains("line 5: understood: add 3"), "{html}");

    let theirs = h.sink.get("g-toy-2-report-axis").unwrap();
    assert_eq!(theirs.to, vec!["bob@example.org".to_string()]);
    assert_eq!(theirs.subject, "[dustmail g-toy] round 1: report");
    assert_eq!(theirs.in_reply_to, None);
    assert!(theirs.text.starts_with("Game g-toy"), "{}", theirs.text);
    assert!(!theirs.text.contains("received and applied"));
    assert!(!theirs.text.contains("understood: add 3"));
    assert!(!theirs.html.as_deref().unwrap().contains("Orders received"));
}

/// Issue 17 item 3: a receipt whose reply address is not the sender's registered address (which
/// gets the report) is still sent there, alone, as before: nothing is lost.
#[test]
fn a_receipt_for_another_address_than_the_report_stays_a_mail_of_its_own() {
    let h = Harness::new();
    let g = h.new_game();
    h.drop_mail(
        "1.mail",
        &signed_mail(
            "ann@example.org",
            "<m1@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 1, &["add 3"]),
            "Reply-To: ann.phone@example.net\n",
        ),
    );
    h.run(T0);
    assert_eq!(
        after_welcome(&h),
        vec![
            "g-toy-2-receipt",
            "g-toy-2-report-allies",
            "g-toy-2-report-axis"
        ]
    );
    let receipt = h.sink.get("g-toy-2-receipt").unwrap();
    assert_eq!(receipt.to, vec!["ann.phone@example.net".to_string()]);
    assert!(
        receipt.text.contains("understood: add 3"),
        "{}",
        receipt.text
    );
    let report = h.sink.get("g-toy-2-report-allies").unwrap();
    assert_eq!(report.subject, "[dustmail g-toy] round 1: report");
    assert!(!report.text.contains("received and applied"));
}

/// Issue 17 item 3: refusals stay mails of their own, to the sender only: a refused block (a
/// stale seq) and a block whose every command was refused get their refusal and nothing else.
#[test]
fn a_refused_mail_still_gets_its_refusal_only() {
    let h = Harness::new();
    let g = h.new_game();
    h.drop_mail(
        "1.mail",
        &signed_mail(
            "ann@example.org",
            "<m1@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 1, &["add 9"]),
            "",
        ),
    );
    h.run(T0);
    assert_eq!(after_welcome(&h), vec!["g-toy-2-refusal"]);
    let m = h.sink.get("g-toy-2-refusal").unwrap();
    assert_eq!(m.to, vec!["ann@example.org".to_string()]);
    assert!(!m.text.contains("received and applied"), "{}", m.text);
    h.sink.clear();
    // Seq 1 is used up: the same seq again is refused.
    h.drop_mail(
        "2.mail",
        &signed_mail(
            "ann@example.org",
            "<m2@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 1, &["add 3"]),
            "",
        ),
    );
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.refused), (0, 1), "{sum:?}");
    let ids = after_welcome(&h);
    assert_eq!(ids.len(), 1, "{ids:?}");
    assert!(ids[0].ends_with("-refusal"), "{ids:?}");
    let m = h.sink.get(&ids[0]).unwrap();
    assert_eq!(m.to, vec!["ann@example.org".to_string()]);
    assert!(m.subject.ends_with("refused"), "{}", m.subject);
}

/// Issue 17 item 3: a crash after the ledger append and before the mails were queued (the mail
/// left in maildir/new, its replies lost) makes exactly the same mails again, same ids: the
/// receipt's place is decided from the ledger line and the players alone.
#[test]
fn after_a_crash_before_queueing_the_same_mails_are_made_again() {
    let h = Harness::new();
    let g = h.new_game();
    let text = signed_mail(
        "ann@example.org",
        "<m1@x>",
        ALLIES_KEY,
        &orders(&g, "allies", 1, &["add 3"]),
        "",
    );
    h.drop_mail("1", &text);
    h.run(T0);
    let before: Vec<_> = after_welcome(&h)
        .into_iter()
        .map(|id| (id.clone(), h.sink.get(&id)))
        .collect();
    assert_eq!(before.len(), 2);
    // The crash: the mails are lost, the orders mail is back in new/.
    h.sink.clear();
    std::fs::remove_file(h.maildir().join("cur").join("1:2,S")).unwrap();
    h.drop_mail("1", &text);
    let sum = h.run(T0);
    assert_eq!(sum.deduplicated, 1, "{sum:?}");
    assert_eq!(h.entries(&g).len(), 2, "no second ledger line");
    let after: Vec<_> = after_welcome(&h)
        .into_iter()
        .map(|id| (id.clone(), h.sink.get(&id)))
        .collect();
    assert_eq!(after, before, "the same mails, same ids");
}

/// Issue 17 item 3: the demo game's mails by kind, printed; no receipt goes alone, each accepted
/// mail's sender gets one report headed by its receipt. Before this change the demo sent 37
/// mails (2 welcomes, 11 receipts, 22 reports, 2 end mails): each receipt was a mail of its own.
#[test]
fn the_demo_sends_one_mail_per_reader_per_step() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("demo");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .arg("--home")
        .arg(&home)
        .arg("demo")
        .env_remove("DUSTMAIL_HOME")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    let mut headed = 0;
    let mut total = 0;
    for e in std::fs::read_dir(home.join("sent")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(home.join("sent").join(&name)).unwrap();
        // g-demo-N-KIND[-SIDE].eml
        let kind = name
            .trim_end_matches(".eml")
            .splitn(4, '-')
            .nth(3)
            .unwrap_or_default()
            .split('-')
            .next()
            .unwrap_or_default()
            .to_string();
        *kinds.entry(kind).or_default() += 1;
        total += 1;
        if text.contains("round ") && text.contains(": receipt and report") {
            headed += 1;
        }
    }
    println!(
        "demo: {total} mails ({kinds:?}), {headed} reports headed by a receipt; \
         {} mails before issue 17 item 3 (each receipt a mail of its own)",
        total + headed
    );
    assert_eq!(kinds.get("receipt"), None, "no receipt alone: {kinds:?}");
    assert!(headed > 0, "{kinds:?}");
    let reports = kinds.get("report").copied().unwrap_or(0);
    assert_eq!(reports % 2, 0, "one report per side per step: {kinds:?}");
    assert_eq!(headed * 2, reports, "each step's sender's report is headed");
}
