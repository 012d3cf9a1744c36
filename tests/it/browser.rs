//! The HTML report and the replay page opened in headless Chromium (Debian's `chromium`, which
//! scripts/test.sh installs): the page loads without errors and the screenshot shows the board.
//! Screenshots are kept in target/tmp/ (`browser-*.png`) for people to look at.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";

pub(crate) fn dustmail(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .env_remove("DUSTMAIL_HOME")
        .arg("--home")
        .arg(home)
        .args(args)
        .output()
        .unwrap()
}

/// Issue 10 finding 19: whether to run these tests. They run unless DUSTMAIL_BROWSER_TESTS=0 is
/// set in so many words (then the skip is said on stderr); a missing Chromium otherwise fails the
/// test with what to install, not a bare panic deep inside a helper.
pub(crate) fn browser_tests_wanted() -> bool {
    if std::env::var("DUSTMAIL_BROWSER_TESTS").as_deref() == Ok("0") {
        eprintln!("skipped: DUSTMAIL_BROWSER_TESTS=0 is set, so the Chromium tests do not run");
        return false;
    }
    if !Path::new(CHROMIUM).exists() {
        panic!(
            "Chromium is absent ({CHROMIUM} does not exist), so the report cannot be opened in a \
             browser. Install it with `sudo apt-get install chromium` (scripts/test.sh does this), \
             or set DUSTMAIL_BROWSER_TESTS=0 to skip these tests on purpose."
        );
    }
    true
}

pub(crate) fn chromium(extra: &[&str], page: &Path) -> Output {
    let profile = tempfile::tempdir().unwrap();
    Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1000,1400",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap()
}

/// Screenshot, DOM and log of a page; fails on console errors or failed loads.
fn open(page: &Path, name: &str) -> (u32, u32, Vec<[u8; 3]>, String) {
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("browser-{name}.png"));
    let _ = std::fs::remove_file(&shot);
    let o = chromium(
        &[
            &format!("--screenshot={}", shot.display()),
            "--enable-logging=stderr",
            "--v=0",
        ],
        page,
    );
    assert!(
        o.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let log = String::from_utf8_lossy(&o.stderr).into_owned();
    for line in log.lines() {
        // D-Bus and GPU noise of a headless machine is not about the page.
        let about_page = line.contains("CONSOLE")
            || line.contains("Uncaught")
            || line.contains("net::ERR")
            || line.contains("Failed to load");
        assert!(!about_page, "the page logged an error: {line}");
    }
    let dom = chromium(&["--dump-dom"], page);
    assert!(dom.status.success());
    let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
    let bytes = std::fs::read(&shot).expect("chromium wrote no screenshot");
    let dec = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    let ch = info.color_type.samples();
    let px = buf[..info.buffer_size()]
        .chunks(ch)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    (info.width, info.height, px, dom)
}

fn near(p: [u8; 3], rgb: [u8; 3]) -> bool {
    p.iter().zip(rgb).all(|(a, b)| a.abs_diff(b) <= 4)
}

/// Bounding box (x0, y0, x1, y1) of the rows and columns holding at least 40 pixels near `rgb`
/// (so a legend swatch does not count), and the count of all such pixels.
pub(crate) fn find(w: u32, px: &[[u8; 3]], rgb: [u8; 3]) -> (u32, u32, u32, u32, usize) {
    let h = px.len() as u32 / w.max(1);
    let mut cols = vec![0usize; w as usize];
    let mut rows = vec![0usize; h as usize];
    let mut n = 0;
    for (i, p) in px.iter().enumerate() {
        if near(*p, rgb) {
            cols[i % w as usize] += 1;
            rows[i / w as usize] += 1;
            n += 1;
        }
    }
    let span = |v: &[usize]| {
        let first = v.iter().position(|c| *c >= 40).unwrap_or(0) as u32;
        let last = v.iter().rposition(|c| *c >= 40).unwrap_or(0) as u32;
        (first, last)
    };
    let ((x0, x1), (y0, y1)) = (span(&cols), span(&rows));
    (x0, y0, x1, y1, n)
}

pub(crate) fn demo() -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let h = d.path().join("home");
    let o = dustmail(&h, &["demo"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (d, h)
}

/// Open squares are drawn #ece4cc; a 6×6 board's squares span 6 × 60 px (issue 16 item 7: was
/// 48). The skirmish's entry zones (rows 1 and 6) are tinted, so its plain open squares span
/// rows 2 to 5: 4 × 60 px high.
pub(crate) const OPEN: [u8; 3] = [0xec, 0xe4, 0xcc];

#[test]
fn html_report_loads_in_chromium_and_shows_the_board() {
    if !browser_tests_wanted() {
        return;
    }
    let (d, h) = demo();
    let o = dustmail(&h, &["show", "g-demo", "--format", "html", "--as", "axis"]);
    assert!(o.status.success());
    let page = d.path().join("report.html");
    std::fs::write(&page, &o.stdout).unwrap();
    let (w, _, px, dom) = open(&page, "report");
    assert!(dom.contains("Roster") && dom.contains("ludwig"), "{dom}");
    // Not blank: the page has a board, text and colours.
    let distinct: std::collections::BTreeSet<[u8; 3]> = px.iter().copied().collect();
    assert!(distinct.len() > 50, "a nearly blank screenshot");
    // The board picture is visible where the page places it: below the title bar, 360 px of
    // squares wide (rows 2 to 5 of open squares high), in the content column.
    let (x0, y0, x1, y1, n) = find(w, &px, OPEN);
    assert!(n > 20_000, "only {n} board pixels");
    assert!((352..=364).contains(&(x1 - x0)), "board {x0}..{x1} wide");
    assert!((232..=244).contains(&(y1 - y0)), "board {y0}..{y1} high");
    assert!(y0 > 150 && x0 > 100, "board at {x0},{y0}");
    // Both sides' counters (axis red is full colour: its unit was the target).
    assert!(find(w, &px, [0x00, 0x72, 0xb2]).4 > 20, "no allies colour");
}

#[test]
fn replay_page_loads_in_chromium_and_shows_the_first_steps_board() {
    if !browser_tests_wanted() {
        return;
    }
    let (d, h) = demo();
    let page = d.path().join("replay.html");
    let o = dustmail(&h, &["replay", "g-demo", "--html", page.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (w, _, px, dom) = open(&page, "replay");
    // One board for the start and one for each step the ledger records.
    let log = std::fs::read_to_string(h.join("games/g-demo/log.jsonl")).unwrap();
    let steps = log
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|j| (j["kind"] == "submission" && j["accepted"] == true) || j["kind"] == "deadline")
        .count();
    assert!(steps > 5, "the demo game has only {steps} steps");
    // A section for the start and each step; each distinct board drawn once (issue 16 item 8).
    assert_eq!(
        dom.matches("<section class=\"step").count(),
        1 + steps,
        "a section for the start and each step"
    );
    let page_text = std::fs::read_to_string(&page).unwrap();
    assert_eq!(
        dom.matches("<svg").count(),
        page_text.matches("<svg ").count(),
        "the boards the page draws"
    );
    assert!(
        dom.contains("Result: "),
        "no result on a finished game's page"
    );
    let (x0, y0, x1, _, n) = find(w, &px, OPEN);
    // The stepper shows one step, so one board is in view (issue 16 item 8).
    assert!(n > 15_000, "only {n} board pixels: no board in view");
    assert!((352..=364).contains(&(x1 - x0)), "boards {x0}..{x1} wide");
    assert!(y0 > 100, "board at {x0},{y0}, under the header");
    assert!(find(w, &px, [0xe6, 0x9f, 0x00]).4 > 100, "no axis counter");
}
