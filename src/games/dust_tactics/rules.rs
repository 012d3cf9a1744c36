//! Rulesets as policies. One [`Rules`] value per ruleset, chosen from the ruleset id at setup
//! and derived from the state ([`crate::dust_tactics::state::State::rules`]); the engine asks it
//! wherever the rule families differ. `ffg-revised` (004, with 000 where 004 is silent) and
//! `classic-2010` (000 alone, the 2010 core rulebook) are offered, and `battlefront-2013` (003
//! with 002), whose differing code paths live in `super::battlefront`.

use super::model::{Terrain, WeaponLine, WeaponRange, WeaponTrait};
use super::skill::Skill;
use std::fmt;

/// The revision of the Dust Tactics rules that new games get. 1: rulings R147–R153 (issue 12:
/// hero armour value, sniper not shared, crates may be spared, trees destroyed, flames between,
/// entering in round 1, comrades pick up limited ammo); 2: R154 (the default casualties keep the
/// special-weapon carrier); 3: R209–R210 (classic-2010: a Charge attacks with all its range 1
/// weapons; the first MOVE of a double move may pass a square it could not stop on); 4: R255–R256
/// (battlefront-2013: reactions fire within their field of fire, two army symbols may turn the
/// unit, a March Move is reacted to after its first part) and R415 (an artillery or reloadable
/// line is empty once fired, until reloaded); 5: R440–R444 (004 "Aircraft": a unit with aircraft
/// armour flies); 6: R585 (an attack naming a line no living model carries is refused, not
/// fired at nobody); 7: R544 (004 "Pilot: Name": a pilot boards and exits during the game),
/// R545 (004 "Aircraft": advanced deployment), R629 (a boarding's or an exit's move enters
/// minefields) and R604–R607 (battlefront-2013: a hero joins a squad by standing in its square
/// and may activate apart from it; pilots mount and dismount); 8: R541 (no reactive fire answers a
/// pilot's boarding), R702–R706 (battlefront-2013: 002's Under Fire and Suppressed tokens, Brave
/// and Commissar) and R727 (battlefront-2013: a strongpoint blocks sight across it, and no range-1
/// Special Action from inside it at a unit outside); 9: R637 (battlefront-2013: no move climbs
/// to an upper floor or a roof of 003's buildings), R807 (an aircraft blocks no ground unit's
/// sight) and R808 (a strongpoint next to a ground unit hides it from an aircraft); 10: R587
/// (battlefront-2013: no objective in a strongpoint either), R810 (a vehicle with Crew retaliates
/// with its own lines or its crew's, never both), R811 (a Hero Officer joined to a Command Squad
/// in a Command Vehicle has its radio), R819 (a reacting Large vehicle's Move rotates it on its two
/// squares), R822 (a reaction that turned or rotated the unit marks it moved, for its Set-Up
/// weapons), R574 (a hit on a joined hero marks the weapon's damage, and each Damage Resilient
/// rolls only for its own unit's hits), R685 (cover inside a strongpoint or bunker) and R686 (a
/// minefield under any square of a Large or Huge vehicle); games made before keep the revision
/// they were made with.
pub const RULES_REVISION: u32 = 10;

/// The policies of one ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    id: &'static str,
    hits: HitFaces,
    double_move: DoubleMove,
    reactive_fire: ReactiveFire,
    sustained: SustainedAttack,
    terrain: TerrainTypes,
    skills: SkillWording,
    ap_incendiary: ApIncendiary,
    charge: ChargeMove,
    rulebook: Rulebook,
    family: Family,
}

/// The rules family whose dice symbols, attack sequence and order set apply (issue 18).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// 000 / 004: hit-or-miss dice, the engine's saves and damage.
    Tactics,
    /// 003 (Battlefront 2013): three-symbol dice, Infantry and Cover saves, one model lost per
    /// hit; what is not built yet is refused (`crate::dust_tactics::battlefront`).
    Battlefront,
}

/// The rulebook a game's refusals cite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rulebook {
    /// 004 first, 000 where 004 is silent.
    Revised2013,
    /// 000 only: a 004 section is restated as the 000 section with the same rule.
    Core2010,
}

/// How a Charge moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChargeMove {
    /// 004 "Charge": two MOVE actions, then an ATTACK with range 1 or C weapons.
    TwoMovesThenAttack,
    /// 000 "Charge": one or two MOVEs plus one free square into a square adjacent to an enemy
    /// unit, then an attack with range 1 weapons.
    MovesPlusOneSquare,
}

/// Which rulebook's wording of the skills and heroes whose 000 and 004 texts differ (Damage
/// Resilient, Fighting Spirit, Berserk, Jump, a joined hero's Movement): one switch, as each of
/// them differs in one place only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SkillWording {
    /// 004 "Skills": Damage Resilient against every attack; Fighting Spirit and Berserk once per
    /// game, Berserk for any unit that has it; no jumping over a vehicle, and a hero and squad
    /// join only if both have Jump; 004 "Heroes": a joined unit moves at the faster Movement.
    Revised2013,
    /// 000 "Abilities": Damage Resilient not against flame, artillery or range 1; Fighting Spirit
    /// whenever the hero moved before attacking; Berserk for heroes only; Jump over vehicles, not
    /// shared by a hero with his squad; a joined unit moves at the slower Movement (R207).
    Core2010,
}

/// What a hit of an anti-tank incendiary cell (`X/(+)`) does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ApIncendiary {
    /// 004 "AP Incendiary Blast": at least one hit eliminates the entire unit (ruling R34).
    EliminatesTheUnit,
    /// 000 "Special damage types": each hit makes one target (one miniature) lose all its health.
    EachHitOneTarget,
}

/// Which terrain a board may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TerrainTypes {
    /// 004 "Terrain": adds deep water, rubble, smoke and trees to the dot / no-dot squares.
    Revised,
    /// 000 "Movement rules": a square has a dot or not (a terrain square covers its dot).
    DotOrNoDot,
}

/// Which faces of a die are hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HitFaces {
    /// 004: a die hits on two of its six faces, read as faces 1 and 2 (docs/rulings.md ruling 3).
    OneAndTwo,
}

/// How a unit moves twice in one activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DoubleMove {
    /// 004: MOVE + MOVE are two actions, with the reactive-fire window after the first.
    TwoActions,
    /// 000 "Move twice": one move of double Movement (a diagonal beyond the first still costs 2).
    OneDoubleMove,
}

/// Whether the opponent may fire at an activating unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReactiveFire {
    /// 004 "Reactive fire": one window after the first action of an activation.
    AfterFirstAction,
    /// 000 has no reactive fire.
    None,
    /// 003 "Reactive Attacks": after the first action, a unit within four squares rolls 2 dice
    /// for a graded result (issue 18, battlefront/reactive.rs).
    TwoDiceGraded,
}

/// What a sustained attack is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SustainedAttack {
    /// 004 "Sustained Attack": takes both actions; the misses are rolled again once.
    BothActionsRerollMisses,
}

/// A ruleset id that no [`Rules`] constructor answers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("ruleset `{id}` is not available: use one of {}", Rules::KNOWN.join(", "))]
pub struct UnknownRuleset {
    pub id: String,
}

impl Rules {
    /// The ruleset ids offered, in the order `dustmail games` lists them.
    pub const KNOWN: &'static [&'static str] = &["ffg-revised", "classic-2010", "battlefront-2013"];

    /// `ffg-revised`: 004 (the FFG revised rules), with 000 where 004 is silent.
    pub const fn ffg_revised() -> Rules {
        Rules {
            id: "ffg-revised",
            hits: HitFaces::OneAndTwo,
            double_move: DoubleMove::TwoActions,
            reactive_fire: ReactiveFire::AfterFirstAction,
            sustained: SustainedAttack::BothActionsRerollMisses,
            terrain: TerrainTypes::Revised,
            skills: SkillWording::Revised2013,
            ap_incendiary: ApIncendiary::EliminatesTheUnit,
            charge: ChargeMove::TwoMovesThenAttack,
            rulebook: Rulebook::Revised2013,
            family: Family::Tactics,
        }
    }

    /// `classic-2010`: the 2010 core rulebook (seed 000) alone, never mixed with 004.
    pub const fn classic_2010() -> Rules {
        Rules {
            id: "classic-2010",
            hits: HitFaces::OneAndTwo,
            double_move: DoubleMove::OneDoubleMove,
            reactive_fire: ReactiveFire::None,
            // 000 "Sustained attack (SHOOT + SHOOT)": each miss may be re-rolled once.
            sustained: SustainedAttack::BothActionsRerollMisses,
            terrain: TerrainTypes::DotOrNoDot,
            skills: SkillWording::Core2010,
            ap_incendiary: ApIncendiary::EachHitOneTarget,
            charge: ChargeMove::MovesPlusOneSquare,
            rulebook: Rulebook::Core2010,
            family: Family::Tactics,
        }
    }

    /// `battlefront-2013`: the 2013 Battlefront core rulebook (seed 003) with its special rules
    /// (002), as docs/battlefront.md lists it: what is not built is refused, never played
    /// by another rulebook's rule.
    pub const fn battlefront_2013() -> Rules {
        Rules {
            id: "battlefront-2013",
            // 003 "Dust Dice": a hit is the army symbol, faces 1 and 2 (R230).
            hits: HitFaces::OneAndTwo,
            // 003 "Actions": two Moves are taken as one March Move of double Move rating.
            double_move: DoubleMove::OneDoubleMove,
            // 003 "Reactive Attacks": 2 dice, graded results (R270).
            reactive_fire: ReactiveFire::TwoDiceGraded,
            // 003 "Sustained Attack Action": re-roll all dice that failed to hit.
            sustained: SustainedAttack::BothActionsRerollMisses,
            terrain: TerrainTypes::Revised,
            skills: SkillWording::Revised2013,
            ap_incendiary: ApIncendiary::EliminatesTheUnit,
            charge: ChargeMove::TwoMovesThenAttack,
            rulebook: Rulebook::Revised2013,
            family: Family::Battlefront,
        }
    }

    /// The rules of ruleset `id`, or which ids exist.
    pub fn for_id(id: &str) -> Result<Rules, UnknownRuleset> {
        match id {
            "ffg-revised" => Ok(Rules::ffg_revised()),
            "classic-2010" => Ok(Rules::classic_2010()),
            "battlefront-2013" => Ok(Rules::battlefront_2013()),
            _ => Err(UnknownRuleset { id: id.to_string() }),
        }
    }

    pub fn id(&self) -> &'static str {
        self.id
    }

    /// Whether a die showing `face` is a hit (attack rolls, cover saves, Damage Resilient).
    pub fn is_hit(&self, face: u8) -> bool {
        match self.hits {
            HitFaces::OneAndTwo => face <= 2,
        }
    }

    /// The hit faces of a d6, lowest first.
    pub fn hit_faces(&self) -> Vec<u8> {
        (1..=6).filter(|f| self.is_hit(*f)).collect()
    }

    /// Whether two MOVE actions are separate actions with a reactive-fire window between them
    /// (rather than one move of double Movement).
    pub fn moves_are_separate_actions(&self) -> bool {
        match self.double_move {
            DoubleMove::TwoActions => true,
            DoubleMove::OneDoubleMove => false,
        }
    }

    /// Whether an activation opens a reactive-fire window for the opponent.
    pub fn reactive_fire(&self) -> bool {
        match self.reactive_fire {
            ReactiveFire::AfterFirstAction | ReactiveFire::TwoDiceGraded => true,
            ReactiveFire::None => false,
        }
    }

    /// Whether a reaction rolls 003's 2 dice for a graded result (battlefront-2013) rather than
    /// 004's reactive-fire roll.
    pub fn reactive_graded(&self) -> bool {
        self.reactive_fire == ReactiveFire::TwoDiceGraded
    }

    /// Whether a SUSTAINED ATTACK (both actions, misses rolled again) may be declared.
    pub fn sustained_attack(&self) -> bool {
        match self.sustained {
            SustainedAttack::BothActionsRerollMisses => true,
        }
    }
}

impl Rules {
    /// Whether a board of this ruleset may have `terrain`.
    pub fn allows_terrain(&self, terrain: Terrain) -> bool {
        match self.terrain {
            TerrainTypes::Revised => true,
            TerrainTypes::DotOrNoDot => matches!(terrain, Terrain::Open | Terrain::Impassable),
        }
    }
}

impl Rules {
    /// Whether Damage Resilient rolls against an attack with this weapon line.
    pub fn damage_resilient_against(&self, weapon: &WeaponLine) -> bool {
        match self.skills {
            SkillWording::Revised2013 => true,
            // 000 "Damage Resilient": "does not work against Flame weapons, artillery weapons
            // (range A), and any weapons with range 1" (R202: close combat `C` is range 1).
            SkillWording::Core2010 => {
                !weapon.traits.contains(&WeaponTrait::Flamethrower)
                    && !matches!(
                        weapon.range,
                        WeaponRange::Artillery | WeaponRange::Close | WeaponRange::Upto(1)
                    )
            }
        }
    }

    /// Whether `skill` may be used once per game only, whatever the card says.
    pub fn once_per_game(&self, skill: Skill) -> bool {
        match self.skills {
            // battlefront-2013: 002's Tank Head is not limited per game (R283).
            SkillWording::Revised2013 => {
                skill.once_per_game() && !(self.battlefront() && skill == Skill::TankHead)
            }
            // 000 "Fighting Spirit": every time the hero moved before attacking.
            SkillWording::Core2010 => skill != Skill::FightingSpirit && skill.once_per_game(),
        }
    }

    /// Whether Fighting Spirit works by itself whenever the hero moved before attacking (000),
    /// rather than when declared with `skill fighting-spirit` (004).
    pub fn fighting_spirit_always(&self) -> bool {
        self.skills == SkillWording::Core2010
    }

    /// Whether only a hero's Berserk may be used (000 "Berserk": "A hero with this ability").
    pub fn berserk_heroes_only(&self) -> bool {
        self.skills == SkillWording::Core2010
    }

    /// Whether Jump passes over a vehicle's square too (000 "Jump": "an enemy unit, a
    /// vehicle, or obstacles"); 004 forbids jumping a vehicle.
    pub fn jump_over_vehicles(&self) -> bool {
        self.skills == SkillWording::Core2010
    }

    /// The Movement of a hero and the squad he joined, from theirs: 004 "Heroes" the faster;
    /// 000 is silent, and its joined unit always stands in one square, so the slower (R207).
    pub fn joined_movement(&self, movements: impl Iterator<Item = u32>) -> u32 {
        // issue 18 hook: 003 "Joining Infantry Squads": "the combined unit has the lower
        // movement rate of the two" (R257).
        if self.battlefront() {
            return movements.min().unwrap_or(0);
        }
        match self.skills {
            SkillWording::Revised2013 => movements.max().unwrap_or(0),
            SkillWording::Core2010 => movements.min().unwrap_or(0),
        }
    }

    /// Whether a hero and a squad may join only if both or neither have Jump (004 "Jump").
    pub fn join_needs_matching_jump(&self) -> bool {
        self.skills == SkillWording::Revised2013
    }

    /// Whether each hit of an anti-tank incendiary cell kills one target (000) rather than the
    /// first hit eliminating the whole unit (004).
    pub fn ap_incendiary_per_hit(&self) -> bool {
        self.ap_incendiary == ApIncendiary::EachHitOneTarget
    }
}

impl Rules {
    /// Whether a Charge adds one free square into a square adjacent to an enemy and may be made
    /// with one MOVE or two (000), rather than being exactly MOVE, MOVE, ATTACK (004).
    pub fn charge_extra_square(&self) -> bool {
        self.charge == ChargeMove::MovesPlusOneSquare
    }
}

impl Rules {
    /// Whether a command squad's orders may be given to another unit with the Command Squad
    /// skill: 000 "Command Squads" forbids only "the command squad itself"; 004 "Command
    /// Squads": "cannot use its skills on any unit that also has a Command Squad skill".
    pub fn command_orders_reach_command_squads(&self) -> bool {
        self.rulebook == Rulebook::Core2010
    }

    /// Whether this is the Battlefront family (003/002): three-symbol dice, Infantry and Cover
    /// saves, one model lost per hit (`crate::dust_tactics::battlefront`).
    pub fn battlefront(&self) -> bool {
        self.family == Family::Battlefront
    }
}

impl Rules {
    /// Whether refusals cite the 2010 rulebook (000) only.
    pub fn cites_2010_only(&self) -> bool {
        self.rulebook == Rulebook::Core2010
    }
}

impl Default for Rules {
    /// `ffg-revised`, the default ruleset; what [`crate::dust_tactics::combat::FireOptions`]
    /// uses unless told otherwise.
    fn default() -> Self {
        Rules::ffg_revised()
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ffg_revised_policies() {
        let r = Rules::ffg_revised();
        assert_eq!(r.id(), "ffg-revised");
        assert_eq!(r.hit_faces(), vec![1, 2]);
        assert!(r.moves_are_separate_actions());
        assert!(r.reactive_fire());
        assert!(r.sustained_attack());
        assert_eq!(Rules::for_id("ffg-revised"), Ok(r));
        assert_eq!(Rules::default(), r);
    }

    #[test]
    fn classic_2010_policies() {
        let r = Rules::classic_2010();
        assert_eq!(r.id(), "classic-2010");
        assert_eq!(r.hit_faces(), vec![1, 2]);
        assert!(!r.moves_are_separate_actions());
        assert!(!r.reactive_fire());
        assert!(r.sustained_attack());
        assert_eq!(Rules::for_id("classic-2010"), Ok(r));
    }

    #[test]
    fn battlefront_2013_policies() {
        let r = Rules::battlefront_2013();
        assert_eq!(r.id(), "battlefront-2013");
        assert!(r.battlefront());
        assert_eq!(r.hit_faces(), vec![1, 2]);
        assert!(!r.moves_are_separate_actions());
        assert!(r.reactive_fire() && r.reactive_graded());
        assert!(r.sustained_attack());
        assert_eq!(Rules::for_id("battlefront-2013"), Ok(r));
        assert!(!Rules::ffg_revised().battlefront() && !Rules::classic_2010().battlefront());
    }

    #[test]
    fn unknown_ids_are_refused_with_the_known_ones() {
        let e = Rules::for_id("battlefront-2014").unwrap_err();
        assert_eq!(
            e.to_string(),
            "ruleset `battlefront-2014` is not available: use one of ffg-revised, classic-2010, battlefront-2013"
        );
    }
}
