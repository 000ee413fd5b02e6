//! The protobuf transport (issue 15): decoding with typed access, per event, against `prost`
//! (owned generated types) and against the crate's own SSE JSON path on the same events; and
//! transcoding throughput both ways.
//!
//! The events: every event of the conformance corpus (tests/conformance/events) and of
//! samples/run.sse that the parser accepts (287), repeated to 50 000 events; as SSE and, encoded
//! by `agui_wire::proto`, as protobuf frames. The typed access is the same for every peer:
//! the event's type, and the (unescaped) `delta` of `TEXT_MESSAGE_CONTENT` and
//! `TOOL_CALL_ARGS`, summed.
//!
//! Group `proto_decode` (`Throughput::Elements(events)`):
//! - `agui-wire proto view`: `FrameDecoder` + `ProtoEvent::decode` + `delta()`;
//! - `agui-wire proto to JSON`: the same + `write_json` (the transcoding path's work);
//! - `prost owned`: the same framing + `prost::Message::decode` into owned types + a match;
//! - `agui-wire SSE JSON`: `SseDecoder` + `Event::parse` (one reused arena) + a match.
//!
//! Group `proto_transcode` (`Throughput::Bytes(input length)`): `SseToProto` and `ProtoToSse`
//! over the whole stream in 64 KiB chunks.
//!
//! ```text
//! cargo bench --bench proto
//! AGUI_BENCH_QUICK=1 cargo bench --bench proto   # short runs
//! AGUI_PROTO_DUMP=target/tmp/proto-bench cargo bench --bench proto   # the events, for
//! node benches/proto_peers/ts_peer.cjs target/tmp/proto-bench/events.jsonl  # the TS peer
//! ```

#[path = "proto_peers/prost_events.rs"]
mod prost_events;
#[path = "proto_peers/corpus.rs"]
mod proto_corpus;

use std::hint::black_box;
use std::time::Duration;

use agui_wire::proto::*;
use agui_wire::sse::{SseDecoder, SseOptions};
use agui_wire::{Bump, Event, EventType};
use criterion::{Criterion, SamplingMode, Throughput};
use prost::Message as _;

const EVENTS: usize = 50_000;

/// What every peer computes: events, and the summed length of the deltas.
#[derive(Debug, PartialEq, Eq, Default, Clone, Copy)]
struct Sum {
    events: usize,
    delta_bytes: usize,
}

fn frames(stream: &[u8], mut f: impl FnMut(&[u8])) {
    let mut dec = FrameDecoder::new(DecodeOptions::default());
    for chunk in stream.chunks(64 << 10) {
        let mut feed = dec.feed(chunk);
        while let Some(frame) = feed.next() {
            f(frame.unwrap());
        }
    }
}

fn ours_view(stream: &[u8]) -> Sum {
    let mut s = Sum::default();
    frames(stream, |frame| {
        let ev = ProtoEvent::decode(frame).unwrap();
        if matches!(
            ev.event_type(),
            EventType::TextMessageContent | EventType::ToolCallArgs
        ) {
            s.delta_bytes += ev.delta().unwrap().len();
        }
        s.events += 1;
    });
    s
}

fn ours_json(stream: &[u8], out: &mut Vec<u8>) -> Sum {
    let mut s = Sum::default();
    let opts = DecodeOptions::default();
    frames(stream, |frame| {
        let ev = ProtoEvent::decode(frame).unwrap();
        if matches!(
            ev.event_type(),
            EventType::TextMessageContent | EventType::ToolCallArgs
        ) {
            s.delta_bytes += ev.delta().unwrap().len();
        }
        out.clear();
        ev.write_json(out, &opts).unwrap();
        s.events += 1;
    });
    s
}

fn prost_owned(stream: &[u8]) -> Sum {
    use prost_events::Kind;
    let mut s = Sum::default();
    frames(stream, |frame| {
        let ev = prost_events::Event::decode(frame).unwrap();
        match ev.kind {
            Some(Kind::TextMessageContent(e)) => s.delta_bytes += e.delta.len(),
            Some(Kind::ToolCallArgs(e)) => s.delta_bytes += e.delta.len(),
            Some(_) => {}
            None => panic!("no event"),
        }
        s.events += 1;
    });
    s
}

fn sse_json(stream: &[u8], arena: &mut Bump) -> Sum {
    let mut s = Sum::default();
    let mut dec = SseDecoder::new(SseOptions::default());
    for chunk in stream.chunks(64 << 10) {
        let mut feed = dec.feed(chunk);
        while let Some(f) = feed.next() {
            let f = f.unwrap();
            arena.reset();
            let ev = Event::parse(f.data, arena).unwrap();
            match &ev {
                Event::TextMessageContent(e) => s.delta_bytes += e.delta.unescaped().len(),
                Event::ToolCallArgs(e) => s.delta_bytes += e.delta.unescaped().len(),
                _ => {}
            }
            s.events += 1;
        }
    }
    s
}

fn configure(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, quick: bool) {
    if quick {
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(200))
            .measurement_time(Duration::from_millis(800))
            .sampling_mode(SamplingMode::Flat);
    } else {
        g.sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4))
            .sampling_mode(SamplingMode::Flat);
    }
}

fn main() {
    let quick = std::env::var_os("AGUI_BENCH_QUICK").is_some();
    let mut c = Criterion::default().configure_from_args();
    let events = proto_corpus::corpus();
    let (sse, proto) = proto_corpus::streams(&events, EVENTS);
    if let Some(dir) = std::env::var_os("AGUI_PROTO_DUMP") {
        // The same events for the TypeScript peer (benches/proto_peers/ts_peer.cjs): one JSON
        // text a line, then nothing else is run.
        let mut lines = Vec::new();
        for i in 0..EVENTS {
            lines.extend_from_slice(&events[i % events.len()]);
            lines.push(b'\n');
        }
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("events.jsonl"), lines).unwrap();
        println!("wrote {}", dir.join("events.jsonl").display());
        return;
    }
    println!(
        "\n== proto: {EVENTS} events ({} distinct); SSE {} bytes, protobuf {} bytes",
        events.len(),
        sse.len(),
        proto.len()
    );
    let mut arena = Bump::new();
    let mut out = Vec::new();
    let want = sse_json(&sse, &mut arena);
    assert_eq!(want.events, EVENTS);
    assert_eq!(ours_view(&proto), want, "agui-wire proto view");
    assert_eq!(ours_json(&proto, &mut out), want, "agui-wire proto to JSON");
    assert_eq!(prost_owned(&proto), want, "prost owned");

    let mut g = c.benchmark_group("proto_decode");
    configure(&mut g, quick);
    g.throughput(Throughput::Elements(EVENTS as u64));
    g.bench_function("agui-wire proto view", |b| {
        b.iter(|| black_box(ours_view(black_box(&proto))))
    });
    g.bench_function("agui-wire proto to JSON", |b| {
        b.iter(|| black_box(ours_json(black_box(&proto), &mut out)))
    });
    g.bench_function("prost owned", |b| {
        b.iter(|| black_box(prost_owned(black_box(&proto))))
    });
    g.bench_function("agui-wire SSE JSON", |b| {
        b.iter(|| black_box(sse_json(black_box(&sse), &mut arena)))
    });
    g.finish();

    let mut g = c.benchmark_group("proto_transcode");
    configure(&mut g, quick);
    let mut buf = Vec::with_capacity(sse.len() * 2);
    g.throughput(Throughput::Bytes(sse.len() as u64));
    g.bench_function("SSE to proto", |b| {
        b.iter(|| {
            buf.clear();
            let mut t = SseToProto::new(EncodeOptions::default());
            for chunk in sse.chunks(64 << 10) {
                t.feed(chunk, &mut buf).unwrap();
            }
            t.finish(&mut buf).unwrap();
            black_box(buf.len())
        })
    });
    g.throughput(Throughput::Bytes(proto.len() as u64));
    g.bench_function("proto to SSE", |b| {
        b.iter(|| {
            buf.clear();
            let mut t = ProtoToSse::new(DecodeOptions::default());
            for chunk in proto.chunks(64 << 10) {
                t.feed(chunk, &mut buf).unwrap();
            }
            t.finish().unwrap();
            black_box(buf.len())
        })
    });
    g.finish();
    c.final_summary();
}
