//! [`RawJson`]: a validated JSON value kept as its text and forwarded byte for byte, and
//! [`JsonKind`], the type of a value.

use std::fmt;

use super::text::Text;
use crate::error::Error;

/// The JSON type of a value.
///
/// ```
/// use agui_wire::{JsonKind, RawJson};
/// assert_eq!(RawJson::from_text("[1]").unwrap().kind(), JsonKind::Array);
/// assert_eq!(JsonKind::Object.name(), "an object");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum JsonKind {
    /// `null`
    #[default]
    Null,
    /// `true` or `false`
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonKind {
    /// The kind's name with an article, for messages ("an object", "a string").
    ///
    /// ```
    /// # use agui_wire::JsonKind;
    /// assert_eq!(JsonKind::Null.name(), "null");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Bool => "a boolean",
            JsonKind::Number => "a number",
            JsonKind::String => "a string",
            JsonKind::Array => "an array",
            JsonKind::Object => "an object",
        }
    }
}

/// A JSON value kept as the validated text of the input, for forwarding byte for byte.
///
/// Every JSON-valued field of the protocol (`state`, `forwardedProps`, `metadata`, tool
/// `parameters`, activity `content`, resume `payload`, event `snapshot`/`delta`/`value`...)
/// is a `RawJson`: the parser checks it against the grammar and records its kind, but builds
/// nothing. Look inside with [`RawJson::to_value`] (a `simd_json` borrowed value) or
/// [`RawJson::to_serde_value`] (both refuse values nested deeper than
/// [`RawJson::MAX_TREE_DEPTH`]).
///
/// Equality ignores whitespace outside strings, so `{"a": 1}` equals `{"a":1}`.
///
/// ```
/// use agui_wire::{RawJson, JsonKind, Bump};
/// let raw = RawJson::from_text(r#"{"draft": "hi", "n": [1, 2]}"#).unwrap();
/// assert_eq!(raw.kind(), JsonKind::Object);
/// assert!(!raw.is_compact());
/// assert_eq!(raw, RawJson::from_text(r#"{"draft":"hi","n":[1,2]}"#).unwrap());
///
/// use simd_json::prelude::*;
/// let arena = Bump::new();
/// let v = raw.to_value(&arena).unwrap();
/// assert_eq!(v["draft"].as_str(), Some("hi"));
/// ```
#[derive(Clone)]
pub struct RawJson<'a> {
    /// The text; its flags are the kind (`JsonKind as usize`, three bits) and [`COMPACT`].
    text: Text<'a>,
}

/// [`RawJson`]'s "no whitespace outside strings" flag in its [`Text`].
const COMPACT: usize = 1 << 3;
const KIND_MASK: usize = COMPACT - 1;

/// A [`RawJson`]'s flags.
#[inline(always)]
const fn raw_flags(kind: JsonKind, compact: bool) -> usize {
    kind as usize | if compact { COMPACT } else { 0 }
}

impl<'a> RawJson<'a> {
    #[inline]
    pub(crate) fn from_validated(text: &'a str, kind: JsonKind, compact: bool) -> RawJson<'a> {
        RawJson {
            text: Text::borrowed(text, raw_flags(kind, compact)),
        }
    }

    /// Validates `text` as exactly one JSON value (surrounding whitespace is trimmed).
    ///
    /// ```
    /// # use agui_wire::RawJson;
    /// assert!(RawJson::from_text(" [1, 2] ").is_ok());
    /// assert!(RawJson::from_text("[1, 2").is_err());
    /// ```
    pub fn from_text(text: &'a str) -> Result<RawJson<'a>, Error> {
        Self::from_text_with_depth(text, crate::ParseOptions::default().max_depth)
    }

    pub(crate) fn from_text_with_depth(
        text: &'a str,
        max_depth: usize,
    ) -> Result<RawJson<'a>, Error> {
        let bytes = text.as_bytes();
        let kind =
            crate::scanner::validate_document(bytes, max_depth).map_err(|e| e.locate(bytes))?;
        let trimmed = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
        let compact = !has_ws_outside_strings(trimmed.as_bytes());
        Ok(RawJson::from_validated(trimmed, kind, compact))
    }

    /// Like [`RawJson::from_text`] for an owned string.
    ///
    /// ```
    /// # use agui_wire::RawJson;
    /// let v = RawJson::from_string(format!("{{\"n\":{}}}", 5)).unwrap();
    /// assert_eq!(v.text(), r#"{"n":5}"#);
    /// ```
    pub fn from_string(text: String) -> Result<RawJson<'static>, Error> {
        let v = RawJson::from_text(&text)?;
        Ok(v.into_owned())
    }

    /// `null`.
    ///
    /// ```
    /// # use agui_wire::RawJson;
    /// assert!(RawJson::null().is_null());
    /// ```
    pub fn null() -> RawJson<'static> {
        RawJson::from_validated("null", JsonKind::Null, true)
    }

    /// The value's text, exactly as in the input.
    ///
    /// ```
    /// # use agui_wire::RawJson;
    /// assert_eq!(RawJson::from_text("[1 ,2]").unwrap().text(), "[1 ,2]");
    /// ```
    #[inline]
    pub fn text(&self) -> &str {
        self.text.as_str()
    }

    /// The value's bytes, exactly as in the input.
    ///
    /// ```
    /// # use agui_wire::RawJson;
    /// assert_eq!(RawJson::from_text("true").unwrap().as_bytes(), b"true");
    /// ```
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        self.text.as_str().as_bytes()
    }

    /// The value's JSON type.
    ///
    /// ```
    /// # use agui_wire::{RawJson, JsonKind};
    /// assert_eq!(RawJson::from_text("\"s\"").unwrap().kind(), JsonKind::String);
    /// ```
    #[inline]
    pub fn kind(&self) -> JsonKind {
        use JsonKind::*;
        const KINDS: [JsonKind; 8] = [Null, Bool, Number, String, Array, Object, Null, Null];
        KINDS[self.text.flags() & KIND_MASK]
    }

    /// Whether the value is `null`.
    ///
    /// ```
    /// # use agui_wire::RawJson;
    /// assert!(!RawJson::from_text("0").unwrap().is_null());
    /// ```
    pub fn is_null(&self) -> bool {
        self.kind() == JsonKind::Null
    }

    /// Whether the text has no whitespace outside strings (so a compact writer can copy it).
    ///
    /// ```
    /// # use agui_wire::RawJson;
    /// assert!(RawJson::from_text(r#"{"a b":1}"#).unwrap().is_compact());
    /// ```
    pub fn is_compact(&self) -> bool {
        self.text.flags() & COMPACT != 0
    }

    /// Copies borrowed text so the value no longer borrows the input.
    ///
    /// ```
    /// # use agui_wire::RawJson;
    /// let v: RawJson<'static> = RawJson::from_text(&String::from("1")).unwrap().into_owned();
    /// assert_eq!(v.text(), "1");
    /// ```
    pub fn into_owned(self) -> RawJson<'static> {
        RawJson {
            text: self.text.into_owned(),
        }
    }

    /// The borrowed text, when it borrows from outside the value.
    pub(crate) fn borrowed_text(&self) -> Option<&'a str> {
        self.text.as_borrowed()
    }
}

impl PartialEq for RawJson<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.kind() == other.kind() && eq_ignoring_ws(self.as_bytes(), other.as_bytes())
    }
}

impl fmt::Debug for RawJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawJson({})", self.text())
    }
}

impl fmt::Display for RawJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl Default for RawJson<'_> {
    fn default() -> Self {
        RawJson::null()
    }
}

/// The offset of the first byte of `text` (validated JSON) outside its strings for which
/// `stop` says so (each string's quotes count as outside), if any.
pub(crate) fn find_outside_strings(text: &[u8], mut stop: impl FnMut(u8) -> bool) -> Option<usize> {
    let mut in_str = false;
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        if in_str {
            match c {
                b'\\' => i += 1,
                b'"' => in_str = false,
                _ => {}
            }
        } else if c == b'"' {
            in_str = true;
        } else if stop(c) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Whitespace outside strings in a validated JSON text?
pub(crate) fn has_ws_outside_strings(b: &[u8]) -> bool {
    find_outside_strings(b, |c| matches!(c, b' ' | b'\t' | b'\n' | b'\r')).is_some()
}

/// Appends `text` (a validated JSON value) to `out` with the whitespace outside strings removed.
pub(crate) fn minify_into(text: &[u8], out: &mut Vec<u8>) {
    let mut in_str = false;
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        if in_str {
            out.push(c);
            match c {
                b'\\' => {
                    if let Some(&n) = text.get(i + 1) {
                        out.push(n);
                    }
                    i += 1;
                }
                b'"' => in_str = false,
                _ => {}
            }
        } else {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => {}
                b'"' => {
                    in_str = true;
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
        i += 1;
    }
}

/// Compares two validated JSON texts, ignoring whitespace outside strings.
fn eq_ignoring_ws(a: &[u8], b: &[u8]) -> bool {
    if a == b {
        return true;
    }
    let (mut ma, mut mb) = (Vec::with_capacity(a.len()), Vec::with_capacity(b.len()));
    minify_into(a, &mut ma);
    minify_into(b, &mut mb);
    ma == mb
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_strings() {
        let text = br#"{"a b":"x\" y","c":[ 1]}"#;
        assert_eq!(find_outside_strings(text, |c| c == b' '), Some(20));
        assert_eq!(find_outside_strings(text, |c| c == b'y'), None);
        assert!(has_ws_outside_strings(text));
        assert!(!has_ws_outside_strings(br#"{"a b":"\\"}"#));
    }

    #[test]
    fn raw_eq_ignores_ws() {
        let a = RawJson::from_text(r#"{ "a" : [1, "x y"] }"#).unwrap();
        let b = RawJson::from_text(r#"{"a":[1,"x y"]}"#).unwrap();
        let c = RawJson::from_text(r#"{"a":[1,"xy"]}"#).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut out = Vec::new();
        minify_into(a.as_bytes(), &mut out);
        assert_eq!(out, b.as_bytes());
    }
}
