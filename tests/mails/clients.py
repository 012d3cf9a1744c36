#!/usr/bin/env python3
"""Regenerates the client-*.eml fixtures (issue 16 item 1): one signed block made by the real
`dustmail sign` (red's fixed test key, game g-test, seq 1), then wrapped and encoded the way
each mail client sends it. Run from the repository root after `cargo build`:
`python3 tests/mails/clients.py [path/to/dustmail]`. ed25519 signatures are deterministic, so
the output is stable. tests/it/mail_clients.rs sends every fixture through `dustmail run`.
"""
import email.quoprimime, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../target/debug/dustmail")

# The long comment line is over 78 characters, so every client wraps it; the indented lines
# start with a space, so flowed clients space-stuff them.
ORDERS = ("game: g-test\nside: red\nseq: 1\n\n"
          "# The rangers slip north along the west edge, out of sight of the grenadiers behind "
          "the wall.\nactivate rangers\n  move B5\n  move B4\n")

def signed_block():
    with tempfile.TemporaryDirectory() as d:
        key = os.path.join(d, "red.key")
        with open(key, "w") as f:
            f.write("dustmail-secret-key-v1 AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=\n")
        os.chmod(key, 0o600)
        out = subprocess.run([BIN, "sign", "--key", key], input=ORDERS.encode(),
                             capture_output=True, check=True)
        return out.stdout.decode()

BLOCK = signed_block()
QUOTED = ("Game g-test, Golden: round 1 of 4. You play side red.\n"
          "Send your orders signed with `dustmail sign`, one command a line, and keep the lines "
          "short so that no mail client wraps them.\n")

def flow(text, width=72, delsp=False):
    """RFC 3676 as a client sends it: space-stuffing, and soft breaks at spaces (a trailing
    space ends a wrapped line; with DelSp=yes one more space is added, which the reader drops)."""
    out = []
    for line in text.split("\n"):
        quote = ""
        while line.startswith(">"):
            quote += ">"
            line = line[1:]
        if quote:
            line = line[1:] if line.startswith(" ") else line
        if line.startswith((" ", ">", "From ")) or (quote and line):
            line = " " + line
        while len(quote + line) > width and " " in line[1:width - len(quote)]:
            cut = line.rindex(" ", 1, width - len(quote)) + 1
            out.append(quote + line[:cut] + (" " if delsp else ""))
            line = line[cut:]
            if quote or line.startswith((" ", ">", "From ")):
                line = " " + line
        out.append(quote + line)
    return "\n".join(out)

def qp(text):
    return email.quoprimime.body_encode(text, maxlinelen=76)

def html_lines(text, indent_nbsp=True):
    """Gmail / Outlook style: one element a line, blank lines as <br>, leading spaces as &nbsp;."""
    divs = []
    for line in text.rstrip("\n").split("\n"):
        stripped = line.lstrip(" ")
        lead = "&nbsp;" * (len(line) - len(stripped))
        body = (lead + stripped.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
        divs.append(body or "<br>")
    return divs

def headers(name, agent, ctype, cte="7bit", extra=""):
    return (f"From: Red Player <red@example.org>\nTo: referee@dust.example\n"
            f"Subject: Re: [dustmail g-test] round 1: welcome\n"
            f"Date: Sun, 01 Mar 2026 09:30:00 +0000\nMessage-ID: <{name}@example.org>\n"
            f"In-Reply-To: <g-test-1-welcome-red@dust.example>\n{agent}MIME-Version: 1.0\n"
            f"{extra}Content-Type: {ctype}\nContent-Transfer-Encoding: {cte}\n\n")

def write(name, data, crlf=False):
    if crlf:
        data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    with open(os.path.join(HERE, name + ".eml"), "wb") as f:
        f.write(data)

quoted = "".join("> " + l + "\n" for l in QUOTED.rstrip("\n").split("\n"))

# Thunderbird: format=flowed (DelSp=no), wrapped at 72, a `-- ` signature, the welcome quoted.
tb = ("Here are my orders for the first round.\n\n" + BLOCK + "\n-- \nRed Player\n\n"
      "On 01/03/2026 09:00, referee@dust.example wrote:\n" + quoted)
write("client-thunderbird", (headers(
    "client-thunderbird", "User-Agent: Mozilla Thunderbird\n",
    "text/plain; charset=UTF-8; format=flowed") + flow(tb)).encode())

# Apple Mail: format=flowed with DelSp=yes, quoted-printable on top.
am = "Orders attached below.\n\n" + BLOCK + "\nSent from my Mac\n"
write("client-apple-mail", (headers(
    "client-apple-mail", "X-Mailer: Apple Mail (2.3774.300.61.1.2)\n",
    "text/plain;\n\tcharset=utf-8;\n\tdelsp=yes;\n\tformat=flowed", "quoted-printable")
    + qp(flow(am, delsp=True))).encode())

# Gmail, text and HTML: multipart/alternative, the text half quoted-printable with long lines
# unwrapped (soft breaks only), the HTML half one <div> a line.
gm_text = ("My orders:\n\n" + BLOCK + "\nOn Sun, 1 Mar 2026 at 09:00, <referee@dust.example> "
           "wrote:\n\n" + quoted)
gm_html = ('<div dir="ltr"><div>My orders:</div><div><br></div>'
           + "".join(f"<div>{d}</div>" for d in html_lines(BLOCK))
           + '</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Sun, 1 Mar '
           '2026 at 09:00, &lt;<a href="mailto:referee@dust.example">referee@dust.example</a>&gt;'
           ' wrote:<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;'
           'border-left:1px solid rgb(204,204,204);padding-left:1ex">'
           + "<br>".join(html_lines(QUOTED)) + "</blockquote></div>\n")
write("client-gmail", (headers(
    "client-gmail", "", 'multipart/alternative; boundary="000000000000a1b2c3"')
    + "--000000000000a1b2c3\nContent-Type: text/plain; charset=\"UTF-8\"\n"
    + "Content-Transfer-Encoding: quoted-printable\n\n" + qp(gm_text)
    + "\n--000000000000a1b2c3\nContent-Type: text/html; charset=\"UTF-8\"\n"
    + "Content-Transfer-Encoding: quoted-printable\n\n" + qp(gm_html)
    + "\n--000000000000a1b2c3--\n").encode(), crlf=True)

# Gmail, HTML only (no text half, as some web and phone clients send).
write("client-gmail-html", (headers(
    "client-gmail-html", "", 'text/html; charset="UTF-8"', "quoted-printable")
    + qp(gm_html)).encode(), crlf=True)

# Outlook: top-posted (the block above the whole earlier mail, which is not `> `-quoted),
# windows-1252, quoted-printable, CRLF, an HTML half with one <p class=MsoNormal> a line.
ol_text = (BLOCK + "\nRed\n\n________________________________\nFrom: referee@dust.example\n"
           "Sent: Sunday, March 1, 2026 9:00 AM\nTo: red@example.org\n"
           "Subject: [dustmail g-test] round 1: welcome\n\n" + QUOTED)
ol_html = ('<html><head><meta http-equiv="Content-Type" content="text/html; '
           'charset=windows-1252"><style><!-- p.MsoNormal {margin:0cm;} --></style></head>'
           '<body lang="EN-GB"><div class="WordSection1">'
           + "".join(f'<p class="MsoNormal">{d}<o:p></o:p></p>' for d in html_lines(BLOCK))
           + '<p class="MsoNormal">Red<o:p></o:p></p></div><hr><div id="divRplyFwdMsg">'
           '<b>From:</b> referee@dust.example<br><b>Sent:</b> Sunday, March 1, 2026 9:00 AM'
           '<br></div><div>' + "<br>".join(html_lines(QUOTED)) + "</div></body></html>\n")
write("client-outlook", (headers(
    "client-outlook", "X-Mailer: Microsoft Outlook 16.0\n",
    'multipart/alternative; boundary="_000_OUTLOOK_"')
    + "--_000_OUTLOOK_\nContent-Type: text/plain; charset=\"windows-1252\"\n"
    + "Content-Transfer-Encoding: quoted-printable\n\n" + qp(ol_text)
    + "\n--_000_OUTLOOK_\nContent-Type: text/html; charset=\"windows-1252\"\n"
    + "Content-Transfer-Encoding: quoted-printable\n\n" + qp(ol_html)
    + "\n--_000_OUTLOOK_--\n").encode("cp1252"), crlf=True)

# mutt with `text_flowed` (the editor wrapped the long line with a trailing space): format=flowed,
# us-ascii, inline disposition, a `>`-quoted reply below.
mt = ("* referee@dust.example <referee@dust.example> [2026-03-01 09:00]:\n" + quoted + "\n"
      + BLOCK + "\n-- \nred\n")
write("client-mutt", (headers(
    "client-mutt", "User-Agent: Mutt/2.2.12 (2023-09-09)\n",
    "text/plain; charset=us-ascii; format=flowed",
    extra="Content-Disposition: inline\n") + flow(mt)).encode())
