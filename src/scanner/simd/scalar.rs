//! Portable kernel: eight bytes at a time in a `u64` ("SIMD within a register").
//!
//! For a word `x`, `(x - 0x01..01 * n) & !x & 0x80..80` flags bytes below `n` (for `n <= 128`);
//! comparing `x ^ (0x01..01 * c)` against 1 flags bytes equal to `c`. Borrows can flag extra bytes
//! only *above* a true match, so the lowest flagged byte is always exact — which is all we need.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

#[inline(always)]
fn below(x: u64, n: u8) -> u64 {
    x.wrapping_sub(ONES * n as u64) & !x & HIGHS
}

#[inline(always)]
fn equal(x: u64, c: u8) -> u64 {
    below(x ^ (ONES * c as u64), 1)
}

/// See [`super::find_string_special`].
pub(crate) fn find_string_special(bytes: &[u8], from: usize) -> (usize, bool) {
    let mut i = from.min(bytes.len());
    let mut high = 0u64;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let m = equal(x, b'"') | equal(x, b'\\') | below(x, 0x20);
        high |= x;
        if m != 0 {
            return (i + (m.trailing_zeros() / 8) as usize, high & HIGHS != 0);
        }
        i += 8;
    }
    let mut non_ascii = high & HIGHS != 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            return (i, non_ascii);
        }
        non_ascii |= b >= 0x80;
        i += 1;
    }
    (i, non_ascii)
}

/// Flags (top bit of the byte) exactly the zero bytes of `t`: no step carries across bytes.
#[inline(always)]
fn zero_bytes(t: u64) -> u64 {
    const SEVEN: u64 = !HIGHS;
    !(((t & SEVEN) + SEVEN) | t) & HIGHS
}

/// Packs the top bit of each byte of `flags` (byte `k` -> bit `k`): the multiplier places a
/// copy of byte `k`'s bit at bit `56 + k`, and no two partial products meet or carry there.
#[inline(always)]
fn pack(flags: u64) -> u64 {
    ((flags >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// See [`super::special_mask`]: the portable version. A block cut by the end of the input is
/// copied into a buffer padded with spaces (neither special nor high), so every block is
/// eight whole words.
pub(crate) fn special_mask(bytes: &[u8], at: usize) -> (u64, usize, u64) {
    let rest = bytes.get(at..).unwrap_or_default();
    let n = rest.len().min(super::BLOCK);
    let mut block = [b' '; super::BLOCK];
    block[..n].copy_from_slice(&rest[..n]);
    let (mut mask, mut high) = (0u64, 0u64);
    for (k, chunk) in block.chunks_exact(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // Quote, backslash, or a control byte (its top three bits clear).
        let special = zero_bytes(x ^ (ONES * b'"' as u64))
            | zero_bytes(x ^ (ONES * b'\\' as u64))
            | zero_bytes(x & (ONES * 0xE0));
        mask |= pack(special) << (8 * k);
        high |= pack(x & HIGHS) << (8 * k);
    }
    (mask, n, high)
}

/// See [`super::string_masks`]: the portable version, and the reference the tests hold the
/// others to. The caller guarantees `at + 64 <= bytes.len()`.
pub(crate) fn string_masks(bytes: &[u8], at: usize) -> super::Masks {
    let mut out = super::Masks::default();
    // For bytes below 0x80: the top bit of `v + (0x80 - lo)` is set when `v >= lo`, and that
    // of `v + (0x7f - hi)` when `v > hi`; no sum leaves its byte (high bytes are masked out).
    let within = |v: u64, lo: u8, hi: u8| {
        v.wrapping_add(ONES * u64::from(0x80 - lo)) & !v.wrapping_add(ONES * u64::from(0x7f - hi))
    };
    let block = bytes.get(at..at + super::BLOCK).unwrap_or_default();
    for (k, chunk) in block.chunks_exact(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let eq = |c: u8| zero_bytes(x ^ (ONES * c as u64));
        let two =
            eq(b'"') | eq(b'\\') | eq(b'/') | eq(b'b') | eq(b'f') | eq(b'n') | eq(b'r') | eq(b't');
        let low7 = x & !HIGHS;
        let hex = (within(low7, b'0', b'9') | within(low7 | (ONES * 0x20), b'a', b'f'))
            & !(x & HIGHS)
            & HIGHS;
        out.ends |= pack(eq(b'"') | zero_bytes(x & (ONES * 0xE0))) << (8 * k);
        out.quote |= pack(eq(b'"')) << (8 * k);
        out.backslash |= pack(eq(b'\\')) << (8 * k);
        out.high |= pack(x & HIGHS) << (8 * k);
        out.not_two |= pack(!two & HIGHS) << (8 * k);
        out.u |= pack(eq(b'u')) << (8 * k);
        out.hex |= pack(hex) << (8 * k);
        out.d |= pack(eq(b'd') | eq(b'D')) << (8 * k);
        let lower = x | (ONES * 0x20);
        let lq = |c: u8| zero_bytes(lower ^ (ONES * c as u64));
        out.high_half |= pack(eq(b'8') | eq(b'9') | lq(b'a') | lq(b'b')) << (8 * k);
        out.low_half |= pack(lq(b'c') | lq(b'd') | lq(b'e') | lq(b'f')) << (8 * k);
    }
    out
}

/// See [`super::mask16`]: the portable version, two words (on x86_64, the tests' reference).
#[cfg_attr(
    all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)),
    allow(dead_code)
)]
#[inline(always)]
pub(crate) fn mask16(chunk: &[u8; 16]) -> (u32, u32) {
    let (mut mask, mut high) = (0u32, 0u32);
    for (k, half) in chunk.chunks_exact(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(half);
        let x = u64::from_le_bytes(word);
        let special = zero_bytes(x ^ (ONES * b'"' as u64))
            | zero_bytes(x ^ (ONES * b'\\' as u64))
            | zero_bytes(x & (ONES * 0xE0));
        mask |= (pack(special) as u32) << (8 * k);
        high |= (pack(x & HIGHS) as u32) << (8 * k);
    }
    (mask, high)
}

/// See [`super::find_line_end`]: the portable version, and the reference the tests hold the
/// others to.
pub(crate) fn find_line_end(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    rest.iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map(|k| from + k)
}

/// See [`super::backslashes16`]: the portable version, two words (on x86_64, the tests'
/// reference).
#[cfg_attr(
    all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)),
    allow(dead_code)
)]
#[inline(always)]
pub(crate) fn backslashes16(chunk: &[u8; 16]) -> u32 {
    let mut mask = 0u32;
    for (k, half) in chunk.chunks_exact(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(half);
        let x = u64::from_le_bytes(word);
        mask |= (pack(zero_bytes(x ^ (ONES * b'\\' as u64))) as u32) << (8 * k);
    }
    mask
}
