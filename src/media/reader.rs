//! [`Base64Reader`] (a streaming decoder, also `io::Read`) and [`Chunks`] (sub-views of at
//! most so many characters): the two ways to walk a [`Base64`] view piece by piece.

use std::io;

use super::base64::{Base64, Base64Error, Base64ErrorKind};
use super::engine::{self, Engine};
use super::escape;
use super::simd::scalar::{CLASS, INVALID, PAD, WS};

/// A streaming decoder over a [`Base64`] view; see [`Base64::reader`].
///
/// Keeps at most one quantum of state: its memory use does not depend on the payload size.
///
/// ```
/// use agui_wire::media::Base64;
///
/// let mut r = Base64::from_str("aGVsbG8gd29ybGQ=").reader();
/// let mut buf = [0u8; 5];
/// let mut out = Vec::new();
/// while let Some(chunk) = r.next_into(&mut buf) {
///     out.extend_from_slice(chunk.unwrap());
/// }
/// assert_eq!(out, b"hello world");
/// ```
#[derive(Clone, Debug)]
pub struct Base64Reader<'a> {
    view: Base64<'a>,
    engine: Engine,
    pos: usize,
    pending: [u8; 3],
    pend_at: u8,
    pend_len: u8,
    finished: bool,
    failed: Option<Base64Error>,
    reported: bool,
}

impl<'a> Base64Reader<'a> {
    /// A reader at the start of `view`, decoding with `engine`.
    pub(super) fn new(view: Base64<'a>, engine: Engine) -> Base64Reader<'a> {
        Base64Reader {
            view,
            engine,
            pos: 0,
            pending: [0; 3],
            pend_at: 0,
            pend_len: 0,
            finished: false,
            failed: None,
            reported: false,
        }
    }

    /// How many bytes of the raw text have been consumed (including the characters of a
    /// quantum in progress, up to 3, whose bytes did not fit in the last buffer).
    ///
    /// ```
    /// use agui_wire::media::Base64;
    /// let mut r = Base64::from_str("aGVsbG8=").reader();
    /// let mut buf = [0u8; 3];
    /// r.next_into(&mut buf);
    /// assert!((4..=7).contains(&r.position()));
    /// while r.next_into(&mut buf).is_some() {}
    /// assert_eq!(r.position(), 8);
    /// ```
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Whether everything was decoded (and checked) and handed out.
    ///
    /// ```
    /// use agui_wire::media::Base64;
    /// let mut r = Base64::from_str("QQ==").reader();
    /// let mut buf = [0u8; 8];
    /// assert_eq!(r.next_into(&mut buf).unwrap().unwrap(), b"A");
    /// assert!(r.is_finished());
    /// ```
    pub fn is_finished(&self) -> bool {
        self.finished && self.pend_at >= self.pend_len
    }

    /// Decodes the next bytes into `buf` and returns the filled part, or `None` at the end.
    ///
    /// Fills `buf` completely unless the payload ends first. An error is returned once,
    /// after which the iteration ends. An empty `buf` yields an
    /// [`Base64ErrorKind::OutputTooSmall`] error unless the decoder is already finished.
    ///
    /// ```
    /// use agui_wire::media::Base64;
    /// let mut r = Base64::from_str("AAEC").reader();
    /// let mut buf = [0u8; 2];
    /// assert_eq!(r.next_into(&mut buf).unwrap().unwrap(), [0, 1]);
    /// assert_eq!(r.next_into(&mut buf).unwrap().unwrap(), [2]);
    /// assert!(r.next_into(&mut buf).is_none());
    /// ```
    pub fn next_into<'b>(&mut self, buf: &'b mut [u8]) -> Option<Result<&'b [u8], Base64Error>> {
        if self.reported || self.is_finished() {
            return None;
        }
        if buf.is_empty() {
            return Some(Err(self.view.at(
                Base64ErrorKind::OutputTooSmall {
                    needed: 1,
                    available: 0,
                },
                0,
            )));
        }
        match self.fill(buf) {
            Ok(0) => None,
            Ok(n) => Some(Ok(buf.split_at(n.min(buf.len())).0)),
            Err(e) => {
                self.reported = true;
                Some(Err(e))
            }
        }
    }

    /// Fills `buf` as far as the payload goes. `Ok(0)` only at the end (or for an empty
    /// buf). The bytes before an error are handed out first; the error comes at the next
    /// call, and at every call after it.
    pub(crate) fn fill(&mut self, buf: &mut [u8]) -> Result<usize, Base64Error> {
        let raw = self.view.raw;
        let escaped = self.view.escaped;
        let mut o = 0;
        loop {
            while self.pend_at < self.pend_len {
                let (Some(dst), Some(&b)) =
                    (buf.get_mut(o), self.pending.get(usize::from(self.pend_at)))
                else {
                    break;
                };
                *dst = b;
                o += 1;
                self.pend_at += 1;
            }
            let stop = o >= buf.len() || self.pend_at < self.pend_len;
            if stop || self.finished || self.failed.is_some() {
                break;
            }
            let fault = if self.pos < raw.len() {
                let rest = buf.get_mut(o..).unwrap_or_default();
                if rest.len() >= 3 {
                    let (w, fault) =
                        engine::pump::<true>(&mut self.engine, raw, escaped, &mut self.pos, rest);
                    o += w;
                    fault
                } else {
                    // Too little room for a quantum: decode one into `pending`.
                    let (w, fault) = engine::pump::<true>(
                        &mut self.engine,
                        raw,
                        escaped,
                        &mut self.pos,
                        &mut self.pending,
                    );
                    self.pend_at = 0;
                    self.pend_len = w as u8;
                    fault
                }
            } else {
                let mut tail = [0u8; 2];
                match self.engine.finish::<true>(&mut tail) {
                    Ok(t) => {
                        self.pending = [tail[0], tail[1], 0];
                        self.pend_at = 0;
                        self.pend_len = t as u8;
                        self.finished = true;
                        None
                    }
                    Err(f) => Some(f),
                }
            };
            if let Some(f) = fault {
                self.failed = Some(self.view.error(f));
            }
        }
        match self.failed {
            Some(e) if o == 0 => Err(e),
            _ => Ok(o),
        }
    }
}

impl io::Read for Base64Reader<'_> {
    /// Decodes the next bytes into `buf`; `Ok(0)` at the end. An invalid payload gives an
    /// [`io::ErrorKind::InvalidData`] error wrapping the [`Base64Error`], at every call.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.fill(buf).map_err(io::Error::from)
    }
}

/// Iterator over sub-views of a [`Base64`] view; see [`Base64::chunks`].
///
/// ```
/// use agui_wire::media::Base64;
/// let parts: Vec<_> = Base64::from_str("AAAABBBBCC==").chunks(3).map(|c| c.raw()).collect();
/// assert_eq!(parts, [&b"AAAA"[..], b"BBBB", b"CC=="]);
/// ```
#[derive(Clone, Debug)]
pub struct Chunks<'a> {
    view: Base64<'a>,
    pos: usize,
    chars: usize,
}

impl<'a> Chunks<'a> {
    /// Chunks of `view` of at most `chars` logical base64 characters each.
    pub(super) fn new(view: Base64<'a>, chars: usize) -> Chunks<'a> {
        Chunks {
            view,
            pos: 0,
            chars,
        }
    }

    /// Raw length of the next chunk of `rest`.
    fn cut(&self, rest: &[u8]) -> usize {
        if self.view.is_plain_strict() {
            if rest.len() <= self.chars {
                return rest.len();
            }
            // A group ending in '=' is the last valid one: keep the rest with it so that
            // data after padding is still an error.
            return match rest.get(self.chars - 1) {
                Some(b'=') => rest.len(),
                _ => skip_continuation(rest, self.chars),
            };
        }
        let mut count = 0;
        let mut i = 0;
        while let Some(&b) = rest.get(i) {
            let (class, next) = if self.view.escaped && b == b'\\' {
                match rest.get(i..).and_then(escape::parse_escape) {
                    Some((c, n)) => {
                        let class = u8::try_from(c).map_or(INVALID, |a| CLASS[usize::from(a)]);
                        (class, i + n)
                    }
                    None => return rest.len(),
                }
            } else {
                (CLASS[usize::from(b)], skip_continuation(rest, i + 1))
            };
            if class != WS {
                count += 1;
                if count == self.chars {
                    return if class == PAD { rest.len() } else { next };
                }
            }
            i = next;
        }
        rest.len()
    }
}

/// Moves `at` past UTF-8 continuation bytes, so that a cut never splits a character (which
/// is invalid base64 anyway, but its error should name the whole character).
fn skip_continuation(text: &[u8], mut at: usize) -> usize {
    while text.get(at).is_some_and(|&b| (0x80..0xC0).contains(&b)) {
        at += 1;
    }
    at
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Base64<'a>;

    fn next(&mut self) -> Option<Base64<'a>> {
        let rest = self.view.raw.get(self.pos..)?;
        if rest.is_empty() {
            return None;
        }
        let len = self.cut(rest).clamp(1, rest.len());
        let (part, _) = rest.split_at(len);
        let sub = Base64 {
            raw: part,
            doc_offset: self.view.doc_offset.saturating_add(self.pos),
            base: self.view.base.saturating_add(self.pos),
            ..self.view
        };
        self.pos += len;
        Some(sub)
    }
}
