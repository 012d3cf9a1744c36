//! The outbox against a real SMTP server (aiosmtpd on loopback, see tests/it/support/smtp.rs).

use crate::support::smtp;

use chrono::{DateTime, Duration, TimeZone, Utc};
use dustmail::outbox::{DeliveryOptions, Mail, Outbox, Transport};
use mail_parser::MessageParser;
use smtp::SmtpServer;
use std::time::Instant;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 9, 0, 0).unwrap()
}

fn mail(n: usize) -> Mail {
    Mail {
        from: "Dust Referee <referee@dust.example>".into(),
        to: vec![format!("player{n}@players.example")],
        subject: format!("Report {n}"),
        in_reply_to: Some(format!("<orders-{n}@players.example>")),
        references: vec![format!("<orders-{n}@players.example>")],
        text: format!("Report number {n}.\n"),
        html: None,
        attachments: vec![],
        headers: vec![("X-Dustmail-Game".into(), "g1".into())],
    }
}

fn smtp_to(server: &SmtpServer) -> Transport {
    Transport::Smtp {
        host: "127.0.0.1".into(),
        port: server.port(),
        starttls: false,
        user: None,
        password: None,
        implicit_tls: false,
        insecure: false,
        password_command: None,
    }
}

fn subjects(server: &SmtpServer) -> Vec<String> {
    let mut v: Vec<String> = server
        .messages()
        .iter()
        .map(|raw| {
            let m = MessageParser::default().parse(raw).unwrap();
            m.subject().unwrap_or_default().to_string()
        })
        .collect();
    v.sort();
    v
}

#[test]
fn delivered_mails_arrive_with_their_headers() {
    let server = SmtpServer::start();
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    for n in 0..3 {
        ob.queue_at(&format!("report.g1.{n}"), &mail(n), t0())
            .unwrap();
    }
    let r = ob.deliver(&smtp_to(&server), t0()).unwrap();
    assert_eq!(
        (r.delivered, r.failed, r.waiting),
        (3, 0, 0),
        "{:?}",
        r.errors
    );
    assert!(ob.queued().unwrap().is_empty());
    assert!((0..3).all(|n| ob.is_sent(&format!("report.g1.{n}"))));

    let msgs = server.messages();
    assert_eq!(msgs.len(), 3);
    for raw in &msgs {
        let m = MessageParser::default().parse(raw).unwrap();
        let subject = m.subject().unwrap();
        let n: usize = subject.strip_prefix("Report ").unwrap().parse().unwrap();
        assert_eq!(
            m.message_id(),
            Some(format!("report.g1.{n}@dust.example").as_str())
        );
        assert_eq!(
            m.in_reply_to().as_text(),
            Some(format!("orders-{n}@players.example").as_str())
        );
        assert_eq!(m.header_raw("X-Dustmail-Game").map(str::trim), Some("g1"));
        // The SMTP envelope (aiosmtpd records it) matches the queue entry.
        assert_eq!(
            m.header_raw("X-MailFrom").map(str::trim),
            Some("referee@dust.example")
        );
        assert_eq!(
            m.header_raw("X-RcptTo").map(str::trim),
            Some(format!("player{n}@players.example").as_str())
        );
        assert_eq!(
            m.body_text(0).unwrap().trim_end(),
            format!("Report number {n}.")
        );
    }
}

#[test]
fn server_down_keeps_mails_queued_then_delivers_each_exactly_once() {
    let mut server = SmtpServer::start();
    let port = server.port();
    let transport = smtp_to(&server);
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    for n in 0..6 {
        ob.queue_at(&format!("m{n}"), &mail(n), t0()).unwrap();
    }
    server.stop();

    let r = ob.deliver(&transport, t0()).unwrap();
    assert_eq!((r.delivered, r.failed, r.waiting), (0, 6, 0));
    assert_eq!(r.errors.len(), 6);
    for (n, e) in r.errors.iter().enumerate() {
        assert!(
            e.starts_with(&format!(
                "mail m{n} to player{n}@players.example via smtp 127.0.0.1:{port}: attempt 1 failed:"
            )),
            "{e}"
        );
    }
    for env in ob.queued().unwrap() {
        assert_eq!(env.attempts, 1);
        assert_eq!(env.next_attempt, Some(t0() + Duration::minutes(1)));
        assert!(env.last_error.is_some());
    }
    // Still down a minute later: second attempt, next one 2 minutes after that.
    let t1 = t0() + Duration::minutes(1);
    let r = ob.deliver(&transport, t1).unwrap();
    assert_eq!((r.delivered, r.failed), (0, 6));
    assert!(ob
        .queued()
        .unwrap()
        .iter()
        .all(|e| e.attempts == 2 && e.next_attempt == Some(t1 + Duration::minutes(2))));

    server.restart();
    // Back up, but the retry time has not come: nothing is sent.
    let r = ob.deliver(&transport, t1 + Duration::seconds(119)).unwrap();
    assert_eq!((r.delivered, r.failed, r.waiting), (0, 0, 6));
    assert!(server.messages().is_empty());

    let r = ob.deliver(&transport, t1 + Duration::minutes(2)).unwrap();
    assert_eq!(
        (r.delivered, r.failed, r.waiting),
        (6, 0, 0),
        "{:?}",
        r.errors
    );
    let r = ob.deliver(&transport, t1 + Duration::hours(1)).unwrap();
    assert_eq!((r.delivered, r.failed, r.waiting), (0, 0, 0));
    let want: Vec<String> = (0..6).map(|n| format!("Report {n}")).collect();
    assert_eq!(subjects(&server), want, "each mail arrived exactly once");
    assert!(ob.queued().unwrap().is_empty());
}

#[test]
fn parallel_connections_deliver_everything_once() {
    // Not a timed assertion: the printout shows the rate on one and on four connections (one
    // connection no longer waits ~40 ms per mail for a delayed ACK: see benches/outbound.rs).
    const N: usize = 40;
    let server = SmtpServer::start();
    let mut timings = Vec::new();
    for (round, connections) in [1usize, 4].into_iter().enumerate() {
        let home = tempfile::tempdir().unwrap();
        let ob = Outbox::open(home.path()).unwrap();
        for n in 0..N {
            let mut m = mail(round * N + n);
            m.subject = format!("Bulk {:03}", round * N + n);
            ob.queue_at(&format!("bulk{n:03}"), &m, t0()).unwrap();
        }
        let opts = DeliveryOptions {
            connections,
            ..DeliveryOptions::default()
        };
        let start = Instant::now();
        let r = ob.deliver_with(&smtp_to(&server), &opts, t0()).unwrap();
        let took = start.elapsed();
        assert_eq!((r.delivered, r.failed), (N, 0), "{:?}", r.errors);
        timings.push((connections, took));
    }
    for (c, took) in &timings {
        println!(
            "outbox smtp: {N} mails over {c} connection(s) in {:.0} ms ({:.1} mails/s)",
            took.as_secs_f64() * 1000.0,
            N as f64 / took.as_secs_f64()
        );
    }
    let want: Vec<String> = (0..2 * N).map(|n| format!("Bulk {n:03}")).collect();
    assert_eq!(subjects(&server), want);
}

#[test]
fn starttls_with_auth_delivers_and_bad_credentials_or_untrusted_cert_fail() {
    let server = SmtpServer::start_tls_auth("referee", "s3cret");
    let opts = DeliveryOptions {
        extra_root_certs_pem: vec![server.cert_pem()],
        ..DeliveryOptions::default()
    };
    let with = |password: &str| Transport::Smtp {
        host: "127.0.0.1".into(),
        port: server.port(),
        starttls: true,
        user: Some("referee".into()),
        password: Some(password.into()),
        implicit_tls: false,
        insecure: false,
        password_command: None,
    };
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    ob.queue_at("tls1", &mail(1), t0()).unwrap();

    // The certificate is not trusted without the extra root: refused, stays queued.
    let r = ob
        .deliver_with(&with("s3cret"), &DeliveryOptions::default(), t0())
        .unwrap();
    assert_eq!((r.delivered, r.failed), (0, 1));
    assert!(
        r.errors[0].contains("via smtp 127.0.0.1:"),
        "{}",
        r.errors[0]
    );
    assert!(r.errors[0].contains("certificate"), "{}", r.errors[0]);

    // Trusted, but the wrong password: refused by the server, stays queued.
    let t1 = t0() + Duration::minutes(1);
    let r = ob.deliver_with(&with("wrong"), &opts, t1).unwrap();
    assert!(r.errors[0].contains("535"), "{}", r.errors[0]);
    assert_eq!((r.delivered, r.failed), (0, 1));
    assert_eq!(ob.queued().unwrap()[0].attempts, 2);
    assert!(server.messages().is_empty());

    let t2 = t1 + Duration::minutes(2);
    let r = ob.deliver_with(&with("s3cret"), &opts, t2).unwrap();
    assert_eq!((r.delivered, r.failed), (1, 0), "{:?}", r.errors);
    assert_eq!(subjects(&server), ["Report 1"]);
    assert!(ob.is_sent("tls1"));
}

#[test]
fn plain_smtp_without_starttls_is_refused_by_a_server_that_requires_it() {
    let server = SmtpServer::start_tls_auth("referee", "s3cret");
    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    ob.queue_at("m1", &mail(1), t0()).unwrap();
    let plain = Transport::Smtp {
        host: "127.0.0.1".into(),
        port: server.port(),
        starttls: false,
        user: None,
        password: None,
        implicit_tls: false,
        insecure: false,
        password_command: None,
    };
    let r = ob.deliver(&plain, t0()).unwrap();
    assert_eq!((r.delivered, r.failed), (0, 1));
    assert!(ob.is_queued("m1"));
    assert!(server.messages().is_empty());
}

/// aiosmtpd keeping each message's DATA exactly as received (after un-stuffing dots): the
/// harness's Maildir re-serialises mails through Python's email package (LF line ends, extra
/// X-Peer/X-MailFrom/X-RcptTo headers), which would hide a changed byte.
const RAW_SERVER: &str = r#"
import os, sys, time
from aiosmtpd.controller import Controller
port, out = int(sys.argv[1]), sys.argv[2]
class Raw:
    async def handle_DATA(self, server, session, envelope):
        n = len(os.listdir(out))
        with open(os.path.join(out, "%03d.eml" % n), "wb") as f:
            f.write(envelope.original_content)
        return "250 OK"
c = Controller(Raw(), hostname="127.0.0.1", port=port)
c.start()
print("ready", flush=True)
while True:
    time.sleep(3600)
"#;

/// Kills the raw server when the test ends, passed or not.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn lines_starting_with_a_dot_arrive_byte_identical() {
    // The DATA body is dot-stuffed on the wire (RFC 5321 4.5.2) and un-stuffed by the server: a
    // lone "." line must not end the mail early, and ".." must not lose a dot.
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("received");
    std::fs::create_dir(&out).unwrap();
    let port = smtp::free_port();
    let mut child = Child(
        std::process::Command::new("python3")
            .args(["-c", RAW_SERVER, &port.to_string()])
            .arg(&out)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("spawn python3 for the raw SMTP server"),
    );
    let mut ready = String::new();
    let stdout = child.0.stdout.take().unwrap();
    std::io::BufReader::new(stdout)
        .read_line(&mut ready)
        .unwrap();
    assert_eq!(
        ready.trim(),
        "ready",
        "the raw SMTP server did not start (is aiosmtpd installed?)"
    );

    let home = tempfile::tempdir().unwrap();
    let ob = Outbox::open(home.path()).unwrap();
    let mut m = mail(7);
    m.text = ".\n..x\n.hidden after a lone dot\nmiddle . line\n...\n. \nlast line .".into();
    ob.queue_at("dots", &m, t0()).unwrap();
    let eml = std::fs::read(home.path().join("outbox/dots.eml")).unwrap();
    let body = String::from_utf8_lossy(&eml).into_owned();
    assert!(body.contains("\r\n.\r\n..x\r\n.hidden"), "{body}");
    let transport = Transport::Smtp {
        host: "127.0.0.1".into(),
        port,
        starttls: false,
        user: None,
        password: None,
        implicit_tls: false,
        insecure: false,
        password_command: None,
    };
    let r = ob.deliver(&transport, t0()).unwrap();
    assert_eq!((r.delivered, r.failed), (1, 0), "{:?}", r.errors);

    let received = std::fs::read(out.join("000.eml")).unwrap();
    assert_eq!(String::from_utf8_lossy(&received), body);
    assert_eq!(received, eml);
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
}
