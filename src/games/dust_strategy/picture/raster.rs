//! SVG → PNG through resvg, as Dust Tactics' board picture does, with fonts embedded in the
//! binary (the same bytes on every machine, with or without installed fonts).

use crate::pbem::fonts::fonts;
pub(super) use crate::pbem::fonts::FONT;
use std::sync::Mutex;

/// The last pictures made, by their SVG text. Every reader of a step gets the same picture (it
/// shows nothing private), so a step's six reports cost one drawing: the lock is held while
/// drawing, so readers drawn in parallel wait for the first instead of drawing it again. The
/// bytes depend on the text alone, never on the cache.
static CACHE: Mutex<Vec<(String, Vec<u8>)>> = Mutex::new(Vec::new());
const CACHED: usize = 4;

/// PNG bytes of the SVG `text`, `width` × `height` pixels (from [`CACHE`] when drawn before).
pub(super) fn png(text: &str, width: u32, height: u32) -> Result<Vec<u8>, String> {
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, bytes)) = cache.iter().find(|(t, _)| t == text) {
        return Ok(bytes.clone());
    }
    let bytes = draw(text, width, height)?;
    if cache.len() >= CACHED {
        cache.remove(0);
    }
    cache.push((text.to_string(), bytes.clone()));
    Ok(bytes)
}

/// PNG bytes of the SVG `text`, stored as RGB (the background is opaque, so premultiplied
/// colour is the colour), without filters and at zlib level 1, as Dust Tactics' picture was
/// before its own encoder: the map is flat colour, so runs and repeated rows compress well.
fn draw(text: &str, width: u32, height: u32) -> Result<Vec<u8>, String> {
    let opt = resvg::usvg::Options {
        font_family: FONT.to_string(),
        fontdb: fonts(),
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_str(text, &opt)
        .map_err(|e| format!("the map picture's SVG is invalid ({e}); report this as a bug"))?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| format!("a map picture of {width}×{height} pixels cannot be allocated"))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    let mut rgb = Vec::with_capacity(pixmap.data().len() / 4 * 3);
    for p in pixmap.data().chunks_exact(4) {
        rgb.extend_from_slice(&p[..3]);
    }
    let err = |e: png::EncodingError| format!("the map picture could not be encoded ({e})");
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, width, height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_filter(png::Filter::NoFilter);
    enc.set_deflate_compression(png::DeflateCompression::Level(1));
    let mut w = enc.write_header().map_err(err)?;
    w.write_image_data(&rgb).map_err(err)?;
    w.finish().map_err(err)?;
    Ok(out)
}
