//! dust-strategy, the second game (issue 14, first slice): the provisional map and deck and
//! their checks, `games`/`new` through the real binary, and the rules built so far, each test
//! citing 001's section (Italian) and the digest's (English). Rulings R300–R311: docs/rulings.md.

use dustmail::game::{
    Audience, CommandOutcome, DiceSource, Game, Line, NewRequest, Outcome, Sender,
};
use dustmail::games::dust_strategy::model::{Phase, State, Unit};
use dustmail::games::dust_strategy::{deck, map, DustStrategy};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

/// `ask`, the only pause (issue 14 item 3).
mod ask;
/// Attacks and powers.
mod combat;
/// docs/strategy-coverage.md kept true, and the tests for sections that had none.
mod coverage;
/// A whole game by mail.
mod game;
/// The map picture and the replay page.
mod picture;
/// Retreats, standing defensive orders and the powers that use them.
mod retreats;
/// Whole games of 2, 3 and 6 scripted players by signed mails.
mod scripted;
/// A soak of bot games, 2 to 6 players, through the mail pipeline.
mod soak;
/// `table battles: yes|no` in a `tactical = "agreed"` campaign (issue 15).
mod table;
/// Lines held for a battle on the table, and its powers and retreats (issue 15).
mod table_held;

// ---------------------------------------------------------------------------------------------
// Helpers.

/// Hidden draws always take the first card of the sorted pile, so hands are known: with two
/// players red is dealt c01–c06 and blue c07–c12. Dice never roll (no combat yet).
struct FirstCard;

impl DiceSource for FirstCard {
    fn d6(&mut self, _round: u32) -> u8 {
        panic!("dust-strategy rolled a die, but nothing built yet rolls one")
    }
    fn uniform(&mut self, _round: u32, _n: u32) -> u32 {
        0
    }
    fn hidden(&mut self, _audience: &Audience, _n: u32) -> u32 {
        0
    }
}

fn new_state(sides: &[&str]) -> State {
    let plan = DustStrategy
        .plan_new(&NewRequest {
            sides: sides.iter().map(|s| s.to_string()).collect(),
            ..NewRequest::default()
        })
        .unwrap();
    DustStrategy.setup(&plan.setup).unwrap()
}

fn send(s: &mut State, side: &str, lines: &[&str]) -> Outcome {
    let lines: Vec<Line> = lines
        .iter()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.to_string(),
        })
        .collect();
    DustStrategy.submit(s, Sender::side(side), &lines, &mut FirstCard)
}

/// The refusal reasons of an outcome, by line ("" for accepted lines).
fn reasons(o: &Outcome) -> Vec<String> {
    o.results
        .iter()
        .map(|r| match &r.outcome {
            CommandOutcome::Accepted { .. } => String::new(),
            CommandOutcome::Refused { reason, .. } => reason.clone(),
        })
        .collect()
}

fn all_ok(o: &Outcome) {
    assert!(
        reasons(o).iter().all(String::is_empty),
        "refused: {:?}",
        o.results
    );
}

fn refused_with(o: &Outcome, line: usize, part: &str) {
    let r = &reasons(o)[line - 1];
    assert!(
        r.contains(part),
        "line {line}: wanted a refusal with `{part}`, got `{r}`"
    );
}

/// Red and blue through setup: red plays c01 (CP 5) so sets up first; both reinforce nothing.
/// Red: capital appalachia, deposits alaska+prairies, areas hudson yukon cascadia great-lakes
/// mexico, PCs appalachia hudson yukon. Blue: the centre pair.
fn two_after_setup() -> State {
    let mut s = new_state(&["red", "blue"]);
    all_ok(&send(
        &mut s,
        "red",
        &[
            "capital: appalachia",
            "deposits: alaska, prairies",
            "areas: hudson, yukon, cascadia, great-lakes, mexico",
            "centres: appalachia, hudson, yukon",
            "play c01",
        ],
    ));
    all_ok(&send(
        &mut s,
        "blue",
        &[
            "capital: rhineland",
            "deposits: scandia, balkans",
            "areas: gallia, italia, iberia, britannia, anatolia",
            "centres: rhineland, gallia, italia",
            "play c07",
        ],
    ));
    assert_eq!(s.phase, Phase::Reinforce);
    s
}

/// On to round 1's first turn: red plays c02 (CP 4) and blue c08 (CP 2), so red moves first.
fn two_in_round_one() -> State {
    let mut s = two_after_setup();
    all_ok(&send(&mut s, "red", &["done"]));
    all_ok(&send(&mut s, "blue", &["done"]));
    assert_eq!(s.phase, Phase::Cards);
    all_ok(&send(&mut s, "red", &["play c02"]));
    all_ok(&send(&mut s, "blue", &["play c08"]));
    assert_eq!(s.phase, Phase::Turn { index: 0 });
    s
}

fn builtin_map_text() -> String {
    map::builtin()[0].1.to_string()
}

fn card_text(cp: u32, mp: u32, production: u32, stars: u32, power: &str) -> String {
    format!(
        "cp = {cp}\nmp = {mp}\nproduction = {production}\nstars = {stars}\npower = \"{power}\"\n"
    )
}

fn dustmail(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dustmail"))
        .env_remove("DUSTMAIL_HOME")
        .arg("--home")
        .arg(home)
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn key(n: u8) -> ed25519_dalek::SigningKey {
    ed25519_dalek::SigningKey::from_bytes(&[n; 32])
}

fn player(side: &str, n: u8) -> String {
    format!(
        "{side}={side}@example.org:{}",
        dustmail::crypto::public_key_text(&key(n).verifying_key())
    )
}

/// A fresh home with a dust-strategy game `g1` of the given sides; returns the new's output.
fn new_home(home: &Path, sides: &[&str], extra: &[&str]) -> Output {
    let o = dustmail(home, &["init", "--referee", "ref@example.org"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let players: Vec<String> = sides
        .iter()
        .enumerate()
        .map(|(i, s)| player(s, i as u8 + 1))
        .collect();
    let mut args = vec![
        "new",
        "--game",
        "dust-strategy",
        "--id",
        "g1",
        "--seed",
        "0101010101010101010101010101010101010101010101010101010101010101",
        "--now",
        "2026-01-01T00:00:00Z",
    ];
    if !extra.contains(&"--map") {
        args.extend(["--scenario", "world"]);
    }
    args.extend(extra.iter().copied());
    for p in &players {
        args.push("--player");
        args.push(p);
    }
    dustmail(home, &args)
}

/// Every mail file (.eml) under `dir` whose name contains `part`, concatenated.
fn mails(dir: &Path, part: &str) -> String {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_else(|_| Vec::new());
    names.sort();
    names
        .into_iter()
        .filter(|p| {
            p.extension().is_some_and(|x| x == "eml")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().contains(part))
        })
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Quoted-printable soft line breaks undone, so long lines can be searched.
fn unfold(mail: &str) -> String {
    mail.replace("=\r\n", "")
        .replace("=\n", "")
        .replace("=3D", "=")
}

// ---------------------------------------------------------------------------------------------
// Item 2: the data, marked provisional, validated as it loads.

/// issue 14 item 2: the built-in world map meets every constraint 001 "Piano di gioco" states
/// (digest 001 §1.1, §9.1): land and sea, six capitals in three pairs, 12 + 4 VK deposits,
/// dashed coast links, the east–west wrap, one connected graph; and it says it is provisional.
#[test]
fn the_built_in_map_meets_001s_constraints_and_is_marked_provisional() {
    let m = map::parse("world.toml", &builtin_map_text()).unwrap();
    let land = m.areas.iter().filter(|a| a.kind == map::Kind::Land).count();
    assert!(land >= 48, "{land} land areas");
    assert_eq!(m.capitals().len(), 6);
    for c in m.capitals() {
        let pair: Vec<_> = m
            .capitals()
            .into_iter()
            .filter(|o| o.capital == c.capital)
            .collect();
        assert_eq!(pair.len(), 2, "pair of {}", c.id);
        assert!(m.capitals_adjacent(&pair[0].id, &pair[1].id));
    }
    let vk = |k| m.areas.iter().filter(|a| a.vk && a.kind == k).count();
    assert_eq!((vk(map::Kind::Land), vk(map::Kind::Sea)), (12, 4));
    assert!(m.links.iter().any(|l| l.wrap));
    assert!(m.links.iter().any(|l| l.kind == map::LinkKind::Coast));
    assert!(
        !m.provisional.is_empty(),
        "the map must say what is authored"
    );
}

/// issue 14 item 2: each check of a map names the file and the field (001 "Piano di gioco";
/// digest 001 §9.1 "Checks to run on it").
#[test]
fn a_map_breaking_a_rule_of_001_is_refused_naming_file_and_field() {
    let base = builtin_map_text();
    let cases: Vec<(String, &str)> = vec![
        // Five capitals: one pair is short.
        (
            base.replacen("capital = \"west\"\n", "", 1),
            "six capitals in three pairs: field capital",
        ),
        // Three capitals in one pair.
        (
            base.replacen("capital = \"east\"", "capital = \"west\"", 1),
            "field capital",
        ),
        // A capital that is also a deposit (ruling R302).
        (
            base.replacen("capital = \"west\"\n", "capital = \"west\"\nvk = true\n", 1),
            "cannot also be a VK deposit",
        ),
        // Eleven VK deposits on land.
        (base.replacen("vk = true\n", "", 1), "field vk"),
        // A coast link (land–sea) written as a land link.
        (
            base.replacen(
                "a = \"alaska\"\nb = \"gulf-of-alaska\"\nkind = \"coast\"",
                "a = \"alaska\"\nb = \"gulf-of-alaska\"\nkind = \"land\"",
                1,
            ),
            "field kind",
        ),
        // No east–west wrap.
        (base.replace("wrap = true\n", ""), "wrap = true"),
        // A link to an area that does not exist.
        (
            base.replacen("b = \"yukon\"", "b = \"atlantis\"", 1),
            "`atlantis`, which is no area",
        ),
        // A sea area linked to nothing: not connected.
        (
            format!("{base}\n[[area]]\nid = \"lost-sea\"\nname = \"Lost\"\nkind = \"sea\"\n"),
            "`lost-sea` cannot be reached",
        ),
        // Forty-seven land areas.
        (
            base.replacen(
                "id = \"new-zealand\"\nname = \"New Zealand\"\nkind = \"land\"",
                "id = \"new-zealand\"\nname = \"New Zealand\"\nkind = \"sea\"",
                1,
            ),
            "",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let e = map::parse("mine.toml", text).expect_err(&format!("case {i} was accepted"));
        assert!(e.starts_with("map mine.toml: "), "case {i}: {e}");
        assert!(e.contains(want), "case {i}: wanted `{want}` in `{e}`");
    }
}

/// issue 14 item 2: the built-in deck is 45 cards, CP + MP + production = 7, each 1 to 5
/// (001 "Le carte" Nota; digest 001 §1.3), every card marked provisional.
#[test]
fn the_built_in_deck_is_45_cards_summing_to_seven() {
    let files: BTreeMap<String, String> = deck::builtin()
        .into_iter()
        .map(|(n, t)| (n, t.to_string()))
        .collect();
    let cards = deck::parse_deck(&files).unwrap();
    assert_eq!(cards.len(), 45);
    for c in &cards {
        assert_eq!(c.cp + c.mp + c.production, 7, "{}", c.id);
        assert!(c.provisional, "{}", c.id);
    }
    for p in deck::POWERS {
        assert!(cards.iter().any(|c| c.power == p), "no card has {p}");
    }
}

/// issue 14 item 2: each card check names the file and the field (001 "Le carte" Nota,
/// "Componenti"; rulings R304, R305).
#[test]
fn a_card_breaking_a_rule_is_refused_naming_file_and_field() {
    let cases = [
        (card_text(3, 3, 3, 1, "sigrid"), "= 9; 001 'Le carte' Nota"),
        (card_text(6, 0, 1, 1, "sigrid"), "field cp is 6"),
        (card_text(1, 5, 1, 4, "sigrid"), "field stars is 4"),
        (card_text(1, 5, 1, 1, "laser"), "field power `laser`"),
        (
            format!("{}colour = \"red\"\n", card_text(1, 5, 1, 1, "sigrid")),
            "colour",
        ),
    ];
    for (i, (t, want)) in cases.iter().enumerate() {
        let e = deck::parse_card("c99.toml", t).expect_err(&format!("case {i} accepted"));
        assert!(e.starts_with("card c99.toml: "), "case {i}: {e}");
        assert!(e.contains(want), "case {i}: wanted `{want}` in `{e}`");
    }
    let mut files: BTreeMap<String, String> = deck::builtin()
        .into_iter()
        .map(|(n, t)| (n, t.to_string()))
        .collect();
    files.remove("c45.toml");
    let e = deck::parse_deck(&files).unwrap_err();
    assert!(e.contains("44 cards") && e.contains("45"), "{e}");
    // c01 is CP 5, MP 1, 1 star: a copy ties it on every turn-order key.
    files.insert("c45.toml".into(), card_text(5, 1, 1, 1, "sigrid"));
    let e = deck::parse_deck(&files).unwrap_err();
    assert!(e.contains("c45.toml") && e.contains("undecided"), "{e}");
}

/// issue 14 item 2: a referee's own map (`--map FILE`) and cards (`--cards DIR`) are checked
/// when the game is made: exit 2, the file and the field named, no game made.
#[test]
fn new_refuses_a_bad_map_file_or_card_directory_with_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let bad_map = d.path().join("flat.toml");
    std::fs::write(&bad_map, builtin_map_text().replace("wrap = true\n", "")).unwrap();
    let home = d.path().join("h");
    let o = new_home(
        &home,
        &["red", "blue"],
        &["--map", bad_map.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("map flat.toml") && text(&o).contains("wrap"),
        "{}",
        text(&o)
    );
    assert!(!home.join("games/g1/log.jsonl").exists());

    let cards = d.path().join("cards");
    std::fs::create_dir(&cards).unwrap();
    for (n, t) in deck::builtin() {
        std::fs::write(cards.join(n), t).unwrap();
    }
    std::fs::write(cards.join("c07.toml"), card_text(2, 2, 2, 1, "sigrid")).unwrap();
    let home2 = d.path().join("h2");
    let o = new_home(
        &home2,
        &["red", "blue"],
        &["--cards", cards.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("card c07.toml") && text(&o).contains("add up to 7"),
        "{}",
        text(&o)
    );

    // A good map file of the referee's own is taken.
    let good = d.path().join("mine.toml");
    std::fs::write(&good, builtin_map_text()).unwrap();
    let o = new_home(
        &d.path().join("h3"),
        &["red", "blue"],
        &["--map", good.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

// ---------------------------------------------------------------------------------------------
// Item 2 (module): the binary lists and creates the game.

/// issue 14: `dustmail games` lists dust-strategy with its map and ruleset.
#[test]
fn games_lists_dust_strategy() {
    let d = tempfile::tempdir().unwrap();
    let o = dustmail(d.path(), &["games"]);
    assert_eq!(o.status.code(), Some(0));
    let t = text(&o);
    assert!(t.contains("dust-strategy: "), "{t}");
    assert!(t.contains("world ") && t.contains("standard"), "{t}");
}

/// issue 14: `new --game dust-strategy` makes a game of 2 to 6 players (001 "Preparazione del
/// gioco": up to six armies); the welcome mail carries the briefing, the map as text and the
/// setup orders template.
#[test]
fn new_makes_a_game_of_two_to_six_and_the_welcome_carries_map_and_template() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("two");
    let o = new_home(&home, &["red", "blue"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let welcome = unfold(&mails(&home.join("outbox"), "welcome-red"));
    for want in [
        "you play red",
        "PROVISIONAL",
        "appalachia (land C(west)): empty",
        "links: yukon, kamchatka*",
        "capital: appalachia",
        "#play highest cp",
        // Since this wave's retreats and the four last powers (it said "retreats and four
        // powers" were not built yet).
        "retreats, all eleven powers",
    ] {
        assert!(welcome.contains(want), "welcome lacks `{want}`");
    }
    let six = d.path().join("six");
    let o = new_home(
        &six,
        &["red", "blue", "green", "yellow", "black", "white"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(!mails(&six.join("outbox"), "welcome-white").is_empty());

    let o = new_home(&d.path().join("one"), &["red"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("2 to 6 players"), "{}", text(&o));
    let o = new_home(&d.path().join("purple"), &["red", "purple"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("army colours"), "{}", text(&o));
}

// ---------------------------------------------------------------------------------------------
// Item 1: setup, the card choice, production, movement, VP.

/// issue 14 item 1: 001 "Preparazione del gioco" 2 (digest 001 §2 step 2): six cards each,
/// one chosen face down, all revealed together; the order is by combat value, highest first.
/// The chosen card stays hidden from the other player until both have chosen (DESIGN §5).
#[test]
fn setup_cards_are_dealt_sealed_and_revealed_together() {
    let mut s = new_state(&["red", "blue"]);
    let o = send(&mut s, "blue", &["play c07"]);
    all_ok(&o);
    assert_eq!(s.hands["red"], ["c01", "c02", "c03", "c04", "c05", "c06"]);
    assert_eq!(s.hands["blue"].len(), 5, "the played card left the hand");
    // Red's view says blue has chosen, never what; blue's own hand is not in red's view.
    let red_view = DustStrategy.view(&s, Some("red")).to_string();
    assert!(red_view.contains("\"chosen\":[\"blue\"]"), "{red_view}");
    for hidden in ["c07", "c08", "c12"] {
        assert!(
            !red_view.contains(&format!("\"{hidden}")),
            "red sees {hidden}: {red_view}"
        );
    }
    // Happenings naming blue's card are for blue alone.
    for h in &o.happenings {
        if h.text.contains("c07") || h.text.contains("c08") {
            assert_eq!(h.audience, Audience::Side("blue".into()), "{}", h.text);
        }
    }
    assert_eq!(s.phase, Phase::Setup);
    let o = send(&mut s, "red", &["play highest cp"]);
    all_ok(&o);
    assert!(
        o.happenings.iter().any(|h| h.audience == Audience::Everyone
            && h.text.contains("the cards are revealed")
            && h.text.contains("the order is red, blue")),
        "{:?}",
        o.happenings
    );
    assert_eq!(s.order, ["red", "blue"]);
}

/// issue 14 item 1: 001 "Sequenza di gioco" (digest 001 §3 step 1): CP highest first, ties by
/// MP, then by stars (ruling R305: higher goes first on the tie-breaks too).
#[test]
fn the_turn_order_is_cp_then_mp_then_stars() {
    let mut s = new_state(&["red", "blue", "green"]);
    send(&mut s, "red", &["capital: appalachia"]);
    // c05 (3,2,2; 1 star), c04 (3,3,1; 1 star), c19 (3,3,1; 2 stars).
    s.hands.insert("red".into(), vec!["c05".into()]);
    s.hands.insert("blue".into(), vec!["c04".into()]);
    s.hands.insert("green".into(), vec!["c19".into()]);
    all_ok(&send(&mut s, "red", &["play c05"]));
    all_ok(&send(&mut s, "blue", &["play c04"]));
    all_ok(&send(&mut s, "green", &["play c19"]));
    assert_eq!(s.order, ["green", "blue", "red"]);
}

/// issue 14 item 1: 001 "Preparazione del gioco" 3–6 as ranked preferences (digest 001 §2,
/// §10.1; rulings R303, R306): in setup order each takes its best free choice; the first three
/// may not take a capital paired with another player's; what is left is neutral (1 tank,
/// 1 robot), sea deposits start empty; each player ends with a capital, 2 deposits, 5 areas
/// (one tank each) and 3 production centres, none on a deposit.
#[test]
fn setup_preferences_are_resolved_in_setup_order() {
    let mut s = new_state(&["red", "blue"]);
    all_ok(&send(
        &mut s,
        "red",
        &[
            "capital: appalachia",
            "deposits: alaska, scandia",
            "play c01",
        ],
    ));
    // Blue wants the capital paired with red's, then red's deposit: both go to the next choice.
    all_ok(&send(
        &mut s,
        "blue",
        &[
            "capital: new-england, prussia",
            "deposits: alaska, balkans",
            "centres: new-england",
            "play c07",
        ],
    ));
    assert_eq!(s.phase, Phase::Reinforce);
    assert_eq!(s.capital_of["red"], "appalachia");
    assert_eq!(s.capital_of["blue"], "prussia");
    assert!(s.owns("red", "alaska") && s.owns("red", "scandia"));
    assert!(s.owns("blue", "balkans"));
    for side in ["red", "blue"] {
        let held: Vec<&String> = s
            .areas
            .iter()
            .filter(|(_, h)| h.owner.as_deref() == Some(side))
            .map(|(a, _)| a)
            .collect();
        assert_eq!(held.len(), 8, "{side}: {held:?}");
        assert_eq!(s.vk_of(side), 2, "{side}");
        assert_eq!(s.on_board(side, Unit::Tank), 8, "{side}");
        let pcs = s.pcs_of(side);
        assert_eq!(pcs.len(), 3, "{side}");
        assert!(
            pcs.iter().all(|p| !s.map.area(p).unwrap().vk),
            "{side}: {pcs:?}"
        );
        assert!(
            pcs.contains(&s.capital_of[side]),
            "the capital comes first by default"
        );
    }
    // Neutrals: the free capitals and every other land area, a tank and a robot each.
    let n = s.holding("rhineland");
    assert_eq!(n.owner.as_deref(), Some("neutral"));
    assert_eq!((n.units[&Unit::Tank], n.units[&Unit::Robot]), (1, 1));
    assert!(s
        .map
        .areas
        .iter()
        .filter(|a| a.kind == map::Kind::Land)
        .all(|a| s.owner(&a.id).is_some()));
    assert!(s.owner("north-sea").is_none(), "sea deposits start empty");
    // A name that cannot be chosen is refused, saying what can.
    let mut t = new_state(&["red", "blue"]);
    let o = send(&mut t, "red", &["capital: alaska"]);
    refused_with(&o, 1, "`alaska` cannot be a choice of capital");
}

/// issue 14 item 1: 001 "Preparazione del gioco" 7 (digest 001 §2 step 7; ruling R308): 12 PP
/// plus the setup card's production, placed at the player's PCs under the production rules,
/// no submarines (and, by R308, no PCs or cards).
#[test]
fn starting_reinforcements_follow_the_production_rules_without_subs() {
    let mut s = two_after_setup();
    // c01: production 1, so 13 PP.
    assert_eq!(s.reinforce_pp["red"], 13);
    let o = send(
        &mut s,
        "red",
        &[
            "build 1 sub at caribbean-sea",
            "build pc at cascadia",
            "build 5 tanks at appalachia",
            "build 1 tank at appalachia",
            "build 1 tank at alaska",
            "build 1 tank at hudson",
            "build 1 bomber at yukon",
            "done",
        ],
    );
    refused_with(&o, 1, "no submarines");
    refused_with(&o, 2, "units only");
    assert_eq!(reasons(&o)[2], "");
    refused_with(&o, 4, "places at most 5");
    refused_with(&o, 5, "no production centre at alaska");
    assert_eq!(reasons(&o)[5], "", "{:?}", o.results);
    refused_with(&o, 7, "cost 6 PP and 1 PP are left");
    refused_with(&o, 8, "line 1 of this mail was refused");
    assert_eq!(s.holding("appalachia").units[&Unit::Tank], 6);
}

/// issue 14 item 1: 001 "Fase di produzione" (digest 001 §4): 6 PP for one's own capital, 3 per
/// PC up to the VK deposits held, plus the card's production: 6 + 6 + card in round 1 (the
/// text's own example, 13 to 17).
#[test]
fn a_turns_budget_follows_the_formula_of_001() {
    let s = two_in_round_one();
    let t = s.turn.as_ref().unwrap();
    assert_eq!(t.side, "red");
    // c02: CP 4, MP 2, production 1.
    assert_eq!((t.budget, t.moves), (13, 2));
    assert_eq!(s.budget("blue", 5), 17);
    // Without its capital a side still has at least 6.
    let mut poor = s.clone();
    for a in poor.areas.values_mut() {
        if a.owner.as_deref() == Some("blue") {
            a.owner = None;
            a.units.clear();
        }
    }
    assert_eq!(poor.budget("blue", 1), 6);
}

/// issue 14 item 1: 001 "Fase di produzione" 1–4 and "Le carte" (digest 001 §4): subs in a free
/// sea next to a PC, five units per PC counting subs, a new PC places nothing this turn and not
/// on a deposit, cards cost 1 PP once a turn after any discards, the hand never above five.
#[test]
fn production_in_a_turn_places_subs_pcs_and_buys_cards() {
    let mut s = two_in_round_one();
    // A budget that no line runs out of, to meet each other limit.
    s.turn.as_mut().unwrap().budget = 40;
    let o = send(
        &mut s,
        "red",
        &[
            "build 1 sub at caribbean-sea",
            "build 5 tanks at appalachia",
            "build pc at mexico",
            "build 1 tank at mexico",
            "build pc at alaska",
            "buy 2",
            "buy 1",
            "discard c03",
        ],
    );
    assert_eq!(reasons(&o)[0], "");
    refused_with(&o, 2, "has placed 1 unit this turn");
    assert_eq!(reasons(&o)[2], "", "{:?}", o.results);
    refused_with(&o, 4, "built this turn");
    refused_with(&o, 5, "is a VK deposit");
    // The hand holds 4 (c03–c06): room for 1.
    refused_with(&o, 6, "hand holds at most 5");
    assert_eq!(reasons(&o)[6], "");
    refused_with(&o, 8, "discards come before");
    assert_eq!(s.hands["red"].len(), 5);
    assert_eq!(s.owner("caribbean-sea"), Some("red"));
    assert!(s.holding("mexico").pc);
    // The drawn card is shown to red alone.
    let drawn: Vec<_> = o
        .happenings
        .iter()
        .filter(|h| h.text.starts_with("red draws"))
        .collect();
    assert_eq!(drawn.len(), 1);
    assert_eq!(drawn[0].audience, Audience::Side("red".into()));
}

/// issue 14 item 1: 001 "Movimento aereo/terrestre", "Movimento marino", "Movimento anfibio",
/// "Movimento strategico" (digest 001 §5): one MP a move; land moves pass only through own
/// land; sea moves through free or own seas; amphibious moves across seas that hold own subs;
/// bombers move anywhere; production ends with the first move.
#[test]
fn the_four_moves_follow_001() {
    let mut s = two_in_round_one();
    // Red's lands: appalachia, alaska, prairies, hudson, yukon, cascadia, great-lakes, mexico.
    // Sahara emptied: a destination no land route of red's reaches.
    s.areas.get_mut("sahara").unwrap().owner = None;
    s.areas.get_mut("sahara").unwrap().units.clear();
    let o = send(
        &mut s,
        "red",
        &[
            "build 1 sub at caribbean-sea",
            "move 1 tank from alaska to caribe",
            "move 1 tank from alaska to sahara",
            "move 1 tank from alaska to great-lakes",
            "build 1 tank at appalachia",
            "amphibious 1 tank from mexico to amazonia",
        ],
    );
    assert_eq!(reasons(&o)[0], "");
    refused_with(&o, 2, "held by neutral");
    refused_with(&o, 3, "no land route");
    assert_eq!(reasons(&o)[3], "", "through yukon, hudson (red's own)");
    refused_with(&o, 5, "you have moved");
    refused_with(&o, 6, "held by neutral");
    assert!(
        s.owner("alaska").is_none(),
        "alaska is empty once its tank left"
    );
    let o = send(
        &mut s,
        "red",
        &[
            "sea 1 sub from caribbean-sea to central-atlantic",
            "sea 1 sub from central-atlantic to north-sea",
        ],
    );
    assert_eq!(reasons(&o)[0], "");
    refused_with(&o, 2, "made them");
    assert_eq!(s.turn.as_ref().unwrap().moved, 2);
}

/// issue 14 item 1: amphibious and strategic moves (001 "Movimento anfibio", "Movimento
/// strategico"; digest 001 §5.3, §5.4).
#[test]
fn amphibious_and_strategic_moves() {
    let mut s = two_in_round_one();
    // Red clears mexico's neighbours of nothing: an empty land area reached by sea.
    s.areas.get_mut("amazonia").unwrap().owner = None;
    s.areas.get_mut("amazonia").unwrap().units.clear();
    s.areas
        .get_mut("hudson")
        .unwrap()
        .add("red", Unit::Bomber, 2);
    let o = send(
        &mut s,
        "red",
        &[
            "build 1 sub at caribbean-sea",
            "amphibious 1 tank from mexico to amazonia",
        ],
    );
    all_ok(&o);
    assert_eq!(s.owner("amazonia"), Some("red"));
    assert!(s.owner("mexico").is_none());
    let o = send(
        &mut s,
        "red",
        &["strategic 2 bombers from hudson to amazonia"],
    );
    all_ok(&o);
    assert_eq!(s.holding("amazonia").units[&Unit::Bomber], 2);
    // A third move: the card's MP (2) are spent.
    let o = send(
        &mut s,
        "red",
        &["strategic 1 bomber from amazonia to hudson"],
    );
    refused_with(&o, 1, "made them");
}

/// issue 14 item 1: retreats (001 "Ritirata") and battle powers alone on a line are refused
/// with where to write them (an attack line, a `defend` order); Koshka aimed at oneself is
/// refused; nothing changes and the turn then ends on `end`. (Until this wave the test checked
/// "not implemented yet" for all four lines.)
#[test]
fn retreats_and_powers_alone_on_a_line_are_refused_with_where_to_write_them() {
    let mut s = two_in_round_one();
    let before = s.clone();
    let o = send(
        &mut s,
        "red",
        &[
            "retreat 1 tank to mexico",
            "koshka before red",
            "infermiera",
            "sigrid",
        ],
    );
    refused_with(&o, 2, "is no other player");
    for i in [1, 3, 4] {
        refused_with(&o, i, "is not an order alone");
    }
    assert_eq!(s, before, "a refused order changes nothing");
    let o = send(&mut s, "red", &["end"]);
    all_ok(&o);
    assert_eq!(s.current(), Some("blue"));
    // Out of turn: refused.
    let o = send(&mut s, "red", &["build 1 tank at appalachia"]);
    refused_with(&o, 1, "it is blue's turn");
}

/// issue 14 item 1: 001 "Fase di calcolo dei Punti Vittoria", "La Supremazia" (digest 001 §7;
/// ruling R309): after the last turn, 2 VP per capital held, 2 per supremacy token, 1 per 3
/// deposits; a strict leader takes a sector; the round ends and the next card choice begins.
#[test]
fn the_vp_phase_scores_capitals_supremacy_and_deposits() {
    let mut s = two_in_round_one();
    // Red builds a sub (sea supremacy) and a fourth PC (production supremacy, 4 against 3).
    all_ok(&send(
        &mut s,
        "red",
        &[
            "build 1 sub at caribbean-sea",
            "build pc at great-lakes",
            "end",
        ],
    ));
    let o = send(&mut s, "blue", &["end"]);
    all_ok(&o);
    assert_eq!(o.rounds_ended, vec![1]);
    assert_eq!(s.supremacy.get("sea").map(String::as_str), Some("red"));
    assert_eq!(
        s.supremacy.get("production").map(String::as_str),
        Some("red")
    );
    // Land: 8 against 8, nobody held it: nobody.
    assert!(!s.supremacy.contains_key("land"));
    // Red: capital 2 + two tokens 4 + 3 deposits (the sub holds the caribbean-sea deposit,
    // ruling R307) 1 = 7; blue: capital 2 + 2 deposits 0 = 2.
    assert_eq!((s.vp["red"], s.vp["blue"]), (7, 2));
    assert_eq!((s.round, s.phase), (2, Phase::Cards));
    assert!(s.played.is_empty() && s.discard.contains(&"c02".to_string()));
}

// ---------------------------------------------------------------------------------------------
// Item 4 (in part): a sealed card through the real pipeline.

fn signed_mail(home: &Path, side: &str, n: u8, seq: u32, body: &str, id: &str) {
    let orders = format!("game: g1\nside: {side}\nseq: {seq}\n\n{body}\n");
    let block = dustmail::crypto::sign_block(&key(n), &orders);
    let mail = format!(
        "From: {side}@example.org\r\nTo: ref@example.org\r\nSubject: orders\r\nMessage-ID: <{id}@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        block.replace('\n', "\r\n")
    );
    std::fs::write(home.join("maildir/new").join(format!("{id}.eml")), mail).unwrap();
}

/// issue 14 item 1 and 4 (in part): through signed mails and `run`, the setup card is recorded
/// on arrival but no mail to the other player names it until both have chosen; then every
/// player's mail shows the reveal and the order (001 "Preparazione del gioco" 2; DESIGN §5).
#[test]
fn a_sealed_card_reaches_no_other_players_mail_before_the_reveal() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("h");
    let o = new_home(&home, &["red", "blue"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    signed_mail(
        &home,
        "red",
        1,
        1,
        "capital: appalachia\nplay highest cp",
        "r1",
    );
    let o = dustmail(&home, &["run", "--once", "--now", "2026-01-01T01:00:00Z"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // Red's card: the highest CP of c01–c06 under the real hidden stream. Read it from red's
    // own receipt, then check blue's mails never name it.
    // Receipts go to their sender alone: the only one so far is red's.
    let red = unfold(&(mails(&home.join("sent"), "receipt") + &mails(&home.join("sent"), "red")));
    // (Since issue 17 item 3 the receipt heads red's report, whose briefing says "you play red".)
    let at = red
        .find("you play c")
        .expect("red's receipt names the card");
    let card: String = red[at + 9..].chars().take(3).collect();
    assert!(card.starts_with('c'), "{card}");
    let blue = unfold(&mails(&home.join("sent"), "blue"));
    assert!(
        blue.contains("red has chosen a card"),
        "blue is told red chose"
    );
    assert!(
        !blue.contains(&format!("{card} (CP")),
        "blue's mail names red's card {card}"
    );
    assert!(!blue.contains("the cards are revealed"));
    // Blue chooses: both see the reveal.
    signed_mail(&home, "blue", 2, 1, "play highest production", "b1");
    let o = dustmail(&home, &["run", "--once", "--now", "2026-01-01T02:00:00Z"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    for side in ["red", "blue"] {
        let m = unfold(&mails(&home.join("sent"), side));
        assert!(
            m.contains("the cards are revealed"),
            "{side} sees no reveal"
        );
    }
    let blue = unfold(&mails(&home.join("sent"), "blue"));
    assert!(
        blue.contains(&format!("red {card} (CP")),
        "the reveal names red's card"
    );
    let o = dustmail(&home, &["replay", "g1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

// ---------------------------------------------------------------------------------------------
// Defaults, the end, and the rulings cited.

/// issue 14 item 1, ruling R311: a deadline passed plays the first card of the hand, places no
/// reinforcement and ends the turn; the game goes on.
#[test]
fn deadline_defaults_play_the_first_card_and_end_the_turn() {
    let mut s = new_state(&["red", "blue"]);
    all_ok(&send(&mut s, "blue", &["play c09"]));
    let o = DustStrategy.default_for(&mut s, "red", &mut FirstCard);
    assert!(o.accepted_any(), "{o:?}");
    assert_eq!(s.played["red"], "c01", "the first card of c01–c06");
    assert_eq!(s.phase, Phase::Reinforce);
    DustStrategy.default_for(&mut s, "red", &mut FirstCard);
    DustStrategy.default_for(&mut s, "blue", &mut FirstCard);
    assert_eq!(s.phase, Phase::Cards);
    DustStrategy.default_for(&mut s, "red", &mut FirstCard);
    DustStrategy.default_for(&mut s, "blue", &mut FirstCard);
    let first = s.current().unwrap().to_string();
    DustStrategy.default_for(&mut s, &first, &mut FirstCard);
    assert_ne!(s.current(), Some(first.as_str()));
}

/// issue 14 item 1: 001 "Conclusione del gioco" (digest 001 §7 step 3): the game ends in the VP
/// phase where someone reaches 40; the highest total wins.
#[test]
fn the_game_ends_when_a_player_reaches_40() {
    let mut s = two_in_round_one();
    s.vp.insert("red".into(), 38);
    s.vp.insert("blue".into(), 39);
    all_ok(&send(
        &mut s,
        "red",
        &["build 1 sub at caribbean-sea", "end"],
    ));
    let o = send(&mut s, "blue", &["end"]);
    all_ok(&o);
    // Red: 38 + 2 (capital) + 2 (sea) + 1 (three deposits) = 43; blue: 39 + 2 = 41.
    let r = o.finished.expect("the game ends");
    assert_eq!(r.winner.as_deref(), Some("red"));
    assert_eq!(r.points["red"], 43);
    assert_eq!(s.phase, Phase::Over);
    assert!(DustStrategy.awaiting(&s).is_empty());
}

/// issue 14: every ruling the game's code cites (R3nn) is a heading of docs/rulings.md.
#[test]
fn every_ruling_dust_strategy_cites_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rulings = std::fs::read_to_string(root.join("docs/rulings.md")).unwrap();
    let dir = root.join("src/games/dust_strategy");
    let mut cited = std::collections::BTreeSet::new();
    // The game's sources, its folders (picture/) included.
    let mut files = Vec::new();
    let mut dirs = vec![dir];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                files.push(p);
            }
        }
    }
    for f in files {
        let t = std::fs::read_to_string(f).unwrap();
        for (i, _) in t.match_indices("ruling R3") {
            let n: String = t[i + 8..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if n.len() == 3 {
                cited.insert(n);
            }
        }
    }
    assert!(cited.len() >= 8, "{cited:?}");
    for n in cited {
        assert!(
            rulings.contains(&format!("\n### R{n}. ")),
            "R{n} is cited but not in docs/rulings.md"
        );
    }
}
