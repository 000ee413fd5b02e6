//! AG-UI events through the protobuf encoder and decoder (`agui_wire::proto`):
//! - each line of the input that `Event::parse` accepts is an event; and, built with
//!   `arbitrary`, CUSTOM / STATE_SNAPSHOT / RAW events around any JSON value;
//! - each encodes (losses reported, never silent), decodes, and the JSON written encodes to
//!   the same frame (and, without losses, is an event `Event::parse` accepts);
//! - without reported losses, the event read back holds every field of the one given, with
//!   the same values (numbers compared as doubles; an empty list may come back absent);
//! - with `OnLoss::Error`, encoding fails exactly when `OnLoss::Report` reports something.
#![no_main]

use agui_wire::proto::*;
use agui_wire::{Bump, Event};
use agui_wire_fuzz::arb::Gen;
use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn contains(big: &Value, small: &Value) -> bool {
    match (big, small) {
        (Value::Object(b), Value::Object(s)) => s.iter().all(|(k, v)| match b.get(k) {
            Some(x) => contains(x, v),
            None => v.as_array().is_some_and(|a| a.is_empty()),
        }),
        (Value::Array(b), Value::Array(s)) => {
            b.len() == s.len() && b.iter().zip(s).all(|(x, y)| contains(x, y))
        }
        (Value::Number(a), Value::Number(b)) => {
            a.to_string().parse::<f64>().ok() == b.to_string().parse::<f64>().ok()
        }
        _ => big == small,
    }
}

fn check(json: &[u8]) {
    let arena = Bump::new();
    if Event::parse(json, &arena).is_err() {
        return;
    }
    let report = EncodeOptions {
        on_loss: OnLoss::Report,
        ..EncodeOptions::default()
    };
    let mut frame = Vec::new();
    let losses = match encode_json(json, &mut frame, &report) {
        Ok(l) => l,
        Err(e) => {
            // Only limits and event types protobuf has no arm for may refuse a valid event.
            assert!(
                matches!(
                    e.kind(),
                    ProtoErrorKind::DepthLimit(_) | ProtoErrorKind::Event(_)
                ),
                "{e}"
            );
            return;
        }
    };
    let mut strict = Vec::new();
    let strict_result = encode_json(json, &mut strict, &EncodeOptions::default());
    assert_eq!(strict_result.is_err(), !losses.is_empty(), "{losses:?}");
    if strict_result.is_ok() {
        assert_eq!(strict, frame);
    }
    let len = u32::from_be_bytes(frame[..4].try_into().unwrap()) as usize;
    assert_eq!(len, frame.len() - 4);
    let ev = ProtoEvent::decode(&frame[4..]).expect("our frame decodes");
    let back = match ev.to_json(&DecodeOptions::default()) {
        Ok(b) => b,
        Err(e) => panic!("our frame does not write JSON: {e}"),
    };
    // The official decoder fills proto3 defaults ("" for required strings), so an event
    // whose required string was empty may come back as one our parser reads the same way.
    // (A reported loss may leave an invalid event: `1e400` in `rawEvent` is sent as null.)
    if losses.is_empty() {
        Event::parse(back.as_bytes(), &arena)
            .unwrap_or_else(|e| panic!("read back is not an event ({e}): {back}"));
    }
    let mut again = Vec::new();
    encode_json(back.as_bytes(), &mut again, &EncodeOptions::default())
        .unwrap_or_else(|e| panic!("read back does not encode ({e}): {back}"));
    assert_eq!(again, frame);
    if losses.is_empty() {
        let a: Value = serde_json::from_slice(json).unwrap();
        let b: Value = serde_json::from_str(&back).unwrap();
        assert!(contains(&b, &a), "given {a}\nread back {b}");
    }
}

fuzz_target!(|data: &[u8]| {
    for line in data.split(|&b| b == b'\n') {
        check(line);
    }
    let arena = Bump::new();
    let mut u = Unstructured::new(data);
    let mut g = Gen::new(&mut u, &arena);
    if let Ok(v) = g.raw() {
        let v = v.text();
        for json in [
            format!(r#"{{"type":"CUSTOM","name":"n","value":{v}}}"#),
            format!(r#"{{"type":"STATE_SNAPSHOT","snapshot":{v},"rawEvent":{v}}}"#),
            format!(r#"{{"type":"RAW","event":{v},"source":"s"}}"#),
        ] {
            check(json.as_bytes());
        }
    }
});
