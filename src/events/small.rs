//! A quick validator for the small, compact JSON values of patch operations (`"value":
//! {"done":true,"note":"turn 3 — ok"}`): one loop over the bytes with a word of bits for the
//! open containers, the scanner's own string, number and literal readers, and no slot, step
//! or index book-keeping. It reads only what it is sure of; on anything else (whitespace, a
//! value longer than [`SMALL_MAX`] bytes or deeper than [`SMALL_LEVELS`], a bad byte, the end
//! of the input) it gives up with the cursor where it started, and the caller runs the general
//! skip ([`Cursor::skip_value`]), which then reads the value or reports its error, offset and
//! path exactly as before. Its twin test: `parser::differential::small_value_agrees`.
//!
//! [`compact_patch`] does the same for a whole JSON Patch written compactly
//! (`[{"op":"replace","path":"/progress","value":3},...]`): fixed bytes compared, the names
//! of the operations and members not looked up, the general parser's object and list
//! book-keeping skipped; anything else leaves the whole patch to the general reader. Its
//! twin test: `parser::differential::compact_patch_agrees`.

use super::parse::is_json_pointer;
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

/// Reads the JSON Patch at the cursor (its `[` there) when it is written compactly: one or more
/// operations, each exactly `{"op":"` name `","path":` pointer, then `,"value":` value (`add`,
/// `replace`, `test`), `,"from":` pointer (`move`, `copy`) or nothing (`remove`), then `}`;
/// no whitespace; pointers plain strings (no escape) that [`Cursor::short_string`] reads.
/// Each value by [`small_value`], else by [`Cursor::skip_value`]. Moves the cursor past the
/// `]`: `true`. Anything else (another member order or set, whitespace, an escape, an empty
/// patch, an error of any kind, more than `limit` operations, `max_depth` reached by the list
/// or an operation) gives `false` with the cursor (and its whitespace count) as they were,
/// and the general reader then reads the patch or reports its error, offset and path.
///
/// What it takes, the general reader (`Parser::json_patch`'s list of `patch_op`) accepts and
/// ends at the same byte: the same operation names, the same pointer check, the same value
/// validation at the same depth (`depth` is that of the patch's container, as for the list).
/// One-shot parsing only (no resume slots).
#[inline]
pub(crate) fn compact_patch(
    cur: &mut Cursor<'_>,
    depth: usize,
    max_depth: usize,
    limit: usize,
) -> bool {
    debug_assert!(cur.resume.is_none());
    let (start, ws) = (cur.pos, cur.ws);
    if patch(cur, depth, max_depth, limit).is_some() {
        return true;
    }
    (cur.pos, cur.ws) = (start, ws);
    false
}

/// What follows an operation's `path`.
#[derive(Clone, Copy)]
enum Then {
    Value,
    From,
    Nothing,
}

/// Moves past `lit` when the input holds it at the cursor.
#[inline(always)]
fn lit<const N: usize>(cur: &mut Cursor<'_>, lit: &[u8; N]) -> Option<()> {
    let end = cur.pos.checked_add(N)?;
    if cur.bytes.get(cur.pos..end)? != lit {
        return None;
    }
    cur.pos = end;
    Some(())
}

/// A JSON Pointer read by the short look, plain and valid.
#[inline(always)]
fn pointer(cur: &mut Cursor<'_>) -> Option<()> {
    if cur.peek() != Some(b'"') {
        return None;
    }
    let t = cur.short_string()?;
    (!t.escaped && is_json_pointer(t.raw)).then_some(())
}

fn patch(cur: &mut Cursor<'_>, depth: usize, max_depth: usize, limit: usize) -> Option<()> {
    // The list and each operation open a level each (`Parser::enter`).
    let inner = depth.checked_add(2)?;
    if inner > max_depth || cur.peek() != Some(b'[') {
        return None;
    }
    cur.pos += 1;
    let mut n = 0usize;
    loop {
        if n >= limit {
            return None;
        }
        n += 1;
        lit(cur, b"{\"op\":\"")?;
        // The name, its closing quote and the next key: as `patch_op` matches the names.
        let then = match cur.peek()? {
            b'r' => {
                if lit(cur, b"replace\",\"path\":").is_some() {
                    Then::Value
                } else {
                    lit(cur, b"remove\",\"path\":")?;
                    Then::Nothing
                }
            }
            b'a' => {
                lit(cur, b"add\",\"path\":")?;
                Then::Value
            }
            b't' => {
                lit(cur, b"test\",\"path\":")?;
                Then::Value
            }
            b'm' => {
                lit(cur, b"move\",\"path\":")?;
                Then::From
            }
            b'c' => {
                lit(cur, b"copy\",\"path\":")?;
                Then::From
            }
            _ => return None,
        };
        pointer(cur)?;
        match then {
            Then::Value => {
                lit(cur, b",\"value\":")?;
                if !small_value(cur, inner, max_depth) {
                    cur.skip_value(inner, max_depth).ok()?;
                }
            }
            Then::From => {
                lit(cur, b",\"from\":")?;
                pointer(cur)?;
            }
            Then::Nothing => {}
        }
        lit(cur, b"}")?;
        match cur.peek()? {
            b',' => cur.pos += 1,
            b']' => {
                cur.pos += 1;
                return Some(());
            }
            _ => return None,
        }
    }
}
