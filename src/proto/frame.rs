//! Length-prefixed framing: a 4-byte big-endian length, then that many bytes of `Event`.

use super::{DecodeOptions, ProtoError, ProtoErrorKind};

/// Appends one frame: the 4-byte big-endian length of `message`, then `message`.
///
/// ```
/// let mut out = Vec::new();
/// agui_wire::proto::write_frame(&mut out, b"abc");
/// assert_eq!(out, [0, 0, 0, 3, b'a', b'b', b'c']);
/// ```
///
/// # Panics
/// Never for a message shorter than 4 GiB; a longer one cannot be framed and panics.
pub fn write_frame(out: &mut Vec<u8>, message: &[u8]) {
    let len = u32::try_from(message.len()).expect("a frame holds at most 4 GiB");
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(message);
}

/// Splits a byte stream into frames, fed chunk by chunk, cut anywhere (the 4-byte length
/// included).
///
/// A frame that lies whole in one chunk is handed out as a slice of that chunk (no copy);
/// one that spans chunks is gathered in a buffer of its own size, so memory stays below
/// [`DecodeOptions::max_frame`] plus 4 bytes, and every byte is copied at most once. A length
/// above the limit is an error, after which the decoder stays failed (the stream has lost its
/// framing).
///
/// ```
/// use agui_wire::proto::{FrameDecoder, DecodeOptions};
/// let mut dec = FrameDecoder::new(DecodeOptions::default());
/// let stream = [0, 0, 0, 2, b'h', b'i', 0, 0, 0, 1, b'!'];
/// let mut frames = Vec::new();
/// for chunk in stream.chunks(3) {
///     let mut feed = dec.feed(chunk);
///     while let Some(frame) = feed.next() {
///         frames.push(frame?.to_vec());
///     }
/// }
/// dec.finish()?;
/// assert_eq!(frames, [b"hi".to_vec(), b"!".to_vec()]);
/// # Ok::<(), agui_wire::proto::ProtoError>(())
/// ```
#[derive(Debug, Clone)]
pub struct FrameDecoder {
    max_frame: usize,
    head: [u8; 4],
    head_len: usize,
    /// The frame being gathered across chunks, when `gathering`.
    buf: Vec<u8>,
    need: usize,
    gathering: bool,
    /// `buf` was handed out by the last `next`: clear it before going on.
    handed_out: bool,
    failed: bool,
    offset: u64,
}

/// The frames of one chunk; see [`FrameDecoder::feed`].
#[derive(Debug)]
pub struct FrameFeed<'d, 'c> {
    dec: &'d mut FrameDecoder,
    chunk: &'c [u8],
    pos: usize,
}

impl FrameDecoder {
    /// A decoder with the given limits (only `max_frame` is used here).
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// let _ = FrameDecoder::new(DecodeOptions::default());
    /// ```
    pub fn new(opts: DecodeOptions) -> Self {
        FrameDecoder {
            max_frame: opts.max_frame,
            head: [0; 4],
            head_len: 0,
            buf: Vec::new(),
            need: 0,
            gathering: false,
            handed_out: false,
            failed: false,
            offset: 0,
        }
    }

    /// Feeds the next chunk; iterate the result for the frames it completes.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// let mut dec = FrameDecoder::new(DecodeOptions::default());
    /// assert!(dec.feed(&[0, 0]).next().is_none());
    /// assert_eq!(dec.feed(&[0, 1, 7]).next().unwrap()?, &[7]);
    /// # Ok::<(), ProtoError>(())
    /// ```
    pub fn feed<'d, 'c>(&'d mut self, chunk: &'c [u8]) -> FrameFeed<'d, 'c> {
        FrameFeed {
            dec: self,
            chunk,
            pos: 0,
        }
    }

    /// Ends the stream: an error if it stopped inside a frame.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// let mut dec = FrameDecoder::new(DecodeOptions::default());
    /// assert!(dec.feed(&[0, 0, 0, 5, 1]).next().is_none());
    /// assert_eq!(dec.finish().unwrap_err().kind(), &ProtoErrorKind::TruncatedFrame);
    /// ```
    pub fn finish(&mut self) -> Result<(), ProtoError> {
        if !self.failed && (self.head_len > 0 || self.gathering) {
            return Err(ProtoError::new(
                ProtoErrorKind::TruncatedFrame,
                self.offset as usize,
            ));
        }
        Ok(())
    }

    /// Bytes consumed so far.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// let mut dec = FrameDecoder::new(DecodeOptions::default());
    /// let mut feed = dec.feed(&[0, 0, 0, 1, 9]);
    /// while feed.next().is_some() {}
    /// assert_eq!(dec.offset(), 5);
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether a frame has been started but not finished.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// let mut dec = FrameDecoder::new(DecodeOptions::default());
    /// let _ = dec.feed(&[0]).next();
    /// assert!(dec.in_frame());
    /// ```
    pub fn in_frame(&self) -> bool {
        self.head_len > 0 || self.gathering
    }
}

impl FrameFeed<'_, '_> {
    /// The next complete frame (without its length), or `None` when the chunk is used up.
    /// The slice borrows the chunk or the decoder, until the next call.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Result<&[u8], ProtoError>> {
        let d = &mut *self.dec;
        if d.handed_out {
            d.buf.clear();
            d.handed_out = false;
        }
        if d.failed {
            return None;
        }
        let rest = &self.chunk[self.pos..];
        if d.gathering {
            let take = (d.need - d.buf.len()).min(rest.len());
            d.buf.extend_from_slice(&rest[..take]);
            self.pos += take;
            d.offset += take as u64;
            if d.buf.len() < d.need {
                return None;
            }
            d.gathering = false;
            d.handed_out = true;
            return Some(Ok(&d.buf));
        }
        if rest.is_empty() {
            return None;
        }
        // Read the length, possibly finishing one split across chunks.
        let take = (4 - d.head_len).min(rest.len());
        d.head[d.head_len..d.head_len + take].copy_from_slice(&rest[..take]);
        d.head_len += take;
        self.pos += take;
        d.offset += take as u64;
        if d.head_len < 4 {
            return None;
        }
        d.head_len = 0;
        let len = u32::from_be_bytes(d.head) as usize;
        if len > d.max_frame {
            d.failed = true;
            return Some(Err(ProtoError::new(
                ProtoErrorKind::FrameTooLarge {
                    len: len as u64,
                    max: d.max_frame,
                },
                (d.offset - 4) as usize,
            )));
        }
        let rest = &self.chunk[self.pos..];
        if rest.len() >= len {
            // Whole in this chunk: hand out a slice of it.
            self.pos += len;
            d.offset += len as u64;
            return Some(Ok(&rest[..len]));
        }
        d.buf.clear();
        d.buf.reserve_exact(len);
        d.buf.extend_from_slice(rest);
        self.pos += rest.len();
        d.offset += rest.len() as u64;
        d.need = len;
        d.gathering = true;
        None
    }
}
