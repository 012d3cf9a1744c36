//! Outbound: mails/s delivered by the outbox over SMTP to a loopback server (aiosmtpd, as in
//! the tests), beside Python's smtplib sending the same mails to the same server on one
//! connection, at 1, 4, 8 and 16 parallel connections (`DeliveryOptions::connections`). The
//! outbox's time includes reading the queue, moving each mail to sent/ and the pass's fsyncs.
//! Last, for comparison, stock lettre `SmtpTransport` on one connection (what the outbox used
//! until 2026-11-21): it writes the end-of-data marker in a write of its own without TCP_NODELAY,
//! so each mail waits ~40 ms for the server's delayed ACK.
//! DUSTMAIL_BENCH_OUTBOUND_MAILS changes the number of mails (default 400).

mod common;

#[path = "../tests/it/support/smtp.rs"]
mod smtp;

use chrono::{TimeZone, Utc};
use dustmail::outbox::{DeliveryOptions, Mail, Outbox, Transport};
use std::process::Command;

fn mail(n: usize) -> Mail {
    Mail {
        from: "Dust Referee <referee@dust.example>".into(),
        to: vec![format!("player{n}@players.example")],
        subject: format!("[dustmail g-bench] round 1: report {n}"),
        in_reply_to: Some(format!("<orders-{n}@players.example>")),
        references: vec![format!("<orders-{n}@players.example>")],
        text: format!(
            "Report number {n}.\n{}",
            "The board, the dice and what happened.\n".repeat(40)
        ),
        html: None,
        attachments: vec![],
        headers: vec![("X-Dustmail-Game".into(), "g-bench".into())],
    }
}

const SMTPLIB: &str = r#"
import smtplib, sys, os, time
port, d = int(sys.argv[1]), sys.argv[2]
names = sorted(os.listdir(d))
mails = [open(os.path.join(d, n), 'rb').read() for n in names]
s = smtplib.SMTP('127.0.0.1', port)
t = time.perf_counter()
for i, m in enumerate(mails):
    s.sendmail('referee@dust.example', ['player%d@players.example' % i], m)
el = time.perf_counter() - t
s.quit()
print(len(mails), el)
"#;

fn main() {
    if !common::under_cargo_bench("outbound") {
        return;
    }
    let n = common::env_num("DUSTMAIL_BENCH_OUTBOUND_MAILS", 400);
    let server = smtp::SmtpServer::start();
    let transport = Transport::Smtp {
        host: "127.0.0.1".into(),
        port: server.port(),
        starttls: false,
        user: None,
        password: None,
        implicit_tls: false,
        insecure: false,
        password_command: None,
    };
    let t0 = Utc.with_ymd_and_hms(2026, 3, 1, 10, 0, 0).unwrap();
    let d = tempfile::tempdir().unwrap();

    // The floor: smtplib, one connection, the same rendered bytes.
    let emls = d.path().join("emls");
    std::fs::create_dir(&emls).unwrap();
    for i in 0..n {
        let (eml, _) = dustmail::outbox::render(&format!("m-{i:05}"), &mail(i), t0).unwrap();
        std::fs::write(emls.join(format!("m-{i:05}.eml")), eml).unwrap();
    }
    let o = Command::new("python3")
        .args(["-c", SMTPLIB])
        .arg(server.port().to_string())
        .arg(&emls)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let secs: f64 = out
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap();
    let floor = n as f64 / secs;
    println!("outbound: floor smtplib, 1 connection: {floor:.0} mails/s ({n} mails, {secs:.2} s)");

    for connections in [1usize, 4, 8, 16] {
        let count = n;
        let ob = Outbox::open(&d.path().join(format!("home-{connections}"))).unwrap();
        for i in 0..count {
            ob.queue_at(&format!("m-{i:05}"), &mail(i), t0).unwrap();
        }
        let opts = DeliveryOptions {
            connections,
            ..DeliveryOptions::default()
        };
        let (rep, t) = common::time(|| ob.deliver_with(&transport, &opts, t0).unwrap());
        assert_eq!(rep.delivered, count, "{:?}", rep.errors);
        let r = common::rate(count, t);
        println!(
            "outbound: outbox, {connections:>2} connection(s): {r:.0} mails/s ({count} mails, {:.2} s) = {:.2}x smtplib{}",
            t.as_secs_f64(),
            r / floor,
            if connections == DeliveryOptions::default().connections { "  <- default" } else { "" }
        );
    }
    // For comparison: stock lettre SmtpTransport, one connection (fewer mails: ~40 ms each).
    let count = n.min(50);
    let t = lettre::SmtpTransport::builder_dangerous("127.0.0.1")
        .port(server.port())
        .build();
    let from: lettre::Address = "referee@dust.example".parse().unwrap();
    let send = |i: usize| {
        let (eml, _) = dustmail::outbox::render(&format!("n-{i:05}"), &mail(i), t0).unwrap();
        let to: lettre::Address = format!("player{i}@players.example").parse().unwrap();
        let env = lettre::address::Envelope::new(Some(from.clone()), vec![to]).unwrap();
        lettre::Transport::send_raw(&t, &env, &eml).unwrap();
    };
    send(0);
    let (_, el) = common::time(|| (1..count).for_each(send));
    let r = common::rate(count - 1, el);
    println!(
        "outbound: for comparison, stock lettre SmtpTransport, 1 connection: {r:.0} mails/s ({} mails, {:.2} s) = {:.2}x smtplib",
        count - 1,
        el.as_secs_f64(),
        r / floor
    );
    println!("outbound: goal: within 2x of smtplib (ratio >= 0.5)");
    println!(
        "outbound: peak memory {:.1} MiB (VmHWM)",
        common::peak_mib()
    );
}
