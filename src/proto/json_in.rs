//! A small JSON reader for the encoder: the event's JSON text as a tree of borrowed tokens
//! in an arena (numbers keep their text, so the encoder can tell whether a `double` carries
//! them exactly; strings keep their raw, escaped text and whether they hold escapes, so a
//! string without any is copied straight from the text; object members keep their order).
//!
//! The text it reads has normally been validated already (by [`crate::Event::parse`] or
//! written by the crate's writer), but it checks what it needs and reports anything else as
//! [`ProtoErrorKind::Json`] with a byte offset. Nesting is bounded by a depth limit.

use std::borrow::Cow;

use bumpalo::Bump;
use bumpalo::collections::Vec as BumpVec;

use super::{ProtoError, ProtoErrorKind};
use crate::Str;
use crate::scanner::Cursor;

/// A JSON string as it stands in the text: its raw content between the quotes, and whether
/// that content holds escapes (checked by the crate's scanner, so it is valid JSON string
/// content).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct JStr<'a> {
    pub(crate) raw: &'a str,
    pub(crate) escaped: bool,
}

impl<'a> JStr<'a> {
    /// Whether the string's text is `key` (escape-free strings compared as they stand).
    #[inline]
    pub(crate) fn is(&self, key: &str) -> bool {
        if self.escaped {
            self.text() == key
        } else {
            self.raw == key
        }
    }

    /// The unescaped text (borrowed when there is nothing to unescape).
    #[inline]
    pub(crate) fn text(&self) -> Cow<'a, str> {
        if self.escaped {
            Cow::Owned(crate::model::unescape_fast(self.raw))
        } else {
            Cow::Borrowed(self.raw)
        }
    }

    /// Writes the string as length-delimited field `num`: copied straight from the text when
    /// it has no escapes, otherwise unescaped into `arena` first (no heap allocation of its
    /// own; the transcoder resets the arena after each event).
    #[inline]
    pub(crate) fn put(&self, out: &mut Vec<u8>, num: u32, arena: &Bump) {
        if self.escaped {
            let text = Str::from_validated(self.raw, true).in_arena(arena);
            super::wire::put_bytes(out, num, text.as_bytes());
        } else {
            super::wire::put_bytes(out, num, self.raw.as_bytes());
        }
    }
}

/// One JSON value, borrowing from the text (`'a`), its arrays and objects from an arena
/// (`'b`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum J<'a, 'b> {
    Null,
    Bool(bool),
    /// The number's text.
    Num(&'a str),
    /// The string, escapes not resolved.
    Str(JStr<'a>),
    Arr(&'b [J<'a, 'b>]),
    Obj(&'b [(JStr<'a>, J<'a, 'b>)]),
}

impl<'a, 'b> J<'a, 'b> {
    /// The member `key` of an object (the last one, as JSON readers keep it).
    #[inline]
    pub(crate) fn get(&self, key: &str) -> Option<&'b J<'a, 'b>> {
        match *self {
            J::Obj(m) => m.iter().rev().find(|(k, _)| k.is(key)).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The unescaped text of a string.
    #[inline]
    pub(crate) fn as_str(&self) -> Option<Cow<'a, str>> {
        match self {
            J::Str(s) => Some(s.text()),
            _ => None,
        }
    }
}

/// Reads one JSON document.
pub(crate) fn parse<'a, 'b>(
    text: &'a str,
    max_depth: usize,
    arena: &'b Bump,
) -> Result<J<'a, 'b>, ProtoError> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        pos: 0,
        max_depth,
        arena,
    };
    let v = p.value(0)?;
    p.ws();
    if p.pos != p.s.len() {
        return Err(p.err("text after the JSON value"));
    }
    Ok(v)
}

struct Parser<'a, 'b> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    max_depth: usize,
    arena: &'b Bump,
}

impl<'a, 'b> Parser<'a, 'b> {
    fn err(&self, what: &'static str) -> ProtoError {
        ProtoError::new(ProtoErrorKind::Json(what), self.pos)
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.s.get(self.pos) {
            self.pos += 1;
        }
    }

    fn lit(&mut self, word: &[u8], v: J<'a, 'b>) -> Result<J<'a, 'b>, ProtoError> {
        if self.s[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(v)
        } else {
            Err(self.err("invalid literal"))
        }
    }

    /// Recursion is bounded by `max_depth`.
    fn value(&mut self, depth: usize) -> Result<J<'a, 'b>, ProtoError> {
        self.ws();
        match self.s.get(self.pos) {
            None => Err(self.err("unexpected end of JSON")),
            Some(b'n') => self.lit(b"null", J::Null),
            Some(b't') => self.lit(b"true", J::Bool(true)),
            Some(b'f') => self.lit(b"false", J::Bool(false)),
            Some(b'"') => Ok(J::Str(self.string()?)),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                while let Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') =
                    self.s.get(self.pos)
                {
                    self.pos += 1;
                }
                let t = &self.text[start..self.pos];
                // Digits (the common case) are taken as they are; the exactness check reads
                // every number later.
                if !t.bytes().all(|c| c.is_ascii_digit() || c == b'-') && t.parse::<f64>().is_err()
                {
                    return Err(ProtoError::new(
                        ProtoErrorKind::Json("invalid number"),
                        start,
                    ));
                }
                Ok(J::Num(t))
            }
            Some(b'[') => {
                if depth >= self.max_depth {
                    return Err(ProtoError::new(
                        ProtoErrorKind::DepthLimit(self.max_depth),
                        self.pos,
                    ));
                }
                self.pos += 1;
                let mut items = BumpVec::new_in(self.arena);
                self.ws();
                if self.s.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                    return Ok(J::Arr(items.into_bump_slice()));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.s.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(J::Arr(items.into_bump_slice()));
                        }
                        _ => return Err(self.err("expected `,` or `]`")),
                    }
                }
            }
            Some(b'{') => {
                if depth >= self.max_depth {
                    return Err(ProtoError::new(
                        ProtoErrorKind::DepthLimit(self.max_depth),
                        self.pos,
                    ));
                }
                self.pos += 1;
                let mut members = BumpVec::new_in(self.arena);
                self.ws();
                if self.s.get(self.pos) == Some(&b'}') {
                    self.pos += 1;
                    return Ok(J::Obj(members.into_bump_slice()));
                }
                loop {
                    self.ws();
                    if self.s.get(self.pos) != Some(&b'"') {
                        return Err(self.err("expected a key"));
                    }
                    let k = self.string()?;
                    self.ws();
                    if self.s.get(self.pos) != Some(&b':') {
                        return Err(self.err("expected `:`"));
                    }
                    self.pos += 1;
                    let v = self.value(depth + 1)?;
                    members.push((k, v));
                    self.ws();
                    match self.s.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            return Ok(J::Obj(members.into_bump_slice()));
                        }
                        _ => return Err(self.err("expected `,` or `}`")),
                    }
                }
            }
            Some(_) => Err(self.err("unexpected character")),
        }
    }

    /// A string at `pos` (on its opening quote), checked by the crate's scanner: its raw
    /// text and whether it holds escapes.
    fn string(&mut self) -> Result<JStr<'a>, ProtoError> {
        let mut c = Cursor::new(self.s);
        c.pos = self.pos;
        let tok = c
            .string()
            .map_err(|e| ProtoError::new(ProtoErrorKind::Json("invalid string"), e.offset))?;
        self.pos = c.pos;
        Ok(JStr {
            raw: tok.raw,
            escaped: tok.escaped,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_bounds() {
        let arena = Bump::new();
        let j = parse(r#"{"a":[1,-2.5e3,"x\"y",true,null],"b":{}}"#, 8, &arena).unwrap();
        let s = JStr {
            raw: "x\\\"y",
            escaped: true,
        };
        assert_eq!(
            j.get("a").unwrap(),
            &J::Arr(&[
                J::Num("1"),
                J::Num("-2.5e3"),
                J::Str(s),
                J::Bool(true),
                J::Null
            ])
        );
        assert_eq!(s.text(), "x\"y");
        assert!(s.is("x\"y"));
        assert!(parse("[[[[1]]]]", 3, &arena).is_err());
        assert!(parse("[1,", 3, &arena).is_err());
        assert!(parse("\"abc", 3, &arena).is_err());
        assert!(parse("\"ab\\", 3, &arena).is_err());
        assert!(parse("\"a\\q\"", 3, &arena).is_err());
        assert!(parse("\"a\u{1}\"", 3, &arena).is_err());
    }
}
