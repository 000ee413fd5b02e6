//! Unit tests of the parser: key compares, many unknown fields, the messages list's size hint,
//! fields before a message's role, integral values and capability integers.

use super::lists::{MESSAGE_BYTES_HINT, MESSAGE_HINT_CAP};
use super::*;

#[test]
fn same_key_is_equality() {
    let words: Vec<Vec<u8>> = (0..=20)
        .map(|n| (0..n).map(|k| b'a' + (k % 26) as u8).collect())
        .collect();
    for a in &words {
        for b in &words {
            assert_eq!(same_key(a, b), a == b);
            // One byte changed anywhere.
            for k in 0..b.len() {
                let mut c = b.clone();
                c[k] ^= 0x20;
                assert_eq!(same_key(a, &c), *a == c, "{a:?} {c:?}");
            }
        }
    }
}
use crate::AgentCapabilities;

/// 100 000 unknown fields (beyond the 64 511 a `u16` order id allowed), around and between
/// known fields in a non-canonical order: all kept, and written back byte for byte.
#[test]
fn hundred_thousand_unknown_fields() {
    const N: usize = 100_000;
    let mut doc = String::from(r#"{"x-first":1,"runId":"r""#);
    for i in 0..N {
        doc.push_str(&format!(",\"k{i}\":{i}"));
        if i == N / 2 {
            doc.push_str(r#","threadId":"t""#);
        }
    }
    doc.push_str(r#","messages":[],"x-last":true}"#);
    let arena = Bump::new();
    let input = crate::RunAgentInput::parse(doc.as_bytes(), &arena).unwrap();
    assert_eq!(input.extra.fields().len(), N + 2);
    assert_eq!(input.extra.fields()[N].key, "k99999");
    assert_eq!(input.extra.get("x-last").map(|v| v.text()), Some("true"));
    assert_eq!(crate::to_vec(&input), doc.as_bytes());
    // serde has no cap of its own either.
    let via_serde: crate::RunAgentInput<'_> = serde_json::from_str(&doc).unwrap();
    assert_eq!(via_serde.extra.fields().len(), N + 2);
    assert_eq!(crate::to_vec(&via_serde), doc.as_bytes());
    // The same fields in canonical order record no order at all.
    let canon = format!(
        r#"{{"threadId":"t","runId":"r","messages":[],{}}}"#,
        (0..N)
            .map(|i| format!("\"k{i}\":{i}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let input = crate::RunAgentInput::parse(canon.as_bytes(), &arena).unwrap();
    assert!(input.extra.order().is_empty());
    assert_eq!(crate::to_vec(&input), canon.as_bytes());
}

/// The `messages` list reserved up front stays within its bound: one message per
/// `MESSAGE_BYTES_HINT` bytes left, at most `MESSAGE_HINT_CAP`, and nothing for `[]`; a long
/// uniform list then grows once to fit, not by doubling.
#[test]
fn messages_hint_is_bounded_by_the_bytes() {
    let msg = std::mem::size_of::<crate::Message<'_>>();
    let used = |doc: &str| {
        let mut arena = Bump::new();
        let input = crate::RunAgentInput::parse(doc.as_bytes(), &arena).unwrap();
        let n = input.messages.len();
        drop(input);
        (
            n,
            arena
                .iter_allocated_chunks()
                .map(|c| c.len())
                .sum::<usize>(),
        )
    };
    let one = r#"{"id":"1","role":"user","content":"hi"}"#;
    // One message, then 4 MB of an unknown field: the hint is capped.
    let pad = "x".repeat(4 << 20);
    let doc = format!(r#"{{"threadId":"t","runId":"r","messages":[{one}],"x":"{pad}"}}"#);
    let (n, bytes) = used(&doc);
    assert_eq!(n, 1);
    assert!(bytes <= MESSAGE_HINT_CAP * msg + (64 << 10), "{bytes}");
    // A short body reserves in proportion to its length.
    let doc = format!(
        r#"{{"threadId":"t","runId":"r","messages":[{one}],"x":"{}"}}"#,
        "x".repeat(2560)
    );
    let (_, bytes) = used(&doc);
    assert!(
        bytes <= (doc.len() / MESSAGE_BYTES_HINT + 1) * msg + (8 << 10),
        "{bytes}"
    );
    // An empty list reserves nothing, however long the body.
    let doc = format!(r#"{{"threadId":"t","runId":"r","messages":[],"x":"{pad}"}}"#);
    let (n, bytes) = used(&doc);
    assert_eq!(n, 0);
    assert!(bytes <= 8 << 10, "{bytes}");
    // Many small messages (the hint undershoots): all read, the list grows.
    let many = vec![one; 5000].join(",");
    let doc = format!(r#"{{"threadId":"t","runId":"r","messages":[{many}]}}"#);
    assert_eq!(used(&doc).0, 5000);
    // 20 000 messages of ~300 bytes: past the hint the list grows once, to fit, so the arena
    // holds the hint's slots and the list (doubling left 61 440 slots behind, 3x the list).
    let text = "lorem ipsum ".repeat(22);
    let long = format!(r#"{{"id":"1","role":"user","content":"{text}"}}"#);
    let many = vec![long.as_str(); 20_000].join(",");
    let doc = format!(r#"{{"threadId":"t","runId":"r","messages":[{many}]}}"#);
    let (n, bytes) = used(&doc);
    assert_eq!(n, 20_000);
    assert!(
        bytes <= 20_000 * msg * 3 / 2,
        "{bytes} for {}",
        20_000 * msg
    );
    // The same, then 8 MB more: the list's new room is at most half the bytes left.
    let pad = "x".repeat(8 << 20);
    let doc = format!(r#"{{"threadId":"t","runId":"r","messages":[{many}],"x":"{pad}"}}"#);
    let (n, bytes) = used(&doc);
    assert_eq!(n, 20_000);
    assert!(bytes <= MESSAGE_HINT_CAP * msg + (doc.len() / 2), "{bytes}");
}

/// A message's `id` and `subagentRunId` before `role` are read on the way (not skipped
/// and read again): the values, the wire order, and the errors of a value of the wrong
/// kind, a bad string or a duplicate are what they were.
#[test]
fn fields_before_the_role() {
    let arena = Bump::new();
    let doc = |m: &str| format!(r#"{{"threadId":"t","runId":"r","messages":[{m}]}}"#);
    let ok = r#"{"subagentRunId":"s","x":1,"id":"m\u0031","role":"user","content":"hi"}"#;
    let body = doc(ok);
    let input = crate::RunAgentInput::parse(body.as_bytes(), &arena).unwrap();
    let crate::Message::User(m) = &input.messages[0] else {
        panic!("a user message")
    };
    assert_eq!(m.id.unescaped(), "m1");
    assert_eq!(m.subagent_run_id.as_ref().map(|s| s.raw()), Some("s"));
    assert_eq!(crate::to_vec(&input), body.as_bytes());
    let lenient = ParseOptions::lenient();
    let body = doc(r#"{"subagentRunId":null,"id":"1","role":"user","content":"a"}"#);
    let input = crate::RunAgentInput::parse_with(body.as_bytes(), &arena, &lenient).unwrap();
    let crate::Message::User(m) = &input.messages[0] else {
        panic!("a user message")
    };
    assert!(m.subagent_run_id.is_none());
    let at = r#"{"threadId":"t","runId":"r","messages":["#.len();
    for (m, kind, off, path) in [
        (
            r#"{"id":5,"role":"user","content":"a"}"#,
            ErrorKind::WrongType {
                field: "id",
                expected: "a string",
                found: "a number",
            },
            6,
            "messages[0].id",
        ),
        (
            r#"{"id":"a","id":"b","role":"user","content":"a"}"#,
            ErrorKind::DuplicateField("id"),
            10,
            "messages[0].id",
        ),
        (
            r#"{"id":"a","role":"user","id":"b","content":"a"}"#,
            ErrorKind::DuplicateField("id"),
            24,
            "messages[0].id",
        ),
        (
            "{\"id\":\"a\u{1}\",\"role\":\"user\",\"content\":\"a\"}",
            ErrorKind::ControlCharacterInString(1),
            8,
            "messages[0].id",
        ),
        (
            r#"{"subagentRunId":null,"id":"1","role":"user","content":"a"}"#,
            ErrorKind::NullNotAllowed("subagentRunId"),
            17,
            "messages[0].subagentRunId",
        ),
        (
            r#"{"id":"1","role":"nobody","content":"a"}"#,
            ErrorKind::UnknownVariant {
                field: "role",
                found: "nobody".into(),
                expected: "developer, system, assistant, user, tool, activity, reasoning",
            },
            17,
            "messages[0].role",
        ),
    ] {
        let body = doc(m);
        let err = crate::RunAgentInput::parse(body.as_bytes(), &arena).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset(), err.path()),
            (&kind, at + off, path),
            "{m}"
        );
    }
}

/// A message's `content` and a part's `source` met before the tag that says what holds them
/// (keys sorted alphabetically, as serde_json's `Value`, Go's maps and Python's
/// `sort_keys=True` write them) are read once, on the way: the message is the one read with
/// its role first, and a value its role refuses gives the error the role gives.
#[test]
fn content_before_the_role() {
    let arena = Bump::new();
    let doc = |m: &str| format!(r#"{{"threadId":"t","runId":"r","messages":[{m}]}}"#);
    let parts = r#"[{"source":{"mimeType":"image/png","type":"data","value":"iVBORw0KGgo="},"type":"image"},{"text":"a\nb","type":"text"},{"source":{"type":"url","value":"u"},"text":"t","type":"text"}]"#;
    for (content, rest) in [
        (r#""hi \u00e9""#, r#""role":"user""#),
        (parts, r#""role":"user""#),
        (parts, r#""role":"tool","toolCallId":"c""#),
        (r#""x""#, r#""role":"tool","toolCallId":"c""#),
        (r#""x""#, r#""role":"assistant""#),
        // Tool calls and functions with sorted keys too, with fields after the sorted heads.
        (
            r#""x""#,
            r#""role":"assistant","toolCalls":[{"function":{"arguments":"{}","name":"f"},"id":"c","type":"function"},{"function":{"arguments":"{\"a\":1}","name":"g","x":[1]},"id":"d","metadata":{},"type":"function","z":2}]"#,
        ),
        (r#""x""#, r#""role":"system""#),
        (r#""x""#, r#""role":"developer""#),
        (r#""x""#, r#""role":"reasoning""#),
        (
            r#"{"a":[1,{"b":2}]}"#,
            r#""activityType":"p","role":"activity""#,
        ),
        // `encryptedValue`, `metadata` and `name` sort before `role` too, and are read on
        // the way: a role without `name` (tool) keeps it as an unknown field.
        (
            r#""x","encryptedValue":"e","metadata":{"k":[1]},"name":"n""#,
            r#""role":"user""#,
        ),
        (
            r#""x","encryptedValue":"e","metadata":{},"name":"n""#,
            r#""role":"tool","toolCallId":"c""#,
        ),
    ] {
        let sorted = doc(&format!(r#"{{"content":{content},"id":"1",{rest}}}"#));
        let first = doc(&format!(r#"{{"id":"1",{rest},"content":{content}}}"#));
        let a = crate::RunAgentInput::parse(sorted.as_bytes(), &arena).unwrap();
        let b = crate::RunAgentInput::parse(first.as_bytes(), &arena).unwrap();
        assert_eq!(a.messages[0], b.messages[0], "{sorted}");
        assert_eq!(crate::to_vec(&a), sorted.as_bytes());
    }
    // A value the role refuses, or any error when the role never comes: the error the
    // message gives with its role first, where the value is.
    let at = r#"{"threadId":"t","runId":"r","messages":[{"content":"#.len();
    for (content, rest) in [
        (parts, r#""role":"assistant""#),
        (r#""x""#, r#""activityType":"p","role":"activity""#),
        (r#"{"a":1}"#, r#""role":"user""#),
        (r#"{"a":1}"#, r#""role":"system""#),
        (r#"[{"type":"pdf"}]"#, r#""role":"user""#),
        (r#"[{"type":"pdf"}]"#, r#""role":"nobody""#),
        (
            r#"[{"source":{"type":"data","value":"x"},"type":"image"}]"#,
            r#""role":"user""#,
        ),
        (
            r#"[{"source":{"type":"ftp","value":"x"},"type":"image"}]"#,
            r#""role":"user""#,
        ),
        (r#""a\q""#, r#""role":"user""#),
        ("5", r#""role":"user""#),
        (r#""x""#, r#""role":"user","content":"y""#),
        (r#""x","metadata":5"#, r#""role":"user""#),
        (r#""x","metadata":{"a":}"#, r#""role":"user""#),
        (r#""x","metadata":null"#, r#""role":"user""#),
        ("\"x\",\"name\":\"a\u{1}\"", r#""role":"user""#),
        (r#""x","encryptedValue":7"#, r#""role":"user""#),
    ] {
        let sorted = doc(&format!(r#"{{"content":{content},"id":"1",{rest}}}"#));
        let first = doc(&format!(r#"{{"id":"1",{rest},"content":{content}}}"#));
        let a = crate::RunAgentInput::parse(sorted.as_bytes(), &arena).unwrap_err();
        let b = crate::RunAgentInput::parse(first.as_bytes(), &arena).unwrap_err();
        let shift = first.find(r#""content":"#).unwrap() - sorted.find(r#""content":"#).unwrap();
        if rest.contains("nobody") || rest.contains(r#""content""#) {
            // The role's (or the second `content`'s) error: after the value, as before.
            assert!(a.offset() > at + content.len(), "{sorted}: {a}");
            assert_eq!((a.kind(), a.path()), (b.kind(), b.path()), "{sorted}");
        } else {
            assert_eq!(
                (a.kind(), a.offset() + shift, a.path()),
                (b.kind(), b.offset(), b.path()),
                "{sorted}"
            );
        }
    }
    // Cut short inside the content: the end of the input, wherever the role would be.
    let cut = doc(&format!(r#"{{"content":{parts},"id":"1","role":"user"}}"#));
    let cut = &cut[..cut.find("iVBOR").unwrap()];
    let err = crate::RunAgentInput::parse(cut.as_bytes(), &arena).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::UnexpectedEof, "{err}");
}

#[test]
fn integral_values() {
    for (text, want) in [
        ("0", Some(0)),
        ("-0", Some(0)),
        ("-0.0e-0", Some(0)),
        ("0e999999999999", Some(0)),
        ("10", Some(10)),
        ("10.0", Some(10)),
        ("1e1", Some(10)),
        ("1E+2", Some(100)),
        ("0.5e1", Some(5)),
        ("100e-2", Some(1)),
        ("1.5", None),
        ("1e-1", None),
        ("-1", None),
        ("-1.0", None),
        ("1e400", None),
        ("1e-99999999999999999999", None),
        ("18446744073709551615", Some(u64::MAX)),
        ("18446744073709551616", None),
        ("1.8446744073709551615e19", Some(u64::MAX)),
        ("9007199254740991", Some(MAX_SAFE_INTEGER)),
    ] {
        assert_eq!(integral_value(text.as_bytes()), want, "{text}");
    }
}

/// Regression: `1.0`, `1e2` and `-0` were rejected in `maxIterations` and
/// `maxExecutionTime` (both SDKs read them as integers), and values past 2^53 - 1 were
/// accepted (both SDKs reject them).
#[test]
fn capability_integers_as_the_sdks_read_them() {
    let arena = bumpalo::Bump::new();
    let read = |v: &str| {
        let doc = format!(r#"{{"execution":{{"maxIterations":{v},"maxExecutionTime":{v}}}}}"#);
        let doc = arena.alloc_str(&doc);
        AgentCapabilities::parse(doc.as_bytes(), &arena).map(|c| {
            c.execution
                .and_then(|e| e.max_iterations.zip(e.max_execution_time))
        })
    };
    assert_eq!(read("1.0").unwrap(), Some((1, 1)));
    assert_eq!(read("1e2").unwrap(), Some((100, 100)));
    assert_eq!(read("-0").unwrap(), Some((0, 0)));
    assert_eq!(
        read("9007199254740991").unwrap(),
        Some((MAX_SAFE_INTEGER, MAX_SAFE_INTEGER))
    );
    for bad in [
        "9007199254740992",
        "18446744073709551615",
        "1.5",
        "-1",
        "1e400",
    ] {
        let err = read(bad).unwrap_err();
        assert_eq!(err.path(), "execution.maxIterations", "{bad}");
        assert_eq!(err.offset(), 30, "{bad}");
    }
}

/// The head template's role names: each role's name and closing quote is that role, with the
/// name's length; anything else (a byte changed, dropped or added, another case, the quote
/// missing, fewer than 10 bytes left) is no role, as `Role::from_name` says of the string.
#[test]
fn head_roles_are_the_role_names() {
    use crate::model::Role;
    let mut names: Vec<String> = Vec::new();
    for role in Role::ALL {
        let n = role.as_str();
        names.push(n.to_string());
        names.push(n.to_uppercase());
        for at in 0..n.len() {
            let mut b = n.as_bytes().to_vec();
            b[at] ^= 0x01;
            names.push(String::from_utf8(b.clone()).unwrap());
            b.remove(at);
            names.push(String::from_utf8(b).unwrap());
        }
        names.push(format!("{n}s"));
        names.push(format!("x{n}"));
    }
    names.extend(["", "a", "us", "use", "toolx", "assistan", "activit"].map(String::from));
    for name in &names {
        for tail in [
            "\",\"content\":\"hello world\"}",
            "\"",
            "\"}",
            " \"",
            "\\\"",
        ] {
            let doc = format!("{name}{tail}");
            let got = super::heads::role_at_for_tests(doc.as_bytes(), 0);
            let want = (tail.starts_with('"') && doc.len() >= 10)
                .then(|| Role::from_name(name))
                .flatten()
                .map(|r| (r, name.len()));
            assert_eq!(got, want, "{doc:?}");
        }
    }
}

/// Messages read with the head template and without it: the same message, cursor and
/// whitespace count, or the same error (kind, offset), every byte of the input cut off too.
#[test]
fn message_head_agrees_with_the_general_loop() {
    use crate::parser::differential::message_paths_agree;
    let id20 = "msg_9503843488bc9e50";
    let uuid = "cc82db91-f66c-46bd-8f4d-00cd150420bd";
    let id63 = "m".repeat(63);
    let id64 = "m".repeat(64);
    let cases: Vec<(String, bool)> = vec![
        (format!(r#"{{"id":"{id20}","role":"assistant","content":"hi"}}"#), true),
        (format!(r#"{{"id":"{id20}","role":"user","content":[{{"type":"text","text":"a"}}]}}"#), true),
        (format!(r#"{{"id":"{id20}","role":"tool","content":"r","toolCallId":"c"}}"#), true),
        (format!(r#"{{"id":"{id20}","role":"system","content":"s"}}"#), true),
        (format!(r#"{{"id":"{id20}","role":"developer","content":"d"}}"#), true),
        (format!(r#"{{"id":"{id20}","role":"reasoning","content":"r"}}"#), true),
        (format!(r#"{{"id":"{id20}","role":"activity","activityType":"p","content":{{}}}}"#), true),
        (format!(r#"{{"id":"{uuid}","role":"user","content":"x"}}"#), true),
        (format!(r#"{{"id":"{id63}","role":"user","content":"x"}}"#), true),
        (r#"{"id":"","role":"user","content":"x"}"#.to_string(), true),
        // Left to the general loop.
        (format!(r#"{{"id":"{id64}","role":"user","content":"x"}}"#), false),
        (r#"{"id":"café","role":"user","content":"x"}"#.to_string(), false),
        (r#"{"id":"a\"b","role":"user","content":"x"}"#.to_string(), false),
        (r#"{"id":"a\u0062","role":"user","content":"x"}"#.to_string(), false),
        (r#"{"id":"a","role":"usr","content":"x"}"#.to_string(), false),
        (r#"{"id":"a","role":"User","content":"x"}"#.to_string(), false),
        (r#"{"id":"a","role":"us\u0065r","content":"x"}"#.to_string(), false),
        // One space after every `:` and `,` (Python's `json.dumps`) is taken; any other
        // whitespace, or a mix, is left to the general loop.
        (r#"{"id":"a", "role":"user","content":"x"}"#.to_string(), false),
        (r#"{"id": "a","role":"user","content":"x"}"#.to_string(), false),
        (r#"{"id": "a", "role": "user", "content": "x\u00e9"}"#.to_string(), true),
        (r#"{"id": "a", "role": "assistant", "content": "x", "toolCalls": []}"#.to_string(), true),
        (r#"{"id": "a", "role": "user", "content": [{"type": "text", "text": "t"}]}"#.to_string(), true),
        (r#"{"id": "a", "role": "user", "content":  "x"}"#.to_string(), true),
        (r#"{"id":  "a","role":"user","content":"x"}"#.to_string(), false),
        (r#"{"id" : "a","role":"user","content":"x"}"#.to_string(), false),
        (r#"{"id":"a" ,"role":"user","content":"x"}"#.to_string(), false),
        ("{\"id\":\t\"a\",\"role\":\"user\",\"content\":\"x\"}".to_string(), false),
        (r#"{ "id":"a","role":"user","content":"x"}"#.to_string(), false),
        (r#"{"role":"user","id":"a","content":"x"}"#.to_string(), false),
        (r#"{"subagentRunId":"s","id":"a","role":"user","content":"x"}"#.to_string(), false),
        (r#"{"id":5,"role":"user","content":"x"}"#.to_string(), false),
        (r#"{"id":"a","role":5,"content":"x"}"#.to_string(), false),
        (r#"{"\u0069d":"a","role":"user","content":"x"}"#.to_string(), false),
        // Errors after the head: the same either way.
        (r#"{"id":"a","role":"user","id":"b","content":"x"}"#.to_string(), true),
        (r#"{"id":"a","role":"user","role":"tool","content":"x"}"#.to_string(), true),
        (r#"{"id":"a","role":"user"}"#.to_string(), true),
        (r#"{"id":"a","role":"user","content":null}"#.to_string(), true),
        (r#"{"id":"a","role":"assistant","content":null}"#.to_string(), true),
        (r#"{"id":"a","role":"activity","content":"x","activityType":"t"}"#.to_string(), true),
        (r#"{"id":"a","role":"user" "content":"x"}"#.to_string(), true),
        (r#"{"id":"a","role":"user",}"#.to_string(), true),
        (r#"{"id":"a","role":"user","x-extra":[1,{"b":null}],"content":"x"}"#.to_string(), true),
        (r#"{"id":"a","role":"tool","content":"x","toolCallId":"c","error":"e","metadata":{}}"#.to_string(), true),
        ("{\"id\":\"a\",\"role\":\"user\",\"content\":\"\u{1}\"}".to_string(), true),
        (r#"{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"n","arguments":"{}"}}]}"#.to_string(), true),
        // Sorted keys: `content`, `id`, `role` by the sorted head (a shared wire order, written
        // out when another field follows); the content alone, handed to the loop, when the
        // id and role do not follow so or the role refuses it.
        (format!(r#"{{"content":"hi","id":"{id20}","role":"user"}}"#), true),
        (format!(r#"{{"content":"hi","id":"{uuid}","role":"assistant"}}"#), true),
        (r#"{"content":"s","id":"a","role":"system"}"#.to_string(), true),
        (r#"{"content":"d","id":"a","role":"developer"}"#.to_string(), true),
        (r#"{"content":"r","id":"a","role":"reasoning"}"#.to_string(), true),
        (r#"{"content":"r","id":"a","role":"tool","toolCallId":"c"}"#.to_string(), true),
        (r#"{"content":[{"text":"a","type":"text"}],"id":"a","role":"user"}"#.to_string(), true),
        (r#"{"content":{"k":[1]},"id":"a","role":"activity","activityType":"p"}"#.to_string(), true),
        (r#"{"content":"x","id":"a","role":"assistant","toolCalls":[{"function":{"arguments":"{}","name":"n"},"id":"c","type":"function"}]}"#.to_string(), true),
        (r#"{"content": "x", "id": "a", "role": "user"}"#.to_string(), true),
        (r#"{"content": "x", "id": "a", "role": "tool", "toolCallId": "c"}"#.to_string(), true),
        (r#"{"content":"x","id":"a","role":"user","x-extra":1}"#.to_string(), true),
        (r#"{"content":"x","id":"a","role":"user","x-extra":1,"name":"n"}"#.to_string(), true),
        (r#"{"content":"x","id":"a","role":"user","x-a":1,"x-b":[2]}"#.to_string(), true),
        (r#"{"content":"r","error":"e","id":"a","role":"tool","toolCallId":"c"}"#.to_string(), true),
        (r#"{"content":"x","encryptedValue":"e","id":"a","metadata":{},"name":"n","role":"user"}"#.to_string(), true),
        (format!(r#"{{"content":"x","id":"{id64}","role":"user"}}"#), true),
        (r#"{"content":"x","id":"é","role":"user"}"#.to_string(), true),
        (r#"{"content":"x","id":"a"b","role":"user"}"#.to_string(), true),
        (r#"{"content":"x","id":"a","role":"usr"}"#.to_string(), true),
        (r#"{"content":"x","id":"a","role":"activity","activityType":"p"}"#.to_string(), true),
        (r#"{"content":{},"id":"a","role":"user"}"#.to_string(), true),
        (r#"{"content":[],"id":"a","role":"assistant"}"#.to_string(), true),
        (r#"{"content":"x","id":"a","role":"user","content":"y"}"#.to_string(), true),
        (r#"{"content":"x","id":"a","role":"user","id":"b"}"#.to_string(), true),
        (r#"{"content":"x","id":"a","role":"user","role":"user"}"#.to_string(), true),
        (r#"{"content":"x","id":"a"}"#.to_string(), true),
        (r#"{"content":"x"}"#.to_string(), true),
        (r#"{"content":"x","id":5,"role":"user"}"#.to_string(), true),
        (r#"{"content":"x","id":"a","role":"user",}"#.to_string(), true),
        (r#"{"content":"x" "id":"a","role":"user"}"#.to_string(), true),
        // Left to the general loop: a content `early_content` does not read, whitespace
        // other than one space, another spelling of the key.
        (r#"{"content":5,"id":"a","role":"user"}"#.to_string(), false),
        (r#"{"content":null,"id":"a","role":"assistant"}"#.to_string(), false),
        ("{\"content\":\"\u{1}\",\"id\":\"a\",\"role\":\"user\"}".to_string(), false),
        (r#"{"content":[5],"id":"a","role":"user"}"#.to_string(), false),
        (r#"{"content" :"x","id":"a","role":"user"}"#.to_string(), false),
        (r#"{"content":  "x","id":"a","role":"user"}"#.to_string(), false),
        (r#"{"contents":"x","id":"a","role":"user"}"#.to_string(), false),
        (r#"{"c\u006fntent":"x","id":"a","role":"user"}"#.to_string(), false),
    ];
    for (doc, head) in &cases {
        let b = doc.as_bytes();
        message_paths_agree(b, 0).unwrap_or_else(|e| panic!("{doc}: {e}"));
        // In a longer input (the role's 10-byte look may reach past a short message's end).
        let long = format!("{doc}{}", " ".repeat(40));
        assert_eq!(message_paths_agree(long.as_bytes(), 0), Ok(*head), "{doc}");
        for cut in 0..b.len() {
            message_paths_agree(&b[..cut], 0).unwrap_or_else(|e| panic!("{doc} cut at {cut}: {e}"));
        }
    }
}

/// Tool calls read with the templates of their first fields and of their function's and
/// without them: the same call, cursor and whitespace count, or the same error (kind,
/// offset), every byte of the input cut off too.
#[test]
fn tool_call_heads_agree_with_the_general_loops() {
    use crate::parser::differential::tool_call_paths_agree;
    let id29 = "call_792d4c4095825bd48689669c";
    let uuid = "9f0c2b6e-3c1a-4e8e-9d7f-2a6b1c0d5e4f";
    let id64 = "c".repeat(64);
    let f = r#""function":{"name":"create_ticket","arguments":"{\"city\":\"Paris\"}"}"#;
    let cases: Vec<(String, bool)> = vec![
        (format!(r#"{{"id":"{id29}","type":"function",{f}}}"#), true),
        (format!(r#"{{"id":"{uuid}","type":"function",{f}}}"#), true),
        (format!(r#"{{"id":"{id29}","type":"function",{f},"metadata":{{}}}}"#), true),
        (format!(r#"{{"id":"","type":"function",{f}}}"#), true),
        (r#"{"id":"c","type":"function","function":{"arguments":"{}","name":"n"}}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{"name":"n","arguments":"{}","x":1}}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{"name":"n","arguments":"{}","name":"m"}}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{"name":"n","arguments":null}}"#.into(), true),
        // Whitespace after the colon (found by the fuzz target: the general loop skips it).
        (r#"{"id":"c","type":"function","function":{"name":"n","arguments": "{}"}}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{"name":"n","arguments":  5}}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{"name":"n","arguments":
"{}" }}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{"name":"n","arguments":"\q"}}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{"name":"n"}}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{"name":"n\u0061","arguments":"{}"}}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{"name":"é","arguments":"{}"}}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{ "name":"n","arguments":"{}"}}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{"name":"n","arguments" :"{}"}}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{}}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{"name":"n","arguments":"{}"},"id":"d"}"#.into(), true),
        (r#"{"id":"c","type":"function","function":{"name":"n","arguments":"{}"},"function":{}}"#.into(), true),
        // Sorted keys: `function` (`arguments`, `name`), `id`, `type` by the sorted heads (a
        // shared wire order, written out when another field follows); the function alone
        // when the id and type do not follow so.
        (format!(r#"{{"function":{{"arguments":"{{\"a\":1}}","name":"n"}},"id":"{id29}","type":"function"}}"#), true),
        (format!(r#"{{"function":{{"arguments":"{{}}","name":"n"}},"id":"{uuid}","type":"function"}}"#), true),
        (r#"{"function": {"arguments": "{}", "name": "n"}, "id": "c", "type": "function"}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n"},"id":"c","metadata":{},"type":"function"}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n"},"id":"c","type":"function","metadata":{}}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n"},"id":"c","type":"function","x":1}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n"},"id":"c","type":"function","x":1,"encryptedValue":"e"}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n","x":1},"id":"c","type":"function"}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n","x":1,"name":"m"},"id":"c","type":"function"}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n","arguments":"{}"},"id":"c","type":"function"}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"é"},"id":"c","type":"function"}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":5},"id":"c","type":"function"}"#.into(), true),
        (r#"{"function":{"arguments":"{}"},"id":"c","type":"function"}"#.into(), true),
        (r#"{"function":{"arguments":"\q","name":"n"},"id":"c","type":"function"}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n"},"id":"c","type":"functions"}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n"},"id":"c","type":"Function"}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n"},"id":"c","type":"function","id":"d"}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n"},"id":"c","type":"function","function":{}}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n"},"id":"c"}"#.into(), true),
        (r#"{"function":{"arguments":"{}","name":"n"},"type":"function"}"#.into(), true),
        (format!(r#"{{"function":{{"arguments":"{{}}","name":"n"}},"id":"{id64}","type":"function"}}"#), true),
        (r#"{"function":{"name":"n","arguments":"{}"},"id":"c","type":"function"}"#.into(), true),
        (r#"{"function":{},"id":"c","type":"function"}"#.into(), true),
        (r#"{"function":{"arguments":5,"name":"n"},"id":"c","type":"function"}"#.into(), true),
        // Left to the general loop.
        (r#"{"function":[],"id":"c","type":"function"}"#.into(), false),
        (r#"{"function" :{},"id":"c","type":"function"}"#.into(), false),
        (r#"{"encryptedValue":"e","function":{},"id":"c","type":"function"}"#.into(), false),
        (format!(r#"{{"id":"{id64}","type":"function",{f}}}"#), false),
        (format!(r#"{{"id":"c","type":"Function",{f}}}"#), false),
        (format!(r#"{{"id":"c","type":"functions",{f}}}"#), false),
        (format!(r#"{{"id":"c","type":"function", {f}}}"#), false),
        (r#"{"id": "c", "type": "function", "function": {"name": "n", "arguments": "{\"a\": 1}"}}"#.to_string(), true),
        (r#"{"id": "c", "type": "function", "function": {"name":"n","arguments":"{}"}}"#.to_string(), true),
        (format!(r#"{{"id": "c", "type": "function" , {f}}}"#), false),
        (format!(r#"{{"id":  "c","type":"function",{f}}}"#), false),
        (format!(r#"{{"id":"ç","type":"function",{f}}}"#), false),
        (format!(r#"{{"id":"c\"","type":"function",{f}}}"#), false),
        (format!(r#"{{"type":"function","id":"c",{f}}}"#), false),
        (r#"{"id":"c","type":"function","function":[]}"#.into(), false),
        (r#"{"id":"c","type":"function","function": {}}"#.into(), false),
        (r#"{"id": "c", "type": "function", "function":  {}}"#.into(), false),
    ];
    for (doc, head) in &cases {
        let b = doc.as_bytes();
        assert_eq!(tool_call_paths_agree(b, 0), Ok(*head), "{doc}");
        for cut in 0..b.len() {
            tool_call_paths_agree(&b[..cut], 0)
                .unwrap_or_else(|e| panic!("{doc} cut at {cut}: {e}"));
        }
    }
    // Deeper than the limit at the function's `{`: the same error.
    let doc = format!(r#"{{"id":"{id29}","type":"function",{f}}}"#);
    let arena = Bump::new();
    for max_depth in 1..4 {
        let opts = ParseOptions {
            max_depth,
            ..ParseOptions::default()
        };
        let run = |head: bool| {
            let mut p = Parser::new(doc.as_bytes(), &arena, &opts);
            let r = if head {
                p.tool_call_in::<true, _>(|c| c)
            } else {
                p.tool_call_in::<false, _>(|c| c)
            };
            r.map(|c| format!("{c:?}")).map_err(|e| (e.kind, e.offset))
        };
        assert_eq!(run(true), run(false), "max_depth {max_depth}");
    }
}
