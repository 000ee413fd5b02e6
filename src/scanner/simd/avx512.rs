//! x86_64 AVX-512 kernel for the string scanner's escape-by-mask blocks: a 64-byte block in one
//! vector, each mask straight out of a compare into a mask register (no byte-mask extraction,
//! no halves to join), the two-byte escape characters by one 128-entry `vpermi2b` lookup.
//! Chosen at run time on CPUs with AVX-512 F, BW and VBMI ([`super::level`] 3).

use std::arch::x86_64::*;

/// The classes of byte `b` (below 0x80) the escape-by-mask blocks need: [`TWO`] when `\`
/// followed by `b` is a two-byte escape (`"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`), [`HEX`] for a
/// hex digit, [`D`] for `d` and `D`, [`U`] for `u`.
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
    t
};
const TWO: u8 = 1;
const HEX: u8 = 2;
const D: u8 = 4;
const U: u8 = 8;

/// See [`super::string_masks`].
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VBMI, and `at + 64 <= bytes.len()`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
pub(crate) unsafe fn string_masks(bytes: &[u8], at: usize) -> super::Masks {
    debug_assert!(at + 64 <= bytes.len());
    // SAFETY: the caller guarantees `at + 64 <= bytes.len()`, so the load lies inside
    // `bytes`; each table load reads 64 of `CLASS`'s 128 bytes. Unaligned loads are allowed.
    let (v, lo, hi) = unsafe {
        (
            _mm512_loadu_si512(bytes.as_ptr().add(at).cast()),
            _mm512_loadu_si512(CLASS.as_ptr().cast()),
            _mm512_loadu_si512(CLASS.as_ptr().add(64).cast()),
        )
    };
    let high = _mm512_movepi8_mask(v);
    // The lookup takes the low seven bits, so a byte from 0x80 would read its ASCII twin's
    // entry: `high` rules those out.
    let class = _mm512_permutex2var_epi8(lo, v, hi);
    let is = |c: u8| _mm512_test_epi8_mask(class, _mm512_set1_epi8(c as i8)) & !high;
    super::Masks {
        ends: _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'"' as i8))
            | _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x1f)),
        backslash: _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\\' as i8)),
        high,
        not_two: !is(TWO),
        u: is(U),
        hex: is(HEX),
        d: is(D),
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

/// The error classes of the UTF-8 check by table lookups (Keiser and Lemire, "Validating UTF-8
/// in less than one instruction per byte", 2021): each table marks the classes a byte's high or
/// low nibble may belong to, and a byte pair is wrong when all three agree on a class.
mod utf8_classes {
    /// A lead byte not followed by a continuation.
    pub(super) const TOO_SHORT: u8 = 1 << 0;
    /// A continuation not after a lead byte or another continuation.
    pub(super) const TOO_LONG: u8 = 1 << 1;
    /// E0 followed by 80..9F.
    pub(super) const OVERLONG_3: u8 = 1 << 2;
    /// F4 followed by 90..BF, or F5..FF.
    pub(super) const TOO_LARGE: u8 = 1 << 3;
    /// ED followed by A0..BF.
    pub(super) const SURROGATE: u8 = 1 << 4;
    /// C0 or C1.
    pub(super) const OVERLONG_2: u8 = 1 << 5;
    /// F5..FF followed by 80..8F (with `TOO_LARGE`), F0 followed by 80..8F (with `OVERLONG_4`).
    pub(super) const TOO_LARGE_1000: u8 = 1 << 6;
    pub(super) const OVERLONG_4: u8 = 1 << 6;
    /// Two continuations in a row: right only as a three- or four-byte sequence's tail, which
    /// the check of the bytes two and three back settles.
    pub(super) const TWO_CONTS: u8 = 1 << 7;
    pub(super) const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;
}

/// A 16-entry table repeated in the four lanes of a vector (`vpshufb` looks up in its lane).
const fn lanes(t: [u8; 16]) -> [u8; 64] {
    let mut v = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        v[i] = t[i % 16];
        i += 1;
    }
    v
}

/// The classes of the previous byte's high nibble.
const PREV_HIGH: [u8; 64] = {
    use utf8_classes::*;
    lanes([
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TWO_CONTS,
        TWO_CONTS,
        TWO_CONTS,
        TWO_CONTS,
        TOO_SHORT | OVERLONG_2,
        TOO_SHORT,
        TOO_SHORT | OVERLONG_3 | SURROGATE,
        TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
    ])
};

/// The classes of the previous byte's low nibble.
const PREV_LOW: [u8; 64] = {
    use utf8_classes::*;
    lanes([
        CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
        CARRY | OVERLONG_2,
        CARRY,
        CARRY,
        CARRY | TOO_LARGE,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
    ])
};

/// The classes of the byte's own high nibble.
const HIGH: [u8; 64] = {
    use utf8_classes::*;
    lanes([
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
    ])
};

/// `vpermt2b` indices taking each lane's byte `k` back: lane `j` gets the chunk's byte
/// `j - k`, or for `j < k` the previous chunk's byte `64 + j - k` (index bit 6 picks the
/// second table).
const fn back_across(k: usize) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        t[j] = if j >= k {
            (j - k) as u8
        } else {
            (64 + 64 + j - k) as u8
        };
        j += 1;
    }
    t
}
const UTF8_BACK1: [u8; 64] = back_across(1);
const UTF8_BACK2: [u8; 64] = back_across(2);
const UTF8_BACK3: [u8; 64] = back_across(3);

/// Whether `bytes[start..end]` is valid UTF-8 (RFC 3629, as `std::str::from_utf8`), by 64-byte
/// chunks checked by table lookups with no branch but the loop's: a string's non-ASCII
/// characters cost the same whatever they are, where a check that steps over ASCII runs and
/// reads one sequence at a time branches on the text. The last chunk is read by a masked load
/// (nothing past `end` is read; its lanes past `end` are zeros, ASCII), and one chunk of zeros
/// follows a range that ends on a chunk boundary, so a sequence cut by `end` is an error.
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VBMI, and BMI2; `start <= end <= bytes.len()`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,bmi2")]
pub(crate) unsafe fn valid_utf8(bytes: &[u8], start: usize, end: usize) -> bool {
    debug_assert!(start <= end && end <= bytes.len());
    let len = end - start;
    // SAFETY: `start <= bytes.len()`, so the pointer is inside `bytes` or one past its end.
    let base = unsafe { bytes.as_ptr().add(start) };
    // SAFETY: each load reads the 64 bytes of one of the constant tables.
    let (prev_high, prev_low, high, back1, back2, back3) = unsafe {
        (
            _mm512_loadu_si512(PREV_HIGH.as_ptr().cast()),
            _mm512_loadu_si512(PREV_LOW.as_ptr().cast()),
            _mm512_loadu_si512(HIGH.as_ptr().cast()),
            _mm512_loadu_si512(UTF8_BACK1.as_ptr().cast()),
            _mm512_loadu_si512(UTF8_BACK2.as_ptr().cast()),
            _mm512_loadu_si512(UTF8_BACK3.as_ptr().cast()),
        )
    };
    let nibble = _mm512_set1_epi8(0x0F);
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
        let prev1 = _mm512_permutex2var_epi8(cur, back1, prev);
        let prev2 = _mm512_permutex2var_epi8(cur, back2, prev);
        let prev3 = _mm512_permutex2var_epi8(cur, back3, prev);
        let classes = _mm512_and_si512(
            _mm512_and_si512(
                _mm512_shuffle_epi8(
                    prev_high,
                    _mm512_and_si512(_mm512_srli_epi16(prev1, 4), nibble),
                ),
                _mm512_shuffle_epi8(prev_low, _mm512_and_si512(prev1, nibble)),
            ),
            _mm512_shuffle_epi8(high, _mm512_and_si512(_mm512_srli_epi16(cur, 4), nibble)),
        );
        // 0x80 where the byte must be a sequence's third or fourth (two continuations in a row
        // are right exactly there).
        let third = _mm512_subs_epu8(prev2, _mm512_set1_epi8((0xE0u8 - 0x80) as i8));
        let fourth = _mm512_subs_epu8(prev3, _mm512_set1_epi8((0xF0u8 - 0x80) as i8));
        let tail = _mm512_and_si512(
            _mm512_or_si512(third, fourth),
            _mm512_set1_epi8(0x80u8 as i8),
        );
        error = _mm512_or_si512(error, _mm512_xor_si512(tail, classes));
        prev = cur;
        if rest < 64 {
            break;
        }
        i += 64;
    }
    _mm512_test_epi8_mask(error, error) == 0
}
