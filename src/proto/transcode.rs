//! Streaming transcoders: SSE JSON to protobuf frames and back, chunk in, chunk out.

use bumpalo::Bump;

use super::encode::encode_json_in;
use super::{
    DecodeOptions, EncodeOptions, FrameDecoder, Loss, ProtoError, ProtoErrorKind, ProtoEvent,
};
use crate::Event;
use crate::sse::{SseDecoder, SseOptions};

/// SSE (`data: {json}\n\n`) in, protobuf frames out.
///
/// Each `data:` payload is checked as an AG-UI event ([`Event::parse`], in an arena reused
/// across events) and encoded as [`super::encode_json`] does. Frames without data (comments,
/// keep-alives) produce nothing.
///
/// ```
/// use agui_wire::proto::{SseToProto, ProtoToSse, EncodeOptions, DecodeOptions};
/// let sse = b"data: {\"type\":\"RUN_ERROR\",\"message\":\"x\"}\n\n";
/// let mut proto = Vec::new();
/// let mut up = SseToProto::new(EncodeOptions::default());
/// for chunk in sse.chunks(7) {
///     up.feed(chunk, &mut proto)?;
/// }
/// up.finish(&mut proto)?;
/// let mut back = Vec::new();
/// let mut down = ProtoToSse::new(DecodeOptions::default());
/// down.feed(&proto, &mut back)?;
/// down.finish()?;
/// assert_eq!(back, sse);
/// # Ok::<(), agui_wire::proto::ProtoError>(())
/// ```
#[derive(Debug)]
pub struct SseToProto {
    sse: SseDecoder,
    opts: EncodeOptions,
    arena: Bump,
    events: u64,
}

impl SseToProto {
    /// A transcoder with the given encoding options and the default SSE limits.
    pub fn new(opts: EncodeOptions) -> Self {
        Self::with_sse(opts, SseOptions::default())
    }

    /// A transcoder with the given encoding options and SSE limits.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// let _ = SseToProto::with_sse(EncodeOptions::default(), agui_wire::sse::SseOptions::default());
    /// ```
    pub fn with_sse(opts: EncodeOptions, sse: SseOptions) -> Self {
        SseToProto {
            sse: SseDecoder::new(sse),
            opts,
            arena: Bump::new(),
            events: 0,
        }
    }

    /// Transcodes the frames `chunk` completes, appending them to `out`. Returns what could
    /// not be carried (with [`super::OnLoss::Report`]). The first bad event is an error (its
    /// offset is in the SSE stream); frames before it are already in `out`.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>) -> Result<Vec<Loss>, ProtoError> {
        let mut losses = Vec::new();
        let SseToProto {
            sse,
            opts,
            arena,
            events,
        } = self;
        let mut feed = sse.feed(chunk);
        while let Some(frame) = feed.next() {
            let frame = frame.map_err(sse_error)?;
            if encode_frame(&frame, opts, arena, out, &mut losses)? {
                *events += 1;
            }
        }
        Ok(losses)
    }

    /// Ends the stream. A last frame the stream ended without a blank line after is read as
    /// the SSE decoder's options say (by default delivered, as `@ag-ui/client` does) and
    /// transcoded into `out`; an error if the stream stopped inside something else.
    pub fn finish(&mut self, out: &mut Vec<u8>) -> Result<Vec<Loss>, ProtoError> {
        let mut losses = Vec::new();
        let SseToProto {
            sse,
            opts,
            arena,
            events,
        } = self;
        if let Some(frame) = sse.finish().map_err(sse_error)?
            && encode_frame(&frame, opts, arena, out, &mut losses)?
        {
            *events += 1;
        }
        Ok(losses)
    }

    /// Events transcoded so far.
    pub fn events(&self) -> u64 {
        self.events
    }
}

/// Protobuf frames in, SSE (`data: {json}\n\n`) out.
///
/// ```
/// use agui_wire::proto::{ProtoToSse, DecodeOptions, encode_json, EncodeOptions};
/// let mut proto = Vec::new();
/// encode_json(br#"{"type":"STEP_STARTED","stepName":"s"}"#, &mut proto, &EncodeOptions::default())?;
/// let mut sse = Vec::new();
/// let mut t = ProtoToSse::new(DecodeOptions::default());
/// for b in &proto { t.feed(std::slice::from_ref(b), &mut sse)?; } // one byte at a time
/// t.finish()?;
/// assert_eq!(sse, b"data: {\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}\n\n");
/// # Ok::<(), agui_wire::proto::ProtoError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ProtoToSse {
    frames: FrameDecoder,
    opts: DecodeOptions,
    events: u64,
}

impl ProtoToSse {
    /// A transcoder with the given limits.
    pub fn new(opts: DecodeOptions) -> Self {
        ProtoToSse {
            frames: FrameDecoder::new(opts),
            opts,
            events: 0,
        }
    }

    /// Transcodes the frames `chunk` completes, appending `data: {json}\n\n` for each. The
    /// first bad frame is an error (offset in the protobuf stream).
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>) -> Result<(), ProtoError> {
        let opts = self.opts;
        let mut feed = self.frames.feed(chunk);
        let mut n = 0;
        while let Some(frame) = feed.next() {
            let frame = frame?;
            let start = out.len();
            out.extend_from_slice(b"data: ");
            let r = ProtoEvent::decode(frame).and_then(|ev| ev.write_json(out, &opts));
            if let Err(e) = r {
                out.truncate(start);
                return Err(e);
            }
            out.extend_from_slice(b"\n\n");
            n += 1;
        }
        self.events += n;
        Ok(())
    }

    /// Ends the stream: an error if it stopped inside a frame.
    pub fn finish(&mut self) -> Result<(), ProtoError> {
        self.frames.finish()
    }

    /// Events transcoded so far.
    pub fn events(&self) -> u64 {
        self.events
    }
}

/// An SSE framing error as a transcoding error at its stream offset.
fn sse_error(e: crate::sse::SseError) -> ProtoError {
    ProtoError::new(ProtoErrorKind::Event(e.to_string()), e.offset() as usize)
}

/// Checks one SSE frame's data as an AG-UI event and encodes it as a protobuf frame.
/// Frames without data (comments, keep-alives) produce nothing (`false`).
fn encode_frame(
    frame: &crate::sse::SseFrame<'_>,
    opts: &EncodeOptions,
    arena: &mut Bump,
    out: &mut Vec<u8>,
    losses: &mut Vec<Loss>,
) -> Result<bool, ProtoError> {
    if frame.data.is_empty() {
        return Ok(false);
    }
    let at = frame.data_offset as usize;
    arena.reset();
    Event::parse(frame.data, arena)
        .map_err(|e| ProtoError::new(ProtoErrorKind::Event(e.to_string()), at + e.offset()))?;
    // The same arena holds the encoder's tree: nothing is allocated per string or per
    // object once it has grown to the size of the largest event.
    let mut l = encode_json_in(frame.data, out, opts, arena).map_err(|e| e.at(at))?;
    losses.append(&mut l);
    Ok(true)
}
