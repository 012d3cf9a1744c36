//! Replay: a campaign-length log (200 rounds, as issue 6 asks) replayed and fully verified (hash chain, every
//! signature, every die recomputed from the revealed keys, every state digest), in
//! activations/s. Beside it: a fighting skirmish (random bots, 4 rounds, dice in every
//! activation) replayed the same way, and the floor of the same log's hash chain + signature
//! checks alone (`ledger::parse_log` + ed25519 verify of each submission).
//! DUSTMAIL_BENCH_ROUNDS changes the campaign length.

mod common;

use common::dt::{self, Bots, InProc};
use dustmail::dust_tactics::bot::Style;
use dustmail::dust_tactics::DustTactics;
use dustmail::ledger::Event;
use dustmail::referee;

/// Activations (accepted submissions that activate a unit) in a log.
fn activations(log: &[u8]) -> usize {
    dustmail::ledger::parse_log("log.jsonl", log)
        .unwrap()
        .iter()
        .filter(|e| {
            matches!(&e.event, Event::Submission(s)
                if s.accepted && s.canonical.lines().any(|l| l.starts_with("activate ")))
        })
        .count()
}

fn measure(env: &InProc, id: &str, label: &str, reps: usize) {
    let log = std::fs::read(dt::log_path(&env.home, id)).unwrap();
    let acts = activations(&log);
    let lines = log.iter().filter(|&&b| b == b'\n').count();
    let mut times = Vec::new();
    for _ in 0..reps {
        let (s, t) =
            common::time(|| referee::replay_game(&DustTactics, &env.edges, &env.home, id).unwrap());
        assert!(s.dice_checked > 0 && s.signatures == s.submissions);
        times.push(t);
    }
    let t = common::median(times);
    // Floor: the chain and the signatures alone.
    let created = match &dustmail::ledger::parse_log("log.jsonl", &log).unwrap()[0].event {
        Event::Created(c) => c.players.clone(),
        _ => unreachable!(),
    };
    let keys: Vec<_> = created
        .iter()
        .map(|p| {
            (
                p.side.clone(),
                dustmail::crypto::parse_public_key(&p.public_key).unwrap(),
            )
        })
        .collect();
    let (_, floor) = common::time(|| {
        for e in dustmail::ledger::parse_log("log.jsonl", &log).unwrap() {
            if let Event::Submission(s) = e.event {
                let k = &keys.iter().find(|(side, _)| *side == s.side).unwrap().1;
                dustmail::crypto::verify(k, &s.canonical, &s.signature).unwrap();
            }
        }
    });
    println!(
        "replay {label}: {lines} lines, {acts} activations: full verification {:.0} activations/s ({:.1} ms) | floor chain+signatures {:.0} activations/s ({:.1} ms)",
        common::rate(acts, t),
        t.as_secs_f64() * 1e3,
        common::rate(acts, floor),
        floor.as_secs_f64() * 1e3
    );
}

fn main() {
    if !common::under_cargo_bench("replay") {
        return;
    }
    // Issue 6: a 200-round campaign-length log (a scenario may last up to 999 rounds).
    let rounds = common::env_num("DUSTMAIL_BENCH_ROUNDS", 200) as u32;
    let d = common::tempdir();
    let home = common::home(&d.path().join("home"));
    let env = InProc::open(&home);
    let ps = dt::players(0);
    common::create(&env, "g-campaign", &ps, 7, rounds);
    common::create(&env, "g-fight", &ps, 8, 4);

    // The campaign: patient players, one mail per run, until the round limit ends it.
    let mut n = 0;
    loop {
        let g = env.load("g-campaign");
        if g.derived.finished.is_some() {
            break;
        }
        let Some((side, text)) = common::passive(g.derived.state.typed()) else {
            break;
        };
        let p = ps.iter().find(|p| p.side == side).unwrap();
        let seq = g.derived.last_seq.get(&side).copied().unwrap_or(0) + 1;
        let m = dt::mail(
            &p.address,
            &format!("c{n}@players.example"),
            &p.key,
            &dt::orders("g-campaign", &side, seq, &text),
        );
        std::fs::write(home.maildir().join("new").join(format!("c{n:06}.eml")), m).unwrap();
        env.run(dt::NOW);
        n += 1;
    }
    // The fight: random bots until the game ends.
    let mut bots = Bots::new("g-fight", &ps, |s| Style::Random(77 + s as u64));
    loop {
        let g = env.load("g-fight");
        let Some((name, m)) = bots.next_mail(&g) else {
            break;
        };
        std::fs::write(home.maildir().join("new").join(name), m).unwrap();
        env.run(dt::NOW);
    }
    let g = env.load("g-campaign");
    println!(
        "replay: campaign of {rounds} rounds played by mail in {n} mails (finished: {})",
        g.derived.finished.is_some()
    );
    measure(
        &env,
        "g-campaign",
        &format!("campaign ({rounds} rounds)"),
        3,
    );
    measure(&env, "g-fight", "fight (4 rounds)", 20);
    println!("replay: peak memory {:.1} MiB (VmHWM)", common::peak_mib());
}
