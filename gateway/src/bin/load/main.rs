//! `agui-gateway-load`: the gateway's load benchmark (not a test). It starts its own upstream
//! (a minimal tokio agent server, in a child process) and the `agui-gateway` binary next to it,
//! all on 127.0.0.1, and measures:
//!
//! * latency (p50/p99, one request at a time) and requests/s (8 connections) for 100 KB chat
//!   bodies and 8 MB media bodies, against the upstream directly and through the gateway;
//! * events relayed per second of gateway CPU time, with many events per upstream chunk and
//!   with one event per chunk;
//! * the gateway's resident memory with 1 000 and ~10 000 open idle event streams.
//!
//! ```sh
//! cargo build --release -p agui-gateway
//! target/release/agui-gateway-load all          # prints a markdown table
//! target/release/agui-gateway-load all --quick  # fewer requests, for a smoke run
//! ```
//! Every loop is bounded by a request or event count; every process it starts is killed at
//! the end.

mod http;
mod upstream;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use http::{read_body, read_head};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("tokio runtime");
    match args.first().map(String::as_str) {
        Some("serve") => runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            println!("{}", listener.local_addr().unwrap().port());
            upstream::serve(listener).await
        }),
        Some("all") => {
            let quick = args.iter().any(|a| a == "--quick");
            let only = args
                .iter()
                .position(|a| a == "--only")
                .and_then(|i| args.get(i + 1))
                .cloned();
            runtime.block_on(all(quick, only.as_deref()));
        }
        _ => {
            eprintln!("usage: agui-gateway-load all [--quick] [--only latency|events|idle]");
            std::process::exit(2);
        }
    }
}

/// A child process killed when dropped.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn sibling(name: &str) -> PathBuf {
    let me = std::env::current_exe().expect("own path");
    me.with_file_name(name)
}

fn start_upstream() -> (Proc, u16) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .arg("serve")
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the upstream");
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let port = line.trim().parse().expect("upstream port");
    (Proc(child), port)
}

/// Extra gateway flags from the command line (`--gw FLAG` repeated, e.g. `--gw=--read-buffer=65536`).
fn gateway_args() -> Vec<String> {
    std::env::args()
        .filter_map(|a| a.strip_prefix("--gw=").map(str::to_string))
        .collect()
}

fn start_gateway(upstream: u16, extra: &[&str]) -> (Proc, u16) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    // AGUI_LOAD_WRAP="heaptrack -o /tmp/gw" runs the gateway under a profiler.
    let wrap = std::env::var("AGUI_LOAD_WRAP").unwrap_or_default();
    let mut words = wrap.split_whitespace();
    let mut cmd = match words.next() {
        Some(w) => {
            let mut c = Command::new(w);
            c.args(words).arg(sibling("agui-gateway"));
            c
        }
        None => Command::new(sibling("agui-gateway")),
    };
    let child = cmd
        .args([
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--upstream",
            &format!("http://127.0.0.1:{upstream}"),
            "--max-body",
            "16000000",
        ])
        .args(extra)
        .args(gateway_args())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start agui-gateway (build it first: cargo build --release -p agui-gateway)");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the gateway did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    (Proc(child), port)
}

/// A keep-alive client connection.
struct Conn {
    rd: BufReader<tokio::net::tcp::OwnedReadHalf>,
    wr: tokio::net::tcp::OwnedWriteHalf,
}

impl Conn {
    async fn open(port: u16) -> Conn {
        let s = TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connect");
        let _ = s.set_nodelay(true);
        let (rd, wr) = s.into_split();
        Conn {
            rd: BufReader::with_capacity(64 << 10, rd),
            wr,
        }
    }

    /// Sends a POST and reads the whole answer; returns the events (blank-line-ended frames) in
    /// it.
    async fn post(&mut self, path: &str, body: &[u8]) -> usize {
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        self.wr
            .write_all(head.as_bytes())
            .await
            .expect("write head");
        self.wr.write_all(body).await.expect("write body");
        let head = read_head(&mut self.rd)
            .await
            .expect("answer")
            .expect("answer head");
        let mut frames = 0;
        let mut last = 0u8;
        read_body(&mut self.rd, &head, |d| {
            frames += count_frames(d, &mut last);
        })
        .await
        .expect("answer body");
        frames
    }
}

/// Counts `\n\n` pairs, carrying the last byte across pieces.
fn count_frames(d: &[u8], last: &mut u8) -> usize {
    let mut n = 0;
    for &b in d {
        if b == b'\n' && *last == b'\n' {
            n += 1;
            *last = 0;
        } else {
            *last = b;
        }
    }
    n
}

fn chat_body(target: usize) -> Vec<u8> {
    let mut messages = Vec::new();
    let mut size = 0;
    let mut i = 0;
    while size < target {
        let text = format!(
            "message {i}: {}",
            "lorem ipsum dolor sit amet, consectetur ".repeat(12)
        );
        size += text.len() + 60;
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        messages.push(serde_json::json!({"id": format!("m{i}"), "role": role, "content": text}));
        i += 1;
    }
    serde_json::to_vec(&serde_json::json!({
        "threadId": "thread", "runId": "run", "state": {}, "tools": [], "context": [],
        "forwardedProps": {}, "messages": messages,
    }))
    .unwrap()
}

fn media_body(target: usize) -> Vec<u8> {
    let mut raw = vec![0u8; target / 4 * 3];
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for b in raw.iter_mut() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *b = x as u8;
    }
    raw[..8].copy_from_slice(b"\x89PNG\r\n\x1a\n");
    let data = base64::engine::general_purpose::STANDARD.encode(&raw);
    serde_json::to_vec(&serde_json::json!({
        "threadId": "thread", "runId": "run", "state": {}, "tools": [], "context": [],
        "forwardedProps": {}, "messages": [{"id": "u", "role": "user", "content": [
            {"type": "text", "text": "what is in this picture?"},
            {"type": "image", "source": {"type": "data", "value": data, "mimeType": "image/png"}}
        ]}],
    }))
    .unwrap()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn us(d: Duration) -> String {
    format!("{:.0} µs", d.as_secs_f64() * 1e6)
}

/// One request at a time on one connection: the latencies, sorted.
async fn latencies(port: u16, body: &[u8], n: usize) -> Vec<Duration> {
    let mut conn = Conn::open(port).await;
    for _ in 0..(n / 10).max(2) {
        conn.post("/chat", body).await; // warm-up
    }
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        let events = conn.post("/chat", body).await;
        out.push(t.elapsed());
        assert_eq!(events, upstream::CHAT_EVENTS);
    }
    out.sort();
    out
}

/// `conns` connections sending `per_conn` requests each: requests per second.
async fn throughput(port: u16, body: Arc<Vec<u8>>, conns: usize, per_conn: usize) -> f64 {
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..conns {
        let body = body.clone();
        tasks.push(tokio::spawn(async move {
            let mut conn = Conn::open(port).await;
            for _ in 0..per_conn {
                conn.post("/chat", &body).await;
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    (conns * per_conn) as f64 / start.elapsed().as_secs_f64()
}

/// CPU seconds (user + system) a process has used.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = fields.get(11).and_then(|v| v.parse().ok()).unwrap_or(0.0)
        + fields.get(12).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    ticks / 100.0
}

/// (VmRSS, VmHWM) in KiB.
fn memory_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

async fn all(quick: bool, only: Option<&str>) {
    let (_up, up_port) = start_upstream();
    let run = |what: &str| only.is_none_or(|o| o == what);
    println!("| measure | direct to upstream | through agui-gateway | gateway adds |");
    println!("|---|---|---|---|");
    if run("latency") {
        let (gw, gw_port) = start_gateway(up_port, &[]);
        let gw_pid = gw.0.id();
        for (name, body, n, per_conn) in [
            (
                "100 KB chat body",
                chat_body(100_000),
                if quick { 300 } else { 3000 },
                if quick { 40 } else { 400 },
            ),
            (
                "8 MB media body",
                media_body(8_000_000),
                if quick { 10 } else { 60 },
                if quick { 2 } else { 8 },
            ),
        ] {
            let direct = latencies(up_port, &body, n).await;
            let via = latencies(gw_port, &body, n).await;
            for (label, p) in [("p50", 0.5), ("p99", 0.99)] {
                let (d, v) = (percentile(&direct, p), percentile(&via, p));
                println!(
                    "| {name}, latency {label} ({n} sequential requests) | {} | {} | {} |",
                    us(d),
                    us(v),
                    us(v.saturating_sub(d))
                );
            }
            let body = Arc::new(body);
            let d = throughput(up_port, body.clone(), 8, per_conn).await;
            let cpu0 = cpu_seconds(gw_pid);
            let v = throughput(gw_port, body.clone(), 8, per_conn).await;
            let cpu = cpu_seconds(gw_pid) - cpu0;
            println!(
                "| {name}, requests/s (8 connections × {per_conn}) | {d:.0} | {v:.0} | {:.0}% of direct; **{:.0} µs of gateway CPU per request** |",
                v / d * 100.0,
                cpu * 1e6 / (8 * per_conn) as f64
            );
        }
    }
    if run("events") {
        let (gw, gw_port) = start_gateway(up_port, &[]);
        let pid = gw.0.id();
        for (label, n, per) in [
            (
                "many events per chunk (512)",
                if quick { 200_000 } else { 2_000_000 },
                512,
            ),
            (
                "one event per chunk",
                if quick { 50_000 } else { 400_000 },
                1,
            ),
        ] {
            let mut conn = Conn::open(gw_port).await;
            conn.post(
                "/events?n=1000&per=64",
                b"{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[]}",
            )
            .await;
            let cpu0 = cpu_seconds(pid);
            let t = Instant::now();
            let frames = conn
                .post(
                    &format!("/events?n={n}&per={per}"),
                    b"{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[]}",
                )
                .await;
            let wall = t.elapsed().as_secs_f64();
            let cpu = (cpu_seconds(pid) - cpu0).max(0.01);
            assert_eq!(frames, n + upstream::FRAME_EVENTS, "every event relayed");
            println!(
                "| events relayed, {label}: {n} events | — | {:.0} events/s wall, {:.2} s gateway CPU | **{:.0} events/s per core** |",
                frames as f64 / wall,
                cpu,
                frames as f64 / cpu
            );
        }
    }
    if run("idle") {
        for streams in [1_000usize, 9_900] {
            if quick && streams > 1_000 {
                break;
            }
            let (gw, gw_port) = start_gateway(up_port, &[]);
            let pid = gw.0.id();
            let body = b"{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[]}";
            // Warm the gateway (its threads, pools) before the baseline.
            let mut warm = Conn::open(gw_port).await;
            warm.post("/chat", body).await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            let (base, _) = memory_kib(pid);
            let mut open = Vec::with_capacity(streams);
            for batch in 0..streams.div_ceil(250) {
                let mut tasks = Vec::new();
                for _ in 0..250.min(streams - batch * 250) {
                    tasks.push(tokio::spawn(async move {
                        let s = TcpStream::connect(("127.0.0.1", gw_port)).await.expect("connect");
                        let (rd, mut wr) = s.into_split();
                        let head = format!(
                            "POST /idle HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                            body.len()
                        );
                        wr.write_all(head.as_bytes()).await.unwrap();
                        wr.write_all(body).await.unwrap();
                        let mut rd = BufReader::with_capacity(512, rd);
                        let mut line = String::new();
                        // Read up to the first event's data line: the stream is open.
                        loop {
                            line.clear();
                            let n = rd.read_line(&mut line).await.expect("read");
                            assert!(n > 0, "stream closed");
                            if line.starts_with("data:") {
                                break;
                            }
                        }
                        (rd, wr)
                    }));
                }
                for t in tasks {
                    open.push(t.await.unwrap());
                }
            }
            // Long enough for the gateway to hand the streams off (--handoff-after-ms, 1 s) and
            // give the freed memory back (one second later).
            tokio::time::sleep(Duration::from_millis(3000)).await;
            let (rss, hwm) = memory_kib(pid);
            let per = (rss.saturating_sub(base)) as f64 * 1024.0 / streams as f64;
            println!(
                "| gateway memory, {streams} open idle event streams | — | RSS {} MiB (peak {} MiB, {} MiB before) | **{:.1} KiB per stream** |",
                rss / 1024,
                hwm / 1024,
                base / 1024,
                per / 1024.0
            );
            drop(open);
            drop(gw);
        }
    }
}
