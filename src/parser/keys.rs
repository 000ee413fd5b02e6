//! Field names of messages, content parts, sources, tool calls and function calls as numbers:
//! a key is looked up once into [`F`] (by the generic key table of [`table`], which the event
//! fields use too), each kind of object maps `F` to its own field id through a table computed
//! at compile time from its field list, and the parser dispatches on the number.

pub(crate) mod table;

use crate::model::{
    BinaryInputContent, DataSource, FileSource, FunctionCall, MediaInputContent, Role, Str,
    TextInputContent, ToolCall, UrlSource,
};
use crate::scanner::StrToken;
use table::{ABSENT, KeyTable, id_in};

/// Every field name of a message, content part, source, tool call or function call.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(crate) enum F {
    SubagentRunId,
    Id,
    Role,
    EncryptedValue,
    Metadata,
    Content,
    ToolCalls,
    ToolCallId,
    Value,
    Error,
    ActivityType,
    Type,
    Text,
    Name,
    Source,
    MimeType,
    Url,
    Data,
    Filename,
    Provider,
    Function,
    Arguments,
}

/// How many names: every [`F`].
const COUNT: usize = 22;

/// The wire name of each [`F`], in its order. Names of one length are tried in this order, so
/// the common ones come first (`role`, `type`, `text` before `name` and `data`).
const KEYS: KeyTable<F, COUNT> = KeyTable::new([
    ("subagentRunId", F::SubagentRunId),
    ("id", F::Id),
    ("role", F::Role),
    ("encryptedValue", F::EncryptedValue),
    ("metadata", F::Metadata),
    ("content", F::Content),
    ("toolCalls", F::ToolCalls),
    ("toolCallId", F::ToolCallId),
    ("value", F::Value),
    ("error", F::Error),
    ("activityType", F::ActivityType),
    ("type", F::Type),
    ("text", F::Text),
    ("name", F::Name),
    ("source", F::Source),
    ("mimeType", F::MimeType),
    ("url", F::Url),
    ("data", F::Data),
    ("filename", F::Filename),
    ("provider", F::Provider),
    ("function", F::Function),
    ("arguments", F::Arguments),
]);

/// The wire name of `f`.
pub(crate) fn name(f: F) -> &'static str {
    KEYS.name(f as usize)
}

/// The field a key names, if any of these objects has it.
#[inline(always)]
pub(crate) fn field(key: &StrToken<'_>) -> Option<F> {
    if key.escaped {
        field_escaped(key)
    } else {
        KEYS.find(key.raw.as_bytes())
    }
}

/// [`field`] for a key written with escapes (rare): compared name by name.
#[cold]
fn field_escaped(key: &StrToken<'_>) -> Option<F> {
    KEYS.find_escaped(&Str::from_validated(key.raw, true))
}

/// The id of `f` in a table made by [`KeyTable::ids`].
#[inline(always)]
fn lookup(table: &[u8; COUNT], f: F) -> Option<usize> {
    id_in(table, f as usize)
}

/// Field ids of each role's message, `Role::fields` order.
const MESSAGE_IDS: [[u8; COUNT]; Role::ALL.len()] = {
    let mut t = [[ABSENT; COUNT]; Role::ALL.len()];
    let mut k = 0;
    while k < Role::ALL.len() {
        t[Role::ALL[k] as usize] = KEYS.ids(Role::ALL[k].fields());
        k += 1;
    }
    t
};

/// The id of `f` among `role`'s message fields (its index in `role.fields()`).
#[inline]
pub(crate) fn message_id(role: Role, f: F) -> Option<usize> {
    lookup(MESSAGE_IDS.get(role as usize)?, f)
}

const TEXT_PART_IDS: [u8; COUNT] = KEYS.ids(TextInputContent::FIELDS);
const MEDIA_PART_IDS: [u8; COUNT] = KEYS.ids(MediaInputContent::FIELDS);
const BINARY_PART_IDS: [u8; COUNT] = KEYS.ids(BinaryInputContent::FIELDS);

/// The id of `f` among the fields of a text, media or binary content part.
#[inline]
pub(crate) fn part_id(text: bool, binary: bool, f: F) -> Option<usize> {
    let table = match (text, binary) {
        (true, _) => &TEXT_PART_IDS,
        (_, true) => &BINARY_PART_IDS,
        _ => &MEDIA_PART_IDS,
    };
    lookup(table, f)
}

const DATA_SOURCE_IDS: [u8; COUNT] = KEYS.ids(DataSource::FIELDS);
const URL_SOURCE_IDS: [u8; COUNT] = KEYS.ids(UrlSource::FIELDS);
const FILE_SOURCE_IDS: [u8; COUNT] = KEYS.ids(FileSource::FIELDS);

/// The id of `f` among the fields of a data (0), url (1) or file (2) source.
#[inline]
pub(crate) fn source_id(kind: u8, f: F) -> Option<usize> {
    let table = match kind {
        0 => &DATA_SOURCE_IDS,
        1 => &URL_SOURCE_IDS,
        _ => &FILE_SOURCE_IDS,
    };
    lookup(table, f)
}

const TOOL_CALL_IDS: [u8; COUNT] = KEYS.ids(ToolCall::FIELDS);
const FUNCTION_CALL_IDS: [u8; COUNT] = KEYS.ids(FunctionCall::FIELDS);

/// The id of `f` among a tool call's fields.
#[inline]
pub(crate) fn tool_call_id(f: F) -> Option<usize> {
    lookup(&TOOL_CALL_IDS, f)
}

/// The id of `f` among a function call's fields.
#[inline]
pub(crate) fn function_call_id(f: F) -> Option<usize> {
    lookup(&FUNCTION_CALL_IDS, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(raw: &str, escaped: bool) -> StrToken<'_> {
        StrToken {
            raw,
            escaped,
            start: 0,
        }
    }

    #[test]
    fn names_and_ids_agree_with_the_field_lists() {
        for (k, (name, f)) in KEYS.entries().iter().enumerate() {
            assert_eq!(*f as usize, k, "{name}");
            assert_eq!(field(&token(name, false)), Some(*f), "{name}");
            assert_eq!(field_escaped(&token(name, true)), Some(*f), "{name}");
        }
        let check = |names: &[&str], id: &dyn Fn(F) -> Option<usize>| {
            for (i, name) in names.iter().enumerate() {
                let f = field(&token(name, false)).expect(name);
                assert_eq!(id(f), Some(i), "{name}");
            }
            for &(name, f) in KEYS.entries() {
                assert_eq!(id(f).is_some(), names.contains(&name), "{name}");
            }
        };
        for role in Role::ALL {
            check(role.fields(), &|f| message_id(role, f));
        }
        check(TextInputContent::FIELDS, &|f| part_id(true, false, f));
        check(BinaryInputContent::FIELDS, &|f| part_id(false, true, f));
        check(MediaInputContent::FIELDS, &|f| part_id(false, false, f));
        check(DataSource::FIELDS, &|f| source_id(0, f));
        check(UrlSource::FIELDS, &|f| source_id(1, f));
        check(FileSource::FIELDS, &|f| source_id(2, f));
        check(ToolCall::FIELDS, &tool_call_id);
        check(FunctionCall::FIELDS, &function_call_id);
        for not in [
            "",
            "i",
            "ids",
            "Id",
            "rol",
            "roles",
            "x-role",
            "contents",
            "toolcalls",
        ] {
            assert_eq!(field(&token(not, false)), None, "{not}");
        }
        // An escaped spelling of a name is that name.
        assert_eq!(field(&token("r\\u006fle", true)), Some(F::Role));
        assert_eq!(field(&token("r\\u006fles", true)), None);
    }
}
