//! 004 "Carry Capacity" and "Command Vehicle" (issue 12, transport; R461–R466): squads and
//! heroes board a friendly vehicle, ride inside while it moves (off the board, in its space),
//! exit, and roll for their lives when it is destroyed; a command squad inside a Command Vehicle
//! gives its orders from there.
//!
//! A unit inside has `aboard` set and no square. When its vehicle is destroyed, [`mark_wreck`]
//! gives it the wreck's square (still `aboard`) until [`wrecks`] rolls its dice and places it.

use super::movement::mover_of;
use super::*;
use crate::dust_tactics::battlefront::naval;
use crate::dust_tactics::orders::carry::Transport;

const RULE: RuleId = RuleId::CarryCapacity;

/// The skill a vehicle card carries soldiers by and its capacity (the skill's value): Carry
/// Capacity, inside, or Tank Riders, outside, whose "capacity indicates the maximum number of 1
/// and 2 soldiers that it can carry. 3 and 4 soldiers count as two soldiers each" (004 "Tank
/// Riders", R467): the same count, so both share this machinery.
pub(super) fn carrier(c: &Card) -> Option<(Skill, u32)> {
    if c.unit_type != UnitType::Vehicle {
        return None;
    }
    [Skill::CarryCapacity, Skill::TankRiders]
        .into_iter()
        .find_map(|k| {
            let spec = c.skills.iter().find(|s| s.name == k.id())?;
            Some((k, spec.value.unwrap_or(0) as u32))
        })
}

/// The soldiers vehicle `id` may carry: the value of its Carry Capacity or Tank Riders.
pub(super) fn capacity(state: &State, id: &str) -> Option<u32> {
    let c = state.unit(id).and_then(|u| card(state, u))?;
    // 002 "A Sealifter has twelve spaces" (R776).
    if super::sealifter::played(state) && naval::sealifter_card(c) {
        return Some(naval::SEALIFTER_SPACES);
    }
    carrier(c).map(|(_, n)| n)
}

/// The places one unit takes inside a vehicle: "soldiers with 3 and 4 armor class count as 2
/// soldiers" (R463). A hero piloting the vehicle does not count (004 "Pilot: Name"): he is
/// its pilot, not `aboard` (R544).
pub(super) fn unit_places(u: &UnitState, c: &Card) -> u32 {
    // A vehicle's spaces count in a Sealifter only (R776; Carry Capacity: Vehicle has listings).
    if c.unit_type == UnitType::Vehicle {
        return naval::vehicle_spaces(c).unwrap_or(naval::SEALIFTER_SPACES + 1);
    }
    let each = match c.armour {
        model::Armour::Soldier(v) if v >= 3 => 2,
        _ => 1,
    };
    let miniatures = match c.unit_type {
        UnitType::Squad => u.models.len() as u32,
        _ => 1,
    };
    each * miniatures
}

/// The places a unit and its joined hero take (R463).
fn places(state: &State, leader: &str) -> u32 {
    group(state, leader)
        .iter()
        .filter_map(|m| state.unit(m))
        .filter_map(|m| card(state, m).map(|c| unit_places(m, c)))
        .sum()
}

/// The units inside vehicle `id` (their leaders: a joined hero rides with his squad), in
/// scenario order.
pub fn carrying(state: &State, id: &str) -> Vec<String> {
    state
        .units
        .iter()
        .filter(|u| leads(u) && u.aboard.as_deref() == Some(id))
        .map(|u| u.id.clone())
        .collect()
}

/// The units riding outside vehicle `id`, when it carries them by Tank Riders (R469).
pub(super) fn tank_riders(state: &State, id: &str) -> Vec<String> {
    let riders = state
        .unit(id)
        .and_then(|v| card(state, v))
        .and_then(carrier)
        .is_some_and(|(k, _)| k == Skill::TankRiders);
    if riders {
        carrying(state, id)
    } else {
        vec![]
    }
}

/// `: it is inside <vehicle>` for a unit inside a vehicle, for refusals that find it off the
/// board (R462).
pub(super) fn inside(u: &UnitState) -> String {
    u.aboard
        .as_ref()
        .map(|v| format!(": it is inside {v}"))
        .unwrap_or_default()
}

/// The soldier places taken inside vehicle `id` (carried vehicles take none: R476; in a
/// Sealifter they do, R776).
fn load(state: &State, id: &str) -> u32 {
    let sealifter = naval::is_sealifter(state, id);
    carrying(state, id)
        .iter()
        .filter(|p| sealifter || !super::carry_vehicle::is_vehicle(state, p))
        .map(|p| places(state, p))
        .sum()
}

/// The vehicle a unit rides in, when it is a command squad inside a living Command Vehicle
/// (004 "Command Vehicle", R466).
fn command_vehicle(state: &State, id: &str) -> Option<String> {
    let u = state.unit(id)?;
    let v = state.unit(u.aboard.as_deref()?)?;
    let commands =
        has_skill(state, id, Skill::CommandSquad) || has_skill(state, id, Skill::NcoCommandSquad);
    let cv = card(state, v).is_some_and(|c| c.has(Skill::CommandVehicle));
    (commands && cv && !v.destroyed).then(|| v.id.clone())
}

impl Planner<'_> {
    /// The shape of an activation that boards or exits (R461, R462): a unit inside a vehicle
    /// exits with its first action or stays inside (`nothing` twice), and a command squad in a
    /// Command Vehicle may give its order from there (R466); only `nothing` follows a boarding;
    /// no unit exits and boards in one activation.
    pub(super) fn transport_sequence(&mut self, actions: &[Action]) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        if super::passengers::played(state) {
            return self.passenger_sequence(actions); // 002 (R733)
        }
        if let Some(at) = super::riders::riding_square(state, &u.id) {
            return self.rider_sequence(actions, at);
        }
        let is = |a: &Action, exit: bool| matches!(a, Action::Transport(t) if matches!(t, Transport::Exit { .. }) == exit);
        let boards = actions.iter().position(|a| is(a, false));
        let exits = actions.iter().position(|a| is(a, true));
        // A pilot is inside his vehicle too, and leaves it the same way (R544).
        if let Some(v) = state.inside_of(u) {
            let exits_first = actions.first().is_some_and(|a| is(a, true));
            let stays = actions.iter().all(|a| matches!(a, Action::Nothing));
            let orders = command_vehicle(state, &u.id).is_some()
                && matches!(actions, [Action::Skill { name, .. }, Action::Nothing]
                    if super::command::Order::from_id(name).is_some());
            if !(exits_first || stays || orders) {
                return refuse(
                    format!("{} is inside {v}: it cannot act except to exit", u.id),
                    RULE.with("the unit cannot be activated except to exit the vehicle"),
                    format!(
                        "move exit <square next to {v}> and a second action, or nothing + nothing to stay inside"
                    ),
                );
            }
            if orders {
                // R466: the command squad's orders reach from the vehicle's space.
                self.pos = state.unit(v).and_then(|x| x.at);
            }
        } else if exits.is_some() {
            return refuse(
                format!("{} is not inside a vehicle", u.id),
                RULE,
                "move <square> …",
            );
        }
        if boards.is_some() && exits.is_some() {
            return refuse(
                format!("{} cannot both exit and board in one activation", u.id),
                RuleId::TankRiders
                    .with("a unit cannot both board and disembark from this vehicle during a single activation"),
                "exit now, board in a later activation",
            );
        }
        if let Some(b) = boards {
            if actions[b + 1..]
                .iter()
                .any(|a| !matches!(a, Action::Nothing))
            {
                return refuse(
                    format!("{} is inside the vehicle once it boards: it cannot act again this activation", u.id),
                    RULE.with("while a unit is inside a vehicle, it cannot use any skills or perform any actions"),
                    "the boarding move, then `nothing`",
                );
            }
        }
        Ok(())
    }

    /// Movement points for the part of a boarding or exit that is an ordinary move: Movement
    /// less the 1 MP the boarding or exit costs (R461).
    fn mp_besides_transport(&self) -> u32 {
        let mp = movement_of(self.state, &self.u.id);
        let mp = if self.flags.assault { mp * 2 } else { mp };
        mp.saturating_sub(1)
    }

    /// An ordinary move from `from` through `squares` with `mp` points, as `move_from` plans it.
    fn transport_path(
        &self,
        from: Square,
        squares: &[Square],
        mp: u32,
    ) -> Result<Vec<Square>, Refusal> {
        let state = self.state;
        let mover = self.mover();
        let board = super::super::battlefront::terrain::movement_board(
            state.rules(),
            &state.scenario.board,
            &mover,
        );
        geometry::plan_move(
            &board,
            &self.occupancy_for(&mover),
            &mover,
            from,
            squares,
            mp,
        )
        .map(|p| p.path)
        .map_err(|e| Refusal {
            reason: format!("{} cannot move: {}", self.u.id, e.reason),
            rule: e.rule.clone(),
            instead: format!(
                "a move of at most {mp} movement points (1 more is spent to board or exit)"
            ),
        })
    }

    /// "To board, it must be adjacent to the vehicle and spend 1 MP during a MOVE action. If the
    /// squad has more than 1 MP available ..., it may first move so that it is adjacent to the
    /// vehicle, then spend 1 MP to board" (004 "Carry Capacity", R461).
    pub(super) fn board(&mut self, path: &[Square], vehicle: &str) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let instead = format!("move <square next to {vehicle}> board {vehicle}");
        if u.stopped || (self.moved_before && self.last_kind.is_some_and(|k| k != Kind::Move)) {
            return refuse(
                format!(
                    "{} has stopped moving this round and may not move again",
                    u.id
                ),
                RuleId::Move.with("once a unit stops moving it may not move again this round"),
                "replace this move with another action",
            );
        }
        // A vehicle boards only a vehicle with Carry Capacity: Vehicle, by its listings (R476).
        let carried_vehicle = super::carry_vehicle::is_vehicle(state, &u.id);
        // 002 "Sealifter": a vehicle takes 6 or 12 of its spaces, never a Huge one (R776).
        let sealifter = naval::is_sealifter(state, vehicle);
        if carried_vehicle && sealifter {
            super::sealifter::check_board(state, &u.id, vehicle)?;
        } else if carried_vehicle {
            super::carry_vehicle::check_board(state, &u.id, vehicle)?;
        }
        let Some(from) = self.pos else {
            return refuse(
                format!("{} is off the board: it enters first", u.id),
                RuleId::FirstRound,
                "move <entry square>",
            );
        };
        let Some(v) = state.unit(vehicle).filter(|v| v.side == u.side) else {
            return refuse(
                format!("there is no vehicle `{vehicle}` on your side"),
                RULE.with("multiple units can board the same vehicle"),
                instead,
            );
        };
        let (Some(vat), false) = (v.at, v.destroyed) else {
            return refuse(format!("{} is not on the battlefield", v.id), RULE, instead);
        };
        // 004 "Pilot: Name" (R544): a hero who may pilot it boards as its pilot, in no place.
        let pilots = super::piloting::boards_as_pilot(state, u, v);
        let cap = match capacity(state, &v.id) {
            _ if carried_vehicle && !sealifter => u32::MAX,
            Some(cap) => cap,
            None if pilots => u32::MAX,
            None => {
                return refuse(
                    format!(
                        "{} has no Carry Capacity or Tank Riders: it carries nobody",
                        v.id
                    ),
                    RULE,
                    "board a vehicle with the Carry Capacity or Tank Riders skill",
                )
            }
        };
        let (need, load) = (places(state, &u.id), load(state, &v.id));
        if !pilots && load + need > cap {
            return refuse(
                format!(
                    "{} needs {need} place(s) in {}, which carries {load} of its {cap}",
                    u.id, v.id
                ),
                RULE.with("multiple units can board the same vehicle as long as its carry capacity is not exceeded"),
                "board another vehicle, or move",
            );
        }
        let mut moved = vec![];
        if !path.is_empty() {
            let mp = self.mp_besides_transport();
            if mp == 0 {
                return refuse(
                    format!("{} spends its only movement point to board: it must already stand next to {}", u.id, v.id),
                    RULE.with("if the squad has more than 1 MP available, it may first move so that it is adjacent to the vehicle"),
                    format!("move board {}", v.id),
                );
            }
            moved = self.transport_path(from, path, mp)?;
        }
        let end = moved.last().copied().unwrap_or(from);
        if !end.adjacent(vat) {
            return refuse(
                format!(
                    "{} would board from {end}, which is not next to {} on {vat}",
                    u.id, v.id
                ),
                RULE.with("to board, it must be adjacent to the vehicle"),
                instead,
            );
        }
        let pilot = if pilots { " and pilot it" } else { "" };
        self.texts.push(if moved.is_empty() {
            format!("board {}{pilot}", v.id)
        } else {
            format!("move to {end} and board {}{pilot}", v.id)
        });
        self.steps.push(Step::Board {
            path: moved,
            vehicle: v.id.clone(),
        });
        self.pos = None;
        self.moved_before = true;
        self.push_kind(Kind::Move);
        Ok(())
    }

    /// "Exiting a vehicle requires a MOVE action and 1 MP to exit. The unit is placed in any
    /// space adjacent to the vehicle, may spend any additional movement points normally" (004
    /// "Carry Capacity", R461).
    pub(super) fn exit(&mut self, path: &[Square]) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let Some(vid) = state.inside_of(u).map(str::to_string) else {
            return refuse(
                format!("{} is not inside a vehicle", u.id),
                RULE,
                "move <square> …",
            );
        };
        let Some(vat) = state.unit(&vid).and_then(|v| v.at) else {
            return refuse(
                format!(
                    "{vid} has not entered the battlefield: {} exits once it has",
                    u.id
                ),
                RULE.with("the unit is placed in any space adjacent to the vehicle"),
                "nothing + nothing",
            );
        };
        super::aircraft::check_exit(state, u, &vid)?;
        let Some((&first, rest)) = path.split_first() else {
            return refuse("`move exit` needs a square", RULE, "move exit C4");
        };
        let instead = format!("move exit <square next to {vid} on {vat}>");
        if !first.adjacent(vat) {
            return refuse(
                format!("{first} is not next to {vid} on {vat}"),
                RULE.with("the unit is placed in any space adjacent to the vehicle"),
                instead,
            );
        }
        let mover = self.mover();
        let board = super::super::battlefront::terrain::movement_board(
            state.rules(),
            &state.scenario.board,
            &mover,
        );
        if let Some(e) = geometry::may_stand(&board, &self.occupancy_for(&mover), &mover, first) {
            return Err(Refusal {
                reason: format!("{} cannot be placed on {first}: {}", u.id, e.reason),
                rule: e.rule.clone(),
                instead,
            });
        }
        let moved = if rest.is_empty() {
            vec![]
        } else {
            self.transport_path(first, rest, self.mp_besides_transport())?
        };
        let end = moved.last().copied().unwrap_or(first);
        self.texts.push(if moved.is_empty() {
            format!("exit {vid} onto {first}")
        } else {
            format!("exit {vid} onto {first} and move to {end}")
        });
        self.steps.push(Step::Exit {
            to: first,
            path: moved,
        });
        self.pos = Some(end);
        self.moved_before = true;
        self.push_kind(Kind::Move);
        Ok(())
    }
}

/// Runs a boarding: the move to the vehicle's side (through its minefields, R629), then the
/// unit, if it lives, is inside it.
pub(super) fn exec_board(
    state: &mut State,
    lead: &str,
    path: &[Square],
    vehicle: &str,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let Some(from) = state.unit(lead).and_then(|u| u.at) else {
        return;
    };
    let members = group(state, lead);
    if let Some(&to) = path.last() {
        for m in &members {
            if let Some(x) = state.unit_mut(m) {
                x.at = Some(to);
            }
        }
        tell(
            out,
            format!("{lead} moves to {to}"),
            DtEvent::Moved {
                unit: lead.to_string(),
                from,
                path: path.to_vec(),
            },
            vec![],
        );
        // 004 "Minefields" (R629, rules revision 7): the move to the vehicle enters them.
        if state.revised(7) {
            super::mines::minefields(state, lead, path, dice, out);
        }
    }
    let members: Vec<String> = members
        .into_iter()
        .filter(|m| state.unit(m).is_some_and(|x| !x.destroyed))
        .collect();
    if members.is_empty() {
        return;
    }
    let open = state
        .unit(vehicle)
        .filter(|v| !v.destroyed && v.at.is_some());
    // R544: a hero who may pilot it takes its controls, on its square, and is not `aboard`.
    let pilots = open
        .zip(state.unit(lead))
        .is_some_and(|(v, h)| super::piloting::boards_as_pilot(state, h, v));
    let open = open.map(|v| v.at);
    for m in &members {
        if let Some(x) = state.unit_mut(m) {
            x.moved = true;
            x.stopped = true;
            match open {
                Some(at) if pilots => {
                    x.at = at;
                    x.joined = Some(vehicle.to_string());
                }
                Some(_) => {
                    x.at = None;
                    x.aboard = Some(vehicle.to_string());
                }
                None => {}
            }
        }
    }
    if pilots {
        say(out, format!("{lead} boards {vehicle} and pilots it"));
    } else if open.is_some() {
        say(out, format!("{lead} boards {vehicle}"));
    }
}

/// Runs an exit: the unit is placed on `to`, then moves along `path`.
pub(super) fn exec_exit(
    state: &mut State,
    act: &Activation,
    to: Square,
    path: &[Square],
    out: &mut Outcome,
) {
    let lead = act.unit.as_str();
    let Some(vehicle) = state
        .unit(lead)
        .and_then(|u| state.inside_of(u))
        .map(str::to_string)
    else {
        return;
    };
    let from = state.unit(&vehicle).and_then(|v| v.at).unwrap_or(to);
    let end = path.last().copied().unwrap_or(to);
    for m in group(state, lead) {
        if let Some(x) = state.unit_mut(&m) {
            x.aboard = None;
            x.at = Some(end);
            x.moved = true;
            // A pilot leaves his controls (R544); a hero joined to the squad stays joined.
            if x.joined.as_deref() == Some(vehicle.as_str()) {
                x.joined = None;
            }
        }
    }
    stop_unless_moving_on(state, act, lead);
    let mut all = vec![to];
    all.extend_from_slice(path);
    let text = if path.is_empty() {
        format!("{lead} exits {vehicle} onto {to}")
    } else {
        format!("{lead} exits {vehicle} onto {to} and moves to {end}")
    };
    let event = DtEvent::Moved {
        unit: lead.to_string(),
        from,
        path: all,
    };
    tell(out, text, event, vec![]);
}

/// Leaves the riders of vehicle `id`, destroyed on `at`, in the wreck: they take its square,
/// still aboard, until [`wrecks`] rolls for them (R464).
pub(super) fn mark_wreck(state: &mut State, id: &str, at: Option<Square>) {
    for u in state.units.iter_mut() {
        if !u.destroyed && u.aboard.as_deref() == Some(id) {
            u.at = at;
        }
    }
}

/// "If the vehicle is destroyed, the player who controls the vehicle rolls one die at a time for
/// each miniature inside. A soldier is eliminated on a 4+ result and a hero loses 1 [health] on
/// a 4+ result" (004 "Carry Capacity", R464). The survivors are placed on the wreck's square, or
/// the nearest free square.
pub(super) fn wrecks(state: &mut State, dice: &mut dyn DiceSource, out: &mut Outcome) {
    loop {
        let wrecked = |v: &str| state.unit(v).is_none_or(|v| v.destroyed);
        let Some(rider) = state
            .units
            .iter()
            .find(|u| leads(u) && u.aboard.as_deref().is_some_and(wrecked))
            .map(|u| u.id.clone())
        else {
            return;
        };
        survive(state, &rider, dice, out);
    }
}

fn survive(state: &mut State, rider: &str, dice: &mut dyn DiceSource, out: &mut Outcome) {
    if super::passengers::played(state) {
        return super::passengers::survive(state, rider, dice, out); // 002 (R736)
    }
    let Some(u) = state.unit(rider).cloned() else {
        return;
    };
    let vehicle = u.aboard.clone().unwrap_or_default();
    let by = destroyed_by(state, &vehicle);
    let round = state.round;
    // One die per miniature: the squad's in card order, then its joined hero; a carried
    // vehicle (its pilot with it) rolls one, as a hero does (R476).
    let mut names: Vec<String> = u.models.clone();
    if super::carry_vehicle::is_vehicle(state, rider) {
        names = vec![u.id.clone()];
    } else {
        names.extend(group(state, rider).into_iter().skip(1));
    }
    if names.is_empty() {
        names.push(u.id.clone());
    }
    // 004 "Tank Riders": "If the die result is a ☉, that squad member is eliminated. A hit hero
    // loses 1 HP." (R468): a hit face, where Carry Capacity's riders fall on a 4+.
    let riders = state
        .unit(&vehicle)
        .and_then(|v| card(state, v))
        .and_then(carrier)
        .is_some_and(|(k, _)| k == Skill::TankRiders);
    let rules = state.rules();
    let falls = |f: u8| if riders { rules.is_hit(f) } else { f >= 4 };
    let faces: Vec<u8> = names.iter().map(|_| dice.d6(round)).collect();
    let lost: Vec<String> = names
        .iter()
        .zip(&faces)
        .filter(|(_, f)| falls(**f))
        .map(|(n, _)| n.clone())
        .collect();
    let on = if riders {
        let hits: Vec<String> = rules.hit_faces().iter().map(|f| f.to_string()).collect();
        format!("on a hit ({})", hits.join(" or "))
    } else {
        "on a 4+".to_string()
    };
    out.happenings.push(Happening {
        rolls: vec![Roll {
            purpose: format!("{rider} in the wreck of {vehicle}"),
            round,
            faces: faces.clone(),
        }],
        ..Happening::text(format!(
            "{vehicle} is destroyed with {rider} {}: {} roll(s) {}; {} {on}",
            if riders { "riding" } else { "inside" },
            names.len(),
            faces
                .iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            if lost.is_empty() {
                "nobody is hurt".to_string()
            } else {
                format!("{} hit", lost.join(", "))
            }
        ))
    });
    // Who rode in, taken before the losses: a hero whose squad is wiped out is unjoined.
    let members = group(state, rider);
    apply_named(state, rider, &lost, &by, out);
    let alive: Vec<String> = members
        .into_iter()
        .filter(|m| state.unit(m).is_some_and(|x| !x.destroyed))
        .collect();
    let Some(first) = alive.first().cloned() else {
        return;
    };
    let Some(at) = u.at.and_then(|wreck| free_square(state, &first, wreck)) else {
        // No square to stand on: nobody can be placed, so the survivors are lost (R464).
        for m in alive {
            destroy(state, &m, &by, out);
        }
        return;
    };
    for m in &alive {
        if let Some(x) = state.unit_mut(m) {
            x.aboard = None;
            x.at = Some(at);
        }
    }
    let text = format!("{first} climbs out of the wreck of {vehicle} onto {at}");
    let event = DtEvent::Entered {
        unit: first.clone(),
        to: at,
    };
    tell(out, text, event, vec![]);
}

/// The wreck's square if the rider may stand there, else the nearest square it may stand on
/// (fewest steps, then board order).
pub(super) fn free_square(state: &State, rider: &str, wreck: Square) -> Option<Square> {
    let u = state.unit(rider)?;
    let inside: Vec<String> = state
        .units
        .iter()
        .filter(|x| x.aboard.is_some())
        .map(|x| x.id.clone())
        .collect();
    let occ = occupancy(state, &inside);
    let mover = mover_of(state, u);
    let board = &state.scenario.board;
    let mut squares: Vec<Square> = board.squares().collect();
    squares.sort_by_key(|s| {
        let (dx, dy) = s.delta(wreck);
        dx.max(dy)
    });
    squares
        .into_iter()
        .find(|&s| geometry::may_stand(board, &occ, &mover, s).is_none())
}

/// 004 "Command Vehicle": "Once per round a command squad may re-roll any failed die results
/// when checking to see if it can successfully use one of its special abilities" (R466): a
/// command squad inside a Command Vehicle re-rolls its failed die; it makes one attempt a
/// round, so the re-roll is once a round.
pub(super) fn command_reroll(
    state: &State,
    lead: &str,
    face: u8,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) -> u8 {
    let Some(v) = command_vehicle(state, lead) else {
        return face;
    };
    if state.rules().is_hit(face) {
        return face;
    }
    let round = state.round;
    let again = dice.d6(round);
    out.happenings.push(Happening {
        rolls: vec![Roll {
            purpose: format!("command vehicle re-roll {lead}"),
            round,
            faces: vec![again],
        }],
        ..Happening::text(format!(
            "Command Vehicle: {lead}, inside {v}, re-rolls its failed die ({face}): {again}"
        ))
    });
    again
}

/// Checks the units a scenario puts inside vehicles at the start ("Squads and heroes can begin
/// the game inside a vehicle", R465): a friendly vehicle with Carry Capacity, room enough, no
/// square of their own; a joined hero rides with his squad.
pub(super) fn setup_aboard(
    scenario: &Scenario,
    units: &mut [UnitState],
    cards: &BTreeMap<String, Card>,
    rules: Rules,
) -> Result<(), SetupError> {
    // battlefront-2013 cites 002's Passengers (R732).
    let rule = match rules.battlefront() {
        true => "(002 'Passengers (#)', 'Mounting Vehicles')",
        false => "(004 'Carry Capacity')",
    };
    for spec in scenario.sides.iter().flat_map(|s| &s.units) {
        let Some(v) = &spec.aboard else { continue };
        let find = |id: &str| units.iter().position(|u| u.id.eq_ignore_ascii_case(id));
        let (Some(r), Some(vi)) = (find(&spec.id), find(v)) else {
            return Err(SetupError(format!(
                "unit {} begins aboard `{v}`, which is not a unit of the scenario {rule}",
                spec.id
            )));
        };
        let cap = cards.get(&units[vi].card).and_then(carrier);
        let soldier = cards
            .get(&units[r].card)
            .is_some_and(|c| c.unit_type.is_soldier());
        // A vehicle begins inside a vehicle with Carry Capacity: Vehicle (R476).
        let vehicle = cards
            .get(&units[r].card)
            .is_some_and(|c| !c.unit_type.is_soldier())
            && cards
                .get(&units[vi].card)
                .is_some_and(|c| !super::carry_vehicle::slots(c).is_empty());
        // 002 "Units can begin the game carried by the Sealifter" (R776).
        let sealifter = rules.battlefront()
            && cards
                .get(&units[vi].card)
                .is_some_and(naval::sealifter_card);
        if !(cap.is_some() && soldier || vehicle || sealifter) || units[vi].side != units[r].side {
            return Err(SetupError(format!(
                "unit {} cannot begin aboard {v}: only squads and heroes ride, in a vehicle of their side with Carry Capacity or Tank Riders {rule}",
                spec.id
            )));
        }
        if spec.at.is_some() || spec.joins.is_some() && units[r].joined.is_some() {
            return Err(SetupError(format!(
                "unit {} begins aboard {v}: remove its `at` (it has no square of its own), and give `aboard` to the squad a hero joins {rule}",
                spec.id
            )));
        }
        let vid = units[vi].id.clone();
        let rid = units[r].id.clone();
        for u in units.iter_mut() {
            if u.id == rid || u.joined.as_deref() == Some(rid.as_str()) {
                u.aboard = Some(vid.clone());
                u.at = None;
            }
        }
    }
    for v in units.iter() {
        let Some((skill, cap)) = cards.get(&v.card).and_then(carrier) else {
            continue;
        };
        let load: u32 = units
            .iter()
            .filter(|u| u.aboard.as_deref() == Some(v.id.as_str()))
            .filter_map(|u| cards.get(&u.card).map(|c| (u, c)))
            // Carried vehicles take no soldier place (R476).
            .filter(|(_, c)| c.unit_type.is_soldier())
            .map(|(u, c)| unit_places(u, c))
            .sum();
        if load > cap {
            return Err(SetupError(format!(
                "{} carries {load} soldier place(s) at the start, more than its {} of {cap}: soldiers of armour 3 and 4 count as 2 {rule}",
                v.id,
                skill.title()
            )));
        }
    }
    super::carry_vehicle::check_setup(units, cards)
}

/// The side that destroyed `unit` (its latest record), for the rolls its wreck's riders make.
pub(super) fn destroyed_by(state: &State, unit: &str) -> String {
    state
        .destroyed
        .iter()
        .rev()
        .find(|d| d.unit == unit)
        .map(|d| d.by.clone())
        .unwrap_or_default()
}
