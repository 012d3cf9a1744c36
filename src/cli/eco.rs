//! The command line in its ecosystem: `--version` with the ledger formats this build reads,
//! shell completions and man pages generated from the same clap definitions, the home's
//! resolution, and the examples `--help` ends with.

use super::{usage, Cli, Failure};
use crate::config::Home;
use crate::registry::Registry;
use clap::{CommandFactory, FromArgMatches};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The home when none is given: DESIGN §3.
const DEFAULT_HOME: &str = "./dustmail-home";

/// `--home` (after the command, else before it), else `DUSTMAIL_HOME`, else ./dustmail-home.
pub(super) fn home(given: Option<PathBuf>) -> Home {
    let from_env = || {
        std::env::var_os("DUSTMAIL_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    Home::new(
        given
            .or_else(from_env)
            .unwrap_or_else(|| PathBuf::from(DEFAULT_HOME)),
    )
}

/// What `--version` prints: the version, then what this build reads (DESIGN §5).
pub fn version_text(games: &Registry) -> String {
    let mut v = format!(
        "{}\nledger formats read: dice v1 (unsigned lines) and v2 (lines signed `{}`); new games are written as v{}\n",
        env!("CARGO_PKG_VERSION"),
        crate::ledger::LINE_SIG_TAG,
        crate::ledger::DICE_VERSION,
    );
    for g in games.games() {
        let r = g.rules_revision();
        v += &format!(
            "game {}: rules revisions 0 to {r} (new games: {r})\n",
            g.name()
        );
    }
    v
}

/// The clap command with this build's long version (the games fill in their rules revisions).
pub fn command(games: &Registry) -> clap::Command {
    // clap keeps the text for the life of the process; one string per process is fine.
    let long: &'static str = version_text(games).leak();
    Cli::command().long_version(long.trim_end())
}

/// Parses `args` (the first is the program) into a [`Cli`].
pub fn parse<I, T>(games: &Registry, args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut cmd = command(games);
    let m = cmd.try_get_matches_from_mut(args)?;
    Cli::from_arg_matches(&m).map_err(|e| e.format(&mut cmd))
}

/// `dustmail completions SHELL`.
pub(super) fn completions(games: &Registry, shell: clap_complete::Shell) -> Result<(), Failure> {
    let mut cmd = command(games);
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "dustmail", &mut buf);
    write_stdout(&buf)
}

/// `dustmail manpage [--dir DIR]`: dustmail.1 on stdout, or one page per command into DIR
/// (dustmail.1, dustmail-show.1…, as git and cargo ship theirs).
pub(super) fn manpage(games: &Registry, dir: Option<&Path>) -> Result<(), Failure> {
    let cmd = command(games);
    let Some(dir) = dir else {
        let mut buf = Vec::new();
        clap_mangen::Man::new(cmd)
            .render(&mut buf)
            .map_err(|e| usage(format!("cannot render the man page: {e}")))?;
        return write_stdout(&buf);
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| usage(format!("cannot create {}: {e}", dir.display())))?;
    clap_mangen::generate_to(cmd, dir).map_err(|e| {
        usage(format!(
            "cannot write the man pages into {}: {e}",
            dir.display()
        ))
    })?;
    outln!("man pages written to {}", dir.display());
    Ok(())
}

fn write_stdout(bytes: &[u8]) -> Result<(), Failure> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        // `dustmail manpage | head` is not an error.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(usage(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}

/// `dustmail --help` ends with these.
pub(super) const EXAMPLES: &str = "\
Examples:
  dustmail --home ~/referee init --referee referee@example.org
  dustmail keygen --out ann.key
  dustmail --home ~/referee new --scenario NAME --player allies=ann@example.org:PUBKEY --player axis=bob@example.org:PUBKEY
  dustmail --home ~/referee run
  dustmail --home ~/referee show GAME
  dustmail demo --home /tmp/dustmail-demo

The home: --home DIR, else $DUSTMAIL_HOME, else ./dustmail-home.
Exit status: 0 success; 1 a verification failed or an input was rejected; 2 usage or configuration error.
For scripts: new, run, games, replay and audit take --quiet and --json; show takes --format json.";

pub(super) const INIT_EXAMPLES: &str = "\
Examples:
  dustmail --home ~/referee init --referee referee@example.org
  dustmail --home ~/referee init --referee referee@example.org --transport smtp://localhost:25";

pub(super) const KEYGEN_EXAMPLES: &str = "\
Example:
  dustmail keygen --out ann.key     (then give the last line printed to the referee)";

pub(super) const NEW_EXAMPLES: &str = "\
Examples:
  dustmail games     (the games, rulesets and scenarios)
  dustmail --home ~/referee new --scenario NAME --player allies=ann@example.org:PUBKEY --player axis=bob@example.org:PUBKEY
  id=$(dustmail --home ~/referee new --quiet --scenario NAME --player …)
  dustmail --home ~/referee new --scenario NAME --place-by-rolls --terrain-squares 4 --player …
      (the players place 4 terrain squares and the scenario's cover by the rulebook's rolls)
  dustmail --home ~/referee new --ruleset battlefront-2013 --scenario bait-and-flank --force axis=battlegroup-koshka --player …
      (the axis side fields 003's Battlegroup Koshka: taskforce-joe, kampfgruppe-stefan, battlegroup-koshka)";

pub(super) const SIGN_EXAMPLES: &str = "\
Example:
  printf 'game: g-1a2b3c4d\\nside: allies\\nseq: 1\\n\\nmove rangers to c4\\n' | dustmail sign --key ann.key";

pub(super) const RUN_EXAMPLES: &str = "\
Examples:
  dustmail --home ~/referee run            (once: from cron or a systemd timer)
  dustmail --home ~/referee run --watch    (every 60 seconds)
  dustmail --home ~/referee run --json     (one JSON document: counts, warnings, broken games)";

pub(super) const SHOW_EXAMPLES: &str = "\
Examples:
  dustmail --home ~/referee show GAME
  dustmail --home ~/referee show GAME --as allies --format html > allies.html
  dustmail --home ~/referee show GAME --format json";

pub(super) const CONTROL_EXAMPLES: &str = "\
Examples:
  dustmail --home ~/referee control GAME extend 24
  dustmail --home ~/referee control GAME replace-key axis=bob@example.org:PUBKEY";

pub(super) const REPLAY_EXAMPLES: &str = "\
Examples:
  dustmail --home ~/referee replay GAME
  dustmail --home ~/referee replay GAME --html game.html
  dustmail --home ~/referee replay GAME --quiet && echo intact";

pub(super) const AUDIT_EXAMPLES: &str = "\
Examples:
  dustmail audit log.jsonl
  dustmail audit log.jsonl --head 'GAME SEQ HASH' --sig SIGNATURE     (from a referee mail's Ledger-Head lines)";

pub(super) const GAMES_EXAMPLES: &str = "\
Examples:
  dustmail games
  dustmail games --json     (each game's catalog and rules revision)";

pub(super) const DEMO_EXAMPLES: &str = "\
Example:
  dustmail demo --home /tmp/dustmail-demo     (then run the commands it prints)";

pub(super) const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  dustmail completions bash > ~/.local/share/bash-completion/completions/dustmail
  dustmail completions zsh > ~/.zfunc/_dustmail
  dustmail completions fish > ~/.config/fish/completions/dustmail.fish";

pub(super) const MANPAGE_EXAMPLES: &str = "\
Examples:
  dustmail manpage | man -l -
  dustmail manpage --dir ~/.local/share/man/man1";

/// How to call this binary in a printed command: `dustmail` when the PATH finds this very
/// program under that name, else its full path (e.g. target/release/dustmail after a build).
pub(super) fn invocation() -> String {
    let Ok(me) = std::env::current_exe().and_then(std::fs::canonicalize) else {
        return "dustmail".into();
    };
    let on_path = std::env::var_os("PATH")
        .map(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join("dustmail"))
                .find(|c| c.is_file())
        })
        .unwrap_or_default();
    match on_path.and_then(|c| std::fs::canonicalize(c).ok()) {
        Some(c) if c == me => "dustmail".into(),
        _ => shell_word(&me.display().to_string()),
    }
}

/// `s` as one word of a POSIX shell command line.
pub(super) fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%=,".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}
