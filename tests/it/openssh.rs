//! Issue 17 item 1: players who sign with OpenSSH alone. Keys are made and orders signed by the
//! real `ssh-keygen` (scripts/test.sh installs Debian's openssh-client when it is missing; these
//! tests fail, never skip, without it); the homes are made by the real binary, mails go through
//! the real pipeline, and `replay`/`audit` are the real binary.

use crate::support::dt;

use dt::InProc;
use dustmail::config::Home;
use dustmail::dust_tactics::bot::{Bot, Style};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::Game;
use dustmail::ledger::{Entry, Event};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const ANN: &str = "ann@players.example";
const BOB: &str = "bob@players.example";

fn ssh_keygen() -> Command {
    Command::new("ssh-keygen")
}

fn run_ok(c: &mut Command) -> std::process::Output {
    let o = c.output().unwrap_or_else(|e| {
        panic!("cannot run {c:?} ({e}): install Debian's openssh-client (scripts/test.sh does)")
    });
    assert!(o.status.success(), "{c:?}: {}", dt::text(&o));
    o
}

/// A fresh OpenSSH key of `kind` (`ed25519`, `ecdsa`, `rsa`) without passphrase: the private
/// key's path and the line of its .pub file (with a comment).
fn keygen(dir: &Path, name: &str, kind: &str) -> (PathBuf, String) {
    let path = dir.join(name);
    let mut c = ssh_keygen();
    c.args([
        "-q",
        "-t",
        kind,
        "-N",
        "",
        "-C",
        &format!("{name}@laptop"),
        "-f",
    ])
    .arg(&path);
    if kind == "rsa" {
        c.args(["-b", "1024"]);
    }
    run_ok(&mut c);
    let public = std::fs::read_to_string(path.with_extension("pub")).unwrap();
    (path, public.trim().to_string())
}

/// `ssh-keygen -Y sign -n NAMESPACE` of a file, as the .sig file it writes (the armor).
fn sign_file(key: &Path, namespace: &str, file: &Path) -> String {
    let sig = PathBuf::from(format!("{}.sig", file.display()));
    let _ = std::fs::remove_file(&sig);
    run_ok(
        ssh_keygen()
            .args(["-Y", "sign", "-q", "-n", namespace, "-f"])
            .arg(key)
            .arg(file),
    );
    std::fs::read_to_string(&sig).unwrap()
}

/// The lines of a mail that print the signed block (after "ready to paste:", indented).
fn recipe(mail_text: &str) -> Vec<String> {
    let lines: Vec<&str> = mail_text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("print the whole block, ready to paste"))
        .unwrap_or_else(|| panic!("no OpenSSH recipe in:\n{mail_text}"));
    lines[at + 1..]
        .iter()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

/// Runs the mail's recipe with the player's file and key: the whole block, ready to paste.
fn block_by_recipe(recipe: &[String], key: &Path, file: &Path) -> String {
    let mut script = recipe.to_vec();
    assert!(script[0].starts_with("f=orders.txt k="), "{script:?}");
    script[0] = format!("f='{}' k='{}'", file.display(), key.display());
    let o = run_ok(Command::new("sh").arg("-c").arg(script.join("\n")));
    String::from_utf8(o.stdout).unwrap()
}

/// A plain-text mail (CRLF) carrying `block`.
fn mail(from: &str, msg_id: &str, block: &str) -> String {
    format!(
        "From: {from}\r\nTo: {}\r\nSubject: orders\r\nMessage-ID: <{msg_id}>\r\nDate: Sun, 1 Mar 2026 09:30:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMy orders:\r\n\r\n{}",
        dt::REFEREE,
        block.replace('\n', "\r\n")
    )
}

struct Table {
    _dir: tempfile::TempDir,
    work: PathBuf,
    home: Home,
    id: String,
    /// side → (private key path, address)
    keys: BTreeMap<String, (PathBuf, String)>,
    pubs: BTreeMap<String, String>,
}

/// `init` and `new` by the real binary: a skirmish between ann (allies) and bob (axis), both
/// registered with the .pub line of an ed25519 key ssh-keygen made.
fn table(id: &str) -> Table {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("players");
    std::fs::create_dir_all(&work).unwrap();
    let home = dt::init_home(&dir.path().join("home"), "file");
    let mut keys = BTreeMap::new();
    let mut pubs = BTreeMap::new();
    let mut args: Vec<String> = [
        "new",
        "--scenario",
        "skirmish",
        "--seed",
        &"07".repeat(32),
        "--id",
        id,
        "--now",
        dt::T0,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for (side, who, addr) in [("allies", "ann", ANN), ("axis", "bob", BOB)] {
        let (key, public) = keygen(&work, who, "ed25519");
        args.push("--player".into());
        args.push(format!("{side}={addr}:{public}"));
        keys.insert(side.to_string(), (key, addr.to_string()));
        pubs.insert(side.to_string(), public);
    }
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = dt::dustmail(&home.root, &a);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    InProc::open(&home).run(dt::NOW);
    Table {
        _dir: dir,
        work,
        home,
        id: id.to_string(),
        keys,
        pubs,
    }
}

impl Table {
    /// Decoded text bodies of the sent mails to `to` whose subject contains `subject`.
    fn sent_to(&self, to: &str, subject: &str) -> Vec<String> {
        let sent = self.home.root.join("sent");
        dt::names(&sent)
            .into_iter()
            .filter_map(|n| {
                let raw = std::fs::read(sent.join(n)).unwrap();
                let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
                let rcpt = m.to()?.first()?.address.as_deref()?.to_string();
                (rcpt == to && m.subject().unwrap_or("").contains(subject))
                    .then(|| m.body_text(0).unwrap_or_default().into_owned())
            })
            .collect()
    }

    fn entries(&self) -> Vec<Entry> {
        dustmail::ledger::read_all(&dt::log_path(&self.home, &self.id)).unwrap()
    }

    fn digest(&self) -> String {
        let g = InProc::open(&self.home).load(&self.id);
        dustmail::ledger::state_digest(&g.derived.state)
    }

    /// Writes an orders file as an editor saves it (a final newline).
    fn orders_file(&self, name: &str, text: &str) -> PathBuf {
        let f = self.work.join(name);
        std::fs::write(&f, text).unwrap();
        f
    }

    /// Drops one mail and runs once; the new ledger entries and the new mails' names.
    fn deliver(&self, name: &str, m: &str) -> (Vec<Entry>, Vec<String>) {
        let before = self.entries().len();
        let sent_before = dt::names(&self.home.root.join("sent"));
        std::fs::write(self.home.maildir().join("new").join(name), m).unwrap();
        InProc::open(&self.home).run(dt::NOW);
        let sent = dt::names(&self.home.root.join("sent"))
            .into_iter()
            .filter(|n| !sent_before.contains(n))
            .collect();
        (self.entries().split_off(before), sent)
    }

    /// The first awaited side and a legal order text for it.
    fn legal(&self) -> (String, String) {
        let g = InProc::open(&self.home).load(&self.id);
        let a = DustTactics.awaiting(g.derived.state.typed()).remove(0);
        let mut bot = Bot::new(&a.side, Style::Aggressive);
        (a.side.clone(), bot.orders(g.derived.state.typed()).unwrap())
    }
}

fn submissions(entries: &[Entry]) -> Vec<&dustmail::ledger::Submission> {
    entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::Submission(s) => Some(&**s),
            _ => None,
        })
        .collect()
}

// issue 17 item 1: a whole game where both players sign only with ssh-keygen, by the recipe
// their welcome mail gives; replay and audit re-verify every SSH signature; flipping one byte
// of one makes audit fail.
#[test]
fn a_whole_game_signed_with_ssh_keygen_only_is_played_replayed_and_audited() {
    let t = table("ssh-game");
    // The created line keeps the key's form, without the .pub comment.
    let created = t.entries().remove(0);
    let Event::Created(c) = &created.event else {
        panic!("first line: {created:?}")
    };
    for p in &c.players {
        let public = &t.pubs[&p.side];
        let without_comment: Vec<&str> = public.split_whitespace().take(2).collect();
        assert_eq!(p.public_key, without_comment.join(" "));
    }
    // The welcome mail shows the key's fingerprint as ssh-keygen -l does, and the recipe.
    let mut recipes = BTreeMap::new();
    for (side, (key, addr)) in &t.keys {
        let welcome = t.sent_to(addr, "welcome");
        assert_eq!(welcome.len(), 1, "{addr}");
        let fp = run_ok(ssh_keygen().arg("-lf").arg(key.with_extension("pub")));
        let fp = String::from_utf8(fp.stdout).unwrap();
        let fp = fp.split_whitespace().nth(1).unwrap();
        assert!(
            welcome[0].contains(&format!("key ssh-ed25519 {fp}")),
            "{}",
            welcome[0]
        );
        let body = welcome[0]
            .lines()
            .take_while(|l| !l.starts_with("Ledger-Head"));
        for l in body {
            assert!(l.chars().count() <= 72, "a welcome line over 72: {l}");
        }
        assert!(!welcome[0].contains("dustmail sign"), "{}", welcome[0]);
        recipes.insert(side.clone(), recipe(&welcome[0]));
    }

    let mut bots: BTreeMap<String, Bot> = BTreeMap::new();
    let mut steps = 0;
    for n in 0..400 {
        let g = InProc::open(&t.home).load(&t.id);
        if g.derived.finished.is_some() {
            break;
        }
        let a = DustTactics
            .awaiting(g.derived.state.typed())
            .into_iter()
            .next()
            .expect("an unfinished game awaits someone");
        let seq = g.derived.last_seq.get(&a.side).copied().unwrap_or(0) + 1;
        let bot = bots
            .entry(a.side.clone())
            .or_insert_with(|| Bot::new(&a.side, Style::Aggressive));
        let commands = bot
            .orders(g.derived.state.typed())
            .unwrap_or_else(|| a.options.first().cloned().unwrap_or_default());
        let (key, addr) = &t.keys[&a.side];
        let file = t.orders_file("orders.txt", &dt::orders(&t.id, &a.side, seq, &commands));
        let block = block_by_recipe(&recipes[&a.side], key, &file);
        assert!(block.contains("-----BEGIN SSH SIGNATURE-----"), "{block}");
        let (new, _) = t.deliver(
            &format!("m-{n:04}.eml"),
            &mail(addr, &format!("{n}@p"), &block),
        );
        let subs = submissions(&new);
        assert_eq!(subs.len(), 1, "{new:?}");
        assert!(subs[0].accepted, "refused: {:?}", subs[0].refusal);
        steps += 1;
    }
    let g = InProc::open(&t.home).load(&t.id);
    assert!(
        g.derived.finished.is_some(),
        "not finished after {steps} mails"
    );
    // Every accepted submission carries an SSHSIG blob, recorded with its text.
    let entries = t.entries();
    let subs = submissions(&entries);
    assert_eq!(subs.iter().filter(|s| s.accepted).count(), steps);
    assert!(subs.iter().all(|s| s.signature.starts_with("U1NIU0lH")));
    // Reports to OpenSSH players say what to type.
    let reports = t.sent_to(ANN, "");
    assert!(reports.iter().any(|r| r.contains("ssh-keygen -Y sign")));
    assert!(!reports.iter().any(|r| r.contains("dustmail sign --key")));

    let replay = dt::dustmail(&t.home.root, &["replay", &t.id]);
    assert_eq!(replay.status.code(), Some(0), "{}", dt::text(&replay));
    let log = dt::log_path(&t.home, &t.id);
    let audit = dt::dustmail(&t.home.root, &["audit", log.to_str().unwrap()]);
    assert_eq!(audit.status.code(), Some(0), "{}", dt::text(&audit));

    // One byte of one SSH signature flipped (inside its 64 ed25519 bytes): audit fails there.
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let (ix, sig) = lines
        .iter()
        .enumerate()
        .find_map(|(i, l)| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let sig = v.get("signature")?.as_str()?.to_string();
            sig.starts_with("U1NIU0lH").then_some((i, sig))
        })
        .expect("a submission line with an SSH signature");
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD;
    // The log up to that line (a game in progress) audits; the hash chain cannot notice a
    // change of its last line, so the signature check alone must.
    lines.truncate(ix + 1);
    let cut = t.work.join("cut.jsonl");
    std::fs::write(&cut, lines.join("\n") + "\n").unwrap();
    let audit = dt::dustmail(&t.home.root, &["audit", cut.to_str().unwrap()]);
    assert_eq!(audit.status.code(), Some(0), "{}", dt::text(&audit));
    let mut raw = b64.decode(&sig).unwrap();
    let at = raw.len() - 10;
    raw[at] ^= 0x01;
    lines[ix] = lines[ix].replace(&sig, &b64.encode(&raw));
    let bad = t.work.join("bad.jsonl");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let audit = dt::dustmail(&t.home.root, &["audit", bad.to_str().unwrap()]);
    assert_eq!(audit.status.code(), Some(1), "{}", dt::text(&audit));
    let out = dt::text(&audit);
    assert!(out.contains(&format!("line {}", ix + 1)), "{out}");
    assert!(out.contains("signature"), "{out}");
}

/// ann's address for one case: a block no registered key signed makes its sender a stranger,
/// answered once per address and window.
fn ann(case: &str) -> String {
    format!("ann+{case}@players.example")
}

/// Refused at the referee: the submission recorded refused (or as a digest), the game unmoved,
/// one answer to ann's address of this case naming every `part`.
fn refused(t: &Table, case: &str, block: &str, parts: &[&str]) {
    let digest = t.digest();
    let m = mail(&ann(case), &format!("{case}@p"), block);
    let (new, sent) = t.deliver(&format!("{case}.eml"), &m);
    let subs = submissions(&new);
    assert!(subs.iter().all(|s| !s.accepted), "{new:?}");
    assert_eq!(t.digest(), digest, "the game moved");
    assert_eq!(sent.len(), 1, "one answer: {sent:?}");
    let raw = std::fs::read(t.home.root.join("sent").join(&sent[0])).unwrap();
    let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
    let to = m
        .to()
        .and_then(|a| a.first())
        .and_then(|a| a.address.as_deref());
    assert_eq!(to, Some(ann(case).as_str()));
    assert!(
        m.subject().unwrap_or("").contains("refused"),
        "{:?}",
        m.subject()
    );
    let answer = m.body_text(0).unwrap_or_default();
    for p in parts {
        let flat = crate::support::flat;
        assert!(
            flat(&answer).contains(&flat(p)),
            "the answer lacks `{p}`:\n{answer}"
        );
    }
}

fn armored(orders_text: &str, sig: &str) -> String {
    format!("-----BEGIN DUSTMAIL ORDERS-----\n{orders_text}-----END DUSTMAIL ORDERS-----\n{sig}")
}

// issue 17 item 1: blocks signed for another namespace, with a non-ed25519 key, altered after
// signing, or with the other player's key are refused with what to do; the same orders signed
// right are then accepted.
#[test]
fn ssh_signatures_of_another_namespace_key_type_text_or_player_are_refused() {
    let t = table("ssh-refusals");
    let (side, commands) = t.legal();
    assert_eq!(side, "allies", "the skirmish starts with allies");
    let (ann_key, _) = &t.keys["allies"];
    let (bob_key, _) = &t.keys["axis"];
    let text = dt::orders(&t.id, "allies", 1, &commands);
    let file = t.orders_file("ann.txt", &text);

    // Another namespace (a git signature, say) is not orders.
    let git = sign_file(ann_key, "git", &file);
    refused(
        &t,
        "ns",
        &armored(&text, &git),
        &["namespace `git`", "-n dustmail-orders"],
    );

    // A real ECDSA key: not ed25519.
    let (ecdsa, _) = keygen(&t.work, "ann-ecdsa", "ecdsa");
    let sig = sign_file(&ecdsa, "dustmail-orders", &file);
    refused(
        &t,
        "ecdsa",
        &armored(&text, &sig),
        &["ecdsa-sha2-nistp256", "ed25519 keys only"],
    );

    // The text altered after signing.
    let sig = sign_file(ann_key, "dustmail-orders", &file);
    let altered = text.replace("seq: 1\n", "seq: 1\n\nfirst axis\n");
    assert_ne!(altered, text);
    refused(
        &t,
        "altered",
        &armored(&altered, &sig),
        &["does not match the signed file", "ssh-keygen -Y sign"],
    );

    // Signed by bob, the other player, claiming allies.
    let sig = sign_file(bob_key, "dustmail-orders", &file);
    refused(
        &t,
        "bob",
        &armored(&text, &sig),
        &[
            "side axis's registered key",
            "not the key registered for this side",
        ],
    );

    // The same orders signed right are accepted (the refusals were for their reason).
    let sig = sign_file(ann_key, "dustmail-orders", &file);
    let (new, _) = t.deliver("good.eml", &mail(ANN, "good@p", &armored(&text, &sig)));
    let subs = submissions(&new);
    assert!(subs.len() == 1 && subs[0].accepted, "{new:?}");
}

// issue 17 item 1: `new` refuses OpenSSH keys other than ed25519 (real ssh-keygen ECDSA and RSA
// keys) and says how to make an ed25519 one; no game is created.
#[test]
fn new_refuses_openssh_ecdsa_and_rsa_keys() {
    let dir = tempfile::tempdir().unwrap();
    let home = dt::init_home(&dir.path().join("home"), "file");
    let (_, ann) = keygen(dir.path(), "ann", "ed25519");
    for kind in ["ecdsa", "rsa"] {
        let (_, bob) = keygen(dir.path(), &format!("bob-{kind}"), kind);
        let o = dt::dustmail(
            &home.root,
            &[
                "new",
                "--scenario",
                "skirmish",
                "--id",
                "g",
                "--player",
                &format!("allies={ANN}:{ann}"),
                "--player",
                &format!("axis={BOB}:{bob}"),
            ],
        );
        let out = dt::text(&o);
        assert_eq!(o.status.code(), Some(2), "{out}");
        assert!(out.contains("ed25519 keys only"), "{out}");
        assert!(out.contains("ssh-keygen -t ed25519"), "{out}");
        assert!(!home.game_dir("g").exists(), "{out}");
    }
}

// issue 17 item 1: an OpenSSH-signed block is found where a dustmail one is: in an HTML-only
// body (one <div> per line, as webmail composes), in a text attachment, and in a
// format=flowed body; each is accepted, and the same mail delivered again is not applied twice.
#[test]
fn ssh_signed_blocks_in_html_attachments_and_flowed_bodies_are_accepted() {
    let t = table("ssh-intake");
    let header = |from: &str, id: &str, ctype: &str| {
        format!(
            "From: {from}\r\nTo: {}\r\nSubject: orders\r\nMessage-ID: <{id}@p>\r\nMIME-Version: 1.0\r\nContent-Type: {ctype}\r\n\r\n",
            dt::REFEREE
        )
    };
    for (n, form) in ["html", "attachment", "flowed"].into_iter().enumerate() {
        let (side, commands) = t.legal();
        let g = InProc::open(&t.home).load(&t.id);
        let seq = g.derived.last_seq.get(&side).copied().unwrap_or(0) + 1;
        let (key, addr) = &t.keys[&side];
        let text = dt::orders(&t.id, &side, seq, &commands);
        let file = t.orders_file(&format!("{form}.txt"), &text);
        let block = armored(&text, &sign_file(key, "dustmail-orders", &file));
        let m = match form {
            "html" => {
                let divs: String = block
                    .lines()
                    .map(|l| match l {
                        "" => "<div><br></div>".to_string(),
                        l => format!("<div>{l}</div>"),
                    })
                    .collect();
                header(addr, form, "text/html; charset=utf-8")
                    + &format!("<html><body><p>My orders:</p>{divs}</body></html>")
            }
            "attachment" => {
                header(addr, form, "multipart/mixed; boundary=\"b\"")
                    + "--b\r\nContent-Type: text/plain\r\n\r\nOrders attached.\r\n--b\r\n"
                    + "Content-Type: text/plain; name=\"orders.txt\"\r\n"
                    + "Content-Disposition: attachment; filename=\"orders.txt\"\r\n\r\n"
                    + &block.replace('\n', "\r\n")
                    + "\r\n--b--\r\n"
            }
            _ => {
                header(addr, form, "text/plain; charset=utf-8; format=flowed")
                    + &format!("My orders:\r\n\r\n{}", block.replace('\n', "\r\n"))
            }
        };
        let (new, _) = t.deliver(&format!("{n}.eml"), &m);
        let subs = submissions(&new);
        assert!(subs.len() == 1 && subs[0].accepted, "{form}: {new:?}");
        assert!(subs[0].signature.starts_with("U1NIU0lH"), "{form}");
        // Delivered again (a redelivery after a crash, say): not applied twice.
        let digest = t.digest();
        let (again, _) = t.deliver(&format!("{n}-again.eml"), &m);
        assert!(
            submissions(&again).iter().all(|s| !s.accepted),
            "{form}: {again:?}"
        );
        assert_eq!(t.digest(), digest, "{form}: applied twice");
    }
}

/// An SSHSIG blob made by hand (PROTOCOL.sshsig) with these fields, validly signed by `key`
/// over `message`: the armor's base64.
fn sshsig_b64(
    key: &ed25519_dalek::SigningKey,
    version: u32,
    namespace: &str,
    reserved: &[u8],
    hash: &str,
    message: &[u8],
    trailing: &[u8],
) -> String {
    use ed25519_dalek::Signer;
    use sha2::Digest;
    fn string(out: &mut Vec<u8>, s: &[u8]) {
        out.extend_from_slice(&(s.len() as u32).to_be_bytes());
        out.extend_from_slice(s);
    }
    let h = match hash {
        "sha256" => sha2::Sha256::digest(message).to_vec(),
        _ => sha2::Sha512::digest(message).to_vec(),
    };
    let mut signed = b"SSHSIG".to_vec();
    string(&mut signed, namespace.as_bytes());
    string(&mut signed, reserved);
    string(&mut signed, hash.as_bytes());
    string(&mut signed, &h);
    let mut pk = Vec::new();
    string(&mut pk, b"ssh-ed25519");
    string(&mut pk, key.verifying_key().as_bytes());
    let mut sig = Vec::new();
    string(&mut sig, b"ssh-ed25519");
    string(&mut sig, &key.sign(&signed).to_bytes());
    let mut blob = b"SSHSIG".to_vec();
    blob.extend_from_slice(&version.to_be_bytes());
    string(&mut blob, &pk);
    string(&mut blob, namespace.as_bytes());
    string(&mut blob, reserved);
    string(&mut blob, hash.as_bytes());
    string(&mut blob, &sig);
    blob.extend_from_slice(trailing);
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(blob)
}

// issue 17 item 1: verification is strict: a blob validly signed but with a reserved field, a
// hash other than sha512/sha256, a version other than 1 or bytes after the signature is refused;
// the well-formed one (which the real `ssh-keygen -Y check-novalidate` also accepts, so the
// format is OpenSSH's) verifies with sha512 and sha256, over the text with or without its final
// newline.
#[test]
fn sshsig_verification_is_strict_and_matches_openssh() {
    let dir = tempfile::tempdir().unwrap();
    let key = ed25519_dalek::SigningKey::from_bytes(&[42; 32]);
    let vk = key.verifying_key();
    let canonical = "game: g\nside: allies\nseq: 1\n\nactivate rangers\n  nothing";
    let file_bytes = format!("{canonical}\n");
    let ok = sshsig_b64(
        &key,
        1,
        "dustmail-orders",
        b"",
        "sha512",
        file_bytes.as_bytes(),
        b"",
    );
    dustmail::crypto::verify(&vk, canonical, &ok).unwrap();
    // OpenSSH reads the hand-made blob as its own.
    let sig = dir.path().join("o.sig");
    let armor: Vec<String> = ok
        .as_bytes()
        .chunks(70)
        .map(|c| String::from_utf8(c.to_vec()).unwrap())
        .collect();
    std::fs::write(
        &sig,
        format!(
            "-----BEGIN SSH SIGNATURE-----\n{}\n-----END SSH SIGNATURE-----\n",
            armor.join("\n")
        ),
    )
    .unwrap();
    let msg = dir.path().join("o.txt");
    std::fs::write(&msg, &file_bytes).unwrap();
    let o = ssh_keygen()
        .args(["-Y", "check-novalidate", "-n", "dustmail-orders", "-s"])
        .arg(&sig)
        .stdin(std::fs::File::open(&msg).unwrap())
        .output()
        .expect("ssh-keygen (openssh-client)");
    assert!(o.status.success(), "{}", dt::text(&o));

    for good in [
        sshsig_b64(
            &key,
            1,
            "dustmail-orders",
            b"",
            "sha256",
            file_bytes.as_bytes(),
            b"",
        ),
        sshsig_b64(
            &key,
            1,
            "dustmail-orders",
            b"",
            "sha512",
            canonical.as_bytes(),
            b"",
        ),
    ] {
        dustmail::crypto::verify(&vk, canonical, &good).unwrap();
    }
    let m = file_bytes.as_bytes();
    for (bad, why) in [
        (
            sshsig_b64(&key, 1, "dustmail-orders", b"x", "sha512", m, b""),
            "reserved field",
        ),
        (
            sshsig_b64(&key, 1, "dustmail-orders", b"", "sha1", m, b""),
            "hash algorithm `sha1`",
        ),
        (
            sshsig_b64(&key, 2, "dustmail-orders", b"", "sha512", m, b""),
            "version 2",
        ),
        (
            sshsig_b64(&key, 1, "dustmail-orders", b"", "sha512", m, b"\0"),
            "after the signature",
        ),
        (
            sshsig_b64(&key, 1, "dustmail-order", b"", "sha512", m, b""),
            "namespace `dustmail-order`",
        ),
        (
            sshsig_b64(&key, 1, "dustmail-orders", b"", "sha512", b"seq: 2\n", b""),
            "does not match the signed file",
        ),
    ] {
        let e = dustmail::crypto::verify(&vk, canonical, &bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains(why), "{why}: {e}");
    }
    // Another key's signature names the key that signed.
    let other = ed25519_dalek::SigningKey::from_bytes(&[7; 32]);
    let theirs = sshsig_b64(&other, 1, "dustmail-orders", b"", "sha512", m, b"");
    let e = dustmail::crypto::verify(&vk, canonical, &theirs)
        .unwrap_err()
        .to_string();
    assert!(e.contains("signed with the OpenSSH key SHA256:"), "{e}");
}

// issue 17 item 1: `control GAME replace-key SIDE=ADDRESS:ssh-ed25519 AAAA… comment` gives a
// side a new OpenSSH key: orders signed with it are accepted, with the old one refused, and the
// game replays.
#[test]
fn replace_key_takes_an_openssh_key_line() {
    let t = table("ssh-replace");
    let (side, commands) = t.legal();
    let (old_key, _) = t.keys[&side].clone();
    let (new_key, new_pub) = keygen(&t.work, "ann-new", "ed25519");
    let o = dt::dustmail(
        &t.home.root,
        &[
            "control",
            &t.id,
            "replace-key",
            &format!("{side}={ANN}:{new_pub}"),
            "--now",
            dt::NOW,
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    InProc::open(&t.home).run(dt::NOW);
    let text = dt::orders(&t.id, &side, 1, &commands);
    let file = t.orders_file("replace.txt", &text);
    let stale = armored(&text, &sign_file(&old_key, "dustmail-orders", &file));
    refused(&t, "old-key", &stale, &["not the key registered"]);
    let fresh = armored(&text, &sign_file(&new_key, "dustmail-orders", &file));
    let (new, _) = t.deliver("new-key.eml", &mail(ANN, "new-key@p", &fresh));
    let subs = submissions(&new);
    assert!(subs.len() == 1 && subs[0].accepted, "{new:?}");
    let replay = dt::dustmail(&t.home.root, &["replay", &t.id]);
    assert_eq!(replay.status.code(), Some(0), "{}", dt::text(&replay));
}

// issue 17 item 1: one key in its two spellings (`ed25519:…` and `ssh-ed25519 AAAA…`) is one
// key: two players cannot share it.
#[test]
fn new_refuses_one_key_registered_in_both_forms() {
    use base64::Engine;
    let dir = tempfile::tempdir().unwrap();
    let home = dt::init_home(&dir.path().join("home"), "file");
    let key = ed25519_dalek::SigningKey::from_bytes(&[9; 32]).verifying_key();
    let plain = dustmail::crypto::public_key_text(&key);
    let blob = dustmail::pbem::keys::ssh_ed25519_blob(&key);
    let ssh = format!(
        "ssh-ed25519 {} same@host",
        base64::engine::general_purpose::STANDARD.encode(blob)
    );
    let o = dt::dustmail(
        &home.root,
        &[
            "new",
            "--scenario",
            "skirmish",
            "--id",
            "g",
            "--player",
            &format!("allies={ANN}:{plain}"),
            "--player",
            &format!("axis={BOB}:{ssh}"),
        ],
    );
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("a key of their own"), "{out}");
    assert!(!home.game_dir("g").exists(), "{out}");
}
