//! Issue 18: 002 "Command Squads" (pages 94–95) under battlefront-2013 (R640–R649): the Medic's
//! Get Up and Inject Stimulants, the Mechanic's Makeshift Repair (and a vehicle equipped as a
//! Mechanic), the Officer's Ammo Drop, Get Moving, Reinforcements and Replacement Vehicle, by a
//! command squad and by a Hero that is an Officer. The game is `command_squads::command_game` but its vehicle is `tank`:
//! allies command squad `cs` (armour 2) on E5, squad `gren` on E4 (its model 4 carries a
//! one-box grenade), vehicle `tank` on D5, squad `far` on A9; axis squad `foe` on I1. Scripted dice
//! (1, 2 army; 3, 4 target; 5, 6 shield); every scripted die must be used.

use super::command_squads::{command_squad_card, game_under, grenadier_squad};
use crate::support_flow::*;
use dustmail::dust_tactics::cards::parse_card;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;

fn game() -> State {
    game_under(
        "battlefront-2013",
        vec![
            unit("cs", "cs", Some("E5")),
            unit("gren", "gr", Some("E4")),
            unit("tank", "veh", Some("D5")),
            unit("far", "sq", Some("A9")),
        ],
        vec![unit("foe", "sq", Some("I1"))],
        vec![
            command_squad_card("cs", 2),
            grenadier_squad(),
            card("veh", UnitType::Vehicle, 4, 1, vec![]),
            squad("sq"),
        ],
    )
}

/// `gren` lost its model 4 (the grenadier) and spent its grenade.
fn wound_gren(st: &mut State) {
    let g = st.unit_mut("gren").unwrap();
    g.models.retain(|m| m != "4");
    g.health = 3;
    g.ammo.insert("grenade".into(), 0);
}

// issue 18, 002 "Get Up, It Ain't That Bad": "the player rolls a die. On a [ ] or [ ], the
// player selects any Infantry Unit that is within Line of Sight and Range 1 ... If the Unit is an
// Infantry Squad, they then return an eliminated miniature to the Unit ... Returning an
// eliminated miniature does not change the amount of ammunition the Unit has for its Limited
// Ammo weapons." (R641: army or target) The Big Boss example: "They roll a [ ], so they place one
// of the eliminated Hammers back with their unit." A target brings model 4 back, its grenade
// still spent; a shield brings nobody.
#[test]
fn s002_command_squads_get_up_army_or_target_returns_a_soldier_not_his_ammo() {
    let mut st = game();
    wound_gren(&mut st);
    let out = play(
        &mut st,
        "allies",
        "activate cs\n  skill get-up at gren\n  nothing",
        &[3],
    );
    let t = texts(&out);
    assert!(t.contains("model 4 returns to gren"), "{t}");
    assert_eq!(purposes(&out), vec!["get-up gren".to_string()], "{t}");
    let g = u(&st, "gren");
    assert_eq!((g.models.len(), g.health), (4, 4), "{t}");
    assert_eq!(g.ammo.get("grenade"), Some(&0), "{t}");

    let mut st = game();
    wound_gren(&mut st);
    let out = play(
        &mut st,
        "allies",
        "activate cs\n  skill get-up at gren\n  nothing",
        &[5],
    );
    assert!(
        texts(&out).contains("rolls shield: it fails"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "gren").models.len(), 3);
}

// 002 "Get Up": "If the Unit is a Support Weapon or Hero, they remove one point of Damage to that
// Unit" (R641); "any Infantry Unit ... within ... Range 1": a vehicle, and a squad two squares
// off, are refused, naming 002, and nothing changes.
#[test]
fn s002_command_squads_get_up_a_hero_loses_a_point_of_damage_only_infantry_in_range_1() {
    let hero = card(
        "boss",
        UnitType::Hero,
        3,
        1,
        vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
    );
    let mut st = game_under(
        "battlefront-2013",
        vec![
            unit("cs", "cs", Some("E5")),
            unit("boss", "boss", Some("F5")),
            unit("tank", "veh", Some("D5")),
            unit("far", "sq", Some("E3")),
        ],
        vec![unit("foe", "sq", Some("I1"))],
        vec![
            command_squad_card("cs", 2),
            hero,
            card("veh", UnitType::Vehicle, 4, 1, vec![]),
            squad("sq"),
        ],
    );
    st.unit_mut("boss").unwrap().health = 1;
    st.unit_mut("tank").unwrap().health = 1;
    st.unit_mut("far").unwrap().models.pop();
    st.unit_mut("far").unwrap().health = 3;
    for (t, why) in [("tank", "is a vehicle"), ("far", "2 squares from cs")] {
        let out = play(
            &mut st,
            "allies",
            &format!("activate cs\n  skill get-up at {t}\n  nothing"),
            &[],
        );
        let (reason, rule) = refused(&out);
        assert!(reason.contains(why), "{reason}");
        assert!(rule.contains("002 \"Get Up, It Ain't That Bad\""), "{rule}");
        assert!(!u(&st, "cs").activated);
    }
    let out = play(
        &mut st,
        "allies",
        "activate cs\n  skill get-up at boss\n  nothing",
        &[1],
    );
    assert!(
        texts(&out).contains("one point of Damage removed from boss"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "boss").health, 2);
}

// 002 "Inject Stimulants": "the player selects any Infantry Unit ... within Line of Sight and
// Range 1 ... and rolls a die ... On a [ ], the player chooses either token. On a [ ], it is an
// Attack Stimulants token. On a [ ], it is a Move Stimulants token." (R642: army, target, shield;
// the choice is written in the order.) Army gives the token ordered, target Attack, shield Move.
#[test]
fn s002_command_squads_inject_stimulants_the_token_table() {
    use dustmail::dust_tactics::battlefront::command::Stimulants;
    for (order, face, token) in [
        ("inject-stimulants-move", 1, Stimulants::Move),
        ("inject-stimulants-move", 3, Stimulants::Attack),
        ("inject-stimulants-attack", 2, Stimulants::Attack),
        ("inject-stimulants-attack", 6, Stimulants::Move),
    ] {
        let mut st = game();
        let out = play(
            &mut st,
            "allies",
            &format!("activate cs\n  skill {order} at gren\n  nothing"),
            &[face],
        );
        assert_eq!(u(&st, "gren").stimulants, Some(token), "{}", texts(&out));
        assert!(texts(&out).contains(token.name()), "{}", texts(&out));
    }
    // The order must say which token the player takes on army.
    let mut st = game();
    let out = play(
        &mut st,
        "allies",
        "activate cs\n  skill inject-stimulants at gren\n  nothing",
        &[],
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("chooses either token"), "{reason}");
}

// 002 "Inject Stimulants": "If a Unit Activates while it has a Move Stimulants token, it removes
// the token and treats a Move Action as a March Move Action ... These result in the Unit taking
// three Actions in that Activation." (R642) With the token, move + move + nothing is accepted and
// the token is gone; without it the same three lines are refused as one action too many.
#[test]
fn s002_command_squads_a_move_stimulants_token_gives_three_actions_once() {
    use dustmail::dust_tactics::battlefront::command::Stimulants;
    let orders = "activate gren\n  move E3\n  move E2\n  nothing";
    let mut st = game();
    let (reason, _) = refused(&play(&mut st, "allies", orders, &[]));
    assert!(reason.contains("3 actions are declared"), "{reason}");
    st.unit_mut("gren").unwrap().stimulants = Some(Stimulants::Move);
    let out = play(&mut st, "allies", orders, &[]);
    let t = texts(&out);
    assert!(t.contains("removes its Move Stimulants token"), "{t}");
    assert_eq!(u(&st, "gren").at, Some(sq("E2")), "{t}");
    assert_eq!(u(&st, "gren").stimulants, None);
}

// 002 "Inject Stimulants": "If a Unit Activates while it has an Attack Stimulants token, it
// removes the token and treats an Attack Action as a Sustained Attack Action." (R642) With the
// token a move and a sustained attack are one activation; without, refused.
#[test]
fn s002_command_squads_an_attack_stimulants_token_makes_an_attack_sustained() {
    use dustmail::dust_tactics::battlefront::command::Stimulants;
    let orders = "activate gren\n  move E4\n  sustained gun at foe";
    let mut st = game_under(
        "battlefront-2013",
        vec![unit("gren", "sq", Some("E5"))],
        vec![unit("foe", "sq", Some("E1"))],
        vec![squad("sq")],
    );
    let (reason, _) = refused(&play(&mut st, "allies", orders, &[]));
    assert!(reason.contains("2 actions are declared"), "{reason}");
    st.unit_mut("gren").unwrap().stimulants = Some(Stimulants::Attack);
    let out = play(&mut st, "allies", orders, &[5; 8]);
    let t = texts(&out);
    assert!(t.contains("removes its Attack Stimulants token"), "{t}");
    assert_eq!(u(&st, "gren").at, Some(sq("E4")), "{t}");
    assert!(t.contains("4 re-rolled (sustained)"), "{t}");
    // An `attack` line is the Sustained Attack itself ("treats an Attack Action as a Sustained
    // Attack Action"): the same activation written move + attack re-rolls its misses too.
    let mut st = game_under(
        "battlefront-2013",
        vec![unit("gren", "sq", Some("E5"))],
        vec![unit("foe", "sq", Some("E1"))],
        vec![squad("sq")],
    );
    st.unit_mut("gren").unwrap().stimulants = Some(Stimulants::Attack);
    let out = play(
        &mut st,
        "allies",
        "activate gren\n  move E4\n  attack gun at foe",
        &[5; 8],
    );
    assert!(
        texts(&out).contains("4 re-rolled (sustained)"),
        "{}",
        texts(&out)
    );
}

// 002 "Makeshift Repair": "the player selects any Vehicle that is within Line of Sight and Range 1
// ... of the Mechanic, and rolls five dice. Each score of [ ], returns one point of Damage to that
// Vehicle." (R643: the one lost symbol is army) Five dice, two army: two points back.
#[test]
fn s002_command_squads_makeshift_repair_five_dice_each_army_one_point() {
    let mut st = game();
    st.unit_mut("tank").unwrap().health = 1;
    let out = play(
        &mut st,
        "allies",
        "activate cs\n  skill makeshift-repair at tank\n  nothing",
        &[1, 3, 2, 5, 4],
    );
    let t = texts(&out);
    assert!(t.contains("5 dice, 2 army, 2 damage removed"), "{t}");
    assert_eq!(u(&st, "tank").health, 3, "{t}");
}

// 002 "Vehicle Equipment", "Mechanic": "A Vehicle equipped as a Mechanic can use the Makeshift
// Repair Special Action (see page 95)." (R643) A vehicle with it repairs the vehicle next to it;
// one without is refused; a squad's card naming the equipment is refused when read.
#[test]
fn s002_command_squads_a_vehicle_equipped_as_a_mechanic_makes_makeshift_repairs() {
    let veh = |id: &str| card(id, UnitType::Vehicle, 4, 1, vec![]);
    let mut st = game_under(
        "battlefront-2013",
        vec![
            unit("rosie", "rosie", Some("E5")),
            unit("truck", "veh", Some("E4")),
        ],
        vec![unit("foe", "veh", Some("I1"))],
        vec![with_skill(veh("rosie"), "mechanic", None), veh("veh")],
    );
    st.unit_mut("truck").unwrap().health = 2;
    let out = play(
        &mut st,
        "allies",
        "activate truck\n  skill makeshift-repair at rosie\n  nothing",
        &[],
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("truck has no Mechanic"), "{reason}");
    assert!(rule.contains("002 \"Command Squads\""), "{rule}");
    let out = play(
        &mut st,
        "allies",
        "activate rosie\n  skill makeshift-repair at truck\n  nothing",
        &[1, 1, 6, 6, 6],
    );
    assert!(
        texts(&out).contains("2 army, 2 damage removed"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "truck").health, 4);

    let (f, t) = super::battlefront_skills002::card_with(
        "bf-recon-grenadiers",
        "[[skills]]\nname = \"mechanic\"",
    );
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("not a vehicle"), "{e}");
}

// 002 "Command Squads": "Each of these specialists can perform Special Actions. If any of these
// specialists are eliminated, the Command Squad loses their abilities." (R640) Without its medic
// the squad's Get Up is refused, naming the sentence; without its mechanic, Makeshift Repair;
// the officer's orders go on.
#[test]
fn s002_command_squads_a_specialist_eliminated_takes_his_abilities() {
    let mut st = game();
    wound_gren(&mut st);
    st.unit_mut("tank").unwrap().health = 1;
    st.unit_mut("cs")
        .unwrap()
        .models
        .retain(|m| m != "medic" && m != "mechanic");
    for (order, t) in [("get-up", "gren"), ("makeshift-repair", "tank")] {
        let out = play(
            &mut st,
            "allies",
            &format!("activate cs\n  skill {order} at {t}\n  nothing"),
            &[],
        );
        let (reason, rule) = refused(&out);
        assert!(reason.contains("has been eliminated"), "{reason}");
        assert!(
            rule.contains("the Command Squad loses their abilities"),
            "{rule}"
        );
    }
    let out = play(
        &mut st,
        "allies",
        "activate cs\n  skill ammo-drop at gren\n  nothing",
        &[1],
    );
    assert_eq!(
        u(&st, "gren").ammo.get("grenade"),
        Some(&1),
        "{}",
        texts(&out)
    );
}

// 002 "Superhumans": "An Officer, Medic, or Mechanic cannot target a Superhuman with their Command
// Squad Special Actions (pages 94 to 95)." (R640) Get Up at a wounded Superhuman next to the
// squad is refused, citing it.
#[test]
fn s002_command_squads_cannot_target_a_superhuman() {
    let mut hero = card("super", UnitType::Hero, 4, 1, vec![]);
    hero.superhuman = true;
    let mut st = game_under(
        "battlefront-2013",
        vec![
            unit("cs", "cs", Some("E5")),
            unit("super", "super", Some("E4")),
        ],
        vec![unit("foe", "sq", Some("I1"))],
        vec![command_squad_card("cs", 2), hero, squad("sq")],
    );
    st.unit_mut("super").unwrap().health = 2;
    let out = play(
        &mut st,
        "allies",
        "activate cs\n  skill get-up at super\n  nothing",
        &[],
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("is a Superhuman"), "{reason}");
    assert!(rule.contains("002 \"Superhumans\""), "{rule}");
    assert_eq!(u(&st, "super").health, 2);
}

/// `id` eliminated, as the casualty removal leaves it.
fn eliminate(st: &mut State, id: &str) {
    let x = st.unit_mut(id).unwrap();
    x.destroyed = true;
    x.at = None;
    x.models.clear();
    x.health = 0;
}

// 002 "Ammo Drop": "the player rolls a die. On a [ ] or [ ], the player selects any Unit that is
// within Line of Sight and Range 2 ... of the Officer, and that has Limited Ammo weapons ... and
// replenishes it back to a full ammunition load. If the Officer has a Radio Operator, they can
// request an Ammo Drop for any Unit on the board." (R645, R644) `gren` four squares off: with the
// radioman alive, a target refills the grenade; without him, refused (Range 2); an armour 3
// command squad's officer is his own radio operator; a shield refills nothing.
#[test]
fn s002_command_squads_ammo_drop_within_range_2_or_anywhere_by_radio() {
    let far_gren = |armour: u8, radioman: bool| {
        let mut st = game();
        if armour != 2 {
            st.cards.get_mut("cs").unwrap().armour = Armour::Soldier(armour);
        }
        wound_gren(&mut st);
        st.unit_mut("gren").unwrap().at = Some(sq("E1"));
        if !radioman {
            st.unit_mut("cs")
                .unwrap()
                .models
                .retain(|m| m != "radioman");
        }
        st
    };
    let order = "activate cs\n  skill ammo-drop at gren\n  nothing";
    let mut st = far_gren(2, true);
    let out = play(&mut st, "allies", order, &[3]);
    assert_eq!(
        u(&st, "gren").ammo.get("grenade"),
        Some(&1),
        "{}",
        texts(&out)
    );
    assert!(
        texts(&out).contains("full ammunition again"),
        "{}",
        texts(&out)
    );

    let mut st = far_gren(2, false);
    let (reason, rule) = refused(&play(&mut st, "allies", order, &[]));
    assert!(reason.contains("no Radio Operator"), "{reason}");
    assert!(rule.contains("002 \"Ammo Drop\""), "{rule}");

    let mut st = far_gren(3, false);
    play(&mut st, "allies", order, &[1]);
    assert_eq!(u(&st, "gren").ammo.get("grenade"), Some(&1));

    let mut st = far_gren(2, true);
    play(&mut st, "allies", order, &[6]);
    assert_eq!(u(&st, "gren").ammo.get("grenade"), Some(&0));
}

/// Allies: command squad `cs` (The Old Man) on E5, squad `gren` (the Sturmkönig) on E4, a Hero
/// that is an Officer `boss` (armour 2) on E6, squad `far` on A9; axis squad `foe` on I1.
fn officers() -> State {
    let boss = with_skill(card("boss", UnitType::Hero, 3, 1, vec![]), "officer", None);
    game_under(
        "battlefront-2013",
        vec![
            unit("cs", "cs", Some("E5")),
            unit("gren", "gr", Some("E4")),
            unit("boss", "boss", Some("E6")),
            unit("far", "sq", Some("A9")),
        ],
        vec![unit("foe", "sq", Some("I1"))],
        vec![
            command_squad_card("cs", 2),
            grenadier_squad(),
            boss,
            squad("sq"),
        ],
    )
}

// 002 "Get Moving You Bunch of Monkeys", the worked example: "The Axis player needs the
// Sturmkönig to shoot down a marauding Thunderstrike ... but it has already activated this turn
// ... The player activates The Old Man and his squad, declaring that they will perform two Get
// Moving You Bunch of Monkeys Actions ... They roll a [ ] for the first Get Moving You Bunch of
// Monkeys Action, so the Command Squad's activation ends, and the Sturmkönig activates." (R646:
// army; the second line is not made) Only `gren` may activate next; it does.
#[test]
fn s002_command_squads_get_moving_the_old_man_and_the_sturmkonig() {
    let mut st = officers();
    play(
        &mut st,
        "allies",
        "activate gren\n  nothing\n  nothing",
        &[],
    );
    play(&mut st, "axis", "activate foe\n  nothing\n  nothing", &[]);
    let out = play(
        &mut st,
        "allies",
        "activate cs\n  skill get-moving at gren\n  skill get-moving at gren",
        &[1],
    );
    let t = texts(&out);
    assert!(
        t.contains("rolls army: cs's activation ends, and gren activates again now"),
        "{t}"
    );
    assert_eq!(purposes(&out), vec!["get-moving gren".to_string()], "{t}");
    let (reason, _) = refused(&play(
        &mut st,
        "allies",
        "activate far\n  nothing\n  nothing",
        &[],
    ));
    assert!(reason.contains("gren"), "{reason}");
    let out = play(
        &mut st,
        "allies",
        "activate gren\n  nothing\n  nothing",
        &[],
    );
    accepted(&out);
}

// 002 "Get Moving": "the selected Unit ... has already been Activated this turn ... A Unit may
// only be re-Activated once per turn." (R646) A unit not yet activated is refused; a miss (a
// target) lets the second line try (army); the re-activated unit may not be re-activated again
// that turn, by the Officer hero either; and `boss` (no Radio Operator) reaches only 2 squares.
#[test]
fn s002_command_squads_get_moving_once_per_turn_a_miss_tries_again() {
    let mut st = officers();
    let (reason, _) = refused(&play(
        &mut st,
        "allies",
        "activate cs\n  skill get-moving at gren\n  nothing",
        &[],
    ));
    assert!(
        reason.contains("has not been Activated this turn"),
        "{reason}"
    );
    play(
        &mut st,
        "allies",
        "activate gren\n  nothing\n  nothing",
        &[],
    );
    play(&mut st, "axis", "activate foe\n  nothing\n  nothing", &[]);
    let out = play(
        &mut st,
        "allies",
        "activate cs\n  skill get-moving at gren\n  skill get-moving at gren",
        &[3, 2],
    );
    assert_eq!(purposes(&out).len(), 2, "{}", texts(&out));
    play(
        &mut st,
        "allies",
        "activate gren\n  nothing\n  nothing",
        &[],
    );
    let (reason, rule) = refused(&play(
        &mut st,
        "allies",
        "activate boss\n  skill get-moving at gren\n  nothing",
        &[],
    ));
    assert!(
        reason.contains("already been re-Activated this turn"),
        "{reason}"
    );
    assert!(rule.contains("once per turn"), "{rule}");
    let (reason, _) = refused(&play(
        &mut st,
        "allies",
        "activate boss\n  skill get-moving at far\n  nothing",
        &[],
    ));
    assert!(reason.contains("no Radio Operator"), "{reason}");
}

// 002 "Officer": "A Hero that is an Officer may perform Officer Special Actions (see page 94)."
// (R766, R645) `boss` drops ammo to `gren` two squares off; a squad's card naming `officer` is
// refused when read ("A Hero").
#[test]
fn s002_command_squads_a_hero_that_is_an_officer_takes_officer_special_actions() {
    let mut st = officers();
    wound_gren(&mut st);
    let out = play(
        &mut st,
        "allies",
        "activate boss\n  skill ammo-drop at gren\n  nothing",
        &[4],
    );
    assert!(
        texts(&out).contains("Ammo Drop: boss rolls target"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "gren").ammo.get("grenade"), Some(&1));
    let (f, t) = super::battlefront_skills002::card_with(
        "bf-recon-grenadiers",
        "[[skills]]\nname = \"officer\"",
    );
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("not a hero"), "{e}");
}

// 002 "Reinforcements": "On a [ ], the player selects an Infantry Squad or Support Weapon (but
// not a Hero) that has been eliminated ... The Command Squad's Activation immediately ends, and
// the reinforcing Unit Activates ... enters the game in the same way as Reserves ... moving on
// from the edge of the board ... Once an Officer has succeeded in calling up reinforcements, the
// player cannot use the Reinforcement Action again." (R647) A shield fails and may be tried
// again; an army brings `gren` back whole, off the board: it moves on from row 9 at once; the
// order is then spent; a hero is never a target.
#[test]
fn s002_command_squads_reinforcements_an_eliminated_squad_moves_on_once_per_game() {
    let mut st = officers();
    eliminate(&mut st, "gren");
    eliminate(&mut st, "boss");
    let order = "activate cs\n  skill reinforcements at gren\n  nothing";
    let (reason, _) = refused(&play(
        &mut st,
        "allies",
        "activate cs\n  skill reinforcements at boss\n  nothing",
        &[],
    ));
    assert!(reason.contains("never a Hero"), "{reason}");
    let out = play(&mut st, "allies", order, &[5]);
    assert!(
        texts(&out).contains("rolls shield: it fails"),
        "{}",
        texts(&out)
    );
    assert!(u(&st, "gren").destroyed);
    next_round(&mut st);
    let out = play(&mut st, "allies", order, &[2]);
    let t = texts(&out);
    assert!(t.contains("gren comes back fresh and activates now"), "{t}");
    let g = u(&st, "gren");
    assert!(!g.destroyed && g.at.is_none() && g.models.len() == 4, "{t}");
    assert_eq!(g.ammo.get("grenade"), Some(&1));
    accepted(&play(
        &mut st,
        "allies",
        "activate gren\n  move E9\n  nothing",
        &[],
    ));
    assert_eq!(u(&st, "gren").at, Some(sq("E9")));
    eliminate(&mut st, "gren");
    next_round(&mut st);
    let (reason, rule) = refused(&play(&mut st, "allies", order, &[]));
    assert!(
        reason.contains("already succeeded with Reinforcements"),
        "{reason}"
    );
    assert!(
        rule.contains("cannot use the Reinforcement Action again"),
        "{rule}"
    );
}

// 002 "Replacement Vehicle": "On a [ ], the player selects a Vehicle that has been eliminated,
// removes the Vehicle as the wreck is recovered, and calls up a replacement for it ... the
// replacement Vehicle Activates." (R647) An army brings `tank` back whole; it activates next.
#[test]
fn s002_command_squads_replacement_vehicle_the_wreck_recovered_a_new_one_moves_on() {
    let mut st = game();
    eliminate(&mut st, "tank");
    let out = play(
        &mut st,
        "allies",
        "activate cs\n  skill replacement-vehicle at tank\n  nothing",
        &[1],
    );
    let t = texts(&out);
    assert!(t.contains("tank comes back fresh"), "{t}");
    assert_eq!(u(&st, "tank").health, 4);
    assert_eq!(
        u(&st, "cs").skills_used.get("replacement-vehicle"),
        Some(&1)
    );
    let (reason, _) = refused(&play(
        &mut st,
        "allies",
        "activate gren\n  nothing\n  nothing",
        &[],
    ));
    assert!(reason.contains("tank"), "{reason}");
}

// 002 "Officer": "A Hero that is an Officer may perform Officer Special Actions (see page 94)."
// (R766, once refused at `new` by R711) `dustmail new` with an Officer hero (Bazooka Joe, given
// the skill) makes the game.
#[test]
fn s002_command_squads_an_officer_hero_is_accepted_at_new() {
    let d = tempfile::tempdir().unwrap();
    let officer =
        super::battlefront_skills002::card_with("bf-bazooka-joe", "[[skills]]\nname = \"officer\"");
    let t =
        super::battlefront_skills002::new_joined(d.path(), "bf-bazooka-joe", "reapers", &[officer]);
    assert_eq!(t, "created");
}

// 002 "Command Squads": the provisional command squads of games/dust-tactics/
// cards-battlefront-command/ (The Big Boss and The Old Man, named by 002's examples) are read,
// carry the four specialists, and "Command Post" (Encounter with one a side) is played to its end
// by two players' signed mails; both squads enter, and while one may take a Special Action its
// template offers, its player mails it (the reports show it done); the game replays byte for
// byte.
#[test]
fn s002_command_squads_command_post_is_played_to_its_end_by_mail() {
    use crate::support::dt;
    use dustmail::dust_tactics::bot::Style;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games/dust-tactics/cards-battlefront-command");
    for f in ["bf-the-big-boss.toml", "bf-the-old-man.toml"] {
        let text = std::fs::read_to_string(root.join(f)).unwrap();
        let c = parse_card(f, &text).unwrap();
        for m in ["officer", "radioman", "medic", "mechanic"] {
            assert!(c.models.iter().any(|x| x.id == m), "{f}: {m}");
        }
        assert!(c.has_skill("command-squad"), "{f}");
    }
    let dir = tempfile::tempdir().unwrap();
    let cards = root.display().to_string();
    let scen = root
        .join("scenarios/command-post.toml")
        .display()
        .to_string();
    let (home, ps, env) = dt::new_in_home(
        dir.path(),
        &[
            "--ruleset",
            "battlefront-2013",
            "--cards",
            &cards,
            "--scenario",
            &scen,
        ],
        ("g-command", 21, 21),
    );
    let mut bots = dt::Bots::new("g-command", &ps, |_| Style::Aggressive);
    // The bots play, but while a command squad may give an order its template offers, its
    // player mails that order instead (at most eight times a game).
    let mut given = 0;
    for n in 0..400 {
        let g = env.load("g-command");
        if g.derived.finished.is_some() {
            break;
        }
        let st = g.derived.state.typed();
        let own = (given < 8)
            .then(|| command_order(st))
            .flatten()
            .and_then(|(side, text)| {
                let p = ps.iter().find(|p| p.side == side)?;
                let seq = g.derived.last_seq.get(&side).copied().unwrap_or(0) + 1;
                let m = dt::mail(
                    &p.address,
                    &format!("cmd-{n}@players.example"),
                    &p.key,
                    &dt::orders("g-command", &side, seq, &text),
                );
                Some((format!("cmd-{n:05}.eml"), m))
            });
        let (name, m) = match own {
            Some(x) => {
                given += 1;
                x
            }
            None => match bots.next_mail(&g) {
                Some(x) => x,
                None => break,
            },
        };
        std::fs::write(home.maildir().join("new").join(name), m).unwrap();
        let sum = env.run(dt::NOW);
        assert!(sum.broken.is_empty(), "{sum:?}");
    }
    let g = env.load("g-command");
    let sent = dt::sent_text(&home);
    let tail = dt::tail(&sent, 6000);
    assert!(g.derived.finished.is_some(), "the game did not end: {tail}");
    for cs in ["big-boss", "old-man"] {
        assert!(
            sent.contains(&format!("{cs} enters the battlefield")),
            "{cs} never entered: {tail}"
        );
    }
    // The reports wrap their lines: the words of one happening may span two.
    let flat = sent.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(given > 0, "no command squad order was ever offered: {tail}");
    assert!(
        [
            "Inject Stimulants:",
            "Ammo Drop:",
            "Get Up, It Ain't That Bad:",
            "Makeshift Repair:",
            "Get Moving You Bunch of Monkeys:"
        ]
        .iter()
        .any(|t| flat.contains(t)),
        "no command squad order in the reports: {tail}"
    );
    dt::replay_and_audit(&home, "g-command");
}

/// When the side to activate has a command squad whose block of the orders template offers a
/// Special Action (`#   skill <order> at <unit>`), that activation: (side, orders text).
fn command_order(st: &State) -> Option<(String, String)> {
    use dustmail::dust_tactics::state::Phase;
    use dustmail::dust_tactics::DustTactics;
    use dustmail::game::Game;
    let side = st.next_side.clone()?;
    if !matches!(st.phase, Phase::Activations) || st.reactivated.is_some() {
        return None;
    }
    let template = DustTactics.orders_template(st, &side);
    let mut unit: Option<String> = None;
    for line in template.lines() {
        let body = line.trim_start_matches('#').trim();
        if let Some(u) = body.strip_prefix("activate ") {
            unit = u.split_whitespace().next().map(String::from);
        }
        let order = body.split('#').next().unwrap_or("").trim();
        if order.starts_with("skill ") && order.contains(" at ") {
            let name = order.split_whitespace().nth(1).unwrap_or("");
            if dustmail::dust_tactics::battlefront::command::Order002::from_id(name).is_some() {
                let u = unit.clone()?;
                return Some((side, format!("activate {u}\n  {order}\n  nothing")));
            }
        }
    }
    None
}

// 002 "Get Up, It Ain't That Bad", the worked example: "The Allied player has lost two of their
// Hammers, so they activate The Big Boss, a Command Squad. They take a Move action to reach the
// Hammers, then a Get Up, It Ain't That Bad action to try and fix up one of the injured Hammers
// ... They roll a [ ], so they place one of the eliminated Hammers back with their unit." (R641)
// The Big Boss on E7 is two squares from the Hammers on E5: refused; after a Move to E6 the die
// (army) returns one of the two eliminated Hammers.
#[test]
fn s002_command_squads_get_up_the_big_boss_and_the_hammers() {
    let mut st = game_under(
        "battlefront-2013",
        vec![
            unit("boss", "cs", Some("E7")),
            unit("hammers", "sq", Some("E5")),
        ],
        vec![unit("foe", "sq", Some("I1"))],
        vec![command_squad_card("cs", 2), squad("sq")],
    );
    {
        let h = st.unit_mut("hammers").unwrap();
        h.models.truncate(2);
        h.health = 2;
    }
    let (reason, _) = refused(&play(
        &mut st,
        "allies",
        "activate boss\n  skill get-up at hammers\n  nothing",
        &[],
    ));
    assert!(reason.contains("2 squares from boss"), "{reason}");
    let out = play(
        &mut st,
        "allies",
        "activate boss\n  move E6\n  skill get-up at hammers",
        &[1],
    );
    let t = texts(&out);
    assert!(t.contains("model 3 returns to hammers"), "{t}");
    assert_eq!(u(&st, "hammers").models.len(), 3, "{t}");
}

// R640: 002 sets none of 000/004's command squad limits: a side may field two command squads of
// the same armour (000/004: "each unit must have a different armor class", refused under
// ffg-revised), and a hero without Commander may join one.
#[test]
fn s002_command_squads_no_limit_of_one_per_armour_class_nor_commander_to_join() {
    use dustmail::dust_tactics::DustTactics;
    let hero = card("h", UnitType::Hero, 3, 1, vec![]);
    let allies = || {
        let mut joined = unit("h", "h", Some("E5"));
        joined.joins = Some("cs1".into());
        vec![
            unit("cs1", "cs", Some("E5")),
            unit("cs2", "cs", Some("D5")),
            joined,
        ]
    };
    let cards = || vec![command_squad_card("cs", 2), hero.clone(), squad("sq")];
    let s = || scenario(allies(), vec![unit("foe", "sq", Some("I1"))]);
    assert!(DustTactics.start("battlefront-2013", s(), cards()).is_ok());
    assert!(DustTactics.start("ffg-revised", s(), cards()).is_err());
}

// The orders template offers 002's Special Actions only as they are accepted (R640–R647): with
// `gren` wounded and `tank` damaged, the command squad's block offers Get Up at `gren` and
// Makeshift Repair at `tank`, never at `far` (out of Range 1); every suggestion is accepted.
#[test]
fn s002_command_squads_the_template_offers_the_special_actions_accepted() {
    let mut st = game();
    wound_gren(&mut st);
    st.unit_mut("tank").unwrap().health = 2;
    let all = crate::legal_template::every_suggestion_accepted(&st, "allies", "command squad");
    let has = |l: &str| all.iter().any(|s| s.contains(l));
    assert!(has("skill get-up at gren"), "{all:?}");
    assert!(has("skill makeshift-repair at tank"), "{all:?}");
    assert!(has("skill ammo-drop at gren"), "{all:?}");
    assert!(!has("skill get-up at far"), "{all:?}");
}

// R640: 002's command squads have 002's Special Actions only: 000/004's Field Repair (and the
// others 002 does not print) is refused under battlefront-2013, naming 002's orders; 002's Ammo
// Drop is no order under ffg-revised, whose command squads keep 004's (R211).
#[test]
fn s002_command_squads_only_002s_special_actions_under_battlefront() {
    let mut st = game();
    eliminate(&mut st, "tank");
    let (reason, rule) = refused(&play(
        &mut st,
        "allies",
        "activate cs\n  skill field-repair at tank\n  nothing",
        &[],
    ));
    assert!(
        reason.contains("not an order of 002's command squads"),
        "{reason}"
    );
    assert!(rule.contains("002 \"Command Squads\""), "{rule}");
    let mut st = game_under(
        "ffg-revised",
        vec![unit("cs", "cs", Some("E5")), unit("gren", "gr", Some("E4"))],
        vec![unit("foe", "sq", Some("I1"))],
        vec![command_squad_card("cs", 2), grenadier_squad(), squad("sq")],
    );
    wound_gren(&mut st);
    refused(&play(
        &mut st,
        "allies",
        "activate cs\n  skill ammo-drop at gren\n  nothing",
        &[],
    ));
    assert_eq!(u(&st, "gren").ammo.get("grenade"), Some(&0));
}
