//! x86_64 AVX2 classifier: two 32-byte vectors per block. Quotes, backslashes, dots and
//! control bytes by compares; whitespace, the six structural characters, digits, signs and
//! exponent letters by one nibble lookup (`vpshufb` on the low and the high half of each byte,
//! then AND): each class gets a bit that only its own (high, low) nibble pairs have in both
//! tables.

use std::arch::x86_64::*;

use super::{Classes, Marks};

// Class bits of the lookup: a byte is in a class when the tables of its low and its high
// nibble both have the class's bit.
// A class of one bit is read by `movemask` after a shift that puts its bit in bit 7 of each
// byte (a 16-bit shift: the low byte's top bits move into the high byte's low ones); the
// structural bytes' three bits are the ones from 16 to 64, so that a byte is one exactly when
// its class byte is above 15 as a signed byte (one compare, no mask).
const SPACE: u8 = 1; // 0x20
const TAB_LF_CR: u8 = 2; // 0x09, 0x0A, 0x0D
const DIGIT: u8 = 4; // 0x30 to 0x39
const SIGN: u8 = 8; // 0x2B 0x2D
const COMMA: u8 = 16; // 0x2C
const COLON: u8 = 32; // 0x3A
const BRACKET: u8 = 64; // 0x5B 0x5D 0x7B 0x7D
const EXP: u8 = 128; // 0x45 0x65 (the sign bit: read by `movemask` alone)
const WS_BITS: u8 = SPACE | TAB_LF_CR;
const OP_BITS: u8 = COMMA | COLON | BRACKET;
const _: () = assert!(OP_BITS == 0x70 && COMMA == 16 && DIGIT == 1 << 2 && SIGN == 1 << 3);

/// By low nibble.
const LOW: [u8; 16] = [
    SPACE | DIGIT,
    DIGIT,
    DIGIT,
    DIGIT,
    DIGIT,
    DIGIT | EXP,
    DIGIT,
    DIGIT,
    DIGIT,
    TAB_LF_CR | DIGIT,
    TAB_LF_CR | COLON,
    BRACKET | SIGN,
    COMMA,
    TAB_LF_CR | BRACKET | SIGN,
    0,
    0,
];

/// By high nibble (8 to F, the bytes >= 0x80, are in no class).
const HIGH: [u8; 16] = [
    TAB_LF_CR,
    0,
    SPACE | COMMA | SIGN,
    COLON | DIGIT,
    EXP,
    BRACKET,
    EXP,
    BRACKET,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
];

/// See [`super::Kernel::classify`].
///
/// # Safety
/// The CPU must support AVX2, and `at + 64 <= bytes.len()`.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn classify(bytes: &[u8], at: usize) -> Classes {
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
    // SAFETY: both tables are 16 bytes, read unaligned into each 128-bit half.
    let (low, high) = unsafe {
        (
            _mm256_broadcastsi128_si256(_mm_loadu_si128(LOW.as_ptr() as *const __m128i)),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(HIGH.as_ptr() as *const __m128i)),
        )
    };
    let nibble = _mm256_set1_epi8(0x0f);
    let zero = _mm256_setzero_si256();
    let quote = _mm256_set1_epi8(b'"' as i8);
    let backslash = _mm256_set1_epi8(b'\\' as i8);
    let ctrl_max = _mm256_set1_epi8(0x1f);
    let ws_bits = _mm256_set1_epi8(WS_BITS as i8);
    let op_min = _mm256_set1_epi8(COMMA as i8 - 1);
    let dot = _mm256_set1_epi8(b'.' as i8);
    let zero_byte = _mm256_set1_epi8(b'0' as i8);
    let case = _mm256_set1_epi8(0x20);
    let close = _mm256_set1_epi8(b'}' as i8);
    let mask = |v: __m256i| -> u64 { _mm256_movemask_epi8(v) as u32 as u64 };
    let half = |v: __m256i| -> Classes {
        let lo = _mm256_shuffle_epi8(low, _mm256_and_si256(v, nibble));
        let hi = _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
        let class = _mm256_and_si256(lo, hi);
        Classes {
            quote: mask(_mm256_cmpeq_epi8(v, quote)),
            backslash: mask(_mm256_cmpeq_epi8(v, backslash)),
            // The compares with zero flag the bytes *outside* the class.
            ws: !mask(_mm256_cmpeq_epi8(_mm256_and_si256(class, ws_bits), zero)) & 0xffff_ffff,
            // (Above 15 as a signed byte: one of the three bits of `OP_BITS` and not `EXP`,
            // the only bit above them; no byte is in two classes.)
            op: mask(_mm256_cmpgt_epi8(class, op_min)),
            // `]` (0x5D) and `}` (0x7D) are the bytes that read as `}` with bit 5 set.
            close: mask(_mm256_cmpeq_epi8(_mm256_or_si256(v, case), close)),
            // v <= 0x1f (unsigned) exactly when min(v, 0x1f) == v.
            ctrl: mask(_mm256_cmpeq_epi8(_mm256_min_epu8(v, ctrl_max), v)),
            // The sign bit of each byte is set exactly for the bytes >= 0x80.
            high: mask(v),
            marks: Marks {
                // `DIGIT` is bit 2 and `SIGN` bit 3: five and four bits to the left in each
                // 16-bit lane put them in bit 7 of both bytes.
                digit: mask(_mm256_slli_epi16(class, 5)),
                dot: mask(_mm256_cmpeq_epi8(v, dot)),
                sign: mask(_mm256_slli_epi16(class, 4)),
                exp: mask(class),
                zero: mask(_mm256_cmpeq_epi8(v, zero_byte)),
            },
        }
    };
    let (x, y) = (half(a), half(b));
    Classes {
        quote: x.quote | y.quote << 32,
        backslash: x.backslash | y.backslash << 32,
        ws: x.ws | y.ws << 32,
        op: x.op | y.op << 32,
        close: x.close | y.close << 32,
        ctrl: x.ctrl | y.ctrl << 32,
        high: x.high | y.high << 32,
        marks: x.marks.join(y.marks),
    }
}

/// See [`super::prefix_xor`]: the carry-less product of `x` and all ones.
///
/// # Safety
/// The CPU must support PCLMULQDQ.
#[target_feature(enable = "pclmulqdq")]
#[inline]
pub(crate) unsafe fn prefix_xor(x: u64) -> u64 {
    let product = _mm_clmulepi64_si128(_mm_set_epi64x(0, x as i64), _mm_set1_epi8(-1), 0);
    _mm_cvtsi128_si64(product) as u64
}

/// See [`super::Kernel::window`]: the 32 bytes at `at`.
///
/// # Safety
/// The CPU must support AVX2, and `at + 32 <= bytes.len()`.
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn window(bytes: &[u8], at: usize) -> (u64, Marks) {
    debug_assert!(at + 32 <= bytes.len());
    // SAFETY: the caller guarantees `at + 32 <= bytes.len()`; unaligned loads are allowed.
    let v = unsafe { _mm256_loadu_si256(bytes.as_ptr().add(at) as *const __m256i) };
    // SAFETY: both tables are 16 bytes, read unaligned into each 128-bit half.
    let (low, high) = unsafe {
        (
            _mm256_broadcastsi128_si256(_mm_loadu_si128(LOW.as_ptr() as *const __m128i)),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(HIGH.as_ptr() as *const __m128i)),
        )
    };
    let nibble = _mm256_set1_epi8(0x0f);
    let zero = _mm256_setzero_si256();
    let lo = _mm256_shuffle_epi8(low, _mm256_and_si256(v, nibble));
    let hi = _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
    let class = _mm256_and_si256(lo, hi);
    let mask = |v: __m256i| -> u64 { _mm256_movemask_epi8(v) as u32 as u64 };
    let in_class = |bits: u8| {
        !mask(_mm256_cmpeq_epi8(
            _mm256_and_si256(class, _mm256_set1_epi8(bits as i8)),
            zero,
        )) & 0xffff_ffff
    };
    let quote = mask(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'"' as i8)));
    let marks = Marks {
        digit: mask(_mm256_slli_epi16(class, 5)),
        dot: mask(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'.' as i8))),
        sign: mask(_mm256_slli_epi16(class, 4)),
        exp: mask(class),
        zero: mask(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'0' as i8))),
    };
    (quote | in_class(WS_BITS | OP_BITS) | 1 << 32, marks)
}
