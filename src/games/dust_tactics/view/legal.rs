//! The activation block of the orders template (issue 16 item 3): only actions the engine
//! accepts now. Each candidate is put to the same checks `activate` makes
//! ([`flow::check_activation`]), so the template never offers a target the weapon cannot
//! damage, see or reach, nor a square the unit cannot reach.
//!
//! How the template marks them: a line `# <order>` (an order word in lower case after the `#`)
//! is accepted as it stands once its `#` is deleted (an `activate` line heads its action
//! lines); the words after a second `#` are notes. An action line is checked followed by
//! `nothing` (a `sustained` line alone); an `#     or to:` / `#     or at:` line names the
//! other squares or targets that line may take. Lines with `<…>` are forms to fill in, not
//! suggestions. Under an `#   advanced deployment …` line, the two action lines that follow
//! are one activation, sent together (004 "Aircraft": MOVE + MOVE, R548). docs/orders.md says
//! the same to players.

use super::super::floors;
use super::super::flow;
use super::super::model::{Armour, CoverKind, Square, UnitType};
use super::super::orders::carry::Transport;
use super::super::orders::climb::Climb;
use super::super::orders::{parse, Action, Command, FireOrder, TargetRef};
use super::super::skill::Skill;
use super::super::state::{State, UnitState};
use super::MAIL_LINE_CHARS;
use crate::game::Line;

/// `order`, with `note` after a `#` when the line stays within [`MAIL_LINE_CHARS`]: an order
/// line is never wrapped (a broken order would be another order).
fn with_note(order: &str, note: &str) -> String {
    let line = format!("#   {order}   # {note}");
    if line.chars().count() <= MAIL_LINE_CHARS {
        line
    } else {
        format!("#   {order}")
    }
}

/// `#     or <word>: a b c` lines of at most [`MAIL_LINE_CHARS`] characters.
fn or_lines(word: &str, items: &[String]) -> String {
    let head = format!("#     or {word}:");
    let mut out = String::new();
    let mut line = head.clone();
    for it in items {
        if line.len() > head.len() && line.len() + 1 + it.len() > MAIL_LINE_CHARS {
            out.push_str(&line);
            out.push('\n');
            line = head.clone();
        }
        line.push(' ');
        line.push_str(it);
    }
    if line.len() > head.len() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// True when the activation, printed as the template prints it, parses back to itself: an
/// id shaped like a square (`x1`) would be read as one.
fn reads_back(state: &State, unit: &str, actions: &[Action]) -> bool {
    let cmd = Command::Activate {
        unit: unit.to_string(),
        actions: actions.to_vec(),
    };
    let text = cmd.to_string();
    let lines: Vec<Line> = text
        .lines()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.to_string(),
        })
        .collect();
    matches!(
        parse(&lines, &state.scenario.board).as_slice(),
        [Ok(p)] if p.command == cmd
    )
}

/// One unit's block: its `activate` line, then the actions it may take now.
pub(super) fn activation_block(state: &State, u: &UnitState, option: &str) -> String {
    let side = u.side.as_str();
    let ok = |actions: Vec<Action>| {
        reads_back(state, &u.id, &actions)
            && flow::check_activation(state, side, &u.id, &actions).is_ok()
    };
    let members: Vec<&UnitState> = state
        .units
        .iter()
        .filter(|m| m.id == u.id || m.joined.as_deref() == Some(u.id.as_str()))
        // A pilot moves with his vehicle at its Movement (R541).
        .filter(|m| m.id == u.id || !state.is_pilot(m))
        .collect();
    let movement = state.rules().joined_movement(
        members
            .iter()
            .filter_map(|m| state.cards.get(&m.card))
            .map(|c| c.movement as u32),
    );
    // A Tank Riders rider acts from its vehicle's square (R470).
    let riding = flow::riding_square(state, &u.id);
    let mut s = match (u.at, riding, &u.aboard) {
        // 004 "Pilot: Name" (R544): a pilot activates alone only to exit, before his vehicle.
        (Some(_), ..) if state.is_pilot(u) => with_note(
            option,
            &format!(
                "pilots {}: he exits it before it activates",
                u.joined.as_deref().unwrap_or_default()
            ),
        ),
        // A large vehicle's square is the top-left of its 4 (R566).
        (Some(at), ..) if large_card(state, u) => with_note(
            option,
            &format!("at {at} (top-left of its 4 squares), Movement {movement}"),
        ),
        (Some(at), ..) => with_note(option, &format!("at {at}, Movement {movement}")),
        (None, Some(at), Some(v)) => {
            with_note(option, &format!("riding {v} on {at}, acting from there"))
        }
        _ if flow::spy::unplaced(state, u) => {
            with_note(option, "Spy, not placed: two dice to place it, or nothing")
        }
        _ => match &u.aboard {
            // 002 "Sealifter": no weapons while carried (R778).
            Some(v) if crate::dust_tactics::battlefront::naval::is_sealifter(state, v) => {
                with_note(option, &format!("carried in {v}: it dismounts, or stays"))
            }
            // 002 "Activating While Carried" (R746).
            Some(v) if flow::airlifter_of(state, &u.id).is_some() => with_note(
                option,
                &format!("carried by {v}: a first move dismounts it"),
            ),
            // 002 "Activating While Mounted" (R733).
            Some(v) if state.rules().battlefront() => {
                with_note(option, &format!("mounted in {v}, fires from it"))
            }
            Some(v) => with_note(option, &format!("inside {v}: it exits, or stays")),
            None => with_note(option, "off board: its first action enters"),
        },
    };
    // `with_note` indents action lines; the `activate` line itself starts at the `#`.
    s = s.replacen("#   ", "# ", 1);
    s.push('\n');
    // 002 "Stunned" (R267, R752): its first action must be `nothing`; the template offers it.
    if u.stunned && state.rules().battlefront() {
        if ok(vec![Action::Nothing, Action::Nothing]) {
            s.push_str(&with_note(
                "nothing",
                "Stunned: a first `nothing` removes the token (002)",
            ));
            s.push('\n');
        }
        return s;
    }

    // Moves: every square one MOVE action reaches now (the entering move for a unit off the
    // board), in board order.
    let reach: Vec<String> = state
        .scenario
        .board
        .squares()
        .filter(|&sq| Some(sq) != u.at)
        .filter(|&sq| ok(vec![Action::Move { squares: vec![sq] }, Action::Nothing]))
        .map(|sq| sq.to_string())
        .collect();
    if let Some((first, rest)) = reach.split_first() {
        s.push_str(&format!("#   move {first}\n"));
        s.push_str(&or_lines("to", rest));
        // 002 "Naval Unit": the free Attack after a March Move (R756).
        s.push_str(crate::dust_tactics::battlefront::naval::template_note(
            state, &u.id,
        ));
    }
    // 004 "Moving" between floors (R514, R517): each step up, down or along a floor it can take.
    let climbs: Vec<String> =
        u.at.filter(|_| !(state.rules().battlefront() && state.revised(9))) // R637
            .map(|at| floors::steps_up_from(&state.scenario.board, (at, u.height)))
            .unwrap_or_default()
            .into_iter()
            .filter(|&spot| {
                ok(vec![
                    Action::Climb(Climb { path: vec![spot] }),
                    Action::Nothing,
                ])
            })
            .map(|(sq, h)| floors::place(sq, h))
            .collect();
    if let Some((first, rest)) = climbs.split_first() {
        s.push_str(&format!("#   move {first}\n"));
        s.push_str(&or_lines("to", rest));
    }
    s.push_str(&advanced_deployment_lines(state, u, &ok));
    s.push_str(&spy_lines(state, u, &ok));
    s.push_str(&transport_lines(state, u, &ok));
    // 004 "Fighting in the Metro"/"Sewers": on a link, one action to its other end (R631).
    if let (Some(t), Some(at)) = (&state.scenario.travel, u.at) {
        if let Some((to, n)) = t
            .linked(at)
            .filter(|_| ok(vec![Action::Travel, Action::Nothing]))
        {
            s.push_str(&with_note(
                "travel",
                &format!("1 action: to {to} by link {n}"),
            ));
            s.push('\n');
        }
    }
    // 004 "Cover & Movement": a vehicle "may choose to crush the crate" (R150, rules
    // revision 1).
    let vehicle = state.revised(1)
        && members
            .iter()
            .filter_map(|m| state.cards.get(&m.card))
            .any(|c| c.unit_type == UnitType::Vehicle);
    let crates = state
        .scenario
        .board
        .cover
        .values()
        .any(|c| c.kind == CoverKind::AmmoCrate);
    if vehicle && crates && !reach.is_empty() {
        s.push_str(
            "#   it crushes each ammo crate it enters; `move <square> … spare` leaves them standing\n",
        );
    }

    // Attacks from where it stands: per weapon line, the enemy units it can damage, see and
    // reach.
    let enemies: Vec<&UnitState> = state
        .units
        .iter()
        .filter(|e| e.side != u.side && !e.destroyed && e.joined.is_none())
        // Riders are targets on their vehicle's square (R471).
        .filter(|e| e.at.is_some() || flow::riding_square(state, &e.id).is_some())
        .collect();
    let fire = |w: &str, t: &str| FireOrder {
        weapon: w.to_string(),
        target: TargetRef::Unit(t.to_string()),
        through: vec![],
        count: None,
    };
    let mut sustained: Option<String> = None;
    // Each weapon line with a target and its first one: together, one ATTACK line firing them all.
    let mut every: Vec<(String, String)> = vec![];
    // Weapon lines with no target they can damage, see and reach from here.
    let mut idle: Vec<String> = vec![];
    let mut seen: Vec<String> = vec![];
    for m in &members {
        let Some(c) = state.cards.get(&m.card) else {
            continue;
        };
        for w in &c.weapons {
            // The engine finds a weapon id on the squad first: a second line of that id is
            // not the one fired.
            if seen.contains(&w.id) {
                continue;
            }
            seen.push(w.id.clone());
            let ammo = match (w.ammo, m.ammo.get(&w.id)) {
                (Some(_), Some(left)) => format!(", {left} ammo"),
                _ => String::new(),
            };
            let note = format!("{}, range {}{ammo}", w.name, w.range);
            let targets: Vec<String> = enemies
                .iter()
                .filter(|e| {
                    ok(vec![
                        Action::Attack {
                            fire: vec![fire(&w.id, &e.id)],
                        },
                        Action::Nothing,
                    ])
                })
                .map(|e| e.id.clone())
                .collect();
            let Some((first, rest)) = targets.split_first() else {
                idle.push(w.id.clone());
                continue;
            };
            s.push_str(&with_note(&format!("attack {} at {first}", w.id), &note));
            s.push('\n');
            s.push_str(&or_lines("at", rest));
            every.push((w.id.clone(), first.clone()));
            // 000 "Limited ammo weapons": "You are never forced to use all of these limited
            // ammo weapons at once!" (R414): offered when the line would fire more than one.
            let counted = |n: u32| {
                ok(vec![
                    Action::Attack {
                        fire: vec![FireOrder {
                            count: Some(n),
                            ..fire(&w.id, first)
                        }],
                    },
                    Action::Nothing,
                ])
            };
            if w.ammo.is_some() && counted(2) && counted(1) {
                s.push_str(&with_note(
                    &format!("attack 1 {} at {first}", w.id),
                    // R678: a box an Attack, so a count frees soldiers for other lines (R677).
                    if crate::dust_tactics::flow::soldier_weapons::book(state) {
                        "a count frees soldiers"
                    } else {
                        "a count fires fewer, keeping boxes"
                    },
                ));
                s.push('\n');
            }
            if sustained.is_none() {
                sustained = targets
                    .iter()
                    .find(|t| {
                        ok(vec![Action::Sustained {
                            fire: vec![fire(&w.id, t)],
                        }])
                    })
                    .map(|t| format!("sustained {} at {t}", w.id));
            }
        }
    }
    // 004 "Attack": one ATTACK action fires every weapon the unit chooses, each at its own
    // target; two `attack` lines would be two actions (a SUSTAINED ATTACK), so the template
    // shows the one line that fires them all, when it fits a mail line (a wrapped order would
    // be refused).
    let fits = |order: &str| format!("#   {order}").chars().count() <= MAIL_LINE_CHARS;
    if every.len() > 1 {
        let all = every
            .iter()
            .map(|(w, t)| format!("{w} at {t}"))
            .collect::<Vec<_>>()
            .join(", ");
        let fires: Vec<FireOrder> = every.iter().map(|(w, t)| fire(w, t)).collect();
        if fits(&format!("attack {all}"))
            && ok(vec![
                Action::Attack {
                    fire: fires.clone(),
                },
                Action::Nothing,
            ])
        {
            s.push_str(&with_note(
                &format!("attack {all}"),
                "one ATTACK: these weapons at once",
            ));
            s.push('\n');
        }
        if sustained.is_some()
            && fits(&format!("sustained {all}"))
            && ok(vec![Action::Sustained { fire: fires }])
        {
            sustained = Some(format!("sustained {all}"));
        }
    }
    if (u.at.is_some() || riding.is_some()) && !idle.is_empty() {
        s.push_str(&format!("#   no target now for: {}\n", idle.join(", ")));
    }
    if let Some(line) = sustained {
        s.push_str(&with_note(&line, "alone: both actions"));
        s.push('\n');
    }
    // issue 18 hook: 003, the squad activates without its joined hero (R605).
    if let Some(line) = super::super::battlefront::joining::template_line(state, u) {
        let detach = Action::Skill {
            name: super::super::battlefront::joining::DETACH.to_string(),
            target: None,
        };
        if ok(vec![detach, Action::Nothing, Action::Nothing]) {
            s.push_str(&line);
        }
    }
    // Skills taken as an action; free and passive ones need no line of their own here.
    let mut skills: Vec<String> = vec![];
    for c in members.iter().filter_map(|m| state.cards.get(&m.card)) {
        for sk in &c.skills {
            let Some(skill) = Skill::from_id(&sk.name) else {
                continue;
            };
            let name = skill.id().to_string();
            if skills.contains(&name) {
                continue;
            }
            let action = Action::Skill {
                name: name.clone(),
                target: None,
            };
            if ok(vec![action, Action::Nothing]) {
                s.push_str(&format!("#   skill {name}\n"));
            }
            skills.push(name);
        }
    }
    // 004 "Engineer Vehicle": the bunkers it may destroy now, with its full activation (R586).
    for b in state.scenario.board.structures.iter() {
        let action = Action::Skill {
            name: Skill::EngineerVehicle.id().to_string(),
            target: Some(TargetRef::Unit(b.id.clone())),
        };
        if ok(vec![action]) {
            let line = format!("skill engineer-vehicle at {}", b.id);
            s.push_str(&with_note(&line, "alone: the full activation"));
            s.push('\n');
        }
    }
    // 002's Engineering Special Action on the wire and minefields next to the unit (R726).
    let forts = state.scenario.fortifications.iter();
    for (sq, what) in forts.flat_map(|f| {
        let wire = f
            .barbed_wire
            .iter()
            .map(|s| (*s, "cut the barbed wire on army"));
        let mines = f
            .minefields
            .iter()
            .map(|s| (*s, "clear the minefield on army"));
        // 002 "Dozer Blades" (R787): a dozer blade's trenches and bunkers.
        let trenches = f.trenches.iter().map(|s| (*s, "fill the trench on army"));
        let bunkers = f.bunkers.iter().map(|b| {
            let note = "twice, one line after the other: buries the bunker on army";
            (b.squares[0], note)
        });
        wire.chain(mines).chain(trenches).chain(bunkers)
    }) {
        let action = Action::Skill {
            name: "engineering".to_string(),
            target: Some(TargetRef::Square(sq)),
        };
        if ok(vec![action, Action::Nothing]) {
            s.push_str(&with_note(&format!("skill engineering at {sq}"), what));
            s.push('\n');
        }
    }
    // 002 "Dozer Blade": the Dozer Special Action (R786).
    let dozer = Action::Skill {
        name: crate::dust_tactics::battlefront::engineering::DOZER.to_string(),
        target: None,
    };
    if ok(vec![dozer, Action::Nothing]) {
        s.push_str(&with_note("skill dozer", "in Cover until it moves"));
        s.push('\n');
    }
    // 004 "Artillery Weapons", "Reloadable Weapons": an empty line's reload (R415); 004
    // "Artillery Strike": the strikes the observer may order now (R416).
    for m in &members {
        for w in &m.unloaded {
            let name = format!("reload-{w}");
            let action = Action::Skill { name, target: None };
            if ok(vec![action, Action::Nothing]) {
                s.push_str(&with_note(&format!("skill reload {w}"), "it fired: empty"));
                s.push('\n');
            }
        }
    }
    let observer = members
        .iter()
        .filter_map(|m| state.cards.get(&m.card))
        .any(|c| c.has(Skill::ArtilleryStrike) || c.has(Skill::NcoCommandSquad));
    if observer {
        let strikes: Vec<String> = state
            .units
            .iter()
            .filter(|g| g.side == u.side && !g.activated && g.at.is_some())
            .flat_map(|g| enemies.iter().map(move |e| (g, e)))
            .filter(|(g, e)| {
                let action = Action::Skill {
                    name: format!("artillery-strike-{}", g.id),
                    target: Some(TargetRef::Unit(e.id.clone())),
                };
                ok(vec![action, Action::Nothing])
            })
            .map(|(g, e)| format!("skill artillery-strike {} at {}", g.id, e.id))
            .collect();
        if let Some((first, rest)) = strikes.split_first() {
            s.push_str(&with_note(first, "the artillery unit fires now"));
            s.push('\n');
            for r in rest {
                s.push_str(&format!("#   {r}\n"));
            }
        }
    }
    // issue 18: 002's command squad Special Actions it may take now (R640–R647).
    let command = super::super::battlefront::command::template_lines(state, &u.id, &ok);
    s.push_str(&command);
    // 002 "Artillery Observer" (battlefront-2013, R693): the attacks the observer may make
    // with a friendly artillery unit's weapons now.
    let observer002 = state.rules().battlefront()
        && members
            .iter()
            .filter_map(|m| state.cards.get(&m.card))
            .any(|c| c.has_skill("artillery-observer"));
    if observer002 {
        let calls: Vec<String> = state
            .units
            .iter()
            .filter(|g| g.side == u.side && !g.activated && g.at.is_some())
            .flat_map(|g| enemies.iter().map(move |e| (g, e)))
            .filter(|(g, e)| {
                let action = Action::Skill {
                    name: format!("artillery-observer-{}", g.id),
                    target: Some(TargetRef::Unit(e.id.clone())),
                };
                ok(vec![action, Action::Nothing])
            })
            .map(|(g, e)| format!("skill artillery-observer {} at {}", g.id, e.id))
            .collect();
        if let Some((first, rest)) = calls.split_first() {
            s.push_str(&with_note(
                first,
                "the observer's attack, with that unit's artillery",
            ));
            s.push('\n');
            for r in rest {
                s.push_str(&format!("#   {r}\n"));
            }
        }
    }
    if ok(vec![Action::Nothing, Action::Nothing]) {
        s.push_str("#   nothing\n");
    }
    s
}

/// 002 "Spy" (R765, R660): an unplaced Spy's `skill spy at <square>` on each square it may be
/// placed on now (its next lines are its actions once placed).
fn spy_lines(state: &State, u: &UnitState, ok: &dyn Fn(Vec<Action>) -> bool) -> String {
    let spy = |sq| Action::Skill {
        name: "spy".into(),
        target: Some(TargetRef::Square(sq)),
    };
    let list: Vec<String> = flow::spy::squares(state, &u.id)
        .unwrap_or_default()
        .into_iter()
        .filter(|&sq| ok(vec![spy(sq), Action::Nothing]))
        .map(|sq| sq.to_string())
        .collect();
    let Some((first, rest)) = list.split_first() else {
        return String::new();
    };
    let mut s = with_note(
        &format!("skill spy at {first}"),
        "any army: placed, an action each",
    );
    s.push('\n');
    s.push_str(&or_lines("at", rest));
    s
}

/// 004 "Aircraft", advanced deployment (R545, R548): for an aircraft off the board, the first
/// square of the board (in its order) outside its own entry zone where it may enter with a
/// MOVE + MOVE activation, with the first square next to it the second MOVE reaches, as two
/// lines sent together; then the form.
fn advanced_deployment_lines(
    state: &State,
    u: &UnitState,
    ok: &dyn Fn(Vec<Action>) -> bool,
) -> String {
    let aircraft = state
        .cards
        .get(&u.card)
        .is_some_and(|c| matches!(c.armour, Armour::Aircraft(_)));
    let off_board = u.at.is_none() && u.aboard.is_none() && u.joined.is_none();
    if !aircraft || !off_board || !state.revised(7) || state.rules().battlefront() {
        return String::new();
    }
    let mv = |sq| Action::Move { squares: vec![sq] };
    let board = &state.scenario.board;
    let pair = board
        .squares()
        // A square it may enter with any second action is of its own zone: a regular entry.
        .filter(|&e| !ok(vec![mv(e), Action::Nothing]))
        .find_map(|e| {
            board
                .neighbours(e)
                .find(|&n| ok(vec![mv(e), mv(n)]))
                .map(|n| (e, n))
        });
    let Some((entry, then)) = pair else {
        return String::new();
    };
    format!(
        "#   advanced deployment (004 \"Aircraft\"): MOVE + MOVE, these two lines together\n\
         #   move {entry}\n\
         #   move {then}\n\
         #     or: move <any square outside the opponents' zones>, then move <square>\n"
    )
}

/// 004 "Carry Capacity" (R461): the vehicles the unit may board from where it stands, and the
/// squares it may exit onto.
fn transport_lines(state: &State, u: &UnitState, ok: &dyn Fn(Vec<Action>) -> bool) -> String {
    let mut s = String::new();
    let board = |v: &str| {
        Action::Transport(Transport::Board {
            path: vec![],
            vehicle: v.to_string(),
        })
    };
    for v in state
        .units
        .iter()
        .filter(|v| v.side == u.side && v.id != u.id)
    {
        if ok(vec![board(&v.id), Action::Nothing]) {
            let note = if state.rules().battlefront() {
                "1 MP; mounted, it fires from it"
            } else {
                "1 MP; inside, it only exits"
            };
            s.push_str(&with_note(&format!("move board {}", v.id), note));
            s.push('\n');
        }
    }
    // 002 "Airlifter" (R748): an Airlifter over its vehicle picks it up as it moves.
    let lift = |sq: Square| Action::Transport(Transport::Lift { path: vec![sq] });
    let lifts: Vec<String> =
        u.at.filter(|_| state.rules().battlefront())
            .into_iter()
            .flat_map(|at| state.scenario.board.neighbours(at))
            .filter(|&sq| ok(vec![lift(sq), Action::Nothing]))
            .map(|sq| sq.to_string())
            .collect();
    if let Some((first, rest)) = lifts.split_first() {
        let note = "picks up the vehicle beneath, then flies (any flight)";
        s.push_str(&with_note(&format!("move lift {first}"), note));
        s.push('\n');
        s.push_str(&or_lines("to", rest));
    }
    let Some(at) = state
        .inside_of(u)
        .and_then(|v| state.unit(v))
        .and_then(|v| v.at)
    else {
        return s;
    };
    let exits: Vec<String> = state
        .scenario
        .board
        .neighbours(at)
        .filter(|&sq| {
            let exit = Action::Transport(Transport::Exit { path: vec![sq] });
            ok(vec![exit, Action::Nothing])
        })
        .map(|sq| sq.to_string())
        .collect();
    if let Some((first, rest)) = exits.split_first() {
        let note = "1 MP, then a second action (`nothing` is one)";
        s.push_str(&with_note(&format!("move exit {first}"), note));
        s.push('\n');
        s.push_str(&or_lines("to", rest));
    }
    s
}

/// The pilots of `side` who may leave their vehicle now, each with his `activate` block (004
/// "Pilot: Name": he disembarks "before the vehicle activates during the turn", R544). They are
/// not among the units to activate: a pilot activates with his vehicle otherwise.
pub(super) fn pilot_blocks(state: &State, side: &str) -> String {
    state
        .units
        .iter()
        .filter(|u| u.side == side && !u.destroyed && state.is_pilot(u))
        .map(|u| activation_block(state, u, &format!("activate {}", u.id)))
        .filter(|b| b.contains("move exit"))
        .collect()
}

/// Whether `u`'s card is a large vehicle (004 "LARGE VEHICLES").
fn large_card(state: &State, u: &UnitState) -> bool {
    state.cards.get(&u.card).is_some_and(|c| c.four_squares())
}
