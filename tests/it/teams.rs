//! Teams: a side played by several players, each with their own key, each commanding the units
//! the scenario or `new --assign` gives them (000 "Playing with more players": "four players can
//! play two-on-two by dividing the armies"). docs/orders.md "Teams".

use crate::dust_home;
use crate::support;

use dust_home::*;
use dustmail::cli::team_assignments;
use dustmail::dust_tactics::new_game::team_units;
use dustmail::dust_tactics::scenario;
use dustmail::game::CommandOutcome;
use dustmail::ledger::{Event, Player};
use std::path::Path;
use std::process::Command;

const TWO_ON_TWO: &str = "games/dust-tactics/scenarios/two-on-two.toml";
const ANN: &str = "ann@example.org";
const AMY: &str = "amy@example.org";
const BOB: &str = "bob@example.org";
const BEN: &str = "ben@example.org";

fn four() -> Table {
    Table::new(
        TWO_ON_TWO,
        &[
            ("allies", ANN),
            ("allies", AMY),
            ("axis", BOB),
            ("axis", BEN),
        ],
    )
}

fn player(side: &str, address: &str) -> Player {
    Player {
        side: side.into(),
        address: address.into(),
        public_key: "ed25519:unused".into(),
    }
}

fn two_on_two() -> scenario::Scenario {
    scenario::parse("two-on-two", &std::fs::read_to_string(TWO_ON_TWO).unwrap()).unwrap()
}

#[test]
fn units_go_to_players_by_label_or_address_and_assign_overrides_the_scenario() {
    let players = [
        player("allies", ANN),
        player("allies", AMY),
        player("axis", BOB),
        player("axis", BEN),
    ];
    let a = team_assignments(&team_units(&two_on_two()), &players, &[]).unwrap();
    // `player = "allies-1"` is the first --player of allies.
    assert_eq!(a["rangers"], ANN);
    assert_eq!(a["hotdog"], AMY);
    assert_eq!(a["luther"], BEN);
    let a = team_assignments(
        &team_units(&two_on_two()),
        &players,
        &["hotdog=ann@example.org".into(), "ludwig=axis-2".into()],
    )
    .unwrap();
    assert_eq!(a["hotdog"], ANN);
    assert_eq!(a["ludwig"], BEN);
}

#[test]
fn team_assignment_mistakes_say_what_to_write() {
    let players = [
        player("allies", ANN),
        player("allies", AMY),
        player("axis", BOB),
        player("axis", BEN),
    ];
    let e = team_assignments(
        &team_units(&two_on_two()),
        &players,
        &["tank=allies-1".into()],
    )
    .unwrap_err();
    assert!(e.contains("the scenario has no unit `tank`"), "{e}");
    let e = team_assignments(
        &team_units(&two_on_two()),
        &players,
        &["rangers=allies-3".into()],
    )
    .unwrap_err();
    assert!(e.contains("not a player of side allies"), "{e}");
    assert!(e.contains("allies-1 … allies-2"), "{e}");
    // A player left without units.
    let e = team_assignments(
        &team_units(&two_on_two()),
        &players,
        &["assault=allies-1".into(), "hotdog=allies-1".into()],
    )
    .unwrap_err();
    assert!(
        e.contains("amy@example.org of side allies commands no unit"),
        "{e}"
    );
    // A team side in a scenario without `player` fields.
    let skirmish = scenario::builtin_scenario("skirmish").unwrap().unwrap();
    let e = team_assignments(
        &team_units(&skirmish),
        &[
            player("allies", ANN),
            player("allies", AMY),
            player("axis", BOB),
        ],
        &[],
    )
    .unwrap_err();
    assert!(e.contains("is given to none of them"), "{e}");
    assert!(e.contains("--assign"), "{e}");
    // One player per side: the scenario's `player` fields do not matter.
    assert!(team_assignments(
        &team_units(&two_on_two()),
        &[player("allies", ANN), player("axis", BOB)],
        &[]
    )
    .unwrap()
    .is_empty());
}

#[test]
fn each_team_player_has_their_own_seq_and_orders_only_their_own_units() {
    let mut table = four();
    // Both allied players start at seq 1: seqs are per player.
    table.mail(ANN, "standing react any with rangers", None);
    table.mail(
        AMY,
        "standing react any with hotdog\nstanding react any with rangers",
        None,
    );
    let s = table.run("2026-03-01T10:00:00Z");
    assert_eq!((s.accepted, s.refused), (2, 0));
    let entries = table.entries();
    let amy = entries
        .iter()
        .rev()
        .find_map(|e| match &e.event {
            Event::Submission(s) if s.player.as_deref() == Some(AMY) => Some(s.clone()),
            _ => None,
        })
        .expect("the ledger names the team player who signed");
    assert_eq!(amy.player_seq, 1);
    match &amy.step.results[1].outcome {
        CommandOutcome::Refused { reason, .. } => {
            assert!(
                reason.contains("`rangers` is commanded by another player"),
                "{reason}"
            )
        }
        other => panic!("amy may not give rangers orders: {other:?}"),
    }
    // Ann's seq 1 again is a replay, whatever Amy sent.
    table.mail(ANN, "report", Some(1));
    let s = table.run("2026-03-01T11:00:00Z");
    assert_eq!((s.accepted, s.refused), (0, 1));
    let refusal = table.texts("-refusal", ANN).join("\n");
    assert!(
        crate::support::flat(&refusal).contains("player ann@example.org of side allies"),
        "{refusal}"
    );
    table.verify();
}

#[test]
fn every_player_of_a_side_gets_the_welcome_the_reports_and_the_reminders() {
    let mut table = four();
    for who in [ANN, AMY, BOB, BEN] {
        assert_eq!(table.texts("-welcome-", who).len(), 1, "{who}");
    }
    // A `report` request is answered to the requester only (issue 16 item 4)…
    table.mail(BEN, "report", None);
    table.run("2026-03-01T10:00:00Z");
    for (who, n) in [(ANN, 0), (AMY, 0), (BOB, 0), (BEN, 1)] {
        assert_eq!(table.texts("-report-", who).len(), n, "{who}");
    }
    // The reminder goes to each player of each awaited side.
    let s = table.run("2026-03-03T09:00:00Z");
    assert_eq!(s.reminders, 4);
    for who in [ANN, AMY, BOB, BEN] {
        assert_eq!(table.texts("-reminder-", who).len(), 1, "{who}");
    }
    // An applied order is reported to every player.
    table.mail(ANN, "standing react any with rangers", None);
    table.run("2026-03-03T09:00:00Z");
    for (who, n) in [(ANN, 1), (AMY, 1), (BOB, 1), (BEN, 2)] {
        assert_eq!(table.texts("-report-", who).len(), n, "{who}");
    }
}

#[test]
fn a_key_of_the_other_side_cannot_sign_for_this_side() {
    let table = four();
    let bob_key = table.seats[table.seat(BOB)].key.clone();
    table.mail_as(BOB, &bob_key, "allies", 1, "report");
    let s = table.run("2026-03-01T10:00:00Z");
    assert_eq!((s.accepted, s.refused), (0, 1));
}

#[test]
fn replace_key_in_a_team_names_the_player_by_address() {
    let table = four();
    let k = ed25519_dalek::SigningKey::from_bytes(&[55u8; 32]);
    let pk = dustmail::crypto::public_key_text(&k.verifying_key());
    let ctx = table.ctx(support::t("2026-03-01T10:00:00Z"));
    let e = dustmail::referee::control_game(
        &ctx,
        &table.id,
        &format!("replace-key allies=zed@example.org:{pk}"),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("ann@example.org, amy@example.org"),
        "{e}"
    );
    // Amy cannot take Ann's key: each player signs with their own.
    let ann_pk =
        dustmail::crypto::public_key_text(&table.seats[table.seat(ANN)].key.verifying_key());
    let e = dustmail::referee::control_game(
        &ctx,
        &table.id,
        &format!("replace-key allies=amy@example.org:{ann_pk}"),
    )
    .unwrap_err();
    assert!(e.to_string().contains("already has that key"), "{e}");
    dustmail::referee::control_game(
        &ctx,
        &table.id,
        &format!("replace-key allies=amy@example.org:{pk}"),
    )
    .unwrap();
    // Amy signs with her new key and her own seq; her units are still hers.
    table.mail_as(AMY, &k, "allies", 1, "standing react any with hotdog");
    let s = table.run("2026-03-01T11:00:00Z");
    assert_eq!((s.accepted, s.refused), (1, 0));
    table.verify();
}

fn dustmail(home: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .env_remove("DUSTMAIL_HOME")
        .arg("--home")
        .arg(home)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn new_with_repeated_players_records_the_team_and_control_works_on_the_server() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("h");
    let o = dustmail(&home, &["init", "--referee", "referee@example.org"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let pk = |b: u8| {
        dustmail::crypto::public_key_text(
            &ed25519_dalek::SigningKey::from_bytes(&[b; 32]).verifying_key(),
        )
    };
    let p = |side: &str, who: &str, b: u8| format!("{side}={who}:{}", pk(b));
    let args = [
        "new".to_string(),
        "--scenario".into(),
        TWO_ON_TWO.into(),
        "--id".into(),
        "g-team".into(),
        "--player".into(),
        p("allies", ANN, 1),
        "--player".into(),
        p("allies", AMY, 2),
        "--player".into(),
        p("axis", BOB, 3),
        "--player".into(),
        p("axis", BEN, 4),
        "--assign".into(),
        "hotdog=allies-1".into(),
        "--now".into(),
        "2026-03-01T09:00:00Z".into(),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = dustmail(&home, &args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let log = std::fs::read_to_string(home.join("games/g-team/log.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(first["assignments"]["hotdog"], ANN);
    assert_eq!(first["assignments"]["assault"], AMY);
    assert_eq!(first["players"].as_array().unwrap().len(), 4);
    // The same address twice is refused.
    let mut bad = args.clone();
    bad[4] = "g-bad";
    let dup = p("allies", ANN, 9);
    bad[8] = &dup;
    let o = dustmail(&home, &bad);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("an address and a key of their own"));
    // Control on the server.
    let o = dustmail(
        &home,
        &[
            "control",
            "g-team",
            "extend",
            "12",
            "--now",
            "2026-03-01T10:00:00Z",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout)
        .contains("the deadline is now 2026-03-04T21:00:00+00:00"));
    let o = dustmail(&home, &["control", "g-team", "resume"]);
    assert_eq!(o.status.code(), Some(1), "not paused");
    assert!(String::from_utf8_lossy(&o.stderr).contains("not paused"));
    let o = dustmail(&home, &["control", "g-team", "explode"]);
    assert_eq!(o.status.code(), Some(1));
    // `run --now`: the extended deadline (2026-03-04T21:00Z) drives reminders and defaults.
    let run = |now: &str| {
        let o = dustmail(&home, &["run", "--now", now]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let out = run("2026-03-03T20:59:00Z");
    assert!(out.contains("reminders 0 defaults 0"), "{out}");
    let out = run("2026-03-03T21:00:00Z");
    assert!(
        out.contains("reminders 4 defaults 0"),
        "every player of both teams: {out}"
    );
    let out = run("2026-03-05T08:59:00Z");
    assert!(
        out.contains("reminders 0 defaults 0"),
        "inside the grace: {out}"
    );
    let out = run("2026-03-05T09:00:00Z");
    assert!(
        !out.contains("defaults 0"),
        "deadline + grace: defaults applied: {out}"
    );
    let o = dustmail(&home, &["replay", "g-team"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn a_decision_about_one_players_units_is_theirs_and_show_json_names_who_decides() {
    let table = four();
    let g = table.loaded();
    let players = g.derived.players(&g.created).to_vec();
    let who = |options: &[&str]| -> Vec<String> {
        let a = dustmail::game::Awaiting {
            side: "allies".into(),
            decision: "react".into(),
            options: options.iter().map(|o| o.to_string()).collect(),
        };
        dustmail::referee::deciders(&g.created, &players, &a)
            .into_iter()
            .map(|p| p.address.clone())
            .collect()
    };
    // A reactive-fire window only amy's hotdog may answer.
    assert_eq!(who(&["react hotdog", "react none"]), vec![AMY.to_string()]);
    assert_eq!(
        who(&["activate rangers", "activate assault"]),
        vec![ANN.to_string(), AMY.to_string()]
    );
    // Side-wide: everyone of the side.
    assert_eq!(
        who(&["first allies", "first axis"]),
        vec![ANN.to_string(), AMY.to_string()]
    );
    let v = dustmail::referee::show_json(&dustmail::dust_tactics::DustTactics, &g, None);
    let first = &v["awaiting_players"][0];
    assert_eq!(first["decision"], "first");
    assert_eq!(first["players"].as_array().unwrap().len(), 2);
    assert_eq!(first["deadline"], "2026-03-04T09:00:00+00:00");
}
