//! Issue 15 (campaigns, first landing): a four-player league and a scenario chain, created by
//! the real binary, played to their end by bots through signed mails and `run`, reported by
//! mail, shown, and verified by `campaign audit`, which names the file and line of a flipped
//! byte in the campaign ledger and in a game ledger.

use crate::support::dt::{self, Bots, InProc};
use dustmail::config::Home;
use dustmail::dust_tactics::bot::Style;
use dustmail::pbem::campaign::state::Campaign;
use ed25519_dalek::SigningKey;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// A campaign player: name, address, key.
struct Cp {
    name: &'static str,
    address: String,
    key: SigningKey,
}

fn players(names: &[&'static str]) -> Vec<Cp> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| Cp {
            name: n,
            address: format!("{n}@players.example"),
            key: SigningKey::from_bytes(&[i as u8 + 41; 32]),
        })
        .collect()
}

/// `dustmail campaign new` with a rules file.
fn new_campaign(home: &Home, id: &str, rules: &str, ps: &[Cp]) -> std::process::Output {
    let file = home.root.join(format!("{id}-rules.toml"));
    std::fs::write(&file, rules).unwrap();
    let mut args: Vec<String> = vec![
        "campaign".into(),
        "new".into(),
        "--id".into(),
        id.into(),
        "--rules".into(),
        file.display().to_string(),
        "--seed".into(),
        hex::encode([7u8; 32]),
        "--now".into(),
        dt::T0.into(),
    ];
    for p in ps {
        args.push("--player".into());
        args.push(format!(
            "{}={}:{}",
            p.name,
            p.address,
            dustmail::crypto::public_key_text(&p.key.verifying_key())
        ));
    }
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    dt::dustmail(&home.root, &a)
}

fn load(home: &Home, id: &str) -> Campaign {
    dustmail::referee::campaign::load(&home.root.join("campaigns").join(id)).unwrap()
}

/// Plays every open game of the campaign by bots, one mail per open game per `run`, until the
/// campaign is finished. Returns how many runs it took.
fn play(home: &Home, id: &str, ps: &[Cp]) -> usize {
    let env = InProc::open(home);
    let mut bots: BTreeMap<String, Bots> = BTreeMap::new();
    for runs in 0..4000 {
        let c = load(home, id);
        if c.finished {
            return runs;
        }
        for rec in c.games.iter().filter(|g| g.ended.is_none()) {
            let gid = rec.opened.game_id.clone();
            let b = bots.entry(gid.clone()).or_insert_with(|| {
                let gps: Vec<dt::Player> = rec
                    .opened
                    .sides
                    .iter()
                    .map(|(side, name)| {
                        let p = ps.iter().find(|p| p.name == name).unwrap();
                        dt::Player {
                            side: side.clone(),
                            address: p.address.clone(),
                            key: p.key.clone(),
                        }
                    })
                    .collect();
                let salt = rec.opened.number as u64;
                Bots::new(&gid, &gps, move |i| Style::Random(3 + 10 * salt + i as u64))
            });
            let g = env.load(&gid);
            if let Some((name, m)) = b.next_mail(&g) {
                std::fs::write(home.maildir().join("new").join(name), m).unwrap();
            }
        }
        let sum = env.run(dt::NOW);
        assert!(sum.broken.is_empty(), "{sum:?}");
        assert!(sum.warnings.is_empty(), "{sum:?}");
    }
    panic!("campaign {id} did not finish");
}

/// The mails delivered to sent/ whose text contains `part`.
fn sent_with(home: &Home, part: &str) -> Vec<String> {
    dt::names(&home.root.join("sent"))
        .into_iter()
        .map(|n| std::fs::read_to_string(home.root.join("sent").join(n)).unwrap_or_default())
        .filter(|t| t.contains(part))
        .collect()
}

fn audit(dir: &Path) -> std::process::Output {
    std::process::Command::new(dt::bin())
        .args(["campaign", "audit"])
        .arg(dir)
        .output()
        .unwrap()
}

/// Flips one bit of the middle byte of line `n` (1-based) of `file`.
fn flip(file: &Path, n: usize) {
    let mut data = std::fs::read(file).unwrap();
    let start: usize = data
        .split(|&b| b == b'\n')
        .take(n - 1)
        .map(|l| l.len() + 1)
        .sum();
    let len = data[start..].iter().position(|&b| b == b'\n').unwrap();
    data[start + len / 2] ^= 0x01;
    std::fs::write(file, data).unwrap();
}

/// The audit passes on `home`; on copies of it, a flipped byte in the campaign ledger and in a
/// game ledger fails it, naming the file and the line.
pub(crate) fn audit_and_tamper(home: &Home, id: &str, game: &str, root: &Path) {
    let dir = home.root.join("campaigns").join(id);
    let o = audit(&dir);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with("ok"),
        "{}",
        dt::text(&o)
    );

    let lines = std::fs::read_to_string(dir.join("log.jsonl"))
        .unwrap()
        .lines()
        .count();
    for n in [1, 3, lines] {
        let copy = root.join(format!("tampered-campaign-{id}-{n}"));
        dt::copy_tree(&home.root, &copy);
        flip(&copy.join("campaigns").join(id).join("log.jsonl"), n);
        let o = audit(&copy.join("campaigns").join(id));
        assert_eq!(o.status.code(), Some(1), "{}", dt::text(&o));
        let want = format!("campaigns/{id}/log.jsonl line {n}:");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(&want),
            "{want}\n{}",
            dt::text(&o)
        );
    }
    let glines = std::fs::read_to_string(home.game_dir(game).join("log.jsonl"))
        .unwrap()
        .lines()
        .count();
    for n in [2, 4, glines] {
        let copy = root.join(format!("tampered-game-{id}-{n}"));
        dt::copy_tree(&home.root, &copy);
        flip(&copy.join("games").join(game).join("log.jsonl"), n);
        let o = audit(&copy.join("campaigns").join(id));
        assert_eq!(o.status.code(), Some(1), "{}", dt::text(&o));
        let want = format!("games/{game}/log.jsonl line {n}:");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(&want),
            "{want}\n{}",
            dt::text(&o)
        );
    }
}

fn show_json(home: &Home, id: &str) -> Value {
    let o = dt::dustmail(&home.root, &["campaign", "show", id, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// issue 15 items 1, 2 (league), 3 and 4: a four-player league over one scenario is six games,
/// all opened by `campaign new` with the campaign in their `created` line; bots play them to the
/// end by signed mail; each end is recorded with the game's final head and result, every player
/// gets a campaign report per game, the standings add up, and `campaign audit` verifies it all
/// and names file and line of a flipped byte.
#[test]
fn a_four_player_league_is_played_to_its_end_and_audited() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players(&["ann", "bob", "cat", "dan"]);
    let rules = "kind = \"league\"\nscenarios = [\"skirmish\"]\n[scoring]\nwin = 2\ndraw = 1\n";
    let o = new_campaign(&home, "lg", rules, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let c = load(&home, "lg");
    assert_eq!(c.games.len(), 6, "every pairing of four players");
    let created = dustmail::referee::read_created(&home, "lg-1").unwrap();
    let r = created.campaign.expect("the game names its campaign");
    assert_eq!((r.id.as_str(), r.seq), ("lg", 1));

    play(&home, "lg", &ps);
    let c = load(&home, "lg");
    assert!(c.games.iter().all(|g| g.ended.is_some()));
    let v = show_json(&home, "lg");
    assert_eq!(v["finished"], true);
    let st = v["standings"].as_array().unwrap();
    assert_eq!(st.len(), 4);
    let played: u64 = st.iter().map(|s| s["played"].as_u64().unwrap()).sum();
    assert_eq!(played, 12);
    for s in st {
        assert_eq!(s["played"], 3, "{s}");
    }
    // One campaign report per ended game to each of the four players.
    assert_eq!(sent_with(&home, "[dustmail campaign lg]").len(), 6 * 4);
    let o = dt::dustmail(&home.root, &["campaign", "show", "lg"]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("Standings"),
        "{}",
        dt::text(&o)
    );

    audit_and_tamper(&home, "lg", "lg-2", d.path());
}

/// issue 15 items 1, 2 (scenario chain), 3 and 4: a chain of three scenarios opens one game at
/// a time, the next when the last ends, carrying each player's points as the rules say (from
/// the recorded results only); played by bots to its end and audited.
#[test]
fn a_scenario_chain_opens_the_next_game_when_the_last_ends_and_carries_points() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players(&["ann", "bob"]);
    let rules = "kind = \"chain\"\nscenarios = [\"skirmish\", \"skirmish\", \"skirmish\"]\n[carry_over]\npoints = true\n";
    let o = new_campaign(&home, "ch", rules, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let c = load(&home, "ch");
    assert_eq!(c.games.len(), 1, "a chain opens its first scenario only");
    assert!(!home.game_dir("ch-2").exists());

    play(&home, "ch", &ps);
    let c = load(&home, "ch");
    assert_eq!(c.games.len(), 3);
    // Each game's carried points are the points of the games before it.
    let mut so_far: BTreeMap<String, u32> =
        ["ann", "bob"].iter().map(|n| (n.to_string(), 0)).collect();
    for g in &c.games {
        assert_eq!(g.opened.carried, so_far, "{}", g.opened.game_id);
        let end = g.ended.as_ref().unwrap();
        for (side, player) in &g.opened.sides {
            *so_far.get_mut(player).unwrap() += end.result.points.get(side).copied().unwrap_or(0);
        }
        // The game was opened after the one before it ended, at the campaign head it names.
        let created = dustmail::referee::read_created(&home, &g.opened.game_id).unwrap();
        assert_eq!(created.campaign.unwrap().seq, g.line - 1);
    }
    let v = show_json(&home, "ch");
    assert_eq!(v["finished"], true);
    let pts: BTreeMap<String, u32> = serde_json::from_value(v["carried"].clone()).unwrap();
    assert_eq!(pts, so_far);
    assert_eq!(sent_with(&home, "[dustmail campaign ch]").len(), 3 * 2);
    // issue 15 item 3: the report of the first game's end, to each player, has the standings,
    // what carried over and what opens next (the same run opened ch-2: it says so, and not
    // merely that ch-2 is in play); the last game's report says the campaign is over.
    for p in ["ann", "bob"] {
        let t = crate::campaign_forces::sent_text(&home, &format!("ch-campaign-ch-1-{p}"))
            .expect("the report of ch-1's end to each player");
        let t = crate::support::flat(&t);
        for want in [
            "Game ch-1 (skirmish) has ended",
            "Standings",
            "Carried over",
            "ch-2 skirmish allies: ann axis: bob in play",
            "Opened next, now in play: game ch-2: skirmish (allies: ann, axis: bob)",
        ] {
            assert!(t.contains(want), "{want}: {t}");
        }
        assert!(!t.contains("In play: ch-2"), "{t}");
        assert!(
            !t.contains("game ch-3"),
            "ch-3 opened after ch-2's end: {t}"
        );
        let t = crate::campaign_forces::sent_text(&home, &format!("ch-campaign-ch-2-{p}"))
            .expect("the report of ch-2's end to each player");
        let t = crate::support::flat(&t);
        assert!(
            t.contains("Opened next, now in play: game ch-3: skirmish (allies: ann, axis: bob)"),
            "{t}"
        );
        let t = crate::campaign_forces::sent_text(&home, &format!("ch-campaign-ch-3-{p}"))
            .expect("the report of ch-3's end to each player");
        let t = crate::support::flat(&t);
        assert!(
            t.contains("The campaign is over: every game of its rules has been played."),
            "{t}"
        );
        assert!(!t.contains("Opened next"), "{t}");
    }
    // `campaign show` as an HTML page.
    let o = dt::dustmail(&home.root, &["campaign", "show", "ch", "--format", "html"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let html = String::from_utf8_lossy(&o.stdout);
    for want in [
        "<html",
        "<h2>Standings</h2>",
        "<h2>Carried over</h2>",
        "ch-3",
    ] {
        assert!(html.contains(want), "{want}: {html}");
    }

    audit_and_tamper(&home, "ch", "ch-2", d.path());

    // The referee (who holds the key) rewrites the carried points of the third game and signs
    // the whole ledger again: every line verifies, but the value does not follow from the
    // recorded results, and the audit names that line.
    let copy = d.path().join("forged-carry");
    dt::copy_tree(&home.root, &copy);
    let log = copy.join("campaigns/ch/log.jsonl");
    let mut lines: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let third = c.games[2].line as usize;
    assert_eq!(lines[third - 1]["game_id"], "ch-3");
    lines[third - 1]["carried"]["ann"] = Value::from(so_far_before_third(&c) + 5);
    std::fs::write(&log, resign(lines, &home)).unwrap();
    let o = audit(&copy.join("campaigns/ch"));
    assert_eq!(o.status.code(), Some(1), "{}", dt::text(&o));
    let want = format!("campaigns/ch/log.jsonl line {third}: the carried-over points");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&want),
        "{want}\n{}",
        dt::text(&o)
    );
}

/// Ann's points from the first two games of the chain, as recorded.
fn so_far_before_third(c: &Campaign) -> u32 {
    c.games[..2]
        .iter()
        .map(|g| {
            let end = g.ended.as_ref().unwrap();
            g.opened
                .sides
                .iter()
                .filter(|(_, p)| *p == "ann")
                .map(|(side, _)| end.result.points.get(side).copied().unwrap_or(0))
                .sum::<u32>()
        })
        .sum()
}

/// Lines re-chained and re-signed with the home's referee key (as a dishonest referee could).
pub(crate) fn resign(lines: Vec<Value>, home: &Home) -> String {
    let key = dustmail::crypto::read_secret_key(&home.key_path()).unwrap();
    let mut prev = dustmail::ledger::ZERO_HASH.to_string();
    let mut out = String::new();
    for mut v in lines {
        v["prev"] = Value::from(prev.clone());
        v.as_object_mut().unwrap().remove("referee_sig");
        let mut line = v.to_string();
        let sig = dustmail::crypto::sign_text(&key, &dustmail::ledger::line_sig_text(&line));
        line.pop();
        line.push_str(&format!(",\"referee_sig\":\"{sig}\"}}"));
        prev = dustmail::ledger::sha256_hex(line.as_bytes());
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// issue 15 item 1: a bad rules file gets a clear answer and changes nothing.
#[test]
fn a_bad_campaign_rules_file_is_refused_and_creates_nothing() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players(&["ann", "bob"]);
    let o = new_campaign(
        &home,
        "bad",
        "kind = \"league\"\nscenarios = [\"nowhere\"]\n",
        &ps,
    );
    assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("nowhere"),
        "{}",
        dt::text(&o)
    );
    assert!(!home.root.join("campaigns").join("bad").exists());
    let o = new_campaign(
        &home,
        "bad",
        "kind = \"chain\"\nscenarios = [\"skirmish\"]\n",
        &players(&["a", "b", "c"]),
    );
    assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("two players"),
        "{}",
        dt::text(&o)
    );
    assert!(dt::names(&home.games()).is_empty());
}

/// issue 15 item 1: a run that died after creating a campaign's game but before its
/// `game_opened` line: the next run finds the game, checks that it names this campaign at this
/// head, and records it, so the campaign ledger ends as if nothing had happened.
#[test]
fn a_game_opened_but_not_recorded_is_recorded_by_the_next_run() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players(&["ann", "bob"]);
    let o = new_campaign(
        &home,
        "cr",
        "kind = \"chain\"\nscenarios = [\"skirmish\"]\n",
        &ps,
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let log = home.root.join("campaigns/cr/log.jsonl");
    let whole = std::fs::read_to_string(&log).unwrap();
    assert_eq!(whole.lines().count(), 2);
    let first = format!("{}\n", whole.lines().next().unwrap());
    std::fs::write(&log, &first).unwrap();

    let o = dt::dustmail(&home.root, &["run", "--once", "--now", dt::NOW]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let again = std::fs::read_to_string(&log).unwrap();
    let (a, b): (Value, Value) = (
        serde_json::from_str(whole.lines().nth(1).unwrap()).unwrap(),
        serde_json::from_str(again.lines().nth(1).unwrap()).unwrap(),
    );
    // The same line but for its time (`at`, the run's clock) and so its signature.
    let strip = |mut v: Value| {
        let m = v.as_object_mut().unwrap();
        m.remove("at");
        m.remove("referee_sig");
        v
    };
    assert_eq!(strip(a), strip(b));
    assert_eq!(dt::names(&home.games()), vec!["cr-1".to_string()]);
    let o = audit(&home.root.join("campaigns/cr"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}
