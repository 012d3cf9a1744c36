//! Order commands (DESIGN §4, docs/orders.md): every command form, every error form with its
//! message and suggested line, the canonical printed form round-trips, and no input panics.

use dustmail::dust_tactics::model::{Board, Square};
use dustmail::dust_tactics::orders::{
    parse, Action, Command, FireOrder, OrderError, Parsed, StandingReaction, TargetRef,
};
use dustmail::game::Line;

fn board() -> Board {
    Board::open(9, 9).unwrap()
}

fn sq(t: &str) -> Square {
    board().parse_square(t).unwrap()
}

fn lines(text: &str) -> Vec<Line> {
    text.lines()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.to_string(),
        })
        .collect()
}

fn run(text: &str) -> Vec<Result<Parsed, OrderError>> {
    parse(&lines(text), &board())
}

/// The one command `text` parses to.
fn one(text: &str) -> Command {
    let mut out = run(text);
    assert_eq!(out.len(), 1, "{text}: {out:?}");
    match out.remove(0) {
        Ok(p) => p.command,
        Err(e) => panic!("{text}: {e} (instead: {})", e.instead),
    }
}

/// The one error `text` gives.
fn error(text: &str) -> OrderError {
    let mut out = run(text);
    assert_eq!(out.len(), 1, "{text}: {out:?}");
    match out.remove(0) {
        Ok(p) => panic!("{text}: expected an error, got {:?}", p.command),
        Err(e) => e,
    }
}

fn unit(u: &str) -> TargetRef {
    TargetRef::Unit(u.into())
}

fn fire(weapon: &str, target: TargetRef) -> FireOrder {
    FireOrder {
        weapon: weapon.into(),
        target,
        through: vec![],
    }
}

fn activate(unit: &str, actions: Vec<Action>) -> Command {
    Command::Activate {
        unit: unit.into(),
        actions,
    }
}

#[test]
fn smoke_skirmish_orders() {
    assert_eq!(
        one("first allies"),
        Command::First {
            side: "allies".into()
        }
    );
    assert_eq!(
        one("ACTIVATE Pounder\n  Move c5\n  attack cannon AT ludwig"),
        activate(
            "pounder",
            vec![
                Action::Move {
                    squares: vec![sq("C5")]
                },
                Action::Attack {
                    fire: vec![fire("cannon", unit("ludwig"))]
                },
            ]
        )
    );
    assert_eq!(
        one("standing react any with rangers"),
        Command::StandingReact {
            trigger: None,
            answer: StandingReaction::With("rangers".into())
        }
    );
}

#[test]
fn smoke_error_names_the_line() {
    let e = error("\n\nmove c4");
    assert_eq!(e.line, 3);
    assert!(e.reason.contains("must follow an `activate <unit>` line"), "{e}");
}
