//! serde: `Serialize` gives the writer's bytes, `Deserialize` gives the parser's model (through
//! serde_json and simd-json), borrowing, and the protocol's rules hold.

mod common;

use agui_wire::*;
use common::*;

fn serde_json_model(bytes: &[u8]) -> RunAgentInput<'_> {
    serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("serde_json: {e}"))
}

#[test]
fn samples_serialize_like_the_writer() {
    let arena = Bump::new();
    for f in [
        "samples/conversation.compact.json",
        "samples/conversation.json",
    ] {
        let bytes = read(f);
        let input = RunAgentInput::parse(&bytes, &arena).unwrap();
        assert!(serde_json::to_vec(&input).unwrap() == to_vec(&input), "{f}");
        for m in input.messages.iter() {
            assert_eq!(serde_json::to_vec(m).unwrap(), m.to_json_vec());
        }
    }
    let bytes = read("samples/capabilities.json");
    let caps = AgentCapabilities::parse(&bytes, &arena).unwrap();
    assert_eq!(serde_json::to_vec(&caps).unwrap(), to_vec(&caps));
}

#[test]
fn samples_deserialize_like_the_parser() {
    let arena = Bump::new();
    for f in [
        "samples/conversation.compact.json",
        "samples/conversation.json",
    ] {
        let bytes = read(f);
        let parsed = RunAgentInput::parse(&bytes, &arena).unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        let from_str: RunAgentInput = serde_json::from_str(text).unwrap();
        assert_eq!(from_str, parsed, "{f}: serde_json::from_str");
        assert_eq!(
            serde_json_model(&bytes),
            parsed,
            "{f}: serde_json::from_slice"
        );
        // Through serde_json the key order is recorded too: same output bytes.
        assert_eq!(to_vec(&from_str), to_vec(&parsed));
        let mut buf = bytes.clone();
        let simd: RunAgentInput = simd_json::serde::from_slice(&mut buf).unwrap();
        assert_eq!(simd, parsed, "{f}: simd_json");
        // A reader gives owned strings: deserialize with `'de = 'static`.
        let owned: RunAgentInput<'static> = {
            use serde::Deserialize;
            let mut de = serde_json::Deserializer::from_reader(bytes.as_slice());
            RunAgentInput::deserialize(&mut de).unwrap()
        };
        assert_eq!(owned, parsed);
    }
    let bytes = read("samples/capabilities.json");
    let caps = AgentCapabilities::parse(&bytes, &arena).unwrap();
    let d: AgentCapabilities = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(d, caps);
    let mut buf = bytes.clone();
    let s: AgentCapabilities = simd_json::serde::from_slice(&mut buf).unwrap();
    assert_eq!(s, caps);
}

#[test]
fn strings_and_raw_values_borrow() {
    let bytes = read("samples/conversation.compact.json");
    let text = std::str::from_utf8(&bytes).unwrap();
    let input: RunAgentInput = serde_json::from_str(text).unwrap();
    let inside = |s: &[u8]| offset_in(&bytes, s).is_some();
    assert!(inside(input.thread_id.raw().as_bytes()));
    assert!(inside(input.state.as_ref().unwrap().as_bytes()));
    let mut media = 0;
    for m in input.messages.iter() {
        assert!(inside(m.id().raw().as_bytes()));
        for p in m.parts() {
            if let Some(InputContentSource::Data(d)) = p.as_media().map(|m| &m.source) {
                assert!(inside(d.value.raw().as_bytes()), "base64 payload copied");
                media += 1;
            }
        }
    }
    assert!(media >= 2);
    // simd-json borrows from its own (rewritten) buffer.
    let mut buf = bytes.clone();
    let range = buf.as_ptr_range();
    let simd: RunAgentInput = simd_json::serde::from_slice(&mut buf).unwrap();
    let p = simd.thread_id.raw().as_ptr();
    assert!(range.contains(&p));
}

#[test]
fn corpus_through_serde_json() {
    let mut checked = 0;
    for (name, bytes) in corpus() {
        let arena = Bump::new();
        if is_capabilities(&name) {
            let c = AgentCapabilities::parse(&bytes, &arena).unwrap();
            let d: AgentCapabilities =
                serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(d, c, "{name}");
            continue;
        }
        let parsed = RunAgentInput::parse(&bytes, &arena).unwrap();
        let d: RunAgentInput = match serde_json::from_slice(&bytes) {
            Ok(d) => d,
            // serde_json's own nesting limit (128) is below ours (512).
            Err(e) if e.to_string().contains("recursion limit") => continue,
            Err(e) => panic!("{name}: {e}"),
        };
        assert_eq!(d, parsed, "{name}");
        // Serialize re-escapes strings canonically, so compare the models.
        let ser = serde_json::to_vec(&parsed).unwrap();
        let again = RunAgentInput::parse(&ser, &arena)
            .unwrap_or_else(|e| panic!("{name}: serialized output does not parse: {e}"));
        assert_eq!(again, parsed, "{name}");
        checked += 1;
    }
    eprintln!("{checked} corpus documents through serde_json");
}

#[test]
fn generated_documents() {
    let mode = Mode {
        canonical: true,
        sdk: false,
        shuffle: true,
    };
    let mut g = Gen::new(42, mode);
    for n in 0..400 {
        let doc = g.document();
        let arena = Bump::new();
        let parsed = RunAgentInput::parse(doc.as_bytes(), &arena).unwrap();
        let ser = serde_json::to_vec(&parsed).unwrap();
        assert!(
            ser == doc.as_bytes(),
            "doc {n}: serialize differs\n in: {doc}\nout: {}",
            String::from_utf8_lossy(&ser)
        );
        let d: RunAgentInput =
            serde_json::from_str(&doc).unwrap_or_else(|e| panic!("doc {n}: {e}\n{doc}"));
        assert_eq!(d, parsed, "doc {n}");
        // The recorded order makes even serde's model write the input back.
        assert!(
            to_vec(&d) == doc.as_bytes(),
            "doc {n}: order lost through serde"
        );
        let mut buf = doc.clone().into_bytes();
        let s: RunAgentInput = simd_json::serde::from_slice(&mut buf)
            .unwrap_or_else(|e| panic!("doc {n}: simd: {e}\n{doc}"));
        // simd-json hands numbers over as values: compare the written, re-parsed model
        // with serde_json's reading of the same text.
        let written = to_vec(&s);
        let back: RunAgentInput = serde_json::from_slice(&written).unwrap();
        assert_eq!(back.messages.len(), parsed.messages.len());
        assert_eq!(back.thread_id, parsed.thread_id);
    }
}

#[test]
fn non_canonical_escapes_are_where_serialize_differs() {
    let doc = br#"{"threadId":"\u0041\/","runId":"r","messages":[]}"#;
    let arena = Bump::new();
    let input = RunAgentInput::parse(doc, &arena).unwrap();
    assert_eq!(to_vec(&input), doc);
    assert_eq!(
        serde_json::to_vec(&input).unwrap(),
        br#"{"threadId":"A/","runId":"r","messages":[]}"#
    );
}

#[test]
fn raw_values_serialize_verbatim() {
    // Guards the raw-value protocol shared with serde_json.
    let raw = RawJson::from_text(r#"{"b":1e5,"a":"\u00e9"}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&raw).unwrap(),
        r#"{"b":1e5,"a":"\u00e9"}"#
    );
    let pretty = RawJson::from_text("[ 1,\n 2 ]").unwrap();
    assert_eq!(serde_json::to_string(&pretty).unwrap(), "[1,2]");
    let v = serde_json::to_value(&raw).unwrap();
    assert_eq!(v["a"], "é");
    let back: RawJson = serde_json::from_str(r#" {"x": [1, 2]} "#).unwrap();
    assert_eq!(back.text(), r#"{"x": [1, 2]}"#);
    // From a serde_json::Value (owned raw text) and from simd-json (transcoded).
    use serde::Deserialize;
    let from_value = RawJson::deserialize(serde_json::json!({"k": [true]})).unwrap();
    assert_eq!(from_value.text(), r#"{"k":[true]}"#);
    let mut buf = br#"{"z":[1,-2,3.5,"s\n",null,{"n":{}}],"a":false}"#.to_vec();
    let from_simd: RawJson = simd_json::serde::from_slice(&mut buf).unwrap();
    assert_eq!(
        from_simd.text(),
        r#"{"z":[1,-2,3.5,"s\n",null,{"n":{}}],"a":false}"#
    );
}

#[test]
fn discriminator_anywhere() {
    let doc = r#"{"threadId":"t","runId":"r","messages":[{"id":"u","content":[{"source":{"value":"AAAA","mimeType":"image/png","x":1,"type":"data"},"metadata":[1],"type":"image"}],"x-m":"k","name":"n","role":"user"},{"toolCalls":[{"function":{"name":"f","arguments":"{}"},"id":"c"}],"id":"a","role":"assistant"},{"content":{"a":1},"activityType":"PLAN","id":"act","role":"activity"}]}"#;
    let arena = Bump::new();
    let parsed = RunAgentInput::parse(doc.as_bytes(), &arena).unwrap();
    let d: RunAgentInput = serde_json::from_str(doc).unwrap();
    assert_eq!(d, parsed);
    assert_eq!(to_vec(&d), doc.as_bytes());
    let mut buf = doc.as_bytes().to_vec();
    let s: RunAgentInput = simd_json::serde::from_slice(&mut buf).unwrap();
    assert_eq!(s, parsed);
    assert_eq!(to_vec(&s), doc.as_bytes());
}

#[test]
fn standalone_types() {
    let m: Message = serde_json::from_str(r#"{"id":"s","role":"system","content":"c"}"#).unwrap();
    assert_eq!(m.role(), Role::System);
    let u: UserMessage = serde_json::from_str(r#"{"id":"u","content":"hi"}"#).unwrap();
    assert_eq!(u.content.as_text().unwrap(), "hi");
    assert!(
        serde_json::from_str::<UserMessage>(r#"{"id":"u","role":"tool","content":"x"}"#).is_err()
    );
    let p: InputContent = serde_json::from_str(
        r#"{"type":"audio","source":{"type":"url","value":"https://x/a.wav"}}"#,
    )
    .unwrap();
    assert_eq!(p.kind(), InputContentKind::Audio);
    assert_eq!(
        serde_json::to_string(&p).unwrap(),
        r#"{"type":"audio","source":{"type":"url","value":"https://x/a.wav"}}"#
    );
    let media: MediaInputContent =
        serde_json::from_str(r#"{"type":"video","source":{"type":"file","value":"f"}}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&media).unwrap(),
        r#"{"source":{"type":"file","value":"f"}}"#
    );
    let role: Role = serde_json::from_str(r#""reasoning""#).unwrap();
    assert_eq!(serde_json::to_string(&role).unwrap(), r#""reasoning""#);
    let s: ResumeStatus = serde_json::from_str(r#""cancelled""#).unwrap();
    assert_eq!(s, ResumeStatus::Cancelled);
    let c: Content = serde_json::from_str(r#"[{"type":"text","text":"t"}]"#).unwrap();
    assert_eq!(c.parts().len(), 1);
    let e: Extra = serde_json::from_str(r#"{"a":1,"b":[2]}"#).unwrap();
    assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"a":1,"b":[2]}"#);
    let l: List<Str> = serde_json::from_str(r#"["a","b\"c"]"#).unwrap();
    assert_eq!(l[1], "b\"c");
    assert_eq!(l.to_json_vec(), br#"["a","b\"c"]"#);
}

#[test]
fn rules_hold_through_serde() {
    let cases: &[(&str, &str)] = &[
        (r#"{"threadId":"t","messages":[]}"#, "missing field `runId`"),
        (
            r#"{"threadId":"t","runId":"r"}"#,
            "missing field `messages`",
        ),
        (
            r#"{"threadId":"t","runId":"r","runId":"s","messages":[]}"#,
            "duplicate field `runId`",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"x","role":"bot","content":"c"}]}"#,
            "unknown variant `bot`",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"x","content":"c"}]}"#,
            "missing field `role`",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"role":"user","content":"c"}]}"#,
            "missing field `id`",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"x","role":"user"}]}"#,
            "missing field `content`",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"x","role":"user","content":"c","metadata":null}]}"#,
            "must be an object",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"x","role":"user","content":"c","metadata":[]}]}"#,
            "must be an object",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"x","role":"user","content":"c","name":null}]}"#,
            "invalid type: null",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[],"forwardedProps":null}"#,
            "may be absent but not null",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"x","role":"user","content":[{"type":"pdf"}]}]}"#,
            "unknown variant `pdf`",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"x","role":"user","content":[{"type":"image","source":{"type":"data","value":"A"}}]}]}"#,
            "missing field `mimeType`",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"x","role":"user","content":[{"type":"binary","mimeType":"a/b"}]}]}"#,
            "at least one of",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"fn","function":{"name":"f","arguments":"{}"}}]}]}"#,
            "unknown variant `fn`",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"a","role":"activity","activityType":"P","content":[]}]}"#,
            "must be an object",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":"i","status":"done"}]}"#,
            "unknown variant `done`",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"content":"c","role":"user","role":"user","id":"x"}]}"#,
            "duplicate field `role`",
        ),
        (
            r#"{"threadId":5,"runId":"r","messages":[]}"#,
            "invalid type: integer",
        ),
    ];
    for (doc, want) in cases {
        let arena = Bump::new();
        assert!(
            RunAgentInput::parse(doc.as_bytes(), &arena).is_err(),
            "parser accepts {doc}"
        );
        let err = serde_json::from_str::<RunAgentInput>(doc)
            .err()
            .unwrap_or_else(|| panic!("serde_json accepts {doc}"));
        assert!(err.to_string().contains(want), "{doc}: {err}");
        let mut buf = doc.as_bytes().to_vec();
        assert!(
            simd_json::serde::from_slice::<RunAgentInput>(&mut buf).is_err(),
            "simd-json accepts {doc}"
        );
    }
    let caps = [
        r#"{"execution":{"maxIterations":-1}}"#,
        r#"{"state":{"deltas":"yes"}}"#,
        r#"{"custom":[1]}"#,
        r#"{"multiAgent":{"subagents":[{"description":"no name"}]}}"#,
    ];
    for doc in caps {
        assert!(
            serde_json::from_str::<AgentCapabilities>(doc).is_err(),
            "{doc}"
        );
    }
}

#[test]
fn deep_values_from_other_deserializers_are_bounded() {
    let deep = format!("{}{}", "[".repeat(600), "]".repeat(600));
    let mut buf =
        format!(r#"{{"threadId":"t","runId":"r","messages":[],"state":{deep}}}"#).into_bytes();
    // simd-json may refuse it itself; either way no stack overflow and an error.
    assert!(simd_json::serde::from_slice::<RunAgentInput>(&mut buf).is_err());
}
