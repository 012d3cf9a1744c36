//! Dust Tactics' own presentation for the reports (DESIGN §2: a game owns its presentation):
//! the roster rows, the standing-order lines and the board picture, all read from the game's
//! view, the picture's paths and lines of fire from its typed events.

use super::event::DtEvent;
use super::model::{Board, Square, UnitType};
use super::picture::{FireLine, Picture, UnitMarker};
use crate::game::{Happening, Png};
use serde_json::{json, Value};

fn str_of<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

/// Every unit of the view as a roster line: where, models or health left, ammo, skills used,
/// activated this round or not.
pub fn roster(view: &Value) -> Vec<Value> {
    let Some(units) = view.get("units").and_then(Value::as_array) else {
        return vec![];
    };
    units
        .iter()
        .map(|u| {
            let destroyed = u.get("destroyed").and_then(Value::as_bool).unwrap_or(false);
            let activated = u.get("activated").and_then(Value::as_bool).unwrap_or(false);
            let squad =
                str_of(u, "unit_type") == "squad" || u.get("models").is_some_and(Value::is_array);
            let strength = if destroyed {
                "destroyed".to_string()
            } else if squad {
                let left = u
                    .get("models")
                    .and_then(Value::as_array)
                    .map(Vec::len)
                    .unwrap_or(0);
                let max = u.get("max_models").and_then(Value::as_u64).unwrap_or(0);
                if max > 0 {
                    format!("{left}/{max} models")
                } else {
                    format!("{left} models")
                }
            } else {
                format!(
                    "{}/{} health",
                    u.get("health").and_then(Value::as_u64).unwrap_or(0),
                    u.get("max_health").and_then(Value::as_u64).unwrap_or(0)
                )
            };
            let square = if destroyed {
                "-".to_string()
            } else if let Some(j) = u.get("joined").and_then(Value::as_str) {
                if u.get("pilots").and_then(Value::as_bool) == Some(true) {
                    format!("piloting {j}")
                } else {
                    format!("with {j}")
                }
            } else if let Some(v) = u.get("aboard").and_then(Value::as_str) {
                format!("aboard {v}")
            } else {
                let sq = u
                    .get("square")
                    .and_then(Value::as_str)
                    .unwrap_or("off board")
                    .to_string();
                // battlefront-2013: the facing beside the square (003 "Facing").
                let sq = match u.get("facing").and_then(Value::as_str) {
                    Some(f) => format!("{sq} {f}"),
                    None => sq,
                };
                match riders(u) {
                    Some(r) => format!("{sq}, carrying {r}"),
                    None => sq,
                }
            };
            let list = |k: &str| -> String {
                u.get(k)
                    .and_then(Value::as_object)
                    .map(|m| {
                        m.iter()
                            .map(|(k, v)| format!("{k} {v}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default()
            };
            json!({
                "id": str_of(u, "id"), "side": str_of(u, "side"), "name": str_of(u, "name"),
                "square": square, "strength": strength, "ammo": list("ammo"),
                "skills_used": list("skills_used"), "activated": activated, "destroyed": destroyed,
            })
        })
        .collect()
}

/// The reader's standing orders, as the commands that would set them (issue 4: shown to their
/// owner only; the view already hides the other sides').
pub fn standing_lines(view: &Value, side: Option<&str>) -> Vec<String> {
    let Some(st) = side.and_then(|s| view.get("standing")?.get(s)) else {
        return vec![];
    };
    let mut out = Vec::new();
    if st["first_ask"] == true {
        out.push("standing first ask".to_string());
    } else if let Some(f) = st["first"].as_str() {
        out.push(format!("standing first {f}"));
    }
    // Policies are stored as yes/never/ask; the commands say auto/never/ask and yes/no/ask.
    let word = |v: &Value, yes: &str| match v.as_str() {
        Some("yes") => yes.to_string(),
        Some("never") if yes == "yes" => "no".to_string(),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    for (unit, p) in st["react"].as_object().into_iter().flatten() {
        out.push(format!("standing react {unit} {}", word(p, "auto")));
    }
    // battlefront-2013: what two army symbols do (R255).
    for (unit, c) in st["react_two_army"].as_object().into_iter().flatten() {
        out.push(format!(
            "standing react {unit} {}",
            c.as_str().unwrap_or("")
        ));
    }
    for (unit, models) in st["casualties"].as_object().into_iter().flatten() {
        let models: Vec<&str> = models
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        out.push(format!("standing casualties {unit}: {}", models.join(" ")));
    }
    for unit in st["casualties_ask"].as_array().into_iter().flatten() {
        if let Some(u) = unit.as_str() {
            out.push(format!("standing casualties {u} ask"));
        }
    }
    for (unit, p) in st["retaliate"].as_object().into_iter().flatten() {
        out.push(format!("standing retaliate {unit} {}", word(p, "yes")));
    }
    out
}

fn square(v: Option<&Value>) -> Option<Square> {
    serde_json::from_value(v?.clone()).ok()
}

/// What a step's happenings draw on the board: the movement path, one line per weapon line
/// fired, and the squares of destroyed units.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Drawing {
    pub path: Vec<Square>,
    pub fire: Vec<FireLine>,
    pub destroyed: Vec<Square>,
}

/// The drawing of `happenings`, from their typed events only: the sentences are for people and
/// may be reworded freely. Happenings without an event (older ledgers) draw nothing.
pub fn drawing(happenings: &[Happening]) -> Drawing {
    let mut d = Drawing::default();
    for e in happenings.iter().filter_map(DtEvent::of) {
        match e {
            // A move that continues the previous one (double move) extends its path.
            DtEvent::Moved { from, path, .. } => {
                if d.path.last() != Some(&from) {
                    d.path = vec![from];
                }
                d.path.extend(path);
            }
            DtEvent::Fired {
                from,
                to,
                hits,
                unit,
                weapon,
                target,
            } => d.fire.push(FireLine {
                from,
                to,
                hit: hits > 0,
                label: format!("{unit}: {weapon} at {target}"),
            }),
            DtEvent::Destroyed { at, .. } => {
                if !d.destroyed.contains(&at) {
                    d.destroyed.push(at);
                }
            }
            DtEvent::Entered { .. } | DtEvent::CoverDestroyed { .. } => {}
        }
    }
    if d.path.len() < 2 {
        d.path.clear();
    }
    d
}

/// The picture of a view, with the movement, lines of fire and destroyed units of
/// `happenings` ([`drawing`]). `None` when the view has no board (a game other than Dust
/// Tactics). No earlier view is needed: the events carry their squares.
pub fn picture(view: &Value, ours: Option<&str>, happenings: &[Happening]) -> Option<Picture> {
    let board: Board = serde_json::from_value(view.get("board")?.clone()).ok()?;
    let mut pic = Picture::new(board);
    pic.sides = view
        .get("sides")
        .and_then(|s| serde_json::from_value(s.clone()).ok())
        .unwrap_or_default();
    pic.ours = ours.map(str::to_string);
    // battlefront-2013: 002's trenches (R717).
    pic.trenches = view
        .get("trenches")
        .and_then(|t| serde_json::from_value(t.clone()).ok())
        .unwrap_or_default();
    // 004 underground: the links between the two boards (R630).
    pic.travel_links = view
        .get("travel_links")
        .and_then(|t| serde_json::from_value(t.clone()).ok())
        .unwrap_or_default();
    pic.fortifications = super::picture::fortifications::Marks::of_view(view);
    let units = view
        .get("units")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for u in &units {
        let destroyed = u.get("destroyed").and_then(Value::as_bool).unwrap_or(false);
        if destroyed || u.get("joined").is_some_and(|j| !j.is_null()) {
            continue;
        }
        let Some(sq) = square(u.get("square")) else {
            continue;
        };
        let unit_type: UnitType = u
            .get("unit_type")
            .and_then(|t| serde_json::from_value(t.clone()).ok())
            .unwrap_or(UnitType::Squad);
        let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0).min(255) as u8;
        let (left, max) = match unit_type {
            UnitType::Squad => (
                u.get("models")
                    .and_then(Value::as_array)
                    .map(Vec::len)
                    .unwrap_or(0)
                    .min(255) as u8,
                n("max_models"),
            ),
            _ => (n("health"), n("max_health")),
        };
        let id = str_of(u, "id");
        // 004 "Carry Capacity": a vehicle's counter names who rides inside.
        // 004 "Moving": the floor or the roof, numbered on the marker (`b@2`; R512, R513).
        let height = u
            .get("height")
            .and_then(|h| serde_json::from_value::<super::floors::Height>(h.clone()).ok())
            .map(|h| h.to_string())
            .unwrap_or_default();
        let label = match riders(u) {
            Some(r) => format!("{id}{height} ({r})"),
            None => format!("{id}{height}"),
        };
        pic.units.push(UnitMarker {
            square: sq,
            side: str_of(u, "side").to_string(),
            label,
            unit_type,
            left,
            max: max.max(left),
            activated: u.get("activated").and_then(Value::as_bool).unwrap_or(false),
            joined_hero: units.iter().any(|h| {
                h.get("joined").and_then(Value::as_str) == Some(id)
                    && !h.get("destroyed").and_then(Value::as_bool).unwrap_or(false)
            }),
            large: u.get("large").and_then(Value::as_bool).unwrap_or(false),
            rear: square(u.get("rear")),
        });
    }
    scenario_marks(view, &mut pic);
    let d = drawing(happenings);
    pic.path = d.path;
    pic.fire = d.fire;
    pic.destroyed = d.destroyed;
    // issue 18 hook: battlefront-2013's facing marks and fields of fire.
    super::battlefront::board_facing::onto_picture(view, happenings, &mut pic);
    // issue 18 hook: 002's Under Fire and Suppressed tokens (R702).
    super::picture::tokens_onto(view, &mut pic);
    Some(pic)
}

/// The scenario's objectives and entry zones of the view, onto `pic` (issue 16 item 2).
fn scenario_marks(view: &Value, pic: &mut Picture) {
    for o in view
        .get("objectives")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(at) = square(o.get("at")) {
            if !pic.objectives.contains(&at) {
                pic.objectives.push(at);
            }
        }
    }
    pic.entry = view
        .get("entry")
        .and_then(|e| serde_json::from_value(e.clone()).ok())
        .unwrap_or_default();
}

/// The picture of a view as PNG, with its size ([`picture`]).
pub fn png(view: &Value, ours: Option<&str>, happenings: &[Happening]) -> Option<Png> {
    let pic = picture(view, ours, happenings)?;
    let bytes = super::picture::png(&pic).ok()?;
    let (width, height) = super::picture::size(&pic);
    Some(Png {
        bytes,
        width,
        height,
    })
}

/// Words in lines of at most 72 characters (a longer word stands alone); `bullet` starts the
/// first line of a list item, whose next lines are indented under it.
pub(crate) fn wrap(text: &str, bullet: bool) -> Vec<String> {
    let (first, rest) = if bullet { ("- ", "  ") } else { ("", "") };
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for w in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + w.chars().count() > 72 {
            out.push(std::mem::take(&mut line));
        }
        if line.is_empty() {
            line.push_str(if out.is_empty() { first } else { rest });
        } else {
            line.push(' ');
        }
        line.push_str(w);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

/// The scenario as the welcome mail tells it (issue 16 item 2): its title and description, how
/// to win (004 "Victory", "End of the game", R60), when it ends, and where `side` comes in.
pub fn briefing(state: &super::state::State, side: &str) -> String {
    use super::scenario::Objective;
    let sc = &state.scenario;
    let mut out: Vec<String> = vec![sc.title.clone()];
    out.extend(wrap(&sc.description, false));
    out.push(String::new());
    out.push("How to win:".into());
    for o in &sc.objectives {
        if let Objective::Hold { side: s, at } = o {
            out.extend(wrap(
                &format!(
                    "{s} wins at once at the end of a round in which one of its units stands on {at} and no enemy unit does."
                ),
                true,
            ));
        }
        // issue 18: 003 §12 Grab the Dust (bfscen).
        if let Objective::Grab { at, side } = o {
            let t = super::battlefront::objectives::grab_text(*at, side.as_deref());
            out.extend(wrap(&t, true));
        }
        if let Objective::Vp {
            at,
            half,
            own,
            enemy,
        } = o
        {
            let t = super::battlefront::vp::vp_text(state, *at, half, *own, *enemy);
            out.extend(wrap(&t, true));
        }
    }
    if let Some(t) = super::battlefront::vp::rule_text(state) {
        out.extend(wrap(&t, true));
    }
    let extra: Vec<String> = sc
        .objectives
        .iter()
        .filter_map(|o| match o {
            Objective::Points { at, points } => Some(format!(
                "{points} point{} for the side holding {at} at the end",
                if *points == 1 { "" } else { "s" }
            )),
            _ => None,
        })
        .collect();
    let extra = if extra.is_empty() {
        String::new()
    } else {
        format!(", plus {}", extra.join(", "))
    };
    let holds = sc.objectives.iter().any(|o| {
        matches!(
            o,
            Objective::Hold { .. } | Objective::Grab { .. } | Objective::Vp { .. }
        )
    });
    out.extend(wrap(
        &format!(
            "{} game ends after round {} (or when a side has no unit left): the side with the most victory points wins, and equal points are a draw. Points: the army points (AP) of every enemy unit destroyed{extra}.",
            if holds { "Otherwise the" } else { "The" },
            sc.rounds
        ),
        true,
    ));
    if let Some(spec) = sc.sides.iter().find(|s| s.id == side) {
        let entry: Vec<String> = spec.entry.iter().map(|q| q.to_string()).collect();
        let off: Vec<&str> = spec
            .units
            .iter()
            .filter(|u| u.at.is_none() && u.joins.is_none() && u.aboard.is_none())
            .map(|u| u.id.as_str())
            .collect();
        if !entry.is_empty() && !off.is_empty() {
            out.push(String::new());
            out.extend(wrap(
                &format!(
                    "Off the board at the start: {}. Each enters by a move onto one of: {}.",
                    off.join(", "),
                    entry.join(" ")
                ),
                false,
            ));
        }
    }
    if let Some(p) = &state.placing {
        out.push(String::new());
        out.extend(wrap(&super::placing::briefing(p), false));
    }
    // issue 18 hook: 003 §12 reserves (battlefront/reserves.rs).
    if let Some(t) = super::battlefront::reserves::briefing(state) {
        out.push(String::new());
        out.extend(wrap(&t, false));
    }
    if let Some(t) = super::battlefront::fortifications::briefing(state) {
        out.push(String::new());
        out.extend(wrap(&t, false));
    }
    // battlefront-2013: the players learn what the ruleset plays and where it is listed.
    if let Some(note) = super::battlefront::briefing_note(state) {
        out.push(String::new());
        out.extend(wrap(&note, false));
    }
    out.push(String::new());
    out.extend(defaults(state, side));
    out.join("\n")
}

/// The defaults that act for `side` when it sends nothing (R100, R59), each with a line it may
/// send as is to change it (issue 16 item 5): a player should never learn of a default from its
/// effect. Only the ruleset's own decisions are named (000 has no reactive fire).
fn defaults(state: &super::state::State, side: &str) -> Vec<String> {
    let other = state
        .scenario
        .sides
        .iter()
        .map(|s| s.id.as_str())
        .find(|s| *s != side)
        .unwrap_or(side);
    let mut items: Vec<(String, Vec<String>)> = vec![];
    if state.rules().reactive_fire() {
        items.push((
            "Reactive fire: after an enemy unit's first action, the one of your unactivated units able to fire at it that is most likely to hurt it fires 1 die at it, and that spends its activation for the round. To keep your units for their own turns, or to choose by mail:".into(),
            vec!["standing react any never".into(), "standing react any ask".into()],
        ));
    }
    items.push((
        "Casualties: your losses are removed in card order (plain models, the last listed first, then special-weapon carriers, then a joined hero). To choose them by mail:".into(),
        vec!["standing casualties any ask".into()],
    ));
    items.push((
        "Close combat: your attacked unit strikes back with its range C weapons. To never strike back, or to choose by mail:".into(),
        vec!["standing retaliate any no".into(), "standing retaliate any ask".into()],
    ));
    items.push((
        "Initiative: the side that wins it activates first. To let the other side go first when you win, or to choose by mail:".into(),
        vec![format!("standing first {other}"), "standing first ask".into()],
    ));
    let idle = if state.revised(1) {
        "one of your units does nothing (in round 1 a unit off the board enters on a free square of your entry zone)"
    } else {
        "one of your units does nothing"
    };
    items.push((
        format!("A missed deadline: when your activation is late (after the grace time), {idle}, and every other decision takes its default above. When you will be away, send (the date is yours):"),
        vec!["absent until YYYY-MM-DD".into()],
    ));
    let mut out = wrap(
        "Defaults: what the referee does for you when you send nothing. Each line below, sent in a signed orders block, changes it:",
        false,
    );
    for (text, lines) in items {
        out.extend(wrap(&text, true));
        out.extend(lines.iter().map(|l| format!("    {l}")));
    }
    out
}

/// The units a vehicle of the view carries, `a, b` (004 "Carry Capacity"), if any.
fn riders(u: &Value) -> Option<String> {
    let list: Vec<&str> = u
        .get("carrying")?
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    (!list.is_empty()).then(|| list.join(", "))
}
