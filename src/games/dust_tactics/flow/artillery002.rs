//! 002 "Artillery Weapons" and "Reload Weapons" under battlefront-2013 (issue 18; rulings
//! R690–R692). The Loaded token and `skill reload` are 004's (`artillery.rs`); what 002 words
//! differently is here: a range `A` line reaches 2-U (003 "Artillery Range (A)"), vehicles do not
//! block its line of sight, and it does not fire from inside area terrain (buildings, woods).
//! Every function is a no-op outside battlefront-2013.

use super::*;
use std::borrow::Cow;

/// 002 "Reload Weapons", the citation of a refusal about the Loaded token (R690).
pub(super) const RELOAD_002: &str = "002 \"Reload Weapons\": \"The Unit cannot attack with any Reload weapons unless it has its Loaded token ... To reload, the Unit performs a Reload Special Action and places the Loaded token back on the Unit Card\" (R690)";

/// 002 "Artillery Weapons", the citation of a refusal about where artillery fires from (R692).
const FROM_002: &str = "002 \"Artillery Weapons\": \"Artillery weapons cannot be fired from inside Area Terrain like buildings or woods\" (R692)";

/// Whether `w` is 002's artillery weapon in this game: a range `A` line under battlefront-2013
/// (003 "Artillery Range (A)": "These have a Range of 2-U and the Artillery special rule", R691).
pub(super) fn bf_artillery(state: &State, w: &WeaponLine) -> bool {
    state.rules().battlefront() && w.range == WeaponRange::Artillery
}

/// Whether `w` reaches `dist` squares: a battlefront artillery line 2 to unlimited (R691), any
/// other line as the engine reads its range.
pub(super) fn in_range(state: &State, w: &WeaponLine, dist: u32) -> bool {
    if bf_artillery(state, w) {
        return dist >= 2;
    }
    geometry::in_range(w.range, dist)
}

/// The occupancy a battlefront artillery line's sight is drawn through: without vehicles (002:
/// "An Artillery weapon can shoot over Vehicles, so Vehicles do not block Line of Sight", R691);
/// `occ` itself for every other line.
pub(super) fn sight_occ<'a>(
    state: &State,
    w: &WeaponLine,
    occ: &'a Occupancy,
) -> Cow<'a, Occupancy> {
    if !bf_artillery(state, w) {
        return Cow::Borrowed(occ);
    }
    let mut o = occ.clone();
    for v in o.values_mut() {
        v.retain(|x| x.unit_type != UnitType::Vehicle);
    }
    Cow::Owned(o)
}

/// Refuses a battlefront artillery line fired from a square of area terrain: trees (woods) or a
/// building (R692). A unit on one square has its weapon where it stands; a Huge vehicle fires
/// from the square of its block the engine draws the attack from (`large::attack_pair`).
pub(super) fn check_fire_from(state: &State, w: &WeaponLine, from: Square) -> Result<(), Refusal> {
    if !bf_artillery(state, w) {
        return Ok(());
    }
    let board = &state.scenario.board;
    let inside = if board.terrain(from) == model::Terrain::Trees {
        format!("the woods (trees) on {from}")
    } else if super::super::structures::inside(board, from, false).is_some() {
        format!("the building on {from}")
    } else {
        return Ok(());
    };
    Err(Refusal {
        reason: format!(
            "{} is an artillery weapon and fires from inside {inside}",
            w.name
        ),
        rule: FROM_002.to_string(),
        instead: "move out of the woods or the building first, then attack".to_string(),
    })
}

/// 002 "Artillery Observer", the citation of the observer's refusals (R693).
const OBSERVER_002: &str = "002 \"Artillery Observer\": \"When a Unit with Artillery Observer performs an Attack or Sustained Attack Action, they may use Artillery weapons (see page 100) of a friendly Unit that has not yet Activated, rather than their own Unit's weapons\" (R693)";

/// The card name of the skill.
const OBSERVER: &str = "artillery-observer";

fn no<T>(reason: impl Into<String>, rule: &str, instead: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal {
        reason: reason.into(),
        rule: rule.to_string(),
        instead: instead.into(),
    })
}

/// Whether a card of the group of `id` (the unit, its joined hero or the squad it joined)
/// carries Artillery Observer.
fn observer_in(state: &State, id: &str) -> bool {
    group(state, id).iter().any(|m| {
        state
            .unit(m)
            .and_then(|x| state.card_of(x))
            .is_some_and(|c| c.has_skill(OBSERVER))
    })
}

/// The friendly units `observer` may call: on the board, leading their group, not its own, with
/// an artillery line (R691).
fn guns<'a>(state: &'a State, observer: &UnitState) -> Vec<&'a UnitState> {
    let own = group(state, &observer.id);
    state
        .units
        .iter()
        .filter(|g| {
            g.side == observer.side
                && leads(g)
                && g.at.is_some()
                && !g.destroyed
                && !own.contains(&g.id)
                && weapons_of_group(state, &g.id)
                    .iter()
                    .any(|(_, w)| bf_artillery(state, w))
        })
        .collect()
}

impl<'a> Planner<'a> {
    /// `skill artillery-observer [sustained] [<gun>] at <target>` under battlefront-2013: the
    /// observer's Attack (or Sustained Attack) made with the artillery weapons of a friendly unit
    /// that has not activated (R693, R694). `None` when the line is not one.
    pub(super) fn observer002(
        &mut self,
        name: &str,
        target: Option<&TargetRef>,
    ) -> Option<Result<(), Refusal>> {
        if !self.rules.battlefront() {
            return None;
        }
        let n = name.to_ascii_lowercase();
        if n == SALVO {
            return Some(Ok(())); // declared with the free skills (`salvo002`)
        }
        if let Some(rest) = n.strip_prefix(SMOKE) {
            if rest.is_empty() || rest.starts_with('-') {
                return Some(self.smoke_screen(rest.trim_start_matches('-'), target));
            }
        }
        let rest = n.strip_prefix(OBSERVER)?;
        if !(rest.is_empty() || rest.starts_with('-')) {
            return None;
        }
        let rest = rest.trim_start_matches('-');
        let (sustained, gun) = match rest.strip_prefix("sustained") {
            Some(g) if g.is_empty() || g.starts_with('-') => (true, g.trim_start_matches('-')),
            _ => (false, rest),
        };
        Some(self.observe(gun, sustained, target))
    }

    fn observe(
        &mut self,
        gun: &str,
        sustained: bool,
        target: Option<&TargetRef>,
    ) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let sus = if sustained { "sustained " } else { "" };
        let instead =
            format!("skill {OBSERVER} {sus}<artillery unit> at <enemy unit the observer sees>");
        if !observer_in(state, &u.id) {
            return no(
                format!("{} does not have the Artillery Observer skill", u.id),
                OBSERVER_002,
                "remove that skill line; attack with the unit's own weapons",
            );
        }
        let Some(from) = self.pos else {
            return no(
                format!("{} is not on the battlefield yet", u.id),
                OBSERVER_002,
                "move <entry square> first",
            );
        };
        let Some(TargetRef::Unit(tid)) = target else {
            return no(
                "the observer's attack needs the enemy unit it is made at",
                OBSERVER_002,
                instead,
            );
        };
        let Some(t) = state.unit(tid).filter(|t| !t.destroyed && t.at.is_some()) else {
            return no(
                format!("there is no enemy unit `{tid}` on the board"),
                OBSERVER_002,
                instead,
            );
        };
        if t.side == u.side {
            return no(
                format!("{} is a friendly unit", t.id),
                OBSERVER_002,
                instead,
            );
        }
        let lead = leader_of(state, &t.id).unwrap_or_else(|| t.id.clone());
        let Some(to) = target_square(state, &lead) else {
            return no(format!("{lead} is not on the board"), OBSERVER_002, instead);
        };
        let g = self.pick_gun(gun, &lead, sus)?;
        let gun_at = g.at.unwrap_or(from);
        // 002: "The Artillery Unit immediately Activates and performs an Attack or Sustained
        // Attack Action ... with its Artillery weapons": every artillery line of its group that
        // can damage the target.
        let armour = armour_of(state, &lead);
        let arty: Vec<(String, WeaponLine)> = weapons_of_group(state, &g.id)
            .into_iter()
            .filter(|(_, w)| bf_artillery(state, w))
            .filter(|(_, w)| armour.is_none_or(|a| w.against(a) != Fire::No))
            .collect();
        if arty.is_empty() {
            return no(
                format!("the artillery of {} cannot damage {lead}", g.id),
                &RuleId::WeaponLines.with("`-` cannot damage").to_string(),
                "choose a target its artillery can damage",
            );
        }
        // Range and field of fire from the gun, "as normal"; not from woods or a building.
        let dist = geometry::distance(gun_at, to);
        let mut lines = vec![];
        for (shooter, w) in &arty {
            if !in_range(state, w, dist) {
                return no(
                    format!(
                        "not in range: {} at {gun_at} is {dist} squares from {to}; {} reaches 2 squares or more",
                        g.id, w.name
                    ),
                    OBSERVER_002,
                    "choose a target at least 2 squares from the artillery unit",
                );
            }
            check_fire_from(state, w, gun_at)?;
            lines.push(LineOrder {
                shooter: shooter.clone(),
                weapon: w.id.clone(),
                target: Target::Unit { unit: lead.clone() },
                through: vec![],
                count: None,
                soldiers: None,
            });
        }
        super::super::battlefront::facing::check_lines(state, g, &[], gun_at, &lines)?;
        // Line of sight from the observer, "rather than its own position" (vehicles do not
        // block it, R691).
        let types = (unit_type(state, &u.id), unit_type(state, &lead));
        let (ms, ts) = (
            Sighter {
                square: from,
                unit_type: types.0,
            },
            Sighter {
                square: to,
                unit_type: types.1,
            },
        );
        let occ = sight_occ(state, &arty[0].1, &self.occ);
        let forts = super::super::battlefront::strongpoints::all(state);
        let sight = super::super::battlefront::sight::line_of_sight_under(
            state.rules(),
            &state.scenario.board,
            &occ,
            &forts,
            ms,
            ts,
        );
        if let Sight::Blocked { at, why } = sight {
            return no(
                format!(
                    "{} cannot see {lead}: no line of sight past {at} from {from} to {to}: {why}",
                    u.id
                ),
                OBSERVER_002,
                "choose a target the observer sees, or move the observer first",
            );
        }
        super::skills002_d::check_camouflage(state, &self.occ, ms, ts, &lines[0].target)?;
        // 002: "If the Artillery weapon is a Reload weapon ... and did not perform a Sustained
        // Attack action, it may perform a Reload Action either before or after the Attack
        // Action" (R694): before when it is empty, after when it fires loaded.
        let (mut before, mut after) = (vec![], vec![]);
        for (shooter, w) in &arty {
            if !w.traits.contains(&WeaponTrait::Reloadable) {
                continue;
            }
            let empty = !super::artillery::loaded(state, shooter, w);
            match (empty, sustained) {
                (true, true) => {
                    return no(
                        format!("{} of {} is not loaded, and a Sustained Attack leaves it no Reload Action", w.name, g.id),
                        "002 \"Artillery Observer\": \"If the Artillery weapon is a Reload weapon ... and did not perform a Sustained Attack action, it may perform a Reload Action either before or after the Attack Action\" (R694)",
                        format!("skill {OBSERVER} {} at {lead} (an Attack, which reloads it first)", g.id),
                    )
                }
                (true, false) => before.push(w.id.clone()),
                (false, false) => after.push(w.id.clone()),
                (false, true) => {}
            }
        }
        self.texts
            .push(format!("skill {OBSERVER} {sus}{} at {lead}", g.id));
        self.steps.push(Step::Observed {
            gun: g.id.clone(),
            lines,
            sustained,
            reload_before: before,
            reload_after: after,
        });
        self.push_kind(if sustained {
            Kind::Sustained
        } else {
            Kind::Attack
        });
        Ok(())
    }

    /// The artillery unit the observer calls: the one named, or the only one.
    fn pick_gun(&self, gun: &str, lead: &str, sus: &str) -> Result<&'a UnitState, Refusal> {
        let state = self.state;
        let all = guns(state, self.u);
        let names = || {
            all.iter()
                .map(|g| g.id.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let g = if gun.is_empty() {
            match all.as_slice() {
                [g] => *g,
                [] => {
                    return no(
                        format!(
                            "{} has no friendly artillery unit on the battlefield",
                            self.u.side
                        ),
                        OBSERVER_002,
                        "attack with the unit's own weapons",
                    )
                }
                _ => {
                    return no(
                        format!(
                            "several artillery units could fire ({}): name the one you call",
                            names()
                        ),
                        OBSERVER_002,
                        format!("skill {OBSERVER} {sus}<one of {}> at {lead}", names()),
                    )
                }
            }
        } else {
            let Some(g) = all.iter().find(|g| g.id.eq_ignore_ascii_case(gun)) else {
                return no(
                    format!("`{gun}` is not a friendly artillery unit on the battlefield"),
                    OBSERVER_002,
                    if all.is_empty() {
                        "attack with the unit's own weapons".to_string()
                    } else {
                        format!("skill {OBSERVER} {sus}<one of {}> at {lead}", names())
                    },
                );
            };
            *g
        };
        let called = self
            .steps
            .iter()
            .any(|s| matches!(s, Step::Observed { gun, .. } if *gun == g.id));
        if g.activated || called {
            return no(
                format!("{} has already activated this round", g.id),
                OBSERVER_002,
                "call an artillery unit that has not activated, or attack with the unit's own weapons",
            );
        }
        Ok(g)
    }
}

/// Runs the observer's attack (R693): the artillery unit activates (its activation is used), a
/// Reload Action before if it was empty, its attack in the observer's activation, then a Reload
/// Action after (R694), and the observer goes on.
pub(super) fn exec_observed(
    state: &mut State,
    act: &mut Activation,
    step: Step,
    out: &mut Outcome,
) {
    let Step::Observed {
        gun,
        lines,
        sustained,
        reload_before,
        reload_after,
    } = step
    else {
        return;
    };
    let ready = state
        .unit(&gun)
        .is_some_and(|g| !g.destroyed && g.at.is_some() && !g.activated);
    if !ready {
        say(
            out,
            format!(
                "Artillery Observer: {gun} can no longer fire (destroyed or already activated)"
            ),
        );
        return;
    }
    for m in group(state, &gun) {
        if let Some(x) = state.unit_mut(&m) {
            x.activated = true;
        }
    }
    say(
        out,
        format!(
            "{} observes for {gun}: {gun} activates and makes the {} with its artillery (its activation this round)",
            act.unit,
            if sustained { "Sustained Attack" } else { "Attack" }
        ),
    );
    reload_gun(state, &gun, &reload_before, out);
    let mut next = vec![Step::Attack { lines, sustained }];
    if !reload_after.is_empty() {
        next.push(Step::GunReload {
            gun,
            weapons: reload_after,
        });
    }
    act.steps.splice(0..0, next);
}

/// The artillery unit's Reload Action of an observed attack (R694).
pub(super) fn reload_gun(state: &mut State, gun: &str, weapons: &[String], out: &mut Outcome) {
    for m in group(state, gun) {
        let Some(x) = state.unit_mut(&m) else {
            continue;
        };
        for w in weapons {
            if x.unloaded.remove(w) {
                say(
                    out,
                    format!("{m} reloads {w} (a Reload Action, Artillery Observer)"),
                );
            }
        }
    }
}

/// The declaration of 002 "Salvo Weapons" (R696).
const SALVO: &str = "salvo";

/// 002 "Salvo Weapons", the citation of a refused salvo (R696).
const SALVO_002: &str = "002 \"Salvo Weapons\": \"When a player makes an Attack or Sustained Attack Action, they can choose to roll twice the normal number of dice for a Salvo weapon, but if they do so, they remove the Loaded token from the Unit Card\" (R696)";

impl Planner<'_> {
    /// `skill salvo` under battlefront-2013, declared with the free skills (no action): the
    /// group's loaded Salvo lines roll twice the dice in this activation's attacks (R696).
    /// `None` when the line is not one.
    pub(super) fn salvo002(&mut self, name: &str) -> Option<Result<(), Refusal>> {
        if !self.rules.battlefront() || !name.eq_ignore_ascii_case(SALVO) {
            return None;
        }
        let (state, u) = (self.state, self.u);
        let lines: Vec<(String, WeaponLine)> = weapons_of_group(state, &u.id)
            .into_iter()
            .filter(|(_, w)| w.traits.contains(&WeaponTrait::Salvo))
            .collect();
        if lines.is_empty() {
            return Some(no(
                format!("{} has no Salvo weapon", u.id),
                SALVO_002,
                "remove `skill salvo`",
            ));
        }
        if !lines
            .iter()
            .any(|(s, w)| super::artillery::has_token(state, s, w))
        {
            return Some(no(
                format!(
                    "the Salvo weapon of {} has no Loaded token: it fired a salvo and has not been reloaded",
                    u.id
                ),
                SALVO_002,
                "remove `skill salvo` (the weapon fires at its normal rate), or reload it first in an earlier activation (`skill reload`)",
            ));
        }
        self.flags.salvo = true;
        self.texts.push(format!("skill {SALVO}"));
        Some(Ok(()))
    }
}

/// Whether line `w` of `shooter` fires a salvo now (R696): `skill salvo` declared in the
/// activating group's activation, a Salvo line with its Loaded token. The token is removed.
pub(super) fn fire_salvo(
    state: &mut State,
    act: &Activation,
    is_active: bool,
    shooter: &str,
    w: &WeaponLine,
) -> bool {
    let salvo = is_active
        && act.flags.salvo
        && state.rules().battlefront()
        && w.traits.contains(&WeaponTrait::Salvo)
        && super::artillery::has_token(state, shooter, w);
    if salvo {
        if let Some(x) = state.unit_mut(shooter) {
            x.unloaded.insert(w.id.clone());
        }
    }
    salvo
}

/// The order word of 002 "Smoke Screen" (R697).
const SMOKE: &str = "smoke-screen";

/// 002 "Smoke Screen", the citation of its refusals (R697).
const SMOKE_002: &str = "002 \"Smoke Screen\": \"the player chooses a point within the weapon's Field of fire, Range and Line of Sight and places a Smoke Screen at that point ... A Smoke Screen cannot be fired into a building\" (R697)";

impl Planner<'_> {
    /// `skill smoke-screen [<weapon>] at <square>` under battlefront-2013: an Attack action in
    /// which the group's artillery line fires smoke instead of attacking (R697).
    fn smoke_screen(&mut self, weapon: &str, target: Option<&TargetRef>) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let instead = format!(
            "skill {SMOKE} [<artillery weapon>] at <open square it sees, 2 or more squares away>"
        );
        let Some(from) = self.pos else {
            return no(
                format!("{} is not on the battlefield yet", u.id),
                SMOKE_002,
                "move <entry square> first",
            );
        };
        let arty: Vec<(String, WeaponLine)> = weapons_of_group(state, &u.id)
            .into_iter()
            .filter(|(_, w)| bf_artillery(state, w))
            .filter(|(_, w)| weapon.is_empty() || w.id.eq_ignore_ascii_case(weapon))
            .collect();
        let (shooter, w) = match arty.as_slice() {
            [one] => one.clone(),
            [] => {
                return no(
                    format!(
                        "{} has no artillery weapon{} to fire smoke",
                        u.id,
                        if weapon.is_empty() {
                            String::new()
                        } else {
                            format!(" `{weapon}`")
                        }
                    ),
                    SMOKE_002,
                    "attack, or another action",
                )
            }
            _ => {
                return no(
                    format!(
                        "{} has several artillery weapons: name the one firing smoke",
                        u.id
                    ),
                    SMOKE_002,
                    instead,
                )
            }
        };
        let Some(TargetRef::Square(at)) = target else {
            return no(
                "a Smoke Screen is fired at a square: name it",
                SMOKE_002,
                instead,
            );
        };
        let at = *at;
        let board = &state.scenario.board;
        if super::super::structures::inside(board, at, false).is_some() {
            return no(
                format!("{at} is inside a building: a Smoke Screen cannot be fired into one"),
                SMOKE_002,
                instead,
            );
        }
        if board.terrain(at) != model::Terrain::Open {
            return no(
                format!("{at} is {:?} terrain: the engine lays a Smoke Screen on open squares only (R697)", board.terrain(at)),
                SMOKE_002,
                instead,
            );
        }
        check_fire_from(state, &w, from)?;
        let dist = geometry::distance(from, at);
        if !in_range(state, &w, dist) {
            return no(
                format!("not in range: {} at {from} is {dist} squares from {at}; {} reaches 2 squares or more", u.id, w.name),
                SMOKE_002,
                instead,
            );
        }
        if !super::artillery::loaded(state, &shooter, &w)
            && !self
                .steps
                .iter()
                .any(|s| matches!(s, Step::Reload { weapons } if weapons.contains(&w.id)))
        {
            return no(
                format!("{} of {} is not loaded", w.name, u.id),
                super::artillery002::RELOAD_002,
                format!("skill reload {} first", w.id),
            );
        }
        let line = LineOrder {
            shooter: shooter.clone(),
            weapon: w.id.clone(),
            target: Target::Square { at },
            through: vec![],
            count: None,
            soldiers: None,
        };
        super::super::battlefront::facing::check_lines(
            state,
            u,
            &self.steps,
            from,
            std::slice::from_ref(&line),
        )?;
        let occ = sight_occ(state, &w, &self.occ);
        let forts = super::super::battlefront::strongpoints::all(state);
        let sight = super::super::battlefront::sight::line_of_sight_under(
            state.rules(),
            board,
            &occ,
            &forts,
            Sighter {
                square: from,
                unit_type: unit_type(state, &u.id),
            },
            Sighter {
                square: at,
                unit_type: UnitType::Squad,
            },
        );
        if let Sight::Blocked { at: past, why } = sight {
            return no(
                format!(
                    "{} cannot see {at}: no line of sight past {past} from {from}: {why}",
                    u.id
                ),
                SMOKE_002,
                instead,
            );
        }
        self.texts.push(format!("skill {SMOKE} {} at {at}", w.id));
        self.steps.push(Step::SmokeScreen {
            shooter,
            weapon: w.id.clone(),
            at,
        });
        self.push_kind(Kind::Attack);
        Ok(())
    }
}

/// Fires smoke (R697): the weapon's Loaded token goes as a shot's would; a die is rolled, and on
/// an army symbol (the lost symbol, provisional) the square is smoke until the end of the next
/// round (the engine's smoke token, as Smoke Mortars', R525).
pub(super) fn exec_smoke_screen(
    state: &mut State,
    shooter: &str,
    weapon: &str,
    at: Square,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let Some((_, w)) = find_weapon(state, shooter, weapon) else {
        return;
    };
    super::artillery::spend(state, shooter, &w);
    let round = state.round;
    let face = dice.d6(round);
    let symbol = super::super::battlefront::dice::Symbol::of_face(face);
    let laid = symbol == super::super::battlefront::dice::Symbol::Army
        && state.scenario.board.terrain(at) == model::Terrain::Open;
    let text = if laid {
        let was = state.scenario.board.terrain(at);
        state.scenario.board.set_terrain(at, model::Terrain::Smoke);
        state.smoke.push(SmokeToken {
            at,
            was,
            until: round + 1,
        });
        format!("Smoke Screen: {shooter} fires smoke from {} at {at}: army, a Smoke Screen on {at} blocks line of sight and gives cover until the end of round {}", w.name, round + 1)
    } else {
        format!(
            "Smoke Screen: {shooter} fires smoke from {} at {at}: {symbol:?}, no Smoke Screen",
            w.name
        )
    };
    let mut h = Happening::text(text);
    h.rolls = vec![Roll {
        purpose: format!("smoke screen {weapon}"),
        round,
        faces: vec![face],
    }];
    out.happenings.push(h);
}
