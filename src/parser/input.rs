//! Reading `RunAgentInput`: messages, content parts, sources, tools, context, resume.

use bumpalo::Bump;

use super::keys::{self, F};
use super::resume::TopFrame;
use super::{Obj, ParseOptions, Parser, set};
use crate::error::{Error, ErrorKind, RawError, RawResult};
use crate::model::*;
use crate::scanner::StrToken;

impl<'a> RunAgentInput<'a> {
    /// Parses a `RunAgentInput` body with the default [`ParseOptions`].
    ///
    /// Strings borrow from `input`; lists and unknown fields go into `arena`. Reuse one arena
    /// across requests (`arena.reset()`) and parsing allocates nothing on the heap.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, Bump};
    /// let mut arena = Bump::new();
    /// for body in [&br#"{"threadId":"a","runId":"1","messages":[]}"#[..],
    ///              &br#"{"threadId":"b","runId":"2","messages":[]}"#[..]] {
    ///     arena.reset();
    ///     let input = RunAgentInput::parse(body, &arena)?;
    ///     assert!(input.messages.is_empty());
    /// }
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn parse(input: &'a [u8], arena: &'a Bump) -> Result<RunAgentInput<'a>, Error> {
        Self::parse_with(input, arena, &ParseOptions::default())
    }

    /// Parses a `RunAgentInput` body with the given options.
    ///
    /// ```
    /// use agui_wire::{RunAgentInput, ParseOptions, Bump};
    /// let arena = Bump::new();
    /// let opts = ParseOptions { max_input_bytes: 16, ..Default::default() };
    /// let err = RunAgentInput::parse_with(br#"{"threadId":"t","runId":"r","messages":[]}"#, &arena, &opts);
    /// assert!(err.unwrap_err().to_string().contains("exceeds the limit of 16 bytes"));
    /// ```
    pub fn parse_with(
        input: &'a [u8],
        arena: &'a Bump,
        options: &ParseOptions,
    ) -> Result<RunAgentInput<'a>, Error> {
        Parser::document(input, arena, options, "RunAgentInput", |p| {
            p.run_agent_input()
        })
    }
}

/// Every field a message of any role may have, while its role is being worked out.
#[derive(Default)]
pub(crate) struct MessageParts<'a> {
    pub(super) id: Option<Str<'a>>,
    name: Option<Str<'a>>,
    encrypted_value: Option<Str<'a>>,
    metadata: Option<RawJson<'a>>,
    subagent_run_id: Option<Str<'a>>,
    text: Option<Str<'a>>,
    content: Option<Content<'a>>,
    raw_content: Option<RawJson<'a>>,
    tool_calls: Option<List<'a, ToolCall<'a>>>,
    tool_call_id: Option<Str<'a>>,
    error: Option<Str<'a>>,
    activity_type: Option<Str<'a>>,
}

/// Whether `role` reads a `content` whose value starts with `first` as
/// [`Parser::early_content`] reads it.
pub(super) fn content_fits(role: Role, first: u8) -> bool {
    match role {
        Role::User | Role::Tool => matches!(first, b'"' | b'['),
        Role::Activity => first == b'{',
        Role::Developer | Role::System | Role::Assistant | Role::Reasoning => first == b'"',
    }
}

/// Every field of a content part, while its type is being worked out.
#[derive(Default)]
struct PartParts<'a> {
    id: Option<Str<'a>>,
    text: Option<Str<'a>>,
    source: Option<InputContentSource<'a>>,
    metadata: Option<RawJson<'a>>,
    mime_type: Option<Str<'a>>,
    url: Option<Str<'a>>,
    data: Option<Str<'a>>,
    filename: Option<Str<'a>>,
}

/// Every field of a source, while its type is being worked out.
#[derive(Default)]
struct SourceParts<'a> {
    value: Option<Str<'a>>,
    mime_type: Option<Str<'a>>,
    provider: Option<Str<'a>>,
}

#[derive(Clone, Copy)]
#[repr(u8)]
enum SourceKind {
    Data,
    Url,
    File,
}

impl<'a> Parser<'a, '_> {
    /// The top-level object, from its `{` (or, on a growing buffer, from where the previous
    /// pass stopped: see [`super::resume`]).
    pub(crate) fn run_agent_input(&mut self) -> RawResult<RunAgentInput<'a>> {
        let saved = match self.frames.as_mut() {
            Some(f) => f.top.take(),
            None => None,
        };
        let mut top = match saved {
            Some(top) => {
                self.depth = 1;
                self.cur.seek(top.pos);
                // The whitespace before a value may have continued in the new bytes.
                self.cur.skip_ws();
                top
            }
            None => TopFrame::new(self.open()?),
        };
        loop {
            let (id, key) = match top.field.take() {
                Some(field) => field,
                None => {
                    let (at, first) = (self.cur.pos, top.obj.first);
                    let key = match self.next_key(&mut top.obj) {
                        Ok(Some(key)) => key,
                        Ok(None) => break,
                        Err(e) => {
                            top.obj.first = first;
                            return Err(self.suspend_top(e, top, at));
                        }
                    };
                    (self.known(&mut top.obj, RunAgentInput::FIELDS, &key)?, key)
                }
            };
            let at = self.cur.pos;
            if let Err(e) = self.top_field(&mut top, id, key) {
                top.field = Some((id, key));
                return Err(self.suspend_top(e, top, at));
            }
        }
        let TopFrame {
            obj,
            mut doc,
            thread_id,
            run_id,
            messages,
            ..
        } = top;
        doc.thread_id = thread_id.ok_or_else(|| Self::missing(obj.start, "threadId"))?;
        doc.run_id = run_id.ok_or_else(|| Self::missing(obj.start, "runId"))?;
        doc.messages = messages.ok_or_else(|| Self::missing(obj.start, "messages"))?;
        doc.extra = self.finish(obj);
        Ok(doc)
    }

    /// One field of the top-level object, the cursor at its value.
    fn top_field(
        &mut self,
        top: &mut TopFrame<'a>,
        id: Option<usize>,
        key: StrToken<'a>,
    ) -> RawResult<()> {
        let doc = &mut top.doc;
        match id {
            Some(0) => set(&mut top.thread_id, self.string("threadId")?),
            Some(1) => set(&mut top.run_id, self.string("runId")?),
            Some(2) => doc.protocol_version = self.opt_string("protocolVersion")?,
            Some(3) => doc.parent_run_id = self.opt_string("parentRunId")?,
            // `state: null` is a value (the TypeScript SDK also reads it as absent).
            Some(4) => doc.state = Some(self.raw()?),
            Some(5) => {
                let limit = self.opts.max_messages;
                set(
                    &mut top.messages,
                    self.messages_list(limit, |p, slot| p.message_with(|m| slot.put(m)))?,
                );
            }
            Some(6) => doc.tools = self.opt_rlist("tools", |p| p.tool())?,
            Some(7) => doc.context = self.opt_rlist("context", |p| p.context())?,
            Some(8) => doc.forwarded_props = self.opt_any("forwardedProps")?,
            Some(9) => doc.resume = self.opt_rlist("resume", |p| p.resume_entry())?,
            _ => self.unknown(&mut top.obj, key)?,
        }
        Ok(())
    }

    /// Saves the top-level object when a pass runs out of bytes in it; `at` is where to
    /// continue (before the next key, or at the value of `top.field`).
    #[cold]
    fn suspend_top(&mut self, e: RawError, mut top: TopFrame<'a>, at: usize) -> RawError {
        if e.kind == ErrorKind::UnexpectedEof
            && self.cur.partial()
            && let Some(frames) = self.frames.as_mut()
        {
            top.pos = at;
            frames.top = Some(top);
        }
        e
    }

    pub(crate) fn message(&mut self) -> RawResult<Message<'a>> {
        self.message_with(|m| m)
    }

    /// Reads a message and hands it to `put` (which writes it where it belongs: a list's slot).
    #[inline(always)]
    pub(crate) fn message_with<R>(&mut self, put: impl FnOnce(Message<'a>) -> R) -> RawResult<R> {
        self.message_in::<true, R>(put)
    }

    /// [`Parser::message_with`], with (`HEAD`) or without the template of its first two
    /// fields ([`Parser::message_head`]); the differential tests compare the two.
    #[inline(always)]
    pub(crate) fn message_in<const HEAD: bool, R>(
        &mut self,
        put: impl FnOnce(Message<'a>) -> R,
    ) -> RawResult<R> {
        let mut m = MessageParts::default();
        let mut obj = Obj::EMPTY;
        let role = self.tagged_keyed(
            "message",
            F::Role,
            "developer, system, assistant, user, tool, activity, reasoning",
            Role::from_name,
            Role::fields,
            keys::message_id,
            &mut m,
            |p, obj, m, role, early| {
                if HEAD {
                    p.message_head(obj, m, role, early)
                } else {
                    Ok(())
                }
            },
            // Every role reads a string `id` and `subagentRunId` alike, and senders put them
            // before `role`: read them on the way instead of skipping and reading them again.
            // So `content`, which senders that sort their keys put before `role`.
            |p, f, m| {
                match f {
                    F::Content => return p.early_content(m),
                    // Every role reads `metadata` alike (an object, kept raw).
                    F::Metadata => return p.early_metadata(&mut m.metadata),
                    _ => {}
                }
                if p.cur.peek() != Some(b'"') {
                    return Ok(false);
                }
                match f {
                    F::Id => set(&mut m.id, p.string("id")?),
                    F::SubagentRunId => m.subagent_run_id = Some(p.string("subagentRunId")?),
                    // Strings where a role has them, unknown fields where it has not (kept
                    // raw once the role is known): an error is the one that reading gives.
                    F::Name => return p.early_string("name", &mut m.name),
                    F::EncryptedValue => {
                        return p.early_string("encryptedValue", &mut m.encrypted_value);
                    }
                    _ => return Ok(false),
                }
                Ok(true)
            },
            |role, f, first| f != F::Content || content_fits(role, first),
            |p, role, f, m| {
                match f {
                    F::Id => set(&mut m.id, p.string("id")?),
                    F::Name => m.name = p.opt_string("name")?,
                    F::EncryptedValue => m.encrypted_value = p.opt_string("encryptedValue")?,
                    F::Metadata => m.metadata = p.metadata(false)?,
                    F::SubagentRunId => m.subagent_run_id = p.opt_string("subagentRunId")?,
                    F::ToolCalls => {
                        m.tool_calls = p.opt_short_rlist("toolCalls", |p, slot| {
                            p.tool_call_in::<true, _>(|c| slot.put(c))
                        })?
                    }
                    F::ToolCallId => set(&mut m.tool_call_id, p.string("toolCallId")?),
                    F::Error => m.error = p.opt_string("error")?,
                    F::ActivityType => set(&mut m.activity_type, p.string("activityType")?),
                    F::Content => p.message_content(role, m)?,
                    _ => {}
                }
                Ok(())
            },
            &mut obj,
        )?;
        let start = obj.start;
        let extra = self.finish(obj);
        let need = |v: Option<Str<'a>>, f: &'static str| v.ok_or_else(|| Self::missing(start, f));
        let id = need(m.id, "id")?;
        Ok(put(match role {
            Role::Developer => Message::Developer(DeveloperMessage {
                id,
                content: need(m.text, "content")?,
                name: m.name,
                encrypted_value: m.encrypted_value,
                metadata: m.metadata,
                subagent_run_id: m.subagent_run_id,
                extra,
            }),
            Role::System => Message::System(SystemMessage {
                id,
                content: need(m.text, "content")?,
                name: m.name,
                encrypted_value: m.encrypted_value,
                metadata: m.metadata,
                subagent_run_id: m.subagent_run_id,
                extra,
            }),
            Role::Assistant => Message::Assistant(AssistantMessage {
                id,
                content: m.text,
                tool_calls: m.tool_calls,
                name: m.name,
                encrypted_value: m.encrypted_value,
                metadata: m.metadata,
                subagent_run_id: m.subagent_run_id,
                extra,
            }),
            Role::User => Message::User(UserMessage {
                id,
                content: m.content.ok_or_else(|| Self::missing(start, "content"))?,
                name: m.name,
                encrypted_value: m.encrypted_value,
                metadata: m.metadata,
                subagent_run_id: m.subagent_run_id,
                extra,
            }),
            Role::Tool => Message::Tool(ToolMessage {
                id,
                content: m.content.ok_or_else(|| Self::missing(start, "content"))?,
                tool_call_id: need(m.tool_call_id, "toolCallId")?,
                error: m.error,
                encrypted_value: m.encrypted_value,
                metadata: m.metadata,
                subagent_run_id: m.subagent_run_id,
                extra,
            }),
            Role::Activity => Message::Activity(ActivityMessage {
                id,
                activity_type: need(m.activity_type, "activityType")?,
                content: m
                    .raw_content
                    .ok_or_else(|| Self::missing(start, "content"))?,
                metadata: m.metadata,
                subagent_run_id: m.subagent_run_id,
                extra,
            }),
            Role::Reasoning => Message::Reasoning(ReasoningMessage {
                id,
                content: need(m.text, "content")?,
                encrypted_value: m.encrypted_value,
                metadata: m.metadata,
                subagent_run_id: m.subagent_run_id,
                extra,
            }),
        }))
    }

    /// A message's `content` met before its `role` (the cursor at the value), read as the
    /// roles that take its shape read it ([`content_fits`]): a string as text, an array as a
    /// user's or tool's parts, an object as an activity's raw content. `false`, the cursor
    /// where it was, for any other value and for one those roles would refuse: it is then
    /// skipped and read once the role is known, which gives the error the role gives. The end
    /// of the input is an error at once (the value is incomplete whatever the role). Out of
    /// line: the message loop of senders that put `role` first stays as small as it was.
    #[inline(never)]
    pub(super) fn early_content(&mut self, m: &mut MessageParts<'a>) -> RawResult<bool> {
        Ok(match self.cur.peek() {
            Some(b'"') => self.attempt(|p| p.string("content"))?.map(|s| {
                m.content = Some(Content::Text(s.clone()));
                m.text = Some(s);
            }),
            Some(b'[') => self.attempt(|p| p.content())?.map(|c| m.content = Some(c)),
            Some(b'{') => {
                (self.attempt(|p| p.raw_object("content"))?).map(|c| m.raw_content = Some(c))
            }
            _ => None,
        }
        .is_some())
    }

    /// Reads a value before it is known to be wanted: `None`, the cursor and depth where they
    /// were, when `read` fails (the value is then skipped and read again where its error
    /// belongs), but the end of the input is an error at once.
    fn attempt<T>(&mut self, read: impl FnOnce(&mut Self) -> RawResult<T>) -> RawResult<Option<T>> {
        let (at, depth) = (self.cur.pos, self.depth);
        match read(self) {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.kind == ErrorKind::UnexpectedEof => Err(e),
            Err(_) => {
                self.cur.seek(at);
                self.depth = depth;
                Ok(None)
            }
        }
    }

    /// A message's `content`, by its role (the cursor at the value).
    #[inline(always)]
    pub(super) fn message_content(
        &mut self,
        role: Role,
        m: &mut MessageParts<'a>,
    ) -> RawResult<()> {
        match role {
            Role::User | Role::Tool => set(&mut m.content, self.content()?),
            Role::Activity => set(&mut m.raw_content, self.raw_object("content")?),
            Role::Assistant => m.text = self.opt_string("content")?,
            _ => set(&mut m.text, self.string("content")?),
        }
        Ok(())
    }

    /// `content` of a user or tool message: a string or an array of parts. Inlined in both
    /// its callers (the role's read and [`Parser::early_content`]), so the message loop of
    /// senders that put `role` first keeps its copy.
    #[inline(always)]
    pub(crate) fn content(&mut self) -> RawResult<Content<'a>> {
        match self.cur.peek() {
            Some(b'"') => self.string("content").map(Content::Text),
            Some(b'[') => {
                let limit = self.opts.max_list_items;
                self.short_rlist("content", limit, |p, slot| p.input_content(|c| slot.put(c)))
                    .map(Content::Parts)
            }
            _ => Err(self.wrong_type("content", "a string or an array of content parts")),
        }
    }

    /// One content part, handed to `put` (which writes it in its list slot).
    pub(crate) fn input_content<R>(
        &mut self,
        put: impl FnOnce(InputContent<'a>) -> R,
    ) -> RawResult<R> {
        let mut b = PartParts::default();
        let mut obj = Obj::EMPTY;
        let kind = self.tagged_keyed(
            "content part",
            F::Type,
            "text, image, audio, video, document, binary",
            InputContentKind::from_name,
            |k| match k {
                InputContentKind::Text => TextInputContent::FIELDS,
                InputContentKind::Binary => BinaryInputContent::FIELDS,
                _ => MediaInputContent::FIELDS,
            },
            |k, f| {
                let (text, binary) = (k == InputContentKind::Text, k == InputContentKind::Binary);
                keys::part_id(text, binary, f)
            },
            &mut b,
            |_, _, _, _, _| Ok(()),
            // Every media kind reads `source` alike, and senders that sort their keys put it
            // (and its media) before `type`.
            |p, f, b| p.early_source(f, b),
            |_, _, _| true,
            |p, kind, f, b| {
                match f {
                    F::Id => b.id = p.opt_string("id")?,
                    F::Text => set(&mut b.text, p.string("text")?),
                    F::Source => set(&mut b.source, p.source()?),
                    // Part metadata may be any JSON value but null.
                    F::Metadata => b.metadata = p.metadata(true)?,
                    F::MimeType => set(&mut b.mime_type, p.string("mimeType")?),
                    F::Url => b.url = p.opt_string("url")?,
                    F::Data => b.data = p.opt_string("data")?,
                    F::Filename => b.filename = p.opt_string("filename")?,
                    _ => {}
                }
                let _ = kind;
                Ok(())
            },
            &mut obj,
        )?;
        let start = obj.start;
        let extra = self.finish(obj);
        let media = |b: PartParts<'a>, extra| -> RawResult<MediaInputContent<'a>> {
            Ok(MediaInputContent {
                id: b.id,
                source: b.source.ok_or_else(|| Self::missing(start, "source"))?,
                metadata: b.metadata,
                extra,
            })
        };
        Ok(put(match kind {
            InputContentKind::Text => InputContent::Text(TextInputContent {
                id: b.id,
                text: b.text.ok_or_else(|| Self::missing(start, "text"))?,
                metadata: b.metadata,
                extra,
            }),
            InputContentKind::Image => InputContent::Image(media(b, extra)?),
            InputContentKind::Audio => InputContent::Audio(media(b, extra)?),
            InputContentKind::Video => InputContent::Video(media(b, extra)?),
            InputContentKind::Document => InputContent::Document(media(b, extra)?),
            InputContentKind::Binary => {
                if b.id.is_none() && b.url.is_none() && b.data.is_none() {
                    return Err(RawError::new(
                        ErrorKind::InvalidValue {
                            field: "binary",
                            reason: "a binary part needs at least one of `id`, `url` or `data`",
                        },
                        start,
                    ));
                }
                InputContent::Binary(BinaryInputContent {
                    mime_type: b
                        .mime_type
                        .ok_or_else(|| Self::missing(start, "mimeType"))?,
                    id: b.id,
                    url: b.url,
                    data: b.data,
                    filename: b.filename,
                    extra,
                })
            }
        }))
    }

    /// A part's `source` met before its `type` (the cursor at the value), read as every media
    /// kind reads it: `false`, the cursor where it was, when `f` is another field or the
    /// value is not a source (it is then read once the kind is known). Out of line, with its
    /// own copy of [`Parser::source`].
    #[inline(never)]
    fn early_source(&mut self, f: F, b: &mut PartParts<'a>) -> RawResult<bool> {
        match (f, self.cur.peek()) {
            (F::Source, Some(b'{')) => self.attempt_into(&mut b.source, |p| p.source()),
            // A text part's `text` (sorted keys put it before `type`).
            (F::Text, Some(b'"')) => self.early_string("text", &mut b.text),
            _ => Ok(false),
        }
    }

    /// A message's `metadata` met before its `role`, read by [`Parser::attempt`] as every
    /// role reads it (an object kept raw): whether it was read (the cursor at an object).
    #[inline(never)]
    fn early_metadata(&mut self, slot: &mut Option<RawJson<'a>>) -> RawResult<bool> {
        if self.cur.peek() != Some(b'{') {
            return Ok(false);
        }
        // At an object, `metadata(false)` is the raw value.
        self.attempt_into(slot, |p| p.raw())
    }

    /// A string field met before the tag, read by [`Parser::attempt`] into `slot`: whether it
    /// was read (the cursor at a string).
    #[inline(never)]
    fn early_string(&mut self, field: &'static str, slot: &mut Option<Str<'a>>) -> RawResult<bool> {
        if self.cur.peek() != Some(b'"') {
            return Ok(false);
        }
        self.attempt_into(slot, |p| p.string(field))
    }

    /// [`Parser::attempt`] into `slot`: whether the value was read.
    #[inline(always)]
    fn attempt_into<T>(
        &mut self,
        slot: &mut Option<T>,
        read: impl FnOnce(&mut Self) -> RawResult<T>,
    ) -> RawResult<bool> {
        *slot = self.attempt(read)?;
        Ok(slot.is_some())
    }

    /// A content part's `source`: data, url or file.
    #[inline(always)]
    pub(crate) fn source(&mut self) -> RawResult<InputContentSource<'a>> {
        let mut b = SourceParts::default();
        let mut obj = Obj::EMPTY;
        let kind = self.tagged_keyed(
            "source",
            F::Type,
            "data, url, file",
            |s| match s {
                "data" => Some(SourceKind::Data),
                "url" => Some(SourceKind::Url),
                "file" => Some(SourceKind::File),
                _ => None,
            },
            |k| match k {
                SourceKind::Data => DataSource::FIELDS,
                SourceKind::Url => UrlSource::FIELDS,
                SourceKind::File => FileSource::FIELDS,
            },
            |k, f| keys::source_id(k as u8, f),
            &mut b,
            |_, _, _, _, _| Ok(()),
            // Every kind reads a string `mimeType` alike; sorted keys put it before `type`.
            |p, f, b| Ok(f == F::MimeType && p.early_string("mimeType", &mut b.mime_type)?),
            |_, _, _| true,
            |p, kind, f, b| {
                match (f, kind) {
                    (F::Value, _) => set(&mut b.value, p.string("value")?),
                    (F::MimeType, SourceKind::Data) => set(&mut b.mime_type, p.string("mimeType")?),
                    (F::MimeType, _) => b.mime_type = p.opt_string("mimeType")?,
                    (F::Provider, _) => b.provider = p.opt_string("provider")?,
                    _ => {}
                }
                Ok(())
            },
            &mut obj,
        )?;
        let start = obj.start;
        let extra = self.finish(obj);
        let value = b.value.ok_or_else(|| Self::missing(start, "value"))?;
        Ok(match kind {
            SourceKind::Data => InputContentSource::Data(DataSource {
                value,
                mime_type: b
                    .mime_type
                    .ok_or_else(|| Self::missing(start, "mimeType"))?,
                extra,
            }),
            SourceKind::Url => InputContentSource::Url(UrlSource {
                value,
                mime_type: b.mime_type,
                extra,
            }),
            SourceKind::File => InputContentSource::File(FileSource {
                value,
                provider: b.provider,
                mime_type: b.mime_type,
                extra,
            }),
        })
    }

    /// A tool call (a `toolCalls` item), handed to `put`, with (`HEAD`) or without the
    /// templates of its first fields and of its function's ([`Parser::tool_call_head`],
    /// [`Parser::tool_call_head_sorted`], [`Parser::function_head`],
    /// [`Parser::function_head_sorted`]); the differential tests compare the two.
    #[inline(always)]
    pub(crate) fn tool_call_in<const HEAD: bool, R>(
        &mut self,
        put: impl FnOnce(ToolCall<'a>) -> R,
    ) -> RawResult<R> {
        self.expect_kind(b'{', "toolCalls", "an object")?;
        let mut obj = self.open()?;
        let mut call = ToolCall::default();
        let (mut id, mut function) = (None, None);
        if HEAD {
            if self.tool_call_head(&mut obj, &mut id, &mut call) {
                set(&mut function, self.function_call::<HEAD>()?);
            } else if let Some(f) = self.tool_call_head_sorted(&mut obj, &mut id, &mut call)? {
                function = Some(f);
            }
        }
        let mut key = StrToken::EMPTY;
        while self.next_key_into(&mut obj, &mut key)? {
            let known = keys::field(&key).and_then(keys::tool_call_id);
            if let Some(k) = known {
                self.known_at(&mut obj, ToolCall::FIELDS, k, &key)?;
            }
            match known {
                Some(0) => set(&mut id, self.string("id")?),
                Some(1) => {
                    let at = self.cur.pos;
                    let t = self.string("type")?;
                    if !t.eq_text("function") {
                        let found = t.unescaped();
                        return Err(RawError::unknown_variant("type", &found, "function", at));
                    }
                    call.r#type = Some(t);
                }
                Some(2) => set(&mut function, self.function_call::<HEAD>()?),
                Some(3) => call.encrypted_value = self.opt_string("encryptedValue")?,
                Some(4) => call.metadata = self.metadata(false)?,
                _ => self.unknown(&mut obj, key)?,
            }
        }
        // Assembled in `put`'s place (a list slot), field by field: the whole call is not
        // moved through `Result`s.
        Ok(put(ToolCall {
            id: id.ok_or_else(|| Self::missing(obj.start, "id"))?,
            function: function.ok_or_else(|| Self::missing(obj.start, "function"))?,
            extra: self.finish(obj),
            ..call
        }))
    }

    pub(super) fn function_call<const HEAD: bool>(&mut self) -> RawResult<FunctionCall<'a>> {
        self.expect_kind(b'{', "function", "an object")?;
        let mut obj = self.open()?;
        let (mut name, mut arguments) = (None, None);
        if HEAD {
            if self.function_head(&mut obj, &mut name) {
                set(&mut arguments, self.string("arguments")?);
            } else {
                self.function_head_sorted(&mut obj, &mut name, &mut arguments)?;
            }
        }
        let mut key = StrToken::EMPTY;
        while self.next_key_into(&mut obj, &mut key)? {
            let known = keys::field(&key).and_then(keys::function_call_id);
            if let Some(k) = known {
                self.known_at(&mut obj, FunctionCall::FIELDS, k, &key)?;
            }
            match known {
                Some(0) => set(&mut name, self.string("name")?),
                Some(1) => set(&mut arguments, self.string("arguments")?),
                _ => self.unknown(&mut obj, key)?,
            }
        }
        Ok(FunctionCall {
            name: name.ok_or_else(|| Self::missing(obj.start, "name"))?,
            arguments: arguments.ok_or_else(|| Self::missing(obj.start, "arguments"))?,
            extra: self.finish(obj),
        })
    }

    pub(crate) fn tool(&mut self) -> RawResult<Tool<'a>> {
        self.expect_kind(b'{', "tools", "an object")?;
        let mut obj = self.open()?;
        let mut tool = Tool::default();
        let mut name = None;
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, Tool::FIELDS, &key)? {
                Some(0) => set(&mut name, self.string("name")?),
                Some(1) => tool.description = self.opt_string("description")?,
                Some(2) => tool.parameters = self.opt_any("parameters")?,
                Some(3) => tool.metadata = self.metadata(false)?,
                _ => self.unknown(&mut obj, key)?,
            }
        }
        tool.name = name.ok_or_else(|| Self::missing(obj.start, "name"))?;
        tool.extra = self.finish(obj);
        Ok(tool)
    }

    fn context(&mut self) -> RawResult<Context<'a>> {
        self.expect_kind(b'{', "context", "an object")?;
        let mut obj = self.open()?;
        let (mut description, mut value) = (None, None);
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, Context::FIELDS, &key)? {
                Some(0) => set(&mut description, self.string("description")?),
                Some(1) => set(&mut value, self.string("value")?),
                _ => self.unknown(&mut obj, key)?,
            }
        }
        Ok(Context {
            description: description.ok_or_else(|| Self::missing(obj.start, "description"))?,
            value: value.ok_or_else(|| Self::missing(obj.start, "value"))?,
            extra: self.finish(obj),
        })
    }

    fn resume_entry(&mut self) -> RawResult<ResumeEntry<'a>> {
        self.expect_kind(b'{', "resume", "an object")?;
        let mut obj = self.open()?;
        let mut entry = ResumeEntry::default();
        let (mut interrupt_id, mut status) = (None, None);
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, ResumeEntry::FIELDS, &key)? {
                Some(0) => set(&mut interrupt_id, self.string("interruptId")?),
                Some(1) => {
                    let at = self.cur.pos;
                    let s = self.string("status")?;
                    let st = ResumeStatus::from_name(&s.unescaped()).ok_or_else(|| {
                        let expected = "resolved, cancelled";
                        RawError::unknown_variant("status", &s.unescaped(), expected, at)
                    })?;
                    set(&mut status, st);
                }
                Some(2) => entry.payload = self.opt_any("payload")?,
                Some(3) => entry.metadata = self.metadata(false)?,
                _ => self.unknown(&mut obj, key)?,
            }
        }
        entry.interrupt_id = interrupt_id.ok_or_else(|| Self::missing(obj.start, "interruptId"))?;
        entry.status = status.ok_or_else(|| Self::missing(obj.start, "status"))?;
        entry.extra = self.finish(obj);
        Ok(entry)
    }
}
