//! SSSE3 kernel: 16 characters per step, for x86_64 CPUs without AVX2. Same scheme as the
//! AVX2 one (see the tables in `super`), on 128-bit vectors.
//!
//! Every function here is `#[target_feature(enable = "ssse3")]`; the dispatcher in `super`
//! calls them only once runtime detection has found SSSE3.

use core::arch::x86_64::*;

use super::{LUT_HI, LUT_LO, LUT_ROLL};

struct Tables {
    lo: __m128i,
    hi: __m128i,
    roll: __m128i,
    nibble: __m128i,
    slash: __m128i,
    pair: __m128i,
    quad: __m128i,
    gather: __m128i,
}

#[inline]
#[target_feature(enable = "ssse3")]
fn table(t: &[u8; 16]) -> __m128i {
    // SAFETY: reads the 16 bytes of `t`; `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(t.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "ssse3")]
fn tables() -> Tables {
    Tables {
        lo: table(&LUT_LO),
        hi: table(&LUT_HI),
        roll: table(&LUT_ROLL),
        nibble: _mm_set1_epi8(0x0F),
        slash: _mm_set1_epi8(b'/' as i8),
        pair: _mm_set1_epi32(0x0140_0140),
        quad: _mm_set1_epi32(0x0001_1000),
        gather: _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1),
    }
}

/// Whether all 16 bytes are in the standard alphabet.
#[inline]
#[target_feature(enable = "ssse3")]
fn all_valid(t: &Tables, input: __m128i) -> bool {
    let hi_nib = _mm_and_si128(_mm_srli_epi32::<4>(input), t.nibble);
    let lo_nib = _mm_and_si128(input, t.nibble);
    let bad = _mm_and_si128(
        _mm_shuffle_epi8(t.lo, lo_nib),
        _mm_shuffle_epi8(t.hi, hi_nib),
    );
    _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) == 0xFFFF
}

/// 6-bit values of 16 valid characters, packed into 12 bytes at the front of the result.
#[inline]
#[target_feature(enable = "ssse3")]
fn translate_pack(t: &Tables, input: __m128i) -> __m128i {
    let hi_nib = _mm_and_si128(_mm_srli_epi32::<4>(input), t.nibble);
    let is_slash = _mm_cmpeq_epi8(input, t.slash);
    let roll = _mm_shuffle_epi8(t.roll, _mm_add_epi8(is_slash, hi_nib));
    let values = _mm_add_epi8(input, roll);
    let pairs = _mm_maddubs_epi16(values, t.pair);
    let quads = _mm_madd_epi16(pairs, t.quad);
    _mm_shuffle_epi8(quads, t.gather)
}

/// See `super::decode`.
#[target_feature(enable = "ssse3")]
pub(super) fn decode(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let t = tables();
    let mut r = 0;
    let mut w = 0;
    while src.len() - r >= 16 && dst.len() - w >= 12 {
        // SAFETY: `r + 16 <= src.len()` by the loop condition; `loadu` is unaligned.
        let a = unsafe { _mm_loadu_si128(src.as_ptr().add(r).cast()) };
        if !all_valid(&t, a) {
            break;
        }
        let out = translate_pack(&t, a);
        if dst.len() - w >= 16 {
            // SAFETY: `w + 16 <= dst.len()` was just checked; `storeu` is unaligned.
            unsafe { _mm_storeu_si128(dst.as_mut_ptr().add(w).cast(), out) };
        } else {
            let mut tmp = [0u8; 16];
            // SAFETY: `tmp` has 16 writable bytes.
            unsafe { _mm_storeu_si128(tmp.as_mut_ptr().cast(), out) };
            if let (Some(d), Some(s)) = (dst.get_mut(w..w + 12), tmp.get(..12)) {
                d.copy_from_slice(s);
            }
        }
        r += 16;
        w += 12;
    }
    (r, w)
}

/// See `super::validate`.
#[target_feature(enable = "ssse3")]
pub(super) fn validate(src: &[u8]) -> usize {
    let t = tables();
    let mut r = 0;
    while src.len() - r >= 16 {
        // SAFETY: `r + 16 <= src.len()` by the loop condition; `loadu` is unaligned.
        let a = unsafe { _mm_loadu_si128(src.as_ptr().add(r).cast()) };
        if !all_valid(&t, a) {
            break;
        }
        r += 16;
    }
    r
}
