//! The kernels against each other and against the scalar twin.

use super::*;
use proptest::prelude::*;

fn reference(bytes: &[u8], from: usize) -> (usize, bool) {
    let end = bytes[from..]
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .map_or(bytes.len(), |p| from + p);
    (end, bytes[from..end].iter().any(|&b| b >= 0x80))
}

fn check(bytes: &[u8], from: usize) {
    let (want, want_na) = reference(bytes, from);
    for k in Kernel::available() {
        let (got, na) = k.find(bytes, from);
        assert_eq!(got, want, "{k:?} on {bytes:?} from {from}");
        // A false positive for non-ASCII is allowed, a false negative is not.
        assert!(
            na || !want_na,
            "{k:?} missed non-ASCII in {bytes:?} from {from}"
        );
    }
    let (got, na) = find_string_special(bytes, from);
    assert_eq!(got, want);
    assert!(na || !want_na);
}

#[test]
fn every_position_every_special() {
    // Under miri (scalar kernel only) lengths past three words add time, not coverage.
    let max_len = if cfg!(miri) { 26 } else { 80 };
    for len in 0..max_len {
        for pos in 0..len {
            for special in [b'"', b'\\', 0u8, 0x1f, 0x0a] {
                let mut v = vec![b'a'; len];
                v[pos] = special;
                for from in [0, pos.saturating_sub(1), pos] {
                    check(&v, from);
                }
            }
            let mut v = vec![b'A'; len];
            v[pos] = 0xC3;
            check(&v, 0);
        }
    }
}

/// The long-string loop tests 256 bytes at a time with a loose check (controls, quote,
/// backslash and every byte >= 0x80) from a 32-byte boundary, after one unaligned look at
/// the first 32 bytes: one odd byte at every position of strings around those sizes, from
/// starts of every alignment, including the near misses of the loose check (0x20, 0x21,
/// 0x23, 0x5b, 0x5d, 0x7f), which must stay plain.
#[test]
fn long_strings_one_odd_byte_everywhere() {
    if cfg!(miri) {
        return;
    }
    let odds = [
        b'"', b'\\', 0x00, 0x1f, 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xff,
    ];
    for len in [
        127, 128, 129, 255, 256, 257, 287, 288, 289, 300, 511, 512, 513, 600,
    ] {
        for pos in 0..len {
            for odd in odds {
                let mut v = vec![b'A'; len];
                v[pos] = odd;
                for from in [0, 1, 5, 17, 31, 32, 63] {
                    check(&v, from);
                }
            }
        }
    }
    // Every start alignment against every position of one string past two loop turns.
    for from in 0..33 {
        for pos in from..620 {
            for odd in [b'"', b'\\', 0x00, 0x80] {
                let mut v = vec![b'A'; 620];
                v[pos] = odd;
                check(&v, from);
            }
        }
    }
}

/// A non-ASCII byte just past the end, inside the scalar twin's 8-byte word: the scalar
/// kernel may say `true`, a vector kernel `false`; both are within the contract, and
/// `kernels_agree` (which the fuzz target runs) must accept both (found by the fuzzer
/// once the AVX2 kernel stopped reading past a long run's end).
#[test]
fn non_ascii_just_past_the_end_is_not_demanded() {
    for len in [100, 300, 1000] {
        for gap in 1..8 {
            let mut v = vec![b'Q'; len];
            v.extend_from_slice(b"\"x");
            v.extend(std::iter::repeat_n(b'a', gap));
            v.push(0xb1);
            v.extend_from_slice(b"zzzzzzzzzz");
            for from in [0, 1, 31, 64] {
                assert_eq!(super::kernels_agree(&v, from), Ok(()), "{len} {gap} {from}");
                check(&v, from);
            }
        }
    }
}

fn reference_mask(bytes: &[u8], at: usize) -> (u64, usize, u64) {
    let block = &bytes[at.min(bytes.len())..(at + BLOCK).min(bytes.len())];
    let (mut m, mut high) = (0u64, 0u64);
    for (k, &b) in block.iter().enumerate() {
        if b == b'"' || b == b'\\' || b < 0x20 {
            m |= 1 << k;
        }
        if b >= 0x80 {
            high |= 1 << k;
        }
    }
    (m, block.len(), high)
}

fn check_mask(bytes: &[u8], at: usize) {
    let want = reference_mask(bytes, at);
    assert_eq!(scalar::special_mask(bytes, at), want, "scalar at {at}");
    assert_eq!(special_mask(bytes, at), want, "dispatch at {at}");
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    if at + BLOCK <= bytes.len() {
        assert_eq!(
            sse2::special_mask(bytes, at),
            (want.0, want.2),
            "sse2 at {at}"
        );
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 support was just checked, and `at + BLOCK <= bytes.len()`.
            let got = unsafe { avx2::special_mask(bytes, at) };
            assert_eq!(got, (want.0, want.2), "avx2 at {at}");
        }
    }
}

#[test]
fn masks_every_position() {
    for len in [0, 1, 63, 64, 65, 130] {
        for pos in 0..len {
            for special in [b'"', b'\\', 0u8, 0x1f, 0xE9] {
                let mut v = vec![b'a'; len];
                v[pos] = special;
                for at in [0, pos.saturating_sub(3), pos] {
                    check_mask(&v, at);
                }
            }
        }
    }
}

/// Every start in the last block of inputs of 64 bytes and more (read through the
/// input's last 64 bytes, shifted) and of shorter ones (a padded copy).
#[test]
fn tail_masks_every_start() {
    for len in [0, 1, 7, 40, 63, 64, 65, 71, 100, 127, 128, 129] {
        for pos in 0..len {
            for special in [b'"', b'\\', 0x1f, 0xE9] {
                let mut v: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
                v[pos] = special;
                if pos + 3 < len {
                    v[pos + 3] = 0xC3;
                }
                for at in len.saturating_sub(BLOCK + 1)..=len + 1 {
                    check_mask(&v, at);
                }
            }
        }
    }
}

/// `short_string_end` against a byte loop, and both 16-byte mask kernels against each
/// other, at every start of inputs around 16 bytes and past it.
#[test]
fn short_string_ends() {
    fn reference(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
        if bytes.len() < 16 || at >= bytes.len() {
            return None;
        }
        let window = &bytes[at..(at + 16).min(bytes.len())];
        let k = window
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        (window[k] == b'"').then(|| (at + k, window[..k].iter().any(|&b| b >= 0x80)))
    }
    for len in [0, 1, 15, 16, 17, 31, 40] {
        for pos in 0..len {
            for special in [b'"', b'\\', 0x1f, 0xE9] {
                for high in [None, Some(pos / 2), Some(pos + 1)] {
                    let mut v: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
                    if let Some(h) = high.filter(|&h| h < len) {
                        v[h] = 0xC3;
                    }
                    v[pos] = special;
                    for at in 0..=len + 1 {
                        assert_eq!(short_string_end(&v, at), reference(&v, at), "{v:?} at {at}");
                        if let Some(chunk) = v.get(at..at + 16) {
                            let chunk: &[u8; 16] = chunk.try_into().unwrap();
                            assert_eq!(mask16(chunk), scalar::mask16(chunk));
                        }
                    }
                }
            }
        }
    }
}

/// The line-end search (dispatch and AVX2) against the byte loop, at every start of
/// inputs around the vector width, with a CR or LF anywhere or nowhere.
#[test]
fn line_ends() {
    for len in [0, 1, 7, 31, 32, 33, 63, 64, 65, 100] {
        for pos in (0..len).map(Some).chain([None]) {
            for end in [b'\n', b'\r'] {
                let mut v: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
                if let Some(p) = pos {
                    v[p] = end;
                }
                for from in 0..=len + 1 {
                    let want = v
                        .get(from..)
                        .and_then(|r| r.iter().position(|&b| b == b'\n' || b == b'\r'))
                        .map(|k| from + k);
                    assert_eq!(scalar::find_line_end(&v, from), want, "{v:?} from {from}");
                    assert_eq!(super::kernels_agree(&v, from.min(len)), Ok(()));
                    if from <= len {
                        assert_eq!(find_line_end(&v, from), want, "{v:?} from {from}");
                    }
                }
            }
        }
    }
}

#[test]
fn boundary_bytes() {
    for b in 0u8..=255 {
        let mut v = vec![b'x'; 70];
        v[37] = b;
        check(&v, 0);
        check(&v, 5);
    }
}

/// The escaped bytes and escaping backslashes of a run of blocks, byte by byte.
fn reference_escapes(backslash: &[bool]) -> (Vec<bool>, Vec<bool>) {
    let (mut escaped, mut escaping) = (vec![false; backslash.len()], vec![false; backslash.len()]);
    let mut i = 0;
    while i < backslash.len() {
        if backslash[i] {
            escaping[i] = true;
            if i + 1 < backslash.len() {
                escaped[i + 1] = true;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    (escaped, escaping)
}

/// `escapes` over three blocks chained by their carries against the byte loop.
fn check_escapes(words: [u64; 3]) {
    let bits: Vec<bool> = (0..192)
        .map(|i| words[i / 64] >> (i % 64) & 1 == 1)
        .collect();
    let (want_escaped, want_escaping) = reference_escapes(&bits);
    let mut carry = 0;
    for (w, &word) in words.iter().enumerate() {
        let (escaped, escaping, out) = escapes(word, carry);
        for k in 0..64 {
            let i = 64 * w + k;
            assert_eq!(
                escaped >> k & 1 == 1,
                want_escaped[i],
                "escaped {i} of {words:x?}"
            );
            assert_eq!(
                escaping >> k & 1 == 1,
                want_escaping[i],
                "escaping {i} of {words:x?}"
            );
        }
        assert_eq!(out, escaping >> 63);
        carry = out;
    }
}

#[test]
fn escapes_match_the_byte_loop() {
    // Every pattern of the 12 bits around each block edge, the rest plain or all set.
    for pattern in 0u64..1 << 12 {
        for fill in [0u64, u64::MAX, 0x5555_5555_5555_5555] {
            let edge = |p: u64| (fill & !(0x3F << 58) & !0x3F) | (p & 0x3F) << 58;
            check_escapes([edge(pattern), (pattern >> 6) | edge(pattern >> 3), pattern]);
            check_escapes([pattern << 52, pattern >> 6, fill]);
        }
    }
    for run in 0..=130 {
        for at in [0usize, 1, 2, 61, 62, 63, 64] {
            let mut words = [0u64; 3];
            for i in at..(at + run).min(192) {
                words[i / 64] |= 1 << (i % 64);
            }
            check_escapes(words);
        }
    }
}

fn reference_string_masks(bytes: &[u8], at: usize) -> Masks {
    let mut m = Masks::default();
    for (k, &b) in bytes[at..at + BLOCK].iter().enumerate() {
        m.ends |= u64::from(b == b'"' || b < 0x20) << k;
        m.quote |= u64::from(b == b'"') << k;
        m.backslash |= u64::from(b == b'\\') << k;
        m.high |= u64::from(b >= 0x80) << k;
        m.not_two |= u64::from(!b"\"\\/bfnrt".contains(&b)) << k;
        m.u |= u64::from(b == b'u') << k;
        m.hex |= u64::from(b.is_ascii_hexdigit()) << k;
        m.d |= u64::from(b == b'd' || b == b'D') << k;
        m.high_half |= u64::from(b"89abAB".contains(&b)) << k;
        m.low_half |= u64::from(b"cdefCDEF".contains(&b)) << k;
    }
    m
}

/// Every byte value at every offset of a block (and of the block after), every kernel.
#[test]
fn string_masks_every_byte_everywhere() {
    for b in 0..=255u8 {
        for pos in 0..130 {
            let mut v: Vec<u8> = (0..130).map(|k| b"a/\\nu\"Z"[k % 7]).collect();
            v[pos] = b;
            for at in [0, 1, 63, 64, 65, 66] {
                assert_eq!(scalar::string_masks(&v, at), reference_string_masks(&v, at));
                assert_eq!(super::masks_agree(&v, at), Ok(()));
            }
        }
    }
}

/// Texts dense with escapes, cut at every length, read from every quote by both scanners:
/// same token or same error. The escapes cross the block edges at every offset.
#[test]
fn text_string_matches_the_per_bit_loop() {
    let pieces: [&[u8]; 25] = [
        b"\\n",
        b"\\\"",
        b"\\\\",
        b"\\u00e9",
        b"\\ud83d\\ude00",
        b"\\uD800",
        b"\\udc00x",
        b"\\ud83dx",
        b"\\x",
        b"\\u12g4",
        b"\\u",
        b"abc",
        b"\\/",
        b"\\t\\r",
        "\u{e9}".as_bytes(),
        "\u{1F600}".as_bytes(),
        b"\xC3(",
        b"\x01",
        b"\"",
        b"\\\\\\",
        b"                ",
        b"\\uD7FF",
        b"\\uDBFF\\uDFFF",
        b"\\uD83D\\uDE00",
        b"\\ud83d\\n",
    ];
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for round in 0..crate::test_support::rounds(300) {
        let mut v = b"\"".to_vec();
        v.extend(std::iter::repeat_n(b'a', round % 70));
        while v.len() < 260 {
            let p = next() as usize % pieces.len();
            // Mostly valid pieces, so that some strings run long.
            if (5..18).contains(&p) && next() % 4 != 0 {
                v.extend_from_slice(b"\\n");
                continue;
            }
            v.extend_from_slice(pieces[p]);
        }
        v.push(b'"');
        for cut in (0..=v.len()).step_by(if round % 10 == 0 { 1 } else { 17 }) {
            let w = &v[..cut];
            for at in 0..w.len() {
                assert_eq!(
                    super::masks_agree(w, at),
                    Ok(()),
                    "{:?}",
                    String::from_utf8_lossy(w)
                );
            }
        }
    }
}

proptest! {
    #[test]
    fn escapes_agree(a in any::<u64>(), b in any::<u64>(), c in any::<u64>()) {
        check_escapes([a, b, c]);
    }

    #[test]
    fn masks_agree_on_escaped_text(
        parts in proptest::collection::vec(prop_oneof![
            Just(&b"\\n"[..]), Just(&b"\\\\"[..]), Just(&b"\\\""[..]), Just(&b"\\u00e9"[..]),
            Just(&b"\\ud83d\\ude00"[..]), Just(&b"xy"[..]), Just(&b"\""[..]), Just(&b"\xC3\xA9"[..]),
            Just(&b"\\q"[..]), Just(&b"\x1f"[..]), Just(&b"\\u12"[..]), Just(&b"\xFF"[..]),
        ], 0..120),
    ) {
        let mut v = b"\"".to_vec();
        for p in parts { v.extend_from_slice(p); }
        for at in 0..v.len() {
            prop_assert_eq!(super::masks_agree(&v, at), Ok(()));
        }
    }

    #[test]
    fn kernels_agree(bytes in proptest::collection::vec(any::<u8>(), 0..300), from in 0usize..300) {
        let from = from.min(bytes.len());
        check(&bytes, from);
        prop_assert_eq!(super::utf8_agrees(&bytes, from), Ok(()));
    }

    /// The fuzz target's check (`fast_vs_scalar`), on strings with a few specials.
    #[test]
    fn differential_check_passes(
        len in 0usize..120,
        specials in proptest::collection::vec((0usize..120, prop_oneof![Just(b'"'), Just(b'\\'), Just(9u8), Just(0xC3u8)]), 0..4),
    ) {
        let mut v: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
        for (p, b) in specials { if p < len { v[p] = b; } }
        for at in 0..=len + 1 {
            prop_assert_eq!(crate::scanner::simd::kernels_agree(&v, at), Ok(()));
            prop_assert_eq!(crate::scanner::simd::utf8_agrees(&v, at), Ok(()));
        }
    }

    #[test]
    fn mask16_agree(bytes in proptest::array::uniform16(any::<u8>())) {
        prop_assert_eq!(mask16(&bytes), scalar::mask16(&bytes));
        let want = bytes.iter().enumerate().filter(|&(_, &b)| b == b'\\').fold(0u32, |m, (k, _)| m | 1 << k);
        prop_assert_eq!(scalar::backslashes16(&bytes), want);
        prop_assert_eq!(backslashes16(&bytes), want);
    }

    #[test]
    fn masks_agree(bytes in proptest::collection::vec(any::<u8>(), 0..200), at in 0usize..200) {
        check_mask(&bytes, at.min(bytes.len()));
    }

    #[test]
    fn kernels_agree_mostly_plain(
        len in 0usize..400,
        specials in proptest::collection::vec((0usize..400, prop_oneof![Just(b'"'), Just(b'\\'), Just(1u8), Just(0xE2u8)]), 0..3),
    ) {
        let mut v = vec![b'Q'; len];
        for (p, b) in specials { if p < len { v[p] = b; } }
        check(&v, 0);
    }
}
