//! Event model: every type parsed with all its optional fields and written back, unknown types
//! and fields kept, errors with paths, and the conformance corpus (tests/conformance/events and
//! the event cases of tests/conformance/reject) when it is present.

use std::path::{Path, PathBuf};

use agui_wire::sse::SseReader;
use agui_wire::*;

/// One event of every type, each with every optional field set, compact, in the Python SDK's
/// key order (so writing must give back the same bytes).
const FULL: &[&str] = &[
    r#"{"type":"RUN_STARTED","timestamp":1735689600001,"rawEvent":{"p":1},"metadata":{"trace":"t"},"threadId":"th","runId":"r1","protocolVersion":"1.0","parentRunId":"r0","input":{"threadId":"th","runId":"r1","state":{"a":1},"messages":[{"id":"u1","role":"user","content":"hi"}],"tools":[{"name":"f","description":"d","parameters":{"type":"object"}}],"context":[{"description":"c","value":"v"}],"forwardedProps":{},"resume":[{"interruptId":"i0","status":"resolved","payload":{"ok":true}}]}}"#,
    r#"{"type":"RUN_FINISHED","timestamp":2,"rawEvent":"r","metadata":{},"threadId":"th","runId":"r1","result":{"answer":42},"outcome":{"type":"success","pendingToolCallIds":["c7","c8"]},"usage":[{"provider":"openai","model":"gpt-x","inputTokens":1200,"outputTokens":300,"totalTokens":1500,"reasoningTokens":120,"cachedInputTokens":800,"cacheWriteInputTokens":0},{"model":"small"}]}"#,
    r#"{"type":"RUN_FINISHED","threadId":"th","runId":"r1","outcome":{"type":"interrupt","interrupts":[{"subagentRunId":"s1","id":"i1","reason":"approval","message":"ok?","toolCallId":"c1","responseSchema":{"type":"object"},"expiresAt":"2025-01-01T00:00:00Z","metadata":{"ui":"dialog"}}]}}"#,
    r#"{"type":"RUN_FINISHED","threadId":"th","runId":"r1","outcome":{"type":"cancelled"}}"#,
    r#"{"type":"RUN_ERROR","timestamp":-3,"rawEvent":"x","metadata":{"k":null},"message":"boom","code":"E1","usage":[{"totalTokens":5}]}"#,
    r#"{"type":"STEP_STARTED","timestamp":4,"rawEvent":[1],"metadata":{"m":1},"subagentRunId":"s1","stepName":"plan"}"#,
    r#"{"type":"STEP_FINISHED","timestamp":5,"rawEvent":true,"metadata":{"m":1},"subagentRunId":"s1","stepName":"plan"}"#,
    r#"{"type":"TEXT_MESSAGE_START","timestamp":6,"rawEvent":1.5,"metadata":{"m":1},"subagentRunId":"s1","messageId":"m1","role":"assistant","name":"helper"}"#,
    r#"{"type":"TEXT_MESSAGE_CONTENT","timestamp":7,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","messageId":"m1","delta":"Hello \"w\"\n\u00e9"}"#,
    r#"{"type":"TEXT_MESSAGE_END","timestamp":8,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","messageId":"m1"}"#,
    r#"{"type":"TEXT_MESSAGE_CHUNK","timestamp":9,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","messageId":"m2","role":"user","delta":"d","name":"n"}"#,
    r#"{"type":"TOOL_CALL_START","timestamp":10,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","toolCallId":"c1","toolCallName":"get_weather","parentMessageId":"m1"}"#,
    r#"{"type":"TOOL_CALL_ARGS","timestamp":11,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","toolCallId":"c1","delta":"{\"city\":"}"#,
    r#"{"type":"TOOL_CALL_END","timestamp":12,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","toolCallId":"c1"}"#,
    r#"{"type":"TOOL_CALL_CHUNK","timestamp":13,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","toolCallId":"c2","toolCallName":"f","parentMessageId":"m1","delta":"{}"}"#,
    r#"{"type":"TOOL_CALL_RESULT","timestamp":14,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","messageId":"t1","toolCallId":"c1","content":"72F","role":"tool"}"#,
    r#"{"type":"TOOL_CALL_RESULT","messageId":"t2","toolCallId":"c1","content":[{"type":"text","id":"p1","text":"see","metadata":[1]},{"type":"image","id":"p2","source":{"type":"url","value":"https://x/y.png","mimeType":"image/png"},"metadata":{"a":1}},{"type":"document","source":{"type":"data","value":"JVBERi0=","mimeType":"application/pdf"}},{"type":"audio","source":{"type":"file","value":"file-1","provider":"openai","mimeType":"audio/wav"}},{"type":"video","source":{"type":"url","value":"https://v"}}]}"#,
    r#"{"type":"STATE_SNAPSHOT","timestamp":15,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","snapshot":{"cart":[],"total":0}}"#,
    r#"{"type":"STATE_DELTA","timestamp":16,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","delta":[{"op":"add","path":"/cart/-","value":{"sku":"B2"}},{"op":"remove","path":"/coupon"},{"op":"replace","path":"/total","value":29.99},{"op":"move","from":"/draft","path":"/final"},{"op":"copy","from":"/final","path":"/backup"},{"op":"test","path":"/a~1b/c~0d","value":null},{"op":"add","path":"","value":{}}]}"#,
    r#"{"type":"MESSAGES_SNAPSHOT","timestamp":17,"rawEvent":{},"metadata":{"m":1},"messages":[{"id":"d1","role":"developer","content":"be brief","name":"policy"},{"subagentRunId":"s1","id":"sy1","role":"system","name":"sys","encryptedValue":"enc","metadata":{"k":1},"content":"You help."},{"id":"a1","role":"assistant","content":"hi","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"},"encryptedValue":"e","metadata":{"x":1}}]},{"id":"u1","role":"user","content":[{"type":"text","text":"t"}]},{"id":"t1","role":"tool","content":"r","toolCallId":"c1","error":"none"},{"id":"ac1","role":"activity","activityType":"PLAN","content":{"s":[]}},{"id":"re1","role":"reasoning","content":"hmm","encryptedValue":"e2"}]}"#,
    r#"{"type":"ACTIVITY_SNAPSHOT","timestamp":18,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","messageId":"act-1","activityType":"PLAN","content":{"steps":["a","b"],"current":0},"replace":false}"#,
    r#"{"type":"ACTIVITY_DELTA","timestamp":19,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","messageId":"act-1","activityType":"PLAN","patch":[{"op":"replace","path":"/current","value":1}]}"#,
    r#"{"type":"RAW","timestamp":20,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","event":{"upstream":true},"source":"openai"}"#,
    r#"{"type":"CUSTOM","timestamp":21,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","name":"progress","value":null}"#,
    r#"{"type":"REASONING_START","timestamp":22,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","messageId":"r1"}"#,
    r#"{"type":"REASONING_MESSAGE_START","timestamp":23,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","messageId":"r1","role":"reasoning"}"#,
    r#"{"type":"REASONING_MESSAGE_CONTENT","timestamp":24,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","messageId":"r1","delta":"think"}"#,
    r#"{"type":"REASONING_MESSAGE_END","timestamp":25,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","messageId":"r1"}"#,
    r#"{"type":"REASONING_MESSAGE_CHUNK","timestamp":26,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","messageId":"r2","delta":"more"}"#,
    r#"{"type":"REASONING_END","timestamp":27,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","messageId":"r1"}"#,
    r#"{"type":"REASONING_ENCRYPTED_VALUE","timestamp":28,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s1","subtype":"tool-call","entityId":"c1","encryptedValue":"gAAA"}"#,
    r#"{"type":"SUBAGENT_STARTED","timestamp":29,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s2","name":"researcher","description":"finds","parentSubagentRunId":"s1","parentToolCallId":"c1","parentMessageId":"m1"}"#,
    r#"{"type":"SUBAGENT_FINISHED","timestamp":30,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s2","result":[1,2],"outcome":{"type":"suspended","interruptIds":["i1"]}}"#,
    r#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s2","outcome":{"type":"success"}}"#,
    r#"{"type":"SUBAGENT_ERROR","timestamp":31,"rawEvent":{},"metadata":{"m":1},"subagentRunId":"s2","message":"timeout","code":"T"}"#,
];

fn round_trip(doc: &[u8], opts: &ParseOptions) -> Result<String, Error> {
    let arena = Bump::new();
    let ev = Event::parse_with(doc, &arena, opts)?;
    let out = ev.to_json();
    // Writing then parsing again gives the same event.
    let again = Event::parse_with(out.as_bytes(), &arena, opts).expect("own output parses");
    assert_eq!(
        again,
        ev,
        "write-then-parse of {}",
        String::from_utf8_lossy(doc)
    );
    Ok(out)
}

fn value(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn every_type_with_every_field_round_trips() {
    let mut seen = std::collections::HashSet::new();
    for doc in FULL {
        let out = round_trip(doc.as_bytes(), &ParseOptions::default())
            .unwrap_or_else(|e| panic!("{e} in {doc}"));
        assert_eq!(out, *doc);
        let arena = Bump::new();
        let ev = Event::parse(doc.as_bytes(), &arena).unwrap();
        let t = ev.event_type().expect("known type");
        seen.insert(t);
        // Every field is a known one: nothing ends up in `extra`.
        assert!(ev.extra().fields().is_empty(), "{doc}");
    }
    assert_eq!(seen.len(), 31, "all 31 types covered");
}

#[test]
fn fields_are_read() {
    let arena = Bump::new();
    let ev = Event::parse(FULL[0].as_bytes(), &arena).unwrap();
    let Event::RunStarted(rs) = &ev else { panic!() };
    assert_eq!(rs.base.timestamp, Some(1735689600001));
    assert_eq!(rs.base.raw_event.as_ref().unwrap().text(), r#"{"p":1}"#);
    assert_eq!(rs.protocol_version.as_ref().unwrap(), "1.0");
    let input = rs.input.as_ref().unwrap();
    assert_eq!(
        input.resume.as_ref().unwrap()[0].status,
        ResumeStatus::Resolved
    );
    let Message::User(u) = &input.messages[0] else {
        panic!()
    };
    assert_eq!(u.content.as_text().unwrap(), "hi");

    let ev = Event::parse(FULL[1].as_bytes(), &arena).unwrap();
    let Event::RunFinished(rf) = &ev else {
        panic!()
    };
    assert_eq!(rf.base.raw_event.as_ref().unwrap().kind(), JsonKind::String);
    let Some(RunOutcome::Success {
        pending_tool_call_ids: Some(ids),
        ..
    }) = &rf.outcome
    else {
        panic!()
    };
    assert_eq!(ids.len(), 2);
    let usage = rf.usage.as_ref().unwrap();
    assert_eq!(usage[0].cache_write_input_tokens, Some(0));
    assert_eq!(usage[1].model.as_ref().unwrap(), "small");

    let ev = Event::parse(FULL[2].as_bytes(), &arena).unwrap();
    let Event::RunFinished(RunFinishedEvent {
        outcome: Some(RunOutcome::Interrupt { interrupts, .. }),
        ..
    }) = &ev
    else {
        panic!()
    };
    let i = &interrupts[0];
    assert_eq!(i.subagent_run_id.as_ref().unwrap(), "s1");
    assert_eq!(
        i.response_schema.as_ref().unwrap().text(),
        r#"{"type":"object"}"#
    );

    let ev = Event::parse(FULL[8].as_bytes(), &arena).unwrap();
    let Event::TextMessageContent(c) = &ev else {
        panic!()
    };
    assert_eq!(c.delta.unescaped(), "Hello \"w\"\né");
    assert_eq!(ev.subagent_run_id().unwrap(), "s1");

    let ev = Event::parse(FULL[18].as_bytes(), &arena).unwrap();
    let Event::StateDelta(d) = &ev else { panic!() };
    assert_eq!(
        d.delta.to_serde_value().unwrap().as_array().unwrap().len(),
        7
    );

    let ev = Event::parse(FULL[31].as_bytes(), &arena).unwrap();
    let Event::SubagentStarted(s) = &ev else {
        panic!()
    };
    assert_eq!(s.subagent_run_id, "s2");
    assert!(s.base.subagent_run_id.is_none());
    assert_eq!(s.parent_subagent_run_id.as_ref().unwrap(), "s1");
}

#[test]
fn minimal_events_and_any_order() {
    for doc in [
        r#"{"type":"TEXT_MESSAGE_CHUNK"}"#,
        r#"{"type":"TOOL_CALL_CHUNK"}"#,
        r#"{"type":"REASONING_MESSAGE_CHUNK"}"#,
        r#"{"type":"REASONING_MESSAGE_START","messageId":"r"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":""}"#,
        r#"{"type":"STATE_SNAPSHOT","snapshot":null}"#,
        r#"{"type":"STATE_DELTA","delta":[]}"#,
        r#"{"type":"RAW","event":null}"#,
        r#"{"type":"MESSAGES_SNAPSHOT","messages":[]}"#,
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#,
        // The type last and keys in any order: the order is kept on output.
        r#"{"delta":"x","messageId":"m","type":"TEXT_MESSAGE_CONTENT"}"#,
        r#"{"x-first":1,"stepName":"s","type":"STEP_STARTED","timestamp":3,"x-last":[]}"#,
    ] {
        assert_eq!(
            round_trip(doc.as_bytes(), &ParseOptions::default()).unwrap(),
            doc
        );
    }
}

#[test]
fn unknown_types_and_fields_are_kept() {
    let arena = Bump::new();
    for doc in [
        r#"{"type":"TEXT_MESSAGE_FINISHED","timestamp":1,"messageId":"m","x":{"deep":[1,{"a":null}]}}"#,
        r#"{"type":"THINKING_START","title":"thinking"}"#,
        r#"{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"d"}"#,
        r#"{"type":"text_message_start","messageId":"m"}"#,
        r#"{"n":1,"type":"X_VENDOR_EVENT"}"#,
        r#"{"type":"X"}"#,
    ] {
        let ev = Event::parse(doc.as_bytes(), &arena).unwrap();
        assert!(matches!(ev, Event::Unknown { .. }), "{doc}");
        assert!(ev.base().is_none() && ev.event_type().is_none());
        assert_eq!(ev.to_json(), doc);
    }
    let ev = Event::parse(
        br#"{"type":"THINKING_END","timestamp":1.5,"metadata":null}"#,
        &arena,
    )
    .unwrap();
    // An unknown event's fields are only checked to be JSON.
    assert_eq!(ev.extra().get("timestamp").unwrap().text(), "1.5");

    // Unknown fields on a known event, anywhere in the object.
    let doc = r#"{"x-a":1,"type":"RUN_STARTED","threadId":"t","x-b":"two","runId":"r","subagentRunId":"s9"}"#;
    let ev = Event::parse(doc.as_bytes(), &arena).unwrap();
    let keys: Vec<_> = ev.extra().fields().iter().map(|f| f.key.raw()).collect();
    assert_eq!(keys, ["x-a", "x-b", "subagentRunId"]);
    assert!(ev.subagent_run_id().is_none());
    assert_eq!(ev.to_json(), doc);

    // Unknown fields nested in known objects are kept too.
    let doc = r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"r","x":1}],"y":2},"usage":[{"model":"m","z":3}]}"#;
    assert_eq!(
        round_trip(doc.as_bytes(), &ParseOptions::default()).unwrap(),
        doc
    );
    // ... and in patch operations, which are validated and kept raw.
    let doc =
        r#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/a","value":1,"note":"x"}]}"#;
    assert_eq!(
        round_trip(doc.as_bytes(), &ParseOptions::default()).unwrap(),
        doc
    );
}

#[test]
fn whitespace_is_removed_on_output() {
    let doc = "{ \"type\" : \"CUSTOM\" ,\n \"name\":\"a b\", \"value\" : { \"k\" : [ 1 , \"x y\" ] },\"x\" : [ ] }";
    assert_eq!(
        round_trip(doc.as_bytes(), &ParseOptions::default()).unwrap(),
        r#"{"type":"CUSTOM","name":"a b","value":{"k":[1,"x y"]},"x":[]}"#
    );
}

#[test]
fn errors_name_the_path() {
    let arena = Bump::new();
    let cases: &[(&str, &str)] = &[
        (
            r#"{"messageId":"m"}"#,
            "missing required field `type` at the document root (byte 0)",
        ),
        (
            r#"{"type":7}"#,
            "`type` must be a string, found a number at type (byte 8)",
        ),
        (
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m"}"#,
            "missing required field `delta` at the document root (byte 0)",
        ),
        (
            r#"{"type":"STEP_STARTED","stepName":"s","timestamp":1.5}"#,
            "invalid `timestamp`: must be an integer at timestamp (byte 50)",
        ),
        (
            r#"{"type":"STEP_STARTED","stepName":"s","timestamp":9007199254740992}"#,
            "invalid `timestamp`: must lie within ±(2^53 − 1) at timestamp (byte 50)",
        ),
        (
            r#"{"type":"STEP_STARTED","stepName":"s","metadata":null}"#,
            "`metadata` is null; the protocol allows it to be absent but not null at metadata (byte 49)",
        ),
        (
            r#"{"type":"STEP_STARTED","stepName":"s","metadata":[]}"#,
            "`metadata` must be an object, found an array at metadata (byte 49)",
        ),
        (
            r#"{"type":"TEXT_MESSAGE_START","messageId":"m","role":"tool"}"#,
            "unknown role \"tool\", expected one of developer, system, assistant, user at role (byte 52)",
        ),
        (
            r#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a"}]}"#,
            "missing required field `value` at delta[0] (byte 31)",
        ),
        (
            r#"{"type":"STATE_DELTA","delta":[{"op":"move","path":"/a"}]}"#,
            "missing required field `from` at delta[0] (byte 31)",
        ),
        (
            r#"{"type":"STATE_DELTA","delta":[{"op":"merge","path":"/a"}]}"#,
            "unknown op \"merge\", expected one of add, remove, replace, move, copy, test at delta[0].op (byte 37)",
        ),
        (
            r#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"a"}]}"#,
            "invalid `path`: must be a JSON Pointer: empty or starting with `/`, with `~` only as `~0` or `~1` at delta[0].path (byte 53)",
        ),
        (
            r#"{"type":"STATE_DELTA","delta":{"op":"remove"}}"#,
            "`delta` must be an array of JSON Patch operations, found an object at delta (byte 30)",
        ),
        (
            r#"{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"P","patch":[1]}"#,
            "`patch operation` must be an object, found a number at patch[0] (byte 69)",
        ),
        (
            r#"{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"1","role":"user"}]}"#,
            "missing required field `content` at messages[0] (byte 40)",
        ),
        (
            r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","messages":[]}}"#,
            "missing required field `runId` at input (byte 57)",
        ),
        (
            r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[]}}"#,
            "invalid `interrupts`: must hold at least one interrupt at outcome.interrupts (byte 93)",
        ),
        (
            r#"{"type":"SUBAGENT_STARTED","name":"n"}"#,
            "missing required field `subagentRunId` at the document root (byte 0)",
        ),
        (
            r#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s","outcome":{"type":"interrupt"}}"#,
            "unknown type \"interrupt\", expected one of success, suspended at outcome.type (byte 66)",
        ),
        (
            r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[{"inputTokens":-1}]}"#,
            "invalid `inputTokens`: must be a non-negative integer no larger than 2^53 - 1 at usage[0].inputTokens (byte 74)",
        ),
        (
            r#"{"type":"CUSTOM","name":"n"}"#,
            "missing required field `value` at the document root (byte 0)",
        ),
        (
            r#"{"type":"STEP_STARTED","stepName":"a","stepName":"b"}"#,
            "duplicate field `stepName` at stepName (byte 38)",
        ),
        (
            r#"{"type":"RAW","event":1} x"#,
            "trailing characters after the JSON value at the document root (byte 25)",
        ),
    ];
    for (doc, msg) in cases {
        let err = Event::parse(doc.as_bytes(), &arena).unwrap_err();
        assert_eq!(err.to_string(), *msg, "{doc}");
    }
}

#[test]
fn timestamps() {
    let arena = Bump::new();
    let ts = |t: &str| {
        let doc = format!(r#"{{"type":"RAW","event":null,"timestamp":{t}}}"#);
        let doc = arena.alloc_str(&doc);
        Event::parse(doc.as_bytes(), &arena).map(|e| e.base().unwrap().timestamp.unwrap())
    };
    for (t, want) in [
        ("0", 0),
        ("-0", 0),
        ("1.0", 1),
        ("-1.0", -1),
        ("1e3", 1000),
        ("-2.5e1", -25),
        ("9007199254740991", 9007199254740991),
        ("-9007199254740991", -9007199254740991),
    ] {
        assert_eq!(ts(t).unwrap(), want, "{t}");
    }
    for t in [
        "1.5",
        "9007199254740992",
        "-9007199254740992",
        "1e16",
        "1e400",
        "\"12\"",
        "true",
    ] {
        assert!(ts(t).is_err(), "{t}");
    }
}

#[test]
fn lenient_nulls() {
    let arena = Bump::new();
    let lenient = ParseOptions::lenient();
    for doc in [
        r#"{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":null}"#,
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":null,"result":null}"#,
        r#"{"type":"STEP_STARTED","stepName":"s","metadata":null,"rawEvent":null,"timestamp":null,"subagentRunId":null}"#,
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","input":null}"#,
    ] {
        assert!(Event::parse(doc.as_bytes(), &arena).is_err(), "{doc}");
        let ev = Event::parse_with(doc.as_bytes(), &arena, &lenient).unwrap();
        // Absent fields are left out on output.
        assert!(!ev.to_json().contains("null"), "{}", ev.to_json());
    }
}

// ---- the conformance corpus ----

fn conformance_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("AGUI_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance"));
    if dir.join("events").is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: no conformance corpus at {}", dir.display());
        None
    }
}

fn sorted_files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(suffix) && !name.ends_with(".expected.json")
        })
        .collect();
    v.sort();
    v
}

/// A path segment per the corpus README: `.key` for identifier-like keys, `["key"]` otherwise.
fn join(path: &str, key: &str) -> String {
    let ident = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '-'));
    if ident {
        if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        }
    } else {
        format!("{path}[{}]", serde_json::to_string(key).unwrap())
    }
}

/// Expands every non-empty object and array down to its scalar leaves. Both the corpus's
/// path map (whose JSON-valued leaves hold whole values) and our output expand to the same
/// map when they hold the same values.
fn expand(
    path: String,
    v: &serde_json::Value,
    out: &mut std::collections::BTreeMap<String, serde_json::Value>,
) {
    use serde_json::Value as V;
    match v {
        V::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                expand(join(&path, k), x, out);
            }
        }
        V::Array(a) if !a.is_empty() => {
            for (i, x) in a.iter().enumerate() {
                expand(format!("{path}[{i}]"), x, out);
            }
        }
        // Numbers by value (`1.0` == `1`).
        V::Number(n) => {
            out.insert(path, serde_json::json!(n.as_f64()));
        }
        other => {
            out.insert(path, other.clone());
        }
    }
}

/// Compares our output with a corpus `.expected.json` path map.
fn assert_flat_eq(ours: &serde_json::Value, expected: &serde_json::Value, name: &str) {
    let mut a = std::collections::BTreeMap::new();
    expand(String::new(), ours, &mut a);
    let mut b = std::collections::BTreeMap::new();
    for (k, v) in expected.as_object().unwrap() {
        if !k.starts_with('_') {
            expand(k.clone(), v, &mut b);
        }
    }
    // A default the Python SDK fills in (the file leaves it out).
    if ours["type"] == "REASONING_MESSAGE_START" && ours.get("role").is_none() {
        a.insert("role".into(), "reasoning".into());
    }
    assert_eq!(a, b, "{name}");
}

#[test]
fn conformance_events_round_trip() {
    let Some(dir) = conformance_dir() else { return };
    let files = sorted_files(&dir.join("events"), ".json");
    assert!(files.len() > 50);
    for path in files {
        let doc = std::fs::read(&path).unwrap();
        let name = path.display();
        let out =
            round_trip(&doc, &ParseOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = String::from_utf8(doc).unwrap();
        // The SDK writes compact JSON in its own key order, which the writer reproduces.
        assert_eq!(out, text.trim_end(), "{name}");
        let expected = std::fs::read_to_string(path.with_extension("expected.json")).unwrap();
        assert_flat_eq(&value(&out), &value(&expected), &name.to_string());
    }
}

#[test]
fn conformance_sse_streams() {
    let Some(dir) = conformance_dir() else { return };
    let events = dir.join("events");
    for path in sorted_files(&events, ".sse") {
        let expected: serde_json::Value =
            value(&std::fs::read_to_string(format!("{}.expected.json", path.display())).unwrap());
        let names = expected["frames"].as_array().unwrap();
        // The standard's reading of the end: the corpus names the frames a strict reader yields
        // (the hand-written stream's cut last frame is not one; by default `SseReader`
        // delivers it, as `@ag-ui/client` does).
        let strict = agui_wire::sse::SseOptions::new().with_strict_end(true);
        let mut reader =
            SseReader::with_options(std::fs::File::open(&path).unwrap(), strict, 1 << 16);
        let mut i = 0;
        while let Some(frame) = reader.next() {
            let Ok(frame) = frame else { break }; // a cut final frame
            let arena = Bump::new();
            let ev = Event::parse(frame.data, &arena)
                .unwrap_or_else(|e| panic!("{} frame {i}: {e}", path.display()));
            let want = std::fs::read_to_string(
                events.join(format!("{}.json", names[i].as_str().unwrap())),
            )
            .unwrap();
            assert_eq!(
                value(&ev.to_json()),
                value(&want),
                "{} frame {i}",
                path.display()
            );
            let expected = std::fs::read_to_string(
                events.join(format!("{}.expected.json", names[i].as_str().unwrap())),
            )
            .unwrap();
            assert_flat_eq(
                &value(&ev.to_json()),
                &value(&expected),
                &path.display().to_string(),
            );
            i += 1;
        }
        assert_eq!(i, names.len(), "{}", path.display());
    }
}

#[test]
fn conformance_rejects() {
    let Some(dir) = conformance_dir() else { return };
    let reject = dir.join("reject");
    let strict = ParseOptions::default();
    let lenient = ParseOptions::lenient();
    let mut count = 0;
    for path in sorted_files(&reject, ".json") {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if !stem.starts_with("event-") {
            continue;
        }
        count += 1;
        let doc = std::fs::read(&path).unwrap();
        let meta = value(&std::fs::read_to_string(path.with_extension("expected.json")).unwrap());
        let arena = Bump::new();
        let strict_result = Event::parse_with(&doc, &arena, &strict);
        let lenient_result = Event::parse_with(&doc, &arena, &lenient);
        match stem.as_str() {
            // Kept as `Event::Unknown` (both SDKs reject): forwarded, not dropped.
            "event-unknown-type" | "event-type-lowercase" => {
                assert!(matches!(strict_result, Ok(Event::Unknown { .. })), "{stem}")
            }
            s if s.starts_with("event-thinking-") => {
                assert!(matches!(strict_result, Ok(Event::Unknown { .. })), "{stem}")
            }
            // The Python default, accepted in both modes (TypeScript requires the role).
            "event-reasoning-message-start-missing-role" => {
                assert!(strict_result.is_ok() && lenient_result.is_ok(), "{stem}")
            }
            // `1.0`: both SDKs accept it (JSON.parse reads 1), and so does agui-wire.
            "event-timestamp-float-integral" => {
                let Ok(ev) = strict_result else {
                    panic!("{stem}")
                };
                assert_eq!(ev.base().unwrap().timestamp, Some(1));
                assert!(lenient_result.is_ok());
            }
            _ => {
                let py = meta["python"] == "accepts";
                let ts = meta["typescript"] == "accepts";
                assert!(!ts, "{stem}");
                assert!(strict_result.is_err(), "{stem} accepted in strict mode");
                let null = std::str::from_utf8(&doc).unwrap().contains(":null");
                if py && null {
                    assert!(lenient_result.is_ok(), "{stem}: {:?}", lenient_result.err());
                } else {
                    // Coercions (`"replace": 1`, `"timestamp": "12"`) stay errors.
                    assert!(lenient_result.is_err(), "{stem} accepted in lenient mode");
                }
                // The error names the place the corpus names.
                let err = strict_result.unwrap_err();
                let want = meta["path"].as_str().unwrap_or("");
                assert!(
                    err.path().starts_with(want) || want.starts_with(err.path()),
                    "{stem}: {err} (corpus path {want})"
                );
            }
        }
    }
    assert!(count > 40);
}

#[test]
fn sample_run_parses() {
    let path = samples_dir().join("run.sse");
    let Ok(file) = std::fs::File::open(&path) else {
        eprintln!("skipping: no {}", path.display());
        return;
    };
    let mut reader = SseReader::new(file);
    let mut n = 0;
    while let Some(frame) = reader.next() {
        let frame = frame.unwrap();
        let arena = Bump::new();
        let ev = Event::parse(frame.data, &arena).unwrap();
        assert!(ev.event_type().is_some());
        assert_eq!(ev.to_json().as_bytes(), frame.data);
        n += 1;
    }
    assert!(n > 10);
}

/// `samples/` of the crate, or `$AGUI_SAMPLES_DIR`.
fn samples_dir() -> PathBuf {
    std::env::var_os("AGUI_SAMPLES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("samples"))
}

/// Keys are dispatched by number: an escaped key is the same key, a field of another event
/// type is an unknown field, and a repeated known field (`type` included, on unknown types
/// too) is an error naming it.
#[test]
fn keys_escaped_foreign_and_repeated() {
    let arena = Bump::new();
    let ev = Event::parse(
        br#"{"type":"TOOL_CALL_ARGS","tool\u0043allId":"c1","\u0064elta":"x","stepName":"s"}"#,
        &arena,
    )
    .unwrap();
    let Event::ToolCallArgs(a) = &ev else {
        panic!("{ev:?}")
    };
    assert_eq!((a.tool_call_id.raw(), a.delta.raw()), ("c1", "x"));
    let extra: Vec<&str> = a.base.extra.fields().iter().map(|f| f.key.raw()).collect();
    assert_eq!(extra, ["stepName"]);
    // Before `type` too.
    let ev = Event::parse(
        br#"{"\u0064elta":"x","stepName":"s","type":"TOOL_CALL_ARGS","toolCallId":"c1"}"#,
        &arena,
    )
    .unwrap();
    assert_eq!(
        ev.to_json(),
        r#"{"delta":"x","stepName":"s","type":"TOOL_CALL_ARGS","toolCallId":"c1"}"#
    );
    for (doc, field) in [
        (
            &br#"{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"x","delta":"y"}"#[..],
            "delta",
        ),
        (
            br#"{"type":"TOOL_CALL_ARGS","toolCallId":"c","delt\u0061":"x","delta":"y"}"#,
            "delta",
        ),
        (
            br#"{"type":"STEP_STARTED","stepName":"s","type":"STEP_STARTED"}"#,
            "type",
        ),
        (
            br#"{"type":"NOT_A_TYPE","x":1,"type":"NOT_A_TYPE"}"#,
            "type",
        ),
    ] {
        let e = Event::parse(doc, &arena).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::DuplicateField(field), "{e}");
    }
}
