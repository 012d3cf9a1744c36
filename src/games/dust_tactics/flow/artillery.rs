//! 004 "Artillery Weapons (Range A)", "Reloadable Weapons", "Artillery Strike", "Magazine
//! Reload" and "[Weapon Name]: Reload" (rulings R415–R417).
//!
//! An artillery (range `A`) or reloadable line carries a Loaded token: it begins the game loaded,
//! firing it takes the token off, and one SKILL action (`skill reload`, or `skill reload <weapon>`)
//! puts it back. Magazine Reload keeps a unit's artillery loaded. An observer (a unit with
//! Artillery Strike; a command squad's while its radioman lives) spends a SKILL action
//! (`skill artillery-strike [<gun>] at <target>`) to activate a friendly artillery unit that has
//! not activated yet: it fires its indirect shot at a target the observer sees, within the
//! artillery line's range from the gun, and its activation is used.

use super::activation::Kind;
use super::*;

/// Whether `w` carries a Loaded token (artillery or reloadable). Under battlefront-2013 only
/// 002's "Reload Weapons" do: 002's "Artillery Weapons" have no token of their own (R690).
fn needs_token(state: &State, w: &WeaponLine) -> bool {
    if state.rules().battlefront() {
        return w.traits.contains(&WeaponTrait::Reloadable)
            || w.traits.contains(&WeaponTrait::Salvo);
    }
    w.range == WeaponRange::Artillery || w.traits.contains(&WeaponTrait::Reloadable)
}

/// Whether firing `w` takes the token off `shooter`'s card: Magazine Reload keeps artillery
/// loaded ("not required to take a SKILL action to reload their artillery weapons", R417).
fn empties(state: &State, shooter: &str, w: &WeaponLine) -> bool {
    // Rules revision 4: a game made before fired its artillery every activation.
    if !needs_token(state, w) || !state.revised(4) || salvo_only(state, w) {
        return false;
    }
    let magazine = state
        .unit(shooter)
        .and_then(|u| card(state, u))
        .is_some_and(|c| c.has(Skill::MagazineReload));
    !(magazine && w.range == WeaponRange::Artillery && !w.traits.contains(&WeaponTrait::Reloadable))
}

/// Whether `shooter`'s line `w` has its Loaded token now (or needs none).
pub(super) fn has_token(state: &State, shooter: &str, w: &WeaponLine) -> bool {
    !needs_token(state, w)
        || !state
            .unit(shooter)
            .is_some_and(|u| u.unloaded.contains(&w.id))
}

/// Whether `w` is 002's Salvo weapon and not a Reload weapon: it fires at the controlled rate
/// without its token; only a salvo needs it (R696).
fn salvo_only(state: &State, w: &WeaponLine) -> bool {
    state.rules().battlefront()
        && w.traits.contains(&WeaponTrait::Salvo)
        && !w.traits.contains(&WeaponTrait::Reloadable)
}

/// Whether `shooter`'s line `w` may fire now.
pub(super) fn loaded(state: &State, shooter: &str, w: &WeaponLine) -> bool {
    has_token(state, shooter, w) || salvo_only(state, w)
}

/// Takes the Loaded token off a line that has just fired (called as it is resolved).
pub(super) fn spend(state: &mut State, shooter: &str, w: &WeaponLine) {
    if empties(state, shooter, w) {
        if let Some(u) = state.unit_mut(shooter) {
            u.unloaded.insert(w.id.clone());
        }
    }
}

/// The rule a refusal about an empty line cites: 002's under battlefront-2013 (R690).
fn token_rule(state: &State, artillery: bool) -> String {
    if state.rules().battlefront() {
        return super::artillery002::RELOAD_002.to_string();
    }
    token_rule_004(artillery).to_string()
}

fn token_rule_004(artillery: bool) -> Citation {
    if artillery {
        RuleId::Artillery.with(
            "after they fire, the unit must reload at a cost of 1 SKILL action before it can fire that weapon again",
        )
    } else {
        RuleId::ReloadableWeapons
            .with("to reload (and replace the token), the unit must perform 1 SKILL action")
    }
}

/// A refusal citing `rule` as written (002's words under battlefront-2013).
fn refuse_s<T>(
    reason: impl Into<String>,
    rule: &str,
    instead: impl Into<String>,
) -> Result<T, Refusal> {
    Err(Refusal {
        reason: reason.into(),
        rule: rule.to_string(),
        instead: instead.into(),
    })
}

/// Whether an earlier step of this plan reloads `weapon` of `shooter`.
fn reloaded_in(steps: &[Step], weapon: &str) -> bool {
    steps
        .iter()
        .any(|s| matches!(s, Step::Reload { weapons } if weapons.iter().any(|w| w == weapon)))
}

/// Whether an earlier step of this plan fires `weapon` of `shooter`.
fn fired_in(steps: &[Step], shooter: &str, weapon: &str) -> bool {
    steps.iter().any(|s| match s {
        Step::Attack { lines, .. } => lines
            .iter()
            .any(|l| l.shooter == shooter && l.weapon.eq_ignore_ascii_case(weapon)),
        _ => false,
    })
}

/// Refuses a declared line whose weapon is empty (fired and not reloaded, or reloaded in this
/// activation before it is fired: 004 "A unit can fire and reload its weapon during the same
/// round").
pub(super) fn check_lines_loaded(
    state: &State,
    steps: &[Step],
    lines: &[LineOrder],
) -> Result<(), Refusal> {
    for l in lines {
        let Some((_, w)) = find_weapon(state, &l.shooter, &l.weapon) else {
            continue;
        };
        if loaded(state, &l.shooter, &w) || reloaded_in(steps, &w.id) {
            continue;
        }
        return Err(Refusal {
            reason: format!(
                "{} of {} is not loaded: it fired and has not been reloaded",
                w.name, l.shooter
            ),
            rule: token_rule(state, w.range == WeaponRange::Artillery),
            instead: format!(
                "skill reload {} as one action, then fire it with the other",
                w.id
            ),
        });
    }
    Ok(())
}

impl Planner<'_> {
    /// `skill reload [<weapon>]` and `skill artillery-strike [<gun>] at <target>`, or `None`
    /// when `name` is neither.
    pub(super) fn artillery_skill(
        &mut self,
        name: &str,
        target: Option<&TargetRef>,
    ) -> Option<Result<(), Refusal>> {
        let n = name.to_ascii_lowercase();
        if let Some(rest) = n.strip_prefix(Skill::Reload.id()) {
            if rest.is_empty() || rest.starts_with('-') {
                return Some(self.reload(rest.trim_start_matches('-'), target));
            }
        }
        if let Some(rest) = n.strip_prefix(Skill::ArtilleryStrike.id()) {
            if rest.is_empty() || rest.starts_with('-') {
                return Some(self.artillery_strike(rest.trim_start_matches('-'), target));
            }
        }
        None
    }

    /// 004 "Reload": one SKILL action puts the Loaded token back on an empty line (R415).
    fn reload(&mut self, weapon: &str, target: Option<&TargetRef>) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let rule = if state.rules().battlefront() {
            super::artillery002::RELOAD_002.to_string()
        } else {
            RuleId::ReloadableWeapons
                .with("to reload (and replace the token), the unit must perform 1 SKILL action")
                .to_string()
        };
        if target.is_some() {
            return refuse_s(
                "`skill reload` takes no target: name the weapon after `reload`",
                &rule,
                "skill reload <weapon>",
            );
        }
        // Lines of the group that are empty now, or emptied by an earlier action of this plan.
        let empty: Vec<(String, WeaponLine)> = weapons_of_group(state, &u.id)
            .into_iter()
            .filter(|(s, w)| {
                needs_token(state, w)
                    && !reloaded_in(&self.steps, &w.id)
                    && (!has_token(state, s, w)
                        || (fired_in(&self.steps, s, &w.id) && empties(state, s, w)))
            })
            .collect();
        let chosen: Vec<&(String, WeaponLine)> = if weapon.is_empty() {
            empty.iter().collect()
        } else {
            empty
                .iter()
                .filter(|(_, w)| w.id.eq_ignore_ascii_case(weapon))
                .collect()
        };
        let names = || {
            empty
                .iter()
                .map(|(_, w)| w.id.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match chosen.as_slice() {
            [] if weapon.is_empty() => refuse_s(
                format!("{} has no empty weapon to reload: every artillery or reloadable weapon it carries is loaded", u.id),
                &rule,
                "another action, e.g. `nothing`",
            ),
            [] => refuse_s(
                format!("{} has no empty artillery or reloadable weapon `{weapon}`", u.id),
                &rule,
                if empty.is_empty() {
                    "another action, e.g. `nothing`".to_string()
                } else {
                    format!("skill reload <one of {}>", names())
                },
            ),
            [(_, w)] => {
                let id = w.id.clone();
                self.steps.push(Step::Reload {
                    weapons: vec![id.clone()],
                });
                self.texts.push(format!("skill reload {id}"));
                self.push_kind(Kind::Skill);
                Ok(())
            }
            _ => refuse_s(
                format!("{} has several empty weapons ({}): one SKILL action reloads one", u.id, names()),
                &rule,
                format!("skill reload <one of {}>", names()),
            ),
        }
    }

    /// 004 "Artillery Strike": the observer orders an indirect shot as a SKILL action (R416).
    fn artillery_strike(&mut self, gun: &str, target: Option<&TargetRef>) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let rule = RuleId::ArtilleryStrike;
        let instead = "skill artillery-strike <artillery unit> at <enemy unit the observer sees>";
        if skill_owner(state, &u.id, Skill::ArtilleryStrike).is_none()
            && !super::nco::nco_observer(state, u)
        {
            return refuse(
                format!(
                    "{} is not an observer: it does not have Artillery Strike",
                    u.id
                ),
                rule.with("a unit with the Artillery Strike skill is considered an observer"),
                "another action",
            );
        }
        // 004 "Radioman": "When the radioman is eliminated, the command squad cannot use the
        // Artillery Strike skill"; it is the squad's one attempt of the round (R416).
        // 004 "NCO Command Squads": the field officer's, likewise (R522).
        if let Some((member, cite)) = super::nco::strike_member(card(state, u)) {
            if !u.models.iter().any(|m| m.eq_ignore_ascii_case(member)) {
                return refuse(
                    format!(
                        "the {member} of {} has been eliminated, and with him Artillery Strike",
                        u.id
                    ),
                    cite,
                    "another action",
                );
            }
            let attempted = self
                .steps
                .iter()
                .any(|s| matches!(s, Step::Command { .. } | Step::Strike { .. }));
            if attempted || u.command_round == Some(state.round) {
                return refuse(
                    format!(
                        "{} has already attempted a command squad ability this round",
                        u.id
                    ),
                    RuleId::CommandSquads
                        .with("you may only attempt to use 1 skill once per round"),
                    "remove that skill line",
                );
            }
        }
        if self.steps.iter().any(|s| matches!(s, Step::Strike { .. })) {
            return refuse(
                format!("{} orders one artillery strike per activation", u.id),
                rule.with("for one action, the unit can order an artillery strike"),
                "one `skill artillery-strike` line",
            );
        }
        let Some(from) = self.pos else {
            return refuse(
                format!("{} is not on the battlefield yet", u.id),
                RuleId::FirstRound.with("the first action is a move onto the board"),
                "move <entry square> first",
            );
        };
        let Some(TargetRef::Unit(tid)) = target else {
            return refuse(
                "an artillery strike needs the enemy unit it is fired at",
                rule,
                instead,
            );
        };
        let Some(t) = state.unit(tid).filter(|t| !t.destroyed && t.at.is_some()) else {
            return refuse(
                format!("there is no enemy unit `{tid}` on the board"),
                rule,
                instead,
            );
        };
        if t.side == u.side {
            return refuse(
                format!("{} is a friendly unit", t.id),
                RuleId::Attack.with("attacks target enemy units"),
                instead,
            );
        }
        let lead = leader_of(state, &t.id).unwrap_or_else(|| t.id.clone());
        let to = target_square(state, &lead).unwrap_or(from);
        // The guns: friendly artillery units on the board that have not activated this round.
        let guns: Vec<&UnitState> = state
            .units
            .iter()
            .filter(|g| {
                g.side == u.side
                    && leads(g)
                    && g.at.is_some()
                    && !group(state, &u.id).contains(&g.id)
                    && weapons_of_group(state, &g.id)
                        .iter()
                        .any(|(_, w)| w.range == WeaponRange::Artillery)
            })
            .collect();
        let gun_names = || {
            guns.iter()
                .map(|g| g.id.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let g = if gun.is_empty() {
            match guns.as_slice() {
                [g] => *g,
                [] => {
                    return refuse(
                        format!(
                            "{} has no friendly artillery unit on the battlefield to call",
                            u.side
                        ),
                        rule.with(
                            "immediately activate a friendly artillery unit on the battlefield",
                        ),
                        "another action",
                    )
                }
                _ => {
                    return refuse(
                        format!(
                            "several artillery units could fire ({}): name the one you call",
                            gun_names()
                        ),
                        rule,
                        format!(
                            "skill artillery-strike <one of {}> at {}",
                            gun_names(),
                            t.id
                        ),
                    )
                }
            }
        } else {
            match guns.iter().find(|g| g.id.eq_ignore_ascii_case(gun)) {
                Some(g) => *g,
                None => {
                    return refuse(
                        format!("`{gun}` is not a friendly artillery unit on the battlefield"),
                        rule.with(
                            "immediately activate a friendly artillery unit on the battlefield",
                        ),
                        if guns.is_empty() {
                            "another action".to_string()
                        } else {
                            format!(
                                "skill artillery-strike <one of {}> at {}",
                                gun_names(),
                                t.id
                            )
                        },
                    )
                }
            }
        };
        if g.activated {
            return refuse(
                format!("{} has already activated this round", g.id),
                RuleId::Artillery.with(
                    "indirect shots are only possible if the artillery unit has not yet activated",
                ),
                "call an artillery unit that has not activated, or another action",
            );
        }
        let gun_at = g.at.unwrap_or(from);
        let Some((shooter, w)) = weapons_of_group(state, &g.id)
            .into_iter()
            .find(|(s, w)| w.range == WeaponRange::Artillery && loaded(state, s, w))
        else {
            return refuse(
                format!(
                    "the artillery of {} is not loaded: it fired and has not been reloaded",
                    g.id
                ),
                token_rule_004(true),
                format!("activate {} and `skill reload` first", g.id),
            );
        };
        if let Some(a) = armour_of(state, &lead) {
            if w.against(a) == Fire::No {
                return refuse(
                    format!("{} cannot damage {} (armour {:?})", w.name, lead, a),
                    RuleId::WeaponLines.with("`-` cannot damage"),
                    "aim at a unit the artillery can damage",
                );
            }
        }
        // A large target: range to any of its squares, sight to any of them (R572).
        let (gun_sq, to_sq) =
            super::large::in_range_pair(state, (&g.id, gun_at), (&lead, to), w.range);
        let dist = geometry::distance(gun_sq, to_sq);
        if !geometry::in_range(w.range, dist) {
            return refuse(
                format!(
                    "not in range: {} at {gun_at} is {dist} squares from {to}, {} range {} (at least 4)",
                    g.id, w.name, w.range
                ),
                rule.with("the target must be within the artillery weapon's range"),
                "choose a target at least 4 squares from the artillery unit",
            );
        }
        let types = (unit_type(state, &u.id), unit_type(state, &lead));
        let unlimited = WeaponRange::Unlimited;
        let (from, to) = super::large::attack_pair(
            state,
            &self.occ,
            &u.id,
            from,
            Some(&lead),
            to,
            unlimited,
            types,
        );
        if let Sight::Blocked { at, why } = geometry::line_of_sight(
            &state.scenario.board,
            &self.occ,
            Sighter {
                square: from,
                unit_type: unit_type(state, &u.id),
            },
            Sighter {
                square: to,
                unit_type: unit_type(state, &lead),
            },
        ) {
            return refuse(
                format!(
                    "{} cannot see {}: no line of sight past {at} from {from} to {to}: {why}",
                    u.id, lead
                ),
                rule.with("perform 1 indirect shot at a unit to which the observer can trace LOS"),
                "choose a target the observer sees, or move the observer first",
            );
        }
        let line = LineOrder {
            shooter,
            weapon: w.id.clone(),
            target: Target::Unit { unit: lead.clone() },
            through: vec![],
            count: None,
            soldiers: None,
        };
        self.steps.push(Step::Strike {
            gun: g.id.clone(),
            lines: vec![line],
        });
        self.texts
            .push(format!("skill artillery-strike {} at {lead}", g.id));
        self.push_kind(Kind::Skill);
        Ok(())
    }
}

/// Runs an ordered strike: the gun activates (its activation is used, R416) and its indirect
/// shot is resolved like a normal attack, before the observer's next action.
pub(super) fn exec_strike(
    state: &mut State,
    act: &mut Activation,
    gun: &str,
    lines: Vec<LineOrder>,
    out: &mut Outcome,
) {
    let ready = state
        .unit(gun)
        .is_some_and(|g| !g.destroyed && g.at.is_some() && !g.activated);
    if !ready {
        say(
            out,
            format!("artillery strike: {gun} can no longer fire (destroyed or already activated)"),
        );
        return;
    }
    let command_squad = state
        .unit(&act.unit)
        .and_then(|o| card(state, o))
        .is_some_and(|c| c.has(Skill::CommandSquad) || c.has(Skill::NcoCommandSquad));
    if command_squad {
        let round = state.round;
        if let Some(cs) = state.unit_mut(&act.unit) {
            cs.command_round = Some(round);
        }
    }
    for m in group(state, gun) {
        if let Some(x) = state.unit_mut(&m) {
            x.activated = true;
        }
    }
    say(
        out,
        format!(
            "{} calls an artillery strike: {gun} activates and fires its indirect shot (its activation this round)",
            act.unit
        ),
    );
    act.steps.insert(
        0,
        Step::Attack {
            lines,
            sustained: false,
        },
    );
}

/// Runs a reload: the Loaded token goes back on the weapons.
pub(super) fn exec_reload(
    state: &mut State,
    act: &Activation,
    weapons: &[String],
    out: &mut Outcome,
) {
    for m in group(state, &act.unit) {
        let Some(x) = state.unit_mut(&m) else {
            continue;
        };
        for w in weapons {
            if x.unloaded.remove(w) {
                say(out, format!("{m} reloads {w}"));
            }
        }
    }
}
