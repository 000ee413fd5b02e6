//! A streaming event relay: the stage of a gateway that forwards an agent's SSE response.
//!
//! A [`Relay`] is fed the upstream's response body in chunks ([`bytes::Bytes`], as hyper and
//! Pingora hand them out) and gives back the bytes to send to the client, frame by frame as
//! frames complete. On the way it checks every event: SSE framing, JSON grammar and the event's
//! schema ([`Event::parse_with`]), and the event-order rules of the reducer
//! ([`EventOrder`]). It applies the [`RelayOptions`] policies: `RAW` data dropped or redacted
//! ([`RawPolicy`]), event types dropped ([`EventTypeSet`]), `id:` cursors written, keep-alive
//! comments sent when the caller's timer says the stream is idle.
//!
//! # What comes out
//!
//! * **Untouched frames are forwarded as the upstream wrote them, without a copy**: the output
//!   is [`Bytes::slice`]s of the input chunk, one slice for every run of consecutive frames
//!   that lie whole in the chunk and that no policy changes (together with the comments,
//!   `retry:` lines and blank lines between them).
//! * A frame split across chunks is gathered (in the relay, bounded by
//!   [`RelayOptions::with_max_frame_bytes`]) and forwarded as one copy once its blank line has
//!   arrived. Nothing of a frame is forwarded before the whole frame is checked, so a client
//!   never receives part of a frame.
//! * A frame a policy changes is written anew: `data: <compact JSON>` with the frame's `event:`
//!   line and the cursor or the frame's `id:` line.
//! * **Faults end the stream with a `RUN_ERROR`**. At the first invalid frame or event, at an
//!   order-rule violation, and when the upstream ends inside a run (end of input before
//!   `RUN_FINISHED` or `RUN_ERROR`, before any event, or, with a strict end of stream, inside a
//!   frame), the relay forwards the frames before the fault, then one well-formed
//!   `data: {"type":"RUN_ERROR","message":...,"code":"UPSTREAM_..."}` frame naming the event
//!   index, the byte offset and what is wrong ([`RelayFault`]), and nothing after that. (If the
//!   upstream had already sent a `RUN_ERROR` and its run is over, nothing is added: the client
//!   rejects a second one.)
//! * By default a last frame that the upstream ends without a blank line is forwarded, complete
//!   with one, as the official client reads it ([`SseOptions::with_strict_end`](crate::sse::SseOptions::with_strict_end)).
//!
//! # Cursors and resuming
//!
//! With [`RelayOptions::with_cursors`], every forwarded event gets an `id: {runId}:{index}`
//! line: the `runId` of the run's `RUN_STARTED` (as written in its JSON string, escapes kept, so
//! the line holds no line break), and the index of the event in that run as the upstream sent
//! it (`RUN_STARTED` is 0; dropped events count). A client that reconnects sends the last one
//! as `Last-Event-ID`. An event before any `RUN_STARTED` gets no cursor, and an upstream
//! `id:`-only frame is not forwarded (it would overwrite the client's cursor).
//!
//! To resume, read the header back with [`Cursor::parse`] and pass it to
//! [`RelayOptions::resume_after`]: when the upstream replays that run from its start, the
//! relay reads and checks its events as before but forwards only those after the cursor, with
//! the same cursors as the first time ([`Relay::skipped`] counts the others). A value that is
//! not a cursor, or a run the upstream does not replay, leaves the stream whole (see
//! `resume_after` for why). An upstream that resumes the run itself (its stream begins with
//! the event after the cursor) is relayed as the rest of that run, cursors numbered on.
//!
//! # Memory and cost
//!
//! Work is linear in the input. Between chunks a relay holds: the bytes of a frame in progress
//! (copied once, and kept also by the SSE decoder), the event-order state (a few hundred bytes
//! plus the ids open in the current run) and, for cursors, the run id. Buffers that a big frame
//! grew are given back once it is forwarded, down to 1 KiB each, so an idle stream costs about
//! 1 KiB of struct ([`std::mem::size_of`]) plus a few small allocations.
//!
//! `Relay` is `Send` (it can live in a gateway's per-request context and move between threads
//! with its task) but not `Sync`: it holds a [`Bump`] arena, which is `!Sync`; it is used through
//! `&mut` anyway. [`RelayOptions`], [`RawPolicy`], [`EventTypeSet`], [`Cursor`],
//! [`RelayFault`] and [`FaultKind`] are plain data, `Send + Sync`.
//!
//! # A gateway's loop
//!
//! ```
//! use bytes::Bytes;
//! use agui_wire::{Event, Bump};
//! use agui_wire::relay::{Relay, RelayOptions};
//!
//! let mut relay = Relay::new(RelayOptions::new().with_cursors(true));
//! let mut out = Vec::new();
//! // Upstream chunks, split anywhere:
//! for chunk in [
//!     &b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r1\"}\n\ndata: {\"type\":\"TEXT_MESSAGE_"[..],
//!     b"START\",\"messageId\":\"m\",\"role\":\"assistant\"}\n\n",
//! ] {
//!     relay.feed(Bytes::from_static(chunk), &mut out);
//!     // send `out` to the client, then:
//!     // out.clear();
//! }
//! relay.on_idle(&mut out); // the caller's keep-alive timer fired
//! relay.finish(&mut out); // upstream EOF: here, inside the run
//! let text: Vec<u8> = out.concat();
//! let text = String::from_utf8(text).unwrap();
//! assert!(text.starts_with("id: r1:0\ndata: {\"type\":\"RUN_STARTED\""));
//! assert!(text.contains("id: r1:1\ndata: {\"type\":\"TEXT_MESSAGE_START\""));
//! assert!(text.contains(": ping\n\n"));
//! assert!(text.ends_with("\"code\":\"UPSTREAM_TRUNCATED\"}\n\n"));
//! assert!(relay.is_ended());
//! assert_eq!(relay.relayed(), 2);
//! ```

mod cursor;
mod fault;
mod options;

pub use cursor::{Cursor, MAX_CURSOR_BYTES};
pub use fault::{FaultKind, RelayFault};
pub use options::{EventTypeSet, RawPolicy, RelayOptions};

use bumpalo::Bump;
use bytes::{Bytes, BytesMut};

use crate::events::{Event, EventType};
use crate::model::RawJson;
use crate::reducer::EventOrder;
use crate::sse::{SseDecoder, SseError, SseErrorKind, SseFrame, SseItem, encode_event};
use crate::writer::to_vec;

/// Buffer capacity kept between chunks; more is given back.
const KEEP: usize = 1024;

/// The keep-alive comment [`Relay::on_idle`] sends.
const PING: &[u8] = b": ping\n\n";

/// Where the upstream's current run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    /// No event yet.
    None,
    Open,
    Finished,
    Errored,
}

/// The forwarding cursor: which stream bytes have been emitted or skipped, and the bytes of
/// earlier chunks not yet decided on.
#[derive(Debug, Default)]
struct Emitter {
    /// The first stream byte neither emitted nor skipped.
    fwd: u64,
    /// Stream offset of the current chunk's first byte.
    base: u64,
    /// Stream bytes `[fwd, base)` when `fwd < base` (a frame begun in an earlier chunk).
    carry: Vec<u8>,
    /// A skipped frame ended with a CR at the end of a chunk: a LF starting the next chunk
    /// belongs to it, and is skipped too (so that the output does not depend on the chunking).
    skip_lf: bool,
    /// Something has been written to the output.
    started: bool,
}

impl Emitter {
    /// Appends `bytes` to the output. The output's first byte is where a client strips a
    /// byte order mark: an upstream's BOM in the middle of its stream (the start of a line the
    /// client ignores, such as `\u{FEFF}data: ...`) must not become the output's first bytes,
    /// or the client would read that line. A leading blank line (which dispatches nothing)
    /// keeps it where it was. (The upstream's own leading BOM is never forwarded.)
    fn put(&mut self, out: &mut Vec<Bytes>, bytes: Bytes) {
        if bytes.is_empty() {
            return;
        }
        if !self.started {
            self.started = true;
            if bytes.first() == Some(&0xEF) {
                out.push(Bytes::from_static(b"\n"));
            }
        }
        out.push(bytes);
    }

    /// Emits stream bytes `[fwd, to)`: a slice of `chunk`, or the carried bytes and the
    /// chunk's start in one buffer.
    fn upto(&mut self, to: u64, chunk: &Bytes, out: &mut Vec<Bytes>) {
        if to <= self.fwd {
            return;
        }
        if self.fwd < self.base {
            let mut bytes = std::mem::take(&mut self.carry);
            if to >= self.base {
                let n = usize::try_from(to - self.base).unwrap_or(usize::MAX);
                bytes.extend_from_slice(chunk.get(..n).unwrap_or(chunk));
                self.put(out, Bytes::from(bytes));
            } else {
                let n = usize::try_from(to - self.fwd).unwrap_or(usize::MAX);
                let n = n.min(bytes.len());
                self.put(
                    out,
                    Bytes::copy_from_slice(bytes.get(..n).unwrap_or_default()),
                );
                bytes.drain(..n);
                self.carry = bytes;
            }
        } else {
            let len = chunk.len();
            let a = usize::try_from(self.fwd - self.base)
                .unwrap_or(len)
                .min(len);
            let b = usize::try_from(to - self.base).unwrap_or(len).min(len);
            if a < b {
                self.put(out, chunk.slice(a..b));
            }
        }
        self.fwd = to;
    }

    /// Skips stream bytes `[fwd, to)` of the stream whose current chunk is `chunk`.
    fn skip(&mut self, to: u64, chunk: &[u8]) {
        if to <= self.fwd {
            return;
        }
        self.skip_lf =
            chunk.last() == Some(&b'\r') && to == self.base.saturating_add(chunk.len() as u64);
        if self.fwd < self.base {
            if to >= self.base {
                self.carry.clear();
            } else {
                let n = usize::try_from(to - self.fwd).unwrap_or(usize::MAX);
                self.carry.drain(..n.min(self.carry.len()));
            }
        }
        self.fwd = to;
    }

    /// At the start of a chunk: skips the LF of a CRLF that ended a skipped frame.
    fn start_chunk(&mut self, chunk: &[u8]) {
        if self.skip_lf && !chunk.is_empty() {
            self.skip_lf = false;
            if chunk.first() == Some(&b'\n') && self.fwd == self.base {
                self.fwd += 1;
            }
        }
    }

    /// At the end of a chunk: keeps its bytes from `from` on (a frame in progress).
    fn keep_tail(&mut self, from: u64, chunk: &Bytes) {
        let end = self.base.saturating_add(chunk.len() as u64);
        if from >= end {
            self.fwd = self.fwd.max(end);
            return;
        }
        let start = if self.fwd < self.base {
            0
        } else {
            self.fwd = from.max(self.fwd);
            usize::try_from(self.fwd - self.base).unwrap_or(usize::MAX)
        };
        self.carry
            .extend_from_slice(chunk.get(start..).unwrap_or_default());
        if self.carry.capacity() > KEEP && self.carry.len() <= KEEP {
            self.carry.shrink_to(KEEP);
        }
    }
}

/// Everything but the decoder (which a feed borrows).
#[derive(Debug)]
struct Core {
    options: RelayOptions,
    order: EventOrder,
    arena: Bump,
    emit: Emitter,
    run: Run,
    /// The current run's `runId` as written in JSON (for cursors).
    run_id: String,
    /// Index in the current run of the next event.
    run_index: u64,
    /// While the current run is the one resumed: its events up to this index are skipped.
    skip_through: Option<u64>,
    /// Whether the resumed run has started (the cursor applies once).
    resume_used: bool,
    /// The stream is an upstream's own continuation of the resumed run (it began after the
    /// cursor, without `RUN_STARTED`): the order rules are not checked until the next
    /// `RUN_STARTED`, since the run's earlier events (its open messages and tool calls) were
    /// on another connection.
    continued: bool,
    seen: usize,
    relayed: u64,
    dropped: u64,
    skipped: u64,
    redacted: u64,
    ended: bool,
    /// Whether the start of the stream is past (its byte order mark, if any, skipped).
    bom_done: bool,
    fault: Option<Box<RelayFault>>,
}

/// A streaming event relay: see the [module docs](self).
///
/// ```
/// use bytes::Bytes;
/// use agui_wire::relay::{Relay, RelayOptions};
/// let chunk = Bytes::from_static(
///     b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
///       data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");
/// let mut relay = Relay::new(RelayOptions::new());
/// let mut out = Vec::new();
/// relay.feed(chunk.clone(), &mut out);
/// relay.finish(&mut out);
/// // Forwarded without a copy: one slice of the input.
/// assert_eq!(out, [chunk.clone()]);
/// assert_eq!(out[0].as_ptr(), chunk.as_ptr());
/// assert!(relay.fault().is_none());
/// ```
#[derive(Debug)]
pub struct Relay {
    decoder: SseDecoder,
    core: Core,
}

impl Relay {
    /// A relay at the start of an upstream response.
    ///
    /// ```
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// let relay = Relay::new(RelayOptions::new());
    /// assert!(!relay.is_ended());
    /// ```
    #[must_use]
    pub fn new(options: RelayOptions) -> Self {
        Relay {
            decoder: SseDecoder::new(options.sse()),
            core: Core {
                options,
                order: EventOrder::new(),
                arena: Bump::new(),
                emit: Emitter::default(),
                run: Run::None,
                run_id: String::new(),
                run_index: 0,
                skip_through: None,
                resume_used: false,
                continued: false,
                seen: 0,
                relayed: 0,
                dropped: 0,
                skipped: 0,
                redacted: 0,
                ended: false,
                bom_done: false,
                fault: None,
            },
        }
    }

    /// The options the relay was made with.
    ///
    /// ```
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// let options = RelayOptions::new().with_cursors(true);
    /// assert_eq!(Relay::new(options.clone()).options(), &options);
    /// ```
    #[must_use]
    pub fn options(&self) -> &RelayOptions {
        &self.core.options
    }

    /// Takes the next chunk of the upstream body and appends to `out` the bytes to send to the
    /// client now (possibly none: a frame may wait for its end). After the stream has ended
    /// (a fault, or [`finish`](Relay::finish)) the chunk is ignored.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// let mut relay = Relay::new(RelayOptions::new());
    /// let mut out = Vec::new();
    /// relay.feed(Bytes::from_static(b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\","), &mut out);
    /// assert!(out.is_empty()); // the frame is not complete
    /// relay.feed(Bytes::from_static(b"\"runId\":\"r\"}\n\n"), &mut out);
    /// assert_eq!(out.concat(), b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n");
    /// ```
    pub fn feed(&mut self, chunk: Bytes, out: &mut Vec<Bytes>) {
        if self.core.ended {
            return;
        }
        let base = self.decoder.offset();
        self.core.emit.base = base;
        if !self.core.bom_done {
            self.core.skip_bom(base, &chunk);
        }
        self.core.emit.start_chunk(&chunk);
        let mut stopped = false;
        {
            let core = &mut self.core;
            let mut feed = self.decoder.feed(&chunk);
            while let Some((item, start, end)) = feed.next_spanned() {
                let result = match item {
                    Ok(SseItem::Frame(frame)) => {
                        core.on_frame(frame, (start, end), false, &chunk, out)
                    }
                    Ok(SseItem::LastEventId(_)) if core.options.cursors => {
                        core.emit.upto(start, &chunk, out);
                        core.emit.skip(end, &chunk);
                        Ok(())
                    }
                    Ok(_) => Ok(()),
                    Err(err) => Err(core.sse_fault(&err, start)),
                };
                if let Err(fault) = result {
                    core.end_with(fault, start, &chunk, out);
                    stopped = true;
                    break;
                }
            }
        }
        if stopped {
            self.decoder = SseDecoder::new(self.core.options.sse());
            return;
        }
        let end = base.saturating_add(chunk.len() as u64);
        let safe = self.decoder.unit_start().unwrap_or(end);
        let safe = safe.max(self.core.emit.fwd);
        self.core.emit.upto(safe, &chunk, out);
        self.core.emit.keep_tail(safe, &chunk);
        self.trim();
    }

    /// Ends the upstream body (its EOF): forwards a last frame the upstream did not end with a
    /// blank line (unless the SSE options read the end strictly), then, if the upstream stopped
    /// inside a run or inside a frame, appends a `RUN_ERROR` frame saying so. Afterwards the
    /// relay is ended.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use agui_wire::relay::{FaultKind, Relay, RelayOptions};
    /// let mut relay = Relay::new(RelayOptions::new());
    /// let mut out = Vec::new();
    /// relay.feed(Bytes::from_static(b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"), &mut out);
    /// relay.finish(&mut out);
    /// assert_eq!(relay.fault().unwrap().kind(), FaultKind::Truncated);
    /// let last = String::from_utf8(out.last().unwrap().to_vec()).unwrap();
    /// assert_eq!(last, "data: {\"type\":\"RUN_ERROR\",\"message\":\"upstream ended before RUN_FINISHED or RUN_ERROR (run r, after 1 event, byte 57)\",\"code\":\"UPSTREAM_TRUNCATED\"}\n\n");
    /// ```
    pub fn finish(&mut self, out: &mut Vec<Bytes>) {
        if self.core.ended {
            return;
        }
        let end = self.decoder.offset();
        let empty = Bytes::new();
        self.core.emit.base = end;
        let pending = self.decoder.unit_start();
        let core = &mut self.core;
        let result = match self.decoder.finish() {
            Ok(Some(frame)) => {
                let start = pending.unwrap_or(core.emit.fwd);
                core.on_frame(frame, (start, end), true, &empty, out)
            }
            Ok(None) => {
                // A tail without data (a cut comment or `id:` line) is not forwarded.
                core.emit.skip(end, &empty);
                Ok(())
            }
            Err(err) => Err(core.sse_fault(&err, pending.unwrap_or(end))),
        };
        let result = result.and_then(|()| core.run_end(end));
        match result {
            Ok(()) => {
                core.emit.upto(end, &empty, out);
                core.ended = true;
            }
            Err(fault) => {
                let at = fault.offset.min(end);
                core.end_with(fault, at, &empty, out);
            }
        }
        self.decoder = SseDecoder::new(self.core.options.sse());
        self.core.release();
    }

    /// The caller's keep-alive timer fired (no bytes were sent to the client for a while):
    /// appends a `: ping` comment frame, unless the stream has ended. The relay keeps no clock;
    /// any interval works, 15 s keeps most proxies' 30-60 s idle timeouts at bay. A comment
    /// is only ever sent between frames.
    ///
    /// ```
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// let mut relay = Relay::new(RelayOptions::new());
    /// let mut out = Vec::new();
    /// relay.on_idle(&mut out);
    /// assert_eq!(out.concat(), b": ping\n\n");
    /// ```
    pub fn on_idle(&mut self, out: &mut Vec<Bytes>) {
        if !self.core.ended {
            self.core.emit.put(out, Bytes::from_static(PING));
        }
    }

    /// Whether the stream has ended (a fault, or [`finish`](Relay::finish)): nothing more will
    /// be produced, and the upstream can be closed.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// let mut relay = Relay::new(RelayOptions::new());
    /// let mut out = Vec::new();
    /// relay.feed(Bytes::from_static(b"data: [1]\n\n"), &mut out);
    /// assert!(relay.is_ended());
    /// relay.feed(Bytes::from_static(b"data: {}\n\n"), &mut out);
    /// assert_eq!(out.len(), 1); // the RUN_ERROR only
    /// ```
    #[must_use]
    pub fn is_ended(&self) -> bool {
        self.core.ended
    }

    /// The fault that ended the stream, if one did.
    ///
    /// ```
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// assert!(Relay::new(RelayOptions::new()).fault().is_none());
    /// ```
    #[must_use]
    pub fn fault(&self) -> Option<&RelayFault> {
        self.core.fault.as_deref()
    }

    /// How many upstream events were read (valid or not, dropped or not).
    ///
    /// ```
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// assert_eq!(Relay::new(RelayOptions::new()).events_seen(), 0);
    /// ```
    #[must_use]
    pub fn events_seen(&self) -> usize {
        self.core.seen
    }

    /// How many events were forwarded (redacted ones included; the relay's own `RUN_ERROR`
    /// and events skipped for a resuming client not).
    ///
    /// ```
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// assert_eq!(Relay::new(RelayOptions::new()).relayed(), 0);
    /// ```
    #[must_use]
    pub fn relayed(&self) -> u64 {
        self.core.relayed
    }

    /// How many valid events a policy dropped.
    ///
    /// ```
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// assert_eq!(Relay::new(RelayOptions::new()).dropped(), 0);
    /// ```
    #[must_use]
    pub fn dropped(&self) -> u64 {
        self.core.dropped
    }

    /// How many forwarded events had raw data redacted or removed.
    ///
    /// ```
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// assert_eq!(Relay::new(RelayOptions::new()).redacted(), 0);
    /// ```
    #[must_use]
    pub fn redacted(&self) -> u64 {
        self.core.redacted
    }

    /// How many events were not forwarded because the client resuming after a cursor already
    /// has them ([`RelayOptions::resume_after`]).
    ///
    /// ```
    /// use agui_wire::relay::{Relay, RelayOptions};
    /// assert_eq!(Relay::new(RelayOptions::new()).skipped(), 0);
    /// ```
    #[must_use]
    pub fn skipped(&self) -> u64 {
        self.core.skipped
    }

    /// Gives back memory a big frame made grow.
    fn trim(&mut self) {
        self.decoder.trim_buffers(KEEP);
        if self.core.arena.allocated_bytes() > KEEP {
            self.core.arena = Bump::new();
        }
    }
}

/// Joins the pieces [`Relay::feed`] appended into one [`Bytes`] (no copy when there is one
/// piece), and empties `parts`: for hosts that take one buffer per call, such as Pingora's
/// `response_body_filter(&mut Option<Bytes>, ...)`.
///
/// ```
/// use bytes::Bytes;
/// use agui_wire::relay::join;
/// let mut parts = vec![Bytes::from_static(b"a"), Bytes::from_static(b"b")];
/// assert_eq!(join(&mut parts), Some(Bytes::from_static(b"ab")));
/// assert!(parts.is_empty());
/// assert_eq!(join(&mut parts), None);
/// ```
pub fn join(parts: &mut Vec<Bytes>) -> Option<Bytes> {
    match parts.len() {
        0 => None,
        1 => parts.pop(),
        _ => {
            let len = parts.iter().map(Bytes::len).sum();
            let mut all = BytesMut::with_capacity(len);
            for part in parts.drain(..) {
                all.extend_from_slice(&part);
            }
            Some(all.freeze())
        }
    }
}

impl Core {
    /// Skips a byte order mark at the start of the stream (even one split across chunks): the
    /// relay's output may begin with a keep-alive, after which a BOM would be content.
    fn skip_bom(&mut self, base: u64, chunk: &[u8]) {
        const BOM: &[u8] = b"\xEF\xBB\xBF";
        let want = usize::try_from(base)
            .ok()
            .and_then(|b| BOM.get(b..))
            .unwrap_or_default();
        let same = chunk.iter().zip(want).take_while(|(a, b)| a == b).count();
        if same == want.len() {
            self.bom_done = true;
            if !want.is_empty() {
                self.emit.skip(BOM.len() as u64, chunk);
            }
        } else if same < chunk.len() {
            self.bom_done = true;
        }
    }

    fn fault(&self, kind: FaultKind, index: usize, offset: u64, message: String) -> RelayFault {
        RelayFault {
            kind,
            index,
            offset,
            message,
        }
    }

    fn sse_fault(&self, err: &SseError, start: u64) -> RelayFault {
        let (kind, what) = match err.kind() {
            SseErrorKind::Incomplete { .. } => (FaultKind::Truncated, "upstream ended inside"),
            _ => (
                FaultKind::InvalidSse,
                "upstream sent an invalid SSE frame for",
            ),
        };
        let index = self.seen;
        self.fault(kind, index, start, format!("{what} event {index}: {err}"))
    }

    /// At the end of the upstream: a fault if a run is still open, or there was no event.
    fn run_end(&self, end: u64) -> Result<(), RelayFault> {
        let n = self.seen;
        let message = match self.run {
            Run::Finished | Run::Errored => return Ok(()),
            Run::None if n == 0 => format!("upstream ended without any event (byte {end})"),
            Run::None => {
                format!("upstream ended without a RUN_STARTED (after {n} events, byte {end})")
            }
            Run::Open => format!(
                "upstream ended before RUN_FINISHED or RUN_ERROR (run {}, after {n} event{}, byte {end})",
                self.run_id,
                if n == 1 { "" } else { "s" }
            ),
        };
        Err(self.fault(FaultKind::Truncated, n, end, message))
    }

    /// Forwards what comes before the faulty frame at `at`, then the fault's `RUN_ERROR`, and
    /// ends the stream.
    fn end_with(&mut self, fault: RelayFault, at: u64, chunk: &Bytes, out: &mut Vec<Bytes>) {
        self.emit.upto(at.max(self.emit.fwd), chunk, out);
        if self.run != Run::Errored {
            self.emit.put(out, Bytes::from(fault.frame()));
        }
        self.fault = Some(Box::new(fault));
        self.ended = true;
        self.release();
    }

    /// Drops what an ended stream no longer needs.
    fn release(&mut self) {
        self.emit.carry = Vec::new();
        self.arena = Bump::new();
        self.order = EventOrder::new();
        self.run_id = String::new();
    }

    /// Checks a frame `[start, end)` and applies the policies. `chunk` is the current chunk;
    /// `tail` says the frame is the last one, which the upstream ended without a blank line (it
    /// is written anew).
    fn on_frame(
        &mut self,
        frame: SseFrame<'_>,
        (start, end): (u64, u64),
        tail: bool,
        chunk: &Bytes,
        out: &mut Vec<Bytes>,
    ) -> Result<(), RelayFault> {
        let index = self.seen;
        self.seen += 1;
        self.arena.reset();
        let event =
            Event::parse_with(frame.data, &self.arena, &self.options.parse).map_err(|e| {
                let message = format!("upstream event {index} (byte {start}) is invalid: {e}");
                self.fault(FaultKind::InvalidEvent, index, start, message)
            })?;
        if index == 0
            && !matches!(event, Event::RunStarted(_))
            && let Some(cursor) = &self.options.resume
        {
            // The upstream resumed the run itself: its first event is the one after the
            // cursor. The run goes on, with the cursors it had.
            self.resume_used = true;
            self.continued = true;
            self.run = Run::Open;
            self.run_id.clear();
            // (A cursor made with `Cursor::new` may hold anything; one with a control
            // character would break the `id:` line, so the run's events get none.)
            if !cursor.run_id().chars().any(char::is_control) {
                self.run_id.push_str(cursor.run_id());
            }
            self.run_index = cursor.index().saturating_add(1);
        }
        if matches!(event, Event::RunStarted(_)) {
            self.continued = false;
        }
        if self.options.check_order
            && !self.continued
            && let Err(e) = self.order.check(&event)
        {
            let message = format!(
                "upstream event {index} (byte {start}) breaks the event order: {}",
                e.kind()
            );
            return Err(self.fault(FaultKind::EventOrder, index, start, message));
        }
        match &event {
            Event::RunStarted(rs) => {
                self.run = Run::Open;
                self.run_id.clear();
                self.run_id.push_str(rs.run_id.raw());
                self.run_index = 0;
                self.skip_through = None;
                if let Some(cursor) = &self.options.resume
                    && !self.resume_used
                    && cursor.run_id() == self.run_id
                {
                    self.resume_used = true;
                    self.skip_through = Some(cursor.index());
                }
            }
            Event::RunFinished(_) => self.run = Run::Finished,
            Event::RunError(_) => self.run = Run::Errored,
            _ => {}
        }
        let run_index = self.run_index;
        self.run_index += 1;
        if self.skip_through.is_some_and(|last| run_index <= last) {
            // The resuming client has this event: checked and counted, not forwarded.
            self.skipped += 1;
            self.emit.upto(start, chunk, out);
            self.emit.skip(end, chunk);
            return Ok(());
        }

        let kind = event.event_type();
        let raw = self.options.raw;
        let is_raw = kind == Some(EventType::Raw);
        if kind.is_some_and(|t| self.options.drop_types.contains(t))
            || (is_raw && raw == RawPolicy::Drop)
        {
            self.dropped += 1;
            self.emit.upto(start, chunk, out);
            self.emit.skip(end, chunk);
            return Ok(());
        }
        self.relayed += 1;
        let mut cursor = Vec::new();
        if self.options.cursors && !self.run_id.is_empty() {
            cursor.extend_from_slice(self.run_id.as_bytes());
            cursor.push(b':');
            crate::writer::write_uint(run_index, false, &mut cursor);
        }
        // The cursor is ASCII-safe: a JSON string's raw text holds no control character.
        let cursor_str = std::str::from_utf8(&cursor).ok().filter(|c| !c.is_empty());
        let id = cursor_str.or(frame.id);

        let strip = raw != RawPolicy::Forward
            && (is_raw || event.base().is_some_and(|b| b.raw_event.is_some()));
        let rewritten = if strip {
            self.redacted += 1;
            let mut event = event;
            if let Some(base) = event.base_mut() {
                base.raw_event = None;
            }
            if let Event::Raw(r) = &mut event {
                r.event = RawJson::null();
            }
            Some(to_vec(&event))
        } else {
            None
        };
        if rewritten.is_some() || tail || (cursor_str.is_some() && frame.id.is_some()) {
            // Written anew: changed by a policy, never terminated (the end of the stream), or
            // with an `id:` line of its own that would hide the cursor.
            let data = rewritten.as_deref().unwrap_or(frame.data);
            let mut bytes = Vec::with_capacity(data.len() + cursor.len() + 16);
            if encode_event(&mut bytes, frame.event, id, data).is_err() {
                // (A decoded `event` or `id` never holds a line break; this is not reached.)
                bytes.clear();
                crate::sse::encode_frame(&mut bytes, data);
            }
            self.emit.upto(start, chunk, out);
            self.emit.put(out, Bytes::from(bytes));
            self.emit.skip(end, chunk);
        } else if !cursor.is_empty() {
            // The cursor line, then the frame as the upstream wrote it.
            self.emit.upto(start, chunk, out);
            let mut line = Vec::with_capacity(cursor.len() + 5);
            line.extend_from_slice(b"id: ");
            line.extend_from_slice(&cursor);
            line.push(b'\n');
            self.emit.put(out, Bytes::from(line));
        }
        // Otherwise the frame's bytes go out with the next emission, unchanged: a slice of the
        // chunk when it lies whole in it, the gathered bytes when it was split.
        Ok(())
    }
}
