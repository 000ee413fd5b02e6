//! Reading JSON string escapes as the characters they stand for, in small pieces.
//!
//! The media views work on the raw content of a JSON string (the bytes between the quotes).
//! When the parser reports that the string contains escapes, these helpers turn the raw text
//! into its logical text a bounded chunk at a time, so that no copy of the whole payload is
//! ever made. A JSON escape always stands for one whole character, so a chunk boundary never
//! splits a character that came from an escape.

/// Finds the first `\` in `s`, eight bytes at a time.
pub(crate) fn find_backslash(s: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const PATTERN: u64 = ONES * (b'\\' as u64);
    let (words, tail) = s.as_chunks::<8>();
    for (k, word) in words.iter().enumerate() {
        let x = u64::from_le_bytes(*word) ^ PATTERN;
        // The lowest set bit of `t` marks the first zero byte of `x` exactly (borrows only
        // create false marks above a real zero byte), i.e. the first backslash.
        let t = x.wrapping_sub(ONES) & !x & HIGHS;
        if t != 0 {
            return Some(k * 8 + (t.trailing_zeros() / 8) as usize);
        }
    }
    let done = words.len() * 8;
    tail.iter().position(|&b| b == b'\\').map(|p| p + done)
}

/// Reads four hexadecimal digits.
fn hex4(s: &[u8]) -> Option<u32> {
    let digits = s.get(..4)?;
    let mut v = 0u32;
    for &d in digits {
        v = (v << 4) | (d as char).to_digit(16)?;
    }
    Some(v)
}

/// Decodes the escape at the start of `raw` (which starts with `\`).
///
/// Returns the character and the number of raw bytes the escape takes, or `None` when the
/// escape is malformed. A lone surrogate (legal JSON syntax, but not a character) reads as
/// U+FFFD, like `String::from_utf16_lossy` would.
#[inline]
pub(crate) fn parse_escape(raw: &[u8]) -> Option<(char, usize)> {
    if raw.first() != Some(&b'\\') {
        return None;
    }
    let ch = match *raw.get(1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let hi = hex4(raw.get(2..)?)?;
            if (0xD800..0xDC00).contains(&hi) {
                if raw.get(6..8) == Some(b"\\u".as_slice())
                    && let Some(lo) = raw.get(8..).and_then(hex4)
                    && (0xDC00..0xE000).contains(&lo)
                {
                    let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    return char::from_u32(cp).map(|c| (c, 12));
                }
                return Some(('\u{FFFD}', 6));
            }
            return Some((char::from_u32(hi).unwrap_or('\u{FFFD}'), 6));
        }
        _ => return None,
    };
    Some((ch, 2))
}

/// Unescapes a prefix of `raw` into `buf`, whole characters only.
///
/// Returns `(written, raw_consumed)`. Stops when `raw` is used up or when the next character
/// does not fit in what is left of `buf`. On a malformed escape returns `Err(raw offset of its
/// backslash)`, but only once everything before it has been handed out (so the caller sees the
/// characters before a bad escape first): a chunk never contains a bad escape.
pub(crate) fn unescape_chunk(raw: &[u8], buf: &mut [u8]) -> Result<(usize, usize), usize> {
    let mut i = 0;
    let mut o = 0;
    while let (Some(rest), Some(space)) = (raw.get(i..), buf.get_mut(o..)) {
        if rest.is_empty() || space.is_empty() {
            break;
        }
        let run = super::simd::copy_until_backslash(rest, space);
        i += run;
        o += run;
        if run == rest.len().min(space.len()) {
            continue;
        }
        // `raw[i]` is a backslash. The common `\/` (PHP writes every '/' so) inline first.
        if raw.get(i + 1) == Some(&b'/') {
            match buf.get_mut(o) {
                Some(slot) => *slot = b'/',
                None => break,
            }
            o += 1;
            i += 2;
            continue;
        }
        let Some((ch, n)) = raw.get(i..).and_then(parse_escape) else {
            if o == 0 {
                return Err(i);
            }
            break;
        };
        let mut tmp = [0u8; 4];
        let enc = ch.encode_utf8(&mut tmp).as_bytes();
        match buf.get_mut(o..o + enc.len()) {
            Some(dst) => dst.copy_from_slice(enc),
            None => break,
        }
        o += enc.len();
        i += n;
    }
    Ok((o, i))
}

/// Where a logical byte sits in the raw text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Located {
    /// Raw offset of the unit (plain byte or whole escape) holding the logical byte.
    pub(crate) raw: usize,
    /// The character, when the unit is an escape.
    pub(crate) escaped: Option<char>,
}

/// Finds the raw position of logical byte `target` of the logical text of `raw`.
///
/// A logical index at or past the end maps to `raw.len()`. Malformed escapes end the walk
/// there (they are reported separately by whoever reads the chunks).
pub(crate) fn locate(raw: &[u8], target: usize) -> Located {
    let mut i = 0;
    let mut l = 0;
    while let Some(rest) = raw.get(i..) {
        if rest.is_empty() {
            break;
        }
        let run = find_backslash(rest).unwrap_or(rest.len());
        if target < l + run {
            return Located {
                raw: i + (target - l),
                escaped: None,
            };
        }
        i += run;
        l += run;
        let Some((ch, n)) = raw.get(i..).and_then(parse_escape) else {
            break;
        };
        if target < l + ch.len_utf8() {
            return Located {
                raw: i,
                escaped: Some(ch),
            };
        }
        l += ch.len_utf8();
        i += n;
    }
    Located {
        raw: i.min(raw.len()),
        escaped: None,
    }
}

/// Raw length of the first `logical` bytes of the logical text of `raw`.
///
/// `logical` must fall on a character boundary of the logical text (it does when it counts
/// bytes the decoder consumed, as those are whole characters).
pub(crate) fn raw_len_of(raw: &[u8], logical: usize) -> usize {
    locate(raw, logical).raw
}

/// An iterator over the logical bytes of a raw JSON string content, with raw offsets.
///
/// Yields `Ok((byte, raw offset of its unit))`, or one `Err(raw offset)` at a malformed escape
/// and then nothing. Used on the slow paths (percent decoding, data URL headers).
#[derive(Clone, Debug)]
pub(crate) struct LogicalBytes<'a> {
    raw: &'a [u8],
    escaped: bool,
    pos: usize,
    pending: [u8; 4],
    pending_at: u8,
    pending_len: u8,
    unit_start: usize,
}

impl<'a> LogicalBytes<'a> {
    /// Reads `raw` as JSON string content when `escaped`, else byte for byte.
    pub(crate) fn new(raw: &'a [u8], escaped: bool) -> Self {
        LogicalBytes {
            raw,
            escaped,
            pos: 0,
            pending: [0; 4],
            pending_at: 0,
            pending_len: 0,
            unit_start: 0,
        }
    }
}

impl Iterator for LogicalBytes<'_> {
    type Item = Result<(u8, usize), usize>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.pending_at < self.pending_len {
            let b = *self.pending.get(usize::from(self.pending_at))?;
            self.pending_at += 1;
            return Some(Ok((b, self.unit_start)));
        }
        let b = *self.raw.get(self.pos)?;
        if b != b'\\' || !self.escaped {
            self.pos += 1;
            return Some(Ok((b, self.pos - 1)));
        }
        let Some((ch, n)) = self.raw.get(self.pos..).and_then(parse_escape) else {
            let at = self.pos;
            self.pos = self.raw.len();
            return Some(Err(at));
        };
        self.unit_start = self.pos;
        self.pos += n;
        let len = ch.encode_utf8(&mut self.pending).len();
        self.pending_len = len as u8;
        self.pending_at = 1;
        Some(Ok((self.pending[0], self.unit_start)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_backslash_everywhere() {
        for len in 0..40 {
            for at in 0..len {
                let mut v = vec![b'a'; len];
                v[at] = b'\\';
                assert_eq!(find_backslash(&v), Some(at), "len {len} at {at}");
            }
            assert_eq!(find_backslash(&vec![b'a'; len]), None);
        }
        // 0x5C followed by bytes that could cause a borrow.
        assert_eq!(find_backslash(b"\x01\x00\\\x5d\x5b"), Some(2));
        assert_eq!(find_backslash(b"\x5d\x5b\x5c\x00"), Some(2));
    }

    #[test]
    fn escapes() {
        assert_eq!(parse_escape(b"\\/"), Some(('/', 2)));
        assert_eq!(parse_escape(b"\\u0041rest"), Some(('A', 6)));
        assert_eq!(parse_escape(b"\\u00e9"), Some(('\u{e9}', 6)));
        assert_eq!(parse_escape(b"\\ud83d\\ude00"), Some(('\u{1F600}', 12)));
        assert_eq!(parse_escape(b"\\ud83dx"), Some(('\u{FFFD}', 6)));
        assert_eq!(parse_escape(b"\\udc00"), Some(('\u{FFFD}', 6)));
        assert_eq!(parse_escape(b"\\u12"), None);
        assert_eq!(parse_escape(b"\\x"), None);
        assert_eq!(parse_escape(b"\\"), None);
        assert_eq!(parse_escape(b"a"), None);
    }

    #[test]
    fn chunks_and_locate() {
        let raw = br"ab\/cd\u0041\u00e9\n";
        let logical = "ab/cdA\u{e9}\n".as_bytes();
        for size in 1..=logical.len() + 2 {
            let mut out = Vec::new();
            let mut pos = 0;
            while pos < raw.len() {
                let mut buf = vec![0u8; size];
                let (w, r) = unescape_chunk(&raw[pos..], &mut buf).unwrap();
                assert!(w > 0 || size < 2, "no progress at size {size}");
                if w == 0 {
                    break;
                }
                out.extend_from_slice(&buf[..w]);
                assert_eq!(raw_len_of(&raw[pos..], w), r);
                pos += r;
            }
            if size >= 2 {
                assert_eq!(out, logical);
            }
        }
        assert_eq!(
            locate(raw, 2),
            Located {
                raw: 2,
                escaped: Some('/')
            }
        );
        assert_eq!(
            locate(raw, 3),
            Located {
                raw: 4,
                escaped: None
            }
        );
        assert_eq!(
            locate(raw, 5),
            Located {
                raw: 6,
                escaped: Some('A')
            }
        );
        assert_eq!(
            locate(raw, 7),
            Located {
                raw: 12,
                escaped: Some('\u{e9}')
            }
        );
        assert_eq!(
            locate(raw, 8),
            Located {
                raw: 18,
                escaped: Some('\n')
            }
        );
        assert_eq!(locate(raw, 9).raw, 20);
        assert_eq!(locate(raw, 99).raw, raw.len());
        let all: Vec<_> = LogicalBytes::new(raw, true).map(|r| r.unwrap().0).collect();
        assert_eq!(all, logical);
    }

    #[test]
    fn bad_escape_reported_after_good_text() {
        let raw = br"abc\qdef";
        let mut buf = [0u8; 16];
        assert_eq!(unescape_chunk(raw, &mut buf), Ok((3, 3)));
        assert_eq!(unescape_chunk(&raw[3..], &mut buf), Err(0));
        let v: Vec<_> = LogicalBytes::new(raw, true).collect();
        assert_eq!(v.last(), Some(&Err(3)));
    }
}
