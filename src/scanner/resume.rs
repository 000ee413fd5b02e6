//! What the scanner remembers between two passes over a growing buffer.
//!
//! The streaming parser ([`crate::stream`]) parses the bytes received so far, stops with
//! `UnexpectedEof` where they end, and tries again when more have come. Four things can be
//! arbitrarily long, so a retry must not rescan them from their start:
//!
//! - a string: [`StrSlot`] holds how far the scan of the string at one offset got, and its
//!   flags; a retry that reaches the same opening quote continues from there;
//! - a raw JSON value (`state`, `metadata`, unknown fields): [`SkipSlot`] holds the validator's
//!   whole state (position, open containers, the step it was at), taken at the point where the
//!   bytes ran out; a retry that reaches the same value start continues from there;
//! - a run of whitespace (anywhere: between top-level fields, inside a message, a list or a
//!   raw value): [`WsSlot`] holds the stretch known to be whitespace; a retry that reaches any
//!   byte of it jumps to its end;
//! - a number: [`NumSlot`] holds how far its scan got and the part of the grammar it was in
//!   (integer, fraction, exponent, ...); a retry that reaches the same first byte continues.
//!
//! Literals (`true`, `false`, `null`) are at most five bytes and are simply read again.
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

use super::{BitStack, Cursor};
use crate::error::{ErrorKind, RawError, RawResult};
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

/// A run of whitespace that ran into the end of the buffer: the bytes `from..to` are
/// whitespace, so a later pass that reaches any of them jumps to `to`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WsSlot {
    pub(crate) from: usize,
    pub(crate) to: usize,
}

impl WsSlot {
    pub(crate) const EMPTY: WsSlot = WsSlot { from: 1, to: 0 };
}

/// Where a number's scan stopped: the part of the grammar it was in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumPart {
    /// At the number's first byte (an optional `-`).
    Start,
    /// After the `-`: a digit must come.
    Sign,
    /// After a leading `0`: no digit may follow.
    Zero,
    /// In the digits of the integer part.
    Int,
    /// After `.`: a digit must come.
    Dot,
    /// In the digits of the fraction.
    Frac,
    /// After `e` or `E`: a sign or a digit.
    E,
    /// After the exponent's sign: a digit must come.
    ExpSign,
    /// In the digits of the exponent.
    Exp,
}

/// How far the scan of the number starting at `start` got, validly, when the bytes ran out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NumSlot {
    /// Offset of the number's first byte (`usize::MAX`: empty slot).
    pub(crate) start: usize,
    pub(crate) at: usize,
    pub(crate) part: NumPart,
}

impl NumSlot {
    pub(crate) const EMPTY: NumSlot = NumSlot {
        start: usize::MAX,
        at: 0,
        part: NumPart::Start,
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
    /// The value is being walked over the structural index ([`super::index`]): its state at
    /// `pos` (then `stack` holds the containers open past the innermost 64, and `step` means
    /// nothing). `None`: the byte-by-byte validator's state, which a value that falls back
    /// to it keeps to its end (it is never indexed again, so the fallback costs one re-read).
    pub(crate) walk: Option<super::index::WalkState>,
}

/// The scanner's memory across passes, and the book-keeping of how much a pass re-read.
#[derive(Debug)]
pub(crate) struct Resume {
    /// The buffer may still grow (see the module docs).
    pub(crate) partial: bool,
    pub(crate) string: StrSlot,
    pub(crate) skip: Option<SkipSlot>,
    pub(crate) ws_run: WsSlot,
    pub(crate) number: NumSlot,
    /// End of the buffer in the previous pass: bytes below it were read before.
    pub(crate) high: usize,
    /// Start of the stretch being read since the last jump.
    pub(crate) walk_from: usize,
    /// Bytes below `high` read again in this pass.
    pub(crate) reread: usize,
    /// Bytes of raw values put through the structural index, over all passes (for the
    /// tests: each byte about once).
    pub(crate) indexed: usize,
    /// The token where this pass ran out of bytes, if it was a string or a raw value: the
    /// next pass would re-descend straight back to it, so the driver may continue it directly.
    pub(crate) stopped_in: Stopped,
    /// The whole body's length as the caller expects it (`Content-Length`; 0: unknown): a
    /// hint that sizes lists as a one-shot parse of the whole body would, never a bound.
    pub(crate) expected: usize,
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
            ws_run: WsSlot::EMPTY,
            number: NumSlot::EMPTY,
            high: 0,
            walk_from: 0,
            reread: 0,
            indexed: 0,
            stopped_in: Stopped::Elsewhere,
            expected: 0,
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

impl Cursor<'_> {
    /// At the start of a whitespace run: jumps over the part a previous pass already crossed
    /// (see [`WsSlot`]), counting it as skipped whitespace.
    /// Returns whether it jumped.
    #[inline]
    pub(crate) fn ws_resume(&mut self) -> bool {
        if let Some(r) = &mut self.resume
            && r.ws_run.from <= self.pos
            && self.pos < r.ws_run.to
        {
            let to = r.ws_run.to;
            r.jump(self.pos, to);
            self.ws += to - self.pos;
            self.pos = to;
            return true;
        }
        false
    }

    /// Remembers the whitespace run that ends here and started at `from` (or earlier, in
    /// the remembered run it continues): called when a run ran into the end of the buffer, or
    /// continued a remembered one (which then grows to its real end, so that passes that
    /// re-descend through it before the next token completes jump over all of it).
    #[cold]
    pub(crate) fn ws_suspend(&mut self, from: usize) {
        if let Some(r) = &mut self.resume
            && r.partial
        {
            let slot = r.ws_run;
            let from = if slot.from <= from && from <= slot.to {
                slot.from
            } else {
                from
            };
            if from < self.pos {
                r.ws_run = WsSlot { from, to: self.pos };
            }
        }
    }

    /// [`Cursor::number`] on a buffer that may grow: a number running into its end is
    /// remembered ([`NumSlot`]) and a later pass continues it where it stopped. The grammar,
    /// the verdicts and the error offsets are exactly those of the one-shot scanner (the tests
    /// compare the two).
    #[inline(never)]
    pub(crate) fn number_resumable(&mut self) -> RawResult<()> {
        use NumPart::*;
        let start = self.pos;
        let b = self.bytes;
        let (mut i, mut part) = (start, Start);
        if let Some(r) = &mut self.resume
            && r.number.start == start
        {
            let slot = r.number;
            r.jump(start, slot.at);
            (i, part) = (slot.at, slot.part);
        }
        let invalid = || Err(RawError::new(ErrorKind::InvalidNumber, start));
        loop {
            part = match (part, b.get(i).copied()) {
                (Start, Some(b'-')) => {
                    i += 1;
                    Sign
                }
                (Start, _) => Sign,
                (Sign, Some(b'0')) => {
                    i += 1;
                    Zero
                }
                (Sign, Some(b'1'..=b'9')) => {
                    i = super::digits(b, i + 1);
                    Int
                }
                (Int, Some(b'0'..=b'9')) => {
                    i = super::digits(b, i);
                    Int
                }
                (Frac, Some(b'0'..=b'9')) => {
                    i = super::digits(b, i);
                    Frac
                }
                (Exp, Some(b'0'..=b'9')) => {
                    i = super::digits(b, i);
                    Exp
                }
                (Zero | Int, Some(b'.')) => {
                    i += 1;
                    Dot
                }
                (Zero | Int | Frac, Some(b'e' | b'E')) => {
                    i += 1;
                    E
                }
                (Dot, Some(b'0'..=b'9')) | (E | ExpSign, Some(b'0'..=b'9')) => {
                    i += 1;
                    if part == Dot { Frac } else { Exp }
                }
                (E, Some(b'+' | b'-')) => {
                    i += 1;
                    ExpSign
                }
                // A digit after a leading zero (`01`), or no digit where one must come.
                (Zero, Some(b'0'..=b'9')) | (Sign | Dot | E | ExpSign, Some(_)) => {
                    return invalid();
                }
                // The end of the bytes: where a digit must come it is an error of the whole
                // document too; elsewhere the number is complete unless more bytes may come.
                (Sign | Dot | E | ExpSign, None) => return Err(self.number_suspend(start, i, part)),
                (Zero | Int | Frac | Exp, None) => {
                    if self.partial() {
                        return Err(self.number_suspend(start, i, part));
                    }
                    break;
                }
                (Zero | Int | Frac | Exp, Some(_)) => break,
            };
        }
        self.pos = i;
        Ok(())
    }

    /// The bytes ran out at `at`, in `part` of the number at `start`.
    #[cold]
    fn number_suspend(&mut self, start: usize, at: usize, part: NumPart) -> RawError {
        if let Some(r) = &mut self.resume
            && r.partial
        {
            r.number = NumSlot { start, at, part };
        }
        RawError::new(ErrorKind::UnexpectedEof, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::RawResult;
    use crate::scanner::Cursor;
    use proptest::prelude::*;

    /// Validates `doc` as one value in passes over its prefixes ending at `cuts`, then whole.
    fn in_passes(doc: &[u8], cuts: &[usize]) -> RawResult<(JsonKind, usize, usize)> {
        crate::scanner::index::skip_in_passes(doc, cuts, 0, 8).0
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
        "  [\n\t 1 \r\n ,\n\n  {  \"a\"  :  2.5  ,\t\"b\"\n:\n[ ] }  , true   ]  ",
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

    /// Values long enough for the structural index (which keeps its state between passes on
    /// a growing buffer), cut everywhere once, in one-byte passes, in many passes, and
    /// damaged.
    #[test]
    fn long_values_in_passes() {
        // (Not the deepest values: `check` allows 8 levels, and the walk should succeed.)
        let shallow: Vec<&str> = VALUES
            .iter()
            .copied()
            .filter(|v| !v.contains("[[["))
            .collect();
        let long = format!("[{}]", shallow.join(","));
        let deep = format!("{{\"a\":{long},\"b\":[{long}, 1.5e3, \"x\\n\"]}}");
        for doc in [long, deep] {
            let doc = doc.as_bytes();
            assert!(doc.len() > 2 * crate::scanner::index::INDEX_MIN);
            let mut c = Cursor::new(doc);
            assert!(
                c.skip_value(0, 8).is_ok(),
                "{}",
                String::from_utf8_lossy(doc)
            );
            for cut in 0..=doc.len() {
                check(doc, &[cut]);
            }
            check(doc, &(1..doc.len()).step_by(7).collect::<Vec<_>>());
            check(doc, &(1..doc.len()).collect::<Vec<_>>());
            for at in (0..doc.len()).step_by(3) {
                for byte in [b'"', b'\\', b']', b'x', 0x01, b'7', 0xC3, 0xFF] {
                    let mut bad = doc.to_vec();
                    bad[at] = byte;
                    check(&bad, &[at, at + 1, doc.len() - 1]);
                    check(&bad, &[at.saturating_sub(1), at + 2]);
                    check(&bad, &[]);
                }
            }
            for at in (0..doc.len()).step_by(29) {
                let mut bad = doc.to_vec();
                bad[at] = b'"';
                check(&bad, &(1..doc.len()).collect::<Vec<_>>());
            }
        }
    }

    /// Numbers, valid and not, bare and inside containers (the resumable number scanner
    /// against the one-shot one: verdict, error offset, end).
    #[test]
    fn every_split_of_numbers() {
        let numbers = [
            "0",
            "-0",
            "7",
            "-",
            "01",
            "-01",
            "00",
            "0.",
            "1.",
            "1.5",
            "1.e5",
            "1e",
            "1E+",
            "1e-",
            "1e+5",
            "0.0e-0",
            "-12.340E+056",
            "1ee",
            "1..2",
            "0x",
            "-x",
            "1.5E+10x",
            "123456789012345678901234567890",
            "0e",
            "0e1",
            "0.e",
            "-.5",
            "+1",
            "2.x",
            "3e+x",
        ];
        for n in numbers {
            for doc in [
                n.to_string(),
                format!("[{n}]"),
                format!("{{\"k\":{n} }}"),
                format!("[{n},{n}]"),
            ] {
                let doc = doc.as_bytes();
                for cut in 0..=doc.len() {
                    check(doc, &[cut]);
                }
                check(doc, &(1..doc.len()).collect::<Vec<_>>());
            }
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
