//! Parsing a `RunAgentInput` body while it arrives: chunk in, [`Status`] out, the document at
//! the end.
//!
//! ```
//! use agui_wire::stream::{BodyBuf, BodyParser, Status};
//! use agui_wire::{Bump, Message};
//! let body = br#"{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"hi"}]}"#;
//! let (buf, arena) = (BodyBuf::new(), Bump::new());
//! let mut parser = BodyParser::new(&buf, &arena);
//! for chunk in body.chunks(16) {
//!     // Errors are reported as soon as the bytes that prove them have arrived.
//!     if let Status::Complete(len) = parser.feed(chunk)? {
//!         assert_eq!(len, body.len());
//!     }
//! }
//! let input = parser.finish()?;
//! assert!(matches!(input.messages[0], Message::User(_)));
//! // Zero-copy: the strings are slices of the buffer the chunks went into.
//! assert!(buf.offset_of(input.thread_id.raw().as_bytes()).is_some());
//! # Ok::<(), agui_wire::Error>(())
//! ```
//!
//! ## In async code
//! [`BodyParser`] borrows its buffer and arena, so it suits a loop that owns both (a thread per
//! connection, a synchronous callback). In an async task on a multi-threaded runtime, where
//! everything held across an `.await` must be `Send`, use [`OwnedBodyParser`]: the same parser
//! owning its buffer and arena, fed with `&[u8]` or `bytes::Bytes` frames
//! ([`OwnedBodyParser::feed_buf`]). It finishes into a [`ParsedBody`], which owns the body, the
//! arena and the document, and can be kept, edited, written, moved to another task or shared.
//!
//! ```
//! use agui_wire::stream::{OwnedBodyParser, ParsedBody};
//! use agui_wire::ParseOptions;
//! # fn frames() -> Vec<bytes::Bytes> { vec![bytes::Bytes::from_static(br#"{"threadId":"t","runId":"r","messages":[]}"#)] }
//! // Inside `async fn handler(body)`, for each `frame` of `body.frame().await`:
//! let mut parser = OwnedBodyParser::with_capacity(ParseOptions::default(), 1 << 16);
//! for frame in frames() {
//!     parser.feed_buf(frame)?; // an error here answers 400/413 before the body has ended
//! }
//! let parsed: ParsedBody = parser.finish()?; // Send + Sync + 'static
//! assert_eq!(parsed.input().thread_id, "t");
//! # Ok::<(), agui_wire::Error>(())
//! ```
//!
//! | type | `Send` | `Sync` | why |
//! |---|---|---|---|
//! | [`BodyBuf`] | yes | no | it owns its blocks; appending goes through `&self`, so two threads must not share one |
//! | [`BodyParser<'b>`] | no | no | it holds a `&'b Bump`, and `Bump` is not `Sync` (its `&self` allocation is single-threaded), so `&Bump` is not `Send` |
//! | [`OwnedBodyParser`] | yes | no | it holds the `Bump` and the `BodyBuf` by value, in one heap block with the parser that borrows them, and never hands out a reference to them, so moving it moves them whole |
//! | [`ParsedBody`] | yes | yes | as above; through `&ParsedBody` only the document and the bytes are reachable (both immutable): the arena is lent only by [`ParsedBody::with_input_mut`], which takes `&mut self` |
//! | [`Status`], [`CapacityError`] | yes | yes | plain values |
//!
//! The owning types are built with the `self_cell` crate (an owner and a value borrowing it,
//! in one allocation); their `Send`/`Sync` are asserted by `unsafe impl`s whose reasoning is at
//! the impls, with a compile-time check that nothing else in them is thread-bound.
//! `tests/stream_async.rs` holds a parser across `.await`s on tokio's multi-threaded runtime
//! and moves the parsed body between tasks; the unit tests move them between threads under
//! valgrind in CI.
//!
//! ## Guarantees
//! - **Same answers as one-shot parsing.** The document [`BodyParser::finish`] returns equals
//!   [`RunAgentInput::parse_with`] on the whole body; an error equals its error (kind, offset,
//!   path), with one exception: [`ErrorKind::InputTooLarge`] is reported as soon as the bytes
//!   received exceed [`ParseOptions::max_input_bytes`], with `len` the bytes received so far
//!   (and a grammar or protocol error that arrived earlier wins over it). The chunk that
//!   crosses the limit is refused before it is copied, so the buffer never holds more than
//!   the limit.
//! - **Errors early.** A grammar or protocol error is reported by the call that delivers the
//!   bytes proving it. Running out of bytes is not an error until [`BodyParser::finish`],
//!   which then reports what one-shot parsing reports for the truncated body (`UnexpectedEof`
//!   at its end, typically). See the last section for the one case where a protocol error
//!   waits for the end of its list item.
//! - **Complete as soon as the closing `}` arrives**: [`Status::Complete`] gives the length
//!   of the JSON value; whitespace after it is accepted, anything else is
//!   [`ErrorKind::TrailingCharacters`] (also when it arrives in a later chunk).
//! - **Zero-copy.** Chunks are appended to a [`BodyBuf`] (the one copy any receiver makes, from
//!   the socket into a buffer); the document borrows its strings from it, and nothing is
//!   copied when a parse resumes.
//! - **Linear work.** The work for a body fed in chunks stays within a small factor of
//!   one-shot parsing whatever the chunk boundaries (see the design below, and the numbers at
//!   the end).
//!
//! ## Design
//! Each call parses the bytes received so far with the one-shot parser's own code, in a mode
//! where running out of bytes stops the pass with `UnexpectedEof` instead of deciding. While
//! that error travels up, each resumable level saves its state; the next pass re-descends
//! from the top, and each level jumps to where it stopped:
//!
//! - the top-level object saves the fields read so far and the field being read;
//! - every list (`messages`, `tools`, `context`, `resume`, content parts, tool calls) saves
//!   its items built so far and where the next item starts;
//! - the string scanner saves how far it scanned a string (and its escape and UTF-8 flags), so
//!   a 64 MB base64 string is scanned once, in pieces, however many chunks it spans;
//! - the raw-value validator (`state`, `metadata`, unknown fields) saves its whole state (the
//!   open containers as a bit stack, the step it was at), so a 16 MB `state` is validated once;
//! - the whitespace skipper remembers a run that reached the end of the bytes, and the number
//!   scanner how far it got (and in which part: digits, fraction, exponent), so megabytes of
//!   whitespace between two fields, or a number of millions of digits, are read once too.
//!
//! A re-descent therefore re-reads only the typed prefix of the unfinished item (a message's
//! `"id":"…","role":"user",` before its content), a few dozen bytes. When a pass stopped
//! inside a string or a raw value, the next call does not even re-descend: it continues that
//! token over the new bytes, and descends again only once the token is finished.
//!
//! The saved items borrow the buffer, which is why the buffer is a [`BodyBuf`] and not a
//! caller's `Vec<u8>`: a growing `Vec` moves its bytes and needs `&mut` to grow, so nothing
//! parsed could be kept across chunks, and the document would have to be built again at the
//! end, doubling the work for message-heavy bodies. A `BodyBuf` grows through `&self` and
//! never moves a byte it has handed out (when it outgrows a block it keeps the old one: give
//! it the body's size, from `Content-Length` capped by `max_input_bytes`, and it uses one
//! block; [`OwnedBodyParser::with_capacity`] does that capping).
//!
//! [`Status::Partial`] carries no hint of how many bytes are missing: any string may be
//! arbitrarily long, so no honest number exists beyond "at least one".
//!
//! A few decisions look past the byte at hand, and would give a different verdict once more
//! bytes come: a number running into the end of the buffer (more digits may follow), the
//! offset of a "too many items" error (more whitespace may come before the next item), a body
//! that is so far a prefix of a byte order mark, the JSON path of an error inside an object key
//! whose closing quote has not arrived. On a growing buffer these wait for more bytes, so an error
//! reported early is always the error of the whole document.
//!
//! ## The bound on re-reading
//! A list item whose own fields are many (an object with thousands of unknown fields, say)
//! would make each re-descent re-read them all. The parser counts the bytes each pass
//! re-reads; once the re-reading for one item exceeds the item's size so far (plus 64 KiB),
//! the item is only validated as JSON, incrementally, until its closing bracket arrives, and
//! then parsed once. Work stays linear; the price is that a protocol error inside such an item
//! (not a grammar error, which is still found at once) is reported when the item is complete.
//! Ordinary bodies never reach this.
//!
//! ## Cost, measured
//! `benches/stream.rs` feeds three shapes in 4 KiB chunks. Instructions per body (callgrind,
//! exact), fed in 4 KiB chunks over one-shot parsing, not counting the copy of the chunks into
//! the buffer (which any receiver makes, into a `Vec` or a `BodyBuf`):
//!
//! | shape | size | fed / one-shot |
//! |---|---|---|
//! | media-heavy: one base64 string | 64 MB | 1.09 |
//! | chat-heavy: 20 000 small messages | 4.6 MB | 1.12 |
//! | state-heavy: one nested raw `state` | 16 MB | 1.07 |
//! | whitespace between two top-level fields | 10 MB | 1.03 (306x at 2.5 MB before the whitespace slot) |
//! | one number in `state` | 10 MB | 1.04 (306x at 2.5 MB before the number slot) |
//!
//! One-shot parsing itself is unchanged by the streaming support: it runs a copy of the
//! string scanner without the resume book-keeping, and pays one branch per string and per raw
//! value to choose it.

mod buf;
#[cfg(feature = "http-body")]
mod http;
#[cfg(test)]
mod linear;
mod owned;

pub use buf::{BodyBuf, CapacityError};
#[cfg(feature = "http-body")]
pub use http::ReadBodyError;
pub use owned::{OwnedBodyParser, ParsedBody};

use bumpalo::Bump;

use crate::error::{Error, ErrorKind, RawError, json_path_within};
use crate::model::RunAgentInput;
use crate::parser::resume::{Frames, ListStep};
use crate::parser::{ParseOptions, Parser};
use crate::scanner::resume::{Resume, Stopped};
use crate::scanner::{Cursor, simd};

/// Extra re-reading allowed for one list item before it is only validated until complete.
const REREAD_SLACK: usize = 64 << 10;

/// Where a body stands after the bytes received so far.
///
/// ```
/// use agui_wire::stream::{BodyBuf, BodyParser, Status};
/// use agui_wire::Bump;
/// let (buf, arena) = (BodyBuf::new(), Bump::new());
/// let mut parser = BodyParser::new(&buf, &arena);
/// assert_eq!(parser.feed(br#"{"threadId":"t","runId":"r","#)?, Status::Partial);
/// assert_eq!(parser.feed(br#""messages":[]} "#)?, Status::Complete(42));
/// assert!(parser.feed(b"\n")?.is_complete());
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Valid so far; more bytes are needed.
    Partial,
    /// The document is complete: its JSON value is the first `n` bytes (whitespace may
    /// follow). [`BodyParser::finish`] returns it.
    Complete(usize),
}

impl Status {
    /// Whether the document is complete.
    ///
    /// ```
    /// # use agui_wire::stream::Status;
    /// assert!(Status::Complete(2).is_complete() && !Status::Partial.is_complete());
    /// ```
    pub fn is_complete(&self) -> bool {
        matches!(self, Status::Complete(_))
    }
}

// One per parser, so the size of the complete document does not matter.
#[allow(clippy::large_enum_variant)]
enum State<'b> {
    Parsing,
    /// The value ended at `end`; bytes up to `checked` are known to be whitespace after it.
    Complete {
        doc: RunAgentInput<'b>,
        end: usize,
        checked: usize,
    },
    Failed(Error),
}

/// An error found before the bytes that fix its JSON path arrived (it is in an object key
/// whose closing quote is still to come).
struct PendingPath {
    error: RawError,
    /// Next byte of the key to look at.
    scan: usize,
}

/// A resumable parser for one `RunAgentInput` body arriving in chunks.
///
/// The body goes into a [`BodyBuf`] and the lists into a [`Bump`] arena, both owned by the
/// caller and borrowed for `'b`, the lifetime of the returned document (as with
/// [`RunAgentInput::parse`]). Append with [`BodyParser::feed`] (or to the buffer directly,
/// then [`BodyParser::advance`]); when the body has ended, [`BodyParser::finish`] returns the
/// document or the error one-shot parsing gives.
///
/// ```
/// use agui_wire::stream::{BodyBuf, BodyParser, Status};
/// use agui_wire::{Bump, ErrorKind};
/// let (buf, arena) = (BodyBuf::new(), Bump::new());
/// let mut parser = BodyParser::new(&buf, &arena);
/// assert_eq!(parser.feed(br#"{"threadId":"t","runId":"r","messages":[{"id":"1","#)?, Status::Partial);
/// // The protocol error is reported by the chunk that proves it, as one-shot reports it.
/// let err = parser.feed(br#""role":"robot","content":"x"}]}"#).unwrap_err();
/// assert_eq!((err.path(), err.offset()), ("messages[0].role", 57));
/// assert!(matches!(err.kind(), ErrorKind::UnknownVariant { .. }));
/// # Ok::<(), agui_wire::Error>(())
/// ```
pub struct BodyParser<'b> {
    buf: &'b BodyBuf,
    arena: &'b Bump,
    opts: ParseOptions,
    frames: Frames<'b>,
    resume: Option<Box<Resume>>,
    state: State<'b>,
    pending: Option<PendingPath>,
    /// Offset of the document's `{` once seen, or how far leading whitespace was skipped.
    lead: usize,
    opened: bool,
    /// Buffer length at the last pass.
    seen: usize,
    /// Bytes read more than once, over all passes (for the tests of the bound).
    reread: usize,
    /// The body's length as announced ([`BodyParser::expect_len`]; 0: not known).
    expected: usize,
}

impl<'b> BodyParser<'b> {
    /// A parser with the default [`ParseOptions`].
    ///
    /// ```
    /// use agui_wire::stream::{BodyBuf, BodyParser};
    /// use agui_wire::Bump;
    /// let (buf, arena) = (BodyBuf::with_capacity(1 << 16), Bump::new());
    /// let parser = BodyParser::new(&buf, &arena);
    /// # drop(parser);
    /// ```
    pub fn new(buf: &'b BodyBuf, arena: &'b Bump) -> BodyParser<'b> {
        BodyParser::with_options(buf, arena, ParseOptions::default())
    }

    /// A parser with the given options.
    ///
    /// ```
    /// use agui_wire::stream::{BodyBuf, BodyParser};
    /// use agui_wire::{Bump, ErrorKind, ParseOptions};
    /// let (buf, arena) = (BodyBuf::new(), Bump::new());
    /// let opts = ParseOptions { max_input_bytes: 8, ..ParseOptions::default() };
    /// let mut parser = BodyParser::with_options(&buf, &arena, opts);
    /// let err = parser.feed(br#"{"threadId":"t"#).unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::InputTooLarge { len: 14, limit: 8 });
    /// ```
    pub fn with_options(
        buf: &'b BodyBuf,
        arena: &'b Bump,
        options: ParseOptions,
    ) -> BodyParser<'b> {
        BodyParser {
            buf,
            arena,
            opts: options,
            frames: Frames::default(),
            resume: None,
            state: State::Parsing,
            pending: None,
            lead: 0,
            opened: false,
            seen: usize::MAX,
            reread: 0,
            expected: 0,
        }
    }

    /// Tells the parser how long the body is expected to be (its `Content-Length`), so that
    /// long lists are sized much as a one-shot parse of the whole body sizes them: a
    /// `messages` list of 20 000 messages then grows in a few steps instead of doubling a
    /// dozen times, each doubling copying it and leaving the old copy in the arena.
    ///
    /// Only a hint: a body shorter or longer than announced parses the same, and a wrong
    /// hint costs no more than arena room. The announced length is capped by
    /// [`ParseOptions::max_input_bytes`], and believed only up to eight times the bytes
    /// received so far, so a client that announces a large body and sends a small one makes
    /// the lists reserve at most four times what it sent (a long list then grows eightfold
    /// at each step until its estimate from the bytes read takes over).
    /// [`OwnedBodyParser::with_capacity`] announces its capacity this way.
    ///
    /// ```
    /// use agui_wire::stream::{BodyBuf, BodyParser, Status};
    /// use agui_wire::Bump;
    /// let body = br#"{"threadId":"t","runId":"r","messages":[]}"#;
    /// let (buf, arena) = (BodyBuf::with_capacity(body.len()), Bump::new());
    /// let mut parser = BodyParser::new(&buf, &arena);
    /// parser.expect_len(body.len());
    /// for chunk in body.chunks(8) {
    ///     parser.feed(chunk)?;
    /// }
    /// assert_eq!(parser.finish()?.run_id, "r");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn expect_len(&mut self, len: usize) {
        self.expected = len.min(self.opts.max_input_bytes);
    }

    /// Appends `chunk` to the buffer and parses on.
    ///
    /// ```
    /// use agui_wire::stream::{BodyBuf, BodyParser, Status};
    /// use agui_wire::Bump;
    /// let (buf, arena) = (BodyBuf::new(), Bump::new());
    /// let mut parser = BodyParser::new(&buf, &arena);
    /// assert_eq!(parser.feed(b"  {")?, Status::Partial);
    /// assert_eq!(buf.as_bytes(), b"  {");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Status, Error> {
        if let State::Parsing = self.state {
            let len = self.buf.len().saturating_add(chunk.len());
            if len > self.opts.max_input_bytes {
                // Refused before it is copied: the buffer never grows past the limit.
                let limit = self.opts.max_input_bytes;
                let kind = ErrorKind::InputTooLarge { len, limit };
                return Err(self.fail(Error::new(kind, 0, "")));
            }
            self.buf
                .reserve_within(chunk.len(), self.opts.max_input_bytes);
            let buf = self.buf;
            if let Some(r) = self.in_long_string() {
                // The chunk goes on with the string the last pass stopped in, scanned to its
                // end (the last byte received): scan it as it is copied. `advance` then takes
                // it from the first special byte, as it would have found it.
                let base = buf.len();
                let (k, non_ascii) = buf.extend_scanning_string(chunk);
                r.string.at = base + k;
                r.string.non_ascii |= non_ascii;
                return self.advance();
            }
        }
        self.buf.extend_from_slice(chunk);
        self.advance()
    }

    /// The string being scanned when the last chunk ended inside it, with no byte of it left
    /// to scan (its plain run reached the end of the buffer), if there is one and no error is
    /// pending.
    #[inline]
    fn in_long_string(&mut self) -> Option<&mut Resume> {
        let len = self.buf.len();
        if self.pending.is_some() || self.seen != len {
            return None;
        }
        self.resume.as_deref_mut().filter(|r| {
            matches!(r.stopped_in, Stopped::String) && !r.string.done && r.string.at == len
        })
    }

    /// Parses on after bytes were appended to the buffer (by [`BodyBuf::extend_from_slice`]).
    /// Calling it with no new bytes is cheap and changes nothing.
    ///
    /// Once an error is returned, every later call returns it again.
    ///
    /// ```
    /// use agui_wire::stream::{BodyBuf, BodyParser, Status};
    /// use agui_wire::Bump;
    /// let (buf, arena) = (BodyBuf::new(), Bump::new());
    /// let mut parser = BodyParser::new(&buf, &arena);
    /// buf.extend_from_slice(br#"{"threadId":"t","runId":"r","messages":[]}"#);
    /// assert_eq!(parser.advance()?, Status::Complete(42));
    /// buf.extend_from_slice(b" x");
    /// assert_eq!(parser.advance().unwrap_err().offset(), 43);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn advance(&mut self) -> Result<Status, Error> {
        let bytes: &'b [u8] = self.buf.as_bytes();
        match &mut self.state {
            State::Failed(e) => return Err(e.clone()),
            State::Complete { end, checked, .. } => {
                let end = *end;
                let from = (*checked).min(bytes.len());
                let not_ws = |b: &u8| !matches!(b, b' ' | b'\t' | b'\n' | b'\r');
                match bytes[from..].iter().position(not_ws) {
                    None => {
                        *checked = bytes.len();
                        return Ok(Status::Complete(end));
                    }
                    Some(i) => {
                        let e = RawError::new(ErrorKind::TrailingCharacters, from + i);
                        return Err(self.fail(e.locate(bytes)));
                    }
                }
            }
            State::Parsing => {}
        }
        if bytes.len() > self.opts.max_input_bytes {
            let kind = ErrorKind::InputTooLarge {
                len: bytes.len(),
                limit: self.opts.max_input_bytes,
            };
            return Err(self.fail(Error::new(kind, 0, "")));
        }
        if let Some(p) = &mut self.pending {
            // The error is known; only the end of the key holding it is awaited.
            while p.scan < bytes.len() {
                match bytes.get(p.scan) {
                    Some(b'"') => break,
                    Some(b'\\') => p.scan += 2,
                    _ => p.scan += 1,
                }
            }
            if p.scan >= bytes.len() {
                return Ok(Status::Partial);
            }
            let error = p.error.clone();
            self.pending = None;
            return self.report(error, bytes, true);
        }
        if bytes.len() == self.seen {
            return Ok(Status::Partial);
        }
        if self.continue_token(bytes) {
            return Ok(Status::Partial);
        }
        self.pass(bytes, true)
    }

    /// Ends the body: returns the document, or the error that one-shot parsing gives for the
    /// bytes received (`UnexpectedEof` for a body cut short).
    ///
    /// ```
    /// use agui_wire::stream::{BodyBuf, BodyParser};
    /// use agui_wire::{Bump, ErrorKind, RunAgentInput};
    /// let (buf, arena) = (BodyBuf::new(), Bump::new());
    /// let mut parser = BodyParser::new(&buf, &arena);
    /// parser.feed(br#"{"threadId":"t","runId":"r","messages":[{"id":"1""#)?;
    /// let err = parser.finish().unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::UnexpectedEof);
    /// assert_eq!(err, RunAgentInput::parse(buf.as_bytes(), &arena).unwrap_err());
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn finish(mut self) -> Result<RunAgentInput<'b>, Error> {
        self.finish_in_place()
    }

    /// [`BodyParser::finish`] through `&mut self` (for [`OwnedBodyParser`], which keeps the
    /// parser beside the document); the parser is not to be used afterwards.
    fn finish_in_place(&mut self) -> Result<RunAgentInput<'b>, Error> {
        let bytes: &'b [u8] = self.buf.as_bytes();
        self.advance()?;
        if let Some(p) = self.pending.take() {
            return Err(p.error.locate(bytes));
        }
        if let State::Parsing = self.state {
            self.pass(bytes, false)?;
        }
        match std::mem::replace(&mut self.state, State::Parsing) {
            State::Complete { doc, .. } => Ok(doc),
            State::Failed(e) => Err(e),
            // A final pass either completes or fails.
            State::Parsing => Err(Error::locate(ErrorKind::UnexpectedEof, bytes.len(), bytes)),
        }
    }

    /// Whether the document is complete (a later [`BodyParser::finish`] returns it, unless
    /// non-whitespace bytes are appended first).
    ///
    /// ```
    /// use agui_wire::stream::{BodyBuf, BodyParser};
    /// use agui_wire::Bump;
    /// let (buf, arena) = (BodyBuf::new(), Bump::new());
    /// let mut parser = BodyParser::new(&buf, &arena);
    /// parser.feed(br#"{"threadId":"t","runId":"r","messages":[]}"#)?;
    /// assert!(parser.is_complete());
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn is_complete(&self) -> bool {
        matches!(self.state, State::Complete { .. })
    }

    fn fail(&mut self, e: Error) -> Error {
        self.state = State::Failed(e.clone());
        e
    }

    /// Reports an error found in a pass: at once if its JSON path is settled, else once the
    /// key holding it is complete.
    fn report(&mut self, error: RawError, bytes: &[u8], partial: bool) -> Result<Status, Error> {
        if !partial {
            return Err(self.fail(error.locate(bytes)));
        }
        match json_path_within(bytes, error.offset) {
            Ok(path) => Err(self.fail(Error::new(error.kind, error.offset, path))),
            Err((_, from)) => {
                self.pending = Some(PendingPath { error, scan: from });
                Ok(Status::Partial)
            }
        }
    }

    /// When the last pass ran out of bytes inside a string or a raw value, continues that
    /// token directly, without re-descending to it: returns `true` if the new bytes did not
    /// finish it (then the pass would have stopped there again, with the same saved state).
    fn continue_token(&mut self, bytes: &'b [u8]) -> bool {
        let Some(mut resume) = self.resume.take() else {
            return false;
        };
        let mut more = false;
        match resume.stopped_in {
            Stopped::String if !resume.string.done => {
                let (end, non_ascii) = simd::find_string_special(bytes, resume.string.at);
                if end == bytes.len() {
                    resume.string.at = end;
                    resume.string.non_ascii |= non_ascii;
                    more = true;
                }
            }
            Stopped::Value => {
                if let Some((start, depth)) = resume.skip.as_ref().map(|s| (s.start, s.depth)) {
                    resume.begin(true);
                    resume.walk_from = start;
                    let mut cur = Cursor::new(bytes);
                    cur.pos = start;
                    cur.resume = Some(resume);
                    let r = cur.skip_value(depth, self.opts.max_depth);
                    more = matches!(r, Err(e) if e.kind == ErrorKind::UnexpectedEof);
                    let Some(r) = cur.resume.take() else {
                        return false;
                    };
                    resume = r;
                    if more {
                        // (Otherwise the pass that follows counts its own reading.)
                        self.reread += resume.end(bytes.len());
                    }
                    if !more {
                        // Finished (or wrong): the pass re-descends and takes it from here.
                        resume.stopped_in = Stopped::Elsewhere;
                    }
                }
            }
            _ => {}
        }
        if more {
            resume.high = bytes.len();
            self.seen = bytes.len();
        }
        self.resume = Some(resume);
        more
    }

    /// One pass over the bytes received so far (`partial`: more may come).
    fn pass(&mut self, bytes: &'b [u8], partial: bool) -> Result<Status, Error> {
        self.seen = bytes.len();
        const BOM: &[u8] = &[0xEF, 0xBB, 0xBF];
        if bytes.starts_with(BOM) {
            let e = RawError::new(ErrorKind::ByteOrderMark, 0);
            return self.report(e, bytes, false);
        }
        if partial && BOM.starts_with(bytes) {
            // Empty, or the start of a byte order mark.
            return Ok(Status::Partial);
        }
        let mut resume = self
            .resume
            .take()
            .unwrap_or_else(|| Box::new(Resume::new()));
        resume.begin(partial);
        resume.expected = self.expected;
        self.frames.pass += 1;
        let opts = &self.opts;
        let mut p = Parser::new(bytes, self.arena, opts);
        p.cur.resume = Some(resume);
        p.frames = Some(&mut self.frames);
        let lead = self.lead;
        let opened = self.opened;
        let mut new_lead = lead;
        let result = (|| {
            p.cur.seek(lead);
            if !opened {
                p.cur.skip_ws();
                new_lead = p.cur.pos;
                p.expect_kind(b'{', "RunAgentInput", "an object")?;
            }
            let doc = p.run_agent_input()?;
            let end = p.cur.pos;
            p.cur.skip_ws();
            if p.cur.pos != bytes.len() {
                return Err(p.cur.err(ErrorKind::TrailingCharacters));
            }
            Ok((doc, end))
        })();
        let (lead_found, at_brace) = (new_lead, bytes.get(new_lead) == Some(&b'{'));
        let mut resume = p.cur.resume.take();
        drop(p);
        if !opened {
            self.lead = lead_found;
            self.opened = at_brace;
        }
        if let Some(r) = &mut resume {
            let reread = r.end(bytes.len());
            self.reread += reread;
            if let Some(f) = self.frames.outermost_list() {
                f.reread += reread;
                if f.step == ListStep::Item
                    && f.reread > bytes.len().saturating_sub(f.pos) + REREAD_SLACK
                {
                    f.skip = true;
                }
            }
        }
        self.resume = resume;
        match result {
            Ok((doc, end)) => {
                self.frames = Frames::default();
                self.state = State::Complete {
                    doc,
                    end,
                    checked: bytes.len(),
                };
                Ok(Status::Complete(end))
            }
            Err(e) if partial && e.kind == ErrorKind::UnexpectedEof => Ok(Status::Partial),
            Err(e) => self.report(e, bytes, partial),
        }
    }
}

/// What a [`BodyParser`] holds besides its references to the buffer and the arena (and the
/// arena vectors, which hold a `&Bump`): all `Send`, which the `unsafe impl Send` of
/// [`OwnedBodyParser`] rests on. A compile-time check (never called).
#[allow(dead_code)]
pub(super) fn assert_parser_parts_send() {
    use crate::model::{Context, Field, InputContent, Message, ResumeEntry, Str, Tool, ToolCall};
    fn send<T: Send>() {}
    send::<ParseOptions>();
    send::<State<'static>>();
    send::<Option<Box<Resume>>>();
    send::<Option<PendingPath>>();
    // The saved frames: their items, and the object book-keeping besides its arena vector.
    send::<Message<'static>>();
    send::<InputContent<'static>>();
    send::<ToolCall<'static>>();
    send::<Tool<'static>>();
    send::<Context<'static>>();
    send::<ResumeEntry<'static>>();
    send::<Field<'static>>();
    send::<Str<'static>>();
    send::<crate::scanner::StrToken<'static>>();
    send::<smallvec::SmallVec<[u16; 16]>>();
}

impl std::fmt::Debug for BodyParser<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match &self.state {
            State::Parsing => "parsing",
            State::Complete { .. } => "complete",
            State::Failed(_) => "failed",
        };
        f.debug_struct("BodyParser")
            .field("received", &self.buf.len())
            .field("state", &state)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed_all(doc: &[u8], chunk: usize) -> (usize, bool) {
        let (buf, arena) = (BodyBuf::new(), Bump::new());
        let mut p = BodyParser::new(&buf, &arena);
        let mut skipped = false;
        for c in doc.chunks(chunk) {
            p.feed(c).unwrap();
            skipped |= p.frames.lists.iter().any(|f| f.skip);
        }
        let reread = p.reread;
        let one = Bump::new();
        let want = format!("{:?}", RunAgentInput::parse(doc, &one).unwrap());
        assert_eq!(format!("{:?}", p.finish().unwrap()), want);
        (reread, skipped)
    }

    #[test]
    fn rereading_stays_small_for_ordinary_bodies() {
        let mut doc = String::from(r#"{"threadId":"t","runId":"r","messages":["#);
        for i in 0..2000 {
            if i > 0 {
                doc.push(',');
            }
            doc.push_str(&format!(
                r#"{{"id":"{i}","role":"user","content":[{{"type":"text","text":"{}"}}]}}"#,
                "x".repeat(i % 300)
            ));
        }
        doc.push_str(r#"],"state":{"k":""#);
        doc.push_str(&"y".repeat(1 << 20));
        doc.push_str(r#""}}"#);
        let (reread, skipped) = feed_all(doc.as_bytes(), 4096);
        // At most the start of one message per chunk.
        assert!(reread < doc.len() / 10, "{reread} of {}", doc.len());
        assert!(!skipped);
    }

    #[test]
    fn rereading_is_bounded_for_items_with_many_fields() {
        let mut fields = String::new();
        for i in 0..40_000 {
            fields.push_str(&format!(r#""k{i}":{i},"#));
        }
        let doc = format!(
            r#"{{"threadId":"t","runId":"r","messages":[{{"id":"1","role":"user",{fields}"content":"x"}}]}}"#
        );
        let (reread, skipped) = feed_all(doc.as_bytes(), 1024);
        assert!(skipped);
        assert!(
            reread < doc.len() + 3 * REREAD_SLACK,
            "{reread} of {}",
            doc.len()
        );
    }
}
