//! A zlib stream for the board picture's PNG rows, made for flat-colour drawings: one DEFLATE
//! block with the fixed Huffman code, whose matches are only "the pixel before" (distance 3),
//! "the same bytes one row up" (distance `stride`) and the two diagonals next to it. A board is
//! mostly runs of one colour and rows equal to the row above, which these find in a few u64
//! comparisons per 258 bytes; everything else (anti-aliased edges, text) goes out as literals.
//! Deterministic: the output is a function of the input bytes and `stride` alone.

/// The zlib stream (RFC 1950/1951) of `raw`, whose rows are `stride` bytes long.
pub(super) fn compress(raw: &[u8], stride: usize) -> Vec<u8> {
    let mut out = Bits::with_capacity(raw.len() / 8 + 64);
    // CMF 0x78 (deflate, 32 KiB window), FLG 0x01 (fastest; header % 31 == 0).
    out.bytes(&[0x78, 0x01]);
    out.put(0b011, 3); // BFINAL = 1, BTYPE = 01 (fixed Huffman)
                       // The row above first: on a board most rows repeat the one above, whole.
    let candidates: [usize; 4] = [stride, 3, stride.saturating_sub(3), stride + 3];
    let n = raw.len();
    let mut i = 0;
    while i < n {
        let max = MAX_MATCH.min(n - i);
        let mut best_len = 0;
        let mut best_dist = 0;
        for &d in &candidates {
            if d == 0 || d > i || d > 32768 {
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
    out.code(256); // end of block
    out.flush_to_byte();
    out.bytes(&adler32(raw).to_be_bytes());
    out.buf
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
            let block: &[u8; 16] = block.try_into().unwrap_or(&[0; 16]);
            for j in 0..16 {
                s2[j] += s1[j];
                s1[j] += block[j] as u32;
            }
            nblocks += 1;
        }
        // Every byte of a block adds to `a`; to `b` it adds once per following byte and itself.
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
        let (code, len) = match sym {
            0..=143 => (0x30 + sym, 8),
            144..=255 => (0x190 + sym - 144, 9),
            256..=279 => (sym - 256, 7),
            _ => (0xc0 + sym - 280, 8),
        };
        self.put(reverse(code, len), len);
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

fn reverse(code: u32, len: u32) -> u32 {
    code.reverse_bits() >> (32 - len)
}
