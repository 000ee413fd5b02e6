//! The writer: byte-exact round trips of compact input, model round trips of any input, the
//! vectored and `io::Write` forms, and owned copies.

mod common;

use agui_wire::writer::{WriteJson, to_io_slices_with_threshold, write_vectored_to};
use agui_wire::*;
use common::*;

fn parse_any<'a>(name: &str, bytes: &'a [u8], arena: &'a Bump) -> (Vec<u8>, String) {
    if is_capabilities(name) {
        let c = AgentCapabilities::parse(bytes, arena).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = to_vec(&c);
        let again = AgentCapabilities::parse(&out, arena).unwrap();
        assert_eq!(again, c, "{name}: model changed");
        assert_eq!(c.json_len(), out.len());
        (out, format!("{c:?}"))
    } else {
        let i = RunAgentInput::parse(bytes, arena).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = to_vec(&i);
        let again = RunAgentInput::parse(&out, arena)
            .unwrap_or_else(|e| panic!("{name}: written output does not parse: {e}"));
        assert_eq!(again, i, "{name}: model changed");
        assert_eq!(i.json_len(), out.len());
        (out, format!("{i:?}"))
    }
}

#[test]
fn samples_round_trip() {
    let compact = read("samples/conversation.compact.json");
    let pretty = read("samples/conversation.json");
    let arena = Bump::new();
    let (out, _) = parse_any("conversation.compact.json", &compact, &arena);
    assert!(
        out == compact,
        "compact sample not reproduced byte for byte"
    );
    // The pretty sample minifies to exactly the compact one.
    let (out, _) = parse_any("conversation.json", &pretty, &arena);
    assert!(
        out == compact,
        "pretty sample does not write as the compact sample"
    );
    assert!(!has_ws(&out));
    let caps = read("samples/capabilities.json");
    let (out, _) = parse_any("capabilities.json", &caps, &arena);
    assert!(!has_ws(&out));
    // A compact version of it round-trips byte for byte.
    let (again, _) = parse_any("capabilities.json", &out, &arena);
    assert_eq!(again, out);
}

#[test]
fn corpus_round_trip() {
    let docs = corpus();
    let mut exact = 0;
    for (name, bytes) in &docs {
        let arena = Bump::new();
        let (out, _) = parse_any(name, bytes, &arena);
        assert!(!has_ws(&out), "{name}: output not compact");
        if !has_ws(bytes) {
            assert!(
                out == *bytes,
                "{name}: compact input not reproduced:\n in: {}\nout: {}",
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(&out)
            );
            exact += 1;
        }
    }
    eprintln!(
        "{} corpus documents, {exact} compact ones byte-exact",
        docs.len()
    );
}

#[test]
fn generated_round_trip() {
    let mode = Mode {
        canonical: false,
        sdk: false,
        shuffle: true,
    };
    let mut g = Gen::new(0x5eed, mode);
    let mut ws = Rng(7);
    for n in 0..600 {
        let doc = g.document();
        let arena = Bump::new();
        let input = RunAgentInput::parse(doc.as_bytes(), &arena)
            .unwrap_or_else(|e| panic!("doc {n} does not parse: {e}\n{doc}"));
        let out = to_vec(&input);
        assert!(
            out == doc.as_bytes(),
            "doc {n} not reproduced:\n in: {doc}\nout: {}",
            String::from_utf8_lossy(&out)
        );
        // With whitespace: same model, compact output equal to the compact original.
        let pretty = sprinkle(&doc, &mut ws);
        let arena2 = Bump::new();
        let p = RunAgentInput::parse(pretty.as_bytes(), &arena2)
            .unwrap_or_else(|e| panic!("pretty doc {n}: {e}\n{pretty}"));
        assert_eq!(p, input, "doc {n}: whitespace changed the model");
        let pout = to_vec(&p);
        assert!(
            pout == doc.as_bytes(),
            "doc {n}: pretty input not minified to the original"
        );
        let reparsed = RunAgentInput::parse(&pout, &arena2).unwrap();
        assert_eq!(reparsed, p);
    }
}

#[test]
fn key_order_and_unknown_fields_survive() {
    let doc = br#"{"x-first":1,"messages":[{"content":[{"source":{"mimeType":"image/png","x-s":[],"value":"AAAA","type":"data"},"type":"image","x-p":{"a":"b"}}],"x-m":null,"role":"user","id":"u"}],"runId":"r","threadId":"t","x-last":"z"}"#;
    let arena = Bump::new();
    let input = RunAgentInput::parse(doc, &arena).unwrap();
    assert_eq!(to_vec(&input), doc);
    assert_eq!(input.extra.get("x-last").unwrap().text(), "\"z\"");
}

#[test]
fn mutated_fields_with_a_recorded_order() {
    // A recorded (non-canonical) order, then fields added and removed by hand: absent fields
    // are skipped, recorded ones keep their place (a pushed unknown field is recorded), and
    // known fields the record does not mention come after, in the protocol's order.
    let doc = br#"{"runId":"r","x":1,"threadId":"t","parentRunId":"p","messages":[]}"#;
    let arena = Bump::new();
    let mut input = RunAgentInput::parse(doc, &arena).unwrap();
    input.parent_run_id = None;
    input.protocol_version = Some(Str::new("1.0"));
    input
        .extra
        .push(Str::new("y"), RawJson::from_text("2").unwrap());
    let out = to_vec(&input);
    assert_eq!(
        out,
        br#"{"runId":"r","x":1,"threadId":"t","messages":[],"y":2,"protocolVersion":"1.0"}"#
    );
    assert_eq!(input.extra.remove("x"), 1);
    let out = to_vec(&input);
    assert_eq!(
        out,
        br#"{"runId":"r","threadId":"t","messages":[],"y":2,"protocolVersion":"1.0"}"#
    );
    RunAgentInput::parse(&out, &arena).unwrap();
}

#[test]
fn non_compact_raw_values_are_minified() {
    let doc = b"{\"threadId\":\"t\",\"runId\":\"r\",\"state\":{ \"a\" :\n[1, \"x y\"] },\"messages\":[],\"x\":[ 1 ]}";
    let arena = Bump::new();
    let input = RunAgentInput::parse(doc, &arena).unwrap();
    assert_eq!(
        to_vec(&input),
        br#"{"threadId":"t","runId":"r","state":{"a":[1,"x y"]},"messages":[],"x":[1]}"#
    );
}

#[test]
fn known_exceptions_to_byte_exactness() {
    // Escaped known keys and discriminators are written plainly; the model is the same.
    let doc = br#"{"thr\u0065adId":"t","runId":"r","messages":[{"id":"u","role":"us\u0065r","content":"c"}]}"#;
    let arena = Bump::new();
    let input = RunAgentInput::parse(doc, &arena).unwrap();
    let out = to_vec(&input);
    assert_eq!(
        out,
        br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"c"}]}"#
    );
    assert_eq!(RunAgentInput::parse(&out, &arena).unwrap(), input);
}

fn big_document(payload_len: usize) -> String {
    let payload = "QUJD".repeat(payload_len / 4);
    let state = format!("{{\"blob\":\"{}\"}}", "s".repeat(payload_len));
    format!(
        r#"{{"threadId":"t","runId":"r","state":{state},"messages":[{{"id":"u","role":"user","content":[{{"type":"text","text":"small"}},{{"type":"image","source":{{"type":"data","value":"{payload}","mimeType":"image/png"}}}},{{"type":"document","source":{{"type":"data","value":"{payload}","mimeType":"application/pdf"}}}}]}}]}}"#
    )
}

#[test]
fn vectored_points_into_the_input() {
    let doc = big_document(64 * 1024);
    let bytes = doc.as_bytes();
    let arena = Bump::new();
    let input = RunAgentInput::parse(bytes, &arena).unwrap();
    let mut scratch = Vec::new();
    let slices = to_io_slices(&input, &mut scratch);
    let joined: Vec<u8> = slices.iter().flat_map(|s| s.iter().copied()).collect();
    assert_eq!(joined, to_vec(&input));
    assert_eq!(joined, bytes);
    let input_range = bytes.as_ptr_range();
    let ranges: Vec<(std::ops::Range<*const u8>, usize)> =
        slices.iter().map(|s| (s.as_ptr_range(), s.len())).collect();
    drop(slices);
    let scratch_range = scratch.as_ptr_range();
    let mut large = 0;
    for (r, len) in &ranges {
        if *len >= agui_wire::writer::VECTORED_THRESHOLD {
            assert!(
                r.start >= input_range.start && r.end <= input_range.end,
                "a large slice is not a slice of the input"
            );
            large += 1;
        } else {
            assert!(r.start >= scratch_range.start && r.end <= scratch_range.end);
        }
    }
    // state, two payloads.
    assert_eq!(large, 3);
    assert!(scratch.len() < 400, "glue is small: {}", scratch.len());

    let mut out = Vec::new();
    write_vectored_to(&input, &mut out).unwrap();
    assert_eq!(out, bytes);
    let mut out = Vec::new();
    write_to(&input, &mut out).unwrap();
    assert_eq!(out, bytes);
}

#[test]
fn vectored_matches_to_vec_on_generated_documents() {
    let mode = Mode {
        canonical: false,
        sdk: false,
        shuffle: true,
    };
    let mut g = Gen::new(99, mode);
    let mut rng = Rng(5);
    for _ in 0..100 {
        let doc = sprinkle(&g.document(), &mut rng);
        let arena = Bump::new();
        let input = RunAgentInput::parse(doc.as_bytes(), &arena).unwrap();
        let expected = to_vec(&input);
        for threshold in [0, 1, 8, 4096] {
            let mut scratch = Vec::new();
            let slices = to_io_slices_with_threshold(&input, &mut scratch, threshold);
            let joined: Vec<u8> = slices.iter().flat_map(|s| s.iter().copied()).collect();
            assert_eq!(joined, expected);
        }
        let mut out = Vec::new();
        input.write_json_to(&mut out).unwrap();
        assert_eq!(out, expected);
    }
}

#[test]
fn into_owned_outlives_the_buffer() {
    let owned: RunAgentInput<'static> = {
        let bytes = read("samples/conversation.json");
        let arena = Bump::new();
        let input = RunAgentInput::parse(&bytes, &arena).unwrap();
        input.into_owned()
    };
    let expected = read("samples/conversation.compact.json");
    assert_eq!(to_vec(&owned), expected);
    let caps: AgentCapabilities<'static> = {
        let bytes = read("samples/capabilities.json");
        let arena = Bump::new();
        AgentCapabilities::parse(&bytes, &arena)
            .unwrap()
            .into_owned()
    };
    let arena = Bump::new();
    let out = to_vec(&caps);
    assert_eq!(AgentCapabilities::parse(&out, &arena).unwrap(), caps);
}

#[test]
fn parts_and_messages_write_alone() {
    let bytes = read("samples/conversation.compact.json");
    let arena = Bump::new();
    let input = RunAgentInput::parse(&bytes, &arena).unwrap();
    for m in input.messages.iter() {
        let out = m.to_json_vec();
        // Each message is a slice of the compact input.
        assert!(
            bytes.windows(out.len()).any(|w| w == out.as_slice()),
            "message {} not found verbatim",
            m.id()
        );
        for p in m.parts() {
            let out = p.to_json_vec();
            assert!(bytes.windows(out.len()).any(|w| w == out.as_slice()));
        }
    }
}

/// Found by the `roundtrip` fuzz target: `write_json_to` handed a span of
/// `VECTORED_THRESHOLD` bytes or more to the writer before the smaller pieces still in its
/// buffer, so any long string or raw value that was not the first thing written came out in
/// the wrong place.
#[test]
fn write_json_to_keeps_order_around_long_spans() {
    for len in [4095, 4096, 5000, 8191, 8192, 9000, 20_000] {
        let long = "a".repeat(len);
        let state = format!(r#"{{"k":"{}"}}"#, "b".repeat(len));
        let doc = format!(
            r#"{{"threadId":"{long}","runId":"r","state":{state},"messages":[{{"id":"m","role":"user","content":"{long}"}},{{"id":"n","role":"user","content":"hi"}}],"x-{long}":1}}"#
        );
        let arena = Bump::new();
        let input = RunAgentInput::parse(doc.as_bytes(), &arena).unwrap();
        let expected = to_vec(&input);
        assert_eq!(expected, doc.as_bytes());
        let mut out = Vec::new();
        input.write_json_to(&mut out).unwrap();
        assert_eq!(out, expected, "len {len}");
        // Through a writer that takes a few bytes per call, too.
        struct Trickle(Vec<u8>);
        impl std::io::Write for Trickle {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                let n = b.len().min(7);
                self.0.extend_from_slice(&b[..n]);
                Ok(n)
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut t = Trickle(Vec::new());
        input.write_json_to(&mut t).unwrap();
        assert_eq!(t.0, expected, "len {len}, trickle");
    }
}
