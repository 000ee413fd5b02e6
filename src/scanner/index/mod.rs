//! Stage 1 of a structural index: what every byte of a 64-byte block is, found at once.
//!
//! A block is classified into bitmasks (bit `k` = byte `k`): quotes, backslashes, whitespace,
//! the structural characters `{}[]:,`, control bytes (< 0x20) and bytes >= 0x80. The masks
//! are then put in context with plain `u64` arithmetic and three bits of state carried from
//! the block before ([`Carry`]):
//!
//! - which backslashes start an escape (the first of every pair in a run of backslashes; a run
//!   may cross a block edge), and so which quotes are escaped;
//! - which bytes are inside a string (a prefix XOR of the unescaped quotes: the opening quote
//!   and the content, not the closing quote);
//! - the tokens: structural characters outside strings, opening quotes, and the first byte of
//!   every run of other bytes outside strings (a number or a literal, or garbage).
//!
//! The lexing of the masks treats a backslash as an escape wherever it stands. In valid JSON a
//! backslash only occurs inside strings, so the masks are exact for valid input; a backslash
//! outside a string is a byte of a scalar run, which the walk that uses the index
//! ([`walk`]) rejects, so it never accepts what the grammar does not.
//!
//! The classification is the only part that depends on the instruction set: [`avx2`] (chosen
//! at run time) and its portable twin [`scalar`] (a byte loop, the reference; miri runs it).
//! The tests compare them bit for bit, and both against a byte-at-a-time lexer.

mod grammar;
mod number;
pub(crate) mod scalar;
mod walk;

pub(crate) use walk::WalkState;
use walk::{Paused, Walked};

use super::resume::{SkipSlot, Step, Stopped};
use crate::error::{ErrorKind, RawError, RawResult};
use crate::model::JsonKind;

#[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
pub(crate) mod avx2;

/// Containers are validated with the structural index (this module) when at least this many
/// bytes of input are left from their start, and they are not empty. Measured by callgrind
/// (`validate_json` of an array of small records, AVX2, at c0c901e): a 39-byte array costs 953
/// instructions indexed against 1 556 byte by byte, 115 bytes 2 081 against 3 932, 990 bytes
/// 13 933 against 30 071; an empty one 543 against 393, hence the check for `{}` and `[]`.
/// Small inputs (SSE event frames) stay on the byte-by-byte walk.
pub(crate) const INDEX_MIN: usize = 128;

/// Bytes per block.
pub(crate) const BLOCK: usize = 64;

/// Bytes of the look at a number or literal that crosses a block edge.
pub(crate) const WINDOW: usize = 32;

/// The classes of the bytes of one block, without context: bit `k` is byte `k`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Classes {
    /// `"`.
    pub(crate) quote: u64,
    /// `\`.
    pub(crate) backslash: u64,
    /// Space, tab, line feed, carriage return (JSON's whitespace).
    pub(crate) ws: u64,
    /// `{`, `}`, `[`, `]`, `:`, `,`.
    pub(crate) op: u64,
    /// `}` and `]`.
    pub(crate) close: u64,
    /// Bytes below 0x20.
    pub(crate) ctrl: u64,
    /// Bytes >= 0x80.
    pub(crate) high: u64,
    /// Digits, `.`, `+`, `-`, `e`, `E` and `0`.
    pub(crate) marks: Marks,
}

/// Where the bytes a number is made of are, in a block or a window (bit `k` is byte `k`):
/// enough to check a number without reading its bytes (but its first two).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Marks {
    /// ASCII digits.
    pub(crate) digit: u64,
    /// `.`.
    pub(crate) dot: u64,
    /// `+` and `-`.
    pub(crate) sign: u64,
    /// `e` and `E`.
    pub(crate) exp: u64,
    /// `0`.
    pub(crate) zero: u64,
}

impl Marks {
    /// Only the bits of `mask`.
    #[inline(always)]
    pub(crate) fn masked(self, mask: u64) -> Marks {
        Marks {
            digit: self.digit & mask,
            dot: self.dot & mask,
            sign: self.sign & mask,
            exp: self.exp & mask,
            zero: self.zero & mask,
        }
    }

    /// `self` in the low 32 bits, `high` in the high 32 (two 32-byte halves of a block).
    #[inline(always)]
    pub(crate) fn join(self, high: Marks) -> Marks {
        Marks {
            digit: self.digit | high.digit << 32,
            dot: self.dot | high.dot << 32,
            sign: self.sign | high.sign << 32,
            exp: self.exp | high.exp << 32,
            zero: self.zero | high.zero << 32,
        }
    }
}

/// What one block tells the next.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Carry {
    /// 1 when the next block's first byte is escaped (the block ended in an escaping
    /// backslash).
    escaped: u64,
    /// All ones when the next block starts inside a string, else 0.
    in_string: u64,
    /// 1 when the block's last byte belongs to a scalar run (so the next block's first byte,
    /// if it is one too, does not start a token).
    scalar: u64,
}

/// One block in context: bit `k` is byte `k`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Block {
    /// Unescaped quotes (opening and closing).
    pub(crate) quote: u64,
    /// Bytes inside a string: from the opening quote to just before the closing one.
    pub(crate) in_string: u64,
    /// `{}[]:,` outside strings.
    pub(crate) structural: u64,
    /// `}` and `]` outside strings.
    pub(crate) close: u64,
    /// Whitespace outside strings.
    pub(crate) ws: u64,
    /// Control bytes inside strings (an error wherever one is).
    pub(crate) ctrl: u64,
    /// Bytes >= 0x80, anywhere.
    pub(crate) high: u64,
    /// Digits, `.`, `+`, `-`, `e` and `E`, anywhere.
    pub(crate) marks: Marks,
    /// Bytes of scalar runs: outside strings, and neither whitespace, structural nor a quote
    /// (numbers, literals, and anything else that is no JSON).
    pub(crate) scalar: u64,
    /// Backslashes inside strings that start an escape.
    pub(crate) escapes: u64,
    /// Where a token starts: structural characters outside strings, opening quotes, and
    /// the first byte of each run of other bytes outside strings.
    pub(crate) tokens: u64,
}

const EVEN: u64 = 0x5555_5555_5555_5555;
const ODD: u64 = !EVEN;

/// Bit `k` set when an odd number of bits at or below `k` are set in `x`.
#[inline(always)]
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// The backslashes that start an escape: in each run of backslashes, the first, third, fifth,
/// ... (each escapes the byte after it, which may be the next backslash of the run). A run
/// that the previous block ended with an odd count of has its first byte here escaped.
#[inline(always)]
fn escape_starts(backslash: u64, escaped_in: u64) -> u64 {
    // A backslash escaped by the previous block's last one starts nothing; the run goes on
    // from the next byte with its pairing fresh.
    let b = backslash & !escaped_in;
    let run_starts = b & !(b << 1);
    // Adding a run's lowest bit clears the run (the carry stops just past it), so the bits of
    // `b` that the sum clears are exactly the runs starting at an even position.
    let even_runs = b & !b.wrapping_add(run_starts & EVEN);
    let odd_runs = b & !even_runs;
    // An escape starts at the run's first byte and every second one after it.
    (even_runs & EVEN) | (odd_runs & ODD)
}

/// Puts one block's classes in context (`kernel` picks how the prefix XOR is computed).
#[inline(always)]
pub(crate) fn stage1(kernel: Kernel, c: Classes, carry: &mut Carry) -> Block {
    let escapes_all = escape_starts(c.backslash, carry.escaped);
    let escaped = (escapes_all << 1) | carry.escaped;
    carry.escaped = escapes_all >> 63;
    let quote = c.quote & !escaped;
    let in_string = kernel.prefix_xor(quote) ^ carry.in_string;
    carry.in_string = ((in_string as i64) >> 63) as u64;
    let scalar = !(c.op | c.ws | quote | in_string);
    let scalar_starts = scalar & !((scalar << 1) | carry.scalar);
    carry.scalar = scalar >> 63;
    let structural = c.op & !in_string;
    Block {
        quote,
        in_string,
        structural,
        close: c.close & !in_string,
        ws: c.ws & !in_string,
        ctrl: c.ctrl & in_string,
        high: c.high,
        marks: c.marks,
        scalar,
        escapes: escapes_all & in_string,
        tokens: structural | (quote & in_string) | scalar_starts,
    }
}

/// The classifiers: the fast one this CPU has, and the portable twin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// The portable byte loop (the reference; too slow to pay off as a fast path).
    Scalar,
    /// x86_64 AVX2.
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    Avx2,
}

impl Kernel {
    /// The kernel that makes the indexed walk pay, if this CPU has one: AVX2 with the bit
    /// instructions every AVX2 CPU has (BMI1, BMI2, POPCNT, PCLMULQDQ), all checked once.
    #[inline]
    pub(crate) fn fast() -> Option<Kernel> {
        #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
        {
            use std::sync::atomic::{AtomicU8, Ordering};
            // 0 = not yet detected, 1 = no, 2 = yes.
            static FAST: AtomicU8 = AtomicU8::new(0);
            let mut fast = FAST.load(Ordering::Relaxed);
            if fast == 0 {
                fast = if std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("bmi1")
                    && std::is_x86_feature_detected!("bmi2")
                    && std::is_x86_feature_detected!("popcnt")
                    && std::is_x86_feature_detected!("pclmulqdq")
                {
                    2
                } else {
                    1
                };
                FAST.store(fast, Ordering::Relaxed);
            }
            if fast == 2 {
                return Some(Kernel::Avx2);
            }
        }
        None
    }

    /// [`prefix_xor`], by a carry-less multiplication where the CPU has one.
    #[inline(always)]
    pub(crate) fn prefix_xor(self, x: u64) -> u64 {
        match self {
            #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
            Kernel::Avx2 => {
                // SAFETY: `Kernel::Avx2` is only handed out by `fast`, after PCLMULQDQ was
                // detected.
                unsafe { avx2::prefix_xor(x) }
            }
            Kernel::Scalar => prefix_xor(x),
        }
    }

    /// Every kernel this CPU can run, the portable one first.
    pub(crate) fn available() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut v = vec![Kernel::Scalar];
        v.extend(Kernel::fast());
        v
    }

    /// The classes of the 64 bytes at `at` (`at + 64 <= bytes.len()`; else the portable
    /// kernel answers from a padded copy, see [`Kernel::block`]).
    #[inline(always)]
    pub(crate) fn classify(self, bytes: &[u8], at: usize) -> Classes {
        match self {
            #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
            Kernel::Avx2 if at + BLOCK <= bytes.len() => {
                // SAFETY: `Kernel::Avx2` is only handed out by `fast`, after the CPU was found
                // to have AVX2, and the 64 bytes lie inside `bytes`.
                unsafe { avx2::classify(bytes, at) }
            }
            _ => scalar::classify(bytes, at),
        }
    }

    /// Where a scalar run starting at `at` may end, for a run that crosses a block edge: the
    /// masks of the 32 bytes from `at` that end a run (quotes, whitespace, structural bytes;
    /// no string can begin inside a run, so no context is needed) with bit 32 set as a
    /// sentinel, and their [`Marks`]. `None` when fewer than 32 bytes are left.
    #[inline(always)]
    pub(crate) fn window(self, bytes: &[u8], at: usize) -> Option<(u64, Marks)> {
        if at + WINDOW > bytes.len() {
            return None;
        }
        match self {
            #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
            Kernel::Avx2 => {
                // SAFETY: `Kernel::Avx2` is only handed out by `fast`, after AVX2 was
                // detected, and the 32 bytes lie inside `bytes`.
                Some(unsafe { avx2::window(bytes, at) })
            }
            Kernel::Scalar => {
                let c = scalar::classify(bytes, at);
                let low = (1u64 << WINDOW) - 1;
                Some((
                    ((c.quote | c.ws | c.op) & low) | 1 << WINDOW,
                    c.marks.masked(low),
                ))
            }
        }
    }

    /// The block at `at` in context. Past the end of `bytes` the block reads as spaces
    /// (whitespace: no token starts there).
    #[inline(always)]
    pub(crate) fn block(self, bytes: &[u8], at: usize, carry: &mut Carry) -> Block {
        if at + BLOCK <= bytes.len() {
            return stage1(self, self.classify(bytes, at), carry);
        }
        let mut padded = [b' '; BLOCK];
        let rest = bytes.get(at..).unwrap_or_default();
        padded[..rest.len()].copy_from_slice(rest);
        stage1(self, self.classify(&padded, 0), carry)
    }
}

impl super::Cursor<'_> {
    /// [`super::Cursor::skip_value`] without the index: the byte-by-byte validator (the
    /// reference the differential tests compare the indexed walk with).
    pub(crate) fn skip_value_bytewise(
        &mut self,
        depth: usize,
        max_depth: usize,
    ) -> crate::error::RawResult<crate::model::JsonKind> {
        debug_assert!(self.resume.is_none());
        self.skip_ws();
        let start = self.pos;
        let ws_start = self.ws;
        if let Some(kind) = self.scalar()? {
            return Ok(kind);
        }
        self.skip_fresh_container(start, ws_start, depth, max_depth, false)
    }
}

impl super::Cursor<'_> {
    /// The container at the cursor (at `start`), on a buffer that may still grow, met for the
    /// first time in this parse: walked over the index, resumably.
    #[inline(never)]
    pub(crate) fn skip_walk_fresh(
        &mut self,
        kernel: Kernel,
        start: usize,
        ws_start: usize,
        depth: usize,
        max_depth: usize,
    ) -> RawResult<JsonKind> {
        let kind = if self.bytes.get(start) == Some(&b'{') {
            JsonKind::Object
        } else {
            JsonKind::Array
        };
        let paused = Paused::at(start, kind);
        self.skip_walk(kernel, start, ws_start, depth, max_depth, paused)
    }

    /// Continues the walk a previous pass left in `slot` (the cursor at `slot.pos`, `ws`
    /// counted up to there).
    #[inline(never)]
    pub(crate) fn skip_walk_on(
        &mut self,
        start: usize,
        ws_start: usize,
        depth: usize,
        max_depth: usize,
        slot: SkipSlot,
    ) -> RawResult<JsonKind> {
        let paused = Paused {
            pos: slot.pos,
            ws: 0,
            kind: slot.kind,
            walk: slot.walk,
            spill: slot.stack,
        };
        match Kernel::fast() {
            Some(kernel) => self.skip_walk(kernel, start, ws_start, depth, max_depth, paused),
            // (A slot with a walk is only made where there is a fast kernel.)
            None => self.skip_bytewise_from(start, ws_start, depth, max_depth, paused.kind),
        }
    }

    fn skip_walk(
        &mut self,
        kernel: Kernel,
        start: usize,
        ws_start: usize,
        depth: usize,
        max_depth: usize,
        mut paused: Paused,
    ) -> RawResult<JsonKind> {
        let from = paused.pos;
        let walked = self.skip_indexed_resumable(kernel, depth, max_depth, &mut paused);
        let to = match walked {
            Walked::Valid(_) => self.pos,
            _ => self.bytes.len(),
        };
        if let Some(r) = &mut self.resume {
            r.indexed += to.saturating_sub(from);
        }
        match walked {
            Walked::Valid(kind) => Ok(self.skip_done(start, ws_start, depth, kind)),
            Walked::Paused => {
                let len = self.bytes.len();
                let ws = self.ws - ws_start + paused.ws;
                if let Some(r) = &mut self.resume {
                    r.skip = Some(SkipSlot {
                        start,
                        depth,
                        kind: paused.kind,
                        pos: paused.pos,
                        step: Step::Value,
                        stack: paused.spill,
                        ws,
                        done: false,
                        walk: paused.walk,
                    });
                    r.stopped_in = Stopped::Value;
                }
                self.pos = len;
                Err(RawError::new(ErrorKind::UnexpectedEof, len))
            }
            Walked::Unsure => {
                // Back to the value's start, for the byte-by-byte validator, which reads
                // again all the walk read (the walk itself counts as the index did before it
                // was resumable: not at all; it runs at most once in vain per value).
                if let Some(r) = &mut self.resume {
                    r.jump(paused.pos, start);
                }
                self.skip_bytewise_from(start, ws_start, depth, max_depth, paused.kind)
            }
        }
    }

    /// The byte-by-byte validator over the container at `start`, from its bracket; on a
    /// growing buffer its state is kept as a byte-by-byte one, so the value is not indexed
    /// again.
    fn skip_bytewise_from(
        &mut self,
        start: usize,
        ws_start: usize,
        depth: usize,
        max_depth: usize,
        kind: JsonKind,
    ) -> RawResult<JsonKind> {
        self.pos = start;
        self.ws = ws_start;
        let slot = SkipSlot {
            start,
            depth,
            kind,
            pos: start,
            step: Step::Open,
            stack: super::BitStack::new(),
            ws: 0,
            done: false,
            walk: None,
        };
        self.skip_container(start, ws_start, depth, max_depth, slot)
    }
}

/// Validates the value at the start of `bytes` (after whitespace) in passes over its
/// prefixes ending at `cuts` (each at most `bytes.len()`), then over the whole, as the
/// chunk-fed parser does: the verdict of the first pass that gives one (kind, end and
/// whitespace count, or the error), the bytes the passes read again, and the bytes they put
/// through the index.
#[allow(clippy::type_complexity)]
pub(crate) fn skip_in_passes(
    bytes: &[u8],
    cuts: &[usize],
    depth: usize,
    max_depth: usize,
) -> (RawResult<(JsonKind, usize, usize)>, usize, usize) {
    use super::Cursor;
    use super::resume::Resume;
    let mut resume = Box::new(Resume::new());
    let mut cuts: Vec<usize> = cuts.iter().map(|&c| c.min(bytes.len())).collect();
    cuts.sort_unstable();
    cuts.push(bytes.len());
    let mut reread = 0;
    for cut in cuts {
        let partial = cut < bytes.len();
        let mut c = Cursor::new(&bytes[..cut]);
        resume.begin(partial);
        c.resume = Some(resume);
        let r = c.skip_value(depth, max_depth).map(|k| (k, c.pos, c.ws));
        let Some(r2) = c.resume.take() else {
            unreachable!("the cursor gives the resume state back")
        };
        resume = r2;
        reread += resume.end(cut);
        match r {
            Err(e) if partial && e.kind == ErrorKind::UnexpectedEof => continue,
            other => return (other, reread, resume.indexed),
        }
    }
    unreachable!("the last pass is not partial")
}

/// [`skip_in_passes`] against one go (which takes the index when it pays): the same verdict,
/// end, whitespace count, error kind and offset.
pub(crate) fn passes_agree(
    bytes: &[u8],
    cuts: &[usize],
    depth: usize,
    max_depth: usize,
) -> Result<(), String> {
    let mut c = super::Cursor::new(bytes);
    let want = c.skip_value(depth, max_depth).map(|k| (k, c.pos, c.ws));
    let (got, _, _) = skip_in_passes(bytes, cuts, depth, max_depth);
    if got != want {
        return Err(format!(
            "in passes cut at {cuts:?}: {got:?}, in one go {want:?}"
        ));
    }
    resumable_kernels_agree(bytes, cuts, depth, max_depth)
}

/// The resumable walk alone, on every kernel, over the container at the start of `bytes`
/// (after whitespace) in passes over its prefixes ending at `cuts`, then the whole: each pass
/// must give the same answer, position, whitespace count and kept state on every kernel.
fn resumable_kernels_agree(
    bytes: &[u8],
    cuts: &[usize],
    depth: usize,
    max_depth: usize,
) -> Result<(), String> {
    use super::Cursor;
    use super::resume::Resume;
    let mut c = Cursor::new(bytes);
    c.skip_ws();
    let start = c.pos;
    let kind = match c.peek() {
        Some(b'{') => JsonKind::Object,
        Some(b'[') => JsonKind::Array,
        _ => return Ok(()),
    };
    let mut cuts: Vec<usize> = cuts
        .iter()
        .map(|&c| c.min(bytes.len()))
        .filter(|&c| c > start)
        .collect();
    cuts.sort_unstable();
    cuts.push(bytes.len());
    let mut runs = Vec::new();
    for k in Kernel::available() {
        let mut paused = Paused::at(start, kind);
        let mut trace = Vec::new();
        for &cut in &cuts {
            let mut c = Cursor::new(&bytes[..cut]);
            let mut resume = Box::new(Resume::new());
            resume.begin(cut < bytes.len());
            c.resume = Some(resume);
            c.pos = paused.pos;
            let walked = c.skip_indexed_resumable(k, depth, max_depth, &mut paused);
            trace.push(format!(
                "{walked:?} pos {} ws {} at {} {:?} spill {:?}",
                c.pos, c.ws, paused.pos, paused.walk, paused.spill
            ));
            if walked != Walked::Paused {
                break;
            }
        }
        runs.push((k, trace));
    }
    for (k, trace) in &runs[1..] {
        if trace != &runs[0].1 {
            return Err(format!(
                "resumable walk, cuts {cuts:?}: {k:?} {trace:?}, {:?} {:?}",
                runs[0].0, runs[0].1
            ));
        }
    }
    Ok(())
}

/// Runs every kernel over `bytes` (blocks from offset 0) and says where one disagrees with
/// the portable one (for the differential fuzz target).
pub(crate) fn kernels_agree(bytes: &[u8]) -> Result<(), String> {
    let kernels = Kernel::available();
    let mut carries = vec![Carry::default(); kernels.len()];
    let mut at = 0;
    while at < bytes.len() {
        let want = Kernel::Scalar.block(bytes, at, &mut carries[0]);
        for (k, carry) in kernels.iter().zip(carries.iter_mut()).skip(1) {
            let got = k.block(bytes, at, carry);
            if got != want {
                return Err(format!("{k:?} block at {at}: {got:?}, scalar {want:?}"));
            }
        }
        at += BLOCK;
    }
    Ok(())
}

/// Validates the value at the start of `bytes` (after whitespace) three ways: byte by byte,
/// through [`super::Cursor::skip_value`] (which takes the index when it pays), and with the
/// indexed walk alone on every kernel. All must give the same kind, end and whitespace count,
/// or the same error; the indexed walk may only give up where the byte-by-byte validator
/// finds an error.
pub(crate) fn skip_paths_agree(bytes: &[u8], depth: usize, max_depth: usize) -> Result<(), String> {
    use super::Cursor;
    let mut c = Cursor::new(bytes);
    let want = c
        .skip_value_bytewise(depth, max_depth)
        .map(|k| (k, c.pos, c.ws));
    let mut c = Cursor::new(bytes);
    let got = c.skip_value(depth, max_depth).map(|k| (k, c.pos, c.ws));
    if got != want {
        return Err(format!("skip_value: {got:?}, byte by byte {want:?}"));
    }
    let mut c = Cursor::new(bytes);
    c.skip_ws();
    let (from, ws) = (c.pos, c.ws);
    if !matches!(c.peek(), Some(b'{' | b'[')) {
        return Ok(());
    }
    for k in Kernel::available() {
        let mut c = Cursor::new(bytes);
        (c.pos, c.ws) = (from, ws);
        match c.skip_indexed(k, depth, max_depth) {
            Some(kind) if want != Ok((kind, c.pos, c.ws)) => {
                return Err(format!(
                    "{k:?} indexed walk: {:?}, byte by byte {want:?}",
                    (kind, c.pos, c.ws)
                ));
            }
            None if want.is_ok() => {
                return Err(format!(
                    "{k:?} indexed walk gave up on a valid value {want:?}"
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A byte-at-a-time lexer with the same rules (a backslash escapes the next byte wherever
    /// it stands): the masks of every block of `bytes`.
    fn reference(bytes: &[u8]) -> Vec<Block> {
        let n = bytes.len().div_ceil(BLOCK);
        let mut out = vec![Block::default(); n];
        let (mut escaped, mut in_string, mut prev_scalar) = (false, false, false);
        for k in 0..n * BLOCK {
            let b = bytes.get(k).copied().unwrap_or(b' ');
            let blk = &mut out[k / BLOCK];
            let bit = 1u64 << (k % BLOCK);
            let was_escaped = escaped;
            escaped = b == b'\\' && !was_escaped;
            if escaped && in_string {
                blk.escapes |= bit;
            }
            let quote = b == b'"' && !was_escaped;
            let opening = quote && !in_string;
            if quote {
                blk.quote |= bit;
                in_string = !in_string;
            }
            // The opening quote counts as inside, the closing one as outside.
            let inside = in_string;
            if inside {
                blk.in_string |= bit;
            }
            let ws = matches!(b, b' ' | b'\t' | b'\n' | b'\r');
            let op = matches!(b, b'{' | b'}' | b'[' | b']' | b':' | b',');
            if op && !inside {
                blk.structural |= bit;
            }
            if matches!(b, b'}' | b']') && !inside {
                blk.close |= bit;
            }
            if ws && !inside {
                blk.ws |= bit;
            }
            if b < 0x20 && inside {
                blk.ctrl |= bit;
            }
            if b >= 0x80 {
                blk.high |= bit;
            }
            if b.is_ascii_digit() {
                blk.marks.digit |= bit;
            }
            if b == b'.' {
                blk.marks.dot |= bit;
            }
            if b == b'+' || b == b'-' {
                blk.marks.sign |= bit;
            }
            if b == b'e' || b == b'E' {
                blk.marks.exp |= bit;
            }
            if b == b'0' {
                blk.marks.zero |= bit;
            }
            let scalar = !inside && !op && !ws && !quote;
            if scalar {
                blk.scalar |= bit;
            }
            if (op && !inside) || opening || (scalar && !prev_scalar) {
                blk.tokens |= bit;
            }
            prev_scalar = scalar;
        }
        out
    }

    fn check(bytes: &[u8]) {
        let want = reference(bytes);
        for k in Kernel::available() {
            let mut carry = Carry::default();
            for (i, w) in want.iter().enumerate() {
                let got = k.block(bytes, i * BLOCK, &mut carry);
                assert_eq!(
                    &got,
                    w,
                    "{k:?} block {i} of {:?}",
                    String::from_utf8_lossy(bytes)
                );
            }
        }
        assert_eq!(kernels_agree(bytes), Ok(()));
    }

    #[test]
    fn windows_agree() {
        let doc = b"[-12.5e+3,true ,\"x\":{}]\t\n1234567890123456789012345678901234567890 \xc3\xa9";
        for at in 0..doc.len() {
            let want = Kernel::Scalar.window(doc, at);
            assert_eq!(want.is_some(), at + WINDOW <= doc.len());
            for k in Kernel::available() {
                assert_eq!(k.window(doc, at), want, "{k:?} at {at}");
            }
        }
    }

    #[test]
    fn escape_starts_by_run_length() {
        // A run of n backslashes from position s escapes the byte after it when n is odd.
        for s in 0..64 {
            for n in 1..=(64 - s) {
                let run = if n == 64 {
                    u64::MAX
                } else {
                    ((1u64 << n) - 1) << s
                };
                let starts = escape_starts(run, 0);
                let mut want = 0;
                for k in (s..s + n).step_by(2) {
                    want |= 1 << k;
                }
                assert_eq!(starts, want, "run of {n} at {s}");
            }
        }
    }

    #[test]
    fn backslash_runs_across_block_edges() {
        // Runs of every length ending at every place around the first block edge (and a
        // second edge), each followed by a quote: the quote is escaped exactly when the run
        // is odd.
        for run in 0..140 {
            for end in 40..200 {
                if run > end {
                    continue;
                }
                let mut v = vec![b'a'; 220];
                v[0] = b'"';
                for b in &mut v[end - run..end] {
                    *b = b'\\';
                }
                v[end] = b'"';
                v[end + 1] = b',';
                v[end + 2] = b'1';
                check(&v);
            }
        }
    }

    #[test]
    fn quotes_and_tokens_at_every_position() {
        // A quote, a structural byte, a control byte, a high byte or a scalar start at
        // every position of three blocks, inside and outside strings.
        for pos in 0..192 {
            for special in [b'"', b'\\', b'{', b':', b'1', b' ', b'\n', 0x01, 0xE9] {
                for open in [false, true] {
                    let mut v = vec![b' '; 192];
                    if open {
                        v[0] = b'"';
                    }
                    v[pos] = special;
                    if pos + 1 < v.len() {
                        v[pos + 1] = b'"';
                    }
                    check(&v);
                    check(&v[..pos + 1]);
                }
            }
        }
    }

    #[test]
    fn adversarial_shapes() {
        let long_escapes = "\\\\".repeat(40);
        let docs: Vec<Vec<u8>> = vec![
            // A quote at bit 63, escaped and not.
            [&[b' '; 63][..], b"\"abc\""].concat(),
            [&[b' '; 62][..], b"\\\"abc\""].concat(),
            [&b"\""[..], &[b'x'; 61], b"\\\"", b"y\""].concat(),
            // A backslash at bit 63 escaping a quote at bit 64.
            [&b"\""[..], &[b'x'; 62], b"\\\"", b"\""].concat(),
            // Two backslashes at 62, 63: the quote at 64 closes.
            [&b"\""[..], &[b'x'; 61], b"\\\\\"", b"1"].concat(),
            format!("[\"{long_escapes}\",1]").into_bytes(),
            // Strings spanning several blocks, numbers crossing an edge.
            format!("[\"{}\",{}]", "é".repeat(70), "1".repeat(130)).into_bytes(),
            // Backslashes outside strings.
            b"[1,\\\"a\",2]".to_vec(),
            b"\\\\\\\"\"".repeat(30),
            vec![b'"'; 200],
            vec![b'\\'; 200],
            (0..=255u8).collect(),
        ];
        for d in docs {
            check(&d);
        }
    }

    proptest! {
        #[test]
        fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            check(&bytes);
        }

        #[test]
        fn random_json_alphabet(
            bytes in proptest::collection::vec(
                prop_oneof![
                    Just(b'"'), Just(b'\\'), Just(b'{'), Just(b'}'), Just(b'['), Just(b']'),
                    Just(b':'), Just(b','), Just(b' '), Just(b'\n'), Just(b'1'), Just(b'a'),
                    Just(0x1fu8), Just(0xC3u8),
                ],
                0..400,
            )
        ) {
            check(&bytes);
        }
    }
}
