//! Issue 18: 003 §12's random scenario table as an option of `dustmail new` (R550, amending
//! R294). 003 §12: "If you want to let the dice choose the scenario for you, roll two dice and
//! consult the following table". `new --scenario random` records the five scenarios; the game's
//! first step rolls two Dust dice from its dice-v2 stream and the game starts in the chosen one.

use crate::support::dt;
use dustmail::config::Home;
use dustmail::dust_tactics::battlefront::dice::Symbol;
use dustmail::dust_tactics::battlefront::random_scenario::{choose, SCENARIOS};
use dustmail::dust_tactics::scenario::{self, Objective};
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{DiceSource, Game, Line, NewRequest, Roll, ScriptedDice, Sender};

fn request(forces: &[(&str, &str)]) -> NewRequest {
    NewRequest {
        ruleset: Some("battlefront-2013".into()),
        scenario: Some("random".into()),
        sides: vec!["allies".into(), "axis".into()],
        forces: forces
            .iter()
            .map(|(s, f)| (s.to_string(), f.to_string()))
            .collect(),
        ..NewRequest::default()
    }
}

/// The state `new --scenario random` starts a game in (allies Taskforce Joe, axis Battlegroup
/// Koshka), built from the setup the `created` line records.
fn random_game() -> State {
    let plan = DustTactics
        .plan_new(&request(&[
            ("allies", "taskforce-joe"),
            ("axis", "battlegroup-koshka"),
        ]))
        .expect("planned");
    assert_eq!(plan.setup.scenario_name, "random");
    assert_eq!(plan.setup.sides, ["allies", "axis"]);
    DustTactics.setup(&plan.setup).expect("set up")
}

fn line(text: &str) -> Vec<Line> {
    vec![Line {
        number: 5,
        text: text.into(),
    }]
}

// 003 §12: "roll two dice and consult the following table: Result or / Scenario 1: Encounter 2:
// Grab the Dust 3: Bait and Flank 4: Supply Drop 5: All-Out Attack" (R294 reads the lost
// symbols). R550: nothing is rolled at `new`; the first step rolls two dice, recorded as the
// roll "random scenario" of round 1, and each of the nine ordered results starts the game in
// the scenario the table gives: its board and objectives, the game's own two sides and forces.
// The second step rolls nothing more.
#[test]
fn s003_12_random_scenario_every_roll_chooses_its_scenario() {
    let start = random_game();
    let pending = start.scenario_roll.as_ref().expect("to be rolled");
    let names: Vec<&str> = pending.candidates.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, SCENARIOS);
    assert!(start.scenario_rolled.is_none());
    // One face of each symbol: 1 army, 3 target, 5 shield (R230); both orders of the dice.
    for a in [1u8, 3, 5] {
        for b in [2u8, 4, 6] {
            let mut st = start.clone();
            let mut dice = ScriptedDice::new([a, b]);
            let out = DustTactics.submit(
                &mut st,
                Sender::side("allies"),
                &line("standing first ask"),
                &mut dice,
            );
            assert_eq!(dice.remaining(), 0, "{a} {b}: the roll took two dice");
            let want = choose(Symbol::of_face(a), Symbol::of_face(b));
            assert_eq!(st.scenario.name, want, "{a} {b}");
            assert!(st.scenario_roll.is_none() && st.scenario_rolled == Some([a, b]));
            let h = &out.happenings[0];
            assert_eq!(
                h.rolls,
                [Roll {
                    purpose: "random scenario".into(),
                    round: 1,
                    faces: vec![a, b],
                }]
            );
            assert!(
                h.text.contains(&st.scenario.title) && h.text.contains("003 §12"),
                "{}",
                h.text
            );
            // The chosen scenario's battlefield, played by the game's sides and forces.
            let shipped = scenario::builtin_scenario(want).unwrap().unwrap();
            assert_eq!(st.scenario.board, shipped.board, "{want}");
            assert_eq!(st.scenario.rounds, shipped.rounds, "{want}");
            assert_eq!(st.sides(), ["allies", "axis"], "{want}");
            for o in &st.scenario.objectives {
                if let Objective::Vp { half, .. } = o {
                    assert!(["allies", "axis"].contains(&half.as_str()), "{want}: {o:?}");
                }
            }
            assert!(st.units.iter().any(|u| u.id == "joe" && u.side == "allies"));
            assert!(st
                .units
                .iter()
                .any(|u| u.id == "koshka" && u.side == "axis"));
            // Nothing is left to roll for.
            let mut none = ScriptedDice::new([]);
            DustTactics.submit(
                &mut st,
                Sender::side("axis"),
                &line("standing first ask"),
                &mut none,
            );
            assert!(st.scenario.name == want && st.scenario_roll.is_none());
        }
    }
}

/// Faces in order, then 1 to 6 over and over (an initiative roll ends on some face).
struct Faces(Vec<u8>, usize);

impl DiceSource for Faces {
    fn d6(&mut self, _round: u32) -> u8 {
        self.1 += 1;
        match self.0.get(self.1 - 1) {
            Some(f) => *f,
            None => (self.1 % 6) as u8 + 1,
        }
    }
}

// R550: the first step may be a deadline default: it rolls the scenario first too (two army
// symbols, Encounter), then the default of the chosen scenario applies.
#[test]
fn s003_12_random_scenario_a_deadline_default_rolls_it_too() {
    let mut st = random_game();
    let out = DustTactics.default_for(&mut st, "allies", &mut Faces(vec![1, 2], 0));
    assert_eq!(st.scenario.name, "encounter");
    assert!(st.scenario_rolled == Some([1, 2]) && st.scenario_roll.is_none());
    assert_eq!(out.happenings[0].rolls[0].purpose, "random scenario");
    assert_eq!(out.happenings[0].rolls[0].faces, [1, 2]);
    // The chosen scenario's own initiative followed in the same step.
    assert!(out.happenings.len() > 1, "{:?}", out.happenings);
}

/// A home with a game made by `new ARGS…` between allies and axis, or its refusal.
fn new_game(root: &std::path::Path, args: &[&str]) -> (Home, std::process::Output) {
    let home = dt::init_home(root, "file");
    let seed = hex::encode([7u8; 32]);
    let mut all = vec!["--seed", &seed, "--id", "g-rand", "--now", dt::T0];
    all.extend(args);
    let o = dt::new_with_players(&home.root, &all, &dt::players(31));
    (home, o)
}

// R550: the welcome mail says the scenario will be rolled, how and when, with R294's table; it
// shows no battlefield yet. The first mail makes the first step: its report names the roll and
// the scenario, the ledger records the two dice with their purpose, the chosen scenario is the
// one the recorded faces give, and `replay` and `audit` recompute it.
#[test]
fn s003_12_random_scenario_welcome_mail_says_it_will_be_rolled() {
    let dir = tempfile::tempdir().unwrap();
    let (home, o) = new_game(
        dir.path(),
        &[
            "--ruleset",
            "battlefront-2013",
            "--scenario",
            "random",
            "--force",
            "allies=kampfgruppe-stefan",
            "--force",
            "axis=taskforce-joe",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = dt::InProc::open(&home);
    env.run(dt::NOW);
    // The mails are quoted-printable: the phrases checked have no `§`, which it encodes.
    let welcome = crate::support::flat(&dt::sent_text(&home));
    for want in [
        "The scenario: rolled by the dice (003",
        "army + target: 2 Grab the Dust",
        "target + target: 5 All-Out Attack",
        "The battlefield is not chosen yet",
        "side allies fields Axis (Kampfgruppe Stefan): stefan, ludwig",
    ] {
        assert!(welcome.contains(want), "{want}: {welcome}");
    }
    // Before the roll the template offers the standing `first` order, which every scenario
    // accepts (a bare `first` is refused where objectives are placed first); the mail below
    // sends that suggestion as it is.
    assert!(
        welcome.contains("# standing first allies") && !welcome.contains("\n# first allies"),
        "{welcome}"
    );
    let ps = dt::players(31);
    let m = dt::mail(
        &ps[0].address,
        "r1@x",
        &ps[0].key,
        &dt::orders("g-rand", "allies", 1, "standing first allies"),
    );
    std::fs::write(home.maildir().join("new").join("m1.eml"), m).unwrap();
    env.run(dt::NOW);
    let g = env.load("g-rand");
    let st: &State = g.derived.state.typed::<State>();
    assert!(st.scenario_roll.is_none());
    let rolls: Vec<Vec<u8>> = dustmail::ledger::read_all(&dt::log_path(&home, "g-rand"))
        .unwrap()
        .into_iter()
        .filter_map(|e| match e.event {
            dustmail::ledger::Event::Submission(s) => Some(s.step.happenings),
            _ => None,
        })
        .flatten()
        .flat_map(|h| h.rolls)
        .filter(|r| r.purpose == "random scenario")
        .map(|r| r.faces)
        .collect();
    assert_eq!(rolls.len(), 1, "{rolls:?}");
    let f = &rolls[0];
    assert_eq!(st.scenario_rolled.map(Vec::from).as_ref(), Some(f));
    assert_eq!(
        st.scenario.name,
        choose(Symbol::of_face(f[0]), Symbol::of_face(f[1]))
    );
    let mails = crate::support::flat(&dt::sent_text(&home));
    assert!(!mails.contains("REFUSED"), "{}", dt::tail(&mails, 3000));
    assert!(
        mails.contains("the dice choose the scenario (003")
            && mails.contains(&format!(
                "The scenario, chosen by the dice: {}",
                st.scenario.title
            )),
        "{}",
        dt::tail(&mails, 3000)
    );
    dt::replay_and_audit(&home, "g-rand");
}

// R550, R818: games whose scenario the dice chose are played to their end by signed mails run by
// the real pipeline (the bundled bots on both sides); replay and audit pass. Each game is in the
// scenario its two recorded faces give. The seeds are ones whose first mails roll each of the
// five scenarios, so each outcome is played by mail, Bait and Flank's and Supply Drop's
// objective placing included.
#[test]
fn s003_12_random_scenario_played_to_its_end_by_mail_and_audited() {
    let mut played = std::collections::BTreeSet::new();
    for seed in [40, 42, 47, 50, 53] {
        let (flat, st) = super::battlefront_scenarios::play_by_mail_with(
            "random",
            &[
                "--force",
                "allies=battlegroup-koshka",
                "--force",
                "axis=kampfgruppe-stefan",
            ],
            ["allies", "axis"],
            seed,
        );
        let f = st.scenario_rolled.expect("rolled");
        assert_eq!(
            st.scenario.name,
            choose(Symbol::of_face(f[0]), Symbol::of_face(f[1])),
            "seed {seed}"
        );
        assert!(st.result.is_some() && st.scenario_roll.is_none());
        assert!(
            flat.contains("the dice choose the scenario"),
            "seed {seed}: the first report does not name the roll"
        );
        played.insert(st.scenario.name.clone());
    }
    assert_eq!(
        played.len(),
        SCENARIOS.len(),
        "these seeds no longer roll every scenario (the bots' first mails changed?): {played:?}; choose seeds that do"
    );
}

/// `new ARGS…` is refused with exit 2, its message says `want`, and no game exists.
fn refused(args: &[&str], want: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (home, o) = new_game(dir.path(), args);
    assert_eq!(o.status.code(), Some(2), "{}", dt::text(&o));
    assert!(dt::text(&o).contains(want), "{want}: {}", dt::text(&o));
    assert!(dt::names(&home.root.join("games")).is_empty());
    assert!(dt::names(&home.root.join("outbox")).is_empty());
}

// R550: every scenario must be playable whatever the roll, so each side fields a starter force
// (R816); a missing one, or one for a side no --player names, is refused with what to send.
#[test]
fn s003_12_random_scenario_refused_without_a_force_for_each_side() {
    let bf = ["--ruleset", "battlefront-2013", "--scenario", "random"];
    refused(
        &[&bf[..], &["--force", "allies=taskforce-joe"]].concat(),
        "side axis has no --force",
    );
    refused(&bf, "add --force allies=FORCE");
    refused(
        &[
            &bf[..],
            &[
                "--force",
                "allies=taskforce-joe",
                "--force",
                "axis=kampfgruppe-stefan",
                "--force",
                "ssu=battlegroup-koshka",
            ],
        ]
        .concat(),
        "no --player names side ssu",
    );
    refused(
        &[
            &bf[..],
            &[
                "--force",
                "allies=taskforce-joe",
                "--force",
                "axis=the-red-army",
            ],
        ]
        .concat(),
        "there is no starter force `the-red-army`",
    );
}

// R550: the table is 003 §12's, so `random` is refused under another ruleset, and with 004's
// `--place-by-rolls` setup.
#[test]
fn s003_12_random_scenario_refused_under_another_ruleset() {
    refused(
        &["--ruleset", "ffg-revised", "--scenario", "random"],
        "add --ruleset battlefront-2013",
    );
    refused(
        &[
            "--ruleset",
            "battlefront-2013",
            "--scenario",
            "random",
            "--force",
            "allies=taskforce-joe",
            "--force",
            "axis=kampfgruppe-stefan",
            "--place-by-rolls",
        ],
        "leave out --place-by-rolls",
    );
}

// R550: `dustmail games` lists `random` under battlefront-2013 and `new --help` teaches it.
#[test]
fn s003_12_random_scenario_listed_by_games_and_taught_by_help() {
    let dir = tempfile::tempdir().unwrap();
    let o = dt::dustmail(dir.path(), &["games"]);
    let out = dt::text(&o);
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("random "))
        .unwrap_or_else(|| panic!("random missing:\n{out}"));
    assert!(
        line.contains("needs --force for each side")
            && line.contains("sides the two --player sides; rulesets battlefront-2013"),
        "{line}"
    );
    let o = dt::dustmail(dir.path(), &["new", "--help"]);
    let help = crate::support::flat(&dt::text(&o));
    assert!(
        help.contains("battlefront-2013: `random`, with a --force for each side, lets two Dust dice choose one of 003 §12's five scenarios at the game's first step (R550)"),
        "{help}"
    );
}
