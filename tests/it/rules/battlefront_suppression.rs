//! Issue 18: 002's Under Fire and Suppressed tokens under battlefront-2013 (rules revision 8,
//! rulings R702–R706 amending R264), with Brave and Commissar. Each test quotes 002 and is played
//! through the engine with scripted dice (every scripted die used, none more). Page 58 of *Dust
//! Tactics Battlefield*, which 002 points to, is in no seed: what gives a token (R703) and which
//! removal roll succeeds (R704) are provisional, chosen from 002's own examples.

use super::battlefront_skills::{accepted_all, chargers, lara};
use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::suppression::Token;
use dustmail::dust_tactics::model::Card;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};

/// A battlefront-2013 game: the chargers `ours` (allies, E7: four soldiers with a gun of range
/// 4) against `theirs` of card `theirs` (axis, E4), with `hero` joined to it when given; an
/// allied spare squad on D7 and two axis ones far off (so the round goes on); nobody reacts, allies activate first.
fn duel(theirs: Card, hero: Option<Card>) -> State {
    let mut axis = vec![
        unit("theirs", &theirs.id, Some("E4")),
        unit("spare-x", "sq", Some("I1")),
        unit("spare-y", "sq", Some("I2")),
    ];
    let mut cards = vec![chargers(None), squad("sq")];
    if theirs.id != "sq" {
        cards.push(theirs);
    }
    if let Some(h) = hero {
        let mut hq = unit("hq", &h.id, Some("E4"));
        hq.joins = Some("theirs".into());
        axis.push(hq);
        cards.push(h);
    }
    let s = scenario(
        vec![
            unit("ours", "chargers", Some("E7")),
            unit("spare-a", "sq", Some("D7")),
        ],
        axis,
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// One attack of the four guns at `theirs`: army, shield, shield, shield: one hit; its
/// Infantry Save rolls a shield and fails: one miniature lost.
const ONE_HIT: [u8; 5] = [1, 5, 5, 5, 5];

/// The allies' activation: one attack that hits `theirs` once, then Nothing.
fn hit_once(st: &mut State) {
    let out = play(
        st,
        "allies",
        "activate ours\n  attack gun at theirs\n  nothing",
        &ONE_HIT,
    );
    assert!(accepted_all(&out), "{}", texts(&out));
}

/// Two attacks that hit `theirs` once each: `ours`, then (after the axis spare's turn of
/// Nothing) the allied spare on D7; the report of the second.
fn hit_twice(st: &mut State) -> String {
    hit_once(st);
    hit_again(st)
}

/// The second of [`hit_twice`]'s attacks, with the axis spare's turn before it.
fn hit_again(st: &mut State) -> String {
    let mut t = String::new();
    for (side, text, faces) in [
        ("axis", "activate spare-x\n  nothing\n  nothing", &[][..]),
        (
            "allies",
            "activate spare-a\n  attack gun at theirs\n  nothing",
            &ONE_HIT[..],
        ),
    ] {
        let out = play(st, side, text, faces);
        t.push_str(&texts(&out));
        assert!(accepted_all(&out), "{t}");
    }
    t
}

// 002 "Tesla Weapons" example: "As the Death Masks already had an Under Fire token, they replace
// that with a Suppression token for being hit again." A unit an attack damages gains Under Fire;
// hit again, Suppressed (R703).
#[test]
fn s002_suppression_a_unit_hit_gains_under_fire_then_suppressed_when_hit_again() {
    let mut st = duel(squad("sq"), None);
    assert_eq!(u(&st, "theirs").suppression, None);
    hit_once(&mut st);
    assert_eq!(u(&st, "theirs").suppression, Some(Token::UnderFire));
    let t = hit_again(&mut st);
    assert!(
        t.contains("theirs is hit again: its Under Fire token is replaced by a Suppressed token"),
        "{t}"
    );
    let th = u(&st, "theirs");
    assert_eq!(
        (th.models.len(), th.suppression),
        (2, Some(Token::Suppressed))
    );
}

// 002 "Tesla Weapons" example: "When the Death Masks activate, they roll to recover from being
// Suppressed. They fail the roll, remaining Suppressed, so must take a Nothing Action as their
// first action. Having a Stunned token from the Tesla attack also requires them to take a
// Nothing Action as their first Action to remove the Stunned token. They then move out of sight
// as their second action, remaining Suppressed." The squad is Suppressed by two hits; its
// Stunned token is set by hand (no battlefront card carries a Tesla weapon, R563). Two dice,
// shield and shield: no army symbol (R704); one Nothing serves both tokens; the move is played.
#[test]
fn s002_suppression_death_masks_example_fail_the_roll_take_nothing_then_move_still_suppressed() {
    let mut st = duel(squad("sq"), None);
    hit_twice(&mut st);
    st.unit_mut("theirs").expect("theirs").stunned = true;
    let out = play(
        &mut st,
        "axis",
        "activate theirs\n  nothing\n  move E3",
        &[5, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("theirs rolls 2 dice to recover from being Suppressed (shield, shield): no army symbol, it remains Suppressed"), "{t}");
    assert!(t.contains("removes its Stunned token"), "{t}");
    let th = u(&st, "theirs");
    assert_eq!(
        (th.at, th.stunned, th.suppression),
        (Some(sq("E3")), false, Some(Token::Suppressed)),
        "{t}"
    );
}

// 002 "Heroes and Suppression": "If however, the Unit remains Suppressed, the Hero must take a
// Nothing Action with them as their first Action." A Suppressed unit that orders `move` then
// `attack` and fails its roll takes the Nothing action first: its first ordered action (the
// move) is its second, and the attack is not made (R704): no attack die is rolled.
#[test]
fn s002_suppression_a_suppressed_unit_that_fails_takes_nothing_first_and_its_first_order_second() {
    let mut st = duel(squad("sq"), None);
    hit_twice(&mut st);
    let out = play(
        &mut st,
        "axis",
        "activate theirs\n  move E3\n  attack gun at ours",
        &[3, 6],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("so takes a Nothing action as its first action; its first ordered action is its second and the rest of its orders is not played"), "{t}");
    let th = u(&st, "theirs");
    assert_eq!(
        (th.at, th.activated, th.suppression),
        (Some(sq("E3")), true, Some(Token::Suppressed)),
        "{t}"
    );
    assert_eq!(u(&st, "ours").models.len(), 4, "{t}");
    assert!(!t.contains("theirs fires"), "{t}");
}

// 002 "Heroes and Suppression" (R704): a Suppressed unit that fails its roll takes a Nothing
// action first, so a first order counting as both actions (003 "Actions": "Sustained Attack
// (uses two actions)") cannot follow it: nothing it ordered is played, no attack die.
#[test]
fn s002_suppression_a_suppressed_unit_that_fails_makes_no_sustained_attack() {
    let mut st = duel(squad("sq"), None);
    hit_twice(&mut st);
    let out = play(
        &mut st,
        "axis",
        "activate theirs\n  sustained gun at ours",
        &[4, 6],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("counts as two actions (003: a Sustained Attack \"uses two actions\"), so none of its orders is played"), "{t}");
    assert!(!t.contains("theirs fires"), "{t}");
    let th = u(&st, "theirs");
    assert_eq!(
        (th.activated, th.suppression),
        (true, Some(Token::Suppressed)),
        "{t}"
    );
    assert_eq!(u(&st, "ours").models.len(), 4, "{t}");
}

// 002 "Brave": "A Brave Unit rolls three dice instead of two when rolling to remove Under Fire or
// Suppressed tokens": two dice otherwise. On an army symbol the token is removed (R704) and the
// unit plays both its actions: the attack (two soldiers left, two dice, both miss), then the move.
#[test]
fn s002_suppression_an_army_symbol_removes_the_token_and_both_actions_are_played() {
    let mut st = duel(squad("sq"), None);
    hit_twice(&mut st);
    let out = play(
        &mut st,
        "axis",
        "activate theirs\n  attack gun at ours\n  move E3",
        &[5, 2, 5, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(
        t.contains("theirs rolls 2 dice to remove its Suppressed token (shield, army): an army symbol, the token is removed"),
        "{t}"
    );
    let th = u(&st, "theirs");
    assert_eq!((th.at, th.suppression), (Some(sq("E3")), None), "{t}");
}

// 002 "Brave" and "Commissar": "when rolling to remove Under Fire or Suppressed tokens": Under
// Fire is rolled off too. A failed roll leaves it; Under Fire alone imposes no Nothing action
// (R703): the unit moves and attacks as ordered (three soldiers, three dice, all shields).
#[test]
fn s002_suppression_under_fire_is_rolled_off_and_a_failed_roll_leaves_the_actions_free() {
    let mut st = duel(squad("sq"), None);
    hit_once(&mut st);
    assert_eq!(u(&st, "theirs").suppression, Some(Token::UnderFire));
    let out = play(
        &mut st,
        "axis",
        "activate theirs\n  move E3\n  attack gun at ours",
        &[5, 6, 5, 5, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(
        t.contains("theirs rolls 2 dice to remove its Under Fire token (shield, shield): no army symbol, it stays Under Fire"),
        "{t}"
    );
    assert!(t.contains("theirs fires"), "{t}");
    let th = u(&st, "theirs");
    assert_eq!(
        (th.at, th.suppression),
        (Some(sq("E3")), Some(Token::UnderFire)),
        "{t}"
    );
}

/// The axis unit activates with `move E3`, `nothing` and rolls `faces` to remove its token.
fn roll_off(st: &mut State, faces: &[u8]) -> String {
    let out = play(st, "axis", "activate theirs\n  move E3\n  nothing", faces);
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    t
}

// 002 "Brave": "A Brave Unit rolls three dice instead of two when rolling to remove Under Fire or
// Suppressed tokens (see page 58)." Two shields, then an army on the third die (R705).
#[test]
fn s002_brave_a_brave_unit_rolls_three_dice_to_remove_its_token() {
    let mut st = duel(with_skill(squad("braves"), "brave", None), None);
    hit_once(&mut st);
    let t = roll_off(&mut st, &[5, 6, 1]);
    assert!(
        t.contains("theirs rolls 3 dice to remove its Under Fire token (shield, shield, army)"),
        "{t}"
    );
    assert_eq!(u(&st, "theirs").suppression, None, "{t}");
}

// 002 "Commissar": "A Commissar must be attached to an Infantry Unit at the start of the game,
// becoming part of the Unit for the rest of the game. A Unit with a Commissar rolls three dice
// instead of two when rolling to remove Under Fire or Suppressed tokens" (R705): the squad's
// card names him; a card that is not a squad's is refused at `new`.
#[test]
fn s002_commissar_a_unit_with_a_commissar_rolls_three_dice_and_only_a_squad_has_one() {
    let mut st = duel(with_skill(squad("comrades"), "commissar", None), None);
    hit_once(&mut st);
    let t = roll_off(&mut st, &[5, 6, 1]);
    assert!(
        t.contains("theirs rolls 3 dice to remove its Under Fire token"),
        "{t}"
    );
    assert_eq!(u(&st, "theirs").suppression, None, "{t}");
    let check = dustmail::dust_tactics::battlefront::skills::check_cards;
    let squad_card = super::battlefront_skills002::card_with(
        "bf-grim-reapers",
        "[[skills]]\nname = \"commissar\"",
    );
    assert_eq!(
        check(&std::collections::BTreeMap::from([squad_card])),
        Ok(())
    );
    let hero_card = super::battlefront_skills002::card_with(
        "bf-bazooka-joe",
        "[[skills]]\nname = \"commissar\"",
    );
    let e = check(&std::collections::BTreeMap::from([hero_card])).unwrap_err();
    assert!(
        e.contains("`commissar`")
            && e.contains("attached to an Infantry Unit")
            && e.contains("R705"),
        "{e}"
    );
}

// 002 "Heroes and Suppression": "If a Hero Activates with a Unit that has an Under Fire or
// Suppression token, they roll three dice when rolling to remove the token." The squad's token
// is set by hand (the gaining is tested above); its joined hero makes the roll three dice.
#[test]
fn s002_heroes_and_suppression_a_hero_activating_with_the_unit_rolls_three_dice() {
    let mut st = duel(squad("sq"), Some(lara(false)));
    assert_eq!(u(&st, "hq").joined.as_deref(), Some("theirs"));
    st.unit_mut("theirs").expect("theirs").suppression = Some(Token::Suppressed);
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  nothing\n  nothing",
        &[],
    );
    assert!(accepted_all(&out), "{}", texts(&out));
    let t = roll_off(&mut st, &[6, 5, 2]);
    assert!(
        t.contains("theirs rolls 3 dice to remove its Suppressed token (shield, shield, army)"),
        "{t}"
    );
    assert_eq!(u(&st, "theirs").suppression, None, "{t}");
}

// 002 "Heroes and Suppression": "Heroes can never be Suppressed, so do not receive Under Fire and
// Suppressed tokens"; 002 "Zombie": "A Zombie Unit can never be Suppressed, so never receive
// Under Fire or Suppression tokens" (R706). Each is hit and damaged, gains no token, and rolls
// no removal die when it activates.
#[test]
fn s002_suppression_heroes_and_zombies_are_never_suppressed() {
    for theirs in [lara(false), with_skill(squad("zombies"), "zombie", None)] {
        let what = theirs.id.clone();
        let mut st = duel(theirs, None);
        hit_once(&mut st);
        let th = u(&st, "theirs");
        assert!(
            th.health < 2 || th.models.len() == 3,
            "{what} was not damaged"
        );
        assert_eq!(th.suppression, None, "{what}");
        let t = roll_off(&mut st, &[]);
        assert!(!t.contains("dice to remove"), "{what}: {t}");
    }
}

// R702: suppression came with rules revision 8; a battlefront-2013 game made before has no
// tokens and replays unchanged: the same hit gives none and the activation rolls no die.
#[test]
fn s002_suppression_a_game_made_before_rules_revision_8_has_no_tokens() {
    let mut st = duel(squad("sq"), None);
    st.rules_revision = 7;
    hit_once(&mut st);
    assert_eq!(u(&st, "theirs").suppression, None);
    let t = roll_off(&mut st, &[]);
    assert!(!t.contains("Under Fire"), "{t}");
}

// R702: the report shows the tokens: the text board names each by the unit's marker on its own
// `Tokens:` lines (72 columns), "Under Fire" after one hit, "Suppressed" once it is; the board
// picture puts a lettered badge on the counter ("UF", "S"), none before.
#[test]
fn s002_suppression_the_text_board_and_the_picture_show_the_token() {
    let mut st = duel(squad("sq"), None);
    let board = |st: &State| dustmail::dust_tactics::view::board_text(st);
    let text = board(&st);
    let line = text.lines().find(|l| l.contains(" theirs (axis"));
    let marker = line
        .expect("theirs listed")
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let svg = super::battlefront_trenches_board::svg;
    assert!(!text.contains("Tokens:"), "{text}");
    assert!(!svg(&st).contains("class=\"suppression\""));
    hit_once(&mut st);
    let text = board(&st);
    assert!(
        text.contains(&format!("Tokens: {marker} Under Fire\n")),
        "{text}"
    );
    let pic = svg(&st);
    assert!(
        pic.contains(r#"class="suppression" data-square="E4""#),
        "{pic}"
    );
    assert!(pic.contains(">UF</text><title>Under Fire</title>"), "{pic}");
    // The second hit's rule is tested above: the token is set by hand here.
    st.unit_mut("theirs").expect("theirs").suppression = Some(Token::Suppressed);
    let text = board(&st);
    assert!(
        text.contains(&format!("Tokens: {marker} Suppressed\n")),
        "{text}"
    );
    assert!(svg(&st).contains(">S</text><title>Suppressed</title>"));
}
