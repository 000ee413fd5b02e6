//! [`SseFeed`]: the frames (and other items) one chunk completes, handed out one by one.

use super::decoder::Out;
use super::{SseDecoder, SseError, SseFrame, SseItem};

/// The frames one chunk completes: see [`SseDecoder::feed`].
///
/// Its `next` methods lend: a frame borrows the feed until the next call, which is why this is
/// not a [`std::iter::Iterator`]. Loop with `while let`.
///
/// ```
/// use agui_wire::sse::{SseDecoder, SseOptions};
/// let mut decoder = SseDecoder::new(SseOptions::default());
/// let mut feed = decoder.feed(b"data: {\"type\":\"RUN_STARTED\"}\n\n");
/// while let Some(frame) = feed.next() {
///     let frame = frame?;
///     assert_eq!(frame.data_str(), Ok("{\"type\":\"RUN_STARTED\"}"));
/// }
/// # Ok::<(), agui_wire::sse::SseError>(())
/// ```
#[derive(Debug)]
pub struct SseFeed<'d, 'c> {
    decoder: &'d mut SseDecoder,
    chunk: &'c [u8],
    pos: usize,
    done: bool,
}

impl<'d, 'c> SseFeed<'d, 'c> {
    /// The feed of `chunk`, decoded from its start.
    pub(super) fn new(decoder: &'d mut SseDecoder, chunk: &'c [u8]) -> Self {
        SseFeed {
            decoder,
            chunk,
            pos: 0,
            done: false,
        }
    }
}

impl<'c> SseFeed<'_, 'c> {
    fn advance(&mut self) -> Option<Out> {
        if self.done {
            return None;
        }
        let out = self.decoder.advance(self.chunk, &mut self.pos);
        if out.is_none() {
            self.decoder.end_chunk(self.chunk);
            self.done = true;
        }
        out
    }

    /// The next frame (dispatched event) or error, or `None` once the chunk is used up.
    /// Comments, `retry` and id-only frames are skipped (they still update
    /// [`last_event_id`](SseFeed::last_event_id) and [`retry`](SseFeed::retry)).
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// let mut feed = decoder.feed(b": hi\n\ndata: a\ndata: b\n\n");
    /// assert_eq!(feed.next().unwrap()?.data, b"a\nb");
    /// assert!(feed.next().is_none());
    /// # Ok::<(), agui_wire::sse::SseError>(())
    /// ```
    #[allow(clippy::should_implement_trait)] // a lending iterator cannot implement `Iterator`
    #[inline(always)]
    pub fn next(&mut self) -> Option<Result<SseFrame<'_>, SseError>> {
        if let Some((data, data_offset)) = self.quick_frame() {
            return Some(Ok(SseFrame {
                event: None,
                data,
                id: None,
                data_offset,
            }));
        }
        self.next_general()
    }

    /// The common case without the line machine: at a frame boundary, a frame that is one
    /// `data:` line ended by LF and directly followed by a blank LF line, all in
    /// `chunk[pos..]`. Hands out its data and data offset, as the line machine would, for
    /// less: the line end is searched from the value, and nothing of the decoder's state
    /// changes but the start of the item last handed out. `None`, with
    /// nothing changed but the reset the line machine would also make, leaves the bytes to
    /// the line machine (CR line ends, other fields, comments, a frame cut by the chunk's end,
    /// one over the size limit).
    #[inline(always)]
    fn quick_frame(&mut self) -> Option<(&'c [u8], u64)> {
        if self.done || !self.decoder.at_frame_start() {
            return None;
        }
        let chunk = self.chunk;
        let start = self.pos;
        let head = chunk.get(start..start.checked_add(6)?)?;
        let (name, after) = head.split_at_checked(5)?;
        if name != b"data:" {
            return None;
        }
        let value = start + 5 + usize::from(after == b" ");
        let end = crate::scanner::simd::find_line_end(chunk, value)?;
        if chunk.get(end..end.checked_add(2)?)? != b"\n\n"
            || end - start > self.decoder.options.max_frame_bytes()
        {
            return None;
        }
        self.pos = end + 2;
        self.decoder.item_start = self.decoder.abs(start);
        Some((chunk.get(value..end)?, self.decoder.abs(value)))
    }

    /// [`next`](SseFeed::next) past its quick frame: the line machine.
    #[inline(never)]
    fn next_general(&mut self) -> Option<Result<SseFrame<'_>, SseError>> {
        loop {
            match self.advance()? {
                Out::Frame(desc) => return Some(Ok(self.decoder.frame(desc, self.chunk))),
                Out::Err(err) => return Some(Err(err)),
                Out::Comment(_) | Out::Retry(_) | Out::LastEventId => {}
            }
        }
    }

    /// The next item of any kind (frame, comment, retry, id-only frame) or error, or `None` once
    /// the chunk is used up. For a proxy that passes everything on.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseItem, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// let mut feed = decoder.feed(b": keep-alive\n\n");
    /// assert_eq!(feed.next_item().unwrap()?, SseItem::Comment(b"keep-alive"));
    /// # Ok::<(), agui_wire::sse::SseError>(())
    /// ```
    pub fn next_item(&mut self) -> Option<Result<SseItem<'_>, SseError>> {
        let out = self.advance()?;
        Some(self.decoder.item(out, self.chunk))
    }

    /// Like [`next_item`](SseFeed::next_item), with the item's span in the stream: from the
    /// first byte of its frame (of the frame in progress, for an error) up to just after it.
    pub(crate) fn next_spanned(&mut self) -> Option<(Result<SseItem<'_>, SseError>, u64, u64)> {
        let out = self.advance()?;
        let end = self.offset();
        let start = match &out {
            Out::Frame(_) | Out::LastEventId => self.decoder.item_start,
            Out::Err(_) => self.decoder.unit_start().unwrap_or(end),
            Out::Comment(_) | Out::Retry(_) => end,
        };
        Some((self.decoder.item(out, self.chunk), start, end))
    }

    /// The decoder's [`last_event_id`](SseDecoder::last_event_id) so far.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// let mut feed = decoder.feed(b"id: 5\ndata: a\n\ndata: b\n\n");
    /// let _ = feed.next();
    /// let _ = feed.next();
    /// assert_eq!(feed.last_event_id(), "5");
    /// ```
    #[must_use]
    pub fn last_event_id(&self) -> &str {
        self.decoder.last_event_id()
    }

    /// The decoder's [`retry`](SseDecoder::retry) so far.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// let mut feed = decoder.feed(b"retry: 10\n\ndata: a\n\n");
    /// let _ = feed.next();
    /// assert_eq!(feed.retry(), Some(10));
    /// ```
    #[must_use]
    pub fn retry(&self) -> Option<u64> {
        self.decoder.retry()
    }

    /// The stream offset decoding has reached: just after the last item handed out.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// let mut feed = decoder.feed(b"data: a\n\ndata: b\n\n");
    /// let _ = feed.next();
    /// assert_eq!(feed.offset(), 9);
    /// ```
    #[must_use]
    pub fn offset(&self) -> u64 {
        if self.done {
            self.decoder.base
        } else {
            self.decoder.abs(self.pos)
        }
    }
}

impl Drop for SseFeed<'_, '_> {
    fn drop(&mut self) {
        while self.advance().is_some() {}
    }
}
