//! `ask`, the only pause of dust-strategy (issue 14 item 3 "only what a player chose 'ask' for
//! pauses the game"; digest 001 §10.1, §10.2; docs/strategy.md "ask"; rulings R351–R353): a
//! defender's standing `defend AREA: ask` pauses a land battle there until its answer `battle
//! at AREA: …` or the deadline; the attacker's later lines wait, then run with their conditions.

use super::combat::send_rolling;
use super::retreats::{red_across_the_atlantic, tanks};
use super::*;

/// Red at caribe with 5 tanks and a sub in the central Atlantic; blue holds iberia with 2 tanks
/// and britannia with 1, and asks for iberia (its standing order: retreat at 2 to gallia).
fn blue_asks_for_iberia() -> State {
    let mut s = red_across_the_atlantic();
    s.areas.get_mut("caribe").unwrap().add("red", Unit::Tank, 2);
    let o = send(
        &mut s,
        "blue",
        &["defend iberia: retreat at 2 to gallia; ask"],
    );
    all_ok(&o);
    s
}

/// Red's turn mail: the attack on iberia, an attack on britannia only if the first is won, end.
const RED_TURN: [&str; 3] = [
    "amphibious attack 3 tanks from caribe to iberia",
    "amphibious attack 2 tanks from caribe to britannia if attack 1 won",
    "end",
];

fn understood(o: &Outcome, line: usize) -> String {
    match &o.results[line - 1].outcome {
        CommandOutcome::Accepted { understood } => understood.clone(),
        CommandOutcome::Refused { reason, .. } => panic!("line {line} refused: {reason}"),
    }
}

/// The paused state after red's turn mail, with what the pause must (not) have done.
fn paused() -> State {
    let mut s = blue_asks_for_iberia();
    let before = s.clone();
    // `send` rolls with a source that panics on a die: no die is rolled before the answer.
    let o = send(&mut s, "red", &RED_TURN);
    all_ok(&o);
    assert!(
        understood(&o, 1).contains("waits for blue's answer"),
        "{o:?}"
    );
    assert!(understood(&o, 2).starts_with("held"), "{o:?}");
    assert!(understood(&o, 3).starts_with("held"), "{o:?}");
    assert_eq!(s.areas, before.areas, "no unit moved before the answer");
    assert_eq!(s.turn.as_ref().unwrap().attacked, 0, "no CP spent");
    assert_eq!(s.phase, Phase::Turn { index: 0 }, "red's turn is not over");
    let a = DustStrategy.awaiting(&s);
    assert_eq!(a.len(), 1, "{a:?}");
    assert_eq!(
        (a[0].side.as_str(), a[0].decision.as_str()),
        ("blue", "battle")
    );
    // What blue reads: what attacks, by what, what to answer; the others read only that a
    // battle waits, never red's held lines.
    let to_blue: Vec<&str> = o
        .happenings
        .iter()
        .filter(|h| h.audience == Audience::Side("blue".into()))
        .map(|h| h.text.as_str())
        .collect();
    assert_eq!(to_blue.len(), 1, "{:?}", o.happenings);
    assert!(
        to_blue[0].contains("red attacks iberia with 3 tanks from caribe")
            && to_blue[0].contains("battle at iberia: as standing"),
        "{}",
        to_blue[0]
    );
    for h in o
        .happenings
        .iter()
        .filter(|h| h.audience == Audience::Everyone)
    {
        assert!(
            !h.text.contains("britannia") && !h.text.contains("3 tanks"),
            "{}",
            h.text
        );
    }
    let template = DustStrategy.orders_template(&s, "blue");
    assert!(
        template.contains("\nbattle at iberia: as standing\n"),
        "{template}"
    );
    s
}

/// issue 14 item 3 (`ask`, the pause and the answer): "only what a player chose 'ask' for pauses
/// the game"; digest 001 §10.1 (the defender chooses its casualties); rulings R351–R353. Red's attack on iberia, which blue asked for,
/// stops red's script before that line: nothing is rolled or spent, red's later lines are held
/// and refused if sent again, blue alone is awaited. Blue's answer decides the battle (no
/// retreat, against its standing `retreat at 2`), and red's held `… if attack 1 won` then runs,
/// and red's `end` ends the turn; red alone reads the receipts of its held lines.
#[test]
fn an_asked_battle_waits_for_the_defenders_answer_then_the_attackers_script_goes_on() {
    let mut s = paused();
    // While it waits: red's turn lines are refused, a wrong answer changes nothing.
    let before = s.clone();
    let o = send(
        &mut s,
        "red",
        &["attack 1 tank from caribe to mexico", "end"],
    );
    refused_with(&o, 1, "waits for blue's answer");
    let o = send(&mut s, "blue", &["battle at britannia: as standing"]);
    refused_with(&o, 1, "is at iberia");
    let o = send(&mut s, "blue", &["battle at iberia: hits: tanks; ask"]);
    refused_with(&o, 1, "belongs in a standing order");
    assert_eq!(s, before, "refused lines change nothing");
    // Blue's answer: fight to the end. Blue fires first (0 against 0): 2 dice, blank; red 3
    // dice, 2 hits: iberia falls. Then attack 2 (its condition holds): blue 1 die, blank; red
    // 2 dice, 1 hit: britannia falls.
    let o = send_rolling(
        &mut s,
        "blue",
        &["battle at iberia: nothing"],
        &[6, 6, 1, 1, 6, 6, 1, 6],
    );
    all_ok(&o);
    assert!(understood(&o, 1).contains("fought now"), "{o:?}");
    let all: String = o.happenings.iter().map(|h| h.text.clone()).collect();
    assert!(
        !all.contains("withdraws"),
        "the answer, not the standing order: {all}"
    );
    assert_eq!(s.owner("iberia"), Some("red"));
    assert_eq!(s.owner("britannia"), Some("red"), "the held line ran");
    assert_eq!(tanks(&s, "iberia"), 3);
    let to_red: Vec<&str> = o
        .happenings
        .iter()
        .filter(|h| h.audience == Audience::Side("red".into()))
        .map(|h| h.text.as_str())
        .collect();
    assert_eq!(to_red.len(), 1, "{:?}", o.happenings);
    assert!(
        to_red[0].contains("line 2: amphibious attack") && to_red[0].contains("line 3: end"),
        "{}",
        to_red[0]
    );
    assert!(DustStrategy
        .awaiting(&s)
        .iter()
        .all(|a| a.decision != "battle"));
    assert_eq!(s.current(), Some("blue"), "red's held `end` ended its turn");
    // No battle waits now: another answer is refused.
    let o = send(&mut s, "blue", &["battle at iberia: as standing"]);
    refused_with(&o, 1, "no battle waits");
}

/// issue 14 item 3 (`ask`, the deadline): ruling R352: without an answer by the deadline the
/// battle is fought by the asked side's standing order without `ask` (here: one tank withdraws
/// to gallia before the first roll), and red's held lines run as after an answer.
#[test]
fn an_unanswered_asked_battle_is_fought_by_the_standing_order_at_the_deadline() {
    let mut s = paused();
    // Retreat at 2: one blue tank withdraws before blue's roll; blue 1 die, blank; the other
    // withdraws before red's roll: iberia falls. Attack 2: blue 1 die, blank; red 2 dice, 1 hit.
    let mut d = super::combat::Faces([6, 6, 1, 6].into_iter().collect());
    let o = DustStrategy.default_for(&mut s, "blue", &mut d);
    assert!(
        d.0.is_empty(),
        "{} faces left: {:?}",
        d.0.len(),
        o.happenings
    );
    let all: String = o.happenings.iter().map(|h| h.text.clone()).collect();
    assert!(all.contains("did not answer"), "{all}");
    assert!(all.contains("blue withdraws 1 tank to gallia"), "{all}");
    assert_eq!(s.owner("iberia"), Some("red"));
    assert_eq!(s.owner("britannia"), Some("red"));
    assert_eq!(s.current(), Some("blue"));
}

/// issue 14 item 3 (`ask`): ruling R351: only a standing `ask` pauses: once blue's order for
/// iberia is replaced by one without it, red's attack is fought at once, as before.
#[test]
fn without_ask_the_battle_is_fought_at_once_as_before() {
    let mut s = blue_asks_for_iberia();
    let o = send(&mut s, "blue", &["defend iberia: retreat at 2 to gallia"]);
    all_ok(&o);
    assert!(
        understood(&o, 1).ends_with("retreat at 2 to gallia"),
        "{o:?}"
    );
    let o = send_rolling(
        &mut s,
        "red",
        &["amphibious attack 3 tanks from caribe to iberia"],
        // Both blue tanks withdraw by the retreat, one before each roll: a single die.
        &[6],
    );
    all_ok(&o);
    assert!(DustStrategy
        .awaiting(&s)
        .iter()
        .all(|a| a.decision != "battle"));
    assert_eq!(s.owner("iberia"), Some("red"));
}

/// Blue's answer to every other asked battle: a casualty order no other mail holds, so a leak
/// would show.
const ANSWER: &str = "hits: robots, bombers, tanks, fighters; retreat at 2";

/// issue 14 item 3 (`ask` through signed mails; docs/strategy.md "Tests to write with it";
/// rulings R351–R353): three scripted players play a whole game by signed mails through
/// `referee::run`; blue's standing order is `defend all: …; ask`, so every attack on blue pauses
/// for blue: blue answers the first, third… with one signed mail and lets the deadline pass on
/// the others. The game ends, replays and audits with H; no mail to one player before the end
/// holds another's hidden cards, standing order, blue's answer or red's held lines; and the
/// players who never ask still send at most 2 mails a round after setup.
#[test]
fn three_players_by_signed_mail_blue_asks_answers_and_lets_deadlines_pass() {
    use super::scripted::{address, seat_key, verify, Table, ORDERS};
    use crate::support::{flat, real_mail, t};
    let table = Table::new(&["red", "blue", "green"]);
    let mut now = t("2026-03-01T10:00:00Z");
    let late = chrono::Duration::hours(
        (table.config.deadline_hours + table.config.grace_hours + 1).into(),
    );
    let mut seq: BTreeMap<String, u64> = BTreeMap::new();
    let mut sent: BTreeMap<String, usize> = BTreeMap::new();
    let (mut answered, mut lapsed, mut n) = (0, 0, 0);
    let rounds = 'game: {
        for step in 0..3000 {
            let g =
                dustmail::referee::load_game(&DustStrategy, &table.edges, &table.home, &table.id)
                    .unwrap();
            let s: &State = g.derived.state.typed();
            if g.derived.finished.is_some() {
                break 'game s.round;
            }
            let awaiting = DustStrategy.awaiting(s);
            if let [a] = awaiting.as_slice() {
                if a.decision == "battle" {
                    assert_eq!(a.side, "blue", "only blue asks");
                    if (answered + lapsed) % 2 == 1 {
                        // Nobody writes: the deadline passes and the standing order decides.
                        now += late;
                        let sum =
                            dustmail::referee::run(&table.ctx(now), &table.home.maildir()).unwrap();
                        assert_eq!(sum.defaults, 1, "step {step}: {sum:?}");
                        lapsed += 1;
                        continue;
                    }
                    answered += 1;
                }
            }
            let mut mails = 0;
            for a in &awaiting {
                let i = table.sides.iter().position(|x| *x == a.side).unwrap();
                let mut text = String::new();
                if !seq.contains_key(&a.side) {
                    let ask = if a.side == "blue" { "; ask" } else { "" };
                    text.push_str(&format!(
                        "defend all: hits: {}; retreat at 1{ask}\n",
                        ORDERS[i]
                    ));
                }
                if a.decision == "battle" {
                    let area = a.options[0]
                        .trim_start_matches("battle at ")
                        .split(':')
                        .next()
                        .unwrap();
                    text.push_str(&format!("battle at {area}: {ANSWER}\n"));
                } else {
                    text.push_str(&DustStrategy.sample_orders(s, &a.side, 0).unwrap());
                }
                let k = seq.entry(a.side.clone()).or_insert(0);
                *k += 1;
                let body = format!("game: {}\nside: {}\nseq: {k}\n\n{text}", table.id, a.side);
                let mail = real_mail(
                    &address(&a.side),
                    &format!("<a{n}@players.example>"),
                    &seat_key(i),
                    &body,
                );
                let path = table.home.maildir().join("new").join(format!("{n:05}.eml"));
                std::fs::write(path, mail).unwrap();
                n += 1;
                mails += 1;
                *sent.entry(a.side.clone()).or_insert(0) += 1;
            }
            now += chrono::Duration::hours(1);
            let sum = dustmail::referee::run(&table.ctx(now), &table.home.maildir()).unwrap();
            assert_eq!(
                (sum.accepted, sum.refused),
                (mails, 0),
                "step {step}: every signed mail is accepted: {sum:?}"
            );
        }
        panic!("the game did not end in 3000 steps");
    };
    verify(&table);
    println!("3 players, blue asks: {rounds} rounds, {answered} battles answered, {lapsed} left to the deadline, mails sent {sent:?}");
    assert!(
        answered >= 1 && lapsed >= 1,
        "{answered} answered, {lapsed} lapsed"
    );
    for side in ["red", "green"] {
        let n = sent[side];
        assert!(
            n <= 2 + 2 * rounds as usize,
            "{side}: {n} mails in {rounds} rounds"
        );
    }
    assert!(sent["blue"] <= 2 + 2 * rounds as usize + answered);
    // Every mail before the end: what is one player's stays in that player's mails.
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (id, mail) in table.sink.matching("") {
        if id.contains("-end-") {
            continue;
        }
        let Some(to) = table
            .sides
            .iter()
            .find(|s| mail.to.iter().any(|a| *a == address(s)))
        else {
            continue;
        };
        let text = flat(&mail.text);
        let own: [(&str, &str); 3] = [
            ("blue", "You asked to decide this battle"),
            ("blue", ANSWER),
            ("red", "your lines held for blue's answer"),
        ];
        for (owner, secret) in own {
            if to == owner {
                if text.contains(secret) {
                    *seen.entry(secret).or_insert(0) += 1;
                }
            } else {
                assert!(!text.contains(secret), "{id} (to {to}) shows `{secret}`");
            }
        }
        for (i, other) in table.sides.iter().enumerate() {
            if other == to {
                continue;
            }
            let ask = if other == "blue" { "; ask" } else { "" };
            for secret in [
                format!("{other} is dealt"),
                format!("{other} draws"),
                format!("{other} plays c"),
                format!("defend all: hits: {}; retreat at 1{ask}", ORDERS[i]),
            ] {
                assert!(!text.contains(&secret), "{id} (to {to}) shows `{secret}`");
            }
        }
    }
    assert_eq!(seen.len(), 3, "each owner reads its own: {seen:?}");
}

/// issue 14 item 5 (the map picture: links between areas; 001 "Piano di gioco": land and sea
/// areas linked, coast links dashed, the east–west wrap; digest 001 §1.1): the SVG has one link
/// for each link of the map, in the map's order: one line, dashed for a coast link, or two
/// pieces across the picture's edges for a link that wraps; the PNG shows a land link in the gap
/// between two linked cells side by side.
#[test]
fn the_map_picture_draws_one_link_per_map_edge_with_coasts_dashed_and_the_wrap() {
    use super::picture::{decode, pixel, rgb};
    use dustmail::games::dust_strategy::picture::MapPicture;
    let s = two_in_round_one();
    let view = DustStrategy.view(&s, None);
    let svg = DustStrategy.picture_svg(&view, None, &[]).unwrap();
    assert_eq!(svg.matches("data-link=").count(), s.map.links.len());
    let mut last = 0;
    let (mut wraps, mut coasts) = (0, 0);
    for l in &s.map.links {
        let start = format!(r#"data-link="{} {}""#, l.a, l.b);
        let i = svg[last..].find(&start).expect(&start) + last;
        last = i;
        let g = &svg[i..i + svg[i..].find("</g>").unwrap()];
        let kind = serde_json::to_value(l.kind).unwrap();
        let kind = kind.as_str().unwrap();
        assert!(svg[..i].ends_with(&format!("link-{kind}\" ")), "{g}");
        assert_eq!(
            g.matches("<line ").count(),
            if l.wrap { 2 } else { 1 },
            "{g}"
        );
        assert_eq!(g.contains("data-wrap"), l.wrap, "{g}");
        assert_eq!(g.contains("stroke-dasharray"), kind == "coast", "{g}");
        wraps += usize::from(l.wrap);
        coasts += usize::from(kind == "coast");
    }
    assert!(wraps > 0 && coasts > 0, "{wraps} wraps, {coasts} coasts");
    // A land link between two cells side by side crosses the gap at the cells' middle height.
    let pic = MapPicture::from_view(&view, None, &[]).unwrap();
    let cell = |id: &str| pic.areas.iter().find(|a| a.id == id).unwrap().cell;
    let l = s
        .map
        .links
        .iter()
        .find(|l| {
            let (a, b) = (cell(&l.a), cell(&l.b));
            serde_json::to_value(l.kind).unwrap() == "land" && a[1] == b[1] && b[0] == a[0] + 1
        })
        .expect("a land link between cells side by side");
    let (x, y) = pic.cell_origin(cell(&l.b));
    let png = decode(&DustStrategy.picture(&view, None, &[]).unwrap().bytes);
    assert_eq!(
        pixel(&png, (x - 2, y + 32)),
        rgb("#7a5a2e"),
        "{} {}",
        l.a,
        l.b
    );
}

/// issue 14 item 3 with issue 15 item 2 (ruling R336): in a strategic campaign's game, a battle
/// the table decides is never asked: blue's standing `ask` for iberia does not pause red's land
/// attack there; the game waits for the Dust Tactics game instead, and blue is asked nothing.
#[test]
fn a_battle_fought_on_the_table_is_never_asked() {
    use dustmail::games::dust_strategy::elsewhere::Tactical;
    let mut s = blue_asks_for_iberia();
    let g = s.areas.get_mut("gallia").unwrap();
    g.units.clear();
    g.owner = None;
    g.add("red", Unit::Tank, 3);
    s.tactical = Some(Tactical {
        count: 0,
        awaited: None,
        kinds: vec![Unit::Tank],
        ..Default::default()
    });
    let o = send(&mut s, "red", &["attack 2 tanks from gallia to iberia"]);
    all_ok(&o);
    assert!(understood(&o, 1).contains("fought on the table"), "{o:?}");
    assert!(DustStrategy
        .awaiting(&s)
        .iter()
        .all(|a| a.decision != "battle"));
    let t = s.tactical.as_ref().unwrap();
    let a = t.awaited.as_ref().expect("the battle waits for the table");
    assert_eq!((a.to.as_str(), a.defender.as_str()), ("iberia", "blue"));
    assert!(s.ask.is_none(), "no ask pause: {:?}", s.ask);
}
