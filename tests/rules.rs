//! Accept/reject cases for the JSON grammar and for every protocol rule, each error checked for
//! its kind, JSON path and byte offset.

use agui_wire::*;
use proptest::prelude::*;

fn err_of(doc: &str) -> Error {
    let arena = Bump::new();
    match RunAgentInput::parse(doc.as_bytes(), &arena) {
        Ok(_) => panic!("accepted: {doc}"),
        Err(e) => e,
    }
}

/// Asserts the error's kind, path, and that its offset points at `at` (the first occurrence of
/// that substring in `doc`, or the end for "").
fn check(doc: &str, kind: ErrorKind, path: &str, at: &str) {
    let e = err_of(doc);
    let want = if at.is_empty() {
        doc.len()
    } else {
        doc.find(at).expect("marker")
    };
    assert_eq!(
        (e.kind(), e.path(), e.offset()),
        (&kind, path, want),
        "doc: {doc}\nerror: {e}"
    );
}

fn msgs(m: &str) -> String {
    format!(r#"{{"threadId":"t","runId":"r","messages":[{m}]}}"#)
}

#[test]
fn required_fields() {
    check(
        r#"{"runId":"r","messages":[]}"#,
        ErrorKind::MissingField("threadId"),
        "",
        "{",
    );
    check(
        r#"{"threadId":"t","messages":[]}"#,
        ErrorKind::MissingField("runId"),
        "",
        "{",
    );
    check(
        r#"{"threadId":"t","runId":"r"}"#,
        ErrorKind::MissingField("messages"),
        "",
        "{",
    );
    let d = msgs(r#"{"role":"user","content":"x"}"#);
    check(
        &d,
        ErrorKind::MissingField("id"),
        "messages[0]",
        r#"{"role""#,
    );
    let d = msgs(r#"{"id":"1","content":"x"}"#);
    check(
        &d,
        ErrorKind::MissingField("role"),
        "messages[0]",
        r#"{"id":"1""#,
    );
    for role in ["developer", "system", "user", "tool", "reasoning"] {
        let d = msgs(&format!(r#"{{"id":"1","role":"{role}","toolCallId":"c"}}"#));
        check(
            &d,
            ErrorKind::MissingField("content"),
            "messages[0]",
            r#"{"id":"1""#,
        );
    }
    let d = msgs(r#"{"id":"1","role":"tool","content":"x"}"#);
    check(
        &d,
        ErrorKind::MissingField("toolCallId"),
        "messages[0]",
        r#"{"id":"1""#,
    );
    let d = msgs(r#"{"id":"1","role":"activity","content":{}}"#);
    check(
        &d,
        ErrorKind::MissingField("activityType"),
        "messages[0]",
        r#"{"id":"1""#,
    );
    let d = msgs(r#"{"id":"1","role":"user","content":[{"type":"image"}]}"#);
    check(
        &d,
        ErrorKind::MissingField("source"),
        "messages[0].content[0]",
        r#"{"type":"image"}"#,
    );
    let d = msgs(r#"{"id":"1","role":"user","content":[{"type":"text"}]}"#);
    check(
        &d,
        ErrorKind::MissingField("text"),
        "messages[0].content[0]",
        r#"{"type":"text"}"#,
    );
    let d = msgs(
        r#"{"id":"1","role":"user","content":[{"type":"audio","source":{"type":"data","value":"AA=="}}]}"#,
    );
    check(
        &d,
        ErrorKind::MissingField("mimeType"),
        "messages[0].content[0].source",
        r#"{"type":"data""#,
    );
    let d =
        msgs(r#"{"id":"1","role":"user","content":[{"type":"audio","source":{"type":"url"}}]}"#);
    check(
        &d,
        ErrorKind::MissingField("value"),
        "messages[0].content[0].source",
        r#"{"type":"url""#,
    );
    let d = msgs(
        r#"{"id":"a","role":"assistant","toolCalls":[{"id":"c","function":{"arguments":"{}"}}]}"#,
    );
    check(
        &d,
        ErrorKind::MissingField("name"),
        "messages[0].toolCalls[0].function",
        r#"{"arguments""#,
    );
    let d = msgs(
        r#"{"id":"a","role":"assistant","toolCalls":[{"function":{"name":"f","arguments":"{}"}}]}"#,
    );
    check(
        &d,
        ErrorKind::MissingField("id"),
        "messages[0].toolCalls[0]",
        r#"{"function""#,
    );
    let d = r#"{"threadId":"t","runId":"r","messages":[],"tools":[{"description":"d"}]}"#;
    check(
        d,
        ErrorKind::MissingField("name"),
        "tools[0]",
        r#"{"description""#,
    );
    let d = r#"{"threadId":"t","runId":"r","messages":[],"context":[{"value":"v"}]}"#;
    check(
        d,
        ErrorKind::MissingField("description"),
        "context[0]",
        r#"{"value""#,
    );
    let d = r#"{"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":"i"}]}"#;
    check(
        d,
        ErrorKind::MissingField("status"),
        "resume[0]",
        r#"{"interruptId""#,
    );
}

#[test]
fn discriminators() {
    let d = msgs(r#"{"id":"1","role":"bot","content":"x"}"#);
    let e = err_of(&d);
    assert!(
        matches!(e.kind(), ErrorKind::UnknownVariant { field: "role", found, .. } if found == "bot")
    );
    assert_eq!(
        (e.path(), e.offset()),
        ("messages[0].role", d.find("\"bot\"").unwrap())
    );
    let d = msgs(r#"{"id":"1","role":"user","content":[{"type":"pdf","source":{}}]}"#);
    let e = err_of(&d);
    assert!(
        matches!(e.kind(), ErrorKind::UnknownVariant { field: "type", found, .. } if found == "pdf")
    );
    assert_eq!(e.path(), "messages[0].content[0].type");
    let d = msgs(
        r#"{"id":"1","role":"user","content":[{"type":"image","source":{"type":"blob","value":"x"}}]}"#,
    );
    let e = err_of(&d);
    assert!(
        matches!(e.kind(), ErrorKind::UnknownVariant { field: "type", found, .. } if found == "blob")
    );
    assert_eq!(e.path(), "messages[0].content[0].source.type");
    let d = msgs(
        r#"{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"method","function":{"name":"f","arguments":"{}"}}]}"#,
    );
    let e = err_of(&d);
    assert_eq!(e.path(), "messages[0].toolCalls[0].type");
    let d = r#"{"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":"i","status":"done"}]}"#;
    let e = err_of(d);
    assert!(matches!(
        e.kind(),
        ErrorKind::UnknownVariant {
            field: "status",
            ..
        }
    ));
    assert_eq!(
        (e.path(), e.offset()),
        ("resume[0].status", d.find("\"done\"").unwrap())
    );
}

#[test]
fn discriminator_anywhere_in_the_object() {
    let arena = Bump::new();
    let d = msgs(
        r#"{"content":[{"source":{"value":"QUJD","mimeType":"text/plain","type":"data"},"type":"document"}],"id":"1","name":"n","role":"user"}"#,
    );
    let input = RunAgentInput::parse(d.as_bytes(), &arena).unwrap();
    let Message::User(u) = &input.messages[0] else {
        panic!()
    };
    assert_eq!(u.name.as_ref().unwrap(), "n");
    let p = u.content.parts()[0].as_media().unwrap();
    assert_eq!(p.source.value(), &"QUJD");
    // A field of another role is kept as an unknown field, not rejected.
    let d = msgs(r#"{"id":"1","role":"user","content":"x","toolCallId":"c","toolCalls":[1]}"#);
    let input = RunAgentInput::parse(d.as_bytes(), &arena).unwrap();
    let extra = input.messages[0].extra();
    assert_eq!(extra.get("toolCallId").unwrap().text(), "\"c\"");
    assert_eq!(extra.get("toolCalls").unwrap().text(), "[1]");
}

#[test]
fn null_rules() {
    let d = msgs(r#"{"id":"1","role":"user","content":"x","metadata":null}"#);
    check(
        &d,
        ErrorKind::NullNotAllowed("metadata"),
        "messages[0].metadata",
        "null",
    );
    let d = r#"{"threadId":"t","runId":"r","messages":[],"forwardedProps":null}"#;
    check(
        d,
        ErrorKind::NullNotAllowed("forwardedProps"),
        "forwardedProps",
        "null",
    );
    let d = r#"{"threadId":"t","runId":"r","parentRunId":null,"messages":[]}"#;
    check(
        d,
        ErrorKind::NullNotAllowed("parentRunId"),
        "parentRunId",
        "null",
    );
    let d = msgs(r#"{"id":"a","role":"assistant","content":null}"#);
    check(
        &d,
        ErrorKind::NullNotAllowed("content"),
        "messages[0].content",
        "null",
    );
    // Lenient: the same documents are read as if the field were absent.
    let arena = Bump::new();
    let lenient = ParseOptions::lenient();
    for doc in [
        msgs(r#"{"id":"1","role":"user","content":"x","metadata":null}"#),
        r#"{"threadId":"t","runId":"r","messages":[],"forwardedProps":null,"tools":null,"context":null,"resume":null}"#.to_string(),
        msgs(r#"{"id":"a","role":"assistant","content":null,"toolCalls":null,"name":null}"#),
    ] {
        let input = RunAgentInput::parse_with(doc.as_bytes(), &arena, &lenient).unwrap();
        assert!(input.forwarded_props.is_none() && input.tools.is_none());
        if let Some(m) = input.messages.first() {
            assert!(m.metadata().is_none());
        }
    }
    // `state: null` is a value in both modes; required fields are never nullable.
    let input = RunAgentInput::parse(
        br#"{"threadId":"t","runId":"r","messages":[],"state":null}"#,
        &arena,
    )
    .unwrap();
    assert!(input.state.unwrap().is_null());
    let d = r#"{"threadId":null,"runId":"r","messages":[]}"#;
    let e = RunAgentInput::parse_with(d.as_bytes(), &arena, &lenient).unwrap_err();
    assert_eq!(e.path(), "threadId");
}

#[test]
fn wrong_types() {
    let wt = |field, expected, found| ErrorKind::WrongType {
        field,
        expected,
        found,
    };
    check(
        r#"{"threadId":1,"runId":"r","messages":[]}"#,
        wt("threadId", "a string", "a number"),
        "threadId",
        "1,",
    );
    check(
        r#"{"threadId":"t","runId":"r","messages":{}}"#,
        wt("messages", "an array", "an object"),
        "messages",
        "{}",
    );
    let d = msgs(r#"{"id":"1","role":"user","content":{"text":"x"}}"#);
    check(
        &d,
        wt(
            "content",
            "a string or an array of content parts",
            "an object",
        ),
        "messages[0].content",
        r#"{"text""#,
    );
    let d = msgs(r#"{"id":"1","role":"system","content":["x"]}"#);
    check(
        &d,
        wt("content", "a string", "an array"),
        "messages[0].content",
        r#"["x"]"#,
    );
    let d = msgs(r#"{"id":"1","role":"activity","activityType":"A","content":[1]}"#);
    check(
        &d,
        wt("content", "an object", "an array"),
        "messages[0].content",
        "[1]",
    );
    let d = msgs(r#"{"id":"1","role":"user","content":"x","metadata":[1]}"#);
    check(
        &d,
        wt("metadata", "an object", "an array"),
        "messages[0].metadata",
        "[1]",
    );
    let d = msgs(
        r#"{"id":"a","role":"assistant","toolCalls":[{"id":"c","function":{"name":"f","arguments":{}}}]}"#,
    );
    check(
        &d,
        wt("arguments", "a string", "an object"),
        "messages[0].toolCalls[0].function.arguments",
        "{}}",
    );
    check(
        r#"[]"#,
        wt("RunAgentInput", "an object", "an array"),
        "",
        "[",
    );
}

#[test]
fn duplicates_and_unknown_fields() {
    let d = r#"{"threadId":"t","runId":"r","threadId":"u","messages":[]}"#;
    check(
        d,
        ErrorKind::DuplicateField("threadId"),
        "threadId",
        r#""threadId":"u""#,
    );
    let d = msgs(r#"{"id":"1","role":"user","role":"user","content":"x"}"#);
    let e = err_of(&d);
    assert_eq!(e.kind(), &ErrorKind::DuplicateField("role"));
    // Unknown fields are kept, duplicates among them too (they are forwarded verbatim).
    let arena = Bump::new();
    let d = r#"{"x":1,"threadId":"t","x":[2],"runId":"r","messages":[],"y":{"z":null}}"#;
    let input = RunAgentInput::parse(d.as_bytes(), &arena).unwrap();
    let f: Vec<(&str, &str)> = input
        .extra
        .fields()
        .iter()
        .map(|f| (f.key.raw(), f.value.text()))
        .collect();
    assert_eq!(f, vec![("x", "1"), ("x", "[2]"), ("y", r#"{"z":null}"#)]);
    // An escaped key is the same key.
    let d = r#"{"th\u0072eadId":"t","runId":"r","messages":[]}"#;
    assert_eq!(
        RunAgentInput::parse(d.as_bytes(), &arena)
            .unwrap()
            .thread_id,
        "t"
    );
}

#[test]
fn limits() {
    let arena = Bump::new();
    let o = ParseOptions {
        max_depth: 7,
        ..Default::default()
    };
    let d = r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":{"b":{"c":{"d":{"e":{"f":{"g":1}}}}}}}}"#;
    let e = RunAgentInput::parse_with(d.as_bytes(), &arena, &o).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::DepthLimitExceeded(7));
    assert_eq!(e.path(), "state.a.b.c.d.e.f");
    let deep = format!(
        r#"{{"threadId":"t","runId":"r","messages":[],"state":{}}}"#,
        "[".repeat(1_000_000)
    );
    let e = RunAgentInput::parse(deep.as_bytes(), &arena).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::DepthLimitExceeded(512));
    let o = ParseOptions {
        max_list_items: 1,
        ..Default::default()
    };
    let d = r#"{"threadId":"t","runId":"r","messages":[],"tools":[{"name":"a"},{"name":"b"}]}"#;
    let e = RunAgentInput::parse_with(d.as_bytes(), &arena, &o).unwrap_err();
    assert_eq!(
        (e.kind(), e.path()),
        (
            &ErrorKind::TooManyItems {
                what: "tools",
                limit: 1
            },
            "tools[1]"
        )
    );
    let o = ParseOptions {
        max_input_bytes: 10,
        ..Default::default()
    };
    let e = RunAgentInput::parse_with(d.as_bytes(), &arena, &o).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::InputTooLarge { limit: 10, .. }
    ));
}

#[test]
fn grammar_errors_carry_paths() {
    let d = msgs(r#"{"id":"1","role":"user","content":"bad \q escape"}"#);
    check(&d, ErrorKind::InvalidEscape, "messages[0].content", r"\q");
    let d = r#"{"threadId":"t","runId":"r","messages":[],"state":{"n":[1,2,01]}}"#;
    check(d, ErrorKind::InvalidNumber, "state.n[2]", "01");
    let d = r#"{"threadId":"t","runId":"r","messages":[],"state":{"s":"\ud800x"}}"#;
    check(d, ErrorKind::LoneSurrogate, "state.s", r"\ud800");
    let d = msgs(r#"{"id":"1","role":"user","content":"x"}"#).replace("]}", "]");
    check(&d, ErrorKind::UnexpectedEof, "", "");
    let d = format!("{} x", msgs(""));
    check(&d, ErrorKind::TrailingCharacters, "", "x");
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(msgs("").as_bytes());
    let arena = Bump::new();
    let e = RunAgentInput::parse(&bom, &arena).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (&ErrorKind::ByteOrderMark, 0));
    let mut bad = msgs(r#"{"id":"1","role":"user","content":"ab"}"#).into_bytes();
    let at = bad.windows(2).position(|w| w == b"ab").unwrap();
    bad[at] = 0xC0;
    bad[at + 1] = 0xAF;
    let e = RunAgentInput::parse(&bad, &arena).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset(), e.path()),
        (&ErrorKind::InvalidUtf8, at, "messages[0].content")
    );
    let d = msgs(r#"{"id":"1","role":"user","content":"a	b"}"#);
    check(
        &d,
        ErrorKind::ControlCharacterInString(b'\t'),
        "messages[0].content",
        "\t",
    );
}

#[test]
fn strings_borrow_and_unescape() {
    let arena = Bump::new();
    let d = msgs(r#"{"id":"m\u00e9","role":"user","content":"line\nnext \ud83d\ude00 \"q\" \/"}"#);
    let input = RunAgentInput::parse(d.as_bytes(), &arena).unwrap();
    let m = &input.messages[0];
    assert_eq!(m.id().unescaped(), "mé");
    let Message::User(u) = m else { panic!() };
    let c = u.content.as_text().unwrap();
    assert_eq!(c.unescaped(), "line\nnext 😀 \"q\" /");
    assert_eq!(c.in_arena(&arena), "line\nnext 😀 \"q\" /");
    // The raw text is a slice of the input.
    assert!(offset_in(d.as_bytes(), c.raw().as_bytes()).is_some());
}

#[test]
fn input_is_never_mutated() {
    let arena = Bump::new();
    let d = msgs(r#"{"id":"1","role":"user","content":"a\nb"}"#).into_bytes();
    let copy = d.clone();
    let _ = RunAgentInput::parse(&d, &arena).unwrap();
    assert_eq!(d, copy);
}

/// serde_json as the grammar oracle: `Value` checks strings fully (UTF-8, surrogates), but
/// rejects numbers outside f64's range, which the grammar allows; for those, its raw-value
/// skipper (which does not range-check numbers) decides.
fn serde_accepts(b: &[u8]) -> bool {
    match serde_json::from_slice::<serde_json::Value>(b) {
        Ok(_) => true,
        Err(e) if e.to_string().contains("number out of range") => {
            serde_json::from_slice::<Box<serde_json::value::RawValue>>(b).is_ok()
        }
        Err(_) => false,
    }
}

fn json_value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_string()),
        Just("true".to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f:e}")),
        "[ -~é😀\\\\\"]{0,12}".prop_map(|s| serde_json::to_string(&s).unwrap()),
        Just(r#""\ud83d\ude00\u0041\/""#.to_string()),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5)
                .prop_map(|v| format!("[{}]", v.join(","))),
            proptest::collection::vec(("[a-z]{0,4}", inner), 0..5).prop_map(|v| {
                let body: Vec<String> = v
                    .into_iter()
                    .map(|(k, x)| format!("{}:{x}", serde_json::to_string(&k).unwrap()))
                    .collect();
                format!("{{{}}}", body.join(" , "))
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    /// The validator accepts exactly what serde_json accepts, on valid JSON...
    #[test]
    fn valid_json_agrees_with_serde(v in json_value()) {
        let ours = validate_json(v.as_bytes(), &ParseOptions::default()).is_ok();
        let theirs = serde_accepts(v.as_bytes());
        prop_assert_eq!(ours, theirs, "{}", v);
    }

    /// ...and on mutated JSON (random byte edits), accept for accept, reject for reject.
    #[test]
    fn mutated_json_agrees_with_serde(v in json_value(), edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4)) {
        let mut b = v.into_bytes();
        for (i, byte) in edits {
            if !b.is_empty() {
                let at = i.index(b.len());
                b[at] = byte;
            }
        }
        let ours = validate_json(&b, &ParseOptions::default()).is_ok();
        let theirs = serde_accepts(&b);
        prop_assert_eq!(ours, theirs, "{:?}", String::from_utf8_lossy(&b));
    }

    /// A RunAgentInput carrying arbitrary JSON in its raw fields parses, and keeps it exactly.
    #[test]
    fn raw_fields_round_trip(state in json_value(), props in json_value()) {
        let doc = format!(r#"{{"threadId":"t","runId":"r","messages":[],"state":{state},"forwardedProps":{props}}}"#);
        let arena = Bump::new();
        let opts = ParseOptions::lenient();
        let input = RunAgentInput::parse_with(doc.as_bytes(), &arena, &opts).unwrap();
        prop_assert_eq!(input.state.as_ref().unwrap().text(), state.as_str());
        if props != "null" {
            prop_assert_eq!(input.forwarded_props.as_ref().unwrap().text(), props.as_str());
        }
    }

    /// Parsing agrees with serde_json on what it accepts, for whole documents with mutations.
    #[test]
    fn documents_agree_with_serde_on_grammar(edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3)) {
        let mut b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/conversation.compact.json"))
            .unwrap_or_else(|_| msgs(r#"{"id":"1","role":"user","content":"hello"}"#).into_bytes());
        for (i, byte) in edits {
            let at = i.index(b.len());
            b[at] = byte;
        }
        let arena = Bump::new();
        if RunAgentInput::parse(&b, &arena).is_ok() {
            prop_assert!(serde_accepts(&b));
        }
        if !serde_accepts(&b) {
            prop_assert!(RunAgentInput::parse(&b, &arena).is_err());
        }
    }
}

/// Each error has the class a caller answers it by ([`ErrorKind::class`]): every cut of a valid
/// body is not JSON, every limit reached is a limit, and each rejected sample is a syntax fault
/// when it is not JSON and a protocol fault when it is.
#[test]
fn error_classes() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/samples");
    let arena = Bump::new();
    let parse = |body: &[u8], opts: &ParseOptions| {
        RunAgentInput::parse_with(body, &arena, opts).map(|_| ())
    };
    let strict = ParseOptions::default();

    let body = std::fs::read(format!("{dir}/conversation.json")).unwrap();
    let end = body.trim_ascii_end().len();
    // Every byte of the first 2 KiB, then every 13th.
    for cut in (0..end).filter(|&c| c < 2048 || c % 13 == 0) {
        let e = parse(&body[..cut], &strict).unwrap_err();
        assert_eq!(e.kind().class(), ErrorClass::Syntax, "cut at {cut}: {e}");
    }

    let limits = [
        ParseOptions {
            max_input_bytes: end - 1,
            ..strict.clone()
        },
        ParseOptions {
            max_depth: 2,
            ..strict.clone()
        },
        ParseOptions {
            max_messages: 1,
            ..strict.clone()
        },
        ParseOptions {
            max_list_items: 1,
            ..strict.clone()
        },
    ];
    for opts in &limits {
        let e = parse(&body, opts).unwrap_err();
        assert_eq!(e.kind().class(), ErrorClass::Limit, "{opts:?}: {e}");
    }

    let mut samples = 0;
    for entry in std::fs::read_dir(format!("{dir}/invalid")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.to_string_lossy().into_owned();
        let Some(stem) = name
            .strip_suffix(".json")
            .filter(|s| !s.ends_with(".expected"))
        else {
            continue;
        };
        let expected = std::fs::read_to_string(format!("{stem}.expected.json")).unwrap();
        let expected: serde_json::Value = serde_json::from_str(&expected).unwrap();
        if expected["kind"] != "RunAgentInput" {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let is_json = serde_json::from_slice::<serde_json::Value>(&bytes).is_ok();
        let e = parse(&bytes, &strict).unwrap_err();
        let want = if is_json {
            ErrorClass::Protocol
        } else {
            ErrorClass::Syntax
        };
        assert_eq!(e.kind().class(), want, "{name}: {e}");
        samples += 1;
    }
    assert!(samples >= 4, "only {samples} samples read");
}
