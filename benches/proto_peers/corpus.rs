//! The protobuf benches' events: every event of the conformance corpus
//! (tests/conformance/events) and of samples/run.sse that the parser accepts and the encoder
//! carries, one JSON text each; and a stream of `n` of them, repeated, as SSE and as frames.

use agui_wire::proto::{EncodeOptions, encode_json};
use agui_wire::sse::{SseDecoder, SseOptions};
use agui_wire::{Bump, Event};

/// The distinct events, as compact JSON texts.
pub fn corpus() -> Vec<Vec<u8>> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files: Vec<_> = std::fs::read_dir(format!("{root}/tests/conformance/events"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut sse = Vec::new();
    for f in files {
        let name = f.to_string_lossy().to_string();
        if name.ends_with(".sse") {
            sse.extend(std::fs::read(&f).unwrap());
        } else if name.ends_with(".json") && !name.ends_with(".expected.json") {
            let v: serde_json::Value = match serde_json::from_slice(&std::fs::read(&f).unwrap()) {
                Ok(v) => v,
                Err(_) => continue,
            };
            sse.extend(b"data: ");
            sse.extend(serde_json::to_vec(&v).unwrap());
            sse.extend(b"\n\n");
        }
    }
    sse.extend(std::fs::read(format!("{root}/samples/run.sse")).unwrap());
    let arena = Bump::new();
    let mut out = Vec::new();
    let mut dec = SseDecoder::new(SseOptions::default());
    let mut feed = dec.feed(&sse);
    while let Some(f) = feed.next() {
        let Ok(f) = f else { continue };
        let mut probe = Vec::new();
        if !f.data.is_empty()
            && !f.data.contains(&b'\n')
            && Event::parse(f.data, &arena).is_ok()
            && encode_json(f.data, &mut probe, &EncodeOptions::default()).is_ok()
        {
            out.push(f.data.to_vec());
        }
    }
    out
}

/// `n` events (the corpus repeated): the SSE stream and the protobuf stream.
pub fn streams(events: &[Vec<u8>], n: usize) -> (Vec<u8>, Vec<u8>) {
    let mut sse = Vec::new();
    let mut proto = Vec::new();
    for i in 0..n {
        let e = &events[i % events.len()];
        sse.extend_from_slice(b"data: ");
        sse.extend_from_slice(e);
        sse.extend_from_slice(b"\n\n");
        encode_json(e, &mut proto, &EncodeOptions::default()).unwrap();
    }
    (sse, proto)
}
