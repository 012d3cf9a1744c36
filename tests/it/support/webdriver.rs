//! A small WebDriver client for Debian's chromedriver (package chromium-driver, installed by
//! scripts/test.sh), so tests click real buttons and press real keys in headless Chromium.
//! chromedriver is started with `--port=0` and says which port it took, so tests never race
//! for a fixed port.

use base64::Engine as _;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// One browser session, ended (and chromedriver stopped) on drop.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: tempfile::TempDir,
}

/// The W3C key code of the right arrow key, and of End.
pub const ARROW_RIGHT: &str = "\u{E014}";
pub const ARROW_LEFT: &str = "\u{E012}";
pub const END: &str = "\u{E010}";

impl Browser {
    /// Starts chromedriver and a headless Chromium whose window is `width` × `height`.
    pub fn start(width: u32, height: u32) -> Browser {
        assert!(
            std::path::Path::new(CHROMEDRIVER).exists(),
            "chromedriver is absent ({CHROMEDRIVER}): install it with `sudo apt-get install \
             chromium-driver` (scripts/test.sh does this), or set DUSTMAIL_BROWSER_TESTS=0"
        );
        let mut driver = Command::new(CHROMEDRIVER)
            .arg("--port=0")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let mut out = BufReader::new(driver.stdout.take().expect("piped stdout"));
        let mut port = 0u16;
        let mut line = String::new();
        // It prints "ChromeDriver was started successfully on port N." once it listens.
        for _ in 0..20 {
            line.clear();
            if out.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            if let Some(rest) = line.split("successfully on port ").nth(1) {
                port = rest.trim().trim_end_matches('.').parse().unwrap_or(0);
                break;
            }
        }
        assert!(port > 0, "chromedriver did not say its port: {line}");
        // Keep draining its stdout so it never blocks on a full pipe.
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut out, &mut std::io::sink());
        });
        let profile = tempfile::tempdir().unwrap();
        let args = json!([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.path().display()),
        ]);
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": crate::browser::CHROMIUM, "args": args},
        }}});
        let r = http(port, "POST", "/session", Some(&caps));
        let session = r["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no WebDriver session: {r}"))
            .to_string();
        Browser {
            driver,
            port,
            session,
            _profile: profile,
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let r = http(
            self.port,
            method,
            &format!("/session/{}{path}", self.session),
            body,
        );
        assert!(
            r["value"].get("error").is_none(),
            "WebDriver {method} {path}: {r}"
        );
        r["value"].clone()
    }

    pub fn open(&self, url: &str) {
        self.call("POST", "/url", Some(&json!({ "url": url })));
    }

    /// The element matching a CSS selector.
    pub fn find(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            "/element",
            Some(&json!({"using": "css selector", "value": css})),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}: {v}"))
            .to_string()
    }

    pub fn click(&self, css: &str) {
        let el = self.find(css);
        self.call("POST", &format!("/element/{el}/click"), Some(&json!({})));
    }

    /// Types `keys` into the element matching `css` (it gets the focus first).
    pub fn send_keys(&self, css: &str, keys: &str) {
        let el = self.find(css);
        self.call(
            "POST",
            &format!("/element/{el}/value"),
            Some(&json!({ "text": keys })),
        );
    }

    /// Presses and releases one key on whatever has the focus.
    pub fn press(&self, key: &str) {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]});
        self.call("POST", "/actions", Some(&actions));
    }

    /// The value of a script (`return …;`) run in the page.
    pub fn eval(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(&json!({"script": script, "args": []})),
        )
    }

    /// A PNG screenshot of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.call("GET", "/screenshot", None);
        base64::engine::general_purpose::STANDARD
            .decode(v.as_str().unwrap_or(""))
            .expect("screenshot is base64")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http(
            self.port,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// One HTTP/1.1 request to chromedriver on loopback; the JSON body of its answer.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Value {
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("chromedriver listens");
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // chromedriver keeps the connection open even when asked to close it: read the head,
    // then exactly the body its Content-Length announces.
    let mut r = BufReader::new(s);
    let mut head = String::new();
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
        head.push_str(&line);
    }
    let mut body = vec![0u8; length];
    r.read_exact(&mut body)
        .unwrap_or_else(|e| panic!("{method} {path}: {e}: {head}"));
    let payload = String::from_utf8_lossy(&body).into_owned();
    let text = &head;
    serde_json::from_str(&payload).unwrap_or_else(|e| panic!("{method} {path}: {e}: {text}"))
}
