//! The field tables of the AG-UI 1.0 `.proto` files (`events.proto`, `types.proto`,
//! `patch.proto`, package `ag_ui`), written from their published facts: for each message, the
//! field numbers, the JSON names, the types and whether proto3 tracks presence (`optional`).
//!
//! A field that is not `optional` in proto3 has no presence: absent on the wire means its
//! default (`""`, `0`), and the official decoder writes that default into the event. Fields
//! whose JSON shape differs from the proto shape (the content forms, the outcomes, the patch
//! `op`) are marked [`Kind::Special`] and handled by name in the decoder and the encoder.

/// What a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `string`.
    Str,
    /// `int64` (`timestamp`, token counts).
    I64,
    /// `bool`.
    Bool,
    /// `google.protobuf.Value`: any JSON.
    Value,
    /// `google.protobuf.Struct`: a JSON object.
    Struct,
    /// A nested message of the package.
    Msg(&'static Desc),
    /// Handled by the decoder and the encoder by name (see the module docs).
    Special,
}

/// One field of a message.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FieldDesc {
    pub num: u32,
    pub json: &'static str,
    pub kind: Kind,
    /// `repeated`.
    pub repeated: bool,
    /// proto3 `optional` (or a message/Value field): absent stays absent. Otherwise absent means
    /// the default, which the official decoder writes out.
    pub optional: bool,
}

/// One message type.
#[derive(Debug)]
#[allow(dead_code)] // `name` is for Debug output and readers of the tables
pub(crate) struct Desc {
    pub name: &'static str,
    pub fields: &'static [FieldDesc],
}

impl PartialEq for Desc {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}
impl Eq for Desc {}

/// Whether a special field is one of the protocol's enums (read as a varint).
pub(crate) fn is_enum(fd: &FieldDesc) -> bool {
    fd.kind == Kind::Special && matches!(fd.json, "type" | "op")
}

/// Whether a message role is one of the protocol's; the decoder and the encoder place `content`
/// by it (a role they do not know keeps whatever content form it carries).
pub(crate) fn is_known_role(role: &str) -> bool {
    matches!(
        role,
        "developer" | "system" | "assistant" | "user" | "tool" | "activity" | "reasoning"
    )
}

impl Desc {
    /// The index in `fields` of field `num` (most tables number their fields 1, 2, 3, ...
    /// in order, which is tried first).
    #[inline]
    pub(crate) fn index_of(&self, num: u32) -> Option<usize> {
        let guess = (num as usize).wrapping_sub(1);
        match self.fields.get(guess) {
            Some(f) if f.num == num => Some(guess),
            _ => self.fields.iter().position(|f| f.num == num),
        }
    }
    pub(crate) fn field(&self, num: u32) -> Option<&'static FieldDesc> {
        self.fields.iter().find(|f| f.num == num)
    }
    pub(crate) fn by_json(&self, json: &str) -> Option<&'static FieldDesc> {
        self.fields.iter().find(|f| f.json == json)
    }
}

macro_rules! f {
    ($n:literal, $j:literal, req $k:expr) => {
        FieldDesc {
            num: $n,
            json: $j,
            kind: $k,
            repeated: false,
            optional: false,
        }
    };
    ($n:literal, $j:literal, opt $k:expr) => {
        FieldDesc {
            num: $n,
            json: $j,
            kind: $k,
            repeated: false,
            optional: true,
        }
    };
    ($n:literal, $j:literal, rep $k:expr) => {
        FieldDesc {
            num: $n,
            json: $j,
            kind: $k,
            repeated: true,
            optional: true,
        }
    };
}

use Kind::*;

/// The common field 1 of every event message.
pub(crate) const BASE_FIELD: u32 = 1;

pub(crate) static BASE_EVENT: Desc = Desc {
    name: "BaseEvent",
    fields: &[
        f!(1, "type", req Special),
        f!(2, "timestamp", opt I64),
        f!(3, "rawEvent", opt Value),
        f!(4, "metadata", opt Struct),
    ],
};

pub(crate) static DATA_SOURCE: Desc = Desc {
    name: "InputContentDataSource",
    fields: &[f!(1, "value", req Str), f!(2, "mimeType", req Str)],
};
pub(crate) static URL_SOURCE: Desc = Desc {
    name: "InputContentUrlSource",
    fields: &[f!(1, "value", req Str), f!(2, "mimeType", opt Str)],
};
pub(crate) static FILE_SOURCE: Desc = Desc {
    name: "InputContentFileSource",
    fields: &[
        f!(1, "value", req Str),
        f!(2, "provider", opt Str),
        f!(3, "mimeType", opt Str),
    ],
};
/// A oneof: the arm's JSON name is the source's `type`.
pub(crate) static SOURCE: Desc = Desc {
    name: "InputContentSource",
    fields: &[
        f!(1, "data", opt Msg(&DATA_SOURCE)),
        f!(2, "url", opt Msg(&URL_SOURCE)),
        f!(3, "file", opt Msg(&FILE_SOURCE)),
    ],
};
pub(crate) static TEXT_PART: Desc = Desc {
    name: "TextInputPart",
    fields: &[
        f!(1, "text", req Str),
        f!(2, "id", opt Str),
        f!(3, "metadata", opt Value),
    ],
};
pub(crate) static MEDIA_PART: Desc = Desc {
    name: "MediaInputPart",
    fields: &[
        f!(1, "source", opt Special),
        f!(2, "metadata", opt Value),
        f!(3, "id", opt Str),
    ],
};
/// A oneof: the arm's JSON name is the part's `type`.
pub(crate) static CONTENT_PART: Desc = Desc {
    name: "InputContent",
    fields: &[
        f!(1, "text", opt Msg(&TEXT_PART)),
        f!(2, "image", opt Msg(&MEDIA_PART)),
        f!(3, "audio", opt Msg(&MEDIA_PART)),
        f!(4, "video", opt Msg(&MEDIA_PART)),
        f!(5, "document", opt Msg(&MEDIA_PART)),
    ],
};
pub(crate) static FUNCTION: Desc = Desc {
    name: "ToolCall.Function",
    fields: &[f!(1, "name", req Str), f!(2, "arguments", req Str)],
};
pub(crate) static TOOL_CALL: Desc = Desc {
    name: "ToolCall",
    fields: &[
        f!(1, "id", req Str),
        f!(2, "type", req Str),
        f!(3, "function", opt Msg(&FUNCTION)),
        f!(4, "metadata", opt Struct),
        f!(5, "encryptedValue", opt Str),
    ],
};
/// The union of every role's fields. `content` is field 3 (a string), 8 (parts, for user and
/// tool) or 13 (a Struct, for activity), by role.
pub(crate) static MESSAGE: Desc = Desc {
    name: "Message",
    fields: &[
        f!(1, "id", req Str),
        f!(2, "role", req Str),
        f!(3, "content", opt Special),
        f!(4, "name", opt Str),
        f!(5, "toolCalls", rep Msg(&TOOL_CALL)),
        f!(6, "toolCallId", opt Str),
        f!(7, "error", opt Str),
        f!(8, "contentParts", rep Special),
        f!(9, "metadata", opt Struct),
        f!(10, "subagentRunId", opt Str),
        f!(11, "encryptedValue", opt Str),
        f!(12, "activityType", opt Str),
        f!(13, "activityContent", opt Special),
    ],
};
pub(crate) static TOOL: Desc = Desc {
    name: "Tool",
    fields: &[
        f!(1, "name", req Str),
        f!(2, "description", req Str),
        f!(3, "parameters", opt Value),
        f!(4, "metadata", opt Struct),
    ],
};
pub(crate) static CONTEXT: Desc = Desc {
    name: "Context",
    fields: &[f!(1, "description", req Str), f!(2, "value", req Str)],
};
pub(crate) static RESUME: Desc = Desc {
    name: "ResumeEntry",
    fields: &[
        f!(1, "interruptId", req Str),
        f!(2, "status", req Str),
        f!(3, "payload", opt Value),
        f!(4, "metadata", opt Struct),
    ],
};
/// `tools`, `context` and `resume` are always written (as `[]` when empty), as the official
/// decoder does.
pub(crate) static RUN_AGENT_INPUT: Desc = Desc {
    name: "RunAgentInput",
    fields: &[
        f!(1, "threadId", req Str),
        f!(2, "runId", req Str),
        f!(10, "protocolVersion", opt Str),
        f!(3, "parentRunId", opt Str),
        f!(4, "state", opt Value),
        f!(5, "messages", rep Msg(&MESSAGE)),
        f!(6, "tools", rep Msg(&TOOL)),
        f!(7, "context", rep Msg(&CONTEXT)),
        f!(8, "forwardedProps", opt Value),
        f!(9, "resume", rep Msg(&RESUME)),
    ],
};
pub(crate) static INTERRUPT: Desc = Desc {
    name: "Interrupt",
    fields: &[
        f!(1, "id", req Str),
        f!(2, "reason", req Str),
        f!(3, "message", opt Str),
        f!(4, "toolCallId", opt Str),
        f!(5, "responseSchema", opt Value),
        f!(6, "expiresAt", opt Str),
        f!(7, "metadata", opt Value),
        f!(8, "subagentRunId", opt Str),
    ],
};
pub(crate) static USAGE: Desc = Desc {
    name: "Usage",
    fields: &[
        f!(1, "provider", opt Str),
        f!(2, "model", opt Str),
        f!(3, "inputTokens", opt I64),
        f!(4, "outputTokens", opt I64),
        f!(5, "totalTokens", opt I64),
        f!(6, "reasoningTokens", opt I64),
        f!(7, "cachedInputTokens", opt I64),
        f!(8, "cacheWriteInputTokens", opt I64),
    ],
};
pub(crate) static PATCH_OP: Desc = Desc {
    name: "JsonPatchOperation",
    fields: &[
        f!(1, "op", req Special),
        f!(2, "path", req Str),
        f!(3, "from", opt Str),
        f!(4, "value", opt Value),
    ],
};

/// The names of `JsonPatchOperationType`, by number.
pub(crate) const PATCH_OPS: [&str; 6] = ["add", "remove", "replace", "move", "copy", "test"];

macro_rules! event {
    ($id:ident, $name:literal, [$($f:expr),* $(,)?]) => {
        pub(crate) static $id: Desc = Desc { name: $name, fields: &[$($f),*] };
    };
}

event!(
    TEXT_MESSAGE_START,
    "TextMessageStartEvent",
    [
        f!(2, "messageId", req Str),
        f!(3, "role", opt Str),
        f!(4, "name", opt Str),
        f!(5, "subagentRunId", opt Str)
    ]
);
event!(
    TEXT_MESSAGE_CONTENT,
    "TextMessageContentEvent",
    [
        f!(2, "messageId", req Str),
        f!(3, "delta", req Str),
        f!(4, "subagentRunId", opt Str)
    ]
);
event!(
    TEXT_MESSAGE_END,
    "TextMessageEndEvent",
    [f!(2, "messageId", req Str), f!(3, "subagentRunId", opt Str)]
);
event!(
    TEXT_MESSAGE_CHUNK,
    "TextMessageChunkEvent",
    [
        f!(2, "messageId", opt Str),
        f!(3, "role", opt Str),
        f!(4, "delta", opt Str),
        f!(5, "name", opt Str),
        f!(6, "subagentRunId", opt Str)
    ]
);
event!(
    TOOL_CALL_START,
    "ToolCallStartEvent",
    [
        f!(2, "toolCallId", req Str),
        f!(3, "toolCallName", req Str),
        f!(4, "parentMessageId", opt Str),
        f!(5, "subagentRunId", opt Str)
    ]
);
event!(
    TOOL_CALL_ARGS,
    "ToolCallArgsEvent",
    [
        f!(2, "toolCallId", req Str),
        f!(3, "delta", req Str),
        f!(4, "subagentRunId", opt Str)
    ]
);
event!(
    TOOL_CALL_END,
    "ToolCallEndEvent",
    [
        f!(2, "toolCallId", req Str),
        f!(3, "subagentRunId", opt Str)
    ]
);
event!(
    TOOL_CALL_CHUNK,
    "ToolCallChunkEvent",
    [
        f!(2, "toolCallId", opt Str),
        f!(3, "toolCallName", opt Str),
        f!(4, "parentMessageId", opt Str),
        f!(5, "delta", opt Str),
        f!(6, "subagentRunId", opt Str)
    ]
);
event!(
    TOOL_CALL_RESULT,
    "ToolCallResultEvent",
    [
        f!(2, "subagentRunId", opt Str),
        f!(3, "messageId", req Str),
        f!(4, "toolCallId", req Str),
        f!(5, "content", opt Special),
        f!(6, "role", opt Str),
        f!(7, "contentParts", rep Special)
    ]
);
event!(
    STATE_SNAPSHOT,
    "StateSnapshotEvent",
    [
        f!(2, "snapshot", opt Value),
        f!(3, "subagentRunId", opt Str)
    ]
);
event!(
    STATE_DELTA,
    "StateDeltaEvent",
    [
        f!(2, "delta", rep Msg(&PATCH_OP)),
        f!(3, "subagentRunId", opt Str)
    ]
);
event!(
    MESSAGES_SNAPSHOT,
    "MessagesSnapshotEvent",
    [f!(2, "messages", rep Msg(&MESSAGE))]
);
event!(
    ACTIVITY_SNAPSHOT,
    "ActivitySnapshotEvent",
    [
        f!(2, "subagentRunId", opt Str),
        f!(3, "messageId", req Str),
        f!(4, "activityType", req Str),
        f!(5, "content", opt Struct),
        f!(6, "replace", opt Bool)
    ]
);
event!(
    ACTIVITY_DELTA,
    "ActivityDeltaEvent",
    [
        f!(2, "subagentRunId", opt Str),
        f!(3, "messageId", req Str),
        f!(4, "activityType", req Str),
        f!(5, "patch", rep Msg(&PATCH_OP))
    ]
);
event!(
    RAW,
    "RawEvent",
    [
        f!(2, "event", opt Value),
        f!(3, "source", opt Str),
        f!(4, "subagentRunId", opt Str)
    ]
);
event!(
    CUSTOM,
    "CustomEvent",
    [
        f!(2, "name", req Str),
        f!(3, "value", opt Value),
        f!(4, "subagentRunId", opt Str)
    ]
);
event!(
    RUN_STARTED,
    "RunStartedEvent",
    [
        f!(2, "threadId", req Str),
        f!(3, "runId", req Str),
        f!(6, "protocolVersion", opt Str),
        f!(4, "parentRunId", opt Str),
        f!(5, "input", opt Msg(&RUN_AGENT_INPUT))
    ]
);
// `outcome` (5), `interrupts` (6) and `pendingToolCallIds` (8) make the JSON `outcome`.
event!(
    RUN_FINISHED,
    "RunFinishedEvent",
    [
        f!(2, "threadId", req Str),
        f!(3, "runId", req Str),
        f!(4, "result", opt Value),
        f!(5, "outcome", opt Special),
        f!(6, "interrupts", rep Msg(&INTERRUPT)),
        f!(7, "usage", rep Msg(&USAGE)),
        f!(8, "pendingToolCallIds", rep Special)
    ]
);
event!(
    RUN_ERROR,
    "RunErrorEvent",
    [
        f!(2, "code", opt Str),
        f!(3, "message", req Str),
        f!(4, "usage", rep Msg(&USAGE))
    ]
);
event!(
    STEP_STARTED,
    "StepStartedEvent",
    [f!(2, "stepName", req Str), f!(3, "subagentRunId", opt Str)]
);
event!(
    STEP_FINISHED,
    "StepFinishedEvent",
    [f!(2, "stepName", req Str), f!(3, "subagentRunId", opt Str)]
);
event!(
    REASONING_START,
    "ReasoningStartEvent",
    [f!(2, "subagentRunId", opt Str), f!(3, "messageId", req Str)]
);
event!(
    REASONING_MESSAGE_START,
    "ReasoningMessageStartEvent",
    [
        f!(2, "subagentRunId", opt Str),
        f!(3, "messageId", req Str),
        f!(4, "role", req Str)
    ]
);
event!(
    REASONING_MESSAGE_CONTENT,
    "ReasoningMessageContentEvent",
    [
        f!(2, "subagentRunId", opt Str),
        f!(3, "messageId", req Str),
        f!(4, "delta", req Str)
    ]
);
event!(
    REASONING_MESSAGE_END,
    "ReasoningMessageEndEvent",
    [f!(2, "subagentRunId", opt Str), f!(3, "messageId", req Str)]
);
event!(
    REASONING_MESSAGE_CHUNK,
    "ReasoningMessageChunkEvent",
    [
        f!(2, "subagentRunId", opt Str),
        f!(3, "messageId", opt Str),
        f!(4, "delta", opt Str)
    ]
);
event!(
    REASONING_END,
    "ReasoningEndEvent",
    [f!(2, "subagentRunId", opt Str), f!(3, "messageId", req Str)]
);
event!(
    REASONING_ENCRYPTED_VALUE,
    "ReasoningEncryptedValueEvent",
    [
        f!(2, "subagentRunId", opt Str),
        f!(3, "subtype", req Str),
        f!(4, "entityId", req Str),
        f!(5, "encryptedValue", req Str)
    ]
);
event!(
    SUBAGENT_STARTED,
    "SubagentStartedEvent",
    [
        f!(2, "subagentRunId", req Str),
        f!(3, "name", req Str),
        f!(4, "description", opt Str),
        f!(5, "parentSubagentRunId", opt Str),
        f!(6, "parentToolCallId", opt Str),
        f!(7, "parentMessageId", opt Str)
    ]
);
// `outcome` (4) and `interruptIds` (5) make the JSON `outcome`.
event!(
    SUBAGENT_FINISHED,
    "SubagentFinishedEvent",
    [
        f!(2, "subagentRunId", req Str),
        f!(3, "result", opt Value),
        f!(4, "outcome", opt Special),
        f!(5, "interruptIds", rep Special)
    ]
);
event!(
    SUBAGENT_ERROR,
    "SubagentErrorEvent",
    [
        f!(2, "subagentRunId", req Str),
        f!(3, "message", req Str),
        f!(4, "code", opt Str)
    ]
);

use crate::EventType;

/// The `Event` envelope's oneof: field number, event type, message table. The `EventType`
/// enum number of `BaseEvent.type` is the field number minus one... except that the two
/// orders differ, so it is listed too.
pub(crate) static ENVELOPE: [(u32, EventType, u32, &Desc); 31] = [
    (1, EventType::TextMessageStart, 0, &TEXT_MESSAGE_START),
    (2, EventType::TextMessageContent, 1, &TEXT_MESSAGE_CONTENT),
    (3, EventType::TextMessageEnd, 2, &TEXT_MESSAGE_END),
    (4, EventType::ToolCallStart, 3, &TOOL_CALL_START),
    (5, EventType::ToolCallArgs, 4, &TOOL_CALL_ARGS),
    (6, EventType::ToolCallEnd, 5, &TOOL_CALL_END),
    (7, EventType::StateSnapshot, 6, &STATE_SNAPSHOT),
    (8, EventType::StateDelta, 7, &STATE_DELTA),
    (9, EventType::MessagesSnapshot, 8, &MESSAGES_SNAPSHOT),
    (10, EventType::Raw, 9, &RAW),
    (11, EventType::Custom, 10, &CUSTOM),
    (12, EventType::RunStarted, 11, &RUN_STARTED),
    (13, EventType::RunFinished, 12, &RUN_FINISHED),
    (14, EventType::RunError, 13, &RUN_ERROR),
    (15, EventType::StepStarted, 14, &STEP_STARTED),
    (16, EventType::StepFinished, 15, &STEP_FINISHED),
    (17, EventType::TextMessageChunk, 19, &TEXT_MESSAGE_CHUNK),
    (18, EventType::ToolCallChunk, 20, &TOOL_CALL_CHUNK),
    (19, EventType::SubagentStarted, 16, &SUBAGENT_STARTED),
    (20, EventType::SubagentFinished, 17, &SUBAGENT_FINISHED),
    (21, EventType::SubagentError, 18, &SUBAGENT_ERROR),
    (22, EventType::ToolCallResult, 21, &TOOL_CALL_RESULT),
    (23, EventType::ActivitySnapshot, 22, &ACTIVITY_SNAPSHOT),
    (24, EventType::ActivityDelta, 23, &ACTIVITY_DELTA),
    (25, EventType::ReasoningStart, 24, &REASONING_START),
    (
        26,
        EventType::ReasoningMessageStart,
        25,
        &REASONING_MESSAGE_START,
    ),
    (
        27,
        EventType::ReasoningMessageContent,
        26,
        &REASONING_MESSAGE_CONTENT,
    ),
    (
        28,
        EventType::ReasoningMessageEnd,
        27,
        &REASONING_MESSAGE_END,
    ),
    (
        29,
        EventType::ReasoningMessageChunk,
        28,
        &REASONING_MESSAGE_CHUNK,
    ),
    (30, EventType::ReasoningEnd, 29, &REASONING_END),
    (
        31,
        EventType::ReasoningEncryptedValue,
        30,
        &REASONING_ENCRYPTED_VALUE,
    ),
];

/// The envelope entry of an event type.
pub(crate) fn envelope_of(t: EventType) -> &'static (u32, EventType, u32, &'static Desc) {
    // ENVELOPE holds every EventType exactly once (checked by a test).
    ENVELOPE.iter().find(|e| e.1 == t).unwrap_or(&ENVELOPE[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_covers_every_type_once() {
        for t in EventType::ALL {
            assert_eq!(ENVELOPE.iter().filter(|e| e.1 == t).count(), 1, "{t:?}");
        }
        let mut enums: Vec<u32> = ENVELOPE.iter().map(|e| e.2).collect();
        enums.sort();
        assert_eq!(enums, (0..31).collect::<Vec<_>>());
    }
}
