//! The scanner's unit tests: grammar, strings and escapes around the blocks, errors.

use super::*;

/// Both string readers on `doc`, each with where its cursor stopped: the short-string one and
/// the one for long texts ([`Cursor::text_string`], which takes the blocks by masks), which
/// must agree on every string and every error.
fn both_readers<'a>(doc: &'a [u8]) -> [(RawResult<StrToken<'a>>, usize); 2] {
    let read = |text: bool| {
        let mut c = Cursor::new(doc);
        let t = if text { c.text_string() } else { c.string() };
        (t, c.pos)
    };
    [read(false), read(true)]
}

/// Escapes at every offset around the 64-byte blocks: two-byte escapes (an escaped quote
/// or backslash, whose second byte is special too), `\\` then `\"`, and a surrogate pair
/// (whose second backslash is special) straddling a block's end. The string ends where
/// a byte loop says, and is marked escaped.
#[test]
fn escapes_across_blocks() {
    for esc in [
        r#"\""#,
        r"\\",
        r#"\\\""#,
        r"\n",
        r"\ud83d\ude00",
        r"\u00e9",
        r"\uD7FF",
        r"\uFfFf",
        r"\u0000",
    ] {
        for before in 0..140 {
            let body = format!("{}{esc}{}", "a".repeat(before), "b".repeat(before % 7));
            let doc = format!("\"{body}\"{}", " ".repeat(80));
            for (text, (t, pos)) in both_readers(doc.as_bytes()).into_iter().enumerate() {
                let t = t.unwrap();
                assert_eq!(
                    (t.raw, t.escaped, pos),
                    (&body[..], true, body.len() + 2),
                    "{doc} (text reader: {})",
                    text == 1
                );
            }
        }
    }
}

/// Bad `\u` escapes at every offset around the blocks: the same error, at the backslash,
/// whether the inline look or `escape` sees them.
#[test]
fn bad_unicode_escapes_across_blocks() {
    for (esc, kind) in [
        (r"\u12G4", ErrorKind::InvalidEscape),
        (r"\u/000", ErrorKind::InvalidEscape),
        (r"\u:000", ErrorKind::InvalidEscape),
        (r"\u00`0", ErrorKind::InvalidEscape),
        (r"\u00g0", ErrorKind::InvalidEscape),
        (r"\u00é", ErrorKind::InvalidEscape),
        (r"\uDC00", ErrorKind::LoneSurrogate),
        (r"\ud800x", ErrorKind::LoneSurrogate),
    ] {
        for before in 0..140 {
            let doc = format!("\"{}{esc}b\"{}", "a".repeat(before), " ".repeat(80));
            for (e, _) in both_readers(doc.as_bytes()) {
                let e = e.unwrap_err();
                assert_eq!((e.kind, e.offset), (kind.clone(), before + 1), "{doc}");
            }
        }
    }
}

/// A bad escape in a block that also holds good ones of each kind (a `\u` escape, a surrogate
/// pair, a two-byte escape), before or after it, at every offset around the blocks: the
/// blocks by masks check a block's `\u` escapes only when it has one, and must still catch
/// every bad escape, in blocks with a `\u` or without, at the same offset as the byte loop.
#[test]
fn bad_escapes_beside_good_ones() {
    let bad = [
        (r"\q", ErrorKind::InvalidEscape),
        (r"\u12G4", ErrorKind::InvalidEscape),
        (r"\uDC00", ErrorKind::LoneSurrogate),
        (r"\ud800x", ErrorKind::LoneSurrogate),
        (r"\ud83d\u0041", ErrorKind::LoneSurrogate),
    ];
    for (esc, kind) in bad {
        for good in ["", r"\u00e9", r"\n", r"\ud83d\ude00", r"\\\u2615"] {
            for before in 0..140 {
                let pad = "x".repeat(before % 5);
                let lead = "a".repeat(before);
                for good_after in [false, true] {
                    let (head, tail) = if good_after { ("", good) } else { (good, "") };
                    let doc = format!("\"{lead}{head}{pad}{esc}{tail}b\"{}", " ".repeat(80));
                    let at = 1 + lead.len() + head.len() + pad.len();
                    for (e, _) in both_readers(doc.as_bytes()) {
                        let e = e.unwrap_err();
                        assert_eq!((e.kind, e.offset), (kind.clone(), at), "{doc}");
                    }
                }
            }
        }
    }
}

fn ok(s: &str) -> bool {
    validate_document(s.as_bytes(), 128).is_ok()
}

#[test]
fn grammar_accepts() {
    for s in [
        "0",
        "-0",
        "1.5",
        "-1.5e10",
        "1E+2",
        "1e-2",
        "true",
        "false",
        "null",
        "\"\"",
        "\"a\\\"b\"",
        "\"\\u00e9\"",
        "\"\\ud83d\\ude00\"",
        "[]",
        "{}",
        "[1,[2,{}]]",
        "{\"a\":{\"b\":[null]}}",
        " \t\n\r[ 1 , 2 ] ",
        "\"é😀\"",
        "123456789012345678901234567890",
    ] {
        assert!(ok(s), "{s}");
    }
}

#[test]
fn grammar_rejects() {
    for s in [
        "",
        " ",
        "01",
        "-",
        "1.",
        ".5",
        "1e",
        "+1",
        "[1,]",
        "{,}",
        "{\"a\"}",
        "{\"a\":}",
        "[1 2]",
        "tru",
        "nul",
        "nulll",
        "\"\\x\"",
        "\"\\ud800\"",
        "\"\\udc00\"",
        "\"\\ud800\\u0041\"",
        "\"a",
        "[",
        "{\"a\":1,}",
        "\"\t\"",
        "1 2",
        "NaN",
        "Infinity",
        "{'a':1}",
        "[1]]",
        "\u{feff}1",
        "-01",
        "1.e5",
    ] {
        assert!(!ok(s), "{s:?}");
    }
    assert!(validate_document(b"\"\xff\"", 128).is_err());
    assert!(validate_document(b"\"\xc0\xaf\"", 128).is_err(), "overlong");
    assert!(
        validate_document(b"\"\xed\xa0\x80\"", 128).is_err(),
        "encoded surrogate"
    );
}

#[test]
fn truncated_surrogate_pair_is_eof() {
    // Found by fuzz/json_grammar: `"\ud800\` at the end of input was a lone surrogate.
    for doc in [
        &b"\"\\ud800"[..],
        b"\"\\ud800\\",
        b"\"\\ud800\\u",
        b"\"\\ud800\\udc0",
    ] {
        let e = validate_document(doc, 128).unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::UnexpectedEof, 1), "{doc:?}");
    }
    let e = validate_document(b"\"\\ud800\\n\"", 128).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::LoneSurrogate, 1));
    let e = validate_document(b"\"\\ud800x\"", 128).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::LoneSurrogate, 1));
}

#[test]
fn offsets() {
    let e = validate_document(b"[1,\"a\\qb\"]", 128).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::InvalidEscape, 5));
    let e = validate_document(b"{\"a\":[1,2}", 128).unwrap_err();
    assert_eq!(e.offset, 9);
    let e = validate_document(b"[\"abc\xffdef\"]", 128).unwrap_err();
    assert_eq!((e.kind, e.offset), (ErrorKind::InvalidUtf8, 5));
}

#[test]
fn utf8_is_checked_for_exactly_the_string() {
    // A string's UTF-8 check must see every byte >= 0x80 before its closing quote, wherever
    // it falls in the 64-byte blocks (and after escapes), and ASCII strings next to
    // non-ASCII ones stay valid.
    for len in 0..140 {
        for at in 0..len {
            let mut bad = vec![b'a'; len];
            bad[at] = 0xFF;
            if at > 2 {
                bad[at - 2] = b'\\';
                bad[at - 1] = b'n';
            }
            let mut doc = vec![b'"'];
            doc.extend_from_slice(&bad);
            doc.extend_from_slice("\",\"é\"".as_bytes());
            let mut arr = vec![b'['];
            arr.extend_from_slice(&doc);
            arr.push(b']');
            let e = validate_document(&arr, 8).unwrap_err();
            assert_eq!(
                (e.kind, e.offset),
                (ErrorKind::InvalidUtf8, 2 + at),
                "{len} {at}"
            );
            // The same with the byte valid: the whole array is fine.
            let good = String::from_utf8_lossy(&arr).replace('\u{fffd}', "é");
            assert!(validate_document(good.as_bytes(), 8).is_ok(), "{good}");
        }
    }
}

#[test]
fn digit_runs_match_the_bytewise_count() {
    // Every byte value at every place of a word, and runs crossing word boundaries.
    for b in 0u8..=255 {
        for at in 0..10 {
            let mut v = vec![b'7'; 20];
            v[at] = b;
            let want =
                |from: usize| from + v[from..].iter().take_while(|c| c.is_ascii_digit()).count();
            for from in [0, 1, at.saturating_sub(1), at] {
                assert_eq!(
                    digits(&v, from),
                    want(from),
                    "byte {b:#x} at {at} from {from}"
                );
            }
        }
    }
    assert_eq!(digits(b"", 0), 0);
    assert_eq!(digits(b"12345678901234567890", 0), 20);
    assert_eq!(digits(b"12", 5), 5);
}

#[test]
fn deep_nesting_is_bounded() {
    let deep = "[".repeat(1_000_000);
    let e = validate_document(deep.as_bytes(), 512).unwrap_err();
    assert_eq!(e.kind, ErrorKind::DepthLimitExceeded(512));
    let fine = format!("{}{}", "[".repeat(512), "]".repeat(512));
    assert!(validate_document(fine.as_bytes(), 512).is_ok());
    let too = format!("{}{}", "[".repeat(513), "]".repeat(513));
    assert!(validate_document(too.as_bytes(), 512).is_err());
    let deep_ok = format!("{}1{}", "[{\"a\":".repeat(5000), "}]".repeat(5000));
    assert!(validate_document(deep_ok.as_bytes(), 20_000).is_ok());
}

#[test]
fn whitespace_is_counted() {
    let mut c = Cursor::new(b"[1, 2]");
    c.skip_value(0, 10).unwrap();
    assert_eq!(c.ws, 1);
}
