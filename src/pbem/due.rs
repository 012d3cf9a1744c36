//! The due-time index (`<home>/due.json`): per game, the first instant at which `run` has
//! something to do for it without any mail (a reminder, then the deadline default after the
//! grace), or `null` (never: finished, paused, no deadlines, nothing awaited). An idle `run`
//! reads this one file and loads only the games due at its clock, instead of every game.
//!
//! It is a cache derived from the ledgers, never authoritative: a missing or unreadable file is
//! rebuilt (every game loaded once), a game without an entry is treated as due, `replay GAME`
//! checks the entry against the ledger, and `run` loads every game again at least every
//! [`RESCAN_HOURS`] of its clock (or when the clock went back), correcting any wrong entry: a
//! hand-edited entry can delay a deadline by at most that long, never skip it. The entry is a
//! function of the ledger alone (never of the clock), so it is the same whoever computes it.

use crate::ledger::Created;
use crate::pbem::control::{deadline_of, side_deadline};
use crate::pbem::replay::Derived;
use crate::registry::{AnyGame, AnyState};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::path::Path;

pub const DUE_FILE: &str = "due.json";
const VERSION: u32 = 1;
/// A run loads every game again when the last full scan is this old (on the run's clock).
pub const RESCAN_HOURS: i64 = 6;

/// The index file. Sorted maps: the same games give the same bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DueIndex {
    pub version: u32,
    /// The run clock of the last full scan; `None`: none yet (the next run does one).
    pub rescanned: Option<String>,
    /// Game id → RFC 3339 instant, or `None` for never.
    pub due: Entries,
}

/// The entries, sorted by game id: a JSON object on disk, a sorted list in memory (reading
/// 10,000 of them into a tree cost an idle run more than everything else it does).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entries(Vec<(String, Option<String>)>);

impl Entries {
    pub fn get(&self, id: &str) -> Option<&Option<String>> {
        let i = self.0.binary_search_by(|(k, _)| k.as_str().cmp(id)).ok()?;
        Some(&self.0[i].1)
    }
    pub fn insert(&mut self, id: String, t: Option<String>) {
        match self.0.binary_search_by(|(k, _)| k.cmp(&id)) {
            Ok(i) => self.0[i].1 = t,
            Err(i) => self.0.insert(i, (id, t)),
        }
    }
    pub fn remove(&mut self, id: &str) -> Option<Option<String>> {
        let i = self.0.binary_search_by(|(k, _)| k.as_str().cmp(id)).ok()?;
        Some(self.0.remove(i).1)
    }
    pub fn retain(&mut self, mut keep: impl FnMut(&str) -> bool) {
        self.0.retain(|(k, _)| keep(k));
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Option<String>)> {
        self.0.iter().map(|(k, t)| (k, t))
    }
}

impl Serialize for Entries {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Entries;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of game id to time or null")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Entries, A::Error> {
                let mut v: Vec<(String, Option<String>)> = Vec::new();
                while let Some(e) = m.next_entry()? {
                    v.push(e);
                }
                // Written sorted; a file edited by hand may not be (a repeated id: the last).
                if !v.windows(2).all(|w| w[0].0 < w[1].0) {
                    v.reverse();
                    v.sort_by(|a, b| a.0.cmp(&b.0));
                    v.dedup_by(|a, b| a.0 == b.0);
                }
                Ok(Entries(v))
            }
        }
        d.deserialize_map(V)
    }
}

impl Default for DueIndex {
    fn default() -> Self {
        DueIndex {
            version: VERSION,
            rescanned: None,
            due: Entries::default(),
        }
    }
}

/// The entry the ledger gives a game: the earliest reminder time of its awaited sides (the
/// default comes later, after deadline and grace; a game stays due until a step moves it).
pub fn next_due(
    game: &dyn AnyGame,
    created: &Created,
    d: &Derived<AnyState>,
) -> Option<DateTime<Utc>> {
    deadline_of(created, d)?;
    let remind = chrono::Duration::hours(created.reminder_hours.into());
    game.awaiting(&d.state)
        .iter()
        .filter_map(|a| side_deadline(created, d, &a.side))
        .map(|due| due.checked_sub_signed(remind).unwrap_or(due))
        .min()
}

/// The entry as stored: whole seconds (rounded down: a game is at worst loaded a second early),
/// UTC, so entries compare as strings.
pub fn entry(t: Option<DateTime<Utc>>) -> Option<String> {
    t.map(stamp)
}

fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Is the stored time `t` at or before `now` (`now_s`: its [`stamp`])? Entries as written
/// compare as strings (no parse for each of thousands of games); anything else is parsed, and
/// what cannot be parsed is due.
fn at_or_before(t: &str, now_s: &str, now: DateTime<Utc>) -> bool {
    let b = t.as_bytes();
    if b.len() == 20 && b[10] == b'T' && b[19] == b'Z' && t.is_ascii() {
        return t <= now_s;
    }
    DateTime::parse_from_rfc3339(t).map_or(true, |t| t <= now)
}

/// Reads the index: `Ok(None)` when there is none, `Err` (why) when it cannot be used.
pub fn load(home: &Path) -> Result<Option<DueIndex>, String> {
    let bytes = match std::fs::read(home.join(DUE_FILE)) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    parse(&bytes).map(Some)
}

/// Writes the index atomically (temp file + rename); made durable by the run's commit sync.
pub fn save(home: &Path, ix: &DueIndex) -> std::io::Result<()> {
    let tmp = home.join(format!("{DUE_FILE}.tmp.{}", std::process::id()));
    let mut bytes = serde_json::to_vec(ix).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, home.join(DUE_FILE))
}

/// Sets (or with `None` removes: "treat as due") one game's entry, outside a run (`new`,
/// `control`, under the home lock). An unreadable index is replaced by one that the next run
/// completes with a full scan.
pub fn set_entry(home: &Path, id: &str, value: Option<Option<String>>) -> std::io::Result<()> {
    let mut ix = load(home).ok().flatten().unwrap_or_default();
    let before = ix.due.get(id).cloned();
    if before == value && home.join(DUE_FILE).exists() {
        return Ok(());
    }
    match value {
        Some(v) => ix.due.insert(id.to_string(), v),
        None => {
            ix.due.remove(id);
        }
    }
    save(home, &ix)
}

/// What a run's deadline pass loads.
pub struct Plan {
    /// The file as read; parsed in full only when an entry is looked up or updated (an idle run
    /// needs only the count and the due games, read without copying any entry).
    bytes: Vec<u8>,
    parsed: std::cell::OnceCell<DueIndex>,
    /// Every game is loaded (no usable index, none yet, or the last full scan too old).
    pub full: bool,
    /// The index must be written even if no entry changes (it was missing or unreadable).
    pub rewrite: bool,
    /// How many entries the index has.
    pub count: usize,
    /// The indexed games due at the run's clock, sorted.
    pub due_now: Vec<String>,
}

/// The index read without copying its entries.
#[derive(Deserialize)]
struct Light<'a> {
    version: u32,
    #[serde(borrow)]
    rescanned: Option<&'a str>,
    #[serde(borrow)]
    due: LightEntries<'a>,
}

struct LightEntries<'a>(Vec<(&'a str, Option<&'a str>)>);

impl<'de: 'a, 'a> Deserialize<'de> for LightEntries<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for V<'a> {
            type Value = LightEntries<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of game id to time or null")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<LightEntries<'a>, A::Error> {
                let mut v = Vec::new();
                while let Some(e) = m.next_entry::<&'de str, Option<&'de str>>()? {
                    v.push(e);
                }
                Ok(LightEntries(v))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// Decides whether this run must load every game, warning when the index cannot be used.
pub fn plan(home: &Path, now: DateTime<Utc>, warnings: &mut Vec<String>, any_game: bool) -> Plan {
    let unusable = |warnings: &mut Vec<String>, e: String| {
        warnings.push(format!(
            "{DUE_FILE} cannot be used ({e}): rebuilt from the ledgers (every game is loaded once)"
        ));
    };
    let bytes = match std::fs::read(home.join(DUE_FILE)) {
        Ok(b) => b,
        Err(e) => {
            if e.kind() != std::io::ErrorKind::NotFound {
                unusable(warnings, e.to_string());
            } else if any_game {
                warnings.push(format!(
                    "{DUE_FILE} is missing: rebuilt from the ledgers (every game is loaded once)"
                ));
            }
            return Plan::rebuild();
        }
    };
    let now_s = stamp(now);
    // A file with escapes in its strings cannot be read without copies: it is read in full.
    let (rescanned, count, mut due_now) = match serde_json::from_slice::<Light>(&bytes) {
        Ok(l) if l.version == VERSION => {
            let due: Vec<String> = l
                .due
                .0
                .iter()
                .filter(|(_, t)| t.is_some_and(|t| at_or_before(t, &now_s, now)))
                .map(|(id, _)| id.to_string())
                .collect();
            (l.rescanned.map(str::to_string), l.due.0.len(), due)
        }
        _ => match parse(&bytes) {
            Ok(ix) => {
                let due = ix
                    .due
                    .iter()
                    .filter(|(_, t)| t.as_deref().is_some_and(|t| at_or_before(t, &now_s, now)))
                    .map(|(id, _)| id.clone())
                    .collect();
                (ix.rescanned.clone(), ix.due.len(), due)
            }
            Err(e) => {
                unusable(warnings, e);
                return Plan::rebuild();
            }
        },
    };
    due_now.sort();
    due_now.dedup();
    let last = rescanned
        .as_deref()
        .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.with_timezone(&Utc));
    // A clock that went back also rescans: entries never depend on it, but a rescan is cheap
    // insurance against a scan time from the future that would postpone the next one.
    let full = last.is_none_or(|t| now < t || now - t >= chrono::Duration::hours(RESCAN_HOURS));
    Plan {
        bytes,
        parsed: std::cell::OnceCell::new(),
        full,
        rewrite: false,
        count,
        due_now,
    }
}

fn parse(bytes: &[u8]) -> Result<DueIndex, String> {
    let ix: DueIndex = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    if ix.version != VERSION {
        return Err(format!(
            "version {} (this dustmail writes {VERSION})",
            ix.version
        ));
    }
    Ok(ix)
}

impl Plan {
    fn rebuild() -> Plan {
        Plan {
            bytes: Vec::new(),
            parsed: std::cell::OnceCell::from(DueIndex::default()),
            full: true,
            rewrite: true,
            count: 0,
            due_now: Vec::new(),
        }
    }

    /// The index in full (read once, on first use).
    pub fn index(&self) -> &DueIndex {
        self.parsed
            .get_or_init(|| parse(&self.bytes).unwrap_or_default())
    }

    pub fn into_index(self) -> DueIndex {
        self.index();
        self.parsed.into_inner().unwrap_or_default()
    }

    /// Must `id` be loaded by a run at `now`? A missing or unreadable entry means yes.
    pub fn is_due(&self, id: &str, now: DateTime<Utc>) -> bool {
        if self.full {
            return true;
        }
        match self.index().due.get(id) {
            None => true,
            Some(None) => false,
            Some(Some(t)) => at_or_before(t, &stamp(now), now),
        }
    }
}

/// `replay GAME`: the game's entry, if the index has one, must be what its ledger gives.
pub fn check(home: &Path, id: &str, want: &Option<String>) -> Result<(), String> {
    let Ok(Some(ix)) = load(home) else {
        return Ok(());
    };
    match ix.due.get(id) {
        Some(have) if have != want => Err(format!(
            "{}: the entry of game {id} is {}, but its ledger gives {}: a wrong entry can delay its reminders and defaults; delete {DUE_FILE} (the next run rebuilds it from the ledgers)",
            home.join(DUE_FILE).display(),
            have.as_deref().unwrap_or("null (never)"),
            want.as_deref().unwrap_or("null (never)"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_unsorted_keep_the_last_of_a_repeated_id_and_write_sorted() {
        let ix: DueIndex = serde_json::from_str(
            r#"{"version":1,"rescanned":null,"due":{"g-b":null,"g-a":"2026-03-03T09:00:00Z","g-b":"2026-03-04T09:00:00Z"}}"#,
        )
        .unwrap();
        assert_eq!(
            ix.due.get("g-b"),
            Some(&Some("2026-03-04T09:00:00Z".into()))
        );
        assert_eq!(ix.due.len(), 2);
        assert_eq!(
            serde_json::to_string(&ix.due).unwrap(),
            r#"{"g-a":"2026-03-03T09:00:00Z","g-b":"2026-03-04T09:00:00Z"}"#
        );
    }
}
