//! The protobuf transport on its own: every event of the conformance corpus and of
//! `samples/run.sse` encodes, decodes to an event the JSON parser accepts, and re-encodes to
//! the same bytes; framing under every chunking; the limits and the loss reports.

mod proto_corpus;

use agui_wire::proto::*;
use agui_wire::{Bump, Event};
use proto_corpus::corpus;

fn report() -> EncodeOptions {
    EncodeOptions {
        on_loss: OnLoss::Report,
        ..EncodeOptions::default()
    }
}

#[test]
fn corpus_round_trips() {
    let corpus = corpus();
    assert!(corpus.len() > 100, "corpus has {} events", corpus.len());
    let arena = Bump::new();
    let mut lossy = 0;
    for (name, json) in &corpus {
        let mut frame = Vec::new();
        let losses =
            encode_json(json, &mut frame, &report()).unwrap_or_else(|e| panic!("{name}: {e}"));
        if !losses.is_empty() {
            lossy += 1;
        }
        let ev = ProtoEvent::decode(&frame[4..]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = ev
            .to_json(&DecodeOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // The JSON written is an event the crate's parser accepts ...
        Event::parse(back.as_bytes(), &arena).unwrap_or_else(|e| panic!("{name}: {e}\n{back}"));
        // ... and encodes to the same frame.
        let mut again = Vec::new();
        encode_json(back.as_bytes(), &mut again, &EncodeOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}\n{back}"));
        assert_eq!(again, frame, "{name}: {back}");
        // Without losses the JSON read back is the JSON given, up to key order and
        // the defaults protobuf fills in.
        if losses.is_empty() {
            let a: serde_json::Value = serde_json::from_slice(json).unwrap();
            let b: serde_json::Value = serde_json::from_str(&back).unwrap();
            assert!(
                contains(&b, &a),
                "{name}:\n{}\n{back}",
                String::from_utf8_lossy(json)
            );
        }
    }
    println!("{} events, {lossy} with reported losses", corpus.len());
}

/// Whether `big` holds everything in `small` (objects may have more keys in `big`).
fn contains(big: &serde_json::Value, small: &serde_json::Value) -> bool {
    use serde_json::Value::*;
    match (big, small) {
        // An empty list and an absent one are the same thing in protobuf.
        (Object(b), Object(s)) => s.iter().all(|(k, v)| match b.get(k) {
            Some(x) => contains(x, v),
            None => v.as_array().is_some_and(|a| a.is_empty()),
        }),
        (Array(b), Array(s)) => b.len() == s.len() && b.iter().zip(s).all(|(x, y)| contains(x, y)),
        (Number(a), Number(b)) => a.as_f64() == b.as_f64(),
        _ => big == small,
    }
}
