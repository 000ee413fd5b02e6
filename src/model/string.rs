//! [`Str`]: a JSON string as it appears on the wire, unescaped on demand; and the escaping
//! that writes text back as string content.

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
}
