//! The command line in its ecosystem (issue 17 items 4 and 5): completions, man pages,
//! `--version`, `--quiet`/`--json`, progress only on a terminal, NO_COLOR, the help, `--home`
//! only where a home means something, the demo's printed commands, the systemd units. Every test
//! drives the real binary.

use clap::CommandFactory;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const SUBCOMMANDS: [&str; 13] = [
    "init",
    "keygen",
    "new",
    "sign",
    "run",
    "show",
    "control",
    "replay",
    "audit",
    "games",
    "demo",
    "completions",
    "manpage",
];

/// The binary with a clean environment for what these tests look at.
fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_dustmail"));
    c.env_remove("DUSTMAIL_HOME")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn show(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn ok(o: Output) -> Output {
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    o
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}):\n{}", show(o)))
}

/// A finished demo game in a fresh home: (tempdir, home).
fn demo_home() -> (tempfile::TempDir, std::path::PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("home");
    ok(bin().args(["demo", "--home"]).arg(&home).output().unwrap());
    (d, home)
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// issue 17 item 4: `dustmail completions SHELL` for every shell clap_complete knows, each
/// naming the commands.
#[test]
fn completions_for_every_shell_name_the_commands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = ok(run(&["completions", shell]));
        let s = stdout(&o);
        assert!(s.len() > 500, "{shell}: too short:\n{s}");
        for sub in SUBCOMMANDS {
            assert!(s.contains(sub), "{shell} completion lacks `{sub}`:\n{s}");
        }
    }
    // bash loads its script and completes `dustmail` with it.
    let script = stdout(&ok(run(&["completions", "bash"])));
    let o = Command::new("bash")
        .args(["-c", "eval \"$1\" && complete -p dustmail", "bash", &script])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(stdout(&o).contains("dustmail"), "{}", show(&o));
    let o = run(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
}

/// issue 17 item 4: `dustmail manpage` is roff naming every command; `--dir` writes one page
/// per command, as the package installs them.
#[test]
fn manpage_is_roff_with_every_command() {
    let o = ok(run(&["manpage"]));
    let s = stdout(&o);
    assert!(s.contains(".TH dustmail 1"), "not a roff man page:\n{s}");
    assert!(s.contains(".SH NAME") && s.contains(".SH SYNOPSIS"), "{s}");
    for sub in SUBCOMMANDS {
        assert!(s.contains(sub), "the man page lacks `{sub}`:\n{s}");
    }
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("man1");
    ok(run(&["manpage", "--dir", p(&dir)]));
    for sub in SUBCOMMANDS {
        let page = std::fs::read_to_string(dir.join(format!("dustmail-{sub}.1")))
            .unwrap_or_else(|e| panic!("no page for {sub}: {e}"));
        assert!(page.contains(&format!(".TH dustmail-{sub} 1")), "{page}");
    }
    let run_page = std::fs::read_to_string(dir.join("dustmail-run.1")).unwrap();
    assert!(run_page.contains("watch"), "{run_page}");
}

/// issue 17 item 4: `--version` names the ledger formats this build reads.
#[test]
fn version_lists_the_ledger_formats() {
    let o = ok(run(&["--version"]));
    let s = stdout(&o);
    assert!(
        s.starts_with(&format!("dustmail {}", env!("CARGO_PKG_VERSION"))),
        "{s}"
    );
    assert!(s.contains("dice v1") && s.contains("v2"), "{s}");
    assert!(s.contains("dustmail/ledger-line/v2"), "{s}");
    assert!(s.contains("dust-tactics: rules revisions 0 to"), "{s}");
}

/// issue 17 item 4: the test-only flags are hidden from the help, and still work.
#[test]
fn help_hides_now_and_seed() {
    for cmd in ["new", "run", "control"] {
        let s = stdout(&ok(run(&[cmd, "--help"])));
        assert!(!s.contains("--now"), "{cmd} --help offers --now:\n{s}");
        assert!(!s.contains("--seed"), "{cmd} --help offers --seed:\n{s}");
    }
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("home");
    ok(run(&[
        "--home",
        p(&home),
        "init",
        "--referee",
        "ref@example.org",
    ]));
    let o = ok(run(&[
        "--home",
        p(&home),
        "run",
        "--now",
        "2026-01-01T00:00:00Z",
    ]));
    assert!(stdout(&o).contains("mails 0"), "{}", show(&o));
}

/// issue 17 item 4: keygen, sign, audit, games, completions and manpage neither list nor take
/// `--home`; the commands with a home take it before or after the command, or from
/// DUSTMAIL_HOME (DESIGN §3).
#[test]
fn home_only_where_it_means_something() {
    for cmd in ["keygen", "sign", "audit", "games", "completions", "manpage"] {
        let s = stdout(&ok(run(&[cmd, "--help"])));
        assert!(!s.contains("--home"), "{cmd} --help offers --home:\n{s}");
    }
    let d = tempfile::tempdir().unwrap();
    let key = d.path().join("k");
    let o = run(&["keygen", "--home", p(d.path()), "--out", p(&key)]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(!key.exists());
    for cmd in ["init", "new", "run", "show", "control", "replay", "demo"] {
        let s = stdout(&ok(run(&[cmd, "--help"])));
        assert!(s.contains("--home"), "{cmd} --help lacks --home:\n{s}");
    }
    // After the command, before it, and from the environment.
    let after = d.path().join("after");
    ok(run(&[
        "init",
        "--home",
        p(&after),
        "--referee",
        "r@example.org",
    ]));
    assert!(after.join("config.toml").is_file());
    let env_home = d.path().join("env");
    ok(bin()
        .env("DUSTMAIL_HOME", &env_home)
        .args(["init", "--referee", "r@example.org"])
        .output()
        .unwrap());
    assert!(env_home.join("config.toml").is_file());
    let o = ok(bin()
        .env("DUSTMAIL_HOME", &env_home)
        .args(["--home", p(&after), "run", "--json"])
        .output()
        .unwrap());
    assert_eq!(json(&o)["mails"], 0);
}

/// issue 17 item 4: every argument of every command has a help line, and every command's help
/// ends with examples.
#[test]
fn every_argument_has_a_help_line() {
    let cmd = dustmail::cli::Cli::command();
    let mut missing = Vec::new();
    for arg in cmd.get_arguments() {
        if arg.get_help().is_none() {
            missing.push(format!("dustmail --{}", arg.get_id()));
        }
    }
    for sub in cmd.get_subcommands() {
        for arg in sub.get_arguments() {
            if arg.get_help().is_none() && !arg.is_hide_set() {
                missing.push(format!("dustmail {} {}", sub.get_name(), arg.get_id()));
            }
        }
    }
    assert!(missing.is_empty(), "arguments without help: {missing:?}");
    for sub in SUBCOMMANDS {
        let s = stdout(&ok(run(&[sub, "--help"])));
        assert!(s.contains("Example"), "{sub} --help has no example:\n{s}");
    }
}

/// issue 17 item 4: `--json` prints one JSON document on `new`, `run`, `games`, `replay` and
/// `audit`, also when they fail (with the exit status of DESIGN §3); `--quiet` prints only the
/// game id on `new` and nothing on `replay`.
#[test]
fn json_and_quiet_output_for_scripts() {
    let (d, home) = demo_home();
    let h = p(&home);
    let games = json(&ok(run(&["games", "--json"])));
    assert_eq!(games["games"][0]["name"], "dust-tactics");
    assert!(games["games"][0]["scenarios"].as_array().unwrap().len() > 1);

    let r = json(&ok(run(&["--home", h, "replay", "g-demo", "--json"])));
    assert_eq!(r["ok"], true);
    assert_eq!(r["finished"], true);
    assert!(r["lines"].as_u64().unwrap() > 2, "{r}");
    let log = home.join("games/g-demo/log.jsonl");
    let a = json(&ok(run(&["audit", p(&log), "--json"])));
    assert_eq!(a["lines"], r["lines"]);

    let o = ok(run(&["--home", h, "replay", "g-demo", "--quiet"]));
    assert!(o.stdout.is_empty(), "{}", show(&o));

    let o = ok(run(&["--home", h, "run", "--json"]));
    assert_eq!(json(&o)["mails"], 0);

    // A failure: the exit status is unchanged and stdout is still one document.
    let o = run(&["audit", p(&d.path().join("missing.jsonl")), "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert_eq!(json(&o)["exit"], 2);
    let mut bad = std::fs::read_to_string(&log).unwrap();
    bad = bad.replacen("\"seq\":2", "\"seq\":7", 1);
    let bad_log = d.path().join("bad.jsonl");
    std::fs::write(&bad_log, bad).unwrap();
    let o = run(&["audit", p(&bad_log), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(json(&o)["error"].as_str().unwrap().contains("bad.jsonl"));

    // new: --json and --quiet.
    let home2 = d.path().join("home2");
    let h2 = p(&home2);
    ok(run(&["--home", h2, "init", "--referee", "ref@example.org"]));
    let mut players = Vec::new();
    for side in ["allies", "axis"] {
        let key = d.path().join(format!("{side}.key"));
        let o = ok(run(&["keygen", "--out", p(&key)]));
        let pubkey = stdout(&o).lines().last().unwrap().to_string();
        players.push(format!("{side}={side}@example.org:{pubkey}"));
    }
    let new = |extra: &[&str]| {
        let mut args = vec!["--home", h2, "new", "--scenario", "skirmish"];
        for pl in &players {
            args.extend(["--player", pl.as_str()]);
        }
        args.extend(extra);
        ok(run(&args))
    };
    let n = json(&new(&["--json", "--id", "g-json"]));
    assert_eq!(n["game_id"], "g-json");
    let o = new(&["--quiet", "--id", "g-quiet"]);
    assert_eq!(stdout(&o), "g-quiet\n");
    let o = run(&["--home", h2, "run", "--json", "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
}

/// issue 17 item 4: progress lines only when stderr is a terminal (here a pseudo-terminal made
/// by util-linux `script`), never into a pipe.
#[test]
fn progress_only_on_a_terminal() {
    let (_d, home) = demo_home();
    let o = ok(run(&["--home", p(&home), "replay", "g-demo"]));
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("line"),
        "{}",
        show(&o)
    );
    let script = Path::new("/usr/bin/script");
    assert!(
        script.exists(),
        "this test needs util-linux `script` (Debian package bsdutils) to make a terminal"
    );
    for cmd in [
        format!(
            "{} --home {} replay g-demo",
            env!("CARGO_BIN_EXE_dustmail"),
            p(&home)
        ),
        format!(
            "{} audit {}/games/g-demo/log.jsonl",
            env!("CARGO_BIN_EXE_dustmail"),
            p(&home)
        ),
    ] {
        let o = Command::new(script)
            .args(["-qec", &cmd, "/dev/null"])
            .env_remove("DUSTMAIL_HOME")
            .output()
            .unwrap();
        let s = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{}", show(&o));
        assert!(
            s.contains(": line 1 of "),
            "no progress on a terminal:\n{s}"
        );
        assert!(s.contains("ok: "), "{s}");
    }
}

/// issue 17 item 4: colour (clap's help and errors are the only coloured output) follows
/// NO_COLOR, even when CLICOLOR_FORCE asks for it.
#[test]
fn no_color_is_respected() {
    let coloured = bin()
        .env("CLICOLOR_FORCE", "1")
        .args(["--help"])
        .output()
        .unwrap();
    assert!(
        stdout(&coloured).contains('\x1b'),
        "CLICOLOR_FORCE should colour the help (else this test proves nothing)"
    );
    for args in [&["--help"][..], &["run", "--help"], &["no-such-command"]] {
        let o = bin()
            .env("CLICOLOR_FORCE", "1")
            .env("NO_COLOR", "1")
            .args(args)
            .output()
            .unwrap();
        assert!(!o.stdout.contains(&0x1b), "{args:?}: {}", show(&o));
        assert!(!o.stderr.contains(&0x1b), "{args:?}: {}", show(&o));
    }
}

/// issue 17 item 5: the demo's closing commands work exactly as printed, from any directory,
/// with no `dustmail` on the PATH.
#[test]
fn demo_commands_work_as_printed() {
    let d = tempfile::tempdir().unwrap();
    let o = ok(bin()
        .current_dir(d.path())
        .args(["demo", "--home", "rel-home"])
        .output()
        .unwrap());
    let s = stdout(&o);
    let cmds: Vec<&str> = s
        .lines()
        .skip_while(|l| !l.starts_with("try: "))
        .map(|l| l.trim_start_matches("try:").trim())
        .collect();
    assert_eq!(cmds.len(), 3, "{s}");
    for c in cmds {
        let o = Command::new("/bin/sh")
            .args(["-c", c])
            .current_dir("/")
            .env("PATH", "/usr/bin:/bin")
            .env_remove("DUSTMAIL_HOME")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "`{c}` fails:\n{}", show(&o));
    }
}

/// The keys of `section` in a systemd unit file (a plain INI reading).
fn ini_keys(text: &str, section: &str) -> Vec<(String, String)> {
    let mut cur = String::new();
    let mut keys = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            cur = name.to_string();
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("not an INI line: {line}"));
        if cur == section {
            keys.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    keys
}

/// issue 17 item 4: the example systemd units parse, run `dustmail run`, and pass
/// `systemd-analyze verify` where that program exists.
#[test]
fn systemd_units_verify() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/systemd");
    let service = std::fs::read_to_string(dir.join("dustmail.service")).unwrap();
    let timer = std::fs::read_to_string(dir.join("dustmail.timer")).unwrap();
    let svc = ini_keys(&service, "Service");
    let get = |keys: &[(String, String)], k: &str| {
        keys.iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no {k}= in {keys:?}"))
    };
    assert_eq!(get(&svc, "Type"), "oneshot");
    assert!(get(&svc, "ExecStart").starts_with("/usr/bin/dustmail run"));
    assert!(get(&svc, "Environment").starts_with("DUSTMAIL_HOME="));
    let tim = ini_keys(&timer, "Timer");
    assert_eq!(get(&tim, "Unit"), "dustmail.service");
    assert!(!get(&tim, "OnCalendar").is_empty());
    assert_eq!(
        get(&ini_keys(&timer, "Install"), "WantedBy"),
        "timers.target"
    );

    let Ok(analyze) = which("systemd-analyze") else {
        eprintln!("systemd-analyze is not installed: the units were checked as INI files only");
        return;
    };
    // verify checks that ExecStart= exists: point it at the binary under test.
    let d = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_dustmail");
    std::fs::write(
        d.path().join("dustmail.service"),
        service.replace("/usr/bin/dustmail", exe),
    )
    .unwrap();
    std::fs::write(d.path().join("dustmail.timer"), &timer).unwrap();
    let o = Command::new(analyze)
        .args(["verify", "--man=no"])
        .arg(d.path().join("dustmail.service"))
        .arg(d.path().join("dustmail.timer"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(
        !err.contains("Unknown") && !err.contains("ignoring"),
        "systemd-analyze warns:\n{err}"
    );
}

fn which(name: &str) -> Result<std::path::PathBuf, ()> {
    let path = std::env::var_os("PATH").ok_or(())?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or(())
}
