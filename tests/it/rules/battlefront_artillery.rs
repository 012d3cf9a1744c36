//! Issue 18: 002's "Artillery Weapons", "Reload Weapons" and the skill "Artillery Observer" under
//! battlefront-2013 (rulings R690–R699). A gun crew (allies) carries `shell`, a range `A` line,
//! and `rifle`, range 6; the axis squad `theirs` is its target. Scripted dice (1, 2 army; 3, 4
//! target; 5, 6 shield): the saves are scripted as targets, which fail whatever the cover.

use crate::support_flow::*;
use dustmail::dust_tactics::model::{Card, Terrain, UnitType, WeaponRange, WeaponTrait};
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};
use dustmail::game::{Game, Line, Outcome, ScriptedDice, Sender};

/// The gun crew: a squad of 2 with `shell` (range A, 2 dice, 1 damage, one carrier; `reloadable`
/// when `reload`) and `rifle` (range 6, 1 die, one carrier).
pub(super) fn gun_crew(id: &str, reload: bool) -> Card {
    let mut shell = weapon("shell", WeaponRange::Artillery, 2, 1);
    if reload {
        shell.traits.push(WeaponTrait::Reloadable);
    }
    let mut rifle = weapon("rifle", WeaponRange::Upto(6), 1, 1);
    shell.carriers = Some(1);
    rifle.carriers = Some(1);
    card(id, UnitType::Squad, 2, 1, vec![shell, rifle])
}

/// A battlefront-2013 game on the 9×9 open board: `allies` and `axis` as (id, card, square),
/// every card in `cards`; allies activate first and nobody reacts.
pub(super) fn bf_game(
    cards: Vec<Card>,
    allies: &[(&str, &str, &str)],
    axis: &[(&str, &str, &str)],
) -> State {
    let specs = |v: &[(&str, &str, &str)]| {
        v.iter()
            .map(|(id, c, at)| unit(id, c, Some(at)))
            .collect::<Vec<_>>()
    };
    let mut st = DustTactics
        .start(
            "battlefront-2013",
            scenario(specs(allies), specs(axis)),
            cards,
        )
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// The gun crew on `gun_at`, the axis squad `theirs` on `target_at` (and a spare on I1).
fn gun_game(reload: bool, gun_at: &str, target_at: &str) -> State {
    bf_game(
        vec![gun_crew("crew", reload), squad("sq"), tank()],
        &[("gun", "crew", gun_at), ("spare-a", "sq", "A9")],
        &[("theirs", "sq", target_at), ("spare-x", "sq", "I1")],
    )
}

/// A friendly vehicle card (for the sight tests).
fn tank() -> Card {
    card(
        "tank",
        UnitType::Vehicle,
        4,
        1,
        vec![weapon("cannon", WeaponRange::Upto(6), 1, 1)],
    )
}

/// Sends `text` from `side` with `faces` scripted; every scripted die must be used.
pub(super) fn play(st: &mut State, side: &str, text: &str, faces: &[u8]) -> Outcome {
    let lines: Vec<Line> = text
        .lines()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.into(),
        })
        .collect();
    let mut d = ScriptedDice::new(faces.to_vec());
    let out = DustTactics.submit(st, Sender::side(side), &lines, &mut d);
    assert_eq!(
        d.remaining(),
        0,
        "{text}: fewer dice rolled: {}",
        texts(&out)
    );
    out
}

/// `(reason, rule)` of a refused order, checking that the state did not change.
fn refused_unchanged(st: &mut State, side: &str, text: &str) -> (String, String) {
    let before = serde_json::to_string(&*st).unwrap();
    let out = play(st, side, text, &[]);
    let r = refused(&out);
    assert_eq!(serde_json::to_string(&*st).unwrap(), before, "{text}");
    r
}

// issue 18, 002 "Artillery Weapons": "An Artillery weapon can shoot over Vehicles, so Vehicles do
// not block Line of Sight." (R691) The allies' own vehicle on C5 stands between the gun crew on
// C7 and `theirs` on C3: the rifle is refused (003: a vehicle blocks), the shell fires (two army:
// two hits; both saves fail on targets): two soldiers lost.
#[test]
fn s002_artillery_vehicles_do_not_block_its_line_of_sight() {
    let mut st = bf_game(
        vec![gun_crew("crew", false), squad("sq"), tank()],
        &[("gun", "crew", "C7"), ("tank", "tank", "C5")],
        &[("theirs", "sq", "C3"), ("spare-x", "sq", "I1")],
    );
    let (reason, rule) = refused_unchanged(
        &mut st,
        "allies",
        "activate gun\n  attack rifle at theirs\n  nothing",
    );
    assert!(reason.contains("vehicle tank on C5"), "{reason}");
    assert!(rule.contains("003 \"Check Line of Sight\""), "{rule}");
    let out = play(
        &mut st,
        "allies",
        "activate gun\n  attack shell at theirs\n  nothing",
        &[1, 2, 3, 4],
    );
    assert!(texts(&out).contains("gun fires"), "{}", texts(&out));
    assert_eq!(u(&st, "theirs").models.len(), 2, "{}", texts(&out));
}

// R691: trees still block an artillery weapon's sight ("Vehicles do not block" is the only
// exception 002 makes): trees on C5 hide `theirs` from the shell.
#[test]
fn s002_artillery_terrain_still_blocks_its_line_of_sight() {
    let mut st = gun_game(false, "C7", "C3");
    st.scenario.board.set_terrain(sq("C5"), Terrain::Trees);
    let (reason, _) = refused_unchanged(
        &mut st,
        "allies",
        "activate gun\n  attack shell at theirs\n  nothing",
    );
    assert!(reason.contains("the trees on C5"), "{reason}");
}

// issue 18, 003 "Artillery Range (A)": "Some classic cards show a Range of A. These have a Range
// of 2-U and the Artillery special rule." (R691) An adjacent target is refused as out of range;
// two squares away (004's minimum is 4) and across the board it fires.
#[test]
fn s002_artillery_range_a_is_two_to_unlimited() {
    let mut st = gun_game(false, "C7", "C6");
    let (reason, _) = refused_unchanged(
        &mut st,
        "allies",
        "activate gun\n  attack shell at theirs\n  nothing",
    );
    assert!(reason.contains("not in range"), "{reason}");
    for at in ["C5", "C1"] {
        let mut st = gun_game(false, "C7", at);
        let out = play(
            &mut st,
            "allies",
            "activate gun\n  attack shell at theirs\n  nothing",
            &[5, 6],
        );
        assert!(texts(&out).contains("gun fires"), "{at}: {}", texts(&out));
    }
}

// issue 18, 002 "Artillery Weapons": "Artillery weapons cannot be fired from inside Area Terrain
// like buildings or woods" (R692). The gun crew stands in woods (trees on C7): the shell is
// refused, citing 002, and nothing changes; its rifle fires from there as any weapon does.
#[test]
fn s002_artillery_not_fired_from_inside_woods() {
    let mut st = gun_game(false, "C7", "C3");
    st.scenario.board.set_terrain(sq("C7"), Terrain::Trees);
    let (reason, rule) = refused_unchanged(
        &mut st,
        "allies",
        "activate gun\n  attack shell at theirs\n  nothing",
    );
    assert!(reason.contains("from inside the woods"), "{reason}");
    assert!(rule.contains("002 \"Artillery Weapons\""), "{rule}");
    let out = play(
        &mut st,
        "allies",
        "activate gun\n  attack rifle at theirs\n  nothing",
        &[5],
    );
    assert!(texts(&out).contains("gun fires"), "{}", texts(&out));
}

// R690: 002's Artillery weapons have no Loaded token of their own (only "Reload Weapons" do): a
// shell without `reloadable` fires in one round and again in the next, no reload between.
#[test]
fn s002_artillery_without_reload_needs_no_loaded_token() {
    let mut st = gun_game(false, "C7", "C3");
    let order = "activate gun\n  attack shell at theirs\n  nothing";
    play(&mut st, "allies", order, &[5, 6]);
    assert!(u(&st, "gun").unloaded.is_empty());
    next_round(&mut st);
    let out = play(&mut st, "allies", order, &[5, 6]);
    assert!(texts(&out).contains("gun fires"), "{}", texts(&out));
}

// issue 18, 002 "Reload Weapons": "When a Reload weapon makes an Attack or Sustained Attack
// Action, remove the Loaded token from the Unit Card to indicate that the weapon is empty." and
// "The Unit cannot attack with any Reload weapons unless it has its Loaded token." (R690) The
// reloadable shell fires and is empty; in the next round its attack is refused, citing 002.
#[test]
fn s002_reload_a_fired_reload_weapon_is_empty_until_reloaded() {
    let mut st = gun_game(true, "C7", "C3");
    let order = "activate gun\n  attack shell at theirs\n  nothing";
    play(&mut st, "allies", order, &[5, 6]);
    assert!(u(&st, "gun").unloaded.contains("shell"));
    next_round(&mut st);
    let (reason, rule) = refused_unchanged(&mut st, "allies", order);
    assert!(reason.contains("is not loaded"), "{reason}");
    assert!(rule.contains("002 \"Reload Weapons\""), "{rule}");
}

// issue 18, 002 "Reload Weapons": "To reload, the Unit performs a Reload Special Action and
// places the Loaded token back on the Unit Card. A Unit can perform an Attack Action and a Reload
// Action in the same Activation, allowing it to attack each turn." (R690) Reload then attack:
// the empty shell fires (and is empty again); attack then reload: it ends the activation loaded.
#[test]
fn s002_reload_special_action_before_or_after_the_attack() {
    let mut st = gun_game(true, "C7", "C3");
    st.unit_mut("gun").unwrap().unloaded.insert("shell".into());
    let out = play(
        &mut st,
        "allies",
        "activate gun\n  skill reload\n  attack shell at theirs",
        &[5, 6],
    );
    assert!(texts(&out).contains("gun reloads shell"), "{}", texts(&out));
    assert!(texts(&out).contains("gun fires"), "{}", texts(&out));
    assert!(u(&st, "gun").unloaded.contains("shell"));

    let mut st = gun_game(true, "C7", "C3");
    let out = play(
        &mut st,
        "allies",
        "activate gun\n  attack shell at theirs\n  skill reload",
        &[5, 6],
    );
    assert!(texts(&out).contains("gun reloads shell"), "{}", texts(&out));
    assert!(u(&st, "gun").unloaded.is_empty());
}

// R690: a Reload Special Action with nothing empty is refused, citing 002, and changes nothing.
#[test]
fn s002_reload_nothing_to_reload_is_refused() {
    let mut st = gun_game(true, "C7", "C3");
    let (reason, rule) =
        refused_unchanged(&mut st, "allies", "activate gun\n  skill reload\n  nothing");
    assert!(reason.contains("no empty weapon"), "{reason}");
    assert!(rule.contains("002 \"Reload Weapons\""), "{rule}");
}

// R690, R691: a battlefront-2013 card may carry the range `A` and the `reloadable` trait (they
// were refused at `new`, R236); 004's other special weapons (here `burst`) still are.
#[test]
fn s002_artillery_and_reload_cards_are_accepted_at_new() {
    let text = |traits: &str| {
        format!(
            "id = \"crew\"\nname = \"Gun carriage\"\nfaction = \"allies\"\nunit_type = \"vehicle\"\narmour = {{ vehicle = 2 }}\nmovement = 1\nhealth = 2\nap = 10\n\n[[weapons]]\nid = \"shell\"\nname = \"Shell\"\nrange = \"A\"\nsoldier = [\"2/1\", \"2/1\", \"2/1\", \"2/1\"]\nvehicle = [\"1/1\", \"1/1\", \"1/1\", \"1/1\", \"1/1\", \"1/1\", \"1/1\"]\naircraft = [\"-\", \"-\", \"-\"]\ntraits = [{traits}]\n"
        )
    };
    let check = |t: String| {
        dustmail::dust_tactics::cards::parse_card("crew.toml", &t).expect("the card parses");
        let files = [("crew.toml".to_string(), t)].into_iter().collect();
        dustmail::dust_tactics::battlefront::skills::check_cards(&files)
    };
    check(text("\"reloadable\"")).expect("artillery and reload accepted");
    let e = check(text("\"burst\"")).unwrap_err();
    assert!(e.contains("burst"), "{e}");
}
