//! Absences across a campaign (issue 15 item 5): a player signs `absent until DATE` once, in a
//! block addressed to the campaign (`game: <campaign id>`, `side: <their name>`, `seq: N`), and
//! the absence holds in every game of the campaign they play, open or opened during it, and for
//! the campaign's own waits (the force choice's deadline). The campaign ledger records the
//! signed block (`player_absent`); the referee tells each game by an `absent SIDE until DATE`
//! control. The checks here serve the referee and the fold; [`audit_absences`] checks the
//! signatures.

use super::state::Campaign;
use super::{CampaignError, Entry, Event};
use crate::game::Line;
use crate::pbem::lines::{parse, RefereeRequest};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The rule refusals cite.
pub const RULE: &str = "docs/campaigns.md \"Absences\" (and docs/deadlines.md \"Absence\")";

/// A player's signed absence for the whole campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerAbsent {
    pub player: String,
    /// The end of the absence (RFC 3339); `None`: the declared time had passed, so the
    /// absence ended.
    pub until: Option<String>,
    /// The signed block's seq (not `seq`: that is the campaign line's own): strictly
    /// increasing per player, so an old block cannot be sent again.
    pub block_seq: u64,
    /// The signed block as received (§4 canonical text and base64 signature).
    pub canonical: String,
    pub signature: String,
    /// The game of the campaign the block was sent to (its `game:`), when the player declared
    /// the absence there rather than to the campaign (ruling R338): then `block_seq` is the
    /// block's seq in that game, which that game keeps increasing, not the campaign's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    pub at: String,
}

/// A campaign absence refused: the line (0: the block as a whole), why, what to send instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub line: usize,
    pub reason: String,
    pub instead: String,
}

const EXAMPLE: &str = "absent until 2026-12-24T18:00:00Z";

/// The line and date of a campaign absence block: its lines must be exactly one
/// `absent until DATE` (comments and blank lines aside).
pub fn parse_absence(lines: &[Line]) -> Result<(usize, DateTime<Utc>), Refusal> {
    let mut found = None;
    for l in lines {
        let text = l.text.split('#').next().unwrap_or_default().trim();
        if text.is_empty() {
            continue;
        }
        let no = |reason: String| {
            Refusal {
            line: l.number,
            reason,
            instead: format!("one line `{EXAMPLE}` in a block with game: the campaign id, side: your name in the campaign"),
        }
        };
        match parse(text) {
            Some(Ok(RefereeRequest::Absent { until })) if found.is_none() => {
                found = Some((l.number, until))
            }
            Some(Ok(RefereeRequest::Absent { .. })) => {
                return Err(no("a second `absent until` line".into()))
            }
            Some(Err(bad)) => return Err(no(bad.reason)),
            _ => {
                return Err(no(format!(
                    "`{}` is not a line a campaign takes: orders go to a game (game: CAMPAIGN-N)",
                    text.chars().take(60).collect::<String>()
                )))
            }
        }
    }
    found.ok_or_else(|| Refusal {
        line: 0,
        reason: "the block has no `absent until DATE` line".into(),
        instead: EXAMPLE.into(),
    })
}

/// The date of the `absent until` line among a game block's lines (its last, as the game
/// applies them in order).
pub fn game_absence(lines: &[Line]) -> Option<DateTime<Utc>> {
    lines.iter().rev().find_map(|l| match parse(&l.text) {
        Some(Ok(RefereeRequest::Absent { until })) => Some(until),
        _ => None,
    })
}

impl Campaign {
    /// The last seq of `player`'s recorded absence blocks (0: none).
    pub fn absence_seq(&self, player: &str) -> u64 {
        self.absence_seqs.get(player).copied().unwrap_or(0)
    }

    /// Applies a `player_absent` line: of a player of the campaign, with a seq above the last.
    pub(crate) fn note_absence(&mut self, a: &PlayerAbsent) -> Result<(), String> {
        if !self.created.players.iter().any(|p| p.name == a.player) {
            return Err(format!("an absence of {}, who is not a player", a.player));
        }
        match &a.game {
            // Sent to a game (R338): that game's seq, checked there; the game must be one of
            // the campaign's, opened before, in which the player plays.
            Some(g) => {
                if !self.games.iter().any(|r| {
                    &r.opened.game_id == g && r.opened.sides.values().any(|n| *n == a.player)
                }) {
                    return Err(format!(
                        "an absence of {} sent to {g}, which is no game of the campaign they play",
                        a.player
                    ));
                }
            }
            None => {
                let last = self.absence_seq(&a.player);
                if a.block_seq <= last {
                    return Err(format!(
                        "an absence of {} with seq {} after seq {last}",
                        a.player, a.block_seq
                    ));
                }
                self.absence_seqs.insert(a.player.clone(), a.block_seq);
            }
        }
        match &a.until {
            Some(t) => self.absent.insert(a.player.clone(), t.clone()),
            None => self.absent.remove(&a.player),
        };
        Ok(())
    }

    /// The end of `player`'s absence, if one was declared and is still recorded.
    pub fn absent_until(&self, player: &str) -> Option<DateTime<Utc>> {
        let t = self.absent.get(player)?;
        Some(DateTime::parse_from_rfc3339(t).ok()?.with_timezone(&Utc))
    }

    /// The force deadline of `side` of game `number`, awaiting forces: the campaign's
    /// deadline, but never before the end of that side's player's absence.
    pub fn side_force_deadline(&self, number: u32, side: &str) -> Option<DateTime<Utc>> {
        let due = self.force_deadline()?;
        let away = self
            .awaiting_game(number)
            .and_then(|p| p.sides.get(side).cloned())
            .and_then(|player| self.absent_until(&player));
        Some(away.map_or(due, |a| a.max(due)))
    }

    /// Side → the end of its player's absence, for the sides of a game (the absences still
    /// running at `now`).
    pub fn absences_for(
        &self,
        sides: &BTreeMap<String, String>,
        now: DateTime<Utc>,
    ) -> BTreeMap<String, String> {
        sides
            .iter()
            .filter_map(|(side, player)| {
                let until = self.absent_until(player).filter(|t| *t > now)?;
                Some((side.clone(), until.to_rfc3339()))
            })
            .collect()
    }
}

/// `campaign audit`: every `player_absent` line carries a block signed by that player (their
/// key as it stood then), addressed to the campaign under their name with the recorded seq,
/// whose one line declares the recorded end (or a time already past when none is recorded);
/// or, for an absence sent to one game (R338), addressed to that game under the side the
/// player plays there, whose `absent until` line (among its orders) gives the recorded end.
pub fn audit_absences(
    file: &str,
    entries: &[(Entry, String)],
    edges: &crate::pbem::edges::Edges,
) -> Result<(), CampaignError> {
    let Some((
        Entry {
            event: Event::Created(cr),
            ..
        },
        _,
    )) = entries.first()
    else {
        return Ok(());
    };
    let mut keys: BTreeMap<String, String> = cr
        .players
        .iter()
        .map(|p| (p.name.clone(), p.public_key.clone()))
        .collect();
    // Game id → side → player name, as the games were opened.
    let mut sides: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (e, _) in entries {
        let a = match &e.event {
            Event::PlayerAbsent(a) => a,
            Event::PlayerReplaced(r) => {
                keys.insert(r.player.clone(), r.public_key.clone());
                continue;
            }
            Event::GameOpened(o) => {
                sides.insert(o.game_id.clone(), o.sides.clone());
                continue;
            }
            _ => continue,
        };
        let bad = |m: String| CampaignError::Verify(format!("{file} line {}: {m}", e.seq));
        let key = keys.get(&a.player).map(String::as_str).unwrap_or_default();
        (edges.verify)(key, &a.canonical, &a.signature).map_err(|err| {
            bad(format!(
                "the absence is not signed by {}'s key ({err})",
                a.player
            ))
        })?;
        let body = (edges.parse_body)(&a.canonical)
            .map_err(|err| bad(format!("the signed absence does not parse ({err})")))?;
        let addressed = match &a.game {
            None => body.game == cr.campaign_id && body.side == a.player,
            Some(g) => {
                &body.game == g
                    && sides
                        .get(g)
                        .and_then(|s| s.get(&body.side))
                        .is_some_and(|n| *n == a.player)
            }
        };
        if !addressed || body.seq != a.block_seq {
            return Err(bad(format!(
                "the signed absence is for {} / {} seq {}, not the recorded {}, player and seq",
                body.game,
                body.side,
                body.seq,
                a.game.as_deref().unwrap_or("campaign")
            )));
        }
        let until = match &a.game {
            None => parse_absence(&body.lines).map_err(|r| bad(r.reason))?.1,
            Some(_) => game_absence(&body.lines)
                .ok_or_else(|| bad("the signed block has no `absent until DATE` line".into()))?,
        };
        let at = DateTime::parse_from_rfc3339(&a.at)
            .map_err(|_| bad(format!("`at` {} is not an RFC 3339 time", a.at)))?
            .with_timezone(&Utc);
        let want = (until > at).then(|| until.to_rfc3339());
        if want != a.until {
            return Err(bad(format!(
                "the recorded end {:?} is not the one the signed line gives ({want:?})",
                a.until
            )));
        }
    }
    Ok(())
}
