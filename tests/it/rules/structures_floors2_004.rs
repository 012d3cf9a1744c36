//! Issue 12 (ffg-revised, seed 004): moving between the floors of a structure and onto its roof
//! (004 "STRUCTURES", "Moving", "Firing", "Cover"; R512, R514–R517). Each test reads the
//! structures board and gives its building its floors (and a unit its height) in the state;
//! orders go through the real parser and state machine; the `tower` scenario file is played by
//! mail.

use super::structures_004::{board_toml, unit_toml};
use crate::support_flow::*;
use dustmail::dust_tactics::floors::Height;
use dustmail::dust_tactics::model::{UnitType, WeaponRange};
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;

/// The structures board (building `house` D4–F5, door E5|E6 large, windows D4|C4, F4|G4) with
/// the house given `floors` floors; `allies` and `axis` are (id, card, square); cards `sq` (a
/// squad, movement 2, gun range 4), `tank` (a vehicle, movement 2), `brawler` (a squad with range
/// C fists), `joe` (a hero with Tank Head). Allies activate, reactive fire off.
fn game(floors: u8, allies: &[(&str, &str, &str)], axis: &[(&str, &str, &str)]) -> State {
    let units = |v: &[(&str, &str, &str)]| -> String {
        v.iter().map(|(i, c, a)| unit_toml(i, c, a)).collect()
    };
    let text = board_toml(&units(allies), &units(axis), "");
    let sc = scenario::parse("structures", &text).unwrap_or_else(|e| panic!("{e}"));
    let gun = || weapon("gun", WeaponRange::Upto(4), 1, 1);
    let cards = vec![
        card("sq", UnitType::Squad, 4, 2, vec![gun()]),
        card("tank", UnitType::Vehicle, 3, 2, vec![gun()]),
        with_skill(
            card("joe", UnitType::Hero, 3, 2, vec![gun()]),
            "tank-head",
            Some(1),
        ),
        card(
            "brawler",
            UnitType::Squad,
            4,
            2,
            vec![weapon("fists", WeaponRange::Close, 1, 1)],
        ),
    ];
    let mut st = DustTactics.start("ffg-revised", sc, cards).expect("setup");
    st.scenario.board.structures[0].floors = floors;
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// Where the unit stands, as the board text writes it (`E5@2`).
fn place(st: &State, id: &str) -> String {
    let x = u(st, id);
    dustmail::dust_tactics::floors::place(x.at.expect("on the board"), x.height)
}

fn accepted(st: &mut State, text: &str) -> String {
    let out = send(st, "allies", text, &mut Cycle(0));
    first_result(&out).unwrap_or_else(|e| panic!("refused: {e}"))
}

fn refused(st: &mut State, text: &str) -> String {
    let before = serde_json::to_string(&*st).expect("state serialises");
    let out = send(st, "allies", text, &mut Cycle(0));
    let why = first_result(&out).expect_err("the order is refused");
    let after = serde_json::to_string(&*st).expect("state serialises");
    assert_eq!(before, after, "a refused order changes nothing");
    why
}

// 004 STRUCTURES, Moving: "A unit can use a MOVE action to move up or down 1 floor for each MP
// spent." (R514: a path names the height, `E5@2`; each floor up or down costs 1 MP.)
#[test]
fn structures_floors2_004_moving_up_and_down_1_floor_for_each_mp() {
    let mut st = game(3, &[("b", "sq", "E5")], &[]);
    // Movement 2: up one floor and along it, then up again in the second MOVE.
    accepted(&mut st, "activate b\nmove E5@2 F5@2\nmove F5@3");
    assert_eq!(place(&st, "b"), "F5@3");
    assert_eq!(u(&st, "b").height, Some(Height::Floor(3)));
    // Two floors and a space are 3 MP: too far for movement 2.
    let mut st = game(3, &[("b", "sq", "E5")], &[]);
    let why = refused(&mut st, "activate b\nmove E5@2 E5@3 F5@3");
    assert!(why.contains("3 movement points away"), "{why}");
    assert!(why.contains("1 MP a floor up or down"), "{why}");
    // Down again: a path of plain squares from floor 2 comes down and walks out of the door.
    let mut st = game(2, &[("b", "sq", "E5")], &[]);
    st.unit_mut("b").expect("b").height = Some(Height::Floor(2));
    accepted(&mut st, "activate b\nmove E5 E6\nnothing");
    assert_eq!(place(&st, "b"), "E6");
    assert_eq!(u(&st, "b").height, None);
}

// 004 STRUCTURES, Moving: "Units may move diagonally both vertically and horizontally. Each
// space, in any direction, costs 1 MP." (R514: a space and a floor at once is one step.)
#[test]
fn structures_floors2_004_moving_diagonally_both_vertically_and_horizontally() {
    let mut st = game(2, &[("b", "sq", "E5")], &[]);
    // One step up and diagonally across (1 MP), one more diagonal on floor 2 (1 MP).
    accepted(&mut st, "activate b\nmove F4@2 E5@2\nnothing");
    assert_eq!(place(&st, "b"), "E5@2");
    // Two floors in one step is not a step.
    let mut st = game(3, &[("b", "sq", "E5")], &[]);
    let why = refused(&mut st, "activate b\nmove E5@3");
    assert!(why.contains("up or down 1 floor"), "{why}");
    // A floor the building does not have.
    let why = refused(&mut st, "activate b\nmove E5@2 E5@3 E5@4");
    assert!(why.contains("has 3 floors: there is no floor 4"), "{why}");
}

// 004 STRUCTURES, Moving: "Units can only enter a structure from the ground floor" (R514: the
// floors above are walked only on the structure's own squares).
#[test]
fn structures_floors2_004_moving_enter_only_from_the_ground_floor() {
    let mut st = game(2, &[("b", "sq", "E6")], &[]);
    let why = refused(&mut st, "activate b\nmove E5@2");
    assert!(
        why.contains("enters and leaves a structure only on the ground floor"),
        "{why}"
    );
    // In through the door on the ground floor, then up: 2 MP.
    accepted(&mut st, "activate b\nmove E5 E5@2\nnothing");
    assert_eq!(place(&st, "b"), "E5@2");
}

// 004 STRUCTURES, Moving: "Units inside can also move onto the structure's roof by moving up from
// the structure's top floor." (R514: straight up from the top floor, down the same way.)
#[test]
fn structures_floors2_004_moving_onto_the_roof_from_the_top_floor() {
    let mut st = game(2, &[("b", "sq", "E5")], &[]);
    accepted(&mut st, "activate b\nmove E5@2 E5@roof\nnothing");
    assert_eq!(place(&st, "b"), "E5@roof");
    assert_eq!(u(&st, "b").height, Some(Height::Roof));
    // Not from the ground floor of a building of 2 floors, and not sideways onto it.
    let mut st = game(2, &[("b", "sq", "E5")], &[]);
    let why = refused(&mut st, "activate b\nmove E5@roof");
    assert!(why.contains("up or down 1 floor"), "{why}");
    let why = refused(&mut st, "activate b\nmove E5@2 F5@roof");
    assert!(why.contains("straight up from the top floor"), "{why}");
    // A one-floor building's top floor is its ground floor (R517).
    let mut st = game(1, &[("b", "sq", "E5")], &[]);
    accepted(&mut st, "activate b\nmove E5@roof\nnothing");
    assert_eq!(place(&st, "b"), "E5@roof");
}

// 004 STRUCTURES, Moving: "Vehicles can enter structures through large entrances" and
// "Soldiers and heroes can enter structures through any entrance." (R512, R514: only soldiers and
// heroes go above the ground floor.)
#[test]
fn structures_floors2_004_moving_vehicles_stay_on_the_ground_floor() {
    let mut st = game(2, &[("t", "tank", "E5")], &[]);
    let why = refused(&mut st, "activate t\nmove E5@2");
    assert!(
        why.contains("only soldiers and heroes go above the ground floor"),
        "{why}"
    );
}

// 004 STRUCTURES, Cover: "Units on separate floors and directly above or below each other are
// not considered to be adjacent." (R512, R514: one unit per space and height, so a unit may stand
// above another; an enemy on a floor's space blocks it there.)
#[test]
fn structures_floors2_004_moving_units_stand_directly_above_each_other() {
    let mut st = game(2, &[("b", "sq", "D5")], &[("x", "sq", "E5")]);
    accepted(&mut st, "activate b\nmove D5@2 E5@2\nnothing");
    assert_eq!(place(&st, "b"), "E5@2");
    assert_eq!(place(&st, "x"), "E5");
    // An enemy on floor 2 of a space stops a move through it there.
    let mut st = game(2, &[("b", "sq", "D5")], &[("x", "sq", "E5")]);
    st.unit_mut("x").expect("x").height = Some(Height::Floor(2));
    let why = refused(&mut st, "activate b\nmove D5@2 E5@2");
    assert!(why.contains("occupied by enemy unit x"), "{why}");
    // On the ground floor of that space the way is free.
    accepted(&mut st, "activate b\nmove E5 E6\nnothing");
    assert_eq!(place(&st, "b"), "E6");
}

/// The game of [`game`] with `id` standing at `height` on its square.
fn raise(st: &mut State, id: &str, height: Height) {
    st.unit_mut(id).expect("unit").height = Some(height);
}

// 004 STRUCTURES, Firing: "When a unit outside a structure attacks an enemy unit inside a
// structure and above the ground floor, add 1 space to the distance when calculating the range."
// and "Note that the unit on the lower level must add 1 to its range." (R515: one case, 1 space.)
#[test]
fn structures_floors2_004_firing_outside_at_inside_above_the_ground_floor_adds_1_space() {
    // Range 4: E8 is 3 spaces from E5, 4 with the space added (not 5: it is added once).
    let mut st = game(2, &[("b", "sq", "E8")], &[("x", "sq", "E5")]);
    raise(&mut st, "x", Height::Floor(2));
    accepted(&mut st, "activate b\nattack gun at x\nnothing");
    let mut st = game(2, &[("b", "sq", "E9")], &[("x", "sq", "E5")]);
    raise(&mut st, "x", Height::Floor(2));
    let why = refused(&mut st, "activate b\nattack gun at x");
    assert!(why.contains("is 5 squares from E5"), "{why}");
}

// 004 STRUCTURES, Firing: "When a unit inside a structure attacks an enemy unit outside a
// structure, calculate range from the ground floor beneath the attacking unit's space." (R515:
// the distance on the board; the upper unit adds nothing.)
#[test]
fn structures_floors2_004_firing_inside_at_outside_from_the_ground_floor_beneath() {
    let mut st = game(2, &[("b", "sq", "E5")], &[("x", "sq", "E9")]);
    raise(&mut st, "b", Height::Floor(2));
    accepted(&mut st, "activate b\nattack gun at x\nnothing");
}

// 004 STRUCTURES, Firing: "Weapons with range C cannot attack any target that is above or below
// the attacking unit, regardless of range." and "Units that are directly above or below each
// other are not considered adjacent and cannot engage in close combat."
#[test]
fn structures_floors2_004_firing_range_c_cannot_attack_above_or_below() {
    for target in ["D5", "E5"] {
        // A scenario places one unit a space: x is lifted over b in the state.
        let mut st = game(2, &[("b", "brawler", "E5")], &[("x", "sq", "D5")]);
        let sq = st.scenario.board.parse_square(target);
        st.unit_mut("x").expect("x").at = sq;
        raise(&mut st, "x", Height::Floor(2));
        let why = refused(&mut st, "activate b\nattack fists at x");
        assert!(
            why.contains("range C cannot attack a target on another floor"),
            "{why}"
        );
    }
    // On the same floor, close combat is as ever.
    let mut st = game(2, &[("b", "brawler", "E5")], &[("x", "sq", "D5")]);
    raise(&mut st, "b", Height::Floor(2));
    raise(&mut st, "x", Height::Floor(2));
    accepted(&mut st, "activate b\nattack fists at x\nnothing");
}

// 004 STRUCTURES, Firing: "A unit cannot attack an enemy unit that is more than 1 floor away.
// When units are only 1 floor apart, floors and ceilings do not block LOS" (R515: through the
// ceiling no entrance is needed.)
#[test]
fn structures_floors2_004_firing_no_attack_more_than_1_floor_away() {
    let mut st = game(3, &[("b", "sq", "E5")], &[("x", "sq", "D4")]);
    raise(&mut st, "x", Height::Floor(3));
    let why = refused(&mut st, "activate b\nattack gun at x");
    assert!(why.contains("2 floors away"), "{why}");
    let mut st = game(3, &[("b", "sq", "E5")], &[("x", "sq", "D4")]);
    raise(&mut st, "x", Height::Floor(2));
    accepted(&mut st, "activate b\nattack gun at x\nnothing");
}

// 004 STRUCTURES, Firing: "If LOS would not be clear, If the unit on the lower level is directly
// behind the object that would block 2D LOS, then LOS is blocked in 3D, no matter how high up the
// other unit is. However, if the unit on the lower level is not directly behind the obstacle that
// would block 2D LOS, then LOS is clear" (R515; the house's north wall D3|D4 is the object.)
#[test]
fn structures_floors2_004_firing_los_blocked_only_when_the_lower_unit_is_directly_behind() {
    // x on the roof of the one-floor house, on D4 (a roof is outside: no entrance needed).
    let mut st = game(1, &[("b", "sq", "D1")], &[("x", "sq", "D4")]);
    raise(&mut st, "x", Height::Roof);
    accepted(&mut st, "activate b\nattack gun at x\nnothing");
    let mut st = game(1, &[("b", "sq", "D3")], &[("x", "sq", "D4")]);
    raise(&mut st, "x", Height::Roof);
    let why = refused(&mut st, "activate b\nattack gun at x");
    assert!(why.contains("no line of sight"), "{why}");
    assert!(why.contains("directly behind"), "{why}");
    // At the same height the wall blocks as ever.
    let mut st = game(1, &[("b", "sq", "D1")], &[("x", "sq", "D4")]);
    let why = refused(&mut st, "activate b\nattack gun at x");
    assert!(why.contains("no line of sight"), "{why}");
}

/// The house board of [`game`] with `floors` floors, for cover read directly.
fn board(floors: u8) -> dustmail::dust_tactics::model::Board {
    let st = game(floors, &[], &[]);
    st.scenario.board.clone()
}

fn cover(
    b: &dustmail::dust_tactics::model::Board,
    (s, sh): (&str, Option<Height>),
    (t, th): (&str, Option<Height>),
) -> dustmail::dust_tactics::geometry::CoverReport {
    let sighter = |at: &str| dustmail::dust_tactics::geometry::Sighter {
        square: b.parse_square(at).expect("square"),
        unit_type: UnitType::Squad,
    };
    dustmail::dust_tactics::floors::cover_explained(
        b,
        &dustmail::dust_tactics::geometry::Occupancy::new(),
        (sighter(s), sh),
        (sighter(t), th),
        false,
    )
}

// 004 STRUCTURES, Cover: "A squad on the roof of a structure is outside of that structure. It is
// automatically in soft cover when targeted by an enemy unit that is not also on the roof of that
// structure." (R516.)
#[test]
fn structures_floors2_004_cover_a_squad_on_the_roof_is_in_soft_cover() {
    use dustmail::dust_tactics::model::Cover;
    let b = board(1);
    let roof = Some(Height::Roof);
    let r = cover(&b, ("D1", None), ("D4", roof));
    assert_eq!(r.cover, Cover::Soft, "{r:?}");
    let why: Vec<String> = r.sources.iter().map(|s| s.to_string()).collect();
    assert!(
        why.iter()
            .any(|w| w.contains("on the roof of the building house")),
        "{why:?}"
    );
    // Inside on the ground floor the same shot meets the structure's hard cover (R504).
    assert_eq!(cover(&b, ("D1", None), ("D4", None)).cover, Cover::Hard);
    // Not against a shooter also on that roof.
    assert_eq!(cover(&b, ("E5", roof), ("D4", roof)).cover, Cover::None);
}

// 004 STRUCTURES, Firing: "When units are only 1 floor apart, floors and ceilings do not block
// LOS, and both units are considered to be in soft cover." and Cover: "Inside a structure, cover
// combines in the normal way." (R516: a soft source; a cover element is on the ground floor.)
#[test]
fn structures_floors2_004_cover_1_floor_apart_both_units_in_soft_cover() {
    use dustmail::dust_tactics::model::Cover;
    let b = board(2);
    let up = Some(Height::Floor(2));
    // From floor 2 inside at a unit outside: soft.
    let r = cover(&b, ("E5", up), ("E8", None));
    assert_eq!(r.cover, Cover::Soft, "{r:?}");
    // Inside the same structure, 1 floor apart: soft (inside) and soft (apart) make hard.
    assert_eq!(cover(&b, ("E5", None), ("D5", up)).cover, Cover::Hard);
    // F4's ammo crate is on the ground floor: on floor 2 of F4, against a unit on floor 2, none
    // but the structure's soft.
    assert_eq!(cover(&b, ("D4", up), ("F4", up)).cover, Cover::Soft);
    assert_eq!(cover(&b, ("D4", None), ("F4", None)).cover, Cover::Hard);
}

// 004 STRUCTURES, Moving: "A unit can use a MOVE action to move up or down 1 floor for each MP
// spent." (R517: games/dust-tactics/scenarios/tower.toml, a building of two floors, is played to
// its end by signed mail through the real pipeline: the Axis squad inside climbs to floor 2 by
// mail, the board text lists the floors, the orders template offers only accepted moves between
// floors, and replay and audit pass.)
#[test]
fn structures_floors2_004_tower_is_played_to_its_end_by_mail() {
    use crate::support::dt;
    use dustmail::dust_tactics::bot::Style;
    use dustmail::game::Game;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let scen = root.join("games/dust-tactics/scenarios/tower.toml");
    let dir = tempfile::tempdir().unwrap();
    let (home, ps, env) = dt::new_in_home(
        dir.path(),
        &["--scenario", scen.to_str().unwrap()],
        ("g-tower", 31, 7),
    );
    let mut bots = dt::Bots::new("g-tower", &ps, |i| Style::Random(40 + i as u64));
    env.run(dt::NOW);
    let mut climbed = false;
    for _ in 0..400 {
        let g = env.load("g-tower");
        if g.derived.finished.is_some() {
            break;
        }
        let st: &State = g.derived.state.typed::<State>();
        let awaited = DustTactics.awaiting(st);
        let axis_turn = awaited
            .first()
            .is_some_and(|a| a.side == "axis" && a.decision == "activate");
        let (name, mail) = if !climbed && axis_turn {
            climbed = true;
            let p = ps.iter().find(|p| p.side == "axis").expect("axis player");
            let seq = g.derived.last_seq.get("axis").copied().unwrap_or(0) + 1;
            let text = "activate battle\nmove E4@2\nmove F4@2";
            let orders = dt::orders("g-tower", "axis", seq, text);
            let m = dt::mail(&p.address, "climb@players.example", &p.key, &orders);
            ("g-tower-climb.eml".to_string(), m)
        } else {
            bots.next_mail(&g).expect("a decision is awaited")
        };
        std::fs::write(home.maildir().join("new").join(name), mail).unwrap();
        let sum = env.run(dt::NOW);
        assert!(sum.broken.is_empty(), "{sum:?}");
    }
    assert!(climbed, "the Axis activated");
    let g = env.load("g-tower");
    assert!(g.derived.finished.is_some(), "the game ended");
    let mut mails = String::new();
    for e in std::fs::read_dir(home.root.join("sent")).unwrap() {
        mails.push_str(&std::fs::read_to_string(e.unwrap().path()).unwrap());
    }
    let mails = crate::support::flat(&mails);
    // The first MOVE is played before any reaction window can interrupt the activation.
    assert!(
        mails.contains("battle moves to E4@2"),
        "the report tells the climb"
    );
    assert!(
        mails.contains("Structure: building tower D4-F5 (2 floors and a roof)"),
        "reports show the floors"
    );
    dt::replay_and_audit(&home, "g-tower");
}

// 004 STRUCTURES, Moving: "Units inside can also move onto the structure's roof by moving up from
// the structure's top floor." (R517: the orders template offers the moves between floors the
// engine accepts, and only those.)
#[test]
fn structures_floors2_004_the_template_offers_only_accepted_moves_between_floors() {
    // Every suggestion is sent on a copy of the game and must be accepted.
    let mut st = game(2, &[("b", "sq", "E5")], &[]);
    let all = crate::legal_template::every_suggestion_accepted(&st, "allies", "floors");
    let offers = |all: &[String], order: &str| all.iter().any(|o| o.contains(order));
    assert!(offers(&all, "move E5@2\n"), "{all:?}");
    assert!(offers(&all, "move D4@2\n"), "{all:?}");
    assert!(!offers(&all, "@roof"), "the roof is 2 floors up: {all:?}");
    raise(&mut st, "b", Height::Floor(2));
    let all = crate::legal_template::every_suggestion_accepted(&st, "allies", "floors");
    assert!(offers(&all, "move E5@roof\n"), "{all:?}");
    assert!(!offers(&all, "move D4@roof"), "only straight up: {all:?}");
}

// 004 STRUCTURES, Cover: "Units on separate floors and directly above or below each other are
// not considered to be adjacent." (R517: nor for a skill that needs an adjacent unit, here 004
// "Tank Head": "heal all damage on an adjacent friendly vehicle".)
#[test]
fn structures_floors2_004_units_at_different_heights_are_not_adjacent_for_skills() {
    let heal = |height: Option<Height>| {
        let mut st = game(2, &[("joe", "joe", "E5"), ("t", "tank", "E6")], &[]);
        st.unit_mut("t").expect("t").health = 1;
        st.unit_mut("joe").expect("joe").height = height;
        let out = send(
            &mut st,
            "allies",
            "activate joe\nskill tank-head at t\nnothing",
            &mut Cycle(0),
        );
        (first_result(&out), u(&st, "t").health)
    };
    let (ok, health) = heal(None);
    ok.expect("on the ground floor, E5 and E6 are adjacent");
    assert_eq!(health, 3, "all damage healed");
    let (why, health) = heal(Some(Height::Floor(2)));
    let why = why.expect_err("refused");
    assert!(
        why.contains("not a friendly vehicle adjacent to joe"),
        "{why}"
    );
    assert_eq!(health, 1);
}

// 004 STRUCTURES, Cover: "Units on separate floors and directly above or below each other are
// not considered to be adjacent." (R517: two units on one square at different heights both show
// in the picture, the upper one drawn up and to the right.)
#[test]
fn structures_floors2_004_the_picture_shows_units_directly_above_each_other() {
    let mut st = game(2, &[("b", "sq", "E5")], &[("x", "sq", "D5")]);
    let e5 = st.scenario.board.parse_square("E5");
    st.unit_mut("x").expect("x").at = e5;
    raise(&mut st, "x", Height::Floor(2));
    let v = dustmail::dust_tactics::view::view(&st, Some("allies"));
    let pic = dustmail::dust_tactics::present::picture(&v, Some("allies"), &[]).expect("picture");
    let svg = dustmail::dust_tactics::picture::svg(&pic);
    // The (x, y) of the text drawing `label` on its counter.
    let at = |label: &str| {
        let end = svg
            .find(&format!(">{label}</text>"))
            .unwrap_or_else(|| panic!("no counter labelled {label}"));
        let start = svg[..end].rfind("<text x=\"").expect("a text element") + 9;
        let attrs = &svg[start..end];
        let num = |s: &str| s.split('"').next().expect("a number").to_string();
        let x = num(attrs);
        let y = num(&attrs[attrs.find("y=\"").expect("y") + 3..]);
        (x, y)
    };
    let (below, above) = (at("b"), at("x@2"));
    assert_ne!(below.0, above.0, "{below:?} {above:?}");
    assert_ne!(below.1, above.1, "{below:?} {above:?}");
}
