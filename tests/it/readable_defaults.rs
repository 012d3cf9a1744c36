//! Issue 16 item 5 (the rest): sentences true for their reader, defaults stated.
//!
//! The welcome mail states every default that acts for a player, each with a line that changes
//! it and that the referee accepts when sent; the `first` decision of the orders template says
//! what is true for its reader before the roll, for the winner and for the loser.

use crate::support::dt;
use crate::support::flat;
use dustmail::dust_tactics::state::Phase;
use dustmail::dust_tactics::DustTactics;
use dustmail::game::{Game, NewRequest};
use mail_parser::MessageParser;

/// The text part of the welcome mail sent to `address` in a home made by the real binary.
fn welcome_text(home: &dustmail::config::Home, address: &str) -> String {
    let sent = home.root.join("sent");
    for n in dt::names(&sent) {
        if !n.contains("-welcome-") {
            continue;
        }
        let raw = std::fs::read(sent.join(&n)).unwrap();
        let m = MessageParser::default().parse(&raw).unwrap();
        let to_them = m
            .to()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .is_some_and(|a| a == address);
        if to_them {
            return m.body_text(0).expect("a text part").into_owned();
        }
    }
    panic!("no welcome mail to {address} in {:?}", dt::names(&sent));
}

/// The lines the briefing offers (indented under a default), as they are to be sent.
fn offered_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("    ") && !l.starts_with("     "))
        .map(|l| l.trim().to_string())
        .filter(|l| l.starts_with("standing ") || l.starts_with("absent until"))
        .collect()
}

fn state_of(ruleset: Option<&str>) -> dustmail::dust_tactics::state::State {
    let plan = DustTactics
        .plan_new(&NewRequest {
            ruleset: ruleset.map(str::to_string),
            scenario: Some("skirmish".into()),
            ..NewRequest::default()
        })
        .unwrap();
    DustTactics.setup(&plan.setup).unwrap()
}

// issue 16 item 5: the welcome mail lists each default with the line that changes it, and
// every such line is accepted when the player sends it.
#[test]
fn the_welcome_mail_states_each_default_and_its_lines_are_accepted() {
    let d = tempfile::tempdir().unwrap();
    let home = dt::init_home(d.path(), "file");
    let ps = dt::players(7);
    dt::new_game(&home, "g-def", &ps, 3);
    let ip = dt::InProc::open(&home);
    ip.run(dt::NOW);
    let text = welcome_text(&home, &ps[0].address);
    // The ledger trailer is a machine line (mail_width.rs exempts it too).
    for l in text.lines().filter(|l| !l.starts_with("Ledger-Head")) {
        assert!(l.chars().count() <= 72, "{} chars: {l}", l.chars().count());
    }
    let words = flat(&text);
    for topic in [
        "Defaults: what the referee does for you when you send nothing",
        "Reactive fire:",
        "spends its activation",
        "Casualties:",
        "Close combat:",
        "Initiative: the side that wins it activates first",
        "A missed deadline:",
    ] {
        assert!(words.contains(topic), "{topic:?} missing in:\n{text}");
    }
    let lines = offered_lines(&text);
    assert_eq!(
        lines,
        [
            "standing react any never",
            "standing react any ask",
            "standing casualties any ask",
            "standing retaliate any no",
            "standing retaliate any ask",
            "standing first axis",
            "standing first ask",
            "absent until YYYY-MM-DD",
        ],
        "{text}"
    );
    // Every offered line, sent as is (the absence with a real date), is applied, not refused.
    let sendable: Vec<String> = lines
        .iter()
        .map(|l| l.replace("YYYY-MM-DD", "2026-03-05"))
        .collect();
    let mail = dt::mail(
        &ps[0].address,
        "defaults-1@players.example",
        &ps[0].key,
        &dt::orders("g-def", "allies", 1, &sendable.join("\n")),
    );
    std::fs::write(home.maildir().join("new").join("defaults.eml"), mail).unwrap();
    ip.run(dt::NOW);
    let subs = dt::submissions(&home, "g-def");
    assert_eq!(subs.len(), 1, "{subs:?}");
    assert!(subs[0].2, "the mail of standing lines was not accepted");
    // The answer to the player restates each line; none is refused.
    let sent = home.root.join("sent");
    let replies: Vec<String> = dt::names(&sent)
        .into_iter()
        .filter(|n| !n.contains("-welcome-"))
        .map(|n| {
            let raw = std::fs::read(sent.join(&n)).unwrap();
            let m = MessageParser::default().parse(&raw).unwrap();
            m.body_text(0).unwrap_or_default().into_owned()
        })
        .filter(|b| b.contains("were received and applied"))
        .collect();
    assert_eq!(replies.len(), 1, "{replies:?}");
    let reply = &replies[0];
    assert!(!reply.contains("refused"), "{reply}");
    for l in &sendable {
        let l = l.trim_end_matches("2026-03-05");
        assert!(reply.contains(&format!("understood: {l}")), "{l}: {reply}");
    }
    assert_eq!(
        reply.matches("understood: ").count(),
        sendable.len(),
        "{reply}"
    );
}

// issue 16 item 5: classic-2010 has no reactive fire, so its briefing does not offer it; the
// other defaults are stated there too.
#[test]
fn the_classic_briefing_names_no_reactive_fire() {
    let b = DustTactics.briefing(&state_of(Some("classic-2010")), "axis");
    for l in b.lines() {
        assert!(l.chars().count() <= 72, "{} chars: {l}", l.chars().count());
    }
    assert!(!b.contains("standing react"), "{b}");
    assert!(!flat(&b).contains("Reactive fire"), "{b}");
    assert_eq!(
        offered_lines(&b),
        [
            "standing casualties any ask",
            "standing retaliate any no",
            "standing retaliate any ask",
            "standing first allies",
            "standing first ask",
            "absent until YYYY-MM-DD",
        ],
        "{b}"
    );
}

// issue 16 item 5: the initiative sentence is true for its reader: before the roll both sides
// are told it is still to roll and what their line means if they win; after it the winner is
// told it won and the loser who won and that it is not asked.
#[test]
fn the_initiative_sentence_is_true_for_winner_loser_and_before_the_roll() {
    let mut s = state_of(None);
    assert!(matches!(s.phase, Phase::Initiative));
    for side in ["allies", "axis"] {
        // The comment's words, without the `#` that starts each template line.
        let t = flat(&DustTactics.orders_template(&s, side).replace('#', " "));
        assert!(!t.contains("You won the initiative"), "{t}");
        assert!(t.contains("The initiative is still to roll"), "{t}");
        assert!(t.contains("If you win it, who activates first?"), "{t}");
        assert!(
            t.contains("the first mail with more than standing orders rolls it"),
            "{t}"
        );
        assert!(
            t.contains("first allies") && t.contains("first axis"),
            "{t}"
        );
    }
    // The roll as the engine makes it: axis asks to choose by mail, allies states `first
    // allies` before the roll, which rolls it; axis wins 1 hit to 0 (scripted dice) and is asked.
    use dustmail::dust_tactics::orders::Command;
    let mut d = dustmail::game::ScriptedDice::new([5, 5, 5, 1, 5, 5]);
    let ask = Command::StandingFirst { side: None };
    assert!(DustTactics
        .command(&mut s, "axis", &ask, &mut d)
        .accepted_any());
    let first = Command::First {
        side: "allies".into(),
    };
    assert!(DustTactics
        .command(&mut s, "allies", &first, &mut d)
        .accepted_any());
    assert_eq!(d.remaining(), 0);
    assert_eq!(s.initiative.as_deref(), Some("axis"));
    assert!(
        matches!(&s.phase, Phase::First { winner } if winner == "axis"),
        "{:?}",
        s.phase
    );
    let winner = DustTactics.orders_template(&s, "axis");
    assert!(
        winner.contains("# You won the initiative: who activates first?"),
        "{winner}"
    );
    assert!(!winner.contains("still to roll"), "{winner}");
    let loser = DustTactics.orders_template(&s, "allies");
    assert!(!loser.contains("You won"), "{loser}");
    assert!(
        loser.contains("# axis won the initiative and chooses who activates first."),
        "{loser}"
    );
    assert!(
        loser.contains("Nothing is awaited from you now."),
        "{loser}"
    );
    for t in [&winner, &loser] {
        for l in t.lines() {
            assert!(l.chars().count() <= 72, "{} chars: {l}", l.chars().count());
        }
    }
}
