//! The string-scanning kernel, one file per instruction set.
//!
//! Every kernel answers the same question: starting at `from`, where is the first byte that
//! ends the plain run of a JSON string — a quote, a backslash, or a raw control character below
//! U+0020 — and did the run contain any non-ASCII byte (so that UTF-8 must be checked)? A string
//! of megabytes of base64 is crossed by one call at memory speed.
//!
//! - [`scalar`]: the portable reference, eight bytes at a time in a `u64` (SWAR). Miri runs it.
//! - `sse2`: 16-byte vectors; SSE2 is part of the x86_64 baseline, so it needs no detection.
//! - `avx2`: 32-byte vectors, chosen at run time when the CPU has AVX2.
//! - `avx512`: the escape-by-mask blocks ([`blocks_by_mask`]) in one 64-byte vector, chosen at
//!   run time when the CPU has AVX-512 F, BW, VBMI and VBMI2 (the rest stays on AVX2 there).
//!
//! [`copy`] does the scan while copying (the chunk-fed parser's bytes inside a long string).
//!
//! The choice is made once and cached. Building with `--cfg agui_wire_force_scalar` (or
//! under miri) uses the scalar kernel everywhere.

pub(crate) mod copy;
pub(crate) mod scalar;

#[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
pub(crate) mod avx2;
#[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
pub(crate) mod avx512;
#[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
pub(crate) mod sse2;

/// Which kernel to run; the tests run every one available and compare them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(dead_code)]
pub(crate) enum Kernel {
    /// Portable SWAR.
    Scalar,
    /// x86_64 SSE2.
    Sse2,
    /// x86_64 AVX2.
    Avx2,
}

impl Kernel {
    /// The kernels this CPU can run, best last.
    #[allow(dead_code)]
    pub(crate) fn available() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut v = vec![Kernel::Scalar];
        #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
        {
            v.push(Kernel::Sse2);
            if std::is_x86_feature_detected!("avx2") {
                v.push(Kernel::Avx2);
            }
        }
        v
    }

    /// Runs this kernel.
    ///
    /// Callers must only pass a kernel from [`Kernel::available`]; any other falls back to
    /// the scalar one.
    #[allow(dead_code)]
    pub(crate) fn find(self, bytes: &[u8], from: usize) -> (usize, bool) {
        match self {
            #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
            Kernel::Sse2 => sse2::find_string_special(bytes, from),
            #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
            Kernel::Avx2 if std::is_x86_feature_detected!("avx2") => {
                // SAFETY: AVX2 support was just checked (the macro caches the CPUID result).
                unsafe { avx2::find_string_special(bytes, from) }
            }
            _ => scalar::find_string_special(bytes, from),
        }
    }
}

/// The block size of [`special_mask`].
pub(crate) const BLOCK: usize = 64;

/// The masks of a whole 64-byte block for the string scanner's escape-by-mask path: bit `k`
/// is byte `at + k`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Masks {
    /// Quotes and control bytes (below 0x20).
    pub(crate) ends: u64,
    /// Quotes.
    pub(crate) quote: u64,
    /// Backslashes.
    pub(crate) backslash: u64,
    /// Bytes >= 0x80.
    pub(crate) high: u64,
    /// Bytes that may *not* follow a backslash as a two-byte escape (anything but
    /// `"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`; so `u` is set here).
    pub(crate) not_two: u64,
    /// `u` bytes.
    pub(crate) u: u64,
    /// Hex digits (`0-9`, `a-f`, `A-F`).
    pub(crate) hex: u64,
    /// `d` and `D`, the first digit of a `\uXXXX` that may be a surrogate.
    pub(crate) d: u64,
    /// `8`, `9`, `a`, `b`, `A`, `B`: after a `d`, a high surrogate's second digit.
    pub(crate) high_half: u64,
    /// `c` to `f` and `C` to `F`: after a `d`, a low surrogate's second digit.
    pub(crate) low_half: u64,
}

impl Masks {
    /// Of the escaped `u` bytes `us` (each the `u` of a `\uXXXX`), those whose escape is
    /// sound with the digits the block holds: four hex digits not a surrogate, or a high
    /// surrogate whose escape is followed at once by an escaped `u` of a low one (and that low
    /// one). A `u` whose digits, or whose pair's, run past the block is not among them.
    #[inline(always)]
    pub(crate) fn sound_unicode(&self, us: u64) -> u64 {
        let h = self.hex;
        let digits = us & (h >> 1) & (h >> 2) & (h >> 3) & (h >> 4);
        let d = self.d >> 1;
        let high = digits & d & (self.high_half >> 2);
        let low = digits & d & (self.low_half >> 2);
        // The `u` of a high half whose `\u` pair follows: six bytes on, a low half.
        let pair = high & (low >> 6);
        digits & !(high | low) | pair | pair << 6
    }
}

/// [`Masks`] of the 64 bytes at `at`, which must lie within `bytes` (`None` otherwise: the
/// caller then takes the per-bit loop).
#[inline]
pub(crate) fn string_masks(bytes: &[u8], at: usize) -> Option<Masks> {
    if at + BLOCK > bytes.len() {
        return None;
    }
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    {
        if level() >= 2 {
            // SAFETY: level 2 or more is stored only after `is_x86_feature_detected!("avx2")`, and
            // `at + BLOCK <= bytes.len()` was just checked.
            return Some(unsafe { avx2::string_masks(bytes, at) });
        }
        return Some(sse2::string_masks(bytes, at));
    }
    #[allow(unreachable_code)]
    Some(scalar::string_masks(bytes, at))
}

/// The string scanner's blocks by masks, from `pos` (a block start that no escape crosses),
/// for a string dense with escapes: per 64-byte block, the escaped bytes from the backslash
/// runs ([`escapes`]), the string's end at the first quote or control byte that is not
/// escaped, and every escaped byte before it a two-byte escape or the `u` of a plain
/// `\\uXXXX`: a fixed cost a block instead of a loop turn a backslash. `Ok(end)` at the
/// closing quote (`escaped` and `non_ascii` updated for the bytes before it); `Err(at)` on any
/// doubt (a control byte, a surrogate, a bad escape, the input's last block), `at` the start
/// of that block or the backslash of an escape cut by the block before: the caller's per-bit
/// loop reads that block, so errors stay its own. On AVX2, one function with the kernel
/// inlined (no call a block, the constants in registers). The AVX-512 kernel also checks the
/// blocks for UTF-8 as it goes, and sets `utf8_ok` when the string from `pos` to its end is
/// valid (see [`avx512::blocks_by_mask`]); the others leave it alone.
#[inline]
pub(crate) fn blocks_by_mask(
    bytes: &[u8],
    pos: usize,
    escaped: &mut bool,
    non_ascii: &mut bool,
    utf8_ok: &mut bool,
) -> Result<usize, usize> {
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    {
        let level = level();
        if level >= 3 {
            // SAFETY: level 3 is stored only after the AVX-512 F, BW, VBMI, VBMI2, BMI1, BMI2
            // and POPCNT feature tests all passed.
            return unsafe { avx512::blocks_by_mask(bytes, pos, escaped, non_ascii, utf8_ok) };
        }
        if level >= 2 {
            // SAFETY: level 2 or more is stored only after `is_x86_feature_detected!("avx2")`.
            return unsafe { avx2::blocks_by_mask(bytes, pos, escaped, non_ascii) };
        }
    }
    let _ = utf8_ok;
    blocks_by_mask_with(bytes, pos, escaped, non_ascii, string_masks)
}

/// [`blocks_by_mask`] over the masks of `masks` (a kernel's [`string_masks`]).
#[inline(always)]
pub(crate) fn blocks_by_mask_with(
    bytes: &[u8],
    mut pos: usize,
    escaped: &mut bool,
    non_ascii: &mut bool,
    mut masks: impl FnMut(&[u8], usize) -> Option<Masks>,
) -> Result<usize, usize> {
    // 1 when the byte at `pos` is escaped by the last byte of the block before.
    let mut carry = 0u64;
    // The escaping backslashes and the bytes >= 0x80 met, as masks (tested once at the end).
    let (mut any_escape, mut any_high, mut plain) = (0u64, 0u64, 0u32);
    let outcome = loop {
        let Some(b) = masks(bytes, pos) else {
            break Err(pos - carry as usize);
        };
        // A run of plain blocks (no quote, control, backslash or escape carried in) goes
        // through the steps below like any block (they find nothing), so a text's plain
        // stretches cost no branch that text makes unpredictable; after [`PLAIN_RUN`] in a
        // row the string is long and plain (base64), and the caller's streaming kernel
        // crosses the rest faster.
        let is_plain = (b.ends | b.backslash | carry) == 0;
        plain = (plain + 1) * u32::from(is_plain);
        if plain == PLAIN_RUN {
            break Err(pos);
        }
        let (esc, escaping, carry_out) = escapes(b.backslash, carry);
        let ends = b.ends & !esc;
        // The string's end, if in the block (its bit, else 0), and the bits below it (all
        // when the block has none).
        let end = ends & ends.wrapping_neg();
        let before = end.wrapping_sub(1);
        // Escaped bytes that are not a two-byte escape's: each must be the `u` of a plain
        // `\uXXXX`, by masks for the escapes whose digits the block holds (no loop turn an
        // escape, whose branches text makes unpredictable), by bytes for the few whose digits
        // run past it (a `u` in the block's last four bytes). And the end must be a quote,
        // not a control byte. The `\u` checks behind a branch of their own, taken only by
        // blocks with a `\u` escape: the masks they read are then not made for the others
        // (measured: `chat` -13%, `chat_heavy_py`, escapes `\u` in most blocks, level).
        let odd = esc & b.not_two & before;
        let us = odd & b.u;
        if (odd ^ us) | (end & !b.quote) != 0 {
            break Err(pos - carry as usize);
        }
        if us != 0 {
            let late = us & !(u64::MAX >> 4);
            if us & !late & !b.sound_unicode(us) != 0 {
                break Err(pos - carry as usize);
            }
            if late != 0 && !late_unicode_plain(bytes, pos, late) {
                break Err(pos - carry as usize);
            }
        }
        any_escape |= escaping & before;
        any_high |= b.high & before;
        if end != 0 {
            break Ok(pos + end.trailing_zeros() as usize);
        }
        carry = carry_out;
        pos += BLOCK;
    };
    *escaped |= any_escape != 0;
    *non_ascii |= any_high != 0;
    outcome
}

/// Whether every `\uXXXX` whose `u` is at a bit of `late` (bit `k`: byte `pos + k`) is plain
/// ([`escape::plain_unicode`](super::escape)), read from the bytes: the escapes whose digits
/// run past their block. Out of line: a block has one in about one `\u` in sixteen.
#[cold]
#[inline(never)]
fn late_unicode_plain(bytes: &[u8], pos: usize, mut late: u64) -> bool {
    while late != 0 {
        let at = pos + late.trailing_zeros() as usize;
        late &= late - 1;
        if !super::escape::plain_unicode(bytes, at + 1) {
            return false;
        }
    }
    true
}

/// Plain blocks in a row after which [`blocks_by_mask_with`] hands a string to the streaming
/// kernel.
const PLAIN_RUN: u32 = 8;

/// Alternating bits from bit 1: the odd positions of a block.
const ODD_BITS: u64 = 0xAAAA_AAAA_AAAA_AAAA;

/// Which bytes of a block are escaped and which backslashes escape, from the block's
/// backslash mask and `carry` (1 when the block's byte 0 is escaped by the last byte of the
/// block before, else 0): returns `(escaped, escaping, carry_out)`. A run of backslashes
/// escapes every second byte from its first one on, the byte after the run included when the
/// run is odd; without a branch per run: a subtraction of the runs' starts from the odd bits
/// leaves ones on the escaped bytes of runs that start on an even bit, and the xor with the
/// odd bits corrects the runs that start on an odd one. Pure integer code, the same for every
/// kernel; `escapes_match_the_byte_loop` holds it to a byte loop.
#[inline(always)]
pub(crate) fn escapes(backslash: u64, carry: u64) -> (u64, u64, u64) {
    // A backslash escaped by the one before the block starts no escape.
    let starts = backslash & !carry;
    let code = ((starts << 1) | ODD_BITS).wrapping_sub(starts) ^ ODD_BITS;
    let escaped = code ^ (backslash | carry);
    let escaping = code & backslash;
    (escaped, escaping, escaping >> 63)
}

/// The mask of special bytes (quote, backslash, control) in the block of up to 64 bytes at
/// `at`: bit `k` is set when `bytes[at + k]` is special. Returns the mask, the block's length
/// (64, or what is left of the input), and the mask of the block's bytes >= 0x80 (so that a
/// string knows whether *it* holds one, not just its block). No bit at or past the length is
/// ever set (the string scanner reads the bytes of the set bits without a bounds check).
#[inline]
pub(crate) fn special_mask(bytes: &[u8], at: usize) -> (u64, usize, u64) {
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    {
        if at + BLOCK <= bytes.len() {
            if level() >= 2 {
                // SAFETY: level 2 or more is stored only after `is_x86_feature_detected!("avx2")`.
                let (m, na) = unsafe { avx2::special_mask(bytes, at) };
                return (m, BLOCK, na);
            }
            let (m, na) = sse2::special_mask(bytes, at);
            return (m, BLOCK, na);
        }
        return tail_mask(bytes, at);
    }
    #[allow(unreachable_code)]
    scalar::special_mask(bytes, at)
}

/// [`special_mask`] for the input's last block (every string of a short SSE frame ends in
/// it). When the input holds 64 bytes or more, the vector kernel reads the input's last 64
/// bytes, which overlap the block, and the masks are shifted down so that bit 0 is `at` again
/// (the shift brings in zeros, so nothing past the input is flagged). A shorter input is copied
/// into a block padded with spaces, which are neither special nor high.
#[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
#[inline(never)]
fn tail_mask(bytes: &[u8], at: usize) -> (u64, usize, u64) {
    let len = bytes.len();
    let at = at.min(len);
    let n = len - at;
    if len >= BLOCK {
        let base = len - BLOCK;
        // `at + BLOCK > len` here, so `at > base` and the shift is 1..=63 (or 64 only if
        // `at == len`, handled by `checked_shr`).
        let shift = (at - base) as u32;
        let (m, na) = if level() >= 2 {
            // SAFETY: level 2 or more is stored only after `is_x86_feature_detected!("avx2")`, and
            // `base + BLOCK == bytes.len()`.
            unsafe { avx2::special_mask(bytes, base) }
        } else {
            sse2::special_mask(bytes, base)
        };
        return (
            m.checked_shr(shift).unwrap_or(0),
            n,
            na.checked_shr(shift).unwrap_or(0),
        );
    }
    let mut block = [b' '; BLOCK];
    block[..n].copy_from_slice(&bytes[at..]);
    if level() >= 2 {
        // SAFETY: level 2 or more is stored only after `is_x86_feature_detected!("avx2")`, and
        // `block` is exactly 64 bytes long.
        let (m, na) = unsafe { avx2::special_mask(&block, 0) };
        return (m, n, na);
    }
    let (m, na) = sse2::special_mask(&block, 0);
    (m, n, na)
}

#[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
#[inline(always)]
pub(crate) fn level() -> u8 {
    use std::sync::atomic::{AtomicU8, Ordering};
    // 0 = not yet detected, 1 = SSE2, 2 = AVX2, 3 = AVX2 and AVX-512 (F, BW, VBMI, VBMI2,
    // with BMI1, BMI2 and POPCNT), what the AVX-512 kernels here and in the unescaper need.
    static LEVEL: AtomicU8 = AtomicU8::new(0);
    let level = LEVEL.load(Ordering::Relaxed);
    if level != 0 {
        return level;
    }
    let level = if !std::is_x86_feature_detected!("avx2") {
        1
    } else if std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vbmi")
        && std::is_x86_feature_detected!("avx512vbmi2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("popcnt")
    {
        3
    } else {
        2
    };
    LEVEL.store(level, Ordering::Relaxed);
    level
}

/// The masks of special bytes (quote, backslash, control) and of bytes >= 0x80 in 16 bytes:
/// bit `k` is byte `k`. SSE2 on x86_64 (always there, so inlined without detection), two
/// SWAR words elsewhere; the tests compare the two.
#[inline(always)]
pub(crate) fn mask16(chunk: &[u8; 16]) -> (u32, u32) {
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    {
        sse2::mask16(chunk)
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar))))]
    {
        scalar::mask16(chunk)
    }
}

/// The mask of backslashes in 16 bytes (bit `k` is byte `k`), for the unescaper: SSE2 on
/// x86_64, two SWAR words elsewhere; the tests compare the two.
#[inline(always)]
pub(crate) fn backslashes16(chunk: &[u8; 16]) -> u32 {
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    {
        sse2::backslashes16(chunk)
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar))))]
    {
        scalar::backslashes16(chunk)
    }
}

/// The masks of [`mask16`] for the 16 bytes at `at` (bit 0 is `at`), and how many of them
/// lie in the input: 16, or fewer near its end, where the input's last 16 bytes are read and
/// the masks shifted down (zeros come in, so nothing past the input is flagged). `None` when
/// the input is shorter than 16 bytes or `at` is at or past its end.
#[inline(always)]
pub(crate) fn window16(bytes: &[u8], at: usize) -> Option<(u32, u32, usize)> {
    let len = bytes.len();
    let (base, shift) = if at + 16 <= len {
        (at, 0)
    } else if len >= 16 && at < len {
        (len - 16, at - (len - 16))
    } else {
        return None;
    };
    let chunk: &[u8; 16] = bytes.get(base..base + 16)?.try_into().ok()?;
    let (special, high) = mask16(chunk);
    Some((special >> shift, high >> shift, 16 - shift))
}

/// The end of a short string (a key, an id) whose text starts at `at`, found with one
/// 16-byte look: if the first special byte in `bytes[at..at + 16]` is a quote, its offset and
/// whether a byte >= 0x80 comes before it. `None` when that first special byte is a
/// backslash or a control byte, when there is none, or when the input is shorter than 16
/// bytes: the caller then runs the block scan. Near the end of the input the 16 bytes read
/// are the input's last ones, and the masks are shifted so that bit 0 is `at`.
#[inline(always)]
pub(crate) fn short_string_end(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    let len = bytes.len();
    let (base, shift) = if at + 16 <= len {
        (at, 0)
    } else if len >= 16 && at < len {
        (len - 16, at - (len - 16))
    } else {
        return None;
    };
    let chunk: &[u8; 16] = bytes.get(base..base + 16)?.try_into().ok()?;
    let (special, high) = mask16(chunk);
    let (special, high) = (special >> shift, high >> shift);
    if special == 0 {
        return None;
    }
    let k = special.trailing_zeros();
    let end = at + k as usize;
    if bytes.get(end) != Some(&b'"') {
        return None;
    }
    Some((end, high & ((1u32 << k) - 1) != 0))
}

/// [`short_string_end`] over up to 64 bytes, for the string scanner and the field templates
/// (ids of 20 to 40 bytes are common: a UUID is 36): while a 16-byte look holds no special
/// byte, the next 16 are looked at, up to four looks, each only where all 16 bytes lie in the
/// input (`None` past that). The same answer as the 16-byte look when fewer than 32 bytes are
/// left from `at`.
#[inline(always)]
pub(crate) fn string_end64(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    if bytes.get(at..at + 32).is_none() {
        return short_string_end(bytes, at);
    }
    let mut high_before = 0u32;
    for look in 0..4 {
        let from = at + 16 * look;
        let chunk: &[u8; 16] = bytes.get(from..from + 16)?.try_into().ok()?;
        let (special, high) = mask16(chunk);
        if special != 0 {
            let k = special.trailing_zeros();
            let end = from + k as usize;
            let na = high_before != 0 || high & ((1u32 << k) - 1) != 0;
            return (bytes.get(end) == Some(&b'"')).then_some((end, na));
        }
        high_before |= high;
    }
    None
}

/// Finds the first quote, backslash or control byte at or after `from` (or `bytes.len()`),
/// and reports whether a byte >= 0x80 may occur in `bytes[from..index]` (a `true` may be a
/// false positive from bytes just past `index`, never a false negative).
#[inline]
pub(crate) fn find_string_special(bytes: &[u8], from: usize) -> (usize, bool) {
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    {
        let level = level();
        // Short runs (keys, ids) are not worth a vector setup.
        if bytes.len().saturating_sub(from) < 16 {
            return scalar::find_string_special(bytes, from);
        }
        if level >= 2 {
            // SAFETY: level 2 or more is stored only after `is_x86_feature_detected!("avx2")`.
            return unsafe { avx2::find_string_special(bytes, from) };
        }
        sse2::find_string_special(bytes, from)
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar))))]
    {
        scalar::find_string_special(bytes, from)
    }
}

/// The first line end (a `\n` or a `\r`) at or after `from`, for the SSE decoder: AVX2 when
/// the CPU has it (one compare per 32 bytes, no call: the ~100-byte line of an event costs a
/// third of what `memchr2` spends on its dispatch and set-up), `memchr2` otherwise. The
/// scalar twin is [`scalar::find_line_end`]; the tests compare them.
#[inline(always)]
pub(crate) fn find_line_end(bytes: &[u8], from: usize) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    if level() >= 2 {
        // SAFETY: level 2 or more is stored only after `is_x86_feature_detected!("avx2")`.
        return unsafe { avx2::find_line_end(bytes, from) };
    }
    #[cfg(not(any(miri, agui_wire_force_scalar)))]
    {
        let rest = bytes.get(from..)?;
        memchr::memchr2(b'\n', b'\r', rest).map(|k| from + k)
    }
    #[cfg(any(miri, agui_wire_force_scalar))]
    {
        scalar::find_line_end(bytes, from)
    }
}

/// Every kernel against the scalar one at `at` (see
/// [`crate::parser::differential::string_kernels_agree`]).
pub(crate) fn kernels_agree(bytes: &[u8], at: usize) -> Result<(), String> {
    let from = at.min(bytes.len());
    let (want, scalar_na) = scalar::find_string_special(bytes, from);
    // The contract is exact in one direction only: a non-ASCII byte before the end must be
    // reported; a byte just past it may be (the scalar twin reads whole words, so it may say
    // `true` where a vector kernel, looking closer, says `false`).
    let want_na = bytes[from..want].iter().any(|&b| b >= 0x80);
    if want_na && !scalar_na {
        return Err(format!(
            "scalar find from {from}: ({want}, false) misses a non-ASCII byte"
        ));
    }
    let mut runs = vec![("dispatch", find_string_special(bytes, from))];
    runs.extend(
        Kernel::available()
            .into_iter()
            .map(|k| ("kernel", k.find(bytes, from))),
    );
    for (name, (end, na)) in runs {
        if end != want || (want_na && !na) {
            return Err(format!(
                "{name} find from {from}: ({end}, {na}), scalar ({want}, {want_na})"
            ));
        }
    }
    // The scan while copying (the chunk-fed parser's), over the next 300 bytes at most (the
    // fuzz target calls this at every offset): the same end, every byte copied.
    let window = &bytes[from..(from + 300).min(bytes.len())];
    let (w_end, w_na) = scalar::find_string_special(window, 0);
    let w_na = w_na && window[..w_end].iter().any(|&b| b >= 0x80);
    for (name, run) in [
        ("copy", copy::copy_string_run as fn(&[u8], &mut [_]) -> _),
        ("copy scalar", copy::scalar),
    ] {
        let mut dst = vec![std::mem::MaybeUninit::new(0u8); window.len()];
        let (end, na) = run(window, &mut dst);
        // SAFETY: every byte of `dst` was initialized (to 0, then maybe written over).
        let copied = dst.iter().map(|b| unsafe { b.assume_init() });
        if end != w_end || (w_na && !na) || !copied.eq(window.iter().copied()) {
            return Err(format!(
                "{name} from {from}: ({end}, {na}), scalar ({w_end}, {w_na}), or a byte not copied"
            ));
        }
    }
    // The short-string look: the closing quote when it is the first special byte of the
    // 16-byte window, with exactly the non-ASCII bytes before it; nothing otherwise.
    let window_end = (from + 16).min(bytes.len());
    let want_short = (bytes.len() >= 16 && from < bytes.len() && want < window_end)
        .then_some(want)
        .filter(|&e| bytes.get(e) == Some(&b'"'))
        .map(|e| (e, bytes[from..e].iter().any(|&b| b >= 0x80)));
    let got_short = short_string_end(bytes, from);
    if got_short != want_short {
        return Err(format!(
            "short_string_end at {from}: {got_short:?}, scalar {want_short:?}"
        ));
    }
    // The same over the whole 16-byte looks that fit, up to four, when 32 bytes are left
    // (else it is the 16-byte look).
    let want_64 = if bytes.len() >= from + 32 {
        let looked = from + 16 * ((bytes.len() - from) / 16).min(4);
        (want < looked && bytes.get(want) == Some(&b'"'))
            .then(|| (want, bytes[from..want].iter().any(|&b| b >= 0x80)))
    } else {
        want_short
    };
    let got_64 = string_end64(bytes, from);
    if got_64 != want_64 {
        return Err(format!(
            "string_end64 at {from}: {got_64:?}, scalar {want_64:?}"
        ));
    }
    if let Some(chunk) = bytes.get(from..from + 16) {
        let chunk: &[u8; 16] = chunk.try_into().map_err(|_| "16 bytes".to_string())?;
        if mask16(chunk) != scalar::mask16(chunk) {
            return Err(format!(
                "mask16 at {from}: {:?}, scalar {:?}",
                mask16(chunk),
                scalar::mask16(chunk)
            ));
        }
        if backslashes16(chunk) != scalar::backslashes16(chunk) {
            return Err(format!(
                "backslashes16 at {from}: {:#x}, scalar {:#x}",
                backslashes16(chunk),
                scalar::backslashes16(chunk)
            ));
        }
    }
    let want_end = scalar::find_line_end(bytes, from);
    let got_end = find_line_end(bytes, from);
    if got_end != want_end {
        return Err(format!(
            "find_line_end from {from}: {got_end:?}, scalar {want_end:?}"
        ));
    }
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 support was just checked.
        let avx = unsafe { avx2::find_line_end(bytes, from) };
        if avx != want_end {
            return Err(format!(
                "avx2 find_line_end from {from}: {avx:?}, scalar {want_end:?}"
            ));
        }
    }
    masks_agree(bytes, from)?;
    let want = scalar::special_mask(bytes, from);
    let got = special_mask(bytes, from);
    if got != want {
        return Err(format!("special_mask at {from}: {got:?}, scalar {want:?}"));
    }
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    if from + BLOCK <= bytes.len() {
        let sse = sse2::special_mask(bytes, from);
        if sse != (want.0, want.2) {
            return Err(format!("sse2 mask at {from}: {sse:?}, scalar {want:?}"));
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 support was just checked, and `from + BLOCK <= bytes.len()`.
            let avx = unsafe { avx2::special_mask(bytes, from) };
            if avx != (want.0, want.2) {
                return Err(format!("avx2 mask at {from}: {avx:?}, scalar {want:?}"));
            }
        }
    }
    Ok(())
}

/// The shape of [`blocks_by_mask`], for [`masks_agree`].
type BlocksFn<'f> = dyn Fn(&[u8], usize, &mut bool, &mut bool) -> Result<usize, usize> + 'f;

/// The escape-by-mask path against the per-bit loop and its kernels against the scalar one,
/// at `from` (part of [`kernels_agree`]): every kernel's [`string_masks`] equal to the scalar
/// twin's; [`blocks_by_mask`] (the dispatch: AVX-512 or AVX2, as the CPU has them) equal to
/// the same loop over the scalar masks, and so are the SSE2 and AVX2 loops; and, at a quote, the scanner with the mask path
/// ([`Cursor::text_string`](crate::scanner::Cursor::text_string)) giving exactly what the
/// per-bit scanner ([`Cursor::string`](crate::scanner::Cursor::string)) gives: the same token
/// and end, or the same error at the same offset.
pub(crate) fn masks_agree(bytes: &[u8], from: usize) -> Result<(), String> {
    let want = (from + BLOCK <= bytes.len()).then(|| scalar::string_masks(bytes, from));
    let got = string_masks(bytes, from);
    if got != want {
        return Err(format!("string_masks at {from}: {got:?}, scalar {want:?}"));
    }
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    if let Some(want) = want {
        let sse = sse2::string_masks(bytes, from);
        if sse != want {
            return Err(format!(
                "sse2 string_masks at {from}: {sse:?}, scalar {want:?}"
            ));
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 support was just checked, and `from + BLOCK <= bytes.len()`.
            let avx = unsafe { avx2::string_masks(bytes, from) };
            if avx != want {
                return Err(format!(
                    "avx2 string_masks at {from}: {avx:?}, scalar {want:?}"
                ));
            }
        }
        if level() >= 3 {
            // SAFETY: level 3 is stored only after the AVX-512 feature tests passed, and
            // `from + BLOCK <= bytes.len()`.
            let avx = unsafe { avx512::string_masks(bytes, from) };
            if avx != want {
                return Err(format!(
                    "avx512 string_masks at {from}: {avx:?}, scalar {want:?}"
                ));
            }
        }
    }
    let run = |f: &BlocksFn<'_>| {
        let (mut e, mut n) = (false, false);
        let r = f(bytes, from, &mut e, &mut n);
        (r, e, n)
    };
    let want = run(&|b, at, e, n| {
        blocks_by_mask_with(b, at, e, n, |b, at| {
            (at + BLOCK <= b.len()).then(|| scalar::string_masks(b, at))
        })
    });
    let utf8_ok = std::cell::Cell::new(false);
    let got = run(&|b, at, e, n| {
        let mut ok = false;
        let r = blocks_by_mask(b, at, e, n, &mut ok);
        utf8_ok.set(ok);
        r
    });
    if got != want {
        return Err(format!(
            "blocks_by_mask from {from}: {got:?}, scalar {want:?}"
        ));
    }
    // A yes from the kernel's own UTF-8 check must be right for the string it found.
    if let (true, (Ok(end), ..)) = (utf8_ok.get(), got)
        && std::str::from_utf8(&bytes[from..end]).is_err()
    {
        return Err(format!(
            "blocks_by_mask from {from}: UTF-8 said valid up to {end}, and it is not"
        ));
    }
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    {
        let sse = run(&|b, at, e, n| {
            blocks_by_mask_with(b, at, e, n, |b, at| {
                (at + BLOCK <= b.len()).then(|| sse2::string_masks(b, at))
            })
        });
        if sse != want {
            return Err(format!(
                "sse2 blocks_by_mask from {from}: {sse:?}, scalar {want:?}"
            ));
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 support was just checked.
            let avx = run(&|b, at, e, n| unsafe { avx2::blocks_by_mask(b, at, e, n) });
            if avx != want {
                return Err(format!(
                    "avx2 blocks_by_mask from {from}: {avx:?}, scalar {want:?}"
                ));
            }
        }
    }
    if bytes.get(from) == Some(&b'"') {
        let mut bits = crate::scanner::Cursor::new(bytes);
        bits.pos = from;
        let mut masks = crate::scanner::Cursor::new(bytes);
        masks.pos = from;
        let summary = |r: crate::error::RawResult<crate::scanner::StrToken<'_>>, pos: usize| {
            r.map(|t| (t.raw.len(), t.start, t.escaped, pos))
        };
        let want = bits.string();
        let want = summary(want, bits.pos);
        let got = masks.text_string();
        let got = summary(got, masks.pos);
        if got != want {
            return Err(format!("text_string at {from}: {got:?}, string {want:?}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn reference(bytes: &[u8], from: usize) -> (usize, bool) {
        let end = bytes[from..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            .map_or(bytes.len(), |p| from + p);
        (end, bytes[from..end].iter().any(|&b| b >= 0x80))
    }

    fn check(bytes: &[u8], from: usize) {
        let (want, want_na) = reference(bytes, from);
        for k in Kernel::available() {
            let (got, na) = k.find(bytes, from);
            assert_eq!(got, want, "{k:?} on {bytes:?} from {from}");
            // A false positive for non-ASCII is allowed, a false negative is not.
            assert!(
                na || !want_na,
                "{k:?} missed non-ASCII in {bytes:?} from {from}"
            );
        }
        let (got, na) = find_string_special(bytes, from);
        assert_eq!(got, want);
        assert!(na || !want_na);
    }

    #[test]
    fn every_position_every_special() {
        // Under miri (scalar kernel only) lengths past three words add time, not coverage.
        let max_len = if cfg!(miri) { 26 } else { 80 };
        for len in 0..max_len {
            for pos in 0..len {
                for special in [b'"', b'\\', 0u8, 0x1f, 0x0a] {
                    let mut v = vec![b'a'; len];
                    v[pos] = special;
                    for from in [0, pos.saturating_sub(1), pos] {
                        check(&v, from);
                    }
                }
                let mut v = vec![b'A'; len];
                v[pos] = 0xC3;
                check(&v, 0);
            }
        }
    }

    /// The long-string loop tests 256 bytes at a time with a loose check (controls, quote,
    /// backslash and every byte >= 0x80) from a 32-byte boundary, after one unaligned look at
    /// the first 32 bytes: one odd byte at every position of strings around those sizes, from
    /// starts of every alignment, including the near misses of the loose check (0x20, 0x21,
    /// 0x23, 0x5b, 0x5d, 0x7f), which must stay plain.
    #[test]
    fn long_strings_one_odd_byte_everywhere() {
        if cfg!(miri) {
            return;
        }
        let odds = [
            b'"', b'\\', 0x00, 0x1f, 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xff,
        ];
        for len in [
            127, 128, 129, 255, 256, 257, 287, 288, 289, 300, 511, 512, 513, 600,
        ] {
            for pos in 0..len {
                for odd in odds {
                    let mut v = vec![b'A'; len];
                    v[pos] = odd;
                    for from in [0, 1, 5, 17, 31, 32, 63] {
                        check(&v, from);
                    }
                }
            }
        }
        // Every start alignment against every position of one string past two loop turns.
        for from in 0..33 {
            for pos in from..620 {
                for odd in [b'"', b'\\', 0x00, 0x80] {
                    let mut v = vec![b'A'; 620];
                    v[pos] = odd;
                    check(&v, from);
                }
            }
        }
    }

    /// A non-ASCII byte just past the end, inside the scalar twin's 8-byte word: the scalar
    /// kernel may say `true`, a vector kernel `false`; both are within the contract, and
    /// `kernels_agree` (which the fuzz target runs) must accept both (found by the fuzzer
    /// once the AVX2 kernel stopped reading past a long run's end).
    #[test]
    fn non_ascii_just_past_the_end_is_not_demanded() {
        for len in [100, 300, 1000] {
            for gap in 1..8 {
                let mut v = vec![b'Q'; len];
                v.extend_from_slice(b"\"x");
                v.extend(std::iter::repeat_n(b'a', gap));
                v.push(0xb1);
                v.extend_from_slice(b"zzzzzzzzzz");
                for from in [0, 1, 31, 64] {
                    assert_eq!(super::kernels_agree(&v, from), Ok(()), "{len} {gap} {from}");
                    check(&v, from);
                }
            }
        }
    }

    fn reference_mask(bytes: &[u8], at: usize) -> (u64, usize, u64) {
        let block = &bytes[at.min(bytes.len())..(at + BLOCK).min(bytes.len())];
        let (mut m, mut high) = (0u64, 0u64);
        for (k, &b) in block.iter().enumerate() {
            if b == b'"' || b == b'\\' || b < 0x20 {
                m |= 1 << k;
            }
            if b >= 0x80 {
                high |= 1 << k;
            }
        }
        (m, block.len(), high)
    }

    fn check_mask(bytes: &[u8], at: usize) {
        let want = reference_mask(bytes, at);
        assert_eq!(scalar::special_mask(bytes, at), want, "scalar at {at}");
        assert_eq!(special_mask(bytes, at), want, "dispatch at {at}");
        #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
        if at + BLOCK <= bytes.len() {
            assert_eq!(
                sse2::special_mask(bytes, at),
                (want.0, want.2),
                "sse2 at {at}"
            );
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 support was just checked, and `at + BLOCK <= bytes.len()`.
                let got = unsafe { avx2::special_mask(bytes, at) };
                assert_eq!(got, (want.0, want.2), "avx2 at {at}");
            }
        }
    }

    #[test]
    fn masks_every_position() {
        for len in [0, 1, 63, 64, 65, 130] {
            for pos in 0..len {
                for special in [b'"', b'\\', 0u8, 0x1f, 0xE9] {
                    let mut v = vec![b'a'; len];
                    v[pos] = special;
                    for at in [0, pos.saturating_sub(3), pos] {
                        check_mask(&v, at);
                    }
                }
            }
        }
    }

    /// Every start in the last block of inputs of 64 bytes and more (read through the
    /// input's last 64 bytes, shifted) and of shorter ones (a padded copy).
    #[test]
    fn tail_masks_every_start() {
        for len in [0, 1, 7, 40, 63, 64, 65, 71, 100, 127, 128, 129] {
            for pos in 0..len {
                for special in [b'"', b'\\', 0x1f, 0xE9] {
                    let mut v: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
                    v[pos] = special;
                    if pos + 3 < len {
                        v[pos + 3] = 0xC3;
                    }
                    for at in len.saturating_sub(BLOCK + 1)..=len + 1 {
                        check_mask(&v, at);
                    }
                }
            }
        }
    }

    /// `short_string_end` against a byte loop, and both 16-byte mask kernels against each
    /// other, at every start of inputs around 16 bytes and past it.
    #[test]
    fn short_string_ends() {
        fn reference(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
            if bytes.len() < 16 || at >= bytes.len() {
                return None;
            }
            let window = &bytes[at..(at + 16).min(bytes.len())];
            let k = window
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
            (window[k] == b'"').then(|| (at + k, window[..k].iter().any(|&b| b >= 0x80)))
        }
        for len in [0, 1, 15, 16, 17, 31, 40] {
            for pos in 0..len {
                for special in [b'"', b'\\', 0x1f, 0xE9] {
                    for high in [None, Some(pos / 2), Some(pos + 1)] {
                        let mut v: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
                        if let Some(h) = high.filter(|&h| h < len) {
                            v[h] = 0xC3;
                        }
                        v[pos] = special;
                        for at in 0..=len + 1 {
                            assert_eq!(
                                short_string_end(&v, at),
                                reference(&v, at),
                                "{v:?} at {at}"
                            );
                            if let Some(chunk) = v.get(at..at + 16) {
                                let chunk: &[u8; 16] = chunk.try_into().unwrap();
                                assert_eq!(mask16(chunk), scalar::mask16(chunk));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The line-end search (dispatch and AVX2) against the byte loop, at every start of
    /// inputs around the vector width, with a CR or LF anywhere or nowhere.
    #[test]
    fn line_ends() {
        for len in [0, 1, 7, 31, 32, 33, 63, 64, 65, 100] {
            for pos in (0..len).map(Some).chain([None]) {
                for end in [b'\n', b'\r'] {
                    let mut v: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
                    if let Some(p) = pos {
                        v[p] = end;
                    }
                    for from in 0..=len + 1 {
                        let want = v
                            .get(from..)
                            .and_then(|r| r.iter().position(|&b| b == b'\n' || b == b'\r'))
                            .map(|k| from + k);
                        assert_eq!(scalar::find_line_end(&v, from), want, "{v:?} from {from}");
                        assert_eq!(super::kernels_agree(&v, from.min(len)), Ok(()));
                        if from <= len {
                            assert_eq!(find_line_end(&v, from), want, "{v:?} from {from}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn boundary_bytes() {
        for b in 0u8..=255 {
            let mut v = vec![b'x'; 70];
            v[37] = b;
            check(&v, 0);
            check(&v, 5);
        }
    }

    /// The escaped bytes and escaping backslashes of a run of blocks, byte by byte.
    fn reference_escapes(backslash: &[bool]) -> (Vec<bool>, Vec<bool>) {
        let (mut escaped, mut escaping) =
            (vec![false; backslash.len()], vec![false; backslash.len()]);
        let mut i = 0;
        while i < backslash.len() {
            if backslash[i] {
                escaping[i] = true;
                if i + 1 < backslash.len() {
                    escaped[i + 1] = true;
                }
                i += 2;
            } else {
                i += 1;
            }
        }
        (escaped, escaping)
    }

    /// `escapes` over three blocks chained by their carries against the byte loop.
    fn check_escapes(words: [u64; 3]) {
        let bits: Vec<bool> = (0..192)
            .map(|i| words[i / 64] >> (i % 64) & 1 == 1)
            .collect();
        let (want_escaped, want_escaping) = reference_escapes(&bits);
        let mut carry = 0;
        for (w, &word) in words.iter().enumerate() {
            let (escaped, escaping, out) = escapes(word, carry);
            for k in 0..64 {
                let i = 64 * w + k;
                assert_eq!(
                    escaped >> k & 1 == 1,
                    want_escaped[i],
                    "escaped {i} of {words:x?}"
                );
                assert_eq!(
                    escaping >> k & 1 == 1,
                    want_escaping[i],
                    "escaping {i} of {words:x?}"
                );
            }
            assert_eq!(out, escaping >> 63);
            carry = out;
        }
    }

    #[test]
    fn escapes_match_the_byte_loop() {
        // Every pattern of the 12 bits around each block edge, the rest plain or all set.
        for pattern in 0u64..1 << 12 {
            for fill in [0u64, u64::MAX, 0x5555_5555_5555_5555] {
                let edge = |p: u64| (fill & !(0x3F << 58) & !0x3F) | (p & 0x3F) << 58;
                check_escapes([edge(pattern), (pattern >> 6) | edge(pattern >> 3), pattern]);
                check_escapes([pattern << 52, pattern >> 6, fill]);
            }
        }
        for run in 0..=130 {
            for at in [0usize, 1, 2, 61, 62, 63, 64] {
                let mut words = [0u64; 3];
                for i in at..(at + run).min(192) {
                    words[i / 64] |= 1 << (i % 64);
                }
                check_escapes(words);
            }
        }
    }

    fn reference_string_masks(bytes: &[u8], at: usize) -> Masks {
        let mut m = Masks {
            ends: 0,
            quote: 0,
            backslash: 0,
            high: 0,
            not_two: 0,
            u: 0,
            hex: 0,
            d: 0,
            high_half: 0,
            low_half: 0,
        };
        for (k, &b) in bytes[at..at + BLOCK].iter().enumerate() {
            m.ends |= u64::from(b == b'"' || b < 0x20) << k;
            m.quote |= u64::from(b == b'"') << k;
            m.backslash |= u64::from(b == b'\\') << k;
            m.high |= u64::from(b >= 0x80) << k;
            m.not_two |= u64::from(!b"\"\\/bfnrt".contains(&b)) << k;
            m.u |= u64::from(b == b'u') << k;
            m.hex |= u64::from(b.is_ascii_hexdigit()) << k;
            m.d |= u64::from(b == b'd' || b == b'D') << k;
            m.high_half |= u64::from(b"89abAB".contains(&b)) << k;
            m.low_half |= u64::from(b"cdefCDEF".contains(&b)) << k;
        }
        m
    }

    /// Every byte value at every offset of a block (and of the block after), every kernel.
    #[test]
    fn string_masks_every_byte_everywhere() {
        for b in 0..=255u8 {
            for pos in 0..130 {
                let mut v: Vec<u8> = (0..130).map(|k| b"a/\\nu\"Z"[k % 7]).collect();
                v[pos] = b;
                for at in [0, 1, 63, 64, 65, 66] {
                    assert_eq!(scalar::string_masks(&v, at), reference_string_masks(&v, at));
                    assert_eq!(super::masks_agree(&v, at), Ok(()));
                }
            }
        }
    }

    /// Texts dense with escapes, cut at every length, read from every quote by both scanners:
    /// same token or same error. The escapes cross the block edges at every offset.
    #[test]
    fn text_string_matches_the_per_bit_loop() {
        let pieces: [&[u8]; 25] = [
            b"\\n",
            b"\\\"",
            b"\\\\",
            b"\\u00e9",
            b"\\ud83d\\ude00",
            b"\\uD800",
            b"\\udc00x",
            b"\\ud83dx",
            b"\\x",
            b"\\u12g4",
            b"\\u",
            b"abc",
            b"\\/",
            b"\\t\\r",
            "\u{e9}".as_bytes(),
            "\u{1F600}".as_bytes(),
            b"\xC3(",
            b"\x01",
            b"\"",
            b"\\\\\\",
            b"                ",
            b"\\uD7FF",
            b"\\uDBFF\\uDFFF",
            b"\\uD83D\\uDE00",
            b"\\ud83d\\n",
        ];
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for round in 0..300 {
            let mut v = b"\"".to_vec();
            v.extend(std::iter::repeat_n(b'a', round % 70));
            while v.len() < 260 {
                let p = next() as usize % pieces.len();
                // Mostly valid pieces, so that some strings run long.
                if (5..18).contains(&p) && next() % 4 != 0 {
                    v.extend_from_slice(b"\\n");
                    continue;
                }
                v.extend_from_slice(pieces[p]);
            }
            v.push(b'"');
            for cut in (0..=v.len()).step_by(if round % 10 == 0 { 1 } else { 17 }) {
                let w = &v[..cut];
                for at in 0..w.len() {
                    assert_eq!(
                        super::masks_agree(w, at),
                        Ok(()),
                        "{:?}",
                        String::from_utf8_lossy(w)
                    );
                }
            }
        }
    }

    proptest! {
        #[test]
        fn escapes_agree(a in any::<u64>(), b in any::<u64>(), c in any::<u64>()) {
            check_escapes([a, b, c]);
        }

        #[test]
        fn masks_agree_on_escaped_text(
            parts in proptest::collection::vec(prop_oneof![
                Just(&b"\\n"[..]), Just(&b"\\\\"[..]), Just(&b"\\\""[..]), Just(&b"\\u00e9"[..]),
                Just(&b"\\ud83d\\ude00"[..]), Just(&b"xy"[..]), Just(&b"\""[..]), Just(&b"\xC3\xA9"[..]),
                Just(&b"\\q"[..]), Just(&b"\x1f"[..]), Just(&b"\\u12"[..]), Just(&b"\xFF"[..]),
            ], 0..120),
        ) {
            let mut v = b"\"".to_vec();
            for p in parts { v.extend_from_slice(p); }
            for at in 0..v.len() {
                prop_assert_eq!(super::masks_agree(&v, at), Ok(()));
            }
        }

        #[test]
        fn kernels_agree(bytes in proptest::collection::vec(any::<u8>(), 0..300), from in 0usize..300) {
            let from = from.min(bytes.len());
            check(&bytes, from);
        }

        /// The fuzz target's check (`fast_vs_scalar`), on strings with a few specials.
        #[test]
        fn differential_check_passes(
            len in 0usize..120,
            specials in proptest::collection::vec((0usize..120, prop_oneof![Just(b'"'), Just(b'\\'), Just(9u8), Just(0xC3u8)]), 0..4),
        ) {
            let mut v: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
            for (p, b) in specials { if p < len { v[p] = b; } }
            for at in 0..=len + 1 {
                prop_assert_eq!(crate::scanner::simd::kernels_agree(&v, at), Ok(()));
            }
        }

        #[test]
        fn mask16_agree(bytes in proptest::array::uniform16(any::<u8>())) {
            prop_assert_eq!(mask16(&bytes), scalar::mask16(&bytes));
            let want = bytes.iter().enumerate().filter(|&(_, &b)| b == b'\\').fold(0u32, |m, (k, _)| m | 1 << k);
            prop_assert_eq!(scalar::backslashes16(&bytes), want);
            prop_assert_eq!(backslashes16(&bytes), want);
        }

        #[test]
        fn masks_agree(bytes in proptest::collection::vec(any::<u8>(), 0..200), at in 0usize..200) {
            check_mask(&bytes, at.min(bytes.len()));
        }

        #[test]
        fn kernels_agree_mostly_plain(
            len in 0usize..400,
            specials in proptest::collection::vec((0usize..400, prop_oneof![Just(b'"'), Just(b'\\'), Just(1u8), Just(0xE2u8)]), 0..3),
        ) {
            let mut v = vec![b'Q'; len];
            for (p, b) in specials { if p < len { v[p] = b; } }
            check(&v, 0);
        }
    }
}
