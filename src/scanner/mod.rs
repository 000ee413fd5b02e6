//! The scanner: JSON lexing and validation over a borrowed byte slice.
//!
//! [`Cursor`] holds the input and a position and knows the JSON grammar (RFC 8259): whitespace,
//! strings (escapes, surrogate pairs, UTF-8), numbers, literals, and [`Cursor::skip_value`],
//! which validates a whole value without building anything. It never writes to the input.
//! The string kernel lives in [`simd`], one file per instruction set plus the scalar twin.
//!
//! Nothing here recurses: nested values are walked with an explicit bit stack whose depth is
//! bounded by the caller's limit, so a million nested arrays cost a clear error, not a crash.

pub(crate) mod simd;

use crate::error::{ErrorKind, RawError, RawResult};
use crate::model::JsonKind;

/// A string token found by the scanner: the bytes between the quotes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StrToken<'a> {
    /// The raw content, escapes intact. Valid UTF-8 (checked).
    pub(crate) raw: &'a str,
    /// Offset of the opening quote.
    pub(crate) start: usize,
    /// Whether `raw` contains a backslash escape.
    pub(crate) escaped: bool,
}

/// A position in the input plus the grammar.
pub(crate) struct Cursor<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
    /// Number of whitespace bytes skipped so far: a value whose parse left this unchanged was
    /// written compactly, and can be copied out verbatim by a compact writer.
    pub(crate) ws: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor {
            bytes,
            pos: 0,
            ws: 0,
        }
    }

    #[inline(always)]
    pub(crate) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[cold]
    pub(crate) fn err(&self, kind: ErrorKind) -> RawError {
        RawError::new(kind, self.pos)
    }

    /// The error for an unexpected byte (or the end of input) at the current position.
    #[cold]
    pub(crate) fn unexpected(&self, expected: &'static str) -> RawError {
        match self.peek() {
            None => self.err(ErrorKind::UnexpectedEof),
            Some(found) => self.err(ErrorKind::UnexpectedByte { found, expected }),
        }
    }

    #[inline(always)]
    pub(crate) fn skip_ws(&mut self) {
        if let Some(b) = self.peek()
            && b > b' '
        {
            return;
        }
        self.skip_ws_slow();
    }

    fn skip_ws_slow(&mut self) {
        let start = self.pos;
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
        self.ws += self.pos - start;
    }

    /// Consumes `b` (after whitespace) or fails naming `expected`.
    #[inline(always)]
    pub(crate) fn expect(&mut self, b: u8, expected: &'static str) -> RawResult<()> {
        self.skip_ws();
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(expected))
        }
    }

    /// The text of `bytes[start..end]`, which the scanner has checked to be valid UTF-8.
    #[inline(always)]
    pub(crate) fn text(&self, start: usize, end: usize) -> &'a str {
        let slice = &self.bytes[start..end];
        debug_assert!(std::str::from_utf8(slice).is_ok());
        // SAFETY: callers pass only ranges the scanner validated: string contents (checked by
        // `string`, which runs `from_utf8` whenever a byte >= 0x80 occurs) or whole values
        // (strings plus ASCII-only structural bytes, since any other byte is a grammar error).
        unsafe { std::str::from_utf8_unchecked(slice) }
    }

    /// Scans a string at the current position (which must be a `"`).
    pub(crate) fn string(&mut self) -> RawResult<StrToken<'a>> {
        let quote = self.pos;
        debug_assert_eq!(self.peek(), Some(b'"'));
        let start = quote + 1;
        let bytes = self.bytes;
        let mut pos = start;
        let mut escaped = false;
        let mut non_ascii = false;
        // Walk the string 64 bytes at a time: one kernel call gives the mask of special bytes
        // (quote, backslash, control) in the block, and the bits are visited in order, so a
        // string dense with escapes (JSON inside JSON) costs one call per block, not per escape.
        let end = 'scan: loop {
            let (mask, len, na) = simd::special_mask(bytes, pos);
            non_ascii |= na;
            if mask == 0 {
                if len < simd::BLOCK {
                    return Err(RawError::new(ErrorKind::UnexpectedEof, bytes.len()));
                }
                // A long plain run (base64, long text): let the streaming kernel cross it.
                let (j, na) = simd::find_string_special(bytes, pos + simd::BLOCK);
                non_ascii |= na;
                pos = j;
                continue;
            }
            let mut m = mask;
            let mut next = pos + len;
            let mut skip_to = pos;
            while m != 0 {
                let at = pos + m.trailing_zeros() as usize;
                m &= m - 1;
                if at < skip_to {
                    // Part of the escape just read (an escaped quote or backslash).
                    continue;
                }
                match bytes[at] {
                    b'"' => break 'scan at,
                    b'\\' => {
                        escaped = true;
                        skip_to = self.escape(at)?;
                    }
                    c => return Err(RawError::new(ErrorKind::ControlCharacterInString(c), at)),
                }
            }
            // An escape may run past the block's end.
            next = next.max(skip_to);
            pos = next;
        };
        if non_ascii && simdutf8::basic::from_utf8(&self.bytes[start..end]).is_err() {
            // The fast check only says yes or no; std says where.
            let at = std::str::from_utf8(&self.bytes[start..end])
                .err()
                .map_or(0, |e| e.valid_up_to());
            return Err(RawError::new(ErrorKind::InvalidUtf8, start + at));
        }
        self.pos = end + 1;
        Ok(StrToken {
            raw: self.text(start, end),
            start: quote,
            escaped,
        })
    }

    /// Validates the escape whose backslash is at `at`; returns the offset after it.
    fn escape(&self, at: usize) -> RawResult<usize> {
        let bad = |kind| Err(RawError::new(kind, at));
        match self.bytes.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(at + 2),
            Some(b'u') => {
                let Some(unit) = hex4(self.bytes, at + 2) else {
                    return bad(if self.bytes.len() < at + 6 {
                        ErrorKind::UnexpectedEof
                    } else {
                        ErrorKind::InvalidEscape
                    });
                };
                match unit {
                    0xD800..=0xDBFF => {
                        // A high surrogate must be followed by an escaped low surrogate.
                        // The input may end anywhere in the pair (`\ud83d`, `\ud83d\`,
                        // `\ud83d\u`, `\ud83d\ude0`): that is a truncation, not a lone
                        // surrogate.
                        let backslash = self.bytes.get(at + 6);
                        if backslash == Some(&b'\\') && self.bytes.get(at + 7).is_none() {
                            return bad(ErrorKind::UnexpectedEof);
                        }
                        if backslash == Some(&b'\\') && self.bytes.get(at + 7) == Some(&b'u') {
                            match hex4(self.bytes, at + 8) {
                                Some(0xDC00..=0xDFFF) => Ok(at + 12),
                                Some(_) => bad(ErrorKind::LoneSurrogate),
                                None if self.bytes.len() < at + 12 => bad(ErrorKind::UnexpectedEof),
                                None => bad(ErrorKind::InvalidEscape),
                            }
                        } else if self.bytes.len() <= at + 6 {
                            bad(ErrorKind::UnexpectedEof)
                        } else {
                            bad(ErrorKind::LoneSurrogate)
                        }
                    }
                    0xDC00..=0xDFFF => bad(ErrorKind::LoneSurrogate),
                    _ => Ok(at + 6),
                }
            }
            Some(_) => bad(ErrorKind::InvalidEscape),
            None => bad(ErrorKind::UnexpectedEof),
        }
    }

    /// Scans a number at the current position.
    pub(crate) fn number(&mut self) -> RawResult<()> {
        let start = self.pos;
        let b = self.bytes;
        let mut i = start;
        let invalid = |at: usize| Err(RawError::new(ErrorKind::InvalidNumber, at));
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => i = digits(b, i + 1),
            None => return Err(RawError::new(ErrorKind::UnexpectedEof, i)),
            Some(_) => return invalid(start),
        }
        if b.get(i) == Some(&b'.') {
            let d = digits(b, i + 1);
            if d == i + 1 {
                return if d >= b.len() {
                    Err(RawError::new(ErrorKind::UnexpectedEof, d))
                } else {
                    invalid(start)
                };
            }
            i = d;
        }
        if let Some(b'e' | b'E') = b.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            let d = digits(b, i);
            if d == i {
                return if d >= b.len() {
                    Err(RawError::new(ErrorKind::UnexpectedEof, d))
                } else {
                    invalid(start)
                };
            }
            i = d;
        }
        if let Some(b'0'..=b'9') = b.get(i) {
            // `01`, `-01`: a leading zero followed by more digits.
            return invalid(start);
        }
        self.pos = i;
        Ok(())
    }

    /// Scans `true`, `false` or `null`.
    pub(crate) fn literal(&mut self) -> RawResult<JsonKind> {
        let rest = &self.bytes[self.pos.min(self.bytes.len())..];
        let (word, kind): (&[u8], _) = match rest.first() {
            Some(b't') => (b"true", JsonKind::Bool),
            Some(b'f') => (b"false", JsonKind::Bool),
            _ => (b"null", JsonKind::Null),
        };
        if rest.starts_with(word) {
            self.pos += word.len();
            Ok(kind)
        } else if word.starts_with(rest) {
            Err(RawError::new(ErrorKind::UnexpectedEof, self.bytes.len()))
        } else {
            Err(self.err(ErrorKind::InvalidLiteral))
        }
    }

    /// Scans a scalar (string, number, literal) or reports that a container starts here.
    #[inline]
    fn scalar(&mut self) -> RawResult<Option<JsonKind>> {
        match self.peek() {
            Some(b'"') => self.string().map(|_| Some(JsonKind::String)),
            Some(b'-' | b'0'..=b'9') => self.number().map(|_| Some(JsonKind::Number)),
            Some(b't' | b'f' | b'n') => self.literal().map(Some),
            Some(b'{' | b'[') => Ok(None),
            _ => Err(self.unexpected("a JSON value")),
        }
    }

    /// Validates one whole JSON value at the current position (after whitespace) and returns
    /// its kind. `depth` is the nesting depth of the value's container; opening a container
    /// deeper than `max_depth` fails.
    pub(crate) fn skip_value(&mut self, depth: usize, max_depth: usize) -> RawResult<JsonKind> {
        self.skip_ws();
        if let Some(kind) = self.scalar()? {
            return Ok(kind);
        }
        let top_kind = if self.peek() == Some(b'{') {
            JsonKind::Object
        } else {
            JsonKind::Array
        };
        let mut stack = BitStack::new();
        // Open the first container, then loop: each turn sits just after an opening bracket or
        // a comma, or just after a value.
        'open: loop {
            // At `{` or `[`.
            let is_object = self.peek() == Some(b'{');
            if depth + stack.len() + 1 > max_depth {
                return Err(self.err(ErrorKind::DepthLimitExceeded(max_depth)));
            }
            stack.push(is_object);
            self.pos += 1;
            self.skip_ws();
            let close = if is_object { b'}' } else { b']' };
            if self.peek() == Some(close) {
                self.pos += 1;
                stack.pop();
                if stack.is_empty() {
                    return Ok(top_kind);
                }
            } else {
                // First member.
                if is_object {
                    self.member_key()?;
                }
                self.skip_ws();
                if self.scalar()?.is_none() {
                    continue 'open;
                }
            }
            // After a value: commas, closers, and scalars, until a new container opens.
            loop {
                self.skip_ws();
                let in_object = stack.top();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.skip_ws();
                        if in_object {
                            self.member_key()?;
                            self.skip_ws();
                        }
                        if self.scalar()?.is_none() {
                            continue 'open;
                        }
                    }
                    Some(b'}') if in_object => {
                        self.pos += 1;
                        stack.pop();
                        if stack.is_empty() {
                            return Ok(top_kind);
                        }
                    }
                    Some(b']') if !in_object => {
                        self.pos += 1;
                        stack.pop();
                        if stack.is_empty() {
                            return Ok(top_kind);
                        }
                    }
                    _ => {
                        return Err(self.unexpected(if in_object {
                            "',' or '}'"
                        } else {
                            "',' or ']'"
                        }));
                    }
                }
            }
        }
    }

    /// `"key"` then `:` inside an object.
    fn member_key(&mut self) -> RawResult<()> {
        if self.peek() != Some(b'"') {
            return Err(self.unexpected("a string key"));
        }
        self.string()?;
        self.expect(b':', "':'")
    }
}

fn digits(b: &[u8], mut i: usize) -> usize {
    while let Some(b'0'..=b'9') = b.get(i) {
        i += 1;
    }
    i
}

fn hex4(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at + 4)?;
    let mut v = 0u32;
    for &c in s {
        v = v * 16 + (c as char).to_digit(16)?;
    }
    Some(v)
}

/// One bit per open container (1 = object): 512 levels inline, heap beyond.
struct BitStack {
    words: smallvec::SmallVec<[u64; 8]>,
    len: usize,
}

impl BitStack {
    fn new() -> BitStack {
        BitStack {
            words: smallvec::SmallVec::new(),
            len: 0,
        }
    }
    fn len(&self) -> usize {
        self.len
    }
    fn is_empty(&self) -> bool {
        self.len == 0
    }
    fn push(&mut self, bit: bool) {
        let (w, b) = (self.len / 64, self.len % 64);
        if w == self.words.len() {
            self.words.push(0);
        }
        if let Some(word) = self.words.get_mut(w) {
            *word = (*word & !(1 << b)) | ((bit as u64) << b);
        }
        self.len += 1;
    }
    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }
    fn top(&self) -> bool {
        if self.len == 0 {
            return false;
        }
        let i = self.len - 1;
        self.words
            .get(i / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
}

/// Validates that `input` is exactly one JSON value (surrounding whitespace allowed) and
/// returns its kind.
pub(crate) fn validate_document(input: &[u8], max_depth: usize) -> RawResult<JsonKind> {
    let mut c = Cursor::new(input);
    if input.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(c.err(ErrorKind::ByteOrderMark));
    }
    let kind = c.skip_value(0, max_depth)?;
    c.skip_ws();
    if c.pos != input.len() {
        return Err(c.err(ErrorKind::TrailingCharacters));
    }
    Ok(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
