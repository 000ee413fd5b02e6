//! Field names of messages, content parts, sources, tool calls and function calls as numbers:
//! a key is looked up once (a switch on its length, then whole-key compares of that length)
//! into [`F`], each kind of object maps `F` to its own field id through a table computed at
//! compile time from its field list, and the parser dispatches on the number.

use crate::model::{
    BinaryInputContent, DataSource, FileSource, FunctionCall, MediaInputContent, Role, Str,
    TextInputContent, ToolCall, UrlSource,
};
use crate::scanner::StrToken;

/// Every field name of a message, content part, source, tool call or function call.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(crate) enum F {
    SubagentRunId,
    Id,
    Role,
    Name,
    EncryptedValue,
    Metadata,
    Content,
    ToolCalls,
    ToolCallId,
    Error,
    ActivityType,
    Type,
    Text,
    Source,
    MimeType,
    Url,
    Data,
    Filename,
    Value,
    Provider,
    Function,
    Arguments,
}

/// The wire name of each [`F`], in its order.
const NAMES: [(&str, F); 22] = [
    ("subagentRunId", F::SubagentRunId),
    ("id", F::Id),
    ("role", F::Role),
    ("name", F::Name),
    ("encryptedValue", F::EncryptedValue),
    ("metadata", F::Metadata),
    ("content", F::Content),
    ("toolCalls", F::ToolCalls),
    ("toolCallId", F::ToolCallId),
    ("error", F::Error),
    ("activityType", F::ActivityType),
    ("type", F::Type),
    ("text", F::Text),
    ("source", F::Source),
    ("mimeType", F::MimeType),
    ("url", F::Url),
    ("data", F::Data),
    ("filename", F::Filename),
    ("value", F::Value),
    ("provider", F::Provider),
    ("function", F::Function),
    ("arguments", F::Arguments),
];

/// The wire name of `f`.
pub(crate) fn name(f: F) -> &'static str {
    NAMES.get(f as usize).map_or("", |&(n, _)| n)
}

/// The field a key names, if any of these objects has it.
#[inline(always)]
pub(crate) fn field(key: &StrToken<'_>) -> Option<F> {
    if key.escaped {
        field_escaped(key)
    } else {
        field_plain(key.raw.as_bytes())
    }
}

/// [`field`] for a key written without escapes.
#[inline(always)]
fn field_plain(key: &[u8]) -> Option<F> {
    let f = match key.len() {
        2 => match key {
            b"id" => F::Id,
            _ => return None,
        },
        3 => match key {
            b"url" => F::Url,
            _ => return None,
        },
        4 => match key {
            b"role" => F::Role,
            b"type" => F::Type,
            b"text" => F::Text,
            b"name" => F::Name,
            b"data" => F::Data,
            _ => return None,
        },
        5 => match key {
            b"value" => F::Value,
            b"error" => F::Error,
            _ => return None,
        },
        6 => match key {
            b"source" => F::Source,
            _ => return None,
        },
        7 => match key {
            b"content" => F::Content,
            _ => return None,
        },
        8 => match key {
            b"metadata" => F::Metadata,
            b"function" => F::Function,
            b"mimeType" => F::MimeType,
            b"filename" => F::Filename,
            b"provider" => F::Provider,
            _ => return None,
        },
        9 => match key {
            b"toolCalls" => F::ToolCalls,
            b"arguments" => F::Arguments,
            _ => return None,
        },
        10 => match key {
            b"toolCallId" => F::ToolCallId,
            _ => return None,
        },
        12 => match key {
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
        _ => return None,
    };
    Some(f)
}

/// [`field`] for a key written with escapes (rare): compared name by name.
#[cold]
fn field_escaped(key: &StrToken<'_>) -> Option<F> {
    let key = Str::from_validated(key.raw, true);
    NAMES.iter().find(|(n, _)| key.eq_text(n)).map(|&(_, f)| f)
}

/// Marks a field an object does not have.
const ABSENT: u8 = u8::MAX;

/// Whether two names are equal, at compile time (where `==` on `str` is not `const`); also
/// used by the event field tables (`events::fields`).
pub(crate) const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The [`F`] of a name (compile time only: an unknown name stops the build).
const fn of_name(name: &str) -> F {
    let mut i = 0;
    while i < NAMES.len() {
        if same(NAMES[i].0, name) {
            return NAMES[i].1;
        }
        i += 1;
    }
    panic!("a field name missing from NAMES")
}

/// `ids[f as usize]`: the index of field `f` in `names`, or [`ABSENT`].
const fn ids(names: &[&str]) -> [u8; NAMES.len()] {
    let mut ids = [ABSENT; NAMES.len()];
    let mut i = 0;
    while i < names.len() {
        ids[of_name(names[i]) as usize] = i as u8;
        i += 1;
    }
    ids
}

/// The id of `f` in a table made by [`ids`].
#[inline(always)]
fn lookup(table: &[u8; NAMES.len()], f: F) -> Option<usize> {
    let id = *table.get(f as usize)?;
    (id != ABSENT).then_some(id as usize)
}

/// Field ids of each role's message, `Role::fields` order.
const MESSAGE_IDS: [[u8; NAMES.len()]; Role::ALL.len()] = {
    let mut t = [[ABSENT; NAMES.len()]; Role::ALL.len()];
    let mut k = 0;
    while k < Role::ALL.len() {
        t[Role::ALL[k] as usize] = ids(Role::ALL[k].fields());
        k += 1;
    }
    t
};

/// The id of `f` among `role`'s message fields (its index in `role.fields()`).
#[inline]
pub(crate) fn message_id(role: Role, f: F) -> Option<usize> {
    lookup(MESSAGE_IDS.get(role as usize)?, f)
}

const TEXT_PART_IDS: [u8; NAMES.len()] = ids(TextInputContent::FIELDS);
const MEDIA_PART_IDS: [u8; NAMES.len()] = ids(MediaInputContent::FIELDS);
const BINARY_PART_IDS: [u8; NAMES.len()] = ids(BinaryInputContent::FIELDS);

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

const DATA_SOURCE_IDS: [u8; NAMES.len()] = ids(DataSource::FIELDS);
const URL_SOURCE_IDS: [u8; NAMES.len()] = ids(UrlSource::FIELDS);
const FILE_SOURCE_IDS: [u8; NAMES.len()] = ids(FileSource::FIELDS);

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

const TOOL_CALL_IDS: [u8; NAMES.len()] = ids(ToolCall::FIELDS);
const FUNCTION_CALL_IDS: [u8; NAMES.len()] = ids(FunctionCall::FIELDS);

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
        for (k, (name, f)) in NAMES.iter().enumerate() {
            assert_eq!(*f as usize, k, "{name}");
            assert_eq!(field(&token(name, false)), Some(*f), "{name}");
            assert_eq!(field_escaped(&token(name, true)), Some(*f), "{name}");
        }
        let check = |names: &[&str], id: &dyn Fn(F) -> Option<usize>| {
            for (i, name) in names.iter().enumerate() {
                let f = field(&token(name, false)).expect(name);
                assert_eq!(id(f), Some(i), "{name}");
            }
            for (name, f) in NAMES {
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
