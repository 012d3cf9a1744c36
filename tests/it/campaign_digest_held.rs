//! Issue 15's last limit, ruling R342: in a digest game (`digest = true` in config.toml), the
//! step a referee's `decide` control runs (the lines held for a battle fought on the table,
//! R340) is told in a digest, not in report mails of its own; the control's notice stays a
//! mail of its own. Played end to end through signed mails and `run`, as
//! tests/it/campaign_held.rs plays it in an ordinary home; replay and both audits pass, and a
//! control line whose mark is removed is named by the digest line that covers it; a crash
//! between the control and its digest line loses no mail.

use crate::campaign::resign;
use crate::campaign_held::{ledger, play};
use crate::campaign_strategic::{audit, new_campaign, players, RULES};
use crate::support::dt;

/// R342 (issue 15; docs/reports.md "Digest"; R340): red's (or blue's) mail holds a rolled
/// attack behind a table attack; the `decide` control that brings the table's result runs it.
/// That control line says its step is in a digest (`in_digest`), the next line after its
/// round ends is a `digest` line covering it, every player gets that digest (the attacker's
/// with the private note of its held lines) and no one gets a report of the control's own;
/// the control's notices still go to every player; `dustmail replay`, `dustmail audit` and
/// `campaign audit` pass; removing the mark (the ledger signed anew) fails the audit at the
/// digest line, whose range no longer matches the steps.
#[test]
fn a_digest_game_tells_the_decide_controls_held_lines_in_its_next_digest_r342() {
    let d = tempfile::tempdir().unwrap();
    let home = crate::digest::digest_config(&d.path().join("home"));
    let ps = players();
    let o = new_campaign(&home, "war", RULES, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let seen = play(&home, "war", &ps);
    let (attacker, _, _, battle) = seen
        .held
        .expect("no table attack with a rolled attack after it was sent");
    let log = ledger(&home, "war-1");
    assert_eq!(
        log[0]["digest"], true,
        "the strategic game is a digest game"
    );

    let (i, ctl) = log
        .iter()
        .enumerate()
        .find(|(_, v)| {
            v["kind"] == "control"
                && v["command"]
                    .as_str()
                    .is_some_and(|c| c.starts_with(&format!("decide battle {battle}:")))
        })
        .expect("no decide control of the battle");
    let line = (i + 1) as u64;
    assert!(ctl["step"].is_object(), "the held lines ran: {ctl}");
    assert_eq!(ctl["in_digest"], true, "{ctl}");
    // Only that kind of control carries the mark.
    for v in log.iter().filter(|v| v["kind"] == "control") {
        assert_eq!(v.get("in_digest").is_some(), v.get("step").is_some(), "{v}");
    }
    // After the control and its round ends (and end), a digest line covering it.
    let j = log[i + 1..]
        .iter()
        .position(|v| v["kind"] != "round_end" && v["kind"] != "finished")
        .map(|k| i + 1 + k)
        .expect("nothing after the control");
    let dg = &log[j];
    let dseq = (j + 1) as u64;
    assert_eq!(dg["kind"], "digest", "{dg}");
    let (from, to) = (dg["from"].as_u64().unwrap(), dg["to"].as_u64().unwrap());
    assert!(
        from <= line && to == dseq - 1,
        "{dg} does not cover line {line}"
    );

    let sent = dt::names(&home.root.join("sent"));
    let read = |n: &str| {
        crate::support::flat(&std::fs::read_to_string(home.root.join("sent").join(n)).unwrap())
    };
    // No report of the control's own, as an ordinary game sends …
    assert!(
        !sent
            .iter()
            .any(|n| n.starts_with(&format!("war-1-{line}-report-"))),
        "{sent:?}"
    );
    // … its notice to every player, as in every game …
    for p in &ps {
        assert!(
            sent.iter()
                .any(|n| n.starts_with(&format!("war-1-{line}-control-"))
                    && read(n).contains(&format!("To: {}", p.address))),
            "no control notice to {}: {sent:?}",
            p.address
        );
    }
    // … and the digest to every player, the attacker's telling its held lines.
    for p in &ps {
        let id = format!("war-1-{dseq}-digest-{}.eml", p.colour);
        assert!(sent.contains(&id), "no {id}: {sent:?}");
        let text = read(&id);
        let note = format!("your lines held for battle {battle} ");
        assert_eq!(text.contains(&note), p.colour == attacker, "{id}: {text}");
    }

    let o = dt::dustmail(&home.root, &["replay", "war-1"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let o = dt::dustmail(
        &home.root,
        &["audit", &dt::log_path(&home, "war-1").display().to_string()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let o = audit(&home.root.join("campaigns").join("war"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));

    // A crash after the control's lines, before its digest line (the control leaves the game
    // due first): the next run covers the step with the same digest line and the same mails.
    let crashed = d.path().join("crashed");
    dt::copy_tree(&home.root, &crashed);
    let gdir = crashed.join("games").join("war-1");
    let raw = std::fs::read_to_string(gdir.join("log.jsonl")).unwrap();
    let kept: String = raw.split_inclusive('\n').take(dseq as usize - 1).collect();
    std::fs::write(gdir.join("log.jsonl"), kept).unwrap();
    let _ = std::fs::remove_file(gdir.join("snapshot.json"));
    dustmail::due::set_entry(&crashed, "war-1", None).unwrap();
    let lost = format!("war-1-{dseq}-");
    for dir in ["sent", "outbox"] {
        for n in dt::names(&crashed.join(dir)) {
            if n.starts_with(&lost) {
                std::fs::remove_file(crashed.join(dir).join(n)).unwrap();
            }
        }
    }
    let o = dt::dustmail(&crashed, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let again: Vec<serde_json::Value> = std::fs::read_to_string(gdir.join("log.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(again.get(j), Some(dg), "the same digest line");
    for p in &ps {
        let id = format!("war-1-{dseq}-digest-{}.eml", p.colour);
        let made = std::fs::read_to_string(crashed.join("sent").join(&id))
            .unwrap_or_else(|_| panic!("{id} was lost"));
        assert_eq!(
            made,
            std::fs::read_to_string(home.root.join("sent").join(&id)).unwrap()
        );
    }

    // The mark removed, the ledger signed anew: the digest line no longer matches its steps.
    let copy = d.path().join("tampered");
    dt::copy_tree(&home.root, &copy);
    let mut lines = log.clone();
    lines[i].as_object_mut().unwrap().remove("in_digest");
    let file = copy.join("games").join("war-1").join("log.jsonl");
    std::fs::write(&file, resign(lines, &home)).unwrap();
    let o = audit(&copy.join("campaigns").join("war"));
    assert_eq!(o.status.code(), Some(1), "{}", dt::text(&o));
    let want = format!("games/war-1/log.jsonl line {dseq}: ");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&want) && err.contains("digest"),
        "{want}\n{err}"
    );
}
