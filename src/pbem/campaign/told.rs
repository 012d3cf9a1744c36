//! `campaign audit`: what the campaign told its games (issue 15 item 5, ruling R339). The
//! campaign reaches a game only by the referee's control lines recorded `by: "campaign"`: an
//! `absent SIDE until DATE` for a `player_absent` line, a `replace-key SIDE=…` for a
//! `player_replaced` line. Each such control must be one a campaign line gives (a forged one is
//! named at its line of the game's ledger), and each campaign line must have reached every game
//! of its player open at the time (a dropped one is named at its line of the campaign ledger).

use super::absence::{game_absence, PlayerAbsent};
use super::state::GameRecord;
use super::{CampaignError, Entry, Event, PlayerReplaced};
use crate::ledger::{self, ControlAction};
use crate::pbem::edges::Edges;
use chrono::{DateTime, Utc};

/// What a game's ledger records of its sides' absences and keys.
#[derive(Default)]
struct Seen {
    /// (side, until) of every `absent` control, and of every accepted `absent until` line a
    /// side's own mail sent (the campaign skips a game that already has the absence).
    absences: Vec<(String, String)>,
    /// (side, address, key) of every `replace-key` control.
    keys: Vec<(String, String, String)>,
    /// The time of the step that ended the game, if it ended.
    finished_at: Option<DateTime<Utc>>,
}

fn time(t: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Checks game `rec` (its ledger `gdata`, named `files.1`) against the campaign ledger
/// `entries` (named `files.0`).
pub fn audit_told(
    files: (&str, &str),
    entries: &[(Entry, String)],
    rec: &GameRecord,
    gdata: &[u8],
    edges: &Edges,
) -> Result<(), CampaignError> {
    let (file, gfile) = files;
    let gid = &rec.opened.game_id;
    // Campaign lines of this game's players while it was open (from its opening line on; an
    // absence recorded before it counts when it still ran at the opening).
    let open_until = if rec.ended_line == 0 {
        u64::MAX
    } else {
        rec.ended_line
    };
    let absences: Vec<(u64, &PlayerAbsent)> = entries
        .iter()
        .filter_map(|(e, _)| match &e.event {
            Event::PlayerAbsent(a) if e.seq < open_until => Some((e.seq, a)),
            _ => None,
        })
        .collect();
    let replaced: Vec<(u64, &PlayerReplaced)> = entries
        .iter()
        .filter_map(|(e, _)| match &e.event {
            Event::PlayerReplaced(r) if e.seq > rec.line && e.seq < open_until => Some((e.seq, r)),
            _ => None,
        })
        .collect();
    let player_of = |side: &str| rec.opened.sides.get(side).cloned().unwrap_or_default();
    let mut seen = Seen::default();
    let mut last_at = None;
    for (i, line) in gdata.split(|&b| b == b'\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        let n = i as u64 + 1;
        let bad = |m: String| CampaignError::Verify(format!("{gfile} line {n}: {m}"));
        let e: ledger::Entry = serde_json::from_slice(line)
            .map_err(|err| bad(format!("not a ledger line ({err})")))?;
        match &e.event {
            ledger::Event::Control(c) => {
                last_at = time(&c.at);
                for act in &c.actions {
                    match act {
                        ControlAction::Absent { side, until } => {
                            if c.by == "campaign" {
                                let p = player_of(side);
                                let given = absences.iter().any(|(_, a)| {
                                    a.player == p && a.until.as_ref().unwrap_or(&a.at) == until
                                });
                                if !given {
                                    return Err(bad(format!(
                                        "the campaign's control `absent {side} until {until}` is given by no absence of {p} in {file}"
                                    )));
                                }
                            }
                            seen.absences.push((side.clone(), until.clone()));
                        }
                        ControlAction::ReplaceKey { player } => {
                            let (a, k) = (&player.address, &player.public_key);
                            if c.by == "campaign" {
                                let p = player_of(&player.side);
                                let given = replaced.iter().any(|(_, r)| {
                                    r.player == p
                                        && &r.address == a
                                        && crate::pbem::keys::same_key(&r.public_key, k)
                                });
                                if !given {
                                    return Err(bad(format!(
                                        "the campaign's control `replace-key {}={a}:…` is given by no replacement of {p} in {file} while {gid} was open",
                                        player.side
                                    )));
                                }
                            }
                            seen.keys
                                .push((player.side.clone(), a.clone(), k.clone()));
                        }
                        // A battle's result: `strategic::audit_decisions` checks it.
                        ControlAction::Decide { .. } => {}
                        other if c.by == "campaign" => {
                            return Err(bad(format!(
                                "the campaign tells its games only absences, replacements and battle results, not {other:?}"
                            )))
                        }
                        _ => {}
                    }
                }
            }
            ledger::Event::Submission(s) => {
                last_at = time(&s.at);
                if s.accepted {
                    if let Some(u) = (edges.parse_body)(&s.canonical)
                        .ok()
                        .and_then(|b| game_absence(&b.lines))
                    {
                        seen.absences.push((s.side.clone(), u.to_rfc3339()));
                    }
                }
            }
            ledger::Event::Finished(_) => seen.finished_at = last_at,
            _ => {
                if let Some(t) = serde_json::from_slice::<serde_json::Value>(line)
                    .ok()
                    .and_then(|v| v.get("at").and_then(|t| t.as_str()).and_then(time))
                {
                    last_at = Some(t);
                }
            }
        }
    }
    let over = |at: &str| seen.finished_at.zip(time(at)).is_some_and(|(f, t)| f <= t);
    for (side, player) in &rec.opened.sides {
        // The absence running when the game opened, then each one declared while it was open.
        let before = absences
            .iter()
            .rfind(|(l, a)| *l < rec.line && &a.player == player);
        let opened = time(&rec.opened.at);
        let due = before
            .into_iter()
            .filter(|(_, a)| {
                a.until
                    .as_deref()
                    .and_then(time)
                    .zip(opened)
                    .is_some_and(|(u, o)| u > o)
            })
            .chain(
                absences
                    .iter()
                    .filter(|(l, a)| *l > rec.line && &a.player == player),
            );
        for (l, a) in due {
            let Some(until) = &a.until else { continue };
            if a.game.as_deref() == Some(gid.as_str()) || over(&a.at) {
                continue;
            }
            if !seen.absences.iter().any(|(s, u)| s == side && u == until) {
                return Err(CampaignError::Verify(format!(
                    "{file} line {l}: {player}'s absence until {until} did not reach game {gid}, open then ({gfile} records no `absent {side} until {until}`)"
                )));
            }
        }
        for (l, r) in replaced.iter().filter(|(_, r)| &r.player == player) {
            let got = seen.keys.iter().any(|(s, a, k)| {
                s == side && *a == r.address && crate::pbem::keys::same_key(k, &r.public_key)
            });
            if !got && !over(&r.at) {
                return Err(CampaignError::Verify(format!(
                    "{file} line {l}: {player}'s replacement ({}) did not reach game {gid}, open then ({gfile} records no `replace-key {side}=…` with that address and key)",
                    r.address
                )));
            }
        }
    }
    Ok(())
}
