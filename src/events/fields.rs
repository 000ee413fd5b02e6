//! Event field names as numbers: a key is looked up once (by length, then its bytes) into
//! [`F`], every event type maps `F` to its own field id through a table computed at compile
//! time from [`EventType::fields`], and the parser dispatches on the number.

use super::event_type::EventType;
use crate::parser::keys::same;

/// Every field name of any 1.0 event.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(super) enum F {
    Type,
    Timestamp,
    RawEvent,
    Metadata,
    SubagentRunId,
    ThreadId,
    RunId,
    ProtocolVersion,
    ParentRunId,
    Input,
    Result,
    Outcome,
    Usage,
    Message,
    Code,
    StepName,
    MessageId,
    Role,
    Name,
    Delta,
    Patch,
    ToolCallId,
    ToolCallName,
    ParentMessageId,
    Content,
    Snapshot,
    Messages,
    ActivityType,
    Replace,
    Event,
    Source,
    Value,
    Subtype,
    EntityId,
    EncryptedValue,
    Description,
    ParentSubagentRunId,
    ParentToolCallId,
}

/// The wire name of each [`F`], in its order.
const NAMES: [(&str, F); 38] = [
    ("type", F::Type),
    ("timestamp", F::Timestamp),
    ("rawEvent", F::RawEvent),
    ("metadata", F::Metadata),
    ("subagentRunId", F::SubagentRunId),
    ("threadId", F::ThreadId),
    ("runId", F::RunId),
    ("protocolVersion", F::ProtocolVersion),
    ("parentRunId", F::ParentRunId),
    ("input", F::Input),
    ("result", F::Result),
    ("outcome", F::Outcome),
    ("usage", F::Usage),
    ("message", F::Message),
    ("code", F::Code),
    ("stepName", F::StepName),
    ("messageId", F::MessageId),
    ("role", F::Role),
    ("name", F::Name),
    ("delta", F::Delta),
    ("patch", F::Patch),
    ("toolCallId", F::ToolCallId),
    ("toolCallName", F::ToolCallName),
    ("parentMessageId", F::ParentMessageId),
    ("content", F::Content),
    ("snapshot", F::Snapshot),
    ("messages", F::Messages),
    ("activityType", F::ActivityType),
    ("replace", F::Replace),
    ("event", F::Event),
    ("source", F::Source),
    ("value", F::Value),
    ("subtype", F::Subtype),
    ("entityId", F::EntityId),
    ("encryptedValue", F::EncryptedValue),
    ("description", F::Description),
    ("parentSubagentRunId", F::ParentSubagentRunId),
    ("parentToolCallId", F::ParentToolCallId),
];

/// The field a key names (the key as written, without escapes), if any event has it.
#[inline(always)]
pub(super) fn field(key: &[u8]) -> Option<F> {
    // One switch on the length, then whole-key compares of that length only (the compiler
    // turns each into a few word compares).
    let f = match key.len() {
        4 => match key {
            b"type" => F::Type,
            b"code" => F::Code,
            b"role" => F::Role,
            b"name" => F::Name,
            _ => return None,
        },
        5 => match key {
            b"delta" => F::Delta,
            b"runId" => F::RunId,
            b"input" => F::Input,
            b"usage" => F::Usage,
            b"patch" => F::Patch,
            b"event" => F::Event,
            b"value" => F::Value,
            _ => return None,
        },
        6 => match key {
            b"result" => F::Result,
            b"source" => F::Source,
            _ => return None,
        },
        7 => match key {
            b"outcome" => F::Outcome,
            b"message" => F::Message,
            b"content" => F::Content,
            b"replace" => F::Replace,
            b"subtype" => F::Subtype,
            _ => return None,
        },
        8 => match key {
            b"rawEvent" => F::RawEvent,
            b"metadata" => F::Metadata,
            b"threadId" => F::ThreadId,
            b"stepName" => F::StepName,
            b"snapshot" => F::Snapshot,
            b"messages" => F::Messages,
            b"entityId" => F::EntityId,
            _ => return None,
        },
        9 => match key {
            b"messageId" => F::MessageId,
            b"timestamp" => F::Timestamp,
            _ => return None,
        },
        10 => match key {
            b"toolCallId" => F::ToolCallId,
            _ => return None,
        },
        11 => match key {
            b"parentRunId" => F::ParentRunId,
            b"description" => F::Description,
            _ => return None,
        },
        12 => match key {
            b"toolCallName" => F::ToolCallName,
            b"activityType" => F::ActivityType,
            _ => return None,
        },
        13 => match key {
            b"subagentRunId" => F::SubagentRunId,
            _ => return None,
        },
        14 => match key {
            b"encryptedValue" => F::EncryptedValue,
            _ => return None,
        },
        15 => match key {
            b"protocolVersion" => F::ProtocolVersion,
            b"parentMessageId" => F::ParentMessageId,
            _ => return None,
        },
        16 => match key {
            b"parentToolCallId" => F::ParentToolCallId,
            _ => return None,
        },
        19 => match key {
            b"parentSubagentRunId" => F::ParentSubagentRunId,
            _ => return None,
        },
        _ => return None,
    };
    Some(f)
}

/// The field a key names, for a key written with escapes (rare): compared name by name.
#[cold]
pub(super) fn field_escaped(key: &crate::model::Str<'_>) -> Option<F> {
    NAMES.iter().find(|(n, _)| key.eq_text(n)).map(|&(_, f)| f)
}

/// Marks a field the event type does not have.
pub(super) const ABSENT: u8 = u8::MAX;

/// The [`F`] of a name (compile time only: an unknown name stops the build).
const fn of_name(name: &str) -> F {
    let mut i = 0;
    while i < NAMES.len() {
        if same(NAMES[i].0, name) {
            return NAMES[i].1;
        }
        i += 1;
    }
    panic!("an event field name missing from NAMES")
}

/// `IDS[t as usize][f as usize]`: the id of field `f` in `t.fields()`, or [`ABSENT`].
const IDS: [[u8; NAMES.len()]; EventType::ALL.len()] = {
    let mut ids = [[ABSENT; NAMES.len()]; EventType::ALL.len()];
    let mut k = 0;
    while k < EventType::ALL.len() {
        let t = EventType::ALL[k];
        let names = t.fields();
        let mut i = 0;
        while i < names.len() {
            ids[t as usize][of_name(names[i]) as usize] = i as u8;
            i += 1;
        }
        k += 1;
    }
    ids
};

/// The id of `f` among `t`'s fields (its index in `t.fields()`), if `t` has it.
#[inline]
pub(super) fn id(t: EventType, f: F) -> Option<usize> {
    // (`get`: a type missing from `EventType::ALL` would have no row, and no fields.)
    let id = *IDS.get(t as usize)?.get(f as usize)?;
    (id != ABSENT).then_some(id as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ids_agree_with_the_field_lists() {
        for (k, (name, f)) in NAMES.iter().enumerate() {
            assert_eq!(*f as usize, k, "{name}");
            assert_eq!(field(name.as_bytes()), Some(*f), "{name}");
            let s = crate::model::Str::new(name);
            assert_eq!(field_escaped(&s), Some(*f), "{name}");
        }
        for t in EventType::ALL {
            for (i, name) in t.fields().iter().enumerate() {
                let f = field(name.as_bytes()).expect(name);
                assert_eq!(id(t, f), Some(i), "{t} {name}");
            }
            for (name, f) in NAMES {
                assert_eq!(id(t, f).is_some(), t.fields().contains(&name), "{t} {name}");
            }
        }
        for not in [
            "",
            "typ",
            "types",
            "Type",
            "messageID",
            "x-type",
            "deltas",
            "parentId",
        ] {
            assert_eq!(field(not.as_bytes()), None, "{not}");
        }
    }
}
