//! Errors: what went wrong, where (byte offset), and the JSON path to it.
//!
//! Inside the parser an error is two words, an [`ErrorKind`] and a byte offset, so the hot
//! path never builds strings. The JSON path (`messages[3].content[1].source`) is worked out only
//! when an error leaves the library, by walking the document up to the offset again
//! ([`json_path_at`]): errors are rare, documents are valid up to the point of failure, and the
//! walk is cheap compared with the cost of tracking a path during every successful parse.

use std::fmt;

/// What is wrong with a document.
///
/// ```
/// use agui_wire::ErrorKind;
/// let kind = ErrorKind::MissingField("runId");
/// assert_eq!(kind.to_string(), "missing required field `runId`");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended in the middle of a value.
    UnexpectedEof,
    /// A byte that the JSON grammar does not allow here.
    UnexpectedByte {
        /// The byte found.
        found: u8,
        /// What the grammar expected instead.
        expected: &'static str,
    },
    /// Bytes after the end of the top-level value.
    TrailingCharacters,
    /// The document starts with a UTF-8 byte order mark, which RFC 8259 forbids.
    ByteOrderMark,
    /// A string holds bytes that are not valid UTF-8.
    InvalidUtf8,
    /// A raw control character (below U+0020) inside a string.
    ControlCharacterInString(u8),
    /// A backslash escape that JSON does not define.
    InvalidEscape,
    /// A `\u` escape that is a lone or mismatched UTF-16 surrogate.
    LoneSurrogate,
    /// A number that does not follow the JSON number grammar.
    InvalidNumber,
    /// A literal that is not `true`, `false` or `null`.
    InvalidLiteral,
    /// Nesting deeper than [`ParseOptions::max_depth`](crate::ParseOptions::max_depth).
    DepthLimitExceeded(usize),
    /// The input is larger than [`ParseOptions::max_input_bytes`](crate::ParseOptions::max_input_bytes).
    InputTooLarge {
        /// The input's length.
        len: usize,
        /// The configured limit.
        limit: usize,
    },
    /// A list holds more entries than the configured limit allows.
    TooManyItems {
        /// Which list (`messages`, `tools`, ...).
        what: &'static str,
        /// The configured limit.
        limit: usize,
    },
    /// A required field is absent.
    MissingField(&'static str),
    /// A field appears twice in the same object.
    DuplicateField(&'static str),
    /// A field holds a value of the wrong JSON type.
    WrongType {
        /// The field's name.
        field: &'static str,
        /// The JSON type(s) the protocol requires.
        expected: &'static str,
        /// The JSON type found.
        found: &'static str,
    },
    /// `null` where the protocol allows the field to be absent but not null.
    NullNotAllowed(&'static str),
    /// A discriminator (`role`, `type`, `status`, ...) holds a value the protocol does not define.
    UnknownVariant {
        /// The discriminator field.
        field: &'static str,
        /// The value found (possibly shortened).
        found: String,
        /// The values the protocol allows.
        expected: &'static str,
    },
    /// A field is present but its value is not allowed by the protocol.
    InvalidValue {
        /// The field's name.
        field: &'static str,
        /// Why the value is rejected.
        reason: &'static str,
    },
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedEof => f.write_str("unexpected end of input"),
            ErrorKind::UnexpectedByte { found, expected } => {
                write!(
                    f,
                    "not JSON: expected {expected}, found {}",
                    show_byte(*found)
                )
            }
            ErrorKind::TrailingCharacters => {
                f.write_str("trailing characters after the JSON value")
            }
            ErrorKind::ByteOrderMark => {
                f.write_str("byte order mark at the start of the document (RFC 8259 forbids it)")
            }
            ErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8 in string"),
            ErrorKind::ControlCharacterInString(b) => {
                write!(f, "unescaped control character 0x{b:02x} in string")
            }
            ErrorKind::InvalidEscape => f.write_str("invalid escape sequence in string"),
            ErrorKind::LoneSurrogate => f.write_str("lone UTF-16 surrogate in \\u escape"),
            ErrorKind::InvalidNumber => f.write_str("not JSON: invalid number"),
            ErrorKind::InvalidLiteral => {
                f.write_str("not JSON: invalid literal (expected true, false or null)")
            }
            ErrorKind::DepthLimitExceeded(limit) => {
                write!(f, "nesting deeper than the limit of {limit}")
            }
            ErrorKind::InputTooLarge { len, limit } => {
                write!(f, "input of {len} bytes exceeds the limit of {limit} bytes")
            }
            ErrorKind::TooManyItems { what, limit } => {
                write!(f, "more than {limit} entries in `{what}`")
            }
            ErrorKind::MissingField(name) => write!(f, "missing required field `{name}`"),
            ErrorKind::DuplicateField(name) => write!(f, "duplicate field `{name}`"),
            ErrorKind::WrongType {
                field,
                expected,
                found,
            } => write!(f, "`{field}` must be {expected}, found {found}"),
            ErrorKind::NullNotAllowed(name) => write!(
                f,
                "`{name}` is null; the protocol allows it to be absent but not null"
            ),
            ErrorKind::UnknownVariant {
                field,
                found,
                expected,
            } => write!(f, "unknown {field} {found:?}, expected one of {expected}"),
            ErrorKind::InvalidValue { field, reason } => write!(f, "invalid `{field}`: {reason}"),
        }
    }
}

/// Which of three kinds of fault an [`ErrorKind`] is, for callers that answer each its own way
/// (a proxy: `400` for [`Syntax`](ErrorClass::Syntax) and [`Protocol`](ErrorClass::Protocol),
/// `413` for [`Limit`](ErrorClass::Limit)). `Copy`, `Send` and `Sync`.
///
/// ```
/// use agui_wire::{Bump, ErrorClass, ParseOptions, RunAgentInput};
/// let arena = Bump::new();
/// let class = |body: &[u8], options: &ParseOptions| {
///     RunAgentInput::parse_with(body, &arena, options).unwrap_err().kind().class()
/// };
/// let strict = ParseOptions::default();
/// assert_eq!(class(br#"{"threadId":"t",}"#, &strict), ErrorClass::Syntax);
/// assert_eq!(class(br#"{"threadId":"t"}"#, &strict), ErrorClass::Protocol); // no runId
/// let small = ParseOptions { max_input_bytes: 8, ..ParseOptions::default() };
/// assert_eq!(class(br#"{"threadId":"t"}"#, &small), ErrorClass::Limit);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorClass {
    /// The bytes are not JSON (RFC 8259): the grammar, UTF-8, escapes, numbers, literals.
    Syntax,
    /// A configured limit was reached ([`ParseOptions`](crate::ParseOptions)'s size, depth or
    /// count limits): the document may be valid, but it is more than the caller accepts.
    Limit,
    /// Well-formed JSON that the AG-UI protocol rejects: a field missing, doubled, of the
    /// wrong type, `null` where it may not be, or holding a value the protocol does not allow.
    Protocol,
}

impl ErrorKind {
    /// Which kind of fault this is (see [`ErrorClass`]).
    ///
    /// ```
    /// use agui_wire::{ErrorClass, ErrorKind};
    /// assert_eq!(ErrorKind::InvalidEscape.class(), ErrorClass::Syntax);
    /// assert_eq!(ErrorKind::DepthLimitExceeded(64).class(), ErrorClass::Limit);
    /// assert_eq!(ErrorKind::MissingField("runId").class(), ErrorClass::Protocol);
    /// ```
    pub fn class(&self) -> ErrorClass {
        match self {
            ErrorKind::UnexpectedEof
            | ErrorKind::UnexpectedByte { .. }
            | ErrorKind::TrailingCharacters
            | ErrorKind::ByteOrderMark
            | ErrorKind::InvalidUtf8
            | ErrorKind::ControlCharacterInString(_)
            | ErrorKind::InvalidEscape
            | ErrorKind::LoneSurrogate
            | ErrorKind::InvalidNumber
            | ErrorKind::InvalidLiteral => ErrorClass::Syntax,
            ErrorKind::DepthLimitExceeded(_)
            | ErrorKind::InputTooLarge { .. }
            | ErrorKind::TooManyItems { .. } => ErrorClass::Limit,
            ErrorKind::MissingField(_)
            | ErrorKind::DuplicateField(_)
            | ErrorKind::WrongType { .. }
            | ErrorKind::NullNotAllowed(_)
            | ErrorKind::UnknownVariant { .. }
            | ErrorKind::InvalidValue { .. } => ErrorClass::Protocol,
        }
    }
}

fn show_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

/// A parse error: what is wrong, the byte offset in the input, and the JSON path.
///
/// ```
/// use agui_wire::{RunAgentInput, Bump};
/// let arena = Bump::new();
/// let doc = br#"{"threadId":"t","runId":"r","messages":[{"id":"m","role":"user"}]}"#;
/// let err = RunAgentInput::parse(doc, &arena).unwrap_err();
/// assert_eq!(err.path(), "messages[0]");
/// assert_eq!(err.offset(), 40);
/// assert_eq!(
///     err.to_string(),
///     "missing required field `content` at messages[0] (byte 40)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    inner: Box<Inner>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    offset: usize,
    path: String,
}

impl Error {
    /// Builds an error from its parts; `path` is a JSON path as [`Error::path`] returns it.
    ///
    /// ```
    /// use agui_wire::{Error, ErrorKind};
    /// let e = Error::new(ErrorKind::InvalidNumber, 7, "state.x");
    /// assert_eq!(e.to_string(), "not JSON: invalid number at state.x (byte 7)");
    /// ```
    pub fn new(kind: ErrorKind, offset: usize, path: impl Into<String>) -> Error {
        Error {
            inner: Box::new(Inner {
                kind,
                offset,
                path: path.into(),
            }),
        }
    }

    /// Builds an error for `input`, working out the JSON path of `offset`.
    ///
    /// ```
    /// use agui_wire::{Error, ErrorKind};
    /// let doc = br#"{"a":[1,{"b":x}]}"#;
    /// let e = Error::locate(ErrorKind::InvalidLiteral, 13, doc);
    /// assert_eq!(e.path(), "a[1].b");
    /// ```
    pub fn locate(kind: ErrorKind, offset: usize, input: &[u8]) -> Error {
        Error::new(kind, offset, json_path_at(input, offset))
    }

    /// What is wrong.
    ///
    /// ```
    /// # use agui_wire::{Error, ErrorKind};
    /// let e = Error::new(ErrorKind::InvalidEscape, 3, "");
    /// assert_eq!(e.kind(), &ErrorKind::InvalidEscape);
    /// ```
    pub fn kind(&self) -> &ErrorKind {
        &self.inner.kind
    }

    /// Byte offset in the input where the problem was found.
    ///
    /// ```
    /// # use agui_wire::{Error, ErrorKind};
    /// assert_eq!(Error::new(ErrorKind::InvalidEscape, 3, "").offset(), 3);
    /// ```
    pub fn offset(&self) -> usize {
        self.inner.offset
    }

    /// JSON path of the value where the problem is, like `messages[3].content[1].source`;
    /// empty for the document root.
    ///
    /// ```
    /// # use agui_wire::{Error, ErrorKind};
    /// assert_eq!(Error::new(ErrorKind::InvalidEscape, 3, "state").path(), "state");
    /// ```
    pub fn path(&self) -> &str {
        &self.inner.path
    }

    /// Returns the error with its offset moved by `delta` bytes and its path prefixed, for errors
    /// found inside an embedded document (an event's `input`, a nested payload).
    ///
    /// ```
    /// # use agui_wire::{Error, ErrorKind};
    /// let e = Error::new(ErrorKind::InvalidEscape, 3, "messages[0]").nested(100, "input");
    /// assert_eq!((e.offset(), e.path()), (103, "input.messages[0]"));
    /// ```
    pub fn nested(mut self, delta: usize, prefix: &str) -> Error {
        self.inner.offset += delta;
        if !prefix.is_empty() {
            self.inner.path = if self.inner.path.is_empty() {
                prefix.to_owned()
            } else if self.inner.path.starts_with('[') {
                format!("{prefix}{}", self.inner.path)
            } else {
                format!("{prefix}.{}", self.inner.path)
            };
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.inner.path.is_empty() {
            "the document root"
        } else {
            &self.inner.path
        };
        write!(
            f,
            "{} at {} (byte {})",
            self.inner.kind, path, self.inner.offset
        )
    }
}

impl std::error::Error for Error {}

/// The cheap error used inside the parser: a kind and an offset, no path yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawError {
    pub(crate) kind: ErrorKind,
    pub(crate) offset: usize,
}

/// How many bytes of an unknown discriminator value an error keeps.
pub(crate) const UNKNOWN_VARIANT_SHOWN: usize = 64;

impl RawError {
    #[cold]
    pub(crate) fn new(kind: ErrorKind, offset: usize) -> RawError {
        RawError { kind, offset }
    }

    /// [`ErrorKind::UnknownVariant`] for the value `found` of `field` at `offset`, the value
    /// cut to its first [`UNKNOWN_VARIANT_SHOWN`] bytes at most, on a character boundary (a
    /// hostile value may be megabytes long, and any character may straddle the cut).
    #[cold]
    pub(crate) fn unknown_variant(
        field: &'static str,
        found: &str,
        expected: &'static str,
        offset: usize,
    ) -> RawError {
        let mut end = found.len().min(UNKNOWN_VARIANT_SHOWN);
        while !found.is_char_boundary(end) {
            end -= 1;
        }
        let found = found.get(..end).unwrap_or_default().to_owned();
        RawError::new(
            ErrorKind::UnknownVariant {
                field,
                found,
                expected,
            },
            offset,
        )
    }

    /// Attaches the JSON path, computed from the input.
    #[cold]
    pub(crate) fn locate(self, input: &[u8]) -> Error {
        Error::locate(self.kind, self.offset, input)
    }
}

pub(crate) type RawResult<T> = Result<T, RawError>;

/// Works out the JSON path of the value that contains byte `offset` of `input`.
///
/// The document is assumed to be valid JSON up to `offset` (which is true for every error the
/// parser reports); the walk stops there. An offset that points at an object key gives the path
/// of that key's value. The walk is iterative, so a deeply nested input cannot overflow the
/// stack.
///
/// ```
/// use agui_wire::json_path_at;
/// let doc = br#"{"messages":[{"id":"1"},{"content":[{"x":1},{"source":{}}]}]}"#;
/// let at = doc.windows(9).position(|w| w == br#"{"source""#).unwrap();
/// assert_eq!(json_path_at(doc, at), "messages[1].content[1]");
/// ```
pub fn json_path_at(input: &[u8], offset: usize) -> String {
    json_path_within(input, offset).unwrap_or_else(|(path, _)| path)
}

/// [`json_path_at`] for a prefix of a document: `Err((path, from))` when the path depends on
/// bytes past the end of `input` (the offset is in or at an object key whose closing quote
/// has not arrived; the key's content starts at `from`).
pub(crate) fn json_path_within(input: &[u8], offset: usize) -> Result<String, (String, usize)> {
    // Each open container: its segment in the parent (None for the root) and, for arrays, the
    // current index; for objects, the pending key.
    struct Frame {
        is_array: bool,
        index: usize,
        key: Option<String>,
        in_value: bool,
    }
    let end = offset.min(input.len());
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    let path_of = |stack: &[Frame]| -> String {
        let mut out = String::new();
        for fr in stack.iter().filter(|f| f.in_value) {
            if fr.is_array {
                out.push('[');
                out.push_str(&fr.index.to_string());
                out.push(']');
            } else if let Some(k) = &fr.key {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
        }
        out
    };
    while i < end {
        let b = input[i];
        match b {
            b'{' | b'[' => {
                if let Some(top) = stack.last_mut() {
                    top.in_value = true;
                }
                stack.push(Frame {
                    is_array: b == b'[',
                    index: 0,
                    key: None,
                    in_value: false,
                });
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                if let Some(top) = stack.last_mut() {
                    top.in_value = false;
                }
                i += 1;
            }
            b',' => {
                if let Some(top) = stack.last_mut() {
                    if top.is_array {
                        top.index += 1;
                    } else {
                        top.key = None;
                    }
                    top.in_value = false;
                }
                i += 1;
            }
            b'"' => {
                // Find the end of the string (skipping escapes).
                let start = i + 1;
                let mut j = start;
                while j < input.len() && input[j] != b'"' {
                    j += if input[j] == b'\\' { 2 } else { 1 };
                }
                let is_key = matches!(stack.last(), Some(f) if !f.is_array && f.key.is_none());
                if is_key {
                    let cut = j >= input.len();
                    let raw = &input[start..j.min(input.len())];
                    let text = crate::model::unescape_lossy(raw);
                    if let Some(top) = stack.last_mut() {
                        top.key = Some(text);
                    }
                    if offset < j + 1 {
                        // The offset is on the key itself: report the key's path.
                        if let Some(top) = stack.last_mut() {
                            top.in_value = true;
                        }
                        let path = path_of(&stack);
                        return if cut { Err((path, start)) } else { Ok(path) };
                    }
                } else if let Some(top) = stack.last_mut() {
                    top.in_value = true;
                }
                i = j + 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' | b':' => i += 1,
            _ => {
                if let Some(top) = stack.last_mut() {
                    top.in_value = true;
                }
                i += 1;
            }
        }
    }
    // `offset` sits inside (or at the start of) the value of the innermost open container's
    // current slot, if any byte of it has been seen or the offset points at a value start.
    if let (Some(top), Some(&b)) = (stack.last_mut(), input.get(end)) {
        if b == b'"' && !top.is_array && top.key.is_none() {
            // The offset is at the start of a key.
            let mut j = end + 1;
            while j < input.len() && input[j] != b'"' {
                j += if input[j] == b'\\' { 2 } else { 1 };
            }
            top.key = Some(crate::model::unescape_lossy(
                &input[end + 1..j.min(input.len())],
            ));
            top.in_value = true;
            if j >= input.len() {
                return Err((path_of(&stack), end + 1));
            }
        } else if !matches!(b, b',' | b'}' | b']' | b':' | b' ' | b'\t' | b'\n' | b'\r') {
            top.in_value = top.is_array || top.key.is_some();
        }
    }
    Ok(path_of(&stack))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        let doc = br#"{"a":[1,{"b":x}]}"#;
        assert_eq!(json_path_at(doc, 13), "a[1].b");
        assert_eq!(json_path_at(doc, 0), "");
        assert_eq!(json_path_at(doc, 5), "a");
        assert_eq!(json_path_at(doc, 6), "a[0]");
        assert_eq!(json_path_at(doc, 8), "a[1]");
        let doc = br#"{"x":{"y":"\"q"}}"#;
        assert_eq!(json_path_at(doc, 10), "x.y");
        assert_eq!(json_path_at(doc, 6), "x.y");
        assert_eq!(json_path_at(b"", 0), "");
        assert_eq!(json_path_at(b"[[[[", 4), "[0][0][0]");
    }
}
