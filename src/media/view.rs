//! Media views over the model: where a content part's bytes are, and the checks a strict
//! gateway runs on them.

use std::fmt;

use bumpalo::Bump;

use super::{Base64, Base64Error, DataPayload, DataUrl, DataUrlError, MediaType, mime_matches};
use crate::model::{InputContent, InputContentKind, InputContentSource, RunAgentInput, Str};
use crate::parser::offset_in;

/// Where a media part's bytes are.
///
/// ```
/// use agui_wire::{RunAgentInput, Bump, media::{MediaView, MediaLocation}};
/// let arena = Bump::new();
/// let doc = br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[
///   {"type":"image","source":{"type":"data","value":"iVBORw0KGgo=","mimeType":"image/png"}},
///   {"type":"audio","source":{"type":"url","value":"https://example.com/a.wav"}}]}]}"#;
/// let input = RunAgentInput::parse(doc, &arena)?;
/// let parts = input.messages[0].parts();
/// let image = MediaView::of(&parts[0], doc, &arena).unwrap().unwrap();
/// assert_eq!(image.mime_type(), Some("image/png"));
/// assert!(matches!(image.location, MediaLocation::Inline(_)));
/// assert_eq!(image.inline().unwrap().decoded_len().unwrap(), 8);
/// let audio = MediaView::of(&parts[1], doc, &arena).unwrap().unwrap();
/// assert!(matches!(audio.location, MediaLocation::Url(u) if u == "https://example.com/a.wav"));
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone)]
pub enum MediaLocation<'p> {
    /// Inline base64: a `data` source's `value`, or a legacy `binary` part's `data`.
    Inline(Base64<'p>),
    /// A `data:` URL in a `url` source (or a legacy `binary` part's `url`).
    DataUrl(DataUrl<'p>),
    /// An external URL; the bytes are elsewhere.
    Url(&'p str),
    /// A provider's file id (`file` source, or a legacy `binary` part's `id`).
    File {
        /// The file id.
        id: &'p str,
        /// The provider, if given.
        provider: Option<&'p str>,
    },
}

/// A media part seen as bytes: its modality, declared mime type, and where the bytes are.
///
/// Build one with [`MediaView::of`]; the views borrow the part (and so the input), and the
/// inline payload is never copied.
///
/// ```
/// use agui_wire::{RunAgentInput, Bump, InputContentKind, media::MediaView};
/// let arena = Bump::new();
/// let doc = br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[
///   {"type":"document","source":{"type":"url","value":"data:application/pdf;base64,JVBERi0=","mimeType":"application/pdf"}}]}]}"#;
/// let input = RunAgentInput::parse(doc, &arena)?;
/// let v = MediaView::of(&input.messages[0].parts()[0], doc, &arena).unwrap().unwrap();
/// assert_eq!(v.kind, InputContentKind::Document);
/// assert_eq!(v.decoded_len().unwrap(), Some(5));
/// assert_eq!(v.decode_to_vec().unwrap().unwrap(), b"%PDF-");
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct MediaView<'p> {
    /// The part's `type` (image, audio, video, document or binary).
    pub kind: InputContentKind,
    /// The declared `mimeType` (from the source, the legacy part, or the `data:` URL).
    declared: Option<std::borrow::Cow<'p, str>>,
    /// Where the bytes are.
    pub location: MediaLocation<'p>,
}

/// Why a media part's bytes cannot be read.
///
/// ```
/// use agui_wire::{RunAgentInput, Bump, media::{MediaView, MediaError}};
/// let arena = Bump::new();
/// let doc = br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[
///   {"type":"image","source":{"type":"data","value":"iVBOR!w0","mimeType":"image/png"}}]}]}"#;
/// let input = RunAgentInput::parse(doc, &arena)?;
/// let v = MediaView::of(&input.messages[0].parts()[0], doc, &arena).unwrap().unwrap();
/// let err = v.validate().unwrap_err();
/// assert!(matches!(err, MediaError::Base64(_)));
/// assert_eq!(err.doc_offset(), doc.iter().position(|&b| b == b'!').unwrap());
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone)]
pub enum MediaError {
    /// Bad base64.
    Base64(Base64Error),
    /// A bad `data:` URL.
    DataUrl(DataUrlError),
}

impl MediaError {
    /// Byte offset of the problem in the document.
    ///
    /// ```
    /// # use agui_wire::media::{Base64, MediaError};
    /// let e = MediaError::Base64(Base64::new(b"AB*D", false, 100).validate().unwrap_err());
    /// assert_eq!(e.doc_offset(), 102);
    /// ```
    pub fn doc_offset(&self) -> usize {
        match self {
            MediaError::Base64(e) => e.doc_offset(),
            MediaError::DataUrl(e) => e.doc_offset(),
        }
    }
}

impl fmt::Display for MediaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MediaError::Base64(e) => fmt::Display::fmt(e, f),
            MediaError::DataUrl(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl std::error::Error for MediaError {}

impl From<Base64Error> for MediaError {
    fn from(e: Base64Error) -> Self {
        MediaError::Base64(e)
    }
}

impl From<DataUrlError> for MediaError {
    fn from(e: DataUrlError) -> Self {
        MediaError::DataUrl(e)
    }
}

fn base64_of<'p>(s: &'p Str<'_>, doc: &[u8]) -> Base64<'p> {
    let raw = s.raw().as_bytes();
    Base64::new(raw, s.is_escaped(), offset_in(doc, raw).unwrap_or(0))
}

fn url_of<'p>(
    s: &'p Str<'_>,
    doc: &[u8],
    arena: &'p Bump,
) -> Result<MediaLocation<'p>, MediaError> {
    let raw = s.raw();
    if raw.len() >= 5 && raw[..5].eq_ignore_ascii_case("data:") {
        let url = DataUrl::parse_json(
            raw.as_bytes(),
            s.is_escaped(),
            offset_in(doc, raw.as_bytes()).unwrap_or(0),
            arena,
        )?;
        return Ok(MediaLocation::DataUrl(url));
    }
    Ok(MediaLocation::Url(arena_text(s, arena)))
}

fn arena_text<'p>(s: &'p Str<'_>, arena: &'p Bump) -> &'p str {
    match s.as_plain() {
        Some(t) => t,
        None => arena.alloc_str(&s.unescaped()),
    }
}

impl<'p> MediaView<'p> {
    /// The view of a content part: `None` for text parts; `Some(Err)` when a `data:` URL is
    /// malformed. `doc` is the document the part was parsed from (for error offsets; any
    /// slice will do for parts built by hand); `arena` holds unescaped text when the JSON
    /// strings had escapes.
    ///
    /// ```
    /// # use agui_wire::{InputContent, TextInputContent, Bump, media::MediaView};
    /// let arena = Bump::new();
    /// assert!(MediaView::of(&InputContent::Text(TextInputContent::default()), b"", &arena).is_none());
    /// ```
    pub fn of(
        part: &'p InputContent<'_>,
        doc: &[u8],
        arena: &'p Bump,
    ) -> Option<Result<MediaView<'p>, MediaError>> {
        let kind = part.kind();
        let view = |declared: Option<&'p Str<'_>>, location| {
            Ok(MediaView {
                kind,
                declared: declared.map(|m| std::borrow::Cow::Borrowed(arena_text(m, arena))),
                location,
            })
        };
        match part {
            InputContent::Text(_) => None,
            InputContent::Binary(b) => Some(if let Some(data) = &b.data {
                view(
                    Some(&b.mime_type),
                    MediaLocation::Inline(base64_of(data, doc)),
                )
            } else if let Some(url) = &b.url {
                url_of(url, doc, arena).and_then(|l| view(Some(&b.mime_type), l))
            } else {
                let id = b.id.as_ref().map_or("", |s| arena_text(s, arena));
                view(
                    Some(&b.mime_type),
                    MediaLocation::File { id, provider: None },
                )
            }),
            InputContent::Image(m)
            | InputContent::Audio(m)
            | InputContent::Video(m)
            | InputContent::Document(m) => Some(match &m.source {
                InputContentSource::Data(d) => view(
                    Some(&d.mime_type),
                    MediaLocation::Inline(base64_of(&d.value, doc)),
                ),
                InputContentSource::Url(u) => match url_of(&u.value, doc, arena) {
                    Ok(MediaLocation::DataUrl(url)) => {
                        let declared = u.mime_type.as_ref().map(|m| arena_text(m, arena));
                        Ok(MediaView {
                            kind,
                            declared: Some(std::borrow::Cow::Borrowed(
                                declared.unwrap_or(url.mime_type()),
                            )),
                            location: MediaLocation::DataUrl(url),
                        })
                    }
                    Ok(l) => view(u.mime_type.as_ref(), l),
                    Err(e) => Err(e),
                },
                InputContentSource::File(f) => view(
                    f.mime_type.as_ref(),
                    MediaLocation::File {
                        id: arena_text(&f.value, arena),
                        provider: f.provider.as_ref().map(|p| arena_text(p, arena)),
                    },
                ),
            }),
        }
    }

    /// The declared mime type, if any.
    ///
    /// ```
    /// # use agui_wire::{InputContent, MediaInputContent, InputContentSource, FileSource, Str, Bump, media::MediaView};
    /// let arena = Bump::new();
    /// let p = InputContent::Image(MediaInputContent { source: InputContentSource::File(FileSource {
    ///     value: Str::new("file-1"), ..Default::default() }), ..Default::default() });
    /// assert_eq!(MediaView::of(&p, b"", &arena).unwrap().unwrap().mime_type(), None);
    /// ```
    pub fn mime_type(&self) -> Option<&str> {
        self.declared.as_deref()
    }

    /// The inline base64 payload, when the bytes are in the document as base64 (a data
    /// source, a legacy `data`, or a base64 `data:` URL).
    ///
    /// ```
    /// # use agui_wire::{InputContent, BinaryInputContent, Str, Bump, media::MediaView};
    /// let arena = Bump::new();
    /// let p = InputContent::Binary(BinaryInputContent { mime_type: Str::new("application/octet-stream"),
    ///     data: Some(Str::new("AAECAwQ=")), ..Default::default() });
    /// let v = MediaView::of(&p, b"", &arena).unwrap().unwrap();
    /// assert_eq!(v.inline().unwrap().decode_to_vec().unwrap(), [0, 1, 2, 3, 4]);
    /// ```
    pub fn inline(&self) -> Option<Base64<'p>> {
        match &self.location {
            MediaLocation::Inline(b) => Some(*b),
            MediaLocation::DataUrl(u) => u.base64(),
            _ => None,
        }
    }

    /// Whether the bytes are in the document (inline base64 or a `data:` URL).
    ///
    /// ```
    /// # use agui_wire::{InputContent, BinaryInputContent, Str, Bump, media::MediaView};
    /// let arena = Bump::new();
    /// let p = InputContent::Binary(BinaryInputContent { url: Some(Str::new("https://x/y")), ..Default::default() });
    /// assert!(!MediaView::of(&p, b"", &arena).unwrap().unwrap().is_inline());
    /// ```
    pub fn is_inline(&self) -> bool {
        matches!(
            self.location,
            MediaLocation::Inline(_) | MediaLocation::DataUrl(_)
        )
    }

    /// Exact decoded size of inline bytes (`None` when the bytes are elsewhere).
    ///
    /// ```
    /// # use agui_wire::{InputContent, BinaryInputContent, Str, Bump, media::MediaView};
    /// let arena = Bump::new();
    /// let p = InputContent::Binary(BinaryInputContent { data: Some(Str::new("AAECAwQ=")), ..Default::default() });
    /// assert_eq!(MediaView::of(&p, b"", &arena).unwrap().unwrap().decoded_len().unwrap(), Some(5));
    /// ```
    pub fn decoded_len(&self) -> Result<Option<usize>, MediaError> {
        Ok(match &self.location {
            MediaLocation::Inline(b) => Some(b.decoded_len()?),
            MediaLocation::DataUrl(u) => Some(u.decoded().decoded_len()?),
            _ => None,
        })
    }

    /// Checks the inline bytes (all of them) without keeping the decoded result.
    ///
    /// ```
    /// # use agui_wire::{InputContent, BinaryInputContent, Str, Bump, media::MediaView};
    /// let arena = Bump::new();
    /// let p = InputContent::Binary(BinaryInputContent { data: Some(Str::new("AAE-")), ..Default::default() });
    /// assert!(MediaView::of(&p, b"", &arena).unwrap().unwrap().validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<(), MediaError> {
        match &self.location {
            MediaLocation::Inline(b) => b.validate()?,
            MediaLocation::DataUrl(u) => match u.decoded() {
                DataPayload::Base64(b) => b.validate()?,
                DataPayload::Percent(p) => {
                    p.decoded_len()?;
                }
            },
            _ => {}
        }
        Ok(())
    }

    /// The inline bytes, decoded (`None` when the bytes are elsewhere).
    ///
    /// ```
    /// # use agui_wire::{InputContent, BinaryInputContent, Str, Bump, media::MediaView};
    /// let arena = Bump::new();
    /// let p = InputContent::Binary(BinaryInputContent { url: Some(Str::new("data:,hi%21")), ..Default::default() });
    /// assert_eq!(MediaView::of(&p, b"", &arena).unwrap().unwrap().decode_to_vec().unwrap().unwrap(), b"hi!");
    /// ```
    pub fn decode_to_vec(&self) -> Result<Option<Vec<u8>>, MediaError> {
        Ok(match &self.location {
            MediaLocation::Inline(b) => Some(b.decode_to_vec()?),
            MediaLocation::DataUrl(u) => Some(u.decoded().to_vec()?),
            _ => None,
        })
    }

    /// The format recognised from the first decoded bytes of inline media.
    ///
    /// ```
    /// # use agui_wire::{InputContent, BinaryInputContent, Str, Bump, media::{MediaView, MediaType}};
    /// let arena = Bump::new();
    /// let p = InputContent::Binary(BinaryInputContent { data: Some(Str::new("JVBERi0xLjQK")), ..Default::default() });
    /// assert_eq!(MediaView::of(&p, b"", &arena).unwrap().unwrap().sniff(), Some(MediaType::Pdf));
    /// ```
    pub fn sniff(&self) -> Option<MediaType> {
        match &self.location {
            MediaLocation::Inline(b) => b.sniff(),
            MediaLocation::DataUrl(u) => u.sniff(),
            _ => None,
        }
    }
}

/// How serious a [`MediaFinding`] is.
///
/// ```
/// use agui_wire::media::Severity;
/// assert_ne!(Severity::Error, Severity::Warning);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The payload is broken: the document should be rejected.
    Error,
    /// The payload decodes, but something does not add up (e.g. the declared mime type).
    Warning,
}

/// One result of [`check_media`].
///
/// ```
/// use agui_wire::{RunAgentInput, Bump, media::{check_media, Severity}};
/// let arena = Bump::new();
/// // Declared as a PNG, but the bytes are a PDF.
/// let doc = br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[
///   {"type":"image","source":{"type":"data","value":"JVBERi0xLjQK","mimeType":"image/png"}}]}]}"#;
/// let input = RunAgentInput::parse(doc, &arena)?;
/// let findings = check_media(&input, doc, &arena);
/// assert_eq!(findings.len(), 1);
/// assert_eq!(findings[0].severity, Severity::Warning);
/// assert_eq!(findings[0].path, "messages[0].content[0]");
/// assert_eq!(findings[0].message,
///     "declared mimeType image/png but the bytes look like application/pdf");
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaFinding {
    /// Error or warning.
    pub severity: Severity,
    /// JSON path of the content part.
    pub path: String,
    /// Byte offset in the document (of the bad byte for errors, of the payload otherwise).
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for MediaFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{level}: {} at {} (byte {})",
            self.message, self.path, self.offset
        )
    }
}

/// Every media part of a document with its JSON path, in document order.
///
/// ```
/// use agui_wire::{RunAgentInput, Bump, media::media_parts};
/// let arena = Bump::new();
/// let doc = br#"{"threadId":"t","runId":"r","messages":[{"id":"t1","role":"tool","toolCallId":"c","content":[
///   {"type":"text","text":"see"},{"type":"image","source":{"type":"url","value":"https://x/i.png"}}]}]}"#;
/// let input = RunAgentInput::parse(doc, &arena)?;
/// let parts: Vec<String> = media_parts(&input, doc, &arena).map(|(path, _)| path).collect();
/// assert_eq!(parts, ["messages[0].content[1]"]);
/// # Ok::<(), agui_wire::Error>(())
/// ```
pub fn media_parts<'p>(
    input: &'p RunAgentInput<'_>,
    doc: &'p [u8],
    arena: &'p Bump,
) -> impl Iterator<Item = (String, Result<MediaView<'p>, MediaError>)> + 'p {
    input.messages.iter().enumerate().flat_map(move |(mi, m)| {
        m.parts().iter().enumerate().filter_map(move |(pi, p)| {
            MediaView::of(p, doc, arena).map(|v| (format!("messages[{mi}].content[{pi}]"), v))
        })
    })
}

/// The strict media check a gateway can run after parsing: every inline payload is
/// validated in full (an error finding for bad base64 or a bad `data:` URL, with the offset
/// of the bad byte in the document), and the declared mime type is compared with the
/// format its first bytes show (a warning finding on a mismatch; unknown formats pass).
///
/// ```
/// use agui_wire::{RunAgentInput, Bump, media::{check_media, Severity}};
/// let arena = Bump::new();
/// let doc = br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[
///   {"type":"audio","source":{"type":"data","value":"UklGR-","mimeType":"audio/wav"}}]}]}"#;
/// let input = RunAgentInput::parse(doc, &arena)?;
/// let f = &check_media(&input, doc, &arena)[0];
/// assert_eq!((f.severity, f.offset), (Severity::Error, doc.iter().position(|&b| b == b'-').unwrap()));
/// assert!(f.to_string().starts_with("error: "));
/// # Ok::<(), agui_wire::Error>(())
/// ```
pub fn check_media(input: &RunAgentInput<'_>, doc: &[u8], arena: &Bump) -> Vec<MediaFinding> {
    let mut out = Vec::new();
    for (path, view) in media_parts(input, doc, arena) {
        let view = match view.and_then(|v| v.validate().map(|()| v)) {
            Ok(v) => v,
            Err(e) => {
                out.push(MediaFinding {
                    severity: Severity::Error,
                    offset: e.doc_offset(),
                    message: e.to_string(),
                    path,
                });
                continue;
            }
        };
        if let (Some(declared), Some(found)) = (view.mime_type(), view.sniff())
            && !mime_matches(declared, found)
        {
            let offset = view.inline().map_or(0, |b| b.doc_offset());
            out.push(MediaFinding {
                severity: Severity::Warning,
                offset,
                message: format!(
                    "declared mimeType {declared} but the bytes look like {}",
                    found.mime()
                ),
                path,
            });
        }
    }
    out
}
