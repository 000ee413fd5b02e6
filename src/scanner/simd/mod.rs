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
//! [`agree`] holds every kernel to the scalar twin on given bytes (the `fast_vs_scalar` fuzz
//! target's check).
//!
//! The choice is made once and cached. Building with `--cfg agui_wire_force_scalar` (or
//! under miri) uses the scalar kernel everywhere.

mod agree;
pub(crate) mod copy;
pub(crate) mod scalar;

#[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
pub(crate) mod avx2;
#[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
pub(crate) mod avx512;
#[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
pub(crate) mod sse2;
#[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
mod utf8_tables;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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

#[cfg(test)]
use agree::masks_agree;
pub(crate) use agree::{kernels_agree, utf8_agrees};

#[cfg(test)]
mod tests;
