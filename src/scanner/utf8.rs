//! UTF-8 checks of strings the scanner found a byte >= 0x80 in.
//!
//! [`valid`] checks a string of any length: on CPUs with AVX-512 by 64-byte chunks and table
//! lookups with no branch on the text ([`simd::avx512::valid_utf8`]; text mixing ASCII and
//! other scripts made the per-chunk "all ASCII?" branches of a general-purpose checker miss
//! often), with AVX2 the same by 32-byte chunks ([`simd::avx2::valid_utf8`]), elsewhere by
//! `simdutf8`. [`Cursor::short_string`](super::Cursor::short_string)
//! reads strings of up to 64 bytes; for those, [`valid_short`] takes the AVX-512 chunk too, or
//! else the high bytes' mask in 16-byte looks, and [`valid_masked`] visits only those bytes,
//! one sequence at a time. Same answer as std (RFC 3629: no overlong forms, no surrogates,
//! nothing past U+10FFFF, no cut sequence); tested against it below, every kernel.

use super::simd;

/// Whether `bytes[start..end]` is valid UTF-8 (`false` for a range outside `bytes`).
#[inline]
pub(crate) fn valid(bytes: &[u8], start: usize, end: usize) -> bool {
    if start > end || end > bytes.len() {
        return false;
    }
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    if simd::level() >= 3 {
        // SAFETY: level 3 is stored only after the AVX-512 F, BW, VBMI and BMI2 feature tests
        // passed; the range was just checked.
        return unsafe { simd::avx512::valid_utf8(bytes, start, end) };
    }
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    if simd::level() == 2 {
        // SAFETY: level 2 is stored only after the AVX2 feature test passed; the range was
        // just checked.
        return unsafe { simd::avx2::valid_utf8(bytes, start, end) };
    }
    simdutf8::basic::from_utf8(&bytes[start..end]).is_ok()
}

/// Whether `bytes[start..end]` is valid UTF-8: for 64 bytes or fewer by [`valid_masked`], the
/// high bytes found in 16-byte looks, else by std. Out of line: only strings with a byte
/// >= 0x80 come here.
#[inline(never)]
pub(crate) fn valid_short(bytes: &[u8], start: usize, end: usize) -> bool {
    let Some(text) = bytes.get(start..end) else {
        return false;
    };
    let len = text.len();
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    if simd::level() >= 3 {
        return valid(bytes, start, end);
    }
    if len == 0 || len > 64 {
        return std::str::from_utf8(text).is_ok();
    }
    let mut high = 0u64;
    let mut p = 0;
    while p < len {
        // `window16` gives bit 0 at `start + p` (`p < 64`, so the shift fits); `None` only for
        // an input shorter than 16 bytes, which the short-string reader never takes.
        let Some((_, h, _)) = simd::window16(bytes, start + p) else {
            return std::str::from_utf8(text).is_ok();
        };
        high |= u64::from(h) << p;
        p += 16;
    }
    // Bits of the bytes past the string dropped (`1 <= len <= 64`).
    valid_masked(text, high & (u64::MAX >> (64 - len)))
}

/// Whether `s` is valid UTF-8, given `high`, whose bit `i` is set exactly when `s[i] >= 0x80`
/// (so `s.len() <= 64` for a full answer, and every byte whose bit is clear is ASCII). Bits past `s.len()` must
/// be clear. Safe on any input: a wrong mask gives a wrong answer, never a panic.
#[inline]
pub(crate) fn valid_masked(s: &[u8], mut high: u64) -> bool {
    while high != 0 {
        let i = high.trailing_zeros() as usize;
        let Some(&lead) = s.get(i) else {
            return false;
        };
        // Continuation bytes are 0x80..=0xBF, that is -128..=-65 as `i8`.
        let cont = |j: usize| s.get(i + j).is_some_and(|&b| (b as i8) < -64);
        let second = s.get(i + 1).copied().unwrap_or(0);
        let w = match lead {
            0xC2..=0xDF if cont(1) => 2,
            0xE0 if matches!(second, 0xA0..=0xBF) && cont(2) => 3,
            0xE1..=0xEC | 0xEE..=0xEF if cont(1) && cont(2) => 3,
            0xED if matches!(second, 0x80..=0x9F) && cont(2) => 3,
            0xF0 if matches!(second, 0x90..=0xBF) && cont(2) && cont(3) => 4,
            0xF1..=0xF3 if cont(1) && cont(2) && cont(3) => 4,
            0xF4 if matches!(second, 0x80..=0x8F) && cont(2) && cont(3) => 4,
            _ => return false,
        };
        // The sequence's bytes are all high: clear their bits (`i + w <= s.len() <= 64`; a
        // shift that drops bits past 63 drops nothing that was set).
        high &= !(((1u64 << w) - 1) << i);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{valid, valid_masked, valid_short};
    use proptest::prelude::*;

    /// Every kernel `valid` may take on this CPU, with std as the reference; padding around the
    /// string so a kernel that read past its range would see other bytes.
    fn all_agree(s: &[u8]) {
        let want = std::str::from_utf8(s).is_ok();
        let mut padded = vec![0xC3u8; 3];
        padded.extend_from_slice(s);
        padded.extend_from_slice(&[0xE2, 0x82, 0xAC, 0x80]);
        let (start, end) = (3, 3 + s.len());
        assert_eq!(valid(&padded, start, end), want, "valid {s:x?}");
        assert_eq!(
            simdutf8::basic::from_utf8(&padded[start..end]).is_ok(),
            want,
            "simdutf8 {s:x?}"
        );
        #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
        if crate::scanner::simd::level() >= 3 {
            // SAFETY: level 3 means the CPU has what `valid_utf8` needs; the range is inside.
            let got = unsafe { crate::scanner::simd::avx512::valid_utf8(&padded, start, end) };
            assert_eq!(got, want, "avx512 {s:x?}");
        }
        #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
        if crate::scanner::simd::level() >= 2 {
            // SAFETY: level 2 or more means the CPU has AVX2; the range is inside.
            let got = unsafe { crate::scanner::simd::avx2::valid_utf8(&padded, start, end) };
            assert_eq!(got, want, "avx2 {s:x?}");
        }
    }

    /// The chunked check (every kernel of [`valid`]) at every offset of the first chunks, so
    /// that a sequence straddles each chunk boundary, and on text cut at every length around
    /// the 64- and 128-byte boundaries (every byte pair and class triple: with the masked
    /// check, below).
    #[test]
    fn chunked_check_agrees_with_std() {
        for at in (0..70).chain(120..135) {
            for seq in [
                &[0xC3, 0xA9][..],
                &[0xE2, 0x82, 0xAC],
                &[0xF0, 0x9F, 0x98, 0x80],
                &[0xED, 0xA0, 0x80],
                &[0xE0, 0x80, 0x80],
                &[0xF4, 0x90, 0x80, 0x80],
                &[0x80],
                &[0xC3],
                &[0xF0, 0x9F, 0x98],
            ] {
                let mut s = vec![b'a'; at];
                s.extend_from_slice(seq);
                for tail in [0, 1, 5, 64] {
                    let mut t = s.clone();
                    t.extend(std::iter::repeat_n(b'z', tail));
                    all_agree(&t);
                }
                all_agree(&s);
            }
        }
        let text = "naïve café, 字符, 😀 emoji; ".repeat(12);
        let b = text.as_bytes();
        for n in 0..b.len() {
            all_agree(&b[..n]);
        }
    }

    fn mask(s: &[u8]) -> u64 {
        s.iter()
            .enumerate()
            .filter(|(_, b)| **b >= 0x80)
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    fn agrees(s: &[u8]) {
        assert_eq!(
            valid_masked(s, mask(s)),
            std::str::from_utf8(s).is_ok(),
            "{s:x?}"
        );
    }

    /// Every byte class in every position of a sequence of up to four bytes, with ASCII
    /// around it and cut at every length: overlongs (C0, C1, E0 80..9F, F0 80..8F), surrogates
    /// (ED A0..BF), past U+10FFFF (F4 90.., F5..FF), lone and extra continuations, truncations;
    /// the pairs and triples through every kernel of [`valid`] too.
    #[test]
    fn agrees_with_std_on_every_class() {
        let reps: [u8; 16] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xE0, 0xED,
            0xF4, 0xFF,
        ];
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                agrees(&[a, b]);
                all_agree(&[a, b]);
                agrees(&[b'x', a, b, b'y']);
                for &c in &reps {
                    agrees(&[a, b, c]);
                    all_agree(&[a, b, c]);
                    agrees(&[b'q', a, b, c]);
                    for &d in &reps {
                        agrees(&[a, b, c, d]);
                    }
                }
            }
        }
        // Valid characters of each width, cut at every length, at a 64-byte string's end.
        for ch in [
            'e',
            'é',
            '€',
            '字',
            '😀',
            '\u{10FFFF}',
            '\u{D7FF}',
            '\u{E000}',
        ] {
            let mut s = "a".repeat(60);
            s.push(ch);
            let b = s.as_bytes();
            for n in 0..=b.len() {
                agrees(&b[..n]);
                agrees(&b[b.len() - n..]);
            }
        }
    }

    proptest! {
        #[test]
        fn agrees_with_std(s in proptest::collection::vec(
            prop_oneof![any::<u8>(), 0x80u8..=0xBF, Just(b'a')], 0..=64)) {
            agrees(&s);
        }

        /// The masks taken in 16-byte looks: any string position, near the input's end too,
        /// strings of up to 80 bytes (past 64, std's answer).
        #[test]
        fn short_agrees_with_std(bytes in proptest::collection::vec(
            prop_oneof![any::<u8>(), 0x80u8..=0xBF, Just(b'a'), Just(0xC3)], 16..=100),
            a in 0usize..100, n in 0usize..=80) {
            let start = a.min(bytes.len());
            let end = (start + n).min(bytes.len());
            prop_assert_eq!(
                valid_short(&bytes, start, end),
                std::str::from_utf8(&bytes[start..end]).is_ok()
            );
        }

        #[test]
        fn chunked_agrees_with_std(s in proptest::collection::vec(
            prop_oneof![any::<u8>(), 0x80u8..=0xBF, Just(b'a'), Just(0xE2), Just(0xF0)], 0..=300)) {
            all_agree(&s);
        }

        #[test]
        fn agrees_with_std_on_text(t in "\\PC{0,20}", cut in 0usize..64) {
            let b = t.as_bytes();
            let b = &b[..b.len().min(64)];
            agrees(b);
            agrees(&b[..cut.min(b.len())]);
        }
    }
}
