//! Times in a reader's own time zone (issue 16 item 5): a player who sent `timezone
//! Europe/Rome` reads `Thu 26 Nov 19:31 CET (UTC+1), in 2 days 3 hours`. Text only: deadlines
//! are kept and compared in UTC, and the zone never reaches the rules.

use chrono::{DateTime, Offset, TimeZone};
use chrono_tz::Tz;

/// A time to the minute in `zone` with its abbreviation and offset, and the time left counted
/// from `now` (the run's clock). Without a zone (or with one the database does not know), the
/// UTC form of [`when_text`].
pub fn when_in_zone(at: &str, now: Option<&str>, zone: Option<&str>) -> String {
    let tz = zone.and_then(|z| z.parse::<Tz>().ok());
    let (Some(tz), Ok(t)) = (tz, DateTime::parse_from_rfc3339(at)) else {
        return when_text(at, now);
    };
    let local = tz.from_utc_datetime(&t.naive_utc());
    let abbr = local.format("%Z").to_string();
    let offset = offset_text(local.offset().fix().local_minus_utc());
    // Zones without a letter abbreviation in the database print their offset as one (`+03`):
    // the offset alone is then enough.
    let zone_text = if abbr.starts_with(['+', '-']) {
        offset
    } else {
        format!("{abbr} ({offset})")
    };
    let shown = format!("{} {zone_text}", local.format("%a %-d %b %H:%M"));
    match now.and_then(|n| DateTime::parse_from_rfc3339(n).ok()) {
        Some(n) => format!("{shown}, {}", time_left(t.to_utc() - n.to_utc())),
        None => shown,
    }
}

/// A time for people: `2026-11-26 18:31 UTC (in 2 days 3 hours)`, to the minute, with the time
/// left counted from `now` (the run's clock, not the wall clock: the same run always writes the
/// same mail). Without `now` the time alone; a text that is no RFC 3339 time is shown as it is.
pub fn when_text(at: &str, now: Option<&str>) -> String {
    let parse = |t: &str| chrono::DateTime::parse_from_rfc3339(t).ok();
    let Some(at) = parse(at) else {
        return at.to_string();
    };
    let at = at.with_timezone(&chrono::Utc);
    let shown = at.format("%Y-%m-%d %H:%M UTC").to_string();
    match now.and_then(parse) {
        Some(now) => format!(
            "{shown} ({})",
            time_left(at - now.with_timezone(&chrono::Utc))
        ),
        None => shown,
    }
}

/// "in 2 days 3 hours", "in 5 hours 12 minutes", "in 12 minutes", "3 hours ago": the two
/// largest units, counted down to the minute.
fn time_left(d: chrono::TimeDelta) -> String {
    let minutes = d.num_minutes();
    let unit = |n: i64, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    let m = minutes.unsigned_abs() as i64;
    let (days, hours, mins) = (m / 1440, m / 60 % 24, m % 60);
    let span = if days > 0 {
        match hours {
            0 => unit(days, "day"),
            h => format!("{} {}", unit(days, "day"), unit(h, "hour")),
        }
    } else if hours > 0 {
        match mins {
            0 => unit(hours, "hour"),
            n => format!("{} {}", unit(hours, "hour"), unit(n, "minute")),
        }
    } else if mins > 0 {
        unit(mins, "minute")
    } else {
        return if d < chrono::TimeDelta::zero() {
            "just passed".into()
        } else {
            "in less than a minute".into()
        };
    };
    if minutes < 0 {
        format!("{span} ago")
    } else {
        format!("in {span}")
    }
}

/// `UTC+1`, `UTC-5`, `UTC+5:30`, `UTC` (seconds east of UTC).
fn offset_text(secs: i32) -> String {
    let m = secs.abs() / 60;
    let sign = if secs < 0 { '-' } else { '+' };
    match (m / 60, m % 60) {
        (0, 0) => "UTC".into(),
        (h, 0) => format!("UTC{sign}{h}"),
        (h, mm) => format!("UTC{sign}{h}:{mm:02}"),
    }
}

#[cfg(test)]
mod tests {
    use super::when_in_zone;

    #[test]
    fn a_deadline_reads_in_the_readers_zone() {
        let at = "2026-11-26T18:31:07.313078766+00:00";
        let now = Some("2026-11-24T15:00:00Z");
        assert_eq!(
            when_in_zone(at, now, Some("Europe/Rome")),
            "Thu 26 Nov 19:31 CET (UTC+1), in 2 days 3 hours"
        );
        assert_eq!(
            when_in_zone(at, None, Some("America/New_York")),
            "Thu 26 Nov 13:31 EST (UTC-5)"
        );
        assert_eq!(
            when_in_zone(at, None, Some("Asia/Kolkata")),
            "Fri 27 Nov 00:01 IST (UTC+5:30)"
        );
        assert_eq!(
            when_in_zone(at, None, Some("Europe/Istanbul")),
            "Thu 26 Nov 21:31 UTC+3"
        );
        // Summer time: the abbreviation and offset of that date, not of today.
        assert_eq!(
            when_in_zone("2026-07-01T12:00:00Z", None, Some("Europe/Rome")),
            "Wed 1 Jul 14:00 CEST (UTC+2)"
        );
        // No zone: the UTC form as before.
        assert_eq!(
            when_in_zone(at, now, None),
            "2026-11-26 18:31 UTC (in 2 days 3 hours)"
        );
    }
}
