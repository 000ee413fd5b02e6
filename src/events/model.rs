//! The borrowed event types: one struct per AG-UI 1.0 event, the [`Event`] enum over them, and
//! [`EventBase`], the fields they share. (The type names are in `event_type.rs`, the outcomes
//! and token usage in `outcome.rs`.)

use super::event_type::EventType;
use super::outcome::{RunOutcome, SubagentOutcome, TokenUsage};
use crate::model::{
    Content, Extra, IntoOwned, List, Message, RawJson, Role, RunAgentInput, Str, owned_struct,
};

/// The fields every event may carry besides its `type`: `timestamp`, `rawEvent`, `metadata`,
/// `subagentRunId` (on the events that allow it) and the unknown fields.
///
/// ```
/// use agui_wire::{Event, Bump};
/// let arena = Bump::new();
/// let ev = Event::parse(br#"{"type":"STEP_STARTED","timestamp":1735689600000,
///     "metadata":{"trace":"t-1"},"stepName":"plan","x-hop":2}"#, &arena)?;
/// let base = ev.base().unwrap();
/// assert_eq!(base.timestamp, Some(1735689600000));
/// assert_eq!(base.metadata.as_ref().unwrap().text(), r#"{"trace":"t-1"}"#);
/// assert_eq!(base.extra.get("x-hop").unwrap().text(), "2");
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EventBase<'a> {
    /// `timestamp`: an integer within ±(2^53−1), milliseconds since the epoch by convention.
    pub timestamp: Option<i64>,
    /// `rawEvent`: the upstream event this one was derived from, any JSON.
    pub raw_event: Option<RawJson<'a>>,
    /// `metadata`: a JSON object.
    pub metadata: Option<RawJson<'a>>,
    /// `subagentRunId`: the subagent that produced the event. Always `None` on `RUN_STARTED`,
    /// `RUN_FINISHED`, `RUN_ERROR` and `MESSAGES_SNAPSHOT` (where the protocol does not define
    /// it, so a `subagentRunId` there is kept in `extra`), and on the `SUBAGENT_*` events,
    /// which carry it as their own required field.
    pub subagent_run_id: Option<Str<'a>>,
    /// Unknown fields and the wire field order.
    pub extra: Extra<'a>,
}
owned_struct!(EventBase {
    timestamp,
    raw_event,
    metadata,
    subagent_run_id,
    extra
});

/// One AG-UI event, discriminated by its `type`.
///
/// Every 1.0 type has its own variant. An event whose `type` is not one of them — a newer
/// protocol's, a vendor's, or one of the `THINKING_*` events that 1.0 removed (the TypeScript
/// client translates those to `REASONING_*`; agui-wire leaves that to the caller) — is kept as
/// [`Event::Unknown`] with all its fields, so a proxy can forward it untouched.
///
/// ```
/// use agui_wire::{Event, Bump};
/// let arena = Bump::new();
/// let ev = Event::parse(br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi"}"#, &arena)?;
/// let Event::TextMessageContent(c) = &ev else { panic!() };
/// assert_eq!((c.message_id.raw(), c.delta.raw()), ("m1", "Hi"));
///
/// let old = Event::parse(br#"{"type":"THINKING_START","title":"hmm"}"#, &arena)?;
/// assert!(matches!(old, Event::Unknown { .. }));
/// assert_eq!(old.type_name(), "THINKING_START");
/// # Ok::<(), agui_wire::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[allow(missing_docs)]
pub enum Event<'a> {
    RunStarted(RunStartedEvent<'a>),
    RunFinished(RunFinishedEvent<'a>),
    RunError(RunErrorEvent<'a>),
    StepStarted(StepStartedEvent<'a>),
    StepFinished(StepFinishedEvent<'a>),
    TextMessageStart(TextMessageStartEvent<'a>),
    TextMessageContent(TextMessageContentEvent<'a>),
    TextMessageEnd(TextMessageEndEvent<'a>),
    TextMessageChunk(TextMessageChunkEvent<'a>),
    ToolCallStart(ToolCallStartEvent<'a>),
    ToolCallArgs(ToolCallArgsEvent<'a>),
    ToolCallEnd(ToolCallEndEvent<'a>),
    ToolCallChunk(ToolCallChunkEvent<'a>),
    ToolCallResult(ToolCallResultEvent<'a>),
    StateSnapshot(StateSnapshotEvent<'a>),
    StateDelta(StateDeltaEvent<'a>),
    MessagesSnapshot(MessagesSnapshotEvent<'a>),
    ActivitySnapshot(ActivitySnapshotEvent<'a>),
    ActivityDelta(ActivityDeltaEvent<'a>),
    Raw(RawEvent<'a>),
    Custom(CustomEvent<'a>),
    ReasoningStart(ReasoningStartEvent<'a>),
    ReasoningMessageStart(ReasoningMessageStartEvent<'a>),
    ReasoningMessageContent(ReasoningMessageContentEvent<'a>),
    ReasoningMessageEnd(ReasoningMessageEndEvent<'a>),
    ReasoningMessageChunk(ReasoningMessageChunkEvent<'a>),
    ReasoningEnd(ReasoningEndEvent<'a>),
    ReasoningEncryptedValue(ReasoningEncryptedValueEvent<'a>),
    SubagentStarted(SubagentStartedEvent<'a>),
    SubagentFinished(SubagentFinishedEvent<'a>),
    SubagentError(SubagentErrorEvent<'a>),
    /// An event of a type AG-UI 1.0 does not define, kept whole.
    Unknown {
        /// The `type` value, as on the wire.
        r#type: Str<'a>,
        /// Every other field, in order (with the position of `type` in the wire order).
        fields: Extra<'a>,
    },
}

/// Evaluates `$body` with `$e` bound to the struct of every known variant, and `$unknown` for
/// the `Event::Unknown` pattern `$up`.
macro_rules! each_known {
    ($ev:expr, $e:ident => $body:expr, $up:pat => $unknown:expr) => {
        match $ev {
            Event::RunStarted($e) => $body,
            Event::RunFinished($e) => $body,
            Event::RunError($e) => $body,
            Event::StepStarted($e) => $body,
            Event::StepFinished($e) => $body,
            Event::TextMessageStart($e) => $body,
            Event::TextMessageContent($e) => $body,
            Event::TextMessageEnd($e) => $body,
            Event::TextMessageChunk($e) => $body,
            Event::ToolCallStart($e) => $body,
            Event::ToolCallArgs($e) => $body,
            Event::ToolCallEnd($e) => $body,
            Event::ToolCallChunk($e) => $body,
            Event::ToolCallResult($e) => $body,
            Event::StateSnapshot($e) => $body,
            Event::StateDelta($e) => $body,
            Event::MessagesSnapshot($e) => $body,
            Event::ActivitySnapshot($e) => $body,
            Event::ActivityDelta($e) => $body,
            Event::Raw($e) => $body,
            Event::Custom($e) => $body,
            Event::ReasoningStart($e) => $body,
            Event::ReasoningMessageStart($e) => $body,
            Event::ReasoningMessageContent($e) => $body,
            Event::ReasoningMessageEnd($e) => $body,
            Event::ReasoningMessageChunk($e) => $body,
            Event::ReasoningEnd($e) => $body,
            Event::ReasoningEncryptedValue($e) => $body,
            Event::SubagentStarted($e) => $body,
            Event::SubagentFinished($e) => $body,
            Event::SubagentError($e) => $body,
            $up => $unknown,
        }
    };
}

impl<'a> Event<'a> {
    /// The event's type; `None` for [`Event::Unknown`].
    ///
    /// ```
    /// # use agui_wire::{Event, EventType, Bump};
    /// let arena = Bump::new();
    /// let ev = Event::parse(br#"{"type":"RAW","event":null}"#, &arena)?;
    /// assert_eq!(ev.event_type(), Some(EventType::Raw));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn event_type(&self) -> Option<EventType> {
        use EventType as T;
        Some(match self {
            Event::RunStarted(_) => T::RunStarted,
            Event::RunFinished(_) => T::RunFinished,
            Event::RunError(_) => T::RunError,
            Event::StepStarted(_) => T::StepStarted,
            Event::StepFinished(_) => T::StepFinished,
            Event::TextMessageStart(_) => T::TextMessageStart,
            Event::TextMessageContent(_) => T::TextMessageContent,
            Event::TextMessageEnd(_) => T::TextMessageEnd,
            Event::TextMessageChunk(_) => T::TextMessageChunk,
            Event::ToolCallStart(_) => T::ToolCallStart,
            Event::ToolCallArgs(_) => T::ToolCallArgs,
            Event::ToolCallEnd(_) => T::ToolCallEnd,
            Event::ToolCallChunk(_) => T::ToolCallChunk,
            Event::ToolCallResult(_) => T::ToolCallResult,
            Event::StateSnapshot(_) => T::StateSnapshot,
            Event::StateDelta(_) => T::StateDelta,
            Event::MessagesSnapshot(_) => T::MessagesSnapshot,
            Event::ActivitySnapshot(_) => T::ActivitySnapshot,
            Event::ActivityDelta(_) => T::ActivityDelta,
            Event::Raw(_) => T::Raw,
            Event::Custom(_) => T::Custom,
            Event::ReasoningStart(_) => T::ReasoningStart,
            Event::ReasoningMessageStart(_) => T::ReasoningMessageStart,
            Event::ReasoningMessageContent(_) => T::ReasoningMessageContent,
            Event::ReasoningMessageEnd(_) => T::ReasoningMessageEnd,
            Event::ReasoningMessageChunk(_) => T::ReasoningMessageChunk,
            Event::ReasoningEnd(_) => T::ReasoningEnd,
            Event::ReasoningEncryptedValue(_) => T::ReasoningEncryptedValue,
            Event::SubagentStarted(_) => T::SubagentStarted,
            Event::SubagentFinished(_) => T::SubagentFinished,
            Event::SubagentError(_) => T::SubagentError,
            Event::Unknown { .. } => return None,
        })
    }

    /// The `type` as text: the wire name of a known type, the (unescaped) value of an unknown
    /// one.
    ///
    /// ```
    /// # use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let ev = Event::parse(br#"{"type":"X_VENDOR","n":1}"#, &arena)?;
    /// assert_eq!(ev.type_name(), "X_VENDOR");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn type_name(&self) -> std::borrow::Cow<'_, str> {
        match (self.event_type(), self) {
            (Some(t), _) => std::borrow::Cow::Borrowed(t.as_str()),
            (None, Event::Unknown { r#type, .. }) => r#type.unescaped(),
            (None, _) => std::borrow::Cow::Borrowed(""),
        }
    }

    /// The common fields (`None` for [`Event::Unknown`], whose fields are all in its `fields`).
    ///
    /// ```
    /// # use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let ev = Event::parse(br#"{"type":"RUN_ERROR","message":"boom","timestamp":7}"#, &arena)?;
    /// assert_eq!(ev.base().unwrap().timestamp, Some(7));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn base(&self) -> Option<&EventBase<'a>> {
        each_known!(self, e => Some(&e.base), Event::Unknown { .. } => None)
    }

    /// The common fields, to edit (`None` for [`Event::Unknown`]).
    ///
    /// ```
    /// # use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let mut ev = Event::parse(br#"{"type":"RUN_ERROR","message":"boom"}"#, &arena)?;
    /// ev.base_mut().unwrap().timestamp = Some(42);
    /// assert_eq!(ev.to_json(), r#"{"type":"RUN_ERROR","timestamp":42,"message":"boom"}"#);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn base_mut(&mut self) -> Option<&mut EventBase<'a>> {
        each_known!(self, e => Some(&mut e.base), Event::Unknown { .. } => None)
    }

    /// `subagentRunId`, wherever the event carries it (the common field, or the required
    /// field of the `SUBAGENT_*` events).
    ///
    /// ```
    /// # use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let ev = Event::parse(br#"{"type":"SUBAGENT_ERROR","subagentRunId":"s1","message":"x"}"#, &arena)?;
    /// assert_eq!(ev.subagent_run_id().unwrap(), "s1");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn subagent_run_id(&self) -> Option<&Str<'a>> {
        match self {
            Event::SubagentStarted(e) => Some(&e.subagent_run_id),
            Event::SubagentFinished(e) => Some(&e.subagent_run_id),
            Event::SubagentError(e) => Some(&e.subagent_run_id),
            other => other.base().and_then(|b| b.subagent_run_id.as_ref()),
        }
    }

    /// The unknown fields (for [`Event::Unknown`], all fields but `type`).
    ///
    /// ```
    /// # use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let ev = Event::parse(br#"{"type":"CUSTOM","name":"n","value":1,"x":true}"#, &arena)?;
    /// assert_eq!(ev.extra().get("x").unwrap().text(), "true");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn extra(&self) -> &Extra<'a> {
        each_known!(self, e => &e.base.extra, Event::Unknown { fields, .. } => fields)
    }

    /// Copies everything borrowed from the input, giving an event that owns its data.
    ///
    /// ```
    /// # use agui_wire::{Event, Bump};
    /// let owned: Event<'static> = {
    ///     let arena = Bump::new();
    ///     let body = br#"{"type":"STEP_FINISHED","stepName":"plan"}"#.to_vec();
    ///     Event::parse(&body, &arena)?.into_owned()
    /// };
    /// assert_eq!(owned.type_name(), "STEP_FINISHED");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    pub fn into_owned(self) -> Event<'static> {
        match self {
            Event::RunStarted(e) => Event::RunStarted(e.into_owned()),
            Event::RunFinished(e) => Event::RunFinished(e.into_owned()),
            Event::RunError(e) => Event::RunError(e.into_owned()),
            Event::StepStarted(e) => Event::StepStarted(e.into_owned()),
            Event::StepFinished(e) => Event::StepFinished(e.into_owned()),
            Event::TextMessageStart(e) => Event::TextMessageStart(e.into_owned()),
            Event::TextMessageContent(e) => Event::TextMessageContent(e.into_owned()),
            Event::TextMessageEnd(e) => Event::TextMessageEnd(e.into_owned()),
            Event::TextMessageChunk(e) => Event::TextMessageChunk(e.into_owned()),
            Event::ToolCallStart(e) => Event::ToolCallStart(e.into_owned()),
            Event::ToolCallArgs(e) => Event::ToolCallArgs(e.into_owned()),
            Event::ToolCallEnd(e) => Event::ToolCallEnd(e.into_owned()),
            Event::ToolCallChunk(e) => Event::ToolCallChunk(e.into_owned()),
            Event::ToolCallResult(e) => Event::ToolCallResult(e.into_owned()),
            Event::StateSnapshot(e) => Event::StateSnapshot(e.into_owned()),
            Event::StateDelta(e) => Event::StateDelta(e.into_owned()),
            Event::MessagesSnapshot(e) => Event::MessagesSnapshot(e.into_owned()),
            Event::ActivitySnapshot(e) => Event::ActivitySnapshot(e.into_owned()),
            Event::ActivityDelta(e) => Event::ActivityDelta(e.into_owned()),
            Event::Raw(e) => Event::Raw(e.into_owned()),
            Event::Custom(e) => Event::Custom(e.into_owned()),
            Event::ReasoningStart(e) => Event::ReasoningStart(e.into_owned()),
            Event::ReasoningMessageStart(e) => Event::ReasoningMessageStart(e.into_owned()),
            Event::ReasoningMessageContent(e) => Event::ReasoningMessageContent(e.into_owned()),
            Event::ReasoningMessageEnd(e) => Event::ReasoningMessageEnd(e.into_owned()),
            Event::ReasoningMessageChunk(e) => Event::ReasoningMessageChunk(e.into_owned()),
            Event::ReasoningEnd(e) => Event::ReasoningEnd(e.into_owned()),
            Event::ReasoningEncryptedValue(e) => Event::ReasoningEncryptedValue(e.into_owned()),
            Event::SubagentStarted(e) => Event::SubagentStarted(e.into_owned()),
            Event::SubagentFinished(e) => Event::SubagentFinished(e.into_owned()),
            Event::SubagentError(e) => Event::SubagentError(e.into_owned()),
            Event::Unknown { r#type, fields } => Event::Unknown {
                r#type: r#type.into_owned(),
                fields: fields.into_owned(),
            },
        }
    }
}

/// Defines an event struct: docs with an example, the base, the named fields, `into_owned`.
macro_rules! event_struct {
    (
        $(#[$doc:meta])*
        $name:ident { $($(#[$fdoc:meta])* $field:ident : $ty:ty),* $(,)? }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $name<'a> {
            /// `timestamp`, `rawEvent`, `metadata`, `subagentRunId` and unknown fields.
            pub base: EventBase<'a>,
            $($(#[$fdoc])* pub $field: $ty,)*
        }
        owned_struct!($name { base, $($field),* });
    };
}

event_struct!(
    /// `RUN_STARTED`: a run begins.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let ev = Event::parse(br#"{"type":"RUN_STARTED","threadId":"t","runId":"r",
    ///   "input":{"threadId":"t","runId":"r","messages":[{"id":"u1","role":"user","content":"hi"}]}}"#, &arena)?;
    /// let Event::RunStarted(rs) = ev else { panic!() };
    /// assert_eq!(rs.input.unwrap().messages.len(), 1);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    RunStartedEvent {
        /// `threadId`
        thread_id: Str<'a>,
        /// `runId`
        run_id: Str<'a>,
        /// `protocolVersion`
        protocol_version: Option<Str<'a>>,
        /// `parentRunId`
        parent_run_id: Option<Str<'a>>,
        /// `input`: the `RunAgentInput` the run was started with (boxed: it is by far the
        /// largest field of any event).
        input: Option<Box<RunAgentInput<'a>>>,
    }
);

event_struct!(
    /// `RUN_FINISHED`: a run ended, with an optional result, outcome and token usage.
    ///
    /// ```
    /// use agui_wire::{Event, RunOutcome, Bump};
    /// let arena = Bump::new();
    /// let ev = Event::parse(br#"{"type":"RUN_FINISHED","threadId":"t","runId":"r",
    ///   "outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"approval"}]},
    ///   "usage":[{"model":"m","inputTokens":12}]}"#, &arena)?;
    /// let Event::RunFinished(rf) = ev else { panic!() };
    /// let Some(RunOutcome::Interrupt { interrupts, .. }) = &rf.outcome else { panic!() };
    /// assert_eq!(interrupts[0].reason, "approval");
    /// assert_eq!(rf.usage.unwrap()[0].input_tokens, Some(12));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    RunFinishedEvent {
        /// `threadId`
        thread_id: Str<'a>,
        /// `runId`
        run_id: Str<'a>,
        /// `result`: any JSON.
        result: Option<RawJson<'a>>,
        /// `outcome`: success, interrupt or cancelled.
        outcome: Option<RunOutcome<'a>>,
        /// `usage`: token usage, one entry per model or provider.
        usage: Option<List<'a, TokenUsage<'a>>>,
    }
);

event_struct!(
    /// `RUN_ERROR`: a run failed.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::RunError(e) = Event::parse(br#"{"type":"RUN_ERROR","message":"rate limited","code":"429"}"#, &arena)? else { panic!() };
    /// assert_eq!(e.code.unwrap(), "429");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    RunErrorEvent {
        /// `message`
        message: Str<'a>,
        /// `code`
        code: Option<Str<'a>>,
        /// `usage`
        usage: Option<List<'a, TokenUsage<'a>>>,
    }
);

event_struct!(
    /// `STEP_STARTED`
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::StepStarted(s) = Event::parse(br#"{"type":"STEP_STARTED","stepName":"plan"}"#, &arena)? else { panic!() };
    /// assert_eq!(s.step_name, "plan");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    StepStartedEvent {
        /// `stepName`
        step_name: Str<'a>,
    }
);

event_struct!(
    /// `STEP_FINISHED`
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::StepFinished(s) = Event::parse(br#"{"type":"STEP_FINISHED","stepName":"plan"}"#, &arena)? else { panic!() };
    /// assert_eq!(s.step_name, "plan");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    StepFinishedEvent {
        /// `stepName`
        step_name: Str<'a>,
    }
);

event_struct!(
    /// `TEXT_MESSAGE_START`: a streamed text message begins.
    ///
    /// ```
    /// use agui_wire::{Event, Role, Bump};
    /// let arena = Bump::new();
    /// let Event::TextMessageStart(s) = Event::parse(br#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#, &arena)? else { panic!() };
    /// assert_eq!(s.role, Some(Role::Assistant));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    TextMessageStartEvent {
        /// `messageId`
        message_id: Str<'a>,
        /// `role`: developer, system, assistant or user; absent means assistant.
        role: Option<Role>,
        /// `name`
        name: Option<Str<'a>>,
    }
);

event_struct!(
    /// `TEXT_MESSAGE_CONTENT`: a piece of a text message (may be empty in 1.0).
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::TextMessageContent(c) = Event::parse(br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a\nb"}"#, &arena)? else { panic!() };
    /// assert_eq!(c.delta.unescaped(), "a\nb");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    TextMessageContentEvent {
        /// `messageId`
        message_id: Str<'a>,
        /// `delta`
        delta: Str<'a>,
    }
);

event_struct!(
    /// `TEXT_MESSAGE_END`
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::TextMessageEnd(e) = Event::parse(br#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#, &arena)? else { panic!() };
    /// assert_eq!(e.message_id, "m1");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    TextMessageEndEvent {
        /// `messageId`
        message_id: Str<'a>,
    }
);

event_struct!(
    /// `TEXT_MESSAGE_CHUNK`: start, content and end in one event (every field optional).
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::TextMessageChunk(c) = Event::parse(br#"{"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","delta":"Hi"}"#, &arena)? else { panic!() };
    /// assert!(c.role.is_none());
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    TextMessageChunkEvent {
        /// `messageId`
        message_id: Option<Str<'a>>,
        /// `role`: developer, system, assistant or user.
        role: Option<Role>,
        /// `delta`
        delta: Option<Str<'a>>,
        /// `name`
        name: Option<Str<'a>>,
    }
);

event_struct!(
    /// `TOOL_CALL_START`
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::ToolCallStart(s) = Event::parse(br#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search","parentMessageId":"m1"}"#, &arena)? else { panic!() };
    /// assert_eq!(s.tool_call_name, "search");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ToolCallStartEvent {
        /// `toolCallId`
        tool_call_id: Str<'a>,
        /// `toolCallName`
        tool_call_name: Str<'a>,
        /// `parentMessageId`: the assistant message the call belongs to.
        parent_message_id: Option<Str<'a>>,
    }
);

event_struct!(
    /// `TOOL_CALL_ARGS`: a fragment of the call's JSON arguments (JSON text inside a string).
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::ToolCallArgs(a) = Event::parse(br#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":"}"#, &arena)? else { panic!() };
    /// assert_eq!(a.delta.unescaped(), r#"{"q":"#);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ToolCallArgsEvent {
        /// `toolCallId`
        tool_call_id: Str<'a>,
        /// `delta`
        delta: Str<'a>,
    }
);

event_struct!(
    /// `TOOL_CALL_END`
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::ToolCallEnd(e) = Event::parse(br#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#, &arena)? else { panic!() };
    /// assert_eq!(e.tool_call_id, "c1");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ToolCallEndEvent {
        /// `toolCallId`
        tool_call_id: Str<'a>,
    }
);

event_struct!(
    /// `TOOL_CALL_CHUNK`: start, args and end in one event (every field optional).
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::ToolCallChunk(c) = Event::parse(br#"{"type":"TOOL_CALL_CHUNK","toolCallId":"c1","toolCallName":"f","delta":"{}"}"#, &arena)? else { panic!() };
    /// assert_eq!(c.delta.unwrap(), "{}");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ToolCallChunkEvent {
        /// `toolCallId`
        tool_call_id: Option<Str<'a>>,
        /// `toolCallName`
        tool_call_name: Option<Str<'a>>,
        /// `parentMessageId`
        parent_message_id: Option<Str<'a>>,
        /// `delta`
        delta: Option<Str<'a>>,
    }
);

event_struct!(
    /// `TOOL_CALL_RESULT`: the result of a tool call, as a tool message.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::ToolCallResult(r) = Event::parse(br#"{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"42"}"#, &arena)? else { panic!() };
    /// assert_eq!(r.content.as_text().unwrap(), "42");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ToolCallResultEvent {
        /// `messageId`: the id of the tool message.
        message_id: Str<'a>,
        /// `toolCallId`
        tool_call_id: Str<'a>,
        /// `content`: a string or content parts.
        content: Content<'a>,
        /// `role`: only `"tool"` is allowed.
        role: Option<Role>,
    }
);

event_struct!(
    /// `STATE_SNAPSHOT`: the whole state (any JSON, `null` included).
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::StateSnapshot(s) = Event::parse(br#"{"type":"STATE_SNAPSHOT","snapshot":{"n":1}}"#, &arena)? else { panic!() };
    /// assert_eq!(s.snapshot.text(), r#"{"n":1}"#);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    StateSnapshotEvent {
        /// `snapshot`
        snapshot: RawJson<'a>,
    }
);

event_struct!(
    /// `STATE_DELTA`: an RFC 6902 JSON Patch for the state, kept raw. The parser checks that it
    /// is an array of operations with a known `op`, JSON Pointer `path` (and `from` for `move`
    /// and `copy`), and `value` where the operation needs one.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::StateDelta(d) = Event::parse(br#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"/n","value":2}]}"#, &arena)? else { panic!() };
    /// assert_eq!(d.delta.text(), r#"[{"op":"add","path":"/n","value":2}]"#);
    /// assert!(Event::parse(br#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"n","value":2}]}"#, &arena).is_err());
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    StateDeltaEvent {
        /// `delta`: the patch (a JSON array).
        delta: RawJson<'a>,
    }
);

event_struct!(
    /// `MESSAGES_SNAPSHOT`: the whole conversation.
    ///
    /// ```
    /// use agui_wire::{Event, Message, Bump};
    /// let arena = Bump::new();
    /// let Event::MessagesSnapshot(s) = Event::parse(br#"{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u1","role":"user","content":"hi"}]}"#, &arena)? else { panic!() };
    /// assert!(matches!(s.messages[0], Message::User(_)));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    MessagesSnapshotEvent {
        /// `messages`
        messages: List<'a, Message<'a>>,
    }
);

event_struct!(
    /// `ACTIVITY_SNAPSHOT`: the content of an activity message.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::ActivitySnapshot(a) = Event::parse(br#"{"type":"ACTIVITY_SNAPSHOT","messageId":"a1","activityType":"PLAN","content":{"steps":[]},"replace":false}"#, &arena)? else { panic!() };
    /// assert_eq!(a.replace, Some(false));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ActivitySnapshotEvent {
        /// `messageId`
        message_id: Str<'a>,
        /// `activityType`
        activity_type: Str<'a>,
        /// `content`: a JSON object.
        content: RawJson<'a>,
        /// `replace`: whether to replace an existing message (absent means true).
        replace: Option<bool>,
    }
);

event_struct!(
    /// `ACTIVITY_DELTA`: a JSON Patch for an activity message's content.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::ActivityDelta(a) = Event::parse(br#"{"type":"ACTIVITY_DELTA","messageId":"a1","activityType":"PLAN","patch":[{"op":"remove","path":"/steps/0"}]}"#, &arena)? else { panic!() };
    /// assert_eq!(a.activity_type, "PLAN");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ActivityDeltaEvent {
        /// `messageId`
        message_id: Str<'a>,
        /// `activityType`
        activity_type: Str<'a>,
        /// `patch`: an RFC 6902 JSON Patch (a JSON array), validated like `STATE_DELTA.delta`.
        patch: RawJson<'a>,
    }
);

event_struct!(
    /// `RAW`: an upstream event passed through.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::Raw(r) = Event::parse(br#"{"type":"RAW","event":{"id":"x"},"source":"openai"}"#, &arena)? else { panic!() };
    /// assert_eq!(r.source.unwrap(), "openai");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    RawEvent {
        /// `event`: any JSON (`null` included; must be present).
        event: RawJson<'a>,
        /// `source`
        source: Option<Str<'a>>,
    }
);

event_struct!(
    /// `CUSTOM`: an application-defined event.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::Custom(c) = Event::parse(br#"{"type":"CUSTOM","name":"progress","value":0.5}"#, &arena)? else { panic!() };
    /// assert_eq!((c.name.raw(), c.value.text()), ("progress", "0.5"));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    CustomEvent {
        /// `name`
        name: Str<'a>,
        /// `value`: any JSON (`null` included; must be present).
        value: RawJson<'a>,
    }
);

event_struct!(
    /// `REASONING_START`: a reasoning span begins.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::ReasoningStart(r) = Event::parse(br#"{"type":"REASONING_START","messageId":"r1"}"#, &arena)? else { panic!() };
    /// assert_eq!(r.message_id, "r1");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ReasoningStartEvent {
        /// `messageId`
        message_id: Str<'a>,
    }
);

event_struct!(
    /// `REASONING_MESSAGE_START`: a reasoning message begins.
    ///
    /// ```
    /// use agui_wire::{Event, Role, Bump};
    /// let arena = Bump::new();
    /// let Event::ReasoningMessageStart(r) = Event::parse(br#"{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning"}"#, &arena)? else { panic!() };
    /// assert_eq!(r.role, Some(Role::Reasoning));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ReasoningMessageStartEvent {
        /// `messageId`
        message_id: Str<'a>,
        /// `role`: only `"reasoning"`. The TypeScript schema requires it; the Python SDK fills
        /// it in. agui-wire accepts it absent and then writes it absent.
        role: Option<Role>,
    }
);

event_struct!(
    /// `REASONING_MESSAGE_CONTENT`
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::ReasoningMessageContent(r) = Event::parse(br#"{"type":"REASONING_MESSAGE_CONTENT","messageId":"r1","delta":"hm"}"#, &arena)? else { panic!() };
    /// assert_eq!(r.delta, "hm");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ReasoningMessageContentEvent {
        /// `messageId`
        message_id: Str<'a>,
        /// `delta`
        delta: Str<'a>,
    }
);

event_struct!(
    /// `REASONING_MESSAGE_END`
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::ReasoningMessageEnd(r) = Event::parse(br#"{"type":"REASONING_MESSAGE_END","messageId":"r1"}"#, &arena)? else { panic!() };
    /// assert_eq!(r.message_id, "r1");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ReasoningMessageEndEvent {
        /// `messageId`
        message_id: Str<'a>,
    }
);

event_struct!(
    /// `REASONING_MESSAGE_CHUNK`: start, content and end of a reasoning message in one event.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::ReasoningMessageChunk(r) = Event::parse(br#"{"type":"REASONING_MESSAGE_CHUNK","delta":"more"}"#, &arena)? else { panic!() };
    /// assert!(r.message_id.is_none());
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ReasoningMessageChunkEvent {
        /// `messageId`
        message_id: Option<Str<'a>>,
        /// `delta`
        delta: Option<Str<'a>>,
    }
);

event_struct!(
    /// `REASONING_END`: a reasoning span ends.
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::ReasoningEnd(r) = Event::parse(br#"{"type":"REASONING_END","messageId":"r1"}"#, &arena)? else { panic!() };
    /// assert_eq!(r.message_id, "r1");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ReasoningEndEvent {
        /// `messageId`
        message_id: Str<'a>,
    }
);

event_struct!(
    /// `REASONING_ENCRYPTED_VALUE`: an encrypted value for a message or a tool call.
    ///
    /// ```
    /// use agui_wire::{Event, EncryptedValueSubtype, Bump};
    /// let arena = Bump::new();
    /// let Event::ReasoningEncryptedValue(r) = Event::parse(br#"{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c1","encryptedValue":"gAAA"}"#, &arena)? else { panic!() };
    /// assert_eq!(r.subtype, EncryptedValueSubtype::ToolCall);
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    ReasoningEncryptedValueEvent {
        /// `subtype`: `tool-call` or `message`.
        subtype: EncryptedValueSubtype,
        /// `entityId`: the message or tool call id.
        entity_id: Str<'a>,
        /// `encryptedValue`
        encrypted_value: Str<'a>,
    }
);

event_struct!(
    /// `SUBAGENT_STARTED` (new in 1.0).
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::SubagentStarted(s) = Event::parse(br#"{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"researcher"}"#, &arena)? else { panic!() };
    /// assert_eq!((s.subagent_run_id.raw(), s.name.raw()), ("s1", "researcher"));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    SubagentStartedEvent {
        /// `subagentRunId` (required here; `base.subagent_run_id` stays `None`).
        subagent_run_id: Str<'a>,
        /// `name`
        name: Str<'a>,
        /// `description`
        description: Option<Str<'a>>,
        /// `parentSubagentRunId`
        parent_subagent_run_id: Option<Str<'a>>,
        /// `parentToolCallId`
        parent_tool_call_id: Option<Str<'a>>,
        /// `parentMessageId`
        parent_message_id: Option<Str<'a>>,
    }
);

event_struct!(
    /// `SUBAGENT_FINISHED` (new in 1.0).
    ///
    /// ```
    /// use agui_wire::{Event, SubagentOutcome, Bump};
    /// let arena = Bump::new();
    /// let Event::SubagentFinished(s) = Event::parse(br#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s1","outcome":{"type":"suspended","interruptIds":["i1"]}}"#, &arena)? else { panic!() };
    /// assert!(matches!(s.outcome, Some(SubagentOutcome::Suspended { .. })));
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    SubagentFinishedEvent {
        /// `subagentRunId` (required here; `base.subagent_run_id` stays `None`).
        subagent_run_id: Str<'a>,
        /// `result`: any JSON.
        result: Option<RawJson<'a>>,
        /// `outcome`: success or suspended.
        outcome: Option<SubagentOutcome<'a>>,
    }
);

event_struct!(
    /// `SUBAGENT_ERROR` (new in 1.0).
    ///
    /// ```
    /// use agui_wire::{Event, Bump};
    /// let arena = Bump::new();
    /// let Event::SubagentError(s) = Event::parse(br#"{"type":"SUBAGENT_ERROR","subagentRunId":"s1","message":"timeout"}"#, &arena)? else { panic!() };
    /// assert_eq!(s.message, "timeout");
    /// # Ok::<(), agui_wire::Error>(())
    /// ```
    SubagentErrorEvent {
        /// `subagentRunId` (required here; `base.subagent_run_id` stays `None`).
        subagent_run_id: Str<'a>,
        /// `message`
        message: Str<'a>,
        /// `code`
        code: Option<Str<'a>>,
    }
);

/// `REASONING_ENCRYPTED_VALUE.subtype`.
///
/// ```
/// use agui_wire::EncryptedValueSubtype;
/// assert_eq!(EncryptedValueSubtype::from_name("tool-call"), Some(EncryptedValueSubtype::ToolCall));
/// assert_eq!(EncryptedValueSubtype::Message.as_str(), "message");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EncryptedValueSubtype {
    /// `"tool-call"`
    ToolCall,
    /// `"message"`
    #[default]
    Message,
}

impl EncryptedValueSubtype {
    /// The wire value.
    ///
    /// ```
    /// # use agui_wire::EncryptedValueSubtype;
    /// assert_eq!(EncryptedValueSubtype::ToolCall.as_str(), "tool-call");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            EncryptedValueSubtype::ToolCall => "tool-call",
            EncryptedValueSubtype::Message => "message",
        }
    }

    /// Reads a wire value.
    ///
    /// ```
    /// # use agui_wire::EncryptedValueSubtype;
    /// assert_eq!(EncryptedValueSubtype::from_name("tool_call"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<EncryptedValueSubtype> {
        match name {
            "tool-call" => Some(EncryptedValueSubtype::ToolCall),
            "message" => Some(EncryptedValueSubtype::Message),
            _ => None,
        }
    }
}

crate::model::copy_owned!(EncryptedValueSubtype);

impl<T: IntoOwned> IntoOwned for Box<T> {
    type Owned = Box<T::Owned>;
    fn into_owned_value(self) -> Box<T::Owned> {
        Box::new((*self).into_owned_value())
    }
}
