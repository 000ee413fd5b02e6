//! The protobuf transport on its own: every event of the conformance corpus and of
//! `samples/run.sse` encodes, decodes to an event the JSON parser accepts, and re-encodes to
//! the same bytes; framing under every chunking; the limits and the loss reports.

mod proto_corpus;

use agui_wire::proto::*;
use agui_wire::{Bump, Event};
use proto_corpus::{corpus, sse_events};

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

/// All corpus frames as one stream.
fn stream() -> (Vec<u8>, Vec<Vec<u8>>) {
    let mut all = Vec::new();
    let mut frames = Vec::new();
    for (_, json) in corpus() {
        let mut f = Vec::new();
        encode_json(&json, &mut f, &report()).unwrap();
        frames.push(f[4..].to_vec());
        all.extend_from_slice(&f);
    }
    (all, frames)
}

fn split(dec: &mut FrameDecoder, chunks: &[&[u8]]) -> Result<Vec<Vec<u8>>, ProtoError> {
    let mut got = Vec::new();
    for c in chunks {
        let mut feed = dec.feed(c);
        while let Some(f) = feed.next() {
            got.push(f?.to_vec());
        }
    }
    dec.finish()?;
    Ok(got)
}

#[test]
fn framing_under_every_chunk_size_and_every_cut() {
    let (all, frames) = stream();
    for size in [1, 2, 3, 4, 5, 7, 64, 1000, all.len()] {
        let chunks: Vec<&[u8]> = all.chunks(size).collect();
        let got = split(&mut FrameDecoder::new(DecodeOptions::default()), &chunks).unwrap();
        assert_eq!(got, frames, "chunk size {size}");
    }
    // One cut anywhere in the first 300 bytes (inside lengths included).
    for cut in 0..300.min(all.len()) {
        let got = split(
            &mut FrameDecoder::new(DecodeOptions::default()),
            &[&all[..cut], &all[cut..]],
        )
        .unwrap();
        assert_eq!(got, frames, "cut at {cut}");
    }
}

#[test]
fn a_frame_whole_in_its_chunk_is_not_copied() {
    let (all, _) = stream();
    let mut dec = FrameDecoder::new(DecodeOptions::default());
    let mut feed = dec.feed(&all);
    let mut n = 0;
    while let Some(f) = feed.next() {
        let f = f.unwrap();
        let range = all.as_ptr_range();
        assert!(range.contains(&f.as_ptr()) || f.is_empty());
        // ... and its strings are slices of it.
        let ev = ProtoEvent::decode(f).unwrap();
        if let Some(id) = ev.message_id().filter(|s| !s.is_empty()) {
            assert!(f.as_ptr_range().contains(&id.as_ptr()));
        }
        n += 1;
    }
    assert!(n > 100);
}

#[test]
fn frame_limit_and_truncation() {
    let mut dec = FrameDecoder::new(DecodeOptions {
        max_frame: 10,
        ..DecodeOptions::default()
    });
    let err = split(&mut dec, &[&[0, 0, 0, 11]]).unwrap_err();
    assert_eq!(
        err.kind(),
        &ProtoErrorKind::FrameTooLarge { len: 11, max: 10 }
    );
    assert_eq!(err.offset(), 0);
    // After the error the decoder stays failed: the framing is lost.
    assert!(dec.feed(&[0, 0, 0, 1, 5]).next().is_none());
    let mut dec = FrameDecoder::new(DecodeOptions::default());
    let err = split(&mut dec, &[&[0, 0, 0, 3, 1, 2]]).unwrap_err();
    assert_eq!(err.kind(), &ProtoErrorKind::TruncatedFrame);
    let mut dec = FrameDecoder::new(DecodeOptions::default());
    assert_eq!(
        split(&mut dec, &[&[0, 0]]).unwrap_err().kind(),
        &ProtoErrorKind::TruncatedFrame
    );
}

fn frame_of(json: &str) -> Vec<u8> {
    let mut f = Vec::new();
    encode_json(json.as_bytes(), &mut f, &EncodeOptions::default()).unwrap();
    f.split_off(4)
}

#[test]
fn numbers_are_exact_or_reported() {
    for (value, back) in [
        ("1", "1"),
        ("-0", "-0"),
        ("0.1", "0.1"),
        ("1.5e-7", "1.5e-7"),
        ("9007199254740992", "9007199254740992"),
        ("1e20", "100000000000000000000"),
        ("1e300", "1e300"),
        ("2.0", "2"),
        ("-12.50", "-12.5"),
    ] {
        let f = frame_of(&format!(
            r#"{{"type":"CUSTOM","name":"n","value":{value}}}"#
        ));
        let json = ProtoEvent::decode(&f)
            .unwrap()
            .to_json(&DecodeOptions::default())
            .unwrap();
        assert_eq!(
            json,
            format!(r#"{{"type":"CUSTOM","name":"n","value":{back}}}"#),
            "{value}"
        );
    }
    for (value, out_of_range) in [
        ("9007199254740993", false),
        ("1e400", true),
        ("0.10000000000000000001", false),
        ("-1e999", true),
    ] {
        let json = format!(r#"{{"type":"CUSTOM","name":"n","value":[{value}]}}"#);
        let mut out = Vec::new();
        let err = encode_json(json.as_bytes(), &mut out, &EncodeOptions::default()).unwrap_err();
        assert!(
            matches!(err.kind(), ProtoErrorKind::Lossy(_, p) if p == "value"),
            "{value}: {err}"
        );
        assert!(out.is_empty());
        let losses = encode_json(json.as_bytes(), &mut out, &report()).unwrap();
        assert_eq!(losses.len(), 1);
        assert_eq!(
            matches!(losses[0].kind, LossKind::NumberOutOfRange(_)),
            out_of_range,
            "{value}"
        );
    }
}

#[test]
fn nan_and_infinity_are_clear_errors() {
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        // CUSTOM { base { type: CUSTOM }, name: "n", value: Value { number_value: x } }
        let mut body = vec![0x0a, 2, 0x08, 10, 0x12, 1, b'n', 0x1a, 9, 0x11];
        body.extend_from_slice(&x.to_le_bytes());
        let mut frame = vec![0x5a, body.len() as u8];
        frame.extend_from_slice(&body);
        let ev = ProtoEvent::decode(&frame).unwrap();
        let err = ev.to_json(&DecodeOptions::default()).unwrap_err();
        assert!(
            matches!(err.kind(), ProtoErrorKind::NonFiniteNumber(_)),
            "{err}"
        );
        assert!(err.to_string().contains("no JSON form"));
    }
}

#[test]
fn depth_is_bounded_both_ways() {
    let deep = format!(
        r#"{{"type":"CUSTOM","name":"n","value":{}1{}}}"#,
        "[".repeat(100),
        "]".repeat(100)
    );
    let mut out = Vec::new();
    let tight = EncodeOptions {
        max_depth: 50,
        ..EncodeOptions::default()
    };
    assert!(matches!(
        encode_json(deep.as_bytes(), &mut out, &tight)
            .unwrap_err()
            .kind(),
        ProtoErrorKind::DepthLimit(50)
    ));
    let f = frame_of(&deep);
    let ev = ProtoEvent::decode(&f).unwrap();
    assert!(ev.to_json(&DecodeOptions::default()).is_ok());
    let err = ev
        .to_json(&DecodeOptions {
            max_depth: 50,
            ..DecodeOptions::default()
        })
        .unwrap_err();
    assert!(matches!(err.kind(), ProtoErrorKind::DepthLimit(50)));
    // 100 000 levels: no recursion, no stack overflow.
    let very = format!(
        r#"{{"type":"CUSTOM","name":"n","value":{}1{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let wide = EncodeOptions {
        max_depth: 200_000,
        ..EncodeOptions::default()
    };
    // (the JSON reader recurses; it is bounded by max_depth, so this runs in a big stack)
    let f = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let mut out = Vec::new();
            encode_json(very.as_bytes(), &mut out, &wide).unwrap();
            out.split_off(4)
        })
        .unwrap()
        .join()
        .unwrap();
    let ev = ProtoEvent::decode(&f).unwrap();
    let json = ev
        .to_json(&DecodeOptions {
            max_depth: 200_000,
            ..DecodeOptions::default()
        })
        .unwrap();
    assert_eq!(
        json.len(),
        r#"{"type":"CUSTOM","name":"n","value":}"#.len() + 200_001
    );
}

#[test]
fn unknown_fields_are_kept_in_the_view() {
    let mut f = frame_of(r#"{"type":"TEXT_MESSAGE_END","messageId":"m"}"#);
    f.extend_from_slice(&[0xa2, 0x06, 2, b'h', b'i']); // field 100, "hi"
    let ev = ProtoEvent::decode(&f).unwrap();
    assert_eq!(ev.bytes(), &f[..]);
    let unknown: Vec<_> = ev.unknown_fields().collect();
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0].number, 100);
    assert_eq!(unknown[0].bytes, &[0xa2, 0x06, 2, b'h', b'i']);
    assert_eq!(
        ev.to_json(&DecodeOptions::default()).unwrap(),
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m"}"#
    );
}

#[test]
fn unknown_json_fields_are_reported_not_dropped_silently() {
    let json = br#"{"type":"CUSTOM","name":"x","value":1,"x-trace":"t"}"#;
    let mut out = Vec::new();
    let err = encode_json(json, &mut out, &EncodeOptions::default()).unwrap_err();
    assert!(
        matches!(err.kind(), ProtoErrorKind::Lossy(LossKind::UnknownField(k), _) if k == "x-trace")
    );
    let losses = encode_json(json, &mut out, &report()).unwrap();
    assert_eq!(
        losses,
        vec![Loss {
            kind: LossKind::UnknownField("x-trace".into()),
            path: "x-trace".into()
        }]
    );
}

#[test]
fn envelope_errors() {
    let a = frame_of(r#"{"type":"TEXT_MESSAGE_END","messageId":"m"}"#);
    let b = frame_of(r#"{"type":"RUN_ERROR","message":"m"}"#);
    let both: Vec<u8> = a.iter().chain(&b).copied().collect();
    assert!(matches!(
        ProtoEvent::decode(&both).unwrap_err().kind(),
        ProtoErrorKind::Invalid(_)
    ));
    // a later protocol's event: field 40, a message
    assert_eq!(
        ProtoEvent::decode(&[0xc2, 0x02, 2, 0x08, 1])
            .unwrap_err()
            .kind(),
        &ProtoErrorKind::UnknownEventType
    );
    // base event type disagrees with the arm
    let mut bad = a.clone();
    bad[4] = 5; // TEXT_MESSAGE_END's base type 2 -> 5
    assert!(ProtoEvent::decode(&bad).is_err());
}

#[test]
fn transcoders_agree_with_one_shot_on_any_chunking() {
    let run = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/run.sse")).unwrap();
    let mut whole = Vec::new();
    let mut t = SseToProto::new(EncodeOptions::default());
    t.feed(&run, &mut whole).unwrap();
    t.finish(&mut whole).unwrap();
    for size in [1, 3, 17, 512] {
        let mut out = Vec::new();
        let mut t = SseToProto::new(EncodeOptions::default());
        for c in run.chunks(size) {
            t.feed(c, &mut out).unwrap();
        }
        t.finish(&mut out).unwrap();
        assert_eq!(out, whole);
        let mut sse = Vec::new();
        let mut d = ProtoToSse::new(DecodeOptions::default());
        for c in whole.chunks(size) {
            d.feed(c, &mut sse).unwrap();
        }
        d.finish().unwrap();
        // The run's events come back as the same events (same JSON, key order of the proto
        // tables, which is the SDKs' order for this file).
        assert_eq!(sse_events(&sse), sse_events(&run));
    }
}

#[test]
fn garbage_never_panics() {
    // A cheap deterministic sweep; the fuzz target does this properly.
    let (all, _) = stream();
    let mut x: u32 = 1;
    for i in 0..2000 {
        let mut f = all[4..all.len().min(400)].to_vec();
        for _ in 0..4 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let at = (x as usize) % f.len();
            f[at] = (x >> 24) as u8;
        }
        f.truncate(f.len() - (i % 7));
        if let Ok(ev) = ProtoEvent::decode(&f) {
            let _ = ev.to_json(&DecodeOptions::default());
            let _ = ev.str("messageId");
        }
    }
}

/// Found by the `proto_frames` fuzz target: an outcome type this version does not know, with
/// a list beside it, came back without the list.
/// `json` encodes with no loss, and the frame decodes back to the same text.
fn assert_round_trips(json: &str) {
    let mut f = Vec::new();
    let losses = encode_json(json.as_bytes(), &mut f, &report()).unwrap();
    assert!(losses.is_empty(), "{json}: {losses:?}");
    let back = ProtoEvent::decode(&f[4..])
        .unwrap()
        .to_json(&DecodeOptions::default())
        .unwrap();
    assert_eq!(back, json);
}

#[test]
fn outcome_lists_ride_with_any_outcome_type() {
    for json in [
        r#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s","outcome":{"type":"later","interruptIds":["a"]}}"#,
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"success","pendingToolCallIds":["c"]}}"#,
    ] {
        assert_round_trips(json);
    }
}

/// Found by the `proto_frames` fuzz target: a list field (`pendingToolCallIds`, field 8) sent
/// with the wrong wire type (a varint) made the decoder write `"pendingToolCallIds":[]` though
/// nothing of it was read, so the event changed when re-encoded. A field of the wrong wire type
/// is an unknown field, as protobuf readers treat it: not read, and listed as unknown.
#[test]
fn a_field_of_the_wrong_wire_type_is_an_unknown_field() {
    for (json, extra) in [
        (
            r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#,
            [0x40u8, 34], // field 8, varint 34
        ),
        (
            r#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s"}"#,
            [0x28, 1], // field 5 (interruptIds), varint 1
        ),
        (
            r#"{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":"x"}"#,
            [0x38, 7], // field 7 (content parts), varint 7
        ),
    ] {
        let f = frame_of(json);
        let tag = if f[0] < 0x80 { 1 } else { 2 }; // the envelope arm's tag
        assert!(f[tag] < 0x80, "a one-byte envelope length");
        let mut body = f[tag + 1..].to_vec();
        body.extend_from_slice(&extra);
        let mut frame = f[..tag].to_vec();
        frame.push(body.len() as u8);
        frame.extend_from_slice(&body);
        let ev = ProtoEvent::decode(&frame).unwrap();
        let unknown: Vec<_> = ev.unknown_fields().collect();
        assert_eq!(unknown.len(), 1, "{json}");
        assert_eq!(unknown[0].bytes, &extra[..]);
        let back = ev.to_json(&DecodeOptions::default()).unwrap();
        assert_eq!(back, json);
    }
}

/// Found by the `proto_frames` fuzz target: a message of a role the schema does not know, with
/// object content (field 13 on the wire), was written to JSON with its content, but the encoder
/// refused to write that content back. A role we do not know keeps its content form both ways.
#[test]
fn unknown_roles_keep_object_content_both_ways() {
    for content in [r#"{"status":"running"}"#, r#""text""#] {
        let json = format!(
            r#"{{"type":"MESSAGES_SNAPSHOT","messages":[{{"id":"a","role":"critic","content":{content}}}]}}"#
        );
        assert_round_trips(&json);
    }
}

/// Found by the `proto_frames` fuzz target: with no outcome type, the decoder (as the official
/// one) leaves a non-empty outcome list at the top level, but the encoder read the lists only
/// inside `outcome` and reported the top-level one as unknown. Both places are read now; beside
/// a typed outcome a top-level list is reported (moving it would change what it means).
#[test]
fn outcome_lists_without_a_type_stay_top_level_both_ways() {
    for json in [
        r#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s","interruptIds":["a"]}"#,
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","pendingToolCallIds":["c"]}"#,
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","interrupts":[{"id":"i","reason":"approval"}]}"#,
    ] {
        assert_round_trips(json);
    }
    let typed = br#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s","outcome":{"type":"done"},"interruptIds":["a"]}"#;
    let losses = encode_json(typed, &mut Vec::new(), &report()).unwrap();
    assert_eq!(
        losses,
        vec![Loss {
            kind: LossKind::UnknownField("interruptIds".into()),
            path: "interruptIds".into()
        }]
    );
}

/// Found by the `proto_frames` fuzz target: a patch op number the schema does not know is
/// written as its decimal string (as the official decoder does), and the encoder refused that
/// string, so the op came back as `add` (0). The exact decimal string of a number that is not
/// a known op now goes back to that number; any other unknown op is reported.
#[test]
fn unknown_patch_op_numbers_round_trip() {
    for op in ["13", "-1", "2147483647"] {
        let json = format!(r#"{{"type":"STATE_DELTA","delta":[{{"op":"{op}","path":"/a"}}]}}"#);
        assert_round_trips(&json);
    }
    for op in ["3", "013", "+13", "nope", "2147483648"] {
        let json = format!(r#"{{"type":"STATE_DELTA","delta":[{{"op":"{op}","path":"/a"}}]}}"#);
        let losses = encode_json(json.as_bytes(), &mut Vec::new(), &report()).unwrap();
        assert_eq!(losses.len(), 1, "{op}");
        assert_eq!(losses[0].path, "delta[0].op");
    }
}

/// Found by the `proto_events` fuzz target: `1e400` is reported and sent as null (so the
/// event read back may not be valid: `rawEvent` may not be null).
#[test]
fn out_of_range_numbers_are_reported_with_their_path() {
    let json = br#"{"type":"STATE_SNAPSHOT","snapshot":{"a":[1e400]},"rawEvent":1e400}"#;
    let mut f = Vec::new();
    let losses = encode_json(json, &mut f, &report()).unwrap();
    let paths: Vec<_> = losses.iter().map(|l| l.path.as_str()).collect();
    assert_eq!(paths, ["rawEvent", "snapshot"]);
    let back = ProtoEvent::decode(&f[4..])
        .unwrap()
        .to_json(&DecodeOptions::default())
        .unwrap();
    assert_eq!(
        back,
        r#"{"type":"STATE_SNAPSHOT","rawEvent":null,"snapshot":{"a":[null]}}"#
    );
}

#[test]
fn strings_are_copied_or_unescaped_exactly_and_bad_ones_refused() {
    // Escaped and plain strings in every place a string goes: fields, lists, keys and values
    // of `Value`s; the frame decodes to the same text, and the encoder given our own JSON
    // back writes the same bytes (the transcoder's path, with the arena, agrees too).
    let json = r#"{"type":"CUSTOM","name":"a\"b\\c\u00e9\n","value":{"k\tey":["x\/y","plain","\ud83d\ude00"],"n":1}}"#;
    let mut frame = Vec::new();
    encode_json(json.as_bytes(), &mut frame, &EncodeOptions::default()).unwrap();
    let ev = ProtoEvent::decode(&frame[4..]).unwrap();
    assert_eq!(ev.str("name").unwrap(), Some("a\"b\\c\u{e9}\n"));
    let back = ev.to_json(&DecodeOptions::default()).unwrap();
    let want: serde_json::Value = serde_json::from_str(json).unwrap();
    let got: serde_json::Value = serde_json::from_str(&back).unwrap();
    assert_eq!(got, want);
    let mut again = Vec::new();
    encode_json(back.as_bytes(), &mut again, &EncodeOptions::default()).unwrap();
    assert_eq!(again, frame);
    let mut sse = b"data: ".to_vec();
    sse.extend_from_slice(json.as_bytes());
    sse.extend_from_slice(b"\n\n");
    let mut up = SseToProto::new(EncodeOptions::default());
    let mut via_sse = Vec::new();
    up.feed(&sse, &mut via_sse).unwrap();
    up.finish(&mut via_sse).unwrap();
    assert_eq!(via_sse, frame);
    // Strings are checked as JSON strings: a bad escape or a raw control character is an
    // error with its offset, not text sent as it stands.
    for bad in [
        r#"{"type":"RUN_ERROR","message":"a\qb"}"#,
        "{\"type\":\"RUN_ERROR\",\"message\":\"a\u{1}b\"}",
    ] {
        let err =
            encode_json(bad.as_bytes(), &mut Vec::new(), &EncodeOptions::default()).unwrap_err();
        assert!(matches!(err.kind(), ProtoErrorKind::Json(_)), "{err}");
        assert!(err.offset() >= 30 && err.offset() <= bad.len(), "{err}");
    }
}

/// A `REASONING_MESSAGE_START` without `role` (the SDKs default it to `"reasoning"`, its only
/// value) is encoded with that default: decoded, it reads back as an event (an absent
/// required string would decode as `"role":""`, which no reader accepts). Found by the
/// `proto_events` fuzz target.
#[test]
fn reasoning_start_without_role_gets_the_default() {
    let arena = Bump::new();
    let json = br#"{"type":"REASONING_MESSAGE_START","messageId":"rsn-1"}"#;
    let mut frame = Vec::new();
    let losses = encode_json(json, &mut frame, &EncodeOptions::default()).unwrap();
    assert!(losses.is_empty());
    let back = ProtoEvent::decode(&frame[4..])
        .unwrap()
        .to_json(&DecodeOptions::default())
        .unwrap();
    assert_eq!(
        back,
        r#"{"type":"REASONING_MESSAGE_START","messageId":"rsn-1","role":"reasoning"}"#
    );
    assert!(Event::parse(back.as_bytes(), &arena).is_ok());
    // With the role given, the same frame.
    let mut given = Vec::new();
    let with_role = br#"{"type":"REASONING_MESSAGE_START","messageId":"rsn-1","role":"reasoning"}"#;
    encode_json(with_role, &mut given, &EncodeOptions::default()).unwrap();
    assert_eq!(given, frame);
}
