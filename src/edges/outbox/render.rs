//! Mail building: a [`Mail`] to the RFC 5322 bytes that are queued and sent.

use super::*;
use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{
    Attachment as MimeAttachment, Body, Mailbox, Message, MultiPart, SinglePart,
};

fn parse_mailbox(field: &str, value: &str) -> Result<Mailbox, OutboxError> {
    no_injection(field, value)?;
    value
        .parse::<Mailbox>()
        .map_err(|e| OutboxError::BadAddress {
            field: field.to_string(),
            value: value.to_string(),
            reason: e.to_string(),
        })
}

fn no_injection(field: &str, value: &str) -> Result<(), OutboxError> {
    if value.chars().any(|c| c.is_control() && c != '\t') {
        return Err(OutboxError::HeaderInjection {
            field: field.to_string(),
        });
    }
    Ok(())
}

/// Headers the outbox writes itself; an extra header may not duplicate them.
const RESERVED_HEADERS: &[&str] = &[
    "from",
    "to",
    "cc",
    "bcc",
    "sender",
    "reply-to",
    "subject",
    "date",
    "message-id",
    "in-reply-to",
    "references",
    "mime-version",
    "content-type",
    "content-transfer-encoding",
    "content-disposition",
    "content-id",
];

fn header_name(name: &str) -> Result<HeaderName, OutboxError> {
    let printable = name.bytes().all(|b| (33..=126).contains(&b) && b != b':');
    if !printable || name.is_empty() || name.len() > 76 {
        return Err(OutboxError::BadHeaderName(name.to_string()));
    }
    if RESERVED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
        return Err(OutboxError::ReservedHeader(name.to_string()));
    }
    HeaderName::new_from_ascii(name.to_string())
        .map_err(|_| OutboxError::BadHeaderName(name.to_string()))
}

/// Renders `mail` to RFC 5322 bytes with Message-ID `<id@domain-of-from>` and the given Date.
/// Returns the bytes and the envelope (attempts 0, due at once).
pub fn render(
    id: &str,
    mail: &Mail,
    date: DateTime<Utc>,
) -> Result<(Vec<u8>, Envelope), OutboxError> {
    validate_id(id)?;
    let from = parse_mailbox("from", &mail.from)?;
    if mail.to.is_empty() {
        return Err(OutboxError::NoRecipient);
    }
    let to = mail
        .to
        .iter()
        .map(|t| parse_mailbox("to", t))
        .collect::<Result<Vec<_>, _>>()?;
    no_injection("subject", &mail.subject)?;
    let message_id = format!("<{id}@{}>", from.email.domain());

    let mut b = Message::builder()
        .from(from.clone())
        .subject(mail.subject.clone())
        .date(date.into())
        .message_id(Some(message_id.clone()));
    for t in &to {
        b = b.to(t.clone());
    }
    if let Some(irt) = &mail.in_reply_to {
        no_injection("in_reply_to", irt)?;
        b = b.in_reply_to(irt.clone());
    }
    for r in &mail.references {
        no_injection("references", r)?;
    }
    if !mail.references.is_empty() {
        // lettre keeps only the last `references()` call: one header, ids separated by spaces.
        b = b.references(mail.references.join(" "));
    }
    // RFC 3834: every mail the referee writes is automatic, so another robot (another referee, a
    // vacation responder) must not answer it — two referees would otherwise write to each other
    // forever. A caller's own Auto-Submitted header wins.
    if !mail
        .headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("Auto-Submitted"))
    {
        let value = if mail.in_reply_to.is_some() {
            "auto-replied"
        } else {
            "auto-generated"
        };
        b = b.raw_header(HeaderValue::new(
            header_name("Auto-Submitted")?,
            value.to_string(),
        ));
    }
    for (name, value) in &mail.headers {
        let hn = header_name(name)?;
        no_injection(&format!("header {name}"), value)?;
        b = b.raw_header(HeaderValue::new(hn, value.clone()));
    }

    let (inline, files): (Vec<&Attachment>, Vec<&Attachment>) = mail
        .attachments
        .iter()
        .partition(|a| a.inline_cid.is_some() && mail.html.is_some());

    // MIME boundaries come from the mail id, not from a random source: the same mail always
    // renders to the same bytes (a re-queue after a crash, a replayed run).
    let boundary = |kind: &str| {
        format!(
            "dustmail-{}",
            &crate::ledger::sha256_hex(format!("{id}/{kind}").as_bytes())[..32]
        )
    };
    let message = match &mail.html {
        None if files.is_empty() => b.singlepart(text_part(ContentType::TEXT_PLAIN, &mail.text)),
        None => b.multipart(mixed(
            MultiPart::mixed()
                .boundary(boundary("mixed"))
                .singlepart(text_part(ContentType::TEXT_PLAIN, &mail.text)),
            &files,
        )?),
        Some(html) => {
            let html_part = text_part(ContentType::TEXT_HTML, html);
            let alt = MultiPart::alternative()
                .boundary(boundary("alternative"))
                .singlepart(text_part(ContentType::TEXT_PLAIN, &mail.text));
            let alt = if inline.is_empty() {
                alt.singlepart(html_part)
            } else {
                let mut rel = MultiPart::related()
                    .boundary(boundary("related"))
                    .singlepart(html_part);
                for a in &inline {
                    let cid = a.inline_cid.clone().unwrap_or_default();
                    no_injection("inline_cid", &cid)?;
                    rel = rel.singlepart(
                        MimeAttachment::new_inline(cid).body(a.bytes.clone(), content_type(a)?),
                    );
                }
                alt.multipart(rel)
            };
            if files.is_empty() {
                b.multipart(alt)
            } else {
                b.multipart(mixed(
                    MultiPart::mixed()
                        .boundary(boundary("mixed"))
                        .multipart(alt),
                    &files,
                )?)
            }
        }
    }
    .map_err(|e| OutboxError::Build(e.to_string()))?;

    let envelope = Envelope {
        id: id.to_string(),
        from: from.email.to_string(),
        to: to.iter().map(|t| t.email.to_string()).collect(),
        message_id,
        queued_at: date,
        attempts: 0,
        next_attempt: None,
        last_error: None,
    };
    Ok((message.formatted(), envelope))
}

/// A text part built without lettre's `Body::new`, which turns LF into CRLF with one
/// `String::insert` per line: quadratic in the body (a 22 MB receipt took 100 s, issue 10
/// finding 4). The encoding is chosen from the same text by the same chooser lettre uses and the
/// line ends are converted in one pass, so the bytes are exactly the ones lettre would make.
fn text_part(content_type: ContentType, text: &str) -> SinglePart {
    SinglePart::builder()
        .header(content_type)
        .body(text_body(text))
}

fn text_body(text: &str) -> Body {
    use email_encoding::body::Encoding;
    // lettre's `Body::new` chooses as for a server without SMTPUTF8 (`supports_utf8 = false`).
    let encoding = Encoding::choose(text, false);
    let text = crlf(text);
    let cte = match encoding {
        // Already valid as it stands (lines short enough, ASCII): no re-encoding.
        Encoding::SevenBit => {
            return Body::dangerous_pre_encoded(
                text.into_bytes(),
                ContentTransferEncoding::SevenBit,
            )
        }
        Encoding::EightBit => {
            return Body::dangerous_pre_encoded(
                text.into_bytes(),
                ContentTransferEncoding::EightBit,
            )
        }
        Encoding::QuotedPrintable => ContentTransferEncoding::QuotedPrintable,
        Encoding::Base64 => ContentTransferEncoding::Base64,
    };
    // Quoted-printable and base64 accept any text; lettre's own CRLF pass finds nothing to do.
    Body::new_with_encoding(text, cte).unwrap_or_else(Body::new)
}

/// `text` with a CR before every LF that has none (what lettre's CRLF conversion makes), in one
/// linear pass.
fn crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 32 + 2);
    let mut prev = '\0';
    for c in text.chars() {
        if c == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(c);
        prev = c;
    }
    out
}

fn content_type(a: &Attachment) -> Result<ContentType, OutboxError> {
    no_injection("attachment content type", &a.content_type)?;
    ContentType::parse(&a.content_type).map_err(|_| OutboxError::BadContentType {
        filename: a.filename.clone(),
        content_type: a.content_type.clone(),
    })
}

fn mixed(mut m: MultiPart, files: &[&Attachment]) -> Result<MultiPart, OutboxError> {
    for a in files {
        no_injection("attachment filename", &a.filename)?;
        m = m.singlepart(
            MimeAttachment::new(a.filename.clone()).body(a.bytes.clone(), content_type(a)?),
        );
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 10 finding 4: the linear text parts give the very bytes lettre's own (quadratic)
    /// encoding gives, for every kind of text: short and long lines, bare LF, CRLF, lone CR,
    /// non-ASCII, a leading LF, lines of 74-76 characters (where adding the CR matters).
    #[test]
    fn linear_text_parts_are_byte_identical_to_lettres() {
        let samples = [
            String::new(),
            "\n".to_string(),
            "a\nb\r\nc\rd\n\n".to_string(),
            "x".repeat(74) + "\n" + &"y".repeat(75) + "\n" + &"z".repeat(76),
            "Grüße\nfrom the referee\n".to_string(),
            "é".repeat(500),
            "line\n".repeat(1000),
            "\r\n.\r\n..\n".to_string(),
            "\u{2800}".repeat(80) + "\n",
        ];
        for s in &samples {
            for ct in [ContentType::TEXT_PLAIN, ContentType::TEXT_HTML] {
                let ours = text_part(ct.clone(), s).formatted();
                let lettres = SinglePart::builder().header(ct).body(s.clone()).formatted();
                assert_eq!(
                    String::from_utf8_lossy(&ours),
                    String::from_utf8_lossy(&lettres),
                    "{s:?}"
                );
            }
        }
    }
}
