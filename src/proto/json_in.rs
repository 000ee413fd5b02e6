//! A small JSON reader for the encoder: the event's JSON text as a tree of borrowed tokens
//! (numbers keep their text, so the encoder can tell whether a `double` carries them exactly;
//! strings keep their raw, escaped text; object members keep their order).
//!
//! The text it reads has normally been validated already (by [`crate::Event::parse`] or
//! written by the crate's writer), but it checks what it needs and reports anything else as
//! [`ProtoErrorKind::Json`] with a byte offset. Nesting is bounded by a depth limit.

use std::borrow::Cow;

use super::{ProtoError, ProtoErrorKind};
use crate::Str;

/// One JSON value, borrowing from the text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum J<'a> {
    Null,
    Bool(bool),
    /// The number's text.
    Num(&'a str),
    /// The string's raw text between the quotes (escapes not resolved).
    Str(&'a str),
    Arr(Vec<J<'a>>),
    Obj(Vec<(&'a str, J<'a>)>),
}

impl<'a> J<'a> {
    /// The member `key` of an object (raw key text compared after unescaping).
    pub(crate) fn get(&self, key: &str) -> Option<&J<'a>> {
        match self {
            J::Obj(m) => m
                .iter()
                .rev()
                .find(|(k, _)| unescape(k) == key)
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The unescaped text of a string.
    pub(crate) fn as_str(&self) -> Option<Cow<'a, str>> {
        match self {
            J::Str(s) => Some(unescape(s)),
            _ => None,
        }
    }

    /// The name of the JSON type, for messages.
    #[allow(dead_code)]
    pub(crate) fn kind_name(&self) -> &'static str {
        match self {
            J::Null => "null",
            J::Bool(_) => "a boolean",
            J::Num(_) => "a number",
            J::Str(_) => "a string",
            J::Arr(_) => "an array",
            J::Obj(_) => "an object",
        }
    }
}

/// Resolves the escapes of a raw JSON string (borrowed when it has none).
pub(crate) fn unescape(raw: &str) -> Cow<'_, str> {
    if !raw.contains('\\') {
        return Cow::Borrowed(raw);
    }
    match Str::from_raw(raw) {
        Ok(s) => Cow::Owned(s.unescaped().into_owned()),
        Err(_) => Cow::Borrowed(raw),
    }
}

/// Reads one JSON document.
pub(crate) fn parse(text: &str, max_depth: usize) -> Result<J<'_>, ProtoError> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        pos: 0,
        max_depth,
    };
    let v = p.value(0)?;
    p.ws();
    if p.pos != p.s.len() {
        return Err(p.err("text after the JSON value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    max_depth: usize,
}

impl<'a> Parser<'a> {
    fn err(&self, what: &'static str) -> ProtoError {
        ProtoError::new(ProtoErrorKind::Json(what), self.pos)
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.s.get(self.pos) {
            self.pos += 1;
        }
    }

    fn lit(&mut self, word: &[u8], v: J<'a>) -> Result<J<'a>, ProtoError> {
        if self.s[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(v)
        } else {
            Err(self.err("invalid literal"))
        }
    }

    /// Recursion is bounded by `max_depth`.
    fn value(&mut self, depth: usize) -> Result<J<'a>, ProtoError> {
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
                if t.parse::<f64>().is_err() && !t.bytes().all(|c| c.is_ascii_digit() || c == b'-')
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
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                    return Ok(J::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.s.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(J::Arr(items));
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
                let mut members = Vec::new();
                self.ws();
                if self.s.get(self.pos) == Some(&b'}') {
                    self.pos += 1;
                    return Ok(J::Obj(members));
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
                            return Ok(J::Obj(members));
                        }
                        _ => return Err(self.err("expected `,` or `}`")),
                    }
                }
            }
            Some(_) => Err(self.err("unexpected character")),
        }
    }

    /// A string at `pos` (on its opening quote): its raw text.
    fn string(&mut self) -> Result<&'a str, ProtoError> {
        let start = self.pos + 1;
        let mut i = start;
        loop {
            match memchr::memchr2(b'"', b'\\', &self.s[i..]) {
                None => {
                    self.pos = self.s.len();
                    return Err(self.err("unterminated string"));
                }
                Some(k) if self.s[i + k] == b'\\' => i += k + 2,
                Some(k) => {
                    let end = i + k;
                    self.pos = end + 1;
                    return self.text.get(start..end).ok_or(ProtoError::new(
                        ProtoErrorKind::Json("invalid string"),
                        start,
                    ));
                }
            }
            if i > self.s.len() {
                self.pos = self.s.len();
                return Err(self.err("unterminated string"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_bounds() {
        let j = parse(r#"{"a":[1,-2.5e3,"x\"y",true,null],"b":{}}"#, 8).unwrap();
        assert_eq!(
            j.get("a").unwrap(),
            &J::Arr(vec![
                J::Num("1"),
                J::Num("-2.5e3"),
                J::Str("x\\\"y"),
                J::Bool(true),
                J::Null
            ])
        );
        assert!(parse("[[[[1]]]]", 3).is_err());
        assert!(parse("[1,", 3).is_err());
        assert!(parse("\"abc", 3).is_err());
        assert!(parse("\"ab\\", 3).is_err());
    }
}
