//! Issue 18 under battlefront-2013: mounting and dismounting vehicles during the game (003
//! "Piloting Vehicles", 002 "Mounting and Dismounting Vehicles", ruling R607). Each test is
//! named after 003's section, quotes its sentence, and drives the engine with scripted dice.

use crate::support_flow::*;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::State;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::Game;

/// Under battlefront-2013: the allied walkers `walk` on E5 and `walk2` on E3 (Vehicle 3, Move
/// 1), the hero `pilot` (the Pilot skill, Move 2) piloting `walk` when `piloted`, else on E7;
/// axis squads `theirs` on E1 and `spare-x` on I1; nobody reacts; allies activate first.
fn game(piloted: bool) -> State {
    let mut hero = unit("pilot", "hero", if piloted { None } else { Some("E7") });
    if piloted {
        hero.joins = Some("walk".into());
    }
    let s = scenario(
        vec![
            unit("walk", "walker", Some("E5")),
            unit("walk2", "walker", Some("E3")),
            hero,
        ],
        vec![
            unit("theirs", "sq", Some("E1")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let cards = vec![
        with_skill(
            card(
                "hero",
                UnitType::Hero,
                3,
                2,
                vec![weapon("pistol", WeaponRange::Upto(4), 1, 1)],
            ),
            "pilot",
            None,
        ),
        card(
            "walker",
            UnitType::Vehicle,
            2,
            1,
            vec![weapon("cannon", WeaponRange::Upto(6), 1, 1)],
        ),
        squad("sq"),
    ];
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    never_react(&mut st);
    begin(&mut st, "allies");
    st
}

/// The lines of `unit`'s block in `side`'s orders template (after its `activate` line).
fn block(st: &State, side: &str, unit: &str) -> String {
    let t = DustTactics.orders_template(st, side);
    t.split(&format!("# activate {unit} "))
        .nth(1)
        .unwrap_or_else(|| panic!("no block for {unit}:\n{t}"))
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("# activate"))
        .collect::<Vec<_>>()
        .join("\n")
}

// issue 18 item 2: 003 "Piloting Vehicles": "The Hero can dismount before the Vehicle activates
// by performing a Move or March Move action to move out of the Vehicle's square then continue
// their activation as normal." `activate pilot` whose first line is not a move is refused,
// citing 003, and changes nothing; with a move he leaves the walker, keeps his own Move 2, is
// no pilot any more, and the walker still has its activation (R607).
#[test]
fn piloting_vehicles_the_hero_dismounts_with_a_move_out_of_the_vehicles_square() {
    let mut st = game(true);
    let (reason, rule) =
        refused_unchanged(&mut st, "allies", "activate pilot\n  nothing\n  nothing");
    assert!(reason.contains("dismounting"), "{reason}");
    assert!(rule.contains("003 \"Piloting Vehicles\""), "{rule}");
    let out = play(
        &mut st,
        "allies",
        "activate pilot\n  move G5\n  nothing",
        &[],
    );
    accepted(&out);
    assert!(
        texts(&out).contains("pilot dismounts from walk"),
        "{}",
        texts(&out)
    );
    assert_eq!(u(&st, "pilot").at, Some(sq("G5")));
    assert_eq!(u(&st, "pilot").joined, None);
    assert_eq!(u(&st, "walk").at, Some(sq("E5")));
    assert!(!u(&st, "walk").activated, "the walker keeps its activation");
}

// issue 18 item 2: 003 "Piloting Vehicles": "If the Hero dismounts the Vehicle, the Vehicle
// cannot take any actions until they mount it again unless it is a Large or Huge Vehicle." (No
// card is Large or Huge.) The walker left by its pilot may only activate with `nothing`, and
// the template offers it nothing else (R607).
#[test]
fn piloting_vehicles_a_vehicle_left_by_its_pilot_cannot_take_any_actions() {
    let mut st = game(true);
    accepted(&play(
        &mut st,
        "allies",
        "activate pilot\n  move G5\n  nothing",
        &[],
    ));
    accepted(&play(
        &mut st,
        "axis",
        "activate theirs\n  nothing\n  nothing",
        &[],
    ));
    let b = block(&st, "allies", "walk");
    assert!(b.contains("#   nothing"), "{b}");
    assert!(!b.contains("#   move") && !b.contains("#   attack"), "{b}");
    let (reason, rule) =
        refused_unchanged(&mut st, "allies", "activate walk\n  move E4\n  nothing");
    assert!(reason.contains("cannot take any actions"), "{reason}");
    assert!(rule.contains("003 \"Piloting Vehicles\""), "{rule}");
    accepted(&play(
        &mut st,
        "allies",
        "activate walk\n  nothing\n  nothing",
        &[],
    ));
    assert_eq!(u(&st, "walk").at, Some(sq("E5")));
}

// issue 18 item 2: 003 "Piloting Vehicles": "The Hero can [...] mount a Vehicle during the game.
// To mount a Vehicle, a unit must move into the Vehicle's square. While in the Vehicle, the Hero
// cannot be targeted by an attack"; "the Vehicle cannot take any actions until they mount it
// again". The hero moves into the walker left without a pilot and mounts it: he is no target
// any more, and the walker acts again (R607).
#[test]
fn piloting_vehicles_a_hero_mounts_by_moving_into_the_vehicles_square() {
    let mut st = game(false);
    // The walker was left by a pilot earlier: it waits for one.
    st.units
        .iter_mut()
        .find(|x| x.id == "walk")
        .unwrap()
        .unpiloted = true;
    let out = play(
        &mut st,
        "allies",
        "activate pilot\n  move E5\n  nothing",
        &[],
    );
    accepted(&out);
    assert!(texts(&out).contains("pilot mounts walk"), "{}", texts(&out));
    assert_eq!(u(&st, "pilot").joined.as_deref(), Some("walk"));
    assert!(!u(&st, "walk").unpiloted);
    let (reason, _) = refused_unchanged(
        &mut st,
        "axis",
        "activate theirs\n  attack gun at pilot\n  nothing",
    );
    assert!(reason.contains("cannot be targeted"), "{reason}");
    accepted(&play(
        &mut st,
        "axis",
        "activate theirs\n  nothing\n  nothing",
        &[],
    ));
    accepted(&play(
        &mut st,
        "allies",
        "activate walk\n  move E6\n  nothing",
        &[],
    ));
    assert_eq!(u(&st, "pilot").at, Some(sq("E6")), "he rides with it");
}

// issue 18 item 2: 003 "Piloting Vehicles": "A Hero cannot mount and dismount a Vehicle in the
// same activation." The pilot dismounts from `walk` into the square of the other walker: he
// stands there but does not mount it (R607).
#[test]
fn piloting_vehicles_a_hero_cannot_mount_and_dismount_in_the_same_activation() {
    let mut st = game(true);
    let out = play(
        &mut st,
        "allies",
        "activate pilot\n  move E3\n  nothing",
        &[],
    );
    accepted(&out);
    assert_eq!(u(&st, "pilot").at, Some(sq("E3")));
    assert_eq!(u(&st, "pilot").joined, None);
    assert!(
        !texts(&out).contains("pilot mounts walk2"),
        "{}",
        texts(&out)
    );
}

// issue 18 item 2: 003 "Piloting Vehicles": the pilot "activates with the Vehicle (unless
// dismounting)". The template offers `activate pilot` with the moves out of the walker only:
// no attack and no `nothing` (the first action of a dismount is a move), each accepted (R607).
#[test]
fn piloting_vehicles_the_template_offers_the_dismount_moves_only() {
    let st = game(true);
    let b = block(&st, "allies", "pilot");
    assert!(b.contains("#   move "), "{b}");
    assert!(!b.contains("attack") && !b.contains("nothing"), "{b}");
    let mut copy = st.clone();
    accepted(&play(
        &mut copy,
        "allies",
        "activate pilot\n  move G5\n  nothing",
        &[],
    ));
}
