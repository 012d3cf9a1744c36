//! Issue 18 (bflarge): 003's Huge vehicles under `battlefront-2013`, a vehicle on four squares
//! (003 "Unit Size", "Moving Huge Vehicles", "Moving On To the Table"). Orders go through the
//! real state machine; each test quotes the sentence it checks. Rulings R790–R794
//! (docs/rulings.md); the 2×2 block is the engine's (R566–R569).

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::facing::Facing;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;

/// A Huge vehicle card: health 6, `movement`, front-mounted "guns" of 1 die reaching 8.
pub(super) fn huge(id: &str, movement: u8) -> Card {
    let mut guns = weapon("guns", WeaponRange::Upto(8), 1, 1);
    guns.traits = vec![WeaponTrait::FrontArc];
    let mut c = card(id, UnitType::Vehicle, 6, movement, vec![guns]);
    c.huge = true;
    c
}

/// The same numbers on one square, for the controls.
fn one_square(id: &str, movement: u8) -> Card {
    let mut c = huge(id, movement);
    c.huge = false;
    c
}

/// A battlefront-2013 game on the 9×9 open test board: the allies' `tk` (card `tank`) on `at`
/// (or off the board, entering on row 9) with `others`, the axis units `axis`; no reactive
/// attacks; the allies activate first.
fn game(tank: Card, at: Option<&str>, others: Vec<UnitSpec>, axis: Vec<UnitSpec>) -> State {
    game_on(tank, at, others, axis, |_| {})
}

/// [`game`] with the board changed by `board` first.
fn game_on(
    tank: Card,
    at: Option<&str>,
    others: Vec<UnitSpec>,
    axis: Vec<UnitSpec>,
    board: impl Fn(&mut Board),
) -> State {
    let mut allies = vec![unit("tk", &tank.id, at)];
    allies.extend(others);
    let mut s = scenario(allies, axis);
    board(&mut s.board);
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![tank, squad("sq")])
        .expect("setup");
    begin(&mut st, "allies");
    never_react(&mut st);
    st
}

/// `tk` faces `f` (as after a `turn`), so the arcs below do not depend on R251's placement.
fn facing(st: &mut State, f: Facing) {
    st.unit_mut("tk").expect("tk").facing = Some(f);
}

// ---------------------------------------------------------------------------------------------
// 003 "Unit Size": four squares
// ---------------------------------------------------------------------------------------------

// 003 "Unit Size": "Large Vehicles and Large Aircraft occupy two squares, while Huge Vehicles
// occupy four squares." R790: a `huge = true` card stands on the 2×2 block whose top-left is its
// square: on E5 it holds E5, F5, E6 and F6, so a friendly squad may not end its move on F6; the
// text board shows it once over the four squares, naming it a Huge vehicle.
#[test]
fn s003_unit_size_huge_vehicles_occupy_four_squares() {
    let mut st = game(
        huge("tank", 1),
        Some("E5"),
        vec![unit("a1", "sq", Some("G6"))],
        vec![unit("far", "sq", Some("A1"))],
    );
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("F6"), nothing()]),
        &mut plenty(),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("F6") && reason.contains("tk"), "{reason}");
    assert_eq!(u(&st, "a1").at, Some(sq("G6")));
    let board = dustmail::dust_tactics::view::board_text(&st);
    let row = |n: &str| {
        board
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{n} ")))
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(row("5").matches("A=").count(), 1, "{board}");
    assert_eq!(row("6").matches("A=").count(), 2, "{board}");
    assert!(
        board.contains("A= the other 3 squares of Huge vehicle A"),
        "{board}"
    );
}

// ---------------------------------------------------------------------------------------------
// 003 "Moving Huge Vehicles"
// ---------------------------------------------------------------------------------------------

// 003 "Moving Huge Vehicles": "When a Huge Vehicle moves, pick one corner of the Vehicle and move
// that corner one square as usual." and "The Punisher moves one square diagonally". R792: the
// whole block steps with its corner, every one of its squares must be open to it (G4 is not), and
// the move leaves its facing as it was.
#[test]
fn s003_moving_huge_vehicles_pick_one_corner_and_move_it_one_square() {
    let blocked = |b: &mut Board| b.set_terrain(sq("G4"), Terrain::Impassable);
    let far = || vec![unit("far", "sq", Some("A1"))];
    let mut st = game_on(huge("tank", 1), Some("E5"), vec![], far(), blocked);
    facing(&mut st, Facing::W);
    let out = cmd(
        &mut st,
        "allies",
        activate("tk", vec![mv("F4"), nothing()]),
        &mut plenty(),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("G4"), "{reason}");
    assert_eq!(u(&st, "tk").at, Some(sq("E5")));
    let out = cmd(
        &mut st,
        "allies",
        activate("tk", vec![mv("D4"), nothing()]),
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "tk").at, Some(sq("D4")), "{}", texts(&out));
    assert_eq!(
        u(&st, "tk").facing,
        Some(Facing::W),
        "a move keeps the facing"
    );
    // The control: a one-square vehicle turns to its last step (R252).
    let mut one = game_on(one_square("tank", 1), Some("E5"), vec![], far(), blocked);
    facing(&mut one, Facing::W);
    accepted(&cmd(
        &mut one,
        "allies",
        activate("tk", vec![mv("F4"), nothing()]),
        &mut plenty(),
    ));
    assert_eq!(u(&one, "tk").facing, Some(Facing::NE));
    // No square of it off the board; the refusal cites 003's section, not 004's (R790).
    let mut st = game(huge("tank", 1), Some("H5"), vec![], far());
    let out = cmd(
        &mut st,
        "allies",
        activate("tk", vec![mv("I5"), nothing()]),
        &mut plenty(),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("off the board"), "{reason}");
    assert!(rule.starts_with("003 \"Moving Huge Vehicles\""), "{rule}");
    assert_eq!(u(&st, "tk").at, Some(sq("H5")));
}

// 003 "Moving Huge Vehicles": "The Vehicle can rotate within the four squares it occupies either
// before or after moving." and "The Punisher moves one square diagonally, then rotates." R792:
// `turn` right before or after a `move` is that Move's rotation, no action of its own, so the
// Punisher still attacks; a one-square vehicle's `turn` is a whole Move action (R254).
#[test]
fn s003_moving_huge_vehicles_rotate_within_its_four_squares_before_or_after_moving() {
    let axis = || vec![unit("foe", "sq", Some("F1"))];
    let mut st = game(huge("tank", 1), Some("E5"), vec![], axis());
    facing(&mut st, Facing::S);
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move F4\n  turn N\n  attack guns at foe",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "tk").at, Some(sq("F4")), "{}", texts(&out));
    assert_eq!(u(&st, "tk").facing, Some(Facing::N));
    assert!(texts(&out).contains("fires"), "{}", texts(&out));
    // Before moving: the rotation stays, the move keeps it.
    let mut st = game(huge("tank", 1), Some("E5"), vec![], axis());
    facing(&mut st, Facing::S);
    accepted(&send(
        &mut st,
        "allies",
        "activate tk\n  turn E\n  move F4\n  nothing",
        &mut plenty(),
    ));
    assert_eq!(u(&st, "tk").at, Some(sq("F4")));
    assert_eq!(u(&st, "tk").facing, Some(Facing::E));
    // The control: one square, `turn` with a `move` is refused and nothing changes.
    let mut one = game(one_square("tank", 1), Some("E5"), vec![], axis());
    facing(&mut one, Facing::S);
    let (reason, _) = refused(&send(
        &mut one,
        "allies",
        "activate tk\n  move F4\n  turn N\n  attack guns at foe",
        &mut plenty(),
    ));
    assert!(reason.contains("turns and moves"), "{reason}");
    assert_eq!(u(&one, "tk").at, Some(sq("E5")));
}

// ---------------------------------------------------------------------------------------------
// 003 "Moving On To the Table"
// ---------------------------------------------------------------------------------------------

// 003 "Moving On To the Table": "Large and Huge Vehicles must move entirely onto the board by
// moving two squares (usually by taking a March Move action) in their first activation before
// they do anything else." R793: the entering move puts all four squares on (E8 holds E8, F8,
// E9, F9, one in the entry row 9); with Movement 1 that is a March Move, so an attack after it is
// refused and nothing changes; `nothing` is accepted. With Movement 2 one Move is two squares.
#[test]
fn s003_moving_on_to_the_table_huge_vehicles_enter_wholly_moving_two_squares() {
    let axis = || vec![unit("foe", "sq", Some("E1"))];
    let mut st = game(huge("tank", 1), None, vec![], axis());
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move E8\n  attack guns at foe",
        &mut plenty(),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("March Move"), "{reason}");
    assert!(
        rule.contains("Moving On To the Table") && rule.contains("R793"),
        "{rule}"
    );
    assert_eq!(u(&st, "tk").at, None);
    // On E9 its lower squares would be off the board.
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move E9\n  nothing",
        &mut plenty(),
    );
    let (_, rule) = refused(&out);
    assert!(rule.starts_with("003 \"Moving Huge Vehicles\""), "{rule}");
    assert_eq!(u(&st, "tk").at, None);
    // Off the board it has no four squares to rotate in: a `turn` before the entry is refused.
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  turn E\n  move E8",
        &mut plenty(),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("not on the battlefield yet"), "{reason}");
    assert_eq!(u(&st, "tk").at, None);
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move E8\n  nothing",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "tk").at, Some(sq("E8")), "{}", texts(&out));
    // Movement 2: the entering Move is the two squares, the second action is free.
    let mut two = game(huge("tank", 2), None, vec![], axis());
    let out = send(
        &mut two,
        "allies",
        "activate tk\n  move E8\n  attack guns at foe",
        &mut plenty(),
    );
    accepted(&out);
    assert!(texts(&out).contains("fires"), "{}", texts(&out));
}

// ---------------------------------------------------------------------------------------------
// 003 "Field of Fire" and "Line of Sight" for a Huge vehicle
// ---------------------------------------------------------------------------------------------

// 003 "Check Field of Fire": "Most Vehicle weapons can only attack targets up to 45 degrees on
// either side of the direction the Vehicle is facing." R792: a Huge vehicle's arc is seen from
// the centre of its four squares. On E5 facing N that point is where E5, F5, E6 and F6 meet: H4
// is in the arc (exactly 45°), I5 is not; from E5's own centre H4 would be out (the control).
#[test]
fn s003_field_of_fire_of_a_huge_vehicle_from_the_centre_of_its_four_squares() {
    let fire_at = |tank: Card, at: &str| {
        let mut st = game(tank, Some("E5"), vec![], vec![unit("foe", "sq", Some(at))]);
        facing(&mut st, Facing::N);
        let out = send(
            &mut st,
            "allies",
            "activate tk\n  attack guns at foe\n  nothing",
            &mut plenty(),
        );
        first_result(&out)
    };
    let ok = fire_at(huge("tank", 1), "H4");
    assert!(ok.is_ok(), "{ok:?}");
    let out = fire_at(huge("tank", 1), "I5").expect_err("I5 is outside");
    assert!(out.contains("outside the field of fire"), "{out}");
    let out = fire_at(one_square("tank", 1), "H4").expect_err("one square: H4 is outside");
    assert!(out.contains("outside the field of fire"), "{out}");
}

// 003 "Line of Sight": "trace an imaginary line from any point in the attacking unit's square to
// any point in the target's square". R795 follows R568: a Huge vehicle is seen along any of its
// squares. On F3 it also stands on G4; from F8 the structure on F5 hides F3 and F4 but not G4.
// The control: a one-square vehicle on F3 is out of sight.
#[test]
fn s003_line_of_sight_to_a_huge_vehicle_any_of_its_four_squares() {
    let shoot = |tank: Card| {
        let mut s = scenario(
            vec![unit("a1", "gunners", Some("F8"))],
            vec![unit("tk", &tank.id, Some("F3"))],
        );
        s.board.set_terrain(sq("F5"), Terrain::Impassable);
        let gunners = card(
            "gunners",
            UnitType::Squad,
            4,
            1,
            vec![weapon("rifles", WeaponRange::Upto(8), 1, 1)],
        );
        let mut st = DustTactics
            .start("battlefront-2013", s, vec![tank, gunners])
            .expect("setup");
        begin(&mut st, "allies");
        never_react(&mut st);
        let out = send(
            &mut st,
            "allies",
            "activate a1\n  attack rifles at tk\n  nothing",
            &mut plenty(),
        );
        first_result(&out)
    };
    let ok = shoot(huge("tank", 1));
    assert!(ok.is_ok(), "{ok:?}");
    let out = shoot(one_square("tank", 1)).expect_err("out of sight");
    assert!(out.contains("line of sight"), "{out}");
}

// ---------------------------------------------------------------------------------------------
// Which rulesets play a Huge card; the picture
// ---------------------------------------------------------------------------------------------

// R790: only 003 has Huge vehicles (004's vehicle inside 4 spaces is `large`, 000 has none): a
// Huge card is refused at `new` under the other rulesets, naming the unit, the card and the
// ruleset that plays it; a card cannot be both.
#[test]
fn s003_unit_size_a_huge_card_is_played_only_under_battlefront_2013() {
    for ruleset in ["classic-2010", "ffg-revised"] {
        let s = scenario(
            vec![unit("tk", "tank", Some("E5"))],
            vec![unit("foe", "sq", Some("A1"))],
        );
        let e = DustTactics
            .start(ruleset, s, vec![huge("tank", 1), squad("sq")])
            .expect_err(ruleset);
        assert!(
            e.0.contains("tank") && e.0.contains("battlefront-2013") && e.0.contains("R790"),
            "{ruleset}: {e:?}"
        );
    }
    let mut both = huge("tank", 1);
    both.large = true;
    let e = dustmail::dust_tactics::cards::validate("tank.toml", &both).expect_err("both");
    assert_eq!(e.field, "huge", "{e}");
}

// 003 "Unit Size" and "Facing": R794: the picture draws a Huge vehicle as one counter over its
// four squares, its facing mark on that counter's rim: on E5 facing N the mark's tip is 59 px
// above the point where its four squares meet (328, 328).
#[test]
fn s003_unit_size_the_picture_draws_the_facing_on_the_huge_counter() {
    let mut st = game(
        huge("tank", 1),
        Some("E5"),
        vec![],
        vec![unit("far", "sq", Some("A1"))],
    );
    facing(&mut st, Facing::N);
    let v = dustmail::dust_tactics::view::view(&st, Some("allies"));
    let pic = dustmail::dust_tactics::present::picture(&v, Some("allies"), &[]).expect("picture");
    let svg = dustmail::dust_tactics::picture::svg(&pic);
    assert_eq!(svg.matches("<title>tk ").count(), 1, "drawn once");
    let tk = svg
        .split(r#"<g class="unit vehicle""#)
        .find(|g| g.contains("<title>tk "))
        .expect("tk drawn");
    assert!(
        tk.contains(r#"<rect x="274" y="274" width="108" height="108""#),
        "{tk}"
    );
    assert!(svg.contains(r#"points="328,269 "#), "{svg}");
}

// ---------------------------------------------------------------------------------------------
// The provisional Punisher of games/dust-tactics/cards-huge/, played through the pipeline
// ---------------------------------------------------------------------------------------------

// Every sentence above on one scenario: the Punisher (cards-huge/bf-punisher.toml, provisional)
// enters from the south edge and fights in "Punisher Crossing", played to its end by two
// players' signed mails; the reports show it entering and firing; the game replays.
#[test]
fn s003_huge_vehicles_punisher_crossing_is_played_to_its_end_by_mail() {
    use crate::support::dt;
    use dustmail::dust_tactics::bot::Style;
    let dir = tempfile::tempdir().unwrap();
    let (home, env) = dt::play_cards_to_end(
        dir.path(),
        "battlefront-2013",
        ("cards-huge", "punisher-crossing"),
        ("g-punisher", 17),
        |_| Style::Aggressive,
    );
    let g = env.load("g-punisher");
    let sent = dt::sent_text(&home);
    let tail = dt::tail(&sent, 6000);
    assert!(g.derived.finished.is_some(), "the game did not end: {tail}");
    assert!(
        sent.contains("punisher enters the battlefield"),
        "the Punisher never entered: {tail}"
    );
    assert!(
        sent.contains("punisher fires"),
        "the Punisher never fired: {tail}"
    );
    // Replay reproduces every byte; the audit passes.
    dt::replay_and_audit(&home, "g-punisher");
}

// ---------------------------------------------------------------------------------------------
// 003 "Piloting Vehicles": a Huge vehicle left by its pilot still acts
// ---------------------------------------------------------------------------------------------

// 003 "Piloting Vehicles": "If the Hero dismounts the Vehicle, the Vehicle cannot take any
// actions until they mount it again unless it is a Large or Huge Vehicle." R796: the pilot
// begins in the Huge vehicle on E5 and dismounts to D5; the vehicle then moves and attacks. The
// control: the same vehicle on one square is left unable to act (R607).
#[test]
fn s003_piloting_vehicles_a_huge_vehicle_left_by_its_pilot_still_acts() {
    let play = |tank: Card| {
        let mut hero = unit("pilot", "hero", None);
        hero.joins = Some("tk".into());
        let s = scenario(
            vec![unit("tk", &tank.id, Some("E5")), hero],
            vec![
                unit("foe", "sq", Some("E1")),
                unit("spare", "sq", Some("I1")),
            ],
        );
        let pilot = with_skill(
            card(
                "hero",
                UnitType::Hero,
                3,
                2,
                vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
            ),
            "pilot",
            None,
        );
        let mut st = DustTactics
            .start("battlefront-2013", s, vec![tank, pilot, squad("sq")])
            .expect("setup");
        never_react(&mut st);
        begin(&mut st, "allies");
        facing(&mut st, Facing::N);
        let out = send(
            &mut st,
            "allies",
            "activate pilot\n  move D5\n  nothing",
            &mut plenty(),
        );
        accepted(&out);
        let dismounted = texts(&out);
        accepted(&send(
            &mut st,
            "axis",
            "activate foe\n  nothing\n  nothing",
            &mut plenty(),
        ));
        let out = send(
            &mut st,
            "allies",
            "activate tk\n  move E4\n  attack guns at foe",
            &mut plenty(),
        );
        (st, dismounted, first_result(&out))
    };
    let (st, text, out) = play(huge("tank", 1));
    assert!(text.contains("acts without a pilot"), "{text}");
    assert!(out.is_ok(), "{out:?}");
    assert_eq!(u(&st, "tk").at, Some(sq("E4")));
    let (st, text, out) = play(one_square("tank", 1));
    assert!(text.contains("cannot take any actions"), "{text}");
    let e = out.expect_err("a one-square vehicle waits for its pilot");
    assert!(e.contains("cannot take any actions"), "{e}");
    assert_eq!(u(&st, "tk").at, Some(sq("E5")));
}

// 003 "Close-Combat Weapons" (range C, adjacent squares) and "Unit Size". R795 follows R569: an
// enemy next to any of a Huge vehicle's four squares fights it. On E5 it also stands on F6, and
// the squad on G7 is next to F6; the control: a one-square vehicle on E5 is two squares away.
#[test]
fn s003_close_combat_an_enemy_next_to_any_of_its_four_squares_fights_it() {
    let fight = |tank: Card| {
        let s = scenario(
            vec![unit("tk", &tank.id, Some("E5"))],
            vec![unit("foe", "brawlers", Some("G7"))],
        );
        let brawlers = card(
            "brawlers",
            UnitType::Squad,
            4,
            1,
            vec![weapon("knives", WeaponRange::Close, 1, 1)],
        );
        let mut st = DustTactics
            .start("battlefront-2013", s, vec![tank, brawlers])
            .expect("setup");
        begin(&mut st, "axis");
        never_react(&mut st);
        let out = send(
            &mut st,
            "axis",
            "activate foe\n  attack knives at tk\n  nothing",
            &mut plenty(),
        );
        first_result(&out)
    };
    let ok = fight(huge("tank", 1));
    assert!(ok.is_ok(), "{ok:?}");
    let e = fight(one_square("tank", 1)).expect_err("two squares away");
    assert!(e.contains("not in range"), "{e}");
}

// 003 "Walls and Buildings": "Large openings are the full width of a square. Huge openings are
// two or more squares wide. [...] Vehicle units require large openings. Huge Vehicle units need
// a huge opening to move through." R790: each of its squares steps through the wall alike, so
// a wall along row 4/5 with a gap under E and F lets the Huge vehicle on E5 pass to E4; with F
// walled too, the one-square gap is refused and it stays. A one-square vehicle uses that gap.
#[test]
fn s003_walls_and_buildings_huge_vehicles_need_a_huge_opening() {
    let wall = |gap: &'static [&'static str]| {
        move |b: &mut Board| {
            for c in ["A", "B", "C", "D", "E", "F", "G", "H", "I"] {
                if !gap.contains(&c) {
                    b.add_wall(sq(&format!("{c}4")), sq(&format!("{c}5")))
                        .expect("wall");
                }
            }
        }
    };
    let far = || vec![unit("far", "sq", Some("A1"))];
    let go = |st: &mut State| {
        send(
            st,
            "allies",
            "activate tk\n  move E4\n  nothing",
            &mut plenty(),
        )
    };
    let mut st = game_on(
        huge("tank", 1),
        Some("E5"),
        vec![],
        far(),
        wall(&["E", "F"]),
    );
    accepted(&go(&mut st));
    assert_eq!(u(&st, "tk").at, Some(sq("E4")));
    let mut st = game_on(huge("tank", 1), Some("E5"), vec![], far(), wall(&["E"]));
    let (reason, _) = refused(&go(&mut st));
    assert!(reason.contains("wall"), "{reason}");
    assert_eq!(u(&st, "tk").at, Some(sq("E5")));
    let mut one = game_on(
        one_square("tank", 1),
        Some("E5"),
        vec![],
        far(),
        wall(&["E"]),
    );
    accepted(&go(&mut one));
    assert_eq!(u(&one, "tk").at, Some(sq("E4")));
}
