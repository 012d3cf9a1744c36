//! The picture's pixels, drawn in layers and items that are cached when they repeat (the static
//! layer, the legend's rows, each counter, cover element, path, wreck and line of fire). Kept
//! (issue 11 item 7): drawing every picture in one pass made a whole intake run about four times
//! slower in the same run of benches (bench/README.md, "Picture encoding").

use super::svg::{background, dynamic_layer, legend_layer, render_svg, static_layer, svg_open};
use super::{fonts, size, Layout, Picture, PictureError, Pixmap, FONT};
use std::sync::{Arc, Mutex};

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
/// Each pixel gets the same paint in the same order as in [`svg`](fn@super::svg)'s document, so
/// the pixels are those of [`pixels_single_pass`], byte for byte (tests/it/picture.rs checks it).
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
    super::zlib::clear_cache();
}
