//! The streaming body parser (`agui_wire::stream::BodyParser`) against one-shot parsing, on
//! any bytes cut into chunks in many ways (one byte at a time, every single cut point, random
//! lengths; see `agui_wire_fuzz::split`), with the default options at serde_json's depth limit
//! and with tight limits:
//! - `finish` gives exactly what `RunAgentInput::parse_with` gives for the whole body: an
//!   equal model (whose every string and raw value is a slice of the `BodyBuf`, and whose JSON
//!   equals the one-shot model's), or the same error (kind, offset, path), except that
//!   `InputTooLarge` comes as soon as the bytes pass the limit;
//! - an error reported by `feed` is that same error, and is never reported before the byte at
//!   its offset has arrived;
//! - `Status::Complete(len)` comes with the chunk that delivers the closing brace (and `len`
//!   is where one-shot parsing ends the value), and then stays;
//! - the owning parser (`OwnedBodyParser`, fed the same chunks) answers every chunk as
//!   `BodyParser` does, and finishes into a `ParsedBody` equal to one-shot's document;
//! - all of it whatever length was announced (`BodyParser::expect_len`,
//!   `OwnedBodyParser::with_capacity`): none, the body's, shorter, longer, or absurd.
#![no_main]

use agui_wire::stream::{BodyBuf, BodyParser, OwnedBodyParser, Status};
use agui_wire::{Bump, Error, ErrorKind, ParseOptions, RunAgentInput};
use agui_wire_fuzz::drive::{strict, tight};
use agui_wire_fuzz::split::{self, Rng};
use agui_wire_fuzz::to_json::Conv;
use libfuzzer_sys::fuzz_target;

/// Where the top-level value ends in a body one-shot parsing accepts.
fn value_end(data: &[u8]) -> usize {
    data.len()
        - data
            .iter()
            .rev()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .count()
}

/// `want` is one-shot's error; `unlimited` one-shot's result without the size limit (a grammar or
/// protocol error that arrives before the limit is passed wins over `InputTooLarge`).
fn same_error(
    got: &Error,
    want: &Error,
    unlimited: &Option<Error>,
    opts: &ParseOptions,
    fed: usize,
) {
    if let ErrorKind::InputTooLarge { len, limit } = got.kind() {
        assert_eq!(*limit, opts.max_input_bytes);
        assert!(
            *len > *limit && *len <= fed,
            "InputTooLarge len {len}, fed {fed}"
        );
        return;
    }
    let want = match (want.kind(), unlimited) {
        (ErrorKind::InputTooLarge { .. }, Some(u)) => u,
        (ErrorKind::InputTooLarge { .. }, None) => {
            panic!("{got} on a body accepted but for its size")
        }
        _ => want,
    };
    assert_eq!(
        (got.kind(), got.offset(), got.path()),
        (want.kind(), want.offset(), want.path()),
        "streamed error differs from one-shot"
    );
}

fn check(
    data: &[u8],
    lengths: &[usize],
    announced: Option<usize>,
    opts: &ParseOptions,
    one_shot: &Result<RunAgentInput<'_>, Error>,
    unlimited: &Option<Error>,
) {
    let (buf, arena) = (BodyBuf::new(), Bump::new());
    let mut parser = BodyParser::with_options(&buf, &arena, opts.clone());
    let mut owned = match announced {
        Some(len) => {
            parser.expect_len(len);
            // The owning parser also reserves its buffer from it: kept to a few times the
            // body here so that the fuzzer's memory stays small.
            OwnedBodyParser::with_capacity(opts.clone(), len.min(4 * data.len() + 64))
        }
        None => OwnedBodyParser::new(opts.clone()),
    };
    let mut fed = 0;
    let mut complete = None;
    for chunk in split::cut(data, lengths) {
        fed += chunk.len();
        let status = parser.feed(chunk);
        assert_eq!(owned.feed(chunk), status, "the owning parser differs");
        match status {
            Ok(Status::Partial) => assert!(complete.is_none(), "Complete, then Partial"),
            Ok(Status::Complete(len)) => {
                assert!(len <= fed);
                if let Some(first) = complete {
                    assert_eq!(first, len, "Complete moved");
                } else {
                    assert!(
                        len > fed - chunk.len(),
                        "Complete({len}) reported late, at {fed}"
                    );
                    complete = Some(len);
                }
            }
            Err(e) => {
                let want = one_shot.as_ref().err().unwrap_or_else(|| {
                    panic!("feed fails ({e}) on a body one-shot parsing accepts")
                });
                same_error(&e, want, unlimited, opts, fed);
                assert!(
                    e.offset() < fed,
                    "error at {} reported after {fed} bytes",
                    e.offset()
                );
                return;
            }
        }
    }
    let owned = owned.finish();
    match (parser.finish(), one_shot) {
        (Ok(doc), Ok(want)) => {
            let parsed = owned.expect("the owning parser fails where BodyParser does not");
            assert_eq!(parsed.input(), want, "owning parser's model differs");
            assert_eq!(parsed.bytes(), data);
            assert_eq!(&doc, want, "streamed model differs");
            assert_eq!(complete, Some(value_end(data)), "Complete({complete:?})");
            let all = buf.as_bytes();
            let locate = |part: &[u8]| buf.offset_of(part);
            let streamed = Conv::borrowed_via(all, &locate).input(&doc);
            assert_eq!(streamed, Conv::owned().input(want));
        }
        (Err(e), Err(want)) => {
            assert_eq!(owned.err(), Some(e.clone()), "the owning parser differs");
            same_error(&e, want, unlimited, opts, fed)
        }
        (Ok(_), Err(want)) => panic!("streamed body accepted, one-shot says {want}"),
        (Err(e), Ok(_)) => panic!("streamed body rejected ({e}), one-shot accepts"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut rng = Rng::for_input(data, 0xc4);
    // `strict` is the default options at serde_json's depth limit, so the models can be compared
    // through serde_json values.
    for opts in [strict(), tight(data.len())] {
        let arena = Bump::new();
        let one_shot = RunAgentInput::parse_with(data, &arena, &opts);
        let no_limit = ParseOptions {
            max_input_bytes: usize::MAX,
            ..opts.clone()
        };
        let unlimited = RunAgentInput::parse_with(data, &arena, &no_limit).err();
        for lengths in split::chunkings(data.len(), &mut rng) {
            let announced = match rng.range(0, 6) {
                0 => None,
                1 => Some(data.len()),
                2 => Some(rng.range(0, data.len() + 1)),
                3 => Some(data.len() + rng.range(1, 8 * data.len() + 2)),
                4 => Some(data.len().saturating_mul(1000)),
                _ => Some(usize::MAX),
            };
            check(data, &lengths, announced, &opts, &one_shot, &unlimited);
        }
    }
});
