//! Game control by signed mail and on the server, deadlines, absence and several commands in one
//! mail (issue 4, points 3, 5 and 6; docs/orders.md and docs/deadlines.md). A real Dust Tactics
//! game (skirmish), real keys, real mails, `referee::run` with a fixed clock (`run --now`).
//!
//! The game is created at 2026-03-01T09:00Z with the default settings: deadline 72 h (due
//! 2026-03-04T09:00Z), reminder 24 h before (from 2026-03-03T09:00Z), grace 12 h (defaults from
//! 2026-03-04T21:00Z), absences of at most 14 days.

use crate::dust_home;
use crate::support;

use dust_home::*;
use dustmail::game::CommandOutcome;
use dustmail::ledger::{ControlAction, Entry, Event};
use dustmail::referee::{self, RefereeError};
use support::t;

const SKIRMISH: &str = "games/dust-tactics/scenarios/skirmish.toml";
const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";

fn skirmish() -> Table {
    Table::new(SKIRMISH, &[("allies", ANN), ("axis", BOB)])
}

/// The per-line outcomes of the ledger line `e` (a submission or a control).
fn outcomes(e: &Entry) -> Vec<(usize, CommandOutcome)> {
    let results = match &e.event {
        Event::Submission(s) => &s.step.results,
        Event::Control(c) => &c.results,
        other => panic!("not a submission or control: {other:?}"),
    };
    results
        .iter()
        .map(|r| (r.line, r.outcome.clone()))
        .collect()
}

fn understood(o: &CommandOutcome) -> &str {
    match o {
        CommandOutcome::Accepted { understood } => understood,
        CommandOutcome::Refused { reason, .. } => panic!("refused: {reason}"),
    }
}

fn refused(o: &CommandOutcome) -> (&str, &str) {
    match o {
        CommandOutcome::Refused {
            reason, instead, ..
        } => (reason, instead),
        CommandOutcome::Accepted { understood } => panic!("accepted: {understood}"),
    }
}

/// The sides given deadline defaults, in ledger order.
fn defaulted(table: &Table) -> Vec<String> {
    table
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::Deadline(d) => Some(d.side.clone()),
            _ => None,
        })
        .collect()
}

fn control(table: &Table, now: &str, command: &str) -> Result<String, RefereeError> {
    referee::control_game(&table.ctx(t(now)), &table.id, command)
}

#[test]
fn report_template_and_absent_are_answered_by_the_referee_each_line_on_its_own() {
    let mut table = skirmish();
    table.mail(
        ANN,
        "report\ntemplate\nabsent until 2026-04-30\nabsent until 2026-03-06",
        None,
    );
    let sum = table.run("2026-03-01T10:00:00Z");
    assert_eq!((sum.accepted, sum.refused), (1, 0));
    let entries = table.entries();
    let got = outcomes(entries.last().unwrap());
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(understood(&got[0].1).starts_with("report:"));
    assert!(understood(&got[1].1).starts_with("template:"));
    // docs/deadlines.md "Absence": at most max_absence_days (14) ahead; the answer names the
    // latest date allowed.
    let (reason, instead) = refused(&got[2].1);
    assert!(reason.contains("more than 14 days"), "{reason}");
    assert_eq!(
        instead,
        "absent until 2026-03-15T10:00:00Z (or ask the referee to pause the game)"
    );
    assert!(
        understood(&got[3].1).contains("deadlines wait for you until then"),
        "the line after a refused one still counts"
    );
    // The receipt (heading ann's report since issue 17 item 3) restates what the referee
    // understood; the report carries the template.
    let receipt = table.texts("-report-allies", ANN).join("\n");
    assert!(
        receipt.contains("absent until 2026-03-06T00:00:00+00:00"),
        "{receipt}"
    );
    let report = table.texts("-report-allies", ANN).join("\n");
    assert!(
        report.contains("seq: 2"),
        "the report's template carries the next seq: {report}"
    );
    let v = referee::show_json(&dustmail::dust_tactics::DustTactics, &table.loaded(), None);
    assert_eq!(v["absent"]["allies"], "2026-03-06T00:00:00+00:00");
    // The absence pushes allies' deadline, shown with who decides.
    let allies = v["awaiting_players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["side"] == "allies")
        .unwrap();
    assert_eq!(allies["deadline"], "2026-03-06T00:00:00+00:00");
    assert_eq!(allies["players"][0], ANN);
    table.verify();
}

#[test]
fn deadline_paths_reminder_then_grace_then_the_default_the_same_for_both_sides() {
    let table = skirmish();
    // Before the reminder window: nothing.
    let s = table.run("2026-03-03T08:59:00Z");
    assert_eq!((s.reminders, s.defaults), (0, 0));
    // Reminder window: each awaited side's player is reminded once (both sides state `first`).
    let s = table.run("2026-03-03T09:00:00Z");
    assert_eq!((s.reminders, s.defaults), (2, 0));
    assert_eq!(table.texts("-reminder-allies", ANN).len(), 1);
    assert_eq!(table.texts("-reminder-axis", BOB).len(), 1);
    // Past the deadline but inside the grace: still nothing applied.
    let s = table.run("2026-03-04T20:59:00Z");
    assert_eq!((s.reminders, s.defaults), (0, 0));
    assert!(defaulted(&table).is_empty());
    // Deadline + grace: the documented default, for every side awaited at that moment.
    let s = table.run("2026-03-04T21:00:00Z");
    assert!(s.defaults >= 1);
    let sides = defaulted(&table);
    assert_eq!(sides[0], "allies", "{sides:?}");
    assert!(
        sides.contains(&"axis".to_string()),
        "both sides awaited together get the default in the same run: {sides:?}"
    );
    // Everyone hears of it: the default's report goes to both players.
    assert!(!table.texts("-report-", ANN).is_empty());
    assert!(!table.texts("-report-", BOB).is_empty());
    table.verify();
}

#[test]
fn a_mail_that_changes_nothing_does_not_move_the_deadline() {
    let mut table = skirmish();
    table.mail(ANN, "report", None);
    table.run("2026-03-02T09:00:00Z");
    // Still due at 2026-03-04T09:00Z: `report` cannot be used to stall the game.
    let s = table.run("2026-03-04T21:00:00Z");
    assert!(s.defaults >= 1, "{s:?}");
    table.verify();
}

#[test]
fn an_absence_keeps_that_sides_default_back_until_it_ends_but_not_the_others() {
    let mut table = skirmish();
    table.mail(ANN, "absent until 2026-03-06T00:00:00Z", None);
    table.run("2026-03-01T10:00:00Z");
    // The deadline of allies is now no earlier than the end of the absence.
    let r = table.run("2026-03-04T21:00:00Z");
    assert!(r.defaults >= 1);
    assert_eq!(defaulted(&table), vec!["axis".to_string()]);
    table.verify();
}

#[test]
fn pause_stops_every_deadline_and_resume_counts_a_fresh_one() {
    let table = skirmish();
    let said = control(&table, "2026-03-02T09:00:00Z", "pause").unwrap();
    assert!(said.starts_with("pause:"), "{said}");
    // Both players are told.
    assert_eq!(table.texts("-control-", ANN).len(), 1);
    assert_eq!(table.texts("-control-", BOB).len(), 1);
    let s = table.run("2026-03-10T00:00:00Z");
    assert_eq!(
        (s.reminders, s.defaults),
        (0, 0),
        "paused: no reminder, no default"
    );
    // A second pause is refused and changes nothing.
    let lines = table.entries().len();
    let e = control(&table, "2026-03-10T00:00:00Z", "pause").unwrap_err();
    assert_eq!(e.exit_code(), 1);
    assert!(e.to_string().contains("already paused"), "{e}");
    let e = control(&table, "2026-03-10T00:00:00Z", "extend 5").unwrap_err();
    assert!(e.to_string().contains("the game is paused"), "{e}");
    assert_eq!(table.entries().len(), lines);
    let said = control(&table, "2026-03-10T00:00:00Z", "resume").unwrap();
    assert!(said.contains("2026-03-13T00:00:00+00:00"), "{said}");
    assert_eq!(table.run("2026-03-13T11:59:00Z").defaults, 0);
    assert!(table.run("2026-03-13T12:00:00Z").defaults >= 1);
    let kinds: Vec<ControlAction> = table
        .entries()
        .iter()
        .filter_map(|e| match &e.event {
            Event::Control(c) => Some(c.actions.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(kinds, vec![ControlAction::Pause, ControlAction::Resume]);
    table.verify();
}

#[test]
fn extend_moves_the_deadline_later_by_the_hours_given() {
    let table = skirmish();
    let said = control(&table, "2026-03-02T09:00:00Z", "extend 24").unwrap();
    assert!(said.contains("2026-03-05T09:00:00+00:00"), "{said}");
    assert_eq!(table.run("2026-03-04T21:00:00Z").defaults, 0);
    assert!(table.run("2026-03-05T21:00:00Z").defaults >= 1);
    let e = control(&table, "2026-03-06T00:00:00Z", "extend 0").unwrap_err();
    assert!(e.to_string().contains("from 1 to 8760"), "{e}");
    let e = control(&table, "2026-03-06T00:00:00Z", "extend a lot").unwrap_err();
    assert!(e.to_string().contains("not a referee command"), "{e}");
    table.verify();
}

#[test]
fn replace_key_retires_the_old_key_and_the_new_one_signs_on_with_the_next_seq() {
    let mut table = skirmish();
    table.mail(ANN, "report", None);
    table.run("2026-03-01T10:00:00Z");
    let new_key = ed25519_dalek::SigningKey::from_bytes(&[99u8; 32]);
    let pk = dustmail::crypto::public_key_text(&new_key.verifying_key());
    control(
        &table,
        "2026-03-01T11:00:00Z",
        &format!("replace-key allies=ann.new@example.org:{pk}"),
    )
    .unwrap();
    // The old key no longer signs for allies.
    table.mail(ANN, "report", None);
    let s = table.run("2026-03-01T12:00:00Z");
    assert_eq!((s.accepted, s.refused), (0, 1));
    // The new key does, continuing the side's seq (2 was refused, so 2 is still free).
    table.mail_as("ann.new@example.org", &new_key, "allies", 2, "report");
    let s = table.run("2026-03-01T13:00:00Z");
    assert_eq!((s.accepted, s.refused), (1, 0));
    assert!(
        !table
            .texts("-report-allies", "ann.new@example.org")
            .is_empty(),
        "reports now go to the new address"
    );
    // A side that does not play, and a key that does not parse, are refused.
    assert!(control(
        &table,
        "2026-03-01T14:00:00Z",
        &format!("replace-key aliens=x@example.org:{pk}")
    )
    .is_err());
    assert!(control(
        &table,
        "2026-03-01T14:00:00Z",
        "replace-key allies=x@example.org:ed25519:nope"
    )
    .is_err());
    table.verify();
}

#[test]
fn observers_get_every_report_without_a_template_and_cannot_send_orders() {
    let mut table = skirmish();
    control(&table, "2026-03-01T09:30:00Z", "observe olga@example.org").unwrap();
    assert_eq!(table.texts("-control-", "olga@example.org").len(), 1);
    table.mail(ANN, "first allies", None);
    table.run("2026-03-01T10:00:00Z");
    let seen = table.texts("-report-observer-olga", "olga@example.org");
    assert_eq!(seen.len(), 1);
    assert!(!seen[0].contains("Your next orders"), "{}", seen[0]);
    // An observer has no key: an unsigned mail is answered with the usual explanation.
    table.drop(
        "olga.eml",
        "From: olga@example.org\r\nTo: referee@example.org\r\nSubject: hi\r\nMessage-ID: <o1@x>\r\n\r\nactivate rangers\r\n",
    );
    let s = table.run("2026-03-01T10:30:00Z");
    assert_eq!(s.rejected, 1);
    // Signing for a side with her own key is refused (the signature does not match the side's).
    let olga = ed25519_dalek::SigningKey::from_bytes(&[77u8; 32]);
    table.mail_as("olga@example.org", &olga, "allies", 5, "report");
    let s = table.run("2026-03-01T11:00:00Z");
    assert_eq!((s.accepted, s.refused), (0, 1));
    control(&table, "2026-03-01T12:00:00Z", "unobserve olga@example.org").unwrap();
    table.mail(BOB, "first axis", None);
    table.run("2026-03-01T13:00:00Z");
    assert_eq!(
        table
            .texts("-report-observer-olga", "olga@example.org")
            .len(),
        1,
        "no report after unobserve"
    );
    table.verify();
}

#[test]
fn the_referee_controls_by_mail_signed_with_its_key_each_line_on_its_own() {
    let table = skirmish();
    let key = table.key.clone();
    table.mail_as(
        "boss@example.org",
        &key,
        "referee",
        1,
        "pause\nfly away\nobserve olga@example.org",
    );
    let s = table.run("2026-03-01T10:00:00Z");
    assert_eq!((s.accepted, s.refused), (1, 0));
    let entries = table.entries();
    let last = entries.last().unwrap();
    let got = outcomes(last);
    assert!(understood(&got[0].1).starts_with("pause"));
    assert!(refused(&got[1].1)
        .0
        .contains("`fly away` is not a referee command"));
    assert!(understood(&got[2].1).starts_with("observe olga@example.org"));
    let Event::Control(c) = &last.event else {
        panic!("a control line")
    };
    assert_eq!(c.by, "mail");
    assert!(
        c.signed.is_some(),
        "the signed block is recorded for auditors"
    );
    // The sender, both players and the new observer are told.
    for who in ["boss@example.org", ANN, BOB, "olga@example.org"] {
        assert_eq!(table.texts("-control-", who).len(), 1, "{who}");
    }
    // After a crash between the ledger line and the outbox, the same mail run again re-queues
    // the notices and appends nothing.
    let lines = table.entries().len();
    table.sink.clear();
    let cur = table.home.maildir().join("cur");
    let name = "boss@example.org-referee-1.eml";
    std::fs::rename(
        cur.join(format!("{name}:2,S")),
        table.home.maildir().join("new").join(name),
    )
    .unwrap();
    let s = table.run("2026-03-01T10:30:00Z");
    assert_eq!(s.deduplicated, 1);
    assert_eq!(table.entries().len(), lines);
    assert_eq!(table.texts("-control-", ANN).len(), 1);
    // The same mail again (a replay) and a player's key signing for the referee: refused.
    table.mail_as("boss@example.org", &key, "referee", 1, "resume\n");
    let ann_key = table.seats[table.seat(ANN)].key.clone();
    table.mail_as(ANN, &ann_key, "referee", 2, "resume");
    let s = table.run("2026-03-01T11:00:00Z");
    assert_eq!((s.accepted, s.refused), (0, 2));
    assert!(table.loaded().derived.paused);
    table.verify();
}

#[test]
fn an_answer_and_the_activation_after_it_go_in_one_mail_and_what_cannot_apply_is_refused_alone() {
    let mut table = skirmish();
    // Both sides ask to be asked who goes first (R100: by default the winner simply goes
    // first), then the first mail rolls the initiative (004 "Initiative").
    table.mail(ANN, "standing first ask", None);
    table.mail(BOB, "standing first ask", None);
    table.run("2026-03-01T09:00:00Z");
    table.mail(BOB, "activate ludwig\n  nothing\n  nothing", None);
    table.run("2026-03-01T10:00:00Z");
    let awaited = dustmail::game::Game::awaiting(
        &dustmail::dust_tactics::DustTactics,
        table.loaded().derived.state.typed(),
    );
    assert_eq!(awaited[0].decision, "first", "{awaited:?}");
    let winner = awaited[0].side.clone();
    let (who, first_unit, other_unit) = if winner == "axis" {
        (BOB, "grenadiers", "ludwig")
    } else {
        (ANN, "rangers", "pounder")
    };
    table.mail(
        who,
        &format!("first {winner}\nactivate {first_unit}\n  nothing\n  nothing\nactivate {other_unit}\n  nothing\n  nothing"),
        None,
    );
    table.run("2026-03-01T11:00:00Z");
    let entries = table.entries();
    let got = outcomes(
        entries
            .iter()
            .rev()
            .find(|e| matches!(e.event, Event::Submission(_)))
            .unwrap(),
    );
    assert!(understood(&got[0].1).contains("first"), "{got:?}");
    assert!(understood(&got[1].1).starts_with("activate"), "{got:?}");
    // 004 "Activation": sides alternate, so the second activation is refused, alone.
    let (reason, _) = refused(&got[2].1);
    assert!(!reason.is_empty());
    table.verify();
}

#[test]
fn concede_by_mail_ends_the_game_and_both_players_get_the_end() {
    let mut table = skirmish();
    table.mail(ANN, "concede", None);
    table.run("2026-03-01T10:00:00Z");
    let g = table.loaded();
    let r = g.derived.finished.expect("the game is over");
    assert_eq!(r.winner.as_deref(), Some("axis"));
    assert_eq!(table.texts("-end-", ANN).len(), 1);
    assert_eq!(table.texts("-end-", BOB).len(), 1);
    // Nothing is taken after the end, not even a referee command.
    table.mail(BOB, "report", None);
    assert_eq!(table.run("2026-03-01T11:00:00Z").refused, 1);
    assert!(control(&table, "2026-03-01T12:00:00Z", "pause").is_err());
    table.verify();
}

#[test]
fn a_draw_offered_by_one_side_and_accepted_by_the_other_ends_the_game_drawn() {
    let mut table = skirmish();
    table.mail(ANN, "offer draw", None);
    table.run("2026-03-01T10:00:00Z");
    assert!(
        table.loaded().derived.finished.is_none(),
        "an offer alone ends nothing"
    );
    table.mail(BOB, "accept draw", None);
    table.run("2026-03-01T11:00:00Z");
    let r = table.loaded().derived.finished.expect("drawn");
    assert_eq!(r.winner, None);
    table.verify();
}

/// Issue 4: standing orders are shown in every report to their owner only.
#[test]
fn standing_orders_appear_in_their_owners_reports_only() {
    let mut table = skirmish();
    table.mail(
        ANN,
        "standing react rangers never\nstanding casualties rangers: 2 3\nstanding retaliate any no",
        None,
    );
    table.run("2026-03-01T10:00:00Z");
    let ann = table.texts("-report-allies", ANN).join("\n");
    assert!(ann.contains("Your standing orders"), "{ann}");
    for l in [
        "standing react rangers never",
        "standing casualties rangers: 2 3",
        "standing retaliate any no",
    ] {
        assert!(ann.contains(l), "{l} missing: {ann}");
    }
    let bob = table.texts("-report-axis", BOB).join("\n");
    assert!(!bob.is_empty(), "axis got its report");
    assert!(!bob.contains("standing react rangers"), "{bob}");
    assert!(!bob.contains("Your standing orders"), "{bob}");
    table.verify();
}
