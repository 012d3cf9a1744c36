//! Issue 18: 002's Officer under battlefront-2013, not built yet: R766 settles how it is to be
//! built, and until then a card carrying it is refused at `new` by 002's name, no game made
//! (R711). Bazooka Joe (a shipped battlefront hero) carries the skill. (The Spy is built:
//! `battlefront_spy`, R765.)

use super::battlefront_skills002::{card_with, new_joined};

// issue 18, 002 "Officer": "A Hero that is an Officer may perform Officer Special Actions (see
// page 94)." (R766: the four actions are not built; R711) `dustmail new` with an Officer hero
// is refused, naming the card's skill and 002's title, and no game is made.
#[test]
fn s002_officer_an_officer_hero_is_refused_at_new_by_its_002_name() {
    let d = tempfile::tempdir().unwrap();
    let officer = card_with("bf-bazooka-joe", "[[skills]]\nname = \"officer\"");
    let t = new_joined(d.path(), "bf-bazooka-joe", "reapers", &[officer]);
    assert!(
        t.contains("`officer`") && t.contains("\"Officer\"") && t.contains("not built"),
        "{t}"
    );
}
