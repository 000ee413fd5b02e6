//! One-shot parsing against chunk-fed parsing of `RunAgentInput` bodies.
//!
//! Three shapes: media-heavy (one long base64 string), chat-heavy (many small messages) and
//! state-heavy (one large nested raw `state`); and issue 12's two hostile shapes (megabytes of
//! whitespace between two top-level fields, one number of millions of digits in `state`). Each is parsed once whole and once fed in 4 KiB
//! chunks; criterion reports both as bytes per second, so their ratio is the cost of streaming.
//! `collect-4KiB-then-parse` is what a server without streaming does (collect the chunks in a
//! `Vec`, then parse): the fair baseline for feeding, which also copies every chunk once.
//!
//! `AGUI_STREAM_RATIO=1 cargo bench --bench stream` prints a table of best-of-N times and the
//! ratios instead (`AGUI_STREAM_RUNS=n`, `AGUI_STREAM_ONLY=chat`); with
//! `AGUI_STREAM_VARIANT=one-shot|fed|owned|copy` it runs only one variant, for a profiler or for
//! instruction counts under `valgrind --tool=callgrind` (`AGUI_STREAM_RUNS=0` gives the cost of
//! building the documents, to subtract).

use agui_wire::stream::{BodyBuf, BodyParser, OwnedBodyParser, Status};
use agui_wire::{Bump, RunAgentInput};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use std::hint::black_box;

/// One user message carrying an image of `len` base64 bytes.
pub fn media_doc(len: usize) -> Vec<u8> {
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut doc = br#"{"threadId":"thread-1","runId":"run-1","state":{},"messages":[{"id":"msg-1","role":"user","content":[{"type":"text","text":"What is in this picture?"},{"type":"image","source":{"type":"data","value":""#.to_vec();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    doc.extend((0..len).map(|_| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        alphabet[(x % 64) as usize]
    }));
    doc.extend_from_slice(
        br#"","mimeType":"image/png"}}]}],"tools":[],"context":[],"forwardedProps":{}}"#,
    );
    doc
}

/// `n` messages of every common role, with tool calls and short to medium texts.
pub fn chat_doc(n: usize) -> Vec<u8> {
    let mut doc = br#"{"threadId":"thread-1","runId":"run-1","messages":["#.to_vec();
    for i in 0..n {
        if i > 0 {
            doc.push(b',');
        }
        let text = "The quick brown fox jumps over the lazy dog. ".repeat(1 + i % 5);
        let m = match i % 4 {
            0 => format!(r#"{{"id":"msg-{i}","role":"user","content":"{text}"}}"#),
            1 => format!(
                r#"{{"id":"msg-{i}","role":"assistant","content":"{text}","toolCalls":[{{"id":"call-{i}","type":"function","function":{{"name":"lookup","arguments":"{{\"q\":\"fox {i}\"}}"}}}}]}}"#
            ),
            2 => format!(
                r#"{{"id":"msg-{i}","role":"tool","toolCallId":"call-{}","content":"{text}"}}"#,
                i - 1
            ),
            _ => format!(
                r#"{{"id":"msg-{i}","role":"user","content":[{{"type":"text","text":"{text}"}}],"metadata":{{"n":{i}}}}}"#
            ),
        };
        doc.extend_from_slice(m.as_bytes());
    }
    doc.extend_from_slice(br#"],"tools":[{"name":"lookup","description":"Look it up","parameters":{"type":"object"}}],"context":[]}"#);
    doc
}

/// A nested raw `state` of about `len` bytes.
pub fn state_doc(len: usize) -> Vec<u8> {
    let mut doc = br#"{"threadId":"thread-1","runId":"run-1","state":{"items":["#.to_vec();
    let mut i = 0;
    while doc.len() < len {
        if i > 0 {
            doc.push(b',');
        }
        doc.extend_from_slice(
            format!(
                r#"{{"id":{i},"name":"item-{i}","tags":["a","bb","ccc"],"score":{}.25,"nested":{{"ok":true,"v":[1,2,{{"deep":null}}]}}}}"#,
                i % 1000
            )
            .as_bytes(),
        );
        i += 1;
    }
    doc.extend_from_slice(br#"]},"messages":[{"id":"m","role":"user","content":"hi"}]}"#);
    doc
}

/// Issue 12's first hostile shape: `len` bytes of whitespace between two top-level fields.
pub fn ws_doc(len: usize) -> Vec<u8> {
    let mut doc = br#"{"threadId":"thread-1","#.to_vec();
    doc.extend(b" \n\t\r".iter().cycle().take(len));
    doc.extend_from_slice(br#""runId":"run-1","messages":[]}"#);
    doc
}

/// Issue 12's second hostile shape: one number of `len` digits as the `state`.
pub fn number_doc(len: usize) -> Vec<u8> {
    let mut doc =
        br#"{"threadId":"thread-1","runId":"run-1","messages":[],"state":{"n":1"#.to_vec();
    doc.extend(b"0123456789".iter().cycle().take(len));
    doc.extend_from_slice(b"}}");
    doc
}

fn shapes() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("media-8MB", media_doc(8 << 20)),
        ("media-64MB", media_doc(64 << 20)),
        ("chat-2000", chat_doc(2000)),
        ("chat-20000", chat_doc(20_000)),
        ("state-1MB", state_doc(1 << 20)),
        ("state-16MB", state_doc(16 << 20)),
        ("whitespace-2.5MB", ws_doc(2_500_000)),
        ("whitespace-10MB", ws_doc(10_000_000)),
        ("number-2.5MB", number_doc(2_500_000)),
        ("number-10MB", number_doc(10_000_000)),
    ]
}

fn one_shot(c: &mut Criterion) {
    let mut g = c.benchmark_group("one-shot");
    g.sample_size(10);
    for (name, doc) in shapes() {
        let mut arena = Bump::new();
        g.throughput(Throughput::Bytes(doc.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), &doc, |b, doc| {
            b.iter(|| {
                arena.reset();
                let input = RunAgentInput::parse(black_box(doc), &arena).unwrap();
                black_box(input.messages.len());
            })
        });
    }
    g.finish();
}

const CHUNK: usize = 4096;

/// What a server without streaming does: collect the chunks into a `Vec`, then parse.
fn collect_then_parse(c: &mut Criterion) {
    let mut g = c.benchmark_group("collect-4KiB-then-parse");
    g.sample_size(10);
    for (name, doc) in shapes() {
        let mut arena = Bump::new();
        let mut body = Vec::new();
        g.throughput(Throughput::Bytes(doc.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), &doc, |b, doc| {
            b.iter(|| {
                arena.reset();
                body.clear();
                for chunk in doc.chunks(CHUNK) {
                    body.extend_from_slice(black_box(chunk));
                }
                let input = RunAgentInput::parse(&body, &arena).unwrap();
                black_box(input.messages.len());
            })
        });
    }
    g.finish();
}

/// The streaming parser fed 4 KiB chunks, into a reused buffer (as a server reuses one per
/// connection) and told the length to expect (as a server knows it from `Content-Length`);
/// `fresh` starts from an empty buffer with no size hint every time.
fn fed(c: &mut Criterion) {
    for fresh in [false, true] {
        let group = if fresh {
            "fed-4KiB-no-size-hint"
        } else {
            "fed-4KiB"
        };
        let mut g = c.benchmark_group(group);
        g.sample_size(10);
        for (name, doc) in shapes() {
            let mut arena = Bump::new();
            let mut buf = BodyBuf::with_capacity(doc.len());
            // Same answer as one-shot, checked once outside the timing.
            {
                let one = Bump::new();
                let want = format!("{:?}", RunAgentInput::parse(&doc, &one).unwrap());
                let mut p = BodyParser::new(&buf, &arena);
                for chunk in doc.chunks(CHUNK) {
                    p.feed(chunk).unwrap();
                }
                assert_eq!(format!("{:?}", p.finish().unwrap()), want);
            }
            g.throughput(Throughput::Bytes(doc.len() as u64));
            g.bench_with_input(BenchmarkId::from_parameter(name), &doc, |b, doc| {
                b.iter(|| {
                    arena.reset();
                    if fresh {
                        buf = BodyBuf::new();
                    } else {
                        buf.clear();
                    }
                    let mut p = BodyParser::new(&buf, &arena);
                    if !fresh {
                        p.expect_len(doc.len());
                    }
                    let mut status = Status::Partial;
                    for chunk in doc.chunks(CHUNK) {
                        status = p.feed(black_box(chunk)).unwrap();
                    }
                    assert!(status.is_complete());
                    let input = p.finish().unwrap();
                    black_box(input.messages.len());
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, one_shot, collect_then_parse, fed);

/// Best of `runs` timings of `f`, in seconds (the minimum is what a noisy shared machine
/// distorts least).
fn best(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let t = std::time::Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// `AGUI_STREAM_RATIO=1 cargo bench --bench stream`: a table of best-of-N times and the
/// ratio fed / one-shot per shape, instead of the criterion run.
fn ratios() {
    let runs: usize = std::env::var("AGUI_STREAM_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(15);
    let only = std::env::var("AGUI_STREAM_ONLY").unwrap_or_default();
    println!(
        "| shape | bytes | one-shot | collect 4 KiB + one-shot | copy 4 KiB chunks into a BodyBuf | fed 4 KiB | fed / one-shot | fed / collect | (fed - copy) / one-shot |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (name, doc) in shapes() {
        if !name.contains(only.as_str()) {
            continue;
        }
        let mut arena = Bump::new();
        let mut body = Vec::new();
        let mut buf = BodyBuf::with_capacity(doc.len());
        let (mut t1, mut t2, mut t3) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
        let mut t0 = f64::INFINITY;
        // `AGUI_STREAM_VARIANT=one-shot|fed|owned|copy` runs only that one (for profilers and
        // instruction counts: `valgrind --tool=callgrind`).
        let variant = std::env::var("AGUI_STREAM_VARIANT").unwrap_or_default();
        if !variant.is_empty() {
            for _ in 0..runs {
                arena.reset();
                if variant == "copy" {
                    buf.clear();
                    for chunk in doc.chunks(CHUNK) {
                        buf.extend_from_slice(black_box(chunk));
                    }
                    black_box(buf.len());
                } else if variant == "owned" {
                    let mut p = OwnedBodyParser::with_capacity(Default::default(), doc.len());
                    for chunk in doc.chunks(CHUNK) {
                        p.feed(black_box(chunk)).unwrap();
                    }
                    black_box(p.finish().unwrap());
                } else if variant == "fed" {
                    buf.clear();
                    let mut p = BodyParser::new(&buf, &arena);
                    p.expect_len(doc.len());
                    for chunk in doc.chunks(CHUNK) {
                        p.feed(black_box(chunk)).unwrap();
                    }
                    black_box(p.finish().unwrap());
                } else {
                    black_box(RunAgentInput::parse(black_box(&doc), &arena).unwrap());
                }
            }
            continue;
        }
        // Interleaved, so that a burst of load elsewhere hits all three alike.
        for _ in 0..runs {
            t1 = t1.min(best(1, || {
                arena.reset();
                black_box(RunAgentInput::parse(black_box(&doc), &arena).unwrap());
            }));
            t2 = t2.min(best(1, || {
                arena.reset();
                body.clear();
                for chunk in doc.chunks(CHUNK) {
                    body.extend_from_slice(black_box(chunk));
                }
                black_box(RunAgentInput::parse(&body, &arena).unwrap());
            }));
            t0 = t0.min(best(1, || {
                buf.clear();
                for chunk in doc.chunks(CHUNK) {
                    buf.extend_from_slice(black_box(chunk));
                }
                black_box(buf.len());
            }));
            t3 = t3.min(best(1, || {
                arena.reset();
                buf.clear();
                let mut p = BodyParser::new(&buf, &arena);
                p.expect_len(doc.len());
                for chunk in doc.chunks(CHUNK) {
                    p.feed(black_box(chunk)).unwrap();
                }
                black_box(p.finish().unwrap());
            }));
        }
        println!(
            "| {name} | {} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} | {:.2} | {:.2} |",
            doc.len(),
            t1 * 1e3,
            t2 * 1e3,
            t0 * 1e3,
            t3 * 1e3,
            t3 / t1,
            t3 / t2,
            (t3 - t0) / t1
        );
    }
}

fn main() {
    if std::env::var_os("AGUI_STREAM_RATIO").is_some() {
        ratios();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
