//! Issue 18 ("two players can play each 003 scenario with each starter force by mail to its
//! end"): `dustmail new --force SIDE=FORCE` fields one of 003 §11's three starter forces on a
//! side of a battlefront-2013 scenario (R816–R818). 003 §12: "For a first game, use the starter
//! battlegroups"; its scenarios give entry edges, objectives, reserves and turns, not forces.

use crate::support::dt;
use dustmail::dust_tactics::scenario;
use dustmail::dust_tactics::state::State;

/// The cards of each starter force (003 §11), as its data file lists them.
const FORCES: [(&str, [&str; 4]); 3] = [
    (
        "taskforce-joe",
        [
            "bf-bazooka-joe",
            "bf-pounder",
            "bf-bot-hunters",
            "bf-grim-reapers",
        ],
    ),
    (
        "kampfgruppe-stefan",
        [
            "bf-stefan",
            "bf-ludwig",
            "bf-recon-grenadiers",
            "bf-heavy-laser-grenadiers",
        ],
    ),
    (
        "battlegroup-koshka",
        ["bf-koshka", "bf-grandma", "bf-red-thunder", "bf-fakyeli"],
    ),
];

fn cards_of(st: &State, side: &str) -> Vec<String> {
    let mut v: Vec<String> = st
        .units
        .iter()
        .filter(|u| u.side == side)
        .map(|u| u.card.clone())
        .collect();
    v.sort();
    v
}

fn sorted(cards: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    v.sort();
    v
}

/// `new` of `scenario` with `more` arguments between allies and `sides`' players; the outcome.
fn new_in(
    root: &std::path::Path,
    scenario: &str,
    sides: [&str; 2],
    more: &[&str],
) -> std::process::Output {
    let mut ps = dt::players(33);
    ps[0].side = sides[0].into();
    ps[1].side = sides[1].into();
    let seed = hex::encode([9u8; 32]);
    let mut args = vec![
        "--scenario",
        scenario,
        "--seed",
        &seed,
        "--id",
        "g-force",
        "--now",
        dt::T0,
    ];
    args.extend(more);
    dt::new_with_players(root, &args, &ps)
}

// R816, 003 §12: "For a first game, use the starter battlegroups." Bait and Flank with
// `--force axis=battlegroup-koshka`: the axis side fields Koshka's four units under the force's
// name; it keeps its id, entry edge (A1-A6), the objectives and the reserve squares; the allies
// keep Taskforce Joe.
#[test]
fn s003_12_force_option_fields_a_starter_force_on_a_side() {
    let dir = tempfile::tempdir().unwrap();
    let home = dt::init_home(dir.path(), "file");
    let o = new_in(
        &home.root,
        "bait-and-flank",
        ["allies", "axis"],
        &[
            "--ruleset",
            "battlefront-2013",
            "--force",
            "axis=battlegroup-koshka",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = dt::InProc::open(&home);
    let g = env.load("g-force");
    let st: State = g.derived.state.typed::<State>().clone();
    let shipped = scenario::builtin_scenario("bait-and-flank")
        .unwrap()
        .unwrap();
    let axis = st.scenario.sides.iter().find(|s| s.id == "axis").unwrap();
    assert_eq!(axis.name, "SSU (Battlegroup Koshka)");
    let shipped_axis = shipped.sides.iter().find(|s| s.id == "axis").unwrap();
    assert_eq!(
        axis.entry, shipped_axis.entry,
        "the entry edge is the side's"
    );
    let ids: Vec<&str> = axis.units.iter().map(|u| u.id.as_str()).collect();
    assert_eq!(ids, ["koshka", "grandma", "red-thunder", "fakyeli"]);
    assert_eq!(cards_of(&st, "axis"), sorted(&FORCES[2].1));
    assert_eq!(cards_of(&st, "allies"), sorted(&FORCES[0].1));
    assert_eq!(
        format!("{:?}", st.scenario.objectives),
        format!("{:?}", shipped.objectives)
    );
    assert_eq!(
        format!("{:?}", st.scenario.reserves),
        format!("{:?}", shipped.reserves)
    );
    // The players are told the forces of this game: the briefing the welcome mails quote.
    assert!(
        st.scenario.description.contains(
            "In this game (003 §11 starter forces, `--force`): axis fields SSU (Battlegroup Koshka) (koshka, grandma, red-thunder, fakyeli), instead of the units named above."
        ),
        "{}",
        st.scenario.description
    );
    let welcome = home.root.join("outbox").join("g-force-1-welcome-axis.eml");
    // Quoted-printable soft line breaks undone, lines unwrapped.
    let mail = std::fs::read_to_string(welcome)
        .unwrap()
        .replace("=\r\n", "")
        .replace("=\n", "");
    assert!(
        crate::support::flat(&mail)
            .contains("axis fields SSU (Battlegroup Koshka) (koshka, grandma, red-thunder, fakyeli), instead of the units named above."),
        "the welcome mail does not name the force"
    );
}

// R817, 003 §11: two players may both take the same starter force. Encounter with the axis
// fielding Taskforce Joe against the allies' own Taskforce Joe: the later side's unit ids take
// its side's name, so every order names one unit.
#[test]
fn s003_11_same_force_on_both_sides_gets_its_own_unit_ids() {
    let dir = tempfile::tempdir().unwrap();
    let home = dt::init_home(dir.path(), "file");
    let o = new_in(
        &home.root,
        "encounter",
        ["allies", "axis"],
        &[
            "--ruleset",
            "battlefront-2013",
            "--force",
            "axis=taskforce-joe",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", dt::text(&o));
    let env = dt::InProc::open(&home);
    let st: State = env.load("g-force").derived.state.typed::<State>().clone();
    let mut axis: Vec<&str> = st
        .units
        .iter()
        .filter(|u| u.side == "axis")
        .map(|u| u.id.as_str())
        .collect();
    axis.sort();
    assert_eq!(
        axis,
        [
            "bot-hunters-axis",
            "joe-axis",
            "pounder-axis",
            "reapers-axis"
        ]
    );
    assert_eq!(cards_of(&st, "axis"), cards_of(&st, "allies"));
}

/// `new` refused with a message containing each of `wants`, and nothing queued.
fn refused(scenario: &str, more: &[&str], wants: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let home = dt::init_home(dir.path(), "file");
    let o = new_in(&home.root, scenario, ["allies", "axis"], more);
    assert_ne!(o.status.code(), Some(0), "{}", dt::text(&o));
    let t = dt::text(&o);
    for w in wants {
        assert!(t.contains(w), "`{w}` missing from: {t}");
    }
    assert_eq!(dt::names(&home.root.join("outbox")), Vec::<String>::new());
}

// R816: an unknown force is refused, listing 003 §11's three.
#[test]
fn s003_11_force_option_refuses_an_unknown_force() {
    refused(
        "encounter",
        &[
            "--ruleset",
            "battlefront-2013",
            "--force",
            "axis=panzer-lehr",
        ],
        &[
            "no starter force `panzer-lehr`",
            "taskforce-joe, kampfgruppe-stefan, battlegroup-koshka",
        ],
    );
}

// R816: a side the scenario lacks is refused, naming its sides.
#[test]
fn s003_12_force_option_refuses_a_side_the_scenario_lacks() {
    refused(
        "encounter",
        &[
            "--ruleset",
            "battlefront-2013",
            "--force",
            "ssu=battlegroup-koshka",
        ],
        &["has no side `ssu`", "its sides are allies, axis"],
    );
}

// R816: the starter forces are 003's; under another ruleset the option is refused.
#[test]
fn s003_11_force_option_refused_under_another_ruleset() {
    refused(
        "skirmish",
        &[
            "--ruleset",
            "ffg-revised",
            "--force",
            "axis=kampfgruppe-stefan",
        ],
        &["add --ruleset battlefront-2013", "ruleset `ffg-revised`"],
    );
}

// R816: a malformed option says what to write.
#[test]
fn s003_11_force_option_refuses_a_malformed_option() {
    refused(
        "encounter",
        &["--ruleset", "battlefront-2013", "--force", "taskforce-joe"],
        &["write SIDE=FORCE"],
    );
}

/// 003 §12's scenario `name` between `sides`, played by mail to its end three times: rotation r
/// gives the first side force r and the second force r+1, so each force plays each side once.
/// Replay and audit pass (inside `play_by_mail_with`).
fn each_force_on_each_side(name: &str, sides: [&str; 2], seed: u64) {
    for r in 0..3 {
        let (f0, c0) = FORCES[r];
        let (f1, c1) = FORCES[(r + 1) % 3];
        let a0 = format!("{}={f0}", sides[0]);
        let a1 = format!("{}={f1}", sides[1]);
        let (_, st) = crate::rules::battlefront_scenarios::play_by_mail_with(
            name,
            &["--force", &a0, "--force", &a1],
            sides,
            seed + r as u64,
        );
        assert_eq!(cards_of(&st, sides[0]), sorted(&c0), "{name} rotation {r}");
        assert_eq!(cards_of(&st, sides[1]), sorted(&c1), "{name} rotation {r}");
        assert!(st.result.is_some(), "{name} rotation {r} did not end");
    }
}

// 003 §12 Encounter: "Both players' units enter along their long table edge."
#[test]
fn s003_12_encounter_plays_to_its_end_with_each_force_on_each_side() {
    each_force_on_each_side("encounter", ["allies", "axis"], 110);
}

// 003 §12 Grab the Dust: "An objective on each of the centre squares of the board."
#[test]
fn s003_12_grab_the_dust_plays_to_its_end_with_each_force_on_each_side() {
    each_force_on_each_side("grab-the-dust", ["axis", "ssu"], 120);
}

// 003 §12 Bait and Flank: "Take the objective in the opponent's half."
#[test]
fn s003_12_bait_and_flank_plays_to_its_end_with_each_force_on_each_side() {
    each_force_on_each_side("bait-and-flank", ["allies", "axis"], 130);
}

// 003 §12 Supply Drop: "A player wins by gaining a total of five victory points."
#[test]
fn s003_12_supply_drop_plays_to_its_end_with_each_force_on_each_side() {
    each_force_on_each_side("supply-drop", ["ssu", "allies"], 140);
}

// 003 §12 All-Out Attack: "A player wins by gaining a total of seven victory points."
#[test]
fn s003_12_all_out_attack_plays_to_its_end_with_each_force_on_each_side() {
    each_force_on_each_side("all-out-attack", ["axis", "ssu"], 150);
}
