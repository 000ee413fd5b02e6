//! The reducer on streams covering every event type and every order check. The expected
//! outputs were checked against the official TypeScript client (`tests/reducer_ts.rs` runs that
//! comparison where npm is available); here they run without it.

mod reducer_streams;

use agui_wire::reducer::{Json, ReduceErrorKind, ReduceOptions, Reducer};
use agui_wire::{Bump, Event, ParseOptions};

/// Runs a stream; the final `{"messages","state"}` or `error: <the error>`.
fn run(events: &[&str], opts: ReduceOptions) -> (String, Reducer) {
    let mut r = Reducer::with_options(opts);
    for text in events {
        if let Err(e) = r.apply_json(text.as_bytes(), &ParseOptions::default()) {
            return (format!("error: {e}"), r);
        }
    }
    (r.to_json(), r)
}

const EXPECTED: &[(&str, &str)] = &[
    (
        "text",
        r#"{"messages":[{"id":"u1","role":"user","content":"Hello \"you\"\ncafé 😀","name":"ana","metadata":{"a":null,"n":{"y":2},"b":2}},{"id":"m1","role":"assistant","content":"Hi again"},{"id":"d1","role":"developer","content":""},{"id":"s1","role":"system","content":""}],"state":{}}"#,
    ),
    (
        "tools",
        r#"{"messages":[{"id":"a1","role":"assistant","content":"Let me check.","toolCalls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Lyon\"}"},"metadata":{"k":2,"j":3,"done":true}},{"id":"c2","type":"function","function":{"name":"search","arguments":""}}]},{"id":"t2","toolCallId":"c2","role":"tool","content":"r2","metadata":{"ms":3}},{"id":"t1","toolCallId":"c1","role":"tool","content":[{"type":"text","text":"21C"},{"type":"image","source":{"type":"url","value":"https://x/y.png"}}]},{"id":"c3","role":"assistant","toolCalls":[{"id":"c3","type":"function","function":{"name":"lookup","arguments":"{}"}}]},{"id":"t3","toolCallId":"c3","role":"tool","content":"ok"},{"id":"a2","role":"assistant","content":"meanwhile"},{"id":"t9","toolCallId":"nobody","role":"tool","content":"orphan"}],"state":{}}"#,
    ),
    (
        "tool-parents",
        r#"{"messages":[{"id":"u1","role":"user","content":"go"},{"id":"a7","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"f2","arguments":"{\"x\":1}"},"metadata":{"again":1}}],"content":"after"},{"id":"c2","role":"assistant","toolCalls":[{"id":"c2","type":"function","function":{"name":"g","arguments":""}}]},{"id":"c3","role":"assistant","toolCalls":[{"id":"c3","type":"function","function":{"name":"h","arguments":""}}]}],"state":{}}"#,
    ),
    (
        "chunks",
        r#"{"messages":[{"id":"m1","role":"assistant","content":"Hello!","metadata":{"a":1,"usage":{"t":3}},"toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"},"metadata":{"m":1}}]},{"id":"m2","role":"user","content":"u","name":"bo"},{"id":"c2","role":"assistant","toolCalls":[{"id":"c2","type":"function","function":{"name":"g","arguments":""},"metadata":{"only":true}}]},{"id":"r1","role":"reasoning","content":"thinking"},{"id":"m3","role":"assistant","content":"last"}],"state":{}}"#,
    ),
    (
        "chunk-lanes",
        r#"{"messages":[{"id":"p1","role":"assistant","content":"parent more parent end"},{"id":"k1","role":"assistant","content":"sub more sub!","subagentRunId":"s1"},{"id":"c1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}],"subagentRunId":"s1"}],"state":{}}"#,
    ),
    (
        "reasoning",
        r#"{"messages":[{"id":"r1","role":"reasoning","content":"Thinking.","metadata":{"e":"low","t":9},"encryptedValue":"gAAA"},{"id":"r2","role":"reasoning","content":""},{"id":"c1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":""},"encryptedValue":"enc-c1"}]}],"state":{}}"#,
    ),
    (
        "state",
        r#"{"messages":[],"state":{"cart":[{"sku":"Z0"},{"sku":"A1","qty":2},{"sku":"B2","qty":1}],"total":29.99,"a/b":{"c~d":null},"final":"d","backup":"d"}}"#,
    ),
    ("state-root", r#"{"messages":[],"state":{"root":true}}"#),
    (
        "messages-snapshot",
        r#"{"messages":[{"id":"m1","role":"assistant","content":"v2"},{"id":"act1","role":"activity","activityType":"PLAN","content":{"s":1}},{"id":"r9","role":"reasoning","content":"why"}],"state":{}}"#,
    ),
    (
        "messages-snapshot-activity",
        r#"{"messages":[{"id":"a5","role":"activity","activityType":"PLAN","content":{}}],"state":{}}"#,
    ),
    (
        "activity",
        r#"{"messages":[{"id":"a1","role":"activity","activityType":"NEW","content":{"fresh":true},"metadata":{"ui":"card","d":1,"kept":true,"e":2}},{"id":"m1","role":"activity","activityType":"X","content":{"y":2},"subagentRunId":"s2"}],"state":{}}"#,
    ),
    (
        "two-runs",
        r#"{"messages":[{"id":"u1","role":"user","content":"hi","x-u":1},{"id":"a1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"id":"t1","role":"tool","content":"ok","toolCallId":"c1"},{"id":"t2","toolCallId":"c1","role":"tool","content":"second"},{"id":"u2","role":"user","content":"next"},{"id":"m1","role":"assistant","content":"run3"}],"state":{}}"#,
    ),
    (
        "lifecycle-and-misc",
        r#"{"messages":[{"id":"k1","role":"assistant","content":"from s2","subagentRunId":"s2"},{"id":"kc","role":"assistant","toolCalls":[{"id":"kc","type":"function","function":{"name":"f","arguments":""}}],"subagentRunId":"s2"},{"id":"kt","toolCallId":"kc","role":"tool","content":"r","subagentRunId":"s2"}],"state":{}}"#,
    ),
    (
        "first-run-error",
        r#"{"messages":[{"id":"m1","role":"assistant","content":""}],"state":{}}"#,
    ),
    (
        "err-first-not-run-started",
        r#"error: event 0: the first event must be RUN_STARTED, found TEXT_MESSAGE_START"#,
    ),
    (
        "err-content-before-start",
        r#"error: event 1: TEXT_MESSAGE_CONTENT for text message "m1", which is not in progress"#,
    ),
    (
        "err-end-without-start",
        r#"error: event 1: TEXT_MESSAGE_END for text message "m1", which is not in progress"#,
    ),
    (
        "err-start-twice",
        r#"error: event 2: text message "m1" is already in progress"#,
    ),
    (
        "err-second-run-started",
        r#"error: event 1: RUN_STARTED while a run is still active; the run must end with RUN_FINISHED or RUN_ERROR first"#,
    ),
    (
        "err-after-run-finished",
        r#"error: event 2: CUSTOM after RUN_FINISHED; a new run must start with RUN_STARTED"#,
    ),
    (
        "err-after-run-error",
        r#"error: event 2: RUN_FINISHED after RUN_ERROR; only a new RUN_STARTED may follow"#,
    ),
    (
        "err-args-unknown-call",
        r#"error: event 1: TOOL_CALL_ARGS for tool call "c1", which is not in progress"#,
    ),
    (
        "err-tool-end-without-start",
        r#"error: event 1: TOOL_CALL_END for tool call "c1", which is not in progress"#,
    ),
    (
        "err-tool-start-twice",
        r#"error: event 2: tool call "c1" is already in progress"#,
    ),
    (
        "err-step-not-started",
        r#"error: event 1: STEP_FINISHED for step "s", which is not in progress"#,
    ),
    (
        "err-step-twice",
        r#"error: event 2: step "s" is already active"#,
    ),
    (
        "err-step-other-owner",
        r#"error: event 2: STEP_FINISHED for step "s" attributed to subagent "s1", but the step is open under the parent agent"#,
    ),
    (
        "err-run-finished-open-step",
        r#"error: event 3: RUN_FINISHED while steps are still in progress: s, t (subagent "x")"#,
    ),
    (
        "err-run-finished-open-message",
        r#"error: event 2: RUN_FINISHED while text messages are still in progress: m1"#,
    ),
    (
        "err-run-finished-open-tool-call",
        r#"error: event 2: RUN_FINISHED while tool calls are still in progress: c1"#,
    ),
    (
        "err-run-finished-open-reasoning",
        r#"error: event 2: RUN_FINISHED while reasoning spans are still in progress: r1"#,
    ),
    (
        "err-run-finished-open-reasoning-message",
        r#"error: event 2: RUN_FINISHED while reasoning messages are still in progress: r1"#,
    ),
    (
        "err-run-finished-open-subagent",
        r#"error: event 2: RUN_FINISHED while subagents are still in progress: s1"#,
    ),
    (
        "err-reasoning-content-without-start",
        r#"error: event 1: REASONING_MESSAGE_CONTENT for reasoning message "r1", which is not in progress"#,
    ),
    (
        "err-reasoning-end-without-start",
        r#"error: event 1: REASONING_END for reasoning span "r1", which is not in progress"#,
    ),
    (
        "err-reasoning-start-twice",
        r#"error: event 2: reasoning span "r1" is already in progress"#,
    ),
    (
        "err-subagent-not-started",
        r#"error: event 1: SUBAGENT_FINISHED for subagent "s1", which is not in progress"#,
    ),
    (
        "err-subagent-reused",
        r#"error: event 3: SUBAGENT_STARTED: subagent "s1" already finished in this run (subagent ids are per invocation)"#,
    ),
    (
        "err-subagent-twice",
        r#"error: event 2: subagent "s1" is already in progress"#,
    ),
    (
        "err-subagent-parent-unknown",
        r#"error: event 1: SUBAGENT_STARTED: parentSubagentRunId "s0" was not started in this run"#,
    ),
    (
        "err-tag-mismatch",
        r#"error: event 2: TEXT_MESSAGE_CONTENT: subagentRunId "s1" does not match the owner of message "m1", the parent agent"#,
    ),
    (
        "err-reopen-other-owner",
        r#"error: event 3: TEXT_MESSAGE_START: subagentRunId "s2" does not match the owner of message "m1", subagent "s1""#,
    ),
    (
        "err-tool-parent-owner",
        r#"error: event 3: TOOL_CALL_START: subagentRunId "s1" does not match the owner of its parent message "m1", the parent agent"#,
    ),
    (
        "err-tool-reopen-other-parent",
        r#"error: event 5: TOOL_CALL_START: tool call "c1" belongs to the parent agent but its parent message "m1" to subagent "s1""#,
    ),
    (
        "err-activity-owner",
        r#"error: event 2: ACTIVITY_DELTA: subagentRunId "s1" does not match the owner of activity "a1", the parent agent"#,
    ),
    (
        "err-encrypted-owner",
        r#"error: event 3: REASONING_ENCRYPTED_VALUE: subagentRunId "s2" does not match the owner of tool call "c1", subagent "s1""#,
    ),
    (
        "err-snapshot-owner",
        r#"error: event 2: TEXT_MESSAGE_START: subagentRunId "s2" does not match the owner of message "m1", subagent "s1""#,
    ),
    (
        "err-chunk-without-id",
        r#"error: event 1: the first TEXT_MESSAGE_CHUNK of a stream needs a `messageId`"#,
    ),
    (
        "err-tool-chunk-without-name",
        r#"error: event 1: the first TOOL_CALL_CHUNK of a stream needs a `toolCallName`"#,
    ),
    (
        "err-reasoning-chunk-without-id",
        r#"error: event 1: the first REASONING_MESSAGE_CHUNK of a stream needs a `messageId`"#,
    ),
    (
        "err-chunk-role-disagrees",
        r#"error: event 2: cannot continue text message "m1": the chunk's `role` "user" does not match the stream's "assistant""#,
    ),
    (
        "err-chunk-name-disagrees",
        r#"error: event 2: cannot continue tool call "c1": the chunk's `toolCallName` "g" does not match the stream's "f""#,
    ),
    (
        "err-chunk-lane-mismatch",
        r#"error: event 2: cannot continue text message "m1": the chunk's subagentRunId "s1" does not match the stream's owner, the parent agent"#,
    ),
    (
        "err-chunk-ambiguous",
        r#"error: event 3: TEXT_MESSAGE_CHUNK carries neither `messageId` nor `subagentRunId`, but 2 subagents have a text message open"#,
    ),
    (
        "err-chunk-then-explicit-end",
        r#"error: event 2: TEXT_MESSAGE_END for text message "m1", which is not in progress"#,
    ),
    (
        "unknown-variants",
        r#"{"messages":[{"id":"u1","role":"user","content":[{"type":"text","text":"hi"}]},{"id":"a1","role":"assistant","content":"ok","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"id":"t1","toolCallId":"c1","role":"tool","content":[{"type":"text","text":"r"}]},{"id":"act1","role":"activity","activityType":"PLAN","content":{"s":1,"x":1}}],"state":{"a":1,"b":2}}"#,
    ),
    (
        "unknown-variants-run-input",
        r#"{"messages":[{"id":"u1","role":"user","content":"go"},{"id":"u2","role":"user","content":[{"type":"text","text":"a"}]}],"state":{}}"#,
    ),
];

#[test]
fn streams_reduce_as_the_typescript_client_does() {
    let streams = reducer_streams::streams();
    assert_eq!(streams.len(), EXPECTED.len());
    for ((name, events), (want_name, want)) in streams.iter().zip(EXPECTED) {
        assert_eq!(name, want_name);
        let (got, _) = run(events, ReduceOptions::default());
        assert_eq!(got, *want, "{name}");
    }
}

#[test]
fn every_event_type_is_used() {
    let mut seen = std::collections::HashSet::new();
    for (_, events) in reducer_streams::streams() {
        for text in events {
            let arena = Bump::new();
            // The streams with unknown variants hold events the parser rejects.
            if let Some(t) = Event::parse(text.as_bytes(), &arena)
                .ok()
                .and_then(|e| e.event_type())
            {
                seen.insert(t);
            }
        }
    }
    assert_eq!(seen.len(), 31);
}

#[test]
fn unknown_fields_kept_or_dropped() {
    let events = [
        reducer_streams::RS,
        r#"{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u1","role":"user","content":[{"type":"text","text":"t","x-part":1}],"x-msg":2},{"id":"a1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}","x-fn":3},"x-call":4}]}]}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":[{"type":"image","source":{"type":"url","value":"u","x-src":5}}]}"#,
    ];
    let (kept, _) = run(&events, ReduceOptions::default());
    assert_eq!(
        kept,
        r#"{"messages":[{"id":"u1","role":"user","content":[{"type":"text","text":"t","x-part":1}],"x-msg":2},{"id":"a1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}","x-fn":3},"x-call":4}]},{"id":"t1","toolCallId":"c1","role":"tool","content":[{"type":"image","source":{"type":"url","value":"u","x-src":5}}]}],"state":{}}"#
    );
    let (dropped, _) = run(
        &events,
        ReduceOptions {
            keep_unknown_fields: false,
            ..ReduceOptions::default()
        },
    );
    assert_eq!(
        dropped,
        r#"{"messages":[{"id":"u1","role":"user","content":[{"type":"text","text":"t"}]},{"id":"a1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"id":"t1","toolCallId":"c1","role":"tool","content":[{"type":"image","source":{"type":"url","value":"u"}}]}],"state":{}}"#
    );
}

#[test]
fn warnings_name_the_event() {
    let (_, r) = run(
        &reducer_streams::streams()
            .into_iter()
            .find(|(n, _)| *n == "state")
            .unwrap()
            .1,
        ReduceOptions::default(),
    );
    let w: Vec<String> = r.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(
        w,
        [
            "event 4: STATE_DELTA not applied: operation 1 (test /total): the test failed: the value differs",
            "event 5: STATE_DELTA not applied: operation 0 (remove /missing): the path does not exist",
            "event 6: STATE_DELTA not applied: operation 0 (add /cart/9): the array index is not valid here",
        ]
    );
}

#[test]
fn an_error_stops_the_reducer_and_keeps_its_state() {
    let arena = Bump::new();
    let mut r = Reducer::new();
    for text in [
        reducer_streams::RS,
        r#"{"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","delta":"a"}"#,
    ] {
        r.apply(&Event::parse(text.as_bytes(), &arena).unwrap())
            .unwrap();
    }
    let before = r.to_json();
    // The chunk would close m1 and then fail on its missing toolCallName.
    let bad = Event::parse(br#"{"type":"TOOL_CALL_CHUNK","toolCallId":"c1"}"#, &arena).unwrap();
    let err = r.apply(&bad).unwrap_err();
    assert_eq!(err.index(), 2);
    assert!(matches!(
        err.kind(),
        ReduceErrorKind::ChunkNeedsField {
            field: "toolCallName",
            ..
        }
    ));
    assert_eq!(r.to_json(), before);
    let ok = Event::parse(reducer_streams::RF.as_bytes(), &arena).unwrap();
    assert_eq!(r.apply(&ok).unwrap_err(), err);
    assert_eq!(r.events_seen(), 3);
}

#[test]
fn too_deep_values_are_errors() {
    let opts = ReduceOptions {
        max_depth: 4,
        ..ReduceOptions::default()
    };
    let (ok, _) = run(
        &[
            reducer_streams::RS,
            r#"{"type":"STATE_SNAPSHOT","snapshot":[[[[1]]]]}"#,
        ],
        opts.clone(),
    );
    assert_eq!(ok, r#"{"messages":[],"state":[[[[1]]]]}"#);
    let (err, r) = run(
        &[
            reducer_streams::RS,
            r#"{"type":"STATE_SNAPSHOT","snapshot":[[[[[1]]]]]}"#,
        ],
        opts.clone(),
    );
    assert_eq!(
        err,
        "error: event 1: a value nests deeper than the limit of 4 levels"
    );
    assert_eq!(r.state(), &Json::object());
    // A patch may not build a deeper state either (reported, not applied).
    let (out, r) = run(
        &[
            reducer_streams::RS,
            r#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":[[[[1]]]]}]}"#,
        ],
        opts,
    );
    assert_eq!(out, r#"{"messages":[],"state":{}}"#);
    assert_eq!(r.warnings().len(), 1);
}

#[test]
fn initial_messages_and_state() {
    let arena = Bump::new();
    let mut r = Reducer::new()
        .with_state(Json::parse(r#"{"n":1}"#).unwrap())
        .with_messages(vec![
            Json::parse(r#"{"id":"u0","role":"user","content":"earlier"}"#).unwrap(),
        ]);
    for text in [
        reducer_streams::RS,
        r#"{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/n","value":2}]}"#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"u0"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"u0","delta":" and now"}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"u0"}"#,
        reducer_streams::RF,
    ] {
        r.apply(&Event::parse(text.as_bytes(), &arena).unwrap())
            .unwrap();
    }
    assert_eq!(
        r.to_json(),
        r#"{"messages":[{"id":"u0","role":"user","content":"earlier and now"}],"state":{"n":2}}"#
    );
    let (messages, state) = r.into_parts();
    assert_eq!(messages.len(), 1);
    assert_eq!(state.to_serde_value(), serde_json::json!({"n": 2}));
}

#[test]
fn unknown_and_removed_event_types_are_ignored() {
    let (out, r) = run(
        &[
            reducer_streams::RS,
            r#"{"type":"THINKING_START","title":"t"}"#,
            r#"{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"d"}"#,
            r#"{"type":"X_VENDOR","n":1}"#,
            reducer_streams::RF,
        ],
        ReduceOptions::default(),
    );
    assert_eq!(out, r#"{"messages":[],"state":{}}"#);
    assert_eq!(r.events_seen(), 5);
}

/// `EventOrder` alone gives the reducer's verdict on every order check: the same error (event
/// index and message) on the failing streams, none on the others.
#[test]
fn event_order_agrees_with_the_reducer() {
    use agui_wire::reducer::EventOrder;
    for (name, events) in reducer_streams::streams() {
        if name.starts_with("unknown-variants") {
            continue;
        }
        let mut order = EventOrder::new();
        let mut verdict = None;
        for text in &events {
            let arena = Bump::new();
            let ev = Event::parse(text.as_bytes(), &arena).unwrap();
            if let Err(e) = order.check(&ev) {
                verdict = Some(format!("error: {e}"));
                // Sticky: the same error again.
                assert_eq!(
                    order.check(&ev).map_err(|e| format!("error: {e}")),
                    Err(verdict.clone().unwrap())
                );
                break;
            }
        }
        let (want, _) = run(&events, ReduceOptions::default());
        match verdict {
            Some(v) => assert_eq!(v, want, "{name}"),
            None => assert!(!want.starts_with("error:"), "{name}: reducer says {want}"),
        }
    }
}

/// Unknown variants: dropped with a warning naming the event and the item, or (strict) an
/// error of that event.
#[test]
fn unknown_variants_dropped_or_rejected() {
    let events = &reducer_streams::streams()
        .into_iter()
        .find(|(n, _)| *n == "unknown-variants")
        .unwrap()
        .1;
    let (_, r) = run(events, ReduceOptions::default());
    let warnings: Vec<String> = r.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(
        warnings,
        [
            "event 2: STATE_DELTA: dropped delta[0] (unknown op \"merge\"), as the TypeScript client does",
            "event 2: STATE_DELTA: dropped delta[2] (no `op`), as the TypeScript client does",
            "event 3: MESSAGES_SNAPSHOT: dropped messages[1] (unknown role \"wizard\"), as the TypeScript client does",
            "event 3: MESSAGES_SNAPSHOT: dropped messages[0].content[0] (unknown type \"hologram\"), as the TypeScript client does",
            "event 4: TOOL_CALL_RESULT: dropped content[0] (unknown type \"smell\"), as the TypeScript client does",
            "event 6: ACTIVITY_DELTA: dropped patch[0] (unknown op \"frob\"), as the TypeScript client does",
        ]
    );
    let strict = ReduceOptions {
        strict_variants: true,
        ..ReduceOptions::default()
    };
    let (out, _) = run(events, strict);
    assert_eq!(
        out,
        "error: event 2: not a valid event: unknown op \"merge\", expected one of add, remove, replace, move, copy, test at delta[0].op (byte 37)"
    );
}

#[test]
fn reducer_and_event_order_are_send_and_sync() {
    fn both<T: Send + Sync>() {}
    both::<Reducer>();
    both::<agui_wire::reducer::EventOrder>();
    both::<Json>();
}

#[test]
fn a_repeated_result_replaces_and_a_restarted_call_starts_afresh() {
    // As @ag-ui/client 1.0.4 (this stream's output is the client's, checked with
    // target/agui-ts-client/reduce.mjs): the second TOOL_CALL_RESULT with the same messageId and
    // toolCallId replaces the first in place (its metadata merged, its subagentRunId dropped),
    // and the call started again has its arguments replaced by the next TOOL_CALL_ARGS.
    let (out, _) = run(
        &[
            reducer_streams::RS,
            r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search"}"#,
            r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":1}"}"#,
            r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#,
            r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"partial","subagentRunId":"s1","metadata":{"a":1}}"#,
            r#"{"type":"TEXT_MESSAGE_START","messageId":"u1","role":"user"}"#,
            r#"{"type":"TEXT_MESSAGE_END","messageId":"u1"}"#,
            r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"final","metadata":{"b":2}}"#,
            r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search"}"#,
            r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":2}"}"#,
            r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":" "}"#,
            r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#,
            reducer_streams::RF,
        ],
        ReduceOptions::default(),
    );
    assert_eq!(
        out,
        r#"{"messages":[{"id":"c1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\":2} "}}]},{"id":"t1","toolCallId":"c1","role":"tool","content":"final","metadata":{"a":1,"b":2}},{"id":"u1","role":"user","content":""}],"state":{}}"#
    );
}
