//! Server-Sent Events (`text/event-stream`) framing.
//!
//! AG-UI servers stream their events as SSE: the official encoders write every event as
//! `data: <compact JSON>\n\n`. Real servers and proxies add comment lines (`: keep-alive`),
//! `event:`, `id:` and `retry:` fields, CRLF or lone CR line ends and a byte order mark. This module
//! turns such a stream, received in chunks of any size, into frames, and writes frames back.
//!
//! * [`SseDecoder`] is the streaming decoder. [`SseDecoder::feed`] takes one chunk and returns an
//!   [`SseFeed`], whose lending [`next`](SseFeed::next) hands out the frames the chunk completes.
//!   A frame whose single `data:` line lies whole inside the chunk is handed out as a slice of the
//!   chunk (no copy). Only a frame split across chunks, or one with several `data:` lines, is
//!   gathered in the decoder's buffer, whose size is bounded by
//!   [`SseOptions::with_max_frame_bytes`]. In steady state nothing is allocated.
//! * [`encode_frame`], [`encode_event`], [`encode_comment`] and [`encode_retry`] write SSE.
//! * [`SseReader`] drives a decoder from any [`std::io::Read`], for command-line tools.
//!
//! # A proxy's loop
//!
//! ```
//! use agui_wire::sse::{SseDecoder, SseOptions};
//!
//! let mut decoder = SseDecoder::new(SseOptions::default());
//! let mut forwarded = Vec::new();
//! // A TCP read may split a frame anywhere.
//! let chunks: [&[u8]; 3] = [b"data: {\"type\":\"RUN_STA", b"RTED\"}\r\n\r\n: keep-alive\n\n", b"data: {}\n\n"];
//! for chunk in chunks {
//!     let mut frames = decoder.feed(chunk);
//!     while let Some(frame) = frames.next() {
//!         let frame = frame?;
//!         forwarded.push(frame.data.to_vec());
//!     }
//! }
//! // At the end of the stream: an unterminated last frame is delivered here (as the official
//! // client does), or reported as an error with `SseOptions::with_strict_end(true)`.
//! assert!(decoder.finish()?.is_none());
//! assert_eq!(forwarded, [&b"{\"type\":\"RUN_STARTED\"}"[..], b"{}"]);
//! # Ok::<(), agui_wire::sse::SseError>(())
//! ```
//!
//! # Interpretation rules
//!
//! The decoder follows the WHATWG HTML "event stream interpretation" rules:
//!
//! * a line ends at LF, CRLF or a lone CR (also when a chunk ends between the CR and the LF);
//! * one U+FEFF byte order mark is stripped at the start of the stream, nowhere else;
//! * a line starting with `:` is a comment; otherwise the field name runs up to the first colon
//!   and the value follows it with one leading space removed; a line without a colon is a field
//!   name with an empty value; unknown fields are ignored;
//! * `data` appends its value (several `data` lines are joined with `\n`), `event` sets the event
//!   type, `id` sets the last event ID unless the value contains NUL, `retry` sets the reconnection
//!   time only if the value is all ASCII digits (an empty value is ignored; a value too big for a
//!   `u64` saturates at `u64::MAX`);
//! * a blank line dispatches the frame; a frame without any `data` line is not dispatched as an
//!   event (its `id` still takes effect, reported as [`SseItem::LastEventId`]);
//! * at the end of the stream an unterminated frame is discarded (but see *End of stream* below).
//!
//! Where agui-wire deviates, on purpose:
//!
//! * **UTF-8.** The standard decodes the stream as UTF-8 with replacement characters. The decoder
//!   hands out `data` as raw bytes instead (the JSON parser validates it, and copying to replace
//!   bytes would defeat zero-copy); [`SseFrame::data_str`] validates on request. Comments are raw
//!   bytes too. An `event` or `id` value that is not valid UTF-8 is reported as
//!   [`SseErrorKind::InvalidUtf8`] and its frame is skipped.
//! * **Size bound.** A frame (all its lines, from its first byte up to its blank line) longer than
//!   `max_frame_bytes` is reported as [`SseErrorKind::FrameTooLong`] as soon as the limit is
//!   passed, and skipped. Comment lines count towards the frame they are in, so a server that
//!   sends keep-alive comments without blank lines between them grows one frame; the usual
//!   `: keep-alive\n\n` is a frame of its own.
//! * **End of stream.** A last frame that the stream ends without a blank line after
//!   (`data: {...}` then EOF, with or without its line end) is delivered by
//!   [`SseDecoder::finish`], as if the blank line had arrived: that is what the official
//!   TypeScript client (`@ag-ui/client`, `parseSSEStream`) does, and agreeing with it matters more
//!   to a proxy than the letter of the standard. A tail without any `data` line dispatches
//!   nothing. [`SseOptions::with_strict_end`] restores the standard's reading: the tail is
//!   discarded and reported as [`SseErrorKind::Incomplete`], so a caller can tell a truncated
//!   stream.
//!
//! Errors are not fatal: the offending frame is skipped up to its blank line and decoding goes
//! on, so a caller may log and continue or stop at the first error. Whatever the chunking, the
//! decoder produces exactly the same items and errors as for the whole stream in one chunk.

mod decoder;
mod encoder;
mod feed;
mod reader;

pub use decoder::SseDecoder;
pub use encoder::{encode_comment, encode_event, encode_frame, encode_retry};
pub use feed::SseFeed;
pub use reader::{SseReadError, SseReader};

use std::fmt;
use std::ops::Range;
use std::str::Utf8Error;

/// The default for [`SseOptions::with_max_frame_bytes`]: 16 MiB.
///
/// ```
/// use agui_wire::sse::{SseOptions, DEFAULT_MAX_FRAME_BYTES};
/// assert_eq!(SseOptions::new().max_frame_bytes(), DEFAULT_MAX_FRAME_BYTES);
/// ```
pub const DEFAULT_MAX_FRAME_BYTES: usize = 16 * 1024 * 1024;

/// Settings of an [`SseDecoder`].
///
/// ```
/// use agui_wire::sse::{SseDecoder, SseOptions};
/// let options = SseOptions::new().with_max_frame_bytes(1 << 20);
/// assert_eq!(options.max_frame_bytes(), 1 << 20);
/// let _decoder = SseDecoder::new(options);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SseOptions {
    max_frame_bytes: usize,
    strict_end: bool,
}

impl SseOptions {
    /// The default options: frames up to [`DEFAULT_MAX_FRAME_BYTES`], an unterminated last
    /// frame delivered at the end of the stream (not strict; see [`SseOptions::with_strict_end`]).
    ///
    /// ```
    /// use agui_wire::sse::SseOptions;
    /// assert_eq!(SseOptions::new(), SseOptions::default());
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        SseOptions {
            max_frame_bytes: DEFAULT_MAX_FRAME_BYTES,
            strict_end: false,
        }
    }

    /// Sets the longest frame accepted, in stream bytes: all lines of the frame with their line
    /// ends, up to (not including) the blank line that ends it. This bounds the decoder's memory.
    /// A longer frame is reported as [`SseErrorKind::FrameTooLong`] and skipped.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseErrorKind, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::new().with_max_frame_bytes(8));
    /// let mut feed = decoder.feed(b"data: 12345678\n\ndata: 1\n\n");
    /// let err = feed.next().unwrap().unwrap_err();
    /// assert_eq!(err.kind(), &SseErrorKind::FrameTooLong { max_frame_bytes: 8 });
    /// assert_eq!(feed.next().unwrap()?.data, b"1"); // decoding goes on
    /// # Ok::<(), agui_wire::sse::SseError>(())
    /// ```
    #[must_use]
    pub const fn with_max_frame_bytes(mut self, max_frame_bytes: usize) -> Self {
        self.max_frame_bytes = max_frame_bytes;
        self
    }

    /// Whether an unterminated last frame is discarded at the end of the stream, as the SSE
    /// standard says (`true`), or delivered by [`SseDecoder::finish`] as if its blank line had
    /// arrived (`false`, the default, which is what the official TypeScript client does).
    ///
    /// Strict, [`SseDecoder::finish`] reports any bytes after the last blank line as
    /// [`SseErrorKind::Incomplete`]. Not strict, it hands out the frame those bytes make when it
    /// has a `data` line (a cut JSON value is then the JSON parser's to reject), and reports
    /// nothing when it has none.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseErrorKind, SseOptions};
    /// let stream = b"data: {\"type\":\"RUN_FINISHED\"}";
    ///
    /// let mut lenient = SseDecoder::new(SseOptions::new());
    /// drop(lenient.feed(stream));
    /// assert_eq!(lenient.finish()?.unwrap().data, b"{\"type\":\"RUN_FINISHED\"}");
    ///
    /// let mut strict = SseDecoder::new(SseOptions::new().with_strict_end(true));
    /// drop(strict.feed(stream));
    /// let err = strict.finish().unwrap_err();
    /// assert_eq!(err.kind(), &SseErrorKind::Incomplete { discarded: 29 });
    /// # Ok::<(), agui_wire::sse::SseError>(())
    /// ```
    #[must_use]
    pub const fn with_strict_end(mut self, strict: bool) -> Self {
        self.strict_end = strict;
        self
    }

    /// Whether the end of the stream is read strictly; see [`SseOptions::with_strict_end`].
    ///
    /// ```
    /// use agui_wire::sse::SseOptions;
    /// assert!(!SseOptions::new().strict_end());
    /// assert!(SseOptions::new().with_strict_end(true).strict_end());
    /// ```
    #[must_use]
    pub const fn strict_end(&self) -> bool {
        self.strict_end
    }

    /// The longest frame accepted, in bytes.
    ///
    /// ```
    /// use agui_wire::sse::SseOptions;
    /// assert_eq!(SseOptions::new().with_max_frame_bytes(10).max_frame_bytes(), 10);
    /// ```
    #[must_use]
    pub const fn max_frame_bytes(&self) -> usize {
        self.max_frame_bytes
    }
}

impl Default for SseOptions {
    fn default() -> Self {
        SseOptions::new()
    }
}

/// One dispatched event: the `data` of a frame with its `event` type and `id`.
///
/// It borrows either the chunk it was found in (a frame with one `data:` line lying whole in the
/// chunk) or the decoder's buffer.
///
/// ```
/// use agui_wire::sse::{SseDecoder, SseOptions};
/// let mut decoder = SseDecoder::new(SseOptions::default());
/// let mut feed = decoder.feed(b"event: agui\nid: 7\ndata: {\"a\":1}\n\n");
/// let frame = feed.next().unwrap()?;
/// assert_eq!(frame.event, Some("agui"));
/// assert_eq!(frame.id, Some("7"));
/// assert_eq!(frame.data, b"{\"a\":1}");
/// assert_eq!(frame.data_offset, 24);
/// # Ok::<(), agui_wire::sse::SseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SseFrame<'a> {
    /// The event type set by the frame's last `event:` line, or `None` when there was none or it
    /// was empty (the standard's default type `message`; see [`SseFrame::event_type`]).
    pub event: Option<&'a str>,
    /// The frame's data: the values of its `data:` lines joined with `\n`, as raw bytes.
    pub data: &'a [u8],
    /// The ID set by an `id:` line of this frame (`Some("")` for an empty `id:`), or `None` when
    /// the frame has no such line; the standard's last event ID, which persists across frames, is
    /// [`SseDecoder::last_event_id`].
    pub id: Option<&'a str>,
    /// Stream byte offset of the first byte of the first `data:` line's value (counting a byte
    /// order mark). For a one-line frame, byte `i` of `data` is at stream offset
    /// `data_offset + i`, which turns a JSON parser's offset into a stream offset.
    pub data_offset: u64,
}

impl<'a> SseFrame<'a> {
    /// The data as UTF-8 text.
    ///
    /// # Errors
    ///
    /// The UTF-8 error if `data` is not valid UTF-8.
    ///
    /// ```
    /// use agui_wire::sse::SseFrame;
    /// let frame = SseFrame { event: None, data: b"{}", id: None, data_offset: 6 };
    /// assert_eq!(frame.data_str(), Ok("{}"));
    /// ```
    pub fn data_str(&self) -> Result<&'a str, Utf8Error> {
        std::str::from_utf8(self.data)
    }

    /// The event type, with the standard's default `message` when the frame set none.
    ///
    /// ```
    /// use agui_wire::sse::SseFrame;
    /// let frame = SseFrame { event: None, data: b"{}", id: None, data_offset: 0 };
    /// assert_eq!(frame.event_type(), "message");
    /// ```
    #[must_use]
    pub fn event_type(&self) -> &'a str {
        self.event.unwrap_or("message")
    }

    /// Where the data lies in `chunk`, when the frame borrows it (zero-copy) rather than the
    /// decoder's buffer. A proxy holding the chunk in a shared buffer can use the range to keep
    /// the data beyond the frame's lifetime without copying.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let chunk = b"data: {\"a\":1}\n\n";
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// let mut feed = decoder.feed(chunk);
    /// let frame = feed.next().unwrap()?;
    /// assert_eq!(frame.data_range_in(chunk), Some(6..13));
    /// # Ok::<(), agui_wire::sse::SseError>(())
    /// ```
    #[must_use]
    pub fn data_range_in(&self, chunk: &[u8]) -> Option<Range<usize>> {
        let start = (self.data.as_ptr() as usize).checked_sub(chunk.as_ptr() as usize)?;
        let end = start.checked_add(self.data.len())?;
        (end <= chunk.len()).then_some(start..end)
    }

    /// Writes the frame as SSE (see [`encode_event`]); decoding the output gives this frame back.
    ///
    /// # Errors
    ///
    /// [`SseErrorKind::InvalidField`] if `event` holds a line break or `id` a line break or NUL,
    /// which a decoded frame never does.
    ///
    /// ```
    /// use agui_wire::sse::SseFrame;
    /// let frame = SseFrame { event: Some("agui"), data: b"{}", id: None, data_offset: 0 };
    /// let mut out = Vec::new();
    /// frame.encode(&mut out)?;
    /// assert_eq!(out, b"event: agui\ndata: {}\n\n");
    /// # Ok::<(), agui_wire::sse::SseError>(())
    /// ```
    pub fn encode(&self, out: &mut Vec<u8>) -> Result<(), SseError> {
        encode_event(out, self.event, self.id, self.data)
    }
}

/// Everything the decoder reports: events, and what a proxy may want to pass on besides them.
///
/// [`SseFeed::next`] yields only the frames; [`SseFeed::next_item`] yields all of these.
///
/// ```
/// use agui_wire::sse::{SseDecoder, SseItem, SseOptions};
/// let mut decoder = SseDecoder::new(SseOptions::default());
/// let mut feed = decoder.feed(b": ping\n\nretry: 3000\nid: 9\n\ndata: x\n\n");
/// assert_eq!(feed.next_item().unwrap()?, SseItem::Comment(b"ping"));
/// assert_eq!(feed.next_item().unwrap()?, SseItem::Retry(3000));
/// assert_eq!(feed.next_item().unwrap()?, SseItem::LastEventId("9"));
/// assert!(matches!(feed.next_item().unwrap()?, SseItem::Frame(f) if f.data == b"x"));
/// assert!(feed.next_item().is_none());
/// # Ok::<(), agui_wire::sse::SseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SseItem<'a> {
    /// A dispatched event.
    Frame(SseFrame<'a>),
    /// A comment line: the bytes after the `:`, one leading space removed (so
    /// [`encode_comment`] round-trips). Reported when its line ends.
    Comment(&'a [u8]),
    /// A valid `retry:` line; the value (milliseconds) is also kept in [`SseDecoder::retry`].
    Retry(u64),
    /// A blank line ended a frame that had an `id:` line but no `data:` line: no event is
    /// dispatched, but the last event ID is now this value.
    LastEventId(&'a str),
}

/// An error found while decoding or encoding SSE: a kind and a byte offset.
///
/// ```
/// use agui_wire::sse::{SseDecoder, SseErrorKind, SseOptions};
/// let mut decoder = SseDecoder::new(SseOptions::new().with_strict_end(true));
/// drop(decoder.feed(b"data: {\"truncated"));
/// let err = decoder.finish().unwrap_err();
/// assert_eq!(err.kind(), &SseErrorKind::Incomplete { discarded: 17 });
/// assert_eq!(err.offset(), 0);
/// assert_eq!(err.to_string(), "SSE stream ended inside a frame starting at byte 0 (17 bytes discarded)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseError {
    kind: SseErrorKind,
    offset: u64,
}

/// What went wrong; see [`SseError::kind`].
///
/// ```
/// use agui_wire::sse::{encode_event, SseErrorKind};
/// let err = encode_event(&mut Vec::new(), Some("a\nb"), None, b"{}").unwrap_err();
/// assert_eq!(err.kind(), &SseErrorKind::InvalidField { field: "event" });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SseErrorKind {
    /// A frame grew past `max_frame_bytes`; the offset is the frame's first byte. The frame is
    /// skipped up to its blank line.
    FrameTooLong {
        /// The limit that was passed.
        max_frame_bytes: usize,
    },
    /// An `event` or `id` value is not valid UTF-8; the offset is the first bad byte. The frame
    /// is skipped up to its blank line.
    InvalidUtf8 {
        /// `"event"` or `"id"`.
        field: &'static str,
    },
    /// The stream ended inside a frame, which is discarded as the standard says (only with
    /// [`SseOptions::with_strict_end`]); the offset is the frame's first byte.
    Incomplete {
        /// How many stream bytes the unterminated frame had.
        discarded: u64,
    },
    /// Encoding only: an `event` value holds CR or LF, or an `id` value holds CR, LF or NUL; the
    /// offset is that byte's index in the value.
    InvalidField {
        /// `"event"` or `"id"`.
        field: &'static str,
    },
}

impl SseError {
    fn new(kind: SseErrorKind, offset: u64) -> Self {
        SseError { kind, offset }
    }

    /// What went wrong.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseErrorKind, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// let mut feed = decoder.feed(b"event: \xff\ndata: x\n\n");
    /// let err = feed.next().unwrap().unwrap_err();
    /// assert_eq!(err.kind(), &SseErrorKind::InvalidUtf8 { field: "event" });
    /// ```
    #[must_use]
    pub fn kind(&self) -> &SseErrorKind {
        &self.kind
    }

    /// The stream byte offset the error refers to (see each [`SseErrorKind`]).
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// let mut feed = decoder.feed(b"data: ok\n\nevent: \xff\n\n");
    /// assert!(feed.next().unwrap().is_ok());
    /// assert_eq!(feed.next().unwrap().unwrap_err().offset(), 17);
    /// ```
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }
}

impl fmt::Display for SseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.offset;
        match &self.kind {
            SseErrorKind::FrameTooLong { max_frame_bytes } => write!(
                f,
                "SSE frame starting at byte {at} is longer than max_frame_bytes ({max_frame_bytes})"
            ),
            SseErrorKind::InvalidUtf8 { field } => {
                write!(f, "SSE `{field}` value is not valid UTF-8 at byte {at}")
            }
            SseErrorKind::Incomplete { discarded } => write!(
                f,
                "SSE stream ended inside a frame starting at byte {at} ({discarded} bytes discarded)"
            ),
            SseErrorKind::InvalidField { field } => write!(
                f,
                "SSE `{field}` value cannot be encoded: line break or NUL at index {at}"
            ),
        }
    }
}

impl std::error::Error for SseError {}
