//! The event corpus the protobuf tests share: tests/conformance/events and samples/run.sse.

use agui_wire::sse::{SseDecoder, SseOptions};
use agui_wire::{Bump, Event};
use std::path::Path;

/// Every single-event JSON document of the corpus that the crate's parser accepts, and every
/// event of `samples/run.sse` and the `.sse` fixtures.
pub fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/events");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let arena = Bump::new();
    let mut push = |name: String, data: Vec<u8>| {
        if Event::parse(&data, &arena).is_ok() {
            out.push((name, data));
        }
    };
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with(".expected.json") {
            continue;
        }
        let bytes = std::fs::read(f).unwrap();
        if name.ends_with(".json") {
            push(name, bytes);
        } else if name.ends_with(".sse") {
            for (i, d) in sse_events(&bytes).into_iter().enumerate() {
                push(format!("{name}#{i}"), d);
            }
        }
    }
    let run = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/run.sse")).unwrap();
    for (i, d) in sse_events(&run).into_iter().enumerate() {
        push(format!("run.sse#{i}"), d);
    }
    out
}

pub fn sse_events(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut dec = SseDecoder::new(SseOptions::default());
    let mut out = Vec::new();
    let mut feed = dec.feed(bytes);
    while let Some(f) = feed.next() {
        if let Ok(f) = f
            && !f.data.is_empty()
        {
            out.push(f.data.to_vec());
        }
    }
    out
}
