//! Outbound: mails/s delivered by the outbox over SMTP to a loopback server (aiosmtpd, as in
//! the tests), beside Python's smtplib sending the same mails to the same server on one
//! connection. lettre writes a mail's end-of-data marker in a separate small write and never sets
//! TCP_NODELAY, so each mail on one connection waits for the server's delayed ACK (~40 ms); the
//! outbox hides that with parallel connections (`DeliveryOptions::connections`, default 4).
//! DUSTMAIL_BENCH_OUTBOUND_MAILS changes the number of mails (default 400).

mod common;

#[path = "../tests/support/smtp.rs"]
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
        // One connection is slow by design: fewer mails keep the run short.
        let count = if connections == 1 { n.min(100) } else { n };
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
            "outbound: outbox (lettre), {connections:>2} connection(s): {r:.0} mails/s ({count} mails, {:.2} s) = {:.2}x smtplib{}",
            t.as_secs_f64(),
            r / floor,
            if connections == DeliveryOptions::default().connections { "  <- default" } else { "" }
        );
    }
    // The diagnosis, shown: lettre itself on one connection, with TCP_NODELAY forced onto its
    // socket after the first mail. (A demonstration only: lettre offers no way to set it.)
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
    let forced = nodelay_on_sockets_to(server.port());
    let (_, el) = common::time(|| (1..n).for_each(send));
    let r = common::rate(n - 1, el);
    println!(
        "outbound: lettre, 1 connection, TCP_NODELAY forced on {forced} socket(s): {r:.0} mails/s ({} mails, {:.2} s) = {:.2}x smtplib",
        n - 1,
        el.as_secs_f64(),
        r / floor
    );
    println!("outbound: goal: within 2x of smtplib (ratio >= 0.5)");
    println!(
        "outbound: peak memory {:.1} MiB (VmHWM)",
        common::peak_mib()
    );
}

/// Sets TCP_NODELAY on every socket of this process connected to 127.0.0.1:`port`; returns how
/// many. Borrows each descriptor without taking ownership (ManuallyDrop: never closed here).
fn nodelay_on_sockets_to(port: u16) -> usize {
    use std::os::fd::FromRawFd;
    let mut n = 0;
    for e in std::fs::read_dir("/proc/self/fd").unwrap().flatten() {
        let Ok(fd) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let is_socket = std::fs::read_link(e.path())
            .map(|l| l.to_string_lossy().starts_with("socket:"))
            .unwrap_or(false);
        if !is_socket {
            continue;
        }
        // SAFETY: fd is an open socket of this process for the duration of this call, and the
        // ManuallyDrop wrapper never closes it.
        let s = std::mem::ManuallyDrop::new(unsafe { std::net::TcpStream::from_raw_fd(fd) });
        let ours = s
            .peer_addr()
            .map(|a| a.port() == port && a.ip().is_loopback())
            .unwrap_or(false);
        if ours && s.set_nodelay(true).is_ok() {
            n += 1;
        }
    }
    n
}
