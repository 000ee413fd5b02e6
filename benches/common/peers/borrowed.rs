//! The borrowed AG-UI 1.0 model a careful serde user writes: `Cow<'a, str>` for strings
//! (borrowed from the input when the JSON string has no escapes, base64 payloads
//! included), a raw-JSON type for the free-form fields, and the same typed enums as the
//! owned model.
//!
//! Written once (the [`borrowed_model`] macro) and instantiated twice:
//! - [`serde_json_raw`]: `&'a serde_json::value::RawValue`, read by `serde_json::from_slice`;
//! - [`sonic_lazy`]: `sonic_rs::LazyValue<'a>`, read by `sonic_rs::from_slice` (sonic-rs
//!   does not know serde_json's `RawValue`; `LazyValue` is its own borrowed raw value).
//!
//! Two serde limits shape it, as they shape any hand-written borrowed model:
//! - `&RawValue` cannot sit inside `#[serde(tag = ...)]` or `untagged` enums (serde buffers
//!   those into its private `Content`, which cannot hand raw JSON back), so messages are read
//!   by a small map visitor that dispatches on `role`, and parts and sources through a
//!   derived flat struct converted to the enum;
//! - `#[serde(borrow)]` borrows only a bare `Cow<str>`, never an `Option<Cow<str>>`, so
//!   optional strings go through [`opt_cow`].

#![allow(dead_code)] // the model's fields are the parsed information; benches only black_box them

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// A `Cow<str>` that borrows whenever the deserializer lends the bytes.
pub struct BCow<'a>(pub Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for BCow<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = BCow<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(BCow(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(BCow(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(BCow(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// `deserialize_with` for `Option<Cow<'a, str>>` fields that should borrow.
pub fn opt_cow<'de: 'a, 'a, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'a, str>>, D::Error> {
    Ok(Option::<BCow<'a>>::deserialize(d)?.map(|b| b.0))
}

/// The model; expects `Raw<'a>` (the raw-JSON type), `raw_len(&Raw) -> usize` and
/// `reparse_content(&Raw<'a>) -> Result<Content<'a>, String>` in the calling module.
macro_rules! borrowed_model {
    () => {
        use std::borrow::Cow;
        use std::fmt;
        use std::marker::PhantomData;

        use serde::Deserialize;
        use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

        use $crate::common::corpus::Summary;
        use $crate::common::peers::borrowed::{BCow, opt_cow};

        /// The POST body.
        #[derive(Debug, Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct RunAgentInput<'a> {
            #[serde(borrow)]
            pub thread_id: Cow<'a, str>,
            #[serde(borrow)]
            pub run_id: Cow<'a, str>,
            #[serde(borrow, default, deserialize_with = "opt_cow")]
            pub protocol_version: Option<Cow<'a, str>>,
            #[serde(borrow, default, deserialize_with = "opt_cow")]
            pub parent_run_id: Option<Cow<'a, str>>,
            #[serde(borrow)]
            pub state: Option<Raw<'a>>,
            #[serde(borrow)]
            pub messages: Vec<Message<'a>>,
            #[serde(borrow, default)]
            pub tools: Vec<Tool<'a>>,
            #[serde(borrow, default)]
            pub context: Vec<Context<'a>>,
            #[serde(borrow)]
            pub forwarded_props: Option<Raw<'a>>,
            #[serde(borrow, default)]
            pub resume: Vec<ResumeEntry<'a>>,
        }

        /// A message, discriminated by `role` (read by [`MessageVisitor`]).
        #[derive(Debug)]
        pub enum Message<'a> {
            Developer(TextMessage<'a>),
            System(TextMessage<'a>),
            Assistant(AssistantMessage<'a>),
            User(UserMessage<'a>),
            Tool(ToolMessage<'a>),
            Activity(ActivityMessage<'a>),
            Reasoning(ReasoningMessage<'a>),
        }

        /// Fields every message may carry.
        #[derive(Debug)]
        pub struct Common<'a> {
            pub id: Cow<'a, str>,
            pub metadata: Option<Raw<'a>>,
            pub subagent_run_id: Option<Cow<'a, str>>,
            pub encrypted_value: Option<Cow<'a, str>>,
        }

        #[derive(Debug)]
        pub struct TextMessage<'a> {
            pub common: Common<'a>,
            pub content: Cow<'a, str>,
            pub name: Option<Cow<'a, str>>,
        }

        #[derive(Debug)]
        pub struct AssistantMessage<'a> {
            pub common: Common<'a>,
            pub content: Option<Cow<'a, str>>,
            pub tool_calls: Option<Vec<ToolCall<'a>>>,
            pub name: Option<Cow<'a, str>>,
        }

        #[derive(Debug)]
        pub struct UserMessage<'a> {
            pub common: Common<'a>,
            pub content: Content<'a>,
            pub name: Option<Cow<'a, str>>,
        }

        #[derive(Debug)]
        pub struct ToolMessage<'a> {
            pub common: Common<'a>,
            pub content: Content<'a>,
            pub tool_call_id: Cow<'a, str>,
            pub error: Option<Cow<'a, str>>,
        }

        #[derive(Debug)]
        pub struct ActivityMessage<'a> {
            pub common: Common<'a>,
            pub activity_type: Cow<'a, str>,
            pub content: Raw<'a>,
        }

        #[derive(Debug)]
        pub struct ReasoningMessage<'a> {
            pub common: Common<'a>,
            pub content: Cow<'a, str>,
        }

        #[derive(Clone, Copy, PartialEq, Eq)]
        enum Role {
            Developer,
            System,
            Assistant,
            User,
            Tool,
            Activity,
            Reasoning,
        }

        const ROLES: &[&str] = &[
            "developer",
            "system",
            "assistant",
            "user",
            "tool",
            "activity",
            "reasoning",
        ];

        impl Role {
            fn parse(s: &str) -> Option<Role> {
                Some(match s {
                    "developer" => Role::Developer,
                    "system" => Role::System,
                    "assistant" => Role::Assistant,
                    "user" => Role::User,
                    "tool" => Role::Tool,
                    "activity" => Role::Activity,
                    "reasoning" => Role::Reasoning,
                    _ => return None,
                })
            }
        }

        /// `content` as read before knowing what the role wants.
        enum Slot<'a> {
            Missing,
            Str(Option<Cow<'a, str>>),
            Content(Content<'a>),
            Raw(Raw<'a>),
        }

        impl<'de: 'a, 'a> Deserialize<'de> for Message<'a> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_map(MessageVisitor(PhantomData))
            }
        }

        /// Reads a message's fields in any order; `content` is typed by the role when the
        /// role came first (as the SDKs write it), else kept raw and read afterwards.
        struct MessageVisitor<'a>(PhantomData<&'a ()>);

        impl<'de: 'a, 'a> Visitor<'de> for MessageVisitor<'a> {
            type Value = Message<'a>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an AG-UI message object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Message<'a>, A::Error> {
                fn s<'de: 'a, 'a, A: MapAccess<'de>>(
                    map: &mut A,
                ) -> Result<Option<Cow<'a, str>>, A::Error> {
                    Ok(map.next_value::<Option<BCow<'a>>>()?.map(|b| b.0))
                }
                let mut role = None;
                let mut id = None;
                let mut name = None;
                let mut encrypted_value = None;
                let mut metadata = None;
                let mut subagent_run_id = None;
                let mut tool_calls = None;
                let mut tool_call_id = None;
                let mut error = None;
                let mut activity_type = None;
                let mut content = Slot::Missing;
                while let Some(key) = map.next_key::<BCow<'a>>()? {
                    match &*key.0 {
                        "role" => {
                            let r = map.next_value::<BCow<'a>>()?;
                            role = Some(
                                Role::parse(&r.0)
                                    .ok_or_else(|| de::Error::unknown_variant(&r.0, ROLES))?,
                            );
                        }
                        "content" => {
                            content = match role {
                                Some(Role::Activity) | None => Slot::Raw(map.next_value()?),
                                Some(Role::User | Role::Tool) => Slot::Content(map.next_value()?),
                                Some(_) => Slot::Str(s(&mut map)?),
                            }
                        }
                        "id" => id = s(&mut map)?,
                        "name" => name = s(&mut map)?,
                        "encryptedValue" => encrypted_value = s(&mut map)?,
                        "subagentRunId" => subagent_run_id = s(&mut map)?,
                        "toolCallId" => tool_call_id = s(&mut map)?,
                        "error" => error = s(&mut map)?,
                        "activityType" => activity_type = s(&mut map)?,
                        "metadata" => metadata = map.next_value()?,
                        "toolCalls" => tool_calls = map.next_value()?,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                let role = role.ok_or_else(|| de::Error::missing_field("role"))?;
                let common = Common {
                    id: id.ok_or_else(|| de::Error::missing_field("id"))?,
                    metadata,
                    subagent_run_id,
                    encrypted_value,
                };
                // `content` typed late, when it came before `role`.
                let content = match (content, role) {
                    (Slot::Raw(r), Role::Activity) => Slot::Raw(r),
                    (Slot::Raw(r), Role::User | Role::Tool) => {
                        Slot::Content(reparse_content(&r).map_err(de::Error::custom)?)
                    }
                    (Slot::Raw(r), _) => match reparse_content(&r).map_err(de::Error::custom)? {
                        Content::Text(t) => Slot::Str(Some(t)),
                        Content::Parts(_) => {
                            return Err(de::Error::custom("content: expected a string"));
                        }
                    },
                    (other, _) => other,
                };
                let need_str = |c: Slot<'a>| match c {
                    Slot::Str(Some(t)) => Ok(t),
                    _ => Err(de::Error::missing_field("content")),
                };
                Ok(match role {
                    Role::Developer | Role::System => {
                        let m = TextMessage {
                            common,
                            content: need_str(content)?,
                            name,
                        };
                        if role == Role::Developer {
                            Message::Developer(m)
                        } else {
                            Message::System(m)
                        }
                    }
                    Role::Reasoning => Message::Reasoning(ReasoningMessage {
                        common,
                        content: need_str(content)?,
                    }),
                    Role::Assistant => Message::Assistant(AssistantMessage {
                        common,
                        content: match content {
                            Slot::Str(t) => t,
                            _ => None,
                        },
                        tool_calls,
                        name,
                    }),
                    Role::User | Role::Tool => {
                        let Slot::Content(content) = content else {
                            return Err(de::Error::missing_field("content"));
                        };
                        if role == Role::User {
                            Message::User(UserMessage {
                                common,
                                content,
                                name,
                            })
                        } else {
                            Message::Tool(ToolMessage {
                                common,
                                content,
                                tool_call_id: tool_call_id
                                    .ok_or_else(|| de::Error::missing_field("toolCallId"))?,
                                error,
                            })
                        }
                    }
                    Role::Activity => {
                        let Slot::Raw(content) = content else {
                            return Err(de::Error::missing_field("content"));
                        };
                        Message::Activity(ActivityMessage {
                            common,
                            activity_type: activity_type
                                .ok_or_else(|| de::Error::missing_field("activityType"))?,
                            content,
                        })
                    }
                })
            }
        }

        /// `content`: a string or a list of parts.
        #[derive(Debug)]
        pub enum Content<'a> {
            Text(Cow<'a, str>),
            Parts(Vec<ContentPart<'a>>),
        }

        impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V<'a>(PhantomData<&'a ()>);
                impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
                    type Value = Content<'a>;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("a string or an array of content parts")
                    }
                    fn visit_borrowed_str<E: de::Error>(
                        self,
                        v: &'de str,
                    ) -> Result<Self::Value, E> {
                        Ok(Content::Text(Cow::Borrowed(v)))
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                        Ok(Content::Text(Cow::Owned(v.to_owned())))
                    }
                    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                        Ok(Content::Text(Cow::Owned(v)))
                    }
                    fn visit_seq<A: SeqAccess<'de>>(
                        self,
                        mut seq: A,
                    ) -> Result<Self::Value, A::Error> {
                        let mut parts = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
                        while let Some(p) = seq.next_element::<ContentPart<'a>>()? {
                            parts.push(p);
                        }
                        Ok(Content::Parts(parts))
                    }
                }
                d.deserialize_any(V(PhantomData))
            }
        }

        /// A content part, discriminated by `type`.
        #[derive(Debug)]
        pub enum ContentPart<'a> {
            Text(TextPart<'a>),
            Image(MediaPart<'a>),
            Audio(MediaPart<'a>),
            Video(MediaPart<'a>),
            Document(MediaPart<'a>),
            Binary(BinaryPart<'a>),
        }

        #[derive(Debug)]
        pub struct TextPart<'a> {
            pub id: Option<Cow<'a, str>>,
            pub text: Cow<'a, str>,
            pub metadata: Option<Raw<'a>>,
        }

        #[derive(Debug)]
        pub struct MediaPart<'a> {
            pub id: Option<Cow<'a, str>>,
            pub source: Source<'a>,
            pub metadata: Option<Raw<'a>>,
        }

        #[derive(Debug)]
        pub struct BinaryPart<'a> {
            pub mime_type: Cow<'a, str>,
            pub id: Option<Cow<'a, str>>,
            pub url: Option<Cow<'a, str>>,
            pub data: Option<Cow<'a, str>>,
            pub filename: Option<Cow<'a, str>>,
        }

        /// Every field any part may have; turned into a [`ContentPart`] by its `type`.
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct FlatPart<'a> {
            #[serde(rename = "type", borrow)]
            kind: Cow<'a, str>,
            #[serde(borrow, default, deserialize_with = "opt_cow")]
            id: Option<Cow<'a, str>>,
            #[serde(borrow, default, deserialize_with = "opt_cow")]
            text: Option<Cow<'a, str>>,
            #[serde(borrow)]
            source: Option<Source<'a>>,
            #[serde(borrow)]
            metadata: Option<Raw<'a>>,
            #[serde(borrow, default, deserialize_with = "opt_cow")]
            mime_type: Option<Cow<'a, str>>,
            #[serde(borrow, default, deserialize_with = "opt_cow")]
            url: Option<Cow<'a, str>>,
            #[serde(borrow, default, deserialize_with = "opt_cow")]
            data: Option<Cow<'a, str>>,
            #[serde(borrow, default, deserialize_with = "opt_cow")]
            filename: Option<Cow<'a, str>>,
        }

        const PART_TYPES: &[&str] = &["text", "image", "audio", "video", "document", "binary"];

        impl<'de: 'a, 'a> Deserialize<'de> for ContentPart<'a> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let f = FlatPart::deserialize(d)?;
                let media = |source: Option<Source<'a>>, id, metadata| {
                    Ok(MediaPart {
                        id,
                        source: source.ok_or_else(|| de::Error::missing_field("source"))?,
                        metadata,
                    })
                };
                Ok(match &*f.kind {
                    "text" => ContentPart::Text(TextPart {
                        id: f.id,
                        text: f.text.ok_or_else(|| de::Error::missing_field("text"))?,
                        metadata: f.metadata,
                    }),
                    "image" => ContentPart::Image(media(f.source, f.id, f.metadata)?),
                    "audio" => ContentPart::Audio(media(f.source, f.id, f.metadata)?),
                    "video" => ContentPart::Video(media(f.source, f.id, f.metadata)?),
                    "document" => ContentPart::Document(media(f.source, f.id, f.metadata)?),
                    "binary" => ContentPart::Binary(BinaryPart {
                        mime_type: f
                            .mime_type
                            .ok_or_else(|| de::Error::missing_field("mimeType"))?,
                        id: f.id,
                        url: f.url,
                        data: f.data,
                        filename: f.filename,
                    }),
                    other => return Err(de::Error::unknown_variant(other, PART_TYPES)),
                })
            }
        }

        /// A media source, discriminated by `type`.
        #[derive(Debug)]
        pub enum Source<'a> {
            Data {
                value: Cow<'a, str>,
                mime_type: Cow<'a, str>,
            },
            Url {
                value: Cow<'a, str>,
                mime_type: Option<Cow<'a, str>>,
            },
            File {
                value: Cow<'a, str>,
                provider: Option<Cow<'a, str>>,
                mime_type: Option<Cow<'a, str>>,
            },
        }

        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct FlatSource<'a> {
            #[serde(rename = "type", borrow)]
            kind: Cow<'a, str>,
            #[serde(borrow)]
            value: Cow<'a, str>,
            #[serde(borrow, default, deserialize_with = "opt_cow")]
            mime_type: Option<Cow<'a, str>>,
            #[serde(borrow, default, deserialize_with = "opt_cow")]
            provider: Option<Cow<'a, str>>,
        }

        impl<'de: 'a, 'a> Deserialize<'de> for Source<'a> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let f = FlatSource::deserialize(d)?;
                Ok(match &*f.kind {
                    "data" => Source::Data {
                        value: f.value,
                        mime_type: f
                            .mime_type
                            .ok_or_else(|| de::Error::missing_field("mimeType"))?,
                    },
                    "url" => Source::Url {
                        value: f.value,
                        mime_type: f.mime_type,
                    },
                    "file" => Source::File {
                        value: f.value,
                        provider: f.provider,
                        mime_type: f.mime_type,
                    },
                    other => {
                        return Err(de::Error::unknown_variant(other, &["data", "url", "file"]));
                    }
                })
            }
        }

        #[derive(Debug, Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct ToolCall<'a> {
            #[serde(borrow)]
            pub id: Cow<'a, str>,
            #[serde(rename = "type", borrow, default, deserialize_with = "opt_cow")]
            pub kind: Option<Cow<'a, str>>,
            #[serde(borrow)]
            pub function: FunctionCall<'a>,
            #[serde(borrow, default, deserialize_with = "opt_cow")]
            pub encrypted_value: Option<Cow<'a, str>>,
            #[serde(borrow)]
            pub metadata: Option<Raw<'a>>,
        }

        #[derive(Debug, Deserialize)]
        pub struct FunctionCall<'a> {
            #[serde(borrow)]
            pub name: Cow<'a, str>,
            #[serde(borrow)]
            pub arguments: Cow<'a, str>,
        }

        #[derive(Debug, Deserialize)]
        pub struct Tool<'a> {
            #[serde(borrow)]
            pub name: Cow<'a, str>,
            #[serde(borrow)]
            pub description: Cow<'a, str>,
            #[serde(borrow)]
            pub parameters: Option<Raw<'a>>,
            #[serde(borrow)]
            pub metadata: Option<Raw<'a>>,
        }

        #[derive(Debug, Deserialize)]
        pub struct Context<'a> {
            #[serde(borrow)]
            pub description: Cow<'a, str>,
            #[serde(borrow)]
            pub value: Cow<'a, str>,
        }

        #[derive(Debug, Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct ResumeEntry<'a> {
            #[serde(borrow)]
            pub interrupt_id: Cow<'a, str>,
            pub status: ResumeStatus,
            #[serde(borrow)]
            pub payload: Option<Raw<'a>>,
            #[serde(borrow)]
            pub metadata: Option<Raw<'a>>,
        }

        #[derive(Debug, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum ResumeStatus {
            Resolved,
            Cancelled,
        }

        fn content_summary(s: &mut Summary, c: &Content<'_>) {
            match c {
                Content::Text(t) => s.text_bytes += t.len(),
                Content::Parts(parts) => {
                    for p in parts {
                        match p {
                            ContentPart::Text(t) => s.text_bytes += t.text.len(),
                            ContentPart::Image(m)
                            | ContentPart::Audio(m)
                            | ContentPart::Video(m)
                            | ContentPart::Document(m) => {
                                if let Source::Data { value, .. } = &m.source {
                                    s.media_bytes += value.len();
                                }
                            }
                            ContentPart::Binary(_) => {}
                        }
                    }
                }
            }
        }

        /// What this model saw, in the generator's terms.
        pub fn summary(r: &RunAgentInput<'_>) -> Summary {
            let mut s = Summary {
                messages: r.messages.len(),
                tools: r.tools.len(),
                context: r.context.len(),
                resume: r.resume.len(),
                state_raw_len: Some(r.state.as_ref().map_or(0, raw_len)),
                forwarded_raw_len: Some(r.forwarded_props.as_ref().map_or(0, raw_len)),
                ..Summary::default()
            };
            for m in &r.messages {
                match m {
                    Message::Developer(t) | Message::System(t) => s.text_bytes += t.content.len(),
                    Message::Reasoning(t) => s.text_bytes += t.content.len(),
                    Message::Assistant(a) => {
                        s.text_bytes += a.content.as_ref().map_or(0, |c| c.len());
                        for c in a.tool_calls.iter().flatten() {
                            s.tool_calls += 1;
                            s.args_bytes += c.function.arguments.len();
                        }
                    }
                    Message::User(u) => content_summary(&mut s, &u.content),
                    Message::Tool(t) => content_summary(&mut s, &t.content),
                    Message::Activity(_) => {}
                }
            }
            s
        }

        /// Counts strings the parser had to copy (escaped) vs. borrowed, over message contents.
        pub fn borrowed_share(r: &RunAgentInput<'_>) -> (usize, usize) {
            let (mut b, mut o) = (0, 0);
            let mut count = |c: &Cow<'_, str>| match c {
                Cow::Borrowed(_) => b += 1,
                Cow::Owned(_) => o += 1,
            };
            for m in &r.messages {
                match m {
                    Message::Developer(t) | Message::System(t) => count(&t.content),
                    Message::Reasoning(t) => count(&t.content),
                    Message::Assistant(a) => {
                        if let Some(c) = &a.content {
                            count(c);
                        }
                        for c in a.tool_calls.iter().flatten() {
                            count(&c.function.arguments);
                        }
                    }
                    Message::User(UserMessage { content, .. })
                    | Message::Tool(ToolMessage { content, .. }) => match content {
                        Content::Text(t) => count(t),
                        Content::Parts(parts) => {
                            for p in parts {
                                match p {
                                    ContentPart::Text(t) => count(&t.text),
                                    ContentPart::Image(m)
                                    | ContentPart::Audio(m)
                                    | ContentPart::Video(m)
                                    | ContentPart::Document(m) => {
                                        if let Source::Data { value, .. } = &m.source {
                                            count(value);
                                        }
                                    }
                                    ContentPart::Binary(_) => {}
                                }
                            }
                        }
                    },
                    Message::Activity(_) => {}
                }
            }
            (b, o)
        }
    };
}

/// The model over `&serde_json::value::RawValue`, read by `serde_json::from_slice`.
pub mod serde_json_raw {
    use serde_json::value::RawValue;

    /// Raw JSON borrowed from the input.
    pub type Raw<'a> = &'a RawValue;

    fn raw_len(r: &Raw<'_>) -> usize {
        r.get().len()
    }

    /// `content` read after the role was known (the raw text is a slice of the input).
    fn reparse_content<'a>(r: &Raw<'a>) -> Result<Content<'a>, String> {
        let text: &'a str = r.get();
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    borrowed_model!();

    /// Parses with serde_json.
    pub fn parse(input: &[u8]) -> serde_json::Result<RunAgentInput<'_>> {
        serde_json::from_slice(input)
    }
}

/// The model over `sonic_rs::LazyValue`, read by `sonic_rs::from_slice`.
pub mod sonic_lazy {
    /// Raw JSON borrowed from the input (owned only for escaped strings).
    pub type Raw<'a> = sonic_rs::LazyValue<'a>;

    fn raw_len(r: &Raw<'_>) -> usize {
        r.as_raw_str().len()
    }

    /// `content` read after the role was known.
    fn reparse_content<'a>(r: &Raw<'a>) -> Result<Content<'a>, String> {
        match r.as_raw_cow() {
            Cow::Borrowed(text) => sonic_rs::from_str(text).map_err(|e| e.to_string()),
            // sonic-rs keeps its own copy only for an escaped string: content is then text.
            Cow::Owned(text) => sonic_rs::from_str::<String>(&text)
                .map(|t| Content::Text(Cow::Owned(t)))
                .map_err(|e| e.to_string()),
        }
    }

    borrowed_model!();

    /// Parses with sonic-rs.
    pub fn parse(input: &[u8]) -> sonic_rs::Result<RunAgentInput<'_>> {
        sonic_rs::from_slice(input)
    }
}
