//! Board reports (issue 5): the mails a finished demo game sent, read back from `sent/` as a
//! player's mail client would (text part, HTML part, inline and attached board picture), the
//! `show` renderings and the end-of-game audit instructions.

use crate::support::flat;
use mail_parser::{MessageParser, MimeHeaders};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn dustmail(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .env_remove("DUSTMAIL_HOME")
        .arg("--home")
        .arg(home)
        .args(args)
        .output()
        .unwrap()
}

/// One demo game for the whole file (it takes seconds): a refusal and a reminder are added
/// after it (an unsigned mail; a second game left waiting past its reminder time).
fn home() -> &'static Path {
    static HOME: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &HOME
        .get_or_init(|| {
            let d = tempfile::tempdir().unwrap();
            let h = d.path().join("home");
            let o = dustmail(&h, &["demo"]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            // A second game with the demo's players, waiting for its first decision.
            let log = std::fs::read_to_string(h.join("games/g-demo/log.jsonl")).unwrap();
            let created: serde_json::Value =
                serde_json::from_str(log.lines().next().unwrap()).unwrap();
            let players: Vec<String> = created["players"]
                .as_array()
                .expect("players in the created line")
                .iter()
                .map(|p| {
                    format!(
                        "{}={}:{}",
                        p["side"].as_str().unwrap(),
                        p["address"].as_str().unwrap(),
                        p["public_key"].as_str().unwrap()
                    )
                })
                .collect();
            let mut args = vec!["new", "--scenario", "skirmish", "--id", "g-wait"];
            args.extend(["--seed", "0101010101010101010101010101010101010101010101010101010101010101"]);
            args.extend(["--now", "2026-02-01T09:00:00Z"]);
            for p in &players {
                args.extend(["--player", p.as_str()]);
            }
            let o = dustmail(&h, &args);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            std::fs::write(
                h.join("maildir/new/hello.eml"),
                "From: allies@demo.example\r\nTo: referee@demo.example\r\nSubject: hi\r\nMessage-ID: <hello@demo.example>\r\n\r\nWhat now?\r\n",
            )
            .unwrap();
            // 71 hours after creation: inside the reminder window of the 72-hour deadline.
            let o = dustmail(&h, &["run", "--now", "2026-02-04T08:00:00Z"]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            (d, h)
        })
        .1
}

/// The demo ledger's lines as JSON.
fn ledger() -> Vec<serde_json::Value> {
    std::fs::read_to_string(home().join("games/g-demo/log.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The seq of the last accepted submission (its mails carry the end of the game).
fn last_step() -> u64 {
    ledger()
        .iter()
        .filter(|e| e["kind"] == "submission" && e["accepted"] == true)
        .filter_map(|e| e["seq"].as_u64())
        .max()
        .unwrap()
}

/// The first accepted step after round 1 whose first roll is an attack: a report of it shows
/// dice, a revealed round key and the decision that follows.
fn attack_step() -> (u64, serde_json::Value) {
    ledger()
        .into_iter()
        .filter(|e| e["kind"] == "submission" && e["accepted"] == true)
        .find_map(|e| {
            let roll = e["happenings"]
                .as_array()?
                .iter()
                .flat_map(|h| h["rolls"].as_array().cloned().unwrap_or_default())
                .find(|r| {
                    r["purpose"].as_str().unwrap_or("").starts_with("attack")
                        && r["round"].as_u64() >= Some(2)
                })?;
            Some((e["seq"].as_u64()?, roll))
        })
        .expect("the demo has an attack after round 1")
}

fn mail_id(kind: &str, seq: u64, who: &str) -> String {
    if who.is_empty() {
        format!("g-demo-{seq}-{kind}")
    } else {
        format!("g-demo-{seq}-{kind}-{who}")
    }
}

/// A sent mail by outbox id: raw bytes.
fn raw(id: &str) -> Vec<u8> {
    let p = home().join("sent").join(format!("{id}.eml"));
    std::fs::read(&p).unwrap_or_else(|e| {
        let names: Vec<String> = std::fs::read_dir(home().join("sent"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        panic!("{}: {e}; sent/ has {names:?}", p.display())
    })
}

struct Parsed {
    text: String,
    html: String,
    /// (file name, content id, bytes)
    parts: Vec<(String, Option<String>, Vec<u8>)>,
}

fn parse(id: &str) -> Parsed {
    let bytes = raw(id);
    let m = MessageParser::default().parse(&bytes).unwrap();
    Parsed {
        text: m.body_text(0).unwrap().replace("\r\n", "\n"),
        html: m.body_html(0).unwrap().replace("\r\n", "\n"),
        parts: m
            .attachments()
            .map(|a| {
                (
                    a.attachment_name().unwrap_or("").to_string(),
                    a.content_id().map(str::to_string),
                    a.contents().to_vec(),
                )
            })
            .collect(),
    }
}

/// Player keys are made fresh by each demo, so public keys and everything signed (ledger
/// hashes, signatures) differ between runs: redacted. Dates come from the demo's fixed clock.
fn redact(s: &str) -> String {
    let mut out = String::new();
    for line in s.split_inclusive('\n') {
        let mut l = line.to_string();
        for (marker, end) in [
            ("Ledger-Head: ", "<br>"),
            ("Ledger-Head-Signature: ", "</p>"),
        ] {
            if let Some(i) = l.find(marker) {
                let from = i + marker.len();
                let to = l[from..]
                    .find(end)
                    .map(|j| from + j)
                    .unwrap_or_else(|| l.trim_end_matches(['\n', '\r']).len());
                l.replace_range(from..to, "[redacted]");
            }
        }
        while let Some(i) = l.find("ed25519:") {
            let from = i + "ed25519:".len();
            // Base64, with `/` escaped as `&#x2f;` in HTML.
            let mut len = 0;
            let rest = &l[from..];
            while len < rest.len() {
                if rest[len..].starts_with("&#x2f;") {
                    len += 6;
                } else if rest[len..].starts_with(|c: char| {
                    c.is_ascii_alphanumeric() || c == '+' || c == '/' || c == '='
                }) {
                    len += 1;
                } else {
                    break;
                }
            }
            l.replace_range(i..from + len, "ED25519[redacted]");
        }
        out.push_str(&l);
    }
    out
}

fn snap(name: &str, id: &str) {
    let p = parse(id);
    insta::assert_snapshot!(format!("{name}-text"), redact(&p.text));
    insta::assert_snapshot!(format!("{name}-html"), redact(&p.html));
}

// Snapshots of every template pair, as sent.
#[test]
fn welcome_mail_snapshot() {
    snap("welcome", "g-demo-1-welcome-axis");
}
/// The side that sent the attack step's orders, and the other side.
fn attack_sides() -> (String, String) {
    let seq = attack_step().0;
    let sender = ledger()
        .into_iter()
        .find(|e| e["seq"].as_u64() == Some(seq))
        .and_then(|e| e["side"].as_str().map(str::to_string))
        .expect("the attack step names its side");
    let other = if sender == "axis" { "allies" } else { "axis" };
    (sender, other.to_string())
}
// Issue 17 item 3: the receipt heads the sender's report; the other side gets the report alone.
#[test]
fn receipt_mail_snapshot() {
    snap(
        "receipt",
        &mail_id("report", attack_step().0, &attack_sides().0),
    );
}
#[test]
fn report_mail_snapshot() {
    snap(
        "report",
        &mail_id("report", attack_step().0, &attack_sides().1),
    );
}
#[test]
fn end_mail_snapshot() {
    snap("end", &mail_id("end", last_step(), "axis"));
}
#[test]
fn refusal_mail_snapshot() {
    let sent: Vec<String> = std::fs::read_dir(home().join("sent"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("rejected-"))
        .collect();
    assert_eq!(sent.len(), 1, "one refusal for the unsigned mail: {sent:?}");
    snap("refusal", sent[0].trim_end_matches(".eml"));
}
#[test]
fn reminder_mail_snapshot() {
    snap("reminder", "g-wait-1-reminder-allies");
}

#[test]
fn report_text_has_grid_roster_dice_keys_awaited_decision_and_orders_template() {
    let (seq, roll) = attack_step();
    let t = parse(&mail_id("report", seq, "axis")).text;
    // Grid with column letters and row numbers, and its legend.
    assert!(t.contains("     A  B  C  D  E  F"), "{t}");
    assert!(t.contains("\n  6  "), "{t}");
    assert!(t.contains("Terrain: . open"), "{t}");
    // Roster: every unit, models or health, activated or not.
    for unit in ["rangers", "pounder", "grenadiers", "ludwig"] {
        assert!(
            t.contains(&format!("\n  {unit} ")),
            "roster lacks {unit}: {t}"
        );
    }
    assert!(t.contains("models"), "{t}");
    // The step with its event id and every die, named by purpose and round key.
    assert!(t.contains(&format!("Event {seq} (orders of side ")), "{t}");
    let round = roll["round"].as_u64().unwrap();
    // Issue 16 item 5: each die marked as the ruleset reads it (ffg-revised: 1 and 2 hit).
    let faces: Vec<String> = roll["faces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| marked(f.as_u64().unwrap()))
        .collect();
    assert!(
        t.contains(&format!(
            "dice, {} (round {round} key): {}",
            roll["purpose"].as_str().unwrap(),
            faces.join(" ")
        )),
        "{t}"
    );
    // A round that ended with this step has its key revealed in the report.
    for e in ledger()
        .iter()
        .skip_while(|e| e["seq"].as_u64() != Some(seq))
        .skip(1)
        .take_while(|e| e["kind"] == "round_end")
    {
        let r = e["round"].as_u64().unwrap();
        assert!(t.contains(&format!("K_{r} = ")), "K_{r} not revealed: {t}");
    }
    // Whose decision is awaited, by when; the reader's own orders template.
    assert!(t.contains(", deadline 2026-"), "{t}");
    assert!(t.contains("game: g-demo\nside: axis\nseq: "), "{t}");
}

/// A reader who never saw the game can follow it: the reports to one side, in order, tell
/// every happening of every step of the ledger with its dice.
#[test]
fn reports_to_one_side_tell_every_happening_and_die_of_the_ledger() {
    let log = std::fs::read_to_string(home().join("games/g-demo/log.jsonl")).unwrap();
    let mut steps = 0;
    for line in log.lines() {
        let e: serde_json::Value = serde_json::from_str(line).unwrap();
        let seq = e["seq"].as_u64().unwrap();
        let ev = &e;
        let Some(hs) = ev["happenings"].as_array() else {
            continue;
        };
        if ev["accepted"] == serde_json::json!(false) {
            continue;
        }
        steps += 1;
        let t = parse(&format!("g-demo-{seq}-report-axis")).text;
        assert!(t.contains(&format!("Event {seq} (")), "{t}");
        // Sentences are wrapped at 72 characters (issue 16 item 1): compare words.
        let flat_t = flat(&t);
        for h in hs {
            let text = h["text"].as_str().unwrap();
            assert!(flat_t.contains(&flat(text)), "report {seq} lacks `{text}`");
            for r in h["rolls"].as_array().into_iter().flatten() {
                let faces: Vec<String> = r["faces"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| marked(f.as_u64().unwrap()))
                    .collect();
                // A roll's dice end its line, which may be wrapped: the faces, then a space.
                assert!(
                    flat_t.contains(&format!("key): {} ", faces.join(" "))),
                    "report {seq} lacks the dice {faces:?}"
                );
            }
        }
    }
    assert!(steps >= 10, "the demo has {steps} steps");
}

fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<[u8; 3]>) {
    let dec = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    let ch = info.color_type.samples();
    let px = buf[..info.buffer_size()]
        .chunks(ch)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    (info.width, info.height, px)
}

fn count(px: &[[u8; 3]], rgb: [u8; 3]) -> usize {
    px.iter()
        .filter(|p| p.iter().zip(rgb).all(|(a, b)| a.abs_diff(b) <= 6))
        .count()
}

#[test]
fn report_mail_carries_the_board_png_inline_and_attached() {
    let id = mail_id("report", attack_step().0, "axis");
    let bytes = raw(&id);
    let s = String::from_utf8_lossy(&bytes);
    assert!(
        s.contains("multipart/related"),
        "inline picture needs multipart/related"
    );
    let p = parse(&id);
    assert!(p.html.contains("src=\"cid:board@dustmail\""), "{}", p.html);
    let pngs: Vec<_> = p
        .parts
        .iter()
        .filter(|(_, _, b)| b.starts_with(b"\x89PNG"))
        .collect();
    assert_eq!(
        pngs.len(),
        2,
        "inline and attached: {:?}",
        p.parts.iter().map(|x| (&x.0, &x.1)).collect::<Vec<_>>()
    );
    assert!(pngs
        .iter()
        .any(|(_, cid, _)| cid.as_deref() == Some("board@dustmail")));
    assert_eq!(pngs[0].2, pngs[1].2);
    // 6×6 squares of 60 px with a 28 px margin each side (issue 16 item 7); the legend below.
    let (w, h, px) = decode_png(&pngs[0].2);
    assert_eq!(w, 2 * 28 + 6 * 60);
    assert!(h > w, "board plus legend: {w}×{h}");
    // Both sides' counters are drawn, in the Okabe–Ito palette (issue 16 item 7): allies blue
    // #0072b2, axis orange #e69f00.
    assert!(count(&px, [0x00, 0x72, 0xb2]) > 200, "no allies counter");
    assert!(count(&px, [0xe6, 0x9f, 0x00]) > 200, "no axis counter");
    assert!(
        bytes.len() < 200_000,
        "a report mail of {} bytes",
        bytes.len()
    );
}

#[test]
fn html_parts_have_no_scripts_and_no_external_resources() {
    for id in [
        "g-demo-1-welcome-axis".to_string(),
        mail_id("report", attack_step().0, "allies"),
        mail_id("report", attack_step().0, "axis"),
        mail_id("end", last_step(), "axis"),
        "g-wait-1-reminder-allies".to_string(),
    ] {
        let h = parse(&id).html.to_lowercase();
        assert!(!h.contains("<script"), "{id}");
        assert!(!h.contains("http://") && !h.contains("https://"), "{id}");
        assert!(!h.contains("<link"), "{id}");
        assert!(!h.contains("<style"), "{id}: inline styles only");
    }
}

#[test]
fn end_mail_gives_result_points_seed_and_an_audit_that_passes() {
    let p = parse(&mail_id("end", last_step(), "allies"));
    let t = &p.text;
    // The result and points exactly as the ledger's `finished` line has them.
    let fin = ledger()
        .into_iter()
        .find(|e| e["kind"] == "finished")
        .expect("the demo finishes");
    let result = &fin["result"];
    assert!(t.contains("Result: "), "{t}");
    assert!(t.contains(result["reason"].as_str().unwrap()), "{t}");
    for (side, points) in result["points"].as_object().unwrap() {
        assert!(
            t.contains(&format!("  {side:<10}{:>3}", points.as_u64().unwrap())),
            "{side} {points}: {t}"
        );
    }
    // The demo's seed is SHA-256("dustmail demo").
    use sha2::Digest as _;
    let seed = hex::encode(sha2::Sha256::digest(b"dustmail demo"));
    assert!(t.contains(&format!("S = {seed}")), "{t}");
    let log = p
        .parts
        .iter()
        .find(|(n, _, _)| n == "g-demo-log.jsonl")
        .expect("the ledger is attached");
    assert!(t.contains("dustmail audit g-demo-log.jsonl"), "{t}");
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("g-demo-log.jsonl");
    std::fs::write(&f, &log.2).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .arg("audit")
        .arg(&f)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("ok:"));
}

#[test]
fn show_renders_text_html_png_and_json_as_a_side() {
    let h = home();
    let text = dustmail(h, &["show", "g-demo", "--as", "axis"]);
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("You play side axis."), "{text}");
    assert!(
        text.contains("\nRoster (act. = activated this round):\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!("Event {} (orders of side ", last_step())),
        "{text}"
    );
    assert!(text.contains("The game is over: "), "{text}");

    let html = dustmail(h, &["show", "g-demo", "--format", "html", "--as", "allies"]);
    assert!(html.status.success());
    let html = String::from_utf8_lossy(&html.stdout);
    assert!(
        html.contains("src=\"data:image/png;base64,"),
        "the picture travels with the page"
    );
    assert!(html.contains("you play <b>allies</b>"), "{html}");

    let png = dustmail(h, &["show", "g-demo", "--format", "png", "--as", "allies"]);
    assert!(png.status.success());
    let (w, _, px) = decode_png(&png.stdout);
    assert_eq!(w, 2 * 28 + 6 * 60);
    // Every unit has activated in the last round (dimmed counters); the legend's swatch keeps
    // the side colour.
    assert!(count(&px, [0x00, 0x72, 0xb2]) > 30);

    let json = dustmail(h, &["show", "g-demo", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["game"], "g-demo");
    assert!(v["board"].is_object(), "the view carries the board");

    let bad = dustmail(h, &["show", "g-demo", "--as", "nobody"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--as nobody: no such side"));
}

#[test]
fn replay_html_steps_through_every_step_with_board_and_dice() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("replay.html");
    let o = dustmail(home(), &["replay", "g-demo", "--html", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(&f).unwrap();
    // The start plus one section per accepted step, each with a board.
    let steps = ledger()
        .iter()
        .filter(|e| (e["kind"] == "submission" && e["accepted"] == true) || e["kind"] == "deadline")
        .count();
    assert_eq!(page.matches("<section class=\"step\"").count(), 1 + steps);
    // Each distinct board once; a step whose board was drawn before points at it (issue 16
    // item 8, tests/it/replay_page.rs).
    assert_eq!(
        page.matches("<svg ").count() + page.matches("<div class=\"board\" data-board=").count(),
        1 + steps
    );
    assert!(page.contains("href=\"#s1\""), "steps link to each other");
    assert!(page.contains("Result: "), "end of the page");
    assert!(page.contains("<span class=\"die\">"), "dice shown");
    // Scripts are allowed on this page (issue 16 item 8: "scripts are fine here"), but it loads
    // nothing from elsewhere.
    assert!(!page.contains("<script src"), "no external scripts");
    assert!(!page.contains("src=\"http"), "self-contained");
}

#[test]
fn welcome_and_reminder_show_the_board_in_text_and_picture() {
    for id in ["g-demo-1-welcome-axis", "g-wait-1-reminder-allies"] {
        let p = parse(id);
        assert!(p.text.contains("     A  B  C  D  E  F"), "{id}: {}", p.text);
        assert!(p.html.contains("src=\"cid:board@dustmail\""), "{id}");
        assert!(
            p.parts
                .iter()
                .any(|(_, cid, b)| cid.as_deref() == Some("board@dustmail")
                    && b.starts_with(b"\x89PNG")),
            "{id}: no inline board"
        );
    }
}

#[test]
fn a_template_dir_overrides_single_templates_and_names_a_broken_one() {
    use dustmail::report::Templates;
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("report.txt"),
        "Custom: {{ game }} round {{ round }}",
    )
    .unwrap();
    std::fs::write(d.path().join("end.html"), "<p>{{ finished }}</p>").unwrap();
    let t = Templates::new(Some(d.path())).unwrap();
    let ctx = serde_json::json!({"game": "g-x", "round": 2, "finished": "a <draw>"});
    assert_eq!(t.render("report", &ctx).unwrap(), "Custom: g-x round 2");
    // HTML templates escape what they print.
    assert_eq!(t.render_html("end", &ctx).unwrap(), "<p>a &lt;draw&gt;</p>");
    // The others stay built in.
    assert!(t.render_html("report", &ctx).unwrap().contains("DUSTMAIL"));
    std::fs::write(d.path().join("receipt.html"), "{% if %}").unwrap();
    let e = Templates::new(Some(d.path())).err().unwrap().to_string();
    assert!(
        e.contains("receipt.html") && e.contains("fix the template file"),
        "{e}"
    );
}

/// The replay page draws, for each step, what the ledger says the step did: a movement path
/// for each move, a line of fire for each attack, a wreck where a unit was destroyed.
#[test]
fn replay_boards_draw_each_steps_moves_fire_and_wrecks_from_the_ledger() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("replay.html");
    let o = dustmail(home(), &["replay", "g-demo", "--html", f.to_str().unwrap()]);
    assert!(o.status.success());
    let page = std::fs::read_to_string(&f).unwrap();
    let log = std::fs::read_to_string(home().join("games/g-demo/log.jsonl")).unwrap();
    let mut checked = (0, 0, 0);
    for line in log.lines() {
        let e: serde_json::Value = serde_json::from_str(line).unwrap();
        let (Some(hs), Some(seq)) = (e["happenings"].as_array(), e["seq"].as_u64()) else {
            continue;
        };
        let texts: Vec<&str> = hs.iter().filter_map(|h| h["text"].as_str()).collect();
        let moves = texts.iter().filter(|t| t.contains(" moves to ")).count();
        let fires = texts.iter().filter(|t| t.contains(" fires ")).count();
        let wrecks = texts
            .iter()
            .filter(|t| t.contains(" is destroyed (") && !t.starts_with("the cover"))
            .count();
        let marker = format!("event {seq}: ");
        let section = page
            .split("<section class=\"step\"")
            .find(|s| s.contains(&marker))
            .unwrap_or_else(|| panic!("no section for event {seq}"));
        assert_eq!(
            section.matches("<g class=\"fire-").count(),
            fires,
            "event {seq}"
        );
        assert_eq!(
            section.contains("<g id=\"movement\">"),
            moves > 0,
            "event {seq}"
        );
        assert_eq!(
            section.contains("<g id=\"destroyed\">\n<g>"),
            wrecks > 0,
            "event {seq}"
        );
        checked.0 += moves;
        checked.1 += fires;
        checked.2 += wrecks;
    }
    assert!(
        checked.0 > 3 && checked.1 > 3 && checked.2 >= 1,
        "{checked:?}"
    );
}

/// Issue 5: every mail the referee sends is a template pair, text and HTML, from one context.
#[test]
fn every_mail_template_is_a_text_and_html_pair() {
    use dustmail::report::{HTML_TEMPLATES, TEMPLATES};
    for (name, _) in TEMPLATES {
        assert!(
            HTML_TEMPLATES.iter().any(|(n, _)| *n == name),
            "templates/{name}.txt has no {name}.html"
        );
    }
    assert!(TEMPLATES.iter().any(|(n, _)| *n == "control"));
}

/// A die as the reports show it under ffg-revised (issue 16 item 5): `[2 hit]`, `[5 miss]`.
fn marked(face: u64) -> String {
    format!("[{face} {}]", if face <= 2 { "hit" } else { "miss" })
}
