//! The lines the referee answers itself, for every game (DESIGN §2): `report`, `template` and
//! `absent until DATE`. They are parsed here, once, before a game sees a submission, and never
//! reach [`crate::game::Game::submit`]. Their syntax is that of docs/orders.md "Lines the
//! referee answers", whatever the game.

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
}

/// Where a refusal of these lines points.
pub const RULE: &str = "docs/orders.md";

/// A referee line that does not parse: why, and what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRequest {
    pub reason: String,
    pub instead: String,
}

const ABSENT_EXAMPLE: &str = "absent until 2026-12-24T18:00:00Z";

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
    Some(match kw.as_str() {
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
        let bad = parse("report now").unwrap().unwrap_err();
        assert!(bad.reason.contains("write `report`"), "{}", bad.reason);
    }
}
