//! The protobuf event transport (`application/vnd.ag-ui.event+proto`): each event is a 4-byte
//! big-endian length followed by a protobuf `ag_ui.Event`, a `oneof` over the 31 event types
//! of AG-UI 1.0, with JSON-valued fields as `google.protobuf.Value` / `Struct`.
//!
//! - [`ProtoEvent`]: a borrowed view of one decoded event. Strings are slices of the frame;
//!   nothing is copied until you ask for JSON. [`ProtoEvent::write_json`] writes the event's
//!   AG-UI JSON, the same event the official TypeScript decoder (`@ag-ui/proto` 1.0.0)
//!   produces; [`ProtoEvent::to_event`] parses that JSON into the crate's [`crate::Event`].
//! - [`ValueView`], [`StructView`], [`ListView`]: `google.protobuf.Value` and friends as views,
//!   convertible to JSON text exactly.
//! - [`FrameDecoder`]: frames from chunks cut anywhere, with a maximum frame size.
//! - [`encode_json`], [`encode_event`]: AG-UI JSON (or a parsed [`crate::Event`]) to a frame,
//!   reporting what protobuf cannot carry ([`EncodeOptions::on_loss`]).
//! - [`SseToProto`], [`ProtoToSse`]: streaming transcoders in both directions.
//!
//! ## Why a view and JSON text, not the `Event` model
//! The crate's event model holds JSON-valued fields as slices of JSON text ([`crate::RawJson`]).
//! A protobuf frame has no JSON text to point at, so building an `Event` from it means writing
//! JSON first. The gateway's common path (a protobuf upstream, SSE clients) needs exactly that
//! JSON and nothing more, so the view writes it straight from the frame in one pass, with no
//! intermediate tree; [`ProtoEvent::to_event`] is there for code that wants the typed model,
//! and costs one more parse of the JSON it wrote.
//!
//! ## Rules (as the official implementation reads and writes them)
//! - proto3 fields without presence (`messageId`, `delta`, ...) read as their default (`""`)
//!   when absent, and are not written when they hold the default.
//! - A `Value` with no kind set is an absent field (written `null` inside a list).
//! - Unknown fields are kept in the view ([`ProtoEvent::unknown_fields`], and
//!   [`ProtoEvent::bytes`] writes the frame back unchanged); JSON has no place for them.
//! - Two different event arms in one frame are an error. A singular message field that
//!   appears twice (which protobuf would merge) is an error here rather than merged.
//! - A map key that appears twice in a `Struct` is written twice, in wire order; JSON readers
//!   that keep the last value (JavaScript, `serde_json`) then see protobuf's value.
//!
//! Every type here is `Send` and `Sync`.

mod decode;
mod encode;
mod frame;
mod json_in;
mod schema;
mod transcode;
mod value;
pub mod wire;

use std::fmt;

pub use decode::ProtoEvent;
pub use encode::{EncodeOptions, OnLoss, encode_event, encode_json};
pub use frame::{FrameDecoder, write_frame};
pub use transcode::{ProtoToSse, SseToProto};
pub use value::{ListView, StructView, ValueView};

/// The HTTP media type of the protobuf event stream.
///
/// ```
/// assert_eq!(agui_wire::proto::MEDIA_TYPE, "application/vnd.ag-ui.event+proto");
/// ```
pub const MEDIA_TYPE: &str = "application/vnd.ag-ui.event+proto";

/// Limits for decoding.
///
/// ```
/// use agui_wire::proto::DecodeOptions;
/// let o = DecodeOptions { max_frame: 1 << 20, ..DecodeOptions::default() };
/// assert_eq!(o.max_depth, 512);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOptions {
    /// The largest frame accepted, in bytes (the 4-byte length excluded). Default 16 MiB.
    pub max_frame: usize,
    /// How deep `Value`s may nest (objects and arrays). Default 512, as
    /// [`crate::ParseOptions::max_depth`].
    pub max_depth: usize,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            max_frame: 16 << 20,
            max_depth: 512,
        }
    }
}

/// A value or field the protobuf form cannot carry exactly.
///
/// ```
/// use agui_wire::proto::{encode_json, EncodeOptions, OnLoss, LossKind};
/// let mut out = Vec::new();
/// let opts = EncodeOptions { on_loss: OnLoss::Report, ..EncodeOptions::default() };
/// let losses = encode_json(br#"{"type":"CUSTOM","name":"n","value":9007199254740993}"#, &mut out, &opts)?;
/// assert_eq!(losses[0].path, "value");
/// assert!(matches!(losses[0].kind, LossKind::InexactNumber(_)));
/// # Ok::<(), agui_wire::proto::ProtoError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loss {
    /// What was lost.
    pub kind: LossKind,
    /// Where, as a JSON path in the event (`value`, `messages[2].content[0].metadata.x`).
    pub path: String,
}

/// The kinds of [`Loss`].
///
/// ```
/// use agui_wire::proto::LossKind;
/// assert!(LossKind::NumberOutOfRange("1e400".into()).to_string().contains("1e400"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LossKind {
    /// A number a `double` holds only approximately (an integer beyond 2^53, too many
    /// digits): the text given, sent as the nearest double.
    InexactNumber(String),
    /// A number beyond the range of a `double` (`1e400`): sent as `null`.
    NumberOutOfRange(String),
    /// A field the `.proto` files do not define (unknown fields of the JSON event): dropped.
    UnknownField(String),
    /// A value whose JSON type the proto field cannot hold (a content part of an unknown
    /// `type`, `metadata` that is not an object): dropped.
    Unrepresentable(&'static str),
}

impl fmt::Display for LossKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LossKind::InexactNumber(t) => {
                write!(
                    f,
                    "the number {t} has no exact double; the nearest double is sent"
                )
            }
            LossKind::NumberOutOfRange(t) => {
                write!(
                    f,
                    "the number {t} is beyond the range of a double; null is sent"
                )
            }
            LossKind::UnknownField(k) => {
                write!(f, "the field `{k}` has no protobuf field; it is dropped")
            }
            LossKind::Unrepresentable(what) => write!(f, "{what}; it is dropped"),
        }
    }
}

/// What went wrong in a protobuf operation.
///
/// ```
/// use agui_wire::proto::{ProtoEvent, ProtoErrorKind};
/// let e = ProtoEvent::decode(&[0x0a, 5, 1]).unwrap_err();
/// assert!(matches!(e.kind(), ProtoErrorKind::Malformed(_)));
/// assert_eq!(e.offset(), 1);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ProtoError {
    kind: ProtoErrorKind,
    offset: usize,
}

/// The kinds of [`ProtoError`].
///
/// ```
/// use agui_wire::proto::ProtoErrorKind;
/// assert!(ProtoErrorKind::DepthLimit(4).to_string().contains("4"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ProtoErrorKind {
    /// Bytes that are not protobuf (a truncated varint, a length past the end, ...).
    Malformed(&'static str),
    /// A string field that is not UTF-8.
    InvalidUtf8,
    /// A required `Value` with no kind set.
    EmptyValue,
    /// A `double` that is `NaN` or infinite, which JSON cannot hold.
    NonFiniteNumber(f64),
    /// Objects and arrays nested deeper than the limit.
    DepthLimit(usize),
    /// Valid protobuf that is not a valid AG-UI event (no event, two events, a base event
    /// whose type disagrees with its envelope, content in two forms, ...).
    Invalid(&'static str),
    /// A frame with no event arm this version knows (a later protocol's event) but
    /// well-formed otherwise.
    UnknownEventType,
    /// A frame longer than [`DecodeOptions::max_frame`].
    FrameTooLarge {
        /// The frame's declared length.
        len: u64,
        /// The limit.
        max: usize,
    },
    /// The stream ended inside a frame.
    TruncatedFrame,
    /// With [`OnLoss::Error`]: a value protobuf cannot carry exactly, and where.
    Lossy(LossKind, String),
    /// The JSON given to the encoder is not valid.
    Json(&'static str),
    /// The JSON written for the event is not a valid AG-UI event (from
    /// [`ProtoEvent::to_event`] and the transcoder's checks).
    Event(String),
}

impl fmt::Display for ProtoErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtoErrorKind::Malformed(w) => write!(f, "malformed protobuf: {w}"),
            ProtoErrorKind::InvalidUtf8 => f.write_str("a string field is not valid UTF-8"),
            ProtoErrorKind::EmptyValue => f.write_str("a google.protobuf.Value has no kind set"),
            ProtoErrorKind::NonFiniteNumber(x) => {
                write!(
                    f,
                    "the number {x} has no JSON form (NaN and infinities are not JSON)"
                )
            }
            ProtoErrorKind::DepthLimit(d) => write!(f, "values nested deeper than {d}"),
            ProtoErrorKind::Invalid(w) => write!(f, "invalid event: {w}"),
            ProtoErrorKind::UnknownEventType => f.write_str(
                "the frame holds no event type of AG-UI 1.0 (a later protocol's event?)",
            ),
            ProtoErrorKind::FrameTooLarge { len, max } => {
                write!(f, "frame of {len} bytes is larger than the limit of {max}")
            }
            ProtoErrorKind::TruncatedFrame => f.write_str("the stream ends inside a frame"),
            ProtoErrorKind::Lossy(k, path) => write!(f, "at {path}: {k}"),
            ProtoErrorKind::Json(w) => write!(f, "invalid JSON: {w}"),
            ProtoErrorKind::Event(w) => write!(f, "{w}"),
        }
    }
}

impl ProtoError {
    pub(crate) fn new(kind: ProtoErrorKind, offset: usize) -> Self {
        ProtoError { kind, offset }
    }
    pub(crate) fn malformed(what: &'static str, offset: usize) -> Self {
        ProtoError::new(ProtoErrorKind::Malformed(what), offset)
    }
    pub(crate) fn invalid(what: &'static str, offset: usize) -> Self {
        ProtoError::new(ProtoErrorKind::Invalid(what), offset)
    }
    pub(crate) fn at(mut self, base: usize) -> Self {
        self.offset += base;
        self
    }

    /// What went wrong.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// assert_eq!(ProtoEvent::decode(&[]).unwrap_err().kind(), &ProtoErrorKind::Invalid("no event in the frame"));
    /// ```
    pub fn kind(&self) -> &ProtoErrorKind {
        &self.kind
    }

    /// The byte offset: in the frame for decoding (in the stream for [`FrameDecoder`]), in
    /// the JSON text for encoding.
    ///
    /// ```
    /// # use agui_wire::proto::*;
    /// assert_eq!(ProtoEvent::decode(&[0xff]).unwrap_err().offset(), 0);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl fmt::Display for ProtoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (byte {})", self.kind, self.offset)
    }
}

impl std::error::Error for ProtoError {}
