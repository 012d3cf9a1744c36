//! 004 "Aircraft" (play reference 2) and the skills Hover and Air Superiority. An aircraft is a
//! unit whose card has aircraft armour (000 "Weapon lines": aircraft 1-3); it plays as a
//! vehicle except where these rules say otherwise (R440).

use super::*;

/// 004 "Aircraft": "Aircraft can never be targeted from more than 6 spaces away."
const MAX_RANGE_TO_AIRCRAFT: u32 = 6;

/// Whether the unit `id` is an aircraft: its card has aircraft armour (R440). Rules revision 5:
/// in games made before, an aircraft card played as a vehicle.
pub(super) fn is_aircraft(state: &State, id: &str) -> bool {
    state.revised(5)
        && state
            .unit(id)
            .and_then(|u| card(state, u))
            .is_some_and(|c| matches!(c.armour, model::Armour::Aircraft(_)))
}

/// Whether the unit `id` is an aircraft whose square blocks no ground unit's line of sight:
/// under battlefront-2013 an aircraft is "placed above" terrain (003 "Aircraft Move Over
/// Terrain"), and 003 "Line of Sight Through Units" names only Vehicle squares as blocking
/// (R807). Rules revision 9: in games made before, its square blocked as a vehicle's.
pub(super) fn above(state: &State, id: &str) -> bool {
    state.rules().battlefront() && state.revised(9) && is_aircraft(state, id)
}

/// The unit a weapon line aims at, if it aims at a unit.
fn target_unit(t: &Target) -> Option<&str> {
    match t {
        Target::Unit { unit } | Target::Model { unit, .. } => Some(unit),
        Target::Square { .. } => None,
    }
}

/// 004 "Aircraft": "They have LOS to any unit on the battlefield", and so any unit has line of
/// sight to them (R441): when the shooter or the target flies, the line is drawn from `to`
/// itself (a square always sees itself); otherwise from the shooter's square `from`.
pub(super) fn sight_from(
    state: &State,
    shooter: &str,
    target: &Target,
    from: Square,
    to: Square,
) -> Square {
    let flies =
        is_aircraft(state, shooter) || target_unit(target).is_some_and(|t| is_aircraft(state, t));
    if flies {
        to
    } else {
        from
    }
}

/// 004 "Aircraft": "Aircraft can never be targeted from more than 6 spaces away. Weapons with a
/// U range firing at aircraft treat Unlimited Range as Range 6."
pub(super) fn check_range(
    state: &State,
    target: &Target,
    w: &WeaponLine,
    dist: u32,
) -> Result<(), Refusal> {
    let Some(t) = target_unit(target).filter(|t| is_aircraft(state, t)) else {
        return Ok(());
    };
    // 003 sets no such limit: its aircraft are shot at any range (R802).
    if dist <= MAX_RANGE_TO_AIRCRAFT || state.rules().battlefront() {
        return Ok(());
    }
    refuse(
        format!(
            "{t} is an aircraft {dist} squares away: no weapon ({} included) reaches an aircraft beyond 6 squares",
            w.name
        ),
        RuleId::Aircraft.with("Aircraft can never be targeted from more than 6 spaces away"),
        format!("move within 6 squares of {t} first, or choose another target"),
    )
}

/// 004 "Air Superiority": "When this vehicle uses its weapons against an armor class [aircraft]
/// unit it treats all ATTACK actions as SUSTAINED ATTACK actions."
pub(super) fn air_superiority(state: &State, shooter: &str, target: &Target) -> bool {
    has_skill(state, shooter, Skill::AirSuperiority)
        && unit_type(state, shooter) == UnitType::Vehicle
        && target_unit(target).is_some_and(|t| is_aircraft(state, t))
}

/// 004 "Air Alt": "When this unit makes a SUSTAINED ATTACK against an armor class [aircraft]
/// unit, they have 2 chances to reroll any miss results." The unit's own skill (004 does not say
/// a hero shares it), for any unit type (R560).
pub(super) fn air_alt(state: &State, shooter: &str, target: &Target) -> bool {
    has_skill(state, shooter, Skill::AirAlt)
        && target_unit(target).is_some_and(|t| is_aircraft(state, t))
}

/// What aircraft `id` of `side` may not stop on, by the ruleset: under 004 any other unit's
/// square (R442); under 003 a friendly unit's square or an enemy aircraft's (R801), but for an
/// Airlifter the vehicle it will pick up (R748).
pub(super) fn may_stop_over(
    state: &State,
    id: &str,
    side: &str,
    occ: &Occupancy,
    at: Square,
) -> Option<String> {
    if !state.rules().battlefront() {
        return may_hover_over(occ, at);
    }
    let o = occ.get(&at)?.iter().find(|o| {
        (o.side == side || is_aircraft(state, &o.unit.0))
            // 002: an Airlifter stops over the vehicle it will pick up (R748).
            && !super::airlifter::may_hover_over(state, id, &o.unit.0)
    })?;
    Some(if o.side == side {
        format!(
            "{at} is occupied by {}: no unit may end its move in the same square as another friendly unit",
            o.unit
        )
    } else {
        format!(
            "{at} is occupied by the enemy aircraft {}: aircraft units cannot enter a square occupied by an enemy aircraft unit",
            o.unit
        )
    })
}

/// 003 "Moving Through Other Units": "Infantry and Vehicle units ... can enter a square occupied
/// by an enemy Aircraft unit" (R801): under battlefront-2013 a ground unit of `side` reads the
/// board without the enemy aircraft, which fly above it. Unchanged under the other rulesets.
pub(super) fn ground_occupancy<'a>(
    state: &State,
    side: &str,
    occ: &'a Occupancy,
) -> std::borrow::Cow<'a, Occupancy> {
    let enemy_air = |o: &Occupant| o.side != side && is_aircraft(state, &o.unit.0);
    let any = occ.values().flatten().any(enemy_air);
    if !state.rules().battlefront() || !any {
        return std::borrow::Cow::Borrowed(occ);
    }
    let mut out = occ.clone();
    for v in out.values_mut() {
        v.retain(|o| !enemy_air(o));
    }
    out.retain(|_, v| !v.is_empty());
    std::borrow::Cow::Owned(out)
}

/// 003 "Line of Sight to Aircraft": "An Aircraft can see and be seen from anywhere on the game
/// board, except that an Aircraft cannot see or be seen from a unit immediately behind terrain
/// that would block Line of Sight to a Vehicle unit, and cannot see or be seen from a unit in a
/// building unless the unit can be seen through or is looking through an opening on the edge of
/// its square" (R800). Under battlefront-2013, when exactly one of shooter and target flies,
/// only the terrain and walls next to the ground unit's square can block the line.
pub(super) fn check_sight_003(
    state: &State,
    shooter: &str,
    target: &Target,
    from: Square,
    to: Square,
) -> Result<(), Refusal> {
    if !state.rules().battlefront() {
        return Ok(());
    }
    let air_target = target_unit(target).is_some_and(|t| is_aircraft(state, t));
    let sight = sight_003(state, is_aircraft(state, shooter), air_target, from, to);
    if let Some(Sight::Blocked { at, why }) = sight {
        return refuse(
            format!("no line of sight past {at} from {from} to {to}: {why}"),
            RuleId::AircraftSight.with("an Aircraft cannot see or be seen from a unit immediately behind terrain that would block Line of Sight to a Vehicle unit"),
            "choose a target in sight, or move the ground unit out from behind the terrain first",
        );
    }
    Ok(())
}

/// The line of sight between `from` and `to` by 003 "Line of Sight to Aircraft" (R800) when
/// exactly one end flies under battlefront-2013; `None` otherwise (the usual test applies).
pub(super) fn sight_003(
    state: &State,
    from_air: bool,
    to_air: bool,
    from: Square,
    to: Square,
) -> Option<Sight> {
    let ground = match (from_air, to_air) {
        (true, false) => to,
        (false, true) => from,
        _ => return None,
    };
    // Strongpoints and bunkers are terrain that blocks (002, R727, R781): next to the ground
    // unit they hide it from an aircraft as trees do (R808; rules revision 9).
    let forts = if state.revised(9) {
        super::super::battlefront::strongpoints::all(state)
    } else {
        vec![]
    };
    state.rules().battlefront().then(|| {
        super::super::battlefront::sight::sight_to_aircraft(
            &state.scenario.board,
            &forts,
            ground,
            from,
            to,
        )
    })
}

/// What an aircraft may not stand on under 004 (the invariant of `illegal_positions`): another
/// unit's square only, as it flies over terrain (R442).
pub(super) fn may_hover_over(occ: &Occupancy, at: Square) -> Option<String> {
    occ.get(&at).and_then(|v| v.first()).map(|o| {
        format!(
            "{at} is occupied by {}: an aircraft may not stop on another unit's space",
            o.unit
        )
    })
}

impl Planner<'_> {
    /// 004 "Aircraft": "Aircraft ignore terrain restrictions when moving, and can fly over
    /// spaces without a dot in the center, or over friendly and enemy units. They cannot stop
    /// their movement on the same space as another unit". A flight costs what the same path
    /// costs on an open board (first diagonal 1, each further one 2; R1, R442) and must leave
    /// its square (R443).
    pub(super) fn fly(
        &mut self,
        from: Square,
        squares: &[Square],
        mp: u32,
    ) -> Result<Square, Refusal> {
        // 003's Large Aircraft flies its two squares (R773).
        if let Some(to) = self.fly_large2(from, squares, mp)? {
            return Ok(to);
        }
        let u = self.u;
        let rule = RuleId::Aircraft.with("aircraft ignore terrain restrictions when moving");
        let agile = has_skill(self.state, &u.id, Skill::Agile);
        let (mut path, mut straight, mut diagonals) = (vec![], 0u32, 0u32);
        let mut at = from;
        for &next in squares {
            let (dx, dy) = (
                next.col() as i32 - at.col() as i32,
                next.row() as i32 - at.row() as i32,
            );
            let d = dx.unsigned_abs().min(dy.unsigned_abs());
            let big = dx.unsigned_abs().max(dy.unsigned_abs());
            diagonals += d;
            straight += big - d;
            // Diagonal steps first, then straight ones: every square entered, in order.
            let (mut c, mut r) = (at.col() as i32, at.row() as i32);
            for i in 0..big {
                if i < d {
                    c += dx.signum();
                    r += dy.signum();
                } else if dx.unsigned_abs() > dy.unsigned_abs() {
                    c += dx.signum();
                } else {
                    r += dy.signum();
                }
                if let Some(s) = self.state.scenario.board.square(c, r) {
                    self.check_enemy_aircraft(s)?;
                    path.push(s);
                }
            }
            at = next;
        }
        let extra = if agile {
            0
        } else {
            diagonals.saturating_sub(1)
        };
        let cost = straight + diagonals + extra;
        if at == from || path.is_empty() {
            return refuse(
                format!("{} is an aircraft: its MOVE must leave {from}", u.id),
                RuleId::Aircraft.with("aircraft must at least make one MOVE action every round"),
                "move <another square>",
            );
        }
        if cost > mp {
            return refuse(
                format!(
                    "{} cannot fly to {at}: the flight costs {cost} movement points, Movement is {mp}",
                    u.id
                ),
                rule,
                format!("a flight of at most {mp} movement points"),
            );
        }
        if let Some(why) = may_stop_over(self.state, &u.id, &u.side, &self.occ, at) {
            let rule = if self.state.rules().battlefront() {
                RuleId::AircraftThroughUnits.with("it cannot end its move in the same square as another friendly unit; aircraft units cannot enter a square occupied by an enemy aircraft unit")
            } else {
                RuleId::Aircraft
                    .with("they cannot stop their movement on the same space as another unit")
            };
            return refuse(
                format!("{} cannot stop on {at}: {why}", u.id),
                rule,
                "end the flight on a free square (it may pass over units)",
            );
        }
        self.texts.push(format!("fly to {at}"));
        self.steps.push(Step::Move {
            path,
            crushed: vec![],
        });
        Ok(at)
    }

    /// 004 "Aircraft": "Aircraft must at least make one MOVE action every round; therefore they
    /// can never make a SUSTAINED ATTACK", unless they have Hover: "It is not required to take at
    /// least one MOVE action during its turn, and may therefore make a SUSTAINED ATTACK."
    pub(super) fn check_aircraft(&self) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        self.check_advanced_deployment()?;
        if !is_aircraft(state, &u.id) || has_skill(state, &u.id, Skill::Hover) {
            return Ok(());
        }
        // 002 "Helicopter": "does not have to take a Move Action as its first Action ...,
        // allowing it to take Sustained Attack Actions" (R806).
        let helicopter = crate::dust_tactics::battlefront::skills002::Skill002::Helicopter;
        if state.rules().battlefront() && card(state, u).is_some_and(|c| helicopter.of(c)) {
            return Ok(());
        }
        // 003 "Aircraft Must Move": "Aircraft must take a Move or March Move action as their
        // first action in each activation, unless they have the hover special rule" (R802).
        if state.rules().battlefront() {
            // 002 "Stunned": a Stunned aircraft's first action is the Nothing that removes the
            // token; it need not move that activation (R752).
            if self.kinds.first() == Some(&Kind::Move) || u.stunned {
                return Ok(());
            }
            return refuse(
                format!(
                    "{} is an aircraft: its first action must be a Move or March Move ({} declared)",
                    u.id,
                    self.texts.join(", ")
                ),
                RuleId::AircraftMustMove.with("aircraft must take a Move or March Move action as their first action in each activation, unless they have the hover special rule"),
                "a `move <square>` line first, then the other action",
            );
        }
        if self.kinds.contains(&Kind::Sustained) {
            return refuse(
                format!(
                    "{} is an aircraft without Hover: it can never make a SUSTAINED ATTACK",
                    u.id
                ),
                RuleId::Aircraft.with("aircraft must at least make one MOVE action every round; therefore they can never make a SUSTAINED ATTACK"),
                "move <square> + attack <weapon> at <target>",
            );
        }
        if !self.kinds.contains(&Kind::Move) {
            return refuse(
                format!(
                    "{} is an aircraft without Hover: it must make at least one MOVE each round ({} declared)",
                    u.id,
                    self.texts.join(", ")
                ),
                RuleId::Aircraft.with("aircraft must at least make one MOVE action every round"),
                "a `move <square>` line with the other action",
            );
        }
        Ok(())
    }
}

/// The squares of the other sides' deployment zones (their `entry`), which an aircraft's
/// advanced deployment may not enter.
fn opponents_zone(state: &State, side: &str) -> Vec<Square> {
    state
        .scenario
        .sides
        .iter()
        .filter(|s| s.id != side)
        .flat_map(|s| s.entry.iter().copied())
        .collect()
}

/// 004 "Aircraft", "Entering the Battlefield": "Advanced deployment: The aircraft can enter the
/// board on any space not in an opponent's deployment zone. The aircraft must make a MOVE + MOVE
/// action." (R545). Whether `u`, entering on `to` outside its own entry zone, deploys so: an
/// aircraft (rules revision 7), not back from a battlefront reserve; a square of an opponent's
/// zone is refused. Not an aircraft: `Ok(false)`, the usual refusal follows.
pub(super) fn advanced_deployment(
    state: &State,
    u: &UnitState,
    to: Square,
) -> Result<bool, Refusal> {
    let bf = state.rules().battlefront();
    if bf || !state.revised(7) || !is_aircraft(state, &u.id) || u.reserve_round.is_some() {
        return Ok(false);
    }
    if opponents_zone(state, &u.side).contains(&to) {
        return refuse(
            format!("{to} is in an opponent's deployment zone"),
            RuleId::Aircraft.with("advanced deployment: the aircraft can enter the board on any space not in an opponent's deployment zone"),
            "move <a square outside the opponents' deployment zones>, then move again",
        );
    }
    Ok(true)
}

/// Whether `u`'s entry on `to` is an advanced deployment (outside its own entry zone).
fn deploys_advanced(state: &State, u: &UnitState, to: Square) -> bool {
    is_aircraft(state, &u.id)
        && !super::super::battlefront::reserves::entry_zone(state, u).contains(&to)
}

/// An aircraft that entered by advanced deployment: its riders may not exit this round (R545).
pub(super) fn entered(state: &mut State, id: &str, to: Square) {
    let advanced = state
        .unit(id)
        .is_some_and(|u| deploys_advanced(state, u, to));
    let round = state.round;
    if let Some(u) = state.unit_mut(id).filter(|_| advanced) {
        u.advanced_round = Some(round);
    }
}

/// 004 "Aircraft": "If it has the Carry Capacity skill, any unit it carries may not exit on the
/// same turn in which the aircraft enters the battlefield" (by advanced deployment, R545).
pub(super) fn check_exit(state: &State, u: &UnitState, vehicle: &str) -> Result<(), Refusal> {
    let Some(v) = state.unit(vehicle) else {
        return Ok(());
    };
    if v.advanced_round != Some(state.round) {
        return Ok(());
    }
    refuse(
        format!(
            "{vehicle} entered the battlefield by advanced deployment this round: {} exits in a later round",
            u.id
        ),
        RuleId::Aircraft.with("any unit it carries may not exit on the same turn in which the aircraft enters the battlefield"),
        "nothing + nothing (stay inside this round)",
    )
}

impl Planner<'_> {
    /// 003 "Moving Through Other Units": "Aircraft units cannot enter a square occupied by an
    /// enemy Aircraft unit" (R801), under battlefront-2013: not even to pass over it.
    fn check_enemy_aircraft(&self, s: Square) -> Result<(), Refusal> {
        let u = self.u;
        if !self.state.rules().battlefront() {
            return Ok(());
        }
        let enemy = self.occ.get(&s).and_then(|v| {
            v.iter()
                .find(|o| o.side != u.side && is_aircraft(self.state, &o.unit.0))
        });
        let Some(o) = enemy else {
            return Ok(());
        };
        refuse(
            format!(
                "{} cannot fly over {s}: the enemy aircraft {} is there",
                u.id, o.unit
            ),
            RuleId::AircraftThroughUnits
                .with("aircraft units cannot enter a square occupied by an enemy aircraft unit"),
            "fly around the enemy aircraft (name the squares of the flight)",
        )
    }

    /// Advanced deployment is a MOVE + MOVE activation (004 "Aircraft", R545).
    fn check_advanced_deployment(&self) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let Some(to) = self.steps.iter().find_map(|s| match s {
            Step::Enter { to } => Some(*to),
            _ => None,
        }) else {
            return Ok(());
        };
        if !deploys_advanced(state, u, to) || self.kinds == [Kind::Move, Kind::Move] {
            return Ok(());
        }
        refuse(
            format!(
                "{} enters by advanced deployment on {to}: its activation is MOVE + MOVE ({} declared)",
                u.id,
                self.texts.join(", ")
            ),
            RuleId::Aircraft.with("advanced deployment: the aircraft must make a MOVE + MOVE action"),
            format!("move {to}, then a second `move <square>` line"),
        )
    }
}

impl Planner<'_> {
    /// R773: how a Large Aircraft sees the board it flies over: an open board (it crosses any
    /// terrain and wall), its friendly units and the enemy aircraft, and itself as a soldier
    /// would move (passing its friends, stopping on none of them; enemy aircraft closed to it).
    pub(super) fn flight(&self) -> Option<(model::Board, Occupancy, Mover)> {
        flight_of(self.state, self.u, &self.occ, self.mover())
    }

    /// R773: a Large Aircraft's flight: 003's Large model steps (R769) on [`Self::flight`]'s
    /// board, ending with neither square on a friendly unit or an enemy aircraft. `None` for any
    /// other unit.
    fn fly_large2(
        &mut self,
        from: Square,
        squares: &[Square],
        mp: u32,
    ) -> Result<Option<Square>, Refusal> {
        let Some((open, occ, mover)) = self.flight() else {
            return Ok(None);
        };
        let (state, u) = (self.state, self.u);
        let planned = super::super::battlefront::large2::plan(
            state,
            u,
            &self.steps,
            self.end_facing,
            &open,
            &occ,
            &mover,
            (from, squares),
            mp,
        );
        let Some(planned) = planned else {
            return Ok(None);
        };
        let (plan, facing) = planned.map_err(|e| Refusal {
            reason: format!("{} cannot fly: {}", u.id, e.reason),
            rule: e.rule.clone(),
            instead: format!("a flight of at most {mp} movement points"),
        })?;
        let to = plan.path.last().copied().unwrap_or(from);
        self.texts.push(format!("fly to {to}"));
        self.steps.push(Step::Move {
            path: plan.path,
            crushed: vec![],
        });
        self.large2_facing(Some(facing));
        Ok(Some(to))
    }
}

/// [`Planner::flight`] for unit `u` of `state` seen as `mover` among `occ` (also the board a
/// reacting Large Aircraft rotates over, R819). `None` for any unit but a Large Aircraft.
pub(super) fn flight_of(
    state: &State,
    u: &UnitState,
    occ: &Occupancy,
    mover: Mover,
) -> Option<(model::Board, Occupancy, Mover)> {
    let large2 = super::super::battlefront::large2::is_large2(state, u);
    if !large2 || !super::super::battlefront::large2::flies(state, u) {
        return None;
    }
    let b = &state.scenario.board;
    let open = model::Board::open(b.width(), b.height()).ok()?;
    let keep = |o: &Occupant| o.side == u.side || is_aircraft(state, &o.unit.0);
    let occ: Occupancy = (occ.iter())
        .map(|(sq, v)| {
            (
                *sq,
                v.iter().filter(|o| keep(o)).cloned().collect::<Vec<_>>(),
            )
        })
        .filter(|(_, v)| !v.is_empty())
        .collect();
    let mover = Mover {
        unit_type: UnitType::Squad,
        jump: false,
        tracked: false,
        ..mover
    };
    Some((open, occ, mover))
}
