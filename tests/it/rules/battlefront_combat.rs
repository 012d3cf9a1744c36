//! Issue 18, third slice: close combat, spray and blast, under battlefront-2013 (003 p.28–31,
//! 35). Each test is named after 003's section, quotes its sentence and plays the real
//! battlefront starter cards through the engine with scripted dice: the dice a step consumes
//! (every scripted die used, none more) show which rolls the rule made.

use crate::support_flow::*;
use dustmail::dust_tactics::model::Card;
use dustmail::dust_tactics::scenario::UnitSpec;
use dustmail::dust_tactics::state::{Policy, State};
use dustmail::dust_tactics::{flow, DustTactics};
use dustmail::game::{CommandOutcome, Outcome};

/// The battlefront starter cards (games/dust-tactics/cards-battlefront/).
pub(super) fn bf_cards() -> Vec<Card> {
    dustmail::dust_tactics::battlefront::cards::builtin()
        .into_iter()
        .map(|(f, t)| dustmail::dust_tactics::cards::parse_card(f, t).expect("battlefront card"))
        .collect()
}

/// A battlefront-2013 game on the 9×9 open board with the real cards: `allies` and `axis` as
/// (id, card file stem, square); `first` activates first. Nobody reacts (`standing react any
/// never`), so each test sees only the rule under test.
fn game(allies: &[(&str, &str, &str)], axis: &[(&str, &str, &str)], first: &str) -> State {
    game_with(bf_cards(), allies, axis, first)
}

/// [`game`] with the cards `cards` (the starter cards, some given a skill).
pub(super) fn game_with(
    cards: Vec<Card>,
    allies: &[(&str, &str, &str)],
    axis: &[(&str, &str, &str)],
    first: &str,
) -> State {
    let specs = |v: &[(&str, &str, &str)]| -> Vec<UnitSpec> {
        v.iter().map(|(id, c, at)| unit(id, c, Some(at))).collect()
    };
    let s = scenario(specs(allies), specs(axis));
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, first);
    st
}

fn refusal(out: &Outcome) -> String {
    match &out.results[0].outcome {
        CommandOutcome::Refused {
            reason,
            rule,
            instead,
        } => format!("{reason} | {rule} | {instead}"),
        o => panic!("expected a refusal, got {o:?}"),
    }
}

pub(super) fn models(st: &State, id: &str) -> usize {
    u(st, id).models.len()
}

fn alive(st: &State, id: &str) -> bool {
    !u(st, id).destroyed
}

/// Recon Grenadiers (axis, E5) next to the Grim Reapers (allies, E6); a spare a side far off.
fn grenadiers_and_reapers() -> State {
    game(
        &[
            ("reapers", "bf-grim-reapers", "E6"),
            ("joe", "bf-bazooka-joe", "A9"),
        ],
        &[
            ("grenadiers", "bf-recon-grenadiers", "E5"),
            ("stefan", "bf-stefan", "I1"),
        ],
        "axis",
    )
}

// issue 18 item 1, 003 "Close-Combat Weapons" worked example (p.31): "The Recon Grenadiers use
// their StG 47 assault rifles and MG 48 machine-gun against The Gunners scoring three hits ...
// cancelling two hits and only lose one soldier"; "The Recon Grenadiers roll one die for each
// soldier. Their five dice score two hits. The Gunners that survived ... roll their four dice at
// the same time, scoring two hits"; "The Axis player removes two Recon Grenadiers and the Allied
// player removes another two miniatures". Here against the three Grim Reapers in the open.
#[test]
fn s003_close_combat_weapons_worked_example_ranged_first_then_both_sides_at_once() {
    let mut st = grenadiers_and_reapers();
    let faces: Vec<u8> = [
        // StG 47: 4 dice, 1 hit; Infantry Save 1 die: army, cancelled.
        &[1u8, 3, 4, 5][..],
        &[2],
        // MG 48: 4 dice, 2 hits; Infantry Saves: one army, one target.
        &[1, 2, 3, 5],
        &[4, 1],
        // Knives and grenades: one die for each of the five soldiers, 2 hits, no save.
        &[1, 2, 3, 4, 5],
        // The two Grim Reapers left retaliate: two dice, two hits, no save.
        &[1, 2],
    ]
    .concat();
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\n  attack stg47 at reapers, mg48 at reapers, knives at reapers\n  nothing",
        &faces,
    );
    let t = texts(&out);
    assert!(
        out.results
            .iter()
            .all(|r| matches!(r.outcome, CommandOutcome::Accepted { .. })),
        "{t}"
    );
    // The ranged casualty is removed before close combat: the Reapers retaliate with 2 dice.
    let p = purposes(&out);
    let knives = p.iter().position(|x| x == "attack knives").expect("knives");
    assert!(
        p[..knives].iter().any(|x| x == "attack mg48"),
        "ranged first: {p:?}"
    );
    assert!(
        t.contains("reapers retaliates in close combat with Combat knives"),
        "{t}"
    );
    // Both sides' close-combat casualties removed together: the last Reapers still struck back.
    assert!(!alive(&st, "reapers"), "{t}");
    assert_eq!(models(&st, "grenadiers"), 3, "{t}");
    // No save of any kind against a range C hit.
    assert!(
        !p[knives..].iter().any(|x| x.contains("save")),
        "no save after the knives: {p:?}"
    );
}

// issue 18 item 1, 003 "No Saves Against Close-Combat Weapons": "Units hit by Close-Combat
// Weapons do not get any Cover or Infantry Saves." The Grim Reapers charge the Recon Grenadiers
// with their knives alone: 3 dice, 3 hits, 3 Grenadiers lost without a save die; all five
// retaliate before the casualties are removed (5 dice, all miss).
#[test]
fn s003_no_saves_against_close_combat_weapons() {
    let mut st = grenadiers_and_reapers();
    // Axis activates first: the Grenadiers do nothing; then the Reapers attack.
    play(
        &mut st,
        "axis",
        "activate grenadiers\n  nothing\n  nothing",
        &[],
    );
    let out = play(
        &mut st,
        "allies",
        "activate reapers\n  attack knives at grenadiers\n  nothing",
        &[1, 2, 1, 3, 4, 5, 6, 3],
    );
    let t = texts(&out);
    assert_eq!(models(&st, "grenadiers"), 2, "{t}");
    assert!(t.contains("no save"), "{t}");
    assert_eq!(
        purposes(&out),
        vec!["attack knives", "attack knives"],
        "{t}"
    );
}

// issue 18 item 1, 003 "Close Range (C)": "Close-Combat (or hand-to-hand) weapons can only be
// used against targets in an adjacent square, and are identified as Range C."
#[test]
fn s003_close_range_c_only_against_an_adjacent_square() {
    let mut st = game(
        &[
            ("reapers", "bf-grim-reapers", "E7"),
            ("joe", "bf-bazooka-joe", "A9"),
        ],
        &[
            ("grenadiers", "bf-recon-grenadiers", "E5"),
            ("stefan", "bf-stefan", "I1"),
        ],
        "axis",
    );
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\n  attack knives at reapers\n  nothing",
        &[],
    );
    let r = refusal(&out);
    assert!(r.contains("not in range") && r.contains("range C"), "{r}");
    assert_eq!(models(&st, "reapers"), 3);
}

// issue 18 item 1, 003 "Sustained Attack and Close-Combat Weapons": "A unit performing a
// Sustained Attack action must choose between using Ranged Weapons or Close-Combat Weapons."
// Mixing both in one Sustained Attack is refused and changes nothing (R274).
#[test]
fn s003_sustained_attack_and_close_combat_weapons_choose_one_kind() {
    let mut st = grenadiers_and_reapers();
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\n  sustained stg47 at reapers, knives at reapers",
        &[],
    );
    let r = refusal(&out);
    assert!(
        r.contains("a Sustained Attack uses ranged weapons or close-combat weapons, not both")
            && r.contains("003 \"Sustained Attack and Close-Combat Weapons\"")
            && r.contains("R274"),
        "{r}"
    );
    assert_eq!(models(&st, "reapers"), 3);
    assert!(!u(&st, "grenadiers").activated);
}

// issue 18 item 1, 003 "Sustained Attack and Close-Combat Weapons": "If it uses Close-Combat
// Weapons in a Sustained Attack, the defending unit retaliates with its Close-Combat Weapons as
// normal, but only performs a standard Attack action." The Grenadiers re-roll their misses; the
// Reapers' retaliation is not re-rolled.
#[test]
fn s003_sustained_close_combat_the_defender_retaliates_with_a_standard_attack() {
    let mut st = grenadiers_and_reapers();
    let faces: Vec<u8> = [
        // Knives: 5 dice, 1 hit; the 4 misses re-rolled once: 1 more hit.
        &[1u8, 3, 4, 5, 6][..],
        &[2, 3, 4, 5],
        // The three Reapers retaliate once: 3 dice, 1 hit, and no re-roll of the 2 misses.
        &[1, 4, 6],
    ]
    .concat();
    let out = play(
        &mut st,
        "axis",
        "activate grenadiers\n  sustained knives at reapers",
        &faces,
    );
    let t = texts(&out);
    assert_eq!(models(&st, "reapers"), 1, "{t}");
    assert_eq!(models(&st, "grenadiers"), 4, "{t}");
}

/// The faces each roll of `out` used, by purpose.
fn rolls(out: &Outcome) -> Vec<(String, usize)> {
    out.happenings
        .iter()
        .flat_map(|h| h.rolls.iter().map(|r| (r.purpose.clone(), r.faces.len())))
        .collect()
}

// issue 18 item 2, 003 "Blast Weapons" worked example (p.28): "The Sulphur Thrower has a rating
// of [blast]/1 against all Infantry Armour, so they will roll one die per model in the target
// unit. There are three Grim Reapers, so they roll three dice to hit." No save against it (003
// "Spray Weapons": "Units hit by Spray Weapons do not get an Infantry Save or a Cover Save").
#[test]
fn s003_blast_weapons_one_die_per_model_in_the_target_unit() {
    let mut st = game(
        &[
            ("reapers", "bf-grim-reapers", "E6"),
            ("joe", "bf-bazooka-joe", "A9"),
        ],
        &[
            ("fakyeli", "bf-fakyeli", "E5"),
            ("stefan", "bf-stefan", "I1"),
        ],
        "axis",
    );
    let out = play(
        &mut st,
        "axis",
        "activate fakyeli\n  attack sulphur at reapers\n  nothing",
        &[1, 3, 2],
    );
    let t = texts(&out);
    assert_eq!(rolls(&out), vec![("attack sulphur".to_string(), 3)], "{t}");
    assert_eq!(models(&st, "reapers"), 1, "{t}");
    assert!(t.contains("no save"), "{t}");
}

// issue 18 item 2, 003 "Blast Weapons" worked example: "Koshka (piloting Grand'ma) fires her
// walker's VK-916 howitzer and its Sulphur Jet at the Pounder. The Pounder has Vehicle Armour
// 4, so the howitzer will roll two dice. The Sulphur Jet has a rating of [blast]/N, so it will
// roll one die since there is only one model in the unit"; 003 "Automatic Kill Weapons": "the
// miniature that was hit marks off all of the crosses on its damage track ... and is eliminated".
#[test]
fn s003_automatic_kill_weapons_the_sulphur_jet_eliminates_the_pounder() {
    let mut st = game(
        &[
            ("pounder", "bf-pounder", "E6"),
            ("joe", "bf-bazooka-joe", "A9"),
        ],
        &[
            ("grandma", "bf-grandma", "E5"),
            ("stefan", "bf-stefan", "I1"),
        ],
        "axis",
    );
    // The howitzer: two dice, both miss; the Sulphur Jet: one die, a hit.
    let out = play(
        &mut st,
        "axis",
        "activate grandma\n  attack vk916 at pounder, sulphur-jet at pounder\n  nothing",
        &[3, 5, 2],
    );
    let t = texts(&out);
    assert_eq!(
        rolls(&out),
        vec![
            ("attack vk916".to_string(), 2),
            ("attack sulphur-jet".to_string(), 1)
        ],
        "{t}"
    );
    assert!(!alive(&st, "pounder"), "{t}");
}

// issue 18 item 2, 003 "Damage Resilient" worked example (p.36): "as the Sulphurthrower is rated
// as automatic kill against Lara's Infantry Armour rating of 3, the player marks off the
// remaining two crosses on her damage track. Her Damage Resilient skill then allows the player to
// roll two dice (one for each point of damage she took). They roll [army] and [target], so cancel
// one point of damage, leaving her with one cross unmarked." A hero of 4 crosses with 2 left,
// hit by a blast/N weapon (`1/(+)`) that is not a spray, so she rolls her Infantry Save (fails).
#[test]
fn s003_automatic_kill_weapons_damage_resilient_rolls_one_die_per_cross_marked() {
    use dustmail::dust_tactics::model::{Fire, UnitType, WeaponRange};
    let mut gun = weapon("blastn", WeaponRange::Upto(4), 1, 1);
    gun.soldier = [Fire::ApIncendiary { dice: 1 }; 4];
    gun.carriers = Some(1);
    let shooters = card("shooters", UnitType::Squad, 4, 1, vec![gun]);
    let lara = with_skill(
        card(
            "lara",
            UnitType::Hero,
            4,
            1,
            vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
        ),
        "damage-resilient",
        None,
    );
    let s = scenario(
        vec![
            unit("lara", "lara", Some("E5")),
            unit("spare-a", "shooters", Some("A9")),
        ],
        vec![
            unit("shooters", "shooters", Some("E3")),
            unit("spare-x", "shooters", Some("I1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![shooters, lara])
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "axis");
    st.unit_mut("lara").expect("lara").health = 2;
    // One die, a hit; the Infantry Save fails (target); Damage Resilient: two dice, army and
    // target, one point cancelled.
    let out = play(
        &mut st,
        "axis",
        "activate shooters\n  attack blastn at lara\n  nothing",
        &[1, 3, 2, 4],
    );
    let t = texts(&out);
    assert_eq!(
        rolls(&out),
        vec![
            ("attack blastn".to_string(), 1),
            ("infantry save vs blastn".to_string(), 1),
            ("damage resilient vs blastn".to_string(), 2)
        ],
        "{t}"
    );
    assert!(alive(&st, "lara"), "{t}");
    assert_eq!(u(&st, "lara").health, 1, "{t}");
}

/// Grand'ma (axis) at E5 aiming her Sulphur Jet at the Grim Reapers (allies) on G4, two squares
/// away: the two shortest paths cross F4 (the Bot Hunters, enemies) or F5 (Red Thunder, friends).
/// A walker shoots, so the squads between block no line of sight under the engine's rules.
fn two_paths() -> State {
    game(
        &[
            ("reapers", "bf-grim-reapers", "G4"),
            ("hunters", "bf-bot-hunters", "F4"),
            ("joe", "bf-bazooka-joe", "A9"),
        ],
        &[
            ("grandma", "bf-grandma", "E5"),
            ("thunder", "bf-red-thunder", "F5"),
            ("stefan", "bf-stefan", "I1"),
        ],
        "axis",
    )
}

// issue 18 item 2, 003 "Spray Weapons" (p.28): "Spray weapons are Blast Weapons that attack all
// units, even friendly units, in squares between the attacking unit and the target unit ... The
// shooting player may choose between alternative shortest paths." Through F5 the spray burns
// Red Thunder, Grand'ma's own side: 3 dice at the Reapers, then 5 at Red Thunder (blast/1 each).
#[test]
fn s003_spray_weapons_attack_all_units_even_friendly_units_in_squares_between() {
    let mut st = two_paths();
    let faces: Vec<u8> = [&[3u8, 4, 5][..], &[1, 2, 3, 4, 5]].concat();
    let out = play(
        &mut st,
        "axis",
        "activate grandma\n  attack sulphur-jet at reapers through F5\n  nothing",
        &faces,
    );
    let t = texts(&out);
    assert_eq!(
        rolls(&out),
        vec![
            ("attack sulphur-jet".to_string(), 3),
            ("attack sulphur-jet".to_string(), 5)
        ],
        "{t}"
    );
    assert_eq!(models(&st, "thunder"), 3, "{t}");
    assert_eq!(models(&st, "hunters"), 5, "{t}");
    assert_eq!(models(&st, "reapers"), 3, "{t}");
}

// issue 18 item 2, 003 "Spray Weapons": "The spray follows the shortest possible path to the
// target ... The shooting player may choose between alternative shortest paths." Without
// `through` the referee takes the path the shooter would: no friendly unit, so through the Bot
// Hunters on F4 (R277); a square off every shortest path is refused, naming the paths.
#[test]
fn s003_spray_weapons_the_shortest_path_the_shooting_player_chooses() {
    let mut st = two_paths();
    let out = play(
        &mut st,
        "axis",
        "activate grandma\n  attack sulphur-jet at reapers through F3\n  nothing",
        &[],
    );
    let r = refusal(&out);
    assert!(
        r.contains("`through F3` is not a shortest path in sight from E5 to G4")
            && r.contains("F4 / F5")
            && r.contains("R277"),
        "{r}"
    );
    let faces: Vec<u8> = [&[3u8, 4, 5][..], &[1, 3, 3, 4, 5]].concat();
    let out = play(
        &mut st,
        "axis",
        "activate grandma\n  attack sulphur-jet at reapers\n  nothing",
        &faces,
    );
    let t = texts(&out);
    assert_eq!(models(&st, "hunters"), 4, "{t}");
    assert_eq!(models(&st, "thunder"), 5, "{t}");
}

/// A battlefront game of two test squads of four (gun: 1 die a model, range 4) at E5 (allies,
/// `ours`, with `ours_card`) and E3 (axis, `theirs`), a spare a side far off; allies first.
pub(super) fn skill_game(ours_card: Card) -> State {
    let theirs = squad("sq");
    let s = scenario(
        vec![
            unit("ours", &ours_card.id, Some("E5")),
            unit("spare-a", "sq", Some("A9")),
        ],
        vec![
            unit("theirs", "sq", Some("E3")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![ours_card, theirs])
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

// issue 18 item 4, 002 "Fighting Spirit": "Once per game, a Unit with the Fighting Spirit Skill
// ... hits on rolls of [target] as well as [army] when making an Attack or Sustained Attack
// action." 002 asks no Move first (003 did: R279). Four dice, army, target, target, shield: three
// hits; the report reads the target symbols as hits.
#[test]
fn s002_fighting_spirit_hits_on_target_as_well_as_army_once_per_game() {
    let c = with_skill(squad("spirited"), "fighting-spirit", None);
    let mut st = skill_game(c);
    // Four dice: 1 army, 3 target, 4 target, 5 shield; three Infantry Saves fail (target, shield).
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  skill fighting-spirit\n  attack gun at theirs\n  nothing",
        &[1, 3, 4, 5, 3, 5, 6],
    );
    let t = texts(&out);
    assert!(
        out.results
            .iter()
            .all(|r| matches!(r.outcome, CommandOutcome::Accepted { .. })),
        "{t}"
    );
    assert_eq!(models(&st, "theirs"), 1, "{t}");
    let roll = out
        .happenings
        .iter()
        .flat_map(|h| h.rolls.iter())
        .find(|r| r.purpose.starts_with("attack gun"))
        .expect("the attack roll");
    let marks = dustmail::dust_tactics::battlefront::dice::marks(&roll.purpose, &roll.faces);
    assert_eq!(
        marks,
        vec!["army hit", "target hit", "target hit", "shield miss"],
        "{t}"
    );
    // Once per game: the unit has used it.
    assert_eq!(u(&st, "ours").skills_used.get("fighting-spirit"), Some(&1));
}

// issue 18 item 4, 002 "Fighting Spirit" is once per game: a second declaration is refused with
// the rule, and changes nothing.
#[test]
fn s002_fighting_spirit_a_second_use_is_refused() {
    let c = with_skill(squad("spirited"), "fighting-spirit", None);
    let mut st = skill_game(c);
    st.unit_mut("ours")
        .expect("ours")
        .skills_used
        .insert("fighting-spirit".into(), 1);
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  skill fighting-spirit\n  attack gun at theirs\n  nothing",
        &[],
    );
    let r = refusal(&out);
    assert!(r.contains("already used fighting-spirit"), "{r}");
    assert_eq!(models(&st, "theirs"), 4);
}

// issue 18 item 4, 002 "Take Aim": "A Hero with the Take Aim Skill hits on rolls of [target] as
// well as [army] when making a Sustained Attack Action with Ranged weapons." Under 002 the
// Sustained Attack still re-rolls its misses (004's Take Aim replaced the re-roll). Two dice:
// target (hit), shield (miss); the miss re-rolled: target, a hit.
#[test]
fn s002_take_aim_a_hero_hits_on_target_as_well_as_army_in_a_sustained_attack() {
    use dustmail::dust_tactics::model::{UnitType, WeaponRange};
    let hero = with_skill(
        card(
            "aimer",
            UnitType::Hero,
            3,
            1,
            vec![weapon("rifle", WeaponRange::Upto(4), 2, 1)],
        ),
        "take-aim",
        None,
    );
    let mut st = skill_game(hero);
    // Rifle 2 dice: 3 target (hit), 5 shield (miss); re-roll 1 die: 4 target (hit); two
    // Infantry Saves: 3, 6, both fail.
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  sustained rifle at theirs",
        &[3, 5, 4, 3, 6],
    );
    let t = texts(&out);
    assert_eq!(models(&st, "theirs"), 2, "{t}");
    assert!(t.contains("2 hits"), "{t}");
}

// issue 18 item 4: a battlefront card naming a skill not built under battlefront-2013 is refused at
// `new`, naming the skill and the card's file, and no game is made (R281). Every 004 skill that
// 002 also lists is built since R705 (Commissar): 004's Assault, which 002 lacks, stands in.
#[test]
fn s002_skills_a_card_naming_a_skill_not_built_is_refused_at_new() {
    use crate::support::dt;
    let dir = tempfile::tempdir().unwrap();
    dt::init_home(dir.path(), "file");
    let cards = dir.path().join("my-cards");
    std::fs::create_dir_all(&cards).unwrap();
    let (_, text) = dustmail::dust_tactics::battlefront::cards::builtin()
        .into_iter()
        .find(|(f, _)| *f == "bf-stefan.toml")
        .expect("stefan");
    std::fs::write(
        cards.join("bf-stefan.toml"),
        format!("{text}\n[[skills]]\nname = \"assault\"\n"),
    )
    .unwrap();
    let mut args: Vec<String> = [
        "new",
        "--ruleset",
        "battlefront-2013",
        "--scenario",
        "encounter",
        "--id",
        "g-bf",
        "--now",
        dt::T0,
        "--cards",
        cards.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for p in &dt::players(7) {
        args.push("--player".into());
        args.push(format!(
            "{}={}:{}",
            p.side,
            p.address,
            dustmail::crypto::public_key_text(&p.key.verifying_key())
        ));
    }
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = dt::dustmail(dir.path(), &a);
    let out = dt::text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains("card bf-stefan.toml names the skill `assault`")
            && out.contains("not implemented yet under battlefront-2013"),
        "{out}"
    );
    assert!(!dir.path().join("games/g-bf").exists(), "{out}");
}

// issue 18 item 4, 002 "Berserk": "When a Berserk Hero scores a hit with a Close-Combat Weapon,
// roll another die scoring a further Hit on a roll of [army]. Continue scoring Hits and rolling
// an additional die for each Hit until it rolls a miss." (004's Berserk re-rolled misses once
// more instead.) The hero's two knife dice: army (hit), target (miss); the chain: army (hit),
// shield (miss): two hits, two soldiers lost, no save; the squad has no knife to retaliate.
#[test]
fn s002_berserk_each_close_combat_hit_rolls_another_die_until_a_miss() {
    use dustmail::dust_tactics::model::{UnitType, WeaponRange};
    let hero = with_skill(
        card(
            "berserker",
            UnitType::Hero,
            3,
            1,
            vec![weapon("knife", WeaponRange::Close, 2, 1)],
        ),
        "berserk",
        None,
    );
    let mut st = skill_game(hero);
    st.unit_mut("theirs").expect("theirs").at = Some(sq("E4"));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack knife at theirs\n  nothing",
        &[1, 3, 2, 5],
    );
    let t = texts(&out);
    assert_eq!(
        rolls(&out),
        vec![
            ("attack knife".to_string(), 2),
            ("berserk chain knife".to_string(), 2)
        ],
        "{t}"
    );
    assert_eq!(models(&st, "theirs"), 2, "{t}");
    let chain = out
        .happenings
        .iter()
        .flat_map(|h| h.rolls.iter())
        .find(|r| r.purpose.starts_with("berserk chain"))
        .expect("the chain");
    assert_eq!(
        dustmail::dust_tactics::battlefront::dice::marks(&chain.purpose, &chain.faces),
        vec!["army hit", "shield miss"]
    );
}

// issue 18 item 4, 002 "Tank Head": "A Hero with the Tank Head Skill may take a Makeshift Repair
// Action. If they do so, the player selects any Vehicle that is within Line of Sight and Range 1
// ... and rolls five dice. Each score of [army] or [target] removes one point of Damage to that
// Vehicle." (004's Tank Head healed fully, once per game.) A walker of 4 with 1 left: five dice,
// army, shield, shield, target, shield: two damage removed (R283).
#[test]
fn s002_tank_head_makeshift_repair_rolls_five_dice() {
    use dustmail::dust_tactics::model::{UnitType, WeaponRange};
    let head = with_skill(
        card(
            "head",
            UnitType::Hero,
            3,
            1,
            vec![weapon("pistol", WeaponRange::Upto(2), 1, 1)],
        ),
        "tank-head",
        None,
    );
    let walker = card(
        "walker",
        UnitType::Vehicle,
        4,
        1,
        vec![weapon("gun", WeaponRange::Upto(4), 1, 1)],
    );
    let s = scenario(
        vec![
            unit("head", "head", Some("E5")),
            unit("walker", "walker", Some("E6")),
        ],
        vec![
            unit("theirs", "sq", Some("A1")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![head, walker, squad("sq")])
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st.unit_mut("walker").expect("walker").health = 1;
    let out = play(
        &mut st,
        "allies",
        "activate head\n  skill tank-head at walker\n  nothing",
        &[1, 5, 6, 3, 5],
    );
    let t = texts(&out);
    assert!(
        t.contains("5 dice, 2 army or target, 2 damage removed"),
        "{t}"
    );
    assert_eq!(u(&st, "walker").health, 3, "{t}");
}

/// A hero with a 2-dice pistol (range 4) and `skills`, for 002's hero skills.
pub(super) fn pistol_hero(skills: &[&str]) -> Card {
    use dustmail::dust_tactics::model::{UnitType, WeaponRange};
    let mut h = card(
        "shooter",
        UnitType::Hero,
        3,
        1,
        vec![
            weapon("pistol", WeaponRange::Upto(4), 2, 1),
            weapon("knife", WeaponRange::Close, 1, 1),
        ],
    );
    for s in skills {
        h = with_skill(h, s, None);
    }
    h
}

// issue 18, 002 "Killing Spree": "When a Hero with Killing Spree scores a hit with a Ranged
// Weapon, roll another die scoring a further Hit on a roll of [army]. Continue scoring Hits and
// rolling an additional die for each Hit until it rolls a miss." (R582) The pistol's two dice:
// army (hit), target (miss); the chain: army (hit), shield (miss): two hits; the two Infantry
// Saves (shield, shield) fail: two soldiers lost.
#[test]
fn s002_killing_spree_each_ranged_hit_rolls_another_die_until_a_miss() {
    let mut st = skill_game(pistol_hero(&["killing-spree"]));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack pistol at theirs\n  nothing",
        &[1, 3, 2, 5, 5, 6],
    );
    let t = texts(&out);
    assert_eq!(
        rolls(&out),
        vec![
            ("attack pistol".to_string(), 2),
            ("killing spree chain pistol".to_string(), 2),
            ("infantry save vs pistol".to_string(), 2),
        ],
        "{t}"
    );
    assert!(t.contains("killing spree chain"), "{t}");
    assert_eq!(models(&st, "theirs"), 2, "{t}");
    let chain = out
        .happenings
        .iter()
        .flat_map(|h| h.rolls.iter())
        .find(|r| r.purpose.starts_with("killing spree chain"))
        .expect("the chain");
    assert_eq!(
        dustmail::dust_tactics::battlefront::dice::marks(&chain.purpose, &chain.faces),
        vec!["army hit", "shield miss"]
    );
}

// issue 18, 002 "Killing Spree": "with a Ranged Weapon": without the skill the same dice make one
// hit and no chain; and the hero's close-combat knife does not chain by Killing Spree (that is
// Berserk's, 002 "Berserk").
#[test]
fn s002_killing_spree_only_ranged_weapons_and_only_with_the_skill() {
    let mut st = skill_game(pistol_hero(&[]));
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack pistol at theirs\n  nothing",
        &[1, 3, 5],
    );
    assert_eq!(models(&st, "theirs"), 3, "{}", texts(&out));
    let mut st = skill_game(pistol_hero(&["killing-spree"]));
    st.unit_mut("theirs").expect("theirs").at = Some(sq("E4"));
    // The knife's one die: army, a hit, no chain; close combat has no save (003).
    let out = play(
        &mut st,
        "allies",
        "activate ours\n  attack knife at theirs\n  nothing",
        &[1],
    );
    let t = texts(&out);
    assert!(!purposes(&out).iter().any(|p| p.contains("chain")), "{t}");
    assert_eq!(models(&st, "theirs"), 3, "{t}");
}

/// The pistol hero (allies, E5) against a squad of four (axis, E3, with `skills`), on rubble or
/// in the open; a spare a side far off; nobody reacts, allies first.
pub(super) fn defended(on_rubble: bool, skills: &[&str]) -> State {
    use dustmail::dust_tactics::model::Terrain;
    let mut theirs = squad("defenders");
    for s in skills {
        theirs = with_skill(theirs, s, None);
    }
    let mut s = scenario(
        vec![
            unit("ours", "shooter", Some("E5")),
            unit("spare-a", "sq", Some("A9")),
        ],
        vec![
            unit("theirs", "defenders", Some("E3")),
            unit("spare-x", "sq", Some("I1")),
        ],
    );
    if on_rubble {
        s.board.set_terrain(sq("E3"), Terrain::Rubble);
    }
    let cards = vec![pistol_hero(&[]), theirs, squad("sq")];
    let mut st = DustTactics
        .start("battlefront-2013", s, cards)
        .expect("setup");
    for side in st.sides() {
        flow::standing_react(&mut st, &side, None, Policy::Never).expect("standing react never");
    }
    begin(&mut st, "allies");
    st
}

// issue 18, 002 "Defensive Tactics": "A Unit with the Defensive Tactics Skill (and any Unit it
// has Joined or Hero that has Joined it) gains Damage Resilient when in Cover." (R584) 002
// "Damage Resilient": "Each time an Infantry Squad that is Damage Resilient is assigned a Hit that
// is not cancelled by a Save ..., roll a die. On a result of [army], cancel the Hit." Two hits
// (army, army), two cover saves fail (target, target); on rubble the squad rolls Damage Resilient
// for each (army cancels, target does not): one soldier lost. In the open, or without the skill,
// no such roll: two lost.
#[test]
fn s002_defensive_tactics_damage_resilient_only_in_cover() {
    let shot = "activate ours\n  attack pistol at theirs\n  nothing";
    let mut st = defended(true, &["defensive-tactics"]);
    let out = play(&mut st, "allies", shot, &[1, 1, 3, 3, 1, 3]);
    let t = texts(&out);
    assert!(t.contains("1 cancelled (Damage Resilient)"), "{t}");
    assert_eq!(models(&st, "theirs"), 3, "{t}");
    let mut st = defended(false, &["defensive-tactics"]);
    let out = play(&mut st, "allies", shot, &[1, 1, 3, 3]);
    assert_eq!(models(&st, "theirs"), 2, "{}", texts(&out));
    let mut st = defended(true, &[]);
    let out = play(&mut st, "allies", shot, &[1, 1, 3, 3]);
    assert_eq!(models(&st, "theirs"), 2, "{}", texts(&out));
}
