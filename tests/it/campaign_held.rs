//! Issue 15 item 2 (strategic campaign), rulings R340 and R331: the attacker's lines after an
//! attack that goes to the table are held, not refused, and run with their dice in the step of
//! the referee's `decide` control that brings the table's result. Played end to end by scripted
//! players through signed mails and `run`; the held lines' dice are on the control line, which
//! `dustmail replay`, `dustmail audit` and `campaign audit` recompute; a die changed on that line
//! (and the ledger signed anew) is named by file and line.

use crate::campaign::resign;
use crate::campaign_strategic::{audit, battle_bots, load, new_campaign, players, Cp, RULES};
use crate::support::dt::{self, Bots, InProc};
use dustmail::config::Home;
use dustmail::game::{Audience, CommandOutcome, DiceSource, Game, Line, Sender};
use dustmail::games::dust_strategy::model::{State, Unit};
use dustmail::games::dust_strategy::DustStrategy;
use serde_json::Value;
use std::collections::BTreeMap;

/// Dice for a trial run of a mail: never a hit, the first card.
struct Trial;

impl DiceSource for Trial {
    fn d6(&mut self, _round: u32) -> u8 {
        6
    }
    fn uniform(&mut self, _round: u32, _n: u32) -> u32 {
        0
    }
    fn hidden(&mut self, _audience: &Audience, _n: u32) -> u32 {
        0
    }
}

fn lines_of(texts: &[String]) -> Vec<Line> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.clone(),
        })
        .collect()
}

fn understood(r: &dustmail::game::CommandResult) -> Option<&str> {
    match &r.outcome {
        CommandOutcome::Accepted { understood } => Some(understood),
        CommandOutcome::Refused { .. } => None,
    }
}

/// The sample player's turn, with one more attack after an attack that goes to the table: an
/// attack on a neutral or enemy area that 001's dice decide (tried on a copy of the state as
/// it will be when the held lines run). `None` when the turn sends nothing to the table or no
/// such second attack exists.
fn with_a_rolled_attack_held(s: &State, side: &str, orders: &str) -> Option<(String, usize, u32)> {
    let lines: Vec<String> = orders.lines().map(str::to_string).collect();
    let mut trial = s.clone();
    let o = DustStrategy.submit(
        &mut trial,
        Sender::side(side),
        &lines_of(&lines),
        &mut Trial,
    );
    let k = o.results.iter().position(|r| {
        understood(r).is_some_and(|u| u.contains("fought on the table, the game waits"))
    })?;
    let table = trial.tactical.as_ref()?.awaited.clone()?;
    // As the held lines will find it: the battle decided (the attackers back home).
    let mut after = trial.clone();
    after.tactical.as_mut()?.awaited = None;
    for (u, n) in &table.att {
        after.areas.get_mut(&table.from)?.add(side, *u, *n);
    }
    for a in &s.map.areas {
        let h = after.holding(&a.id);
        if h.owner.as_deref() != Some(side) || a.id == table.from || a.id == table.to {
            continue;
        }
        let tanks = h.units.get(&Unit::Tank).copied().unwrap_or(0);
        if tanks == 0 {
            continue;
        }
        for n in s.map.neighbours(&a.id) {
            if table.to == n || after.owner(n).is_none_or(|o| o == side) || !s.map.is_land(n) {
                continue;
            }
            let line = format!("attack {tanks} tanks from {} to {n}", a.id);
            let mut t = after.clone();
            let o = DustStrategy.submit(
                &mut t,
                Sender::side(side),
                &lines_of(std::slice::from_ref(&line)),
                &mut Trial,
            );
            let rolled = o.results.iter().all(|r| {
                understood(r).is_some_and(|u| u.starts_with("attack") && !u.contains("table"))
            }) && t.tactical.as_ref().is_some_and(|x| x.awaited.is_none());
            if rolled {
                let mut out = lines[..=k].to_vec();
                out.push(line);
                out.extend(lines[k + 1..].iter().cloned());
                let held = out.len() - k - 1;
                return Some((out.join("\n"), held, table.battle));
            }
        }
    }
    None
}

/// What the scripted players sent: the mail whose table attack held a rolled attack.
#[derive(Default)]
pub(crate) struct Seen {
    /// (attacker, its seq, how many lines its mail has after the attack, the battle).
    pub held: Option<(String, u64, usize, u32)>,
}

/// The strategy game's mails: each awaited colour sends the sample player's orders, the first
/// table attack of the campaign with a rolled attack and `end` after it.
fn strategy_mails(env: &InProc, gid: &str, ps: &[Cp], n: &mut usize, seen: &mut Seen) {
    let g = dustmail::referee::load_any(&dustmail::cli::registry(), &env.edges, &env.home, gid)
        .unwrap();
    if g.derived.finished.is_some() {
        return;
    }
    for a in g.game.awaiting(&g.derived.state) {
        let p = ps.iter().find(|p| p.colour == a.side).unwrap();
        let mut orders = g.game.sample_orders(&g.derived.state, &a.side, 0).unwrap();
        let seq = g.derived.last_seq.get(&a.side).copied().unwrap_or(0) + 1;
        if seen.held.is_none() {
            let s: &State = g.derived.state.typed();
            if let Some((more, held, b)) = with_a_rolled_attack_held(s, &a.side, &orders) {
                orders = more;
                seen.held = Some((a.side.clone(), seq, held, b));
            }
        }
        let m = dt::mail(
            &p.address,
            &format!("h{n}@players.example"),
            &p.key,
            &dt::orders(gid, &a.side, seq, &orders),
        );
        std::fs::write(
            env.home.maildir().join("new").join(format!("h{n:05}.eml")),
            m,
        )
        .unwrap();
        *n += 1;
    }
}

/// Plays the campaign to its end: the strategy game by [`strategy_mails`], each battle game by
/// the Dust Tactics bots.
pub(crate) fn play(home: &Home, id: &str, ps: &[Cp]) -> Seen {
    let env = InProc::open(home);
    let mut bots: BTreeMap<String, Bots> = BTreeMap::new();
    let mut seen = Seen::default();
    let mut n = 0;
    for _ in 0..3000 {
        let c = load(home, id);
        if c.finished {
            return seen;
        }
        for rec in c.games.iter().filter(|g| g.ended.is_none()) {
            let gid = rec.opened.game_id.clone();
            if rec.opened.battle.is_none() {
                strategy_mails(&env, &gid, ps, &mut n, &mut seen);
                continue;
            }
            let b = bots
                .entry(gid.clone())
                .or_insert_with(|| battle_bots(rec, ps, 7));
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

pub(crate) fn ledger(home: &Home, gid: &str) -> Vec<Value> {
    std::fs::read_to_string(dt::log_path(home, gid))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// issue 15 item 2; ruling R340 (amending R331): red's (or blue's) mail attacks an area of the
/// other player, which goes to the table, then makes a second attack that 001's dice decide and
/// ends its turn. The reply says each later line is held; the Dust Tactics game is played to its
/// end; the `decide` control that brings its result runs the held lines, whose dice are recorded
/// on the control line (`cause_sig`, `step`); the campaign goes on to its end; `dustmail
/// replay`, `dustmail audit` and `campaign audit` pass; a die of that control line changed (and
/// the ledger signed anew, so only the dice can tell) makes `campaign audit` name the file and
/// line.
#[test]
fn held_lines_after_a_table_battle_run_with_the_decide_control_and_audit() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players();
    let o = new_campaign(&home, "war", RULES, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let seen = play(&home, "war", &ps);
    let (attacker, seq, held, battle) = seen
        .held
        .expect("no table attack with a rolled attack after it was sent");
    let c = load(&home, "war");
    assert!(c.finished && c.games.len() >= 2);

    // The attacker's submission: each line after the attack is held.
    let log = ledger(&home, "war-1");
    let sub = log
        .iter()
        .find(|v| v["kind"] == "submission" && v["side"] == attacker && v["player_seq"] == seq)
        .unwrap();
    let results = sub["results"].as_array().unwrap();
    let at = results
        .iter()
        .position(|r| {
            r["outcome"]["understood"]
                .as_str()
                .is_some_and(|u| u.contains("fought on the table, the game waits"))
        })
        .unwrap_or_else(|| panic!("no attack went to the table: {sub}"));
    let after: Vec<usize> = results[at + 1..]
        .iter()
        .map(|r| r["line"].as_u64().unwrap() as usize)
        .collect();
    assert_eq!(after.len(), held, "{sub}");
    for r in &results[at + 1..] {
        assert!(
            r["outcome"]["understood"].as_str().is_some_and(
                |u| u.starts_with(&format!("held: runs when the result of battle {battle} "))
            ),
            "{r}"
        );
    }
    // … and the reply the attacker got says so.
    let address = &ps.iter().find(|p| p.colour == attacker).unwrap().address;
    let replies: Vec<String> = dt::names(&home.root.join("sent"))
        .into_iter()
        .map(|n| std::fs::read_to_string(home.root.join("sent").join(n)).unwrap_or_default())
        .filter(|t| t.contains(&format!("To: {address}")))
        .map(|t| crate::support::flat(&t))
        .collect();
    assert!(
        replies
            .iter()
            .any(|t| t.contains(&format!("held: runs when the result of battle {battle} "))),
        "no reply says the lines are held"
    );

    // The decide control of the battle ran them: its step records their results and dice.
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
    let line = i + 1;
    assert_eq!(ctl["by"], "campaign");
    assert!(ctl["cause_sig"].is_string(), "{ctl}");
    let step = &ctl["step"];
    let results = step["results"].as_array().unwrap();
    assert_eq!(
        results
            .iter()
            .map(|r| r["line"].as_u64().unwrap() as usize)
            .collect::<Vec<_>>(),
        after,
        "{step}"
    );
    assert!(
        results[0]["outcome"]["understood"]
            .as_str()
            .is_some_and(|u| u.starts_with("attack ")),
        "the held attack ran: {step}"
    );
    let draws = step["draws"].as_array().unwrap();
    assert!(!draws.is_empty(), "the held attack rolled no die: {step}");
    assert!(
        step["happenings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["text"]
                .as_str()
                .is_some_and(|t| t.contains(&format!("your lines held for battle {battle} ")))
                && h["audience"]["side"] == attacker),
        "no private note of the held lines: {step}"
    );
    // Every control that ran nothing has no step, as before.
    assert!(log
        .iter()
        .filter(|v| v["kind"] == "control" && v.get("step").is_none())
        .all(|v| v.get("cause_sig").is_none()));

    // replay and audit of the strategic game, and the campaign audit, pass.
    let o = dt::dustmail(&home.root, &["replay", "war-1"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let o = dt::dustmail(
        &home.root,
        &["audit", &dt::log_path(&home, "war-1").display().to_string()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let o = audit(&home.root.join("campaigns").join("war"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));

    // One recorded die of the control line changed, the ledger signed anew: named at its line.
    let copy = d.path().join("tampered");
    dt::copy_tree(&home.root, &copy);
    let mut lines = log.clone();
    let draw = lines[i]["step"]["draws"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|d| d.get("face").is_some())
        .expect("the held attack rolled no d6");
    let face = draw["face"].as_u64().unwrap();
    draw["face"] = Value::from(face % 6 + 1);
    let file = copy.join("games").join("war-1").join("log.jsonl");
    std::fs::write(&file, resign(lines, &home)).unwrap();
    let o = audit(&copy.join("campaigns").join("war"));
    assert_eq!(o.status.code(), Some(1), "{}", dt::text(&o));
    // What differs depends on the dice (a changed face may change how many dice follow), so
    // the audit is held to the file and line only.
    let want = format!("games/war-1/log.jsonl line {line}: ");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&want),
        "{want}\n{}",
        dt::text(&o)
    );
}
