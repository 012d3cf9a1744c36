//! Facing on the boards of the reports (issue 18, 003 "Facing", "Check Field of Fire"): an arrow
//! beside each unit's marker on the text board, and on the picture a facing mark on each counter
//! and the field of fire of each front-mounted weapon that attacked. battlefront-2013 only: the
//! other rulesets' views carry no facing, so nothing here changes their boards.

use super::facing::{front_mounted, Facing};
use crate::dust_tactics::event::DtEvent;
use crate::dust_tactics::model::Square;
use crate::dust_tactics::picture::{FacingMark, FieldOfFire, Picture};
use crate::dust_tactics::state::{State, UnitState};
use crate::game::Happening;
use serde_json::{json, Value};

/// The text board's arrow for a facing (north is towards row 1).
pub fn arrow(f: Facing) -> char {
    match f {
        Facing::N => '↑',
        Facing::NE => '↗',
        Facing::E => '→',
        Facing::SE => '↘',
        Facing::S => '↓',
        Facing::SW => '↙',
        Facing::W => '←',
        Facing::NW => '↖',
    }
}

/// The arrow the text board shows after `u`'s marker, under battlefront-2013.
pub fn cell_arrow(state: &State, u: &UnitState) -> Option<char> {
    super::facing::of_unit(state, u).map(arrow)
}

/// The text board's legend line for the arrows (battlefront-2013 only).
pub fn legend(state: &State) -> Option<&'static str> {
    state
        .rules()
        .battlefront()
        .then_some("Facing: the arrow after a marker (↑ towards row 1, → east...)\n")
}

/// The view's list of `u`'s front-mounted weapons, by name (battlefront-2013 only), so the
/// picture can draw their field of fire.
pub fn front_arc_view(state: &State, u: &UnitState) -> Option<Value> {
    if !state.rules().battlefront() {
        return None;
    }
    let names: Vec<&str> = state
        .cards
        .get(&u.card)?
        .weapons
        .iter()
        .filter(|w| front_mounted(w))
        .map(|w| w.name.as_str())
        .collect();
    (!names.is_empty()).then(|| json!(names))
}

pub(crate) fn square(v: Option<&Value>) -> Option<Square> {
    serde_json::from_value(v?.clone()).ok()
}

/// The facing marks of the view's units and the fields of fire of the front-mounted weapons that
/// fired in `happenings`, onto `pic`.
pub fn onto_picture(view: &Value, happenings: &[Happening], pic: &mut Picture) {
    let units = view
        .get("units")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let facing_of = |u: &Value| {
        u.get("facing")
            .and_then(Value::as_str)
            .and_then(Facing::parse)
    };
    for u in &units {
        if u.get("destroyed").and_then(Value::as_bool).unwrap_or(false)
            || u.get("joined").is_some_and(|j| !j.is_null())
        {
            continue;
        }
        if let (Some(sq), Some(facing)) = (square(u.get("square")), facing_of(u)) {
            // A Huge vehicle's mark goes on its one counter over 4 squares (R794).
            let large = u.get("large").and_then(Value::as_bool).unwrap_or(false);
            pic.facings.push(FacingMark {
                square: sq,
                facing,
                large,
                rear: square(u.get("rear")),
            });
        }
    }
    for e in happenings.iter().filter_map(DtEvent::of) {
        let DtEvent::Fired {
            unit,
            weapon,
            from,
            to,
            ..
        } = e
        else {
            continue;
        };
        let Some(u) = units
            .iter()
            .find(|u| u.get("id").and_then(Value::as_str) == Some(&unit))
        else {
            continue;
        };
        let front = u
            .get("front_arc")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|n| n.as_str() == Some(&weapon)));
        let Some(facing) = facing_of(u).filter(|_| front) else {
            continue;
        };
        let field = FieldOfFire {
            from,
            to,
            facing,
            label: format!("{unit}: {weapon}"),
        };
        if !pic.fields_of_fire.contains(&field) {
            pic.fields_of_fire.push(field);
        }
    }
}
