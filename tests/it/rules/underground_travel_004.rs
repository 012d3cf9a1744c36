//! Issue 12: 004 "Fighting in the Metro" and "Fighting in the Sewers": travel between an
//! aboveground board and an underground one (rulings R630–R632). The two boards are one grid
//! split by an impassable row; `[travel]` links an entrance above to its space below. Orders go
//! through the real parser and state machine; each test quotes the sentence it checks.

use super::underground_004::{game_of, saves, FIRE};
use crate::support::dt;
use crate::support_flow::*;
use dustmail::dust_tactics::bot::Style;
use dustmail::dust_tactics::model::{Terrain, UnitType};
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::travel::Travel;
use dustmail::dust_tactics::underground::Underground;
use dustmail::dust_tactics::{picture, present, scenario, view};
use dustmail::game::{CommandOutcome, Outcome, ScriptedDice};

/// The 9×9 test board as two boards: rows 1–4 aboveground, row 5 the wall, rows 6–9 below;
/// link 1 is B4 ↔ B6, link 2 is E2 ↔ E8. The one-model shooter `a` (allies) on `a_at`, the
/// 4-model target squad `x` (axis) on `x_at`.
fn two_boards(kind: Underground, a_at: &str, x_at: &str) -> State {
    two_boards_with(kind, "one", a_at, x_at, &[])
}

/// [`two_boards`] with `a` of card `a_card` and more `terrain`.
fn two_boards_with(
    kind: Underground,
    a_card: &str,
    a_at: &str,
    x_at: &str,
    terrain: &[(&str, Terrain)],
) -> State {
    let mut s = scenario(
        vec![unit("a", a_card, Some(a_at))],
        vec![unit("x", "tgt", Some(x_at))],
    );
    s.travel = Some(Travel {
        aboveground_rows: 4,
        underground_rows: vec![],
        links: vec![(sq("B4"), sq("B6")), (sq("E2"), sq("E8"))],
    });
    let wall: Vec<(String, Terrain)> = "ABCDEFGHI"
        .chars()
        .map(|c| (format!("{c}5"), Terrain::Impassable))
        .collect();
    let wall = wall.iter().map(|(s, t)| (s.as_str(), *t));
    let wall: Vec<(&str, Terrain)> = wall.chain(terrain.iter().copied()).collect();
    game_of(s, Some(kind), &wall)
}

/// The refusal of the first command: (reason, rule, instead).
fn refusal(out: &Outcome) -> (String, String, String) {
    match &out.results[0].outcome {
        CommandOutcome::Refused {
            reason,
            rule,
            instead,
        } => (reason.clone(), rule.clone(), instead.clone()),
        o => panic!("expected a refusal, got {o:?}"),
    }
}

// 004 "Fighting in the Sewers": "To enter the sewers in a scenario with 2 or more boards, a
// soldier unit must be on a sewer entrance and perform one action. That unit is then moved to
// the space on the sewer board with the same number as the sewer entrance used." The squad on
// entrance 1 (B4) travels as one action and stands on sewer space 1 (B6) (R631).
#[test]
fn underground_travel_004_enter_the_sewers_on_an_entrance_with_one_action() {
    let mut st = two_boards(Underground::Sewers, "B4", "I1");
    let out = send(
        &mut st,
        "allies",
        "activate a\ntravel\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "a").at, Some(sq("B6")), "{}", texts(&out));
    assert!(u(&st, "a").activated);
    assert!(
        texts(&out).contains("a travels from B4 (aboveground) to B6 (underground)"),
        "{}",
        texts(&out)
    );
}

// 004 "Fighting in the Sewers": "To exit the sewers, a soldier unit must be on a numbered sewer
// space and perform one action. It is then moved to the sewer entrance with the same number on
// the aboveground board." From sewer space 2 (E8) to entrance 2 (E2) (R631).
#[test]
fn underground_travel_004_exit_the_sewers_from_a_numbered_space_with_one_action() {
    let mut st = two_boards(Underground::Sewers, "E8", "I1");
    let out = send(
        &mut st,
        "allies",
        "activate a\ntravel\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "a").at, Some(sq("E2")), "{}", texts(&out));
}

// 004 "Fighting in the Metro": "To enter the metro in a scenario with 2 or more boards, a
// soldier unit must be on a metro entrance and perform one action. That unit is then moved to
// the corresponding space in the metro as specified by the scenario." and "To exit the metro, a
// soldier unit must be on that scenario-specified space and perform one action. It is then
// moved to the corresponding metro entrance space on the aboveground board." (R631)
#[test]
fn underground_travel_004_metro_entrance_to_the_corresponding_space() {
    let mut st = two_boards(Underground::Metro, "E2", "I1");
    let out = send(
        &mut st,
        "allies",
        "activate a\ntravel\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "a").at, Some(sq("E8")), "into the metro");
    let mut st = two_boards(Underground::Metro, "B6", "I1");
    let out = send(
        &mut st,
        "allies",
        "activate a\ntravel\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "a").at, Some(sq("B4")), "out of the metro");
}

// 004: "a soldier unit must be on a sewer entrance and perform one action": a MOVE onto the
// entrance, then the travel, in one activation; or the travel, then an ATTACK from the space it
// arrived on (one space between: it fights normally, no cover save) (R631).
#[test]
fn underground_travel_004_move_then_travel_in_one_activation() {
    let mut st = two_boards(Underground::Sewers, "B3", "I1");
    let out = send(
        &mut st,
        "allies",
        "activate a\nmove B4\ntravel",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(u(&st, "a").at, Some(sq("B6")), "{}", texts(&out));

    let mut st = two_boards(Underground::Sewers, "B4", "B8");
    let out = send(
        &mut st,
        "allies",
        "activate a\ntravel\nattack gun at x",
        &mut ScriptedDice::new([1]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(saves(&out).is_empty(), "{}", texts(&out));
    assert_eq!(u(&st, "x").models.len(), 3, "{}", texts(&out));
}

// 004: "a soldier unit must be on a sewer entrance" — and "If a numbered sewer space does not
// have a matching sewer entrance space on the aboveground board, a unit cannot use the numbered
// sewer space to travel between boards." A travel from a square that is no end of a link is
// refused, naming the entrances to move onto, and changes nothing (R630, R631).
#[test]
fn underground_travel_004_travel_off_a_link_is_refused_naming_the_links() {
    let mut st = two_boards(Underground::Sewers, "C4", "I1");
    let out = send(
        &mut st,
        "allies",
        "activate a\ntravel\nnothing",
        &mut ScriptedDice::new([]),
    );
    let (reason, rule, instead) = refusal(&out);
    assert!(
        reason.contains("C4, which is no end of a link") && reason.contains("sewer entrance"),
        "{reason}"
    );
    assert!(rule.contains("R631"), "{rule}");
    assert!(instead.contains("B4 (1), E2 (2)"), "{instead}");
    assert_eq!(u(&st, "a").at, Some(sq("C4")));
    assert!(!u(&st, "a").activated);
    // A word after `travel` is refused by the parser, saying what to send.
    let out = send(
        &mut st,
        "allies",
        "activate a\ntravel B6\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(
        format!("{out:?}").contains("`travel` takes no square"),
        "{out:?}"
    );
}

// 004: "That unit is then moved to the corresponding space": a space held by another unit
// cannot take it; the travel is refused naming the unit (R631).
#[test]
fn underground_travel_004_travel_onto_a_held_space_is_refused() {
    let mut st = two_boards(Underground::Sewers, "B4", "B6");
    let out = send(
        &mut st,
        "allies",
        "activate a\ntravel\nnothing",
        &mut ScriptedDice::new([]),
    );
    let (reason, _, _) = refusal(&out);
    assert!(reason.contains("held by unit x"), "{reason}");
    assert_eq!(u(&st, "a").at, Some(sq("B4")));
}

// The orders template offers `travel` only to a unit standing on a link, with where it goes
// (R631); the line it offers is accepted.
#[test]
fn underground_travel_004_template_offers_travel_only_on_a_link() {
    let st = two_boards(Underground::Sewers, "B4", "I1");
    let t = view::orders_template(&st, "allies");
    assert!(
        t.contains("#   travel   # 1 action: to B6 by link 1"),
        "{t}"
    );
    let mut st2 = st.clone();
    let out = send(
        &mut st2,
        "allies",
        "activate a\ntravel\nnothing",
        &mut ScriptedDice::new([]),
    );
    assert!(first_result(&out).is_ok(), "{out:?}");
    let st = two_boards(Underground::Sewers, "C4", "I1");
    let t = view::orders_template(&st, "allies");
    assert!(!t.contains("travel"), "{t}");
}

// 004 "Dim Light, Low Ceilings": "Target units are considered in soft cover when there are
// exactly 2 spaces between them and the attacking unit". On two boards the dim light is the
// underground board's: below, two spaces between give soft cover (a save die of 1 saves);
// above, in the open, the same shot has no cover save (R632).
#[test]
fn underground_travel_004_dim_light_holds_below_not_above() {
    let mut st = two_boards(Underground::Sewers, "E9", "E6");
    let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([1, 1]));
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert_eq!(saves(&out), vec![1], "{}", texts(&out));
    assert_eq!(u(&st, "x").models.len(), 4);
    let mut st = two_boards(Underground::Sewers, "E4", "E1");
    let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([1]));
    assert!(first_result(&out).is_ok(), "{out:?}");
    assert!(saves(&out).is_empty(), "{}", texts(&out));
    assert_eq!(u(&st, "x").models.len(), 3, "{}", texts(&out));
}

// Two boards (004: "a scenario with 2 or more boards"): a unit on one board cannot target a
// unit on the other; the refusal says so and what to send instead (R632).
#[test]
fn underground_travel_004_no_attack_between_the_two_boards() {
    let mut st = two_boards(Underground::Sewers, "E4", "E6");
    let out = send(&mut st, "allies", FIRE, &mut ScriptedDice::new([]));
    let (reason, rule, instead) = refusal(&out);
    assert!(
        reason.contains("E4 and E6 are on different boards"),
        "{reason}"
    );
    assert!(rule.contains("R632"), "{rule}");
    assert!(instead.contains("travel"), "{instead}");
    assert_eq!(u(&st, "x").models.len(), 4);
}

fn sewer_raid() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(root.join("games/dust-tactics/scenarios/sewer-raid.toml")).unwrap()
}

// 004 "Fighting in the Sewers": "the space on the sewer board with the same number as the sewer
// entrance used" (R630): the links are scenario data, numbered in order; the text board shows
// each link's number on both its squares and lists the boards and the links; the picture draws
// a numbered manhole on each.
#[test]
fn underground_travel_004_links_are_scenario_data_numbered_and_shown_on_the_board() {
    let s = scenario::parse("sewer-raid", &sewer_raid()).expect("sewer-raid");
    let t = s.travel.clone().expect("[travel]");
    assert_eq!(t.aboveground_rows, 4);
    assert_eq!(t.linked(sq("B6")), Some((sq("B4"), 1)));
    assert_eq!(t.linked(sq("E4")), Some((sq("E6"), 2)));
    let mut st = two_boards(Underground::Sewers, "A1", "I9");
    st.scenario.travel = Some(Travel {
        aboveground_rows: 4,
        underground_rows: vec![],
        links: vec![(sq("C3"), sq("C7"))],
    });
    let board = view::board_text(&st);
    assert!(
        board.contains("Boards: rows 1-4 aboveground, row 5 wall, the rest the sewer board")
            && board.contains("Travel (`travel`, 1 action): 1 C3<->C7")
            && board.contains("1-9 travel link"),
        "{board}"
    );
    let row = |n: usize| {
        board
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{n} ")))
            .unwrap_or_default()
            .to_string()
    };
    assert!(row(3).contains(" 1 ") && row(7).contains(" 1 "), "{board}");
    let v = view::view(&st, Some("allies"));
    let pic = present::picture(&v, Some("allies"), &[]).expect("picture");
    assert_eq!(pic.travel_links, vec![(sq("C3"), 1), (sq("C7"), 1)]);
    let svg = picture::svg(&pic);
    assert!(svg.contains("travel link 1 on C3") && svg.contains("travel link 1 on C7"));
    assert!(
        svg.contains("travel link (1 action to its number)"),
        "the legend names it"
    );
}

// R630: a two-board scenario writes the wall row between its boards and each link's entrance
// above it, its space below; anything else is refused when the scenario is read, naming the
// field and what to write.
#[test]
fn underground_travel_004_a_scenario_without_its_wall_row_is_refused() {
    let ok = sewer_raid();
    for (from, to, says) in [
        (
            "aboveground_rows = 4",
            "aboveground_rows = 3",
            "row 4 is the wall",
        ),
        (
            "aboveground_rows = 4",
            "aboveground_rows = 8",
            "cannot be the aboveground board",
        ),
        (
            "[\"B4\", \"B6\"]",
            "[\"B6\", \"B4\"]",
            "B6 is not on the aboveground board",
        ),
        (
            "[\"E4\", \"E6\"]",
            "[\"B4\", \"E6\"]",
            "B4 is already in another link",
        ),
        ("[\"E4\", \"E6\"]", "[\"E4\", \"B7\"]", "B7 is impassable"),
        (
            "underground = \"sewers\"",
            "underground = \"tunnels\"",
            "add underground = \"metro\" or \"sewers\"",
        ),
    ] {
        assert!(ok.contains(from), "{from}");
        let e = scenario::parse("sewer-raid", &ok.replacen(from, to, 1)).expect_err(to);
        assert!(e.0.contains("`travel") && e.0.contains(says), "{to}: {e}");
    }
}

// 004 "Fighting in the Sewers", on two boards (R630–R632): the shipped `sewer-raid` scenario,
// the Allies on the street and the Axis in the sewers, played to its end by signed mail through
// the pipeline: the bots travel through the manholes to meet; the ledger replays and audits.
#[test]
fn underground_travel_004_sewers_two_boards_played_to_its_end_by_signed_mail() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let scen = root.join("games/dust-tactics/scenarios/sewer-raid.toml");
    let dir = tempfile::tempdir().unwrap();
    let (home, ps, env) = dt::new_in_home(
        dir.path(),
        &["--scenario", scen.to_str().unwrap()],
        ("g-raid", 32, 9),
    );
    let mut bots = dt::Bots::new("g-raid", &ps, |_| Style::Aggressive);
    env.run(dt::NOW);
    bots.play_to_end(&home, &env);
    let g = env.load("g-raid");
    assert!(g.derived.finished.is_some(), "the game did not end");
    let log = std::fs::read_to_string(dt::log_path(&home, "g-raid")).unwrap();
    assert!(
        log.contains("travels from"),
        "no unit travelled between the boards"
    );
    dt::replay_and_audit(&home, "g-raid");
}

// 004 "Dim Light, Low Ceilings": "Units cannot use the Jump skill while fighting underground."
// On two boards a squad with Jump may enter deep water on the aboveground board ("only units
// with Jump or Amphibious Unit may enter it"), not on the underground board (R632).
#[test]
fn underground_travel_004_jump_above_not_below() {
    for (from, water, ok) in [("E4", "E3", true), ("E9", "E8", false)] {
        let deep = [(water, Terrain::DeepWater)];
        let mut st = two_boards_with(Underground::Sewers, "jumper", from, "I1", &deep);
        let text = format!("activate a\nmove {water}\nnothing");
        let out = send(&mut st, "allies", &text, &mut ScriptedDice::new([]));
        if ok {
            assert!(first_result(&out).is_ok(), "{out:?}");
            assert_eq!(u(&st, "a").at, Some(sq(water)));
        } else {
            let (reason, _, _) = refusal(&out);
            assert!(reason.contains("deep water"), "{reason}");
            assert_eq!(u(&st, "a").at, Some(sq(from)));
        }
    }
}

// 004 "Minefields": "When a soldier or vehicle unit moves into such a space, for each token, roll
// 1 die separately for each miniature in the unit." The travel's unit "is then moved to the
// corresponding space": a mined space it arrives on is rolled for; a hit (a die of 1 here)
// destroys the one-model squad, a miss leaves it standing there (R631, R481).
#[test]
fn underground_travel_004_arriving_on_a_mined_space_rolls_for_it() {
    for (die, destroyed) in [(1, true), (6, false)] {
        let mut st = two_boards(Underground::Sewers, "B4", "I1");
        st.scenario.board.mines.insert(sq("B6"), 1);
        let mut d = ScriptedDice::new([die]);
        let out = send(&mut st, "allies", "activate a\ntravel\nnothing", &mut d);
        assert!(first_result(&out).is_ok(), "{out:?}");
        assert_eq!(d.remaining(), 0, "one die for the one miniature");
        let rolled = out.happenings.iter().flat_map(|h| &h.rolls);
        assert!(rolled
            .clone()
            .any(|r| r.purpose.starts_with("minefield on B6")));
        assert_eq!(u(&st, "a").destroyed, destroyed, "{}", texts(&out));
    }
}

/// `new` on the text of a scenario file: (exit code, the answer's text).
fn new_of(text: &str, id: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let home = dt::init_home(dir.path(), "file");
    let scen = dir.path().join("scen.toml");
    std::fs::write(&scen, text).unwrap();
    let args = ["--scenario", scen.to_str().unwrap(), "--id", id];
    let o = dt::new_with_players(&home.root, &args, &dt::players(33));
    (o.status.code(), dt::text(&o))
}

// 004 "Dim Light, Low Ceilings": "Only soldier units (squads, heroes, superhumans) can enter the
// metro and the sewers." — and "To enter the sewers in a scenario with 2 or more boards, a
// soldier unit must be on a sewer entrance and perform one action." On two boards a vehicle may
// fight on the aboveground board: placed there, or entering from an entry zone that is all
// aboveground, it is accepted at `new`; placed below, entering from an entry zone below, or in
// a scenario of one underground board, it is refused naming the unit and the sentence (R633).
#[test]
fn underground_travel_004_a_vehicle_fights_on_the_aboveground_board_only() {
    let raid = sewer_raid();
    let with = |side_unit: &str, at: Option<&str>| {
        let at = at.map_or(String::new(), |a| format!("at = \"{a}\"\n"));
        let unit = format!("[[sides.units]]\nid = \"tank\"\ncard = \"m2c-pounder\"\n{at}\n");
        let anchor = format!("[[sides.units]]\nid = \"{side_unit}\"");
        assert!(raid.contains(&anchor), "{anchor}");
        raid.replacen(&anchor, &format!("{unit}{anchor}"), 1)
    };
    // Allies (entry row 1, aboveground): placed on C2, or entering from row 1.
    for (at, id) in [(Some("C2"), "g-v1"), (None, "g-v2")] {
        let (code, t) = new_of(&with("rangers", at), id);
        assert_eq!(code, Some(0), "{at:?}: {t}");
    }
    // Placed below (C7), or entering from the Axis entry zone (row 9, the sewers).
    for (text, says) in [
        (with("rangers", Some("C7")), "is placed on C7"),
        (with("grenadiers", None), "entry zone, which has A9"),
    ] {
        let (code, t) = new_of(&text, "g-v3");
        assert_ne!(code, Some(0), "{t}");
        assert!(t.contains("tank (card m2c-pounder) is a vehicle"), "{t}");
        assert!(t.contains(says), "{t}");
        assert!(
            t.contains("Only soldier units") && t.contains("R633"),
            "{t}"
        );
        assert!(t.contains("aboveground board (rows 1 to 4)"), "{t}");
    }
    // One underground board: no [travel], and the vehicle on C2 is refused (R620).
    let text = with("rangers", Some("C2"));
    let (start, end) = (
        text.find("[travel]").unwrap(),
        text.find("[[sides]]").unwrap(),
    );
    let one_board = format!("{}{}", &text[..start], &text[end..]);
    let (code, t) = new_of(&one_board, "g-v4");
    assert_ne!(code, Some(0), "{t}");
    assert!(t.contains("is fought underground, and unit tank"), "{t}");
    assert!(
        t.contains("Only soldier units") && t.contains("R620"),
        "{t}"
    );
}

// 004 "Fighting in the Sewers": "To enter the sewers in a scenario with 2 or more boards, a
// soldier unit must be on a sewer entrance and perform one action." A vehicle on the entrance
// cannot `travel`: the line is refused naming "a soldier unit", the vehicle stays where it is,
// and the orders template does not offer it `travel` (R633).
#[test]
fn underground_travel_004_a_vehicle_cannot_travel() {
    let mut st = two_boards(Underground::Sewers, "B4", "I1");
    st.cards.get_mut("one").unwrap().unit_type = UnitType::Vehicle;
    let t = view::orders_template(&st, "allies");
    assert!(!t.contains("travel"), "{t}");
    let out = send(
        &mut st,
        "allies",
        "activate a\ntravel\nnothing",
        &mut ScriptedDice::new([]),
    );
    let (reason, rule, instead) = refusal(&out);
    assert!(reason.contains("a is a vehicle"), "{reason}");
    assert!(reason.contains("a soldier unit must be on"), "{reason}");
    assert!(rule.contains("004"), "{rule}");
    assert!(instead.contains("move"), "{instead}");
    assert_eq!(u(&st, "a").at, Some(sq("B4")));
}
