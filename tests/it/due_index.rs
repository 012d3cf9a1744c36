//! Issue 11 item 6: the due-time index (`<home>/due.json`, docs/ledger.md "The due-time
//! index"). An idle run loads no game; a due game gets its reminder and default as before; a
//! missing, corrupt or hand-edited index never makes a deadline be skipped for good; `replay`
//! reports a wrong entry. Real Dust Tactics games made by `dustmail new`, runs with a fixed clock
//! (`run --now`), outcomes read from the summary, the ledger, the index and the exit codes.
//!
//! A game created at T made with the default settings (deadline 72 h, reminder 24 h, grace
//! 12 h) is due (its reminder) at T + 48 h and gets its default from T + 84 h. A run loads every
//! game when its last full scan is 6 h old or more, so the runs below come closer than that
//! whenever they show that a game is *not* loaded.

use crate::support::dt;

use dt::InProc;
use dustmail::config::Home;
use dustmail::ledger::Event;
use std::path::PathBuf;

/// `dustmail new` of a skirmish game created at `now`.
fn new_at(home: &Home, id: &str, seed_byte: u8, now: &str) {
    let seed = hex::encode([seed_byte; 32]);
    let args = [
        "--scenario",
        "skirmish",
        "--seed",
        &seed,
        "--id",
        id,
        "--now",
        now,
    ];
    let o = dt::new_with_players(&home.root, &args, &dt::players(0));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

fn index_path(home: &Home) -> PathBuf {
    home.root.join("due.json")
}

/// The index's entry for `id` (`None`: no entry; `Some(None)`: never).
fn entry(home: &Home, id: &str) -> Option<Option<String>> {
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(index_path(home)).unwrap()).unwrap();
    v["due"].get(id).map(|e| e.as_str().map(str::to_string))
}

fn set_entry(home: &Home, id: &str, value: serde_json::Value) {
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(index_path(home)).unwrap()).unwrap();
    v["due"][id] = value;
    std::fs::write(index_path(home), serde_json::to_vec(&v).unwrap()).unwrap();
}

/// The sides defaulted in the game's ledger.
fn defaults(home: &Home, id: &str) -> usize {
    dustmail::ledger::read_all(&dt::log_path(home, id))
        .unwrap()
        .iter()
        .filter(|e| matches!(e.event, Event::Deadline(_)))
        .count()
}

fn setup() -> (tempfile::TempDir, Home, InProc) {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(d.path(), "file");
    let env = InProc::open(&home);
    (d, home, env)
}

// issue 11 finding 6: `new` adds an entry; an idle run (index up to date, nothing due) loads no
// game; a due game, and only it, is loaded and gets its reminder, then its default.
#[test]
fn an_idle_run_loads_no_game_and_a_due_game_still_gets_its_reminder_and_default() {
    let (_d, home, env) = setup();
    new_at(&home, "g-early", 1, "2026-03-01T09:00:00Z");
    new_at(&home, "g-late", 2, "2026-03-03T09:00:00Z");
    assert_eq!(
        entry(&home, "g-early"),
        Some(Some("2026-03-03T09:00:00Z".into()))
    );
    assert_eq!(
        entry(&home, "g-late"),
        Some(Some("2026-03-05T09:00:00Z".into()))
    );
    // `new` leaves no full scan recorded: the first run loads every game once.
    let s = env.run("2026-03-03T04:00:00Z");
    assert_eq!(s.loaded, 2, "{s:?}");
    // Idle: nothing due, nothing loaded.
    let s = env.run("2026-03-03T05:00:00Z");
    assert_eq!((s.loaded, s.reminders, s.defaults), (0, 0, 0), "{s:?}");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    // g-early's reminder window opens: only it is loaded, both its players are reminded.
    let s = env.run("2026-03-03T09:00:00Z");
    assert_eq!((s.loaded, s.reminders, s.defaults), (1, 2, 0), "{s:?}");
    // Its default comes after deadline + grace, as before the index (a run on the way keeps
    // the full scan recent; g-early, due, is loaded by every run).
    env.run("2026-03-04T16:00:00Z");
    let s = env.run("2026-03-04T21:00:00Z");
    assert_eq!(s.loaded, 1, "{s:?}");
    assert!(s.defaults >= 1, "{s:?}");
    assert!(defaults(&home, "g-early") >= 1);
    assert_eq!(defaults(&home, "g-late"), 0);
    // The default moved g-early's clock: its entry moved with it.
    let e = entry(&home, "g-early").unwrap().unwrap();
    assert!(e.as_str() > "2026-03-04T21:00:00", "{e}");
    // A clock that goes back loads every game again (and applies nothing twice).
    let s = env.run("2026-03-02T00:00:00Z");
    assert_eq!((s.loaded, s.reminders, s.defaults), (2, 0, 0), "{s:?}");
    for id in ["g-early", "g-late"] {
        let o = dt::dustmail(&home.root, &["replay", id]);
        assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    }
}

// issue 11 finding 6: a deleted or corrupt index, or a missing entry, is rebuilt from the
// ledgers with a warning, and a due default is not missed.
#[test]
fn a_deleted_or_corrupt_index_is_rebuilt_and_nothing_is_missed() {
    let (_d, home, env) = setup();
    new_at(&home, "g-a", 1, "2026-03-01T09:00:00Z");
    new_at(&home, "g-b", 2, "2026-03-01T09:00:00Z");
    env.run("2026-03-01T10:00:00Z");
    let good = std::fs::read(index_path(&home)).unwrap();

    // Deleted (as in a home made by an older dustmail): rebuilt, with a warning.
    std::fs::remove_file(index_path(&home)).unwrap();
    let s = env.run("2026-03-01T11:00:00Z");
    assert_eq!(s.loaded, 2, "{s:?}");
    assert!(
        s.warnings.iter().any(|w| w.contains("due.json is missing")),
        "{:?}",
        s.warnings
    );
    let rebuilt: serde_json::Value =
        serde_json::from_slice(&std::fs::read(index_path(&home)).unwrap()).unwrap();
    let before: serde_json::Value = serde_json::from_slice(&good).unwrap();
    assert_eq!(rebuilt["due"], before["due"]);

    // Corrupt: the same.
    std::fs::write(index_path(&home), b"{\"due\": [").unwrap();
    let s = env.run("2026-03-01T12:00:00Z");
    assert_eq!(s.loaded, 2, "{s:?}");
    assert!(
        s.warnings
            .iter()
            .any(|w| w.contains("due.json cannot be used")),
        "{:?}",
        s.warnings
    );
    let rebuilt: serde_json::Value =
        serde_json::from_slice(&std::fs::read(index_path(&home)).unwrap()).unwrap();
    assert_eq!(rebuilt["due"], before["due"]);

    // One entry gone from a good index: that game is treated as due and indexed again.
    let mut v = rebuilt.clone();
    v["due"].as_object_mut().unwrap().remove("g-b");
    std::fs::write(index_path(&home), serde_json::to_vec(&v).unwrap()).unwrap();
    let s = env.run("2026-03-01T13:00:00Z");
    assert_eq!(s.loaded, 1, "{s:?}");
    assert_eq!(
        entry(&home, "g-b"),
        Some(Some("2026-03-03T09:00:00Z".into()))
    );

    // Deleted just before the defaults fall due: both games still get theirs.
    env.run("2026-03-04T20:00:00Z");
    std::fs::remove_file(index_path(&home)).unwrap();
    let s = env.run("2026-03-04T21:00:00Z");
    assert!(s.defaults >= 2, "{s:?}");
    assert!(defaults(&home, "g-a") >= 1 && defaults(&home, "g-b") >= 1);
}

// issue 11 finding 6: an entry pushed into the future by hand: `replay` reports it (exit 1,
// naming the game and both times); `run` corrects it at its next full scan, at most 6 hours of
// its clock later, so the default is delayed by that much at most, never skipped.
#[test]
fn a_hand_edited_entry_is_reported_by_replay_and_corrected_by_the_next_full_scan() {
    let (_d, home, env) = setup();
    new_at(&home, "g-edit", 1, "2026-03-01T09:00:00Z");
    env.run("2026-03-04T20:00:00Z");
    set_entry(
        &home,
        "g-edit",
        serde_json::json!("2030-01-01T00:00:00+00:00"),
    );

    let o = dt::dustmail(&home.root, &["replay", "g-edit"]);
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("due.json")
            && out.contains("g-edit")
            && out.contains("2030-01-01T00:00:00+00:00")
            && out.contains("2026-03-03T09:00:00Z"),
        "{out}"
    );

    // Within the rescan interval the hint is believed: the default waits...
    let s = env.run("2026-03-04T21:00:00Z");
    assert_eq!((s.loaded, s.defaults), (0, 0), "{s:?}");
    // ...until the next full scan, which applies it and says what it corrected.
    let s = env.run("2026-03-05T02:00:00Z");
    assert!(s.defaults >= 1, "{s:?}");
    assert!(
        s.warnings
            .iter()
            .any(|w| w.contains("g-edit") && w.contains("2030-01-01") && w.contains("corrected")),
        "{:?}",
        s.warnings
    );
    let o = dt::dustmail(&home.root, &["replay", "g-edit"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}

// issue 11 finding 6: `control pause` makes the game never due (idle runs skip it), `resume`
// and `extend` give it the new due time; `replay` agrees with every entry.
#[test]
fn control_pause_resume_and_extend_update_the_entry() {
    let (_d, home, env) = setup();
    new_at(&home, "g-ctl", 1, "2026-03-01T09:00:00Z");
    env.run("2026-03-01T10:00:00Z");
    let control = |now: &str, cmd: &[&str]| {
        let mut a = vec!["control", "g-ctl"];
        a.extend_from_slice(cmd);
        a.extend_from_slice(&["--now", now]);
        let o = dt::dustmail(&home.root, &a);
        assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
        let o = dt::dustmail(&home.root, &["replay", "g-ctl"]);
        assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    };
    control("2026-03-01T11:00:00Z", &["extend", "10"]);
    assert_eq!(
        entry(&home, "g-ctl"),
        Some(Some("2026-03-03T19:00:00Z".into()))
    );
    control("2026-03-01T12:00:00Z", &["pause"]);
    assert_eq!(entry(&home, "g-ctl"), Some(None));
    let s = env.run("2026-03-01T13:00:00Z");
    assert_eq!(s.loaded, 0, "{s:?}");
    control("2026-03-01T14:00:00Z", &["resume"]);
    // A fresh 72 h from the resume, reminded 24 h before.
    assert_eq!(
        entry(&home, "g-ctl"),
        Some(Some("2026-03-03T14:00:00Z".into()))
    );
}
