//! x86_64 AVX-512 kernel for the string scanner's escape-by-mask blocks: a 64-byte block in one
//! vector, each mask straight out of a compare into a mask register (no byte-mask extraction,
//! no halves to join), the two-byte escape characters by one 128-entry `vpermi2b` lookup.
//! Chosen at run time on CPUs with AVX-512 F, BW and VBMI ([`super::level`] 3).

use std::arch::x86_64::*;

/// Byte `b` (below 0x80) is 1 when `\` followed by `b` is a two-byte escape: `"`, `\`, `/`,
/// `b`, `f`, `n`, `r`, `t`.
const TWO_BYTE: [u8; 128] = {
    let mut t = [0u8; 128];
    let chars = *b"\"\\/bfnrt";
    let mut k = 0;
    while k < chars.len() {
        t[chars[k] as usize] = 1;
        k += 1;
    }
    t
};

/// See [`super::string_masks`].
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VBMI, and `at + 64 <= bytes.len()`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
pub(crate) unsafe fn string_masks(bytes: &[u8], at: usize) -> super::Masks {
    debug_assert!(at + 64 <= bytes.len());
    // SAFETY: the caller guarantees `at + 64 <= bytes.len()`, so the load lies inside
    // `bytes`; each table load reads 64 of `TWO_BYTE`'s 128 bytes. Unaligned loads are allowed.
    let (v, lo, hi) = unsafe {
        (
            _mm512_loadu_si512(bytes.as_ptr().add(at).cast()),
            _mm512_loadu_si512(TWO_BYTE.as_ptr().cast()),
            _mm512_loadu_si512(TWO_BYTE.as_ptr().add(64).cast()),
        )
    };
    let high = _mm512_movepi8_mask(v);
    // The lookup takes the low seven bits, so a byte from 0x80 would read its ASCII twin's
    // entry: `high` rules those out.
    let two = _mm512_permutex2var_epi8(lo, v, hi);
    let two = _mm512_test_epi8_mask(two, two) & !high;
    super::Masks {
        ends: _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'"' as i8))
            | _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x1f)),
        backslash: _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\\' as i8)),
        high,
        not_two: !two,
    }
}

/// See [`super::blocks_by_mask`]: the loop compiled for AVX-512, [`string_masks`] inlined.
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VBMI, BMI1 and BMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,bmi1,bmi2,popcnt")]
pub(crate) unsafe fn blocks_by_mask(
    bytes: &[u8],
    pos: usize,
    escaped: &mut bool,
    non_ascii: &mut bool,
) -> Result<usize, usize> {
    super::blocks_by_mask_with(bytes, pos, escaped, non_ascii, |b, at| {
        // SAFETY: the features are enabled in this function, and the block lies within `b`.
        (at + 64 <= b.len()).then(|| unsafe { string_masks(b, at) })
    })
}
