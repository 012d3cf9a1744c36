//! Issue 18 (bflarge2): 003's two-square Large vehicles under `battlefront-2013` (003 "Unit
//! Size", "Moving Large Vehicles and Aircraft", the IS-48 examples, "Moving On To the Table").
//! Orders go through the real state machine; each test quotes the sentence it checks. Rulings
//! R767–R772 (docs/rulings.md).

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::facing::Facing;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::ScriptedDice;

/// A Large vehicle card (`size = "large"`): health 6, `movement`, "guns" of 1 die reaching 3 in
/// any direction.
pub(super) fn large(id: &str, movement: u8) -> Card {
    let mut c = card(
        id,
        UnitType::Vehicle,
        6,
        movement,
        vec![weapon("guns", WeaponRange::Upto(3), 1, 1)],
    );
    c.size = Some(VehicleSize::Large);
    c
}

/// The same numbers on one square, for the controls.
fn one_square(id: &str, movement: u8) -> Card {
    let mut c = large(id, movement);
    c.size = None;
    c
}

/// A battlefront-2013 game on the 9×9 open test board: the allies' `tk` (card `tank`) on `at`
/// facing `f` (or off the board, entering on row 9) with `others`, the axis units `axis`; no
/// reactive attacks; the allies activate first.
pub(super) fn game(
    tank: Card,
    at: Option<&str>,
    f: Facing,
    others: Vec<UnitSpec>,
    axis: Vec<UnitSpec>,
) -> State {
    game_on(tank, at, f, others, axis, |_| {})
}

/// [`game`] with the board changed by `board` first.
pub(super) fn game_on(
    tank: Card,
    at: Option<&str>,
    f: Facing,
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
    if at.is_some() {
        st.unit_mut("tk").expect("tk").facing = Some(f);
    }
    st
}

pub(super) fn far() -> Vec<UnitSpec> {
    vec![unit("far", "sq", Some("A1"))]
}

/// The square the view draws `tk`'s rear on (R772).
fn rear(st: &State) -> Option<String> {
    let v = dustmail::dust_tactics::view::view(st, Some("allies"));
    let units = v["units"].as_array().cloned().unwrap_or_default();
    let tk = units.iter().find(|u| u["id"] == "tk")?;
    tk["rear"].as_str().map(str::to_string)
}

/// `tk` on `at` after the activation `orders` (a `move` and its second action) of a fresh game.
fn moved(at: &str, f: Facing, movement: u8, orders: &str) -> (State, String) {
    let mut st = game(large("tank", movement), Some(at), f, vec![], far());
    let out = send(
        &mut st,
        "allies",
        &format!("activate tk\n{orders}"),
        &mut plenty(),
    );
    let t = texts(&out);
    (st, first_result(&out).map(|_| t).unwrap_or_else(|e| e))
}

// ---------------------------------------------------------------------------------------------
// 003 "Unit Size": two squares
// ---------------------------------------------------------------------------------------------

// 003 "Unit Size": "Large Vehicles and Large Aircraft occupy two squares". R767: a card with
// `size = "large"` stands on its square (its front, the one orders name) and the square behind
// it along its facing: facing N on E5 it holds E5 and E6, so a friendly squad may not end its
// move on E6 but may on E4; the text board shows its letter once and `A=` on the rear.
#[test]
fn s003_unit_size_large_vehicles_occupy_two_squares() {
    let mut st = game(
        large("tank", 1),
        Some("E5"),
        Facing::N,
        vec![unit("a1", "sq", Some("F6"))],
        far(),
    );
    let out = cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E6"), nothing()]),
        &mut plenty(),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("E6") && reason.contains("tk"), "{reason}");
    assert_eq!(u(&st, "a1").at, Some(sq("F6")));
    let board = dustmail::dust_tactics::view::board_text(&st);
    let row = |n: &str| {
        board
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{n} ")))
            .unwrap_or_default()
            .to_string()
    };
    assert!(row("5").contains(" A"), "{board}");
    assert_eq!(row("6").matches("A=").count(), 1, "{board}");
    assert_eq!(row("5").matches("A=").count(), 0, "{board}");
    assert!(
        board.contains("A= the rear square of Large vehicle A"),
        "{board}"
    );
    assert_eq!(rear(&st).as_deref(), Some("E6"));
    // Facing E the rear is the square to the west.
    st.unit_mut("tk").expect("tk").facing = Some(Facing::E);
    assert_eq!(rear(&st).as_deref(), Some("D5"));
    accepted(&cmd(
        &mut st,
        "allies",
        activate("a1", vec![mv("E6"), nothing()]),
        &mut plenty(),
    ));
}

// 003 "Unit Size" (R767): the card form. `size = "large"` is read; any other size is refused by
// name when the card is read; a Large card is played only under battlefront-2013.
#[test]
fn s003_unit_size_a_large_card_says_size_large_and_plays_only_under_battlefront_2013() {
    use dustmail::dust_tactics::cards::parse_card;
    let (_, text) = dustmail::dust_tactics::cards::builtin()
        .into_iter()
        .find(|(f, _)| *f == "m2c-pounder.toml")
        .expect("pounder");
    let sized = text.replacen("movement = 1", "size = \"large\"\nmovement = 1", 1);
    let read = parse_card("m2c-pounder.toml", &sized);
    assert!(
        read.as_ref()
            .is_ok_and(|c| c.size == Some(VehicleSize::Large)),
        "{read:?}"
    );
    let huge = text.replacen("movement = 1", "size = \"huge\"\nmovement = 1", 1);
    let e = parse_card("m2c-pounder.toml", &huge).expect_err("size huge");
    assert_eq!(e.file, "m2c-pounder.toml");
    assert!(e.to_string().contains("size = \"large\""), "{e}");
    // R767: placed by the scenario it faces the far half of the board (R251), its rear behind it:
    // on E9 facing N the rear would be off the board; on E5 facing S it would be on E4, taken.
    for (at, other, why) in [
        ("E9", "A1", "off the board"),
        ("E4", "E3", "E3 holds another unit"),
    ] {
        let s = scenario(
            vec![unit("tk", "tank", Some(at))],
            vec![unit("x", "sq", Some(other))],
        );
        let e = DustTactics
            .start("battlefront-2013", s, vec![large("tank", 1), squad("sq")])
            .expect_err("no room for its rear");
        assert!(e.to_string().contains(why), "{e}");
    }
    for ruleset in ["ffg-revised", "classic-2010"] {
        let s = scenario(vec![unit("tk", "tank", Some("E5"))], far());
        let e = DustTactics
            .start(ruleset, s, vec![large("tank", 1), squad("sq")])
            .expect_err("only battlefront-2013");
        assert!(e.to_string().contains("battlefront-2013"), "{e}");
    }
}

// ---------------------------------------------------------------------------------------------
// Line of sight, range and close combat: either square
// ---------------------------------------------------------------------------------------------

// 003 "Line of Sight": "trace an imaginary line from any point in the attacking unit's square to
// any point in the target's square"; 003 "Unit Size": two squares. R768: with a Large vehicle at
// either end an attack is measured along the nearest pair of squares in range and in sight.
// The tank on E5 facing S has its rear on E4: its guns (range 3) reach the squad on E1 from the
// rear (3 squares) though its front is 4 away; the same tank on one square may not.
#[test]
fn s003_line_of_sight_range_is_counted_from_either_square() {
    let foe = || vec![unit("foe", "sq", Some("E1"))];
    let mut st = game(large("tank", 1), Some("E5"), Facing::S, vec![], foe());
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  sustained guns at foe",
        &mut plenty(),
    );
    accepted(&out);
    assert!(texts(&out).contains("fires"), "{}", texts(&out));
    let mut one = game(one_square("tank", 1), Some("E5"), Facing::S, vec![], foe());
    let out = send(
        &mut one,
        "allies",
        "activate tk\n  sustained guns at foe",
        &mut plenty(),
    );
    assert!(first_result(&out).is_err(), "{}", texts(&out));
    // And the squad reaches it: its gun (range 4) from E1 to the rear on E5 is 4 squares when the
    // front is on E6, but neither square is within 4 when the front is on E8.
    let shoot = |at: &str| {
        let s = scenario(vec![unit("tk", "tank", Some(at))], foe());
        let mut st = DustTactics
            .start("battlefront-2013", s, vec![large("tank", 1), squad("sq")])
            .expect("setup");
        st.unit_mut("tk").expect("tk").facing = Some(Facing::S);
        begin(&mut st, "axis");
        never_react(&mut st);
        send(
            &mut st,
            "axis",
            "activate foe\n  sustained gun at tk",
            &mut plenty(),
        )
    };
    assert!(
        first_result(&shoot("E8")).is_err(),
        "E8 and E7 are 7 and 6 away"
    );
    accepted(&shoot("E6"));
}

// 003 "Unit Size" and "Close Combat" (R768): a unit next to either square of a Large vehicle
// fights it in close combat. The brawlers on E3 touch only the rear (E4) of the tank on E5
// facing S.
#[test]
fn s003_close_combat_an_enemy_next_to_either_square_fights_it() {
    let fight = |tank: Card| {
        let s = scenario(
            vec![unit("tk", &tank.id, Some("E5"))],
            vec![unit("foe", "brawlers", Some("E3"))],
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
        st.unit_mut("tk").expect("tk").facing = Some(Facing::S);
        begin(&mut st, "axis");
        never_react(&mut st);
        send(
            &mut st,
            "axis",
            "activate foe\n  attack knives at tk\n  nothing",
            &mut plenty(),
        )
    };
    accepted(&fight(large("tank", 1)));
    assert!(first_result(&fight(one_square("tank", 1))).is_err());
}

// ---------------------------------------------------------------------------------------------
// 003 "Moving Large Vehicles and Aircraft" and the IS-48 examples
// ---------------------------------------------------------------------------------------------

// 003 "Moving Large Vehicles Sideways": "An IS-48 has a Move rating of 1. It moves sideways
// around the corner of the building, ending with the rear of the vehicle in the square where the
// front started." R769: facing N on C5 (rear C6), `move D5` steps the front east and the rear
// follows into C5: the IS-48 now faces E. A building on D6 does not stop it (only C5 and D5 are
// entered).
#[test]
fn s003_moving_large_vehicles_sideways_the_rear_ends_where_the_front_started() {
    let building = |b: &mut Board| b.set_terrain(sq("D6"), Terrain::Impassable);
    let mut st = game_on(
        large("tank", 1),
        Some("C5"),
        Facing::N,
        vec![],
        far(),
        building,
    );
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move D5\n  nothing",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "tk").at, Some(sq("D5")), "{}", texts(&out));
    assert_eq!(u(&st, "tk").facing, Some(Facing::E));
    assert_eq!(rear(&st).as_deref(), Some("C5"));
    // Its guns (range 3) then reach A3 from the rear on C5 (D5 and D6 are 4 and 5 away): the
    // attack planned after the move sees the body the move leaves (R768).
    let foe = || vec![unit("foe", "sq", Some("A3"))];
    let mut st = game_on(
        large("tank", 1),
        Some("C5"),
        Facing::N,
        vec![],
        foe(),
        building,
    );
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move D5\n  attack guns at foe",
        &mut plenty(),
    );
    accepted(&out);
    assert!(texts(&out).contains("tk fires"), "{}", texts(&out));
    // Forward and backward moves keep the shape: facing E, `move E5` then (next round) `move D5`.
    let (st, t) = moved("D5", Facing::E, 1, "  move E5\n  nothing");
    assert_eq!(u(&st, "tk").at, Some(sq("E5")), "{t}");
    assert_eq!(u(&st, "tk").facing, Some(Facing::E), "{t}");
    let (st, t) = moved("D5", Facing::E, 1, "  move C5\n  nothing");
    assert_eq!(u(&st, "tk").at, Some(sq("C5")), "{t}");
    assert_eq!(
        (u(&st, "tk").facing, rear(&st).as_deref()),
        (Some(Facing::E), Some("B5")),
        "{t}"
    );
}

// 003 "Moving Large Vehicles Diagonally": "The IS-48 then moves diagonally backwards. It can
// either end its move facing the same way, or it can turn as it reverses." R769, R770: facing E
// on D5 (rear C5) the rear steps diagonally back to B6; the front follows into one of the
// intervening squares: C6 keeps the facing (`move C6`), B5 turns it N (`move B5 facing N`). One
// diagonal step: Move 1 is enough for either.
#[test]
fn s003_moving_large_vehicles_diagonally_either_facing_the_same_way_or_turning() {
    let (st, t) = moved("D5", Facing::E, 1, "  move C6\n  nothing");
    assert_eq!(u(&st, "tk").at, Some(sq("C6")), "{t}");
    assert_eq!(
        (u(&st, "tk").facing, rear(&st).as_deref()),
        (Some(Facing::E), Some("B6")),
        "{t}"
    );
    let (st, t) = moved("D5", Facing::E, 1, "  move B5 facing N\n  nothing");
    assert_eq!(u(&st, "tk").at, Some(sq("B5")), "{t}");
    assert_eq!(
        (u(&st, "tk").facing, rear(&st).as_deref()),
        (Some(Facing::N), Some("B6")),
        "{t}"
    );
    // The facing names one of N, E, S, W: a two-square body never lies diagonally.
    let (st, t) = moved("D5", Facing::E, 1, "  move C6 facing NE\n  nothing");
    assert!(t.contains("N, E, S or W"), "{t}");
    assert_eq!(u(&st, "tk").at, Some(sq("D5")));
    // A vehicle's diagonal step needs both intervening squares open (R11): a ruin on C6 closes it.
    let ruin = |b: &mut Board| b.set_terrain(sq("C6"), Terrain::Impassable);
    let mut st = game_on(large("tank", 1), Some("D5"), Facing::E, vec![], far(), ruin);
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move B5 facing N\n  nothing",
        &mut plenty(),
    );
    let (reason, _) = refused(&out);
    assert!(!reason.is_empty());
    assert_eq!(u(&st, "tk").at, Some(sq("D5")));
}

// 003 "Reacting to a March Move": "the unit makes a normal Move action before you attempt the
// Reactive Attack, then completes its March Move afterwards." R769: a Large vehicle's March Move
// is its two Moves one after the other, the reaction window between them (R256). The tank on E6
// (facing N) marches to E5 then E4; after the first Move it is four squares from the squad on E1,
// which reacts (one army symbol: an Attack), then the tank completes its March Move.
#[test]
fn s003_reacting_to_a_march_move_of_a_large_vehicle_after_its_first_move() {
    let s = scenario(
        vec![
            unit("tk", "tank", Some("E6")),
            unit("spare-a", "sq", Some("I9")),
        ],
        vec![
            unit("theirs", "sq", Some("E1")),
            unit("spare-x", "sq", Some("A1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![large("tank", 1), squad("sq")])
        .expect("setup");
    st.unit_mut("tk").expect("tk").facing = Some(Facing::N);
    begin(&mut st, "allies");
    let misses = (0..120).map(|i| [3u8, 4, 5, 6][i % 4]);
    let mut dice = ScriptedDice::new([1u8, 3].into_iter().chain(misses).collect::<Vec<u8>>());
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move E5\n  move E4",
        &mut dice,
    );
    accepted(&out);
    let lines: Vec<String> = out.happenings.iter().map(|h| h.text.clone()).collect();
    let at = |what: &str| {
        (lines.iter().position(|t| t.contains(what)))
            .unwrap_or_else(|| panic!("no `{what}` in {lines:#?}"))
    };
    let (first, react, rest) = (
        at("tk moves to E5"),
        at("theirs attempts a reactive attack at tk"),
        at("tk moves to E4"),
    );
    assert!(first < react && react < rest, "{lines:#?}");
    assert_eq!(u(&st, "tk").at, Some(sq("E4")));
    assert_eq!(rear(&st).as_deref(), Some("E5"));
}

// 003 "Moving Large Vehicles and Aircraft" (R770): the body turns only as it moves; a `turn`
// line, which would rotate it in place, is refused and nothing changes.
#[test]
fn s003_moving_large_vehicles_a_large_vehicle_does_not_turn_in_place() {
    let (st, t) = moved("E5", Facing::N, 1, "  turn E\n  nothing");
    assert!(t.contains("turns as it moves"), "{t}");
    assert_eq!(u(&st, "tk").facing, Some(Facing::N));
    // The control: a one-square vehicle turns (R254).
    let mut one = game(one_square("tank", 1), Some("E5"), Facing::N, vec![], far());
    accepted(&send(
        &mut one,
        "allies",
        "activate tk\n  turn E\n  nothing",
        &mut plenty(),
    ));
}

// ---------------------------------------------------------------------------------------------
// 003 "Moving On To the Table"
// ---------------------------------------------------------------------------------------------

// 003 "Moving On To the Table": "Large and Huge Vehicles must move entirely onto the board by
// moving two squares (usually by taking a March Move action) in their first activation before
// they do anything else." R771: the entering move names the front; it faces in from the nearest
// edge, its rear behind it, both on the board, one in the entry zone (row 9): `move E9` would put
// the rear off the board; `move E8` enters (rear E9) and, with Movement 1, the activation's
// other action may only be `nothing`.
#[test]
fn s003_moving_on_to_the_table_a_large_vehicle_enters_wholly() {
    let foe = || vec![unit("foe", "sq", Some("E5"))];
    let mut st = game(large("tank", 1), None, Facing::N, vec![], foe());
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move E9\n  nothing",
        &mut plenty(),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("E9") && reason.contains("rear"), "{reason}");
    assert!(rule.contains("Moving On To the Table"), "{rule}");
    assert_eq!(u(&st, "tk").at, None);
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move E8\n  attack guns at foe",
        &mut plenty(),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("March Move"), "{reason}");
    assert_eq!(u(&st, "tk").at, None);
    accepted(&send(
        &mut st,
        "allies",
        "activate tk\n  move E8\n  nothing",
        &mut plenty(),
    ));
    assert_eq!(u(&st, "tk").at, Some(sq("E8")));
    assert_eq!(u(&st, "tk").facing, Some(Facing::N));
    assert_eq!(rear(&st).as_deref(), Some("E9"));
    // Wholly on, it moves on as any Large vehicle in the next turn.
    next_round(&mut st);
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move E7\n  nothing",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(rear(&st).as_deref(), Some("E8"), "{}", texts(&out));
}

// 003 "Unit Size" (R772): the picture draws the Large vehicle once, one counter centred where
// its two squares meet, the facing mark at its front.
#[test]
fn s003_unit_size_the_picture_draws_the_large_vehicle_once_over_its_two_squares() {
    let st = game(large("tank", 1), Some("E5"), Facing::N, vec![], far());
    let v = dustmail::dust_tactics::view::view(&st, Some("allies"));
    let pic = dustmail::dust_tactics::present::picture(&v, Some("allies"), &[]).expect("picture");
    assert_eq!(pic.units.iter().filter(|m| m.label == "tk").count(), 1);
    let tk = pic.units.iter().find(|m| m.label == "tk").expect("tk");
    assert_eq!((tk.square, tk.rear), (sq("E5"), Some(sq("E6"))));
    let svg = dustmail::dust_tactics::picture::svg(&pic);
    assert_eq!(svg.matches("<title>tk ").count(), 1, "drawn once");
    let one = game(one_square("tank", 1), Some("E5"), Facing::N, vec![], far());
    let v1 = dustmail::dust_tactics::view::view(&one, Some("allies"));
    let pic1 = dustmail::dust_tactics::present::picture(&v1, Some("allies"), &[]).expect("picture");
    let svg1 = dustmail::dust_tactics::picture::svg(&pic1);
    assert_ne!(
        svg, svg1,
        "the two-square counter is drawn elsewhere than the one-square one"
    );
}

// 003 "Piloting Vehicles": "If the Hero dismounts the Vehicle, the Vehicle cannot take any
// actions until they mount it again unless it is a Large or Huge Vehicle." R774: the pilot begins
// in the Large vehicle on E5 and dismounts to D5; the vehicle then moves and attacks. The control:
// the same vehicle on one square is left unable to act (R607).
#[test]
fn s003_piloting_vehicles_a_large_vehicle_left_by_its_pilot_still_acts() {
    let play = |tank: Card| {
        let mut hero = unit("pilot", "hero", None);
        hero.joins = Some("tk".into());
        let s = scenario(
            vec![unit("tk", &tank.id, Some("E5")), hero],
            vec![
                unit("foe", "sq", Some("E2")),
                unit("spare", "sq", Some("I1")),
            ],
        );
        let weapons = vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)];
        let pilot = with_skill(card("hero", UnitType::Hero, 3, 2, weapons), "pilot", None);
        let mut st = DustTactics
            .start("battlefront-2013", s, vec![tank, pilot, squad("sq")])
            .expect("setup");
        never_react(&mut st);
        begin(&mut st, "allies");
        st.unit_mut("tk").expect("tk").facing = Some(Facing::N);
        let out = send(
            &mut st,
            "allies",
            "activate pilot\n  move D5\n  nothing",
            &mut plenty(),
        );
        accepted(&out);
        let dismounted = texts(&out);
        let axis = "activate foe\n  nothing\n  nothing";
        accepted(&send(&mut st, "axis", axis, &mut plenty()));
        let orders = "activate tk\n  move E4\n  attack guns at foe";
        let out = send(&mut st, "allies", orders, &mut plenty());
        (st, dismounted, first_result(&out))
    };
    let (st, text, out) = play(large("tank", 1));
    assert!(
        text.contains("a Large vehicle, which acts without a pilot"),
        "{text}"
    );
    assert!(out.is_ok(), "{out:?}");
    assert_eq!(u(&st, "tk").at, Some(sq("E4")));
    let (st, text, out) = play(one_square("tank", 1));
    assert!(text.contains("cannot take any actions"), "{text}");
    assert!(out.is_err(), "a one-square vehicle waits for its pilot");
    assert_eq!(u(&st, "tk").at, Some(sq("E5")));
}

// ---------------------------------------------------------------------------------------------
// 003's Large Aircraft
// ---------------------------------------------------------------------------------------------

/// A Large Aircraft card: aircraft armour 1, `size = "large"`, Movement 3, "rockets" reaching 4.
pub(super) fn large_air(id: &str) -> Card {
    let mut c = card(
        id,
        UnitType::Vehicle,
        4,
        3,
        vec![weapon("rockets", WeaponRange::Upto(4), 1, 1)],
    );
    c.armour = Armour::Aircraft(1);
    c.size = Some(VehicleSize::Large);
    c
}

// 003 "Moving Large Vehicles and Aircraft": "Large Vehicles and Large Aircraft occupy two
// squares."; "Aircraft Move Over Terrain": "Aircraft fly over the battlefield, so can move across
// any terrain."; "Moving Through Other Units" (R801). R773: a Large Aircraft's two squares step as
// a Large vehicle's (R769) but over any terrain and any ground unit: facing N on E6 (rear E7) it
// flies over the ruin on E5 to end with its front above the enemy squad on E4 and its rear above
// the ruin; neither square may end on a friendly unit (E3 holds one).
#[test]
fn s003_moving_large_vehicles_and_aircraft_a_large_aircraft_flies_over_terrain_and_units() {
    let ruin = |b: &mut Board| b.set_terrain(sq("E5"), Terrain::Impassable);
    let friend = || vec![unit("a1", "sq", Some("E3"))];
    let foe = || vec![unit("foe", "sq", Some("E4"))];
    let mut st = game_on(
        large_air("air"),
        Some("E6"),
        Facing::N,
        friend(),
        foe(),
        ruin,
    );
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move E4\n  nothing",
        &mut plenty(),
    );
    accepted(&out);
    assert_eq!(u(&st, "tk").at, Some(sq("E4")), "{}", texts(&out));
    assert_eq!(rear(&st).as_deref(), Some("E5"));
    let mut st = game_on(
        large_air("air"),
        Some("E6"),
        Facing::N,
        friend(),
        foe(),
        ruin,
    );
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move E3\n  nothing",
        &mut plenty(),
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("E3") && reason.contains("a1"), "{reason}");
    assert_eq!(u(&st, "tk").at, Some(sq("E6")));
    // The control: a Large vehicle may not enter the ruin.
    let mut st = game_on(
        large("tank", 3),
        Some("E6"),
        Facing::N,
        friend(),
        foe(),
        ruin,
    );
    let out = send(
        &mut st,
        "allies",
        "activate tk\n  move E4\n  nothing",
        &mut plenty(),
    );
    assert!(first_result(&out).is_err(), "{}", texts(&out));
}

// ---------------------------------------------------------------------------------------------
// The provisional IS-48 of games/dust-tactics/cards-large2/, played through the pipeline
// ---------------------------------------------------------------------------------------------

// Every sentence above on one scenario: the IS-48 (cards-large2/bf-is48.toml, provisional)
// enters from the south edge and fights in "IS-48 Breakthrough", played to its end by two
// players' signed mails; the reports show it entering and firing; the game replays.
#[test]
fn s003_large_vehicles_is48_breakthrough_is_played_to_its_end_by_mail() {
    use dustmail::dust_tactics::bot::Style;
    let (_dir, sent) = play_is48(|_| Style::Aggressive);
    let is48: Vec<&str> = (sent.lines())
        .filter(|l| l.starts_with("  ") && l.contains("is48 "))
        .collect();
    assert!(
        sent.contains("is48 fires"),
        "the IS-48 never fired: {is48:?}"
    );
}

/// "IS-48 Breakthrough" played to its end by bots of `style` through signed mails; checks that
/// it ends, that the IS-48 enters and that the game replays; returns its home's directory and
/// every mail sent.
pub(super) fn play_is48(
    style: impl Fn(usize) -> dustmail::dust_tactics::bot::Style,
) -> (tempfile::TempDir, String) {
    use crate::support::dt;
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/dust-tactics/cards-large2");
    let dir = tempfile::tempdir().unwrap();
    let home = dt::init_home(dir.path(), "file");
    let mut ps = dt::players(17);
    ps[0].side = "ssu".into();
    let cards = root.display().to_string();
    let scen = root
        .join("scenarios/is48-breakthrough.toml")
        .display()
        .to_string();
    let seed = hex::encode([17u8; 32]);
    let o = dt::new_with_players(
        &home.root,
        &[
            "--ruleset",
            "battlefront-2013",
            "--seed",
            &seed,
            "--id",
            "g-is48",
            "--now",
            dt::T0,
            "--cards",
            &cards,
            "--scenario",
            &scen,
        ],
        &ps,
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = dt::InProc::open(&home);
    let mut bots = dt::Bots::new("g-is48", &ps, style);
    bots.play_to_end(&home, &env);
    let g = env.load("g-is48");
    let sent = dt::sent_text(&home);
    let tail = dt::tail(&sent, 6000);
    assert!(g.derived.finished.is_some(), "the game did not end: {tail}");
    assert!(
        sent.contains("is48 enters the battlefield"),
        "the IS-48 never entered: {tail}"
    );
    // Replay reproduces every byte; the audit passes.
    dt::replay_and_audit(&home, "g-is48");
    (dir, sent)
}
