//! Issue 16 item 1: "keep every line the referee sends at most 72 characters". Every text part
//! of every mail of whole demo games, read back from sent/ as a mail client reads it.

use crate::browser::dustmail;
use std::path::Path;

/// The text/plain parts of every mail in `sent`, decoded (name, text).
fn texts(sent: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(sent)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    names.sort();
    for p in names {
        let raw = std::fs::read(&p).unwrap();
        let m = mail_parser::MessageParser::default()
            .parse(&raw)
            .expect("a mail");
        for i in 0..m.text_body_count() {
            if let Some(t) = m.body_text(i) {
                out.push((
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    t.into_owned(),
                ));
            }
        }
    }
    out
}

/// Lines over 72 characters, except the signed ledger head at the foot (`Ledger-Head:` and its
/// signature: hex and base64 values a mail client must not break; they are not meant to be read).
fn long_lines(sent: &Path) -> Vec<String> {
    texts(sent)
        .into_iter()
        .flat_map(|(name, t)| {
            t.lines()
                .filter(|l| l.chars().count() > 72 && !l.starts_with("Ledger-Head"))
                .map(|l| format!("{name}: {l}"))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn demo_sent(args: &[&str]) -> (tempfile::TempDir, std::path::PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let h = d.path().join("home");
    let mut a = vec!["demo"];
    a.extend(args);
    let o = dustmail(&h, &a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sent = h.join("sent");
    (d, sent)
}

#[test]
fn every_line_of_a_dust_tactics_demo_fits_72_characters() {
    for ruleset in ["ffg-revised", "classic-2010", "battlefront-2013"] {
        let (_d, sent) = demo_sent(&["--ruleset", ruleset]);
        let n = texts(&sent).len();
        assert!(n > 10, "{ruleset}: only {n} mails");
        let long = long_lines(&sent);
        assert!(
            long.is_empty(),
            "{ruleset}: {} long lines:\n{}",
            long.len(),
            long.join("\n")
        );
    }
}

#[test]
fn every_line_of_a_dust_strategy_demo_fits_72_characters() {
    let (_d, sent) = demo_sent(&["--game", "dust-strategy"]);
    let n = texts(&sent).len();
    assert!(n > 10, "only {n} mails");
    let long = long_lines(&sent);
    assert!(
        long.is_empty(),
        "{} long lines:\n{}",
        long.len(),
        long.join("\n")
    );
}
