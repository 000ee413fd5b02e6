//! Event stream throughput (issue 8): an SSE stream of 100 000 typical AG-UI events, decoded
//! and parsed frame by frame, against the parsers a proxy would pick instead; and the reducer
//! over the same events.
//!
//! The stream is generated here, deterministically (seeded xorshift): `RUN_STARTED`, a
//! `STATE_SNAPSHOT`, then turns of `TEXT_MESSAGE_START` / many `TEXT_MESSAGE_CONTENT` (deltas
//! with escapes and non-ASCII text) / `TEXT_MESSAGE_END`, tool calls (`TOOL_CALL_START`,
//! `TOOL_CALL_ARGS` whose deltas are fragments of JSON arguments, `TOOL_CALL_END`,
//! `TOOL_CALL_RESULT`) and `STATE_DELTA` patches, and `RUN_FINISHED`. Every frame is
//! `data: <json>\n\n`, as the SDK encoders write them.
//!
//! Group `events_sse` (`Throughput::Bytes(stream length)`):
//! - `agui-wire`: [`agui_wire::sse::SseDecoder`] over the stream,
//!   [`agui_wire::EventSlot::parse`] on each frame (the event built where it stays), one arena
//!   reused and reset after each event;
//! - `agui-wire (Event::parse)`: the same with [`agui_wire::Event::parse`], the event returned
//!   by value;
//! - `serde_json Value`: a line-based SSE split (`data: ` lines), `serde_json::from_slice` into
//!   a `serde_json::Value` per frame;
//! - `serde_json borrowed typed`: the same split, `serde_json::from_slice` into a borrowed
//!   struct (`Cow<str>` strings, `&RawValue` for JSON-valued fields) whose `type` is then
//!   matched into a typed enum. (`#[serde(tag = "type")]` on the enum itself cannot hold a
//!   `&RawValue`: serde buffers an internally tagged enum's fields into its private `Content`
//!   first, which a `RawValue` cannot be read from; so the tag is dispatched by hand, in the
//!   same single pass.)
//! - `sonic-rs Value`: the same split, `sonic_rs::from_slice` into a `sonic_rs::Value` per frame;
//! - `sonic-rs borrowed typed`: the same split, `sonic_rs::from_slice` into the borrowed
//!   struct with `sonic_rs::LazyValue` for the JSON-valued fields, matched into the typed enum;
//! - `simd-json Value` / `simd-json borrowed typed`: the same split, each frame copied into a
//!   reused buffer (simd-json parses in place) and read with reused `simd_json::Buffers` into
//!   its borrowed `Value`, or into the borrowed struct (`BorrowedValue` for the JSON-valued
//!   fields, since it has no raw type), matched into the typed enum;
//! - `ag-ui typed`: the same split, `serde_json::from_slice` into the `ag-ui` crate's typed
//!   `Event` (0.5.0-alpha.3, owned);
//! - `memchr frames`: a `memchr::memmem` scan for the `\n\n` frame separators, the limit.
//!
//! Group `events_sse_uuid`: the same stream with thread, run and message ids spelled as UUIDs
//! (the text is the same; the ids are longer), for `ag-ui-core` (the AG-UI project's crate,
//! whose typed `Event` reads no other id), beside agui-wire and sonic-rs `Value`.
//!
//! Group `events_sse_sorted`: the same stream with every object's keys in alphabetical order
//! (each frame rewritten through serde_json's `Value`, as servers that build events as maps
//! write them: Go's `encoding/json`, serde_json's `json!`, Python's `sort_keys=True`), so an
//! event's `type` mostly comes last; agui-wire and sonic-rs `Value` on the same bytes.
//!
//! Group `events_reduce`: `agui-wire` decode + parse + `Reducer::apply` on each event, against
//! decode + parse alone.
//!
//! Before each group, each peer's result is checked (event counts) and its allocations per
//! stream are printed.
//!
//! ```text
//! cargo bench --bench events
//! AGUI_BENCH_QUICK=1 cargo bench --bench events   # short runs
//! ```

#[allow(dead_code)]
mod common;

use std::borrow::Cow;
use std::hint::black_box;
use std::time::Duration;

use agui_wire::reducer::Reducer;
use agui_wire::sse::{SseDecoder, SseOptions};
use agui_wire::{Bump, Event, WriteJson};
use common::alloc;
use common::event_stream::{Counts, Ids, data_lines, each_event, gen_stream, gen_stream_with};
use criterion::{Criterion, SamplingMode, Throughput};
use serde::Deserialize;
use serde_json::value::RawValue;

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

/// Events in the generated stream.
const EVENTS: usize = 100_000;

// ------------------------------------------------------------------------------------------
// Peers
// ------------------------------------------------------------------------------------------

fn tally(c: &mut Counts, name: &str) {
    c.events += 1;
    match name {
        "TEXT_MESSAGE_CONTENT" => c.text_content += 1,
        "TOOL_CALL_ARGS" => c.tool_args += 1,
        "STATE_DELTA" => c.state_deltas += 1,
        _ => {}
    }
}

/// agui-wire: SSE decoder + `EventSlot::parse` (the event built where it stays), the arena
/// reset after each event.
fn ours(input: &[u8], arena: &mut Bump) -> Counts {
    let mut c = Counts::default();
    each_event(input, arena, |ev| tally(&mut c, &ev.type_name()));
    c
}

/// agui-wire: SSE decoder + `Event::parse` (the event returned by value), the arena reset
/// after each event.
fn ours_by_value(input: &[u8], arena: &mut Bump) -> Counts {
    let mut c = Counts::default();
    let mut decoder = SseDecoder::new(SseOptions::default());
    let mut feed = decoder.feed(input);
    while let Some(frame) = feed.next() {
        let frame = frame.expect("SSE frame");
        {
            let ev = Event::parse(frame.data, arena).expect("event");
            tally(&mut c, &ev.type_name());
        }
        arena.reset();
    }
    drop(feed);
    decoder.finish().expect("stream ends on a frame boundary");
    c
}

/// agui-wire with the reducer: every event applied.
fn ours_reduce(input: &[u8], arena: &mut Bump) -> (Counts, Reducer) {
    let mut c = Counts::default();
    let mut reducer = Reducer::new();
    let mut decoder = SseDecoder::new(SseOptions::default());
    let mut feed = decoder.feed(input);
    while let Some(frame) = feed.next() {
        let frame = frame.expect("SSE frame");
        {
            let ev = Event::parse(frame.data, arena).expect("event");
            tally(&mut c, &ev.type_name());
            reducer.apply(&ev).expect("a valid run");
        }
        arena.reset();
    }
    (c, reducer)
}

fn serde_value(input: &[u8]) -> Counts {
    let mut c = Counts::default();
    for line in data_lines(input) {
        let v: serde_json::Value = serde_json::from_slice(line).expect("JSON");
        tally(&mut c, v["type"].as_str().expect("a type"));
    }
    c
}

/// The typed, borrowed event a wire frame becomes (`R`: how the peer holds a JSON-valued
/// field: serde_json's `&RawValue`, sonic-rs's `LazyValue`, simd-json's `BorrowedValue`).
#[allow(dead_code)] // the fields are read by `black_box` only
enum Typed<'a, R> {
    RunStarted {
        thread_id: Cow<'a, str>,
        run_id: Cow<'a, str>,
        timestamp: Option<i64>,
    },
    RunFinished {
        thread_id: Cow<'a, str>,
        run_id: Cow<'a, str>,
        result: Option<R>,
    },
    TextStart {
        message_id: Cow<'a, str>,
        role: Option<Cow<'a, str>>,
    },
    TextContent {
        message_id: Cow<'a, str>,
        delta: Cow<'a, str>,
    },
    TextEnd {
        message_id: Cow<'a, str>,
    },
    ToolStart {
        tool_call_id: Cow<'a, str>,
        tool_call_name: Cow<'a, str>,
        parent_message_id: Option<Cow<'a, str>>,
    },
    ToolArgs {
        tool_call_id: Cow<'a, str>,
        delta: Cow<'a, str>,
    },
    ToolEnd {
        tool_call_id: Cow<'a, str>,
    },
    ToolResult {
        message_id: Cow<'a, str>,
        tool_call_id: Cow<'a, str>,
        content: Cow<'a, str>,
    },
    StateSnapshot(R),
    StateDelta(R),
    Step(Cow<'a, str>),
}

fn need<T>(v: Option<T>, what: &str) -> T {
    v.unwrap_or_else(|| panic!("missing {what}"))
}

/// A JSON-valued field that may hold a string (`delta`), read as that string.
trait AsText<'a> {
    /// The string, unescaped (borrowed when the peer can).
    fn text(self) -> Cow<'a, str>;
}

impl<'a> AsText<'a> for &'a RawValue {
    fn text(self) -> Cow<'a, str> {
        let raw = self.get();
        match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
            Some(body) if !body.contains('\\') => Cow::Borrowed(body),
            _ => Cow::Owned(serde_json::from_str::<String>(raw).expect("a string")),
        }
    }
}

impl<'a> AsText<'a> for sonic_rs::LazyValue<'a> {
    fn text(self) -> Cow<'a, str> {
        let raw = self.as_raw_cow();
        match &raw {
            Cow::Borrowed(r) => match r.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
                Some(body) if !body.contains('\\') => Cow::Borrowed(body),
                _ => Cow::Owned(sonic_rs::from_str::<String>(r).expect("a string")),
            },
            Cow::Owned(r) => Cow::Owned(sonic_rs::from_str::<String>(r).expect("a string")),
        }
    }
}

impl<'a> AsText<'a> for simd_json::BorrowedValue<'a> {
    fn text(self) -> Cow<'a, str> {
        match self {
            // simd-json unescaped the string in its buffer: always borrowed.
            simd_json::BorrowedValue::String(s) => s,
            _ => panic!("a string"),
        }
    }
}

/// A string held in a JSON-valued field, unescaped.
fn raw_str<'a, R: AsText<'a>>(v: Option<R>) -> Cow<'a, str> {
    need(v, "delta").text()
}

/// Every field any of the bench's event types has, `R` holding the JSON-valued ones.
struct Fields<'a, R> {
    ty: Cow<'a, str>,
    message_id: Option<Cow<'a, str>>,
    tool_call_id: Option<Cow<'a, str>>,
    tool_call_name: Option<Cow<'a, str>>,
    parent_message_id: Option<Cow<'a, str>>,
    role: Option<Cow<'a, str>>,
    thread_id: Option<Cow<'a, str>>,
    run_id: Option<Cow<'a, str>>,
    step_name: Option<Cow<'a, str>>,
    delta: Option<R>,
    content: Option<Cow<'a, str>>,
    snapshot: Option<R>,
    result: Option<R>,
    timestamp: Option<i64>,
}

/// One frame read by a serde peer into its own wire struct, with that peer's raw type.
macro_rules! wire_struct {
    ($(#[$doc:meta])* $name:ident, $raw:ty) => {
        $(#[$doc])*
        #[derive(Deserialize)]
        // simd-json's `BorrowedValue<'de>` deserializes only from its own lifetime.
        #[serde(rename_all = "camelCase", bound(deserialize = "'a: 'de"))]
        struct $name<'a> {
            #[serde(rename = "type", borrow)]
            ty: Cow<'a, str>,
            #[serde(borrow)]
            message_id: Option<Cow<'a, str>>,
            #[serde(borrow)]
            tool_call_id: Option<Cow<'a, str>>,
            #[serde(borrow)]
            tool_call_name: Option<Cow<'a, str>>,
            #[serde(borrow)]
            parent_message_id: Option<Cow<'a, str>>,
            #[serde(borrow)]
            role: Option<Cow<'a, str>>,
            #[serde(borrow)]
            thread_id: Option<Cow<'a, str>>,
            #[serde(borrow)]
            run_id: Option<Cow<'a, str>>,
            #[serde(borrow)]
            step_name: Option<Cow<'a, str>>,
            /// A string (text, tool args) or a JSON Patch (STATE_DELTA).
            #[serde(borrow = "'a")]
            delta: Option<$raw>,
            #[serde(borrow)]
            content: Option<Cow<'a, str>>,
            #[serde(borrow = "'a")]
            snapshot: Option<$raw>,
            #[serde(borrow = "'a")]
            result: Option<$raw>,
            timestamp: Option<i64>,
        }

        impl<'a> From<$name<'a>> for Fields<'a, $raw> {
            fn from(w: $name<'a>) -> Self {
                Fields {
                    ty: w.ty,
                    message_id: w.message_id,
                    tool_call_id: w.tool_call_id,
                    tool_call_name: w.tool_call_name,
                    parent_message_id: w.parent_message_id,
                    role: w.role,
                    thread_id: w.thread_id,
                    run_id: w.run_id,
                    step_name: w.step_name,
                    delta: w.delta,
                    content: w.content,
                    snapshot: w.snapshot,
                    result: w.result,
                    timestamp: w.timestamp,
                }
            }
        }
    };
}

wire_struct!(
    /// One frame, every field any of the bench's event types has; borrowed where serde_json
    /// can, `&RawValue` for the JSON-valued fields.
    Wire,
    &'a RawValue
);
wire_struct!(
    /// sonic-rs's borrowed frame: `LazyValue` for the JSON-valued fields.
    SonicWire,
    sonic_rs::LazyValue<'a>
);
wire_struct!(
    /// simd-json's borrowed frame (strings unescaped in its buffer): `BorrowedValue` for the
    /// JSON-valued fields, which it has no raw type for.
    SimdWire,
    simd_json::BorrowedValue<'a>
);

/// The name `tally` counts, for the three event types the stream's counts single out.
fn counted(ty: &str) -> &'static str {
    match ty {
        "TEXT_MESSAGE_CONTENT" => "TEXT_MESSAGE_CONTENT",
        "TOOL_CALL_ARGS" => "TOOL_CALL_ARGS",
        "STATE_DELTA" => "STATE_DELTA",
        _ => "",
    }
}

fn typed<'a, R: AsText<'a>>(w: impl Into<Fields<'a, R>>) -> Typed<'a, R> {
    let w = w.into();
    match &*w.ty {
        "RUN_STARTED" => Typed::RunStarted {
            thread_id: need(w.thread_id, "threadId"),
            run_id: need(w.run_id, "runId"),
            timestamp: w.timestamp,
        },
        "RUN_FINISHED" => Typed::RunFinished {
            thread_id: need(w.thread_id, "threadId"),
            run_id: need(w.run_id, "runId"),
            result: w.result,
        },
        "TEXT_MESSAGE_START" => Typed::TextStart {
            message_id: need(w.message_id, "messageId"),
            role: w.role,
        },
        "TEXT_MESSAGE_CONTENT" => Typed::TextContent {
            message_id: need(w.message_id, "messageId"),
            delta: raw_str(w.delta),
        },
        "TEXT_MESSAGE_END" => Typed::TextEnd {
            message_id: need(w.message_id, "messageId"),
        },
        "TOOL_CALL_START" => Typed::ToolStart {
            tool_call_id: need(w.tool_call_id, "toolCallId"),
            tool_call_name: need(w.tool_call_name, "toolCallName"),
            parent_message_id: w.parent_message_id,
        },
        "TOOL_CALL_ARGS" => Typed::ToolArgs {
            tool_call_id: need(w.tool_call_id, "toolCallId"),
            delta: raw_str(w.delta),
        },
        "TOOL_CALL_END" => Typed::ToolEnd {
            tool_call_id: need(w.tool_call_id, "toolCallId"),
        },
        "TOOL_CALL_RESULT" => Typed::ToolResult {
            message_id: need(w.message_id, "messageId"),
            tool_call_id: need(w.tool_call_id, "toolCallId"),
            content: need(w.content, "content"),
        },
        "STATE_SNAPSHOT" => Typed::StateSnapshot(need(w.snapshot, "snapshot")),
        "STATE_DELTA" => Typed::StateDelta(need(w.delta, "delta")),
        "STEP_STARTED" | "STEP_FINISHED" => Typed::Step(need(w.step_name, "stepName")),
        other => panic!("unexpected type {other}"),
    }
}

fn serde_typed(input: &[u8]) -> Counts {
    let mut c = Counts::default();
    for line in data_lines(input) {
        let w: Wire<'_> = serde_json::from_slice(line).expect("JSON");
        let name = counted(&w.ty);
        black_box(typed(w));
        tally(&mut c, name);
    }
    c
}

/// sonic-rs into a borrowed typed struct per frame (`LazyValue` for JSON-valued fields).
fn sonic_typed(input: &[u8]) -> Counts {
    let mut c = Counts::default();
    for line in data_lines(input) {
        let w: SonicWire<'_> = sonic_rs::from_slice(line).expect("JSON");
        let name = counted(&w.ty);
        black_box(typed(w));
        tally(&mut c, name);
    }
    c
}

/// simd-json's reusable state for the per-frame peers: the frame's copy (simd-json parses
/// in place, so it needs a mutable copy) and its scratch buffers, both kept across frames as
/// our peer keeps its arena.
struct SimdScratch {
    frame: Vec<u8>,
    buffers: simd_json::Buffers,
}

impl SimdScratch {
    fn new() -> Self {
        SimdScratch {
            frame: Vec::with_capacity(4096),
            buffers: simd_json::Buffers::new(4096),
        }
    }
}

/// simd-json into its borrowed `Value` per frame (copy of the frame, buffers reused).
fn simd_value(input: &[u8], s: &mut SimdScratch) -> Counts {
    use simd_json::prelude::*;
    let mut c = Counts::default();
    for line in data_lines(input) {
        s.frame.clear();
        s.frame.extend_from_slice(line);
        let v =
            simd_json::to_borrowed_value_with_buffers(&mut s.frame, &mut s.buffers).expect("JSON");
        tally(
            &mut c,
            v.get("type").and_then(|t| t.as_str()).expect("a type"),
        );
    }
    c
}

/// simd-json into a borrowed typed struct per frame (copy of the frame, buffers reused).
fn simd_typed(input: &[u8], s: &mut SimdScratch) -> Counts {
    let mut c = Counts::default();
    for line in data_lines(input) {
        s.frame.clear();
        s.frame.extend_from_slice(line);
        let w: SimdWire<'_> =
            simd_json::serde::from_slice_with_buffers(&mut s.frame, &mut s.buffers).expect("JSON");
        let name = counted(&w.ty);
        black_box(typed(w));
        tally(&mut c, name);
    }
    c
}

/// sonic-rs into its `Value` per frame (the same line split).
fn sonic_value(input: &[u8]) -> Counts {
    use sonic_rs::JsonValueTrait;
    let mut c = Counts::default();
    for line in data_lines(input) {
        let v: sonic_rs::Value = sonic_rs::from_slice(line).expect("JSON");
        tally(
            &mut c,
            v.get("type").and_then(|t| t.as_str()).expect("a type"),
        );
    }
    c
}

/// The `ag-ui` crate's typed `Event` per frame (serde_json, the same line split).
fn ag_ui_typed(input: &[u8]) -> Counts {
    let mut c = Counts::default();
    for line in data_lines(input) {
        let ev: ag_ui::Event = serde_json::from_slice(line).expect("ag-ui event");
        tally(&mut c, ev.event_type().as_str());
    }
    c
}

/// The AG-UI project's `ag-ui-core` typed `Event` per frame (serde_json, the same line split;
/// it types thread, run and message ids as UUIDs, so it runs on the UUID-id stream).
fn ag_ui_core_typed(input: &[u8]) -> Counts {
    let mut c = Counts::default();
    for line in data_lines(input) {
        let ev: ag_ui_core::event::Event = serde_json::from_slice(line).expect("ag-ui-core event");
        let name = match &ev {
            ag_ui_core::event::Event::TextMessageContent(_) => "TEXT_MESSAGE_CONTENT",
            ag_ui_core::event::Event::ToolCallArgs(_) => "TOOL_CALL_ARGS",
            ag_ui_core::event::Event::StateDelta(_) => "STATE_DELTA",
            _ => "",
        };
        black_box(&ev);
        tally(&mut c, name);
    }
    c
}

fn memchr_frames(input: &[u8]) -> usize {
    memchr::memmem::find_iter(input, b"\n\n").count()
}

// ------------------------------------------------------------------------------------------
// Driver
// ------------------------------------------------------------------------------------------

fn alloc_line(group: &str, name: &str, s: alloc::Stats, input: usize) {
    println!(
        "alloc {group:<14} {name:<28} allocs {:>9}  reallocs {:>7}  requested {:>11}  peak {:>11}  ({:.2}x input)",
        s.allocs,
        s.reallocs,
        alloc::human(s.bytes),
        alloc::human(s.peak),
        s.peak as f64 / input as f64
    );
}

/// Allocations of one run, after two warm-up runs (so the reused arena has its steady size).
fn allocs_of(mut f: impl FnMut()) -> alloc::Stats {
    f();
    f();
    alloc::measure(f).1
}

fn configure(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, quick: bool) {
    if quick {
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(200))
            .measurement_time(Duration::from_millis(800))
            .nresamples(10_000)
            .sampling_mode(SamplingMode::Flat);
    } else {
        g.sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4))
            .sampling_mode(SamplingMode::Flat);
    }
}

fn main() {
    common::warm_allocator();
    let profile = common::Profile::from_env();
    let mut c = Criterion::default().configure_from_args();
    let stream = gen_stream(EVENTS, 0x5EED_A6E1_0000_0008);
    let input = stream.bytes.as_slice();
    let want = stream.counts;
    assert_eq!(want.events, EVENTS);
    println!(
        "\n== events_sse: {} bytes ({}), {} events ({} text deltas, {} tool-call args, {} state deltas)",
        input.len(),
        alloc::human(input.len() as u64),
        want.events,
        want.text_content,
        want.tool_args,
        want.state_deltas
    );

    // Check every peer once, then print its allocations per stream.
    let mut arena = Bump::new();
    assert_eq!(ours(input, &mut arena), want, "agui-wire");
    assert_eq!(
        ours_by_value(input, &mut arena),
        want,
        "agui-wire (Event::parse)"
    );
    assert_eq!(serde_value(input), want, "serde_json Value");
    assert_eq!(serde_typed(input), want, "serde_json borrowed typed");
    assert_eq!(sonic_value(input), want, "sonic-rs Value");
    assert_eq!(sonic_typed(input), want, "sonic-rs borrowed typed");
    let mut simd = SimdScratch::new();
    assert_eq!(simd_value(input, &mut simd), want, "simd-json Value");
    assert_eq!(
        simd_typed(input, &mut simd),
        want,
        "simd-json borrowed typed"
    );
    assert_eq!(ag_ui_typed(input), want, "ag-ui typed");
    assert_eq!(memchr_frames(input), want.events, "memchr frames");
    let (counts, reducer) = ours_reduce(input, &mut arena);
    assert_eq!(counts, want, "agui-wire + reducer");
    assert_eq!(reducer.events_seen(), want.events);
    assert!(
        reducer.warnings().is_empty(),
        "reducer warnings: {:?}",
        reducer.warnings()
    );
    println!(
        "   reducer: {} messages, state {} bytes",
        reducer.messages().len(),
        reducer.state().to_json_vec().len()
    );
    drop(reducer);

    let n = input.len();
    alloc_line(
        "events_sse",
        "agui-wire",
        allocs_of(|| {
            black_box(ours(black_box(input), &mut arena));
        }),
        n,
    );
    alloc_line(
        "events_sse",
        "serde_json Value",
        allocs_of(|| {
            black_box(serde_value(black_box(input)));
        }),
        n,
    );
    alloc_line(
        "events_sse",
        "serde_json borrowed typed",
        allocs_of(|| {
            black_box(serde_typed(black_box(input)));
        }),
        n,
    );
    alloc_line(
        "events_sse",
        "sonic-rs Value",
        allocs_of(|| {
            black_box(sonic_value(black_box(input)));
        }),
        n,
    );
    alloc_line(
        "events_sse",
        "sonic-rs borrowed typed",
        allocs_of(|| {
            black_box(sonic_typed(black_box(input)));
        }),
        n,
    );
    alloc_line(
        "events_sse",
        "simd-json Value",
        allocs_of(|| {
            black_box(simd_value(black_box(input), &mut simd));
        }),
        n,
    );
    alloc_line(
        "events_sse",
        "simd-json borrowed typed",
        allocs_of(|| {
            black_box(simd_typed(black_box(input), &mut simd));
        }),
        n,
    );
    alloc_line(
        "events_sse",
        "ag-ui typed",
        allocs_of(|| {
            black_box(ag_ui_typed(black_box(input)));
        }),
        n,
    );
    alloc_line(
        "events_sse",
        "memchr frames",
        allocs_of(|| {
            black_box(memchr_frames(black_box(input)));
        }),
        n,
    );
    alloc_line(
        "events_reduce",
        "agui-wire + Reducer::apply",
        allocs_of(|| {
            black_box(ours_reduce(black_box(input), &mut arena));
        }),
        n,
    );

    let mut g = c.benchmark_group("events_sse");
    g.throughput(Throughput::Bytes(n as u64));
    configure(&mut g, profile.quick);
    g.bench_function("agui-wire", |b| {
        b.iter(|| ours(black_box(input), &mut arena))
    });
    g.bench_function("agui-wire (Event::parse)", |b| {
        b.iter(|| ours_by_value(black_box(input), &mut arena))
    });
    g.bench_function("serde_json Value", |b| {
        b.iter(|| serde_value(black_box(input)))
    });
    g.bench_function("serde_json borrowed typed", |b| {
        b.iter(|| serde_typed(black_box(input)))
    });
    g.bench_function("sonic-rs Value", |b| {
        b.iter(|| sonic_value(black_box(input)))
    });
    g.bench_function("sonic-rs borrowed typed", |b| {
        b.iter(|| sonic_typed(black_box(input)))
    });
    g.bench_function("simd-json Value", |b| {
        b.iter(|| simd_value(black_box(input), &mut simd))
    });
    g.bench_function("simd-json borrowed typed", |b| {
        b.iter(|| simd_typed(black_box(input), &mut simd))
    });
    g.bench_function("ag-ui typed", |b| b.iter(|| ag_ui_typed(black_box(input))));
    g.bench_function("memchr frames", |b| {
        b.iter(|| memchr_frames(black_box(input)))
    });
    g.finish();

    // The same stream with UUID ids, for `ag-ui-core`, which reads no other id; ours and the
    // fastest `Value` peer beside it on the same bytes.
    let uuid_stream = gen_stream_with(EVENTS, 0x5EED_A6E1_0000_0008, Ids::Uuid);
    let uuid = uuid_stream.bytes.as_slice();
    assert_eq!(
        uuid_stream.counts, want,
        "the UUID stream has the same events"
    );
    assert_eq!(ours(uuid, &mut arena), want, "agui-wire (UUID ids)");
    assert_eq!(sonic_value(uuid), want, "sonic-rs Value (UUID ids)");
    assert_eq!(ag_ui_core_typed(uuid), want, "ag-ui-core typed");
    println!(
        "\n== events_sse_uuid: {} bytes ({})",
        uuid.len(),
        alloc::human(uuid.len() as u64)
    );
    alloc_line(
        "events_sse_uuid",
        "ag-ui-core typed",
        allocs_of(|| {
            black_box(ag_ui_core_typed(black_box(uuid)));
        }),
        uuid.len(),
    );
    let mut g = c.benchmark_group("events_sse_uuid");
    g.throughput(Throughput::Bytes(uuid.len() as u64));
    configure(&mut g, profile.quick);
    g.bench_function("agui-wire", |b| {
        b.iter(|| ours(black_box(uuid), &mut arena))
    });
    g.bench_function("sonic-rs Value", |b| {
        b.iter(|| sonic_value(black_box(uuid)))
    });
    g.bench_function("ag-ui-core typed", |b| {
        b.iter(|| ag_ui_core_typed(black_box(uuid)))
    });
    g.finish();

    // The same stream with sorted keys: `type` after the fields it decides.
    let sorted = common::event_stream::sorted_stream(input);
    let sorted = sorted.as_slice();
    assert_eq!(ours(sorted, &mut arena), want, "agui-wire (sorted keys)");
    assert_eq!(sonic_value(sorted), want, "sonic-rs Value (sorted keys)");
    println!(
        "\n== events_sse_sorted: {} bytes ({})",
        sorted.len(),
        alloc::human(sorted.len() as u64)
    );
    let mut g = c.benchmark_group("events_sse_sorted");
    g.throughput(Throughput::Bytes(sorted.len() as u64));
    configure(&mut g, profile.quick);
    g.bench_function("agui-wire", |b| {
        b.iter(|| ours(black_box(sorted), &mut arena))
    });
    g.bench_function("sonic-rs Value", |b| {
        b.iter(|| sonic_value(black_box(sorted)))
    });
    g.finish();

    let mut g = c.benchmark_group("events_reduce");
    g.throughput(Throughput::Bytes(n as u64));
    configure(&mut g, profile.quick);
    g.bench_function("agui-wire + Reducer::apply", |b| {
        b.iter(|| ours_reduce(black_box(input), &mut arena))
    });
    g.bench_function("agui-wire (no reducer)", |b| {
        b.iter(|| ours(black_box(input), &mut arena))
    });
    g.finish();
    c.final_summary();
}
