//! The zlib stream of the board picture's PNG rows, made for flat-colour drawings and for
//! pictures that repeat most of the previous one.
//!
//! DEFLATE with the fixed Huffman code whose matches are only "the pixel before" (distance 3),
//! "the same bytes one row up" (distance `stride`), the two diagonals next to it and "the same
//! bytes one board square to the left". A board is
//! mostly runs of one colour and rows equal to the row above, which these find in a few u64
//! comparisons per 258 bytes; everything else (anti-aliased edges, text) goes out as literals.
//!
//! The rows are compressed in bands of [`BAND_ROWS`], each ending byte-aligned (a "sync flush":
//! an empty stored block), so a band's bytes depend only on its own rows and the row above it
//! (the only one its matches reach back into). [`BAND_CACHE`] keeps compressed bands: a band
//! whose pixels (with the row above) were compressed before is copied, not compressed again.
//! A hit gives the bytes a miss would compute, so the stream never depends on the cache.

use std::collections::BTreeMap;
use std::sync::Mutex;

/// Rows per band: a counter or a wreck changes few bands, a line of fire a band per 8 rows.
const BAND_ROWS: usize = 8;

/// The zlib stream (RFC 1950/1951) of an opaque picture: `rgba` holds `height` rows of `width`
/// premultiplied RGBA pixels (straight colour, all alpha 255); the stream holds the PNG rows of
/// the RGB image (filter type None). `None` if a pixel is not opaque.
pub(super) fn compress_rgba(rgba: &[u8], width: usize, height: usize) -> Option<Vec<u8>> {
    let stride = 1 + 3 * width;
    let mut out = Vec::with_capacity(height * stride / 10 + 64);
    // CMF 0x78 (deflate, 32 KiB window), FLG 0x01 (fastest; header % 31 == 0).
    out.extend_from_slice(&[0x78, 0x01]);
    let mut adler = 1u32;
    let row_bytes = 4 * width;
    for y0 in (0..height).step_by(BAND_ROWS) {
        let y1 = (y0 + BAND_ROWS).min(height);
        // The band's pixels and the row above it: what its bytes depend on.
        let context = usize::from(y0 > 0);
        let key = rgba
            .get((y0 - context) * row_bytes..y1 * row_bytes)
            .unwrap_or_default();
        let band = match band_cached(width, y0, key) {
            Some(band) => band,
            // Only opaque bands are compressed and cached: a hit is opaque too.
            None if key.chunks_exact(4).fold(255, |all, p| all & p[3]) == 255 => {
                let band = compress_band(key, width, context);
                store_band(width, y0, key, &band);
                band
            }
            None => return None,
        };
        out.extend_from_slice(&band.deflate);
        adler = adler32_combine(adler, band.adler, (y1 - y0) * stride);
    }
    // The last block: empty, final, fixed Huffman (BFINAL 1, BTYPE 01, end-of-block code 0000000).
    out.extend_from_slice(&[0x03, 0x00]);
    out.extend_from_slice(&adler.to_be_bytes());
    Some(out)
}

/// One band's DEFLATE blocks (ending byte-aligned, never final) and the Adler-32 of its rows.
#[derive(Clone)]
struct Band {
    deflate: Vec<u8>,
    adler: u32,
}

/// `rgba`: the band's rows, after `context` (0 or 1) rows above it.
fn compress_band(rgba: &[u8], width: usize, context: usize) -> Band {
    let stride = 1 + 3 * width;
    let rows = rgba.len() / (4 * width).max(1);
    let mut raw = vec![0u8; rows * stride];
    for (dest, src) in raw
        .chunks_exact_mut(stride)
        .zip(rgba.chunks_exact(4 * width))
    {
        // Byte 0: filter type None; then the pixels' RGB bytes (premultiplied = straight colour
        // when alpha is 255).
        for (d, s) in dest[1..].chunks_exact_mut(3).zip(src.chunks_exact(4)) {
            d.copy_from_slice(&s[..3]);
        }
    }
    let start = context * stride;
    let mut out = Bits::with_capacity((raw.len() - start) / 8 + 16);
    out.put(0b010, 3); // BFINAL = 0, BTYPE = 01 (fixed Huffman)
    deflate_fixed(&raw, start, stride, &mut out);
    out.code(256); // end of block
                   // Sync flush: an empty stored block (BFINAL 0, BTYPE 00), padded to a byte, LEN 0, NLEN !0.
    out.put(0, 3);
    out.flush_to_byte();
    out.bytes(&[0x00, 0x00, 0xff, 0xff]);
    Band {
        deflate: out.buf,
        adler: adler32(raw.get(start..).unwrap_or_default()),
    }
}

/// Compressed bands per picture width and first row, most recently used first, keyed by their
/// pixels (compared whole: no hash to collide).
static BAND_CACHE: Mutex<BandCache> = Mutex::new(BandCache {
    bands: BTreeMap::new(),
    bytes: 0,
});
/// Bands kept per position (several games and readers on one board), and bytes in all.
const BAND_VARIANTS: usize = 16;
const BAND_BYTES: usize = 24 << 20;

/// Per (picture width, first row): (pixels with the row above, compressed band), newest first.
type Variants = Vec<(Vec<u8>, Band)>;

struct BandCache {
    bands: BTreeMap<(usize, usize), Variants>,
    bytes: usize,
}

fn band_cached(width: usize, y0: usize, key: &[u8]) -> Option<Band> {
    let mut cache = BAND_CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let variants = cache.bands.get_mut(&(width, y0))?;
    let i = variants.iter().position(|(k, _)| k == key)?;
    let entry = variants.remove(i);
    let band = entry.1.clone();
    variants.insert(0, entry);
    Some(band)
}

fn store_band(width: usize, y0: usize, key: &[u8], band: &Band) {
    let mut guard = BAND_CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let cache = &mut *guard;
    let variants = cache.bands.entry((width, y0)).or_default();
    if variants.iter().any(|(k, _)| k == key) {
        return; // another thread stored it meanwhile
    }
    cache.bytes += key.len() + band.deflate.len();
    variants.insert(0, (key.to_vec(), band.clone()));
    let size = |(k, b): &(Vec<u8>, Band)| k.len() + b.deflate.len();
    if variants.len() > BAND_VARIANTS {
        if let Some(old) = variants.pop() {
            cache.bytes -= size(&old);
        }
    }
    // Over the budget: the least recent variant of each position goes, in turn.
    while cache.bytes > BAND_BYTES {
        let mut freed = 0;
        for variants in cache.bands.values_mut() {
            if variants.len() > 1 {
                if let Some(old) = variants.pop() {
                    freed += size(&old);
                }
            }
        }
        cache.bytes -= freed;
        if freed == 0 {
            break;
        }
    }
}

/// Empties the band cache (tests: a miss and a hit give the same bytes).
pub(super) fn clear_cache() {
    let mut cache = BAND_CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache.bands.clear();
    cache.bytes = 0;
}

/// Adler-32 of A followed by B, from Adler-32 of A, of B, and the length of B (zlib's
/// adler32_combine).
fn adler32_combine(a: u32, b: u32, len_b: usize) -> u32 {
    const MOD: u64 = 65521;
    let rem = len_b as u64 % MOD;
    let (a1, b1) = ((a & 0xffff) as u64, (a >> 16) as u64);
    let (a2, b2) = ((b & 0xffff) as u64, (b >> 16) as u64);
    let sum1 = (a1 + a2 + MOD - 1) % MOD;
    let sum2 = (b1 + b2 + rem * a1 + MOD - rem) % MOD;
    ((sum2 as u32) << 16) | sum1 as u32
}

/// Fixed-Huffman symbols for `raw[start..]`; matches may reach back before `start`.
fn deflate_fixed(raw: &[u8], start: usize, stride: usize, out: &mut Bits) {
    // The row above first: on a board most rows repeat the one above, whole. Then one square to
    // the left: the terrain dots, grid and entry zones repeat square by square along a row
    // (issue 16 item 7: it keeps the larger picture small).
    let square = 3 * super::SQUARE_PX as usize;
    let candidates: [usize; 5] = [stride, 3, stride.saturating_sub(3), stride + 3, square];
    let n = raw.len();
    let mut i = start;
    // The first three bytes at `j` (a match is at least three long).
    let head = |j: usize| match raw.get(j..j + 3) {
        Some(b) => u32::from_le_bytes([b[0], b[1], b[2], 0]),
        None => u32::MAX,
    };
    while i < n {
        let max = MAX_MATCH.min(n - i);
        let mut best_len = 0;
        let mut best_dist = 0;
        let here = head(i);
        for &d in &candidates {
            if d == 0 || d > i || d > 32768 || max < 3 || head(i - d) != here {
                continue;
            }
            // Only a match longer than the best so far counts: check its last byte first.
            if best_len > 0 && (best_len >= max || raw[i - d + best_len] != raw[i + best_len]) {
                continue;
            }
            let len = match_len(&raw[i - d..i - d + max], &raw[i..i + max]);
            if len > best_len {
                best_len = len;
                best_dist = d;
                if len == max {
                    break;
                }
            }
        }
        if best_len >= 3 {
            out.length(best_len);
            out.distance(best_dist);
            i += best_len;
        } else {
            out.literal(raw[i]);
            i += 1;
        }
    }
}

const MAX_MATCH: usize = 258;

/// How many leading bytes `a` and `b` (equally long) have in common. `a` may overlap `b` (it
/// starts earlier in the same data): DEFLATE copies byte by byte, so that is a valid match.
fn match_len(a: &[u8], b: &[u8]) -> usize {
    let mut len = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let x = u64::from_le_bytes([x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]]);
        let y = u64::from_le_bytes([y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7]]);
        let diff = x ^ y;
        if diff != 0 {
            return len + (diff.trailing_zeros() / 8) as usize;
        }
        len += 8;
    }
    len + a[len..]
        .iter()
        .zip(&b[len..])
        .take_while(|(x, y)| x == y)
        .count()
}

/// Adler-32 of `data` (RFC 1950), 16 lanes at a time so the compiler can vectorise it.
pub(super) fn adler32(data: &[u8]) -> u32 {
    const MOD: u64 = 65521;
    // The largest chunk whose sums cannot overflow (zlib's NMAX), a multiple of 16.
    const CHUNK: usize = 5552;
    let (mut a, mut b) = (1u64, 0u64);
    for chunk in data.chunks(CHUNK) {
        let blocks = chunk.chunks_exact(16);
        let tail = blocks.remainder();
        let mut s1 = [0u32; 16];
        let mut s2 = [0u32; 16];
        let mut nblocks = 0u64;
        for block in blocks {
            let block: [u8; 16] = block.try_into().unwrap_or([0; 16]);
            let x: [u32; 16] = block.map(u32::from);
            s2 = std::array::from_fn(|j| s2[j] + s1[j]);
            s1 = std::array::from_fn(|j| s1[j] + x[j]);
            nblocks += 1;
        }
        // A block's byte adds to `a` once; to `b` once per byte from it to the chunk's end.
        let len = nblocks * 16;
        let sum1: u64 = s1.iter().map(|&v| v as u64).sum();
        let sum2: u64 = 16 * s2.iter().map(|&v| v as u64).sum::<u64>()
            + s1.iter()
                .enumerate()
                .map(|(j, &v)| (16 - j as u64) * v as u64)
                .sum::<u64>();
        b = (b + len * a + sum2) % MOD;
        a = (a + sum1) % MOD;
        for &x in tail {
            a = (a + x as u64) % MOD;
            b = (b + a) % MOD;
        }
    }
    ((b as u32) << 16) | a as u32
}

/// LSB-first bit writer.
struct Bits {
    buf: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    fn with_capacity(cap: usize) -> Bits {
        Bits {
            buf: Vec::with_capacity(cap),
            acc: 0,
            n: 0,
        }
    }

    fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// `len` (<= 32) low bits of `v`, least significant first.
    fn put(&mut self, v: u32, len: u32) {
        self.acc |= (v as u64) << self.n;
        self.n += len;
        if self.n >= 32 {
            self.buf.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.n -= 32;
        }
    }

    fn flush_to_byte(&mut self) {
        while self.n > 0 {
            self.buf.push(self.acc as u8);
            self.acc >>= 8;
            self.n = self.n.saturating_sub(8);
        }
        self.acc = 0;
    }

    /// A literal/length symbol in the fixed code (Huffman codes go most significant bit first).
    fn code(&mut self, sym: u32) {
        let (code, len) = FIXED[sym as usize % 288];
        self.put(code as u32, len as u32);
    }

    fn literal(&mut self, byte: u8) {
        self.code(byte as u32);
    }

    /// Length 3..=258 (RFC 1951 3.2.5).
    fn length(&mut self, len: usize) {
        let len = len as u32;
        if len == 258 {
            self.code(285);
            return;
        }
        let (mut base, mut sym) = (3u32, 257u32);
        // Codes 257..=264 have no extra bits, then four codes per extra-bit count.
        if len < 11 {
            self.code(sym + len - base);
            return;
        }
        base = 11;
        sym = 265;
        let mut extra = 1;
        loop {
            let span = 4 << extra;
            if len < base + span {
                let step = 1 << extra;
                let k = (len - base) / step;
                self.code(sym + k);
                self.put(len - base - k * step, extra);
                return;
            }
            base += span;
            sym += 4;
            extra += 1;
        }
    }

    /// Distance 1..=32768: fixed 5-bit codes.
    fn distance(&mut self, dist: usize) {
        let dist = dist as u32;
        if dist <= 4 {
            self.put(reverse(dist - 1, 5), 5);
            return;
        }
        let (mut base, mut code, mut extra) = (5u32, 4u32, 1u32);
        loop {
            let span = 2 << extra;
            if dist < base + span {
                let step = 1 << extra;
                let k = (dist - base) / step;
                self.put(reverse(code + k, 5), 5);
                self.put(dist - base - k * step, extra);
                return;
            }
            base += span;
            code += 2;
            extra += 1;
        }
    }
}

/// The fixed literal/length code (RFC 1951 3.2.6), bit-reversed for the LSB-first writer, and
/// its length.
const FIXED: [(u16, u8); 288] = {
    let mut table = [(0u16, 0u8); 288];
    let mut sym = 0;
    while sym < 288 {
        let s = sym as u32;
        let (code, len) = match s {
            0..=143 => (0x30 + s, 8),
            144..=255 => (0x190 + s - 144, 9),
            256..=279 => (s - 256, 7),
            _ => (0xc0 + s - 280, 8),
        };
        table[sym] = ((code.reverse_bits() >> (32 - len)) as u16, len as u8);
        sym += 1;
    }
    table
};

fn reverse(code: u32, len: u32) -> u32 {
    code.reverse_bits() >> (32 - len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adler32_known_values_and_combination() {
        assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
        assert_eq!(adler32(b""), 1);
        let data: Vec<u8> = (0..20_000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        // Direct sum, byte by byte, as RFC 1950 defines it.
        let (mut a, mut b) = (1u32, 0u32);
        for &x in &data {
            a = (a + x as u32) % 65521;
            b = (b + a) % 65521;
        }
        assert_eq!(adler32(&data), (b << 16) | a);
        for cut in [0, 1, 15, 16, 5552, 5553, 19_999, 20_000] {
            let (x, y) = data.split_at(cut);
            assert_eq!(
                adler32_combine(adler32(x), adler32(y), y.len()),
                adler32(&data)
            );
        }
    }
}
