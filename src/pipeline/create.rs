//! Creating a game: its `created` line, secrets, snapshot, due-time entry and welcome mails.

use crate::config::valid_game_id;
use crate::ledger::{self, Created, Ledger, Player};
use crate::pbem::{error::*, replay::*, store::*};
use crate::pipeline::*;
use crate::seed::Key;
use serde_json::json;
use std::collections::BTreeMap;

/// What `new` needs beyond the context.
pub struct NewGame {
    /// The game's name in the registry ("dust-tactics").
    pub game: String,
    pub setup: crate::game::Setup,
    pub players: Vec<Player>,
    pub seed: Key,
    pub id: Option<String>,
    pub max_rounds: u32,
}

/// Creates a game: ledger `created` line, seed.secret (0600), snapshot, welcome mails. Returns the id.
pub fn create_game(ctx: &Ctx, new: NewGame) -> Result<String, RefereeError> {
    create_team_game(ctx, new, BTreeMap::new())
}

/// Creates a game where a side may have several players: `assignments` maps every unit of such
/// a side to the address of the player commanding it (000: "four players can play two-on-two by
/// dividing the armies").
pub fn create_team_game(
    ctx: &Ctx,
    new: NewGame,
    assignments: BTreeMap<String, String>,
) -> Result<String, RefereeError> {
    create_game_in(ctx, new, assignments, None)
}

/// [`create_team_game`], for a game a campaign opens: its `created` line names the campaign.
pub fn create_game_in(
    ctx: &Ctx,
    new: NewGame,
    assignments: BTreeMap<String, String>,
    campaign: Option<ledger::CampaignRef>,
) -> Result<String, RefereeError> {
    let commitment = chain_key(&new.seed, new.max_rounds, 0);
    let id = new
        .id
        .clone()
        .unwrap_or_else(|| format!("g-{}", &hex::encode(commitment)[..8]));
    if !valid_game_id(&id) {
        return Err(RefereeError::Usage(format!(
            "game id `{id}` is not usable: use 1 to 64 letters, digits, `-` or `_`"
        )));
    }
    let game = ctx.games.find(&new.game).map_err(RefereeError::Usage)?;
    let state = game
        .setup(&new.setup)
        .map_err(|e| RefereeError::Usage(format!("cannot start the game: {e}")))?;
    let sides = game.sides(&state);
    if sides.iter().any(|s| s == REFEREE_SIDE) {
        return Err(RefereeError::Usage(format!(
            "the scenario has a side named `{REFEREE_SIDE}`: that name is reserved for the referee's own signed mails; rename the side"
        )));
    }
    let mut given: Vec<&str> = new.players.iter().map(|p| p.side.as_str()).collect();
    given.sort();
    given.dedup();
    let mut wanted: Vec<&str> = sides.iter().map(|s| s.as_str()).collect();
    wanted.sort();
    if given != wanted {
        return Err(RefereeError::Usage(format!(
            "the scenario's sides are {}: give at least one --player SIDE=ADDRESS:PUBKEY for each, and no other side (got {})",
            sides.join(", "),
            given.join(", ")
        )));
    }
    for (i, p) in new.players.iter().enumerate() {
        if new.players[..i].iter().any(|q| {
            q.address == p.address || crate::pbem::keys::same_key(&q.public_key, &p.public_key)
        }) {
            return Err(RefereeError::Usage(format!(
                "--player {}={}: every player needs an address and a key of their own",
                p.side, p.address
            )));
        }
    }
    for (unit, addr) in &assignments {
        if !new.players.iter().any(|p| &p.address == addr) {
            return Err(RefereeError::Usage(format!(
                "unit {unit} is assigned to {addr}, who is not a --player of this game"
            )));
        }
    }
    let dir = ctx.home.game_dir(&id);
    if dir.join(ledger::LOG_FILE).exists() {
        return Err(RefereeError::Usage(format!(
            "game {id} already exists in {}: choose another --id",
            dir.display()
        )));
    }
    std::fs::create_dir_all(&dir).map_err(io_err(&dir.display().to_string()))?;
    write_secret(&dir, &new.seed)?;
    let hidden = crate::seed::hidden_secret_for(&new.seed);
    crate::hidden::write_hidden(&dir, &hidden).map_err(io_err(crate::hidden::HIDDEN_FILE))?;
    let created = Created {
        engine_version: ENGINE_VERSION.into(),
        game: game.name().into(),
        game_id: id.clone(),
        ruleset: new.setup.ruleset.clone(),
        setup: new.setup,
        players: new.players,
        referee_address: ctx.config.referee.clone(),
        referee_public_key: (ctx.edges.public_key_text)(ctx.key),
        commitment: hex::encode(commitment),
        max_rounds: new.max_rounds,
        deadline_hours: ctx.config.deadline_hours,
        reminder_hours: ctx.config.reminder_hours,
        grace_hours: ctx.config.grace_hours,
        created_at: ctx.now.to_rfc3339(),
        assignments,
        max_absence_days: ctx.config.max_absence_days,
        dice_version: ledger::DICE_VERSION,
        hidden_commitment: Some(crate::hidden::commitment_hex(&hidden)),
        campaign,
        digest: ctx.config.digest,
    };
    let ledger =
        Ledger::create_signed(&dir, created.clone(), ctx.key.clone(), ctx.edges.sign_text)?;
    let derived = Derived::start(ledger.head().clone(), state, &created);
    write_snapshot(&dir, &derived)?;
    let loaded = Loaded {
        game,
        id: id.clone(),
        created,
        ledger,
        derived,
        secret: new.seed,
        hidden: Some(hidden),
        snapshot_stale: false,
        pending: Vec::new(),
    };
    let due = crate::due::next_due(game, &loaded.created, &loaded.derived);
    crate::due::set_entry(&ctx.home.root, &id, Some(crate::due::entry(due)))
        .map_err(io_err(crate::due::DUE_FILE))?;
    for p in &loaded.created.players {
        let text = render_with_board(
            ctx,
            "welcome",
            json!({
                "game": id, "game_name": game.name(), "ruleset": loaded.created.ruleset,
                "scenario": loaded.created.setup.scenario_name, "side": p.side,
                "players": players_shown(&loaded.created.players),
                "ssh_key": crate::pbem::keys::is_openssh_key(&p.public_key),
                "commitment": loaded.created.commitment,
                "hidden_commitment": loaded.created.hidden_commitment,
                "max_rounds": loaded.created.max_rounds,
                "deadline_hours": loaded.created.deadline_hours,
                "reminder_hours": loaded.created.reminder_hours,
                "grace_hours": loaded.created.grace_hours,
                "template": game.orders_template(&loaded.derived.state, &p.side),
                "briefing": game.briefing(&loaded.derived.state, &p.side),
                "next_seq": 1}),
            &loaded,
            &p.side,
        )?;
        let mail = game_mail(
            ctx,
            (&loaded.id, game.round(&loaded.derived.state)),
            vec![p.address.clone()],
            "welcome",
            text,
            None,
            loaded.ledger.head(),
        );
        queue(
            ctx,
            &format!(
                "{id}-1-welcome-{}",
                recipient_part(&loaded.created.players, p)
            ),
            &mail,
        )?;
    }
    Ok(id)
}

/// The players for the welcome mail: an OpenSSH key is also shown by its fingerprint
/// (`key_shown`), which fits a 72-character line where the key itself does not.
fn players_shown(players: &[Player]) -> serde_json::Value {
    let mut v = json!(players);
    if let Some(items) = v.as_array_mut() {
        for (item, p) in items.iter_mut().zip(players) {
            if let Some(shown) = crate::edges::sshsig::key_shown(&p.public_key) {
                item["key_shown"] = json!(shown);
            }
        }
    }
    v
}
