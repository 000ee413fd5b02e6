//! serde integration: `Serialize` for every model type (the same bytes the writer produces,
//! for documents with canonical escapes) and `Deserialize<'de>` for every model type, borrowing
//! from the deserializer where it can.
//!
//! # Serialize
//! Objects are serialized as maps, in the order the writer uses (the recorded wire order, else
//! the protocol's), with unknown fields in place. Strings are serialized as their unescaped
//! text, so the serializer re-escapes them: with `serde_json` that gives the writer's bytes
//! unless the input used non-canonical escapes (`\u0041`, `\/`), which the writer keeps
//! verbatim. JSON-valued fields ([`RawJson`]) are serialized as
//! [`serde_json::value::RawValue`]s (minified when they held whitespace), which `serde_json`
//! writes verbatim; like `RawValue`, they only make sense to `serde_json`'s serializers.
//!
//! ```
//! use agui_wire::{RunAgentInput, Bump};
//! let arena = Bump::new();
//! let body = br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"a\"b"}],"state":{"n": 1},"x":[true]}"#;
//! let input = RunAgentInput::parse(body, &arena)?;
//! assert_eq!(serde_json::to_vec(&input).unwrap(), agui_wire::to_vec(&input));
//! # Ok::<(), agui_wire::Error>(())
//! ```
//!
//! # Deserialize
//! The borrowed types load through any self-describing deserializer, with the protocol's rules
//! (required fields, `role` and `type` discriminators anywhere in their object, no `null` for
//! an optional field, `metadata` an object, ...) checked as the parser checks them. Strings
//! borrow from the deserializer's input when it offers them borrowed (`serde_json::from_str`,
//! `simd_json::serde::from_slice`) and need no escaping. JSON-valued fields borrow their text
//! through `serde_json`'s raw-value mechanism when the deserializer is `serde_json`'s; other
//! deserializers hand over values, which are written back into owned JSON text (numbers then
//! take their shortest form: `1e2` becomes `100.0`). Unknown fields are kept, in order.
//!
//! ```
//! use agui_wire::{RunAgentInput, Message, Bump};
//! let json = r#"{"threadId":"t","runId":"r","messages":[{"id":"m","role":"user","content":"hi"}],"state":{"a": 1}}"#;
//! let input: RunAgentInput = serde_json::from_str(json).unwrap();
//! assert_eq!(input.state.as_ref().unwrap().text(), r#"{"a": 1}"#);
//! assert!(agui_wire::offset_in(json.as_bytes(), input.thread_id.raw().as_bytes()).is_some());
//! let arena = Bump::new();
//! assert_eq!(input, RunAgentInput::parse(json.as_bytes(), &arena).unwrap());
//!
//! let mut bytes = json.as_bytes().to_vec();
//! let again: RunAgentInput = simd_json::serde::from_slice(&mut bytes).unwrap();
//! assert!(matches!(again.messages[0], Message::User(_)));
//!
//! let err = serde_json::from_str::<RunAgentInput>(r#"{"threadId":"t","messages":[]}"#).unwrap_err();
//! assert!(err.to_string().contains("missing field `runId`"));
//! ```
//!
//! The types are `Deserialize<'de>` for every lifetime they may borrow, not
//! `DeserializeOwned`; from a reader (or a `serde_json::Value`), deserialize with `'de =
//! 'static` to get a value that owns its data:
//!
//! ```
//! use agui_wire::RunAgentInput;
//! use serde::Deserialize;
//! let body = r#"{"threadId":"t","runId":"r","messages":[]}"#;
//! let mut de = serde_json::Deserializer::from_reader(body.as_bytes());
//! let input: RunAgentInput<'static> = RunAgentInput::deserialize(&mut de).unwrap();
//! assert_eq!(input.run_id, "r");
//! ```

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use smallvec::SmallVec;

use crate::model::*;
use crate::model::{EXTRA_BASE, minify_into};
use crate::writer::{ObjectView, Slot, for_each_slot};

/// The name `serde_json` gives its raw values (`serde_json::value::RawValue`) on both sides of
/// serde: a newtype struct of this name asks a `serde_json` deserializer for the value's text,
/// and a struct of this name with one field of this name makes a `serde_json` serializer
/// write that text verbatim.
pub(crate) const RAW_TOKEN: &str = "$serde_json::private::RawValue";

/// Deepest nesting a value from a non-`serde_json` deserializer may have.
const MAX_DEPTH: usize = 512;

// ---------------------------------------------------------------------------------------------
// Serialize

/// Serializes a model object as a map, in the writer's order.
pub(crate) fn ser_object<'d, V: ObjectView<'d>, S: Serializer>(
    v: V,
    s: S,
) -> Result<S::Ok, S::Error> {
    let names = v.names();
    let extra = v.extra();
    let present = v.present();
    let len = present.count_ones() as usize + extra.fields().len();
    let mut map = s.serialize_map(Some(len))?;
    for_each_slot(names.len(), present, extra, |slot| match slot {
        Slot::Known(k) => v.ser_field(k, names.get(k).copied().unwrap_or_default(), &mut map),
        Slot::Extra(i) => match extra.fields().get(i) {
            Some(f) => map.serialize_entry(&*f.key.unescaped(), &f.value),
            None => Ok(()),
        },
    })?;
    map.end()
}

impl Serialize for Str<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.as_plain() {
            Some(text) => s.serialize_str(text),
            None => s.serialize_str(&self.unescaped()),
        }
    }
}

/// Hands `text` (compact, valid JSON) to the serializer as a raw value.
fn serialize_raw_text<S: Serializer>(text: &str, s: S) -> Result<S::Ok, S::Error> {
    let mut st = s.serialize_struct(RAW_TOKEN, 1)?;
    st.serialize_field(RAW_TOKEN, text)?;
    st.end()
}

impl Serialize for RawJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.is_compact() {
            serialize_raw_text(self.text(), s)
        } else {
            let mut out = Vec::with_capacity(self.as_bytes().len());
            minify_into(self.as_bytes(), &mut out);
            match String::from_utf8(out) {
                Ok(text) => serialize_raw_text(&text, s),
                Err(_) => Err(serde::ser::Error::custom("raw JSON is not UTF-8")),
            }
        }
    }
}

impl<T: Serialize> Serialize for List<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// The unknown fields, as a map in order.
impl Serialize for Extra<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.fields().len()))?;
        for f in self.fields() {
            map.serialize_entry(&*f.key.unescaped(), &f.value)?;
        }
        map.end()
    }
}

/// One unknown field, as a map with one entry.
impl Serialize for Field<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry(&*self.key.unescaped(), &self.value)?;
        map.end()
    }
}

macro_rules! name_enum {
    ($ty:ty, $expected:literal, [$($name:literal),*], $as_str:expr, $from:expr) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let f: fn(&$ty) -> &'static str = $as_str;
                s.serialize_str(f(self))
            }
        }
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = Str::deserialize(d)?;
                name_from_str(&s)
            }
        }
        impl<'de> FromRaw<'de> for $ty {
            fn from_raw_json<E: de::Error>(raw: RawJson<'de>) -> Result<Self, E> {
                name_from_str(&Str::from_raw_json::<E>(raw)?)
            }
        }
        impl crate::writer::WriteJson for $ty {
            fn write_json<'d, S: crate::writer::Sink<'d>>(&'d self, out: &mut S) {
                let f: fn(&$ty) -> &'static str = $as_str;
                crate::writer::write_tag(f(self), out);
            }
        }
        impl NameEnum for $ty {
            const NAMES: &'static [&'static str] = &[$($name),*];
            fn from_name(name: &str) -> Option<Self> {
                let f: fn(&str) -> Option<$ty> = $from;
                f(name)
            }
        }
    };
}

/// An enum written as one of a few names.
trait NameEnum: Sized {
    const NAMES: &'static [&'static str];
    fn from_name(name: &str) -> Option<Self>;
}

fn name_from_str<T: NameEnum, E: de::Error>(s: &Str<'_>) -> Result<T, E> {
    let text = s.unescaped();
    T::from_name(&text).ok_or_else(|| E::unknown_variant(&text, T::NAMES))
}

name_enum!(
    Role,
    "a role",
    [
        "developer",
        "system",
        "assistant",
        "user",
        "tool",
        "activity",
        "reasoning"
    ],
    |r| r.as_str(),
    Role::from_name
);
name_enum!(
    InputContentKind,
    "a content part type",
    ["text", "image", "audio", "video", "document", "binary"],
    |k| k.as_str(),
    InputContentKind::from_name
);
name_enum!(
    ResumeStatus,
    "a resume status",
    ["resolved", "cancelled"],
    |s| s.as_str(),
    ResumeStatus::from_name
);
name_enum!(
    JsonKind,
    "a JSON kind",
    ["null", "boolean", "number", "string", "array", "object"],
    |k| match k {
        JsonKind::Null => "null",
        JsonKind::Bool => "boolean",
        JsonKind::Number => "number",
        JsonKind::String => "string",
        JsonKind::Array => "array",
        JsonKind::Object => "object",
    },
    |s| Some(match s {
        "null" => JsonKind::Null,
        "boolean" => JsonKind::Bool,
        "number" => JsonKind::Number,
        "string" => JsonKind::String,
        "array" => JsonKind::Array,
        "object" => JsonKind::Object,
        _ => return None,
    })
);

// ---------------------------------------------------------------------------------------------
// Deserialize: the building blocks

/// A string from the deserializer: borrowed when it can be.
pub(crate) struct Key<'de>(pub(crate) Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> Key<'de> {
    /// The key as a model string (escaped if needed).
    pub(crate) fn into_str(self) -> Str<'de> {
        match self.0 {
            Cow::Borrowed(s) => Str::new(s),
            Cow::Owned(s) => Str::new(&s).into_owned(),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Str<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Str<'de>, E> {
                Ok(Str::new(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Str<'de>, E> {
                Ok(Str::new(v).into_owned())
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for RawJson<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_newtype_struct(RAW_TOKEN, RawVisitor)
    }
}

/// Reads a [`RawJson`]: the text itself from `serde_json` (a map with the raw-value token as
/// its only key), a value written back to JSON text from anything else.
struct RawVisitor;

fn raw_from_key<E: de::Error>(text: Key<'_>) -> Result<RawJson<'_>, E> {
    match text.0 {
        Cow::Borrowed(t) => RawJson::from_text(t).map_err(E::custom),
        Cow::Owned(t) => RawJson::from_string(t).map_err(E::custom),
    }
}

fn raw_from_transcoded<E: de::Error>(
    f: impl FnOnce(&mut String) -> Result<(), E>,
) -> Result<RawJson<'static>, E> {
    let mut out = String::new();
    f(&mut out)?;
    RawJson::from_string(out).map_err(E::custom)
}

impl<'de> Visitor<'de> for RawVisitor {
    type Value = RawJson<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawJson<'de>, A::Error> {
        let Some(first) = map.next_key::<Key<'de>>()? else {
            return Ok(RawJson::from_validated("{}", JsonKind::Object, true));
        };
        if first.0 == RAW_TOKEN {
            let text: Key<'de> = map.next_value()?;
            return raw_from_key(text);
        }
        // A real map, from a deserializer that sends newtype structs to `deserialize_any`.
        raw_from_transcoded(|out| transcode_map(Some(first), &mut map, out, 1))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<RawJson<'de>, D::Error> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.deserialize(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<RawJson<'de>, A::Error> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.visit_seq(seq))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<RawJson<'de>, E> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.visit_bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawJson<'de>, E> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.visit_i64(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawJson<'de>, E> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.visit_u64(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawJson<'de>, E> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.visit_f64(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<RawJson<'de>, E> {
        raw_from_transcoded(|out| Transcode { out, depth: 0 }.visit_str(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<RawJson<'de>, E> {
        Ok(RawJson::null())
    }

    fn visit_none<E: de::Error>(self) -> Result<RawJson<'de>, E> {
        Ok(RawJson::null())
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<RawJson<'de>, D::Error> {
        d.deserialize_newtype_struct(RAW_TOKEN, RawVisitor)
    }
}

/// Writes whatever value the deserializer hands over as compact JSON text.
struct Transcode<'o> {
    out: &'o mut String,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for Transcode<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

fn push_json_string(text: &str, out: &mut String) {
    out.push('"');
    escape_into(text, out);
    out.push('"');
}

fn transcode_map<'de, A: MapAccess<'de>>(
    first: Option<Key<'de>>,
    map: &mut A,
    out: &mut String,
    depth: usize,
) -> Result<(), A::Error> {
    if depth > MAX_DEPTH {
        return Err(de::Error::custom(format_args!(
            "JSON nested deeper than {MAX_DEPTH} levels"
        )));
    }
    out.push('{');
    let mut key = first;
    if key.is_none() {
        key = map.next_key::<Key<'de>>()?;
    }
    let mut n = 0;
    while let Some(k) = key {
        if n > 0 {
            out.push(',');
        }
        n += 1;
        push_json_string(&k.0, out);
        out.push(':');
        map.next_value_seed(Transcode {
            out: &mut *out,
            depth,
        })?;
        key = map.next_key::<Key<'de>>()?;
    }
    out.push('}');
    Ok(())
}

impl<'de> Visitor<'de> for Transcode<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<(), E> {
        let _ = write!(self.out, "{v}");
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        match serde_json::Number::from_f64(v) {
            Some(n) => {
                let _ = write!(self.out, "{n}");
                Ok(())
            }
            None => Err(E::custom("a JSON number must be finite")),
        }
    }
    fn visit_char<E: de::Error>(self, v: char) -> Result<(), E> {
        push_json_string(v.encode_utf8(&mut [0; 4]), self.out);
        Ok(())
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        push_json_string(v, self.out);
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.out.push_str("null");
        Ok(())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.out.push_str("null");
        Ok(())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let depth = self.depth + 1;
        if depth > MAX_DEPTH {
            return Err(de::Error::custom(format_args!(
                "JSON nested deeper than {MAX_DEPTH} levels"
            )));
        }
        self.out.push('[');
        let mut n = 0;
        loop {
            let mark = self.out.len();
            if n > 0 {
                self.out.push(',');
            }
            let more = seq.next_element_seed(Transcode {
                out: &mut *self.out,
                depth,
            })?;
            if more.is_none() {
                self.out.truncate(mark);
                break;
            }
            n += 1;
        }
        self.out.push(']');
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        transcode_map(None, &mut map, self.out, self.depth + 1)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for List<'_, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(d).map(List::from)
    }
}

/// A map of unknown fields (every key is kept as unknown).
impl<'de: 'a, 'a> Deserialize<'de> for Extra<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Extra<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Extra<'de>, A::Error> {
                let mut b = ObjectBuilder::default();
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    let value = map.next_value()?;
                    b.unknown::<A::Error>(key, value)?;
                }
                Ok(b.finish())
            }
        }
        d.deserialize_map(V)
    }
}

/// A map with exactly one entry.
impl<'de: 'a, 'a> Deserialize<'de> for Field<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let extra = Extra::deserialize(d)?;
        match extra.fields() {
            [f] => Ok(f.clone()),
            _ => Err(de::Error::invalid_length(
                extra.fields().len(),
                &"an object with one entry",
            )),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Deserialize: objects

/// Collects the unknown fields of an object and its wire order, and rejects duplicate known
/// fields, as the parser does.
#[derive(Default)]
pub(crate) struct ObjectBuilder<'de> {
    seen: u64,
    order: SmallVec<[u32; 16]>,
    non_canonical: bool,
    last_known: Option<u32>,
    extras: Vec<Field<'de>>,
}

impl<'de> ObjectBuilder<'de> {
    /// Records known field `id`; a second occurrence is an error.
    pub(crate) fn known<E: de::Error>(
        &mut self,
        id: usize,
        names: &'static [&'static str],
    ) -> Result<(), E> {
        let bit = 1u64 << (id & 63);
        if self.seen & bit != 0 {
            return Err(E::duplicate_field(
                names.get(id).copied().unwrap_or_default(),
            ));
        }
        self.seen |= bit;
        let id32 = id as u32;
        if !self.extras.is_empty() || self.last_known.is_some_and(|l| l > id32) {
            self.non_canonical = true;
        }
        self.last_known = Some(id32);
        self.order.push(id32);
        Ok(())
    }

    /// Keeps an unknown field.
    pub(crate) fn unknown<E: de::Error>(
        &mut self,
        key: Key<'de>,
        value: RawJson<'de>,
    ) -> Result<(), E> {
        let i = self.extras.len();
        if i >= (u32::MAX - EXTRA_BASE) as usize {
            return Err(E::custom(format_args!(
                "more than {} unknown fields in one object",
                u32::MAX - EXTRA_BASE
            )));
        }
        self.order.push(EXTRA_BASE + i as u32);
        self.extras.push(Field {
            key: key.into_str(),
            value,
        });
        Ok(())
    }

    pub(crate) fn finish(self) -> Extra<'de> {
        Extra {
            fields: if self.extras.is_empty() {
                List::new()
            } else {
                List::from(self.extras)
            },
            order: if self.non_canonical {
                List::from(self.order.into_vec())
            } else {
                List::new()
            },
        }
    }
}

/// Position of `key` among `names`.
pub(crate) fn field_id(names: &[&str], key: &Key<'_>) -> Option<usize> {
    names.iter().position(|n| *n == key.0)
}

/// Fields read before an object's discriminator, kept raw until its kind is known.
pub(crate) type Pending<'de> = Vec<(Key<'de>, RawJson<'de>)>;

/// Reads an object discriminated by `tag` (which may come anywhere): fields before it are kept
/// raw; `then` gets the index of the tag's value in `kinds`, the map and those fields.
pub(crate) fn de_tagged<'de, A: MapAccess<'de>, T>(
    map: &mut A,
    tag: &'static str,
    kinds: &'static [&'static str],
    then: impl FnOnce(usize, &mut A, Pending<'de>) -> Result<T, A::Error>,
) -> Result<T, A::Error> {
    let mut pending = Pending::new();
    while let Some(key) = map.next_key::<Key<'de>>()? {
        if key.0 == tag {
            let v: Str<'de> = map.next_value()?;
            let text = v.unescaped();
            let i = kinds
                .iter()
                .position(|k| *k == text)
                .ok_or_else(|| de::Error::unknown_variant(&text, kinds))?;
            return then(i, map, pending);
        }
        let raw: RawJson<'de> = map.next_value()?;
        pending.push((key, raw));
    }
    Err(de::Error::missing_field(tag))
}

/// Checks a discriminator met inside an object whose kind is already fixed.
pub(crate) fn check_tag<'de, A: MapAccess<'de>>(
    map: &mut A,
    allowed: &'static [&'static str],
) -> Result<(), A::Error> {
    let v: Str<'de> = map.next_value()?;
    if allowed.iter().any(|a| v.eq_text(a)) {
        Ok(())
    } else {
        Err(de::Error::unknown_variant(&v.unescaped(), allowed))
    }
}

/// What a JSON-valued field must hold.
#[derive(Clone, Copy)]
pub(crate) enum Check {
    /// Anything but `null`.
    NonNull,
    /// An object.
    Object,
}

pub(crate) fn check_raw<E: de::Error>(
    v: &RawJson<'_>,
    check: Check,
    field: &'static str,
) -> Result<(), E> {
    match check {
        Check::NonNull if v.is_null() => Err(E::custom(format_args!(
            "`{field}` may be absent but not null"
        ))),
        Check::Object if v.kind() != JsonKind::Object => Err(E::custom(format_args!(
            "`{field}` must be an object, found {}",
            v.kind().name()
        ))),
        _ => Ok(()),
    }
}

pub(crate) fn check_function<E: de::Error>(v: &Str<'_>) -> Result<(), E> {
    if v.eq_text("function") {
        Ok(())
    } else {
        Err(E::unknown_variant(&v.unescaped(), &["function"]))
    }
}

// ---------------------------------------------------------------------------------------------
// Reading a value that was kept raw (a field before the discriminator).

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

// ---------------------------------------------------------------------------------------------
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
