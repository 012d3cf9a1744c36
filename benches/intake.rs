//! Intake: N signed order mails across G games in a Maildir, processed end to end by one `run`
//! (parse, verify, apply, ledger append + fsync, reports rendered, outbox written), in mails/s,
//! beside the floor: mail-parser parse + ed25519 verify alone on the same mails.
//! Defaults N = 10,000, G = 1,000 (DUSTMAIL_BENCH_GAMES, DUSTMAIL_BENCH_MAILS_PER_GAME).
//! DUSTMAIL_BENCH_PICTURES=0 measures a home with `board_pictures = false` (text boards only).

mod common;

use common::dt::{self, Bots, InProc};
use dustmail::config::Home;
use dustmail::dust_tactics::bot::Style;

fn main() {
    if !common::under_cargo_bench("intake") {
        return;
    }
    let games = common::env_num("DUSTMAIL_BENCH_GAMES", 1000);
    let per_game = common::env_num("DUSTMAIL_BENCH_MAILS_PER_GAME", 10);
    let d = common::tempdir();
    let prep = common::home(&d.path().join("prep"));
    let ps = dt::players(0);
    let ids: Vec<String> = (0..games).map(|i| format!("g-{i:05}")).collect();
    {
        let env = InProc::open(&prep);
        for (i, id) in ids.iter().enumerate() {
            common::create(&env, id, &ps, (i % 251) as u8, 4);
        }
        env.run(dt::NOW); // welcome mails out of the way
    }
    // The measured home starts as a copy of the prepared one, before any order.
    let home = Home::new(d.path().join("measured"));
    dt::copy_tree(&prep.root, &home.root);
    let pictures = std::env::var("DUSTMAIL_BENCH_PICTURES").map_or(true, |v| v != "0");
    if !pictures {
        let cfg = std::fs::read_to_string(home.config_path()).unwrap();
        let off = cfg.replace("board_pictures = true", "board_pictures = false");
        assert_ne!(cfg, off);
        std::fs::write(home.config_path(), off).unwrap();
    }

    // Random bots play `per_game` mails in every game of the prep home (one run per round of
    // mails), which gives a batch of mails that are all meaningful, in an order that is legal.
    let env = InProc::open(&prep);
    let mut bots: Vec<Bots> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| Bots::new(id, &ps, move |s| Style::Random(i as u64 * 10 + s as u64)))
        .collect();
    let mut batch: Vec<(String, Vec<u8>)> = Vec::new();
    for step in 0..per_game {
        for (i, id) in ids.iter().enumerate() {
            let g = env.load(id);
            if let Some((_, m)) = bots[i].next_mail(&g) {
                let name = format!("{step:03}-{id}.eml");
                std::fs::write(prep.maildir().join("new").join(&name), &m).unwrap();
                batch.push((name, m.into_bytes()));
            }
        }
        env.run(dt::NOW);
    }
    let n = batch.len();
    eprintln!("intake: {n} mails across {games} games prepared");

    // Floor: mail-parser parse + ed25519 verify of each mail's block, nothing else.
    let keys: Vec<_> = ps.iter().map(|p| p.key.verifying_key()).collect();
    let (ok, floor) = common::time(|| {
        let mut ok = 0;
        for (_, m) in &batch {
            let inc = dustmail::mail::parse_mail(m, dt::REFEREE, 1 << 20).unwrap();
            for b in &inc.blocks {
                if keys
                    .iter()
                    .any(|k| dustmail::crypto::verify(k, &b.canonical, &b.signature_b64).is_ok())
                {
                    ok += 1;
                }
            }
        }
        ok
    });
    assert_eq!(ok, n, "every block verifies");

    // End to end: one run over the whole Maildir.
    for (name, m) in &batch {
        std::fs::write(home.maildir().join("new").join(name), m).unwrap();
    }
    let menv = InProc::open(&home);
    let (sum, e2e) =
        common::time(|| dustmail::referee::run(&menv.ctx(dt::NOW), &home.maildir()).unwrap());
    assert_eq!(sum.mails, n);
    assert!(sum.broken.is_empty());
    let queued = dt::names(&home.root.join("outbox")).len() / 2;
    let tr = menv.config.outbox_transport().unwrap();
    let (rep, deliver) = common::time(|| menv.outbox.deliver(&tr, dt::t(dt::NOW)).unwrap());

    let floor_rate = common::rate(n, floor);
    let e2e_rate = common::rate(n, e2e);
    println!(
        "intake: {n} mails, {games} games, {} accepted, {} refused, {queued} mails queued, board pictures {}",
        sum.accepted,
        sum.refused,
        if pictures { "on" } else { "off" }
    );
    println!(
        "intake: end to end {e2e_rate:.0} mails/s ({:.2} s) | floor parse+verify {floor_rate:.0} mails/s ({:.2} s) | ratio {:.2} (goal >= 0.5)",
        e2e.as_secs_f64(),
        floor.as_secs_f64(),
        e2e_rate / floor_rate
    );
    println!(
        "intake: then delivering {} mails to sent/ (file transport): {:.0} mails/s",
        rep.delivered,
        common::rate(rep.delivered, deliver)
    );
    println!("intake: peak memory {:.1} MiB (VmHWM)", common::peak_mib());
}
