//! The `dustmail` command line of DESIGN §3. Exit status: 0 success, 1 a verification failed or an
//! input was rejected, 2 usage or configuration error. Every error says what to do.

use crate::config::{Config, Home};
use crate::game::NewRequest;
use crate::ledger::{self, Event, Player};
use crate::outbox::Outbox;
use crate::pipeline::{self as referee, Ctx, DiceMode, Edges, NewGame, RefereeError};
use crate::registry::Registry;
use crate::report::Templates;
use chrono::{DateTime, Utc};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};

/// stdout writes that never panic (a closed pipe, `dustmail show | head`, is not an error).
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($t)*);
    }};
}

mod campaign;
mod eco;
mod games;
mod output;
pub use games::{registry, team_assignments};

/// The file that marks a home made by `dustmail demo` (safe for the next demo to replace).
const DEMO_MARKER: &str = ".dustmail-demo";

#[derive(Debug, Parser)]
#[command(
    name = "dustmail",
    version,
    about = "A referee for the Dust games played by email (`dustmail games` lists them): signed orders, auditable dice, a hash-chained ledger.",
    after_help = eco::EXAMPLES
)]
pub struct Cli {
    /// The referee's home directory, for the commands that use one (default: $DUSTMAIL_HOME,
    /// else ./dustmail-home). keygen, sign, audit, games, completions and manpage use none.
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

/// `--home` where a home means something (DESIGN §3: before the command, or after it).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct HomeArg {
    /// The referee's home directory (default: $DUSTMAIL_HOME, else ./dustmail-home).
    #[arg(long = "home", value_name = "DIR")]
    pub home: Option<PathBuf>,
}

/// `--quiet` and `--json`, on the commands scripts call (DESIGN §3 exit codes either way).
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct OutputArgs {
    /// Print only what a script needs on stdout (`new`: the game id; others: nothing); the exit
    /// status tells the outcome, and errors still go to stderr.
    #[arg(long, short = 'q', conflicts_with = "json")]
    pub quiet: bool,
    /// Print one JSON document on stdout instead of text; on failure it is
    /// {"error": MESSAGE, "exit": STATUS}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a home: config.toml, the referee's signing key, maildir/, outbox/, sent/, rejected/, games/.
    #[command(after_help = eco::INIT_EXAMPLES)]
    Init {
        #[command(flatten)]
        home: HomeArg,
        /// The referee's own mail address (From: of every mail it sends).
        #[arg(long)]
        referee: String,
        /// How mail leaves: file (into sent/), sendmail, or smtp://HOST:PORT.
        #[arg(long, default_value = "file")]
        transport: String,
    },
    /// Write a player's secret key (mode 0600) and print the public key as the last line.
    #[command(after_help = eco::KEYGEN_EXAMPLES)]
    Keygen {
        /// Where to write the secret key (must not exist).
        #[arg(long)]
        out: PathBuf,
    },
    /// Create a game, queue a welcome mail per player, print the game id as the last line.
    #[command(after_help = eco::NEW_EXAMPLES)]
    New {
        #[command(flatten)]
        home: HomeArg,
        #[command(flatten)]
        output: OutputArgs,
        /// The game (`dustmail games` lists them).
        #[arg(long, default_value = games::DEFAULT_GAME)]
        game: String,
        /// Scenario: a built-in name (`dustmail games` lists them) or the path of a scenario
        /// file of your own (docs/scenarios.md). `--map FILE` says the same for dust-strategy.
        /// battlefront-2013: `random`, with a --force for each side, lets two Dust dice choose
        /// one of 003 §12's five scenarios at the game's first step (R550).
        #[arg(long, alias = "map")]
        scenario: String,
        /// A player: SIDE=ADDRESS:PUBKEY (PUBKEY as printed by keygen, or the quoted line of an
        /// OpenSSH ed25519 .pub file: "SIDE=ADDRESS:ssh-ed25519 AAAA…"). Repeat a side for a
        /// team: its units are then divided by the scenario's `player` fields and --assign.
        #[arg(long = "player", required = true)]
        players: Vec<String>,
        /// Team games: UNIT=PLAYER gives a unit to a player of its side (PLAYER: the address,
        /// or the label SIDE-N, the N-th --player of that side). Overrides the scenario.
        #[arg(long = "assign")]
        assign: Vec<String>,
        /// Ruleset id (default: the game's first, `dustmail games` lists them).
        #[arg(long)]
        ruleset: Option<String>,
        /// battlefront-2013: SIDE=FORCE fields a starter force of 003 §11 (taskforce-joe,
        /// kampfgruppe-stefan, battlegroup-koshka) instead of the side's units. Repeatable.
        #[arg(long = "force")]
        forces: Vec<String>,
        /// battlefront-2013: SIDE=bunker,strongpoint: the side buys 002's fortifications (15 and
        /// 10 points) and places them by mail before the objectives. Repeatable.
        #[arg(long = "fortify")]
        fortify: Vec<String>,
        /// The 32-byte seed secret as 64 hex digits (tests and demos only; default: from the OS).
        #[arg(long, hide = true)]
        seed: Option<String>,
        /// Game id (default g- and 8 hex digits of the seed commitment).
        #[arg(long)]
        id: Option<String>,
        /// A directory of card files to use instead of the built-in cards.
        #[arg(long)]
        cards: Option<PathBuf>,
        /// Send each reader one report per run instead of one per step (default: `digest` in
        /// config.toml, else off).
        #[arg(long)]
        digest: bool,
        /// Dust Tactics: the players place the battlefield by the rulebook's rolls (004 SETUP):
        /// the scenario's cover elements come off its board and, after terrain squares if
        /// --terrain-squares says, each roll's winner places first, in turns, by mail.
        #[arg(long)]
        place_by_rolls: bool,
        /// With --place-by-rolls: terrain squares (impassable) the players place first (000:
        /// 8 light, 12 medium, 18 heavy terrain).
        #[arg(long, requires = "place_by_rolls", default_value_t = 0)]
        terrain_squares: u32,
        /// Creation time (RFC 3339), for tests.
        #[arg(long, hide = true)]
        now: Option<String>,
    },
    /// Print the signed block for orders read from FILE (or stdin), ready to paste into a mail.
    #[command(after_help = eco::SIGN_EXAMPLES)]
    Sign {
        /// The player's secret key file.
        #[arg(long)]
        key: PathBuf,
        /// The text between the ORDERS markers (game:/side:/seq: lines and commands).
        file: Option<PathBuf>,
    },
    /// Process every mail in maildir/new, handle deadlines, deliver the outbox.
    #[command(after_help = eco::RUN_EXAMPLES)]
    Run {
        #[command(flatten)]
        home: HomeArg,
        #[command(flatten)]
        output: OutputArgs,
        /// Process once and exit (the default).
        #[arg(long, conflicts_with = "watch")]
        once: bool,
        /// Keep running, processing every 60 seconds.
        #[arg(long, conflicts_with = "json")]
        watch: bool,
        /// Fix the clock (RFC 3339), for tests.
        #[arg(long, hide = true)]
        now: Option<String>,
        /// Read mail from this Maildir instead of <home>/maildir.
        #[arg(long)]
        maildir: Option<PathBuf>,
        /// Exit 2 when another run holds the home's lock (by default a run that finds another
        /// one working says so in one line and exits 0, so cron runs may overlap quietly).
        #[arg(long)]
        strict: bool,
        /// Fetch new mail from the [imap] mailbox of config.toml first (docs/imap.md); it is
        /// moved out of its folder only after the run committed.
        #[arg(long, conflicts_with = "maildir")]
        imap: bool,
    },
    /// Render the current state of a game.
    #[command(after_help = eco::SHOW_EXAMPLES)]
    Show {
        #[command(flatten)]
        home: HomeArg,
        /// The game id (as printed by `new`; games/ in the home lists them).
        game: String,
        /// text and html: the report a player would get; json: units, round and who is
        /// awaited; png: the board picture.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Show what this side may see.
        #[arg(long = "as")]
        as_side: Option<String>,
    },
    /// Referee control of a game: pause, resume, extend HOURS, replace-key SIDE=ADDRESS:PUBKEY,
    /// observe ADDRESS, unobserve ADDRESS. Recorded in the ledger; every player is told.
    #[command(after_help = eco::CONTROL_EXAMPLES)]
    Control {
        #[command(flatten)]
        home: HomeArg,
        /// The game id.
        game: String,
        /// The command and its argument, e.g. `extend 24`.
        #[arg(required = true, num_args = 1..)]
        command: Vec<String>,
        /// Fix the clock (RFC 3339), for tests.
        #[arg(long, hide = true)]
        now: Option<String>,
    },
    /// Re-derive a whole game from its log and check everything; exit 1 on the first mismatch.
    #[command(after_help = eco::REPLAY_EXAMPLES)]
    Replay {
        #[command(flatten)]
        home: HomeArg,
        #[command(flatten)]
        output: OutputArgs,
        /// The game id.
        game: String,
        /// Also write a self-contained HTML page stepping through the game (board and dice at
        /// every step).
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Check a published log file without a home; exit 1 on the first mismatch.
    #[command(after_help = eco::AUDIT_EXAMPLES)]
    Audit {
        #[command(flatten)]
        output: OutputArgs,
        /// The published ledger (a game's log.jsonl, e.g. from its end mail).
        logfile: PathBuf,
        /// A `Ledger-Head: GAME SEQ HASH` line from a referee mail, checked against the log.
        #[arg(long, requires = "sig")]
        head: Option<String>,
        /// The referee's signature of that line (Ledger-Head-Signature).
        #[arg(long, requires = "head")]
        sig: Option<String>,
    },
    /// List the games and rulesets this build referees, with their scenarios.
    #[command(after_help = eco::GAMES_EXAMPLES)]
    Games {
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Play a complete sample game between local players through the real pipeline (signed
    /// mails into the Maildir, run, reports out) in a fresh --home, and print where everything is.
    #[command(after_help = eco::DEMO_EXAMPLES)]
    Demo {
        #[command(flatten)]
        home: HomeArg,
        /// The game (`dustmail games` lists them).
        #[arg(long, default_value = games::DEFAULT_GAME)]
        game: String,
        /// Ruleset id (default: the game's first).
        #[arg(long)]
        ruleset: Option<String>,
    },
    /// Campaigns: many games as one story (`campaign new`, `show`, `audit`; docs/campaigns.md).
    Campaign {
        #[command(subcommand)]
        command: campaign::CampaignCommand,
    },
    /// Print a shell completion script (install it where your shell looks: see the README).
    #[command(after_help = eco::COMPLETIONS_EXAMPLES)]
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) of dustmail, or write one page per command into a directory.
    #[command(after_help = eco::MANPAGE_EXAMPLES)]
    Manpage {
        /// Write dustmail.1 and dustmail-COMMAND.1 for every command into DIR instead.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

impl Command {
    /// Its `--quiet`/`--json` (none: text).
    pub fn output(&self) -> OutputArgs {
        match self {
            Command::New { output, .. }
            | Command::Run { output, .. }
            | Command::Replay { output, .. }
            | Command::Audit { output, .. }
            | Command::Games { output } => *output,
            _ => OutputArgs::default(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The report as plain text.
    Text,
    /// The JSON view: units, round, who is awaited.
    Json,
    /// The report as an HTML page, board picture inline.
    Html,
    /// The board picture (PNG bytes).
    Png,
}

/// A CLI failure: message and exit status.
#[derive(Debug)]
pub struct Failure {
    pub code: i32,
    pub msg: String,
}

fn usage(msg: impl Into<String>) -> Failure {
    Failure {
        code: 2,
        msg: msg.into(),
    }
}

impl From<RefereeError> for Failure {
    fn from(e: RefereeError) -> Self {
        Failure {
            code: e.exit_code(),
            msg: e.to_string(),
        }
    }
}

/// Parses the arguments, runs the command, prints errors; returns the exit status.
pub fn main() -> i32 {
    let games = registry();
    let cli = match eco::parse(&games, std::env::args_os()) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let json = cli.command.output().json;
    match dispatch_with(&games, cli) {
        Ok(()) => 0,
        Err(f) => {
            eprintln!("dustmail: {}", f.msg);
            if json {
                output::failure(&f);
            }
            f.code
        }
    }
}

fn parse_now(now: Option<&str>) -> Result<DateTime<Utc>, Failure> {
    match now {
        None => Ok(Utc::now()),
        Some(t) => DateTime::parse_from_rfc3339(t)
            .map(|d| d.with_timezone(&Utc))
            .map_err(|e| {
                usage(format!(
                    "--now `{t}` is not an RFC 3339 time ({e}): write e.g. 2026-01-31T18:00:00Z"
                ))
            }),
    }
}

/// Runs one parsed command with this build's games.
pub fn dispatch(cli: Cli) -> Result<(), Failure> {
    dispatch_with(&registry(), cli)
}

/// Runs one parsed command with these games (a build, or a test, with games of its own).
pub fn dispatch_with(games: &Registry<'static>, cli: Cli) -> Result<(), Failure> {
    let top = cli.home;
    // `--home` after the command wins over one before it (DESIGN §3 reads both).
    let home_of = |h: HomeArg| eco::home(h.home.or_else(|| top.clone()));
    match cli.command {
        Command::Init {
            home,
            referee,
            transport,
        } => init(&home_of(home), &referee, &transport),
        Command::Keygen { out } => {
            let key = crate::crypto::generate_key();
            crate::crypto::write_secret_key(&out, &key).map_err(|e| {
                usage(format!(
                    "cannot write the key to {}: {e:#}; choose a path that does not exist yet",
                    out.display()
                ))
            })?;
            outln!("secret key written to {} (keep it private)", out.display());
            outln!("public key (give it to the referee as --player SIDE=ADDRESS:PUBKEY):");
            outln!("{}", crate::crypto::public_key_text(&key.verifying_key()));
            Ok(())
        }
        Command::Sign { key, file } => {
            let k = crate::crypto::read_secret_key(&key).map_err(|e| {
                usage(format!(
                    "cannot read the secret key {}: {e:#}; create one with `dustmail keygen --out FILE`",
                    key.display()
                ))
            })?;
            let text = match &file {
                Some(f) => std::fs::read_to_string(f)
                    .map_err(|e| usage(format!("cannot read {}: {e}", f.display())))?,
                None => {
                    let mut s = String::new();
                    std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
                        .map_err(|e| usage(format!("cannot read the orders from stdin: {e}")))?;
                    s
                }
            };
            if text.contains(crate::crypto::ORDERS_BEGIN) {
                return Err(Failure {
                    code: 1,
                    msg: "the input already contains an ORDERS block: give only the text that goes between the markers (game:, side:, seq: lines and commands)".into(),
                });
            }
            out!("{}", crate::crypto::sign_block(&k, &text));
            Ok(())
        }
        Command::New {
            home,
            output,
            game,
            scenario,
            players,
            assign,
            ruleset,
            forces,
            fortify,
            seed,
            id,
            cards,
            digest,
            place_by_rolls,
            terrain_squares,
            now,
        } => new_game(
            games,
            &home_of(home),
            output,
            NewArgs {
                game: &game,
                scenario: &scenario,
                players: &players,
                assign: &assign,
                ruleset: ruleset.as_deref().unwrap_or(""),
                forces: &forces,
                fortify: &fortify,
                seed: seed.as_deref(),
                id,
                cards: cards.as_deref(),
                digest,
                place_by_rolls: place_by_rolls.then_some(terrain_squares),
                now: parse_now(now.as_deref())?,
            },
        ),
        Command::Run {
            home,
            output,
            once: _,
            watch,
            now,
            maildir,
            strict,
            imap,
        } => {
            let fixed = now.as_deref().map(|t| parse_now(Some(t))).transpose()?;
            let md = maildir.as_deref();
            let home = home_of(home);
            if !watch {
                let now = fixed.unwrap_or_else(Utc::now);
                return run_once(games, &home, now, md, strict, imap, output);
            }
            loop {
                // A broken game (exit 1) is reported and the watch goes on; a configuration or
                // lock problem (exit 2) ends it.
                let now = fixed.unwrap_or_else(Utc::now);
                match run_once(games, &home, now, md, strict, imap, output) {
                    Err(f) if f.code == 1 => eprintln!("dustmail: {}", f.msg),
                    Err(f) => return Err(f),
                    Ok(()) => {}
                }
                std::thread::sleep(std::time::Duration::from_secs(60));
            }
        }
        Command::Show {
            home,
            game,
            format,
            as_side,
        } => show(games, &home_of(home), &game, format, as_side.as_deref()),
        Command::Control {
            home,
            game,
            command,
            now,
        } => control(
            games,
            &home_of(home),
            &game,
            &command.join(" "),
            parse_now(now.as_deref())?,
        ),
        Command::Replay {
            home,
            output,
            game,
            html,
        } => replay(games, &home_of(home), output, &game, html.as_deref()),
        Command::Audit {
            output,
            logfile,
            head,
            sig,
        } => audit(games, output, &logfile, head.as_deref(), sig.as_deref()),
        Command::Games { output } => {
            output::games(games, output);
            Ok(())
        }
        Command::Demo {
            home,
            game,
            ruleset,
        } => games::demo(games, &home_of(home), &game, ruleset.as_deref()),
        Command::Campaign { command } => campaign::dispatch(games, home_of, command),
        Command::Completions { shell } => eco::completions(games, shell),
        Command::Manpage { dir } => eco::manpage(games, dir.as_deref()),
    }
}

fn init(home: &Home, referee: &str, transport: &str) -> Result<(), Failure> {
    if home.config_path().exists() {
        return Err(usage(format!(
            "{} already exists: this home is initialised; use another --home or remove it first",
            home.config_path().display()
        )));
    }
    let config = Config::new(referee, transport).map_err(|e| usage(e.to_string()))?;
    home.create_dirs().map_err(|e| {
        usage(format!(
            "cannot create the home {}: {e}; check the path and permissions",
            home.root.display()
        ))
    })?;
    let key = crate::crypto::generate_key();
    crate::crypto::write_secret_key(&home.key_path(), &key).map_err(|e| {
        usage(format!(
            "cannot write the referee key {}: {e:#}",
            home.key_path().display()
        ))
    })?;
    config.write_new(home).map_err(|e| {
        usage(format!(
            "cannot write {}: {e}",
            home.config_path().display()
        ))
    })?;
    outln!("initialised {}", home.root.display());
    outln!(
        "referee public key: {}",
        crate::crypto::public_key_text(&key.verifying_key())
    );
    Ok(())
}

struct Env {
    config: Config,
    templates: Templates,
    key: ed25519_dalek::SigningKey,
    outbox: Outbox,
}

fn open_home(home: &Home) -> Result<Env, Failure> {
    let config = Config::load(home).map_err(|e| usage(e.to_string()))?;
    let templates = home_templates(home, &config)?;
    let key = crate::crypto::read_secret_key(&home.key_path()).map_err(|e| {
        usage(format!(
            "cannot read the referee key {}: {e:#}; was this home made by `dustmail init`?",
            home.key_path().display()
        ))
    })?;
    let outbox =
        Outbox::open(&home.root).map_err(|e| usage(format!("cannot open the outbox: {e:#}")))?;
    Ok(Env {
        config,
        templates,
        key,
        outbox,
    })
}

fn ctx<'a>(
    games: &Registry<'a>,
    home: &'a Home,
    env: &'a Env,
    edges: &'a Edges,
    now: DateTime<Utc>,
) -> Ctx<'a> {
    Ctx {
        games: *games,
        home,
        config: &env.config,
        templates: &env.templates,
        edges,
        sink: &env.outbox,
        key: &env.key,
        now,
    }
}

fn parse_seed(hex_text: &str) -> Result<[u8; 32], Failure> {
    hex::decode(hex_text)
        .ok()
        .and_then(|v| <[u8; 32]>::try_from(v).ok())
        .ok_or_else(|| {
            usage(format!(
                "--seed `{hex_text}` is not 64 hex digits (32 bytes)"
            ))
        })
}

fn os_seed() -> Result<[u8; 32], Failure> {
    // The OS random source, through the same generator the keys use.
    let k = crate::crypto::generate_key();
    let mut s = [0u8; 32];
    s.copy_from_slice(&sha2::Digest::finalize(sha2::Digest::chain_update(
        <sha2::Sha256 as sha2::Digest>::new_with_prefix(b"dustmail/seed/v1"),
        k.to_bytes(),
    )));
    Ok(s)
}

/// `SIDE=ADDRESS:PUBKEY`.
pub fn parse_player(arg: &str) -> Result<Player, String> {
    referee::parse_player(arg).map_err(|e| format!("--player {e}"))
}

/// What `new` was given.
pub(crate) struct NewArgs<'a> {
    pub game: &'a str,
    pub scenario: &'a str,
    pub players: &'a [String],
    pub assign: &'a [String],
    /// Empty: the game's default.
    pub ruleset: &'a str,
    /// `--force SIDE=FORCE`, as given.
    pub forces: &'a [String],
    /// `--fortify SIDE=LIST`, as given.
    pub fortify: &'a [String],
    pub seed: Option<&'a str>,
    pub id: Option<String>,
    pub cards: Option<&'a Path>,
    /// `--digest`: this game sends one report per reader per run.
    pub digest: bool,
    /// `--place-by-rolls` with its `--terrain-squares`.
    pub place_by_rolls: Option<u32>,
    pub now: DateTime<Utc>,
}

pub(crate) fn new_game(
    games: &Registry,
    home: &Home,
    output: OutputArgs,
    a: NewArgs,
) -> Result<(), Failure> {
    let mut env = open_home(home)?;
    env.config.digest |= a.digest;
    let game = games.find(a.game).map_err(usage)?;
    // A run must not see a game half created.
    let _lock = referee::lock_home(home)?;
    let mut ps = Vec::new();
    for p in a.players {
        ps.push(parse_player(p).map_err(usage)?);
    }
    let mut req = NewRequest {
        ruleset: (!a.ruleset.is_empty()).then(|| a.ruleset.to_string()),
        sides: ps.iter().map(|p| p.side.clone()).collect(),
        place_by_rolls: a.place_by_rolls,
        forces: games::forces(game.name(), a.forces).map_err(usage)?,
        fortify: games::fortify(game.name(), a.fortify).map_err(usage)?,
        ..NewRequest::default()
    };
    // A scenario is a built-in name, or a path to a scenario file of the referee's own.
    let scenario = a.scenario;
    if scenario.ends_with(".toml") || scenario.contains('/') {
        let path = Path::new(scenario);
        let text = std::fs::read_to_string(path)
            .map_err(|e| usage(format!("--scenario {scenario}: cannot read the file ({e})")))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| scenario.to_string());
        req.scenario_file = Some((name, text));
    } else {
        req.scenario = Some(scenario.to_string());
    }
    // The files of `--cards DIR` (players who own the printed cards bring their own values);
    // the game checks them.
    if let Some(dir) = a.cards {
        let rd = std::fs::read_dir(dir).map_err(|e| {
            usage(format!(
                "--cards {}: not a readable directory ({e})",
                dir.display()
            ))
        })?;
        let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|x| x == "toml") {
                let text = std::fs::read_to_string(&p)
                    .map_err(|e| usage(format!("cannot read card {}: {e}", p.display())))?;
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                req.data.insert(name, text);
            }
        }
    }
    let plan = game.plan_new(&req).map_err(|e| match &a.cards {
        Some(dir) if e.0.contains(".toml") => usage(format!("--cards {}: {e}", dir.display())),
        _ => usage(e.0),
    })?;
    let assignments = team_assignments(&plan.units, &ps, a.assign).map_err(usage)?;
    let seed = match a.seed {
        Some(s) => parse_seed(s)?,
        None => os_seed()?,
    };
    let edges = Edges::real();
    let c = ctx(games, home, &env, &edges, a.now);
    let id = referee::create_team_game(
        &c,
        NewGame {
            game: game.name().to_string(),
            setup: plan.setup,
            players: ps,
            seed,
            id: a.id,
            max_rounds: plan.max_rounds,
        },
        assignments,
    )?;
    output::created(&id, &home.root.join("outbox"), output);
    Ok(())
}

/// One run, its summary printed as text, not at all (`--quiet`) or as JSON (`--json`).
pub(crate) fn run_once(
    games: &Registry,
    home: &Home,
    now: DateTime<Utc>,
    maildir: Option<&Path>,
    strict: bool,
    imap: bool,
    output: OutputArgs,
) -> Result<(), Failure> {
    let env = open_home(home)?;
    let _lock = match referee::try_lock_home(home) {
        Ok(Ok(lock)) => lock,
        // Cron started this run while the last one is still working: that run does the work.
        Ok(Err(busy)) if !strict => {
            output::busy(&busy.quiet_line(), output);
            return Ok(());
        }
        Ok(Err(busy)) => return Err(usage(busy.to_string())),
        Err(e) => {
            return Err(usage(format!(
                "cannot open {}: {e}",
                home.lock_path().display()
            )))
        }
    };
    let edges = Edges::real();
    let c = ctx(games, home, &env, &edges, now);
    let md = maildir
        .map(Path::to_path_buf)
        .unwrap_or_else(|| home.maildir());
    let sum = if imap {
        let (sum, fetched) = referee::run_imap(&c, &md)?;
        if !output.quiet && !output.json {
            outln!("{fetched}");
        }
        sum
    } else {
        referee::run(&c, &md)?
    };
    for w in &sum.warnings {
        eprintln!("warning: {w}");
    }
    for b in &sum.broken {
        eprintln!("dustmail: {b}");
    }
    output::run_summary(&sum, output);
    let transport = env
        .config
        .outbox_transport()
        .map_err(|e| usage(e.to_string()))?;
    let rep = env
        .outbox
        .deliver_with(&transport, &env.config.delivery_options(), now)
        .map_err(|e| usage(format!("delivery failed: {e:#}")))?;
    for e in &rep.errors {
        eprintln!("delivery: {e}");
    }
    output::delivered(&sum, &rep, output);
    if !sum.broken.is_empty() {
        return Err(Failure {
            code: 1,
            msg: format!(
                "{} game(s) could not be read or verified (their mails wait in maildir/new): fix the ledger as the message above says, then run again",
                sum.broken.len()
            ),
        });
    }
    Ok(())
}

/// The home's templates: built-ins, overridden by config.toml's `template_dir`.
fn home_templates(home: &Home, config: &Config) -> Result<Templates, Failure> {
    Templates::new(
        config
            .template_dir
            .as_deref()
            .map(|d| {
                if d.is_absolute() {
                    d.to_path_buf()
                } else {
                    home.root.join(d)
                }
            })
            .as_deref(),
    )
    .map_err(|e| usage(e.to_string()))
}

/// `show`: the report the side (or, without `--as`, the referee) would get now, as text, HTML
/// (picture inline as a data: URI), PNG bytes or the JSON view.
fn show(
    games: &Registry,
    home: &Home,
    game: &str,
    format: Format,
    as_side: Option<&str>,
) -> Result<(), Failure> {
    check_game(home, game)?;
    let g = referee::load_any(games, &Edges::real(), home, game)?;
    let dt = g.game;
    if let Some(s) = as_side {
        if !g.created.players.iter().any(|p| p.side == s) {
            return Err(usage(format!("--as {s}: no such side in game {game}")));
        }
    }
    if format == Format::Json {
        let v = referee::show_json(dt, &g, as_side);
        outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return Ok(());
    }
    let config = Config::load(home).map_err(|e| usage(e.to_string()))?;
    let templates = home_templates(home, &config)?;
    let (mut ctx, happenings, view) = crate::report::show_context(dt, &g, as_side)?;
    let png = || {
        dt.picture(&view, as_side, &happenings)
            .ok_or_else(|| usage("this game has no board picture: use --format text"))
    };
    let rendered = match format {
        Format::Png => {
            use std::io::Write as _;
            let bytes = png()?.bytes;
            return std::io::stdout()
                .lock()
                .write_all(&bytes)
                .map_err(|e| usage(format!("cannot write the PNG to stdout: {e}")));
        }
        Format::Html => {
            if let Ok(p) = png() {
                ctx["board_img"] = crate::report::board_img(&crate::report::data_uri(&p.bytes), &p);
            }
            templates.render_html("report", &ctx)
        }
        _ => templates.render("report", &ctx),
    };
    out!("{}", rendered.map_err(|e| usage(e.to_string()))?);
    Ok(())
}

fn control(
    games: &Registry,
    home: &Home,
    game: &str,
    command: &str,
    now: DateTime<Utc>,
) -> Result<(), Failure> {
    check_game(home, game)?;
    let env = open_home(home)?;
    let _lock = referee::lock_home(home)?;
    let edges = Edges::real();
    let c = ctx(games, home, &env, &edges, now);
    let understood = referee::control_game(&c, game, command)?;
    outln!("game {game}: {understood}");
    outln!("every player and observer is told; the mails wait in the outbox until the next run");
    Ok(())
}

fn check_game(home: &Home, game: &str) -> Result<(), Failure> {
    if !crate::config::valid_game_id(game) || !home.game_dir(game).join(ledger::LOG_FILE).exists() {
        return Err(usage(format!(
            "no game `{game}` in {}: check the id (games/ lists them) or --home",
            home.root.display()
        )));
    }
    Ok(())
}

fn replay(
    games: &Registry,
    home: &Home,
    output: OutputArgs,
    game: &str,
    html: Option<&Path>,
) -> Result<(), Failure> {
    check_game(home, game)?;
    let kind = referee::game_of(games, home, game)?;
    let mut progress = output::Progress::start(output, "replaying");
    let mut step = |n, total| progress.step(n, total);
    let sum =
        crate::pbem::store::replay_game_observed(kind, &Edges::real(), home, game, &mut step)?;
    progress.done();
    if let Some(file) = html {
        let config = Config::load(home).map_err(|e| usage(e.to_string()))?;
        let templates = home_templates(home, &config)?;
        let g = referee::load_game(kind, &Edges::real(), home, game)?;
        let page = crate::report::replay_page(kind, &Edges::real(), &g, &templates)?;
        std::fs::write(file, page)
            .map_err(|e| usage(format!("cannot write {}: {e}", file.display())))?;
    }
    output::replayed(&sum, output, None, html);
    Ok(())
}

fn audit(
    games: &Registry,
    output: OutputArgs,
    path: &Path,
    head: Option<&str>,
    sig: Option<&str>,
) -> Result<(), Failure> {
    let data = std::fs::read(path).map_err(|e| {
        usage(format!(
            "cannot read {} ({e}): give the path of a published log.jsonl",
            path.display()
        ))
    })?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "log.jsonl".into());
    let entries = ledger::parse_log(&name, &data).map_err(RefereeError::from)?;
    let Some(Event::Created(created)) = entries.first().map(|e| &e.event) else {
        return Err(Failure {
            code: 1,
            msg: format!("{name} line 1 is not a `created` line"),
        });
    };
    let game = games.get(&created.game).ok_or_else(|| {
        usage(format!(
            "{name} is a log of game `{}`; this dustmail audits logs of {} (`dustmail games`)",
            created.game,
            games.names().join(", ")
        ))
    })?;
    let edges = Edges::real();
    let mut progress = output::Progress::start(output, "auditing");
    let mut step = |n, total| progress.step(n, total);
    let mode = DiceMode::Recorded;
    let (_, _, sum) =
        crate::pbem::replay::replay_bytes_observed(game, &edges, &name, &data, mode, &mut step)?;
    progress.done();
    if let (Some(h), Some(s)) = (head, sig) {
        referee::check_head(&edges, created, &data, h, s)?;
    }
    output::replayed(&sum, output, head.zip(sig).map(|(h, _)| h), None);
    Ok(())
}
