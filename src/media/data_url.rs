//! `data:` URLs (RFC 2397, as browsers read them per the WHATWG Fetch standard), without
//! copying.
//!
//! `data:[<mediatype>][;base64],<data>` where mediatype is `type/subtype` followed by
//! `;name=value` parameters. What [`DataUrl::parse`] accepts, following the WHATWG data URL
//! processor: the scheme in any case; leading and trailing ASCII whitespace around the URL;
//! `;base64` in any case, with spaces before `base64`; an empty media type meaning
//! `text/plain;charset=US-ASCII`, and a media type that starts with `;` meaning
//! `text/plain` with those parameters; a media type without `/` is replaced by the default.
//!
//! The payload is handed out as a view: a [`Base64`] view when `;base64` is present (read
//! [`Base64Mode::Strict`](super::Base64Mode::Strict) by default, like every producer of data
//! URLs writes them: `FileReader.readAsDataURL`, `canvas.toDataURL`, Python's
//! `base64.b64encode`), or a [`PercentDecoded`] view otherwise. One difference from browsers:
//! a base64 payload is not percent-decoded first (no producer percent-encodes base64, and
//! doing it would cost a copy); a `%` in it is reported as an invalid character.

use bumpalo::Bump;
use std::fmt;

use super::base64::{Base64, Base64Error, Base64ErrorKind};
use super::escape::{self, LogicalBytes};
use super::sniff::{self, MediaType};

/// What is wrong with a data URL or its payload; see [`DataUrlError`].
///
/// ```
/// use agui_wire::media::{DataUrl, DataUrlErrorKind};
/// let e = DataUrl::parse("data:image/png;base64").unwrap_err();
/// assert_eq!(e.kind(), DataUrlErrorKind::MissingComma);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DataUrlErrorKind {
    /// The text does not start with `data:`.
    NotDataUrl,
    /// No `,` separates the media type from the data.
    MissingComma,
    /// The text before the `,` is not UTF-8.
    NotUtf8,
    /// An escaped header (see [`DataUrl::parse_json`]) longer than 4096 bytes.
    HeaderTooLong,
    /// A malformed JSON escape.
    BadEscape,
    /// The output buffer is too small.
    OutputTooSmall {
        /// How many bytes the payload decodes to.
        needed: usize,
        /// How many bytes the buffer holds.
        available: usize,
    },
    /// The base64 payload is invalid.
    Base64(Base64ErrorKind),
}

/// An error in a data URL, with the offset from the start of the URL text and in the whole
/// document.
///
/// ```
/// use agui_wire::media::{DataUrl, DataUrlErrorKind, Base64ErrorKind};
/// let url = DataUrl::parse("data:image/png;base64,iVBO!w0K").unwrap();
/// let e = url.decoded().to_vec().unwrap_err();
/// assert_eq!(e.kind(), DataUrlErrorKind::Base64(Base64ErrorKind::InvalidChar('!')));
/// assert_eq!(e.offset(), 26);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DataUrlError {
    kind: DataUrlErrorKind,
    offset: usize,
    doc_offset: usize,
}

impl DataUrlError {
    /// What is wrong.
    ///
    /// ```
    /// use agui_wire::media::{DataUrl, DataUrlErrorKind};
    /// assert_eq!(DataUrl::parse("http://x").unwrap_err().kind(), DataUrlErrorKind::NotDataUrl);
    /// ```
    pub fn kind(&self) -> DataUrlErrorKind {
        self.kind
    }

    /// Offset from the start of the URL text (the JSON string content).
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// assert_eq!(DataUrl::parse("data:text/plain").unwrap_err().offset(), 15);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Offset in the whole document.
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// let arena = bumpalo::Bump::new();
    /// let e = DataUrl::parse_json(b"data:x", false, 40, &arena).unwrap_err();
    /// assert_eq!(e.doc_offset(), 46);
    /// ```
    pub fn doc_offset(&self) -> usize {
        self.doc_offset
    }
}

impl From<Base64Error> for DataUrlError {
    /// Keeps the kind and the offsets (which count from the start of the URL when the
    /// error came from [`DataUrl::decoded`]).
    ///
    /// ```
    /// use agui_wire::media::{Base64, DataUrlError};
    /// let e: DataUrlError = Base64::from_str("*").validate().unwrap_err().into();
    /// assert_eq!(e.offset(), 0);
    /// ```
    fn from(e: Base64Error) -> Self {
        let kind = match e.kind() {
            Base64ErrorKind::OutputTooSmall { needed, available } => {
                DataUrlErrorKind::OutputTooSmall { needed, available }
            }
            Base64ErrorKind::BadEscape => DataUrlErrorKind::BadEscape,
            k => DataUrlErrorKind::Base64(k),
        };
        DataUrlError {
            kind,
            offset: e.offset(),
            doc_offset: e.doc_offset(),
        }
    }
}

impl fmt::Display for DataUrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DataUrlErrorKind as K;
        match self.kind {
            K::NotDataUrl => f.write_str("not a data URL: it must start with \"data:\"")?,
            K::MissingComma => {
                f.write_str("data URL without ',' between the media type and the data")?
            }
            K::NotUtf8 => f.write_str("data URL media type is not UTF-8 text")?,
            K::HeaderTooLong => {
                f.write_str("data URL media type longer than 4096 bytes (or missing ',' after it)")?
            }
            K::BadEscape => f.write_str("malformed JSON escape in the data URL")?,
            K::OutputTooSmall { needed, available } => {
                return write!(
                    f,
                    "output buffer too small: the data URL payload decodes to {needed} bytes but the buffer holds {available}"
                );
            }
            K::Base64(kind) => {
                // Reuse the base64 wording, then say where in the URL.
                write!(f, "in the base64 data of a data URL: {kind}")?
            }
        }
        write!(
            f,
            " at byte {} of the URL (document offset {})",
            self.offset, self.doc_offset
        )
    }
}

impl std::error::Error for DataUrlError {}

/// A parsed `data:` URL, borrowing the text it was parsed from.
///
/// ```
/// use agui_wire::media::{DataUrl, MediaType};
///
/// let url = DataUrl::parse("data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==").unwrap();
/// assert_eq!(url.mime_type(), "image/png");
/// assert!(url.is_base64());
/// assert_eq!(url.payload(), b"iVBORw0KGgoAAAANSUhEUg==");
/// assert_eq!(url.decoded().decoded_len().unwrap(), 16);
/// assert_eq!(url.sniff(), Some(MediaType::Png));
///
/// let text = DataUrl::parse("data:,Hello%2C%20World!").unwrap();
/// assert_eq!(text.mime_type(), "text/plain");
/// assert_eq!(text.param("charset"), Some("US-ASCII"));
/// assert_eq!(text.decoded().to_vec().unwrap(), b"Hello, World!");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataUrl<'a> {
    header: &'a str,
    essence: &'a str,
    params: &'a str,
    default_params: bool,
    base64: bool,
    payload: &'a [u8],
    escaped: bool,
    payload_offset: usize,
    doc_offset: usize,
}

const DEFAULT_ESSENCE: &str = "text/plain";
const DEFAULT_PARAMS: &str = "charset=US-ASCII";
const MAX_ESCAPED_HEADER: usize = 4096;

fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

fn trim_ws(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_ascii() && is_ws(c as u8))
}

impl<'a> DataUrl<'a> {
    /// Parses a data URL given as plain text (no JSON escapes).
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// let url = DataUrl::parse("DATA:audio/wav;codec=pcm;BASE64,UklGRg==").unwrap();
    /// assert_eq!(url.mime_type(), "audio/wav");
    /// assert_eq!(url.param("codec"), Some("pcm"));
    /// assert!(url.is_base64());
    /// ```
    pub fn parse(url: &'a str) -> Result<DataUrl<'a>, DataUrlError> {
        Self::parse_plain(url, 0)
    }

    fn parse_plain(url: &'a str, doc_offset: usize) -> Result<DataUrl<'a>, DataUrlError> {
        let bytes = url.as_bytes();
        let start = bytes.iter().position(|&b| !is_ws(b)).unwrap_or(bytes.len());
        let end = bytes
            .iter()
            .rposition(|&b| !is_ws(b))
            .map_or(start, |p| p + 1);
        let err = |kind, offset| DataUrlError {
            kind,
            offset,
            doc_offset: doc_offset.saturating_add(offset),
        };
        let text = url.get(start..end).unwrap_or_default();
        if !text
            .get(..5)
            .is_some_and(|s| s.eq_ignore_ascii_case("data:"))
        {
            return Err(err(DataUrlErrorKind::NotDataUrl, start));
        }
        let Some(comma) = text.find(',') else {
            return Err(err(DataUrlErrorKind::MissingComma, end));
        };
        let header = text.get(5..comma).unwrap_or_default();
        let payload = text.get(comma + 1..).unwrap_or_default().as_bytes();
        Ok(Self::from_parts(
            header,
            payload,
            false,
            start + comma + 1,
            doc_offset,
        ))
    }

    /// Parses a data URL that is the raw content of a JSON string, like [`super::Base64::new`]:
    /// `escaped` says whether it may hold JSON escapes, `doc_offset` is its offset in the
    /// document (for errors).
    ///
    /// The payload is never copied: its escapes are read by the payload views. The media type
    /// is borrowed too, unless escapes appear before the `,` (PHP writes `image\/png`): then
    /// the unescaped header, at most 4096 bytes, is copied into `arena`.
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// let arena = bumpalo::Bump::new();
    /// let raw = br"data:image\/png;base64,iVBORw0KGgo\/AAAA";
    /// let url = DataUrl::parse_json(raw, true, 0, &arena).unwrap();
    /// assert_eq!(url.mime_type(), "image/png");
    /// assert_eq!(url.decoded().to_vec().unwrap()[..8], *b"\x89PNG\r\n\x1a\n");
    /// ```
    pub fn parse_json(
        raw: &'a [u8],
        escaped: bool,
        doc_offset: usize,
        arena: &'a Bump,
    ) -> Result<DataUrl<'a>, DataUrlError> {
        let err = |kind, offset| DataUrlError {
            kind,
            offset,
            doc_offset: doc_offset.saturating_add(offset),
        };
        let comma = raw.iter().position(|&b| b == b',');
        let head_raw = raw.get(..comma.unwrap_or(raw.len())).unwrap_or_default();
        let missing_comma = || {
            err(
                DataUrlErrorKind::MissingComma,
                trim_payload(raw, escaped).len(),
            )
        };
        if !escaped || escape::find_backslash(head_raw).is_none() {
            // No escape before the first raw comma: it is the logical comma too.
            let head = std::str::from_utf8(head_raw)
                .map_err(|e| err(DataUrlErrorKind::NotUtf8, e.valid_up_to()))?;
            let Some(comma) = comma else {
                Self::parse_head(head, 0, doc_offset)?;
                return Err(missing_comma());
            };
            let mut url = Self::parse_head(head, comma + 1, doc_offset)?;
            url.payload = trim_payload(raw.get(comma + 1..).unwrap_or_default(), escaped);
            url.escaped = escaped;
            return Ok(url);
        }
        // Escapes before the first raw comma: unescape up to the logical comma.
        let mut head = bumpalo::collections::Vec::with_capacity_in(64, arena);
        let mut payload_start = None;
        for item in LogicalBytes::new(raw, true) {
            let (b, at) = item.map_err(|at| err(DataUrlErrorKind::BadEscape, at))?;
            if b == b',' {
                let unit = match raw.get(at..) {
                    Some(r) if r.first() == Some(&b'\\') => {
                        escape::parse_escape(r).map_or(1, |(_, n)| n)
                    }
                    _ => 1,
                };
                payload_start = Some(at + unit);
                break;
            }
            if head.len() >= MAX_ESCAPED_HEADER {
                return Err(err(DataUrlErrorKind::HeaderTooLong, at));
            }
            head.push(b);
        }
        let head = match bumpalo::collections::String::from_utf8(head) {
            Ok(s) => s.into_bump_str(),
            Err(_) => return Err(err(DataUrlErrorKind::NotUtf8, 0)),
        };
        let Some(payload_start) = payload_start else {
            Self::parse_head(head, 0, doc_offset)?;
            return Err(missing_comma());
        };
        let mut url = Self::parse_head(head, payload_start, doc_offset)?;
        url.payload = trim_payload(raw.get(payload_start..).unwrap_or_default(), true);
        url.escaped = true;
        Ok(url)
    }

    /// Parses `data:<header>` (the unescaped text before the comma; the payload starts at
    /// raw offset `payload_offset`).
    fn parse_head(
        head: &'a str,
        payload_offset: usize,
        doc_offset: usize,
    ) -> Result<DataUrl<'a>, DataUrlError> {
        let trimmed = head.trim_start_matches(|c: char| c.is_ascii() && is_ws(c as u8));
        if !trimmed
            .get(..5)
            .is_some_and(|s| s.eq_ignore_ascii_case("data:"))
        {
            let offset = head.len() - trimmed.len();
            return Err(DataUrlError {
                kind: DataUrlErrorKind::NotDataUrl,
                offset,
                doc_offset: doc_offset.saturating_add(offset),
            });
        }
        let header = trimmed.get(5..).unwrap_or_default();
        Ok(Self::from_parts(
            header,
            &[],
            false,
            payload_offset,
            doc_offset,
        ))
    }

    /// Builds the URL from the text between `data:` and `,`, and the payload.
    fn from_parts(
        header: &'a str,
        payload: &'a [u8],
        escaped: bool,
        payload_offset: usize,
        doc_offset: usize,
    ) -> DataUrl<'a> {
        let mut media = trim_ws(header);
        let mut base64 = false;
        if let Some(cut) = media.len().checked_sub(6)
            && media
                .get(cut..)
                .is_some_and(|s| s.eq_ignore_ascii_case("base64"))
            && let Some(stripped) = media
                .get(..cut)
                .unwrap_or_default()
                .trim_end_matches(' ')
                .strip_suffix(';')
        {
            base64 = true;
            media = stripped;
        }
        let (essence, params) = match media.split_once(';') {
            Some((e, p)) => (trim_ws(e), p),
            None => (media, ""),
        };
        let (essence, params, default_params) = if essence.is_empty() && params.is_empty() {
            (DEFAULT_ESSENCE, DEFAULT_PARAMS, true)
        } else if essence.is_empty() {
            (DEFAULT_ESSENCE, params, false)
        } else if !valid_essence(essence) {
            (DEFAULT_ESSENCE, DEFAULT_PARAMS, true)
        } else {
            (essence, params, false)
        };
        DataUrl {
            header,
            essence,
            params,
            default_params,
            base64,
            payload,
            escaped,
            payload_offset,
            doc_offset,
        }
    }

    /// The MIME type `type/subtype` as written (`text/plain` when the URL has none or an
    /// unusable one). Compare it with `eq_ignore_ascii_case` or [`super::mime_matches`].
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// assert_eq!(DataUrl::parse("data:;charset=utf-8,x").unwrap().mime_type(), "text/plain");
    /// assert_eq!(DataUrl::parse("data:Image/PNG;base64,").unwrap().mime_type(), "Image/PNG");
    /// ```
    pub fn mime_type(&self) -> &'a str {
        self.essence
    }

    /// The text between `data:` and `,`, as written (with `;base64` if present; after
    /// unescaping for [`DataUrl::parse_json`]).
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// assert_eq!(DataUrl::parse("data:a/b;x=1;base64,").unwrap().header(), "a/b;x=1;base64");
    /// ```
    pub fn header(&self) -> &'a str {
        self.header
    }

    /// Whether the media type was omitted (or unusable) and is the RFC 2397 default
    /// `text/plain;charset=US-ASCII`.
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// assert!(DataUrl::parse("data:,x").unwrap().is_default_media_type());
    /// assert!(!DataUrl::parse("data:text/plain,x").unwrap().is_default_media_type());
    /// ```
    pub fn is_default_media_type(&self) -> bool {
        self.default_params
    }

    /// The parameters after the MIME type, as `(name, value)` pairs (quotes around a value
    /// removed; entries without `=` skipped). `charset=US-ASCII` when the media type was
    /// omitted.
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// let url = DataUrl::parse("data:text/plain;charset=utf-8;name=\"a b.txt\",x").unwrap();
    /// let p: Vec<_> = url.params().collect();
    /// assert_eq!(p, [("charset", "utf-8"), ("name", "a b.txt")]);
    /// ```
    pub fn params(&self) -> Params<'a> {
        Params { rest: self.params }
    }

    /// The value of parameter `name` (compared ignoring ASCII case), if present.
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// let url = DataUrl::parse("data:text/csv;Charset=UTF-8,a,b").unwrap();
    /// assert_eq!(url.param("charset"), Some("UTF-8"));
    /// assert_eq!(url.param("header"), None);
    /// ```
    pub fn param(&self, name: &str) -> Option<&'a str> {
        self.params()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }

    /// Whether the payload is base64 (`;base64` before the comma).
    ///
    /// ```
    /// assert!(!agui_wire::media::DataUrl::parse("data:,x").unwrap().is_base64());
    /// ```
    pub fn is_base64(&self) -> bool {
        self.base64
    }

    /// The payload as written: everything after the first `,` (trailing whitespace
    /// removed), still encoded (and still JSON-escaped, for [`DataUrl::parse_json`]).
    ///
    /// ```
    /// assert_eq!(agui_wire::media::DataUrl::parse("data:,a%20b").unwrap().payload(), b"a%20b");
    /// ```
    pub fn payload(&self) -> &'a [u8] {
        self.payload
    }

    /// Offset of the payload from the start of the URL text.
    ///
    /// ```
    /// assert_eq!(agui_wire::media::DataUrl::parse("data:,xyz").unwrap().payload_offset(), 6);
    /// ```
    pub fn payload_offset(&self) -> usize {
        self.payload_offset
    }

    /// The payload as a decoding view: [`DataPayload::Base64`] or
    /// [`DataPayload::Percent`]. Errors from either count offsets from the start of the URL.
    ///
    /// ```
    /// use agui_wire::media::{DataUrl, DataPayload, Base64Mode};
    /// let url = DataUrl::parse("data:text/plain;base64,aGVs bG8=").unwrap();
    /// let DataPayload::Base64(b64) = url.decoded() else { unreachable!() };
    /// assert!(b64.validate().is_err()); // strict by default
    /// assert_eq!(b64.with_mode(Base64Mode::Forgiving).decode_to_vec().unwrap(), b"hello");
    /// ```
    pub fn decoded(&self) -> DataPayload<'a> {
        let doc = self.doc_offset.saturating_add(self.payload_offset);
        if self.base64 {
            DataPayload::Base64(
                Base64::new(self.payload, self.escaped, doc).with_base(self.payload_offset),
            )
        } else {
            DataPayload::Percent(PercentDecoded {
                raw: self.payload,
                escaped: self.escaped,
                base: self.payload_offset,
                doc_offset: doc,
            })
        }
    }

    /// The base64 view of the payload, when the URL has `;base64`.
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// let url = DataUrl::parse("data:;base64,AAEC").unwrap();
    /// assert_eq!(url.base64().unwrap().decode_to_vec().unwrap(), [0, 1, 2]);
    /// ```
    pub fn base64(&self) -> Option<Base64<'a>> {
        match self.decoded() {
            DataPayload::Base64(b) => Some(b),
            DataPayload::Percent(_) => None,
        }
    }

    /// Guesses the media type from the first decoded bytes of the payload (see
    /// [`super::sniff()`]); decodes at most 64 bytes.
    ///
    /// ```
    /// use agui_wire::media::{DataUrl, MediaType};
    /// let url = DataUrl::parse("data:application/pdf,%25PDF-1.4").unwrap();
    /// assert_eq!(url.sniff(), Some(MediaType::Pdf));
    /// ```
    pub fn sniff(&self) -> Option<MediaType> {
        self.decoded().sniff()
    }
}

/// The payload of the plain parser is trimmed with the whole URL; do the same for the
/// raw JSON version: trailing whitespace, raw or, when `escaped`, written as a JSON escape
/// (`\n`, `\t`, `\r`, `\f`, `\u0020`, ...), which is the same whitespace once the string is
/// read (a JSON encoder must escape a final newline).
fn trim_payload(p: &[u8], escaped: bool) -> &[u8] {
    let mut end = p.len();
    loop {
        let s = p.get(..end).unwrap_or_default();
        if s.last().is_some_and(|&b| is_ws(b)) {
            end -= 1;
            continue;
        }
        if escaped {
            let n = s.len();
            if n >= 2
                && matches!(s.get(n - 1), Some(b'n' | b't' | b'r' | b'f'))
                && escape_starts_at(s, n - 2)
            {
                end -= 2;
                continue;
            }
            if n >= 6
                && s.get(n - 5) == Some(&b'u')
                && escape_starts_at(s, n - 6)
                && s.get(n - 4..)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .filter(|h| h.bytes().all(|c| c.is_ascii_hexdigit()))
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .is_some_and(is_ws)
            {
                end -= 6;
                continue;
            }
        }
        return s;
    }
}

/// Whether `s[i]` is a backslash that starts an escape (not the second half of `\\`): it is
/// preceded by an even number of backslashes.
fn escape_starts_at(s: &[u8], i: usize) -> bool {
    let before = s.get(..i).unwrap_or_default();
    let run = before.iter().rev().take_while(|&&b| b == b'\\').count();
    s.get(i) == Some(&b'\\') && run % 2 == 0
}

/// A `type/subtype` with both parts non-empty.
fn valid_essence(e: &str) -> bool {
    match e.split_once('/') {
        Some((t, s)) => !t.is_empty() && !s.is_empty() && !s.contains('/'),
        None => false,
    }
}

/// Iterator over the parameters of a [`DataUrl`]; see [`DataUrl::params`].
///
/// ```
/// use agui_wire::media::DataUrl;
/// let url = DataUrl::parse("data:a/b; x = 1 ;;y,").unwrap();
/// assert_eq!(url.params().collect::<Vec<_>>(), [("x", "1")]);
/// ```
#[derive(Clone, Debug)]
pub struct Params<'a> {
    rest: &'a str,
}

impl<'a> Iterator for Params<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<(&'a str, &'a str)> {
        while !self.rest.is_empty() {
            let (item, rest) = self.rest.split_once(';').unwrap_or((self.rest, ""));
            self.rest = rest;
            let Some((name, value)) = item.split_once('=') else {
                continue;
            };
            let name = trim_ws(name);
            let value = trim_ws(value);
            if name.is_empty() {
                continue;
            }
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(value);
            return Some((name, value));
        }
        None
    }
}

/// The decoding view of a data URL payload; see [`DataUrl::decoded`].
///
/// ```
/// use agui_wire::media::DataUrl;
/// let p = DataUrl::parse("data:,caf%C3%A9").unwrap().decoded();
/// assert_eq!(p.decoded_len().unwrap(), 5);
/// assert_eq!(p.to_vec().unwrap(), "café".as_bytes());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataPayload<'a> {
    /// `;base64` payload.
    Base64(Base64<'a>),
    /// Percent-encoded payload.
    Percent(PercentDecoded<'a>),
}

impl DataPayload<'_> {
    /// Exact decoded length (see [`Base64::decoded_len`] and [`PercentDecoded::decoded_len`]).
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// assert_eq!(DataUrl::parse("data:;base64,AAEC").unwrap().decoded().decoded_len().unwrap(), 3);
    /// ```
    pub fn decoded_len(&self) -> Result<usize, DataUrlError> {
        match self {
            DataPayload::Base64(b) => Ok(b.decoded_len()?),
            DataPayload::Percent(p) => p.decoded_len(),
        }
    }

    /// Decodes into `out`, returning the number of bytes written.
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// let mut buf = [0u8; 8];
    /// let n = DataUrl::parse("data:,a%2Fb").unwrap().decoded().decode_into(&mut buf).unwrap();
    /// assert_eq!(&buf[..n], b"a/b");
    /// ```
    pub fn decode_into(&self, out: &mut [u8]) -> Result<usize, DataUrlError> {
        match self {
            DataPayload::Base64(b) => Ok(b.decode_into(out)?),
            DataPayload::Percent(p) => p.decode_into(out),
        }
    }

    /// Decodes into a new `Vec`.
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// assert_eq!(DataUrl::parse("data:;base64,AAEC").unwrap().decoded().to_vec().unwrap(), [0, 1, 2]);
    /// ```
    pub fn to_vec(&self) -> Result<Vec<u8>, DataUrlError> {
        match self {
            DataPayload::Base64(b) => Ok(b.decode_to_vec()?),
            DataPayload::Percent(p) => p.to_vec(),
        }
    }

    /// Decodes at most `out.len()` bytes from the start of the payload.
    ///
    /// ```
    /// use agui_wire::media::DataUrl;
    /// let mut head = [0u8; 2];
    /// let p = DataUrl::parse("data:;base64,AAECAw==").unwrap().decoded();
    /// assert_eq!(p.decode_prefix(&mut head).unwrap(), 2);
    /// assert_eq!(head, [0, 1]);
    /// ```
    pub fn decode_prefix(&self, out: &mut [u8]) -> Result<usize, DataUrlError> {
        match self {
            DataPayload::Base64(b) => Ok(b.decode_prefix(out)?),
            DataPayload::Percent(p) => p.decode_prefix(out),
        }
    }

    /// Sniffs the first decoded bytes (at most 64 are decoded).
    ///
    /// ```
    /// use agui_wire::media::{DataUrl, MediaType};
    /// let p = DataUrl::parse("data:,GIF89a").unwrap().decoded();
    /// assert_eq!(p.sniff(), Some(MediaType::Gif));
    /// ```
    pub fn sniff(&self) -> Option<MediaType> {
        let mut head = [0u8; 64];
        let n = self.decode_prefix(&mut head).ok()?;
        sniff::sniff(head.get(..n)?)
    }
}

/// A percent-decoding view of a data URL payload (no copy until decoded).
///
/// Decodes like the WHATWG percent-decode: `%` followed by two hex digits is that byte;
/// any other `%` stays as it is. So decoding never fails on its own; only a too small
/// buffer (or a malformed JSON escape) is an error.
///
/// ```
/// use agui_wire::media::{DataUrl, DataPayload};
/// let DataPayload::Percent(p) = DataUrl::parse("data:,100%25%zz").unwrap().decoded() else {
///     unreachable!()
/// };
/// assert_eq!(p.to_vec().unwrap(), b"100%%zz");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PercentDecoded<'a> {
    raw: &'a [u8],
    escaped: bool,
    base: usize,
    doc_offset: usize,
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

impl<'a> PercentDecoded<'a> {
    /// A view over percent-encoded text, e.g. a data URL payload from
    /// [`DataUrl::payload`]; `escaped` and `doc_offset` as for [`super::Base64::new`].
    ///
    /// ```
    /// use agui_wire::media::PercentDecoded;
    /// assert_eq!(PercentDecoded::new(b"a%20b", false, 0).to_vec().unwrap(), b"a b");
    /// ```
    pub fn new(raw: &'a [u8], escaped: bool, doc_offset: usize) -> Self {
        PercentDecoded {
            raw,
            escaped,
            base: 0,
            doc_offset,
        }
    }

    /// The encoded text.
    ///
    /// ```
    /// use agui_wire::media::PercentDecoded;
    /// assert_eq!(PercentDecoded::new(b"%41", false, 0).raw(), b"%41");
    /// ```
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// Walks the decoded bytes; `emit` returns false to stop.
    fn walk(&self, mut emit: impl FnMut(u8) -> bool) -> Result<(), DataUrlError> {
        let bad = |at: usize| DataUrlError {
            kind: DataUrlErrorKind::BadEscape,
            offset: self.base.saturating_add(at),
            doc_offset: self.doc_offset.saturating_add(at),
        };
        let mut it = LogicalBytes::new(self.raw, self.escaped);
        let mut look = [0u8; 2];
        let mut nlook = 0usize;
        loop {
            let b = if nlook > 0 {
                let b = look[0];
                look[0] = look[1];
                nlook -= 1;
                b
            } else {
                match it.next() {
                    None => return Ok(()),
                    Some(r) => r.map_err(bad)?.0,
                }
            };
            if b != b'%' {
                if !emit(b) {
                    return Ok(());
                }
                continue;
            }
            while nlook < 2 {
                match it.next() {
                    None => break,
                    Some(r) => {
                        if let Some(slot) = look.get_mut(nlook) {
                            *slot = r.map_err(bad)?.0;
                        }
                        nlook += 1;
                    }
                }
            }
            let byte = match (nlook, hex(look[0]), hex(look[1])) {
                (2, Some(h), Some(l)) => {
                    nlook = 0;
                    (h << 4) | l
                }
                _ => b'%',
            };
            if !emit(byte) {
                return Ok(());
            }
        }
    }

    /// The exact decoded length (one pass over the text).
    ///
    /// ```
    /// use agui_wire::media::PercentDecoded;
    /// assert_eq!(PercentDecoded::new(b"%41%4", false, 0).decoded_len().unwrap(), 3);
    /// ```
    pub fn decoded_len(&self) -> Result<usize, DataUrlError> {
        let mut n = 0usize;
        self.walk(|_| {
            n += 1;
            true
        })?;
        Ok(n)
    }

    /// Decodes into `out`, returning the number of bytes written.
    ///
    /// ```
    /// use agui_wire::media::{PercentDecoded, DataUrlErrorKind};
    /// let p = PercentDecoded::new(b"%41%42", false, 0);
    /// let e = p.decode_into(&mut [0u8; 1]).unwrap_err();
    /// assert_eq!(e.kind(), DataUrlErrorKind::OutputTooSmall { needed: 2, available: 1 });
    /// ```
    pub fn decode_into(&self, out: &mut [u8]) -> Result<usize, DataUrlError> {
        let mut n = 0usize;
        let mut overflow = false;
        self.walk(|b| match out.get_mut(n) {
            Some(slot) => {
                *slot = b;
                n += 1;
                true
            }
            None => {
                overflow = true;
                false
            }
        })?;
        if overflow {
            return Err(DataUrlError {
                kind: DataUrlErrorKind::OutputTooSmall {
                    needed: self.decoded_len()?,
                    available: out.len(),
                },
                offset: self.base,
                doc_offset: self.doc_offset,
            });
        }
        Ok(n)
    }

    /// Decodes at most `out.len()` bytes from the start.
    ///
    /// ```
    /// use agui_wire::media::PercentDecoded;
    /// let mut head = [0u8; 2];
    /// assert_eq!(PercentDecoded::new(b"%41BC", false, 0).decode_prefix(&mut head).unwrap(), 2);
    /// assert_eq!(&head, b"AB");
    /// ```
    pub fn decode_prefix(&self, out: &mut [u8]) -> Result<usize, DataUrlError> {
        let mut n = 0usize;
        self.walk(|b| match out.get_mut(n) {
            Some(slot) => {
                *slot = b;
                n += 1;
                n < out.len()
            }
            None => false,
        })?;
        Ok(n)
    }

    /// Decodes into a new `Vec`.
    ///
    /// ```
    /// use agui_wire::media::PercentDecoded;
    /// assert_eq!(PercentDecoded::new(br"\u0025\u0034\u0031", true, 0).to_vec().unwrap(), b"A");
    /// ```
    pub fn to_vec(&self) -> Result<Vec<u8>, DataUrlError> {
        let mut v = Vec::new();
        self.walk(|b| {
            v.push(b);
            true
        })?;
        Ok(v)
    }
}
