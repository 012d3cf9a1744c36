//! The board picture (`picture::png`) of the skirmish board in mid-game (340×438 px: four
//! counters, a move, a hit and a miss, a wreck, damaged cover), in ms per picture and bytes:
//! before (the whole SVG drawn in one pass, demultiplied, png `Fast`) and after (static layer
//! cached, RGB copied as is), cold (cache miss) and warm; then the cost of each part and the PNG
//! filter/DEFLATE settings side by side. DUSTMAIL_BENCH_PICTURES (default 200) pictures a line.

mod common;

use common::{median, time};
use dustmail::dust_tactics::model::{CoverKind, Square, UnitType};
use dustmail::picture::{self, FireLine, Picture, UnitMarker};
use resvg::tiny_skia::Pixmap;
use std::time::Duration;

fn skirmish() -> Picture {
    let builtin = dustmail::dust_tactics::scenario::builtin();
    let (_, text) = builtin.iter().find(|(n, _)| *n == "skirmish").unwrap();
    let scenario = dustmail::dust_tactics::scenario::parse("skirmish", text).unwrap();
    let mut board = scenario.board.clone();
    let plain = board.clone();
    let sq = |s: &str| -> Square { plain.parse_square(s).unwrap() };
    let (b4, e3) = (sq("B4"), sq("E3"));
    if let Some(c) = board.cover.get_mut(&b4) {
        c.damage = 1;
    }
    assert!(board.cover.get(&e3).map(|c| c.kind) == Some(CoverKind::AmmoCrate));
    let mut pic = Picture::new(board.clone());
    pic.sides = vec!["allies".into(), "axis".into()];
    pic.ours = Some("allies".into());
    let unit = |at: &str, side: &str, label: &str, t: UnitType, left: u8, max: u8| UnitMarker {
        square: sq(at),
        side: side.into(),
        label: label.into(),
        unit_type: t,
        left,
        max,
        activated: false,
        joined_hero: false,
    };
    let mut rangers = unit("B5", "allies", "rangers", UnitType::Squad, 4, 5);
    rangers.activated = true;
    rangers.joined_hero = true;
    pic.units = vec![
        rangers,
        unit("E6", "allies", "pounder", UnitType::Vehicle, 5, 6),
        unit("C2", "axis", "grenadiers", UnitType::Squad, 3, 5),
        unit("F1", "axis", "ludwig", UnitType::Vehicle, 7, 7),
    ];
    pic.path = ["B6", "B5"].iter().map(|s| sq(s)).collect();
    pic.fire = vec![
        FireLine {
            from: sq("B5"),
            to: sq("C2"),
            hit: true,
        },
        FireLine {
            from: sq("E6"),
            to: sq("F1"),
            hit: false,
        },
    ];
    pic.destroyed = vec![sq("D3")];
    pic
}

/// The encoder before this bench's change: every pixel demultiplied, png `Compression::Fast`.
fn encode_before(pixmap: &Pixmap) -> Vec<u8> {
    let mut data = Vec::with_capacity(pixmap.pixels().len() * 3);
    for p in pixmap.pixels() {
        let c = p.demultiply();
        data.extend_from_slice(&[c.red(), c.green(), c.blue()]);
    }
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    let mut w = enc.write_header().unwrap();
    w.write_image_data(&data).unwrap();
    w.finish().unwrap();
    out
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Median over `n` runs of `f`, and the last result.
fn measure<T>(n: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::with_capacity(n);
    let mut last = None;
    for _ in 0..n {
        let (r, d) = time(&mut f);
        times.push(d);
        last = Some(r);
    }
    (median(times), last.unwrap())
}

fn main() {
    if !common::under_cargo_bench("picture") {
        return;
    }
    let n = common::env_num("DUSTMAIL_BENCH_PICTURES", 200);
    let pic = skirmish();
    let (w, h) = picture::size(&pic);
    println!("picture: skirmish board {w}x{h} px, median of {n} pictures a line");

    // The very first picture of the process (fonts loaded, cache empty), once.
    let (first, d) = time(|| picture::png(&pic).unwrap());
    println!("  first picture of the process   {:7.3} ms", ms(d));

    // Before, cold and warm in turn, so that a busy neighbour on a shared machine weighs on
    // all three alike.
    let (mut t_before, mut t_cold, mut t_warm) = (Vec::new(), Vec::new(), Vec::new());
    let (mut before, mut cold, mut warm) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n {
        let (bytes, d) = time(|| encode_before(&picture::pixels_single_pass(&pic).unwrap()));
        before = bytes;
        t_before.push(d);
        picture::clear_static_cache();
        let (bytes, d) = time(|| picture::png(&pic).unwrap());
        cold = bytes;
        t_cold.push(d);
        let (bytes, d) = time(|| picture::png(&pic).unwrap());
        warm = bytes;
        t_warm.push(d);
    }
    for (name, times, bytes) in [
        ("before: one pass + old encode ", t_before, &before),
        ("after, cold (cache miss)      ", t_cold, &cold),
        ("after, warm (cache hit)       ", t_warm, &warm),
    ] {
        println!(
            "  {name} {:7.3} ms  {:6} bytes",
            ms(median(times)),
            bytes.len()
        );
    }
    assert_eq!(cold, warm, "a cache hit and a miss give the same bytes");
    // A new legend on a board already drawn (another recipient's "(you)", a step that shows
    // other things): the static layer hits, the legend's rows miss.
    let renamed: Vec<Picture> = (0..n)
        .map(|i| {
            let mut p = pic.clone();
            p.ours = Some(format!("a{i}"));
            p.sides[0] = format!("a{i}");
            for u in p.units.iter_mut().filter(|u| u.side == "allies") {
                u.side = format!("a{i}");
            }
            p
        })
        .collect();
    let mut times = Vec::new();
    for p in &renamed {
        times.push(time(|| picture::png(p).unwrap()).1);
    }
    println!(
        "  after, new legend (board hit)  {:7.3} ms",
        ms(median(times))
    );
    assert_eq!(first, warm);

    // The parts.
    let (d, single) = measure(n, || picture::pixels_single_pass(&pic).unwrap());
    println!("  parts: single-pass draw        {:7.3} ms", ms(d));
    let (d, _) = measure(n, || {
        picture::clear_static_cache();
        picture::pixels(&pic).unwrap()
    });
    println!("         two-pass draw, cold     {:7.3} ms", ms(d));
    let (d, two) = measure(n, || picture::pixels(&pic).unwrap());
    println!("         two-pass draw, warm     {:7.3} ms", ms(d));
    assert_eq!(single.data(), two.data(), "two passes draw the same pixels");
    let (d, _) = measure(n, || encode_before(&two));
    println!("         old encode              {:7.3} ms", ms(d));
    let (d, _) = measure(n, || picture::encode_png(&two).unwrap());
    println!("         new encode              {:7.3} ms", ms(d));

    // PNG settings on the same pixels.
    println!("  PNG settings (encode only):");
    use png::{DeflateCompression as D, Filter as F};
    let deflates = [
        ("none", D::NoCompression),
        ("fdeflate", D::FdeflateUltraFast),
        ("zlib-1", D::Level(1)),
        ("zlib-2", D::Level(2)),
        ("zlib-3", D::Level(3)),
        ("zlib-6", D::Level(6)),
    ];
    let filters = [
        ("none", F::NoFilter),
        ("sub", F::Sub),
        ("up", F::Up),
        ("avg", F::Avg),
        ("paeth", F::Paeth),
        ("adaptive", F::Adaptive),
        ("min-entropy", F::MinEntropy),
    ];
    for (dn, deflate) in deflates {
        for (fname, filter) in filters {
            if matches!(deflate, D::NoCompression) && fname != "none" {
                continue; // NoCompression forces NoFilter
            }
            let (d, bytes) = measure(n / 4 + 1, || {
                picture::encode_png_with(&two, filter, deflate).unwrap()
            });
            println!(
                "    {dn:9} {fname:12} {:7.3} ms  {:6} bytes",
                ms(d),
                bytes.len()
            );
        }
    }
    println!("  peak memory {:.1} MiB", common::peak_mib());
}
