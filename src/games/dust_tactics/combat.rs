//! Attack resolution for one weapon line against one target (004 "Attacking").
//!
//! Pure functions: the dice come in, a description of hits, saves and damage comes out. The state
//! machine applies the damage (and asks the owner for casualties).
//!
//! Order of one line (004 "Attacking" steps 4–6, digest §5.4):
//! 1. attack roll (cell dice × carriers, or × targeted models for incendiary cells; ×2 for All In
//!    One), each laser hit chained until it misses;
//! 2. sustained re-roll of the original failures, then Berserk's re-roll of what still fails (new
//!    laser hits chain too);
//! 3. cover saves, one die per hit (squads only, not against range C, flamethrowers, UGLs, range A);
//! 4. damage per surviving hit from the cell; Damage Resilient, one die per damage point.
//!
//! Every die is recorded in [`LineOutcome::rolls`] with its purpose, in the order it was rolled.

use super::model::{
    Armour, Cover, CoverKind, Fire, Save, UnitType, WeaponLine, WeaponRange, WeaponTrait,
};
use super::rules::Rules;
use crate::game::{DiceSource, Roll};

/// What the target brings to an attack. A hero joined to a squad is attacked as part of the squad:
/// pass `Squad`, the squad's saves, and models and `remaining` counting the hero (R33, R35).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetProfile {
    pub armour: Armour,
    pub unit_type: UnitType,
    /// Models in the target (squads); 1 for heroes and vehicles.
    pub models: u32,
    /// Damage points that would destroy it now (models for squads, health left otherwise):
    /// laser chains stop once it is reached (ruling R31).
    pub remaining: u32,
    pub cover: Cover,
    pub soft_save: Save,
    pub hard_save: Save,
    pub damage_resilient: bool,
    /// battlefront-2013's saves beyond 003's table: 002 "Steel Guard" and "Zombie" (R600), a
    /// strongpoint (R719, R720).
    pub bf: super::battlefront::strongpoints::BfSaves,
}

/// How the attacker fires this line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FireOptions {
    /// Models firing the line (already capped for limited ammo; `cards::carriers_alive` counts
    /// them); 1 for heroes and vehicles. 0 is read as 1, as the skeleton did: do not fire a line
    /// whose carriers are all dead.
    pub carriers: u32,
    pub sustained: bool,
    /// Air Alt against an aircraft: a sustained attack's misses get a second re-roll (R560).
    pub air_alt: bool,
    /// Berserk used this activation: re-roll misses once more, per line.
    pub berserk: bool,
    /// Dice reversed (Spotter, Fighting Spirit): misses count as hits.
    pub reversed: bool,
    /// All In One: double dice.
    pub doubled: bool,
    /// Medal of Honor: re-roll one failed die of this line after the other re-rolls.
    pub medal: bool,
    /// Frenzy: every hit is re-rolled until it misses, as a laser's (against soldiers only).
    pub frenzy: bool,
    /// battlefront-2013, 002's Lucky: the misses left are re-rolled once more (R760).
    pub lucky: bool,
    /// battlefront-2013, 002's Wire-Guided weapon fired alone in an Attack: its misses are
    /// re-rolled as a Sustained Attack's (R673).
    pub wire_guided: bool,
}

/// The purpose of the die Medal of Honor re-rolls (the flow reads it to spend the skill).
pub const MEDAL_REROLL: &str = "medal of honor re-roll";

/// The resolution of one line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineOutcome {
    pub rolls: Vec<Roll>,
    pub hits: u32,
    pub saved: u32,
    /// Damage points to apply after saves and Damage Resilient.
    pub damage: u32,
    /// The whole unit is eliminated (anti-tank incendiary).
    pub eliminate: bool,
    /// One line for people: "Laser gun: 6 dice, 2 hits, 1 saved, 1 damage".
    pub summary: String,
}

/// A fire declaration the rules forbid, with the rule and what to do instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason} ({rule}); {instead}")]
pub struct CombatError {
    pub reason: String,
    pub rule: String,
    pub instead: String,
}

/// The dice and damage one cell asks for, before any roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CellPlan {
    dice: u32,
    /// Damage per hit; AP incendiary hits eliminate instead.
    damage: u32,
    ap_incendiary: bool,
    /// A phaser: the hits of the first roll are the dice of the damage roll (R421).
    phaser: bool,
}

/// The damage one hit of `weapon` does to one model of `armour` under battlefront-2013 (003's
/// automatic kill included), or None on a `-` (battlefront/joined_hits.rs, R574).
pub(crate) fn cell_damage(weapon: &WeaponLine, armour: Armour) -> Option<u32> {
    plan_cell(weapon.against(armour), 1, 1, false)
        .map(|p| super::battlefront::spray::cell_damage(p.damage, p.ap_incendiary))
}

fn plan_cell(cell: Fire, carriers: u32, models: u32, doubled: bool) -> Option<CellPlan> {
    let carriers = carriers.max(1);
    let plan = match cell {
        Fire::No => return None,
        Fire::Dice { dice, damage } => CellPlan {
            dice: dice as u32 * carriers,
            damage: damage as u32,
            ap_incendiary: false,
            phaser: false,
        },
        // 004 "Volley Blast" (R460): for a volley line the carriers are the ammo spent, and the
        // cell lists the dice for each count.
        Fire::Volley { steps, damage, .. } => CellPlan {
            dice: cell.volley_dice(carriers.min(steps as u32)).unwrap_or(0) as u32,
            damage: damage as u32,
            ap_incendiary: false,
            phaser: false,
        },
        Fire::Phaser { dice } => CellPlan {
            dice: dice as u32 * carriers,
            damage: 1,
            ap_incendiary: false,
            phaser: true,
        },
        // 004 "Incendiary Blast": X dice for each targeted miniature, 1 damage per hit; each
        // carrier fires its own weapon (ruling R33).
        Fire::Incendiary { dice } => CellPlan {
            dice: dice as u32 * models.max(1) * carriers,
            damage: 1,
            ap_incendiary: false,
            phaser: false,
        },
        Fire::ApIncendiary { dice } => CellPlan {
            dice: dice as u32 * models.max(1) * carriers,
            damage: 0,
            ap_incendiary: true,
            phaser: false,
        },
    };
    if plan.dice == 0 {
        return None;
    }
    Some(CellPlan {
        dice: if doubled { plan.dice * 2 } else { plan.dice },
        ..plan
    })
}

/// Whether `weapon` can damage a target of `armour` at all (a `-` cell, or zero dice, cannot).
pub fn can_damage(weapon: &WeaponLine, armour: Armour) -> bool {
    plan_cell(weapon.against(armour), 1, 1, false).is_some()
}

/// The armour a cover element is attacked as: the vehicle column (ruling R37), 000 "What are the
/// effects of cover?": ammo crate armour 3 with 2 health, tank trap armour 5 with 4 health.
pub fn cover_armour(kind: CoverKind) -> Armour {
    Armour::Vehicle(kind.armour_health().0)
}

/// Whether `weapon` can damage a cover element of `kind`: flamethrowers cannot damage tank traps
/// (004 "Flamethrowers": "cannot destroy anti-tank traps").
pub fn can_damage_cover(weapon: &WeaponLine, kind: CoverKind) -> bool {
    if kind == CoverKind::TankTrap && weapon.traits.contains(&WeaponTrait::Flamethrower) {
        return false;
    }
    can_damage(weapon, cover_armour(kind))
}

/// Whether a cover save applies to this line against this target (004 "Check Cover Saves",
/// "Close-combat weapons", "Flamethrowers", "UGL", "Artillery").
pub fn cover_save_applies(weapon: &WeaponLine, target: &TargetProfile) -> bool {
    target.unit_type == UnitType::Squad
        && target.cover != Cover::None
        && !matches!(weapon.range, WeaponRange::Close | WeaponRange::Artillery)
        && !weapon.traits.contains(&WeaponTrait::Flamethrower)
        && !weapon.traits.contains(&WeaponTrait::GrenadeLauncher)
        // 004 "Tesla weapons": "Tesla weapons ignore cover."
        && !weapon.traits.contains(&WeaponTrait::Tesla)
        && save_for(target) != Save::None
}

fn save_for(target: &TargetProfile) -> Save {
    match target.cover {
        Cover::None => Save::None,
        Cover::Soft => target.soft_save,
        Cover::Hard => target.hard_save,
    }
}

/// One limited-ammo weapon line declared in an attack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AmmoUse<'a> {
    pub weapon: &'a WeaponLine,
    /// How many of this weapon the unit fires (boxes spent).
    pub fired: u32,
    /// Boxes still unmarked on the card.
    pub boxes_left: u32,
}

/// Checks the limited-ammo weapons declared in one attack and returns the boxes to mark in total.
/// 000 "Limited ammo weapons": "you may not use more limited ammo weapons per round than the number
/// of miniatures in your squad"; each use marks a box, and an empty weapon cannot fire.
pub fn limited_ammo_cap(models_alive: u32, lines: &[AmmoUse<'_>]) -> Result<u32, CombatError> {
    let mut total: u32 = 0;
    for line in lines {
        if line.fired > line.boxes_left {
            return Err(CombatError {
                reason: format!(
                    "{} fires {} but only {} ammo box(es) are left",
                    line.weapon.name, line.fired, line.boxes_left
                ),
                rule:
                    "000 \"Limited ammo weapons\": once all the boxes are marked, the unit is out"
                        .into(),
                instead: format!("fire at most {} {}", line.boxes_left, line.weapon.id),
            });
        }
        total = total.saturating_add(line.fired);
    }
    if total > models_alive {
        return Err(CombatError {
            reason: format!(
                "the attack fires {total} limited-ammo weapons but only {models_alive} model(s) are alive"
            ),
            rule: "004 \"Limited Ammo Weapons\" / 000: no more limited ammo weapons per attack than miniatures in the squad".into(),
            instead: format!("fire at most {models_alive} limited-ammo weapons in this attack"),
        });
    }
    Ok(total)
}

/// Rolls `n` dice for one purpose, recording them.
pub(crate) fn roll(
    n: u32,
    purpose: String,
    round: u32,
    dice: &mut dyn DiceSource,
    rolls: &mut Vec<Roll>,
) -> Vec<u8> {
    let faces: Vec<u8> = (0..n).map(|_| dice.d6(round)).collect();
    if n > 0 {
        rolls.push(Roll {
            purpose,
            round,
            faces: faces.clone(),
        });
    }
    faces
}

/// Rolls the attack of one line: the first roll, laser chains, and the re-rolls of failures, in
/// the order 000 "Laser" example 2 and "Berserk" describe. Returns the successes.
struct AttackRoll<'a> {
    weapon: &'a WeaponLine,
    rules: Rules,
    reversed: bool,
    laser: bool,
    /// What the chained dice are called in reports ("laser chain", "frenzy re-roll").
    chain_name: &'static str,
    /// Successes after which the target is surely destroyed (ruling R31); `None`: never sure.
    destroyed_at: Option<u32>,
    round: u32,
    successes: u32,
    chain_dice: u32,
}

impl AttackRoll<'_> {
    fn success(&self, face: u8) -> bool {
        // battlefront-2013: 002's "2-face" hits, army or target (battlefront/skills.rs).
        if self.reversed && self.rules.battlefront() {
            return super::battlefront::dice::RollKind::ToHitFightingSpirit.face_succeeds(face);
        }
        self.rules.is_hit(face) != self.reversed
    }

    /// A roll's purpose, marked when battlefront-2013 counts the target symbol as a hit too,
    /// so the report reads each die right (`battlefront::dice::RollKind::of_purpose`).
    fn purpose(&self, base: String) -> String {
        if self.reversed && self.rules.battlefront() {
            format!("{base} {}", super::battlefront::dice::TWO_FACE_MARK)
        } else {
            base
        }
    }

    fn destroyed(&self) -> bool {
        self.destroyed_at.is_some_and(|n| self.successes >= n)
    }

    /// The re-rolls of the failures left by the first roll, in R32's order: once for a
    /// sustained attack, then once more for Berserk.
    fn reroll_failures(
        &mut self,
        mut fails: u32,
        opts: &FireOptions,
        dice: &mut dyn DiceSource,
        rolls: &mut Vec<Roll>,
        notes: &mut Vec<String>,
    ) {
        let id = &self.weapon.id;
        if opts.sustained && fails > 0 {
            notes.push(format!("{fails} re-rolled (sustained)"));
            let purpose = self.purpose(format!("sustained re-roll {id}"));
            fails = self.roll_batch(fails, purpose, dice, rolls);
        } else if opts.wire_guided && fails > 0 {
            let name = super::battlefront::weapons::WIRE_GUIDED_REROLL;
            notes.push(format!("{fails} re-rolled (wire-guided)"));
            fails = self.roll_batch(fails, self.purpose(format!("{name} {id}")), dice, rolls);
        }
        // 004 "Air Alt": "2 chances to reroll any miss results" (R560): the sustained one, then
        // this one for what still misses.
        if opts.sustained && opts.air_alt && fails > 0 {
            notes.push(format!("{fails} re-rolled (Air Alt)"));
            let purpose = self.purpose(format!("air alt re-roll {id}"));
            fails = self.roll_batch(fails, purpose, dice, rolls);
        }
        if opts.lucky && fails > 0 {
            notes.push(format!("{fails} re-rolled (Lucky)"));
            let lucky = super::battlefront::skills002_d::LUCKY_REROLL;
            let purpose = self.purpose(format!("{lucky} {id}"));
            fails = self.roll_batch(fails, purpose, dice, rolls);
        }
        if opts.berserk && fails > 0 {
            notes.push(format!("{fails} re-rolled (Berserk)"));
            fails = self.roll_batch(fails, format!("berserk re-roll {id}"), dice, rolls);
        }
        // 004 "Medal of Honor": "reroll one combat die during an attack and apply the new
        // result" (R406: one die that failed, the last chance of the line).
        if opts.medal && fails > 0 {
            notes.push("1 re-rolled (Medal of Honor)".into());
            self.roll_batch(1, format!("{MEDAL_REROLL} {id}"), dice, rolls);
        }
    }

    /// Rolls `n` dice; returns the failures. New successes chain when the weapon is a laser.
    fn roll_batch(
        &mut self,
        n: u32,
        purpose: String,
        dice: &mut dyn DiceSource,
        rolls: &mut Vec<Roll>,
    ) -> u32 {
        let faces = roll(n, purpose, self.round, dice, rolls);
        let new = faces.iter().filter(|f| self.success(**f)).count() as u32;
        self.successes += new;
        if self.laser {
            self.chain(new, dice, rolls);
        }
        n - new
    }

    /// 004 "Laser": each success is re-rolled until it fails; 000: stops once the target is
    /// destroyed. Rolled one die at a time so the chain stops exactly there.
    fn chain(&mut self, mut pending: u32, dice: &mut dyn DiceSource, rolls: &mut Vec<Roll>) {
        let mut faces = Vec::new();
        while pending > 0 && !self.destroyed() {
            let f = dice.d6(self.round);
            faces.push(f);
            // battlefront-2013: the chain hits on the army symbol only (003 "Laser Weapons").
            let hit = if self.rules.battlefront() {
                self.rules.is_hit(f)
            } else {
                self.success(f)
            };
            if hit {
                self.successes += 1;
            } else {
                pending -= 1;
            }
        }
        if !faces.is_empty() {
            self.chain_dice += faces.len() as u32;
            rolls.push(Roll {
                purpose: format!("{} {}", self.chain_name, self.weapon.id),
                round: self.round,
                faces,
            });
        }
    }
}

/// Resolves one weapon line against one target under `ffg-revised` (see [`resolve_line_under`]).
pub fn resolve_line(
    weapon: &WeaponLine,
    target: &TargetProfile,
    opts: &FireOptions,
    round: u32,
    dice: &mut dyn DiceSource,
) -> LineOutcome {
    resolve_line_under(Rules::ffg_revised(), weapon, target, opts, round, dice)
}

/// Resolves one weapon line against one target under the ruleset's `rules` (which faces hit).
pub fn resolve_line_under(
    rules: Rules,
    weapon: &WeaponLine,
    target: &TargetProfile,
    opts: &FireOptions,
    round: u32,
    dice: &mut dyn DiceSource,
) -> LineOutcome {
    let cell = weapon.against(target.armour);
    let Some(plan) = plan_cell(cell, opts.carriers, target.models, opts.doubled) else {
        return LineOutcome {
            summary: format!(
                "{}: cannot damage {} (a `-` on the weapon line), no dice rolled",
                weapon.name,
                armour_text(target.armour)
            ),
            ..LineOutcome::default()
        };
    };
    // battlefront-2013: 003's saves and one model lost per hit (`super::battlefront::attack`).
    let (saves, per_hit) = if rules.battlefront() {
        use super::battlefront::attack;
        let saves = attack::save_kind(weapon, target).is_some();
        // `X/(+)` is 003's automatic kill (battlefront/spray.rs, R276).
        let cell = super::battlefront::spray::cell_damage(plan.damage, plan.ap_incendiary);
        (saves, attack::hit_damage(target, cell))
    } else {
        // 004 "Phaser Weapons": "Phasers ignore all cover."
        (
            cover_save_applies(weapon, target) && !plan.phaser,
            plan.damage,
        )
    };
    // Once nothing can cancel a hit, the target is destroyed when the hits reach `remaining`.
    let destroyed_at = if saves || target.damage_resilient || plan.phaser {
        None
    } else if rules.battlefront() {
        Some(target.remaining.div_ceil(per_hit.max(1)))
    } else if plan.ap_incendiary && rules.ap_incendiary_per_hit() {
        Some(target.models.max(1))
    } else if plan.ap_incendiary {
        Some(1)
    } else {
        Some(target.remaining.div_ceil(per_hit.max(1)))
    };
    let mut rolls = Vec::new();
    // 002 "Power Scopes" (battlefront-2013, R672): army or target in a Sustained Attack.
    let scoped = super::battlefront::weapons::scoped(rules, weapon, opts);
    let mut atk = AttackRoll {
        weapon,
        rules,
        reversed: opts.reversed || scoped,
        // 004 "Tesla weapons": "Inflict damage for each [hit] result and reroll all [hit]
        // results", word for word 004 "Laser"; 002's Tesla stuns instead (R750).
        laser: weapon.traits.contains(&WeaponTrait::Laser)
            || (weapon.traits.contains(&WeaponTrait::Tesla) && !rules.battlefront())
            || super::battlefront::weapons::cuts(weapon)
            || opts.frenzy,
        // battlefront-2013 reads its chains by the "laser chain" purpose (battlefront/dice.rs).
        chain_name: if weapon.traits.contains(&WeaponTrait::Tesla) && !rules.battlefront() {
            "tesla chain"
        } else if opts.frenzy && rules.battlefront() {
            // 002 "Berserk" and "Killing Spree" (battlefront-2013, R282, R582): the same
            // chain, army symbols only.
            super::battlefront::skills002::chain_name(weapon)
        } else if super::battlefront::weapons::cuts(weapon) {
            // 002 "Cutting Weapons" (R671): a laser's chain, under its own name.
            super::battlefront::weapons::CUTTING_CHAIN
        } else if opts.frenzy && !weapon.traits.contains(&WeaponTrait::Laser) {
            "frenzy re-roll"
        } else {
            "laser chain"
        },
        destroyed_at,
        round,
        successes: 0,
        chain_dice: 0,
    };
    let purpose = atk.purpose(format!("attack {}", weapon.id));
    let fails = atk.roll_batch(plan.dice, purpose, dice, &mut rolls);
    let mut notes = Vec::new();
    if scoped {
        notes.push("power scopes: army or target hits".to_string());
    }
    atk.reroll_failures(fails, opts, dice, &mut rolls, &mut notes);
    if atk.chain_dice > 0 {
        notes.push(format!("{} {} dice", atk.chain_dice, atk.chain_name));
    }
    let mut hits = atk.successes;
    if plan.phaser {
        hits = super::phaser::damage_roll(rules, weapon, hits, round, dice, &mut rolls, &mut notes);
    }
    finish(
        rules, weapon, target, plan, saves, plan.dice, hits, notes, rolls, round, dice,
    )
}

/// Cover saves, damage and Damage Resilient for `hits` rolled by a line.
#[allow(clippy::too_many_arguments)]
fn finish(
    rules: Rules,
    weapon: &WeaponLine,
    target: &TargetProfile,
    plan: CellPlan,
    saves: bool,
    first_dice: u32,
    hits: u32,
    notes: Vec<String>,
    mut rolls: Vec<Roll>,
    round: u32,
    dice: &mut dyn DiceSource,
) -> LineOutcome {
    if rules.battlefront() {
        return super::battlefront::attack::finish(
            weapon,
            target,
            super::battlefront::spray::cell_damage(plan.damage, plan.ap_incendiary),
            first_dice,
            hits,
            notes,
            rolls,
            round,
            dice,
        );
    }
    // 004 "Check Cover Saves": one die per hit; a HIT save cancels on each hit, a MISS save on
    // each miss. The attacker's reversal (Spotter…) does not touch the defender's dice.
    let mut saved = 0;
    if saves && hits > 0 {
        let save = save_for(target);
        let faces = roll(
            hits,
            format!("cover save vs {}", weapon.id),
            round,
            dice,
            &mut rolls,
        );
        saved = faces
            .iter()
            .filter(|f| match save {
                Save::Hit => rules.is_hit(**f),
                Save::Miss => !rules.is_hit(**f),
                Save::None => false,
            })
            .count() as u32;
    }
    let through = hits - saved;
    let mut eliminate = false;
    let mut damage = 0;
    let mut resilient = 0;
    if plan.ap_incendiary && rules.ap_incendiary_per_hit() {
        // 000 "Special damage types" (`1/(+)`): "Each hit means a target loses all its remaining
        // health": one miniature per hit (a squad's models share its health evenly, R205).
        let per_target = target.remaining.div_ceil(target.models.max(1));
        damage = (through * per_target).min(target.remaining);
        eliminate = through > 0 && damage == target.remaining;
    } else if plan.ap_incendiary {
        // 004 "AP Incendiary Blast": at least one hit eliminates the entire unit (ruling R34);
        // Damage Resilient has no damage points to roll against.
        if through > 0 {
            eliminate = true;
            damage = target.remaining;
        }
    } else {
        damage = through * plan.damage;
        // 004 "Damage Resilient": after cover saves, one die per damage point, each HIT ignores 1.
        if target.damage_resilient && damage > 0 {
            let faces = roll(
                damage,
                format!("damage resilient vs {}", weapon.id),
                round,
                dice,
                &mut rolls,
            );
            resilient = faces.iter().filter(|f| rules.is_hit(**f)).count() as u32;
            damage -= resilient;
        }
    }
    let mut summary = format!(
        "{} vs {}: {} dice",
        weapon.name,
        armour_text(target.armour),
        first_dice
    );
    for n in &notes {
        summary.push_str(", ");
        summary.push_str(n);
    }
    summary.push_str(&format!(", {hits} hit{}", if hits == 1 { "" } else { "s" }));
    if saves {
        summary.push_str(&format!(", {saved} saved by cover"));
    }
    if resilient > 0 {
        summary.push_str(&format!(", {resilient} ignored (Damage Resilient)"));
    }
    if eliminate {
        summary.push_str(", the whole unit is eliminated (AP incendiary)");
    } else {
        summary.push_str(&format!(", {damage} damage"));
    }
    LineOutcome {
        rolls,
        hits,
        saved,
        damage,
        eliminate,
        summary,
    }
}

/// Attacks a cover element (ammo crate or tank trap) with one line. The element has no save; its
/// armour is on the vehicle column (R37). Explosives against a tank trap re-roll their misses once,
/// and once more in a Sustained Attack (004 "Explosives Weapons"). `damage_taken` is what the
/// element has already lost. Flamethrowers cannot damage tank traps (no dice are rolled).
pub fn resolve_cover_attack(
    weapon: &WeaponLine,
    kind: CoverKind,
    damage_taken: u8,
    opts: &FireOptions,
    round: u32,
    dice: &mut dyn DiceSource,
) -> LineOutcome {
    let rules = Rules::ffg_revised();
    resolve_cover_attack_under(rules, weapon, kind, damage_taken, opts, round, dice)
}

/// [`resolve_cover_attack`] under the ruleset's `rules`.
pub fn resolve_cover_attack_under(
    rules: Rules,
    weapon: &WeaponLine,
    kind: CoverKind,
    damage_taken: u8,
    opts: &FireOptions,
    round: u32,
    dice: &mut dyn DiceSource,
) -> LineOutcome {
    let (armour, health) = kind.armour_health();
    let name = match kind {
        CoverKind::AmmoCrate => "ammo crate",
        CoverKind::TankTrap => "tank trap",
    };
    if !can_damage_cover(weapon, kind) {
        return LineOutcome {
            summary: format!("{}: cannot damage a {name}, no dice rolled", weapon.name),
            ..LineOutcome::default()
        };
    }
    let target = TargetProfile {
        armour: Armour::Vehicle(armour),
        unit_type: UnitType::Vehicle,
        models: 1,
        remaining: health.saturating_sub(damage_taken) as u32,
        cover: Cover::None,
        soft_save: Save::None,
        hard_save: Save::None,
        damage_resilient: false,
        bf: Default::default(),
    };
    let explosives_vs_trap =
        kind == CoverKind::TankTrap && weapon.traits.contains(&WeaponTrait::Explosives);
    if !explosives_vs_trap {
        let mut out = resolve_line_under(rules, weapon, &target, opts, round, dice);
        out.summary = out.summary.replacen(
            &format!("vs {}", armour_text(target.armour)),
            &format!("vs {name}"),
            1,
        );
        return out;
    }
    let Some(plan) = plan_cell(
        weapon.against(target.armour),
        opts.carriers,
        1,
        opts.doubled,
    ) else {
        return LineOutcome::default();
    };
    let mut rolls = Vec::new();
    let mut atk = AttackRoll {
        weapon,
        rules,
        reversed: opts.reversed,
        laser: weapon.traits.contains(&WeaponTrait::Laser)
            || (weapon.traits.contains(&WeaponTrait::Tesla) && !rules.battlefront()),
        chain_name: "laser chain",
        destroyed_at: Some(target.remaining.div_ceil(plan.damage.max(1))),
        round,
        successes: 0,
        chain_dice: 0,
    };
    let mut fails = atk.roll_batch(plan.dice, format!("attack {}", weapon.id), dice, &mut rolls);
    let mut notes = Vec::new();
    if fails > 0 {
        notes.push(format!("{fails} re-rolled (explosives vs tank trap)"));
        fails = atk.roll_batch(
            fails,
            format!("explosives re-roll {}", weapon.id),
            dice,
            &mut rolls,
        );
    }
    atk.reroll_failures(fails, opts, dice, &mut rolls, &mut notes);
    let mut out = finish(
        rules,
        weapon,
        &target,
        plan,
        false,
        plan.dice,
        atk.successes,
        notes,
        rolls,
        round,
        dice,
    );
    out.summary = out.summary.replacen(
        &format!("vs {}", armour_text(target.armour)),
        &format!("vs {name}"),
        1,
    );
    out
}

fn armour_text(armour: Armour) -> String {
    match armour {
        Armour::Soldier(v) => format!("soldier armour {v}"),
        Armour::Vehicle(v) => format!("vehicle armour {v}"),
        Armour::Aircraft(v) => format!("aircraft armour {v}"),
    }
}
