//! [`SseReader`]: a decoder driven by a [`std::io::Read`].

use std::fmt;
use std::io::{self, Read};

use super::decoder::Out;
use super::{SseDecoder, SseError, SseFrame, SseItem, SseOptions};

/// An error of an [`SseReader`]: reading failed, or the stream is not valid SSE.
///
/// ```
/// use agui_wire::sse::{SseOptions, SseReadError, SseReader};
/// let strict = SseOptions::new().with_strict_end(true);
/// let mut reader = SseReader::with_options(&b"data: cut"[..], strict, 1024);
/// match reader.next() {
///     Some(Err(SseReadError::Sse(err))) => assert_eq!(err.offset(), 0),
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Debug)]
pub enum SseReadError {
    /// The reader failed.
    Io(io::Error),
    /// The stream is not valid SSE, or ended inside a frame.
    Sse(SseError),
}

impl fmt::Display for SseReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SseReadError::Io(err) => write!(f, "reading the SSE stream failed: {err}"),
            SseReadError::Sse(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for SseReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SseReadError::Io(err) => Some(err),
            SseReadError::Sse(err) => Some(err),
        }
    }
}

impl From<io::Error> for SseReadError {
    fn from(err: io::Error) -> Self {
        SseReadError::Io(err)
    }
}

impl From<SseError> for SseReadError {
    fn from(err: SseError) -> Self {
        SseReadError::Sse(err)
    }
}

/// The default read buffer size of an [`SseReader`]: 64 KiB.
const READ_BUFFER: usize = 64 * 1024;

/// Decodes SSE from a [`Read`], reusing one read buffer and the decoder's buffer.
///
/// Like [`SseFeed`](super::SseFeed) it lends each frame until the next call. At the end of the input it ends
/// the stream as [`SseDecoder::finish`] does: it yields an unterminated last frame (the default)
/// or, with [`SseOptions::with_strict_end`], [`SseErrorKind::Incomplete`](super::SseErrorKind::Incomplete)
/// if the stream was cut inside a frame. Reads that fail with [`io::ErrorKind::Interrupted`] are retried; other read errors are
/// yielded, and calling again reads again.
///
/// ```
/// use agui_wire::sse::SseReader;
/// let input = &b"data: {\"type\":\"RUN_STARTED\"}\n\ndata: {\"type\":\"RUN_FINISHED\"}\n\n"[..];
/// let mut reader = SseReader::new(input);
/// let mut count = 0;
/// while let Some(frame) = reader.next() {
///     assert!(frame?.data.starts_with(b"{\"type\":\"RUN_"));
///     count += 1;
/// }
/// assert_eq!(count, 2);
/// # Ok::<(), agui_wire::sse::SseReadError>(())
/// ```
#[derive(Debug)]
pub struct SseReader<R> {
    inner: R,
    decoder: SseDecoder,
    buf: Vec<u8>,
    len: usize,
    pos: usize,
    eof: bool,
}

impl<R: Read> SseReader<R> {
    /// A reader with default options and a 64 KiB read buffer.
    ///
    /// ```
    /// use agui_wire::sse::SseReader;
    /// let mut reader = SseReader::new(&b"data: 1\n\n"[..]);
    /// assert_eq!(reader.next().unwrap()?.data, b"1");
    /// # Ok::<(), agui_wire::sse::SseReadError>(())
    /// ```
    pub fn new(inner: R) -> Self {
        SseReader::with_options(inner, SseOptions::default(), READ_BUFFER)
    }

    /// A reader with the given decoder options and read buffer size (at least 1 byte).
    ///
    /// ```
    /// use agui_wire::sse::{SseOptions, SseReader};
    /// let mut reader = SseReader::with_options(&b"data: 12\n\n"[..], SseOptions::default(), 3);
    /// assert_eq!(reader.next().unwrap()?.data, b"12");
    /// # Ok::<(), agui_wire::sse::SseReadError>(())
    /// ```
    pub fn with_options(inner: R, options: SseOptions, buffer_size: usize) -> Self {
        SseReader {
            inner,
            decoder: SseDecoder::new(options),
            buf: vec![0; buffer_size.max(1)],
            len: 0,
            pos: 0,
            eof: false,
        }
    }

    fn advance(&mut self) -> Option<Result<Out, io::Error>> {
        loop {
            if self.pos < self.len {
                let chunk = self.buf.get(..self.len).unwrap_or_default();
                if let Some(out) = self.decoder.advance(chunk, &mut self.pos) {
                    return Some(Ok(out));
                }
            }
            if self.len > 0 {
                self.decoder
                    .end_chunk(self.buf.get(..self.len).unwrap_or_default());
                self.len = 0;
                self.pos = 0;
            }
            if self.eof {
                return None;
            }
            match self.inner.read(&mut self.buf) {
                Ok(0) => {
                    self.eof = true;
                    return self.decoder.end_stream().map(Ok);
                }
                Ok(n) => self.len = n.min(self.buf.len()),
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Some(Err(err)),
            }
        }
    }

    /// The next frame or error, or `None` at the end of the input. Comments, `retry` and id-only
    /// frames are skipped, as by [`SseFeed::next`](super::SseFeed::next).
    ///
    /// ```
    /// use agui_wire::sse::SseReader;
    /// let mut reader = SseReader::new(&b": hi\n\ndata: x\n\n"[..]);
    /// assert_eq!(reader.next().unwrap()?.data, b"x");
    /// assert!(reader.next().is_none());
    /// # Ok::<(), agui_wire::sse::SseReadError>(())
    /// ```
    #[allow(clippy::should_implement_trait)] // a lending iterator cannot implement `Iterator`
    pub fn next(&mut self) -> Option<Result<SseFrame<'_>, SseReadError>> {
        loop {
            match self.advance()? {
                Ok(Out::Frame(desc)) => {
                    let chunk = self.buf.get(..self.len).unwrap_or_default();
                    return Some(Ok(self.decoder.frame(desc, chunk)));
                }
                Ok(Out::Err(err)) => return Some(Err(SseReadError::Sse(err))),
                Ok(Out::Comment(_) | Out::Retry(_) | Out::LastEventId) => {}
                Err(err) => return Some(Err(SseReadError::Io(err))),
            }
        }
    }

    /// The next item of any kind or error, or `None` at the end of the input.
    ///
    /// ```
    /// use agui_wire::sse::{SseItem, SseReader};
    /// let mut reader = SseReader::new(&b"retry: 5\n\n"[..]);
    /// assert!(matches!(reader.next_item(), Some(Ok(SseItem::Retry(5)))));
    /// ```
    pub fn next_item(&mut self) -> Option<Result<SseItem<'_>, SseReadError>> {
        match self.advance()? {
            Ok(out) => {
                let chunk = self.buf.get(..self.len).unwrap_or_default();
                Some(self.decoder.item(out, chunk).map_err(SseReadError::Sse))
            }
            Err(err) => Some(Err(SseReadError::Io(err))),
        }
    }

    /// The decoder, for [`last_event_id`](SseDecoder::last_event_id) and
    /// [`retry`](SseDecoder::retry).
    ///
    /// ```
    /// use agui_wire::sse::SseReader;
    /// let mut reader = SseReader::new(&b"id: 3\ndata: x\n\n"[..]);
    /// let _ = reader.next();
    /// assert_eq!(reader.decoder().last_event_id(), "3");
    /// ```
    #[must_use]
    pub fn decoder(&self) -> &SseDecoder {
        &self.decoder
    }

    /// The underlying reader.
    ///
    /// ```
    /// use agui_wire::sse::SseReader;
    /// let reader = SseReader::new(&b""[..]);
    /// assert!(reader.into_inner().is_empty());
    /// ```
    pub fn into_inner(self) -> R {
        self.inner
    }
}
