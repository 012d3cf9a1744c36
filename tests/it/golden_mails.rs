//! Golden mails (issue 2): every raw fixture in tests/mails/ goes through the real pipeline
//! (`dustmail run`) into a game `g-test` between `red` and `blue` with the fixtures' fixed keys,
//! and the mails the referee sends back are snapshotted (ledger heads and the referee's
//! signatures redacted: the referee key is made fresh by `init`; dates come from `--now`).

use mail_parser::{MessageParser, MimeHeaders};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub(crate) fn dustmail(home: &Path, args: &[&str]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .env_remove("DUSTMAIL_HOME")
        .arg("--home")
        .arg(home)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "dustmail {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

pub(crate) const RED: &str = "ed25519:iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=";
pub(crate) const BLUE: &str = "ed25519:gTl3Dqh9F19Wo1Rmw0x+zMuNipG07jeiXfYPW4/Js5Q=";

/// The skirmish board with the fixtures' sides and unit ids (the fixtures order `activate R1`, which the game refuses: no such unit).
const SCENARIO: &str = r#"
title = "Golden"
description = "The fixtures' game: one squad a side."
rounds = 4
ap_limit = 16

[board]
rows = ["......", "..#...", "......", "......", "...#..", "......"]

[[sides]]
id = "red"
name = "Red"
entry = { rows = [6] }

[[sides.units]]
id = "rangers"
card = "recon-rangers"
at = "B6"

[[sides]]
id = "blue"
name = "Blue"
entry = { rows = [1] }

[[sides.units]]
id = "grenadiers"
card = "battle-grenadiers"
at = "E1"
"#;

fn redact(s: &str) -> String {
    s.lines()
        .map(|l| {
            for marker in ["Ledger-Head: ", "Ledger-Head-Signature: "] {
                if let Some(i) = l.find(marker) {
                    return format!("{}{marker}[redacted]", &l[..i]);
                }
            }
            l.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A home with game g-test (red and blue with the fixtures' keys) and `mail` in its maildir
/// under `name`, after one `dustmail run`: (home, tempdir guard, run's stdout).
pub(crate) fn run_with(name: &str, mail: &[u8]) -> (PathBuf, tempfile::TempDir, String) {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("home");
    dustmail(&home, &["init", "--referee", "referee@dust.example"]);
    let scen = d.path().join("golden.toml");
    std::fs::write(&scen, SCENARIO).unwrap();
    dustmail(
        &home,
        &[
            "new",
            "--scenario",
            scen.to_str().unwrap(),
            "--id",
            "g-test",
            "--seed",
            "0303030303030303030303030303030303030303030303030303030303030303",
            "--now",
            "2026-03-01T09:00:00Z",
            "--player",
            &format!("red=red@example.org:{RED}"),
            "--player",
            &format!("blue=blue@example.org:{BLUE}"),
        ],
    );
    std::fs::write(home.join("maildir/new").join(name), mail).unwrap();
    let o = dustmail(&home, &["run", "--now", "2026-03-01T10:00:00Z"]);
    (home, d, String::from_utf8_lossy(&o.stdout).into_owned())
}

/// The mails `run` sent for one fixture, as a reader sees them.
fn replies(fixture: &str) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mails")
        .join(fixture);
    let (home, _d, _) = run_with(fixture, &std::fs::read(&src).unwrap());
    let mut names: Vec<String> = std::fs::read_dir(home.join("sent"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.contains("-welcome-"))
        .collect();
    names.sort();
    let mut out = String::new();
    for n in names {
        let bytes = std::fs::read(home.join("sent").join(&n)).unwrap();
        let m = MessageParser::default().parse(&bytes).unwrap();
        let atts: Vec<String> = m
            .attachments()
            .map(|a| {
                format!(
                    "{} ({}{})",
                    a.attachment_name().unwrap_or("-"),
                    a.content_type()
                        .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or("")))
                        .unwrap_or_default(),
                    a.content_id()
                        .map(|c| format!(", inline {c}"))
                        .unwrap_or_default()
                )
            })
            .collect();
        out.push_str(&format!(
            "=== {n}\nSubject: {}\nTo: {}\nIn-Reply-To: {}\nHTML part: {}\nAttachments: {}\n\n{}\n\n",
            m.subject().unwrap_or(""),
            m.to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or(""),
            m.in_reply_to().as_text().unwrap_or("-"),
            if m.body_html(0).is_some() { "yes" } else { "no" },
            if atts.is_empty() {
                "none".to_string()
            } else {
                atts.join(", ")
            },
            redact(&m.body_text(0).unwrap_or_default().replace("\r\n", "\n")).trim_end()
        ));
    }
    if out.is_empty() {
        out.push_str("(no mail sent)\n");
    }
    out
}

macro_rules! golden {
    ($($test:ident: $file:literal),* $(,)?) => {$(
        #[test]
        fn $test() {
            insta::assert_snapshot!(concat!("golden-", $file), replies($file));
        }
    )*};
}

golden! {
    plain: "plain.eml",
    alternative: "alternative.eml",
    attachment: "attachment.eml",
    auto_submitted: "auto-submitted.eml",
    base64: "base64.eml",
    bom: "bom.eml",
    bounce: "bounce.eml",
    broken_mime: "broken-mime.eml",
    crlf: "crlf.eml",
    html_only: "html-only.eml",
    html_pre: "html-pre.eml",
    latin1: "latin1.eml",
    qp: "qp.eml",
    quoted_reply: "quoted-reply.eml",
    two_blocks: "two-blocks.eml",
    utf16_attachment: "utf16-attachment.eml",
}
