//! Issue 11 items 1 and 5 (game side): Dust Tactics rulesets as policies ([`Rules`]), skills
//! as an enum ([`Skill`]) and typed rule citations ([`RuleId`]). The engine split by rule section (item 1) is a refactor: the rules
//! tests (rules/ffg_revised/, scripted_games.rs, scenarios.rs) check that it changed nothing.

use dustmail::dust_tactics::citation::RuleId;
use dustmail::dust_tactics::flow;
use dustmail::dust_tactics::orders::Command;
use dustmail::dust_tactics::rules::Rules;
use dustmail::dust_tactics::skill::Skill;
use dustmail::dust_tactics::{cards, scenario, DustTactics};
use dustmail::game::{CommandOutcome, Game, Outcome, Setup};

fn setup(ruleset: &str) -> Setup {
    let (name, text) = scenario::builtin()[0];
    Setup {
        ruleset: ruleset.into(),
        scenario_name: name.into(),
        scenario: text.into(),
        cards: cards::builtin()
            .into_iter()
            .map(|(f, t)| (f.to_string(), t.to_string()))
            .collect(),
        sides: vec![],
        rules_revision: dustmail::dust_tactics::rules::RULES_REVISION,
    }
}

// issue 11 item 5: `ffg-revised` hits on two faces, 1 and 2 (docs/rulings.md ruling 3), as
// combat.rs hard-coded before.
#[test]
fn ffg_revised_hits_on_faces_one_and_two_as_before() {
    let r = Rules::ffg_revised();
    assert_eq!(r.hit_faces(), vec![1, 2]);
    assert!((1..=6).all(|f| r.is_hit(f) == (f <= 2)));
}

// issue 11 item 5: double move policy: MOVE + MOVE are two actions with a window between.
#[test]
fn ffg_revised_moves_twice_as_two_actions() {
    assert!(Rules::ffg_revised().moves_are_separate_actions());
}

// issue 11 item 5: reactive fire policy: on in `ffg-revised`.
#[test]
fn ffg_revised_has_reactive_fire() {
    assert!(Rules::ffg_revised().reactive_fire());
}

// issue 11 item 5: sustained attack policy: offered in `ffg-revised`.
#[test]
fn ffg_revised_has_sustained_attack() {
    assert!(Rules::ffg_revised().sustained_attack());
}

// issue 11 item 5: the rules are chosen from the ruleset id at setup and derived from the state.
#[test]
fn setup_picks_the_rules_from_the_ruleset_id() {
    let st = DustTactics.setup(&setup("ffg-revised")).unwrap();
    assert_eq!(st.ruleset, "ffg-revised");
    assert_eq!(st.rules(), Rules::ffg_revised());
    assert_eq!(Rules::for_id("ffg-revised"), Ok(Rules::ffg_revised()));
    // issue 13 added classic-2010 after the default, issue 18 battlefront-2013.
    assert_eq!(
        Rules::KNOWN,
        &["ffg-revised", "classic-2010", "battlefront-2013"]
    );
}

// issue 11 item 5: an unknown ruleset is refused at setup with the list of known ones.
#[test]
fn unknown_ruleset_is_refused_at_setup_with_the_known_ones() {
    // issue 13: classic-2010 exists now, issue 18 battlefront-2013; an id no constructor
    // answers is still refused.
    let e = DustTactics.setup(&setup("battlefront-2014")).unwrap_err();
    assert_eq!(
        e.0,
        "ruleset `battlefront-2014` is not available: use one of ffg-revised, classic-2010, battlefront-2013"
    );
}

// issue 11 item 5 (skills as an enum): every skill a shipped card names is a `Skill`, and the
// card answers for it by variant.
#[test]
fn every_shipped_card_names_skills_of_the_enum() {
    let mut seen = 0;
    for (file, text) in cards::builtin() {
        let card = cards::parse_card(file, text).unwrap();
        for s in &card.skills {
            let skill = Skill::from_id(&s.name)
                .unwrap_or_else(|| panic!("{file}: skill `{}` is not a Skill", s.name));
            assert_eq!(skill.id(), s.name);
            assert!(card.has(skill));
            seen += 1;
        }
    }
    assert!(seen > 0, "the shipped cards carry skills");
    assert_eq!(Skill::from_id("black-ops"), Some(Skill::BlackOps));
    assert_eq!(Skill::Sniper.title(), "Sniper");
}

// issue 11 item 5 (skills as an enum): a card naming a skill outside the enum is refused at
// load, naming the file, the field, the skill and the names to write instead.
#[test]
fn an_unknown_skill_is_refused_at_card_load_with_its_name_and_file() {
    let (file, text) = cards::builtin()[0];
    let bad = text.replacen(
        "[[weapons]]",
        "[[skills]]\nname = \"teleport\"\n\n[[weapons]]",
        1,
    );
    let e = cards::parse_card(file, &bad).unwrap_err();
    assert_eq!(e.file, file);
    assert!(e.field.starts_with("skills["), "{e}");
    assert!(e.reason.contains("`teleport` is not a skill"), "{e}");
    assert!(e.instead.contains("black-ops"), "{e}");
    assert!(e.to_string().contains(file), "{e}");
}

struct Ones;

impl dustmail::game::DiceSource for Ones {
    fn d6(&mut self, _round: u32) -> u8 {
        1
    }
}

fn refused_rule(outcome: CommandOutcome) -> String {
    match outcome {
        CommandOutcome::Refused { rule, .. } => rule,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

// issue 11 item 5 (typed rule citations): every ruling number a RuleId cites exists in
// docs/rulings.md, and every citation points at a rulebook section or a player document.
#[test]
fn every_cited_ruling_exists_in_docs_rulings() {
    let rulings =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rulings.md")).unwrap();
    for id in RuleId::ALL {
        if let Some(n) = id.ruling() {
            assert!(
                rulings.contains(&format!("\n### R{n}. ")),
                "{id:?} cites ruling R{n}, which docs/rulings.md does not have"
            );
        }
        let text = id.to_string();
        assert!(
            text.starts_with("000 '")
                || text.starts_with("002 '")
                || text.starts_with("003 '")
                || text.starts_with("004 '")
                || text == "docs/orders.md",
            "{id:?} renders as {text}"
        );
        assert!(!text.contains("DESIGN"), "{id:?} renders as {text}");
    }
}

// issue 11 item 5 (typed rule citations): one uniform rendering: section, detail, ruling.
#[test]
fn citations_render_uniformly() {
    assert_eq!(RuleId::Range.to_string(), "004 'Range'");
    assert_eq!(
        RuleId::FirstRound.with("the first action is a move onto the board").to_string(),
        "004 'During the first round': the first action is a move onto the board (ruling R2, docs/rulings.md)"
    );
}

// issue 11 item 5 (typed rule citations): players are no longer told "DESIGN §4", a document
// they do not have: a signature for no side cites docs/orders.md, a draw accepted when none was
// offered cites the rulebook's end of the game and ruling R67.
#[test]
fn refusals_cite_no_design_document() {
    let mut st = DustTactics.setup(&setup("ffg-revised")).unwrap();
    let mut out = Outcome::default();
    let rule = refused_rule(flow::apply(
        &mut st,
        "nobody",
        &Command::Concede,
        &mut Ones,
        &mut out,
    ));
    assert_eq!(rule, "docs/orders.md");
    let side = st.sides()[0].clone();
    let rule = refused_rule(flow::apply(
        &mut st,
        &side,
        &Command::AcceptDraw,
        &mut Ones,
        &mut out,
    ));
    assert_eq!(rule, "004 'End of the game' (ruling R67, docs/rulings.md)");
}
