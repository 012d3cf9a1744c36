//! The lines the referee answers itself, for every game (DESIGN §2): `report`, `template` and
//! `absent until DATE`; and `concede`, `offer draw`, `accept draw`, which it parses for every
//! game and hands to the game ([`crate::game::Game::concession`]) in their place. They are parsed here, once, before a game sees a submission, and never
//! reach [`crate::game::Game::submit`]. Their syntax is that of docs/orders.md "Lines the
//! referee answers", whatever the game.

use crate::game::{CommandOutcome, CommandResult, Concession, DiceSource, Line, Outcome, Sender};
use crate::ledger::{Created, Player};
use crate::pbem::citation::DocRule;
use crate::pbem::replay::Derived;
use crate::registry::{AnyGame, AnyState};
use chrono::{DateTime, NaiveDate, Utc};

/// A line the referee answers itself instead of the game (it knows mails and deadlines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefereeRequest {
    /// Mail the current report again.
    Report,
    /// Mail the orders template.
    Template,
    /// The sender is away: their deadlines wait until then.
    Absent { until: DateTime<Utc> },
    /// `timezone Europe/Rome`: the sender's mails show times in that zone (text only, never
    /// the rules). The name is the IANA database's own spelling.
    TimeZone { name: String },
    /// `concede`, `offer draw`, `accept draw`: the game applies it in its place.
    Concession(Concession),
}

/// Where a refusal of these lines points.
pub const RULE: DocRule = DocRule::Orders;

/// A referee line that does not parse: why, and what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRequest {
    pub reason: String,
    pub instead: String,
}

const ABSENT_EXAMPLE: &str = "absent until 2026-12-24T18:00:00Z";
const ZONE_EXAMPLE: &str = "timezone Europe/Rome";

/// An IANA zone name in its database spelling, whatever the case it was written in.
pub fn zone_name(word: &str) -> Option<String> {
    chrono_tz::TZ_VARIANTS
        .iter()
        .find(|z| z.name().eq_ignore_ascii_case(word))
        .map(|z| z.name().to_string())
}

/// `None` when the line is not one of the referee's (it goes to the game); else the request or
/// why it is malformed. Comments (`#`) and case are ignored, as in every game's orders.
pub fn parse(text: &str) -> Option<Result<RefereeRequest, BadRequest>> {
    let text = text.split('#').next().unwrap_or("").trim();
    let words: Vec<&str> = text.split_whitespace().collect();
    let kw = words.first()?.to_ascii_lowercase();
    let bare = |req: RefereeRequest, ex: &str| {
        if words.len() == 1 {
            Ok(req)
        } else {
            Err(BadRequest {
                reason: format!("`{text}` is not understood: write `{ex}`"),
                instead: ex.into(),
            })
        }
    };
    let bare2 = |c: Concession| {
        if words.len() == 2 {
            Ok(RefereeRequest::Concession(c))
        } else {
            Err(BadRequest {
                reason: format!("`{text}` is not understood: write `{}`", c.text()),
                instead: c.text().into(),
            })
        }
    };
    Some(match kw.as_str() {
        "concede" => bare(RefereeRequest::Concession(Concession::Concede), "concede"),
        // `offer`/`accept` lines about anything but a draw are the game's.
        "offer" | "accept" if !words.get(1).is_some_and(|w| w.eq_ignore_ascii_case("draw")) => {
            return None
        }
        "offer" => bare2(Concession::OfferDraw),
        "accept" => bare2(Concession::AcceptDraw),
        "report" => bare(RefereeRequest::Report, "report"),
        "template" => bare(RefereeRequest::Template, "template"),
        "absent" => match words.as_slice() {
            [_, u, d] if u.eq_ignore_ascii_case("until") => {
                date(d).map(|until| RefereeRequest::Absent { until })
            }
            _ => Err(BadRequest {
                reason: "`absent` is written `absent until <date>`".into(),
                instead: ABSENT_EXAMPLE.into(),
            }),
        },
        "timezone" => match words.as_slice() {
            [_, z] => zone_name(z)
                .map(|name| RefereeRequest::TimeZone { name })
                .ok_or_else(|| BadRequest {
                    reason: format!(
                        "`{z}` is not a time zone name: write an IANA name such as Europe/Rome, America/New_York or UTC"
                    ),
                    instead: ZONE_EXAMPLE.into(),
                }),
            _ => Err(BadRequest {
                reason: "`timezone` is written `timezone <IANA zone name>`".into(),
                instead: ZONE_EXAMPLE.into(),
            }),
        },
        _ => return None,
    })
}

/// An RFC 3339 date-time, or a date (its midnight UTC).
fn date(word: &str) -> Result<DateTime<Utc>, BadRequest> {
    if let Ok(d) = DateTime::parse_from_rfc3339(word) {
        return Ok(d.with_timezone(&Utc));
    }
    if let Some(d) = NaiveDate::parse_from_str(word, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
    {
        return Ok(d.and_utc());
    }
    Err(BadRequest {
        reason: format!("`{word}` is not a date: write an RFC 3339 date-time or a date"),
        instead: ABSENT_EXAMPLE.into(),
    })
}

/// The units a player commands: `None` when their side has one player (the whole side).
pub fn units_of(created: &Created, players: &[Player], p: &Player) -> Option<Vec<String>> {
    if players.iter().filter(|q| q.side == p.side).count() < 2 {
        return None;
    }
    Some(
        created
            .assignments
            .iter()
            .filter(|(_, a)| **a == p.address)
            .map(|(u, _)| u.clone())
            .collect(),
    )
}

/// A submission's lines parted into the game's and the referee's, with the referee's answers.
pub(crate) struct Split {
    pub(crate) game_lines: Vec<Line>,
    pub(crate) referee: Vec<CommandResult>,
    /// Concessions, by line: applied by the game between its other lines, in order.
    pub(crate) concessions: Vec<(usize, Concession)>,
    /// The absence the mail declares (`None`: unchanged; `Some(None)`: ended).
    pub(crate) absent: Option<Option<String>>,
    /// The time zone the mail sets for its sender's mails (`None`: unchanged).
    pub(crate) zone: Option<String>,
}

pub(crate) fn split_lines(
    created: &Created,
    side: &str,
    lines: &[Line],
    at: DateTime<Utc>,
) -> Split {
    let mut sp = Split {
        game_lines: Vec::new(),
        referee: Vec::new(),
        concessions: Vec::new(),
        absent: None,
        zone: None,
    };
    for l in lines {
        let req = match parse(&l.text) {
            None => {
                sp.game_lines.push(l.clone());
                continue;
            }
            Some(Err(bad)) => {
                sp.referee.push(CommandResult {
                    line: l.number,
                    outcome: CommandOutcome::Refused {
                        reason: bad.reason,
                        rule: RULE.into(),
                        instead: bad.instead,
                    },
                });
                continue;
            }
            Some(Ok(req)) => req,
        };
        let outcome = match req {
            RefereeRequest::Concession(c) => {
                sp.concessions.push((l.number, c));
                continue;
            }
            RefereeRequest::Report => CommandOutcome::Accepted {
                understood: "report: the current report is mailed to you".into(),
            },
            RefereeRequest::Template => CommandOutcome::Accepted {
                understood: "template: the orders template you may send now is mailed to you"
                    .into(),
            },
            RefereeRequest::TimeZone { name } => {
                let understood =
                    format!("timezone {name}: the times in your mails are shown in this zone");
                sp.zone = Some(name);
                CommandOutcome::Accepted { understood }
            }
            RefereeRequest::Absent { until } => {
                let limit = at
                    .checked_add_signed(chrono::Duration::days(created.max_absence_days.into()))
                    .unwrap_or(at);
                if until <= at {
                    sp.absent = Some(None);
                    CommandOutcome::Accepted {
                        understood: format!(
                            "absent until {}: that time has passed, so your absence ends now and deadlines run as usual",
                            until.to_rfc3339()
                        )}
                } else if until > limit {
                    CommandOutcome::Refused {
                        reason: format!(
                            "absent until {} is more than {} days from now: an absence is bounded",
                            until.to_rfc3339(),
                            created.max_absence_days
                        ),
                        rule: DocRule::Absence.into(),
                        instead: format!(
                            "absent until {} (or ask the referee to pause the game)",
                            limit.format("%Y-%m-%dT%H:%M:%SZ")
                        ),
                    }
                } else {
                    sp.absent = Some(Some(until.to_rfc3339()));
                    CommandOutcome::Accepted {
                        understood: format!(
                            "absent until {}: side {side}'s deadlines wait for you until then",
                            until.to_rfc3339()
                        ),
                    }
                }
            }
        };
        sp.referee.push(CommandResult {
            line: l.number,
            outcome,
        });
    }
    sp
}

/// Runs the game's share of a split submission and merges the referee's answers, in line order.
pub(crate) fn submit_split(
    game: &dyn AnyGame,
    state: &mut AnyState,
    from: Sender<'_>,
    sp: &Split,
    dice: &mut dyn DiceSource,
) -> Outcome {
    // The game's lines go in runs between the concessions, so each command acts in its place:
    // `concede` before an activation ends the game first. A concession is a command of its own
    // in every game's syntax, so a run never splits one of the game's commands.
    let mut o = Outcome::default();
    let mut rest: &[Line] = &sp.game_lines;
    let merge = |o: &mut Outcome, part: Outcome| {
        o.results.extend(part.results);
        o.happenings.extend(part.happenings);
        o.rounds_ended.extend(part.rounds_ended);
        if o.finished.is_none() {
            o.finished = part.finished;
        }
    };
    for &(line, c) in &sp.concessions {
        let n = rest.iter().take_while(|l| l.number < line).count();
        if n > 0 {
            merge(&mut o, game.submit(state, from, &rest[..n], dice));
        }
        rest = &rest[n..];
        let mut part = game.concession(state, from.side, c, dice);
        for r in &mut part.results {
            r.line = line;
        }
        merge(&mut o, part);
    }
    if !rest.is_empty() {
        merge(&mut o, game.submit(state, from, rest, dice));
    }
    o.results.extend(sp.referee.iter().cloned());
    o.results.sort_by_key(|r| r.line);
    o
}

/// Records an absence a submission declared.
pub(crate) fn note_absence<S>(d: &mut Derived<S>, key: String, absent: &Option<Option<String>>) {
    match absent {
        Some(Some(until)) => {
            d.absent.insert(key, until.clone());
        }
        Some(None) => {
            d.absent.remove(&key);
        }
        None => {}
    }
}

/// Records the time zone a submission set (UTC clears it: mails show UTC by default).
pub(crate) fn note_zone<S>(d: &mut Derived<S>, key: String, zone: &Option<String>) {
    match zone.as_deref() {
        Some("UTC") => {
            d.zones.remove(&key);
        }
        Some(z) => {
            d.zones.insert(key, z.to_string());
        }
        None => {}
    }
}

/// The time zone a player set by mail, if any (player key as [`crate::pbem::replay::player_key`]).
pub fn zone_of<'a, S>(d: &'a Derived<S>, players: &[Player], p: &Player) -> Option<&'a str> {
    d.zones
        .get(&crate::pbem::replay::player_key(players, p))
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referee_lines_parse_for_every_game() {
        assert_eq!(parse("Report  # again"), Some(Ok(RefereeRequest::Report)));
        assert_eq!(parse("template"), Some(Ok(RefereeRequest::Template)));
        assert!(matches!(
            parse("absent until 2026-12-24"),
            Some(Ok(RefereeRequest::Absent { .. }))
        ));
        assert_eq!(parse("activate rangers"), None);
        assert_eq!(parse("# report"), None);
        let bad = parse("absent tomorrow").unwrap().unwrap_err();
        assert_eq!(bad.instead, ABSENT_EXAMPLE);
        assert_eq!(
            parse("Offer Draw"),
            Some(Ok(RefereeRequest::Concession(Concession::OfferDraw)))
        );
        assert_eq!(
            parse("concede # gg"),
            Some(Ok(RefereeRequest::Concession(Concession::Concede)))
        );
        // Offers of anything but a draw are the game's own lines.
        assert_eq!(parse("offer peace"), None);
        assert_eq!(parse("accept"), None);
        let bad = parse("accept draw now").unwrap().unwrap_err();
        assert_eq!(bad.instead, "accept draw");
        assert_eq!(
            parse("timezone europe/rome"),
            Some(Ok(RefereeRequest::TimeZone {
                name: "Europe/Rome".into()
            }))
        );
        let bad = parse("timezone Europe/Roma").unwrap().unwrap_err();
        assert_eq!(bad.instead, ZONE_EXAMPLE);
        let bad = parse("report now").unwrap().unwrap_err();
        assert!(bad.reason.contains("write `report`"), "{}", bad.reason);
    }
}
