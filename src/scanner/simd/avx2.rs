//! x86_64 AVX2 kernel: 32 bytes per compare; long plain runs 256 bytes per loop turn.

use std::arch::x86_64::*;

/// The quote, backslash and control bytes (below 0x20) of `v`, the bytes that end a JSON
/// string's plain run, as a mask (bit `k`: byte `k`).
#[target_feature(enable = "avx2")]
#[inline]
fn special_bits(v: __m256i) -> u64 {
    let q = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'"' as i8));
    let b = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'\\' as i8));
    // v <= 0x1f (unsigned) exactly when min(v, 0x1f) == v.
    let c = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1f)), v);
    _mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(q, b), c)) as u32 as u64
}

/// See [`super::find_string_special`].
///
/// Two loops. While every byte so far is ASCII (base64, most text), 256 bytes per turn are
/// tested loosely: `(v ^ 0x02) < 0x21` as *signed* bytes holds exactly for a control byte, a
/// quote (0x22 ^ 0x02 = 0x20) and any byte >= 0x80, so the eight vectors of a turn take that
/// test once, on their signed minimum, and one compare with `\` each; the first 32 bytes are
/// looked at unaligned, then the loop runs on 32-byte boundaries, so no load straddles a cache
/// line. A hit hands the rest to the second loop, 64 bytes a turn, which finds the byte
/// precisely and tracks non-ASCII bytes as it goes (a non-ASCII byte alone does not end it).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn find_string_special(bytes: &[u8], from: usize) -> (usize, bool) {
    let len = bytes.len();
    let mut i = from.min(len);
    let ptr = bytes.as_ptr();
    let backslash = _mm256_set1_epi8(b'\\' as i8);
    let two = _mm256_set1_epi8(0x02);
    let loose_bound = _mm256_set1_epi8(0x21);
    let loose = |v: __m256i| -> __m256i {
        let low = _mm256_cmpgt_epi8(loose_bound, _mm256_xor_si256(v, two));
        _mm256_or_si256(low, _mm256_cmpeq_epi8(v, backslash))
    };
    // The first 32 bytes by one unaligned loose look; when they are clean the loop starts at
    // the next 32-byte boundary (at most 32 bytes on, all of them looked at).
    let clean_head = i + 32 + 256 <= len && {
        // SAFETY: `i + 288 <= len`, so the 32-byte load lies inside `bytes`.
        let head = unsafe { _mm256_loadu_si256(ptr.add(i) as *const __m256i) };
        _mm256_movemask_epi8(loose(head)) == 0
    };
    if clean_head {
        i += 32 - (ptr.wrapping_add(i) as usize & 31);
        while i + 256 <= len {
            // SAFETY: `i + 256 <= len`, so the eight 32-byte loads lie inside `bytes`; unaligned
            // loads are allowed.
            let v: [__m256i; 8] = std::array::from_fn(|k| unsafe {
                _mm256_loadu_si256(ptr.add(i + 32 * k) as *const __m256i)
            });
            let x = |k: usize| _mm256_xor_si256(v[k], two);
            let e = |k: usize| _mm256_cmpeq_epi8(v[k], backslash);
            let low = _mm256_min_epi8(
                _mm256_min_epi8(_mm256_min_epi8(x(0), x(1)), _mm256_min_epi8(x(2), x(3))),
                _mm256_min_epi8(_mm256_min_epi8(x(4), x(5)), _mm256_min_epi8(x(6), x(7))),
            );
            let slash = _mm256_or_si256(
                _mm256_or_si256(_mm256_or_si256(e(0), e(1)), _mm256_or_si256(e(2), e(3))),
                _mm256_or_si256(_mm256_or_si256(e(4), e(5)), _mm256_or_si256(e(6), e(7))),
            );
            let m = _mm256_or_si256(_mm256_cmpgt_epi8(loose_bound, low), slash);
            // A movemask and a test (two cheap ops) rather than `vptest` (slower on this loop).
            if _mm256_movemask_epi8(m) != 0 {
                // The 64-byte loop below finds the byte precisely, or carries on past non-ASCII.
                break;
            }
            i += 256;
        }
    }
    let mut high = _mm256_setzero_si256();
    while i + 64 <= len {
        // SAFETY: `i + 64 <= len`, so both 32-byte loads lie inside `bytes`; unaligned loads
        // are allowed.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(ptr.add(i) as *const __m256i),
                _mm256_loadu_si256(ptr.add(i + 32) as *const __m256i),
            )
        };
        high = _mm256_or_si256(high, _mm256_or_si256(a, b));
        let m = special_bits(a) | special_bits(b) << 32;
        if m != 0 {
            return (
                i + m.trailing_zeros() as usize,
                _mm256_movemask_epi8(high) != 0,
            );
        }
        i += 64;
    }
    while i + 32 <= len {
        // SAFETY: `i + 32 <= len`, so the load lies inside `bytes`.
        let a = unsafe { _mm256_loadu_si256(ptr.add(i) as *const __m256i) };
        high = _mm256_or_si256(high, a);
        let m = special_bits(a);
        if m != 0 {
            return (
                i + m.trailing_zeros() as usize,
                _mm256_movemask_epi8(high) != 0,
            );
        }
        i += 32;
    }
    let seen = _mm256_movemask_epi8(high) != 0;
    let (end, tail) = super::scalar::find_string_special(bytes, i);
    (end, seen | tail)
}

/// See [`super::copy::copy_string_run`]: 64 bytes a turn (loaded, stored, and tested in
/// registers) until the first special byte, then the rest by `copy_nonoverlapping`.
///
/// # Safety
/// The CPU must support AVX2, and `dst.len() == src.len()`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn copy_string_run(
    src: &[u8],
    dst: &mut [std::mem::MaybeUninit<u8>],
) -> (usize, bool) {
    debug_assert_eq!(src.len(), dst.len());
    let n = src.len();
    let (sp, dp) = (src.as_ptr(), dst.as_mut_ptr().cast::<u8>());
    let mask = |v: __m256i| _mm256_movemask_epi8(v) as u32 as u64;
    let mut high = _mm256_setzero_si256();
    let mut i = 0;
    let mut found = None;
    while i + 64 <= n {
        // SAFETY: `i + 64 <= n`, and `src` and `dst` are both `n` bytes long: both loads and
        // both stores lie inside them; unaligned accesses are allowed.
        let (a, b) = unsafe {
            let a = _mm256_loadu_si256(sp.add(i).cast());
            let b = _mm256_loadu_si256(sp.add(i + 32).cast());
            _mm256_storeu_si256(dp.add(i).cast(), a);
            _mm256_storeu_si256(dp.add(i + 32).cast(), b);
            (a, b)
        };
        let m = special_bits(a) | special_bits(b) << 32;
        if m != 0 {
            let k = m.trailing_zeros();
            // The sign bit of each byte is set exactly for the bytes >= 0x80.
            let before = (mask(a) | mask(b) << 32) & ((1u64 << k) - 1) != 0;
            found = Some((i + k as usize, before || mask(high) != 0));
            i += 64;
            break;
        }
        high = _mm256_or_si256(high, _mm256_or_si256(a, b));
        i += 64;
    }
    // SAFETY: `i <= n`; the rest of `src` goes to the rest of `dst`, as long, and the two do
    // not overlap (`dst` is `&mut`, so it overlaps nothing `src` covers).
    unsafe { std::ptr::copy_nonoverlapping(sp.add(i), dp.add(i), n - i) };
    if let Some(hit) = found {
        return hit;
    }
    let (end, tail) = super::scalar::find_string_special(src, i);
    (end, mask(high) != 0 || tail)
}

/// See [`super::special_mask`].
///
/// # Safety
/// The CPU must support AVX2, and `at + 64 <= bytes.len()`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn special_mask(bytes: &[u8], at: usize) -> (u64, u64) {
    debug_assert!(at + 64 <= bytes.len());
    // SAFETY: the caller guarantees `at + 64 <= bytes.len()`, so both 32-byte loads lie inside
    // `bytes`; unaligned loads are allowed.
    let (a, b) = unsafe {
        let ptr = bytes.as_ptr().add(at);
        (
            _mm256_loadu_si256(ptr as *const __m256i),
            _mm256_loadu_si256(ptr.add(32) as *const __m256i),
        )
    };
    let mask = special_bits(a) | special_bits(b) << 32;
    // The sign bit of each byte is set exactly for the bytes >= 0x80.
    let high =
        (_mm256_movemask_epi8(a) as u32 as u64) | ((_mm256_movemask_epi8(b) as u32 as u64) << 32);
    (mask, high)
}

/// See [`super::string_masks`]. The two-byte escape characters by two table looks (the
/// byte's low and its high nibble each pick a set of classes; a byte is one of the eight
/// exactly when the two sets meet), so a vector costs about a dozen operations.
///
/// # Safety
/// The CPU must support AVX2, and `at + 64 <= bytes.len()`.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn string_masks(bytes: &[u8], at: usize) -> super::Masks {
    debug_assert!(at + 64 <= bytes.len());
    let quote = _mm256_set1_epi8(b'"' as i8);
    let backslash = _mm256_set1_epi8(b'\\' as i8);
    let ctrl_max = _mm256_set1_epi8(0x1f);
    let nibble = _mm256_set1_epi8(0x0f);
    // Classes: 1 = high nibble 2 (`"`, `/`), 2 = 5 (`\`), 4 = 6 (`b`, `f`, `n`), 8 = 7
    // (`r`, `t`). By low nibble: 2 -> `"`, `b`, `r`; 4 -> `t`; 6 -> `f`; C -> `\`; E -> `n`;
    // F -> `/`. A byte >= 0x80 has its top bit set, which makes the low look give 0.
    let low_table = _mm256_setr_epi8(
        0, 0, 13, 0, 8, 0, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1, 0, 0, 13, 0, 8, 0, 4, 0, 0, 0, 0, 0, 2, 0,
        4, 1,
    );
    let high_table = _mm256_setr_epi8(
        0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0,
        0, 0,
    );
    // SAFETY: the caller guarantees `at + 64 <= bytes.len()`, so both 32-byte loads lie inside
    // `bytes`; unaligned loads are allowed.
    let (a, b) = unsafe {
        let ptr = bytes.as_ptr().add(at);
        (
            _mm256_loadu_si256(ptr as *const __m256i),
            _mm256_loadu_si256(ptr.add(32) as *const __m256i),
        )
    };
    let between = |x: __m256i, lo: u8, hi: u8| {
        _mm256_and_si256(
            _mm256_cmpgt_epi8(x, _mm256_set1_epi8(lo as i8 - 1)),
            _mm256_cmpgt_epi8(_mm256_set1_epi8(hi as i8 + 1), x),
        )
    };
    let case = _mm256_set1_epi8(0x20);
    // `u`, hex digits, `d`/`D` (signed compares: bytes from 0x80 are in no range).
    let unicode = |v: __m256i| -> (u64, u64, u64, u64, u64) {
        let lower = _mm256_or_si256(v, case);
        let hex = _mm256_or_si256(between(v, b'0', b'9'), between(lower, b'a', b'f'));
        let high_half = _mm256_or_si256(between(v, b'8', b'9'), between(lower, b'a', b'b'));
        let m = |x: __m256i| _mm256_movemask_epi8(x) as u32 as u64;
        (
            m(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'u' as i8))),
            m(hex),
            m(_mm256_cmpeq_epi8(lower, _mm256_set1_epi8(b'd' as i8))),
            m(high_half),
            m(between(lower, b'c', b'f')),
        )
    };
    let quotes = |v: __m256i| _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, quote)) as u32 as u64;
    let masks = |v: __m256i| -> (u64, u64, u64, u64) {
        let q = _mm256_cmpeq_epi8(v, quote);
        let c = _mm256_cmpeq_epi8(_mm256_min_epu8(v, ctrl_max), v);
        let bs = _mm256_cmpeq_epi8(v, backslash);
        let low = _mm256_shuffle_epi8(low_table, v);
        let high = _mm256_shuffle_epi8(
            high_table,
            _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble),
        );
        let not_two = _mm256_cmpeq_epi8(_mm256_and_si256(low, high), _mm256_setzero_si256());
        let m = |x: __m256i| _mm256_movemask_epi8(x) as u32 as u64;
        (m(_mm256_or_si256(q, c)), m(bs), m(v), m(not_two))
    };
    let (e0, b0, h0, n0) = masks(a);
    let (e1, b1, h1, n1) = masks(b);
    let (u0, x0, d0, hh0, lh0) = unicode(a);
    let (u1, x1, d1, hh1, lh1) = unicode(b);
    super::Masks {
        ends: e0 | (e1 << 32),
        quote: quotes(a) | (quotes(b) << 32),
        backslash: b0 | (b1 << 32),
        high: h0 | (h1 << 32),
        not_two: n0 | (n1 << 32),
        u: u0 | (u1 << 32),
        hex: x0 | (x1 << 32),
        d: d0 | (d1 << 32),
        high_half: hh0 | (hh1 << 32),
        low_half: lh0 | (lh1 << 32),
    }
}

/// See [`super::blocks_by_mask`]: the loop compiled for AVX2, [`string_masks`] inlined.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn blocks_by_mask(
    bytes: &[u8],
    pos: usize,
    escaped: &mut bool,
    non_ascii: &mut bool,
) -> Result<usize, usize> {
    super::blocks_by_mask_with(bytes, pos, escaped, non_ascii, |b, at| {
        // SAFETY: AVX2 is enabled in this function, and the block lies within `b`.
        (at + 64 <= b.len()).then(|| unsafe { string_masks(b, at) })
    })
}

/// See [`super::find_line_end`].
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn find_line_end(bytes: &[u8], from: usize) -> Option<usize> {
    let len = bytes.len();
    let mut i = from;
    let ptr = bytes.as_ptr();
    let lf = _mm256_set1_epi8(b'\n' as i8);
    let cr = _mm256_set1_epi8(b'\r' as i8);
    let ends = |v: __m256i| {
        _mm256_movemask_epi8(_mm256_or_si256(
            _mm256_cmpeq_epi8(v, lf),
            _mm256_cmpeq_epi8(v, cr),
        )) as u32
    };
    while i + 32 <= len {
        // SAFETY: `i + 32 <= len`, so the load lies inside `bytes`; unaligned loads are allowed.
        let m = ends(unsafe { _mm256_loadu_si256(ptr.add(i) as *const __m256i) });
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize);
        }
        i += 32;
    }
    if i < len && len >= 32 {
        // The input's last 32 bytes, those before `i` already known to hold no line end.
        let base = len - 32;
        // SAFETY: `base + 32 == len`.
        let m = ends(unsafe { _mm256_loadu_si256(ptr.add(base) as *const __m256i) }) >> (i - base);
        return (m != 0).then(|| i + m.trailing_zeros() as usize);
    }
    super::scalar::find_line_end(bytes, i)
}

/// The constant vectors of [`utf8_errors`], made once per string.
#[derive(Clone, Copy)]
struct Utf8Tables {
    prev_high: __m256i,
    prev_low: __m256i,
    high: __m256i,
}

impl Utf8Tables {
    #[target_feature(enable = "avx2")]
    #[inline]
    fn new() -> Utf8Tables {
        use super::utf8_tables::{HIGH, PREV_HIGH, PREV_LOW};
        // SAFETY: each load reads the first 32 bytes of a 64-byte table.
        let at = |t: &[u8; 64]| unsafe { _mm256_loadu_si256(t.as_ptr().cast()) };
        Utf8Tables {
            prev_high: at(&PREV_HIGH),
            prev_low: at(&PREV_LOW),
            high: at(&HIGH),
        }
    }
}

/// The UTF-8 errors of the 32 bytes `cur`, which follow the 32 bytes `prev` (zeros before a
/// text's first bytes): a non-zero byte where a byte breaks a sequence, by table lookups (no
/// branch). A sequence cut by the end of `cur` is judged with the bytes that follow it.
#[target_feature(enable = "avx2")]
#[inline]
fn utf8_errors(t: &Utf8Tables, cur: __m256i, prev: __m256i) -> __m256i {
    let nibble = _mm256_set1_epi8(0x0F);
    // `prev`'s high lane then `cur`'s low one: each byte `k` back is then a shift within
    // lanes.
    let lane_back = _mm256_permute2x128_si256::<0x21>(prev, cur);
    let prev1 = _mm256_alignr_epi8::<15>(cur, lane_back);
    let prev2 = _mm256_alignr_epi8::<14>(cur, lane_back);
    let prev3 = _mm256_alignr_epi8::<13>(cur, lane_back);
    let classes = _mm256_and_si256(
        _mm256_and_si256(
            _mm256_shuffle_epi8(
                t.prev_high,
                _mm256_and_si256(_mm256_srli_epi16::<4>(prev1), nibble),
            ),
            _mm256_shuffle_epi8(t.prev_low, _mm256_and_si256(prev1, nibble)),
        ),
        _mm256_shuffle_epi8(
            t.high,
            _mm256_and_si256(_mm256_srli_epi16::<4>(cur), nibble),
        ),
    );
    // 0x80 where the byte must be a sequence's third or fourth (two continuations in a row
    // are right exactly there).
    let third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((0xE0u8 - 0x80) as i8));
    let fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((0xF0u8 - 0x80) as i8));
    let tail = _mm256_and_si256(
        _mm256_or_si256(third, fourth),
        _mm256_set1_epi8(0x80u8 as i8),
    );
    _mm256_xor_si256(tail, classes)
}

/// Whether `bytes[start..end]` is valid UTF-8 (RFC 3629, as `std::str::from_utf8`), by 32-byte
/// chunks checked by table lookups ([`utf8_errors`]) with no branch but the loop's: a string's
/// non-ASCII characters cost the same whatever they are, where a check that steps over ASCII
/// chunks (as `simdutf8` does) branches on the text, and mixed-script text makes it miss.
/// The last bytes: from 64 bytes on, the 32 that end the range, checked again after the 32
/// before them (a byte's verdict depends only on it and the three before it, so bytes
/// checked twice get the same one); below, a copy followed by zeros. Then one chunk of zeros,
/// so a sequence cut by `end` is an error. Nothing outside the range is read.
///
/// # Safety
/// The CPU must support AVX2; `start <= end <= bytes.len()`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn valid_utf8(bytes: &[u8], start: usize, end: usize) -> bool {
    debug_assert!(start <= end && end <= bytes.len());
    let len = end - start;
    // SAFETY: `start <= bytes.len()`, so the pointer is inside `bytes` or one past its end.
    let base = unsafe { bytes.as_ptr().add(start) };
    let t = Utf8Tables::new();
    let zero = _mm256_setzero_si256();
    let (mut prev, mut error) = (zero, zero);
    let mut i = 0;
    while i + 32 <= len {
        // SAFETY: bytes `i .. i + 32` of the range, inside `bytes`; unaligned loads allowed.
        let cur = unsafe { _mm256_loadu_si256(base.add(i).cast()) };
        error = _mm256_or_si256(error, utf8_errors(&t, cur, prev));
        prev = cur;
        i += 32;
    }
    if i < len {
        if len >= 64 {
            // SAFETY: bytes `len - 64 .. len` of the range, inside `bytes`.
            let (before, last) = unsafe {
                (
                    _mm256_loadu_si256(base.add(len - 64).cast()),
                    _mm256_loadu_si256(base.add(len - 32).cast()),
                )
            };
            error = _mm256_or_si256(error, utf8_errors(&t, last, before));
            prev = last;
        } else {
            let mut copy = [0u8; 32];
            // SAFETY: the `len - i < 32` bytes from `base + i` end at `end`, inside `bytes`;
            // `copy` has room for them and is a different place.
            unsafe { std::ptr::copy_nonoverlapping(base.add(i), copy.as_mut_ptr(), len - i) };
            // SAFETY: the 32 bytes of `copy`.
            let cur = unsafe { _mm256_loadu_si256(copy.as_ptr().cast()) };
            error = _mm256_or_si256(error, utf8_errors(&t, cur, prev));
            prev = cur;
        }
    }
    error = _mm256_or_si256(error, utf8_errors(&t, zero, prev));
    _mm256_testz_si256(error, error) == 1
}
