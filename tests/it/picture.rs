//! The board picture: the SVG is well-formed and names what is on the board; the PNG has the
//! expected size, shows the right things at the right pixels, and is the same bytes every time.

use crate::support::own_process::in_own_process;
use dustmail::dust_tactics::model::{Board, CoverElement, CoverKind, Square, UnitType};
use dustmail::dust_tactics::picture::{
    self, side_colours, FireLine, Picture, UnitMarker, MARGIN_PX, SQUARE_PX,
};

/// Held by the tests that empty the picture caches or count their hits: the tests of this file
/// run in parallel threads of one process, sharing the caches.
static CACHES: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn caches() -> std::sync::MutexGuard<'static, ()> {
    CACHES.lock().unwrap_or_else(|e| e.into_inner())
}

fn sq(board: &Board, name: &str) -> Square {
    board.parse_square(name).expect("test square on the board")
}

fn unit(
    board: &Board,
    at: &str,
    side: &str,
    label: &str,
    t: UnitType,
    left: u8,
    max: u8,
) -> UnitMarker {
    UnitMarker {
        square: sq(board, at),
        side: side.into(),
        label: label.into(),
        unit_type: t,
        left,
        max,
        activated: false,
        joined_hero: false,
        large: false,
        rear: None,
    }
}

/// A 9×9 board with every terrain, both cover elements, both sides, a move and two attacks.
fn sample() -> Picture {
    let mut board = Board::from_rows(&[
        ".........",
        "..#......",
        "....~~...",
        ".+..~~...",
        ".....*...",
        "..TT.....",
        "..TT...#.",
        ".........",
        ".........",
    ])
    .unwrap();
    board.cover.insert(
        sq(&board, "E8"),
        CoverElement {
            kind: CoverKind::AmmoCrate,
            damage: 0,
        },
    );
    board.cover.insert(
        sq(&board, "G4"),
        CoverElement {
            kind: CoverKind::TankTrap,
            damage: 1,
        },
    );
    let mut pic = Picture::new(board.clone());
    pic.sides = vec!["allies".into(), "axis".into()];
    pic.ours = Some("allies".into());
    let mut rangers = unit(&board, "B7", "allies", "A1", UnitType::Squad, 3, 5);
    rangers.joined_hero = true;
    let mut pounder = unit(&board, "E9", "allies", "A2", UnitType::Vehicle, 6, 6);
    pounder.activated = true;
    pic.units = vec![
        rangers,
        pounder,
        unit(&board, "D5", "allies", "A3", UnitType::Hero, 3, 3),
        unit(&board, "H2", "axis", "X1", UnitType::Squad, 4, 5),
        unit(&board, "F2", "axis", "X2", UnitType::Vehicle, 5, 7),
        unit(&board, "H8", "axis", "grenadiers", UnitType::Squad, 5, 5),
    ];
    pic.path = ["A9", "B8", "B7"].iter().map(|s| sq(&board, s)).collect();
    pic.fire = vec![
        FireLine {
            from: sq(&board, "B7"),
            to: sq(&board, "H8"),
            hit: true,
            label: String::new(),
        },
        FireLine {
            from: sq(&board, "D5"),
            to: sq(&board, "H2"),
            hit: false,
            label: String::new(),
        },
    ];
    pic
}

struct Image {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Image {
    fn decode(bytes: &[u8]) -> Image {
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().expect("a PNG header");
        let mut rgb = vec![0; reader.output_buffer_size().expect("buffer size")];
        let info = reader.next_frame(&mut rgb).expect("a PNG frame");
        // The board is opaque: stored as 8-bit RGB (smaller and faster than RGBA).
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        Image {
            width: info.width,
            height: info.height,
            rgb,
        }
    }
    fn rgb(&self, x: u32, y: u32) -> (u8, u8, u8) {
        let i = ((y * self.width + x) * 3) as usize;
        (self.rgb[i], self.rgb[i + 1], self.rgb[i + 2])
    }
    /// Pixels in the rectangle darker than mid-grey.
    fn dark_pixels(&self, x0: u32, y0: u32, x1: u32, y1: u32) -> usize {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| luma(self.rgb(x, y)) < 128)
            .count()
    }
}

fn luma((r, g, b): (u8, u8, u8)) -> u32 {
    (r as u32 * 299 + g as u32 * 587 + b as u32 * 114) / 1000
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

fn centre(pic: &Picture, name: &str) -> (u32, u32) {
    picture::square_centre(sq(&pic.board, name))
}

fn texts(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect()
}

#[test]
fn svg_parses_and_shows_every_label_letter_and_number() {
    let pic = sample();
    let text = picture::svg(&pic);
    let doc = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert!(root.has_tag_name(("http://www.w3.org/2000/svg", "svg")));
    let (w, h) = picture::size(&pic);
    assert_eq!(root.attribute("width"), Some(w.to_string().as_str()));
    assert_eq!(root.attribute("height"), Some(h.to_string().as_str()));

    let texts = texts(&doc);
    for label in ["A1", "A2", "A3", "X1", "X2"] {
        assert!(texts.iter().any(|t| t == label), "counter {label} missing");
    }
    // A long id is abbreviated on the counter, spelled out in the legend (issue 16 item 5: never
    // cut short, as "grena…" was) and kept whole in the counter's title.
    assert!(texts.iter().any(|t| t == "gre"));
    assert!(texts.iter().any(|t| t == "gre = grenadiers"));
    assert!(text.contains("<title>grenadiers (axis) 5/5</title>"));
    // 000 "Cover elements": a tank trap has 4 health; this one took 1 damage.
    assert!(
        texts.iter().any(|t| t == "3/4"),
        "damaged tank trap shows 3/4 left"
    );
    assert!(text.contains("<title>ammo crate E8: 2/2</title>"));
    for health in ["3/5", "6/6", "3/3", "4/5", "5/7", "5/5"] {
        assert!(texts.iter().any(|t| t == health), "{health} missing");
    }
    // DESIGN §4: letters A.. above and below, numbers 1.. on both sides.
    for letter in ["A", "B", "C", "D", "E", "F", "G", "H", "I"] {
        assert_eq!(texts.iter().filter(|t| *t == letter).count(), 2, "{letter}");
    }
    for n in 1..=9 {
        assert_eq!(
            texts.iter().filter(|t| **t == n.to_string()).count(),
            2,
            "row {n}"
        );
    }
    assert!(
        !texts.iter().any(|t| t == "J"),
        "no column J on a 9-wide board"
    );
    // The legend names the sides, ours marked, and only what is on the board.
    for entry in [
        "allies (you)",
        "axis",
        "vehicle",
        "hero joined",
        "activated",
        "moved",
        "fire: hit",
        "fire: missed",
        "open",
        "impassable",
        "deep water",
        "rubble",
        "smoke",
        "trees",
        "ammo crate",
        "tank trap",
    ] {
        assert!(
            texts.iter().any(|t| t == entry),
            "legend entry {entry} missing"
        );
    }
}

#[test]
fn svg_is_safe_to_mail() {
    // Nothing that runs or fetches: no scripts, no links, no images, no foreign objects.
    let text = picture::svg(&sample());
    let doc = roxmltree::Document::parse(&text).unwrap();
    for node in doc.descendants().filter(|n| n.is_element()) {
        let name = node.tag_name().name();
        assert!(
            !matches!(name, "script" | "image" | "foreignObject" | "a" | "style"),
            "<{name}> in the picture"
        );
        for attr in node.attributes() {
            assert!(attr.name() != "href", "href on <{name}>");
            assert!(
                !attr.name().starts_with("on"),
                "{} on <{name}>",
                attr.name()
            );
        }
    }
}

#[test]
fn labels_with_markup_characters_stay_text() {
    let board = Board::open(3, 3).unwrap();
    let mut pic = Picture::new(board.clone());
    pic.units = vec![unit(
        &board,
        "B2",
        "<b>&\"x'",
        "<A&>",
        UnitType::Squad,
        1,
        1,
    )];
    let text = picture::svg(&pic);
    let doc = roxmltree::Document::parse(&text).expect("escaped labels keep the SVG well-formed");
    let texts = texts(&doc);
    assert!(texts.iter().any(|t| t == "<A&>"));
    assert!(
        texts.iter().any(|t| t == "<b>&\"x'"),
        "side name in the legend"
    );
    assert!(doc.descendants().all(|n| !n.has_tag_name("b")));
}

#[test]
fn png_size_follows_the_board() {
    for (cols, rows) in [(9u8, 9u8), (12, 9)] {
        let mut pic = sample();
        pic.board = Board::open(cols, rows).unwrap();
        let image = Image::decode(&picture::png(&pic).unwrap());
        assert_eq!((image.width, image.height), picture::size(&pic));
        assert_eq!(image.width, 2 * MARGIN_PX + SQUARE_PX * cols as u32);
        // The legend goes below the board and its bottom margin.
        assert!(image.height > 2 * MARGIN_PX + SQUARE_PX * rows as u32);
    }
    // The exact numbers, for whoever sizes an <img> tag: 60 px a square, 28 px margins (issue 16
    // item 7: were 48 and 26).
    let mut pic = sample();
    assert_eq!(picture::size(&pic).0, 596);
    pic.board = Board::open(12, 9).unwrap();
    assert_eq!(picture::size(&pic).0, 776);
}

#[test]
fn png_pixels_show_terrain_counters_and_fire() {
    let pic = sample();
    let image = Image::decode(&picture::png(&pic).unwrap());

    // Impassable C2: dark. Deep water E3: blue. Trees C6: green. Open A1: light.
    let (x, y) = centre(&pic, "C2");
    assert!(
        luma(image.rgb(x + 6, y - 14)) < 70,
        "{:?}",
        image.rgb(x + 6, y - 14)
    );
    let (x, y) = centre(&pic, "E3");
    let (r, g, b) = image.rgb(x - 18, y + 4);
    assert!(b > 150 && r < 100, "deep water is blue: {:?}", (r, g, b));
    let (x, y) = centre(&pic, "C6");
    let (r, g, b) = image.rgb(x - 15, y + 15);
    assert!(g > r + 30 && g > b + 30, "trees are green: {:?}", (r, g, b));
    let (x, y) = centre(&pic, "A1");
    assert!(luma(image.rgb(x - 12, y - 12)) > 200);

    // Counters in their side's colour: allies first (blue), axis second (red).
    let (x, y) = centre(&pic, "D5");
    assert!(close_to(image.rgb(x - 14, y), hex(side_colours(0).fill), 4));
    let (x, y) = centre(&pic, "H2");
    assert!(close_to(image.rgb(x - 14, y), hex(side_colours(1).fill), 4));
    assert_ne!(side_colours(0).fill, side_colours(1).fill);
    // The activated vehicle A2 at E9 is dimmed: lighter than its side's colour.
    let (x, y) = centre(&pic, "E9");
    let dimmed = image.rgb(x - 14, y);
    assert!(!close_to(dimmed, hex(side_colours(0).fill), 30));
    assert!(
        luma(dimmed) > luma(hex(side_colours(0).fill)) + 40,
        "{dimmed:?}"
    );
}

#[test]
fn png_fire_lines_are_red_solid_for_hits_and_dashed_for_misses() {
    let board = Board::open(9, 9).unwrap();
    let mut pic = Picture::new(board.clone());
    // Two straight shots down columns B and F, no units in the way of the pixels we read.
    pic.fire = vec![
        FireLine {
            from: sq(&board, "B1"),
            to: sq(&board, "B8"),
            hit: true,
            label: String::new(),
        },
        FireLine {
            from: sq(&board, "F1"),
            to: sq(&board, "F8"),
            hit: false,
            label: String::new(),
        },
    ];
    let image = Image::decode(&picture::png(&pic).unwrap());
    let red = |p: (u8, u8, u8)| p.0 > 180 && p.1 < 80 && p.2 < 80;
    let column = |name: &str| -> Vec<bool> {
        let (x, y0) = centre(&pic, &format!("{name}2"));
        let (_, y1) = centre(&pic, &format!("{name}6"));
        (y0..y1).map(|y| red(image.rgb(x, y))).collect()
    };
    let hit = column("B");
    assert!(hit.iter().all(|r| *r), "a hit is one unbroken red line");
    let miss = column("F");
    let reds = miss.iter().filter(|r| **r).count();
    assert!(
        reds > miss.len() / 3 && reds < miss.len(),
        "a miss is dashed: {reds}/{}",
        miss.len()
    );
}

#[test]
fn png_margins_carry_the_coordinates() {
    let pic = sample();
    let image = Image::decode(&picture::png(&pic).unwrap());
    // Letter A above column A, number 1 left of row 1 (text is drawn from the embedded font).
    let (x, y) = centre(&pic, "A1");
    assert!(
        image.dark_pixels(x - 10, 0, x + 10, MARGIN_PX) > 20,
        "no letter A at the top"
    );
    assert!(
        image.dark_pixels(0, y - 10, MARGIN_PX, y + 10) > 10,
        "no number 1 at the left"
    );
    // Between two letters the margin is empty.
    let between = MARGIN_PX + SQUARE_PX;
    assert_eq!(
        image.dark_pixels(between - 3, 0, between + 3, MARGIN_PX - 4),
        0
    );
    // Without fonts the counters would be plain discs: the id writes white pixels on blue.
    let (x, y) = centre(&pic, "D5");
    let whites = (x - 8..x + 8)
        .flat_map(|px| (y - 10..y).map(move |py| (px, py)))
        .filter(|&(px, py)| luma(image.rgb(px, py)) > 200)
        .count();
    assert!(whites > 10, "no label text on the counter");
}

#[test]
fn same_picture_same_bytes() {
    let a = sample();
    let b = sample();
    assert_eq!(picture::svg(&a), picture::svg(&b));
    assert_eq!(picture::png(&a).unwrap(), picture::png(&b).unwrap());
    // And a change shows: one unit moved is another picture.
    let mut c = sample();
    c.units[0].square = sq(&c.board, "A8");
    assert_ne!(picture::svg(&a), picture::svg(&c));
}

#[test]
fn odd_inputs_draw_without_failing() {
    // Smallest board, a side only units name, a three-side game, a repeated square in the path, a
    // shot at its own square, and letters the embedded font does not have.
    let board = Board::open(3, 3).unwrap();
    let mut pic = Picture::new(board.clone());
    pic.ours = Some("nobody".into());
    pic.units = vec![
        unit(&board, "A1", "rouge", "Ω-1", UnitType::Hero, 0, 3),
        unit(&board, "B2", "bleu", "B", UnitType::Vehicle, 9, 9),
        unit(&board, "C3", "vert", "", UnitType::Squad, 1, 5),
    ];
    pic.path = vec![sq(&board, "A1"), sq(&board, "A1")];
    pic.fire = vec![FireLine {
        from: sq(&board, "B2"),
        to: sq(&board, "B2"),
        hit: true,
        label: String::new(),
    }];
    let text = picture::svg(&pic);
    roxmltree::Document::parse(&text).unwrap();
    assert!(text.contains("Ω-1"), "the SVG keeps the id as written");
    assert!(
        !text.contains("id=\"movement\""),
        "a path that goes nowhere draws nothing"
    );
    let image = Image::decode(&picture::png(&pic).unwrap());
    assert_eq!((image.width, image.height), picture::size(&pic));
    assert_eq!(pic.side_order(), ["rouge", "bleu", "vert"]);
}

#[test]
fn sample_png_for_people() {
    // Written for a person to look at: target/picture-sample.png (and the SVG beside it).
    let pic = sample();
    let bytes = picture::png(&pic).unwrap();
    let target = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .to_path_buf();
    std::fs::write(target.join("picture-sample.png"), &bytes).unwrap();
    std::fs::write(target.join("picture-sample.svg"), picture::svg(&pic)).unwrap();
    Image::decode(&bytes);
    // A wider board seen from the other side, with a long side name in the legend.
    let mut wide = sample();
    let mut board = Board::open(12, 9).unwrap();
    board.set_terrain(
        sq(&board, "K3"),
        dustmail::dust_tactics::model::Terrain::Impassable,
    );
    wide.board = board;
    wide.ours = Some("axis".into());
    wide.sides[0] = "united-states-of-america".into();
    for u in wide.units.iter_mut().filter(|u| u.side == "allies") {
        u.side = "united-states-of-america".into();
    }
    let bytes = picture::png(&wide).unwrap();
    std::fs::write(target.join("picture-sample-12x9.png"), &bytes).unwrap();
}

#[test]
fn terrain_kinds_are_all_drawn_differently() {
    // 004 "Terrain": each symbol must be told apart at a glance; on the picture each fill differs.
    let board = Board::from_rows(&[".#~+*T...", ".........", "........."]).unwrap();
    let pic = Picture::new(board.clone());
    let image = Image::decode(&picture::png(&pic).unwrap());
    let mut seen: Vec<(u8, u8, u8)> = Vec::new();
    for name in ["A1", "B1", "C1", "D1", "E1", "F1"] {
        let (x, y) = centre(&pic, name);
        let p = image.rgb(x - 19, y + 6);
        assert!(
            seen.iter().all(|s| !close_to(*s, p, 20)),
            "{name} looks like another terrain: {p:?} vs {seen:?}"
        );
        seen.push(p);
    }
}

#[test]
fn picture_round_trips_through_json() {
    // Callers may keep a picture per replay step as JSON and draw it later: same drawing back.
    let pic = sample();
    let json = serde_json::to_string(&pic).unwrap();
    assert!(
        json.contains("\"B7\""),
        "squares are written as on the board"
    );
    let back: Picture = serde_json::from_str(&json).unwrap();
    assert_eq!(back, pic);
    assert_eq!(picture::svg(&back), picture::svg(&pic));
}

/// Pictures with everything the dynamic layer draws: fire (hit and missed), damaged cover, a
/// movement path, destroyed units, dimmed and starred counters, three sides and a long legend,
/// on several board sizes.
fn varied_pictures() -> Vec<Picture> {
    let mut all = vec![sample()];

    let mut wrecks = sample();
    wrecks.destroyed = vec![sq(&wrecks.board, "H8"), sq(&wrecks.board, "A1")];
    wrecks.ours = Some("axis".into());
    wrecks.sides[0] = "united-states-of-america".into();
    for u in wrecks.units.iter_mut().filter(|u| u.side == "allies") {
        u.side = "united-states-of-america".into();
    }
    wrecks.units.push(unit(
        &wrecks.board,
        "I9",
        "blutkreuz-korps",
        "Ω-1",
        UnitType::Hero,
        1,
        4,
    ));
    all.push(wrecks);

    // A wide board, a long path, fire in every direction, units at the corners next to the
    // margins and the legend.
    let mut wide = sample();
    let mut board = Board::open(12, 9).unwrap();
    board.set_terrain(
        sq(&board, "K3"),
        dustmail::dust_tactics::model::Terrain::Impassable,
    );
    board.cover.insert(
        sq(&board, "L9"),
        CoverElement {
            kind: CoverKind::TankTrap,
            damage: 3,
        },
    );
    wide.board = board.clone();
    wide.units = vec![
        unit(&board, "A1", "allies", "A1", UnitType::Vehicle, 1, 6),
        unit(&board, "L9", "axis", "X1", UnitType::Squad, 2, 5),
        unit(&board, "L1", "axis", "X2", UnitType::Hero, 3, 3),
        unit(&board, "A9", "allies", "A2", UnitType::Squad, 5, 5),
    ];
    wide.units[3].activated = true;
    wide.units[3].joined_hero = true;
    wide.path = ["A5", "B5", "C6", "D6", "D7", "E8", "A9"]
        .iter()
        .map(|s| sq(&board, s))
        .collect();
    wide.fire = ["L9", "L1", "A9"]
        .iter()
        .enumerate()
        .map(|(i, to)| FireLine {
            from: sq(&board, "A1"),
            to: sq(&board, to),
            hit: i % 2 == 0,
            label: String::new(),
        })
        .collect();
    wide.destroyed = vec![sq(&board, "L1"), sq(&board, "F5")];
    all.push(wide);

    // The smallest board, spectator's view, nothing but terrain.
    all.push(Picture::new(Board::open(3, 3).unwrap()));
    all
}

#[test]
fn cached_static_layer_draws_the_same_pixels_as_one_pass() {
    for (i, pic) in varied_pictures().iter().enumerate() {
        let one = picture::pixels_single_pass(pic).unwrap();
        let two = picture::pixels(pic).unwrap();
        assert_eq!((one.width(), one.height()), (two.width(), two.height()));
        assert!(
            one.data() == two.data(),
            "picture {i}: the two-pass pixels differ from the one-pass ones"
        );
        // And again from the cache (the first call may have been a miss or a hit).
        assert!(one.data() == picture::pixels(pic).unwrap().data(), "{i}");
    }
}

#[test]
fn cache_hit_and_miss_give_the_same_bytes() {
    let _caches = caches();
    for pic in varied_pictures() {
        picture::clear_static_cache();
        let miss = picture::png(&pic).unwrap();
        let hit = picture::png(&pic).unwrap();
        assert_eq!(miss, hit);
        // The PNG holds the one-pass pixels.
        let image = Image::decode(&hit);
        let one = picture::pixels_single_pass(&pic).unwrap();
        let rgb: Vec<u8> = one
            .data()
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        assert!(image.rgb == rgb, "the PNG's pixels are the picture's");
    }
    // More boards and legends than the caches hold: the oldest are drawn again, the same.
    let pics: Vec<Picture> = (0..40)
        .map(|i| {
            let mut board = Board::open(3 * (1 + i as u8 % 2), 3).unwrap();
            let square = board.squares().nth(i % 9).unwrap();
            board.set_terrain(square, dustmail::dust_tactics::model::Terrain::Trees);
            let mut pic = Picture::new(board);
            pic.sides = vec![format!("side-{i}")];
            pic
        })
        .collect();
    let first: Vec<Vec<u8>> = pics.iter().map(|p| picture::png(p).unwrap()).collect();
    let again: Vec<Vec<u8>> = pics.iter().map(|p| picture::png(p).unwrap()).collect();
    assert_eq!(first, again);
}

// In a process of its own: pictures drawn by other tests of the binary could push this test's
// items out of the shared cache between its two drawings.
#[test]
fn a_picture_drawn_again_comes_from_the_item_cache_with_the_same_pixels() {
    in_own_process(
        module_path!(),
        "a_picture_drawn_again_comes_from_the_item_cache_with_the_same_pixels",
        drawn_again_from_the_item_cache,
    );
}

fn drawn_again_from_the_item_cache() {
    let _caches = caches();
    // Stats are per thread: this test's own pictures only.
    for (i, pic) in varied_pictures().iter().enumerate() {
        let first = picture::pixels(pic).unwrap();
        let (hits, misses) = picture::item_cache_stats();
        let again = picture::pixels(pic).unwrap();
        let (hits2, misses2) = picture::item_cache_stats();
        assert_eq!(misses2, misses, "picture {i}: every item was cached");
        let items = pic.units.len()
            + pic.fire.iter().filter(|f| f.from != f.to).count()
            + pic.destroyed.len()
            + pic.board.cover.len()
            + usize::from(pic.path.windows(2).any(|w| w[0] != w[1]));
        assert_eq!(hits2 - hits, items, "picture {i}");
        assert!(first.data() == again.data(), "picture {i}");
    }
    // A counter that a movement path now passes under is drawn anew over the new background, not
    // pasted from the old one.
    let mut pic = sample();
    pic.path.clear();
    let plain = picture::pixels(&pic).unwrap();
    pic.path = vec![sq(&pic.board, "A1"), sq(&pic.board, "I9")];
    let crossed = picture::pixels(&pic).unwrap();
    assert!(plain.data() != crossed.data());
    assert!(crossed.data() == picture::pixels_single_pass(&pic).unwrap().data());
}

#[test]
fn png_rows_round_trip_through_the_encoder() {
    // Flat colour, runs, rows equal to the row above and noise (xorshift): the decoder gives back
    // every pixel.
    let (w, h) = (97u32, 61u32);
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).unwrap();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let data = pixmap.data_mut();
    for (i, px) in data.chunks_exact_mut(4).enumerate() {
        let (x, y) = (i as u32 % w, i as u32 / w);
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let rgb = match (x / 10 + y / 7) % 4 {
            0 => [200, 180, 90],
            1 => [(x * 3) as u8, 7, (y * 5) as u8],
            2 if y % 2 == 1 => [1, 2, 3],
            _ => [state as u8, (state >> 8) as u8, (state >> 16) as u8],
        };
        px.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
    }
    let bytes = picture::encode_png(&pixmap).unwrap();
    let image = Image::decode(&bytes);
    assert_eq!((image.width, image.height), (w, h));
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    assert!(image.rgb == rgb);
}

#[test]
fn a_transparent_pixel_keeps_its_alpha_in_the_png() {
    // Never drawn today (the background is opaque), but the encoder must not drop alpha.
    let mut pixmap = resvg::tiny_skia::Pixmap::new(20, 20).unwrap();
    pixmap.fill(resvg::tiny_skia::Color::from_rgba8(10, 20, 30, 255));
    let last = pixmap.data().len() - 4;
    pixmap.data_mut()[last..].copy_from_slice(&[0, 0, 0, 0]);
    let bytes = picture::encode_png(&pixmap).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    assert_eq!(&buf[..4], &[10, 20, 30, 255]);
    assert_eq!(&buf[buf.len() - 4..], &[0, 0, 0, 0]);
}

// In a process of its own, like the test above: it counts cache hits.
#[test]
fn a_picture_partly_cached_gives_the_bytes_of_an_empty_cache() {
    in_own_process(
        module_path!(),
        "a_picture_partly_cached_gives_the_bytes_of_an_empty_cache",
        partly_cached_as_from_an_empty_cache,
    );
}

fn partly_cached_as_from_an_empty_cache() {
    let _caches = caches();
    // One step later: a unit moved and fired. Its picture shares most rows and items with the
    // one before (cache partly warm); its bytes are those drawn from nothing.
    let before = sample();
    let mut after = sample();
    after.units[0].square = sq(&after.board, "A8");
    after.path = vec![sq(&after.board, "B8"), sq(&after.board, "A8")];
    after.fire = vec![FireLine {
        from: sq(&after.board, "A8"),
        to: sq(&after.board, "H2"),
        hit: true,
        label: String::new(),
    }];
    picture::clear_static_cache();
    let alone = picture::png(&after).unwrap();
    picture::clear_static_cache();
    picture::png(&before).unwrap();
    let (hits, _) = picture::item_cache_stats();
    let partly = picture::png(&after).unwrap();
    assert!(
        picture::item_cache_stats().0 > hits,
        "some items came from the cache"
    );
    assert_eq!(alone, partly);
}

/// The zlib stream of a PNG (its IDAT chunks), inflated by an independent decoder that checks
/// the Adler-32 (the png crate's decoder does not).
fn idat_inflated(png_bytes: &[u8]) -> Vec<u8> {
    let mut at = 8; // the PNG signature
    let mut zlib = Vec::new();
    while at + 8 <= png_bytes.len() {
        let len = u32::from_be_bytes(png_bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &png_bytes[at + 4..at + 8];
        if kind == b"IDAT" {
            zlib.extend_from_slice(&png_bytes[at + 8..at + 8 + len]);
        }
        at += 12 + len;
    }
    miniz_oxide::inflate::decompress_to_vec_zlib(&zlib).expect("a valid zlib stream")
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Any opaque picture: flat areas, runs, repeated rows, diagonals and noise, at any size.
    /// The zlib stream inflates (Adler-32 checked) to exactly the PNG rows: filter byte 0, RGB.
    #[test]
    fn any_opaque_picture_encodes_to_a_valid_zlib_stream_of_its_rows(
        w in 1u32..90,
        h in 1u32..40,
        seed in proptest::prelude::any::<u64>(),
        palette in proptest::collection::vec(proptest::prelude::any::<[u8; 3]>(), 1..5),
    ) {
        let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).unwrap();
        let mut state = seed | 1;
        let mut rows: Vec<Vec<[u8; 3]>> = Vec::new();
        for y in 0..h as usize {
            let mut row = Vec::new();
            for x in 0..w as usize {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let px = match state % 8 {
                    // The row above (whole rows repeat), its diagonals, the pixel before: the
                    // matches the encoder looks for.
                    0 | 1 if y > 0 => rows[y - 1][x],
                    2 if y > 0 && x > 0 => rows[y - 1][x - 1],
                    3 if y > 0 && x + 1 < w as usize => rows[y - 1][x + 1],
                    4 | 5 if x > 0 => row[x - 1],
                    6 => [(state >> 8) as u8, (state >> 16) as u8, (state >> 24) as u8],
                    _ => palette[(state >> 32) as usize % palette.len()],
                };
                row.push(px);
            }
            rows.push(row);
        }
        for (px, rgb) in pixmap.data_mut().chunks_exact_mut(4).zip(rows.iter().flatten()) {
            px.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
        }
        let bytes = picture::encode_png(&pixmap).unwrap();
        let want: Vec<u8> = rows
            .iter()
            .flat_map(|r| std::iter::once(0u8).chain(r.iter().flatten().copied()))
            .collect();
        proptest::prop_assert!(idat_inflated(&bytes) == want);
        // Encoding again (bands now cached) gives the same bytes.
        proptest::prop_assert_eq!(picture::encode_png(&pixmap).unwrap(), bytes);
    }
}

#[test]
fn the_board_picture_is_a_valid_zlib_stream() {
    for pic in varied_pictures() {
        let bytes = picture::png(&pic).unwrap();
        let image = Image::decode(&bytes);
        let rows = idat_inflated(&bytes);
        assert_eq!(rows.len() as u32, image.height * (1 + 3 * image.width));
    }
}

#[test]
fn pictures_drawn_on_several_threads_at_once_are_the_bytes_drawn_alone() {
    // Issue 11 item 7 (the caches stay): a batch renders its mails on every core, sharing the
    // global pixel and band caches; pictures drawn side by side on several threads, in any
    // order, are byte for byte those drawn one at a time.
    let pics = varied_pictures();
    let alone: Vec<Vec<u8>> = pics.iter().map(|p| picture::png(p).unwrap()).collect();
    let together: Vec<Vec<Vec<u8>>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let pics = &pics;
                s.spawn(move || {
                    // Each thread in another order.
                    let mut out = vec![Vec::new(); pics.len()];
                    for k in 0..pics.len() {
                        let i = (k * (t + 1) + t) % pics.len();
                        out[i] = picture::png(&pics[i]).unwrap();
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (t, got) in together.iter().enumerate() {
        for (i, bytes) in got.iter().enumerate() {
            assert!(
                bytes.is_empty() || *bytes == alone[i],
                "thread {t}, picture {i}"
            );
        }
    }
}

#[test]
fn the_picture_is_part_of_the_game_in_files_under_1000_lines() {
    // Issue 11 item 1: the board picture draws Dust Tactics boards, so it lives in the game's
    // presentation (src/games/dust_tactics/picture/), not among the edges; no file of it is over
    // ~1,000 lines.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    assert!(!read("src/lib.rs")
        .lines()
        .any(|l| l.trim() == "pub mod picture;"));
    assert!(read("src/games/dust_tactics/mod.rs")
        .lines()
        .any(|l| l.trim() == "pub mod picture;"));
    assert!(!root.join("src/picture.rs").exists() && !root.join("src/picture").exists());
    let dir = root.join("src/games/dust_tactics/picture");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.iter().any(|f| f.ends_with("mod.rs")), "{files:?}");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let lines = text.lines().count();
        assert!(lines <= 1000, "{}: {lines} lines", f.display());
    }
}
