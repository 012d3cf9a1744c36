//! Well-kept crates for the mail side (issue 11, item 7): the Maildir info suffix in cur/ and
//! HTML bodies turned into text by a maintained HTML parser.

mod support;

use support::*;

// issue 11 finding 7 (Maildir): a processed mail lands in cur/ as `NAME:2,S`, which a Maildir
// reader (the `maildir` crate, as mutt or dovecot) lists as seen under its own id.
#[test]
fn a_processed_mail_is_in_cur_with_the_seen_flag_for_maildir_readers() {
    let h = Harness::new();
    let g = h.new_game();
    let name = "1700000000.M1P2.mx.example.org";
    h.drop_mail(
        name,
        &signed_mail(
            "ann@example.org",
            "<m1@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 1, &["add 3"]),
            "",
        ),
    );
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.rejected), (1, 0));
    assert_eq!(
        in_dir(&h.maildir().join("cur")),
        vec![format!("{name}:2,S")]
    );
    let md = maildir::Maildir::from(h.maildir());
    assert_eq!(md.count_new(), 0);
    let cur: Vec<maildir::MailEntry> = md.list_cur().map(|e| e.unwrap()).collect();
    assert_eq!(cur.len(), 1);
    assert_eq!(cur[0].id(), name);
    assert!(cur[0].is_seen(), "flags {:?}", cur[0].flags());
    assert_eq!(cur[0].flags(), "S");
}

// issue 11 finding 7 (Maildir): a mail that already carries an info suffix (here one moved
// back from cur/ to new/ by hand, as after a crash) keeps its name: no second suffix, and the
// ledger still knows it (deduplicated by content, not by name).
#[test]
fn a_mail_with_an_info_suffix_keeps_its_name_and_is_still_deduplicated() {
    let h = Harness::new();
    let g = h.new_game();
    h.drop_mail(
        "7",
        &signed_mail(
            "ann@example.org",
            "<m7@x>",
            ALLIES_KEY,
            &orders(&g, "allies", 1, &["add 3"]),
            "",
        ),
    );
    h.run(T0);
    std::fs::rename(
        h.maildir().join("cur/7:2,S"),
        h.maildir().join("new/7:2,S"),
    )
    .unwrap();
    let sum = h.run(T0);
    assert_eq!((sum.accepted, sum.deduplicated), (0, 1));
    assert_eq!(h.entries(&g).len(), 2, "no second ledger line");
    assert_eq!(in_dir(&h.maildir().join("cur")), vec!["7:2,S".to_string()]);
    assert_eq!(in_dir(&h.maildir().join("new")), Vec::<String>::new());
}
