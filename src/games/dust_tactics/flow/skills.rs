//! 004 "Skills": which unit has which skill, their uses, and the skills declared in an
//! activation (free skills, SKILL actions, and the passive ones that work by themselves, R61).

use super::*;

/// Whether a skill works for the unit `id` (its own card, or a shared skill of its joined hero;
/// digest §8 "share").
pub(super) fn has_skill(state: &State, id: &str, skill: Skill) -> bool {
    let Some(u) = state.unit(id) else {
        return false;
    };
    if card(state, u).map(|c| c.has(skill)).unwrap_or(false) {
        return true;
    }
    // A squad's skills always apply to a joined hero.
    if let Some(sq) = &u.joined {
        if let Some(s) = state.unit(sq) {
            if card(state, s).map(|c| c.has(skill)).unwrap_or(false) {
                return true;
            }
        }
    }
    if super::piloting::confers(state, &u.id, skill) {
        return true;
    }
    if skill.is_shared() {
        if let Some(h) = state.hero_of(&u.id) {
            return card(state, h).map(|c| c.has(skill)).unwrap_or(false);
        }
    }
    false
}

/// 004 "Badass": "All of the unit's limited ammo weapons are considered unlimited, but it can use
/// only up to the limited ammo per activation." A unit fires in one activation a round (its own,
/// or the reactive fire that activates it), so its boxes are filled again as each round ends
/// (R405).
pub(super) fn badass_refill(state: &mut State, out: &mut Outcome) {
    let ids: Vec<String> = state
        .units
        .iter()
        .filter(|u| !u.destroyed)
        .map(|u| u.id.clone())
        .collect();
    for id in ids {
        if !has_skill(state, &id, Skill::Badass) {
            continue;
        }
        let Some(c) = state.unit(&id).and_then(|u| card(state, u)).cloned() else {
            continue;
        };
        let Some(x) = state.unit_mut(&id) else {
            continue;
        };
        let mut filled = vec![];
        for w in &c.weapons {
            if let Some(boxes) = w.ammo {
                if x.ammo.get(&w.id).copied() != Some(boxes) {
                    x.ammo.insert(w.id.clone(), boxes);
                    filled.push(w.name.clone());
                }
            }
        }
        if !filled.is_empty() {
            say(
                out,
                format!("Badass: {id} has its ammo again for {}", filled.join(", ")),
            );
        }
    }
}

/// 004 "Heroic Attack": "all attacks made against this hero during this round ... do not cause
/// any damage"; shared with the squad he joined (R409).
pub(super) fn heroic(state: &State, id: &str, round: u32) -> bool {
    let on = |u: &UnitState| u.heroic_round == Some(round);
    state.unit(id).is_some_and(on) || state.hero_of(id).is_some_and(on)
}

/// 004 "Dozer Blade": "A vehicle with this skill can enter a space with an anti-tank trap. That
/// cover element is destroyed and removed from the board." (R410)
/// Under battlefront-2013 002's Dozer Blade crushes nothing, and a move ends its Dozer's Cover
/// (R785, R786).
pub(super) fn dozer_blade(state: &mut State, lead: &str, path: &[Square], out: &mut Outcome) {
    if state.rules().battlefront() {
        if super::super::battlefront::engineering::moved(state, lead) {
            say(
                out,
                format!(
                    "{lead} moves: it loses the Cover of its Dozer Special Action ({})",
                    super::super::battlefront::engineering::DOZER_CITE
                ),
            );
        }
        return;
    }
    if unit_type(state, lead) != UnitType::Vehicle || !has_skill(state, lead, Skill::DozerBlade) {
        return;
    }
    for sq in path {
        if state.scenario.board.cover_kind(*sq) == Some(model::CoverKind::TankTrap) {
            state.scenario.board.cover.remove(sq);
            say(
                out,
                format!("{lead}'s dozer blade destroys the anti-tank trap on {sq}"),
            );
        }
    }
}

/// Whether `side` has a living Legendary Tactician on the battlefield (004: "When rolling for
/// initiative, treat [hit] as [miss] and [miss] as [hit]"; R411).
pub(super) fn legendary_tactician(state: &State, side: &str) -> bool {
    state.units.iter().any(|u| {
        u.side == side
            && !u.destroyed
            && card(state, u).is_some_and(|c| c.has(Skill::LegendaryTactician))
    })
}

/// 004 "Legendary Tactician": "infantry squads in the army that are adjacent to the hero (and
/// any squad the hero joins) gain a level of cover up to hard cover" (R411).
pub(super) fn tactician_cover(state: &State, target: &UnitState) -> bool {
    if target.destroyed || card(state, target).map(|c| c.unit_type) != Some(UnitType::Squad) {
        return false;
    }
    state.units.iter().any(|h| {
        h.side == target.side
            && !h.destroyed
            && card(state, h).is_some_and(|c| c.has(Skill::LegendaryTactician))
            && (h.joined.as_deref() == Some(target.id.as_str())
                || matches!((h.at, target.at), (Some(a), Some(b)) if a.adjacent(b) && h.height == target.height))
    })
}

/// The shooters of the lines of an attack's stages.
pub(super) fn lines_of(stages: &[Step]) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for s in stages {
        if let Step::Fire { lines, .. } | Step::Close { lines, .. } = s {
            for l in lines {
                if !out.contains(&l.shooter) {
                    out.push(l.shooter.clone());
                }
            }
        }
    }
    out
}

/// One `Serum` step for each hero among `shooters` whose own card carries Wiederbelebungsserum,
/// placed after the attack's lines (004: "He recovers health after all weapon lines are
/// resolved").
pub(super) fn serum_steps(state: &State, shooters: &[String]) -> Vec<Step> {
    shooters
        .iter()
        .filter(|s| {
            state.unit(s).and_then(|u| card(state, u)).is_some_and(|c| {
                c.unit_type == UnitType::Hero && c.has(Skill::Wiederbelebungsserum)
            })
        })
        .map(|s| Step::Serum {
            hero: s.clone(),
            hits: 0,
        })
        .collect()
}

/// Counts the hits of `shooter`'s line on an enemy squad or hero into its pending Serum step.
pub(super) fn serum_count(act: &mut Activation, shooter: &str, hits: u32) {
    for s in act.steps.iter_mut() {
        if let Step::Serum { hero, hits: h } = s {
            if hero == shooter {
                *h += hits;
                return;
            }
        }
    }
}

/// 004 "Wiederbelebungsserum": "he recovers 1 health point for each [hit] result ... He cannot
/// recover more than his starting health points."
pub(super) fn serum(state: &mut State, hero: &str, hits: u32, out: &mut Outcome) {
    let Some(full) = state
        .unit(hero)
        .and_then(|u| card(state, u))
        .map(|c| c.health)
    else {
        return;
    };
    let Some(h) = state.unit_mut(hero) else {
        return;
    };
    if h.destroyed || hits == 0 {
        return;
    }
    let gained = (hits.min(u8::MAX as u32) as u8).min(full.saturating_sub(h.health));
    h.health += gained;
    say(
        out,
        format!("Wiederbelebungsserum: {hero} recovers {gained} health ({hits} hits)"),
    );
}

/// The member of the group whose card carries `skill` (where its use counter lives).
pub(super) fn skill_owner(state: &State, id: &str, skill: Skill) -> Option<String> {
    group(state, id).into_iter().find(|m| {
        state
            .unit(m)
            .and_then(|u| card(state, u))
            .map(|c| c.has(skill))
            .unwrap_or(false)
    })
}

pub(super) fn uses_left(state: &State, owner: &str, skill: Skill) -> u8 {
    let Some(u) = state.unit(owner) else { return 0 };
    let Some(c) = card(state, u) else { return 0 };
    let allowed = c
        .skills
        .iter()
        .find(|s| s.name == skill.id())
        .map(|s| {
            // 004 words these "once per game" whatever the card file says (000: all but
            // Fighting Spirit).
            let once = state.rules().once_per_game(skill);
            s.uses
                .map(|n| if once { n.min(1) } else { n })
                .unwrap_or(if once { 1 } else { u8::MAX })
        })
        .unwrap_or(0);
    allowed.saturating_sub(u.skills_used.get(skill.id()).copied().unwrap_or(0))
}

/// What a `skill <name>` line of an activation declares.
enum Declared {
    /// `skill detach`: a joined hero leaves his squad (004 "Heroes": separation).
    Detach,
    Skill(Skill),
    /// A name that is no skill of 004's reference.
    Unknown(String),
}

fn declared(name: &str) -> Declared {
    let n = name.to_ascii_lowercase();
    match Skill::from_id(&n) {
        Some(s) => Declared::Skill(s),
        None if n == "detach" => Declared::Detach,
        None => Declared::Unknown(n),
    }
}

/// The `instead` of a `skill` line the engine cannot use as an action.
fn usable_skills() -> String {
    let free: Vec<&str> = Skill::FREE.iter().map(|s| s.id()).collect();
    format!(
        "free skills: {}, detach; SKILL actions: {}, {}, {}, {}, {}, and a command squad's orders {}; the others work by themselves",
        free.join(", "),
        Skill::TankHead,
        Skill::Reload,
        Skill::ArtilleryStrike,
        Skill::EngineerVehicle,
        Skill::RecoveryVehicle,
        super::command::order_names()
    )
}

impl Planner<'_> {
    /// The free skills declared in the activation (they shape the other actions).
    pub(super) fn free_skills(&mut self, actions: &[Action]) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        for a in actions {
            let Action::Skill { name, .. } = a else {
                continue;
            };
            // battlefront-2013: 002's declared skills (Lucky, R760).
            if let Some(r) = self.declare002(name).or_else(|| self.salvo002(name)) {
                r?;
                continue;
            }
            let Declared::Skill(n) = declared(name) else {
                continue;
            };
            if !n.is_free() {
                continue;
            }
            // battlefront-2013: a Mindless Zombie unit the Blutkreuz leads has Charge (R763),
            // not on its card, so with no use counter.
            let own = skill_owner(state, &u.id, n);
            let led = own.is_none() && n == Skill::Charge;
            let led = led.then(|| self.blutkreuz_charge()).flatten();
            let Some(owner) = own.or_else(|| led.clone()) else {
                return refuse(
                    format!("{} does not have the skill {n}", u.id),
                    RuleId::Skills,
                    "remove that skill line",
                );
            };
            if led.is_none() && uses_left(state, &owner, n) == 0 {
                return refuse(
                    format!("{owner} has already used {n} as often as its card allows"),
                    RuleId::Skills,
                    "remove that skill line",
                );
            }
            if n == Skill::Berserk
                && self.rules.berserk_heroes_only()
                && unit_type(state, &owner) != UnitType::Hero
            {
                return refuse(
                    format!("{owner} is not a hero: in the 2010 rules only a hero has Berserk"),
                    RuleId::Berserk2010.with("a hero with this ability ... once per game"),
                    "remove `skill berserk`",
                );
            }
            match n {
                Skill::Berserk => self.flags.berserk = true,
                Skill::Assault => self.flags.assault = true,
                Skill::Charge => self.flags.charge = true,
                Skill::FightingSpirit => self.flags.fighting_spirit = true,
                Skill::CombineShots => {
                    if !weapons_of_group(state, &u.id)
                        .iter()
                        .any(|(m, w)| combinable(state, m, w))
                    {
                        return refuse(
                            format!(
                                "{} has no flamethrower line of 2 to combine (`carriers = 2` on a vehicle's flamethrower)",
                                u.id
                            ),
                            RuleId::Skills.with("available to some vehicles with 2 flamethrowers"),
                            "remove `skill combine-shots`",
                        );
                    }
                    self.flags.combine_shots = true;
                }
                _ => {}
            }
            // Charge has no use counter (004: not limited per game), nor has Fighting Spirit in
            // 000 (every time the hero moved before attacking).
            let unlimited = n == Skill::Charge
                || n == Skill::CombineShots
                || (n == Skill::FightingSpirit && self.rules.fighting_spirit_always());
            if !unlimited {
                self.uses.push((owner, n));
            }
            self.texts.push(format!("skill {n}"));
        }
        Ok(())
    }

    /// A `skill` line in the action sequence: Detach, a free skill (already planned), a passive
    /// skill (accepted, changes nothing) or the SKILL action Tank Head.
    pub(super) fn skill_action(
        &mut self,
        name: &str,
        target: Option<&TargetRef>,
    ) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        if let Some(r) = self.skill_action002(name, target) {
            return r;
        }
        // issue 18: 002's command squads and Officer (R640–R649).
        if let Some(r) = self.command002(name, target) {
            return r;
        }
        if let Some(r) = self.nco_skill(name, target) {
            return r;
        }
        if let Some(order) = super::command::Order::from_id(name) {
            return self.command_order(order, target);
        }
        if let Some(r) = self.artillery_skill(name, target) {
            return r;
        }
        if let Some(r) = self.observer002(name, target) {
            return r; // 002 "Artillery Observer" (R693)
        }
        if let Some(r) = self.engineering_skill(name, target) {
            return r;
        }
        // 002's Engineering Special Action on barbed wire and minefields (R726).
        if let Some(r) = self.engineering(name, target) {
            return r;
        }
        // 002's Dozer Special Action (R786).
        if let Some(r) = self.dozer_action(name) {
            return r;
        }
        match declared(name) {
            Declared::Detach => {
                let Some(h) = state.hero_of(&u.id) else {
                    if state.joined_of(&u.id).iter().any(|c| state.is_commissar(c)) {
                        return refuse(
                            format!("{} has no joined hero to detach, and its Commissar never leaves", u.id),
                            RuleId::Skills.with("Commissar: joins a unit for the entire game and cannot leave the unit for any reason"),
                            "remove `skill detach`",
                        );
                    }
                    return refuse(
                        format!("{} has no joined hero to detach", u.id),
                        RuleId::HeroDetach.with("separation"),
                        "remove `skill detach`",
                    );
                };
                self.steps.push(Step::Detach { hero: h.id.clone() });
                self.texts.push(format!("{} detaches", h.id));
                Ok(())
            }
            Declared::Skill(s) if s.is_free() => Ok(()),
            Declared::Skill(s) if s.is_passive() => {
                if skill_owner(state, &u.id, s).is_none() {
                    return refuse(
                        format!("{} does not have the skill {s}", u.id),
                        RuleId::Skills,
                        "remove that skill line",
                    );
                }
                self.texts.push(format!("skill {s} (works by itself)"));
                Ok(())
            }
            Declared::Skill(Skill::TankHead) => self.tank_head(target),
            Declared::Skill(s) => not_an_action(s.id()),
            Declared::Unknown(n) => not_an_action(&n),
        }
    }

    /// Tank Head (004): heal an adjacent friendly vehicle, once per game.
    fn tank_head(&mut self, target: Option<&TargetRef>) -> Result<(), Refusal> {
        let (state, u) = (self.state, self.u);
        let Some(owner) = skill_owner(state, &u.id, Skill::TankHead) else {
            return refuse(
                format!("{} does not have Tank Head", u.id),
                RuleId::TankHead,
                "remove that skill line",
            );
        };
        if uses_left(state, &owner, Skill::TankHead) == 0 {
            return refuse(
                format!("{owner} has already used Tank Head"),
                RuleId::TankHead.with("once per game"),
                "remove that skill line",
            );
        }
        let tid = match target {
            Some(TargetRef::Unit(t)) => t.clone(),
            _ => {
                return refuse(
                    "Tank Head needs a target vehicle",
                    RuleId::TankHead,
                    "skill tank-head at <adjacent friendly vehicle>",
                )
            }
        };
        let Some(t) = state.unit(&tid) else {
            return refuse(
                format!("there is no unit `{tid}`"),
                RuleId::TankHead,
                "skill tank-head at <adjacent friendly vehicle>",
            );
        };
        let ok = t.side == u.side
            && !t.destroyed
            && unit_type(state, &t.id) == UnitType::Vehicle
            // Next to any of a large vehicle's 4 squares (R573).
            && matches!((self.pos, t.at), (Some(a), Some(b)) if super::large::touching(state, &u.id, a, &t.id, b))
            && self.height == t.height; // never adjacent at different heights (R517)
        if !ok {
            return refuse(
                format!("{} is not a friendly vehicle adjacent to {}", t.id, u.id),
                RuleId::TankHead.with("heal an adjacent friendly vehicle"),
                "skill tank-head at <adjacent friendly vehicle>",
            );
        }
        // 002 "Special Actions in Bunkers and Strongpoints" (R727).
        super::super::battlefront::strongpoints::check_reach(
            state,
            "skill tank-head",
            self.pos,
            t.at,
        )?;
        self.uses.push((owner, Skill::TankHead));
        self.steps.push(Step::TankHead {
            target: t.id.clone(),
        });
        self.texts.push(format!("skill tank-head at {}", t.id));
        self.push_kind(Kind::Skill);
        Ok(())
    }
}

fn not_an_action(n: &str) -> Result<(), Refusal> {
    refuse(
        format!("`skill {n}` is not a skill the engine can use as an action"),
        RuleId::Skills,
        usable_skills(),
    )
}

/// 004 "Cheat Death": "This skill may only be used twice per game."
const CHEAT_DEATH_USES: u8 = 2;

/// 004 "Cheat Death": "When hero with this skill, or the squad he is with, receives damage from
/// an enemy unit, he may choose to activate this skill. Roll 1 die: if the result is a 4+, all
/// damage the hero suffers during the attacking unit's activation is ignored." The engine uses
/// it whenever such damage is pending and a use is left, once per activation; a 4+ drops all of
/// that unit's damage for the rest of the activation, the squad's included (shared, R412).
pub(super) fn cheat_death(
    state: &mut State,
    act: &mut Activation,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let hit: Vec<String> = act
        .damage
        .iter()
        .filter(|(_, p)| p.points > 0 || p.eliminate || !p.sniped.is_empty())
        .map(|(k, _)| k.clone())
        .collect();
    for unit in hit {
        let Some(owner) = skill_owner(state, &unit, Skill::CheatDeath) else {
            continue;
        };
        let by = act
            .damage
            .get(&unit)
            .map(|p| p.by.clone())
            .unwrap_or_default();
        let Some(o) = state.unit(&owner) else {
            continue;
        };
        if o.side == by || unit_type(state, &owner) != UnitType::Hero {
            continue;
        }
        let saved = match act.cheat_death.get(&unit) {
            Some(saved) => *saved,
            None => {
                let allowed = card(state, o)
                    .and_then(|c| c.skills.iter().find(|s| s.name == Skill::CheatDeath.id()))
                    .and_then(|s| s.uses)
                    .unwrap_or(CHEAT_DEATH_USES)
                    .min(CHEAT_DEATH_USES);
                let used = o
                    .skills_used
                    .get(Skill::CheatDeath.id())
                    .copied()
                    .unwrap_or(0);
                if used >= allowed {
                    continue;
                }
                let round = state.round;
                let face = dice.d6(round);
                let saved = face >= 4;
                if let Some(x) = state.unit_mut(&owner) {
                    *x.skills_used
                        .entry(Skill::CheatDeath.id().to_string())
                        .or_insert(0) += 1;
                }
                act.cheat_death.insert(unit.clone(), saved);
                out.happenings.push(Happening {
                    rolls: vec![Roll {
                        purpose: format!("cheat death for {owner}"),
                        round,
                        faces: vec![face],
                    }],
                    ..Happening::text(format!(
                        "Cheat Death: {owner} rolls {face} ({} of {allowed}): {}",
                        used + 1,
                        if saved {
                            "4+, the damage is ignored"
                        } else {
                            "below 4, the damage stands"
                        }
                    ))
                });
                saved
            }
        };
        if saved {
            act.damage.remove(&unit);
            say(out, format!("Cheat Death: {unit} suffers no damage"));
        }
    }
}

/// 004 "Combine Shots": "Available to some vehicles with 2 flamethrowers": a vehicle with the
/// skill, and a flamethrower line its card gives 2 carriers (R413).
pub(super) fn combinable(state: &State, shooter: &str, w: &WeaponLine) -> bool {
    unit_type(state, shooter) == UnitType::Vehicle
        && has_skill(state, shooter, Skill::CombineShots)
        && w.traits.contains(&WeaponTrait::Flamethrower)
        && w.carriers.unwrap_or(1) >= 2
}

/// 004 "Combine Shots": "combine the 2 shots into one: roll combat dice for only one of the
/// weapons but extend the range by 1" (R413: C counts as 1, so it becomes 2).
pub(super) fn combined(mut w: WeaponLine) -> WeaponLine {
    w.carriers = Some(1);
    w.range = match w.range {
        WeaponRange::Close => WeaponRange::Upto(2),
        WeaponRange::Upto(n) => WeaponRange::Upto(n.saturating_add(1)),
        WeaponRange::Between(a, b) => WeaponRange::Between(a, b.saturating_add(1)),
        r @ (WeaponRange::Unlimited | WeaponRange::Artillery) => r,
    };
    w
}
