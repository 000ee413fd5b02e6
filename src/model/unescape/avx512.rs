//! [`super::unescape_blocks`] by 64-byte chunks on CPUs with AVX-512 VBMI2, every escape of a
//! chunk decoded at once: no branch per escape, one per chunk.
//!
//! A chunk always starts where an escape may start (the string's start, or right after a
//! chunk or an escape), so the backslashes that start escapes are found from the chunk's
//! backslash mask alone ([`escape_starts`]). Then, in every byte lane at once:
//! - the byte after each two-character escape's backslash is looked up in [`SIMPLE`]
//!   (`vpermi2b`, 128 entries) and the backslash dropped;
//! - each `\uXXXX` escape's four hex digits (read by four loads two to five bytes further on)
//!   are looked up in [`HEX`], joined into the code unit's high and low bytes, and encoded as
//!   one to three UTF-8 bytes written over the `\`, `u` and first digit, the rest dropped;
//! - a high surrogate's `\uXXXX` followed by a low one's, both in the chunk, are one character:
//!   its four UTF-8 bytes are written over the first escape's first four bytes;
//! - the bytes kept are packed together (`vpcompressb`) and stored where the output has got to.
//!
//! A chunk stops early at the first escape it cannot decode this way: one that runs past the
//! chunk's end, a surrogate that is not half of a pair inside the chunk (a lone one decodes
//! to U+FFFD), bad hex or a bad escape character (which validated content never has). When
//! that escape is the chunk's first byte, [`put_escape`] decodes it alone, as
//! [`super::block_loop`] does.
//!
//! The last bytes (fewer than a chunk and the five it reads past it) are read with masked
//! loads, which read nothing outside `raw`. The portable twin is the 16-byte loop of
//! [`super::blocks`]; the tests and the fuzz target `fast_vs_scalar` compare them.

use std::arch::x86_64::*;
use std::mem::MaybeUninit;

use super::{HEX, SIMPLE, SLACK, put_escape};

/// Bytes a chunk counts.
const W: usize = 64;
/// Bytes a chunk reads past its `W`: the last hex digit of a `\u` escape at byte 58.
const OVER: usize = 5;
/// The even bit positions.
const EVEN: u64 = 0x5555_5555_5555_5555;

/// Lane `j` of a `vpermb` by this takes lane `j - 1` (lane 0 takes lane 0; it is never used).
const BACK1: [u8; 64] = back(1);
/// Lane `j` takes lane `j - 2`.
const BACK2: [u8; 64] = back(2);
/// Lane `j` takes lane `j - 3`.
const BACK3: [u8; 64] = back(3);
/// Lane `j` takes lane `j + 6` (the last six take lane 63; they are never used).
const AHEAD6: [u8; 64] = {
    let mut t = [63u8; 64];
    let mut j = 0;
    while j + 6 < 64 {
        t[j] = (j + 6) as u8;
        j += 1;
    }
    t
};

const fn back(by: usize) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut j = by;
    while j < 64 {
        t[j] = (j - by) as u8;
        j += 1;
    }
    t
}

/// The backslashes of `bs` (bit `k` is byte `k`) that start an escape, when byte 0 is not
/// inside one: in each run of backslashes, the first, the third, and so on (the others are
/// escaped backslashes). Adding a run's first bit carries through the run and clears it, which
/// tells the runs that start on an even bit from those that start on an odd one.
#[inline(always)]
fn escape_starts(bs: u64) -> u64 {
    let run_starts = bs & !(bs << 1);
    let even_runs = bs & !bs.wrapping_add(run_starts & EVEN);
    let odd_runs = bs & !bs.wrapping_add(run_starts & !EVEN);
    (even_runs & EVEN) | (odd_runs & !EVEN)
}

/// The constant vectors, loaded once per string.
#[derive(Clone, Copy)]
struct Tables {
    backslash: __m512i,
    u: __m512i,
    simple: [__m512i; 2],
    hex: [__m512i; 2],
    back1: __m512i,
    back2: __m512i,
    back3: __m512i,
    ahead6: __m512i,
}

impl Tables {
    #[target_feature(enable = "avx512f,avx512bw")]
    fn new() -> Tables {
        // SAFETY: each load reads 64 bytes of a table of 256 or 64 (unaligned loads allowed).
        unsafe {
            let at = |t: &[u8], k: usize| _mm512_loadu_si512(t.as_ptr().add(k).cast());
            Tables {
                backslash: _mm512_set1_epi8(b'\\' as i8),
                u: _mm512_set1_epi8(b'u' as i8),
                simple: [at(&SIMPLE, 0), at(&SIMPLE, 64)],
                hex: [at(&HEX, 0), at(&HEX, 64)],
                back1: at(&BACK1, 0),
                back2: at(&BACK2, 0),
                back3: at(&BACK3, 0),
                ahead6: at(&AHEAD6, 0),
            }
        }
    }
}

/// One chunk, its bytes `v` (`bs` its backslashes, not 0), `h[k]` the 64 bytes `k + 2` further
/// on. Returns the bytes to drop (a mask), the escapes where the chunk must stop (their
/// backslashes: the chunk takes the bytes before the first), and the vector to pack the kept
/// bytes from.
///
/// (A macro over a closure called at once: each loop gets its own copy, inlined, which a
/// function this long would not be; the closure takes the caller's target features.)
macro_rules! chunk {
    ($t:expr, $v:expr, $bs:expr, $h:expr) => {{
        let (t, v, bs, h): (&Tables, __m512i, u64, [__m512i; 4]) = ($t, $v, $bs, $h);
        (|| -> (u64, u64, __m512i) {
            let starts = escape_starts(bs);
            let u = starts & (_mm512_cmpeq_epi8_mask(v, t.u) >> 1);
            let simple = starts & !u;
            // The byte each two-character escape stands for, in its second byte's lane (0 for
            // the bytes that are not an escape character; bytes from 0x80 must not look like
            // one).
            let dec = _mm512_permutex2var_epi8(t.simple[0], v, t.simple[1]);
            let ok_char = _mm512_test_epi8_mask(dec, dec) & !_mm512_movepi8_mask(v);
            // A two-character escape ending past the chunk (at byte 63) has no `ok_char` bit
            // either.
            let mut cut = (simple & !(ok_char >> 1)) | (u & (!0u64 << (W - OVER)));

            let out = _mm512_mask_mov_epi8(v, simple << 1, dec);
            let drop = simple;
            if u == 0 {
                return (drop, cut, out);
            }
            // A branch, measured faster than doing this for every chunk (chat_heavy/1000
            // parse + decode 217-223 against 230-234 µs; the tenth pass found a `\u` in a third of
            // the 32-byte chunks with escapes).
            // `\uXXXX`: each digit's value (0x80 when not a hex digit or not ASCII) in the
            // escape's first lane.
            let [h2, h3, h4, h5] = h;
            let n = [h2, h3, h4, h5].map(|x| _mm512_permutex2var_epi8(t.hex[0], x, t.hex[1]));
            let or3 = |a, b, c| _mm512_ternarylogic_epi32::<0xFE>(a, b, c);
            let flags = or3(
                or3(n[0], n[1], n[2]),
                or3(n[3], h2, h3),
                _mm512_or_si512(h4, h5),
            );
            let bad_hex = _mm512_movepi8_mask(flags);
            let m = |x, bits: i8| _mm512_and_si512(x, _mm512_set1_epi8(bits));
            let f4 = _mm512_set1_epi8(0x0F);
            // The code unit's high and low bytes; the nibbles are masked before the 16-bit
            // shift so that nothing crosses into the next lane.
            let hi = _mm512_or_si512(
                _mm512_slli_epi16::<4>(_mm512_and_si512(n[0], f4)),
                m(n[1], 0x0F),
            );
            let lo = _mm512_or_si512(
                _mm512_slli_epi16::<4>(_mm512_and_si512(n[2], f4)),
                m(n[3], 0x0F),
            );
            let two = _mm512_cmplt_epu8_mask(hi, _mm512_set1_epi8(0x08)); // below U+0800
            let zero = _mm512_setzero_si512();
            let one = _mm512_cmpeq_epi8_mask(hi, zero) & !_mm512_movepi8_mask(lo);
            let sur = _mm512_cmpeq_epi8_mask(m(hi, 0xF8u8 as i8), _mm512_set1_epi8(0xD8u8 as i8));
            cut |= u & bad_hex;

            // UTF-8: `hi << 2 | lo >> 6` is the code unit's bits 6 to 13.
            let hi2 = m(_mm512_slli_epi16::<2>(hi), 0xFCu8 as i8);
            let lo6 = m(_mm512_srli_epi16::<6>(lo), 0x03);
            let tail = _mm512_or_si512(m(lo, 0x3F), _mm512_set1_epi8(0x80u8 as i8));
            let lead2 = or3(hi2, lo6, _mm512_set1_epi8(0xC0u8 as i8));
            let lead3 = _mm512_or_si512(
                m(_mm512_srli_epi16::<4>(hi), 0x0F),
                _mm512_set1_epi8(0xE0u8 as i8),
            );
            let lead23 = _mm512_mask_blend_epi8(two, lead3, lead2);
            let mut b0 = _mm512_mask_blend_epi8(one, lead23, lo);
            let mid3 = or3(m(hi2, 0x3C), lo6, _mm512_set1_epi8(0x80u8 as i8));
            let mut b1 = _mm512_mask_blend_epi8(two, mid3, tail);
            let mut b2 = tail;
            let mut out = out;
            let mut drop = drop;
            let mut single = u;
            let mut pair = 0;
            if u & sur != 0 {
                // Surrogates. A high one (`\uD800` to `\uDBFF`) at byte `p` followed by a low
                // one (`\uDC00` to `\uDFFF`) at `p + 6`, both in the chunk (`p <= 52`), is one
                // character of four UTF-8 bytes; any other surrogate stops the chunk (it
                // decodes alone).
                let top = m(hi, 0xFCu8 as i8);
                let high = u & _mm512_cmpeq_epi8_mask(top, _mm512_set1_epi8(0xD8u8 as i8));
                let low = u & _mm512_cmpeq_epi8_mask(top, _mm512_set1_epi8(0xDCu8 as i8));
                // Both halves' digits must be hex (a low half with bad hex stops the chunk
                // there, and the high half before it must not be read as a pair; the bad hex
                // then sends the whole string the slow way anyway).
                let ok = !bad_hex;
                pair = high & ok & (low & ok) >> 6 & ((1 << (W - 11)) - 1);
                cut |= u & sur & !pair & !(pair << 6);
                single &= !(pair | pair << 6);
                // The character is `0x10000 + (hi10 << 10 | lo10)`: with `w = hi10 + 0x40`
                // (11 bits, its low byte `wl` and high bits `wh`) it is `w << 10 | lo10`.
                let hi_q = _mm512_permutexvar_epi8(t.ahead6, hi);
                let lo_q = _mm512_permutexvar_epi8(t.ahead6, lo);
                let wl = _mm512_add_epi8(lo, _mm512_set1_epi8(0x40));
                let carry = _mm512_cmpge_epu8_mask(lo, _mm512_set1_epi8(0xC0u8 as i8));
                let hi10 = m(hi, 0x03);
                let wh = _mm512_mask_add_epi8(hi10, carry, hi10, _mm512_set1_epi8(1));
                let p0 = _mm512_or_si512(wh, _mm512_set1_epi8(0xF0u8 as i8));
                let p1 = _mm512_or_si512(
                    m(_mm512_srli_epi16::<2>(wl), 0x3F),
                    _mm512_set1_epi8(0x80u8 as i8),
                );
                let p2 = or3(
                    m(_mm512_slli_epi16::<4>(wl), 0x30),
                    m(_mm512_slli_epi16::<2>(hi_q), 0x0C),
                    or3(
                        m(_mm512_srli_epi16::<6>(lo_q), 0x03),
                        _mm512_set1_epi8(0x80u8 as i8),
                        _mm512_setzero_si512(),
                    ),
                );
                let p3 = _mm512_or_si512(m(lo_q, 0x3F), _mm512_set1_epi8(0x80u8 as i8));
                b0 = _mm512_mask_blend_epi8(pair, b0, p0);
                b1 = _mm512_mask_blend_epi8(pair, b1, p1);
                b2 = _mm512_mask_blend_epi8(pair, b2, p2);
                let p3 = _mm512_permutexvar_epi8(t.back3, p3);
                out = _mm512_mask_mov_epi8(out, pair << 3, p3);
                // Bytes `p + 4` to `p + 11` (pairs are at least 12 bytes apart: no carries).
                drop |= pair.wrapping_mul(0xFF) << 4;
            }
            // Each escape's first three bytes (a pair's too; its fourth is written above).
            let lead = single | pair;
            let out = _mm512_mask_mov_epi8(out, lead, b0);
            let b1 = _mm512_permutexvar_epi8(t.back1, b1);
            let b2 = _mm512_permutexvar_epi8(t.back2, b2);
            let out = _mm512_mask_mov_epi8(out, lead << 1, b1);
            let out = _mm512_mask_mov_epi8(out, lead << 2, b2);
            let drop = drop
                | single << 3
                | single << 4
                | single << 5
                | (single & two) << 2
                | (single & one) << 1;
            (drop, cut, out)
        })()
    }};
}

/// Whether the CPU has what [`blocks64`] needs: the scanner's CPU level (its feature tests
/// once, then one load).
#[inline(always)]
pub(super) fn available() -> bool {
    crate::scanner::simd::level() >= 3
}

/// [`super::unescape_blocks`] by 64-byte chunks (see the module's doc). Returns the output's
/// length, or `None` as it does.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, VBMI and VBMI2, and BMI2.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn blocks64(raw: &[u8], out: &mut [MaybeUninit<u8>]) -> Option<usize> {
    let n = raw.len();
    if W > SLACK || out.len() < n.checked_add(SLACK)? {
        return None;
    }
    let t = Tables::new();
    let src = raw.as_ptr();
    let dst = out.as_mut_ptr();
    // The chunk at `raw[i..]`, its bytes `v` and `h` as for `chunk`, of which the first `limit`
    // count (at most `W`; less only at the end of `raw`): decoded and stored at `dst + o`
    // (`o <= i < n`). Gives the new `i` and `o` (returns `None` as `unescape_blocks` does).
    // (A macro, so that each loop has its own copy, inlined, with its own `limit`.)
    macro_rules! step {
        ($i:expr, $o:expr, $v:expr, $h:expr, $limit:expr) => {{
            let (i, o, v, h, limit): (usize, usize, __m512i, [__m512i; 4], usize) =
                ($i, $o, $v, $h, $limit);
            debug_assert!(o <= i && i < n);
            let bs = _mm512_cmpeq_epi8_mask(v, t.backslash);
            if bs == 0 {
                // SAFETY: `o <= i < n`, so the 64 bytes at `dst + o` end by `n + SLACK`, in
                // `out`.
                unsafe { _mm512_storeu_si512(dst.add(o).cast(), v) };
                (i + limit, o + limit)
            } else {
                let (drop, cut, bytes) = chunk!(&t, v, bs, h);
                // A branch, not a select: the next chunk's loads need not wait for the
                // escapes' decoding when the chunk takes all of its bytes, as most do.
                let (took, keep) = if cut == 0 && limit == W {
                    (W, !drop)
                } else {
                    let took = (cut.trailing_zeros() as usize).min(limit);
                    // `took` <= 64; `_bzhi_u64` keeps every bit for 64.
                    (took, !drop & _bzhi_u64(!0, took as u32))
                };
                if took == 0 {
                    // Byte `i` starts an escape the chunk leaves alone (`escape_starts`
                    // says so: it is a backslash).
                    let c = *raw.get(i + 1)?;
                    // SAFETY: `o <= i < n`, and `dst` is the start of `out`, `n + SLACK`
                    // bytes long and used by nothing else meanwhile.
                    let (took, wrote) = unsafe { put_escape(raw, i, c, dst, o) }?;
                    (i + took, o + wrote)
                } else {
                    let packed = _mm512_maskz_compress_epi8(keep, bytes);
                    // SAFETY: as for the store above.
                    unsafe { _mm512_storeu_si512(dst.add(o).cast(), packed) };
                    (i + took, o + keep.count_ones() as usize)
                }
            }
        }};
    }
    let (mut i, mut o) = (0usize, 0usize);
    // Every chunk takes at most what it stores (`o <= i`: an escape never decodes to more
    // bytes than it is long), so a 64-byte store at `dst + o` ends by `i + 64 <= n + SLACK`.
    while n - i >= W + OVER {
        // SAFETY: the 64 bytes at `src + i + k`, `k <= OVER`, lie in `raw`
        // (`i + 64 + 5 <= n`); unaligned loads are allowed.
        let (v, h) = unsafe {
            let at = |k: usize| _mm512_loadu_si512(src.add(i + k).cast());
            (at(0), [at(2), at(3), at(4), at(5)])
        };
        (i, o) = step!(i, o, v, h, W);
    }
    while i < n {
        let rem = n - i;
        // The last bytes: lanes past `raw` read as 0 (neither a backslash nor a digit).
        let lanes = |k: usize| _bzhi_u64(!0, rem.saturating_sub(k).min(W) as u32);
        // SAFETY: a masked load reads only its mask's lanes, and those lie in `raw` (the
        // first `rem - k` bytes from `src + i + k`, `i + rem == n`); when `k >= rem` no lane
        // is read, and the pointer, past `raw`'s end then, is made with `wrapping_add`.
        let (v, h) = unsafe {
            let at = |k: usize| _mm512_maskz_loadu_epi8(lanes(k), src.wrapping_add(i + k).cast());
            (at(0), [at(2), at(3), at(4), at(5)])
        };
        (i, o) = step!(i, o, v, h, rem.min(W));
    }
    Some(o)
}

#[cfg(test)]
mod tests {
    use std::mem::MaybeUninit;

    use super::super::{SLACK, unescape_scalar};
    use super::{available, blocks64, escape_starts};

    /// Whether this CPU runs `blocks64`; if not, says so on the real standard error, as a
    /// `SKIPPED:` line that `.ci/run` counts as a skip (libtest captures `eprintln!`).
    fn runs_here(test: &str) -> bool {
        use std::io::Write;
        if available() {
            return true;
        }
        let line = format!("SKIPPED: {test}: this CPU has no AVX-512 VBMI2, `blocks64` not run\n");
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
        false
    }

    /// `blocks64` itself (not whichever loop the CPU picks) against the scalar twin; `None`
    /// only where an escape is invalid. The caller has checked [`runs_here`].
    fn agrees(raw: &str) {
        let want = unescape_scalar(raw);
        let mut out = vec![MaybeUninit::new(0u8); raw.len() + SLACK];
        // SAFETY: the CPU has what `blocks64` needs (just checked).
        match unsafe { blocks64(raw.as_bytes(), &mut out) } {
            Some(len) => {
                // SAFETY: every byte of `out` was initialized (to 0, then written over).
                let got: Vec<u8> = out[..len]
                    .iter()
                    .map(|b| unsafe { b.assume_init() })
                    .collect();
                assert_eq!(String::from_utf8(got).as_deref(), Ok(&*want), "{raw:?}");
            }
            None => assert!(crate::Str::from_raw(raw).is_err(), "{raw:?}"),
        }
    }

    /// Runs of backslashes of every length, then a character, at every offset of the first
    /// two chunks and of the masked last bytes, with text or escapes after them.
    #[test]
    fn backslash_runs_everywhere() {
        if !runs_here("backslash_runs_everywhere") {
            return;
        }
        for run in 1..=9 {
            for after in ["n", "u00e9", "u2615", "x", "\\", "ud83d\\ude00", "\"", "é"] {
                for pre in 0..140 {
                    for post in [0, 1, 5, 6, 64, 70] {
                        let text = format!(
                            "{}{}{after}{}",
                            "a".repeat(pre),
                            "\\".repeat(run),
                            "z".repeat(post)
                        );
                        agrees(&text);
                    }
                }
            }
        }
    }

    /// Chunks packed with escapes of every kind back to back, so that many decode in one chunk
    /// and some straddle each chunk's end, at every starting offset; and invalid escapes put
    /// anywhere in them.
    #[test]
    fn dense_escapes_at_every_offset() {
        if !runs_here("dense_escapes_at_every_offset") {
            return;
        }
        // Each decodes to no more bytes than it takes (lone surrogates to U+FFFD), so the
        // whole string goes through `blocks64` and its output is compared.
        let kinds = [
            r"\n",
            r"\u00e9",
            r"\u0041",
            r"\u2615",
            r"\\",
            r#"\""#,
            r"\/",
            r"\ud83d\ude00",
            r"\uDBFF\uDFFF",
            "é",
            "x",
            r"\u07ff",
            r"\u0800",
            r"\uffff",
            r"\u007f",
            r"\u0080",
            r"\uD7FF",
            r"\uE000",
            r"\uDE00",
            r"\ud800",
            r"\ud83d\u0041",
        ];
        // Each makes `blocks64` give up (`None`), wherever it is.
        let bad = [r"\q", r"\u12x4", r"\ud83d\udeXY", r"\uDBFF\uDC0", "\\"];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as usize
        };
        for pre in 0..70 {
            let mut text = "p".repeat(pre);
            for _ in 0..60 {
                text.push_str(kinds[next() % kinds.len()]);
            }
            for end in 0..text.len() {
                if text.is_char_boundary(end) {
                    agrees(&text[..end]);
                }
            }
            for b in bad {
                let cut = (next() % text.len()..text.len())
                    .find(|&c| text.is_char_boundary(c))
                    .unwrap_or(text.len());
                agrees(&format!("{}{b}{}", &text[..cut], &text[cut..]));
                agrees(&format!("{}{b}", &text[..cut]));
            }
        }
    }

    /// `escape_starts` against a walk over the bits.
    #[test]
    fn escape_starts_by_walking() {
        let walk = |bs: u64| {
            let (mut starts, mut k) = (0u64, 0);
            while k < 64 {
                if bs >> k & 1 == 1 {
                    starts |= 1 << k;
                    k += 2;
                } else {
                    k += 1;
                }
            }
            starts
        };
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for bs in [x, x & x >> 1, x | x >> 1, x & x >> 3, !0, !0 << 1, 1 << 63] {
                assert_eq!(escape_starts(bs), walk(bs), "{bs:064b}");
            }
        }
    }
}
