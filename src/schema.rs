//! The field table of every model object, in one place, and the code generated from it: the
//! writer's view of the object ([`crate::writer::WriteJson`]), `serde::Serialize` and
//! `serde::Deserialize`. One table per type keeps the three in step with the parser.
//!
//! A table row is `id => req|opt field: check`, where `id` indexes the type's JSON field names
//! (the same list the parser records the wire order with) and `check` says what a value must
//! be beyond its Rust type: `str`/`plain` (nothing more), `any` (any JSON, `null` included),
//! `nonnull` (any JSON but `null`), `object`, `func` (the string `"function"`).

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::model::*;
use crate::serde_impl::{
    Check, FromRaw, Key, ObjectBuilder, Pending, check_function, check_raw, check_tag, field_id,
    from_raw_via_json, ser_object, skip_value,
};
use crate::writer::{ObjectView, Sink, WithTag, WriteJson, write_object, write_tag};

/// A discriminator: its field id and the values it may take (one value: written by the type
/// itself; several: supplied by the enclosing enum).
type Tag = Option<(usize, &'static [&'static str])>;

const fn tag_present(tag: Tag) -> u64 {
    match tag {
        Some((id, [_])) => 1 << id,
        _ => 0,
    }
}

macro_rules! object {
    (
        $ty:ident, $names:expr, tag = $tag:expr $(, validate = $validate:path)?;
        $($k:literal => $req:ident $f:ident : $check:ident),* $(,)?
    ) => {
        impl<'d, 'a: 'd> ObjectView<'d> for &'d $ty<'a> {
            fn names(&self) -> &'static [&'static str] {
                $names
            }
            fn present(&self) -> u64 {
                let this: &'d $ty<'a> = *self;
                let mut p = tag_present($ty::WIRE_TAG);
                $( if object!(@present this $req $f) { p |= 1u64 << $k; } )*
                let _ = this;
                p
            }
            fn extra(&self) -> &'d Extra<'d> {
                let this: &'d $ty<'a> = *self;
                &this.extra
            }
            fn write_field<S: Sink<'d>>(&self, k: usize, out: &mut S) {
                let this: &'d $ty<'a> = *self;
                if let Some((id, vals)) = $ty::WIRE_TAG {
                    if k == id {
                        if let [v] = vals {
                            write_tag(v, out);
                        }
                        return;
                    }
                }
                match k {
                    $( $k => object!(@write this out $req $f), )*
                    _ => {}
                }
            }
            fn ser_field<M: SerializeMap>(
                &self,
                k: usize,
                name: &str,
                map: &mut M,
            ) -> Result<(), M::Error> {
                let this: &'d $ty<'a> = *self;
                if let Some((id, vals)) = $ty::WIRE_TAG {
                    if k == id {
                        return match vals {
                            [v] => map.serialize_entry(name, v),
                            _ => Ok(()),
                        };
                    }
                }
                match k {
                    $( $k => object!(@ser this map name $req $f), )*
                    _ => Ok(()),
                }
            }
        }

        impl WriteJson for $ty<'_> {
            fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
                write_object(self, out);
            }
        }

        impl Serialize for $ty<'_> {
            fn serialize<Z: Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
                ser_object(self, s)
            }
        }

        impl<'de: 'a, 'a> Deserialize<'de> for $ty<'a> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $ty<'de>;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!("a `", stringify!($ty), "` object"))
                    }
                    fn visit_map<A: MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<$ty<'de>, A::Error> {
                        $ty::de_rest(&mut map, Pending::new(), None)
                    }
                }
                d.deserialize_map(V)
            }
        }

        from_raw_via_json!($ty);

        impl<'de> $ty<'de> {
            const WIRE_TAG: Tag = $tag;

            /// Reads the rest of an object: `pending` fields (read raw before the
            /// discriminator `tag`, which the caller has consumed), then the map's entries.
            #[allow(unused_mut, unused_variables)]
            pub(crate) fn de_rest<A: MapAccess<'de>>(
                map: &mut A,
                pending: Pending<'de>,
                tag: Option<&str>,
            ) -> Result<Self, A::Error> {
                let names: &'static [&'static str] = $names;
                let name_of = |k: usize| names.get(k).copied().unwrap_or_default();
                let tag_id = Self::WIRE_TAG.map(|(id, _)| id);
                let mut ob = ObjectBuilder::default();
                $( let mut $f = None; )*
                for (key, raw) in pending {
                    match field_id(names, &key) {
                        Some(id) if Some(id) != tag_id => {
                            ob.known::<A::Error>(id, names)?;
                            match id {
                                $( $k => {
                                    let v = FromRaw::from_raw_json::<A::Error>(raw)?;
                                    object!(@check $check &v, name_of($k), A::Error);
                                    $f = Some(v);
                                } )*
                                _ => {}
                            }
                        }
                        Some(_) => {}
                        None => ob.unknown::<A::Error>(key, raw)?,
                    }
                }
                if let Some(tag) = tag {
                    if let Some(id) = names.iter().position(|n| *n == tag) {
                        ob.known::<A::Error>(id, names)?;
                    }
                }
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    match field_id(names, &key) {
                        Some(id) => {
                            ob.known::<A::Error>(id, names)?;
                            if let Some((t, allowed)) = Self::WIRE_TAG {
                                if t == id {
                                    check_tag(map, allowed)?;
                                    continue;
                                }
                            }
                            match id {
                                $( $k => {
                                    let v = map.next_value()?;
                                    object!(@check $check &v, name_of($k), A::Error);
                                    $f = Some(v);
                                } )*
                                _ => skip_value(map)?,
                            }
                        }
                        None => {
                            let v = map.next_value()?;
                            ob.unknown::<A::Error>(key, v)?;
                        }
                    }
                }
                $( object!(@final $req $f, name_of($k), A::Error); )*
                let value = $ty { $($f,)* extra: ob.finish() };
                $( $validate(&value).map_err(<A::Error as de::Error>::custom)?; )?
                Ok(value)
            }
        }
    };

    (@present $this:ident req $f:ident) => { true };
    (@present $this:ident opt $f:ident) => { $this.$f.is_some() };

    (@write $this:ident $out:ident req $f:ident) => { $this.$f.write_json($out) };
    (@write $this:ident $out:ident opt $f:ident) => {
        if let Some(v) = &$this.$f {
            v.write_json($out)
        }
    };

    (@ser $this:ident $map:ident $name:ident req $f:ident) => {
        $map.serialize_entry($name, &$this.$f)
    };
    (@ser $this:ident $map:ident $name:ident opt $f:ident) => {
        match &$this.$f {
            Some(v) => $map.serialize_entry($name, v),
            None => Ok(()),
        }
    };

    (@check str $v:expr, $n:expr, $E:ty) => {};
    (@check plain $v:expr, $n:expr, $E:ty) => {};
    (@check any $v:expr, $n:expr, $E:ty) => {};
    (@check nonnull $v:expr, $n:expr, $E:ty) => { check_raw::<$E>($v, Check::NonNull, $n)? };
    (@check object $v:expr, $n:expr, $E:ty) => { check_raw::<$E>($v, Check::Object, $n)? };
    (@check func $v:expr, $n:expr, $E:ty) => { check_function::<$E>($v)? };

    (@final req $f:ident, $n:expr, $E:ty) => {
        let $f = $f.ok_or_else(|| <$E as de::Error>::missing_field($n))?;
    };
    (@final opt $f:ident, $n:expr, $E:ty) => {};
}

// ---------------------------------------------------------------------------------------------
// RunAgentInput and its lists

object!(RunAgentInput, RunAgentInput::FIELDS, tag = None;
    0 => req thread_id: str,
    1 => req run_id: str,
    2 => opt protocol_version: str,
    3 => opt parent_run_id: str,
    4 => opt state: any,
    5 => req messages: plain,
    6 => opt tools: plain,
    7 => opt context: plain,
    8 => opt forwarded_props: nonnull,
    9 => opt resume: plain,
);

object!(Tool, Tool::FIELDS, tag = None;
    0 => req name: str,
    1 => opt description: str,
    2 => opt parameters: nonnull,
    3 => opt metadata: object,
);

object!(Context, Context::FIELDS, tag = None;
    0 => req description: str,
    1 => req value: str,
);

object!(ResumeEntry, ResumeEntry::FIELDS, tag = None;
    0 => req interrupt_id: str,
    1 => req status: plain,
    2 => opt payload: nonnull,
    3 => opt metadata: object,
);

// ---------------------------------------------------------------------------------------------
// Messages (ids index `Role::fields()`)

object!(DeveloperMessage, Role::Developer.fields(), tag = Some((2, &["developer"]));
    0 => opt subagent_run_id: str,
    1 => req id: str,
    3 => opt name: str,
    4 => opt encrypted_value: str,
    5 => opt metadata: object,
    6 => req content: str,
);

object!(SystemMessage, Role::System.fields(), tag = Some((2, &["system"]));
    0 => opt subagent_run_id: str,
    1 => req id: str,
    3 => opt name: str,
    4 => opt encrypted_value: str,
    5 => opt metadata: object,
    6 => req content: str,
);

object!(UserMessage, Role::User.fields(), tag = Some((2, &["user"]));
    0 => opt subagent_run_id: str,
    1 => req id: str,
    3 => opt name: str,
    4 => opt encrypted_value: str,
    5 => opt metadata: object,
    6 => req content: plain,
);

object!(AssistantMessage, Role::Assistant.fields(), tag = Some((2, &["assistant"]));
    0 => opt subagent_run_id: str,
    1 => req id: str,
    3 => opt name: str,
    4 => opt encrypted_value: str,
    5 => opt metadata: object,
    6 => opt content: str,
    7 => opt tool_calls: plain,
);

object!(ToolMessage, Role::Tool.fields(), tag = Some((2, &["tool"]));
    0 => opt subagent_run_id: str,
    1 => req id: str,
    3 => req content: plain,
    4 => req tool_call_id: str,
    5 => opt error: str,
    6 => opt encrypted_value: str,
    7 => opt metadata: object,
);

object!(ActivityMessage, Role::Activity.fields(), tag = Some((2, &["activity"]));
    0 => opt subagent_run_id: str,
    1 => req id: str,
    3 => req activity_type: str,
    4 => req content: object,
    5 => opt metadata: object,
);

object!(ReasoningMessage, Role::Reasoning.fields(), tag = Some((2, &["reasoning"]));
    0 => opt subagent_run_id: str,
    1 => req id: str,
    3 => req content: str,
    4 => opt encrypted_value: str,
    5 => opt metadata: object,
);

object!(ToolCall, ToolCall::FIELDS, tag = None;
    0 => req id: str,
    1 => opt r#type: func,
    2 => req function: plain,
    3 => opt encrypted_value: str,
    4 => opt metadata: object,
);

object!(FunctionCall, FunctionCall::FIELDS, tag = None;
    0 => req name: str,
    1 => req arguments: str,
);

// ---------------------------------------------------------------------------------------------
// Content parts and sources

object!(TextInputContent, TextInputContent::FIELDS, tag = Some((0, &["text"]));
    1 => opt id: str,
    2 => req text: str,
    3 => opt metadata: nonnull,
);

// Standalone, a media part is written without its `type`, which lives in the enclosing
// `InputContent` variant; it reads with any of the four media types (or none).
object!(MediaInputContent, MediaInputContent::FIELDS,
    tag = Some((0, &["image", "audio", "video", "document"]));
    1 => opt id: str,
    2 => req source: plain,
    3 => opt metadata: nonnull,
);

object!(BinaryInputContent, BinaryInputContent::FIELDS, tag = Some((0, &["binary"])),
    validate = binary_has_payload;
    1 => req mime_type: str,
    2 => opt id: str,
    3 => opt url: str,
    4 => opt data: str,
    5 => opt filename: str,
);

fn binary_has_payload(b: &BinaryInputContent<'_>) -> Result<(), &'static str> {
    if b.id.is_none() && b.url.is_none() && b.data.is_none() {
        Err("a binary part needs at least one of `id`, `url` or `data`")
    } else {
        Ok(())
    }
}

object!(DataSource, DataSource::FIELDS, tag = Some((0, &["data"]));
    1 => req value: str,
    2 => req mime_type: str,
);

object!(UrlSource, UrlSource::FIELDS, tag = Some((0, &["url"]));
    1 => req value: str,
    2 => opt mime_type: str,
);

object!(FileSource, FileSource::FIELDS, tag = Some((0, &["file"]));
    1 => req value: str,
    2 => opt provider: str,
    3 => opt mime_type: str,
);

// ---------------------------------------------------------------------------------------------
// AgentCapabilities

object!(AgentCapabilities, AgentCapabilities::FIELDS, tag = None;
    0 => opt identity: plain,
    1 => opt transport: plain,
    2 => opt tools: plain,
    3 => opt output: plain,
    4 => opt state: plain,
    5 => opt multi_agent: plain,
    6 => opt reasoning: plain,
    7 => opt multimodal: plain,
    8 => opt execution: plain,
    9 => opt human_in_the_loop: plain,
    10 => opt custom: object,
);

object!(IdentityCapabilities, IdentityCapabilities::FIELDS, tag = None;
    0 => opt name: str,
    1 => opt r#type: str,
    2 => opt description: str,
    3 => opt version: str,
    4 => opt provider: str,
    5 => opt documentation_url: str,
    6 => opt metadata: object,
);

object!(TransportCapabilities, TransportCapabilities::FIELDS, tag = None;
    0 => opt streaming: plain,
    1 => opt websocket: plain,
    2 => opt http_binary: plain,
    3 => opt push_notifications: plain,
    4 => opt resumable: plain,
);

object!(ToolsCapabilities, ToolsCapabilities::FIELDS, tag = None;
    0 => opt supported: plain,
    1 => opt items: plain,
    2 => opt parallel_calls: plain,
    3 => opt client_provided: plain,
);

object!(OutputCapabilities, OutputCapabilities::FIELDS, tag = None;
    0 => opt structured_output: plain,
    1 => opt supported_mime_types: plain,
);

object!(StateCapabilities, StateCapabilities::FIELDS, tag = None;
    0 => opt snapshots: plain,
    1 => opt deltas: plain,
    2 => opt memory: plain,
    3 => opt persistent_state: plain,
);

object!(MultiAgentCapabilities, MultiAgentCapabilities::FIELDS, tag = None;
    0 => opt supported: plain,
    1 => opt delegation: plain,
    2 => opt handoffs: plain,
    3 => opt subagents: plain,
);

object!(SubagentInfo, SubagentInfo::FIELDS, tag = None;
    0 => req name: str,
    1 => opt description: str,
);

object!(ReasoningCapabilities, ReasoningCapabilities::FIELDS, tag = None;
    0 => opt supported: plain,
    1 => opt streaming: plain,
    2 => opt encrypted: plain,
);

object!(MultimodalCapabilities, MultimodalCapabilities::FIELDS, tag = None;
    0 => opt input: plain,
    1 => opt output: plain,
);

object!(MultimodalInputCapabilities, MultimodalInputCapabilities::FIELDS, tag = None;
    0 => opt image: plain,
    1 => opt audio: plain,
    2 => opt video: plain,
    3 => opt pdf: plain,
    4 => opt file: plain,
);

object!(MultimodalOutputCapabilities, MultimodalOutputCapabilities::FIELDS, tag = None;
    0 => opt image: plain,
    1 => opt audio: plain,
);

object!(ExecutionCapabilities, ExecutionCapabilities::FIELDS, tag = None;
    0 => opt code_execution: plain,
    1 => opt sandboxed: plain,
    2 => opt max_iterations: plain,
    3 => opt max_execution_time: plain,
);

object!(HumanInTheLoopCapabilities, HumanInTheLoopCapabilities::FIELDS, tag = None;
    0 => opt supported: plain,
    1 => opt approvals: plain,
    2 => opt interventions: plain,
    3 => opt feedback: plain,
    4 => opt interrupts: plain,
    5 => opt approve_with_edits: plain,
);

// ---------------------------------------------------------------------------------------------
// The enums, written through their variants

impl WriteJson for Message<'_> {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        match self {
            Message::Developer(m) => m.write_json(out),
            Message::System(m) => m.write_json(out),
            Message::Assistant(m) => m.write_json(out),
            Message::User(m) => m.write_json(out),
            Message::Tool(m) => m.write_json(out),
            Message::Activity(m) => m.write_json(out),
            Message::Reasoning(m) => m.write_json(out),
        }
    }
}

impl WriteJson for Content<'_> {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        match self {
            Content::Text(t) => t.write_json(out),
            Content::Parts(p) => p.write_json(out),
        }
    }
}

impl WriteJson for InputContent<'_> {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        let (inner, tag) = match self {
            InputContent::Text(t) => return t.write_json(out),
            InputContent::Binary(b) => return b.write_json(out),
            InputContent::Image(m) => (m, "image"),
            InputContent::Audio(m) => (m, "audio"),
            InputContent::Video(m) => (m, "video"),
            InputContent::Document(m) => (m, "document"),
        };
        write_object(WithTag { inner, id: 0, tag }, out);
    }
}

impl WriteJson for InputContentSource<'_> {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        match self {
            InputContentSource::Data(d) => d.write_json(out),
            InputContentSource::Url(u) => u.write_json(out),
            InputContentSource::File(f) => f.write_json(out),
        }
    }
}
