//! Issue 15, the third landing: a chain of four different scenarios played to its end by
//! scripted players through signed mails, with forces and units carried over, audited; and
//! absences declared once for the whole campaign.

use crate::campaign_forces::{
    audit, choose_from_template, drop_mail, load, new_campaign, players, request, Cp, RULES,
};
use crate::support::dt::{self, Bots, InProc};
use dustmail::config::Home;
use dustmail::dust_tactics::bot::Style;
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
/// to the allowance, and bots play every open game by signed mail, one mail a game per run.
fn play_chain(home: &Home, env: &InProc, id: &str, ps: &[Cp], now: &str) {
    let mut bots: BTreeMap<String, Bots> = BTreeMap::new();
    let mut n = 0;
    for _ in 0..6000 {
        let c = load(home, id);
        if c.finished {
            return;
        }
        if let Some(p) = c.awaiting_forces() {
            let gid = format!("{id}-{}", p.number);
            let chosen = c.chosen(p.number);
            let Some(cp) = ps.iter().find(|cp| !chosen.contains_key(cp.side)) else {
                panic!("both forces in but {gid} did not open");
            };
            let req = request(home, &gid, cp.side).expect("the player was asked for a force");
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
                let gps: Vec<dt::Player> = ps
                    .iter()
                    .map(|p| dt::Player {
                        side: p.side.to_string(),
                        address: p.address.clone(),
                        key: p.key.clone(),
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
