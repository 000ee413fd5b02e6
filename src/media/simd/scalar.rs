//! The portable kernel: one table lookup per character. The reference twin of the SIMD ones.

/// Class of `=`.
pub(crate) const PAD: u8 = 64;
/// Class of ASCII whitespace as WHATWG defines it: TAB, LF, FF, CR, SPACE.
pub(crate) const WS: u8 = 65;
/// Class of `-` and `_`, the URL-safe alphabet's replacements for `+` and `/`.
pub(crate) const URL_SAFE: u8 = 66;
/// Class of anything else.
pub(crate) const INVALID: u8 = 0xFF;

/// For every byte: its 6-bit value when it is in the standard alphabet, else its class.
/// Every non-alphabet class has bit 6 or bit 7 set, so `class < 64` tests membership.
pub(crate) static CLASS: [u8; 256] = {
    let mut t = [INVALID; 256];
    let mut i = 0u8;
    while i < 26 {
        t[(b'A' + i) as usize] = i;
        t[(b'a' + i) as usize] = 26 + i;
        i += 1;
    }
    let mut d = 0u8;
    while d < 10 {
        t[(b'0' + d) as usize] = 52 + d;
        d += 1;
    }
    t[b'+' as usize] = 62;
    t[b'/' as usize] = 63;
    t[b'=' as usize] = PAD;
    t[b'\t' as usize] = WS;
    t[b'\n' as usize] = WS;
    t[0x0C] = WS;
    t[b'\r' as usize] = WS;
    t[b' ' as usize] = WS;
    t[b'-' as usize] = URL_SAFE;
    t[b'_' as usize] = URL_SAFE;
    t
};

/// Marks a byte that is not in the alphabet in the shifted tables below.
const BAD: u32 = 1 << 31;

/// `SHIFTED[k][b]`: the value of byte `b` placed for position `k` of a quantum
/// (`value << (18 - 6k)`), or [`BAD`]. OR-ing four entries gives the 24 decoded bits, with
/// bit 31 set if any character was not in the alphabet.
static SHIFTED: [[u32; 256]; 4] = {
    let mut t = [[BAD; 256]; 4];
    let mut b = 0;
    while b < 256 {
        let v = CLASS[b];
        if v < 64 {
            let mut k = 0;
            while k < 4 {
                t[k][b] = (v as u32) << (18 - 6 * k);
                k += 1;
            }
        }
        b += 1;
    }
    t
};

#[inline(always)]
fn quantum(q: [u8; 4]) -> u32 {
    SHIFTED[0][usize::from(q[0])]
        | SHIFTED[1][usize::from(q[1])]
        | SHIFTED[2][usize::from(q[2])]
        | SHIFTED[3][usize::from(q[3])]
}

/// Decodes whole quanta of alphabet characters from the front of `src`; see `super`.
pub(crate) fn decode(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let mut n = 0;
    // Two quanta per step, written as one 8-byte store of which 6 bytes count.
    {
        let (pairs, _) = src.as_chunks::<8>();
        let mut w = 0;
        for pair in pairs {
            let Some(out) = dst.get_mut(w..w + 8) else {
                break;
            };
            let [a, b, c, d, e, f, g, h] = *pair;
            let hi = quantum([a, b, c, d]);
            let lo = quantum([e, f, g, h]);
            if (hi | lo) & BAD != 0 {
                break;
            }
            let v = (u64::from(hi) << 40) | (u64::from(lo) << 16);
            out.copy_from_slice(&v.to_be_bytes());
            w += 6;
            n += 2;
        }
    }
    let rest = src.get(n * 4..).unwrap_or_default();
    let out = dst.get_mut(n * 3..).unwrap_or_default();
    let (quads, _) = rest.as_chunks::<4>();
    let (triples, _) = out.as_chunks_mut::<3>();
    for (&q, out) in quads.iter().zip(triples.iter_mut()) {
        let x = quantum(q);
        if x & BAD != 0 {
            break;
        }
        *out = [(x >> 16) as u8, (x >> 8) as u8, x as u8];
        n += 1;
    }
    (n * 4, n * 3)
}

/// See `super::copy_until_backslash`; eight bytes at a time.
pub(crate) fn copy_until_backslash(src: &[u8], dst: &mut [u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const PATTERN: u64 = ONES * (b'\\' as u64);
    let len = src.len().min(dst.len());
    let (src, dst) = (
        src.get(..len).unwrap_or_default(),
        dst.get_mut(..len).unwrap_or_default(),
    );
    let (words, _) = src.as_chunks::<8>();
    let (slots, _) = dst.as_chunks_mut::<8>();
    let mut i = 0;
    for (word, slot) in words.iter().zip(slots.iter_mut()) {
        *slot = *word;
        let x = u64::from_le_bytes(*word) ^ PATTERN;
        // The lowest marked byte is the first zero byte of `x`, i.e. the first backslash.
        let t = x.wrapping_sub(ONES) & !x & HIGHS;
        if t != 0 {
            return i + (t.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    for (s, d) in src.iter().zip(dst.iter_mut()).skip(i) {
        if *s == b'\\' {
            break;
        }
        *d = *s;
        i += 1;
    }
    i
}

/// Length of the longest prefix of whole quanta made of alphabet characters.
pub(crate) fn validate(src: &[u8]) -> usize {
    let (blocks, _) = src.as_chunks::<16>();
    let mut n = 0;
    for block in blocks {
        let acc = block
            .iter()
            .fold(0u8, |acc, &b| acc | CLASS[usize::from(b)]);
        if acc >= 64 {
            break;
        }
        n += 16;
    }
    let rest = src.get(n..).unwrap_or_default();
    let (quads, _) = rest.as_chunks::<4>();
    for q in quads {
        if q.iter().any(|&b| CLASS[usize::from(b)] >= 64) {
            break;
        }
        n += 4;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_rfc4648_vectors() {
        let mut out = [0u8; 6];
        assert_eq!(decode(b"Zm9vYmFy", &mut out), (8, 6));
        assert_eq!(&out, b"foobar");
        // Stops before a quantum with padding, and when the output is full.
        assert_eq!(decode(b"Zm9vYg==", &mut out), (4, 3));
        assert_eq!(decode(b"Zm9vYmFy", &mut out[..5]), (4, 3));
        assert_eq!(validate(b"Zm9vYg=="), 4);
        assert_eq!(validate(b"Zm9vYmFyZm9vYmFyZm9vYmFy"), 24);
        assert_eq!(validate(b"Zm9vYmFyZm9vYmF\nZm9vYmFy"), 12);
    }

    #[test]
    fn class_table() {
        assert!(CLASS.iter().filter(|&&c| c < 64).count() == 64);
        assert_eq!(CLASS[b'=' as usize], PAD);
        assert_eq!(
            CLASS[0x0B], INVALID,
            "vertical tab is not WHATWG whitespace"
        );
        assert_eq!(CLASS[0x80], INVALID);
    }
}
