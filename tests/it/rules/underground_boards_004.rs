//! Issue 12: 004 "Fighting in the Metro" and "Fighting in the Sewers" on more than two boards
//! ("in a scenario with 2 or more boards"; R636). `[travel] boards = [2, 2, 3]` stacks the
//! aboveground board and two underground boards in one grid, an impassable row between each two;
//! links join any two boards. Orders go through the real parser and state machine.

use super::underground_004::{game_of, saves, FIRE};
use crate::support_flow::*;
use dustmail::dust_tactics::model::Terrain;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::travel::Travel;
use dustmail::dust_tactics::underground::Underground;
use dustmail::dust_tactics::{scenario, view};
use dustmail::game::{CommandOutcome, ScriptedDice};

/// A sewers scenario file on three boards: rows 1–2 aboveground, row 3 wall, rows 4–5 the
/// first sewer board, row 6 wall, rows 7–9 the second; `travel` is its `[travel]` table.
fn three_boards_toml(rows: [&str; 9], travel: &str) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    format!(
        r#"title = "Three boards"
rounds = 3
ap_limit = 100
rulesets = ["ffg-revised"]
underground = "sewers"
[board]
rows = [{}]
[travel]
{travel}
[[sides]]
id = "allies"
entry = {{ rows = [1] }}
[[sides.units]]
id = "a"
card = "one"
[[sides]]
id = "axis"
entry = {{ rows = [9] }}
[[sides.units]]
id = "x"
card = "tgt"
"#,
        rows.join(", ")
    )
}

const ROWS: [&str; 9] = [
    ".........",
    ".........",
    "#########",
    ".........",
    ".........",
    "#########",
    ".........",
    ".........",
    ".........",
];

const LINKS: &str = r#"links = [["B2", "B4"], ["E5", "E7"], ["H1", "H9"]]"#;

fn parse(rows: [&str; 9], travel: &str) -> Result<scenario::Scenario, String> {
    scenario::parse("three", &three_boards_toml(rows, travel)).map_err(|e| e.0)
}

/// The three boards of [`ROWS`] and [`LINKS`] as a game: the one-model shooter `a` (allies) on
/// `a_at`, the 4-model target squad `x` (axis) on `x_at`, in the sewers.
fn three_boards(a_at: &str, x_at: &str) -> State {
    let mut s = scenario(
        vec![unit("a", "one", Some(a_at))],
        vec![unit("x", "tgt", Some(x_at))],
    );
    s.travel = Some(Travel {
        aboveground_rows: 2,
        underground_rows: vec![2],
        links: vec![
            (sq("B2"), sq("B4")),
            (sq("E5"), sq("E7")),
            (sq("H1"), sq("H9")),
        ],
    });
    let walls: Vec<String> = "ABCDEFGHI"
        .chars()
        .flat_map(|c| [format!("{c}3"), format!("{c}6")])
        .collect();
    let walls: Vec<(&str, Terrain)> = walls
        .iter()
        .map(|s| (s.as_str(), Terrain::Impassable))
        .collect();
    game_of(s, Some(Underground::Sewers), &walls)
}

// 004 "Fighting in the Sewers": "To enter the sewers in a scenario with 2 or more boards, a
// soldier unit must be on a sewer entrance and perform one action." (R636: `boards = [...]` gives
// the rows of each board, top to bottom, with a wall row between each two; links join any two
// boards, the upper board's square first; the text board lists the boards.)
#[test]
fn underground_boards_004_a_scenario_with_2_or_more_boards_is_read() {
    let s = parse(ROWS, &format!("boards = [2, 2, 3]\n{LINKS}")).unwrap_or_else(|e| panic!("{e}"));
    let t = s.travel.clone().expect("[travel]");
    assert_eq!(
        (t.aboveground_rows, t.underground_rows.clone()),
        (2, vec![2])
    );
    let boards: Vec<usize> = ["A1", "A4", "A5", "A7", "A9"]
        .iter()
        .map(|x| t.board_of(sq(x)))
        .collect();
    assert_eq!(boards, vec![0, 1, 1, 2, 2]);
    assert_eq!(t.linked(sq("E7")), Some((sq("E5"), 2)));
    assert_eq!(t.linked(sq("H9")), Some((sq("H1"), 3)));
    let st = three_boards("A1", "I9");
    let board = view::board_text(&st);
    for line in [
        "Board 1: rows 1-2 aboveground, row 3 wall",
        "Board 2: rows 4-5 sewer, row 6 wall",
        "Board 3: row 7 to the last, sewer",
    ] {
        assert!(board.contains(line), "{line} in\n{board}");
    }
    // A wall row with an open square.
    let mut open = ROWS;
    open[5] = "####.####";
    let e = parse(open, &format!("boards = [2, 2, 3]\n{LINKS}")).expect_err("open wall");
    assert!(e.contains("`travel.boards`"), "{e}");
    assert!(
        e.contains("row 6 is the wall between boards 2 and 3"),
        "{e}"
    );
    // Rows that do not add up, and the boards given twice.
    let e = parse(ROWS, &format!("boards = [2, 2, 2]\n{LINKS}")).expect_err("8 rows");
    assert!(e.contains("make 8 rows, and the board has 9"), "{e}");
    let e = parse(
        ROWS,
        &format!("aboveground_rows = 2\nboards = [2, 2, 3]\n{LINKS}"),
    )
    .expect_err("twice");
    assert!(e.contains("give the boards once"), "{e}");
    // A link on one board, and one written bottom first.
    let e = parse(ROWS, "boards = [2, 2, 3]\nlinks = [[\"D4\", \"E5\"]]").expect_err("one board");
    assert!(e.contains("D4 is on board 2 and E5 on board 2"), "{e}");
    let e = parse(ROWS, "boards = [2, 2, 3]\nlinks = [[\"E7\", \"E5\"]]").expect_err("upside down");
    assert!(e.contains("the square of the upper board first"), "{e}");
    // Two boards written the old way keep their state as it was: no `underground_rows`.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let raid = std::fs::read_to_string(root.join("games/dust-tactics/scenarios/sewer-raid.toml"))
        .expect("sewer-raid");
    let raid = scenario::parse("sewer-raid", &raid).expect("sewer-raid parses");
    let json = serde_json::to_string(&raid.travel).expect("serialises");
    assert!(!json.contains("underground_rows"), "{json}");
}

// 004 "Fighting in the Sewers": "To exit the sewers, a soldier unit must be on a numbered sewer
// space and perform one action." (R636: a link joins any two boards: from one sewer board to
// the other, and from the street straight down to the lower one.)
#[test]
fn underground_boards_004_travel_between_any_two_boards() {
    let mut st = three_boards("E5", "A9");
    let out = send(
        &mut st,
        "allies",
        "activate a\ntravel\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "a").at, Some(sq("E7")));
    assert!(
        texts(&out).contains("a travels from E5 (underground board 2) to E7 (underground board 3)"),
        "{}",
        texts(&out)
    );
    let mut st = three_boards("H1", "A9");
    let out = send(
        &mut st,
        "allies",
        "activate a\ntravel\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "a").at, Some(sq("H9")));
    // Off a link, the refusal names the ends on the unit's own board.
    let mut st = three_boards("D4", "A9");
    let out = send(
        &mut st,
        "allies",
        "activate a\ntravel\nnothing",
        &mut ScriptedDice::new([]),
    );
    let CommandOutcome::Refused { instead, .. } = &out.results[0].outcome else {
        panic!("expected a refusal: {out:?}");
    };
    assert!(instead.contains("B4 (1), E5 (2)"), "{instead}");
}

// 004 "a scenario with 2 or more boards" (R632, R636): a unit on one board cannot target a unit
// on another, the two sewer boards too.
#[test]
fn underground_boards_004_no_attack_between_two_underground_boards() {
    let mut st = three_boards("E5", "E7");
    let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([]));
    let CommandOutcome::Refused { reason, .. } = &out.results[0].outcome else {
        panic!("expected a refusal: {out:?}");
    };
    assert!(
        reason.contains("E5 and E7 are on different boards"),
        "{reason}"
    );
    assert_eq!(u(&st, "x").models.len(), 4);
}

// 004 "Dim Light, Low Ceilings": "Target units are considered in soft cover when there are
// exactly 2 spaces between them" (R632, R636: the underground rules hold on every board below,
// not on the aboveground board).
#[test]
fn underground_boards_004_the_underground_rules_hold_on_every_board_below() {
    for (a, x) in [("A4", "D4"), ("A8", "D8")] {
        let mut st = three_boards(a, x);
        let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([1, 1]));
        assert!(first_result(&out).is_ok(), "{out:?}");
        assert_eq!(saves(&out), vec![1], "{a} to {x}: {}", texts(&out));
        assert_eq!(u(&st, "x").models.len(), 4);
    }
    let mut st = three_boards("A1", "D1");
    let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([1]));
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(saves(&out).is_empty(), "{}", texts(&out));
    assert_eq!(u(&st, "x").models.len(), 3, "{}", texts(&out));
}

// 004 "Fighting in the Sewers": "To enter the sewers in a scenario with 2 or more boards, a
// soldier unit must be on a sewer entrance and perform one action." (R636:
// games/dust-tactics/scenarios/deep-sewers.toml, three boards, is played to its end by the bots
// through the real pipeline, units travel between the boards, and replay and audit pass.)
#[test]
fn underground_boards_004_deep_sewers_played_to_its_end_by_signed_mail() {
    use crate::support::dt;
    use dustmail::dust_tactics::bot::Style;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let scen = root.join("games/dust-tactics/scenarios/deep-sewers.toml");
    let dir = tempfile::tempdir().unwrap();
    let (home, ps, env) = dt::new_in_home(
        dir.path(),
        &["--scenario", scen.to_str().unwrap()],
        ("g-deep", 32, 9),
    );
    let mut bots = dt::Bots::new("g-deep", &ps, |_| Style::Aggressive);
    env.run(dt::NOW);
    bots.play_to_end(&home, &env);
    let g = env.load("g-deep");
    assert!(g.derived.finished.is_some(), "the game did not end");
    let mails = crate::support::flat(&dt::sent_text(&home));
    assert!(
        mails.contains("Board 2: rows 4-5 sewer, row 6 wall"),
        "the reports list the boards"
    );
    let log = std::fs::read_to_string(dt::log_path(&home, "g-deep")).unwrap();
    assert!(
        log.contains("travels from"),
        "no unit travelled between the boards"
    );
    dt::replay_and_audit(&home, "g-deep");
}
