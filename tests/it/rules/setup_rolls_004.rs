//! Issue 12 (seed 004 "SETUP", 000 "Setting up the battlefield"): the battlefield placed by the
//! rulebook's rolls, `dustmail new --place-by-rolls` (rulings R700, R701). The scenario is read
//! by the real parser, orders go through the real parser and state machine, dice are scripted;
//! the mail test plays a whole game through the pipeline, then replays and audits it.

use crate::support_flow::*;
use dustmail::dust_tactics::model::{CoverKind, Terrain, UnitType, WeaponRange};
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::{Phase, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, ScriptedDice};

/// A 9×9 board placing 2 terrain squares by the rolls, with an ammo crate on E5 and a tank trap
/// on D5 in the scenario's file; allies enter on row 9, axis on row 1.
fn game() -> State {
    let text = r#"place_by_rolls = { terrain_squares = 2 }
title = "Rolled"
rulesets = ["ffg-revised"]
rounds = 3
ap_limit = 100
[board]
rows = [".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "........."]
cover = [{ kind = "ammo_crate", at = "E5" }, { kind = "tank_trap", at = "D5" }]

[[sides]]
id = "allies"
entry = { rows = [9] }
[[sides.units]]
id = "a"
card = "sq"
[[sides]]
id = "axis"
entry = { rows = [1] }
[[sides.units]]
id = "x"
card = "sq"
"#;
    let sc = scenario::parse("rolled", text).unwrap_or_else(|e| panic!("{e}"));
    let cards = vec![card(
        "sq",
        UnitType::Squad,
        4,
        2,
        vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
    )];
    DustTactics.start("ffg-revised", sc, cards).expect("setup")
}

fn sq(st: &State, s: &str) -> dustmail::dust_tactics::model::Square {
    st.scenario.board.parse_square(s).unwrap()
}

// issue 12, 004 "SETUP": "Each player rolls 3 dice. The player who rolls the most ⊕ places the
// first terrain square, and then he and his opponent take turns placing them until they are all
// on the board." (R700) The scenario's cover is off the board at the start; the first `place`
// rolls; the loser's order is moot, the winner places, then the other side.
#[test]
fn setup_004_the_most_hits_places_the_first_terrain_square_then_the_players_take_turns() {
    let mut st = game();
    assert!(
        st.scenario.board.cover.is_empty(),
        "the cover waits to be placed"
    );
    let aw = DustTactics.awaiting(&st);
    assert_eq!(aw.len(), 2, "before the roll every side may send a `place`");
    assert!(aw.iter().all(|a| a.decision == "place"), "{aw:?}");
    let t = DustTactics.orders_template(&st, "allies");
    assert!(t.contains("# place terrain at"), "{t}");
    // Allies roll no hit (5 5 5), axis two (1 2 6): axis places first.
    let mut d = ScriptedDice::new([5, 5, 5, 1, 2, 6]);
    let out = send(&mut st, "allies", "place terrain at C4", &mut d);
    assert_eq!(d.remaining(), 0);
    let r = first_result(&out).unwrap();
    assert!(r.contains("not placed, axis won the roll"), "{r}");
    assert!(texts(&out).contains("axis places first"), "{}", texts(&out));
    assert_eq!(st.scenario.board.terrain(sq(&st, "C4")), Terrain::Open);
    // Not allies' turn now.
    let before = st.clone();
    let e = first_result(&send(
        &mut st,
        "allies",
        "place terrain at C4",
        &mut Cycle(1),
    ))
    .unwrap_err();
    assert!(e.contains("it is axis's turn to place"), "{e}");
    assert!(e.contains("004 'Setup'") && e.contains("R700"), "{e}");
    assert_eq!(st, before, "a refused placement changes nothing");
    let out = send(&mut st, "axis", "place terrain at C4", &mut Cycle(1));
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(
        st.scenario.board.terrain(sq(&st, "C4")),
        Terrain::Impassable
    );
    let aw = DustTactics.awaiting(&st);
    assert_eq!(aw.len(), 1);
    assert_eq!(aw[0].side, "allies", "then the other side places");
    // The template offers only placements that are accepted.
    let t = DustTactics.orders_template(&st, "allies");
    let offered: Vec<&str> = t
        .lines()
        .filter_map(|l| l.strip_prefix("# place "))
        .collect();
    assert!(!offered.is_empty(), "{t}");
    for o in offered {
        let mut c = st.clone();
        let out = send(&mut c, "allies", &format!("place {o}"), &mut Cycle(1));
        assert!(first_result(&out).is_ok(), "place {o}: {out:?}");
    }
}

// issue 12, 004 "SETUP": "Each player rolls 3 dice. The player who rolls the most ⊕ chooses and
// places the first cover element, and then he and his opponent take turns placing them until
// they are all on the board. Cover can only be placed in the cover zone indicated by the
// scenario." (R700, R701) Terrain squares first; the placing of the last one rolls for the
// cover; a piece never goes in an entry zone; the last piece rolls round 1's initiative.
#[test]
fn setup_004_the_most_hits_chooses_and_places_the_first_cover_element() {
    let mut st = game();
    let mut d = ScriptedDice::new([1, 1, 1, 5, 5, 5]);
    assert!(first_result(&send(&mut st, "allies", "place terrain at C4", &mut d)).is_ok());
    // Cover waits for the terrain squares.
    let e = first_result(&send(&mut st, "axis", "place crate at F5", &mut Cycle(1))).unwrap_err();
    assert!(e.contains("the terrain squares are placed first"), "{e}");
    // Entry zones stay free.
    let e = first_result(&send(&mut st, "axis", "place terrain at A1", &mut Cycle(1))).unwrap_err();
    assert!(e.contains("entry zone of axis"), "{e}");
    // The last terrain square: cover roll, allies 0 hits, axis 3: axis chooses first.
    let mut d = ScriptedDice::new([6, 6, 6, 2, 2, 2]);
    let out = send(&mut st, "axis", "place terrain at G4", &mut d);
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(d.remaining(), 0);
    assert!(
        texts(&out).contains(
            "cover elements: allies 0 hit(s) on 3 dice, axis 3 hit(s) on 3 dice; axis places first"
        ),
        "{}",
        texts(&out)
    );
    // axis chooses the trap, on a terrain square it is refused.
    let e = first_result(&send(&mut st, "axis", "place trap at C4", &mut Cycle(1))).unwrap_err();
    assert!(e.contains("C4 is impassable"), "{e}");
    assert!(first_result(&send(&mut st, "axis", "place trap at D6", &mut Cycle(1))).is_ok());
    let e = first_result(&send(&mut st, "allies", "place trap at E6", &mut Cycle(1))).unwrap_err();
    assert!(e.contains("no tank trap is left to place"), "{e}");
    // The last piece: the battlefield is set up and round 1's initiative is rolled.
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 5]);
    let out = send(&mut st, "allies", "place crate at E6", &mut d);
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(
        texts(&out).contains("the battlefield is set up"),
        "{}",
        texts(&out)
    );
    assert!(
        texts(&out).contains("round 1 initiative"),
        "{}",
        texts(&out)
    );
    let board = &st.scenario.board;
    assert_eq!(board.cover_kind(sq(&st, "D6")), Some(CoverKind::TankTrap));
    assert_eq!(board.cover_kind(sq(&st, "E6")), Some(CoverKind::AmmoCrate));
    assert_eq!(
        board.cover.len(),
        2,
        "the scenario's two cover elements, placed"
    );
    assert!(st.placing.is_none());
    assert!(!matches!(st.phase, Phase::Initiative));
}

// R701: a side that misses the deadline places its piece on the first square allowed, in board
// order; the game never waits forever.
#[test]
fn setup_004_the_deadline_places_on_the_first_square_allowed() {
    let mut st = game();
    let mut d = ScriptedDice::new([1, 1, 1, 5, 5, 5]);
    let out = DustTactics.default_for(&mut st, "allies", &mut d);
    assert!(out.accepted_any(), "{out:?}");
    // Row 1 is axis's entry zone: A2 is the first square allowed.
    assert_eq!(
        st.scenario.board.terrain(sq(&st, "A2")),
        Terrain::Impassable
    );
    assert_eq!(DustTactics.awaiting(&st)[0].side, "axis");
}

// issue 12 item 3: `dustmail new --place-by-rolls` (its --help teaches it); the setup rolls are
// dice of the game's steps, recorded in the ledger: a game played to its end by mail through
// the pipeline replays and audits.
#[test]
fn setup_004_new_place_by_rolls_is_played_by_mail_replayed_and_audited() {
    use crate::support::dt;
    use dustmail::dust_tactics::bot::Style;
    let o = dt::dustmail(std::path::Path::new("/nonexistent"), &["new", "--help"]);
    assert!(
        dt::text(&o).contains("--place-by-rolls"),
        "{}",
        dt::text(&o)
    );
    assert!(
        dt::text(&o).contains("--terrain-squares"),
        "{}",
        dt::text(&o)
    );
    let dir = tempfile::tempdir().unwrap();
    let (home, ps, env) = dt::new_in_home(
        dir.path(),
        &[
            "--scenario",
            "skirmish",
            "--place-by-rolls",
            "--terrain-squares",
            "2",
        ],
        ("g-roll", 33, 9),
    );
    let g = env.load("g-roll");
    let st: &State = g.derived.state.typed::<State>();
    let cover = st.placing.as_ref().expect("placing").cover.len();
    assert!(cover > 0 && st.scenario.board.cover.is_empty());
    let impassable = |st: &State| {
        st.scenario
            .board
            .squares()
            .filter(|s| st.scenario.board.terrain(*s) == Terrain::Impassable)
            .count()
    };
    let before = impassable(st);
    let mut bots = dt::Bots::new("g-roll", &ps, |i| Style::Random(50 + i as u64));
    env.run(dt::NOW);
    bots.play_to_end(&home, &env);
    let g = env.load("g-roll");
    assert!(g.derived.finished.is_some(), "the game ended");
    let st: &State = g.derived.state.typed::<State>();
    assert!(st.placing.is_none());
    assert_eq!(impassable(st), before + 2, "two terrain squares placed");
    let mut mails = String::new();
    for e in std::fs::read_dir(home.root.join("sent")).unwrap() {
        mails.push_str(&std::fs::read_to_string(e.unwrap().path()).unwrap());
    }
    let mails = crate::support::flat(&mails);
    assert!(
        mails.contains("setting up, terrain squares"),
        "reports tell the roll"
    );
    assert!(mails.contains("the battlefield is set up"));
    assert!(
        mails.contains("Setting up the battlefield (004 SETUP): before round 1 the players place 2 terrain squares"),
        "the welcome mail teaches it"
    );
    dt::replay_and_audit(&home, "g-roll");
}
