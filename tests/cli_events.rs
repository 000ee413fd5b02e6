//! `agui-wire events`: output, exit status and messages.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: impl AsRef<[u8]>) -> Output {
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
        .write_all(stdin.as_ref())
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
fn a_last_event_without_its_blank_line_is_read_as_the_client_reads_it() {
    // `@ag-ui/client` delivers a last frame that the stream ends without a blank line after.
    let out = run(
        &["events", "-"],
        "data: {\"type\":\"RAW\",\"event\":1}\n\ndata: {\"type\":\"RAW\",\"event\":2}",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "{\"type\":\"RAW\",\"event\":1}\n{\"type\":\"RAW\",\"event\":2}\n"
    );
    // A cut event is then an invalid event, as for the client (its JSON.parse fails).
    let out = run(
        &["events", "-"],
        "data: {\"type\":\"RAW\",\"event\":1}\n\ndata: {\"type\":",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "{\"type\":\"RAW\",\"event\":1}\n");
    assert!(
        text(&out.stderr).contains("event 1"),
        "{}",
        text(&out.stderr)
    );
    // --strict-sse reads SSE as the standard does: the unterminated frame is dropped, with a
    // warning, and the stream succeeds.
    for tail in ["data: {\"type\":\"RAW\",\"event\":2}", "data: {\"type\":"] {
        let out = run(
            &["events", "--strict-sse", "-"],
            format!("data: {{\"type\":\"RAW\",\"event\":1}}\n\n{tail}"),
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout), "{\"type\":\"RAW\",\"event\":1}\n");
        assert!(
            text(&out.stderr).starts_with("warning: SSE stream ended inside a frame"),
            "{}",
            text(&out.stderr)
        );
    }
    // The final state differs by that last frame, with --reduce.
    let stream = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
                  data: {\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"n\":1}}\n\n\
                  data: {\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"n\":2}}";
    let out = run(&["events", "--reduce", "-"], stream);
    assert_eq!(text(&out.stdout), "{\"messages\":[],\"state\":{\"n\":2}}\n");
    let out = run(&["events", "--reduce", "--strict-sse", "-"], stream);
    assert_eq!(text(&out.stdout), "{\"messages\":[],\"state\":{\"n\":1}}\n");
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

/// Input that holds no event (a JSON document, nothing, text that is not SSE) is an error.
#[test]
fn input_without_events_exits_1() {
    let json = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/conversation.json"
    ))
    .unwrap();
    for (input, why) in [
        (json.as_str(), "it looks like a JSON document"),
        ("", "the input is empty or blank"),
        ("\n\n", "the input is empty or blank"),
        ("garbage\n\n", "an SSE stream is `data: <event JSON>` lines"),
        (": only a comment\n\n", "an SSE stream is"),
    ] {
        for args in [&["events", "-"][..], &["events", "--reduce", "-"]] {
            let out = run(args, input);
            assert_eq!(out.status.code(), Some(1), "{input:?} {args:?}");
            let err = text(&out.stderr);
            assert!(
                err.starts_with("error: no event in the input: ") && err.contains(why),
                "{input:?}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(out.stdout.is_empty());
        }
    }
}

/// A frame whose data is not JSON is reported as such.
#[test]
fn a_frame_that_is_not_json_says_so() {
    let out = run(&["events", "-"], "data: not valid json\n\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: event 0: not JSON: invalid literal (expected true, false or null) at the document root (byte 0)\n"
    );
    let out = run(
        &["events", "-"],
        "data: {\"type\":\"RAW\",\"event\":tru}\n\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("error: event 0: not JSON: invalid literal"),
        "{}",
        text(&out.stderr)
    );
}

/// On a live pipe each event is printed as soon as its frame is complete: the first line is
/// read back while the input is still open (the writer waits for it before sending more).
#[test]
fn events_are_printed_as_their_frames_complete() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;

    let mut child = Command::new(env!("CARGO_BIN_EXE_agui-wire"))
        .args(["events", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    for i in 0..3 {
        stdin
            .write_all(format!("data: {{\"type\":\"RAW\",\"event\":{i}}}\n\n").as_bytes())
            .unwrap();
        stdin.flush().unwrap();
        // A bound, not a timing check: without the flush the line never comes before the end
        // of input, and the test fails here instead of hanging.
        let line = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap_or_else(|_| {
                let _ = child.kill();
                panic!("event {i} was not printed while the input was still open")
            });
        assert_eq!(line, format!("{{\"type\":\"RAW\",\"event\":{i}}}"));
    }
    drop(stdin);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    reader.join().unwrap();
    assert!(rx.try_recv().is_err());
}

#[test]
fn reduce_reads_unknown_kinds_as_the_client_does_unless_strict_variants() {
    let stream = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
data: {\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"merge\",\"path\":\"/a\",\"value\":1},{\"op\":\"add\",\"path\":\"/b\",\"value\":2}]}\n\n\
data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n";
    let out = run(&["events", "--reduce", "-"], stream);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "{\"messages\":[],\"state\":{\"b\":2}}\n");
    assert!(
        text(&out.stderr).contains("event 1: STATE_DELTA: dropped delta[0] (unknown op \"merge\")"),
        "{}",
        text(&out.stderr)
    );
    let strict = run(&["events", "--reduce", "--strict-variants", "-"], stream);
    assert_eq!(strict.status.code(), Some(1), "{}", text(&strict.stderr));
    assert!(
        text(&strict.stderr).contains("event 1"),
        "{}",
        text(&strict.stderr)
    );
    assert!(strict.stdout.is_empty());
}

#[test]
fn protobuf_streams_print_the_same_lines_as_sse() {
    let run_sse = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/run.sse");
    let proto = run(&["transcode", "--to", "proto", run_sse], "");
    assert_eq!(proto.status.code(), Some(0), "{}", text(&proto.stderr));
    assert_eq!(
        proto.stdout.first(),
        Some(&0),
        "a protobuf stream starts with 0"
    );
    for reduce in [false, true] {
        let flags: &[&str] = if reduce {
            &["events", "--reduce"]
        } else {
            &["events"]
        };
        let out = run(&[flags, &["-"]].concat(), &proto.stdout);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let expected = run(&[flags, &[run_sse]].concat(), "");
        assert_eq!(
            expected.status.code(),
            Some(0),
            "{}",
            text(&expected.stderr)
        );
        assert_eq!(text(&out.stdout), text(&expected.stdout));
    }
}
