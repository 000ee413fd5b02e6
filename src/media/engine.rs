//! The base64 state machine behind every entry point of [`super::Base64`].
//!
//! [`Engine`] reads logical text (JSON escapes already resolved) in pieces of any size and
//! keeps the state of the quantum in progress between pieces, so the same code serves whole
//! decodes, validation, the `Read` adapter and chunked decoding. It hands runs of plain
//! alphabet characters to a block kernel (`super::simd`) whenever it stands on a quantum
//! boundary and handles everything else one character at a time: padding, whitespace, errors
//! and the quantum in which a kernel stopped.
//!
//! [`pump`] feeds an engine from raw JSON string content: the raw bytes themselves when
//! there are no escapes, else small stack chunks of unescaped text.

use super::escape;
use super::simd::scalar::{CLASS, PAD, URL_SAFE, WS};
use super::simd::{self, Resolved};

/// What went wrong, before positions are mapped back to raw offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FaultKind {
    /// A byte that is neither alphabet, padding, whitespace nor URL-safe.
    Invalid,
    /// `-` or `_`.
    UrlSafe,
    /// Whitespace in strict mode.
    Whitespace,
    /// `=` where padding cannot be (fewer than two characters in its quantum, or padding
    /// followed by data).
    MisplacedPadding,
    /// Something other than whitespace after complete padding.
    DataAfterPadding,
    /// Input ended with `xx=`: one `=` short.
    IncompletePadding,
    /// Strict mode: input ended inside a quantum without padding.
    MissingPadding,
    /// Input ended with a single character in the last quantum.
    ImpossibleLength,
    /// Strict mode: the bits dropped by the last quantum are not zero.
    TrailingBits,
    /// A malformed JSON escape.
    BadEscape,
    /// The output buffer cannot take the final bytes.
    NoRoom,
}

/// Where a fault is: a logical offset (counted in the unescaped text) or a raw one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pos {
    /// Offset in the logical text, from the start of the view.
    Logical(usize),
    /// Offset in the raw text, from the start of the view.
    Raw(usize),
}

/// A fault and its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    pub(crate) kind: FaultKind,
    pub(crate) at: Pos,
}

/// What one call of [`Engine::feed`] did: bytes of text read, bytes of output produced,
/// and the fault it stopped at, if any (the bytes before it are valid and were produced).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub(crate) read: usize,
    pub(crate) written: usize,
    pub(crate) fault: Option<Fault>,
}

/// The decoder state between pieces of logical text.
#[derive(Clone, Debug)]
pub(crate) struct Engine {
    strict: bool,
    /// Stop reading as soon as the output is full (streaming: read no more than needed).
    lazy: bool,
    kernel: Resolved,
    /// 6-bit values of the quantum in progress.
    acc: u32,
    /// How many values `acc` holds (0..=3).
    n: u8,
    /// How many `=` of an unfinished padding were seen (0 or 1).
    pad: u8,
    /// Padding complete: only whitespace may follow.
    done: bool,
    /// Logical bytes consumed so far.
    lpos: usize,
    /// Logical offset of the last alphabet character.
    last_data: usize,
    /// Logical offset of the first `=`.
    first_pad: usize,
}

impl Engine {
    pub(crate) fn new(strict: bool, kernel: Resolved) -> Self {
        Engine {
            strict,
            lazy: false,
            kernel,
            acc: 0,
            n: 0,
            pad: 0,
            done: false,
            lpos: 0,
            last_data: 0,
            first_pad: 0,
        }
    }

    /// The same engine, but stopping as soon as the output buffer is full instead of reading
    /// on (and maybe finding an error) while there is nowhere to put more bytes.
    pub(crate) fn lazy(mut self) -> Self {
        self.lazy = true;
        self
    }

    /// The bytes the quantum in progress stands for when it is the last one:
    /// `(bytes, count, trailing bits non-zero)`.
    fn tail(&self) -> ([u8; 2], usize, bool) {
        let v = self.acc;
        match self.n {
            2 => ([(v >> 4) as u8, 0], 1, v & 0xF != 0),
            3 => ([(v >> 10) as u8, (v >> 2) as u8], 2, v & 0x3 != 0),
            _ => ([0, 0], 0, false),
        }
    }

    /// Consumes a prefix of `text`, writing decoded bytes to `out` when `W` (when not, only
    /// counts them). Stops before the end of `text` at a fault, or when `W` and `out` cannot
    /// take the bytes of the next quantum (for a lazy engine: when `out` is full).
    pub(crate) fn feed<const W: bool>(&mut self, text: &[u8], out: &mut [u8]) -> Step {
        let mut i = 0usize;
        let mut o = 0usize;
        let base = self.lpos;
        let fault = |kind, at: usize| Fault {
            kind,
            at: Pos::Logical(at),
        };
        let result = loop {
            if self.n == 0 && self.pad == 0 && !self.done {
                let rest = text.get(i..).unwrap_or_default();
                let (r, w) = if W {
                    simd::decode(self.kernel, rest, out.get_mut(o..).unwrap_or_default())
                } else {
                    let r = simd::validate(self.kernel, rest);
                    (r, r / 4 * 3)
                };
                if r != 0 {
                    i += r;
                    o += w;
                    self.last_data = base + i - 1;
                }
            }
            if W && self.lazy && o >= out.len() {
                break Ok(());
            }
            let Some(&b) = text.get(i) else {
                break Ok(());
            };
            let c = CLASS[usize::from(b)];
            if c < 64 {
                if self.done {
                    break Err(fault(FaultKind::DataAfterPadding, base + i));
                }
                if self.pad != 0 {
                    break Err(fault(FaultKind::MisplacedPadding, self.first_pad));
                }
                let v = (self.acc << 6) | u32::from(c);
                if self.n == 3 {
                    if W {
                        match out.get_mut(o..o + 3) {
                            Some(d) => {
                                d.copy_from_slice(&[(v >> 16) as u8, (v >> 8) as u8, v as u8])
                            }
                            None => break Ok(()),
                        }
                    }
                    o += 3;
                    self.acc = 0;
                    self.n = 0;
                } else {
                    self.acc = v;
                    self.n += 1;
                }
                self.last_data = base + i;
                i += 1;
                continue;
            }
            match c {
                WS => {
                    if self.strict {
                        break Err(fault(FaultKind::Whitespace, base + i));
                    }
                }
                PAD => {
                    if self.done {
                        break Err(fault(FaultKind::DataAfterPadding, base + i));
                    }
                    match (self.n, self.pad) {
                        (2, 0) => {
                            self.pad = 1;
                            self.first_pad = base + i;
                        }
                        (2, 1) | (3, 0) => {
                            let (bytes, len, trailing) = self.tail();
                            if W {
                                match (out.get_mut(o..o + len), bytes.get(..len)) {
                                    (Some(d), Some(s)) => d.copy_from_slice(s),
                                    _ => break Ok(()),
                                }
                            }
                            if self.pad == 0 {
                                self.first_pad = base + i;
                            }
                            if self.strict && trailing {
                                break Err(fault(FaultKind::TrailingBits, self.last_data));
                            }
                            o += len;
                            self.pad = 0;
                            self.n = 0;
                            self.acc = 0;
                            self.done = true;
                        }
                        _ => break Err(fault(FaultKind::MisplacedPadding, base + i)),
                    }
                }
                URL_SAFE => break Err(fault(FaultKind::UrlSafe, base + i)),
                _ => break Err(fault(FaultKind::Invalid, base + i)),
            }
            i += 1;
        };
        self.lpos = base + i;
        Step {
            read: i,
            written: o,
            fault: result.err(),
        }
    }

    /// Ends the input: checks the last quantum and writes its bytes (at most 2) when `W`.
    pub(crate) fn finish<const W: bool>(&mut self, out: &mut [u8]) -> Result<usize, Fault> {
        if self.done || (self.n == 0 && self.pad == 0) {
            return Ok(0);
        }
        let fault = |kind, at| {
            Err(Fault {
                kind,
                at: Pos::Logical(at),
            })
        };
        if self.pad != 0 {
            return fault(FaultKind::IncompletePadding, self.lpos);
        }
        if self.n == 1 {
            return fault(FaultKind::ImpossibleLength, self.last_data);
        }
        if self.strict {
            return fault(FaultKind::MissingPadding, self.lpos);
        }
        // Forgiving: like WHATWG forgiving-base64, the dropped bits are ignored.
        let (bytes, len, _) = self.tail();
        if W {
            match (out.get_mut(..len), bytes.get(..len)) {
                (Some(d), Some(s)) => d.copy_from_slice(s),
                _ => return fault(FaultKind::NoRoom, self.lpos),
            }
        }
        self.n = 0;
        self.acc = 0;
        self.done = true;
        Ok(len)
    }
}

/// Size of the stack buffer that unescaped text goes through.
const CHUNK: usize = 4096;

/// Feeds `eng` from `raw[*pos..]` (read as JSON string content when `escaped`), writing into
/// `out` when `W`, until the text is used up, `out` is full or a fault. Advances `*pos` past
/// what was consumed and returns the bytes produced (valid even when there is a fault).
///
/// `eng` must have been fed `raw[..*pos]` before, so that its logical offsets line up.
pub(crate) fn pump<const W: bool>(
    eng: &mut Engine,
    raw: &[u8],
    escaped: bool,
    pos: &mut usize,
    out: &mut [u8],
) -> (usize, Option<Fault>) {
    if !escaped {
        let rest = raw.get(*pos..).unwrap_or_default();
        let step = eng.feed::<W>(rest, out);
        *pos += step.read;
        return (step.written, step.fault);
    }
    let mut buf = [0u8; CHUNK];
    let mut o = 0;
    loop {
        let rest = raw.get(*pos..).unwrap_or_default();
        if rest.is_empty() {
            break;
        }
        let room = out.len().saturating_sub(o);
        if W && eng.lazy && room == 0 {
            break;
        }
        // With a small output, unescape little more than it can take, so that mapping the
        // consumed part back to raw offsets stays cheap.
        let limit = if W {
            CHUNK.min((room / 3 + 2) * 4)
        } else {
            CHUNK
        };
        let (m, used) = match escape::unescape_chunk(rest, buf.get_mut(..limit).unwrap_or_default())
        {
            Ok(x) => x,
            Err(at) => {
                let fault = Fault {
                    kind: FaultKind::BadEscape,
                    at: Pos::Raw(*pos + at),
                };
                return (o, Some(fault));
            }
        };
        let text = buf.get(..m).unwrap_or_default();
        let step = eng.feed::<W>(text, out.get_mut(o..).unwrap_or_default());
        o += step.written;
        if step.fault.is_some() || step.read < m {
            *pos += escape::raw_len_of(rest, step.read);
            return (o, step.fault);
        }
        *pos += used;
    }
    (o, None)
}

/// Runs a whole view through a fresh engine: decode into `out` when `W`, else validate.
/// Returns the decoded length, or `Err(NoRoom)` as a fault when `out` is too small.
pub(crate) fn run<const W: bool>(
    strict: bool,
    kernel: Resolved,
    raw: &[u8],
    escaped: bool,
    out: &mut [u8],
) -> Result<usize, Fault> {
    let mut eng = Engine::new(strict, kernel);
    let mut pos = 0;
    let (w, fault) = pump::<W>(&mut eng, raw, escaped, &mut pos, out);
    if let Some(f) = fault {
        return Err(f);
    }
    if pos < raw.len() {
        return Err(Fault {
            kind: FaultKind::NoRoom,
            at: Pos::Raw(pos),
        });
    }
    let t = eng.finish::<W>(out.get_mut(w..).unwrap_or_default())?;
    Ok(w + t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::simd::Kernel;

    fn decode(strict: bool, text: &str) -> Result<Vec<u8>, (FaultKind, Pos)> {
        let mut out = vec![0u8; text.len()];
        let k = Kernel::Scalar.resolve();
        let n =
            run::<true>(strict, k, text.as_bytes(), false, &mut out).map_err(|f| (f.kind, f.at))?;
        let v =
            run::<false>(strict, k, text.as_bytes(), false, &mut []).map_err(|f| (f.kind, f.at))?;
        assert_eq!(n, v);
        out.truncate(n);
        Ok(out)
    }

    #[test]
    fn state_machine() {
        use FaultKind::*;
        let l = Pos::Logical;
        assert_eq!(decode(true, ""), Ok(vec![]));
        assert_eq!(decode(true, "QQ=="), Ok(b"A".to_vec()));
        assert_eq!(decode(true, "QUI="), Ok(b"AB".to_vec()));
        assert_eq!(decode(true, "QUJD"), Ok(b"ABC".to_vec()));
        assert_eq!(decode(true, "QQ"), Err((MissingPadding, l(2))));
        assert_eq!(decode(true, "QQ="), Err((IncompletePadding, l(3))));
        assert_eq!(decode(true, "Q"), Err((ImpossibleLength, l(0))));
        assert_eq!(decode(true, "QUJDQ"), Err((ImpossibleLength, l(4))));
        assert_eq!(decode(true, "Q==="), Err((MisplacedPadding, l(1))));
        assert_eq!(decode(true, "QQ=A"), Err((MisplacedPadding, l(2))));
        assert_eq!(decode(true, "QUI=="), Err((DataAfterPadding, l(4))));
        assert_eq!(decode(true, "QQ==QQ=="), Err((DataAfterPadding, l(4))));
        assert_eq!(decode(true, "QR=="), Err((TrailingBits, l(1))));
        assert_eq!(decode(true, "QUJ="), Err((TrailingBits, l(2))));
        assert_eq!(decode(true, "QU JD"), Err((Whitespace, l(2))));
        assert_eq!(decode(true, "QU-D"), Err((UrlSafe, l(2))));
        assert_eq!(decode(true, "QU!D"), Err((Invalid, l(2))));
        assert_eq!(decode(false, "QU JD\n"), Ok(b"ABC".to_vec()));
        assert_eq!(decode(false, "QQ"), Ok(b"A".to_vec()));
        assert_eq!(decode(false, "QR"), Ok(b"A".to_vec()));
        assert_eq!(decode(false, "QQ= ="), Ok(b"A".to_vec()));
        assert_eq!(decode(false, "QQ=\t"), Err((IncompletePadding, l(4))));
        assert_eq!(decode(false, " Q "), Err((ImpossibleLength, l(1))));
    }

    #[test]
    fn feeding_in_pieces_is_the_same() {
        let text = b"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=";
        let k = Kernel::Scalar.resolve();
        for piece in 1..8 {
            for room in 1..8 {
                let mut eng = Engine::new(true, k);
                let mut out = Vec::new();
                let mut pos = 0;
                let mut spins = 0;
                while pos < text.len() {
                    let end = (pos + piece).min(text.len());
                    let mut buf = vec![0u8; room];
                    let step = eng.feed::<true>(&text[pos..end], &mut buf);
                    assert_eq!(step.fault, None);
                    let (r, w) = (step.read, step.written);
                    out.extend_from_slice(&buf[..w]);
                    pos += r;
                    spins += 1;
                    assert!(spins < 1000, "no progress with piece {piece} room {room}");
                    if r == 0 && room < 3 {
                        break;
                    }
                }
                if room >= 3 {
                    let mut tail = [0u8; 2];
                    let t = eng.finish::<true>(&mut tail).unwrap();
                    out.extend_from_slice(&tail[..t]);
                    assert_eq!(
                        out, b"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                        "piece {piece} room {room}"
                    );
                }
            }
        }
    }
}
