//! Unescaping JSON string content (the bytes between the quotes, already validated).
//!
//! The fast path, [`unescape_runs`], copies the text between escapes in whole runs (`memchr`
//! finds each backslash with vector instructions) and decodes the common escapes with a table;
//! [`unescape_to`] is its byte-at-a-time twin, the reference the tests and the differential
//! fuzz target (`fuzz/fuzz_targets/fast_vs_scalar.rs`) compare it with. Both decode invalid
//! escapes (which validated input never has; error messages unescape raw bytes) the same way,
//! as U+FFFD.

use std::mem::MaybeUninit;

use bumpalo::Bump;

/// Where [`unescape_runs`] writes.
pub(crate) trait ByteSink {
    fn put(&mut self, bytes: &[u8]);
}

impl ByteSink for Vec<u8> {
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

impl ByteSink for bumpalo::collections::Vec<'_, u8> {
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice_copy(bytes);
    }
}

/// The byte a two-character escape `\c` stands for, indexed by `c`; 0 for the others.
const SIMPLE: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'/' as usize] = b'/';
    t[b'b' as usize] = 0x08;
    t[b'f' as usize] = 0x0c;
    t[b'n' as usize] = b'\n';
    t[b'r' as usize] = b'\r';
    t[b't' as usize] = b'\t';
    t
};

/// Unescapes `raw` into `out`: each run between backslashes in one copy, each escape decoded
/// on its own. For valid content the output is never longer than `raw` (every escape is at
/// least as long as the UTF-8 it stands for; an invalid one may decode to a longer U+FFFD,
/// which only makes the output grow), and it is always valid UTF-8: runs split `raw` (a `str`) only at
/// backslashes, which are ASCII, and escapes decode to whole characters.
#[inline]
pub(crate) fn unescape_runs(raw: &str, out: &mut impl ByteSink) {
    let b = raw.as_bytes();
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'\\', b.get(i..).unwrap_or_default()) {
        let at = i + off;
        out.put(&b[i..at]);
        i = at + escape_into(b, at, out);
    }
    out.put(b.get(i..).unwrap_or_default());
}

/// Decodes the escape whose backslash is at `b[at]` into `out`; returns its length.
#[inline(always)]
fn escape_into(b: &[u8], at: usize, out: &mut impl ByteSink) -> usize {
    match b.get(at + 1) {
        Some(&c) if SIMPLE[c as usize] != 0 => {
            out.put(&[SIMPLE[c as usize]]);
            2
        }
        // `\uXXXX` outside the surrogates: encoded here (pairs and bad hex go the slow way).
        Some(b'u') if let Some(u) = hex4(b, at + 2).filter(|u| !(0xD800..0xE000).contains(u)) => {
            // The casts keep the low bits on purpose: `u` < 0x10000, split into UTF-8 bytes.
            if u < 0x80 {
                out.put(&[u as u8]);
            } else if u < 0x800 {
                out.put(&[0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]);
            } else {
                out.put(&[
                    0xE0 | (u >> 12) as u8,
                    0x80 | ((u >> 6) & 0x3F) as u8,
                    0x80 | (u & 0x3F) as u8,
                ]);
            }
            6
        }
        _ => {
            let (ch, len) = decode_escape(b, at);
            let mut buf = [0u8; 4];
            out.put(ch.encode_utf8(&mut buf).as_bytes());
            len
        }
    }
}

/// The value of each hex digit, indexed by byte; 0x80 for the bytes that are not one.
const HEX: [u8; 256] = {
    let mut t = [0x80u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = match c as u8 {
            d @ b'0'..=b'9' => d - b'0',
            d @ b'a'..=b'f' => d - b'a' + 10,
            d @ b'A'..=b'F' => d - b'A' + 10,
            _ => 0x80,
        };
        c += 1;
    }
    t
};

/// The value of the four hex digits at `b[at..]`, if they are four hex digits (four table
/// looks and one test, no branch per digit).
#[inline(always)]
fn hex4(b: &[u8], at: usize) -> Option<u32> {
    let &[w, x, y, z] = b.get(at..)?.first_chunk::<4>()?;
    let [w, x, y, z] = [w, x, y, z].map(|c| HEX[c as usize] as u32);
    if (w | x | y | z) & 0x80 != 0 {
        return None;
    }
    Some(w << 12 | x << 8 | y << 4 | z)
}

/// How many bytes past `raw.len()` the output of [`unescape_blocks`] must have (a chunk's
/// store, 64 bytes for [`avx512`]'s).
const SLACK: usize = 64;

/// Unescapes `raw` into `out` (at least `raw.len() + SLACK` bytes) by chunks: 64 bytes with
/// every escape of a chunk decoded at once ([`avx512`], when the CPU has AVX-512 VBMI2), or
/// else 32 bytes (AVX2, when the CPU has it and `raw` is longer) or 16, with no call per
/// escape: each chunk of `raw` is
/// stored whole where the output has got to, and only its bytes before the first backslash
/// count (the rest is written over next); that escape is decoded in place and the next
/// chunk starts right after it. Returns the output's length `len`, or `None` when an escape
/// decodes to more bytes than it is long (only invalid ones, which validated content never
/// has; the caller then unescapes by runs).
///
/// On `Some(len)`, every byte of `out[..len]` has been written: the output only grows over
/// bytes just stored (a chunk's 64, 32 or 16 cover the at most as many it counts; an escape's 4
/// the at most 4 it decodes to). Every escape is at least as long as what it decodes to
/// (`escape_with` returns `None` otherwise), so the output never gets ahead of the input
/// (`o <= i`), and a chunk stored at `o` ends by `raw.len() + SLACK`. The output is valid
/// UTF-8 for the same reason as [`unescape_runs`]'s: the bytes kept are `raw` cut at ASCII
/// backslashes, and escapes decode to whole characters.
#[inline]
fn unescape_blocks(raw: &[u8], out: &mut [MaybeUninit<u8>]) -> Option<usize> {
    blocks(raw, out, Kernel::Widest)
}

/// Which loop [`blocks`] may take: the tests run each and compare them.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kernel {
    /// The portable 16-byte loop.
    Portable,
    /// The 32-byte AVX2 loop, if the CPU has AVX2 (only the tests stop there).
    #[cfg_attr(not(test), allow(dead_code))]
    Avx2,
    /// The 64-byte AVX-512 chunks, if the CPU has them; else as `Avx2`.
    Widest,
}

/// [`unescape_blocks`], by the widest loop `kernel` allows that the CPU has.
#[inline(always)]
fn blocks(raw: &[u8], out: &mut [MaybeUninit<u8>], kernel: Kernel) -> Option<usize> {
    let n = raw.len();
    if out.len() < n.checked_add(SLACK)? {
        return None;
    }
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    {
        if kernel == Kernel::Widest && avx512::available() {
            // SAFETY: the CPU has what `blocks64` needs (just checked).
            return unsafe { avx512::blocks64(raw, out) };
        }
        if kernel != Kernel::Portable && n > 32 && std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (just checked).
            return unsafe { avx2::blocks32(raw, out) };
        }
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar))))]
    let _ = kernel;
    chunks::<16>(raw, out, |src, dst| {
        *dst = src.map(MaybeUninit::new);
        crate::scanner::simd::backslashes16(src)
    })
}

/// [`block_loop`] from the start of `raw`, then [`tail_loop`].
#[inline(always)]
fn chunks<const W: usize>(
    raw: &[u8],
    out: &mut [MaybeUninit<u8>],
    copy_mask: impl Fn(&[u8; W], &mut [MaybeUninit<u8>; W]) -> u32,
) -> Option<usize> {
    let (i, o) = block_loop::<W>(raw, out, 0, 0, &copy_mask)?;
    tail_loop::<W>(raw, out, i, o, &copy_mask)
}

/// The chunk loop of [`unescape_blocks`] from input offset `i` and output offset `o`
/// (`o <= i`), by chunks of `W <= SLACK` bytes while a whole chunk and one byte more lie in
/// `raw`: `copy_mask` copies a chunk and returns its backslashes (bit `k` is byte `k`).
/// Returns where it stopped, or `None` as [`unescape_blocks`] does.
///
/// The chunks are read and stored without a bounds check each: the caller has checked
/// `out.len() >= raw.len() + SLACK`, and `o <= i` and `i + W < raw.len()` bound both.
#[inline(always)]
fn block_loop<const W: usize>(
    raw: &[u8],
    out: &mut [MaybeUninit<u8>],
    mut i: usize,
    mut o: usize,
    copy_mask: impl Fn(&[u8; W], &mut [MaybeUninit<u8>; W]) -> u32,
) -> Option<(usize, usize)> {
    let n = raw.len();
    if W > SLACK || out.len() < n + SLACK || o > i {
        return None;
    }
    let src = raw.as_ptr();
    let dst = out.as_mut_ptr();
    while i + W < n {
        debug_assert!(o <= i);
        // SAFETY: `i + W < n`, so the `W` bytes at `src + i` lie in `raw`; `o <= i` (see
        // [`unescape_blocks`]: every escape decodes to at most its own length), so the `W` at
        // `dst + o` end by `n + W <= out.len()`. Arrays of `u8` and `MaybeUninit<u8>` have
        // alignment 1; `raw` and `out` do not overlap (`out` is borrowed mutably), and `out`
        // is not used while `dst` is borrowed.
        let m = unsafe { copy_mask(&*src.add(i).cast(), &mut *dst.add(o).cast()) };
        if m == 0 {
            i += W;
            o += W;
            continue;
        }
        // Below `W` (`m` has `W` bits; the mask makes sure, `W` being a power of two).
        let k = (m.trailing_zeros() as usize) & (W - 1);
        i += k;
        o += k;
        // SAFETY: `i + 1` (the escape's second byte) is at most the old `i + W`, below `n`.
        let c = unsafe { *src.add(i + 1) };
        let one = SIMPLE[c as usize];
        if one != 0 {
            // SAFETY: `o <= i < n`, so `dst + o` lies in `out`.
            unsafe { dst.add(o).write(MaybeUninit::new(one)) };
            i += 2;
            o += 1;
            continue;
        }
        // SAFETY: `o <= i < n` (the escape's backslash is in `raw`) and `dst` is `out`'s
        // start, with `out.len() >= n + SLACK` (checked on entry).
        let (took, wrote) = unsafe { put_escape(raw, i, c, dst, o) }?;
        i += took;
        o += wrote;
    }
    Some((i, o))
}

/// Writes the escape whose backslash is `raw[i]` and whose second byte `c` is not a
/// two-character escape's (those [`block_loop`] and [`tail_loop`] write from [`SIMPLE`]) at
/// `dst + o`, by [`escape_with`]. Returns the bytes it took from `raw` and the bytes it
/// wrote, or `None` as [`escape_with`] does.
///
/// # Safety
/// `o <= i < raw.len()`, and `dst` is the start of an output of at least
/// `raw.len() + SLACK` bytes that nothing else uses meanwhile.
#[inline(always)]
unsafe fn put_escape(
    raw: &[u8],
    i: usize,
    c: u8,
    dst: *mut MaybeUninit<u8>,
    o: usize,
) -> Option<(usize, usize)> {
    let (bytes, len, wrote) = escape_with(raw, i, c)?;
    debug_assert!(wrote <= len);
    // SAFETY: `o <= i < raw.len()`, so the 4 bytes at `dst + o` end by `raw.len() + 3`, below
    // the output's `raw.len() + SLACK`; an unaligned write of `[u8; 4]`.
    unsafe {
        dst.add(o)
            .cast::<[MaybeUninit<u8>; 4]>()
            .write_unaligned(bytes.map(MaybeUninit::new))
    };
    Some((len, wrote))
}

#[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
mod avx512;

/// The 32-byte chunks of [`unescape_blocks`].
#[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
mod avx2 {
    use std::arch::x86_64::*;
    use std::mem::MaybeUninit;

    /// [`super::chunks`] by 32-byte AVX2 chunks.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn blocks32(raw: &[u8], out: &mut [MaybeUninit<u8>]) -> Option<usize> {
        let backslash = _mm256_set1_epi8(b'\\' as i8);
        super::chunks::<32>(raw, out, |src, dst| {
            // SAFETY: AVX2 is enabled in this function (the closure inherits it); the load
            // reads the 32 bytes of `src` and the store writes the 32 of `dst` (unaligned
            // accesses are allowed).
            unsafe {
                let v = _mm256_loadu_si256(src.as_ptr().cast());
                _mm256_storeu_si256(dst.as_mut_ptr().cast(), v);
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, backslash)) as u32
            }
        })
    }
}

/// The last bytes of [`unescape_blocks`] (at most `W` from `i`; `o <= i`), by the same
/// chunks as [`block_loop`] read from a copy of the string's last `W` bytes (all of it if
/// shorter) followed by zeros (not backslashes), so that a chunk at any `i` reads nothing
/// past the string. Returns the output's length.
#[inline(always)]
fn tail_loop<const W: usize>(
    raw: &[u8],
    out: &mut [MaybeUninit<u8>],
    mut i: usize,
    mut o: usize,
    copy_mask: impl Fn(&[u8; W], &mut [MaybeUninit<u8>; W]) -> u32,
) -> Option<usize> {
    let n = raw.len();
    let mut buf = [0u8; 64];
    let base = n.saturating_sub(W);
    if n >= W {
        let last: &[u8; W] = raw.get(base..)?.try_into().ok()?;
        buf.get_mut(..W)?.copy_from_slice(last);
    } else {
        buf.get_mut(..n)?.copy_from_slice(raw);
    }
    if 2 * W > buf.len() || out.len() < n + SLACK || i < base || o > i {
        return None;
    }
    let src = buf.as_ptr();
    let dst = out.as_mut_ptr();
    while i < n {
        debug_assert!(o <= i);
        let left = n - i;
        // SAFETY: `base <= i < n <= base + W`, so the `W` bytes at `src + (i - base)` end by
        // `2 * W <= buf.len()`; `o <= i < n` (as in `block_loop`), so the `W` at `dst + o` end
        // by `n + W <= out.len()`. Alignment 1; `buf` is a local copy, and `out` is not used
        // while `dst` is borrowed.
        let m = unsafe { copy_mask(&*src.add(i - base).cast(), &mut *dst.add(o).cast()) };
        if m == 0 {
            return Some(o + left);
        }
        let k = (m.trailing_zeros() as usize) & (W - 1);
        i += k;
        o += k;
        // A backslash ending the string (never in validated content) has no second byte.
        let c = *raw.get(i + 1)?;
        let one = SIMPLE[c as usize];
        if one != 0 {
            // SAFETY: `o <= i < n`, so `dst + o` lies in `out`.
            unsafe { dst.add(o).write(MaybeUninit::new(one)) };
            i += 2;
            o += 1;
            continue;
        }
        // SAFETY: `o <= i < n` (the escape's backslash is in `raw`) and `dst` is `out`'s
        // start, with `out.len() >= n + SLACK` (checked on entry).
        let (took, wrote) = unsafe { put_escape(raw, i, c, dst, o) }?;
        i += took;
        o += wrote;
    }
    Some(o)
}

/// Decodes the escape whose backslash is at `b[at]` and whose second byte is `c`
/// (`b[at + 1]`): the UTF-8 it stands for (in the first bytes of four), the escape's length
/// and the UTF-8 length, or `None` when that is more than the escape's length.
#[inline(always)]
fn escape_with(b: &[u8], at: usize, c: u8) -> Option<([u8; 4], usize, usize)> {
    if SIMPLE[c as usize] != 0 {
        return Some(([SIMPLE[c as usize], 0, 0, 0], 2, 1));
    }
    if c == b'u' {
        // The casts keep the low bits on purpose: `u` < 0x10000, split into UTF-8 bytes.
        match hex4(b, at + 2) {
            Some(u) if u < 0x80 => return Some(([u as u8, 0, 0, 0], 6, 1)),
            Some(u) if u < 0x800 => {
                let utf8 = [0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8, 0, 0];
                return Some((utf8, 6, 2));
            }
            Some(u) if !(0xD800..0xE000).contains(&u) => {
                let utf8 = [
                    0xE0 | (u >> 12) as u8,
                    0x80 | ((u >> 6) & 0x3F) as u8,
                    0x80 | (u & 0x3F) as u8,
                    0,
                ];
                return Some((utf8, 6, 3));
            }
            // A high surrogate followed by a low one: one character, four bytes.
            Some(hi @ 0xD800..0xDC00)
                if b.get(at + 6..at + 8) == Some(b"\\u")
                    && let Some(lo @ 0xDC00..0xE000) = hex4(b, at + 8) =>
            {
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                let utf8 = [
                    0xF0 | (c >> 18) as u8,
                    0x80 | ((c >> 12) & 0x3F) as u8,
                    0x80 | ((c >> 6) & 0x3F) as u8,
                    0x80 | (c & 0x3F) as u8,
                ];
                return Some((utf8, 12, 4));
            }
            _ => {}
        }
    }
    // What validated content never has: lone surrogates, bad escapes.
    let (ch, len) = decode_escape(b, at);
    let wrote = ch.len_utf8();
    if wrote > len {
        return None;
    }
    let mut utf8 = [0u8; 4];
    ch.encode_utf8(&mut utf8);
    Some((utf8, len, wrote))
}

/// Unescapes `raw` into `arena`: one allocation of `raw.len() + SLACK` bytes for valid
/// content, not cleared first.
pub(crate) fn unescape_in<'a>(raw: &str, arena: &'a Bump) -> &'a str {
    let out = arena.alloc_slice_fill_copy(raw.len() + SLACK, MaybeUninit::<u8>::uninit());
    if let Some(len) = unescape_blocks(raw.as_bytes(), out)
        && let Some(text) = out.get(..len)
    {
        // SAFETY: on `Some(len)`, `unescape_blocks` has written every byte of `out[..len]`
        // (see its doc), so the `len` bytes at `text` are initialized `u8`s, borrowed from
        // the arena for `'a` like `out`.
        let text: &'a [u8] = unsafe { std::slice::from_raw_parts(text.as_ptr().cast(), len) };
        debug_assert!(std::str::from_utf8(text).is_ok());
        // SAFETY: `unescape_blocks` writes valid UTF-8 for any `&str` input (see its doc:
        // `raw` cut at ASCII backslashes plus whole encoded characters).
        return unsafe { std::str::from_utf8_unchecked(text) };
    }
    let mut out = bumpalo::collections::Vec::with_capacity_in(raw.len(), arena);
    unescape_runs(raw, &mut out);
    debug_assert!(std::str::from_utf8(&out).is_ok());
    // SAFETY: `unescape_runs` writes valid UTF-8 for any `&str` input (see its doc: runs cut
    // at ASCII backslashes plus whole encoded characters).
    let s = unsafe { bumpalo::collections::String::from_utf8_unchecked(out) };
    s.into_bump_str()
}

/// Unescapes validated JSON string content onto the heap.
pub(crate) fn unescape(raw: &str) -> String {
    let mut out = Vec::with_capacity(raw.len() + SLACK);
    if let Some(len) = unescape_blocks(raw.as_bytes(), out.spare_capacity_mut()) {
        // SAFETY: `len` is at most the spare capacity `unescape_blocks` was given, and it has
        // written every byte of the first `len` (see its doc).
        unsafe { out.set_len(len) };
    } else {
        unescape_runs(raw, &mut out);
    }
    debug_assert!(std::str::from_utf8(&out).is_ok());
    // SAFETY: as in `unescape_in`, the output of `unescape_blocks` (or of `unescape_runs`)
    // on a `&str` is valid UTF-8.
    unsafe { String::from_utf8_unchecked(out) }
}

/// Unescapes validated JSON string content, handing out pieces of text in order, one byte
/// at a time: the scalar twin of [`unescape_runs`] (and what [`Str::eq_text`] compares with,
/// piece by piece, without allocating).
///
/// [`Str::eq_text`]: crate::Str::eq_text
pub(crate) fn unescape_to(raw: &str, mut sink: impl FnMut(&str)) {
    let b = raw.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        if start < i {
            sink(&raw[start..i]);
        }
        let (ch, len) = decode_escape(b, i);
        let mut buf = [0u8; 4];
        sink(ch.encode_utf8(&mut buf));
        i += len;
        start = i;
    }
    if start < b.len() {
        sink(&raw[start..]);
    }
}

/// [`unescape_to`] collected into a `String`: the reference for tests and fuzzing.
pub(crate) fn unescape_scalar(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    unescape_to(raw, |s| out.push_str(s));
    out
}

/// Decodes the escape at `b[i]` (a backslash); returns the character and the escape's length.
/// Invalid escapes (which validated input never has) decode as U+FFFD.
fn decode_escape(b: &[u8], i: usize) -> (char, usize) {
    let hex = |at: usize| -> Option<u32> {
        let s = b.get(at..at + 4)?;
        let mut v = 0;
        for &c in s {
            v = v * 16 + (c as char).to_digit(16)?;
        }
        Some(v)
    };
    match b.get(i + 1) {
        Some(b'"') => ('"', 2),
        Some(b'\\') => ('\\', 2),
        Some(b'/') => ('/', 2),
        Some(b'b') => ('\u{8}', 2),
        Some(b'f') => ('\u{c}', 2),
        Some(b'n') => ('\n', 2),
        Some(b'r') => ('\r', 2),
        Some(b't') => ('\t', 2),
        Some(b'u') => match hex(i + 2) {
            Some(hi @ 0xD800..=0xDBFF) => match (b.get(i + 6), b.get(i + 7), hex(i + 8)) {
                (Some(b'\\'), Some(b'u'), Some(lo @ 0xDC00..=0xDFFF)) => {
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    (char::from_u32(c).unwrap_or('\u{FFFD}'), 12)
                }
                _ => ('\u{FFFD}', 6),
            },
            Some(u) => (char::from_u32(u).unwrap_or('\u{FFFD}'), 6),
            None => ('\u{FFFD}', 2),
        },
        _ => ('\u{FFFD}', 1),
    }
}

/// Unescapes possibly invalid string content, for error messages.
pub(crate) fn unescape_lossy(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    unescape(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check(raw: &str) {
        let want = unescape_scalar(raw);
        assert_eq!(unescape(raw), want, "{raw:?}");
        // The 16-byte loop alone, with the 32-byte (AVX2) one first and the 64-byte
        // (AVX-512) chunks, when the CPU has them.
        for kernel in [Kernel::Portable, Kernel::Avx2, Kernel::Widest] {
            let mut out = vec![MaybeUninit::new(0u8); raw.len() + SLACK];
            let got = blocks(raw.as_bytes(), &mut out, kernel);
            // Valid content never takes the slow way.
            if crate::Str::from_raw(raw).is_ok() {
                assert!(got.is_some(), "{raw:?}, {kernel:?}");
            }
            if let Some(len) = got {
                // SAFETY: every byte of `out` was initialized (to 0, then written over).
                let got: Vec<u8> = out[..len]
                    .iter()
                    .map(|b| unsafe { b.assume_init() })
                    .collect();
                assert_eq!(got, want.as_bytes(), "{raw:?}, {kernel:?}");
            }
        }
        let arena = Bump::new();
        assert_eq!(unescape_in(raw, &arena), want, "{raw:?}");
        if crate::Str::from_raw(raw).is_ok() {
            assert!(want.len() <= raw.len());
        }
    }

    #[test]
    fn every_escape_at_every_place() {
        let escapes = [
            r#"\""#,
            r"\\",
            r"\/",
            r"\b",
            r"\f",
            r"\n",
            r"\r",
            r"\t",
            r"\u0041",
            r"\u00e9",
            r"\u2615",
            r"\ud83d\ude00",
            r"\uD83D\uDE00",
            r"\udbff\udfff",
            r"\u0000",
            r"\uffff",
            // Invalid (never in validated input; error messages unescape raw bytes).
            r"\q",
            r"\u12",
            r"\ud83d",
            r"\ud83dx",
            r"\ude00",
            r"\ud83d\u0041",
            r"\ud83d\ud83d\ude00",
            r"\ud83d\u",
            r"\ud83d\ude0",
            r"\ud83d\n",
            "\\",
        ];
        for e in escapes {
            for pre in [
                "",
                "a",
                "é",
                "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz",
            ] {
                for post in ["", "z", "☕", r"\n"] {
                    check(&format!("{pre}{e}{post}"));
                    check(&format!("{pre}{e}{e}{post}{e}"));
                }
            }
        }
    }

    /// The 16-byte chunks of `unescape_blocks`: each escape at every offset around the first
    /// two chunk ends, and strings ending at every offset after it (the padded last chunk).
    #[test]
    fn escapes_around_chunks() {
        for e in [
            r"\n",
            r#"\""#,
            r"\\",
            r"\u00e9",
            r"\u2615",
            r"\ud83d\ude00",
            r"\q",
            r"\u12",
        ] {
            for pre in 0..72 {
                for post in 0..20 {
                    let text = format!("{}{e}{}", "x".repeat(pre), "é".repeat(post / 2));
                    check(&text);
                    check(&format!("{text}{e}"));
                }
            }
        }
    }

    proptest! {
        #[test]
        fn runs_match_the_scalar_twin(
            pieces in proptest::collection::vec(
                prop_oneof![
                    "[a-z é☕😀]{0,70}",
                    Just(r"\n".to_string()),
                    Just(r#"\""#.to_string()),
                    Just(r"\\".to_string()),
                    Just(r"\u00e9".to_string()),
                    Just(r"\ud83d\ude00".to_string()),
                    Just(r"\u".to_string()),
                    Just("\\".to_string()),
                    "\\\\[a-zA-Z0-9]{0,5}",
                ],
                0..20,
            )
        ) {
            check(&pieces.concat());
        }
    }
}
