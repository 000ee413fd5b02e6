//! The event relay on any byte stream, fed in any chunks. Oracles: no panic; the output for
//! the stream in one chunk equals the output for every other chunking (one byte at a time,
//! sliding pairs of cuts, random lengths), with the same counters and fault; the output is
//! well-formed SSE that ends between frames, and every frame in it parses as an event; a
//! stream that ended with a fault ends with the relay's `RUN_ERROR` (unless the upstream's own
//! `RUN_ERROR` came just before); nothing comes out after the end (all of it under every
//! policy, resuming after a cursor of the input's first run included); and, with the default
//! options and no fault, the events forwarded are the events of the input (differential
//! against the SSE decoder).
#![no_main]

use agui_wire::relay::{Cursor, EventTypeSet, RawPolicy, Relay, RelayOptions};
use agui_wire::sse::{SseDecoder, SseItem, SseOptions};
use agui_wire::{Bump, Event, EventType};
use agui_wire_fuzz::split::{self, Rng};
use bytes::Bytes;
use libfuzzer_sys::fuzz_target;

struct Run {
    out: Vec<u8>,
    counts: (u64, u64, u64, u64, usize),
    fault: Option<String>,
}

fn relay(options: &RelayOptions, chunks: &[&[u8]], pings: bool) -> Run {
    let mut r = Relay::new(options.clone());
    let mut out = Vec::new();
    for chunk in chunks {
        r.feed(Bytes::copy_from_slice(chunk), &mut out);
        if pings {
            r.on_idle(&mut out);
        }
    }
    r.finish(&mut out);
    assert!(r.is_ended());
    let n = out.len();
    r.feed(Bytes::from_static(b"data: {}\n\n"), &mut out);
    r.on_idle(&mut out);
    r.finish(&mut out);
    assert_eq!(out.len(), n, "nothing after the end");
    Run {
        out: out.concat(),
        counts: (
            r.relayed(),
            r.dropped(),
            r.redacted(),
            r.skipped(),
            r.events_seen(),
        ),
        fault: r.fault().map(|f| f.to_string()),
    }
}

/// The frames of an SSE stream read strictly: (data, whether it parses as an event).
fn frames(stream: &[u8], strict: bool) -> (Vec<Vec<u8>>, bool) {
    let mut d = SseDecoder::new(SseOptions::new().with_strict_end(strict));
    let mut all = Vec::new();
    let mut clean = true;
    let mut feed = d.feed(stream);
    while let Some(item) = feed.next_item() {
        match item {
            Ok(SseItem::Frame(f)) => all.push(f.data.to_vec()),
            Ok(_) => {}
            Err(_) => clean = false,
        }
    }
    drop(feed);
    match d.finish() {
        Ok(Some(f)) => all.push(f.data.to_vec()),
        Ok(None) => {}
        Err(_) => clean = false,
    }
    (all, clean)
}

/// The first `runId` string of the input (raw text between its quotes), so a resumed relay
/// has a run to skip into.
fn first_run_id(data: &[u8]) -> &str {
    const KEY: &[u8] = b"\"runId\":\"";
    let Some(at) = data.windows(KEY.len()).position(|w| w == KEY) else {
        return "r";
    };
    let rest = &data[at + KEY.len()..];
    let end = rest.iter().position(|&b| b == b'"').unwrap_or(rest.len());
    std::str::from_utf8(&rest[..end]).unwrap_or("r")
}

fn policy(rng: &mut Rng, data: &[u8]) -> RelayOptions {
    let o = RelayOptions::new();
    match rng.range(0, 6) {
        5 => o
            .with_cursors(true)
            .resume_after(Cursor::new(first_run_id(data), rng.range(0, 12) as u64)),
        0 => o.with_cursors(true),
        1 => o.with_raw(RawPolicy::Drop),
        2 => o.with_raw(RawPolicy::Redact).with_cursors(true),
        3 => o.with_drop_types(
            EventTypeSet::new()
                .with(EventType::TextMessageContent)
                .with(EventType::Custom),
        ),
        4 => o
            .with_sse(SseOptions::new().with_strict_end(true))
            .with_check_order(false),
        _ => o.with_max_frame_bytes(rng.range(1, 200)),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut rng = Rng::for_input(data, 0x2e1a7);
    let chosen = policy(&mut rng, data);
    for options in [RelayOptions::new(), chosen] {
        let whole = relay(&options, &[data], false);
        for lengths in split::chunkings(data.len(), &mut rng) {
            let chunks = split::cut(data, &lengths);
            let got = relay(&options, &chunks, false);
            assert_eq!(got.out, whole.out, "chunks {lengths:?}, {options:?}");
            assert_eq!(got.counts, whole.counts, "counters, chunks {lengths:?}");
            assert_eq!(got.fault, whole.fault, "fault, chunks {lengths:?}");
        }

        // Well-formed: valid SSE ending between frames, every frame an event.
        let (out_frames, clean) = frames(&whole.out, true);
        assert!(
            clean,
            "relay output is not clean SSE: {:?}",
            String::from_utf8_lossy(&whole.out)
        );
        let arena = Bump::new();
        let mut last_type = None;
        for f in &out_frames {
            let event = Event::parse(f, &arena).unwrap_or_else(|e| {
                panic!(
                    "relay output frame {:?} is not an event: {e}",
                    String::from_utf8_lossy(f)
                )
            });
            last_type = Some(event.type_name().into_owned());
        }
        if whole.fault.is_some() {
            // The relay's own, or the upstream's just before the fault.
            assert_eq!(
                last_type.as_deref(),
                Some("RUN_ERROR"),
                "a fault ends with RUN_ERROR"
            );
        }

        // Keep-alives change nothing but add comments.
        let lengths = split::lengths(data.len(), &mut rng);
        let chunks = split::cut(data, &lengths);
        let pinged = relay(&options, &chunks, true);
        let (pinged_frames, clean) = frames(&pinged.out, true);
        assert!(clean);
        assert_eq!(pinged_frames, out_frames, "keep-alives only add comments");

        // Default options, no fault: the events forwarded are the input's.
        if options == RelayOptions::new() && whole.fault.is_none() {
            let (in_frames, _) = frames(data, false);
            assert_eq!(
                out_frames, in_frames,
                "forwarded events differ from the input's"
            );
        }
    }
});
