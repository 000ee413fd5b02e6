//! One workload run a fixed number of times, for instruction counts under callgrind (exact and
//! repeatable on a loaded machine, unlike wall time). The work is inside one function,
//! `measured`, so callgrind can count it alone:
//!
//! ```text
//! cargo bench --bench icount --no-run
//! AGUI_ICOUNT=chat valgrind --tool=callgrind --collect-atstart=no \
//!     --toggle-collect='*icount*measured*' target/release/deps/icount-<hash>
//! ```
//!
//! `AGUI_ICOUNT` picks the workload: `chat` (`RunAgentInput::parse` of `chat_heavy/1000`),
//! `chat_decode` (the same plus unescaping every text and arguments string into the arena),
//! `chat_py` and `chat_py_decode` (the same for `chat_heavy_py/1000`, every character outside
//! ASCII a `\uXXXX` escape), `chat_sorted` and `chat_sorted_decode`
//! (`chat_heavy_sorted/1000`), `chat_sonic`, `chat_py_sonic` and `chat_sorted_sonic` (the
//! fastest typed peer on the SDKs' key order, sonic-rs into the parse bench's borrowed model,
//! on the same documents: timed side by side with ours by `benches/abtime.sh`), `chat_simd`,
//! `chat_py_simd` and `chat_sorted_simd` (simd-json into the owned model, with the copy it
//! needs: the fastest typed peer on sorted keys), `state`
//! (`state_heavy/1MB`), `state_serde` and `state_sonic` (the same document into the parse
//! bench's borrowed model, `state` and `forwardedProps` left raw: serde_json's `&RawValue`,
//! the state target's peer, and sonic-rs's `LazyValue`), `media` (`media_heavy/1MB`), `events`
//! (20 000 SSE frames of the events bench, `SseDecoder` + `EventSlot::parse`, the arena reset
//! after each), `events_sorted` (the same frames with their keys sorted, `type` last),
//! `events_sonic` and `events_sorted_sonic` (the events target's peer on those frames: sonic-rs
//! into a `Value` per `data:` line, its `type` read, as the events bench's `sonic-rs Value`),
//! `events_by_value` (the same as `events` with `Event::parse`, the event moved out of its
//! `Result`, as `events` was measured up to the fourth pass), `proto_up` (`SseToProto` over
//! 5 000 events of the proto bench, as SSE), `proto_down` (`ProtoToSse` over the same events as
//! protobuf frames), `proto_view`
//! (`FrameDecoder` + `ProtoEvent::decode` of those frames, for scale).
//!
//! `AGUI_ICOUNT_RUNS` (default 1) repeats it. `AGUI_ICOUNT_DOCS=N` (default 1) takes N documents
//! of the workload's shape in turn, one a run (other seeds, for the chat and event workloads;
//! the others have one): timing a loop of runs of one document lets the branch predictor learn
//! it, which the parse bench's eight documents avoid too. The program prints the bytes and
//! items per run, to divide by, and the wall time per run (of little worth under callgrind;
//! without it, what `benches/abtime.sh` compares two builds by on a noisy machine).

#[allow(dead_code)]
mod common;
#[path = "proto_peers/corpus.rs"]
mod proto_corpus;

use std::hint::black_box;

use agui_wire::proto::{
    DecodeOptions, EncodeOptions, FrameDecoder, ProtoEvent, ProtoToSse, SseToProto,
};
use agui_wire::sse::{SseDecoder, SseOptions};
use agui_wire::{Bump, Event, RunAgentInput};
use common::corpus::{self, Dialect};

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

/// The counted call (callgrind toggles collection on entering it).
#[inline(never)]
fn measured(work: &str, inputs: &[Vec<u8>], arena: &mut Bump, runs: usize) -> usize {
    // Several documents in turn, so that the branch predictor cannot learn one (see the parse
    // bench's eight documents).
    inputs
        .iter()
        .cycle()
        .take(runs)
        .map(|input| run(work, input, arena))
        .sum()
}

/// One run of `work` over `input`: the items it counted.
#[inline(never)]
fn run(work: &str, input: &[u8], arena: &mut Bump) -> usize {
    let mut n = 0;
    arena.reset();
    match work {
        "events" | "events_sorted" => {
            n += common::event_stream::each_event(input, arena, |ev| {
                black_box(ev);
            });
        }
        "events_sonic" | "events_sorted_sonic" => {
            // As the events bench's `sonic-rs Value`: each `data:` line into a `Value`,
            // its `type` read.
            use sonic_rs::JsonValueTrait;
            for line in common::event_stream::data_lines(input) {
                let v: sonic_rs::Value = sonic_rs::from_slice(black_box(line)).expect("JSON");
                black_box(v.get("type").and_then(|t| t.as_str()).expect("a type"));
                n += 1;
            }
        }
        "events_by_value" => {
            let mut decoder = SseDecoder::new(SseOptions::default());
            let mut feed = decoder.feed(input);
            while let Some(frame) = feed.next() {
                let frame = frame.expect("SSE frame");
                let ev = Event::parse(frame.data, arena).expect("event");
                black_box(&ev);
                drop(ev);
                n += 1;
                arena.reset();
            }
        }
        "proto_up" => {
            let mut out = Vec::with_capacity(input.len());
            let mut t = SseToProto::new(EncodeOptions::default());
            for chunk in input.chunks(64 << 10) {
                t.feed(chunk, &mut out).expect("SSE to proto");
            }
            t.finish(&mut out).expect("SSE to proto");
            n += t.events() as usize;
            black_box(&out);
        }
        "proto_down" => {
            let mut out = Vec::with_capacity(input.len() * 2);
            let mut t = ProtoToSse::new(DecodeOptions::default());
            for chunk in input.chunks(64 << 10) {
                t.feed(chunk, &mut out).expect("proto to SSE");
            }
            t.finish().expect("proto to SSE");
            n += t.events() as usize;
            black_box(&out);
        }
        "proto_view" => {
            let mut frames = FrameDecoder::new(DecodeOptions::default());
            for chunk in input.chunks(64 << 10) {
                let mut feed = frames.feed(chunk);
                while let Some(frame) = feed.next() {
                    let ev = ProtoEvent::decode(frame.expect("frame")).expect("event");
                    black_box(ev.event_type());
                    n += 1;
                }
            }
        }
        "chat_sonic" | "chat_py_sonic" | "chat_sorted_sonic" | "state_sonic" => {
            let r = common::peers::borrowed::sonic_lazy::parse(black_box(input)).expect("sonic-rs");
            n += r.messages.len();
            black_box(&r);
        }
        "state_serde" => {
            let r = common::peers::borrowed::serde_json_raw::parse(black_box(input))
                .expect("serde_json");
            n += r.messages.len();
            black_box(&r);
        }
        "chat_simd" | "chat_py_simd" | "chat_sorted_simd" => {
            // As the parse bench's `simd_json_owned`: simd-json rewrites its input, so it
            // parses a copy (a memcpy of 0.4 MB: about 18 µs at the parse bench's
            // `limit_memcpy` rate of 24 GB/s, against its 1.2 ms a parse here).
            let mut copy = black_box(input).to_vec();
            let r = common::peers::simd_owned(&mut copy).expect("simd-json");
            n += r.messages.len();
            black_box(&r);
        }
        "chat_decode" | "chat_py_decode" | "chat_sorted_decode" => {
            let r = RunAgentInput::parse(black_box(input), arena).expect("parse");
            n += common::peers::agui_wire::decode_all(&r, arena);
            black_box(&r);
        }
        _ => {
            let r = RunAgentInput::parse(black_box(input), arena).expect("parse");
            n += r.messages.len();
            black_box(&r);
        }
    }
    n
}

fn main() {
    common::warm_allocator();
    let work = std::env::var("AGUI_ICOUNT").unwrap_or_else(|_| "chat".into());
    let runs: usize = std::env::var("AGUI_ICOUNT_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let docs: u64 = std::env::var("AGUI_ICOUNT_DOCS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
        .max(1);
    let inputs: Vec<Vec<u8>> = (0..docs).map(|v| input_of(&work, v)).collect();
    let mut arena = Bump::new();
    // One run of each first so the arena has grown to its working size (a proxy reuses it).
    for input in &inputs {
        run(&work, input, &mut arena);
    }
    let started = std::time::Instant::now();
    let n = measured(&work, &inputs, &mut arena, runs);
    let took = started.elapsed();
    let bytes = inputs.iter().map(Vec::len).sum::<usize>() / inputs.len();
    println!(
        "{work}: {bytes} bytes, {} items per run, {runs} runs, {:.2} us per run",
        n / runs.max(1),
        took.as_secs_f64() * 1e6 / runs.max(1) as f64
    );
}

/// Document `variant` (another seed, the same shape; 0 is the one every figure before the
/// sixteenth pass used) of workload `work`.
fn input_of(work: &str, variant: u64) -> Vec<u8> {
    match work {
        "chat" | "chat_decode" | "chat_sonic" | "chat_simd" => {
            corpus::chat_heavy_variant(1_000, Dialect::Modern, variant).bytes
        }
        "chat_py" | "chat_py_decode" | "chat_py_sonic" | "chat_py_simd" => {
            corpus::chat_heavy_python(1_000, variant).bytes
        }
        "chat_sorted" | "chat_sorted_decode" | "chat_sorted_sonic" | "chat_sorted_simd" => {
            corpus::chat_heavy_sorted(1_000, variant).bytes
        }
        "state" | "state_serde" | "state_sonic" => corpus::state_heavy(1).bytes,
        "media" => corpus::media_heavy(1).bytes,
        "events" | "events_by_value" | "events_sonic" => {
            common::event_stream::gen_stream(20_000, 0x5EED_A6E1_0000_0008 ^ variant << 32).bytes
        }
        "events_sorted" | "events_sorted_sonic" => common::event_stream::sorted_stream(
            &common::event_stream::gen_stream(20_000, 0x5EED_A6E1_0000_0008 ^ variant << 32).bytes,
        ),
        "proto_up" => proto_corpus::streams(&proto_corpus::corpus(), 5_000).0,
        "proto_down" | "proto_view" => proto_corpus::streams(&proto_corpus::corpus(), 5_000).1,
        other => panic!("unknown AGUI_ICOUNT={other}"),
    }
}
