//! Stage 2 for [`Cursor::skip_value`]: a container validated by walking its tokens block by
//! block, instead of byte by byte.
//!
//! Each block is indexed ([`Kernel::block`]) and its tokens visited in order through a small
//! table-driven grammar automaton with an explicit stack (the depth limit honoured). A number
//! or a literal is checked at its first byte against the run of bytes it starts (the masks
//! give the run's end and its digits; a run that crosses into the next block gets a 32-byte
//! window of its own, and a longer one, or one at the end of the input, goes through the
//! scanner's own [`Cursor::number`] and [`Cursor::literal`]). What lies inside strings is
//! checked in bulk per block: no control byte, every escape valid ([`Cursor::escape`],
//! two-byte ones inline), and the UTF-8 of the value once at the end, from its first
//! non-ASCII byte (outside strings such a byte would already have failed a token, and a
//! multi-byte sequence never spans an ASCII byte, so this is the check of every string).
//!
//! The walk only says yes or "not sure": on anything wrong or unusual it gives up, and
//! [`Cursor::skip_value`] runs the byte-by-byte validator from the value's start, which finds
//! the error with its kind and offset. Blocks are indexed only as far as the walk gets, so a
//! small value in a large input costs one block or two.

use super::grammar::*;
use super::number::{block_numbers, literal_word, scalar_marks, word_at};
use super::{BLOCK, Carry, Kernel, WINDOW};
use crate::error::ErrorKind;
use crate::model::JsonKind;
use crate::scanner::{BitStack, Cursor};

/// Whether a number or a literal may end before `b` (the next token, whitespace, or the end).
#[inline(always)]
fn ends_scalar(b: Option<&u8>) -> bool {
    matches!(
        b,
        None | Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b']' | b'}' | b':' | b'"' | b'{' | b'[')
    )
}

/// What the walk says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Walked {
    /// The value is valid: the cursor after it, its whitespace counted.
    Valid(JsonKind),
    /// All seen so far is valid, and the bytes ran out inside the value (a partial buffer):
    /// the state to continue from is in the `Paused` given.
    Paused,
    /// Not valid, or not sure: the caller validates the value byte by byte from its start.
    Unsure,
}

impl Walked {
    #[inline(always)]
    fn valid(self) -> Option<JsonKind> {
        match self {
            Walked::Valid(kind) => Some(kind),
            _ => None,
        }
    }
}

/// The walk's state between two blocks (or two tokens), apart from the position, the
/// whitespace count and the spilled stack: everything a pass that ran out of bytes hands the
/// next one. Its size is fixed; with [`Paused::spill`] it is O(depth / 64) words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WalkState {
    /// Stage 1's carry at the position.
    carry: Carry,
    /// The grammar: what the next token may be (a `STEP` row).
    state: usize,
    /// The innermost 64 open containers (1 = object), and how many are open.
    bits: u64,
    open: usize,
    /// The end of the last `\u` escape checked.
    skip_to: usize,
    /// The first byte >= 0x80 not yet checked as UTF-8 (`usize::MAX`: none).
    first_high: usize,
}

/// Where a resumable walk over one value stands ([`Cursor::skip_indexed_resumable`]).
///
/// A pass stops where everything before is settled, and as late as it can, so that a byte is
/// indexed about once however small the chunks: at the end of the bytes when they end
/// between tokens or inside a string (the carry says which), at a scalar run that reaches the
/// end (it may go on: re-read, at most a window of 32 bytes, by the next pass), and at the
/// backslash of an escape cut by the end (at most 12 bytes). Stage 1 restarts from any such
/// place with the carry kept: its blocks need not be aligned.
#[derive(Debug)]
pub(crate) struct Paused {
    /// Where the next pass starts indexing (the value's opening bracket for a fresh walk).
    pub(crate) pos: usize,
    /// Whitespace counted by the last pass, before `pos`.
    pub(crate) ws: usize,
    /// The value's kind.
    pub(crate) kind: JsonKind,
    /// `None` for a fresh walk (at the opening bracket).
    pub(crate) walk: Option<WalkState>,
    /// The open containers past the innermost 64.
    pub(crate) spill: BitStack,
}

impl Paused {
    /// A fresh walk of the container whose bracket is at `start`.
    pub(crate) fn at(start: usize, kind: JsonKind) -> Paused {
        Paused {
            pos: start,
            ws: 0,
            kind,
            walk: None,
            spill: BitStack::new(),
        }
    }
}

impl Cursor<'_> {
    /// Validates the container at the cursor (a `{` or `[`, nested `depth` deep) with the
    /// index. `Some(kind)`: valid, the cursor after it, and `ws` counted as
    /// [`Cursor::skip_value`] counts it. `None`: not valid, or not sure; the cursor and `ws`
    /// are then meaningless and the caller starts over from the value's start.
    pub(crate) fn skip_indexed(
        &mut self,
        kernel: Kernel,
        depth: usize,
        max_depth: usize,
    ) -> Option<JsonKind> {
        match kernel {
            #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
            // SAFETY: `Kernel::Avx2` is only handed out after all five were detected.
            Kernel::Avx2 => unsafe { self.skip_indexed_avx2(depth, max_depth) },
            Kernel::Scalar => self
                .walk::<false>(Kernel::Scalar, depth, max_depth, None)
                .valid(),
        }
    }

    /// The walk compiled for AVX2 and the bit instructions that come with it, so that the
    /// block classifier is inlined into it.
    ///
    /// # Safety
    /// The CPU must support AVX2, BMI1, BMI2, POPCNT and PCLMULQDQ.
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    unsafe fn skip_indexed_avx2(&mut self, depth: usize, max_depth: usize) -> Option<JsonKind> {
        self.walk::<false>(Kernel::Avx2, depth, max_depth, None)
            .valid()
    }

    /// [`Cursor::skip_indexed`] on a buffer that may still grow, from the state `paused`
    /// holds (a fresh one from [`Paused::at`], or the one a previous pass left). When the
    /// bytes run out inside the value (on a partial buffer) the walk stops where all it has
    /// seen is settled and leaves its state in `paused` for the next pass
    /// ([`Walked::Paused`]); see [`Paused`] for where that is.
    pub(crate) fn skip_indexed_resumable(
        &mut self,
        kernel: Kernel,
        depth: usize,
        max_depth: usize,
        paused: &mut Paused,
    ) -> Walked {
        match kernel {
            #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
            // SAFETY: `Kernel::Avx2` is only handed out after all five were detected.
            Kernel::Avx2 => unsafe { self.skip_resumable_avx2(depth, max_depth, paused) },
            Kernel::Scalar => self.walk::<true>(Kernel::Scalar, depth, max_depth, Some(paused)),
        }
    }

    /// [`Cursor::skip_indexed_resumable`] compiled for AVX2 (see `skip_indexed_avx2`).
    ///
    /// # Safety
    /// The CPU must support AVX2, BMI1, BMI2, POPCNT and PCLMULQDQ.
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,pclmulqdq")]
    unsafe fn skip_resumable_avx2(
        &mut self,
        depth: usize,
        max_depth: usize,
        paused: &mut Paused,
    ) -> Walked {
        self.walk::<true>(Kernel::Avx2, depth, max_depth, Some(paused))
    }

    /// The walk. `RESUME`: it starts from `paused` (else from the bracket at the cursor) and,
    /// on a partial buffer, may stop where the bytes run out; without it, it compiles to the
    /// one-shot walk alone.
    #[inline(always)]
    fn walk<const RESUME: bool>(
        &mut self,
        kernel: Kernel,
        depth: usize,
        max_depth: usize,
        mut paused: Option<&mut Paused>,
    ) -> Walked {
        let bytes = self.bytes;
        let len = bytes.len();
        let mut carry = Carry::default();
        // The open containers, one bit each (1 = object): the innermost 64 in `bits`, the
        // outer ones in `spill` (touched only past 64 levels, never past the depth limit).
        let mut bits = 0u64;
        let mut open = 0usize;
        let mut spill = BitStack::new();
        // How many containers may be open inside this value; from `rare` open ones on, an
        // opening bracket takes the careful path (the depth limit, or the spill).
        let room = max_depth.saturating_sub(depth);
        let rare = room.min(64);
        // The same for a block walked without a branch per token, whose stack shifts left
        // by one at every token: its sentinel bit must stay below bit 63.
        let fast_room = room.min(63);
        // A value, but not `]`: the first token is the opening bracket.
        let mut state = row(ARRAY_VALUE);
        let mut ws = 0usize;
        let mut first_high = usize::MAX;
        // The end of the last `\u` escape checked (a surrogate pair covers the next one).
        let mut skip_to = 0usize;
        let mut base = self.pos;
        let mut kind = match bytes.get(base) {
            Some(b'{') => JsonKind::Object,
            Some(b'[') => JsonKind::Array,
            _ => JsonKind::Null,
        };
        // On a buffer that may still grow: blocks closer to its end than a block and a
        // window are walked with care (see `Paused`).
        let mut partial = false;
        if RESUME && let Some(p) = paused.as_deref_mut() {
            base = p.pos;
            kind = p.kind;
            if let Some(w) = p.walk {
                (carry, state, bits, open, skip_to, first_high) =
                    (w.carry, w.state, w.bits, w.open, w.skip_to, w.first_high);
                spill = std::mem::replace(&mut p.spill, BitStack::new());
            }
            partial = self.partial();
        }
        if kind == JsonKind::Null {
            return Walked::Unsure;
        }
        while base < len {
            let block = kernel.block(bytes, base, &mut carry);
            let mut tokens = block.tokens;
            // The block's bytes that belong to the value; `end` once the last bracket is seen.
            let mut limit = u64::MAX;
            let mut end = None;
            // Near the end of a partial buffer: a scalar run or an escape may go on in bytes
            // not received yet. `cut`: where this pass stops (a token not taken, or an
            // escape not checked), and whether it is inside a string.
            let tail = RESUME && partial && base + BLOCK + WINDOW > len;
            let mut cut: Option<(usize, bool)> = None;
            if tail && base + BLOCK > len {
                // The padding past the end is no whitespace of the value.
                limit = (1u64 << (len - base)) - 1;
            }
            // The block's bytes (one register in the loop, not two).
            let here = bytes.get(base..).unwrap_or_default();
            // A block where the value cannot end (fewer closing brackets than open
            // containers) and stays within the innermost 63 levels and the depth limit (fewer
            // structural bytes than the levels left): its tokens are walked without a branch,
            // the stack held in one word with a sentinel bit above it.
            if !tail
                && (block.close.count_ones() as usize) < open
                && open + (block.structural.count_ones() as usize) < fast_room
            {
                let mut s = bits | 1u64 << open;
                // The state as `FAST` holds it (its row times two): from one token to the next
                // the chain is one load at `at + (byte << 1 | top)`, the sum computed apart.
                let mut at = (state & 0xf00) << 1;
                while tokens != 0 {
                    let i = tokens.trailing_zeros() as usize;
                    tokens &= tokens - 1;
                    debug_assert!(i < here.len());
                    // SAFETY: as in the loop below, `base + i < bytes.len()`.
                    let c = unsafe { *here.get_unchecked(i) } as usize;
                    let ct = c << 1 | (s & 1) as usize;
                    debug_assert!(at + ct < FAST.len());
                    // SAFETY: `at` is an entry of `FAST` (or the masked row times two on
                    // entry), below `0x2000` with its low nine bits clear (asserted where
                    // `FAST` is built), and `ct < 0x200`, so `at + ct < 0x2000`, its length.
                    at = unsafe { *FAST.as_ptr().add(ct).add(at) } as usize;
                    let [object, shift] = MOVE[c];
                    // (`s + s + object`, not `s << 1 | object`: one `lea`, where the `or`
                    // compiled to an `add` and an `or` and a copy of `s` for `s & 1`.)
                    s = (s.wrapping_add(s).wrapping_add(object as u64)) >> shift;
                }
                state = at >> 1;
                if state == 0 {
                    return Walked::Unsure;
                }
                open = 63 - s.leading_zeros() as usize;
                bits = s ^ 1u64 << open;
                if state == row(CLOSED) {
                    state = if bits & 1 == 1 {
                        row(OBJECT_AFTER)
                    } else {
                        row(ARRAY_AFTER)
                    };
                }
            } else {
                // The grammar: one table lookup per token, so that the only branches taken are
                // the rare ones, brackets (and scalars in the tail of a growing buffer, where
                // one may be cut by the end).
                let step_table = if tail { &STEP } else { &STEP_BULK };
                while tokens != 0 {
                    let i = tokens.trailing_zeros() as usize;
                    tokens &= tokens - 1;
                    let at = base + i;
                    debug_assert!(i < here.len());
                    // SAFETY: a token is a quote, a structural byte or the first byte of a scalar
                    // run, and every bit of a block past the end of `bytes` is a padding space
                    // (whitespace: none of the three), so `base + i < bytes.len()`.
                    let c = unsafe { *here.get_unchecked(i) };
                    let step = step_table[(state | c as usize) & 0xfff];
                    state = (step & 0x0f00) as usize;
                    if step & 0xff == GO as u16 {
                        continue;
                    }
                    if step & PUSH as u16 != 0 {
                        if open >= rare {
                            if open >= room {
                                return Walked::Unsure;
                            }
                            if open >= 64 {
                                // Past 64 levels: the bit pushed out of the register.
                                spill.push(bits >> 63 == 1);
                            }
                        }
                        bits = (bits << 1) | (step >> 4) as u64 & 1;
                        open += 1;
                    } else if step & POP as u16 != 0 {
                        open -= 1;
                        bits >>= 1;
                        if open.wrapping_sub(1) >= 63 {
                            if open == 0 {
                                limit = u64::MAX >> (63 - i);
                                end = Some(at + 1);
                                break;
                            }
                            // Past 64 levels: the bit back into the register.
                            bits |= (spill.top() as u64) << 63;
                            spill.pop();
                        }
                        state = if bits & 1 == 1 {
                            row(OBJECT_AFTER)
                        } else {
                            row(ARRAY_AFTER)
                        };
                    } else if step & SCALAR as u16 != 0 {
                        // A number or a literal: the run of bytes it starts must be one.
                        let number = step & FLAG as u16 != 0;
                        let run_end = (!block.scalar & (u64::MAX << i)).trailing_zeros() as usize;
                        if tail
                            && (base + run_end >= len || (run_end >= BLOCK && at + WINDOW > len))
                        {
                            // The run may go on past the bytes received: stop before it, in the
                            // state before it (any state that takes a value: the byte at `at`
                            // steps alike from all of them). Unless it ends before them after all
                            // (a valid scalar: go on), or what is there cannot be the start of a
                            // scalar and its end (`01`, `12x`, `nul1`): that error is proven
                            // now, and the byte-by-byte validator reports it.
                            match self.scalar_near_end(at, number) {
                                Some(true) => continue,
                                Some(false) => {}
                                None => return Walked::Unsure,
                            }
                            state = if bits & 1 == 1 {
                                row(OBJECT_VALUE)
                            } else {
                                row(ARRAY_VALUE)
                            };
                            limit = (1u64 << i) - 1;
                            cut = Some((at, false));
                            break;
                        }
                        let ok = if run_end < BLOCK {
                            scalar_marks(&block.marks, word_at(bytes, at), number, i, run_end)
                        } else {
                            self.scalar_across(kernel, at, number)
                        };
                        if !ok {
                            return Walked::Unsure;
                        }
                    } else {
                        return Walked::Unsure;
                    }
                }
            }
            // The block's numbers (in the value), unless checked at their tokens; the one
            // that may go on in the next block from its start.
            if !tail {
                let (broken, cross) = block_numbers(&block);
                if broken & limit != 0 {
                    return Walked::Unsure;
                }
                if cross & limit != 0 {
                    let i = cross.trailing_zeros() as usize;
                    if !self.scalar_across(kernel, base + i, true) {
                        return Walked::Unsure;
                    }
                }
                // The literals: scalar runs that start with no digit and no sign (those
                // that start with no `t`, `f` or `n` failed the grammar already).
                let m = &block.marks;
                let mut literals = block.tokens & block.scalar & !(m.digit | m.sign) & limit;
                while literals != 0 {
                    let i = literals.trailing_zeros() as usize;
                    literals &= literals - 1;
                    let run_end = (!block.scalar & (u64::MAX << i)).trailing_zeros() as usize;
                    let ok = if run_end < BLOCK {
                        literal_word(word_at(bytes, base + i), run_end - i)
                    } else {
                        self.scalar_across(kernel, base + i, false)
                    };
                    if !ok {
                        return Walked::Unsure;
                    }
                }
            }
            // What the block's strings hold (only the part inside the value).
            if block.ctrl & limit != 0 {
                return Walked::Unsure;
            }
            let mut escapes = block.escapes & limit;
            while escapes != 0 {
                let at = base + escapes.trailing_zeros() as usize;
                escapes &= escapes - 1;
                if at < skip_to {
                    continue;
                }
                if !super::super::escape::TWO_BYTE[bytes.get(at + 1).copied().unwrap_or(0) as usize]
                {
                    if let Some(&[b'u', a, b, c, d]) = bytes.get(at + 1..at + 6)
                        && HEX[a as usize] & HEX[b as usize] & HEX[c as usize] & HEX[d as usize]
                        // No surrogate (`d800` to `dfff`): those go to the scanner.
                        && !((a | 0x20 == b'd') & (b >= b'8'))
                    {
                        skip_to = at + 6;
                        continue;
                    }
                    match self.escape(at) {
                        Ok(to) => skip_to = to,
                        // An escape cut by the end of the bytes: it is in the string still
                        // open there (an escape never reads past its string's closing quote),
                        // after every token; stop at its backslash.
                        Err(e) if tail && e.kind == ErrorKind::UnexpectedEof => {
                            cut = Some((at, true));
                            break;
                        }
                        Err(_) => return Walked::Unsure,
                    }
                }
            }
            // (Once a byte >= 0x80 is seen, this is one well-predicted branch a block.)
            if first_high == usize::MAX {
                let high = block.high & limit;
                if high != 0 {
                    first_high = base + high.trailing_zeros() as usize;
                }
            }
            ws += (block.ws & limit).count_ones() as usize;
            if let Some(end) = end {
                if first_high < end
                    && bytes
                        .get(first_high..end)
                        .is_none_or(|s| simdutf8::basic::from_utf8(s).is_err())
                {
                    return Walked::Unsure;
                }
                self.pos = end;
                self.ws += ws;
                return Walked::Valid(kind);
            }
            if RESUME
                && partial
                && (cut.is_some() || base + BLOCK >= len)
                && let Some(p) = paused.as_deref_mut()
            {
                // The end of the bytes received: settle what lies before the stop and keep
                // the state there. Without a cut the walk stops at the end itself, outside a
                // scalar run (it would have cut) and after every escape; the carry is then
                // exactly the state there.
                let (pos, carry) = match cut {
                    Some((at, false)) => (at, Carry::default()),
                    Some((at, true)) => (
                        at,
                        Carry {
                            in_string: u64::MAX,
                            ..Carry::default()
                        },
                    ),
                    None => (len, carry),
                };
                return self.pause(
                    p,
                    pos,
                    WalkState {
                        carry,
                        state,
                        bits,
                        open,
                        skip_to,
                        first_high,
                    },
                    ws,
                    spill,
                );
            }
            base += BLOCK;
            // A block wholly inside one string, not ending in an escaping backslash: a long
            // string (base64 media, a long text), whose plain stretch the string scanner's
            // streaming kernel crosses many times faster than stage 1.
            if block.in_string == u64::MAX && carry.escaped == 0 {
                (base, first_high) = self.plain_blocks(base, first_high);
            }
        }
        if RESUME
            && partial
            && let Some(p) = paused
        {
            // Nothing new since the last pass: the state stays as it was.
            let w = WalkState {
                carry,
                state,
                bits,
                open,
                skip_to,
                first_high,
            };
            return self.pause(p, base, w, ws, spill);
        }
        Walked::Unsure
    }

    /// The new `base` and `first_high` of the walk at `base`, a block start inside a string
    /// with nothing escaped there: past the whole blocks before the string's next quote,
    /// backslash or control byte, which the string scanner finds. Those blocks hold no token,
    /// no escape, no whitespace outside a string and no number, and leave the carry as it is
    /// (inside the string, nothing escaped, no scalar run). Their bytes >= 0x80, if any, are
    /// checked with the rest from `first_high` on: while it is unset (`usize::MAX`) every
    /// byte before `base` is ASCII, so `base` starts a character. Never into the last block
    /// and window of the bytes, which a growing buffer walks with care.
    #[inline(never)]
    fn plain_blocks(&self, base: usize, first_high: usize) -> (usize, usize) {
        let bytes = self.bytes;
        let (special, high) = crate::scanner::simd::find_string_special(bytes, base);
        let stop = special.min(bytes.len().saturating_sub(BLOCK + WINDOW));
        let plain = stop.saturating_sub(base) / BLOCK * BLOCK;
        if high && plain != 0 {
            (base + plain, first_high.min(base))
        } else {
            (base + plain, first_high)
        }
    }

    /// Whether the scalar run at `at`, which crosses into the next block, is a number
    /// (`number`) or a literal that ends before the next token.
    #[inline(always)]
    fn scalar_across(&mut self, kernel: Kernel, at: usize, number: bool) -> bool {
        let bytes = self.bytes;
        if let Some((ends, marks)) = kernel.window(bytes, at)
            // The 32 bytes from its start.
            && (ends.trailing_zeros() as usize) < WINDOW
        {
            let end = ends.trailing_zeros() as usize;
            scalar_marks(&marks, word_at(bytes, at), number, 0, end)
        } else if self.resume.is_some() {
            // On a growing buffer the scanner's number keeps state for the next pass: leave
            // such a run to the resumable loop.
            false
        } else {
            self.pos = at;
            let r = if number {
                self.number().is_ok()
            } else {
                self.literal().is_ok()
            };
            r && ends_scalar(bytes.get(self.pos))
        }
    }

    /// The scalar run at `at`, near the end of the bytes received, read by the one-shot
    /// scanners: `Some(true)` when it is a valid number (`number`) or literal that ends before
    /// them (the cursor after it), `Some(false)` when it reaches their end and may go on,
    /// `None` when it is wrong already.
    #[cold]
    fn scalar_near_end(&mut self, at: usize, number: bool) -> Option<bool> {
        // (Without the resume state they take the end of the bytes for the end of the input:
        // a number running into it is complete for them, a cut one (`-`, `1.`, `1e+`, `tr`)
        // is `UnexpectedEof`.)
        let resume = self.resume.take();
        self.pos = at;
        let r = if number {
            self.number()
        } else {
            self.literal().map(|_| ())
        };
        self.resume = resume;
        match r {
            Ok(()) => match self.bytes.get(self.pos) {
                None => Some(false),
                end => ends_scalar(end).then_some(true),
            },
            Err(e) => (e.kind == ErrorKind::UnexpectedEof).then_some(false),
        }
    }

    /// Leaves the walk's state at `pos` in `p`, having checked the UTF-8 of the bytes before
    /// `pos` (a sequence cut by the end of the bytes is checked again by the next pass).
    #[cold]
    fn pause(
        &mut self,
        p: &mut Paused,
        pos: usize,
        mut w: WalkState,
        ws: usize,
        spill: BitStack,
    ) -> Walked {
        if w.first_high < pos {
            let Some(run) = self.bytes.get(w.first_high..pos) else {
                return Walked::Unsure;
            };
            match simdutf8::compat::from_utf8(run) {
                Ok(_) => w.first_high = usize::MAX,
                Err(e) if e.error_len().is_none() => w.first_high += e.valid_up_to(),
                Err(_) => return Walked::Unsure,
            }
        }
        p.pos = pos;
        p.ws = ws;
        p.walk = Some(w);
        p.spill = spill;
        Walked::Paused
    }
}

#[cfg(test)]
mod tests;
