//! Teams, deadlines and referee control (DESIGN §3 `control`): who decides, when a side's
//! deadline falls, and the control commands, parsed and applied.

use crate::game::{CommandOutcome, CommandResult, Line};
use crate::ledger::{ControlAction, Created, Player};
use crate::pbem::citation::DocRule;
use crate::pbem::replay::*;
use chrono::{DateTime, Utc};

/// The deadline of the current decisions: last step + deadline hours.
pub fn deadline_of<S>(created: &Created, d: &Derived<S>) -> Option<DateTime<Utc>> {
    if created.deadline_hours == 0 || d.finished.is_some() || d.paused {
        return None;
    }
    let base = DateTime::parse_from_rfc3339(&d.last_step_at).ok()?;
    base.with_timezone(&Utc)
        .checked_add_signed(chrono::Duration::hours(created.deadline_hours.into()))
}

// ---------------------------------------------------------------------------------------------
// The pipeline.

/// `SIDE=ADDRESS:PUBKEY`.
pub fn parse_player(arg: &str) -> Result<Player, String> {
    let (side, rest) = arg.split_once('=').ok_or_else(|| {
        format!("`{arg}`: write SIDE=ADDRESS:PUBKEY, e.g. allies=ann@example.org:ed25519:AbC…")
    })?;
    let (address, key) = rest.split_once(':').ok_or_else(|| {
        format!("`{arg}`: no public key after the address: write SIDE=ADDRESS:PUBKEY")
    })?;
    if side.is_empty() || !address.contains('@') {
        return Err(format!(
            "`{arg}`: `{side}` / `{address}` is not a side and a mail address"
        ));
    }
    crate::pbem::keys::parse_public_key(key).map_err(|e| {
        format!("`{arg}`: the public key is not usable ({e}); copy the last line `dustmail keygen` printed, or the line of an OpenSSH ~/.ssh/id_ed25519.pub (quoted: it holds spaces)")
    })?;
    Ok(Player {
        side: side.to_string(),
        address: address.to_string(),
        public_key: crate::pbem::keys::registered_form(key),
    })
}

/// The control commands, as written after `dustmail control GAME` or in a referee mail.
pub const CONTROL_FORMS: &str =
    "pause | resume | extend HOURS | replace-key SIDE=ADDRESS:PUBKEY | observe ADDRESS | unobserve ADDRESS | absent SIDE until DATE | decide battle N: …";

/// Reads one control command.
pub fn parse_control(text: &str) -> Result<ControlAction, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let first = lower.first().map(String::as_str).unwrap_or("");
    match (first, &words[..]) {
        ("pause", [_]) => Ok(ControlAction::Pause),
        ("resume", [_]) => Ok(ControlAction::Resume),
        ("extend", [_, h]) => match h.parse::<u32>() {
            Ok(hours) if (1..=8760).contains(&hours) => Ok(ControlAction::Extend { hours }),
            _ => Err(format!(
                "`extend {h}`: give a whole number of hours from 1 to 8760, like `extend 24`"
            )),
        },
        ("replace-key", [_, p]) => {
            parse_player(p).map(|player| ControlAction::ReplaceKey { player })
        }
        // An OpenSSH key has a space in it: `replace-key SIDE=ADDRESS:ssh-ed25519 AAAA… [comment]`.
        ("replace-key", [_, p, b64, ..]) if p.ends_with(":ssh-ed25519") => {
            parse_player(&format!("{p} {b64}")).map(|player| ControlAction::ReplaceKey { player })
        }
        ("observe", [_, a]) if a.contains('@') => Ok(ControlAction::Observe {
            address: a.to_string(),
        }),
        ("unobserve", [_, a]) if a.contains('@') => Ok(ControlAction::Unobserve {
            address: a.to_string(),
        }),
        ("absent", [_, side, u, t]) if u.eq_ignore_ascii_case("until") => {
            match DateTime::parse_from_rfc3339(t) {
                Ok(until) => Ok(ControlAction::Absent {
                    side: side.to_string(),
                    until: until.with_timezone(&Utc).to_rfc3339(),
                }),
                Err(_) => Err(format!(
                    "`{t}` is not an RFC 3339 time: write e.g. `absent {side} until 2026-12-24T18:00:00Z`"
                )),
            }
        }
        ("decide", [_, _, ..]) => Ok(ControlAction::Decide {
            text: text.trim()[words[0].len()..].trim().to_string(),
        }),
        _ => Err(format!(
            "`{}` is not a referee command: write one of {CONTROL_FORMS}",
            text.trim()
        )),
    }
}

pub(crate) fn control_refusal(
    reason: impl Into<String>,
    instead: impl Into<String>,
) -> CommandOutcome {
    CommandOutcome::Refused {
        reason: reason.into(),
        rule: DocRule::RefereeCommands.into(),
        instead: instead.into(),
    }
}

pub(crate) fn hours_after(t: &str, h: u32) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t)
        .ok()?
        .with_timezone(&Utc)
        .checked_add_signed(chrono::Duration::hours(h.into()))
}

/// Applies one control action to the derived game; the answer restates it or says why not.
pub(crate) fn apply_control<S>(
    created: &Created,
    d: &mut Derived<S>,
    action: &ControlAction,
    at: DateTime<Utc>,
    decide: Decider<'_, S>,
) -> CommandOutcome {
    let ok = |u: String| CommandOutcome::Accepted { understood: u };
    if d.finished.is_some() {
        return control_refusal("the game is over", "nothing: a finished game cannot change");
    }
    match action {
        ControlAction::Decide { text } => match decide(&mut d.state, text) {
            Ok(u) => {
                d.last_step_at = at.to_rfc3339();
                ok(u)
            }
            Err(e) => control_refusal(e, "decide battle N: winner SIDE; lost SIDE ID …"),
        },
        ControlAction::Pause => {
            if d.paused {
                return control_refusal("the game is already paused", "resume");
            }
            d.paused = true;
            ok("pause: no deadline runs, no reminder or default is sent until `resume`; orders are still taken".into())
        }
        ControlAction::Resume => {
            if !d.paused {
                return control_refusal("the game is not paused", "pause");
            }
            d.paused = false;
            d.last_step_at = at.to_rfc3339();
            let due = if created.deadline_hours == 0 {
                "no deadlines in this game".to_string()
            } else {
                format!(
                    "the deadline counts afresh from now: {}",
                    hours_after(&d.last_step_at, created.deadline_hours)
                        .map(|t| t.to_rfc3339())
                        .unwrap_or_default()
                )
            };
            ok(format!("resume: {due}"))
        }
        ControlAction::Extend { hours } => {
            if d.paused {
                return control_refusal(
                    "the game is paused: no deadline runs to extend",
                    "resume (it gives every side a full deadline), then extend if needed",
                );
            }
            let Some(moved) = hours_after(&d.last_step_at, *hours) else {
                return control_refusal("the deadline cannot move that far", "extend 24");
            };
            d.last_step_at = moved.to_rfc3339();
            match deadline_of(created, d) {
                Some(t) => ok(format!(
                    "extend {hours}: the deadline is now {}",
                    t.to_rfc3339()
                )),
                None => ok(format!("extend {hours}: this game has no deadlines")),
            }
        }
        ControlAction::ReplaceKey { player } => {
            if d.players.is_empty() {
                d.players = created.players.clone();
            }
            let same_side: Vec<usize> = d
                .players
                .iter()
                .enumerate()
                .filter(|(_, p)| p.side == player.side)
                .map(|(i, _)| i)
                .collect();
            let target = match same_side.as_slice() {
                [] => {
                    let sides: Vec<&str> = created.setup.sides.iter().map(String::as_str).collect();
                    return control_refusal(
                        format!("side `{}` does not play in this game", player.side),
                        format!(
                            "replace-key SIDE=ADDRESS:PUBKEY with SIDE one of {}",
                            sides.join(", ")
                        ),
                    );
                }
                [one] => *one,
                many => match many
                    .iter()
                    .find(|i| d.players[**i].address == player.address)
                {
                    Some(i) => *i,
                    None => {
                        let addrs: Vec<&str> = many
                            .iter()
                            .map(|i| d.players[*i].address.as_str())
                            .collect();
                        return control_refusal(
                            format!(
                                "side {} has several players: the address names whose key is replaced, and `{}` is not one of them",
                                player.side, player.address
                            ),
                            format!("replace-key {}=ADDRESS:PUBKEY with ADDRESS one of {}", player.side, addrs.join(", ")),
                        );
                    }
                },
            };
            if d.players.iter().enumerate().any(|(i, p)| {
                i != target
                    && (crate::pbem::keys::same_key(&p.public_key, &player.public_key)
                        || p.address == player.address)
            }) {
                return control_refusal(
                    "another player of this game already has that key or address",
                    "replace-key with the new key and address of this player alone",
                );
            }
            let old = d.players[target].clone();
            // The seq and absence stay with the player (a solo side keeps its side key).
            d.players[target] = player.clone();
            ok(format!(
                "replace-key: side {}'s player {} now signs with {} and gets mail at {}{}",
                player.side,
                old.address,
                player.public_key,
                player.address,
                if old.address != player.address {
                    ""
                } else {
                    " (same address)"
                }
            ))
        }
        ControlAction::Observe { address } => {
            if d.observers.contains(address) {
                return control_refusal(
                    format!("{address} already observes this game"),
                    format!("unobserve {address}"),
                );
            }
            d.observers.push(address.clone());
            d.observers.sort();
            ok(format!(
                "observe {address}: they get every report and can send nothing"
            ))
        }
        ControlAction::Unobserve { address } => {
            if !d.observers.contains(address) {
                return control_refusal(
                    format!("{address} does not observe this game"),
                    format!("observe {address}"),
                );
            }
            d.observers.retain(|a| a != address);
            ok(format!("unobserve {address}: they get no more reports"))
        }
        ControlAction::Absent { side, until } => {
            let players = d.players(created).to_vec();
            let keys: Vec<String> = players
                .iter()
                .filter(|p| &p.side == side)
                .map(|p| player_key(&players, p))
                .collect();
            if keys.is_empty() {
                return control_refusal(
                    format!("side `{side}` does not play in this game"),
                    format!(
                        "absent SIDE until DATE with SIDE one of {}",
                        created.setup.sides.join(", ")
                    ),
                );
            }
            // The same rule as a player's own `absent until`: a time already past ends it.
            let ends = parse_time(until).is_none_or(|t| t <= at);
            for k in keys {
                if ends {
                    d.absent.remove(&k);
                } else {
                    d.absent.insert(k, until.clone());
                }
            }
            if ends {
                ok(format!("absent {side} until {until}: that time has passed, so side {side}'s absence ends and deadlines run as usual"))
            } else {
                ok(format!("absent {side} until {until}: side {side}'s deadlines wait until then (an absence declared for the whole campaign)"))
            }
        }
    }
}

/// Parses and applies control lines: the actions applied and a result per line. A refused line
/// changes nothing; the lines before it stand.
/// The game's [`crate::game::Game::decide`], for the `decide` control.
pub(crate) type Decider<'a, S> = &'a dyn Fn(&mut S, &str) -> Result<String, String>;

pub(crate) fn control_lines<S>(
    created: &Created,
    d: &mut Derived<S>,
    lines: &[Line],
    at: DateTime<Utc>,
    decide: Decider<'_, S>,
) -> (Vec<ControlAction>, Vec<CommandResult>) {
    let mut actions = Vec::new();
    let mut results = Vec::new();
    for l in lines {
        let outcome = match parse_control(&l.text) {
            Ok(a) => {
                let o = apply_control(created, d, &a, at, decide);
                if matches!(o, CommandOutcome::Accepted { .. }) {
                    actions.push(a);
                }
                o
            }
            Err(reason) => control_refusal(reason, CONTROL_FORMS),
        };
        results.push(CommandResult {
            line: l.number,
            outcome,
        });
    }
    (actions, results)
}

/// The lines of a server control command.
pub(crate) fn command_lines(command: &str) -> Vec<Line> {
    vec![Line {
        number: 1,
        text: command.to_string(),
    }]
}

/// The players who answer an awaited decision: in a team, those commanding a unit its options
/// name (`activate rangers`, `react hotdog`); every player of the side when the options name
/// none of the side's assigned units (`first allies`, `react none`).
pub fn deciders<'a>(
    created: &Created,
    players: &'a [Player],
    a: &crate::game::Awaiting,
) -> Vec<&'a Player> {
    let of_side: Vec<&Player> = players.iter().filter(|p| p.side == a.side).collect();
    if of_side.len() < 2 {
        return of_side;
    }
    let named: Vec<&String> = a
        .options
        .iter()
        .filter_map(|o| o.split_whitespace().nth(1))
        .filter_map(|u| created.assignments.get(u.trim_end_matches(':')))
        .collect();
    let some: Vec<&Player> = of_side
        .iter()
        .copied()
        .filter(|p| named.contains(&&p.address))
        .collect();
    if some.is_empty() {
        of_side
    } else {
        some
    }
}

/// When `side`'s current decision falls due: the game's deadline, but not before the end of an
/// absence of one of the side's players. `None` when paused, finished or without deadlines.
pub fn side_deadline<S>(created: &Created, d: &Derived<S>, side: &str) -> Option<DateTime<Utc>> {
    let due = deadline_of(created, d)?;
    let players = d.players(created);
    let away = players
        .iter()
        .filter(|p| p.side == side)
        .filter_map(|p| d.absent.get(&player_key(players, p)))
        .filter_map(|t| DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.with_timezone(&Utc))
        .max();
    Some(away.map_or(due, |a| a.max(due)))
}

pub(crate) fn parse_time(t: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}
