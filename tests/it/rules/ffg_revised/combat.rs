//! Attack resolution, DATC style: each test is one rule or one rulebook example, named after its
//! section, with scripted dice so every roll is exact (faces 1-2 hit, 3-6 miss; DESIGN ruling 3).

use dustmail::dust_tactics::cards::builtin_cards;
use dustmail::dust_tactics::combat::{
    can_damage, can_damage_cover, limited_ammo_cap, resolve_cover_attack, resolve_line, AmmoUse,
    FireOptions, LineOutcome, TargetProfile,
};
use dustmail::dust_tactics::model::{
    Armour, Card, Cover, CoverKind, Fire, Save, UnitType, WeaponLine,
};
use dustmail::game::ScriptedDice;

fn card(id: &str) -> Card {
    static CARDS: std::sync::OnceLock<Vec<Card>> = std::sync::OnceLock::new();
    CARDS
        .get_or_init(|| builtin_cards().unwrap())
        .iter()
        .find(|c| c.id == id)
        .unwrap()
        .clone()
}

fn weapon(card_id: &str, weapon_id: &str) -> WeaponLine {
    card(card_id).weapon(weapon_id).unwrap().clone()
}

/// The target as the state machine would describe it from its card.
fn target(card_id: &str, models: u32, remaining: u32, cover: Cover) -> TargetProfile {
    let c = card(card_id);
    TargetProfile {
        armour: c.armour,
        unit_type: c.unit_type,
        models,
        remaining,
        cover,
        soft_save: c.soft_save,
        hard_save: c.hard_save,
        damage_resilient: c.has_skill("damage-resilient"),
        bf: Default::default(),
    }
}

fn carriers(n: u32) -> FireOptions {
    FireOptions {
        carriers: n,
        ..FireOptions::default()
    }
}

/// Resolves and checks that every scripted die was used.
fn run(w: &WeaponLine, t: &TargetProfile, o: &FireOptions, faces: &[u8]) -> LineOutcome {
    let mut dice = ScriptedDice::new(faces.iter().copied());
    let out = resolve_line(w, t, o, 1, &mut dice);
    assert_eq!(dice.remaining(), 0, "unused scripted dice: {out:?}");
    out
}

fn purposes(out: &LineOutcome) -> Vec<(String, usize)> {
    out.rolls
        .iter()
        .map(|r| (r.purpose.clone(), r.faces.len()))
        .collect()
}

// ---------------------------------------------------------------- 000 "Open fire!"

#[test]
fn open_fire_000_pounder_against_five_laser_grenadiers() {
    // 000 "Open fire!" example: 17 Pdr 4 dice (2 hits), .50 cal 3 dice (1 hit), .30 cal 3 dice
    // (0 hits): the Grenadier squad loses 3 miniatures.
    let t = target("laser-grenadiers", 5, 5, Cover::None);
    let gun = run(
        &weapon("m2c-pounder", "17pdr"),
        &t,
        &carriers(1),
        &[1, 2, 5, 6],
    );
    assert_eq!((gun.rolls[0].faces.len(), gun.hits, gun.damage), (4, 2, 2));
    assert_eq!(
        gun.summary,
        "17 Pdr Gun vs soldier armour 2: 4 dice, 2 hits, 2 damage"
    );
    let t = TargetProfile {
        models: 3,
        remaining: 3,
        ..t
    };
    let cal50 = run(
        &weapon("m2c-pounder", "50cal"),
        &t,
        &carriers(1),
        &[2, 4, 6],
    );
    assert_eq!((cal50.rolls[0].faces.len(), cal50.damage), (3, 1));
    let cal30 = run(
        &weapon("m2c-pounder", "30cal"),
        &t,
        &carriers(1),
        &[3, 4, 5],
    );
    assert_eq!((cal30.rolls[0].faces.len(), cal30.damage), (3, 0));
    assert_eq!(gun.damage + cal50.damage + cal30.damage, 3);
}

#[test]
fn open_fire_000_17pdr_dice_against_every_vehicle_armour() {
    // 000 "Open fire!": 7 dice vs vehicle armour 1-2, 6 vs 3-4, 5 vs 5-6, 4 vs 7; 1 damage per hit.
    let gun = weapon("m2c-pounder", "17pdr");
    for (armour, n) in [(1, 7), (2, 7), (3, 6), (4, 6), (5, 5), (6, 5), (7, 4)] {
        let t = TargetProfile {
            armour: Armour::Vehicle(armour),
            unit_type: UnitType::Vehicle,
            models: 1,
            remaining: 9,
            cover: Cover::None,
            soft_save: Save::None,
            hard_save: Save::None,
            damage_resilient: false,
            bf: Default::default(),
        };
        let mut faces = vec![6u8; n];
        faces[0] = 1;
        let out = run(&gun, &t, &carriers(1), &faces);
        assert_eq!(out.rolls[0].faces.len(), n, "vehicle armour {armour}");
        assert_eq!(out.damage, 1);
    }
}

#[test]
fn open_fire_000_squad_dice_multiply_by_living_carriers() {
    // 000 "Open fire!": 4 Assault Rangers with Shotguns roll 12 dice against an armour 2 squad;
    // with two shotgun carriers killed, 6 dice.
    let shotguns = weapon("assault-rangers", "shotguns");
    let t = target("recon-grenadiers", 5, 5, Cover::None);
    let out = run(&shotguns, &t, &carriers(4), &[6; 12]);
    assert_eq!((out.rolls[0].faces.len(), out.damage), (12, 0));
    let out = run(&shotguns, &t, &carriers(2), &[6; 6]);
    assert_eq!(out.rolls[0].faces.len(), 6);
}

#[test]
fn weapon_lines_004_a_dash_cell_cannot_damage_and_rolls_nothing() {
    // 004 "Weapons": the line gives dice per armour; "-" cannot damage that armour.
    let laser = weapon("laser-grenadiers", "laser-gewehr");
    assert!(!can_damage(&laser, Armour::Vehicle(4)));
    assert!(can_damage(&laser, Armour::Soldier(2)));
    assert!(!can_damage(
        &weapon("m2c-pounder", "17pdr"),
        Armour::Aircraft(1)
    ));
    let t = target("m2c-pounder", 1, 4, Cover::None);
    let out = run(&laser, &t, &carriers(4), &[]);
    assert_eq!((out.hits, out.damage, out.rolls.len()), (0, 0, 0));
    assert!(
        out.summary.contains("cannot damage vehicle armour 4"),
        "{}",
        out.summary
    );
}

// ---------------------------------------------------------------- sustained, reversed, All In One

#[test]
fn sustained_attack_004_rerolls_each_miss_once_per_line() {
    // 004 "Actions": SUSTAINED ATTACK rerolls all miss results once for each weapon line.
    let t = target("laser-grenadiers", 5, 5, Cover::None);
    let o = FireOptions {
        carriers: 1,
        sustained: true,
        ..FireOptions::default()
    };
    let out = run(&weapon("m2c-pounder", "30cal"), &t, &o, &[3, 4, 1, 2, 5]);
    assert_eq!(out.hits, 2, "1 hit, then 1 of the 2 re-rolled misses");
    assert_eq!(
        purposes(&out),
        [
            ("attack 30cal".into(), 3),
            ("sustained re-roll 30cal".into(), 2)
        ]
    );
    assert_eq!(
        out.summary,
        ".30 cal MG vs soldier armour 2: 3 dice, 2 re-rolled (sustained), 2 hits, 2 damage"
    );
}

#[test]
fn spotter_004_reversed_dice_count_misses_and_sustained_rerolls_the_hits() {
    // 004 "Spotter": reverse the results; a unit with a spotter rerolls hit faces (its failures)
    // in a SUSTAINED ATTACK.
    let t = target("laser-grenadiers", 5, 5, Cover::None);
    let o = FireOptions {
        carriers: 1,
        sustained: true,
        reversed: true,
        ..FireOptions::default()
    };
    let out = run(&weapon("m2c-pounder", "30cal"), &t, &o, &[1, 4, 5, 2]);
    assert_eq!(
        out.hits, 2,
        "faces 4 and 5 succeed; the re-rolled 1 shows 2, a failure again"
    );
    assert_eq!(out.rolls[1].purpose, "sustained re-roll 30cal");
    assert_eq!(out.rolls[1].faces.len(), 1);
}

#[test]
fn fighting_spirit_004_misses_count_as_hits() {
    // 004 "Fighting Spirit": treat misses as hits and hits as misses with all the hero's weapons.
    let t = target("recon-grenadiers", 5, 5, Cover::None);
    let o = FireOptions {
        carriers: 1,
        reversed: true,
        ..FireOptions::default()
    };
    let out = run(&weapon("joseph-brown", "grenade-launcher"), &t, &o, &[1, 6]);
    assert_eq!((out.hits, out.damage), (1, 1));
}

#[test]
fn all_in_one_004_doubles_the_dice() {
    // 004 "All In One": roll twice the normal number of attack dice for all weapons.
    let t = target("laser-grenadiers", 5, 5, Cover::None);
    let o = FireOptions {
        carriers: 1,
        doubled: true,
        ..FireOptions::default()
    };
    let out = run(&weapon("m2c-pounder", "17pdr"), &t, &o, &[6; 8]);
    assert_eq!(out.rolls[0].faces.len(), 8);
}

// ---------------------------------------------------------------- laser and Berserk

#[test]
fn laser_004_each_hit_is_rerolled_until_it_misses() {
    // 004 "Laser": inflict damage for each hit and reroll it, until all dice show misses.
    let t = target("m2c-pounder", 1, 4, Cover::None);
    let t = TargetProfile {
        armour: Armour::Vehicle(1),
        ..t
    };
    let out = run(
        &weapon("laser-grenadiers", "laser-gewehr"),
        &t,
        &carriers(2),
        &[1, 5, 2, 6],
    );
    assert_eq!((out.hits, out.damage), (2, 2));
    assert_eq!(
        purposes(&out),
        [
            ("attack laser-gewehr".into(), 2),
            ("laser chain laser-gewehr".into(), 2)
        ]
    );
}

#[test]
fn laser_000_chain_stops_once_the_target_is_destroyed() {
    // 000 "Laser": "Once the unit or the vehicle targeted is destroyed, the Laser stops." A lone
    // Ranger (1 model, no cover) is destroyed by the first hit: no chain die (ruling R31).
    let t = target("combat-rangers", 1, 1, Cover::None);
    let out = run(
        &weapon("laser-grenadiers", "laser-gewehr"),
        &t,
        &carriers(1),
        &[1],
    );
    assert_eq!((out.hits, out.damage, out.rolls.len()), (1, 1, 1));
}

#[test]
fn laser_r31_chain_goes_on_while_a_cover_save_could_still_cancel_hits() {
    // Ruling R31: with a cover save to come the target is not yet destroyed, so the chain goes on.
    let t = target("combat-rangers", 1, 1, Cover::Soft);
    let out = run(
        &weapon("laser-grenadiers", "laser-gewehr"),
        &t,
        &carriers(1),
        &[1, 2, 5, 1, 6],
    );
    assert_eq!(out.hits, 2);
    assert_eq!(
        out.saved, 1,
        "soft cover: Hit save, one of the two save dice hits"
    );
    assert_eq!(out.damage, 1);
    assert_eq!(
        purposes(&out),
        [
            ("attack laser-gewehr".into(), 1),
            ("laser chain laser-gewehr".into(), 2),
            ("cover save vs laser-gewehr".into(), 2)
        ]
    );
}

#[test]
fn laser_000_example_2_sustained_rerolls_only_the_original_misses_and_new_hits_chain() {
    // 000 "Laser" example 2: 4 Laser Gewehr at Combat Rangers, sustained: 2 hits and 2 misses;
    // the 2 hits are re-rolled (laser), the 2 misses are re-rolled once (sustained), and a hit
    // among them is re-rolled again (laser).
    let t = target("combat-rangers", 5, 5, Cover::None);
    let o = FireOptions {
        carriers: 4,
        sustained: true,
        ..FireOptions::default()
    };
    let out = run(
        &weapon("laser-grenadiers", "laser-gewehr"),
        &t,
        &o,
        &[
            1, 2, 5, 6, /* chain */ 3, 4, /* sustained */ 1, 5, /* chain */ 6,
        ],
    );
    assert_eq!((out.hits, out.damage), (3, 3));
    assert_eq!(
        purposes(&out),
        [
            ("attack laser-gewehr".into(), 4),
            ("laser chain laser-gewehr".into(), 2),
            ("sustained re-roll laser-gewehr".into(), 2),
            ("laser chain laser-gewehr".into(), 1)
        ]
    );
}

#[test]
fn berserk_000_sigrid_and_laser_grenadiers_against_joe_and_the_assault_rangers() {
    // 000 "Berserk" example: 8 laser dice rolled together (4 Laser Gewehr, 1 Laser Werfer, 3 for
    // Sigrid's pistol; all /1 with the Laser effect), sustained and Berserk:
    // first roll 1 hit + 7 misses, its chain misses; the 7 misses re-rolled (sustained): 1 hit +
    // 6 misses; the 6 re-rolled (Berserk): 2 hits + 4 misses, the 2 chain dice fail. 4 damage.
    // The example rolls all lines together, so one line of 8 single-die carriers stands for them.
    let t = target("assault-rangers", 5, 8, Cover::None);
    let o = FireOptions {
        carriers: 8,
        sustained: true,
        berserk: true,
        ..FireOptions::default()
    };
    let faces = [
        1, 3, 4, 5, 6, 3, 4, 5, // first roll: 1 hit
        4, // its laser chain misses
        2, 3, 4, 5, 6, 3, 4, // sustained: 1 hit, 6 misses
        5, // its chain misses
        1, 2, 3, 4, 5, 6, // Berserk: 2 hits, 4 misses
        3, 4, // both chains miss
    ];
    let out = run(&weapon("laser-grenadiers", "laser-gewehr"), &t, &o, &faces);
    assert_eq!((out.hits, out.damage), (4, 4));
    assert_eq!(
        purposes(&out),
        [
            ("attack laser-gewehr".into(), 8),
            ("laser chain laser-gewehr".into(), 1),
            ("sustained re-roll laser-gewehr".into(), 7),
            ("laser chain laser-gewehr".into(), 1),
            ("berserk re-roll laser-gewehr".into(), 6),
            ("laser chain laser-gewehr".into(), 2)
        ]
    );
}

#[test]
fn berserk_004_without_sustained_rerolls_the_misses_once() {
    // 004 "Berserk": once per game reroll all misses once for each weapon line.
    let t = target("recon-grenadiers", 5, 5, Cover::None);
    let o = FireOptions {
        carriers: 1,
        berserk: true,
        ..FireOptions::default()
    };
    let out = run(&weapon("m2c-pounder", "30cal"), &t, &o, &[1, 5, 6, 2, 4]);
    assert_eq!(out.hits, 2);
    assert_eq!(out.rolls[1].purpose, "berserk re-roll 30cal");
}

// ---------------------------------------------------------------- cover saves

#[test]
fn cover_000_combat_rangers_in_hard_cover_miss_save() {
    // 000 "What are the effects of cover?" example: Combat Rangers in hard cover (tank trap) take
    // 4 hits; they roll 3 misses and 1 hit: with a MISS save the 3 misses block, 1 Ranger dies.
    let t = target("combat-rangers", 5, 5, Cover::Hard);
    let out = run(
        &weapon("recon-grenadiers", "rifles"),
        &t,
        &carriers(4),
        &[1, 2, 1, 2, 3, 4, 5, 6, /* saves */ 3, 4, 5, 1],
    );
    assert_eq!((out.hits, out.saved, out.damage), (4, 3, 1));
    assert_eq!(out.rolls[1].purpose, "cover save vs rifles");
    assert_eq!(
        out.summary,
        "Assault rifles vs soldier armour 2: 8 dice, 4 hits, 3 saved by cover, 1 damage"
    );
}

#[test]
fn cover_004_hit_save_each_hit_cancels_a_hit() {
    // 004 "Check Cover Saves": a HIT save rolls one die per hit, each hit cancels one.
    let t = target("recon-rangers", 5, 5, Cover::Soft);
    let out = run(
        &weapon("m2c-pounder", "50cal"),
        &t,
        &carriers(1),
        &[1, 2, 2, /* saves */ 1, 4, 5],
    );
    assert_eq!((out.hits, out.saved, out.damage), (3, 1, 2));
}

#[test]
fn cover_004_no_icon_no_save() {
    // 004: "If no die result is shown, the squad gets no protection from this type of cover."
    let mut t = target("recon-rangers", 5, 5, Cover::Soft);
    t.soft_save = Save::None;
    let out = run(
        &weapon("m2c-pounder", "50cal"),
        &t,
        &carriers(1),
        &[1, 2, 6],
    );
    assert_eq!((out.saved, out.damage, out.rolls.len()), (0, 2, 1));
}

#[test]
fn cover_004_only_squads_get_saves() {
    // 004: "Cover saves only apply to squads."
    let mut t = target("joseph-brown", 1, 3, Cover::Hard);
    t.hard_save = Save::Miss;
    let out = run(
        &weapon("m2c-pounder", "50cal"),
        &t,
        &carriers(1),
        &[1, 2, 6],
    );
    assert_eq!((out.saved, out.damage, out.rolls.len()), (0, 2, 1));
}

#[test]
fn cover_004_range_c_ignores_cover() {
    // 004: "Close-combat weapons (Range C) ignore all types of cover."
    let t = target("recon-rangers", 5, 5, Cover::Hard);
    let out = run(
        &weapon("recon-grenadiers", "knife-grenade"),
        &t,
        &carriers(5),
        &[1, 2, 3, 4, 5],
    );
    assert_eq!((out.saved, out.damage, out.rolls.len()), (0, 2, 1));
}

#[test]
fn special_damage_000_flamethrower_rolls_per_targeted_model_and_ignores_cover() {
    // 000 "Special damage types" example: Assault Rangers' Flamethrower (1/incendiary against
    // armour 2) at 5 Grenadiers rolls 5 dice, each hit 1 damage. 004 "Flamethrowers" ignore cover.
    let flamer = weapon("assault-rangers", "flamethrower");
    let t = target("battle-grenadiers", 5, 5, Cover::Hard);
    let out = run(&flamer, &t, &carriers(1), &[1, 2, 3, 4, 5]);
    assert_eq!((out.hits, out.saved, out.damage), (2, 0, 2));
    assert_eq!(out.rolls.len(), 1, "no cover save roll");
    let t = target("battle-grenadiers", 3, 3, Cover::None);
    let out = run(&flamer, &t, &carriers(1), &[6, 6, 6]);
    assert_eq!(out.rolls[0].faces.len(), 3, "one die per targeted model");
}

#[test]
fn ugl_004_grenade_launcher_ignores_cover() {
    // 004 "UGL": grenades always ignore cover; Grenade Launchers are UGLs (000: Joe's card).
    let t = target("recon-grenadiers", 5, 5, Cover::Hard);
    let out = run(
        &weapon("joseph-brown", "grenade-launcher"),
        &t,
        &carriers(1),
        &[1, 2],
    );
    assert_eq!((out.saved, out.damage, out.rolls.len()), (0, 2, 1));
}

#[test]
fn ap_incendiary_000_napalm_thrower_destroys_a_jagdluther_with_one_hit() {
    // 000 "Special damage types" example: the Hot Dog's Napalm Thrower rolls 1 die at a JagdLuther
    // (vehicle armour 5, 6 health); one hit and the robot is removed.
    let t = TargetProfile {
        armour: Armour::Vehicle(5),
        unit_type: UnitType::Vehicle,
        models: 1,
        remaining: 6,
        cover: Cover::None,
        soft_save: Save::None,
        hard_save: Save::None,
        damage_resilient: false,
        bf: Default::default(),
    };
    let napalm = weapon("m2b-hot-dog", "napalm");
    let out = run(&napalm, &t, &carriers(1), &[2]);
    assert!(out.eliminate);
    assert_eq!(out.damage, 6);
    let out = run(&napalm, &t, &carriers(1), &[3]);
    assert!(!out.eliminate);
    assert_eq!(out.damage, 0);
}

#[test]
fn ap_incendiary_r34_one_hit_eliminates_the_entire_squad() {
    // 004 "AP Incendiary Blast": X dice per targeted miniature, eliminate the entire unit on at
    // least one hit (ruling R34: 004 over 000's "one target per hit").
    let mut w = weapon("m2b-hot-dog", "napalm");
    w.soldier = [Fire::ApIncendiary { dice: 1 }; 4];
    let t = target("recon-rangers", 4, 4, Cover::None);
    let out = run(&w, &t, &carriers(1), &[5, 6, 1, 4]);
    assert!(out.eliminate);
    assert_eq!((out.hits, out.damage), (1, 4));
    assert!(
        out.summary.contains("the whole unit is eliminated"),
        "{}",
        out.summary
    );
}

#[test]
fn damage_resilient_004_one_die_per_damage_point_after_cover_saves() {
    // 004 "Damage Resilient": after cover saves, roll 1 die per damage point; each hit ignores 1.
    let mut t = target("recon-rangers", 5, 5, Cover::Soft);
    t.damage_resilient = true;
    let out = run(
        &weapon("m2c-pounder", "17pdr"),
        &t,
        &carriers(1),
        &[
            1, 2, 1, 5, /* Hit save */ 1, 6, 6, /* resilient */ 2, 5,
        ],
    );
    assert_eq!((out.hits, out.saved, out.damage), (3, 1, 1));
    assert_eq!(
        purposes(&out),
        [
            ("attack 17pdr".into(), 4),
            ("cover save vs 17pdr".into(), 3),
            ("damage resilient vs 17pdr".into(), 2)
        ]
    );
    assert!(
        out.summary.contains("1 ignored (Damage Resilient)"),
        "{}",
        out.summary
    );
}

#[test]
fn damage_resilient_004_rolls_per_damage_point_not_per_hit() {
    // A 2-damage hit is 2 damage points (004 "Suffer Damage"), so 2 resilient dice.
    let mut t = target("m2c-pounder", 1, 4, Cover::None);
    t.damage_resilient = true;
    let out = run(
        &weapon("luther", "claw"),
        &t,
        &carriers(1),
        &[1, 6, /* resilient */ 1, 4],
    );
    assert_eq!((out.hits, out.damage), (1, 1));
}

// ---------------------------------------------------------------- limited ammo

#[test]
fn limited_ammo_000_no_more_weapons_than_models_alive() {
    // 000 "Limited ammo weapons" example: Assault Rangers with 5 Demo Charges, 3 soldiers left,
    // may use at most 3 at once.
    let demo = weapon("assault-rangers", "demo");
    let three = AmmoUse {
        weapon: &demo,
        fired: 3,
        boxes_left: 5,
    };
    assert_eq!(limited_ammo_cap(3, std::slice::from_ref(&three)), Ok(3));
    let four = AmmoUse { fired: 4, ..three };
    let e = limited_ammo_cap(3, &[four]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the attack fires 4 limited-ammo weapons but only 3 model(s) are alive (004 \"Limited Ammo Weapons\" / 000: no more limited ammo weapons per attack than miniatures in the squad); fire at most 3 limited-ammo weapons in this attack"
    );
}

#[test]
fn limited_ammo_000_no_more_than_the_boxes_left() {
    let demo = weapon("assault-rangers", "demo");
    let e = limited_ammo_cap(
        5,
        &[AmmoUse {
            weapon: &demo,
            fired: 2,
            boxes_left: 1,
        }],
    )
    .unwrap_err();
    assert_eq!(e.instead, "fire at most 1 demo");
    assert!(e.reason.contains("only 1 ammo box(es) are left"), "{e}");
}

// ---------------------------------------------------------------- cover elements

#[test]
fn cover_elements_r37_crate_is_vehicle_armour_3_with_2_health() {
    // 000 "What are the effects of cover?": an ammo crate is armour 3 with 2 health (R37: vehicle
    // column). The 17 Pdr rolls 6 dice against vehicle armour 3.
    let mut dice = ScriptedDice::new([1, 6, 6, 6, 6, 6]);
    let out = resolve_cover_attack(
        &weapon("m2c-pounder", "17pdr"),
        CoverKind::AmmoCrate,
        0,
        &carriers(1),
        1,
        &mut dice,
    );
    assert_eq!(dice.remaining(), 0);
    assert_eq!(out.damage, 1);
    assert_eq!(
        out.summary,
        "17 Pdr Gun vs ammo crate: 6 dice, 1 hit, 1 damage"
    );
}

#[test]
fn cover_elements_r37_tank_trap_is_vehicle_armour_5_and_laser_stops_at_its_health() {
    // Tank trap: armour 5, 4 health, 1 damage already taken: the laser chain stops at 3 damage.
    let mut w = weapon("laser-grenadiers", "laser-werfer");
    w.vehicle[4] = Fire::Dice { dice: 2, damage: 1 };
    let mut dice = ScriptedDice::new([1, 2, 1]);
    let out = resolve_cover_attack(&w, CoverKind::TankTrap, 1, &carriers(1), 1, &mut dice);
    assert_eq!(dice.remaining(), 0);
    assert_eq!(out.damage, 3);
}

#[test]
fn flamethrowers_004_cannot_damage_tank_traps() {
    // 004 "Flamethrowers": they "cannot destroy anti-tank traps".
    let napalm = weapon("m2b-hot-dog", "napalm");
    assert!(!can_damage_cover(&napalm, CoverKind::TankTrap));
    assert!(can_damage_cover(&napalm, CoverKind::AmmoCrate));
    let mut dice = ScriptedDice::new([]);
    let out = resolve_cover_attack(&napalm, CoverKind::TankTrap, 0, &carriers(1), 1, &mut dice);
    assert_eq!((out.damage, out.rolls.len()), (0, 0));
    assert!(
        out.summary.contains("cannot damage a tank trap"),
        "{}",
        out.summary
    );
}

#[test]
fn explosives_004_reroll_misses_against_a_tank_trap_and_again_when_sustained() {
    // 004 "Explosives Weapons": against an anti-tank trap reroll misses once; in a SUSTAINED
    // ATTACK reroll the remaining misses a second time.
    let demo = weapon("assault-rangers", "demo"); // vehicle armour 5: 1/2
    let o = FireOptions {
        carriers: 3,
        sustained: true,
        ..FireOptions::default()
    };
    let mut dice = ScriptedDice::new([3, 4, 1, /* explosives */ 5, 2, /* sustained */ 1]);
    let out = resolve_cover_attack(&demo, CoverKind::TankTrap, 0, &o, 1, &mut dice);
    assert_eq!(dice.remaining(), 0);
    assert_eq!((out.hits, out.damage), (3, 6));
    assert_eq!(
        purposes(&out),
        [
            ("attack demo".into(), 3),
            ("explosives re-roll demo".into(), 2),
            ("sustained re-roll demo".into(), 1)
        ]
    );
    // Without sustained: one re-roll only.
    let mut dice = ScriptedDice::new([3, 4, 5, /* explosives */ 5, 2, 6]);
    let out = resolve_cover_attack(&demo, CoverKind::TankTrap, 0, &carriers(3), 1, &mut dice);
    assert_eq!(dice.remaining(), 0);
    assert_eq!(out.hits, 1);
    // Against an ammo crate (vehicle armour 3: 2/2 a carrier) explosives get no re-roll.
    let mut dice = ScriptedDice::new([3, 4, 5, 6, 3, 4]);
    let out = resolve_cover_attack(&demo, CoverKind::AmmoCrate, 0, &carriers(3), 1, &mut dice);
    assert_eq!((dice.remaining(), out.hits), (0, 0));
}

// ---------------------------------------------------------------- audit property

/// A die stream from a seed that counts what it hands out.
struct CountingDice {
    state: u64,
    drawn: usize,
}

impl dustmail::game::DiceSource for CountingDice {
    fn d6(&mut self, _round: u32) -> u8 {
        self.drawn += 1;
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.state >> 33) % 6) as u8 + 1
    }
}

mod audit {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // Every die the line draws is recorded in `rolls` (an auditor can recompute the line), and
        // the outcome stays within what the dice allow.
        #[test]
        fn every_die_is_recorded(
            seed in any::<u64>(),
            weapon_ix in 0usize..6,
            carriers in 0u32..6,
            models in 1u32..6,
            cover in 0u8..3,
            sustained in any::<bool>(),
            berserk in any::<bool>(),
            reversed in any::<bool>(),
            doubled in any::<bool>(),
            resilient in any::<bool>(),
        ) {
            let weapons = [
                weapon("laser-grenadiers", "laser-gewehr"),
                weapon("m2c-pounder", "17pdr"),
                weapon("assault-rangers", "flamethrower"),
                weapon("m2b-hot-dog", "napalm"),
                weapon("luther", "claw"),
                weapon("recon-rangers", "hmg"),
            ];
            let w = &weapons[weapon_ix];
            let mut t = target("combat-rangers", models, models, match cover {
                0 => Cover::None,
                1 => Cover::Soft,
                _ => Cover::Hard,
            });
            t.damage_resilient = resilient;
            let o = FireOptions { carriers, sustained, berserk, reversed, doubled, medal: false, frenzy: false, air_alt: false, lucky: false, wire_guided: false };
            let mut dice = CountingDice { state: seed, drawn: 0 };
            let out = resolve_line(w, &t, &o, 3, &mut dice);
            let recorded: usize = out.rolls.iter().map(|r| r.faces.len()).sum();
            prop_assert_eq!(recorded, dice.drawn);
            prop_assert!(out.rolls.iter().all(|r| r.round == 3 && !r.faces.is_empty()));
            prop_assert!(out.saved <= out.hits);
            prop_assert!(!out.summary.is_empty());
            if out.eliminate {
                prop_assert_eq!(out.damage, t.remaining);
            }
        }
    }
}
