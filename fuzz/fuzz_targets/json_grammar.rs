//! `validate_json` (the raw-value validator behind every JSON-valued field) against serde_json
//! on any bytes: accept for accept and reject for reject at serde_json's depth limit, the same
//! kind of value, "unexpected end of input" exactly when serde_json says EOF (but for a `\u`
//! escape already wrong when the input ends, which serde_json calls EOF and we an invalid
//! escape: `drive::escape_wrong_before_the_end`), the depth limit
//! applied exactly (checked at a small limit against the value's real depth), and
//! `RawJson::from_text` agreeing with `validate_json` on text.
#![no_main]

use agui_wire::{ErrorKind, ParseOptions, RawJson, json_path_at, validate_json};
use agui_wire_fuzz::drive::{check_error, escape_wrong_before_the_end, is_grammar, strict};
use agui_wire_fuzz::oracle::{self, SERDE_DEPTH, Verdict};
use libfuzzer_sys::fuzz_target;

fn depth_opts(max_depth: usize) -> ParseOptions {
    ParseOptions {
        max_depth,
        ..ParseOptions::default()
    }
}

fuzz_target!(|data: &[u8]| {
    let verdict = oracle::serde(data);

    // At serde_json's own depth limit the two must agree on everything.
    let mine = validate_json(data, &strict());
    match (&mine, &verdict) {
        (Ok(kind), Verdict::Accept(v)) => assert_eq!(*kind, oracle::kind(v), "kind"),
        (Ok(_), Verdict::Reject(msg)) => panic!("accepted what serde_json rejects: {msg}"),
        (Ok(_), Verdict::TooDeep) => panic!("accepted deeper than {SERDE_DEPTH}"),
        (Err(e), Verdict::Accept(_)) => panic!("rejected what serde_json accepts: {e}"),
        (Err(e), Verdict::Reject(msg)) => {
            check_error(data, e);
            assert!(is_grammar(e.kind()), "not a grammar error: {e}");
            let serde_eof = msg.starts_with("EOF while parsing");
            assert!(
                matches!(e.kind(), ErrorKind::UnexpectedEof) == serde_eof
                    || serde_eof && escape_wrong_before_the_end(data, e),
                "end-of-input disagreement: ours {e:?}, serde_json {msg}"
            );
        }
        (Err(e), Verdict::TooDeep) => {
            // serde_json reached its limit before any grammar error, so must we.
            assert_eq!(e.kind(), &ErrorKind::DepthLimitExceeded(SERDE_DEPTH), "{e}");
            check_error(data, e);
        }
        (_, Verdict::Unknown) => {}
    }

    // A small limit: accepted exactly when the value is no deeper.
    let d = data.len() % 9;
    let small = validate_json(data, &depth_opts(d));
    match (&small, &verdict) {
        (Ok(_), Verdict::Accept(_)) => assert!(oracle::depth(data) <= d, "depth over {d}"),
        (Err(e), Verdict::Accept(_)) => {
            assert_eq!(e.kind(), &ErrorKind::DepthLimitExceeded(d), "{e}");
            assert!(
                oracle::depth(data) > d,
                "depth error at depth {}",
                oracle::depth(data)
            );
            check_error(data, e);
        }
        (Ok(_), Verdict::Reject(msg)) => {
            panic!("accepted at depth {d} what serde_json rejects: {msg}")
        }
        (Err(e), _) => check_error(data, e),
        (Ok(_), _) => {}
    }

    // No practical limit: deeper than serde_json, otherwise the same answer.
    let deep = validate_json(data, &depth_opts(1 << 20));
    match (&deep, &mine) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Ok(_), Err(e)) => assert_eq!(e.kind(), &ErrorKind::DepthLimitExceeded(SERDE_DEPTH), "{e}"),
        (Err(e), Ok(_)) => panic!("a higher depth limit rejects: {e}"),
        (Err(a), Err(b)) => {
            check_error(data, a);
            if !matches!(b.kind(), ErrorKind::DepthLimitExceeded(_)) {
                assert_eq!(
                    (a.kind(), a.offset()),
                    (b.kind(), b.offset()),
                    "depth limit moved the error"
                );
            }
        }
    }

    // The same validator behind `RawJson::from_text`, which also trims.
    if let Ok(text) = std::str::from_utf8(data) {
        match (
            RawJson::from_text(text),
            validate_json(data, &ParseOptions::default()),
        ) {
            (Ok(raw), Ok(kind)) => {
                assert_eq!(raw.kind(), kind);
                assert_eq!(raw.text(), text.trim_matches([' ', '\t', '\n', '\r']));
                let owned = RawJson::from_string(text.to_owned()).expect("from_string");
                assert_eq!(owned, raw);
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            (a, b) => panic!("RawJson::from_text {a:?} but validate_json {b:?}"),
        }
    }

    // Paths of arbitrary offsets, valid JSON or not: no panic, no hang.
    for at in [0, data.len() / 3, data.len() / 2, data.len()] {
        let _ = json_path_at(data, at);
    }
});
