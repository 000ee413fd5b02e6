//! Event field names as numbers: a key is looked up once into [`F`] (the parser's generic key
//! table, `parser::keys::table`), every event type maps `F` to its own field id through a table
//! computed at compile time from [`EventType::fields`], and the parser dispatches on the number.

use super::event_type::EventType;
use crate::parser::keys::table::{ABSENT, KeyTable, id_in};

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

/// How many names: every [`F`].
const COUNT: usize = 38;

/// The wire name of each [`F`], in its order.
const KEYS: KeyTable<F, COUNT> = KeyTable::new([
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
]);

/// The field a key names (the key as written, without escapes), if any event has it.
#[inline(always)]
pub(super) fn field(key: &[u8]) -> Option<F> {
    KEYS.find(key)
}

/// The field a key names, for a key written with escapes (rare): compared name by name.
#[cold]
pub(super) fn field_escaped(key: &crate::model::Str<'_>) -> Option<F> {
    KEYS.find_escaped(key)
}

/// `IDS[t as usize][f as usize]`: the id of field `f` in `t.fields()`, or `ABSENT`.
const IDS: [[u8; COUNT]; EventType::ALL.len()] = {
    let mut ids = [[ABSENT; COUNT]; EventType::ALL.len()];
    let mut k = 0;
    while k < EventType::ALL.len() {
        let t = EventType::ALL[k];
        ids[t as usize] = KEYS.ids(t.fields());
        k += 1;
    }
    ids
};

/// The id of `f` among `t`'s fields (its index in `t.fields()`), if `t` has it.
#[inline]
pub(super) fn id(t: EventType, f: F) -> Option<usize> {
    // (`get`: a type missing from `EventType::ALL` would have no row, and no fields.)
    id_in(IDS.get(t as usize)?, f as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ids_agree_with_the_field_lists() {
        for (k, (name, f)) in KEYS.entries().iter().enumerate() {
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
            for &(name, f) in KEYS.entries() {
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
