//! The gateway end to end on loopback: a real upstream agent server whose event streams are
//! made by the official Python SDK's `EventEncoder`, the `agui-gateway` binary in front of it,
//! and clients that send their bodies in slow small pieces.
//!
//! Skipped, with a message, when the SDK cannot be installed from PyPI.

mod support;

use std::path::Path;

use support::*;

const JSON: (&str, &str) = ("Content-Type", "application/json");
const RUN: &[u8] =
    br#"{"threadId":"t1","runId":"r1","messages":[{"id":"u1","role":"user","content":"hi"}]}"#;

fn event_type(data: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(data).unwrap();
    v["type"].as_str().unwrap().to_string()
}

#[test]
fn valid_body_reaches_the_upstream_byte_for_byte_and_events_are_relayed() {
    let python = python_or_skip!();
    let upstream = Upstream::start(&python);
    let gw = Gateway::start(&upstream.url(), &[]);
    // Pretty-printed, with whitespace and escapes: forwarded exactly as sent.
    let body = sample("conversation.json");
    let r = request(
        gw.port,
        "POST",
        "/run?pieces=40",
        &[JSON],
        &body,
        Pace::Slow(97),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(
        r.header("content-type")
            .unwrap()
            .starts_with("text/event-stream")
    );
    let logged = upstream.logged("/run?pieces=40");
    let received: Vec<u8> = logged["body"]
        .as_str()
        .unwrap()
        .chars()
        .map(|c| c as u8)
        .collect();
    assert_eq!(
        received, body,
        "the upstream got other bytes than the client sent"
    );
    let (ours, _) = sse_data(&r.text());
    let (theirs, _) = sse_data(logged["sent"].as_str().unwrap());
    assert_eq!(theirs.len(), 46);
    assert_eq!(ours, theirs, "relayed events differ from the upstream's");
}

#[test]
fn bad_bodies_get_400_and_413_without_contacting_the_upstream() {
    let python = python_or_skip!();
    let upstream = Upstream::start(&python);
    let gw = Gateway::start(
        &upstream.url(),
        &[
            "--max-body",
            "20000",
            "--max-depth",
            "8",
            "--max-messages",
            "3",
        ],
    );
    // Invalid documents: 400 with what, where and the byte offset.
    let r = request(
        gw.port,
        "POST",
        "/run",
        &[JSON],
        br#"{"threadId":"t","runId":7,"messages":[]}"#,
        Pace::Slow(5),
    );
    assert_eq!(r.status, 400);
    let e = r.json();
    assert_eq!(e["path"], "runId");
    assert_eq!(e["offset"], 24);
    assert!(e["error"].as_str().unwrap().contains("runId"), "{e}");
    let cut = RUN
        .windows(11)
        .position(|w| w == b"\"content\":\"")
        .unwrap()
        + 11;
    let broken = [&RUN[..cut], b"h\x01i\"}]}"].concat();
    let r = request(gw.port, "POST", "/run", &[JSON], &broken, Pace::Slow(3));
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["offset"], cut + 1, "{}", r.text());
    assert_eq!(r.json()["path"], "messages[0].content", "{}", r.text());
    let r = request(gw.port, "POST", "/run", &[JSON], br#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"x","metadata":null}]}"#, Pace::Whole);
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["path"], "messages[0].metadata");
    // Limits: 413 as soon as one is crossed.
    let big = vec![b' '; 200_000];
    let r = request(gw.port, "POST", "/run", &[JSON], &big, Pace::Upto(0));
    assert_eq!(
        r.status, 413,
        "declared length over --max-body, answered on the header alone"
    );
    let r = request(
        gw.port,
        "POST",
        "/run",
        &[JSON, ("Transfer-Encoding", "chunked")],
        &big,
        Pace::Upto(25_000),
    );
    assert_eq!(
        r.status, 413,
        "chunked body growing past --max-body, answered on 25 000 bytes"
    );
    let deep = br#"{"threadId":"t","runId":"r","messages":[],"state":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":1}}}}}}}}}"#;
    let r = request(gw.port, "POST", "/run", &[JSON], deep, Pace::Slow(8));
    assert_eq!(r.status, 413);
    assert!(
        r.json()["path"].as_str().unwrap().starts_with("state.a"),
        "{}",
        r.text()
    );
    let many = br#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"a"},{"id":"2","role":"user","content":"b"},{"id":"3","role":"user","content":"c"},{"id":"4","role":"user","content":"d"}]}"#;
    let r = request(gw.port, "POST", "/run", &[JSON], many, Pace::Slow(16));
    assert_eq!(r.status, 413);
    assert_eq!(r.json()["path"], "messages[3]");
    // Not one of those reached the upstream: it never saw a connection.
    assert_eq!(
        upstream.stats()["connections"],
        1,
        "only the stats request itself"
    );
    // A valid body still goes through afterwards.
    let r = request(gw.port, "POST", "/run", &[JSON], RUN, Pace::Slow(10));
    assert_eq!(r.status, 200);
    assert_eq!(upstream.stats()["requests"], 1);
}

#[test]
fn lenient_accepts_null_optional_fields() {
    let python = python_or_skip!();
    let upstream = Upstream::start(&python);
    let gw = Gateway::start(&upstream.url(), &["--lenient"]);
    let body = br#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"x","metadata":null}]}"#;
    let r = request(gw.port, "POST", "/run", &[JSON], body, Pace::Slow(7));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        upstream.logged("/run")["body"].as_str().unwrap().as_bytes(),
        body
    );
}

#[test]
fn media_is_offloaded_and_encrypted_values_stripped() {
    let python = python_or_skip!();
    let upstream = Upstream::start(&python);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("gateway-media-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let gw = Gateway::start(
        &upstream.url(),
        &[
            "--media-dir",
            dir.to_str().unwrap(),
            "--media-base-url",
            "http://media.test/files/",
            "--strip-encrypted",
        ],
    );
    let body = sample("conversation.json");
    assert!(String::from_utf8_lossy(&body).contains("encryptedValue"));
    let r = request(gw.port, "POST", "/run", &[JSON], &body, Pace::Slow(256));
    assert_eq!(r.status, 200, "{}", r.text());
    let forwarded = upstream.logged("/run")["body"]
        .as_str()
        .unwrap()
        .to_string();
    // The upstream read exactly Content-Length bytes and they are a whole JSON document.
    let doc: serde_json::Value = serde_json::from_str(&forwarded).expect("forwarded body is JSON");
    assert!(
        !forwarded.contains("encryptedValue"),
        "encrypted values left in"
    );
    let mut urls = Vec::new();
    for m in doc["messages"].as_array().unwrap() {
        for p in m["content"].as_array().into_iter().flatten() {
            if let Some(src) = p.get("source") {
                assert_ne!(src["type"], "data", "an inline part was left: {p}");
                if let Some(u) = src["value"]
                    .as_str()
                    .and_then(|v| v.strip_prefix("http://media.test/files/"))
                {
                    urls.push(u.to_string());
                }
            }
        }
    }
    assert!(!urls.is_empty(), "no part was offloaded: {forwarded}");
    for name in &urls {
        let file = dir.join(name);
        let data = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(!data.is_empty());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dropped_event_types_never_reach_the_client() {
    let python = python_or_skip!();
    let upstream = Upstream::start(&python);
    let gw = Gateway::start(&upstream.url(), &["--drop-events", "RAW,STATE_SNAPSHOT"]);
    let r = request(
        gw.port,
        "POST",
        "/run?pieces=3",
        &[JSON],
        RUN,
        Pace::Slow(13),
    );
    assert_eq!(r.status, 200);
    let (ours, _) = sse_data(&r.text());
    let (theirs, _) = sse_data(upstream.logged("/run?pieces=3")["sent"].as_str().unwrap());
    let kept: Vec<String> = theirs
        .into_iter()
        .filter(|d| !["RAW", "STATE_SNAPSHOT"].contains(&event_type(d).as_str()))
        .collect();
    assert_eq!(ours, kept);
    assert_eq!(event_type(ours.last().unwrap()), "RUN_FINISHED");
}

#[test]
fn idle_streams_get_keepalive_pings() {
    let python = python_or_skip!();
    let upstream = Upstream::start(&python);
    let gw = Gateway::start(&upstream.url(), &["--keepalive-secs", "1"]);
    let r = request(
        gw.port,
        "POST",
        "/slow?pieces=1&pause=2.6",
        &[JSON],
        RUN,
        Pace::Whole,
    );
    assert_eq!(r.status, 200);
    let text = r.text();
    let (data, comments) = sse_data(&text);
    assert!(
        comments.iter().filter(|c| c.as_str() == "ping").count() >= 2,
        "{text}"
    );
    let first_ping = text.find(": ping").unwrap();
    assert!(
        text[..first_ping].contains("RUN_STARTED")
            && !text[..first_ping].contains("TEXT_MESSAGE_START")
    );
    assert_eq!(event_type(data.last().unwrap()), "RUN_FINISHED");
}

#[test]
fn a_client_that_hangs_up_frees_the_upstream_connection() {
    let python = python_or_skip!();
    let upstream = Upstream::start(&python);
    let gw = Gateway::start(&upstream.url(), &["--handoff-after-ms", "0"]);
    let mut s = OpenStream::post(gw.port, "/long", RUN);
    s.read_until("TEXT_MESSAGE_CONTENT", 3);
    drop(s);
    // The gateway drops its upstream connection, so the upstream's next write fails.
    eventually("the upstream notices the closed stream", || {
        upstream.stats()["aborted"] == 1
    });
}

/// Every stream handed off from Pingora's session to the gateway's own task at once
/// (`--handoff-after-ms 1`): the relay, pings, a client hanging up and an upstream dying work
/// the same there, and the client's connection closes cleanly at the end of the stream.
#[test]
fn handed_off_streams_behave_the_same() {
    let python = python_or_skip!();
    let upstream = Upstream::start(&python);
    let gw = Gateway::start(
        &upstream.url(),
        &["--handoff-after-ms", "1", "--keepalive-secs", "1"],
    );
    let r = request(
        gw.port,
        "POST",
        "/slow?pieces=3&pause=1.5",
        &[JSON],
        RUN,
        Pace::Whole,
    );
    assert_eq!(r.status, 200);
    let text = r.text();
    let (ours, comments) = sse_data(&text);
    let (theirs, _) = sse_data(
        upstream.logged("/slow?pieces=3&pause=1.5")["sent"]
            .as_str()
            .unwrap(),
    );
    assert_eq!(ours, theirs, "relayed events differ from the upstream's");
    assert!(comments.iter().any(|c| c == "ping"), "{text}");
    assert_eq!(ids(&text).len(), theirs.len(), "every event has its cursor");
    // An upstream that dies mid-frame: a RUN_ERROR, no partial frame.
    let r = request(gw.port, "POST", "/die", &[JSON], RUN, Pace::Whole);
    let text = r.text();
    assert!(text.ends_with("\n\n"), "{text:?}");
    assert_eq!(event_type(sse_data(&text).0.last().unwrap()), "RUN_ERROR");
    // A client that hangs up: the upstream's next write fails.
    let mut s = OpenStream::post(gw.port, "/long", RUN);
    s.read_until("TEXT_MESSAGE_CONTENT", 3);
    drop(s);
    eventually("the upstream notices the closed stream", || {
        upstream.stats()["aborted"] == 1
    });
}

#[test]
fn an_upstream_that_dies_mid_stream_gives_the_client_a_run_error() {
    let python = python_or_skip!();
    let upstream = Upstream::start(&python);
    let gw = Gateway::start(&upstream.url(), &[]);
    let r = request(gw.port, "POST", "/die", &[JSON], RUN, Pace::Slow(11));
    assert_eq!(r.status, 200);
    let text = r.text();
    assert!(
        text.ends_with("\n\n"),
        "a truncated frame reached the client: {text:?}"
    );
    let (data, _) = sse_data(&text);
    assert_eq!(event_type(&data[0]), "RUN_STARTED");
    assert_eq!(event_type(data.last().unwrap()), "RUN_ERROR", "{text}");
    assert!(
        !text.contains(r#""type":"TEXT_MESSAGE_CONTENT","me"#),
        "{text}"
    );
}

#[test]
fn other_requests_pass_through_and_resumes_carry_their_cursor() {
    let python = python_or_skip!();
    let upstream = Upstream::start(&python);
    let gw = Gateway::start(&format!("{}/", upstream.url()), &[]);
    let r = request(gw.port, "GET", "/hello", &[], b"", Pace::Whole);
    assert_eq!((r.status, r.text().as_str()), (200, "hello from upstream"));
    // Not JSON: not parsed, passed on as it is.
    let form = b"a=1&b=not json";
    let r = request(
        gw.port,
        "POST",
        "/form",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        form,
        Pace::Slow(3),
    );
    assert_eq!(r.status, 200);
    assert_eq!(
        upstream.logged("/form")["body"]
            .as_str()
            .unwrap()
            .as_bytes(),
        form
    );
    // A resumed stream: the cursor goes upstream untouched.
    let r = request(
        gw.port,
        "POST",
        "/run?pieces=1",
        &[JSON, ("Last-Event-ID", "r1:4")],
        RUN,
        Pace::Whole,
    );
    assert_eq!(r.status, 200);
    assert_eq!(upstream.logged("/run?pieces=1")["lastEventId"], "r1:4");
}

/// The `id:` lines of an event stream, in order.
fn ids(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("id: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_resumed_stream_gets_only_the_events_after_its_cursor() {
    let python = python_or_skip!();
    let upstream = Upstream::start(&python);
    let gw = Gateway::start(&upstream.url(), &[]);
    // The first connection: every event, each with its cursor.
    let first = request(gw.port, "POST", "/run?pieces=4", &[JSON], RUN, Pace::Whole);
    assert_eq!(first.status, 200);
    let first_text = first.text();
    let (all, _) = sse_data(&first_text);
    let all_ids = ids(&first_text);
    assert_eq!(all.len(), 10);
    assert_eq!(all_ids.len(), 10);
    // The client saw up to event 5 and reconnects; the upstream replays the run from its start.
    let r = request(
        gw.port,
        "POST",
        "/run?pieces=4&again",
        &[JSON, ("Last-Event-ID", all_ids[5].as_str())],
        RUN,
        Pace::Whole,
    );
    assert_eq!(r.status, 200);
    let logged = upstream.logged("/run?pieces=4&again");
    assert_eq!(
        logged["lastEventId"], "r1:5",
        "the header goes upstream unchanged"
    );
    let (replayed, _) = sse_data(logged["sent"].as_str().unwrap());
    assert_eq!(replayed, all, "the upstream replayed the whole run");
    let text = r.text();
    let (data, _) = sse_data(&text);
    assert_eq!(data, all[6..], "only the events after the cursor: {text}");
    assert_eq!(
        ids(&text),
        all_ids[6..],
        "with the cursors of the first connection"
    );
    // An upstream that resumes the run itself (no RUN_STARTED, only the later events): relayed
    // as the rest of the run, with the cursors numbered on.
    let r = request(
        gw.port,
        "POST",
        "/run?pieces=4&resume",
        &[JSON, ("Last-Event-ID", all_ids[5].as_str())],
        RUN,
        Pace::Whole,
    );
    assert_eq!(r.status, 200);
    let (sent, _) = sse_data(
        upstream.logged("/run?pieces=4&resume")["sent"]
            .as_str()
            .unwrap(),
    );
    assert_eq!(sent, all[6..], "the upstream sent only the later events");
    let text = r.text();
    assert_eq!(sse_data(&text).0, all[6..], "{text}");
    assert_eq!(ids(&text), all_ids[6..]);
    // A Last-Event-ID that is not a cursor, or names another run: the stream is relayed whole.
    for (n, other) in ["garbage", "r1:", "r1:x", "other-run:3"]
        .into_iter()
        .enumerate()
    {
        let path = format!("/run?pieces=4&other={n}");
        let r = request(
            gw.port,
            "POST",
            &path,
            &[JSON, ("Last-Event-ID", other)],
            RUN,
            Pace::Whole,
        );
        assert_eq!(r.status, 200, "{other}");
        assert_eq!(sse_data(&r.text()).0, all, "{other}");
        assert_eq!(upstream.logged(&path)["lastEventId"], other);
    }
}
