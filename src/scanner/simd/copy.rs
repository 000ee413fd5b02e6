//! Copying bytes that arrive inside a JSON string while scanning them: [`copy_string_run`].
//!
//! The chunk-fed parser appends each chunk to its buffer and then scans it for the end of the
//! string it stopped in (megabytes of base64 arrive this way, 4 to 64 KiB at a time). Done
//! apart, copy and scan read the chunk twice (measured: `memmove` 33% and the scan 22% of a
//! fed 8 MB image); done together (the AVX2 loop is `super::avx2::copy_string_run`), each 64
//! bytes are loaded once, stored, and tested in registers, and the fed parse costs what the
//! copy alone does (benches/HISTORY.md, "fed media scanned as it is copied").

use std::mem::MaybeUninit;

/// Copies `src` to the start of `dst` and answers what [`super::find_string_special`] answers
/// for `src` from 0: the first quote, backslash or control byte (`src.len()` if none), and
/// whether a byte from 0x80 may occur before it (a `true` may be a false positive from bytes
/// just past it, never a false negative).
///
/// Copies only `src.len().min(dst.len())` bytes and scans only those (callers give `dst` room
/// for all of `src`).
#[inline]
pub(crate) fn copy_string_run(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> (usize, bool) {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    if super::level() >= 2 {
        // SAFETY: level 2 or more is stored only after `is_x86_feature_detected!("avx2")`;
        // `dst` is exactly as long as `src`.
        return unsafe { super::avx2::copy_string_run(src, dst) };
    }
    scalar(src, dst)
}

/// The portable twin: the copy, then the scalar kernel's scan (of as many bytes as `dst`
/// takes, as [`copy_string_run`]).
pub(crate) fn scalar(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> (usize, bool) {
    let src = &src[..src.len().min(dst.len())];
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = MaybeUninit::new(s);
    }
    super::scalar::find_string_special(src, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact answer: the first special byte, and whether a byte from 0x80 comes before it.
    fn exact(src: &[u8]) -> (usize, bool) {
        let end = src
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            .unwrap_or(src.len());
        (end, src[..end].iter().any(|&b| b >= 0x80))
    }

    /// A copy-and-scan: [`copy_string_run`] or its twin.
    type Run = fn(&[u8], &mut [MaybeUninit<u8>]) -> (usize, bool);

    /// The dispatching copy and the portable twin against the exact answer: the same end, no
    /// non-ASCII byte missed, and every byte copied.
    fn check(src: &[u8]) {
        let (end, non_ascii) = exact(src);
        let runs: [(&str, Run); 2] = [("dispatch", copy_string_run), ("scalar", scalar)];
        for (name, run) in runs {
            let mut dst = vec![MaybeUninit::new(0xAAu8); src.len() + 3];
            let (got, na) = run(src, &mut dst);
            assert_eq!(got, end, "{name}: end of {src:?}");
            assert!(na || !non_ascii, "{name}: missed non-ASCII in {src:?}");
            // SAFETY: every byte of `dst` was initialized (to 0xAA, then maybe written over).
            let copied: Vec<u8> = dst.iter().map(|b| unsafe { b.assume_init() }).collect();
            assert_eq!(&copied[..src.len()], src, "{name}: copy of {src:?}");
            assert_eq!(
                &copied[src.len()..],
                [0xAA; 3],
                "{name}: wrote past the end"
            );
        }
    }

    #[test]
    fn every_special_at_every_offset() {
        // (A chunk's usual 4 KiB adds no path: the loop turns are the same past the second;
        // valgrind in `.ci/run` runs these tests too.)
        for len in [0, 1, 31, 32, 63, 64, 65, 127, 128, 129, 200] {
            check(&vec![b'Q'; len]);
            for pos in 0..len {
                for special in [b'"', b'\\', 0u8, 0x1f, b'\n'] {
                    let mut v = vec![b'Q'; len];
                    v[pos] = special;
                    check(&v);
                    // A second special after the first, and non-ASCII before and after it.
                    if pos + 1 < len {
                        v[len - 1] = b'"';
                        check(&v);
                    }
                    if pos > 0 {
                        v[pos - 1] = 0xC3;
                        check(&v);
                        v[pos - 1] = b'Q';
                    }
                    if pos + 1 < len {
                        v[pos + 1] = 0xE2;
                        check(&v);
                    }
                }
            }
        }
    }

    #[test]
    fn non_ascii_anywhere_without_a_special() {
        for len in [1, 40, 64, 100, 130, 300] {
            for pos in 0..len {
                let mut v = vec![b'z'; len];
                v[pos] = 0x80;
                check(&v);
                v[pos] = 0xFF;
                check(&v);
            }
        }
    }

    #[test]
    fn a_short_destination_takes_what_fits() {
        let src = b"abc\"def";
        let mut dst = [MaybeUninit::new(0u8); 2];
        assert_eq!(copy_string_run(src, &mut dst), (2, false));
        assert_eq!(scalar(src, &mut dst), (2, false));
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_the_exact_answer(
            len in 0usize..600,
            specials in proptest::collection::vec(
                (0usize..600, proptest::prop_oneof![
                    proptest::strategy::Just(b'"'),
                    proptest::strategy::Just(b'\\'),
                    proptest::strategy::Just(3u8),
                    proptest::strategy::Just(0xE2u8),
                    proptest::strategy::Just(0x80u8),
                ]),
                0..4,
            ),
        ) {
            let mut v = vec![b'A'; len];
            for (p, b) in specials {
                if p < len {
                    v[p] = b;
                }
            }
            check(&v);
        }
    }
}
