//! Hostile input: every request byte of a gateway is attacker-controlled. Each case checks the
//! exact error (kind, byte offset and JSON path), or a correct parse where the grammar allows the
//! input, and that it comes quickly (no quadratic paths, no recursion on input depth, nothing
//! allocated in proportion to what the input claims).
//!
//! Crashes and disagreements found by the fuzz targets (`fuzz/`) are kept here as regression
//! tests, next to the cases the issue lists.

use std::time::Instant;

use agui_wire::sse::{SseDecoder, SseErrorKind, SseOptions};
use agui_wire::*;

/// Runs `f` and reports how long it took. Tests assert no timings (a loaded CI machine would
/// make them flaky); the time is printed so a regression to quadratic work shows in the log.
fn quickly<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let v = f();
    eprintln!("{what}: {:?}", start.elapsed());
    v
}

fn input(body: &[u8]) -> Result<usize, Error> {
    let arena = Bump::new();
    RunAgentInput::parse(body, &arena).map(|d| d.messages.len())
}

fn input_with(body: &[u8], opts: &ParseOptions) -> Result<usize, Error> {
    let arena = Bump::new();
    RunAgentInput::parse_with(body, &arena, opts).map(|d| d.messages.len())
}

/// Checks the error of parsing `body` as a `RunAgentInput`.
#[track_caller]
fn rejects(body: &[u8], kind: ErrorKind, offset: usize, path: &str) {
    let e = input(body).expect_err("must be rejected");
    assert_eq!(
        (e.kind(), e.offset(), e.path()),
        (&kind, offset, path),
        "{e}"
    );
}

/// `{"threadId":"t","runId":"r","messages":[...],<tail>}` and the offset where `tail` starts.
fn doc_with(messages: &str, tail: &[u8]) -> (Vec<u8>, usize) {
    let mut b = format!(r#"{{"threadId":"t","runId":"r","messages":[{messages}]"#).into_bytes();
    if !tail.is_empty() {
        b.push(b',');
    }
    let at = b.len();
    b.extend_from_slice(tail);
    b.push(b'}');
    (b, at)
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .expect("needle present")
}

// ----- nesting ---------------------------------------------------------------------------------

#[test]
fn million_deep_state_is_a_depth_error_at_the_limit() {
    const N: usize = 1_000_000;
    let mut tail = b"\"state\":".to_vec();
    tail.extend(std::iter::repeat_n(b'[', N));
    let (body, at) = doc_with("", &tail);
    let first = at + 8;
    let e = quickly("1e6 open arrays", || input(&body)).unwrap_err();
    // The document is level 1, `state` level 2: the 512th bracket opens level 513.
    assert_eq!(e.kind(), &ErrorKind::DepthLimitExceeded(512));
    assert_eq!(e.offset(), first + 511);
    assert_eq!(e.path(), format!("state{}", "[0]".repeat(511)));

    // Closed, and with the limit raised: parsed, iteratively (no stack overflow).
    let mut tail = b"\"state\":".to_vec();
    tail.extend(std::iter::repeat_n(b'[', N));
    tail.extend(std::iter::repeat_n(b']', N));
    let (body, _) = doc_with("", &tail);
    let opts = ParseOptions {
        max_depth: N + 1,
        ..ParseOptions::default()
    };
    let arena = Bump::new();
    let doc = quickly("1e6 nested arrays", || {
        RunAgentInput::parse_with(&body, &arena, &opts)
    })
    .unwrap();
    assert_eq!(doc.state.as_ref().unwrap().text().len(), 2 * N);
    let opts = ParseOptions {
        max_depth: N,
        ..ParseOptions::default()
    };
    let e = input_with(&body, &opts).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (&ErrorKind::DepthLimitExceeded(N), first + N - 1)
    );
}

#[test]
fn million_deep_objects_everywhere_raw_json_goes() {
    const N: usize = 1_000_000;
    let deep: Vec<u8> = b"{\"a\":".repeat(N);
    // In message metadata: document 1, messages 2, message 3, metadata 4: the 509th object
    // opens level 513.
    let mut m = br#"{"id":"1","role":"user","content":"x","metadata":"#.to_vec();
    let meta = m.len();
    m.extend_from_slice(&deep);
    let mut body = br#"{"threadId":"t","runId":"r","messages":["#.to_vec();
    let base = body.len();
    body.extend_from_slice(&m);
    let e = quickly("deep metadata", || input(&body)).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::DepthLimitExceeded(512));
    assert_eq!(e.offset(), base + meta + 509 * 5);
    assert!(
        e.path().starts_with("messages[0].metadata.a.a."),
        "{}",
        e.path()
    );

    // Before the discriminator (skipped, then read again), in an unknown field.
    let mut body = br#"{"threadId":"t","runId":"r","messages":[{"x":"#.to_vec();
    let x = body.len();
    body.extend_from_slice(&deep);
    let e = quickly("deep pending field", || input(&body)).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (&ErrorKind::DepthLimitExceeded(512), x + 509 * 5)
    );

    // In forwardedProps and through validate_json.
    let (body, at) = doc_with("", &[b"\"forwardedProps\":".as_slice(), &deep].concat());
    let e = quickly("deep forwardedProps", || input(&body)).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (&ErrorKind::DepthLimitExceeded(512), at + 17 + 511 * 5)
    );
    let e = quickly("deep validate_json", || {
        validate_json(&deep, &ParseOptions::default())
    })
    .unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (&ErrorKind::DepthLimitExceeded(512), 512 * 5)
    );
}

#[test]
fn depth_limit_zero_and_huge() {
    let zero = ParseOptions {
        max_depth: 0,
        ..ParseOptions::default()
    };
    assert_eq!(validate_json(b" 1 ", &zero), Ok(JsonKind::Number));
    let e = validate_json(b" []", &zero).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (&ErrorKind::DepthLimitExceeded(0), 1)
    );
    let e = input_with(br#"{"threadId":"t"}"#, &zero).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (&ErrorKind::DepthLimitExceeded(0), 0)
    );
    let huge = ParseOptions {
        max_depth: usize::MAX,
        ..ParseOptions::default()
    };
    assert_eq!(validate_json(b"[[[]]]", &huge), Ok(JsonKind::Array));
    assert_eq!(
        input_with(br#"{"threadId":"t","runId":"r","messages":[]}"#, &huge),
        Ok(0)
    );
}

// ----- counts ----------------------------------------------------------------------------------

fn tiny_messages(n: usize) -> Vec<u8> {
    let msg = r#"{"id":"","role":"assistant"}"#;
    let mut messages = String::with_capacity(n * (msg.len() + 1));
    for i in 0..n {
        if i > 0 {
            messages.push(',');
        }
        messages.push_str(msg);
    }
    doc_with(&messages, b"").0
}

#[test]
fn million_tiny_messages() {
    let body = tiny_messages(1_000_000);
    assert_eq!(quickly("1e6 messages", || input(&body)), Ok(1_000_000));
}

#[test]
fn million_tiny_messages_over_the_limit() {
    // A limit stops a million at the first message over, without reading the rest.
    let body = tiny_messages(1_000_000);
    let opts = ParseOptions {
        max_messages: 1000,
        ..ParseOptions::default()
    };
    let e = quickly("1e6 messages over the limit", || input_with(&body, &opts)).unwrap_err();
    let start = 40 + 1000 * 29;
    assert_eq!(
        (e.kind(), e.offset(), e.path()),
        (
            &ErrorKind::TooManyItems {
                what: "messages",
                limit: 1000
            },
            start,
            "messages[1000]"
        )
    );
}

#[test]
fn million_unknown_fields_hit_the_extra_field_cap() {
    const N: usize = 1_000_000;
    let mut tail = Vec::with_capacity(N * 8);
    for i in 0..N {
        if i > 0 {
            tail.push(b',');
        }
        tail.extend_from_slice(b"\"k\":0");
    }
    let (body, at) = doc_with("", &tail);
    let e = quickly("1e6 unknown fields", || input(&body)).unwrap_err();
    // Unknown fields are numbered after the known ones in a u16: 64 511 per object.
    let cap = (u16::MAX - 1024) as usize;
    assert_eq!(
        e.kind(),
        &ErrorKind::TooManyItems {
            what: "unknown fields",
            limit: cap
        }
    );
    assert_eq!(e.offset(), at + cap * 6);
    assert_eq!(e.path(), "k");
}

#[test]
fn million_content_parts_and_list_limit() {
    const N: usize = 1_000_000;
    let part = r#"{"type":"text","text":""}"#;
    let mut parts = String::with_capacity(N * (part.len() + 1));
    for i in 0..N {
        if i > 0 {
            parts.push(',');
        }
        parts.push_str(part);
    }
    let (body, _) = doc_with(
        &format!(r#"{{"id":"1","role":"user","content":[{parts}]}}"#),
        b"",
    );
    let arena = Bump::new();
    let doc = quickly("1e6 parts", || RunAgentInput::parse(&body, &arena)).unwrap();
    assert_eq!(doc.messages[0].parts().len(), N);
    let opts = ParseOptions {
        max_list_items: 3,
        ..ParseOptions::default()
    };
    let e = input_with(&body, &opts).unwrap_err();
    assert_eq!(
        (e.kind(), e.path()),
        (
            &ErrorKind::TooManyItems {
                what: "content",
                limit: 3
            },
            "messages[0].content[3]"
        )
    );
    assert_eq!(e.offset(), 75 + 3 * (part.len() + 1));
}

// ----- size claims and truncation ----------------------------------------------------------------

/// The format carries no length prefixes, so a "claim" is whatever makes a reader expect more:
/// an unterminated string that a base64 payload would fill, a container that never closes, a
/// huge number where a count goes, an SSE frame without its blank line. Each is answered from
/// the bytes present, at once, with nothing reserved for the claimed size.
#[test]
fn claims_of_two_gigabytes_in_truncated_input() {
    let head = br#"{"threadId":"t","runId":"r","messages":[{"id":"m","role":"user","content":[{"type":"image","source":{"type":"data","mimeType":"image/png","value":"iVBORw0KGgoAAAANSUhEUgAA"#;
    let e = input(head).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset(), e.path()),
        (
            &ErrorKind::UnexpectedEof,
            head.len(),
            "messages[0].content[0].source.value"
        )
    );

    // A 2 GiB count where the protocol has integers is a number like any other; past 2^53 - 1
    // (what a JavaScript client can hold exactly) a clear range error, with no allocation.
    let arena = Bump::new();
    let caps =
        AgentCapabilities::parse(br#"{"execution":{"maxIterations":2147483648}}"#, &arena).unwrap();
    assert_eq!(caps.execution.unwrap().max_iterations, Some(2_147_483_648));
    let doc = br#"{"execution":{"maxIterations":9007199254740991}}"#;
    let caps = AgentCapabilities::parse(doc, &arena).unwrap();
    assert_eq!(caps.execution.unwrap().max_iterations, Some((1 << 53) - 1));
    let doc = br#"{"execution":{"maxIterations":9007199254740992}}"#;
    let e = AgentCapabilities::parse(doc, &arena).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset(), e.path()),
        (
            &ErrorKind::InvalidValue {
                field: "maxIterations",
                reason: "must be a non-negative integer no larger than 2^53 - 1"
            },
            30,
            "execution.maxIterations"
        )
    );

    // A body larger than the configured limit is refused before a byte is read.
    let opts = ParseOptions {
        max_input_bytes: 16,
        ..ParseOptions::default()
    };
    let e = input_with(head, &opts).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset(), e.path()),
        (
            &ErrorKind::InputTooLarge {
                len: head.len(),
                limit: 16
            },
            0,
            ""
        )
    );

    // An SSE frame that never ends: bounded by max_frame_bytes, reported at once; the
    // truncated tail is reported by finish() when the end is read strictly.
    let mut decoder = SseDecoder::new(SseOptions::new().with_max_frame_bytes(1024));
    let mut stream = b"data: ".to_vec();
    stream.extend(std::iter::repeat_n(b'A', 4096));
    {
        let mut feed = decoder.feed(&stream);
        let e = feed.next().unwrap().unwrap_err();
        assert_eq!(
            e.kind(),
            &SseErrorKind::FrameTooLong {
                max_frame_bytes: 1024
            }
        );
        assert!(feed.next().is_none());
    }
    let mut decoder = SseDecoder::new(SseOptions::new().with_strict_end(true));
    let cut = b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t";
    drop(decoder.feed(cut));
    let e = decoder.finish().unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (
            &SseErrorKind::Incomplete {
                discarded: cut.len() as u64
            },
            0
        )
    );
}

// ----- numbers ---------------------------------------------------------------------------------

#[test]
fn numbers_of_a_hundred_thousand_digits() {
    let digits = "7".repeat(100_000);
    // The grammar has no limit: accepted, kept as text.
    for n in [
        digits.clone(),
        format!("-{digits}"),
        format!("0.{digits}"),
        format!("{digits}.{digits}e-{digits}"),
        format!("1E+{digits}"),
    ] {
        let (body, _) = doc_with("", format!("\"state\":[{n}]").as_bytes());
        let arena = Bump::new();
        let doc = quickly("long number", || RunAgentInput::parse(&body, &arena)).unwrap();
        assert_eq!(doc.state.unwrap().text().len(), n.len() + 2);
    }
    // Leading zero, dangling fraction or exponent: invalid at the number's first byte, or the
    // end of input when the number runs into it.
    let (body, at) = doc_with("", format!("\"state\":0{digits}").as_bytes());
    rejects(&body, ErrorKind::InvalidNumber, at + 8, "state");
    let (body, at) = doc_with("", format!("\"state\":-{digits}.e5").as_bytes());
    rejects(&body, ErrorKind::InvalidNumber, at + 8, "state");
    let body = format!(r#"{{"threadId":"t","runId":"r","messages":[],"state":{digits}e"#);
    rejects(
        body.as_bytes(),
        ErrorKind::UnexpectedEof,
        body.len(),
        "state",
    );
    // Where the protocol wants a u64.
    let arena = Bump::new();
    let doc = format!(r#"{{"execution":{{"maxExecutionTime":{digits}}}}}"#);
    let e = quickly("long u64", || {
        AgentCapabilities::parse(doc.as_bytes(), &arena)
    })
    .unwrap_err();
    assert_eq!(
        (e.kind(), e.offset(), e.path()),
        (
            &ErrorKind::InvalidValue {
                field: "maxExecutionTime",
                reason: "must be a non-negative integer no larger than 2^53 - 1"
            },
            33,
            "execution.maxExecutionTime"
        )
    );
}

// ----- bytes: UTF-8, escapes, NUL, BOM -----------------------------------------------------------

#[test]
fn invalid_utf8_in_strings_is_reported_at_the_bad_byte() {
    let cases: &[(&[u8], &str)] = &[
        (b"\xff", "not a UTF-8 byte"),
        (b"\x80", "lone continuation byte"),
        (b"\xc0\xaf", "overlong 2-byte '/'"),
        (b"\xc1\xbf", "overlong 2-byte"),
        (b"\xe0\x80\xaf", "overlong 3-byte '/'"),
        (b"\xf0\x80\x80\xaf", "overlong 4-byte '/'"),
        (b"\xed\xa0\x80", "UTF-8-encoded high surrogate"),
        (b"\xed\xbf\xbf", "UTF-8-encoded low surrogate"),
        (b"\xf4\x90\x80\x80", "above U+10FFFF"),
        (b"\xf5\x80\x80\x80", "not a lead byte"),
        (b"\xe2\x82", "cut 3-byte sequence"),
        (b"\xf0\x9f\x98", "cut 4-byte sequence"),
    ];
    for (bad, what) in cases {
        // In a known string field, in an unknown key, and deep inside raw JSON.
        let mut body = br#"{"threadId":"ok "#.to_vec();
        let at = body.len();
        body.extend_from_slice(bad);
        body.extend_from_slice(br#"","runId":"r","messages":[]}"#);
        let e = input(&body).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset(), e.path()),
            (&ErrorKind::InvalidUtf8, at, "threadId"),
            "{what}"
        );

        let mut key = br#"{"threadId":"t","runId":"r","messages":[],"k"#.to_vec();
        let at = key.len();
        key.extend_from_slice(bad);
        key.extend_from_slice(br#"":1}"#);
        let e = input(&key).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (&ErrorKind::InvalidUtf8, at),
            "{what}"
        );

        let mut raw = br#"{"threadId":"t","runId":"r","messages":[],"state":{"a":[1,"xx"#.to_vec();
        let at = raw.len();
        raw.extend_from_slice(bad);
        raw.extend_from_slice(br#""]}}"#);
        let e = input(&raw).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset(), e.path()),
            (&ErrorKind::InvalidUtf8, at, "state.a[1]"),
            "{what}"
        );
    }
    // A long valid prefix (SIMD path) before the bad byte.
    let mut body = br#"{"threadId":""#.to_vec();
    body.extend(std::iter::repeat_n(b'a', 1000));
    body.extend_from_slice("é😀".as_bytes());
    let at = body.len();
    body.extend_from_slice(b"\xc0\xaf\",\"runId\":\"r\",\"messages\":[]}");
    rejects(&body, ErrorKind::InvalidUtf8, at, "threadId");
    // Outside strings any byte >= 0x80 is a grammar error.
    let (body, at) = doc_with("", b"\"state\":\xc3\xa9");
    rejects(
        &body,
        ErrorKind::UnexpectedByte {
            found: 0xc3,
            expected: "a JSON value",
        },
        at + 8,
        "state",
    );
}

#[test]
fn surrogate_escapes() {
    let arena = Bump::new();
    // A proper pair, in either case of hex digits: one character.
    let body = br#"{"threadId":"\ud83d\uDE00","runId":"r","messages":[]}"#;
    let doc = RunAgentInput::parse(body, &arena).unwrap();
    assert_eq!(doc.thread_id.unescaped(), "😀");
    let lone: &[(&str, ErrorKind)] = &[
        (r"\ud800", ErrorKind::LoneSurrogate),
        (r"\udbff", ErrorKind::LoneSurrogate),
        (r"\udc00", ErrorKind::LoneSurrogate),
        (r"\udfff", ErrorKind::LoneSurrogate),
        (r"\ud800\u0041", ErrorKind::LoneSurrogate),
        (r"\ud800\ud800", ErrorKind::LoneSurrogate),
        (r"\udc00\ud800", ErrorKind::LoneSurrogate),
        (r"\ud800\n", ErrorKind::LoneSurrogate),
        (r"\ud800x", ErrorKind::LoneSurrogate),
        (r"\ud800\uzzzz", ErrorKind::InvalidEscape),
        (r"\u12g4", ErrorKind::InvalidEscape),
        (r"\U0041", ErrorKind::InvalidEscape),
        (r"\x41", ErrorKind::InvalidEscape),
        (r"\'", ErrorKind::InvalidEscape),
    ];
    for (esc, kind) in lone {
        let body = format!(r#"{{"threadId":"t","runId":"r","messages":[],"state":"ab{esc}"}}"#);
        let at = body.find('\\').unwrap();
        rejects(body.as_bytes(), kind.clone(), at, "state");
    }
    // Cut inside the pair: the end of input, at the escape's backslash (regression: the cut
    // after the second backslash was reported as a lone surrogate; found by fuzz/json_grammar).
    for cut in [
        r"\ud83d",
        r"\ud83d\",
        r"\ud83d\u",
        r"\ud83d\ude0",
        r"\u00",
        r"\",
    ] {
        let body = format!(r#"{{"threadId":"t","runId":"r","messages":[],"state":"ab{cut}"#);
        let at = body.find('\\').unwrap();
        rejects(body.as_bytes(), ErrorKind::UnexpectedEof, at, "state");
    }
    // Str::from_raw keeps its offsets inside the raw text (regression, fuzz/str_escape).
    let e = Str::from_raw("\\").unwrap_err();
    assert_eq!((e.kind(), e.offset()), (&ErrorKind::UnexpectedEof, 1));
}

#[test]
fn nul_bytes_and_control_characters() {
    // Raw NUL in a string: a control character, at its offset.
    let body = b"{\"threadId\":\"a\x00b\",\"runId\":\"r\",\"messages\":[]}";
    rejects(body, ErrorKind::ControlCharacterInString(0), 14, "threadId");
    for c in [0x01u8, 0x09, 0x0a, 0x0d, 0x1f] {
        let mut body = b"{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"state\":\"".to_vec();
        let at = body.len();
        body.extend_from_slice(&[c, b'"', b'}']);
        rejects(&body, ErrorKind::ControlCharacterInString(c), at, "state");
    }
    // NUL outside strings.
    let (body, at) = doc_with("", b"\"state\":\x00");
    rejects(
        &body,
        ErrorKind::UnexpectedByte {
            found: 0,
            expected: "a JSON value",
        },
        at + 8,
        "state",
    );
    let body = b"{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[]}\x00";
    rejects(body, ErrorKind::TrailingCharacters, body.len() - 1, "");
    // Escaped NUL and DEL are fine.
    let arena = Bump::new();
    let doc = RunAgentInput::parse(
        b"{\"threadId\":\"a\\u0000b\x7f\",\"runId\":\"r\",\"messages\":[]}",
        &arena,
    )
    .unwrap();
    assert_eq!(doc.thread_id.unescaped(), "a\0b\u{7f}");
}

#[test]
fn byte_order_marks() {
    let bom = b"\xef\xbb\xbf";
    let body = [
        bom.as_slice(),
        br#"{"threadId":"t","runId":"r","messages":[]}"#,
    ]
    .concat();
    rejects(&body, ErrorKind::ByteOrderMark, 0, "");
    let e = validate_json(&[bom.as_slice(), b"[]"].concat(), &ParseOptions::default()).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (&ErrorKind::ByteOrderMark, 0));
    let arena = Bump::new();
    let e = AgentCapabilities::parse(&[bom.as_slice(), b"{}"].concat(), &arena).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (&ErrorKind::ByteOrderMark, 0));
    // Not at the very start: just a byte that cannot start a value.
    let body = [
        b" ".as_slice(),
        bom,
        br#"{"threadId":"t","runId":"r","messages":[]}"#,
    ]
    .concat();
    rejects(
        &body,
        ErrorKind::UnexpectedByte {
            found: 0xef,
            expected: "a JSON value",
        },
        1,
        "",
    );
    // Inside a string U+FEFF is a character like any other.
    let body = "{\"threadId\":\"\u{feff}t\",\"runId\":\"r\",\"messages\":[]}";
    let doc = RunAgentInput::parse(body.as_bytes(), &arena).unwrap();
    assert_eq!(doc.thread_id, "\u{feff}t");
}

// ----- duplicate keys ----------------------------------------------------------------------------

#[test]
fn duplicate_keys() {
    // A known field twice: rejected at the second key, also when spelled with escapes.
    let body = br#"{"threadId":"t","runId":"r","threadId":"u","messages":[]}"#;
    rejects(body, ErrorKind::DuplicateField("threadId"), 28, "threadId");
    let body = br#"{"threadId":"t","runId":"r","thread\u0049d":"u","messages":[]}"#;
    rejects(body, ErrorKind::DuplicateField("threadId"), 28, "threadId");
    // The discriminator twice, and a field twice before the discriminator is known.
    let (body, _) = doc_with(
        r#"{"id":"1","role":"user","role":"user","content":"x"}"#,
        b"",
    );
    rejects(
        &body,
        ErrorKind::DuplicateField("role"),
        64,
        "messages[0].role",
    );
    let (body, _) = doc_with(r#"{"id":"1","id":"2","role":"user","content":"x"}"#, b"");
    rejects(&body, ErrorKind::DuplicateField("id"), 50, "messages[0].id");
    let (body, _) = doc_with(
        r#"{"id":"1","role":"user","content":[{"type":"image","source":{"type":"url","value":"a","value":"b"}}]}"#,
        b"",
    );
    let at = find(&body, br#""value":"b""#);
    rejects(
        &body,
        ErrorKind::DuplicateField("value"),
        at,
        "messages[0].content[0].source.value",
    );
    // Unknown fields twice: the grammar allows it, both are kept in order.
    let arena = Bump::new();
    let body = br#"{"threadId":"t","runId":"r","messages":[],"x":1,"x":2}"#;
    let doc = RunAgentInput::parse(body, &arena).unwrap();
    let xs: Vec<&str> = doc.extra.fields().iter().map(|f| f.value.text()).collect();
    assert_eq!(xs, ["1", "2"]);
    // Inside raw JSON nothing is checked beyond the grammar.
    let (body, _) = doc_with("", br#""state":{"a":1,"a":2}"#);
    assert_eq!(input(&body), Ok(0));
    // Capabilities: a group twice.
    let e = AgentCapabilities::parse(br#"{"state":{},"state":{}}"#, &arena).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset(), e.path()),
        (&ErrorKind::DuplicateField("state"), 12, "state")
    );
}

// ----- truncation --------------------------------------------------------------------------------

/// A document using every construct: all roles, parts and sources, escapes of every kind,
/// surrogate pairs, numbers, literals, nesting, unknown fields before discriminators.
fn kitchen_sink() -> Vec<u8> {
    r#"{"x-first":{"a":[1,-2.5e+3,true,false,null,"s\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"]},
 "threadId":"th\u0041","runId":"r-1","parentRunId":"p","protocolVersion":"1.0",
 "state":{"deep":[[[{"k":[0,1e-7,-0]}]]],"s":"caf\u00e9 ☕"},
 "messages":[
  {"id":"d","role":"developer","content":"dev","name":"n","metadata":{"m":1}},
  {"role":"system","id":"s","content":"sys","encryptedValue":"ev"},
  {"content":[{"type":"text","text":"hi 😀","metadata":[1]},
    {"source":{"value":"iVBORw0KGgo=","type":"data","mimeType":"image/png"},"type":"image","id":"i"},
    {"type":"audio","source":{"type":"url","value":"https://a/b.wav","mimeType":"audio/wav"}},
    {"type":"video","source":{"type":"file","value":"f","provider":"p","mimeType":"video/mp4"}},
    {"type":"document","source":{"type":"data","value":"JVBERi0=","mimeType":"application/pdf"},"x":{}},
    {"type":"binary","mimeType":"application/octet-stream","data":"AAE=","filename":"a.bin"}],
   "id":"u","role":"user","subagentRunId":"sa"},
  {"id":"a","role":"assistant","content":"ok","toolCalls":[{"id":"c1","type":"function",
    "function":{"name":"f","arguments":"{\"q\":[1,2]}"},"metadata":{}}]},
  {"id":"t","role":"tool","toolCallId":"c1","content":[{"type":"text","text":"r"}],"error":"e"},
  {"id":"ac","role":"activity","activityType":"PLAN","content":{"steps":[{"d":"x"}]}},
  {"id":"re","role":"reasoning","content":"think","encryptedValue":"zz"}],
 "tools":[{"name":"f","description":"d","parameters":{"type":"object","properties":{}}}],
 "context":[{"description":"d","value":"v"}],
 "forwardedProps":[null],
 "resume":[{"interruptId":"i","status":"cancelled","payload":{"p":0}}],
 "x-last":12345678901234567890
}
"#
    .as_bytes()
    .to_vec()
}

/// Every proper prefix of a valid document is the end of input: at the cut, or at the backslash
/// of the escape the cut falls into.
fn check_truncations(doc: &[u8], parse: impl Fn(&[u8]) -> Result<(), Error>) {
    assert_eq!(parse(doc), Ok(()), "the whole document parses");
    let body_end = doc.len()
        - doc
            .iter()
            .rev()
            .take_while(|b| b" \t\r\n".contains(b))
            .count();
    for cut in 0..body_end {
        let prefix = &doc[..cut];
        let e = parse(prefix).expect_err("a proper prefix must be rejected");
        assert_eq!(e.kind(), &ErrorKind::UnexpectedEof, "cut at {cut}: {e}");
        let at = e.offset();
        assert!(
            at == cut || (at + 12 > cut && doc[at] == b'\\'),
            "cut at {cut}: error at {at}: {e}"
        );
        assert_eq!(e.path(), json_path_at(prefix, at));
    }
    for cut in body_end..=doc.len() {
        assert_eq!(parse(&doc[..cut]), Ok(()), "only whitespace cut at {cut}");
    }
}

fn as_input(b: &[u8]) -> Result<(), Error> {
    let arena = Bump::new();
    RunAgentInput::parse(b, &arena).map(|_| ())
}

fn as_caps(b: &[u8]) -> Result<(), Error> {
    let arena = Bump::new();
    AgentCapabilities::parse(b, &arena).map(|_| ())
}

#[test]
fn every_truncation_point_of_a_kitchen_sink_document() {
    let doc = kitchen_sink();
    quickly("kitchen-sink truncations", || {
        check_truncations(&doc, as_input)
    });
    let caps = br#"{"identity":{"name":"n","metadata":{"a":[1]}},"transport":{"streaming":true},
      "tools":{"supported":true,"items":[{"name":"t","parameters":{}}],"parallelCalls":false},
      "output":{"supportedMimeTypes":["a/b","c\/d"]},"state":{"deltas":true},
      "multiAgent":{"subagents":[{"name":"s","description":"d"}]},"reasoning":{"encrypted":false},
      "multimodal":{"input":{"pdf":true},"output":{"audio":false}},
      "execution":{"maxIterations":10,"maxExecutionTime":0},"humanInTheLoop":{"approvals":true},
      "custom":{"x":null},"x-extra":"e"}"#;
    quickly("capabilities truncations", || {
        check_truncations(caps, as_caps)
    });
}

/// The samples, when present: every cut point (a quadratic number of bytes parsed: about a
/// second with the test profile's `opt-level = 1`, half a minute without).
#[test]
fn every_truncation_point_of_the_samples() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/samples");
    if let Ok(doc) = std::fs::read(format!("{dir}/capabilities.json")) {
        quickly("capabilities sample", || check_truncations(&doc, as_caps));
    }
    for name in ["conversation.compact.json", "conversation.json"] {
        if let Ok(doc) = std::fs::read(format!("{dir}/{name}")) {
            quickly(name, || check_truncations(&doc, as_input));
        }
    }
}

#[test]
fn truncated_literals_numbers_and_keys() {
    let cases: &[&[u8]] = &[
        br#"{"threadId":"t","runId":"r","messages":[],"state":tr"#,
        br#"{"threadId":"t","runId":"r","messages":[],"state":nul"#,
        br#"{"threadId":"t","runId":"r","messages":[],"state":-"#,
        br#"{"threadId":"t","runId":"r","messages":[],"state":1."#,
        br#"{"threadId":"t","runId":"r","messages":[],"state":1e+"#,
        br#"{"threadId":"t","runId":"r","messages":[],"stat"#,
        br#"{"threadId":"t","runId":"r","messages":[],"state""#,
        br#"{"threadId":"t","runId":"r","messages":[{"role":"us"#,
        br#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":[{"type":"ima"#,
        br#"{"#,
        b"",
        b"   ",
    ];
    for body in cases {
        let e = input(body).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (&ErrorKind::UnexpectedEof, body.len()),
            "{}",
            String::from_utf8_lossy(body)
        );
    }
}

// ----- regressions found by the fuzz targets -----------------------------------------------------

/// fuzz/data_url: a data URL in a JSON string whose trailing whitespace is escaped (`\n`,
/// `\u0020`: a JSON encoder must escape a final newline) kept that whitespace in its payload,
/// where the same URL read as plain text is trimmed; a base64 payload then failed as
/// `Whitespace` in strict mode.
#[test]
fn data_url_trailing_escaped_whitespace_is_trimmed() {
    use agui_wire::media::DataUrl;
    let arena = Bump::new();
    for raw in [
        &br"data:image/png;base64,iVBORw0KGgo=\n"[..],
        br"data:image/png;base64,iVBORw0KGgo=\r\n",
        br"data:image/png;base64,iVBORw0KGgo= \u0020\u000A\t\f",
        br"data:image\/png;base64,iVBORw0KGgo=\u0009",
    ] {
        let url = DataUrl::parse_json(raw, true, 0, &arena).unwrap();
        assert_eq!(
            url.payload(),
            b"iVBORw0KGgo=",
            "{}",
            String::from_utf8_lossy(raw)
        );
        assert_eq!(url.decoded().to_vec().unwrap(), b"\x89PNG\r\n\x1a\n");
    }
    // An escaped backslash before `n` is not a newline, and a percent payload keeps it.
    let url = DataUrl::parse_json(br"data:,a\\n", true, 0, &arena).unwrap();
    assert_eq!(url.payload(), br"a\\n");
    assert_eq!(url.decoded().to_vec().unwrap(), br"a\n");
    let url = DataUrl::parse_json(br"data:,a%20\u0020", true, 0, &arena).unwrap();
    assert_eq!(url.decoded().to_vec().unwrap(), b"a ");
    // Unescaped views are unchanged: a backslash is just a byte there.
    let url = DataUrl::parse_json(br"data:,a\n", false, 0, &arena).unwrap();
    assert_eq!(url.payload(), br"a\n");
}

/// Found by the `rewrite` fuzz target: an unknown discriminator value longer than the 64 bytes
/// an error keeps, with a multibyte character across byte 64, panicked when it was cut. Every
/// discriminator (message `role`, part `type`, tool call `type`, resume `status`, an event's
/// `role` or patch `op`) now gets an `UnknownVariant` error with the value cut on a character
/// boundary.
#[test]
fn long_unknown_discriminators_are_cut_on_a_character_boundary() {
    for pad in 0..4 {
        // `é` is two bytes, `🎉` four: some pad puts a character across byte 64.
        let value = format!("{}{}", "x".repeat(pad), "é🎉".repeat(30));
        let bodies = [
            format!(
                r#"{{"threadId":"t","runId":"r","messages":[{{"id":"m","role":"{value}","content":"hi"}}]}}"#
            ),
            format!(
                r#"{{"threadId":"t","runId":"r","messages":[{{"id":"m","role":"user","content":[{{"type":"{value}","text":"a"}}]}}]}}"#
            ),
            format!(
                r#"{{"threadId":"t","runId":"r","messages":[{{"id":"m","role":"assistant","toolCalls":[{{"id":"c","type":"{value}","function":{{"name":"f","arguments":"{{}}"}}}}]}}]}}"#
            ),
            format!(
                r#"{{"threadId":"t","runId":"r","messages":[],"resume":[{{"interruptId":"i","status":"{value}"}}]}}"#
            ),
        ];
        for body in &bodies {
            let e = input(body.as_bytes()).unwrap_err();
            let ErrorKind::UnknownVariant { found, .. } = e.kind() else {
                panic!("{e} for {body}");
            };
            assert!(found.len() <= 64 && found.len() > 56, "{found:?}");
            assert!(value.starts_with(found.as_str()), "{found:?}");
        }
        let arena = Bump::new();
        for event in [
            format!(r#"{{"type":"TEXT_MESSAGE_START","messageId":"m","role":"{value}"}}"#),
            format!(r#"{{"type":"STATE_DELTA","delta":[{{"op":"{value}","path":"/a"}}]}}"#),
        ] {
            let e = agui_wire::Event::parse(event.as_bytes(), &arena).unwrap_err();
            let ErrorKind::UnknownVariant { found, .. } = e.kind() else {
                panic!("{e} for {event}");
            };
            assert!(
                found.len() <= 64 && value.starts_with(found.as_str()),
                "{found:?}"
            );
        }
    }
}
