//! Replacing a player across a campaign (issue 15 item 5): `dustmail campaign replace ID
//! NAME=ADDRESS:PUBKEY` records the new address and key in the campaign ledger, where every
//! game opened later takes them, and replaces the player's key in each open game by the game's
//! own `replace-key` control (docs/deadlines.md), which tells that game's players.

use super::campaign::campaign_dir;
use crate::pbem::campaign::{self as core, CampaignPlayer, Event, Log, PlayerReplaced};
use crate::pbem::error::RefereeError;
use crate::pipeline::{load_any, steps::control_game_by, Ctx};

/// What a replacement did: whether the campaign ledger got a line (false: it already had this
/// address and key, e.g. the command run again after a crash) and the open games whose key was
/// replaced.
pub struct Replaced {
    pub recorded: bool,
    pub games: Vec<String>,
}

pub fn replace_player(ctx: &Ctx, id: &str, new: CampaignPlayer) -> Result<Replaced, RefereeError> {
    let dir = campaign_dir(ctx, id);
    if !core::log_path(&dir).exists() {
        return Err(RefereeError::Usage(format!(
            "there is no campaign {id} (`dustmail campaign new` makes one)"
        )));
    }
    let (mut log, _) = Log::open(&dir, ctx.key.clone(), ctx.edges.sign_text)?;
    let mut c = super::campaign::load(&dir)?;
    if c.finished {
        return Err(RefereeError::Usage(format!(
            "campaign {id} is finished: there is no game left to play"
        )));
    }
    let Some(old) = c
        .created
        .players
        .iter()
        .find(|p| p.name == new.name)
        .cloned()
    else {
        let names: Vec<&str> = c.created.players.iter().map(|p| p.name.as_str()).collect();
        return Err(RefereeError::Usage(format!(
            "campaign {id} has no player `{}`: give one of {} as NAME",
            new.name,
            names.join(", ")
        )));
    };
    let same =
        old.address == new.address && crate::pbem::keys::same_key(&old.public_key, &new.public_key);
    if !same {
        let r = PlayerReplaced {
            player: new.name.clone(),
            address: new.address.clone(),
            public_key: new.public_key.clone(),
            at: ctx.now.to_rfc3339(),
        };
        // Checked as the fold will check it, before anything is written.
        c.replace_player(&r).map_err(|m| {
            RefereeError::Usage(format!(
                "{m}: every player needs an address and a key of their own"
            ))
        })?;
        log.append(Event::PlayerReplaced(r))?;
    }
    let mut games = Vec::new();
    for rec in c.games.iter().filter(|g| g.ended.is_none()) {
        let gid = &rec.opened.game_id;
        let Some((side, _)) = rec.opened.sides.iter().find(|(_, n)| **n == new.name) else {
            continue;
        };
        // A game already replaced (the command run again) is left as it is.
        let g = load_any(&ctx.games, ctx.edges, ctx.home, gid)?;
        let current = g.derived.players(&g.created);
        if current.iter().any(|p| {
            &p.side == side
                && p.address == new.address
                && crate::pbem::keys::same_key(&p.public_key, &new.public_key)
        }) {
            continue;
        }
        control_game_by(
            ctx,
            gid,
            &format!("replace-key {side}={}:{}", new.address, new.public_key),
            "campaign",
        )?;
        games.push(gid.clone());
    }
    Ok(Replaced {
        recorded: !same,
        games,
    })
}
