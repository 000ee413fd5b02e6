//! The writer: the model back to compact AG-UI JSON, losing nothing the client sent.
//!
//! Strings go out as their raw, escaped text (no re-escaping), JSON-valued fields and unknown
//! fields as the bytes they were read from (minified if they held whitespace), and every object
//! in the key order it arrived in. So, for an input that is already compact,
//! `write(parse(bytes)) == bytes`, byte for byte; for any valid input,
//! `parse(write(parse(bytes))) == parse(bytes)`; and a proxy that changes one field forwards
//! every other byte as it came.
//!
//! ```
//! use agui_wire::{RunAgentInput, Bump, WriteJson};
//! let arena = Bump::new();
//! let body = br#"{"runId":"r-1","threadId":"t-1","messages":[{"id":"m","role":"user","content":"caf\u00e9"}],"x-trace":{"id":7}}"#;
//! let input = RunAgentInput::parse(body, &arena)?;
//! assert_eq!(agui_wire::to_vec(&input), body);
//! assert_eq!(input.to_json_vec(), body);
//! # Ok::<(), agui_wire::Error>(())
//! ```
//!
//! Three ways out:
//! - into a `Vec<u8>`: [`to_vec`] (sized exactly first, with [`WriteJson::json_len`]);
//! - into any [`std::io::Write`]: [`write_to`], which buffers the small pieces and hands large
//!   spans to the writer directly;
//! - as a list of [`IoSlice`]s for `write_vectored`: [`to_io_slices`], where every span of
//!   [`VECTORED_THRESHOLD`] bytes or more (a base64 payload, a big `state`) is a slice of the
//!   parsed input itself, and only the glue between them is copied into a scratch buffer;
//!   [`write_all_vectored`] sends such a list, handling partial writes.
//!
//! Where the output can differ from the input (each still parses to an equal model):
//! - whitespace outside strings is removed;
//! - a known key written with escapes (`"thr\u0065adId"`) is written plainly, and so is an
//!   escaped discriminator (`role`, part and source `type`, resume `status`);
//! - with [`ParseOptions::null_as_absent`](crate::ParseOptions::null_as_absent), a `null` read as
//!   absent is not written.

mod view;

use std::io::{self, IoSlice, Write};

pub(crate) use view::{
    ObjectView, Slot, WithTag, for_each_slot, write_extra_field, write_object, write_tag,
};

use crate::model::{List, RawJson, Str};

/// Where the writer puts its output: small pieces of glue (punctuation, keys, numbers) and
/// spans borrowed from the model for `'d` (string contents, raw JSON values), which a sink may
/// keep by reference instead of copying.
///
/// `Vec<u8>` is a sink; so is the vectored builder behind [`to_io_slices`].
///
/// ```
/// use agui_wire::writer::Sink;
/// /// Counts the bytes that would be written, and how many came as borrowed spans.
/// #[derive(Default)]
/// struct Stats { total: usize, borrowed: usize }
/// impl<'d> Sink<'d> for Stats {
///     fn push(&mut self, bytes: &[u8]) { self.total += bytes.len(); }
///     fn push_borrowed(&mut self, bytes: &'d [u8]) {
///         self.total += bytes.len();
///         self.borrowed += bytes.len();
///     }
/// }
/// use agui_wire::{WriteJson, Str};
/// let mut stats = Stats::default();
/// Str::new("hello").write_json(&mut stats);
/// assert_eq!((stats.total, stats.borrowed), (7, 5));
/// ```
pub trait Sink<'d> {
    /// Appends bytes the sink must copy (they may not outlive the call).
    fn push(&mut self, bytes: &[u8]);

    /// Appends bytes that live for `'d` (the default copies them like [`Sink::push`]).
    ///
    /// ```
    /// use agui_wire::writer::Sink;
    /// let mut out = Vec::new();
    /// out.push_borrowed(b"abc");
    /// assert_eq!(out, b"abc");
    /// ```
    #[inline]
    fn push_borrowed(&mut self, bytes: &'d [u8]) {
        self.push(bytes);
    }
}

impl Sink<'_> for Vec<u8> {
    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// A sink that only counts.
struct Counter(usize);

impl Sink<'_> for Counter {
    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

/// A model value that can be written as compact AG-UI JSON.
///
/// Every model type implements it: documents ([`crate::RunAgentInput`],
/// [`crate::AgentCapabilities`]), [`crate::Message`] and every message type,
/// [`crate::InputContent`] and the parts and sources, the capability groups, and the building
/// blocks ([`Str`], [`RawJson`], [`List`], `bool`, `u64`), so an event writer can put a message
/// or a content part into its own payload.
///
/// ```
/// use agui_wire::{WriteJson, Message, UserMessage, Content, Str};
/// let m = Message::User(UserMessage { id: Str::new("u1"), content: Content::Text(Str::new("hi \"you\"")),
///     ..Default::default() });
/// assert_eq!(m.to_json_vec(), br#"{"id":"u1","role":"user","content":"hi \"you\""}"#);
/// assert_eq!(m.json_len(), m.to_json_vec().len());
/// ```
pub trait WriteJson {
    /// Writes the value into `out`.
    ///
    /// ```
    /// use agui_wire::{WriteJson, RawJson};
    /// let mut out = b"state=".to_vec();
    /// RawJson::from_text("{ \"a\": [1, 2] }").unwrap().write_json(&mut out);
    /// assert_eq!(out, br#"state={"a":[1,2]}"#);
    /// ```
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S);

    /// The exact number of bytes [`WriteJson::write_json`] writes (a walk over the model that
    /// copies nothing; handy for a `Content-Length` header).
    ///
    /// ```
    /// use agui_wire::{WriteJson, Str};
    /// assert_eq!(Str::new("a\nb").json_len(), 6);
    /// ```
    fn json_len(&self) -> usize {
        let mut c = Counter(0);
        self.write_json(&mut c);
        c.0
    }

    /// The value as a new `Vec<u8>`, allocated once at the right size.
    ///
    /// ```
    /// use agui_wire::{WriteJson, List, Str};
    /// let l: List<'_, Str<'_>> = List::from(vec![Str::new("a"), Str::new("b")]);
    /// assert_eq!(l.to_json_vec(), br#"["a","b"]"#);
    /// ```
    fn to_json_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.json_len());
        self.write_json(&mut out);
        out
    }

    /// Writes the value into an [`io::Write`], buffering small pieces (8 KiB) and handing
    /// spans of [`VECTORED_THRESHOLD`] bytes or more to `w` directly. Does not flush `w`.
    ///
    /// ```
    /// use agui_wire::{WriteJson, Str};
    /// let mut out = std::io::Cursor::new(Vec::new());
    /// Str::new("x").write_json_to(&mut out).unwrap();
    /// assert_eq!(out.into_inner(), b"\"x\"");
    /// ```
    fn write_json_to<W: Write>(&self, w: W) -> io::Result<()> {
        let mut sink = IoSink {
            w,
            buf: Vec::with_capacity(IO_BUFFER),
            error: None,
        };
        self.write_json(&mut sink);
        sink.finish()
    }
}

/// Writes `value` (a [`crate::RunAgentInput`], [`crate::AgentCapabilities`], [`crate::Message`]
/// or any other model value) as compact JSON into a new `Vec<u8>`.
///
/// ```
/// use agui_wire::{AgentCapabilities, Bump};
/// let arena = Bump::new();
/// let doc = br#"{"transport":{"streaming":true},"execution":{"maxIterations":10}}"#;
/// let caps = AgentCapabilities::parse(doc, &arena)?;
/// assert_eq!(agui_wire::to_vec(&caps), doc);
/// # Ok::<(), agui_wire::Error>(())
/// ```
pub fn to_vec<T: WriteJson + ?Sized>(value: &T) -> Vec<u8> {
    value.to_json_vec()
}

/// Writes `value` as compact JSON into `w` (see [`WriteJson::write_json_to`]).
///
/// ```
/// use agui_wire::{RunAgentInput, Bump};
/// let arena = Bump::new();
/// let body = br#"{"threadId":"t","runId":"r","messages":[]}"#;
/// let input = RunAgentInput::parse(body, &arena)?;
/// let mut out = Vec::new();
/// agui_wire::write_to(&input, &mut out)?;
/// assert_eq!(out, body);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_to<T: WriteJson + ?Sized, W: Write>(value: &T, w: W) -> io::Result<()> {
    value.write_json_to(w)
}

/// Spans at least this long are handed out by reference (by [`to_io_slices`], and straight to
/// the writer by [`write_to`]); shorter ones are copied.
///
/// ```
/// assert_eq!(agui_wire::writer::VECTORED_THRESHOLD, 4096);
/// ```
pub const VECTORED_THRESHOLD: usize = 4096;

const IO_BUFFER: usize = 8192;

/// Builds the output as a list of slices: large borrowed spans by reference, the rest copied
/// into a scratch buffer.
struct Vectored<'d, 's> {
    scratch: &'s mut Vec<u8>,
    segments: Vec<Segment<'d>>,
    glue_start: usize,
    threshold: usize,
}

enum Segment<'d> {
    Glue(usize, usize),
    Span(&'d [u8]),
}

impl<'d> Sink<'d> for Vectored<'d, '_> {
    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        self.scratch.extend_from_slice(bytes);
    }

    #[inline]
    fn push_borrowed(&mut self, bytes: &'d [u8]) {
        if bytes.len() < self.threshold {
            self.scratch.extend_from_slice(bytes);
            return;
        }
        self.close_glue();
        self.segments.push(Segment::Span(bytes));
    }
}

impl Vectored<'_, '_> {
    fn close_glue(&mut self) {
        let end = self.scratch.len();
        if end > self.glue_start {
            self.segments.push(Segment::Glue(self.glue_start, end));
        }
        self.glue_start = end;
    }
}

/// Writes `value` as a list of [`IoSlice`]s for `write_vectored`: every string or raw value of
/// [`VECTORED_THRESHOLD`] bytes or more is a slice of the model's own data (for a parsed
/// document: of the input buffer), not a copy; everything else is copied into `scratch`
/// (cleared first). Joined, the slices are exactly [`to_vec`]'s bytes.
///
/// ```
/// use agui_wire::{RunAgentInput, Bump, offset_in};
/// let arena = Bump::new();
/// let png = "A".repeat(10_000);
/// let body = format!(r#"{{"threadId":"t","runId":"r","messages":[{{"id":"m","role":"user","content":[{{"type":"image","source":{{"type":"data","value":"{png}","mimeType":"image/png"}}}}]}}]}}"#);
/// let input = RunAgentInput::parse(body.as_bytes(), &arena)?;
/// let mut scratch = Vec::new();
/// let slices = agui_wire::to_io_slices(&input, &mut scratch);
/// assert_eq!(slices.len(), 3); // glue, the payload, glue
/// assert!(offset_in(body.as_bytes(), &slices[1]).is_some());
/// let joined: Vec<u8> = slices.iter().flat_map(|s| s.iter().copied()).collect();
/// assert_eq!(joined, body.as_bytes());
/// # Ok::<(), agui_wire::Error>(())
/// ```
pub fn to_io_slices<'x, T: WriteJson + ?Sized>(
    value: &'x T,
    scratch: &'x mut Vec<u8>,
) -> Vec<IoSlice<'x>> {
    to_io_slices_with_threshold(value, scratch, VECTORED_THRESHOLD)
}

/// [`to_io_slices`] with a chosen threshold (`0` hands out every string and raw value by
/// reference).
///
/// ```
/// use agui_wire::{WriteJson, Str};
/// let s = Str::new("hello");
/// let mut scratch = Vec::new();
/// let slices = agui_wire::writer::to_io_slices_with_threshold(&s, &mut scratch, 1);
/// assert_eq!(slices.len(), 3);
/// assert_eq!(&*slices[1], b"hello");
/// ```
pub fn to_io_slices_with_threshold<'x, T: WriteJson + ?Sized>(
    value: &'x T,
    scratch: &'x mut Vec<u8>,
    threshold: usize,
) -> Vec<IoSlice<'x>> {
    scratch.clear();
    let mut v = Vectored {
        scratch,
        segments: Vec::new(),
        glue_start: 0,
        threshold: threshold.max(1),
    };
    value.write_json(&mut v);
    v.close_glue();
    let Vectored {
        scratch, segments, ..
    } = v;
    let scratch: &'x [u8] = scratch;
    segments
        .into_iter()
        .map(|s| match s {
            Segment::Glue(a, b) => IoSlice::new(scratch.get(a..b).unwrap_or_default()),
            Segment::Span(s) => IoSlice::new(s),
        })
        .collect()
}

/// Writes every slice with `write_vectored`, continuing after partial writes and
/// interruptions (what the unstable `Write::write_all_vectored` does).
///
/// ```
/// use std::io::IoSlice;
/// let mut out = Vec::new();
/// let mut slices = [IoSlice::new(b"ab"), IoSlice::new(b""), IoSlice::new(b"cd")];
/// agui_wire::write_all_vectored(&mut out, &mut slices).unwrap();
/// assert_eq!(out, b"abcd");
/// ```
pub fn write_all_vectored<W: Write + ?Sized>(
    w: &mut W,
    mut slices: &mut [IoSlice<'_>],
) -> io::Result<()> {
    IoSlice::advance_slices(&mut slices, 0);
    while !slices.is_empty() {
        match w.write_vectored(slices) {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    "failed to write whole buffer",
                ));
            }
            Ok(n) => IoSlice::advance_slices(&mut slices, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Writes `value` to `w` with vectored writes: [`to_io_slices`] then [`write_all_vectored`].
///
/// ```
/// use agui_wire::{RunAgentInput, Bump};
/// let arena = Bump::new();
/// let body = br#"{"threadId":"t","runId":"r","messages":[]}"#;
/// let input = RunAgentInput::parse(body, &arena)?;
/// let mut out = Vec::new();
/// agui_wire::writer::write_vectored_to(&input, &mut out)?;
/// assert_eq!(out, body);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_vectored_to<T: WriteJson + ?Sized, W: Write + ?Sized>(
    value: &T,
    w: &mut W,
) -> io::Result<()> {
    let mut scratch = Vec::new();
    let mut slices = to_io_slices(value, &mut scratch);
    write_all_vectored(w, &mut slices)
}

/// An [`io::Write`] behind a small buffer; the first error stops all further writes.
struct IoSink<W: Write> {
    w: W,
    buf: Vec<u8>,
    error: Option<io::Error>,
}

impl<W: Write> IoSink<W> {
    fn flush_buf(&mut self) {
        if self.error.is_none()
            && !self.buf.is_empty()
            && let Err(e) = self.w.write_all(&self.buf)
        {
            self.error = Some(e);
        }
        self.buf.clear();
    }

    fn finish(mut self) -> io::Result<()> {
        self.flush_buf();
        match self.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl<W: Write> Sink<'_> for IoSink<W> {
    fn push(&mut self, bytes: &[u8]) {
        if self.error.is_some() {
            return;
        }
        if bytes.len() >= VECTORED_THRESHOLD.min(IO_BUFFER) {
            // A long span goes to `w` as it is, after what is buffered before it.
            self.flush_buf();
            if self.error.is_none()
                && let Err(e) = self.w.write_all(bytes)
            {
                self.error = Some(e);
            }
        } else {
            if self.buf.len() + bytes.len() > IO_BUFFER {
                self.flush_buf();
            }
            self.buf.extend_from_slice(bytes);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The building blocks.

impl WriteJson for Str<'_> {
    #[inline]
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        out.push(b"\"");
        out.push_borrowed(self.raw().as_bytes());
        out.push(b"\"");
    }
}

impl WriteJson for RawJson<'_> {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        if self.is_compact() {
            out.push_borrowed(self.as_bytes());
        } else {
            view::for_each_compact_run(self.as_bytes(), |run| out.push_borrowed(run));
        }
    }
}

impl WriteJson for bool {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        out.push(if *self { b"true" } else { b"false" });
    }
}

/// Writes `v` in decimal, after a `-` when `negative`.
#[inline]
pub(crate) fn write_uint<'d, S: Sink<'d>>(v: u64, negative: bool, out: &mut S) {
    let mut buf = [0u8; 21];
    let mut i = buf.len();
    let mut n = v;
    loop {
        i -= 1;
        if let Some(slot) = buf.get_mut(i) {
            *slot = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || i == 0 {
            break;
        }
    }
    if negative && i > 0 {
        i -= 1;
        if let Some(slot) = buf.get_mut(i) {
            *slot = b'-';
        }
    }
    out.push(buf.get(i..).unwrap_or_default());
}

impl WriteJson for u64 {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        write_uint(*self, false, out);
    }
}

impl<T: WriteJson> WriteJson for List<'_, T> {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        out.push(b"[");
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push(b",");
            }
            item.write_json(out);
        }
        out.push(b"]");
    }
}

impl<T: WriteJson + ?Sized> WriteJson for &T {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        (**self).write_json(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        for n in [0u64, 7, 10, 99, 100, 12345, u64::MAX] {
            assert_eq!(n.to_json_vec(), n.to_string().into_bytes());
        }
    }

    struct Trickle {
        out: Vec<u8>,
        calls: usize,
    }
    impl Write for Trickle {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.calls += 1;
            if self.calls.is_multiple_of(3) {
                return Err(io::Error::new(io::ErrorKind::Interrupted, "again"));
            }
            let n = buf.len().min(3);
            self.out.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn vectored_partial_writes() {
        let mut w = Trickle {
            out: Vec::new(),
            calls: 0,
        };
        let mut slices = [
            IoSlice::new(b"hello "),
            IoSlice::new(b""),
            IoSlice::new(b"vectored"),
            IoSlice::new(b" world"),
        ];
        write_all_vectored(&mut w, &mut slices).unwrap();
        assert_eq!(w.out, b"hello vectored world");
    }

    #[test]
    fn io_sink_large_and_small() {
        let big = "b".repeat(20_000);
        let l: List<'_, Str<'_>> = List::from(vec![Str::new("a"), Str::new(&big), Str::new("c")]);
        let mut out = Vec::new();
        l.write_json_to(&mut out).unwrap();
        assert_eq!(out, l.to_json_vec());
        let mut w = Trickle {
            out: Vec::new(),
            calls: 0,
        };
        l.write_json_to(&mut w).unwrap();
        assert_eq!(w.out, l.to_json_vec());
    }

    #[test]
    fn io_sink_error() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("broken pipe"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let err = Str::new("x").write_json_to(Broken).unwrap_err();
        assert_eq!(err.to_string(), "broken pipe");
    }
}
