//! The `dustmail` command line of DESIGN §3. Exit status: 0 success, 1 a verification failed or an
//! input was rejected, 2 usage or configuration error. Every error says what to do.

use crate::config::{Config, Home};
use crate::dust_tactics::bot::{Bot, Style};
use crate::dust_tactics::DustTactics;
use crate::game::Setup;
use crate::ledger::{self, Event, Player};
use crate::outbox::Outbox;
use crate::referee::{self, Ctx, DiceMode, Edges, NewGame, RefereeError};
use crate::report::Templates;
use chrono::{DateTime, Utc};
use clap::{Parser, Subcommand, ValueEnum};
use std::collections::BTreeMap;
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

/// The name of the Dust Tactics game in `created` lines.
pub const DUST_TACTICS: &str = "dust-tactics";
/// The file that marks a home made by `dustmail demo` (safe for the next demo to replace).
const DEMO_MARKER: &str = ".dustmail-demo";

#[derive(Debug, Parser)]
#[command(
    name = "dustmail",
    version,
    about = "A referee for Dust Tactics played by email: signed orders, auditable dice, a hash-chained ledger."
)]
pub struct Cli {
    /// The referee's home directory.
    #[arg(
        long,
        global = true,
        env = "DUSTMAIL_HOME",
        default_value = "./dustmail-home"
    )]
    pub home: PathBuf,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a home: config.toml, the referee's signing key, maildir/, outbox/, sent/, rejected/, games/.
    Init {
        /// The referee's own mail address (From: of every mail it sends).
        #[arg(long)]
        referee: String,
        /// How mail leaves: file (into sent/), sendmail, or smtp://HOST:PORT.
        #[arg(long, default_value = "file")]
        transport: String,
    },
    /// Write a player's secret key (mode 0600) and print the public key as the last line.
    Keygen {
        /// Where to write the secret key (must not exist).
        #[arg(long)]
        out: PathBuf,
    },
    /// Create a game, queue a welcome mail per player, print the game id as the last line.
    New {
        /// Scenario name (games/dust-tactics/scenarios/NAME.toml).
        #[arg(long)]
        scenario: String,
        /// A player: SIDE=ADDRESS:PUBKEY (PUBKEY as printed by keygen). Repeat a side for a
        /// team: its units are then divided by the scenario's `player` fields and --assign.
        #[arg(long = "player", required = true)]
        players: Vec<String>,
        /// Team games: UNIT=PLAYER gives a unit to a player of its side (PLAYER: the address,
        /// or the label SIDE-N, the N-th --player of that side). Overrides the scenario.
        #[arg(long = "assign")]
        assign: Vec<String>,
        /// Ruleset id.
        #[arg(long, default_value = "ffg-revised")]
        ruleset: String,
        /// The 32-byte seed secret as 64 hex digits (tests and demos only; default: from the OS).
        #[arg(long)]
        seed: Option<String>,
        /// Game id (default g- and 8 hex digits of the seed commitment).
        #[arg(long)]
        id: Option<String>,
        /// A directory of card files to use instead of the built-in cards.
        #[arg(long)]
        cards: Option<PathBuf>,
        /// Creation time (RFC 3339), for tests.
        #[arg(long)]
        now: Option<String>,
    },
    /// Print the signed block for orders read from FILE (or stdin), ready to paste into a mail.
    Sign {
        /// The player's secret key file.
        #[arg(long)]
        key: PathBuf,
        /// The text between the ORDERS markers (game:/side:/seq: lines and commands).
        file: Option<PathBuf>,
    },
    /// Process every mail in maildir/new, handle deadlines, deliver the outbox.
    Run {
        /// Process once and exit (the default).
        #[arg(long, conflicts_with = "watch")]
        once: bool,
        /// Keep running, processing every 60 seconds.
        #[arg(long)]
        watch: bool,
        /// Fix the clock (RFC 3339), for tests.
        #[arg(long)]
        now: Option<String>,
        /// Read mail from this Maildir instead of <home>/maildir.
        #[arg(long)]
        maildir: Option<PathBuf>,
        /// Exit 2 when another run holds the home's lock (by default a run that finds another
        /// one working says so in one line and exits 0, so cron runs may overlap quietly).
        #[arg(long)]
        strict: bool,
    },
    /// Render the current state of a game.
    Show {
        game: String,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Show what this side may see.
        #[arg(long = "as")]
        as_side: Option<String>,
    },
    /// Referee control of a game: pause, resume, extend HOURS, replace-key SIDE=ADDRESS:PUBKEY,
    /// observe ADDRESS, unobserve ADDRESS. Recorded in the ledger; every player is told.
    Control {
        game: String,
        /// The command and its argument, e.g. `extend 24`.
        #[arg(required = true, num_args = 1..)]
        command: Vec<String>,
        /// Fix the clock (RFC 3339), for tests.
        #[arg(long)]
        now: Option<String>,
    },
    /// Re-derive a whole game from its log and check everything; exit 1 on the first mismatch.
    Replay {
        game: String,
        /// Also write a self-contained HTML page stepping through the game (board and dice at
        /// every step).
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Check a published log file without a home; exit 1 on the first mismatch.
    Audit {
        logfile: PathBuf,
        /// A `Ledger-Head: GAME SEQ HASH` line from a referee mail, checked against the log.
        #[arg(long, requires = "sig")]
        head: Option<String>,
        /// The referee's signature of that line (Ledger-Head-Signature).
        #[arg(long, requires = "head")]
        sig: Option<String>,
    },
    /// Play a complete sample game between two local players through the real pipeline (signed
    /// mails into the Maildir, run, reports out) in a fresh --home, and print where everything is.
    Demo,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Html,
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
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match dispatch(cli) {
        Ok(()) => 0,
        Err(f) => {
            eprintln!("dustmail: {}", f.msg);
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

/// Runs one parsed command.
pub fn dispatch(cli: Cli) -> Result<(), Failure> {
    let home = Home::new(cli.home.clone());
    match cli.command {
        Command::Init { referee, transport } => init(&home, &referee, &transport),
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
            scenario,
            players,
            assign,
            ruleset,
            seed,
            id,
            cards,
            now,
        } => new_game(
            &home,
            &scenario,
            &players,
            &assign,
            &ruleset,
            seed.as_deref(),
            id,
            cards.as_deref(),
            parse_now(now.as_deref())?,
        ),
        Command::Run {
            once: _,
            watch,
            now,
            maildir,
            strict,
        } => {
            let fixed = now.as_deref().map(|t| parse_now(Some(t))).transpose()?;
            let md = maildir.as_deref();
            if !watch {
                return run_once(&home, fixed.unwrap_or_else(Utc::now), md, strict);
            }
            loop {
                // A broken game (exit 1) is reported and the watch goes on; a configuration or
                // lock problem (exit 2) ends it.
                match run_once(&home, fixed.unwrap_or_else(Utc::now), md, strict) {
                    Err(f) if f.code == 1 => eprintln!("dustmail: {}", f.msg),
                    Err(f) => return Err(f),
                    Ok(()) => {}
                }
                std::thread::sleep(std::time::Duration::from_secs(60));
            }
        }
        Command::Show {
            game,
            format,
            as_side,
        } => show(&home, &game, format, as_side.as_deref()),
        Command::Control { game, command, now } => {
            control(&home, &game, &command.join(" "), parse_now(now.as_deref())?)
        }
        Command::Replay { game, html } => replay(&home, &game, html.as_deref()),
        Command::Audit { logfile, head, sig } => audit(&logfile, head.as_deref(), sig.as_deref()),
        Command::Demo => demo(&home),
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
    home: &'a Home,
    env: &'a Env,
    edges: &'a Edges,
    now: DateTime<Utc>,
) -> Ctx<'a, DustTactics> {
    Ctx {
        game: &DustTactics,
        game_name: DUST_TACTICS,
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

/// Team assignments: every unit of a side with several players goes to one of them, from the
/// scenario's `player` fields and `--assign UNIT=PLAYER` (which wins). PLAYER is an address or
/// the label SIDE-N (the N-th `--player` of that side, from 1).
pub fn team_assignments(
    scenario: &crate::dust_tactics::scenario::Scenario,
    players: &[Player],
    assign: &[String],
) -> Result<BTreeMap<String, String>, String> {
    let resolve = |side: &str, who: &str, what: &str| -> Result<String, String> {
        let of_side: Vec<&Player> = players.iter().filter(|p| p.side == side).collect();
        if let Some(p) = of_side.iter().find(|p| p.address == who) {
            return Ok(p.address.clone());
        }
        let n = who
            .strip_prefix(side)
            .and_then(|r| r.strip_prefix('-'))
            .and_then(|n| n.parse::<usize>().ok());
        match n.and_then(|n| n.checked_sub(1)).and_then(|i| of_side.get(i)) {
            Some(p) => Ok(p.address.clone()),
            None => Err(format!(
                "{what}: `{who}` is not a player of side {side}: name the address of one of its --player options ({}) or the label {side}-1 … {side}-{}",
                of_side.iter().map(|p| p.address.as_str()).collect::<Vec<_>>().join(", "),
                of_side.len()
            )),
        }
    };
    let mut overrides: BTreeMap<String, String> = BTreeMap::new();
    for a in assign {
        let (unit, who) = a.split_once('=').ok_or_else(|| {
            format!("--assign `{a}`: write UNIT=PLAYER, e.g. rangers=ann@example.org or rangers=allies-1")
        })?;
        overrides.insert(unit.trim().to_ascii_lowercase(), who.trim().to_string());
    }
    let mut out = BTreeMap::new();
    for side in &scenario.sides {
        let team = players.iter().filter(|p| p.side == side.id).count() > 1;
        for u in &side.units {
            let who = overrides.remove(&u.id).or_else(|| u.player.clone());
            match (team, who) {
                (true, Some(w)) => {
                    out.insert(u.id.clone(), resolve(&side.id, &w, &format!("unit {}", u.id))?);
                }
                (true, None) => {
                    return Err(format!(
                        "side {} has several players, but unit {} is given to none of them: add `player = \"{}-1\"` to the unit in the scenario or pass --assign {}=ADDRESS",
                        side.id, u.id, side.id, u.id
                    ))
                }
                // A one-player side commands all its units anyway.
                (false, _) => {}
            }
        }
    }
    if let Some(unit) = overrides.keys().next() {
        return Err(format!(
            "--assign {unit}=…: the scenario has no unit `{unit}`"
        ));
    }
    for p in players {
        let team = players.iter().filter(|q| q.side == p.side).count() > 1;
        if team && !out.values().any(|a| *a == p.address) {
            return Err(format!(
                "player {} of side {} commands no unit: give them some with the scenario's `player` fields or --assign UNIT={}",
                p.address, p.side, p.address
            ));
        }
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn new_game(
    home: &Home,
    scenario: &str,
    players: &[String],
    assign: &[String],
    ruleset: &str,
    seed: Option<&str>,
    id: Option<String>,
    cards: Option<&Path>,
    now: DateTime<Utc>,
) -> Result<(), Failure> {
    let env = open_home(home)?;
    // A run must not see a game half created.
    let _lock = referee::lock_home(home)?;
    let mut ps = Vec::new();
    for p in players {
        ps.push(parse_player(p).map_err(usage)?);
    }
    // A scenario is a built-in name, or a path to a scenario file of the referee's own.
    let (scen_name, scen_text) = if scenario.ends_with(".toml") || scenario.contains('/') {
        let path = Path::new(scenario);
        let text = std::fs::read_to_string(path)
            .map_err(|e| usage(format!("--scenario {scenario}: cannot read the file ({e})")))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| scenario.to_string());
        (name, text)
    } else {
        let builtin = crate::dust_tactics::scenario::builtin();
        match builtin.iter().find(|(n, _)| *n == scenario) {
            Some((n, t)) => (n.to_string(), t.to_string()),
            None => {
                let names: Vec<&str> = builtin.iter().map(|(n, _)| *n).collect();
                return Err(usage(format!(
                    "there is no scenario `{scenario}`: use one of {} or the path of a scenario file (docs/scenarios.md)",
                    names.join(", ")
                )));
            }
        }
    };
    let scenario = scen_name.as_str();
    let parsed = crate::dust_tactics::scenario::parse(scenario, &scen_text)
        .map_err(|e| usage(format!("{e} (see docs/scenarios.md)")))?;
    let sides: Vec<String> = parsed.sides.iter().map(|s| s.id.clone()).collect();
    let assignments = team_assignments(&parsed, &ps, assign).map_err(usage)?;
    // One more key than rounds: the initiative of round r+1 may be rolled while closing round r.
    let max_rounds = parsed.rounds + 1;
    // The built-in cards, replaced or added to by the files of `--cards DIR` (players who own
    // the printed cards bring their own values).
    let mut card_map: BTreeMap<String, String> = crate::dust_tactics::cards::builtin()
        .into_iter()
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect();
    if let Some(dir) = cards {
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
                crate::dust_tactics::cards::parse_card(&name, &text)
                    .map_err(|e| usage(format!("--cards {}: {e}", dir.display())))?;
                card_map.insert(name, text);
            }
        }
    }
    let setup = Setup {
        ruleset: ruleset.to_string(),
        scenario_name: scenario.to_string(),
        scenario: scen_text,
        cards: card_map,
        sides,
    };
    let seed = match seed {
        Some(s) => parse_seed(s)?,
        None => os_seed()?,
    };
    let edges = Edges::real();
    let c = ctx(home, &env, &edges, now);
    let id = referee::create_team_game(
        &c,
        NewGame {
            setup,
            players: ps,
            seed,
            id,
            max_rounds,
        },
        assignments,
    )?;
    outln!(
        "created game {id}; welcome mails queued in {}",
        home.root.join("outbox").display()
    );
    outln!("{id}");
    Ok(())
}

fn run_once(
    home: &Home,
    now: DateTime<Utc>,
    maildir: Option<&Path>,
    strict: bool,
) -> Result<(), Failure> {
    let env = open_home(home)?;
    let _lock = match referee::try_lock_home(home) {
        Ok(Ok(lock)) => lock,
        // Cron started this run while the last one is still working: that run does the work.
        Ok(Err(busy)) if !strict => {
            outln!("{}", busy.quiet_line());
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
    let c = ctx(home, &env, &edges, now);
    let md = maildir
        .map(Path::to_path_buf)
        .unwrap_or_else(|| home.maildir());
    let sum = referee::run(&c, &md)?;
    for w in &sum.warnings {
        eprintln!("warning: {w}");
    }
    for b in &sum.broken {
        eprintln!("dustmail: {b}");
    }
    outln!(
        "mails {} accepted {} refused {} rejected {} re-queued {} reminders {} defaults {}",
        sum.mails,
        sum.accepted,
        sum.refused,
        sum.rejected,
        sum.deduplicated,
        sum.reminders,
        sum.defaults
    );
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
    outln!(
        "delivered {} failed {} waiting {}",
        rep.delivered,
        rep.failed,
        rep.waiting
    );
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
fn show(home: &Home, game: &str, format: Format, as_side: Option<&str>) -> Result<(), Failure> {
    check_game(home, game)?;
    let g = referee::load_game(&DustTactics, &Edges::real(), home, game)?;
    let dt = DustTactics;
    if let Some(s) = as_side {
        if !g.created.players.iter().any(|p| p.side == s) {
            return Err(usage(format!("--as {s}: no such side in game {game}")));
        }
    }
    if format == Format::Json {
        let v = referee::show_json(&dt, &g, as_side);
        outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return Ok(());
    }
    let config = Config::load(home).map_err(|e| usage(e.to_string()))?;
    let templates = home_templates(home, &config)?;
    let (mut ctx, pic) = crate::report::show_context(&dt, &g, as_side)?;
    let png = || -> Result<Vec<u8>, Failure> {
        let pic = pic
            .as_ref()
            .ok_or_else(|| usage("this game has no board picture: use --format text"))?;
        crate::dust_tactics::picture::png(pic).map_err(|e| usage(e.to_string()))
    };
    let rendered = match format {
        Format::Png => {
            use std::io::Write as _;
            let bytes = png()?;
            return std::io::stdout()
                .lock()
                .write_all(&bytes)
                .map_err(|e| usage(format!("cannot write the PNG to stdout: {e}")));
        }
        Format::Html => {
            if let Some(p) = &pic {
                ctx["board_img"] = crate::report::board_img(&crate::report::data_uri(&png()?), p);
            }
            templates.render_html("report", &ctx)
        }
        _ => templates.render("report", &ctx),
    };
    out!("{}", rendered.map_err(|e| usage(e.to_string()))?);
    Ok(())
}

fn control(home: &Home, game: &str, command: &str, now: DateTime<Utc>) -> Result<(), Failure> {
    check_game(home, game)?;
    let env = open_home(home)?;
    let _lock = referee::lock_home(home)?;
    let edges = Edges::real();
    let c = ctx(home, &env, &edges, now);
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

fn replay(home: &Home, game: &str, html: Option<&Path>) -> Result<(), Failure> {
    check_game(home, game)?;
    let sum = referee::replay_game(&DustTactics, &Edges::real(), home, game)?;
    print_summary(&sum);
    if let Some(file) = html {
        let config = Config::load(home).map_err(|e| usage(e.to_string()))?;
        let templates = home_templates(home, &config)?;
        let g = referee::load_game(&DustTactics, &Edges::real(), home, game)?;
        let page = crate::report::replay_page(&DustTactics, &Edges::real(), &g, &templates)?;
        std::fs::write(file, page)
            .map_err(|e| usage(format!("cannot write {}: {e}", file.display())))?;
        outln!("replay page written to {}", file.display());
    }
    Ok(())
}

fn print_summary(sum: &referee::ReplaySummary) {
    outln!(
        "ok: {} lines, hash chain intact; {} submissions, {} signatures, {} deadline defaults, {} dice, {} round keys, {} state digests checked{}{}",
        sum.lines,
        sum.submissions,
        sum.signatures,
        sum.defaults,
        sum.dice_checked,
        sum.keys_revealed,
        sum.digests,
        if sum.finished { "; game finished, secret checked" } else { "" },
        sum.hidden_note()
    );
}

fn audit(path: &Path, head: Option<&str>, sig: Option<&str>) -> Result<(), Failure> {
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
    if created.game != DUST_TACTICS {
        return Err(usage(format!(
            "{name} is a log of game `{}`; this dustmail audits `{DUST_TACTICS}` logs",
            created.game
        )));
    }
    let edges = Edges::real();
    let (_, _, sum) =
        referee::replay_bytes(&DustTactics, &edges, &name, &data, DiceMode::Recorded)?;
    if let (Some(h), Some(s)) = (head, sig) {
        referee::check_head(&edges, created, &data, h, s)?;
        outln!("ledger head verified: {h}");
    }
    print_summary(&sum);
    Ok(())
}

/// `demo`: a fresh home, two local players, the `skirmish` scenario, then signed orders mailed
/// into the Maildir and `run` until the game ends. Each side is played by an aggressive bot
/// (`dust_tactics::bot`): it shoots what it can hurt and otherwise closes in.
fn demo(home: &Home) -> Result<(), Failure> {
    use crate::game::Game;
    // A home an earlier demo made (it carries the marker) is replaced; any other non-empty
    // directory is left alone, so the demo can never delete a real referee's games.
    let marker = home.root.join(DEMO_MARKER);
    if marker.is_file() {
        std::fs::remove_dir_all(&home.root).map_err(|e| {
            usage(format!(
                "cannot remove the earlier demo home {}: {e}",
                home.root.display()
            ))
        })?;
    } else if home.root.exists()
        && std::fs::read_dir(&home.root)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(usage(format!(
            "{} is not empty and was not made by `dustmail demo`: pass --home NEWDIR",
            home.root.display()
        )));
    }
    init(home, "referee@demo.example", "file")?;
    std::fs::write(
        &marker,
        "made by `dustmail demo`; the next demo replaces this home\n",
    )
    .map_err(|e| usage(format!("cannot write {}: {e}", marker.display())))?;
    let keys_dir = home.root.join("demo-keys");
    std::fs::create_dir_all(&keys_dir)
        .map_err(|e| usage(format!("cannot create {}: {e}", keys_dir.display())))?;
    let mut keys = BTreeMap::new();
    let mut players = Vec::new();
    for (side, addr) in [
        ("allies", "allies@demo.example"),
        ("axis", "axis@demo.example"),
    ] {
        // Fixed demo keys: dice v2 follow the players' signatures, so fixed keys (and the fixed
        // seed below) make every demo the same game. They play only this throwaway home.
        let key = ed25519_dalek::SigningKey::from_bytes(
            &<sha2::Sha256 as sha2::Digest>::digest(
                format!("dustmail demo key 3 {side}").as_bytes(),
            )
            .into(),
        );
        let path = keys_dir.join(format!("{side}.key"));
        crate::crypto::write_secret_key(&path, &key)
            .map_err(|e| usage(format!("cannot write {}: {e:#}", path.display())))?;
        players.push(format!(
            "{side}={addr}:{}",
            crate::crypto::public_key_text(&key.verifying_key())
        ));
        keys.insert(side.to_string(), (key, addr));
    }
    let t0 = parse_now(Some("2026-01-01T09:00:00Z"))?;
    let seed = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(b"dustmail demo"));
    new_game(
        home,
        "skirmish",
        &players,
        &[],
        "ffg-revised",
        Some(&seed),
        Some("g-demo".into()),
        None,
        t0,
    )?;
    let id = "g-demo";
    let edges = Edges::real();
    let mut now = t0;
    let mut steps = 0;
    let mut finished = None;
    let mut bots = BTreeMap::new();
    for step in 0..300 {
        let g = referee::load_game(&DustTactics, &edges, home, id)?;
        if let Some(r) = g.derived.finished {
            finished = Some(r);
            break;
        }
        let Some(a) = DustTactics.awaiting(&g.derived.state).into_iter().next() else {
            break;
        };
        let Some((key, addr)) = keys.get(&a.side) else {
            return Err(usage(format!("the demo has no player for side {}", a.side)));
        };
        let seq = g.derived.last_seq.get(&a.side).copied().unwrap_or(0) + 1;
        let bot = bots
            .entry(a.side.clone())
            .or_insert_with(|| Bot::new(&a.side, Style::Aggressive));
        let commands = bot
            .orders(&g.derived.state)
            .unwrap_or_else(|| a.options.first().cloned().unwrap_or_default());
        let text = format!("game: {id}\nside: {}\nseq: {seq}\n\n{commands}\n", a.side);
        let mail = format!(
            "From: {addr}\r\nTo: referee@demo.example\r\nSubject: orders\r\nMessage-ID: <demo-{step}@demo.example>\r\n\r\n{}",
            crate::crypto::sign_block(key, &text).replace('\n', "\r\n")
        );
        let path = home
            .maildir()
            .join("new")
            .join(format!("demo-{step:04}.eml"));
        std::fs::write(&path, mail)
            .map_err(|e| usage(format!("cannot write {}: {e}", path.display())))?;
        now += chrono::Duration::hours(1);
        outln!("{} sends: {}", a.side, commands.replace('\n', " / "));
        run_once(home, now, None, true)?;
        steps += 1;
    }
    let root = home.root.display();
    outln!();
    match finished {
        Some(r) => outln!(
            "the demo game ended after {steps} mails: {}",
            referee::result_text(&r)
        ),
        None => outln!("the demo stopped after {steps} mails without an end"),
    }
    outln!("home:            {root}");
    outln!("ledger:          {root}/games/{id}/log.jsonl");
    outln!("player keys:     {root}/demo-keys/");
    outln!("mails received:  {root}/maildir/cur/");
    outln!("mails sent:      {root}/sent/");
    outln!("try: dustmail --home {root} show {id}");
    outln!("     dustmail --home {root} replay {id}");
    outln!("     dustmail audit {root}/games/{id}/log.jsonl");
    Ok(())
}
