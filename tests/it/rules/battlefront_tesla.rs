//! Issue 18: 002 "Tesla Weapons" and "Volley Weapons" under battlefront-2013 (seed 002, lines
//! ~580–620; rulings R750–R753). Each test quotes 002 and plays the weapon through the engine
//! with scripted dice (faces 1–2 army, 3–4 target, 5–6 shield), every scripted die used.

use super::battlefront_skills::accepted_all;
use crate::support_flow::*;
use dustmail::dust_tactics::battlefront::suppression::Token;
use dustmail::dust_tactics::model::*;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};

/// A Tesla line of range 6, `x` dice a carrier, 1 damage.
fn tesla(x: u8) -> WeaponLine {
    WeaponLine {
        traits: vec![WeaponTrait::Tesla],
        ..weapon("tesla", WeaponRange::Upto(6), x, 1)
    }
}

/// A battlefront-2013 game: the allied `shooter` (card `ours`) on E7 against the axis squad
/// `dm` (four soldiers, card `sq`) on E4; a spare a side far off so the round goes on; nobody
/// reacts, allies activate first.
fn game(ours: Card) -> State {
    let s = scenario(
        vec![
            unit("shooter", &ours.id, Some("E7")),
            unit("spare-a", "sq", Some("A9")),
        ],
        vec![
            unit("dm", "sq", Some("E4")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![ours, squad("sq")])
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

/// The Motherland Twin Tesla Guns: a vehicle whose twin heavy Tesla gun rolls 3 dice.
fn motherland() -> Card {
    card("motherland", UnitType::Vehicle, 4, 1, vec![tesla(3)])
}

/// The shooter's activation: `attack tesla at dm`, then Nothing; the report.
fn zap(st: &mut State, faces: &[u8]) -> String {
    let out = play(
        st,
        "allies",
        "activate shooter\n  attack tesla at dm\n  nothing",
        faces,
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    t
}

// issue 18, 002 "Tesla Weapons" example: "The Motherland Twin Tesla Gun attacks the Death Masks
// scoring three hits with its twin Heavy Tesla gun. As well as removing two soldiers, the Death
// Masks also receive a Stunned token. ... As the Death Masks already had an Under Fire token,
// they replace that with a Suppression token for being hit again. When the Death Masks activate,
// they roll to recover from being Suppressed. They fail the roll, remaining Suppressed, so must
// take a Nothing Action as their first action. Having a Stunned token from the Tesla attack also
// requires them to take a Nothing Action as their first Action to remove the Stunned token. They
// then move out of sight as their second action, remaining Suppressed." (R750.) Three dice, three
// armies: three hits, and no chain (004's "reroll all hits" is not 002's); Infantry Saves army,
// shield, shield: two soldiers lost. The Death Masks' removal roll: shield, shield.
#[test]
fn s002_tesla_weapons_motherland_example_two_lost_stunned_suppressed_nothing_first() {
    let mut st = game(motherland());
    st.unit_mut("dm").expect("dm").suppression = Some(Token::UnderFire);
    let t = zap(&mut st, &[1, 1, 1, 1, 5, 5]);
    assert!(t.contains("3 hits"), "{t}");
    assert!(
        t.contains("dm is hit by the Tesla weapon tesla and receives a Stunned token"),
        "{t}"
    );
    assert!(
        t.contains("dm is hit again: its Under Fire token is replaced by a Suppressed token"),
        "{t}"
    );
    let dm = u(&st, "dm");
    assert_eq!(
        (dm.models.len(), dm.stunned, dm.suppression),
        (2, true, Some(Token::Suppressed)),
        "{t}"
    );
    // Stunned: a first action other than Nothing is refused, and changes nothing.
    let out = play(&mut st, "axis", "activate dm\n  move E3\n  nothing", &[]);
    assert!(!accepted_all(&out), "{}", texts(&out));
    assert_eq!(u(&st, "dm").at, Some(sq("E4")));
    let out = play(
        &mut st,
        "axis",
        "activate dm\n  nothing\n  move E3",
        &[5, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("no army symbol, it remains Suppressed"), "{t}");
    assert!(
        t.contains("dm takes a Nothing action and removes its Stunned token"),
        "{t}"
    );
    let dm = u(&st, "dm");
    assert_eq!(
        (dm.at, dm.stunned, dm.suppression),
        (Some(sq("E3")), false, Some(Token::Suppressed)),
        "{t}"
    );
}

// issue 18, 002 "Tesla Weapons": "When a Unit is Hit by a Tesla weapon, place a Stunned token
// with the Unit or on the Unit Card." (R750: a hit scored stuns, saved or not; a line that
// scores none does not.) One hit, saved by the Infantry Save's army: no soldier lost, no Under
// Fire (R703 counts damage), but Stunned. Three misses: no token.
#[test]
fn s002_tesla_weapons_a_saved_hit_stuns_a_miss_does_not() {
    let mut st = game(motherland());
    let t = zap(&mut st, &[1, 5, 5, 2]);
    let dm = u(&st, "dm");
    assert_eq!(
        (dm.models.len(), dm.stunned, dm.suppression),
        (4, true, None),
        "{t}"
    );
    let mut st = game(motherland());
    let t = zap(&mut st, &[5, 6, 3]);
    assert!(!t.contains("Stunned"), "{t}");
    assert!(!u(&st, "dm").stunned, "{t}");
}

// issue 18, 002 "Tesla Weapons" is the whole of 002's rule: 004's "Inflict damage for each [hit]
// result and reroll all [hit] results", "Tesla weapons ignore cover" and "inflict damage on all
// units in spaces between" are not played under battlefront-2013 (R750). On rubble the squad
// rolls the Infantry Cover Save against the Tesla gun (its shields cancel), the gun's two hits
// roll no chain die.
#[test]
fn s002_tesla_weapons_no_004_chain_cover_kept_no_units_between() {
    let mut st = game(card("motherland", UnitType::Vehicle, 4, 1, vec![tesla(2)]));
    st.scenario.board.set_terrain(sq("E4"), Terrain::Rubble);
    let t = zap(&mut st, &[1, 1, 5, 6]);
    assert!(
        t.contains("2 hits, 2 cancelled by infantry cover save"),
        "{t}"
    );
    assert!(!t.contains("chain"), "{t}");
    let dm = u(&st, "dm");
    assert_eq!((dm.models.len(), dm.stunned), (4, true), "{t}");
}

// ---------------------------------------------------------------------------------------------
// Volley weapons (R751)
// ---------------------------------------------------------------------------------------------

/// The Falke: an allied aircraft (armour aircraft 2, health 4, Movement 4) whose 150kg bombs
/// (range 4, 1 die each, 2 damage, six ammo boxes) are a Volley weapon; its `left` boxes
/// unmarked. The KV-47 Wolfpack: an axis vehicle of health 6 on E4, in the open.
fn falke_and_wolfpack(left: u8) -> State {
    let bombs = WeaponLine {
        traits: vec![WeaponTrait::Volley],
        ammo: Some(6),
        ..weapon("bombs", WeaponRange::Upto(4), 1, 2)
    };
    let mut falke = card("falke", UnitType::Vehicle, 4, 4, vec![bombs]);
    falke.armour = Armour::Aircraft(2);
    let wolfpack = card("wolfpack", UnitType::Vehicle, 6, 1, vec![]);
    let s = scenario(
        vec![
            unit("falke", "falke", Some("E8")),
            unit("spare-a", "sq", Some("A9")),
        ],
        vec![
            unit("wolf", "wolfpack", Some("E4")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![falke, wolfpack, squad("sq")])
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st.unit_mut("falke")
        .expect("falke")
        .ammo
        .insert("bombs".into(), left);
    st
}

// issue 18, 002 "Volley Weapons" example: "The Falke is attacking a KV-47 Wolfpack using its
// 150kg bombs. As the bombs are Volley weapons, the player can choose to use any or all of its
// bombs in one Volley. As it has limited ammunition, and has already dropped two bombs, it only
// has four left." and 002 "Volley Weapons": "The player selects how many bombs or rockets to use
// in an attack, and marks that number of ammo boxes. The player then multiplies the number of
// dice to roll by the number of ammo boxes marked." (R751: `attack 4 bombs at wolf`.) Five bombs
// are refused (four left) and change nothing; all four: four boxes marked, 1 die × 4 = four
// dice: army, army, target, shield: two hits of 2 damage, the Wolfpack keeps 2 of 6.
#[test]
fn s002_volley_weapons_falke_example_all_four_bombs_left_four_times_the_dice() {
    let mut st = falke_and_wolfpack(4);
    let out = play(
        &mut st,
        "allies",
        "activate falke\n  move E7\n  attack 5 bombs at wolf",
        &[],
    );
    let t = texts(&out);
    assert!(!accepted_all(&out), "{t}");
    let (reason, rule) = refused(&out);
    assert!(
        reason.contains("marks 1 to 4 ammo box(es)") && rule.contains("Volley Weapons"),
        "{reason} / {rule}"
    );
    assert_eq!(
        (
            u(&st, "falke").at,
            u(&st, "falke").ammo.get("bombs").copied()
        ),
        (Some(sq("E8")), Some(4))
    );
    let out = play(
        &mut st,
        "allies",
        "activate falke\n  move E7\n  attack 4 bombs at wolf",
        &[1, 2, 3, 5],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("volley of 4 ammo"), "{t}");
    assert_eq!(u(&st, "falke").ammo.get("bombs").copied(), Some(0), "{t}");
    assert_eq!(u(&st, "wolf").health, 2, "{t}");
}

// issue 18, 002 "Volley Weapons": "A Volley weapon is a Limited-Ammo weapon that can fire any or
// all of its remaining bombs or rockets at the same time." (R751: an order without a count marks
// one box, as 004's volley, R460.) With six boxes, `attack bombs at wolf` marks one and rolls one
// die (army: 2 damage); five boxes are left.
#[test]
fn s002_volley_weapons_an_attack_without_a_count_marks_one_box() {
    let mut st = falke_and_wolfpack(6);
    let out = play(
        &mut st,
        "allies",
        "activate falke\n  move E7\n  attack bombs at wolf",
        &[1],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(t.contains("volley of 1 ammo"), "{t}");
    assert_eq!(u(&st, "falke").ammo.get("bombs").copied(), Some(5), "{t}");
    assert_eq!(u(&st, "wolf").health, 4, "{t}");
}

// issue 18, 002 "Volley Weapons": "A Volley weapon is a Limited-Ammo weapon" (R751): a
// battlefront card whose `volley` line has no ammo boxes is refused, naming the file and the
// weapon; given boxes it is accepted. Under ffg-revised the trait is 002's and refused (R670).
#[test]
fn s002_volley_weapons_a_volley_line_needs_ammo_boxes() {
    use dustmail::dust_tactics::battlefront;
    let (file, text) = battlefront::cards::builtin()
        .into_iter()
        .find(|(f, _)| *f == "bf-grandma.toml")
        .expect("grandma");
    let volley = text.replacen("range = \"6\"", "range = \"6\"\ntraits = [\"volley\"]", 1);
    assert_ne!(volley, text);
    let mut files = std::collections::BTreeMap::new();
    files.insert(file.to_string(), volley.clone());
    let e = battlefront::skills::check_cards(&files).expect_err("no boxes");
    assert!(
        e.contains("bf-grandma.toml") && e.contains("vk916") && e.contains("no ammo boxes"),
        "{e}"
    );
    let boxed = volley.replacen(
        "traits = [\"volley\"]",
        "traits = [\"volley\"]\nammo = 3",
        1,
    );
    files.insert(file.to_string(), boxed.clone());
    assert_eq!(battlefront::skills::check_cards(&files), Ok(()));
    let e = dustmail::dust_tactics::battlefront::weapons::refuse_elsewhere(
        file,
        &dustmail::dust_tactics::cards::parse_card(file, &boxed).expect("parsed"),
    )
    .expect_err("002's trait");
    assert!(e.to_string().contains("Volley Weapons"), "{e}");
}

// issue 18, 002 "Tesla Weapons": "Any time a Unit Activates while it has a Stunned token, it must
// perform a Nothing Action as its first Action, then removes any Stunned tokens." against 003
// "Aircraft Must Move": "Aircraft must take a Move or March Move action as their first action in
// each activation". (R752: the Nothing comes first; the aircraft need not move that activation.)
// A Stunned Falke: `nothing` then its bombs (army: 2 damage) is accepted and removes the token;
// a first `move` is refused as a Stunned unit's, and changes nothing.
#[test]
fn s002_tesla_weapons_a_stunned_aircraft_takes_nothing_first_and_need_not_move() {
    let mut st = falke_and_wolfpack(6);
    st.unit_mut("falke").expect("falke").stunned = true;
    let out = play(
        &mut st,
        "allies",
        "activate falke\n  move E7\n  attack bombs at wolf",
        &[],
    );
    let (reason, _) = refused(&out);
    assert!(reason.contains("falke is Stunned"), "{reason}");
    assert_eq!(u(&st, "falke").at, Some(sq("E8")));
    let out = play(
        &mut st,
        "allies",
        "activate falke\n  nothing\n  attack bombs at wolf",
        &[1],
    );
    let t = texts(&out);
    assert!(accepted_all(&out), "{t}");
    assert!(
        t.contains("falke takes a Nothing action and removes its Stunned token"),
        "{t}"
    );
    let f = u(&st, "falke");
    assert_eq!((f.stunned, f.at), (false, Some(sq("E8"))), "{t}");
    assert_eq!(u(&st, "wolf").health, 4, "{t}");
}

// ---------------------------------------------------------------------------------------------
// The provisional cards (R750, R751)
// ---------------------------------------------------------------------------------------------

const CARDS: [&str; 4] = [
    "bf-w-tesla-guns.toml",
    "bf-w-wolfpack.toml",
    "bf-w-death-masks.toml",
    "bf-w-falke.toml",
];

// issue 18, 002 "Tesla Weapons" and "Volley Weapons": the units of 002's two examples as
// provisional cards (games/dust-tactics/cards-battlefront-weapons/) play the scenario Tesla and
// Volley by mail to its end, the Tesla gun and the bombs fired, and the game replays and audits.
#[test]
fn s002_tesla_and_volley_weapons_the_provisional_cards_play_a_game_to_its_end_by_mail() {
    use crate::support::dt;
    use dustmail::dust_tactics::bot::Style;
    let dir = tempfile::tempdir().unwrap();
    let (home, env) = dt::play_cards_to_end(
        dir.path(),
        "battlefront-2013",
        ("cards-battlefront-weapons", "tesla-and-volley"),
        ("g-tesla", 23),
        |_| Style::Aggressive,
    );
    let g = env.load("g-tesla");
    let sent = dt::sent_text(&home);
    let tail = dt::tail(&sent, 6000);
    assert!(g.derived.finished.is_some(), "the game did not end: {tail}");
    for said in ["fires Twin Heavy Tesla gun", "fires 150kg bombs (volley of"] {
        assert!(sent.contains(said), "never `{said}`: {tail}");
    }
    dt::replay_and_audit(&home, "g-tesla");
}

// issue 18, 002 "Tesla Weapons" and "Volley Weapons" and the orders template: with the
// provisional cards, every order any template suggests in whole games of Tesla and Volley is
// accepted.
#[test]
fn s002_tesla_and_volley_weapons_every_suggested_order_is_accepted_with_the_cards() {
    let kinds = crate::legal_template::play_cards_checking(
        "cards-battlefront-weapons",
        &CARDS,
        "tesla-and-volley",
        2,
    );
    assert!(kinds.get("attack").copied().unwrap_or(0) > 0, "{kinds:?}");
}
