//! The tagged enums (`Message`, `Content`, `InputContent`, ...): their discriminator may come
//! after other fields, so those are kept raw and read back ([`FromRaw`]) once the kind is known.

use super::*;

/// A model value read back from a [`RawJson`] kept while an object's kind was unknown.
pub(crate) trait FromRaw<'de>: Sized {
    fn from_raw_json<E: de::Error>(raw: RawJson<'de>) -> Result<Self, E>;
}

fn wrong_kind<E: de::Error>(raw: &RawJson<'_>, expected: &'static str) -> E {
    E::invalid_type(Unexpected::Other(raw.kind().name()), &expected)
}

impl<'de> FromRaw<'de> for Str<'de> {
    fn from_raw_json<E: de::Error>(raw: RawJson<'de>) -> Result<Self, E> {
        if raw.kind() != JsonKind::String {
            return Err(wrong_kind(&raw, "a string"));
        }
        let inner = |t: &str| -> Option<(usize, usize, bool)> {
            let end = t.len().checked_sub(1)?;
            let body = t.get(1..end)?;
            Some((1, end, body.contains('\\')))
        };
        match raw.borrowed_text() {
            Some(t) => {
                let (a, b, escaped) = inner(t).ok_or_else(|| E::custom("bad string"))?;
                Ok(Str::from_validated(
                    t.get(a..b).unwrap_or_default(),
                    escaped,
                ))
            }
            None => {
                let t = raw.text();
                let (a, b, escaped) = inner(t).ok_or_else(|| E::custom("bad string"))?;
                Ok(Str::from_validated(t.get(a..b).unwrap_or_default(), escaped).into_owned())
            }
        }
    }
}

impl<'de> FromRaw<'de> for RawJson<'de> {
    fn from_raw_json<E: de::Error>(raw: RawJson<'de>) -> Result<Self, E> {
        Ok(raw)
    }
}

impl<'de> FromRaw<'de> for bool {
    fn from_raw_json<E: de::Error>(raw: RawJson<'de>) -> Result<Self, E> {
        match raw.text() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(wrong_kind(&raw, "a boolean")),
        }
    }
}

impl<'de> FromRaw<'de> for u64 {
    fn from_raw_json<E: de::Error>(raw: RawJson<'de>) -> Result<Self, E> {
        raw.text()
            .parse()
            .map_err(|_| wrong_kind(&raw, "a non-negative integer"))
    }
}

impl<'de, T: FromRaw<'de>> FromRaw<'de> for List<'de, T> {
    fn from_raw_json<E: de::Error>(raw: RawJson<'de>) -> Result<Self, E> {
        if raw.kind() != JsonKind::Array {
            return Err(wrong_kind(&raw, "an array"));
        }
        let mut items = Vec::new();
        match raw.borrowed_text() {
            Some(t) => {
                let parts: Vec<&'de serde_json::value::RawValue> =
                    serde_json::from_str(t).map_err(E::custom)?;
                for p in parts {
                    items.push(T::from_raw_json(
                        RawJson::from_text(p.get()).map_err(E::custom)?,
                    )?);
                }
            }
            None => {
                let parts: Vec<&serde_json::value::RawValue> =
                    serde_json::from_str(raw.text()).map_err(E::custom)?;
                for p in parts {
                    let owned = RawJson::from_string(p.get().to_owned()).map_err(E::custom)?;
                    items.push(T::from_raw_json(owned)?);
                }
            }
        }
        Ok(List::from(items))
    }
}

/// `FromRaw` through `serde_json` for a model type with `into_owned`.
macro_rules! from_raw_via_json {
    ($($ty:ident),* $(,)?) => {$(
        impl<'de> FromRaw<'de> for $ty<'de> {
            fn from_raw_json<E: de::Error>(raw: RawJson<'de>) -> Result<Self, E> {
                match raw.borrowed_text() {
                    Some(t) => serde_json::from_str::<$ty<'de>>(t).map_err(E::custom),
                    None => serde_json::from_str::<$ty<'_>>(raw.text())
                        .map($ty::into_owned)
                        .map_err(E::custom),
                }
            }
        }
    )*};
}
pub(crate) use from_raw_via_json;

from_raw_via_json!(Message, InputContent, InputContentSource);

// The enums

impl<'de> FromRaw<'de> for Content<'de> {
    fn from_raw_json<E: de::Error>(raw: RawJson<'de>) -> Result<Self, E> {
        match raw.kind() {
            JsonKind::String => Str::from_raw_json(raw).map(Content::Text),
            JsonKind::Array => List::from_raw_json(raw).map(Content::Parts),
            _ => Err(wrong_kind(&raw, "a string or an array of content parts")),
        }
    }
}

impl Serialize for Content<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Content::Text(t) => t.serialize(s),
            Content::Parts(p) => p.serialize(s),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Content<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or an array of content parts")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Content<'de>, E> {
                Ok(Content::Text(Str::new(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Content<'de>, E> {
                Ok(Content::Text(Str::new(v).into_owned()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content<'de>, A::Error> {
                let mut parts = Vec::new();
                while let Some(p) = seq.next_element::<InputContent<'de>>()? {
                    parts.push(p);
                }
                Ok(Content::Parts(List::from(parts)))
            }
        }
        d.deserialize_any(V)
    }
}

/// `Deserialize` for an enum read from an object discriminated by `$tag` (see [`de_tagged`]):
/// `|i, map, pending, tag| arms` reads the rest of the object for the tag's value at index `i`
/// of `$kinds` (`tag` is `Some($tag)`, to pass on to `de_rest`).
macro_rules! de_tagged_enum {
    ($ty:ident, $expecting:literal, $tag:literal, $kinds:expr,
     |$i:ident, $map:ident, $pending:ident, $tag_var:ident| $arms:expr) => {
        impl<'de: 'a, 'a> Deserialize<'de> for $ty<'a> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $ty<'de>;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_map<A: MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<$ty<'de>, A::Error> {
                        de_tagged(&mut map, $tag, $kinds, |$i, $map, $pending| {
                            let $tag_var = Some($tag);
                            Ok($arms)
                        })
                    }
                }
                d.deserialize_map(V)
            }
        }
    };
}

impl Serialize for Message<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Message::Developer(m) => m.serialize(s),
            Message::System(m) => m.serialize(s),
            Message::Assistant(m) => m.serialize(s),
            Message::User(m) => m.serialize(s),
            Message::Tool(m) => m.serialize(s),
            Message::Activity(m) => m.serialize(s),
            Message::Reasoning(m) => m.serialize(s),
        }
    }
}

de_tagged_enum!(
    Message,
    "a message object",
    "role",
    Role::NAMES,
    |i, map, pending, tag| match i {
        0 => Message::Developer(DeveloperMessage::de_rest(map, pending, tag)?),
        1 => Message::System(SystemMessage::de_rest(map, pending, tag)?),
        2 => Message::Assistant(AssistantMessage::de_rest(map, pending, tag)?),
        3 => Message::User(UserMessage::de_rest(map, pending, tag)?),
        4 => Message::Tool(ToolMessage::de_rest(map, pending, tag)?),
        5 => Message::Activity(ActivityMessage::de_rest(map, pending, tag)?),
        _ => Message::Reasoning(ReasoningMessage::de_rest(map, pending, tag)?),
    }
);

impl Serialize for InputContent<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use crate::writer::WithTag;
        let (m, tag) = match self {
            InputContent::Text(t) => return t.serialize(s),
            InputContent::Binary(b) => return b.serialize(s),
            InputContent::Image(m) => (m, "image"),
            InputContent::Audio(m) => (m, "audio"),
            InputContent::Video(m) => (m, "video"),
            InputContent::Document(m) => (m, "document"),
        };
        ser_object(
            WithTag {
                inner: m,
                id: 0,
                tag,
            },
            s,
        )
    }
}

de_tagged_enum!(
    InputContent,
    "a content part object",
    "type",
    InputContentKind::NAMES,
    |i, map, pending, tag| match i {
        0 => InputContent::Text(TextInputContent::de_rest(map, pending, tag)?),
        1 => InputContent::Image(MediaInputContent::de_rest(map, pending, tag)?),
        2 => InputContent::Audio(MediaInputContent::de_rest(map, pending, tag)?),
        3 => InputContent::Video(MediaInputContent::de_rest(map, pending, tag)?),
        4 => InputContent::Document(MediaInputContent::de_rest(map, pending, tag)?),
        _ => InputContent::Binary(BinaryInputContent::de_rest(map, pending, tag)?),
    }
);

const SOURCE_TYPES: &[&str] = &["data", "url", "file"];

impl Serialize for InputContentSource<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            InputContentSource::Data(d) => d.serialize(s),
            InputContentSource::Url(u) => u.serialize(s),
            InputContentSource::File(f) => f.serialize(s),
        }
    }
}

de_tagged_enum!(
    InputContentSource,
    "a source object",
    "type",
    SOURCE_TYPES,
    |i, map, pending, tag| match i {
        0 => InputContentSource::Data(DataSource::de_rest(map, pending, tag)?),
        1 => InputContentSource::Url(UrlSource::de_rest(map, pending, tag)?),
        _ => InputContentSource::File(FileSource::de_rest(map, pending, tag)?),
    }
);

/// Skips a value.
pub(crate) fn skip_value<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<IgnoredAny>().map(|_| ())
}
