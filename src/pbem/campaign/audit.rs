//! `dustmail campaign audit DIR`: the campaign ledger (chain, referee signatures, every line
//! following from those before it: plan, due games, carried-over values, final standings), and
//! every game in it (a full replay, as `dustmail audit` does), tied together: each game's
//! `created` line names the campaign and its head, its players are the campaign's, and each
//! recorded end is the game's `finished` line with the same result. Every error names the file
//! and the line.

use super::state::Campaign;
use super::{parse_log, CampaignError};
use crate::ledger::{self, sha256_hex, Event};
use crate::pbem::edges::Edges;
use crate::pbem::replay::{replay_bytes, DiceMode};
use crate::registry::Registry;
use std::path::{Path, PathBuf};

/// What an audit checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audited {
    pub campaign: String,
    pub lines: usize,
    pub games: usize,
    pub ended: usize,
}

/// Where a game's ledger is: `DIR/games/<id>/log.jsonl` (a published bundle), else the home's
/// `games/<id>/log.jsonl` beside `campaigns/` (DIR is `<home>/campaigns/<id>`).
fn game_log(dir: &Path, id: &str) -> PathBuf {
    let bundled = dir.join("games").join(id).join(ledger::LOG_FILE);
    if bundled.exists() {
        return bundled;
    }
    dir.join("..")
        .join("..")
        .join("games")
        .join(id)
        .join(ledger::LOG_FILE)
}

/// Audits the campaign in `dir`.
pub fn audit(dir: &Path, games: &Registry, edges: &Edges) -> Result<Audited, CampaignError> {
    let path = super::log_path(dir);
    let id = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = format!("campaigns/{id}/{}", ledger::LOG_FILE);
    let data = std::fs::read(&path).map_err(|e| {
        CampaignError::Usage(format!(
            "cannot read {} ({e}): give the folder of a campaign (`<home>/campaigns/<id>`)",
            path.display()
        ))
    })?;
    super::check_signatures(&file, &data, edges.verify_text)?;
    let entries = parse_log(&file, &data)?;
    let c = Campaign::fold(&file, &entries)?;
    super::forces::audit_choices(&file, &entries, edges)?;
    super::absence::audit_absences(&file, &entries, edges)?;
    let mut ended = 0;
    let strategic = c.created.rules.strategic.is_some();
    let mut awaited = std::collections::BTreeMap::new();
    for rec in &c.games {
        let gid = &rec.opened.game_id;
        let gfile = format!("games/{gid}/{}", ledger::LOG_FILE);
        let at = |msg: String| CampaignError::Verify(format!("{file} line {}: {msg}", rec.line));
        let gdata = std::fs::read(game_log(dir, gid)).map_err(|e| {
            at(format!(
                "game {gid} is recorded as opened but its ledger {gfile} cannot be read ({e})"
            ))
        })?;
        // A strategic campaign's battle games are of the tactical game.
        let name = match rec.opened.battle {
            Some(_) => super::strategic::TACTICAL_GAME,
            None => c.created.rules.game.as_str(),
        };
        let game = games.get(name).ok_or_else(|| {
            CampaignError::Usage(format!("this dustmail does not referee `{name}`"))
        })?;
        // Every line signed (a changed byte named at its line), then the game's own audit:
        // chain, signatures, every step re-derived.
        super::check_signatures(&gfile, &gdata, edges.verify_text)?;
        let (created, derived, _) = if rec.opened.battle.is_none() && strategic {
            // The strategic game: each battle it awaited, as it first stood, noted on the way.
            super::strategic::replay_noting(game, edges, &gfile, &gdata, &mut awaited)?
        } else {
            replay_bytes(game, edges, &gfile, &gdata, DiceMode::Recorded)
                .map_err(|e| CampaignError::Verify(e.to_string()))?
        };
        if let Some(b) = &rec.opened.battle {
            super::strategic::check_awaited(&file, rec.line, b, &awaited)?;
        }
        let lines: Vec<&[u8]> = gdata.split(|&b| b == b'\n').collect();
        let first = lines.first().copied().unwrap_or_default();
        if sha256_hex(first) != rec.opened.game_head {
            return Err(at(format!(
                "the recorded head of game {gid}'s `created` line does not match {gfile} line 1"
            )));
        }
        let gbad = |n: u64, msg: String| CampaignError::Verify(format!("{gfile} line {n}: {msg}"));
        match &created.campaign {
            Some(r) if r.id == c.created.campaign_id
                && r.seq == rec.line - 1
                && r.head == rec.head_before => {}
            _ => {
                return Err(gbad(
                    1,
                    format!(
                        "the `created` line does not name campaign {} at its line {} (the head when the game was opened)",
                        c.created.campaign_id,
                        rec.line - 1
                    ),
                ))
            }
        }
        if created.setup.scenario_name != rec.opened.scenario {
            return Err(gbad(
                1,
                format!(
                    "the scenario is not {} as the campaign recorded",
                    rec.opened.scenario
                ),
            ));
        }
        for p in &created.players {
            let Some(name) = rec.opened.sides.get(&p.side) else {
                return Err(gbad(
                    1,
                    format!("side {} is not a side the campaign gave", p.side),
                ));
            };
            let cp = rec.players.iter().find(|q| &q.name == name);
            if !cp.is_some_and(|q| q.address == p.address && q.public_key == p.public_key) {
                return Err(gbad(
                    1,
                    format!(
                        "side {} is not played by the campaign's player {name} (address and key)",
                        p.side
                    ),
                ));
            }
        }
        super::forces::audit_game((&file, &gfile), &c, rec, game, &created, &derived.state)?;
        super::told::audit_told((&file, &gfile), &entries, rec, &gdata, edges)?;
        if let Some(end) = &rec.ended {
            let n = end.final_seq as usize;
            let line = lines.get(n.wrapping_sub(1)).filter(|_| n >= 1).ok_or_else(|| {
                CampaignError::Verify(format!(
                    "{file}: game {gid}'s recorded end is line {n} of {gfile}, which has no such line"
                ))
            })?;
            if sha256_hex(line) != end.final_head {
                return Err(CampaignError::Verify(format!(
                    "{gfile} line {n}: its hash is not the final head the campaign recorded for game {gid}"
                )));
            }
            let e: ledger::Entry = serde_json::from_slice(line)
                .map_err(|e| gbad(end.final_seq, format!("not a ledger line ({e})")))?;
            match e.event {
                Event::Finished(f) if f.result == end.result => {}
                _ => {
                    return Err(gbad(
                        end.final_seq,
                        "not the game's `finished` line with the result the campaign recorded"
                            .into(),
                    ))
                }
            }
            ended += 1;
        }
    }
    // A strategic campaign: each battle decided by its game's recorded result.
    if let Some(first) = c
        .games
        .first()
        .filter(|_| c.created.rules.strategic.is_some())
    {
        let gid = &first.opened.game_id;
        let gfile = format!("games/{gid}/{}", ledger::LOG_FILE);
        let gdata = std::fs::read(game_log(dir, gid))
            .map_err(|e| CampaignError::Verify(format!("{gfile}: cannot be read ({e})")))?;
        super::strategic::audit_decisions(&gfile, &c, &gdata)?;
    }
    Ok(Audited {
        campaign: c.created.campaign_id.clone(),
        lines: entries.len(),
        games: c.games.len(),
        ended,
    })
}
