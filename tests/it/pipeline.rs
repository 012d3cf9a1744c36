//! The referee pipeline with the toy game and fake mail/crypto edges (tests/it/support).

use crate::support;

use dustmail::ledger::Event;
use dustmail::referee::{self, DiceMode};
use std::collections::BTreeMap;
use support::*;

fn submission(e: &dustmail::ledger::Entry) -> &dustmail::ledger::Submission {
    match &e.event {
        Event::Submission(s) => s,
        other => panic!("expected a submission, got {other:?}"),
    }
}

#[test]
fn accepted_orders_are_recorded_receipted_reported_and_moved_to_cur() {
    let h = Harness::new();
    let g = h.new_game();
    assert_eq!(
        h.sink.matching("welcome").len(),
        2,
        "a welcome mail per player"
    );
    let canon = orders(&g, "allies", 1, &["add 3"]);
    h.drop_mail(
        "1.mail",
        &signed_mail("ann@example.org", "<m1@x>", ALLIES_KEY, &canon, ""),
    );
    let sum = h.run(T0);
    assert_eq!(
        (sum.mails, sum.accepted, sum.refused, sum.rejected),
        (1, 1, 0, 0)
    );

    let entries = h.entries(&g);
    assert_eq!(entries.len(), 2);
    let s = submission(&entries[1]);
    assert!(s.accepted);
    assert_eq!(s.canonical, canon, "the signed text is recorded verbatim");
    assert_eq!(s.signature, fake_sign(ALLIES_KEY, &canon));
    assert_eq!(s.message_id.as_deref(), Some("<m1@x>"));
    assert_eq!(s.step.draws.len(), 1, "the die rolled is recorded");
    assert_eq!(s.step.rolls[0].purpose, "bonus");

    // The receipt heads the sender's report (issue 17 item 3).
    let receipt = h
        .sink
        .get("g-toy-2-report-allies")
        .expect("a receipt and report");
    assert_eq!(receipt.to, vec!["ann@example.org".to_string()]);
    assert_eq!(
        receipt.subject,
        "[dustmail g-toy] round 1: receipt and report"
    );
    assert_eq!(receipt.in_reply_to.as_deref(), Some("<m1@x>"));
    assert_eq!(receipt.references, vec!["<m1@x>".to_string()]);
    assert!(
        receipt.text.contains("understood: add 3"),
        "{}",
        receipt.text
    );
    let head = h
        .sink
        .get("g-toy-2-report-axis")
        .expect("a report to the other player");
    assert_eq!(head.to, vec!["bob@example.org".to_string()]);
    assert!(
        head.text.contains("Awaiting:\n  axis: add"),
        "{}",
        head.text
    );
    assert!(
        head.text.contains("add 3"),
        "orders template for the reader"
    );
    let own = h.sink.get("g-toy-2-report-allies").unwrap();
    assert!(
        own.text
            .contains("game: g-toy\nside: allies\nseq: 2\n\n# side allies\nadd 3"),
        "the report carries the next orders to sign: {}",
        own.text
    );

    assert_eq!(in_dir(&h.maildir().join("new")), Vec::<String>::new());
    assert_eq!(
        in_dir(&h.maildir().join("cur")),
        vec!["1.mail:2,S".to_string()],
        "moved to cur/ with the Maildir info suffix (seen)"
    );
}

#[test]
fn every_game_mail_carries_a_signed_ledger_head_that_audit_accepts() {
    let h = Harness::new();
    let g = h.new_game();
    h.drop_mail(
        "1",
        &signed_mail(
            "ann@example.org",
            "<m1@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 1, &["add 3"]),
            "",
        ),
    );
    h.run(T0);
    let m = h.sink.get("g-toy-2-report-allies").unwrap();
    let line = m
        .text
        .lines()
        .find(|l| l.starts_with("Ledger-Head: "))
        .unwrap()
        .to_string();
    let sig = m
        .text
        .lines()
        .find_map(|l| l.strip_prefix("Ledger-Head-Signature: "))
        .unwrap()
        .to_string();
    let entries = h.entries(&g);
    let data = std::fs::read(h.log(&g)).unwrap();
    let last_hash = dustmail::ledger::sha256_hex(
        data.strip_suffix(b"\n")
            .unwrap()
            .split(|&b| b == b'\n')
            .next_back()
            .unwrap(),
    );
    assert_eq!(
        line,
        format!("Ledger-Head: g-toy {} {last_hash}", entries.len())
    );
    let hdr = m
        .headers
        .iter()
        .find(|(k, _)| k == "X-Dustmail-Ledger-Head")
        .unwrap();
    assert!(hdr.1.starts_with(&format!("g-toy 2 {last_hash}; sig=")));
    let Event::Created(created) = &entries[0].event else {
        panic!()
    };
    referee::check_head(&h.edges, created, &data, &line, &sig)
        .expect("the signed head matches the log");
    // A forged hash is caught.
    let forged = line.replace(&last_hash[..4], "ffff");
    assert!(referee::check_head(&h.edges, created, &data, &forged, &sig).is_err());
}

#[test]
fn a_refused_command_is_reported_with_line_reason_and_what_to_send() {
    let h = Harness::new();
    let g = h.new_game();
    h.drop_mail(
        "1",
        &signed_mail(
            "ann@example.org",
            "<m1@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 1, &["add 9"]),
            "",
        ),
    );
    h.run(T0);
    // Nothing applied: a refusal, not a receipt (issue 16 item 4).
    let r = h.sink.get("g-toy-2-refusal").unwrap();
    assert!(
        r.text
            .contains("Line 5: N must be 1 to 5\nRule: toy rules\nSend instead: add 5"),
        "{}",
        r.text
    );
}

#[test]
fn a_replayed_mail_is_refused_recorded_and_changes_nothing() {
    // DESIGN §4: seq strictly increasing per side: a replay is refused.
    let h = Harness::new();
    let g = h.new_game();
    let canon = orders(&g, "allies", 1, &["add 3"]);
    h.drop_mail(
        "1",
        &signed_mail("ann@example.org", "<m1@x>", ALLIES_KEY, &canon, ""),
    );
    h.run(T0);
    // Same signed block re-sent by someone else in a new mail.
    h.drop_mail(
        "2",
        &signed_mail("eve@example.org", "<m2@x>", ALLIES_KEY, &canon, ""),
    );
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.refused), (0, 1));
    let entries = h.entries(&g);
    let s = submission(&entries[2]);
    assert!(!s.accepted);
    assert!(s
        .refusal
        .as_ref()
        .unwrap()
        .reason
        .contains("seq 1 is not greater than 1"));
    assert!(s.step.results.is_empty());
    let refusal = h.sink.get("g-toy-3-refusal").unwrap();
    assert_eq!(refusal.to, vec!["eve@example.org".to_string()]);
    assert!(refusal.text.contains("replay or stale"), "{}", refusal.text);
    assert!(refusal
        .text
        .contains("What to do: if these are new orders, sign them again with seq: 2"));
    assert!(
        h.sink.matching("g-toy-3-report").is_empty(),
        "no report: nothing changed"
    );
    let loaded = referee::load_game(&Toy, &h.edges, &h.home, &g).unwrap();
    assert!(loaded.derived.state.typed::<ToyState>().totals["allies"] >= 3);
    assert_eq!(
        loaded.derived.state.typed::<ToyState>().turn,
        1,
        "the replay did not play again"
    );
}

#[test]
fn a_stale_seq_is_refused() {
    let h = Harness::new();
    let g = h.new_game();
    h.drop_mail(
        "1",
        &signed_mail(
            "ann@example.org",
            "<m1@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 5, &["add 3"]),
            "",
        ),
    );
    h.drop_mail(
        "2",
        &signed_mail(
            "bob@example.org",
            "<m2@x>",
            AXIS_KEY,
            &orders(&g, "axis", 1, &["add 3"]),
            "",
        ),
    );
    h.drop_mail(
        "3",
        &signed_mail(
            "ann@example.org",
            "<m3@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 4, &["add 3"]),
            "",
        ),
    );
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.refused), (2, 1));
    let s = submission(h.entries(&g).last().unwrap()).clone();
    assert!(!s.accepted && s.player_seq == 4);
    assert!(s.refusal.unwrap().reason.contains("not greater than 5"));
}

#[test]
fn a_mail_for_an_unknown_game_is_moved_to_rejected_and_answered() {
    let h = Harness::new();
    h.new_game();
    h.drop_mail(
        "1",
        &signed_mail(
            "ann@example.org",
            "<m1@x>",
            ALLIES_KEY,
            &orders("g-nope", "allies", 1, &["add 3"]),
            "",
        ),
    );
    let sum = h.run(T0);
    assert_eq!(sum.rejected, 1);
    assert_eq!(in_dir(&h.home.rejected()), vec!["1".to_string()]);
    let replies = h.sink.matching("rejected-");
    assert_eq!(replies.len(), 1);
    let m = &replies[0].1;
    assert_eq!(m.to, vec!["ann@example.org".to_string()]);
    assert!(m.text.contains("there is no game `g-nope`"), "{}", m.text);
    assert_eq!(h.entries("g-toy").len(), 1, "no game's ledger changed");
}

#[test]
fn a_mail_without_orders_is_rejected_with_an_explanation() {
    let h = Harness::new();
    h.drop_mail(
        "1",
        "From: ann@example.org\nMessage-ID: <m1@x>\n\nhello, how do I play?\n",
    );
    h.run(T0);
    assert_eq!(in_dir(&h.home.rejected()), vec!["1".to_string()]);
    let m = &h.sink.matching("rejected-")[0].1;
    assert!(m.text.contains("no signed DUSTMAIL ORDERS block"));
    assert!(m.text.contains("dustmail sign --key"));
}

#[test]
fn a_wrong_key_is_refused_and_recorded() {
    let h = Harness::new();
    let g = h.new_game();
    let canon = orders(&g, "allies", 1, &["add 3"]);
    h.drop_mail(
        "1",
        &signed_mail("mallory@example.org", "<m1@x>", AXIS_KEY, &canon, ""),
    );
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.refused), (0, 1));
    let s = submission(&h.entries(&g)[1]).clone();
    assert!(!s.accepted);
    assert_eq!(s.canonical, canon);
    assert!(s
        .refusal
        .unwrap()
        .reason
        .contains("does not verify against the key registered for side allies"));
    // Signed with axis's registered key: the refusal says so (issue 16 item 1).
    let m = h.sink.get("g-toy-2-refusal").unwrap();
    // Refusals are wrapped at 72 characters (issue 16 item 1): compare words.
    let flat = crate::support::flat(&m.text);
    assert!(
        flat.contains(
            "if you play side axis, write `side: axis`; otherwise sign with your own key"
        ),
        "{}",
        m.text
    );
    assert_eq!(in_dir(&h.maildir().join("cur")), vec!["1:2,S".to_string()]);
}

#[test]
fn bounces_and_auto_replies_get_no_reply() {
    let h = Harness::new();
    let g = h.new_game();
    h.sink.clear();
    h.drop_mail(
        "1",
        &signed_mail(
            "mailer-daemon@x.org",
            "<b1@x>",
            ALLIES_KEY,
            &orders("g-nope", "allies", 1, &["add 3"]),
            "Auto-Submitted: auto-replied\n",
        ),
    );
    h.drop_mail(
        "2",
        &signed_mail(
            "bob@example.org",
            "<b2@x>",
            ALLIES_KEY,
            &orders(&g, "axis", 1, &["add 3"]),
            "Auto-Submitted: auto-generated\n",
        ),
    );
    let sum = h.run(T0);
    assert_eq!((sum.rejected, sum.refused), (1, 1));
    assert!(
        h.sink.ids().is_empty(),
        "no mail at all: {:?}",
        h.sink.ids()
    );
}

#[test]
fn a_mail_left_in_new_after_a_crash_is_not_applied_twice_only_its_replies_requeued() {
    // Crash after the ledger append, before the mails were queued and the mail moved.
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
    let before = h.sink.get("g-toy-2-report-allies").unwrap();
    h.sink.clear();
    std::fs::remove_file(h.maildir().join("cur").join("1:2,S")).unwrap();
    h.drop_mail("1", &text);
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.refused, sum.deduplicated), (0, 0, 1));
    assert_eq!(h.entries(&g).len(), 2, "no second ledger line");
    assert_eq!(
        h.sink.get("g-toy-2-report-allies"),
        Some(before),
        "the same receipt and report, same id"
    );
    assert!(h.sink.get("g-toy-2-report-axis").is_some());
    assert_eq!(in_dir(&h.maildir().join("cur")), vec!["1:2,S".to_string()]);
    // Also when the snapshot was not written before the crash.
    h.sink.clear();
    std::fs::remove_file(h.home.game_dir(&g).join("snapshot.json")).unwrap();
    std::fs::rename(
        h.maildir().join("cur").join("1:2,S"),
        h.maildir().join("new").join("1"),
    )
    .unwrap();
    let sum = h.run(T0);
    assert_eq!(sum.deduplicated, 1);
    assert_eq!(h.entries(&g).len(), 2);
}

fn play_to_the_end(h: &Harness, g: &str) {
    let mails = [
        ("allies", 1, ALLIES_KEY),
        ("axis", 1, AXIS_KEY),
        ("allies", 2, ALLIES_KEY),
        ("axis", 2, AXIS_KEY),
        ("allies", 3, ALLIES_KEY),
    ];
    for (i, (side, seq, key)) in mails.iter().enumerate() {
        h.drop_mail(
            &format!("{i}"),
            &signed_mail(
                "p@example.org",
                &format!("<{i}@x>"),
                key,
                &orders(g, side, *seq, &["add 5"]),
                "",
            ),
        );
    }
    h.run(T0);
}

#[test]
fn round_ends_reveal_keys_and_the_end_reveals_the_secret() {
    let h = Harness::new();
    let g = h.new_game();
    play_to_the_end(&h, &g);
    let entries = h.entries(&g);
    let kinds: Vec<&str> = entries
        .iter()
        .map(|e| match &e.event {
            Event::Created(_) => "created",
            Event::Submission(_) => "submission",
            Event::Deadline(_) => "deadline",
            Event::RoundEnd(_) => "round_end",
            Event::Finished(_) => "finished",
            Event::Control(_) => "control",
            Event::Digest(_) => "digest",
        })
        .collect();
    assert_eq!(kinds, ["created", "submission", "submission", "round_end", "submission", "finished", "submission", "submission"],
        "allies reach 10 with their second add 5 and the game ends; the two later mails are refused");
    let Event::RoundEnd(re) = &entries[3].event else {
        panic!()
    };
    assert_eq!(re.key, hex::encode(referee::chain_key(&[42u8; 32], 10, 1)));
    let Event::Finished(f) = &entries[5].event else {
        panic!()
    };
    assert_eq!(f.secret, hex::encode([42u8; 32]));
    assert_eq!(f.result.winner.as_deref(), Some("allies"));
    let end = h.sink.get("g-toy-5-end-axis").unwrap();
    assert!(end.text.contains(&f.secret));
    // The attached log ends with the game's last line: the two refusals that followed it in
    // the same run are not part of it, although the run renders its mails at its commit.
    let log = std::fs::read(h.home.game_dir(&g).join(dustmail::ledger::LOG_FILE)).unwrap();
    let upto_end: Vec<u8> = log
        .split_inclusive(|&b| b == b'\n')
        .take(6)
        .flatten()
        .copied()
        .collect();
    assert_eq!(log.split_inclusive(|&b| b == b'\n').count(), 8);
    let attached = end
        .attachments
        .iter()
        .find(|a| a.content_type == "application/x-ndjson")
        .expect("the end mail carries the log");
    assert_eq!(attached.bytes, upto_end);
    assert!(h
        .sink
        .get("g-toy-3-report-allies")
        .unwrap()
        .text
        .contains(&format!("K_1 = {}", re.key)));
    assert!(submission(&entries[4]).accepted);
    assert!(!submission(&entries[6]).accepted && !submission(&entries[7]).accepted);
}

#[test]
fn orders_after_the_end_are_refused() {
    let h = Harness::new();
    let g = h.new_game();
    play_to_the_end(&h, &g);
    assert!(submission(&h.entries(&g)[6])
        .refusal
        .as_ref()
        .unwrap()
        .reason
        .contains("this game is over"));
    h.drop_mail(
        "z",
        &signed_mail(
            "bob@example.org",
            "<z@x>",
            AXIS_KEY,
            &orders(&g, "axis", 3, &["add 1"]),
            "",
        ),
    );
    let sum = h.run(T0);
    assert_eq!(sum.refused, 1);
    let e = h.entries(&g);
    assert!(submission(e.last().unwrap())
        .refusal
        .as_ref()
        .unwrap()
        .reason
        .contains("this game is over"));
}

#[test]
fn the_snapshot_equals_a_full_replay_and_audit_passes() {
    let h = Harness::new();
    let g = h.new_game();
    play_to_the_end(&h, &g);
    let snap = referee::load_game(&Toy, &h.edges, &h.home, &g)
        .unwrap()
        .derived;
    std::fs::remove_file(h.home.game_dir(&g).join("snapshot.json")).unwrap();
    let replayed = referee::load_game(&Toy, &h.edges, &h.home, &g)
        .unwrap()
        .derived;
    assert_eq!(snap, replayed);
    let data = std::fs::read(h.log(&g)).unwrap();
    let (_, audited, sum) =
        referee::replay_bytes(&Toy, &h.edges, "log.jsonl", &data, DiceMode::Recorded).unwrap();
    assert_eq!(audited.state, snap.state);
    assert_eq!(
        (
            sum.submissions,
            sum.signatures,
            sum.keys_revealed,
            sum.finished
        ),
        (3, 3, 1, true)
    );
}

#[test]
fn audit_names_the_line_of_a_tampered_die() {
    let h = Harness::new();
    let g = h.new_game();
    play_to_the_end(&h, &g);
    let data = String::from_utf8(std::fs::read(h.log(&g)).unwrap()).unwrap();
    let mut lines: Vec<String> = data.lines().map(str::to_string).collect();
    // Change the recorded face of line 2's die and re-chain every hash, as a forger would.
    let mut v: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    let face = v["draws"][0]["face"].as_u64().unwrap();
    let forged = if face == 6 { 5 } else { 6 };
    v["draws"][0]["face"] = forged.into();
    v["rolls"][0]["faces"][0] = forged.into();
    lines[1] = v.to_string();
    for i in 2..lines.len() {
        let mut e: serde_json::Value = serde_json::from_str(&lines[i]).unwrap();
        e["prev"] = dustmail::ledger::sha256_hex(lines[i - 1].as_bytes()).into();
        lines[i] = e.to_string();
    }
    let forged_log = lines.join("\n") + "\n";
    let err = referee::replay_bytes(
        &Toy,
        &h.edges,
        "log.jsonl",
        forged_log.as_bytes(),
        DiceMode::Recorded,
    )
    .unwrap_err();
    assert!(err.to_string().starts_with("log.jsonl line 2:"), "{err}");
    assert_eq!(err.exit_code(), 1);
}

#[test]
fn deadline_reminder_once_then_default_applied_after_grace() {
    // Deadline 72 h, reminder 24 h before, grace 12 h (config defaults).
    let h = Harness::new();
    let g = h.new_game();
    h.sink.clear();
    let sum = h.run("2026-01-02T12:00:00Z"); // 24 h in: too early
    assert_eq!(sum.reminders, 0);
    h.run("2026-01-03T13:00:00Z"); // 49 h in: reminder
    let r = h.sink.matching("reminder");
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].0, "g-toy-1-reminder-allies");
    assert_eq!(r[0].1.to, vec!["ann@example.org".to_string()]);
    assert!(
        r[0].1
            .text
            .contains("Deadline: 2026-01-04 12:00 UTC (in 23 hours)"),
        "{}",
        r[0].1.text
    );
    h.run("2026-01-03T20:00:00Z");
    assert_eq!(
        h.sink.matching("reminder").len(),
        1,
        "the reminder is sent once"
    );
    let sum = h.run("2026-01-04T20:00:00Z"); // past deadline, within grace
    assert_eq!(sum.defaults, 0);
    let sum = h.run("2026-01-05T00:00:00Z"); // deadline + grace
    assert_eq!(sum.defaults, 1);
    let e = h.entries(&g);
    let Event::Deadline(d) = &e[1].event else {
        panic!("{:?}", e[1])
    };
    assert_eq!(d.side, "allies");
    assert_eq!(d.step.draws.len(), 1, "the default's die is recorded");
    for p in ["allies", "axis"] {
        let m = h.sink.get(&format!("g-toy-2-report-{p}")).unwrap();
        assert!(
            m.text
                .contains("deadline passed: defaults applied for side allies"),
            "{}",
            m.text
        );
    }
    // The next deadline counts from the default.
    assert_eq!(h.run("2026-01-05T01:00:00Z").defaults, 0);
    // And replay reproduces the default.
    std::fs::remove_file(h.home.game_dir(&g).join("snapshot.json")).unwrap();
    let l = referee::load_game(&Toy, &h.edges, &h.home, &g).unwrap();
    assert_eq!(l.derived.state.typed::<ToyState>().turn, 1);
    let sum = referee::replay_game(&Toy, &h.edges, &h.home, &g).unwrap();
    assert_eq!((sum.defaults, sum.dice_checked), (1, 1));
}

#[test]
fn a_second_run_is_locked_out_with_a_clear_message() {
    let h = Harness::new();
    let _first = referee::lock_home(&h.home).unwrap();
    let err = referee::lock_home(&h.home)
        .err()
        .expect("second lock fails");
    let msg = err.to_string();
    assert!(msg.starts_with("another dustmail run holds "), "{msg}");
    assert!(
        msg.contains(&format!("(pid {})", std::process::id())),
        "{msg}"
    );
    // Issue 10 finding 17: an flock cannot go stale, so the message never advises deleting it.
    assert!(!msg.contains("remove the stale lock"), "{msg}");
    assert!(msg.contains("never delete the lock file"), "{msg}");
    drop(_first);
    assert!(
        referee::lock_home(&h.home).is_ok(),
        "free again after the first run ends"
    );
}

#[test]
fn mails_are_processed_in_name_order() {
    let h = Harness::new();
    let g = h.new_game();
    // Name order decides: "a" (axis) is refused (not its turn), then "b" (allies) plays.
    h.drop_mail(
        "b",
        &signed_mail(
            "ann@example.org",
            "<b@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 1, &["add 3"]),
            "",
        ),
    );
    h.drop_mail(
        "a",
        &signed_mail(
            "bob@example.org",
            "<a@x>",
            AXIS_KEY,
            &orders(&g, "axis", 1, &["add 3"]),
            "",
        ),
    );
    h.run(T0);
    let e = h.entries(&g);
    assert_eq!(submission(&e[1]).side, "axis");
    assert!(h
        .sink
        .get("g-toy-2-refusal")
        .unwrap()
        .text
        .contains("Line 5: it is not your turn"));
    assert_eq!(submission(&e[2]).side, "allies");
}

// With the real crypto and mail intake (crypto.rs, mail.rs) and the toy game.

#[test]
fn real_signed_mails_are_verified_applied_and_audited() {
    let h = Harness::with_real_edges();
    let (ann, bob) = real_player_keys();
    let g = h.new_game_with_keys(&ann, &bob);
    h.drop_mail(
        "1",
        &real_mail(
            "Ann <ann@example.org>",
            "<r1@x>",
            &ann,
            &orders(&g, "allies", 1, &["add 5"]),
        ),
    );
    h.drop_mail(
        "2",
        &real_mail(
            "bob@example.org",
            "<r2@x>",
            &bob,
            &orders(&g, "axis", 1, &["add 2"]),
        ),
    );
    let sum = h.run(T0);
    assert_eq!(
        (sum.accepted, sum.refused, sum.rejected),
        (2, 0, 0),
        "{:?}",
        sum.warnings
    );
    let r = h.sink.get("g-toy-2-report-allies").unwrap();
    assert_eq!(r.to, vec!["ann@example.org".to_string()]);
    assert!(r.text.contains("understood: add 5"));
    assert_eq!(
        r.in_reply_to.as_deref(),
        Some("<r1@x>"),
        "threaded, in angle brackets"
    );
    // An auditor holding only the log checks every signature, key and die.
    let data = std::fs::read(h.log(&g)).unwrap();
    let (created, _, sum) =
        referee::replay_bytes(&Toy, &h.edges, "log.jsonl", &data, DiceMode::Recorded).unwrap();
    assert_eq!((sum.signatures, sum.keys_revealed), (2, 1));
    // The ledger head in the last report is signed by the referee's real key.
    let m = h.sink.get("g-toy-3-report-axis").unwrap();
    let line = m
        .text
        .lines()
        .find(|l| l.starts_with("Ledger-Head: "))
        .unwrap();
    let sig = m
        .text
        .lines()
        .find_map(|l| l.strip_prefix("Ledger-Head-Signature: "))
        .unwrap();
    referee::check_head(&h.edges, &created, &data, line, sig).unwrap();
    let err = referee::check_head(&h.edges, &created, &data, &line.replace(" 4 ", " 3 "), sig)
        .unwrap_err();
    assert!(err.to_string().contains("does not verify"), "{err}");
}

#[test]
fn real_orders_signed_with_the_other_sides_key_or_edited_after_signing_are_refused() {
    let h = Harness::with_real_edges();
    let (ann, bob) = real_player_keys();
    let g = h.new_game_with_keys(&ann, &bob);
    h.drop_mail(
        "1",
        &real_mail(
            "bob@example.org",
            "<r1@x>",
            &bob,
            &orders(&g, "allies", 1, &["add 5"]),
        ),
    );
    let edited = real_mail(
        "ann@example.org",
        "<r2@x>",
        &ann,
        &orders(&g, "allies", 1, &["add 1"]),
    )
    .replace("add 1", "add 5");
    h.drop_mail("2", &edited);
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.refused), (0, 2));
    for (n, to) in [(2, "bob@example.org"), (3, "ann@example.org")] {
        let m = h.sink.get(&format!("g-toy-{n}-refusal")).unwrap();
        assert_eq!(m.to, vec![to.to_string()]);
        let flat = crate::support::flat(&m.text);
        assert!(
            flat.contains("does not verify against the key registered for side allies"),
            "{}",
            m.text
        );
    }
    let l = referee::load_game(&Toy, &h.edges, &h.home, &g).unwrap();
    assert_eq!(
        l.derived.state.typed::<ToyState>().turn,
        0,
        "nothing applied"
    );
}

#[test]
fn a_real_bounce_gets_no_reply() {
    let h = Harness::with_real_edges();
    let (ann, bob) = real_player_keys();
    let g = h.new_game_with_keys(&ann, &bob);
    h.sink.clear();
    let bounce = real_mail(
        "MAILER-DAEMON@example.org",
        "<b@x>",
        &bob,
        &orders(&g, "allies", 1, &["add 5"]),
    )
    .replacen("Subject:", "Auto-Submitted: auto-replied\r\nSubject:", 1);
    h.drop_mail("1", &bounce);
    let sum = h.run(T0);
    assert_eq!(sum.refused, 1);
    assert!(h.sink.ids().is_empty(), "{:?}", h.sink.ids());
}

#[test]
fn a_game_whose_ledger_is_corrupt_keeps_its_mails_waiting_while_other_games_go_on() {
    let h = Harness::new();
    let good = h.new_game_id("g-good");
    let bad = h.new_game_id("g-bad");
    let text = std::fs::read_to_string(h.log(&bad)).unwrap();
    std::fs::write(h.log(&bad), text.replacen("\"seq\":1", "\"seq\":7", 1)).unwrap();
    std::fs::remove_file(h.home.game_dir(&bad).join("snapshot.json")).unwrap();
    h.drop_mail(
        "1",
        &signed_mail(
            "ann@example.org",
            "<1@x>",
            ALLIES_KEY,
            &orders(&bad, "allies", 1, &["add 3"]),
            "",
        ),
    );
    h.drop_mail(
        "2",
        &signed_mail(
            "ann@example.org",
            "<2@x>",
            ALLIES_KEY,
            &orders(&good, "allies", 1, &["add 3"]),
            "",
        ),
    );
    let sum = h.run(T0);
    assert_eq!(sum.accepted, 1);
    assert_eq!(sum.broken.len(), 1);
    assert!(
        sum.broken[0].starts_with("game g-bad: log.jsonl line 1: seq is 7"),
        "{:?}",
        sum.broken
    );
    assert_eq!(
        in_dir(&h.maildir().join("new")),
        vec!["1".to_string()],
        "waits for the repair"
    );
    assert_eq!(in_dir(&h.maildir().join("cur")), vec!["2:2,S".to_string()]);
}

#[test]
fn a_line_torn_by_a_crash_is_removed_by_the_next_run_and_its_mail_processed_again() {
    let h = Harness::new();
    let g = h.new_game();
    let text = signed_mail(
        "ann@example.org",
        "<1@x>",
        ALLIES_KEY,
        &orders(&g, "allies", 1, &["add 3"]),
        "",
    );
    h.drop_mail("1", &text);
    h.run(T0);
    // Simulate a crash in the middle of writing line 2: half of it on disk, mail still in new/.
    let data = std::fs::read(h.log(&g)).unwrap();
    let line1_end = data.iter().position(|&b| b == b'\n').unwrap() + 1;
    let torn = &data[..line1_end + (data.len() - line1_end) / 2];
    std::fs::write(h.log(&g), torn).unwrap();
    std::fs::rename(h.maildir().join("cur/1:2,S"), h.maildir().join("new/1")).unwrap();
    h.sink.clear();
    // Readers report it…
    let err = dustmail::ledger::read_all(&h.log(&g))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("log.jsonl line 2 is torn"), "{err}");
    // …the next run repairs it and applies the mail once.
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.deduplicated), (1, 0));
    assert!(
        sum.warnings[0].contains("removed a torn last line"),
        "{:?}",
        sum.warnings
    );
    assert_eq!(h.entries(&g).len(), 2);
    assert!(h.sink.get("g-toy-2-report-allies").is_some());
    assert!(referee::replay_game(&Toy, &h.edges, &h.home, &g).is_ok());
}

#[test]
fn run_trusts_a_snapshot_whose_head_matches_and_replay_game_catches_a_wrong_one() {
    let h = Harness::new();
    let g = h.new_game();
    h.drop_mail(
        "1",
        &signed_mail(
            "ann@example.org",
            "<1@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 1, &["add 3"]),
            "",
        ),
    );
    h.run(T0);
    assert!(referee::replay_game(&Toy, &h.edges, &h.home, &g).is_ok());
    // Falsify the snapshot's state but keep its head: load_game uses it as it is (no replay)…
    let p = h.home.game_dir(&g).join("snapshot.json");
    let mut snap: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    snap["state"]["totals"]["axis"] = 99.into();
    std::fs::write(&p, snap.to_string()).unwrap();
    let l = referee::load_game(&Toy, &h.edges, &h.home, &g).unwrap();
    assert_eq!(
        l.derived.state.typed::<ToyState>().totals["axis"],
        99,
        "the snapshot was used"
    );
    // …and replay_game, the full check, names the mismatch.
    let err = referee::replay_game(&Toy, &h.edges, &h.home, &g).unwrap_err();
    assert!(
        err.to_string()
            .contains("the snapshot differs from the state replayed from the log at line 2"),
        "{err}"
    );
    assert_eq!(err.exit_code(), 1);
    // A snapshot whose head is behind the log is ignored: the game is replayed.
    snap["head"]["seq"] = 1.into();
    std::fs::write(&p, snap.to_string()).unwrap();
    let l = referee::load_game(&Toy, &h.edges, &h.home, &g).unwrap();
    assert_eq!(l.derived.state.typed::<ToyState>().totals["axis"], 0);
}

#[test]
fn welcome_mails_carry_the_commitment_and_the_first_orders_to_sign() {
    let h = Harness::new();
    let g = h.new_game();
    let k0 = hex::encode(dustmail::seed::round_key(&[42u8; 32], 10, 0));
    for (side, to) in [("allies", "ann@example.org"), ("axis", "bob@example.org")] {
        let m = h.sink.get(&format!("g-toy-1-welcome-{side}")).unwrap();
        assert_eq!(m.to, vec![to.to_string()]);
        assert_eq!(m.subject, "[dustmail g-toy] round 1: welcome");
        // Issue 16 item 1: the commitment is on its own line (lines of at most 72 characters).
        assert!(m.text.contains(&format!(
            "Seed commitment K_0 (the head of a chain of 10 round keys):\n  {k0}\n"
        )));
        assert!(
            m.text
                .contains(&format!("game: {g}\nside: {side}\nseq: 1\n")),
            "{}",
            m.text
        );
        assert!(m.text.contains("Ledger-Head: g-toy 1 "));
    }
    let Event::Created(c) = &h.entries(&g)[0].event else {
        panic!()
    };
    assert_eq!(c.commitment, k0);
    assert_eq!(
        (
            c.max_rounds,
            c.deadline_hours,
            c.reminder_hours,
            c.grace_hours
        ),
        (10, 72, 24, 12)
    );
    assert_eq!(c.players[1].public_key, AXIS_KEY);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let secret = h.home.game_dir(&g).join("seed.secret");
        assert_eq!(
            std::fs::metadata(secret).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
}

/// Golden texts of the mails one accepted and one refused submission produce (toy game, fixed
/// seed, time and keys), so wording changes are reviewed.
#[test]
fn golden_receipt_refusal_and_report_texts() {
    let h = Harness::new();
    let g = h.new_game();
    h.drop_mail(
        "1",
        &signed_mail(
            "ann@example.org",
            "<1@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 1, &["add 3", "jump"]),
            "",
        ),
    );
    h.drop_mail(
        "2",
        &signed_mail(
            "eve@example.org",
            "<2@x>",
            AXIS_KEY,
            &orders(&g, "allies", 2, &["add 3"]),
            "",
        ),
    );
    h.run(T0);
    for id in [
        "g-toy-2-report-allies",
        "g-toy-2-report-axis",
        "g-toy-3-refusal",
    ] {
        let m = h.sink.get(id).unwrap();
        // Hashes and signatures change with any field of the ledger: redacted.
        let body: Vec<String> = m
            .text
            .lines()
            .map(|l| match l.split_once(' ') {
                Some(("Ledger-Head:", rest)) => {
                    let parts: Vec<&str> = rest.split(' ').collect();
                    format!("Ledger-Head: {} {} [hash]", parts[0], parts[1])
                }
                Some(("Ledger-Head-Signature:", _)) => "Ledger-Head-Signature: [sig]".into(),
                _ => l.to_string(),
            })
            .collect();
        let text = format!(
            "To: {}\nSubject: {}\n\n{}",
            m.to.join(", "),
            m.subject,
            body.join("\n")
        );
        insta::assert_snapshot!(id, text);
    }
}

mod property {
    use super::*;
    use proptest::prelude::*;

    /// One mail: which side signs, for which side, with which seq offset and command.
    fn mail_strategy() -> impl Strategy<Value = (bool, bool, i64, u32, bool)> {
        (
            any::<bool>(),
            any::<bool>(),
            -1i64..=2,
            0u32..=7,
            any::<bool>(),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        // DESIGN §2: state is always derivable from the log; the snapshot a run keeps equals a
        // full replay, and an auditor without the secret accepts the log, whatever mails came.
        #[test]
        fn replay_equals_the_run_whatever_the_mails(
            mails in proptest::collection::vec(mail_strategy(), 1..12),
            batch in 1usize..4,
        ) {
            let h = Harness::new();
            let g = h.new_game();
            let mut next = BTreeMap::from([("allies", 1i64), ("axis", 1i64)]);
            for (i, (signer_allies, side_allies, off, n, deadline)) in mails.into_iter().enumerate() {
                let side = if side_allies { "allies" } else { "axis" };
                let key = if signer_allies { ALLIES_KEY } else { AXIS_KEY };
                let seq = (next[side] + off).max(0) as u64;
                if off >= 0 { next.insert(side, next[side] + 1); }
                let text = orders(&g, side, seq, &[&format!("add {n}")]);
                h.drop_mail(&format!("{i:03}"), &signed_mail("p@example.org", &format!("<{i}@x>"), key, &text, ""));
                if (i + 1) % batch == 0 {
                    h.run(if deadline { "2026-03-01T00:00:00Z" } else { T0 });
                }
            }
            h.run("2026-06-01T00:00:00Z");
            let kept = referee::load_game(&Toy, &h.edges, &h.home, &g).unwrap().derived;
            std::fs::remove_file(h.home.game_dir(&g).join("snapshot.json")).unwrap();
            let replayed = referee::load_game(&Toy, &h.edges, &h.home, &g).unwrap().derived;
            prop_assert_eq!(&kept, &replayed);
            let data = std::fs::read(h.log(&g)).unwrap();
            let audited = referee::replay_bytes(&Toy, &h.edges, "log.jsonl", &data, DiceMode::Recorded);
            prop_assert!(audited.is_ok(), "{:?}", audited.err());
            prop_assert_eq!(audited.unwrap().1.state, kept.state);
        }
    }
}
