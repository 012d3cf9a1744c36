//! battlefront-2013 on the board picture (issue 18): a facing mark on each counter (003
//! "Facing") and the 45° field of fire of a front-mounted weapon's last attack (003 "Check Field
//! of Fire"). Both lists are empty under the other rulesets, which draw nothing here, so their
//! pictures are unchanged byte for byte.

use super::{square_centre, Picture, MARGIN_PX, SQUARE_PX};
use crate::dust_tactics::battlefront::facing::Facing;
use crate::dust_tactics::model::Square;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::ops::Range;

/// The facing of the unit on a square.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FacingMark {
    pub square: Square,
    pub facing: Facing,
    /// A unit on a 2×2 block from `square` (003's Huge vehicle): the mark sits on the rim of its
    /// one big counter (R794).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub large: bool,
    /// 003's two-square Large vehicle: its rear square; the mark sits at the front of the
    /// counter drawn over both (R772).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rear: Option<Square>,
}

/// The field of fire of a front-mounted weapon that attacked: 45° either side of the facing of
/// the unit on `from`, drawn out to `to` (the target's square).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldOfFire {
    pub from: Square,
    pub to: Square,
    pub facing: Facing,
    /// `unit: weapon`, for the drawing's title.
    pub label: String,
}

const ORDER: [Facing; 8] = [
    Facing::N,
    Facing::NE,
    Facing::E,
    Facing::SE,
    Facing::S,
    Facing::SW,
    Facing::W,
    Facing::NW,
];

/// Unit vector of a facing in thousandths, screen y down (north is up).
fn dir(f: Facing) -> (i64, i64) {
    match f {
        Facing::N => (0, -1000),
        Facing::NE => (707, -707),
        Facing::E => (1000, 0),
        Facing::SE => (707, 707),
        Facing::S => (0, 1000),
        Facing::SW => (-707, 707),
        Facing::W => (-1000, 0),
        Facing::NW => (-707, -707),
    }
}

/// The facing 45° to one side: `step` +1 clockwise, −1 anticlockwise.
fn turned(f: Facing, step: i64) -> Facing {
    let i = ORDER.iter().position(|x| *x == f).unwrap_or(0) as i64;
    ORDER[(i + step).rem_euclid(8) as usize]
}

/// How much larger than a one-square counter a Large vehicle's counter is drawn, in pixels (R772).
pub(super) const LARGE2_GROWTH: u32 = 8;

/// Half a square, in pixels.
const HALF: i64 = SQUARE_PX as i64 / 2;

fn at(c: (i64, i64), d: (i64, i64), r: i64) -> (i64, i64) {
    (c.0 + d.0 * r / 1000, c.1 + d.1 * r / 1000)
}

/// The facing marks, drawn over the counters: a dark triangle on the rim pointing the way the
/// unit faces.
pub(super) fn marks(out: &mut String, pic: &Picture, items: &mut Vec<Range<usize>>) {
    if pic.facings.is_empty() {
        return;
    }
    out.push_str("<g id=\"facing\">\n");
    for m in &pic.facings {
        let start = out.len();
        let (cx, cy) = square_centre(m.square);
        // A 2×2 counter is centred where its 4 squares meet, its rim 30 px further out (R794).
        let (c, rim) = match (m.large, m.rear) {
            (true, _) => ((cx as i64 + HALF, cy as i64 + HALF), HALF),
            // A Large vehicle's counter is centred where its two squares meet (R772).
            (false, Some(r)) => {
                let (rx, ry) = square_centre(r);
                let mid = ((cx as i64 + rx as i64) / 2, (cy as i64 + ry as i64) / 2);
                (mid, LARGE2_GROWTH as i64)
            }
            (false, None) => ((cx as i64, cy as i64), 0),
        };
        let d = dir(m.facing);
        let perp = (-d.1, d.0);
        let tip = at(c, d, 29 + rim);
        let (b1, b2) = (
            at(at(c, d, 19 + rim), perp, 7),
            at(at(c, d, 19 + rim), perp, -7),
        );
        let _ = writeln!(
            out,
            r##"<polygon class="facing" points="{},{} {},{} {},{}" fill="#1b1b1b" stroke="#ffffff" stroke-width="1.5"><title>faces {}</title></polygon>"##,
            tip.0, tip.1, b1.0, b1.1, b2.0, b2.1, m.facing
        );
        items.push(start..out.len());
    }
    out.push_str("</g>\n");
}

/// The fields of fire, drawn under the counters: a 90° wedge from the centre of the firing
/// square, reaching past the target but never beyond the board.
pub(super) fn fields(out: &mut String, pic: &Picture, items: &mut Vec<Range<usize>>) {
    if pic.fields_of_fire.is_empty() {
        return;
    }
    let lo = MARGIN_PX as i64;
    let (hi_x, hi_y) = (
        lo + pic.board.width() as i64 * SQUARE_PX as i64,
        lo + pic.board.height() as i64 * SQUARE_PX as i64,
    );
    out.push_str("<g id=\"fields-of-fire\">\n");
    for f in &pic.fields_of_fire {
        let start = out.len();
        let (cx, cy) = square_centre(f.from);
        let c = (cx as i64, cy as i64);
        let (tx, ty) = square_centre(f.to);
        let reach = (tx as i64 - c.0).abs().max((ty as i64 - c.1).abs()) * 1414 / 1000;
        let mut r = reach + SQUARE_PX as i64 / 2;
        let (left, right) = (turned(f.facing, -1), turned(f.facing, 1));
        // The wedge's outermost points: its two edges' ends and the middle of its arc.
        for d in [dir(left), dir(right), dir(f.facing)] {
            let room = |p: i64, v: i64, lo: i64, hi: i64| match v.signum() {
                1 => (hi - p) * 1000 / v,
                -1 => (p - lo) * 1000 / -v,
                _ => i64::MAX,
            };
            r = r
                .min(room(c.0, d.0, lo, hi_x))
                .min(room(c.1, d.1, lo, hi_y));
        }
        let (p1, p2) = (at(c, dir(left), r), at(c, dir(right), r));
        let _ = writeln!(
            out,
            r##"<path class="field-of-fire" d="M{},{} L{},{} A{r},{r} 0 0 1 {},{} Z" fill="#ffe066" fill-opacity="0.3" stroke="#8a6d00" stroke-width="2" stroke-dasharray="6 4"><title>field of fire of {}: 45 degrees either side of {}</title></path>"##,
            c.0, c.1, p1.0, p1.1, p2.0, p2.1, f.label, f.facing
        );
        items.push(start..out.len());
    }
    out.push_str("</g>\n");
}
