//! issue 14 "Done means" ("every rule of 001 has a test that cites it"): docs/strategy-coverage.md
//! lists each rule section of 001 (its Italian heading, from the rulebook's index) with the
//! digest's section and the tests covering it; a test here keeps that table true. The tests
//! written for sections that had none follow, each citing 001 in Italian and the digest.

use super::combat::send_rolling;
use super::*;
use std::collections::BTreeSet;

/// The rule sections of 001 (`001_2683c8d8c3e0ca85.txt`, "INDICE" from "Come si gioca" to
/// "Poteri Speciali", then the eleven powers of "Poteri Speciali"), in the rulebook's order.
/// "L'antefatto" (the story) and "Credits" hold no rule.
const SECTIONS_001: [&str; 50] = [
    "Come si gioca",
    "Componenti",
    "Piano di gioco",
    "Il gioco in breve",
    "Preparazione del gioco",
    "Pezzi di gioco",
    "Le carte",
    "I round di gioco",
    "Sequenza di gioco",
    "Il turno di gioco",
    "Fase di produzione",
    "Fase di movimenti",
    "Movimento aereo/terrestre",
    "Movimento marino",
    "Movimento anfibio",
    "Movimento strategico",
    "Nota ai movimenti",
    "Fase di combattimento",
    "Regole di base",
    "Attacchi aereo/terrestri",
    "Attacchi anfibi",
    "Attacchi navali",
    "Restrizioni e regole speciali",
    "Primo turno",
    "Centri di Produzione",
    "Capitali",
    "Aree di terra libere",
    "Guarnigioni",
    "Ripetizione degli attacchi",
    "Attacchi combinati",
    "Aree neutrali",
    "Cessate il fuoco",
    "Ritirata",
    "Attacchi via mare",
    "Lotta ai Sottomarini",
    "Fase di calcolo dei Punti Vittoria",
    "La Supremazia",
    "Conclusione del gioco",
    "Poteri Speciali",
    "Costruttore di Robot",
    "Diplomatico",
    "Missili Balistici",
    "Sgancia Robot",
    "L'Asso del cielo",
    "Sigrid",
    "Raketen Truppen",
    "Infermiera",
    "Arma Segreta",
    "Radar Alieno",
    "Koshka",
];

/// Every `#[test] fn NAME` in tests/it/strategy.rs and tests/it/strategy/*.rs.
fn strategy_tests(root: &Path) -> BTreeSet<String> {
    let dir = root.join("tests/it/strategy");
    let mut files = vec![root.join("tests/it/strategy.rs")];
    for e in std::fs::read_dir(&dir).unwrap() {
        files.push(e.unwrap().path());
    }
    let mut names = BTreeSet::new();
    for f in files {
        let t = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = t.lines().collect();
        for w in lines.windows(2) {
            if w[0].trim() == "#[test]" {
                if let Some(rest) = w[1].trim().strip_prefix("fn ") {
                    names.insert(rest.split('(').next().unwrap().to_string());
                }
            }
        }
    }
    names
}

/// issue 14 "Done means": docs/strategy-coverage.md has one row for each rule section of 001,
/// in order, each naming the digest's section and at least one test; every test it names
/// exists in tests/it/strategy/**.
#[test]
fn the_coverage_table_names_a_real_test_for_every_section_of_001() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/strategy-coverage.md")).unwrap();
    let tests = strategy_tests(root);
    assert!(tests.len() > 60, "{} tests found", tests.len());
    let mut rows = Vec::new();
    for l in page.lines() {
        let cells: Vec<&str> = l.split('|').map(str::trim).collect();
        // | "Heading" | §n | `test`, `test` |
        if cells.len() < 5 || !cells[1].starts_with('"') {
            continue;
        }
        let heading = cells[1].trim_matches('"').to_string();
        assert!(
            cells[2].contains('§'),
            "{heading}: no digest section in `{}`",
            cells[2]
        );
        let named: Vec<&str> = cells[3]
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|n| !n.is_empty())
            .collect();
        assert!(!named.is_empty(), "{heading}: no test named");
        for n in named {
            assert!(
                tests.contains(n),
                "{heading}: `{n}` is no test in tests/it/strategy/**"
            );
        }
        rows.push(heading);
    }
    assert_eq!(
        rows,
        SECTIONS_001.map(String::from).to_vec(),
        "one row per section of 001, in the rulebook's order"
    );
}

/// issue 14 item 1: 001 "Pezzi di gioco" ("Carri — Costo: 2 • Potenza di fuoco: 1 • Iniziativa:
/// 0", "Robot — 5, 2, 1", "Caccia — 3, 1, 1", "Bombardieri — 6, 2, 1", "Sottomarini — 4, 1",
/// "Centri di produzione — 6"; digest 001 §1.2, §4): each piece costs what the text says, so a
/// budget of 26 buys exactly one of each and nothing more.
#[test]
fn each_piece_costs_what_pezzi_di_gioco_says() {
    let mut s = two_in_round_one();
    s.turn.as_mut().unwrap().budget = 26;
    let o = send(
        &mut s,
        "red",
        &[
            "build 1 tank at appalachia",
            "build 1 robot at appalachia",
            "build 1 fighter at appalachia",
            "build 1 bomber at hudson",
            "build 1 sub at caribbean-sea",
            "build pc at great-lakes",
            "build 1 tank at yukon",
        ],
    );
    for i in 0..6 {
        assert_eq!(reasons(&o)[i], "", "line {}: {:?}", i + 1, o.results);
    }
    refused_with(&o, 7, "PP");
    let t = s.turn.as_ref().unwrap();
    assert_eq!((t.budget, t.spent), (26, 26));
    // Firepower and initiative (001 "Pezzi di gioco"; "Regole di base").
    let table: Vec<(u32, u32)> = [
        Unit::Tank,
        Unit::Robot,
        Unit::Fighter,
        Unit::Bomber,
        Unit::Sub,
    ]
    .iter()
    .map(|u| (u.firepower(), u.initiative()))
    .collect();
    assert_eq!(table, vec![(1, 0), (2, 1), (1, 1), (2, 1), (1, 0)]);
}

/// issue 14 item 1: 001 "Nota ai movimenti" ("le aree di mare che si trovano lungo il bordo
/// orientale sono collegate a quelle che si trovano lungo il bordo occidentale e viceversa";
/// digest 001 §1.1, §5): a sub sails across the east–west edge in one move.
#[test]
fn a_sub_sails_across_the_east_west_edge_in_one_move() {
    let mut s = two_in_round_one();
    s.areas
        .get_mut("gulf-of-alaska")
        .unwrap()
        .add("red", Unit::Sub, 1);
    all_ok(&send(
        &mut s,
        "red",
        &["sea 1 sub from gulf-of-alaska to bering-sea"],
    ));
    assert_eq!(s.owner("bering-sea"), Some("red"));
    assert_eq!(s.turn.as_ref().unwrap().moved, 1);
}

/// issue 14 item 1: 001 "Attacchi combinati" ("Le unità di attacco devono provenire tutte dalla
/// stessa area, non è possibile combinare forze di attacco provenienti da aree diverse"; digest
/// 001 §6.12): an attack from two areas at once is refused and changes nothing.
#[test]
fn an_attack_from_two_areas_at_once_is_refused() {
    let mut s = super::combat::red_at_mexico(&[(Unit::Tank, 2)]);
    let before = s.clone();
    let o = send(
        &mut s,
        "red",
        &[
            "attack 1 tank from mexico, great-lakes to caribe",
            "attack 2 tanks from mexico, 1 tank from great-lakes to caribe",
        ],
    );
    for line in [1, 2] {
        refused_with(&o, line, "an attack comes from one area only");
        refused_with(&o, line, "Attacchi combinati");
    }
    assert_eq!(s, before, "a refused attack changes nothing");
}

/// issue 14 item 1: 001 "Aree neutrali" ("Le aree occupate da unità neutrali possono essere
/// attaccate senza limitazioni"; digest 001 §6.8; ruling R314 for who picks the neutrals'
/// losses): a neutral area may be attacked in round 1; the neutrals fire back and, beaten,
/// leave it to the attacker.
#[test]
fn a_neutral_area_may_be_attacked_in_round_one() {
    let mut s = super::combat::red_at_mexico(&[(Unit::Tank, 3)]);
    assert_eq!(s.owner("caribe"), Some("neutral"));
    let o = send_rolling(
        &mut s,
        "red",
        &["attack 4 tanks from mexico to caribe"],
        // Neutral (tank + robot, initiative 1) fires first: 3 dice, no hit. Red: 4 dice, two
        // hits (the tank, then the robot it no longer shields).
        &[6, 6, 6, 1, 2, 6, 6],
    );
    all_ok(&o);
    assert!(o.happenings[0].text.contains("neutral fires 3 dice"));
    assert_eq!(s.owner("caribe"), Some("red"));
}

/// issue 14 item 3 (conditions on every attack kind): digest 001 §10.2 ("a condition, e.g. 'only
/// if attack #2 won' or 'skip if target has > n units'"), 001 "Attacchi via mare", "Lotta ai
/// Sottomarini", "Attacchi navali", "Sgancia Robot", "Missili Balistici" (each an attack of the
/// turn; rulings R329, R350): `if attack N won|lost` and `if at most N defenders` work on
/// bombard, antisub, naval, drop and missile lines, before or after `hits:`; a failed one skips
/// the line and spends no CP; one the engine cannot read is refused.
#[test]
fn conditions_work_on_every_attack_kind() {
    let mut s = two_in_round_one();
    s.areas
        .get_mut("east-pacific")
        .unwrap()
        .add("red", Unit::Sub, 2);
    s.areas
        .get_mut("gulf-of-alaska")
        .unwrap()
        .add("blue", Unit::Sub, 3);
    s.areas
        .get_mut("cascadia")
        .unwrap()
        .add("red", Unit::Bomber, 2);
    let o = send_rolling(
        &mut s,
        "red",
        &[
            "bombard 2 subs from east-pacific to andes hits: robots",
            "antisub 2 bombers from cascadia to gulf-of-alaska if attack 1 lost",
            "antisub 2 bombers from cascadia to gulf-of-alaska if at most 2 defenders",
            "antisub 2 bombers from cascadia to gulf-of-alaska if attack 1 won",
            "naval 2 subs from east-pacific to gulf-of-alaska if attack 2 won",
            "bombard 1 sub from east-pacific to mexico hits: tanks if attack 1 lost",
            "sgancia-robot 1 robot from hudson to andes if attack 9 won",
            "missili-balistici at rhineland if attack 2 won",
            "bombard 1 sub from east-pacific to caribe if the tide is high",
        ],
        // Attack 1: the bombardment, 2 dice, 2 hits (andes emptied: won). Attack 2: the
        // anti-sub strike, 4 dice, 2 hits (1 blue sub left: not won).
        &[1, 2, 1, 2, 6, 6],
    );
    let r = reasons(&o);
    assert_eq!(
        &r[..8],
        &["", "", "", "", "", "", "", ""],
        "{:?}",
        o.results
    );
    refused_with(&o, 9, "is no condition");
    let said: Vec<String> = o
        .results
        .iter()
        .map(|r| format!("{:?}", r.outcome))
        .collect();
    for (i, why) in [
        (1, "attack 1 was not lost"),
        (2, "gulf-of-alaska holds 3, more than 2"),
        (4, "attack 2 was not won"),
        (5, "attack 1 was not lost"),
        (6, "there was no attack 9 this turn"),
        (7, "attack 2 was not won"),
    ] {
        assert!(
            said[i].contains(&format!("skipped, not attacked: {why}")),
            "line {}: {}",
            i + 1,
            said[i]
        );
    }
    assert!(said[3].contains("antisub 2 bombers"), "{}", said[3]);
    assert!(s.owner("andes").is_none());
    assert_eq!(s.holding("gulf-of-alaska").units[&Unit::Sub], 1);
    assert_eq!(
        s.turn.as_ref().unwrap().attacked,
        2,
        "skipped lines spend no CP"
    );
}
