//! Writing events back to compact JSON, with the crate's writer ([`WriteJson`]).
//!
//! The writer's rules hold: strings go out as their raw text, JSON values as the bytes they
//! were read from (minified if they held whitespace), unknown fields are kept, optional fields
//! without a value are left out, and keys come in the order the input used (recorded in
//! [`Extra`]) or else in the Python SDK's order. An event that was compact on the wire is
//! written back byte for byte.

use std::convert::Infallible;

use super::*;
use crate::model::*;
use crate::writer::{
    Sink, Slot, WriteJson, for_each_slot, write_extra_field, write_tag, write_uint,
};

/// A known field's value on its way out.
enum V<'d> {
    Str(&'d Str<'d>),
    Raw(&'d RawJson<'d>),
    Int(i64),
    Uint(u64),
    Bool(bool),
    Tag(&'static str),
    Strs(&'d List<'d, Str<'d>>),
    Input(&'d RunAgentInput<'d>),
    Messages(&'d List<'d, Message<'d>>),
    Content(&'d Content<'d>),
    Usage(&'d List<'d, TokenUsage<'d>>),
    Interrupts(&'d List<'d, Interrupt<'d>>),
    Outcome(&'d RunOutcome<'d>),
    SubOutcome(&'d SubagentOutcome<'d>),
}

fn write_int<'d, S: Sink<'d>>(v: i64, out: &mut S) {
    write_uint(v.unsigned_abs(), v < 0, out);
}

impl<'d> V<'d> {
    fn write<S: Sink<'d>>(self, out: &mut S) {
        match self {
            V::Str(s) => s.write_json(out),
            V::Raw(r) => r.write_json(out),
            V::Int(i) => write_int(i, out),
            V::Uint(u) => write_uint(u, false, out),
            V::Bool(b) => out.push(if b { b"true" } else { b"false" }),
            V::Tag(t) => write_tag(t, out),
            V::Strs(l) => l.write_json(out),
            V::Input(i) => i.write_json(out),
            V::Messages(m) => m.write_json(out),
            V::Content(c) => c.write_json(out),
            V::Usage(u) => u.write_json(out),
            V::Interrupts(i) => i.write_json(out),
            V::Outcome(o) => o.write_json(out),
            V::SubOutcome(o) => o.write_json(out),
        }
    }
}

/// Writes an object whose known keys are `names` (`value` gives the present ones' values) and
/// whose unknown ones are in `extra`, in the recorded wire order or else in `names` order.
fn write_fields<'d, S: Sink<'d>>(
    out: &mut S,
    names: &'static [&'static str],
    extra: &'d Extra<'d>,
    value: impl Fn(&'static str) -> Option<V<'d>>,
) {
    out.push(b"{");
    let mut first = true;
    let all = if names.len() >= 64 {
        u64::MAX
    } else {
        (1u64 << names.len()) - 1
    };
    let _ = for_each_slot::<Infallible>(names.len(), all, extra, |slot| {
        match slot {
            Slot::Known(k) => {
                if let Some((name, v)) = names.get(k).and_then(|n| Some((*n, value(n)?))) {
                    if !first {
                        out.push(b",");
                    }
                    first = false;
                    out.push(b"\"");
                    out.push(name.as_bytes());
                    out.push(b"\":");
                    v.write(out);
                }
            }
            Slot::Extra(i) => {
                if let Some(field) = extra.fields().get(i) {
                    if !first {
                        out.push(b",");
                    }
                    first = false;
                    write_extra_field(field, out);
                }
            }
        }
        Ok(())
    });
    out.push(b"}");
}

fn opt_str<'d>(s: &'d Option<Str<'d>>) -> Option<V<'d>> {
    s.as_ref().map(V::Str)
}

fn opt_raw<'d>(r: &'d Option<RawJson<'d>>) -> Option<V<'d>> {
    r.as_ref().map(V::Raw)
}

/// The common event fields (`None` when `name` is not one of them, `Some(None)` when absent).
#[allow(clippy::option_option)]
fn base_value<'d>(name: &str, t: EventType, base: &'d EventBase<'d>) -> Option<Option<V<'d>>> {
    Some(match name {
        "type" => Some(V::Tag(t.as_str())),
        "timestamp" => base.timestamp.map(V::Int),
        "rawEvent" => opt_raw(&base.raw_event),
        "metadata" => opt_raw(&base.metadata),
        // The `SUBAGENT_*` events carry it as their own required field.
        "subagentRunId"
            if !matches!(
                t,
                EventType::SubagentStarted | EventType::SubagentFinished | EventType::SubagentError
            ) =>
        {
            opt_str(&base.subagent_run_id)
        }
        _ => return None,
    })
}

/// Implements [`WriteJson`] for an event struct: the common fields, then `$name => value`.
macro_rules! write_event {
    ($ty:ident, $t:expr, |$e:ident, $n:ident| { $($body:tt)* }) => {
        impl WriteJson for $ty<'_> {
            fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
                let $e: &'d $ty<'d> = self;
                let t: EventType = $t;
                write_fields(out, t.fields(), &$e.base.extra, |$n| {
                    if let Some(v) = base_value($n, t, &$e.base) {
                        return v;
                    }
                    match $n {
                        $($body)*
                        _ => None,
                    }
                });
            }
        }
    };
}

write_event!(RunStartedEvent, EventType::RunStarted, |e, n| {
    "threadId" => Some(V::Str(&e.thread_id)),
    "runId" => Some(V::Str(&e.run_id)),
    "protocolVersion" => opt_str(&e.protocol_version),
    "parentRunId" => opt_str(&e.parent_run_id),
    "input" => e.input.as_deref().map(V::Input),
});
write_event!(RunFinishedEvent, EventType::RunFinished, |e, n| {
    "threadId" => Some(V::Str(&e.thread_id)),
    "runId" => Some(V::Str(&e.run_id)),
    "result" => opt_raw(&e.result),
    "outcome" => e.outcome.as_ref().map(V::Outcome),
    "usage" => e.usage.as_ref().map(V::Usage),
});
write_event!(RunErrorEvent, EventType::RunError, |e, n| {
    "message" => Some(V::Str(&e.message)),
    "code" => opt_str(&e.code),
    "usage" => e.usage.as_ref().map(V::Usage),
});
write_event!(StepStartedEvent, EventType::StepStarted, |e, n| {
    "stepName" => Some(V::Str(&e.step_name)),
});
write_event!(StepFinishedEvent, EventType::StepFinished, |e, n| {
    "stepName" => Some(V::Str(&e.step_name)),
});
write_event!(TextMessageStartEvent, EventType::TextMessageStart, |e, n| {
    "messageId" => Some(V::Str(&e.message_id)),
    "role" => e.role.map(|r| V::Tag(r.as_str())),
    "name" => opt_str(&e.name),
});
write_event!(TextMessageContentEvent, EventType::TextMessageContent, |e, n| {
    "messageId" => Some(V::Str(&e.message_id)),
    "delta" => Some(V::Str(&e.delta)),
});
write_event!(TextMessageEndEvent, EventType::TextMessageEnd, |e, n| {
    "messageId" => Some(V::Str(&e.message_id)),
});
write_event!(TextMessageChunkEvent, EventType::TextMessageChunk, |e, n| {
    "messageId" => opt_str(&e.message_id),
    "role" => e.role.map(|r| V::Tag(r.as_str())),
    "delta" => opt_str(&e.delta),
    "name" => opt_str(&e.name),
});
write_event!(ToolCallStartEvent, EventType::ToolCallStart, |e, n| {
    "toolCallId" => Some(V::Str(&e.tool_call_id)),
    "toolCallName" => Some(V::Str(&e.tool_call_name)),
    "parentMessageId" => opt_str(&e.parent_message_id),
});
write_event!(ToolCallArgsEvent, EventType::ToolCallArgs, |e, n| {
    "toolCallId" => Some(V::Str(&e.tool_call_id)),
    "delta" => Some(V::Str(&e.delta)),
});
write_event!(ToolCallEndEvent, EventType::ToolCallEnd, |e, n| {
    "toolCallId" => Some(V::Str(&e.tool_call_id)),
});
write_event!(ToolCallChunkEvent, EventType::ToolCallChunk, |e, n| {
    "toolCallId" => opt_str(&e.tool_call_id),
    "toolCallName" => opt_str(&e.tool_call_name),
    "parentMessageId" => opt_str(&e.parent_message_id),
    "delta" => opt_str(&e.delta),
});
write_event!(ToolCallResultEvent, EventType::ToolCallResult, |e, n| {
    "messageId" => Some(V::Str(&e.message_id)),
    "toolCallId" => Some(V::Str(&e.tool_call_id)),
    "content" => Some(V::Content(&e.content)),
    "role" => e.role.map(|r| V::Tag(r.as_str())),
});
write_event!(StateSnapshotEvent, EventType::StateSnapshot, |e, n| {
    "snapshot" => Some(V::Raw(&e.snapshot)),
});
write_event!(StateDeltaEvent, EventType::StateDelta, |e, n| {
    "delta" => Some(V::Raw(&e.delta)),
});
write_event!(MessagesSnapshotEvent, EventType::MessagesSnapshot, |e, n| {
    "messages" => Some(V::Messages(&e.messages)),
});
write_event!(ActivitySnapshotEvent, EventType::ActivitySnapshot, |e, n| {
    "messageId" => Some(V::Str(&e.message_id)),
    "activityType" => Some(V::Str(&e.activity_type)),
    "content" => Some(V::Raw(&e.content)),
    "replace" => e.replace.map(V::Bool),
});
write_event!(ActivityDeltaEvent, EventType::ActivityDelta, |e, n| {
    "messageId" => Some(V::Str(&e.message_id)),
    "activityType" => Some(V::Str(&e.activity_type)),
    "patch" => Some(V::Raw(&e.patch)),
});
write_event!(RawEvent, EventType::Raw, |e, n| {
    "event" => Some(V::Raw(&e.event)),
    "source" => opt_str(&e.source),
});
write_event!(CustomEvent, EventType::Custom, |e, n| {
    "name" => Some(V::Str(&e.name)),
    "value" => Some(V::Raw(&e.value)),
});
write_event!(ReasoningStartEvent, EventType::ReasoningStart, |e, n| {
    "messageId" => Some(V::Str(&e.message_id)),
});
write_event!(ReasoningMessageStartEvent, EventType::ReasoningMessageStart, |e, n| {
    "messageId" => Some(V::Str(&e.message_id)),
    "role" => e.role.map(|r| V::Tag(r.as_str())),
});
write_event!(ReasoningMessageContentEvent, EventType::ReasoningMessageContent, |e, n| {
    "messageId" => Some(V::Str(&e.message_id)),
    "delta" => Some(V::Str(&e.delta)),
});
write_event!(ReasoningMessageEndEvent, EventType::ReasoningMessageEnd, |e, n| {
    "messageId" => Some(V::Str(&e.message_id)),
});
write_event!(ReasoningMessageChunkEvent, EventType::ReasoningMessageChunk, |e, n| {
    "messageId" => opt_str(&e.message_id),
    "delta" => opt_str(&e.delta),
});
write_event!(ReasoningEndEvent, EventType::ReasoningEnd, |e, n| {
    "messageId" => Some(V::Str(&e.message_id)),
});
write_event!(ReasoningEncryptedValueEvent, EventType::ReasoningEncryptedValue, |e, n| {
    "subtype" => Some(V::Tag(e.subtype.as_str())),
    "entityId" => Some(V::Str(&e.entity_id)),
    "encryptedValue" => Some(V::Str(&e.encrypted_value)),
});
write_event!(SubagentStartedEvent, EventType::SubagentStarted, |e, n| {
    "subagentRunId" => Some(V::Str(&e.subagent_run_id)),
    "name" => Some(V::Str(&e.name)),
    "description" => opt_str(&e.description),
    "parentSubagentRunId" => opt_str(&e.parent_subagent_run_id),
    "parentToolCallId" => opt_str(&e.parent_tool_call_id),
    "parentMessageId" => opt_str(&e.parent_message_id),
});
write_event!(SubagentFinishedEvent, EventType::SubagentFinished, |e, n| {
    "subagentRunId" => Some(V::Str(&e.subagent_run_id)),
    "result" => opt_raw(&e.result),
    "outcome" => e.outcome.as_ref().map(V::SubOutcome),
});
write_event!(SubagentErrorEvent, EventType::SubagentError, |e, n| {
    "subagentRunId" => Some(V::Str(&e.subagent_run_id)),
    "message" => Some(V::Str(&e.message)),
    "code" => opt_str(&e.code),
});

/// Writes any event as compact JSON; see the [module docs](crate::events).
///
/// ```
/// use agui_wire::{Event, Bump, WriteJson};
/// let arena = Bump::new();
/// let body = br#"{"type":"CUSTOM", "name":"n", "value":{ "a" : [1, 2] }, "x-hop":1}"#;
/// let ev = Event::parse(body, &arena)?;
/// assert_eq!(ev.to_json_vec(), br#"{"type":"CUSTOM","name":"n","value":{"a":[1,2]},"x-hop":1}"#);
/// // Keys keep the input's order; an unknown event is written back whole.
/// let odd = br#"{"n":[1],"type":"X_VENDOR"}"#;
/// assert_eq!(Event::parse(odd, &arena)?.to_json_vec(), odd);
/// # Ok::<(), agui_wire::Error>(())
/// ```
impl WriteJson for Event<'_> {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        match self {
            Event::Unknown { r#type, fields } => {
                write_fields(out, &["type"], fields, |_| Some(V::Str(r#type)))
            }
            Event::RunStarted(e) => e.write_json(out),
            Event::RunFinished(e) => e.write_json(out),
            Event::RunError(e) => e.write_json(out),
            Event::StepStarted(e) => e.write_json(out),
            Event::StepFinished(e) => e.write_json(out),
            Event::TextMessageStart(e) => e.write_json(out),
            Event::TextMessageContent(e) => e.write_json(out),
            Event::TextMessageEnd(e) => e.write_json(out),
            Event::TextMessageChunk(e) => e.write_json(out),
            Event::ToolCallStart(e) => e.write_json(out),
            Event::ToolCallArgs(e) => e.write_json(out),
            Event::ToolCallEnd(e) => e.write_json(out),
            Event::ToolCallChunk(e) => e.write_json(out),
            Event::ToolCallResult(e) => e.write_json(out),
            Event::StateSnapshot(e) => e.write_json(out),
            Event::StateDelta(e) => e.write_json(out),
            Event::MessagesSnapshot(e) => e.write_json(out),
            Event::ActivitySnapshot(e) => e.write_json(out),
            Event::ActivityDelta(e) => e.write_json(out),
            Event::Raw(e) => e.write_json(out),
            Event::Custom(e) => e.write_json(out),
            Event::ReasoningStart(e) => e.write_json(out),
            Event::ReasoningMessageStart(e) => e.write_json(out),
            Event::ReasoningMessageContent(e) => e.write_json(out),
            Event::ReasoningMessageEnd(e) => e.write_json(out),
            Event::ReasoningMessageChunk(e) => e.write_json(out),
            Event::ReasoningEnd(e) => e.write_json(out),
            Event::ReasoningEncryptedValue(e) => e.write_json(out),
            Event::SubagentStarted(e) => e.write_json(out),
            Event::SubagentFinished(e) => e.write_json(out),
            Event::SubagentError(e) => e.write_json(out),
        }
    }
}

impl Event<'_> {
    /// The event as a compact JSON string (the bytes of [`WriteJson::to_json_vec`]).
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let body = br#"{"messageId":"m1","type":"TEXT_MESSAGE_END"}"#;
    /// assert_eq!(Event::parse(body, &arena)?.to_json(), std::str::from_utf8(body).unwrap());
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn to_json(&self) -> String {
        // The writer emits raw strings and values the parser validated as UTF-8, plus ASCII.
        String::from_utf8(self.to_json_vec()).unwrap_or_default()
    }
}

impl WriteJson for TokenUsage<'_> {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        let u: &'d TokenUsage<'d> = self;
        write_fields(out, TokenUsage::FIELDS, &u.extra, |n| match n {
            "provider" => opt_str(&u.provider),
            "model" => opt_str(&u.model),
            "inputTokens" => u.input_tokens.map(V::Uint),
            "outputTokens" => u.output_tokens.map(V::Uint),
            "totalTokens" => u.total_tokens.map(V::Uint),
            "reasoningTokens" => u.reasoning_tokens.map(V::Uint),
            "cachedInputTokens" => u.cached_input_tokens.map(V::Uint),
            "cacheWriteInputTokens" => u.cache_write_input_tokens.map(V::Uint),
            _ => None,
        });
    }
}

impl WriteJson for Interrupt<'_> {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        let i: &'d Interrupt<'d> = self;
        write_fields(out, Interrupt::FIELDS, &i.extra, |n| match n {
            "subagentRunId" => opt_str(&i.subagent_run_id),
            "id" => Some(V::Str(&i.id)),
            "reason" => Some(V::Str(&i.reason)),
            "message" => opt_str(&i.message),
            "toolCallId" => opt_str(&i.tool_call_id),
            "responseSchema" => opt_raw(&i.response_schema),
            "expiresAt" => opt_str(&i.expires_at),
            "metadata" => opt_raw(&i.metadata),
            _ => None,
        });
    }
}

impl WriteJson for RunOutcome<'_> {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        let o: &'d RunOutcome<'d> = self;
        let extra = match o {
            RunOutcome::Success { extra, .. }
            | RunOutcome::Interrupt { extra, .. }
            | RunOutcome::Cancelled { extra } => extra,
        };
        write_fields(out, o.fields(), extra, |n| match (n, o) {
            ("type", _) => Some(V::Tag(o.type_name())),
            (
                "pendingToolCallIds",
                RunOutcome::Success {
                    pending_tool_call_ids,
                    ..
                },
            ) => pending_tool_call_ids.as_ref().map(V::Strs),
            ("interrupts", RunOutcome::Interrupt { interrupts, .. }) => {
                Some(V::Interrupts(interrupts))
            }
            _ => None,
        });
    }
}

impl WriteJson for SubagentOutcome<'_> {
    fn write_json<'d, S: Sink<'d>>(&'d self, out: &mut S) {
        let o: &'d SubagentOutcome<'d> = self;
        let extra = match o {
            SubagentOutcome::Success { extra } | SubagentOutcome::Suspended { extra, .. } => extra,
        };
        write_fields(out, o.fields(), extra, |n| match (n, o) {
            ("type", _) => Some(V::Tag(o.type_name())),
            ("interruptIds", SubagentOutcome::Suspended { interrupt_ids, .. }) => {
                interrupt_ids.as_ref().map(V::Strs)
            }
            _ => None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        for v in [
            0,
            7,
            -7,
            1735689600001,
            -(1i64 << 53) + 1,
            i64::MAX,
            i64::MIN,
        ] {
            let mut out = Vec::new();
            write_int(v, &mut out);
            assert_eq!(out, v.to_string().as_bytes());
        }
        let mut out = Vec::new();
        write_uint(u64::MAX, false, &mut out);
        assert_eq!(out, u64::MAX.to_string().as_bytes());
    }
}
