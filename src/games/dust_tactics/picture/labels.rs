//! What each counter says (issue 16 item 5: full unit names, never a cut-off "range…"): the id
//! whole when it fits the counter, else a short abbreviation that the legend spells out.

use super::Picture;

/// The longest id written whole on a counter: 7 letters of DejaVu Sans Bold at 9 px are at most
/// ~45 px, inside the 48 px counter.
pub(super) const WHOLE_CHARS: usize = 7;

/// The text on each counter of `pic.units`, in order, and whether it is an abbreviation (then the
/// legend has an entry "abbreviation = id"). Abbreviations are the id's first three letters,
/// made unique against every other label of the picture with a digit.
pub(super) fn counter_labels(pic: &Picture) -> Vec<(String, bool)> {
    let whole: Vec<&str> = pic
        .units
        .iter()
        .map(|u| u.label.as_str())
        .filter(|l| l.chars().count() <= WHOLE_CHARS)
        .collect();
    let mut taken: Vec<String> = whole.iter().map(|l| l.to_string()).collect();
    let mut out = Vec::with_capacity(pic.units.len());
    for u in &pic.units {
        if u.label.chars().count() <= WHOLE_CHARS {
            out.push((u.label.clone(), false));
            continue;
        }
        // The same long id twice (two counters of one unit never happen) keeps one abbreviation.
        let same = pic
            .units
            .iter()
            .zip(out.iter())
            .find(|(v, _)| v.label == u.label)
            .map(|(_, (s, _))| s.clone());
        if let Some(s) = same {
            out.push((s, true));
            continue;
        }
        let head: String = u.label.chars().take(3).collect();
        let mut short = head.clone();
        let mut n = 2u32;
        while taken.contains(&short) {
            short = format!("{}{n}", u.label.chars().take(2).collect::<String>());
            n += 1;
        }
        taken.push(short.clone());
        out.push((short, true));
    }
    out
}

/// The font size of a counter's label of `chars` characters.
pub(super) fn label_size(chars: usize) -> u32 {
    // Sizes measured so the text stays inside the 48 px counter in DejaVu Sans Bold.
    match chars {
        0..=3 => 14,
        4 => 13,
        5 => 11,
        6 => 10,
        _ => 9,
    }
}
