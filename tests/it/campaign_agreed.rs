//! Issue 15 item 2, `tactical = "agreed"` (ruling R337) played whole: a strategic campaign whose
//! battles go to the table only where both players said `table battles: yes`, played to its end
//! by scripted players through signed mails and `run`, shown, and verified by `campaign audit`.

use crate::campaign_strategic::{audit, load, new_campaign, play_saying, players, RULES};
use crate::support::dt::{self, InProc};
use serde_json::Value;

/// Every string in a ledger line.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// The round from which blue says yes: red says yes from its first mail, so the battles
/// between them before this round are rolled and those after go to the table.
const BLUE_FROM: u32 = 3;

/// docs/campaigns.md "Battles on the table where both players agree", ruling R337: the orders
/// template offers each player's choice as it stands (`table battles: no`), and sent back
/// unchanged it is accepted and leaves the choice as it was. Red's scripted player writes `table battles:
/// yes` above every mail; blue's only from round 3. A land battle between them before blue's
/// yes is rolled by 001's dice; after it, at least one goes to the table as a Dust Tactics game,
/// played by the bots, whose result decides it. The report shows both choices; the campaign is
/// played to its end and `campaign audit` verifies it.
#[test]
fn an_agreed_strategic_campaign_is_played_to_its_end_with_battles_rolled_and_on_the_table() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(&d.path().join("home"), "file");
    let ps = players();
    let agreed = RULES.replace(r#"tactical = "all""#, r#"tactical = "agreed""#);
    let o = new_campaign(&home, "war", &agreed, &ps);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));

    // The template's line, sent back unchanged by red: accepted, nothing changed.
    let env = InProc::open(&home);
    let load_war = || {
        dustmail::referee::load_any(&dustmail::cli::registry(), &env.edges, &env.home, "war-1")
            .unwrap()
    };
    let g = load_war();
    let template = g.game.orders_template(&g.derived.state, "red");
    assert!(
        template.contains("\ntable battles: no\n"),
        "the template offers the choice as it stands:\n{template}"
    );
    let before = g.derived.state.clone();
    std::fs::write(
        home.maildir().join("new").join("template.eml"),
        dt::mail(
            &ps[0].address,
            "template@p",
            &ps[0].key,
            &dt::orders("war-1", "red", 1, &template),
        ),
    )
    .unwrap();
    let sum = env.run(dt::NOW);
    assert!(sum.broken.is_empty(), "{sum:?}");
    let log = dt::log_path(&home, "war-1");
    let last: Value = serde_json::from_str(
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(last["kind"], "submission");
    assert_eq!(last["accepted"], true, "{last}");
    let mut said = Vec::new();
    strings(&last, &mut said);
    assert!(
        said.iter()
            .any(|s| s.contains("red wants its battles rolled")),
        "{said:?}"
    );
    // The choice stands as it was: no (the game's first step deals the cards, as any does).
    let after = serde_json::to_value(&load_war().derived.state).unwrap();
    assert_eq!(
        after["table_battles"],
        serde_json::json!([]),
        "{}",
        after["table_battles"]
    );
    assert_eq!(
        after["table_battles"],
        serde_json::to_value(&before).unwrap()["table_battles"]
    );

    let runs = play_saying(&home, "war", &ps, &|colour, round| {
        if colour == "red" || round >= BLUE_FROM {
            "table battles: yes\n"
        } else {
            ""
        }
    });
    let c = load(&home, "war");
    println!("agreed campaign: {runs} runs, {} games", c.games.len());
    assert!(c.finished);
    assert!(c.games.len() >= 2, "no battle was fought on the table");
    assert!(c.games[1..].iter().all(|g| g.ended.is_some()));

    // Rolled battles between the two players (001's dice) and battles on the table.
    let mut texts = Vec::new();
    for l in std::fs::read_to_string(&log).unwrap().lines() {
        strings(&serde_json::from_str(l).unwrap(), &mut texts);
    }
    let between = |t: &&String| {
        (t.starts_with("red attacks ") && t.contains(" (blue, "))
            || (t.starts_with("blue attacks ") && t.contains(" (red, "))
    };
    let rolled = texts
        .iter()
        .filter(between)
        .filter(|t| !t.contains("fought on the table"))
        .count();
    let tabled = texts
        .iter()
        .filter(between)
        .filter(|t| t.contains("fought on the table"))
        .count();
    assert!(rolled >= 1, "no battle between the players was rolled");
    assert!(tabled >= 1, "no battle went to the table");

    // The report shows each player's choice.
    let reports: Vec<String> = dt::names(&home.root.join("sent"))
        .into_iter()
        .filter(|n| n.starts_with("war-1-"))
        .map(|n| std::fs::read_to_string(home.root.join("sent").join(n)).unwrap_or_default())
        .map(|t| crate::support::flat(&t))
        .collect();
    for want in [
        "table battles (on the table where both say yes): red yes, blue no",
        "table battles (on the table where both say yes): red yes, blue yes",
    ] {
        assert!(
            reports.iter().any(|t| t.contains(want)),
            "no report: {want}"
        );
    }

    let o = dt::dustmail(&home.root, &["campaign", "show", "war"]);
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("battle 1 of war-1 at "));
    let o = audit(&home.root.join("campaigns").join("war"));
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
}
