//! x86_64 SSE2 kernel: 16 bytes per compare, two vectors per loop turn.
//!
//! SSE2 is part of the x86_64 baseline, so these functions need no run-time detection.

use std::arch::x86_64::*;

/// See [`super::find_string_special`].
pub(crate) fn find_string_special(bytes: &[u8], from: usize) -> (usize, bool) {
    let len = bytes.len();
    let mut i = from.min(len);
    let ptr = bytes.as_ptr();
    // SAFETY: SSE2 is always available on x86_64. Every load reads 16 bytes starting at
    // `ptr + i` (or `i + 16`) only when `i + 32 <= len` (or `i + 16 <= len`), so it stays
    // inside `bytes`; `_mm_loadu_si128` has no alignment requirement.
    unsafe {
        let quote = _mm_set1_epi8(b'"' as i8);
        let backslash = _mm_set1_epi8(b'\\' as i8);
        let ctrl_max = _mm_set1_epi8(0x1f);
        let mut high = _mm_setzero_si128();
        let special = |v: __m128i| -> __m128i {
            let q = _mm_cmpeq_epi8(v, quote);
            let b = _mm_cmpeq_epi8(v, backslash);
            // v <= 0x1f (unsigned) exactly when min(v, 0x1f) == v.
            let c = _mm_cmpeq_epi8(_mm_min_epu8(v, ctrl_max), v);
            _mm_or_si128(_mm_or_si128(q, b), c)
        };
        while i + 32 <= len {
            let a = _mm_loadu_si128(ptr.add(i) as *const __m128i);
            let b = _mm_loadu_si128(ptr.add(i + 16) as *const __m128i);
            high = _mm_or_si128(high, _mm_or_si128(a, b));
            let m = _mm_movemask_epi8(special(a)) as u32
                | ((_mm_movemask_epi8(special(b)) as u32) << 16);
            if m != 0 {
                return (
                    i + m.trailing_zeros() as usize,
                    _mm_movemask_epi8(high) != 0,
                );
            }
            i += 32;
        }
        while i + 16 <= len {
            let a = _mm_loadu_si128(ptr.add(i) as *const __m128i);
            high = _mm_or_si128(high, a);
            let m = _mm_movemask_epi8(special(a)) as u32;
            if m != 0 {
                return (
                    i + m.trailing_zeros() as usize,
                    _mm_movemask_epi8(high) != 0,
                );
            }
            i += 16;
        }
        let seen = _mm_movemask_epi8(high) != 0;
        let (end, tail) = super::scalar::find_string_special(bytes, i);
        (end, seen | tail)
    }
}

/// See [`super::special_mask`]; the caller guarantees `at + 64 <= bytes.len()`.
pub(crate) fn special_mask(bytes: &[u8], at: usize) -> (u64, u64) {
    assert!(at + 64 <= bytes.len());
    // SAFETY: SSE2 is always available on x86_64; the four 16-byte loads cover
    // `bytes[at..at + 64]`, inside the slice by the assertion above; unaligned loads are allowed.
    unsafe {
        let ptr = bytes.as_ptr().add(at);
        let quote = _mm_set1_epi8(b'"' as i8);
        let backslash = _mm_set1_epi8(b'\\' as i8);
        let ctrl_max = _mm_set1_epi8(0x1f);
        let mut mask = 0u64;
        let mut high = 0u64;
        for k in 0..4 {
            let v = _mm_loadu_si128(ptr.add(16 * k) as *const __m128i);
            high |= (_mm_movemask_epi8(v) as u16 as u64) << (16 * k);
            let q = _mm_cmpeq_epi8(v, quote);
            let b = _mm_cmpeq_epi8(v, backslash);
            let c = _mm_cmpeq_epi8(_mm_min_epu8(v, ctrl_max), v);
            let m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(q, b), c)) as u16 as u64;
            mask |= m << (16 * k);
        }
        (mask, high)
    }
}

/// See [`super::string_masks`] (SSE2 has no byte shuffle: the eight escape characters by
/// compares); the caller guarantees `at + 64 <= bytes.len()`.
pub(crate) fn string_masks(bytes: &[u8], at: usize) -> super::Masks {
    assert!(at + 64 <= bytes.len());
    let mut out = super::Masks::default();
    // SAFETY: SSE2 is always available on x86_64; the four 16-byte loads cover
    // `bytes[at..at + 64]`, inside the slice by the assertion above; unaligned loads are allowed.
    unsafe {
        let ptr = bytes.as_ptr().add(at);
        let eq = |v: __m128i, c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
        for k in 0..4 {
            let v = _mm_loadu_si128(ptr.add(16 * k) as *const __m128i);
            let q = eq(v, b'"');
            let c = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
            let bs = eq(v, b'\\');
            let two = _mm_or_si128(
                _mm_or_si128(_mm_or_si128(q, bs), _mm_or_si128(eq(v, b'/'), eq(v, b'b'))),
                _mm_or_si128(
                    _mm_or_si128(eq(v, b'f'), eq(v, b'n')),
                    _mm_or_si128(eq(v, b'r'), eq(v, b't')),
                ),
            );
            let m = |x: __m128i| _mm_movemask_epi8(x) as u16 as u64;
            out.ends |= m(_mm_or_si128(q, c)) << (16 * k);
            out.quote |= m(q) << (16 * k);
            out.backslash |= m(bs) << (16 * k);
            out.high |= m(v) << (16 * k);
            out.not_two |= (!m(two) & 0xffff) << (16 * k);
            // Hex digits: `0`..`9`, or `a`..`f` once lowered (`| 0x20`); signed compares,
            // so bytes from 0x80 (negative) are in neither range.
            let between = |x: __m128i, lo: u8, hi: u8| {
                _mm_and_si128(
                    _mm_cmpgt_epi8(x, _mm_set1_epi8(lo as i8 - 1)),
                    _mm_cmplt_epi8(x, _mm_set1_epi8(hi as i8 + 1)),
                )
            };
            let lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
            let hex = _mm_or_si128(between(v, b'0', b'9'), between(lower, b'a', b'f'));
            out.u |= m(eq(v, b'u')) << (16 * k);
            out.hex |= m(hex) << (16 * k);
            out.d |= m(eq(lower, b'd')) << (16 * k);
            let high_half = _mm_or_si128(between(v, b'8', b'9'), between(lower, b'a', b'b'));
            out.high_half |= m(high_half) << (16 * k);
            out.low_half |= m(between(lower, b'c', b'f')) << (16 * k);
        }
    }
    out
}

/// See [`super::mask16`]: the masks of special bytes and of bytes >= 0x80 in `chunk`.
#[inline(always)]
pub(crate) fn mask16(chunk: &[u8; 16]) -> (u32, u32) {
    // SAFETY: SSE2 is always available on x86_64; the load reads the 16 bytes of `chunk`
    // (unaligned loads are allowed).
    unsafe {
        let v = _mm_loadu_si128(chunk.as_ptr() as *const __m128i);
        let q = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
        let b = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
        let c = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
        let special = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(q, b), c)) as u32;
        (special, _mm_movemask_epi8(v) as u32)
    }
}

/// See [`super::backslashes16`]: the mask of the backslashes in `chunk`.
#[inline(always)]
pub(crate) fn backslashes16(chunk: &[u8; 16]) -> u32 {
    // SAFETY: SSE2 is always available on x86_64; the load reads the 16 bytes of `chunk`
    // (unaligned loads are allowed).
    unsafe {
        let v = _mm_loadu_si128(chunk.as_ptr() as *const __m128i);
        _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8))) as u32
    }
}
