//! The board picture (`picture::png`) of the skirmish board in mid-game (340×504 px: four
//! counters, a move, a hit and a miss, a wreck, damaged cover), in ms per picture and bytes:
//! before (the whole SVG drawn in one pass, PNG by png's zlib level 1, as the caches' misses did
//! before round 2) and now: cold (every cache empty), warm (the same picture again), a game's
//! next steps (a unit moves and fires each step, drawn for both readers) and a new legend; then
//! the cost of each part and the PNG settings side by side. DUSTMAIL_BENCH_PICTURES (default
//! 200) pictures a line.

mod common;

use common::{median, time};
use dustmail::dust_tactics::model::{CoverKind, Square, UnitType};
use dustmail::dust_tactics::picture::{self, FireLine, Picture, UnitMarker};
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
        large: false,
        rear: None,
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
            label: String::new(),
        },
        FireLine {
            from: sq("E6"),
            to: sq("F1"),
            hit: false,
            label: String::new(),
        },
    ];
    pic.destroyed = vec![sq("D3")];
    pic
}

/// The encoder before round 2: png 0.18, zlib level 1, no row filter, RGB.
fn encode_before(pixmap: &Pixmap) -> Vec<u8> {
    picture::encode_png_with(
        pixmap,
        png::Filter::NoFilter,
        png::DeflateCompression::Level(1),
    )
    .unwrap()
}

/// Step `i` (< 12) of a game on `pic`'s board as reader `reader` (0 or 1) sees it: the rangers
/// walk to a square they have not stood on yet and shoot at the grenadiers (hit on even steps),
/// the pounder fires at ludwig; the grenadiers' models change.
fn step(pic: &Picture, i: usize, reader: usize) -> Picture {
    let mut p = pic.clone();
    let sq = |s: &str| -> Square { p.board.parse_square(s).unwrap() };
    let walk = [
        "B5", "B6", "C6", "C5", "C4", "B4", "A4", "A5", "A6", "A3", "B3", "C3", "D4",
    ];
    let (from, to) = (walk[i % walk.len()], walk[(i + 1) % walk.len()]);
    p.path = vec![sq(from), sq(to)];
    p.fire = vec![
        FireLine {
            from: sq(to),
            to: sq("C2"),
            hit: i.is_multiple_of(2),
            label: String::new(),
        },
        FireLine {
            from: sq("E6"),
            to: sq("F1"),
            hit: i.is_multiple_of(3),
            label: String::new(),
        },
    ];
    p.destroyed.clear();
    p.units[0].square = sq(to);
    p.units[2].left = 1 + (i % 5) as u8;
    p.ours = Some(["allies", "axis"][reader].into());
    p
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

    // The very first picture of the process (fonts loaded, caches empty), once.
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
        ("before: one pass + zlib 1     ", t_before, &before),
        ("now, cold (caches empty)      ", t_cold, &cold),
        ("now, warm (same picture again)", t_warm, &warm),
    ] {
        println!(
            "  {name} {:7.3} ms  {:6} bytes",
            ms(median(times)),
            bytes.len()
        );
    }
    assert_eq!(cold, warm, "a cache hit and a miss give the same bytes");
    assert_eq!(first, warm);

    // A game going on: each step a unit moves to a new square and the lines of fire change;
    // both readers get a picture (their legends differ). The caches hold the earlier steps. The
    // mean, as a mail run pays it (the first reader's picture misses where the board changed,
    // the second's hits).
    let steps: Vec<Picture> = (0..12)
        .flat_map(|i| [step(&pic, i, 0), step(&pic, i, 1)])
        .collect();
    let mut sizes = Vec::new();
    let mean = |times: &[Duration]| times.iter().sum::<Duration>() / times.len() as u32;
    let mut times = Vec::new();
    for p in &steps {
        let (bytes, d) = time(|| picture::png(p).unwrap());
        times.push(d);
        sizes.push(bytes.len());
    }
    sizes.sort();
    println!(
        "  now, a game's next 12 steps    {:7.3} ms  {:6} bytes (mean and median size, 2 readers)",
        ms(mean(&times)),
        sizes[sizes.len() / 2]
    );
    let mut times = Vec::new();
    for p in &steps {
        times.push(time(|| encode_before(&picture::pixels_single_pass(p).unwrap())).1);
    }
    println!(
        "  before, the same steps         {:7.3} ms",
        ms(mean(&times))
    );
    // Determinism: the steps drawn again from full caches, and from empty ones, are the same.
    for p in steps.iter().take(6) {
        let hit = picture::png(p).unwrap();
        picture::clear_static_cache();
        assert_eq!(hit, picture::png(p).unwrap());
    }

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
        "  now, new legend (board hit)    {:7.3} ms",
        ms(median(times))
    );

    // The parts.
    let (d, single) = measure(n, || picture::pixels_single_pass(&pic).unwrap());
    println!("  parts: single-pass draw        {:7.3} ms", ms(d));
    let (d, _) = measure(n, || {
        picture::clear_static_cache();
        picture::pixels(&pic).unwrap()
    });
    println!("         layered draw, cold      {:7.3} ms", ms(d));
    let (d, two) = measure(n, || picture::pixels(&pic).unwrap());
    println!("         layered draw, warm      {:7.3} ms", ms(d));
    assert_eq!(single.data(), two.data(), "the layers draw the same pixels");
    let (d, _) = measure(n, || encode_before(&two));
    println!("         encode before (zlib 1)  {:7.3} ms", ms(d));
    let (d, _) = measure(n, || {
        picture::clear_static_cache();
        picture::encode_png(&two).unwrap()
    });
    println!("         encode now, bands miss  {:7.3} ms", ms(d));
    let (d, _) = measure(n, || picture::encode_png(&two).unwrap());
    println!("         encode now, bands hit   {:7.3} ms", ms(d));

    // PNG settings on the same pixels.
    println!("  PNG settings (encode only):");
    picture::clear_static_cache();
    let ours = picture::encode_png(&two).unwrap();
    println!(
        "    own matcher, no filter (chosen)        {:6} bytes",
        ours.len()
    );
    use png::{DeflateCompression as D, Filter as F};
    let deflates = [
        ("fdeflate", D::FdeflateUltraFast),
        ("zlib-1", D::Level(1)),
        ("zlib-2", D::Level(2)),
    ];
    let filters = [
        ("none", F::NoFilter),
        ("up", F::Up),
        ("paeth", F::Paeth),
        ("adaptive", F::Adaptive),
    ];
    for (dn, deflate) in deflates {
        for (fname, filter) in filters {
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
