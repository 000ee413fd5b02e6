//! Message content: the `string | InputContent[]` union, the content parts and their sources.

use super::{Extra, List, RawJson, Str, owned_struct};

/// The `content` of user and tool messages: plain text or ordered parts.
///
/// ```
/// use agui_wire::{Content, Str};
/// let c = Content::Text(Str::new("Hello"));
/// assert_eq!(c.as_text().unwrap(), "Hello");
/// assert!(c.parts().is_empty());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Content<'a> {
    /// A JSON string.
    Text(Str<'a>),
    /// A JSON array of content parts.
    Parts(List<'a, InputContent<'a>>),
}

impl Default for Content<'_> {
    fn default() -> Self {
        Content::Text(Str::default())
    }
}

impl<'a> Content<'a> {
    /// The text, when the content is a string.
    ///
    /// ```
    /// # use agui_wire::{Content, List};
    /// assert!(Content::Parts(List::new()).as_text().is_none());
    /// ```
    pub fn as_text(&self) -> Option<&Str<'a>> {
        match self {
            Content::Text(s) => Some(s),
            Content::Parts(_) => None,
        }
    }

    /// The parts, when the content is an array (empty for text).
    ///
    /// ```
    /// # use agui_wire::{Content, Str};
    /// assert_eq!(Content::Text(Str::new("x")).parts().len(), 0);
    /// ```
    pub fn parts(&self) -> &[InputContent<'a>] {
        match self {
            Content::Text(_) => &[],
            Content::Parts(p) => p,
        }
    }

    /// Copies everything borrowed from the input.
    ///
    /// ```
    /// # use agui_wire::Content;
    /// let c: Content<'static> = Content::default().into_owned();
    /// ```
    pub fn into_owned(self) -> Content<'static> {
        match self {
            Content::Text(s) => Content::Text(s.into_owned()),
            Content::Parts(p) => Content::Parts(super::IntoOwned::into_owned_value(p)),
        }
    }
}

/// One content part, discriminated by `type`.
///
/// ```
/// use agui_wire::{InputContent, InputContentKind, TextInputContent, Str};
/// let p = InputContent::Text(TextInputContent { text: Str::new("Describe this image."), ..Default::default() });
/// assert_eq!(p.kind(), InputContentKind::Text);
/// assert_eq!(p.kind().as_str(), "text");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum InputContent<'a> {
    /// `type: "text"`
    Text(TextInputContent<'a>),
    /// `type: "image"`
    Image(MediaInputContent<'a>),
    /// `type: "audio"`
    Audio(MediaInputContent<'a>),
    /// `type: "video"`
    Video(MediaInputContent<'a>),
    /// `type: "document"`
    Document(MediaInputContent<'a>),
    /// `type: "binary"`: the pre-1.0 part, deprecated but still sent by older clients.
    Binary(BinaryInputContent<'a>),
}

/// The `type` of a content part.
///
/// ```
/// use agui_wire::InputContentKind;
/// assert_eq!(InputContentKind::from_name("document"), Some(InputContentKind::Document));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputContentKind {
    /// `text`
    Text,
    /// `image`
    Image,
    /// `audio`
    Audio,
    /// `video`
    Video,
    /// `document`
    Document,
    /// `binary`
    Binary,
}

impl InputContentKind {
    /// The wire value.
    ///
    /// ```
    /// # use agui_wire::InputContentKind;
    /// assert_eq!(InputContentKind::Binary.as_str(), "binary");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            InputContentKind::Text => "text",
            InputContentKind::Image => "image",
            InputContentKind::Audio => "audio",
            InputContentKind::Video => "video",
            InputContentKind::Document => "document",
            InputContentKind::Binary => "binary",
        }
    }

    /// Reads a wire value.
    ///
    /// ```
    /// # use agui_wire::InputContentKind;
    /// assert_eq!(InputContentKind::from_name("pdf"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<InputContentKind> {
        Some(match name {
            "text" => InputContentKind::Text,
            "image" => InputContentKind::Image,
            "audio" => InputContentKind::Audio,
            "video" => InputContentKind::Video,
            "document" => InputContentKind::Document,
            "binary" => InputContentKind::Binary,
            _ => return None,
        })
    }
}

impl<'a> InputContent<'a> {
    /// The part's `type`.
    ///
    /// ```
    /// # use agui_wire::{InputContent, InputContentKind, MediaInputContent};
    /// assert_eq!(InputContent::Video(MediaInputContent::default()).kind(), InputContentKind::Video);
    /// ```
    pub fn kind(&self) -> InputContentKind {
        match self {
            InputContent::Text(_) => InputContentKind::Text,
            InputContent::Image(_) => InputContentKind::Image,
            InputContent::Audio(_) => InputContentKind::Audio,
            InputContent::Video(_) => InputContentKind::Video,
            InputContent::Document(_) => InputContentKind::Document,
            InputContent::Binary(_) => InputContentKind::Binary,
        }
    }

    /// The media part (image, audio, video, document), if this is one.
    ///
    /// ```
    /// # use agui_wire::{InputContent, MediaInputContent};
    /// assert!(InputContent::Image(MediaInputContent::default()).as_media().is_some());
    /// ```
    pub fn as_media(&self) -> Option<&MediaInputContent<'a>> {
        match self {
            InputContent::Image(m)
            | InputContent::Audio(m)
            | InputContent::Video(m)
            | InputContent::Document(m) => Some(m),
            _ => None,
        }
    }

    /// The part's `metadata`, if any.
    ///
    /// ```
    /// # use agui_wire::{InputContent, TextInputContent};
    /// assert!(InputContent::Text(TextInputContent::default()).metadata().is_none());
    /// ```
    pub fn metadata(&self) -> Option<&RawJson<'a>> {
        match self {
            InputContent::Text(t) => t.metadata.as_ref(),
            InputContent::Binary(_) => None,
            InputContent::Image(m)
            | InputContent::Audio(m)
            | InputContent::Video(m)
            | InputContent::Document(m) => m.metadata.as_ref(),
        }
    }

    /// Copies everything borrowed from the input.
    ///
    /// ```
    /// # use agui_wire::{InputContent, TextInputContent};
    /// let p: InputContent<'static> = InputContent::Text(TextInputContent::default()).into_owned();
    /// ```
    pub fn into_owned(self) -> InputContent<'static> {
        match self {
            InputContent::Text(t) => InputContent::Text(t.into_owned()),
            InputContent::Image(m) => InputContent::Image(m.into_owned()),
            InputContent::Audio(m) => InputContent::Audio(m.into_owned()),
            InputContent::Video(m) => InputContent::Video(m.into_owned()),
            InputContent::Document(m) => InputContent::Document(m.into_owned()),
            InputContent::Binary(b) => InputContent::Binary(b.into_owned()),
        }
    }
}

/// `type: "text"`: a text part.
///
/// ```
/// use agui_wire::{TextInputContent, Str};
/// let t = TextInputContent { text: Str::new("What is shown here?"), ..Default::default() };
/// assert_eq!(t.text, "What is shown here?");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TextInputContent<'a> {
    /// `id` (new in 1.0).
    pub id: Option<Str<'a>>,
    /// `text`
    pub text: Str<'a>,
    /// `metadata`: any JSON except `null`.
    pub metadata: Option<RawJson<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(TextInputContent {
    id,
    text,
    metadata,
    extra
});

impl TextInputContent<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &["type", "id", "text", "metadata"];
}

/// An image, audio, video or document part: a source and optional metadata.
///
/// ```
/// use agui_wire::{MediaInputContent, InputContentSource, UrlSource, Str};
/// let image = MediaInputContent {
///     source: InputContentSource::Url(UrlSource { value: Str::new("https://example.com/ui.png"),
///         mime_type: Some(Str::new("image/png")), ..Default::default() }),
///     ..Default::default()
/// };
/// assert_eq!(image.source.mime_type().unwrap(), "image/png");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MediaInputContent<'a> {
    /// `id` (new in 1.0).
    pub id: Option<Str<'a>>,
    /// `source`: where the bytes are.
    pub source: InputContentSource<'a>,
    /// `metadata`: modality-specific metadata, any JSON except `null`.
    pub metadata: Option<RawJson<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(MediaInputContent {
    id,
    source,
    metadata,
    extra
});

impl MediaInputContent<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &["type", "id", "source", "metadata"];
}

/// `type: "binary"`: the deprecated pre-1.0 part (mime type plus an id, a URL or inline data).
///
/// ```
/// use agui_wire::{BinaryInputContent, Str};
/// let b = BinaryInputContent { mime_type: Str::new("application/octet-stream"),
///     data: Some(Str::new("AAECAwQ=")), filename: Some(Str::new("payload.bin")), ..Default::default() };
/// assert_eq!(b.filename.unwrap(), "payload.bin");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BinaryInputContent<'a> {
    /// `mimeType`
    pub mime_type: Str<'a>,
    /// `id`
    pub id: Option<Str<'a>>,
    /// `url`
    pub url: Option<Str<'a>>,
    /// `data`: inline base64.
    pub data: Option<Str<'a>>,
    /// `filename`
    pub filename: Option<Str<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(BinaryInputContent {
    mime_type,
    id,
    url,
    data,
    filename,
    extra
});

impl BinaryInputContent<'_> {
    pub(crate) const FIELDS: &'static [&'static str] =
        &["type", "mimeType", "id", "url", "data", "filename"];
}

/// Where a media part's bytes are, discriminated by `type`.
///
/// ```
/// use agui_wire::{InputContentSource, DataSource, Str};
/// let s = InputContentSource::Data(DataSource { value: Str::new("iVBORw0KGgo="),
///     mime_type: Str::new("image/png"), ..Default::default() });
/// assert_eq!(s.type_name(), "data");
/// assert_eq!(s.value(), &"iVBORw0KGgo=");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum InputContentSource<'a> {
    /// `type: "data"`: inline base64.
    Data(DataSource<'a>),
    /// `type: "url"`: an HTTP(S) URL or a `data:` URL.
    Url(UrlSource<'a>),
    /// `type: "file"`: a file id at a provider (new in 1.0).
    File(FileSource<'a>),
}

impl Default for InputContentSource<'_> {
    fn default() -> Self {
        InputContentSource::Url(UrlSource::default())
    }
}

impl<'a> InputContentSource<'a> {
    /// The source's `type`.
    ///
    /// ```
    /// # use agui_wire::{InputContentSource, FileSource};
    /// assert_eq!(InputContentSource::File(FileSource::default()).type_name(), "file");
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            InputContentSource::Data(_) => "data",
            InputContentSource::Url(_) => "url",
            InputContentSource::File(_) => "file",
        }
    }

    /// The source's `value` (base64, URL or file id).
    ///
    /// ```
    /// # use agui_wire::{InputContentSource, UrlSource, Str};
    /// let s = InputContentSource::Url(UrlSource { value: Str::new("https://x/y.wav"), ..Default::default() });
    /// assert_eq!(s.value(), &"https://x/y.wav");
    /// ```
    pub fn value(&self) -> &Str<'a> {
        match self {
            InputContentSource::Data(d) => &d.value,
            InputContentSource::Url(u) => &u.value,
            InputContentSource::File(f) => &f.value,
        }
    }

    /// The declared `mimeType`, if any.
    ///
    /// ```
    /// # use agui_wire::{InputContentSource, UrlSource};
    /// assert!(InputContentSource::Url(UrlSource::default()).mime_type().is_none());
    /// ```
    pub fn mime_type(&self) -> Option<&Str<'a>> {
        match self {
            InputContentSource::Data(d) => Some(&d.mime_type),
            InputContentSource::Url(u) => u.mime_type.as_ref(),
            InputContentSource::File(f) => f.mime_type.as_ref(),
        }
    }

    /// Copies everything borrowed from the input.
    ///
    /// ```
    /// # use agui_wire::InputContentSource;
    /// let s: InputContentSource<'static> = InputContentSource::default().into_owned();
    /// ```
    pub fn into_owned(self) -> InputContentSource<'static> {
        match self {
            InputContentSource::Data(d) => InputContentSource::Data(d.into_owned()),
            InputContentSource::Url(u) => InputContentSource::Url(u.into_owned()),
            InputContentSource::File(f) => InputContentSource::File(f.into_owned()),
        }
    }
}

/// `type: "data"`: inline base64 bytes; `mimeType` is required.
///
/// ```
/// use agui_wire::{DataSource, Str};
/// let d = DataSource { value: Str::new("AAEC"), mime_type: Str::new("application/pdf"), ..Default::default() };
/// assert_eq!(d.mime_type, "application/pdf");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DataSource<'a> {
    /// `value`: the base64 payload.
    pub value: Str<'a>,
    /// `mimeType`
    pub mime_type: Str<'a>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(DataSource {
    value,
    mime_type,
    extra
});

impl DataSource<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &["type", "value", "mimeType"];
}

/// `type: "url"`: a URL (HTTP(S) or `data:`); `mimeType` is optional.
///
/// ```
/// use agui_wire::{UrlSource, Str};
/// let u = UrlSource { value: Str::new("https://example.com/meeting.wav"), ..Default::default() };
/// assert!(u.mime_type.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UrlSource<'a> {
    /// `value`: the URL.
    pub value: Str<'a>,
    /// `mimeType`
    pub mime_type: Option<Str<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(UrlSource {
    value,
    mime_type,
    extra
});

impl UrlSource<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &["type", "value", "mimeType"];
}

/// `type: "file"`: a file held by a provider (new in 1.0).
///
/// ```
/// use agui_wire::{FileSource, Str};
/// let f = FileSource { value: Str::new("file-abc"), provider: Some(Str::new("openai")), ..Default::default() };
/// assert_eq!(f.provider.unwrap(), "openai");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FileSource<'a> {
    /// `value`: the provider's file id.
    pub value: Str<'a>,
    /// `provider`
    pub provider: Option<Str<'a>>,
    /// `mimeType`
    pub mime_type: Option<Str<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(FileSource {
    value,
    provider,
    mime_type,
    extra
});

impl FileSource<'_> {
    pub(crate) const FIELDS: &'static [&'static str] = &["type", "value", "provider", "mimeType"];
}
