//! Issue 15 item 2 (scenario chain, second landing): forces chosen by signed mail within the
//! campaign's AP allowance, sealed until both are in, and carry-over of the units destroyed in
//! earlier games, played through the real pipeline by scripted players and checked by
//! `campaign audit`.

use crate::support::dt::{self, Bots, InProc};
use dustmail::config::Home;
use dustmail::dust_tactics::bot::Style;
use dustmail::pbem::campaign::state::Campaign;
use ed25519_dalek::SigningKey;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

pub(crate) struct Cp {
    pub(crate) name: &'static str,
    pub(crate) side: &'static str,
    pub(crate) address: String,
    pub(crate) key: SigningKey,
}

pub(crate) fn players() -> Vec<Cp> {
    [("ann", "allies"), ("bob", "axis")]
        .iter()
        .enumerate()
        .map(|(i, (n, s))| Cp {
            name: n,
            side: s,
            address: format!("{n}@players.example"),
            key: SigningKey::from_bytes(&[i as u8 + 61; 32]),
        })
        .collect()
}

/// A four-game chain: each force at most 6 AP from a roster of six units a side; destroyed
/// units are lost for good, heroes come back.
pub(crate) const RULES: &str = r#"kind = "chain"
scenarios = ["skirmish", "skirmish", "skirmish", "skirmish"]
[carry_over]
points = true
units = true
heroes = false
[forces]
ap = 6
[forces.roster.allies]
brown = "joseph-brown"
rangers = "recon-rangers"
combat = "combat-rangers"
assault = "assault-rangers"
pounder = "m2c-pounder"
hotdog = "m2b-hot-dog"
[forces.roster.axis]
sigrid = "sigrid-von-thaler"
battle = "battle-grenadiers"
laser = "laser-grenadiers"
recon = "recon-grenadiers"
ludwig = "ludwig"
luther = "luther"
"#;

pub(crate) fn new_campaign(home: &Home, id: &str, rules: &str, ps: &[Cp]) -> std::process::Output {
    let file = home.root.join(format!("{id}-rules.toml"));
    std::fs::write(&file, rules).unwrap();
    let mut args: Vec<String> = [
        "campaign",
        "new",
        "--id",
        id,
        "--rules",
        &file.display().to_string(),
        "--seed",
        &hex::encode([9u8; 32]),
        "--now",
        dt::T0,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
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

pub(crate) fn load(home: &Home, id: &str) -> Campaign {
    dustmail::referee::campaign::load(&home.root.join("campaigns").join(id)).unwrap()
}

/// The text part of the delivered mail `sent/<id>.eml`.
pub(crate) fn sent_text(home: &Home, id: &str) -> Option<String> {
    let raw = std::fs::read(home.root.join("sent").join(format!("{id}.eml"))).ok()?;
    let m = mail_parser::MessageParser::default().parse(&raw)?;
    Some(m.body_text(0)?.into_owned())
}

/// The force request mailed for side `side` of game `gid` (its id ends with the player's key).
pub(crate) fn request(home: &Home, gid: &str, side: &str) -> Option<String> {
    let prefix = format!("{gid}-force-request-{side}-");
    let name = dt::names(&home.root.join("sent"))
        .into_iter()
        .find(|n| n.starts_with(&prefix))?;
    sent_text(home, name.trim_end_matches(".eml"))
}

/// Every delivered mail to `address`: (id, text).
pub(crate) fn mails_to(home: &Home, address: &str) -> Vec<(String, String)> {
    dt::names(&home.root.join("sent"))
        .into_iter()
        .filter_map(|n| {
            let raw = std::fs::read(home.root.join("sent").join(&n)).ok()?;
            let m = mail_parser::MessageParser::default().parse(&raw)?;
            let to = m.to()?.first()?.address()?.to_string();
            (to == address).then(|| (n, m.body_text(0).unwrap_or_default().into_owned()))
        })
        .collect()
}

/// What a scripted player sends back: the request mail's template (from its `game:` line), with
/// `field` lines kept in order while they fit the allowance (the AP read from their comments).
pub(crate) fn choose_from_template(text: &str, ap: u32) -> String {
    let start = text.find("game: ").expect("the request carries a template");
    let mut out = String::new();
    let mut total = 0;
    for line in text[start..].lines() {
        if let Some(rest) = line.strip_prefix("field ") {
            let cost: u32 = rest
                .rsplit(", ")
                .next()
                .and_then(|s| s.trim().strip_suffix(" AP"))
                .unwrap()
                .parse()
                .unwrap();
            if total + cost > ap {
                continue;
            }
            total += cost;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

pub(crate) fn drop_mail(home: &Home, name: &str, m: String) {
    std::fs::write(home.maildir().join("new").join(name), m).unwrap();
}

pub(crate) fn audit(dir: &Path) -> std::process::Output {
    std::process::Command::new(dt::bin())
        .args(["campaign", "audit"])
        .arg(dir)
        .output()
        .unwrap()
}

/// Lines re-chained and re-signed with the home's referee key (as a dishonest referee could),
/// from the first line that differs from `raw` (the lines before it are kept byte for byte, so
/// the games opened before it still name their heads).
pub(crate) fn resign(lines: Vec<Value>, raw: &[String], home: &Home) -> String {
    let key = dustmail::crypto::read_secret_key(&home.key_path()).unwrap();
    let same = raw
        .iter()
        .zip(&lines)
        .take_while(|(r, v)| serde_json::from_str::<Value>(r).unwrap() == **v)
        .count();
    let mut out: String = raw[..same].iter().map(|l| format!("{l}\n")).collect();
    let mut prev = match same {
        0 => dustmail::ledger::ZERO_HASH.to_string(),
        n => dustmail::ledger::sha256_hex(raw[n - 1].as_bytes()),
    };
    for mut v in lines.into_iter().skip(same) {
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

pub(crate) fn log_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The audit of a copy of `home` whose campaign ledger `edit` changed (re-signed) fails,
/// naming `want`.
pub(crate) fn forged_fails(
    home: &Home,
    root: &Path,
    tag: &str,
    edit: impl Fn(&mut Vec<Value>),
    want: &str,
) {
    let copy = root.join(format!("forged-{tag}"));
    dt::copy_tree(&home.root, &copy);
    let log = copy.join("campaigns/fc/log.jsonl");
    let raw: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let mut lines = log_lines(&log);
    edit(&mut lines);
    std::fs::write(&log, resign(lines, &raw, home)).unwrap();
    let o = audit(&copy.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(1), "{}", dt::text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(want),
        "{want}\n{}",
        dt::text(&o)
    );
}

/// issue 15 item 2 (forces by mail, carry-over of units and heroes) and item 4: a four-game
/// chain played to its end by scripted players. Before each game each player gets a mail
/// asking for a force, sends back its template signed (cut to the 6 AP allowance), and the
/// game opens with both forces once both are in; bad choices (unknown unit, over the AP, a
/// unit lost earlier) are refused naming the line and change nothing; units destroyed in one
/// game are never offered or accepted later; `campaign audit` passes, and catches a flipped
/// byte in a force line, a forged force and forged losses.
#[test]
fn a_four_game_chain_with_forces_by_mail_and_units_carried_over() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players();
    let o = new_campaign(&home, "fc", RULES, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    // The first game waits for both forces; each player was asked for one.
    assert!(!home.game_dir("fc-1").exists());
    let env = InProc::open(&home);
    env.run(dt::NOW);

    let mut bots: BTreeMap<String, Bots> = BTreeMap::new();
    let mut refused_lost = false;
    let mut n = 0;
    for _ in 0..3000 {
        let c = load(&home, "fc");
        if c.finished {
            break;
        }
        if let Some(p) = c.awaiting_forces() {
            let gid = format!("fc-{}", p.number);
            let chosen = c.chosen(p.number);
            let Some(cp) = ps.iter().find(|cp| !chosen.contains_key(cp.side)) else {
                panic!("both forces in but {gid} did not open");
            };
            let req = request(&home, &gid, cp.side).expect("the player was asked for a force");
            // Sealed: before the game opens, nothing the other player mailed is shown.
            let other = ps.iter().find(|q| q.side != cp.side).unwrap();
            if let Some(f) = chosen.get(other.side) {
                for (_, text) in mails_to(&home, &cp.address) {
                    for u in &f.units {
                        assert!(!text.contains(&format!("field {}", u.id)), "{text}");
                    }
                }
            }
            // A unit lost for good is not offered; sending it is refused, naming the line.
            let lost = c.lost_for_good(cp.side);
            for u in lost.keys() {
                assert!(!req.contains(&format!("field {u} ")), "{req}");
            }
            let before = std::fs::read(home.root.join("campaigns/fc/log.jsonl")).unwrap();
            let bad: Vec<(String, &str)> = [
                (
                    "field nobody\n".to_string(),
                    "Line 5 of your force choice for game",
                ),
                (
                    format!(
                        "field {}\n",
                        c.available(cp.side)
                            .keys()
                            .cloned()
                            .collect::<Vec<_>>()
                            .join("\nfield ")
                    ),
                    "over the campaign's allowance of 6 AP",
                ),
            ]
            .into_iter()
            .chain(lost.keys().next().map(|u| {
                refused_lost = true;
                (format!("field {u}\n"), "was destroyed in game")
            }))
            .collect();
            for (i, (cmds, want)) in bad.iter().enumerate() {
                n += 1;
                drop_mail(
                    &home,
                    &format!("{gid}-bad-{n}.eml"),
                    dt::mail(
                        &cp.address,
                        &format!("{gid}-bad-{n}@p"),
                        &cp.key,
                        &dt::orders(&gid, cp.side, 1, cmds),
                    ),
                );
                env.run(dt::NOW);
                let got: Vec<String> = mails_to(&home, &cp.address)
                    .into_iter()
                    .filter(|(name, _)| {
                        name.starts_with(&format!("{gid}-force-{}-refused", cp.side))
                    })
                    .map(|(_, t)| crate::support::flat(&t))
                    .collect();
                assert!(
                    got.iter().any(|t| t.contains(want)),
                    "refusal {i} {want:?}: {got:?}"
                );
                assert_eq!(
                    std::fs::read(home.root.join("campaigns/fc/log.jsonl")).unwrap(),
                    before,
                    "a refused choice changes nothing"
                );
            }
            let choice = choose_from_template(&req, 6);
            n += 1;
            drop_mail(
                &home,
                &format!("{gid}-force-{n}.eml"),
                dt::mail(&cp.address, &format!("{gid}-f{n}@p"), &cp.key, &choice),
            );
            env.run(dt::NOW);
            let got = sent_text(&home, &format!("{gid}-force-{}", cp.side)).unwrap();
            assert!(got.contains("is recorded"), "{got}");
            continue;
        }
        for rec in c.games.iter().filter(|g| g.ended.is_none()) {
            let gid = rec.opened.game_id.clone();
            let b = bots.entry(gid.clone()).or_insert_with(|| {
                let gps: Vec<dt::Player> = ps
                    .iter()
                    .map(|p| dt::Player {
                        side: p.side.to_string(),
                        address: p.address.clone(),
                        key: p.key.clone(),
                    })
                    .collect();
                let salt = rec.opened.number as u64;
                Bots::new(&gid, &gps, move |i| Style::Random(5 + 10 * salt + i as u64))
            });
            let g = env.load(&gid);
            if let Some((name, m)) = b.next_mail(&g) {
                drop_mail(&home, &name, m);
            }
        }
        let sum = env.run(dt::NOW);
        assert!(sum.broken.is_empty(), "{sum:?}");
        assert!(sum.warnings.is_empty(), "{sum:?}");
    }
    let c = load(&home, "fc");
    assert!(c.finished, "the campaign was played to its end");
    assert_eq!(c.games.len(), 4);

    // Each game fielded the forces chosen, within 6 AP, none lost for good before it; the game
    // itself has exactly those units.
    let mut gone: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut any_lost = false;
    for g in &c.games {
        assert_eq!(g.opened.forces.len(), 2, "{}", g.opened.game_id);
        let created = dustmail::referee::read_created(&home, &g.opened.game_id).unwrap();
        for (side, units) in &g.opened.forces {
            let ap: u32 = units.iter().map(|u| c.unit_ap(&u.card)).sum();
            assert!(ap <= 6 && !units.is_empty(), "{units:?}");
            for u in units {
                assert!(
                    !gone.get(side).is_some_and(|s| s.contains(&u.id)),
                    "{} fields {} lost earlier",
                    g.opened.game_id,
                    u.id
                );
                assert!(created
                    .setup
                    .scenario
                    .contains(&format!("id = \"{}\"", u.id)));
            }
        }
        for (side, ids) in &g.ended.as_ref().unwrap().lost {
            for id in ids {
                any_lost = true;
                let hero = c.created.force_cards[&c.roster(side)[id]].hero;
                if !hero {
                    gone.entry(side.clone()).or_default().insert(id.clone());
                }
            }
        }
    }
    assert!(
        any_lost,
        "the bots destroyed units: carry-over was exercised"
    );
    assert!(refused_lost, "a lost unit was sent and refused");

    // The campaign report and `campaign show` say what each side fielded and lost.
    let o = dt::dustmail(&home.root, &["campaign", "show", "fc"]);
    let shown = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(shown.contains("Forces (at most 6 AP a game)"), "{shown}");
    assert!(shown.contains("allies fielded: "), "{shown}");
    assert!(shown.contains("lost for good: "), "{shown}");
    let report = sent_text(&home, "fc-campaign-fc-4-ann").unwrap();
    assert!(report.contains("axis fielded: "), "{report}");

    // issue 15 item 3: the campaign page links each ended game's replay page, written beside
    // it; every link resolves to a file that is that game's replay page.
    let pages = d.path().join("pages");
    let o = dt::dustmail(
        &home.root,
        &[
            "campaign",
            "page",
            "fc",
            "--dir",
            &pages.display().to_string(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let index = std::fs::read_to_string(pages.join("index.html")).unwrap();
    assert!(index.contains("Standings"), "{index}");
    let links: Vec<&str> = index
        .split("href=\"")
        .skip(1)
        .map(|r| &r[..r.find('"').unwrap()])
        .collect();
    assert_eq!(links, ["fc-1.html", "fc-2.html", "fc-3.html", "fc-4.html"]);
    for l in links {
        let page = std::fs::read_to_string(pages.join(l)).unwrap();
        let gid = l.trim_end_matches(".html");
        assert!(page.contains("<html") && page.contains(gid), "{l}");
    }

    let dir = home.root.join("campaigns/fc");
    let o = audit(&dir);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));

    // A flipped byte in a force line is named at its line.
    let lines = log_lines(&dir.join("log.jsonl"));
    let force_line = lines
        .iter()
        .position(|l| l["kind"] == "force_chosen")
        .unwrap()
        + 1;
    let copy = d.path().join("flipped-force");
    dt::copy_tree(&home.root, &copy);
    let log = copy.join("campaigns/fc/log.jsonl");
    let mut data = std::fs::read(&log).unwrap();
    let start: usize = data
        .split(|&b| b == b'\n')
        .take(force_line - 1)
        .map(|l| l.len() + 1)
        .sum();
    data[start + 40] ^= 0x01;
    std::fs::write(&log, data).unwrap();
    let o = audit(&copy.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(1), "{}", dt::text(&o));
    let want = format!("campaigns/fc/log.jsonl line {force_line}:");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&want),
        "{}",
        dt::text(&o)
    );

    // The referee re-signs a ledger where a force's units are not what the player signed.
    forged_fails(
        &home,
        d.path(),
        "units",
        |l| {
            let i = force_line - 1;
            l[i]["units"].as_array_mut().unwrap().pop();
            l[i]["ap"] = Value::from(0);
        },
        &format!("campaigns/fc/log.jsonl line {force_line}:"),
    );
    // … or where a game's recorded losses are not what its final state says.
    let ended = lines
        .iter()
        .position(|v| v["kind"] == "game_ended" && v.get("lost").is_some())
        .unwrap();
    forged_fails(
        &home,
        d.path(),
        "lost",
        |l| {
            l[ended].as_object_mut().unwrap().remove("lost");
        },
        &format!("campaigns/fc/log.jsonl line {}:", ended + 1),
    );
}

/// One bot mail for every open game of the campaign (players as `ps` has them now), then a run.
fn bot_round(env: &InProc, c: &Campaign, ps: &[Cp], bots: &mut BTreeMap<String, Bots>) {
    for rec in c.games.iter().filter(|g| g.ended.is_none()) {
        let gid = rec.opened.game_id.clone();
        let b = bots.entry(gid.clone()).or_insert_with(|| {
            let gps: Vec<dt::Player> = ps
                .iter()
                .map(|p| dt::Player {
                    side: p.side.to_string(),
                    address: p.address.clone(),
                    key: p.key.clone(),
                })
                .collect();
            let salt = rec.opened.number as u64;
            Bots::new(&gid, &gps, move |i| Style::Random(7 + 10 * salt + i as u64))
        });
        let g = env.load(&gid);
        if let Some((name, m)) = b.next_mail(&g) {
            drop_mail(&env.home, &name, m);
        }
    }
    let sum = env.run(dt::NOW);
    assert!(sum.broken.is_empty(), "{sum:?}");
    assert!(sum.warnings.is_empty(), "{sum:?}");
}

/// issue 15 item 5: a player replaced in the campaign (`campaign replace`) is replaced in its
/// open game by a `replace-key` control, plays on there with the new key, and the next game
/// the campaign opens is created with the new address and key; the campaign's mails go to the
/// new address, and `campaign audit` passes. An unknown name is refused and changes nothing.
#[test]
fn a_player_replaced_in_the_campaign_is_replaced_in_its_open_games() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let mut ps = players();
    let rules = "kind = \"chain\"\nscenarios = [\"skirmish\", \"skirmish\"]\n";
    let o = new_campaign(&home, "rp", rules, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = InProc::open(&home);
    let mut bots: BTreeMap<String, Bots> = BTreeMap::new();
    for _ in 0..3 {
        bot_round(&env, &load(&home, "rp"), &ps, &mut bots);
    }
    assert!(
        load(&home, "rp").games[0].ended.is_none(),
        "rp-1 is still open"
    );

    let log = home.root.join("campaigns/rp/log.jsonl");
    let before = std::fs::read(&log).unwrap();
    let new_key = SigningKey::from_bytes(&[99; 32]);
    let key_text = dustmail::crypto::public_key_text(&new_key.verifying_key());
    let o = dt::dustmail(
        &home.root,
        &[
            "campaign",
            "replace",
            "rp",
            &format!("nobody=x@new.example:{key_text}"),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no player `nobody`"),
        "{}",
        dt::text(&o)
    );
    assert_eq!(
        std::fs::read(&log).unwrap(),
        before,
        "a refusal changes nothing"
    );

    let o = dt::dustmail(
        &home.root,
        &[
            "campaign",
            "replace",
            "rp",
            &format!("ann=ann2@new.example:{key_text}"),
            "--now",
            dt::NOW,
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("rp-1"),
        "{}",
        dt::text(&o)
    );
    let game_log = std::fs::read_to_string(dt::log_path(&home, "rp-1")).unwrap();
    assert!(
        game_log.contains("replace_key"),
        "rp-1 got a replace-key control"
    );
    // Run again (as after a crash): nothing more is recorded.
    let once = std::fs::read(&log).unwrap();
    let o = dt::dustmail(
        &home.root,
        &[
            "campaign",
            "replace",
            "rp",
            &format!("ann=ann2@new.example:{key_text}"),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert_eq!(std::fs::read(&log).unwrap(), once);
    assert_eq!(
        std::fs::read_to_string(dt::log_path(&home, "rp-1")).unwrap(),
        game_log
    );

    ps[0].address = "ann2@new.example".into();
    ps[0].key = new_key.clone();
    bots.clear();
    for _ in 0..2000 {
        let c = load(&home, "rp");
        if c.finished {
            break;
        }
        bot_round(&env, &c, &ps, &mut bots);
    }
    let c = load(&home, "rp");
    assert!(c.finished, "played to its end with the new key");
    let created = dustmail::referee::read_created(&home, "rp-2").unwrap();
    let allies = created.players.iter().find(|p| p.side == "allies").unwrap();
    assert_eq!(allies.address, "ann2@new.example");
    assert!(dustmail::pbem::keys::same_key(
        &allies.public_key,
        &key_text
    ));
    let to_new: Vec<String> = mails_to(&home, "ann2@new.example")
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert!(
        to_new.contains(&"rp-campaign-rp-2-ann.eml".to_string()),
        "{to_new:?}"
    );
    let o = audit(&home.root.join("campaigns/rp"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

/// issue 15 item 5 (deadlines apply to the force choice): with `[forces] deadline_hours = 24`,
/// a player who has not chosen a day after the game became due gets the default force (their
/// available units in order while they fit), recorded by the referee and told by mail, and the
/// game opens; not a minute before. `campaign audit` passes, and a default recorded before the
/// deadline (a referee re-signing the ledger) is named at its line.
#[test]
fn a_force_not_chosen_by_the_deadline_is_the_default_force() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players();
    let rules = RULES
        .replace(
            "\"skirmish\", \"skirmish\", \"skirmish\", \"skirmish\"",
            "\"skirmish\"",
        )
        .replace("ap = 6\n", "ap = 6\ndeadline_hours = 24\n");
    let o = new_campaign(&home, "fc", &rules, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = InProc::open(&home);
    env.run(dt::NOW);
    let req = request(&home, "fc-1", "axis").unwrap();
    assert!(
        crate::support::flat(&req).contains("Deadline: 2026-03-02T09:00:00+00:00"),
        "{req}"
    );
    // Ann chooses; Bob says nothing.
    drop_mail(
        &home,
        "ann-force.eml",
        dt::mail(
            &ps[0].address,
            "ann-force@p",
            &ps[0].key,
            &dt::orders("fc-1", "allies", 1, "field pounder\nfield rangers"),
        ),
    );
    env.run("2026-03-02T08:59:00Z");
    assert!(!home.game_dir("fc-1").exists(), "not before the deadline");
    env.run("2026-03-02T09:00:00Z");
    let c = load(&home, "fc");
    assert_eq!(c.games.len(), 1, "the game opened at the deadline");
    let axis: Vec<&str> = c.games[0].opened.forces["axis"]
        .iter()
        .map(|u| u.id.as_str())
        .collect();
    // battle (2), laser (2), ludwig (4: over 6), luther (4: over), recon (2) → 6 AP.
    assert_eq!(axis, ["battle", "laser", "recon"]);
    let told = sent_text(&home, "fc-1-force-axis").unwrap();
    assert!(
        crate::support::flat(&told).contains("default force"),
        "{told}"
    );

    let o = audit(&home.root.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let lines = log_lines(&home.root.join("campaigns/fc/log.jsonl"));
    let n = lines
        .iter()
        .position(|l| l["kind"] == "force_chosen" && l["default"] == true)
        .unwrap();
    forged_fails(
        &home,
        d.path(),
        "early-default",
        |l| l[n]["at"] = Value::from("2026-03-02T08:00:00+00:00"),
        &format!("campaigns/fc/log.jsonl line {}: a default force", n + 1),
    );
}

/// A mail sink that loses the run's last batch, as a crash between the campaign's ledger lines
/// and the run's final commit would: everything the run staged after its last commit is gone.
struct CutAtCommit<'a>(&'a dustmail::outbox::Outbox);

impl dustmail::referee::MailSink for CutAtCommit<'_> {
    fn queue(
        &self,
        id: &str,
        mail: &dustmail::outbox::Mail,
        date: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), String> {
        dustmail::referee::MailSink::queue(self.0, id, mail, date)
    }
    fn begin_batch(&self) -> Result<bool, String> {
        dustmail::referee::MailSink::begin_batch(self.0)
    }
    fn commit_batch(&self, last: bool) -> Result<(), String> {
        if last {
            return Err("the power went out".into());
        }
        dustmail::referee::MailSink::commit_batch(self.0, last)
    }
}

/// issue 15 (the campaign report after a crash): every step of a chain's first game is run by
/// a run that dies at its final commit, then by the recovery run. The run that ended the game
/// recorded the end in the campaign ledger (and opened the next game) but its staged campaign
/// reports were lost: the recovery run sends them, once.
#[test]
fn the_campaign_report_lost_in_a_crash_is_sent_by_the_next_run() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players();
    let rules = "kind = \"chain\"\nscenarios = [\"skirmish\", \"skirmish\"]\n";
    let o = new_campaign(&home, "cr", rules, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = InProc::open(&home);
    env.run(dt::NOW);
    let mut bots: BTreeMap<String, Bots> = BTreeMap::new();
    let cut = CutAtCommit(&env.outbox);
    for _ in 0..2000 {
        let c = load(&home, "cr");
        if c.games[0].ended.is_some() {
            break;
        }
        let b = bots.entry("cr-1".into()).or_insert_with(|| {
            let gps: Vec<dt::Player> = ps
                .iter()
                .map(|p| dt::Player {
                    side: p.side.to_string(),
                    address: p.address.clone(),
                    key: p.key.clone(),
                })
                .collect();
            Bots::new("cr-1", &gps, |i| Style::Random(3 + i as u64))
        });
        if let Some((name, m)) = b.next_mail(&env.load("cr-1")) {
            drop_mail(&home, &name, m);
        }
        let mut ctx = env.ctx(dt::NOW);
        ctx.sink = &cut;
        assert!(dustmail::referee::run(&ctx, &home.maildir()).is_err());
        if load(&home, "cr").games[0].ended.is_some() {
            break;
        }
        let sum = env.run(dt::NOW);
        assert!(sum.broken.is_empty(), "{sum:?}");
    }
    let c = load(&home, "cr");
    assert!(
        c.games[0].ended.is_some(),
        "the crashed run recorded the end"
    );
    assert_eq!(c.games.len(), 2, "and opened the next game");
    let report = |p: &str| {
        home.root
            .join("sent")
            .join(format!("cr-campaign-cr-1-{p}.eml"))
    };
    assert!(!report("ann").exists(), "the crash lost the report");

    let sum = env.run(dt::NOW);
    assert!(sum.broken.is_empty(), "{sum:?}");
    for p in ["ann", "bob"] {
        assert!(
            report(p).exists(),
            "{p}'s campaign report is sent after the crash"
        );
    }
    let once = dt::names(&home.root.join("sent"));
    env.run(dt::NOW);
    assert_eq!(dt::names(&home.root.join("sent")), once, "and only once");
    let o = audit(&home.root.join("campaigns/cr"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

/// issue 15 item 2 (a crash while a game opens): the run that records the second force choice
/// and opens the game dies before its commit, so the choice's mail is still in maildir/new.
/// The next run finds the choice already recorded: it sends its receipt and does not hand the
/// block to the now open game as orders (the game's ledger has no submission).
#[test]
fn a_force_choice_processed_again_after_a_crash_does_not_reach_the_opened_game() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players();
    let rules = RULES.replace(
        "\"skirmish\", \"skirmish\", \"skirmish\", \"skirmish\"",
        "\"skirmish\"",
    );
    let o = new_campaign(&home, "fc", &rules, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = InProc::open(&home);
    for (i, (cp, cmds)) in [(&ps[0], "field pounder"), (&ps[1], "field ludwig")]
        .into_iter()
        .enumerate()
    {
        drop_mail(
            &home,
            &format!("force-{i}.eml"),
            dt::mail(
                &cp.address,
                &format!("force-{i}@p"),
                &cp.key,
                &dt::orders("fc-1", cp.side, 1, cmds),
            ),
        );
    }
    let cut = CutAtCommit(&env.outbox);
    let mut ctx = env.ctx(dt::NOW);
    ctx.sink = &cut;
    assert!(dustmail::referee::run(&ctx, &home.maildir()).is_err());
    assert_eq!(
        load(&home, "fc").games.len(),
        1,
        "the crashed run opened the game"
    );
    assert_eq!(dt::names(&home.maildir().join("new")).len(), 2);

    let sum = env.run(dt::NOW);
    assert!(sum.broken.is_empty(), "{sum:?}");
    assert!(
        sum.warnings
            .iter()
            .all(|w| w.starts_with("the previous run was interrupted")),
        "{sum:?}"
    );
    assert_eq!(sum.deduplicated, 2, "{sum:?}");
    assert!(dt::names(&home.maildir().join("new")).is_empty());
    assert!(
        dt::submissions(&home, "fc-1").is_empty(),
        "{:?}",
        dt::submissions(&home, "fc-1")
    );
    for side in ["allies", "axis"] {
        let r = sent_text(&home, &format!("fc-1-force-{side}")).unwrap();
        assert!(r.contains("is recorded"), "{r}");
    }
    let o = audit(&home.root.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

/// issue 15 item 5 (replacement while forces are awaited): a player replaced before choosing
/// gets a request of their own at the new address, and only the new key's choice is recorded.
#[test]
fn a_player_replaced_while_forces_are_awaited_chooses_with_the_new_key() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players();
    let rules = RULES.replace(
        "\"skirmish\", \"skirmish\", \"skirmish\", \"skirmish\"",
        "\"skirmish\"",
    );
    let o = new_campaign(&home, "fc", &rules, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = InProc::open(&home);
    env.run(dt::NOW);
    let new_key = SigningKey::from_bytes(&[98; 32]);
    let key_text = dustmail::crypto::public_key_text(&new_key.verifying_key());
    let o = dt::dustmail(
        &home.root,
        &[
            "campaign",
            "replace",
            "fc",
            &format!("bob=bob2@new.example:{key_text}"),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    env.run(dt::NOW);
    let asked: Vec<String> = mails_to(&home, "bob2@new.example")
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert!(
        asked
            .iter()
            .any(|n| n.starts_with("fc-1-force-request-axis-")),
        "{asked:?}"
    );
    let log = home.root.join("campaigns/fc/log.jsonl");
    let before = std::fs::read(&log).unwrap();
    let choice = dt::orders("fc-1", "axis", 1, "field ludwig");
    drop_mail(
        &home,
        "old.eml",
        dt::mail(&ps[1].address, "old@p", &ps[1].key, &choice),
    );
    env.run(dt::NOW);
    assert_eq!(
        std::fs::read(&log).unwrap(),
        before,
        "the old key is no one's now"
    );
    drop_mail(
        &home,
        "new.eml",
        dt::mail("bob2@new.example", "new@p", &new_key, &choice),
    );
    env.run(dt::NOW);
    let c = load(&home, "fc");
    assert_eq!(c.chosen(1)["axis"].player, "bob");
    let o = audit(&home.root.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}
