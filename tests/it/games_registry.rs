//! Issue 11 item 2: several games in one home and one run, picked by `created.game` through a
//! registry (DESIGN §2). The second game is the toy race of tests/support (its own folder); the
//! only line that brings it in is the test registry `support::GAMES`.

use crate::support::*;
use dustmail::game::{Game, NewRequest};
use dustmail::ledger::{Event, Player};
use dustmail::referee::{self, NewGame};
use dustmail::registry::Registry;
use std::process::Command;

/// A Dust Tactics skirmish in the harness's home, for the players' real keys.
fn new_dust_tactics(
    h: &Harness,
    allies: &ed25519_dalek::SigningKey,
    axis: &ed25519_dalek::SigningKey,
) {
    let plan = dustmail::dust_tactics::DustTactics
        .plan_new(&NewRequest {
            scenario: Some("skirmish".into()),
            ..NewRequest::default()
        })
        .unwrap();
    let pk = |k: &ed25519_dalek::SigningKey| dustmail::crypto::public_key_text(&k.verifying_key());
    referee::create_game(
        &h.ctx(T0),
        NewGame {
            game: "dust-tactics".into(),
            setup: plan.setup,
            players: vec![
                Player {
                    side: "allies".into(),
                    address: "cy@example.org".into(),
                    public_key: pk(allies),
                },
                Player {
                    side: "axis".into(),
                    address: "di@example.org".into(),
                    public_key: pk(axis),
                },
            ],
            seed: [7u8; 32],
            id: Some("g-dt".into()),
            max_rounds: plan.max_rounds,
        },
    )
    .unwrap();
}

fn created_game(h: &Harness, id: &str) -> String {
    match &h.entries(id)[0].event {
        Event::Created(c) => c.game.clone(),
        e => panic!("first line of {id} is {e:?}"),
    }
}

/// One home holds a toy game and a Dust Tactics game; one run takes the orders of both, each
/// game applies its own, and both ledgers replay through the registry.
#[test]
fn one_run_serves_a_second_game_beside_dust_tactics() {
    let h = Harness::with_real_edges();
    let (allies, axis) = real_player_keys();
    h.new_game_with_keys(&allies, &axis);
    // Other keys for the Dust Tactics players: a key is one player's.
    let (cy, di) = (
        ed25519_dalek::SigningKey::from_bytes(&[3u8; 32]),
        ed25519_dalek::SigningKey::from_bytes(&[4u8; 32]),
    );
    new_dust_tactics(&h, &cy, &di);
    assert_eq!(created_game(&h, "g-toy"), "toy");
    // A new game records the rules revision it is made under (R147–R153 came with 1).
    match &h.entries("g-dt")[0].event {
        Event::Created(c) => assert_eq!(
            c.setup.rules_revision,
            dustmail::dust_tactics::rules::RULES_REVISION
        ),
        e => panic!("{e:?}"),
    }
    assert_eq!(created_game(&h, "g-dt"), "dust-tactics");

    // Who moves first in Dust Tactics is rolled; the side it awaits answers.
    let dt = referee::load_game(
        &dustmail::dust_tactics::DustTactics,
        &h.edges,
        &h.home,
        "g-dt",
    )
    .unwrap();
    let a = dustmail::dust_tactics::DustTactics
        .awaiting(dt.derived.state.typed())
        .remove(0);
    let (dt_key, dt_from) = if a.side == "allies" {
        (&cy, "cy@example.org")
    } else {
        (&di, "di@example.org")
    };
    let dt_orders = format!("game: g-dt\nside: {}\nseq: 1\n\n{}\n", a.side, a.options[0]);
    h.drop_mail(
        "1-dt.eml",
        &real_mail(dt_from, "<dt-1@example.org>", dt_key, &dt_orders),
    );
    h.drop_mail(
        "2-toy.eml",
        &real_mail(
            "ann@example.org",
            "<toy-1@example.org>",
            &allies,
            "game: g-toy\nside: allies\nseq: 1\n\nadd 3\n",
        ),
    );
    let sum = h.run("2026-01-01T13:00:00Z");
    assert_eq!((sum.mails, sum.accepted, sum.refused), (2, 2, 0), "{sum:?}");
    assert!(sum.broken.is_empty(), "{:?}", sum.broken);

    // Each game applied its own orders.
    let toy = referee::load_any(&Registry::new(&GAMES), &h.edges, &h.home, "g-toy").unwrap();
    assert_eq!(toy.game.name(), "toy");
    assert_eq!(toy.derived.state.typed::<ToyState>().totals["allies"], 3);
    let dt = referee::load_any(&Registry::new(&GAMES), &h.edges, &h.home, "g-dt").unwrap();
    assert_eq!(dt.game.name(), "dust-tactics");
    assert_eq!(dt.derived.last_seq.get(&a.side), Some(&1));
    // Both senders were answered, each about their own game.
    let mails: Vec<_> = h.sink.ids().iter().filter_map(|i| h.sink.get(i)).collect();
    let about = |game: &str, to: &str| {
        mails.iter().any(|m| {
            m.subject.starts_with(&format!("[dustmail {game}]")) && m.to.iter().any(|t| t == to)
        })
    };
    assert!(about("g-dt", dt_from), "no mail to {dt_from} about g-dt");
    assert!(
        about("g-toy", "ann@example.org"),
        "no mail to ann about g-toy"
    );

    // Both ledgers replay with the game their `created` line names.
    for id in ["g-toy", "g-dt"] {
        let game = referee::game_of(&Registry::new(&GAMES), &h.home, id).unwrap();
        referee::replay_game(game, &h.edges, &h.home, id).unwrap();
    }
}

/// A home holding a game this build does not know: that game is reported, the others run.
#[test]
fn a_game_the_registry_does_not_know_is_named_and_the_others_still_run() {
    let h = Harness::with_real_edges();
    let (allies, axis) = real_player_keys();
    h.new_game_with_keys(&allies, &axis);
    // Only Dust Tactics in this registry: the toy game is unknown to it.
    let only_dt = Registry::new(&GAMES[1..]);
    let e = referee::load_any(&only_dt, &h.edges, &h.home, "g-toy")
        .err()
        .expect("an unknown game must not load");
    let msg = e.to_string();
    assert!(msg.contains("`toy` game"), "{msg}");
    assert!(msg.contains("dust-tactics"), "{msg}");
    // Replaying a toy ledger as Dust Tactics is refused, not attempted.
    let e = referee::replay_game(
        &dustmail::dust_tactics::DustTactics,
        &h.edges,
        &h.home,
        "g-toy",
    )
    .expect_err("replayed as the wrong game");
    assert!(e.to_string().contains("`toy` game"), "{e}");
}

fn dustmail(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .args(args)
        .output()
        .unwrap()
}

/// `dustmail games` lists the games, their rulesets and their scenarios (DESIGN §3).
#[test]
fn games_lists_dust_tactics_with_its_ruleset_and_scenarios() {
    let o = dustmail(&["games"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("dust-tactics:"), "{out}");
    assert!(out.contains("ffg-revised"), "{out}");
    for s in ["skirmish", "crossroads", "two-on-two"] {
        assert!(out.contains(s), "scenario {s} missing:\n{out}");
    }
}

/// `new --game` and `demo --game` name an unknown game and list the known ones.
#[test]
fn an_unknown_game_or_ruleset_is_refused_with_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let home = home.to_str().unwrap();
    let o = dustmail(&["--home", home, "init", "--referee", "ref@example.org"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = dustmail(&[
        "--home",
        home,
        "new",
        "--game",
        "chess",
        "--scenario",
        "skirmish",
        "--player",
        "allies=a@example.org:ed25519:AAAA",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no game `chess`") && err.contains("dust-tactics"),
        "{err}"
    );
    let demo_home = dir.path().join("demo");
    let o = dustmail(&[
        "--home",
        demo_home.to_str().unwrap(),
        "demo",
        "--ruleset",
        // issue 18 offers battlefront-2013: an id no ruleset has.
        "battlefront-2014",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no ruleset `battlefront-2014`") && err.contains("ffg-revised"),
        "{err}"
    );
    assert!(!demo_home.exists(), "a refused demo makes no home");
}

/// Refusals and answers of one run's receipts, by line, for the mail sent from `to`.
fn receipt_lines(h: &Harness, to: &str) -> Vec<String> {
    h.sink
        .ids()
        .iter()
        .filter_map(|i| h.sink.get(i))
        .filter(|m| m.to.iter().any(|t| t == to))
        .map(|m| m.text.clone())
        .collect()
}

/// Issue 11 item 2: `concede`, `offer draw` and `accept draw` are parsed by the pipeline for
/// every game and applied by the game in their place; a game without them says so, and
/// `offer`/`accept` lines about anything else stay the game's.
#[test]
fn concessions_are_the_pipelines_lines_for_every_game() {
    let h = Harness::with_real_edges();
    let (allies, axis) = real_player_keys();
    h.new_game_with_keys(&allies, &axis);
    h.drop_mail(
        "1-toy.eml",
        &real_mail(
            "ann@example.org",
            "<toy-c@example.org>",
            &allies,
            "game: g-toy\nside: allies\nseq: 1\n\nadd 2\nconcede\noffer peace\n",
        ),
    );
    h.run("2026-01-01T13:00:00Z");
    let e = h.entries("g-toy");
    let Event::Submission(s) = &e.last().unwrap().event else {
        panic!("{:?}", e.last())
    };
    let outcome = |line: usize| {
        s.step
            .results
            .iter()
            .find(|r| r.line == line)
            .map(|r| format!("{:?}", r.outcome))
            .unwrap_or_default()
    };
    // Line numbers count the game:/side:/seq: header and the blank line.
    assert!(outcome(5).contains("Accepted"), "{}", outcome(5));
    assert!(
        outcome(6).contains("game toy has no `concede`"),
        "{}",
        outcome(6)
    );
    assert!(
        outcome(7).contains("`offer peace` is not a command"),
        "the game's own line: {}",
        outcome(7)
    );
    assert!(!receipt_lines(&h, "ann@example.org").is_empty());
}

/// A `concede` before an activation in the same mail ends the game first: the activation after it
/// is refused, as it would be in a later mail (each line in its place).
#[test]
fn a_concession_acts_in_its_place_among_the_games_commands() {
    let h = Harness::with_real_edges();
    let (cy, di) = (
        ed25519_dalek::SigningKey::from_bytes(&[3u8; 32]),
        ed25519_dalek::SigningKey::from_bytes(&[4u8; 32]),
    );
    new_dust_tactics(&h, &cy, &di);
    let dt = referee::load_game(
        &dustmail::dust_tactics::DustTactics,
        &h.edges,
        &h.home,
        "g-dt",
    )
    .unwrap();
    let a = dustmail::dust_tactics::DustTactics
        .awaiting(dt.derived.state.typed())
        .remove(0);
    let (key, from, other) = if a.side == "allies" {
        (&cy, "cy@example.org", "axis")
    } else {
        (&di, "di@example.org", "allies")
    };
    let text = format!(
        "game: g-dt\nside: {}\nseq: 1\n\nconcede\n{}\n",
        a.side, a.options[0]
    );
    h.drop_mail("1.eml", &real_mail(from, "<c-1@example.org>", key, &text));
    h.run("2026-01-01T13:00:00Z");
    let dt = referee::load_game(
        &dustmail::dust_tactics::DustTactics,
        &h.edges,
        &h.home,
        "g-dt",
    )
    .unwrap();
    let fin = dt.derived.finished.expect("the concession ended the game");
    assert_eq!(fin.winner.as_deref(), Some(other));
    let sub = h
        .entries("g-dt")
        .into_iter()
        .find_map(|e| match e.event {
            Event::Submission(s) => Some(s),
            _ => None,
        })
        .unwrap();
    let after: Vec<String> = sub
        .step
        .results
        .iter()
        .filter(|r| r.line == 6)
        .map(|r| format!("{:?}", r.outcome))
        .collect();
    assert!(
        after.iter().all(|o| o.contains("Refused")) && !after.is_empty(),
        "the command after the concession: {after:?}"
    );
}
