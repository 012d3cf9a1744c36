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
    largest_mails(&menv, &home, &ps);
    println!("intake: peak memory {:.1} MiB (VmHWM)", common::peak_mib());
}

/// Issue 10 finding 4: the costliest mails a player can send, each alone in a run: a block just
/// under the 64 KiB a signed text may carry (and under `max_mail_bytes`) of unknown commands
/// (refused after 20 errors), and one of `report` lines (accepted, every line answered; the
/// receipt lists 100). Plus the outbox rendering a body of several MB, beside lettre's own
/// (quadratic) encoding of the same text.
fn largest_mails(menv: &InProc, home: &Home, ps: &[dt::Player]) {
    let max = menv
        .config
        .max_mail_bytes
        .min(dustmail::ledger::MAX_SUBMISSION_BYTES);
    common::create(menv, "g-largest", ps, 9, 4);
    menv.run(dt::NOW);
    let tr = menv.config.outbox_transport().unwrap();
    for (what, line) in [
        (
            "unknown commands, refused after 20 errors",
            "frobnicate the widget",
        ),
        ("`report` lines, accepted", "report"),
    ] {
        let mut commands = String::new();
        // Each line goes out as CRLF; room is left for the headers, the block's own lines and
        // its signature (the signed text counts LF only, so it stays under the bound).
        let mut bytes = 0;
        while bytes + line.len() + 2 < max - 4096 {
            commands.push_str(line);
            commands.push('\n');
            bytes += line.len() + 2;
        }
        let m = dt::mail(
            &ps[0].address,
            &format!("largest-{}@players.example", line.len()),
            &ps[0].key,
            &dt::orders("g-largest", "allies", 1, &commands),
        );
        let bytes = m.len();
        std::fs::write(home.maildir().join("new").join("largest.eml"), &m).unwrap();
        let (sum, t) = common::time(|| {
            let sum = dustmail::referee::run(&menv.ctx(dt::NOW), &home.maildir()).unwrap();
            menv.outbox.deliver(&tr, dt::t(dt::NOW)).unwrap();
            sum
        });
        assert_eq!((sum.mails, sum.rejected), (1, 0), "{bytes} bytes: {sum:?}");
        println!(
            "intake: largest mail ({bytes} bytes, {} lines of {what}): {:.2} s for its run and delivery; accepted {} refused {}",
            commands.lines().count(),
            t.as_secs_f64(),
            sum.accepted,
            sum.refused
        );
    }

    // Rendering alone: a text body of 8 MB (a receipt of 100,000 lines).
    let text: String = (0..100_000)
        .map(|i| {
            format!(
                "line {i:06}: REFUSED: `frobnicate` is not a command; send instead: a command\n"
            )
        })
        .collect();
    let mail = dustmail::outbox::Mail {
        from: dt::REFEREE.into(),
        to: vec![ps[0].address.clone()],
        subject: "render".into(),
        in_reply_to: None,
        references: Vec::new(),
        text: text.clone(),
        html: None,
        attachments: Vec::new(),
        headers: Vec::new(),
    };
    let (eml, ours) =
        common::time(|| dustmail::outbox::render("render-1", &mail, dt::t(dt::NOW)).unwrap());
    let (theirs_len, theirs) = common::time(|| {
        lettre::message::SinglePart::plain(text.clone())
            .formatted()
            .len()
    });
    println!(
        "intake: rendering a {:.1} MB text body: outbox {:.3} s | lettre's own body encoding {:.3} s",
        eml.0.len() as f64 / 1e6,
        ours.as_secs_f64(),
        theirs.as_secs_f64()
    );
    assert!(theirs_len > 0);
}
