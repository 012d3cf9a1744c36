//! The fonts every game's pictures are drawn with: embedded in the binary and never the system's,
//! so a picture is the same bytes on every machine (assets/fonts/README.md says what they hold).

use std::sync::{Arc, OnceLock};

/// The family every text element of a picture names; the renderer knows only this one.
pub const FONT: &str = "DejaVu Sans";
/// Characters the embedded fonts have besides printable ASCII.
pub const FONT_EXTRA: &[char] = &['·', '×', '–', '—', '•', '…'];
const FONT_REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");
const FONT_BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold-subset.ttf");

/// The font database with only the embedded fonts, loaded once.
pub fn fonts() -> Arc<resvg::usvg::fontdb::Database> {
    static DB: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(FONT_REGULAR.to_vec());
        db.load_font_data(FONT_BOLD.to_vec());
        Arc::new(db)
    })
    .clone()
}
