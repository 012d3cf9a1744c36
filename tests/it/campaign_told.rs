//! Issue 15 item 5, the last landing: an absence a player sends to ONE game of a campaign is
//! recorded in the campaign and reaches their other games (ruling R338), and `campaign audit`
//! matches every control the campaign sent a game (`absent`, `replace-key`) to the campaign
//! line that gave it, naming a forged or a dropped one by file and line (ruling R339).

use crate::campaign_absence::league_players;
use crate::campaign_forces::{audit, drop_mail, load, log_lines, new_campaign, sent_text};
use crate::support::dt::{self, InProc};
use dustmail::config::Home;
use std::path::Path;

const UNTIL: &str = "2026-03-06T00:00:00+00:00";

fn defaulted(home: &Home, gid: &str) -> Vec<String> {
    log_lines(&dt::log_path(home, gid))
        .iter()
        .filter(|l| l["kind"] == "deadline")
        .map(|l| l["side"].as_str().unwrap().to_string())
        .collect()
}

/// A copy of the home whose game `gid` ledger's last line is edited (`None`: removed) and
/// signed again by the referee, as a referee forging it would; `campaign audit` of the copy
/// must fail naming `want`.
fn tampered_fails(
    home: &Home,
    root: &Path,
    tag: &str,
    gid: &str,
    edit: impl Fn(&str) -> Option<String>,
    want: &str,
) {
    let copy = root.join(format!("tampered-{tag}"));
    dt::copy_tree(&home.root, &copy);
    let log = copy.join("games").join(gid).join("log.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let last = lines.pop().unwrap();
    if let Some(new) = edit(&last) {
        assert_ne!(new, last, "the edit changes the line");
        let key = dustmail::crypto::read_secret_key(&home.key_path()).unwrap();
        let cut = new.find(",\"referee_sig\":\"").unwrap();
        let mut line = format!("{}}}", &new[..cut]);
        let sig = dustmail::crypto::sign_text(&key, &dustmail::ledger::line_sig_text(&line));
        line.pop();
        line.push_str(&format!(",\"referee_sig\":\"{sig}\"}}"));
        lines.push(line);
    }
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let o = audit(&copy.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(1), "{}", dt::text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(want),
        "{want}\n{}",
        dt::text(&o)
    );
}

/// The last line of game `gid`'s ledger.
fn last_line(home: &Home, gid: &str) -> serde_json::Value {
    log_lines(&dt::log_path(home, gid)).pop().unwrap()
}

/// docs/campaigns.md "Absences", ruling R338: in a three-player league (fc-1 ann v bob, fc-2
/// ann v cat, fc-3 bob v cat), ann signs `absent until` in a mail to fc-1 ONLY. fc-1 takes it as
/// any game does; the campaign records it (`player_absent` naming fc-1), ann gets the campaign's
/// receipt naming fc-2, and fc-2 is told by an `absent` control `by: "campaign"`: at the first
/// deadline ann's side waits in both her games while every other side gets its default. The
/// same mail sent again records nothing twice. `campaign audit` passes; a forged `absent`
/// control (another date) and a dropped one are named by file and line (R339).
#[test]
fn an_absence_sent_to_one_game_of_a_campaign_reaches_the_players_other_games() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = league_players();
    let rules = "kind = \"league\"\nscenarios = [\"skirmish\"]\n";
    let o = new_campaign(&home, "fc", rules, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = InProc::open(&home);
    let clog = home.root.join("campaigns/fc/log.jsonl");
    let away = dt::mail(
        &ps[0].address,
        "away@p",
        &ps[0].key,
        &dt::orders("fc-1", "allies", 1, "absent until 2026-03-06T00:00:00Z"),
    );
    drop_mail(&home, "away.eml", away.clone());
    env.run(dt::NOW);

    let lines = log_lines(&clog);
    let n = lines
        .iter()
        .position(|l| l["kind"] == "player_absent")
        .expect("the campaign records the absence sent to fc-1");
    assert_eq!(lines[n]["game"], "fc-1");
    assert_eq!(lines[n]["player"], "ann");
    assert_eq!(lines[n]["until"], UNTIL);
    assert_eq!(
        load(&home, "fc").absent_until("ann").unwrap().to_rfc3339(),
        UNTIL
    );
    let receipt = crate::support::flat(&sent_text(&home, "fc-absence-ann-fc-1-1").unwrap());
    assert!(
        receipt.contains(&format!(
            "Your absence until {UNTIL} is recorded for campaign fc (you sent it to fc-1)"
        )),
        "{receipt}"
    );
    assert!(receipt.contains("Games told now: fc-2."), "{receipt}");
    for gid in ["fc-1", "fc-2"] {
        assert_eq!(
            env.load(gid)
                .derived
                .absent
                .get("allies")
                .map(String::as_str),
            Some(UNTIL),
            "{gid}"
        );
    }
    assert!(env.load("fc-3").derived.absent.is_empty());
    let told = last_line(&home, "fc-2");
    assert_eq!(told["kind"], "control");
    assert_eq!(told["by"], "campaign");
    assert_eq!(told["command"], format!("absent allies until {UNTIL}"));

    // The same mail again: nothing recorded twice.
    let before = std::fs::read(&clog).unwrap();
    let fc2 = std::fs::read(dt::log_path(&home, "fc-2")).unwrap();
    drop_mail(&home, "away-again.eml", away);
    env.run("2026-03-01T11:00:00Z");
    assert_eq!(std::fs::read(&clog).unwrap(), before);
    assert_eq!(std::fs::read(dt::log_path(&home, "fc-2")).unwrap(), fc2);

    let o = audit(&home.root.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    // A control the campaign never gave: the date changed and signed again.
    tampered_fails(
        &home,
        d.path(),
        "forged-absence",
        "fc-2",
        |l| Some(l.replace("2026-03-06T00", "2026-03-09T00")),
        &format!(
            "games/fc-2/log.jsonl line {}: the campaign's control `absent allies until 2026-03-09T00:00:00+00:00` is given by no absence of ann",
            told["seq"]
        ),
    );
    // The control dropped: the campaign's line that should have reached fc-2 is named.
    tampered_fails(
        &home,
        d.path(),
        "dropped-absence",
        "fc-2",
        |_| None,
        &format!(
            "campaigns/fc/log.jsonl line {}: ann's absence until {UNTIL} did not reach game fc-2",
            n + 1
        ),
    );

    // Deadline + grace of the first decisions: ann's sides wait, every other side defaults.
    env.run("2026-03-04T21:00:00Z");
    assert_eq!(defaulted(&home, "fc-1"), ["axis"]);
    assert_eq!(defaulted(&home, "fc-2"), ["axis"]);
    let mut third = defaulted(&home, "fc-3");
    third.sort();
    assert_eq!(third, ["allies", "axis"]);
    let o = audit(&home.root.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

/// docs/campaigns.md "Replacing a player", ruling R339: `campaign replace` gives each open game
/// of the player a `replace-key` control `by: "campaign"`; `campaign audit` passes, and names a
/// forged replacement (another address, signed again) at its line of the game's ledger and a
/// dropped one at the `player_replaced` line of the campaign's.
#[test]
fn campaign_audit_matches_each_games_replace_key_to_the_campaigns_replacement() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = league_players();
    let rules = "kind = \"league\"\nscenarios = [\"skirmish\"]\n";
    let o = new_campaign(&home, "fc", rules, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let new_key = ed25519_dalek::SigningKey::from_bytes(&[99; 32]);
    let key_text = dustmail::crypto::public_key_text(&new_key.verifying_key());
    let o = dt::dustmail(
        &home.root,
        &[
            "campaign",
            "replace",
            "fc",
            &format!("ann=ann2@new.example:{key_text}"),
            "--now",
            dt::NOW,
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let told = last_line(&home, "fc-2");
    assert_eq!(told["by"], "campaign");
    assert_eq!(told["actions"][0]["action"], "replace_key");
    let n = log_lines(&home.root.join("campaigns/fc/log.jsonl"))
        .iter()
        .position(|l| l["kind"] == "player_replaced")
        .unwrap();
    let o = audit(&home.root.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    tampered_fails(
        &home,
        d.path(),
        "forged-key",
        "fc-2",
        |l| Some(l.replace("ann2@new.example", "eve@new.example")),
        &format!(
            "games/fc-2/log.jsonl line {}: the campaign's control `replace-key allies=eve@new.example:…` is given by no replacement of ann",
            told["seq"]
        ),
    );
    tampered_fails(
        &home,
        d.path(),
        "dropped-key",
        "fc-2",
        |_| None,
        &format!(
            "campaigns/fc/log.jsonl line {}: ann's replacement (ann2@new.example) did not reach game fc-2",
            n + 1
        ),
    );
}
