//! The differential driver for whole-document parsers (`RunAgentInput`, `AgentCapabilities`).
//!
//! One input is parsed four ways and the results are held against serde_json and against each
//! other:
//!
//! 1. strict, at serde_json's depth limit: when it accepts, serde_json must accept and the
//!    model, turned into JSON by [`Conv`], must equal serde_json's value; when it rejects a
//!    document serde_json accepts, the error must be a protocol error, not a grammar one;
//! 2. lenient (`null` as absent): accepts whatever strict accepts, with the same model, and
//!    never accepts what serde_json rejects;
//! 3. with tight limits derived from the input's length: accepts only what strict accepts, with
//!    the same model, and otherwise fails with a limit error exactly when a limit is crossed.
//!
//! Every error must point inside the input, carry the path `json_path_at` computes, and print.

use std::fmt::Debug;

use agui_wire::{AgentCapabilities, Bump, Error, ErrorClass, ErrorKind, ParseOptions, RunAgentInput};
use serde_json::Value;

use crate::oracle::{self, SERDE_DEPTH, Verdict};
use crate::to_json::Conv;

/// A document type the driver can parse and convert.
pub trait Document<'a>: Sized + PartialEq + Debug + Clone {
    /// Parses `input` with `options`.
    fn parse_with(input: &'a [u8], arena: &'a Bump, options: &ParseOptions) -> Result<Self, Error>;
    /// The model as JSON.
    fn to_value(&self, conv: &Conv<'_>) -> Value;
    /// A copy that owns its data, seen at the original lifetime.
    fn owned(&self) -> Self;
    /// Brings serde_json's value of the input to the form the model is written in, where the
    /// protocol reads a field more loosely than JSON equality (numbers spelled differently).
    fn normalize(_serde: &mut Value) {}
}

impl<'a> Document<'a> for RunAgentInput<'a> {
    fn parse_with(input: &'a [u8], arena: &'a Bump, options: &ParseOptions) -> Result<Self, Error> {
        RunAgentInput::parse_with(input, arena, options)
    }
    fn to_value(&self, conv: &Conv<'_>) -> Value {
        conv.input(self)
    }
    fn owned(&self) -> Self {
        self.clone().into_owned()
    }
}

impl<'a> Document<'a> for AgentCapabilities<'a> {
    fn parse_with(input: &'a [u8], arena: &'a Bump, options: &ParseOptions) -> Result<Self, Error> {
        AgentCapabilities::parse_with(input, arena, options)
    }
    fn to_value(&self, conv: &Conv<'_>) -> Value {
        conv.capabilities(self)
    }
    fn owned(&self) -> Self {
        self.clone().into_owned()
    }
    /// `execution.maxIterations` and `maxExecutionTime` are integers however spelled
    /// (`10`, `10.0`, `1e1`), at most 2^53 - 1.
    fn normalize(serde: &mut Value) {
        let Some(exec) = serde.get_mut("execution").and_then(Value::as_object_mut) else {
            return;
        };
        for key in ["maxIterations", "maxExecutionTime"] {
            if let Some(v @ Value::Number(_)) = exec.get_mut(key) {
                let text = v.to_string();
                if let Some(n) = oracle::integral(&text).filter(|&n| n < 1 << 53) {
                    *v = Value::from(n as u64);
                }
            }
        }
    }
}

/// Whether `kind` says the bytes are not JSON (as opposed to JSON the protocol rejects).
pub fn is_grammar(kind: &ErrorKind) -> bool {
    kind.class() == ErrorClass::Syntax
}

/// Whether `e` is an `InvalidEscape` at a `\\u` escape whose digits hold a byte that is not a
/// hex digit and that the input ends within (of the escape, or of the `\\u` after a high
/// surrogate): serde_json reads the four digit bytes before it looks at them, so it says "EOF"
/// there, where we say what no further byte could mend (a parser fed in chunks must not
/// wait for more bytes to report it).
pub fn escape_wrong_before_the_end(data: &[u8], e: &Error) -> bool {
    if e.kind() != &ErrorKind::InvalidEscape {
        return false;
    }
    let at = e.offset();
    if data.get(at..at + 2) != Some(b"\\u") {
        return false;
    }
    let hex = |b: &[u8]| b.iter().all(u8::is_ascii_hexdigit);
    let high = |d: &[u8]| {
        std::str::from_utf8(d)
            .ok()
            .and_then(|t| u32::from_str_radix(t, 16).ok())
            .is_some_and(|u| (0xD800..0xDC00).contains(&u))
    };
    let digits = match data.get(at + 2..at + 6) {
        Some(d) if hex(d) && high(d) && data.get(at + 6..at + 8) == Some(b"\\u") => at + 8,
        _ => at + 2,
    };
    let rest = data.get(digits..).unwrap_or_default();
    rest.len() < 4 && !hex(rest)
}

/// Sanity of any error reported for `data`: in bounds, located, printable.
pub fn check_error(data: &[u8], e: &Error) {
    assert!(
        e.offset() <= data.len(),
        "error offset {} past the end ({} bytes): {e}",
        e.offset(),
        data.len()
    );
    assert_eq!(
        e.path(),
        agui_wire::json_path_at(data, e.offset()),
        "error path is not the path of its offset: {e}"
    );
    let shown = e.to_string();
    assert!(
        shown.ends_with(&format!("(byte {})", e.offset())),
        "error message does not end with its offset: {shown}"
    );
}

/// Options at serde_json's depth limit, so that both stop at the same nesting.
pub fn strict() -> ParseOptions {
    ParseOptions {
        max_depth: SERDE_DEPTH,
        ..ParseOptions::default()
    }
}

/// Tight limits chosen from the input's length (so the seed corpus stays plain JSON).
pub fn tight(len: usize) -> ParseOptions {
    ParseOptions {
        max_input_bytes: if len.is_multiple_of(13) {
            len.saturating_sub(1)
        } else {
            len
        },
        max_depth: 1 + len % 7,
        max_messages: len % 5,
        max_list_items: (len / 5) % 5,
        null_as_absent: false,
    }
}

/// Runs the parses of `data` and every comparison described in the module docs.
pub fn check_document<'a, D: Document<'a>>(data: &'a [u8], arenas: &'a [Bump; 4]) {
    let verdict = oracle::serde(data);
    let strict_opts = strict();
    let strict = D::parse_with(data, &arenas[0], &strict_opts);
    let serde_value = match &verdict {
        Verdict::Accept(v) => Some(v),
        _ => None,
    };
    match (&strict, &verdict) {
        (Ok(doc), Verdict::Accept(v)) => {
            let mine = doc.to_value(&Conv::borrowed_from(data));
            let mut want = v.clone();
            D::normalize(&mut want);
            assert_eq!(mine, want, "model differs from serde_json's reading");
            assert_eq!(&doc.owned(), doc, "into_owned changed the model");
        }
        (Ok(_), Verdict::Reject(msg)) => panic!("accepted what serde_json rejects: {msg}"),
        (Ok(_), Verdict::TooDeep) => {
            panic!("accepted nesting deeper than max_depth = {SERDE_DEPTH}")
        }
        (Ok(doc), Verdict::Unknown) => {
            doc.to_value(&Conv::borrowed_from(data));
        }
        (Err(e), Verdict::Accept(_)) => {
            assert!(
                !is_grammar(e.kind()),
                "grammar error on a document serde_json accepts: {e}"
            );
            check_error(data, e);
        }
        (Err(e), _) => check_error(data, e),
    }

    let lenient_opts = ParseOptions {
        null_as_absent: true,
        ..strict_opts.clone()
    };
    let lenient = D::parse_with(data, &arenas[1], &lenient_opts);
    match (&lenient, &strict) {
        (Ok(l), Ok(s)) => assert_eq!(l, s, "lenient and strict differ on a strict document"),
        (Err(e), Ok(_)) => panic!("lenient rejects what strict accepts: {e}"),
        (Ok(l), Err(_)) => {
            assert!(
                !matches!(verdict, Verdict::Reject(_) | Verdict::TooDeep),
                "lenient accepted what serde_json rejects"
            );
            l.to_value(&Conv::borrowed_from(data));
        }
        (Err(e), Err(_)) => check_error(data, e),
    }

    let tight_opts = tight(data.len());
    let tight = D::parse_with(data, &arenas[2], &tight_opts);
    match (&tight, &strict) {
        (Ok(t), Ok(s)) => {
            assert_eq!(t, s, "tight limits changed the model");
            if serde_value.is_some() {
                assert!(
                    oracle::depth(data) <= tight_opts.max_depth,
                    "accepted depth {} over max_depth {}",
                    oracle::depth(data),
                    tight_opts.max_depth
                );
            }
        }
        (Ok(_), Err(e)) => panic!("tight limits accept what strict rejects: {e}"),
        (Err(e), Ok(_)) => {
            check_error(data, e);
            match e.kind() {
                ErrorKind::DepthLimitExceeded(d) => {
                    assert_eq!(*d, tight_opts.max_depth);
                    if serde_value.is_some() {
                        assert!(oracle::depth(data) > *d, "depth error below the limit: {e}");
                    }
                }
                ErrorKind::TooManyItems { limit, what } => {
                    let want = if *what == "messages" {
                        tight_opts.max_messages
                    } else {
                        tight_opts.max_list_items
                    };
                    assert!(
                        *limit == want || (*what == "unknown fields" && *limit <= want),
                        "wrong limit in {e}"
                    );
                }
                ErrorKind::InputTooLarge { len, limit } => {
                    assert_eq!((*len, *limit), (data.len(), tight_opts.max_input_bytes));
                    assert_eq!(e.offset(), 0);
                }
                _ => panic!("tight limits give a non-limit error on a strict document: {e}"),
            }
        }
        (Err(e), Err(_)) => check_error(data, e),
    }

    // The real defaults differ from `strict` only in depth.
    let default = D::parse_with(data, &arenas[3], &ParseOptions::default());
    match (&default, &strict) {
        (Ok(d), Ok(s)) => assert_eq!(d, s, "default options changed the model"),
        (Err(e), Ok(_)) => panic!("default options reject what strict accepts: {e}"),
        (Ok(_), Err(e)) => assert_eq!(
            e.kind(),
            &ErrorKind::DepthLimitExceeded(SERDE_DEPTH),
            "strict rejects what the defaults accept, not for depth: {e}"
        ),
        (Err(e), Err(_)) => check_error(data, e),
    }
}
