//! AVX2 kernel: 32 characters per step. The scheme is explained in `super` (the tables).
//!
//! Every function here is `#[target_feature(enable = "avx2")]`; the dispatcher in `super`
//! calls them only once runtime detection has found AVX2.

use core::arch::x86_64::*;

use super::{LUT_HI, LUT_LO, LUT_ROLL};

/// The constant vectors, built once per call.
struct Tables {
    lo: __m256i,
    hi: __m256i,
    roll: __m256i,
    nibble: __m256i,
    slash: __m256i,
    pair: __m256i,
    quad: __m256i,
    gather: __m256i,
    lanes: __m256i,
}

/// A 16-byte table repeated in both 128-bit lanes (`pshufb` looks up within a lane).
#[inline]
#[target_feature(enable = "avx2")]
fn broadcast(table: &[u8; 16]) -> __m256i {
    // SAFETY: reads the 16 bytes of `table`; `loadu` has no alignment requirement.
    let v = unsafe { _mm_loadu_si128(table.as_ptr().cast()) };
    _mm256_broadcastsi128_si256(v)
}

#[inline]
#[target_feature(enable = "avx2")]
fn tables() -> Tables {
    Tables {
        lo: broadcast(&LUT_LO),
        hi: broadcast(&LUT_HI),
        roll: broadcast(&LUT_ROLL),
        nibble: _mm256_set1_epi8(0x0F),
        slash: _mm256_set1_epi8(b'/' as i8),
        // pmaddubsw weights (64, 1): a*64 + b in each 16-bit lane.
        pair: _mm256_set1_epi32(0x0140_0140),
        // pmaddwd weights (4096, 1): (a*64+b)*4096 + (c*64+d) in each 32-bit lane.
        quad: _mm256_set1_epi32(0x0001_1000),
        // Bytes 2, 1, 0 of each 32-bit lane, to the front of each 128-bit lane.
        gather: _mm256_setr_epi8(
            2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, //
            2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
        ),
        // The 12 useful bytes of each lane side by side: 24 bytes at the front.
        lanes: _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7),
    }
}

/// Nonzero bytes where the input byte is not in the standard alphabet.
#[inline]
#[target_feature(enable = "avx2")]
fn bad_bits(t: &Tables, input: __m256i) -> __m256i {
    let hi_nib = _mm256_and_si256(_mm256_srli_epi32::<4>(input), t.nibble);
    let lo_nib = _mm256_and_si256(input, t.nibble);
    let lo = _mm256_shuffle_epi8(t.lo, lo_nib);
    let hi = _mm256_shuffle_epi8(t.hi, hi_nib);
    _mm256_and_si256(lo, hi)
}

/// 6-bit values of 32 valid characters, packed into 24 bytes at the front of the result.
#[inline]
#[target_feature(enable = "avx2")]
fn translate_pack(t: &Tables, input: __m256i) -> __m256i {
    let hi_nib = _mm256_and_si256(_mm256_srli_epi32::<4>(input), t.nibble);
    let is_slash = _mm256_cmpeq_epi8(input, t.slash);
    let roll = _mm256_shuffle_epi8(t.roll, _mm256_add_epi8(is_slash, hi_nib));
    let values = _mm256_add_epi8(input, roll);
    let pairs = _mm256_maddubs_epi16(values, t.pair);
    let quads = _mm256_madd_epi16(pairs, t.quad);
    let bytes = _mm256_shuffle_epi8(quads, t.gather);
    _mm256_permutevar8x32_epi32(bytes, t.lanes)
}

/// Loads 32 bytes at `src[at..]`.
///
/// # Safety
/// `at + 32 <= src.len()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load(src: &[u8], at: usize) -> __m256i {
    debug_assert!(at + 32 <= src.len());
    // SAFETY: the caller guarantees 32 readable bytes at `at`; `loadu` is unaligned.
    unsafe { _mm256_loadu_si256(src.as_ptr().add(at).cast()) }
}

/// Stores 32 bytes at `dst[at..]`.
///
/// # Safety
/// `at + 32 <= dst.len()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store(dst: &mut [u8], at: usize, v: __m256i) {
    debug_assert!(at + 32 <= dst.len());
    // SAFETY: the caller guarantees 32 writable bytes at `at`; `storeu` is unaligned.
    unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(at).cast(), v) }
}

/// See `super::decode`.
#[target_feature(enable = "avx2")]
pub(super) fn decode(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let t = tables();
    let mut r = 0;
    let mut w = 0;
    // Two blocks per step; both stores are full 32-byte stores, the second one starting
    // 24 bytes after the first, so 56 bytes of room are needed.
    while src.len() - r >= 64 && dst.len() - w >= 56 {
        // SAFETY: `r + 64 <= src.len()` by the loop condition.
        let (a, b) = unsafe { (load(src, r), load(src, r + 32)) };
        let bad = _mm256_or_si256(bad_bits(&t, a), bad_bits(&t, b));
        if _mm256_testz_si256(bad, bad) == 0 {
            break;
        }
        // SAFETY: `w + 56 <= dst.len()` by the loop condition.
        unsafe {
            store(dst, w, translate_pack(&t, a));
            store(dst, w + 24, translate_pack(&t, b));
        }
        r += 64;
        w += 48;
    }
    while src.len() - r >= 32 && dst.len() - w >= 24 {
        // SAFETY: `r + 32 <= src.len()` by the loop condition.
        let a = unsafe { load(src, r) };
        let bad = bad_bits(&t, a);
        if _mm256_testz_si256(bad, bad) == 0 {
            break;
        }
        let out = translate_pack(&t, a);
        if dst.len() - w >= 32 {
            // SAFETY: `w + 32 <= dst.len()` was just checked.
            unsafe { store(dst, w, out) };
        } else {
            let mut tmp = [0u8; 32];
            // SAFETY: `tmp` has 32 bytes.
            unsafe { store(&mut tmp, 0, out) };
            if let (Some(d), Some(s)) = (dst.get_mut(w..w + 24), tmp.get(..24)) {
                d.copy_from_slice(s);
            }
        }
        r += 32;
        w += 24;
    }
    (r, w)
}

/// See `super::validate`.
#[target_feature(enable = "avx2")]
pub(super) fn validate(src: &[u8]) -> usize {
    let t = tables();
    let mut r = 0;
    while src.len() - r >= 128 {
        // SAFETY: `r + 128 <= src.len()` by the loop condition.
        let (a, b, c, d) = unsafe {
            (
                load(src, r),
                load(src, r + 32),
                load(src, r + 64),
                load(src, r + 96),
            )
        };
        let bad = _mm256_or_si256(
            _mm256_or_si256(bad_bits(&t, a), bad_bits(&t, b)),
            _mm256_or_si256(bad_bits(&t, c), bad_bits(&t, d)),
        );
        if _mm256_testz_si256(bad, bad) == 0 {
            break;
        }
        r += 128;
    }
    while src.len() - r >= 32 {
        // SAFETY: `r + 32 <= src.len()` by the loop condition.
        let a = unsafe { load(src, r) };
        let bad = bad_bits(&t, a);
        if _mm256_testz_si256(bad, bad) == 0 {
            break;
        }
        r += 32;
    }
    r
}
