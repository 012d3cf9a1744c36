//! Whole games through the real pipeline, played by scripted players that only send signed mails
//! (real keys, real MIME mails in the Maildir, `referee::run`). Each player is a `Bot` for their
//! side; in the team game each of the four players orders only their own units (000: "four
//! players can play two-on-two by dividing the armies").
//!
//! A player sets standing orders in their first mail, then answers what the game awaits from
//! them and, in the same mail, whatever follows that they can foresee (a pending `first` and the
//! activation after it, several activations in a row): the commands that turn out not to apply
//! yet are refused alone (issue 4, point 3). The number of mails per activation is printed
//! (`cargo test --test it scripted_games:: -- --nocapture`), and the mails the referee sent.

use crate::dust_home;
use crate::support;

use dust_home::*;
use dustmail::dust_tactics::bot::{Bot, Style};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Game, Sender};
use dustmail::ledger::Event;
use dustmail::referee;
use std::collections::BTreeMap;
use support::{real_mail, t};

/// What a played game measured.
struct Played {
    mails: usize,
    /// Mails that answered a `casualties` decision (standing casualty orders answer them all).
    casualty_mails: usize,
    activations: usize,
    refused_commands: usize,
    /// Commands refused because they named a teammate's unit.
    foreign: usize,
    finished: bool,
    result: String,
    /// Mails the referee sent, and how many of them are reports headed by a receipt: before
    /// issue 17 item 3 each such receipt was a mail of its own.
    referee_mails: usize,
    headed: usize,
}

/// Plays `table` to the end: at each step the seat owning the awaited decision mails orders.
fn play(table: &mut Table, standing: bool) -> Played {
    let mut bots: BTreeMap<String, Bot> = BTreeMap::new();
    let mut now = t("2026-03-01T10:00:00Z");
    let mut mails = 0;
    let mut casualty_mails = 0;
    for step in 0..400 {
        let g = referee::load_game(&DustTactics, &table.edges, &table.home, &table.id).unwrap();
        if g.derived.finished.is_some() {
            break;
        }
        let awaiting = DustTactics.awaiting(g.derived.state.typed());
        let Some(side) = awaiting.first().map(|a| a.side.clone()) else {
            panic!("the game awaits nothing but is not finished");
        };
        if awaiting.first().is_some_and(|a| a.decision == "casualties") {
            casualty_mails += 1;
        }
        let bot = bots
            .entry(side.clone())
            .or_insert_with(|| Bot::new(&side, Style::Aggressive));
        // The answer, then what the same player can foresee, guessed with pessimistic dice.
        let mut sim: dustmail::dust_tactics::state::State = g
            .derived
            .state
            .typed::<dustmail::dust_tactics::state::State>()
            .clone();
        let mut commands: Vec<String> = Vec::new();
        let mut seat_ix: Option<usize> = None;
        for _ in 0..4 {
            if DustTactics.awaiting(&sim).first().map(|a| &a.side) != Some(&side) {
                break;
            }
            let Some(o) = bot.orders(&sim) else { break };
            let owner = unit_of(&o).and_then(|u| {
                table.seats.iter().position(|s| {
                    s.side == side && s.units.as_ref().is_none_or(|us| us.contains(&u))
                })
            });
            let ix = match (seat_ix, owner) {
                (Some(a), Some(b)) if a != b => break,
                (Some(a), _) => a,
                (None, Some(b)) => b,
                (None, None) => table.seats.iter().position(|s| s.side == side).unwrap(),
            };
            seat_ix = Some(ix);
            let before = sim.clone();
            let units = table.seats[ix].units.clone();
            DustTactics.submit(
                &mut sim,
                Sender {
                    side: &side,
                    units: units.as_deref(),
                },
                &lines(&o),
                &mut Pessimist,
            );
            commands.push(o);
            if sim == before {
                break;
            }
        }
        let ix = seat_ix.expect("a seat answers");
        let seat = &mut table.seats[ix];
        let mut text = String::new();
        if standing && !seat.sent_standing {
            seat.sent_standing = true;
            text.push_str(&format!("standing first {}\n", seat.side));
            let mine: Vec<String> = seat.units.clone().unwrap_or_else(|| {
                g.derived
                    .state
                    .typed::<dustmail::dust_tactics::state::State>()
                    .units
                    .iter()
                    .filter(|u| u.side == seat.side)
                    .map(|u| u.id.clone())
                    .collect()
            });
            if let Some(u) = mine.first() {
                text.push_str(&format!("standing react any with {u}\n"));
            }
            // Squads lose their last models first (the first model is often the leader).
            for u in g
                .derived
                .state
                .typed::<dustmail::dust_tactics::state::State>()
                .units
                .iter()
                .filter(|u| mine.contains(&u.id))
            {
                if u.models.len() > 1 {
                    let order: Vec<&str> = u.models.iter().rev().map(String::as_str).collect();
                    text.push_str(&format!(
                        "standing casualties {}: {}\n",
                        u.id,
                        order.join(" ")
                    ));
                }
            }
        }
        text.push_str(&commands.join("\n"));
        seat.seq += 1;
        let orders = format!(
            "game: {}\nside: {}\nseq: {}\n\n{text}\n",
            table.id, seat.side, seat.seq
        );
        let mail = real_mail(
            &seat.address,
            &format!("<m{step}@players.example>"),
            &seat.key,
            &orders,
        );
        std::fs::write(
            table
                .home
                .maildir()
                .join("new")
                .join(format!("{step:04}.eml")),
            mail,
        )
        .unwrap();
        if std::env::var_os("SCRIPT_TRACE").is_some() {
            println!(
                "--- {} awaited {:?}:\n{text}",
                seat.address,
                awaiting
                    .iter()
                    .map(|a| format!("{} {}", a.side, a.decision))
                    .collect::<Vec<_>>()
            );
        }
        mails += 1;
        let address = seat.address.clone();
        now += chrono::Duration::hours(1);
        let sum = referee::run(&table.ctx(now), &table.home.maildir()).unwrap();
        assert_eq!(
            (sum.accepted, sum.refused),
            (1, 0),
            "step {step}: the signed mail of {address} is accepted: {sum:?}"
        );
    }
    // Measure from the ledger: activations resolved, commands refused.
    let entries =
        dustmail::ledger::read_all(&table.home.game_dir(&table.id).join("log.jsonl")).unwrap();
    let mut activations = 0;
    let mut refused = 0;
    let mut foreign = 0;
    let mut result = String::new();
    for e in &entries {
        match &e.event {
            Event::Submission(s) => {
                for r in &s.step.results {
                    match &r.outcome {
                        CommandOutcome::Accepted { understood }
                            if understood.starts_with("activate") =>
                        {
                            activations += 1
                        }
                        CommandOutcome::Refused { reason, .. } => {
                            refused += 1;
                            if reason.contains("commanded by another player") {
                                foreign += 1;
                            }
                        }
                        _ => {}
                    }
                }
            }
            Event::Finished(f) => result = referee::result_text(&f.result),
            _ => {}
        }
    }
    // The whole game replays and audits from the log.
    referee::replay_game(&DustTactics, &table.edges, &table.home, &table.id).unwrap();
    Played {
        mails,
        casualty_mails,
        activations,
        refused_commands: refused,
        foreign,
        finished: !result.is_empty(),
        result,
        referee_mails: table.sink.ids().len(),
        headed: table
            .sink
            .matching("")
            .iter()
            .filter(|(_, m)| m.subject.ends_with(": receipt and report"))
            .count(),
    }
}

fn report(name: &str, p: &Played) {
    println!(
        "{name}: {} mails for {} activations = {:.2} mails per activation ({} commands refused as not applicable yet); {}",
        p.mails,
        p.activations,
        p.mails as f64 / p.activations.max(1) as f64,
        p.refused_commands,
        p.result
    );
    println!(
        "{name}: the referee sent {} mails ({} before issue 17 item 3, when the {} receipts were mails of their own)",
        p.referee_mails,
        p.referee_mails + p.headed,
        p.headed
    );
}

#[test]
fn a_two_player_game_is_played_to_the_end_by_signed_mails_only() {
    let mut table = Table::new(
        "games/dust-tactics/scenarios/skirmish.toml",
        &[("allies", "ann@example.org"), ("axis", "bob@example.org")],
    );
    let p = play(&mut table, true);
    report("skirmish, 2 players, standing orders set", &p);
    assert!(p.finished, "the game ends");
    // The goal of issue 4: about one mail per activation once standing orders are set.
    assert!(
        p.mails * 100 <= p.activations * 125,
        "{} mails for {} activations",
        p.mails,
        p.activations
    );
    assert!(p.activations > 0);
    // Every player got a report after every step: the mails went out.
    assert!(!table.sink.matching("-report-allies").is_empty());
    assert!(!table.sink.matching("-end-axis").is_empty());
}

#[test]
fn a_two_against_two_game_is_played_to_the_end_each_player_ordering_their_own_units() {
    let mut table = Table::new(
        "games/dust-tactics/scenarios/two-on-two.toml",
        &[
            ("allies", "ann@example.org"),
            ("allies", "amy@example.org"),
            ("axis", "bob@example.org"),
            ("axis", "ben@example.org"),
        ],
    );
    let p = play(&mut table, true);
    report("two-on-two, 4 players, standing orders set", &p);
    assert!(p.finished, "the game ends");
    assert!(
        p.mails * 100 <= p.activations * 125,
        "{} mails for {} activations",
        p.mails,
        p.activations
    );
    assert_eq!(p.foreign, 0, "each player ordered only their own units");
    // All four players mailed orders, each with their own seq.
    for s in &table.seats {
        assert!(s.seq > 0, "{} sent no mail", s.address);
    }
    // Each of the four players gets every report and the end.
    for who in ["ann", "amy", "bob", "ben"] {
        assert!(
            !table
                .sink
                .matching(&format!("{who}_example_org"))
                .is_empty(),
            "{who} got no mail"
        );
    }
    assert_eq!(table.sink.matching("-end-").len(), 4);
}

#[test]
fn the_skirmish_with_standing_orders_needs_no_more_mails_per_activation_than_without() {
    let mut with = Table::new(
        "games/dust-tactics/scenarios/skirmish.toml",
        &[("allies", "ann@example.org"), ("axis", "bob@example.org")],
    );
    let mut without = Table::new(
        "games/dust-tactics/scenarios/skirmish.toml",
        &[("allies", "ann@example.org"), ("axis", "bob@example.org")],
    );
    let a = play(&mut with, true);
    let b = play(&mut without, false);
    report("skirmish with standing orders", &a);
    report("skirmish without standing orders", &b);
    assert!(a.finished && b.finished);
    // Dice v2 key each step's dice by the signature of the mail that caused it, so the two games
    // roll different dice and their mails per activation differ by luck (printed above); what
    // standing orders promise whatever the dice: no mail is needed to choose casualties.
    assert_eq!(
        a.casualty_mails, 0,
        "standing casualty orders answer every casualty decision"
    );
}
