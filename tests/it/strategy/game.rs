//! A whole dust-strategy game through the real pipeline (issue 14 items 4 and 6, in part):
//! `dustmail demo --game dust-strategy` plays six bots by signed mails to the end; the ledger
//! audits clean with every hidden draw proved by H, and no mail to one player carries another
//! player's hidden cards.

use super::*;

/// The recipient's side of a demo mail (`To: SIDE@demo.example`).
fn recipient(mail: &str) -> Option<String> {
    mail.lines()
        .find_map(|l| l.strip_prefix("To: "))
        .and_then(|to| to.trim().strip_suffix("@demo.example"))
        .map(str::to_string)
}

/// issue 14 items 4 and 6 (in part): six bots play a whole game by mail; it ends, audits with
/// H, and before the end no player's mail shows another player's hand, draws or face-down card (DESIGN §5).
#[test]
fn six_bots_play_a_whole_game_by_mail_and_no_hidden_card_leaks() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("demo");
    let o = dustmail(&home, &["demo", "--game", "dust-strategy"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("the demo game ended after"),
        "{}",
        text(&o)
    );
    // issue 14 item 3 (in part): mails per player per round. Setup takes two (the setup card
    // with the preferences, then the reinforcements); each round then one card and one turn.
    let out = text(&o);
    let show = dustmail(&home, &["show", "g-demo", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&show.stdout).unwrap();
    let rounds = v["round"].as_u64().unwrap() as usize;
    for side in ["red", "blue", "green", "yellow", "black", "white"] {
        let sent = out.matches(&format!("\n{side} sends: ")).count();
        eprintln!("{side}: {sent} mails in {rounds} rounds, 2 of them for setup");
        assert!(
            sent >= 2 && sent - 2 <= 2 * rounds,
            "{side}: {sent} mails in {rounds} rounds"
        );
    }
    let log = home.join("games/g-demo/log.jsonl");
    let o = Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .arg("audit")
        .arg(&log)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("hidden values checked with H"),
        "{}",
        text(&o)
    );

    let sides = ["red", "blue", "green", "yellow", "black", "white"];
    let mut own_seen = 0;
    let mut read = 0;
    for e in std::fs::read_dir(home.join("sent")).unwrap() {
        let p = e.unwrap().path();
        // The end mail reveals H and the whole game: hidden until the end, not after.
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.extension().is_none_or(|x| x != "eml") || name.contains("-end-") {
            continue;
        }
        let mail = unfold(&std::fs::read_to_string(&p).unwrap());
        let Some(to) = recipient(&mail) else { continue };
        read += 1;
        for other in sides.iter().filter(|s| **s != to) {
            for secret in [
                format!("{other} is dealt"),
                format!("{other} draws"),
                format!("{other} plays c"),
            ] {
                assert!(
                    !mail.contains(&secret),
                    "{} (to {to}) shows `{secret}`",
                    p.display()
                );
            }
        }
        if mail.contains(&format!("{to} is dealt")) || mail.contains("your hand: c") {
            own_seen += 1;
        }
    }
    assert!(read > 100, "only {read} mails read");
    assert!(
        own_seen >= 6,
        "each player sees their own hand ({own_seen})"
    );
}
