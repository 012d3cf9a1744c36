//! Mails and pages for people. Every mail the referee sends is a template pair in `templates/`
//! (`<name>.txt` and `<name>.html`, minijinja) rendered from one JSON context, so both parts say
//! the same thing; a home may override any file with `template_dir` in config.toml.
//!
//! The context of a report is built from the game's JSON view and the ledger (happenings with
//! their dice, per event id), never from the engine's internals. The board picture, the roster and the standing
//! orders are the game's own (`Game::picture`, `Game::roster`, `Game::standing`): a report asks
//! for them and never reads a game's model.

use crate::game::{Awaiting, GameResult, Happening, Png, Roll};
use crate::ledger::{self, Entry, Event};
use crate::outbox::Attachment;
use crate::pbem::{edges::Edges, error::RefereeError, replay::DiceMode, store::Loaded};
use crate::registry::AnyGame;
use minijinja::Environment;
use serde::Serialize;
use serde_json::{json, Value};
use std::path::Path;

/// Text templates (file `templates/<name>.txt`).
pub const TEMPLATES: [(&str, &str); 7] = [
    ("welcome", include_str!("../../templates/welcome.txt")),
    ("receipt", include_str!("../../templates/receipt.txt")),
    ("refusal", include_str!("../../templates/refusal.txt")),
    ("report", include_str!("../../templates/report.txt")),
    ("reminder", include_str!("../../templates/reminder.txt")),
    ("end", include_str!("../../templates/end.txt")),
    ("control", include_str!("../../templates/control.txt")),
];

/// HTML templates (file `templates/<name>.html`): the mails' HTML parts and the replay page.
pub const HTML_TEMPLATES: [(&str, &str); 8] = [
    ("welcome", include_str!("../../templates/welcome.html")),
    ("receipt", include_str!("../../templates/receipt.html")),
    ("refusal", include_str!("../../templates/refusal.html")),
    ("report", include_str!("../../templates/report.html")),
    ("reminder", include_str!("../../templates/reminder.html")),
    ("end", include_str!("../../templates/end.html")),
    ("control", include_str!("../../templates/control.html")),
    ("replay", include_str!("../../templates/replay.html")),
];

/// Content-ID of the board picture shown inline in HTML mails.
pub const BOARD_CID: &str = "board@dustmail";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("template {name}: {msg}")]
pub struct TemplateError {
    pub name: String,
    pub msg: String,
}

/// The templates of a home: built-ins, each replaced by `<dir>/<file>` when it exists.
pub struct Templates {
    env: Environment<'static>,
}

fn load(dir: Option<&Path>, file: &str, builtin: &str) -> Result<String, TemplateError> {
    match dir.map(|d| d.join(file)) {
        Some(p) if p.exists() => std::fs::read_to_string(&p).map_err(|e| TemplateError {
            name: file.into(),
            msg: format!("cannot read {}: {e}", p.display()),
        }),
        _ => Ok(builtin.to_string()),
    }
}

impl Templates {
    pub fn new(override_dir: Option<&Path>) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        // `{{ x|pad(12) }}`: left-aligned in a column, for the fixed-width text parts; a value
        // as wide as its column or wider ("off board" in the roster) still gets one space, so
        // it never runs into the next column.
        env.add_filter("pad", |v: minijinja::Value, width: usize| {
            let s = v.to_string();
            let n = s.chars().count();
            format!("{s}{}", " ".repeat(width.saturating_sub(n).max(1)))
        });
        // `{{ a.deadline|when(now) }}`: a deadline to the minute with the time left, counted
        // from the run's clock (`now`, which every mail's context carries).
        // The reader's time zone, when they set one (`tz` in the context), shows it in that
        // zone (src/edges/when.rs).
        env.add_filter(
            "when",
            |state: &minijinja::State, v: minijinja::Value, now: Option<String>| -> String {
                let tz = state
                    .lookup("tz")
                    .filter(|z| !z.is_none() && !z.is_undefined());
                let tz = tz.as_ref().and_then(|z| z.as_str());
                crate::edges::when::when_in_zone(&v.to_string(), now.as_deref(), tz)
            },
        );
        // `{{ h.text|wrap(5) }}`: a sentence wrapped at spaces so that, printed after a prefix
        // of `indent` characters, no line passes 72 characters (issue 16 item 1); the next
        // lines are indented by `indent` spaces. A word longer than a line stays whole.
        env.add_filter("wrap", |v: minijinja::Value, indent: usize| -> String {
            wrap_text(&v.to_string(), indent, MAIL_WIDTH)
        });
        // `{{ roll|dice }}`: the faces of a roll, each with its mark when the game gives them
        // (`[2 hit] [5 miss]`, see `mark_dice`), else bare (`2 5`).
        env.add_filter("dice", |roll: minijinja::Value| -> String {
            dice_text(&serde_json::to_value(&roll).unwrap_or_default())
        });
        // Text templates are registered under their bare name (no escaping); HTML ones as
        // `<name>.html`, which minijinja auto-escapes.
        let files = TEMPLATES
            .iter()
            .map(|(n, t)| (n.to_string(), format!("{n}.txt"), *t))
            .chain(
                HTML_TEMPLATES
                    .iter()
                    .map(|(n, t)| (format!("{n}.html"), format!("{n}.html"), *t)),
            );
        for (key, file, builtin) in files {
            let text = load(override_dir, &file, builtin)?;
            env.add_template_owned(key, text)
                .map_err(|e| TemplateError {
                    name: file.clone(),
                    msg: format!("{e}: fix the template file"),
                })?;
        }
        Ok(Templates { env })
    }

    fn render_key(&self, key: &str, ctx: &Value) -> Result<String, TemplateError> {
        let t = self.env.get_template(key).map_err(|e| TemplateError {
            name: key.into(),
            msg: e.to_string(),
        })?;
        t.render(minijinja::Value::from(minijinja::value::Serde(ctx)))
            .map_err(|e| TemplateError {
                name: key.into(),
                msg: format!("{e}: fix the template file"),
            })
    }

    /// Renders the text template `name` with a JSON context.
    pub fn render(&self, name: &str, ctx: &Value) -> Result<String, TemplateError> {
        self.render_key(name, ctx)
    }

    /// Renders the HTML template `name` (`templates/<name>.html`) with the same context.
    pub fn render_html(&self, name: &str, ctx: &Value) -> Result<String, TemplateError> {
        self.render_key(&format!("{name}.html"), ctx)
    }
}

/// The `Ledger-Head:` line a player can keep as proof of what the ledger said.
pub fn ledger_head_line(game: &str, seq: u64, hash: &str) -> String {
    format!("Ledger-Head: {game} {seq} {hash}")
}

/// Appends the ledger-head line and its signature to a mail text.
pub fn with_ledger_head(text: &str, head_line: &str, sig: &str) -> String {
    let mut t = text.trim_end().to_string();
    t.push_str("\n\n-- \n");
    t.push_str(head_line);
    t.push('\n');
    t.push_str("Ledger-Head-Signature: ");
    t.push_str(sig);
    t.push('\n');
    t
}

/// The same two lines at the foot of an HTML part (before `</body>` when there is one).
pub fn html_with_ledger_head(html: &str, head_line: &str, sig: &str) -> String {
    let foot = format!(
        "<p style=\"font-family:monospace;font-size:11px;color:#777;word-break:break-all\">{}<br>Ledger-Head-Signature: {}</p>\n",
        escape(head_line),
        escape(sig)
    );
    match html.rfind("</body>") {
        Some(i) => format!("{}{foot}{}", &html[..i], &html[i..]),
        None => format!("{html}{foot}"),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The faces of a roll in a text mail: `[2 hit] [5 miss]` with marks, `2 5` without.
pub fn dice_text(roll: &Value) -> String {
    let faces: Vec<String> = roll
        .get("faces")
        .and_then(Value::as_array)
        .map(|f| f.iter().map(|x| x.to_string()).collect())
        .unwrap_or_default();
    let marks: Vec<&str> = roll
        .get("marks")
        .and_then(Value::as_array)
        .map(|m| m.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if marks.len() != faces.len() || faces.is_empty() {
        return faces.join(" ");
    }
    faces
        .iter()
        .zip(marks)
        .map(|(f, m)| format!("[{f} {m}]"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Times for people (moved to src/edges/when.rs with the reader's time zone).
pub use crate::edges::when::when_text;

/// A game result in words: who won (or a draw), why, and the points.
pub fn result_text(r: &GameResult) -> String {
    let pts: Vec<String> = r.points.iter().map(|(s, p)| format!("{s} {p}")).collect();
    match &r.winner {
        Some(w) => format!("{w} wins ({}); points: {}", r.reason, pts.join(", ")),
        None => format!("a draw ({}); points: {}", r.reason, pts.join(", ")),
    }
}

// ---------------------------------------------------------------------------------------------
// Report contexts.

/// One ledger step as reports tell it: its event id (ledger line), what it was, what happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepReport {
    pub event_id: u64,
    pub what: String,
    pub happenings: Vec<Happening>,
}

/// The happenings a reader may see (DESIGN §2): `side` and `player` (address) are the reader's;
/// a reader with neither is the referee and sees all. An observer passes only their address.
pub fn visible(hs: &[Happening], side: Option<&str>, player: Option<&str>) -> Vec<Happening> {
    hs.iter()
        .filter(|h| h.audience.includes(side, player))
        .cloned()
        .collect()
}

/// The steps as one reader may see them ([`visible`]).
pub fn steps_for(
    steps: &[StepReport],
    side: Option<&str>,
    player: Option<&str>,
) -> Vec<StepReport> {
    steps
        .iter()
        .map(|s| StepReport {
            happenings: visible(&s.happenings, side, player),
            ..s.clone()
        })
        .collect()
}

/// A step's happenings for templates, each roll with its purpose, round key and faces.
fn happenings_json(hs: &[Happening]) -> Vec<Value> {
    hs.iter()
        .map(|h| {
            let rolls: Vec<Value> = h
                .rolls
                .iter()
                .map(|r| json!({"purpose": r.purpose, "round": r.round, "faces": r.faces}))
                .collect();
            json!({"text": h.text, "rolls": rolls})
        })
        .collect()
}

/// Adds to every roll of a template context (an object with `purpose`, `round` and `faces`)
/// what each face shows in the game (`Game::die_marks`, read with the reader's `view`), as
/// `marks`: the templates show `[2 hit] [5 miss]`, or the bare faces when a game says nothing.
pub fn mark_dice(ctx: &mut Value, game: &dyn AnyGame, view: &Value) {
    match ctx {
        Value::Array(items) => items.iter_mut().for_each(|v| mark_dice(v, game, view)),
        Value::Object(m) => {
            let roll = match (m.get("purpose"), m.get("round"), m.get("faces")) {
                (Some(Value::String(p)), Some(r), Some(Value::Array(f))) => Some(Roll {
                    purpose: p.clone(),
                    round: r.as_u64().and_then(|r| u32::try_from(r).ok()).unwrap_or(0),
                    faces: f
                        .iter()
                        .filter_map(|x| x.as_u64().and_then(|x| u8::try_from(x).ok()))
                        .collect(),
                }),
                _ => None,
            };
            match roll {
                Some(roll) => {
                    let marks = game.die_marks(view, &roll);
                    // A mark per face or none: never a face beside another face's mark.
                    if marks.len() == roll.faces.len() {
                        m.insert("marks".into(), json!(marks));
                    }
                }
                None => m.values_mut().for_each(|v| mark_dice(v, game, view)),
            }
        }
        _ => {}
    }
}

fn steps_json(steps: &[StepReport]) -> Vec<Value> {
    steps
        .iter()
        .map(|s| json!({"event_id": s.event_id, "what": s.what, "happenings": happenings_json(&s.happenings)}))
        .collect()
}

/// What a report says, before it becomes a template context.
pub struct ReportInput<'a> {
    pub game: &'a str,
    /// The reader's side (`None`: the referee or a spectator).
    pub side: Option<&'a str>,
    /// `Game::view` as the reader may see it.
    pub view: &'a Value,
    pub board_text: String,
    pub round: u32,
    /// The ledger line the report follows.
    pub ledger_seq: u64,
    /// What that line was ("orders of side allies").
    pub event: String,
    /// Every step since the reader's last report, oldest first.
    pub steps: Vec<StepReport>,
    pub revealed: Vec<(u32, String)>,
    pub awaiting: Vec<Awaiting>,
    pub deadline: Option<String>,
    pub finished: Option<GameResult>,
    /// The seed secret S, revealed at the end.
    pub secret: Option<String>,
    pub template: String,
    pub next_seq: u64,
    /// The game's roster rows and the reader's standing orders (`Game::roster`,
    /// `Game::standing`).
    pub roster: Vec<Value>,
    pub standing: Vec<String>,
}

/// The shared context of the text and HTML report (and end) templates.
pub fn report_context(r: &ReportInput) -> Value {
    let happenings: Vec<Value> = r
        .steps
        .iter()
        .flat_map(|s| happenings_json(&s.happenings))
        .collect();
    let awaiting: Vec<Value> = r
        .awaiting
        .iter()
        .map(|a| {
            json!({"side": a.side, "decision": a.decision, "deadline": r.deadline,
                        "you": Some(a.side.as_str()) == r.side})
        })
        .collect();
    let result = r.finished.as_ref().map(|f| {
        let points: Vec<Value> = f
            .points
            .iter()
            .map(|(s, p)| json!({"side": s, "points": p}))
            .collect();
        json!({"winner": f.winner, "reason": f.reason, "points": points})
    });
    json!({
        "game": r.game,
        "side": r.side,
        "round": r.round,
        "rounds": r.view.get("rounds"),
        "title": r.view.get("title"),
        "scenario": r.view.get("scenario"),
        "ledger_seq": r.ledger_seq,
        "event": r.event,
        "board": r.board_text,
        "roster": r.roster,
        "steps": steps_json(&r.steps),
        "happenings": happenings,
        "revealed": r.revealed.iter().map(|(round, key)| json!({"round": round, "key": key})).collect::<Vec<_>>(),
        "awaiting": awaiting,
        "deadline": r.deadline,
        "finished": r.finished.as_ref().map(result_text),
        "result": result,
        "secret": r.secret,
        "next_seq": r.next_seq,
        "template": r.template,
        "standing": r.standing,
        "board_img": Value::Null,
    })
}

// ---------------------------------------------------------------------------------------------
// The board picture from a view.

/// The inline board picture of a mail, and the same PNG attached for clients that hide inline
/// images.
pub fn board_attachments(png: &[u8], name: &str) -> Vec<Attachment> {
    vec![
        Attachment {
            filename: name.to_string(),
            content_type: "image/png".into(),
            bytes: png.to_vec(),
            inline_cid: Some(BOARD_CID.into()),
        },
        Attachment {
            filename: name.to_string(),
            content_type: "image/png".into(),
            bytes: png.to_vec(),
            inline_cid: None,
        },
    ]
}

/// A mail's board picture: the `board_img` context value (shown by `cid:`) and the PNG inline
/// and attached. `None` when the game draws no picture of this view: the mail then carries the
/// text board only.
pub fn mail_picture(
    game: &dyn AnyGame,
    view: &Value,
    side: Option<&str>,
    happenings: &[Happening],
    file_name: &str,
) -> Option<(Value, Vec<Attachment>)> {
    let png = game.picture(view, side, happenings)?;
    Some((
        board_img(&format!("cid:{BOARD_CID}"), &png),
        board_attachments(&png.bytes, file_name),
    ))
}

/// The `board_img` context value: where the HTML finds the picture and its size.
pub fn board_img(src: &str, png: &Png) -> Value {
    json!({"src": src, "width": png.width, "height": png.height})
}

/// A PNG as a `data:` URI, for pages that must carry their pictures (show --format html).
pub fn data_uri(png: &[u8]) -> String {
    use base64::Engine as _;
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    )
}

// ---------------------------------------------------------------------------------------------
// Ledger steps.

/// What a step's first line was, in words.
pub fn event_text(e: &Event) -> Option<String> {
    match e {
        Event::Submission(s) if s.accepted => Some(format!("orders of side {}", s.side)),
        Event::Deadline(d) => Some(format!(
            "deadline passed: defaults applied for side {}",
            d.side
        )),
        // A control whose step ran lines held for a battle fought elsewhere (R340).
        Event::Control(c) if c.step.is_some() => {
            Some("the referee's decision: the lines held for the battle ran".into())
        }
        _ => None,
    }
}

/// The ledger's reported steps: each accepted submission or deadline with the round ends and
/// the end of the game that follow it, as index ranges into `entries`.
pub fn step_ranges(entries: &[Entry]) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        match &e.event {
            Event::Submission(_) | Event::Deadline(_) | Event::Control(_)
                if event_text(&e.event).is_some() =>
            {
                out.push(i..i + 1)
            }
            Event::RoundEnd(_) | Event::Finished(_) => {
                if let Some(last) = out.last_mut() {
                    if last.end == i {
                        last.end = i + 1;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The report of one step group.
pub fn step_report(entries: &[Entry]) -> Option<StepReport> {
    let first = entries.first()?;
    let what = event_text(&first.event)?;
    let happenings = match &first.event {
        Event::Submission(s) => s.step.happenings.clone(),
        Event::Deadline(d) => d.step.happenings.clone(),
        Event::Control(c) => c
            .step
            .as_ref()
            .map(|s| s.happenings.clone())
            .unwrap_or_default(),
        _ => vec![],
    };
    Some(StepReport {
        event_id: first.seq,
        what,
        happenings,
    })
}

/// `show`: the report a side (or the referee) would get now, about the last step.
pub fn show_context(
    game: &dyn AnyGame,
    g: &Loaded,
    side: Option<&str>,
) -> Result<(Value, Vec<Happening>, Value), RefereeError> {
    let entries = ledger::read_all(g.ledger.path())?;
    let ranges = step_ranges(&entries);
    let last = ranges.last().cloned().unwrap_or(0..0);
    let group = entries.get(last.clone()).unwrap_or(&[]);
    // `show --as SIDE` shows what that side's report shows; without `--as`, the referee's all.
    let steps: Vec<StepReport> = steps_for(
        &step_report(group).into_iter().collect::<Vec<_>>(),
        side,
        None,
    );
    let seq = group.first().map(|e| e.seq).unwrap_or(1);
    let revealed = revealed_of(group);
    let finished = g.derived.finished.clone();
    let secret = group.iter().find_map(|e| match &e.event {
        Event::Finished(f) => Some(f.secret.clone()),
        _ => None,
    });
    let view = game.view(&g.derived.state, side);
    let happenings: Vec<Happening> = steps.iter().flat_map(|s| s.happenings.clone()).collect();
    let mut ctx = report_context(&ReportInput {
        game: &g.id,
        side,
        view: &view,
        board_text: game.board_text(&g.derived.state),
        round: game.round(&g.derived.state),
        ledger_seq: seq,
        event: steps
            .first()
            .map(|s| s.what.clone())
            .unwrap_or_else(|| "game created".into()),
        steps,
        revealed,
        awaiting: game.awaiting(&g.derived.state),
        deadline: crate::pbem::control::deadline_of(&g.created, &g.derived).map(|d| d.to_rfc3339()),
        finished,
        secret,
        template: match side {
            Some(s) if g.derived.finished.is_none() => game.orders_template(&g.derived.state, s),
            _ => String::new(),
        },
        next_seq: side
            .map(|s| g.derived.last_seq.get(s).copied().unwrap_or(0) + 1)
            .unwrap_or(1),
        roster: game.roster(&view),
        standing: game.standing(&view, side),
    });
    mark_dice(&mut ctx, game, &view);
    Ok((ctx, happenings, view))
}

/// The round keys revealed by a group of ledger lines.
pub fn revealed_of(entries: &[Entry]) -> Vec<(u32, String)> {
    entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::RoundEnd(r) => Some((r.round, r.key.clone())),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The replay page.

/// The widest line a text mail should have (issue 16 item 1: clients wrap longer ones, which
/// breaks signatures of quoted orders and tables).
pub const MAIL_WIDTH: usize = 72;

/// `text` broken at spaces into lines that fit `width`, its first line printed after a prefix
/// of `indent` characters; a broken line goes on `indent` spaces further in (plus its own
/// leading spaces). Lines of `text` itself (an orders suggestion) keep their own start.
pub fn wrap_text(text: &str, indent: usize, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    for (n, raw) in text.split('\n').enumerate() {
        let body = raw.trim_start_matches(' ');
        let lead = raw.len() - body.len();
        let mut col = if n == 0 { indent } else { 0 } + lead;
        let mut line = " ".repeat(lead);
        let mut empty = true;
        for word in bracketed_words(body) {
            let word = word.as_str();
            let len = word.chars().count();
            if !empty && col + 1 + len > width {
                lines.push(std::mem::replace(&mut line, " ".repeat(indent + lead)));
                col = indent + lead;
                empty = true;
            }
            if !empty {
                line.push(' ');
                col += 1;
            }
            line.push_str(word);
            col += len;
            empty = false;
        }
        lines.push(line);
    }
    lines.join("\n")
}

/// The words of a line, a die in brackets (`[1 hit]`) kept as one: a line never ends
/// between a face and its mark.
fn bracketed_words(line: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut open = false;
    for w in line.split(' ').filter(|w| !w.is_empty()) {
        match words.last_mut() {
            // A stray `[` never glues more than a die's width of text.
            Some(last) if open && last.len() + w.len() < 24 => {
                last.push(' ');
                last.push_str(w);
                open = !w.contains(']');
            }
            _ => {
                words.push(w.to_string());
                open = w.starts_with('[') && !w.contains(']');
            }
        }
    }
    words
}

/// The items of a text list wrapped at 72 columns (`- ` starts an item, indented lines go on
/// with it), each on one line again: the HTML parts let the reader's screen wrap them.
pub fn bullet_items(text: &str) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    for line in text.lines() {
        match (line.strip_prefix("- "), items.last_mut()) {
            (None, Some(last)) if !line.trim().is_empty() => {
                last.push(' ');
                last.push_str(line.trim());
            }
            (Some(item), _) => items.push(item.trim().to_string()),
            _ => items.push(line.trim().to_string()),
        }
    }
    items.retain(|i| !i.is_empty());
    items
}

/// `replay GAME --html FILE`: one self-contained page stepping through the whole game, round by
/// round and activation by activation, with the board (inline SVG) after each step and every die.
/// Without scripts it reads as one long page; its script turns it into a stepper (previous,
/// next, arrow keys, a slider) that folds the steps where nothing visible happened.
pub fn replay_page(
    game: &dyn AnyGame,
    edges: &Edges,
    g: &Loaded,
    templates: &Templates,
) -> Result<String, RefereeError> {
    let entries = ledger::read_all(g.ledger.path())?;
    let mut frames: Vec<Value> = Vec::new();
    let ranges = step_ranges(&entries);
    // One replay for the whole page: the view and round once the `created` line made the game
    // (n = 1) and after each step's last line.
    let mut ends: std::collections::BTreeSet<usize> = ranges.iter().map(|r| r.end).collect();
    ends.insert(1);
    let mut after: std::collections::BTreeMap<usize, (Value, u32)> = Default::default();
    crate::pbem::replay::replay_observed(
        game,
        edges,
        "log.jsonl",
        &entries,
        DiceMode::Recorded,
        &mut |n, d| {
            if ends.contains(&n) {
                after.insert(n, (game.view(&d.state, None), game.round(&d.state)));
            }
        },
    )?;
    if let Some((v, _)) = after.remove(&1) {
        let svg = game.picture_svg(&v, None, &[]);
        frames.push(
            json!({"n": 0, "event_id": 1, "what": "the game is created", "round": v.get("round"),
                           "happenings": [], "revealed": [], "svg": svg, "roster": game.roster(&v)}),
        );
    }
    // After the end every hidden value is revealed (H), so the page shows every happening.
    let over = g.derived.finished.is_some();
    for r in ranges {
        let Some(group) = entries.get(r.clone()) else {
            continue;
        };
        let Some(step) = step_report(group) else {
            continue;
        };
        let Some((view, state_round)) = after.remove(&r.end) else {
            continue;
        };
        let mut step = step;
        if !over {
            // Until the game is over, the page is a spectator's: what only one player (or
            // the referee) may read stays out of it, hidden cards above all (DESIGN §5).
            step.happenings
                .retain(|h| h.audience == crate::game::Audience::Everyone);
        }
        let svg = game.picture_svg(&view, None, &step.happenings);
        let revealed: Vec<Value> = revealed_of(group)
            .into_iter()
            .map(|(round, key)| json!({"round": round, "key": key}))
            .collect();
        let round = match &group.first().map(|e| &e.event) {
            Some(Event::Submission(s)) => s.round,
            Some(Event::Deadline(d)) => d.round,
            _ => state_round,
        };
        frames.push(json!({
            "n": frames.len(), "event_id": step.event_id, "what": step.what, "round": round,
            "happenings": happenings_json(&step.happenings), "revealed": revealed,
            "svg": svg, "roster": game.roster(&view),
        }));
    }
    let count = frames.len();
    // Identical boards are drawn once: a frame whose picture an earlier frame already drew
    // points at that frame's board (`board_of`), so a long game's page stays small.
    let mut first_of: std::collections::BTreeMap<String, usize> = Default::default();
    for (i, f) in frames.iter_mut().enumerate() {
        if let Value::Object(m) = f {
            m.insert("prev".into(), json!(i.checked_sub(1)));
            m.insert(
                "next".into(),
                json!(if i + 1 < count { Some(i + 1) } else { None }),
            );
            // A step that changed nothing a reader can see is folded by the stepper.
            let quiet = i > 0
                && m.get("happenings")
                    .and_then(Value::as_array)
                    .is_none_or(|h| h.is_empty())
                && m.get("revealed")
                    .and_then(Value::as_array)
                    .is_none_or(|r| r.is_empty());
            m.insert("quiet".into(), json!(quiet));
            let svg = m
                .get("svg")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            if svg.is_empty() {
                continue;
            }
            match first_of.get(&svg) {
                Some(&j) => {
                    m.insert("svg".into(), Value::Null);
                    m.insert("board_of".into(), json!(j));
                }
                None => {
                    first_of.insert(svg, i);
                    m.insert("board_of".into(), json!(i));
                }
            }
        }
    }
    let mut rounds: Vec<Value> = Vec::new();
    for f in frames.iter().skip(1) {
        let r = f.get("round").cloned().unwrap_or(Value::Null);
        if rounds.last().and_then(|x| x.get("round")) != Some(&r) {
            rounds.push(json!({"round": r, "first": f.get("n")}));
        }
    }
    let finished = g.derived.finished.clone();
    let secret = entries.iter().find_map(|e| match &e.event {
        Event::Finished(f) => Some(f.secret.clone()),
        _ => None,
    });
    let ctx = json!({
        "game": g.id,
        "title": game.view(&g.derived.state, None).get("title"),
        "scenario": g.created.setup.scenario_name,
        "ruleset": g.created.ruleset,
        "commitment": g.created.commitment,
        "players": g.created.players.iter().map(|p| json!({"side": p.side})).collect::<Vec<_>>(),
        "frames": frames,
        "rounds": rounds,
        "finished": finished.as_ref().map(result_text),
        "secret": secret,
        "lines": entries.len(),
        "boards": first_of.len(),
        "quiet": frames.iter().filter(|f| f.get("quiet") == Some(&json!(true))).count(),
    });
    templates
        .render_html("replay", &ctx)
        .map_err(|e| RefereeError::Usage(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::{when_text, wrap_text};

    #[test]
    fn sentences_wrap_within_the_mail_width_after_their_prefix() {
        let t = "round 1 initiative: allies 1 hit(s) on 3 dice, axis 1 hit(s) on 3 dice; tie, re-roll: allies 1 hit(s) on 3 dice";
        let w = wrap_text(t, 5, 72);
        for (i, l) in w.lines().enumerate() {
            let shown = if i == 0 { 5 } else { 0 } + l.chars().count();
            assert!(shown <= 72, "{l}");
        }
        assert!(w
            .lines()
            .skip(1)
            .all(|l| l.starts_with("     ") && !l.starts_with("      ")));
        assert_eq!(
            w.split_whitespace().collect::<Vec<_>>(),
            t.split_whitespace().collect::<Vec<_>>()
        );
        assert_eq!(wrap_text("short", 5, 72), "short");
        // An orders suggestion keeps its own lines.
        assert_eq!(
            wrap_text("activate rangers\n  move C4", 14, 72),
            "activate rangers\n  move C4"
        );
    }

    #[test]
    fn deadlines_read_to_the_minute_with_the_time_left() {
        let at = "2026-11-26T18:31:07.313078766+00:00";
        let now = |t: &str| when_text(at, Some(t));
        assert_eq!(
            now("2026-11-24T15:20:00Z"),
            "2026-11-26 18:31 UTC (in 2 days 3 hours)"
        );
        assert_eq!(
            now("2026-11-25T18:31:07Z"),
            "2026-11-26 18:31 UTC (in 1 day)"
        );
        assert_eq!(
            now("2026-11-26T13:00:00Z"),
            "2026-11-26 18:31 UTC (in 5 hours 31 minutes)"
        );
        assert_eq!(
            now("2026-11-26T18:30:00Z"),
            "2026-11-26 18:31 UTC (in 1 minute)"
        );
        assert_eq!(
            now("2026-11-26T18:31:00Z"),
            "2026-11-26 18:31 UTC (in less than a minute)"
        );
        assert_eq!(
            now("2026-11-26T21:40:00Z"),
            "2026-11-26 18:31 UTC (3 hours 8 minutes ago)"
        );
        // Another offset is shown in UTC; no clock, no time left; not a time, as it is.
        assert_eq!(
            when_text("2026-11-26T19:31:00+01:00", None),
            "2026-11-26 18:31 UTC"
        );
        assert_eq!(when_text("soon", Some("2026-11-26T13:00:00Z")), "soon");
    }
}
