//! The board picture: an SVG drawing of a Dust Tactics board (terrain, cover, unit counters, the
//! last activation's movement and fire) and the same drawing as a PNG.
//!
//! Pure data in, bytes out: no game logic, no file or network access, no wall clock. The same
//! [`Picture`] always gives the same SVG text and the same PNG bytes. The SVG holds no scripts and
//! no external references (it goes into mail); the PNG's text uses fonts embedded in the binary
//! (`assets/fonts/`), so a machine without any installed font draws the same picture.
//!
//! All coordinates are whole pixels computed with integers, so the output never depends on
//! floating-point formatting.

use crate::dust_tactics::model::{Board, CoverKind, SideId, Square, Terrain, UnitType};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

/// Pixels per board square.
pub const SQUARE_PX: u32 = 48;
/// Width of the margin around the board that holds the column letters and row numbers.
pub const MARGIN_PX: u32 = 26;

/// The font family every text element names; the PNG renderer has only this family.
const FONT: &str = "DejaVu Sans";
const FONT_REGULAR: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans-subset.ttf");
const FONT_BOLD: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans-Bold-subset.ttf");
/// Characters the embedded fonts have besides printable ASCII (see assets/fonts/README.md).
const FONT_EXTRA: &[char] = &['·', '×', '–', '—', '•', '…'];

/// Everything the picture shows. Plain data: the caller fills it from the game state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Picture {
    /// Terrain per square and the cover elements still standing.
    pub board: Board,
    /// Sides in the order their colours are given: the first gets the blue/olive colours, the
    /// second the red/grey ones. Sides that only appear on units are added after these, in the
    /// order of the units.
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
}

/// One line of fire, from the attacker's square to the target's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireLine {
    pub from: Square,
    pub to: Square,
    /// At least one hit: drawn solid; all missed: drawn dashed.
    pub hit: bool,
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
        }
    }

    /// The sides in colour order: `sides` first, then any other side a unit names.
    pub fn side_order(&self) -> Vec<SideId> {
        let mut order: Vec<SideId> = Vec::new();
        let named = self.sides.iter().chain(self.units.iter().map(|u| &u.side));
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
}

/// The colours of the side at `index` in [`Picture::side_order`]: blue with an olive rim first
/// (Allies), red with a grey rim second (Axis), then fallbacks for unusual scenarios.
pub fn side_colours(index: usize) -> SideColours {
    const COLOURS: [SideColours; 4] = [
        SideColours {
            fill: "#2456a6",
            rim: "#6b7a2c",
        },
        SideColours {
            fill: "#c0282d",
            rim: "#4d4d4d",
        },
        SideColours {
            fill: "#7b3fa0",
            rim: "#3d2050",
        },
        SideColours {
            fill: "#d9861c",
            rim: "#6a3f08",
        },
    ];
    COLOURS[index % COLOURS.len()]
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

/// The picture's pixels, drawn in parts that are cached when they repeat:
///
/// 1. the static layer (background, terrain, grid, coordinates: the same for every step of every
///    game on the same board) from [`STATIC_CACHE`], or drawn and kept there;
/// 2. the dynamic layer (cover, movement, counters, wrecks, fire) drawn over a copy of it, item
///    by item in the document's order, each pasted from [`ITEM_CACHE`] when it was drawn before
///    over the same pixels (see [`draw_item`]); it stays inside the board and its margins;
/// 3. the legend's rows (from `legend_y` down, where the single-pass picture has only the
///    background and the legend) from [`LEGEND_CACHE`], or drawn on the bare background and kept.
///
/// Each pixel gets the same paint in the same order as in [`svg`]'s document, so the pixels are
/// those of [`pixels_single_pass`], byte for byte (tests/picture.rs checks it).
#[doc(hidden)]
pub fn pixels(pic: &Picture) -> Result<Pixmap, PictureError> {
    let layout = Layout::new(pic);
    let (w, h) = (layout.width, layout.height);
    let mut text = String::with_capacity(8 * 1024);
    svg_open(&mut text, &layout);
    static_layer(&mut text, pic, &layout);
    text.push_str("</svg>\n");
    let base = STATIC_CACHE.get_or_draw(text, |text| {
        let mut pixmap = Pixmap::new(w, h).ok_or(PictureError::Size(w, h))?;
        draw(text, &mut pixmap)?;
        Ok(pixmap)
    })?;
    // Copied outside the cache's lock.
    let mut pixmap = (*base).clone();

    // Characters the embedded fonts lack would vanish: draw them as `?` instead.
    let mut head = String::with_capacity(1024);
    svg_open(&mut head, &layout);
    let mut text = String::with_capacity(8 * 1024);
    let mut items = Vec::new();
    dynamic_layer(&mut text, pic, true, &mut items);
    for range in items {
        if let Some(item) = text.get(range).filter(|t| !t.is_empty()) {
            draw_item(&head, item, &mut pixmap)?;
        }
    }

    let mut text = String::with_capacity(4 * 1024);
    svg_open(&mut text, &layout);
    background(&mut text, &layout);
    legend_layer(&mut text, pic, &layout, true);
    text.push_str("</svg>\n");
    let start = layout.legend_y as usize * w as usize * 4;
    let rows = LEGEND_CACHE.get_or_draw(text, |text| {
        let mut pixmap = Pixmap::new(w, h).ok_or(PictureError::Size(w, h))?;
        draw(text, &mut pixmap)?;
        Ok(pixmap.data().get(start..).unwrap_or_default().to_vec())
    })?;
    match pixmap.data_mut().get_mut(start..) {
        Some(dest) if dest.len() == rows.len() => dest.copy_from_slice(&rows),
        // Not reached (the key names the size); never a picture with a wrong legend.
        _ => return pixels_single_pass(pic),
    }
    Ok(pixmap)
}

/// The picture's pixels drawn from the whole document in one pass, as before the layers were
/// cached: the reference [`pixels`] is tested against.
#[doc(hidden)]
pub fn pixels_single_pass(pic: &Picture) -> Result<Pixmap, PictureError> {
    let (w, h) = size(pic);
    let mut pixmap = Pixmap::new(w, h).ok_or(PictureError::Size(w, h))?;
    draw(&render_svg(pic, true), &mut pixmap)?;
    Ok(pixmap)
}

/// Parses `text` and draws it over what `pixmap` holds.
fn draw(text: &str, pixmap: &mut Pixmap) -> Result<(), PictureError> {
    render(&parse(text)?, pixmap);
    Ok(())
}

fn parse(text: &str) -> Result<resvg::usvg::Tree, PictureError> {
    let opt = resvg::usvg::Options {
        font_family: FONT.to_string(),
        fontdb: fonts(),
        ..Default::default()
    };
    resvg::usvg::Tree::from_str(text, &opt).map_err(|e| PictureError::Svg(e.to_string()))
}

fn render(tree: &resvg::usvg::Tree, pixmap: &mut Pixmap) {
    resvg::render(
        tree,
        resvg::tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
}

/// Draws one item of the dynamic layer (`item`: its SVG elements; `head`: the document's opening)
/// over `pixmap`, from [`ITEM_CACHE`] when the item was drawn before over the same pixels.
///
/// Drawing an item changes only the pixels inside its region, each according to its own previous
/// value (painting over, and group opacity, are per pixel): the same text over the same region
/// pixels gives the same region pixels, so a hit pastes exactly what drawing would give. Parsing
/// an item's text (shaping its labels) and rasterising it was most of a picture's time; counters
/// mostly stand still from one step to the next, and the readers of one step see the same board.
fn draw_item(head: &str, item: &str, pixmap: &mut Pixmap) -> Result<(), PictureError> {
    let size = (pixmap.width(), pixmap.height());
    let mut known: Option<Option<Region>> = None;
    {
        let mut cache = ITEM_CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = cache.iter().position(|e| e.size == size && e.text == item) {
            let entry = cache.remove(i);
            let mut hit = false;
            if let Some(r) = entry.region {
                if let Some((_, after)) = entry.variants.iter().find(|(b, _)| r.equals(pixmap, b)) {
                    r.paste(pixmap, after);
                    hit = true;
                }
            }
            known = Some(entry.region);
            cache.insert(0, entry);
            if hit {
                ITEM_STATS.with(|s| s.set((s.get().0 + 1, s.get().1)));
                return Ok(());
            }
        }
    }
    ITEM_STATS.with(|s| s.set((s.get().0, s.get().1 + 1)));
    let tree = parse(&format!("{head}{item}</svg>\n"))?;
    let region = known.unwrap_or_else(|| Region::of(&tree, size));
    let before = region.map(|r| r.copy(pixmap));
    render(&tree, pixmap);
    let mut cache = ITEM_CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let i = match cache.iter().position(|e| e.size == size && e.text == item) {
        Some(i) => i,
        None => {
            cache.insert(
                0,
                Item {
                    size,
                    text: item.to_string(),
                    region,
                    variants: Vec::new(),
                },
            );
            0
        }
    };
    let mut entry = cache.remove(i);
    if let (Some(r), Some(before)) = (entry.region, before) {
        entry.variants.retain(|(b, _)| *b != before);
        entry.variants.insert(0, (before, r.copy(pixmap)));
        entry.variants.truncate(ITEM_VARIANTS);
    }
    cache.insert(0, entry);
    cache.truncate(ITEM_ENTRIES);
    // Bounded in bytes too: long lines of fire keep large regions.
    let mut total = 0;
    let keep = cache
        .iter()
        .take_while(|e| {
            total += e.text.len()
                + e.variants
                    .iter()
                    .map(|(b, a)| b.len() + a.len())
                    .sum::<usize>();
            total <= ITEM_BYTES
        })
        .count()
        .max(1);
    cache.truncate(keep);
    Ok(())
}

/// Drawn items, most recently used first (at most [`ITEM_ENTRIES`], [`ITEM_BYTES`] in all), keyed
/// by the picture's size and the item's whole SVG text, compared as text (no hash to collide).
static ITEM_CACHE: Mutex<Vec<Item>> = Mutex::new(Vec::new());
const ITEM_ENTRIES: usize = 512;
const ITEM_BYTES: usize = 16 << 20;
/// Backgrounds kept per item (a counter that fire or movement passed under, a reader's view).
const ITEM_VARIANTS: usize = 4;

thread_local! {
    /// Hits and misses of [`ITEM_CACHE`] in this thread (tests).
    static ITEM_STATS: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

/// Hits and misses of the item cache so far in the calling thread.
#[doc(hidden)]
pub fn item_cache_stats() -> (usize, usize) {
    ITEM_STATS.with(|s| s.get())
}

struct Item {
    size: (u32, u32),
    text: String,
    /// The pixels drawing the item can change; `None` if its bounds were unknown (never cached).
    region: Option<Region>,
    /// The region's pixels before and after drawing, for the backgrounds seen lately.
    variants: Vec<(Vec<u8>, Vec<u8>)>,
}

/// A rectangle of pixels inside the picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Region {
    x: usize,
    y: usize,
    w: usize,
    h: usize,
}

impl Region {
    /// Margin around the drawing's bounds: anti-aliasing reaches the pixels a shape touches
    /// (one beyond its bounds at most), the rest is safety.
    const MARGIN: f32 = 4.0;

    /// Where the tree can paint: its layer bounds (strokes, markers and text included) and
    /// stroke bounds, rounded out with a margin, clipped to the picture.
    fn of(tree: &resvg::usvg::Tree, (w, h): (u32, u32)) -> Option<Region> {
        let root = tree.root();
        let layer = root.abs_layer_bounding_box();
        let stroke = root.abs_stroke_bounding_box();
        let x0 = layer.left().min(stroke.left()) - Self::MARGIN;
        let y0 = layer.top().min(stroke.top()) - Self::MARGIN;
        let x1 = layer.right().max(stroke.right()) + Self::MARGIN;
        let y1 = layer.bottom().max(stroke.bottom()) + Self::MARGIN;
        if ![x0, y0, x1, y1].iter().all(|v| v.is_finite()) {
            return None;
        }
        let clamp = |v: f32, max: u32| (v.max(0.0) as u32).min(max) as usize;
        let (x0, y0) = (clamp(x0.floor(), w), clamp(y0.floor(), h));
        let (x1, y1) = (clamp(x1.ceil(), w), clamp(y1.ceil(), h));
        (x1 > x0 && y1 > y0).then_some(Region {
            x: x0,
            y: y0,
            w: x1 - x0,
            h: y1 - y0,
        })
    }

    fn rows<'a>(&self, data: &'a [u8], width: usize) -> impl Iterator<Item = &'a [u8]> + 'a {
        let (x, w) = (self.x * 4, self.w * 4);
        data.chunks_exact(width * 4)
            .skip(self.y)
            .take(self.h)
            .map(move |row| row.get(x..x + w).unwrap_or_default())
    }

    fn copy(&self, pixmap: &Pixmap) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.w * self.h * 4);
        for row in self.rows(pixmap.data(), pixmap.width() as usize) {
            out.extend_from_slice(row);
        }
        out
    }

    fn equals(&self, pixmap: &Pixmap, bytes: &[u8]) -> bool {
        bytes.len() == self.w * self.h * 4
            && self
                .rows(pixmap.data(), pixmap.width() as usize)
                .zip(bytes.chunks_exact(self.w * 4))
                .all(|(a, b)| a == b)
    }

    fn paste(&self, pixmap: &mut Pixmap, bytes: &[u8]) {
        let width = pixmap.width() as usize;
        let (x, w) = (self.x * 4, self.w * 4);
        let rows = pixmap.data_mut().chunks_exact_mut(width * 4).skip(self.y);
        for (row, src) in rows.zip(bytes.chunks_exact(w)) {
            if let Some(dest) = row.get_mut(x..x + w) {
                dest.copy_from_slice(src);
            }
        }
    }
}

/// Rendered static layers: one per board (terrain and size), 0.6 MB each for the skirmish board.
static STATIC_CACHE: Cache<Pixmap> = Cache::new(8);
/// Rendered legend rows (0.16 MB for the skirmish board): a board has a few legends in a game,
/// one per recipient ("(you)") and per set of things shown (fire, movement, wrecks…). In
/// `cargo bench --bench intake` (100 skirmish games) the static layer hit 99.9% of the time and
/// the legend rows 94.5%.
static LEGEND_CACHE: Cache<Vec<u8>> = Cache::new(32);

/// A few drawn layers, most recently used first, keyed by the layer's whole SVG document text
/// (which names the width and height): equal text draws equal pixels, and comparing the text
/// itself cannot collide the way a hash could. A hit and a miss give the same value. A poisoned
/// lock is used as it is: the list is never left half-changed (entries are only removed and
/// inserted whole).
struct Cache<T> {
    entries: Mutex<Vec<(String, Arc<T>)>>,
    capacity: usize,
}

impl<T> Cache<T> {
    const fn new(capacity: usize) -> Cache<T> {
        Cache {
            entries: Mutex::new(Vec::new()),
            capacity,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(String, Arc<T>)>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The value for `key`, from the cache or made by `draw(&key)` (outside the lock) and kept.
    fn get_or_draw(
        &self,
        key: String,
        draw: impl FnOnce(&str) -> Result<T, PictureError>,
    ) -> Result<Arc<T>, PictureError> {
        {
            let mut entries = self.lock();
            if let Some(i) = entries.iter().position(|(k, _)| *k == key) {
                let entry = entries.remove(i);
                let value = entry.1.clone();
                entries.insert(0, entry);
                return Ok(value);
            }
        }
        let value = Arc::new(draw(&key)?);
        let mut entries = self.lock();
        // Another thread may have drawn the same layer meanwhile: keep one entry.
        entries.retain(|(k, _)| *k != key);
        entries.insert(0, (key, value.clone()));
        entries.truncate(self.capacity);
        Ok(value)
    }

    fn clear(&self) {
        self.lock().clear();
    }
}

/// Empties the layer caches (tests: a miss and a hit give the same bytes).
#[doc(hidden)]
pub fn clear_static_cache() {
    STATIC_CACHE.clear();
    LEGEND_CACHE.clear();
    ITEM_CACHE.lock().unwrap_or_else(|e| e.into_inner()).clear();
    zlib::clear_cache();
}

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

/// The font database with only the embedded fonts (never the system's: same bytes everywhere).
fn fonts() -> Arc<resvg::usvg::fontdb::Database> {
    static DB: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(FONT_REGULAR.to_vec());
        db.load_font_data(FONT_BOLD.to_vec());
        Arc::new(db)
    })
    .clone()
}

/// Where things go, in pixels.
struct Layout {
    cols: u32,
    rows: u32,
    width: u32,
    height: u32,
    /// Top of the legend.
    legend_y: u32,
    legend_cols: u32,
    items: Vec<LegendItem>,
}

const LEGEND_ITEM_W: u32 = 112;
const LEGEND_ROW_H: u32 = 22;
const LEGEND_PAD: u32 = 10;

impl Layout {
    fn new(pic: &Picture) -> Layout {
        let cols = pic.board.width() as u32;
        let rows = pic.board.height() as u32;
        let width = 2 * MARGIN_PX + cols * SQUARE_PX;
        let legend_y = 2 * MARGIN_PX + rows * SQUARE_PX;
        let items = legend_items(pic);
        let legend_cols = ((width - 2 * LEGEND_PAD) / LEGEND_ITEM_W).max(1);
        let legend_rows = (items.len() as u32).div_ceil(legend_cols);
        let height = legend_y + legend_rows * LEGEND_ROW_H + LEGEND_PAD;
        Layout {
            cols,
            rows,
            width,
            height,
            legend_y,
            legend_cols,
            items,
        }
    }
}

/// Renders the document; `font_safe` replaces characters the embedded fonts lack.
fn render_svg(pic: &Picture, font_safe: bool) -> String {
    let layout = Layout::new(pic);
    let mut out = String::with_capacity(16 * 1024);
    svg_open(&mut out, &layout);
    static_layer(&mut out, pic, &layout);
    dynamic_layer(&mut out, pic, font_safe, &mut Vec::new());
    legend_layer(&mut out, pic, &layout, font_safe);
    out.push_str("</svg>\n");
    out
}

/// The `<svg>` element and the arrowhead markers: every document (whole or layer) starts so, with
/// the same size, viewBox and font, so the layers draw exactly where the whole picture would.
fn svg_open(out: &mut String, layout: &Layout) {
    let (w, h) = (layout.width, layout.height);
    // `write!` into a String cannot fail; the results are ignored on purpose in this module.
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}, Verdana, Arial, sans-serif">"##
    );
    out.push_str(DEFS);
}

/// What depends on the board's terrain and size alone: background, terrain, grid, coordinates.
/// Drawn first; the PNG keeps it rendered in [`STATIC_CACHE`].
fn static_layer(out: &mut String, pic: &Picture, layout: &Layout) {
    background(out, layout);

    // Terrain, square by square.
    out.push_str("<g id=\"terrain\">\n");
    for sq in pic.board.squares() {
        terrain_square(out, sq, pic.board.terrain(sq));
    }
    out.push_str("</g>\n");

    grid(out, layout);
    coordinates(out, layout);
}

fn background(out: &mut String, layout: &Layout) {
    let (w, h) = (layout.width, layout.height);
    let _ = writeln!(out, r##"<rect width="{w}" height="{h}" fill="#fbf8ef"/>"##);
}

/// What changes from step to step: cover, movement, units, wrecks, fire. Drawn over the static
/// layer, in this order, and only inside the board and its margins (never on the legend's rows).
///
/// `items` receives the byte range in `out` of each thing drawn (a cover element, the movement,
/// a counter, a wreck, a line of fire), which [`pixels`] draws and caches one by one.
fn dynamic_layer(out: &mut String, pic: &Picture, font_safe: bool, items: &mut Vec<Range<usize>>) {
    let sides = pic.side_order();
    let text = |s: &str| text_content(s, font_safe);
    out.push_str("<g id=\"cover\">\n");
    for (sq, element) in &pic.board.cover {
        let start = out.len();
        // Top-left corner: a counter standing on the element leaves it visible.
        let (x, y) = square_origin(*sq);
        let (_, max) = element.kind.armour_health();
        let left = max.saturating_sub(element.damage);
        let _ = write!(
            out,
            "<g><title>{} {sq}: {left}/{max}</title>",
            cover_name(element.kind)
        );
        cover_icon(out, x + 3, y + 3, element.kind);
        if element.damage > 0 {
            // Damaged cover shows what is left, like a unit's health.
            let _ = write!(
                out,
                r##"<text x="{}" y="{}" font-size="9" font-weight="bold" fill="#7a1010">{left}/{max}</text>"##,
                x + 3,
                y + SQUARE_PX - 4
            );
        }
        out.push_str("</g>\n");
        items.push(start..out.len());
    }
    out.push_str("</g>\n");

    let start = out.len();
    movement(out, &pic.path);
    items.push(start..out.len());

    out.push_str("<g id=\"units\">\n");
    for unit in &pic.units {
        let index = sides.iter().position(|s| *s == unit.side).unwrap_or(0);
        let (cx, cy) = square_centre(unit.square);
        let start = out.len();
        counter(out, unit, cx, cy, side_colours(index), &text);
        items.push(start..out.len());
    }
    out.push_str("</g>\n");

    out.push_str("<g id=\"destroyed\">\n");
    for sq in &pic.destroyed {
        let (cx, cy) = square_centre(*sq);
        let start = out.len();
        wreck(out, cx, cy, 13);
        items.push(start..out.len());
    }
    out.push_str("</g>\n");

    // Fire goes over the counters so a line is never hidden under a unit it passes.
    out.push_str("<g id=\"fire\">\n");
    for line in &pic.fire {
        let start = out.len();
        fire_line(out, line);
        items.push(start..out.len());
    }
    out.push_str("</g>\n");
}

/// The legend, below the board's bottom margin: it names "(you)" and only what the picture shows,
/// so it changes with the recipient and the step, but it is drawn on the bare background only.
fn legend_layer(out: &mut String, pic: &Picture, layout: &Layout, font_safe: bool) {
    let sides = pic.side_order();
    let text = |s: &str| text_content(s, font_safe);
    legend(out, pic, layout, &sides, &text);
}

/// A destroyed unit's square: a dark red cross on a pale disc.
fn wreck(out: &mut String, cx: u32, cy: u32, r: u32) {
    let _ = writeln!(
        out,
        r##"<g><circle cx="{cx}" cy="{cy}" r="{r}" fill="#fff" fill-opacity="0.7" stroke="#7a1010" stroke-width="2"/><path d="M{},{} L{},{} M{},{} L{},{}" stroke="#7a1010" stroke-width="3" stroke-linecap="round"/></g>"##,
        cx - r / 2,
        cy - r / 2,
        cx + r / 2,
        cy + r / 2,
        cx + r / 2,
        cy - r / 2,
        cx - r / 2,
        cy + r / 2
    );
}

/// Markers for arrowheads. `orient="auto"` turns them along the line, so no angles are computed.
const DEFS: &str = r##"<defs>
<marker id="arrow-move" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto" markerUnits="strokeWidth"><path d="M0,0 L10,5 L0,10 z" fill="#1d1d1d"/></marker>
<marker id="arrow-fire" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto" markerUnits="strokeWidth"><path d="M0,0 L10,5 L0,10 z" fill="#e01b1b"/></marker>
</defs>
"##;

fn square_origin(sq: Square) -> (u32, u32) {
    (
        MARGIN_PX + sq.col() as u32 * SQUARE_PX,
        MARGIN_PX + sq.row() as u32 * SQUARE_PX,
    )
}

fn terrain_fill(t: Terrain) -> &'static str {
    match t {
        Terrain::Open => "#ece4cc",
        Terrain::Impassable => "#2e2e2e",
        Terrain::DeepWater => "#3f86c9",
        Terrain::Rubble => "#b08a5e",
        Terrain::Smoke => "#bdbdbd",
        Terrain::Trees => "#5e9c48",
    }
}

fn terrain_square(out: &mut String, sq: Square, t: Terrain) {
    let (x, y) = square_origin(sq);
    let s = SQUARE_PX;
    let _ = write!(
        out,
        r##"<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{}"/>"##,
        terrain_fill(t)
    );
    terrain_symbol(out, x + s / 2, y + s / 2, t, 1);
    out.push('\n');
}

/// The symbol printed at a square's centre: `shrink` 1 on the board, 3 (a third) in the legend.
fn terrain_symbol(out: &mut String, cx: u32, cy: u32, t: Terrain, shrink: u32) {
    let k = |n: u32| n / shrink;
    match t {
        Terrain::Open => {
            let _ = write!(
                out,
                r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="#7d735a"/>"##,
                k(4).max(2)
            );
        }
        Terrain::Impassable => {
            // Hatching says "solid" even where a counter hides the centre.
            let (x0, y0) = (cx - k(24), cy - k(24));
            let s = k(48);
            let _ = write!(
                out,
                r##"<path d="M{x0},{y1} L{x1},{y0} M{x0},{y2} L{x2},{y0} M{x3},{y4} L{x4},{y3}" stroke="#4a4a4a" stroke-width="{sw}"/>"##,
                y1 = y0 + s / 2,
                x1 = x0 + s / 2,
                y2 = y0 + s,
                x2 = x0 + s,
                x3 = x0 + s / 2,
                y4 = y0 + s,
                x4 = x0 + s,
                y3 = y0 + s / 2,
                sw = k(2).max(1),
            );
        }
        Terrain::DeepWater => {
            // ▼ with a wave above and below it.
            let _ = write!(
                out,
                r##"<path d="M{a},{b} L{c},{b} L{cx},{d} z" fill="#dcecfa"/>"##,
                a = cx - k(8),
                c = cx + k(8),
                b = cy - k(5),
                d = cy + k(7),
            );
            for y in [cy - k(14), cy + k(14)] {
                let _ = write!(
                    out,
                    r##"<path d="M{x0},{y} q{q},-{a} {h},0 t{h},0 t{h},0 t{h},0" fill="none" stroke="#b9d8f2" stroke-width="{sw}"/>"##,
                    x0 = cx - k(16),
                    q = k(4),
                    a = k(4),
                    h = k(8),
                    sw = k(2).max(1),
                );
            }
        }
        Terrain::Rubble => {
            let (a, b) = (k(9), k(3));
            let _ = write!(
                out,
                r##"<path d="M{x0},{y0}h{w}v{a}h{a}v{w}h-{a}v{a}h-{w}v-{a}h-{a}v-{w}h{a}z" fill="#5c3f22"/>"##,
                x0 = cx - b,
                y0 = cy - a,
                w = 2 * b,
                a = a - b,
            );
        }
        Terrain::Smoke => {
            let a = k(10);
            let _ = write!(
                out,
                r##"<path d="M{cx},{t} L{r},{cy} L{cx},{bm} L{l},{cy} z" fill="#6f6f6f"/>"##,
                t = cy - a,
                r = cx + a,
                bm = cy + a,
                l = cx - a,
            );
        }
        Terrain::Trees => {
            let a = k(8);
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#24561a"/>"##,
                cx - a,
                cy - a,
                2 * a,
                2 * a
            );
        }
    }
}

/// Ammo crate and tank trap icons, 14 px, with their top-left corner at (x, y).
fn cover_icon(out: &mut String, x: u32, y: u32, kind: CoverKind) {
    match kind {
        CoverKind::AmmoCrate => {
            let _ = write!(
                out,
                r##"<g><rect x="{x}" y="{y1}" width="14" height="10" rx="1" fill="#c8872e" stroke="#4f3410" stroke-width="1.5"/><path d="M{x1},{y1}v10 M{x2},{y1}v10" stroke="#4f3410" stroke-width="1.5"/></g>"##,
                y1 = y + 2,
                x1 = x + 5,
                x2 = x + 9,
            );
        }
        CoverKind::TankTrap => {
            // A Czech hedgehog: two crossed girders and a cross bar.
            let _ = write!(
                out,
                r##"<path d="M{x},{y} L{x2},{y2} M{x2},{y} L{x},{y2} M{x},{ym} H{x2}" stroke="#1b1b1b" stroke-width="3" stroke-linecap="round"/>"##,
                x2 = x + 14,
                y2 = y + 14,
                ym = y + 7,
            );
        }
    }
    out.push('\n');
}

fn grid(out: &mut String, layout: &Layout) {
    let (x0, y0) = (MARGIN_PX, MARGIN_PX);
    let (x1, y1) = (
        MARGIN_PX + layout.cols * SQUARE_PX,
        MARGIN_PX + layout.rows * SQUARE_PX,
    );
    let mut light = String::new();
    let mut heavy = String::new();
    for c in 1..layout.cols {
        let x = x0 + c * SQUARE_PX;
        let target = if c % 3 == 0 { &mut heavy } else { &mut light };
        let _ = write!(target, "M{x},{y0}V{y1}");
    }
    for r in 1..layout.rows {
        let y = y0 + r * SQUARE_PX;
        let target = if r % 3 == 0 { &mut heavy } else { &mut light };
        let _ = write!(target, "M{x0},{y}H{x1}");
    }
    let _ = writeln!(
        out,
        r##"<g id="grid" fill="none"><path d="{light}" stroke="#000" stroke-opacity="0.22" stroke-width="1"/><path d="{heavy}" stroke="#222" stroke-width="2.5"/><rect x="{x0}" y="{y0}" width="{w}" height="{h}" stroke="#222" stroke-width="3"/></g>"##,
        w = x1 - x0,
        h = y1 - y0,
    );
}

/// Column letters above and below, row numbers left and right (DESIGN §4).
fn coordinates(out: &mut String, layout: &Layout) {
    out.push_str(
        r##"<g id="coordinates" font-size="14" font-weight="bold" fill="#3a3a3a" text-anchor="middle">"##,
    );
    let bottom = 2 * MARGIN_PX + layout.rows * SQUARE_PX;
    for c in 0..layout.cols {
        let x = MARGIN_PX + c * SQUARE_PX + SQUARE_PX / 2;
        let letter = (b'A' + c as u8) as char;
        let _ = write!(
            out,
            r##"<text x="{x}" y="{}">{letter}</text><text x="{x}" y="{}">{letter}</text>"##,
            MARGIN_PX - 8,
            bottom - 8
        );
    }
    let right = 2 * MARGIN_PX + layout.cols * SQUARE_PX;
    for r in 0..layout.rows {
        let y = MARGIN_PX + r * SQUARE_PX + SQUARE_PX / 2 + 5;
        let n = r + 1;
        let _ = write!(
            out,
            r##"<text x="{}" y="{y}">{n}</text><text x="{}" y="{y}">{n}</text>"##,
            MARGIN_PX / 2,
            right - MARGIN_PX / 2
        );
    }
    out.push_str("</g>\n");
}

/// The last activation's path as a dashed polyline with an arrowhead at the end. The end is pulled
/// back to the edge of the counter standing there.
fn movement(out: &mut String, path: &[Square]) {
    let mut points: Vec<(i64, i64)> = Vec::new();
    for sq in path {
        let (x, y) = square_centre(*sq);
        let p = (x as i64, y as i64);
        if points.last() != Some(&p) {
            points.push(p);
        }
    }
    let (Some(&start), Some(&end), true) = (points.first(), points.last(), points.len() >= 2)
    else {
        return;
    };
    let before = points[points.len() - 2];
    let tip = pull_back(before, end, 21);
    let n = points.len();
    let mut d = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        let (x, y) = if i + 1 == n { tip } else { (*x, *y) };
        let _ = write!(d, "{}{x},{y}", if i == 0 { "M" } else { " L" });
    }
    let _ = writeln!(
        out,
        r##"<g id="movement"><circle cx="{}" cy="{}" r="5" fill="none" stroke="#1d1d1d" stroke-width="2.5"/><path d="{d}" fill="none" stroke="#fff" stroke-opacity="0.7" stroke-width="6" stroke-linejoin="round"/><path d="{d}" fill="none" stroke="#1d1d1d" stroke-width="3" stroke-dasharray="7 5" stroke-linejoin="round" marker-end="url(#arrow-move)"/></g>"##,
        start.0, start.1
    );
}

/// A line of fire from the attacker's counter edge to the target's.
fn fire_line(out: &mut String, line: &FireLine) {
    let (fx, fy) = square_centre(line.from);
    let (tx, ty) = square_centre(line.to);
    let (from, to) = ((fx as i64, fy as i64), (tx as i64, ty as i64));
    if from == to {
        return;
    }
    let a = pull_back(to, from, 18);
    let b = pull_back(from, to, 19);
    let dash = if line.hit {
        ""
    } else {
        r##" stroke-dasharray="8 5""##
    };
    let _ = writeln!(
        out,
        r##"<g class="{}"><path d="M{},{} L{},{}" stroke="#fff" stroke-opacity="0.6" stroke-width="6"/><path d="M{},{} L{},{}" stroke="#e01b1b" stroke-width="3"{dash} marker-end="url(#arrow-fire)"/></g>"##,
        if line.hit { "fire-hit" } else { "fire-miss" },
        a.0,
        a.1,
        b.0,
        b.1,
        a.0,
        a.1,
        b.0,
        b.1,
    );
}

/// The point `by` pixels before `to` on the segment from `from`, in whole pixels (integer square
/// root: no floating point, same result on every machine). Short segments keep at least a third.
fn pull_back(from: (i64, i64), to: (i64, i64), by: i64) -> (i64, i64) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).unsigned_abs().isqrt() as i64;
    if len == 0 {
        return to;
    }
    let by = by.min(len * 2 / 3);
    (to.0 - dx * by / len, to.1 - dy * by / len)
}

/// A unit counter: circle for squads and heroes, rounded square for vehicles, with its id and
/// "left/max" written on it.
fn counter(
    out: &mut String,
    unit: &UnitMarker,
    cx: u32,
    cy: u32,
    colours: SideColours,
    text: &dyn Fn(&str) -> String,
) {
    let SideColours { fill, rim } = colours;
    let dim = if unit.activated {
        r#" opacity="0.45""#
    } else {
        ""
    };
    let _ = write!(
        out,
        r##"<g class="unit"{dim}><title>{}</title>"##,
        text(&format!(
            "{} ({}) {}/{}",
            unit.label, unit.side, unit.left, unit.max
        ))
    );
    match unit.unit_type {
        UnitType::Vehicle => {
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="38" height="38" rx="8" fill="{fill}" stroke="{rim}" stroke-width="3"/>"##,
                cx - 19,
                cy - 19
            );
        }
        UnitType::Squad | UnitType::Hero => {
            let _ = write!(
                out,
                r##"<circle cx="{cx}" cy="{cy}" r="19" fill="{fill}" stroke="{rim}" stroke-width="3"/>"##
            );
        }
    }
    let (label, size) = fit_label(&unit.label);
    let _ = write!(
        out,
        r##"<text x="{cx}" y="{}" font-size="{size}" font-weight="bold" fill="#fff" text-anchor="middle">{}</text>"##,
        cy - 1,
        text(&label)
    );
    let _ = write!(
        out,
        r##"<text x="{cx}" y="{}" font-size="10" fill="#fff" text-anchor="middle">{}/{}</text>"##,
        cy + 11,
        unit.left,
        unit.max
    );
    if unit.joined_hero {
        star(out, cx + 15, cy - 15, 7);
    }
    out.push_str("</g>\n");
}

/// The label as it fits on a counter and its font size; long ids are cut with "…" (the full id
/// is in the counter's `<title>`).
fn fit_label(label: &str) -> (String, u32) {
    let n = label.chars().count();
    // Sizes measured so the text stays inside the 38 px counter in DejaVu Sans Bold.
    let size = match n {
        0..=2 => 12,
        3 => 11,
        4 => 10,
        5 => 9,
        _ => 8,
    };
    if n <= 6 {
        (label.to_string(), size)
    } else {
        (label.chars().take(5).chain(['…']).collect(), size)
    }
}

/// A five-pointed gold star of outer radius `r` (points precomputed: no trigonometry).
fn star(out: &mut String, cx: u32, cy: u32, r: u32) {
    // Unit star coordinates ×1000: outer points at 0°,72°.. from the top, inner at radius 0.4.
    const PTS: [(i64, i64); 10] = [
        (0, -1000),
        (235, -324),
        (951, -309),
        (380, 124),
        (588, 809),
        (0, 400),
        (-588, 809),
        (-380, 124),
        (-951, -309),
        (-235, -324),
    ];
    let mut d = String::new();
    for (i, (px, py)) in PTS.iter().enumerate() {
        let x = cx as i64 * 10 + px * r as i64 / 100;
        let y = cy as i64 * 10 + py * r as i64 / 100;
        let _ = write!(
            d,
            "{}{}.{},{}.{}",
            if i == 0 { "M" } else { " L" },
            tenths_int(x),
            x.rem_euclid(10),
            tenths_int(y),
            y.rem_euclid(10)
        );
    }
    let _ = write!(
        out,
        r##"<path d="{d} z" fill="#f2c230" stroke="#5a4300" stroke-width="1"/>"##
    );
}

/// Whole part of a value given in tenths, rounding towards minus infinity (pairs with rem_euclid).
fn tenths_int(v: i64) -> i64 {
    v.div_euclid(10)
}

/// One entry of the legend.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LegendItem {
    Side(usize),
    Vehicle,
    JoinedHero,
    Activated,
    Movement,
    Hit,
    Miss,
    Destroyed,
    Terrain(Terrain),
    Cover(CoverKind),
}

/// Only what the picture shows, in a fixed order.
fn legend_items(pic: &Picture) -> Vec<LegendItem> {
    let mut items: Vec<LegendItem> = (0..pic.side_order().len()).map(LegendItem::Side).collect();
    if pic.units.iter().any(|u| u.unit_type == UnitType::Vehicle) {
        items.push(LegendItem::Vehicle);
    }
    if pic.units.iter().any(|u| u.joined_hero) {
        items.push(LegendItem::JoinedHero);
    }
    if pic.units.iter().any(|u| u.activated) {
        items.push(LegendItem::Activated);
    }
    if pic.path.windows(2).any(|w| w[0] != w[1]) {
        items.push(LegendItem::Movement);
    }
    let real_fire = || pic.fire.iter().filter(|f| f.from != f.to);
    if real_fire().any(|f| f.hit) {
        items.push(LegendItem::Hit);
    }
    if real_fire().any(|f| !f.hit) {
        items.push(LegendItem::Miss);
    }
    if !pic.destroyed.is_empty() {
        items.push(LegendItem::Destroyed);
    }
    for t in [
        Terrain::Open,
        Terrain::Impassable,
        Terrain::DeepWater,
        Terrain::Rubble,
        Terrain::Smoke,
        Terrain::Trees,
    ] {
        if pic.board.squares().any(|sq| pic.board.terrain(sq) == t) {
            items.push(LegendItem::Terrain(t));
        }
    }
    for kind in [CoverKind::AmmoCrate, CoverKind::TankTrap] {
        if pic.board.cover.values().any(|c| c.kind == kind) {
            items.push(LegendItem::Cover(kind));
        }
    }
    items
}

fn legend(
    out: &mut String,
    pic: &Picture,
    layout: &Layout,
    sides: &[SideId],
    text: &dyn Fn(&str) -> String,
) {
    out.push_str(r##"<g id="legend" font-size="11" fill="#2a2a2a">"##);
    out.push('\n');
    for (i, item) in layout.items.iter().enumerate() {
        let i = i as u32;
        let x = LEGEND_PAD + (i % layout.legend_cols) * LEGEND_ITEM_W;
        let y = layout.legend_y + (i / layout.legend_cols) * LEGEND_ROW_H;
        // Icon in a 16×16 box at (x, y+1); text after it.
        let (cx, cy) = (x + 8, y + 9);
        let label: String = match item {
            LegendItem::Side(index) => {
                let SideColours { fill, rim } = side_colours(*index);
                let _ = write!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="7" fill="{fill}" stroke="{rim}" stroke-width="2"/>"##
                );
                let name = sides.get(*index).map(String::as_str).unwrap_or("?");
                let ours = pic.ours.as_deref() == Some(name);
                // About 14 characters fit before the next legend column.
                let room = if ours { 8 } else { 14 };
                let name: String = if name.chars().count() > room {
                    name.chars().take(room - 1).chain(['…']).collect()
                } else {
                    name.to_string()
                };
                if ours {
                    format!("{name} (you)")
                } else {
                    name
                }
            }
            LegendItem::Vehicle => {
                let _ = write!(
                    out,
                    r##"<rect x="{}" y="{}" width="14" height="14" rx="3" fill="#888" stroke="#444" stroke-width="2"/>"##,
                    cx - 7,
                    cy - 7
                );
                "vehicle".to_string()
            }
            LegendItem::JoinedHero => {
                star(out, cx, cy, 7);
                "hero joined".to_string()
            }
            LegendItem::Activated => {
                let _ = write!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="7" fill="#888" stroke="#444" stroke-width="2" opacity="0.45"/>"##
                );
                "activated".to_string()
            }
            LegendItem::Movement => {
                let _ = write!(
                    out,
                    r##"<path d="M{},{cy} H{}" stroke="#1d1d1d" stroke-width="2" stroke-dasharray="3 2" marker-end="url(#arrow-move)"/>"##,
                    x - 2,
                    x + 14
                );
                "moved".to_string()
            }
            LegendItem::Hit | LegendItem::Miss => {
                let dash = if *item == LegendItem::Miss {
                    r##" stroke-dasharray="3 2""##
                } else {
                    ""
                };
                let _ = write!(
                    out,
                    r##"<path d="M{},{cy} H{}" stroke="#e01b1b" stroke-width="2"{dash} marker-end="url(#arrow-fire)"/>"##,
                    x - 2,
                    x + 14
                );
                if *item == LegendItem::Hit {
                    "fire: hit"
                } else {
                    "fire: missed"
                }
                .to_string()
            }
            LegendItem::Destroyed => {
                wreck(out, cx, cy, 7);
                "destroyed".to_string()
            }
            LegendItem::Terrain(t) => {
                let _ = write!(
                    out,
                    r##"<rect x="{x}" y="{}" width="16" height="16" fill="{}" stroke="#777" stroke-width="1"/>"##,
                    y + 1,
                    terrain_fill(*t)
                );
                terrain_symbol(out, cx, cy, *t, 3);
                match t {
                    Terrain::Open => "open",
                    Terrain::Impassable => "impassable",
                    Terrain::DeepWater => "deep water",
                    Terrain::Rubble => "rubble",
                    Terrain::Smoke => "smoke",
                    Terrain::Trees => "trees",
                }
                .to_string()
            }
            LegendItem::Cover(kind) => {
                cover_icon(out, x + 1, y + 2, *kind);
                cover_name(*kind).to_string()
            }
        };
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}">{}</text>"##,
            x + 22,
            y + 13,
            text(&label)
        );
    }
    out.push_str("</g>\n");
}

fn cover_name(kind: CoverKind) -> &'static str {
    match kind {
        CoverKind::AmmoCrate => "ammo crate",
        CoverKind::TankTrap => "tank trap",
    }
}

/// Escapes text for XML, drops characters XML cannot hold, and (for the PNG) replaces those the
/// embedded fonts lack with `?`.
fn text_content(s: &str, font_safe: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() || matches!(c, '\u{FFFE}' | '\u{FFFF}') => out.push(' '),
            c if font_safe && !(c.is_ascii() || FONT_EXTRA.contains(&c)) => out.push('?'),
            c => out.push(c),
        }
    }
    out
}
