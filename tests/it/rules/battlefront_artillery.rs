//! Issue 18: 002's "Artillery Weapons", "Reload Weapons" and the skill "Artillery Observer" under
//! battlefront-2013 (rulings R690–R699). A gun crew (allies) carries `shell`, a range `A` line,
//! and `rifle`, range 6; the axis squad `theirs` is its target. Scripted dice (1, 2 army; 3, 4
//! target; 5, 6 shield): the saves are scripted as targets, which fail whatever the cover.

use crate::support_flow::*;
use dustmail::dust_tactics::model::{Card, Terrain, UnitType, WeaponRange, WeaponTrait};
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};

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

/// The gun crew on C9 (`reload`: its shell is a Reload weapon), trees on C5 between it and
/// `theirs` on C3, the observer squad `obs` (with Artillery Observer unless `bare`) on F5.
fn observer_game(reload: bool, bare: bool) -> State {
    let obs = if bare {
        squad("spotters")
    } else {
        with_skill(squad("spotters"), "artillery-observer", None)
    };
    let mut st = bf_game(
        vec![gun_crew("crew", reload), squad("sq"), obs],
        &[("gun", "crew", "C9"), ("obs", "spotters", "F5")],
        &[("theirs", "sq", "C3"), ("spare-x", "sq", "I1")],
    );
    st.scenario.board.set_terrain(sq("C5"), Terrain::Trees);
    st
}

const OBSERVE: &str = "activate obs\n  skill artillery-observer gun at theirs\n  nothing";

// issue 18, 002 "Artillery Observer": "When a Unit with Artillery Observer performs an Attack or
// Sustained Attack Action, they may use Artillery weapons ... of a friendly Unit that has not yet
// Activated ... The Artillery Unit immediately Activates and performs an Attack ... The Artillery
// Unit uses the Artillery Observer to determine Line of Sight rather than its own position"
// (R693). The trees on C5 hide `theirs` from the gun (its own attack is refused); the observer on
// F5 sees it: the gun fires (two army: two hits, both saves fail) and its activation is used.
#[test]
fn s002_artillery_observer_the_gun_fires_at_what_the_observer_sees() {
    let mut st = observer_game(false, false);
    let (reason, _) = refused_unchanged(
        &mut st,
        "allies",
        "activate gun\n  attack shell at theirs\n  nothing",
    );
    assert!(reason.contains("the trees on C5"), "{reason}");
    let out = play(&mut st, "allies", OBSERVE, &[1, 2, 3, 4]);
    let t = texts(&out);
    assert!(t.contains("obs observes for gun"), "{t}");
    assert!(t.contains("gun fires"), "{t}");
    assert_eq!(u(&st, "theirs").models.len(), 2, "{t}");
    assert!(u(&st, "gun").activated, "{t}");
    assert!(u(&st, "obs").activated, "{t}");
}

// R693: "a friendly Unit that has not yet Activated": a gun that has activated is refused; so is
// an observer without the skill, and one that does not see the target (trees on E4 and D4 hide
// it); each refusal cites 002 and changes nothing.
#[test]
fn s002_artillery_observer_needs_the_skill_sight_and_an_unactivated_gun() {
    let mut st = observer_game(false, false);
    st.unit_mut("gun").unwrap().activated = true;
    let (reason, rule) = refused_unchanged(&mut st, "allies", OBSERVE);
    assert!(reason.contains("gun has already activated"), "{reason}");
    assert!(rule.contains("002 \"Artillery Observer\""), "{rule}");

    let mut st = observer_game(false, true);
    let (reason, rule) = refused_unchanged(&mut st, "allies", OBSERVE);
    assert!(
        reason.contains("does not have the Artillery Observer skill"),
        "{reason}"
    );
    assert!(rule.contains("002 \"Artillery Observer\""), "{rule}");

    let mut st = observer_game(false, false);
    for t in ["E4", "D4", "E3", "D3", "F4", "F3"] {
        st.scenario.board.set_terrain(sq(t), Terrain::Trees);
    }
    let (reason, _) = refused_unchanged(&mut st, "allies", OBSERVE);
    assert!(reason.contains("obs cannot see theirs"), "{reason}");
}

// R693: the gun "must check its Field of Fire and Range as normal": a target one square from
// the gun is out of the artillery's range (2-U), whatever the observer sees.
#[test]
fn s002_artillery_observer_range_is_the_guns() {
    let mut st = bf_game(
        vec![
            gun_crew("crew", false),
            squad("sq"),
            with_skill(squad("spotters"), "artillery-observer", None),
        ],
        &[("gun", "crew", "C4"), ("obs", "spotters", "F5")],
        &[("theirs", "sq", "C3"), ("spare-x", "sq", "I1")],
    );
    let (reason, rule) = refused_unchanged(&mut st, "allies", OBSERVE);
    assert!(reason.contains("not in range"), "{reason}");
    assert!(rule.contains("002 \"Artillery Observer\""), "{rule}");
}

// issue 18, 002 "Artillery Observer": "If the Artillery weapon is a Reload weapon ... and did
// not perform a Sustained Attack action, it may perform a Reload Action either before or after
// the Attack Action." (R694) An empty shell is reloaded before and fires (empty again); a loaded
// one fires and is reloaded after (loaded again).
#[test]
fn s002_artillery_observer_reload_before_or_after_the_attack() {
    let mut st = observer_game(true, false);
    st.unit_mut("gun").unwrap().unloaded.insert("shell".into());
    let out = play(&mut st, "allies", OBSERVE, &[5, 6]);
    let t = texts(&out);
    assert!(t.contains("gun reloads shell"), "{t}");
    assert!(t.contains("gun fires"), "{t}");
    assert!(u(&st, "gun").unloaded.contains("shell"), "{t}");

    let mut st = observer_game(true, false);
    let out = play(&mut st, "allies", OBSERVE, &[5, 6]);
    let t = texts(&out);
    assert!(t.contains("gun fires"), "{t}");
    assert!(t.contains("gun reloads shell"), "{t}");
    assert!(u(&st, "gun").unloaded.is_empty(), "{t}");
}

// R694: a Sustained Attack leaves no Reload Action: an empty Reload weapon is refused; a loaded
// one makes the Sustained Attack (`skill artillery-observer sustained …`, both actions: army and
// shield, the shield re-rolled to army; both saves fail) and is left empty.
#[test]
fn s002_artillery_observer_sustained_attack() {
    let order = "activate obs\n  skill artillery-observer sustained gun at theirs";
    let mut st = observer_game(true, false);
    st.unit_mut("gun").unwrap().unloaded.insert("shell".into());
    let (reason, _) = refused_unchanged(&mut st, "allies", order);
    assert!(reason.contains("no Reload Action"), "{reason}");

    let mut st = observer_game(true, false);
    let out = play(&mut st, "allies", order, &[1, 5, 2, 3, 4]);
    let t = texts(&out);
    assert!(t.contains("Sustained Attack"), "{t}");
    assert_eq!(u(&st, "theirs").models.len(), 2, "{t}");
    assert!(u(&st, "gun").unloaded.contains("shell"), "{t}");
}

// R693: the orders template offers the observer's attack with each gun it may call, and every
// suggestion is accepted; once the gun has activated it is offered no more.
#[test]
fn s002_artillery_observer_the_template_offers_it_only_when_accepted() {
    let st = observer_game(false, false);
    let all = crate::legal_template::every_suggestion_accepted(&st, "allies", "observer");
    assert!(
        all.iter()
            .any(|o| o.contains("skill artillery-observer gun at theirs")),
        "{all:?}"
    );
    let mut st = observer_game(false, false);
    st.unit_mut("gun").unwrap().activated = true;
    let all = crate::legal_template::every_suggestion_accepted(&st, "allies", "observer");
    assert!(
        !all.iter().any(|o| o.contains("artillery-observer")),
        "{all:?}"
    );
}

// issue 18, 002 "Camouflage": "This benefit ends if the Camouflaged Unit takes any Action other
// than a Move or Nothing Action (Artillery Observers can use their Skill to attack with an
// Artillery Unit as well)." (R695) A Camouflaged observer calls the gun: it is Camouflaged no
// more.
#[test]
fn s002_artillery_observer_its_attack_ends_its_camouflage() {
    let obs = with_skill(
        with_skill(squad("spotters"), "artillery-observer", None),
        "camouflage",
        None,
    );
    let mut st = bf_game(
        vec![gun_crew("crew", false), squad("sq"), obs],
        &[("gun", "crew", "C9"), ("obs", "spotters", "F5")],
        &[("theirs", "sq", "C3"), ("spare-x", "sq", "I1")],
    );
    assert!(!u(&st, "obs").uncamouflaged);
    let out = play(&mut st, "allies", OBSERVE, &[5, 6]);
    assert!(texts(&out).contains("gun fires"), "{}", texts(&out));
    assert!(u(&st, "obs").uncamouflaged, "{}", texts(&out));
}

/// The gun crew with `rockets`, a Salvo line (range 6, 2 dice, one carrier), on C7; `theirs` on
/// C3.
fn salvo_game() -> State {
    let mut c = gun_crew("crew", false);
    let mut rockets = weapon("rockets", WeaponRange::Upto(6), 2, 1);
    rockets.carriers = Some(1);
    rockets.traits.push(WeaponTrait::Salvo);
    c.weapons.push(rockets);
    bf_game(
        vec![c, squad("sq")],
        &[("gun", "crew", "C7"), ("spare-a", "sq", "A9")],
        &[("theirs", "sq", "C3"), ("spare-x", "sq", "I1")],
    )
}

// issue 18, 002 "Salvo Weapons": "At the beginning of the game, place a Loaded token on each Unit
// with Salvo weapons. When a player makes an Attack or Sustained Attack Action, they can choose
// to roll twice the normal number of dice for a Salvo weapon, but if they do so, they remove the
// Loaded token from the Unit Card." (R696) With `skill salvo` the rockets roll four dice (army,
// three shields: one hit, its save fails on a target) and are emptied; without it, two dice and
// the token stays.
#[test]
fn s002_salvo_twice_the_dice_by_choice_emptying_the_loaded_token() {
    let mut st = salvo_game();
    let out = play(
        &mut st,
        "allies",
        "activate gun\n  skill salvo\n  attack rockets at theirs\n  nothing",
        &[1, 5, 5, 5, 3],
    );
    let t = texts(&out);
    assert!(t.contains("double dice"), "{t}");
    assert_eq!(u(&st, "theirs").models.len(), 3, "{t}");
    assert!(u(&st, "gun").unloaded.contains("rockets"), "{t}");

    let mut st = salvo_game();
    let out = play(
        &mut st,
        "allies",
        "activate gun\n  attack rockets at theirs\n  nothing",
        &[5, 5],
    );
    assert!(!texts(&out).contains("double dice"), "{}", texts(&out));
    assert!(u(&st, "gun").unloaded.is_empty());
}

// R696: an empty Salvo weapon still fires at its controlled rate (002 asks the token only of a
// salvo); `skill salvo` is refused citing 002 and changes nothing; "To reload, the Unit performs
// a Reload Special Action and places the Loaded token back on the Unit Card".
#[test]
fn s002_salvo_empty_fires_at_its_normal_rate_until_reloaded() {
    let mut st = salvo_game();
    st.unit_mut("gun")
        .unwrap()
        .unloaded
        .insert("rockets".into());
    let (reason, rule) = refused_unchanged(
        &mut st,
        "allies",
        "activate gun\n  skill salvo\n  attack rockets at theirs\n  nothing",
    );
    assert!(reason.contains("no Loaded token"), "{reason}");
    assert!(rule.contains("002 \"Salvo Weapons\""), "{rule}");
    let out = play(
        &mut st,
        "allies",
        "activate gun\n  attack rockets at theirs\n  skill reload",
        &[5, 5],
    );
    let t = texts(&out);
    assert!(t.contains("gun reloads rockets"), "{t}");
    assert!(u(&st, "gun").unloaded.is_empty(), "{t}");
}

// R696: `salvo` is 002's trait: a card naming it is refused when read for the other rulesets,
// and read under battlefront-2013.
#[test]
fn s002_salvo_is_battlefronts_trait() {
    let text = "id = \"crew\"\nname = \"Rocket carriage\"\nfaction = \"allies\"\nunit_type = \"vehicle\"\narmour = { vehicle = 2 }\nmovement = 1\nhealth = 2\nap = 10\n\n[[weapons]]\nid = \"rockets\"\nname = \"Rockets\"\nrange = \"6\"\nsoldier = [\"2/1\", \"2/1\", \"2/1\", \"2/1\"]\nvehicle = [\"1/1\", \"1/1\", \"1/1\", \"1/1\", \"1/1\", \"1/1\", \"1/1\"]\naircraft = [\"-\", \"-\", \"-\"]\ntraits = [\"salvo\"]\n";
    let e = dustmail::dust_tactics::cards::parse_card_for_new("crew.toml", text).unwrap_err();
    assert!(e.reason.contains("R696"), "{e}");
    let files = [("crew.toml".to_string(), text.to_string())]
        .into_iter()
        .collect();
    dustmail::dust_tactics::battlefront::skills::check_cards(&files).expect("battlefront reads it");
}

// The provisional cards of games/dust-tactics/cards-battlefront-artillery/ (a gun crew with a
// Reload howitzer, range A; forward observers with Artillery Observer) in their scenario
// "Barrage", played to its end by two players' signed mails: the howitzer fires, called by the
// observers too, and is reloaded; the game ends and replays byte for byte (R690-R695).
#[test]
fn s002_artillery_barrage_is_played_to_its_end_by_mail() {
    use crate::support::dt;
    use dustmail::dust_tactics::bot::Style;
    let dir = tempfile::tempdir().unwrap();
    let (home, env) = dt::play_cards_to_end(
        dir.path(),
        "battlefront-2013",
        ("cards-battlefront-artillery", "barrage"),
        ("g-barrage", 19),
        |_| Style::Aggressive,
    );
    let g = env.load("g-barrage");
    let sent = dt::sent_text(&home);
    let tail = dt::tail(&sent, 6000);
    assert!(g.derived.finished.is_some(), "the game did not end: {tail}");
    assert!(
        sent.contains("gun-crew fires"),
        "the howitzer never fired: {tail}"
    );
    assert!(
        sent.contains("observers observes for gun-crew"),
        "the observers never called the gun: {tail}"
    );
    assert!(
        sent.contains("gun-crew reloads howitzer"),
        "never reloaded: {tail}"
    );
    dt::replay_and_audit(&home, "g-barrage");
}

// issue 18, 002 "Smoke Screen": "An Artillery weapon can fire smoke shells instead of
// explosives. If they do this, the Artillery weapon does not attack. Instead, the player rolls a
// die. On a [lost symbol], the player chooses a point within the weapon's Field of fire, Range and
// Line of Sight and places a Smoke Screen at that point. The Smoke Screen remains in place,
// blocking Line of Sight ... until the end of the next turn." (R697, the lost symbol read as
// army) The die shows army: C5 is smoke, and the rifle's line to `theirs` on C3 is blocked; on a
// shield nothing is laid.
#[test]
fn s002_smoke_screen_on_army_a_smoke_square_until_the_end_of_the_next_turn() {
    let order = "activate gun\n  skill smoke-screen at C5\n  nothing";
    let mut st = gun_game(false, "C7", "C3");
    let out = play(&mut st, "allies", order, &[1]);
    let t = texts(&out);
    assert!(t.contains("a Smoke Screen on C5"), "{t}");
    assert_eq!(st.scenario.board.terrain(sq("C5")), Terrain::Smoke, "{t}");
    assert_eq!(st.smoke.len(), 1);
    assert_eq!(st.smoke[0].until, st.round + 1);
    assert_eq!(u(&st, "theirs").models.len(), 4, "no attack: {t}");

    let mut st = gun_game(false, "C7", "C3");
    let out = play(&mut st, "allies", order, &[5]);
    assert!(texts(&out).contains("no Smoke Screen"), "{}", texts(&out));
    assert_eq!(st.scenario.board.terrain(sq("C5")), Terrain::Open);
}

// R697: the point must be within the weapon's Range (2-U) and Line of Sight; the engine lays
// smoke on open squares only; each refusal cites 002 and changes nothing; a unit with no
// artillery weapon fires no smoke.
#[test]
fn s002_smoke_screen_range_sight_and_open_squares_only() {
    let mut st = gun_game(false, "C7", "C3");
    let (reason, rule) = refused_unchanged(
        &mut st,
        "allies",
        "activate gun\n  skill smoke-screen at C6\n  nothing",
    );
    assert!(reason.contains("not in range"), "{reason}");
    assert!(rule.contains("002 \"Smoke Screen\""), "{rule}");
    st.scenario.board.set_terrain(sq("C5"), Terrain::Trees);
    let (reason, _) = refused_unchanged(
        &mut st,
        "allies",
        "activate gun\n  skill smoke-screen at C5\n  nothing",
    );
    assert!(reason.contains("open squares only"), "{reason}");
    let (reason, _) = refused_unchanged(
        &mut st,
        "allies",
        "activate gun\n  skill smoke-screen at C4\n  nothing",
    );
    assert!(reason.contains("cannot see C4"), "{reason}");
    let (reason, _) = refused_unchanged(
        &mut st,
        "allies",
        "activate spare-a\n  skill smoke-screen at A6\n  nothing",
    );
    assert!(reason.contains("no artillery weapon"), "{reason}");
}
