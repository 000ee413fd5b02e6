//! [`Base64`]: a zero-copy view over base64 text inside a JSON string, and its errors.
//!
//! See the [module documentation](super) for which forms are accepted and why.

use std::fmt;
use std::io;

use bumpalo::Bump;

use super::engine::{self, Engine, Fault, FaultKind, Pos};
use super::escape;
use super::reader::{Base64Reader, Chunks};
use super::simd::Kernel;
use super::sniff::{self, MediaType};

/// Which base64 texts are accepted.
///
/// ```
/// use agui_wire::media::{Base64, Base64Mode};
///
/// let sloppy = Base64::from_str("aGVs\nbG8");
/// assert!(sloppy.validate().is_err()); // Strict by default
/// let ok = sloppy.with_mode(Base64Mode::Forgiving).decode_to_vec().unwrap();
/// assert_eq!(ok, b"hello");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Base64Mode {
    /// RFC 4648 §4 in canonical form, what every real producer of AG-UI media emits:
    /// standard alphabet, `=` padding to a multiple of 4, no whitespace, zero bits in the
    /// unused low bits of the last character. The same set the `base64` crate's `STANDARD`
    /// engine accepts.
    #[default]
    Strict,
    /// WHATWG forgiving-base64, what `atob()` and `data:` URLs in browsers accept: ASCII
    /// whitespace (TAB, LF, FF, CR, SPACE) anywhere is skipped, padding is optional (but if
    /// present must be complete), and the unused low bits are ignored.
    Forgiving,
}

/// What is wrong with a base64 payload; see [`Base64Error`].
///
/// ```
/// use agui_wire::media::{Base64, Base64ErrorKind};
///
/// let err = Base64::from_str("ab-_").validate().unwrap_err();
/// assert_eq!(err.kind(), Base64ErrorKind::UrlSafeChar('-'));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Base64ErrorKind {
    /// A character that has no place in base64 text.
    InvalidChar(char),
    /// A byte that is not valid UTF-8 (only possible when the view was built from bytes that
    /// did not come from a validated JSON string).
    InvalidByte(u8),
    /// `-` or `_`: the text uses the URL-safe alphabet (RFC 4648 §5).
    UrlSafeChar(char),
    /// Whitespace, which [`Base64Mode::Strict`] forbids.
    Whitespace(char),
    /// A `=` where padding cannot be: at the start of a 4-character group, after a single
    /// character, or in the middle of the text.
    MisplacedPadding,
    /// Something other than whitespace after the final padding (often two base64 strings
    /// joined together).
    DataAfterPadding,
    /// The text ends in `xx=`: one `=` is missing.
    IncompletePadding,
    /// [`Base64Mode::Strict`]: the text ends inside a 4-character group without `=` padding.
    MissingPadding,
    /// The last group has a single character, which cannot encode a byte: the text was cut.
    ImpossibleLength,
    /// [`Base64Mode::Strict`]: the unused low bits of the last character are not zero, so the
    /// text is not the canonical encoding of any bytes.
    NonZeroTrailingBits,
    /// A malformed JSON escape (only when the view was built with `escaped == true`).
    BadEscape,
    /// The output buffer is too small.
    OutputTooSmall {
        /// How many bytes the payload decodes to.
        needed: usize,
        /// How many bytes the buffer holds.
        available: usize,
    },
}

/// A base64 error: its kind and where it is.
///
/// [`offset`](Base64Error::offset) counts raw bytes from the start of the payload (the JSON
/// string content, or the data URL); [`doc_offset`](Base64Error::doc_offset) adds the
/// payload's offset in the whole document, as given to [`Base64::new`]. For an escaped
/// character the offset is that of its backslash.
///
/// ```
/// use agui_wire::media::{Base64, Base64ErrorKind};
///
/// // The raw JSON string content starts at byte 100 of the document.
/// let err = Base64::new(b"QUJD!A==", false, 100).validate().unwrap_err();
/// assert_eq!(err.kind(), Base64ErrorKind::InvalidChar('!'));
/// assert_eq!((err.offset(), err.doc_offset()), (4, 104));
/// assert!(err.to_string().contains("'!'"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Base64Error {
    kind: Base64ErrorKind,
    offset: usize,
    doc_offset: usize,
}

impl Base64Error {
    /// What is wrong.
    ///
    /// ```
    /// use agui_wire::media::{Base64, Base64ErrorKind};
    /// let e = Base64::from_str("QQ").validate().unwrap_err();
    /// assert_eq!(e.kind(), Base64ErrorKind::MissingPadding);
    /// ```
    pub fn kind(&self) -> Base64ErrorKind {
        self.kind
    }

    /// Offset of the offending byte from the start of the payload (for errors about the end
    /// of the text, the payload length; for [`Base64ErrorKind::OutputTooSmall`], 0).
    ///
    /// ```
    /// use agui_wire::media::Base64;
    /// assert_eq!(Base64::from_str("QQ").validate().unwrap_err().offset(), 2);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The same position as an offset in the whole document.
    ///
    /// ```
    /// use agui_wire::media::Base64;
    /// let e = Base64::new(b"QQ", false, 10).validate().unwrap_err();
    /// assert_eq!(e.doc_offset(), 12);
    /// ```
    pub fn doc_offset(&self) -> usize {
        self.doc_offset
    }
}

fn char_name(c: char) -> String {
    match c {
        '\t' => "tab (U+0009)".into(),
        '\n' => "line feed (U+000A)".into(),
        '\u{c}' => "form feed (U+000C)".into(),
        '\r' => "carriage return (U+000D)".into(),
        ' ' => "space (U+0020)".into(),
        c => format!("{c:?} (U+{:04X})", u32::from(c)),
    }
}

impl fmt::Display for Base64ErrorKind {
    /// What is wrong and what to do about it, without the position.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Base64ErrorKind as K;
        match *self {
            K::InvalidChar(c) => write!(
                f,
                "invalid base64 character {}; only A-Z, a-z, 0-9, '+', '/' and final '=' padding are allowed",
                char_name(c)
            )?,
            K::InvalidByte(b) => write!(f, "invalid base64 byte 0x{b:02X} (not UTF-8 text)")?,
            K::UrlSafeChar(c) => write!(
                f,
                "URL-safe base64 character {c:?}: the payload uses the URL-safe alphabet ('-' and '_', RFC 4648 section 5) \
                 but media data must use the standard one ('+' and '/'); encode it with e.g. Python base64.b64encode, \
                 not urlsafe_b64encode"
            )?,
            K::Whitespace(c) => write!(
                f,
                "{} inside base64 text, which strict mode forbids; encode without line breaks \
                 (not MIME-style, e.g. not Python base64.encodebytes) or decode with Base64Mode::Forgiving",
                char_name(c)
            )?,
            K::MisplacedPadding => f.write_str(
                "'=' padding where it cannot be: padding may only end the text, after 2 or 3 characters of the last 4-character group",
            )?,
            K::DataAfterPadding => f.write_str(
                "data after the final '=' padding: the text must end there (were two base64 strings joined?)",
            )?,
            K::IncompletePadding => f.write_str(
                "incomplete padding: the text ends with a single '=' where two are needed",
            )?,
            K::MissingPadding => f.write_str(
                "base64 text ends without its '=' padding (its length is not a multiple of 4); \
                 add the padding or decode with Base64Mode::Forgiving",
            )?,
            K::ImpossibleLength => f.write_str(
                "truncated base64: the last 4-character group has a single character, which cannot encode a byte \
                 (the text was probably cut off)",
            )?,
            K::NonZeroTrailingBits => f.write_str(
                "non-canonical base64: the unused low bits of the last character before the padding are not zero \
                 (the text was probably altered or cut)",
            )?,
            K::BadEscape => f.write_str("malformed JSON escape in the string")?,
            K::OutputTooSmall { needed, available } => write!(
                f,
                "output buffer too small: the base64 payload decodes to {needed} bytes but the buffer holds {available}"
            )?,
        }
        Ok(())
    }
}

impl fmt::Display for Base64Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if matches!(self.kind, Base64ErrorKind::OutputTooSmall { .. }) {
            return Ok(());
        }
        write!(
            f,
            " at byte {} of the payload (document offset {})",
            self.offset, self.doc_offset
        )
    }
}

impl std::error::Error for Base64Error {}

impl From<Base64Error> for io::Error {
    /// Wraps the error as [`io::ErrorKind::InvalidData`] (or
    /// [`io::ErrorKind::WriteZero`] for a too small buffer).
    ///
    /// ```
    /// use agui_wire::media::Base64;
    /// let e: std::io::Error = Base64::from_str("*").validate().unwrap_err().into();
    /// assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
    /// ```
    fn from(e: Base64Error) -> io::Error {
        let kind = match e.kind {
            Base64ErrorKind::OutputTooSmall { .. } => io::ErrorKind::WriteZero,
            _ => io::ErrorKind::InvalidData,
        };
        io::Error::new(kind, e)
    }
}

/// The character at `raw[at..]`, or the byte when it does not start valid UTF-8.
fn char_at(raw: &[u8], at: usize) -> Result<char, u8> {
    let Some(&b) = raw.get(at) else {
        return Err(0);
    };
    if b < 0x80 {
        return Ok(char::from(b));
    }
    let len = match b {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return Err(b),
    };
    raw.get(at..at + len)
        .and_then(|s| std::str::from_utf8(s).ok())
        .and_then(|s| s.chars().next())
        .ok_or(b)
}

/// A zero-copy view over base64 text: the raw content of a JSON string.
///
/// Nothing is decoded or checked until asked; the text is never copied (escaped text goes
/// through a small stack buffer, a few KiB at a time). `Base64` is `Copy`: pass it around
/// freely.
///
/// ```
/// use agui_wire::media::Base64;
///
/// // The bytes between the quotes of `"data":"aGVsbG8="`, starting at byte 8 of the document.
/// let b64 = Base64::new(b"aGVsbG8=", false, 8);
/// assert_eq!(b64.decoded_len().unwrap(), 5);
/// let mut buf = [0u8; 16];
/// let n = b64.decode_into(&mut buf).unwrap();
/// assert_eq!(&buf[..n], b"hello");
///
/// // A PHP encoder escapes '/' as '\/'.
/// let php = Base64::new(br"P\/8=", true, 0);
/// assert_eq!(php.decode_to_vec().unwrap(), [0x3F, 0xFF]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Base64<'a> {
    pub(super) raw: &'a [u8],
    pub(super) escaped: bool,
    pub(super) doc_offset: usize,
    pub(super) base: usize,
    pub(super) mode: Base64Mode,
    pub(super) kernel: Kernel,
}

impl<'a> Base64<'a> {
    /// A view over `raw`, the content of a JSON string (the bytes between the quotes).
    ///
    /// `escaped` says whether `raw` may contain JSON escapes (`\/`, `\u0041`, ...), which are
    /// then read as the characters they stand for; when false a backslash is simply an
    /// invalid character. `doc_offset` is the offset of `raw[0]` in the whole document, used
    /// only in error positions.
    ///
    /// ```
    /// use agui_wire::media::Base64;
    /// let b = Base64::new(br"\u0041A==", true, 0);
    /// assert_eq!(b.decode_to_vec().unwrap(), [0x00]);
    /// ```
    pub const fn new(raw: &'a [u8], escaped: bool, doc_offset: usize) -> Self {
        Base64 {
            raw,
            escaped,
            doc_offset,
            base: 0,
            mode: Base64Mode::Strict,
            kernel: Kernel::Auto,
        }
    }

    /// A view over plain base64 text (no JSON escapes), at document offset 0.
    ///
    /// ```
    /// use agui_wire::media::Base64;
    /// assert_eq!(Base64::from_str("AQID").decode_to_vec().unwrap(), [1, 2, 3]);
    /// ```
    #[allow(clippy::should_implement_trait)] // borrows its input, which `FromStr` cannot
    pub const fn from_str(text: &'a str) -> Self {
        Base64::new(text.as_bytes(), false, 0)
    }

    /// Makes error offsets count from `base` bytes before `raw[0]` (a view into a larger
    /// payload, e.g. a data URL or a chunk).
    pub(crate) const fn with_base(mut self, base: usize) -> Self {
        self.base = base;
        self
    }

    /// The same view read in another [`Base64Mode`].
    ///
    /// ```
    /// use agui_wire::media::{Base64, Base64Mode};
    /// let b = Base64::from_str("QQ").with_mode(Base64Mode::Forgiving);
    /// assert_eq!(b.decode_to_vec().unwrap(), b"A");
    /// ```
    pub const fn with_mode(mut self, mode: Base64Mode) -> Self {
        self.mode = mode;
        self
    }

    /// The same view decoded by a given [`Kernel`] (default [`Kernel::Auto`]).
    ///
    /// ```
    /// use agui_wire::media::{Base64, Kernel};
    /// let b = Base64::from_str("AQID").with_kernel(Kernel::Scalar);
    /// assert_eq!(b.kernel(), Kernel::Scalar);
    /// assert_eq!(b.decode_to_vec().unwrap(), [1, 2, 3]);
    /// ```
    pub const fn with_kernel(mut self, kernel: Kernel) -> Self {
        self.kernel = kernel;
        self
    }

    /// The raw text, as given.
    ///
    /// ```
    /// assert_eq!(agui_wire::media::Base64::from_str("QQ==").raw(), b"QQ==");
    /// ```
    pub const fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// Whether the text is read as JSON string content with escapes.
    ///
    /// ```
    /// assert!(!agui_wire::media::Base64::from_str("QQ==").is_escaped());
    /// ```
    pub const fn is_escaped(&self) -> bool {
        self.escaped
    }

    /// Offset of the text in the whole document.
    ///
    /// ```
    /// assert_eq!(agui_wire::media::Base64::new(b"", false, 7).doc_offset(), 7);
    /// ```
    pub const fn doc_offset(&self) -> usize {
        self.doc_offset
    }

    /// The mode the text is read in.
    ///
    /// ```
    /// use agui_wire::media::{Base64, Base64Mode};
    /// assert_eq!(Base64::from_str("").mode(), Base64Mode::Strict);
    /// ```
    pub const fn mode(&self) -> Base64Mode {
        self.mode
    }

    /// The kernel asked for (see [`Base64::with_kernel`]).
    ///
    /// ```
    /// use agui_wire::media::{Base64, Kernel};
    /// assert_eq!(Base64::from_str("").kernel(), Kernel::Auto);
    /// ```
    pub const fn kernel(&self) -> Kernel {
        self.kernel
    }

    fn strict(&self) -> bool {
        matches!(self.mode, Base64Mode::Strict)
    }

    /// Unescaped text read strictly: lengths are known from the text length alone.
    pub(super) fn is_plain_strict(&self) -> bool {
        !self.escaped && self.strict()
    }

    pub(super) fn at(&self, kind: Base64ErrorKind, raw_at: usize) -> Base64Error {
        Base64Error {
            kind,
            offset: self.base.saturating_add(raw_at),
            doc_offset: self.doc_offset.saturating_add(raw_at),
        }
    }

    /// Turns an engine fault into a public error with raw offsets and the character.
    pub(super) fn error(&self, f: Fault) -> Base64Error {
        let (raw_at, esc) = match f.at {
            Pos::Raw(r) => (r, None),
            Pos::Logical(l) if self.escaped => {
                let loc = escape::locate(self.raw, l);
                (loc.raw, loc.escaped)
            }
            Pos::Logical(l) => (l.min(self.raw.len()), None),
        };
        let ch = || esc.map_or_else(|| char_at(self.raw, raw_at), Ok);
        use Base64ErrorKind as K;
        let kind = match f.kind {
            FaultKind::Invalid => match ch() {
                Ok(c) => K::InvalidChar(c),
                Err(b) => K::InvalidByte(b),
            },
            FaultKind::UrlSafe => K::UrlSafeChar(ch().unwrap_or('-')),
            FaultKind::Whitespace => K::Whitespace(ch().unwrap_or(' ')),
            FaultKind::MisplacedPadding => K::MisplacedPadding,
            FaultKind::DataAfterPadding => K::DataAfterPadding,
            FaultKind::IncompletePadding => K::IncompletePadding,
            FaultKind::MissingPadding => K::MissingPadding,
            FaultKind::ImpossibleLength => K::ImpossibleLength,
            FaultKind::TrailingBits => K::NonZeroTrailingBits,
            FaultKind::BadEscape => K::BadEscape,
            FaultKind::NoRoom => K::OutputTooSmall {
                needed: 0,
                available: 0,
            },
        };
        self.at(kind, raw_at)
    }

    /// Validates and counts in one pass.
    fn measure(&self) -> Result<usize, Base64Error> {
        let k = self.kernel.resolve();
        engine::run::<false>(self.strict(), k, self.raw, self.escaped, &mut [])
            .map_err(|f| self.error(f))
    }

    /// The error for an output buffer of `available` bytes that turned out too small: the
    /// first error of the text if it is invalid, else `OutputTooSmall`.
    fn too_small(&self, available: usize) -> Base64Error {
        match self.measure() {
            Ok(needed) => Base64Error {
                kind: Base64ErrorKind::OutputTooSmall { needed, available },
                offset: self.base,
                doc_offset: self.doc_offset,
            },
            Err(e) => e,
        }
    }

    /// Exact length for allocating: the decoded length, or the first error of the text.
    fn alloc_len(&self) -> Result<usize, Base64Error> {
        if self.is_plain_strict() {
            self.decoded_len()
                .map_err(|e| self.validate().err().unwrap_or(e))
        } else {
            self.measure()
        }
    }

    /// The number of bytes the text decodes to, if it is valid.
    ///
    /// For unescaped text in [`Base64Mode::Strict`] this is O(1), from the length and the
    /// padding; it fails only when the length alone shows the text is invalid, and does not
    /// look at the other characters (use [`Base64::validate`] for that). Otherwise (escapes
    /// or [`Base64Mode::Forgiving`], where whitespace and escapes change the count) it takes
    /// one validating pass, at validation speed, and an `Ok` means the text is valid.
    ///
    /// ```
    /// use agui_wire::media::{Base64, Base64Mode};
    /// assert_eq!(Base64::from_str("aGVsbG8=").decoded_len().unwrap(), 5);
    /// assert_eq!(Base64::from_str("").decoded_len().unwrap(), 0);
    /// assert!(Base64::from_str("aGVsbG8").decoded_len().is_err());
    /// let f = Base64::from_str("aGVs\nbG8").with_mode(Base64Mode::Forgiving);
    /// assert_eq!(f.decoded_len().unwrap(), 5);
    /// ```
    pub fn decoded_len(&self) -> Result<usize, Base64Error> {
        if !self.is_plain_strict() {
            return self.measure();
        }
        let raw = self.raw;
        let len = raw.len();
        match len % 4 {
            0 => {
                let pads = match raw {
                    [.., b'=', b'='] => 2,
                    [.., b'='] => 1,
                    _ => 0,
                };
                Ok(len / 4 * 3 - pads)
            }
            1 => Err(self.at(Base64ErrorKind::ImpossibleLength, len - 1)),
            _ if raw.last() == Some(&b'=') => Err(self.at(Base64ErrorKind::IncompletePadding, len)),
            _ => Err(self.at(Base64ErrorKind::MissingPadding, len)),
        }
    }

    /// Checks the whole text without decoding it (faster than decoding).
    ///
    /// The error is the first one in the text.
    ///
    /// ```
    /// use agui_wire::media::{Base64, Base64ErrorKind};
    /// assert!(Base64::from_str("aGVsbG8=").validate().is_ok());
    /// let e = Base64::from_str("aGVs=G8=").validate().unwrap_err();
    /// assert_eq!((e.kind(), e.offset()), (Base64ErrorKind::MisplacedPadding, 4));
    /// ```
    pub fn validate(&self) -> Result<(), Base64Error> {
        self.measure().map(drop)
    }

    /// Decodes the whole text into `out` and returns the number of bytes written.
    ///
    /// Fails with [`Base64ErrorKind::OutputTooSmall`] (saying how many bytes are needed) when
    /// `out` is too small for a valid text; on any error the content of `out` is unspecified.
    ///
    /// ```
    /// use agui_wire::media::{Base64, Base64ErrorKind};
    /// let b = Base64::from_str("aGVsbG8=");
    /// let mut small = [0u8; 4];
    /// let e = b.decode_into(&mut small).unwrap_err();
    /// assert_eq!(e.kind(), Base64ErrorKind::OutputTooSmall { needed: 5, available: 4 });
    /// let mut buf = [0u8; 5];
    /// assert_eq!(b.decode_into(&mut buf).unwrap(), 5);
    /// assert_eq!(&buf, b"hello");
    /// ```
    pub fn decode_into(&self, out: &mut [u8]) -> Result<usize, Base64Error> {
        if self.is_plain_strict()
            && let Ok(n) = self.decoded_len()
            && n > out.len()
        {
            return Err(self.too_small(out.len()));
        }
        let k = self.kernel.resolve();
        match engine::run::<true>(self.strict(), k, self.raw, self.escaped, out) {
            Ok(n) => Ok(n),
            Err(f) if f.kind == FaultKind::NoRoom => Err(self.too_small(out.len())),
            Err(f) => Err(self.error(f)),
        }
    }

    /// Decodes into memory from a bump arena, allocated at the exact size.
    ///
    /// ```
    /// use agui_wire::media::Base64;
    /// let arena = bumpalo::Bump::new();
    /// let bytes = Base64::from_str("aGVsbG8=").decode_in(&arena).unwrap();
    /// assert_eq!(bytes, b"hello");
    /// ```
    pub fn decode_in<'b>(&self, arena: &'b Bump) -> Result<&'b [u8], Base64Error> {
        let n = self.alloc_len()?;
        let buf: &'b mut [u8] = arena.alloc_slice_fill_copy(n, 0u8);
        let w = self.decode_into(buf)?;
        let (done, _) = buf.split_at(w.min(n));
        Ok(done)
    }

    /// Decodes into a new `Vec`, allocated at the exact size.
    ///
    /// ```
    /// use agui_wire::media::Base64;
    /// assert_eq!(Base64::from_str("aGVsbG8=").decode_to_vec().unwrap(), b"hello");
    /// ```
    pub fn decode_to_vec(&self) -> Result<Vec<u8>, Base64Error> {
        let n = self.alloc_len()?;
        let mut v = vec![0u8; n];
        let w = self.decode_into(&mut v)?;
        v.truncate(w);
        Ok(v)
    }

    /// Decodes only the beginning of the payload: up to `out.len()` bytes. Only the text
    /// needed for those bytes is read and checked.
    ///
    /// ```
    /// use agui_wire::media::Base64;
    /// // 'iVBORw0KGgo' is the PNG signature; the rest is not even looked at.
    /// let b = Base64::from_str("iVBORw0KGgoAAAANSUhEUg!!!!");
    /// let mut head = [0u8; 8];
    /// assert_eq!(b.decode_prefix(&mut head).unwrap(), 8);
    /// assert_eq!(&head, b"\x89PNG\r\n\x1a\n");
    /// ```
    pub fn decode_prefix(&self, out: &mut [u8]) -> Result<usize, Base64Error> {
        let mut r = self.reader();
        let mut n = 0;
        while let Some(rest) = out.get_mut(n..) {
            if rest.is_empty() {
                break;
            }
            match r.fill(rest)? {
                0 => break,
                k => n += k,
            }
        }
        Ok(n)
    }

    /// Guesses the media type from the first decoded bytes (see [`super::sniff()`]), decoding
    /// only the first 64 bytes. `None` when unknown or when that part is not valid base64.
    ///
    /// ```
    /// use agui_wire::media::{Base64, MediaType};
    /// let png = Base64::from_str("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");
    /// assert_eq!(png.sniff(), Some(MediaType::Png));
    /// ```
    pub fn sniff(&self) -> Option<MediaType> {
        let mut head = [0u8; 64];
        let n = self.decode_prefix(&mut head).ok()?;
        sniff::sniff(head.get(..n)?)
    }

    /// A streaming decoder over this text, for piping a large payload through a small
    /// buffer: implements [`io::Read`] and the lending [`Base64Reader::next_into`].
    ///
    /// ```
    /// use std::io::Read;
    /// use agui_wire::media::Base64;
    ///
    /// let mut r = Base64::from_str("aGVsbG8gd29ybGQ=").reader();
    /// let mut out = Vec::new();
    /// let mut buf = [0u8; 4];
    /// loop {
    ///     let n = r.read(&mut buf).unwrap();
    ///     if n == 0 { break; }
    ///     out.extend_from_slice(&buf[..n]);
    /// }
    /// assert_eq!(out, b"hello world");
    /// ```
    pub fn reader(&self) -> Base64Reader<'a> {
        Base64Reader::new(
            *self,
            Engine::new(self.strict(), self.kernel.resolve()).lazy(),
        )
    }

    /// Splits the text into sub-views that each decode to at most `max_decoded` bytes
    /// (rounded down to a multiple of 3, at least 3), cut on 4-character boundaries of the
    /// logical text. Decoding the chunks one after the other gives the bytes (and the first
    /// error) of decoding the whole; error offsets still count from the start of the whole
    /// payload.
    ///
    /// Finding the cuts is O(1) per chunk for unescaped strict text and a light scan
    /// otherwise. When the text is invalid a chunk can be longer than asked (the rest of the
    /// text), in which case decoding it into a small buffer reports the real error.
    ///
    /// ```
    /// use agui_wire::media::Base64;
    ///
    /// let b = Base64::from_str("aGVsbG8gd29ybGQ=");
    /// let mut buf = [0u8; 6];
    /// let mut out = Vec::new();
    /// for chunk in b.chunks(buf.len()) {
    ///     let n = chunk.decode_into(&mut buf).unwrap();
    ///     out.extend_from_slice(&buf[..n]);
    /// }
    /// assert_eq!(out, b"hello world");
    /// ```
    pub fn chunks(&self, max_decoded: usize) -> Chunks<'a> {
        Chunks::new(*self, (max_decoded / 3).max(1).saturating_mul(4))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_chars_resolved() {
        let e = Base64::new("QUJD\u{e9}A==".as_bytes(), false, 0)
            .validate()
            .unwrap_err();
        assert_eq!(e.kind(), Base64ErrorKind::InvalidChar('\u{e9}'));
        assert_eq!(e.offset(), 4);
        let e = Base64::new(b"QUJD\xffA==", false, 0)
            .validate()
            .unwrap_err();
        assert_eq!(e.kind(), Base64ErrorKind::InvalidByte(0xFF));
        let e = Base64::new(br"QUJD\u00e9A==", true, 50)
            .validate()
            .unwrap_err();
        assert_eq!(e.kind(), Base64ErrorKind::InvalidChar('\u{e9}'));
        assert_eq!((e.offset(), e.doc_offset()), (4, 54));
        let e = Base64::new(br"QU\nJD", true, 0).validate().unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (Base64ErrorKind::Whitespace('\n'), 2)
        );
        let e = Base64::new(br"QU\qJD", true, 0).validate().unwrap_err();
        assert_eq!((e.kind(), e.offset()), (Base64ErrorKind::BadEscape, 2));
    }

    #[test]
    fn messages_are_actionable() {
        let msg = |s: &str| Base64::from_str(s).validate().unwrap_err().to_string();
        assert!(msg("ab_d").contains("URL-safe"), "{}", msg("ab_d"));
        assert!(msg("ab\ncd==").contains("line feed"));
        assert!(msg("ab\ncd==").contains("Forgiving"));
        assert!(msg("QQ").contains("padding"));
        let small = Base64::from_str("QUJD")
            .decode_into(&mut [0u8; 2])
            .unwrap_err();
        assert_eq!(
            small.to_string(),
            "output buffer too small: the base64 payload decodes to 3 bytes but the buffer holds 2"
        );
    }

    #[test]
    fn too_small_prefers_real_error() {
        let e = Base64::from_str("QUJD!UJD")
            .decode_into(&mut [0u8; 2])
            .unwrap_err();
        assert_eq!(e.kind(), Base64ErrorKind::InvalidChar('!'));
        let f = Base64::from_str("QU JD QQ").with_mode(Base64Mode::Forgiving);
        let e = f.decode_into(&mut [0u8; 3]).unwrap_err();
        assert_eq!(
            e.kind(),
            Base64ErrorKind::OutputTooSmall {
                needed: 4,
                available: 3
            }
        );
    }
}
