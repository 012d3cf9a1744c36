//! dust-strategy's map picture and replay page (issue 14 item 5): the layout in the map file,
//! checked as it loads; the PNG (decodes, its size, the same bytes twice, owners' colours);
//! moves and attacks drawn from the step's typed events; the picture in the HTML report mail;
//! the replay page of a finished bot game stepping through its pictures in Chromium.
//! Helpers: the parent module.

use super::*;
use dustmail::games::dust_strategy::picture::{self, MapEvent, MapPicture};

/// Every die hits; hidden draws take the first card.
struct AllHit;

impl DiceSource for AllHit {
    fn d6(&mut self, _round: u32) -> u8 {
        1
    }
    fn uniform(&mut self, _round: u32, _n: u32) -> u32 {
        0
    }
    fn hidden(&mut self, _audience: &Audience, _n: u32) -> u32 {
        0
    }
}

fn send_hitting(s: &mut State, side: &str, lines: &[&str]) -> Outcome {
    let lines: Vec<Line> = lines
        .iter()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.to_string(),
        })
        .collect();
    DustStrategy.submit(s, Sender::side(side), &lines, &mut AllHit)
}

/// The PNG's size and RGB pixels.
pub(super) fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(std::io::Cursor::new(bytes.to_vec()));
    let mut reader = dec.read_info().expect("the picture is a PNG");
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).expect("the PNG decodes");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

pub(super) fn pixel(img: &(u32, u32, Vec<u8>), (x, y): (u32, u32)) -> [u8; 3] {
    let i = ((y * img.0 + x) * 3) as usize;
    [img.2[i], img.2[i + 1], img.2[i + 2]]
}

pub(super) fn rgb(hex: &str) -> [u8; 3] {
    let n = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    [(n >> 16) as u8, (n >> 8) as u8, n as u8]
}

/// issue 14 item 5: the picture of a game after setup is a PNG of the layout's size, the same
/// bytes every time, and each owned area shows its owner's colour (red vermillion, blue blue);
/// an area nobody holds keeps the land or sea colour.
#[test]
fn the_map_picture_is_a_deterministic_png_with_owners_colours() {
    let s = two_in_round_one();
    let view = DustStrategy.view(&s, Some("red"));
    let png1 = DustStrategy
        .picture(&view, Some("red"), &[])
        .expect("dust-strategy draws a map picture");
    let png2 = DustStrategy.picture(&view, Some("red"), &[]).unwrap();
    assert_eq!(png1.bytes, png2.bytes, "the same view gives the same bytes");
    let pic = MapPicture::from_view(&view, Some("red"), &[]).unwrap();
    // The built-in map's authored grid: 13 columns and 7 rows of 80 × 64 px cells.
    assert_eq!((pic.columns, pic.rows), (13, 7));
    let img = decode(&png1.bytes);
    assert_eq!((img.0, img.1), pic.size());
    assert_eq!((png1.width, png1.height), pic.size());
    assert_eq!(pic.size(), (1108, 588));
    for (area, colour) in [
        ("appalachia", "#d55e00"),
        ("mexico", "#d55e00"),
        ("rhineland", "#0072b2"),
        ("britannia", "#0072b2"),
        ("siberia", "#9a9a9a"),
    ] {
        let at = pic.owner_pixel(area).unwrap();
        assert_eq!(
            pixel(&img, at),
            rgb(colour),
            "{area} at {at:?} should be {colour}"
        );
    }
    // An area nobody holds keeps its kind's colour: land or sea.
    for a in view["areas"].as_array().unwrap() {
        if a["owner"].is_null() {
            let want = if a["kind"] == "sea" {
                "#a9cbe4"
            } else {
                "#e6d9ba"
            };
            let id = a["id"].as_str().unwrap();
            assert_eq!(pixel(&img, pic.owner_pixel(id).unwrap()), rgb(want), "{id}");
        }
    }
    // The legend names the players and their VP; nobody's hand is drawn, and every reader
    // gets the same picture.
    let svg = DustStrategy.picture_svg(&view, Some("red"), &[]).unwrap();
    assert!(svg.contains("red 0 VP"), "{svg}");
    let blue = DustStrategy.view(&s, Some("blue"));
    assert_eq!(
        DustStrategy.picture(&blue, Some("blue"), &[]).unwrap(),
        png1
    );
    assert!(!svg.contains("c0"), "no card in the picture");
}

/// issue 14 item 5: a move and an attack carry typed events (not text) that the picture draws:
/// an arrow for the move, a dashed arrow and a burst for the battle; the picture drawn without
/// the step's happenings has neither.
#[test]
fn moves_and_attacks_are_drawn_from_the_steps_typed_events() {
    let mut s = two_in_round_one();
    let o = send_hitting(
        &mut s,
        "red",
        &[
            "move 1 tank from alaska to yukon",
            "attack 1 tank from mexico to caribe",
        ],
    );
    all_ok(&o);
    let events: Vec<MapEvent> = o
        .happenings
        .iter()
        .filter_map(|h| h.event.clone())
        .map(|e| serde_json::from_value(e).unwrap())
        .collect();
    assert_eq!(
        events,
        vec![
            MapEvent::Move {
                side: "red".into(),
                from: vec!["alaska".into()],
                to: "yukon".into()
            },
            MapEvent::Battle {
                side: "red".into(),
                from: vec!["mexico".into()],
                to: "caribe".into()
            },
        ]
    );
    let view = DustStrategy.view(&s, None);
    let bare = DustStrategy.picture_svg(&view, None, &[]).unwrap();
    let drawn = DustStrategy
        .picture_svg(&view, None, &o.happenings)
        .unwrap();
    assert!(!bare.contains("stroke-dasharray=\"6 4\"/>\n<polygon points=\"12"));
    let arrows = |svg: &str| svg.matches("stroke-width=\"2.5\"").count();
    // The legend draws one arrow of each kind.
    assert_eq!(arrows(&bare), 2);
    assert_eq!(
        arrows(&drawn),
        4,
        "one arrow for the move, one for the attack"
    );
    let bursts = |svg: &str| svg.matches("stroke-width=\"1.5\"").count();
    assert_eq!((bursts(&bare), bursts(&drawn)), (1, 2), "one battle burst");
    // The PNG differs where the arrow runs: between alaska's and yukon's cells.
    let a = decode(&DustStrategy.picture(&view, None, &[]).unwrap().bytes);
    let b = decode(
        &DustStrategy
            .picture(&view, None, &o.happenings)
            .unwrap()
            .bytes,
    );
    let pic = MapPicture::from_view(&view, None, &[]).unwrap();
    let (x, y) = pic.cell_origin([1, 0]);
    // Arrows run at 28 px below a cell's top, between its name and its units.
    let gap = (x - 2, y + 28);
    assert_eq!(pixel(&a, gap), rgb("#f7f3ea"), "the bare gap is background");
    assert_eq!(
        pixel(&b, gap),
        [0, 0, 0],
        "the move's arrow crosses the gap"
    );
}

/// issue 14 item 5: the layout is checked as the map loads, each error naming the field and
/// the area; a --map file without a layout gets a generated grid (docs/strategy.md).
#[test]
fn the_layout_is_checked_as_the_map_loads() {
    let text = builtin_map_text();
    let (head, layout) = text.split_once("\n[layout]").unwrap();
    let m = map::parse("none.toml", head).expect("a map without a layout loads");
    assert!(m.layout.is_none());
    let (cols, rows, cells) = m.cells();
    assert_eq!((cols, rows, cells.len()), (12, 6, 66));
    let view_layout = picture::layout_json(&m);
    assert_eq!(view_layout["authored"], false);

    let missing = format!(
        "{head}\n[layout]{}",
        layout.replace("alaska = [0, 0]\n", "")
    );
    let e = map::parse("m.toml", &missing).unwrap_err();
    assert!(
        e.contains("map m.toml: layout.at: area `alaska` has no cell"),
        "{e}"
    );
    let twice = format!(
        "{head}\n[layout]{}",
        layout.replace("yukon = [1, 0]", "yukon = [0, 0]")
    );
    let e = map::parse("m.toml", &twice).unwrap_err();
    assert!(
        e.contains("areas `alaska` and `yukon` are both at [0, 0]"),
        "{e}"
    );
    let outside = format!(
        "{head}\n[layout]{}",
        layout.replace("yukon = [1, 0]", "yukon = [13, 0]")
    );
    let e = map::parse("m.toml", &outside).unwrap_err();
    assert!(
        e.contains("area `yukon` is at [13, 0], outside the grid"),
        "{e}"
    );
    let unknown = format!("{head}\n[layout]{}atlantis = [12, 5]\n", layout);
    let e = map::parse("m.toml", &unknown).unwrap_err();
    assert!(e.contains("`atlantis` is no area of the map"), "{e}");
    let huge = format!(
        "{head}\n[layout]{}",
        layout.replace("columns = 13", "columns = 100000")
    );
    let e = map::parse("m.toml", &huge).unwrap_err();
    assert!(e.contains("columns and rows must be 1 to 40"), "{e}");
}

/// A PNG part of a mail: its Content-ID (inline parts have one) and its bytes.
type PngPart = (Option<String>, Vec<u8>);

/// The HTML body of a mail and its PNG parts.
fn html_and_pngs(path: &Path) -> (String, Vec<PngPart>) {
    use mail_parser::MimeHeaders;
    let bytes = std::fs::read(path).unwrap();
    let m = mail_parser::MessageParser::default().parse(&bytes).unwrap();
    let html = m.body_html(0).map(|h| h.into_owned()).unwrap_or_default();
    let pngs = m
        .attachments()
        .filter(|a| {
            a.content_type()
                .is_some_and(|c| c.ctype() == "image" && c.subtype() == Some("png"))
        })
        .map(|a| (a.content_id().map(String::from), a.contents().to_vec()))
        .collect();
    (html, pngs)
}

/// issue 14 item 5: through signed mails and `run`, the HTML report of a dust-strategy game
/// shows the map picture (inline by its Content-ID, and attached), a PNG of the map's size;
/// the replay page of the game in progress draws the map for every step and, until the end,
/// holds no hand: red's dealt cards are in red's own mail only (DESIGN §5).
#[test]
fn the_html_report_carries_the_map_and_the_replay_page_hides_hands_until_the_end() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("h");
    let o = new_home(&home, &["red", "blue"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    signed_mail(
        &home,
        "red",
        1,
        1,
        "capital: appalachia\nplay highest cp",
        "r1",
    );
    let o = dustmail(&home, &["run", "--once", "--now", "2026-01-01T01:00:00Z"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let report = std::fs::read_dir(home.join("sent"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n.contains("-report-") && n.ends_with("red.eml")
        })
        .expect("red gets a report");
    let (html, pngs) = html_and_pngs(&report);
    let inline: Vec<&PngPart> = pngs.iter().filter(|(cid, _)| cid.is_some()).collect();
    assert_eq!(
        inline.len(),
        1,
        "one inline picture in {}",
        report.display()
    );
    let cid = inline[0].0.clone().unwrap();
    let cid = cid.trim_matches(['<', '>']);
    assert!(
        html.contains(&format!("src=\"cid:{cid}\"")),
        "the HTML shows the picture: {html}"
    );
    let img = decode(&inline[0].1);
    assert_eq!((img.0, img.1), (1108, 588));
    assert!(
        pngs.iter().any(|(cid, _)| cid.is_none()),
        "the picture is attached too"
    );
    let red_mail = unfold(&std::fs::read_to_string(&report).unwrap());
    assert!(
        red_mail.contains("red is dealt"),
        "red's own mail shows red's hand"
    );
    // issue 14 item 5 (the reports' text): the supremacy track beside the VP.
    assert!(
        red_mail.contains("supremacy (2 VP a round): production nobody, land nobody, sea nobody"),
        "{red_mail}"
    );

    let out = d.path().join("replay.html");
    let o = dustmail(&home, &["replay", "g1", "--html", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(
        page.contains("dust-strategy · map world"),
        "the page draws the map"
    );
    assert!(
        page.contains("red has chosen a card"),
        "public happenings are shown"
    );
    for hidden in [
        "red is dealt",
        "blue is dealt",
        "face down: c",
        "you play c",
    ] {
        assert!(!page.contains(hidden), "the page shows `{hidden}`");
    }
}

/// issue 14 item 5: the replay page of a finished bot game (`demo --game dust-strategy`)
/// renders in headless Chromium with a map picture in view, and its stepper changes the picture;
/// after the end the page may show the dealt hands (H is revealed).
#[test]
fn the_replay_page_of_a_finished_bot_game_steps_through_map_pictures_in_chromium() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("demo");
    let o = dustmail(&home, &["demo", "--game", "dust-strategy"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = d.path().join("replay.html");
    let o = dustmail(
        &home,
        &["replay", "g-demo", "--html", out.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let page = std::fs::read_to_string(&out).unwrap();
    let boards = page.matches("dust-strategy · map world").count();
    assert!(boards > 20, "only {boards} map pictures on the page");
    assert!(
        page.contains("red is dealt"),
        "after the end the hands are shown"
    );
    if !crate::browser::browser_tests_wanted() {
        return;
    }
    let b = crate::support::webdriver::Browser::start(1200, 1000);
    b.open(&format!("file://{}", out.display()));
    let in_view = || {
        b.eval(
            "var c = document.querySelectorAll('section.step.current');\
             var s = c.length == 1 ? c[0].querySelector('svg') : null;\
             return [c.length, s ? s.outerHTML : '', s ? s.getBoundingClientRect().width : 0];",
        )
    };
    let first = in_view();
    assert_eq!(first[0], 1, "one step in view");
    let start = first[1].as_str().unwrap().to_string();
    assert!(start.contains("dust-strategy · map world"), "{first}");
    assert!(
        first[2].as_f64().unwrap() > 500.0,
        "the map is drawn wide: {first}"
    );
    let mut clicks = 0;
    loop {
        b.click("#next");
        clicks += 1;
        let now = in_view();
        assert_eq!(now[0], 1, "one step in view");
        let svg = now[1].as_str().unwrap();
        if !svg.is_empty() && svg != start {
            assert!(svg.contains("dust-strategy · map world"));
            break;
        }
        assert!(clicks < 40, "40 clicks on Next never changed the map");
    }
}

/// issue 14 item 5: the text board shows the supremacy track (who holds each sector, 2 VP a
/// round each) beside the victory points.
#[test]
fn the_text_board_shows_the_supremacy_track() {
    let mut s = two_in_round_one();
    let board = DustStrategy.board_text(&s);
    assert!(
        board.contains("supremacy (2 VP a round): production nobody, land nobody, sea nobody\n"),
        "{board}"
    );
    s.supremacy.insert("land".into(), "blue".into());
    s.supremacy.insert("sea".into(), "red".into());
    let board = DustStrategy.board_text(&s);
    assert!(
        board.contains("supremacy (2 VP a round): production nobody, land blue, sea red\n"),
        "{board}"
    );
}
