//! Helpers for the rules tests of the state machine: cards and scenarios built as Rust values,
//! so the tests do not depend on the scenario parser or the card files.
#![allow(dead_code)]

use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::orders::{Action, Command, FireOrder, TargetRef};
use dustmail::dust_tactics::scenario::{Objective, Scenario, UnitSpec};
use dustmail::dust_tactics::state::{Phase, Policy, State};
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{CommandOutcome, Game, Outcome, ScriptedDice};

pub fn dice(x: u8, d: u8) -> Fire {
    Fire::Dice { dice: x, damage: d }
}

/// A weapon line with the same cell against every armour.
pub fn weapon(id: &str, range: WeaponRange, x: u8, d: u8) -> WeaponLine {
    WeaponLine {
        id: id.into(),
        name: id.to_string(),
        carriers: None,
        range,
        soldier: [dice(x, d); 4],
        vehicle: [dice(x, d); 7],
        aircraft: [Fire::No; 3],
        traits: vec![],
        ammo: None,
    }
}

pub fn card(id: &str, ty: UnitType, health: u8, movement: u8, weapons: Vec<WeaponLine>) -> Card {
    Card {
        id: id.into(),
        name: id.to_string(),
        faction: "allies".into(),
        unit_type: ty,
        armour: match ty {
            UnitType::Vehicle => Armour::Vehicle(3),
            _ => Armour::Soldier(2),
        },
        movement,
        health,
        ap: 10,
        soft_save: Save::None,
        hard_save: Save::None,
        weapons,
        skills: vec![],
        models: vec![],
        sources: vec![],
        provisional: vec![],
        superhuman: false,
        sidekick: None,
        large: false,
        huge: false,
        size: None,
    }
}

pub fn with_skill(mut c: Card, name: &str, uses: Option<u8>) -> Card {
    c.skills.push(SkillSpec {
        name: name.into(),
        uses,
        value: None,
        card: None,
        weapon: None,
    });
    c
}

/// A four-model squad, Movement 1, "gun" 1/1 range 4.
pub fn squad(id: &str) -> Card {
    card(
        id,
        UnitType::Squad,
        4,
        1,
        vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
    )
}

pub fn unit(id: &str, card: &str, at: Option<&str>) -> UnitSpec {
    // Built through serde so fields other engineers add (with serde defaults) do not break it.
    serde_json::from_value(serde_json::json!({ "id": id, "card": card, "at": at }))
        .expect("unit spec")
}

pub fn sq(s: &str) -> Square {
    Board::open(9, 9)
        .unwrap()
        .parse_square(s)
        .expect("test square")
}

/// A 9×9 open board; allies enter on row 9, axis on row 1.
pub fn scenario(allies: Vec<UnitSpec>, axis: Vec<UnitSpec>) -> Scenario {
    let board = Board::open(9, 9).unwrap();
    let row = |r: i32| {
        (0..9)
            .filter_map(|c| board.square(c, r))
            .collect::<Vec<_>>()
    };
    let side = |id: &str, name: &str, entry: Vec<Square>, units: Vec<UnitSpec>| serde_json::json!({ "id": id, "name": name, "entry": entry, "units": units });
    // Built through serde so fields other engineers add (with serde defaults) do not break it.
    serde_json::from_value(serde_json::json!({
        "name": "test",
        "title": "Test",
        "description": "",
        "board": board,
        "rounds": 3,
        "ap_limit": 100,
        "sides": [
            side("allies", "Allies", row(8), allies),
            side("axis", "Axis", row(0), axis),
        ],
        "objectives": [],
    }))
    .expect("scenario")
}

pub fn objectives(mut s: Scenario, o: Vec<Objective>) -> Scenario {
    s.objectives = o;
    s
}

/// A game where both sides answer by mail every decision these tests were written for:
/// standing `ask` for first, reactive fire and casualties (R100); retaliation stays the default.
pub fn start(s: Scenario, cards: Vec<Card>) -> State {
    let mut st = start_defaults(s, cards);
    for side in st.sides() {
        let mut out = Outcome::default();
        flow::standing_first(&mut st, &side, None, &mut out).expect("standing first ask");
        flow::standing_react(&mut st, &side, None, Policy::Ask).expect("standing react ask");
        flow::standing_casualties_ask(&mut st, &side, None).expect("standing casualties ask");
    }
    st
}

/// A game where nobody set a standing order: every decision but activations follows R100.
pub fn start_defaults(s: Scenario, cards: Vec<Card>) -> State {
    DustTactics.start("ffg-revised", s, cards).expect("setup")
}

/// Rolls the first initiative: allies win with 1 hit to 0, and choose `first`.
pub fn begin(state: &mut State, first: &str) {
    let mut d = ScriptedDice::new([1, 5, 5, 5, 5, 5]);
    let out = cmd(
        state,
        "allies",
        Command::First { side: first.into() },
        &mut d,
    );
    assert!(out.accepted_any(), "{out:?}");
    assert_eq!(d.remaining(), 0);
}

pub fn cmd(state: &mut State, side: &str, c: Command, d: &mut ScriptedDice) -> Outcome {
    DustTactics.command(state, side, &c, d)
}

pub fn refused(out: &Outcome) -> (String, String) {
    match &out.results[0].outcome {
        CommandOutcome::Refused { reason, rule, .. } => (reason.clone(), rule.clone()),
        o => panic!("expected a refusal, got {o:?}"),
    }
}

pub fn accepted(out: &Outcome) {
    assert!(
        matches!(out.results[0].outcome, CommandOutcome::Accepted { .. }),
        "{:?}",
        out.results[0].outcome
    );
}

pub fn activate(unit: &str, actions: Vec<Action>) -> Command {
    Command::Activate {
        unit: unit.into(),
        actions,
    }
}

pub fn mv(s: &str) -> Action {
    Action::Move {
        squares: vec![sq(s)],
    }
}

pub fn fire(w: &str, t: &str) -> FireOrder {
    FireOrder {
        weapon: w.into(),
        target: TargetRef::Unit(t.into()),
        through: vec![],
        count: None,
    }
}

pub fn attack(w: &str, t: &str) -> Action {
    Action::Attack {
        fire: vec![fire(w, t)],
    }
}

pub fn sustained(w: &str, t: &str) -> Action {
    Action::Sustained {
        fire: vec![fire(w, t)],
    }
}

pub fn skill(n: &str) -> Action {
    Action::Skill {
        name: n.into(),
        target: None,
    }
}

pub fn nothing() -> Action {
    Action::Nothing
}

pub fn awaited(state: &State) -> Vec<(String, String)> {
    DustTactics
        .awaiting(state)
        .into_iter()
        .map(|a| (a.side, a.decision))
        .collect()
}

pub fn texts(out: &Outcome) -> String {
    out.happenings
        .iter()
        .map(|h| h.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn u<'a>(state: &'a State, id: &str) -> &'a dustmail::dust_tactics::state::UnitState {
    state.unit(id).expect("unit")
}

/// Dice for declarations whose exact rolls do not matter to the test.
pub struct Cycle(pub u8);
impl dustmail::game::DiceSource for Cycle {
    fn d6(&mut self, _round: u32) -> u8 {
        self.0 = self.0 % 6 + 1;
        self.0
    }
}

/// The shipped cards.
pub fn real_cards() -> Vec<Card> {
    dustmail::dust_tactics::cards::builtin()
        .into_iter()
        .map(|(f, t)| dustmail::dust_tactics::cards::parse_card(f, t).expect("shipped card"))
        .collect()
}

/// Orders as a player writes them, one command a line, submitted by `side`.
pub fn send(
    st: &mut State,
    side: &str,
    text: &str,
    d: &mut dyn dustmail::game::DiceSource,
) -> Outcome {
    let lines: Vec<dustmail::game::Line> = text
        .lines()
        .enumerate()
        .map(|(i, t)| dustmail::game::Line {
            number: i + 1,
            text: t.into(),
        })
        .collect();
    DustTactics.submit(st, dustmail::game::Sender::side(side), &lines, d)
}

/// The first command's outcome: what was understood, or the refusal with its rule.
pub fn first_result(out: &Outcome) -> Result<String, String> {
    match &out.results[0].outcome {
        CommandOutcome::Accepted { understood } => Ok(understood.clone()),
        CommandOutcome::Refused { reason, rule, .. } => Err(format!("{reason} [{rule}]")),
    }
}

/// Plays the rest of the round with `nothing` + `nothing`, rolls the next initiative and has
/// allies go first.
pub fn next_round(st: &mut State) {
    let target = match st.phase {
        Phase::Activations | Phase::Activation(_) => st.round + 1,
        _ => st.round,
    };
    for _ in 0..20 {
        match &st.phase {
            Phase::Activations if st.round == target && st.next_side.is_some() => break,
            Phase::Activations => {
                let side = st.next_side.clone().expect("a side to activate");
                let unit = st
                    .units
                    .iter()
                    .find(|u| u.side == side && !u.activated && !u.destroyed && u.joined.is_none())
                    .map(|u| u.id.clone())
                    .expect("a unit to activate");
                let out = send(
                    st,
                    &side,
                    &format!("activate {unit}\nnothing\nnothing"),
                    &mut Cycle(1),
                );
                assert!(first_result(&out).is_ok(), "{out:?}");
            }
            Phase::Initiative => {
                send(st, "allies", "first allies", &mut Cycle(1));
            }
            Phase::First { winner } => {
                let w = winner.clone();
                let out = send(st, &w, "first allies", &mut Cycle(1));
                assert!(first_result(&out).is_ok(), "{out:?}");
            }
            p => panic!("unexpected phase {p:?}"),
        }
    }
    assert_eq!(st.round, target);
    assert_eq!(st.next_side.as_deref(), Some("allies"));
}

/// Sends `text` from `side` with `faces` scripted; every scripted die must be used.
pub fn play(st: &mut State, side: &str, text: &str, faces: &[u8]) -> Outcome {
    let mut d = ScriptedDice::new(faces.to_vec());
    let out = send(st, side, text, &mut d);
    assert_eq!(
        d.remaining(),
        0,
        "{text}: the rules rolled fewer dice than scripted: {:?} {}",
        first_result(&out),
        texts(&out)
    );
    out
}

/// Sends `text` from `side` with no dice: it must be refused and leave the game as it was.
/// `(reason, rule)` of the refusal.
pub fn refused_unchanged(st: &mut State, side: &str, text: &str) -> (String, String) {
    let before = st.clone();
    let out = play(st, side, text, &[]);
    let r = refused(&out);
    assert!(*st == before, "{text}: the refusal changed the game");
    r
}

/// The purpose of every die rolled, in order.
pub fn purposes(out: &Outcome) -> Vec<String> {
    out.happenings
        .iter()
        .flat_map(|h| h.rolls.iter().map(|r| r.purpose.clone()))
        .collect()
}

/// Every face in turn, 300 dice, so any re-roll ends.
pub fn plenty() -> ScriptedDice {
    ScriptedDice::new((0..300).map(|i| (i % 6 + 1) as u8).collect::<Vec<u8>>())
}

/// Both sides send `standing react any never` (no die rolled), so no reactive attack comes
/// between the orders under test.
pub fn never_react(st: &mut State) {
    for side in ["allies", "axis"] {
        accepted(&play(st, side, "standing react any never", &[]));
    }
}
