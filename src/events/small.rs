//! A quick validator for the small, compact JSON values of patch operations (`"value":
//! {"done":true,"note":"turn 3 — ok"}`): one loop over the bytes with a word of bits for the
//! open containers, the scanner's own string, number and literal readers, and no slot, step
//! or index book-keeping. It reads only what it is sure of; on anything else (whitespace, a
//! value longer than [`SMALL_MAX`] bytes or deeper than [`SMALL_LEVELS`], a bad byte, the end
//! of the input) it gives up with the cursor where it started, and the caller runs the general
//! skip ([`Cursor::skip_value`]), which then reads the value or reports its error, offset and
//! path exactly as before. Its twin test: `parser::differential::small_value_agrees`.

use crate::scanner::Cursor;

/// The longest value read here; a longer one is left to the general skip (which indexes
/// large values), after at most this many bytes read twice.
pub(crate) const SMALL_MAX: usize = 256;

/// The deepest nesting read here (the bits of the stack word).
pub(crate) const SMALL_LEVELS: usize = 32;

/// Validates the value at the cursor (no whitespace before it) when it is small and compact,
/// moving the cursor past it: `true`. Otherwise `false`, the cursor unmoved. `depth` and
/// `max_depth` as for [`Cursor::skip_value`]: a container opened deeper than `max_depth` is
/// left to the general skip, which reports it. One-shot parsing only (no resume slots).
#[inline]
pub(crate) fn small_value(cur: &mut Cursor<'_>, depth: usize, max_depth: usize) -> bool {
    debug_assert!(cur.resume.is_none());
    let start = cur.pos;
    if walk(cur, depth, max_depth).is_some() {
        return true;
    }
    cur.pos = start;
    false
}

/// An object key and its colon, compact.
#[inline(always)]
fn key(cur: &mut Cursor<'_>) -> Option<()> {
    if cur.peek() != Some(b'"') {
        return None;
    }
    string(cur)?;
    if cur.peek() != Some(b':') {
        return None;
    }
    cur.pos += 1;
    Some(())
}

/// A string: the short look, or the general scanner (for one near the input's end or with a
/// `\u` escape); `None` on any error, which the general skip will report.
#[inline(always)]
fn string(cur: &mut Cursor<'_>) -> Option<()> {
    if cur.short_string().is_some() {
        return Some(());
    }
    cur.string().ok().map(|_| ())
}

fn walk(cur: &mut Cursor<'_>, depth: usize, max_depth: usize) -> Option<()> {
    let start = cur.pos;
    // Bit i: the container at level i + 1 is an object.
    let mut stack: u32 = 0;
    let mut levels = 0usize;
    // At a value.
    'value: loop {
        match cur.peek()? {
            c @ (b'{' | b'[') => {
                if levels == SMALL_LEVELS || depth + levels + 1 > max_depth {
                    return None;
                }
                let object = c == b'{';
                stack = stack << 1 | object as u32;
                levels += 1;
                cur.pos += 1;
                let close = if object { b'}' } else { b']' };
                if cur.peek() != Some(close) {
                    if object {
                        key(cur)?;
                    }
                    continue 'value;
                }
                cur.pos += 1;
                stack >>= 1;
                levels -= 1;
            }
            b'"' => string(cur)?,
            b'-' | b'0'..=b'9' => cur.number().ok()?,
            b't' | b'f' | b'n' => {
                cur.literal().ok()?;
            }
            _ => return None,
        }
        // After a value: a comma and the next member, or closing brackets.
        loop {
            if levels == 0 {
                return Some(());
            }
            if cur.pos - start > SMALL_MAX {
                return None;
            }
            let object = stack & 1 != 0;
            match cur.peek()? {
                b',' => {
                    cur.pos += 1;
                    if object {
                        key(cur)?;
                    }
                    continue 'value;
                }
                b'}' if object => {}
                b']' if !object => {}
                _ => return None,
            }
            cur.pos += 1;
            stack >>= 1;
            levels -= 1;
        }
    }
}
