//! Linear work whatever the chunking (issue 12): each shape below puts one long token where a
//! pass runs out of bytes over and over (a whitespace run, a number, a key, a literal run, a
//! raw value of many small tokens, in every place the grammar allows one), is fed in 4 KiB
//! chunks at two sizes, and the bytes the parser read more than once (its own counter,
//! `BodyParser::reread`: no clock) must stay a small fraction of the body and grow no faster
//! than it.

use super::*;

const CHUNK: usize = 4096;

/// Feeds `doc` in `chunk`-byte chunks; checks the result against one-shot parsing and returns
/// the bytes re-read.
fn reread(doc: &[u8], chunk: usize) -> usize {
    let (buf, arena) = (BodyBuf::new(), Bump::new());
    let mut p = BodyParser::new(&buf, &arena);
    let mut fed = Ok(Status::Partial);
    for c in doc.chunks(chunk) {
        fed = p.feed(c);
        if fed.is_err() {
            break;
        }
    }
    let reread = p.reread;
    let one = Bump::new();
    let want = RunAgentInput::parse(doc, &one).map(|d| format!("{d:?}"));
    let got = match fed {
        Err(e) => Err(e),
        Ok(_) => p.finish().map(|d| format!("{d:?}")),
    };
    assert_eq!(
        got,
        want,
        "{}",
        String::from_utf8_lossy(&doc[..doc.len().min(200)])
    );
    reread
}

fn ws(n: usize) -> String {
    // All four whitespace bytes, so no byte-specific fast path hides a rescan.
    " \n\t\r".repeat(n / 4)
}

fn digits(n: usize) -> String {
    "1234567890".repeat(n / 10)
}

/// A raw object of about `n` bytes of small records (the `stream` bench's `state`), walked
/// over the structural index, resumably.
fn records(n: usize) -> String {
    let mut s = String::from(r#"{"items":["#);
    let mut i = 0;
    while s.len() < n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            r#"{{"id":{i},"name":"item-{i}","tags":["a","bb","ccc"],"score":{}.25,"nested":{{"ok":true,"v":[1,2,{{"deep":null}}]}}}}"#,
            i % 1000
        ));
        i += 1;
    }
    s.push_str("]}");
    s
}

const HEAD: &str = r#"{"threadId":"t","runId":"r","messages":[]"#;

/// A named body of about `n` bytes.
type Shape = (&'static str, fn(usize) -> String);

/// Every place a long run can sit.
fn shapes() -> Vec<Shape> {
    vec![
        ("whitespace before the document", |n| {
            format!("{}{HEAD}}}", ws(n))
        }),
        ("whitespace after the document", |n| {
            format!("{HEAD}}}{}", ws(n))
        }),
        ("whitespace between top-level fields", |n| {
            format!(r#"{{"threadId":"t",{}"runId":"r","messages":[]}}"#, ws(n))
        }),
        ("whitespace after a top-level comma and before a key", |n| {
            format!(r#"{{"threadId":"t" ,{} "runId":"r","messages":[]}}"#, ws(n))
        }),
        ("whitespace before a top-level colon", |n| {
            format!(r#"{{"threadId"{}:"t","runId":"r","messages":[]}}"#, ws(n))
        }),
        ("whitespace after a top-level colon", |n| {
            format!(r#"{{"threadId":{}"t","runId":"r","messages":[]}}"#, ws(n))
        }),
        ("whitespace before the closing brace", |n| {
            format!("{HEAD}{}}}", ws(n))
        }),
        ("whitespace inside an empty list", |n| {
            format!(r#"{{"threadId":"t","runId":"r","messages":[{}]}}"#, ws(n))
        }),
        ("whitespace between list items", |n| {
            let m = r#"{"id":"1","role":"user","content":"x"}"#;
            format!(
                r#"{{"threadId":"t","runId":"r","messages":[{m}{},{}{m}{}]}}"#,
                ws(n / 3),
                ws(n / 3),
                ws(n / 3)
            )
        }),
        ("whitespace between the fields of a message", |n| {
            format!(
                r#"{{"threadId":"t","runId":"r","messages":[{{"id":"1",{}"role":"user","content":"x"}}]}}"#,
                ws(n)
            )
        }),
        ("whitespace inside a content part list", |n| {
            format!(
                r#"{{"threadId":"t","runId":"r","messages":[{{"id":"1","role":"user","content":[{}{{"type":"text","text":"x"}}]}}]}}"#,
                ws(n)
            )
        }),
        ("whitespace inside a raw state", |n| {
            format!(
                r#"{HEAD},"state":{{"a":{}[1,{}2]{}}}}}"#,
                ws(n / 3),
                ws(n / 3),
                ws(n / 3)
            )
        }),
        ("whitespace before a raw state", |n| {
            format!(r#"{HEAD},"state":{}{{}}}}"#, ws(n))
        }),
        ("a long number as the state", |n| {
            format!(r#"{HEAD},"state":{}}}"#, digits(n))
        }),
        ("a long number inside the state", |n| {
            format!(r#"{HEAD},"state":{{"n":-{}}}}}"#, digits(n))
        }),
        ("a long fraction inside the state", |n| {
            format!(r#"{HEAD},"state":[0.{}]}}"#, digits(n))
        }),
        ("a long exponent inside the state", |n| {
            format!(r#"{HEAD},"state":[1.5E+{}]}}"#, digits(n))
        }),
        ("a long number in an unknown top-level field", |n| {
            format!(r#"{HEAD},"x":{}}}"#, digits(n))
        }),
        ("a long number in an unknown field of a message", |n| {
            format!(
                r#"{{"threadId":"t","runId":"r","messages":[{{"id":"1","role":"user","x":{},"content":"x"}}]}}"#,
                digits(n)
            )
        }),
        ("a long key", |n| {
            format!(r#"{HEAD},"{}":1}}"#, "k".repeat(n))
        }),
        ("a long key inside the state", |n| {
            format!(r#"{HEAD},"state":{{"{}":1}}}}"#, "k".repeat(n))
        }),
        ("many literals inside the state", |n| {
            format!(
                r#"{HEAD},"state":[{}null]}}"#,
                "true,false,null,".repeat(n / 16)
            )
        }),
        ("many short values in a message's metadata", |n| {
            format!(
                r#"{{"threadId":"t","runId":"r","messages":[{{"id":"1","role":"user","content":"x","metadata":[{}0]}}]}}"#,
                "1,".repeat(n / 2)
            )
        }),
        ("a large state of small records", |n| {
            format!(r#"{HEAD},"state":{}}}"#, records(n))
        }),
        ("a large tool parameters object of small records", |n| {
            format!(
                r#"{HEAD},"tools":[{{"name":"f","description":"d","parameters":{}}}]}}"#,
                records(n)
            )
        }),
        ("an invalid number after a long run", |n| {
            format!(r#"{HEAD},"state":[{}.x]}}"#, digits(n))
        }),
    ]
}

#[test]
fn every_long_run_is_read_about_once() {
    let (small, large) = (256 << 10, 1 << 20);
    let mut report = String::new();
    let mut failed = Vec::new();
    for (name, make) in shapes() {
        let (a, b) = (make(small), make(large));
        let (ra, rb) = (reread(a.as_bytes(), CHUNK), reread(b.as_bytes(), CHUNK));
        report.push_str(&format!(
            "{name}: {ra} of {}, {rb} of {}\n",
            a.len(),
            b.len()
        ));
        // Re-reading a chunk's worth per pass at most would be a quarter of the body here;
        // rescanning a run from its start is N^2 / 8192: 8 MB and 134 MB.
        if !(ra <= a.len() / 4 && rb <= b.len() / 4 && rb <= 4 * ra + 4 * CHUNK) {
            failed.push(name);
        }
    }
    eprintln!("{report}");
    assert!(failed.is_empty(), "re-read too much: {failed:?}\n{report}");
}

/// A 100 KB `state` fed a byte at a time: the index keeps its place from pass to pass, so
/// the bytes read again stay a fraction of the body (a number or a literal cut by the end of
/// the bytes is walked again from its start), not 100 KB per pass.
#[test]
fn a_large_state_in_one_byte_chunks() {
    let doc = format!(r#"{HEAD},"state":{}}}"#, records(100_000));
    let reread = reread(doc.as_bytes(), 1);
    eprintln!("one-byte chunks: re-read {reread} of {}", doc.len());
    assert!(reread <= doc.len(), "re-read {reread} of {}", doc.len());
}
