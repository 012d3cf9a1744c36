//! The board picture: an SVG drawing of a Dust Tactics board (terrain, cover, walls, objectives,
//! entry zones, unit counters, the last activation's movement and fire) and the same drawing as a
//! PNG.
//!
//! Pure data in, bytes out: no game logic, no file or network access, no wall clock. The same
//! [`Picture`] always gives the same SVG text and the same PNG bytes. The SVG holds no scripts and
//! no external references (it goes into mail); the PNG's text uses fonts embedded in the binary
//! (`assets/fonts/`), so a machine without any installed font draws the same picture.
//!
//! All coordinates are whole pixels computed with integers, so the output never depends on
//! floating-point formatting.

use crate::dust_tactics::model::{Board, SideId, Square, UnitType};
use serde::{Deserialize, Serialize};

mod facing;
// issue 18: 002's suppression tokens on the counters (R702).
mod fire_keys;
pub mod fortifications;
mod labels;
mod legend;
mod marks;
mod mines;
mod structures;
mod svg;
mod tokens;
mod travel;
mod trenches;

pub use facing::{FacingMark, FieldOfFire};
use svg::{render_svg, Layout};
pub use tokens::{onto as tokens_onto, TokenMark};

/// Pixels per board square (issue 16 item 7: was 48). 60 px gives counters room for a whole
/// 7-letter id and a shape per unit type, and keeps the 9-column boards of the shipped scenarios
/// at 596 px, inside the 600 px column mail clients lay out; the PNG of the full-box scenario
/// stays well under the ~60 KB a mail can carry twice (tests/it/board_picture.rs prints them).
pub const SQUARE_PX: u32 = 60;
/// Width of the margin around the board that holds the column letters and row numbers.
pub const MARGIN_PX: u32 = 28;

pub(crate) use crate::pbem::fonts::{fonts, FONT, FONT_EXTRA};

/// Everything the picture shows. Plain data: the caller fills it from the game state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Picture {
    /// Terrain per square and the cover elements still standing.
    pub board: Board,
    /// Sides in the order their colours are given: the first gets the blue colours, the second
    /// the orange ones ([`side_colours`]). Sides that only appear on units or entry zones are
    /// added after these, in that order.
    #[serde(default)]
    pub sides: Vec<SideId>,
    /// The side the picture is drawn for, marked "(you)" in the legend; `None` for spectators.
    #[serde(default)]
    pub ours: Option<SideId>,
    #[serde(default)]
    pub units: Vec<UnitMarker>,
    /// The squares the last activated unit moved through, from where it started to where it
    /// stopped. Fewer than two distinct squares draws nothing.
    #[serde(default)]
    pub path: Vec<Square>,
    /// The last activation's attacks.
    #[serde(default)]
    pub fire: Vec<FireLine>,
    /// Squares where units were destroyed by the last activation: drawn as a wreck cross.
    #[serde(default)]
    pub destroyed: Vec<Square>,
    /// The scenario's objective squares: drawn as a ringed flag.
    #[serde(default)]
    pub objectives: Vec<Square>,
    /// Each side's entry zone: its squares drawn tinted and edged in the side's colour.
    #[serde(default)]
    pub entry: Vec<EntryZone>,
    /// battlefront-2013: each unit's facing, marked on its counter (issue 18).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facings: Vec<FacingMark>,
    /// battlefront-2013: the field of fire of each front-mounted weapon that attacked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields_of_fire: Vec<FieldOfFire>,
    /// battlefront-2013: 002's trench squares (R295, R717).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trenches: Vec<Square>,
    /// 004 underground: each end of a link between two boards and the link's number (R630).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub travel_links: Vec<(Square, u8)>,
    /// battlefront-2013: 002's barbed wire, minefields and strongpoints (R727).
    #[serde(default, skip_serializing_if = "fortifications::Marks::is_empty")]
    pub fortifications: fortifications::Marks,
    /// battlefront-2013: 002's Under Fire and Suppressed tokens on the counters (R702).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<TokenMark>,
}

/// The squares where a side's units enter the board (ruling 2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryZone {
    pub side: SideId,
    pub squares: Vec<Square>,
}

/// One unit counter on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitMarker {
    pub square: Square,
    pub side: SideId,
    /// The unit id as reports print it (orders name units by it).
    pub label: String,
    pub unit_type: UnitType,
    /// Models left (squads) or health left (heroes, vehicles).
    pub left: u8,
    /// Models or health at full strength.
    pub max: u8,
    /// Already activated this round: drawn dimmed.
    #[serde(default)]
    pub activated: bool,
    /// A squad with a hero joined to it: drawn with a star.
    #[serde(default)]
    pub joined_hero: bool,
    /// A large vehicle (004 "LARGE VEHICLES"): one counter over `square` and the 3 squares
    /// right of and below it (R570).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub large: bool,
    /// 003's two-square Large vehicle: its other square, behind `square`; one counter is drawn
    /// over both (R772).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rear: Option<Square>,
}

/// One line of fire, from the attacker's square to the target's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireLine {
    pub from: Square,
    pub to: Square,
    /// At least one hit: drawn solid; all missed: drawn dashed.
    pub hit: bool,
    /// Which weapon line this is, as the legend names it (`rangers: M1 Bazooka at ludwig`):
    /// the line gets a number keyed to it. Empty: the line is drawn without a number.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label: String,
}

impl Picture {
    /// A picture of `board` with no units, movement or fire yet.
    pub fn new(board: Board) -> Picture {
        Picture {
            board,
            sides: Vec::new(),
            ours: None,
            units: Vec::new(),
            path: Vec::new(),
            fire: Vec::new(),
            destroyed: Vec::new(),
            objectives: Vec::new(),
            entry: Vec::new(),
            facings: Vec::new(),
            trenches: Vec::new(),
            travel_links: Vec::new(),
            fortifications: Default::default(),
            fields_of_fire: Vec::new(),
            tokens: Vec::new(),
        }
    }

    /// The sides in colour order: `sides` first, then any other side a unit names.
    pub fn side_order(&self) -> Vec<SideId> {
        let mut order: Vec<SideId> = Vec::new();
        let named = self
            .sides
            .iter()
            .chain(self.units.iter().map(|u| &u.side))
            .chain(self.entry.iter().map(|z| &z.side));
        for side in named {
            if !order.contains(side) {
                order.push(side.clone());
            }
        }
        order
    }
}

/// The PNG could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// Our own SVG did not parse: a bug in this module, reported rather than panicking.
    #[error("the board picture could not be drawn (its SVG is invalid: {0}); report this as a bug and use the text board meanwhile")]
    Svg(String),
    /// The image could not be allocated.
    #[error(
        "the board picture of {0}×{1} pixels could not be allocated; use the text board instead"
    )]
    Size(u32, u32),
    #[error("the board picture could not be encoded as PNG ({0}); use the text board instead")]
    Encode(String),
}

/// Colours of one side's counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideColours {
    /// The counter's fill, as `#rrggbb`.
    pub fill: &'static str,
    /// The counter's rim.
    pub rim: &'static str,
    /// The text written on the counter: white on dark fills, near-black on light ones.
    pub text: &'static str,
}

/// The colours of the side at `index` in [`Picture::side_order`], from the Okabe–Ito palette
/// (issue 16 item 7: safe for the common colour-vision deficiencies): blue first (Allies),
/// orange second (Axis), then reddish purple and bluish green for unusual scenarios. Blue and
/// orange stay far apart, and apart from every terrain colour, under simulated deuteranopia and
/// protanopia (tests/it/board_picture.rs); the counter's shape tells the unit type.
pub fn side_colours(index: usize) -> SideColours {
    const COLOURS: [SideColours; 4] = [
        SideColours {
            fill: "#0072b2",
            rim: "#003a5c",
            text: "#ffffff",
        },
        SideColours {
            fill: "#e69f00",
            rim: "#6b4a00",
            text: "#1b1b1b",
        },
        SideColours {
            fill: "#cc79a7",
            rim: "#5c2d47",
            text: "#1b1b1b",
        },
        SideColours {
            fill: "#009e73",
            rim: "#00452f",
            text: "#ffffff",
        },
    ];
    COLOURS[index % COLOURS.len()]
}

/// The fill of each terrain, for tests and tools that check the palette.
pub fn terrain_colour(t: crate::dust_tactics::model::Terrain) -> &'static str {
    svg::terrain_fill(t)
}

/// Width and height in pixels of the picture of `pic` (SVG user units and PNG pixels alike).
pub fn size(pic: &Picture) -> (u32, u32) {
    let layout = Layout::new(pic);
    (layout.width, layout.height)
}

/// The pixel at the centre of `sq` in the picture.
pub fn square_centre(sq: Square) -> (u32, u32) {
    (
        MARGIN_PX + sq.col() as u32 * SQUARE_PX + SQUARE_PX / 2,
        MARGIN_PX + sq.row() as u32 * SQUARE_PX + SQUARE_PX / 2,
    )
}

/// The picture as an SVG document.
pub fn svg(pic: &Picture) -> String {
    render_svg(pic, false)
}

/// The picture as PNG bytes, rendered from the SVG with the embedded fonts.
pub fn png(pic: &Picture) -> Result<Vec<u8>, PictureError> {
    encode_png(&pixels(pic)?)
}

type Pixmap = resvg::tiny_skia::Pixmap;

mod cache;
pub use cache::{clear_static_cache, item_cache_stats, pixels, pixels_single_pass};

/// PNG bytes of `pixmap`: opaque RGB rows without filters, compressed by
/// [`zlib::compress_rgba`] (bands of rows cached by their pixels).
///
/// Measured on a mid-game skirmish picture, 340×504 px (`cargo bench --bench picture`, release,
/// encode only, a loaded 2-core machine):
///   own matcher, every band compressed (cache miss)          0.82 ms  41.1 KB
///   own matcher, every band from the cache                   0.03 ms  41.1 KB
///   png's zlib 1 + no filter (used before)                   1.12 ms  34.2 KB
///   png's fdeflate + adaptive (`Fast`) / Paeth / Up          0.70 / 0.83 / 0.72 ms  51 / 53 / 81 KB
///   png's zlib 2 + no filter                                 1.95 ms  25.5 KB
/// The board is flat colour: without filters, runs of one pixel and rows equal to the row above
/// are whole repeats, which zlib's hash chains find slowly and a matcher trying only those few
/// distances finds at once; its fixed Huffman code costs ~7 KB against zlib 1, well under the
/// ~60 KB a mail can carry twice (inline and attached, base64). The bigger win is the band
/// cache: a step changes a few squares, so most bands of a picture were compressed before (the
/// other reader's picture of the same step, the same board a step earlier). The bytes depend on
/// the pixels alone, never on the cache or a library's version.
///
/// Kept instead of the png crate's `Compression::Fast` (issue 11 item 7): in the same run of
/// benches, the crate (with the pixel caches kept) made a whole intake run take 1.74 times as
/// long and 39 % more CPU (medians of 6 rounds), its PNGs 23 % larger (bench/README.md,
/// "Picture encoding").
#[doc(hidden)]
pub fn encode_png(pixmap: &Pixmap) -> Result<Vec<u8>, PictureError> {
    let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
    let Some(idat) = zlib::compress_rgba(pixmap.data(), w, h) else {
        // Not reached today (the background is opaque): png's own encoder, with alpha.
        return encode_png_with(pixmap, PNG_FILTER, PNG_DEFLATE);
    };
    let err = |e: png::EncodingError| PictureError::Encode(e.to_string());
    let mut out = Vec::with_capacity(idat.len() + 128);
    let mut enc = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(err)?;
    w.write_chunk(png::chunk::IDAT, &idat).map_err(err)?;
    w.finish().map_err(err)?;
    Ok(out)
}

mod zlib;

// png's own encoder, for pictures with transparency (none today) and the bench's comparisons.
const PNG_FILTER: png::Filter = png::Filter::NoFilter;
const PNG_DEFLATE: png::DeflateCompression = png::DeflateCompression::Level(1);

/// PNG bytes of `pixmap`. tiny-skia's own encoder uses zlib's default level, which cost a quarter
/// of a whole batch run. The board is drawn on an opaque background, so it is stored as RGB, and
/// premultiplied colour is the straight colour when alpha is 255: the bytes are copied as they
/// are (a transparent pixel, never drawn today, keeps RGBA and is demultiplied).
#[doc(hidden)]
pub fn encode_png_with(
    pixmap: &Pixmap,
    filter: png::Filter,
    deflate: png::DeflateCompression,
) -> Result<Vec<u8>, PictureError> {
    let raw = pixmap.data();
    let opaque = raw.chunks_exact(4).all(|p| p[3] == 255);
    let (color, data) = if opaque {
        let mut data = Vec::with_capacity(raw.len() / 4 * 3);
        for p in raw.chunks_exact(4) {
            data.extend_from_slice(&p[..3]);
        }
        (png::ColorType::Rgb, data)
    } else {
        let mut data = Vec::with_capacity(raw.len());
        for p in pixmap.pixels() {
            let c = p.demultiply();
            data.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
        }
        (png::ColorType::Rgba, data)
    };
    let err = |e: png::EncodingError| PictureError::Encode(e.to_string());
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    enc.set_color(color);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_deflate_compression(deflate);
    enc.set_filter(filter);
    let mut w = enc.write_header().map_err(err)?;
    w.write_image_data(&data).map_err(err)?;
    w.finish().map_err(err)?;
    Ok(out)
}
