#!/usr/bin/env python3
"""Regenerates the .eml fixtures of tests/mails (see README.md). Needs the `cryptography` package.

Blocks are signed here once with the fixed test keys (ed25519 secret seeds 32 x 0x01 for `red`,
32 x 0x02 for `blue`); ed25519 signatures are deterministic, so the output is stable and the Rust
tests check the same signatures with dustmail::crypto.
"""
import base64, os, quopri
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

KEYS = {"red": Ed25519PrivateKey.from_private_bytes(bytes([1]) * 32),
        "blue": Ed25519PrivateKey.from_private_bytes(bytes([2]) * 32)}

def canonical(text):
    text = text.lstrip("\ufeff")
    lines = [l.rstrip() for l in text.split("\n")]
    while lines and not lines[0]: lines.pop(0)
    while lines and not lines[-1]: lines.pop()
    return "\n".join(lines)

def orders(side, seq, extra=""):
    return f"game: g-test\nside: {side}\nseq: {seq}\n\nactivate {side[0].upper()}1\n  move C3\n{extra}"

def block(side, seq, extra=""):
    c = canonical(orders(side, seq, extra))
    sig = base64.b64encode(KEYS[side].sign(c.encode())).decode()
    return ("-----BEGIN DUSTMAIL ORDERS-----\n" + c + "\n-----END DUSTMAIL ORDERS-----\n"
            "-----BEGIN DUSTMAIL SIGNATURE-----\n" + sig + "\n-----END DUSTMAIL SIGNATURE-----\n")

def headers(name, extra="", ctype="text/plain; charset=utf-8", cte="7bit"):
    h = (f"From: Red Player <red@example.org>\nTo: referee@dust.example\n"
         f"Subject: orders ({name})\nDate: Sat, 21 Nov 2026 10:00:00 +0000\n"
         f"Message-ID: <{name}@example.org>\nMIME-Version: 1.0\n{extra}")
    if ctype:
        h += f"Content-Type: {ctype}\nContent-Transfer-Encoding: {cte}\n"
    return h + "\n"

def write(name, text, crlf=False, raw=None):
    data = raw if raw is not None else text.encode("utf-8")
    if crlf:
        data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    with open(os.path.join(os.path.dirname(__file__) or ".", name + ".eml"), "wb") as f:
        f.write(data)

B1 = block("red", 1)
write("plain", headers("plain") + "Here are my orders.\n\n" + B1 + "\nRed\n")
# A UTF-8 byte order mark opens the body, on the same line as the BEGIN marker; a .txt
# attachment (text/plain) starts with a BOM too and carries blue's block.
write("bom", headers("bom", ctype='multipart/mixed; boundary="BOM"')
      + "--BOM\nContent-Type: text/plain; charset=utf-8\n\n\ufeff" + B1
      + "\n--BOM\nContent-Type: text/plain; charset=utf-8; name=\"blue.txt\"\n"
      + "Content-Disposition: attachment; filename=\"blue.txt\"\n\n\ufeff" + block("blue", 1)
      + "--BOM--\n")
write("crlf", headers("crlf") + "Orders with CRLF line ends.\n\n" + B1, crlf=True)

# Quoted-printable: a long comment line gets soft line breaks, `=` and a trailing space are encoded.
qp_extra = "# a very long comment line that a quoted-printable encoder must wrap: x=1, y=2, z=3, w=4\n"
qp_body = ("Orders in quoted-printable.\n\n" + block("red", 1, qp_extra)).encode()
write("qp", None, raw=headers("qp", cte="quoted-printable").encode() + quopri.encodestring(qp_body))

b64_body = base64.encodebytes(("Orders in base64.\n\n" + B1).encode()).decode()
write("base64", headers("base64", cte="base64") + b64_body)

# Latin-1 body; the signed text contains non-ASCII (signed as UTF-8, sent as ISO-8859-1).
latin_block = block("red", 1, "# attaque à gauche, très bien\n")
write("latin1", None, raw=(headers("latin1", ctype="text/plain; charset=iso-8859-1", cte="8bit")
                           + "Ordres en latin-1.\n\n" + latin_block).encode("latin-1"))

# UTF-16 text attachment (with BOM), base64-encoded, plain body without a block.
u16 = base64.encodebytes(B1.replace("\n", "\r\n").encode("utf-16")).decode()
write("utf16-attachment",
      headers("utf16-attachment", ctype='multipart/mixed; boundary="XX"', cte="7bit")
      + "--XX\nContent-Type: text/plain; charset=utf-8\n\nOrders attached.\n\n"
      + "--XX\nContent-Type: text/plain; charset=utf-16; name=\"orders.txt\"\n"
      + "Content-Disposition: attachment; filename=\"orders.txt\"\n"
      + "Content-Transfer-Encoding: base64\n\n" + u16 + "--XX--\n")

def html_divs(blk):
    out = []
    for line in blk.rstrip("\n").split("\n"):
        stripped = line.lstrip(" ")
        ind = "&nbsp;" * (len(line) - len(stripped))
        if not line:
            out.append("<div><br></div>")
            continue
        out.append(f"<div>{ind}{stripped.replace('&', '&amp;').replace('<', '&lt;')}</div>")
    return "\n".join(out)

write("html-only", headers("html-only", ctype="text/html; charset=utf-8")
      + "<html><head><style>div { color: black; }</style></head><body>\n"
      + "<div dir=\"ltr\">Here are my orders:<br></div>\n" + html_divs(B1) + "\n</body></html>\n")

write("html-pre", headers("html-pre", ctype="text/html; charset=utf-8")
      + "<html><body><p>Orders:</p><pre>\n" + B1 + "</pre>\n"
      + "<blockquote><pre>\n" + block("red", 0 + 1, "# an old block in a quote\n") + "</pre></blockquote>"
      + "</body></html>\n")

write("alternative", headers("alternative", ctype='multipart/alternative; boundary="ALT"')
      + "--ALT\nContent-Type: text/plain; charset=utf-8\n\nOrders.\n\n" + B1
      + "\n--ALT\nContent-Type: text/html; charset=utf-8\n\n<html><body><pre>\n" + B1
      + "</pre></body></html>\n--ALT--\n")

write("attachment", headers("attachment", ctype='multipart/mixed; boundary="MIX"')
      + "--MIX\nContent-Type: text/plain; charset=utf-8\n\nMy orders are in the attachment.\n\n"
      + "--MIX\nContent-Type: application/octet-stream; name=\"orders.asc\"\n"
      + "Content-Disposition: attachment; filename=\"orders.asc\"\n"
      + "Content-Transfer-Encoding: base64\n\n" + base64.encodebytes(B1.encode()).decode()
      + "--MIX\nContent-Type: image/png; name=\"board.png\"\n"
      + "Content-Disposition: attachment; filename=\"board.png\"\n"
      + "Content-Transfer-Encoding: base64\n\niVBORw0KGgo=\n--MIX--\n")

old = "".join("> " + l + "\n" for l in block("red", 1).rstrip("\n").split("\n"))
write("quoted-reply", headers("quoted-reply", extra="In-Reply-To: <report-1@dust.example>\n")
      + "New orders below.\n\n" + block("red", 2) + "\nOn Friday the referee wrote:\n"
      + "> You sent:\n" + old + ">\n> Good luck.\n")

write("two-blocks", headers("two-blocks") + "Both sides' orders.\n\n" + B1 + "\n" + block("blue", 1))

write("bounce", "Return-Path: <>\nFrom: Mail Delivery System <MAILER-DAEMON@mx.example.org>\n"
      "To: referee@dust.example\nSubject: Undelivered Mail Returned to Sender\n"
      "Date: Sat, 21 Nov 2026 10:00:00 +0000\nMessage-ID: <bounce@mx.example.org>\n"
      "Auto-Submitted: auto-replied\nMIME-Version: 1.0\nContent-Type: text/plain\n\n"
      "This is the mail system. Your message could not be delivered.\n\n" + B1)

write("auto-submitted", headers("auto-submitted", extra="Auto-Submitted: auto-replied\n")
      + "I am on holiday until Monday.\n")

write("broken-mime", "From: red@example.org\nSubject: broken\n"
      "Content-Type: multipart/mixed; boundary=\"NEVER\"\nContent-Transfer-Encoding: base64\n\n"
      "--NOT-THE-BOUNDARY\nContent-Type: text/plain; charset=x-unknown-charset\n"
      "Content-Transfer-Encoding: base64\n\n@@@ not base64 !!!\n=?utf-8?b?broken\n"
      "-----BEGIN DUSTMAIL ORDERS-----\ngame: g-test\n")
