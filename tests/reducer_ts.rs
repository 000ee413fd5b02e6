//! The reducer against the official TypeScript client on the same streams.
//!
//! Installs `@ag-ui/client@1.0.4` (and its peer `zod`) with npm into
//! `<target>/agui-ts-client` (once; later runs reuse it), runs `tests/ts/reduce.mjs` there, which applies every stream with the client's own
//! `runAgent` pipeline, and compares the messages and state it ends with (or the index of the
//! event it fails at) with agui-wire's [`Reducer`] with `keep_unknown_fields: false` (the client
//! strips unknown fields). The test is skipped only when Node or npm is missing or the npm
//! registry cannot be reached (checked once, quickly, before installing), with a `SKIPPED: ...`
//! line that shows in the default output of `cargo test` (see `common/registry.rs`).

mod reducer_streams;
#[path = "common/registry.rs"]
mod registry;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use agui_wire::reducer::{ReduceOptions, Reducer};
use agui_wire::sse::SseReader;
use agui_wire::{ParseOptions, WriteJson};
use serde_json::Value;

const CLIENT_VERSION: &str = "1.0.4";
/// The name a skip is reported under.
const TEST: &str = "reducer_ts (the reducer against @ag-ui/client)";

fn target_dir() -> PathBuf {
    // <target>/debug/deps/reducer_ts-<hash>
    let exe = std::env::current_exe().unwrap();
    exe.ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

fn tool_works(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// [`client_dir`] with `tests/ts/reduce.mjs` copied in, once for all the tests of this file
/// (which run on parallel threads: one installs, the others wait for it).
fn client() -> Option<&'static Path> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = client_dir()?;
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ts/reduce.mjs");
        std::fs::copy(script, dir.join("reduce.mjs")).unwrap();
        Some(dir)
    })
    .as_deref()
}

/// The folder holding `node_modules/@ag-ui/client`, installing it when needed; `None` (with a
/// message) when that is impossible here.
fn client_dir() -> Option<PathBuf> {
    let dir = target_dir().join("agui-ts-client");
    let pkg = dir.join("node_modules/@ag-ui/client/package.json");
    let installed = std::fs::read_to_string(&pkg)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .is_some_and(|v| v["version"] == CLIENT_VERSION);
    if !tool_works("node") {
        registry::skip(TEST, "`node` is not installed");
        return None;
    }
    if installed {
        return Some(dir);
    }
    if !tool_works("npm") {
        registry::skip(TEST, "`npm` is not installed");
        return None;
    }
    if let Err(why) = registry::reachable(registry::Registry::Npm) {
        registry::skip(TEST, &why);
        return None;
    }
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("package.json"),
        r#"{"name":"agui-ts-client","private":true,"type":"module"}"#,
    )
    .unwrap();
    let out = Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--fetch-retries=2",
            "--fetch-timeout=30000",
            &format!("@ag-ui/client@{CLIENT_VERSION}"),
            // Its peer dependency since 1.0.4, pinned so that every run validates alike.
            "zod@4.6.7",
        ])
        .current_dir(&dir)
        .output()
        .expect("npm runs");
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let offline = [
            "ENOTFOUND",
            "EAI_AGAIN",
            "ECONNREFUSED",
            "ECONNRESET",
            "ETIMEDOUT",
            "ENETUNREACH",
            "network",
        ]
        .iter()
        .any(|m| err.contains(m));
        if offline {
            registry::skip(TEST, &format!("the npm registry is unreachable: {err}"));
            return None;
        }
        panic!("npm install @ag-ui/client@{CLIENT_VERSION} failed:\n{err}");
    }
    Some(dir)
}

/// Numbers as f64 (JSON.stringify writes `1.0` as `1`; agui-wire keeps the input's text).
fn normalize(v: &Value) -> Value {
    match v {
        Value::Number(n) => serde_json::json!(n.as_f64()),
        Value::Array(a) => Value::Array(a.iter().map(normalize).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), normalize(v))).collect())
        }
        other => other.clone(),
    }
}

enum Outcome {
    Done(Value),
    Failed(Option<u64>, String),
}

fn ours(events: &[String], opts: &ParseOptions) -> Outcome {
    let mut r = Reducer::with_options(ReduceOptions {
        keep_unknown_fields: false,
        ..ReduceOptions::default()
    });
    for text in events {
        // As the client reads it: list items with unknown variants dropped with a warning.
        if let Err(e) = r.apply_json(text.as_bytes(), opts) {
            return Outcome::Failed(Some(e.index() as u64), e.to_string());
        }
    }
    Outcome::Done(serde_json::from_slice(&r.to_json_vec()).unwrap())
}

fn sse_frames(path: &Path) -> Option<Vec<String>> {
    let file = std::fs::File::open(path).ok()?;
    let mut reader = SseReader::new(file);
    let mut frames = Vec::new();
    while let Some(Ok(frame)) = reader.next() {
        frames.push(String::from_utf8(frame.data.to_vec()).unwrap());
    }
    Some(frames)
}

fn all_streams() -> Vec<(String, Vec<String>)> {
    let mut streams: Vec<(String, Vec<String>)> = reducer_streams::streams()
        .into_iter()
        .map(|(n, evs)| (n.to_owned(), evs.into_iter().map(str::to_owned).collect()))
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let conformance = std::env::var_os("AGUI_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("tests/conformance"));
    let events = conformance.join("events");
    if let Ok(dir) = std::fs::read_dir(&events) {
        let mut paths: Vec<PathBuf> = dir.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".sse") {
                streams.push((format!("conformance:{name}"), sse_frames(&p).unwrap()));
            } else if name.ends_with(".json") && !name.ends_with(".expected.json") {
                let ev = std::fs::read_to_string(&p).unwrap().trim().to_owned();
                let rs = reducer_streams::RS.to_owned();
                let rf = reducer_streams::RF.to_owned();
                streams.push((format!("conformance:{name}"), vec![rs, ev, rf]));
            }
        }
    } else {
        eprintln!("note: no conformance corpus at {}", events.display());
    }
    streams.extend(snapshot_streams());
    streams.extend(event_streams());
    match sse_frames(&samples_dir().join("run.sse")) {
        Some(frames) => streams.push(("samples/run.sse".into(), frames)),
        None => eprintln!("note: no samples/run.sse"),
    }
    streams
}

#[test]
fn reducer_matches_the_typescript_client() {
    let streams = all_streams();
    let Some(dir) = client() else { return };
    compare(dir, &streams, &ParseOptions::default());
}

/// The client (from 1.0.4) reads `null` as absent in a fixed list of optional fields
/// (`OPTIONAL_NULLS`: `rawEvent` and `subagentRunId` of any event, `RUN_STARTED.parentRunId`
/// and `input`, `RUN_FINISHED.outcome` and its `pendingToolCallIds`, `RUN_ERROR.usage`,
/// `TOOL_CALL_RESULT.role`, ...), with a warning; strict parsing rejects them, as the protocol
/// says, and [`ParseOptions::lenient`] reads them as the client does.
#[test]
fn optional_nulls_read_as_the_client_reads_them() {
    let rs = reducer_streams::RS;
    let rf = reducer_streams::RF;
    let cases: [(&str, Vec<&str>); 8] = [
        (
            "parentRunId",
            vec![
                r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","parentRunId":null}"#,
                rf,
            ],
        ),
        (
            "input",
            vec![
                r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","input":null}"#,
                rf,
            ],
        ),
        (
            "rawEvent",
            vec![
                r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","rawEvent":null}"#,
                rf,
            ],
        ),
        (
            "subagentRunId",
            vec![
                rs,
                r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant","subagentRunId":null}"#,
                r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hi"}"#,
                r#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#,
                rf,
            ],
        ),
        (
            "tool result role",
            vec![
                rs,
                r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#,
                r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#,
                r#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"x","role":null}"#,
                rf,
            ],
        ),
        (
            "run error usage",
            vec![rs, r#"{"type":"RUN_ERROR","message":"boom","usage":null}"#],
        ),
        (
            "outcome",
            vec![
                rs,
                r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":null}"#,
            ],
        ),
        (
            "pendingToolCallIds",
            vec![
                rs,
                r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"success","pendingToolCallIds":null}}"#,
            ],
        ),
    ];
    let streams: Vec<(String, Vec<String>)> = cases
        .iter()
        .map(|(name, evs)| {
            (
                format!("null {name}"),
                evs.iter().map(|e| e.to_string()).collect(),
            )
        })
        .collect();
    for (name, events) in &streams {
        assert!(
            matches!(ours(events, &ParseOptions::default()), Outcome::Failed(..)),
            "{name}: strict parsing took a null"
        );
    }
    let Some(dir) = client() else { return };
    let results = compare(dir, &streams, &ParseOptions::lenient());
    assert!(
        results.iter().all(|r| r.get("error").is_none()),
        "the client rejected one: {results:?}"
    );
}

/// Runs `streams` through the client and through our reducer (parsing with `opts`) and
/// demands the same messages and state, or a failure at the same event; returns the client's
/// results.
fn compare(dir: &Path, streams: &[(String, Vec<String>)], opts: &ParseOptions) -> Vec<Value> {
    let mut input = String::from("[");
    for (i, (name, events)) in streams.iter().enumerate() {
        if i > 0 {
            input.push(',');
        }
        input.push_str(&format!(
            "{{\"name\":{},\"events\":[{}]}}",
            serde_json::to_string(name).unwrap(),
            events.join(",")
        ));
    }
    input.push(']');
    let mut child = Command::new("node")
        .arg("reduce.mjs")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "node failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(results.len(), streams.len());
    let mut failures = Vec::new();
    let (mut same_state, mut same_error) = (0, 0);
    for ((name, events), ts) in streams.iter().zip(&results) {
        assert_eq!(ts["name"], name.as_str());
        let theirs = match ts.get("error") {
            Some(err) => {
                Outcome::Failed(ts["index"].as_u64(), err.as_str().unwrap_or("").to_owned())
            }
            None => {
                Outcome::Done(serde_json::json!({"messages": ts["messages"], "state": ts["state"]}))
            }
        };
        match (ours(events, opts), theirs) {
            (Outcome::Done(a), Outcome::Done(b)) if normalize(&a) == normalize(&b) => {
                same_state += 1
            }
            (Outcome::Failed(i, _), Outcome::Failed(j, _)) if i == j => same_error += 1,
            (Outcome::Done(a), Outcome::Done(b)) => failures.push(format!(
                "{name}: different results\n  agui-wire:  {a}\n  TypeScript: {b}"
            )),
            (a, b) => {
                let show = |o: &Outcome| match o {
                    Outcome::Done(v) => format!("ok {v}"),
                    Outcome::Failed(i, e) => format!("error at event {i:?}: {e}"),
                };
                failures.push(format!(
                    "{name}:\n  agui-wire:  {}\n  TypeScript: {}",
                    show(&a),
                    show(&b)
                ));
            }
        }
    }
    eprintln!(
        "{} streams: {same_state} with the same messages and state, {same_error} failing at the same event",
        streams.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    results
}

/// A small deterministic generator (xorshift): each call gives a number below its argument.
fn rng(mut x: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    }
}

/// Runs whose `MESSAGES_SNAPSHOT`s put tool results anywhere: before their call, in their
/// call's turn, after later turns, with calls of one id made twice, among reasoning and
/// activity messages (the client, from 1.0.4, moves displaced results back to their call);
/// then new results for those calls, user messages, and activity snapshots replacing earlier
/// messages.
fn snapshot_streams() -> Vec<(String, Vec<String>)> {
    let mut next = rng(0x2545_F491_4F6C_DD1D);
    let mut streams = Vec::new();
    let mut id = 0;
    for s in 0..400 {
        let mut events = vec![reducer_streams::RS.to_owned()];
        for _ in 0..1 + next(2) {
            let mut messages = Vec::new();
            for _ in 0..1 + next(10) {
                id += 1;
                let call = |k: u64| format!("c{}", k + 1);
                let m = match next(10) {
                    0 | 1 => format!(r#"{{"id":"m{id}","role":"user","content":"q"}}"#),
                    2..=4 => {
                        let calls: Vec<String> = (0..next(4))
                            .map(|_| {
                                format!(
                                    r#"{{"id":"{}","type":"function","function":{{"name":"f","arguments":"{{}}"}}}}"#,
                                    call(next(3))
                                )
                            })
                            .collect();
                        format!(
                            r#"{{"id":"m{id}","role":"assistant","toolCalls":[{}]}}"#,
                            calls.join(",")
                        )
                    }
                    5..=7 => {
                        let answers = if next(8) == 0 {
                            "c9".to_owned()
                        } else {
                            call(next(3))
                        };
                        format!(
                            r#"{{"id":"m{id}","role":"tool","toolCallId":"{answers}","content":"r"}}"#
                        )
                    }
                    8 => format!(r#"{{"id":"m{id}","role":"reasoning","content":"why"}}"#),
                    _ => format!(
                        r#"{{"id":"m{id}","role":"activity","activityType":"PLAN","content":{{}}}}"#
                    ),
                };
                messages.push(m);
            }
            events.push(format!(
                r#"{{"type":"MESSAGES_SNAPSHOT","messages":[{}]}}"#,
                messages.join(",")
            ));
        }
        // Then results for calls the snapshots may make several times (1.0.4 puts one after
        // the latest calling message with no result yet), among user messages and activity
        // snapshots replacing earlier messages (which may take a result away).
        let first: u64 = id + 1;
        for _ in 0..next(6) {
            id += 1;
            match next(4) {
                0 | 1 => events.push(format!(
                    r#"{{"type":"TOOL_CALL_RESULT","messageId":"m{id}","toolCallId":"c{}","content":"late"}}"#,
                    1 + next(3)
                )),
                2 => {
                    events.push(format!(
                        r#"{{"type":"TEXT_MESSAGE_START","messageId":"m{id}","role":"user"}}"#
                    ));
                    events.push(format!(
                        r#"{{"type":"TEXT_MESSAGE_END","messageId":"m{id}"}}"#
                    ));
                }
                _ => events.push(format!(
                    r#"{{"type":"ACTIVITY_SNAPSHOT","messageId":"m{}","activityType":"PLAN","content":{{}}}}"#,
                    first.saturating_sub(12) + next(13)
                )),
            }
        }
        events.push(reducer_streams::RF.to_owned());
        streams.push((format!("snapshot pairing {s}"), events));
    }
    streams
}

/// Random runs of text, tool calls (parent or not), tool results (for any call, or one not
/// started yet; new message ids, or the last message's when that is not a result, or an
/// earlier result's ids again), activity snapshots, reasoning and state deltas: where a
/// result goes among the messages after its call (the client from 1.0.4 steps over activity
/// messages there), and a repeated result replacing the earlier one in place.
fn event_streams() -> Vec<(String, Vec<String>)> {
    let mut next = rng(0x9E37_79B9_7F4A_7C15);
    let mut streams = Vec::new();
    for s in 0..300 {
        let mut events = vec![reducer_streams::RS.to_owned()];
        let (mut ids, mut calls) = (0, 0);
        let mut results: Vec<(String, String)> = Vec::new();
        for _ in 0..1 + next(12) {
            let last = format!("m{}", ids.max(1));
            match next(10) {
                0 | 1 => {
                    ids += 1;
                    let role = if next(2) == 0 { "assistant" } else { "user" };
                    events.push(format!(
                        r#"{{"type":"TEXT_MESSAGE_START","messageId":"m{ids}","role":"{role}"}}"#
                    ));
                    events.push(format!(
                        r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m{ids}","delta":"x"}}"#
                    ));
                    events.push(format!(
                        r#"{{"type":"TEXT_MESSAGE_END","messageId":"m{ids}"}}"#
                    ));
                }
                2..=4 => {
                    // Usually a fresh id; sometimes an ended call's again (1.0.4 starts it
                    // afresh: its next arguments replace the old ones).
                    let c = if calls > 0 && next(4) == 0 {
                        1 + next(calls)
                    } else {
                        calls += 1;
                        calls
                    };
                    let parent = if next(2) == 0 {
                        String::new()
                    } else {
                        format!(r#","parentMessageId":"{last}""#)
                    };
                    events.push(format!(
                        r#"{{"type":"TOOL_CALL_START","toolCallId":"c{c}","toolCallName":"f"{parent}}}"#
                    ));
                    events.push(format!(
                        r#"{{"type":"TOOL_CALL_ARGS","toolCallId":"c{c}","delta":"{{}}"}}"#
                    ));
                    events.push(format!(r#"{{"type":"TOOL_CALL_END","toolCallId":"c{c}"}}"#));
                }
                5..=6 => {
                    // Sometimes an earlier result's message and call ids again (1.0.4 replaces
                    // that result in place), else a fresh message id, or the last message's
                    // when that is not a result.
                    let (id, call) = match results.len() {
                        n if n > 0 && next(3) == 0 => results[next(n as u64) as usize].clone(),
                        _ => {
                            let id = if ids == 0
                                || next(2) == 0
                                || results.iter().any(|(r, _)| *r == last)
                            {
                                ids += 1;
                                format!("m{ids}")
                            } else {
                                last
                            };
                            (id, format!("c{}", 1 + next(calls + 1)))
                        }
                    };
                    results.push((id.clone(), call.clone()));
                    let sub = [r#","subagentRunId":"s1""#, ""][next(2) as usize];
                    events.push(format!(
                        r#"{{"type":"TOOL_CALL_RESULT","messageId":"{id}","toolCallId":"{call}","content":"r{}"{sub}}}"#,
                        next(10)
                    ));
                }
                7 => {
                    ids += 1;
                    events.push(format!(
                        r#"{{"type":"ACTIVITY_SNAPSHOT","messageId":"m{ids}","activityType":"PLAN","content":{{}}}}"#
                    ));
                }
                8 => {
                    ids += 1;
                    let m = format!("m{ids}");
                    events.push(format!(r#"{{"type":"REASONING_START","messageId":"{m}"}}"#));
                    events.push(format!(
                        r#"{{"type":"REASONING_MESSAGE_START","messageId":"{m}","role":"reasoning"}}"#
                    ));
                    events.push(format!(
                        r#"{{"type":"REASONING_MESSAGE_CONTENT","messageId":"{m}","delta":"w"}}"#
                    ));
                    events.push(format!(
                        r#"{{"type":"REASONING_MESSAGE_END","messageId":"{m}"}}"#
                    ));
                    events.push(format!(r#"{{"type":"REASONING_END","messageId":"{m}"}}"#));
                }
                _ => events.push(format!(
                    r#"{{"type":"STATE_DELTA","delta":[{{"op":"add","path":"/k{}","value":{}}}]}}"#,
                    next(4),
                    next(6)
                )),
            }
        }
        events.push(reducer_streams::RF.to_owned());
        streams.push((format!("event mix {s}"), events));
    }
    streams
}

/// `samples/` of the crate, or `$AGUI_SAMPLES_DIR`.
fn samples_dir() -> PathBuf {
    std::env::var_os("AGUI_SAMPLES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("samples"))
}
