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

/// See [`super::special_mask`]: the portable version, also used for the input's last block.
pub(crate) fn special_mask(bytes: &[u8], at: usize) -> (u64, usize, u64) {
    let start = at.min(bytes.len());
    let block = &bytes[start..(start + super::BLOCK).min(bytes.len())];
    let mut mask = 0u64;
    let mut high = 0u64;
    let mut words = block.chunks_exact(8);
    let mut k = 0;
    for chunk in &mut words {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let m = equal(x, b'"') | equal(x, b'\\') | below(x, 0x20);
        if m != 0 || x & HIGHS != 0 {
            // The lowest flag is exact but higher ones may be borrow artefacts: check each byte.
            for (i, &b) in chunk.iter().enumerate() {
                mask |= ((b == b'"' || b == b'\\' || b < 0x20) as u64) << (k + i);
                high |= ((b >= 0x80) as u64) << (k + i);
            }
        }
        k += 8;
    }
    for (i, &b) in words.remainder().iter().enumerate() {
        mask |= ((b == b'"' || b == b'\\' || b < 0x20) as u64) << (k + i);
        high |= ((b >= 0x80) as u64) << (k + i);
    }
    (mask, block.len(), high)
}
