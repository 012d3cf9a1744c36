//! Issue 15, the third landing: a chain of four different scenarios played to its end by
//! scripted players through signed mails, with forces and units carried over, audited; and
//! absences declared once for the whole campaign.

use crate::campaign_forces::{
    audit, choose_from_template, drop_mail, forged_fails, load, log_lines, mails_to, new_campaign,
    players, request, sent_text, Cp, RULES,
};
use crate::support::dt::{self, Bots, InProc};
use dustmail::config::Home;
use dustmail::dust_tactics::bot::Style;
use ed25519_dalek::SigningKey;
use serde_json::Value;
use std::collections::BTreeMap;

/// The chain of [`RULES`] over four different scenarios of the ffg-revised rules, in the order
/// 000 suggests a campaign grows: infantry scouting first, the whole box last.
const SCENARIOS: [&str; 4] = ["reconnaissance", "crossroads", "skirmish", "full-box"];

fn four_scenario_rules() -> String {
    RULES
        .replace(
            "scenarios = [\"skirmish\", \"skirmish\", \"skirmish\", \"skirmish\"]",
            &format!(
                "ruleset = \"ffg-revised\"\nscenarios = [{}]",
                SCENARIOS.map(|s| format!("\"{s}\"")).join(", ")
            ),
        )
        .to_string()
}

/// Plays campaign `id` to its end: each player answers a force request with its template cut
/// to the allowance (a league's pairings one at a time), and bots play every open game by
/// signed mail, one mail a game per run.
fn play_chain(home: &Home, env: &InProc, id: &str, ps: &[Cp], now: &str) {
    let mut bots: BTreeMap<String, Bots> = BTreeMap::new();
    let mut n = 0;
    let by_name = |name: &str| ps.iter().find(|q| q.name == name).unwrap();
    for _ in 0..6000 {
        let c = load(home, id);
        if c.finished {
            return;
        }
        let waiting = c
            .due()
            .into_iter()
            .find(|p| c.created.rules.forces.is_some() && c.chosen(p.number).len() < p.sides.len());
        if let Some(p) = waiting {
            let gid = format!("{id}-{}", p.number);
            let chosen = c.chosen(p.number);
            let (side, name) = p
                .sides
                .iter()
                .find(|(s, _)| !chosen.contains_key(*s))
                .unwrap();
            let cp = by_name(name);
            let req = request(home, &gid, side).expect("the player was asked for a force");
            n += 1;
            drop_mail(
                home,
                &format!("{gid}-force-{n}.eml"),
                dt::mail(
                    &cp.address,
                    &format!("{gid}-f{n}@p"),
                    &cp.key,
                    &choose_from_template(&req, 6),
                ),
            );
            env.run(now);
            continue;
        }
        for rec in c.games.iter().filter(|g| g.ended.is_none()) {
            let gid = rec.opened.game_id.clone();
            let b = bots.entry(gid.clone()).or_insert_with(|| {
                let gps: Vec<dt::Player> = rec
                    .opened
                    .sides
                    .iter()
                    .map(|(side, name)| {
                        let p = by_name(name);
                        dt::Player {
                            side: side.clone(),
                            address: p.address.clone(),
                            key: p.key.clone(),
                        }
                    })
                    .collect();
                let salt = rec.opened.number as u64;
                Bots::new(&gid, &gps, move |i| {
                    Style::Random(11 + 10 * salt + i as u64)
                })
            });
            if let Some((name, m)) = b.next_mail(&env.load(&gid)) {
                drop_mail(home, &name, m);
            }
        }
        let sum = env.run(now);
        assert!(sum.broken.is_empty(), "{sum:?}");
        assert!(sum.warnings.is_empty(), "{sum:?}");
    }
    panic!("campaign {id} did not finish");
}

/// issue 15 item 3 (the four-game chain, done-means): four DIFFERENT scenarios
/// (reconnaissance, crossroads, skirmish, full-box) played one after the other to their end by
/// scripted players through signed mails, each with forces chosen by mail within 6 AP, points
/// and destroyed units carried over; every game is the scenario the plan names with the chosen
/// units; `campaign audit` passes and names the file and line of a flipped byte in the campaign
/// ledger and in the last game's ledger.
#[test]
fn a_chain_of_four_different_scenarios_is_played_to_its_end_and_audited() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players();
    let o = new_campaign(&home, "fc", &four_scenario_rules(), &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = InProc::open(&home);
    env.run(dt::NOW);
    play_chain(&home, &env, "fc", &ps, dt::NOW);

    let c = load(&home, "fc");
    assert!(c.finished, "the campaign was played to its end");
    let played: Vec<&str> = c.games.iter().map(|g| g.opened.scenario.as_str()).collect();
    assert_eq!(played, SCENARIOS);
    let mut points_so_far: BTreeMap<String, u32> = BTreeMap::new();
    let mut any_lost = false;
    for g in &c.games {
        let gid = &g.opened.game_id;
        let created = dustmail::referee::read_created(&home, gid).unwrap();
        assert_eq!(created.setup.scenario_name, g.opened.scenario, "{gid}");
        // What carried in is the points of the games before it.
        assert_eq!(g.opened.carried.len(), 2, "{gid}");
        for (player, pts) in &g.opened.carried {
            assert_eq!(
                points_so_far.get(player).copied().unwrap_or(0),
                *pts,
                "{gid}"
            );
        }
        for units in g.opened.forces.values() {
            for u in units {
                assert!(created
                    .setup
                    .scenario
                    .contains(&format!("id = \"{}\"", u.id)));
            }
        }
        let end = g.ended.as_ref().unwrap();
        assert!(
            dustmail::referee::read_created(&home, gid).is_ok() && end.final_seq > 1,
            "{gid} was played"
        );
        for (side, player) in &g.opened.sides {
            *points_so_far.entry(player.clone()).or_default() +=
                end.result.points.get(side).copied().unwrap_or(0);
        }
        any_lost |= end.lost.values().any(|v| !v.is_empty());
    }
    assert!(any_lost, "units were destroyed: carry-over was exercised");
    crate::campaign::audit_and_tamper(&home, "fc", "fc-4", d.path());
    let o = audit(&home.root.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

/// The sides that got a deadline default in game `gid`, in ledger order.
fn defaulted(home: &Home, gid: &str) -> Vec<String> {
    log_lines(&dt::log_path(home, gid))
        .iter()
        .filter(|l| l["kind"] == "deadline")
        .map(|l| l["side"].as_str().unwrap().to_string())
        .collect()
}

/// A signed mail from campaign player `cp` to campaign `cid` (`side:` is their name).
fn to_campaign(home: &Home, cp: &Cp, cid: &str, seq: u64, lines: &str, tag: &str) {
    drop_mail(
        home,
        &format!("{tag}.eml"),
        dt::mail(
            &cp.address,
            &format!("{tag}@p"),
            &cp.key,
            &dt::orders(cid, cp.name, seq, lines),
        ),
    );
}

/// The refusals of campaign absences mailed to `cp`, flattened.
fn absence_refusals(home: &Home, cp: &Cp, cid: &str) -> Vec<String> {
    mails_to(home, &cp.address)
        .into_iter()
        .filter(|(n, _)| n.starts_with(&format!("{cid}-absence-{}-refused", cp.name)))
        .map(|(_, t)| crate::support::flat(&t))
        .collect()
}

/// issue 15 item 5 (absences across the campaign): in a three-player league (three games open
/// at once, ann in two of them), ann signs ONE `absent until` block addressed to the campaign.
/// It is recorded in the campaign ledger, ann gets a receipt naming her two games, and each of
/// them is told by an `absent` control: at the deadline her side's default waits in both
/// while her opponents' sides (and both sides of the game she does not play) get theirs; after
/// the absence it applies. A block with a used seq, one past the longest absence, and one
/// with an order line are refused naming the line and change nothing. `campaign audit` passes,
/// and catches a recorded end that is not the signed one.
#[test]
fn one_absence_mailed_to_the_campaign_holds_in_every_game_the_player_plays() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = league_players();
    let rules = "kind = \"league\"\nscenarios = [\"skirmish\"]\n";
    let o = new_campaign(&home, "fc", rules, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    // fc-1: ann (allies) v bob; fc-2: ann (allies) v cat; fc-3: bob (allies) v cat.
    let env = InProc::open(&home);
    let log = home.root.join("campaigns/fc/log.jsonl");
    to_campaign(
        &home,
        &ps[0],
        "fc",
        1,
        "absent until 2026-03-06T00:00:00Z",
        "away",
    );
    let sum = env.run(dt::NOW);
    assert_eq!(sum.accepted, 1, "{sum:?}");
    let receipt = crate::support::flat(&sent_text(&home, "fc-absence-ann-1").unwrap());
    assert!(
        receipt.contains("Your absence until 2026-03-06T00:00:00+00:00 is recorded"),
        "{receipt}"
    );
    assert!(receipt.contains("Games told now: fc-1, fc-2."), "{receipt}");
    for gid in ["fc-1", "fc-2"] {
        assert_eq!(
            env.load(gid)
                .derived
                .absent
                .get("allies")
                .map(String::as_str),
            Some("2026-03-06T00:00:00+00:00"),
            "{gid}"
        );
    }
    assert!(env.load("fc-3").derived.absent.is_empty());

    // Refused, each naming what to send instead, and the campaign ledger unchanged.
    let before = std::fs::read(&log).unwrap();
    let bad = [
        (1, "absent until 2026-03-05T00:00:00Z", "is not above the seq of your last campaign absence (1)"),
        (2, "absent until 2026-04-30T00:00:00Z", "Line 5 of your absence for campaign fc is refused: absent until 2026-04-30T00:00:00+00:00 is more than 14 days from now"),
        (2, "absent until 2026-03-05T00:00:00Z\nactivate rangers", "Line 6 of your absence for campaign fc is refused: `activate rangers` is not a line a campaign takes"),
    ];
    for (i, (seq, lines, want)) in bad.iter().enumerate() {
        to_campaign(&home, &ps[0], "fc", *seq, lines, &format!("bad-{i}"));
        let sum = env.run(dt::NOW);
        assert_eq!(sum.refused, 1, "{sum:?}");
        let got = absence_refusals(&home, &ps[0], "fc");
        assert!(got.iter().any(|t| t.contains(want)), "{want}: {got:?}");
        assert_eq!(
            std::fs::read(&log).unwrap(),
            before,
            "a refusal changes nothing"
        );
    }

    // Deadline + grace of the games' first decisions: ann's side waits, the others do not.
    env.run("2026-03-04T21:00:00Z");
    assert_eq!(defaulted(&home, "fc-1"), ["axis"]);
    assert_eq!(defaulted(&home, "fc-2"), ["axis"]);
    let mut third = defaulted(&home, "fc-3");
    third.sort();
    assert_eq!(third, ["allies", "axis"]);
    // After the absence ann's side gets its default too (at the deadline the axis default
    // restarted: 2026-03-04T21:00 + 72 h + 12 h of grace).
    env.run("2026-03-08T09:00:00Z");
    for gid in ["fc-1", "fc-2"] {
        assert!(
            defaulted(&home, gid).contains(&"allies".to_string()),
            "{gid}: {:?}",
            defaulted(&home, gid)
        );
    }

    let o = audit(&home.root.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let lines = log_lines(&log);
    let n = lines
        .iter()
        .position(|l| l["kind"] == "player_absent")
        .unwrap();
    forged_fails(
        &home,
        d.path(),
        "absence",
        |l| l[n]["until"] = Value::from("2026-03-10T00:00:00+00:00"),
        &format!("campaigns/fc/log.jsonl line {}: the recorded end", n + 1),
    );
}

/// issue 15 item 5 (the campaign's own waits, and games opened during an absence): in a chain
/// whose forces are due within 24 hours, ann declares an absence for the campaign before
/// choosing. At the force deadline bob (present) gets the default force, ann does not: her
/// deadline is the end of her absence. She chooses while away; the game opens, and it is told
/// at once that she is away. `campaign audit` passes.
#[test]
fn a_campaign_absence_holds_back_the_force_deadline_and_reaches_the_game_opened_during_it() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players();
    let rules = RULES
        .replace(
            "\"skirmish\", \"skirmish\", \"skirmish\", \"skirmish\"",
            "\"skirmish\", \"skirmish\"",
        )
        .replace("ap = 6\n", "ap = 6\ndeadline_hours = 24\n");
    let o = new_campaign(&home, "fc", &rules, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = InProc::open(&home);
    to_campaign(
        &home,
        &ps[0],
        "fc",
        1,
        "absent until 2026-03-05T00:00:00Z",
        "away",
    );
    env.run(dt::NOW);
    assert!(sent_text(&home, "fc-absence-ann-1").is_some());

    // The campaign's force deadline (2026-03-02T09:00): bob's default, not ann's.
    env.run("2026-03-02T09:00:00Z");
    let c = load(&home, "fc");
    let chosen = c.chosen(1);
    assert!(chosen["axis"].default, "{chosen:?}");
    assert!(!chosen.contains_key("allies"), "ann is away: no default");
    assert!(c.games.is_empty(), "fc-1 waits for ann");

    // Ann chooses while away: the game opens, and knows she is away.
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
    env.run("2026-03-02T10:00:00Z");
    assert_eq!(load(&home, "fc").games.len(), 1, "fc-1 opened");
    assert_eq!(
        env.load("fc-1")
            .derived
            .absent
            .get("allies")
            .map(String::as_str),
        Some("2026-03-05T00:00:00+00:00")
    );
    let o = audit(&home.root.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    // A referee re-signing ann's choice as a default recorded while she was away is caught.
    let lines = log_lines(&home.root.join("campaigns/fc/log.jsonl"));
    let n = lines
        .iter()
        .position(|l| l["kind"] == "force_chosen" && l["side"] == "allies")
        .unwrap();
    forged_fails(
        &home,
        d.path(),
        "default-while-away",
        |l| {
            let o = l[n].as_object_mut().unwrap();
            o.remove("canonical");
            o.remove("signature");
            o.insert("default".into(), Value::from(true));
        },
        &format!(
            "campaigns/fc/log.jsonl line {}: a default force for side allies of game fc-1 before the deadline",
            n + 1
        ),
    );
}

/// The players of a three-player league: ann, bob, cat (no side of their own).
pub(crate) fn league_players() -> Vec<Cp> {
    ["ann", "bob", "cat"]
        .iter()
        .enumerate()
        .map(|(i, n)| Cp {
            name: n,
            side: "",
            address: format!("{n}@players.example"),
            key: SigningKey::from_bytes(&[i as u8 + 81; 32]),
        })
        .collect()
}

/// issue 15 item 2 (forces for leagues): a three-player league whose rules set `[forces]`
/// opens no game at once: each player is asked for a force for each pairing they play, and a
/// pairing opens as soon as its two forces are in (fc-2 before fc-1), sealed until then; at the
/// deadline the pairings still waiting get the default force of each silent side (a force
/// already chosen stands) and open. The league is played to its end by scripted players through
/// signed mails and `campaign audit` passes. A league that would carry units over is refused.
#[test]
fn a_league_with_forces_gets_each_pairings_forces_by_mail_and_is_played_to_its_end() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = league_players();
    let rules = RULES
        .replace("kind = \"chain\"", "kind = \"league\"")
        .replace(
            "\"skirmish\", \"skirmish\", \"skirmish\", \"skirmish\"",
            "\"skirmish\"",
        )
        .replace("ap = 6\n", "ap = 6\ndeadline_hours = 24\n");
    let o = new_campaign(&home, "no", &rules, &ps);
    assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("[carry_over] units or heroes are for a chain"),
        "{}",
        dt::text(&o)
    );
    assert!(!home.root.join("campaigns/no/log.jsonl").exists());
    let rules = rules.replace("units = true\n", "");
    let o = new_campaign(&home, "fc", &rules, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = InProc::open(&home);
    env.run(dt::NOW);
    let c = load(&home, "fc");
    assert!(c.games.is_empty(), "every pairing waits for its forces");
    // fc-1: ann (allies) v bob; fc-2: ann v cat; fc-3: bob v cat. Each asked per pairing.
    for (gid, side, to) in [
        ("fc-1", "allies", "ann"),
        ("fc-1", "axis", "bob"),
        ("fc-2", "allies", "ann"),
        ("fc-2", "axis", "cat"),
        ("fc-3", "allies", "bob"),
        ("fc-3", "axis", "cat"),
    ] {
        let asked = mails_to(&home, &format!("{to}@players.example"));
        assert!(
            asked
                .iter()
                .any(|(n, _)| n.starts_with(&format!("{gid}-force-request-{side}-"))),
            "{to} asked for {gid} {side}"
        );
    }
    // fc-2's forces first: it opens alone.
    for (cp, side, cmds) in [
        (&ps[0], "allies", "field pounder"),
        (&ps[2], "axis", "field ludwig"),
    ] {
        drop_mail(
            &home,
            &format!("{}-fc2.eml", cp.name),
            dt::mail(
                &cp.address,
                &format!("{}-fc2@p", cp.name),
                &cp.key,
                &dt::orders("fc-2", side, 1, cmds),
            ),
        );
    }
    let sum = env.run(dt::NOW);
    assert_eq!(sum.accepted, 2, "{sum:?}");
    let c = load(&home, "fc");
    let open: Vec<&str> = c.games.iter().map(|g| g.opened.game_id.as_str()).collect();
    assert_eq!(open, ["fc-2"]);
    // Bob chooses for fc-1; nobody else does. At the deadline the rest are defaults.
    drop_mail(
        &home,
        "bob-fc1.eml",
        dt::mail(
            &ps[1].address,
            "bob-fc1@p",
            &ps[1].key,
            &dt::orders("fc-1", "axis", 1, "field battle\nfield laser"),
        ),
    );
    env.run(dt::NOW);
    assert_eq!(load(&home, "fc").games.len(), 1, "fc-1 waits for ann");
    env.run("2026-03-02T08:59:00Z");
    assert_eq!(load(&home, "fc").games.len(), 1, "not before the deadline");
    env.run("2026-03-02T09:00:00Z");
    let c = load(&home, "fc");
    assert_eq!(c.games.len(), 3, "the deadline opened the rest");
    let one = c.chosen(1);
    assert!(one["allies"].default && !one["axis"].default, "{one:?}");
    let three = c.chosen(3);
    assert!(
        three["allies"].default && three["axis"].default,
        "{three:?}"
    );
    let fc1 = dustmail::referee::read_created(&home, "fc-1").unwrap();
    assert!(fc1.setup.scenario.contains("id = \"laser\""));

    play_chain(&home, &env, "fc", &ps, "2026-03-02T09:00:00Z");
    let c = load(&home, "fc");
    assert!(c.finished, "the league was played to its end");
    let o = audit(&home.root.join("campaigns/fc"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}
