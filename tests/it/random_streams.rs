//! Issue 11 item 4, "randomness for every game": `uniform(n)` beside d6, the hidden-randomness
//! stream and sealed choices of DESIGN §5. The golden literals were computed out of band with
//! Python (hashlib + the `cryptography` package's ChaCha20, an implementation independent of
//! ours) from the mapping documented in `src/pbem/seed.rs`; the same script reproduces the existing
//! d6 golden vector of dice v2 (`tests/it/trust_ledger.rs`), so both use one keystream.

use crate::support;

use dustmail::game::{
    Audience, Awaiting, CommandOutcome, CommandResult, DiceSource, Game, Happening, Line, Outcome,
    ScriptedDice, Sender, Setup, SetupError,
};
use dustmail::ledger::{Draw, DrawKind, Entry, Event, Ledger};
use dustmail::random::{
    seal, sealed_commitment, shuffle_with, verify_reveal, SealError, SealedChoices,
};
use dustmail::referee::{self, Ctx, DiceMode, NewGame};
use dustmail::seed::{
    hidden_commitment, hidden_key, hidden_secret_for, signature_digest, Key, Keying, SecretKeys,
    SeededDice,
};
use proptest::prelude::*;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::collections::BTreeMap;
use support::*;

const S: [u8; 32] = [7; 32];
const H: [u8; 32] = [9; 32];
const STEP: u64 = 5;

/// A = SHA-256 of the 64 signature bytes 0x03 (the cause of the golden step).
fn cause() -> Key {
    use base64::Engine;
    signature_digest(&base64::engine::general_purpose::STANDARD.encode([3u8; 64]))
}

fn keys() -> SecretKeys {
    SecretKeys {
        secret: S,
        max_rounds: 10,
    }
}

fn v2() -> Keying {
    Keying::V2 {
        n: STEP,
        cause: cause(),
    }
}

// issue 11 finding 4 (golden vectors): d6 faces stay as they were; uniform(n) for several n,
// each from a fresh step stream, with n = 2^31 + 1 rejecting most words.
#[test]
fn uniform_golden_vectors() {
    let k = keys();
    let mut dice = SeededDice::with_keying(&k, v2());
    let faces: Vec<u8> = (0..12).map(|_| dice.d6(1)).collect();
    assert_eq!(
        faces,
        vec![2, 5, 3, 1, 5, 5, 1, 5, 6, 2, 3, 2],
        "dice v2 unchanged"
    );
    let cases: [(u32, [u32; 6]); 6] = [
        (1, [0, 0, 0, 0, 0, 0]),
        (2, [0, 0, 0, 1, 1, 1]),
        (6, [4, 2, 0, 3, 3, 1]),
        (45, [37, 35, 24, 27, 0, 34]),
        (
            (1 << 31) + 1,
            [
                1026069112, 880043535, 1449112399, 617794081, 784905866, 260347778,
            ],
        ),
        (
            u32::MAX,
            [
                1026069112, 4233639050, 4108144524, 3148468047, 880043535, 1449112399,
            ],
        ),
    ];
    for (n, want) in cases {
        let mut dice = SeededDice::with_keying(&k, v2());
        let got: Vec<u32> = (0..6).map(|_| dice.uniform(1, n)).collect();
        assert_eq!(got, want, "uniform({n})");
        assert!(dice.missing_key().is_none());
    }
    // One stream, in the order asked: d6, uniform(45), d6, uniform(2^31+1), d6.
    let mut dice = SeededDice::with_keying(&k, v2());
    let mixed = (
        dice.d6(1),
        dice.uniform(1, 45),
        dice.d6(1),
        dice.uniform(1, (1 << 31) + 1),
        dice.d6(1),
    );
    assert_eq!(mixed, (2, 3, 5, 881521885, 2));
}

// issue 11 finding 4 (golden vectors): C_H, the hidden stream's key and its values.
#[test]
fn hidden_golden_vectors() {
    assert_eq!(
        hex::encode(hidden_commitment(&H)),
        "a5fbd3b3e861b70d816dba74dff32adc88105bbd8f3d5f9256a308ae26a55187"
    );
    assert_eq!(
        hex::encode(hidden_key(&H, STEP, &cause())),
        "ab1382dc1584158a7f200cd2fffeab8b8d897cadf923c588dde7148c34795434"
    );
    assert_eq!(
        hex::encode(hidden_secret_for(&S)),
        "08b517beeb05df1e91b1f5f6d50f761ebaf4d2e66ea36d81f9f9680b4b51fdc4"
    );
    let k = keys();
    let mut dice = SeededDice::with_keying(&k, v2()).with_hidden(Some(H));
    let side = Audience::Side("allies".into());
    let got: Vec<u32> = (0..8).map(|_| dice.hidden(&side, 52)).collect();
    assert_eq!(got, vec![32, 6, 30, 24, 32, 38, 41, 45]);
    let mut dice = SeededDice::with_keying(&k, v2()).with_hidden(Some(H));
    let got: Vec<u32> = (0..4)
        .map(|_| dice.hidden(&Audience::Referee, (1 << 31) + 1))
        .collect();
    assert_eq!(got, vec![1900836268, 1671913696, 1316723648, 1230607705]);
    assert!(!dice.missing_hidden());
    // Hidden draws do not move the open stream, nor the open stream the hidden one.
    let mut dice = SeededDice::with_keying(&k, v2()).with_hidden(Some(H));
    assert_eq!((dice.d6(1), dice.hidden(&side, 52), dice.d6(1)), (2, 32, 5));
}

// issue 11 finding 4: round keys never key a hidden value: the same H, n and A give the same
// hidden values whatever the seed S and the round.
#[test]
fn hidden_values_do_not_depend_on_round_keys() {
    let values = |secret: [u8; 32]| {
        let k = SecretKeys {
            secret,
            max_rounds: 10,
        };
        let mut dice = SeededDice::with_keying(&k, v2()).with_hidden(Some(H));
        let d6 = dice.d6(1);
        let hidden: Vec<u32> = (0..8)
            .map(|_| dice.hidden(&Audience::Everyone, 52))
            .collect();
        (d6, hidden)
    };
    let (a_d6, a) = values([1; 32]);
    let (_, b) = values([2; 32]);
    let (_, c) = values(S);
    assert_eq!(a, b);
    assert_eq!(a, c);
    // With no round key at all (an auditor before any reveal) the hidden values still come.
    let none: BTreeMap<u32, Key> = BTreeMap::new();
    let mut dice = SeededDice::with_keying(&none, v2()).with_hidden(Some(H));
    let alone: Vec<u32> = (0..8)
        .map(|_| dice.hidden(&Audience::Everyone, 52))
        .collect();
    assert_eq!(alone, a);
    assert!(dice.missing_key().is_none());
    let _ = a_d6;
}

// issue 11 finding 4: a hidden value without H, or in a v1 game, is a placeholder the caller
// must refuse; nothing panics.
#[test]
fn hidden_without_secret_is_reported_missing() {
    let k = keys();
    let mut dice = SeededDice::with_keying(&k, v2());
    assert_eq!(dice.hidden(&Audience::Referee, 52), 0);
    assert!(dice.missing_hidden());
    let mut v1 = SeededDice::new(&k, 3).with_hidden(Some(H));
    assert_eq!(v1.hidden(&Audience::Referee, 52), 0);
    assert!(v1.missing_hidden());
    assert_eq!(SeededDice::with_keying(&k, v2()).uniform(1, 0), 0);
}

/// The documented mapping, written again from the keystream: 4-byte big-endian words,
/// w >= floor(2^32 / n) * n rejected, value w % n.
fn documented_uniform(key: Key, n: u32, count: usize) -> Vec<u32> {
    let mut rng = rand_chacha::ChaCha20Rng::from_seed(key);
    let mut bytes = vec![0u8; 64 * 64];
    rng.fill_bytes(&mut bytes);
    let limit = (1u64 << 32) / u64::from(n) * u64::from(n);
    bytes
        .chunks(4)
        .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
        .filter(|w| u64::from(*w) < limit)
        .map(|w| w % n)
        .take(count)
        .collect()
}

proptest! {
    // issue 11 finding 4: uniform(n) is always below n and is exactly the documented mapping.
    #[test]
    fn uniform_is_below_n_and_the_documented_mapping(
        n in prop_oneof![1u32..=64, any::<u32>().prop_map(|n| n.max(1)), Just((1u32 << 31) + 1)],
        step in 1u64..1000,
        sig in any::<[u8; 32]>(),
    ) {
        let k = keys();
        let keying = Keying::V2 { n: step, cause: sig };
        let mut dice = SeededDice::with_keying(&k, keying);
        let got: Vec<u32> = (0..20).map(|_| dice.uniform(2, n)).collect();
        prop_assert!(got.iter().all(|v| *v < n));
        let key = dustmail::seed::dice_key_v2(&dustmail::seed::round_key(&S, 10, 2), step, &sig);
        let want = documented_uniform(key, n, 20);
        // 4,096 bytes hold at least 20 accepted words for every n (acceptance >= 1/2).
        prop_assert_eq!(got, want);
        let mut hidden = SeededDice::with_keying(&k, keying).with_hidden(Some(H));
        let h: Vec<u32> = (0..20).map(|_| hidden.hidden(&Audience::Referee, n)).collect();
        prop_assert_eq!(h, documented_uniform(hidden_key(&H, step, &sig), n, 20));
    }

    // issue 11 finding 4: a source that only rolls d6 gives uniform values below n too.
    #[test]
    fn uniform_from_d6_is_below_n(n in 1u32..=u32::MAX, faces in proptest::collection::vec(1u8..=6, 200)) {
        let mut it = faces.into_iter().cycle();
        let v = dustmail::random::uniform_from_d6(n, || it.next().unwrap_or(1));
        prop_assert!(v < n);
    }
}

// issue 11 finding 4: a shuffle is Fisher–Yates from uniform (the swaps are fixed by the values).
#[test]
fn shuffle_is_fisher_yates_from_uniform() {
    let mut items = vec!['a', 'b', 'c', 'd'];
    // i = 3: uniform(4) = 0 swaps d,a; i = 2: uniform(3) = 2 keeps; i = 1: uniform(2) = 0 swaps.
    let mut values = vec![0u32, 2, 0].into_iter();
    let mut asked = Vec::new();
    shuffle_with(&mut items, |n| {
        asked.push(n);
        values.next().unwrap()
    });
    assert_eq!(asked, vec![4, 3, 2]);
    assert_eq!(items, vec!['b', 'd', 'c', 'a']);
    // The same step's dice give the same deck: the golden stream's uniform(4), (3), (2).
    let k = keys();
    let mut deck: Vec<u32> = (0..10).collect();
    dustmail::random::shuffle(&mut SeededDice::with_keying(&k, v2()), 1, &mut deck);
    let mut again: Vec<u32> = (0..10).collect();
    dustmail::random::shuffle(&mut SeededDice::with_keying(&k, v2()), 1, &mut again);
    assert_eq!(deck, again);
    let mut sorted = deck.clone();
    sorted.sort();
    assert_eq!(sorted, (0..10).collect::<Vec<_>>(), "a permutation");
}

// issue 11 finding 4: scripted dice script uniform and hidden values too.
#[test]
fn scripted_dice_script_uniform_and_hidden_values() {
    let mut d = ScriptedDice::new([4])
        .with_uniform([7, 0])
        .with_hidden([51]);
    assert_eq!(d.remaining(), 4);
    assert_eq!(d.uniform(1, 45), 7);
    assert_eq!(d.d6(1), 4);
    assert_eq!(d.hidden(&Audience::Side("axis".into()), 52), 51);
    assert_eq!(d.uniform(1, 1), 0);
    assert_eq!(d.remaining(), 0);
}

// issue 11 finding 4: a d6 draw is written exactly as before; uniform and hidden draws say their
// kind, bound and value (and audience); old lines still read.
#[test]
fn draw_records_keep_the_d6_form() {
    assert_eq!(
        serde_json::to_string(&Draw::d6(2, 5)).unwrap(),
        r#"{"round":2,"face":5}"#
    );
    let old: Draw = serde_json::from_str(r#"{"round":2,"face":5}"#).unwrap();
    assert_eq!(old, Draw::d6(2, 5));
    assert_eq!(
        serde_json::to_string(&Draw::uniform(1, 45, 37)).unwrap(),
        r#"{"round":1,"kind":"uniform","bound":45,"value":37}"#
    );
    let h = Draw::hidden(Audience::Side("axis".into()), 52, 32);
    let text = serde_json::to_string(&h).unwrap();
    assert_eq!(
        text,
        r#"{"round":0,"kind":"hidden","bound":52,"value":32,"audience":{"side":"axis"}}"#
    );
    let back: Draw = serde_json::from_str(&text).unwrap();
    assert_eq!((back.kind, back.shown()), (DrawKind::Hidden, 32));
}

// issue 11 finding 4 (sealed choices): commitment golden vector, seal from the hidden stream,
// verify, refuse a changed choice, reveal only when all are in.
#[test]
fn sealed_choices_commit_and_reveal() {
    let salt: [u8; 16] = std::array::from_fn(|i| i as u8);
    assert_eq!(
        sealed_commitment(&salt, "attack north"),
        "010087eb89a8714c20251ab0925bbaf19ed8ae307c04f6cc3030b0d314fedde1"
    );
    let k = keys();
    let mut dice = SeededDice::with_keying(&k, v2()).with_hidden(Some(H));
    let sealed = seal(&mut dice, "attack north");
    assert_eq!(sealed.salt, "714c75acf27268968ed5450663a760e0");
    assert_eq!(
        sealed.commitment,
        "1df7f9685953f14be40cd8c79c54b4e2a763ce7274c6037e9a9266971f1c3dce"
    );
    assert_eq!(
        verify_reveal(&sealed.commitment, &sealed.salt, "attack north"),
        Ok(())
    );
    assert_eq!(
        verify_reveal(&sealed.commitment, &sealed.salt, "attack south"),
        Err(SealError::Mismatch(sealed.commitment.clone()))
    );
    assert_eq!(
        verify_reveal(&sealed.commitment, "zz", "attack north"),
        Err(SealError::BadSalt)
    );
    let sides = vec!["allies".to_string(), "axis".to_string()];
    let mut all = SealedChoices::default();
    all.record("allies", sealed.clone()).unwrap();
    assert_eq!(
        all.record("allies", seal(&mut dice, "retreat")),
        Err(SealError::AlreadySealed("allies".into()))
    );
    assert_eq!(
        all.commitments(),
        vec![("allies".to_string(), sealed.commitment.clone())]
    );
    let waiting = all.reveal(&sides).unwrap_err();
    assert_eq!(waiting, SealError::Waiting(vec!["axis".into()]));
    assert_eq!(
        waiting.to_string(),
        "waiting for the sealed choices of axis"
    );
    all.record("axis", seal(&mut dice, "hold")).unwrap();
    let revealed = all.reveal(&sides).unwrap();
    assert_eq!(revealed.len(), 2);
    for (_, c) in &revealed {
        assert_eq!(verify_reveal(&c.commitment, &c.salt, &c.choice), Ok(()));
    }
}

// ---------------------------------------------------------------------------------------------
// Through the real pipeline: a toy game whose `peek` draws a hidden card (0..52) for the sender's
// side and whose `cut` draws uniform(45) from the open stream; everything else is the toy game.

struct Peek;

static PEEK: [&dyn dustmail::registry::AnyGame; 1] = [&Peek];

impl Game for Peek {
    fn name(&self) -> &'static str {
        "peek"
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
            let accepted = |understood: String| CommandResult {
                line: l.number,
                outcome: CommandOutcome::Accepted { understood },
            };
            match l.text.trim() {
                "peek" => {
                    let card = dice.hidden(&Audience::Side(from.side.into()), 52);
                    out.results.push(accepted("peek".into()));
                    out.happenings.push(Happening {
                        text: format!("{} looks at card {card}", from.side),
                        rolls: vec![],
                        audience: Audience::Side(from.side.into()),
                        ..Happening::default()
                    });
                }
                "cut" => {
                    let at = dice.uniform(s.round, 45);
                    out.results.push(accepted("cut".into()));
                    out.happenings.push(Happening {
                        text: format!("the deck is cut at {at}"),
                        rolls: vec![],
                        ..Happening::default()
                    });
                }
                _ => {
                    let o = Toy.submit(s, from, std::slice::from_ref(l), dice);
                    out.results.extend(o.results);
                    out.happenings.extend(o.happenings);
                    out.rounds_ended.extend(o.rounds_ended);
                    if o.finished.is_some() {
                        out.finished = o.finished;
                    }
                }
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

fn peek_ctx<'a>(h: &'a Harness, now: &str) -> Ctx<'a> {
    Ctx {
        games: dustmail::registry::Registry::new(&PEEK),
        home: &h.home,
        config: &h.config,
        templates: &h.templates,
        edges: &h.edges,
        sink: &h.sink,
        key: &h.key,
        now: t(now),
    }
}

fn new_peek_game(h: &Harness) -> String {
    referee::create_game(
        &peek_ctx(h, T0),
        NewGame {
            game: "peek".into(),
            setup: Setup {
                ruleset: "toy".into(),
                scenario_name: "race".into(),
                scenario: "first to 10".into(),
                cards: BTreeMap::new(),
                sides: vec!["allies".into(), "axis".into()],
                rules_revision: 0,
            },
            players: vec![
                dustmail::ledger::Player {
                    side: "allies".into(),
                    address: "ann@example.org".into(),
                    public_key: ALLIES_KEY.into(),
                },
                dustmail::ledger::Player {
                    side: "axis".into(),
                    address: "bob@example.org".into(),
                    public_key: AXIS_KEY.into(),
                },
            ],
            seed: [42u8; 32],
            id: Some("g-peek".into()),
            max_rounds: 10,
        },
    )
    .unwrap()
}

fn send(h: &Harness, n: u32, side: &str, seq: u64, commands: &[&str], now: &str) {
    let (from, key) = if side == "allies" {
        ("ann@example.org", ALLIES_KEY)
    } else {
        ("bob@example.org", AXIS_KEY)
    };
    h.drop_mail(
        &format!("{n}.eml"),
        &signed_mail(
            from,
            &format!("<{n}@x>"),
            key,
            &orders("g-peek", side, seq, commands),
            "",
        ),
    );
    referee::run(&peek_ctx(h, now), &h.maildir()).unwrap();
}

fn audit_bytes(h: &Harness, data: &[u8]) -> Result<referee::ReplaySummary, referee::RefereeError> {
    referee::replay_bytes(&Peek, &h.edges, "log.jsonl", data, DiceMode::Recorded).map(|r| r.2)
}

/// The accepted submission at ledger line `seq`.
fn submission(h: &Harness, seq: u64) -> dustmail::ledger::Submission {
    match &h.entries("g-peek")[seq as usize - 1].event {
        Event::Submission(s) => (**s).clone(),
        e => panic!("line {seq} is {e:?}"),
    }
}

// issue 11 finding 4 (hidden stream through the pipeline): H is kept in hidden.secret (0600) and
// committed in `created`; a hidden draw is recorded with its audience; before the end an auditor
// skips it and says so, `replay` (with H) checks it; the `finished` line reveals H and `audit`
// then recomputes it; a uniform draw is recorded and audited from the round key.
#[test]
fn hidden_value_is_recorded_skipped_then_checked_at_the_end() {
    let h = Harness::new();
    let id = new_peek_game(&h);
    let dir = h.home.game_dir(&id);
    let hidden_text = std::fs::read_to_string(dir.join("hidden.secret")).unwrap();
    let hidden: Key = hex::decode(&hidden_text).unwrap().try_into().unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join("hidden.secret"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let Event::Created(c) = &h.entries(&id)[0].event else {
        panic!("no created line")
    };
    let c_h = hex::encode(hidden_commitment(&hidden));
    assert_eq!(c.hidden_commitment.as_deref(), Some(c_h.as_str()));
    let welcome = h.sink.get("g-peek-1-welcome-axis").unwrap();
    assert!(
        welcome
            .text
            // Issue 16 item 1: on its own line (lines of at most 72 characters).
            .contains(&format!("Hidden-values commitment C_H:\n  {c_h}\n")),
        "{}",
        welcome.text
    );

    send(
        &h,
        1,
        "allies",
        1,
        &["peek", "cut", "add 5"],
        "2026-01-01T13:00:00Z",
    );
    let s = submission(&h, 2);
    assert!(s.accepted, "{s:?}");
    // The card reaches its side's report only (issue 11 item 3: happenings have an audience).
    let seen_by = |side: &str| {
        h.sink
            .matching(&format!("-report-{side}"))
            .iter()
            .any(|(_, m)| m.text.contains("looks at card"))
    };
    assert!(seen_by("allies"), "the allies' report shows their card");
    assert!(!seen_by("axis"), "the axis report shows the allies' card");
    let kinds: Vec<DrawKind> = s.step.draws.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds,
        vec![DrawKind::Hidden, DrawKind::Uniform, DrawKind::D6]
    );
    let card = &s.step.draws[0];
    assert_eq!(card.audience, Some(Audience::Side("allies".into())));
    assert_eq!(card.bound, Some(52));
    // The value is the hidden stream's for step 1 and this mail's signature.
    let no_round_keys = BTreeMap::<u32, Key>::new();
    let mut want = SeededDice::with_keying(
        &no_round_keys,
        Keying::V2 {
            n: 1,
            cause: signature_digest(&s.signature),
        },
    )
    .with_hidden(Some(hidden));
    assert_eq!(card.value, Some(want.hidden(&Audience::Everyone, 52)));

    // Before the end: the auditor has no H and says the hidden value was not checked.
    let data = std::fs::read(h.log(&id)).unwrap();
    let sum = audit_bytes(&h, &data).unwrap();
    assert_eq!((sum.hidden_checked, sum.hidden_skipped), (0, 1));
    assert!(
        sum.hidden_note().contains("1 hidden values NOT checked"),
        "{}",
        sum.hidden_note()
    );
    // The referee's replay (with H) recomputes it.
    referee::replay_game(&Peek, &h.edges, &h.home, &id).unwrap();

    send(&h, 2, "axis", 1, &["add 1"], "2026-01-01T14:00:00Z");
    send(&h, 3, "allies", 2, &["add 5"], "2026-01-01T15:00:00Z");
    let entries = h.entries(&id);
    let ends = h.sink.matching("-end-");
    assert_eq!(ends.len(), 2, "{:?}", h.sink.ids());
    for (_, m) in ends {
        assert!(m.text.contains(&format!("H = {hidden_text}")), "{}", m.text);
    }
    let Some(Event::Finished(f)) = entries.last().map(|e| &e.event) else {
        panic!("the game did not finish: {:?}", entries.last())
    };
    assert_eq!(
        f.hidden.as_deref(),
        Some(hidden_text.as_str()),
        "H revealed"
    );
    let data = std::fs::read(h.log(&id)).unwrap();
    let sum = audit_bytes(&h, &data).unwrap();
    assert!(sum.finished);
    assert_eq!((sum.hidden_checked, sum.hidden_skipped), (1, 0));
    assert!(sum.hidden_note().contains("1 hidden values checked with H"));
    referee::replay_game(&Peek, &h.edges, &h.home, &id).unwrap();
}

/// The ledger of game `id` rewritten by its referee (same key): `edit` changes the events, every
/// line is signed and chained again, as a dishonest referee would.
fn rewritten(h: &Harness, id: &str, edit: impl Fn(u64, &mut Event)) -> Vec<u8> {
    let entries: Vec<Entry> = h.entries(id);
    let dir = tempfile::tempdir().unwrap();
    let Event::Created(c) = &entries[0].event else {
        panic!()
    };
    let mut l =
        Ledger::create_signed(dir.path(), (**c).clone(), h.key.clone(), h.edges.sign_text).unwrap();
    for e in &entries[1..] {
        let mut ev = e.event.clone();
        edit(e.seq, &mut ev);
        l.append(ev).unwrap();
    }
    std::fs::read(dir.path().join("log.jsonl")).unwrap()
}

// issue 11 finding 4: a referee that records a hidden value other than H gives (and rewrites
// the line consistently, signatures and chain included) passes only until the end: once H is
// revealed, `audit` names the line and the draw.
#[test]
fn a_changed_hidden_value_fails_audit_naming_the_line() {
    let h = Harness::new();
    let id = new_peek_game(&h);
    send(
        &h,
        1,
        "allies",
        1,
        &["peek", "add 5"],
        "2026-01-01T13:00:00Z",
    );
    send(&h, 2, "axis", 1, &["add 1"], "2026-01-01T14:00:00Z");
    send(&h, 3, "allies", 2, &["add 5"], "2026-01-01T15:00:00Z");
    let honest = std::fs::read(h.log(&id)).unwrap();
    audit_bytes(&h, &honest).unwrap();
    let flip = |seq: u64, ev: &mut Event| {
        if let (2, Event::Submission(s)) = (seq, ev) {
            let d = &mut s.step.draws[0];
            let real = d.value.unwrap();
            let fake = (real + 1) % 52;
            d.value = Some(fake);
            let text = &mut s.step.happenings[0].text;
            *text = text.replace(&format!("card {real}"), &format!("card {fake}"));
        }
    };
    let forged = rewritten(&h, &id, flip);
    let err = audit_bytes(&h, &forged).unwrap_err().to_string();
    assert!(err.contains("line 2:"), "{err}");
    assert!(
        err.contains("hidden, below 52") && err.contains("the revealed hidden secret H gives"),
        "{err}"
    );
    // The same forgery before the end (the `finished` line not yet written) cannot be checked,
    // and the auditor is told so.
    let n = forged.iter().filter(|b| **b == b'\n').count();
    let cut: Vec<u8> = forged
        .split_inclusive(|b| *b == b'\n')
        .take(n - 1)
        .flatten()
        .copied()
        .collect();
    let sum = audit_bytes(&h, &cut).unwrap();
    assert_eq!(sum.hidden_skipped, 1);
    // A wrong H in the `finished` line fails the commitment.
    let bad_h = rewritten(&h, &id, |_, ev| {
        if let Event::Finished(f) = ev {
            f.hidden = Some(hex::encode([1u8; 32]));
        }
    });
    let err = audit_bytes(&h, &bad_h).unwrap_err().to_string();
    assert!(err.contains("does not hash to the commitment C_H"), "{err}");
}
