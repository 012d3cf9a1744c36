//! What players read: the JSON view (each side sees its own hand only; sealed cards stay hidden
//! until revealed), the map and holdings as text, the orders template and the briefing.

use super::deck::Card;
use super::map::Kind;
use super::model::*;
use serde_json::{json, Value};

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Setup => "setup",
        Phase::Reinforce => "reinforcements",
        Phase::Cards => "card choice",
        Phase::Turn { .. } => "turns",
        Phase::Over => "over",
    }
}

pub fn view(s: &State, as_side: Option<&str>) -> Value {
    let areas: Vec<Value> = s
        .map
        .areas
        .iter()
        .map(|a| {
            let h = s.holding(&a.id);
            json!({
                "id": a.id, "name": a.name, "kind": a.kind, "region": a.region,
                "capital": a.capital.is_some(), "vk": a.vk, "pc": h.pc,
                "owner": h.owner, "units": h.units,
            })
        })
        .collect();
    let played: serde_json::Map<String, Value> = s
        .played
        .iter()
        .map(|(side, c)| {
            (
                side.clone(),
                json!(s.card(c).map(Card::describe).unwrap_or_default()),
            )
        })
        .collect();
    let hand_counts: serde_json::Map<String, Value> = s
        .sides
        .iter()
        .map(|x| (x.clone(), json!(s.hands.get(x).map(Vec::len).unwrap_or(0))))
        .collect();
    let mut v = json!({
        "game": "dust-strategy",
        "title": format!("dust-strategy on {}", s.map.title),
        "map": s.map.name,
        "provisional": !s.map.provisional.is_empty() || s.cards.iter().any(|c| c.provisional),
        "round": s.round,
        "phase": phase_name(s.phase),
        "sides": s.sides,
        "order": s.order,
        "current": s.current(),
        "areas": areas,
        "vp": s.vp,
        "supremacy": s.supremacy,
        "capitals": s.capital_of,
        "played": played,
        // Who has chosen, never what (DESIGN §5 "Sealed choices").
        "chosen": s.sealed.keys().collect::<Vec<_>>(),
        "hand_counts": hand_counts,
        "pile": s.pile.len(),
        "discard": s.discard,
        "turn": s.turn.as_ref().map(|t| json!({
            "side": t.side, "budget": t.budget, "spent": t.spent, "moves": t.moves, "moved": t.moved,
        })),
    });
    // Where the map picture draws each area (picture/).
    v["layout"] = super::picture::layout_json(&s.map);
    if let Some(side) = as_side {
        let hand: Vec<String> = s
            .hands
            .get(side)
            .map(|h| {
                h.iter()
                    .map(|c| s.card(c).map(Card::describe).unwrap_or_else(|| c.clone()))
                    .collect()
            })
            .unwrap_or_default();
        v["hand"] = json!(hand);
        if let Some(c) = s.sealed.get(side) {
            v["my_sealed_card"] = json!(s.card(c).map(Card::describe));
        }
        // Standing defensive orders are the reader's own plans: never shown to the others.
        let mine: Vec<String> = s
            .defence
            .get(side)
            .map(|d| {
                d.iter()
                    .map(|(a, o)| super::retreat::describe(a, o))
                    .collect()
            })
            .unwrap_or_default();
        v["my_defence"] = json!(mine);
        if let Some(k) = s.koshka.get(side) {
            v["my_koshka"] = json!(format!("koshka before {k}"));
        }
    }
    v
}

fn holding_text(s: &State, id: &str) -> String {
    let h = s.holding(id);
    let mut t = match &h.owner {
        Some(o) => format!("{o}: {}", units_text(&h.units)),
        None => "empty".to_string(),
    };
    if h.pc {
        t.push_str(" [PC]");
    }
    t
}

/// `line` broken at spaces into lines of at most 72 characters (mail clients wrap longer ones,
/// issue 16 item 1), the next ones indented by `indent` spaces; each line ends with a newline.
fn fit(line: &str, indent: usize) -> String {
    let lead = line.len() - line.trim_start().len();
    let mut out = String::new();
    let mut cur = " ".repeat(lead);
    let mut empty = true;
    for word in line.split_whitespace() {
        if !empty && cur.chars().count() + 1 + word.chars().count() > 72 {
            out.push_str(&cur);
            out.push('\n');
            cur = " ".repeat(indent);
            empty = true;
        }
        if !empty {
            cur.push(' ');
        }
        cur.push_str(word);
        empty = false;
    }
    out.push_str(&cur);
    out.push('\n');
    out
}

/// The map and what stands where. Public: no hand, no sealed card.
pub fn board_text(s: &State) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{} — round {}, {}\n",
        s.map.title,
        s.round,
        phase_name(s.phase)
    ));
    if !s.map.provisional.is_empty() {
        out.push_str("PROVISIONAL map (001's board is lost; authored by the project)\n");
    }
    out.push_str("marks: C capital (pair), V VK deposit, * wraps east-west\n");
    let mut region = String::new();
    for a in &s.map.areas {
        if a.region != region {
            region = a.region.clone();
            out.push_str(&format!("\n== {region} ==\n"));
        }
        let mut marks = String::new();
        if let Some(p) = &a.capital {
            marks.push_str(&format!(" C({p})"));
        }
        if a.vk {
            marks.push_str(" V");
        }
        let links: Vec<String> = s
            .map
            .links
            .iter()
            .filter_map(|l| {
                let other = if l.a == a.id {
                    &l.b
                } else if l.b == a.id {
                    &l.a
                } else {
                    return None;
                };
                Some(format!("{other}{}", if l.wrap { "*" } else { "" }))
            })
            .collect();
        let kind = if a.kind == Kind::Sea { "sea" } else { "land" };
        out.push_str(&fit(
            &format!("{} ({kind}{marks}): {}", a.id, holding_text(s, &a.id)),
            4,
        ));
        out.push_str(&fit(&format!("    links: {}", links.join(", ")), 11));
    }
    if !s.order.is_empty() {
        out.push_str(&format!("\norder: {}\n", s.order.join(", ")));
    }
    let vp: Vec<String> = s
        .sides
        .iter()
        .map(|x| format!("{x} {}", s.vp.get(x).copied().unwrap_or(0)))
        .collect();
    out.push_str(&format!("victory points: {}\n", vp.join(", ")));
    out.push_str(&supremacy_text(s));
    if let Some(t) = super::table::choices_text(s) {
        out.push_str(&fit(&t, 4));
    }
    out
}

/// The supremacy track (issue 14 item 5): who holds each sector's supremacy, worth 2 VP in each
/// round's VP phase.
fn supremacy_text(s: &State) -> String {
    let held: Vec<String> = ["production", "land", "sea"]
        .iter()
        .map(|k| {
            let who = s.supremacy.get(*k).map(String::as_str).unwrap_or("nobody");
            format!("{k} {who}")
        })
        .collect();
    fit(&format!("supremacy (2 VP a round): {}", held.join(", ")), 4)
}

pub fn orders_template(s: &State, side: &str) -> String {
    let hand = s.hands.get(side).cloned().unwrap_or_default();
    let first = hand.first().cloned().unwrap_or_else(|| "c01".into());
    let mut t = String::new();
    // ask (R351): a paused battle: what its defender may answer, what its attacker waits for.
    if let Some(a) = super::ask::template(s, side) {
        return a;
    }
    // R337: the player's standing choice, as it stands; sent back unchanged it changes nothing.
    if s.phase != Phase::Over {
        t.push_str(&super::table::template(s, side));
    }
    match s.phase {
        Phase::Setup => {
            t.push_str("# Setup (001 'Preparazione del gioco'): rank your choices, best first;\n");
            t.push_str("# the referee resolves them in setup order (docs/strategy.md).\n");
            t.push_str("# Send the preference lines BEFORE the play line.\n");
            t.push_str("#capital: appalachia, rhineland\n#deposits: alaska, prairies, scandia\n");
            t.push_str("#areas: hudson, yukon, cascadia, great-lakes, mexico\n");
            t.push_str("#centres: appalachia, hudson, yukon\n");
            t.push_str("# Your setup card, face down (a card id, or highest cp|mp|production):\n");
            t.push_str("#play highest cp\n");
        }
        Phase::Reinforce => {
            let pp = s.reinforce_pp.get(side).copied().unwrap_or(0);
            t.push_str(&format!(
                "# Starting reinforcements: {pp} PP left, at your production centres,\n# at most 5 units each, no subs. Then `done`.\n"
            ));
            for pc in s.pcs_of(side) {
                t.push_str(&format!("#build 2 tanks at {pc}\n"));
            }
            t.push_str("#done\n");
            t.push_str(&format!(
                "# You may also choose round 1's card now: #play {first}\n"
            ));
        }
        Phase::Cards => {
            t.push_str(&format!(
                "# Round {}: choose a card face down. Your hand: {}\n#play {first}\n",
                s.round,
                hand.join(", ")
            ));
        }
        Phase::Turn { .. } if s.current() == Some(side) => {
            let (left, moves) = s
                .turn
                .as_ref()
                .map(|t| (t.left(), t.moves.saturating_sub(t.moved)))
                .unwrap_or((0, 0));
            t.push_str(&format!(
                "# Your turn: {left} PP, {moves} moves. Production, then moves, then end.\n"
            ));
            t.push_str("#discard c01\n#buy 1\n");
            for pc in s.pcs_of(side) {
                t.push_str(&format!("#build 1 robot at {pc}\n"));
            }
            t.push_str("#build pc at AREA\n#build 1 sub at SEA\n");
            t.push_str("#move 2 tanks, 1 robot from A to B\n#sea 2 subs from S1 to S2\n");
            t.push_str("#amphibious 3 tanks from A to B\n#strategic 2 bombers from A to B\n");
            t.push_str("# Attacks, 1 CP each, after the moves (hits: your casualty order):\n");
            t.push_str("#attack 3 tanks, 1 robot from A to B hits: fighters, bombers\n");
            t.push_str("#amphibious attack 2 tanks from A to B\n");
            t.push_str("#attack 2 tanks from A to B retreat at 1\n");
            t.push_str("#naval 2 subs from S1 to S2\n#bombard 2 subs from S to L\n");
            t.push_str("# Your defence, in any mail: defend all: hits: tanks; retreat at 1\nend\n");
        }
        Phase::Turn { .. } => {
            t.push_str(&format!(
                "# It is {}'s turn; wait for your own.\n",
                s.current().unwrap_or("")
            ));
        }
        Phase::Over => t.push_str("# The game is over.\n"),
    }
    t
}

/// The lines only `side` reads: its hand and its sealed card.
pub fn standing(view: &Value, side: Option<&str>) -> Vec<String> {
    if side.is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(hand) = view.get("hand").and_then(Value::as_array) {
        let cards: Vec<&str> = hand.iter().filter_map(Value::as_str).collect();
        out.push(format!(
            "your hand: {}",
            if cards.is_empty() {
                "no card".to_string()
            } else {
                cards.join("; ")
            }
        ));
    }
    if let Some(c) = view.get("my_sealed_card").and_then(Value::as_str) {
        out.push(format!("your card, face down: {c}"));
    }
    for d in view
        .get("my_defence")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        out.push(format!("your standing order: {d}"));
    }
    if let Some(k) = view.get("my_koshka").and_then(Value::as_str) {
        out.push(format!("your standing order: {k}"));
    }
    out
}

pub fn briefing(s: &State, side: &str) -> String {
    let mut lines = vec![
        format!("dust-strategy (001), you play {side}."),
        format!("Map: {} ({} areas).", s.map.title, s.map.areas.len()),
        "The map and the 45 cards are PROVISIONAL: 001's pictures are".to_string(),
        "lost, so the project authored them (docs/strategy.md).".to_string(),
        "Win: reach 40 victory points in the VP phase of a round.".to_string(),
        "VP each round: 2 per capital held, 2 per supremacy (production,".to_string(),
        "land, sea), 1 per 3 VK deposits.".to_string(),
        "Built: setup, card choice and turn order, production, the four".to_string(),
        "moves, every attack, retreats, all eleven powers, VP.".to_string(),
        "Your defence, in any mail, seen by you alone: defend AREA|all:".to_string(),
        "hits: TYPES; retreat at N [to AREA]; radar-alieno; infermiera.".to_string(),
        "Add `; ask` and a battle there waits for your answer (`battle".to_string(),
        "at AREA: as standing`, or this battle's own order).".to_string(),
    ];
    lines.retain(|l| !l.is_empty());
    lines.join("\n")
}
