//! Reading events: the `type` dispatch, every event's fields, JSON Patch validation.

use std::mem::ManuallyDrop;

use bumpalo::Bump;
use smallvec::SmallVec;

use super::fields::{self, F};
use super::*;
use crate::error::{Error, ErrorKind, RawError, RawResult};
use crate::model::{Content, JsonKind, List, Message, RawJson, Role, RunAgentInput, Str};
use crate::parser::{Obj, ParseOptions, Parser, set};
use crate::scanner::StrToken;

/// The largest magnitude of a `timestamp`: 2^53 − 1, the integers a JavaScript number holds.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

impl<'a> Event<'a> {
    /// Parses one event (the JSON of one SSE `data:` frame) with the default [`ParseOptions`].
    ///
    /// Strings and JSON values borrow from `input`; lists and unknown fields go into `arena`.
    /// Errors carry the byte offset and the JSON path.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let ev = Event::parse(br#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search"}"#, &arena)?;
    /// assert_eq!(ev.type_name(), "TOOL_CALL_START");
    ///
    /// let err = Event::parse(br#"{"type":"RUN_FINISHED","threadId":"t","runId":"r",
    ///   "outcome":{"type":"interrupt","interrupts":[{"id":"i1"}]}}"#, &arena).unwrap_err();
    /// assert_eq!(err.to_string(),
    ///     "missing required field `reason` at outcome.interrupts[0] (byte 97)");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn parse(input: &'a [u8], arena: &'a Bump) -> Result<Event<'a>, Error> {
        Self::parse_with(input, arena, &ParseOptions::default())
    }

    /// Parses one event with the given options. With
    /// [`null_as_absent`](ParseOptions::null_as_absent) an optional field sent as `null` (the
    /// Python SDK's habit: `"parentMessageId": null`, `"outcome": null`, `"metadata": null`)
    /// reads as absent; by default it is an error, as in the TypeScript SDK.
    ///
    /// ```
    /// use agui_wire::{Event, ParseOptions, Bump};
    /// let arena = Bump::new();
    /// let body = br#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f","parentMessageId":null}"#;
    /// assert!(Event::parse(body, &arena).is_err());
    /// let Event::ToolCallStart(s) = Event::parse_with(body, &arena, &ParseOptions::lenient())? else { panic!() };
    /// assert!(s.parent_message_id.is_none());
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn parse_with(
        input: &'a [u8],
        arena: &'a Bump,
        options: &ParseOptions,
    ) -> Result<Event<'a>, Error> {
        // The common events in one pass; anything else (errors included) the general way.
        if let Some(q) = super::fast::template(input, arena, options) {
            return Ok(super::fast::build_templated(q));
        }
        if let Some(ev) = super::fast::tool_result(input, arena, options) {
            return Ok(ev);
        }
        let mut fields = super::fast::Fields::new();
        if super::fast::read(input, arena, options, &mut fields) {
            return Ok(super::fast::build(fields));
        }
        Self::parse_general(input, arena, options)
    }

    /// [`Event::parse_with`] without its fast path (the reference it is compared with).
    pub(crate) fn parse_general(
        input: &'a [u8],
        arena: &'a Bump,
        options: &ParseOptions,
    ) -> Result<Event<'a>, Error> {
        // The fields are gathered into `parts` and the event is built last, straight into the
        // returned `Result`: the (large) `Event` is never moved through the parser's results.
        //
        // `parts` is not dropped: everything the parser puts there borrows from `input` or
        // `arena` (no drop needed, and skipping the drop of its forty fields saves about 4% of
        // an event's cost), except the boxed `input` of `RUN_STARTED`, dropped here by hand.
        // (`Str` could own a `String`, but the parser never makes one; `tests/no_alloc.rs`,
        // `events_allocate_nothing_and_leak_nothing`, fails if any path leaks or allocates.)
        let mut parts = ManuallyDrop::new(Parts::default());
        let head = match Parser::document(input, arena, options, "event", |p| p.event(&mut parts)) {
            Ok(head) => head,
            Err(e) => {
                drop(parts.input.take());
                return Err(e);
            }
        };
        let run_input = parts.input.take();
        build(head, &mut parts, run_input, input)
    }
}

/// What [`Parser::event`] returns besides the fields: the type, the unknown fields and where
/// the object starts (for a missing field's error).
struct Head<'a> {
    kind: Kind,
    type_str: Str<'a>,
    extra: crate::model::Extra<'a>,
    start: usize,
}

/// The kind of an event while it is read: a known type, or an unknown one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Known(EventType),
    Unknown,
}

impl Kind {
    fn fields(self) -> &'static [&'static str] {
        match self {
            Kind::Known(t) => t.fields(),
            Kind::Unknown => &["type"],
        }
    }
}

/// Every field any event may have, while the event is read.
#[derive(Default)]
struct Parts<'a> {
    timestamp: Option<i64>,
    raw_event: Option<RawJson<'a>>,
    metadata: Option<RawJson<'a>>,
    subagent_run_id: Option<Str<'a>>,
    thread_id: Option<Str<'a>>,
    run_id: Option<Str<'a>>,
    protocol_version: Option<Str<'a>>,
    parent_run_id: Option<Str<'a>>,
    input: Option<Box<RunAgentInput<'a>>>,
    result: Option<RawJson<'a>>,
    run_outcome: Option<RunOutcome<'a>>,
    subagent_outcome: Option<SubagentOutcome<'a>>,
    usage: Option<List<'a, TokenUsage<'a>>>,
    message: Option<Str<'a>>,
    code: Option<Str<'a>>,
    step_name: Option<Str<'a>>,
    message_id: Option<Str<'a>>,
    role: Option<Role>,
    name: Option<Str<'a>>,
    delta: Option<Str<'a>>,
    patch: Option<RawJson<'a>>,
    tool_call_id: Option<Str<'a>>,
    tool_call_name: Option<Str<'a>>,
    parent_message_id: Option<Str<'a>>,
    content: Option<Content<'a>>,
    raw_content: Option<RawJson<'a>>,
    snapshot: Option<RawJson<'a>>,
    messages: Option<List<'a, Message<'a>>>,
    activity_type: Option<Str<'a>>,
    replace: Option<bool>,
    event: Option<RawJson<'a>>,
    source: Option<Str<'a>>,
    value: Option<RawJson<'a>>,
    subtype: Option<EncryptedValueSubtype>,
    entity_id: Option<Str<'a>>,
    encrypted_value: Option<Str<'a>>,
    description: Option<Str<'a>>,
    parent_subagent_run_id: Option<Str<'a>>,
    parent_tool_call_id: Option<Str<'a>>,
}

/// The roles the `role` of an event of type `t` may take, and how an error names them.
pub(super) fn roles(t: EventType) -> (&'static [Role], &'static str) {
    match t {
        EventType::ToolCallResult => (&[Role::Tool], "tool"),
        EventType::ReasoningMessageStart => (&[Role::Reasoning], "reasoning"),
        _ => (
            &[Role::Developer, Role::System, Role::Assistant, Role::User],
            "developer, system, assistant, user",
        ),
    }
}

fn variant_error(
    field: &'static str,
    found: &Str<'_>,
    expected: &'static str,
    at: usize,
) -> RawError {
    RawError::unknown_variant(field, &found.unescaped(), expected, at)
}

impl<'a> Parser<'a, '_> {
    /// One event object (the cursor at its `{`).
    fn event(&mut self, b: &mut Parts<'a>) -> RawResult<Head<'a>> {
        let mut obj = self.open()?;
        let mut pending: SmallVec<[(StrToken<'a>, usize); 4]> = SmallVec::new();
        let mut kind: Option<Kind> = None;
        let mut type_str: Option<Str<'a>> = None;
        while let Some(key) = self.next_key(&mut obj)? {
            match kind {
                Some(k) => self.event_field(&mut obj, k, key, b)?,
                None if Self::key_is(&key, "type") => {
                    let t = self.string("type")?;
                    let k = match EventType::from_name(&t.unescaped()) {
                        Some(t) => Kind::Known(t),
                        None => Kind::Unknown,
                    };
                    let resume = self.cur.pos;
                    let depth = self.depth;
                    for (pkey, pos) in pending.drain(..) {
                        self.cur.pos = pos;
                        self.event_field(&mut obj, k, pkey, b)?;
                    }
                    self.cur.pos = resume;
                    self.depth = depth;
                    // `type` is field 0 of every event type.
                    self.known_at(&mut obj, k.fields(), 0, &key)?;
                    kind = Some(k);
                    type_str = Some(t);
                }
                None => {
                    pending.push((key, self.cur.pos));
                    self.cur.skip_value(self.depth, self.opts.max_depth)?;
                }
            }
        }
        let (Some(kind), Some(type_str)) = (kind, type_str) else {
            return Err(Self::missing(obj.start, "type"));
        };
        let start = obj.start;
        let extra = self.finish(obj);
        Ok(Head {
            kind,
            type_str,
            extra,
            start,
        })
    }

    fn event_field(
        &mut self,
        obj: &mut Obj<'a>,
        kind: Kind,
        key: StrToken<'a>,
        b: &mut Parts<'a>,
    ) -> RawResult<()> {
        let Kind::Known(t) = kind else {
            // Only a second `type` is known here (and an error: a duplicate).
            self.known(obj, kind.fields(), &key)?;
            return self.unknown(obj, key);
        };
        let f = if key.escaped {
            fields::field_escaped(&Str::from_validated(key.raw, true))
        } else {
            fields::field(key.raw.as_bytes())
        };
        let Some((f, id)) = f.and_then(|f| Some((f, fields::id(t, f)?))) else {
            return self.unknown(obj, key);
        };
        self.known_at(obj, t.fields(), id, &key)?;
        use EventType as T;
        let chunk = matches!(
            t,
            T::TextMessageChunk | T::ToolCallChunk | T::ReasoningMessageChunk
        );
        let subagent = matches!(
            t,
            T::SubagentStarted | T::SubagentFinished | T::SubagentError
        );
        match f {
            F::Timestamp => b.timestamp = self.timestamp()?,
            F::RawEvent => b.raw_event = self.opt_any("rawEvent")?,
            F::Metadata => b.metadata = self.metadata(false)?,
            F::SubagentRunId if subagent => {
                set(&mut b.subagent_run_id, self.string("subagentRunId")?)
            }
            F::SubagentRunId => b.subagent_run_id = self.opt_string("subagentRunId")?,
            F::ThreadId => set(&mut b.thread_id, self.string("threadId")?),
            F::RunId => set(&mut b.run_id, self.string("runId")?),
            F::ProtocolVersion => b.protocol_version = self.opt_string("protocolVersion")?,
            F::ParentRunId => b.parent_run_id = self.opt_string("parentRunId")?,
            F::Input => {
                if !self.null_as_absent("input")? {
                    self.expect_kind(b'{', "input", "an object")?;
                    b.input = Some(Box::new(self.run_agent_input()?));
                }
            }
            F::Result => b.result = self.opt_any("result")?,
            F::Outcome => {
                if !self.null_as_absent("outcome")? {
                    if t == T::RunFinished {
                        b.run_outcome = Some(self.run_outcome()?);
                    } else {
                        b.subagent_outcome = Some(self.subagent_outcome()?);
                    }
                }
            }
            F::Usage => b.usage = self.opt_list("usage", |p| p.token_usage())?,
            F::Message => set(&mut b.message, self.string("message")?),
            F::Code => b.code = self.opt_string("code")?,
            F::StepName => set(&mut b.step_name, self.string("stepName")?),
            F::MessageId if chunk => b.message_id = self.opt_string("messageId")?,
            F::MessageId => set(&mut b.message_id, self.string("messageId")?),
            F::Role => {
                let (allowed, expected) = roles(t);
                b.role = self.role_in(allowed, expected)?;
            }
            F::Name if matches!(t, T::Custom | T::SubagentStarted) => {
                set(&mut b.name, self.string("name")?)
            }
            F::Name => b.name = self.opt_string("name")?,
            F::Delta if t == T::StateDelta => set(&mut b.patch, self.json_patch("delta")?),
            F::Delta if chunk => b.delta = self.opt_string("delta")?,
            F::Delta => set(&mut b.delta, self.string("delta")?),
            F::Patch => set(&mut b.patch, self.json_patch("patch")?),
            F::ToolCallId if chunk => b.tool_call_id = self.opt_string("toolCallId")?,
            F::ToolCallId => set(&mut b.tool_call_id, self.string("toolCallId")?),
            F::ToolCallName if chunk => b.tool_call_name = self.opt_string("toolCallName")?,
            F::ToolCallName => set(&mut b.tool_call_name, self.string("toolCallName")?),
            F::ParentMessageId => b.parent_message_id = self.opt_string("parentMessageId")?,
            F::Content if t == T::ActivitySnapshot => {
                set(&mut b.raw_content, self.raw_object("content")?)
            }
            F::Content => set(&mut b.content, self.content()?),
            F::Snapshot => set(&mut b.snapshot, self.raw()?),
            F::Messages => {
                let limit = self.opts.max_messages;
                set(
                    &mut b.messages,
                    self.list("messages", limit, |p| p.message())?,
                );
            }
            F::ActivityType => set(&mut b.activity_type, self.string("activityType")?),
            F::Replace => b.replace = self.opt_bool("replace")?,
            F::Event => set(&mut b.event, self.raw()?),
            F::Source => b.source = self.opt_string("source")?,
            F::Value => set(&mut b.value, self.raw()?),
            F::Subtype => {
                let at = self.cur.pos;
                let s = self.string("subtype")?;
                let st = EncryptedValueSubtype::from_name(&s.unescaped())
                    .ok_or_else(|| variant_error("subtype", &s, "tool-call, message", at))?;
                set(&mut b.subtype, st);
            }
            F::EntityId => set(&mut b.entity_id, self.string("entityId")?),
            F::EncryptedValue => set(&mut b.encrypted_value, self.string("encryptedValue")?),
            F::Description => b.description = self.opt_string("description")?,
            F::ParentSubagentRunId => {
                b.parent_subagent_run_id = self.opt_string("parentSubagentRunId")?
            }
            F::ParentToolCallId => b.parent_tool_call_id = self.opt_string("parentToolCallId")?,
            F::Type => self.unknown(obj, key)?,
        }
        Ok(())
    }

    /// `timestamp`: an integer within ±(2^53 − 1). Any integral spelling counts (`1.0`, `1e3`,
    /// `-0`), as in both SDKs (JSON.parse reads `1.0` as 1); `1.5` is not an integer.
    pub(super) fn timestamp(&mut self) -> RawResult<Option<i64>> {
        if self.null_as_absent("timestamp")? {
            return Ok(None);
        }
        if !matches!(self.cur.peek(), Some(b'-' | b'0'..=b'9')) {
            return Err(self.wrong_type("timestamp", "an integer"));
        }
        let start = self.cur.pos;
        self.cur.number()?;
        let text = self.cur.text(start, self.cur.pos).as_bytes();
        let (negative, magnitude) = match text.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, text),
        };
        let invalid = |reason| {
            RawError::new(
                ErrorKind::InvalidValue {
                    field: "timestamp",
                    reason,
                },
                start,
            )
        };
        // `integral_value` reads a whole number of any spelling (here, the magnitude).
        let Some(v) = crate::parser::integral_value(magnitude) else {
            // Not a whole number, or too large for 64 bits.
            let whole = std::str::from_utf8(text)
                .ok()
                .and_then(|t| t.parse::<f64>().ok())
                .is_none_or(|f| !f.is_finite() || f.fract() == 0.0);
            return Err(invalid(if whole {
                "must lie within ±(2^53 − 1)"
            } else {
                "must be an integer"
            }));
        };
        if v > MAX_SAFE_INTEGER as u64 {
            return Err(invalid("must lie within ±(2^53 − 1)"));
        }
        let v = v as i64;
        Ok(Some(if negative { -v } else { v }))
    }

    /// An optional `role` limited to `allowed`.
    pub(super) fn role_in(
        &mut self,
        allowed: &[Role],
        expected: &'static str,
    ) -> RawResult<Option<Role>> {
        if self.null_as_absent("role")? {
            return Ok(None);
        }
        let at = self.cur.pos;
        let s = self.string("role")?;
        match Role::from_name(&s.unescaped()) {
            Some(r) if allowed.contains(&r) => Ok(Some(r)),
            _ => Err(variant_error("role", &s, expected, at)),
        }
    }

    /// An RFC 6902 JSON Patch, validated and kept raw.
    pub(crate) fn json_patch(&mut self, field: &'static str) -> RawResult<RawJson<'a>> {
        if self.cur.peek() != Some(b'[') {
            return Err(self.wrong_type(field, "an array of JSON Patch operations"));
        }
        let start = self.cur.pos;
        let ws = self.cur.ws;
        let limit = self.opts.max_list_items;
        // A compact patch in one quick pass; anything else (and any error) the general way.
        if self.cur.resume.is_some()
            || !super::small::compact_patch(&mut self.cur, self.depth, self.opts.max_depth, limit)
        {
            self.list(field, limit, |p| p.patch_op())?;
        }
        let text = self.cur.text(start, self.cur.pos);
        Ok(RawJson::from_validated(
            text,
            JsonKind::Array,
            self.cur.ws == ws,
        ))
    }

    /// [`Parser::json_patch`]'s general reader alone (its twin test compares the compact one
    /// with it): the operations, the cursor at the `[`.
    pub(crate) fn json_patch_general(&mut self, field: &'static str) -> RawResult<()> {
        let limit = self.opts.max_list_items;
        self.list(field, limit, |p| p.patch_op()).map(|_| ())
    }

    /// One patch operation: `op`, `path`, and `from` or `value` as the operation needs. Other
    /// members are validated JSON and otherwise ignored, as RFC 6902 says.
    fn patch_op(&mut self) -> RawResult<()> {
        const FIELDS: &[&str] = &["op", "path", "from", "value"];
        self.expect_kind(b'{', "patch operation", "an object")?;
        let mut obj = self.open()?;
        // 0 add, 1 remove, 2 replace, 3 move, 4 copy, 5 test
        const OPS: [&str; 6] = ["add", "remove", "replace", "move", "copy", "test"];
        let (mut op, mut path, mut from, mut value) = (None, false, false, false);
        while let Some(key) = self.next_key(&mut obj)? {
            // `known`, with the four names matched at once.
            let id = match (key.escaped, key.raw) {
                (true, _) => FIELDS.iter().position(|f| Self::key_is(&key, f)),
                (false, "op") => Some(0),
                (false, "path") => Some(1),
                (false, "from") => Some(2),
                (false, "value") => Some(3),
                (false, _) => None,
            };
            if let Some(id) = id {
                self.known_at(&mut obj, FIELDS, id, &key)?;
            }
            match id {
                Some(0) => {
                    let at = self.cur.pos;
                    let s = self.string("op")?;
                    let found = OPS.iter().position(|o| s.eq_text(o));
                    let Some(i) = found else {
                        return Err(variant_error(
                            "op",
                            &s,
                            "add, remove, replace, move, copy, test",
                            at,
                        ));
                    };
                    op = Some(i);
                }
                Some(1) => path = self.pointer("path")?,
                Some(2) => from = self.pointer("from")?,
                Some(3) => {
                    self.patch_value()?;
                    value = true;
                }
                _ => self.patch_value()?,
            }
        }
        let op = op.ok_or_else(|| Self::missing(obj.start, "op"))?;
        if !path {
            return Err(Self::missing(obj.start, "path"));
        }
        match op {
            3 | 4 if !from => Err(Self::missing(obj.start, "from")),
            0 | 2 | 5 if !value => Err(Self::missing(obj.start, "value")),
            _ => Ok(()),
        }
    }

    /// A member's value in a patch operation: a small compact value by the quick
    /// validator ([`super::small`]), anything else (and anything it does not read) by the
    /// general skip, which keeps the errors, offsets and paths.
    #[inline(always)]
    fn patch_value(&mut self) -> RawResult<()> {
        if self.cur.resume.is_none()
            && super::small::small_value(&mut self.cur, self.depth, self.opts.max_depth)
        {
            return Ok(());
        }
        self.cur.skip_value(self.depth, self.opts.max_depth)?;
        Ok(())
    }

    /// A JSON Pointer (RFC 6901): empty, or `/`-separated tokens where `~` is only in `~0`,
    /// `~1`. Returns `true` (the field is present).
    fn pointer(&mut self, field: &'static str) -> RawResult<bool> {
        let at = self.cur.pos;
        // A short plain pointer (`/steps/s4`) by the short look and checked as it stands; any
        // other string (or no string) the general way.
        let plain = if self.cur.resume.is_none() && self.cur.peek() == Some(b'"') {
            match self.cur.short_string() {
                Some(t) if !t.escaped => Some(t.raw),
                Some(_) => {
                    self.cur.pos = at;
                    None
                }
                None => None,
            }
        } else {
            None
        };
        let valid = match plain {
            Some(raw) => is_json_pointer(raw),
            None => is_json_pointer(&self.string(field)?.unescaped()),
        };
        if !valid {
            return Err(RawError::new(
                ErrorKind::InvalidValue {
                    field,
                    reason: "must be a JSON Pointer: empty or starting with `/`, with `~` only as `~0` or `~1`",
                },
                at,
            ));
        }
        Ok(true)
    }

    fn token_usage(&mut self) -> RawResult<TokenUsage<'a>> {
        self.expect_kind(b'{', "usage", "an object")?;
        let mut obj = self.open()?;
        let mut u = TokenUsage::default();
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, TokenUsage::FIELDS, &key)? {
                Some(0) => u.provider = self.opt_string("provider")?,
                Some(1) => u.model = self.opt_string("model")?,
                Some(2) => u.input_tokens = self.opt_u64("inputTokens")?,
                Some(3) => u.output_tokens = self.opt_u64("outputTokens")?,
                Some(4) => u.total_tokens = self.opt_u64("totalTokens")?,
                Some(5) => u.reasoning_tokens = self.opt_u64("reasoningTokens")?,
                Some(6) => u.cached_input_tokens = self.opt_u64("cachedInputTokens")?,
                Some(7) => u.cache_write_input_tokens = self.opt_u64("cacheWriteInputTokens")?,
                _ => self.unknown(&mut obj, key)?,
            }
        }
        u.extra = self.finish(obj);
        Ok(u)
    }

    fn interrupt(&mut self) -> RawResult<Interrupt<'a>> {
        self.expect_kind(b'{', "interrupts", "an object")?;
        let mut obj = self.open()?;
        let mut i = Interrupt::default();
        let (mut id, mut reason) = (None, None);
        while let Some(key) = self.next_key(&mut obj)? {
            match self.known(&mut obj, Interrupt::FIELDS, &key)? {
                Some(0) => i.subagent_run_id = self.opt_string("subagentRunId")?,
                Some(1) => set(&mut id, self.string("id")?),
                Some(2) => set(&mut reason, self.string("reason")?),
                Some(3) => i.message = self.opt_string("message")?,
                Some(4) => i.tool_call_id = self.opt_string("toolCallId")?,
                Some(5) => {
                    if !self.null_as_absent("responseSchema")? {
                        i.response_schema = Some(self.raw_object("responseSchema")?);
                    }
                }
                Some(6) => i.expires_at = self.opt_string("expiresAt")?,
                Some(7) => i.metadata = self.metadata(false)?,
                _ => self.unknown(&mut obj, key)?,
            }
        }
        i.id = id.ok_or_else(|| Self::missing(obj.start, "id"))?;
        i.reason = reason.ok_or_else(|| Self::missing(obj.start, "reason"))?;
        i.extra = self.finish(obj);
        Ok(i)
    }

    fn string_list(&mut self, field: &'static str) -> RawResult<Option<List<'a, Str<'a>>>> {
        self.opt_list(field, |p| p.string(field))
    }

    fn run_outcome(&mut self) -> RawResult<RunOutcome<'a>> {
        #[derive(Clone, Copy)]
        enum K {
            Success,
            Interrupt,
            Cancelled,
        }
        #[derive(Default)]
        struct B<'a> {
            pending: Option<List<'a, Str<'a>>>,
            interrupts: Option<List<'a, Interrupt<'a>>>,
        }
        let mut b = B::default();
        let (k, obj) = self.tagged(
            "outcome",
            "type",
            "success, interrupt, cancelled",
            |s| match s {
                "success" => Some(K::Success),
                "interrupt" => Some(K::Interrupt),
                "cancelled" => Some(K::Cancelled),
                _ => None,
            },
            |k| match k {
                K::Success => &["type", "pendingToolCallIds"],
                K::Interrupt => &["type", "interrupts"],
                K::Cancelled => &["type"],
            },
            &mut b,
            |p, _, name, b| {
                match name {
                    "pendingToolCallIds" => b.pending = p.string_list("pendingToolCallIds")?,
                    "interrupts" => {
                        let at = p.cur.pos;
                        let limit = p.opts.max_list_items;
                        let list = p.list("interrupts", limit, |p| p.interrupt())?;
                        if list.is_empty() {
                            return Err(RawError::new(
                                ErrorKind::InvalidValue {
                                    field: "interrupts",
                                    reason: "must hold at least one interrupt",
                                },
                                at,
                            ));
                        }
                        set(&mut b.interrupts, list);
                    }
                    _ => {}
                }
                Ok(())
            },
        )?;
        let start = obj.start;
        let extra = self.finish(obj);
        Ok(match k {
            K::Success => RunOutcome::Success {
                pending_tool_call_ids: b.pending,
                extra,
            },
            K::Interrupt => RunOutcome::Interrupt {
                interrupts: b
                    .interrupts
                    .ok_or_else(|| Self::missing(start, "interrupts"))?,
                extra,
            },
            K::Cancelled => RunOutcome::Cancelled { extra },
        })
    }

    fn subagent_outcome(&mut self) -> RawResult<SubagentOutcome<'a>> {
        #[derive(Clone, Copy)]
        enum K {
            Success,
            Suspended,
        }
        let mut ids: Option<List<'a, Str<'a>>> = None;
        let (k, obj) = self.tagged(
            "outcome",
            "type",
            "success, suspended",
            |s| match s {
                "success" => Some(K::Success),
                "suspended" => Some(K::Suspended),
                _ => None,
            },
            |k| match k {
                K::Success => &["type"],
                K::Suspended => &["type", "interruptIds"],
            },
            &mut ids,
            |p, _, name, ids| {
                if name == "interruptIds" {
                    *ids = p.string_list("interruptIds")?;
                }
                Ok(())
            },
        )?;
        let extra = self.finish(obj);
        Ok(match k {
            K::Success => SubagentOutcome::Success { extra },
            K::Suspended => SubagentOutcome::Suspended {
                interrupt_ids: ids,
                extra,
            },
        })
    }
}

/// Whether `p` is a JSON Pointer per RFC 6901 (the regex `^(/([^/~]|~[01])*)*$`).
pub(crate) fn is_json_pointer(p: &str) -> bool {
    if p.is_empty() {
        return true;
    }
    let b = p.as_bytes();
    if b.first() != Some(&b'/') {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'~' {
            if !matches!(b.get(i + 1), Some(b'0' | b'1')) {
                return false;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    true
}

/// Assembles the event of type `t` from its fields, checking the required ones.
/// The event from its parts (`run_input` is `RUN_STARTED`'s `input`, taken out of them), or the error of a missing required field (located in `input`).
/// The `Result` is the one [`Event::parse_with`] returns, built in place (inlined there, so
/// that `b` is not copied either).
#[inline(always)]
fn build<'a>(
    head: Head<'a>,
    b: &mut Parts<'a>,
    run_input: Option<Box<RunAgentInput<'a>>>,
    input: &[u8],
) -> Result<Event<'a>, Error> {
    let Head {
        kind,
        type_str,
        extra,
        start,
    } = head;
    let t = match kind {
        Kind::Known(t) => t,
        Kind::Unknown => {
            return Ok(Event::Unknown {
                r#type: type_str,
                fields: extra,
            });
        }
    };
    #[cold]
    fn missing(start: usize, field: &'static str, input: &[u8]) -> Error {
        Parser::missing(start, field).locate(input)
    }
    #[inline(always)]
    fn need<T>(v: Option<T>, start: usize, field: &'static str, input: &[u8]) -> Result<T, Error> {
        match v {
            Some(v) => Ok(v),
            None => Err(missing(start, field, input)),
        }
    }
    let base = EventBase {
        timestamp: b.timestamp.take(),
        raw_event: b.raw_event.take(),
        metadata: b.metadata.take(),
        subagent_run_id: None,
        extra,
    };
    let with_sub = |mut base: EventBase<'a>, sub: Option<Str<'a>>| {
        base.subagent_run_id = sub;
        base
    };
    use EventType as T;
    let sub = b.subagent_run_id.take();
    Ok(match t {
        T::RunStarted => Event::RunStarted(RunStartedEvent {
            base,
            thread_id: need(b.thread_id.take(), start, "threadId", input)?,
            run_id: need(b.run_id.take(), start, "runId", input)?,
            protocol_version: b.protocol_version.take(),
            parent_run_id: b.parent_run_id.take(),
            input: run_input,
        }),
        T::RunFinished => Event::RunFinished(RunFinishedEvent {
            base,
            thread_id: need(b.thread_id.take(), start, "threadId", input)?,
            run_id: need(b.run_id.take(), start, "runId", input)?,
            result: b.result.take(),
            outcome: b.run_outcome.take(),
            usage: b.usage.take(),
        }),
        T::RunError => Event::RunError(RunErrorEvent {
            base,
            message: need(b.message.take(), start, "message", input)?,
            code: b.code.take(),
            usage: b.usage.take(),
        }),
        T::StepStarted => Event::StepStarted(StepStartedEvent {
            base: with_sub(base, sub),
            step_name: need(b.step_name.take(), start, "stepName", input)?,
        }),
        T::StepFinished => Event::StepFinished(StepFinishedEvent {
            base: with_sub(base, sub),
            step_name: need(b.step_name.take(), start, "stepName", input)?,
        }),
        T::TextMessageStart => Event::TextMessageStart(TextMessageStartEvent {
            base: with_sub(base, sub),
            message_id: need(b.message_id.take(), start, "messageId", input)?,
            role: b.role.take(),
            name: b.name.take(),
        }),
        T::TextMessageContent => Event::TextMessageContent(TextMessageContentEvent {
            base: with_sub(base, sub),
            message_id: need(b.message_id.take(), start, "messageId", input)?,
            delta: need(b.delta.take(), start, "delta", input)?,
        }),
        T::TextMessageEnd => Event::TextMessageEnd(TextMessageEndEvent {
            base: with_sub(base, sub),
            message_id: need(b.message_id.take(), start, "messageId", input)?,
        }),
        T::TextMessageChunk => Event::TextMessageChunk(TextMessageChunkEvent {
            base: with_sub(base, sub),
            message_id: b.message_id.take(),
            role: b.role.take(),
            delta: b.delta.take(),
            name: b.name.take(),
        }),
        T::ToolCallStart => Event::ToolCallStart(ToolCallStartEvent {
            base: with_sub(base, sub),
            tool_call_id: need(b.tool_call_id.take(), start, "toolCallId", input)?,
            tool_call_name: need(b.tool_call_name.take(), start, "toolCallName", input)?,
            parent_message_id: b.parent_message_id.take(),
        }),
        T::ToolCallArgs => Event::ToolCallArgs(ToolCallArgsEvent {
            base: with_sub(base, sub),
            tool_call_id: need(b.tool_call_id.take(), start, "toolCallId", input)?,
            delta: need(b.delta.take(), start, "delta", input)?,
        }),
        T::ToolCallEnd => Event::ToolCallEnd(ToolCallEndEvent {
            base: with_sub(base, sub),
            tool_call_id: need(b.tool_call_id.take(), start, "toolCallId", input)?,
        }),
        T::ToolCallChunk => Event::ToolCallChunk(ToolCallChunkEvent {
            base: with_sub(base, sub),
            tool_call_id: b.tool_call_id.take(),
            tool_call_name: b.tool_call_name.take(),
            parent_message_id: b.parent_message_id.take(),
            delta: b.delta.take(),
        }),
        T::ToolCallResult => Event::ToolCallResult(ToolCallResultEvent {
            base: with_sub(base, sub),
            message_id: need(b.message_id.take(), start, "messageId", input)?,
            tool_call_id: need(b.tool_call_id.take(), start, "toolCallId", input)?,
            content: need(b.content.take(), start, "content", input)?,
            role: b.role.take(),
        }),
        T::StateSnapshot => Event::StateSnapshot(StateSnapshotEvent {
            base: with_sub(base, sub),
            snapshot: need(b.snapshot.take(), start, "snapshot", input)?,
        }),
        T::StateDelta => Event::StateDelta(StateDeltaEvent {
            base: with_sub(base, sub),
            delta: need(b.patch.take(), start, "delta", input)?,
        }),
        T::MessagesSnapshot => Event::MessagesSnapshot(MessagesSnapshotEvent {
            base,
            messages: need(b.messages.take(), start, "messages", input)?,
        }),
        T::ActivitySnapshot => Event::ActivitySnapshot(ActivitySnapshotEvent {
            base: with_sub(base, sub),
            message_id: need(b.message_id.take(), start, "messageId", input)?,
            activity_type: need(b.activity_type.take(), start, "activityType", input)?,
            content: need(b.raw_content.take(), start, "content", input)?,
            replace: b.replace.take(),
        }),
        T::ActivityDelta => Event::ActivityDelta(ActivityDeltaEvent {
            base: with_sub(base, sub),
            message_id: need(b.message_id.take(), start, "messageId", input)?,
            activity_type: need(b.activity_type.take(), start, "activityType", input)?,
            patch: need(b.patch.take(), start, "patch", input)?,
        }),
        T::Raw => Event::Raw(RawEvent {
            base: with_sub(base, sub),
            event: need(b.event.take(), start, "event", input)?,
            source: b.source.take(),
        }),
        T::Custom => Event::Custom(CustomEvent {
            base: with_sub(base, sub),
            name: need(b.name.take(), start, "name", input)?,
            value: need(b.value.take(), start, "value", input)?,
        }),
        T::ReasoningStart => Event::ReasoningStart(ReasoningStartEvent {
            base: with_sub(base, sub),
            message_id: need(b.message_id.take(), start, "messageId", input)?,
        }),
        T::ReasoningMessageStart => Event::ReasoningMessageStart(ReasoningMessageStartEvent {
            base: with_sub(base, sub),
            message_id: need(b.message_id.take(), start, "messageId", input)?,
            role: b.role.take(),
        }),
        T::ReasoningMessageContent => {
            Event::ReasoningMessageContent(ReasoningMessageContentEvent {
                base: with_sub(base, sub),
                message_id: need(b.message_id.take(), start, "messageId", input)?,
                delta: need(b.delta.take(), start, "delta", input)?,
            })
        }
        T::ReasoningMessageEnd => Event::ReasoningMessageEnd(ReasoningMessageEndEvent {
            base: with_sub(base, sub),
            message_id: need(b.message_id.take(), start, "messageId", input)?,
        }),
        T::ReasoningMessageChunk => Event::ReasoningMessageChunk(ReasoningMessageChunkEvent {
            base: with_sub(base, sub),
            message_id: b.message_id.take(),
            delta: b.delta.take(),
        }),
        T::ReasoningEnd => Event::ReasoningEnd(ReasoningEndEvent {
            base: with_sub(base, sub),
            message_id: need(b.message_id.take(), start, "messageId", input)?,
        }),
        T::ReasoningEncryptedValue => {
            Event::ReasoningEncryptedValue(ReasoningEncryptedValueEvent {
                base: with_sub(base, sub),
                subtype: need(b.subtype.take(), start, "subtype", input)?,
                entity_id: need(b.entity_id.take(), start, "entityId", input)?,
                encrypted_value: need(b.encrypted_value.take(), start, "encryptedValue", input)?,
            })
        }
        T::SubagentStarted => Event::SubagentStarted(SubagentStartedEvent {
            base,
            subagent_run_id: need(sub, start, "subagentRunId", input)?,
            name: need(b.name.take(), start, "name", input)?,
            description: b.description.take(),
            parent_subagent_run_id: b.parent_subagent_run_id.take(),
            parent_tool_call_id: b.parent_tool_call_id.take(),
            parent_message_id: b.parent_message_id.take(),
        }),
        T::SubagentFinished => Event::SubagentFinished(SubagentFinishedEvent {
            base,
            subagent_run_id: need(sub, start, "subagentRunId", input)?,
            result: b.result.take(),
            outcome: b.subagent_outcome.take(),
        }),
        T::SubagentError => Event::SubagentError(SubagentErrorEvent {
            base,
            subagent_run_id: need(sub, start, "subagentRunId", input)?,
            message: need(b.message.take(), start, "message", input)?,
            code: b.code.take(),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers() {
        for ok in ["", "/", "/a", "/a~0b", "/a~1b/", "//", "/~01"] {
            assert!(is_json_pointer(ok), "{ok}");
        }
        for bad in ["a", "/a~", "/a~2", "~0", "/~"] {
            assert!(!is_json_pointer(bad), "{bad}");
        }
    }
}
