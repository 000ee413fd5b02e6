//! What the end-to-end tests start: the official Python SDK in a cached venv, the upstream
//! agent server (`upstream_agent.py`), the gateway binary, and a client that sends bodies in
//! slow small pieces. Everything listens on 127.0.0.1, is bounded in time and is stopped when
//! dropped.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Same pins as the library's SDK tests (tests/sdk_accept.rs).
const PY_PINS: &[&str] = &[
    "ag-ui-protocol==1.0.0",
    "pydantic==2.14.4",
    "pydantic-core==2.50.5",
    "annotated-types==0.8.0",
    "typing-extensions==4.16.0",
    "typing-inspection==0.4.5",
];
const INSTALL_TIMEOUT: Duration = Duration::from_secs(300);

/// The venv's python, or why the SDK cannot be had (printed by the caller, who then skips).
pub fn python() -> Result<PathBuf, String> {
    static PYTHON: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PYTHON.get_or_init(install).clone()
}

fn install() -> Result<PathBuf, String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gateway-e2e");
    let venv = dir.join("venv");
    let python = venv.join("bin/python");
    let marker = dir.join("python.installed");
    let want = PY_PINS.join("\n");
    if python.exists() && std::fs::read_to_string(&marker).ok().as_deref() == Some(&want) {
        return Ok(python);
    }
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let (ok, out) = run(Command::new("python3").args(["-m", "venv"]).arg(&venv));
    if !ok {
        return Err(format!("cannot create a Python venv: {out}"));
    }
    let (ok, out) = run(Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--retries",
            "1",
            "--timeout",
            "20",
        ])
        .args(PY_PINS));
    if !ok {
        return Err(format!("pip cannot install ag-ui-protocol: {}", out.trim()));
    }
    std::fs::write(&marker, want).map_err(|e| e.to_string())?;
    Ok(python)
}

fn run(cmd: &mut Command) -> (bool, String) {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return (false, format!("could not start {cmd:?}: {e}")),
    };
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let mut out = String::new();
                if let Some(mut e) = child.stderr.take() {
                    let _ = e.read_to_string(&mut out);
                }
                return (status.success(), out);
            }
            Ok(None) if start.elapsed() > INSTALL_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return (false, format!("timed out after {INSTALL_TIMEOUT:?}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return (false, e.to_string()),
        }
    }
}

/// Skips the calling test (visibly) when the SDK cannot be installed: a `SKIPPED: <test>: <why>`
/// line on the real standard error (not captured by the test harness), as the library's SDK
/// tests write it.
#[macro_export]
macro_rules! python_or_skip {
    () => {
        match support::python() {
            Ok(p) => p,
            Err(why) => {
                use std::io::Write as _;
                let test = std::thread::current().name().unwrap_or("e2e").to_string();
                let _ = writeln!(
                    std::io::stderr(),
                    "SKIPPED: {test}: the official Python SDK (ag-ui-protocol) is needed: {why}"
                );
                return;
            }
        }
    };
}

/// The upstream agent server.
pub struct Upstream {
    child: Child,
    _stdin: ChildStdin,
    pub port: u16,
}

impl Upstream {
    pub fn start(python: &Path) -> Upstream {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/upstream_agent.py");
        let mut child = Command::new(python)
            .arg(script)
            .args(["--lifetime", "90"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the upstream agent");
        let stdin = child.stdin.take().unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line.trim().parse().expect("the upstream prints its port");
        Upstream {
            child,
            _stdin: stdin,
            port,
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The server's counters and request log.
    pub fn stats(&self) -> serde_json::Value {
        let r = request(self.port, "GET", "/_stats", &[], b"", Pace::Whole);
        serde_json::from_slice(&r.body).expect("stats are JSON")
    }

    /// The logged request whose path is `path`.
    pub fn logged(&self, path: &str) -> serde_json::Value {
        let stats = self.stats();
        stats["log"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["path"] == path)
            .unwrap_or_else(|| panic!("no request to {path} reached the upstream: {stats}"))
            .clone()
    }
}

impl Drop for Upstream {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The gateway binary.
pub struct Gateway {
    child: Child,
    pub port: u16,
}

impl Gateway {
    pub fn start(upstream: &str, args: &[&str]) -> Gateway {
        let port = free_port();
        let listen = format!("127.0.0.1:{port}");
        let child = Command::new(env!("CARGO_BIN_EXE_agui-gateway"))
            .args([
                "--listen",
                &listen,
                "--upstream",
                upstream,
                "--threads",
                "2",
            ])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start agui-gateway");
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "the gateway did not start listening"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Gateway { child, port }
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// How a client sends its body.
#[derive(Clone, Copy, Debug)]
pub enum Pace {
    /// In one write.
    Whole,
    /// In pieces of this many bytes with a pause of 1 ms between them.
    Slow(usize),
    /// Only the first this many bytes (in pieces of 1000), then nothing more: the answer must
    /// come from what was sent.
    Upto(usize),
}

/// A response as the client saw it.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// One request on a fresh connection; the body goes in its own thread (so an early answer is
/// read while the client is still sending), with a `Content-Length` unless `headers` has
/// `Transfer-Encoding: chunked`.
pub fn request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    pace: Pace,
) -> Response {
    let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let chunked = headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !chunked && (method == "POST" || !body.is_empty()) {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("Connection: close\r\n\r\n");
    let mut writer = stream.try_clone().unwrap();
    let body = body.to_vec();
    let sender = std::thread::spawn(move || {
        if writer.write_all(head.as_bytes()).is_err() {
            return;
        }
        let (piece, limit) = match pace {
            Pace::Whole => (body.len().max(1), body.len()),
            Pace::Slow(n) => (n, body.len()),
            Pace::Upto(n) => (1000, n.min(body.len())),
        };
        for c in body[..limit].chunks(piece) {
            let framed;
            let out: &[u8] = if chunked {
                framed = [format!("{:x}\r\n", c.len()).as_bytes(), c, b"\r\n"].concat();
                &framed
            } else {
                c
            };
            if writer.write_all(out).is_err() {
                return;
            }
            if !matches!(pace, Pace::Whole) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        if chunked && limit == body.len() {
            let _ = writer.write_all(b"0\r\n\r\n");
        }
    });
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader.read_line(&mut status_line).expect("status line");
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let mut response = Response {
        status,
        headers,
        body: Vec::new(),
    };
    response.body = read_body(&mut reader, &response);
    let _ = reader.get_ref().shutdown(Shutdown::Both);
    let _ = sender.join();
    response
}

fn read_body(reader: &mut BufReader<TcpStream>, r: &Response) -> Vec<u8> {
    let mut body = Vec::new();
    if r.header("transfer-encoding")
        .is_some_and(|v| v.contains("chunked"))
    {
        loop {
            let mut size = String::new();
            if reader.read_line(&mut size).unwrap_or(0) == 0 {
                break;
            }
            let n = usize::from_str_radix(size.trim(), 16).expect("chunk size");
            if n == 0 {
                let mut end = String::new();
                let _ = reader.read_line(&mut end);
                break;
            }
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk).expect("chunk");
            body.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(n) = r.header("content-length").and_then(|v| v.parse().ok()) {
        body.resize(n, 0);
        reader.read_exact(&mut body).expect("body");
    } else {
        let _ = reader.read_to_end(&mut body);
    }
    body
}

/// An event stream opened by a client that reads it piece by piece (for the tests that hang
/// up in the middle).
pub struct OpenStream {
    pub stream: TcpStream,
    pub seen: Vec<u8>,
}

impl OpenStream {
    pub fn post(port: u16, path: &str, body: &[u8]) -> OpenStream {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body).unwrap();
        OpenStream {
            stream,
            seen: Vec::new(),
        }
    }

    /// Reads until `needle` has been seen `times` times.
    pub fn read_until(&mut self, needle: &str, times: usize) {
        let mut buf = [0u8; 4096];
        while String::from_utf8_lossy(&self.seen).matches(needle).count() < times {
            let n = self.stream.read(&mut buf).expect("read the stream");
            assert!(
                n > 0,
                "the stream ended early: {}",
                String::from_utf8_lossy(&self.seen)
            );
            self.seen.extend_from_slice(&buf[..n]);
        }
    }
}

/// The `data:` payloads of an event stream, in order, and its comment lines.
pub fn sse_data(text: &str) -> (Vec<String>, Vec<String>) {
    let mut data = Vec::new();
    let mut comments = Vec::new();
    for frame in text.split("\n\n") {
        let mut payload: Option<String> = None;
        for line in frame.lines() {
            if let Some(rest) = line.strip_prefix("data:") {
                let rest = rest.strip_prefix(' ').unwrap_or(rest);
                payload = Some(match payload {
                    Some(p) => format!("{p}\n{rest}"),
                    None => rest.to_string(),
                });
            } else if let Some(c) = line.strip_prefix(':') {
                comments.push(c.trim().to_string());
            }
        }
        data.extend(payload);
    }
    (data, comments)
}

/// Waits (bounded) until `check` holds.
pub fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !check() {
        assert!(Instant::now() < deadline, "never happened: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A file of the repository's samples.
pub fn sample(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../samples")
            .join(name),
    )
    .unwrap()
}
