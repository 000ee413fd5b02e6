//! `agui-wire events`: output, exit status and messages.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agui-wire"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap()
}

const STREAM: &str = "\u{feff}: hello\r\n\
data: {\"type\":\"RUN_STARTED\", \"threadId\":\"t\",\"runId\":\"r\"}\r\n\r\n\
event: agui\n\
data: {\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\n\
data: \"delta\":\"Hi\"}\n\n\
data: {\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"n\":1}}\n\n\
data: {\"type\":\"X_VENDOR\",\"keep\":true}\n\n\
data: {\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/zz\"}]}\n\n\
data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n";

#[test]
fn prints_each_event_as_a_compact_line() {
    let out = run(&["events", "-"], STREAM);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\
         {\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"Hi\"}\n\
         {\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"n\":1}}\n\
         {\"type\":\"X_VENDOR\",\"keep\":true}\n\
         {\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/zz\"}]}\n\
         {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n"
    );
}

#[test]
fn reduce_prints_messages_and_state() {
    let out = run(&["events", "--reduce", "-"], STREAM);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "{\"messages\":[{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"Hi\"}],\"state\":{\"n\":1}}\n"
    );
    assert_eq!(
        text(&out.stderr),
        "warning: event 4: STATE_DELTA not applied: operation 0 (remove /zz): the path does not exist\n"
    );
}

#[test]
fn invalid_streams_exit_1_naming_the_event() {
    let bad_event = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
                     data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\"}\n\n";
    let out = run(&["events", "-"], bad_event);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: event 1: missing required field `delta` at the document root (byte 0)\n"
    );
    // The events before the bad one were printed.
    assert_eq!(text(&out.stdout).lines().count(), 1);

    let bad_order = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
                     data: {\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"{}\"}\n\n";
    let out = run(&["events", "--reduce", "-"], bad_order);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: event 1: TOOL_CALL_ARGS for tool call \"c1\", which is not in progress\n"
    );
    assert!(out.stdout.is_empty());
    // Without --reduce the order is not checked.
    assert_eq!(run(&["events", "-"], bad_order).status.code(), Some(0));
}

#[test]
fn lenient_reads_nulls_as_absent() {
    let s = "data: {\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"f\",\"parentMessageId\":null}\n\n";
    assert_eq!(run(&["events", "-"], s).status.code(), Some(1));
    let out = run(&["events", "--lenient", "-"], s);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"f\"}\n"
    );
}

#[test]
fn a_cut_stream_drops_its_last_event_with_a_warning() {
    let out = run(
        &["events", "-"],
        "data: {\"type\":\"RAW\",\"event\":1}\n\ndata: {\"type\":",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "{\"type\":\"RAW\",\"event\":1}\n");
    assert!(text(&out.stderr).starts_with("warning: SSE stream ended inside a frame"));
}

#[test]
fn usage_and_io_errors_exit_2() {
    for args in [
        &["events"][..],
        &["events", "a", "b"],
        &["events", "--bogus", "-"],
    ] {
        let out = run(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).starts_with("error: "), "{args:?}");
        assert!(
            text(&out.stderr).contains("`agui-wire events --help`"),
            "{args:?}"
        );
    }
    let out = run(&["events", "/nonexistent/stream.sse"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: cannot read /nonexistent/stream.sse: No such file or directory (os error 2)\n"
    );
    let out = run(&["events", "--help"], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("Usage: agui-wire events [OPTIONS] <FILE>"));
}

#[test]
fn reads_files() {
    let dir = std::env::temp_dir().join(format!("agui-wire-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.sse");
    std::fs::write(&path, STREAM).unwrap();
    let out = run(&["events", "--reduce", path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("\"content\":\"Hi\""));
    std::fs::remove_dir_all(&dir).unwrap();
}
