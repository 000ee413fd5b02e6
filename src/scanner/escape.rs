//! Escapes inside strings: the validation of one escape ([`Cursor::escape`], errors with
//! their offsets), and the inline look for the common `\\uXXXX` (four hex digits, not a
//! surrogate) that the string scanner takes before calling it.

use super::Cursor;
use crate::error::{ErrorKind, RawError, RawResult};

impl Cursor<'_> {
    /// Validates the escape whose backslash is at `at`; returns the offset after it.
    pub(super) fn escape(&self, at: usize) -> RawResult<usize> {
        let bad = |kind| Err(RawError::new(kind, at));
        match self.bytes.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(at + 2),
            Some(b'u') => {
                let unit = match hex4(self.bytes, at + 2) {
                    Ok(unit) => unit,
                    Err(kind) => return bad(kind),
                };
                match unit {
                    0xD800..=0xDBFF => {
                        // A high surrogate must be followed by an escaped low surrogate.
                        // The input may end anywhere in the pair (`\ud83d`, `\ud83d\`,
                        // `\ud83d\u`, `\ud83d\ude0`): that is a truncation, not a lone
                        // surrogate.
                        let backslash = self.bytes.get(at + 6);
                        if backslash == Some(&b'\\') && self.bytes.get(at + 7).is_none() {
                            return bad(ErrorKind::UnexpectedEof);
                        }
                        if backslash == Some(&b'\\') && self.bytes.get(at + 7) == Some(&b'u') {
                            match hex4(self.bytes, at + 8) {
                                Ok(0xDC00..=0xDFFF) => Ok(at + 12),
                                Ok(_) => bad(ErrorKind::LoneSurrogate),
                                Err(kind) => bad(kind),
                            }
                        } else if self.bytes.len() <= at + 6 {
                            bad(ErrorKind::UnexpectedEof)
                        } else {
                            bad(ErrorKind::LoneSurrogate)
                        }
                    }
                    0xDC00..=0xDFFF => bad(ErrorKind::LoneSurrogate),
                    _ => Ok(at + 6),
                }
            }
            Some(_) => bad(ErrorKind::InvalidEscape),
            None => bad(ErrorKind::UnexpectedEof),
        }
    }
}

/// The bytes that make a two-byte escape after a backslash: `"`, `\\`, `/`, `b`, `f`, `n`,
/// `r`, `t` (a table look instead of a jump table or a chain of compares).
pub(super) static TWO_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    let set = *b"\"\\/bfnrt";
    while i < set.len() {
        t[set[i] as usize] = true;
        i += 1;
    }
    t
};

/// The value of the four hex digits at `b[at..]`; else the error: `InvalidEscape` when a byte
/// there is not a hex digit, `UnexpectedEof` when the input ends first and every byte before
/// its end is one (more bytes could still make the escape whole).
fn hex4(b: &[u8], at: usize) -> Result<u32, ErrorKind> {
    let mut v = 0u32;
    for k in 0..4 {
        let Some(&c) = b.get(at + k) else {
            return Err(ErrorKind::UnexpectedEof);
        };
        let Some(d) = (c as char).to_digit(16) else {
            return Err(ErrorKind::InvalidEscape);
        };
        v = v * 16 + d;
    }
    Ok(v)
}

/// Whether `b[at..at + 4]` are four hex digits whose value is not a surrogate's first half
/// (the first digit is not `d` or `D`): then `\\u` and these four digits are a whole valid
/// escape. One word, no branch per digit: each byte is tested on its own (no step carries
/// from one byte into the next, since every byte is below 0x80 by then). `false` sends the
/// caller to [`Cursor::escape`] (surrogates, `\\uD000`-`\\uD7FF`, errors, the input's end).
#[inline(always)]
pub(super) fn plain_unicode(b: &[u8], at: usize) -> bool {
    let Some(s) = b.get(at..at + 4) else {
        return false;
    };
    let mut word = [0u8; 4];
    word.copy_from_slice(s);
    let x = u32::from_le_bytes(word);
    const ONES: u32 = 0x0101_0101;
    const HIGHS: u32 = 0x8080_8080;
    // For bytes below 0x80: the top bit of `v + (0x80 - lo)` is set when `v >= lo`, and that
    // of `v + (0x7f - hi)` when `v > hi`; neither sum leaves its byte. (A word with a byte
    // >= 0x80 gives garbage here, wrapping, and is rejected by its own test.)
    let within = |v: u32, lo: u8, hi: u8| {
        v.wrapping_add(ONES * (0x80 - lo) as u32)
            & !v.wrapping_add(ONES * (0x7f - hi) as u32)
            & HIGHS
    };
    let digit = within(x, b'0', b'9');
    let letter = within(x | (ONES * 0x20), b'a', b'f');
    x & HIGHS == 0 && digit | letter == HIGHS && (x as u8 | 0x20) != b'd'
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: four hex digits, the value outside `0xD000..=0xDFFF`.
    fn reference(b: &[u8], at: usize) -> bool {
        hex4(b, at).is_ok_and(|u| u >> 12 != 0xD)
    }

    /// Every 4-byte word over bytes around the edges of each range, at every place near the
    /// input's end.
    #[test]
    fn plain_unicode_matches_the_byte_loop() {
        let edges = [
            0x00u8, 0x10, 0x1f, 0x20, 0x2f, b'0', b'5', b'9', b':', b'@', b'A', b'C', b'D', b'F',
            b'G', b'`', b'a', b'd', b'f', b'g', 0x7f, 0x80, 0xb0, 0xc4, 0xe6, 0xff,
        ];
        for &a in &edges {
            for &b in &edges {
                for &c in &edges {
                    for &d in &edges {
                        let w = [b'x', a, b, c, d];
                        assert_eq!(plain_unicode(&w, 1), reference(&w, 1), "{w:?}");
                        for cut in 1..5 {
                            assert!(!plain_unicode(&w[..cut], 1));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn plain_unicode_every_byte_in_every_place() {
        for place in 0..4 {
            for v in 0..=255u8 {
                let mut w = *b"00e9";
                w[place] = v;
                assert_eq!(plain_unicode(&w, 0), reference(&w, 0), "{w:?}");
            }
        }
    }
}
