//! Issue 16 items 2 (the drawing part), 5 (full names, a line of fire per weapon line) and 7: a
//! board picture players enjoy. Walls, objectives and entry zones on the text board, in the SVG
//! and in the PNG; counters that show the unit type and side in a colour-blind-safe palette,
//! with whole ids or abbreviations the legend spells out; every weapon line its own line of
//! fire; PNGs small enough for a mail.

use crate::support::dt;
use dustmail::dust_tactics::model::{Board, Square, Terrain, UnitType};
use dustmail::dust_tactics::picture::{
    self, side_colours, FireLine, Picture, UnitMarker, MARGIN_PX, SQUARE_PX,
};
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::{present, view, DustTactics};
use dustmail::game::{Game, NewRequest};

fn state(scenario: &str) -> State {
    let plan = DustTactics
        .plan_new(&NewRequest {
            scenario: Some(scenario.into()),
            ..NewRequest::default()
        })
        .unwrap();
    DustTactics.setup(&plan.setup).unwrap()
}

fn scenario_picture(scenario: &str, ours: &str) -> Picture {
    let v = view::view(&state(scenario), Some(ours));
    present::picture(&v, Some(ours), &[]).expect("a Dust Tactics view draws a picture")
}

fn sq(board: &Board, name: &str) -> Square {
    board.parse_square(name).expect("test square on the board")
}

fn rgb_at(image: &(u32, u32, Vec<u8>), x: u32, y: u32) -> (u8, u8, u8) {
    let i = ((y * image.0 + x) * 3) as usize;
    (image.2[i], image.2[i + 1], image.2[i + 2])
}

fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a PNG header");
    let mut rgb = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut rgb).expect("a PNG frame");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    (info.width, info.height, rgb)
}

fn hex(colour: &str) -> (u8, u8, u8) {
    let v = u32::from_str_radix(colour.trim_start_matches('#'), 16).unwrap();
    ((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

fn close_to(a: (u8, u8, u8), b: (u8, u8, u8), tolerance: u8) -> bool {
    a.0.abs_diff(b.0) <= tolerance
        && a.1.abs_diff(b.1) <= tolerance
        && a.2.abs_diff(b.2) <= tolerance
}

fn luma((r, g, b): (u8, u8, u8)) -> u32 {
    (r as u32 * 299 + g as u32 * 587 + b as u32 * 114) / 1000
}

fn texts(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect()
}

/// The `<g>` elements whose class list holds `class`.
fn groups<'a>(doc: &'a roxmltree::Document, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.has_tag_name("g"))
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').any(|w| w == class))
        })
        .collect()
}

// issue 16 item 2: walls, objectives and entry zones are drawn on the text board, with a legend.
#[test]
fn text_board_shows_walls_objectives_and_entry_zones() {
    let board = view::board_text(&state("full-box"));
    let lines: Vec<&str> = board.lines().collect();
    let row = |n: u32| -> &str {
        lines
            .iter()
            .find(|l| l.starts_with(&format!("{n:>3} ")))
            .unwrap_or_else(|| panic!("row {n} in\n{board}"))
    };
    // The bunker: walls on its west and east faces (C2|D2, F2|G2), the command post E2 an
    // objective, and the axis entry zone along row 1 (corners are impassable).
    assert_eq!(row(1), "  1  #  :  :  :  :  :  :  :  # ", "{board}");
    assert_eq!(row(2), "  2  .  #  . |.  @  . |.  #  . ", "{board}");
    assert_eq!(row(3), "  3  .  .  . |+  .  + |.  .  . ", "{board}");
    // The south face: walls under D3 and F3 (the door E3 stays open).
    let under3 = lines
        .iter()
        .position(|l| *l == row(3))
        .map(|i| lines[i + 1])
        .unwrap();
    assert_eq!(under3, "             ---   ---", "{board}");
    assert_eq!(row(9), "  9  #  =  =  =  =  =  =  =  # ", "{board}");
    for want in [
        "Scenario: @ objective  | --- wall  = allies entry zone",
        "          : axis entry zone",
        "Objectives: E2 (allies win by holding it)",
    ] {
        assert!(lines.contains(&want), "legend line `{want}` in\n{board}");
    }
    for l in &lines {
        assert!(l.chars().count() <= 72, "{} chars: {l}", l.chars().count());
    }
    // Points objectives name their worth.
    let crossroads = view::board_text(&state("crossroads"));
    assert!(
        crossroads.contains("Objectives: E5 ("),
        "crossroads objectives in\n{crossroads}"
    );
}

// issue 16 item 2: the same in the SVG, by element classes and squares.
#[test]
fn svg_draws_walls_objectives_and_entry_zones() {
    let pic = scenario_picture("full-box", "allies");
    let text = picture::svg(&pic);
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
    let mut edges: Vec<&str> = groups(&doc, "wall")
        .iter()
        .filter_map(|g| g.attribute("data-edge"))
        .collect();
    edges.sort();
    assert_eq!(
        edges,
        ["C2|D2", "C3|D3", "D3|D4", "F2|G2", "F3|F4", "F3|G3"],
        "the bunker's six walls"
    );
    let objectives: Vec<&str> = groups(&doc, "objective")
        .iter()
        .filter_map(|g| g.attribute("data-square"))
        .collect();
    assert_eq!(objectives, ["E2"]);
    let zone = |side: &str| -> Vec<String> {
        groups(&doc, "entry-zone")
            .iter()
            .filter(|g| g.attribute("data-side") == Some(side))
            .filter_map(|g| g.attribute("data-square").map(str::to_string))
            .collect()
    };
    let allies = zone("allies");
    let axis = zone("axis");
    assert!(allies.contains(&"E9".to_string()), "{allies:?}");
    assert!(allies.iter().all(|s| s.ends_with('9')), "{allies:?}");
    assert!(axis.contains(&"E1".to_string()), "{axis:?}");
    assert!(axis.iter().all(|s| s.ends_with('1')), "{axis:?}");
    let texts = texts(&doc);
    for entry in ["wall", "objective", "allies entry", "axis entry"] {
        assert!(texts.iter().any(|t| t == entry), "legend entry {entry}");
    }
}

// issue 16 item 2: the same in the PNG the mails carry, made by the real binary: the objective's
// yellow at E2's centre, the allies' blue tint on their entry zone, a wall's dark bar.
#[test]
fn png_from_the_binary_shows_walls_objectives_and_entry_zones() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let mut args: Vec<String> = ["new", "--scenario", "full-box", "--id", "g-fb"]
        .map(String::from)
        .to_vec();
    for p in dt::players(7) {
        args.push("--player".into());
        args.push(format!(
            "{}={}:{}",
            p.side,
            p.address,
            dustmail::crypto::public_key_text(&p.key.verifying_key())
        ));
    }
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = dt::dustmail(&home.root, &a);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let o = dt::dustmail(
        &home.root,
        &["show", "g-fb", "--format", "png", "--as", "allies"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let image = decode(&o.stdout);
    let board = Board::open(9, 9).unwrap();
    let centre = |name: &str| picture::square_centre(sq(&board, name));

    let (x, y) = centre("E2");
    let got = rgb_at(&image, x, y);
    assert!(
        close_to(got, (0xf0, 0xe4, 0x42), 8),
        "objective E2: {got:?}"
    );

    // Beside the centre's terrain dot: open ground tinted 30 % with the allies' blue.
    let open = hex(picture::terrain_colour(Terrain::Open));
    let blue = hex(side_colours(0).fill);
    let mix = |a: u8, b: u8| ((a as u32 * 7 + b as u32 * 3) / 10) as u8;
    let tinted = (
        mix(open.0, blue.0),
        mix(open.1, blue.1),
        mix(open.2, blue.2),
    );
    let (x, y) = centre("E9");
    let got = rgb_at(&image, x + 12, y + 12);
    assert!(close_to(got, tinted, 6), "allies entry E9: {got:?}");
    let (x, y) = centre("D7");
    assert!(
        close_to(rgb_at(&image, x + 12, y + 12), open, 3),
        "untinted D7"
    );

    // The wall C2|D2 lies on the edge between columns C and D: dark a few pixels into D2,
    // where only the (2.5 px) grid line was before.
    let edge_x = MARGIN_PX + 3 * SQUARE_PX;
    let (_, y) = centre("D2");
    let got = rgb_at(&image, edge_x + 3, y - 10);
    assert!(luma(got) < 70, "wall C2|D2: {got:?}");
    // No wall between D4 and E4: light there.
    let edge_x = MARGIN_PX + 4 * SQUARE_PX;
    let (_, y) = centre("E4");
    assert!(luma(rgb_at(&image, edge_x + 3, y - 10)) > 150);
}

fn unit(board: &Board, at: &str, side: &str, label: &str, t: UnitType) -> UnitMarker {
    UnitMarker {
        square: sq(board, at),
        side: side.into(),
        label: label.into(),
        unit_type: t,
        left: 3,
        max: 5,
        activated: false,
        joined_hero: false,
        large: false,
        rear: None,
    }
}

// issue 16 item 5 ("one fire line drawn for two weapons"): every weapon line of a step has a
// line of fire of its own, side by side when they join the same two squares.
#[test]
fn every_weapon_line_has_its_own_line_of_fire() {
    let board = Board::open(9, 9).unwrap();
    let mut pic = Picture::new(board.clone());
    pic.sides = vec!["allies".into(), "axis".into()];
    pic.units = vec![
        unit(&board, "B1", "allies", "pounder", UnitType::Vehicle),
        unit(&board, "B8", "axis", "ludwig", UnitType::Vehicle),
    ];
    // Two weapon lines of one attack at the same target, one hit and one miss, and the
    // target's reactive fire back.
    let line = |from: &str, to: &str, hit: bool| FireLine {
        from: sq(&board, from),
        to: sq(&board, to),
        hit,
        label: String::new(),
    };
    pic.fire = vec![
        line("B1", "B8", true),
        line("B1", "B8", false),
        line("B8", "B1", true),
    ];
    let text = picture::svg(&pic);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let fire: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("fire-")))
        .collect();
    assert_eq!(fire.len(), 3, "one line of fire per weapon line");
    let mut paths: Vec<String> = fire
        .iter()
        .map(|g| {
            g.children()
                .rfind(|c| c.has_tag_name("path"))
                .and_then(|p| p.attribute("d"))
                .unwrap_or("")
                .replace(' ', "")
        })
        .collect();
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), 3, "three lines in three places: {paths:?}");

    // In the PNG: across column B half-way down, three separate red strokes.
    let image = decode(&picture::png(&pic).unwrap());
    let (cx, _) = picture::square_centre(sq(&board, "B4"));
    let (_, y) = picture::square_centre(sq(&board, "B5"));
    let red = |p: (u8, u8, u8)| p.0 > 180 && p.1 < 80 && p.2 < 80;
    let row: Vec<bool> = (cx - 25..cx + 25)
        .map(|x| red(rgb_at(&image, x, y - 20)))
        .collect();
    let runs = row.windows(2).filter(|w| !w[0] && w[1]).count() + usize::from(row[0]);
    assert!(
        runs >= 2,
        "red strokes across the column: {runs} in {row:?}"
    );
}

// issue 16 items 5 and 7: a counter shows the whole id when it fits, else an abbreviation the
// legend spells out; never a cut-off "range…". Its shape tells squad, hero or vehicle.
#[test]
fn counters_show_whole_ids_or_legend_abbreviations_and_their_unit_type() {
    let board = Board::open(9, 9).unwrap();
    let mut pic = Picture::new(board.clone());
    pic.sides = vec!["allies".into(), "axis".into()];
    pic.units = vec![
        unit(&board, "A1", "allies", "rangers", UnitType::Squad),
        unit(&board, "B2", "allies", "pounder", UnitType::Vehicle),
        unit(&board, "C3", "allies", "brown", UnitType::Hero),
        unit(&board, "D4", "axis", "grenadiers", UnitType::Squad),
        unit(&board, "E5", "axis", "grenzer-trupp", UnitType::Squad),
        unit(&board, "F6", "axis", "sigrid-von-thaler", UnitType::Hero),
    ];
    let text = picture::svg(&pic);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let texts = texts(&doc);
    for whole in ["rangers", "pounder", "brown"] {
        assert!(texts.iter().any(|t| t == whole), "{whole} whole: {texts:?}");
    }
    for legend in [
        "gre = grenadiers",
        "gr2 = grenzer-trupp",
        "sig = sigrid-von-thaler",
    ] {
        assert!(texts.iter().any(|t| t == legend), "{legend}: {texts:?}");
    }
    for short in ["gre", "gr2", "sig"] {
        assert!(texts.iter().any(|t| t == short), "counter {short}");
    }
    assert!(
        !texts.iter().any(|t| t.contains('…')),
        "nothing cut short: {texts:?}"
    );
    // One class per unit type, each a shape of its own, and the legend names them.
    let shape = |class: &str| -> Vec<String> {
        groups(&doc, class)
            .iter()
            .filter(|g| g.attribute("class").is_some_and(|c| c.starts_with("unit")))
            .map(|g| {
                g.children()
                    .find(|c| c.is_element() && !c.has_tag_name("title"))
                    .map(|c| c.tag_name().name().to_string())
                    .unwrap_or_default()
            })
            .collect()
    };
    assert_eq!(shape("squad"), ["circle", "circle", "circle"]);
    assert_eq!(shape("hero"), ["path", "path"]);
    assert_eq!(shape("vehicle"), ["rect"]);
    for entry in ["squad", "hero", "vehicle"] {
        assert!(texts.iter().any(|t| t == entry), "legend {entry}");
    }
    // In the PNG: a vehicle fills its square's corner region, a squad's disc does not.
    let image = decode(&picture::png(&pic).unwrap());
    let corner = |name: &str| {
        let (x, y) = picture::square_centre(sq(&board, name));
        rgb_at(&image, x + 17, y + 17)
    };
    assert!(
        close_to(corner("B2"), hex(side_colours(0).fill), 6),
        "{:?}",
        corner("B2")
    );
    assert!(!close_to(corner("A1"), hex(side_colours(0).fill), 60));
}

/// sRGB to linear light.
fn linear(c: u8) -> f64 {
    let c = c as f64 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// CIE L*a*b* (D65) of linear RGB.
fn lab([r, g, b]: [f64; 3]) -> [f64; 3] {
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    [
        116.0 * f(y) - 16.0,
        500.0 * (f(x) - f(y)),
        200.0 * (f(y) - f(z)),
    ]
}

/// The colour as seen with a full colour-vision deficiency (Machado, Oliveira and Fernandes
/// 2009, severity 1), in L*a*b*.
fn seen(colour: &str, m: &[[f64; 3]; 3]) -> [f64; 3] {
    let (r, g, b) = hex(colour);
    let v = [linear(r), linear(g), linear(b)];
    let row = |i: usize| (m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2]).clamp(0.0, 1.0);
    lab([row(0), row(1), row(2)])
}

fn delta_e(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

// issue 16 item 7: the two sides' counters differ from each other and from every terrain for
// normal vision and simulated deuteranopia and protanopia (and tritanopia, less strictly).
#[test]
fn the_side_palette_is_colour_blind_safe() {
    const NORMAL: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    const DEUTERANOPIA: [[f64; 3]; 3] = [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ];
    const PROTANOPIA: [[f64; 3]; 3] = [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ];
    const TRITANOPIA: [[f64; 3]; 3] = [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ];
    let terrains = [
        Terrain::Open,
        Terrain::Impassable,
        Terrain::DeepWater,
        Terrain::Rubble,
        Terrain::Smoke,
        Terrain::Trees,
    ];
    let sides = [side_colours(0).fill, side_colours(1).fill];
    // ΔE*76 of 2.3 is just noticeable; 40 is a plain difference of colour, 20 a clear one.
    for (vision, m, sides_apart, from_terrain) in [
        ("normal", &NORMAL, 40.0, 20.0),
        ("deuteranopia", &DEUTERANOPIA, 40.0, 20.0),
        ("protanopia", &PROTANOPIA, 40.0, 20.0),
        ("tritanopia", &TRITANOPIA, 40.0, 15.0),
    ] {
        let d = delta_e(seen(sides[0], m), seen(sides[1], m));
        println!("{vision}: sides {d:.0} apart");
        assert!(
            d >= sides_apart,
            "{vision}: the sides are only {d:.1} apart"
        );
        for side in sides {
            for t in terrains {
                let d = delta_e(seen(side, m), seen(picture::terrain_colour(t), m));
                assert!(
                    d >= from_terrain,
                    "{vision}: side {side} is only {d:.1} from {t:?}"
                );
            }
        }
    }
}

// issue 16 item 7: larger pictures that still fit a mail. Prints the sizes (demo, full-box at
// the start and with every unit on the board, moving and firing).
#[test]
fn png_sizes_stay_small_enough_for_a_mail() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("home");
    let o = dt::dustmail(&home, &["demo"]);
    assert!(o.status.success(), "{}", dt::text(&o));
    let o = dt::dustmail(
        &home,
        &["show", "g-demo", "--format", "png", "--as", "allies"],
    );
    assert!(o.status.success(), "{}", dt::text(&o));
    let demo = o.stdout.len();
    let (w, h, _) = decode(&o.stdout);
    println!("demo (skirmish, last step): {w}×{h} px, {demo} bytes");

    let start = scenario_picture("full-box", "allies");
    let bytes = picture::png(&start).unwrap().len();
    let (w, h) = picture::size(&start);
    println!("full-box at the start: {w}×{h} px, {bytes} bytes");

    // Every unit of the core box on the board: allies in rows 7–8, axis in rows 2–3, and a
    // move with two weapon lines fired.
    let mut busy = start.clone();
    let s = state("full-box");
    let free: Vec<Square> = busy
        .board
        .squares()
        .filter(|q| busy.board.terrain(*q) == Terrain::Open && !busy.board.cover.contains_key(q))
        .collect();
    let rows = |r: &[u8]| -> Vec<Square> {
        free.iter()
            .copied()
            .filter(|q| r.contains(&(q.row() + 1)))
            .collect()
    };
    let (mut a, mut x) = (rows(&[7, 8]).into_iter(), rows(&[3, 4]).into_iter());
    for side in &s.scenario.sides {
        for u in &side.units {
            let card = s.cards.get(&u.card).unwrap();
            let at = if side.id == "allies" {
                a.next()
            } else {
                x.next()
            };
            busy.units.push(UnitMarker {
                square: at.unwrap(),
                side: side.id.clone(),
                label: u.id.clone(),
                unit_type: card.unit_type,
                left: 2,
                max: 5,
                activated: u.id.len() % 2 == 0,
                joined_hero: false,
                large: false,
                rear: None,
            });
        }
    }
    let (from, to) = (busy.units[0].square, busy.units[7].square);
    busy.path = vec![sq(&busy.board, "B9"), sq(&busy.board, "B7"), from];
    busy.fire = vec![
        FireLine {
            from,
            to,
            hit: true,
            label: String::new(),
        },
        FireLine {
            from,
            to,
            hit: false,
            label: String::new(),
        },
    ];
    let bytes_busy = picture::png(&busy).unwrap().len();
    let (w, h) = picture::size(&busy);
    println!("full-box, every unit on the board: {w}×{h} px, {bytes_busy} bytes");
    // Before issue 16 item 7 (48 px squares): demo 29.4 KB, full-box at the start 36.5 KB.
    // Both stay under ~60 KB; a board packed with all twelve units of the core box costs more
    // (counter text is anti-aliased and goes out as literals), bounded here so it cannot grow
    // unnoticed.
    for (what, n, max) in [
        ("demo", demo, 60_000),
        ("full-box", bytes, 60_000),
        ("full-box busy", bytes_busy, 90_000),
    ] {
        assert!(n < max, "{what}: {n} bytes, over {max}");
    }
}
