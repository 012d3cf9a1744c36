//! 004 "Attacking": weapon lines declared (validation) and resolved (dice).

use super::attack_skills::{shared_spirit, spotter_alive};
use super::trees::{check_tree_attack, fire_at_trees, is_trees};
use super::*;
use crate::dust_tactics::battlefront::skills002_d as s2d;
use crate::dust_tactics::battlefront::weapons::{sniper, wire_guided};

impl Planner<'_> {
    /// One ATTACK (or SUSTAINED ATTACK, which takes both actions).
    pub(super) fn attack(&mut self, fire: &[FireOrder], sustained: bool) -> Result<(), Refusal> {
        // 003's Large vehicle: its two squares as the moves planned before leave them (R768).
        let planned =
            super::super::battlefront::large2::as_planned(self.state, self.u, &self.steps);
        let (state, u) = (planned.as_ref().unwrap_or(self.state), self.u);
        let Some(from) = self.pos else {
            return refuse(
                format!("{} is not on the battlefield yet", u.id),
                RuleId::FirstRound.with("the first action is a move onto the board"),
                "move <entry square> first".to_string(),
            );
        };
        if self.flags.charge && self.rules.charge_extra_square() {
            self.check_charge_square()?;
        }
        let mut lines = plan_fire(
            state,
            u,
            (from, self.height),
            fire,
            &self.occ,
            self.flags.charge,
            self.flags.combine_shots,
        )?;
        // battlefront-2013: front-mounted weapons fire only in their arc (003 "Field of Fire").
        super::super::battlefront::facing::check_lines(state, u, &self.steps, from, &lines)?;
        // battlefront-2013: a Sustained Attack is ranged or close combat (003, R274).
        super::super::battlefront::close::check_sustained(state, sustained, &lines)?;
        self.check_passenger_fire(sustained, &lines)?; // 002 passengers (R734, R735)
                                                       // 004 "Artillery Weapons", "Reloadable Weapons": an empty line does not fire (R415).
        super::artillery::check_lines_loaded(state, &self.steps, &lines)?;
        super::special_weapons::check_dual_ammo(state, &lines)?;
        super::weapons002::check_under_barrel(state, &lines)?;
        super::super::battlefront::equipment::check_crew(state, &lines)?; // 002 "Crew", R668
        super::soldier_weapons::assign(state, &mut lines)?; // 003, a weapon a soldier (R677)
        self.texts.push(format!(
            "{} {}",
            if sustained { "sustained" } else { "attack" },
            lines
                .iter()
                .map(|l| {
                    let n = l.count.map(|n| format!("{n} ")).unwrap_or_default();
                    format!("{n}{} at {}", l.weapon, target_text(&l.target))
                })
                .collect::<Vec<_>>()
                .join(", ")
        ));
        // 000 "Fighting Spirit": the hero treats misses as hits whenever he moved before
        // attacking, declared or not (R204).
        if self.rules.fighting_spirit_always()
            && self.moved_before
            && skill_owner(state, &u.id, Skill::FightingSpirit).is_some()
        {
            self.flags.fighting_spirit = true;
        }
        // battlefront-2013 plays 002's Fighting Spirit, with no Move first (R279).
        if self.flags.fighting_spirit && !self.moved_before && !self.rules.battlefront() {
            return refuse(
                "Fighting Spirit needs at least one MOVE before attacking this round",
                RuleId::FightingSpirit,
                "move first, or drop `skill fighting-spirit`",
            );
        }
        self.steps.push(Step::Attack { lines, sustained });
        self.push_kind(if sustained {
            Kind::Sustained
        } else {
            Kind::Attack
        });
        Ok(())
    }
}

/// Validates the declared weapon lines of one ATTACK from `from`.
pub(super) fn plan_fire(
    state: &State,
    u: &UnitState,
    (from, height): crate::dust_tactics::floors::Spot,
    fire: &[FireOrder],
    occ: &Occupancy,
    charge: bool,
    combine: bool,
) -> Result<Vec<LineOrder>, Refusal> {
    if fire.is_empty() {
        return refuse(
            "an attack needs at least one weapon line",
            RuleId::Attack,
            "attack <weapon> at <target>",
        );
    }
    let mut lines = vec![];
    let mut used: BTreeMap<String, u32> = BTreeMap::new();
    let my_type = card(state, u)
        .map(|c| c.unit_type)
        .unwrap_or(UnitType::Squad);
    for f in fire {
        let Some((shooter, w)) = find_weapon(state, &u.id, &f.weapon) else {
            let names: Vec<String> = weapons_of_group(state, &u.id)
                .iter()
                .map(|(_, w)| w.id.clone())
                .collect();
            return refuse(
                format!("{} has no weapon `{}`", u.id, f.weapon),
                RuleId::Attack,
                format!("use one of: {}", names.join(", ")),
            );
        };
        let w = if combine && combinable(state, &shooter, &w) {
            combined(w)
        } else {
            w
        };
        if let Some(boxes) = w.ammo {
            let left = state
                .unit(&shooter)
                .and_then(|s| s.ammo.get(&w.id).copied())
                .unwrap_or(boxes);
            let n = used.entry(w.id.clone()).or_insert(0);
            *n += 1;
            if left == 0 || *n > left as u32 {
                return refuse(
                    format!(
                        "weapon out of ammo: {} has no ammo box left for {}",
                        shooter, w.name
                    ),
                    RuleId::LimitedAmmo,
                    "fire another weapon line",
                );
            }
        }
        check_count(state, &shooter, &w, f)?;
        super::carried::check_carried(state, &shooter, &w)?;
        // battlefront-2013: 002's Charge attacks with range C lines only (R263).
        super::super::battlefront::skills::check_charge_line(state, charge, &w)?;
        if charge && !matches!(w.range, WeaponRange::Close | WeaponRange::Upto(1)) {
            return refuse(
                format!(
                    "a Charge attack uses only range 1 and range C weapons; {} has range {}",
                    w.name, w.range
                ),
                if state.rules().charge_extra_square() {
                    RuleId::Charge2010
                } else {
                    RuleId::Charge
                },
                "drop that weapon line",
            );
        }
        let (target, to, tsighter_type) = match &f.target {
            TargetRef::Unit(t) | TargetRef::Model { unit: t, .. } => {
                let Some(tu) = state.unit(t) else {
                    return refuse(
                        format!("there is no unit `{t}`"),
                        RuleId::Attack,
                        "aim at an enemy unit on the board",
                    );
                };
                if tu.side == u.side {
                    return refuse(
                        format!("{} is a friendly unit", tu.id),
                        RuleId::Attack.with("attacks target enemy units"),
                        "aim at an enemy unit",
                    );
                }
                // A Tank Riders rider is a target on its vehicle's square (R471).
                let on = tu
                    .at
                    .or_else(|| super::riders::riding_square(state, &tu.id));
                let (Some(at), false) = (on, tu.destroyed) else {
                    return refuse(
                        format!("{} is not on the board{}", tu.id, super::carry::inside(tu)),
                        RuleId::Attack,
                        "aim at an enemy unit on the board",
                    );
                };
                super::piloting::refuse_target(state, tu)?;
                let lead = leader_of(state, &tu.id).unwrap_or_else(|| tu.id.clone());
                let armour = armour_of(state, &lead);
                if let Some(a) = armour {
                    if w.against(a) == Fire::No {
                        return refuse(
                            format!("{} cannot damage {} (armour {:?})", w.name, lead, a),
                            RuleId::WeaponLines.with("`-` cannot damage"),
                            "choose a weapon line with dice against that armour",
                        );
                    }
                }
                let target = match &f.target {
                    TargetRef::Model { model, .. } => {
                        super::named::check(state, &shooter, &w, &lead)?;
                        let models: Vec<String> = super::piloting::fighting(state, &lead)
                            .iter()
                            .filter_map(|m| state.unit(m))
                            .flat_map(|x| {
                                if x.models.is_empty() {
                                    vec![x.id.clone()]
                                } else {
                                    x.models.clone()
                                }
                            })
                            .collect();
                        if !models.iter().any(|m| m.eq_ignore_ascii_case(model)) {
                            return refuse(
                                format!("{lead} has no model `{model}` alive"),
                                RuleId::Sniper,
                                format!("name one of: {}", models.join(", ")),
                            );
                        }
                        Target::Model {
                            unit: lead.clone(),
                            model: model.clone(),
                        }
                    }
                    _ => Target::Unit { unit: lead.clone() },
                };
                (target, at, unit_type(state, &lead))
            }
            // R149 (rules revision 1): trees may be attacked; revision 0 refused it.
            TargetRef::Square(sq) if is_trees(state, *sq) && state.revised(1) => {
                check_tree_attack(state, &w, *sq, fire)?;
                (Target::Square { at: *sq }, *sq, UnitType::Vehicle)
            }
            TargetRef::Square(sq) => {
                super::structures::back_door_target(state, *sq)?;
                if state.scenario.board.cover_at(*sq).is_none() {
                    return refuse(
                        format!("there is no cover element on {sq}"),
                        RuleId::CoverElements,
                        "aim at a unit, or a square with an ammo crate, tank trap or trees",
                    );
                }
                if w.traits.contains(&WeaponTrait::Flamethrower)
                    && state.scenario.board.cover_at(*sq).map(|c| c.kind)
                        == Some(model::CoverKind::TankTrap)
                {
                    return refuse(
                        "flamethrowers cannot damage anti-tank traps",
                        RuleId::Flamethrower,
                        "choose another weapon",
                    );
                }
                (Target::Square { at: *sq }, *sq, UnitType::Vehicle)
            }
        };
        // 004 "Targeting": from or to any of a large vehicle's 4 squares (R568).
        let aimed = super::large::target_id(&target);
        let types = (my_type, tsighter_type);
        let (from, to) =
            super::large::attack_pair(state, occ, &u.id, from, aimed, to, w.range, types);
        super::underground::check_boards(state, from, to)?; // two boards (R632)
                                                            // Issue 12: 004 "Firing" between heights (R515): +1 space, 1 floor at most, no range C.
        let th = aimed.and_then(|t| super::floors_fire::height_of(state, t));
        let air = super::aircraft::is_aircraft(state, &u.id)
            || aimed.is_some_and(|t| super::aircraft::is_aircraft(state, t));
        let dist = super::floors_fire::attack_distance(
            state,
            (from, height),
            (to, th),
            w.range,
            geometry::distance(from, to),
            air,
        )?;
        if !super::artillery002::in_range(state, &w, dist) {
            return refuse(
                format!(
                    "not in range: {} at {from} is {dist} squares from {to}, {} range {}",
                    u.id, w.name, w.range
                ),
                RuleId::Range,
                "move closer first, or choose a target in range",
            );
        }
        super::artillery002::check_fire_from(state, &w, from)?; // 002 Artillery (R692)
                                                                // Issue 12: 004 "Aircraft": never targeted from beyond 6 spaces; an aircraft sees and is
                                                                // seen by every unit, so its line is drawn from the target's own square: clear (R441).
        super::aircraft::check_range(state, &target, &w, dist)?;
        let sight_from = super::aircraft::sight_from(state, &u.id, &target, from, to);
        super::aircraft::check_sight_003(state, &u.id, &target, from, to)?; // R800
                                                                            // issue 18 hook: 003's line of sight under battlefront-2013.
        let flat = super::super::battlefront::sight::line_of_sight_under(
            state.rules(),
            &state.scenario.board,
            &super::artillery002::sight_occ(state, &w, occ), // R691
            &super::super::battlefront::strongpoints::all(state),
            Sighter {
                square: sight_from,
                unit_type: my_type,
            },
            Sighter {
                square: to,
                unit_type: tsighter_type,
            },
        );
        let sight = super::floors_fire::sight(state, occ, (sight_from, height), (to, th), flat);
        if let Sight::Blocked { at, why } = sight {
            return refuse(
                format!("no line of sight past {at} from {from} to {to}: {why}"),
                RuleId::LineOfSight,
                "choose a target in sight, or move first",
            );
        }
        let (ms, ts) = (
            Sighter {
                square: from,
                unit_type: my_type,
            },
            Sighter {
                square: to,
                unit_type: tsighter_type,
            },
        );
        super::underground::check_attack(state, occ, ms, ts)?; // 004 Underground Fighting
        super::structures::check_fire(state, &shooter, (from, height), &target, to)?;
        super::skills002_d::check_camouflage(state, occ, ms, ts, &target)?; // 002, R762
        check_spray(state, u, from, &w, &f.through, to, occ)?;
        if lines
            .iter()
            .any(|l: &LineOrder| l.shooter == shooter && l.weapon == w.id)
        {
            return refuse(
                format!("{} is declared twice in one attack", w.name),
                RuleId::Attack.with("each weapon line attacks once per ATTACK"),
                "declare each weapon line once",
            );
        }
        lines.push(LineOrder {
            shooter,
            weapon: w.id.clone(),
            target,
            through: f.through.clone(),
            count: f.count,
            soldiers: None,
        });
    }
    // 000 "Limited ammo weapons": no more limited-ammo weapons per attack than models alive
    // (combat R38).
    let mut limited = 0u32;
    for l in &lines {
        let (Some(su), Some((_, w))) = (
            state.unit(&l.shooter),
            find_weapon(state, &l.shooter, &l.weapon),
        ) else {
            continue;
        };
        if w.ammo.is_some() {
            let left = su.ammo.get(&w.id).copied().unwrap_or(0) as u32;
            limited += super::volley::weapons(&w, carriers(state, su, &w), left, l.count);
        }
    }
    let alive: u32 = super::piloting::fighting(state, &u.id)
        .iter()
        .filter_map(|m| state.unit(m))
        .map(|m| model_count(state, m))
        .sum();
    if limited > alive {
        return refuse(
            format!("the attack fires {limited} limited-ammo weapons but only {alive} model(s) are alive"),
            RuleId::LimitedAmmoWeapons.with("no more per attack than miniatures in the squad"),
            "drop a limited-ammo weapon line",
        );
    }
    // R209 came with rules revision 3.
    if charge && state.rules().charge_extra_square() && state.revised(3) {
        charge_2010::check_all_range_1(state, u, &lines)?;
    }
    Ok(lines)
}

/// A declared count (`2 demo at …`, R414): 000 "Limited ammo weapons": "You are never forced to
/// use all of these limited ammo weapons at once!" Only a limited-ammo line takes one, and no more
/// than it can fire now (its carriers, models alive, boxes left).
fn check_count(state: &State, shooter: &str, w: &WeaponLine, f: &FireOrder) -> Result<(), Refusal> {
    let Some(n) = f.count.filter(|_| !super::volley::is_volley(w)) else {
        return super::volley::check_count(state, shooter, w, f);
    };
    let Some(boxes) = w.ammo else {
        return refuse(
            format!(
                "`{n} {}`: {} has no ammo boxes, so every carrier fires it",
                w.id, w.name
            ),
            RuleId::LimitedAmmoWeapons.with("a count is for limited-ammo weapons only"),
            format!("attack {} at {}", w.id, f.target),
        );
    };
    let Some(su) = state.unit(shooter) else {
        return Ok(());
    };
    let left = su.ammo.get(&w.id).copied().unwrap_or(boxes) as u32;
    let most = super::soldier_weapons::most(state, w, carriers(state, su, w), left);
    if n > most {
        return refuse(
            format!(
                "{shooter} can fire at most {most} {} now ({left} ammo box(es) left), not {n}",
                w.name
            ),
            RuleId::LimitedAmmoWeapons.with("one box for each weapon fired"),
            format!("attack {most} {} at {}", w.id, f.target),
        );
    }
    Ok(())
}

/// The squares a flamethrower's flames spread to besides its target (000 "Flamethrowers", R103):
/// only a flamethrower reaching beyond 1 square sprays; the squares, target included, are at
/// most its range in number, distinct, each in range and each visible from the shooter on its
/// own ("you still need to be able to target each square independently"), so the flame never
/// goes past a square blocking line of sight.
pub(super) fn check_spray(
    state: &State,
    u: &UnitState,
    from: Square,
    w: &WeaponLine,
    through: &[Square],
    target: Square,
    occ: &Occupancy,
) -> Result<(), Refusal> {
    // battlefront-2013: 003's spray follows a shortest path in sight (battlefront/spray.rs).
    if super::super::battlefront::spray::sprays(state, w) {
        let my_type = card(state, u)
            .map(|c| c.unit_type)
            .unwrap_or(UnitType::Squad);
        super::super::battlefront::spray::path(state, occ, &u.id, my_type, from, target, through)?;
        return Ok(());
    }
    if through.is_empty() {
        return Ok(());
    }
    let rule = RuleId::FlamethrowerSpray
        .with("you choose the squares where the flames spread, each must be targetable on its own");
    let reach = match w.range {
        WeaponRange::Upto(n) => n as usize,
        WeaponRange::Between(_, n) => n as usize,
        _ => 1,
    };
    if !w.traits.contains(&WeaponTrait::Flamethrower) || reach < 2 {
        return refuse(
            format!(
                "{} does not spray: only a flamethrower with a range beyond 1 square chooses squares with `through`",
                w.name
            ),
            rule,
            format!("attack {} at <target>", w.id),
        );
    }
    if through.len() + 1 > reach {
        return refuse(
            format!(
                "{} has range {reach}: the flames reach at most {reach} squares, the target's included, and {} are named",
                w.name,
                through.len() + 1
            ),
            rule,
            format!("name at most {} square(s) after `through`", reach - 1),
        );
    }
    let my_type = card(state, u)
        .map(|c| c.unit_type)
        .unwrap_or(UnitType::Squad);
    let mut seen = vec![target];
    for sq in through {
        if seen.contains(sq) || *sq == from {
            return refuse(
                format!("{sq} is named twice or is the shooter's own square"),
                rule,
                "name each other square once",
            );
        }
        seen.push(*sq);
        let dist = geometry::distance(from, *sq);
        if !geometry::in_range(w.range, dist) {
            return refuse(
                format!(
                    "{sq} is {dist} squares from {from}, beyond {}'s range",
                    w.name
                ),
                rule,
                "choose squares within range",
            );
        }
        let there = occ
            .get(sq)
            .and_then(|v| v.first())
            .map(|o| o.unit_type)
            .unwrap_or(UnitType::Squad);
        if let Sight::Blocked { at, why } = geometry::line_of_sight(
            &state.scenario.board,
            occ,
            Sighter {
                square: from,
                unit_type: my_type,
            },
            Sighter {
                square: *sq,
                unit_type: there,
            },
        ) {
            return refuse(
                format!("the flames cannot reach {sq}: line of sight is blocked at {at} ({why})"),
                rule,
                "choose squares the shooter can see",
            );
        }
        // 004 "Flamethrowers": the flames spread on the spaces between shooter and target (R151).
        // Rules revision 1; revision 0 let the spray fall on any square in range.
        let between = geometry::squares_between(&state.scenario.board, from, target);
        if state.revised(1) && !between.contains(sq) {
            return refuse(
                format!(
                    "{sq} is not between {from} and the target on {target}: the flames spread only on the squares between"
                ),
                RuleId::Flamethrower.with(
                    "flamethrowers that fire farther than 1 space damage all units in spaces between the attacking unit and the target",
                ),
                "aim at the farthest unit you want to burn: every unit between is burnt with it",
            );
        }
    }
    Ok(())
}

/// 004 "Flamethrowers" (R151): a flamethrower reaching beyond 1 square burns every unit on the
/// squares between the shooter and the unit it aims at, whether `through` names them or not.
fn burnt_between(state: &State, w: &WeaponLine, from: Square, target: &Target) -> Vec<Square> {
    let reach = match w.range {
        WeaponRange::Upto(n) | WeaponRange::Between(_, n) => n,
        _ => 1,
    };
    // Rules revision 1; revision 0 burnt only the squares `through` named.
    if !state.revised(1) || !w.traits.contains(&WeaponTrait::Flamethrower) || reach < 2 {
        return Vec::new();
    }
    let aimed = match target {
        Target::Unit { unit } | Target::Model { unit, .. } => target_square(state, unit),
        _ => None,
    };
    aimed
        .map(|to| geometry::squares_between(&state.scenario.board, from, to))
        .unwrap_or_default()
}

/// Resolves one line; damage to units is kept pending, cover elements take it at once.
pub(super) fn fire_line(
    state: &mut State,
    act: &mut Activation,
    l: &LineOrder,
    sustained: bool,
    cover_counts: bool,
    dice: &mut dyn DiceSource,
    out: &mut Outcome,
) {
    let Some(su) = state.unit(&l.shooter).cloned() else {
        return;
    };
    if su.destroyed {
        return;
    }
    let Some(from) = su
        .at
        .or_else(|| super::riders::firing_square(state, &su.id))
    else {
        return;
    };
    // Issue 12: 004 "Air Superiority": every ATTACK at an aircraft is SUSTAINED.
    let sustained = sustained || super::aircraft::air_superiority(state, &l.shooter, &l.target);
    let Some((_, w)) = find_weapon(state, &l.shooter, &l.weapon) else {
        return;
    };
    let lead = leader_of(state, &l.shooter).unwrap_or_else(|| l.shooter.clone());
    let is_active = lead == act.unit;
    let combine = is_active && act.flags.combine_shots && combinable(state, &l.shooter, &w);
    let w = if combine { combined(w) } else { w };
    let n = super::passengers::firing(state, &su, &w, carriers(state, &su, &w));
    let mut n = super::soldier_weapons::cap(l, n); // R677
    if w.ammo.is_some() {
        let left = su.ammo.get(&w.id).copied().unwrap_or(0) as u32;
        // R414: a declared count fires fewer and spends only its boxes.
        n = super::soldier_weapons::fired(state, &w, n, left, l.count);
        if n == 0 {
            say(out, format!("{}: {} has no ammo left", l.shooter, w.name));
            return;
        }
        let spent = super::soldier_weapons::boxes(state, &w, n); // R678
        if let Some(x) = state.unit_mut(&l.shooter) {
            if let Some(a) = x.ammo.get_mut(&w.id) {
                *a = a.saturating_sub(spent);
            }
        }
    }
    if n == 0 {
        say(
            out,
            format!("{}: nobody left carries {}", l.shooter, w.name),
        );
        return;
    }
    let salvo = super::artillery002::fire_salvo(state, act, is_active, &l.shooter, &w); // R696
    super::artillery::spend(state, &l.shooter, &w);
    let hero_weapon = unit_type(state, &l.shooter) == UnitType::Hero;
    // 004 "Take Aim": the hero's own sustained lines reverse the dice instead of re-rolling
    // (not shared with his squad, so only the hero's card counts).
    let take_aim =
        sustained && hero_weapon && card(state, &su).is_some_and(|c| c.has(Skill::TakeAim));
    // battlefront-2013: 002's Take Aim, ranged weapons only, adds 2-face hits to the re-roll
    // (R280); Fighting Spirit is any unit's own (002), not only a hero's.
    let bf = state.rules().battlefront();
    let take_aim = take_aim && !(bf && w.range == WeaponRange::Close);
    let bf_spirit = bf && is_active && act.flags.fighting_spirit;
    // 002 "Expert - Weapon": the hero's named weapon hits on army or target (R716).
    let expert = super::super::battlefront::skills002::expert;
    let bf_spirit =
        bf_spirit || (bf && hero_weapon && card(state, &su).is_some_and(|c| expert(c, &w)));
    // 002 "Spotters" (R676): the unit's Sniper weapons, its spotter idle, in a Sustained Attack.
    let bf_spirit = bf_spirit || (act.flags.spotted.contains(&l.shooter) && sniper(&w));
    // 002 "Air Alert": a vehicle's lines at the aircraft its side alerted this turn (R663).
    let bf_spirit =
        bf_spirit || super::super::battlefront::equipment::alerted(state, &l.shooter, &l.target);
    // battlefront-2013: 002's Berserk and Killing Spree, a hero's own close-combat or ranged
    // hits chain (R282, R582).
    let chains = super::super::battlefront::skills002::chains;
    let bf_berserk = bf && hero_weapon && card(state, &su).is_some_and(|c| chains(c, &w));
    let opts = FireOptions {
        carriers: n,
        sustained: sustained && (!take_aim || bf),
        air_alt: super::aircraft::air_alt(state, &l.shooter, &l.target),
        berserk: is_active && act.flags.berserk,
        reversed: has_skill(state, &lead, Skill::Spotter) && spotter_alive(state, &lead)
            || (is_active
                && act.flags.fighting_spirit
                && (hero_weapon || shared_spirit(state, &lead)))
            || take_aim
            || bf_spirit,
        doubled: su.all_in_one_round == Some(state.round) || salvo,
        medal: false,
        frenzy: false,
        lucky: s2d::lucky_line(state, &act.flags, is_active, &l.shooter),
        // R673: a ranged line (a retaliation is close combat, never the Attack that set it).
        wire_guided: bf
            && w.range != WeaponRange::Close
            && wire_guided(&w, act.flags.lone_wire_guided, n),
    };
    // 004 "Frenzy": the hero's own lines (not shared), when he fires on soldiers (R407).
    let frenzy = hero_weapon && card(state, &su).is_some_and(|c| c.has(Skill::Frenzy));
    // 004 "Medal of Honor": the hero's own lines (not shared), once per round (R406).
    let medal = hero_weapon
        && su.medal_round != Some(state.round)
        && card(state, &su).is_some_and(|c| c.has(Skill::MedalOfHonor));
    let rules = state.rules();
    let by = su.side.clone();
    let round = state.round;
    // How the line is fired, restated for the reports: "4 carriers, sustained, berserk".
    let mut how = vec![super::volley::label(&w, n)];
    for (on, name) in [
        (opts.sustained, "sustained"),
        (take_aim, "sustained with take-aim"),
        (opts.sustained && opts.air_alt, Skill::AirAlt.id()),
        (opts.berserk, Skill::Berserk.id()),
        (opts.wire_guided, "wire-guided"),
        (opts.reversed && !bf, "reversed dice"),
        (opts.reversed && bf, "army or target hits"),
        (
            bf_berserk,
            super::super::battlefront::skills002::chain_name(&w),
        ),
        (opts.doubled, "double dice"),
        (combine, "combined shots"),
    ] {
        if on {
            how.push(name.to_string());
        }
    }
    let how = how.join(", ");
    // Targets: the aimed unit, plus (flamethrower spray) every unit on the chosen squares.
    let mut targets: Vec<Target> = vec![l.target.clone()];
    // 004 "Tesla weapons": every unit between shooter and target is hit too (R561).
    let mut burnt = super::tesla::between(state, &w, from, &l.target);
    if w.traits.contains(&WeaponTrait::Flamethrower) {
        burnt = if super::super::battlefront::spray::sprays(state, &w) {
            // battlefront-2013: the squares of 003's shortest path (battlefront/spray.rs).
            let occ = occupancy(state, &[]);
            let spray = super::super::battlefront::spray::burnt;
            spray(state, &occ, &l.shooter, &w, from, &l.target, &l.through)
        } else {
            burnt_between(state, &w, from, &l.target)
        };
        for sq in &l.through {
            if !burnt.contains(sq) {
                burnt.push(*sq);
            }
        }
    }
    for sq in &burnt {
        for u in &state.units {
            // A large vehicle is between when any of its 4 squares is (R566).
            let on =
                u.at.is_some_and(|at| super::large::squares_at(state, &u.id, at).contains(sq));
            if !u.destroyed && u.joined.is_none() && on && !group(state, &l.shooter).contains(&u.id)
            {
                let t = Target::Unit { unit: u.id.clone() };
                if !targets.iter().any(|x| target_text(x) == target_text(&t)) {
                    targets.push(t);
                }
            }
        }
    }
    // 002 "Tank Riders": flame and "all units" attacks hit the riders separately (R474).
    let apart = super::riders::attacked_separately(state, &w, &l.shooter, &l.target, &mut targets);
    for t in targets {
        match &t {
            Target::Square { at } if is_trees(state, *at) => {
                fire_at_trees(state, &l.shooter, &w, *at, from, &how, dice, out);
            }
            Target::Square { at } => {
                let Some(ce) = state.scenario.board.cover_at(*at) else {
                    say(
                        out,
                        format!("{}: the cover element on {at} is already gone", w.name),
                    );
                    continue;
                };
                let (_, health) = ce.kind.armour_health();
                // No save; explosives re-roll misses against a tank trap (004, combat R37).
                let (fired, notes) =
                    super::special_weapons::as_fired(state, act, &l.shooter, &w, None);
                let how = [vec![how.as_str()], notes].concat().join(", ");
                let o = combat::resolve_cover_attack_under(
                    rules, &fired, ce.kind, ce.damage, &opts, round, dice,
                );
                tell(
                    out,
                    format!(
                        "{} fires {} ({how}) at the cover element on {at}: {}",
                        l.shooter, w.name, o.summary
                    ),
                    DtEvent::Fired {
                        unit: l.shooter.clone(),
                        weapon: w.name.clone(),
                        target: at.to_string(),
                        from,
                        to: *at,
                        hits: o.hits,
                    },
                    o.rolls,
                );
                let dmg = ce.damage as u32 + o.damage;
                if dmg >= health as u32 || o.eliminate {
                    state.scenario.board.cover.remove(at);
                    tell(
                        out,
                        format!("the cover element on {at} is destroyed"),
                        DtEvent::CoverDestroyed { at: *at },
                        vec![],
                    );
                } else if let Some(c) = state.scenario.board.cover.get_mut(at) {
                    c.damage = dmg as u8;
                }
            }
            Target::Unit { unit } | Target::Model { unit, .. } => {
                let Some(tu) = state.unit(unit).cloned() else {
                    continue;
                };
                let tat = tu
                    .at
                    .or_else(|| super::riders::riding_square(state, &tu.id));
                if tu.destroyed || tat.is_none() {
                    say(
                        out,
                        format!("{} at {}: {} is already destroyed", w.name, unit, unit),
                    );
                    continue;
                }
                let Some(tc) = card(state, &tu).cloned() else {
                    continue;
                };
                let (from, tat) = match tat {
                    Some(t) => {
                        let pair =
                            super::large::fired_pair(state, &l.shooter, from, unit, t, w.range);
                        (pair.0, Some(pair.1))
                    }
                    None => (from, None),
                };
                // Its hero and its Commissar are miniatures of it (R478).
                let joined: Vec<u32> = state
                    .joined_of(&tu.id)
                    .iter()
                    .map(|h| h.health as u32)
                    .collect();
                let models = model_count(state, &tu) + joined.len() as u32;
                let remaining = if tc.unit_type == UnitType::Squad {
                    tu.models.len() as u32 + joined.iter().sum::<u32>()
                } else {
                    tu.health as u32
                };
                let close = w.range == WeaponRange::Close;
                // battlefront-2013: heroes and vehicles in cover save too (003 "Cover Saves").
                let cover_type = tc.unit_type == UnitType::Squad || rules.battlefront();
                let cover = if cover_counts && !close && cover_type {
                    let occ = occupancy(state, &[]);
                    // Issue 12: above the ground floor and on roofs (R516).
                    super::floors_fire::cover_for(
                        state,
                        &occ,
                        (
                            Sighter {
                                square: from,
                                unit_type: unit_type(state, &l.shooter),
                            },
                            super::floors_fire::height_of(state, &l.shooter),
                        ),
                        (
                            Sighter {
                                square: tat.unwrap_or(from),
                                unit_type: tc.unit_type,
                            },
                            tu.height,
                        ),
                        super::aircraft::is_aircraft(state, &l.shooter),
                    )
                } else {
                    Cover::None
                };
                // battlefront-2013: a vehicle's own square gives it no cover (003, R235).
                let cover = if rules.battlefront() && tc.unit_type == UnitType::Vehicle {
                    let target = Sighter {
                        square: tat.unwrap_or(from),
                        unit_type: tc.unit_type,
                    };
                    let shooter = Sighter {
                        square: from,
                        unit_type: unit_type(state, &l.shooter),
                    };
                    let occ = occupancy(state, &[]);
                    let line = super::super::battlefront::attack::vehicle_cover(
                        &state.scenario.board,
                        &occ,
                        shooter,
                        target,
                    );
                    cover.min(line)
                } else {
                    cover
                };
                // issue 18 hook: 003's cover test replaces the engine's under battlefront-2013.
                let cover = if rules.battlefront() && cover_counts && !close {
                    let occ = occupancy(state, &[]);
                    let (at, ty) = (tat.unwrap_or(from), tc.unit_type);
                    let shooter_at = Sighter {
                        square: from,
                        unit_type: unit_type(state, &l.shooter),
                    };
                    let c = super::super::battlefront::sight::cover(
                        &state.scenario.board,
                        &occ,
                        &super::super::battlefront::strongpoints::all(state),
                        shooter_at,
                        Sighter {
                            square: at,
                            unit_type: ty,
                        },
                    );
                    super::super::battlefront::fortifications::cover(state, from, at, ty, c)
                } else {
                    cover
                };
                let cover = if cover_counts && !close && tactician_cover(state, &tu) {
                    cover.add_soft()
                } else {
                    cover
                };
                let cover = super::underground::cover(
                    state,
                    from,
                    tu.at.unwrap_or(from),
                    cover,
                    (
                        cover_counts && !close && cover_type,
                        tc.unit_type == UnitType::Squad,
                    ),
                );
                // A lone hero has no cover saves (004 "Heroes").
                let lone_hero = tc.unit_type == UnitType::Hero;
                let profile = TargetProfile {
                    armour: tc.armour,
                    unit_type: tc.unit_type,
                    models,
                    remaining,
                    cover,
                    soft_save: if lone_hero { Save::None } else { tc.soft_save },
                    hard_save: if lone_hero { Save::None } else { tc.hard_save },
                    damage_resilient: (tc.has(Skill::DamageResilient)
                        || super::super::battlefront::skills002::defensive(state, &tu.id, cover))
                        && rules.damage_resilient_against(&w)
                        && !super::super::battlefront::joined_hits::defers(state, &tu.id),
                    bf: super::super::battlefront::strongpoints::saves(state, &l.shooter, &tu.id),
                };
                let medal = medal
                    && state
                        .unit(&l.shooter)
                        .is_some_and(|x| x.medal_round != Some(round));
                let line_opts = FireOptions {
                    medal,
                    frenzy: (frenzy && tc.unit_type.is_soldier()) || bf_berserk,
                    ..opts.clone()
                };
                // 004 "Burst Weapons", "Setup Weapons" (R418, R419).
                let (fired, notes) =
                    super::special_weapons::as_fired(state, act, &l.shooter, &w, Some(tu.moved));
                let how = [vec![how.as_str()], notes].concat().join(", ");
                let fired = super::structures::artillery_line(
                    state,
                    &fired,
                    (tat.unwrap_or(from), tu.height),
                );
                let o =
                    combat::resolve_line_under(rules, &fired, &profile, &line_opts, round, dice);
                let o = super::super::battlefront::joined_hits::reword(state, &tu.id, o);
                if hero_weapon && tc.unit_type.is_soldier() && tu.side != su.side {
                    serum_count(act, &l.shooter, o.hits);
                }
                if o.rolls
                    .iter()
                    .any(|r| r.purpose.starts_with(combat::MEDAL_REROLL))
                {
                    if let Some(x) = state.unit_mut(&l.shooter) {
                        x.medal_round = Some(round);
                    }
                }
                tell(
                    out,
                    format!(
                        "{} fires {} ({how}) at {}: {}",
                        l.shooter,
                        w.name,
                        target_text(&t),
                        o.summary
                    ),
                    DtEvent::Fired {
                        unit: l.shooter.clone(),
                        weapon: w.name.clone(),
                        target: target_text(&t),
                        from,
                        to: target_square(state, &tu.id).unwrap_or(from),
                        hits: o.hits,
                    },
                    o.rolls,
                );
                // 002 "Tesla Weapons": a unit hit is Stunned (R750).
                super::super::battlefront::stunned::tesla_hit(state, &w, &tu.id, o.hits, out);
                super::super::battlefront::grapple::hit(state, &w, &tu.id, &l.shooter, o.hits, out);
                if heroic(state, &tu.id, round) {
                    say(
                        out,
                        format!("Heroic Attack: the attack causes {} no damage", tu.id),
                    );
                    continue;
                }
                let p = act.damage.entry(tu.id.clone()).or_insert_with(|| Pending {
                    by: by.clone(),
                    ..Default::default()
                });
                if o.eliminate {
                    p.eliminate = true;
                }
                match &t {
                    Target::Model { model, .. } if t == l.target => {
                        for _ in 0..o.damage {
                            p.sniped.push(model.clone());
                        }
                    }
                    _ => super::super::battlefront::joined_hits::add(
                        state, p, &tu.id, &w, cover, o.damage,
                    ),
                }
                let damaging = o.hits.saturating_sub(o.saved).min(o.damage);
                let damaging = if apart.contains(&tu.id) { 0 } else { damaging };
                super::riders::hurt_riders(state, act, &tu.id, damaging, &by, dice, out);
            }
        }
    }
}
