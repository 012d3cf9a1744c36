//! Dust Tactics' typed events: what the board picture and tools need to know about a happening,
//! carried beside its English sentence (`Happening::event`) so nothing has to parse the text.

use super::model::Square;
use crate::game::{Happening, Roll};
use serde::{Deserialize, Serialize};

/// One thing that happened on the board. Serialised (tag `kind`) into `Happening::event`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DtEvent {
    /// A unit entered the battlefield at `to`.
    Entered { unit: String, to: Square },
    /// A unit (with any joined hero) moved from `from` through `path`, the squares entered in
    /// order (the last is where it stands).
    Moved {
        unit: String,
        from: Square,
        path: Vec<Square>,
    },
    /// One weapon line fired from `from` at a unit or cover element on `to`; `hits` before saves.
    Fired {
        unit: String,
        weapon: String,
        target: String,
        from: Square,
        to: Square,
        hits: u32,
    },
    /// A unit was destroyed where it stood.
    Destroyed { unit: String, at: Square },
    /// A cover element (ammo crate, tank trap) was destroyed.
    CoverDestroyed { at: Square },
}

impl DtEvent {
    /// Reads a happening's event; `None` for happenings without one (older ledgers, or a
    /// sentence the picture does not need).
    pub fn of(h: &Happening) -> Option<DtEvent> {
        serde_json::from_value(h.event.clone()?).ok()
    }

    /// A happening for everyone telling `text`, carrying this event and `rolls`.
    pub fn happening(self, text: impl Into<String>, rolls: Vec<Roll>) -> Happening {
        Happening {
            text: text.into(),
            rolls,
            // Serialising a plain enum of strings and squares cannot fail.
            event: serde_json::to_value(&self).ok(),
            ..Happening::default()
        }
    }
}
