//! Every hostile input of issue 12 that the reducer used to handle in quadratic time (or
//! without a memory bound), run at N and 4N: the reducer's count of work done
//! (`agui_wire::reducer::work_done`: key comparisons, hash probes, tree nodes visited, messages
//! scanned) must grow about 4x, not 16x. No test here times anything.
//! `examples/reducer_scaling.rs` times the same inputs.

use agui_wire::reducer::{Json, ReduceErrorKind, ReduceOptions, Reducer, work_done};
use agui_wire::{Bump, Event};

const RS: &str = r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#;

fn object(n: usize, rev: bool) -> String {
    let keys: Vec<String> = (0..n)
        .map(|j| if rev { n - 1 - j } else { j })
        .map(|i| format!("\"k{i}\":{i}"))
        .collect();
    format!("{{{}}}", keys.join(","))
}

/// Applies the events; the reducer and the work it took.
fn run(events: &[String], opts: ReduceOptions) -> (Reducer, u64) {
    let mut r = Reducer::with_options(opts);
    let before = work_done();
    for text in events {
        let arena = Bump::new();
        let ev = Event::parse(text.as_bytes(), &arena).unwrap_or_else(|e| panic!("{e}: {text}"));
        r.apply(&ev).unwrap_or_else(|e| panic!("{e}"));
    }
    let work = work_done() - before;
    (r, work)
}

/// Checks that the work at 4N is at most 5x the work at N (a quadratic path gives ~16x).
fn linear(name: &str, n: usize, make: impl Fn(usize) -> Vec<String>) -> Reducer {
    let (_, small) = run(&make(n), ReduceOptions::default());
    let (r, big) = run(&make(4 * n), ReduceOptions::default());
    let ratio = big as f64 / small.max(1) as f64;
    assert!(
        ratio <= 5.0,
        "{name}: work {small} at N={n}, {big} at 4N: x{ratio:.1}"
    );
    r
}

#[test]
fn state_delta_with_many_adds() {
    let r = linear("add ops", 2000, |n| {
        let ops: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"op":"add","path":"/k{i}","value":{i}}}"#))
            .collect();
        vec![
            RS.into(),
            format!(r#"{{"type":"STATE_DELTA","delta":[{}]}}"#, ops.join(",")),
        ]
    });
    assert_eq!(r.state().as_object().unwrap().len(), 8000);
}

#[test]
fn state_delta_removes_keep_order() {
    let r = linear("remove ops", 2000, |n| {
        let ops: Vec<String> = (0..n)
            .filter(|i| i % 2 == 0)
            .map(|i| format!(r#"{{"op":"remove","path":"/k{i}"}}"#))
            .collect();
        vec![
            RS.into(),
            format!(
                r#"{{"type":"STATE_SNAPSHOT","snapshot":{}}}"#,
                object(n, false)
            ),
            format!(r#"{{"type":"STATE_DELTA","delta":[{}]}}"#, ops.join(",")),
        ]
    });
    let keys: Vec<&str> = r.state().as_object().unwrap().keys().take(3).collect();
    assert_eq!(keys, ["k1", "k3", "k5"]);
}

#[test]
fn test_op_against_a_big_state() {
    linear("test op", 2000, |n| {
        vec![
            RS.into(),
            format!(
                r#"{{"type":"STATE_SNAPSHOT","snapshot":{}}}"#,
                object(n, false)
            ),
            format!(
                r#"{{"type":"STATE_DELTA","delta":[{{"op":"test","path":"","value":{}}}]}}"#,
                object(n, true)
            ),
        ]
    });
}

#[test]
fn state_snapshot_with_a_repeated_key() {
    let r = linear("repeated key", 2000, |n| {
        let mut s = object(n, false);
        s.pop();
        for i in 0..n {
            s.push_str(&format!(",\"k{}\":{i}", n - 1));
        }
        s.push('}');
        vec![
            RS.into(),
            format!(r#"{{"type":"STATE_SNAPSHOT","snapshot":{s}}}"#),
        ]
    });
    let state = r.state().as_object().unwrap();
    assert_eq!(state.len(), 8000);
    assert_eq!(state.keys().last(), Some("k7999"));
    assert_eq!(state.get("k7999").unwrap().as_number(), Some("7999"));
}

#[test]
fn metadata_merge() {
    let r = linear("metadata merge", 2000, |n| {
        vec![
            RS.into(),
            format!(
                r#"{{"type":"TEXT_MESSAGE_START","messageId":"m","metadata":{}}}"#,
                object(n, false)
            ),
            format!(
                r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","metadata":{}}}"#,
                object(n, true)
            ),
        ]
    });
    let meta = r.messages()[0]
        .get("metadata")
        .unwrap()
        .as_object()
        .unwrap();
    assert_eq!(meta.len(), 8000);
    assert_eq!(meta.keys().next(), Some("k0"));
}

#[test]
fn messages_snapshot_applied_twice() {
    let r = linear("messages snapshot", 1000, |n| {
        let msgs: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"id":"m{i}","role":"user","content":"c"}}"#))
            .collect();
        let snap = format!(
            r#"{{"type":"MESSAGES_SNAPSHOT","messages":[{}]}}"#,
            msgs.join(",")
        );
        vec![RS.into(), snap.clone(), snap]
    });
    assert_eq!(r.messages().len(), 4000);
}

/// A `MESSAGES_SNAPSHOT` of `messages` (JSON texts).
fn snapshot(messages: &[String]) -> String {
    format!(
        r#"{{"type":"MESSAGES_SNAPSHOT","messages":[{}]}}"#,
        messages.join(",")
    )
}

/// The ids of the reducer's messages, in order.
fn ids_of(r: &Reducer) -> Vec<&str> {
    r.messages()
        .iter()
        .map(|m| m.get("id").and_then(Json::as_str).unwrap())
        .collect()
}

#[test]
fn snapshot_tool_results_moved_back_to_their_calls() {
    // One message calling the same id N times, then a user turn, then N results, all
    // displaced: each finds its call by a pointer that only moves back.
    let r =
        linear("displaced results of one id", 1000, |n| {
            let calls: Vec<String> = (0..n)
                .map(|_| {
                    r#"{"id":"c","type":"function","function":{"name":"f","arguments":""}}"#.into()
                })
                .collect();
            let mut msgs = vec![
                format!(
                    r#"{{"id":"a","role":"assistant","toolCalls":[{}]}}"#,
                    calls.join(",")
                ),
                r#"{"id":"u","role":"user","content":"next"}"#.to_owned(),
            ];
            msgs.extend((0..n).map(|i| {
                format!(r#"{{"id":"t{i}","role":"tool","toolCallId":"c","content":"r"}}"#)
            }));
            vec![RS.into(), snapshot(&msgs)]
        });
    let ids = ids_of(&r);
    assert_eq!((ids[0], ids[1], ids[ids.len() - 1]), ("a", "t0", "u"));
    // N turns, each a call, its result displaced to the end, and reasoning messages that the
    // result goes before: each flush looks at its own turn's reasoning only.
    let r = linear("displaced results of many turns", 500, |n| {
        let mut msgs = Vec::new();
        for i in 0..n {
            msgs.push(format!(
                r#"{{"id":"a{i}","role":"assistant","toolCalls":[{{"id":"c{i}","type":"function","function":{{"name":"f","arguments":""}}}}]}}"#
            ));
            msgs.push(format!(
                r#"{{"id":"r{i}","role":"reasoning","content":"why"}}"#
            ));
        }
        msgs.push(r#"{"id":"u","role":"user","content":"next"}"#.to_owned());
        msgs.extend((0..n).map(|i| {
            format!(r#"{{"id":"t{i}","role":"tool","toolCallId":"c{i}","content":"r"}}"#)
        }));
        vec![RS.into(), snapshot(&msgs)]
    });
    let ids = ids_of(&r);
    assert_eq!(&ids[..4], ["a0", "t0", "r0", "a1"]);
}

#[test]
fn many_open_steps_messages_and_tool_calls() {
    linear("open steps", 2000, |n| {
        let mut ev = vec![RS.to_owned()];
        ev.extend((0..n).map(|i| format!(r#"{{"type":"STEP_STARTED","stepName":"s{i}"}}"#)));
        ev.extend((0..n).map(|i| format!(r#"{{"type":"STEP_FINISHED","stepName":"s{i}"}}"#)));
        ev
    });
    linear("open messages", 2000, |n| {
        let mut ev = vec![RS.to_owned()];
        ev.extend((0..n).map(|i| format!(r#"{{"type":"TEXT_MESSAGE_START","messageId":"m{i}"}}"#)));
        ev.extend((0..n).map(|i| {
            format!(r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m{i}","delta":"x"}}"#)
        }));
        ev
    });
    linear("open tool calls", 2000, |n| {
        let mut ev = vec![RS.to_owned()];
        ev.extend((0..n).map(|i| {
            format!(r#"{{"type":"TOOL_CALL_START","toolCallId":"c{i}","toolCallName":"f"}}"#)
        }));
        ev.extend(
            (0..n)
                .map(|i| format!(r#"{{"type":"TOOL_CALL_ARGS","toolCallId":"c{i}","delta":"x"}}"#)),
        );
        ev
    });
    linear("open subagents", 2000, |n| {
        let mut ev = vec![RS.to_owned()];
        ev.extend((0..n).map(|i| {
            format!(r#"{{"type":"SUBAGENT_STARTED","subagentRunId":"s{i}","name":"n"}}"#)
        }));
        ev.extend((0..n).map(|i| {
            format!(r#"{{"type":"TEXT_MESSAGE_CHUNK","messageId":"m{i}","subagentRunId":"s{i}","delta":"x"}}"#)
        }));
        ev
    });
}

#[test]
fn tool_results_on_one_message() {
    let r = linear("tool results", 1000, |n| {
        let mut ev = vec![
            RS.to_owned(),
            r#"{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}"#.into(),
            r#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#.into(),
        ];
        ev.extend((0..n).map(|i| {
            format!(
                r#"{{"type":"TOOL_CALL_RESULT","messageId":"t{i}","toolCallId":"c","content":"r"}}"#
            )
        }));
        ev
    });
    let ids: Vec<&str> = r.messages()[1..4]
        .iter()
        .map(|m| m.get("id").unwrap().as_str().unwrap())
        .collect();
    assert_eq!(ids, ["t0", "t1", "t2"]);
}

#[test]
fn tool_results_before_later_messages_keep_their_order() {
    // Results for an earlier assistant message go after it and its results, before the
    // messages that came later.
    let mut ev = vec![
        RS.to_owned(),
        r#"{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}"#.into(),
        r#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#.into(),
        r#"{"type":"TEXT_MESSAGE_START","messageId":"later"}"#.into(),
        r#"{"type":"TEXT_MESSAGE_END","messageId":"later"}"#.into(),
    ];
    ev.extend((0..5).map(|i| {
        format!(
            r#"{{"type":"TOOL_CALL_RESULT","messageId":"t{i}","toolCallId":"c","content":"r"}}"#
        )
    }));
    ev.push(r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"later","delta":"x"}"#.into());
    let (r, _) = run(&ev[..5], ReduceOptions::default());
    drop(r);
    let mut r = Reducer::new();
    for (i, text) in ev.iter().enumerate() {
        let arena = Bump::new();
        let res = r.apply(&Event::parse(text.as_bytes(), &arena).unwrap());
        // The last content comes after TEXT_MESSAGE_END: an order error, expected.
        assert_eq!(res.is_err(), i == ev.len() - 1);
    }
    let ids: Vec<&str> = r
        .messages()
        .iter()
        .map(|m| m.get("id").unwrap().as_str().unwrap())
        .collect();
    assert_eq!(ids, ["c", "t0", "t1", "t2", "t3", "t4", "later"]);
}

#[test]
fn copy_doubling_is_rejected_at_the_size_limit_without_allocating() {
    // 30 copies, each doubling the value: 2^30 copies of 20 bytes if materialized.
    let ops: Vec<&str> = (0..30)
        .map(|_| r#"{"op":"copy","from":"/a","path":"/a/-"}"#)
        .collect();
    let delta = format!(r#"{{"type":"STATE_DELTA","delta":[{}]}}"#, ops.join(","));
    assert!(delta.len() < 1300);
    let events = [
        RS,
        r#"{"type":"STATE_SNAPSHOT","snapshot":{"a":["xxxxxxxxxxxxxxxx"]}}"#,
        &delta,
    ];
    let mut r = Reducer::with_options(ReduceOptions {
        max_state_bytes: 1 << 20,
        ..ReduceOptions::default()
    });
    let before = work_done();
    let mut err = None;
    for text in events {
        let arena = Bump::new();
        if let Err(e) = r.apply(&Event::parse(text.as_bytes(), &arena).unwrap()) {
            err = Some(e);
        }
    }
    let err = err.expect("the doubling fails");
    assert_eq!(err.index(), 2);
    assert_eq!(err.kind(), &ReduceErrorKind::TooLarge { limit: 1 << 20 });
    // The state is left as it was.
    assert_eq!(r.state().to_string(), r#"{"a":["xxxxxxxxxxxxxxxx"]}"#);
    // Work bounded by the limit (about 2^16 elements copied), not by 2^30.
    assert!(work_done() - before < 2_000_000, "{}", work_done() - before);
    // With the default limit, the same patch fails as well.
    let mut r = Reducer::new();
    let mut failed = false;
    for text in events {
        let arena = Bump::new();
        failed |= r
            .apply(&Event::parse(text.as_bytes(), &arena).unwrap())
            .is_err();
    }
    assert!(failed);
}

#[test]
fn a_state_snapshot_over_the_limit_is_an_error() {
    // {"a":12}: an object, a key and a number: 107 bytes on a 64-bit machine.
    let mut r = Reducer::with_options(ReduceOptions {
        max_state_bytes: 108,
        ..ReduceOptions::default()
    });
    let arena = Bump::new();
    r.apply(&Event::parse(RS.as_bytes(), &arena).unwrap())
        .unwrap();
    let ok = Event::parse(br#"{"type":"STATE_SNAPSHOT","snapshot":{"a":12}}"#, &arena).unwrap();
    r.apply(&ok).unwrap();
    let big = Event::parse(
        br#"{"type":"STATE_SNAPSHOT","snapshot":{"a":123456}}"#,
        &arena,
    )
    .unwrap();
    let err = r.apply(&big).unwrap_err();
    assert_eq!(
        err.to_string(),
        "event 2: the state would grow past the limit of 108 bytes (ReduceOptions::max_state_bytes)"
    );
}

#[test]
fn tracked_state_size_is_exact() {
    // After a mix of operations, the size the reducer tracked is the state's `approx_size`:
    // a member that fits exactly is accepted, one byte more is not.
    let events = [
        RS,
        r#"{"type":"STATE_SNAPSHOT","snapshot":{"a":[1,2],"b":{"c":"x"},"z":"a long string"}}"#,
        // Shrinking first, so that the end is the largest the state gets.
        r#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/b/c"},{"op":"replace","path":"/z","value":1},{"op":"move","from":"/a","path":"/b/a"},{"op":"add","path":"/b/a/0","value":0},{"op":"add","path":"/b/k","value":"v"},{"op":"copy","from":"/b","path":"/d"}]}"#,
    ];
    let grow =
        r#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"/e","value":"0123456789abcd"}]}"#;
    let (r, _) = run(&events.map(String::from), ReduceOptions::default());
    assert_eq!(
        r.state().to_string(),
        r#"{"b":{"a":[0,1,2],"k":"v"},"z":1,"d":{"a":[0,1,2],"k":"v"}}"#
    );
    let member = std::mem::size_of::<Json>() + 14 + std::mem::size_of::<String>() + 1;
    let fits = r.state().approx_size() + member;
    for (limit, ok) in [(fits, true), (fits - 1, false)] {
        let mut r = Reducer::with_options(ReduceOptions {
            max_state_bytes: limit,
            ..ReduceOptions::default()
        });
        for text in events.iter().chain([&grow]) {
            let arena = Bump::new();
            let res = r.apply(&Event::parse(text.as_bytes(), &arena).unwrap());
            if text == &grow {
                assert_eq!(res.is_ok(), ok, "limit {limit}: {res:?}");
                if !ok {
                    assert!(matches!(
                        res.unwrap_err().kind(),
                        ReduceErrorKind::TooLarge { .. }
                    ));
                }
            } else {
                res.unwrap();
            }
        }
    }
}

#[test]
fn warnings_are_capped_and_counted() {
    let mut r = Reducer::with_options(ReduceOptions {
        max_warnings: 10,
        ..ReduceOptions::default()
    });
    let arena = Bump::new();
    r.apply(&Event::parse(RS.as_bytes(), &arena).unwrap())
        .unwrap();
    // A patch that never applies: a warning each time.
    let bad = Event::parse(
        br#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/nope"}]}"#,
        &arena,
    )
    .unwrap();
    for _ in 0..1000 {
        r.apply(&bad).unwrap();
    }
    assert_eq!(r.warnings().len(), 10);
    assert_eq!(r.warnings_dropped(), 990);
    assert_eq!(r.warnings()[0].index, 1);
}

#[test]
fn deep_trees_do_not_use_the_call_stack() {
    // 200 000 levels: building, copying, comparing, writing and dropping all use the heap.
    let depth = 200_000;
    let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let event = format!(r#"{{"type":"STATE_SNAPSHOT","snapshot":{text}}}"#);
    let opts = agui_wire::ParseOptions {
        max_depth: depth + 2,
        ..Default::default()
    };
    let arena = Bump::new();
    let Event::StateSnapshot(e) = Event::parse_with(event.as_bytes(), &arena, &opts).unwrap()
    else {
        panic!("a STATE_SNAPSHOT")
    };
    let tree = Json::from_raw(&e.snapshot);
    assert_eq!(tree.depth(), depth);
    let copy = tree.clone();
    assert!(copy == tree);
    assert_eq!(copy.to_string().len(), text.len());
    assert_eq!(copy.approx_size(), depth * std::mem::size_of::<Json>());
    let mut nested = Json::object();
    for _ in 0..depth {
        nested = Json::from_members(vec![("k".into(), nested)]);
    }
    assert_eq!(nested.depth(), depth + 1);
    drop(nested);
    drop(tree);
}

#[test]
fn an_unknown_tool_calls_field_on_a_user_message_captures_nothing() {
    // The client strips `toolCalls` from a user message (it is not a field of user messages)
    // and creates an assistant message for the call; so do we, whether the field is kept.
    for keep in [true, false] {
        let events = [
            RS,
            r#"{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u1","role":"user","content":"hi","toolCalls":[{"id":"c1","type":"function","function":{"name":"f","arguments":""}}]}]}"#,
            r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#,
            r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{}"}"#,
            r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#,
            r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"ok"}"#,
        ];
        let (r, _) = run(
            &events.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            ReduceOptions {
                keep_unknown_fields: keep,
                ..ReduceOptions::default()
            },
        );
        let roles: Vec<&str> = r
            .messages()
            .iter()
            .map(|m| m.get("role").unwrap().as_str().unwrap())
            .collect();
        assert_eq!(
            roles,
            ["user", "assistant", "tool"],
            "keep_unknown_fields: {keep}"
        );
        let call = &r.messages()[1]
            .get("toolCalls")
            .unwrap()
            .as_array()
            .unwrap()[0];
        assert_eq!(
            call.get("function")
                .unwrap()
                .get("arguments")
                .unwrap()
                .as_str(),
            Some("{}")
        );
    }
}

#[test]
fn small_deltas_against_a_big_state() {
    // N records in the state, then N small patches: each costs its own operations, not a copy
    // of the state (the client copies the document for every patch; a 2 MB stream of such
    // deltas took 26 s before).
    for shape in [
        "replace",
        "add and remove",
        "failing",
        "failing after taking it all",
    ] {
        let r = linear(shape, 1000, |n| {
            let mut ev = vec![
                RS.to_owned(),
                format!(
                    r#"{{"type":"STATE_SNAPSHOT","snapshot":{}}}"#,
                    object(n, false)
                ),
            ];
            ev.extend((0..n).map(|i| {
                let ops = match shape {
                    "replace" => format!(r#"{{"op":"replace","path":"/k0","value":{i}}}"#),
                    "add and remove" => format!(
                        r#"{{"op":"add","path":"/x{i}","value":[{i}]}},{{"op":"remove","path":"/k{i}"}}"#
                    ),
                    // Takes the whole state out (its size is not walked), then fails.
                    "failing after taking it all" => [
                        r#"{"op":"remove","path":""}"#,
                        r#"{"op":"add","path":"","value":{}}"#,
                        r#"{"op":"replace","path":"","value":[1]}"#,
                        r#"{"op":"test","path":"","value":"no"}"#,
                    ]
                    .join(","),
                    // Removes and replaces, then fails: everything is undone.
                    _ => format!(
                        r#"{{"op":"remove","path":"/k{i}"}},{{"op":"replace","path":"/k0","value":null}},{{"op":"add","path":"/new","value":1}},{{"op":"test","path":"/k1","value":"no"}}"#
                    ),
                };
                format!(r#"{{"type":"STATE_DELTA","delta":[{ops}]}}"#)
            }));
            ev
        });
        let state = r.state().as_object().unwrap();
        match shape {
            "replace" => assert_eq!(
                state.get("k0").map(Json::to_string).as_deref(),
                Some("3999")
            ),
            "add and remove" => {
                assert_eq!(state.len(), 4000);
                assert_eq!(state.keys().next(), Some("x0"));
            }
            _ => {
                assert_eq!(r.warnings().len(), 1000);
                assert_eq!(r.state().to_string(), object(4000, false));
            }
        }
    }
}

#[test]
fn small_activity_deltas_against_big_content() {
    linear("activity deltas", 1000, |n| {
        let mut ev = vec![
            RS.to_owned(),
            format!(
                r#"{{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"PLAN","content":{}}}"#,
                object(n, false)
            ),
        ];
        ev.extend((0..n).map(|i| {
            format!(
                r#"{{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"PLAN","patch":[{{"op":"replace","path":"/k0","value":{i}}}]}}"#
            )
        }));
        ev
    });
}

#[test]
fn moving_a_big_value_back_and_forth_costs_per_operation() {
    // A state holding a big value, and patches of M and 4M moves of it: the work must not
    // grow with M times the value's size (before, each move walked the value twice).
    let big: Vec<String> = (0..20_000).map(|i| i.to_string()).collect();
    let snapshot = format!(
        r#"{{"type":"STATE_SNAPSHOT","snapshot":{{"a":[{}]}}}}"#,
        big.join(",")
    );
    let patch = |m: usize| {
        let ops: Vec<&str> = (0..m)
            .map(|i| {
                if i % 2 == 0 {
                    r#"{"op":"move","from":"/a","path":"/b"}"#
                } else {
                    r#"{"op":"move","from":"/b","path":"/a"}"#
                }
            })
            .collect();
        format!(r#"{{"type":"STATE_DELTA","delta":[{}]}}"#, ops.join(","))
    };
    let work = |m: usize| {
        let events = vec![RS.to_owned(), snapshot.clone()];
        let (mut r, _) = run(&events, ReduceOptions::default());
        let arena = Bump::new();
        let text = patch(m);
        let ev = Event::parse(text.as_bytes(), &arena).unwrap();
        let before = work_done();
        r.apply(&ev).unwrap();
        assert!(r.state().get("a").is_some() && r.state().get("b").is_none());
        work_done() - before
    };
    let (small, big) = (work(10), work(40));
    // Per operation, and far below one walk of the 20 000-element value.
    assert!(
        big <= small * 5 && big < 20_000,
        "10 moves: {small}, 40 moves: {big}"
    );
}

#[test]
fn a_move_that_nests_too_deep_is_refused() {
    let mut r = Reducer::with_options(ReduceOptions {
        max_depth: 4,
        ..ReduceOptions::default()
    });
    let arena = Bump::new();
    for text in [
        RS,
        r#"{"type":"STATE_SNAPSHOT","snapshot":{"a":[[1]],"b":{"c":{}}}}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"move","from":"/a","path":"/b/c/d"}]}"#,
    ] {
        r.apply(&Event::parse(text.as_bytes(), &arena).unwrap())
            .unwrap();
    }
    assert_eq!(r.state().to_string(), r#"{"a":[[1]],"b":{"c":{}}}"#);
    assert!(
        r.warnings()[0]
            .to_string()
            .contains("deeper than the limit"),
        "{:?}",
        r.warnings()
    );
}

#[test]
fn activity_snapshots_replacing_messages() {
    // An ACTIVITY_SNAPSHOT that replaces a text message or an assistant message holding a call
    // updates the index in place; it used to mark it stale, so each such event cost a rebuild
    // over the whole conversation.
    for replaced in ["text", "assistant"] {
        let r = linear(replaced, 500, |n| {
            let mut ev = vec![RS.to_owned()];
            for i in 0..n {
                let (start, end) = match replaced {
                    "text" => ("TEXT_MESSAGE_START", "TEXT_MESSAGE_END"),
                    _ => ("TOOL_CALL_START", "TOOL_CALL_END"),
                };
                ev.push(format!(
                    r#"{{"type":"{start}","messageId":"m{i}","role":"user","toolCallId":"m{i}","toolCallName":"f"}}"#
                ));
                ev.push(format!(
                    r#"{{"type":"{end}","messageId":"m{i}","toolCallId":"m{i}"}}"#
                ));
                ev.push(format!(
                    r#"{{"type":"ACTIVITY_SNAPSHOT","messageId":"m{i}","activityType":"PLAN","content":{{}}}}"#
                ));
            }
            // A replaced assistant message no longer holds its call: the result goes last.
            ev.push(
                r#"{"type":"TOOL_CALL_RESULT","messageId":"t","toolCallId":"m0","content":"r"}"#
                    .into(),
            );
            ev
        });
        let roles: Vec<&str> = (r.messages().iter())
            .map(|m| m.get("role").unwrap().as_str().unwrap())
            .collect();
        assert_eq!(roles.len(), 2001, "{replaced}");
        assert!(roles[..2000].iter().all(|&r| r == "activity"), "{replaced}");
        assert_eq!(ids_of(&r)[2000], "t", "{replaced}");
    }
}

#[test]
fn tool_results_between_later_messages() {
    // Results for one early call, each after a message appended at the end (a user text, an
    // activity): each goes before the later messages, which used to move them all and shift
    // the index (x15.9 here; 40 000 pairs took 103 s in `events --reduce`).
    for later in ["text", "activity"] {
        let r = linear(later, 1000, |n| {
            let mut ev = vec![
                RS.to_owned(),
                r#"{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}"#.into(),
                r#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#.into(),
            ];
            for i in 0..n {
                if later == "text" {
                    ev.push(format!(
                        r#"{{"type":"TEXT_MESSAGE_START","messageId":"u{i}","role":"user"}}"#
                    ));
                    ev.push(format!(
                        r#"{{"type":"TEXT_MESSAGE_END","messageId":"u{i}"}}"#
                    ));
                } else {
                    ev.push(format!(
                        r#"{{"type":"ACTIVITY_SNAPSHOT","messageId":"v{i}","activityType":"PLAN","content":{{}}}}"#
                    ));
                }
                ev.push(format!(
                    r#"{{"type":"TOOL_CALL_RESULT","messageId":"t{i}","toolCallId":"c","content":"r"}}"#
                ));
            }
            ev
        });
        let ids = ids_of(&r);
        if later == "text" {
            // The results in order right after their call, the user messages after them.
            assert_eq!(ids[..4], ["c", "t0", "t1", "t2"]);
            assert_eq!(ids[4000..4002], ["t3999", "u0"]);
        } else {
            // Activity messages are stepped over: each result goes after the one before.
            assert_eq!(ids[..5], ["c", "v0", "t0", "v1", "t1"]);
        }
    }
}

#[test]
fn small_snapshots_keeping_many_messages_overdraw_their_allowance() {
    // N x (a new activity message, an empty MESSAGES_SNAPSHOT that keeps every activity
    // message): each snapshot walks all of them, N^2 in all (x22 at N -> 4N before). The
    // allowance stops the stream once it would walk more than 256 messages per event applied
    // beyond what the snapshots carry: the work is bounded, the error names the event.
    let work = |n: usize| {
        let mut r = Reducer::new();
        let before = work_done();
        let mut failed = None;
        for i in 0..n {
            let events = [
                format!(
                    r#"{{"type":"ACTIVITY_SNAPSHOT","messageId":"v{i}","activityType":"PLAN","content":{{}}}}"#
                ),
                r#"{"type":"MESSAGES_SNAPSHOT","messages":[]}"#.to_owned(),
            ];
            for text in [RS.to_owned()].iter().filter(|_| i == 0).chain(&events) {
                let arena = Bump::new();
                if let Err(e) = r.apply(&Event::parse(text.as_bytes(), &arena).unwrap()) {
                    failed = Some(e);
                    break;
                }
            }
            if failed.is_some() {
                break;
            }
        }
        (work_done() - before, failed)
    };
    let (small, err_small) = work(2000);
    let (big, err_big) = work(8000);
    let ratio = big as f64 / small as f64;
    assert!(
        ratio <= 5.0,
        "work {small} at N=2000, {big} at 4N: x{ratio:.1}"
    );
    for err in [err_small, err_big] {
        let err = err.expect("the allowance runs out");
        assert_eq!(err.kind(), &ReduceErrorKind::KeptTooMuch { per_event: 256 });
        // Round i draws i messages, the allowance grows by 512 a round: they meet at about
        // round 1 024, event 2 048, whatever N.
        assert!((2000..2100).contains(&err.index()), "{}", err.index());
    }
}

#[test]
fn snapshots_that_carry_the_conversation_stay_within_the_allowance() {
    // 300 runs, each adding a user and an assistant message and two activity messages (kept
    // by every snapshot, which carry no activity), then a MESSAGES_SNAPSHOT of the whole
    // conversation: about 600 activity messages kept at the end, no error.
    let mut r = Reducer::new();
    let mut conversation = Vec::new();
    for run in 0..300 {
        let mut events = vec![format!(
            r#"{{"type":"RUN_STARTED","threadId":"t","runId":"r{run}"}}"#
        )];
        for k in 0..2 {
            events.push(format!(r#"{{"type":"ACTIVITY_SNAPSHOT","messageId":"a{run}-{k}","activityType":"PLAN","content":{{"step":{k}}}}}"#));
        }
        conversation.push(format!(
            r#"{{"id":"u{run}","role":"user","content":"question {run}"}}"#
        ));
        conversation.push(format!(
            r#"{{"id":"m{run}","role":"assistant","content":"answer {run}"}}"#
        ));
        events.push(snapshot(&conversation));
        events.push(format!(
            r#"{{"type":"RUN_FINISHED","threadId":"t","runId":"r{run}"}}"#
        ));
        for text in &events {
            let arena = Bump::new();
            r.apply(&Event::parse(text.as_bytes(), &arena).unwrap())
                .unwrap_or_else(|e| panic!("run {run}: {e}"));
        }
    }
    assert_eq!(r.messages().len(), 1200);
}

#[test]
fn front_insertions_into_a_long_array_overdraw_their_allowance() {
    // A state array of N elements, then N one-operation patches inserting at its front: each
    // moves every element (the client's `splice` too), N^2 in all (7 MB took 27 s in
    // `events --reduce` at N = 80 000). The allowance (16 384 moved elements per event, plus
    // the bytes the snapshot and patches brought) holds an array of 5 000 growing to 10 000
    // edited at the front by every event, and refuses 20 000; appending moves nothing.
    let stream = |n: usize, path: &str| {
        let items: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        let mut ev = vec![
            RS.to_owned(),
            format!(
                r#"{{"type":"STATE_SNAPSHOT","snapshot":{{"l":[{}]}}}}"#,
                items.join(",")
            ),
        ];
        ev.extend((0..n).map(|i| {
            format!(
                r#"{{"type":"STATE_DELTA","delta":[{{"op":"add","path":"{path}","value":{i}}}]}}"#
            )
        }));
        ev
    };
    let work = |n: usize| {
        let mut r = Reducer::new();
        let before = work_done();
        let mut failed = None;
        for text in stream(n, "/l/0") {
            let arena = Bump::new();
            if let Err(e) = r.apply(&Event::parse(text.as_bytes(), &arena).unwrap()) {
                failed = Some(e);
                break;
            }
        }
        (work_done() - before, failed, r)
    };
    // 5 000 elements growing to 10 000: within the allowance.
    let (_, err, r) = work(5_000);
    assert!(err.is_none(), "{err:?}");
    assert_eq!(
        r.state().get("l").unwrap().as_array().unwrap().len(),
        10_000
    );
    // 20 000 and 80 000: refused, the work bounded by the allowance (the same whatever N).
    let (small, err_small, _) = work(20_000);
    let (big, err_big, r) = work(80_000);
    for err in [&err_small, &err_big] {
        let err = err.as_ref().expect("the allowance runs out");
        assert_eq!(
            err.kind(),
            &ReduceErrorKind::MovedTooMuch { per_event: 16384 }
        );
    }
    // The refused patch is undone.
    let index = err_big.unwrap().index();
    let len = r.state().get("l").unwrap().as_array().unwrap().len();
    assert_eq!(len, 80_000 + index - 2);
    assert!(big < 8 * small, "work {small} at N=20 000, {big} at 4N");
    // Appending moves nothing: linear, no error.
    linear("appends", 20_000, |n| stream(n, "/l/-"));
}

#[test]
fn results_for_a_call_id_held_many_times() {
    // A snapshot of N assistant messages all calling `c` (ids reused across turns), then N
    // results for `c`: each goes after the latest caller still without one (as the client
    // 1.0.4, which walks back over the whole list for each), found in O(log N) here.
    let r = linear("one call id, many callers", 1000, |n| {
        let callers: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"id":"a{i}","role":"assistant","toolCalls":[{{"id":"c","type":"function","function":{{"name":"f","arguments":""}}}}]}}"#
                )
            })
            .collect();
        let mut ev = vec![RS.to_owned(), snapshot(&callers)];
        ev.extend((0..n).map(|i| {
            format!(
                r#"{{"type":"TOOL_CALL_RESULT","messageId":"t{i}","toolCallId":"c","content":"r"}}"#
            )
        }));
        ev
    });
    // The first result went after the last caller, the last one after the first caller.
    let ids = ids_of(&r);
    assert_eq!(ids[..3], ["a0", "t3999", "a1"]);
    assert_eq!(ids[ids.len() - 2..], ["a3999", "t0"]);
}

#[test]
fn copying_a_big_value_again_and_again_overdraws_the_allowance() {
    // Each patch copies a 50 000-element array and removes the copy: it costs the value's
    // size for 100 bytes of event. Copies draw from the same allowance as array moves: the
    // stream is refused after a few such events, the refused patch undone.
    let items: Vec<String> = (0..50_000).map(|i| i.to_string()).collect();
    let mut events = vec![
        RS.to_owned(),
        format!(
            r#"{{"type":"STATE_SNAPSHOT","snapshot":{{"big":[{}]}}}}"#,
            items.join(",")
        ),
    ];
    events.extend((0..1000).map(|_| {
        r#"{"type":"STATE_DELTA","delta":[{"op":"copy","from":"/big","path":"/c"},{"op":"remove","path":"/c"}]}"#.to_owned()
    }));
    let mut r = Reducer::new();
    let before = work_done();
    let mut failed = None;
    for text in &events {
        let arena = Bump::new();
        if let Err(e) = r.apply(&Event::parse(text.as_bytes(), &arena).unwrap()) {
            failed = Some(e);
            break;
        }
    }
    let err = failed.expect("the allowance runs out");
    assert_eq!(
        err.kind(),
        &ReduceErrorKind::MovedTooMuch { per_event: 16384 }
    );
    assert!(err.index() < 20, "{}", err.index());
    assert!(r.state().get("c").is_none());
    assert!(
        work_done() - before < 20_000_000,
        "{}",
        work_done() - before
    );
}

#[test]
fn a_snapshot_may_drop_a_long_history() {
    // 10 000 messages given up front (or brought by one RUN_STARTED's input), then a snapshot
    // of one summary message at the second event: dropping them is paid by their coming in,
    // not refused as keeping would be.
    let history: Vec<Json> = (0..10_000)
        .map(|i| Json::parse(&format!(r#"{{"id":"h{i}","role":"user","content":"q"}}"#)).unwrap())
        .collect();
    let summary = snapshot(&[r#"{"id":"s","role":"assistant","content":"summary"}"#.to_owned()]);
    let mut r = Reducer::new().with_messages(history);
    for text in [RS, &summary] {
        let arena = Bump::new();
        r.apply(&Event::parse(text.as_bytes(), &arena).unwrap())
            .unwrap();
    }
    assert_eq!(ids_of(&r), ["s"]);
    let input: Vec<String> = (0..10_000)
        .map(|i| format!(r#"{{"id":"h{i}","role":"user","content":"q"}}"#))
        .collect();
    let started = format!(
        r#"{{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{{"threadId":"t","runId":"r","state":{{}},"messages":[{}],"tools":[],"context":[],"forwardedProps":{{}}}}}}"#,
        input.join(",")
    );
    let mut r = Reducer::new();
    for text in [&started, &summary] {
        let arena = Bump::new();
        r.apply(&Event::parse(text.as_bytes(), &arena).unwrap())
            .unwrap();
    }
    assert_eq!(ids_of(&r), ["s"]);
}

#[test]
fn allowances_set_to_usize_max_mean_no_limit() {
    // `usize::MAX` is how a caller turns a limit off; it must not wrap into no allowance.
    let opts = ReduceOptions {
        max_kept_per_event: usize::MAX,
        max_moved_per_event: usize::MAX,
        ..Default::default()
    };
    let events = [
        RS.to_owned(),
        r#"{"type":"STATE_SNAPSHOT","snapshot":{"a":[1,2,3]}}"#.to_owned(),
        r#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a/0","value":0},{"op":"copy","from":"/a","path":"/b"}]}"#.to_owned(),
        r#"{"type":"ACTIVITY_SNAPSHOT","messageId":"v","activityType":"PLAN","content":{}}"#.to_owned(),
        r#"{"type":"MESSAGES_SNAPSHOT","messages":[]}"#.to_owned(),
    ];
    let mut r = Reducer::with_options(opts);
    for text in &events {
        let arena = Bump::new();
        r.apply(&Event::parse(text.as_bytes(), &arena).unwrap())
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    assert_eq!(r.messages().len(), 1);
}
