//! What the scanner remembers between two passes over a growing buffer.
//!
//! The streaming parser ([`crate::stream`]) parses the bytes received so far, stops with
//! `UnexpectedEof` where they end, and tries again when more have come. Two tokens can be
//! arbitrarily long, so a retry must not rescan them from their start:
//!
//! - a string: [`StrSlot`] holds how far the scan of the string at one offset got, and its
//!   flags; a retry that reaches the same opening quote continues from there;
//! - a raw JSON value (`state`, `metadata`, unknown fields): [`SkipSlot`] holds the validator's
//!   whole state (position, open containers, the step it was at), taken at the point where the
//!   bytes ran out; a retry that reaches the same value start continues from there.
//!
//! A slot is a fact about the bytes, which never change once received: "the string whose quote
//! is at `q` has been scanned, validly, up to `at`". It stays true for the rest of the parse,
//! so a slot is also kept after its token completed (a retry of the enclosing message then
//! crosses a finished 64 MB string in one step).
//!
//! [`Resume::partial`] marks a pass over a buffer that may still grow: the decision that looks
//! past the current byte (a number running into the end of the buffer: more digits may follow)
//! then reports `UnexpectedEof` instead of a verdict, so that every other error found on a
//! prefix is the error the whole document gives.

use super::BitStack;
use crate::model::JsonKind;

/// Strings and raw values shorter than this are cheap to rescan and are not remembered once
/// complete (an incomplete one always is).
pub(crate) const LONG_TOKEN: usize = 256;

/// How far the scan of one string got.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StrSlot {
    /// Offset of the opening quote (`usize::MAX`: empty slot).
    pub(crate) quote: usize,
    /// Where to continue scanning (a plain run ended here, or a backslash sits here).
    pub(crate) at: usize,
    pub(crate) escaped: bool,
    pub(crate) non_ascii: bool,
    /// The string is complete and valid: its closing quote is at `at`.
    pub(crate) done: bool,
}

impl StrSlot {
    pub(crate) const EMPTY: StrSlot = StrSlot {
        quote: usize::MAX,
        at: 0,
        escaped: false,
        non_ascii: false,
        done: false,
    };
}

/// The step the value validator was at; every step can be re-run from the saved position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// At `{` or `[`.
    Open,
    /// Just inside `{` or `[`: the container may still turn out empty.
    First,
    /// At an object key.
    Key,
    /// After a key, before its `:`.
    Colon,
    /// At a value.
    Value,
    /// After a value, before `,` or a closing bracket.
    After,
}

/// The validator's state inside one raw value.
#[derive(Debug)]
pub(crate) struct SkipSlot {
    /// Offset of the value's first byte.
    pub(crate) start: usize,
    /// Nesting depth of the value's container (the caller's `depth`).
    pub(crate) depth: usize,
    pub(crate) kind: JsonKind,
    /// Where to continue (or, when `done`, the end of the value).
    pub(crate) pos: usize,
    pub(crate) step: Step,
    pub(crate) stack: BitStack,
    /// Whitespace bytes skipped inside the value up to `pos`.
    pub(crate) ws: usize,
    pub(crate) done: bool,
}

/// The scanner's memory across passes, and the book-keeping of how much a pass re-read.
#[derive(Debug)]
pub(crate) struct Resume {
    /// The buffer may still grow (see the module docs).
    pub(crate) partial: bool,
    pub(crate) string: StrSlot,
    pub(crate) skip: Option<SkipSlot>,
    /// End of the buffer in the previous pass: bytes below it were read before.
    pub(crate) high: usize,
    /// Start of the stretch being read since the last jump.
    pub(crate) walk_from: usize,
    /// Bytes below `high` read again in this pass.
    pub(crate) reread: usize,
    /// The token where this pass ran out of bytes, if it was a string or a raw value: the
    /// next pass would re-descend straight back to it, so the driver may continue it directly.
    pub(crate) stopped_in: Stopped,
}

/// See [`Resume::stopped_in`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stopped {
    Elsewhere,
    /// In the string of [`Resume::string`].
    String,
    /// In the raw value of [`Resume::skip`].
    Value,
}

impl Resume {
    pub(crate) fn new() -> Resume {
        Resume {
            partial: true,
            string: StrSlot::EMPTY,
            skip: None,
            high: 0,
            walk_from: 0,
            reread: 0,
            stopped_in: Stopped::Elsewhere,
        }
    }

    /// Starts a pass over `len` bytes (`partial`: more may come).
    pub(crate) fn begin(&mut self, partial: bool) {
        self.partial = partial;
        self.walk_from = 0;
        self.reread = 0;
        self.stopped_in = Stopped::Elsewhere;
    }

    /// The reader moves from `from` to `to` without reading the bytes between (a slot or a
    /// saved frame let it jump, or it goes back to re-read a remembered field).
    #[inline]
    pub(crate) fn jump(&mut self, from: usize, to: usize) {
        let clip = |x: usize| x.min(self.high);
        self.reread += clip(from).saturating_sub(clip(self.walk_from));
        self.walk_from = to;
    }

    /// Ends a pass that read up to `end`; returns the bytes it read again.
    pub(crate) fn end(&mut self, end: usize) -> usize {
        self.jump(end, end);
        self.high = self.high.max(end);
        self.reread
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ErrorKind, RawResult};
    use crate::scanner::Cursor;
    use proptest::prelude::*;

    /// Validates `doc` as one value in passes over its prefixes ending at `cuts`, then whole.
    fn in_passes(doc: &[u8], cuts: &[usize]) -> RawResult<(JsonKind, usize, usize)> {
        let mut resume = Box::new(Resume::new());
        for &cut in cuts.iter().chain(std::iter::once(&doc.len())) {
            let partial = cut < doc.len();
            let mut c = Cursor::new(&doc[..cut]);
            resume.begin(partial);
            c.resume = Some(resume);
            let r = c.skip_value(0, 8).map(|k| (k, c.pos, c.ws));
            resume = c.resume.take().expect("given back");
            match r {
                Err(e) if partial && e.kind == ErrorKind::UnexpectedEof => continue,
                other => return other,
            }
        }
        unreachable!("the last pass is not partial")
    }

    fn whole(doc: &[u8]) -> RawResult<(JsonKind, usize, usize)> {
        let mut c = Cursor::new(doc);
        c.skip_value(0, 8).map(|k| (k, c.pos, c.ws))
    }

    fn check(doc: &[u8], cuts: &[usize]) {
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (doc.len() + 1)).collect();
        cuts.sort_unstable();
        // The whitespace count matters too: it decides whether a raw value is compact.
        assert_eq!(
            in_passes(doc, &cuts),
            whole(doc),
            "{:?} cut at {cuts:?}",
            String::from_utf8_lossy(doc)
        );
    }

    const VALUES: &[&str] = &[
        r#"{"a":[1,2.5e-3,{"b":"c\"d\u00e9\ud83d\ude00"}],"e":{},"f":[],"g":[[]],"h":true,"i":null}"#,
        " [ 1 , { \"k\" : [ false , \"x\" ] } , -0 , 1E+2 ] ",
        r#""a long string with \n escapes \\ and \/ and é and \uD83D\uDE00""#,
        "12345678901234567890",
        "[[[[[[[[1]]]]]]]]",
        "[[[[[[[[[1]]]]]]]]]",
    ];

    #[test]
    fn every_two_pass_split_of_values() {
        for v in VALUES {
            for cut in 0..=v.len() {
                check(v.as_bytes(), &[cut]);
            }
            check(v.as_bytes(), &(1..v.len()).collect::<Vec<_>>());
        }
    }

    proptest! {
        /// Random bytes from JSON's alphabet, mostly invalid: the verdict, the end and the
        /// whitespace count never depend on where the passes stop.
        #[test]
        fn passes_agree_with_one_go(
            doc in proptest::collection::vec(proptest::sample::select(
                b"{}[],:\" \n\\u0123456789abcdefABCDEF.eE+-truefalsnul\xc3\xa9\x01".to_vec()), 0..48),
            cuts in proptest::collection::vec(0usize..64, 0..8),
        ) {
            check(&doc, &cuts);
        }

        #[test]
        fn damaged_values(v in proptest::sample::select(VALUES.to_vec()), at in 0usize..200, byte in any::<u8>(), cuts in proptest::collection::vec(0usize..200, 0..8)) {
            let mut doc = v.as_bytes().to_vec();
            let at = at % doc.len();
            doc[at] = byte;
            check(&doc, &cuts);
        }
    }
}
