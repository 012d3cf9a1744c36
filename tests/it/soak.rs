//! Issue 6 item 5: soak. Bots that read the game state and send random legal signed orders play
//! complete games through the mail pipeline (signed mails into the Maildir, `run`, the outbox):
//! 20 games here, `DUSTMAIL_SOAK_GAMES=200 cargo test --test it soak::` for more. Every game must
//! end, every replay must verify, and the distribution of results is printed.

use crate::support::dt;

use dt::{Bots, InProc};
use dustmail::dust_tactics::bot::Style;
use dustmail::dust_tactics::DustTactics;
use dustmail::referee;
use std::collections::BTreeMap;

/// Mails a game may take before the test calls it stuck (a skirmish takes a few dozen).
const MAX_MAILS_PER_GAME: usize = 400;

#[test]
fn random_bots_play_complete_games_by_mail_and_every_replay_verifies() {
    let n: usize = std::env::var("DUSTMAIL_SOAK_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ids: Vec<String> = (0..n).map(|i| format!("g-soak-{i:04}")).collect();
    let ps = dt::players(0);
    for (i, id) in ids.iter().enumerate() {
        dt::new_game(&home, id, &ps, (i % 251) as u8);
    }
    let env = InProc::open(&home);
    let mut bots: Vec<Bots> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            Bots::new(id, &ps, move |side| {
                Style::Random(1000 * i as u64 + side as u64)
            })
        })
        .collect();

    // Rounds of mail: every unfinished game's awaited side sends its next orders, then one run
    // processes the whole batch (as the cron job would).
    let mut open: Vec<usize> = (0..n).collect();
    let mut accepted = 0;
    let mut refused = 0;
    let mut batches = 0;
    while !open.is_empty() {
        batches += 1;
        let mut still = Vec::new();
        for &i in &open {
            let g = env.load(&ids[i]);
            if g.derived.finished.is_some() {
                continue;
            }
            assert!(
                bots[i].sent < MAX_MAILS_PER_GAME,
                "{} did not end after {MAX_MAILS_PER_GAME} mails",
                ids[i]
            );
            let (name, m) = bots[i]
                .next_mail(&g)
                .unwrap_or_else(|| panic!("{}: nothing awaited but not finished", ids[i]));
            std::fs::write(home.maildir().join("new").join(name), m).unwrap();
            still.push(i);
        }
        open = still;
        if open.is_empty() {
            break;
        }
        let sum = env.run(dt::NOW);
        assert!(sum.broken.is_empty(), "{:?}", sum.broken);
        assert_eq!(sum.rejected, 0, "{sum:?}");
        accepted += sum.accepted;
        refused += sum.refused;
    }

    // Every game ended and replays clean; tally the results.
    let mut winners: BTreeMap<String, usize> = BTreeMap::new();
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut lengths = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let s = referee::replay_game(&DustTactics, &env.edges, &home, id)
            .unwrap_or_else(|e| panic!("{id}: replay failed: {e}"));
        let g = env.load(id);
        let r = g.derived.finished.clone().expect("finished");
        *winners
            .entry(r.winner.clone().unwrap_or_else(|| "draw".into()))
            .or_default() += 1;
        *reasons.entry(r.reason.clone()).or_default() += 1;
        lengths.push(bots[i].sent);
        assert!(s.finished && s.signatures == s.submissions, "{id}: {s:?}");
    }
    // The published logs audit clean too (a sample, through the binary).
    for id in ids.iter().take(3) {
        let log = dt::log_path(&home, id);
        let o = std::process::Command::new(dt::bin())
            .arg("audit")
            .arg(&log)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{id}: {}", dt::text(&o));
    }
    // Every mail is in cur/, none left behind, nothing undelivered.
    assert_eq!(dt::names(&home.maildir().join("new")), Vec::<String>::new());
    assert_eq!(dt::names(&home.root.join("outbox")), Vec::<String>::new());
    lengths.sort();
    eprintln!(
        "soak: {n} games, {batches} runs, {accepted} submissions accepted, {refused} refused; \
         mails per game min {} median {} max {}",
        lengths.first().unwrap_or(&0),
        lengths.get(lengths.len() / 2).unwrap_or(&0),
        lengths.last().unwrap_or(&0)
    );
    eprintln!("soak: winners {winners:?}");
    eprintln!("soak: reasons {reasons:?}");
    assert_eq!(winners.values().sum::<usize>(), n);
    // Random bots must not all reach the same end: the results are spread.
    if n >= 20 {
        assert!(
            winners.len() >= 2,
            "every game ended the same way: {winners:?}"
        );
    }
}
