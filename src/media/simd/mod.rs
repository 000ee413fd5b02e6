//! Block kernels for base64: translate and validate many characters at once.
//!
//! Each kernel does one narrow job on text that is already free of JSON escapes:
//!
//! * `decode(src, dst)` decodes the longest prefix of `src` it can handle made only of
//!   standard-alphabet characters, in whole 4-character quanta, into `dst`, and returns
//!   `(read, written)` with `read % 4 == 0` and `written == read / 4 * 3`;
//! * `validate(src)` returns the length of a prefix of `src`, a multiple of 4, made only of
//!   standard-alphabet characters.
//!
//! A kernel may stop early (the SIMD ones work in 16 or 32-byte blocks and stop before the
//! first block holding anything else: `=`, whitespace, an invalid byte, or the end); the
//! caller's scalar state machine (`super::engine`) takes over from there, handles padding,
//! whitespace and errors, and calls back in once it is on a quantum boundary again.
//!
//! The SIMD kernels share one translation scheme, described with the tables below.
//! `scalar.rs` is the reference twin; tests check that every kernel agrees with it.

pub(crate) mod scalar;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod ssse3;

use std::sync::atomic::{AtomicU8, Ordering};

/// Which block kernel decodes and validates base64.
///
/// [`Kernel::Auto`] (the default) picks the fastest one the CPU supports, detected once per
/// process and cached. The others force a choice, for tests, benchmarks and tools like miri;
/// asking for one the CPU lacks falls back to [`Kernel::Scalar`], never to undefined
/// behaviour.
///
/// ```
/// use agui_wire::media::{Base64, Kernel};
///
/// let b = Base64::from_str("aGVsbG8=").with_kernel(Kernel::Scalar);
/// assert_eq!(b.decode_to_vec().unwrap(), b"hello");
/// assert!(Kernel::Scalar.is_available());
/// assert_ne!(Kernel::detected(), Kernel::Auto);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kernel {
    /// The best kernel this CPU supports (see [`Kernel::detected`]).
    #[default]
    Auto,
    /// Portable scalar code, one 4-character quantum at a time; the reference the SIMD
    /// kernels are tested against.
    Scalar,
    /// x86_64 SSSE3: 16 characters per step (`pshufb` lookups, `pmaddubsw`).
    Ssse3,
    /// x86_64 AVX2: 32 characters per step.
    Avx2,
}

/// 0: not detected yet; otherwise `1 + index` of the detected kernel.
static DETECTED: AtomicU8 = AtomicU8::new(0);

impl Kernel {
    /// The kernel [`Kernel::Auto`] stands for on this machine (never `Auto` itself).
    ///
    /// Detection runs once; later calls read a cached value.
    ///
    /// ```
    /// use agui_wire::media::Kernel;
    /// let k = Kernel::detected();
    /// assert!(k.is_available());
    /// ```
    pub fn detected() -> Kernel {
        match DETECTED.load(Ordering::Relaxed) {
            1 => Kernel::Scalar,
            2 => Kernel::Ssse3,
            3 => Kernel::Avx2,
            _ => {
                let k = detect();
                let code = match k {
                    Kernel::Ssse3 => 2,
                    Kernel::Avx2 => 3,
                    _ => 1,
                };
                DETECTED.store(code, Ordering::Relaxed);
                k
            }
        }
    }

    /// Whether this kernel can run here (`Auto` and `Scalar` always can).
    ///
    /// ```
    /// use agui_wire::media::Kernel;
    /// assert!(Kernel::Auto.is_available());
    /// if !cfg!(target_arch = "x86_64") {
    ///     assert!(!Kernel::Avx2.is_available());
    /// }
    /// ```
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Auto | Kernel::Scalar => true,
            Kernel::Ssse3 => matches!(Kernel::detected(), Kernel::Ssse3 | Kernel::Avx2),
            Kernel::Avx2 => Kernel::detected() == Kernel::Avx2,
        }
    }

    /// A short lowercase name: `"auto"`, `"scalar"`, `"ssse3"`, `"avx2"`.
    ///
    /// ```
    /// assert_eq!(agui_wire::media::Kernel::Avx2.name(), "avx2");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Auto => "auto",
            Kernel::Scalar => "scalar",
            Kernel::Ssse3 => "ssse3",
            Kernel::Avx2 => "avx2",
        }
    }

    /// The kernel that will actually run: `Auto` becomes the detected one, an unavailable
    /// one becomes `Scalar`.
    pub(crate) fn resolve(self) -> Resolved {
        match self {
            Kernel::Auto => Resolved(Kernel::detected()),
            k if k.is_available() => Resolved(k),
            _ => Resolved(Kernel::Scalar),
        }
    }
}

fn detect() -> Kernel {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernel::Avx2;
        }
        if std::arch::is_x86_feature_detected!("ssse3") {
            return Kernel::Ssse3;
        }
    }
    Kernel::Scalar
}

/// A kernel checked to be runnable on this CPU. Only [`Kernel::resolve`] makes one, which is
/// what makes the `unsafe` calls into target-feature functions below sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Resolved(Kernel);

impl Resolved {
    /// The kernel this stands for (never `Auto`).
    #[cfg(test)]
    pub(crate) fn kernel(self) -> Kernel {
        self.0
    }
}

/// Decodes a prefix of `src` made of whole alphabet-only quanta; see the module docs.
#[inline]
pub(crate) fn decode(k: Resolved, src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    match k.0 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Resolved` holds `Avx2` only when runtime detection found AVX2.
        Kernel::Avx2 => unsafe { avx2::decode(src, dst) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Resolved` holds `Ssse3` only when runtime detection found SSSE3.
        Kernel::Ssse3 => unsafe { ssse3::decode(src, dst) },
        _ => scalar::decode(src, dst),
    }
}

/// Length of a prefix of `src` (a multiple of 4) made only of alphabet characters.
#[inline]
pub(crate) fn validate(k: Resolved, src: &[u8]) -> usize {
    match k.0 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Resolved` holds `Avx2` only when runtime detection found AVX2.
        Kernel::Avx2 => unsafe { avx2::validate(src) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Resolved` holds `Ssse3` only when runtime detection found SSSE3.
        Kernel::Ssse3 => unsafe { ssse3::validate(src) },
        _ => scalar::validate(src),
    }
}

/// Copies `src` to `dst` up to the first `\` of `src` or the end of either, and returns how
/// many bytes were copied (so `src[n]` is the backslash when `n < src.len().min(dst.len())`).
///
/// Used to unescape JSON string content; it needs no runtime detection since SSE2 is part
/// of the x86_64 baseline.
#[inline]
pub(crate) fn copy_until_backslash(src: &[u8], dst: &mut [u8]) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
    // SAFETY: this build targets x86_64 with SSE2 enabled (checked by the `cfg`), so the
    // CPU running it has SSE2.
    unsafe {
        sse2_copy_until_backslash(src, dst)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2", not(miri))))]
    {
        scalar::copy_until_backslash(src, dst)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2", not(miri)))]
#[target_feature(enable = "sse2")]
fn sse2_copy_until_backslash(src: &[u8], dst: &mut [u8]) -> usize {
    use core::arch::x86_64::*;
    let len = src.len().min(dst.len());
    let backslash = _mm_set1_epi8(b'\\' as i8);
    let mut i = 0;
    while len - i >= 16 {
        // SAFETY: `i + 16 <= len <= src.len()`; `loadu` has no alignment requirement.
        let v = unsafe { _mm_loadu_si128(src.as_ptr().add(i).cast()) };
        // SAFETY: `i + 16 <= len <= dst.len()`; `storeu` has no alignment requirement. The
        // bytes after a backslash are stored too but not counted, and will be overwritten.
        unsafe { _mm_storeu_si128(dst.as_mut_ptr().add(i).cast(), v) };
        let mask = _mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash));
        if mask != 0 {
            return i + mask.trailing_zeros() as usize;
        }
        i += 16;
    }
    i + scalar::copy_until_backslash(
        src.get(i..len).unwrap_or_default(),
        dst.get_mut(i..len).unwrap_or_default(),
    )
}

// ---------------------------------------------------------------------------------------
// The nibble tables shared by the SIMD kernels.
//
// Validity: split each byte into its high nibble `h` and low nibble `l`. The standard
// alphabet, by high nibble:
//
//   h = 2: only l = 0xB ('+') and l = 0xF ('/')
//   h = 3: l = 0..=9 ('0'-'9')
//   h = 4, 6: l = 1..=0xF ('A'-'O', 'a'-'o')
//   h = 5, 7: l = 0..=0xA ('P'-'Z', 'p'-'z')
//   any other h (controls, punctuation, bytes >= 0x80): nothing
//
// Give each row shape one bit; `HI[h]` is the bit of the row, `LO[l]` has the bit of every
// row in which column `l` is *not* a letter of the alphabet. A byte is invalid exactly when
// `LO[l] & HI[h] != 0`. Both lookups are one `pshufb` each.
//
// Translation: the value is `byte + offset`, and the offset depends on the high nibble only,
// except that '+' and '/' share h = 2. Comparing the byte with '/' gives -1 there; adding it
// to `h` moves '/' to index 1 while '+' stays at 2, so `ROLL[h + (byte == '/')]` is the
// offset, again one `pshufb`.
//
// Packing: with the four 6-bit values a, b, c, d of a quantum in consecutive bytes,
// `pmaddubsw` by (64, 1) pairs gives a*64+b and c*64+d in 16-bit lanes, `pmaddwd` by
// (4096, 1) gives the 24-bit a<<18|b<<12|c<<6|d in each 32-bit lane, and a byte shuffle
// takes bytes 2, 1, 0 of each lane, in that order, to the front.
// ---------------------------------------------------------------------------------------

/// Bit of each row shape, by high nibble.
const ROW_BAD: u8 = 0x01; // h = 0, 1, 8..=15: no letter at all
const ROW_2: u8 = 0x02; // h = 2
const ROW_3: u8 = 0x04; // h = 3
const ROW_46: u8 = 0x08; // h = 4, 6
const ROW_57: u8 = 0x10; // h = 5, 7

/// `HI[h]`: the row bit of high nibble `h`.
pub(crate) const LUT_HI: [u8; 16] = {
    let mut t = [ROW_BAD; 16];
    t[2] = ROW_2;
    t[3] = ROW_3;
    t[4] = ROW_46;
    t[6] = ROW_46;
    t[5] = ROW_57;
    t[7] = ROW_57;
    t
};

/// `LO[l]`: the rows in which low nibble `l` is not a letter.
pub(crate) const LUT_LO: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut l = 0;
    while l < 16 {
        let mut bits = ROW_BAD;
        if l != 0xB && l != 0xF {
            bits |= ROW_2;
        }
        if l > 9 {
            bits |= ROW_3;
        }
        if l == 0 {
            bits |= ROW_46;
        }
        if l > 0xA {
            bits |= ROW_57;
        }
        t[l] = bits;
        l += 1;
    }
    t
};

/// `ROLL[h + (byte == '/' ? -1 : 0)]`: what to add to a valid byte to get its 6-bit value.
pub(crate) const LUT_ROLL: [u8; 16] = {
    let mut t = [0u8; 16];
    t[1] = (63u8).wrapping_sub(b'/'); // '/'
    t[2] = (62u8).wrapping_sub(b'+'); // '+'
    t[3] = (52u8).wrapping_sub(b'0'); // digits
    t[4] = 0u8.wrapping_sub(b'A'); // 'A'-'O'
    t[5] = 0u8.wrapping_sub(b'A'); // 'P'-'Z'
    t[6] = (26u8).wrapping_sub(b'a'); // 'a'-'o'
    t[7] = (26u8).wrapping_sub(b'a'); // 'p'-'z'
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The SIMD scheme, one byte at a time, against the scalar table.
    #[test]
    fn tables_match_scalar_alphabet() {
        for b in 0..=255u8 {
            let h = usize::from(b >> 4);
            let l = usize::from(b & 15);
            let invalid = LUT_LO[l] & LUT_HI[h] != 0;
            let expect = scalar::CLASS[usize::from(b)];
            assert_eq!(invalid, expect >= 64, "byte {b:#04x}");
            if !invalid {
                let idx = (h as u8).wrapping_add(if b == b'/' { 0xFF } else { 0 });
                let v = b.wrapping_add(LUT_ROLL[usize::from(idx)]);
                assert_eq!(v, expect, "byte {b:#04x}");
            }
        }
    }

    #[test]
    fn copy_until_backslash_agrees_with_scalar() {
        for len in 0..80 {
            for at in (0..len).chain([usize::MAX]) {
                let src: Vec<u8> = (0..len)
                    .map(|i| {
                        if i == at {
                            b'\\'
                        } else {
                            b'a' + (i % 26) as u8
                        }
                    })
                    .collect();
                for room in [0, 1, 15, 16, 17, len / 2, len, len + 9] {
                    let mut a = vec![0u8; room];
                    let mut b = vec![0u8; room];
                    let n = copy_until_backslash(&src, &mut a);
                    let m = scalar::copy_until_backslash(&src, &mut b);
                    assert_eq!(n, m, "len {len} at {at} room {room}");
                    assert_eq!(n, at.min(len).min(room));
                    assert_eq!(a[..n], src[..n]);
                    assert_eq!(b[..n], src[..n]);
                }
            }
        }
    }

    #[test]
    fn resolve_is_never_auto() {
        assert_ne!(Kernel::Auto.resolve().kernel(), Kernel::Auto);
        assert_eq!(Kernel::Scalar.resolve().kernel(), Kernel::Scalar);
        for k in [Kernel::Ssse3, Kernel::Avx2] {
            let r = k.resolve().kernel();
            assert!(r == k || r == Kernel::Scalar);
            assert_eq!(r == k, k.is_available());
        }
    }

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /// Every available kernel against the scalar one, with one foreign byte at every
    /// position, and with every byte value at a fixed position.
    #[test]
    fn kernels_agree_with_scalar() {
        let kernels: Vec<Resolved> = [Kernel::Ssse3, Kernel::Avx2]
            .into_iter()
            .filter(|k| k.is_available())
            .map(Kernel::resolve)
            .collect();
        let mut seed = 7;
        let n = if cfg!(miri) { 80 } else { 300 };
        let text: Vec<u8> = (0..n)
            .map(|_| ALPHABET[(lcg(&mut seed) % 64) as usize])
            .collect();
        let check = |src: &[u8]| {
            let mut want = vec![0u8; src.len()];
            let (sr, sw) = scalar::decode(src, &mut want);
            let sv = scalar::validate(src);
            assert_eq!(sr / 4 * 3, sw);
            for &k in &kernels {
                for room in [src.len(), src.len() / 4 * 3, sw, sw.saturating_sub(3), 25] {
                    let mut got = vec![0u8; room];
                    let (r, w) = decode(k, src, &mut got);
                    assert!(r.is_multiple_of(4) && w == r / 4 * 3 && r <= sr && w <= room);
                    assert_eq!(got[..w], want[..w]);
                }
                let v = validate(k, src);
                assert!(v.is_multiple_of(4) && v <= sv, "{k:?}");
                // A kernel stops at most one block before the scalar one.
                assert!(sv - v < 64, "{k:?} {v} {sv}");
            }
        };
        check(&text);
        for pos in 0..text.len().min(100) {
            let mut t = text.clone();
            t[pos] = [b'=', b'\n', b'-', 0x80, b'\\', b' '][pos % 6];
            check(&t);
        }
        for b in 0..=255u8 {
            let mut t = text.clone();
            t[37] = b;
            check(&t);
        }
    }
}
