//! battlefront-2013 on the board picture: 002's Under Fire and Suppressed tokens (R702), a
//! lettered badge at the top left of the counter ("UF" amber, "S" red). The list is empty under
//! the other rulesets and before rules revision 8, which draw nothing here, so their pictures
//! are unchanged byte for byte.

use super::{square_centre, Picture};
use crate::dust_tactics::model::Square;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt::Write as _;
use std::ops::Range;

/// The token of the unit on a square, by 002's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenMark {
    pub square: Square,
    pub token: String,
}

/// The tokens of the view's units (each unit's `suppression`), onto `pic`.
pub fn onto(view: &Value, pic: &mut Picture) {
    let units = view.get("units").and_then(Value::as_array);
    for u in units.into_iter().flatten() {
        if u.get("destroyed").and_then(Value::as_bool).unwrap_or(false) {
            continue;
        }
        let token = u.get("suppression").and_then(Value::as_str);
        let at = crate::dust_tactics::battlefront::board_facing::square(u.get("square"));
        if let (Some(square), Some(token)) = (at, token) {
            pic.tokens.push(TokenMark {
                square,
                token: token.to_string(),
            });
        }
    }
}

/// The badges, drawn over the counters.
pub(super) fn marks(out: &mut String, pic: &Picture, items: &mut Vec<Range<usize>>) {
    if pic.tokens.is_empty() {
        return;
    }
    out.push_str("<g id=\"suppression\">\n");
    for m in &pic.tokens {
        let start = out.len();
        let (cx, cy) = square_centre(m.square);
        let (x, y) = (cx as i64 - 30, cy as i64 - 30);
        let (letters, fill) = if m.token == "Suppressed" {
            ("S", "#c62828")
        } else {
            ("UF", "#ef8f00")
        };
        let _ = writeln!(
            out,
            r##"<g class="suppression" data-square="{}"><rect x="{x}" y="{y}" width="20" height="14" rx="3" fill="{fill}" stroke="#ffffff" stroke-width="1.5"/><text x="{}" y="{}" font-size="10" font-weight="bold" text-anchor="middle" fill="#ffffff">{letters}</text><title>{}</title></g>"##,
            m.square,
            x + 10,
            y + 11,
            m.token
        );
        items.push(start..out.len());
    }
    out.push_str("</g>\n");
}
