//! Writing events (and the messages and `RunAgentInput` they carry) back to compact JSON.
//!
//! The rules are the crate's: strings are copied verbatim from [`Str::raw`] (never re-escaped),
//! JSON values are copied verbatim ([`RawJson`] text, minified when it held whitespace), unknown
//! fields are kept, optional fields without a value are left out (never `null`), and keys come
//! in the order the input used (recorded in [`Extra`]) or else in the Python SDK's order.
//!
//! This is a small writer local to the event module; it is meant to give way to the crate-wide
//! writer once that lands, with the same output.

use super::model::*;
use crate::model::*;
use crate::model::{EXTRA_BASE, minify_into};

impl Event<'_> {
    /// Appends the event as compact JSON to `out`.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let body = br#"{"type":"CUSTOM", "name":"n", "value":{ "a" : [1, 2] }, "x-hop":1}"#;
    /// let mut out = Vec::new();
    /// Event::parse(body, &arena)?.write_json(&mut out);
    /// assert_eq!(out, br#"{"type":"CUSTOM","name":"n","value":{"a":[1,2]},"x-hop":1}"#);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn write_json(&self, out: &mut Vec<u8>) {
        write_event(out, self);
    }

    /// The event as a compact JSON string.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let body = br#"{"messageId":"m1","type":"TEXT_MESSAGE_END"}"#;
    /// // The input's key order is kept.
    /// assert_eq!(Event::parse(body, &arena)?.to_json(), std::str::from_utf8(body).unwrap());
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        self.write_json(&mut out);
        // The writer only emits validated UTF-8 (raw strings and values) and ASCII.
        String::from_utf8(out).unwrap_or_default()
    }
}

/// Appends validated JSON text, without whitespace outside strings.
pub(crate) fn write_raw(out: &mut Vec<u8>, v: &RawJson<'_>) {
    if v.is_compact() {
        out.extend_from_slice(v.as_bytes());
    } else {
        minify_into(v.as_bytes(), out);
    }
}

fn write_str(out: &mut Vec<u8>, s: &Str<'_>) {
    out.push(b'"');
    out.extend_from_slice(s.raw().as_bytes());
    out.push(b'"');
}

/// The members of one object being written.
pub(crate) struct Fields<'o> {
    out: &'o mut Vec<u8>,
    first: bool,
}

impl Fields<'_> {
    fn key(&mut self, name: &str) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.out.push(b'"');
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b"\":");
    }
    fn lit(&mut self, name: &str, value: &str) {
        self.key(name);
        self.out.push(b'"');
        self.out.extend_from_slice(value.as_bytes());
        self.out.push(b'"');
    }
    fn str(&mut self, name: &str, v: &Str<'_>) {
        self.key(name);
        write_str(self.out, v);
    }
    fn opt_str(&mut self, name: &str, v: &Option<Str<'_>>) {
        if let Some(v) = v {
            self.str(name, v);
        }
    }
    fn raw(&mut self, name: &str, v: &RawJson<'_>) {
        self.key(name);
        write_raw(self.out, v);
    }
    fn opt_raw(&mut self, name: &str, v: &Option<RawJson<'_>>) {
        if let Some(v) = v {
            self.raw(name, v);
        }
    }
    fn opt_bool(&mut self, name: &str, v: Option<bool>) {
        if let Some(v) = v {
            self.key(name);
            self.out
                .extend_from_slice(if v { b"true" } else { b"false" });
        }
    }
    fn opt_int(&mut self, name: &str, v: Option<impl std::fmt::Display>) {
        if let Some(v) = v {
            self.key(name);
            self.out.extend_from_slice(v.to_string().as_bytes());
        }
    }
    fn opt_role(&mut self, name: &str, v: Option<Role>) {
        if let Some(r) = v {
            self.lit(name, r.as_str());
        }
    }
    fn with(&mut self, name: &str, f: impl FnOnce(&mut Vec<u8>)) {
        self.key(name);
        f(self.out);
    }
    fn list<T>(&mut self, name: &str, items: &[T], mut f: impl FnMut(&mut Vec<u8>, &T)) {
        self.key(name);
        write_list(self.out, items, |o, t| f(o, t));
    }
    fn opt_list<T>(
        &mut self,
        name: &str,
        items: &Option<List<'_, T>>,
        f: impl FnMut(&mut Vec<u8>, &T),
    ) {
        if let Some(items) = items {
            self.list(name, items, f);
        }
    }
    fn extra(&mut self, f: &Field<'_>) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        write_str(self.out, &f.key);
        self.out.push(b':');
        write_raw(self.out, &f.value);
    }
}

fn write_list<T>(out: &mut Vec<u8>, items: &[T], mut f: impl FnMut(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        f(out, item);
    }
    out.push(b']');
}

/// Writes an object whose known keys are `fields` (`known` writes the one it is given, when it
/// has a value) and whose unknown ones are in `extra` (written when `keep_extra`), in the
/// recorded wire order or else in the order of `fields`.
pub(crate) fn write_object(
    out: &mut Vec<u8>,
    keep_extra: bool,
    fields: &'static [&'static str],
    extra: &Extra<'_>,
    mut known: impl FnMut(&mut Fields<'_>, &'static str),
) {
    out.push(b'{');
    let mut f = Fields { out, first: true };
    let order = extra.order();
    if order.is_empty() {
        for name in fields {
            known(&mut f, name);
        }
        if keep_extra {
            for field in extra.fields() {
                f.extra(field);
            }
        }
    } else {
        let mut done = 0u64;
        for &id in order {
            if id < EXTRA_BASE {
                if let Some(name) = fields.get(id as usize) {
                    done |= 1 << (id & 63);
                    known(&mut f, name);
                }
            } else if keep_extra && let Some(field) = extra.fields().get((id - EXTRA_BASE) as usize)
            {
                f.extra(field);
            }
        }
        // Known fields set after parsing (so missing from the recorded order) go last.
        for (id, name) in fields.iter().enumerate() {
            if done & (1 << (id & 63)) == 0 {
                known(&mut f, name);
            }
        }
    }
    f.out.push(b'}');
}

/// The common event fields; `false` when `name` is not one of them.
fn base_field(f: &mut Fields<'_>, name: &'static str, t: EventType, base: &EventBase<'_>) -> bool {
    match name {
        "type" => f.lit(name, t.as_str()),
        "timestamp" => f.opt_int(name, base.timestamp),
        "rawEvent" => f.opt_raw(name, &base.raw_event),
        "metadata" => f.opt_raw(name, &base.metadata),
        // The `SUBAGENT_*` events carry it as their own required field.
        "subagentRunId"
            if !matches!(
                t,
                EventType::SubagentStarted | EventType::SubagentFinished | EventType::SubagentError
            ) =>
        {
            f.opt_str(name, &base.subagent_run_id)
        }
        _ => return false,
    }
    true
}

fn write_usage(out: &mut Vec<u8>, u: &TokenUsage<'_>) {
    write_object(
        out,
        true,
        TokenUsage::FIELDS,
        &u.extra,
        |f, name| match name {
            "provider" => f.opt_str(name, &u.provider),
            "model" => f.opt_str(name, &u.model),
            "inputTokens" => f.opt_int(name, u.input_tokens),
            "outputTokens" => f.opt_int(name, u.output_tokens),
            "totalTokens" => f.opt_int(name, u.total_tokens),
            "reasoningTokens" => f.opt_int(name, u.reasoning_tokens),
            "cachedInputTokens" => f.opt_int(name, u.cached_input_tokens),
            "cacheWriteInputTokens" => f.opt_int(name, u.cache_write_input_tokens),
            _ => {}
        },
    );
}

fn write_interrupt(out: &mut Vec<u8>, i: &Interrupt<'_>) {
    write_object(
        out,
        true,
        Interrupt::FIELDS,
        &i.extra,
        |f, name| match name {
            "subagentRunId" => f.opt_str(name, &i.subagent_run_id),
            "id" => f.str(name, &i.id),
            "reason" => f.str(name, &i.reason),
            "message" => f.opt_str(name, &i.message),
            "toolCallId" => f.opt_str(name, &i.tool_call_id),
            "responseSchema" => f.opt_raw(name, &i.response_schema),
            "expiresAt" => f.opt_str(name, &i.expires_at),
            "metadata" => f.opt_raw(name, &i.metadata),
            _ => {}
        },
    );
}

fn write_run_outcome(out: &mut Vec<u8>, o: &RunOutcome<'_>) {
    let extra = match o {
        RunOutcome::Success { extra, .. }
        | RunOutcome::Interrupt { extra, .. }
        | RunOutcome::Cancelled { extra } => extra,
    };
    write_object(out, true, o.fields(), extra, |f, name| match (name, o) {
        ("type", _) => f.lit(name, o.type_name()),
        (
            "pendingToolCallIds",
            RunOutcome::Success {
                pending_tool_call_ids,
                ..
            },
        ) => f.opt_list(name, pending_tool_call_ids, write_str),
        ("interrupts", RunOutcome::Interrupt { interrupts, .. }) => {
            f.list(name, interrupts, write_interrupt)
        }
        _ => {}
    });
}

fn write_subagent_outcome(out: &mut Vec<u8>, o: &SubagentOutcome<'_>) {
    let extra = match o {
        SubagentOutcome::Success { extra } | SubagentOutcome::Suspended { extra, .. } => extra,
    };
    write_object(out, true, o.fields(), extra, |f, name| match (name, o) {
        ("type", _) => f.lit(name, o.type_name()),
        ("interruptIds", SubagentOutcome::Suspended { interrupt_ids, .. }) => {
            f.opt_list(name, interrupt_ids, write_str)
        }
        _ => {}
    });
}

fn write_event(out: &mut Vec<u8>, ev: &Event<'_>) {
    let Some(t) = ev.event_type() else {
        if let Event::Unknown { r#type, fields } = ev {
            write_object(out, true, &["type"], fields, |f, name| f.str(name, r#type));
        }
        return;
    };
    let fields = t.fields();
    macro_rules! obj {
        ($e:expr, |$f:ident, $name:ident| { $($body:tt)* }) => {{
            let e = $e;
            write_object(out, true, fields, &e.base.extra, |$f, $name| {
                if !base_field($f, $name, t, &e.base) {
                    match $name { $($body)* _ => {} }
                }
            })
        }};
    }
    match ev {
        Event::RunStarted(e) => obj!(e, |f, name| {
            "threadId" => f.str(name, &e.thread_id),
            "runId" => f.str(name, &e.run_id),
            "protocolVersion" => f.opt_str(name, &e.protocol_version),
            "parentRunId" => f.opt_str(name, &e.parent_run_id),
            "input" => if let Some(i) = &e.input { f.with(name, |o| write_input(o, i, true)) },
        }),
        Event::RunFinished(e) => obj!(e, |f, name| {
            "threadId" => f.str(name, &e.thread_id),
            "runId" => f.str(name, &e.run_id),
            "result" => f.opt_raw(name, &e.result),
            "outcome" => if let Some(o) = &e.outcome { f.with(name, |out| write_run_outcome(out, o)) },
            "usage" => f.opt_list(name, &e.usage, write_usage),
        }),
        Event::RunError(e) => obj!(e, |f, name| {
            "message" => f.str(name, &e.message),
            "code" => f.opt_str(name, &e.code),
            "usage" => f.opt_list(name, &e.usage, write_usage),
        }),
        Event::StepStarted(e) => obj!(e, |f, name| { "stepName" => f.str(name, &e.step_name), }),
        Event::StepFinished(e) => obj!(e, |f, name| { "stepName" => f.str(name, &e.step_name), }),
        Event::TextMessageStart(e) => obj!(e, |f, name| {
            "messageId" => f.str(name, &e.message_id),
            "role" => f.opt_role(name, e.role),
            "name" => f.opt_str(name, &e.name),
        }),
        Event::TextMessageContent(e) => obj!(e, |f, name| {
            "messageId" => f.str(name, &e.message_id),
            "delta" => f.str(name, &e.delta),
        }),
        Event::TextMessageEnd(e) => {
            obj!(e, |f, name| { "messageId" => f.str(name, &e.message_id), })
        }
        Event::TextMessageChunk(e) => obj!(e, |f, name| {
            "messageId" => f.opt_str(name, &e.message_id),
            "role" => f.opt_role(name, e.role),
            "delta" => f.opt_str(name, &e.delta),
            "name" => f.opt_str(name, &e.name),
        }),
        Event::ToolCallStart(e) => obj!(e, |f, name| {
            "toolCallId" => f.str(name, &e.tool_call_id),
            "toolCallName" => f.str(name, &e.tool_call_name),
            "parentMessageId" => f.opt_str(name, &e.parent_message_id),
        }),
        Event::ToolCallArgs(e) => obj!(e, |f, name| {
            "toolCallId" => f.str(name, &e.tool_call_id),
            "delta" => f.str(name, &e.delta),
        }),
        Event::ToolCallEnd(e) => {
            obj!(e, |f, name| { "toolCallId" => f.str(name, &e.tool_call_id), })
        }
        Event::ToolCallChunk(e) => obj!(e, |f, name| {
            "toolCallId" => f.opt_str(name, &e.tool_call_id),
            "toolCallName" => f.opt_str(name, &e.tool_call_name),
            "parentMessageId" => f.opt_str(name, &e.parent_message_id),
            "delta" => f.opt_str(name, &e.delta),
        }),
        Event::ToolCallResult(e) => obj!(e, |f, name| {
            "messageId" => f.str(name, &e.message_id),
            "toolCallId" => f.str(name, &e.tool_call_id),
            "content" => f.with(name, |o| write_content(o, &e.content, true)),
            "role" => f.opt_role(name, e.role),
        }),
        Event::StateSnapshot(e) => obj!(e, |f, name| { "snapshot" => f.raw(name, &e.snapshot), }),
        Event::StateDelta(e) => obj!(e, |f, name| { "delta" => f.raw(name, &e.delta), }),
        Event::MessagesSnapshot(e) => obj!(e, |f, name| {
            "messages" => f.list(name, &e.messages, |o, m| write_message(o, m, true)),
        }),
        Event::ActivitySnapshot(e) => obj!(e, |f, name| {
            "messageId" => f.str(name, &e.message_id),
            "activityType" => f.str(name, &e.activity_type),
            "content" => f.raw(name, &e.content),
            "replace" => f.opt_bool(name, e.replace),
        }),
        Event::ActivityDelta(e) => obj!(e, |f, name| {
            "messageId" => f.str(name, &e.message_id),
            "activityType" => f.str(name, &e.activity_type),
            "patch" => f.raw(name, &e.patch),
        }),
        Event::Raw(e) => obj!(e, |f, name| {
            "event" => f.raw(name, &e.event),
            "source" => f.opt_str(name, &e.source),
        }),
        Event::Custom(e) => obj!(e, |f, name| {
            "name" => f.str(name, &e.name),
            "value" => f.raw(name, &e.value),
        }),
        Event::ReasoningStart(e) => {
            obj!(e, |f, name| { "messageId" => f.str(name, &e.message_id), })
        }
        Event::ReasoningMessageStart(e) => obj!(e, |f, name| {
            "messageId" => f.str(name, &e.message_id),
            "role" => f.opt_role(name, e.role),
        }),
        Event::ReasoningMessageContent(e) => obj!(e, |f, name| {
            "messageId" => f.str(name, &e.message_id),
            "delta" => f.str(name, &e.delta),
        }),
        Event::ReasoningMessageEnd(e) => {
            obj!(e, |f, name| { "messageId" => f.str(name, &e.message_id), })
        }
        Event::ReasoningMessageChunk(e) => obj!(e, |f, name| {
            "messageId" => f.opt_str(name, &e.message_id),
            "delta" => f.opt_str(name, &e.delta),
        }),
        Event::ReasoningEnd(e) => obj!(e, |f, name| { "messageId" => f.str(name, &e.message_id), }),
        Event::ReasoningEncryptedValue(e) => obj!(e, |f, name| {
            "subtype" => f.lit(name, e.subtype.as_str()),
            "entityId" => f.str(name, &e.entity_id),
            "encryptedValue" => f.str(name, &e.encrypted_value),
        }),
        Event::SubagentStarted(e) => obj!(e, |f, name| {
            "subagentRunId" => f.str(name, &e.subagent_run_id),
            "name" => f.str(name, &e.name),
            "description" => f.opt_str(name, &e.description),
            "parentSubagentRunId" => f.opt_str(name, &e.parent_subagent_run_id),
            "parentToolCallId" => f.opt_str(name, &e.parent_tool_call_id),
            "parentMessageId" => f.opt_str(name, &e.parent_message_id),
        }),
        Event::SubagentFinished(e) => obj!(e, |f, name| {
            "subagentRunId" => f.str(name, &e.subagent_run_id),
            "result" => f.opt_raw(name, &e.result),
            "outcome" => if let Some(o) = &e.outcome { f.with(name, |out| write_subagent_outcome(out, o)) },
        }),
        Event::SubagentError(e) => obj!(e, |f, name| {
            "subagentRunId" => f.str(name, &e.subagent_run_id),
            "message" => f.str(name, &e.message),
            "code" => f.opt_str(name, &e.code),
        }),
        Event::Unknown { .. } => {}
    }
}

/// Writes a `RunAgentInput`; `keep_extra` keeps unknown fields (at every level).
pub(crate) fn write_input(out: &mut Vec<u8>, i: &RunAgentInput<'_>, keep_extra: bool) {
    let k = keep_extra;
    write_object(
        out,
        k,
        RunAgentInput::FIELDS,
        &i.extra,
        |f, name| match name {
            "threadId" => f.str(name, &i.thread_id),
            "runId" => f.str(name, &i.run_id),
            "protocolVersion" => f.opt_str(name, &i.protocol_version),
            "parentRunId" => f.opt_str(name, &i.parent_run_id),
            "state" => f.opt_raw(name, &i.state),
            "messages" => f.list(name, &i.messages, |o, m| write_message(o, m, k)),
            "tools" => f.opt_list(name, &i.tools, |o, t| {
                write_object(o, k, Tool::FIELDS, &t.extra, |f, name| match name {
                    "name" => f.str(name, &t.name),
                    "description" => f.opt_str(name, &t.description),
                    "parameters" => f.opt_raw(name, &t.parameters),
                    "metadata" => f.opt_raw(name, &t.metadata),
                    _ => {}
                })
            }),
            "context" => f.opt_list(name, &i.context, |o, c| {
                write_object(o, k, Context::FIELDS, &c.extra, |f, name| match name {
                    "description" => f.str(name, &c.description),
                    "value" => f.str(name, &c.value),
                    _ => {}
                })
            }),
            "forwardedProps" => f.opt_raw(name, &i.forwarded_props),
            "resume" => f.opt_list(name, &i.resume, |o, r| {
                write_object(o, k, ResumeEntry::FIELDS, &r.extra, |f, name| match name {
                    "interruptId" => f.str(name, &r.interrupt_id),
                    "status" => f.lit(name, r.status.as_str()),
                    "payload" => f.opt_raw(name, &r.payload),
                    "metadata" => f.opt_raw(name, &r.metadata),
                    _ => {}
                })
            }),
            _ => {}
        },
    );
}

/// Writes a message; `keep_extra` keeps unknown fields (at every level).
pub(crate) fn write_message(out: &mut Vec<u8>, m: &Message<'_>, keep_extra: bool) {
    let k = keep_extra;
    let role = m.role();
    let fields = role.fields();
    match m {
        Message::Developer(DeveloperMessage {
            id,
            content,
            name,
            encrypted_value,
            metadata,
            subagent_run_id,
            extra,
        })
        | Message::System(SystemMessage {
            id,
            content,
            name,
            encrypted_value,
            metadata,
            subagent_run_id,
            extra,
        }) => write_object(out, k, fields, extra, |f, n| match n {
            "subagentRunId" => f.opt_str(n, subagent_run_id),
            "id" => f.str(n, id),
            "role" => f.lit(n, role.as_str()),
            "name" => f.opt_str(n, name),
            "encryptedValue" => f.opt_str(n, encrypted_value),
            "metadata" => f.opt_raw(n, metadata),
            "content" => f.str(n, content),
            _ => {}
        }),
        Message::Assistant(a) => write_object(out, k, fields, &a.extra, |f, n| match n {
            "subagentRunId" => f.opt_str(n, &a.subagent_run_id),
            "id" => f.str(n, &a.id),
            "role" => f.lit(n, role.as_str()),
            "name" => f.opt_str(n, &a.name),
            "encryptedValue" => f.opt_str(n, &a.encrypted_value),
            "metadata" => f.opt_raw(n, &a.metadata),
            "content" => f.opt_str(n, &a.content),
            "toolCalls" => f.opt_list(n, &a.tool_calls, |o, c| write_tool_call(o, c, k)),
            _ => {}
        }),
        Message::User(u) => write_object(out, k, fields, &u.extra, |f, n| match n {
            "subagentRunId" => f.opt_str(n, &u.subagent_run_id),
            "id" => f.str(n, &u.id),
            "role" => f.lit(n, role.as_str()),
            "name" => f.opt_str(n, &u.name),
            "encryptedValue" => f.opt_str(n, &u.encrypted_value),
            "metadata" => f.opt_raw(n, &u.metadata),
            "content" => f.with(n, |o| write_content(o, &u.content, k)),
            _ => {}
        }),
        Message::Tool(t) => write_object(out, k, fields, &t.extra, |f, n| match n {
            "subagentRunId" => f.opt_str(n, &t.subagent_run_id),
            "id" => f.str(n, &t.id),
            "role" => f.lit(n, role.as_str()),
            "content" => f.with(n, |o| write_content(o, &t.content, k)),
            "toolCallId" => f.str(n, &t.tool_call_id),
            "error" => f.opt_str(n, &t.error),
            "encryptedValue" => f.opt_str(n, &t.encrypted_value),
            "metadata" => f.opt_raw(n, &t.metadata),
            _ => {}
        }),
        Message::Activity(a) => write_object(out, k, fields, &a.extra, |f, n| match n {
            "subagentRunId" => f.opt_str(n, &a.subagent_run_id),
            "id" => f.str(n, &a.id),
            "role" => f.lit(n, role.as_str()),
            "activityType" => f.str(n, &a.activity_type),
            "content" => f.raw(n, &a.content),
            "metadata" => f.opt_raw(n, &a.metadata),
            _ => {}
        }),
        Message::Reasoning(r) => write_object(out, k, fields, &r.extra, |f, n| match n {
            "subagentRunId" => f.opt_str(n, &r.subagent_run_id),
            "id" => f.str(n, &r.id),
            "role" => f.lit(n, role.as_str()),
            "content" => f.str(n, &r.content),
            "encryptedValue" => f.opt_str(n, &r.encrypted_value),
            "metadata" => f.opt_raw(n, &r.metadata),
            _ => {}
        }),
    }
}

fn write_tool_call(out: &mut Vec<u8>, c: &ToolCall<'_>, k: bool) {
    write_object(out, k, ToolCall::FIELDS, &c.extra, |f, n| match n {
        "id" => f.str(n, &c.id),
        "type" => f.opt_str(n, &c.r#type),
        "function" => f.with(n, |o| {
            let func = &c.function;
            write_object(o, k, FunctionCall::FIELDS, &func.extra, |f, n| match n {
                "name" => f.str(n, &func.name),
                "arguments" => f.str(n, &func.arguments),
                _ => {}
            })
        }),
        "encryptedValue" => f.opt_str(n, &c.encrypted_value),
        "metadata" => f.opt_raw(n, &c.metadata),
        _ => {}
    });
}

/// Writes `content` (a string or content parts); `keep_extra` keeps unknown fields.
pub(crate) fn write_content(out: &mut Vec<u8>, c: &Content<'_>, k: bool) {
    match c {
        Content::Text(s) => write_str(out, s),
        Content::Parts(parts) => write_list(out, parts, |o, p| write_part(o, p, k)),
    }
}

fn write_part(out: &mut Vec<u8>, p: &InputContent<'_>, k: bool) {
    let kind = p.kind().as_str();
    match p {
        InputContent::Text(t) => {
            write_object(out, k, TextInputContent::FIELDS, &t.extra, |f, n| match n {
                "type" => f.lit(n, kind),
                "id" => f.opt_str(n, &t.id),
                "text" => f.str(n, &t.text),
                "metadata" => f.opt_raw(n, &t.metadata),
                _ => {}
            })
        }
        InputContent::Image(m)
        | InputContent::Audio(m)
        | InputContent::Video(m)
        | InputContent::Document(m) => write_object(
            out,
            k,
            MediaInputContent::FIELDS,
            &m.extra,
            |f, n| match n {
                "type" => f.lit(n, kind),
                "id" => f.opt_str(n, &m.id),
                "source" => f.with(n, |o| write_source(o, &m.source, k)),
                "metadata" => f.opt_raw(n, &m.metadata),
                _ => {}
            },
        ),
        InputContent::Binary(b) => write_object(
            out,
            k,
            BinaryInputContent::FIELDS,
            &b.extra,
            |f, n| match n {
                "type" => f.lit(n, kind),
                "mimeType" => f.str(n, &b.mime_type),
                "id" => f.opt_str(n, &b.id),
                "url" => f.opt_str(n, &b.url),
                "data" => f.opt_str(n, &b.data),
                "filename" => f.opt_str(n, &b.filename),
                _ => {}
            },
        ),
    }
}

fn write_source(out: &mut Vec<u8>, s: &InputContentSource<'_>, k: bool) {
    let t = s.type_name();
    match s {
        InputContentSource::Data(d) => {
            write_object(out, k, DataSource::FIELDS, &d.extra, |f, n| match n {
                "type" => f.lit(n, t),
                "value" => f.str(n, &d.value),
                "mimeType" => f.str(n, &d.mime_type),
                _ => {}
            })
        }
        InputContentSource::Url(u) => {
            write_object(out, k, UrlSource::FIELDS, &u.extra, |f, n| match n {
                "type" => f.lit(n, t),
                "value" => f.str(n, &u.value),
                "mimeType" => f.opt_str(n, &u.mime_type),
                _ => {}
            })
        }
        InputContentSource::File(fs) => {
            write_object(out, k, FileSource::FIELDS, &fs.extra, |f, n| match n {
                "type" => f.lit(n, t),
                "value" => f.str(n, &fs.value),
                "provider" => f.opt_str(n, &fs.provider),
                "mimeType" => f.opt_str(n, &fs.mime_type),
                _ => {}
            })
        }
    }
}
