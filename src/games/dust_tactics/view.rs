//! What players and templates see: the JSON view, the text board and the orders template.

use super::flow;
use super::model::{CoverKind, Square, UnitType};
use super::state::{Phase, State};
use serde_json::{json, Value};

// The activation lines of the orders template, checked by the engine (issue 16 item 3).
mod legal;
// The short briefing of every report (issue 16 item 2).
pub mod brief;

/// The state as JSON: round, units, awaited decisions, result.
pub fn view(state: &State, as_side: Option<&str>) -> Value {
    // A side sees only its own standing orders; the referee's view (None) sees all.
    let standing: std::collections::BTreeMap<&String, &super::state::Standing> = state
        .standing
        .iter()
        .filter(|(side, _)| as_side.map(|a| a == side.as_str()).unwrap_or(true))
        .collect();
    let units: Vec<Value> = state
        .units
        .iter()
        .map(|u| {
            let c = state.cards.get(&u.card);
            let full = c.map(|c| c.health).unwrap_or(0);
            let mut v = json!({
                "id": u.id,
                "side": u.side,
                "card": u.card,
                "name": c.map(|c| c.name.clone()).unwrap_or_default(),
                "square": u.at.map(|s| s.to_string()),
                "models": if c.map(|c| c.unit_type == UnitType::Squad).unwrap_or(false) { json!(u.models) } else { Value::Null },
                "health": u.health,
                "max_health": full,
                "joined": u.joined,
                "activated": u.activated,
                "destroyed": u.destroyed,
                "ammo": u.ammo,
                "skills_used": u.skills_used,
                // For the reports' roster and board picture.
                "unit_type": c.map(|c| c.unit_type),
                "max_models": c.map(|c| c.models.len()).unwrap_or(0),
            });
            // battlefront-2013 only: the unit's facing (003 "Facing"), for roster and picture.
            if let Some(f) = super::battlefront::facing::of_unit(state, u) {
                v["facing"] = json!(f.to_string());
            }
            // battlefront-2013: 002's Under Fire or Suppressed token, for the picture (R702).
            if let Some(t) = u.suppression {
                v["suppression"] = json!(t.name());
            }
            // A hero piloting a vehicle (004 "Pilot: Name", 003 "Piloting Vehicles").
            if state.is_pilot(u) {
                v["pilots"] = json!(true);
            }
            // issue 18 hook: front-mounted weapons, for the picture's fields of fire.
            if let Some(w) = super::battlefront::board_facing::front_arc_view(state, u) {
                v["front_arc"] = w;
            }
            // 004 "LARGE VEHICLES": drawn once over its 4 squares (R570).
            if c.is_some_and(|c| c.four_squares()) {
                v["large"] = json!(true);
            }
            // 003's two-square Large vehicle: its rear square, for the picture (R772).
            let two = u.at.and_then(|at| super::battlefront::large2::squares(state, &u.id, at));
            if let Some(rear) = two.and_then(|s| s.get(1).copied()).filter(|_| !u.destroyed) {
                v["rear"] = json!(rear.to_string());
            }
            // 004 "Carry Capacity": who rides in which vehicle, for roster and picture.
            if let Some(x) = &u.aboard {
                v["aboard"] = json!(x);
            }
            // 004 "Moving": above the ground floor, for the picture's marker (R512, R513).
            if let Some(h) = u.height {
                v["height"] = json!(h);
            }
            let riders = flow::carrying(state, &u.id);
            if !riders.is_empty() {
                v["carrying"] = json!(riders);
            }
            v
        })
        .collect();
    let awaiting: Vec<Value> = flow::awaiting(state)
        .into_iter()
        .map(|a| json!({"side": a.side, "decision": a.decision, "options": a.options}))
        .collect();
    let mut v = json!({
        "game": "dust-tactics",
        "ruleset": state.ruleset,
        "scenario": state.scenario.name,
        "title": state.scenario.title,
        "sides": state.sides(),
        // Terrain and cover still standing, for the reports' board picture.
        "board": state.scenario.board,
        // The scenario's objectives and entry zones, for the board picture (issue 16 item 2).
        "objectives": state.scenario.objectives,
        "entry": state.scenario.sides.iter().map(|s| json!({"side": s.id, "squares": s.entry})).collect::<Vec<_>>(),
        "round": state.round,
        "rounds": state.scenario.rounds,
        "initiative": state.initiative,
        "activating": match &state.phase { Phase::Activation(a) => Some(a.unit.clone()), _ => None },
        "units": units,
        "points": flow::points(state, false),
        "awaiting": awaiting,
        "result": state.result,
        "standing": standing,
        "draw_offer": state.draw_offer,
    });
    // battlefront-2013: 002's trenches, for the board picture (R717); absent when none.
    if let Some(t) = state.scenario.fortifications.as_ref().map(|f| &f.trenches) {
        if !t.is_empty() {
            v["trenches"] = json!(t);
        }
    }
    // 004 underground: each link end and its number, for the picture (R630).
    if let Some(t) = &state.scenario.travel {
        let ends: Vec<(Square, u8)> = (t.links.iter().enumerate())
            .flat_map(|(i, (a, b))| [(*a, i as u8 + 1), (*b, i as u8 + 1)])
            .collect();
        v["travel_links"] = json!(ends);
    }
    // 002's barbed wire, minefields and strongpoints, for the picture (R727).
    super::battlefront::fortifications::view(state, &mut v);
    v
}

/// Marker for a unit: one letter, upper case A, B, C… for the first side's units, lower case
/// a, b, c… for the others (digits after 26), so no marker reads like a square.
fn markers(state: &State) -> Vec<(String, String)> {
    let sides = state.sides();
    let mut count: std::collections::BTreeMap<String, u8> = Default::default();
    state
        .units
        .iter()
        .map(|u| {
            let n = count.entry(u.side.clone()).or_insert(0);
            let letter = if *n < 26 {
                (b'a' + *n) as char
            } else {
                (b'0' + (*n - 26) % 10) as char
            };
            *n = n.saturating_add(1);
            let letter = if sides.first() == Some(&u.side) {
                letter.to_ascii_uppercase()
            } else {
                letter
            };
            (u.id.clone(), letter.to_string())
        })
        .collect()
}

/// The marker of the large vehicle standing on `sq` when `sq` is not its top-left square
/// (004 "LARGE VEHICLES", R570).
fn large_part<'a>(state: &State, marks: &'a [(String, String)], sq: Square) -> Option<&'a str> {
    marks.iter().find_map(|(id, m)| {
        let u = state.unit(id).filter(|u| !u.destroyed)?;
        let at = u.at.filter(|&at| at != sq)?;
        let large = state.cards.get(&u.card).is_some_and(|c| c.four_squares());
        // 003's two-square Large vehicle: its rear (R772).
        let two = super::battlefront::large2::squares(state, id, at);
        let squares =
            two.or_else(|| super::geometry::footprint(&state.scenario.board, at, large))?;
        squares.contains(&sq).then_some(m.as_str())
    })
}

/// The board as fixed-width text: column letters, row numbers, terrain, units, legend.
pub fn board_text(state: &State) -> String {
    let b = &state.scenario.board;
    let marks = markers(state);
    let mut s = String::new();
    s.push_str(&format!(
        "{} — round {} of {}\n\n    ",
        state.scenario.title, state.round, state.scenario.rounds
    ));
    for c in 0..b.width() {
        s.push_str(&format!(" {} ", (b'A' + c) as char));
    }
    s.push('\n');
    for r in 0..b.height() {
        s.push_str(&format!("{:>3} ", r + 1));
        for c in 0..b.width() {
            let Some(sq) = b.square(c as i32, r as i32) else {
                continue;
            };
            let here: Vec<&(String, String)> = marks
                .iter()
                .filter(|(id, _)| {
                    state
                        .unit(id)
                        .map(|u| u.at == Some(sq) && !u.destroyed && u.joined.is_none())
                        .unwrap_or(false)
                })
                .collect();
            let cell = if let Some((id, m)) = here.first() {
                // `+` a joined hero, `*` a hero sharing the square with another unit.
                let hero = !state.joined_of(id).is_empty() || state.pilot_of(id).is_some();
                let mark = if here.len() > 1 {
                    '*'
                } else if hero {
                    '+'
                } else {
                    // issue 18 hook: battlefront-2013's facing arrow.
                    state
                        .unit(id)
                        .and_then(|u| super::battlefront::board_facing::cell_arrow(state, u))
                        .unwrap_or(' ')
                };
                format!(" {m}{mark}")
            } else if let Some(m) = large_part(state, &marks, sq) {
                // 004 "LARGE VEHICLES": its other 3 squares (R570).
                format!(" {m}=")
            } else if let Some(ce) = b.cover_at(sq) {
                match ce.kind {
                    CoverKind::AmmoCrate => " c ".into(),
                    CoverKind::TankTrap => " x ".into(),
                }
            } else if b.mines.contains_key(&sq) {
                // 004 "Minefields": the tokens are listed under the board.
                " ! ".into()
            } else if let Some(m) = super::board_marks::cell_mark(state, sq) {
                format!(" {m} ")
            } else {
                format!(" {} ", b.terrain(sq).symbol())
            };
            // A wall on the square's left side (issue 16 item 2).
            let cell = if super::board_marks::wall_left(state, sq) {
                format!("|{}", cell.get(1..).unwrap_or_default())
            } else {
                cell
            };
            s.push_str(&cell);
        }
        s.push('\n');
        if let Some(line) = super::board_marks::wall_line(state, r) {
            s.push_str(&line);
            s.push('\n');
        }
    }
    // At most 72 characters a line: mail clients wrap longer ones (issue 16 item 1).
    s.push_str("\nTerrain: . open  # impassable  ~ deep water  + rubble  * smoke\n");
    s.push_str("         T trees  c ammo crate  x tank trap\n");
    s.push_str("Markers: upper case = first side, lower case = other side;\n");
    s.push_str("         + hero joined, * units sharing a square\n");
    if (0..b.width()).any(|c| {
        (0..b.height()).any(|r| {
            b.square(c as i32, r as i32)
                .is_some_and(|sq| large_part(state, &marks, sq).is_some())
        })
    }) {
        // 003 calls the 2×2 vehicle Huge (R790), 004 large (R570); 003's Large takes two (R772).
        if state.units.iter().any(|u| {
            !u.destroyed && u.at.is_some() && super::battlefront::large2::is_large2(state, u)
        }) {
            s.push_str("         A= the rear square of Large vehicle A\n");
        }
        let huge = state.units.iter().any(|u| {
            !u.destroyed
                && u.at.is_some()
                && state.cards.get(&u.card).is_some_and(|c| c.four_squares())
        });
        s.push_str(if !huge {
            ""
        } else if state.rules().battlefront() {
            "         A= the other 3 squares of Huge vehicle A\n"
        } else {
            "         A= the other 3 squares of large vehicle A\n"
        });
    }
    if let Some(line) = super::battlefront::board_facing::legend(state) {
        s.push_str(line);
    }
    for line in super::board_marks::legend(state) {
        s.push_str(&line);
        s.push('\n');
    }
    s.push_str("Units:\n");
    for (id, m) in &marks {
        let Some(u) = state.unit(id) else { continue };
        let c = state.cards.get(&u.card);
        let status = if u.destroyed {
            "destroyed".to_string()
        } else {
            let place = match (&u.joined, u.at) {
                (Some(sq), _) if state.is_pilot(u) => format!("piloting {sq}"),
                (Some(sq), _) => format!("with {sq}"),
                // 004 "Moving": a floor above the ground or the roof (R512).
                (None, Some(at)) => super::floors::place(at, u.height),
                (None, None) if u.reserve_round.is_some() => "in reserve".into(),
                (None, None) => match &u.aboard {
                    Some(v) => format!("aboard {v}"),
                    None => "off board".into(),
                },
            };
            let riders = flow::carrying(state, &u.id);
            let place = if riders.is_empty() {
                place
            } else {
                format!("{place}, carrying {}", riders.join(", "))
            };
            let life = if c.map(|c| c.unit_type == UnitType::Squad).unwrap_or(false) {
                format!("{} models", u.models.len())
            } else {
                format!("{}/{} health", u.health, c.map(|c| c.health).unwrap_or(0))
            };
            // NCO Stimulant Kit (R477): injected, then exhausted until it stands.
            let drugs = match (u.stimulated, u.exhausted) {
                (_, true) => ", exhausted",
                (true, _) => ", injected",
                _ => "",
            };
            format!(
                "{place}, {life}{}{drugs}",
                if u.activated { ", activated" } else { "" }
            )
        };
        s.push_str(&format!(
            "  {m:<3} {id} ({}, {}): {status}\n",
            u.side,
            c.map(|c| c.name.as_str()).unwrap_or("?")
        ));
    }
    // battlefront-2013: each unit's facing by marker, on its own lines to keep 72 columns.
    let facings: Vec<String> = marks
        .iter()
        .filter_map(|(id, m)| {
            let u = state.unit(id).filter(|u| !u.destroyed)?;
            Some(format!(
                "{m} {}",
                super::battlefront::facing::of_unit(state, u)?
            ))
        })
        .collect();
    for chunk in facings.chunks(10) {
        s.push_str(&format!("Facing: {}\n", chunk.join(", ")));
    }
    // battlefront-2013: 002's suppression tokens by marker, likewise (R702).
    s.push_str(&super::battlefront::suppression::board_lines(state, &marks));
    s
}

/// A commented orders template for `side`: what it may send next.
pub fn orders_template(state: &State, side: &str) -> String {
    wrap_comments(&template_lines(state, side))
}

/// The longest line of a text the referee sends: mail clients wrap longer ones.
pub const MAIL_LINE_CHARS: usize = 72;

/// Comment lines (`#`) over [`MAIL_LINE_CHARS`] characters broken at spaces into `#   `
/// continuation lines; order lines are left whole (a broken order would be another order).
fn wrap_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let mut rest = body.to_string();
        while rest.starts_with('#') && rest.chars().count() > MAIL_LINE_CHARS {
            let limit = rest
                .char_indices()
                .nth(MAIL_LINE_CHARS)
                .map_or(rest.len(), |(i, _)| i);
            // The last gap within the limit and past a continuation's `#   ` (so each turn
            // shortens the rest), a wide gap (between alternatives) rather than a word's
            // space; without one the line stays whole.
            let head = rest.get(..limit).unwrap_or_default();
            let Some(cut) = head
                .rfind("   ")
                .filter(|&c| c > MAIL_LINE_CHARS / 2)
                .or_else(|| head.rfind(' '))
                .filter(|&c| c > 4)
            else {
                break;
            };
            out.push_str(rest.get(..cut).unwrap_or_default().trim_end());
            out.push('\n');
            // Continuations are `#   text`: still comments, indented under the line above.
            rest = format!("#   {}", rest.get(cut..).unwrap_or_default().trim_start());
        }
        out.push_str(&rest);
        out.push_str(nl);
    }
    out
}

fn template_lines(state: &State, side: &str) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "# dustmail orders for {side}, round {}.\n# Lines starting with # are comments.\n",
        state.round
    ));
    let mine: Vec<_> = flow::awaiting(state)
        .into_iter()
        .filter(|a| a.side == side)
        .collect();
    if mine.is_empty() {
        // The loser of a rolled initiative learns why it is not asked (issue 16 item 5).
        if let Phase::First { winner } = &state.phase {
            s.push_str(&format!(
                "# {winner} won the initiative and chooses who activates first.\n"
            ));
        }
        s.push_str("# Nothing is awaited from you now.\n");
        return s;
    }
    // Without standing orders only activations wait for a mail (R100); `ask` makes others wait.
    s.push_str("# Standing orders (optional, see docs/orders.md):\n");
    // Only a ruleset with reactive fire has a react order (000 has none).
    if state.rules().reactive_fire() {
        s.push_str("#   standing react <your unit|any> auto|never|ask\n");
    }
    s.push_str(
        "#   standing casualties <unit>: <model> …\n\
         #   standing casualties <unit|any> ask\n\
         #   standing retaliate <your unit|any> yes|no|ask\n\
         #   standing first <side>|ask\n",
    );
    for a in mine {
        match a.decision.as_str() {
            "first" => {
                s.push_str(&first_sentence(state));
                for o in &a.options {
                    s.push_str(&format!("# {o}\n"));
                }
            }
            "activate" => {
                s.push_str(
                    "# Activate one unit: its `activate` line, then two action lines\n\
                     # (`nothing` is one), or one `sustained` line alone. The lines\n\
                     # below are accepted now, from where each unit stands: delete a\n\
                     # line's `#` to send it; an `or to:` or `or at:` line names other\n\
                     # squares or targets for the line above it.\n",
                );
                // battlefront-2013 cites 003 (March Move) and offers `pass` when allowed.
                if let Some(note) = super::battlefront::template_note(state, &a.side) {
                    s.push_str(&note);
                } else if !state.rules().moves_are_separate_actions() {
                    s.push_str(
                        "# (000: `move` + `move` is one move of double Movement; no unit\n\
                         # fires outside its own activation)\n",
                    );
                }
                for o in &a.options {
                    let id = o.trim_start_matches("activate ");
                    let Some(u) = state.unit(id) else { continue };
                    s.push_str(&legal::activation_block(state, u, o));
                }
                s.push_str(&legal::pilot_blocks(state, &a.side));
            }
            // issue 18 hook: 003's two graded dice and the choice on two army symbols.
            "react" if state.rules().reactive_graded() => {
                // The example line is one the engine accepts (R819).
                let (example, word) = super::flow::react_example(state, &a.options);
                s.push_str(&super::battlefront::react_choice::template(&example, word));
                s.push_str(super::flow::react_note(state, &a.options));
                for o in &a.options {
                    s.push_str(&format!("# {o}\n"));
                }
            }
            "react" => {
                s.push_str(
                    "# Reactive fire: one unactivated unit may roll 1 die to fire at the\n\
                     # activating unit (it is then activated):\n",
                );
                for o in &a.options {
                    s.push_str(&format!("# {o}\n"));
                }
            }
            "retaliate" => {
                s.push_str(
                    "# Close combat: does your attacked unit strike back with its\n\
                     # range C weapons?\n",
                );
                for o in &a.options {
                    s.push_str(&format!("# {o}\n"));
                }
            }
            "place" => s.push_str(&super::placing::template(&a.options)),
            "casualties" => {
                s.push_str(
                    "# Choose the casualties, or which of hero or squad takes each point\n\
                     # (default first):\n",
                );
                for o in &a.options {
                    s.push_str(&format!("# {o}\n"));
                }
                s.push_str(&casualty_hint(state));
            }
            _ => {}
        }
    }
    s
}

/// The `first` decision told truly to its reader (issue 16 item 5): before the roll every side
/// is asked and the line counts only if it wins; after it only the winner is asked.
fn first_sentence(state: &State) -> String {
    if matches!(state.phase, Phase::First { .. }) {
        "# You won the initiative: who activates first?\n".into()
    } else {
        "# The initiative is still to roll: the first mail with more than\n\
         # standing orders rolls it (or the deadline does). If you win it,\n\
         # who activates first? Without a line the winner goes first; if\n\
         # you lose it, your line is not needed.\n"
            .into()
    }
}

/// The models the owner may name, with what each carries, and a joined hero's health.
fn casualty_hint(state: &State) -> String {
    let Phase::Activation(a) = &state.phase else {
        return String::new();
    };
    let Some(super::state::Wait::Casualties { unit, .. }) = &a.wait else {
        return String::new();
    };
    let Some(u) = state.unit(unit) else {
        return String::new();
    };
    let card = state.cards.get(&u.card);
    let mut parts: Vec<String> = u
        .models
        .iter()
        .map(|m| {
            let kit = card
                .and_then(|c| c.models.iter().find(|x| &x.id == m))
                .map(|x| x.carries.join(", "))
                .unwrap_or_default();
            if kit.is_empty() {
                m.clone()
            } else {
                format!("{m} ({kit})")
            }
        })
        .collect();
    for h in state.joined_of(unit) {
        let what = if state.is_commissar(h) {
            "Commissar"
        } else {
            "hero"
        };
        parts.push(format!(
            "{} ({what}, {} health: name him once per point)",
            h.id, h.health
        ));
    }
    format!("# models of {unit}: {}\n", parts.join(", "))
}
