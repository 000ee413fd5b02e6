//! The streaming decoder, [`SseDecoder`]: its state and the line machine. The frames of one
//! chunk are handed out by [`SseFeed`] (`feed.rs`).

use memchr::{memchr, memchr2};

use super::{SseError, SseErrorKind, SseFeed, SseFrame, SseItem, SseOptions};

/// The UTF-8 byte order mark.
const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
/// The field of a line, once its name is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Data,
    Event,
    Id,
    Retry,
}

impl Field {
    fn from_name(name: &[u8]) -> Option<Field> {
        match name {
            b"data" => Some(Field::Data),
            b"event" => Some(Field::Event),
            b"id" => Some(Field::Id),
            b"retry" => Some(Field::Retry),
            _ => None,
        }
    }
}

/// The longest known field name (`event`, `retry`).
const MAX_NAME: usize = 5;

/// Where the decoder is inside a line that started in an earlier chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    /// At the start of a line.
    Start,
    /// In the field name (kept in `name`), no colon seen yet.
    Name,
    /// Just after the colon of a comment.
    CommentSpace,
    /// In a comment (kept in `comment_buf`).
    Comment,
    /// Just after the colon of a field.
    Space(Field),
    /// In a field value.
    Value(Field),
    /// In a line whose rest does not matter (unknown field, or a skipped frame).
    Skip,
}

/// Where a byte string handed out lies.
#[derive(Clone, Copy, Debug)]
pub(super) enum Src {
    /// `chunk[start..end]` of the chunk being decoded.
    Chunk(usize, usize),
    /// The decoder's own buffer for it.
    Buf,
}

/// The bytes `src` names.
fn src_bytes<'a>(src: Src, chunk: &'a [u8], buf: &'a [u8]) -> &'a [u8] {
    match src {
        Src::Chunk(start, end) => chunk.get(start..end).unwrap_or_default(),
        Src::Buf => buf,
    }
}

/// A dispatched frame, before it borrows anything.
#[derive(Clone, Copy, Debug)]
pub(super) struct FrameDesc {
    data: Src,
    event: bool,
    id: bool,
    data_offset: u64,
}

/// What one decoding step found, before it borrows anything.
#[derive(Debug)]
pub(super) enum Out {
    Frame(FrameDesc),
    Comment(Src),
    Retry(u64),
    LastEventId,
    Err(SseError),
}

/// Parses a `retry` value incrementally: all ASCII digits, at least one.
#[derive(Clone, Copy, Debug)]
struct RetryParse {
    value: u64,
    digits: bool,
    ok: bool,
}

impl RetryParse {
    const NEW: RetryParse = RetryParse {
        value: 0,
        digits: false,
        ok: true,
    };

    fn push(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b.is_ascii_digit() {
                self.value = self
                    .value
                    .saturating_mul(10)
                    .saturating_add(u64::from(b - b'0'));
                self.digits = true;
            } else {
                self.ok = false;
            }
        }
    }

    fn result(&self) -> Option<u64> {
        (self.ok && self.digits).then_some(self.value)
    }
}

/// A streaming SSE decoder: feed it chunks, take frames out.
///
/// One decoder decodes one stream; [`finish`](SseDecoder::finish) ends the stream and readies
/// the decoder for the next one (after a reconnection), keeping
/// [`last_event_id`](SseDecoder::last_event_id) and [`retry`](SseDecoder::retry).
///
/// ```
/// use agui_wire::sse::{SseDecoder, SseOptions};
/// let mut decoder = SseDecoder::new(SseOptions::default());
/// let mut frames = Vec::new();
/// for chunk in [&b"id: 1\ndata: a\r"[..], b"\n\r", b"\ndata: b\n\n"] {
///     let mut feed = decoder.feed(chunk);
///     while let Some(frame) = feed.next() {
///         frames.push(String::from_utf8(frame?.data.to_vec()).unwrap());
///     }
/// }
/// assert_eq!(frames, ["a", "b"]);
/// assert_eq!(decoder.last_event_id(), "1");
/// decoder.finish()?;
/// # Ok::<(), agui_wire::sse::SseError>(())
/// ```
#[derive(Debug)]
pub struct SseDecoder {
    pub(super) options: SseOptions,
    /// Stream offset of the current chunk's first byte (of the next chunk between feeds).
    pub(super) base: u64,
    /// Whether the start of the stream is past (a BOM is stripped only there).
    bom_done: bool,
    /// How many BOM bytes were matched in earlier chunks while `!bom_done`.
    bom_matched: usize,
    /// The last chunk ended with a CR: a LF starting the next one belongs to it.
    skip_lf: bool,
    line: Line,
    name: [u8; MAX_NAME],
    name_len: usize,
    /// Stream offset of the current field value's first byte.
    value_start: u64,
    frame_started: bool,
    /// Stream offset of the current frame's first byte.
    frame_start: u64,
    /// After an error: ignore lines up to the blank line.
    skipping: bool,
    /// The quick path may read here: see [`SseDecoder::at_frame_start`].
    quick: bool,
    /// A frame was handed out; reset the frame state before going on.
    dispatched: bool,
    /// Stream offset of the first byte of the frame last dispatched (as an event or an id).
    pub(super) item_start: u64,
    data_lines: usize,
    data: Src,
    data_offset: u64,
    data_buf: Vec<u8>,
    event_buf: Vec<u8>,
    id_tmp: Vec<u8>,
    id_pending: String,
    id_set: bool,
    retry_parse: RetryParse,
    comment_buf: Vec<u8>,
    last_id: String,
    retry: Option<u64>,
}

impl Default for SseDecoder {
    fn default() -> Self {
        SseDecoder::new(SseOptions::default())
    }
}

impl SseDecoder {
    /// A decoder at the start of a stream.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let decoder = SseDecoder::new(SseOptions::new());
    /// assert_eq!(decoder.offset(), 0);
    /// ```
    #[must_use]
    pub fn new(options: SseOptions) -> Self {
        SseDecoder {
            options,
            base: 0,
            bom_done: false,
            bom_matched: 0,
            skip_lf: false,
            line: Line::Start,
            name: [0; MAX_NAME],
            name_len: 0,
            value_start: 0,
            frame_started: false,
            frame_start: 0,
            skipping: false,
            quick: false,
            dispatched: false,
            item_start: 0,
            data_lines: 0,
            data: Src::Buf,
            data_offset: 0,
            data_buf: Vec::new(),
            event_buf: Vec::new(),
            id_tmp: Vec::new(),
            id_pending: String::new(),
            id_set: false,
            retry_parse: RetryParse::NEW,
            comment_buf: Vec::new(),
            last_id: String::new(),
            retry: None,
        }
    }

    /// The options the decoder was made with.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let options = SseOptions::new().with_max_frame_bytes(99);
    /// assert_eq!(SseDecoder::new(options).options(), options);
    /// ```
    #[must_use]
    pub fn options(&self) -> SseOptions {
        self.options
    }

    /// Decodes the next chunk of the stream. The returned [`SseFeed`] hands out the frames (and
    /// other items) the chunk completes, in stream order.
    ///
    /// Dropping the feed before it returned `None` still decodes the rest of the chunk, so the
    /// decoder stays in step with the stream, but the frames and errors in it are lost.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// let mut feed = decoder.feed(b"data: 1\n\ndata: 2\n\ndata: 3");
    /// assert_eq!(feed.next().unwrap()?.data, b"1");
    /// assert_eq!(feed.next().unwrap()?.data, b"2");
    /// assert!(feed.next().is_none()); // frame 3 waits for more bytes
    /// # Ok::<(), agui_wire::sse::SseError>(())
    /// ```
    #[must_use = "the feed hands out the frames; dropping it discards them"]
    pub fn feed<'d, 'c>(&'d mut self, chunk: &'c [u8]) -> SseFeed<'d, 'c> {
        SseFeed::new(self, chunk)
    }

    /// Ends the stream. Afterwards the decoder is ready for a new stream: offsets start at 0
    /// again and a BOM is stripped again; [`last_event_id`](SseDecoder::last_event_id) and
    /// [`retry`](SseDecoder::retry) are kept, as a reconnecting client needs them.
    ///
    /// Bytes after the last blank line are an unterminated last frame. By default it is ended as
    /// if its blank line had arrived, and returned when it has a `data` line, as the official
    /// TypeScript client does; with [`SseOptions::with_strict_end`] it is discarded, as the SSE
    /// standard says, and reported as [`SseErrorKind::Incomplete`] (any bytes count, even a lone
    /// comment line). Like the frames of a feed, the returned frame borrows the decoder.
    ///
    /// # Errors
    ///
    /// Strict: [`SseErrorKind::Incomplete`] when the stream ended inside a frame. Not strict: the
    /// error ending the last line would raise (an `event` or `id` value that is not UTF-8).
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// drop(decoder.feed(b"data: 1\n\n"));
    /// assert_eq!(decoder.finish(), Ok(None));
    /// drop(decoder.feed(b"data: 2\n"));
    /// assert_eq!(decoder.finish()?.unwrap().data, b"2");
    ///
    /// let mut strict = SseDecoder::new(SseOptions::new().with_strict_end(true));
    /// drop(strict.feed(b"data: 2\n"));
    /// assert!(strict.finish().is_err());
    /// # Ok::<(), agui_wire::sse::SseError>(())
    /// ```
    pub fn finish(&mut self) -> Result<Option<SseFrame<'_>>, SseError> {
        match self.end_stream() {
            Some(Out::Frame(desc)) => Ok(Some(self.frame(desc, &[]))),
            Some(Out::Err(err)) => Err(err),
            _ => Ok(None),
        }
    }

    /// The engine's end of stream: the last frame or error, then the decoder reset for a new
    /// stream (a returned frame's buffers are kept until the next call, as after a dispatch).
    pub(super) fn end_stream(&mut self) -> Option<Out> {
        self.quick = false;
        if self.dispatched {
            self.reset_frame();
        }
        let out = if !self.options.strict_end() {
            // (A stream that is a BOM prefix only holds no line.)
            (self.bom_done && self.frame_started)
                .then(|| self.close_tail())
                .flatten()
        } else {
            let pending = if !self.bom_done && self.bom_matched > 0 {
                Some((self.bom_matched as u64, 0))
            } else if self.frame_started {
                Some((self.base.saturating_sub(self.frame_start), self.frame_start))
            } else {
                None
            };
            match pending {
                Some((discarded, at)) if discarded > 0 => Some(Out::Err(SseError::new(
                    SseErrorKind::Incomplete { discarded },
                    at,
                ))),
                _ => None,
            }
        };
        if !self.dispatched {
            self.reset_frame();
        }
        self.base = 0;
        self.bom_done = false;
        self.bom_matched = 0;
        self.skip_lf = false;
        self.line = Line::Start;
        self.name_len = 0;
        out
    }

    /// Ends the pending line and frame as if a line end and a blank line had arrived (a lone CR
    /// each, which cannot pair with a CR the stream ended on). Returns the frame or the error
    /// that makes; a comment or `retry` on the last line takes effect but is not returned.
    fn close_tail(&mut self) -> Option<Out> {
        const LINE_THEN_BLANK: &[u8] = b"\r\r";
        let tail = if self.line == Line::Start {
            &LINE_THEN_BLANK[1..]
        } else {
            LINE_THEN_BLANK
        };
        let mut pos = 0;
        while let Some(out) = self.advance(tail, &mut pos) {
            if matches!(out, Out::Frame(_) | Out::Err(_)) {
                return Some(out);
            }
        }
        None
    }

    /// The last event ID: the value of the last `id:` line of a frame ended by a blank line, in
    /// this or an earlier stream (empty when none). A reconnecting client sends it as
    /// `Last-Event-ID`.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// drop(decoder.feed(b"id: 41\ndata: a\n\ndata: b\n\nid: 42\n")); // dropping decodes it all
    /// assert_eq!(decoder.last_event_id(), "41"); // `id: 42` waits for its blank line
    /// ```
    #[must_use]
    pub fn last_event_id(&self) -> &str {
        &self.last_id
    }

    /// The reconnection time in milliseconds set by the last valid `retry:` line, if any.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// drop(decoder.feed(b"retry: 2500\nretry: soon\n\n"));
    /// assert_eq!(decoder.retry(), Some(2500));
    /// ```
    #[must_use]
    pub fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// How many bytes of the current stream were fed so far.
    ///
    /// ```
    /// use agui_wire::sse::{SseDecoder, SseOptions};
    /// let mut decoder = SseDecoder::new(SseOptions::default());
    /// drop(decoder.feed(b"data: 1\n"));
    /// assert_eq!(decoder.offset(), 8);
    /// ```
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.base
    }

    /// Stream offset of the first byte of the frame in progress (lines read, blank line not
    /// yet), or of a byte order mark still being matched; `None` between frames. For the relay,
    /// which forwards only whole frames.
    pub(crate) fn unit_start(&self) -> Option<u64> {
        if !self.bom_done && self.bom_matched > 0 {
            return Some(0);
        }
        (self.frame_started && !self.dispatched).then_some(self.frame_start)
    }

    /// Gives back buffer capacity above `keep` bytes that no pending frame uses, so that a
    /// decoder kept for an idle stream is small again after a big frame. Only between feeds.
    pub(crate) fn trim_buffers(&mut self, keep: usize) {
        fn trim(buf: &mut Vec<u8>, keep: usize) {
            if buf.capacity() > keep && buf.len() <= keep {
                buf.shrink_to(keep);
            }
        }
        if !self.frame_started || self.data_lines == 0 {
            // What is left is the data of a frame already handed out.
            self.data_buf.clear();
        }
        trim(&mut self.data_buf, keep);
        trim(&mut self.event_buf, keep);
        trim(&mut self.id_tmp, keep);
        trim(&mut self.comment_buf, keep);
        if self.id_pending.capacity() > keep && self.id_pending.len() <= keep {
            self.id_pending.shrink_to(keep);
        }
    }

    // ----- the engine -------------------------------------------------------------------------
    //
    // `advance` decodes `chunk` from `*pos` until something is found, and returns a description
    // of it that borrows nothing (`Out`); `frame` / `item` then make the borrowed view. Ranges
    // into the chunk (`Src::Chunk`) are only valid until `end_chunk`, which every user of the
    // engine calls once the chunk is used up, and which copies a pending frame's data into
    // `data_buf`. All chunk accesses go through `get`, so even a broken invariant cannot panic.

    /// Decodes from `chunk[*pos..]` until an item is complete or the chunk is used up.
    pub(super) fn advance(&mut self, chunk: &[u8], pos: &mut usize) -> Option<Out> {
        self.quick = false;
        if self.dispatched {
            self.reset_frame();
        }
        while *pos < chunk.len() {
            if let Some(out) = self.line_step(chunk, pos) {
                return Some(out);
            }
        }
        None
    }

    /// Whether the decoder stands at the start of a frame with nothing pending (the stream's
    /// start past, no CR waiting for its LF, no line or frame begun): where the quick path of
    /// [`SseFeed::next`] may read a frame. Remembered once true, until the line machine runs
    /// again (`advance`, `end_stream`), which is the only code that changes any of this: the
    /// quick path hands frames out without touching the decoder's state.
    #[inline(always)]
    pub(super) fn at_frame_start(&mut self) -> bool {
        self.quick || self.check_frame_start()
    }

    /// [`SseDecoder::at_frame_start`] worked out (after the reset `advance` would make).
    #[inline(never)]
    fn check_frame_start(&mut self) -> bool {
        if self.dispatched {
            self.reset_frame();
        }
        self.quick =
            self.bom_done && !self.skip_lf && self.line == Line::Start && !self.frame_started;
        self.quick
    }

    /// Called once `chunk` is fully decoded: keeps what a pending frame borrows from it.
    pub(super) fn end_chunk(&mut self, chunk: &[u8]) {
        if self.dispatched {
            self.reset_frame();
        }
        self.own_data(chunk);
        self.base = self.base.saturating_add(chunk.len() as u64);
    }

    fn reset_frame(&mut self) {
        self.dispatched = false;
        self.frame_started = false;
        self.skipping = false;
        self.data_lines = 0;
        self.data = Src::Buf;
        self.event_buf.clear();
        self.id_set = false;
    }

    /// Moves chunk-borrowed data into `data_buf`.
    fn own_data(&mut self, chunk: &[u8]) {
        if let Src::Chunk(start, end) = self.data {
            self.data_buf.clear();
            self.data_buf
                .extend_from_slice(chunk.get(start..end).unwrap_or_default());
            self.data = Src::Buf;
        }
    }

    pub(super) fn abs(&self, pos: usize) -> u64 {
        self.base.saturating_add(pos as u64)
    }

    /// Decodes one line, the start of one (at the chunk's end) or the rest of one.
    fn line_step(&mut self, chunk: &[u8], pos: &mut usize) -> Option<Out> {
        let start = *pos;
        let rest = chunk.get(start..).unwrap_or_default();
        let &first = rest.first()?;
        if self.skip_lf {
            self.skip_lf = false;
            if first == b'\n' {
                *pos = start + 1;
                return None;
            }
        }
        if !self.bom_done {
            return self.bom_step(chunk, pos);
        }
        if self.line == Line::Start && (first == b'\n' || first == b'\r') {
            *pos = start + self.terminator(chunk, start);
            return self.blank_line();
        }
        match memchr2(b'\n', b'\r', rest) {
            Some(len) => {
                let end = start + len;
                let out = if self.line == Line::Start {
                    if !self.frame_started
                        && let Some(out) = self.lone_data_frame(chunk, start, end, pos)
                    {
                        return Some(out);
                    }
                    self.whole_line(chunk, start, end)
                } else {
                    self.piece(
                        chunk,
                        rest.get(..len).unwrap_or_default(),
                        self.abs(start),
                        true,
                    )
                };
                *pos = end + self.terminator(chunk, end);
                out
            }
            None => {
                *pos = chunk.len();
                self.piece(chunk, rest, self.abs(start), false)
            }
        }
    }

    /// The length of the line end at `chunk[at]` (a CR or LF).
    fn terminator(&mut self, chunk: &[u8], at: usize) -> usize {
        if chunk.get(at) == Some(&b'\r') {
            match chunk.get(at + 1) {
                Some(b'\n') => return 2,
                None => self.skip_lf = true,
                Some(_) => {}
            }
        }
        1
    }

    /// Strips a BOM at the stream start, even one split across chunks.
    fn bom_step(&mut self, chunk: &[u8], pos: &mut usize) -> Option<Out> {
        let rest = chunk.get(*pos..).unwrap_or_default();
        let want = BOM.get(self.bom_matched..).unwrap_or_default();
        let same = rest.iter().zip(want).take_while(|(a, b)| a == b).count();
        if same == want.len() {
            *pos += same;
            self.bom_done = true;
            return None;
        }
        if same == rest.len() {
            // A prefix of the BOM so far; it is decided by the next chunk.
            *pos += same;
            self.bom_matched += same;
            return None;
        }
        // Not a BOM: the bytes matched in this chunk are decoded from the chunk as usual, those
        // matched in earlier chunks (the whole stream so far) are replayed here.
        self.bom_done = true;
        let held = BOM.get(..self.bom_matched).unwrap_or_default();
        self.bom_matched = 0;
        if held.is_empty() {
            return None;
        }
        let at = self.base.saturating_sub(held.len() as u64);
        self.piece(chunk, held, at, false)
    }

    /// Starts a line at stream offset `at`; then checks that the frame stays within the limit
    /// up to `end`. Returns an error, after which the frame is skipped.
    fn check_line(&mut self, at: u64, end: u64) -> Option<Out> {
        if !self.frame_started {
            self.frame_started = true;
            self.frame_start = at;
        }
        if self.skipping {
            return None;
        }
        let max = self.options.max_frame_bytes;
        if end.saturating_sub(self.frame_start) > max as u64 {
            return Some(self.fail(
                SseErrorKind::FrameTooLong {
                    max_frame_bytes: max,
                },
                self.frame_start,
            ));
        }
        None
    }

    fn fail(&mut self, kind: SseErrorKind, offset: u64) -> Out {
        self.skipping = true;
        Out::Err(SseError::new(kind, offset))
    }

    /// A blank line: dispatch.
    fn blank_line(&mut self) -> Option<Out> {
        if self.skipping || !self.frame_started {
            self.reset_frame();
            return None;
        }
        let id = self.id_set;
        if id {
            std::mem::swap(&mut self.last_id, &mut self.id_pending);
        }
        self.item_start = self.frame_start;
        if self.data_lines == 0 {
            self.reset_frame();
            return id.then_some(Out::LastEventId);
        }
        self.dispatched = true;
        Some(Out::Frame(FrameDesc {
            data: self.data,
            event: !self.event_buf.is_empty(),
            id,
            data_offset: self.data_offset,
        }))
    }

    /// The common case, in one step: at the start of a frame, a `data:` line `chunk[start..end]`
    /// directly followed by a blank line, both in the chunk. Dispatches it without touching the
    /// frame state (which is clean at a frame start); `None` leaves everything to the general
    /// path.
    #[inline]
    fn lone_data_frame(
        &mut self,
        chunk: &[u8],
        start: usize,
        end: usize,
        pos: &mut usize,
    ) -> Option<Out> {
        let line = chunk.get(start..end)?;
        if !line.starts_with(b"data:") || line.len() > self.options.max_frame_bytes {
            return None;
        }
        let blank = match chunk.get(end) {
            Some(b'\r') => end + 1 + usize::from(chunk.get(end + 1) == Some(&b'\n')),
            _ => end + 1,
        };
        // (After a CR at the chunk end there is no byte here, and the general path waits.)
        if !matches!(chunk.get(blank), Some(b'\n' | b'\r')) {
            return None;
        }
        *pos = blank + self.terminator(chunk, blank);
        self.item_start = self.abs(start);
        let value = start + 5 + usize::from(line.get(5) == Some(&b' '));
        Some(Out::Frame(FrameDesc {
            data: Src::Chunk(value, end),
            event: false,
            id: false,
            data_offset: self.abs(value),
        }))
    }

    /// A non-blank line lying whole in the chunk: `chunk[start..end]`. The fast path, which
    /// borrows the value of a frame's first `data:` line.
    fn whole_line(&mut self, chunk: &[u8], start: usize, end: usize) -> Option<Out> {
        let (at, end_at) = (self.abs(start), self.abs(end));
        if let Some(err) = self.check_line(at, end_at) {
            return Some(err);
        }
        if self.skipping {
            return None;
        }
        let line = chunk.get(start..end).unwrap_or_default();
        let (field, mut value_pos) = if line.starts_with(b"data:") {
            (Some(Field::Data), start + 5)
        } else if line.first() == Some(&b':') {
            let text = start + 1 + usize::from(line.get(1) == Some(&b' '));
            return Some(Out::Comment(Src::Chunk(text, end)));
        } else {
            match memchr(b':', line) {
                Some(colon) => (
                    Field::from_name(line.get(..colon).unwrap_or_default()),
                    start + colon + 1,
                ),
                None => (Field::from_name(line), end),
            }
        };
        let field = field?;
        if chunk.get(value_pos) == Some(&b' ') && value_pos < end {
            value_pos += 1;
        }
        let value = chunk.get(value_pos..end).unwrap_or_default();
        if field == Field::Data && self.data_lines == 0 {
            self.data_lines = 1;
            self.data = Src::Chunk(value_pos, end);
            self.data_offset = self.abs(value_pos);
            return None;
        }
        self.begin_field(field, chunk);
        self.start_value(field, self.abs(value_pos));
        self.value_bytes(field, value);
        self.end_field(field)
    }

    /// Part of a line that does not lie whole in the chunk: `bytes` (not necessarily from the
    /// chunk) start at stream offset `at`; `complete` if the line ends right after them.
    fn piece(&mut self, chunk: &[u8], bytes: &[u8], at: u64, complete: bool) -> Option<Out> {
        let end_at = at.saturating_add(bytes.len() as u64);
        if self.line == Line::Start {
            self.name_len = 0;
        }
        if let Some(err) = self.check_line(at, end_at) {
            self.line = if complete { Line::Start } else { Line::Skip };
            return Some(err);
        }
        if self.skipping {
            self.line = if complete { Line::Start } else { Line::Skip };
            return None;
        }
        let mut rest = bytes;
        loop {
            match self.line {
                Line::Start => match rest.split_first() {
                    Some((b':', tail)) => {
                        self.comment_buf.clear();
                        self.line = Line::CommentSpace;
                        rest = tail;
                    }
                    _ => self.line = Line::Name,
                },
                Line::Name => {
                    let colon = memchr(b':', rest);
                    let part = rest.get(..colon.unwrap_or(rest.len())).unwrap_or_default();
                    let known = self
                        .name
                        .get_mut(self.name_len..self.name_len + part.len())
                        .map(|slot| slot.copy_from_slice(part))
                        .is_some();
                    if !known {
                        // Longer than any known field name.
                        self.line = Line::Skip;
                        continue;
                    }
                    self.name_len += part.len();
                    let name = self.name.get(..self.name_len).unwrap_or_default();
                    let field = Field::from_name(name);
                    match colon {
                        Some(colon) => {
                            rest = rest.get(colon + 1..).unwrap_or_default();
                            match field {
                                Some(field) => {
                                    self.begin_field(field, chunk);
                                    self.line = Line::Space(field);
                                }
                                None => self.line = Line::Skip,
                            }
                        }
                        None if complete => {
                            self.line = Line::Start;
                            let field = field?;
                            self.begin_field(field, chunk);
                            self.start_value(field, end_at);
                            return self.end_field(field);
                        }
                        None => return None,
                    }
                }
                Line::CommentSpace => match rest.split_first() {
                    Some((b' ', tail)) => {
                        rest = tail;
                        self.line = Line::Comment;
                    }
                    Some(_) => self.line = Line::Comment,
                    None if complete => self.line = Line::Comment,
                    None => return None,
                },
                Line::Comment => {
                    self.comment_buf.extend_from_slice(rest);
                    if !complete {
                        return None;
                    }
                    self.line = Line::Start;
                    return Some(Out::Comment(Src::Buf));
                }
                Line::Space(field) => {
                    let value_at = end_at.saturating_sub(rest.len() as u64);
                    match rest.split_first() {
                        Some((b' ', tail)) => {
                            rest = tail;
                            self.start_value(field, value_at + 1);
                        }
                        Some(_) => self.start_value(field, value_at),
                        None if complete => self.start_value(field, value_at),
                        None => return None,
                    }
                    self.line = Line::Value(field);
                }
                Line::Value(field) => {
                    self.value_bytes(field, rest);
                    if !complete {
                        return None;
                    }
                    self.line = Line::Start;
                    return self.end_field(field);
                }
                Line::Skip => {
                    if complete {
                        self.line = Line::Start;
                    }
                    return None;
                }
            }
        }
    }

    /// The field's name is known: prepare its value.
    fn begin_field(&mut self, field: Field, chunk: &[u8]) {
        match field {
            Field::Data => {
                if self.data_lines == 0 {
                    self.data_buf.clear();
                    self.data = Src::Buf;
                } else {
                    self.own_data(chunk);
                    self.data_buf.push(b'\n');
                }
                self.data_lines += 1;
            }
            Field::Event => self.event_buf.clear(),
            Field::Id => self.id_tmp.clear(),
            Field::Retry => self.retry_parse = RetryParse::NEW,
        }
    }

    /// The value's first byte is at stream offset `at`.
    fn start_value(&mut self, field: Field, at: u64) {
        self.value_start = at;
        if field == Field::Data && self.data_lines == 1 {
            self.data_offset = at;
        }
    }

    fn value_bytes(&mut self, field: Field, bytes: &[u8]) {
        match field {
            Field::Data => self.data_buf.extend_from_slice(bytes),
            Field::Event => self.event_buf.extend_from_slice(bytes),
            Field::Id => self.id_tmp.extend_from_slice(bytes),
            Field::Retry => self.retry_parse.push(bytes),
        }
    }

    /// The line ended: apply the field.
    fn end_field(&mut self, field: Field) -> Option<Out> {
        match field {
            Field::Data => None,
            Field::Event => match std::str::from_utf8(&self.event_buf) {
                Ok(_) => None,
                Err(e) => {
                    let at = self.value_start.saturating_add(e.valid_up_to() as u64);
                    Some(self.fail(SseErrorKind::InvalidUtf8 { field: "event" }, at))
                }
            },
            Field::Id => {
                if memchr(0, &self.id_tmp).is_some() {
                    return None;
                }
                match std::str::from_utf8(&self.id_tmp) {
                    Ok(id) => {
                        self.id_pending.clear();
                        self.id_pending.push_str(id);
                        self.id_set = true;
                        None
                    }
                    Err(e) => {
                        let at = self.value_start.saturating_add(e.valid_up_to() as u64);
                        Some(self.fail(SseErrorKind::InvalidUtf8 { field: "id" }, at))
                    }
                }
            }
            Field::Retry => {
                let value = self.retry_parse.result()?;
                self.retry = Some(value);
                Some(Out::Retry(value))
            }
        }
    }

    pub(super) fn frame<'a>(&'a self, desc: FrameDesc, chunk: &'a [u8]) -> SseFrame<'a> {
        SseFrame {
            event: if desc.event {
                std::str::from_utf8(&self.event_buf).ok()
            } else {
                None
            },
            data: src_bytes(desc.data, chunk, &self.data_buf),
            id: desc.id.then_some(self.last_id.as_str()),
            data_offset: desc.data_offset,
        }
    }

    pub(super) fn item<'a>(&'a self, out: Out, chunk: &'a [u8]) -> Result<SseItem<'a>, SseError> {
        Ok(match out {
            Out::Frame(desc) => SseItem::Frame(self.frame(desc, chunk)),
            Out::Comment(src) => SseItem::Comment(src_bytes(src, chunk, &self.comment_buf)),
            Out::Retry(value) => SseItem::Retry(value),
            Out::LastEventId => SseItem::LastEventId(&self.last_id),
            Out::Err(err) => return Err(err),
        })
    }
}
