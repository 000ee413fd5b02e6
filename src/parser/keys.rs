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

    /// Every name of [`KEYS`] is found, as written and by the escaped path; keys one byte off
    /// (changed, dropped, added), a case change and keys longer than any name are not; an
    /// escaped spelling of a name is that name, and one byte off it is not.
    #[test]
    fn every_name_and_no_near_miss() {
        let named = |k: &str| KEYS.entries().iter().find(|e| e.0 == k).map(|e| e.1);
        let check = |key: &str, want: Option<F>| {
            assert_eq!(field(&token(key, false)), want, "{key:?}");
            assert_eq!(KEYS.find(key.as_bytes()), want, "{key:?}");
            assert_eq!(KEYS.find_escaped(&Str::new(key)), want, "{key:?}");
        };
        for &(name, f) in KEYS.entries() {
            check(name, Some(f));
            assert_eq!(field(&token(name, true)), Some(f), "{name}");
            let b = name.as_bytes();
            for at in 0..b.len() {
                for c in [b'a', b'Z', b'_', b'0', b'~', b'\x7f'] {
                    let mut k = b.to_vec();
                    if k[at] == c {
                        continue;
                    }
                    k[at] = c;
                    let k = String::from_utf8(k).unwrap();
                    check(&k, named(&k));
                }
                let mut shorter = b.to_vec();
                shorter.remove(at);
                let k = String::from_utf8(shorter).unwrap();
                check(&k, named(&k));
            }
            for c in [b'a', b's', b'"', b' '] {
                for k in [
                    format!("{}{}", c as char, name),
                    format!("{name}{}", c as char),
                ] {
                    check(&k, None);
                }
            }
            check(&name.to_uppercase(), None);
            // Escaped spellings: `\u` of the first and of the last byte.
            let esc_first = format!("\\u{:04x}{}", b[0], &name[1..]);
            let esc_last = format!("{}\\u{:04X}", &name[..b.len() - 1], b[b.len() - 1]);
            // An escaped spelling one byte short of the name.
            let short = format!("\\u{:04x}{}", b[0], &name[1..b.len() - 1]);
            assert_eq!(field(&token(&short, true)), None, "{short}");
            for k in [esc_first, esc_last] {
                assert_eq!(field(&token(&k, true)), Some(f), "{k}");
                let longer = format!("{k}x");
                assert_eq!(field(&token(&longer, true)), None, "{longer}");
            }
        }
        for len in [0, 1, 23, 24, 25, 40, 300] {
            check(&"a".repeat(len), None);
            check(&"subagentRunId".repeat(2 + len / 13), None);
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
