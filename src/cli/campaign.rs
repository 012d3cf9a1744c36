//! `dustmail campaign new | show | audit` (DESIGN §6, docs/campaigns.md).

use super::{ctx, open_home, parse_now, parse_seed, usage, Failure, HomeArg};
use crate::config::Home;
use crate::pbem::campaign::{self as core, CampaignPlayer};
use crate::pipeline::{self as referee, campaign, Edges};
use crate::registry::Registry;
use clap::{Subcommand, ValueEnum};
use std::path::{Path, PathBuf};

const NEW_EXAMPLES: &str = "Example:\n  dustmail campaign new --id club --rules league.toml \\\n    --player ann=ann@example.org:ed25519:AbC… --player bob=bob@example.org:ed25519:DeF…";
const SHOW_EXAMPLES: &str =
    "Example:\n  dustmail campaign show club\n  dustmail campaign show club --format html > club.html";
const PAGE_EXAMPLES: &str = "Example:\n  dustmail campaign page club --dir ./club-pages   # then open club-pages/index.html";
const REPLACE_EXAMPLES: &str =
    "Example:\n  dustmail campaign replace club ann=ann@new.example.org:ed25519:XyZ…";
const AUDIT_EXAMPLES: &str = "Example:\n  dustmail campaign audit ./dustmail-home/campaigns/club";

#[derive(Debug, Subcommand)]
pub enum CampaignCommand {
    /// Create a campaign: its ledger, and the games its rules open at once.
    #[command(after_help = NEW_EXAMPLES)]
    New {
        #[command(flatten)]
        home: HomeArg,
        /// The campaign's id (its games are ID-1, ID-2, …).
        #[arg(long)]
        id: String,
        /// The campaign rules file (TOML: kind, scenarios, sides, carry_over, scoring; see
        /// docs/campaigns.md).
        #[arg(long, value_name = "FILE")]
        rules: PathBuf,
        /// NAME=ADDRESS:PUBKEY, once per player (in order: a chain's first player takes the
        /// first side).
        #[arg(long = "player", value_name = "NAME=ADDRESS:PUBKEY")]
        players: Vec<String>,
        /// 64 hex digits: the campaign secret every game seed comes from (default: random).
        #[arg(long)]
        seed: Option<String>,
        /// The time to record (RFC 3339; default: now).
        #[arg(long)]
        now: Option<String>,
    },
    /// Print a campaign: standings, games, what carried over, what opens next.
    #[command(after_help = SHOW_EXAMPLES)]
    Show {
        #[command(flatten)]
        home: HomeArg,
        /// The campaign id.
        id: String,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: ShowFormat,
    },
    /// Write the campaign page (DIR/index.html: standings, games, forces) and, beside it, the
    /// replay page of every ended game (DIR/<game>.html), which the campaign page links.
    #[command(after_help = PAGE_EXAMPLES)]
    Page {
        #[command(flatten)]
        home: HomeArg,
        /// The campaign id.
        id: String,
        /// The folder to write the pages into (made if missing).
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
    },
    /// Replace a player of the campaign (a lost key, a new address, someone taking over): the
    /// games opened from now on are theirs, and each open game gets a `replace-key` control.
    #[command(after_help = REPLACE_EXAMPLES)]
    Replace {
        #[command(flatten)]
        home: HomeArg,
        /// The campaign id.
        id: String,
        /// NAME=ADDRESS:PUBKEY: the player's campaign name, the new address and key.
        #[arg(value_name = "NAME=ADDRESS:PUBKEY")]
        player: String,
        /// The time to record (RFC 3339; default: now).
        #[arg(long)]
        now: Option<String>,
    },
    /// Verify a campaign folder: its ledger, every game in it, and every carried-over value;
    /// exit 1 naming the file and line of the first mismatch.
    #[command(after_help = AUDIT_EXAMPLES)]
    Audit {
        /// The campaign's folder (`<home>/campaigns/<id>`; games are read from `DIR/games/`
        /// when present, else from the home's `games/`).
        dir: PathBuf,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowFormat {
    Text,
    Html,
    Json,
}

pub(super) fn dispatch(
    games: &Registry<'static>,
    home_of: impl Fn(HomeArg) -> Home,
    cmd: CampaignCommand,
) -> Result<(), Failure> {
    match cmd {
        CampaignCommand::New {
            home,
            id,
            rules,
            players,
            seed,
            now,
        } => new(
            games,
            &home_of(home),
            &id,
            &rules,
            &players,
            seed.as_deref(),
            now.as_deref(),
        ),
        CampaignCommand::Show { home, id, format } => show(&home_of(home), &id, format),
        CampaignCommand::Page { home, id, dir } => page(games, &home_of(home), &id, &dir),
        CampaignCommand::Replace {
            home,
            id,
            player,
            now,
        } => replace(games, &home_of(home), &id, &player, now.as_deref()),
        CampaignCommand::Audit { dir } => audit(games, &dir),
    }
}

fn new(
    games: &Registry<'static>,
    home: &Home,
    id: &str,
    rules: &Path,
    players: &[String],
    seed: Option<&str>,
    now: Option<&str>,
) -> Result<(), Failure> {
    let env = open_home(home)?;
    let text = std::fs::read_to_string(rules).map_err(|e| {
        usage(format!(
            "--rules {}: cannot read the file ({e})",
            rules.display()
        ))
    })?;
    let mut ps = Vec::new();
    for arg in players {
        let p = referee::parse_player(arg)
            .map_err(|e| usage(format!("--player {}", e.replace("SIDE=", "NAME="))))?;
        ps.push(CampaignPlayer {
            name: p.side,
            address: p.address,
            public_key: p.public_key,
        });
    }
    let seed = match seed {
        Some(s) => parse_seed(s)?,
        None => super::os_seed()?,
    };
    let now = parse_now(now)?;
    let _lock = referee::lock_home(home)?;
    let edges = Edges::real();
    let c = ctx(games, home, &env, &edges, now);
    let id = campaign::create_campaign(
        &c,
        campaign::NewCampaign {
            id: id.to_string(),
            rules: text,
            players: ps,
            seed,
        },
    )?;
    let state = campaign::load(&campaign::campaign_dir(&c, &id))?;
    let open: Vec<&str> = state
        .games
        .iter()
        .map(|g| g.opened.game_id.as_str())
        .collect();
    outln!(
        "created campaign {id}; games opened: {}; welcome mails queued in {}",
        open.join(", "),
        home.root.join("outbox").display()
    );
    Ok(())
}

fn load(home: &Home, id: &str) -> Result<core::state::Campaign, Failure> {
    let dir = home.root.join(core::CAMPAIGNS_DIR).join(id);
    if !core::log_path(&dir).exists() {
        return Err(usage(format!(
            "there is no campaign {id} in {} (`dustmail campaign new` makes one)",
            home.root.display()
        )));
    }
    Ok(campaign::load(&dir)?)
}

fn show(home: &Home, id: &str, format: ShowFormat) -> Result<(), Failure> {
    let c = load(home, id)?;
    let v = c.view();
    match format {
        ShowFormat::Json => outln!("{v}"),
        ShowFormat::Text => out!("{}", campaign::render(&v, false)?),
        ShowFormat::Html => out!("{}", campaign::render(&v, true)?),
    }
    Ok(())
}

fn audit(games: &Registry<'static>, dir: &Path) -> Result<(), Failure> {
    let edges = Edges::real();
    let a = core::audit::audit(dir, games, &edges).map_err(|e| {
        let code = match e {
            core::CampaignError::Verify(_) => 1,
            _ => 2,
        };
        Failure {
            code,
            msg: e.to_string(),
        }
    })?;
    outln!(
        "ok: campaign {} ({} ledger lines, {} games, {} ended) verified with every game in it",
        a.campaign,
        a.lines,
        a.games,
        a.ended
    );
    Ok(())
}

/// `campaign page`: the campaign's HTML page with a link per ended game to its replay page,
/// written beside it (an open game gets no page: its seed and hidden values are still secret).
fn page(games: &Registry<'static>, home: &Home, id: &str, out: &Path) -> Result<(), Failure> {
    let c = load(home, id)?;
    let config = crate::config::Config::load(home).map_err(|e| usage(e.to_string()))?;
    let templates = super::home_templates(home, &config)?;
    let edges = Edges::real();
    std::fs::create_dir_all(out)
        .map_err(|e| usage(format!("cannot make {}: {e}", out.display())))?;
    let write = |name: &str, text: &str| {
        let path = out.join(name);
        std::fs::write(&path, text)
            .map_err(|e| usage(format!("cannot write {}: {e}", path.display())))
    };
    let mut v = c.view();
    let mut pages = 0;
    for (i, rec) in c.games.iter().enumerate() {
        if rec.ended.is_none() {
            continue;
        }
        let gid = &rec.opened.game_id;
        let kind = referee::game_of(games, home, gid)?;
        let g = referee::load_game(kind, &edges, home, gid)?;
        let name = format!("{gid}.html");
        write(
            &name,
            &crate::report::replay_page(kind, &edges, &g, &templates)?,
        )?;
        v["games"][i]["page"] = serde_json::Value::from(name);
        pages += 1;
    }
    write("index.html", &campaign::render(&v, true)?)?;
    outln!(
        "wrote {} with links to {pages} replay pages beside it",
        out.join("index.html").display()
    );
    Ok(())
}

fn replace(
    games: &Registry<'static>,
    home: &Home,
    id: &str,
    player: &str,
    now: Option<&str>,
) -> Result<(), Failure> {
    let env = open_home(home)?;
    let p = referee::parse_player(player).map_err(|e| usage(e.replace("SIDE=", "NAME=")))?;
    let now = parse_now(now)?;
    let _lock = referee::lock_home(home)?;
    let edges = Edges::real();
    let c = ctx(games, home, &env, &edges, now);
    let r = crate::pipeline::campaign_players::replace_player(
        &c,
        id,
        CampaignPlayer {
            name: p.side,
            address: p.address,
            public_key: p.public_key,
        },
    )?;
    outln!(
        "campaign {id}: {}; open games given the new key: {}",
        if r.recorded {
            "player replaced, the games it opens from now on are theirs"
        } else {
            "the player already had this address and key"
        },
        if r.games.is_empty() {
            "none".to_string()
        } else {
            r.games.join(", ")
        }
    );
    Ok(())
}
