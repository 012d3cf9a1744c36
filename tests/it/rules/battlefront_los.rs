//! Issue 18: 003's line of sight and cover test under `battlefront-2013`, and refusals of the
//! shared engine citing 003. Each test is named after 003's section and quotes its sentence;
//! rulings R238–R240 (docs/rulings.md) settle what 003 leaves to the grid. Most come in pairs:
//! the same position played under battlefront-2013 and under ffg-revised (004's rule).

use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;

/// The 003 starter card `id` (games/dust-tactics/cards-battlefront/).
pub(super) fn bf_card(id: &str) -> Card {
    let file = format!("{id}.toml");
    let (_, text) = dustmail::dust_tactics::battlefront::cards::builtin()
        .into_iter()
        .find(|(f, _)| *f == file)
        .expect("battlefront card");
    dustmail::dust_tactics::cards::parse_card(&file, text).expect("card parses")
}

/// A game on the 9×9 open test board under `ruleset` with units `(id, card, square)` per side;
/// `first` activates first, and nobody reacts (these cases are about sight, not reactions).
pub(super) fn game(
    ruleset: &str,
    allies: &[(&str, &str, &str)],
    axis: &[(&str, &str, &str)],
) -> State {
    let specs = |v: &[(&str, &str, &str)]| {
        v.iter()
            .map(|(id, card, at)| unit(id, card, Some(at)))
            .collect::<Vec<_>>()
    };
    let cards = allies
        .iter()
        .chain(axis)
        .map(|(_, card, _)| bf_card(card))
        .collect();
    let mut st = DustTactics
        .start(ruleset, scenario(specs(allies), specs(axis)), cards)
        .expect("setup");
    begin(&mut st, "axis");
    never_react(&mut st);
    st
}

pub(super) fn terrain(st: &mut State, at: &str, t: Terrain) {
    st.scenario.board.set_terrain(sq(at), t);
}

/// The Recon Grenadiers (axis) on `from` fire their StG 47s at the Grim Reapers (allies) on `to`.
pub(super) fn grenadiers_at_reapers(ruleset: &str, from: &str, to: &str) -> State {
    game(
        ruleset,
        &[("reapers", "bf-grim-reapers", to)],
        &[("grenadiers", "bf-recon-grenadiers", from)],
    )
}

pub(super) fn fire_stg(st: &mut State) -> dustmail::game::Outcome {
    cmd(
        st,
        "axis",
        activate("grenadiers", vec![attack("stg47", "reapers"), nothing()]),
        &mut plenty(),
    )
}

// issue 18 item 1, 003 "Line of Sight Through Units": "A square containing an Infantry unit does
// not block Line of Sight, but a square containing a Vehicle unit (whether friendly or enemy)
// does block Line of Sight." The Bot Hunters on C3 stand between the Grenadiers on C1 and the
// Reapers on C5: under 003 the Grenadiers fire; under 004 soldiers block soldiers.
#[test]
fn s003_line_of_sight_through_units_infantry_do_not_block() {
    let squads = |ruleset| {
        game(
            ruleset,
            &[
                ("reapers", "bf-grim-reapers", "C5"),
                ("hunters", "bf-bot-hunters", "C3"),
            ],
            &[("grenadiers", "bf-recon-grenadiers", "C1")],
        )
    };
    let mut st = squads("battlefront-2013");
    let out = fire_stg(&mut st);
    accepted(&out);
    assert!(texts(&out).contains("grenadiers fires"), "{}", texts(&out));

    let mut st = squads("ffg-revised");
    let before = serde_json::to_string(&st).unwrap();
    let (reason, _) = refused(&fire_stg(&mut st));
    assert!(
        reason.contains("blocks line of sight between soldiers"),
        "{reason}"
    );
    assert_eq!(serde_json::to_string(&st).unwrap(), before);
}

// issue 18 item 1, 003 "Line of Sight Through Units": "a square containing a Vehicle unit
// (whether friendly or enemy) does block Line of Sight". The allies' own Pounder on C3 hides the
// Reapers on C5 from the Grenadiers on C1: refused, naming the vehicle, citing 003.
#[test]
fn s003_line_of_sight_through_units_a_friendly_vehicle_blocks() {
    let mut st = game(
        "battlefront-2013",
        &[
            ("reapers", "bf-grim-reapers", "C5"),
            ("pounder", "bf-pounder", "C3"),
        ],
        &[("grenadiers", "bf-recon-grenadiers", "C1")],
    );
    let before = serde_json::to_string(&st).unwrap();
    let (reason, rule) = refused(&fire_stg(&mut st));
    assert!(reason.contains("vehicle pounder on C3"), "{reason}");
    assert!(reason.contains("passes through or touches"), "{reason}");
    assert!(rule.contains("003 \"Check Line of Sight\""), "{rule}");
    assert_eq!(serde_json::to_string(&st).unwrap(), before);
}

// issue 18 item 1, 003 "Check Line of Sight": "a player must trace an imaginary line from any
// point in the attacking unit's square to any point in the target unit's square", and the
// example: "The Pounder can also target the Recon Grenadiers (although there are fewer possible
// lines between them)". Trees on C1 cut the centre-to-centre line from A1 to E2, but a line from
// near A1's lower right corner passes above them: 003 sees, 004 (dot to dot) does not.
#[test]
fn s003_check_line_of_sight_any_point_to_any_point() {
    let mut st = grenadiers_at_reapers("battlefront-2013", "A1", "E2");
    terrain(&mut st, "C1", Terrain::Trees);
    let out = fire_stg(&mut st);
    accepted(&out);
    assert!(texts(&out).contains("grenadiers fires"), "{}", texts(&out));

    let mut st = grenadiers_at_reapers("ffg-revised", "A1", "E2");
    terrain(&mut st, "C1", Terrain::Trees);
    let (reason, _) = refused(&fire_stg(&mut st));
    assert!(reason.contains("no line of sight past C1"), "{reason}");
}

// issue 18 item 1, 003 "Check Line of Sight": "If every imaginary line traced from the attacker's
// square to the target's square passes through or touches blocking squares, then the Line of
// Sight is blocked." Trees on B1 and A2 touch at the only point shared by A1 and B2: every line
// touches them, so the Grenadiers on A1 cannot see the Reapers on B2, though adjacent.
#[test]
fn s003_check_line_of_sight_touching_a_corner_blocks() {
    let mut st = grenadiers_at_reapers("battlefront-2013", "A1", "B2");
    terrain(&mut st, "B1", Terrain::Trees);
    terrain(&mut st, "A2", Terrain::Trees);
    let before = serde_json::to_string(&st).unwrap();
    let (reason, rule) = refused(&fire_stg(&mut st));
    assert!(reason.contains("the trees on"), "{reason}");
    assert!(reason.contains("passes through or touches"), "{reason}");
    assert!(rule.contains("003 \"Check Line of Sight\""), "{rule}");
    assert_eq!(serde_json::to_string(&st).unwrap(), before);
    // With one of the two trees gone, a line passes beside the other.
    let mut st = grenadiers_at_reapers("battlefront-2013", "A1", "B2");
    terrain(&mut st, "B1", Terrain::Trees);
    accepted(&fire_stg(&mut st));
}

// issue 18 item 1, 003 "Line of Sight Through Smoke": "Squares containing smoke block Line of
// Sight to units on the far side, but units in the smoke can be seen as normal." The Reapers on
// smoke three squares away are a target under 003; under 004 a unit on smoke is attacked only
// from an adjacent square.
#[test]
fn s003_line_of_sight_through_smoke_units_in_it_are_seen() {
    let mut st = grenadiers_at_reapers("battlefront-2013", "C1", "C4");
    terrain(&mut st, "C4", Terrain::Smoke);
    let out = fire_stg(&mut st);
    accepted(&out);
    assert!(texts(&out).contains("grenadiers fires"), "{}", texts(&out));

    let mut st = grenadiers_at_reapers("ffg-revised", "C1", "C4");
    terrain(&mut st, "C4", Terrain::Smoke);
    let (reason, _) = refused(&fire_stg(&mut st));
    assert!(reason.contains("smoke"), "{reason}");
}

// issue 18 item 1, 003 "Line of Sight Through Smoke": smoke squares "block Line of Sight to units
// on the far side". Smoke on C2 hides the Reapers on C4 from the Grenadiers on C1.
#[test]
fn s003_line_of_sight_through_smoke_blocks_the_far_side() {
    let mut st = grenadiers_at_reapers("battlefront-2013", "C1", "C4");
    terrain(&mut st, "C2", Terrain::Smoke);
    let (reason, _) = refused(&fire_stg(&mut st));
    assert!(reason.contains("the smoke on C2"), "{reason}");
}

// issue 18 item 1, 003 "Line of Sight Through Terrain": "Other terrain does not block Line of
// Sight." An anti-tank trap on C2 between two squads blocks nothing under 003; under 004 it
// blocks line of sight between soldiers.
#[test]
fn s003_line_of_sight_through_terrain_tank_traps_do_not_block() {
    let trap = |ruleset| {
        let mut st = grenadiers_at_reapers(ruleset, "C1", "C4");
        st.scenario.board.cover.insert(
            sq("C2"),
            CoverElement {
                kind: CoverKind::TankTrap,
                damage: 0,
            },
        );
        st
    };
    let mut st = trap("battlefront-2013");
    accepted(&fire_stg(&mut st));

    let mut st = trap("ffg-revised");
    let (reason, _) = refused(&fire_stg(&mut st));
    assert!(reason.contains("anti-tank trap on C2"), "{reason}");
}

// issue 18 item 1, 003 "Cover Saves": "A unit is in Cover if the attacking unit cannot draw a
// line from any point in its square to all points in the target unit's square without passing
// through or touching blocking squares." and "If the target unit was a Vehicle unit in Cover, the
// target player rolls a die for each hit their Vehicle unit took." The Pounder on A1 sees the
// Ludwig on E2 past the trees on C1, but not all of its square: the Ludwig rolls a vehicle cover
// save. Under 004 the dot-to-dot line is blocked and the attack refused.
#[test]
fn s003_cover_saves_a_vehicle_partly_hidden_is_in_cover() {
    let tanks = |ruleset, trees: bool| {
        let mut st = game(
            ruleset,
            &[("pounder", "bf-pounder", "A1")],
            &[("ludwig", "bf-ludwig", "E2")],
        );
        if trees {
            terrain(&mut st, "C1", Terrain::Trees);
        }
        // The axis activate first: the Ludwig does nothing, then the Pounder fires.
        let out = cmd(
            &mut st,
            "axis",
            activate("ludwig", vec![nothing(), nothing()]),
            &mut plenty(),
        );
        accepted(&out);
        st
    };
    let shoot = |st: &mut State| {
        cmd(
            st,
            "allies",
            activate("pounder", vec![attack("17-pdr", "ludwig"), nothing()]),
            &mut plenty(),
        )
    };
    let mut st = tanks("battlefront-2013", true);
    let out = shoot(&mut st);
    accepted(&out);
    assert!(
        texts(&out).contains("vehicle cover save"),
        "{}",
        texts(&out)
    );
    // In the open, the same shot leaves the Ludwig no save.
    let mut st = tanks("battlefront-2013", false);
    let out = shoot(&mut st);
    accepted(&out);
    assert!(texts(&out).contains("pounder fires"), "{}", texts(&out));
    assert!(!texts(&out).contains("cover save"), "{}", texts(&out));

    let mut st = tanks("ffg-revised", true);
    let (reason, _) = refused(&shoot(&mut st));
    assert!(reason.contains("no line of sight past C1"), "{reason}");
}

// issue 18 item 1, 003 "Cover Saves": "An Infantry unit is also in Cover if it occupies a square
// with ammo crates, anti-tank traps, trees, rubble, buildings, or smoke." The Reapers on rubble
// in plain sight roll an infantry cover save (army or shield), not the Infantry Save.
#[test]
fn s003_cover_saves_infantry_on_rubble_are_in_cover() {
    let mut st = grenadiers_at_reapers("battlefront-2013", "C1", "C4");
    terrain(&mut st, "C4", Terrain::Rubble);
    let out = fire_stg(&mut st);
    accepted(&out);
    assert!(
        texts(&out).contains("infantry cover save"),
        "{}",
        texts(&out)
    );
}

// issue 18 item 3, 003 "Check Range": "A weapon can only attack a target within its Range". A
// refusal of the shared engine cites 003's section under battlefront-2013, 004's under
// ffg-revised. The Reapers on C7 are 6 squares from the Grenadiers' StG 47s (range 4).
#[test]
fn s003_check_range_refusal_cites_003() {
    let mut st = grenadiers_at_reapers("battlefront-2013", "C1", "C7");
    let before = serde_json::to_string(&st).unwrap();
    let (reason, rule) = refused(&fire_stg(&mut st));
    assert!(reason.contains("not in range"), "{reason}");
    assert!(rule.starts_with("003 \"Check Range\""), "{rule}");
    assert_eq!(serde_json::to_string(&st).unwrap(), before);

    let mut st = grenadiers_at_reapers("ffg-revised", "C1", "C7");
    let (_, rule) = refused(&fire_stg(&mut st));
    assert!(rule.starts_with("004 'Range'"), "{rule}");
}

// issue 18 item 3, 003 "Activation": the players take turns activating one unit each. The allies
// activating on the axis' turn are refused citing 003.
#[test]
fn s003_activation_refusal_cites_003() {
    let mut st = grenadiers_at_reapers("battlefront-2013", "C1", "C7");
    let out = cmd(
        &mut st,
        "allies",
        activate("reapers", vec![nothing(), nothing()]),
        &mut plenty(),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("it is axis's turn"), "{reason}");
    assert!(rule.starts_with("003 \"Activation\""), "{rule}");
}

// issue 18 item 3, 003 "Move and March Move Actions": "A unit making a Move action can move up to
// its Move rating in squares" and a March Move "up to double its Move rating". Too far for a Move
// and too far for a March Move are both refused citing 003 (not 004's Movement, nor 000's "Move
// twice", which the engine's double move cites).
#[test]
fn s003_move_and_march_move_refusals_cite_003() {
    let mut st = grenadiers_at_reapers("battlefront-2013", "C1", "C7");
    let out = cmd(
        &mut st,
        "axis",
        activate("grenadiers", vec![mv("C4"), nothing()]),
        &mut plenty(),
    );
    let (_, rule) = refused(&out);
    assert!(
        rule.starts_with("003 \"Move and March Move Actions\""),
        "{rule}"
    );
    let out = cmd(
        &mut st,
        "axis",
        activate("grenadiers", vec![mv("C3"), mv("C5")]),
        &mut plenty(),
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("cannot move twice"), "{reason}");
    assert!(
        rule.starts_with("003 \"Move and March Move Actions\""),
        "{rule}"
    );
}

/// The Ludwig on E3 (facing south, R251) fires its front-mounted guns at the Pounder on G6:
/// the game, the axis' view after it and the picture of that step.
fn ludwig_fires(ruleset: &str) -> (State, dustmail::dust_tactics::picture::Picture) {
    let mut st = game(
        ruleset,
        &[("pounder", "bf-pounder", "G6")],
        &[("ludwig", "bf-ludwig", "E3")],
    );
    let out = cmd(
        &mut st,
        "axis",
        activate("ludwig", vec![attack("fpk", "pounder"), nothing()]),
        &mut plenty(),
    );
    accepted(&out);
    let v = dustmail::dust_tactics::view::view(&st, Some("axis"));
    let pic = dustmail::dust_tactics::present::picture(&v, Some("axis"), &out.happenings)
        .expect("a picture");
    (st, pic)
}

fn rgb_at(png: &[u8], x: u32, y: u32) -> (u8, u8, u8) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .expect("a PNG header");
    let mut rgb = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut rgb).expect("a PNG frame");
    let i = ((y * info.width + x) * 3) as usize;
    (rgb[i], rgb[i + 1], rgb[i + 2])
}

// issue 18 item 2, 003 "Check Field of Fire": "Most Vehicle weapons can only attack targets up to
// 45 degrees on either side of the direction the Vehicle is facing." The picture of the Ludwig's
// attack with its front-mounted FpK guns marks each counter's facing and draws the guns' 90°
// field of fire; the PNG shows both (pixels differ from the same picture without them). Under
// ffg-revised the same attack draws neither.
#[test]
fn s003_check_field_of_fire_on_the_picture() {
    use dustmail::dust_tactics::picture::{self, square_centre};
    let (_, pic) = ludwig_fires("battlefront-2013");
    let svg = picture::svg(&pic);
    assert_eq!(svg.matches("class=\"facing\"").count(), 2, "{svg}");
    assert!(svg.contains("<title>faces S</title>"), "{svg}");
    assert!(svg.contains("<title>faces N</title>"), "{svg}");
    assert_eq!(svg.matches("class=\"field-of-fire\"").count(), 1, "{svg}");
    assert!(
        svg.contains(
            "field of fire of ludwig: Twin 8.8 cm FpK Zwilling guns: 45 degrees either side of S"
        ),
        "{svg}"
    );
    let png = picture::png(&pic).expect("png");
    let mut bare = pic.clone();
    bare.facings.clear();
    bare.fields_of_fire.clear();
    let bare_png = picture::png(&bare).expect("png");
    // Inside the wedge, on the open square D5 beside the line of fire.
    let b = &pic.board;
    let (x, y) = square_centre(b.parse_square("D5").unwrap());
    assert_ne!(rgb_at(&png, x, y), rgb_at(&bare_png, x, y), "field of fire");
    // The Ludwig's facing mark: on its counter's rim, towards the south.
    let (x, y) = square_centre(b.parse_square("E3").unwrap());
    assert_ne!(
        rgb_at(&png, x, y + 25),
        rgb_at(&bare_png, x, y + 25),
        "facing mark"
    );

    let (_, pic) = ludwig_fires("ffg-revised");
    let svg = picture::svg(&pic);
    assert!(
        !svg.contains("facing") && !svg.contains("field-of-fire"),
        "{svg}"
    );
}

// issue 18 item 2, 003 "Facing": the text board marks each unit's facing with an arrow after its
// marker (the Ludwig faces south, the Pounder north), under battlefront-2013 only.
#[test]
fn s003_facing_on_the_text_board() {
    let (st, _) = ludwig_fires("battlefront-2013");
    let board = dustmail::dust_tactics::view::board_text(&st);
    let row = |n: &str| {
        board
            .lines()
            .find(|l| l.starts_with(&format!("{n:>3} ")))
            .unwrap_or_default()
            .to_string()
    };
    assert!(row("3").contains('↓'), "{board}");
    assert!(row("6").contains('↑'), "{board}");
    assert!(
        board.contains("Facing: the arrow after a marker"),
        "{board}"
    );
    assert!(board.lines().all(|l| l.chars().count() <= 72), "{board}");

    let (st, _) = ludwig_fires("ffg-revised");
    let board = dustmail::dust_tactics::view::board_text(&st);
    assert!(!board.contains('↓') && !board.contains('↑'), "{board}");
    assert!(!board.contains("Facing:"), "{board}");
}

/// The Ludwig (a walker) on E3 moves one square south onto E4 of terrain `t`.
pub(super) fn ludwig_onto(ruleset: &str, t: Terrain) -> (State, dustmail::game::Outcome) {
    let mut st = game(
        ruleset,
        &[("pounder", "bf-pounder", "A9")],
        &[("ludwig", "bf-ludwig", "E3")],
    );
    terrain(&mut st, "E4", t);
    let out = cmd(
        &mut st,
        "axis",
        activate("ludwig", vec![mv("E4"), nothing()]),
        &mut plenty(),
    );
    (st, out)
}

// issue 18 item 1, 003 "Tree Squares": "Units can move freely onto and through tree squares.
// Trees block Line of Sight to targets beyond them." The Ludwig walks into trees under 003; under
// 004 no vehicle may enter them.
#[test]
fn s003_tree_squares_vehicles_move_onto_them() {
    let (st, out) = ludwig_onto("battlefront-2013", Terrain::Trees);
    accepted(&out);
    assert_eq!(u(&st, "ludwig").at, Some(sq("E4")));

    let (st, out) = ludwig_onto("ffg-revised", Terrain::Trees);
    let (reason, _) = refused(&out);
    assert!(reason.contains("E4 is trees"), "{reason}");
    assert_eq!(u(&st, "ludwig").at, Some(sq("E3")));
}

// issue 18 item 1, 003 "Rubble Squares": "Wheeled and tracked Vehicle units cannot enter a rubble
// square. Other units (including Infantry and Walker Vehicle units) can move freely onto and
// through a rubble square." The Ludwig, a walker, climbs onto rubble under 003; under 004 no
// vehicle without Jump may.
#[test]
fn s003_rubble_squares_walkers_move_onto_them() {
    let (st, out) = ludwig_onto("battlefront-2013", Terrain::Rubble);
    accepted(&out);
    assert_eq!(u(&st, "ludwig").at, Some(sq("E4")));

    let (st, out) = ludwig_onto("ffg-revised", Terrain::Rubble);
    let (reason, _) = refused(&out);
    assert!(reason.contains("E4 is rubble"), "{reason}");
    assert_eq!(u(&st, "ludwig").at, Some(sq("E3")));
}
