//! Issue 11 item 3, "typed events with an audience" (DESIGN §2): each happening carries who may
//! see it and the game's own typed event; pictures draw paths, fire and wrecks from the events,
//! never from the English sentences, and each reader's report shows only what they may see.

use crate::support;
use crate::support::dt;

use dustmail::dust_tactics::event::DtEvent;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{
    Audience, Awaiting, CommandOutcome, CommandResult, DiceSource, Game, Happening, Line, Outcome,
    Sender, Setup, SetupError,
};
use dustmail::ledger::{Entry, Event, Ledger};
use dustmail::referee::{self, Ctx, DiceMode, NewGame};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use support::{signed_mail, Harness, Toy, ToyState, ALLIES_KEY, AXIS_KEY};

/// One demo game (a real Dust Tactics game played by bots through the binary) for the file.
fn demo_home() -> &'static Path {
    static HOME: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &HOME
        .get_or_init(|| {
            let d = tempfile::tempdir().unwrap();
            let h = d.path().join("home");
            let o = dt::dustmail(&h, &["demo"]);
            assert!(o.status.success(), "{}", dt::text(&o));
            (d, h)
        })
        .1
}

fn demo_log() -> PathBuf {
    demo_home().join("games/g-demo/log.jsonl")
}

/// The happenings of every accepted step of the demo, by ledger line.
fn demo_steps() -> Vec<(u64, Vec<Happening>)> {
    dustmail::ledger::read_all(&demo_log())
        .unwrap()
        .into_iter()
        .filter_map(|e| match e.event {
            Event::Submission(s) if s.accepted => Some((e.seq, s.step.happenings)),
            Event::Deadline(d) => Some((e.seq, d.step.happenings)),
            _ => None,
        })
        .collect()
}

fn count(hs: &[Happening], needle: &str) -> usize {
    hs.iter().filter(|h| h.text.contains(needle)).count()
}

// issue 11 item 3 (finding: "the report finds movement paths and lines of fire by searching the
// engine's English sentences"): with every sentence blanked, the picture of a step still draws
// its movement path, one line per weapon line fired and its wrecks.
#[test]
fn the_picture_draws_moves_fire_and_wrecks_with_every_sentence_blanked() {
    let o = dt::dustmail(demo_home(), &["show", "g-demo", "--format", "json"]);
    assert!(o.status.success(), "{}", dt::text(&o));
    let view: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let (mut moves, mut fires, mut wrecks) = (0, 0, 0);
    for (seq, hs) in demo_steps() {
        // The test picks steps by their sentences; the code under test never sees them.
        let moved = count(&hs, " moves to ");
        let fired = count(&hs, " fires ");
        let destroyed = hs
            .iter()
            .filter(|h| h.text.contains(" is destroyed (") && !h.text.starts_with("the cover"))
            .count();
        let blank: Vec<Happening> = hs
            .into_iter()
            .map(|h| Happening {
                text: String::new(),
                ..h
            })
            .collect();
        let pic = dustmail::dust_tactics::present::picture(&view, None, &blank).expect("a board");
        assert_eq!(pic.path.len() >= 2, moved > 0, "line {seq}: {:?}", pic.path);
        assert_eq!(pic.fire.len(), fired, "line {seq}");
        assert_eq!(!pic.destroyed.is_empty(), destroyed > 0, "line {seq}");
        moves += moved;
        fires += fired;
        wrecks += destroyed;
    }
    assert!(
        moves > 3 && fires > 3 && wrecks >= 1,
        "{moves} {fires} {wrecks}"
    );
}

// issue 11 item 3: the ledger records Dust Tactics' typed events; `drawing` reads them (a move
// draws from its start through every square entered; a fire from shooter to target).
#[test]
fn the_ledger_records_typed_events_and_drawing_reads_only_them() {
    let steps = demo_steps();
    let events: Vec<DtEvent> = steps
        .iter()
        .flat_map(|(_, hs)| hs.iter().filter_map(DtEvent::of))
        .collect();
    let moved = events
        .iter()
        .find_map(|e| match e {
            DtEvent::Moved { from, path, .. } => Some((*from, path.clone())),
            _ => None,
        })
        .expect("a move in the demo");
    assert!(events.iter().any(|e| matches!(e, DtEvent::Fired { .. })));
    assert!(events
        .iter()
        .any(|e| matches!(e, DtEvent::Destroyed { .. })));
    let only = Happening {
        text: "reworded: something went somewhere".into(),
        ..DtEvent::Moved {
            unit: "x".into(),
            from: moved.0,
            path: moved.1.clone(),
        }
        .happening("", vec![])
    };
    let d = dustmail::dust_tactics::present::drawing(&[only]);
    let mut want = vec![moved.0];
    want.extend(moved.1);
    assert_eq!(d.path, want);
    // A sentence that reads like a move but carries no event draws nothing.
    let fake = Happening::text("a1 moves to B2 (B2)");
    assert_eq!(
        dustmail::dust_tactics::present::drawing(&[fake]),
        Default::default()
    );
}

/// The demo ledger written again by its referee with `edit` applied to each happening (signed
/// and chained as the referee would).
fn rewritten_demo(edit: impl Fn(&mut Happening)) -> Vec<u8> {
    let home = dustmail::config::Home::new(demo_home());
    let inproc = dt::InProc::open(&home);
    let entries: Vec<Entry> = dustmail::ledger::read_all(&demo_log()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let Event::Created(c) = &entries[0].event else {
        panic!("no created line")
    };
    let mut l = Ledger::create_signed(
        dir.path(),
        (**c).clone(),
        inproc.key.clone(),
        inproc.edges.sign_text,
    )
    .unwrap();
    for e in &entries[1..] {
        let mut ev = e.event.clone();
        let step = match &mut ev {
            Event::Submission(s) => Some(&mut s.step),
            Event::Deadline(d) => Some(&mut d.step),
            _ => None,
        };
        for h in step.into_iter().flat_map(|s| s.happenings.iter_mut()) {
            edit(h);
        }
        l.append(ev).unwrap();
    }
    std::fs::read(dir.path().join("log.jsonl")).unwrap()
}

fn replay(data: &[u8]) -> Result<(), String> {
    referee::replay_bytes(
        &DustTactics,
        &referee::Edges::real(),
        "log.jsonl",
        data,
        DiceMode::Recorded,
    )
    .map(|_| ())
    .map_err(|e| e.to_string())
}

// issue 11 item 3: a ledger written before typed events (no `event` on any happening) replays
// as before; a recorded event that differs from the one the game gives is a mismatch.
#[test]
fn old_ledgers_without_events_replay_and_a_wrong_event_is_caught() {
    replay(&std::fs::read(demo_log()).unwrap()).unwrap();
    let old = rewritten_demo(|h| h.event = None);
    assert!(!String::from_utf8_lossy(&old).contains("\"event\""));
    replay(&old).unwrap();
    let forged = rewritten_demo(|h| {
        if let Some(DtEvent::Moved { unit, from, path }) = DtEvent::of(h) {
            // The path without its last square: the move recorded as shorter than it was.
            let wrong = DtEvent::Moved {
                unit,
                from,
                path: path[..path.len() - 1].to_vec(),
            };
            h.event = Some(serde_json::to_value(wrong).unwrap());
        }
    });
    let err = replay(&forged).unwrap_err();
    assert!(err.contains("happenings"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Audience, through the real pipeline: a toy game whose `peek` shows the sender's side a card
// (a happening for that side only); everything else is the toy game.

struct Secret;

static SECRET: [&dyn dustmail::registry::AnyGame; 1] = [&Secret];

impl Game for Secret {
    fn name(&self) -> &'static str {
        "secret"
    }
    type State = ToyState;
    fn setup(&self, setup: &Setup) -> Result<ToyState, SetupError> {
        Toy.setup(setup)
    }
    fn sides(&self, s: &ToyState) -> Vec<String> {
        Toy.sides(s)
    }
    fn round(&self, s: &ToyState) -> u32 {
        Toy.round(s)
    }
    fn submit(
        &self,
        s: &mut ToyState,
        from: Sender<'_>,
        lines: &[Line],
        dice: &mut dyn DiceSource,
    ) -> Outcome {
        let mut out = Outcome::default();
        for l in lines {
            if l.text.trim() == "peek" {
                out.results.push(CommandResult {
                    line: l.number,
                    outcome: CommandOutcome::Accepted {
                        understood: "peek".into(),
                    },
                });
                out.happenings.push(Happening {
                    text: format!("{} looks at the secret card: queen of spades", from.side),
                    audience: Audience::Side(from.side.into()),
                    ..Happening::default()
                });
                continue;
            }
            let o = Toy.submit(s, from, std::slice::from_ref(l), dice);
            out.results.extend(o.results);
            out.happenings.extend(o.happenings);
            out.rounds_ended.extend(o.rounds_ended);
            if o.finished.is_some() {
                out.finished = o.finished;
            }
        }
        out
    }
    fn default_for(&self, s: &mut ToyState, side: &str, dice: &mut dyn DiceSource) -> Outcome {
        Toy.default_for(s, side, dice)
    }
    fn awaiting(&self, s: &ToyState) -> Vec<Awaiting> {
        Toy.awaiting(s)
    }
    fn view(&self, s: &ToyState, as_side: Option<&str>) -> serde_json::Value {
        Toy.view(s, as_side)
    }
    fn board_text(&self, s: &ToyState) -> String {
        Toy.board_text(s)
    }
    fn orders_template(&self, s: &ToyState, side: &str) -> String {
        Toy.orders_template(s, side)
    }
}

fn secret_ctx<'a>(h: &'a Harness, now: &str) -> Ctx<'a> {
    Ctx {
        games: dustmail::registry::Registry::new(&SECRET),
        home: &h.home,
        config: &h.config,
        templates: &h.templates,
        edges: &h.edges,
        sink: &h.sink,
        key: &h.key,
        now: support::t(now),
    }
}

const ID: &str = "g-secret";
const CARD: &str = "queen of spades";

fn new_secret_game(h: &Harness) {
    let player = |side: &str, address: &str, key: &str| dustmail::ledger::Player {
        side: side.into(),
        address: address.into(),
        public_key: key.into(),
    };
    referee::create_game(
        &secret_ctx(h, support::T0),
        NewGame {
            game: "secret".into(),
            setup: Setup {
                ruleset: "toy".into(),
                scenario_name: "race".into(),
                scenario: "first to 10".into(),
                cards: BTreeMap::new(),
                sides: vec!["allies".into(), "axis".into()],
                rules_revision: 0,
            },
            players: vec![
                player("allies", "ann@example.org", ALLIES_KEY),
                player("axis", "bob@example.org", AXIS_KEY),
            ],
            seed: [42u8; 32],
            id: Some(ID.into()),
            max_rounds: 10,
        },
    )
    .unwrap();
}

// issue 11 item 3 (finding: "every reader gets the same happenings (a drawn card would leak)"):
// a happening for one side is in the ledger with its audience, in that side's receipt, report
// and `show --as` context, and in the referee's `show`, but not in the other side's report or
// `show --as` context.
#[test]
fn a_happening_for_one_side_reaches_only_that_side() {
    let h = Harness::new();
    new_secret_game(&h);
    h.drop_mail(
        "1.eml",
        &signed_mail(
            "ann@example.org",
            "<1@x>",
            ALLIES_KEY,
            &support::orders(ID, "allies", 1, &["peek", "add 3"]),
            "",
        ),
    );
    referee::run(&secret_ctx(&h, "2026-01-01T13:00:00Z"), &h.maildir()).unwrap();

    let Event::Submission(s) = &h.entries(ID)[1].event else {
        panic!("line 2 is not the submission")
    };
    assert!(s.accepted, "{s:?}");
    assert_eq!(
        s.step.happenings[0].audience,
        Audience::Side("allies".into())
    );
    assert_eq!(s.step.happenings[1].audience, Audience::Everyone);

    let mail = |id: &str| {
        h.sink
            .get(id)
            .unwrap_or_else(|| panic!("no mail {id}: {:?}", h.sink.ids()))
    };
    let allies = mail("g-secret-2-report-allies");
    let axis = mail("g-secret-2-report-axis");
    // The receipt heads allies' report (issue 17 item 3): one mail to the sender.
    assert!(
        crate::support::flat(&allies.text).contains("received and applied"),
        "{}",
        allies.text
    );
    assert!(allies.text.contains(CARD), "{}", allies.text);
    assert_eq!(h.sink.get("g-secret-2-receipt"), None);
    assert!(axis.text.contains("allies adds 3"), "{}", axis.text);
    assert!(!axis.text.contains(CARD), "{}", axis.text);
    assert!(
        !format!("{axis:?}").contains(CARD),
        "HTML part or attachment leaks"
    );

    // `show --as SIDE` shows what that side's report shows; the referee's `show` shows all.
    let g = referee::load_game(&Secret, &h.edges, &h.home, ID).unwrap();
    let shown = |side: Option<&str>| {
        let (ctx, _, _) = dustmail::report::show_context(&Secret, &g, side).unwrap();
        serde_json::to_string(&ctx).unwrap()
    };
    assert!(!shown(Some("axis")).contains(CARD));
    assert!(shown(Some("axis")).contains("allies adds 3"));
    assert!(shown(Some("allies")).contains(CARD));
    assert!(shown(None).contains(CARD));
    // The audience is part of what replay checks.
    referee::replay_game(&Secret, &h.edges, &h.home, ID).unwrap();
}
