//! `Event::parse`'s fast path (common events in one pass) against the general parser: on the
//! events it reads it must read exactly what the general parser reads, and everything else
//! must be left to the general parser (which then gives the event or the error). Also the
//! scanner's short-string look against its general string scanner.

use agui_wire::parser::differential::{
    compact_patch_agrees, event_paths_agree, event_template_reads, short_string_agrees,
    small_value_agrees,
};
use agui_wire::{Bump, Event, EventSlot, ParseOptions};
use proptest::prelude::*;

fn agree(input: &[u8]) -> bool {
    slot_agrees(input).unwrap_or_else(|e| panic!("{e}\ninput: {}", String::from_utf8_lossy(input)));
    event_paths_agree(input)
        .unwrap_or_else(|e| panic!("{e}\ninput: {}", String::from_utf8_lossy(input)))
}

/// `EventSlot::parse` gives what `Event::parse_with` gives (the event, or the error with its
/// offset and path), with both option sets, into a fresh slot and into one holding an event;
/// after an error the slot is empty.
fn slot_agrees(input: &[u8]) -> Result<(), String> {
    let arena = Bump::new();
    for opts in [ParseOptions::default(), ParseOptions::lenient()] {
        let by_value = Event::parse_with(input, &arena, &opts);
        let mut held = EventSlot::new();
        held.parse(br#"{"type":"STEP_STARTED","stepName":"s"}"#, &arena, &opts)
            .map_err(|e| e.to_string())?;
        for mut slot in [EventSlot::new(), held] {
            let in_slot = slot.parse(input, &arena, &opts);
            match (&by_value, in_slot) {
                (Ok(a), Ok(b)) if a == b && format!("{a:?}") == format!("{b:?}") => {}
                (Err(a), Err(b)) if a == &b && a.to_string() == b.to_string() => {
                    if slot.get().is_some() {
                        return Err("the slot holds an event after an error".into());
                    }
                }
                (a, b) => return Err(format!("by value {a:?}, in a slot {b:?}")),
            }
        }
    }
    Ok(())
}

/// The common events, as both SDKs write them: the fast path takes them.
#[test]
fn common_events_take_the_fast_path() {
    for ev in [
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi \"there\" café 🚀\n"}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#,
        r#"{"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","role":"user","delta":"x","name":"n"}"#,
        r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":"m1"}"#,
        r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"city\":\"Z\u00fcrich\"}"}"#,
        r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#,
        r#"{"type":"TOOL_CALL_CHUNK","toolCallId":"c1","toolCallName":"f","parentMessageId":"m","delta":"{"}"#,
        r#"{"type":"STATE_SNAPSHOT","snapshot":{"a":[1,2,{"b":null}]}}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a/-","value":3}]}"#,
        r#"{"type":"STEP_STARTED","timestamp":1767312000000,"stepName":"plan"}"#,
        r#"{"type":"STEP_FINISHED","stepName":"plan"}"#,
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","parentRunId":"p"}"#,
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#,
        r#"{"type":"RUN_ERROR","message":"boom","code":"E1"}"#,
        r#"{"type":"REASONING_START","messageId":"r1"}"#,
        r#"{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning"}"#,
        r#"{"type":"REASONING_MESSAGE_CONTENT","messageId":"r1","delta":"hmm"}"#,
        r#"{"type":"REASONING_MESSAGE_END","messageId":"r1"}"#,
        r#"{"type":"REASONING_MESSAGE_CHUNK","messageId":"r1","delta":"h"}"#,
        r#"{"type":"REASONING_END","messageId":"r1"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"72F"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"72F","role":"tool"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","role":"tool","content":"72F"}"#,
        r#"{"type":"TEXT_MESSAGE_END","timestamp":1,"rawEvent":{"x":1},"metadata":{},"subagentRunId":"s","messageId":"m"}"#,
        // Python's `json.dumps` spacing.
        r#" { "type" : "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "a" } "#,
        // Keys in alphabetical order (serde_json's `Value`, Go's maps, `sort_keys=True`):
        // `type` last, the wire order kept for the writer.
        r#"{"messageId":"m1","type":"TEXT_MESSAGE_END"}"#,
        r#"{"delta":"Hi \"there\" caf\u00e9","messageId":"m1","type":"TEXT_MESSAGE_CONTENT"}"#,
        r#"{"messageId":"m1","role":"assistant","type":"TEXT_MESSAGE_START"}"#,
        r#"{"parentMessageId":"m1","toolCallId":"c1","toolCallName":"f","type":"TOOL_CALL_START"}"#,
        r#"{"delta":"{\"a\":1}","toolCallId":"c1","type":"TOOL_CALL_ARGS"}"#,
        r#"{"snapshot":{"b":[1],"a":null},"type":"STATE_SNAPSHOT"}"#,
        r#"{"delta":[{"op":"add","path":"/a","value":{"x":1}}],"type":"STATE_DELTA"}"#,
        r#"{"runId":"r","threadId":"t","timestamp":5,"type":"RUN_STARTED"}"#,
        r#"{"metadata":{"k":1},"rawEvent":[1],"stepName":"s","subagentRunId":"x","type":"STEP_STARTED"}"#,
        r#"{"delta":"h","messageId":"r1","type":"REASONING_MESSAGE_CHUNK"}"#,
        // Python's `json.dumps(..., sort_keys=True)` spacing, and any other order.
        r#"{"delta": "a", "messageId": "m1", "type": "TEXT_MESSAGE_CONTENT"}"#,
        "{\n \"messageId\" : \"m1\" ,\n \"type\" : \"TEXT_MESSAGE_END\"\n}\n",
        // A delta past the short-string look (64 bytes).
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"0123456789012345678901234567890123456789012345678901234567890123456789"}"#,
    ] {
        assert!(agree(ev.as_bytes()), "not taken: {ev}");
    }
}

/// Shapes the fast path leaves to the general parser, which gives the event or the error.
#[test]
fn other_shapes_go_the_general_way() {
    for ev in [
        // `type` first and fields out of order, `type` neither first nor last, or last with
        // an escape or a field the type does not have, a duplicate, an unknown field, an
        // escaped key.
        r#"{"type":"TEXT_MESSAGE_CONTENT","delta":"a","messageId":"m1"}"#,
        r#"{"messageId":"m1","type":"TEXT_MESSAGE_END","timestamp":1}"#,
        r#"{"messageId":"m1","type":"TEXT_MESSAGE_\u0045ND"}"#,
        r#"{"messageId":"m1","typ\u0065":"TEXT_MESSAGE_END"}"#,
        r#"{"messageId":"m1","delta":"a","type":"TEXT_MESSAGE_END"}"#,
        r#"{"messageId":"m1","messageId":"m2","type":"TEXT_MESSAGE_END"}"#,
        r#"{"messageId":"m1","x-trace":"t","type":"TEXT_MESSAGE_END"}"#,
        r#"{"messageId":"m1","type":"TEXT_MESSAGE_END","type":"TEXT_MESSAGE_END"}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m1","type":"TEXT_MESSAGE_END"}"#,
        r#"{"messageId":"m1","type":"NOT_A_TYPE"}"#,
        r#"{"messageId":"m1"}"#,
        r#"{"name":"n","type":"CUSTOM","value":1}"#,
        r#"{"messageId":"m1","type":"TEXT_MESSAGE_END"}}"#,
        r#"{"messageId":"m1" "type":"TEXT_MESSAGE_END"}"#,
        r#"{"a":{"messageId":"m1","type":"TEXT_MESSAGE_END"}}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m1","messageId":"m2"}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m1","x-trace":"t"}"#,
        r#"{"type":"TEXT_MESSAGE_END","message\u0049d":"m1"}"#,
        r#"{"type":"TEXT_MESSAGE_\u0045ND","messageId":"m1"}"#,
        // `null`, missing required fields, wrong types, bad roles.
        r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":null}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":7}"#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"tool"}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"jump","path":"/a"}]}"#,
        r#"{"type":"STEP_STARTED","timestamp":1.5,"stepName":"plan"}"#,
        r#"{"type":"STEP_STARTED","timestamp":null,"stepName":"plan"}"#,
        // Bad JSON: strings, trailing bytes, a BOM, a cut.
        "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\x01\"}",
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}x"#,
        "\u{feff}{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}",
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m1""#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m1",}"#,
        // Types the fast path does not cover, and `TOOL_CALL_RESULT` shapes its template
        // does not read.
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":[{"type":"text","text":"72F"}]}"#,
        r#"{"type":"TOOL_CALL_RESULT","toolCallId":"c1","messageId":"t1","content":"72F"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"72F","role":"user"}"#,
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r","messages":[]}}"#,
        r#"{"type":"CUSTOM","name":"n","value":1}"#,
        r#"{"type":"THINKING_START"}"#,
    ] {
        assert!(!agree(ev.as_bytes()), "taken: {ev}");
    }
    // With `null_as_absent` the general parser reads what the strict one rejects; the fast
    // path still leaves `null` to it.
    let arena = Bump::new();
    let lenient = br#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":null}"#;
    assert!(Event::parse_with(lenient, &arena, &ParseOptions::lenient()).is_ok());
}

/// The compact templates (`TEXT_MESSAGE_CONTENT` and `TOOL_CALL_ARGS` written as `type`, id,
/// `delta`; `TEXT_MESSAGE_START` as `type`, id, `"role":"assistant"`; `TEXT_MESSAGE_END` and
/// `TOOL_CALL_END` as `type`, id; `STATE_DELTA` as `type`, `delta`; `TOOL_CALL_RESULT` as
/// `type`, id, `toolCallId`, a string `content` and `"role":"tool"` before it, after it or
/// not at all; nothing else, no whitespace around the fields) read these, the same as the
/// one-pass reader and the general parser do.
#[test]
fn compact_templates_read_these() {
    for ev in [
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":""}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"","delta":"x"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\"1","delta":"Hi \"there\" café 🚀\n"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg-000001","delta":"0123456789012345678901234567890123456789012345678901234567890123456789"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"\u00e9\ud83d\ude80"}"#,
        r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"city\":\"Z\u00fcrich\"}"}"#,
        r#"{"type":"TOOL_CALL_ARGS","toolCallId":"call-000001","delta":"s\": \"東京\", \"d"}"#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m\u00e91"}"#,
        r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/progress","value":3}]}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":{"b":[1,"é"]}},{"op":"remove","path":"/c"}]}"#,
        r#"{"type":"STATE_DELTA","delta":[]}"#,
        // (The patch itself by `json_patch`, whitespace and other member orders included.)
        r#"{"type":"STATE_DELTA","delta":[ {"path":"/a", "op":"remove"} ]}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"72F"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"","role":"tool"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"res-000001","toolCallId":"call-000001","role":"tool","content":"{\"temperature\": 21, \"conditions\": \"partly cloudy\", \"city\": \"Z\u00fcrich\"}"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t\"1","toolCallId":"c\u00e91","role":"tool","content":"東京 🚀 \ud83d\ude80"}"#,
    ] {
        assert!(event_template_reads(ev.as_bytes()), "not read: {ev}");
        assert!(agree(ev.as_bytes()), "not taken: {ev}");
    }
}

/// Anything else the templates leave to the one-pass reader or the general parser, which
/// give the event or the error as before.
#[test]
fn compact_templates_leave_these() {
    for ev in [
        // Whitespace anywhere, other fields, other order, escaped keys or type.
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi"} "#,
        r#" {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1", "delta":"Hi"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta" :"Hi"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi" }"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi","name":"n"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi","delta":"b"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","timestamp":1,"messageId":"m1","delta":"Hi"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","delta":"Hi","messageId":"m1"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","d\u0065lta":"Hi"}"#,
        r#"{"type":"TEXT_MESSAGE_\u0043ONTENT","messageId":"m1","delta":"Hi"}"#,
        r#"{"type":"TOOL_CALL_ARGS","messageId":"m1","delta":"Hi"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","toolCallId":"m1","delta":"Hi"}"#,
        // Values that are not plain strings, bad strings, a cut, trailing bytes.
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":null}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":1,"delta":"Hi"}"#,
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a\x01\"}",
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a\x"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi""#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi"}}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi"},"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":""#,
        r#"{"type":"TEXT_MESSAGE_CONTENT"}"#,
        // The other templated types: other roles, other fields, cut.
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"user"}"#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"tool"}"#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant","name":"a"}"#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"} "#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1"}"#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistan"}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m1","delta":"x"}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m1""#,
        r#"{"type":"TOOL_CALL_END","toolCallId":"c1","x":1}"#,
        r#"{"type":"TOOL_CALL_END","toolCallId":null}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/a"}]} "#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/a"}],"timestamp":1}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/a"}]}}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/a"}]"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"a"}]}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"remove"}]}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/a"},]}"#,
        r#"{"type":"STATE_DELTA","delta": [{"op":"remove","path":"/a"}]}"#,
        r#"{"type":"STATE_DELTA","delta":null}"#,
        r#"{"type":"STATE_DELTA","delta":{}}"#,
        r#"{"type":"STATE_DELTA","delta":"#,
        r#"{"type":"STATE_DELTA","timestamp":1,"delta":[]}"#,
        r#"{"type":"STATE_DELTA"}"#,
        // `TOOL_CALL_RESULT`: other roles, content parts, other fields or orders, `null`,
        // whitespace, a duplicate, a cut, trailing bytes.
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","role":"user","content":"x"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"x","role":"assistant"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"x","role":"tool","role":"tool"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","role":"tool","content":"x","role":"tool"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","role":"tool"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":[]}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":null}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","role":null,"content":"x"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"x","role":null}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"x","x":1}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"x"} "#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1", "content":"x"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"x","role":"tool" }"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"x"}}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"x""#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","content":"x"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","timestamp":1,"content":"x"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"a\x"}"#,
    ] {
        assert!(!event_template_reads(ev.as_bytes()), "read: {ev}");
        agree(ev.as_bytes());
    }
    let bad = b"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"\xC3(\"}";
    assert!(!event_template_reads(bad));
    agree(bad);
    // The option checks come first, as in the general parser.
    let arena = Bump::new();
    let body = br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi"}"#;
    for opts in [
        ParseOptions {
            max_input_bytes: 10,
            ..ParseOptions::default()
        },
        ParseOptions {
            max_depth: 0,
            ..ParseOptions::default()
        },
    ] {
        assert!(Event::parse_with(body, &arena, &opts).is_err());
    }
    // Every cut of a templated event: the same result as the general parser.
    let whole = br#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"a\": \"\u00e9\"}"}"#;
    for n in 0..=whole.len() {
        agree(&whole[..n]);
    }
    for whole in [
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","role":"tool","content":"{\"a\": \"\u00e9\"}"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"é","role":"tool"}"#,
    ] {
        for n in 0..=whole.len() {
            agree(&whole.as_bytes()[..n]);
        }
    }
}

/// The errors are the general parser's, offset and path included.
#[test]
fn errors_are_unchanged() {
    let arena = Bump::new();
    let err = Event::parse(
        br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a","delta":"b"}"#,
        &arena,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "duplicate field `delta` at delta (byte 60)"
    );
    let err = Event::parse(
        br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1"}"#,
        &arena,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "missing required field `delta` at the document root (byte 0)"
    );
    let opts = ParseOptions {
        max_input_bytes: 10,
        ..ParseOptions::default()
    };
    let body = br#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#;
    assert!(Event::parse_with(body, &arena, &opts).is_err());
    let opts = ParseOptions {
        max_depth: 0,
        ..ParseOptions::default()
    };
    assert!(Event::parse_with(body, &arena, &opts).is_err());
}

/// Pieces of events: keys of every kind, values of every kind.
fn piece() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("type"),
        Just("messageId"),
        Just("delta"),
        Just("role"),
        Just("name"),
        Just("toolCallId"),
        Just("toolCallName"),
        Just("parentMessageId"),
        Just("timestamp"),
        Just("rawEvent"),
        Just("metadata"),
        Just("subagentRunId"),
        Just("stepName"),
        Just("threadId"),
        Just("runId"),
        Just("message"),
        Just("code"),
        Just("snapshot"),
        Just("input"),
        Just("x"),
    ];
    let value = prop_oneof![
        4 => "[a-z\"\\\\/\u{e9}\u{1F680} \t\n]{0,80}".prop_map(|s| serde_json::to_string(&s).unwrap()),
        1 => Just(r#""\ud83d\ude80""#.to_string()),
        1 => Just(r#""\ud83d""#.to_string()),
        1 => Just("\"a\\x\"".to_string()),
        1 => Just("\"a\u{1}\"".to_string()),
        1 => Just("null".to_string()),
        1 => Just("12".to_string()),
        1 => Just("1.0".to_string()),
        1 => Just("{\"a\":[1,{}]}".to_string()),
        1 => Just("[{\"op\":\"remove\",\"path\":\"/a\"}]".to_string()),
        1 => Just("\"assistant\"".to_string()),
        1 => Just("\"reasoning\"".to_string()),
    ];
    let ws = prop_oneof![4 => Just(""), 1 => Just(" "), 1 => Just("\n")];
    (key, value, ws).prop_map(|(k, v, ws)| format!("{ws}\"{k}\"{ws}:{ws}{v}"))
}

fn type_name() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just("TEXT_MESSAGE_START"),
        Just("TEXT_MESSAGE_CONTENT"),
        Just("TEXT_MESSAGE_END"),
        Just("TEXT_MESSAGE_CHUNK"),
        Just("TOOL_CALL_START"),
        Just("TOOL_CALL_ARGS"),
        Just("TOOL_CALL_END"),
        Just("TOOL_CALL_CHUNK"),
        Just("STATE_SNAPSHOT"),
        Just("STATE_DELTA"),
        Just("STEP_STARTED"),
        Just("RUN_STARTED"),
        Just("RUN_FINISHED"),
        Just("RUN_ERROR"),
        Just("REASONING_MESSAGE_START"),
        Just("REASONING_MESSAGE_CHUNK"),
        Just("TOOL_CALL_RESULT"),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Random events (mostly of the fast path's shape, often not quite): the two paths agree.
    #[test]
    fn fast_and_general_agree(
        t in type_name(),
        pieces in proptest::collection::vec(piece(), 0..5),
        cut in proptest::option::of(0usize..400),
        last in any::<bool>(),
    ) {
        // `type` first, or last (as sorted keys put it; the rest in any order).
        let mut s = if last { String::from("{") } else { format!(r#"{{"type":"{t}""#) };
        for (i, p) in pieces.iter().enumerate() {
            if i > 0 || !last {
                s.push(',');
            }
            s.push_str(p);
        }
        if last {
            if !pieces.is_empty() {
                s.push(',');
            }
            s.push_str(&format!(r#""type":"{t}""#));
        }
        s.push('}');
        let mut bytes = s.into_bytes();
        if let Some(c) = cut {
            bytes.truncate(c);
        }
        event_paths_agree(&bytes).map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&bytes))))?;
        slot_agrees(&bytes).map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&bytes))))?;
    }

    /// Compact events of the templated shapes with strings of every shape, sometimes cut or
    /// with one byte changed: the templates, the one-pass reader and the general parser agree.
    #[test]
    fn templates_and_general_agree(
        kind in 0usize..8,
        id in "[a-z0-9\"\\\\\u{e9}-]{0,20}",
        delta in "[a-z\"\\\\/\u{e9}\u{6771}\u{1F680} \t\n{}:,]{0,90}",
        raw_delta in proptest::option::of(prop_oneof![
            Just(r#"\ud83d\ude80"#), Just(r#"\ud83d"#), Just(r#"a\x"#), Just("a\u{1}"),
        ]),
        change in proptest::option::of((0usize..200, any::<u8>())),
        cut in proptest::option::of(0usize..200),
    ) {
        let json = |s: &str| serde_json::to_string(s).unwrap();
        let delta = match raw_delta {
            Some(r) => format!("\"{r}\""),
            None => json(&delta),
        };
        let (t, key, rest) = match kind {
            0 => ("TEXT_MESSAGE_CONTENT", "messageId", format!(r#","delta":{delta}"#)),
            1 => ("TOOL_CALL_ARGS", "toolCallId", format!(r#","delta":{delta}"#)),
            2 => ("TEXT_MESSAGE_START", "messageId", r#","role":"assistant""#.to_string()),
            3 => ("TEXT_MESSAGE_END", "messageId", String::new()),
            4 => ("TOOL_CALL_END", "toolCallId", String::new()),
            5 => ("TOOL_CALL_RESULT", "messageId", format!(r#","toolCallId":{},"role":"tool","content":{delta}"#, json(&format!("c{id}")))),
            6 => ("TOOL_CALL_RESULT", "messageId", format!(r#","toolCallId":{},"content":{delta}"#, json(&format!("c{id}")))),
            _ => ("TOOL_CALL_RESULT", "messageId", format!(r#","toolCallId":{},"content":{delta},"role":"tool""#, json(&format!("c{id}")))),
        };
        let s = format!(r#"{{"type":"{t}","{key}":{}{rest}}}"#, json(&id));
        let mut bytes = s.into_bytes();
        if let Some((at, b)) = change
            && at < bytes.len()
        {
            bytes[at] = b;
        }
        if let Some(c) = cut {
            bytes.truncate(c);
        }
        event_paths_agree(&bytes).map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&bytes))))?;
        slot_agrees(&bytes).map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&bytes))))?;
    }

    /// Strings of every shape: where the short look reads one, the general scanner reads the
    /// same, and the short look is taken for short plain strings.
    #[test]
    fn short_strings_agree(
        body in proptest::collection::vec(prop_oneof![
            8 => Just(b'a'), 1 => Just(b'"'), 1 => Just(b'\\'), 1 => Just(b'n'), 1 => Just(b'u'),
            1 => Just(0x01u8), 1 => Just(0xC3u8), 1 => Just(0xA9u8), 1 => Just(0xFFu8),
        ], 0..100),
    ) {
        let mut bytes = vec![b'"'];
        bytes.extend_from_slice(&body);
        for at in 0..bytes.len() {
            short_string_agrees(&bytes, at).map_err(TestCaseError::fail)?;
        }
    }
}

/// The short look reads the strings it is meant for (so the tests above compare something).
#[test]
fn short_look_is_taken() {
    // (The look reads 16 bytes: inputs shorter than that go the general way.)
    for s in [
        &br#""""#[..],
        br#""messageId":"#,
        br#""a\"b\\c\nd" "#,
        "\"caf\u{e9} \u{1F680}\"".as_bytes(),
        br#""0123456789012345678901234567890123456789012345678901234567890""#,
    ] {
        let padded = [s, &[b' '; 16][..]].concat();
        assert_eq!(
            short_string_agrees(&padded, 0),
            Ok(true),
            "{}",
            String::from_utf8_lossy(s)
        );
    }
    for s in [
        &br#""\u00e9""#[..],
        b"\"a\x01\"",
        b"\"\xC3\"",
        br#""unterminated"#,
        br#""01234567890123456789012345678901234567890123456789012345678901234567890""#,
    ] {
        assert_eq!(
            short_string_agrees(s, 0),
            Ok(false),
            "{}",
            String::from_utf8_lossy(s)
        );
    }
}

/// JSON values of the shapes patch operations carry: numbers of every form, strings with
/// escapes and non-ASCII text, literals, nested objects and arrays, sometimes whitespace.
fn patch_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("0".to_string()),
        Just("-0".to_string()),
        Just("3".to_string()),
        Just("-12.50".to_string()),
        Just("1e9".to_string()),
        Just("2.5E-3".to_string()),
        Just("1E+2".to_string()),
        Just("9007199254740993".to_string()),
        Just("true".to_string()),
        Just("false".to_string()),
        Just("null".to_string()),
        "[a-z\"\\\\/\u{e9}\u{2014}\u{1F680} \t\n]{0,40}"
            .prop_map(|s| serde_json::to_string(&s).unwrap()),
        Just(r#""\u00e9 \ud83d\ude80""#.to_string()),
        Just(r#""turn 3 \u2014 ok""#.to_string()),
    ];
    leaf.prop_recursive(6, 48, 5, |inner| {
        let ws = prop_oneof![8 => Just(""), 1 => Just(" "), 1 => Just("\n")];
        prop_oneof![
            (proptest::collection::vec(inner.clone(), 0..5), ws.clone())
                .prop_map(|(v, ws)| format!("[{ws}{}]", v.join(","))),
            (
                proptest::collection::vec(("[a-z\u{e9}\\\\\"]{0,8}", inner), 0..5),
                ws
            )
                .prop_map(|(v, ws)| {
                    let members: Vec<String> = v
                        .into_iter()
                        .map(|(k, v)| format!("{}:{ws}{v}", serde_json::to_string(&k).unwrap()))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }),
        ]
    })
}

/// Bytes that make a value invalid, or change its shape, when put anywhere.
const MUTATIONS: &[u8] = b"{}[],:\" \\0-.eEtnx\x01\x80\xff";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Patch values of every shape, whole, cut at every byte, with one byte changed at every
    /// place, at every offset and with various depths and limits: where the quick validator
    /// reads one, the general skip reads the same; elsewhere it leaves the cursor alone.
    #[test]
    fn small_values_agree(
        v in patch_value(),
        depth in 0usize..4,
        max_depth in 0usize..10,
        m in 0usize..MUTATIONS.len(),
    ) {
        let whole = v.as_bytes();
        let fail = |e: String, b: &[u8]| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(b)));
        for at in 0..whole.len() {
            small_value_agrees(whole, at, depth, max_depth).map_err(|e| fail(e, whole))?;
        }
        for cut in 0..whole.len() {
            small_value_agrees(&whole[..cut], 0, depth, max_depth).map_err(|e| fail(e, &whole[..cut]))?;
        }
        let mut changed = whole.to_vec();
        for i in 0..whole.len() {
            changed[i] = MUTATIONS[(m + i) % MUTATIONS.len()];
            small_value_agrees(&changed, 0, depth, max_depth).map_err(|e| fail(e, &changed))?;
            changed[i] = whole[i];
        }
    }

    /// `STATE_DELTA` events whose operations carry such values, cut at every byte or with one
    /// byte changed: the fast path, the slot and the general parser agree.
    #[test]
    fn patches_agree(
        values in proptest::collection::vec(patch_value(), 1..3),
        path in prop_oneof![
            4 => Just(r#""/steps/s1""#),
            1 => Just(r#""""#),
            1 => Just(r#""/a~0b/c~1d""#),
            1 => Just(r#""/a~2""#),
            1 => Just(r#""/a~""#),
            1 => Just(r#""a/b""#),
            1 => Just(r#""/a\u007e1""#),
            1 => Just(r#""/a\u007e""#),
            1 => Just(r#""/a/\"b\"""#),
            1 => Just(r#""/a/very/long/pointer/past/the/short/look/of/sixty/four/bytes/x/y/z""#),
            1 => Just("\"/caf\u{e9}\""),
            1 => Just("3"),
        ],
        m in 0usize..MUTATIONS.len(),
        at in 0usize..400,
    ) {
        let ops: Vec<String> = values
            .iter()
            .map(|v| format!(r#"{{"op":"replace","path":{path},"value":{v}}}"#))
            .collect();
        let s = format!(r#"{{"type":"STATE_DELTA","delta":[{}]}}"#, ops.join(","));
        let whole = s.as_bytes();
        let check = |b: &[u8]| -> Result<(), TestCaseError> {
            let fail = |e: String| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(b)));
            event_paths_agree(b).map_err(fail)?;
            slot_agrees(b).map_err(fail)
        };
        check(whole)?;
        for cut in (0..whole.len()).step_by(3) {
            check(&whole[..cut])?;
        }
        let mut changed = whole.to_vec();
        let i = at % whole.len();
        changed[i] = MUTATIONS[m];
        check(&changed)?;
    }
}

/// The quick validator reads the values it is meant for (so the tests above compare
/// something), and leaves the others to the general skip.
#[test]
fn small_look_is_taken() {
    for v in [
        &b"3"[..],
        b"-12.5e-3",
        br#""done""#,
        "{\"done\":true,\"note\":\"turn 3 \u{2014} ok\"}".as_bytes(),
        br#"[1,[2,[3,{}]],{"a":null,"b":"\u00e9"}]"#,
        br#"{"k\"ey":[true,false,null],"x":{}}"#,
    ] {
        assert_eq!(
            small_value_agrees(v, 0, 1, 64),
            Ok(true),
            "{}",
            String::from_utf8_lossy(v)
        );
    }
    let long = format!("[{}1]", "1,".repeat(200));
    for v in [
        &b" 3"[..],
        br#"{"a": 1}"#,
        br#"[1 ]"#,
        br#"{"a":01}"#,
        br#"{"a":"b"}"#,
        b"[\"\xff\"]",
        br#"{"a":tru}"#,
        br#"[1,2"#,
        br#"{"a"}"#,
        long.as_bytes(),
    ] {
        assert_eq!(
            small_value_agrees(v, 0, 1, 64),
            Ok(false),
            "{}",
            String::from_utf8_lossy(v)
        );
    }
    // Depth: the limit counts the value's own containers on top of `depth`.
    assert_eq!(small_value_agrees(b"[[[]]]", 0, 1, 4), Ok(true));
    assert_eq!(small_value_agrees(b"[[[]]]", 0, 1, 3), Ok(false));
    let deep = format!("{}{}", "[".repeat(40), "]".repeat(40));
    assert_eq!(small_value_agrees(deep.as_bytes(), 0, 0, 64), Ok(false));
}

/// A patch value past the depth limit is rejected as before, with the general skip's error.
#[test]
fn deep_patch_values_are_rejected() {
    let arena = Bump::new();
    for (levels, max_depth) in [
        (3usize, 4usize),
        (4, 5),
        (10, 8),
        (70, 64),
        (1, 4),
        (2, 5),
        (30, 64),
    ] {
        let v = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        let s =
            format!(r#"{{"type":"STATE_DELTA","delta":[{{"op":"add","path":"/a","value":{v}}}]}}"#);
        let opts = ParseOptions {
            max_depth,
            ..ParseOptions::default()
        };
        agree(s.as_bytes());
        let r = Event::parse_with(s.as_bytes(), &arena, &opts);
        // `{` of the event, `[` of `delta`, `{` of the operation: three levels around the value.
        if levels + 3 <= max_depth {
            assert!(r.is_ok(), "{levels} {max_depth}: {r:?}");
        } else {
            let e = r.unwrap_err().to_string();
            // (As main at 26caeb5 reports it, before the quick validator.)
            let at = 63 + (max_depth - 3);
            let path = "[0]".repeat(max_depth - 3);
            assert_eq!(
                e,
                format!(
                    "nesting deeper than the limit of {max_depth} at delta[0].value{path} (byte {at})"
                ),
                "{levels} {max_depth}"
            );
        }
    }
}

/// Operation names, the six of RFC 6902 (the first six) and near misses.
const OP_NAMES: &[&str] = &[
    "replace", "add", "remove", "test", "move", "copy", "replac", "Replace", "removed", "ad",
    "tests", "mov", "cop", "", "r", "m\u{e9}",
];

/// Pointers: plain and valid (the first four), and every kind the compact reader leaves (escaped, invalid,
/// long, not a string).
const POINTERS: &[&str] = &[
    r#""/steps/s1""#,
    r#""/progress""#,
    r#""""#,
    r#""/a~0b/c~1d""#,
    r#""/a~2""#,
    r#""/a~""#,
    r#""a/b""#,
    r#""/a\u007e1""#,
    r#""/a/\"b\"""#,
    r#""/a/very/long/pointer/past/the/short/look/of/sixty/four/bytes/x/y/z""#,
    "\"/caf\u{e9}\"",
    "3",
    "null",
];

/// One patch operation: mostly the compact shape its name calls for, else members in a
/// random order and set (`op`, `path`, `value`, `from`, an unknown one, a duplicate).
fn patch_op() -> impl Strategy<Value = String> {
    (
        prop_oneof![4 => 0usize..6, 1 => 0usize..OP_NAMES.len()],
        prop_oneof![4 => 0usize..4, 1 => 0usize..POINTERS.len()],
        prop_oneof![4 => 0usize..4, 1 => 0usize..POINTERS.len()],
        patch_value(),
        prop_oneof![3 => Just(None), 1 => proptest::collection::vec(0usize..6, 0..6).prop_map(Some)],
    )
        .prop_map(|(name, path, from, value, members)| {
            let name = OP_NAMES[name];
            let (path, from) = (POINTERS[path], POINTERS[from]);
            let member = |k: usize| match k {
                0 => format!(r#""op":"{name}""#),
                1 => format!(r#""path":{path}"#),
                2 => format!(r#""value":{value}"#),
                3 => format!(r#""from":{from}"#),
                4 => r#""x":[1]"#.to_string(),
                _ => r#""op":"add""#.to_string(),
            };
            let members: Vec<String> = match members {
                Some(ks) => ks.into_iter().map(member).collect(),
                None => {
                    let third = match name {
                        "remove" => None,
                        "move" | "copy" => Some(3),
                        _ => Some(2),
                    };
                    [Some(0), Some(1), third].into_iter().flatten().map(member).collect()
                }
            };
            format!("{{{}}}", members.join(","))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// JSON Patches of compact operations and near misses, whole, cut at every byte and with
    /// one byte changed at every place, under various depths and limits: where the compact
    /// reader takes one, the general reader reads it to the same byte; elsewhere the cursor
    /// is left where it was. The events around them agree on every path.
    #[test]
    fn compact_patches_agree(
        ops in proptest::collection::vec(patch_op(), 0..4),
        ws in prop_oneof![6 => Just(""), 1 => Just(" "), 1 => Just("\n")],
        depth in 0usize..4,
        max_depth in prop_oneof![3 => Just(512usize), 1 => 0usize..10],
        limit in prop_oneof![3 => Just(1usize << 24), 1 => 0usize..4],
        m in 0usize..MUTATIONS.len(),
    ) {
        let opts = ParseOptions { max_depth, max_list_items: limit, ..ParseOptions::default() };
        let patch = format!("[{}]", ops.join(&format!(",{ws}")));
        let doc = format!(r#"{{"delta":{patch}}}"#);
        let whole = doc.as_bytes();
        let at = 9;
        let fail = |e: String, b: &[u8]| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(b)));
        compact_patch_agrees(whole, at, depth, &opts).map_err(|e| fail(e, whole))?;
        for cut in at..whole.len() {
            compact_patch_agrees(&whole[..cut], at, depth, &opts).map_err(|e| fail(e, &whole[..cut]))?;
        }
        let mut changed = whole.to_vec();
        for i in at..whole.len() {
            changed[i] = MUTATIONS[(m + i) % MUTATIONS.len()];
            compact_patch_agrees(&changed, at, depth, &opts).map_err(|e| fail(e, &changed))?;
            changed[i] = whole[i];
        }
        let event = format!(r#"{{"type":"STATE_DELTA","delta":{patch}}}"#);
        agree(event.as_bytes());
    }
}

/// The compact reader takes the shapes it is meant for (so the tests above compare
/// something) and leaves the others to the general reader.
#[test]
fn compact_patch_is_taken() {
    let o = ParseOptions::default();
    let big = format!(r#"{{"a":"{}"}}"#, "x".repeat(300));
    let taken = [
        r#"[{"op":"replace","path":"/progress","value":3},{"op":"replace","path":"/steps/s4","value":{"done":true,"note":"turn 3 — ok"}}]"#.to_string(),
        r#"[{"op":"add","path":"","value":[1,{"b":null}]}]"#.to_string(),
        r#"[{"op":"remove","path":"/a~0b/c~1d"}]"#.to_string(),
        r#"[{"op":"test","path":"/a","value":"\u00e9"}]"#.to_string(),
        r#"[{"op":"move","path":"/a","from":"/b"},{"op":"copy","path":"/c","from":"/d"}]"#.to_string(),
        // Values the quick validator leaves to the general skip: long, with whitespace.
        format!(r#"[{{"op":"add","path":"/a","value":{big}}}]"#),
        r#"[{"op":"add","path":"/a","value":{"b": 1}}]"#.to_string(),
        r#"[{"op":"add","path":"/a","value": 1}]"#.to_string(),
    ];
    for p in &taken {
        assert_eq!(
            compact_patch_agrees(p.as_bytes(), 0, 1, &o),
            Ok(true),
            "{p}"
        );
        let event = format!(r#"{{"type":"STATE_DELTA","delta":{p}}}"#);
        assert!(agree(event.as_bytes()), "{event}");
    }
    let left = [
        r#"[]"#,
        r#"[ {"op":"remove","path":"/a"}]"#,
        r#"[{"op":"remove","path":"/a"} ]"#,
        r#"[{"op":"remove","path":"/a"}, {"op":"remove","path":"/b"}]"#,
        r#"[{"op": "remove","path":"/a"}]"#,
        r#"[{"path":"/a","op":"remove"}]"#,
        r#"[{"op":"remove","path":"/a","value":1}]"#,
        r#"[{"op":"replace","path":"/a","value":1,"x":2}]"#,
        r#"[{"op":"replace","value":1,"path":"/a"}]"#,
        r#"[{"op":"replace","path":"/a"}]"#,
        r#"[{"op":"move","path":"/a","value":1}]"#,
        r#"[{"op":"copy","path":"/a","from":"b"}]"#,
        r#"[{"op":"remove","path":"a"}]"#,
        r#"[{"op":"remove","path":"/a~"}]"#,
        r#"[{"op":"remove","path":"/a\u007e1"}]"#,
        r#"[{"op":"remove","path":"/a\/b"}]"#,
        r#"[{"op":"remove","path":3}]"#,
        r#"[{"op":"Remove","path":"/a"}]"#,
        r#"[{"op":"replac","path":"/a","value":1}]"#,
        r#"[{"op":"re\u006dove","path":"/a"}]"#,
        r#"[{"\u006fp":"remove","path":"/a"}]"#,
        r#"[{"op":"add","path":"/a","value":01}]"#,
        r#"[{"op":"add","path":"/a","value":[1,]}]"#,
        r#"[{"op":"add","path":"/a","value":1"#,
        r#"[{"op":"remove","path":"/a"}"#,
        r#"[{"op":"remove","path":"/a"},]"#,
        r#"[{"op":"remove","path":"/a"}}"#,
        r#"{"op":"remove","path":"/a"}"#,
    ];
    for p in left {
        assert_eq!(
            compact_patch_agrees(p.as_bytes(), 0, 1, &o),
            Ok(false),
            "{p}"
        );
        let event = format!(r#"{{"type":"STATE_DELTA","delta":{p}}}"#);
        agree(event.as_bytes());
    }
    // Limits: operations past `max_list_items`, levels past `max_depth` (the list and the
    // operation are two levels above `depth`, the value's containers more).
    let two = br#"[{"op":"remove","path":"/a"},{"op":"remove","path":"/b"}]"#;
    let lim = |n: usize| ParseOptions {
        max_list_items: n,
        ..ParseOptions::default()
    };
    assert_eq!(compact_patch_agrees(two, 0, 1, &lim(2)), Ok(true));
    assert_eq!(compact_patch_agrees(two, 0, 1, &lim(1)), Ok(false));
    let deep = |n: usize| ParseOptions {
        max_depth: n,
        ..ParseOptions::default()
    };
    assert_eq!(compact_patch_agrees(two, 0, 1, &deep(3)), Ok(true));
    assert_eq!(compact_patch_agrees(two, 0, 1, &deep(2)), Ok(false));
    let nested = br#"[{"op":"add","path":"/a","value":[[1]]}]"#;
    assert_eq!(compact_patch_agrees(nested, 0, 1, &deep(5)), Ok(true));
    assert_eq!(compact_patch_agrees(nested, 0, 1, &deep(4)), Ok(false));
}
