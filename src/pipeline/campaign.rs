//! Campaigns on the pipeline's side (DESIGN §6): `campaign new`, opening the games a campaign's
//! rules call for, recording each game's end after a run, and the campaign report mailed to
//! every player when a game ends. The campaign's logic (plan, standings, what carries over) is
//! the core's (`crate::pbem::campaign`); this module only creates games and sends mails.

use crate::game::NewRequest;
use crate::ledger::{self, sha256_hex, CampaignRef, Event as GameEvent, Player};
use crate::outbox::Mail;
use crate::pbem::campaign::state::{Campaign, Planned};
use crate::pbem::campaign::{
    self as core, CampaignPlayer, Created, Event, Finished, GameEnded, GameOpened, Kind, Log, Rules,
};
use crate::pbem::{error::*, store::*};
use crate::pipeline::{create::create_game_in, mails::queue, Ctx, NewGame, RunSummary};
use crate::seed::Key;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What `campaign new` needs beyond the context.
pub struct NewCampaign {
    pub id: String,
    /// The rules file's text (docs/campaigns.md).
    pub rules: String,
    pub players: Vec<CampaignPlayer>,
    pub seed: Key,
}

/// `<home>/campaigns/<id>`.
pub fn campaign_dir(ctx: &Ctx, id: &str) -> PathBuf {
    ctx.home.root.join(core::CAMPAIGNS_DIR).join(id)
}

fn valid_name(n: &str) -> bool {
    (1..=32).contains(&n.len())
        && n.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Creates a campaign: its ledger's `created` line, its secret, and the games its rules open
/// at once (a league: all; a chain: the first). Everything is checked before anything is
/// written: a bad rules file or player changes nothing.
pub fn create_campaign(ctx: &Ctx, new: NewCampaign) -> Result<String, RefereeError> {
    let usage = RefereeError::Usage;
    if !core::valid_id(&new.id) {
        return Err(usage(format!(
            "campaign id `{}` is not usable: use 1 to 48 letters, digits, `-` or `_`",
            new.id
        )));
    }
    let rules = Rules::parse(&new.rules)?;
    let game = ctx.games.find(&rules.game).map_err(usage)?;
    match rules.kind {
        Kind::Chain if new.players.len() != 2 => {
            return Err(usage(format!(
                "a chain campaign is played by two players (the first takes side {}, the second {}): give exactly two --player",
                rules.sides[0], rules.sides[1]
            )))
        }
        Kind::League if new.players.len() < 2 => {
            return Err(usage("a league needs at least two --player".into()))
        }
        _ => {}
    }
    for (i, p) in new.players.iter().enumerate() {
        if !valid_name(&p.name) {
            return Err(usage(format!(
                "--player {}=…: a player's name is 1 to 32 letters, digits, `-` or `_`",
                p.name
            )));
        }
        if new.players[..i].iter().any(|q| {
            q.name == p.name
                || q.address == p.address
                || crate::pbem::keys::same_key(&q.public_key, &p.public_key)
        }) {
            return Err(usage(format!(
                "--player {}={}: every player needs a name, an address and a key of their own",
                p.name, p.address
            )));
        }
    }
    super::campaign_strategic::check_new(ctx, &rules, new.players.len())?;
    // Every scenario must make a game with the rules' sides, before anything is written.
    for s in &rules.scenarios {
        let plan = game
            .plan_new(&request(&rules, s))
            .map_err(|e| usage(format!("scenario `{s}` of the campaign rules: {e}")))?;
        let mut sides = plan.setup.sides.clone();
        sides.sort();
        let mut want = rules.sides.clone();
        want.sort();
        if sides != want {
            return Err(usage(format!(
                "scenario `{s}` has the sides {}, the campaign rules {}: write sides = [...] to match",
                plan.setup.sides.join(", "),
                rules.sides.join(", ")
            )));
        }
    }
    let force_cards = force_cards(game, &rules)?;
    let dir = campaign_dir(ctx, &new.id);
    if core::log_path(&dir).exists() {
        return Err(usage(format!(
            "campaign {} already exists in {}: choose another --id",
            new.id,
            dir.display()
        )));
    }
    std::fs::create_dir_all(&dir).map_err(io_err(&dir.display().to_string()))?;
    // A secret left by an attempt that died before its ledger was written made no game: this
    // campaign's own replaces it.
    let secret = dir.join(SECRET_FILE);
    if secret.exists() {
        std::fs::remove_file(&secret).map_err(io_err(&secret.display().to_string()))?;
    }
    write_secret(&dir, &new.seed)?;
    let created = Created {
        engine_version: ENGINE_VERSION.into(),
        campaign_id: new.id.clone(),
        rules,
        players: new.players,
        referee_address: ctx.config.referee.clone(),
        referee_public_key: (ctx.edges.public_key_text)(ctx.key),
        commitment: core::commitment(&new.seed),
        created_at: ctx.now.to_rfc3339(),
        force_cards,
    };
    Log::create(&dir, created, ctx.key.clone(), ctx.edges.sign_text)?;
    advance(ctx, &new.id, &BTreeMap::new(), false)?;
    Ok(new.id)
}

/// The AP and kind of every card of the `[forces]` roster, from the game's cards (the first
/// scenario's setup): an unknown card is refused, naming the roster line.
fn force_cards(
    game: &dyn crate::registry::AnyGame,
    rules: &Rules,
) -> Result<BTreeMap<String, crate::game::ForceCard>, RefereeError> {
    let mut out = BTreeMap::new();
    let (Some(f), Some(first)) = (&rules.forces, rules.scenarios.first()) else {
        return Ok(out);
    };
    let setup = game
        .plan_new(&request(rules, first))
        .map_err(|e| RefereeError::Usage(e.0))?
        .setup;
    for (side, units) in &f.roster {
        for (id, card) in units {
            let info = game.force_card(&setup, card).ok_or_else(|| {
                RefereeError::Usage(format!(
                    "[forces.roster.{side}] {id} = \"{card}\": there is no card `{card}` in game {}: use a card name `dustmail games` lists",
                    game.name()
                ))
            })?;
            out.insert(card.clone(), info);
        }
    }
    Ok(out)
}

fn request(rules: &Rules, scenario: &str) -> NewRequest {
    let req = NewRequest {
        ruleset: rules.ruleset.clone(),
        scenario: Some(scenario.to_string()),
        ..NewRequest::default()
    };
    super::campaign_strategic::request(rules, req)
}

/// After a run's steps: every campaign records the ends of its games and opens what is due.
/// A campaign that cannot be advanced is a warning; the games' run goes on.
/// `resend`: the run before was interrupted, so the campaign reports it staged may have been
/// lost with its batch; they are queued again (under the same ids: a report that did leave is
/// not sent twice).
pub(crate) fn after_steps(
    ctx: &Ctx,
    games: &BTreeMap<String, Loaded>,
    sum: &mut RunSummary,
    resend: bool,
) {
    let root = ctx.home.root.join(core::CAMPAIGNS_DIR);
    let Ok(rd) = std::fs::read_dir(&root) else {
        return;
    };
    let mut ids: Vec<String> = rd
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    for id in ids {
        if let Err(e) = advance(ctx, &id, games, resend) {
            sum.warnings.push(format!("campaign {id}: {e}"));
        }
    }
}

/// The game's `finished` line: its seq, hash and result.
fn finished_line(
    path: &Path,
) -> Result<Option<(u64, String, crate::game::GameResult)>, RefereeError> {
    // The campaign's line about this end is fsync'ed at once: the game's lines (deferred in a
    // batch) must be durable before it.
    std::fs::File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(io_err(&path.display().to_string()))?;
    let data = std::fs::read(path).map_err(io_err(&path.display().to_string()))?;
    let entries = ledger::parse_log(ledger::LOG_FILE, &data)?;
    for (e, line) in entries.iter().zip(data.split(|&b| b == b'\n')) {
        if let GameEvent::Finished(f) = &e.event {
            return Ok(Some((e.seq, sha256_hex(line), f.result.clone())));
        }
    }
    Ok(None)
}

/// Whether a game has ended: the run's loaded game says so, else its ledger's last line.
fn has_ended(ctx: &Ctx, games: &BTreeMap<String, Loaded>, id: &str) -> bool {
    if let Some(g) = games.get(id) {
        return g.derived.finished.is_some();
    }
    let path = ctx.home.game_dir(id).join(ledger::LOG_FILE);
    let last = ledger::read_last_line(&path)
        .ok()
        .and_then(|(_, b)| serde_json::from_slice::<ledger::Entry>(&b).ok());
    match last.map(|e| e.event) {
        Some(GameEvent::Finished(_)) => true,
        // A digest game's last run ends with its digest line (src/pipeline/digest.rs).
        Some(GameEvent::Digest(_)) => ledger::read_all(&path)
            .is_ok_and(|es| es.iter().any(|e| matches!(e.event, GameEvent::Finished(_)))),
        _ => false,
    }
}

/// The units each side lost in game `gid`, from its final state (the run's, else read).
fn lost_units(
    ctx: &Ctx,
    games: &BTreeMap<String, Loaded>,
    gid: &str,
) -> Result<BTreeMap<String, Vec<String>>, RefereeError> {
    if let Some(g) = games.get(gid) {
        return Ok(g.game.lost_units(&g.derived.state));
    }
    let g = load_any(&ctx.games, ctx.edges, ctx.home, gid)?;
    Ok(g.game.lost_units(&g.derived.state))
}

/// Records the campaign's ended games, opens the games now due, closes the campaign when all
/// are played, and mails the report of each game that ended (with `resend`, of every game
/// ended so far).
fn advance(
    ctx: &Ctx,
    id: &str,
    games: &BTreeMap<String, Loaded>,
    resend: bool,
) -> Result<(), RefereeError> {
    let dir = campaign_dir(ctx, id);
    let file = core::log_path(&dir).display().to_string();
    let (mut log, entries) = Log::open(&dir, ctx.key.clone(), ctx.edges.sign_text)?;
    let mut c = Campaign::fold(&file, &entries)?;
    if c.finished && !resend {
        return Ok(());
    }
    let mut ended = Vec::new();
    for rec in c.games.iter().filter(|r| r.ended.is_none()) {
        let gid = &rec.opened.game_id;
        if !has_ended(ctx, games, gid) {
            continue;
        }
        let path = ctx.home.game_dir(gid).join(ledger::LOG_FILE);
        if let Some((seq, head, result)) = finished_line(&path)? {
            let lost = if c.created.rules.forces.is_some() || rec.opened.battle.is_some() {
                lost_units(ctx, games, gid)?
            } else {
                BTreeMap::new()
            };
            let e = GameEnded {
                game_id: gid.clone(),
                final_seq: seq,
                final_head: head,
                result,
                lost,
                at: ctx.now.to_rfc3339(),
            };
            log.append(Event::GameEnded(e.clone()))?;
            ended.push(e);
        }
    }
    c = refold(&file, &dir)?;
    let secret = read_secret(&dir)?;
    while !c.due().is_empty() {
        // With [forces], a game opens once both players' choices are in (a league's games
        // each on their own); until then each player is asked for one (once: the mail's id
        // is fixed).
        let ready = c.due().into_iter().find(|p| {
            c.created.rules.forces.is_none() || c.chosen(p.number).len() >= p.sides.len()
        });
        if let Some(p) = ready {
            open_game(ctx, &mut log, &c, &p, &secret)?;
            c = refold(&file, &dir)?;
            continue;
        }
        // Past the deadline, the default forces are recorded and the games open.
        if super::campaign_forces::record_defaults(ctx, &mut log, &c)? {
            c = refold(&file, &dir)?;
            continue;
        }
        super::campaign_forces::request_mails(ctx, &c)?;
        break;
    }
    // A strategic campaign: results back to the strategic game, its awaited battle opened.
    if super::campaign_strategic::advance(ctx, &mut log, &c, games, &secret)? {
        c = refold(&file, &dir)?;
    }
    if c.all_ended() && !c.finished {
        log.append(Event::Finished(Finished {
            standings: c.standings(),
            at: ctx.now.to_rfc3339(),
        }))?;
        c = refold(&file, &dir)?;
    }
    if resend {
        ended = c.games.iter().filter_map(|g| g.ended.clone()).collect();
    }
    for e in &ended {
        report_mails(ctx, &c, e)?;
    }
    Ok(())
}

fn refold(file: &str, dir: &Path) -> Result<Campaign, RefereeError> {
    let data = std::fs::read(core::log_path(dir)).map_err(io_err(file))?;
    Ok(Campaign::fold(file, &core::parse_log(file, &data)?)?)
}

/// Opens one game of the plan (or, after a crash between the game's creation and its campaign
/// line, records the game already made for this campaign head).
fn open_game(
    ctx: &Ctx,
    log: &mut Log,
    c: &Campaign,
    p: &Planned,
    secret: &Key,
) -> Result<(), RefereeError> {
    let rules = &c.created.rules;
    let gid = core::game_id(&c.created.campaign_id, p.number);
    let cref = CampaignRef {
        id: c.created.campaign_id.clone(),
        seq: log.seq,
        head: log.head.clone(),
    };
    let path = ctx.home.game_dir(&gid).join(ledger::LOG_FILE);
    if path.exists() {
        let created = read_created(ctx.home, &gid)?;
        if created.campaign.as_ref() != Some(&cref) {
            return Err(RefereeError::Verify(format!(
                "game {gid} already exists and was not opened by campaign {} at its line {}: move it away to let the campaign open its game",
                cref.id, cref.seq
            )));
        }
    } else {
        let game = ctx.games.find(&rules.game).map_err(RefereeError::Usage)?;
        let plan = game
            .plan_new(&request(rules, &p.scenario))
            .map_err(|e| RefereeError::Usage(e.0))?;
        let mut players = Vec::new();
        for side in &plan.setup.sides {
            let name = p.sides.get(side).cloned().unwrap_or_default();
            let cp = c
                .created
                .players
                .iter()
                .find(|q| q.name == name)
                .ok_or_else(|| {
                    RefereeError::Usage(format!(
                        "side {side} of scenario {} has no player",
                        p.scenario
                    ))
                })?;
            players.push(Player {
                side: side.clone(),
                address: cp.address.clone(),
                public_key: cp.public_key.clone(),
            });
        }
        let setup = match &rules.forces {
            Some(f) => game
                .field_forces(&plan.setup, &chosen_forces(c, p), f.ap)
                .map_err(|e| RefereeError::Usage(e.0))?,
            None => super::campaign_strategic::game_setup(rules, plan.setup),
        };
        create_game_in(
            ctx,
            NewGame {
                game: game.name().to_string(),
                setup,
                players,
                seed: core::game_seed(secret, &gid),
                id: Some(gid.clone()),
                max_rounds: plan.max_rounds,
            },
            BTreeMap::new(),
            Some(cref),
        )?;
    }
    // A player away for the campaign is away in the game it opens (issue 15 item 5); told
    // before the game is recorded as opened, so a crash in between tells it again (once).
    super::campaign_absence::tell_new_game(ctx, c, &gid, &p.sides)?;
    let first = first_line(&path)?;
    log.append(Event::GameOpened(GameOpened {
        game_id: gid,
        number: p.number,
        scenario: p.scenario.clone(),
        sides: p.sides.clone(),
        game_head: sha256_hex(&first),
        carried: c.carried(),
        forces: if rules.forces.is_some() {
            chosen_forces(c, p)
        } else {
            BTreeMap::new()
        },
        battle: None,
        at: ctx.now.to_rfc3339(),
    }))?;
    Ok(())
}

/// Side → the force its player chose for game `p`.
fn chosen_forces(c: &Campaign, p: &Planned) -> BTreeMap<String, Vec<crate::game::ForceUnit>> {
    c.chosen(p.number)
        .into_iter()
        .map(|(side, f)| (side, f.units.clone()))
        .collect()
}

/// The bytes of a game ledger's `created` line.
fn first_line(path: &Path) -> Result<Vec<u8>, RefereeError> {
    let data = std::fs::read(path).map_err(io_err(&path.display().to_string()))?;
    let line = data.split(|&b| b == b'\n').next().unwrap_or_default();
    Ok(line.to_vec())
}

const TEXT: &str = include_str!("../../templates/campaign.txt");
const HTML: &str = include_str!("../../templates/campaign.html");

/// The campaign report (`campaign show`, and the mail when a game ends) as text or HTML.
pub fn render(view: &Value, html: bool) -> Result<String, RefereeError> {
    let mut env = minijinja::Environment::new();
    env.add_filter("pad", |v: minijinja::Value, width: usize| {
        let s = v.to_string();
        let n = s.chars().count();
        format!("{s}{}", " ".repeat(width.saturating_sub(n)))
    });
    let (name, src) = if html {
        ("campaign.html", HTML)
    } else {
        ("campaign.txt", TEXT)
    };
    env.add_template(name, src)
        .and_then(|_| env.get_template(name))
        .and_then(|t| t.render(minijinja::Value::from(minijinja::value::Serde(view))))
        // minijinja drops a template's final newline; a printed report ends its last line.
        .map(|t| if t.ends_with('\n') { t } else { t + "\n" })
        .map_err(|e| RefereeError::Io(format!("template {name}: {e}")))
}

/// The report of one ended game, mailed to every player of the campaign.
fn report_mails(ctx: &Ctx, c: &Campaign, e: &GameEnded) -> Result<(), RefereeError> {
    let mut v = c.view();
    let rec = c.games.iter().find(|g| g.opened.game_id == e.game_id);
    v["ended_game"] = json!({
        "game": e.game_id,
        "scenario": rec.map(|r| r.opened.scenario.clone()),
        "winner": e.result.winner.as_ref().and_then(|w| rec.and_then(|r| r.opened.sides.get(w))),
        "reason": e.result.reason,
    });
    // What opened after this end, before the next end (issue 15 item 3: "what opens next"):
    // the run that records an end opens what is due at once, so it is already in play.
    let at = rec.map_or(0, |r| r.ended_line);
    let until = c
        .games
        .iter()
        .map(|g| g.ended_line)
        .filter(|l| *l > at)
        .min()
        .unwrap_or(u64::MAX);
    let opened: Vec<_> = c
        .games
        .iter()
        .filter(|g| at > 0 && g.line > at && g.line < until)
        .map(|g| {
            json!({"game": g.opened.game_id, "scenario": g.opened.scenario, "sides": g.opened.sides,
                "battle": g.opened.battle.as_ref().map(|b| format!(
                    "battle {} of {} at {}", b.battle.battle, b.game, b.battle.area))})
        })
        .collect();
    v["opened_next"] = json!(opened);
    let text = render(&v, false)?;
    let html = render(&v, true)?;
    let cid = &c.created.campaign_id;
    for p in &c.created.players {
        let mail = Mail {
            from: ctx.config.referee.clone(),
            to: vec![p.address.clone()],
            subject: format!(
                "[dustmail campaign {cid}] game {} ended: standings",
                e.game_id
            ),
            in_reply_to: None,
            references: Vec::new(),
            text: text.clone(),
            html: Some(html.clone()),
            attachments: Vec::new(),
            headers: vec![(
                "X-Dustmail-Campaign-Head".into(),
                format!("{cid} {} {}", c.seq, c.head),
            )],
        };
        queue(
            ctx,
            &format!("{cid}-campaign-{}-{}", e.game_id, p.name),
            &mail,
        )?;
    }
    Ok(())
}

/// The campaign of `dir` as its ledger stands (for `campaign show`).
pub fn load(dir: &Path) -> Result<Campaign, RefereeError> {
    let file = core::log_path(dir).display().to_string();
    refold(&file, dir)
}
