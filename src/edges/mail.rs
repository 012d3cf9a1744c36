//! Intake: a raw mail → sender, threading headers and the signed blocks it carries.
//!
//! Where blocks are looked for (DESIGN §4): every text body (text/plain; HTML-only bodies are
//! converted to text by [`html_to_text`], which keeps line breaks of `<br>`, `<p>`, `<div>` and
//! `<pre>` and turns `<blockquote>` quotes into `> ` lines), and every attachment that is
//! text/plain or named `*.txt` / `*.asc`. Transfer encodings (quoted-printable, base64, and
//! with them quoted-printable soft line breaks) and charsets (latin-1, UTF-16, …) are decoded by
//! mail-parser first; a text/plain part sent `format=flowed` (RFC 3676: Thunderbird, Apple Mail)
//! is then unwrapped by [`unflow`], so a long signed line a client soft-wrapped still verifies.
//!
//! A block is an ORDERS marker line, the signed lines, the END ORDERS marker, optional blank
//! lines, then SIGNATURE … END SIGNATURE (the base64 may be wrapped over several lines). Marker
//! lines may carry surrounding whitespace; a marker on a quoted line (`> -----BEGIN…`) is not a
//! marker, so blocks inside quoted replies are ignored.

use crate::crypto::{canonical_text, ORDERS_BEGIN, ORDERS_END, SIG_BEGIN, SIG_END};
use crate::edges::sshsig::{SSH_SIG_BEGIN, SSH_SIG_END};
use crate::game::Line;
use mail_parser::{MessageParser, MimeHeaders, PartType};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::collections::BTreeSet;

/// The longest `game:`, `side:` or `seq:` value (a game id is at most 64 characters).
pub const MAX_HEADER_VALUE: usize = 64;

/// At most this many signed blocks are kept from one mail.
pub const MAX_BLOCKS: usize = 20;

pub use crate::pbem::block::{BlockBody, Incoming, MailError, RawBlock};

/// Parses a raw mail. `own_address` is the referee's (never answered); mails over `max_bytes`
/// are refused.
pub fn parse_mail(raw: &[u8], own_address: &str, max_bytes: usize) -> Result<Incoming, MailError> {
    if raw.len() > max_bytes {
        return Err(MailError(format!(
            "the mail is {} bytes, over the limit of {max_bytes} bytes: send the orders as \
             plain text without large attachments",
            raw.len()
        )));
    }
    let sha256 = hex::encode(Sha256::digest(raw));
    // The parser is a dependency: should it ever panic on some mail, that mail is refused and
    // the run goes on (nothing that arrives by mail may stop a run).
    let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        MessageParser::default().parse(raw)
    }))
    .map_err(|_| {
        MailError("this mail could not be read (its MIME structure is broken): send the orders again as plain text".into())
    })?;
    let msg = parsed.ok_or_else(|| {
        MailError("this is not a readable mail message (no headers could be parsed)".into())
    })?;

    let from_addr = msg.from().and_then(|a| a.first());
    let from = from_addr.and_then(|a| a.address.as_deref());
    // A Reply-To header, when present, is the only place replies may go: if it is unusable we
    // do not fall back to From (a forged From must not receive what Reply-To refused).
    let reply_to = if msg.header_raw("Reply-To").is_some() {
        msg.reply_to()
            .and_then(|a| a.first())
            .and_then(usable_address)
    } else {
        from_addr.and_then(usable_address)
    };
    let no_reply = no_reply_reason(&msg, from, reply_to.as_deref(), own_address);
    let subject = msg
        .subject()
        .unwrap_or("")
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string();
    // An over-long or malformed Message-ID is dropped: replies then carry no In-Reply-To.
    let message_id = msg.message_id().and_then(crate::intake::sane_message_id);

    let mut found = Found::default();
    let mut seen = BTreeSet::new();
    let scan_parts = |ids: &[u32], found: &mut Found, seen: &mut BTreeSet<u32>| {
        for &id in ids {
            if !seen.insert(id) {
                continue;
            }
            let Some(part) = msg.parts.get(id as usize) else {
                continue;
            };
            match &part.body {
                PartType::Text(t) => found.scan(&plain_text(part, t)),
                PartType::Html(h) => found.scan(&html_to_text(h)),
                _ => {}
            }
        }
    };
    scan_parts(&msg.text_body, &mut found, &mut seen);
    // The HTML half of a multipart/alternative, when the text half holds no block (a client
    // may put the block only there): read only then, so a block present in both halves (the
    // HTML one possibly reflowed) is counted once.
    if found.blocks.is_empty() {
        let mut html = Found::default();
        scan_parts(&msg.html_body, &mut html, &mut seen.clone());
        if !html.blocks.is_empty() {
            found = html;
        }
        seen.extend(msg.html_body.iter().copied());
    }
    for &id in &msg.attachments {
        if !seen.insert(id) {
            continue;
        }
        let Some(part) = msg.parts.get(id as usize) else {
            continue;
        };
        let name = part.attachment_name().unwrap_or("").to_ascii_lowercase();
        let named_text = name.ends_with(".txt") || name.ends_with(".asc");
        let plain = part.content_type().is_some_and(|ct| {
            ct.ctype().eq_ignore_ascii_case("text")
                && ct
                    .subtype()
                    .is_some_and(|s| s.eq_ignore_ascii_case("plain"))
        });
        match &part.body {
            PartType::Text(t) if plain || named_text => found.scan(&plain_text(part, t)),
            PartType::Binary(b) | PartType::InlineBinary(b) if named_text => {
                found.scan(&decode_text_bytes(b))
            }
            _ => {}
        }
    }
    if found.blocks.len() > MAX_BLOCKS {
        return Err(MailError(format!(
            "the mail carries more than {MAX_BLOCKS} signed blocks, over the limit of \
             {MAX_BLOCKS} per mail: send fewer blocks per mail"
        )));
    }
    Ok(Incoming {
        message_id,
        reply_to,
        subject,
        no_reply,
        blocks: found.blocks,
        sha256,
        problems: found.problems,
    })
}

/// A text part's text, unwrapped by [`unflow`] when its Content-Type says `format=flowed`.
fn plain_text<'a>(part: &mail_parser::MessagePart<'_>, text: &'a str) -> Cow<'a, str> {
    let attr = |name: &str| {
        part.content_type()
            .and_then(|ct| ct.attributes())
            .and_then(|attrs| attrs.iter().find(|a| a.name.eq_ignore_ascii_case(name)))
            .is_some_and(|a| {
                let v: &str = a.value.as_ref();
                let want = if name == "format" { "flowed" } else { "yes" };
                v.trim().eq_ignore_ascii_case(want)
            })
    };
    if attr("format") {
        Cow::Owned(unflow(text, attr("delsp")))
    } else {
        Cow::Borrowed(text)
    }
}

/// Undoes RFC 3676 `format=flowed`: a line ending in a space is soft-wrapped and joins the next
/// line of the same quote depth (its trailing space dropped too when `del_sp`, for `DelSp=yes`);
/// one leading space after the quote marks is space-stuffing and is removed; the signature
/// separator `-- ` is never flowed. Quoted lines come out as `>… ` + text, so a marker in a
/// quote stays a quoted line. The output is never longer than the input plus one byte a line.
pub fn unflow(text: &str, del_sp: bool) -> String {
    let mut lines: Vec<String> = Vec::new();
    // The quote depth of the paragraph the previous line left open (it ended in a space).
    let mut open: Option<usize> = None;
    for raw in text.split('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let content = line.get(depth..).unwrap_or_default();
        let content = content.strip_prefix(' ').unwrap_or(content);
        let flowed = content.ends_with(' ') && content != "-- ";
        let piece = match content.strip_suffix(' ') {
            Some(cut) if flowed && del_sp => cut,
            _ => content,
        };
        match lines.last_mut() {
            Some(last) if open == Some(depth) => last.push_str(piece),
            _ => {
                let mut l = String::with_capacity(depth + 1 + piece.len());
                if depth > 0 {
                    l.push_str(line.get(..depth).unwrap_or_default());
                    l.push(' ');
                }
                l.push_str(piece);
                lines.push(l);
            }
        }
        open = flowed.then_some(depth);
    }
    lines.join("\n")
}

/// An address we may write to: one `local@domain` that the outbox's parser (lettre) accepts
/// ([`crate::intake::sendable_address`]), and no CR/LF hidden anywhere in the header's decoded
/// name either (header injection).
fn usable_address(addr: &mail_parser::Addr<'_>) -> Option<String> {
    if addr
        .name
        .as_deref()
        .is_some_and(|n| n.contains(['\r', '\n']))
    {
        return None;
    }
    let a = addr.address.as_deref()?.trim();
    crate::intake::sendable_address(a).then(|| a.to_string())
}

fn no_reply_reason(
    msg: &mail_parser::Message<'_>,
    from: Option<&str>,
    reply_to: Option<&str>,
    own_address: &str,
) -> Option<String> {
    let raw = |name: &str| msg.header_raw(name).map(|v| v.trim().to_string());
    if let Some(rp) = raw("Return-Path") {
        // `< >` and `<>` alike: spaces inside the brackets do not make an address.
        let bare: String = rp.chars().filter(|c| !c.is_whitespace()).collect();
        if bare == "<>" || bare.is_empty() {
            return Some("a bounce (empty Return-Path `<>`)".into());
        }
    }
    if let Some(f) = from {
        let local = f.split('@').next().unwrap_or("");
        if local.eq_ignore_ascii_case("mailer-daemon") || local.eq_ignore_ascii_case("postmaster") {
            return Some(format!("a bounce (from {f})"));
        }
    }
    if let Some(auto) = raw("Auto-Submitted") {
        let value = auto
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if value != "no" {
            return Some(format!("an automatic mail (Auto-Submitted: {value})"));
        }
    }
    if let Some(p) = raw("Precedence") {
        let value = p
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if ["bulk", "junk", "list"].contains(&value.as_str()) {
            return Some(format!("a bulk or list mail (Precedence: {value})"));
        }
    }
    // RFC 3834 §2 and common practice: list traffic and other robots' replies.
    for h in [
        "List-Id",
        "X-Autoreply",
        "X-Autorespond",
        "X-Auto-Response-Suppress",
    ] {
        if msg.header_raw(h).is_some() {
            return Some(format!("an automatic or list mail ({h} header)"));
        }
    }
    // A delivery or disposition report (RFC 3462) is a bounce whoever sent it.
    if msg.content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    }) {
        return Some("a bounce (a multipart/report delivery report)".into());
    }
    let own = own_address.trim();
    if !own.is_empty() {
        for a in [from, reply_to].into_iter().flatten() {
            if a.trim().eq_ignore_ascii_case(own) {
                return Some(format!("sent by or to the referee's own address {own}"));
            }
        }
    }
    None
}

/// Text from an attachment mail-parser left as bytes: UTF-16 when it starts with a BOM, else
/// UTF-8 (invalid sequences replaced).
fn decode_text_bytes(b: &[u8]) -> String {
    let utf16 = |le: bool| {
        let units: Vec<u16> = b
            .get(2..)
            .unwrap_or_default()
            .chunks_exact(2)
            .map(|c| match c {
                [x, y] if le => u16::from_le_bytes([*x, *y]),
                [x, y] => u16::from_be_bytes([*x, *y]),
                _ => 0xfffd,
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    match b {
        [0xff, 0xfe, ..] => utf16(true),
        [0xfe, 0xff, ..] => utf16(false),
        _ => String::from_utf8_lossy(b).into_owned(),
    }
}

#[derive(Default)]
struct Found {
    blocks: Vec<RawBlock>,
    problems: Vec<String>,
}

fn is_marker(line: &str, marker: &str) -> bool {
    line.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}') == marker
}

impl Found {
    /// Keeps one more block than the limit at most (enough to refuse the mail), so a mail
    /// of thousands of tiny blocks costs no more than one of 21.
    fn problem(&mut self, p: String) {
        if !self.problems.contains(&p) {
            self.problems.push(p);
        }
    }

    fn push(&mut self, b: RawBlock) {
        if self.blocks.len() <= MAX_BLOCKS && !self.blocks.contains(&b) {
            self.blocks.push(b);
        }
    }

    /// Finds every block in one decoded text.
    fn scan(&mut self, text: &str) {
        let lines: Vec<&str> = text.split('\n').collect();
        let at = |i: usize, marker: &str| lines.get(i).is_some_and(|l| is_marker(l, marker));
        // The `end` marker at or after `from`, unless a new ORDERS block starts first.
        let find_end = |from: usize, end: &str| {
            (from..lines.len())
                .take_while(|&j| !at(j, ORDERS_BEGIN))
                .find(|&j| at(j, end))
        };
        let paste = "paste the whole block `dustmail sign` printed (sign with `dustmail sign \
                     --key KEYFILE`)";
        let mut i = 0;
        while i < lines.len() {
            if self.blocks.len() > MAX_BLOCKS || self.problems.len() > MAX_BLOCKS {
                return;
            }
            if !at(i, ORDERS_BEGIN) {
                i += 1;
                continue;
            }
            let Some(j) = find_end(i + 1, ORDERS_END) else {
                self.problem(format!(
                    "an ORDERS block has no `{ORDERS_END}` line: {paste}"
                ));
                i += 1;
                continue;
            };
            // Blank lines, then the SIGNATURE block.
            let k = (j + 1..lines.len())
                .find(|&k| !lines.get(k).is_some_and(|l| l.trim().is_empty()))
                .unwrap_or(lines.len());
            // The signature of `dustmail sign`, or the armor of `ssh-keygen -Y sign`.
            let sig_end = if at(k, SIG_BEGIN) {
                SIG_END
            } else if at(k, SSH_SIG_BEGIN) {
                SSH_SIG_END
            } else {
                self.problem(format!(
                    "an ORDERS block is not followed by a `{SIG_BEGIN}` block (or the \
                     `{SSH_SIG_BEGIN}` block of `ssh-keygen -Y sign`): {paste}"
                ));
                i = j + 1;
                continue;
            };
            let Some(m) = find_end(k + 1, sig_end) else {
                self.problem(format!(
                    "a SIGNATURE block has no `{sig_end}` line: {paste}"
                ));
                i = k + 1;
                continue;
            };
            let slice = |from: usize, to: usize| lines.get(from..to).unwrap_or_default();
            self.push(RawBlock {
                canonical: canonical_text(&slice(i + 1, j).join("\n")),
                // The base64 may be wrapped or padded by the mail client.
                signature_b64: slice(k + 1, m)
                    .iter()
                    .flat_map(|l| l.chars())
                    .filter(|c| !c.is_whitespace())
                    .collect(),
            });
            i = m + 1;
        }
    }
}

/// HTML → text for finding blocks. The HTML is tokenized by html5ever (Servo's HTML parser:
/// tags and attributes, comments, every named and numeric entity, raw text of `<script>` and
/// `<style>`, CR/LF); what stays ours is which elements make lines. `<br>` and the start and
/// end of `<p>`, `<div>`, `<pre>`, `<li>`, `<tr>`, headings and tables break lines (one line
/// break each, never a blank line between paragraphs); whitespace collapses except inside
/// `<pre>` (tabs kept); no line is ever wrapped; `<blockquote>` lines start with `> ` (one per
/// level), so a block in a quoted reply is not a block; `<head>`, `<title>`, `<style>` and
/// `<script>` are dropped; a no-break space is a space.
///
/// Why not html2text's renderer: it separates `<p>` paragraphs by a blank line (Outlook writes
/// one `<p class=MsoNormal>` per line, so a pasted block would gain blank lines and fail its
/// signature), expands tabs in `<pre>` and wraps link text in brackets; none of these is
/// configurable in 0.17.
pub fn html_to_text(html: &str) -> String {
    use html5ever::tendril::StrTendril;
    use html5ever::tokenizer::{BufferQueue, Tokenizer, TokenizerOpts};
    let sink = HtmlLines::default();
    sink.out.borrow_mut().reserve(html.len());
    let tok = Tokenizer::new(
        sink,
        TokenizerOpts {
            discard_bom: false,
            ..TokenizerOpts::default()
        },
    );
    let input = BufferQueue::default();
    // A tendril holds at most 4 GiB: feed bounded pieces, cut at character boundaries.
    let mut rest = html;
    while !rest.is_empty() {
        let mut cut = rest.len().min(1 << 20);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (piece, tail) = rest.split_at(cut);
        input.push_back(StrTendril::from_slice(piece));
        rest = tail;
    }
    let _ = tok.feed(&input);
    tok.end();
    tok.sink.out.take()
}

/// The most `> ` an HTML quote level puts before a line.
const MAX_QUOTE_PREFIX: u32 = 8;

/// The line-making state of [`html_to_text`] (html5ever's sink takes `&self`).
#[derive(Default)]
struct HtmlLines {
    out: std::cell::RefCell<String>,
    /// Depths inside `<pre>`, `<blockquote>` and hidden elements (head, title, style, script).
    pre: std::cell::Cell<u32>,
    quote: std::cell::Cell<u32>,
    hidden: std::cell::Cell<u32>,
    pending_space: std::cell::Cell<bool>,
}

impl HtmlLines {
    fn at_line_start(out: &str) -> bool {
        out.is_empty() || out.ends_with('\n')
    }

    /// Ends the current line unless it is empty.
    fn break_line(&self) {
        let mut out = self.out.borrow_mut();
        if !Self::at_line_start(&out) {
            out.push('\n');
        }
        self.pending_space.set(false);
    }

    fn push(&self, out: &mut String, c: char) {
        if c != '\n' && Self::at_line_start(out) {
            // At most this many `> `: one already unmakes a marker, and a mail of thousands of
            // nested quotes must not make every line thousands of bytes long.
            for _ in 0..self.quote.get().min(MAX_QUOTE_PREFIX) {
                out.push_str("> ");
            }
        }
        out.push(c);
    }

    fn text(&self, t: &str) {
        if self.hidden.get() > 0 {
            return;
        }
        let mut out = self.out.borrow_mut();
        for c in t.chars() {
            // A no-break space is kept (as a space): `&nbsp;&nbsp;move` is how clients indent.
            let nbsp = c == '\u{a0}';
            let c = if nbsp { ' ' } else { c };
            if self.pre.get() > 0 {
                self.push(&mut out, c);
            } else if c.is_whitespace() && !nbsp {
                self.pending_space.set(true);
            } else {
                if self.pending_space.get() && !Self::at_line_start(&out) {
                    out.push(' ');
                }
                self.pending_space.set(false);
                self.push(&mut out, c);
            }
        }
    }

    fn tag(&self, tag: &html5ever::tokenizer::Tag) -> html5ever::tokenizer::TokenSinkResult<()> {
        use html5ever::tokenizer::states::RawKind;
        use html5ever::tokenizer::{TagKind, TokenSinkResult};
        let closing = tag.kind == TagKind::EndTag;
        let depth = |d: &std::cell::Cell<u32>| {
            if closing {
                d.set(d.get().saturating_sub(1));
            } else if !tag.self_closing {
                d.set(d.get().saturating_add(1));
            }
        };
        let name: &str = &tag.name;
        match name {
            // `<body>` ends a `<head>` left open (its end tag is optional).
            "body" if !closing => self.hidden.set(0),
            "head" | "title" | "style" | "script" => {
                depth(&self.hidden);
                // Their text is raw, as the HTML tree builder would have it read (a `<` in a
                // script is not a tag).
                let raw = match name {
                    "script" => Some(RawKind::ScriptData),
                    "title" => Some(RawKind::Rcdata),
                    "style" => Some(RawKind::Rawtext),
                    _ => None,
                };
                if let Some(kind) = raw.filter(|_| !closing) {
                    return TokenSinkResult::RawData(kind);
                }
            }
            _ if self.hidden.get() > 0 => {}
            "br" => {
                let mut out = self.out.borrow_mut();
                self.push(&mut out, '\n');
                self.pending_space.set(false);
            }
            "pre" => {
                self.break_line();
                depth(&self.pre);
            }
            "blockquote" => {
                self.break_line();
                depth(&self.quote);
            }
            "p" | "div" | "li" | "tr" | "table" | "ul" | "ol" | "h1" | "h2" | "h3" | "h4"
            | "h5" | "h6" | "hr" => self.break_line(),
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

impl html5ever::tokenizer::TokenSink for HtmlLines {
    type Handle = ();

    fn process_token(
        &self,
        token: html5ever::tokenizer::Token,
        _line: u64,
    ) -> html5ever::tokenizer::TokenSinkResult<()> {
        use html5ever::tokenizer::{Token, TokenSinkResult};
        match token {
            Token::TagToken(tag) => return self.tag(&tag),
            Token::CharacterTokens(t) => self.text(&t),
            // Comments, doctypes, NUL characters and parse errors carry no orders.
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

/// Splits a canonical signed text into its header and command lines, with errors naming the line.
pub fn parse_body(canonical: &str) -> Result<BlockBody, MailError> {
    let example = "the signed text starts with three lines such as `game: g-1a2b3c4d`, \
                   `side: red` and `seq: 4` (any order), then the commands";
    let mut game: Option<(usize, String)> = None;
    let mut side: Option<(usize, String)> = None;
    let mut seq: Option<(usize, u64)> = None;
    let mut lines = Vec::new();
    let mut in_header = true;
    for (idx, text) in canonical.split('\n').enumerate() {
        let number = idx + 1;
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if in_header {
            if let Some((key, value)) = trimmed.split_once(':') {
                let key = key.trim().to_ascii_lowercase();
                let value = value.split('#').next().unwrap_or("").trim();
                if ["game", "side", "seq"].contains(&key.as_str()) {
                    let earlier = match key.as_str() {
                        "game" => game.as_ref().map(|g| g.0),
                        "side" => side.as_ref().map(|s| s.0),
                        _ => seq.as_ref().map(|s| s.0),
                    };
                    if let Some(first) = earlier {
                        return Err(MailError(format!(
                            "line {number}: `{key}:` appears a second time (first on line \
                             {first}); write each of `game:`, `side:` and `seq:` exactly once"
                        )));
                    }
                    // Bounded and printable: these values reach replies' subjects and texts.
                    if value.is_empty()
                        || value.chars().count() > MAX_HEADER_VALUE
                        || value
                            .chars()
                            .any(|c| c.is_whitespace() || c.is_control() || c == '\u{2800}')
                    {
                        return Err(MailError(format!(
                            "line {number}: `{key}:` needs one value of at most \
                             {MAX_HEADER_VALUE} printable characters without spaces, e.g. `{}`",
                            match key.as_str() {
                                "game" => "game: g-1a2b3c4d",
                                "side" => "side: red",
                                _ => "seq: 4",
                            }
                        )));
                    }
                    match key.as_str() {
                        "game" => game = Some((number, value.to_string())),
                        "side" => side = Some((number, value.to_string())),
                        _ => {
                            let n =
                                value
                                    .parse::<u64>()
                                    .ok()
                                    .filter(|n| *n > 0)
                                    .ok_or_else(|| {
                                        MailError(format!(
                                    "line {number}: `seq: {value}` is not a positive whole \
                                     number; write the number after that of your last \
                                     accepted orders, e.g. `seq: 4`"
                                ))
                                    })?;
                            seq = Some((number, n));
                        }
                    }
                    continue;
                }
            }
            in_header = false;
        }
        lines.push(Line {
            number,
            text: text.to_string(),
        });
    }
    let missing: Vec<&str> = [
        ("`game:`", game.is_none()),
        ("`side:`", side.is_none()),
        ("`seq:`", seq.is_none()),
    ]
    .into_iter()
    .filter_map(|(k, m)| m.then_some(k))
    .collect();
    match (game, side, seq) {
        (Some((_, game)), Some((_, side)), Some((_, seq))) => Ok(BlockBody {
            game,
            side,
            seq,
            lines,
        }),
        _ => {
            let at = lines
                .first()
                .map(|l| {
                    format!(
                        " (line {} already holds a command: `{}`)",
                        l.number,
                        l.text.trim()
                    )
                })
                .unwrap_or_default();
            Err(MailError(format!(
                "the signed text has no {} line before the commands{at}: {example}",
                missing.join(", ")
            )))
        }
    }
}
