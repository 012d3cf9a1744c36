//! 004 "Movement" and "During the first round": one MOVE action planned, entering the
//! battlefield or moving on it.

use super::*;

impl Planner<'_> {
    /// One MOVE: the entering move (ruling 2) or a path within the unit's Movement.
    pub(super) fn movement(&mut self, squares: &[Square]) -> Result<(), Refusal> {
        self.may_move_again()?;
        let to = match self.pos {
            None => self.enter(squares)?,
            // A unit above the ground floor walks it, or comes down, by the floors' steps (R514).
            Some(from) if self.height.is_some() => {
                self.climb(from, &crate::dust_tactics::floors::plain(squares))?
            }
            Some(from) => match self.move_from(from, squares) {
                Ok(to) => to,
                Err(e) => self.defer_first_move(squares).ok_or(e)?,
            },
        };
        self.pos = Some(to);
        self.moved_before = true;
        self.push_kind(Kind::Move);
        Ok(())
    }

    /// 004 "Move": "once a unit stops moving it may not move again this round".
    pub(super) fn may_move_again(&self) -> Result<(), Refusal> {
        let u = self.u;
        if u.stopped
            || (self.moved_before
                && self.last_kind.is_some()
                && self.last_kind != Some(Kind::Move)
                && !self.free_move)
        {
            return refuse(
                format!(
                    "{} has stopped moving this round and may not move again",
                    u.id
                ),
                RuleId::Move.with("once a unit stops moving it may not move again this round"),
                "replace this move with another action",
            );
        }
        Ok(())
    }

    /// Entering (ruling 2): one square of the entry zone, ends this action.
    fn enter(&mut self, squares: &[Square]) -> Result<Square, Refusal> {
        let (state, u) = (self.state, self.u);
        let Some(to) = squares.last().copied().filter(|_| squares.len() == 1) else {
            return refuse(
                format!(
                    "{} enters the battlefield: its move is one square of the entry zone",
                    u.id
                ),
                RuleId::FirstRound,
                format!("move <one of {}>", entry_text(state, u)),
            );
        };
        // issue 18 hook: a unit back from reserve may enter elsewhere (battlefront/reserves.rs).
        let zone = super::super::battlefront::reserves::entry_zone(state, u);
        // 003's two-square Large vehicle: front first, facing in, wholly on the board (R771).
        let large2 = super::super::battlefront::large2::is_large2(state, u);
        if large2 {
            if !self.enters_large2(&zone, to) {
                return Err(Refusal {
                reason: format!(
                    "{} is a Large vehicle: entering with its front on {to}, it faces in from the nearest edge and its rear is the square behind; both must be on the board and open to it, one of them in {}",
                    u.id,
                    super::super::battlefront::reserves::zone_name(state, u)
                ),
                rule: super::super::battlefront::huge::RULE.to_string(),
                instead: format!("move <one of {}>", entry_text(state, u)),
                });
            }
        } else if super::large::is_large(state, &u.id) {
            // 004 "LARGE VEHICLES": wholly on the battlefield in its entering MOVE (R567).
            if !super::large::entry_anchors(state, u, &zone).contains(&to) {
                return refuse(
                    format!(
                        "{} is a large vehicle: entering on {to} (its top-left square), its 4 squares must all be on the board and open to it, one of them in {}",
                        u.id,
                        super::super::battlefront::reserves::zone_name(state, u)
                    ),
                    RuleId::LargeVehicles
                        .with("large vehicles must use a MOVE action to enter the battlefield as normal"),
                    format!("move <one of {}>", entry_text(state, u)),
                );
            }
        // Issue 12: 004 "Aircraft" may enter by advanced deployment outside the zone (R545).
        } else if !zone.contains(&to) && !super::aircraft::advanced_deployment(state, u, to)? {
            return refuse(
                format!(
                    "{to} is not in {}",
                    super::super::battlefront::reserves::zone_name(state, u)
                ),
                RuleId::FirstRound,
                format!("move <one of {}>", entry_text(state, u)),
            );
        }
        // A hero may share a square with friendly units (004 "Heroes").
        let lone_hero = unit_type(state, &u.id) == UnitType::Hero;
        let shareable = self.occ.get(&to).map(|v| {
            lone_hero
                && v.iter()
                    .all(|o| o.side == u.side && o.unit_type != UnitType::Hero)
        });
        if shareable == Some(false) {
            return refuse(
                format!("{to} is occupied"),
                RuleId::Movement.with("one unit per square"),
                format!("move <one of {}>", entry_text(state, u)),
            );
        }
        self.steps.push(Step::Enter { to });
        self.texts.push(format!("enter at {to}"));
        Ok(to)
    }

    /// A move on the battlefield from `from` through the given squares.
    fn move_from(&mut self, from: Square, squares: &[Square]) -> Result<Square, Refusal> {
        let (state, u) = (self.state, self.u);
        let mover = self.mover();
        let mut mp = movement_of(state, &u.id);
        // battlefront-2013: 002's Blutkreuz leads Mindless Zombies at Move 3 (R763).
        mp = self.blutkreuz_mp().unwrap_or(mp);
        if self.flags.assault {
            mp *= 2;
        }
        if let Some(double) = self.double_move(mp) {
            return self.move_twice(mover, double, squares);
        }
        // Fast: +1 on one MOVE of the activation (004 "Fast").
        let fast = has_skill(state, &u.id, Skill::Fast) && !self.fast_used;
        let extra = self.charge_extra();
        let scout = self.scout_extra();
        // Issue 12: 004 "Aircraft" fly over terrain and units (R442).
        if super::aircraft::is_aircraft(state, &u.id) {
            let to = self.fly(from, squares, mp + fast as u32 + scout)?;
            self.fast_used |= fast;
            return Ok(to);
        }
        // issue 18 hook: 003's terrain table under battlefront-2013.
        let board = super::super::battlefront::terrain::movement_board(
            state.rules(),
            &state.scenario.board,
            &mover,
        );
        // 002 "Flying" (R714): every square open but the one the move ends on.
        let board = super::super::battlefront::skills002::flying_board(
            state,
            &u.id,
            board,
            squares.last().copied(),
        );
        // 002 "Naval Unit" (R755): deep water open, every other square closed.
        let board = super::super::battlefront::naval::naval_board(state, &u.id, board);
        super::super::battlefront::naval::check_move(state, &u.id, squares)?;
        // 002 "Bunkers and Strongpoints" (R721): only infantry enter a strongpoint.
        super::super::battlefront::strongpoints::check_move(state, &mover, squares)?;
        super::super::battlefront::terrain::check_move(state, &mover, squares)?;
        let board = super::super::battlefront::strongpoints::closed_board(state, board, &mover);
        let refusal = |e: geometry::MoveError| Refusal {
            reason: format!("{} cannot move: {}", u.id, e.reason),
            rule: e.rule.clone(),
            instead: match mp + scout {
                1 => "a move of at most 1 movement point (one square)".to_string(),
                n => format!("a move of at most {n} movement points"),
            },
        };
        let (occ, total) = (self.occupancy_for(&mover), mp + fast as u32 + extra + scout);
        // 003's two-square Large vehicle moves by its own steps and ends with a facing (R769).
        let (plan, ends) = match super::super::battlefront::large2::plan(
            state,
            u,
            &self.steps,
            self.end_facing,
            &board,
            &occ,
            &mover,
            (from, squares),
            total,
        ) {
            Some(r) => r.map(|(p, f)| (p, Some(f))).map_err(refusal)?,
            None => (
                geometry::plan_move(&board, &occ, &mover, from, squares, total).map_err(refusal)?,
                None,
            ),
        };
        super::underground::check_path(state, &self.occ, &u.id, &plan.path)?; // 004 sewers
        if fast && plan.cost > mp {
            self.fast_used = true;
        }
        if scout > 0 && plan.cost > mp + fast as u32 + extra {
            self.scout_used = true;
            self.texts.push("scout-vehicle: 2 extra spaces".into());
        }
        let to = plan.path.last().copied().unwrap_or(from);
        if extra > 0 {
            self.note_charge_square(plan.cost, mp + fast as u32, to);
        }
        self.texts.push(format!("move to {to}"));
        self.steps.push(Step::Move {
            path: plan.path,
            crushed: plan.crushed,
        });
        self.large2_facing(ends);
        Ok(to)
    }
}

impl Planner<'_> {
    /// The activating unit as the movement rules see it.
    pub(super) fn mover(&self) -> Mover {
        mover_of(self.state, self.u)
    }
}

/// A unit as the movement rules see it (its type and movement skills).
pub(super) fn mover_of(state: &State, u: &UnitState) -> Mover {
    // 003 "Water Squares" (R611): no Jump or Amphibious under battlefront-2013.
    super::super::battlefront::terrain::as_003(
        state.rules(),
        Mover {
            unit: model::UnitId(u.id.clone()),
            side: u.side.clone(),
            unit_type: card(state, u)
                .map(|c| c.unit_type)
                .unwrap_or(UnitType::Squad),
            // 004 "Dim Light, Low Ceilings": "Units cannot use the Jump skill" underground (R622).
            jump: has_skill(state, &u.id, Skill::Jump)
                && super::underground::jump_allowed(state, u),
            agile: has_skill(state, &u.id, Skill::Agile),
            tracked: has_skill(state, &u.id, Skill::TrackedVehicle),
            // 002 "Naval Unit": "treats Deep Water as Open Space" (R755).
            amphibious: has_skill(state, &u.id, Skill::Amphibious)
                || super::super::battlefront::naval::is_naval(state, &u.id),
            dozer: has_skill(state, &u.id, Skill::DozerBlade) && !state.rules().battlefront(), // R785
            large: super::large::is_large(state, &u.id),
        },
    )
}

impl Planner<'_> {
    /// 004 "Scout Vehicle": "During the first round only, this vehicle can move 2 extra
    /// spaces", on one MOVE (R404); a vehicle entering later never is in round 1.
    fn scout_extra(&self) -> u32 {
        let scout = self.state.round == 1
            && !self.scout_used
            && unit_type(self.state, &self.u.id) == UnitType::Vehicle
            && has_skill(self.state, &self.u.id, Skill::ScoutVehicle);
        if scout {
            2
        } else {
            0
        }
    }

    /// 000 "Move twice (MOVE + MOVE)": under a ruleset where two MOVEs are one move, the second
    /// MOVE right after a first one on the board continues it: `Some` of the start square and
    /// the doubled Movement.
    fn double_move(&self, mp: u32) -> Option<(Square, u32)> {
        // A Move after a March Move (002 At the Double, Scout: R710, R713) is a Move of its own.
        let march_made = self.kinds.iter().filter(|k| **k == Kind::Move).count() >= 2;
        // 003's Large vehicle makes its March Move as two Moves, one after the other (R769).
        let large2 = super::super::battlefront::large2::is_large2(self.state, self.u);
        if self.rules.moves_are_separate_actions()
            || large2
            || self.last_kind != Some(Kind::Move)
            || march_made
        {
            return None;
        }
        let start = self.u.at?;
        matches!(self.steps.last(), Some(Step::Move { .. })).then_some((start, 2 * mp))
    }

    /// 000 "Jump" example: the Hot Dog jumps a tank trap in a "double movement (MOVE + MOVE)".
    /// Under a ruleset where two MOVEs are one move, a first MOVE that cannot stop where it
    /// ends (on the trap) is kept as waypoints when a second MOVE follows: [`Self::move_twice`]
    /// plans both as one move, and refuses it if the whole move is illegal (R210). `None`: the
    /// first MOVE's own refusal stands.
    fn defer_first_move(&mut self, squares: &[Square]) -> Option<Square> {
        let first = self.last_kind != Some(Kind::Move);
        // R210 came with rules revision 3.
        let revised = self.state.revised(3);
        let large2 = super::super::battlefront::large2::is_large2(self.state, self.u);
        if self.rules.moves_are_separate_actions()
            || !self.next_is_move
            || !first
            || !revised
            || large2
        {
            return None;
        }
        let to = squares.last().copied()?;
        self.first_move_deferred = true;
        self.texts.push(format!("move to {to}"));
        self.steps.push(Step::Move {
            path: squares.to_vec(),
            crushed: vec![],
        });
        Some(to)
    }

    /// The second MOVE of a double move: the first MOVE's path and `squares` planned again as one
    /// move of `mp` (doubled) Movement from `start`, so a diagonal beyond the first costs 2 over
    /// the whole move; Fast adds 1, not doubled (000 "Fast").
    fn move_twice(
        &mut self,
        mover: Mover,
        (start, mp): (Square, u32),
        squares: &[Square],
    ) -> Result<Square, Refusal> {
        let (state, u) = (self.state, self.u);
        let (path, crushed_before) = match self.steps.last() {
            Some(Step::Move { path, crushed }) => (path.clone(), crushed.clone()),
            _ => {
                return refuse(
                    "there is no first move to continue",
                    RuleId::MoveTwice2010,
                    "move <square>",
                )
            }
        };
        let waypoints: Vec<Square> = path.iter().chain(squares).copied().collect();
        let fast = has_skill(state, &u.id, Skill::Fast);
        let extra = self.charge_extra();
        // The first MOVE may have spent them already: the double move is planned again whole.
        let scout = if self.state.round == 1
            && unit_type(state, &u.id) == UnitType::Vehicle
            && has_skill(state, &u.id, Skill::ScoutVehicle)
        {
            2
        } else {
            0
        };
        // issue 18 hook: 003's terrain table under battlefront-2013.
        let board = super::super::battlefront::terrain::movement_board(
            state.rules(),
            &state.scenario.board,
            &mover,
        );
        let board = super::super::battlefront::skills002::flying_board(
            state,
            &u.id,
            board,
            waypoints.last().copied(),
        );
        super::super::battlefront::strongpoints::check_move(state, &mover, &waypoints)?;
        super::super::battlefront::terrain::check_move(state, &mover, &waypoints)?;
        let board = super::super::battlefront::strongpoints::closed_board(state, board, &mover);
        let plan = geometry::plan_move(
            &board,
            &self.occupancy_for(&mover),
            &mover,
            start,
            &waypoints,
            mp + fast as u32 + extra + scout,
        )
        .map_err(|e| Refusal {
            reason: format!("{} cannot move twice: {}", u.id, e.reason),
            // Too far: 000's doubled Movement, not 004's two moves, is the rule broken.
            rule: if e.rule == RuleId::MovementPoints.with("movement points").to_string() {
                RuleId::MoveTwice2010
                    .with("double your unit's Movement")
                    .to_string()
            } else {
                e.rule.clone()
            },
            instead: format!(
                "a double move of at most {} movement points in all from {start}",
                mp + fast as u32 + extra
            ),
        })?;
        super::underground::check_path(state, &self.occ, &u.id, &plan.path)?; // 004 sewers
        self.fast_used = fast && plan.cost > mp;
        let to = plan.path.last().copied().unwrap_or(start);
        if extra > 0 {
            self.note_charge_square(plan.cost, mp + fast as u32, to);
        }
        // The crates of the first MOVE's squares keep what it said of them (`spare`); a deferred
        // first MOVE was never planned, so it said nothing.
        let deferred = std::mem::take(&mut self.first_move_deferred);
        let crushed = plan
            .crushed
            .into_iter()
            .filter(|c| deferred || !path.contains(c) || crushed_before.contains(c))
            .collect();
        // issue 18, 003 "Reacting to a March Move": where the first `move` line ended (R256).
        let bf = crate::dust_tactics::battlefront::react_choice::applies(self.state);
        if bf && !deferred && plan.path.starts_with(&path) {
            self.march_first_len = Some(path.len());
        }
        self.steps.pop();
        self.texts.pop();
        self.texts.push(format!(
            "move to {to} (MOVE + MOVE: one move of double Movement)"
        ));
        self.steps.push(Step::Move {
            path: plan.path,
            crushed,
        });
        Ok(to)
    }
}

/// The free squares of a side's entry zone, for the `instead` of a refused entering move.
pub(super) fn entry_text(state: &State, u: &UnitState) -> String {
    entry_free(state, u)
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The free squares of `u`'s entry zone (its side's, or 003's reserve entry, R289).
pub(super) fn entry_free(state: &State, u: &UnitState) -> Vec<Square> {
    // 003's two-square Large vehicle: its front's squares (R771).
    // The planner's own test, so a Large Aircraft's list is flown over terrain (R773).
    if super::super::battlefront::large2::is_large2(state, u) {
        let zone = super::super::battlefront::reserves::entry_zone(state, u);
        let p = Planner::new(state, u);
        return (state.scenario.board.squares())
            .filter(|&to| p.enters_large2(&zone, to))
            .collect();
    }
    if super::large::is_large(state, &u.id) {
        let zone = super::super::battlefront::reserves::entry_zone(state, u);
        return super::large::entry_anchors(state, u, &zone);
    }
    let occ = occupancy(state, &[]);
    super::super::battlefront::reserves::entry_zone(state, u)
        .into_iter()
        .filter(|q| !occ.contains_key(q))
        .collect()
}

impl Planner<'_> {
    /// `move … spare [<square> …]`: the MOVE just planned leaves the named ammo crates (none
    /// named: all it enters) standing. 004 "Cover & Movement": vehicles "may choose to crush the
    /// crate"; 000: "but this is not required" (ruling R150).
    pub(super) fn spare_crates(&mut self, spare: &[Square]) -> Result<(), Refusal> {
        let crushed = match self.steps.last_mut() {
            Some(Step::Move { crushed, .. }) => crushed,
            _ => {
                if let Some(sq) = spare.first() {
                    return refuse(
                        format!(
                            "{} crushes no ammo crate on {sq}: it enters the battlefield",
                            self.u.id
                        ),
                        RuleId::CrushCrates
                            .with("vehicles entering the space may choose to crush the crate"),
                        "leave out `spare`",
                    );
                }
                return Ok(());
            }
        };
        for sq in spare {
            if !crushed.contains(sq) {
                let entered: Vec<String> = crushed.iter().map(|s| s.to_string()).collect();
                return refuse(
                    format!(
                        "{} enters no ammo crate on {sq} in this move, so there is nothing to spare there",
                        self.u.id
                    ),
                    RuleId::CrushCrates.with("vehicles entering the space may choose to crush the crate"),
                    if entered.is_empty() {
                        "leave out `spare`".to_string()
                    } else {
                        format!("spare one of: {}", entered.join(" "))
                    },
                );
            }
        }
        let spared: Vec<Square> = if spare.is_empty() {
            std::mem::take(crushed)
        } else {
            let s: Vec<Square> = crushed
                .iter()
                .copied()
                .filter(|c| spare.contains(c))
                .collect();
            crushed.retain(|c| !spare.contains(c));
            s
        };
        if let Some(t) = self.texts.last_mut() {
            for sq in spared {
                t.push_str(&format!(", sparing the ammo crate on {sq}"));
            }
        }
        Ok(())
    }
}

impl Planner<'_> {
    /// The free square of a 000 Charge: one more movement point when the unit charges.
    pub(super) fn charge_extra(&self) -> u32 {
        (self.flags.charge && self.rules.charge_extra_square()) as u32
    }

    /// Notes where a move ends that needed the Charge's free square (`cost` over `budget`
    /// without it), for [`Planner::check_charge_2010`].
    pub(super) fn note_charge_square(&mut self, cost: u32, budget: u32, to: Square) {
        self.charge_square = (cost > budget).then_some(to);
    }

    /// 000 "Charge": MOVE (+ MOVE) + 1 free square + an attack with range 1 weapons, all the
    /// unit's actions; the free square only into a square adjacent to an enemy unit.
    pub(super) fn check_charge_2010(&self) -> Result<(), Refusal> {
        let rule = RuleId::Charge2010;
        if !matches!(
            self.kinds.as_slice(),
            [Kind::Move, Kind::Attack] | [Kind::Move, Kind::Move, Kind::Attack]
        ) {
            return refuse(
                format!(
                    "a Charge is move (+ move) + attack with range 1 weapons, using all the unit's actions; declared: {}",
                    self.texts.join(", ")
                ),
                rule.with("the unit performs MOVE + MOVE + 1 free square + attack with range 1 weapons"),
                "skill charge + move <square> (+ move <square>) + attack <range 1 weapon> at <target>",
            );
        }
        self.check_charge_square()
    }

    /// 000 "Charge": the free square only into a square adjacent to an enemy unit (checked when
    /// the charge's attack is planned, after its moves).
    pub(super) fn check_charge_square(&self) -> Result<(), Refusal> {
        let rule = RuleId::Charge2010;
        if let Some(to) = self.charge_square {
            let next_to_enemy = self.state.units.iter().any(|o| {
                o.side != self.u.side && !o.destroyed && o.at.is_some_and(|at| at.adjacent(to))
            });
            if !next_to_enemy {
                return refuse(
                    format!(
                        "{} needs the Charge's free square to reach {to}, which is not next to an enemy unit",
                        self.u.id
                    ),
                    rule.with("this extra square can only be used to move into a square adjacent to an enemy unit"),
                    "move one square less, or end the charge next to an enemy",
                );
            }
        }
        Ok(())
    }
}

impl Planner<'_> {
    /// The board as a move sees it. 000 "Jump": a jumping unit passes over a vehicle as over any
    /// other unit (R203), so vehicles are read as plain units for its move only, not for sight.
    pub(super) fn occupancy_for(&self, mover: &Mover) -> std::borrow::Cow<'_, Occupancy> {
        // 003 "Moving Through Other Units": ground units enter enemy aircraft's squares (R801).
        let base = super::aircraft::ground_occupancy(self.state, &mover.side, &self.occ);
        // A unit above the ground floor is not in the way on the ground (R514).
        let raised = super::floors::raised(self.state);
        if !(mover.jump && self.rules.jump_over_vehicles()) && raised.is_empty() {
            return base;
        }
        let mut occ = base.into_owned();
        for r in &raised {
            if let Some(v) = occ.get_mut(&r.at) {
                v.retain(|o| o.unit.0 != r.unit);
            }
        }
        occ.retain(|_, v| !v.is_empty());
        if !(mover.jump && self.rules.jump_over_vehicles()) {
            return std::borrow::Cow::Owned(occ);
        }
        for o in occ.values_mut().flatten() {
            if o.unit_type == UnitType::Vehicle {
                o.unit_type = UnitType::Squad;
            }
        }
        std::borrow::Cow::Owned(occ)
    }
}

impl Planner<'_> {
    /// R771: whether the Large vehicle planned may enter with its front on `to`.
    fn enters_large2(&self, zone: &[Square], to: Square) -> bool {
        // A Large Aircraft is placed above terrain and enemy ground units (R773).
        if let Some((open, occ, mover)) = self.flight() {
            return super::super::battlefront::large2::entry_ok(&open, &occ, &mover, zone, to);
        }
        let board = &self.state.scenario.board;
        super::super::battlefront::large2::entry_ok(board, &self.occ, &self.mover(), zone, to)
    }

    /// R770: a Large vehicle's move ends with the facing its body has (`ends`): a `turn` step
    /// right after the move records it, unless `move … facing` adds its own or nothing changed.
    pub(super) fn large2_facing(
        &mut self,
        ends: Option<super::super::battlefront::facing::Facing>,
    ) {
        let Some(f) = ends.filter(|_| self.end_facing.is_none()) else {
            return;
        };
        if super::super::battlefront::facing::after_steps(self.state, self.u, &self.steps)
            != Some(f)
        {
            self.steps.push(Step::Turn { facing: f });
        }
    }
}
