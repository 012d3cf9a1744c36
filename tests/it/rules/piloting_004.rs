//! Issue 12 (ffg-revised, seed 004): piloting vehicles, the skills "Pilot: Name" and "Ace Pilot"
//! (rulings R540–R545). The cards are written as a player writes them for `new --cards` and read
//! the way `new` reads them; orders go through the real parser and state machine
//! (`DustTactics::submit`). Each test names 004's section and quotes its sentence.

use crate::support_flow::*;
use dustmail::dust_tactics::cards::parse_card_for_new;
use dustmail::dust_tactics::model::Card;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, view, DustTactics};
use dustmail::game::ScriptedDice;

/// A hero card (Movement 2, 3 health, a pistol) with the card lines `skills` appended.
pub(super) fn hero_card(id: &str, skills: &str) -> Card {
    let text = format!(
        r#"id = "{id}"
name = "Hero {id}"
faction = "allies"
unit_type = "hero"
armour = {{ soldier = 2 }}
movement = 2
health = 3
ap = 20

[[weapons]]
id = "pistol"
name = "Pistol"
range = "3"
soldier = ["1/1", "1/1", "1/1", "1/1"]
vehicle = ["1/1", "1/1", "1/1", "1/1", "1/1", "1/1", "1/1"]
aircraft = ["-", "-", "-"]
{skills}"#
    );
    parse_card_for_new(&format!("{id}.toml"), &text).unwrap_or_else(|e| panic!("{e}"))
}

/// A walker card (Vehicle 3, Movement 1, 2 health, a cannon) with the card lines `skills`.
pub(super) fn walker_card(skills: &str) -> Card {
    let text = format!(
        r#"id = "walker"
name = "Walker"
faction = "allies"
unit_type = "vehicle"
armour = {{ vehicle = 3 }}
movement = 1
health = 2
ap = 30

[[weapons]]
id = "cannon"
name = "Cannon"
range = "6"
soldier = ["1/1", "1/1", "1/1", "1/1"]
vehicle = ["1/1", "1/1", "1/1", "1/1", "1/1", "1/1", "1/1"]
aircraft = ["-", "-", "-"]
{skills}"#
    );
    parse_card_for_new("walker.toml", &text).unwrap_or_else(|e| panic!("{e}"))
}

/// `pilot` naming the walker, as a hero card writes Pilot: Walker.
pub(super) const PILOT_WALKER: &str = "[[skills]]\nname = \"pilot\"\ncard = \"walker\"\n";

/// The allied walker `walk` on E8 with hero `ace` (card `hero`) joined to it when `piloted`, the
/// axis squad `foe` on `foe_at`; no reactive fire; `first` activates first.
fn game(hero: Card, walker: Card, piloted: bool, foe_at: &str, first: &str) -> State {
    let mut ace = unit("ace", &hero.id, if piloted { None } else { Some("A8") });
    if piloted {
        ace.joins = Some("walk".into());
    }
    let s = scenario(
        vec![unit("walk", "walker", Some("E8")), ace],
        vec![
            unit("foe", "sq", Some(foe_at)),
            unit("spare", "sq", Some("I1")),
        ],
    );
    let mut st = start_defaults(s, vec![hero, walker, squad("sq")]);
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, first);
    st
}

fn piloted(foe_at: &str, first: &str) -> State {
    game(
        hero_card("ace", PILOT_WALKER),
        walker_card(""),
        true,
        foe_at,
        first,
    )
}

fn setup_error(hero: Card, walker: Card) -> String {
    let mut ace = unit("ace", &hero.id, None);
    ace.joins = Some("walk".into());
    let s = scenario(
        vec![unit("walk", "walker", Some("E8")), ace],
        vec![unit("foe", "sq", Some("E2"))],
    );
    DustTactics
        .start("ffg-revised", s, vec![hero, walker, squad("sq")])
        .map(|_| ())
        .expect_err("refused")
        .to_string()
}

// 004 "Pilot: Name": "A hero with this skill is able to pilot the noted vehicle type." A hero
// whose card has Pilot: Walker begins the game in the walker (the scenario's `joins`): he
// stands on its square, the roster says he pilots it and the board marks the walker `+`.
#[test]
fn pilot_name_004_a_hero_begins_the_game_piloting_the_noted_vehicle() {
    let st = piloted("E2", "allies");
    assert_eq!(u(&st, "ace").joined.as_deref(), Some("walk"));
    assert_eq!(u(&st, "ace").at, Some(sq("E8")));
    let board = view::board_text(&st);
    assert!(
        board.contains("ace (allies, Hero ace): piloting walk"),
        "{board}"
    );
    let json = view::view(&st, None);
    let ace = json["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "ace")
        .unwrap()
        .clone();
    assert_eq!(ace["pilots"], true, "{ace}");
}

// 004 "Pilot: Name": "A hero with this skill is able to pilot the noted vehicle type." A hero
// whose Pilot names another vehicle, or who has no piloting skill, cannot begin in the walker:
// the game is refused, citing 004, and naming what his card must say.
#[test]
fn pilot_name_004_a_hero_without_pilot_for_that_vehicle_is_refused_at_setup() {
    let other = "[[skills]]\nname = \"pilot\"\ncard = \"luther\"\n";
    for skills in [other, ""] {
        let e = setup_error(hero_card("ace", skills), walker_card(""));
        assert!(
            e.contains("cannot pilot a Walker")
                && e.contains("card = \"walker\"")
                && e.contains("004 \"Pilot: Name\""),
            "{e}"
        );
    }
}

// 004 "Pilot: Name": "A vehicle with this skill can only be piloted by a particular hero; though
// the vehicle can still be fielded without its pilot." A walker naming hero `ace` refuses hero
// `joe` (who can pilot any walker), and takes the field with nobody in it.
#[test]
fn pilot_name_004_a_vehicle_for_a_particular_hero_refuses_another_and_fights_without_him() {
    let only_ace = "[[skills]]\nname = \"pilot\"\ncard = \"ace\"\n";
    let e = setup_error(hero_card("joe", PILOT_WALKER), walker_card(only_ace));
    assert!(
        e.contains("can only be piloted by the hero of card ace, not joe")
            && e.contains("004 \"Pilot: Name\""),
        "{e}"
    );
    // Fielded without its pilot: it activates and fires by itself.
    let mut st = game(
        hero_card("ace", PILOT_WALKER),
        walker_card(only_ace),
        false,
        "E2",
        "allies",
    );
    let out = send(
        &mut st,
        "allies",
        "activate walk\n  move E7\n  nothing",
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "walk").at, Some(sq("E7")));
    assert_eq!(u(&st, "ace").at, Some(sq("A8")), "ace stays where he stood");
}

// 004 "Pilot: Name": "Both units activate at the same time". Activating the walker moves and
// turns its pilot with it; `activate ace` is refused, naming the walker to activate instead,
// and changes nothing.
#[test]
fn pilot_name_004_both_units_activate_at_the_same_time() {
    let mut st = piloted("E2", "allies");
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate ace\n  move E6\n  nothing",
        &mut ScriptedDice::new([]),
    );
    let r = first_result(&out).unwrap_err();
    assert!(
        r.contains("ace is joined to walk and activates with it"),
        "{r}"
    );
    assert!(st == before, "the refusal changed the game");
    let out = send(
        &mut st,
        "allies",
        "activate walk\n  move E7\n  nothing",
        &mut ScriptedDice::new([]),
    );
    accepted(&out);
    assert_eq!(u(&st, "walk").at, Some(sq("E7")));
    assert_eq!(u(&st, "ace").at, Some(sq("E7")));
    assert!(u(&st, "ace").activated && u(&st, "walk").activated);
}

// 004 "Pilot: Name" (R541): the pilot is inside his vehicle, so it moves at the vehicle's
// Movement (a joined squad takes the higher of the two, 004 "Heroes"): the Movement 2 hero
// does not carry the Movement 1 walker two squares.
#[test]
fn pilot_name_004_the_vehicle_moves_at_its_own_movement() {
    let mut st = piloted("E2", "allies");
    let out = send(
        &mut st,
        "allies",
        "activate walk\n  move E6\n  nothing",
        &mut ScriptedDice::new([]),
    );
    let r = first_result(&out).unwrap_err();
    assert!(r.contains("E6"), "{r}");
    assert_eq!(u(&st, "walk").at, Some(sq("E8")));
}

// 004 "Pilot: Name" (R541): the pilot fires none of his own weapons from the vehicle (003: "cannot
// use their own weapons") and cannot be targeted. `attack pistol` from the walker is refused;
// an attack at the pilot is refused naming the walker; an attack at the walker damages the
// walker only.
#[test]
fn pilot_name_004_the_pilot_is_no_target_and_fires_no_weapon_of_his_own() {
    let mut st = piloted("E5", "allies");
    let out = send(
        &mut st,
        "allies",
        "activate walk\n  attack pistol at foe\n  nothing",
        &mut ScriptedDice::new([]),
    );
    let r = first_result(&out).unwrap_err();
    assert!(r.contains("pistol"), "{r}");
    accepted(&send(
        &mut st,
        "allies",
        "activate walk\n  nothing\n  nothing",
        &mut ScriptedDice::new([]),
    ));
    let before = st.clone();
    let out = send(
        &mut st,
        "axis",
        "activate foe\n  attack gun at ace\n  nothing",
        &mut ScriptedDice::new([]),
    );
    let r = first_result(&out).unwrap_err();
    assert!(
        r.contains("ace pilots walk and cannot be targeted") && r.contains("004 \"Pilot: Name\""),
        "{r}"
    );
    assert!(st == before, "the refusal changed the game");
    // Four dice, one hit: the walker loses 1 health, its pilot none.
    let mut d = ScriptedDice::new([1, 5, 5, 5]);
    let out = send(
        &mut st,
        "axis",
        "activate foe\n  attack gun at walk\n  nothing",
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert_eq!(u(&st, "walk").health, 1);
    assert_eq!(u(&st, "ace").health, 3);
}

// 004 "Pilot: Name": "Heroes with this skill can confer their skills to the vehicle while
// piloting the noted vehicle type." A pilot with Fast gives the walker its extra square (004
// "Fast"): piloted, it moves two squares in one MOVE; the same walker without him cannot.
#[test]
fn pilot_name_004_heroes_confer_their_skills_to_the_vehicle() {
    let fast = format!("{PILOT_WALKER}\n[[skills]]\nname = \"fast\"\n");
    for (piloted, moves) in [(true, true), (false, false)] {
        let mut st = game(
            hero_card("ace", &fast),
            walker_card(""),
            piloted,
            "E2",
            "allies",
        );
        let out = send(
            &mut st,
            "allies",
            "activate walk\n  move E6\n  nothing",
            &mut ScriptedDice::new([]),
        );
        assert_eq!(
            first_result(&out).is_ok(),
            moves,
            "piloted {piloted}: {out:?}"
        );
    }
}

// 004 "Pilot: Name": the hero obeys "the usual embarking and disembarking rules"; 004 "Carry
// Capacity": "If the vehicle is destroyed, the player who controls the vehicle rolls one die ...
// a hero loses 1 [health] on a 4+ result" (R542). The walker is destroyed: its pilot is put on
// its square, counts as activated, and loses 1 health on a 4; on a 3 he escapes unharmed.
#[test]
fn pilot_name_004_a_pilot_whose_vehicle_is_destroyed_rolls_to_escape() {
    for (escape_die, health) in [(4u8, 2u8), (3, 3)] {
        let mut st = piloted("E5", "axis");
        // Four dice, two hits: the walker's 2 health; then the pilot's escape die.
        let mut d = ScriptedDice::new([1, 2, 5, 5, escape_die]);
        let out = send(
            &mut st,
            "axis",
            "activate foe\n  attack gun at walk\n  nothing",
            &mut d,
        );
        accepted(&out);
        assert_eq!(d.remaining(), 0);
        assert!(u(&st, "walk").destroyed);
        let ace = u(&st, "ace");
        assert_eq!(
            (ace.at, ace.joined.clone(), ace.health, ace.activated),
            (Some(sq("E8")), None, health, true),
            "escape die {escape_die}"
        );
        let t = texts(&out);
        assert!(
            t.contains("ace climbs out of the wreck of walk onto E8"),
            "{t}"
        );
        assert!(t.contains("004 \"Carry Capacity\""), "{t}");
        // He is no pilot now.
        assert!(!st.is_pilot(u(&st, "ace")));
    }
}

/// Pilot: Walker and Ace Pilot on one hero card.
const ACE: &str =
    "[[skills]]\nname = \"pilot\"\ncard = \"walker\"\n\n[[skills]]\nname = \"ace-pilot\"\n";

// 004 "Ace Pilot": "Each turn while piloting a vehicle, roll 1 die when the piloted vehicle
// activates. If the result is 4+, the vehicle gains an extra action for the round" (R543). The
// walker is ordered `nothing`, `nothing` and, as its extra action, an attack: on a 4 the attack
// is made (its die hits, the squad loses a model); on a 3 it is not, no attack die is rolled,
// and the report says why.
#[test]
fn ace_pilot_004_a_4_plus_gives_the_piloted_vehicle_an_extra_action() {
    for (ace_die, models) in [(4u8, 3usize), (3, 4)] {
        let mut st = game(hero_card("ace", ACE), walker_card(""), true, "E5", "allies");
        let mut d = if ace_die >= 4 {
            ScriptedDice::new([ace_die, 1])
        } else {
            ScriptedDice::new([ace_die])
        };
        let out = send(
            &mut st,
            "allies",
            "activate walk\n  nothing\n  nothing\n  attack cannon at foe",
            &mut d,
        );
        accepted(&out);
        assert_eq!(d.remaining(), 0, "{}", texts(&out));
        assert_eq!(u(&st, "foe").models.len(), models, "{}", texts(&out));
        let t = texts(&out);
        let said = if ace_die >= 4 {
            "Ace Pilot: ace rolls 4, 4+: walk gains an extra action"
        } else {
            "Ace Pilot: ace rolls 3, below 4: no extra action, so the third one ordered is not made"
        };
        assert!(t.contains(said), "{t}");
    }
}

// 004 "Ace Pilot": "This ability can only be used when the hero is piloting a vehicle." The same
// walker without its Ace Pilot aboard rolls no die and may not be ordered a third action; with
// him, the die is rolled at every activation, even with two actions ordered.
#[test]
fn ace_pilot_004_only_while_the_hero_pilots_the_vehicle() {
    let three = "activate walk\n  nothing\n  nothing\n  nothing";
    let mut st = game(
        hero_card("ace", ACE),
        walker_card(""),
        false,
        "E5",
        "allies",
    );
    let before = st.clone();
    let out = send(&mut st, "allies", three, &mut ScriptedDice::new([]));
    let r = first_result(&out).unwrap_err();
    assert!(r.contains("3 actions are declared"), "{r}");
    assert!(st == before, "the refusal changed the game");
    let mut st = game(hero_card("ace", ACE), walker_card(""), true, "E5", "allies");
    let mut d = ScriptedDice::new([6]);
    let out = send(
        &mut st,
        "allies",
        "activate walk\n  nothing\n  nothing",
        &mut d,
    );
    accepted(&out);
    assert_eq!(d.remaining(), 0);
    assert!(
        texts(&out).contains("walk gains an extra action (none was ordered)"),
        "{}",
        texts(&out)
    );
}

// 004 "Ace Pilot": "the vehicle gains an extra action" (R543): one action, so a SUSTAINED
// ATTACK (both actions of an activation) after two actions is refused, citing 004, and
// nothing changes.
#[test]
fn ace_pilot_004_the_extra_action_is_a_single_action() {
    let mut st = game(hero_card("ace", ACE), walker_card(""), true, "E5", "allies");
    let before = st.clone();
    let out = send(
        &mut st,
        "allies",
        "activate walk\n  nothing\n  nothing\n  sustained cannon at foe",
        &mut ScriptedDice::new([]),
    );
    let r = first_result(&out).unwrap_err();
    assert!(
        r.contains("the extra action of an Ace Pilot is one action")
            && r.contains("004 \"Ace Pilot\""),
        "{r}"
    );
    assert!(st == before, "the refusal changed the game");
}
