//! [`EventType`]: the 31 event types of AG-UI 1.0, their names on the wire and the fields each
//! may carry.

/// The 31 event types of AG-UI 1.0.
///
/// ```
/// use agui_wire::EventType;
/// assert_eq!(EventType::from_name("TOOL_CALL_ARGS"), Some(EventType::ToolCallArgs));
/// assert_eq!(EventType::ToolCallArgs.as_str(), "TOOL_CALL_ARGS");
/// assert_eq!(EventType::from_name("THINKING_START"), None); // removed in 1.0
/// assert_eq!(EventType::ALL.len(), 31);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum EventType {
    RunStarted,
    RunFinished,
    RunError,
    StepStarted,
    StepFinished,
    TextMessageStart,
    TextMessageContent,
    TextMessageEnd,
    TextMessageChunk,
    ToolCallStart,
    ToolCallArgs,
    ToolCallEnd,
    ToolCallChunk,
    ToolCallResult,
    StateSnapshot,
    StateDelta,
    MessagesSnapshot,
    ActivitySnapshot,
    ActivityDelta,
    Raw,
    Custom,
    ReasoningStart,
    ReasoningMessageStart,
    ReasoningMessageContent,
    ReasoningMessageEnd,
    ReasoningMessageChunk,
    ReasoningEnd,
    ReasoningEncryptedValue,
    SubagentStarted,
    SubagentFinished,
    SubagentError,
}

/// `type`, `timestamp`, `rawEvent`, `metadata` and `subagentRunId`, in the Python SDK's order.
macro_rules! fields {
    (base; $($f:literal),*) => {
        &["type", "timestamp", "rawEvent", "metadata", "subagentRunId", $($f),*]
    };
    (no_sub; $($f:literal),*) => {
        &["type", "timestamp", "rawEvent", "metadata", $($f),*]
    };
}

impl EventType {
    /// Every event type, in the order of the protocol's `EventType` enum.
    ///
    /// ```
    /// # use agui_wire::EventType;
    /// assert!(EventType::ALL.iter().all(|t| EventType::from_name(t.as_str()) == Some(*t)));
    /// ```
    pub const ALL: [EventType; 31] = [
        EventType::TextMessageStart,
        EventType::TextMessageContent,
        EventType::TextMessageEnd,
        EventType::TextMessageChunk,
        EventType::ToolCallStart,
        EventType::ToolCallArgs,
        EventType::ToolCallEnd,
        EventType::ToolCallChunk,
        EventType::ToolCallResult,
        EventType::StateSnapshot,
        EventType::StateDelta,
        EventType::MessagesSnapshot,
        EventType::ActivitySnapshot,
        EventType::ActivityDelta,
        EventType::Raw,
        EventType::Custom,
        EventType::RunStarted,
        EventType::RunFinished,
        EventType::RunError,
        EventType::StepStarted,
        EventType::StepFinished,
        EventType::ReasoningStart,
        EventType::ReasoningMessageStart,
        EventType::ReasoningMessageContent,
        EventType::ReasoningMessageEnd,
        EventType::ReasoningMessageChunk,
        EventType::ReasoningEnd,
        EventType::ReasoningEncryptedValue,
        EventType::SubagentStarted,
        EventType::SubagentFinished,
        EventType::SubagentError,
    ];

    /// The wire value (`SCREAMING_SNAKE_CASE`).
    ///
    /// ```
    /// # use agui_wire::EventType;
    /// assert_eq!(EventType::ReasoningEncryptedValue.as_str(), "REASONING_ENCRYPTED_VALUE");
    /// ```
    pub fn as_str(self) -> &'static str {
        use EventType::*;
        match self {
            RunStarted => "RUN_STARTED",
            RunFinished => "RUN_FINISHED",
            RunError => "RUN_ERROR",
            StepStarted => "STEP_STARTED",
            StepFinished => "STEP_FINISHED",
            TextMessageStart => "TEXT_MESSAGE_START",
            TextMessageContent => "TEXT_MESSAGE_CONTENT",
            TextMessageEnd => "TEXT_MESSAGE_END",
            TextMessageChunk => "TEXT_MESSAGE_CHUNK",
            ToolCallStart => "TOOL_CALL_START",
            ToolCallArgs => "TOOL_CALL_ARGS",
            ToolCallEnd => "TOOL_CALL_END",
            ToolCallChunk => "TOOL_CALL_CHUNK",
            ToolCallResult => "TOOL_CALL_RESULT",
            StateSnapshot => "STATE_SNAPSHOT",
            StateDelta => "STATE_DELTA",
            MessagesSnapshot => "MESSAGES_SNAPSHOT",
            ActivitySnapshot => "ACTIVITY_SNAPSHOT",
            ActivityDelta => "ACTIVITY_DELTA",
            Raw => "RAW",
            Custom => "CUSTOM",
            ReasoningStart => "REASONING_START",
            ReasoningMessageStart => "REASONING_MESSAGE_START",
            ReasoningMessageContent => "REASONING_MESSAGE_CONTENT",
            ReasoningMessageEnd => "REASONING_MESSAGE_END",
            ReasoningMessageChunk => "REASONING_MESSAGE_CHUNK",
            ReasoningEnd => "REASONING_END",
            ReasoningEncryptedValue => "REASONING_ENCRYPTED_VALUE",
            SubagentStarted => "SUBAGENT_STARTED",
            SubagentFinished => "SUBAGENT_FINISHED",
            SubagentError => "SUBAGENT_ERROR",
        }
    }

    /// Reads a wire value. Case matters, and the `THINKING_*` types removed in 1.0 are not
    /// event types any more (the parser keeps such events as [`Event::Unknown`](crate::Event::Unknown)).
    ///
    /// ```
    /// # use agui_wire::EventType;
    /// assert_eq!(EventType::from_name("run_started"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<EventType> {
        Self::from_name_bytes(name.as_bytes())
    }

    /// [`EventType::from_name`] on bytes (a name is ASCII: other bytes name no type).
    #[inline]
    pub(crate) fn from_name_bytes(name: &[u8]) -> Option<EventType> {
        use EventType::*;
        // A switch on the length, then compares of that length only (a few word compares
        // each): this runs once per event parsed.
        Some(match name.len() {
            3 => match name {
                b"RAW" => Raw,
                _ => return None,
            },
            6 => match name {
                b"CUSTOM" => Custom,
                _ => return None,
            },
            9 => match name {
                b"RUN_ERROR" => RunError,
                _ => return None,
            },
            11 => match name {
                b"RUN_STARTED" => RunStarted,
                b"STATE_DELTA" => StateDelta,
                _ => return None,
            },
            12 => match name {
                b"RUN_FINISHED" => RunFinished,
                b"STEP_STARTED" => StepStarted,
                _ => return None,
            },
            13 => match name {
                b"STEP_FINISHED" => StepFinished,
                b"TOOL_CALL_END" => ToolCallEnd,
                b"REASONING_END" => ReasoningEnd,
                _ => return None,
            },
            14 => match name {
                b"TOOL_CALL_ARGS" => ToolCallArgs,
                b"STATE_SNAPSHOT" => StateSnapshot,
                b"ACTIVITY_DELTA" => ActivityDelta,
                b"SUBAGENT_ERROR" => SubagentError,
                _ => return None,
            },
            15 => match name {
                b"TOOL_CALL_START" => ToolCallStart,
                b"TOOL_CALL_CHUNK" => ToolCallChunk,
                b"REASONING_START" => ReasoningStart,
                _ => return None,
            },
            16 => match name {
                b"TEXT_MESSAGE_END" => TextMessageEnd,
                b"TOOL_CALL_RESULT" => ToolCallResult,
                b"SUBAGENT_STARTED" => SubagentStarted,
                _ => return None,
            },
            17 => match name {
                b"MESSAGES_SNAPSHOT" => MessagesSnapshot,
                b"ACTIVITY_SNAPSHOT" => ActivitySnapshot,
                b"SUBAGENT_FINISHED" => SubagentFinished,
                _ => return None,
            },
            18 => match name {
                b"TEXT_MESSAGE_START" => TextMessageStart,
                b"TEXT_MESSAGE_CHUNK" => TextMessageChunk,
                _ => return None,
            },
            20 => match name {
                b"TEXT_MESSAGE_CONTENT" => TextMessageContent,
                _ => return None,
            },
            21 => match name {
                b"REASONING_MESSAGE_END" => ReasoningMessageEnd,
                _ => return None,
            },
            23 => match name {
                b"REASONING_MESSAGE_START" => ReasoningMessageStart,
                b"REASONING_MESSAGE_CHUNK" => ReasoningMessageChunk,
                _ => return None,
            },
            25 => match name {
                b"REASONING_MESSAGE_CONTENT" => ReasoningMessageContent,
                b"REASONING_ENCRYPTED_VALUE" => ReasoningEncryptedValue,
                _ => return None,
            },
            _ => return None,
        })
    }

    /// Whether events of this type may carry `subagentRunId` (all but the run lifecycle and
    /// `MESSAGES_SNAPSHOT`; the `SUBAGENT_*` events require it).
    ///
    /// ```
    /// # use agui_wire::EventType;
    /// assert!(EventType::StateDelta.allows_subagent_run_id());
    /// assert!(!EventType::RunStarted.allows_subagent_run_id());
    /// ```
    pub fn allows_subagent_run_id(self) -> bool {
        !matches!(
            self,
            EventType::RunStarted
                | EventType::RunFinished
                | EventType::RunError
                | EventType::MessagesSnapshot
        )
    }

    /// The JSON keys of this type's events in the order the Python SDK writes them.
    pub(crate) const fn fields(self) -> &'static [&'static str] {
        use EventType::*;
        match self {
            RunStarted => {
                fields!(no_sub; "threadId", "runId", "protocolVersion", "parentRunId", "input")
            }
            RunFinished => fields!(no_sub; "threadId", "runId", "result", "outcome", "usage"),
            RunError => fields!(no_sub; "message", "code", "usage"),
            StepStarted | StepFinished => fields!(base; "stepName"),
            TextMessageStart => fields!(base; "messageId", "role", "name"),
            TextMessageContent | ReasoningMessageContent => fields!(base; "messageId", "delta"),
            TextMessageEnd | ReasoningStart | ReasoningEnd | ReasoningMessageEnd => {
                fields!(base; "messageId")
            }
            TextMessageChunk => fields!(base; "messageId", "role", "delta", "name"),
            ToolCallStart => fields!(base; "toolCallId", "toolCallName", "parentMessageId"),
            ToolCallArgs => fields!(base; "toolCallId", "delta"),
            ToolCallEnd => fields!(base; "toolCallId"),
            ToolCallChunk => {
                fields!(base; "toolCallId", "toolCallName", "parentMessageId", "delta")
            }
            ToolCallResult => fields!(base; "messageId", "toolCallId", "content", "role"),
            StateSnapshot => fields!(base; "snapshot"),
            StateDelta => fields!(base; "delta"),
            MessagesSnapshot => fields!(no_sub; "messages"),
            ActivitySnapshot => fields!(base; "messageId", "activityType", "content", "replace"),
            ActivityDelta => fields!(base; "messageId", "activityType", "patch"),
            Raw => fields!(base; "event", "source"),
            Custom => fields!(base; "name", "value"),
            ReasoningMessageStart => fields!(base; "messageId", "role"),
            ReasoningMessageChunk => fields!(base; "messageId", "delta"),
            ReasoningEncryptedValue => fields!(base; "subtype", "entityId", "encryptedValue"),
            SubagentStarted => fields!(base; "name", "description", "parentSubagentRunId",
                "parentToolCallId", "parentMessageId"),
            SubagentFinished => fields!(base; "result", "outcome"),
            SubagentError => fields!(base; "message", "code"),
        }
    }
}

impl std::fmt::Display for EventType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
