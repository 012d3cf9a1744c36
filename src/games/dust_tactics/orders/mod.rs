//! The Dust Tactics order commands (DESIGN §4, docs/orders.md), parsed from the lines of a signed
//! block into typed commands. Parsing checks syntax and that squares are on the board; whether a
//! command is legal now is the state machine's business.
//!
//! ```text
//! first <side>
//! activate <unit>
//!   move <square> [<square> …] [spare [<square> …]]
//!   move <square> [<square> …] facing <direction>   (battlefront-2013)
//!   attack <weapon> at <target> [through <square> …][, <weapon> at <target> …]
//!   sustained <weapon> at <target>[, …]
//!   skill <name> [at <target>]
//!   nothing
//! react <unit> | react none
//! react <unit> turn | sustained        (battlefront-2013: the choice on two army symbols)
//! casualties <unit>: <model> …
//! concede | offer draw | accept draw
//! retaliate [<unit>] yes | no
//! standing react <your unit|any> auto | never | ask
//! standing react <enemy unit|any> with <your unit>      (older form: <your unit> auto)
//! standing react <your unit|any> turn | sustained       (battlefront-2013)
//! standing casualties <unit>: <model> …
//! standing casualties <unit|any> ask
//! standing retaliate <your unit|any> yes | no | ask
//! standing first <side> | ask
//! ```
//!
//! `report`, `template` and `absent until` are the referee's lines, for every game: the pipeline
//! answers them (`crate::pbem::lines`) and they never reach this parser.
//!
//! Keywords are case-insensitive, ids are lower-cased, `#` starts a comment. A target is a unit
//! id, `unit/model` (a Sniper picks a model) or a square (a cover element, trees).

use super::model::{Board, Square};

pub mod carry;
pub mod climb;
mod moves;
mod placing;
mod skill_line;
mod standing;
use crate::game::Line;
use standing::parse_standing;
pub use standing::StandingReaction;
use std::fmt;

/// One command of a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// The initiative winner picks who activates first.
    First { side: String },
    /// Activate a unit with its actions, in order.
    Activate { unit: String, actions: Vec<Action> },
    /// Answer to a reactive-fire window: `None` declines.
    React { unit: Option<String> },
    /// battlefront-2013: `react <unit> turn|sustained`, the answer with the owner's choice if
    /// the two dice show two army symbols (003 "Reactive Attacks", R255).
    ReactChoosing {
        unit: String,
        choice: crate::dust_tactics::battlefront::react_choice::TwoArmy,
    },
    /// Which models of `unit` are removed, in order.
    Casualties { unit: String, models: Vec<String> },
    /// The sender's side gives up the game.
    Concede,
    /// Proposes a draw to the other side(s).
    OfferDraw,
    /// Accepts a draw offered by the other side.
    AcceptDraw,
    /// battlefront-2013: `standing react <your unit|any> turn|sustained`, what two army symbols
    /// of that unit's reactive attacks do (R255).
    StandingReactChoosing {
        unit: Option<String>,
        choice: crate::dust_tactics::battlefront::react_choice::TwoArmy,
    },
    /// Standing answer to reactive-fire windows opened by `trigger` (`None` = any enemy unit).
    StandingReact {
        trigger: Option<String>,
        answer: StandingReaction,
    },
    /// Standing casualty order for `unit`: the first of these models still alive goes first.
    StandingCasualties { unit: String, models: Vec<String> },
    /// Standing choice when winning initiative: `None` means ask every time.
    StandingFirst { side: Option<String> },
    /// Answer to a close-combat retaliation decision (`unit`, if named, is the defender).
    Retaliate { unit: Option<String>, yes: bool },
    /// `standing casualties <unit|any> ask`: this side chooses those casualties by mail.
    StandingCasualtiesAsk { unit: Option<String> },
    /// `standing retaliate <unit|any> yes|no|ask`: `policy` None is ask.
    StandingRetaliate {
        unit: Option<String>,
        policy: Option<bool>,
    },
    /// `pass`: the side passes instead of activating (003 "Passing", battlefront-2013 only;
    /// the other rulesets refuse it).
    Pass,
    /// `place <piece> at <square>`: 004 "SETUP" by the rolls (R700).
    Place(crate::dust_tactics::placing::Placement),
}

/// One action of an activation (004 "Actions").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Destination, or an explicit path (every square entered, in order).
    Move {
        squares: Vec<Square>,
    },
    /// A MOVE that leaves ammo crates standing (004 "Cover & Movement": vehicles "may choose to
    /// crush the crate"; 000: "but this is not required"): `move D4 E4 spare` spares every crate
    /// entered, `move D4 E4 spare D4` the crates named. A plain `Move` crushes every crate a
    /// vehicle enters (ruling R20, R150).
    MoveSparing {
        squares: Vec<Square>,
        /// The crate squares left standing; empty: all of them.
        spare: Vec<Square>,
    },
    Attack {
        fire: Vec<FireOrder>,
    },
    /// Takes both actions.
    Sustained {
        fire: Vec<FireOrder>,
    },
    Skill {
        name: String,
        target: Option<TargetRef>,
    },
    /// `skill artillery-strike [<gun>] at <target>, <weapon> at <target>[, …]`: the strike and
    /// the gun's other weapons beside it (004 "Artillery Weapons (Range A)", R547).
    StrikeWith {
        name: String,
        target: TargetRef,
        also: Vec<FireOrder>,
    },
    Nothing,
    /// 004 "Carry Capacity": `move … board <vehicle>` or `move exit <square> …` (R461).
    Transport(carry::Transport),
    /// `move D3 facing W`: a Move that ends facing W, not the way of its last step (003 "Move
    /// and March Move Actions"; battlefront-2013 only, R617).
    MoveFacing {
        squares: Vec<Square>,
        facing: crate::dust_tactics::battlefront::facing::Facing,
    },
    /// A MOVE whose path names heights in a structure (`move E5 E5@2`; R514).
    Climb(climb::Climb),
    /// `turn W`: a Move action that only turns the unit to face a direction (003 "Check Field
    /// of Fire"; battlefront-2013 only, R254).
    Turn {
        facing: crate::dust_tactics::battlefront::facing::Facing,
    },
    /// `travel`: one action to the other end of a link between two boards (004, R631).
    Travel,
}

/// One weapon line fired at one target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FireOrder {
    pub weapon: String,
    pub target: TargetRef,
    /// Squares a flamethrower's spray passes through (`through C3 D3`), if chosen.
    pub through: Vec<Square>,
    /// How many of a limited-ammo weapon fire (`2 demo at luther`); `None` fires all it may
    /// (000 "Limited ammo weapons": "You are never forced to use all of these … at once", R414).
    pub count: Option<u32>,
}

/// What a weapon or skill is aimed at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetRef {
    Unit(String),
    /// One named model of a squad (Sniper): `recon-rangers/2`.
    Model {
        unit: String,
        model: String,
    },
    /// A square: a cover element or trees.
    Square(Square),
}

/// A parsed command with the lines it spans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    pub first_line: usize,
    pub last_line: usize,
    pub command: Command,
}

/// A line that is not a command, with what to send instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct OrderError {
    pub line: usize,
    pub reason: String,
    /// A corrected example line (or lines) the player can send instead.
    pub instead: String,
}

// ---------------------------------------------------------------------------------------------
// Printing: the canonical form, which parses back to the same command.

impl fmt::Display for TargetRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetRef::Unit(u) => f.write_str(u),
            TargetRef::Model { unit, model } => write!(f, "{unit}/{model}"),
            TargetRef::Square(s) => write!(f, "{s}"),
        }
    }
}

impl fmt::Display for FireOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.count {
            write!(f, "{n} ")?;
        }
        write!(f, "{} at {}", self.weapon, self.target)?;
        if !self.through.is_empty() {
            f.write_str(" through")?;
            for s in &self.through {
                write!(f, " {s}")?;
            }
        }
        Ok(())
    }
}

fn write_fire(f: &mut fmt::Formatter<'_>, word: &str, fire: &[FireOrder]) -> fmt::Result {
    f.write_str(word)?;
    for (i, o) in fire.iter().enumerate() {
        f.write_str(if i == 0 { " " } else { ", " })?;
        write!(f, "{o}")?;
    }
    Ok(())
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move { squares } => {
                f.write_str("move")?;
                for s in squares {
                    write!(f, " {s}")?;
                }
                Ok(())
            }
            Action::MoveSparing { squares, spare } => {
                f.write_str("move")?;
                for s in squares {
                    write!(f, " {s}")?;
                }
                f.write_str(" spare")?;
                for s in spare {
                    write!(f, " {s}")?;
                }
                Ok(())
            }
            Action::Attack { fire } => write_fire(f, "attack", fire),
            Action::Sustained { fire } => write_fire(f, "sustained", fire),
            Action::Skill { name, target } => {
                write!(f, "skill {name}")?;
                if let Some(t) = target {
                    write!(f, " at {t}")?;
                }
                Ok(())
            }
            Action::StrikeWith { name, target, also } => {
                write!(f, "skill {name} at {target}")?;
                also.iter().try_for_each(|o| write!(f, ", {o}"))
            }
            Action::Nothing => f.write_str("nothing"),
            Action::Turn { facing } => write!(f, "turn {facing}"),
            Action::MoveFacing { squares, facing } => {
                let m = Action::Move {
                    squares: squares.clone(),
                };
                write!(f, "{m} facing {facing}")
            }
            Action::Transport(t) => write!(f, "{t}"),
            Action::Travel => f.write_str("travel"),
            Action::Climb(c) => write!(f, "{c}"),
        }
    }
}

/// Activations print on several lines: the `activate` line, then one indented line per action.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::First { side } => write!(f, "first {side}"),
            Command::Activate { unit, actions } => {
                write!(f, "activate {unit}")?;
                for a in actions {
                    write!(f, "\n  {a}")?;
                }
                Ok(())
            }
            Command::React { unit: Some(u) } => write!(f, "react {u}"),
            Command::React { unit: None } => f.write_str("react none"),
            Command::ReactChoosing { unit, choice } => write!(f, "react {unit} {}", choice.word()),
            Command::Casualties { unit, models } => {
                write!(f, "casualties {unit}: {}", models.join(" "))
            }
            Command::Concede => f.write_str("concede"),
            Command::OfferDraw => f.write_str("offer draw"),
            Command::AcceptDraw => f.write_str("accept draw"),
            Command::Pass => f.write_str("pass"),
            Command::Place(p) => write!(f, "{p}"),
            Command::StandingReact { trigger, answer } => write!(
                f,
                "standing react {} {answer}",
                trigger.as_deref().unwrap_or("any")
            ),
            Command::StandingReactChoosing { unit, choice } => write!(
                f,
                "standing react {} {}",
                unit.as_deref().unwrap_or("any"),
                choice.word()
            ),
            Command::StandingCasualties { unit, models } => {
                write!(f, "standing casualties {unit}: {}", models.join(" "))
            }
            Command::StandingFirst { side } => {
                write!(f, "standing first {}", side.as_deref().unwrap_or("ask"))
            }
            Command::Retaliate { unit, yes } => {
                f.write_str("retaliate ")?;
                if let Some(u) = unit {
                    write!(f, "{u} ")?;
                }
                f.write_str(if *yes { "yes" } else { "no" })
            }
            Command::StandingCasualtiesAsk { unit } => {
                write!(
                    f,
                    "standing casualties {} ask",
                    unit.as_deref().unwrap_or("any")
                )
            }
            Command::StandingRetaliate { unit, policy } => write!(
                f,
                "standing retaliate {} {}",
                unit.as_deref().unwrap_or("any"),
                match policy {
                    Some(true) => "yes",
                    Some(false) => "no",
                    None => "ask",
                }
            ),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing.

/// Words that start a top-level command; any other word inside an activation belongs to it.
// `report`, `template` and `absent` are the referee's lines (they never reach this parser); they
// are listed so a misspelt one still gets its suggestion.
const TOP_LEVEL: [&str; 14] = [
    "first",
    "retaliate",
    "activate",
    "react",
    "casualties",
    "concede",
    "offer",
    "accept",
    "report",
    "template",
    "absent",
    "standing",
    "pass",
    "place",
];
const ACTION_WORDS: [&str; 6] = ["move", "attack", "sustained", "skill", "nothing", "travel"];

/// A short reminder of every command, for "not a command" errors.
const COMMAND_LIST: &str =
    "first, activate, react, retaliate, casualties, concede, offer draw, accept draw, \
                            report, template, absent until, standing";

/// The line without its comment, trimmed.
fn strip(text: &str) -> &str {
    text.split('#').next().unwrap_or("").trim()
}

/// The first word, lower-cased.
fn keyword(text: &str) -> String {
    text.split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Parses every command. Comments (`#`) and blank lines are skipped; a bad command is an error
/// in place, and the commands around it still parse. A bad line inside an activation refuses
/// the whole activation, with one error per bad line.
pub fn parse(lines: &[Line], board: &Board) -> Vec<Result<Parsed, OrderError>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        let text = strip(&line.text);
        i += 1;
        if text.is_empty() {
            continue;
        }
        let kw = keyword(text);
        if kw == "activate" {
            // Gather the action lines up to the next top-level command.
            let mut body: Vec<&Line> = Vec::new();
            while let Some(next) = lines.get(i) {
                let t = strip(&next.text);
                if !t.is_empty() && TOP_LEVEL.contains(&keyword(t).as_str()) {
                    break;
                }
                if !t.is_empty() {
                    body.push(next);
                }
                i += 1;
            }
            match parse_activation(line, text, &body, board) {
                Ok(p) => out.push(Ok(p)),
                Err(errors) => out.extend(errors.into_iter().map(Err)),
            }
        } else {
            let single = match kw.as_str() {
                "place" => placing::parse(line.number, text, board),
                _ => parse_single(line.number, text, &kw),
            };
            out.push(single.map(|command| Parsed {
                first_line: line.number,
                last_line: line.number,
                command,
            }));
        }
    }
    out
}

/// The example `activate` line of a suggestion when the parser knows no unit of the sender
/// ([`parse_for`] names one of theirs instead).
pub const EXAMPLE: &str = "activate <unit>";

/// [`parse`], with the suggestions naming `unit` (one of the sender's units) instead of the
/// neutral `<unit>`.
pub fn parse_for(
    lines: &[Line],
    board: &Board,
    unit: Option<&str>,
) -> Vec<Result<Parsed, OrderError>> {
    let mut out = parse(lines, board);
    if let Some(unit) = unit.and_then(id) {
        for e in out.iter_mut().filter_map(|r| r.as_mut().err()) {
            if let Some(rest) = e.instead.strip_prefix(EXAMPLE) {
                e.instead = format!("activate {unit}{rest}");
            }
        }
    }
    out
}

fn err(line: usize, reason: impl Into<String>, instead: impl Into<String>) -> OrderError {
    OrderError {
        line,
        reason: reason.into(),
        instead: instead.into(),
    }
}

/// An id as players write it: letters, digits, `-` and `_`, lower-cased.
fn id(word: &str) -> Option<String> {
    let ok = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    ok.then(|| word.to_ascii_lowercase())
}

/// True when the word has the shape of a square (`C4`), on this board or not.
fn looks_like_square(word: &str) -> bool {
    let mut chars = word.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && (1..=2).contains(&chars.as_str().len())
        && chars.all(|c| c.is_ascii_digit())
}

fn board_size(board: &Board) -> String {
    let last_col = (b'A' + board.width().saturating_sub(1)) as char;
    format!(
        "this board runs from A1 to {last_col}{} ({} columns, {} rows)",
        board.height(),
        board.width(),
        board.height()
    )
}

fn square(line: usize, word: &str, board: &Board, instead: &str) -> Result<Square, OrderError> {
    let word = word.trim_matches(',');
    if let Some(s) = board.parse_square(word) {
        return Ok(s);
    }
    let reason = if let Some(why) = crate::dust_tactics::floors::refusal(word) {
        why
    } else if looks_like_square(word) {
        format!(
            "square {} is not on the board: {}",
            word.to_ascii_uppercase(),
            board_size(board)
        )
    } else {
        format!("`{word}` is not a square: write a column letter and a row number, like C4")
    };
    Err(err(line, reason, instead))
}

fn target(line: usize, word: &str, board: &Board, instead: &str) -> Result<TargetRef, OrderError> {
    if let Some((unit, model)) = word.split_once('/') {
        return match (id(unit), id(model)) {
            (Some(unit), Some(model)) => Ok(TargetRef::Model { unit, model }),
            _ => Err(err(
                line,
                format!("`{word}` is not a target: a model is written unit/model, like rangers/2"),
                instead,
            )),
        };
    }
    if looks_like_square(word) {
        return square(line, word, board, instead).map(TargetRef::Square);
    }
    id(word).map(TargetRef::Unit).ok_or_else(|| {
        err(
            line,
            format!(
                "`{word}` is not a target: name a unit (ludwig), a model (grenadiers/2) \
                or a square (C4)"
            ),
            instead,
        )
    })
}

/// Parses `<weapon> at <target> [through <square> …]` items separated by commas.
fn fire_orders(
    line: usize,
    rest: &str,
    word: &str,
    board: &Board,
) -> Result<Vec<FireOrder>, OrderError> {
    let instead = format!("{word} mg at ludwig");
    if rest.trim().is_empty() {
        return Err(err(
            line,
            format!("`{word}` needs a weapon and a target"),
            instead,
        ));
    }
    let mut orders = Vec::new();
    for part in rest.split(',') {
        let mut words: Vec<&str> = part.split_whitespace().collect();
        let count = fire_count(line, &mut words, word)?;
        let (weapon, at, tgt) = match words.as_slice() {
            [w, at, t, ..] => (*w, *at, *t),
            [] => {
                return Err(err(
                    line,
                    format!("an empty weapon order in `{word}` (two commas?)"),
                    instead,
                ))
            }
            _ => {
                return Err(err(
                    line,
                    format!(
                        "`{}` does not say what to fire at: write <weapon> at <target>",
                        part.trim()
                    ),
                    instead,
                ))
            }
        };
        if !at.eq_ignore_ascii_case("at") {
            return Err(err(
                line,
                format!("expected `at` after the weapon `{weapon}`, found `{at}`"),
                format!("{word} {weapon} at {tgt}"),
            ));
        }
        let weapon = id(weapon).ok_or_else(|| {
            err(
                line,
                format!("`{weapon}` is not a weapon id (letters, digits, - and _)"),
                instead.clone(),
            )
        })?;
        let target = target(line, tgt, board, &format!("{word} {weapon} at ludwig"))?;
        let mut through = Vec::new();
        match words.get(3) {
            None => {}
            Some(t) if t.eq_ignore_ascii_case("through") => {
                let ex = format!("{word} {weapon} at {target} through C3 D3");
                if words.len() == 4 {
                    return Err(err(
                        line,
                        "`through` needs the squares the spray passes \
                        through",
                        ex,
                    ));
                }
                for w in &words[4..] {
                    through.push(square(line, w, board, &ex)?);
                }
            }
            Some(extra) => {
                return Err(err(
                    line,
                    format!(
                        "unexpected `{extra}` after the target {target}: separate \
                        several weapons with commas"
                    ),
                    format!("{word} {weapon} at {target}, mg at ludwig"),
                ))
            }
        }
        orders.push(FireOrder {
            weapon,
            target,
            through,
            count,
        });
    }
    Ok(orders)
}

/// A leading count before the weapon (`2 demo at luther`, R414): taken off `words`. A number
/// followed by `at` is a weapon id, as before.
fn fire_count(line: usize, words: &mut Vec<&str>, word: &str) -> Result<Option<u32>, OrderError> {
    let [first, second, ..] = words.as_slice() else {
        return Ok(None);
    };
    if second.eq_ignore_ascii_case("at") || !first.chars().all(|c| c.is_ascii_digit()) {
        return Ok(None);
    }
    match first.parse::<u32>() {
        Ok(n) if (1..=99).contains(&n) => {
            words.remove(0);
            Ok(Some(n))
        }
        _ => Err(err(
            line,
            format!("`{first}` is not a count of weapons: write 1 to 99, or no count to fire all"),
            format!("{word} 1 {second} at ludwig"),
        )),
    }
}

fn parse_action(line: usize, text: &str, board: &Board) -> Result<Action, OrderError> {
    let kw = keyword(text);
    let rest = text
        .split_once(char::is_whitespace)
        .map(|(_, r)| r.trim())
        .unwrap_or("");
    match kw.as_str() {
        "move" if carry::is_transport(rest) => carry::parse(line, rest, board),
        "move" if climb::is_climb(rest) => climb::parse(line, rest, board),
        "move" => moves::parse(line, rest, board),
        "attack" => Ok(Action::Attack {
            fire: fire_orders(line, rest, "attack", board)?,
        }),
        // battlefront-2013 (003 "Check Field of Fire"): a Move that only turns the unit.
        "turn" => crate::dust_tactics::battlefront::facing::Facing::parse(rest)
            .map(|facing| Action::Turn { facing })
            .ok_or_else(|| {
                err(
                    line,
                    "`turn` needs one direction: N, NE, E, SE, S, SW, W or NW",
                    "turn W",
                )
            }),
        "sustained" => Ok(Action::Sustained {
            fire: fire_orders(line, rest, "sustained", board)?,
        }),
        "skill" => skill_line::parse_skill(line, rest, board),
        "travel" if rest.is_empty() => Ok(Action::Travel),
        "travel" => Err(err(
            line,
            format!("`travel` takes no square: the link decides, not `{rest}`"),
            "travel",
        )),
        "nothing" => {
            if rest.is_empty() {
                Ok(Action::Nothing)
            } else {
                Err(err(
                    line,
                    format!("`nothing` takes no arguments, found `{rest}`"),
                    "nothing",
                ))
            }
        }
        // A misspelt top-level word also lands here: the suggestion covers both lists.
        _ => Err(unknown_word(line, text, &kw, false)),
    }
}

/// Edit distance, for "did you mean" suggestions on misspelt keywords.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// "Not a command/action" with a suggestion when the word is a near miss of a keyword.
/// `top_level`: the word started a command (not a line inside an activation).
fn unknown_word(line: usize, text: &str, kw: &str, top_level: bool) -> OrderError {
    let words = ACTION_WORDS.iter().chain(TOP_LEVEL[..11].iter());
    // Short words tolerate one typo, longer ones two, so `fire` does not become `first`.
    let limit = if kw.chars().count() <= 4 { 1 } else { 2 };
    let best = words
        .map(|w| (distance(kw, w), *w))
        .min()
        .filter(|(d, _)| *d <= limit);
    let shown: String = kw.chars().take(40).collect();
    let what = if top_level {
        format!("a command ({COMMAND_LIST})")
    } else {
        "an action (move, attack, sustained, skill, nothing)".to_string()
    };
    match best {
        Some((_, w)) => {
            let rest = text
                .split_once(char::is_whitespace)
                .map(|(_, r)| r.trim())
                .unwrap_or("");
            let mut instead = if rest.is_empty() {
                w.to_string()
            } else {
                format!("{w} {rest}")
            };
            if top_level && ACTION_WORDS.contains(&w) {
                instead = format!("{EXAMPLE}\n  {instead}");
            }
            err(
                line,
                format!("`{shown}` is not {what}: did you mean `{w}`?"),
                instead,
            )
        }
        None => err(
            line,
            format!("`{shown}` is not {what}"),
            if top_level {
                format!("{EXAMPLE}\n  move C4")
            } else {
                "move C4".into()
            },
        ),
    }
}

/// The unit of an `activate` line.
fn activation_unit(head: &Line, text: &str) -> Result<String, OrderError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        // `activate hotdog:` reads naturally too.
        [_, u] => id(u.trim_end_matches(':')).ok_or_else(|| {
            err(
                head.number,
                format!("`{u}` is not a unit id (letters, digits, - and _)"),
                EXAMPLE,
            )
        }),
        [_] => Err(err(
            head.number,
            "`activate` needs the unit to activate",
            EXAMPLE,
        )),
        [_, u, next, ..] if ACTION_WORDS.contains(&next.to_ascii_lowercase().as_str()) => Err(err(
            head.number,
            format!("put each action on its own line after `activate {u}`"),
            format!(
                "activate {}\n  {}",
                u.trim_end_matches(':').to_ascii_lowercase(),
                words[2..].join(" ")
            ),
        )),
        _ => Err(err(head.number, "`activate` takes one unit id", EXAMPLE)),
    }
}

/// An activation, or every error in it: its `activate` line's and each bad action line's.
fn parse_activation(
    head: &Line,
    text: &str,
    body: &[&Line],
    board: &Board,
) -> Result<Parsed, Vec<OrderError>> {
    let last_line = body.last().map(|l| l.number).unwrap_or(head.number);
    let (unit, mut errors) = match activation_unit(head, text) {
        Ok(unit) => (unit, Vec::new()),
        Err(e) => ("the unit".to_string(), vec![e]),
    };
    if errors.is_empty() && body.is_empty() {
        return Err(vec![err(
            head.number,
            format!(
                "`activate {unit}` has no actions: give its actions on the next lines, \
                or `nothing`"
            ),
            format!("activate {unit}\n  nothing"),
        )]);
    }
    // Every bad action line is reported at once (issue 16 item 4), not only the first.
    let mut actions = Vec::new();
    for l in body {
        match parse_action(l.number, strip(&l.text), board) {
            Ok(a) => actions.push(a),
            Err(mut e) => {
                e.reason = format!(
                    "in the activation of {unit} (line {}): {}",
                    head.number, e.reason
                );
                errors.push(e);
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Parsed {
        first_line: head.number,
        last_line,
        command: Command::Activate { unit, actions },
    })
}

/// `<unit>: <model> …` (the colon may touch the unit or stand alone).
fn casualty_list(line: usize, rest: &str, word: &str) -> Result<(String, Vec<String>), OrderError> {
    let ex = format!("{word} grenadiers: 3 2");
    let Some((unit, models)) = rest.split_once(':') else {
        return Err(err(
            line,
            format!("`{word}` needs a colon between the unit and its models"),
            ex,
        ));
    };
    let unit = id(unit.trim()).ok_or_else(|| {
        err(
            line,
            format!("`{}` is not a unit id", unit.trim()),
            ex.clone(),
        )
    })?;
    let models = models
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(|m| id(m).ok_or_else(|| err(line, format!("`{m}` is not a model id"), ex.clone())))
        .collect::<Result<Vec<_>, _>>()?;
    if models.is_empty() {
        return Err(err(
            line,
            format!("`{word} {unit}:` names no models"),
            format!("{word} {unit}: 3 2"),
        ));
    }
    Ok((unit, models))
}

fn parse_single(line: usize, text: &str, kw: &str) -> Result<Command, OrderError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let rest = text
        .split_once(char::is_whitespace)
        .map(|(_, r)| r.trim())
        .unwrap_or("");
    let one_id = |ex: &str, what: &str| -> Result<String, OrderError> {
        match words.as_slice() {
            [_, w] => id(w).ok_or_else(|| err(line, format!("`{w}` is not {what}"), ex)),
            [_] => Err(err(line, format!("`{kw}` needs {what}"), ex)),
            _ => Err(err(
                line,
                format!("`{kw}` takes only {what}, found `{rest}`"),
                ex,
            )),
        }
    };
    let bare = |cmd: Command, ex: &str| -> Result<Command, OrderError> {
        let full: Vec<&str> = ex.split(' ').collect();
        if lower == full {
            Ok(cmd)
        } else {
            Err(err(
                line,
                format!("`{text}` is not understood: write `{ex}`"),
                ex,
            ))
        }
    };
    match kw {
        "first" => Ok(Command::First {
            side: one_id("first allies", "a side id")?,
        }),
        "react" => {
            // battlefront-2013: `react <unit> turn|sustained` (issue 18, R255).
            if let [_, u, c] = words.as_slice() {
                let choice = crate::dust_tactics::battlefront::react_choice::TwoArmy::parse(c);
                if let Some(choice) = choice {
                    return match id(u).filter(|u| u != "none") {
                        Some(unit) => Ok(Command::ReactChoosing { unit, choice }),
                        None => Err(err(
                            line,
                            format!("`{u}` is not a unit id: `react <unit> {}` names the unit that reacts", choice.word()),
                            "react rangers turn",
                        )),
                    };
                }
            }
            let unit = one_id("react rangers", "a unit id (or `none`)")?;
            Ok(Command::React {
                unit: (unit != "none").then_some(unit),
            })
        }
        "retaliate" => {
            let (unit, answer) = match lower.as_slice() {
                [_, a] => (None, a.as_str()),
                [_, u, a] => (id(u), a.as_str()),
                _ => (None, ""),
            };
            let bad = matches!(lower.as_slice(), [_, u, _] if id(u).is_none());
            match answer {
                "yes" | "no" if !bad => Ok(Command::Retaliate {
                    unit,
                    yes: answer == "yes",
                }),
                _ => Err(err(
                    line,
                    "`retaliate` is answered `retaliate yes` or `retaliate no` (optionally naming your unit: `retaliate rangers yes`)",
                    "retaliate yes",
                )),
            }
        }
        "casualties" => {
            let (unit, models) = casualty_list(line, rest, "casualties")?;
            Ok(Command::Casualties { unit, models })
        }
        "concede" => bare(Command::Concede, "concede"),
        "offer" => bare(Command::OfferDraw, "offer draw"),
        "accept" => bare(Command::AcceptDraw, "accept draw"),
        "standing" => parse_standing(line, &words, rest),
        // 003 "Passing": the game refuses it under the rulesets without it.
        "pass" => bare(Command::Pass, "pass"),
        _ if ACTION_WORDS.contains(&kw) => Err(err(
            line,
            format!("`{kw}` is an action: it must follow an `activate <unit>` line"),
            format!("{EXAMPLE}\n  {text}"),
        )),
        _ => Err(unknown_word(line, text, kw, true)),
    }
}
