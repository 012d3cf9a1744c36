//! Order commands (DESIGN §4, docs/orders.md): every command form, every error form with its
//! message and suggested line, the canonical printed form round-trips, and no input panics.

use dustmail::dust_tactics::model::{Board, Square};
use dustmail::dust_tactics::orders::{
    parse, Action, Command, FireOrder, OrderError, Parsed, StandingReaction, TargetRef,
};
use dustmail::game::Line;

fn board() -> Board {
    Board::open(9, 9).unwrap()
}

fn sq(t: &str) -> Square {
    board().parse_square(t).unwrap()
}

fn lines(text: &str) -> Vec<Line> {
    text.lines()
        .enumerate()
        .map(|(i, t)| Line {
            number: i + 1,
            text: t.to_string(),
        })
        .collect()
}

fn run(text: &str) -> Vec<Result<Parsed, OrderError>> {
    parse(&lines(text), &board())
}

/// The one command `text` parses to.
fn one(text: &str) -> Command {
    let mut out = run(text);
    assert_eq!(out.len(), 1, "{text}: {out:?}");
    match out.remove(0) {
        Ok(p) => p.command,
        Err(e) => panic!("{text}: {e} (instead: {})", e.instead),
    }
}

/// The one error `text` gives.
fn error(text: &str) -> OrderError {
    let mut out = run(text);
    assert_eq!(out.len(), 1, "{text}: {out:?}");
    match out.remove(0) {
        Ok(p) => panic!("{text}: expected an error, got {:?}", p.command),
        Err(e) => e,
    }
}

fn unit(u: &str) -> TargetRef {
    TargetRef::Unit(u.into())
}

fn fire(weapon: &str, target: TargetRef) -> FireOrder {
    FireOrder {
        weapon: weapon.into(),
        target,
        through: vec![],
        count: None,
    }
}

fn activate(unit: &str, actions: Vec<Action>) -> Command {
    Command::Activate {
        unit: unit.into(),
        actions,
    }
}

fn err_has(text: &str, line: usize, reason: &[&str], instead: &str) {
    let e = error(text);
    assert_eq!(e.line, line, "{text}: {e}");
    for r in reason {
        assert!(
            e.reason.contains(r),
            "{text}: reason should say `{r}`: {}",
            e.reason
        );
    }
    assert_eq!(e.instead, instead, "{text}: {e}");
    // The suggested line is valid where it goes: an action line inside an activation, an
    // `activate` line followed by its actions, any other line on its own.
    let first_word = e.instead.split_whitespace().next().unwrap_or("");
    let context = if ["move", "attack", "sustained", "skill", "nothing"].contains(&first_word) {
        format!("activate x\n{}", e.instead)
    } else if first_word == "activate" && !e.instead.contains('\n') {
        format!("{}\n nothing", e.instead)
    } else {
        e.instead.clone()
    };
    // The neutral `<unit>` of a suggestion stands for one of the sender's units.
    let fixed = run(&context.replace("<unit>", "x"));
    assert!(
        fixed.iter().all(|r| r.is_ok()),
        "{text}: suggestion `{}` does not parse: {fixed:?}",
        e.instead
    );
}

// ---------------------------------------------------------------------------------------------
// Every command form.

#[test]
fn first_names_a_side() {
    assert_eq!(
        one("first allies"),
        Command::First {
            side: "allies".into()
        }
    );
    assert_eq!(
        one("FIRST Axis"),
        Command::First {
            side: "axis".into()
        }
    );
}

#[test]
fn activate_with_move_and_attack_keywords_any_case() {
    assert_eq!(
        one("ACTIVATE Pounder\n  Move c5\n  attack cannon AT ludwig"),
        activate(
            "pounder",
            vec![
                Action::Move {
                    squares: vec![sq("C5")]
                },
                Action::Attack {
                    fire: vec![fire("cannon", unit("ludwig"))]
                },
            ]
        )
    );
}

#[test]
fn action_lines_need_no_indent_and_comments_and_blank_lines_are_skipped() {
    let text = "# my turn\nactivate hotdog   # the walker\n\nmove C4 D4 E4\n# then\nnothing\n";
    let out = run(text);
    assert_eq!(out.len(), 1);
    let p = out[0].as_ref().unwrap();
    assert_eq!((p.first_line, p.last_line), (2, 6));
    assert_eq!(
        p.command,
        activate(
            "hotdog",
            vec![
                Action::Move {
                    squares: vec![sq("C4"), sq("D4"), sq("E4")]
                },
                Action::Nothing
            ]
        )
    );
}

#[test]
fn move_paths_may_use_commas() {
    assert_eq!(
        one("activate rangers\n move b2, c3,d4"),
        activate(
            "rangers",
            vec![Action::Move {
                squares: vec![sq("B2"), sq("C3"), sq("D4")]
            }]
        )
    );
}

#[test]
fn attack_with_several_weapons_all_declared_in_one_line() {
    assert_eq!(
        one("activate rangers\n  attack bar at ludwig, ugl at grenadiers"),
        activate(
            "rangers",
            vec![Action::Attack {
                fire: vec![fire("bar", unit("ludwig")), fire("ugl", unit("grenadiers"))]
            }]
        )
    );
}

#[test]
fn sustained_attack() {
    assert_eq!(
        one("activate pounder\n  sustained cannon at ludwig"),
        activate(
            "pounder",
            vec![Action::Sustained {
                fire: vec![fire("cannon", unit("ludwig"))]
            }]
        )
    );
}

#[test]
fn targets_are_units_models_or_squares() {
    // A sniper picks a model: `unit/model`; cover elements and trees are aimed at by square.
    assert_eq!(
        one("activate rangers\n attack sniper at Grenadiers/2, mg at c4"),
        activate(
            "rangers",
            vec![Action::Attack {
                fire: vec![
                    fire(
                        "sniper",
                        TargetRef::Model {
                            unit: "grenadiers".into(),
                            model: "2".into()
                        }
                    ),
                    fire("mg", TargetRef::Square(sq("C4"))),
                ]
            }]
        )
    );
}

#[test]
fn flamethrower_spray_names_the_squares_it_passes_through() {
    assert_eq!(
        one("activate hotdog\n  attack flamer at ludwig through C3 d3"),
        activate(
            "hotdog",
            vec![Action::Attack {
                fire: vec![FireOrder {
                    weapon: "flamer".into(),
                    target: unit("ludwig"),
                    through: vec![sq("C3"), sq("D3")],
                    count: None,
                }]
            }]
        )
    );
}

#[test]
fn skills_with_and_without_target_and_multiword_names() {
    assert_eq!(
        one("activate brown\n  skill black-ops at rangers\n  skill Self Repair"),
        activate(
            "brown",
            vec![
                Action::Skill {
                    name: "black-ops".into(),
                    target: Some(unit("rangers"))
                },
                Action::Skill {
                    name: "self-repair".into(),
                    target: None
                },
            ]
        )
    );
}

#[test]
fn react_names_a_unit_or_none() {
    assert_eq!(
        one("react rangers"),
        Command::React {
            unit: Some("rangers".into())
        }
    );
    assert_eq!(one("React NONE"), Command::React { unit: None });
}

#[test]
fn casualties_list_models_in_order() {
    let expect = Command::Casualties {
        unit: "grenadiers".into(),
        models: vec!["3".into(), "2".into()],
    };
    assert_eq!(one("casualties grenadiers: 3 2"), expect);
    assert_eq!(one("Casualties grenadiers : 3, 2"), expect);
}

#[test]
fn game_level_commands() {
    assert_eq!(one("concede"), Command::Concede);
    assert_eq!(one("Offer Draw"), Command::OfferDraw);
    assert_eq!(one("accept draw"), Command::AcceptDraw);
}

/// `report`, `template` and `absent until` are the referee's lines, parsed by the pipeline for
/// every game (issue 11 item 2), never by the Dust Tactics order parser.
fn referee_line(text: &str) -> dustmail::referee::lines::RefereeRequest {
    dustmail::referee::lines::parse(text).unwrap().unwrap()
}

#[test]
fn report_and_template_are_the_referees_lines() {
    use dustmail::referee::lines::RefereeRequest;
    assert_eq!(referee_line("report"), RefereeRequest::Report);
    assert_eq!(referee_line("Template"), RefereeRequest::Template);
}

#[test]
fn absent_until_a_date_time_or_a_date() {
    use dustmail::referee::lines::RefereeRequest;
    let RefereeRequest::Absent { until } = referee_line("absent until 2026-12-24T18:00:00+01:00")
    else {
        panic!()
    };
    assert_eq!(until.to_rfc3339(), "2026-12-24T17:00:00+00:00");
    // R83: a bare date means midnight UTC at its start.
    let RefereeRequest::Absent { until } = referee_line("absent until 2026-12-24") else {
        panic!()
    };
    assert_eq!(until.to_rfc3339(), "2026-12-24T00:00:00+00:00");
}

#[test]
fn standing_orders() {
    assert_eq!(
        one("standing react any with rangers"),
        Command::StandingReact {
            trigger: None,
            answer: StandingReaction::With("rangers".into())
        }
    );
    assert_eq!(
        one("standing react ludwig never"),
        Command::StandingReact {
            trigger: Some("ludwig".into()),
            answer: StandingReaction::Never
        }
    );
    assert_eq!(
        one("Standing React Ludwig Ask"),
        Command::StandingReact {
            trigger: Some("ludwig".into()),
            answer: StandingReaction::Ask
        }
    );
    assert_eq!(
        one("standing casualties rangers: 4 3 2"),
        Command::StandingCasualties {
            unit: "rangers".into(),
            models: vec!["4".into(), "3".into(), "2".into()]
        }
    );
    assert_eq!(
        one("standing first axis"),
        Command::StandingFirst {
            side: Some("axis".into())
        }
    );
    assert_eq!(
        one("standing first ask"),
        Command::StandingFirst { side: None }
    );
}

#[test]
fn a_whole_submission_parses_in_order_with_line_spans() {
    let text = "first allies\nactivate pounder\n  move C5\n  attack cannon at ludwig\nreact none\ncasualties rangers: 2\n";
    let out: Vec<Parsed> = run(text).into_iter().map(Result::unwrap).collect();
    let spans: Vec<(usize, usize)> = out.iter().map(|p| (p.first_line, p.last_line)).collect();
    assert_eq!(spans, [(1, 1), (2, 4), (5, 5), (6, 6)]);
}

// ---------------------------------------------------------------------------------------------
// Every error form: the line, what was wrong, and a line to send instead.

#[test]
fn squares_must_be_on_this_board() {
    err_has(
        "activate rangers\n  move J4",
        2,
        &[
            "in the activation of rangers (line 1)",
            "square J4 is not on the board",
            "A1 to I9",
        ],
        "move C4",
    );
    err_has(
        "activate rangers\n  move C10",
        2,
        &["square C10 is not on the board"],
        "move C4",
    );
    err_has(
        "activate rangers\n  move forward",
        2,
        &["`forward` is not a square", "like C4"],
        "move C4",
    );
    err_has(
        "activate rangers\n  move",
        2,
        &["`move` needs a destination square"],
        "move C4",
    );
}

#[test]
fn action_lines_outside_an_activation() {
    err_has(
        "attack mg at ludwig",
        1,
        &["`attack` is an action: it must follow an `activate <unit>` line"],
        "activate <unit>\n  attack mg at ludwig",
    );
}

#[test]
fn activate_line_errors() {
    err_has(
        "activate\n move C4",
        1,
        &["`activate` needs the unit"],
        "activate <unit>",
    );
    err_has(
        "activate hot dog\n move C4",
        1,
        &["`activate` takes one unit id"],
        "activate <unit>",
    );
    err_has(
        "activate rang€rs\n move C4",
        1,
        &["`rang€rs` is not a unit id"],
        "activate <unit>",
    );
    err_has(
        "activate rangers: move C4",
        1,
        &["put each action on its own line"],
        "activate rangers\n  move C4",
    );
    err_has(
        "activate rangers\n# no actions yet",
        1,
        &["`activate rangers` has no actions"],
        "activate rangers\n  nothing",
    );
    // `activate rangers:` with a colon is accepted.
    assert!(matches!(
        one("activate rangers:\n nothing"),
        Command::Activate { .. }
    ));
}

#[test]
fn attack_errors() {
    err_has(
        "activate r\n attack",
        2,
        &["`attack` needs a weapon and a target"],
        "attack mg at ludwig",
    );
    err_has(
        "activate r\n attack mg",
        2,
        &["`mg` does not say what to fire at"],
        "attack mg at ludwig",
    );
    err_has(
        "activate r\n attack mg on ludwig",
        2,
        &["expected `at` after the weapon `mg`, found `on`"],
        "attack mg at ludwig",
    );
    err_has(
        "activate r\n attack mg at ludwig grenadiers",
        2,
        &["unexpected `grenadiers` after the target ludwig"],
        "attack mg at ludwig, mg at ludwig",
    );
    err_has(
        "activate r\n attack mg at ludwig,, ugl at x",
        2,
        &["empty weapon order"],
        "attack mg at ludwig",
    );
    err_has(
        "activate r\n attack m.g at ludwig",
        2,
        &["`m.g` is not a weapon id"],
        "attack mg at ludwig",
    );
    err_has(
        "activate r\n attack mg at a/b/c",
        2,
        &["`a/b/c` is not a target", "unit/model"],
        "attack mg at ludwig",
    );
    err_has(
        "activate r\n attack mg at l*dwig",
        2,
        &["`l*dwig` is not a target"],
        "attack mg at ludwig",
    );
    err_has(
        "activate r\n attack mg at Z9",
        2,
        &["square Z9 is not on the board"],
        "attack mg at ludwig",
    );
    err_has(
        "activate r\n sustained mg",
        2,
        &["`mg` does not say what to fire at"],
        "sustained mg at ludwig",
    );
}

#[test]
fn spray_errors() {
    err_has(
        "activate hotdog\n attack flamer at ludwig through",
        2,
        &["`through` needs the squares"],
        "attack flamer at ludwig through C3 D3",
    );
    err_has(
        "activate hotdog\n attack flamer at ludwig through C3 Q3",
        2,
        &["square Q3 is not on the board"],
        "attack flamer at ludwig through C3 D3",
    );
}

#[test]
fn skill_and_nothing_errors() {
    err_has(
        "activate brown\n skill",
        2,
        &["`skill` needs the skill's name"],
        "skill self-repair",
    );
    err_has(
        "activate brown\n skill at rangers",
        2,
        &["`skill` needs the skill's name"],
        "skill self-repair",
    );
    err_has(
        "activate brown\n skill black-ops at rangers ludwig",
        2,
        &["needs exactly one target"],
        "skill black-ops at ludwig",
    );
    err_has(
        "activate brown\n skill black-ops at",
        2,
        &["needs exactly one target"],
        "skill black-ops at ludwig",
    );
    err_has(
        "activate brown\n skill bl@ck",
        2,
        &["`bl@ck` is not a skill name"],
        "skill self-repair",
    );
    err_has(
        "activate brown\n nothing at all",
        2,
        &["`nothing` takes no arguments"],
        "nothing",
    );
}

#[test]
fn misspelt_words_get_a_suggestion() {
    err_has(
        "activate rangers\n  atack mg at ludwig",
        2,
        &["`atack` is not an action", "did you mean `attack`?"],
        "attack mg at ludwig",
    );
    err_has(
        "frist allies",
        1,
        &["`frist` is not a command", "did you mean `first`?"],
        "first allies",
    );
    err_has(
        "atack mg at ludwig",
        1,
        &["did you mean `attack`?"],
        "activate <unit>\n  attack mg at ludwig",
    );
    // Too far from every keyword: no guess, the list of commands and an example.
    err_has(
        "fire everything",
        1,
        &["`fire` is not a command (first, activate, react"],
        "activate <unit>\n  move C4",
    );
    err_has(
        "activate rangers\n  charge!",
        2,
        &["`charge!` is not an action (move, attack"],
        "move C4",
    );
}

#[test]
fn react_and_first_errors() {
    err_has(
        "react",
        1,
        &["`react` needs a unit id (or `none`)"],
        "react rangers",
    );
    err_has(
        "react rangers hotdog",
        1,
        &["`react` takes only a unit id"],
        "react rangers",
    );
    err_has("first", 1, &["`first` needs a side id"], "first allies");
    err_has(
        "first the allies",
        1,
        &["`first` takes only a side id"],
        "first allies",
    );
    err_has(
        "first all!es",
        1,
        &["`all!es` is not a side id"],
        "first allies",
    );
}

#[test]
fn casualties_errors() {
    err_has(
        "casualties grenadiers 3 2",
        1,
        &["needs a colon"],
        "casualties grenadiers: 3 2",
    );
    err_has(
        "casualties grenadiers:",
        1,
        &["names no models"],
        "casualties grenadiers: 3 2",
    );
    err_has(
        "casualties : 3",
        1,
        &["`` is not a unit id"],
        "casualties grenadiers: 3 2",
    );
    // `#` starts a comment even inside a list.
    assert_eq!(
        one("casualties grenadiers: 3 #2"),
        Command::Casualties {
            unit: "grenadiers".into(),
            models: vec!["3".into()]
        }
    );
}

#[test]
fn game_level_command_errors() {
    err_has(
        "concede now",
        1,
        &["`concede now` is not understood: write `concede`"],
        "concede",
    );
    err_has("offer peace", 1, &["write `offer draw`"], "offer draw");
    err_has("accept", 1, &["write `accept draw`"], "accept draw");
    // issue 18: `pass` is a command now (003 "Passing"); the rulesets without it refuse it
    // (tests/it/rules/battlefront.rs).
    assert_eq!(one("pass"), Command::Pass);
    err_has("pass now", 1, &["write `pass`"], "pass");
}

/// A malformed referee line is refused by the pipeline, whatever the game (issue 11 item 2).
#[test]
fn malformed_absent_lines_are_refused_by_the_referee() {
    for (text, reason) in [
        ("absent", "`absent until <date>`"),
        ("absent until christmas", "`christmas` is not a date"),
        ("absent until 2026-02-30", "is not a date"),
        ("report please", "write `report`"),
    ] {
        let e = dustmail::referee::lines::parse(text).unwrap().unwrap_err();
        assert!(e.reason.contains(reason), "{text}: {}", e.reason);
        assert!(
            dustmail::referee::lines::parse(&e.instead).unwrap().is_ok(),
            "{text}: the suggested `{}` is refused",
            e.instead
        );
    }
}

#[test]
fn standing_order_errors() {
    err_has(
        "standing",
        1,
        &["followed by `react`, `casualties` or `first`"],
        "standing first ask",
    );
    err_has(
        "standing react",
        1,
        &["needs the enemy unit (or `any`)"],
        "standing react any with rangers",
    );
    err_has(
        "standing react ludwig",
        1,
        &["must end with `with <unit>`, `never` or `ask`"],
        "standing react ludwig with rangers",
    );
    err_has(
        "standing react ludwig with",
        1,
        &["must end with"],
        "standing react ludwig with rangers",
    );
    err_has(
        "standing react lud/wig never",
        1,
        &["`lud/wig` is not a unit id"],
        "standing react any with rangers",
    );
    err_has(
        "standing casualties rangers 4",
        1,
        &["needs a colon"],
        "standing casualties grenadiers: 3 2",
    );
    err_has(
        "standing first",
        1,
        &["one side id, or `ask`"],
        "standing first allies",
    );
}

#[test]
fn a_bad_line_makes_its_whole_activation_one_error_and_the_next_command_parses() {
    let text = "activate rangers\n  move C4\n  attack mg on ludwig\n  move D5\nactivate pounder\n  nothing\nreact none";
    let out = run(text);
    assert_eq!(out.len(), 3, "{out:?}");
    let e = out[0].as_ref().unwrap_err();
    assert_eq!(e.line, 3);
    assert!(
        e.reason.contains("in the activation of rangers (line 1)"),
        "{e}"
    );
    assert_eq!(
        out[1].as_ref().unwrap().command,
        activate("pounder", vec![Action::Nothing])
    );
    assert_eq!(
        out[2].as_ref().unwrap().command,
        Command::React { unit: None }
    );
}

#[test]
fn errors_between_good_commands_stay_in_place() {
    let out = run("first allies\nfrist axis\nconcede");
    assert!(out[0].is_ok() && out[1].is_err() && out[2].is_ok());
    assert_eq!(out[1].as_ref().unwrap_err().line, 2);
}

#[test]
fn error_display_names_the_line() {
    assert_eq!(
        error("\n\nmove c4").to_string(),
        "line 3: `move` is an action: it must follow an `activate <unit>` line"
    );
}

// ---------------------------------------------------------------------------------------------
// Canonical printing (receipts restate what was understood) and properties.

#[test]
fn commands_print_in_canonical_form() {
    let cases = [
        ("FIRST Allies", "first allies"),
        ("react NONE", "react none"),
        ("casualties g : 3,2", "casualties g: 3 2"),
        ("offer   draw", "offer draw"),
        ("standing react any with r", "standing react any with r"),
        ("standing first ask", "standing first ask"),
        (
            "activate hotdog\nmove c4,d4\nattack flamer at LUDWIG through c3 d3, mg at g/2\nsustained mg at e5\nskill self repair\nskill black-ops at r\nnothing",
            "activate hotdog\n  move C4 D4\n  attack flamer at ludwig through C3 D3, mg at g/2\n  sustained mg at E5\n  skill self-repair\n  skill black-ops at r\n  nothing",
        ),
    ];
    for (input, printed) in cases {
        let c = one(input);
        assert_eq!(c.to_string(), printed);
        assert_eq!(one(printed), c, "the printed form parses back");
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn ident() -> impl Strategy<Value = String> {
        // Ids as scenarios allow them: not square-shaped, not reserved (R84).
        "[a-z][a-z_-]{1,8}[a-z0-9]{0,2}".prop_filter("reserved or keyword-like", |s| {
            !["none", "any", "ask", "at"].contains(&s.as_str())
        })
    }
    fn square() -> impl Strategy<Value = Square> {
        (0i32..9, 0i32..9).prop_map(|(c, r)| board().square(c, r).unwrap())
    }
    fn target() -> impl Strategy<Value = TargetRef> {
        prop_oneof![
            ident().prop_map(TargetRef::Unit),
            (ident(), ident()).prop_map(|(unit, model)| TargetRef::Model { unit, model }),
            square().prop_map(TargetRef::Square),
        ]
    }
    fn fire_list() -> impl Strategy<Value = Vec<FireOrder>> {
        prop::collection::vec(
            (ident(), target(), prop::collection::vec(square(), 0..3)).prop_map(
                |(weapon, target, through)| FireOrder {
                    weapon,
                    target,
                    through,
                    count: None,
                },
            ),
            1..4,
        )
    }
    fn action() -> impl Strategy<Value = Action> {
        prop_oneof![
            prop::collection::vec(square(), 1..4).prop_map(|squares| Action::Move { squares }),
            fire_list().prop_map(|fire| Action::Attack { fire }),
            fire_list().prop_map(|fire| Action::Sustained { fire }),
            (ident(), prop::option::of(target()))
                .prop_map(|(name, target)| Action::Skill { name, target }),
            Just(Action::Nothing),
        ]
    }
    fn command() -> impl Strategy<Value = Command> {
        let models = || prop::collection::vec(ident(), 1..4);
        prop_oneof![
            ident().prop_map(|side| Command::First { side }),
            (ident(), prop::collection::vec(action(), 1..4))
                .prop_map(|(unit, actions)| Command::Activate { unit, actions }),
            prop::option::of(ident()).prop_map(|unit| Command::React { unit }),
            (ident(), models()).prop_map(|(unit, models)| Command::Casualties { unit, models }),
            Just(Command::Concede),
            Just(Command::OfferDraw),
            Just(Command::AcceptDraw),
            (
                prop::option::of(ident()),
                prop_oneof![
                    ident().prop_map(StandingReaction::With),
                    Just(StandingReaction::Never),
                    Just(StandingReaction::Ask)
                ]
            )
                .prop_map(|(trigger, answer)| Command::StandingReact { trigger, answer }),
            (ident(), models())
                .prop_map(|(unit, models)| Command::StandingCasualties { unit, models }),
            prop::option::of(ident()).prop_map(|side| Command::StandingFirst { side }),
        ]
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC*(\n\\PC*){0,6}") {
            let _ = run(&text);
        }

        #[test]
        fn keyword_soup_never_panics(words in prop::collection::vec(
            prop_oneof![
                Just("activate".to_string()), Just("move".to_string()), Just("attack".to_string()),
                Just("at".to_string()), Just("through".to_string()), Just(",".to_string()),
                Just(":".to_string()), Just("\n".to_string()), Just("standing".to_string()),
                Just("react".to_string()), Just("/".to_string()), Just("#".to_string()),
                "[A-Z][0-9]{1,3}", "[a-z/]{1,5}", "\\PC{0,3}",
            ], 0..30)) {
            let _ = run(&words.join(" "));
        }

        #[test]
        fn printed_commands_round_trip(cmds in prop::collection::vec(command(), 1..5)) {
            let text: Vec<String> = cmds.iter().map(|c| c.to_string()).collect();
            let parsed: Vec<Command> = run(&text.join("\n"))
                .into_iter()
                .map(|r| r.map(|p| p.command).map_err(|e| format!("{e} / {text:?}")))
                .collect::<Result<_, _>>()
                .unwrap();
            prop_assert_eq!(parsed, cmds);
        }
    }
}
