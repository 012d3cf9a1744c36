//! The outbox with the file and sendmail transports: queue → deliver → sent/, idempotence,
//! refused input, MIME structure (parsed back with mail-parser), retry backoff.

use chrono::{DateTime, Duration, TimeZone, Utc};
use dustmail::outbox::{Attachment, Mail, Outbox, Transport};
use mail_parser::{MessageParser, MimeHeaders, PartType};
use std::path::Path;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 9, 0, 0).unwrap()
}

fn mail() -> Mail {
    Mail {
        from: "Dust Referee <referee@dust.example>".into(),
        to: vec!["north@players.example".into()],
        subject: "Round 1: your orders".into(),
        in_reply_to: None,
        references: vec![],
        text: "Send your orders.\n".into(),
        html: None,
        attachments: vec![],
        headers: vec![],
    }
}

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.starts_with('.'))
        .collect();
    v.sort();
    v
}

#[test]
fn file_transport_moves_queued_mail_to_sent() {
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    ob.queue_at("welcome.g1.north", &mail(), t0()).unwrap();
    assert_eq!(
        files(&ob.queue_dir),
        ["welcome.g1.north.eml", "welcome.g1.north.json"]
    );
    let queued = std::fs::read(ob.queue_dir.join("welcome.g1.north.eml")).unwrap();

    let r = ob.deliver(&Transport::File, t0()).unwrap();
    assert_eq!((r.delivered, r.failed, r.waiting), (1, 0, 0));
    assert!(r.errors.is_empty());
    assert!(files(&ob.queue_dir).is_empty());
    assert_eq!(files(&ob.sent_dir), ["welcome.g1.north.eml"]);
    // What lands in sent/ is exactly what was queued.
    let sent = std::fs::read(ob.sent_dir.join("welcome.g1.north.eml")).unwrap();
    assert_eq!(sent, queued);

    let m = MessageParser::default().parse(&sent).unwrap();
    assert_eq!(m.subject(), Some("Round 1: your orders"));
    assert_eq!(m.message_id(), Some("welcome.g1.north@dust.example"));
    assert_eq!(m.date().unwrap().to_rfc3339(), "2026-11-21T09:00:00Z");
    assert_eq!(m.body_text(0).unwrap().trim_end(), "Send your orders.");
    assert!(m
        .content_type()
        .unwrap()
        .c_type
        .eq_ignore_ascii_case("text"));

    // A second pass has nothing to do.
    let r = ob.deliver(&Transport::File, t0()).unwrap();
    assert_eq!((r.delivered, r.failed, r.waiting), (0, 0, 0));
}

#[test]
fn queue_is_idempotent_while_queued_and_after_sending() {
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    ob.queue_at("m1", &mail(), t0()).unwrap();
    let first = std::fs::read(ob.queue_dir.join("m1.eml")).unwrap();
    // Re-queue (e.g. after a crash) with a later clock: the entry is untouched.
    ob.queue_at("m1", &mail(), t0() + Duration::hours(1))
        .unwrap();
    assert_eq!(std::fs::read(ob.queue_dir.join("m1.eml")).unwrap(), first);
    assert_eq!(files(&ob.queue_dir), ["m1.eml", "m1.json"]);

    assert_eq!(ob.deliver(&Transport::File, t0()).unwrap().delivered, 1);
    ob.queue_at("m1", &mail(), t0()).unwrap();
    assert!(
        files(&ob.queue_dir).is_empty(),
        "a sent id is not queued again"
    );
    assert_eq!(ob.deliver(&Transport::File, t0()).unwrap().delivered, 0);
    assert_eq!(files(&ob.sent_dir), ["m1.eml"]);
}

#[test]
fn message_id_is_derived_from_the_queue_id() {
    // Two homes (a crash that lost the outbox, then a re-queue) give the same Message-ID.
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for home in [&a, &b] {
        let ob = Outbox::open(home.path()).unwrap();
        ob.queue("report.g7.r3", &mail()).unwrap();
        let env = &ob.queued().unwrap()[0];
        assert_eq!(env.message_id, "<report.g7.r3@dust.example>");
        assert_eq!(env.from, "referee@dust.example");
        assert_eq!(env.to, ["north@players.example"]);
        assert_eq!((env.attempts, env.next_attempt), (0, None));
    }
}

#[test]
fn bad_addresses_are_refused_at_queue_time_naming_the_address() {
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    let mut m = mail();
    m.to = vec!["north@players.example".into(), "south-at-nowhere".into()];
    let err = ob.queue("m1", &m).unwrap_err().to_string();
    assert!(err.contains("bad to address \"south-at-nowhere\""), "{err}");

    let mut m = mail();
    m.from = "referee@".into();
    let err = ob.queue("m1", &m).unwrap_err().to_string();
    assert!(err.contains("bad from address \"referee@\""), "{err}");

    let mut m = mail();
    m.to.clear();
    let err = ob.queue("m1", &m).unwrap_err().to_string();
    assert!(err.contains("no recipient"), "{err}");
    assert!(files(&ob.queue_dir).is_empty());
}

#[test]
fn ids_that_are_not_file_name_safe_are_refused() {
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    for id in ["../escape", "a/b", "", ".hidden", "x y"] {
        let err = ob.queue(id, &mail()).unwrap_err().to_string();
        assert!(err.contains("not file-name safe"), "{id}: {err}");
    }
    assert!(files(&ob.queue_dir).is_empty());
    assert!(!home.path().join("escape.eml").exists());
}

#[test]
fn header_injection_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    let cases: Vec<(Mail, &str)> = vec![
        (
            Mail {
                headers: vec![(
                    "X-Dustmail-Game".into(),
                    "g1\r\nBcc: everyone@evil.example".into(),
                )],
                ..mail()
            },
            "header injection",
        ),
        (
            Mail {
                subject: "hi\nBcc: everyone@evil.example".into(),
                ..mail()
            },
            "refused subject",
        ),
        (
            Mail {
                in_reply_to: Some("<a@b>\r\nX-Evil: 1".into()),
                ..mail()
            },
            "refused in_reply_to",
        ),
        (
            Mail {
                to: vec!["north@players.example\r\nBcc: x@evil.example".into()],
                ..mail()
            },
            "refused to",
        ),
        (
            Mail {
                headers: vec![("X-Bad: Name".into(), "v".into())],
                ..mail()
            },
            "bad header name",
        ),
        (
            Mail {
                headers: vec![("Bcc".into(), "x@evil.example".into())],
                ..mail()
            },
            "set by the outbox itself",
        ),
    ];
    for (m, want) in cases {
        let err = ob.queue("m1", &m).unwrap_err().to_string();
        assert!(err.contains(want), "want {want:?}, got {err}");
    }
    assert!(files(&ob.queue_dir).is_empty());
}

/// Describes the MIME tree, e.g. `multipart/mixed[text/plain,application/pdf]`.
fn tree(m: &mail_parser::Message, id: u32) -> String {
    let p = m.part(id).unwrap();
    let ct = p.content_type().unwrap();
    let name = format!(
        "{}/{}",
        ct.c_type.to_ascii_lowercase(),
        ct.c_subtype.as_deref().unwrap_or("").to_ascii_lowercase()
    );
    match &p.body {
        PartType::Multipart(kids) => {
            let inner: Vec<String> = kids.iter().map(|k| tree(m, *k)).collect();
            format!("{name}[{}]", inner.join(","))
        }
        _ => name,
    }
}

#[test]
fn html_with_inline_image_and_attachment_has_the_right_mime_structure() {
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    let png = vec![0x89, b'P', b'N', b'G', 0, 1, 2, 3, 255];
    let m = Mail {
        html: Some("<p>Board:</p><img src=\"cid:board@dust\">".into()),
        in_reply_to: Some("<orders-5@players.example>".into()),
        references: vec![
            "<welcome.g1@dust.example>".into(),
            "<orders-5@players.example>".into(),
        ],
        headers: vec![("X-Dustmail-Ledger-Head".into(), "ab12cd".into())],
        attachments: vec![
            Attachment {
                filename: "board.png".into(),
                content_type: "image/png".into(),
                bytes: png.clone(),
                inline_cid: Some("board@dust".into()),
            },
            Attachment {
                filename: "log.jsonl".into(),
                content_type: "application/x-ndjson".into(),
                bytes: b"{\"seq\":1}\n".to_vec(),
                inline_cid: None,
            },
        ],
        ..mail()
    };
    ob.queue_at("report.g1.r1", &m, t0()).unwrap();
    let raw = std::fs::read(ob.queue_dir.join("report.g1.r1.eml")).unwrap();
    let p = MessageParser::default().parse(&raw).unwrap();
    assert_eq!(
        tree(&p, 0),
        "multipart/mixed[multipart/alternative[text/plain,multipart/related[text/html,image/png]],application/x-ndjson]"
    );
    assert_eq!(p.body_text(0).unwrap().trim_end(), "Send your orders.");
    assert!(p.body_html(0).unwrap().contains("cid:board@dust"));
    let img = p
        .parts
        .iter()
        .find(|x| x.content_id() == Some("board@dust"))
        .expect("inline image with its Content-ID");
    assert_eq!(img.contents(), &png[..]);
    let log = p
        .attachments()
        .find(|a| a.attachment_name() == Some("log.jsonl"))
        .expect("log.jsonl attached");
    assert_eq!(log.contents(), b"{\"seq\":1}\n");
    assert_eq!(p.in_reply_to().as_text(), Some("orders-5@players.example"));
    let refs: Vec<&str> = p
        .references()
        .as_text_list()
        .unwrap_or_default()
        .iter()
        .map(|r| r.as_ref())
        .collect();
    assert_eq!(
        refs,
        ["welcome.g1@dust.example", "orders-5@players.example"]
    );
    assert_eq!(
        p.header_raw("X-Dustmail-Ledger-Head").map(str::trim),
        Some("ab12cd")
    );
}

#[test]
fn html_without_inline_images_is_multipart_alternative() {
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    let m = Mail {
        html: Some("<b>Send your orders.</b>".into()),
        ..mail()
    };
    ob.queue_at("m1", &m, t0()).unwrap();
    let raw = std::fs::read(ob.queue_dir.join("m1.eml")).unwrap();
    let p = MessageParser::default().parse(&raw).unwrap();
    assert_eq!(tree(&p, 0), "multipart/alternative[text/plain,text/html]");
}

/// A fake sendmail: appends its arguments and the mail to files in `dir`, or fails.
fn fake_sendmail(dir: &Path, fail: bool) -> String {
    let script = dir.join(if fail { "sendmail-fail" } else { "sendmail-ok" });
    let body = if fail {
        "#!/bin/sh\ncat >/dev/null\necho 'relay down' >&2\nexit 75\n".to_string()
    } else {
        format!(
            "#!/bin/sh\necho \"$@\" >> {0}/args\ncat >> {0}/mails\necho '--end--' >> {0}/mails\n",
            dir.display()
        )
    };
    std::fs::write(&script, body).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script.display().to_string()
}

#[test]
fn sendmail_transport_pipes_the_queued_bytes_with_the_envelope() {
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    let bin = tempfile::tempdir().unwrap();
    let t = Transport::Sendmail {
        command: Some(fake_sendmail(bin.path(), false)),
    };
    let mut m = mail();
    m.to.push("South <south@players.example>".into());
    ob.queue_at("m1", &m, t0()).unwrap();
    let queued = std::fs::read(ob.queue_dir.join("m1.eml")).unwrap();
    let r = ob.deliver(&t, t0()).unwrap();
    assert_eq!((r.delivered, r.failed), (1, 0), "{:?}", r.errors);
    let args = std::fs::read_to_string(bin.path().join("args")).unwrap();
    assert_eq!(
        args.trim(),
        "-i -f referee@dust.example -- north@players.example south@players.example"
    );
    let mut want = queued.clone();
    want.extend_from_slice(b"--end--\n");
    assert_eq!(std::fs::read(bin.path().join("mails")).unwrap(), want);
    assert_eq!(files(&ob.sent_dir), ["m1.eml"]);
    assert!(files(&ob.queue_dir).is_empty());
}

#[test]
fn failed_delivery_backs_off_1_2_4_minutes_and_records_the_error() {
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    let bin = tempfile::tempdir().unwrap();
    let down = Transport::Sendmail {
        command: Some(fake_sendmail(bin.path(), true)),
    };
    ob.queue_at("m1", &mail(), t0()).unwrap();

    let mut now = t0();
    for (attempt, wait_min) in [(1u32, 1i64), (2, 2), (3, 4), (4, 8)] {
        let r = ob.deliver(&down, now).unwrap();
        assert_eq!((r.delivered, r.failed, r.waiting), (0, 1, 0));
        assert_eq!(r.errors.len(), 1);
        let e = &r.errors[0];
        assert!(
            e.starts_with("mail m1 to north@players.example via sendmail "),
            "{e}"
        );
        assert!(e.contains(&format!("attempt {attempt} failed")), "{e}");
        assert!(e.contains("relay down"), "{e}");
        let env = &ob.queued().unwrap()[0];
        assert_eq!(env.attempts, attempt);
        let next = now + Duration::minutes(wait_min);
        assert_eq!(env.next_attempt, Some(next));
        assert!(env.last_error.as_deref().unwrap().contains("relay down"));

        // Before the retry time nothing is attempted.
        let r = ob.deliver(&down, next - Duration::seconds(1)).unwrap();
        assert_eq!((r.delivered, r.failed, r.waiting), (0, 0, 1));
        now = next;
    }

    // The relay is back: delivered once, the queue entry is gone.
    let up = Transport::Sendmail {
        command: Some(fake_sendmail(bin.path(), false)),
    };
    let r = ob.deliver(&up, now).unwrap();
    assert_eq!((r.delivered, r.failed, r.waiting), (1, 0, 0));
    assert!(ob.queued().unwrap().is_empty());
    assert_eq!(files(&ob.sent_dir), ["m1.eml"]);
    let mails = std::fs::read_to_string(bin.path().join("mails")).unwrap();
    assert_eq!(mails.matches("--end--").count(), 1);
}

#[test]
fn crash_after_moving_to_sent_does_not_send_again() {
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    ob.queue_at("m1", &mail(), t0()).unwrap();
    // The state a crash leaves between the rename into sent/ and the removal of the .json.
    std::fs::rename(ob.queue_dir.join("m1.eml"), ob.sent_dir.join("m1.eml")).unwrap();
    let bin = tempfile::tempdir().unwrap();
    let t = Transport::Sendmail {
        command: Some(fake_sendmail(bin.path(), false)),
    };
    let r = ob.deliver(&t, t0()).unwrap();
    assert_eq!((r.delivered, r.failed, r.waiting), (0, 0, 0));
    assert!(!bin.path().join("mails").exists(), "nothing was sent again");
    assert!(files(&ob.queue_dir).is_empty());
    assert_eq!(files(&ob.sent_dir), ["m1.eml"]);
}

#[test]
fn crash_in_the_middle_of_queueing_is_completed_by_the_requeue() {
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    // A crash after the .eml was written but before the .json: not a queue entry yet.
    std::fs::write(ob.queue_dir.join("m1.eml"), b"partial").unwrap();
    assert!(!ob.is_queued("m1"));
    assert_eq!(ob.deliver(&Transport::File, t0()).unwrap().delivered, 0);
    ob.queue_at("m1", &mail(), t0()).unwrap();
    assert!(ob.is_queued("m1"));
    assert_eq!(ob.deliver(&Transport::File, t0()).unwrap().delivered, 1);
    let sent = std::fs::read(ob.sent_dir.join("m1.eml")).unwrap();
    assert!(sent.starts_with(b"From: ") || sent.windows(5).any(|w| w == b"From:"));
    assert_ne!(sent, b"partial");
}

#[test]
fn a_delivery_pass_waits_for_another_one_holding_the_lock() {
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    ob.queue_at("m1", &mail(), t0()).unwrap();
    // Another pass (here: this test) holds the outbox lock for a moment.
    let lock = std::fs::File::create(ob.queue_dir.join(".lock")).unwrap();
    lock.lock().unwrap();
    let holder = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        drop(lock);
    });
    let r = ob.deliver(&Transport::File, t0()).unwrap();
    holder.join().unwrap();
    assert_eq!(r.delivered, 1);
    assert_eq!(files(&ob.sent_dir), ["m1.eml"]);
}

/// A mail with HTML, an inline picture and an attachment renders to the same bytes every time
/// (MIME boundaries come from the mail id), so a mail queued again after a crash, or by a run
/// replayed on a copy of the home, is byte-identical; a different id gives other boundaries.
#[test]
fn multipart_mails_render_to_the_same_bytes_every_time() {
    let mut m = mail();
    m.html = Some("<p>Send your orders.</p><img src=\"cid:board@dustmail\">".into());
    m.attachments = vec![
        Attachment {
            filename: "board.png".into(),
            content_type: "image/png".into(),
            bytes: b"\x89PNG fake".to_vec(),
            inline_cid: Some("board@dustmail".into()),
        },
        Attachment {
            filename: "log.jsonl".into(),
            content_type: "application/x-ndjson".into(),
            bytes: b"{}\n".to_vec(),
            inline_cid: None,
        },
    ];
    let date = Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap();
    let (a, _) = dustmail::outbox::render("g-1-report-allies", &m, date).unwrap();
    let (b, _) = dustmail::outbox::render("g-1-report-allies", &m, date).unwrap();
    assert_eq!(a, b);
    let text = String::from_utf8_lossy(&a);
    assert!(text.contains("multipart/related"), "{text}");
    assert!(text.contains("boundary=\"dustmail-"), "{text}");
    let (c, _) = dustmail::outbox::render("g-2-report-allies", &m, date).unwrap();
    assert_ne!(a, c);
}
