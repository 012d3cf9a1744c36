//! The strategic campaign on the pipeline's side (issue 15; docs/campaigns.md "A strategic
//! campaign"): `campaign new` checks the force mapping against the tactical game; the strategic
//! game gets the campaign's policy in its setup; after each run the battle the strategic game
//! awaits gets a game of its own, and a battle game's recorded end goes back to the strategic
//! game as the referee's `decide` control. What is decided follows from the campaign ledger
//! only (`crate::pbem::campaign::strategic`).

use crate::game::{NewRequest, Setup};
use crate::ledger::{self, sha256_hex, CampaignRef, Player};
use crate::pbem::campaign::state::Campaign;
use crate::pbem::campaign::strategic::{self, BattleRef, TACTICAL_GAME};
use crate::pbem::campaign::{self as core, Event, GameOpened, Kind, Log, Rules};
use crate::pbem::{error::*, store::*};
use crate::pipeline::{create::create_game_in, steps::control_game_by, Ctx, NewGame};
use crate::seed::Key;
use std::collections::BTreeMap;

fn usage(m: String) -> RefereeError {
    RefereeError::Usage(m)
}

fn tactical_request(s: &strategic::Strategic) -> NewRequest {
    NewRequest {
        ruleset: s.ruleset.clone(),
        scenario: Some(s.scenario.clone()),
        ..NewRequest::default()
    }
}

/// `campaign new` of a strategic campaign: one player a colour, a tactical scenario the
/// tactical game has, a mapping for exactly its two sides whose cards it has.
pub(crate) fn check_new(ctx: &Ctx, rules: &Rules, players: usize) -> Result<(), RefereeError> {
    let Some(s) = rules
        .strategic
        .as_ref()
        .filter(|_| rules.kind == Kind::Strategic)
    else {
        return Ok(());
    };
    if players != rules.sides.len() {
        return Err(usage(format!(
            "a strategic campaign has one player a colour: sides = [{}] needs {} --player (got {players})",
            rules.sides.join(", "),
            rules.sides.len()
        )));
    }
    let tgame = ctx.games.find(TACTICAL_GAME).map_err(usage)?;
    let plan = tgame
        .plan_new(&tactical_request(s))
        .map_err(|e| usage(format!("[strategic] scenario = \"{}\": {e}", s.scenario)))?;
    let m = s
        .mapping
        .as_ref()
        .ok_or_else(|| usage("[strategic] has no force mapping".into()))?;
    let mut sides = plan.setup.sides.clone();
    sides.sort();
    let mapped: Vec<String> = m.forces.keys().cloned().collect();
    if sides != mapped {
        return Err(usage(format!(
            "the force mapping gives cards for {}, the tactical scenario {} has the sides {}: write one [forces.SIDE] table per side",
            mapped.join(", "),
            s.scenario,
            sides.join(", ")
        )));
    }
    for (side, kinds) in &m.forces {
        for (kind, card) in kinds {
            if tgame.force_card(&plan.setup, card).is_none() {
                return Err(usage(format!(
                    "force mapping [forces.{side}] {kind} = \"{card}\": there is no card `{card}` in game {TACTICAL_GAME}: use a card name `dustmail games` lists"
                )));
            }
        }
    }
    Ok(())
}

/// The request of the strategic game: its colours are the rules' sides.
pub(crate) fn request(rules: &Rules, req: NewRequest) -> NewRequest {
    if rules.kind != Kind::Strategic {
        return req;
    }
    NewRequest {
        sides: rules.sides.clone(),
        ..req
    }
}

/// The strategic game's setup, with the campaign's policy beside its deck.
pub(crate) fn game_setup(rules: &Rules, mut setup: Setup) -> Setup {
    if let Some(s) = rules
        .strategic
        .as_ref()
        .filter(|_| rules.kind == Kind::Strategic)
    {
        // The kinds every side's mapping puts on the table: a battle without one of them on
        // a side is fought by the game's own dice (ruling R332).
        let kinds = s
            .mapping
            .as_ref()
            .map(strategic::table_kinds)
            .unwrap_or_default();
        let kinds: Vec<String> = kinds.iter().map(|k| format!("\"{k}\"")).collect();
        setup.cards.insert(
            strategic::SETUP_FILE.into(),
            format!(
                "tactical = \"{}\"\nkinds = [{}]\nrevision = 1\n",
                s.tactical,
                kinds.join(", ")
            ),
        );
    }
    setup
}

/// After the ends are recorded: the last battle game's result goes to the strategic game if it
/// still waits for it; then the battle it waits for gets its game. Returns whether the
/// campaign ledger grew.
pub(crate) fn advance(
    ctx: &Ctx,
    log: &mut Log,
    c: &Campaign,
    games: &BTreeMap<String, Loaded>,
    secret: &Key,
) -> Result<bool, RefereeError> {
    if c.created.rules.kind != Kind::Strategic {
        return Ok(false);
    }
    let Some(first) = c.games.first().filter(|g| g.ended.is_none()) else {
        return Ok(false);
    };
    let gid = first.opened.game_id.clone();
    // The run's own copy when it has one (up to date, no replay), else the game on disk.
    let loaded;
    let mut g = match games.get(&gid) {
        Some(g) => g,
        None => {
            loaded = load_any(&ctx.games, ctx.edges, ctx.home, &gid)?;
            &loaded
        }
    };
    let reloaded;
    if let (Some(rec), Some(b)) = (c.games.last(), g.game.elsewhere(&g.derived.state)) {
        let same = rec.opened.battle.as_ref().map(|r| r.battle.battle) == Some(b.battle);
        if let (true, Some(end)) = (same, &rec.ended) {
            if let Some(text) = strategic::decide_text(c, rec, end) {
                control_game_by(ctx, &gid, &text, "campaign")?;
                reloaded = load_any(&ctx.games, ctx.edges, ctx.home, &gid)?;
                g = &reloaded;
            }
        }
    }
    let Some(b) = g.game.elsewhere(&g.derived.state) else {
        return Ok(false);
    };
    if c.games.len() as u32 > b.battle {
        return Ok(false);
    }
    // The strategic game's line that records the battle is durable before the campaign's.
    std::fs::File::open(g.ledger.path())
        .and_then(|f| f.sync_all())
        .map_err(io_err(&g.ledger.path().display().to_string()))?;
    open_battle(
        ctx,
        log,
        c,
        BattleRef {
            game: gid,
            battle: b,
        },
        secret,
    )?;
    Ok(true)
}

/// Opens the game of one battle (or, after a crash between its creation and its campaign
/// line, records the game already made at this campaign head).
fn open_battle(
    ctx: &Ctx,
    log: &mut Log,
    c: &Campaign,
    b: BattleRef,
    secret: &Key,
) -> Result<(), RefereeError> {
    let s = c
        .created
        .rules
        .strategic
        .as_ref()
        .ok_or_else(|| usage("the campaign has no [strategic]".into()))?;
    let m = s
        .mapping
        .as_ref()
        .ok_or_else(|| usage("[strategic] has no force mapping".into()))?;
    let number = c.games.len() as u32 + 1;
    let gid = core::game_id(&c.created.campaign_id, number);
    let tsides = strategic::tactical_sides(c);
    let forces = strategic::forces(m, &tsides, &b.battle).map_err(RefereeError::Verify)?;
    let first = &c.games[0].opened;
    let sides: BTreeMap<String, String> = tsides
        .iter()
        .zip([&b.battle.attacker, &b.battle.defender])
        .filter_map(|(t, col)| Some((t.clone(), first.sides.get(col)?.clone())))
        .collect();
    let cref = CampaignRef {
        id: c.created.campaign_id.clone(),
        seq: log.seq,
        head: log.head.clone(),
    };
    let path = ctx.home.game_dir(&gid).join(ledger::LOG_FILE);
    if path.exists() {
        if read_created(ctx.home, &gid)?.campaign.as_ref() != Some(&cref) {
            return Err(RefereeError::Verify(format!(
                "game {gid} already exists and was not opened by campaign {} at its line {}: move it away to let the campaign open its game",
                cref.id, cref.seq
            )));
        }
    } else {
        let tgame = ctx.games.find(TACTICAL_GAME).map_err(usage)?;
        let plan = tgame
            .plan_new(&tactical_request(s))
            .map_err(|e| usage(e.0))?;
        // The allowance is what the larger force costs: the mapping decides the forces.
        let ap = forces
            .values()
            .map(|us| {
                us.iter()
                    .filter_map(|u| tgame.force_card(&plan.setup, &u.card))
                    .map(|f| f.ap)
                    .sum::<u32>()
            })
            .max()
            .unwrap_or(0);
        let setup = tgame
            .field_forces(&plan.setup, &forces, ap)
            .map_err(|e| usage(e.0))?;
        let mut players = Vec::new();
        for side in &plan.setup.sides {
            let name = sides.get(side).cloned().unwrap_or_default();
            let p = c
                .created
                .players
                .iter()
                .find(|q| q.name == name)
                .ok_or_else(|| usage(format!("side {side} of battle game {gid} has no player")))?;
            players.push(Player {
                side: side.clone(),
                address: p.address.clone(),
                public_key: p.public_key.clone(),
            });
        }
        create_game_in(
            ctx,
            NewGame {
                game: TACTICAL_GAME.into(),
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
    let data = std::fs::read(&path).map_err(io_err(&path.display().to_string()))?;
    let line = data.split(|&b| b == b'\n').next().unwrap_or_default();
    log.append(Event::GameOpened(GameOpened {
        game_id: gid,
        number,
        scenario: s.scenario.clone(),
        sides,
        game_head: sha256_hex(line),
        carried: c.carried(),
        forces,
        battle: Some(b),
        at: ctx.now.to_rfc3339(),
    }))?;
    Ok(())
}
