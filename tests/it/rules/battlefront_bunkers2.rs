//! Issue 18: 002 "Bunkers and Strongpoints": bunkers under battlefront-2013 (R780–R784). Each
//! test names 002's section and quotes its sentence. A bunker is listed by its two inside squares
//! and the side its firing slit faces; its rear doors are on the other side. Dust dice from the
//! scripted d6: 1–2 army, 3–4 target, 5–6 shield (R230).

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::bunkers::Bunker;
use dustmail::dust_tactics::battlefront::facing::Facing;
use dustmail::dust_tactics::battlefront::fortifications::Fortifications;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::ScriptedDice;

fn gun() -> WeaponLine {
    weapon("gun", WeaponRange::Upto(6), 1, 1)
}

fn claw() -> WeaponLine {
    weapon("claw", WeaponRange::Close, 1, 1)
}

/// One soldier, Movement 2, a gun and a claw.
fn soldier() -> Card {
    card("soldier", UnitType::Squad, 1, 2, vec![gun(), claw()])
}

/// The bunker of these tests: D5+E5, its slit facing north (row 1), its doors on row 6.
fn bunker() -> Bunker {
    Bunker {
        squares: [sq("D5"), sq("E5")],
        facing: Facing::N,
    }
}

/// Allies `shooter` (`ours`) on `from`; axis `target` (a soldier) on `target`; the bunker when
/// `fort`.
fn setup(ours: Card, from: &str, target: &str, fort: bool) -> Result<State, String> {
    let mut s = scenario(
        vec![unit("shooter", &ours.id, Some(from))],
        vec![unit("target", "soldier", Some(target))],
    );
    if fort {
        s.fortifications = Some(Fortifications {
            bunkers: vec![bunker()],
            ..Default::default()
        });
    }
    let mut cards = vec![ours];
    if cards[0].id != "soldier" {
        cards.push(soldier());
    }
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .map_err(|e| e.0)?;
    for side in ["allies", "axis"] {
        dustmail::dust_tactics::flow::standing_react(&mut st, side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    Ok(st)
}

fn game(from: &str, target: &str) -> State {
    setup(soldier(), from, target, true).expect("setup")
}

pub(super) fn fort(st: &State) -> Fortifications {
    st.scenario.fortifications.clone().expect("fortifications")
}

const SHOOT: &str = "activate shooter\n  attack gun at target\n  nothing";
const CLAW: &str = "activate shooter\n  attack claw at target\n  nothing";

// 002 "Fielding Fortifications": "some scenarios give players Fortifications for free"; "Line of
// Sight To Bunkers and Strongpoints": "the direction the Bunker is facing". A scenario lists a
// bunker by its two inside squares and the side its slit faces, across the pair (R780); the
// placement limits of "Deploying Fortifications" hold as for strongpoints, bunkers and
// strongpoints two squares apart.
#[test]
fn s002_bunkers_in_the_scenario_file() {
    let text = scenario::builtin()
        .into_iter()
        .find(|(n, _)| *n == "supply-drop")
        .expect("shipped")
        .1;
    let with = |b: &str| {
        text.replace(
            "[reserves]",
            &format!(
                "[fortifications]\nstrongpoints = [[\"G3\", \"H3\"]]\nbunkers = [{b}]\n\n[reserves]"
            ),
        )
    };
    let s = scenario::parse(
        "sd",
        &with("{ squares = [\"D9\", \"C9\"], facing = \"n\" }"),
    )
    .expect("a bunker");
    let f = s.fortifications.expect("fortifications");
    assert_eq!(
        f.bunkers,
        [Bunker {
            squares: [sq("C9"), sq("D9")],
            facing: Facing::N
        }]
    );
    let err = |b: &str| scenario::parse("sd", &with(b)).unwrap_err().to_string();
    let e = err("{ squares = [\"C9\", \"D9\"], facing = \"E\" }");
    assert!(
        e.contains("fortifications.bunkers[0].facing") && e.contains("write \"N\" or \"S\""),
        "{e}"
    );
    let e = err("{ squares = [\"I4\", \"J4\"], facing = \"S\" }");
    assert!(
        e.contains("fortifications.bunkers[0]") && e.contains("other Bunkers and Strongpoints"),
        "{e}"
    );
    let e = err("{ squares = [\"C9\"], facing = \"N\" }");
    assert!(e.contains("two inside squares"), "{e}");
}

// 002 "Movement Through Bunkers and Strongpoints": "Bunker walls are Impassable terrain. Nothing
// can move through them, except through the armoured doors at the rear". A soldier at the
// doors (D6) steps in; one at the slit (D4) cannot step through the wall, and its Movement 2
// does not take it round to the doors. "Only Infantry Units may ... enter ... a Bunker": a
// vehicle at the doors is refused.
#[test]
fn s002_movement_through_bunkers_only_through_the_rear_doors() {
    let step = "activate shooter\n  move D5\n  nothing";
    let mut st = game("D6", "A1");
    let out = play(&mut st, "allies", step, &[]);
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    assert_eq!(u(&st, "shooter").at, Some(sq("D5")));
    let mut st = game("D4", "A1");
    let out = play(&mut st, "allies", step, &[]);
    assert!(first_result(&out).is_err(), "{}", texts(&out));
    assert_eq!(u(&st, "shooter").at, Some(sq("D4")));
    // The way in is round to the doors: four movement points from the slit.
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("D5 is 4 movement points away"), "{e}");
    let mut st = setup(soldier(), "D4", "A1", false).expect("setup");
    let out = play(&mut st, "allies", step, &[]);
    assert!(
        first_result(&out).is_ok(),
        "without the bunker: {}",
        texts(&out)
    );
    let walker = card("walker", UnitType::Vehicle, 3, 2, vec![gun()]);
    let mut st = setup(walker, "D6", "A1", true).expect("setup");
    let out = play(&mut st, "allies", step, &[]);
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("inside a bunker") && e.contains("Only Infantry Units"),
        "{e}"
    );
}

// 002 "Movement Through Bunkers and Strongpoints": "... except through the armoured doors at the
// rear, and even then, not if the Bunker is occupied by an enemy Unit." An axis soldier holds
// E5: the allied soldier at the doors may not enter D5.
#[test]
fn s002_movement_through_bunkers_not_if_an_enemy_unit_occupies_it() {
    let mut st = game("D6", "E5");
    let out = play(
        &mut st,
        "allies",
        "activate shooter\n  move D5\n  nothing",
        &[],
    );
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("which an enemy unit occupies") && e.contains("even then, not if the Bunker"),
        "{e}"
    );
    assert_eq!(u(&st, "shooter").at, Some(sq("D6")));
}

// 002 "Line of Sight To Bunkers and Strongpoints": "Bunkers and Strongpoints are Terrain and block
// Line of Sight." From E7 to E2 the line crosses the empty bunker on D5+E5: refused, naming it.
#[test]
fn s002_line_of_sight_to_bunkers_they_block_sight_across_them() {
    let mut st = game("E7", "E2");
    let out = play(&mut st, "allies", SHOOT, &[]);
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("no line of sight") && e.contains("the bunker on E5"),
        "{e}"
    );
    let mut st = setup(soldier(), "E7", "E2", false).expect("setup");
    let out = play(&mut st, "allies", SHOOT, &[5]);
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
}

// 002 "Line of Sight To Bunkers and Strongpoints": "Units in Bunkers can only see and be seen
// from 90 degrees either side of the direction the Bunker is facing." From D5, facing north: D2
// ahead is seen; G6 behind and A5 level with the bunker are not (R781). From G8 behind it, the
// unit inside is not seen either.
#[test]
fn s002_line_of_sight_to_bunkers_units_inside_see_and_are_seen_only_ahead() {
    let mut st = game("D5", "D2");
    let out = play(&mut st, "allies", SHOOT, &[5]);
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    for target in ["G6", "A5"] {
        let mut st = game("D5", target);
        let out = play(&mut st, "allies", SHOOT, &[]);
        let e = first_result(&out).unwrap_err();
        assert!(
            e.contains("no line of sight") && e.contains("walls of the bunker on D5+E5 facing N"),
            "{target}: {e}"
        );
    }
    let mut st = game("G8", "E5");
    let out = play(&mut st, "allies", SHOOT, &[]);
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("walls of the bunker"), "{e}");
}

// 002 "Cover From Bunkers and Strongpoints": "Units in Bunkers that fail an Infantry or Cover Save
// re-roll the Save, cancelling the Hit on a roll of [army] or [shield]." One hit (army) on the
// soldier in E5 from E2: in the bunker it is in Cover (R685) and its Cover Save fails (target);
// the bunker's re-roll shows a shield and cancels the hit (a strongpoint's would not). A target
// re-roll fails, and the soldier dies.
#[test]
fn s002_cover_from_bunkers_a_failed_save_is_rerolled_and_cancels_on_army_or_shield() {
    let mut st = game("E2", "E5");
    let out = play(&mut st, "allies", SHOOT, &[1, 3, 5]);
    let t = texts(&out);
    assert_eq!(
        purposes(&out),
        [
            "attack gun",
            "infantry cover save vs gun",
            "bunker re-roll vs gun"
        ],
        "{t}"
    );
    assert!(t.contains("1 cancelled by the bunker re-roll"), "{t}");
    assert!(!u(&st, "target").destroyed, "{t}");
    let mut st = game("E2", "E5");
    let out = play(&mut st, "allies", SHOOT, &[1, 3, 3]);
    let t = texts(&out);
    assert!(t.contains("0 cancelled by the bunker re-roll"), "{t}");
    assert!(u(&st, "target").destroyed, "{t}");
}

// 002 "Close-combat Against Bunkers and Strongpoints": "miniatures adjacent to ... the firing slit
// or the rear doors of a Bunker can attack and be attacked by any miniature in the ... Bunker.
// Units in a Bunker or Strongpoint get a Save against Close-Combat weapons attacking from
// outside the fortification. Units in Bunkers cancel Hits from Close-Combat weapons on a roll of
// [army] or [shield]." A claw from the slit (E4): the hit is cancelled on a shield; from the
// doors (E6) a target fails the save and the soldier dies; beside the bunker (F5), neither slit
// nor doors, the walls hide the unit inside; a gun at the doors is refused (R783).
#[test]
fn s002_close_combat_against_bunkers_from_the_slit_or_the_rear_doors() {
    let mut st = game("E4", "E5");
    // The soldier inside strikes back (003's close-combat retaliation) and misses.
    let out = play(&mut st, "allies", CLAW, &[1, 5, 5]);
    let t = texts(&out);
    assert_eq!(
        purposes(&out)[..2],
        ["attack claw", "bunker save vs claw"],
        "{t}"
    );
    assert!(!u(&st, "target").destroyed, "{t}");
    let mut st = game("E6", "E5");
    let out = play(&mut st, "allies", CLAW, &[1, 3, 5]);
    assert!(u(&st, "target").destroyed, "{}", texts(&out));
    let mut st = game("F5", "E5");
    let out = play(&mut st, "allies", CLAW, &[]);
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("no line of sight") && e.contains("walls of the bunker on D5+E5"),
        "{e}"
    );
    let mut st = game("E6", "E5");
    let out = play(&mut st, "allies", SHOOT, &[]);
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("only with close-combat weapons"), "{e}");
}

// 002 "Weapons in Bunkers": "The main weapon of a Strongpoint Unit (such as the M47 Field Phaser)
// has a Field of Fire of up to 45 degrees either side of the direction the Bunker is facing."
// A Strongpoint unit in D5 facing north: its main weapon (the card's first line, R782) fires at
// D2 but not at H4, which it sees ahead of the slit; its second weapon fires at H4.
#[test]
fn s002_weapons_in_bunkers_the_main_weapon_fires_within_45_degrees_of_the_facing() {
    let pistol = weapon("pistol", WeaponRange::Upto(6), 1, 1);
    let phaser = with_skill(
        card("phaser", UnitType::Squad, 1, 1, vec![gun(), pistol]),
        "strongpoint",
        None,
    );
    let mut st = setup(phaser.clone(), "D5", "D2", true).expect("setup");
    let out = play(&mut st, "allies", SHOOT, &[5]);
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    let mut st = setup(phaser.clone(), "D5", "H4", true).expect("setup");
    let out = play(&mut st, "allies", SHOOT, &[]);
    let e = first_result(&out).unwrap_err();
    assert!(
        e.contains("outside the field of fire") && e.contains("45 degrees"),
        "{e}"
    );
    let mut st = setup(phaser, "D5", "H4", true).expect("setup");
    let out = play(
        &mut st,
        "allies",
        "activate shooter\n  attack pistol at target\n  nothing",
        &[5],
    );
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
}

/// The SVG board picture of the game as a spectator's report draws it.
fn svg(st: &State) -> String {
    let view = dustmail::dust_tactics::view::view(st, None);
    let pic = dustmail::dust_tactics::present::picture(&view, None, &[]).expect("a picture");
    dustmail::dust_tactics::picture::svg(&pic)
}

// 002 "Fortifications": "Fortifications are Terrain features placed by the players at the start
// of the game." The picture draws the bunker with its slit and the legend names it; the text
// board marks its free squares `[` and its legend gives its squares and facing (R784).
#[test]
fn s002_bunkers_are_drawn_on_the_board_picture_and_the_text_board() {
    let st = game("A9", "A1");
    let pic = svg(&st);
    assert!(
        pic.contains(r#"class="bunker" data-square="D5""#) && pic.contains("bunker D5+E5 facing N"),
        "{pic}"
    );
    assert!(
        pic.contains(">bunker (slit on its facing side)</text>"),
        "legend"
    );
    let text = dustmail::dust_tactics::view::board_text(&st);
    assert!(text.contains("[ bunker D5+E5 facing N"), "{text}");
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("5 "))
        .expect("row 5");
    assert!(row.contains(" [  [ "), "{row}");
}

// 002 "Fortifications": "some scenarios give players Fortifications for free." The provisional
// scenario games/dust-tactics/scenarios-fortifications/bunker.toml (003's Encounter with a bunker
// in the Axis half, and an Allied engineer walker with a dozer blade from
// games/dust-tactics/cards-battlefront-engineering/) is played to its end by two players' signed
// mails through the real pipeline; the welcome mails list the bunker, the reports mark it, the
// walker is in the game; replay and audit pass.
#[test]
fn s002_bunkers_the_bunker_scenario_is_played_to_its_end_by_signed_mail() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("games/dust-tactics/scenarios-fortifications/bunker.toml");
    let cards = root.join("games/dust-tactics/cards-battlefront-engineering");
    let (flat, st) = crate::rules::battlefront_scenarios::play_by_mail_with(
        path.to_str().expect("utf-8"),
        &["--cards", cards.to_str().expect("utf-8")],
        ["allies", "axis"],
        73,
    );
    assert!(
        flat.contains("Bunkers (002 \"Bunkers and Strongpoints\"): D2+E2 facing S."),
        "the briefing does not list the bunker"
    );
    assert!(
        flat.contains("[ bunker D2+E2 facing S"),
        "the reports mark it"
    );
    assert!(st.scenario.fortifications.is_some(), "fortifications");
    assert!(st
        .unit("dozer")
        .is_some_and(|u| u.card == "bf-engineer-walker"));
}

/// A vehicle (3 points, Movement 2, a gun) carrying the equipment `skill` (`dozer-blade`,
/// `engineer-vehicle`), or none.
pub(super) fn vehicle(skill: Option<&str>) -> Card {
    let c = card("dozer", UnitType::Vehicle, 3, 2, vec![gun()]);
    match skill {
        Some(s) => with_skill(c, s, None),
        None => c,
    }
}

/// The allied `vehicle` on `from`, the axis soldier on `target`, the bunker on D5+E5, and the
/// trench, minefield and wire squares given.
pub(super) fn works(
    ours: Card,
    from: &str,
    target: &str,
    (trenches, mines, wire): (&[&str], &[&str], &[&str]),
) -> State {
    let mut st = setup(ours, from, target, true).expect("setup");
    let f = st.scenario.fortifications.as_mut().expect("fortifications");
    f.trenches = trenches.iter().map(|t| sq(t)).collect();
    f.minefields = mines.iter().map(|t| sq(t)).collect();
    f.barbed_wire = wire.iter().map(|t| sq(t)).collect();
    st
}

// 002 "Dozer Blade": "A Vehicle equipped with a Dozer Blade can perform a Dozer Special Action to
// gain Cover until it performs a Move or March Move Action." After `skill dozer` the vehicle on
// H8 is in Cover: the axis soldier's hit on it rolls a vehicle cover save (003: army cancels).
// Without the action no save is rolled and the hit does its damage. A move
// ends the Cover (R786). The axis dice are padded for the next turn's initiative,
// which must not tie.
#[test]
fn s002_engineering_vehicles_the_dozer_special_action_gives_cover_until_it_moves() {
    let shoot_back = "activate target\n  attack gun at shooter\n  nothing";
    let mut st = works(vehicle(Some("dozer-blade")), "H8", "H3", (&[], &[], &[]));
    let out = play(
        &mut st,
        "allies",
        "activate shooter\n  skill dozer\n  nothing",
        &[],
    );
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    assert!(u(&st, "shooter").dozed);
    let mut d = ScriptedDice::new([vec![1, 1], [1, 5, 5, 5, 5, 5].repeat(3)].concat());
    let out = send(&mut st, "axis", shoot_back, &mut d);
    let t = texts(&out);
    assert_eq!(
        purposes(&out)[..2],
        ["attack gun", "vehicle cover save vs gun"],
        "{t} {:?}",
        first_result(&out)
    );
    assert_eq!(u(&st, "shooter").health, 3, "{t}");
    let mut st = works(vehicle(Some("dozer-blade")), "H8", "H3", (&[], &[], &[]));
    let out = play(
        &mut st,
        "allies",
        "activate shooter\n  nothing\n  nothing",
        &[],
    );
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    let mut d = ScriptedDice::new([vec![1], [1, 5, 5, 5, 5, 5].repeat(3)].concat());
    let out = send(&mut st, "axis", shoot_back, &mut d);
    let t = texts(&out);
    assert!(!purposes(&out).iter().any(|r| r.contains("save")), "{t}");
    assert_eq!(u(&st, "shooter").health, 2, "{t}");
    let mut st = works(vehicle(Some("dozer-blade")), "H8", "H3", (&[], &[], &[]));
    let out = play(
        &mut st,
        "allies",
        "activate shooter\n  skill dozer\n  move G8",
        &[],
    );
    let t = texts(&out);
    assert!(
        t.contains("loses the Cover of its Dozer Special Action"),
        "{t}"
    );
    assert!(!u(&st, "shooter").dozed, "{t}");
    // Only a vehicle with a dozer blade digs in.
    let mut st = works(vehicle(None), "H8", "H3", (&[], &[], &[]));
    let out = play(
        &mut st,
        "allies",
        "activate shooter\n  skill dozer\n  nothing",
        &[],
    );
    let e = first_result(&out).unwrap_err();
    assert!(e.contains("not a vehicle with a dozer blade"), "{e}");
}

// 002 "Dozer Blades": "An Engineer Vehicle equipped with a Dozer Blade can attempt to bury an
// adjacent Bunker by taking two Engineering Special Actions one after the other in the same
// Activation. If it does so, roll a die. On a score of [army], the Vehicle buries the Bunker and
// any Units occupying the Bunker are eliminated." From E6, at the doors of D5+E5, two lines at
// E5: army buries it and the soldier inside is eliminated; a target leaves both. One line alone
// rolls nothing (R787).
#[test]
fn s002_engineering_vehicles_dozer_blades_bury_an_adjacent_bunker_with_two_actions() {
    let bury = "activate shooter\n  skill engineering at E5\n  skill engineering at E5";
    let mut st = works(vehicle(Some("dozer-blade")), "E6", "E5", (&[], &[], &[]));
    let out = play(&mut st, "allies", bury, &[1]);
    let t = texts(&out);
    assert!(t.contains("buries the bunker on D5+E5"), "{t}");
    assert!(fort(&st).bunkers.is_empty(), "{t}");
    assert!(u(&st, "target").destroyed, "{t}");
    let mut st = works(vehicle(Some("dozer-blade")), "E6", "E5", (&[], &[], &[]));
    let out = play(&mut st, "allies", bury, &[3]);
    assert!(texts(&out).contains("fails to bury"), "{}", texts(&out));
    assert_eq!(fort(&st).bunkers.len(), 1);
    assert!(!u(&st, "target").destroyed);
    let mut st = works(vehicle(Some("dozer-blade")), "E6", "E5", (&[], &[], &[]));
    let out = play(
        &mut st,
        "allies",
        "activate shooter\n  skill engineering at D5\n  nothing",
        &[],
    );
    assert!(texts(&out).contains("starts to bury"), "{}", texts(&out));
    assert_eq!(fort(&st).bunkers.len(), 1);
}

// 002 "Dozer Blades": "An Engineer Vehicle equipped with a Dozer Blade can attempt to fill in an
// adjacent Trench by taking an Engineering Special Action. If it does so, roll a die. On a score
// of [army], the Vehicle fills the Trench and it is removed. Any Units occupying the Trench
// escape unharmed, but are now without Cover. ... can attempt to clear a gap through an adjacent
// Minefield ... On a score of [army], the Vehicle clears a gap and the Minefield is removed."
#[test]
fn s002_engineering_vehicles_dozer_blades_fill_a_trench_and_clear_a_minefield() {
    let order = "activate shooter\n  skill engineering at D8\n  skill engineering at F9";
    let mut st = works(
        vehicle(Some("dozer-blade")),
        "E8",
        "D8",
        (&["D8"], &["F9"], &[]),
    );
    let out = play(&mut st, "allies", order, &[1, 2]);
    let t = texts(&out);
    assert!(t.contains("fills the trench on D8"), "{t}");
    assert!(
        fort(&st).trenches.is_empty() && fort(&st).minefields.is_empty(),
        "{t}"
    );
    assert!(!u(&st, "target").destroyed, "the soldier escapes unharmed");
    let mut st = works(
        vehicle(Some("dozer-blade")),
        "E8",
        "D8",
        (&["D8"], &["F9"], &[]),
    );
    let out = play(&mut st, "allies", order, &[3, 5]);
    let t = texts(&out);
    assert_eq!(fort(&st).trenches, [sq("D8")], "{t}");
    assert_eq!(fort(&st).minefields, [sq("F9")], "{t}");
}

// 002 "Engineering Vehicles": "Some vehicle are specifically equipped to remove or destroy
// fortifications"; "Chainsaws and Claws": "An Engineer Vehicle equipped with Cuttings or
// Grappling weapons can attempt to cut a gap through an adjacent Barbed Wire Entanglement".
// A vehicle without the equipment has no engineering; an engineer vehicle without a dozer blade
// has no dozer blade's tasks; wire needs a Cutting or Grapple weapon, which this one lacks
// (R809); a square not next to the vehicle is refused. A dozer blade is no way through anti-tank traps.
#[test]
fn s002_engineering_vehicles_what_each_equipment_may_do() {
    let at = |s: &str| format!("activate shooter\n  skill engineering at {s}\n  nothing");
    let forts: (&[&str], &[&str], &[&str]) = (&["B8"], &["F9"], &["D9"]);
    let refused = |card: Card, order: &str| {
        let mut st = works(card, "E8", "A1", forts);
        let out = play(&mut st, "allies", order, &[]);
        first_result(&out).unwrap_err()
    };
    let e = refused(vehicle(None), &at("F9"));
    assert!(
        e.contains("without a dozer blade or engineer vehicle"),
        "{e}"
    );
    let e = refused(vehicle(Some("engineer-vehicle")), &at("F9"));
    assert!(e.contains("has no dozer blade"), "{e}");
    let e = refused(vehicle(Some("engineer-vehicle")), &at("D9"));
    assert!(e.contains("it has no Cutting or Grapple weapon"), "{e}");
    let e = refused(vehicle(Some("dozer-blade")), &at("B8"));
    assert!(e.contains("B8 is not next to shooter"), "{e}");
    // 004's dozer blade crosses anti-tank traps; 002's does not (R785).
    let mut st = works(vehicle(Some("dozer-blade")), "E8", "A1", forts);
    st.scenario
        .board
        .place_cover(sq("F8"), CoverKind::TankTrap)
        .expect("trap");
    let out = play(
        &mut st,
        "allies",
        "activate shooter\n  move F8\n  nothing",
        &[],
    );
    assert!(first_result(&out).is_err(), "{}", texts(&out));
    assert_eq!(u(&st, "shooter").at, Some(sq("E8")));
}

// 002 "Dozer Blade", "Dozer Blades": the orders template offers a dozer-blade vehicle `skill
// dozer` and `skill engineering at <square>` for the trench, minefield and bunker next to it,
// and the lines it offers are accepted.
#[test]
fn s002_engineering_vehicles_the_orders_template_offers_the_dozer_and_its_tasks() {
    let st = works(
        vehicle(Some("dozer-blade")),
        "E6",
        "A1",
        (&["F7"], &["C7"], &[]),
    );
    let t = dustmail::dust_tactics::view::orders_template(&st, "allies");
    assert!(t.contains("skill dozer"), "{t}");
    assert!(t.contains("skill engineering at F7"), "{t}");
    assert!(t.contains("skill engineering at D5"), "{t}");
    assert!(!t.contains("skill engineering at C7"), "{t}");
    let mut st = st;
    let out = play(
        &mut st,
        "allies",
        "activate shooter\n  skill engineering at F7\n  skill dozer",
        &[1],
    );
    assert!(first_result(&out).is_ok(), "{}", texts(&out));
    assert!(fort(&st).trenches.is_empty());
}

// 002 "Deploying Fortifications": "Objectives cannot be placed in, on, or under a Bunker or
// Strongpoint." A scenario's objective on E5, inside the bunker, is refused at `new`; on E7 the
// game starts (R789).
#[test]
fn s002_bunkers_no_objective_inside_a_bunker() {
    use dustmail::dust_tactics::scenario::Objective;
    let start = |at: &str| {
        let mut s = scenario(
            vec![unit("shooter", "soldier", Some("A9"))],
            vec![unit("target", "soldier", Some("A1"))],
        );
        s.fortifications = Some(Fortifications {
            bunkers: vec![bunker()],
            ..Default::default()
        });
        let s = objectives(
            s,
            vec![Objective::Points {
                at: sq(at),
                points: 1,
            }],
        );
        DustTactics
            .start("battlefront-2013", s, vec![soldier()])
            .map(|_| ())
            .map_err(|e| e.0)
    };
    let e = start("E5").unwrap_err();
    assert!(
        e.contains("objective on E5 is inside a bunker")
            && e.contains("Objectives cannot be placed in, on, or under a Bunker"),
        "{e}"
    );
    assert!(start("E7").is_ok());
}
