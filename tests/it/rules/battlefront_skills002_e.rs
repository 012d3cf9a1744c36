//! Issue 18: 002's Spy under battlefront-2013. It is not built yet: R765 settles how it is to be
//! built, and until then a card carrying it is refused at `new` by 002's name, no game made
//! (R711). (Officer, once here too, is built: `battlefront_command`, R766.) Bazooka Joe (a shipped battlefront hero) carries the skill.

use super::battlefront_skills002::{card_with, new_joined};

// issue 18, 002 "Spy": "A Hero with the Spy Skill is not placed at the start of the game.
// Instead, each time a Spy is Activated, the player may elect to roll two dice." (R765: not
// built; R711) `dustmail new` with a Spy hero is refused, naming the card's skill and 002's
// title, and no game is made; the same hero without it makes one.
#[test]
fn s002_spy_a_spy_hero_is_refused_at_new_by_its_002_name() {
    let d = tempfile::tempdir().unwrap();
    let spy = card_with("bf-bazooka-joe", "[[skills]]\nname = \"spy\"");
    let t = new_joined(d.path(), "bf-bazooka-joe", "reapers", &[spy]);
    assert!(
        t.contains("`spy`") && t.contains("\"Spy\"") && t.contains("not built"),
        "{t}"
    );
    let d = tempfile::tempdir().unwrap();
    let plain = card_with("bf-bazooka-joe", "");
    assert_eq!(
        new_joined(d.path(), "bf-bazooka-joe", "reapers", &[plain]),
        "created"
    );
}
