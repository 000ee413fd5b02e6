//! The scanner: JSON lexing and validation over a borrowed byte slice.
//!
//! [`Cursor`] holds the input and a position and knows the JSON grammar (RFC 8259): whitespace,
//! strings (escapes, surrogate pairs, UTF-8), numbers, literals, and [`Cursor::skip_value`],
//! which validates a whole value without building anything. It never writes to the input.
//! The string kernel lives in [`simd`], one file per instruction set plus the scalar twin.
//!
//! Nothing here recurses: nested values are walked with an explicit bit stack whose depth is
//! bounded by the caller's limit, so a million nested arrays cost a clear error, not a crash.

mod escape;
pub(crate) mod index;
pub(crate) mod resume;
pub(crate) mod simd;
mod utf8;

use crate::error::{ErrorKind, RawError, RawResult};
use crate::model::JsonKind;
use resume::{LONG_TOKEN, Resume, SkipSlot, Step, Stopped, StrSlot};

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
    /// Slots and flags for a pass over a buffer that is still growing ([`resume`]); `None`
    /// for one-shot parsing, which then pays one well-predicted branch per string and value.
    pub(crate) resume: Option<Box<Resume>>,
}

impl StrToken<'_> {
    /// The empty string at offset 0: a placeholder for a key not read yet.
    pub(crate) const EMPTY: StrToken<'static> = StrToken {
        raw: "",
        start: 0,
        escaped: false,
    };
}

/// How far past the bytes received an announced body length is believed when sizing lists:
/// a length announced but never sent makes the lists reserve room for at most this many times
/// the bytes that did arrive (and half the bytes at that, `room_after`'s bound), while a long
/// list still grows by this factor at each step rather than by doubling.
const EXPECT_AHEAD: usize = 8;

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor {
            bytes,
            pos: 0,
            ws: 0,
            resume: None,
        }
    }

    /// Whether the buffer may still grow, so that a decision needing the next byte must wait.
    #[inline]
    pub(crate) fn partial(&self) -> bool {
        self.resume.as_ref().is_some_and(|r| r.partial)
    }

    /// Bytes after the cursor in the whole body as far as it is known: those in the buffer,
    /// or while the buffer still grows, up to the length the caller said to expect (see
    /// `BodyParser::expect_len`) but at most [`EXPECT_AHEAD`] times the bytes received. For
    /// sizing lists only: never a bound on what is read.
    #[inline]
    pub(crate) fn rest_expected(&self) -> usize {
        let have = self.bytes.len();
        let len = match &self.resume {
            Some(r) if r.partial => r.expected.min(have.saturating_mul(EXPECT_AHEAD)).max(have),
            _ => have,
        };
        len.saturating_sub(self.pos)
    }

    /// Moves to `to` (a jump back to re-read something, or forward over remembered bytes).
    #[inline]
    pub(crate) fn seek(&mut self, to: usize) {
        if let Some(r) = &mut self.resume {
            r.jump(self.pos, to);
        }
        self.pos = to;
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
        if let Some(b) = self.peek() {
            if b > b' ' {
                return;
            }
            // One space before a token, as Python's `json.dumps` puts after every `:` and
            // `,`: stepped over here, without the loop (one-shot parsing only: a pass over a
            // growing buffer keeps its whitespace book-keeping in the loop).
            if b == b' '
                && self.resume.is_none()
                && self.bytes.get(self.pos + 1).is_some_and(|&c| c > b' ')
            {
                self.pos += 1;
                self.ws += 1;
                return;
            }
        }
        self.skip_ws_slow();
    }

    fn skip_ws_slow(&mut self) {
        let resumed = self.resume.is_some() && self.ws_resume();
        let start = self.pos;
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
        self.ws += self.pos - start;
        if (resumed || self.pos == self.bytes.len()) && self.resume.is_some() {
            self.ws_suspend(start);
        }
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

    /// The look for an object key (the cursor at its opening quote): a key that ends, plain
    /// and ASCII, within 16 bytes (every field name of the protocol) is read here in one
    /// look, small enough to inline into the parser's key loops, and the cursor moves after
    /// its closing quote; for any other string `None`, nothing moved, and the caller runs
    /// [`Cursor::string_out_of_line`]. On a growing buffer too: a key found whole needs no
    /// slot (slots are for strings cut by the buffer's end, or long ones), so the look only
    /// re-reads at most 16 bytes that a slot of an earlier pass would have let it jump.
    #[inline(always)]
    pub(crate) fn short_key(&mut self) -> Option<StrToken<'a>> {
        let quote = self.pos;
        debug_assert_eq!(self.peek(), Some(b'"'));
        let Some((end, false)) = simd::short_string_end(self.bytes, quote + 1) else {
            return None;
        };
        self.pos = end + 1;
        Some(StrToken {
            raw: self.text(quote + 1, end),
            start: quote,
            escaped: false,
        })
    }

    /// [`Cursor::string`], out of line (for the keys [`Cursor::short_key`] leaves).
    #[inline(never)]
    pub(crate) fn string_out_of_line(&mut self) -> RawResult<StrToken<'a>> {
        self.string()
    }

    /// Scans a string at the current position (which must be a `"`).
    #[inline]
    pub(crate) fn string(&mut self) -> RawResult<StrToken<'a>> {
        // One-shot parsing gets a copy of the scanner without any slot book-keeping.
        if self.resume.is_some() {
            self.string_in::<true, false>()
        } else {
            self.string_in::<false, false>()
        }
    }

    /// [`Cursor::string`] for long texts with escapes (message contents, arguments): the
    /// blocks past the first 16-byte looks by masks ([`simd::blocks_by_mask`]). Same answers and
    /// errors; a separate copy so that the short-string readers inlined elsewhere stay small.
    #[inline]
    pub(crate) fn text_string(&mut self) -> RawResult<StrToken<'a>> {
        if self.resume.is_some() {
            self.string_in::<true, true>()
        } else {
            self.string_in::<false, true>()
        }
    }

    /// [`Cursor::string`], with (`RESUME`) or without the slot book-keeping of a pass over a
    /// growing buffer.
    #[inline(always)]
    fn string_in<const RESUME: bool, const MASKS: bool>(&mut self) -> RawResult<StrToken<'a>> {
        let quote = self.pos;
        debug_assert_eq!(self.peek(), Some(b'"'));
        let start = quote + 1;
        let bytes = self.bytes;
        let mut pos = start;
        let mut escaped = false;
        let mut non_ascii = false;
        // The escape-by-mask blocks checked the whole string for UTF-8 on the way.
        let mut utf8_ok = false;
        // Where the escape-by-mask blocks last gave up: the per-bit loop reads that block.
        let mut by_bits_at = usize::MAX;
        if RESUME
            && let Some(r) = &mut self.resume
            && r.string.quote == quote
        {
            let slot = r.string;
            r.jump(start, slot.at);
            if slot.done {
                self.pos = slot.at + 1;
                return Ok(StrToken {
                    raw: self.text(start, slot.at),
                    start: quote,
                    escaped: slot.escaped,
                });
            }
            (pos, escaped, non_ascii) = (slot.at, slot.escaped, slot.non_ascii);
        }
        // Most strings are short and plain: up to four 16-byte looks find their end. Otherwise, walk
        // the string 64 bytes at a time: one kernel call gives the mask of special bytes
        // (quote, backslash, control) in the block, and the bits are visited in order, so a
        // string dense with escapes (JSON inside JSON) costs one call per block, not per escape.
        let end = match simd::string_end64(bytes, pos) {
            Some((end, na)) => {
                non_ascii |= na;
                end
            }
            None => 'scan: loop {
                // Message texts (escaped text, JSON in JSON): the blocks by masks, a fixed cost
                // a block instead of a loop turn a backslash; the per-bit loop below for the
                // block where they gave up, and for plain runs.
                if MASKS && pos != by_bits_at {
                    let from_start = pos == start;
                    match simd::blocks_by_mask(
                        bytes,
                        pos,
                        &mut escaped,
                        &mut non_ascii,
                        &mut utf8_ok,
                    ) {
                        Ok(end) => {
                            utf8_ok &= from_start;
                            break 'scan end;
                        }
                        Err(at) => {
                            by_bits_at = at;
                            pos = at;
                            continue;
                        }
                    }
                }
                let (mask, len, high) = simd::special_mask(bytes, pos);
                if mask == 0 {
                    non_ascii |= high != 0;
                    if len < simd::BLOCK {
                        // No special byte up to the end: a later pass continues from there.
                        let e = RawError::new(ErrorKind::UnexpectedEof, bytes.len());
                        if RESUME {
                            return Err(self.suspend_string(
                                e,
                                quote,
                                bytes.len(),
                                escaped,
                                non_ascii,
                            ));
                        }
                        return Err(e);
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
                // The bits of an escape's own bytes (an escaped quote or backslash, the second
                // backslash of a surrogate pair) are cleared as the escape is read.
                let clear_below =
                    |m: u64, to: usize| m & u64::MAX.checked_shl((to - pos) as u32).unwrap_or(0);
                while m != 0 {
                    let k = m.trailing_zeros();
                    let at = pos + k as usize;
                    m &= m - 1;
                    debug_assert!(at < bytes.len());
                    // SAFETY: `special_mask` sets no bit at or past the block's length `len`,
                    // and the block lies within `bytes` (`pos + len <= bytes.len()`), so
                    // `at < pos + len <= bytes.len()`; bits are only cleared since.
                    let c = unsafe { *bytes.get_unchecked(at) };
                    if c == b'\\' {
                        escaped = true;
                        let e = bytes.get(at + 1).copied().unwrap_or(0);
                        if escape::TWO_BYTE[e as usize] {
                            // The two-byte escapes inline (most of them); the escaped byte's
                            // bit (a quote, a backslash) goes with the escape.
                            skip_to = at + 2;
                            m &= !(2u64 << k);
                        } else if e == b'u' && escape::plain_unicode(bytes, at + 2) {
                            // `\uXXXX` outside the surrogates inline too, by one word (hex
                            // digits are never special bytes: no bit to clear).
                            skip_to = at + 6;
                        } else {
                            // Surrogate pairs and errors in `escape`.
                            skip_to = match self.escape(at) {
                                Ok(after) => after,
                                // An escape cut by the end: a later pass reads it again.
                                // (The block's non-ASCII bytes before `at` must count: a false
                                // positive only costs a UTF-8 check, a false negative is unsound.)
                                Err(e) if RESUME => {
                                    let na = non_ascii || high != 0;
                                    return Err(self.suspend_string(e, quote, at, escaped, na));
                                }
                                Err(e) => return Err(e),
                            };
                            m = clear_below(m, skip_to);
                        }
                    } else if c == b'"' {
                        // Only the bytes before the closing quote belong to the string.
                        non_ascii |= high & ((1u64 << k) - 1) != 0;
                        break 'scan at;
                    } else {
                        return Err(RawError::new(ErrorKind::ControlCharacterInString(c), at));
                    }
                }
                non_ascii |= high != 0;
                // An escape may run past the block's end.
                next = next.max(skip_to);
                pos = next;
            },
        };
        if non_ascii && !utf8_ok && !utf8::valid(self.bytes, start, end) {
            // The fast check only says yes or no; std says where.
            let at = std::str::from_utf8(&self.bytes[start..end])
                .err()
                .map_or(0, |e| e.valid_up_to());
            return Err(RawError::new(ErrorKind::InvalidUtf8, start + at));
        }
        self.pos = end + 1;
        if RESUME
            && end - start >= LONG_TOKEN
            && let Some(r) = &mut self.resume
        {
            r.string = StrSlot {
                quote,
                at: end,
                escaped,
                non_ascii,
                done: true,
            };
        }
        Ok(StrToken {
            raw: self.text(start, end),
            start: quote,
            escaped,
        })
    }

    /// [`Cursor::string`] for a string that ends within 64 bytes of its opening quote (at the
    /// current position), in up to four 16-byte looks that step over the two-byte escapes.
    /// `None`, the cursor unmoved, for any other string (longer, with a `\u` escape, a control
    /// byte, invalid UTF-8, cut by the input's end): the caller then runs [`Cursor::string`],
    /// which reads it or reports the error. One-shot parsing only (no resume slots).
    #[inline(always)]
    pub(crate) fn short_string(&mut self) -> Option<StrToken<'a>> {
        debug_assert!(self.resume.is_none());
        let quote = self.pos;
        let start = quote + 1;
        let bytes = self.bytes;
        let (mut pos, mut escaped, mut non_ascii) = (start, false, false);
        for _ in 0..4 {
            let (special, high, n) = simd::window16(bytes, pos)?;
            if special == 0 {
                if n < 16 {
                    return None;
                }
                non_ascii |= high != 0;
                pos += 16;
                continue;
            }
            let k = special.trailing_zeros();
            let at = pos + k as usize;
            non_ascii |= high & ((1u32 << k) - 1) != 0;
            match bytes.get(at)? {
                b'"' => {
                    if non_ascii && !utf8::valid_short(bytes, start, at) {
                        return None;
                    }
                    self.pos = at + 1;
                    return Some(StrToken {
                        raw: self.text(start, at),
                        start: quote,
                        escaped,
                    });
                }
                b'\\' if escape::TWO_BYTE[bytes.get(at + 1).copied().unwrap_or(0) as usize] => {
                    escaped = true;
                    pos = at + 2;
                }
                _ => return None,
            }
        }
        None
    }

    /// Remembers how far the string at `quote` was scanned when the bytes ran out.
    #[cold]
    fn suspend_string(
        &mut self,
        e: RawError,
        quote: usize,
        at: usize,
        escaped: bool,
        non_ascii: bool,
    ) -> RawError {
        if let Some(r) = &mut self.resume
            && r.partial
            && e.kind == ErrorKind::UnexpectedEof
        {
            r.string = StrSlot {
                quote,
                at,
                escaped,
                non_ascii,
                done: false,
            };
            r.stopped_in = Stopped::String;
        }
        e
    }

    /// Scans a number at the current position.
    #[inline]
    pub(crate) fn number(&mut self) -> RawResult<()> {
        if self.resume.is_some() {
            return self.number_resumable();
        }
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
        if i == b.len() && self.partial() {
            // More digits may follow in bytes not yet received.
            return Err(RawError::new(ErrorKind::UnexpectedEof, i));
        }
        self.pos = i;
        Ok(())
    }

    /// Scans `true`, `false` or `null`.
    pub(crate) fn literal(&mut self) -> RawResult<JsonKind> {
        let rest = &self.bytes[self.pos.min(self.bytes.len())..];
        // Each word compared as a constant (a word load, no `memcmp` call).
        let (whole, word, kind): (bool, &[u8], _) = match rest.first() {
            Some(b't') => (rest.starts_with(b"true"), b"true", JsonKind::Bool),
            Some(b'f') => (rest.starts_with(b"false"), b"false", JsonKind::Bool),
            _ => (rest.starts_with(b"null"), b"null", JsonKind::Null),
        };
        if whole {
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
        let start = self.pos;
        let ws_start = self.ws;
        if let Some(r) = &mut self.resume
            && let Some(slot) = r.skip.take_if(|s| s.start == start && s.depth == depth)
        {
            r.jump(start, slot.pos);
            self.pos = slot.pos;
            self.ws += slot.ws;
            if slot.done {
                let kind = slot.kind;
                r.skip = Some(slot);
                return Ok(kind);
            }
            if slot.walk.is_some() {
                return self.skip_walk_on(start, ws_start, depth, max_depth, slot);
            }
            return self.skip_container(start, ws_start, depth, max_depth, slot);
        }
        if let Some(kind) = self.scalar()? {
            return Ok(kind);
        }
        self.skip_fresh_container(start, ws_start, depth, max_depth, true)
    }

    /// The validator's loop over the container at the cursor, from its opening bracket. With
    /// `index`, a container with enough input left to pay for it takes the indexed walk first
    /// ([`index`]); on any doubt the byte-by-byte loop runs from the start, so that errors
    /// (and, on a growing buffer, the state kept for the next pass) are exactly its own.
    pub(crate) fn skip_fresh_container(
        &mut self,
        start: usize,
        ws_start: usize,
        depth: usize,
        max_depth: usize,
        index: bool,
    ) -> RawResult<JsonKind> {
        if index
            // (On a growing buffer the value may be large whatever is in the buffer yet.)
            && (self.bytes.len() - start >= index::INDEX_MIN || self.partial())
            && !matches!(self.bytes.get(start + 1), Some(b'}' | b']'))
            && let Some(kernel) = index::Kernel::fast()
        {
            // A value wholly in the buffer (most are small) takes the plain walk; on a growing
            // buffer, one cut by its end is walked again from its start by the resumable
            // walk, which keeps its state where the bytes run out for the next pass to
            // continue (see `index::Paused`): each byte is indexed about once, and twice in
            // the first pass over a large value.
            if self.bytes.len() - start >= index::INDEX_MIN {
                if let Some(kind) = self.skip_indexed(kernel, depth, max_depth) {
                    return Ok(self.skip_done(start, ws_start, depth, kind));
                }
                self.pos = start;
                self.ws = ws_start;
            }
            if self.partial() {
                return self.skip_walk_fresh(kernel, start, ws_start, depth, max_depth);
            }
        }
        let kind = if self.peek() == Some(b'{') {
            JsonKind::Object
        } else {
            JsonKind::Array
        };
        let slot = SkipSlot {
            start,
            depth,
            kind,
            pos: start,
            step: Step::Open,
            stack: BitStack::new(),
            ws: 0,
            done: false,
            walk: None,
        };
        self.skip_container(start, ws_start, depth, max_depth, slot)
    }

    /// The validator's loop over a container, entered at `slot.step` (`Open` for a fresh
    /// value). Every failure names the step it happened in, and each step can be re-run from
    /// the position where it failed, so running out of bytes anywhere leaves a state that a
    /// later pass continues from. The loop itself is the plain one (a turn per container
    /// opened, a turn per value after the first): steps only matter when something fails.
    pub(crate) fn skip_container(
        &mut self,
        start: usize,
        ws_start: usize,
        depth: usize,
        max_depth: usize,
        slot: SkipSlot,
    ) -> RawResult<JsonKind> {
        let SkipSlot {
            kind,
            step,
            mut stack,
            ..
        } = slot;
        macro_rules! fail {
            ($e:expr, $step:expr) => {{
                let e = $e;
                return Err(self.suspend_skip(e, start, ws_start, depth, kind, $step, stack));
            }};
        }
        macro_rules! close {
            () => {{
                self.pos += 1;
                stack.pop();
                if stack.is_empty() {
                    return Ok(self.skip_done(start, ws_start, depth, kind));
                }
            }};
        }
        // Finish the step a previous pass stopped in; `open`: the cursor is at `{` or `[`.
        let mut open = match step {
            Step::Open => true,
            Step::After => false,
            Step::First => {
                self.skip_ws();
                let in_object = stack.top();
                match self.peek() {
                    None => fail!(self.err(ErrorKind::UnexpectedEof), Step::First),
                    Some(b'}') if in_object => {
                        close!();
                        false
                    }
                    Some(b']') if !in_object => {
                        close!();
                        false
                    }
                    _ => match self.member(in_object) {
                        Ok(container) => container,
                        Err((e, step)) => fail!(e, step),
                    },
                }
            }
            Step::Key => match self.member(true) {
                Ok(container) => container,
                Err((e, step)) => fail!(e, step),
            },
            Step::Colon => {
                if let Err(e) = self.expect(b':', "':'") {
                    fail!(e, Step::Colon);
                }
                match self.member(false) {
                    Ok(container) => container,
                    Err((e, step)) => fail!(e, step),
                }
            }
            Step::Value => match self.member(false) {
                Ok(container) => container,
                Err((e, step)) => fail!(e, step),
            },
        };
        loop {
            if open {
                // At `{` or `[`: open it and read its first member, if any.
                let is_object = self.peek() == Some(b'{');
                if depth + stack.len() + 1 > max_depth {
                    fail!(
                        self.err(ErrorKind::DepthLimitExceeded(max_depth)),
                        Step::Open
                    );
                }
                stack.push(is_object);
                self.pos += 1;
                self.skip_ws();
                let close = if is_object { b'}' } else { b']' };
                match self.peek() {
                    Some(c) if c == close => {
                        close!();
                        open = false;
                    }
                    // Stay at this step: the container may still be empty.
                    None => fail!(self.err(ErrorKind::UnexpectedEof), Step::First),
                    _ => match self.member(is_object) {
                        Ok(container) => open = container,
                        Err((e, step)) => fail!(e, step),
                    },
                }
                if open {
                    continue;
                }
            }
            // After a value: a comma and the next member, or closing brackets.
            self.skip_ws();
            let in_object = stack.top();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    match self.member(in_object) {
                        Ok(container) => open = container,
                        Err((e, step)) => fail!(e, step),
                    }
                }
                Some(b'}') if in_object => close!(),
                Some(b']') if !in_object => close!(),
                _ => fail!(
                    self.unexpected(if in_object {
                        "',' or '}'"
                    } else {
                        "',' or ']'"
                    }),
                    Step::After
                ),
            }
        }
    }

    /// One member of a container: `"key":` when `in_object`, then a value. `Ok(true)` when the
    /// value is a container (the cursor at its bracket), `Ok(false)` after a scalar; on
    /// failure, the step to re-run.
    #[inline(always)]
    fn member(&mut self, in_object: bool) -> Result<bool, (RawError, Step)> {
        self.skip_ws();
        if in_object {
            if self.peek() != Some(b'"') {
                return Err((self.unexpected("a string key"), Step::Key));
            }
            if let Err(e) = self.string() {
                return Err((e, Step::Key));
            }
            if let Err(e) = self.expect(b':', "':'") {
                return Err((e, Step::Colon));
            }
            self.skip_ws();
        }
        match self.scalar() {
            Ok(Some(_)) => Ok(false),
            Ok(None) => Ok(true),
            Err(e) => Err((e, Step::Value)),
        }
    }

    /// A value that ended well: on a growing buffer, a long one is remembered whole.
    #[inline]
    pub(crate) fn skip_done(
        &mut self,
        start: usize,
        ws_start: usize,
        depth: usize,
        kind: JsonKind,
    ) -> JsonKind {
        if let Some(r) = &mut self.resume
            && self.pos - start >= LONG_TOKEN
        {
            r.skip = Some(SkipSlot {
                start,
                depth,
                kind,
                pos: self.pos,
                step: Step::After,
                stack: BitStack::new(),
                ws: self.ws - ws_start,
                done: true,
                walk: None,
            });
        }
        kind
    }

    /// Remembers the validator's state where the bytes ran out.
    #[cold]
    #[allow(clippy::too_many_arguments)]
    fn suspend_skip(
        &mut self,
        e: RawError,
        start: usize,
        ws_start: usize,
        depth: usize,
        kind: JsonKind,
        step: Step,
        stack: BitStack,
    ) -> RawError {
        let ws = self.ws - ws_start;
        if let Some(r) = &mut self.resume
            && r.partial
            && e.kind == ErrorKind::UnexpectedEof
        {
            r.skip = Some(SkipSlot {
                start,
                depth,
                kind,
                pos: self.pos,
                step,
                stack,
                ws,
                done: false,
                walk: None,
            });
            r.stopped_in = Stopped::Value;
        }
        e
    }
}

/// The end of the run of ASCII digits at `i`, eight bytes at a time while eight are left
/// (numbers in real payloads are often 13 to 17 digits long).
#[inline]
fn digits(b: &[u8], mut i: usize) -> usize {
    while let Some(Ok(word)) = b.get(i..i + 8).map(<[u8; 8]>::try_from) {
        let n = leading_digits(u64::from_le_bytes(word));
        i += n;
        if n < 8 {
            return i;
        }
    }
    while let Some(b'0'..=b'9') = b.get(i) {
        i += 1;
    }
    i
}

/// How many bytes of `x`, from the lowest, are ASCII digits before the first that is not.
#[inline(always)]
fn leading_digits(x: u64) -> usize {
    const LOW: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const SEVEN: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // A digit is a byte whose high nibble is 3 and whose low nibble is below 10. Each byte is
    // computed on its own: no step below carries from one byte into the next.
    let high_nibble_wrong = (x & !LOW) ^ 0x3030_3030_3030_3030;
    let low_nibble_too_big = ((x & LOW) + 0x0606_0606_0606_0606) & !LOW;
    let bad = high_nibble_wrong | low_nibble_too_big;
    // The top bit of each byte of `bad` that is not zero (that is, of each non-digit).
    let flags = (((bad & SEVEN) + SEVEN) | bad) & !SEVEN;
    (flags.trailing_zeros() / 8) as usize
}

/// One bit per open container (1 = object): 512 levels inline, heap beyond.
#[derive(Debug)]
pub(crate) struct BitStack {
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

/// Whether `input` holds `lit` at `at`: the templates of events (`events::fast`, whose tests
/// hold this to a slice compare) and of messages (`parser::heads`) compare their literals so.
#[inline(always)]
pub(crate) fn holds<const N: usize>(input: &[u8], at: usize, lit: &[u8; N]) -> bool {
    let Some(end) = at.checked_add(N) else {
        return false;
    };
    let Some(s) = input.get(at..end) else {
        return false;
    };
    if N < 16 {
        return s == lit;
    }
    // 16 bytes at a time (the last block ends at `N`, over the one before), as `u128`
    // compares inlined with the literal's blocks as constants, where an array compare of
    // more than 32 bytes calls `memcmp`.
    #[inline(always)]
    fn block(b: &[u8], k: usize) -> Option<u128> {
        b.get(k..k + 16)
            .and_then(|b| <[u8; 16]>::try_from(b).ok())
            .map(u128::from_ne_bytes)
    }
    let mut k = 0;
    loop {
        let k16 = if k + 16 > N { N - 16 } else { k };
        if block(s, k16) != block(lit, k16) {
            return false;
        }
        if k16 + 16 == N {
            return true;
        }
        k += 16;
    }
}

#[cfg(test)]
mod tests;
