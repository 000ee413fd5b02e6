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

mod deserialize;
mod tagged;
pub(crate) use deserialize::*;
pub(crate) use tagged::*;

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
