//! The borrowed building blocks of the model: strings, raw JSON values, lists and the record
//! of unknown fields.

use std::borrow::Cow;
use std::fmt;

use bumpalo::Bump;

use super::text::Text;
use super::unescape::{unescape, unescape_in, unescape_to};
use crate::error::{Error, ErrorKind};

/// A JSON string as it appears on the wire, borrowed from the input.
///
/// `Str` keeps the *escaped* form (the bytes between the quotes), so a writer can copy it out
/// verbatim with no re-escaping. The text is unescaped only when asked for: [`Str::unescaped`]
/// returns a `Cow` that borrows when the string has no escapes (the common case), and
/// [`Str::in_arena`] unescapes into a caller's [`Bump`].
///
/// ```
/// use agui_wire::Str;
/// let s = Str::from_raw(r"caf\u00e9 \u2615").unwrap();
/// assert_eq!(s.raw(), r"caf\u00e9 \u2615");
/// assert_eq!(s.unescaped(), "café ☕");
/// assert!(s.is_escaped());
///
/// let plain = Str::new("hello");
/// assert_eq!(plain, "hello");
/// ```
#[derive(Clone, Default)]
pub struct Str<'a> {
    /// The raw content; its flag is "has escapes" ([`ESCAPED`]).
    raw: Text<'a>,
}

/// [`Str`]'s flag in its [`Text`].
const ESCAPED: usize = 1;

impl<'a> Str<'a> {
    /// Wraps raw string content the scanner has already validated.
    #[inline]
    pub(crate) fn from_validated(raw: &'a str, escaped: bool) -> Str<'a> {
        Str {
            raw: Text::borrowed(raw, escaped as usize),
        }
    }

    /// A string holding `text`, escaping it if needed (an allocation only then).
    ///
    /// ```
    /// use agui_wire::Str;
    /// assert_eq!(Str::new("a\"b").raw(), r#"a\"b"#);
    /// assert!(!Str::new("plain").is_escaped());
    /// ```
    pub fn new(text: &'a str) -> Str<'a> {
        if needs_escape(text) {
            let mut out = String::with_capacity(text.len() + 8);
            escape_into(text, &mut out);
            Str {
                raw: Text::owned(out, ESCAPED),
            }
        } else {
            Str::from_validated(text, false)
        }
    }

    /// Like [`Str::new`], but an escaped copy goes into `arena` instead of the heap.
    ///
    /// ```
    /// use agui_wire::{Str, Bump};
    /// let arena = Bump::new();
    /// assert_eq!(Str::new_in("tab\there", &arena).raw(), r"tab\there");
    /// ```
    pub fn new_in(text: &'a str, arena: &'a Bump) -> Str<'a> {
        if needs_escape(text) {
            let mut out = String::with_capacity(text.len() + 8);
            escape_into(text, &mut out);
            Str::from_validated(arena.alloc_str(&out), true)
        } else {
            Str::new(text)
        }
    }

    /// A string from raw, escaped JSON string content (without the quotes), validated.
    ///
    /// ```
    /// use agui_wire::Str;
    /// assert!(Str::from_raw(r"ok\n").is_ok());
    /// assert!(Str::from_raw(r"bad\q").is_err());
    /// assert!(Str::from_raw("unescaped \" quote").is_err());
    /// ```
    pub fn from_raw(raw: &'a str) -> Result<Str<'a>, Error> {
        let mut doc = Vec::with_capacity(raw.len() + 2);
        doc.push(b'"');
        doc.extend_from_slice(raw.as_bytes());
        doc.push(b'"');
        let mut c = crate::scanner::Cursor::new(&doc);
        let tok = c
            .string()
            // Offsets are into `raw` (the added quote shifts them by one); an escape that
            // swallows the closing quote we added ends at `raw.len()`.
            .map_err(|e| Error::new(e.kind, e.offset.saturating_sub(1).min(raw.len()), ""))?;
        if c.pos != doc.len() {
            return Err(Error::new(
                ErrorKind::InvalidValue {
                    field: "string",
                    reason: "an unescaped quote ends the string early",
                },
                c.pos.saturating_sub(2),
                "",
            ));
        }
        Ok(Str::from_validated(raw, tok.escaped))
    }

    /// The raw, escaped content as on the wire (without quotes).
    ///
    /// ```
    /// # use agui_wire::Str;
    /// assert_eq!(Str::new("x\ny").raw(), r"x\ny");
    /// ```
    #[inline]
    pub fn raw(&self) -> &str {
        self.raw.as_str()
    }

    /// Whether the raw content contains escapes (so unescaping does work).
    ///
    /// ```
    /// # use agui_wire::Str;
    /// assert!(Str::from_raw(r"\/").unwrap().is_escaped());
    /// ```
    #[inline]
    pub fn is_escaped(&self) -> bool {
        self.raw.flags() & ESCAPED != 0
    }

    /// The text, unescaped; borrows when there is nothing to unescape.
    ///
    /// ```
    /// # use agui_wire::Str;
    /// use std::borrow::Cow;
    /// assert!(matches!(Str::new("plain").unescaped(), Cow::Borrowed("plain")));
    /// assert_eq!(Str::from_raw(r"\ud83d\ude00").unwrap().unescaped(), "😀");
    /// ```
    pub fn unescaped(&self) -> Cow<'_, str> {
        if self.is_escaped() {
            Cow::Owned(unescape(self.raw()))
        } else {
            Cow::Borrowed(self.raw())
        }
    }

    /// The text, unescaped into `arena` when needed, borrowed from the input otherwise.
    ///
    /// ```
    /// # use agui_wire::{Str, Bump};
    /// let arena = Bump::new();
    /// let s = Str::from_raw(r"a\tb").unwrap();
    /// assert_eq!(s.in_arena(&arena), "a\tb");
    /// ```
    pub fn in_arena(&self, arena: &'a Bump) -> &'a str {
        match (self.raw.as_borrowed(), self.is_escaped()) {
            (Some(raw), false) => raw,
            (None, false) => arena.alloc_str(self.raw()),
            (_, true) => unescape_in(self.raw(), arena),
        }
    }

    /// The text when it needs no unescaping (`None` when it has escapes).
    ///
    /// ```
    /// # use agui_wire::Str;
    /// assert_eq!(Str::new("id-1").as_plain(), Some("id-1"));
    /// assert_eq!(Str::from_raw(r#"a\"b"#).unwrap().as_plain(), None);
    /// ```
    pub fn as_plain(&self) -> Option<&str> {
        (!self.is_escaped()).then_some(self.raw())
    }

    /// Compares the unescaped text with `text`, without allocating.
    ///
    /// ```
    /// # use agui_wire::Str;
    /// assert!(Str::from_raw(r"\u0041B").unwrap().eq_text("AB"));
    /// ```
    pub fn eq_text(&self, text: &str) -> bool {
        if !self.is_escaped() {
            return self.raw() == text;
        }
        let mut rest = text.as_bytes();
        let mut same = true;
        unescape_to(self.raw(), |piece| {
            if same {
                if let Some(tail) = rest.strip_prefix(piece.as_bytes()) {
                    rest = tail;
                } else {
                    same = false;
                }
            }
        });
        same && rest.is_empty()
    }

    /// Length of the raw (escaped) content in bytes.
    ///
    /// ```
    /// # use agui_wire::Str;
    /// assert_eq!(Str::new("abc").raw_len(), 3);
    /// ```
    pub fn raw_len(&self) -> usize {
        self.raw.len()
    }

    /// Whether the string is empty.
    ///
    /// ```
    /// # use agui_wire::Str;
    /// assert!(Str::new("").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.raw.len() == 0
    }

    /// Copies borrowed content so the value no longer borrows the input.
    ///
    /// ```
    /// # use agui_wire::Str;
    /// let owned: Str<'static> = Str::new(&String::from("x")).into_owned();
    /// assert_eq!(owned, "x");
    /// ```
    pub fn into_owned(self) -> Str<'static> {
        Str {
            raw: self.raw.into_owned(),
        }
    }
}

impl PartialEq for Str<'_> {
    fn eq(&self, other: &Self) -> bool {
        if self.is_escaped() || other.is_escaped() {
            self.unescaped() == other.unescaped()
        } else {
            self.raw() == other.raw()
        }
    }
}

impl Eq for Str<'_> {}

impl PartialEq<str> for Str<'_> {
    fn eq(&self, other: &str) -> bool {
        self.eq_text(other)
    }
}

impl PartialEq<&str> for Str<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.eq_text(other)
    }
}

impl fmt::Debug for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.unescaped(), f)
    }
}

impl fmt::Display for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.unescaped())
    }
}

impl<'a> From<&'a str> for Str<'a> {
    fn from(text: &'a str) -> Str<'a> {
        Str::new(text)
    }
}

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

/// Whitespace outside strings in a validated JSON text?
pub(crate) fn has_ws_outside_strings(b: &[u8]) -> bool {
    let mut in_str = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if in_str {
            match c {
                b'\\' => i += 1,
                b'"' => in_str = false,
                _ => {}
            }
        } else {
            match c {
                b'"' => in_str = true,
                b' ' | b'\t' | b'\n' | b'\r' => return true,
                _ => {}
            }
        }
        i += 1;
    }
    false
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

fn needs_escape(text: &str) -> bool {
    text.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20)
}

/// Escapes `text` as JSON string content (what serde_json writes: `\"`, `\\`, `\n`, `\r`, `\t`,
/// `\b`, `\f`, other controls as `\u00XX`; everything else literal).
pub fn escape_into(text: &str, out: &mut String) {
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&text[start..i]);
        if esc.is_empty() {
            out.push_str(&format!("\\u{b:04x}"));
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&text[start..]);
}

/// A list in the model: a slice in the parse arena, or a `Vec` once built or edited by hand.
///
/// It dereferences to `[T]`, so it reads like a slice. [`List::to_mut`] turns it into a
/// `Vec` for edits (copying the elements, which are cheap borrowed views).
///
/// ```
/// use agui_wire::List;
/// let mut l: List<'_, u32> = List::from(vec![1, 2]);
/// l.to_mut().push(3);
/// assert_eq!(&l[..], &[1, 2, 3]);
/// assert_eq!(l.len(), 3);
/// ```
pub struct List<'a, T> {
    repr: ListRepr<'a, T>,
}

/// Two words: an owned list is boxed (lists are edited rarely and read often, and a parsed
/// body holds thousands of them).
#[allow(clippy::box_collection)] // the box is the point: it keeps `List` at two words
enum ListRepr<'a, T> {
    Arena(&'a [T]),
    Owned(Box<Vec<T>>),
}

impl<'a, T> List<'a, T> {
    /// An empty list.
    ///
    /// ```
    /// # use agui_wire::List;
    /// assert!(List::<u8>::new().is_empty());
    /// ```
    pub const fn new() -> List<'a, T> {
        List {
            repr: ListRepr::Arena(&[]),
        }
    }

    /// A list over an arena (or any borrowed) slice.
    ///
    /// ```
    /// # use agui_wire::List;
    /// let l = List::borrowed(&[1u8, 2][..]);
    /// assert_eq!(l.len(), 2);
    /// ```
    pub const fn borrowed(items: &'a [T]) -> List<'a, T> {
        List {
            repr: ListRepr::Arena(items),
        }
    }

    /// The elements as a slice.
    ///
    /// ```
    /// # use agui_wire::List;
    /// assert_eq!(List::from(vec!['a']).as_slice(), &['a']);
    /// ```
    pub fn as_slice(&self) -> &[T] {
        match &self.repr {
            ListRepr::Arena(s) => s,
            ListRepr::Owned(v) => v,
        }
    }

    /// Whether the list owns a heap `Vec` (built or edited by hand).
    pub(crate) fn is_owned(&self) -> bool {
        matches!(self.repr, ListRepr::Owned(_))
    }

    /// A `Vec` to edit, copying the elements out of the arena the first time.
    ///
    /// ```
    /// # use agui_wire::List;
    /// let mut l = List::borrowed(&[1, 2, 3][..]);
    /// l.to_mut().retain(|&x| x != 2);
    /// assert_eq!(l.as_slice(), &[1, 3]);
    /// ```
    pub fn to_mut(&mut self) -> &mut Vec<T>
    where
        T: Clone,
    {
        if let ListRepr::Arena(s) = self.repr {
            self.repr = ListRepr::Owned(Box::new(s.to_vec()));
        }
        match &mut self.repr {
            ListRepr::Owned(v) => v,
            ListRepr::Arena(_) => unreachable!("converted above"),
        }
    }

    /// Maps every element into a new owned list.
    ///
    /// ```
    /// # use agui_wire::List;
    /// let l = List::from(vec![1, 2]).map(|x| x * 10);
    /// assert_eq!(l.as_slice(), &[10, 20]);
    /// ```
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> List<'static, U>
    where
        T: Clone,
    {
        let v: Vec<T> = match self.repr {
            ListRepr::Arena(s) => s.to_vec(),
            ListRepr::Owned(v) => *v,
        };
        List::from(v.into_iter().map(f).collect::<Vec<U>>())
    }
}

impl<T> Default for List<'_, T> {
    fn default() -> Self {
        List::new()
    }
}

impl<T: Clone> Clone for List<'_, T> {
    fn clone(&self) -> Self {
        match &self.repr {
            ListRepr::Arena(s) => List::borrowed(s),
            ListRepr::Owned(v) => List::from(Vec::clone(v)),
        }
    }
}

impl<T> std::ops::Deref for List<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T> From<Vec<T>> for List<'_, T> {
    fn from(v: Vec<T>) -> Self {
        List {
            repr: ListRepr::Owned(Box::new(v)),
        }
    }
}

impl<T: PartialEq> PartialEq for List<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: fmt::Debug> fmt::Debug for List<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'l, T> IntoIterator for &'l List<'_, T> {
    type Item = &'l T;
    type IntoIter = std::slice::Iter<'l, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// A field the protocol does not define, kept with its raw value so it is forwarded intact.
///
/// ```
/// use agui_wire::{Field, Str, RawJson};
/// let f = Field { key: Str::new("x-trace"), value: RawJson::from_text("\"abc\"").unwrap() };
/// assert_eq!(f.key, "x-trace");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Field<'a> {
    /// The key.
    pub key: Str<'a>,
    /// The value, as raw JSON.
    pub value: RawJson<'a>,
}

impl Field<'_> {
    /// Copies borrowed content out of the input.
    ///
    /// ```
    /// # use agui_wire::{Field, Str, RawJson};
    /// let f: Field<'static> = Field { key: Str::new("k"), value: RawJson::null() }.into_owned();
    /// ```
    pub fn into_owned(self) -> Field<'static> {
        Field {
            key: self.key.into_owned(),
            value: self.value.into_owned(),
        }
    }
}

/// What an object held beyond its known fields: the unknown fields (in order) and, when the
/// input did not use the protocol's usual field order, the order it did use, so a writer can
/// reproduce the input byte for byte.
///
/// ```
/// use agui_wire::{RunAgentInput, Bump};
/// let arena = Bump::new();
/// let doc = br#"{"threadId":"t","runId":"r","messages":[],"x-tenant":"acme"}"#;
/// let input = RunAgentInput::parse(doc, &arena).unwrap();
/// let f = &input.extra.fields()[0];
/// assert_eq!((f.key.raw(), f.value.text()), ("x-tenant", "\"acme\""));
/// ```
#[derive(Clone, Default)]
pub struct Extra<'a> {
    /// Two words: most objects have neither unknown fields nor an unusual order (`Empty`);
    /// the parser puts the others' record in its arena.
    repr: ExtraRepr<'a>,
}

#[derive(Clone, Default)]
enum ExtraRepr<'a> {
    #[default]
    Empty,
    Shared(&'a ExtraParts<'a>),
    Owned(Box<ExtraParts<'a>>),
}

/// The record behind a non-empty [`Extra`].
#[derive(Clone, Default)]
pub(crate) struct ExtraParts<'a> {
    fields: List<'a, Field<'a>>,
    /// Wire order of the object's keys: ids of known fields (below [`EXTRA_BASE`]) and
    /// `EXTRA_BASE + i` for the i-th unknown field. Empty means "the canonical order".
    order: List<'a, u32>,
}

impl<'a> ExtraParts<'a> {
    /// A record of unknown fields and wire order (an empty `order` means canonical).
    pub(crate) const fn new(fields: List<'a, Field<'a>>, order: List<'a, u32>) -> Self {
        ExtraParts { fields, order }
    }

    /// A record of no unknown fields and the wire order `ids` (the shared orders of the
    /// templates, `static`s).
    pub(crate) const fn order_only(ids: &'a [u32]) -> Self {
        ExtraParts::new(List::new(), List::borrowed(ids))
    }

    /// The wire order (empty for the canonical one).
    pub(crate) fn order_ids(&self) -> &[u32] {
        &self.order
    }
}

/// Offset of unknown-field ids in [`Extra`]'s order record.
pub(crate) const EXTRA_BASE: u32 = 1024;

impl<'a> Extra<'a> {
    /// The record of `fields` and `order`, kept in `arena` (nothing when both are empty).
    /// The two lists must not own heap memory (the arena never drops what it holds).
    #[inline]
    pub(crate) fn in_arena(
        fields: List<'a, Field<'a>>,
        order: List<'a, u32>,
        arena: &'a bumpalo::Bump,
    ) -> Extra<'a> {
        if fields.is_empty() && order.is_empty() {
            return Extra::default();
        }
        debug_assert!(!fields.is_owned() && !order.is_owned());
        Extra::shared(arena.alloc(ExtraParts::new(fields, order)))
    }

    /// A record that lives elsewhere (the arena, or a `static`).
    pub(crate) const fn shared(parts: &'a ExtraParts<'a>) -> Extra<'a> {
        Extra {
            repr: ExtraRepr::Shared(parts),
        }
    }

    /// The record of `fields` and `order` on the heap (nothing when both are empty).
    pub(crate) fn from_parts(fields: List<'a, Field<'a>>, order: List<'a, u32>) -> Extra<'a> {
        if fields.is_empty() && order.is_empty() {
            return Extra::default();
        }
        Extra {
            repr: ExtraRepr::Owned(Box::new(ExtraParts::new(fields, order))),
        }
    }

    fn parts(&self) -> Option<&ExtraParts<'a>> {
        match &self.repr {
            ExtraRepr::Empty => None,
            ExtraRepr::Shared(p) => Some(p),
            ExtraRepr::Owned(p) => Some(p),
        }
    }

    fn parts_mut(&mut self) -> &mut ExtraParts<'a> {
        let parts = match &self.repr {
            ExtraRepr::Owned(_) => None,
            ExtraRepr::Empty => Some(ExtraParts::default()),
            ExtraRepr::Shared(p) => Some((*p).clone()),
        };
        if let Some(p) = parts {
            self.repr = ExtraRepr::Owned(Box::new(p));
        }
        match &mut self.repr {
            ExtraRepr::Owned(p) => p,
            _ => unreachable!("made owned above"),
        }
    }

    /// The unknown fields, in input order.
    ///
    /// ```
    /// # use agui_wire::Extra;
    /// assert!(Extra::default().fields().is_empty());
    /// ```
    pub fn fields(&self) -> &[Field<'a>] {
        self.parts().map_or(&[], |p| &p.fields)
    }

    /// The unknown field named `key`, if any.
    ///
    /// ```
    /// # use agui_wire::{RunAgentInput, Bump};
    /// let arena = Bump::new();
    /// let doc = br#"{"threadId":"t","runId":"r","messages":[],"x":1}"#;
    /// let input = RunAgentInput::parse(doc, &arena).unwrap();
    /// assert_eq!(input.extra.get("x").map(|v| v.text()), Some("1"));
    /// ```
    pub fn get(&self, key: &str) -> Option<&RawJson<'a>> {
        self.fields()
            .iter()
            .find(|f| f.key.eq_text(key))
            .map(|f| &f.value)
    }

    /// Adds an unknown field (written after the known ones).
    ///
    /// ```
    /// # use agui_wire::{Extra, Str, RawJson};
    /// let mut e = Extra::default();
    /// e.push(Str::new("k"), RawJson::null());
    /// assert_eq!(e.fields().len(), 1);
    /// ```
    pub fn push(&mut self, key: Str<'a>, value: RawJson<'a>) {
        let parts = self.parts_mut();
        let i = parts.fields.len();
        parts.fields.to_mut().push(Field { key, value });
        if !parts.order.is_empty() {
            parts.order.to_mut().push(EXTRA_BASE + i as u32);
        }
    }

    /// Removes every unknown field named `key`; returns how many were removed.
    ///
    /// ```
    /// # use agui_wire::{Extra, Str, RawJson};
    /// let mut e = Extra::default();
    /// e.push(Str::new("k"), RawJson::null());
    /// assert_eq!(e.remove("k"), 1);
    /// ```
    pub fn remove(&mut self, key: &str) -> usize {
        if !self.fields().iter().any(|f| f.key.eq_text(key)) {
            return 0;
        }
        let parts = self.parts_mut();
        let before = parts.fields.len();
        // Drop the removed fields from the order record and renumber the rest.
        let keep: Vec<bool> = parts.fields.iter().map(|f| !f.key.eq_text(key)).collect();
        if !parts.order.is_empty() {
            let mut new_index = Vec::with_capacity(keep.len());
            let mut n = 0u32;
            for &k in &keep {
                new_index.push(if k { Some(n) } else { None });
                n += k as u32;
            }
            let order: Vec<u32> = parts
                .order
                .iter()
                .filter_map(|&id| {
                    if id < EXTRA_BASE {
                        Some(id)
                    } else {
                        new_index
                            .get((id - EXTRA_BASE) as usize)
                            .copied()
                            .flatten()
                            .map(|i| EXTRA_BASE + i)
                    }
                })
                .collect();
            parts.order = List::from(order);
        }
        let mut it = keep.iter();
        parts
            .fields
            .to_mut()
            .retain(|_| *it.next().unwrap_or(&true));
        before - parts.fields.len()
    }

    /// The recorded wire order (empty when canonical).
    pub(crate) fn order(&self) -> &[u32] {
        self.parts().map_or(&[], |p| &p.order)
    }

    /// Copies borrowed content out of the input.
    ///
    /// ```
    /// # use agui_wire::Extra;
    /// let e: Extra<'static> = Extra::default().into_owned();
    /// ```
    pub fn into_owned(self) -> Extra<'static> {
        match self.parts() {
            None => Extra::default(),
            Some(p) => Extra::from_parts(
                p.fields.clone().map(Field::into_owned),
                p.order.clone().map(|x| x),
            ),
        }
    }
}

impl PartialEq for Extra<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.fields() == other.fields()
    }
}

impl fmt::Debug for Extra<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.fields(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescape_all() {
        let s = Str::from_raw(r#"\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00x"#).unwrap();
        assert_eq!(s.unescaped(), "\"\\/\u{8}\u{c}\n\r\tAé😀x");
        assert!(s.eq_text("\"\\/\u{8}\u{c}\n\r\tAé😀x"));
        assert!(!s.eq_text("\"\\/"));
        let arena = Bump::new();
        assert_eq!(s.in_arena(&arena), "\"\\/\u{8}\u{c}\n\r\tAé😀x");
    }

    #[test]
    fn from_raw_error_offsets_stay_inside() {
        // Found by fuzz/str_escape: a trailing backslash escaped the added closing quote and
        // the error pointed one byte past the raw text.
        // (A `\u` with fewer than four digits before the text's end is an invalid escape: the
        // closing quote is there, and it is not a hex digit.)
        for (raw, kind) in [
            ("\\", ErrorKind::UnexpectedEof),
            ("ab\\", ErrorKind::UnexpectedEof),
            ("\\u12", ErrorKind::InvalidEscape),
        ] {
            let e = Str::from_raw(raw).unwrap_err();
            assert!(e.offset() <= raw.len(), "{raw:?}: {e}");
            assert_eq!(e.kind(), &kind, "{raw:?}");
        }
        assert_eq!(Str::from_raw("\\").unwrap_err().offset(), 1);
        assert_eq!(Str::from_raw("a\\q").unwrap_err().offset(), 1);
    }

    #[test]
    fn escape_round_trip() {
        let text = "a\"b\\c\n\u{1}\u{1f}é";
        let s = Str::new(text);
        assert_eq!(s.raw(), r#"a\"b\\c\n\u0001\u001fé"#);
        assert_eq!(s.unescaped(), text);
        assert!(Str::from_raw(s.raw()).is_ok());
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
