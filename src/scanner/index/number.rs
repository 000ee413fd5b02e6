//! Numbers and literals checked from a block's masks ([`Marks`]), without branches: the
//! shapes of the numbers of a document are as good as random to a branch predictor.
//!
//! A number's bytes that are no digit may only be, past an optional leading `-`, one `.`, then
//! one `e`/`E` with an optional sign right after it, each between digits (a sign between the
//! `e` and a digit); its integer part starts with a digit, and with a `0` only when no digit
//! follows. Every one of these rules is a question about a byte's neighbours or about the
//! separators before it in its run, so all the numbers of a block can be checked at once
//! ([`block_numbers`]), or one at a time ([`number_marks`], for a run that crosses a block
//! edge, in a window of its own).

use super::{Block, Marks};

/// The first eight bytes at `at` (little-endian), zeros past the end of `bytes`.
#[inline(always)]
pub(super) fn word_at(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..).and_then(|s| s.first_chunk::<8>()) {
        Some(w) => u64::from_le_bytes(*w),
        None => word_near_end(bytes, at),
    }
}

#[cold]
fn word_near_end(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    for (k, b) in w.iter_mut().enumerate() {
        *b = at
            .checked_add(k)
            .and_then(|i| bytes.get(i))
            .copied()
            .unwrap_or(0);
    }
    u64::from_le_bytes(w)
}

/// Where the rules of a number are broken in the runs `runs` (maximal runs of scalar bytes,
/// each starting at a bit of `starts`, a digit or a sign, and ending before bit 63): a mask of
/// positions, each inside a bad run or at the byte that ends it.
#[inline(always)]
fn broken(m: &Marks, runs: u64, starts: u64) -> u64 {
    let d = m.digit;
    let minus = starts & !d;
    // The separators: bytes that are no digit, past the leading `-`.
    let x = runs & !d & !minus;
    let (dot, exp, sign) = (x & m.dot, x & m.exp, x & m.sign);
    let sep = dot | exp;
    // (`dot`, `exp` and `sign` are disjoint parts of `x`, so `x` without them is an `xor`;
    // the starts that are digits need no check that they are, and `0` is a digit.)
    (x ^ (sep | sign))
        // Where each integer part starts: a digit (after a `-`, or the run is bad there),
        // and a `0` only when no digit follows.
        | ((minus << 1) & !d)
        | ((starts | (minus << 1)) & m.zero & (d >> 1))
        // A separator after a digit, and a digit after it (a sign between an `e` and it).
        | (sep & !(d << 1))
        | (((dot | sign) << 1) & !d)
        | ((exp << 1) & !(d | sign))
        | (sign & !(exp << 1))
        // Each separator that has one before it in its run (runs are maximal, so the carry
        // of the sum stops at each run's end): a `.` after a `.` or an `e`, an `e` after an
        // `e`.
        | (dot & runs.wrapping_add(sep))
        | (exp & runs.wrapping_add(exp))
}

/// The numbers of a block at once: the positions where one breaks a rule (each inside its
/// run, or at the byte that ends it), and the start of the number that reaches the block's
/// last byte (it may go on in the next block: the caller checks it from its start), if any.
/// Only runs that start in the block are looked at: one that started in an earlier block was
/// checked there.
#[inline(always)]
pub(super) fn block_numbers(b: &Block) -> (u64, u64) {
    let m = &b.marks;
    let s = b.scalar;
    let starts = b.tokens & s & (m.digit | m.sign);
    if starts == 0 {
        // (Blocks of strings, in runs: a branch well predicted.)
        return (0, 0);
    }
    // The runs from those starts: the carry of the sum clears each run from its start.
    let runs = s & !s.wrapping_add(starts);
    // The run that reaches bit 63 (its bits, from the highest byte that is no scalar up).
    let top = !(u64::MAX.checked_shr((!s).leading_zeros()).unwrap_or(0));
    let cross = starts & top;
    (broken(m, runs & !top, starts & !top), cross)
}

/// Whether the bits `i .. end` of `m` (`i < end < 64`; the byte at `end` ends the run, so it
/// is no digit) are a JSON number.
#[inline(always)]
pub(super) fn number_marks(m: &Marks, i: usize, end: usize) -> bool {
    let lead = 1u64 << i;
    let run = (1u64 << end) - lead;
    broken(m, run, lead) & ((run << 1) | lead) == 0
}

/// Whether the `len` bytes whose first eight are `w` (little-endian) are a literal.
#[inline(always)]
pub(super) fn literal_word(w: u64, len: usize) -> bool {
    // How far from each literal (0: it is that one), combined by `min`, not by `|` of
    // compares, which compiles to a branch on which literal it is.
    let len = len as u64;
    let four = w & 0xffff_ffff;
    let t = (four ^ u64::from(u32::from_le_bytes(*b"true"))) | (len ^ 4);
    let n = (four ^ u64::from(u32::from_le_bytes(*b"null"))) | (len ^ 4);
    let f = ((w & 0xff_ffff_ffff) ^ u64::from_le_bytes(*b"false\0\0\0")) | (len ^ 5);
    t.min(n).min(f) == 0
}

/// Whether the bits `i .. end` of `m` (`i < end < 64`), whose first bytes are `w`, are a
/// number (`number`) or a literal.
#[inline(always)]
pub(super) fn scalar_marks(m: &Marks, w: u64, number: bool, i: usize, end: usize) -> bool {
    if number {
        number_marks(m, i, end)
    } else {
        literal_word(w, end - i)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{BLOCK, Carry, Kernel};
    use super::*;
    use crate::scanner::Cursor;

    /// The scanner's verdict: `s` (followed by `,`) is one whole number.
    fn is_number(s: &[u8]) -> bool {
        let doc = [s, b","].concat();
        let mut c = Cursor::new(&doc);
        c.number().is_ok() && c.pos == s.len()
    }

    /// Every string of up to six bytes over the bytes numbers are made of (and a few they
    /// are not), starting with a digit or a sign, checked by block ([`block_numbers`], at
    /// offsets that put it inside the block and across its end) and alone ([`number_marks`]),
    /// against the scanner, on every kernel.
    #[test]
    fn every_short_number_shape() {
        let alphabet = b"019-+.eEx";
        let mut s = Vec::new();
        let mut count = [0usize; 7];
        for len in 1..=6u32 {
            for mut n in 0..(alphabet.len() as u64).pow(len) {
                s.clear();
                for _ in 0..len {
                    s.push(alphabet[(n % alphabet.len() as u64) as usize]);
                    n /= alphabet.len() as u64;
                }
                if !matches!(s[0], b'0'..=b'9' | b'-' | b'+') {
                    continue;
                }
                count[len as usize] += 1;
                let want = is_number(&s) && s[0] != b'+';
                for at in [1usize, 20, 60, 63] {
                    let mut doc = vec![b' '; 2 * BLOCK];
                    doc[at - 1] = b'[';
                    doc[at..at + s.len()].copy_from_slice(&s);
                    doc[at + s.len()] = b']';
                    for k in Kernel::available() {
                        let block = k.block(&doc, 0, &mut Carry::default());
                        let (broken, cross) = block_numbers(&block);
                        let end = at + s.len();
                        if end < BLOCK {
                            // Inside the block: the verdict by block (a leading `+` is the
                            // grammar's to refuse).
                            let limit = u64::MAX >> (63 - end);
                            if s[0] != b'+' {
                                assert_eq!(broken & limit == 0, want, "{:?} at {at}", s);
                            }
                            assert_eq!(cross, 0);
                            let alone = number_marks(&block.marks, at, end);
                            if s[0] != b'+' {
                                assert_eq!(alone, want, "{:?} alone at {at}", s);
                            }
                        } else {
                            // Across the end: left to the caller, from its start.
                            assert_eq!(cross, 1u64 << at, "{:?} at {at}", s);
                            assert_eq!(broken, 0, "{:?} at {at}", s);
                        }
                    }
                }
            }
        }
        assert!(count[6] > 100_000);
    }

    #[test]
    fn literals() {
        let w = |s: &[u8]| word_at(s, 0);
        assert!(literal_word(w(b"true,"), 4));
        assert!(literal_word(w(b"null"), 4));
        assert!(literal_word(w(b"false]"), 5));
        assert!(!literal_word(w(b"true"), 5));
        assert!(!literal_word(w(b"fals"), 4));
        assert!(!literal_word(w(b"falsy"), 5));
        assert!(!literal_word(w(b"nul"), 3));
        assert_eq!(word_at(b"ab", 0), u64::from_le_bytes(*b"ab\0\0\0\0\0\0"));
        assert_eq!(word_at(b"ab", 5), 0);
    }
}
