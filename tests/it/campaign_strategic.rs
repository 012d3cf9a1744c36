//! Issue 15 item 2, the third kind of campaign: a strategic campaign is one `dust-strategy`
//! game whose land battles between players are fought as `dust-tactics` games by mail. Created
//! by the real binary, played by scripted players through signed mails and `run` (the strategy
//! game's sample player for the map, the Dust Tactics bots on the table), shown, and verified by
//! `campaign audit`.

use crate::support::dt::{self, Bots, InProc};
use dustmail::config::Home;
use dustmail::dust_tactics::bot::Style;
use dustmail::pbem::campaign::state::{Campaign, GameRecord};
use ed25519_dalek::SigningKey;
use std::collections::BTreeMap;

pub(crate) const RULES: &str = r#"kind = "strategic"
game = "dust-strategy"
scenarios = ["world"]
sides = ["red", "blue"]
[strategic]
tactical = "all"
scenario = "skirmish"
"#;

pub(crate) struct Cp {
    pub name: &'static str,
    pub colour: &'static str,
    pub address: String,
    pub key: SigningKey,
}

pub(crate) fn players() -> Vec<Cp> {
    [("ann", "red"), ("bob", "blue")]
        .iter()
        .enumerate()
        .map(|(i, (n, c))| Cp {
            name: n,
            colour: c,
            address: format!("{n}@players.example"),
            key: SigningKey::from_bytes(&[i as u8 + 61; 32]),
        })
        .collect()
}

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
        &hex::encode([5u8; 32]),
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

/// Bots for a battle the campaign opened, each side played by the campaign player named for it;
/// `base` varies the bots' style between tests.
pub(crate) fn battle_bots(rec: &GameRecord, ps: &[Cp], base: u64) -> Bots {
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
    Bots::new(&rec.opened.game_id, &gps, move |i| {
        Style::Random(base + 10 * salt + i as u64)
    })
}

pub(crate) fn load(home: &Home, id: &str) -> Campaign {
    dustmail::referee::campaign::load(&home.root.join("campaigns").join(id)).unwrap()
}

/// What a scripted player writes above the sample player's orders: given its colour and the
/// strategy game's round.
pub(crate) type Say<'a> = &'a dyn Fn(&str, u32) -> &'static str;

/// The strategy game's mails: each awaited colour sends what the sample player would, below
/// what `say` adds.
fn strategy_mails(env: &InProc, gid: &str, ps: &[Cp], n: &mut usize, say: Say) {
    let g = dustmail::referee::load_any(&dustmail::cli::registry(), &env.edges, &env.home, gid)
        .unwrap();
    if g.derived.finished.is_some() {
        return;
    }
    for a in g.game.awaiting(&g.derived.state) {
        let p = ps.iter().find(|p| p.colour == a.side).unwrap();
        let orders = format!(
            "{}{}",
            say(&a.side, g.game.round(&g.derived.state)),
            g.game.sample_orders(&g.derived.state, &a.side, 0).unwrap()
        );
        let seq = g.derived.last_seq.get(&a.side).copied().unwrap_or(0) + 1;
        let m = dt::mail(
            &p.address,
            &format!("s{n}@players.example"),
            &p.key,
            &dt::orders(gid, &a.side, seq, &orders),
        );
        std::fs::write(
            env.home.maildir().join("new").join(format!("s{n:05}.eml")),
            m,
        )
        .unwrap();
        *n += 1;
    }
}

/// Plays the campaign until it is finished: one mail per awaited side of every open game per
/// `run`. Returns how many runs it took.
fn play(home: &Home, id: &str, ps: &[Cp]) -> usize {
    play_saying(home, id, ps, &|_, _| "")
}

/// [`play`], each strategy-game mail with what `say` adds above the sample orders.
pub(crate) fn play_saying(home: &Home, id: &str, ps: &[Cp], say: Say) -> usize {
    let env = InProc::open(home);
    let mut bots: BTreeMap<String, Bots> = BTreeMap::new();
    let mut n = 0;
    for runs in 0..3000 {
        let c = load(home, id);
        if c.finished {
            return runs;
        }
        for rec in c.games.iter().filter(|g| g.ended.is_none()) {
            let gid = rec.opened.game_id.clone();
            if rec.opened.battle.is_none() {
                strategy_mails(&env, &gid, ps, &mut n, say);
                continue;
            }
            let b = bots
                .entry(gid.clone())
                .or_insert_with(|| battle_bots(rec, ps, 5));
            if let Some((name, m)) = b.next_mail(&env.load(&gid)) {
                std::fs::write(home.maildir().join("new").join(name), m).unwrap();
            }
        }
        let sum = env.run(dt::NOW);
        assert!(sum.broken.is_empty(), "{sum:?}");
        assert!(sum.warnings.is_empty(), "{sum:?}");
    }
    panic!("campaign {id} did not finish");
}

/// issue 15 item 2 (strategic campaign), items 3 and 4: `campaign new` opens one dust-strategy
/// game; its first land battle between the players is not rolled but awaited, and the campaign
/// opens a Dust Tactics game between the two players with the battle's units as its forces
/// (games/campaign/strategic-forces.toml); its end goes back to the strategic game as the
/// referee's `decide` control; the campaign is played to its end, `campaign show` names the
/// battle, and `campaign audit` verifies it all and names a flipped byte.
#[test]
fn a_strategic_campaign_fights_its_battles_on_the_table() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players();
    let o = new_campaign(&home, "war", RULES, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let runs = play(&home, "war", &ps);
    let c = load(&home, "war");
    println!("strategic campaign: {runs} runs, {} games", c.games.len());
    assert!(c.games.len() >= 2, "no battle was fought on the table");
    let first = &c.games[1];
    let b = first.opened.battle.as_ref().unwrap();
    assert_eq!(b.game, "war-1");
    assert_eq!(first.opened.scenario, "skirmish");
    // The battle's forces are the mapping's: the attacker's tanks as Pounders on allies.
    let attacker = &b.battle.attacker;
    let allies = &first.opened.forces["allies"];
    assert!(
        allies
            .iter()
            .all(|u| u.id.starts_with(&format!("{attacker}-"))),
        "{allies:?}"
    );
    let tanks = b.battle.units[attacker]
        .get("tank")
        .copied()
        .unwrap_or(0)
        .min(4) as usize;
    assert_eq!(
        allies.iter().filter(|u| u.card == "m2c-pounder").count(),
        tanks,
        "{allies:?}"
    );
    let log = std::fs::read_to_string(home.game_dir("war-1").join("log.jsonl")).unwrap();
    let decide = log
        .lines()
        .position(|l| l.contains(r#""action":"decide""#))
        .expect("no decide line in the strategic game's ledger")
        + 1;
    assert!(
        log.contains("decide battle 1: winner "),
        "no decide command"
    );
    assert!(
        log.contains("battle 1 at "),
        "the strategic game tells no battle"
    );

    // campaign show and the campaign report name the battle.
    let o = dt::dustmail(&home.root, &["campaign", "show", "war"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let shown = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(shown.contains("battle 1 of war-1 at "), "{shown}");
    let sent = dt::names(&home.root.join("sent"))
        .into_iter()
        .map(|n| std::fs::read_to_string(home.root.join("sent").join(n)).unwrap_or_default())
        .filter(|t| t.contains("[dustmail campaign war]"))
        .filter(|t| crate::support::flat(t).contains("battle 1 of war-1 at "))
        .count();
    assert!(sent >= 2, "no campaign report names the battle");

    // campaign audit: ok; a flipped byte in the campaign ledger, the strategic game's decide
    // line or a battle game is named by file and line.
    let dir = home.root.join("campaigns").join("war");
    let o = audit(&dir);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let battle_game = &first.opened.game_id;
    for (file, n) in [
        ("campaigns/war/log.jsonl".to_string(), 3),
        ("games/war-1/log.jsonl".to_string(), decide),
        (format!("games/{battle_game}/log.jsonl"), 2),
    ] {
        let copy = d.path().join(format!("tampered-{n}"));
        dt::copy_tree(&home.root, &copy);
        flip(&copy.join(&file), n);
        let o = audit(&copy.join("campaigns").join("war"));
        assert_eq!(o.status.code(), Some(1), "{}", dt::text(&o));
        let want = format!("{file} line {n}:");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(&want),
            "{want}\n{}",
            dt::text(&o)
        );
    }

    // A result the referee forged and signed anew (the other winner) is named at its line.
    let lines: Vec<&str> = log.lines().collect();
    let line = lines[decide - 1];
    let (a, bside) = (&b.battle.attacker, &b.battle.defender);
    let forged = if line.contains(&format!("winner {a}")) {
        line.replace(&format!("winner {a}"), &format!("winner {bside}"))
    } else {
        line.replace(&format!("winner {bside}"), &format!("winner {a}"))
            .replace("winner none", &format!("winner {a}"))
    };
    assert_ne!(forged, line);
    let mut data = lines.clone();
    data[decide - 1] = &forged;
    let data = data.join("\n") + "\n";
    let e = dustmail::pbem::campaign::strategic::audit_decisions(
        "games/war-1/log.jsonl",
        &c,
        data.as_bytes(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with(&format!(
            "games/war-1/log.jsonl line {decide}: the result of battle 1"
        )),
        "{e}"
    );
    forged_battle_is_named(&home, &c);
}

/// Battle games whose recorded battle is not the one the strategic game awaited (a forged,
/// re-signed `game_opened`) are named at their campaign line.
fn forged_battle_is_named(home: &Home, c: &Campaign) {
    use dustmail::pbem::campaign::strategic;
    let game = dustmail::cli::registry().get("dust-strategy").unwrap();
    let edges = dustmail::referee::Edges::real();
    let data = std::fs::read(home.game_dir("war-1").join("log.jsonl")).unwrap();
    let mut awaited = BTreeMap::new();
    strategic::replay_noting(game, &edges, "games/war-1/log.jsonl", &data, &mut awaited).unwrap();
    let rec = &c.games[1];
    let b = rec.opened.battle.clone().unwrap();
    strategic::check_awaited("campaigns/war/log.jsonl", rec.line, &b, &awaited).unwrap();
    let mut forged = b.clone();
    *forged
        .battle
        .units
        .get_mut(&b.battle.attacker)
        .unwrap()
        .entry("tank".into())
        .or_insert(0) += 1;
    let e = strategic::check_awaited("campaigns/war/log.jsonl", rec.line, &forged, &awaited)
        .unwrap_err()
        .to_string();
    let want = format!(
        "campaigns/war/log.jsonl line {}: battle 1 is not the one game war-1 awaited at its line ",
        rec.line
    );
    assert!(e.starts_with(&want), "{e}");
}

pub(crate) fn audit(dir: &std::path::Path) -> std::process::Output {
    std::process::Command::new(dt::bin())
        .args(["campaign", "audit"])
        .arg(dir)
        .output()
        .unwrap()
}

/// Flips one bit of the middle byte of line `n` (1-based) of `file`.
fn flip(file: &std::path::Path, n: usize) {
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

/// issue 15 item 2 (strategic campaign): rules that ask for what is not built, or a force
/// mapping with a card Dust Tactics does not have, are refused with what to write instead, and
/// nothing is created.
#[test]
fn a_strategic_campaign_with_bad_rules_is_refused_and_nothing_is_made() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players();
    let agreed = RULES.replace(r#"tactical = "all""#, r#"tactical = "some""#);
    let tiger = format!(
        "{RULES}[strategic.mapping]\nprovisional = true\nmax_units = 4\n[strategic.mapping.forces.allies]\ntank = \"m2c-pounder\"\n[strategic.mapping.forces.axis]\ntank = \"tiger\"\n"
    );
    let one_player = RULES.replace(r#"["red", "blue"]"#, r#"["red", "blue", "green"]"#);
    for (rules, want) in [
        (
            agreed.as_str(),
            r#"tactical = "some" is not known: write tactical = "all""#,
        ),
        (
            tiger.as_str(),
            r#"axis] tank = "tiger": there is no card `tiger`"#,
        ),
        (one_player.as_str(), "needs 3 --player (got 2)"),
    ] {
        let o = new_campaign(&home, "war", rules, &ps);
        assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
        assert!(dt::text(&o).contains(want), "{want}\n{}", dt::text(&o));
        assert!(!home.root.join("campaigns/war/log.jsonl").exists());
        assert!(!home.game_dir("war-1").exists());
    }
}

/// issue 15 item 2 (tactical = "agreed", ruling R337): `campaign new` accepts it and opens the
/// strategy game with the policy, where a player's `table battles: yes` is accepted.
#[test]
fn a_strategic_campaign_with_tactical_agreed_is_made() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players();
    let agreed = RULES.replace(r#"tactical = "all""#, r#"tactical = "agreed""#);
    let o = new_campaign(&home, "war", &agreed, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let log = std::fs::read_to_string(home.game_dir("war-1").join("log.jsonl")).unwrap();
    assert!(log.contains(r#"tactical = \"agreed\""#), "{log}");
    let env = InProc::open(&home);
    let mut g =
        dustmail::referee::load_any(&dustmail::cli::registry(), &env.edges, &env.home, "war-1")
            .unwrap();
    let lines = [dustmail::game::Line {
        number: 1,
        text: "table battles: yes".into(),
    }];
    struct Zero;
    impl dustmail::game::DiceSource for Zero {
        fn d6(&mut self, _round: u32) -> u8 {
            1
        }
        fn uniform(&mut self, _round: u32, _n: u32) -> u32 {
            0
        }
        fn hidden(&mut self, _audience: &dustmail::game::Audience, _n: u32) -> u32 {
            0
        }
    }
    let out = g.game.submit(
        &mut g.derived.state,
        dustmail::game::Sender::side("red"),
        &lines,
        &mut Zero,
    );
    assert!(
        matches!(
            out.results[0].outcome,
            dustmail::game::CommandOutcome::Accepted { .. }
        ),
        "{out:?}"
    );
}
