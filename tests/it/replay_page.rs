//! Issue 16 item 8: the replay page steps through the game (previous, next, arrow keys, a
//! slider), folds the steps where nothing visible happened, and draws each distinct board once.
//! The stepping is checked by clicking and typing in headless Chromium through chromedriver.

use crate::browser::{browser_tests_wanted, demo, dustmail};
use crate::support::dt::{self, InProc};
use crate::support::webdriver::{Browser, ARROW_LEFT, ARROW_RIGHT, END};
use dustmail::dust_tactics::bot::Style;
use std::collections::BTreeSet;
use std::path::Path;

fn page_of(home: &Path, game: &str, out: &Path) -> String {
    let o = dustmail(home, &["replay", game, "--html", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(out).unwrap()
}

/// The sections of the page, in order: (id number, its HTML).
fn sections(page: &str) -> Vec<(usize, String)> {
    page.split("<section class=\"step")
        .skip(1)
        .map(|s| {
            let n = s
                .split("id=\"s")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .and_then(|n| n.parse().ok())
                .expect("a section has an id sN");
            (n, s.split("</section>").next().unwrap_or("").to_string())
        })
        .collect()
}

/// Issue 16 item 8: identical boards are drawn once; every other step points at the step
/// that drew its board, and that step really holds a picture.
#[test]
fn each_distinct_board_is_drawn_once_and_every_step_has_one() {
    let (d, h) = demo();
    let page = page_of(&h, "g-demo", &d.path().join("replay.html"));
    let secs = sections(&page);
    assert!(secs.len() > 5, "{} sections", secs.len());
    let mut drawn = BTreeSet::new();
    let mut boards = BTreeSet::new();
    for (n, s) in &secs {
        if let Some(svg) = s.split("<svg ").nth(1) {
            assert!(s.contains(&format!("id=\"board-{n}\"")), "step {n}");
            drawn.insert(*n);
            assert!(
                boards.insert(svg.to_string()),
                "step {n} draws a board drawn before"
            );
        } else {
            let of: usize = s
                .split("data-board=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .and_then(|x| x.parse().ok())
                .unwrap_or_else(|| panic!("step {n} has neither a board nor a pointer to one"));
            assert!(
                drawn.contains(&of),
                "step {n} points at step {of}, which drew none"
            );
            assert!(s.contains("The board is as after"), "step {n}");
        }
    }
    assert_eq!(page.matches("<svg ").count(), boards.len());
    // The stepper's controls are there; without scripts the page still reads top to bottom.
    for id in ["id=\"prev\"", "id=\"next\"", "id=\"slider\"", "<script>"] {
        assert!(page.contains(id), "no {id}");
    }
}

/// A game whose first step is quiet (allies only set a standing order, which no other reader
/// sees) followed by a few steps the bots play; the replay page of it.
fn quiet_game(d: &Path) -> (std::path::PathBuf, String) {
    let home = dt::init_home(&d.join("home"), "file");
    let ps = dt::players(7);
    dt::new_game(&home, "g-quiet", &ps, 3);
    let env = InProc::open(&home);
    let allies = &ps[0];
    let m = dt::mail(
        &allies.address,
        "q1@players.example",
        &allies.key,
        &dt::orders("g-quiet", "allies", 1, "standing react any ask"),
    );
    std::fs::write(home.maildir().join("new/q1.eml"), m).unwrap();
    env.run("2026-03-01T10:00:00Z");
    let mut bots = dt::Bots::new("g-quiet", &ps, |_| Style::Aggressive);
    for _ in 0..4 {
        let g = env.load("g-quiet");
        let Some((name, mail)) = bots.next_mail(&g) else {
            break;
        };
        std::fs::write(home.maildir().join("new").join(name), mail).unwrap();
        env.run("2026-03-01T11:00:00Z");
    }
    let page = page_of(&home.root, "g-quiet", &d.join("replay.html"));
    (d.join("replay.html"), page)
}

/// Issue 16 item 8: a step that changed nothing anyone can see (here a side's standing order)
/// is marked quiet, and the stepper offers to show it.
#[test]
fn a_step_where_nothing_visible_happened_is_marked_quiet() {
    let d = tempfile::tempdir().unwrap();
    let (_, page) = quiet_game(d.path());
    let secs = sections(&page);
    assert!(secs.len() >= 4, "{} steps", secs.len());
    let quiet: Vec<usize> = page
        .split("<section class=\"step quiet\" id=\"s")
        .skip(1)
        .filter_map(|r| r.split('"').next()?.parse().ok())
        .collect();
    assert_eq!(quiet, vec![1], "the standing order is the one quiet step");
    assert!(secs[1].1.contains("Nothing visible happened."));
    assert!(
        page.contains("show the 1 quiet step</label>"),
        "the stepper offers it"
    );
}

/// Issue 16 item 8, in Chromium: Next skips the quiet step and shows the next board, the left
/// arrow goes back, the checkbox lets Next stop at the quiet step (its board copied in from the
/// step that drew it), the slider's End key goes to the last step; one board is in view.
#[test]
fn clicking_next_and_pressing_keys_step_through_the_game_in_chromium() {
    if !browser_tests_wanted() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let (file, page) = quiet_game(d.path());
    let last = sections(&page).len() - 1;
    let b = Browser::start(1000, 1300);
    b.open(&format!("file://{}", file.display()));
    let current = || {
        let v = b.eval(
            "var c = document.querySelectorAll('section.step.current');\
             return [c.length, c[0].id, document.getElementById('where').textContent,\
             c[0].querySelector('.board') ? c[0].querySelector('.board').innerHTML.length : 0,\
             document.getElementById('next').disabled];",
        );
        assert_eq!(v[0], 1, "exactly one step in view: {v}");
        (
            v[1].as_str().unwrap().to_string(),
            v[2].as_str().unwrap().to_string(),
            v[3].as_u64().unwrap(),
            v[4].as_bool().unwrap(),
        )
    };
    let (id, at, board0, _) = current();
    assert_eq!((id.as_str(), at.as_str()), ("s0", "Start"));
    assert!(board0 > 1000, "the start shows its board");
    let svg_in_view = || {
        b.eval("return document.querySelector('section.step.current svg').outerHTML;")
            .as_str()
            .unwrap()
            .to_string()
    };
    let start_svg = svg_in_view();

    b.click("#next");
    let (id, at, _, _) = current();
    assert_eq!(id, "s2", "Next skips the quiet step 1");
    assert!(at.starts_with(&format!("Step 2 of {last}")), "{at}");
    // The steps after it (the initiative, then moves and fire) come one per click, and the board
    // in view changes with them.
    let mut seen = vec![id];
    while svg_in_view() == start_svg {
        let (_, _, _, next_disabled) = current();
        assert!(
            !next_disabled,
            "clicking next never changed the board: {seen:?}"
        );
        b.click("#next");
        seen.push(current().0);
    }
    let expected: Vec<String> = (2..2 + seen.len()).map(|n| format!("s{n}")).collect();
    assert_eq!(seen, expected, "one step per click");

    // The left arrow goes back one step at a time, over the quiet step again.
    let mut back = vec!["s0".to_string()];
    back.extend(seen.iter().cloned());
    back.pop();
    for want in back.iter().rev() {
        b.press(ARROW_LEFT);
        assert_eq!(&current().0, want, "the left arrow goes back");
    }

    b.click("#showquiet");
    b.click("#next");
    let (id, _, board, _) = current();
    assert_eq!(id, "s1", "with quiet steps shown, Next stops at step 1");
    assert!(board > 1000, "the quiet step's board is copied in");
    b.press(ARROW_RIGHT);
    assert_eq!(current().0, "s2");

    b.send_keys("#slider", END);
    let (id, _, _, next_disabled) = current();
    assert_eq!(
        id,
        format!("s{last}"),
        "End on the slider goes to the last step"
    );
    assert!(next_disabled, "nothing after the last step");

    // The address names a step: opening replay.html#s2 shows step 2, at the top of the page.
    b.open("about:blank");
    b.open(&format!("file://{}#s2", file.display()));
    assert_eq!(current().0, "s2", "the address names the step in view");
    assert_eq!(
        b.eval("return window.scrollY;"),
        0,
        "the page opens at its top"
    );
    b.send_keys("#slider", END);

    // The screenshot holds one board, not a long scroll of them.
    let shot = b.screenshot();
    let dec = png::Decoder::new(std::io::Cursor::new(shot));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    let ch = info.color_type.samples();
    let px: Vec<[u8; 3]> = buf[..info.buffer_size()]
        .chunks(ch)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let (x0, y0, x1, y1, n) = crate::browser::find(info.width, &px, crate::browser::OPEN);
    eprintln!("board {x0},{y0}..{x1},{y1}: {n} px");
    // 6 squares of 60 px wide; open squares in rows 2 to 5 high (rows 1 and 6 are the tinted
    // entry zones, issue 16 item 2).
    assert!((352..=364).contains(&(x1 - x0)), "board {x0}..{x1} wide");
    assert!(
        (232..=244).contains(&(y1 - y0)),
        "one board high: {y0}..{y1}"
    );
}
