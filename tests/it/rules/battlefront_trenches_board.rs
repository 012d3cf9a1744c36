//! Issue 18: 002's trenches on the reports' boards under battlefront-2013 (R295 plays them,
//! R717 draws them): the picture draws each trench square and its legend names it; the text
//! board marks them `%`.

use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::fortifications::Fortifications;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;

/// A battlefront game with a squad a side and trenches on `trenches` (none: no fortifications).
fn game(trenches: &[&str]) -> State {
    let mut s = scenario(
        vec![unit("ours", "sq", Some("E5"))],
        vec![unit("theirs", "sq", Some("E2"))],
    );
    if !trenches.is_empty() {
        s.fortifications = Some(Fortifications {
            trenches: trenches.iter().map(|t| sq(t)).collect(),
            ..Default::default()
        });
    }
    DustTactics
        .start("battlefront-2013", s, vec![squad("sq")])
        .expect("setup")
}

/// The SVG board picture of the game as a spectator's report draws it.
pub(super) fn svg(st: &State) -> String {
    let view = dustmail::dust_tactics::view::view(st, None);
    let pic = dustmail::dust_tactics::present::picture(&view, None, &[]).expect("a picture");
    dustmail::dust_tactics::picture::svg(&pic)
}

// issue 18, 002 "Trenches": "Trenches are Terrain that provides infantry with cover in otherwise
// open areas." (R295, R717) The board picture draws each trench square, the one under a unit
// too, and its legend names them; the text board marks a free trench square `%` and says so.
// A game without trenches draws none and names none.
#[test]
fn s002_trenches_are_drawn_on_the_board_picture_and_the_text_board() {
    let st = game(&["C4", "E5"]);
    let pic = svg(&st);
    assert!(pic.contains(r#"class="trench" data-square="C4""#), "{pic}");
    assert!(pic.contains(r#"class="trench" data-square="E5""#), "{pic}");
    assert!(pic.contains(">trench</text>"), "the legend names them");
    let text = dustmail::dust_tactics::view::board_text(&st);
    assert!(text.contains("% trench"), "{text}");
    let row4 = text
        .lines()
        .find(|l| l.trim_start().starts_with("4 "))
        .expect("row 4");
    assert!(row4.contains(" % "), "{row4}");
    let none = game(&[]);
    let pic = svg(&none);
    assert!(!pic.contains("trench"), "{pic}");
    assert!(!dustmail::dust_tactics::view::board_text(&none).contains("trench"));
}
