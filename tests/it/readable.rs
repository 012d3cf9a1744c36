//! Issue 16, readable reports (items 5 and 6).
//!
//! Issue 16 item 6: the HTML mails fit a phone. Each HTML part (the welcome mail, a mid-game
//! report, the end mail and `show --format html`) is opened in headless Chromium in a frame
//! 390 px wide (a phone) and 1,200 px wide (a desktop). Headless Chromium does not make a
//! window narrower than 500 px, so the page is measured inside an iframe of the exact width: a
//! script of the test's own wrapper (never of the mail) reads the frame's scroll width and the
//! board picture's box. Screenshots are kept in target/tmp/ (`phone-*.png`) for people to look at.

use super::browser::{browser_tests_wanted, chromium, demo, dustmail, find, OPEN};
use mail_parser::{MessageParser, MimeHeaders};
use std::path::{Path, PathBuf};

const WIDTHS: [u32; 2] = [390, 1200];

/// The HTML part of a mail the demo game sent, its inline board picture made a `data:` URI
/// (Chromium cannot follow `cid:` from a file).
fn sent_html(home: &Path, file: &str) -> String {
    let raw = std::fs::read(home.join("sent").join(file)).unwrap();
    let m = MessageParser::default().parse(&raw).unwrap();
    let mut html = m.body_html(0).expect("an HTML part").into_owned();
    if let Some(img) = m
        .parts
        .iter()
        .find(|p| p.content_id() == Some(dustmail::report::BOARD_CID))
    {
        html = html.replace(
            &format!("cid:{}", dustmail::report::BOARD_CID),
            &dustmail::report::data_uri(img.contents()),
        );
    }
    html
}

/// The page loaded in a `srcdoc` iframe of `width` px (2,600 px tall: the welcome mail's
/// briefing and defaults come before the board), measured after load: the frame's
/// scroll width and inner width, the board picture's box, and the elements that stick out.
fn wrapper(html: &str, width: u32) -> String {
    let escaped = html
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        r#"<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#000">
<iframe id="f" style="border:0;display:block;width:{width}px;height:2600px" srcdoc="{escaped}"></iframe>
<script>window.addEventListener("load", function () {{
  var f = document.getElementById("f"), d = f.contentDocument, w = f.contentWindow;
  var img = d.querySelector("img"), b = img ? img.getBoundingClientRect() : null;
  var over = [];
  d.querySelectorAll("body *").forEach(function (e) {{
    var r = e.getBoundingClientRect();
    if (r.right > w.innerWidth + 0.5 && e.children.length === 0)
      over.push(e.tagName + " " + (e.textContent || "").slice(0, 40));
  }});
  var p = document.createElement("pre");
  p.id = "measure";
  p.textContent = JSON.stringify({{scroll: d.documentElement.scrollWidth, inner: w.innerWidth,
    img: b ? [b.left, b.top, b.right, b.bottom] : null, over: over.slice(0, 10)}});
  document.body.appendChild(p);
}});</script></body></html>"#
    )
}

struct Measure {
    scroll: f64,
    inner: f64,
    img: Option<[f64; 4]>,
    over: Vec<String>,
}

fn measure(dir: &Path, name: &str, html: &str, width: u32) -> Measure {
    let page = dir.join(format!("phone-{name}-{width}.html"));
    std::fs::write(&page, wrapper(html, width)).unwrap();
    let window = format!("--window-size={},2650", width.max(500) + 20);
    let o = chromium(&[&window, "--dump-dom"], &page);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dom = String::from_utf8_lossy(&o.stdout).into_owned();
    let json = dom
        .split("<pre id=\"measure\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .unwrap_or_else(|| panic!("{name} at {width} px: the page was not measured: {dom}"));
    let v: serde_json::Value = serde_json::from_str(&json.replace("&quot;", "\"")).unwrap();
    let num = |x: &serde_json::Value| x.as_f64().unwrap();
    Measure {
        scroll: num(&v["scroll"]),
        inner: num(&v["inner"]),
        img: v["img"].as_array().map(|a| {
            let n: Vec<f64> = a.iter().map(num).collect();
            [n[0], n[1], n[2], n[3]]
        }),
        over: v["over"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap_or("").to_string())
            .collect(),
    }
}

/// The screenshot of the frame: the board's open squares lie inside the frame's width.
fn board_in_screenshot(dir: &Path, name: &str, html: &str, width: u32) {
    let page = dir.join(format!("phone-{name}-{width}-shot.html"));
    std::fs::write(&page, wrapper(html, width)).unwrap();
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("phone-{name}-{width}.png"));
    let _ = std::fs::remove_file(&shot);
    let window = format!("--window-size={},2650", width.max(500) + 20);
    let o = chromium(
        &[&window, &format!("--screenshot={}", shot.display())],
        &page,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&shot).expect("chromium wrote no screenshot");
    let mut r = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    let ch = info.color_type.samples();
    let px: Vec<[u8; 3]> = buf[..info.buffer_size()]
        .chunks(ch)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let (x0, y0, x1, y1, n) = find(info.width, &px, OPEN);
    assert!(
        n > 10_000,
        "{name} at {width} px: only {n} board pixels in the screenshot {}",
        shot.display()
    );
    assert!(
        x1 < width && x1 > x0 && y1 > y0,
        "{name} at {width} px: board at {x0},{y0}..{x1},{y1}, outside the {width} px frame"
    );
}

fn check(dir: &Path, name: &str, html: &str, board: bool) {
    for width in WIDTHS {
        let m = measure(dir, name, html, width);
        assert_eq!(
            m.inner,
            f64::from(width),
            "{name}: the frame is not {width} px"
        );
        assert!(
            m.scroll <= m.inner,
            "{name} at {width} px: scrolls sideways ({} px of content in {} px); sticking out: {:?}",
            m.scroll,
            m.inner,
            m.over
        );
        if board {
            let [l, t, r, b] = m.img.unwrap_or_else(|| panic!("{name}: no board picture"));
            assert!(
                l >= 0.0 && r <= m.inner && r - l > 100.0 && b - t > 100.0,
                "{name} at {width} px: board picture at {l},{t}..{r},{b}"
            );
            board_in_screenshot(dir, name, html, width);
        }
    }
}

/// Issue 16 item 6: the welcome mail, a mid-game report, the end mail and the `show` page have
/// no horizontal scroll at 390 px nor at 1,200 px, and the board is visible at both.
#[test]
fn html_mails_fit_a_phone_and_a_desktop() {
    if !browser_tests_wanted() {
        return;
    }
    let (d, h) = demo();
    let show = dustmail(&h, &["show", "g-demo", "--format", "html", "--as", "axis"]);
    assert!(show.status.success());
    let show = String::from_utf8(show.stdout).unwrap();
    let mails = [
        ("welcome", sent_html(&h, "g-demo-1-welcome-axis.eml"), true),
        ("report", sent_html(&h, "g-demo-5-report-axis.eml"), true),
        ("end", sent_html(&h, "g-demo-15-end-axis.eml"), false),
        ("show", show, true),
    ];
    for (name, html, board) in &mails {
        check(d.path(), name, html, *board);
    }
}

/// The text and HTML parts of a mail in `sent/`.
fn sent_parts(home: &Path, file: &str) -> (String, String) {
    let raw = std::fs::read(home.join("sent").join(file)).unwrap();
    let m = MessageParser::default().parse(&raw).unwrap();
    (
        m.body_text(0).expect("a text part").into_owned(),
        m.body_html(0).expect("an HTML part").into_owned(),
    )
}

/// Issue 16 item 5 (times): deadlines are shown to the minute with the time left, counted from
/// the run's clock, in the text and HTML parts of reports and reminders; `show --format json`
/// keeps the RFC 3339 time.
#[test]
fn deadlines_are_shown_to_the_minute_with_the_time_left() {
    let (_d, h) = demo();
    // A mid-game report of the demo: the next decision's deadline and the time left.
    let (text, html) = sent_parts(&h, "g-demo-5-report-axis.eml");
    for part in [&text, &html] {
        assert!(
            part.contains("deadline 2026-01-04 13:00 UTC (in "),
            "no readable deadline in {part}"
        );
        assert!(!part.contains("T13:00:00"), "a raw RFC 3339 time in {part}");
    }
    // A reminder, 71 hours into a 72-hour deadline (the players of the demo game).
    let log = std::fs::read_to_string(h.join("games/g-demo/log.jsonl")).unwrap();
    let created: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    let mut args: Vec<String> = [
        "new",
        "--scenario",
        "skirmish",
        "--id",
        "g-wait",
        "--now",
        "2026-02-01T09:00:00Z",
    ]
    .map(String::from)
    .to_vec();
    for p in created["players"].as_array().unwrap() {
        args.push("--player".into());
        args.push(format!(
            "{}={}:{}",
            p["side"].as_str().unwrap(),
            p["address"].as_str().unwrap(),
            p["public_key"].as_str().unwrap()
        ));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = dustmail(&h, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = dustmail(&h, &["run", "--now", "2026-02-04T07:48:30Z"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let reminder = std::fs::read_dir(h.join("sent"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .find(|n| n.starts_with("g-wait") && n.contains("reminder"))
        .expect("a reminder of game g-wait");
    let (text, html) = sent_parts(&h, &reminder);
    assert!(
        text.contains("Deadline: 2026-02-04 09:00 UTC (in 1 hour 11 minutes)."),
        "{text}"
    );
    assert!(
        html.contains("Deadline: <b>2026-02-04 09:00 UTC (in 1 hour 11 minutes)</b>"),
        "{html}"
    );
    // The machine-readable view keeps the exact time.
    let o = dustmail(&h, &["show", "g-wait", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["awaiting_players"][0]["deadline"], "2026-02-04T09:00:00+00:00",
        "{v}"
    );
}

/// Issue 16 item 5 (dice): each die of a report and a receipt is marked hit or miss as the
/// game's ruleset reads it (ffg-revised: 1 and 2 hit), in the text and the HTML part.
#[test]
fn dice_are_marked_hit_or_miss() {
    let (_d, h) = demo();
    // The demo's first axis orders: ludwig fires at-gun-1 with a sustained re-roll.
    let (text, html) = sent_parts(&h, "g-demo-5-report-axis.eml");
    assert!(
        text.contains("dice, attack at-gun-1 (round 1 key): [2 hit] [4 miss]"),
        "{text}"
    );
    assert!(
        text.contains("dice, sustained re-roll at-gun-1 (round 1 key): [1 hit]"),
        "{text}"
    );
    assert!(html.contains("<b>2</b> hit</span>"), "{html}");
    assert!(html.contains(">4 miss</span>"), "{html}");
    // Axis sent these orders: since issue 17 item 3 the receipt heads this report, and the
    // receipt's dice are the report's (not repeated).
    assert!(text.contains("received and applied"), "{text}");
}
