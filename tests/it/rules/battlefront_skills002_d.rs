//! Issue 18: 002's own skills under battlefront-2013, fourth batch: Lucky (R760), Infantry Ace
//! (R761), Camouflage (R762), Blutkreuz and Resurrection (R763, R764) (each of the last with its
//! own game), the
//! pistol hero
//! of `battlefront_combat` (on E5, a two-dice pistol, range 4) against the four soldiers of
//! `theirs` on E3. Scripted dice (1, 2 army; 3, 4 target; 5, 6 shield).

use super::battlefront_combat::{pistol_hero, skill_game};
use crate::support_flow::*;
use dustmail::dust_tactics::cards::parse_card;

// issue 18, 002 "Lucky": "Once per game, a Hero with the Lucky Skill may re-roll any dice that
// failed to Hit with any of their weapons when making an Attack or Sustained Attack action."
// (R760) Declared with `skill lucky`: the pistol's two dice miss (target, shield), both are
// re-rolled (army, shield): one hit; its Infantry Save (shield) fails: one soldier lost, and the
// hero's one use is spent.
#[test]
fn s002_lucky_a_hero_re_rolls_the_dice_that_failed_to_hit_once_per_game() {
    let mut st = skill_game(pistol_hero(&["lucky"]));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  skill lucky\n  attack pistol at theirs\n  nothing",
        &[3, 5, 1, 6, 5],
    );
    let t = texts(&out);
    assert!(t.contains("2 re-rolled (Lucky)"), "{t}");
    assert_eq!(
        purposes(&out),
        vec![
            "attack pistol".to_string(),
            "lucky re-roll pistol".to_string(),
            "infantry save vs pistol".to_string()
        ],
        "{t}"
    );
    assert_eq!(u(&st, "theirs").models.len(), 3, "{t}");
    assert_eq!(u(&st, "ours").skills_used.get("lucky"), Some(&1), "{t}");
}

// R760: without `skill lucky` the same two misses stay misses (no die re-rolled, nobody lost);
// a second use is refused ("Once per game"), and so is a declaration by a hero without the
// skill; a refusal changes nothing.
#[test]
fn s002_lucky_only_declared_only_once_only_with_the_skill() {
    let mut st = skill_game(pistol_hero(&["lucky"]));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack pistol at theirs\n  nothing",
        &[3, 5],
    );
    assert_eq!(u(&st, "theirs").models.len(), 4, "{}", texts(&out));

    let mut st = skill_game(pistol_hero(&["lucky"]));
    st.unit_mut("ours")
        .expect("ours")
        .skills_used
        .insert("lucky".into(), 1);
    let orders = "activate ours\n  skill lucky\n  attack pistol at theirs\n  nothing";
    let (reason, rule) = refused(&play(&mut st, "allies", orders, &[]));
    assert!(reason.contains("already used Lucky"), "{reason}");
    assert!(rule.contains("002 \"Lucky\""), "{rule}");
    assert!(!u(&st, "ours").activated);

    let mut st = skill_game(pistol_hero(&[]));
    let (reason, rule) = refused(&play(&mut st, "allies", orders, &[]));
    assert!(reason.contains("no hero with the Lucky skill"), "{reason}");
    assert!(rule.contains("002 \"Lucky\""), "{rule}");
    assert_eq!(u(&st, "theirs").models.len(), 4);
}

// R760: 002 gives the skill to a hero ("A Hero with the Lucky Skill"): a squad's card naming it
// is refused when read, saying what to do; a hero's card is read.
#[test]
fn s002_lucky_is_a_heros_skill() {
    let extra = "[[skills]]\nname = \"lucky\"";
    let (f, t) = super::battlefront_skills002::card_with("bf-bazooka-joe", extra);
    assert!(parse_card(&f, &t).is_ok());
    let (f, t) = super::battlefront_skills002::card_with("bf-recon-grenadiers", extra);
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("not a hero"), "{e}");
}

// issue 18, 002 "Infantry Ace": "A Hero with the Infantry Ace Skill rolls a die when it
// Activates. On a [army] or [target] the Hero (and any Unit it has Joined or Hero that has Joined
// it) gains a third Action for this Activation." (R761) The die shows target: the third line
// ordered, the pistol's attack, is made (army, army: two hits; both Infantry Saves fail on
// shields): two soldiers lost.
#[test]
fn s002_infantry_ace_a_third_action_on_army_or_target() {
    let order = "activate ours\n  nothing\n  nothing\n  attack pistol at theirs";
    let mut st = skill_game(pistol_hero(&["infantry-ace"]));
    let out = play(&mut st, "allies", order, &[3, 1, 2, 5, 6]);
    let t = texts(&out);
    assert!(
        t.contains("Infantry Ace: ours rolls target: ours has three actions"),
        "{t}"
    );
    assert_eq!(purposes(&out)[0], "infantry ace for ours", "{t}");
    assert_eq!(u(&st, "theirs").models.len(), 2, "{t}");
}

// R761: on a shield the die gives nothing, and the third line ordered is not made (no attack
// die is rolled, nobody is lost); a hero without the skill rolls no die, and three lines are
// refused as one action too many.
#[test]
fn s002_infantry_ace_no_third_action_on_a_shield_nor_without_the_skill() {
    let order = "activate ours\n  nothing\n  nothing\n  attack pistol at theirs";
    let mut st = skill_game(pistol_hero(&["infantry-ace"]));
    let out = play(&mut st, "allies", order, &[5]);
    let t = texts(&out);
    assert!(t.contains("no third action"), "{t}");
    assert_eq!(u(&st, "theirs").models.len(), 4, "{t}");

    let mut st = skill_game(pistol_hero(&[]));
    let out = play(&mut st, "allies", order, &[]);
    refused(&out);
    assert!(!u(&st, "ours").activated);
}

/// Camouflage (R762): the allied pistol hero `ours` on E5 (pistol range 4), the axis squad `hide`
/// (four soldiers with a one-die gun, range 4, given 002's Camouflage) on E2, a rubble square (003: infantry there
/// is in Cover), three squares off; a spare a side far off; `first` activates first.
fn camo_game(first: &str) -> dustmail::dust_tactics::state::State {
    use dustmail::dust_tactics::model::Terrain;
    use dustmail::dust_tactics::state::Policy;
    use dustmail::dust_tactics::DustTactics;
    let mut s = scenario(
        vec![
            unit("ours", "shooter", Some("E5")),
            unit("spare-a", "sq", Some("A9")),
        ],
        vec![
            unit("hide", "camo", Some("E2")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    s.board.set_terrain(sq("E2"), Terrain::Rubble);
    let cards = vec![
        pistol_hero(&[]),
        with_skill(squad("camo"), "camouflage", None),
        squad("sq"),
    ];
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, first);
    st
}

// issue 18, 002 "Camouflage": "no enemy Unit has Line of Sight to it if it is in Cover (see pages
// 29 and 54) from them and at Range 3 ... or more ... The Unit starts the game Camouflaged."
// (R762) From E5 (three squares) the hero cannot aim at the squad in the rubble: refused, citing
// 002, nothing changes; from E4 (two squares) it can (two shields: no hit).
#[test]
fn s002_camouflage_unseen_in_cover_at_range_3_or_more_from_the_start() {
    let mut st = camo_game("allies");
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack pistol at hide\n  nothing",
        &[],
    );
    let (reason, rule) = refused(&out);
    assert!(reason.contains("hide on E2 is Camouflaged"), "{reason}");
    assert!(rule.contains("002 \"Camouflage\""), "{rule}");
    assert!(!u(&st, "ours").activated);
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  move E4\n  attack pistol at hide",
        &[5, 5],
    );
    assert!(texts(&out).contains("ours fires pistol"), "{}", texts(&out));
}

// R762: "This benefit ends if the Camouflaged Unit takes any Action other than a Move or Nothing
// Action": the squad attacks (four soldiers' guns, four shields), and the hero on E5 may then aim at it; the
// Camouflage Special Action ("may take a Camouflage Special Action. Once it has done so ...")
// hides it again.
#[test]
fn s002_camouflage_an_attack_ends_it_the_special_action_restores_it() {
    let mut st = camo_game("axis");
    play(
        &mut st,
        "axis",
        "activate hide\n  attack gun at ours\n  nothing",
        &[5, 5, 5, 5],
    );
    assert!(u(&st, "hide").uncamouflaged);
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack pistol at hide\n  nothing",
        &[5, 5],
    );
    assert!(texts(&out).contains("ours fires pistol"), "{}", texts(&out));

    let mut st = camo_game("axis");
    st.unit_mut("hide").expect("hide").uncamouflaged = true;
    let out = play(
        &mut st,
        "axis",
        "activate hide\n  skill camouflage\n  nothing",
        &[],
    );
    assert!(
        texts(&out).contains("hide is Camouflaged"),
        "{}",
        texts(&out)
    );
    let (reason, _) = refused(&play(
        &mut st,
        "allies",
        "activate ours\n  attack pistol at hide\n  nothing",
        &[],
    ));
    assert!(reason.contains("Camouflaged"), "{reason}");
}

// R762: only a unit with the skill takes the Camouflage Special Action; the refusal cites 002.
#[test]
fn s002_camouflage_only_with_the_skill() {
    let mut st = camo_game("allies");
    let (reason, rule) = refused(&play(
        &mut st,
        "allies",
        "activate ours\n  skill camouflage\n  nothing",
        &[],
    ));
    assert!(
        reason.contains("does not have the Camouflage skill"),
        "{reason}"
    );
    assert!(rule.contains("002 \"Camouflage\""), "{rule}");
}

// R762: no line of sight, so no Reactive Attack either (003 "Reactive Attacks" needs one): the
// Camouflaged squad moves into the rubble on D2, three squares from the hero, who stands ready
// to react, then attacks: no reaction die is rolled and the hero is not activated.
// Uncamouflaged, the same move draws the hero's reaction (target, shield: Nothing).
#[test]
fn s002_camouflage_no_reactive_attack_against_it() {
    use dustmail::dust_tactics::model::Terrain;
    use dustmail::dust_tactics::state::Policy;
    for camouflaged in [true, false] {
        let mut st = camo_game("axis");
        st.scenario.board.set_terrain(sq("D2"), Terrain::Rubble);
        dustmail::dust_tactics::flow::standing_react(&mut st, "allies", None, Policy::Yes)
            .expect("standing react");
        st.unit_mut("hide").expect("hide").uncamouflaged = !camouflaged;
        // The reaction's two dice (target, shield) when there is one; the squad's four shields.
        let faces: &[u8] = if camouflaged {
            &[5, 5, 5, 5]
        } else {
            &[3, 5, 5, 5, 5, 5]
        };
        let orders = "activate hide\n  move D2\n  attack gun at ours";
        let out = play(&mut st, "axis", orders, faces);
        assert_eq!(u(&st, "hide").at, Some(sq("D2")));
        assert_eq!(u(&st, "ours").activated, !camouflaged, "{}", texts(&out));
    }
}

/// Blutkreuz (R763): the allied Mindless Zombies `zeds` (four soldiers, Movement 1, knives) on
/// E6, the hero `toten` (the pistol hero given the Blutkreuz) on `toten_at`; the axis squad
/// `theirs` (guns, no close-combat weapon) on E1; spares far off; nobody reacts.
fn blutkreuz_game(toten_at: &str) -> dustmail::dust_tactics::state::State {
    blutkreuz_game_with(toten_at, &["blutkreuz"])
}

/// [`blutkreuz_game`] with the hero's skills `skills`.
fn blutkreuz_game_with(toten_at: &str, skills: &[&str]) -> dustmail::dust_tactics::state::State {
    use dustmail::dust_tactics::model::{UnitType, WeaponRange};
    use dustmail::dust_tactics::state::Policy;
    use dustmail::dust_tactics::DustTactics;
    let s = scenario(
        vec![
            unit("zeds", "zed", Some("E6")),
            unit("toten", "shooter", Some(toten_at)),
        ],
        vec![
            unit("theirs", "sq", Some("E1")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let zed = card(
        "zed",
        UnitType::Squad,
        4,
        1,
        vec![weapon("knife", WeaponRange::Close, 1, 1)],
    );
    let cards = vec![
        pistol_hero(skills),
        with_skill(zed, "mindless-zombie", None),
        squad("sq"),
    ];
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

// issue 18, 002 "Blutkreuz": "All Mindless Zombie Units ... within Range 1 ... at the start of
// their Activation increase their Move to 3, their March Move to 4" (R763). With the hero next
// to them the zombies (Movement 1) March Move four squares, E6 to E2 (three, then one); with the
// hero far off a three-square move is refused and nothing moves.
#[test]
fn s002_blutkreuz_mindless_zombies_within_range_1_move_3_and_march_4() {
    let mut st = blutkreuz_game("E7");
    let out = play(
        &mut st,
        "allies",
        "activate zeds\n  move E5 E4 E3\n  move E2",
        &[],
    );
    assert_eq!(u(&st, "zeds").at, Some(sq("E2")), "{}", texts(&out));

    let mut st = blutkreuz_game("A9");
    let out = play(
        &mut st,
        "allies",
        "activate zeds\n  move E5 E4 E3\n  nothing",
        &[],
    );
    refused(&out);
    assert_eq!(u(&st, "zeds").at, Some(sq("E6")));
}

// R763: "... and gain the Charge Skill": led by the Blutkreuz the zombies declare Charge (the
// March Move, then the free close-combat Attack: four knives, four shields, no hit); far from
// it they do not have Charge and the declaration is refused.
#[test]
fn s002_blutkreuz_mindless_zombies_led_gain_charge() {
    let orders =
        "activate zeds\n  skill charge\n  move E5 E4 E3\n  move E2\n  attack knife at theirs";
    let mut st = blutkreuz_game("E7");
    let out = play(&mut st, "allies", orders, &[5, 5, 5, 5]);
    let t = texts(&out);
    assert!(t.contains("zeds fires knife"), "{t}");
    assert_eq!(u(&st, "zeds").at, Some(sq("E2")), "{t}");

    let mut st = blutkreuz_game("A9");
    let (reason, _) = refused(&play(&mut st, "allies", orders, &[]));
    assert!(reason.contains("does not have the skill"), "{reason}");
}

// R763: 002 gives the Blutkreuz to a hero ("A Hero with the Blutkreuz"): a squad's card naming
// it is refused when read.
#[test]
fn s002_blutkreuz_is_a_heros() {
    let extra = "[[skills]]\nname = \"blutkreuz\"";
    let (f, t) = super::battlefront_skills002::card_with("bf-bazooka-joe", extra);
    assert!(parse_card(&f, &t).is_ok());
    let (f, t) = super::battlefront_skills002::card_with("bf-recon-grenadiers", extra);
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("not a hero"), "{e}");
}

/// The Blutkreuz game with the hero also given Resurrection and two of the four zombies lost.
fn raised_game(toten_at: &str) -> dustmail::dust_tactics::state::State {
    let mut st = blutkreuz_game_with(toten_at, &["blutkreuz", "resurrection"]);
    let z = st.unit_mut("zeds").expect("zeds");
    z.models = vec!["1".into(), "2".into()];
    z.health = 2;
    st
}

// issue 18, 002 "Resurrection": "select a Mindless Zombie Unit within Range 1 ... Roll a die for
// each Zombie Soldier eliminated from the Unit. Each [army] or [target] rolled returns one of the
// eliminated Zombie Soldiers to the Unit." (R764) Two soldiers lost, two dice: target, shield:
// one comes back (the first missing, model 3).
#[test]
fn s002_resurrection_each_army_or_target_returns_an_eliminated_zombie() {
    let mut st = raised_game("E7");
    let out = play(
        &mut st,
        "allies",
        "activate toten\n  skill resurrection at zeds\n  nothing",
        &[3, 5],
    );
    let t = texts(&out);
    assert!(t.contains("1 army or target, 1 back (model 3)"), "{t}");
    assert_eq!(u(&st, "zeds").models, vec!["1", "2", "3"], "{t}");
}

// R764: the unit must be within Range 1 of the hero (refused from A9, citing 002, nothing
// changes); a hero without the skill cannot; and 002 gives it to "A Hero equipped with a
// Blutkreuz": a card with Resurrection and no Blutkreuz is refused when read.
#[test]
fn s002_resurrection_within_range_1_by_a_hero_with_the_blutkreuz() {
    let orders = "activate toten\n  skill resurrection at zeds\n  nothing";
    let mut st = raised_game("A9");
    let (reason, rule) = refused(&play(&mut st, "allies", orders, &[]));
    assert!(reason.contains("not within 1 square"), "{reason}");
    assert!(rule.contains("002 \"Resurrection\""), "{rule}");
    assert_eq!(u(&st, "zeds").models.len(), 2);

    let mut st = blutkreuz_game("E7");
    let (reason, _) = refused(&play(&mut st, "allies", orders, &[]));
    assert!(reason.contains("no hero with Resurrection"), "{reason}");

    let (f, t) = super::battlefront_skills002::card_with(
        "bf-bazooka-joe",
        "[[skills]]\nname = \"resurrection\"",
    );
    let e = parse_card(&f, &t).unwrap_err();
    assert!(e.reason.contains("Blutkreuz"), "{e}");
    assert!(e.instead.contains("blutkreuz"), "{e}");
}

// R760: "A Hero with the Lucky Skill does not share it with any Unit they Join." The Lucky hero
// joined to the squad `mates`: the group declares Lucky and fires the hero's pistol and the
// squad's guns; the pistol's two misses are re-rolled (two shields), the guns' four misses are
// not.
#[test]
fn s002_lucky_is_not_shared_with_the_squad_the_hero_joined() {
    use dustmail::dust_tactics::state::Policy;
    use dustmail::dust_tactics::DustTactics;
    let mut hero = unit("ours", "shooter", None);
    hero.joins = Some("mates".into());
    let s = scenario(
        vec![unit("mates", "sq", Some("E5")), hero],
        vec![
            unit("theirs", "sq", Some("E3")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let mut st = DustTactics
        .start(
            "battlefront-2013",
            s,
            vec![pistol_hero(&["lucky"]), squad("sq")],
        )
        .expect("setup");
    for side in st.sides() {
        dustmail::dust_tactics::flow::standing_react(&mut st, &side, None, Policy::Never)
            .expect("standing react never");
    }
    begin(&mut st, "allies");
    let out = play(
        &mut st,
        "allies",
        "activate mates\n  skill lucky\n  attack pistol at theirs, gun at theirs\n  nothing",
        &[3, 5, 5, 6, 3, 4, 5, 6],
    );
    assert_eq!(
        purposes(&out),
        vec!["attack pistol", "lucky re-roll pistol", "attack gun"],
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "theirs").models.len(), 4);
}
