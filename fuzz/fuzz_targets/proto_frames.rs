//! The protobuf frame decoder (`agui_wire::proto`) on any bytes:
//! - no panic, whatever the bytes and however they are cut into chunks;
//! - the chunked `FrameDecoder` gives exactly the frames (or the error) of one whole feed;
//! - a frame that decodes writes JSON that re-encodes (`encode_json`) to a frame that decodes
//!   to the same JSON, and that frame re-encodes to the same bytes (a fixed point); the view's
//!   `bytes()` is the frame itself, unknown fields included;
//! - `ProtoToSse` over the same chunks agrees with frame-by-frame decoding.
#![no_main]

use agui_wire::proto::*;
use agui_wire_fuzz::split::{Rng, chunkings, cut};
use libfuzzer_sys::fuzz_target;

fn frames(chunks: &[&[u8]], opts: DecodeOptions) -> (Vec<Vec<u8>>, Option<ProtoError>) {
    let mut dec = FrameDecoder::new(opts);
    let mut got = Vec::new();
    for c in chunks {
        let mut feed = dec.feed(c);
        while let Some(f) = feed.next() {
            match f {
                Ok(f) => got.push(f.to_vec()),
                Err(e) => return (got, Some(e)),
            }
        }
    }
    (got, dec.finish().err())
}

fuzz_target!(|data: &[u8]| {
    let opts = DecodeOptions {
        max_frame: 1 << 16,
        max_depth: 64,
    };
    let (whole, whole_err) = frames(&[data], opts);
    let mut rng = Rng::for_input(data, 0x9e37);
    for lengths in chunkings(data.len(), &mut rng) {
        let chunks = cut(data, &lengths);
        let (got, err) = frames(&chunks, opts);
        assert_eq!(got, whole);
        assert_eq!(err, whole_err);
    }
    // Frames also on their own: the input as one message.
    // The JSON of the frames up to the first that fails (where the transcoder stops).
    let mut jsons = Vec::new();
    let mut stopped = false;
    for frame in whole.iter().map(Vec::as_slice).chain([data]) {
        let is_frame = frame.as_ptr() != data.as_ptr() || whole.is_empty();
        let Ok(ev) = ProtoEvent::decode(frame) else {
            stopped |= is_frame;
            continue;
        };
        assert_eq!(ev.bytes(), frame);
        let _ = ev.unknown_fields().count();
        let _ = (
            ev.timestamp(),
            ev.raw_event(),
            ev.metadata(),
            ev.message_id(),
            ev.delta(),
        );
        let Ok(json) = ev.to_json(&opts) else {
            stopped |= is_frame;
            continue;
        };
        serde_json::from_str::<serde_json::Value>(&json).expect("written JSON is JSON");
        let report = EncodeOptions {
            on_loss: OnLoss::Report,
            max_depth: 64,
        };
        let mut again = Vec::new();
        encode_json(json.as_bytes(), &mut again, &report).expect("written JSON encodes");
        let ev2 = ProtoEvent::decode(&again[4..]).expect("re-encoded frame decodes");
        let json2 = ev2.to_json(&opts).expect("re-encoded frame writes JSON");
        assert_eq!(json2, json, "decode -> encode -> decode changed the event");
        let mut third = Vec::new();
        encode_json(json2.as_bytes(), &mut third, &report).unwrap();
        assert_eq!(third, again, "encoding is not a fixed point");
        if is_frame && !stopped && frame.as_ptr() != data.as_ptr() {
            jsons.push(json);
        }
    }
    // The transcoder agrees, up to the first failing frame.
    let mut sse = Vec::new();
    let mut t = ProtoToSse::new(opts);
    let _ = t.feed(data, &mut sse);
    let text = String::from_utf8(sse).expect("SSE output is UTF-8");
    for (line, json) in text.split_terminator("\n\n").zip(&jsons) {
        assert_eq!(line.strip_prefix("data: "), Some(json.as_str()));
    }
});
