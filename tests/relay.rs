//! Tests of `agui_wire::relay`: chunking independence (every split point, 1-byte chunks,
//! random chunkings) under every policy, zero-copy forwarding (pointer checks), each policy,
//! the `RUN_ERROR` that ends a broken stream (invalid SSE, invalid event, order violation,
//! truncation), the well-formedness of everything written, the memory a relay keeps, and
//! resuming after a cursor.

use agui_wire::relay::{Cursor, EventTypeSet, FaultKind, RawPolicy, Relay, RelayOptions, join};
use agui_wire::sse::{SseDecoder, SseItem, SseOptions};
use agui_wire::{Bump, Event, EventType};
use bytes::Bytes;

// ----- streams ------------------------------------------------------------------------------

fn frame(json: &str) -> String {
    format!("data: {json}\n\n")
}

const START: &str = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"run-1"}"#;
const FINISH: &str = r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"run-1"}"#;

/// A run with text, a step, a RAW event, an event with `rawEvent`, and upstream framing
/// variants (a comment, `event:` and `id:` lines, CRLF, a `retry:` line).
fn conversation() -> Vec<u8> {
    let mut s = String::new();
    s.push_str(": upstream hello\n\n");
    s.push_str(&frame(START));
    s.push_str("retry: 3000\n\n");
    s.push_str(&frame(r#"{"type":"STEP_STARTED","stepName":"think"}"#));
    s.push_str(&frame(
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#,
    ));
    for word in ["Hel", "lo", " wor", "ld"] {
        s.push_str(&frame(&format!(
            r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"{word}"}}"#
        )));
    }
    s.push_str("event: agui\r\nid: up-7\r\ndata: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}\r\n\r\n");
    s.push_str(&frame(
        r#"{"type":"RAW","event":{"secret":"sk-123"},"source":"openai"}"#,
    ));
    s.push_str(&frame(
        r#"{"type":"CUSTOM","name":"progress","value":1,"rawEvent":{"secret":"sk-456"}}"#,
    ));
    s.push_str(&frame(r#"{"type":"STEP_FINISHED","stepName":"think"}"#));
    s.push_str(&frame(FINISH));
    s.into_bytes()
}

// ----- running a relay ----------------------------------------------------------------------

/// Feeds `chunks` then finishes; returns everything written, joined, and the relay.
fn run(options: &RelayOptions, chunks: &[&[u8]]) -> (Vec<u8>, Relay) {
    let mut relay = Relay::new(options.clone());
    let mut out = Vec::new();
    for chunk in chunks {
        relay.feed(Bytes::copy_from_slice(chunk), &mut out);
    }
    relay.finish(&mut out);
    (out.concat(), relay)
}

fn whole(options: &RelayOptions, input: &[u8]) -> (Vec<u8>, Relay) {
    run(options, &[input])
}

/// Decodes relay output strictly and parses every frame as an event; the output must end on
/// a frame boundary. Returns the event JSON texts and the `id:` of each frame.
fn events_of(output: &[u8]) -> Vec<(String, Option<String>)> {
    let mut decoder = SseDecoder::new(SseOptions::new().with_strict_end(true));
    let mut events = Vec::new();
    let arena = Bump::new();
    let mut feed = decoder.feed(output);
    while let Some(item) = feed.next_item() {
        if let SseItem::Frame(f) = item.expect("relay output is valid SSE") {
            let text = f.data_str().expect("UTF-8").to_owned();
            Event::parse(f.data, &arena)
                .unwrap_or_else(|e| panic!("relay output frame {text} is not an event: {e}"));
            events.push((text, f.id.map(str::to_owned)));
        }
    }
    drop(feed);
    assert_eq!(
        decoder.finish(),
        Ok(None),
        "relay output ends between frames"
    );
    events
}

fn texts(output: &[u8]) -> Vec<String> {
    events_of(output).into_iter().map(|(t, _)| t).collect()
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

fn policies() -> Vec<RelayOptions> {
    let base = RelayOptions::new();
    vec![
        base.clone(),
        base.clone().with_cursors(true),
        base.clone().with_raw(RawPolicy::Drop),
        base.clone().with_raw(RawPolicy::Redact).with_cursors(true),
        base.clone().with_drop_types(
            EventTypeSet::new()
                .with(EventType::StepStarted)
                .with(EventType::StepFinished),
        ),
        base.clone()
            .with_sse(SseOptions::new().with_strict_end(true)),
        base.clone().with_max_frame_bytes(70),
        // Resuming: skipped frames sit between forwarded ones, comments and CRLF frames.
        base.clone()
            .with_cursors(true)
            .resume_after(Cursor::new("run-1", 7)),
        base.clone()
            .with_raw(RawPolicy::Drop)
            .resume_after(Cursor::new("run-1", 1)),
        base.with_cursors(true)
            .resume_after(Cursor::new("run-1", 9)),
    ]
}

/// Every chunking of `input` gives the same output, under every policy.
fn check_chunkings(input: &[u8], rng: &mut Rng) {
    for options in policies() {
        let (expected, relay) = whole(&options, input);
        events_of(&expected);
        let counts = (
            relay.relayed(),
            relay.dropped(),
            relay.skipped(),
            relay.events_seen(),
        );
        for split in 0..=input.len() {
            let (a, b) = input.split_at(split);
            let (got, r) = run(&options, &[a, b]);
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&expected),
                "split at {split}, {options:?}"
            );
            assert_eq!(
                (r.relayed(), r.dropped(), r.skipped(), r.events_seen()),
                counts
            );
        }
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(
            run(&options, &bytes).0,
            expected,
            "1-byte chunks, {options:?}"
        );
        for _ in 0..6 {
            let mut chunks = Vec::new();
            let mut rest = input;
            while !rest.is_empty() {
                let n = (1 + rng.below(40)).min(rest.len());
                let (a, b) = rest.split_at(n);
                chunks.push(a);
                rest = b;
            }
            assert_eq!(run(&options, &chunks).0, expected, "{options:?}");
        }
    }
}

// ----- chunking and zero-copy ---------------------------------------------------------------

#[test]
fn chunking_at_every_boundary_gives_the_same_output() {
    let mut rng = Rng(0x7E1A_0001);
    let good = conversation();
    check_chunkings(&good, &mut rng);
    // Broken streams too: an invalid event, an order violation, a cut run, a cut frame, a BOM.
    let mut bad = good[..200].to_vec();
    bad.extend_from_slice(b"\n\ndata: {\"type\":\"TEXT_MESSAGE_CONTENT\"}\n\n");
    check_chunkings(&bad, &mut rng);
    let cut = &good[..good.len() - 20];
    check_chunkings(cut, &mut rng);
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(&good[..300]);
    check_chunkings(&bom, &mut rng);
    let unterminated = format!("{}data: {FINISH}", frame(START));
    check_chunkings(unterminated.as_bytes(), &mut rng);
}

#[test]
fn untouched_stream_is_forwarded_byte_for_byte_as_slices_of_its_chunks() {
    let input = conversation();
    let (out, relay) = whole(&RelayOptions::new(), &input);
    assert_eq!(out, input);
    assert!(relay.fault().is_none());
    assert_eq!(relay.relayed(), 12);

    // Pointer check: every piece written lies inside the chunk it came from.
    let chunk = Bytes::from(input.clone());
    let range = chunk.as_ptr() as usize..chunk.as_ptr() as usize + chunk.len();
    let mut relay = Relay::new(RelayOptions::new());
    let mut out = Vec::new();
    relay.feed(chunk.clone(), &mut out);
    assert_eq!(
        out.len(),
        1,
        "consecutive untouched frames go out as one slice"
    );
    for piece in &out {
        assert!(range.contains(&(piece.as_ptr() as usize)));
    }
    // With cursors, each frame's bytes are still slices of the chunk, after the `id:` line.
    let mut relay = Relay::new(RelayOptions::new().with_cursors(true));
    let mut out = Vec::new();
    relay.feed(chunk.clone(), &mut out);
    let slices = out
        .iter()
        .filter(|p| range.contains(&(p.as_ptr() as usize)))
        .count();
    assert!(slices >= 11, "{slices} slices of the chunk");
}

#[test]
fn frames_split_across_chunks_are_gathered_and_forwarded_once_complete() {
    let input = conversation();
    let mut relay = Relay::new(RelayOptions::new());
    let mut out = Vec::new();
    let cut = input.len() / 2;
    relay.feed(Bytes::copy_from_slice(&input[..cut]), &mut out);
    let first: Vec<u8> = out.concat();
    // Only whole frames so far: the output decodes to events and ends on a boundary.
    assert!(input.starts_with(&first));
    assert!(first.ends_with(b"\n\n"));
    out.clear();
    relay.feed(Bytes::copy_from_slice(&input[cut..]), &mut out);
    relay.finish(&mut out);
    assert_eq!([first, out.concat()].concat(), input);
}

// ----- policies -----------------------------------------------------------------------------

#[test]
fn raw_events_dropped() {
    let (out, relay) = whole(
        &RelayOptions::new().with_raw(RawPolicy::Drop),
        &conversation(),
    );
    let texts = texts(&out);
    assert!(
        texts
            .iter()
            .all(|t| !t.contains("\"RAW\"") && !t.contains("sk-")),
        "{texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t == r#"{"type":"CUSTOM","name":"progress","value":1}"#)
    );
    assert_eq!(
        (relay.relayed(), relay.dropped(), relay.redacted()),
        (11, 1, 1)
    );
}

#[test]
fn raw_events_redacted() {
    let (out, relay) = whole(
        &RelayOptions::new().with_raw(RawPolicy::Redact),
        &conversation(),
    );
    let texts = texts(&out);
    assert!(
        texts
            .iter()
            .any(|t| t == r#"{"type":"RAW","event":null,"source":"openai"}"#),
        "{texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t == r#"{"type":"CUSTOM","name":"progress","value":1}"#)
    );
    assert!(!String::from_utf8_lossy(&out).contains("sk-"));
    assert_eq!(
        (relay.relayed(), relay.dropped(), relay.redacted()),
        (12, 0, 2)
    );
    // Everything else is untouched.
    let forwarded = String::from_utf8(out).unwrap();
    assert!(forwarded.contains("event: agui\r\nid: up-7\r\ndata: {\"type\":\"TEXT_MESSAGE_END\""));
}

#[test]
fn event_types_dropped() {
    let steps = EventTypeSet::from_names("STEP_STARTED,STEP_FINISHED").unwrap();
    let (out, relay) = whole(&RelayOptions::new().with_drop_types(steps), &conversation());
    let texts = texts(&out);
    assert_eq!(texts.len(), 10);
    assert!(texts.iter().all(|t| !t.contains("STEP_")));
    assert_eq!((relay.relayed(), relay.dropped()), (10, 2));
    // The bytes around the dropped frames are untouched.
    let input = String::from_utf8(conversation()).unwrap();
    let expected = input
        .replace(&frame(r#"{"type":"STEP_STARTED","stepName":"think"}"#), "")
        .replace(&frame(r#"{"type":"STEP_FINISHED","stepName":"think"}"#), "");
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}

#[test]
fn cursors_number_the_events_of_each_run() {
    let (out, relay) = whole(&RelayOptions::new().with_cursors(true), &conversation());
    let ids: Vec<String> = events_of(&out)
        .into_iter()
        .map(|(_, id)| id.expect("every event has a cursor"))
        .collect();
    let expected: Vec<String> = (0..12).map(|i| format!("run-1:{i}")).collect();
    assert_eq!(ids, expected, "the upstream's own `id: up-7` is replaced");
    assert!(relay.fault().is_none());
    // Dropped events keep their index; a second run starts again at 0.
    let mut input = conversation();
    input.extend_from_slice(
        frame(r#"{"type":"RUN_STARTED","threadId":"t1","runId":"run-2"}"#).as_bytes(),
    );
    input.extend_from_slice(
        frame(r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"run-2"}"#).as_bytes(),
    );
    // An `id:`-only upstream frame would overwrite the cursor: it is not forwarded.
    input.extend_from_slice(b"id: upstream\n\n");
    let options = RelayOptions::new()
        .with_cursors(true)
        .with_drop_types(EventTypeSet::new().with(EventType::StepStarted));
    let (out, _) = whole(&options, &input);
    let ids: Vec<String> = events_of(&out)
        .into_iter()
        .map(|(_, id)| id.unwrap())
        .collect();
    assert_eq!(ids[..3], ["run-1:0", "run-1:2", "run-1:3"]);
    assert_eq!(ids[ids.len() - 2..], ["run-2:0", "run-2:1"]);
    assert!(!String::from_utf8_lossy(&out).contains("upstream\n"));
}

#[test]
fn keep_alive_comments_only_between_frames() {
    let input = conversation();
    let mut relay = Relay::new(RelayOptions::new());
    let mut out = Vec::new();
    relay.on_idle(&mut out); // before the first byte
    for chunk in input.chunks(7) {
        relay.feed(Bytes::copy_from_slice(chunk), &mut out);
        relay.on_idle(&mut out);
    }
    relay.finish(&mut out);
    relay.on_idle(&mut out); // after the end: nothing
    let joined = out.concat();
    assert!(joined.starts_with(b": ping\n\n"));
    assert!(joined.ends_with(format!("{FINISH}\n\n: ping\n\n").as_bytes()));
    // Removing the pings gives the upstream's bytes back.
    let text = String::from_utf8(joined).unwrap();
    assert_eq!(
        text.replace(": ping\n\n", ""),
        String::from_utf8(input).unwrap()
    );
    assert_eq!(texts(text.as_bytes()).len(), 12);
}

#[test]
fn an_upstream_byte_order_mark_is_not_forwarded() {
    let mut input = b"\xEF\xBB\xBF".to_vec();
    input.extend_from_slice(&conversation());
    let mut relay = Relay::new(RelayOptions::new());
    let mut out = Vec::new();
    relay.on_idle(&mut out);
    for chunk in input.chunks(2) {
        relay.feed(Bytes::copy_from_slice(chunk), &mut out);
    }
    relay.finish(&mut out);
    let joined = out.concat();
    assert_eq!(&joined[8..], &conversation()[..]);
    assert_eq!(texts(&joined).len(), 12);
}

/// Found by the `relay` fuzz target: a byte order mark in the middle of the upstream's stream
/// starts a line the client ignores (`\u{FEFF}data: ...` is an unknown field). When what came
/// before it was not forwarded (here an `id:`-only frame, dropped with cursors on), that line
/// became the output's first bytes, where a client strips the mark and reads `data:`.
#[test]
fn a_byte_order_mark_inside_the_stream_never_starts_the_output() {
    let mut input = b"id: x\n\n\xEF\xBB\xBFdata: not an event\n\n".to_vec();
    input.extend_from_slice(&conversation());
    for options in [RelayOptions::new(), RelayOptions::new().with_cursors(true)] {
        let (out, relay) = whole(&options, &input);
        assert!(
            !out.starts_with(b"\xEF"),
            "{:?}",
            String::from_utf8_lossy(&out)
        );
        // The client's reading of the output: the conversation's events and nothing else.
        assert_eq!(events_of(&out).len(), 12);
        assert!(relay.fault().is_none());
        let mut rng = Rng(7);
        check_chunkings(&input, &mut rng);
    }
}

// ----- faults -------------------------------------------------------------------------------

/// The last frame of `out`: a `RUN_ERROR` with the given code, parsed.
fn run_error(out: &[u8], code: &str) -> String {
    let events = texts(out);
    let last = events.last().expect("a RUN_ERROR").clone();
    let arena = Bump::new();
    let Event::RunError(e) = Event::parse(last.as_bytes(), &arena).unwrap() else {
        panic!("last event is not RUN_ERROR: {last}")
    };
    assert_eq!(e.code.as_ref().map(|c| c.raw()), Some(code));
    e.message.unescaped().into_owned()
}

#[test]
fn an_invalid_event_ends_the_stream_with_run_error() {
    let mut input = frame(START);
    input.push_str(&frame(
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#,
    ));
    input.push_str("data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\"}\n\n");
    input.push_str(&frame(FINISH));
    let at = input
        .find("data: {\"type\":\"TEXT_MESSAGE_CONTENT")
        .unwrap() as u64;
    let (out, relay) = whole(&RelayOptions::new(), input.as_bytes());
    let message = run_error(&out, "UPSTREAM_INVALID_EVENT");
    assert_eq!(
        message,
        format!(
            "upstream event 2 (byte {at}) is invalid: missing required field `delta` at the document root (byte 0)"
        )
    );
    assert_eq!(
        texts(&out).len(),
        3,
        "the two events before, then the RUN_ERROR"
    );
    let fault = relay.fault().unwrap();
    assert_eq!(
        (fault.kind(), fault.index(), fault.offset()),
        (FaultKind::InvalidEvent, 2, at)
    );
    assert!(relay.is_ended());
    assert_eq!(relay.relayed(), 2);

    // Not JSON at all, and JSON that is not an event.
    for bad in [
        "data: not json\n\n",
        "data: [1,2]\n\n",
        "data: {\"type\":\"RUN_STARTED\"\n\n",
    ] {
        let (out, _) = whole(&RelayOptions::new(), bad.as_bytes());
        let message = run_error(&out, "UPSTREAM_INVALID_EVENT");
        assert!(
            message.starts_with("upstream event 0 (byte 0) is invalid"),
            "{message}"
        );
    }
}

#[test]
fn nothing_is_written_after_the_run_error() {
    let mut relay = Relay::new(RelayOptions::new());
    let mut out = Vec::new();
    relay.feed(Bytes::from(frame(START)), &mut out);
    relay.feed(Bytes::from_static(b"data: oops\n\ndata: {}\n\n"), &mut out);
    let n = out.len();
    relay.feed(Bytes::from(frame(FINISH)), &mut out);
    relay.on_idle(&mut out);
    relay.finish(&mut out);
    assert_eq!(out.len(), n);
    assert_eq!(relay.fault().unwrap().index(), 1);
}

#[test]
fn an_order_violation_ends_the_stream_with_run_error() {
    let mut input = frame(START);
    input.push_str(&frame(
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m9","delta":"x"}"#,
    ));
    let (out, relay) = whole(&RelayOptions::new(), input.as_bytes());
    let message = run_error(&out, "UPSTREAM_EVENT_ORDER");
    assert_eq!(
        message,
        format!(
            "upstream event 1 (byte {}) breaks the event order: TEXT_MESSAGE_CONTENT for text message \"m9\", which is not in progress",
            frame(START).len()
        )
    );
    assert_eq!(relay.fault().unwrap().kind(), FaultKind::EventOrder);
    // Off, the same stream is forwarded (and still ends with a truncation error).
    let (out, relay) = whole(
        &RelayOptions::new().with_check_order(false),
        input.as_bytes(),
    );
    assert_eq!(texts(&out).len(), 3);
    assert_eq!(relay.fault().unwrap().kind(), FaultKind::Truncated);
}

#[test]
fn a_truncated_upstream_ends_with_run_error() {
    // End of input inside the run.
    let mut input = frame(START);
    input.push_str(&frame(r#"{"type":"STEP_STARTED","stepName":"s"}"#));
    let (out, relay) = whole(&RelayOptions::new(), input.as_bytes());
    let message = run_error(&out, "UPSTREAM_TRUNCATED");
    assert_eq!(
        message,
        format!(
            "upstream ended before RUN_FINISHED or RUN_ERROR (run run-1, after 2 events, byte {})",
            input.len()
        )
    );
    assert_eq!(relay.fault().unwrap().index(), 2);
    // Inside a frame: by default the cut frame is read as the client reads it, so a cut JSON
    // value is an invalid event; strict, the cut frame itself is the fault.
    let mut cut = frame(START);
    cut.push_str("data: {\"type\":\"STEP_STA");
    let at = frame(START).len();
    let (out, _) = whole(&RelayOptions::new(), cut.as_bytes());
    let message = run_error(&out, "UPSTREAM_INVALID_EVENT");
    assert!(
        message.starts_with(&format!("upstream event 1 (byte {at}) is invalid")),
        "{message}"
    );
    let strict = RelayOptions::new().with_sse(SseOptions::new().with_strict_end(true));
    let (out, relay) = whole(&strict, cut.as_bytes());
    let message = run_error(&out, "UPSTREAM_TRUNCATED");
    assert!(
        message.starts_with("upstream ended inside event 1: "),
        "{message}"
    );
    assert_eq!(relay.fault().unwrap().offset(), at as u64);
    // A complete last event without its blank line is forwarded, with one.
    let tail = format!("{}data: {FINISH}", frame(START));
    let (out, relay) = whole(&RelayOptions::new(), tail.as_bytes());
    assert!(relay.fault().is_none());
    assert_eq!(texts(&out), [START, FINISH]);
    // No event at all.
    let (out, _) = whole(&RelayOptions::new(), b": just a comment\n\n");
    assert_eq!(
        run_error(&out, "UPSTREAM_TRUNCATED"),
        "upstream ended without any event (byte 18)"
    );
}

#[test]
fn invalid_sse_ends_with_run_error() {
    let mut bytes = frame(START).into_bytes();
    bytes.extend_from_slice(b"event: \xFF\ndata: {}\n\n");
    let (out, relay) = whole(&RelayOptions::new(), &bytes);
    let message = run_error(&out, "UPSTREAM_INVALID_SSE");
    assert!(message.contains("not valid UTF-8"), "{message}");
    assert_eq!(relay.fault().unwrap().offset(), frame(START).len() as u64);
    // A frame over the size bound.
    let options = RelayOptions::new().with_max_frame_bytes(80);
    let mut input = frame(START);
    input.push_str(&frame(&format!(
        r#"{{"type":"CUSTOM","name":"big","value":"{}"}}"#,
        "x".repeat(100)
    )));
    let (out, relay) = whole(&options, input.as_bytes());
    let message = run_error(&out, "UPSTREAM_INVALID_SSE");
    assert!(message.contains("max_frame_bytes (80)"), "{message}");
    assert_eq!(texts(&out).len(), 2);
    assert_eq!(relay.fault().unwrap().index(), 1);
}

#[test]
fn no_second_run_error_after_the_upstream_s_own() {
    let mut input = frame(START);
    input.push_str(&frame(
        r#"{"type":"RUN_ERROR","message":"model overloaded"}"#,
    ));
    let (out, relay) = whole(&RelayOptions::new(), input.as_bytes());
    assert_eq!(out, input.as_bytes());
    assert!(relay.fault().is_none());
    input.push_str("data: trailing garbage\n\n");
    let (out, relay) = whole(&RelayOptions::new(), input.as_bytes());
    assert_eq!(
        texts(&out).len(),
        2,
        "the client rejects a RUN_ERROR after a RUN_ERROR"
    );
    assert_eq!(relay.fault().unwrap().kind(), FaultKind::InvalidEvent);
}

// ----- hosts --------------------------------------------------------------------------------

#[test]
fn relay_is_send() {
    fn send<T: Send + 'static>() {}
    send::<Relay>();
    send::<RelayOptions>();
}

#[test]
fn join_gives_one_buffer_per_call() {
    let mut relay = Relay::new(RelayOptions::new().with_cursors(true));
    let mut parts = Vec::new();
    relay.feed(Bytes::from(conversation()), &mut parts);
    assert!(parts.len() > 1);
    let one = join(&mut parts).unwrap();
    assert_eq!(events_of(&one).len(), 12);
}

// ----- memory -------------------------------------------------------------------------------

mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        pub static LIVE: Cell<isize> = const { Cell::new(0) };
    }

    pub struct Counting;

    // SAFETY: forwards to the system allocator; only counts.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = LIVE.try_with(|l| l.set(l.get() + layout.size() as isize));
            // SAFETY: same contract as the caller's.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            let _ = LIVE.try_with(|l| l.set(l.get() - layout.size() as isize));
            // SAFETY: same contract as the caller's.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
            let _ = LIVE.try_with(|l| l.set(l.get() + new as isize - layout.size() as isize));
            // SAFETY: same contract as the caller's.
            unsafe { System.realloc(ptr, layout, new) }
        }
    }

    pub fn live() -> isize {
        LIVE.with(Cell::get)
    }
}

#[global_allocator]
static ALLOC: counting::Counting = counting::Counting;

/// Heap bytes a relay holds after `input`, fed in `chunk`-byte pieces (outputs dropped).
fn heap_after(input: &[u8], chunk: usize) -> (isize, Relay) {
    // Static chunks: cloning them allocates nothing, so only the relay's own memory counts.
    let input: &'static [u8] = Box::leak(input.to_vec().into_boxed_slice());
    let chunks: Vec<Bytes> = input.chunks(chunk).map(Bytes::from_static).collect();
    let before = counting::live();
    let mut relay = Relay::new(RelayOptions::new().with_cursors(true));
    for c in &chunks {
        let mut out = Vec::new();
        relay.feed(c.clone(), &mut out);
    }
    let heap = counting::live() - before;
    drop(chunks);
    (heap, relay)
}

#[test]
fn an_idle_stream_keeps_little_memory_even_after_a_big_frame() {
    // A run that is open and idle, after a 1 MiB event split across 4 KiB chunks, and a
    // partial frame pending.
    let mut input = frame(START);
    input.push_str(&frame(&format!(
        r#"{{"type":"CUSTOM","name":"big","value":"{}"}}"#,
        "x".repeat(1 << 20)
    )));
    input.push_str(&frame(
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#,
    ));
    input.push_str("data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"del");
    let (heap, relay) = heap_after(input.as_bytes(), 4096);
    let size = std::mem::size_of::<Relay>() as isize;
    assert!(!relay.is_ended());
    eprintln!("idle relay: {size} bytes of struct + {heap} bytes of heap");
    assert!(heap > 0);
    // (About 1.5 KiB of struct and 1.5 KiB of heap when written: a 1 KiB decoder buffer kept,
    // the pending frame, the open message's id, the run id.)
    assert!(size + heap <= 4 * 1024, "{size} + {heap} bytes");
    drop(relay);
}

#[test]
fn a_thousand_idle_streams_cost_a_few_kib_each() {
    // Each: a run open, a message open, part of the next frame pending (the state of a stream
    // waiting on its model), fed in one chunk.
    let mut input = frame(START);
    input.push_str(&frame(
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#,
    ));
    input.push_str("data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"del");
    let input: &'static [u8] = Box::leak(input.into_bytes().into_boxed_slice());
    let before = counting::live();
    let mut relays = Vec::with_capacity(1000);
    let vec_bytes = counting::live() - before;
    for _ in 0..1000 {
        let mut relay = Relay::new(RelayOptions::new().with_cursors(true));
        let mut out = Vec::new();
        relay.feed(Bytes::from_static(input), &mut out);
        relays.push(relay);
    }
    let per_stream = (counting::live() - before - vec_bytes) / 1000;
    let total = per_stream + std::mem::size_of::<Relay>() as isize;
    eprintln!("idle stream: {total} bytes ({per_stream} of heap)");
    assert!(total <= 4 * 1024, "{total} bytes per idle stream");
    assert!(relays.iter().all(|r| !r.is_ended()));
}

#[test]
fn plain_data_types_are_send_and_sync() {
    fn both<T: Send + Sync + 'static>() {}
    both::<RelayOptions>();
    both::<agui_wire::relay::RelayFault>();
    both::<FaultKind>();
    both::<EventTypeSet>();
    both::<RawPolicy>();
    both::<Cursor>();
}

// ----- resuming after a cursor --------------------------------------------------------------

fn second_run(run_id: &str) -> String {
    format!(
        "{}{}",
        frame(&format!(
            r#"{{"type":"RUN_STARTED","threadId":"t1","runId":"{run_id}"}}"#
        )),
        frame(&format!(
            r#"{{"type":"RUN_FINISHED","threadId":"t1","runId":"{run_id}"}}"#
        ))
    )
}

#[test]
fn resuming_after_a_cursor_forwards_only_later_events_with_their_cursors() {
    let input = conversation();
    let (full, _) = whole(&RelayOptions::new().with_cursors(true), &input);
    let all = events_of(&full);
    assert_eq!(all.len(), 12);
    for k in 0..all.len() {
        // The client reconnects with the cursor of event k, read back from its header.
        let last_event_id = all[k].1.clone().unwrap();
        let cursor = Cursor::parse(&last_event_id).unwrap();
        let options = RelayOptions::new().with_cursors(true).resume_after(cursor);
        let (out, relay) = whole(&options, &input);
        assert_eq!(
            events_of(&out),
            all[k + 1..],
            "resumed after {last_event_id}"
        );
        assert_eq!(relay.skipped(), k as u64 + 1);
        assert_eq!(relay.relayed(), (all.len() - k - 1) as u64);
        assert_eq!(relay.events_seen(), 12, "skipped events are still read");
        assert!(relay.fault().is_none());
    }
    // Without cursors on, the same events are left out.
    let options = RelayOptions::new().resume_after(Cursor::new("run-1", 3));
    let (out, relay) = whole(&options, &input);
    let plain = texts(&whole(&RelayOptions::new(), &input).0);
    assert_eq!(texts(&out), plain[4..]);
    assert_eq!(relay.skipped(), 4);
    // A cursor past the run's end: the client has the whole run, nothing of it is forwarded.
    let (out, relay) = whole(
        &RelayOptions::new().resume_after(Cursor::new("run-1", 500)),
        &input,
    );
    assert!(events_of(&out).is_empty());
    assert_eq!((relay.skipped(), relay.relayed()), (12, 0));
    assert!(relay.fault().is_none());
}

/// An upstream that reads `Last-Event-ID` itself sends only the events after the cursor, with
/// no `RUN_STARTED`: relayed as the rest of the run, cursors numbered on, the order rules back
/// at the next `RUN_STARTED`.
#[test]
fn an_upstream_that_resumes_by_itself_is_relayed_as_the_rest_of_the_run() {
    let (full, _) = whole(&RelayOptions::new().with_cursors(true), &conversation());
    let all = events_of(&full);
    for k in 0..all.len() - 1 {
        let rest: String = all[k + 1..].iter().map(|(text, _)| frame(text)).collect();
        let cursor = Cursor::parse(all[k].1.as_deref().unwrap()).unwrap();
        let options = RelayOptions::new().with_cursors(true).resume_after(cursor);
        let (out, relay) = whole(&options, rest.as_bytes());
        assert_eq!(events_of(&out), all[k + 1..], "resumed after event {k}");
        assert!(relay.fault().is_none());
        assert_eq!(relay.skipped(), 0);
        check_chunkings(rest.as_bytes(), &mut Rng(0x9e37_79b9 + k as u64));
        // Without the cursor the same bytes break the order rules.
        let (_, plain) = whole(&RelayOptions::new(), rest.as_bytes());
        assert_eq!(plain.fault().map(|f| f.kind()), Some(FaultKind::EventOrder));
    }
    let cursor = || Cursor::parse(all[3].1.as_deref().unwrap()).unwrap();
    // Cut before the run's end: the client gets a RUN_ERROR, as on any stream.
    let cut: String = all[4..all.len() - 1]
        .iter()
        .map(|(t, _)| frame(t))
        .collect();
    let (out, relay) = whole(&RelayOptions::new().resume_after(cursor()), cut.as_bytes());
    assert_eq!(relay.fault().map(|f| f.kind()), Some(FaultKind::Truncated));
    run_error(&out, "UPSTREAM_TRUNCATED");
    // The next run is checked again: content for a message it never started is refused.
    let mut next: String = all[4..].iter().map(|(t, _)| frame(t)).collect();
    next.push_str(&frame(
        r#"{"type":"RUN_STARTED","threadId":"t1","runId":"run-2"}"#,
    ));
    next.push_str(&frame(
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}"#,
    ));
    let (_, relay) = whole(&RelayOptions::new().resume_after(cursor()), next.as_bytes());
    assert_eq!(relay.fault().map(|f| f.kind()), Some(FaultKind::EventOrder));
    // A cursor made by hand with a line break: the events go out without cursors.
    let options = RelayOptions::new()
        .with_cursors(true)
        .resume_after(Cursor::new("run-1\nid: x", 3));
    let (out, _) = whole(&options, cut.as_bytes());
    assert!(events_of(&out).iter().all(|(_, id)| id.is_none()));
}

#[test]
fn a_cursor_for_another_run_skips_nothing_of_this_one() {
    let mut input = conversation();
    input.extend_from_slice(second_run("run-2").as_bytes());
    let (full, _) = whole(&RelayOptions::new().with_cursors(true), &input);
    let all = events_of(&full);
    // A run the stream does not hold: everything is forwarded.
    let options = RelayOptions::new()
        .with_cursors(true)
        .resume_after(Cursor::new("run-9", 3));
    let (out, relay) = whole(&options, &input);
    assert_eq!(events_of(&out), all);
    assert_eq!(relay.skipped(), 0);
    // The second run named: the first is forwarded whole, skipping starts at run-2's start.
    let options = RelayOptions::new()
        .with_cursors(true)
        .resume_after(Cursor::new("run-2", 0));
    let (out, relay) = whole(&options, &input);
    let got = events_of(&out);
    assert_eq!(got[..12], all[..12]);
    assert_eq!(got[12..], all[13..]);
    assert_eq!(got.last().unwrap().1.as_deref(), Some("run-2:1"));
    assert_eq!(relay.skipped(), 1);
}

#[test]
fn the_cursor_applies_to_the_first_run_of_its_id_only() {
    let mut input = frame(START);
    input.push_str(&frame(FINISH));
    input.push_str(&frame(START));
    input.push_str(&frame(FINISH));
    let options = RelayOptions::new()
        .with_cursors(true)
        .resume_after(Cursor::new("run-1", 0));
    let (out, relay) = whole(&options, input.as_bytes());
    let ids: Vec<Option<String>> = events_of(&out).into_iter().map(|(_, id)| id).collect();
    assert_eq!(
        ids,
        [
            Some("run-1:1".to_string()),
            Some("run-1:0".to_string()),
            Some("run-1:1".to_string())
        ]
    );
    assert_eq!(relay.skipped(), 1);
}

#[test]
fn skipped_events_are_still_checked() {
    // Event 3 is invalid (no messageId) and the client's cursor is past it: the stream still
    // ends with a RUN_ERROR naming it, and nothing of the run before it is forwarded.
    let mut input = frame(START);
    input.push_str(&frame(
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#,
    ));
    input.push_str(&frame(
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a"}"#,
    ));
    input.push_str(&frame(r#"{"type":"TEXT_MESSAGE_CONTENT","delta":"b"}"#));
    input.push_str(&frame(FINISH));
    let options = RelayOptions::new()
        .with_cursors(true)
        .resume_after(Cursor::new("run-1", 3));
    let (out, relay) = whole(&options, input.as_bytes());
    assert_eq!(relay.fault().unwrap().kind(), FaultKind::InvalidEvent);
    assert_eq!(relay.fault().unwrap().index(), 3);
    let events = texts(&out);
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(events[0].contains("RUN_ERROR"));
    // An upstream that stops inside the resumed run: the client learns it.
    let cut = format!(
        "{}{}",
        frame(START),
        frame(r#"{"type":"STEP_STARTED","stepName":"s"}"#)
    );
    let options = RelayOptions::new().resume_after(Cursor::new("run-1", 0));
    let (out, relay) = whole(&options, cut.as_bytes());
    assert_eq!(relay.fault().unwrap().kind(), FaultKind::Truncated);
    let events = texts(&out);
    assert!(events[0].contains("STEP_STARTED") && events[1].contains("UPSTREAM_TRUNCATED"));
}

#[test]
fn cursors_read_back_what_the_relay_wrote() {
    // A run id with escapes and colons: the cursor holds its raw JSON text, and matches it.
    let start = r#"{"type":"RUN_STARTED","threadId":"t","runId":"urn:r\u00e9:1"}"#;
    let finish = r#"{"type":"RUN_FINISHED","threadId":"t","runId":"urn:r\u00e9:1"}"#;
    let input = format!("{}{}", frame(start), frame(finish));
    let (out, _) = whole(&RelayOptions::new().with_cursors(true), input.as_bytes());
    let first = events_of(&out)[0].1.clone().unwrap();
    assert_eq!(first, r"urn:r\u00e9:1:0");
    let cursor = Cursor::parse(&first).unwrap();
    assert_eq!((cursor.run_id(), cursor.index()), (r"urn:r\u00e9:1", 0));
    assert_eq!(cursor.to_string(), first);
    let (out, relay) = whole(
        &RelayOptions::new().with_cursors(true).resume_after(cursor),
        input.as_bytes(),
    );
    assert_eq!(relay.skipped(), 1);
    assert_eq!(events_of(&out)[0].1.as_deref(), Some(r"urn:r\u00e9:1:1"));
    // Values that are not cursors are refused, never a panic.
    let long = format!("{}:1", "r".repeat(2000));
    for bad in [
        "",
        ":",
        "r",
        "r:",
        ":1",
        "r:1:",
        "r: 1",
        "r:1x",
        "r:\u{661}",
        long.as_str(),
        "r\u{0}:1",
    ] {
        assert!(Cursor::parse(bad).is_none(), "{bad:?}");
    }
}
