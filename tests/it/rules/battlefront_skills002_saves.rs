//! Issue 18: 002's Steel Guard and Zombie under battlefront-2013 (R600, R601): no Cover Save,
//! an Infantry Save passing on the target symbol as well as the army symbol, and joins only
//! within the kind. The shots reuse `battlefront_combat`'s pistol hero against a four-soldier
//! squad (`defended`), in the open or on rubble (cover), with scripted dice.

use super::battlefront_combat::{defended, models};
use super::battlefront_skills002::{card_with, new_joined};
use crate::support_flow::{play, purposes, texts};
use dustmail::dust_tactics::cards::parse_card_for_new;

const SHOT: &str = "activate ours\n  attack pistol at theirs\n  nothing";

// issue 18, 002 "Steel Guard": "Steel Guard never have a Cover Save, but always passes their
// Infantry Save on a roll of [target] as well as [army]." (R600) Two hits (army, army); the two
// saves show target, target: a Steel Guard squad cancels both, in cover or not. A squad without
// the skill on rubble rolls its Cover Save (army or shield) and loses both.
#[test]
fn s002_steel_guard_infantry_save_passes_on_target_as_well_as_army() {
    for rubble in [true, false] {
        let mut st = defended(rubble, &["steel-guard"]);
        let out = play(&mut st, "allies", SHOT, &[1, 1, 3, 3]);
        let t = texts(&out);
        assert!(
            t.contains("2 cancelled by infantry save on army or target"),
            "{t}"
        );
        assert_eq!(models(&st, "theirs"), 4, "{t}");
    }
    let mut st = defended(true, &[]);
    let out = play(&mut st, "allies", SHOT, &[1, 1, 3, 3]);
    assert_eq!(models(&st, "theirs"), 2, "{}", texts(&out));
}

// issue 18, 002 "Steel Guard": "never have a Cover Save" (R600). On rubble, two hits and two
// saves showing the shield: a Cover Save would cancel both ("Each [army] or [shield]"), the
// Steel Guard's Infantry Save cancels neither: two soldiers lost.
#[test]
fn s002_steel_guard_never_has_a_cover_save() {
    let mut st = defended(true, &["steel-guard"]);
    let out = play(&mut st, "allies", SHOT, &[1, 1, 5, 6]);
    let p = purposes(&out);
    assert!(!p.iter().any(|x| x.contains("cover save")), "{p:?}");
    assert_eq!(models(&st, "theirs"), 2, "{}", texts(&out));
    let mut st = defended(true, &[]);
    let out = play(&mut st, "allies", SHOT, &[1, 1, 5, 6]);
    assert_eq!(models(&st, "theirs"), 4, "{}", texts(&out));
}

// issue 18, 002 "Zombie": "A Zombie Unit never has Cover Saves, but always passes its Infantry
// Saves on a roll of [target] as well as [army]." (R600) On rubble: two hits, saves target
// (passes) and shield (fails, no Cover Save): one soldier lost. In the open without the skill
// the same dice save nothing: two lost.
#[test]
fn s002_zombie_never_has_cover_saves_and_saves_on_target_as_well_as_army() {
    let mut st = defended(true, &["zombie"]);
    let out = play(&mut st, "allies", SHOT, &[1, 1, 3, 5]);
    let t = texts(&out);
    assert!(
        t.contains("1 cancelled by infantry save on army or target"),
        "{t}"
    );
    assert_eq!(models(&st, "theirs"), 3, "{t}");
    let mut st = defended(false, &[]);
    let out = play(&mut st, "allies", SHOT, &[1, 1, 3, 5]);
    assert_eq!(models(&st, "theirs"), 2, "{}", texts(&out));
}

// issue 18, 002 "Steel Guard": "Only a Steel Guard Hero may Join a Steel Guard Unit. Steel Guard
// Heroes cannot Join Units that are not Steel Guard"; 002 "Zombie": "Only a Zombie Hero may Join
// a Zombie Unit. Zombie Heroes cannot Join Units that are not Zombies." (R601) Refused at `new`
// either way, quoting 002; both of the kind: the game is made.
#[test]
fn s002_steel_guard_and_zombie_join_only_their_own_kind() {
    for (skill, title) in [("steel-guard", "Steel Guard"), ("zombie", "Zombie")] {
        let line = format!("[[skills]]\nname = \"{skill}\"");
        let d = tempfile::tempdir().unwrap();
        let hero = card_with("bf-bazooka-joe", &line);
        let t = new_joined(d.path(), "bf-bazooka-joe", "reapers", &[hero]);
        assert!(
            t.contains(&format!("is a {title}")) && t.contains(&format!("002 \"{title}\"")),
            "{t}"
        );
        let d = tempfile::tempdir().unwrap();
        let squad = card_with("bf-grim-reapers", &line);
        let t = new_joined(d.path(), "bf-bazooka-joe", "reapers", &[squad]);
        assert!(t.contains(&format!("is not a {title}")), "{t}");
        let d = tempfile::tempdir().unwrap();
        let both = [
            card_with("bf-bazooka-joe", &line),
            card_with("bf-grim-reapers", &line),
        ];
        assert_eq!(
            new_joined(d.path(), "bf-bazooka-joe", "reapers", &both),
            "created"
        );
    }
}

// R581: Steel Guard, Zombie, Mindless Zombie and Move and Fire are 002's own skills, refused
// under the other rulesets at `new`.
#[test]
fn s002_steel_guard_and_zombie_are_refused_under_the_other_rulesets() {
    for s in ["steel-guard", "zombie", "mindless-zombie", "move-and-fire"] {
        let (f, t) = card_with("bf-bazooka-joe", &format!("[[skills]]\nname = \"{s}\""));
        let e = parse_card_for_new(&f, &t).unwrap_err();
        assert!(
            e.reason.contains(&format!("`{s}`")) && e.reason.contains("R581"),
            "{e}"
        );
    }
}

/// Allies `holder` (a squad with `skills`) on E5, a `grab` objective on E5, axis `enemy` on E2
/// (three squares off: it does not contest); allies first; three rounds.
fn grab_with(skills: &[&str]) -> dustmail::dust_tactics::state::State {
    use crate::support_flow::*;
    use dustmail::dust_tactics::scenario::Objective;
    use dustmail::dust_tactics::DustTactics;
    let s = objectives(
        scenario(
            vec![unit("holder", "zed", Some("E5"))],
            vec![unit("enemy", "sq", Some("E2"))],
        ),
        vec![Objective::Grab {
            at: sq("E5"),
            side: None,
        }],
    );
    let zed = skills
        .iter()
        .fold(squad("zed"), |c, s| with_skill(c, s, None));
    let mut st = DustTactics
        .start("battlefront-2013", s, vec![zed, squad("sq")])
        .expect("setup");
    begin(&mut st, "allies");
    st
}

// issue 18, 002 "Mindless Zombie": "Mindless Zombies cannot take Objectives (see pages 35 to 37
// and 63)." (R602) With 003 §12's holding rule met (on the square from turn 3, no enemy within
// two squares) a Mindless Zombie squad takes nothing: the game runs to its round limit. The same
// squad without the skill wins at the end of turn 3.
#[test]
fn s002_mindless_zombie_cannot_take_objectives() {
    use super::battlefront_scenarios::idle_to_the_end;
    let mut st = grab_with(&["mindless-zombie"]);
    idle_to_the_end(&mut st);
    let res = st.result.as_ref().expect("the game ended");
    assert_eq!(res.winner, None, "{res:?}");
    assert!(res.reason.contains("round limit (3)"), "{}", res.reason);
    let mut st = grab_with(&[]);
    idle_to_the_end(&mut st);
    let res = st.result.as_ref().expect("the game ended");
    assert_eq!(res.winner.as_deref(), Some("allies"), "{res:?}");
}

// issue 18, 002 "Mindless Zombie": "Mindless Zombies are Zombies" (R602): a Mindless Zombie squad
// has no Cover Save and saves on target as well as army (002 "Zombie"). On rubble, two hits,
// saves target and target: both cancelled.
#[test]
fn s002_mindless_zombie_mindless_zombies_are_zombies() {
    let mut st = defended(true, &["mindless-zombie"]);
    let out = play(&mut st, "allies", SHOT, &[1, 1, 3, 3]);
    let t = texts(&out);
    assert!(
        t.contains("2 cancelled by infantry save on army or target"),
        "{t}"
    );
    assert_eq!(models(&st, "theirs"), 4, "{t}");
}
