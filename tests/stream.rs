//! The streaming parser against one-shot parsing: every split gives the same document or the
//! same error, errors come with the chunk that proves them, and completion is seen at once.

use agui_wire::stream::{BodyBuf, BodyParser, OwnedBodyParser, Status};
use agui_wire::{Bump, Error, ErrorKind, ParseOptions, RunAgentInput};
use proptest::prelude::*;

/// What feeding a document in chunks gave.
#[derive(Debug)]
struct Fed {
    /// The document (as its `Debug` text, to compare across arenas) or the error.
    result: Result<String, Error>,
    /// Bytes received when the error (or completion) was first reported, if before the end.
    at: Option<usize>,
}

fn one_shot(doc: &[u8], opts: &ParseOptions) -> Result<String, Error> {
    let arena = Bump::new();
    RunAgentInput::parse_with(doc, &arena, opts).map(|d| shown(&d))
}

/// A document as its `Debug` text and its written form (which follows the wire order the
/// parser recorded), to compare across arenas.
fn shown(d: &RunAgentInput<'_>) -> String {
    format!("{d:?} {}", String::from_utf8_lossy(&agui_wire::to_vec(d)))
}

/// Feeds `doc` cut at `cuts` (sorted offsets), then finishes.
fn feed(doc: &[u8], cuts: &[usize], opts: &ParseOptions) -> Fed {
    let (buf, arena) = (BodyBuf::new(), Bump::new());
    let mut parser = BodyParser::with_options(&buf, &arena, opts.clone());
    // The owning parser, fed the same chunks, answers each one the same.
    let mut owned = OwnedBodyParser::new(opts.clone());
    let mut from = 0;
    let mut complete_at = None;
    for &cut in cuts.iter().chain(std::iter::once(&doc.len())) {
        let cut = cut.clamp(from, doc.len());
        let status = parser.feed(&doc[from..cut]);
        assert_eq!(owned.feed(&doc[from..cut]), status);
        match status {
            Ok(Status::Partial) => assert!(complete_at.is_none(), "complete, then partial"),
            Ok(Status::Complete(n)) => {
                complete_at.get_or_insert(cut);
                assert!(n <= cut);
            }
            Err(e) => {
                // Errors are sticky.
                assert_eq!(parser.advance().unwrap_err(), e);
                return Fed {
                    result: Err(e),
                    at: Some(cut),
                };
            }
        }
        from = cut;
    }
    let owned = owned.finish().map(|p| shown(p.input()));
    let result = parser.finish().map(|d| {
        // Zero-copy: every string of the document is a slice of the buffer.
        assert!(buf.offset_of(d.thread_id.raw().as_bytes()).is_some());
        shown(&d)
    });
    assert_eq!(owned, result);
    Fed {
        result,
        at: complete_at,
    }
}

fn same(doc: &[u8], cuts: &[usize]) {
    same_with(doc, cuts, &ParseOptions::default());
}

fn same_with(doc: &[u8], cuts: &[usize], opts: &ParseOptions) {
    let want = one_shot(doc, opts);
    let got = feed(doc, cuts, opts);
    assert_eq!(
        got.result,
        want,
        "cuts {cuts:?} of {:?}",
        String::from_utf8_lossy(doc)
    );
}

fn every_two_chunk_split(doc: &[u8]) {
    for cut in 0..=doc.len() {
        same(doc, &[cut]);
    }
}

fn bytewise(doc: &[u8]) -> Vec<usize> {
    (1..doc.len()).collect()
}

const VALID: &[&str] = &[
    r#"{"threadId":"t","runId":"r","messages":[]}"#,
    r#" 	{ "threadId" : "t" , "runId" : "r" , "messages" : [ ] } 
 "#,
    r#"{"threadId":"thread-1","runId":"run-1","parentRunId":"run-0","protocolVersion":"1.0",
      "state":{"draft":"hello","n":[1,-2.5e3,0,true,false,null,{"deep":[[]]}]},
      "messages":[
        {"id":"1","role":"developer","content":"be brief"},
        {"id":"2","role":"system","content":"you are \"helpful\"","name":"sys"},
        {"id":"3","role":"user","content":"hi \u00e9\ud83d\ude00 é😀"},
        {"role":"assistant","id":"4","content":"calling","toolCalls":[
          {"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}},
          {"id":"c2","type":"function","function":{"name":"g","arguments":"{}"},"x":1}]},
        {"id":"5","role":"tool","toolCallId":"c1","content":"42","error":"none"},
        {"id":"6","role":"user","content":[
          {"type":"text","text":"look"},
          {"type":"image","source":{"type":"data","value":"iVBORw0KGgo=","mimeType":"image/png"}},
          {"source":{"value":"https://x/y.mp3","type":"url"},"type":"audio"},
          {"type":"document","source":{"type":"file","value":"file-1","provider":"openai"},"metadata":[1]},
          {"type":"binary","mimeType":"application/pdf","url":"https://x/y.pdf"}]},
        {"id":"7","role":"activity","activityType":"plan","content":{"steps":[1,2]}},
        {"id":"8","role":"reasoning","content":"thinking","encryptedValue":"abc"},
        {"content":"late role","id":"9","metadata":{"k":"v"},"role":"user","extra":{"a":[1,2]}}
      ],
      "tools":[{"name":"f","description":"d","parameters":{"type":"object","properties":{}}}],
      "context":[{"description":"tier","value":"gold"}],
      "forwardedProps":{"x":[1,2,3]},
      "resume":[{"interruptId":"i1","status":"resolved","payload":{"ok":true}}],
      "unknownTop":[{"a":"b"},12.5e-3,"s"]}"#,
    r#"{"messages":[{"id":"a","role":"user","content":"x"}],"runId":"r","threadId":"t","z":null}"#,
    // Keys sorted (serde_json's `Value`, Go's maps, Python's `sort_keys=True`): the sorted
    // heads of messages, tool calls and functions, and fields after them.
    r#"{"messages":[{"content":"hi \u00e9","id":"m1","role":"user"},{"content":"r","error":"e","id":"m2","role":"tool","toolCallId":"c1"},{"content": "s", "id": "m3", "role": "system"},{"content":"x","id":"m4","role":"assistant","toolCalls":[{"function":{"arguments":"{\"a\":1}","name":"f"},"id":"c1","type":"function"},{"function":{"arguments":"{}","name":"g","x":1},"id":"c2","metadata":{},"type":"function"}]},{"content":[{"text":"t","type":"text"}],"id":"m5","role":"user","x-extra":1,"name":"n"}],"runId":"r","threadId":"t"}"#,
    r#"{"threadId":"t\n\t\\\/","runId":"r","messages":[],"state":"just a string","tools":[],"context":[]}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"state":-0.0e+12}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"state":123456789}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"\u0073tate":{}}"#,
];

const INVALID: &[&str] = &[
    // A number or literal where a typed field wants something else: bad JSON (`00`, `tru`)
    // is reported as bad JSON, a good scalar as the wrong type, however the bytes are cut
    // (the `chunked` fuzz target found `0` | `0` reported as the wrong type).
    r#"{"threadId":00,"runId":"r"}"#,
    r#"{"threadId":0,"runId":"r"}"#,
    r#"{"threadId":-0.5e+10,"runId":"r"}"#,
    r#"{"threadId":truex,"runId":"r"}"#,
    r#"{"threadId":true,"runId":"r"}"#,
    r#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":000}]}"#,
    r#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[01]}]}"#,
    r#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":12}]}"#,
    "",
    "   ",
    "[]",
    "\u{feff}{}",
    "{",
    r#"{"threadId":"t","runId":"r","messages":[]}x"#,
    r#"{"threadId":"t","runId":"r","messages":[]} {}"#,
    r#"{"threadId":"t","runId":"r"}"#,
    r#"{"threadId":"t","threadId":"u","runId":"r","messages":[]}"#,
    r#"{"threadId":1,"runId":"r","messages":[]}"#,
    r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"robot","content":"x"}]}"#,
    r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user"}]}"#,
    r#"{"messages":[{"content":"x","id":"1","role":"user","content":"y"}],"runId":"r","threadId":"t"}"#,
    r#"{"messages":[{"content":{},"id":"1","role":"user"}],"runId":"r","threadId":"t"}"#,
    r#"{"messages":[{"content":"x","id":"1","role":"activity","activityType":"a"}],"runId":"r","threadId":"t"}"#,
    r#"{"messages":[{"content":"x","id":"1","role":"assistant","toolCalls":[{"function":{"arguments":"{}","name":"f"},"id":"c","type":"method"}]}],"runId":"r","threadId":"t"}"#,
    r#"{"messages":[{"content":"x","id":"1","role":"assistant","toolCalls":[{"function":{"arguments":"{}","name":"f","name":"g"},"id":"c","type":"function"}]}],"runId":"r","threadId":"t"}"#,
    r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"x"},]}"#,
    r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"x"} {"id":"2"}]}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":01}}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":1.}}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":tru}}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":"\ud800"}}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":"\ud800\u0041"}}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":"\x"}}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":[1,2}}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"state":{"a" 1}}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":1,}}"#,
    "{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":[],\"state\":\"a\tb\"}",
    "{\"threadId\":\"t\u{1}\",\"runId\":\"r\",\"messages\":[]}",
    "{\"threadId\":\"t\",\"ru\u{1}nId\":\"r\",\"messages\":[]}",
    r#"{"threadId":"t","runId":"r","messages":[],"metadata":null,"x\q":1}"#,
    r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"x","metadata":null}]}"#,
    r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"assistant","toolCalls":[{"id":"c","type":"method","function":{}}]}]}"#,
    r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":[{"type":"image","source":{"type":"data","value":"x"}}]}]}"#,
    r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":[{"type":"binary","mimeType":"a/b"}]}]}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":"i","status":"maybe"}]}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"tools":[{"description":"no name"}]}"#,
    r#"{"threadId":"t","runId":"r","messages":[],"context":[{"value":"v"}]}"#,
];

#[test]
fn valid_documents_every_two_chunk_split() {
    for doc in VALID {
        assert!(
            one_shot(doc.as_bytes(), &ParseOptions::default()).is_ok(),
            "{doc}"
        );
        every_two_chunk_split(doc.as_bytes());
    }
}

#[test]
fn invalid_documents_every_two_chunk_split() {
    for doc in INVALID {
        assert!(
            one_shot(doc.as_bytes(), &ParseOptions::default()).is_err(),
            "{doc}"
        );
        every_two_chunk_split(doc.as_bytes());
    }
}

#[test]
fn one_byte_chunks() {
    for doc in VALID.iter().chain(INVALID) {
        same(doc.as_bytes(), &bytewise(doc.as_bytes()));
    }
}

#[test]
fn options_every_split() {
    let tight = ParseOptions {
        max_depth: 4,
        max_messages: 1,
        max_list_items: 2,
        ..ParseOptions::default()
    };
    let docs = [
        r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"a"},  {"id":"2","role":"user","content":"b"}]}"#,
        r#"{"threadId":"t","runId":"r","messages":[],"tools":[{"name":"a"},{"name":"b"} ,  {"name":"c"}]}"#,
        r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":{"b":{"c":{}}}}}"#,
        r#"{"threadId":"t","runId":"r","messages":[],"a":1,"b":2,"c":3}"#,
        r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"a","metadata":null}]}"#,
    ];
    for doc in docs {
        for opts in [&tight, &ParseOptions::lenient()] {
            for cut in 0..=doc.len() {
                same_with(doc.as_bytes(), &[cut], opts);
            }
            same_with(doc.as_bytes(), &bytewise(doc.as_bytes()), opts);
        }
    }
}

/// Errors are reported by the chunk that completes their proof, not before, not later.
#[test]
fn errors_reported_when_proven() {
    // (document, bytes needed to prove the error)
    let cases: &[(&str, &str)] = &[
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"robot","#,
            r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"robot""#,
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":01"#,
            r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":01"#,
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":12x"#,
            r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":12x"#,
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[],"state":"\ud800\u0041"#,
            r#"{"threadId":"t","runId":"r","messages":[],"state":"\ud800\u0041"#,
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[],"state":"\ud800x"#,
            r#"{"threadId":"t","runId":"r","messages":[],"state":"\ud800x"#,
        ),
        (
            r#"{"threadId":"t","threadId":"#,
            // Once the `:` is there (without it, the error is the missing `:`).
            r#"{"threadId":"t","threadId":"#,
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user"}"#,
            r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user"}"#,
        ),
        (
            "{\"threadId\":\"t\",\"ru\u{1}nId\":\"r\",\"messages\":[]}",
            // The error is inside a key: its path needs the whole key.
            "{\"threadId\":\"t\",\"ru\u{1}nId\"",
        ),
        (
            r#"{"threadId":"t","runId":"r","messages":[]}  x"#,
            r#"{"threadId":"t","runId":"r","messages":[]}  x"#,
        ),
        ("\u{feff}{}", "\u{feff}"),
        ("[", "["),
    ];
    // The same inside a raw value long enough for the structural index.
    let head = format!(
        r#"{{"threadId":"t","runId":"r","messages":[],"state":{{"pad":[{}0],"a":"#,
        "1.5,true,\"x\",".repeat(20)
    );
    let long: Vec<(String, String)> = ["01", "12x", "nul1", "[1,]", "\"\\ud800x", "\"\\q"]
        .iter()
        .map(|bad| (format!("{head}{bad}"), format!("{head}{bad}")))
        .chain(std::iter::once((
            format!("{head}\"a\u{1}b\""),
            format!("{head}\"a\u{1}"),
        )))
        .collect();
    let cases = cases
        .iter()
        .map(|&(d, p)| (d, p))
        .chain(long.iter().map(|(d, p)| (d.as_str(), p.as_str())));
    for (doc, proof) in cases {
        let want = one_shot(doc.as_bytes(), &ParseOptions::default()).unwrap_err();
        for cuts in [bytewise(doc.as_bytes()), vec![proof.len() - 1, proof.len()]] {
            let got = feed(doc.as_bytes(), &cuts, &ParseOptions::default());
            assert_eq!(got.result.as_ref().unwrap_err(), &want, "{doc}");
            assert_eq!(got.at, Some(proof.len()), "{doc}: reported at {:?}", got.at);
        }
    }
}

#[test]
fn truncation_is_an_error_only_at_the_end() {
    let doc = VALID[2].as_bytes();
    for len in 0..doc.len() {
        let (buf, arena) = (BodyBuf::new(), Bump::new());
        let mut parser = BodyParser::new(&buf, &arena);
        assert_eq!(parser.feed(&doc[..len]).unwrap(), Status::Partial, "{len}");
        let err = parser.finish().unwrap_err();
        // `UnexpectedEof`, as one-shot parsing says.
        assert_eq!(err, RunAgentInput::parse(&doc[..len], &arena).unwrap_err());
    }
}

#[test]
fn complete_with_trailing_whitespace() {
    let doc = br#"{"threadId":"t","runId":"r","messages":[]}"#;
    let (buf, arena) = (BodyBuf::new(), Bump::new());
    let mut parser = BodyParser::new(&buf, &arena);
    assert_eq!(parser.feed(&doc[..doc.len() - 1]).unwrap(), Status::Partial);
    assert_eq!(parser.feed(b"}").unwrap(), Status::Complete(doc.len()));
    assert_eq!(
        parser.feed(b" \r\n\t").unwrap(),
        Status::Complete(doc.len())
    );
    assert_eq!(parser.advance().unwrap(), Status::Complete(doc.len()));
    assert!(parser.is_complete());
    let input = parser.finish().unwrap();
    assert_eq!(input.thread_id, "t");

    // Whitespace first, the document in the same chunk as trailing whitespace.
    let (buf, arena) = (BodyBuf::new(), Bump::new());
    let mut parser = BodyParser::new(&buf, &arena);
    assert_eq!(parser.feed(b"\n\n ").unwrap(), Status::Partial);
    let mut chunk = doc.to_vec();
    chunk.extend_from_slice(b"  ");
    assert_eq!(
        parser.feed(&chunk).unwrap(),
        Status::Complete(3 + doc.len())
    );

    // Garbage after completion, in a later chunk.
    let err = parser.feed(b" ]").unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::TrailingCharacters);
    assert_eq!(err.offset(), 3 + doc.len() + 3);
}

#[test]
fn input_too_large_as_soon_as_it_is() {
    let opts = ParseOptions {
        max_input_bytes: 30,
        ..ParseOptions::default()
    };
    let (buf, arena) = (BodyBuf::new(), Bump::new());
    let mut parser = BodyParser::with_options(&buf, &arena, opts);
    assert_eq!(
        parser.feed(br#"{"threadId":"t","#).unwrap(),
        Status::Partial
    );
    let err = parser.feed(br#""runId":"r","messages":[]}"#).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InputTooLarge { len: 42, limit: 30 });
}

/// A long string, a long raw value and many messages, in 4 KiB and odd-sized chunks.
#[test]
fn large_shapes() {
    let b64: String = (0..300_000)
        .map(|i| (b'A' + (i * 7 % 26) as u8) as char)
        .collect();
    let media = format!(
        r#"{{"threadId":"t","runId":"r","messages":[{{"id":"m","role":"user","content":[{{"type":"image","source":{{"type":"data","value":"{b64}","mimeType":"image/png"}}}}]}}]}}"#
    );
    let mut state = String::from(r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":["#);
    for i in 0..20_000 {
        state.push_str(&format!(r#"{{"i":{i},"s":"x\"y","f":[1.5,true,null]}},"#));
    }
    state.push_str(r#"{}]}}"#);
    let mut chat = String::from(r#"{"threadId":"t","runId":"r","messages":["#);
    for i in 0..3000 {
        if i > 0 {
            chat.push(',');
        }
        chat.push_str(&format!(
            r#"{{"id":"{i}","role":"assistant","content":"text {i}","toolCalls":[{{"id":"c{i}","type":"function","function":{{"name":"f","arguments":"{{}}"}}}}]}}"#
        ));
    }
    chat.push_str("]}");
    for doc in [&media, &state, &chat] {
        let doc = doc.as_bytes();
        for step in [4096, 997, 65_536] {
            let cuts: Vec<usize> = (1..)
                .map(|k| k * step)
                .take_while(|&c| c < doc.len())
                .collect();
            same(doc, &cuts);
        }
        // Break the document near its end: the same error as one-shot.
        let mut bad = doc.to_vec();
        let at = bad.len() - 3;
        bad[at] = b'#';
        let cuts: Vec<usize> = (1..)
            .map(|k| k * 4096)
            .take_while(|&c| c < bad.len())
            .collect();
        same(&bad, &cuts);
    }
}

/// A list item with very many small fields: re-reading its start on every chunk would be
/// quadratic, so it is validated incrementally and parsed once; the answers do not change.
#[test]
fn items_with_many_fields() {
    let mut fields = String::new();
    for i in 0..30_000 {
        fields.push_str(&format!(r#""k{i}":[{i}],"#));
    }
    let doc = format!(
        r#"{{"threadId":"t","runId":"r","messages":[{{"id":"1","role":"user",{fields}"content":"x"}},{{"id":"2","role":"user","content":"y"}}]}}"#
    );
    let doc = doc.as_bytes();
    let cuts: Vec<usize> = (1..)
        .map(|k| k * 1024)
        .take_while(|&c| c < doc.len())
        .collect();
    same(doc, &cuts);
    // A protocol error inside it, and one after it.
    for (from, to) in [
        (r#""role":"user","#, r#""role":"user","id":"1","#),
        (r#""content":"y""#, r#""content":7"#),
    ] {
        let bad = String::from_utf8_lossy(doc).replacen(from, to, 1);
        same(bad.as_bytes(), &cuts);
    }
    // A grammar error inside it is still found by the chunk that holds it.
    let bad =
        String::from_utf8_lossy(doc).replacen(r#""k20000":[20000]"#, r#""k20000":[20000}"#, 1);
    let want = one_shot(bad.as_bytes(), &ParseOptions::default()).unwrap_err();
    let got = feed(bad.as_bytes(), &cuts, &ParseOptions::default());
    assert_eq!(got.result.as_ref().unwrap_err(), &want);
    let at = got.at.unwrap();
    assert!(
        at > want.offset() && at <= want.offset() + 1024,
        "{at} vs {}",
        want.offset()
    );
}

/// Documents of the samples and of the conformance corpus, where present (set
/// `AGUI_WIRE_CORPUS` to another checkout to read its files instead).
#[test]
fn corpus_files() {
    let root =
        std::env::var("AGUI_WIRE_CORPUS").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned());
    let mut n = 0;
    for dir in [
        "samples",
        "samples/invalid",
        "tests/conformance/accept",
        "tests/conformance/reject",
    ] {
        let Ok(entries) = std::fs::read_dir(std::path::Path::new(&root).join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = path.to_string_lossy().into_owned();
            if !name.ends_with(".json") || name.ends_with(".expected.json") {
                continue;
            }
            let Ok(doc) = std::fs::read(&path) else {
                continue;
            };
            n += 1;
            let t = std::time::Instant::now();
            // Every two-chunk split of small documents, a sample of them for larger ones.
            let stride = 1 + doc.len() / 512;
            for cut in (0..=doc.len()).step_by(stride) {
                same(&doc, &[cut]);
            }
            same(&doc, &bytewise(&doc));
            let cuts: Vec<usize> = (1..)
                .map(|k| k * 61)
                .take_while(|&c| c < doc.len())
                .collect();
            same(&doc, &cuts);
            if t.elapsed().as_secs_f64() > 2.0 {
                eprintln!("slow: {name}: {} bytes, {:?}", doc.len(), t.elapsed());
            }
        }
    }
    eprintln!("{n} corpus documents");
}

fn corpus() -> Vec<&'static str> {
    VALID.iter().chain(INVALID).copied().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// The same document split at arbitrary points gives the same result as one-shot parsing.
    #[test]
    fn chunked(doc in proptest::sample::select(corpus()), cuts in proptest::collection::vec(0usize..2000, 0..12)) {
        let doc = doc.as_bytes();
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (doc.len() + 1)).collect();
        cuts.sort_unstable();
        same(doc, &cuts);
    }

    /// Damaged documents: the same error as one-shot parsing, whatever the chunking.
    #[test]
    fn chunked_damaged(
        doc in proptest::sample::select(VALID.to_vec()),
        at in 0usize..2000,
        byte in proptest::sample::select(b"\"\\{}[],: x0-1.e\x01\xc3\xff".to_vec()),
        truncate in any::<bool>(),
        cuts in proptest::collection::vec(0usize..2000, 0..12),
    ) {
        let mut doc = doc.as_bytes().to_vec();
        let at = at % doc.len();
        if truncate {
            doc.truncate(at);
        } else {
            doc[at] = byte;
        }
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (doc.len() + 1)).collect();
        cuts.sort_unstable();
        same(&doc, &cuts);
    }
}

#[test]
fn invalid_utf8_before_an_escape_cut_by_a_chunk_end() {
    // The bytes before a backslash that a chunk cuts off must still be UTF-8 checked when the
    // string is read on from the backslash in the next pass.
    for pad in 0..70 {
        let mut doc = br#"{"threadId":""#.to_vec();
        doc.extend(std::iter::repeat_n(b'x', pad));
        doc.push(0xFF);
        doc.extend_from_slice(br#"ab\n","runId":"r","messages":[]}"#);
        let backslash = doc.iter().rposition(|&b| b == b'\\').unwrap();
        let want = one_shot(&doc, &ParseOptions::default()).unwrap_err();
        assert_eq!(want.kind(), &ErrorKind::InvalidUtf8);
        for cut in [backslash, backslash + 1] {
            let got = feed(&doc, &[cut], &ParseOptions::default());
            assert_eq!(got.result, Err(want.clone()), "pad {pad} cut {cut}");
        }
    }
}

/// A raw `state` long enough for the structural index, which keeps its state between passes:
/// every two-chunk split, one-byte chunks, and damaged bytes (a quote, a backslash, a bracket,
/// a control byte, invalid UTF-8, a letter in a number) with chunks ending just before, at and
/// after them: the same document or the same error (kind, offset, path) as one-shot parsing.
#[test]
fn a_raw_state_in_passes() {
    let mut state = String::from(r#"{"items":["#);
    for i in 0..12 {
        state.push_str(&format!(
            r#"{{"id":{i},"s":"x\"é\ud83d\ude00 {i}","v":[1.5e-3,true,null,{{"deep":[[]]}}]}},"#
        ));
    }
    state.push_str(r#"{}], "tail" : "𝄞" }"#);
    let doc = format!(r#"{{"threadId":"t","runId":"r","messages":[],"state":{state},"x":1}}"#);
    let doc = doc.as_bytes();
    let start = doc.windows(8).position(|w| w == br#""state":"#).unwrap() + 8;
    every_two_chunk_split(doc);
    same(doc, &bytewise(doc));
    for at in (start..start + state.len()).step_by(5) {
        for byte in [b'"', b'\\', b']', 0x01, 0xFF, b'x'] {
            let mut bad = doc.to_vec();
            bad[at] = byte;
            same(&bad, &[at - 1, at, at + 1]);
            same(&bad, &[start + 1, at + 2]);
            same(&bad, &(1..bad.len()).step_by(13).collect::<Vec<_>>());
        }
    }
}

/// An escape that is already wrong when the bytes run out is an error at once, not a
/// truncation: `\ud83d\ux` followed by the rest of the body was read, chunk-fed, as a cut
/// escape, the pass that then saw the string's end took it as read, and the body was accepted
/// (found by the `chunked` fuzz target; one-shot parsing said `InvalidEscape`). Every escape
/// shape, in a raw value (object, array, key) and in a message text, at every chunk size and
/// every split into three chunks.
#[test]
fn escapes_wrong_before_the_bytes_end_are_errors_in_every_chunking() {
    let escapes = [
        r"\uD83D\ux",
        r"\uD83D\u12x4",
        r"\uD83D\uDE0x",
        r"\u12x4",
        r"\ux",
        r"\uD83D\\",
        r"\uD83D\n",
        r"\uDE00",
        r"\uD83Dx",
        r"\uD83D\uD83D",
        r"\q",
        r"\uD83D\uDE00",
        r"\uD83D\u0041",
    ];
    let shapes = [
        r#"{"threadId":"t","runId":"r","messages":[],"state":{"a":"ESC"}}"#,
        r#"{"threadId":"t","runId":"r","messages":[],"state":["ESC",1]}"#,
        r#"{"threadId":"t","runId":"r","messages":[],"state":{"ESC":1}}"#,
        r#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"ESC"}]}"#,
    ];
    for esc in escapes {
        for shape in shapes {
            let doc = shape.replace("ESC", esc);
            let d = doc.as_bytes();
            for size in 1..d.len() {
                let cuts: Vec<usize> = (1..)
                    .map(|k| k * size)
                    .take_while(|&c| c < d.len())
                    .collect();
                same(d, &cuts);
            }
            for a in 1..d.len() {
                for b in a + 1..d.len() {
                    same(d, &[a, b]);
                }
            }
        }
    }
}

/// `expect_len` sizes lists from the announced length; right, short, long or absurd, the
/// document is the one-shot one, and a wrong length costs arena room bounded by the bytes
/// that did arrive.
#[test]
fn the_expected_length_is_only_a_hint() {
    let mut chat = String::from(r#"{"threadId":"t","runId":"r","messages":["#);
    for i in 0..5000 {
        if i > 0 {
            chat.push(',');
        }
        chat.push_str(&format!(
            r#"{{"id":"{i}","role":"user","content":[{{"type":"text","text":"hi {i}"}}]}}"#
        ));
    }
    chat.push_str("]}");
    let doc = chat.as_bytes();
    let want = one_shot(doc, &ParseOptions::default()).unwrap();
    let one_room = {
        let arena = Bump::new();
        RunAgentInput::parse(doc, &arena).unwrap();
        arena.allocated_bytes()
    };
    let opts = ParseOptions {
        max_input_bytes: 16 << 20,
        ..ParseOptions::default()
    };
    for expected in [0, 1, doc.len() / 3, doc.len(), doc.len() * 3, usize::MAX] {
        let (buf, arena) = (BodyBuf::new(), Bump::new());
        let mut parser = BodyParser::with_options(&buf, &arena, opts.clone());
        parser.expect_len(expected);
        for chunk in doc.chunks(1000) {
            parser.feed(chunk).unwrap();
        }
        assert_eq!(shown(&parser.finish().unwrap()), want, "{expected}");
        // Against one-shot parsing's arena: the announced length is believed up to eight
        // times the bytes received, and lists reserve at most half of that.
        let room = arena.allocated_bytes();
        assert!(room <= 2 * one_room + 4 * doc.len(), "{expected}: {room}");
    }
    // The owning parser announces its capacity, with the same result.
    let mut owned = OwnedBodyParser::with_capacity(opts.clone(), doc.len());
    for chunk in doc.chunks(777) {
        owned.feed(chunk).unwrap();
    }
    assert_eq!(shown(owned.finish().unwrap().input()), want);
}

/// A string that runs on over many chunks (the chunk-fed parser scans such bytes as it copies
/// them): its end, an escape, a control byte, invalid UTF-8 or valid non-ASCII text placed at
/// every offset around the 64-byte steps of a later chunk, for several chunk sizes: the same
/// document or the same error as one-shot parsing.
#[test]
fn long_strings_scanned_as_they_are_copied() {
    let specials: [&[u8]; 6] = [b"\"", b"\\n", b"\\u00e9", b"\x01", b"\xff", "é".as_bytes()];
    for (head, tail) in [
        (
            &br#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":""#[..],
            &br#""}]}"#[..],
        ),
        (
            &br#"{"threadId":"t","runId":"r","messages":[],"x":""#[..],
            &br#""}"#[..],
        ),
    ] {
        for chunk in [1, 7, 64, 100, 300] {
            for pos in (200..340).step_by(3) {
                for special in specials {
                    let mut doc = head.to_vec();
                    let start = doc.len();
                    doc.extend((0..600).map(|i| b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij+/"[i % 38]));
                    doc.splice(
                        start + pos..start + pos + special.len(),
                        special.iter().copied(),
                    );
                    doc.extend_from_slice(tail);
                    let cuts: Vec<usize> = (chunk..doc.len()).step_by(chunk).collect();
                    same(&doc, &cuts);
                }
            }
        }
    }
}
