//! x86_64 AVX-512 kernel for the string scanner's escape-by-mask blocks: a 64-byte block in one
//! vector, each mask straight out of a compare into a mask register (no byte-mask extraction,
//! no halves to join), the two-byte escape characters by one 128-entry `vpermi2b` lookup.
//! Chosen at run time on CPUs with AVX-512 F, BW and VBMI ([`super::level`] 3).

use std::arch::x86_64::*;

use super::utf8_tables;

/// The classes of byte `b` (below 0x80) the escape-by-mask blocks need: [`TWO`] when `\`
/// followed by `b` is a two-byte escape (`"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`), [`HEX`] for a
/// hex digit, [`D`] for `d` and `D`, [`U`] for `u`, [`HIGH_HALF`] and [`LOW_HALF`] for a
/// surrogate's second digit.
const CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let chars = *b"\"\\/bfnrt";
    let mut k = 0;
    while k < chars.len() {
        t[chars[k] as usize] |= TWO;
        k += 1;
    }
    let mut c = 0;
    while c < 128 {
        if (c as u8).is_ascii_hexdigit() {
            t[c] |= HEX;
        }
        c += 1;
    }
    t[b'd' as usize] |= D;
    t[b'D' as usize] |= D;
    t[b'u' as usize] |= U;
    let high = *b"89abAB";
    let mut k = 0;
    while k < high.len() {
        t[high[k] as usize] |= HIGH_HALF;
        k += 1;
    }
    let low = *b"cdefCDEF";
    let mut k = 0;
    while k < low.len() {
        t[low[k] as usize] |= LOW_HALF;
        k += 1;
    }
    t
};
const TWO: u8 = 1;
const HEX: u8 = 2;
const D: u8 = 4;
const U: u8 = 8;
const HIGH_HALF: u8 = 16;
const LOW_HALF: u8 = 32;

/// See [`super::string_masks`].
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VBMI, and `at + 64 <= bytes.len()`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
pub(crate) unsafe fn string_masks(bytes: &[u8], at: usize) -> super::Masks {
    debug_assert!(at + 64 <= bytes.len());
    // SAFETY: the caller guarantees `at + 64 <= bytes.len()`, so the load lies inside `bytes`
    // (unaligned loads are allowed).
    masks_of(unsafe { _mm512_loadu_si512(bytes.as_ptr().add(at).cast()) })
}

/// The [`super::Masks`] of the 64 bytes `v`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn masks_of(v: __m512i) -> super::Masks {
    // SAFETY: each table load reads 64 of `CLASS`'s 128 bytes (unaligned loads are allowed).
    let (lo, hi) = unsafe {
        (
            _mm512_loadu_si512(CLASS.as_ptr().cast()),
            _mm512_loadu_si512(CLASS.as_ptr().add(64).cast()),
        )
    };
    let high = _mm512_movepi8_mask(v);
    // The lookup takes the low seven bits, so a byte from 0x80 would read its ASCII twin's
    // entry: `high` rules those out.
    let class = _mm512_permutex2var_epi8(lo, v, hi);
    let is = |c: u8| _mm512_test_epi8_mask(class, _mm512_set1_epi8(c as i8)) & !high;
    let quote = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'"' as i8));
    super::Masks {
        ends: quote | _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x1f)),
        quote,
        backslash: _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\\' as i8)),
        high,
        not_two: !is(TWO),
        u: is(U),
        hex: is(HEX),
        d: is(D),
        high_half: is(HIGH_HALF),
        low_half: is(LOW_HALF),
    }
}

/// See [`super::blocks_by_mask`]: the loop compiled for AVX-512, [`masks_of`] inlined, and
/// each block also checked for UTF-8 ([`utf8_errors`], no branch): `utf8_ok` is set when the
/// loop found the string's end and every byte of its blocks, from `pos` (as a string's first
/// byte: what comes before counts as ASCII) to the end of the last, is valid UTF-8, so the
/// string needs no check of its own. (Bytes after the closing quote in the last block are
/// checked too: where those are invalid, the string is checked alone, as without this.)
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VBMI, BMI1 and BMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,bmi1,bmi2,popcnt")]
pub(crate) unsafe fn blocks_by_mask(
    bytes: &[u8],
    pos: usize,
    escaped: &mut bool,
    non_ascii: &mut bool,
    utf8_ok: &mut bool,
) -> Result<usize, usize> {
    let t = Utf8Tables::new();
    let mut prev = _mm512_setzero_si512();
    let mut error = _mm512_setzero_si512();
    let found = super::blocks_by_mask_with(bytes, pos, escaped, non_ascii, |b, at| {
        (at + 64 <= b.len()).then(|| {
            // SAFETY: `at + 64 <= b.len()`, so the load lies inside `b` (unaligned loads are
            // allowed); the features are enabled in this function.
            let v = unsafe { _mm512_loadu_si512(b.as_ptr().add(at).cast()) };
            error = _mm512_or_si512(error, utf8_errors(&t, v, prev));
            prev = v;
            masks_of(v)
        })
    });
    *utf8_ok = found.is_ok() && _mm512_test_epi8_mask(error, error) == 0;
    found
}

/// The constant vectors of [`utf8_errors`], loaded once per string.
#[derive(Clone, Copy)]
struct Utf8Tables {
    prev_high: __m512i,
    prev_low: __m512i,
    high: __m512i,
    lane_back: __m512i,
}

impl Utf8Tables {
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn new() -> Utf8Tables {
        // SAFETY: each load reads the 64 bytes of one of the constant tables.
        unsafe {
            let at = |t: &[u8; 64]| _mm512_loadu_si512(t.as_ptr().cast());
            Utf8Tables {
                prev_high: at(&utf8_tables::PREV_HIGH),
                prev_low: at(&utf8_tables::PREV_LOW),
                high: at(&utf8_tables::HIGH),
                // Quadwords 6 and 7 of the previous chunk (index bit 3 clear), then 0 to 5 of
                // this one.
                lane_back: _mm512_set_epi64(13, 12, 11, 10, 9, 8, 7, 6),
            }
        }
    }
}

/// The UTF-8 errors of the 64 bytes `cur`, which follow the 64 bytes `prev` (zeros before a
/// text's first bytes): a non-zero byte where a byte breaks a sequence, by table lookups (no
/// branch). A sequence cut by the end of `cur` is judged with the bytes that follow it.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn utf8_errors(t: &Utf8Tables, cur: __m512i, prev: __m512i) -> __m512i {
    let nibble = _mm512_set1_epi8(0x0F);
    // The vector one 16-byte lane back (the previous chunk's last lane, then `cur`'s first
    // three), one lane shuffle; each byte `k` back is then a shift within lanes.
    let lane_back = _mm512_permutex2var_epi64(prev, t.lane_back, cur);
    let prev1 = _mm512_alignr_epi8::<15>(cur, lane_back);
    let prev2 = _mm512_alignr_epi8::<14>(cur, lane_back);
    let prev3 = _mm512_alignr_epi8::<13>(cur, lane_back);
    let classes = _mm512_ternarylogic_epi32::<0x80>(
        _mm512_shuffle_epi8(
            t.prev_high,
            _mm512_and_si512(_mm512_srli_epi16(prev1, 4), nibble),
        ),
        _mm512_shuffle_epi8(t.prev_low, _mm512_and_si512(prev1, nibble)),
        _mm512_shuffle_epi8(t.high, _mm512_and_si512(_mm512_srli_epi16(cur, 4), nibble)),
    );
    // 0x80 where the byte must be a sequence's third or fourth (two continuations in a row
    // are right exactly there).
    let third = _mm512_subs_epu8(prev2, _mm512_set1_epi8((0xE0u8 - 0x80) as i8));
    let fourth = _mm512_subs_epu8(prev3, _mm512_set1_epi8((0xF0u8 - 0x80) as i8));
    let tail = _mm512_and_si512(
        _mm512_or_si512(third, fourth),
        _mm512_set1_epi8(0x80u8 as i8),
    );
    _mm512_xor_si512(tail, classes)
}

/// Whether `bytes[start..end]` is valid UTF-8 (RFC 3629, as `std::str::from_utf8`), by 64-byte
/// chunks checked by table lookups ([`utf8_errors`]) with no branch but the loop's: a string's
/// non-ASCII characters cost the same whatever they are, where a check that steps over ASCII
/// runs and reads one sequence at a time branches on the text. The last chunk is read by a
/// masked load (nothing past `end` is read; its lanes past `end` are zeros, ASCII), and one
/// chunk of zeros follows a range that ends on a chunk boundary, so a sequence cut by `end` is
/// an error.
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VBMI, and BMI2; `start <= end <= bytes.len()`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,bmi2")]
pub(crate) unsafe fn valid_utf8(bytes: &[u8], start: usize, end: usize) -> bool {
    debug_assert!(start <= end && end <= bytes.len());
    let len = end - start;
    // SAFETY: `start <= bytes.len()`, so the pointer is inside `bytes` or one past its end.
    let base = unsafe { bytes.as_ptr().add(start) };
    let t = Utf8Tables::new();
    let mut prev = _mm512_setzero_si512();
    let mut error = _mm512_setzero_si512();
    let mut i = 0;
    loop {
        let rest = len - i;
        let keep = _bzhi_u64(u64::MAX, rest.min(64) as u32);
        // SAFETY: the mask keeps only the lanes of bytes `i .. min(i + 64, len)` of the range,
        // inside `bytes`; masked-off lanes are not read (AVX-512 masked loads do not fault on
        // them) and are zero.
        let cur = unsafe { _mm512_maskz_loadu_epi8(keep, base.add(i).cast()) };
        error = _mm512_or_si512(error, utf8_errors(&t, cur, prev));
        prev = cur;
        if rest < 64 {
            break;
        }
        i += 64;
    }
    _mm512_test_epi8_mask(error, error) == 0
}
