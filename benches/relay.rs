//! Events per second through the event relay (`agui_wire::relay::Relay`), per core.
//!
//! A run of `EVENTS` token events (`TEXT_MESSAGE_CONTENT` with a short delta, as an LLM streams
//! them) between `RUN_STARTED`/`TEXT_MESSAGE_START` and `TEXT_MESSAGE_END`/`RUN_FINISHED`, fed
//! two ways: many events per chunk (16 KiB chunks, cut anywhere, as a fast upstream's writes
//! arrive) and one event per chunk (an upstream that flushes every token). Each is run with the
//! default options (every event checked, frames forwarded as slices of their chunk) and with
//! cursors and RAW redaction on. Every run checks the relay's counters.
//!
//! The issue's targets: 1 000 000 events/s per core with many events per chunk, 100 000 with
//! one event per chunk.
//!
//! `AGUI_RELAY_TABLE=1 cargo bench --bench relay` prints a table of best-of-N events per second
//! instead of the criterion run (`AGUI_RELAY_RUNS=n`, `AGUI_RELAY_ONLY=<shape name part>`).
//! For instruction counts, `valgrind --tool=callgrind` a run with `AGUI_RELAY_RUNS=1` and one
//! with `AGUI_RELAY_RUNS=0` (which only builds the chunks) for one shape, and subtract.

use agui_wire::relay::{RawPolicy, Relay, RelayOptions};
use bytes::Bytes;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use std::hint::black_box;

const EVENTS: usize = 20_000;

/// The stream, one frame per entry.
fn frames() -> Vec<Vec<u8>> {
    let mut frames = vec![
        br#"data: {"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}

"#
        .to_vec(),
        br#"data: {"type":"TEXT_MESSAGE_START","messageId":"msg-1","role":"assistant"}

"#
        .to_vec(),
    ];
    let words = [
        "The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog.",
    ];
    for i in 0..EVENTS {
        frames.push(
            format!(
                "data: {{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"msg-1\",\"delta\":\"{}\"}}\n\n",
                words[i % words.len()]
            )
            .into_bytes(),
        );
    }
    frames.push(
        br#"data: {"type":"TEXT_MESSAGE_END","messageId":"msg-1"}

"#
        .to_vec(),
    );
    frames.push(
        br#"data: {"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1"}

"#
        .to_vec(),
    );
    frames
}

/// The chunks of a shape: `many` (16 KiB cuts) or `one` (a chunk per event).
fn chunks(many: bool) -> Vec<Bytes> {
    let frames = frames();
    let chunks: Vec<Bytes> = if many {
        frames
            .concat()
            .chunks(16 * 1024)
            .map(Bytes::copy_from_slice)
            .collect()
    } else {
        frames.into_iter().map(Bytes::from).collect()
    };
    // Cloned once, so that the timed clones only count references (as hyper's chunks do).
    chunks.iter().for_each(|c| drop(c.clone()));
    chunks
}

fn options(policies: bool) -> RelayOptions {
    if policies {
        RelayOptions::new()
            .with_cursors(true)
            .with_raw(RawPolicy::Redact)
    } else {
        RelayOptions::new()
    }
}

/// Relays the whole stream; returns the bytes written.
fn relay_once(chunks: &[Bytes], options: &RelayOptions, out: &mut Vec<Bytes>) -> usize {
    let mut relay = Relay::new(options.clone());
    let mut written = 0;
    for chunk in chunks {
        relay.feed(black_box(chunk.clone()), out);
        written += out.iter().map(Bytes::len).sum::<usize>();
        out.clear();
    }
    relay.finish(out);
    assert!(relay.fault().is_none(), "{:?}", relay.fault());
    assert_eq!(relay.relayed(), EVENTS as u64 + 4);
    written
}

const SHAPES: [(&str, bool, bool); 4] = [
    ("many-per-chunk", true, false),
    ("many-per-chunk+cursors+redact", true, true),
    ("one-per-chunk", false, false),
    ("one-per-chunk+cursors+redact", false, true),
];

fn relay(c: &mut Criterion) {
    let mut g = c.benchmark_group("relay");
    g.sample_size(10);
    g.throughput(Throughput::Elements(EVENTS as u64 + 4));
    for (name, many, policies) in SHAPES {
        let chunks = chunks(many);
        let options = options(policies);
        let mut out = Vec::new();
        g.bench_with_input(BenchmarkId::from_parameter(name), &chunks, |b, chunks| {
            b.iter(|| black_box(relay_once(chunks, &options, &mut out)));
        });
    }
    g.finish();
}

criterion_group!(benches, relay);

/// `AGUI_RELAY_TABLE=1`: best-of-N events per second per shape.
fn table() {
    let runs: usize = std::env::var("AGUI_RELAY_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let only = std::env::var("AGUI_RELAY_ONLY").unwrap_or_default();
    println!("| shape | events | chunks | best time | events/s |");
    println!("|---|---|---|---|---|");
    for (name, many, policies) in SHAPES {
        if !name.contains(only.as_str()) || (!only.is_empty() && only.contains('+') != policies) {
            continue;
        }
        let chunks = chunks(many);
        let options = options(policies);
        let mut out = Vec::new();
        let mut best = f64::INFINITY;
        for _ in 0..runs {
            let t = std::time::Instant::now();
            black_box(relay_once(&chunks, &options, &mut out));
            best = best.min(t.elapsed().as_secs_f64());
        }
        let events = EVENTS + 4;
        println!(
            "| {name} | {events} | {} | {:.2} ms | {:.0} |",
            chunks.len(),
            best * 1e3,
            events as f64 / best
        );
    }
}

fn main() {
    if std::env::var_os("AGUI_RELAY_TABLE").is_some() {
        table();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
