//! Times the reducer on the hostile inputs of issue 12 (and the ones found since), each at N and 4N: a linear path takes
//! about 4x as long at 4N, a quadratic one about 16x.
//!
//! ```text
//! cargo run --release --example reducer_scaling            # every case
//! cargo run --release --example reducer_scaling -- add     # the cases whose name contains "add"
//! cargo run --release --example reducer_scaling -- add 40000   # one case at one size only
//! ```
//!
//! The one-size form is for instruction counts: `valgrind --tool=callgrind` on it at N and at
//! 4N.
//!
//! Prints one line per case: its name, N, the time at N, the time at 4N and their ratio. Only
//! the public API is used, so the same file runs against older versions of the crate.

use std::time::{Duration, Instant};

use agui_wire::reducer::Reducer;
use agui_wire::{Bump, Event};

const RS: &str = r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#;

/// `{"k0":0,"k1":1,...}` with `n` keys, in reverse order when `rev`.
fn object(n: usize, rev: bool) -> String {
    let mut s = String::from("{");
    for j in 0..n {
        let i = if rev { n - 1 - j } else { j };
        if j > 0 {
            s.push(',');
        }
        s.push_str(&format!("\"k{i}\":{i}"));
    }
    s.push('}');
    s
}

/// The event streams of each case, at size `n`.
fn stream(case: &str, n: usize) -> Vec<String> {
    let mut ev = vec![RS.to_owned()];
    match case {
        "state-delta-add" => {
            let ops: Vec<String> = (0..n)
                .map(|i| format!(r#"{{"op":"add","path":"/k{i}","value":{i}}}"#))
                .collect();
            ev.push(format!(
                r#"{{"type":"STATE_DELTA","delta":[{}]}}"#,
                ops.join(",")
            ));
        }
        "state-delta-test" => {
            ev.push(format!(
                r#"{{"type":"STATE_SNAPSHOT","snapshot":{}}}"#,
                object(n, false)
            ));
            ev.push(format!(
                r#"{{"type":"STATE_DELTA","delta":[{{"op":"test","path":"","value":{}}}]}}"#,
                object(n, true)
            ));
        }
        "state-snapshot-repeated-key" => {
            let mut s = object(n, false);
            s.pop();
            for i in 0..n {
                s.push_str(&format!(",\"k{}\":{i}", n - 1));
            }
            s.push('}');
            ev.push(format!(r#"{{"type":"STATE_SNAPSHOT","snapshot":{s}}}"#));
        }
        "metadata-merge" => {
            ev.push(format!(
                r#"{{"type":"TEXT_MESSAGE_START","messageId":"m","metadata":{}}}"#,
                object(n, false)
            ));
            ev.push(format!(
                r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","metadata":{}}}"#,
                object(n, true)
            ));
        }
        "messages-snapshot-twice" => {
            let msgs: Vec<String> = (0..n)
                .map(|i| format!(r#"{{"id":"m{i}","role":"user","content":"c"}}"#))
                .collect();
            let snap = format!(
                r#"{{"type":"MESSAGES_SNAPSHOT","messages":[{}]}}"#,
                msgs.join(",")
            );
            ev.push(snap.clone());
            ev.push(snap);
        }
        "open-steps" => {
            for i in 0..n {
                ev.push(format!(r#"{{"type":"STEP_STARTED","stepName":"s{i}"}}"#));
            }
        }
        "open-messages" => {
            for i in 0..n {
                ev.push(format!(
                    r#"{{"type":"TEXT_MESSAGE_START","messageId":"m{i}"}}"#
                ));
            }
        }
        "open-tool-calls" => {
            for i in 0..n {
                ev.push(format!(
                    r#"{{"type":"TOOL_CALL_START","toolCallId":"c{i}","toolCallName":"f"}}"#
                ));
            }
        }
        "tool-results-one-message" => {
            ev.push(r#"{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}"#.into());
            ev.push(r#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#.into());
            for i in 0..n {
                ev.push(format!(
                    r#"{{"type":"TOOL_CALL_RESULT","messageId":"t{i}","toolCallId":"c","content":"r"}}"#
                ));
            }
        }
        "typical-run" => {
            // Not hostile: the common shape (text, tool calls, results, small state patches),
            // to compare the cost per ordinary event between versions.
            ev.push(r#"{"type":"STATE_SNAPSHOT","snapshot":{"count":0,"user":{"name":"ana","plan":"pro"},"flags":[true,false]}}"#.into());
            for i in 0..n {
                ev.push(format!(
                    r#"{{"type":"TEXT_MESSAGE_START","messageId":"m{i}","role":"assistant"}}"#
                ));
                for _ in 0..5 {
                    ev.push(format!(r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m{i}","delta":"some words "}}"#));
                }
                ev.push(format!(
                    r#"{{"type":"TEXT_MESSAGE_END","messageId":"m{i}"}}"#
                ));
                ev.push(format!(r#"{{"type":"TOOL_CALL_START","toolCallId":"c{i}","toolCallName":"search","parentMessageId":"m{i}"}}"#));
                for _ in 0..3 {
                    ev.push(format!(
                        r#"{{"type":"TOOL_CALL_ARGS","toolCallId":"c{i}","delta":"{{\"q\":1}}"}}"#
                    ));
                }
                ev.push(format!(r#"{{"type":"TOOL_CALL_END","toolCallId":"c{i}"}}"#));
                ev.push(format!(r#"{{"type":"TOOL_CALL_RESULT","messageId":"t{i}","toolCallId":"c{i}","content":"3 results"}}"#));
                ev.push(format!(r#"{{"type":"STATE_DELTA","delta":[{{"op":"replace","path":"/count","value":{i}}}]}}"#));
            }
        }
        "state-delta-copy-doubling" => {
            // n copies, each doubling the state's one value (rejected at the size limit).
            ev.push(r#"{"type":"STATE_SNAPSHOT","snapshot":{"a":["xxxxxxxxxxxxxxxx"]}}"#.into());
            let ops: Vec<String> = (0..n)
                .map(|_| r#"{"op":"copy","from":"/a","path":"/a/-"}"#.to_owned())
                .collect();
            ev.push(format!(
                r#"{{"type":"STATE_DELTA","delta":[{}]}}"#,
                ops.join(",")
            ));
        }
        "state-deltas-big-state" => {
            // A state of n keys, then n one-operation deltas (each used to copy the state).
            ev.push(format!(
                r#"{{"type":"STATE_SNAPSHOT","snapshot":{}}}"#,
                object(n, false)
            ));
            for i in 0..n {
                ev.push(format!(r#"{{"type":"STATE_DELTA","delta":[{{"op":"replace","path":"/k0","value":{i}}}]}}"#));
            }
        }
        "failing-deltas-big-state" => {
            // The same with patches that remove a key, then fail and are undone.
            ev.push(format!(
                r#"{{"type":"STATE_SNAPSHOT","snapshot":{}}}"#,
                object(n, false)
            ));
            for i in 0..n {
                ev.push(format!(r#"{{"type":"STATE_DELTA","delta":[{{"op":"remove","path":"/k{i}"}},{{"op":"test","path":"/k0","value":"no"}}]}}"#));
            }
        }
        "tool-results-after-later-messages" => {
            // One early call, then n x (a user message, a result for that call).
            ev.push(r#"{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}"#.into());
            ev.push(r#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#.into());
            for i in 0..n {
                ev.push(format!(
                    r#"{{"type":"TEXT_MESSAGE_START","messageId":"u{i}","role":"user"}}"#
                ));
                ev.push(format!(
                    r#"{{"type":"TEXT_MESSAGE_END","messageId":"u{i}"}}"#
                ));
                ev.push(format!(r#"{{"type":"TOOL_CALL_RESULT","messageId":"t{i}","toolCallId":"c","content":"r"}}"#));
            }
        }
        "activity-replacing-messages" => {
            // n x (a user message, an ACTIVITY_SNAPSHOT replacing it).
            for i in 0..n {
                ev.push(format!(
                    r#"{{"type":"TEXT_MESSAGE_START","messageId":"m{i}","role":"user"}}"#
                ));
                ev.push(format!(
                    r#"{{"type":"TEXT_MESSAGE_END","messageId":"m{i}"}}"#
                ));
                ev.push(format!(r#"{{"type":"ACTIVITY_SNAPSHOT","messageId":"m{i}","activityType":"PLAN","content":{{}}}}"#));
            }
        }
        "array-front-insertions" => {
            // A state array of n elements, then n patches inserting at its front.
            let items: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            ev.push(format!(
                r#"{{"type":"STATE_SNAPSHOT","snapshot":{{"l":[{}]}}}}"#,
                items.join(",")
            ));
            for i in 0..n {
                ev.push(format!(
                    r#"{{"type":"STATE_DELTA","delta":[{{"op":"add","path":"/l/0","value":{i}}}]}}"#
                ));
            }
        }
        "snapshots-keeping-activity" => {
            // n x (a new activity message, an empty MESSAGES_SNAPSHOT that keeps it): still
            // quadratic (see README).
            for i in 0..n {
                ev.push(format!(r#"{{"type":"ACTIVITY_SNAPSHOT","messageId":"v{i}","activityType":"PLAN","content":{{}}}}"#));
                ev.push(r#"{"type":"MESSAGES_SNAPSHOT","messages":[]}"#.into());
            }
        }
        _ => unreachable!(),
    }
    ev
}

fn run(events: &[String]) -> Duration {
    let start = Instant::now();
    let mut r = Reducer::new();
    for text in events {
        let arena = Bump::new();
        let Ok(ev) = Event::parse(text.as_bytes(), &arena) else {
            panic!("bad event");
        };
        if r.apply(&ev).is_err() {
            break;
        }
    }
    let took = start.elapsed();
    std::hint::black_box(r);
    took
}

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    if let Some(n) = std::env::args()
        .nth(2)
        .and_then(|n| n.parse::<usize>().ok())
    {
        let took = run(&stream(&filter, n));
        println!("{filter} {n}: {:.1}ms", took.as_secs_f64() * 1e3);
        return;
    }
    let cases: &[(&str, usize)] = &[
        ("state-delta-add", 10_000),
        ("state-delta-test", 10_000),
        ("state-snapshot-repeated-key", 10_000),
        ("metadata-merge", 10_000),
        ("messages-snapshot-twice", 5_000),
        ("open-steps", 10_000),
        ("open-messages", 10_000),
        ("open-tool-calls", 10_000),
        ("tool-results-one-message", 2_500),
        ("state-delta-copy-doubling", 8),
        ("state-deltas-big-state", 5_000),
        ("failing-deltas-big-state", 5_000),
        ("tool-results-after-later-messages", 5_000),
        ("activity-replacing-messages", 5_000),
        ("snapshots-keeping-activity", 2_000),
        ("array-front-insertions", 20_000),
    ];
    println!(
        "{:<30} {:>7} {:>11} {:>11} {:>6}",
        "case", "N", "N", "4N", "ratio"
    );
    for &(case, n) in cases {
        if !case.contains(&filter) {
            continue;
        }
        let small = run(&stream(case, n));
        let big = run(&stream(case, 4 * n));
        println!(
            "{case:<30} {n:>7} {:>9.1}ms {:>9.1}ms {:>6.1}",
            small.as_secs_f64() * 1e3,
            big.as_secs_f64() * 1e3,
            big.as_secs_f64() / small.as_secs_f64().max(1e-9)
        );
    }
}
